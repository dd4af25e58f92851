"""The club's history pages (companion/web/history.py): every route, filter, export and
plot; bad input answered with a sentence and a 4xx, nothing changed; merging only on the
laptop; and nothing of a game still running, whatever its secrets."""

from __future__ import annotations

import csv
import io
import json
import random
import re

import pytest

from companion import history, importing
from companion.db import get_db
from companion.games import london1888
from companion.games.london1888.state import _jack_seat
from companion.games.whitechapel.board import SHIPPED_BOARDS, load_board
from tests.support import club
from tests.support.history_games import mrjack_game
from tests.support.html import csrf_of
from tests.support.webflow import Device, seated_table

PHONE = {"REMOTE_ADDR": "192.0.2.7"}  # a phone on the table's Wi-Fi, not the laptop


def total(page: str) -> str:
    return re.search(r"data-history-total>(.*?)</p>", page, re.S).group(1).strip()


def test_the_lobby_links_the_history(client):
    assert 'href="/history" data-history-link' in client.get("/").text


def test_the_list_with_its_filters(played, client):
    page = client.get("/history").text
    assert total(page) == "3 finished games."
    assert page.count('class="history-game"') == 3
    assert 'data-filter-player="ann"' in page and 'data-filter-player="Ann"' not in page
    by_game = client.get("/history?game=mrjack").text
    assert total(by_game) == "3 finished games of Mr. Jack."
    assert total(client.get("/history?game=whitechapel").text) == \
        "0 finished games of Letters from Whitechapel."
    ann = client.get("/history?player=ANN").text
    assert total(ann) == "2 finished games with ANN." and ann.count('class="history-game"') == 2
    assert total(client.get("/history?player=Bob&game=mrjack").text) == \
        "2 finished games of Mr. Jack with Bob."


def test_pages_for_years_of_games(app, client):
    with app.app_context():
        db = get_db()
        club.fill(db, app.config["GAMES"], history.PER_PAGE + 5)
    first = client.get("/history").text
    assert first.count('class="history-game"') == history.PER_PAGE
    assert "Page 1 of 2" in first and 'rel="next" href="/history?page=2"' in first
    second = client.get("/history?page=2").text
    assert second.count('class="history-game"') == 5 and 'rel="prev"' in second


@pytest.mark.parametrize(("query", "status", "sentence"), [
    ("game=chess", 404, "keeps no history of a game called “chess”"),
    ("page=" + str(10 ** 30), 422, "A page of the history is a whole number from 1"),
    ("page=-1", 422, "A page of the history is a whole number from 1"),
    ("page=two", 422, "A page of the history is a whole number from 1"),
    ("page=2", 404, "The history has 1 page of games, so there is no page 2."),
    ("player=" + "x" * 1000, 422, "No player's name is longer than 60 characters"),
    ("player=Zed", 404, "Nobody called “Zed” has finished a game on this laptop."),
])
def test_a_filter_it_cannot_show_is_a_sentence(played, client, query, status, sentence):
    response = client.get("/history?" + query)
    assert response.status_code == status
    assert sentence in response.text.replace("&#39;", "'")
    assert total(response.text) == "3 finished games."  # the whole list, as it is


def test_a_players_page(played, client):
    page = client.get("/history/players/anna").text
    assert "<h1>ann</h1>" not in page  # "anna" is not "ann"
    page = client.get("/history/players/ANN%20").text
    stats = dict(re.findall(r'data-stat="([a-z-]+)">([^<]*)<', page))
    assert stats == {"games": "2", "wins": "1", "jack-wins": "1 of 2",
                     "detective-wins": "0 of 0"}
    bob = dict(re.findall(r'data-stat="([a-z-]+)">([^<]*)<', client.get(
        "/history/players/Bob").text))
    assert bob["detective-wins"] == "1 of 2" and bob["jack-wins"] == "0 of 0"
    assert 'data-plot="player-wins"' in page


def test_a_players_page_refuses_what_it_cannot_show(played, client):
    long = client.get("/history/players/" + "x" * 1000)
    assert long.status_code == 422 and "No player&#39;s name is longer" in long.text
    missing = client.get("/history/players/Zed")
    assert missing.status_code == 404 and "Nobody called “Zed”" in missing.text


