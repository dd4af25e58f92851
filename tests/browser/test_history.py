"""The club's history in a real Chromium: two Mr. Jack games played through the phones
(one won by the detective, one by Jack, whose name is typed "ann" the second time), then
/history, the players' pages and Letters from Whitechapel's heat map, at 360 px on a
phone and at 1280x800 on the laptop, over a club's earlier games (tests/support/club.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

from companion.db import connect
from companion.db.migrations import migrate
from companion.games import discover
from companion.games.whitechapel.board import SHIPPED_BOARDS, load_board
from tests.support import club
from tests.support.campaign import read_table
from tests.support.pages import SCREENSHOTS, confirm, shot, sit, start_game
from tests.support.phone_quality import check_phone, check_screen
from tests.support.realserver import Server

EARLIER = 24
"""The club's games before tonight: six of each kind."""


@pytest.fixture
def club_server(tmp_path: Path) -> Iterator[Server]:
    path = tmp_path / "companion.sqlite"
    migrate(str(path))
    db = connect(str(path))
    club.fill(db, discover(), EARLIER, board=load_board(SHIPPED_BOARDS[0]))
    db.close()
    running = Server(path).start()
    yield running
    running.stop()


def play_mrjack(server: Server, laptop, phone, jack_name: str, right: bool) -> None:
    """Create the table (2 taps), both phones sit (3 taps each), start (1 tap); the
    detective plays his first card (2 taps), opens his list (1 tap) and accuses (2 taps)."""
    laptop.goto(server.url + "/new/mrjack")
    laptop.click("text=Create the table")
    code = laptop.locator(".code-big").inner_text().strip()
    jack, detective = phone(), phone()
    sit(jack, f"{server.url}/j/{code}", jack_name, 0)
    sit(detective, f"{server.url}/j/{code}", "Bob", 1)
    start_game(laptop)
    expect(detective.locator("[data-pick]").first).to_be_visible()
    state, _version, _status = read_table(server.db, code)
    confirm(detective, f"[data-pick='{state['round']['cards'][0]}']")
    detective.click("[data-accuse] > summary")
    accused = state["alibi"] if right else next(
        card for card in state["characters"] if card != state["alibi"])
    confirm(detective, f"[data-accuse] button[value='{accused}']")
    expect(laptop.locator("[data-outcome]")).to_have_attribute(
        "data-outcome", "Detective" if right else "Jack")


def test_the_history_shows_tonights_games_and_the_clubs(club_server, laptop, phone):
    play_mrjack(club_server, laptop, phone, "Ann", right=True)
    play_mrjack(club_server, laptop, phone, "ann", right=False)

    # The lobby links the history (1 tap); on the laptop at 1280x800.
    laptop.set_viewport_size({"width": 1280, "height": 800})
    laptop.goto(club_server.url + "/")
    laptop.click("[data-history-link]")
    expect(laptop.locator("[data-history-total]")).to_have_text(
        f"{EARLIER + 2} finished games.")
    first = laptop.locator("[data-history-games] > li").first
    expect(first).to_have_attribute("data-side", "jack")
    expect(first).to_contain_text("ann")
    check_screen(laptop, "history-laptop")

    # A phone reads it too: Ann's games (1 tap to open the players, 1 on her name).
    reader = phone()
    reader.set_viewport_size({"width": 360, "height": 780})
    reader.goto(club_server.url + "/history")
    check_phone(reader, "history-phone")
    reader.click(".history-player-choice > summary")
    reader.click("[data-filter-player='ann']")
    expect(reader.locator("[data-history-total]")).to_have_text("2 finished games with ann.")
    expect(reader.locator("[data-history-games] > li")).to_have_count(2)

    # London 1888 with one club member (1 tap on the game, 1 to open the players, 1 on
    # the name): the summary of each game and the plots count those games only.
    reader.goto(club_server.url + "/history")
    reader.click("[data-filter-game=london1888]")
    reader.click(".history-player-choice > summary")
    name = reader.locator("[data-filter-player]").first.get_attribute("data-filter-player")
    reader.click(f"[data-filter-player='{name}']")
    expect(reader.locator("[data-history-total]")).to_contain_text(
        f"of London 1888 with {name}.")
    expect(reader.locator("[data-per-game]")).to_have_count(1)
    expect(reader.locator("[data-per-game=london1888]")).to_be_visible()
    check_phone(reader, "history-filtered-phone")
    laptop.goto(reader.url)
    check_screen(laptop, "history-filtered-laptop")
    # The plots alone, to look at: a phone's card and a projector's (1280x800).
    for page, where in ((reader, "phone"), (laptop, "projector")):
        for plot in ("wins", "jack"):
            page.locator(f"[data-plot-figure={plot}] svg").screenshot(
                path=str(SCREENSHOTS / f"history-plot-{plot}-{where}.png"))
    reader.goto(club_server.url + "/history?player=ann")

    # Her page (1 tap on her name in a game): "Ann" and "ann" are one player.
    reader.locator("[data-history-games] a", has_text="ann").first.click()
    expect(reader.locator("[data-stat=games]")).to_have_text("2")
    expect(reader.locator("[data-stat=wins]")).to_have_text("1")
    expect(reader.locator("[data-stat=jack-wins]")).to_have_text("1 of 2")
    check_phone(reader, "history-player-phone")
    reader.goto(club_server.url + "/history/players/Bob")
    expect(reader.locator("[data-stat=detective-wins]")).to_have_text("1 of 2")

    # Letters from Whitechapel's heat map on the board (1 tap from the list of games).
    reader.goto(club_server.url + "/history")
    reader.click("[data-per-game=whitechapel] a")
    expect(reader.locator("[data-heat] svg circle[data-crime]").first).to_be_attached()
    check_phone(reader, "history-heat-phone")
    laptop.goto(club_server.url + "/history/games/whitechapel")
    expect(laptop.locator("[data-heat] image")).to_be_attached()
    check_screen(laptop, "history-heat-laptop")
    shot(laptop, "history-heat-laptop-full")
