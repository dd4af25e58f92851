"""Letters from Whitechapel board mode in a real Chromium on the real board: Jack
plays a night by tapping the map, and the detectives' deduction map shrinks as
clues are found (issue #4, "How it is checked")."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from companion.games.whitechapel.board import load_board
from tests.support.boardfiles import real_board_path
from tests.support.glance import assert_same_glance, untouched
from tests.support.hidden import hidden_state
from tests.support.pages import LAPTOP, SCREENSHOTS, confirm
from tests.support.phone_quality import check_phone, check_screen
from tests.support.realserver import Server
from tests.support.whitechapel_pages import (
    MAP,
    PICK,
    assert_no_sideways_scroll,
    assert_not_clipped,
    assert_on_screen,
    assert_possible_readable,
    create_and_seat,
    hell,
    hold_and_pick,
    key_in,
    kill_tapped,
    kill_typed,
    open_map,
    tap,
    tap_circle,
    tick_women,
)
from tests.support.whitechapel_walks import CRIME, routes


@pytest.fixture
def board_server(tmp_path) -> Iterator[Server]:
    running = Server(tmp_path / "companion.sqlite", boards=(real_board_path(),)).start()
    yield running
    running.stop()


def possible(page) -> set[int]:
    """The circles where the page's deduction map says Jack can be."""
    return {int(n) for n in page.locator("[data-possible]").first.get_attribute(
        "data-possible").split()}


def speaker(*detectives):
    """The detective whose phone may search or arrest now: the Head of the Investigation
    speaks first (dealt at random, and the Head changes each night)."""
    for _ in range(100):
        for page in detectives:
            if page.locator("label.wc-pick").count():
                return page
        detectives[0].wait_for_timeout(100)
    raise AssertionError("no detective's phone offers a search or an arrest")


def way(page, kind: str) -> int:
    """The button of the way to the circle picked (#jack-ways): 1 tap, 2 for an
    irreversible one (the escape, a kill: tap again)."""
    button = page.locator(f"#jack-ways [data-way='{kind}']").first
    irreversible = "confirm" in (button.get_attribute("class") or "").split()
    button.click()
    if irreversible:
        page.locator(f"#jack-ways [data-way='{kind}'].armed").click()
    return 2 if irreversible else 1


def go(page, circle: int, kind: str) -> int:
    """Tap a circle of Jack's map (open: else 1 tap more, and 1 to zoom in from the
    whole board), then the button of its way: the taps it took."""
    opened = 0 if page.locator(MAP).evaluate("details => details.open") else 1
    zoomed = 1 if page.locator(".board-map.overview").count() else 0
    tap_circle(page, circle)
    return opened + zoomed + 1 + way(page, kind)


def walk(page, circle: int, kind: str) -> int:
    """Jack's move from his first screen: held and lifted on the circle's button (1),
    then the button of its way (1, 2 for the escape): the taps it took."""
    return hold_and_pick(page, circle) + way(page, kind)


TAPS = """() => {
  if (window.companionTaps === undefined) {
    window.companionTaps = 0;
    document.addEventListener('pointerdown', () => { window.companionTaps += 1; }, true);
  }
  const taps = window.companionTaps;
  window.companionTaps = 0;
  return taps;
}"""


def taps(page) -> int:
    """The fingers put down on ``page`` since the last call (every click, tick and hold
    of the test is one pointerdown; a pan that Playwright scrolls is none)."""
    return page.evaluate(TAPS)


def now_on_top(page, words: str) -> None:
    """The phone says what happens now in its first 150 px (issue 22, point 2), with
    whatever answer or refusal shows under it (issue 36, point 6)."""
    expect(page.locator("[data-now]")).to_contain_text(words)
    now_within(page)


def now_within(page, top: int = 150) -> None:
    """The now line's box ends within the first ``top`` px of the page."""
    page.evaluate("() => window.scrollTo(0, 0)")
    box = page.locator("[data-now]").bounding_box()
    assert box and box["y"] + box["height"] <= top, box


