"""Police on the map in a real Chromium at phone size, on the board the companion
ships (the server is given no board file): the detectives tap each policeman onto
his crossing, move one, search next to him; Jack's roads follow, he goes home, and on
the second night the policemen stand again where they were and arrest him next to one
of them: the reveal ends the game on every screen. Every tap target of the police map
is measured at 390 and at 360 px."""

from __future__ import annotations

import math
import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from companion.games.whitechapel.board import SHIPPED_BOARDS, load_board
from tests.support.pages import LAPTOP, caught_up, confirm, measured, shot, sit, start_game
from tests.support.phone_quality import check_phone, check_screen
from tests.support.realserver import Server
from tests.support.whitechapel_pages import Taps, hell, open_map, tap, tap_circle

CRIME = 65
HIDEOUT = 98  # next to his first circle, 82: he goes home at his second move
SECOND_CRIME, CAUGHT = 84, 99  # night 2: the yellow policeman's crossings 109 and 111 touch 99
STARTS = {"blue": 44, "yellow": 107, "brown": 101, "red": 119, "green": 186}


@pytest.fixture
def shipped_server(tmp_path) -> Iterator[Server]:
    running = Server(tmp_path / "companion.sqlite").start()  # no --board: the shipped one
    yield running
    running.stop()


def targets_are_thumb_sized(page) -> int:
    """Every crossing link of the police map is at least 44x44 px, and no two overlap."""
    # Measured in one go: a live refresh may swap the map between two measures.
    boxes = measured(page.locator("[data-police-map] svg a circle.target"),
        "discs => discs.map(c => { const b = c.getBoundingClientRect();"
        " return {x: b.x + b.width / 2, y: b.y + b.height / 2, width: b.width,"
        " height: b.height}; })")
    for i, box in enumerate(boxes):
        assert box["width"] >= 44 and box["height"] >= 44, box
        for other in boxes[i + 1:]:  # discs: centres a diameter apart
            assert math.dist((box["x"], box["y"]), (other["x"], other["y"])) >= 43.5
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    return len(boxes)


def tap_crossing(page, board, colour: str, crossing: int, name: str = "",
                 check: str = "", allow: tuple[str, ...] = ()) -> None:
    """Pick the policeman, tap the crossing (one tap: every crossing in reach is a
    target on the first map), confirm. With ``check``, the map with the crossing
    picked passes check_phone."""
    page.locator(f"a[data-cop='{colour}']").first.click()
    expect(page.locator("[data-police-map]")).to_have_attribute("data-picked", colour)
    assert targets_are_thumb_sized(page)
    if name:
        shot(page, f"{name}-choice")
    page.locator(f"a[data-crossing='{crossing}']").click()
    if name:
        shot(page, name)
    if check:
        check_phone(page, check, allow=allow)
    tap(page, f"[data-police-confirm='{colour}:{crossing}']")


def every_other_stays(*pages) -> None:
    """The end of Hunting 2: each detective says every policeman of his who has not
    moved stays (1 tap each), so the searches may begin."""
    for page in pages:
        caught_up(page)
        while page.locator("[data-stay]").count():
            tap(page, "[data-stay]")
            caught_up(page)


def bobs_turn(ann, bob) -> None:
    """Hunting 3 from the Head of the Investigation clockwise: Ann's policemen that
    speak before Bob's pass; then Bob speaks for yellow."""
    ready = "[data-search-circles], [data-act-for]"
    for _ in range(4):
        # Whoever speaks first: wait until one of the two phones shows it.
        for _ in range(100):
            if bob.locator(ready).count() or ann.locator(
                    "button:has-text('does nothing')").count():
                break
            time.sleep(0.1)
        if bob.locator(ready).count():
            break
        confirm(ann, "button:has-text('does nothing')")
        expect(ann.locator("button.armed")).to_have_count(0)
    if bob.locator("a[data-speak='yellow']").count():
        tap(bob, "a[data-speak='yellow']")
    expect(bob.locator("[data-act-for='yellow']")).to_have_count(1)


