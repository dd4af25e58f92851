"""London 1888 tournaments through the Flask client: a 3-round tournament of 13 players
played on real London 1888 tables to final standings, the CSV against figures computed by
hand, and every refusal (a clear message, nothing changed)."""

from __future__ import annotations

import copy
import csv
import html
import io
import json
import random
import re
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import tables
from companion.db import connect
from companion.games import london1888 as game
from companion.games.base import TABLE
from companion.tournaments import storage as store
from tests.support.hostile_files import ODD_VALUES, json_values, mutate, rows, upload
from tests.support.webflow import Device, join

NAMES = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lu", "Mo"]
LATE = 6  # this tournament's points for an undiscovered Jack's 5th murder after round 11
SETTINGS = {"name": "Whitechapel Cup", "rounds": "3", "table_size": "5",
            "late_murder": str(LATE), "tiebreak_0": "jack_wins", "tiebreak_1": "jack_points",
            "tiebreak_2": "wins", "tiebreak_3": "head_to_head"}


def read(app, fn, *args):
    with app.app_context():
        from companion.db import get_db

        return fn(get_db(), *args)


class Organiser(Device):
    """The laptop that created the tournament."""

    tid: int

    def page(self):
        return self.get(f"/tournaments/{self.tid}")

    def tversion(self) -> int:
        return int(re.search(r'data-version="(\d+)"', self.page().text).group(1))

    def send(self, path: str, version: int | None = None, **fields):
        return self.post(f"/tournaments/{self.tid}{path}", {
            "version": self.tversion() if version is None else version,
            **{key: str(value) for key, value in fields.items()}})


def new_tournament(app, **changes) -> Organiser:
    organiser = Organiser(app)
    response = organiser.post("/tournaments", {**SETTINGS, **changes})
    assert response.status_code == 303, response.text
    organiser.tid = int(response.headers["Location"].rsplit("/", 1)[-1])
    return organiser


def player_ids(app, organiser) -> dict[str, int]:
    return {p["name"]: p["id"] for p in read(app, store.get_players, organiser.tid)}


def register(app, organiser, names=NAMES, check_in=True) -> dict[str, int]:
    for name in names:
        assert organiser.send("/players", name=name, club="Club " + name[0]).status_code == 303
    ids = player_ids(app, organiser)
    if check_in:
        for name in names:
            response = organiser.send(f"/players/{ids[name]}/status", status="present")
            assert response.status_code == 303
    return ids


def state_of(app, code):
    return read(app, tables.get_table, code)["state"]


def jack_of(state) -> int:
    return next(seat for seat, line in enumerate(state["lines"]) if "jack" in line)


# --- playing one London 1888 table through its real actions ---------------------------

def end_turns_until(app, host: Device, seat: int) -> None:
    for _ in range(30):
        state = state_of(app, host.code)
        current = game.view(state, TABLE)["current"]
        if current == seat and not state["decided"]:
            return
        assert host.table_act("end_turn" if current is not None else "next_round"
                              ).status_code == 303
    raise AssertionError("the seat never got a turn")


def discover_jack(app, host, phones, jack) -> int:
    """Someone questions Jack and turns his Jack the Ripper card; returns the asker."""
    asker = 0 if jack != 0 else 1
    end_turns_until(app, host, asker)
    line = state_of(app, host.code)["lines"][jack]
    position = line.index("jack") + 1
    response = phones[asker].act("question", target=jack, **{f"position_{position}": "on"})
    assert response.status_code == 303, response.text
    return asker


def play(app, host: Device, phones: list[Device], scenario: str) -> dict:
    """Play the table to ``scenario``'s outcome; returns what a scorer writes down."""
    state = state_of(app, host.code)
    count = len(phones)
    jack = jack_of(state)
    helper = (jack + 1) % count
    accomplices = [helper]
    if scenario in ("innocents", "suicide"):
        asker = discover_jack(app, host, phones, jack)
        if scenario == "innocents":
            assert host.table_act("mark_dead", target=jack, killer=asker).status_code == 303
            result = "innocents"
        else:
            result = "jack_suicide"
    elif scenario == "killed_everyone":
        for seat in range(count):
            if seat not in (jack, helper):
                assert host.table_act("mark_dead", target=seat).status_code == 303
        result = "jack_killed_everyone"
    else:
        for _ in range(400):
            view = game.view(state_of(app, host.code), TABLE)
            if view["phase"] == "awaiting_outcome":
                break
            if view["current"] is not None:
                assert phones[view["current"]].act("end_turn").status_code == 303
            else:
                assert host.table_act("next_round").status_code == 303
        result = "jack_fifth_murder"
    response = host.table_act("record_outcome", result=result,
                              **{f"accomplice_{seat}": "on" for seat in accomplices})
    assert response.status_code == 303, response.text
    # Proposed, not yet confirmed: no result reaches the tournament.
    table_id = read(app, tables.get_table, host.code)["id"]
    assert read(app, store.table_outcome, table_id) is None
    assert host.table_act("confirm_outcome").status_code == 303
    assert read(app, store.table_outcome, table_id) is not None
    final = state_of(app, host.code)
    return {"scenario": scenario, "jack": jack, "accomplices": accomplices,
            "murder_round": final["round"] if scenario == "fifth_murder" else None}