def held_shots(page, name: str) -> None:
    """Jack's destinations, held (a finger on "Hold to see where you can go"), at 360
    and 390 px: screenshots under tests/browser/screenshots/ to look at."""
    size = page.viewport_size
    try:
        for width in (360, 390):
            page.set_viewport_size({"width": width, "height": size["height"]})
            page.evaluate("() => window.scrollTo(0, 0)")
            cover = page.locator(f"{PICK} .peek-cover").bounding_box()
            page.mouse.move(cover["x"] + cover["width"] / 2, cover["y"] + cover["height"] / 2)
            page.mouse.down()
            expect(page.locator(f"{PICK} [data-target]").first).to_be_visible()
            page.screenshot(path=str(SCREENSHOTS / f"{name}-{width}.png"))
            page.mouse.move(0, 0)
            page.mouse.up()
            expect(page.locator(f"{PICK} [data-target]").first).to_be_hidden()
    finally:
        page.set_viewport_size(size)


def circle_number_px(page, scope: str) -> float:
    """The smallest circle number's height on screen (font size times the map's scale)."""
    return page.locator(f"{scope} .circle text").evaluate_all(
        "texts => Math.min(...texts.map(t => t.getScreenCTM().a *"
        " parseFloat(getComputedStyle(t).fontSize)))")


def search(page, circle: int) -> None:
    """The keypad may still show the last circle searched: clear it, type, search."""
    display = page.locator("[data-keypad] .keypad-display").first
    while display.input_value():
        page.locator("[data-keypad] [data-key='back']").first.click()
    for digit in str(circle):
        page.locator(f"[data-keypad] [data-key='{digit}']").first.click()
    expect(display).to_have_value(str(circle))
    tap(page, "[data-act=search]")


