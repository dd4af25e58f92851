"""Letters from Whitechapel in the browser: tapping, and Hell (the marked women, the
patrols, maybe a letter), shared by the keypad and the board-mode tests."""

from __future__ import annotations

import time

from playwright.sync_api import expect

from tests.support.pages import caught_up, confirm, measured, sit, start_game

NAMES = ("Jack", "Ann", "Bob", "Cy", "Dee", "Eve")


def tap(page, selector: str) -> None:
    page.locator(selector).first.click()


def create_and_seat(laptop, server_url: str, players) -> str:
    """The set-up form is filled in: create the table, seat ``players`` from its join
    link (Jack at seat 0, then Ann, Bob, ...) and start the game. Returns the table's
    code (read before the start: the started screen shows it small)."""
    laptop.click("button:has-text('Create the table')")
    code = laptop.locator(".code-big").inner_text().strip()
    for seat, page in enumerate(players):
        sit(page, f"{server_url}/j/{code}", NAMES[seat], seat)
    start_game(laptop)
    return code


class Taps:
    """Every tap a detective makes, by step: what the targets of issue 22 count."""

    def __init__(self) -> None:
        self.steps: dict[str, int] = {}

    def tap(self, step: str, page, target) -> None:
        locator = page.locator(target).first if isinstance(target, str) else target
        expect(locator).to_be_visible()
        box = None
        for _ in range(20):  # a live refresh may swap the page while it is measured
            box = locator.bounding_box(timeout=2000)
            if box is not None:
                break
            time.sleep(0.1)
        assert box and box["width"] >= 44 and box["height"] >= 44, (step, box)
        locator.click()
        self.steps[step] = self.steps.get(step, 0) + 1


def head_of(phones, laptop):
    """The detective phone that shows the Head of the Investigation's button."""
    expect(laptop.locator("[data-phase]").first).to_have_attribute("data-phase", "patrols")
    return phone_with(phones, "[data-act=patrols_placed]")


def phone_with(phones, selector: str):
    """The first of ``phones`` that shows ``selector``: the detective whose turn it is
    (the Head of the Investigation is dealt, and changes each night)."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        for page in phones:
            if page.locator(selector).count():
                return page
        time.sleep(0.1)
    raise AssertionError(f"no phone shows {selector}")


def hell(jack, detectives, laptop, women: list[str], letter: bool = False) -> None:
    """Hell: the marked women, the patrols, maybe a letter."""
    expect(jack.locator("[data-woman]")).to_have_count(len(women))
    typed = jack.locator("details.wc-typed:has([data-woman])")
    if typed.count():  # with a map, typing is the folded fallback
        typed.locator("summary").click()
    for field, circle in zip(jack.locator("[data-woman]").all(), women, strict=True):
        field.fill(circle)
    confirm(jack, "[data-act=women]")  # a typed choice: a second tap
    confirm(head_of(detectives, laptop), "[data-act=patrols_placed]")  # 2 taps
    if letter:
        confirm(jack, "[data-act=letter]")  # a letter sent cannot be taken back: 2 taps
    expect(jack.locator("[data-jack-phase]")).to_have_attribute("data-jack-phase", "blood")


MAP = "details.wc-secret"
"""Jack's map: one of the sections of his phone that close by themselves (data-secret)."""


def open_map(page) -> None:
    """Jack opens his map (a deliberate tap): it shows where he is."""
    if not page.locator(MAP).evaluate("details => details.open"):
        page.locator("[data-open-map]").click()
    expect(page.locator(f"{MAP} [data-pan]")).to_have_attribute("data-ready", "1")


def key_in(page, circle: int | str, scope: str = "") -> None:
    """Tap a circle's digits on the keypad (the first one in ``scope``): one tap a digit."""
    for digit in str(circle):
        page.locator(f"{scope} [data-keypad] [data-key='{digit}']").first.click()


def kill_typed(jack, circle: int | str) -> None:
    """The victim's circle on the keypad, then Kill twice: a tap a digit and two more."""
    typed = jack.locator("details.wc-typed:has([data-act=kill])")
    if typed.count():  # with a map, typing is the folded fallback
        typed.locator("summary").click()
    key_in(jack, circle)
    confirm(jack, "[data-act=kill]")  # irreversible: a second tap


def zoom_to(page, circle: int) -> int:
    """On the whole board, tap the part around ``circle`` to zoom in: the taps it took."""
    if not page.locator(".board-map.overview").count():
        return 0
    box = page.locator(f"a[data-to='{circle}']").bounding_box()
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    expect(page.locator(".board-map.overview")).to_have_count(0)
    return 1


def tap_circle(page, circle: int) -> None:
    """Tap a circle of Jack's map: on the whole board, first the part to zoom into."""
    link = page.locator(f"a[data-to='{circle}']")
    # The page has caught up with the table: a refresh arriving after the map was opened
    # would draw it closed again.
    caught_up(page)
    expect(link).to_have_count(1)
    open_map(page)
    zoom_to(page, circle)
    assert_thumb_sized(page)
    address = page.url
    link.click()
    expect(page.locator("[data-picked]")).to_have_attribute("data-picked", str(circle))
    assert page.url == address  # htmx swapped the map's body: no ?to=N, no reload


def tick_women(page, circles: list[int], send: bool = True) -> int:
    """Jack ticks the marked women's red circles on his first screen, then "These are
    marked": returns the taps, 1 a woman and 1 to send."""
    taps = 0
    for circle in circles:
        page.locator(f"[data-woman-at='{circle}']").click()
        expect(page.locator(f"[data-woman-at='{circle}']")).to_be_checked()
        taps += 1
    if send:
        tap(page, "[data-targets] [data-way='women']")
        taps += 1
    return taps