def police_table(server, laptop, board, players: int) -> str:
    """A table with police and deduction on the shipped board, made on the laptop: its
    join address."""
    laptop.goto(server.url + "/new/whitechapel")
    laptop.select_option("select[name=players]", str(players))
    laptop.select_option("select[name=board]", board.name)
    laptop.check("input[name=police_map]")
    laptop.check("input[name=deduction_map]")
    laptop.click("button:has-text('Create the table')")
    return f"{server.url}/j/{laptop.locator('.code-big').inner_text().strip()}"


def test_the_police_on_the_map_at_phone_size(shipped_server, laptop, phone):
    board = load_board(SHIPPED_BOARDS[0])
    first = 82
    url = police_table(shipped_server, laptop, board, 3)
    jack, ann, bob = phone(), phone(), phone()
    sit(jack, url, "Jack", 0)
    sit(ann, url, "Ann", 1)
    sit(bob, url, "Bob", 2)
    start_game(laptop)

    tap_circle(jack, HIDEOUT)
    tap(jack, "[data-way='hideout']")
    hell(jack, [ann, bob], laptop, ["3", "21", "27", str(CRIME), "84"])
    tap_circle(jack, CRIME)
    confirm(jack, "[data-picked] button.confirm")

    # The alarm: Ann taps each policeman onto his patrol token's crossing.
    expect(laptop.locator("[data-prompt]").first).to_contain_text("Alarm whistles")
    expect(ann.locator("[data-police-prompt]")).to_contain_text("blue")
    shot(ann, "whitechapel-police-alarm-390")
    ann.set_viewport_size({"width": 360, "height": 780})
    tap_crossing(ann, board, "blue", STARTS["blue"], "whitechapel-police-alarm-360")
    ann.set_viewport_size({"width": 390, "height": 844})
    # Each detective places his own (the even deal: Ann blue, brown, green; Bob the rest).
    for page, colour in ((bob, "yellow"), (ann, "brown"), (bob, "red"), (ann, "green")):
        tap_crossing(page, board, colour, STARTS[colour])
        expect(laptop.locator(f"[data-cop-at='{colour}:{STARTS[colour]}']")).to_have_count(1)
    for colour, crossing in STARTS.items():
        expect(laptop.locator(f"[data-cop-at='{colour}:{crossing}']")).to_have_count(1)
    shot(laptop, "whitechapel-police-table")

    # Jack's map offers no road through a policed crossing: from 65, none is closed.
    tap_circle(jack, first)
    tap(jack, "[data-way='move']")

    # Bob moves the yellow policeman from 107 to 109 and searches next to him only.
    expect(bob.locator("a[data-cop='yellow']")).to_have_count(1)
    bob.set_viewport_size({"width": 360, "height": 780})
    tap_crossing(bob, board, "yellow", 109, "whitechapel-police-move-360")
    expect(laptop.locator("[data-cop-at='yellow:109']")).to_have_count(1)
    every_other_stays(ann, bob)
    bobs_turn(ann, bob)
    for circle in (99, 100, 120):  # in the row of buttons and on the map
        for where in ("[data-search-circles]", "[data-map-asks]"):
            expect(bob.locator(where).get_by_role("button", name=f"Circle {circle}",
                                                  exact=True)).to_be_visible()
    bob.locator("details.wc-typed summary").click()
    bob.locator("label.wc-pick:has-text('yellow')").click()
    bob.locator("[data-keypad] .keypad-display").first.fill("83")
    tap(bob, "[data-act=search]")
    expect(bob.locator("[data-error]")).to_contain_text("only on 99, 100, 120")
    # The refused search keeps Bob's choices, to be corrected.
    expect(bob.locator("label.wc-pick:has-text('yellow') input")).to_be_checked()
    expect(bob.locator("[data-keypad] .keypad-display").first).to_have_value("83")
    bob.locator("[data-keypad] .keypad-display").first.fill("99")
    tap(bob, "[data-act=search]")
    expect(bob.locator("[data-answer]")).to_contain_text("no clue")
    expect(laptop.locator("[data-log]").first).to_contain_text("99: no clue")
    shot(bob, "whitechapel-police-search-360")
    bob.set_viewport_size({"width": 390, "height": 844})
    shot(bob, "whitechapel-police-search-390")
    confirm(laptop, "button:has-text('The police are done')")

    # The policemen now close roads: Jack's map offers none of them.
    open_map(jack)
    expect(jack.locator("[data-map-prompt]")).to_contain_text("closed to a normal move")
    closed = board.closed_roads(
        [STARTS[c] for c in ("blue", "brown", "red", "green")] + [109])
    offered = {int(n) for n in jack.locator("a[data-to]").evaluate_all(
        "links => links.map(a => a.dataset.to)")}
    ends = {b for a, b in closed if a == first} | {a for a, b in closed if b == first}
    coach_ends = {second for _, second in board.coach_routes(first)}
    coach_or_alley = coach_ends | board.alley_moves(first)
    assert not (ends - coach_or_alley) & offered
    assert board.normal_moves(first, closed) <= offered
    shot(jack, "whitechapel-police-jack")
    expect(ann.locator("[data-possible]")).to_have_count(1)
    assert first in {int(n) for n in ann.locator("[data-possible]").first.get_attribute(
        "data-possible").split()}

    # Jack goes home: a normal move onto his hideout ends the night.
    tap_circle(jack, HIDEOUT)
    confirm(jack, "[data-way='escape']")
    expect(laptop.locator("[data-night]").first).to_have_attribute("data-night", "2")

    # Night 2: the alarm puts the policemen back where they stood at the end of last
    # night (yellow on 109, no yellow-bordered crossing) as well as on yellow crossings.
    assert 109 not in board.police_starts
    hell(jack, [ann, bob], laptop, ["3", "21", "27", str(SECOND_CRIME)])
    tap_circle(jack, SECOND_CRIME)
    confirm(jack, "[data-picked] button.confirm")
    expect(laptop.locator("[data-prompt]").first).to_contain_text("Alarm whistles")
    for colour in STARTS:
        expect(laptop.locator(f"[data-cop-at^='{colour}:']")).to_have_count(0)
    check_phone(ann, "whitechapel-police-alarm-night2")
    tap_crossing(bob, board, "yellow", 109)
    expect(laptop.locator("[data-cop-at='yellow:109']")).to_have_count(1)
    for page, colour in ((ann, "blue"), (ann, "brown"), (bob, "red"), (ann, "green")):
        tap_crossing(page, board, colour, STARTS[colour])
        expect(laptop.locator(f"[data-cop-at='{colour}:{STARTS[colour]}']")).to_have_count(1)
    check_screen(laptop, "whitechapel-police-table-night2")

    # Jack walks next to the yellow policeman; Bob moves him on, still next to Jack,
    # and arrests: the game ends and every screen reveals Jack's sheet.
    tap_circle(jack, CAUGHT)
    tap(jack, "[data-way='move']")
    tap_crossing(bob, board, "yellow", 111, check="whitechapel-police-move-night2",
                 allow=("status of 422",))  # the refused search of night 1
    expect(laptop.locator("[data-cop-at='yellow:111']")).to_have_count(1)
    every_other_stays(ann, bob)
    bobs_turn(ann, bob)
    check_phone(bob, "whitechapel-police-arrest")
    tap(bob, "a[data-arrest-for='yellow']")
    confirm(bob, bob.get_by_role("button", name=f"Arrest on {CAUGHT}", exact=True))
    for page in (laptop, jack, ann, bob):
        expect(page.locator("[data-outcome]").first).to_have_attribute(
            "data-outcome", "detectives")
        expect(page.locator("[data-hideout]").first).to_have_text(str(HIDEOUT))
        expect(page.locator("[data-sheet-night='2']").first).to_contain_text(str(CAUGHT))
        expect(page.locator("[data-log]").first).to_contain_text(f"{CAUGHT}: arrested")
    check_screen(laptop, "whitechapel-police-table-reveal")
    for page, name in ((jack, "jack"), (ann, "ann"), (bob, "bob")):
        check_phone(page, f"whitechapel-police-reveal-{name}")


