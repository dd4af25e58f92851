"""Phone quality of any page a browser test reaches, in one call: `check_phone(page)`.

At 360 and at 390 CSS px wide (then back to the page's own size) it checks:
- no sideways overflow: the document is no wider than the screen, nothing sticks out
  past its edge, and no box scrolls sideways unless marked `data-scrolls-sideways`;
- every visible control is at least 44x44 CSS px: buttons, links outside prose, inputs,
  selects, summaries, [role=button], and for radios and checkboxes their label (the box
  itself square and at least 20 px: a wrapping label must not squeeze it);
- text contrast at least 4.5:1 (WCAG AA), by axe-core's color-contrast rule (axe-core
  ships inside the axe-playwright-python test dependency: nothing is fetched at run time);
- no console errors and no uncaught exceptions since the page was watched (`watch`,
  attached to every page by tests/browser/conftest.py) or since the last check.

A test that provokes a refusal on purpose (the server answers 422 with a message) passes
`allow=("status of 422",)`: the browser logs every 4xx answer as a console error.

`check_screen(page)` checks the laptop's table screen the same way at its own size,
without the phone-sized control rule.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from axe_playwright_python.base import AXE_SCRIPT
from playwright.sync_api import Page

from tests.support.language import english_lines
from tests.support.pages import shot

WIDTHS = (360, 390)
MIN_TARGET = 44

_ERRORS: dict[int, list[str]] = {}


def watch(page: Page) -> Page:
    """Collect the page's console errors and uncaught exceptions from now on."""
    if id(page) in _ERRORS:
        return page
    errors = _ERRORS[id(page)] = []

    def on_console(message) -> None:
        if message.type == "error":
            location = message.location.get("url", "") if message.location else ""
            errors.append(f"console: {message.text} ({location})")

    page.on("console", on_console)
    page.on("pageerror", lambda error: errors.append(f"exception: {error}"))
    page.on("close", lambda _: _ERRORS.pop(id(page), None))
    return page


def console_errors(page: Page, allow: Iterable[str] = ()) -> list[str]:
    """The errors collected since the last call (which clears them), minus allowed ones."""
    errors = _ERRORS.get(id(watch(page)), [])
    found = [error for error in errors if not any(part in error for part in allow)]
    errors.clear()
    return found


# Inside a closed <details> but not its summary: not shown, yet Chromium still lays it
# out (content-visibility: hidden), with the sizes of its last layout.
_SHUT = """function shut(el) {
    const closed = el.parentElement && el.parentElement.closest('details:not([open])');
    if (!closed) { return false; }
    const summary = el.closest('summary');
    return !(summary && summary.parentElement === closed);
  }"""

# The page's layout problems: overflow past the screen's edge and sideways scrolling.
_OVERFLOW = """() => {
  const width = document.documentElement.clientWidth;
  const problems = [];
  const doc = document.documentElement.scrollWidth, body = document.body.scrollWidth;
  if (doc > width || body > width) {
    problems.push(`the page is ${Math.max(doc, body)} px wide on a ${width} px screen`);
  }
  function describe(el) {
    const text = (el.innerText || el.value || '').trim().replace(/\\s+/g, ' ').slice(0, 40);
    const classes = typeof el.className === 'string' ? el.className.trim().split(/\\s+/) : [];
    return el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
      classes.filter(Boolean).map(name => '.' + name).join('') + (text ? ` "${text}"` : '');
  }
  SHUT
  function clipped(el) {
    for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
      if (getComputedStyle(up).overflowX !== 'visible') { return true; }
    }
    return false;
  }
  for (const el of document.body.querySelectorAll('*')) {
    const style = getComputedStyle(el);
    if (style.display === 'none' || style.visibility === 'hidden' || shut(el)) { continue; }
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) { continue; }
    if ((style.overflowX === 'auto' || style.overflowX === 'scroll') &&
        el.scrollWidth > el.clientWidth + 1 && !el.closest('[data-scrolls-sideways]')) {
      problems.push(`${describe(el)} scrolls sideways (${el.scrollWidth} px in ` +
                    `${el.clientWidth} px) without data-scrolls-sideways`);
    }
    const out = box.right > width + 0.5 || box.left < -0.5;
    if (out && style.position !== 'fixed' && !clipped(el)) {
      problems.push(`${describe(el)} sticks out of the screen ` +
                    `(${Math.round(box.left)}..${Math.round(box.right)} px)`);
    }
  }
  return problems;
}""".replace("SHUT", _SHUT)