def test_jack_plays_a_night_by_tapping_the_map(board_server, laptop, phone):
    board = load_board(real_board_path())
    first = 82
    step = min(board.neighbours(first) - {CRIME} - board.red)
    hideout = min(board.neighbours(step) - {first, CRIME} - board.red)

    laptop.goto(board_server.url + "/new/whitechapel")
    laptop.select_option("select[name=players]", "3")
    laptop.select_option("select[name=board]", board.name)
    laptop.check("input[name=deduction_map]")
    check_screen(laptop, "whitechapel-board-setup")
    jack, ann, bob = phone(clock=True), phone(), phone()
    ann.set_viewport_size({"width": 360, "height": 740})  # the narrowest phone
    create_and_seat(laptop, board_server.url, [jack, ann, bob])

    # Every seat taken: the QR code is a corner box that a tap opens and closes again.
    expect(laptop.locator("[data-qr]")).to_be_hidden()
    laptop.locator("[data-join-box] > summary").click()
    expect(laptop.locator("[data-qr]")).to_be_visible()
    laptop.locator("[data-join-box] > summary").click()
    expect(laptop.locator("[data-qr]")).to_be_hidden()

    # The hideout: tapped on the map, open at rest while it holds nothing of his
    # (red circles are not offered): the circle, then its button (2 taps; the map opens
    # zoomed in on the middle of the board, and a thumb pans to his part of it).
    now_on_top(jack, "Your turn: your hideout")
    expect(jack.locator(MAP)).to_have_attribute("open", "")
    expect(jack.locator("[data-map-prompt]")).to_contain_text("hideout")
    expect(jack.locator("a[data-to='3']")).to_have_count(0)
    check_phone(jack, "whitechapel-board-jack-hideout")
    taps(jack)
    assert go(jack, hideout, "hideout") == taps(jack) == 2
    expect(laptop.locator("[data-prompt]").first).to_contain_text("8 woman tokens")

    # Hell: the women ticked on the red circles of his first screen (a second tap unticks
    # one), then sent: 5 women + 1 = 6 taps. Then the patrols, the victim (2 taps).
    now_on_top(jack, "Your turn: mark the women")
    expect(jack.locator("[data-targets='women'] [data-woman-at]")).to_have_count(8)
    jack.locator("[data-woman-at='147']").click()
    jack.locator("[data-woman-at='147']").click()  # unticked again
    expect(jack.locator("[data-woman-at='147']")).not_to_be_checked()
    check_phone(jack, "whitechapel-board-jack-women")
    taps(jack)
    assert tick_women(jack, [3, 21, 27, CRIME, 84]) == taps(jack) == 6
    expect(jack.locator("[data-jack-phase]")).to_have_attribute("data-jack-phase", "patrols")
    now_on_top(jack, "Wait: the patrols are placed")
    expect(laptop.locator("[data-prompt]").first).to_contain_text("Head of the Investigation")
    confirm(laptop, "[data-act=patrols_placed]")
    expect(jack.locator("[data-jack-phase]")).to_have_attribute("data-jack-phase", "blood")
    now_on_top(jack, "Your turn: kill or wait")
    # Only where a wretched stands at time I: the marked women's circles, on his first
    # screen and on his map.
    victims = {3, 21, 27, CRIME, 84}
    assert {int(n) for n in jack.locator("[data-targets] [data-victim]").evaluate_all(
        "buttons => buttons.map(b => b.dataset.victim)")} == victims
    assert {int(n) for n in jack.locator("a[data-to]").evaluate_all(
        "links => links.map(a => a.dataset.to)")} == victims
    check_phone(jack, "whitechapel-board-jack-kill")
    taps(jack)
    assert kill_tapped(jack, CRIME) == taps(jack) == 2
    expect(laptop.locator("[data-prompt]").first).to_contain_text("Alarm whistles")

    # Hunting: Jack's legal destinations are the buttons behind "Hold to see where you
    # can go" on his first screen, and the links of his map. The page at rest shows
    # none of them, and "I cannot move" is folded away.
    now_on_top(jack, "Your turn: move")
    expect(jack.locator(f"{PICK} [data-target]").first).to_be_hidden()
    expect(jack.locator("[data-cannot-move]")).not_to_have_attribute("open", "")
    expect(jack.locator("[data-cannot-move] button.confirm")).to_be_hidden()
    expect(jack.locator("[data-map-prompt]")).to_contain_text("closed to a normal move")
    coach_ends = {second for _, second in board.coach_routes(CRIME)}
    legal = board.normal_moves(CRIME) | coach_ends | board.alley_moves(CRIME)
    assert {int(n) for n in jack.locator(f"{PICK} [data-target]").evaluate_all(
        "links => links.map(a => a.dataset.target)")} == legal
    assert {int(n) for n in jack.locator(f"{PICK} [data-target-way='move']").evaluate_all(
        "links => links.map(a => a.dataset.target)")} == board.normal_moves(CRIME)
    destinations = {int(n) for n in jack.locator("a[data-to]").evaluate_all(
        "links => links.map(a => a.dataset.to)")}
    assert destinations == legal
    check_phone(jack, "whitechapel-board-jack-moves")
    held_shots(jack, "whitechapel-board-jack-moves-held")
    # A move: held and lifted on its circle (1), then "Move to" (1): 2 taps.
    taps(jack)
    assert hold_and_pick(jack, first) == 1
    expect(jack.locator("#jack-ways [data-way='move']")).to_be_visible()
    check_phone(jack, "whitechapel-board-jack-ways")
    assert way(jack, "move") == 1
    assert taps(jack) == 2

    # The detectives' map: every road out of the crime scene, then a clue.
    expect(laptop.locator("[data-tokens]").first).to_contain_text("squares left: 13")
    everywhere = board.normal_moves(CRIME)
    expect(ann.locator("[data-possible]")).to_have_attribute(
        "data-possible", " ".join(map(str, sorted(everywhere))))
    check_phone(ann, "whitechapel-board-detective-map")
    assert_possible_readable(ann)
    assert_no_sideways_scroll(ann)
    assert_not_clipped(ann, "[data-track] .wc-token")
    empty = min(everywhere - {first})
    head = speaker(ann, bob)
    head.locator("label.wc-pick").first.click()
    search(head, empty)
    expect(laptop.locator("[data-log]").first).to_contain_text(f"{empty}: no clue")
    expect(bob.locator("[data-possible]")).not_to_have_attribute(
        "data-possible", " ".join(map(str, sorted(everywhere))))
    assert possible(bob) == everywhere - {empty}
    search(head, first)
    expect(laptop.locator("[data-clues]").first).to_contain_text(str(first))
    # The answer to the last search shows under Jack's now line, which stays on top.
    expect(jack.locator("[data-answer]")).to_contain_text("CLUE!")
    now_on_top(jack, "Wait: the police look for clues or arrest")
    check_phone(jack, "whitechapel-board-jack-answer")
    expect(bob.locator("[data-possible]")).to_have_attribute("data-possible", str(first))
    expect(laptop.locator("[data-possible]")).to_have_attribute("data-possible", str(first))
    check_phone(bob, "whitechapel-board-detective-clue")

    # Bob marks a road his policeman closes: Jack's map draws it and drops the move.
    closed = min(board.normal_moves(first) - {step, CRIME})
    bob.fill("[data-block='1']", str(first))
    bob.fill("[data-block='2']", str(closed))
    tap(bob, "[data-act=block]")
    expect(laptop.locator("[data-closed-public]").first).to_contain_text(
        f"{min(first, closed)}–{max(first, closed)}")
    check_phone(bob, "whitechapel-board-detective-closed")
    # The table screen is a board: at 1280x800 and 1920x1080 the track on top, the map
    # as tall as the screen with numbers of 14 px or more, the night's facts beside it,
    # all of it on the first screen (scrolled to the top).
    for size in ({"width": 1920, "height": 1080}, {"width": 1280, "height": 800}):
        laptop.set_viewport_size(size)
        laptop.evaluate("() => window.scrollTo(0, 0)")
        laptop.screenshot(path=str(
            SCREENSHOTS / f"whitechapel-board-table-{size['width']}x{size['height']}.png"))
        assert_on_screen(laptop, ["[data-track]", "[data-table-map] svg",
                                  ".wc-now [data-prompt]", "[data-clues]", "[data-log]"])
        assert circle_number_px(laptop, "[data-table-map]") >= 14
        # The corner join box stays in the title's row, off the move track and the
        # table's status.
        join, track, status = (laptop.locator(selector).first.bounding_box() for selector in
                               ("[data-join-box]", ".wc-track-card", ".topbar .status"))
        assert join["y"] + join["height"] <= track["y"], (join, track)
        assert status["x"] + status["width"] <= join["x"], (status, join)
    expect(laptop.locator("[data-table-map] .circle.clue")).to_have_count(1)
    expect(laptop.locator("[data-table-map] .circle.searched")).to_have_count(1)
    assert_not_clipped(laptop, "[data-track] .wc-token")
    check_screen(laptop, "whitechapel-board-table")
    laptop.set_viewport_size({"width": 1280, "height": 800})
    confirm(laptop, "button:has-text('The police are done')")
    expect(jack.locator(".board-map line.closed")).to_have_count(1)
    if jack.locator(f"a[data-to='{closed}']").count():
        tap_circle(jack, closed)
        expect(jack.locator("#jack-ways [data-way='move']")).to_have_count(0)
        jack.click("a:has-text('Pick another circle')")
        expect(jack.locator("#jack-ways")).not_to_have_attribute("open", "")

    # Jack's map closes by itself: after a minute untouched, and when the phone is put away.
    open_map(jack)
    untouched(jack)
    expect(jack.locator(MAP)).not_to_have_attribute("open", "")
    open_map(jack)
    jack.evaluate("""() => {
      Object.defineProperty(document, 'visibilityState', {value: 'hidden', configurable: true});
      document.dispatchEvent(new Event('visibilitychange'));
      delete document.visibilityState;
    }""")
    expect(jack.locator(MAP)).not_to_have_attribute("open", "")

    # Home: a move tapped on the map (open it, the circle, its button: 3 taps), then the
    # escape onto the hideout from his first screen (held and lifted on it, then the
    # escape and again: 3 taps).
    taps(jack)
    assert go(jack, step, "move") == taps(jack) == 3
    expect(jack.locator(MAP)).not_to_have_attribute("open", "")
    expect(laptop.locator("[data-tokens]").first).to_contain_text("squares left: 12")
    confirm(laptop, "button:has-text('The police are done')")
    assert walk(jack, hideout, "escape") == taps(jack) == 3
    expect(laptop.locator("[data-night]").first).to_have_attribute("data-night", "2")
    # The night's end, on every screen until the next night's women are placed: the
    # square (the hideout's circle stays Jack's), the crime, the clue.
    for page in (laptop, jack, ann, bob):
        end = page.locator("[data-night-end='1']")
        expect(end).to_contain_text("square 4 of 15")
        expect(end).to_contain_text(str(first))
        expect(end).not_to_contain_text(re.compile(rf"\b{hideout}\b"))
    laptop.locator(".table-log > summary").click()
    expect(laptop.locator("[data-game-events] li").first).to_have_text(
        "Night 1: Jack reached his hideout on square 4")
    expect(laptop.locator("[data-game-events]")).to_contain_text(f"a crime on {CRIME}")
    laptop.screenshot(path=str(SCREENSHOTS / "whitechapel-board-table-night-end.png"))
    expect(ann.locator("[data-deduction]")).to_contain_text("His hideout is one of")
    check_phone(ann, "whitechapel-board-detective-hideouts")
    check_phone(jack, "whitechapel-board-jack-night2")

    # Night 2: after a wait the victim may be anywhere: the whole board, then a part of
    # it zoomed in (tap_circle checks every circle offered there is a thumb wide).
    hell(jack, [ann, bob], laptop, ["3", "21", "27", "84"])  # typed: the folded fallback
    expect(laptop.locator("[data-night-end]")).to_have_count(0)
    confirm(jack, "button:has-text('Wait')")
    confirm(laptop, "[data-act=wretched_moved]")
    expect(jack.locator("[data-jack-phase]")).to_have_attribute("data-jack-phase", "blood")
    # After one wait, only within one road of a marked woman's circle: on his first
    # screen (tapped, then again: 2 taps) and on his map.
    reach = board.circles_within([3, 21, 27, 84], 1) - {CRIME}
    assert {int(n) for n in jack.locator("a[data-to]").evaluate_all(
        "links => links.map(a => a.dataset.to)")} == reach
    assert {int(n) for n in jack.locator("[data-targets] [data-victim]").evaluate_all(
        "buttons => buttons.map(b => b.dataset.victim)")} == reach
    taps(jack)
    assert kill_tapped(jack, 84) == taps(jack) == 2
    expect(laptop.locator("[data-prompt]").first).to_contain_text("Alarm whistles")
    assert walk(jack, min(board.normal_moves(84) - {CRIME}), "move") == taps(jack) == 2
    head = speaker(ann, bob)
    head.locator("label.wc-pick").first.click()
    head.locator("[data-keypad] .keypad-display").first.fill(
        str(min(board.normal_moves(84) - {CRIME})))
    confirm(head, "button:has-text('Arrest here')")
    for page in (laptop, jack, ann, bob):
        expect(page.locator("[data-outcome]").first).to_have_attribute(
            "data-outcome", "detectives")
        expect(page.locator(".board-map line.trail.night-1")).to_have_count(3)
        expect(page.locator(".board-map line.trail.night-2")).to_have_count(1)
    check_screen(laptop, "whitechapel-board-table-reveal")
    check_phone(ann, "whitechapel-board-detective-reveal")