def hand_points(facts: dict, count: int) -> list[int]:
    """The rulebook's tournament table, by hand, for the scenarios played here."""
    side = {facts["jack"], *facts["accomplices"]}
    if facts["scenario"] == "innocents":
        return [0 if seat in side else 1 for seat in range(count)]
    jack_scores = {"suicide": 2, "killed_everyone": 7,  # suicide: discovered; else not
                   "fifth_murder": 8 if facts["murder_round"] == 11 else LATE,
                   "fifth_murder_discovered_13": 5}[facts["scenario"]]
    return [jack_scores if seat in side else 0 for seat in range(count)]


SCENARIOS = [["fifth_murder", "innocents", "killed_everyone"],
             ["suicide", "innocents", "fifth_murder"],
             ["killed_everyone", "suicide", "innocents"]]


def play_round(app, organiser, number: int) -> list[dict]:
    response = organiser.send("/rounds", table_size="5")
    assert response.status_code == 303, response.text
    assert response.headers["Location"].endswith(f"/rounds/{number}")
    round_tables = read(app, store.round_tables, organiser.tid, number)
    assert sorted(len(t["seats"]) for t in round_tables) == [4, 4, 5]
    page = organiser.get(response.headers["Location"]).text
    played = []
    for table, scenario in zip(round_tables, SCENARIOS[number - 1], strict=True):
        code = table["code"]
        assert f"/j/{code}" in page and page.count("<svg") >= 3
        join_page = Device(app).get(f"/j/{code}").text
        names = [seat["name"] for seat in table["seats"]]
        # Each kept seat is one button with its player's name: nothing to type.
        for position, name in enumerate(names):
            assert re.search(rf'data-kept="{position}">.*?name="name" value="{name}"',
                             join_page, re.S)
        assert "data-join-form" not in join_page  # no open seat to type a name for
        phones = [join(app, code, position, name) for position, name in enumerate(names)]
        host = Device(app, code)
        host.client = organiser.client  # the organiser's browser hosts every table
        host.csrf = organiser.csrf
        assert host.host("start").status_code == 303
        facts = play(app, host, phones, scenario)
        played.append({"round": number, "table": table["number"], "names": names,
                       "facts": facts, "points": hand_points(facts, len(names))})
    return played


def csv_rows(organiser, kind: str) -> list[dict]:
    response = organiser.get(f"/tournaments/{organiser.tid}/{kind}.csv")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    return list(csv.DictReader(io.StringIO(response.text)))


@pytest.mark.slow
def test_a_three_round_tournament_of_13_players_to_final_standings(app):
    organiser = new_tournament(app)
    register(app, organiser)
    played = []
    for number in (1, 2, 3):
        played += play_round(app, organiser, number)
        if number == 1:
            # The first table's confirmed outcome is on the leaderboard at once.
            board = organiser.get(f"/tournaments/{organiser.tid}/board").text
            assert "3 of 3 tables finished" in board

    # The round pages name the pairs meeting again.
    for number in (2, 3):
        page = organiser.get(f"/tournaments/{organiser.tid}/rounds/{number}").text
        earlier = [set(e["names"]) for e in played if e["round"] < number]
        again = [(a, b) for e in played if e["round"] == number
                 for a, b in combinations(sorted(e["names"]), 2)
                 if any({a, b} <= names for names in earlier)]
        assert page.count(" meeting)") == len(again)
        for a, b in again:
            assert f"{a} and {b} (" in page

    # Every opponent met at most twice: 13 players, 3 rounds of 4-5 players.
    pairs = {}
    for entry in played:
        for a in entry["names"]:
            for b in entry["names"]:
                if a < b:
                    pairs[a, b] = pairs.get((a, b), 0) + 1
    assert max(pairs.values()) <= 2

    # The organiser corrects round 1, table 2: it was a discovered Jack's 5th murder in
    # round 13 (5 points), not the Innocents' win.
    fixed = next(e for e in played if e["round"] == 1 and e["table"] == 2)
    jack, helper = fixed["facts"]["jack"], fixed["facts"]["accomplices"][0]
    response = organiser.send("/rounds/1/tables/2/correct", result="jack_fifth_murder",
                              jack=jack, discovered="on", murder_round=13,
                              **{f"accomplice_{helper}": "on"},
                              reason="The scoresheet was misread")
    assert response.status_code == 303, response.text
    fixed["facts"] = {**fixed["facts"], "scenario": "fifth_murder_discovered_13"}
    fixed["points"] = hand_points(fixed["facts"], len(fixed["names"]))
    history = organiser.page().text.split("data-history", 1)[1]
    assert "Reason: The scoresheet was misread" in history and "corrected" in history
    lines = re.findall(r'<li class="tn-(\w+)">', history)
    assert lines[0] == "correction" and lines.count("table") == 9  # newest first

    expected = {name: {"points": 0, "rounds": {}, "jack_games": 0, "jack_wins": 0,
                       "jack_points": 0, "wins": 0, "games": 0} for name in NAMES}
    for entry in played:
        for seat, name in enumerate(entry["names"]):
            scored = entry["points"][seat]
            mine = expected[name]
            mine["points"] += scored
            mine["rounds"][entry["round"]] = scored
            mine["games"] += 1
            mine["wins"] += scored > 0
            if seat == entry["facts"]["jack"]:
                mine["jack_games"] += 1
                mine["jack_wins"] += scored > 0
                mine["jack_points"] += scored

    standings = csv_rows(organiser, "standings")
    assert [int(row["position"]) for row in standings] == list(range(1, 14))
    assert [int(row["points"]) for row in standings] == sorted(
        (e["points"] for e in expected.values()), reverse=True)
    for row in standings:
        mine = expected[row["player"]]
        assert int(row["points"]) == mine["points"], row
        assert [int(row[f"round {n}"]) for n in (1, 2, 3)] == [mine["rounds"][n]
                                                            for n in (1, 2, 3)]
        assert int(row["games"]) == 3 and int(row["wins"]) == mine["wins"]
        assert int(row["games as Jack"]) == mine["jack_games"]
        assert int(row["games won as Jack"]) == mine["jack_wins"]
        assert int(row["points as Jack"]) == mine["jack_points"]
        assert row["club"] == "Club " + row["player"][0]

    results = csv_rows(organiser, "results")
    assert len(results) == 13 * 3
    for entry in played:
        lines = [r for r in results if int(r["round"]) == entry["round"]
                 and int(r["table"]) == entry["table"]]
        assert [r["player"] for r in lines] == entry["names"]
        assert [int(r["points"]) for r in lines] == entry["points"]
        assert lines[entry["facts"]["jack"]]["role"] == "Jack"
    assert {r["source"] for r in results} == {"table", "correction"}

    # The leaderboard and a player's page show the same figures.
    board = organiser.get(f"/tournaments/{organiser.tid}/board").text
    assert "Final standings after 3 rounds" in board
    leader = standings[0]
    assert re.search(rf'data-row="{leader["player"]}".*?data-total>{leader["points"]}<',
                     board, re.S)
    ids = player_ids(app, organiser)
    mine = Device(app).get(f"/tournaments/{organiser.tid}/players/{ids['Ann']}").text
    assert f"data-total>{expected['Ann']['points']}<" in mine
    assert mine.count("data-game=") == 3

    # A fourth round does not exist.
    more = organiser.send("/rounds", table_size="5")
    assert more.status_code == 409 and "All 3 rounds" in more.text

    # The whole tournament goes out as JSON and comes back with the same standings.
    exported = organiser.get(f"/tournaments/{organiser.tid}/export.json")
    assert exported.status_code == 200
    elsewhere = Organiser(app)
    imported = elsewhere.post("/tournaments/import",
                              {"file": (io.BytesIO(exported.data), "t.json")},
                              content_type="multipart/form-data")
    assert imported.status_code == 303, imported.text
    elsewhere.tid = int(imported.headers["Location"].rsplit("/", 1)[-1])
    again = csv_rows(elsewhere, "standings")
    assert [(r["player"], r["points"]) for r in again] == [
        (r["player"], r["points"]) for r in standings]
    assert "Reason: The scoresheet was misread" in elsewhere.page().text


