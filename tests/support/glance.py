"""The glance test: what a phone shows at rest must not depend on that seat's secrets.

Two games with the same public actions and different secrets (a hideout, a role, a hand)
are played side by side; at each point the phones of the same seat are photographed at
rest and must match pixel for pixel (up to 2 levels of rasterisation noise). "At rest"
means what the page shows by itself: no finger holding a peek, nothing the player
opened, no focus ring, scrolled to the top.

Only what is legitimately random is masked (the table code, by default): a mask paints
the element's box in one flat colour, so its size and place still count.

    from tests.support.glance import assert_same_glance
    assert_same_glance(jack_a, jack_b, "whitechapel-jack-night1")
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
from urllib.parse import quote, urljoin, urlsplit

from playwright.sync_api import Page

from tests.support.pages import SCREENSHOTS, SETTLED

# The table code is drawn at random for each table; [data-glance-mask] marks any other
# element a template declares random (never a secret: a secret must look the same).
DEFAULT_MASK = (".code", "[data-glance-mask]")

_REST = """() => {
  if (document.activeElement && document.activeElement !== document.body) {
    document.activeElement.blur();
  }
  window.scrollTo(0, 0);
  return document.querySelectorAll('[data-peek].peeking').length;
}"""

# Chromium sometimes paints a freshly drawn page's box edges one pixel off where a box
# sits at a fractional offset, its layout the same (seen: a London 1888 answer's border
# and list marker after a reload, in one load out of five); laid out afresh, the page
# paints the same every time.
_RELAYOUT = """() => {
  document.body.style.display = 'none';
  void document.body.offsetHeight;
  document.body.style.display = '';
  window.scrollTo(0, 0);
}"""

# Compares two PNGs in the browser itself (no imaging library needed) and draws the
# differing pixels in red over a faded copy of the first image.
#
# TOLERANCE: two renderings of the very same page were seen to differ by one level (of
# 255) on a few anti-aliased corner pixels; a secret shows as differences of tens or
# hundreds of levels (a circle, a digit), so up to 2 levels per channel count as equal.
TOLERANCE = 2
_DIFF = """async ([a, b, tolerance]) => {
  async function pixels(data) {
    const blob = await (await fetch('data:image/png;base64,' + data)).blob();
    const bitmap = await createImageBitmap(blob, {colorSpaceConversion: 'none',
                                                  premultiplyAlpha: 'none'});
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const context = canvas.getContext('2d');
    context.drawImage(bitmap, 0, 0);
    return context.getImageData(0, 0, bitmap.width, bitmap.height);
  }
  const first = await pixels(a), second = await pixels(b);
  const width = Math.max(first.width, second.width);
  const height = Math.max(first.height, second.height);
  const canvas = new OffscreenCanvas(width, height);
  const context = canvas.getContext('2d');
  const out = context.createImageData(width, height);
  let differing = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4;
      const inA = x < first.width && y < first.height;
      const inB = x < second.width && y < second.height;
      const i = (y * first.width + x) * 4, j = (y * second.width + x) * 4;
      let same = inA && inB;
      for (let k = 0; same && k < 4; k++) {
        same = Math.abs(first.data[i + k] - second.data[j + k]) <= tolerance;
      }
      if (same) {
        for (let k = 0; k < 3; k++) { out.data[o + k] = 128 + (first.data[i + k] >> 2); }
      } else {
        differing++;
        out.data[o] = 255; out.data[o + 1] = 0; out.data[o + 2] = 0;
      }
      out.data[o + 3] = 255;
    }
  }
  context.putImageData(out, 0, 0);
  const png = await canvas.convertToBlob({type: 'image/png'});
  const bytes = new Uint8Array(await png.arrayBuffer());
  let text = '';
  for (let n = 0; n < bytes.length; n += 0x8000) {
    text += String.fromCharCode.apply(null, bytes.subarray(n, n + 0x8000));
  }
  return {differing, width, height, sizes: [[first.width, first.height],
                                            [second.width, second.height]],
          diff: btoa(text)};
}"""


def at_rest(page: Page, mask: Sequence[str] = DEFAULT_MASK, full_page: bool = True) -> bytes:
    """The page's screenshot at rest (PNG bytes), masking only the given selectors.

    Fails if a peek is being held: a glance is what the phone shows when nobody touches it.
    """
    page.wait_for_load_state("load")
    page.wait_for_function(SETTLED)
    held = page.evaluate(_REST)
    assert held == 0, "a peek is held: the glance test needs the phone at rest"
    page.evaluate(_RELAYOUT)
    # The last tap's :hover would stay on what was tapped (as on a real phone): the two
    # phones were tapped in different places, so the pointer goes to a neutral corner.
    page.mouse.move(0, 0)
    page.wait_for_function("() => window.scrollY === 0")
    return page.screenshot(full_page=full_page, animations="disabled", caret="hide",
                           scale="css", mask=[page.locator(selector) for selector in mask],
                           mask_color="#ff00ff")


IDLE_SECONDS = 61
"""A minute untouched, and a second more: every secret opened or typed has closed."""


def untouched(*pages: Page, seconds: int = IDLE_SECONDS) -> None:
    """Leave the phones alone for `seconds` (their clocks jump ahead: phone(clock=True))."""
    for page in pages:
        page.mouse.move(0, 0)
        page.clock.fast_forward(seconds * 1000)
    for page in pages:
        # The idle check runs every half second: let it run once more on the new time.
        page.clock.run_for(1000)


def compare(first: bytes, second: bytes, page: Page, tolerance: int = TOLERANCE) -> dict:
    """Count the differing pixels of two PNGs (in `page`'s browser) and draw a diff."""
    if first == second:
        return {"differing": 0}
    scratch = page.context.new_page()
    try:
        return scratch.evaluate(_DIFF, [base64.b64encode(first).decode(),
                                        base64.b64encode(second).decode(), tolerance])
    finally:
        scratch.close()


def read_in(language: str, *pages: Page) -> None:
    """Each page switches to ``language`` with the switch at its foot (one tap, the page
    drawn again), back on the page it was on."""
    for page in pages:
        path = urlsplit(page.url).path
        page.goto(urljoin(page.url, f"/language/{language}?next={quote(path)}"))
        page.wait_for_load_state("load")


def assert_same_glance(first: Page, second: Page, name: str,
                       mask: Sequence[str] = DEFAULT_MASK, full_page: bool = True,
                       language: str | None = None) -> None:
    """Both phones, at rest, look identical; otherwise fail naming a saved diff image.
    With ``language`` (a glance of phones at rest, nothing opened that a new drawing would
    close), both are drawn again in that language for the glance, then in English again.

    The two screenshots and the diff (differing pixels red) are saved under
    tests/browser/screenshots/ as glance-NAME-a.png, -b.png and -diff.png.
    """
    if language:
        read_in(language, first, second)
        name = f"{name}-{language}"
    a = at_rest(first, mask, full_page)
    b = at_rest(second, mask, full_page)
    if language:
        read_in("en", first, second)
    result = compare(a, b, first)
    if result["differing"] == 0:
        return
    SCREENSHOTS.mkdir(exist_ok=True)
    paths = [SCREENSHOTS / f"glance-{name}-{part}.png" for part in ("a", "b", "diff")]
    paths[0].write_bytes(a)
    paths[1].write_bytes(b)
    paths[2].write_bytes(base64.b64decode(result["diff"]))
    raise AssertionError(
        f"glance {name}: the phones at rest differ in {result['differing']} pixels "
        f"(sizes {result['sizes'][0]} and {result['sizes'][1]}); "
        f"diff in {paths[2]} (screenshots {paths[0]}, {paths[1]})")