# --- glance-proof: Jack's phone at rest looks the same whatever his secrets ----------------

GLANCE_SEED = 1888
NARROW = {"width": 360, "height": 740}


class Game:
    """One table on its own server: the laptop, Jack's phone and Ann's, 360 px wide,
    with clocks the test moves a minute ahead."""

    def __init__(self, server, browser, phone, board_name: str) -> None:
        self.laptop = browser.new_context(**LAPTOP).new_page()
        self.laptop.context.set_default_timeout(10_000)
        self.laptop.goto(server.url + "/new/whitechapel")
        self.laptop.select_option("select[name=players]", "2")
        self.laptop.select_option("select[name=board]", board_name)
        self.jack, self.ann = phone(clock=True), phone(clock=True)
        for page in (self.jack, self.ann):
            page.set_viewport_size(NARROW)
        create_and_seat(self.laptop, server.url, [self.jack, self.ann])
        expect(self.jack.locator("[data-jack-phase]")).to_have_attribute(
            "data-jack-phase", "hideout")

    def settled(self, version: str) -> None:
        for page in (self.jack, self.ann):
            expect(page.locator("#view")).to_have_attribute("data-version", version)


class Twins:
    """Two tables side by side (the same seed, names and public actions); each game's
    Jack follows his own secret ``Route``."""

    def __init__(self, tmp_path, browser, phone, board_name: str, routes) -> None:
        boards = (real_board_path(),) if board_name else ()
        self.servers = [Server(tmp_path / f"{side}.sqlite", boards=boards,
                               seed=GLANCE_SEED).start() for side in "ab"]
        self.routes = routes
        self.games = [Game(server, browser, phone, board_name) for server in self.servers]
        self.a, self.b = self.games

    def stop(self) -> None:
        for server in self.servers:
            server.stop()

    def both(self, step) -> None:
        """One public step in both games, then wait until every phone has caught up."""
        before = self.a.jack.locator("#view").get_attribute("data-version")
        for game, route in zip(self.games, self.routes, strict=True):
            step(game, route)
        expect(self.a.jack.locator("#view")).not_to_have_attribute("data-version", before)
        self.settle()

    def settle(self) -> None:
        version = self.a.jack.locator("#view").get_attribute("data-version")
        for game in self.games:
            game.settled(version)

    def refused(self, step, reason) -> None:
        """Each Jack's step is refused, for ``reason(route)``: a secret of his own."""
        for game, route in zip(self.games, self.routes, strict=True):
            step(game, route)
            expect(game.jack.locator("[data-why] p")).to_have_text(reason(route))
            expect(game.jack.locator("[data-error] > p")).to_have_text(
                "Not accepted: nothing was changed.")
            now_within(game.jack)  # the refusal shows under his now line
        self.settle()

    def glance(self, name: str, language: str | None = None) -> None:
        assert_same_glance(self.a.jack, self.b.jack, f"whitechapel-jack-{name}",
                           language=language)
        assert_same_glance(self.a.ann, self.b.ann, f"whitechapel-ann-{name}",
                           language=language)

    def untouched(self) -> None:
        untouched(*(page for game in self.games for page in (game.jack, game.ann)))