# --- the organiser's pages and rights -------------------------------------------------

def test_pages_and_rights(app):
    organiser = new_tournament(app)
    ids = register(app, organiser, NAMES[:5])
    lobby = Device(app).get("/").text
    assert 'href="/tournaments"' in lobby
    listing = Device(app).get("/tournaments").text
    assert "Whitechapel Cup" in listing
    stranger = Device(app)
    assert stranger.get(f"/tournaments/{organiser.tid}").status_code == 303
    refused = stranger.post(f"/tournaments/{organiser.tid}/players",
                            {"name": "Eve", "version": organiser.tversion()})
    assert refused.status_code == 403 and "Only the organiser" in refused.text
    assert stranger.get(f"/tournaments/{organiser.tid}/export.json").status_code == 403
    assert stranger.get(f"/tournaments/{organiser.tid}/board").status_code == 200
    assert stranger.get(f"/tournaments/{organiser.tid}/players/{ids['Ann']}").status_code \
        == 200
    assert stranger.get("/tournaments/999/board").status_code == 404
    assert stranger.get(f"/tournaments/{organiser.tid}/players/999").status_code == 404
    assert stranger.get(f"/tournaments/{organiser.tid}/rounds/1").status_code == 404
    component = stranger.get(f"/tournaments/{organiser.tid}/board",
                             headers={"HX-Request": "true"}).text
    assert component.lstrip().startswith("<main") and 'hx-trigger="every 3s"' in component
    assert "<svg" in component and "<html" not in component
    # Check-in, not here, drop.
    assert organiser.send(f"/players/{ids['Ann']}/status", status="dropped").status_code == 303
    assert 'data-player="Ann" class="tn-dropped"' in organiser.page().text
    bad = organiser.send(f"/players/{ids['Ann']}/status", status="asleep")
    assert bad.status_code == 422
    assert organiser.send("/players/999/status", status="present").status_code == 404


def test_a_dropped_player_is_not_seated_and_a_latecomer_is(app):
    organiser = new_tournament(app)
    ids = register(app, organiser, NAMES[:9])
    organiser.send(f"/players/{ids['Ann']}/status", status="dropped")
    organiser.send("/players", name="Zed")
    organiser.send(f"/players/{player_ids(app, organiser)['Zed']}/status", status="present")
    assert organiser.send("/rounds", table_size="4").status_code == 303
    seated = {seat["name"] for t in read(app, store.round_tables, organiser.tid, 1)
              for seat in t["seats"]}
    assert "Ann" not in seated and "Zed" in seated and len(seated) == 9