# Visible controls smaller than MIN x MIN. A link counts as prose (excepted) when the
# block around it holds other text too: a link inside a sentence.
_SMALL_CONTROLS = """(min) => {
  const problems = [];
  SHUT
  function visible(el) {
    if (shut(el)) { return false; }
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) { return false; }
    const style = getComputedStyle(el);
    return style.visibility !== 'hidden' && style.display !== 'none' &&
      !(style.position === 'absolute' && box.width <= 1 && box.height <= 1);
  }
  function describe(el) {
    const text = (el.innerText || el.value || el.getAttribute('aria-label') || el.name || '')
      .trim().replace(/\\s+/g, ' ').slice(0, 40);
    return el.tagName.toLowerCase() + (el.type ? `[type=${el.type}]` : '') + ` "${text}"`;
  }
  function prose(link) {
    if (link.classList.contains('button')) { return false; }
    const block = link.closest('p, li, dd, td, th, figcaption, blockquote');
    if (!block) { return false; }
    const own = (link.innerText || '').trim().length;
    return (block.innerText || '').trim().length > own;
  }
  const seen = new Set();
  const selector = 'button, a[href], input:not([type=hidden]), select, textarea, summary, ' +
                   '[role=button]';
  for (const el of document.querySelectorAll(selector)) {
    let target = el;
    if (el.matches('input[type=radio], input[type=checkbox]')) {
      const byId = el.id && document.querySelector(`label[for="${el.id}"]`);
      target = el.closest('label') || byId || el;
    }
    if (seen.has(target) || !visible(el === target ? el : target)) { continue; }
    if (el.matches('a[href]') && prose(el)) { continue; }
    seen.add(target);
    const box = target.getBoundingClientRect();
    if (box.width < min - 0.01 || box.height < min - 0.01) {
      problems.push(`${describe(el)} is ${box.width.toFixed(1)}x${box.height.toFixed(1)} px`);
    }
    if (target !== el) {
      const own = el.getBoundingClientRect();
      if (own.width < 20 || own.height < 20 || Math.abs(own.width - own.height) > 1) {
        problems.push(`${describe(el)}: the ${el.type} itself is squeezed to ` +
                      `${own.width.toFixed(1)}x${own.height.toFixed(1)} px`);
      }
    }
  }
  return problems;
}""".replace("SHUT", _SHUT)

_CONTRAST = """async () => {
  const result = await axe.run(document, {runOnly: {type: 'rule', values: ['color-contrast']},
                                          resultTypes: ['violations']});
  return result.violations.flatMap(v => v.nodes.map(
    n => `${n.target.join(' ')}: ${(n.any[0] || {}).message || v.help}`));
}"""

_FRAME = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"


def contrast_problems(page: Page) -> list[str]:
    """axe-core's color-contrast violations on the page as it is now (WCAG AA, 4.5:1)."""
    if not page.evaluate("() => typeof axe !== 'undefined'"):
        page.evaluate(AXE_SCRIPT)
    return page.evaluate(_CONTRAST)


def problems(page: Page, controls: bool = True, contrast: bool = True) -> list[str]:
    """Every quality problem of the page at its current size (console errors aside)."""
    page.evaluate(_FRAME)
    found = [f"overflow: {problem}" for problem in page.evaluate(_OVERFLOW)]
    if controls:
        found += [f"small control: {problem}"
                  for problem in page.evaluate(_SMALL_CONTROLS, MIN_TARGET)]
    if contrast:
        found += [f"contrast: {problem}" for problem in contrast_problems(page)]
    return found


def _english_left(page: Page) -> list[str]:
    """On a page in German or French, any of the app's English sentences left as is."""
    language = page.evaluate("document.documentElement.lang")
    if language in ("", "en"):
        return []
    return [f"English on a {language} page: {line!r}"
            for line in english_lines(page.inner_text("body"), language)]


def check_phone(page: Page, name: str | None = None, allow: Sequence[str] = (),
                widths: Sequence[int] = WIDTHS) -> None:
    """Check the page at each phone width, then give it back its own size.

    Contrast is checked at the first width only: the stylesheet has no breakpoint between
    the phone widths (tests/browser/test_support.py), so each draws the same colours, and
    axe-core was a sixth of a browser test's time.

    With a name, full-page screenshots NAME-360.png and NAME-390.png are saved under
    tests/browser/screenshots/ for a person to look at.
    """
    size = page.viewport_size
    report: list[str] = []
    try:
        for width in widths:
            page.set_viewport_size({"width": width, "height": size["height"]})
            report += [f"{width} px: {problem}"
                       for problem in problems(page, contrast=width == widths[0])]
            if name:
                shot(page, f"{name}-{width}")
    finally:
        page.set_viewport_size(size)
    report += console_errors(page, allow) + _english_left(page)
    assert not report, f"phone quality of {page.url}:\n" + "\n".join(report)


def check_screen(page: Page, name: str | None = None, allow: Sequence[str] = ()) -> None:
    """The table screen (a laptop): overflow, contrast and console errors at its size."""
    report = problems(page, controls=False) + console_errors(page, allow) + _english_left(page)
    if name:
        shot(page, name)
    assert not report, f"screen quality of {page.url}:\n" + "\n".join(report)