# --- a whole night with three detectives at 360 px, counting taps (issue 22) ------------

SMALL = {"width": 360, "height": 740}
SCREEN = 740


def now_on_top(detectives, phase_words: str, jack=None) -> None:
    """Every detective's phone names the phase and who acts in its first 150 px, and
    no detective page is longer than two screens; Jack's says what happens now in its
    first 150 px too."""
    if jack is not None:
        caught_up(jack)
        box = top_box(jack, "[data-now] .now-text")
        assert box["y"] + box["height"] <= 150, (phase_words, box)
    for page in detectives:
        caught_up(page)
        page.evaluate("window.scrollTo(0, 0)")
        now = page.locator("[data-now]")
        expect(now.locator("[data-phase-name]")).to_contain_text(phase_words)
        box = now.locator(".now-text").bounding_box()  # the phase, in a player's words
        if box["y"] + box["height"] > 150:
            shot(page, "wc22-now-too-low")
        assert box["y"] + box["height"] <= 150, (phase_words, box)
        height = page.evaluate("document.documentElement.scrollHeight")
        if height > 2 * SCREEN:
            shot(page, "wc22-too-long")
        assert height <= 2 * SCREEN, (phase_words, height)


def top_box(page, target) -> dict:
    """Where ``target`` stands on the page scrolled to the top, once it is shown (a live
    refresh may still be bringing it after the last tap)."""
    locator = page.locator(target).first if isinstance(target, str) else target
    expect(locator).to_be_visible()
    # Scrolled and measured in one go: a refresh may swap the view between two calls.
    return locator.evaluate("el => { window.scrollTo(0, 0); const b = el.getBoundingClientRect();"
                            " return {x: b.x, y: b.y, width: b.width, height: b.height}; }")


