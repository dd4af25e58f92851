"""Letters from Whitechapel board mode in a real Chromium on the real board: Jack
plays a night by tapping the map, and the detectives' deduction map shrinks as
clues are found (issue #4, "How it is checked")."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from companion.games.whitechapel.board import load_board
from tests.support.boardfiles import real_board_path
from tests.support.pages import confirm, shot, sit
from tests.support.realserver import Server
from tests.support.whitechapel_pages import hell, open_map, tap, tap_circle

CRIME = 65


@pytest.fixture
def board_server(tmp_path) -> Iterator[Server]:
    running = Server(tmp_path / "companion.sqlite", boards=(real_board_path(),)).start()
    yield running
    running.stop()


def possible(page) -> set[int]:
    """The circles where the page's deduction map says Jack can be."""
    return {int(n) for n in page.locator("[data-possible]").first.get_attribute(
        "data-possible").split()}


def go(page, circle: int, way: str) -> None:
    """Tap a circle of Jack's map, then the button of the way to get there."""
    tap_circle(page, circle)
    tap(page, f"[data-way='{way}']")


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
    shot(laptop, "whitechapel-board-setup")
    laptop.click("button:has-text('Create the table')")
    code = laptop.locator(".code-big").inner_text().strip()
    url = f"{board_server.url}/j/{code}"
    jack, ann, bob = phone(), phone(), phone()
    sit(jack, url, "Jack", 0)
    sit(ann, url, "Ann", 1)
    sit(bob, url, "Bob", 2)
    laptop.click("button:has-text('Start the game')")

    # The hideout: tapped on the map (red circles are not offered).
    open_map(jack)
    expect(jack.locator("[data-map-prompt]")).to_contain_text("hideout")
    expect(jack.locator("a[data-to='3']")).to_have_count(0)
    shot(jack, "whitechapel-board-jack-hideout")
    go(jack, hideout, "hideout")
    expect(laptop.locator("[data-prompt]").first).to_contain_text("8 woman tokens")

    # Hell: the women from the keypad, then the victim tapped, with a second tap.
    hell(jack, [ann, bob], laptop, ["3", "21", "27", str(CRIME), "84"])
    tap_circle(jack, CRIME)
    confirm(jack, "[data-picked] button.confirm")
    expect(laptop.locator("[data-prompt]").first).to_contain_text("Alarm whistles")

    # Hunting: Jack's legal destinations are the links of the map.
    expect(jack.locator("[data-map-prompt]")).to_contain_text("closed to a normal move")
    destinations = {int(n) for n in jack.locator("a[data-to]").evaluate_all(
        "links => links.map(a => a.dataset.to)")}
    assert destinations == (board.normal_moves(CRIME) | board.coach_destinations(CRIME)
                            | board.alley_moves(CRIME))
    shot(jack, "whitechapel-board-jack-moves")
    tap_circle(jack, first)
    expect(jack.locator("[data-way='move']")).to_be_visible()
    shot(jack, "whitechapel-board-jack-ways")
    tap(jack, "[data-way='move']")

    # The detectives' map: every road out of the crime scene, then a clue.
    expect(laptop.locator("[data-tokens]").first).to_contain_text("squares left: 13")
    everywhere = board.normal_moves(CRIME)
    expect(ann.locator("[data-possible]")).to_have_attribute(
        "data-possible", " ".join(map(str, sorted(everywhere))))
    shot(ann, "whitechapel-board-detective-map")
    empty = min(everywhere - {first})
    ann.locator("label.wc-pick").first.click()
    search(ann, empty)
    expect(laptop.locator("[data-log]").first).to_contain_text(f"{empty}: no clue")
    expect(bob.locator("[data-possible]")).not_to_have_attribute(
        "data-possible", " ".join(map(str, sorted(everywhere))))
    assert possible(bob) == everywhere - {empty}
    search(ann, first)
    expect(laptop.locator("[data-clues]").first).to_contain_text(str(first))
    expect(bob.locator("[data-possible]")).to_have_attribute("data-possible", str(first))
    expect(laptop.locator("[data-possible]")).to_have_attribute("data-possible", str(first))
    shot(bob, "whitechapel-board-detective-clue")

    # Bob marks a road his policeman closes: Jack's map draws it and drops the move.
    closed = min(board.normal_moves(first) - {step, CRIME})
    bob.fill("[data-block='1']", str(first))
    bob.fill("[data-block='2']", str(closed))
    tap(bob, "[data-act=block]")
    expect(laptop.locator("[data-closed-public]").first).to_contain_text(
        f"{min(first, closed)}–{max(first, closed)}")
    shot(bob, "whitechapel-board-detective-closed")
    shot(laptop, "whitechapel-board-table")
    confirm(laptop, "button:has-text('The police are done')")
    expect(jack.locator(".board-map line.closed")).to_have_count(1)
    if jack.locator(f"a[data-to='{closed}']").count():
        tap_circle(jack, closed)
        expect(jack.locator("[data-way='move']")).to_have_count(0)
        jack.click("a:has-text('Pick another circle')")

    # Home: a move tapped on the map, then the escape onto the hideout.
    go(jack, step, "move")
    expect(laptop.locator("[data-tokens]").first).to_contain_text("squares left: 12")
    confirm(laptop, "button:has-text('The police are done')")
    go(jack, hideout, "escape")
    expect(laptop.locator("[data-night]").first).to_have_attribute("data-night", "2")
    expect(ann.locator("[data-deduction]")).to_contain_text("His hideout is one of")
    shot(ann, "whitechapel-board-detective-hideouts")
    shot(jack, "whitechapel-board-jack-night2")

    # Night 2: a crime tapped on the map, an arrest on it, and the reveal for everyone.
    hell(jack, [ann, bob], laptop, ["3", "21", "27", "84"])
    tap_circle(jack, 84)
    confirm(jack, "[data-picked] button.confirm")
    expect(laptop.locator("[data-prompt]").first).to_contain_text("Alarm whistles")
    go(jack, min(board.normal_moves(84) - {CRIME}), "move")
    ann.locator("label.wc-pick").first.click()
    ann.locator("[data-keypad] .keypad-display").first.fill(
        str(min(board.normal_moves(84) - {CRIME})))
    confirm(ann, "button:has-text('Arrest here')")
    for page in (laptop, jack, ann, bob):
        expect(page.locator("[data-outcome]").first).to_have_attribute(
            "data-outcome", "detectives")
        expect(page.locator(".board-map line.trail.night-1")).to_have_count(3)
        expect(page.locator(".board-map line.trail.night-2")).to_have_count(1)
    shot(laptop, "whitechapel-board-table-reveal")
    shot(ann, "whitechapel-board-detective-reveal")