def type_move(page, circle: int, act: str = "move") -> None:
    """With a map, the typed move is behind "Type the circle instead": 1 tap to open it,
    one a digit, 2 on the button (the one confirm pattern)."""
    if page.locator(TYPED).count():
        page.locator(f"{TYPED} > summary").click()
    key_in(page, circle)
    confirm(page, f"[data-act={act}]")


TYPED = "details.wc-typed"


def test_jacks_phone_at_rest_tells_nothing(tmp_path, browser, phone):
    """Every refusal of a night, a minute untouched (the map opened, digits typed, "Why?"
    open), the hideout chosen and night 2: Jack's and Ann's phones at rest are the same
    on two tables whose Jacks keep other secrets. The steps between (hell, the crime,
    the police's turn and answer, the Coach, the Alley) draw the same markup at both
    tables, which the Flask client proves on the same two nights
    (tests/web/test_whitechapel_board.py: test_jacks_and_anns_pages_through_the
    _browsers_twin_nights_are_the_same); the browser looks where markup cannot
    (docs/TESTING.md, "Glance points proved in markup")."""
    board = load_board(real_board_path())
    twins = Twins(tmp_path, browser, phone, board.name, routes(board))
    a, b = twins.a, twins.b
    try:
        # The hideout: a red circle typed (1 tap to open, 2 digits, "Write it" twice),
        # then one tapped.
        red = dict(zip(twins.routes, (3, 21), strict=True))
        twins.refused(lambda game, route: (game.jack.locator(f"{TYPED} > summary").click(),
                                           key_in(game.jack, red[route]),
                                           confirm(game.jack, "[data-keypad] button.go")),
                      lambda route: f"Circle {red[route]} is a red circle: your hideout "
                      "may be any circle but a red one.")
        twins.glance("hideout-refused")
        twins.both(lambda game, route: go(game.jack, route.home, "hideout"))  # 3-4 taps
        twins.glance("hideout-chosen")
        # The test sees a one-circle difference: opened, the maps differ by the hideout's
        # ring only (no position yet), and the comparison fails.
        for game in twins.games:
            open_map(game.jack)
        with pytest.raises(AssertionError, match="differ"):
            assert_same_glance(a.jack, b.jack, "whitechapel-jack-map-opened")
        for game in twins.games:
            game.jack.locator("[data-open-map]").click()

        # Hell: a marked woman typed on his hideout (not red), then the real ones.
        # Two women ticked on his first screen, other ones at each table (2 taps), then
        # left a minute: the ticks are emptied and the phones are the same again.
        for game, pair in zip(twins.games, ([3, 21], [27, 84]), strict=True):
            assert tick_women(game.jack, pair, send=False) == 2
        with pytest.raises(AssertionError, match="differ"):
            assert_same_glance(a.jack, b.jack, "whitechapel-jack-women-tapped")
        twins.untouched()
        for game in twins.games:
            expect(game.jack.locator("[data-woman-at]:checked")).to_have_count(0)
        twins.glance("women-tapped-untouched")

        def wrong_women(game, route):
            game.jack.locator(f"{TYPED}:has([data-woman]) > summary").click()
            for field, circle in zip(game.jack.locator("[data-woman]").all(),
                                     [3, 21, 27, CRIME, route.home], strict=True):
                field.fill(str(circle))
            confirm(game.jack, "[data-act=women]")

        twins.refused(wrong_women, lambda route: f"Circle {route.home} is not a red circle: "
                      "the women tokens go on red circles.")
        twins.glance("women-refused")
        twins.both(lambda game, route: hell(game.jack, [game.ann], game.laptop,
                                            ["3", "21", "27", str(CRIME), "84"]))
        # The kill: his hideout typed (no wretched there), then the crime (3 taps each).
        twins.refused(lambda game, route: kill_typed(game.jack, route.home),
                      lambda route: f"No wretched stands on {route.home}: at time I the "
                      "wretched are on 3, 21, 27, 65, 84.")
        twins.glance("kill-refused")
        twins.both(lambda game, route: kill_typed(game.jack, CRIME))

        # A move tapped on the map (2-3 taps), the police's search and their end (2 taps).
        twins.both(lambda game, route: go(game.jack, route.move, "move"))
        expect(a.jack.locator(MAP)).not_to_have_attribute("open", "")
        searched = min(board.normal_moves(CRIME) - twins.routes[0].circles()
                       - twins.routes[1].circles())
        twins.both(lambda game, route: (game.ann.locator("label.wc-pick").first.click(),
                                        search(game.ann, searched)))
        expect(a.jack.locator("[data-answer]")).to_contain_text("no clue")
        twins.both(lambda game, route: confirm(game.laptop,  # the host's
                                               "button:has-text('The police are done')"))

        # His destinations, held and lifted on a Coach's end (1 tap), another at each
        # table: the ways to it show at the foot of the screen; "I cannot move" opened
        # (1 tap). Left a minute, both close: the phones are the same again.
        for game, route in zip(twins.games, twins.routes, strict=True):
            assert hold_and_pick(game.jack, route.coach[1]) == 1
            expect(game.jack.locator("#jack-ways [data-way='coach']").first).to_be_visible()
        with pytest.raises(AssertionError, match="differ"):
            assert_same_glance(a.jack, b.jack, "whitechapel-jack-destination-picked")
        for game in twins.games:
            game.jack.locator("[data-cannot-move] > summary").click()
            expect(game.jack.locator("[data-cannot-move] button.confirm")).to_be_visible()
        twins.untouched()
        for game in twins.games:
            expect(game.jack.locator("#jack-ways")).to_be_hidden()
            expect(game.jack.locator("[data-cannot-move]")).not_to_have_attribute("open", "")
        twins.glance("destination-picked-untouched")

        # A typed move that no road allows from where he stands (6 taps): the reason names
        # both circles, behind "Why?"; the top says the same, the field comes back empty.
        twins.refused(lambda game, route: type_move(game.jack, route.typed),
                      lambda route: f"No road joins {route.move} and {route.typed}.")
        twins.glance("move-refused")
        for side, game in zip("ab", twins.games, strict=True):
            check_phone(game.jack, f"whitechapel-glance-jack-move-refused-{side}",
                        allow=("status of 422",), widths=(360,))
        # The test sees a one-character difference: "Why?" opened (1 tap) on both phones.
        for game in twins.games:
            game.jack.locator("[data-why] > summary").click()
        with pytest.raises(AssertionError, match="differ"):
            assert_same_glance(a.jack, b.jack, "whitechapel-jack-why-opened")
        # Left a minute with "Why?" open and digits typed again (4 taps): all of it closes.
        for game, route in zip(twins.games, twins.routes, strict=True):
            game.jack.locator(f"{TYPED} > summary").click()
            key_in(game.jack, route.typed)
            expect(game.jack.locator(f"{TYPED} .keypad-display")).to_have_value(
                str(route.typed))
        twins.untouched()
        for game in twins.games:
            expect(game.jack.locator("[data-why]")).not_to_have_attribute("open", "")
            expect(game.jack.locator(f"{TYPED} .keypad-display")).to_have_value("")
        twins.glance("move-refused-untouched")

        # A typed Coach ending where he stands (1 + 1 taps to open, two fields, 2 taps).
        def wrong_coach(game, route):
            game.jack.locator(f"{TYPED} > summary").click()
            game.jack.locator("details.wc-coach > summary").click()
            game.jack.fill("[data-coach='1']", str(route.typed))
            game.jack.fill("[data-coach='2']", str(route.move))
            confirm(game.jack, "[data-act=coach]")

        twins.refused(wrong_coach, lambda route: "The two circles of a Coach must be "
                      f"different from your start, {route.move}.")
        twins.glance("coach-refused")
        # The Coach tapped on the map (3-4 taps), then the police are done (2 taps).
        twins.both(lambda game, route: go(game.jack, route.coach[1], "coach"))
        twins.both(lambda game, route: confirm(game.laptop,  # the host's
                                               "button:has-text('The police are done')"))
        # A typed Alley that crosses no block from the Coach's end (6 taps).
        twins.refused(lambda game, route: type_move(game.jack, route.alley_typed, "alley"),
                      lambda route: "No alley crosses a block of houses from "
                      f"{route.coach[1]} to {route.alley_typed}.")
        twins.glance("alley-refused")
        twins.both(lambda game, route: go(game.jack, route.alley, "alley"))  # 3-4 taps
        twins.both(lambda game, route: confirm(game.laptop,  # the host's
                                               "button:has-text('The police are done')"))
        twins.both(lambda game, route: go(game.jack, route.home, "escape"))  # 3-4 taps
        twins.glance("night-2", language="de")
    finally:
        twins.stop()