# --- bad input: a clear message, nothing changed ------------------------------------------

def test_duplicate_names_are_refused(app):
    organiser = new_tournament(app)
    register(app, organiser, ["Ann"], check_in=False)
    version = organiser.tversion()
    response = organiser.send("/players", version=version, name="  ann ")
    assert response.status_code == 409 and "Ann is already registered" in response.text
    assert organiser.tversion() == version
    assert len(read(app, store.get_players, organiser.tid)) == 1
    comma = organiser.send("/players", name="Smith, J.")
    assert comma.status_code == 422 and "leave commas out" in comma.text
    empty = organiser.send("/players", name=" ")
    assert empty.status_code == 422 and "enter the player&#39;s name" in empty.text


def test_a_round_needs_four_checked_in_players(app):
    organiser = new_tournament(app)
    register(app, organiser, NAMES[:5], check_in=False)
    ids = player_ids(app, organiser)
    for name in NAMES[:3]:
        organiser.send(f"/players/{ids[name]}/status", status="present")
    version = organiser.tversion()
    response = organiser.send("/rounds", version=version, table_size="5")
    assert response.status_code == 422
    assert "at least 4 checked-in players; 3 are checked in" in response.text
    assert organiser.tversion() == version
    assert read(app, store.round_numbers, organiser.tid) == []
    assert read(app, tables.open_tables) == []


def test_a_player_in_two_tables_is_refused(app):
    organiser = new_tournament(app)
    register(app, organiser, NAMES[:8])
    version = organiser.tversion()
    response = organiser.send("/rounds", version=version, table_size="4",
                              seating="Ann, Bob, Cy, Di\nEd, Flo, Gus, Ann")
    assert response.status_code == 422
    assert "Ann cannot sit at table 1 and at table 2" in response.text
    assert "Ed, Flo, Gus, Ann" in response.text  # the organiser's seating is kept to fix
    assert organiser.tversion() == version and read(app, tables.open_tables) == []
    missing = organiser.send("/rounds", table_size="4", seating="Ann, Bob, Cy, Di\nEd, Flo, Gus")
    assert missing.status_code == 422 and "Table 2 has 3 players" in missing.text
    ok = organiser.send("/rounds", table_size="4", seating="Ann, Bob, Cy, Hal\nEd, Flo, Gus, Di")
    assert ok.status_code == 303
    names = [[s["name"] for s in t["seats"]]
             for t in read(app, store.round_tables, organiser.tid, 1)]
    assert names == [["Ann", "Bob", "Cy", "Hal"], ["Ed", "Flo", "Gus", "Di"]]


def test_results_entered_twice_corrections_and_rounds_that_do_not_exist(app):
    organiser = new_tournament(app)
    register(app, organiser, NAMES[:4])
    assert organiser.send("/rounds", table_size="4").status_code == 303
    entry = {"result": "jack_killed_everyone", "jack": "2", "accomplice_0": "on"}
    # Nothing to correct yet; the reason is needed.
    early = organiser.send("/rounds/1/tables/1/correct", **entry, reason="typo")
    assert early.status_code == 409 and "no result to correct yet" in early.text
    # The second round cannot start while the first has no result.
    waiting = organiser.send("/rounds", table_size="4")
    assert waiting.status_code == 409 and "Round 1 is not finished: table 1" in waiting.text
    # An impossible outcome is refused by the rules.
    bad = organiser.send("/rounds/1/tables/1/result", result="jack_suicide", jack="1")
    assert bad.status_code == 422 and "undiscovered" in bad.text
    assert organiser.send("/rounds/1/tables/1/result", **entry).status_code == 303
    version = organiser.tversion()
    twice = organiser.send("/rounds/1/tables/1/result", version=version, **entry)
    assert twice.status_code == 409 and "already has a result (from the organiser)" in twice.text
    no_reason = organiser.send("/rounds/1/tables/1/correct", version=version, **entry)
    assert no_reason.status_code == 422 and "reason for the correction" in no_reason.text
    nowhere = organiser.send("/rounds/7/tables/1/correct", version=version, **entry,
                             reason="wrong table")
    assert nowhere.status_code == 404 and "There is no round 7" in nowhere.text
    no_table = organiser.send("/rounds/1/tables/4/correct", version=version, **entry,
                              reason="wrong table")
    assert no_table.status_code == 404 and "Round 1 has no table 4" in no_table.text
    stale = organiser.send("/rounds/1/tables/1/correct", version=version - 1, **entry,
                           reason="again")
    assert stale.status_code == 409 and "changed while you were deciding" in stale.text
    assert organiser.tversion() == version
    points = [int(r["points"]) for r in csv_rows(organiser, "results")]
    assert sorted(points) == [0, 0, 7, 7]


def test_a_result_from_the_table_cannot_be_entered_again(app):
    organiser = new_tournament(app)
    register(app, organiser, NAMES[:4])
    assert organiser.send("/rounds", table_size="4").status_code == 303
    table = read(app, store.round_tables, organiser.tid, 1)[0]
    phones = [join(app, table["code"], s["position"], s["name"]) for s in table["seats"]]
    host = Device(app, table["code"])
    host.client, host.csrf = organiser.client, organiser.csrf
    host.host("start")
    facts = play(app, host, phones, "killed_everyone")
    version = organiser.tversion()
    twice = organiser.send("/rounds/1/tables/1/result", version=version, result="innocents",
                           jack=facts["jack"])
    assert twice.status_code == 409 and "already has a result (from its game)" in twice.text
    assert organiser.tversion() == version
    # The table's end revealed every secret, so it cannot be undone: a mistake is put
    # right as a correction, with its reason.
    assert host.host("undo").status_code == 409
    assert read(app, store.unfinished_tables, organiser.tid, 1) == []