def test_a_players_tournament_points(app, client):
    from tests.web.test_tournament import new_tournament, play_round, register

    organiser = new_tournament(app)
    register(app, organiser)
    play_round(app, organiser, 1)
    tournament_id = organiser.tid
    page = client.get("/history").text
    name = re.search(r'data-filter-player="([^"]+)"', page).group(1)
    player_page = client.get(f"/history/players/{name}").text
    assert "data-tournament-points" in player_page and f"/tournaments/{tournament_id}/board" \
        in player_page


def test_a_games_page_and_its_endings(played, client):
    page = client.get("/history/games/mrjack").text
    assert "3 finished games: Jack won 2 (<span data-jack-rate>67%</span>)" in page
    assert 'data-ending="wrong_accusation"' in page and 'data-ending="accused"' in page
    empty = client.get("/history/games/whitechapel")
    assert empty.status_code == 200 and "No game of Letters from Whitechapel" in empty.text
    missing = client.get("/history/games/chess")
    assert missing.status_code == 404 and "no history of a game called “chess”" in missing.text
    assert client.get("/history/games/tally").status_code == 404  # keeps no history


def test_the_heat_map_of_hideouts_and_crime_scenes(app, client):
    board = load_board(SHIPPED_BOARDS[0])
    with app.app_context():
        club.fill(get_db(), app.config["GAMES"], 12, board=board)
        heat = history.heat(get_db())[board.name]
    page = client.get("/history/games/whitechapel").text
    assert f'data-heat="{board.name}"' in page
    assert re.search(r'<image href="/boards/[0-9a-f]{16}/', page)  # the board's drawing
    assert page.count("data-crime=") == len(heat["crimes"])
    assert page.count("data-hideout=") == len(heat["hideouts"])
    assert sum(heat["hideouts"].values()) == 3  # one a game: 12 games, 3 of Whitechapel


def test_the_plots(played, client):
    page = client.get("/history").text
    assert 'data-plot="wins"' in page and 'data-plot="jack"' in page
    assert "The numbers of “Wins per month”" in page
    for name in ("wins", "jack"):
        response = client.get(f"/history/plots/{name}.svg")
        assert response.status_code == 200 and response.mimetype == "image/svg+xml"
        assert response.text.startswith("<svg") and "<title>" in response.text
    jack = client.get("/history/plots/jack.svg").text
    assert "Mr. Jack" in jack and "66.7%" in jack
    missing = client.get("/history/plots/pie.svg")
    assert missing.status_code == 404 and "There is no such plot" in missing.text


def test_the_plots_with_no_game(client):
    page = client.get("/history").text
    assert page.count("No finished game to draw yet.") == 2
    assert client.get("/history/plots/wins.svg").status_code == 200