def test_without_a_board_a_refused_move_tells_nothing(tmp_path, browser, phone):
    """Numbers only: the keypad is in the open, so what was typed must go too."""
    homes, moves = (90, 12), (66, 64)
    twins = Twins(tmp_path, browser, phone, "", list(zip(homes, moves, strict=True)))
    try:
        twins.both(lambda game, route: (key_in(game.jack, route[0]),  # 2 + 2 taps
                                        confirm(game.jack, "[data-keypad] button.go")))
        twins.both(lambda game, route: hell(game.jack, [game.ann], game.laptop,
                                            ["3", "21", "27", str(CRIME), "84"]))
        twins.both(lambda game, route: kill_typed(game.jack, CRIME))
        twins.both(lambda game, route: type_move(game.jack, route[1]))  # 4 taps
        twins.both(lambda game, route: confirm(game.laptop,  # the host's
                                               "button:has-text('The police are done')"))
        # His own circle typed again (4 taps): the reason says where he is.
        twins.refused(lambda game, route: type_move(game.jack, route[1]),
                      lambda route: f"You are on {route[1]}: move to another circle.")
        twins.glance("numbers-move-refused")
        for game, route in zip(twins.games, twins.routes, strict=True):
            key_in(game.jack, route[0])  # 2 taps, left on the keypad for a minute
        twins.untouched()
        twins.glance("numbers-move-refused-untouched")

        # His next move typed and sent while the laptop cannot be reached (4 taps), to
        # another circle at each table: the top says it waits, in the same words; left a
        # minute, the keypad is empty while the move waits in the page (docs/RELIABILITY.md,
        # "No tap lost"). Back on the Wi-Fi, it goes as he typed it.
        waiting = dict(zip(twins.routes, (67, 65), strict=True))
        for game, route in zip(twins.games, twins.routes, strict=True):
            game.jack.context.set_offline(True)
            type_move(game.jack, waiting[route])
            expect(game.jack.locator("[data-connection]")).to_have_attribute(
                "data-connection", "unsent")
        # The test sees the typed circles while they are on the keypad.
        with pytest.raises(AssertionError, match="differ"):
            assert_same_glance(twins.a.jack, twins.b.jack, "whitechapel-jack-move-waiting")
        twins.untouched()
        for game in twins.games:
            expect(game.jack.locator(".keypad-display")).to_have_value("")
        twins.glance("numbers-move-waiting-untouched")
        for game in twins.games:
            game.jack.context.set_offline(False)
            expect(game.jack.locator("[data-connection]")).to_have_attribute(
                "data-connection", "sent")
        twins.settle()
        for server, game, route in zip(twins.servers, twins.games, twins.routes, strict=True):
            code = re.search(r"/t/([^/]+)", game.laptop.url).group(1)
            night = (state := hidden_state(server, code))["nights"][state["night"] - 1]
            assert night["moves"][-1]["circles"] == [waiting[route]]
    finally:
        twins.stop()