@pytest.mark.parametrize("changes, message", [
    ({"name": ""}, "enter the tournament&#39;s name"),
    ({"rounds": "0"}, "number of rounds must be between 1 and 12"),
    ({"table_size": "3"}, "table size must be between 4 and 8"),
    ({"late_murder": "x"}, "must be a whole number"),
    ({"tiebreak_1": "jack_wins"}, "chosen twice"),
])
def test_bad_settings_are_refused(app, changes, message):
    response = Organiser(app).post("/tournaments", {**SETTINGS, **changes})
    assert response.status_code == 422 and message in response.text
    assert read(app, store.list_tournaments) == []


@pytest.mark.parametrize("payload, message", [
    (b"nope", "not JSON"),
    (b'{"format": "other"}', "not a companion tournament export"),
    (b'{"format": "companion-tournament/1"}', "damaged"),
])
def test_import_refuses_bad_files(app, payload, message):
    response = Organiser(app).post("/tournaments/import",
                                   {"file": (io.BytesIO(payload), "t.json")},
                                   content_type="multipart/form-data")
    assert response.status_code == 422 and message in response.text
    assert read(app, store.list_tournaments) == []


def small_export(app) -> dict:
    """A tournament of 8 over two tables, one with the organiser's result, exported."""
    organiser = new_tournament(app)
    register(app, organiser, NAMES[:8])
    assert organiser.send("/rounds", table_size="4").status_code == 303
    assert organiser.send("/rounds/1/tables/1/result", result="jack_killed_everyone",
                          jack="2", accomplice_0="on").status_code == 303
    return json.loads(organiser.get(f"/tournaments/{organiser.tid}/export.json").data)


def test_a_hostile_tournament_file_is_refused_with_a_reason_and_nothing_written(app):
    """The tournament import reads a file as the table import does (importing.read):
    nesting, numbers, sizes. It answered 500 to these."""
    data = small_export(app)
    lot = copy.deepcopy(data)
    lot["players"][0]["lot"] = 10**30
    round_no = copy.deepcopy(data)
    round_no["rounds"][0]["number"] = -10**30
    before = rows(app.config["DATABASE"])
    for name, raw, reason in [
            ("deep", b"[" * 100_000 + b"]" * 100_000, "not a tournament export: it is"),
            ("deep object", b'{"a":' * 5000 + b"1" + b"}" * 5000, "nested too deeply"),
            ("41 deep", b"[" * 41 + b"]" * 41, "nested more than 40 levels deep"),
            ("huge lot", json.dumps(lot).encode(), "number too large to be a tournament"),
            ("huge round", json.dumps(round_no).encode(), "number too large"),
            ("NaN", json.dumps(data).replace('"rounds": 3', '"rounds": NaN', 1).encode(),
             "not a tournament export (it is not JSON)")]:
        reply = upload(Organiser(app), "/tournaments/import", raw)
        assert reply.status_code == 422, name
        assert reason in reply.text, name
        assert 'role="alert"' in reply.text and "went wrong" not in reply.text, name
        assert rows(app.config["DATABASE"]) == before, name


TOURNAMENT_ODD = [*ODD_VALUES, 10**30, 2**63, -2**63, 1.5, "present", "imported", "Ann"]


@pytest.mark.slow
@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_mutated_tournament_exports_never_harm(app, data):
    """Never a 500, nothing written on a refusal, and a tournament accepted shows its
    pages."""
    if "export" not in app.config:
        app.config["export"] = small_export(app)
    exported = app.config["export"]
    raw = json.dumps(mutate(exported, data, odd=TOURNAMENT_ODD) if data.draw(st.booleans())
                     else data.draw(json_values)).encode()
    before = rows(app.config["DATABASE"])
    organiser = Organiser(app)
    reply = upload(organiser, "/tournaments/import", raw)
    assert reply.status_code in (303, 422), reply.text[:300]
    if reply.status_code == 422:
        assert 'role="alert"' in reply.text
        assert rows(app.config["DATABASE"]) == before
        return
    organiser.tid = int(reply.headers["Location"].rsplit("/", 1)[-1])
    for page in ("", "/board", "/standings.csv", "/results.csv", "/export.json"):
        assert organiser.get(f"/tournaments/{organiser.tid}{page}").status_code == 200, page
    for number in read(app, store.round_numbers, organiser.tid):
        assert organiser.get(f"/tournaments/{organiser.tid}/rounds/{number}"
                             ).status_code == 200


def test_import_refuses_a_player_in_two_tables(app):
    organiser = new_tournament(app)
    register(app, organiser, NAMES[:8])
    organiser.send("/rounds", table_size="4")
    data = json.loads(organiser.get(f"/tournaments/{organiser.tid}/export.json").data)
    data["rounds"][0]["tables"][1]["seats"][0] = data["rounds"][0]["tables"][0]["seats"][0]
    before = read(app, store.list_tournaments)
    response = Organiser(app).post(
        "/tournaments/import", {"file": (io.BytesIO(json.dumps(data).encode()), "t.json")},
        content_type="multipart/form-data")
    assert response.status_code == 422 and "a player sits at two tables" in response.text
    assert read(app, store.list_tournaments) == before