def on_the_laptops_first_screen(laptop, name: str) -> None:
    """The table screen at 1280x800 shows the night's searches and the last answer
    without scrolling."""
    laptop.set_viewport_size({"width": 1280, "height": 800})
    shot(laptop, name)
    for part in ("[data-answer]", "[data-log]"):
        box = top_box(laptop, part)
        assert box["y"] + box["height"] <= 800, (part, box)
    laptop.set_viewport_size(LAPTOP["viewport"])


def in_first_screen(page, target) -> None:
    box = top_box(page, target)
    assert box["y"] + box["height"] <= SCREEN, (target, box)


def starts_on_first_screen(page, target) -> None:
    """The control this phone needs now starts inside the first screen (at the top)."""
    box = top_box(page, target)
    if box["y"] >= SCREEN:
        shot(page, "wc22-control-too-low")
    assert box["y"] < SCREEN, (target, box)


def pick_crossing(taps: Taps, step: str, page, board, colour: str, crossing: int) -> None:
    """The policeman is preselected (his own, the next one); tap the crossing: one tap,
    on the first map. The confirm button is left to the caller."""
    expect(page.locator("[data-police-map]")).to_have_attribute("data-picked", colour)
    assert targets_are_thumb_sized(page)
    in_first_screen(page, f"a[data-crossing='{crossing}']")
    taps.tap(step, page, f"a[data-crossing='{crossing}']")
    expect(page.locator(f"[data-police-confirm='{colour}:{crossing}']")).to_be_visible()


