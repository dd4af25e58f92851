"""Police on the map in a real Chromium at phone size, on the board the companion
ships (the server is given no board file): the detectives tap each policeman onto
his crossing, move one, search next to him; Jack's roads follow, he goes home, and on
the second night the policemen stand again where they were and arrest him next to one
of them: the reveal ends the game on every screen. Every tap target of the police map
is measured at 390 and at 360 px."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from companion.games.whitechapel.board import SHIPPED_BOARDS, load_board
from tests.support.pages import confirm, shot, sit
from tests.support.phone_quality import check_phone, check_screen
from tests.support.realserver import Server
from tests.support.whitechapel_pages import hell, open_map, tap, tap_circle

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
    """Every region and crossing link of the police map is at least 44x44 px."""
    links = page.locator("[data-police-map] svg a")
    boxes = [links.nth(i).bounding_box() for i in range(links.count())]
    for box in boxes:
        assert box["width"] >= 44 and box["height"] >= 44, box
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    return len(boxes)


def tap_crossing(page, board, colour: str, crossing: int, name: str = "",
                 check: str = "", allow: tuple[str, ...] = ()) -> None:
    """Pick the policeman, tap regions until the crossing shows, tap it, confirm.
    With ``check``, the close-up with the crossing picked passes check_phone."""
    page.locator(f"a[data-cop='{colour}']").first.click()
    expect(page.locator("[data-police-map]")).to_have_attribute("data-picked", colour)
    x, y = board.crossing_positions[crossing]
    for _ in range(4):
        if page.locator(f"a[data-crossing='{crossing}']").count():
            break
        assert targets_are_thumb_sized(page)
        if name:
            shot(page, f"{name}-regions")
        for area in page.locator("a[data-region]").evaluate_all(
                "links => links.map(a => a.dataset.region)"):
            left, top, width, height = map(float, area.split(","))
            if left <= x <= left + width and top <= y <= top + height:
                page.locator(f"a[data-region='{area}']").click()
                break
        else:
            raise AssertionError(f"no region holds crossing {crossing}")
    assert targets_are_thumb_sized(page)
    page.locator(f"a[data-crossing='{crossing}']").click()
    if name:
        shot(page, name)
    if check:
        check_phone(page, check, allow=allow)
    tap(page, f"[data-police-confirm='{colour}:{crossing}']")


def test_the_police_on_the_map_at_phone_size(shipped_server, laptop, phone):
    board = load_board(SHIPPED_BOARDS[0])
    first = 82
    laptop.goto(shipped_server.url + "/new/whitechapel")
    laptop.select_option("select[name=players]", "3")
    laptop.select_option("select[name=board]", board.name)
    laptop.check("input[name=police_map]")
    laptop.check("input[name=deduction_map]")
    laptop.click("button:has-text('Create the table')")
    code = laptop.locator(".code-big").inner_text().strip()
    url = f"{shipped_server.url}/j/{code}"
    jack, ann, bob = phone(), phone(), phone()
    sit(jack, url, "Jack", 0)
    sit(ann, url, "Ann", 1)
    sit(bob, url, "Bob", 2)
    laptop.click("button:has-text('Start the game')")

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
    for colour in ("yellow", "brown", "red", "green"):
        tap_crossing(ann, board, colour, STARTS[colour])
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
    expect(bob.locator("[data-next-to]")).to_contain_text("yellow: 99, 100, 120")
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
    for colour in ("blue", "brown", "red", "green"):
        tap_crossing(ann, board, colour, STARTS[colour])
    expect(laptop.locator("[data-cop-at='yellow:109']")).to_have_count(1)
    check_screen(laptop, "whitechapel-police-table-night2")

    # Jack walks next to the yellow policeman; Bob moves him on, still next to Jack,
    # and arrests: the game ends and every screen reveals Jack's sheet.
    tap_circle(jack, CAUGHT)
    tap(jack, "[data-way='move']")
    tap_crossing(bob, board, "yellow", 111, check="whitechapel-police-move-night2",
                 allow=("status of 422",))  # the refused search of night 1
    expect(laptop.locator("[data-cop-at='yellow:111']")).to_have_count(1)
    expect(bob.locator("[data-next-to]")).to_contain_text(f"yellow: {CAUGHT}")
    check_phone(bob, "whitechapel-police-arrest")
    bob.locator("label.wc-pick:has-text('yellow')").click()
    bob.locator("[data-keypad] .keypad-display").first.fill(str(CAUGHT))
    confirm(bob, "button:has-text('Arrest here')")
    for page in (laptop, jack, ann, bob):
        expect(page.locator("[data-outcome]").first).to_have_attribute(
            "data-outcome", "detectives")
        expect(page.locator("[data-hideout]").first).to_have_text(str(HIDEOUT))
        expect(page.locator("[data-sheet-night='2']").first).to_contain_text(str(CAUGHT))
        expect(page.locator("[data-log]").first).to_contain_text(f"{CAUGHT}: arrested")
    check_screen(laptop, "whitechapel-police-table-reveal")
    for page, name in ((jack, "jack"), (ann, "ann"), (bob, "bob")):
        check_phone(page, f"whitechapel-police-reveal-{name}")