def test_a_doubled_round_start_opens_one_round(app):
    organiser = new_tournament(app)
    register(app, organiser, NAMES[:9])
    version = organiser.tversion()
    assert organiser.send("/rounds", version=version, table_size="4").status_code == 303
    opened = read(app, tables.open_tables)
    doubled = organiser.send("/rounds", version=version, table_size="4")
    assert doubled.status_code == 409 and "changed while you were deciding" in doubled.text
    assert read(app, tables.open_tables) == opened
    assert read(app, store.round_numbers, organiser.tid) == [1]


def test_each_table_card_refreshes_itself(app):
    organiser = new_tournament(app)
    register(app, organiser, NAMES[:4])
    organiser.send("/rounds", table_size="4")
    table = read(app, store.round_tables, organiser.tid, 1)[0]
    url = f"/tournaments/{organiser.tid}/rounds/1/tables/1"
    page = organiser.get(f"/tournaments/{organiser.tid}/rounds/1").text
    assert f'hx-get="{url}"' in page and "This browser hosts every table" in page
    first = table["seats"][0]
    join(app, table["code"], 0, first["name"])
    card = Device(app).get(url, headers={"HX-Request": "true"}).text
    assert card.lstrip().startswith('<div id="table-1"') and "<main" not in card
    assert f"{first['name']}</span>" in card and "(not yet joined)" in card
    public = Device(app).get(url).text
    assert "<main" in public and "This browser hosts" not in public
    assert "data-result-form" not in public  # only the organiser corrects results
    assert Device(app).get(f"/tournaments/{organiser.tid}/rounds/1/tables/5").status_code \
        == 404


def test_a_round_start_that_loses_a_race_leaves_nothing_open(app, monkeypatch):
    organiser = new_tournament(app)
    register(app, organiser, NAMES[:4])
    version = organiser.tversion()
    name_seats = tables.set_seat_names

    def meanwhile(db, table_id, names):
        name_seats(db, table_id, names)
        # Another tab of the organiser registers a latecomer while the tables open.
        other = connect(app.config["DATABASE"])
        try:
            store.add_player(other, organiser.tid, version, "Zed", "", random.Random(1))
        finally:
            other.close()

    monkeypatch.setattr(tables, "set_seat_names", meanwhile)
    response = organiser.send("/rounds", version=version, table_size="4")
    assert response.status_code == 409 and "changed while you were deciding" in response.text
    assert read(app, store.round_numbers, organiser.tid) == []
    assert read(app, tables.open_tables) == []
    assert "Zed" in player_ids(app, organiser)


def test_numbers_too_big_for_the_database_are_not_found(client):
    assert client.get("/tournaments/99999999999999999999/board").status_code == 404
    assert client.get("/tournaments/1/rounds/99999999999999999999").status_code == 404


def test_preview_the_seating_then_start_with_it(app):
    organiser = new_tournament(app)
    register(app, organiser, NAMES)
    version = organiser.tversion()
    preview = organiser.send("/rounds/preview", version=version, table_size="6")
    assert preview.status_code == 200
    seating = re.search(r'<textarea name="seating" rows="6">([^<]*)</textarea>',
                        preview.text).group(1)
    lines = [line.split(", ") for line in seating.splitlines()]
    assert sorted(len(line) for line in lines) == [6, 7]
    assert sorted(name for line in lines for name in line) == sorted(NAMES)
    assert organiser.tversion() == version and read(app, tables.open_tables) == []
    assert '<option value="6" selected>' in preview.text
    started = organiser.send("/rounds", version=version, table_size="6", seating=seating)
    assert started.status_code == 303
    assert [[s["name"] for s in t["seats"]]
            for t in read(app, store.round_tables, organiser.tid, 1)] == lines
    few = new_tournament(app)
    register(app, few, NAMES[:2])
    refused = few.send("/rounds/preview", table_size="5")
    assert refused.status_code == 422 and "at least 4 checked-in players" in refused.text
    assert Device(app).post(f"/tournaments/{few.tid}/rounds/preview",
                            {"table_size": "5"}).status_code == 403


def test_round_tables_use_the_clubs_london_setup_without_overwriting_it(app):
    from companion import tables
    from companion.games import london1888
    from tests.support.webflow import create_table

    form = london1888.form_from(london1888.default_options())
    last = london1888.DEFAULT_EVENT_CARDS[-1]
    deck = {"event_cards": form["event_cards"].replace(last, "Fog over Whitechapel"),
            "murder_cards": form["murder_cards"]}
    assert Device(app).post("/decks/london1888", deck).status_code == 303
    create_table(app, london1888.NAME, 5, **form)
    remembered = read(app, tables.remembered_options, london1888.NAME)
    assert "Fog over Whitechapel" in remembered["event_cards"]
    organiser = new_tournament(app)
    register(app, organiser, NAMES[:4])
    assert organiser.send("/rounds", table_size="4").status_code == 303
    table = read(app, store.round_tables, organiser.tid, 1)[0]
    assert "Fog over Whitechapel" in read(app, tables.get_table, table["code"])["options"][
        "event_cards"]
    assert read(app, tables.remembered_options, london1888.NAME) == remembered


