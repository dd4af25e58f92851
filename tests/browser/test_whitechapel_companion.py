"""The companion plays Jack in a real Chromium (issue 39): three detectives at 360 px on
the board the companion ships, nobody at Jack's seat. Night 1 from the setup to Jack's
first movement: at each step every phone says in its first 150 px what Jack did with
his pieces, and each detective step is counted in taps."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from companion.games.whitechapel.board import SHIPPED_BOARDS, load_board
from tests.support.pages import caught_up, confirm, shot, sit, start_game
from tests.support.realserver import Server
from tests.support.whitechapel_pages import head_of, tap

STARTS = {"blue": 44, "yellow": 107, "brown": 101, "red": 119, "green": 186}
"""Yellow-bordered crossings: where the patrol tokens may stand on the first night."""
DEAL = {"blue": 1, "yellow": 2, "brown": 3, "red": 1, "green": 2}
"""The even deal of three detectives."""
NARROW = {"width": 360, "height": 740}
SEED = 1
TOP = 150


@pytest.fixture
def shipped_server(tmp_path) -> Iterator[Server]:
    # A seed whose companion kills at once on night 1 (it may wait: issue 39).
    running = Server(tmp_path / "companion.sqlite", seed=SEED).start()
    yield running
    running.stop()


def said_on_top(page, words: str) -> None:
    """What happens now lies within the phone's first 150 px, and right under it the
    companion's line says ``words``, its first line within them too (a long list of
    circles may wrap below)."""
    said = page.locator("[data-companion-said]").first
    expect(said).to_contain_text(words)
    box = said.bounding_box()
    first_line = 24
    assert box is not None and box["y"] + first_line <= TOP, (words, box)
    now = page.locator("[data-now] .now-text").first.bounding_box()
    assert now is not None and now["y"] + now["height"] <= TOP, ("the now line", now)


def test_three_detectives_against_the_companion_at_360_px(shipped_server, laptop, phone):
    board = load_board(SHIPPED_BOARDS[0])
    laptop.goto(shipped_server.url + "/new/whitechapel")
    laptop.select_option("select[name=players]", "4")
    laptop.select_option("select[name=board]", board.name)
    laptop.check("input[name=police_map]")
    laptop.select_option("select[name=jack]", "hard")
    laptop.click("button:has-text('Create the table')")
    url = f"{shipped_server.url}/j/{laptop.locator('.code-big').inner_text().strip()}"
    phones = [None] + [phone() for _ in range(3)]
    for seat, name in ((1, "Ann"), (2, "Bob"), (3, "Cy")):
        phones[seat].set_viewport_size(NARROW)
        sit(phones[seat], url, name, seat)
    start_game(laptop)  # 1 tap: nobody sits at Jack's seat, the companion plays it
    detectives = phones[1:]
    caught_up(laptop, *detectives)
    # Hell 2: the companion placed the women; every phone says where the tokens go, the
    # whole line of eight circles within the first 150 px.
    for page in (laptop, *detectives):
        expect(page.locator("[data-companion-said]").first).to_contain_text("Women tokens")
    for number, page in enumerate(detectives, start=1):
        said_on_top(page, "Women tokens")
        shot(page, f"wc-companion-women-360-{number}")
        box = page.locator("[data-companion-said]").first.bounding_box()
        assert box["y"] + box["height"] <= TOP, ("the women's line", box)
    # Hell 3: the Head places the patrol tokens on the board and says so: 2 taps (tap
    # again to confirm; the first night's seven crossings are the yellow-bordered ones,
    # known to the app). The companion (the seed's) kills at once.
    confirm(head_of(detectives, laptop), "[data-act=patrols_placed]")
    caught_up(laptop, *detectives)
    for page in detectives:
        said_on_top(page, "Jack killed on")
    # Hell 9: each detective puts his policemen on the crossings of their tokens: 3
    # taps each (the policeman, the crossing on the map, confirm), as picking up a pawn.
    for colour, crossing in STARTS.items():
        page = phones[DEAL[colour]]
        caught_up(page)
        page.locator(f"a[data-cop='{colour}']").first.click()
        page.locator(f"a[data-crossing='{crossing}']").click()
        tap(page, f"[data-police-confirm='{colour}:{crossing}']")
        # Its answer in before the next phone reads the table's version (a placement
        # still on its way moved it on under the next phone: a fresh-clone failure).
        caught_up(page)
    # The last one hands the turn to Jack, who moves in the same transaction: the
    # table never waits on a button, and every phone says what he did on the track.
    caught_up(laptop, *detectives)
    for page in detectives:
        said_on_top(page, "Jack")
        expect(page.locator("[data-companion-said]").first).to_contain_text("square")
    expect(laptop.locator("[data-companion-said]").first).to_contain_text("square")
    assert laptop.locator("[data-companion-said]").first.bounding_box()["y"] < TOP