def test_a_night_with_three_detectives_by_tapping_at_360_px(shipped_server, laptop, phone):
    board = load_board(SHIPPED_BOARDS[0])
    url = police_table(shipped_server, laptop, board, 4)
    jack, ann, bob, cy = phone(), phone(), phone(), phone()
    detectives = [ann, bob, cy]
    for seat, (page, name) in enumerate(zip([jack, *detectives], ["Jack", "Ann", "Bob", "Cy"],
                                            strict=True)):
        sit(page, url, name, seat)
    for page in detectives:
        page.set_viewport_size(SMALL)
    start_game(laptop)
    # The even deal (Setup, 3): Ann blue and red, Bob yellow and green, Cy brown.
    own = {ann: ["blue", "red"], bob: ["yellow", "green"], cy: ["brown"]}
    for page, colours in own.items():
        expect(page.locator("[data-now]")).to_have_attribute("data-policemen",
                                                             " ".join(colours))

    now_on_top(detectives, "Setup: Jack's hideout")
    expect(ann.locator(".now-text")).to_have_text("Jack chooses his hideout: wait")
    shot(ann, "wc22-detective-hideout-360")
    tap_circle(jack, HIDEOUT)
    tap(jack, "[data-way='hideout']")
    now_on_top(detectives, "Hell: the targets")
    hell(jack, detectives, laptop, ["3", "21", "27", str(CRIME), "84"])
    now_on_top(detectives, "Hell: blood on the streets")
    expect(ann.locator(".now-text")).to_have_text("Jack kills or waits: wait")
    shot(bob, "wc22-detective-blood-360")
    tap_circle(jack, CRIME)
    confirm(jack, "[data-picked] button.confirm")

    # The alarm: every phone preselects its own next policeman; Ann and Bob pick from
    # pages of one version and send at the same moment: both are accepted.
    taps = Taps()
    now_on_top(detectives, "Hell: alarm whistles")
    expect(ann.locator(".now-text")).to_have_text("Your turn: place blue")
    shot(ann, "wc22-detective-alarm-360")
    pick_crossing(taps, "place", ann, board, "blue", STARTS["blue"])
    pick_crossing(taps, "place", bob, board, "yellow", STARTS["yellow"])
    check_phone(bob, "wc22-detective-placing")  # 360 and 390 px, looked at
    shot(ann, "wc22-detective-alarm-picked-ann-360")
    in_first_screen(ann, "[data-police-confirm]")
    ann_confirm = ann.locator("[data-police-confirm='blue:44']")
    bob_confirm = bob.locator("[data-police-confirm='yellow:107']")
    ann_confirm.click()
    bob_confirm.click()  # sent from a page the table has moved past
    taps.steps["place"] += 2
    for colour in ("blue", "yellow"):
        expect(laptop.locator(f"[data-cop-at='{colour}:{STARTS[colour]}']")).to_have_count(1)
    for page in detectives:  # every phone has caught up with both
        for colour in ("blue", "yellow"):
            expect(page.locator(  # the police map's (the folded board map has its own)
                f"[data-police-map] [data-cop-at='{colour}:{STARTS[colour]}']")).to_have_count(1)
    # Each phone now preselects its own next one (never another's).
    expect(ann.locator("[data-police-map]")).to_have_attribute("data-picked", "red")
    expect(bob.locator("[data-police-map]")).to_have_attribute("data-picked", "green")
    expect(cy.locator("[data-police-map]")).to_have_attribute("data-picked", "brown")
    for page, colour in ((ann, "red"), (cy, "brown")):
        pick_crossing(taps, "place", page, board, colour, STARTS[colour])
        taps.tap("place", page, f"[data-police-confirm='{colour}:{STARTS[colour]}']")
        expect(bob.locator(
            f"[data-police-map] [data-cop-at='{colour}:{STARTS[colour]}']")).to_have_count(1)
    # The last placement shows all five on the map before it is sent.
    pick_crossing(taps, "place", bob, board, "green", STARTS["green"])
    expect(bob.locator("[data-police-map] g.cop")).to_have_count(5)
    expect(bob.locator("[data-police-map] g.cop.preview")).to_have_count(1)
    expect(bob.locator("[data-police-confirm]")).to_contain_text("all five placed")
    shot(bob, "wc22-detective-alarm-last-360")
    taps.tap("place", bob, "[data-police-confirm='green:186']")
    for colour, crossing in STARTS.items():
        expect(laptop.locator(f"[data-cop-at='{colour}:{crossing}']")).to_have_count(1)
    placing = taps.steps["place"]  # the crossing and its button for each of five: 10

    now_on_top(detectives, "Hunting: escape in the night")
    expect(cy.locator(".now-text")).to_have_text("Jack is moving: wait")
    check_phone(cy, "wc22-detective-waiting-for-jack")
    tap_circle(jack, 82)
    tap(jack, "[data-way='move']")

    # Hunting 2: every detective moves his own policemen at the same time, a crossing
    # and its button (2 taps), or says one stays (1 tap). No search before all five.
    now_on_top(detectives, "Hunting: the police hunt the monster", jack)
    for page, colours in own.items():  # his own, in the police's order
        for colour in colours:
            expect(page.locator(".now-text")).to_contain_text(colour)
        expect(page.locator(".now-text")).to_contain_text("Your turn: move ")
    head = laptop.locator("[data-head]").first.get_attribute("data-head")
    speaker = next(page for page, colours in own.items() if head in colours)
    expect(speaker.locator("[data-now]")).to_contain_text("Head of the Investigation")
    shot(speaker, "wc22-detective-police-head-360")
    moves = Taps()
    pawns = dict(STARTS)  # the board: where each pawn stands
    for page, (mover, *stayers) in own.items():
        target = sorted(x for x in board.police_moves(pawns[mover])
                        if x not in pawns.values() and board.circles_next_to(x))[0]
        pick_crossing(moves, mover, page, board, mover, target)
        in_first_screen(page, f"[data-police-confirm='{mover}:{target}']")
        if page is speaker:
            check_phone(page, "wc22-detective-moving")
        moves.tap(mover, page, f"[data-police-confirm='{mover}:{target}']")
        pawns[mover] = target
        expect(laptop.locator(f"[data-cop-at='{mover}:{target}']")).to_have_count(1)
        assert moves.steps[mover] == 2  # target: a move in 2 taps (the crossing, its button)
        for colour in stayers:
            caught_up(page)
            expect(page.locator(".now-text")).to_have_text(f"Your turn: move {colour}")
            moves.tap(colour, page, f"[data-stay='{colour}']")
            assert moves.steps[colour] == 1  # target: a policeman who stays in 1 tap
        if page is not cy:  # the others still move: nobody searches yet
            caught_up(page)
            expect(page.locator(".now-text")).to_contain_text("Wait for")
            expect(page.locator("[data-search-circles]")).to_have_count(0)
            now_on_top([page], "Hunting: the police hunt the monster", jack)
            shot(page, f"wc22-detective-waiting-moves-{'ann' if page is ann else 'bob'}-360")
    # The app and the board agree: every pawn where the detectives put it.
    for colour, crossing in pawns.items():
        expect(laptop.locator(f"[data-cop-at='{colour}:{crossing}']")).to_have_count(1)
        for page in detectives:
            expect(page.locator(f"[data-police-map] [data-cop-at='{colour}:{crossing}']")
                   ).to_have_count(1)

    # Hunting 3, from the Head of the Investigation clockwise: a search is a circle a
    # tap until the first yes.
    now_on_top(detectives, "Hunting: the police hunt the monster", jack)
    others = [page for page in detectives if page is not speaker]
    expect(speaker.locator(".now-text")).to_contain_text("Your turn")
    for page in others:
        expect(page.locator(".now-text")).to_contain_text(f"speaks for {head}: wait")
        expect(page.locator("[data-search-circles]")).to_have_count(0)
    shot(others[0], "wc22-detective-police-waiting-360")
    near = sorted(board.circles_next_to(pawns[head]))
    first_circle = speaker.locator("[data-map-asks]").get_by_role(
        "button", name=f"Circle {near[0]}", exact=True)
    starts_on_first_screen(speaker, "[data-search-circles] button")
    moves.tap("search", speaker, first_circle)
    expect(laptop.locator("[data-log]").first).to_contain_text(f"{near[0]}:")
    expect(speaker.locator("[data-answer]")).to_contain_text(f"Search {near[0]}")
    check_phone(speaker, "wc22-detective-searching")  # docs/screenshots/phone.png
    # The table screen at 1280x800 shows the night's searches and the answer unscrolled.
    on_the_laptops_first_screen(laptop, "wc36-table-search-1280")
    now_on_top(detectives, "Hunting: the police hunt the monster", jack)
    if len(near) > 1 and "no clue" in laptop.locator("[data-log]").first.inner_text():
        expect(speaker.locator(".now-text")).to_contain_text("searches on")
        for page in others:
            expect(page.locator(".now-text")).to_contain_text(f"searches with {head}: wait")
        further = speaker.locator("[data-search-circles]").get_by_role(
            "button", name=f"Circle {near[1]}", exact=True)
        in_first_screen(speaker, further)
        moves.tap("search more", speaker, further)
        expect(speaker.locator("[data-answer]")).to_contain_text(f"Search {near[1]}")
        assert moves.steps["search more"] == 1  # target: each further circle 1 tap
    assert moves.steps["search"] == 1  # target: a search of one circle in 1 tap
    shot(speaker, "wc22-detective-searched-360")
    if speaker.locator("[data-act=done]").count():
        moves.tap("search done", speaker, "[data-act=done]")
        expect(speaker.locator("[data-act=done]")).to_have_count(0)
    turn = laptop.locator("[data-log]").first

    # An arrest by the next detective who speaks: Arrest, the circle on the map, the
    # second tap (3).
    for _ in range(5):
        caught_up(*detectives)
        acting = next((page for page in detectives
                       if page.locator("[data-arrest-for]").count()), None)
        if acting is not None:
            break
        confirm(speaker, "button:has-text('does nothing')")
    assert acting is not None
    colour = acting.locator("[data-arrest-for]").first.get_attribute("data-arrest-for")
    circle = sorted(board.circles_next_to(pawns[colour]))[0]
    in_first_screen(acting, f"a[data-arrest-for='{colour}']")
    moves.tap("arrest", acting, f"a[data-arrest-for='{colour}']")
    on_map = acting.locator("[data-map-asks]").get_by_role("button", name=f"Circle {circle}",
                                                            exact=True)
    starts_on_first_screen(acting, "[data-arrest-circles] button")
    check_phone(acting, "wc22-detective-arresting")
    moves.tap("arrest", acting, on_map)
    moves.tap("arrest", acting, "button.armed")
    expect(turn).to_contain_text(f"arrests at {circle}")
    assert moves.steps["arrest"] == 3  # target: an arrest in 3 taps
    shot(acting, "wc22-detective-arrested-360")
    on_the_laptops_first_screen(laptop, "wc36-table-arrest-1280")
    now_on_top(detectives, "Hunting: the police hunt the monster", jack)

    # Every other policeman's detective says he does nothing (2 taps: the confirm); the
    # last one hands the turn to Jack, nobody taps for the police as a whole.
    for _ in range(5):
        caught_up(*detectives)
        if laptop.locator("[data-phase='jack']").count():
            break
        passing = next(page for page in detectives
                       if page.locator("button:has-text('does nothing')").count())
        confirm(passing, "button:has-text('does nothing')")
    now_on_top(detectives, "Hunting: escape in the night", jack)
    for page in detectives:
        expect(page.locator(".now-text")).to_have_text("Jack is moving: wait")

    # Jack goes home: the night ends, and every phone says so first.
    tap_circle(jack, HIDEOUT)
    confirm(jack, "[data-way='escape']")  # 2 taps: the one confirm pattern
    expect(laptop.locator("[data-night]").first).to_have_attribute("data-night", "2")
    now_on_top(detectives, "Hell: the targets", jack)
    for page in detectives:
        expect(page.locator(".now-text")).to_contain_text(
            "Night 1 is over: Jack reached his hideout on square")
        expect(page.locator("[data-now-detail]")).to_contain_text("Next: Jack places the women")
    shot(ann, "wc22-detective-night2-360")
    for page in detectives:
        check_phone(page)
    # The app and the board still agree at night 2's alarm: the pawns stood where
    # the detectives left them.
    for colour, crossing in pawns.items():
        expect(laptop.locator(f"[data-cop-at='{colour}:{crossing}']")).to_have_count(1)
    # Tap counts of this night (issue 22 measured 44 detective taps for one like it).
    assert placing == 5 * 2, taps.steps
    print("detective taps:", taps.steps, moves.steps)