def result_form(html: str, table: int = 1) -> str:
    found = re.search(rf'<form[^>]*data-result-form="{table}".*?</form>', html, re.S)
    assert found, "the round page has no result form for that table"
    return found.group(0)


def test_correct_this_result_starts_from_the_result_and_a_refusal_keeps_what_was_typed(app):
    organiser = new_tournament(app)
    register(app, organiser, NAMES[:4])
    assert organiser.send("/rounds", table_size="4").status_code == 303
    page = organiser.get(f"/tournaments/{organiser.tid}/rounds/1").text
    # A hand entry chooses everything itself: no result, no Jack picked for it.
    blank = result_form(page)
    assert " checked" not in blank and '<option value="" selected>' in blank
    entry = {"result": "jack_fifth_murder", "jack": "2", "accomplice_0": "on",
             "murder_round": "13", "discovered": "on"}
    assert organiser.send("/rounds/1/tables/1/result", **entry).status_code == 303
    form = result_form(organiser.get(f"/tournaments/{organiser.tid}/rounds/1").text)
    assert f'action="/tournaments/{organiser.tid}/rounds/1/tables/1/correct"' in form
    assert re.search(r'value="jack_fifth_murder" checked', form)
    assert re.search(r'<option value="2" selected>', form)
    assert re.search(r'name="accomplice_0" checked', form)
    assert not re.search(r'name="accomplice_[13]" checked', form)
    assert re.search(r'name="discovered" checked', form)
    assert 'name="murder_round" value="13"' in form
    # Sent unchanged, the correction changes nothing and says so.
    version = organiser.tversion()
    same = organiser.send("/rounds/1/tables/1/correct", **entry, reason="checking")
    assert same.status_code == 422 and "that is the result already" in same.text
    # Refused (no such round of the 5th murder), the form comes back as typed.
    typed = {"result": "jack_fifth_murder", "jack": "3", "accomplice_1": "on",
             "murder_round": "99", "reason": "Jack was Di"}
    refused = organiser.send("/rounds/1/tables/1/correct", **typed)
    assert refused.status_code == 422 and "round of the 5th murder" in refused.text
    form = result_form(refused.text)
    assert re.search(r'<option value="3" selected>', form)
    assert re.search(r'name="accomplice_1" checked', form)
    assert not re.search(r'name="accomplice_0" checked', form)
    assert 'name="murder_round" value="99"' in form and 'value="Jack was Di"' in form
    assert not re.search(r'name="discovered" checked', form)
    assert organiser.tversion() == version
    corrected = organiser.send("/rounds/1/tables/1/correct", **{**typed, "murder_round": "14"})
    assert corrected.status_code == 303
    form = result_form(organiser.get(f"/tournaments/{organiser.tid}/rounds/1").text)
    assert re.search(r'<option value="3" selected>', form)
    assert 'name="murder_round" value="14"' in form and 'name="reason" value=""' in form


def test_a_typed_seating_lists_every_mistake_at_once(app):
    organiser = new_tournament(app)
    register(app, organiser, NAMES[:9])
    version = organiser.tversion()
    seating = "Ann, Bob, Cy, Dan\nEd, Flo, Ann, Gus\nHal, Ivy"
    response = organiser.send("/rounds", version=version, table_size="5", seating=seating)
    assert response.status_code == 422
    problems = re.findall(r"<li>(.*?)</li>",
                          re.search(r"<ul data-problems>(.*?)</ul>", response.text, re.S)[1])
    assert problems == [
        "Table 1: “Dan” is not a checked-in player.",
        "Table 1 has 3 players: London 1888 is played by 4 to 8.",
        "Ann cannot sit at table 1 and at table 2: a player plays at one table per round.",
        "Table 2 has 3 players: London 1888 is played by 4 to 8.",
        "Table 3 has 2 players: London 1888 is played by 4 to 8.",
        "Every checked-in player needs a seat: Di is missing (or drop them first)."]
    assert "The seating was not used: 6 things to mend." in response.text
    # What was typed stays, table size included, to be mended.
    assert "Hal, Ivy</textarea>" in response.text
    assert '<option value="5" selected>' in response.text
    assert organiser.tversion() == version and read(app, tables.open_tables) == []


def test_every_standings_row_has_a_head_to_head_number(app):
    organiser = new_tournament(app)
    register(app, organiser, NAMES[:8])
    assert organiser.send("/rounds", table_size="4").status_code == 303
    for table in (1, 2):
        assert organiser.send(f"/rounds/1/tables/{table}/result", result="innocents",
                              jack="0").status_code == 303
    rows = csv_rows(organiser, "standings")
    assert len(rows) == 8
    # Six innocents tie on everything, the two Jacks too: head-to-head was needed for
    # some, and every row says a number, never a blank.
    assert all(row["head-to-head"].isdigit() for row in rows), rows
    assert len({len(row) for row in rows}) == 1


def twin_app(app, tmp_path):
    """A second app on its own database, from the same seed: the same operations give
    the same tournament, lots and seating."""
    from companion import create_app

    twin = create_app({"TESTING": True, "DATABASE": str(tmp_path / "twin.sqlite"),
                       "GAMES": app.config["GAMES"], "RNG": random.Random(1888),
                       "BOARD_DIR": app.config["BOARD_DIR"]})
    twin.jinja_loader = app.jinja_loader
    return twin