PICK = "[data-peek-pick]"
"""Jack's destinations on his first screen, behind hold-to-peek."""


def hold_and_pick(page, circle: int) -> int:
    """Jack presses on "Hold to see where you can go", slides to ``circle``'s button and
    lifts his finger there: 1 tap (the hold that shows them is the tap that picks).
    The ways to get there then show (#jack-ways)."""
    caught_up(page)
    cover = page.locator(f"{PICK} .peek-cover").bounding_box()
    page.mouse.move(cover["x"] + cover["width"] / 2, cover["y"] + cover["height"] / 2)
    page.mouse.down()
    target = page.locator(f"{PICK} [data-target='{circle}']").first
    expect(target).to_be_visible()
    assert_thumb_sized_boxes(page, f"{PICK} [data-target]")
    page.wait_for_timeout(300)  # a moment's hold: a quick tap only shows them
    box = target.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, steps=4)
    page.mouse.up()
    expect(page.locator("#jack-ways")).to_have_attribute("data-picked", str(circle))
    expect(page.locator(f"{PICK} [data-target='{circle}']").first).to_be_hidden()
    return 1


def assert_thumb_sized_boxes(page, selector: str) -> None:
    small = measured(page.locator(selector),
        """nodes => nodes.map(n => [n.textContent, n.getBoundingClientRect()])
             .filter(([_, r]) => r.width < 44 || r.height < 44)
             .map(([text, r]) => `${text} ${r.width}x${r.height}`)""")
    assert not small, f"under 44x44 px: {small}"


def kill_tapped(page, circle: int) -> int:
    """The victim's circle on Jack's first screen, tapped and tapped again: 2 taps."""
    confirm(page, f"[data-targets] [data-victim='{circle}']")
    return 2


TARGETS = """links => links.map(a => {
  const box = a.getBoundingClientRect(), text = a.querySelector('text');
  return {n: a.dataset.to, width: box.width, height: box.height,
          x: box.x + box.width / 2, y: box.y + box.height / 2,
          font: parseFloat(getComputedStyle(text).fontSize) * text.getScreenCTM().a};
})"""


def assert_thumb_sized(page) -> list[dict]:
    """Every circle the page offers to tap is at least 44x44 CSS px, its number at
    least 14 px, and no two tap discs overlap (issue #13, a map a thumb can use)."""
    targets = measured(page.locator("a[data-to]"), TARGETS)
    assert targets, "no circle to tap"
    for target in targets:
        assert target["width"] >= 44 and target["height"] >= 44, target
        assert target["font"] >= 14, target
    for i, a in enumerate(targets):
        for b in targets[i + 1:]:
            apart = ((a["x"] - b["x"]) ** 2 + (a["y"] - b["y"]) ** 2) ** 0.5
            assert apart >= 44, (a, b)
    return targets


def assert_possible_readable(page) -> None:
    """On a detective's zoomed map every circle where Jack may be is a thumb wide (44 CSS
    px) with its number at least 14 px."""
    circles = measured(page.locator(".board-map.zoomable g.possible"),
        TARGETS.replace("a.dataset.to", "a.dataset.circle"))
    assert circles, "no circle where Jack may be"
    for circle in circles:
        assert circle["width"] >= 44 and circle["height"] >= 44, circle
        assert circle["font"] >= 14, circle


def assert_no_sideways_scroll(page) -> None:
    width = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], f"the page scrolls sideways: {width}"


def assert_on_screen(page, selectors) -> None:
    """Each element is inside the viewport without scrolling (top of the page)."""
    page.evaluate("() => window.scrollTo(0, 0)")
    height = page.evaluate("() => window.innerHeight")
    for selector in selectors:
        box = page.locator(selector).first.bounding_box()
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= height, (selector, box)


def assert_not_clipped(page, selector: str) -> None:
    clipped = measured(page.locator(selector),
        "nodes => nodes.filter(n => n.scrollWidth > n.clientWidth + 1).map(n => n.textContent)")
    assert not clipped, f"clipped: {clipped}"


CONTROLS = ("button:visible, a.button:visible, summary:visible, select:visible, "
            "input:not([type=hidden]):not([type=radio]):visible, label.wc-pick:visible")


PLATFORM = "header, .host, .topbar, .join-panel"
"""The platform's own parts of a page (tests/support/phone_quality.py checks them)."""


def assert_controls_thumb_sized(page, scope: str = "#view") -> None:
    """Every visible control of the game in ``scope`` is at least 44x44 CSS px (the
    platform's headers and its collapsed sections are checked by the platform's tests)."""
    small = measured(page.locator(scope).locator(CONTROLS),
        """nodes => nodes.filter(n => !n.closest('""" + PLATFORM + """') && !(
               n.tagName === 'SUMMARY' && !n.parentElement.className.includes('wc-')))
             .map(n => [n.outerHTML.slice(0, 80), n.getBoundingClientRect()])
             .filter(([_, r]) => r.width < 44 || r.height < 44)
             .map(([html, r]) => `${html} ${r.width}x${r.height}`)""")
    assert not small, f"controls under 44x44 px: {small}"


CONTRAST = """node => {
  const rgb = text => text.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map(c => {
    c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }).reduce((sum, c, i) => sum + c * [0.2126, 0.7152, 0.0722][i], 0);
  const style = getComputedStyle(node);
  const [a, b] = [lum(rgb(style.color)), lum(rgb(style.backgroundColor))].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}"""


def contrast(page, selector: str) -> float:
    """The contrast ratio of an element's text on its own (opaque) background."""
    return page.locator(selector).first.evaluate(CONTRAST)