def test_the_exports_follow_the_filters(played, client):
    data = client.get("/history.json?player=Bob").get_json()
    assert len(data["games"]) == 2
    assert {p["name"] for game in data["games"] for p in game["players"]} == {"Ann", "Bob",
                                                                              "Dee"}
    newest = data["games"][0]
    assert newest["winner"] == "Jack" and newest["jack"] == ["Dee"]
    assert newest["players"][0] == {"name": "Dee", "jack": True, "accomplice": False,
                                    "won": True, "points": None}
    response = client.get("/history.csv?game=mrjack")
    assert response.mimetype == "text/csv"
    assert "attachment" in response.headers["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.text)))
    assert rows[0] == list(("ended_at", "game", "winner", "side", "jack", "accomplices", "how",
                            "players", "points", "source"))
    assert len(rows) == 4 and rows[1][1] == "Mr. Jack" and rows[1][7] == "Dee (won); Bob"
    assert rows[1][9] == "here" and newest["source"] == "here"
    refused = client.get("/history.json?game=chess")
    assert refused.status_code == 404 and "chess" in refused.get_json()["error"]
    assert client.get("/history.csv?page=1").status_code == 200  # pages do not cut it


# --- merging names: the laptop only ------------------------------------------------------

def merge(client, name: str, into: str, **kwargs):
    csrf = csrf_of(client.get("/", **kwargs).text)
    return client.post("/history/merge", data={"csrf": csrf, "name": name, "into": into},
                       **kwargs)


def test_the_laptop_merges_and_takes_it_back(played, client):
    page = client.get("/history/players/Dee").text
    assert 'data-merge="Cy"' in page and "data-merges" in page
    response = merge(client, "Cy", "Dee")
    assert response.status_code == 303 and response.headers["Location"] == \
        "/history/players/Dee"
    dee = client.get("/history/players/Dee").text
    assert 'data-stat="games">2<' in dee and "“Cy” counts as Dee." in dee
    assert 'data-filter-player="Cy"' not in client.get("/history").text
    csrf = csrf_of(dee)
    back = client.post("/history/unmerge", data={"csrf": csrf, "name": "Cy", "into": "Dee"})
    assert back.status_code == 303 and back.headers["Location"] == "/history/players/Dee"
    assert 'data-stat="games">1<' in client.get("/history/players/Dee").text
    again = client.post("/history/unmerge", data={"csrf": csrf, "name": "Cy", "into": "Dee"})
    assert again.status_code == 409 and "“Cy” was not merged" in again.text


@pytest.mark.parametrize(("name", "into", "status", "sentence"), [
    ("Dee", "dee ", 409, "already count as one player"),
    ("Zed", "Dee", 404, "Nobody called “Zed” has finished a game"),
    ("Dee", "Zed", 404, "Nobody called “Zed” has finished a game"),
    ("", "Dee", 422, "Please choose a player."),
    ("x" * 1000, "Dee", 422, "No player&#39;s name is longer than 60 characters"),
])
def test_a_merge_it_cannot_make_is_a_sentence(played, client, name, into, status, sentence):
    before = client.get("/history.json").get_json()
    response = merge(client, name, into)
    assert response.status_code == status and sentence in response.text
    assert client.get("/history.json").get_json() == before
    with client.application.app_context():
        assert history.merges(get_db()) == []


def test_a_phone_reads_the_history_but_merges_nothing(played, app):
    phone = app.test_client()
    for url in ("/history", "/history/players/Bob", "/history/games/mrjack",
                "/history.csv", "/history.json", "/history/plots/wins.svg"):
        assert phone.get(url, environ_base=PHONE).status_code == 200
    assert "data-merges" not in phone.get("/history/players/Bob", environ_base=PHONE).text
    refused = merge(phone, "Cy", "Bob", environ_base=PHONE)
    assert refused.status_code == 403 and "on the laptop running the companion" in refused.text
    with app.app_context():
        assert history.merges(get_db()) == []


# --- nothing of a game still running -----------------------------------------------------

SURFACES = ("/history", "/history?player=Ann", "/history/players/Bob",
            "/history/games/mrjack", "/history/games/whitechapel", "/history.csv",
            "/history.json", "/history/plots/wins.svg", "/history/plots/jack.svg")


def surfaces(app) -> dict[str, bytes]:
    """Every page, plot and export of the history, each device's CSRF token left out."""
    client = Device(app).client
    return {url: re.sub(rb'name="csrf" value="[^"]+"', b"", client.get(url).data)
            for url in SURFACES}


@pytest.mark.parametrize("game", ["whitechapel", "mrjack", "london1888", "wo_ist_jack"])
def test_running_games_leave_the_history_as_it_was(app, game):
    mrjack_game(app, "Ann", "Bob")
    before = surfaces(app)
    names = {"mrjack": ["Eve", "Fay"], "london1888": ["Eve", "Fay", "Gus", "Hal"]}.get(
        game, ["Eve", "Fay", "Gus"])
    seated_table(app, game, names)
    mrjack_game(app, "Ivo", "Jo", finish=False)
    after = surfaces(app)
    assert after == before
    for text in after.values():
        assert not re.search(rb"\bEve\b|\bIvo\b", text)


def test_two_databases_whose_running_games_differ_only_in_secrets(tmp_path):
    """The same public play, different deals (Jack's alibi, the story deck): the
    history's pages, plots and exports are the same byte for byte."""
    import random

    from companion import create_app
    from companion.games import discover

    outputs = []
    for seed in (1, 2):
        app = create_app({"TESTING": True, "DATABASE": str(tmp_path / f"{seed}.sqlite"),
                          "GAMES": discover(), "RNG": random.Random(seed),
                          "BOARD_DIR": str(tmp_path / "boards")})
        with app.app_context():
            club.fill(get_db(), app.config["GAMES"], 8)  # the same finished games
        seated_table(app, "mrjack", ["Ann", "Bob"])
        seated_table(app, "wo_ist_jack", ["Cy", "Dee"])
        outputs.append(surfaces(app))
    assert outputs[0] == outputs[1]
    assert len(json.loads(outputs[0]["/history.json"])["games"]) == 8


def test_plots_count_per_month_then_per_year():
    from companion.web.history import MONTHS_MAX, _over_time

    rows = [{"month": "2024-11", "wins": 2}, {"month": "2025-02", "wins": None}]
    assert _over_time(rows, ("wins",)) == ("month", ["2024-11", "2024-12", "2025-01",
                                                     "2025-02"], [[2, 0, 0, 0]])
    years = [{"month": f"{2020 + i // 12}-{i % 12 + 1:02d}", "wins": 1}
             for i in range(MONTHS_MAX + 6)]
    assert _over_time(years, ("wins",)) == ("year", ["2020", "2021", "2022", "2023"],
                                            [[12, 12, 12, 6]])
    assert _over_time([], ("wins",)) == ("month", [], [[]])


# --- the filters and the merges reach the summaries, plots and exports ---------------------
# Issue 38, point 11: "/history?player=Dan&game=london1888 says '2 finished games of London
# 1888 with Dan' but its 'Each game' summary and plots count the whole club"; the CSV
# ignored merges and did not mark accomplices.

def london_game(app, names: list[str], seed: int, accomplice: bool) -> dict[str, str]:
    """A finished London 1888 game imported by the laptop (tests/support/club.py), with
    one accomplice or none: its Jack and the first other seat's name."""
    rng = random.Random(seed)
    options = london1888.default_options()
    first, last = club._london(rng, names, options)
    jack = _jack_seat(last)
    other = next(seat for seat in range(len(names)) if seat != jack)
    last["outcome"]["accomplices"] = [other] if accomplice else []
    with app.app_context():
        export = importing.check(club.export_of(london1888, [first, last], names, options,
                                                club.LAST_NIGHT), app.config["GAMES"])
        importing.import_table(get_db(), export, by_laptop=True)
    return {"jack": names[jack], "other": names[other]}


@pytest.fixture
def with_dan(played):
    """The three Mr. Jack games, two London 1888 games with Dan (one with an accomplice)
    and one without him."""
    played.dan = [london_game(played, ["Dan", "Eve", "Fay", "Gil", "Hal"], 1, True),
                  london_game(played, ["Dan", "Eve", "Fay", "Gil"], 2, False)]
    london_game(played, ["Ivy", "Jo", "Kit", "Lu"], 3, False)
    return played


def per_game(page: str) -> dict[str, str]:
    return dict(re.findall(r'data-per-game="(\w+)">(.*?)</li>', page, re.S))


def test_each_game_and_the_plots_follow_the_filters(with_dan, client):
    page = client.get("/history?player=Dan&game=london1888").text
    assert total(page) == "2 finished games of London 1888 with Dan."
    summary = per_game(page)
    assert list(summary) == ["london1888"] and "2 games" in summary["london1888"]
    club_wide = per_game(client.get("/history").text)
    assert "3 games" in club_wide["london1888"] and "mrjack" in club_wide
    # The wins over time count the same two games; Jack's win rate names London 1888 only.
    wins = client.get("/history/plots/wins.svg?player=Dan&game=london1888").text
    numbers = [int(n) for n in re.findall(r"<td>(\d+)</td>", re.search(
        r'data-plot-figure="wins".*?</figure>', page, re.S).group(0))]
    assert sum(numbers) == 2
    assert "<svg" in wins
    jack = client.get("/history/plots/jack.svg?player=Dan&game=london1888").text
    assert "London 1888" in jack and "Mr. Jack" not in jack
    assert "Mr. Jack" in client.get("/history/plots/jack.svg").text
    refused = client.get("/history/plots/jack.svg?player=Nobody")
    assert refused.status_code == 404 and "Nobody" in refused.text


def test_the_exports_follow_the_merges_and_mark_accomplices(with_dan, client):
    assert merge(client, "Cy", "Dee").status_code == 303
    rows = list(csv.DictReader(io.StringIO(client.get("/history.csv").text)))
    assert not any("Cy" in row["players"] for row in rows), "Cy counts as Dee now"
    assert sum("Dee" in row["players"] for row in rows) == 2
    dan = [row for row in rows if "Dan" in row["players"]]
    accomplice = with_dan.dan[0]["other"]
    assert [row["accomplices"] for row in dan] == [accomplice, ""] or \
        [row["accomplices"] for row in dan] == ["", accomplice]
    assert any(f"{accomplice} (accomplice)" in row["players"] for row in dan)
    data = client.get("/history.json?game=london1888&player=Dan").get_json()
    marked = [p for game in data["games"] for p in game["players"] if p["accomplice"]]
    assert [p["name"] for p in marked] == [accomplice]
    assert not marked[0]["jack"]
    page = client.get("/history?game=london1888&player=Dan").text
    assert page.count("data-accomplice") == 1
    assert 'href="/history/players/Cy"' not in client.get("/history").text