def tournament_pages(app, organiser) -> dict[str, str]:
    """Every tournament page and export, as the organiser and as a stranger, with what
    differs between twins for no secret's sake (table codes, QR codes, CSRF, the clock)
    blanked."""
    tid = organiser.tid
    codes = [table["code"] for table in read(app, store.round_tables, tid, 1)]
    paths = [f"/tournaments/{tid}", f"/tournaments/{tid}/board", f"/tournaments/{tid}/rounds/1",
             f"/tournaments/{tid}/rounds/1/sheets", f"/tournaments/{tid}/standings.csv",
             f"/tournaments/{tid}/results.csv", f"/tournaments/{tid}/export.json",
             *[f"/tournaments/{tid}/rounds/1/tables/{n}" for n in range(1, len(codes) + 1)],
             *[f"/tournaments/{tid}/players/{pid}"
               for pid in player_ids(app, organiser).values()]]
    pages = {}
    for who, device in (("organiser", organiser), ("stranger", Device(app))):
        for path in paths:
            for headers in ({}, {"HX-Request": "true"}):
                text = device.get(path, headers=headers).text
                for number, code in enumerate(codes):
                    text = text.replace(code, f"CODE{number}")
                text = re.sub(r"<svg.*?</svg>", "QR", text, flags=re.S)
                text = re.sub(r'name="csrf" value="[^"]*"', "csrf", text)
                text = re.sub(r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d(:\d\d)?Z?", "TIME", text)
                pages[f"{who} {path} {headers}"] = text
    return pages


def test_tournament_pages_show_nothing_of_a_game_in_play(app, tmp_path):
    """Two tournaments alike in everything but their games' deals (who is Jack): every
    tournament page, component and export reads the same until a result is in."""
    twins = [app, twin_app(app, tmp_path)]
    organisers, jacks = [], []
    for seed, each in zip((5, 6), twins, strict=True):
        organiser = new_tournament(each)
        register(each, organiser, NAMES[:8])
        assert organiser.send("/rounds", table_size="4").status_code == 303
        each.config["RNG"] = random.Random(seed)  # the deals differ from here on
        for table in read(each, store.round_tables, organiser.tid, 1):
            for seat in table["seats"]:
                join(each, table["code"], seat["position"], seat["name"])
            host = Device(each, table["code"])
            host.client, host.csrf = organiser.client, organiser.csrf
            assert host.host("start").status_code == 303
            jacks.append(jack_of(state_of(each, table["code"])))
        organisers.append(organiser)
    assert jacks[:2] != jacks[2:], "the twins' deals should give different Jacks"
    first, second = (tournament_pages(each, organiser)
                     for each, organiser in zip(twins, organisers, strict=True))
    assert first.keys() == second.keys()
    for key in first:
        assert first[key] == second[key], key


# --- checking everyone in ----------------------------------------------------------------

def test_everyone_registered_is_checked_in_with_one_confirmed_tap(app):
    """Five players registered, one already here and one dropped: "Check everyone in"
    (one tap and the tap again of the confirm pattern) checks in the other three, not the
    dropped one; then it is no longer offered, and a second send changes nothing."""
    organiser = new_tournament(app)
    ids = register(app, organiser, NAMES[:5], check_in=False)
    assert organiser.send(f"/players/{ids['Ann']}/status", status="present").status_code == 303
    assert organiser.send(f"/players/{ids['Bob']}/status", status="dropped").status_code == 303
    page = html_text(organiser.page())
    assert "Check everyone in (3)" in page
    assert 'data-confirm="Check in all 3 registered players?"' in page
    version = organiser.tversion()
    stale = organiser.send("/players/check-in", version=version - 1)
    assert stale.status_code == 409 and organiser.tversion() == version
    stranger = Device(app)
    refused = stranger.post(f"/tournaments/{organiser.tid}/players/check-in",
                            {"version": str(version)})
    assert refused.status_code == 403 and organiser.tversion() == version
    assert organiser.send("/players/check-in").status_code == 303
    statuses = {p["name"]: p["status"] for p in read(app, store.get_players, organiser.tid)}
    assert statuses == {"Ann": "present", "Bob": "dropped", "Cy": "present", "Di": "present",
                        "Ed": "present"}
    page = html_text(organiser.page())
    assert "data-check-in-everyone" not in page
    assert "4 checked in of 5" in page
    version = organiser.tversion()
    again = organiser.send("/players/check-in")
    assert again.status_code == 409
    assert "every registered player is checked in already" in html_text(again)
    assert organiser.tversion() == version


def html_text(response) -> str:
    return html.unescape(response.text)


def test_every_player_of_a_full_tie_is_labelled_drawn_lots(app):
    """Three players with the same points and tiebreaks: the lots order them, and the
    leaderboard and its CSV say so on all three rows, the first as the others."""
    organiser = new_tournament(app)
    register(app, organiser, NAMES[:3])
    board = organiser.get(f"/tournaments/{organiser.tid}/board").text
    assert board.count('data-decided="lots"') == 3
    rows = list(csv.reader(io.StringIO(organiser.get(
        f"/tournaments/{organiser.tid}/standings.csv").text)))
    assert [row[-1] for row in rows[1:]] == ["Drawn lots"] * 3
