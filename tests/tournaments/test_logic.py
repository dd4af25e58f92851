"""London 1888 tournaments, pure logic: points of every row of the rulebook table through
``london1888.tournament_points``, accomplices, tiebreaks, table sizes and the seating."""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import london1888
from companion.games.base import RuleError
from companion.tournaments import logic as t

SEATS = ["ann", "bob", "cy", "di", "ed"]


def jack_win(jack: int, how: str, discovered: bool = True, murder_round: int | None = None,
             accomplices: tuple[int, ...] = (), players: int = 5) -> dict:
    return {"winner": "jack", "how": how, "murder_round": murder_round,
            "discovered": discovered, "jack": jack, "accomplices": list(accomplices),
            "players": players}


def innocents(jack: int, accomplices: tuple[int, ...] = (), players: int = 5) -> dict:
    return {"winner": "innocents", "how": None, "murder_round": None, "discovered": True,
            "jack": jack, "accomplices": list(accomplices), "players": players}


# --- every row of the rulebook table ----------------------------------------------------

@pytest.mark.parametrize("outcome, jack_points", [
    (jack_win(1, "suicide"), 2),
    (jack_win(1, "killed_everyone"), 3),
    (jack_win(1, "fifth_murder", murder_round=11), 4),
    (jack_win(1, "fifth_murder", murder_round=12), 5),
    (jack_win(1, "fifth_murder", murder_round=16), 5),
    (jack_win(1, "fifth_murder", murder_round=17), 6),
    (jack_win(1, "fifth_murder", murder_round=21), 6),
    (jack_win(1, "killed_everyone", discovered=False), 7),
    (jack_win(1, "fifth_murder", discovered=False, murder_round=11), 8),
])
def test_every_jack_row_gives_jack_and_only_jack_his_points(outcome, jack_points):
    points = t.game_points(outcome, SEATS)
    assert points == {name: jack_points if name == "bob" else 0 for name in SEATS}


def test_innocents_win_one_point_each_but_not_jack():
    assert t.game_points(innocents(3), SEATS) == {"ann": 1, "bob": 1, "cy": 1, "di": 0,
                                                  "ed": 1}


def test_accomplices_share_jacks_win_and_lose_with_him():
    won = t.game_points(jack_win(0, "fifth_murder", murder_round=14, accomplices=(2, 4)),
                        SEATS)
    assert won == {"ann": 5, "bob": 0, "cy": 5, "di": 0, "ed": 5}
    lost = t.game_points(innocents(0, accomplices=(2,)), SEATS)
    assert lost == {"ann": 0, "bob": 1, "cy": 0, "di": 1, "ed": 1}


def test_the_undiscovered_late_murder_uses_the_tournament_value():
    late = jack_win(4, "fifth_murder", discovered=False, murder_round=15)
    assert t.game_points(late, SEATS)["ed"] == london1888.DEFAULT_UNDISCOVERED_LATE_MURDER
    assert t.game_points(late, SEATS, undiscovered_late_murder=6)["ed"] == 6
    early = jack_win(4, "fifth_murder", discovered=False, murder_round=11)
    assert t.game_points(early, SEATS, undiscovered_late_murder=6)["ed"] == 8


def test_an_outcome_the_rules_refuse_is_refused():
    with pytest.raises(RuleError, match="suicide"):
        t.game_points(jack_win(1, "suicide", discovered=False), SEATS)


# --- the organiser's result form --------------------------------------------------------

def test_a_typed_result_becomes_an_outcome():
    outcome = t.parse_result({"result": "jack_fifth_murder", "jack": "2", "murder_round": "13",
                              "discovered": "on", "accomplice_0": "on", "accomplice_2": "on"},
                             5)
    assert outcome == jack_win(2, "fifth_murder", murder_round=13, accomplices=(0,))
    assert t.parse_result({"result": "innocents", "jack": "1"}, 4)["discovered"] is True


@pytest.mark.parametrize("form, message", [
    ({"result": "jack_suicide", "jack": "1"}, "undiscovered"),
    ({"result": "jack_fifth_murder", "jack": "1", "murder_round": "9"}, "between 11 and 21"),
    ({"result": "jack_fifth_murder", "jack": "1"}, "round of the 5th murder"),
    ({"result": "draw", "jack": "1"}, "not a result"),
    ({"result": "innocents", "jack": "7"}, "not a player who was Jack"),
    ({"result": "innocents"}, "choose the player who was Jack"),
])
def test_a_typed_result_the_rules_refuse(form, message):
    with pytest.raises(t.TournamentError, match=message):
        t.parse_result(form, 5)


# --- tables of a round ------------------------------------------------------------------

@pytest.mark.parametrize("count", range(4, 61))
@pytest.mark.parametrize("preferred", range(4, 9))
def test_table_sizes_are_legal_and_even(count, preferred):
    sizes = t.split_sizes(count, preferred)
    assert sum(sizes) == count
    assert all(4 <= size <= 8 for size in sizes)
    assert max(sizes) - min(sizes) <= 1
    assert sizes == sorted(sizes, reverse=True)
    # No other legal number of tables gets the average closer to the preferred size.
    for tables in range(-(-count // 8), count // 4 + 1):
        assert abs(count / len(sizes) - preferred) <= abs(count / tables - preferred)


def test_table_sizes_examples():
    assert t.split_sizes(13) == [5, 4, 4]
    assert t.split_sizes(24) == [5, 5, 5, 5, 4]
    assert t.split_sizes(13, 6) == [7, 6]
    assert t.split_sizes(8, 8) == [8]
    assert t.split_sizes(4) == [4]


def test_too_few_players_or_an_impossible_size():
    with pytest.raises(t.TournamentError, match="at least 4 checked-in players; 3 are"):
        t.split_sizes(3)
    with pytest.raises(t.TournamentError, match="4 to 8 players; 9"):
        t.split_sizes(20, 9)


# --- seating ----------------------------------------------------------------------------

def test_every_player_sits_once_and_the_same_rng_gives_the_same_seating():
    players = list(range(17))
    sizes = t.split_sizes(17)
    first = t.seat_round(players, sizes, [[0, 1, 2, 3]], random.Random(5))
    again = t.seat_round(players, sizes, [[0, 1, 2, 3]], random.Random(5))
    assert first == again
    assert sorted(p for table in first for p in table) == players
    assert [len(table) for table in first] == sizes


def test_a_pair_that_met_is_kept_apart_when_possible():
    history = [[0, 1, 2, 3, 4], [5, 6, 7, 8, 9]]
    tables = t.seat_round(list(range(10)), [5, 5], history, random.Random(1))
    for table in tables:
        # Two tables of 5 from two earlier tables of 5: the best is 3 + 2 from each.
        counts = sorted([sum(p < 5 for p in table), sum(p >= 5 for p in table)])
        assert counts == [2, 3]


def repeat_meetings(history) -> int:
    """Repeat opponents over a tournament, what seating keeps low: every meeting of a
    pair after its first."""
    return sum(times - 1 for times in t.meetings(history).values() if times > 1)


@pytest.mark.slow
def test_seating_24_players_over_4_rounds_beats_random_seating():
    players = list(range(24))
    sizes = t.split_sizes(24)
    better = 0
    for seed in range(8):
        history: list[list[int]] = []
        baseline: list[list[int]] = []
        rng, base_rng = random.Random(seed), random.Random(1000 + seed)
        for _ in range(4):
            history += t.seat_round(players, sizes, history, rng)
            baseline += t.random_tables(players, sizes, base_rng)
        ours, theirs = repeat_meetings(history), repeat_meetings(baseline)
        assert ours <= theirs, (seed, ours, theirs)
        better += ours < theirs
    assert better >= 6


def test_meetings_count_each_pair_every_time_it_meets():
    # (1, 2) meet three times: 2 repeats; (1, 3) and (2, 3) twice: 1 each.
    met = t.meetings([[1, 2, 3, 4], [1, 2, 5, 6], [1, 2, 3, 7]])
    assert (met[(1, 2)], met[(1, 3)], met[(2, 3)], met[(1, 4)]) == (3, 2, 2, 1)
    assert repeat_meetings([[1, 2, 3, 4], [1, 2, 5, 6], [1, 2, 3, 7]]) == 4
    met = t.meetings([[1, 2, 3, 4], [2, 1, 5, 6]])
    assert met[(1, 2)] == 2 and met[(3, 4)] == 1
    assert sum(met.values()) == 2 * len(list(combinations(range(4), 2)))


# --- the organiser's own seating --------------------------------------------------------

NAMES = {n: f"P{n}" for n in range(10)}
PRESENT = {f"p{n}": n for n in range(9)}


def test_own_seating_is_read_line_by_line():
    tables = t.parse_seating("P0, P1, P2, P3, P4\n\n p5,P6 ,P7,  P8 ", PRESENT, NAMES)
    assert tables == [[0, 1, 2, 3, 4], [5, 6, 7, 8]]


@pytest.mark.parametrize("text, message", [
    ("P0,P1,P2,P3,P4\nP5,P6,P7,P0,P8", "P0 cannot sit at table 1 and at table 2"),
    ("P0,P1,P2,P3,P0\nP5,P6,P7,P4,P8", "P0 cannot sit twice"),
    ("P0,P1,P2,P3,P4,P9\nP5,P6,P7,P8", "“P9” is not a checked-in player"),
    ("P0,P1,P2\nP3,P4,P5,P6,P7,P8", "Table 1 has 3 players"),
    ("P0,P1,P2,P3\nP4,P5,P6,P7", "P8 is missing"),
])
def test_own_seating_refusals(text, message):
    with pytest.raises(t.TournamentError, match=message):
        t.parse_seating(text, PRESENT, NAMES)


# --- standings and tiebreaks ------------------------------------------------------------

def people(*names):
    return [{"id": name, "name": name, "lot": index} for index, name in enumerate(names)]


def game(round_, seats, outcome):
    return {"round": round_, "seats": list(seats), "outcome": outcome}


def by_name(rows):
    return {row["name"]: row for row in rows}


def test_points_per_round_games_and_jack_figures():
    players = people("A", "B", "C", "D", "E")
    games = [game(1, "ABCDE", jack_win(0, "fifth_murder", murder_round=12, accomplices=(4,))),
             game(2, "EDCBA", innocents(1)),
             game(3, "ABCD", None)]
    rows = by_name(t.standings(players, games))
    assert rows["A"]["rounds"] == {1: 5, 2: 1} and rows["A"]["points"] == 6
    assert rows["E"]["rounds"] == {1: 5, 2: 1}
    assert rows["D"]["rounds"] == {1: 0, 2: 0} and rows["D"]["jack_games"] == 1
    assert rows["A"]["jack_wins"] == 1 and rows["A"]["jack_points"] == 5
    assert rows["A"]["games"] == 2 and rows["A"]["wins"] == 2
    assert [row["position"] for row in t.standings(players, games)] == [1, 2, 3, 4, 5]


def test_most_games_won_as_jack_breaks_a_tie_first_by_default():
    players = people("A", "B", "X", "Y", "Z", "W")
    games = [game(1, "AXYZ", jack_win(0, "fifth_murder", murder_round=11)),  # A 4
             *[game(n, "BXYW", innocents(3)) for n in range(1, 5)]]        # B 1+1+1+1
    rows = t.standings(players, games)
    order = [row["name"] for row in rows if row["name"] in "AB"]
    assert order == ["A", "B"]
    # A, B, X and Y all have 4 points: A is placed by wins as Jack, and B, X and Y (tied
    # on every tiebreak) all by the lots, the same word for each.
    assert [by_name(rows)[name]["decided_by"] for name in "ABXY"] == [
        "jack_wins", "lots", "lots", "lots"]
    reordered = t.standings(players, games, t.parse_tiebreaks(["wins"]))
    assert [row["name"] for row in reordered if row["name"] in "AB"] == ["B", "A"]
    assert by_name(reordered)["A"]["decided_by"] == "wins"
    assert by_name(reordered)["A"]["decided_label"] == "Most wins"


def test_most_points_as_jack_breaks_equal_wins_as_jack():
    players = people("A", "B", "X", "Y", "Z")
    games = [game(1, "AXYZ", jack_win(0, "fifth_murder", murder_round=13)),  # A 5 as Jack
             game(1, "BXYZ", jack_win(0, "suicide")),                        # B 2 as Jack
             *[game(n, "BXYZ", innocents(1)) for n in range(2, 5)]]          # B +3
    rows = by_name(t.standings(players, games))
    assert rows["A"]["points"] == rows["B"]["points"] == 5
    assert rows["A"]["position"] < rows["B"]["position"]
    assert rows["A"]["decided_by"] == rows["B"]["decided_by"] == "jack_points"


def test_head_to_head_counts_games_between_the_tied_players():
    players = people("A", "B", "X", "Y", "P", "Q", "R")
    games = [game(1, "ABXY", innocents(2)),  # A 1, B 1
             game(2, "ABXY", innocents(1)),  # A 1, B (Jack) 0: A beats B
             game(3, "BPQR", innocents(1))]  # B 1
    rows = by_name(t.standings(players, games, t.parse_tiebreaks(["head_to_head"])))
    assert rows["A"]["points"] == rows["B"]["points"] == 2
    assert rows["A"]["position"] < rows["B"]["position"]
    # A, B and Y have 2 points; head-to-head puts B last, then lots part A and Y.
    assert rows["B"]["decided_by"] == "head_to_head"
    assert rows["A"]["decided_by"] == rows["Y"]["decided_by"] == "lots"
    assert (rows["A"]["head_to_head"], rows["B"]["head_to_head"]) == (1, 0)


def test_drawn_lots_decide_last_and_say_so():
    players = [{"id": "A", "name": "A", "lot": 9}, {"id": "B", "name": "B", "lot": 2},
               {"id": "C", "name": "C", "lot": 5}, {"id": "D", "name": "D", "lot": 1}]
    games = [game(1, "ABCD", innocents(3))]
    rows = t.standings(players, games)
    assert [row["name"] for row in rows] == ["B", "C", "A", "D"]
    # Three players fully tied: all three say "Drawn lots", the first as the others.
    assert [row["decided_by"] for row in rows] == ["lots", "lots", "lots", "points"]
    assert [str(row["decided_label"]) for row in rows[:3]] == ["Drawn lots"] * 3


def test_a_player_tied_with_nobody_is_placed_by_points_and_a_lone_one_by_nothing():
    players = people("A", "B", "C", "D")
    rows = t.standings(players, [game(1, "ABCD", jack_win(0, "suicide"))])
    assert rows[0]["name"] == "A" and rows[0]["decided_by"] == "points"
    assert t.standings([{"id": 1, "name": "Solo", "lot": 1}], [])[0]["decided_by"] is None


def test_tiebreak_order_from_the_form():
    assert t.parse_tiebreaks(["wins", "", "jack_wins"]) == [
        "wins", "jack_wins", "jack_points", "head_to_head"]
    with pytest.raises(t.TournamentError, match="chosen twice"):
        t.parse_tiebreaks(["wins", "wins"])
    with pytest.raises(t.TournamentError, match="not a tiebreak"):
        t.parse_tiebreaks(["coin"])


# --- properties over random tournaments -------------------------------------------------

OUTCOMES = [("innocents", None, True), ("jack", "suicide", True),
            ("jack", "killed_everyone", True), ("jack", "killed_everyone", False),
            ("jack", "fifth_murder", True), ("jack", "fifth_murder", False)]


def random_games(rng: random.Random, players: list[int], rounds: int) -> list[dict]:
    games = []
    for round_ in range(1, rounds + 1):
        for table in t.random_tables(players, t.split_sizes(len(players)), rng):
            if rng.random() < 0.1:
                games.append(game(round_, table, None))
                continue
            winner, how, discovered = rng.choice(OUTCOMES)
            jack = rng.randrange(len(table))
            accomplices = tuple(sorted(rng.sample([s for s in range(len(table)) if s != jack],
                                                  rng.randint(0, 2))))
            murder = rng.randint(11, 21) if how == "fifth_murder" else None
            outcome = (innocents(jack, accomplices, len(table)) if winner == "innocents"
                       else jack_win(jack, how, discovered, murder, accomplices, len(table)))
            games.append(game(round_, table, outcome))
    return games


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), count=st.integers(4, 20), rounds=st.integers(1, 4))
def test_standings_are_a_ranking_consistent_with_the_games(seed, count, rounds):
    rng = random.Random(seed)
    players = [{"id": n, "name": f"P{n}", "lot": rng.randrange(1000)} for n in range(count)]
    games = random_games(rng, list(range(count)), rounds)
    order = t.parse_tiebreaks(rng.sample(list(t.TIEBREAKS), len(t.TIEBREAKS)))
    rows = t.standings(players, games, order, undiscovered_late_murder=rng.randint(4, 8))
    assert sorted(row["id"] for row in rows) == list(range(count))
    assert [row["position"] for row in rows] == list(range(1, count + 1))
    for above, row in zip(rows, rows[1:], strict=False):
        assert above["points"] >= row["points"]
    for row in rows:
        tied = [other for other in rows if other["points"] == row["points"]]
        if len(tied) == 1:
            assert row["decided_by"] == "points"
        else:
            assert row["decided_by"] in (*order, "lots")
        if row["decided_by"] == "lots":
            # Lots part two or more: someone tied with them reads "Drawn lots" too.
            assert sum(other["decided_by"] == "lots" for other in tied) >= 2
    assert sum(row["games"] for row in rows) == sum(
        len(g["seats"]) for g in games if g["outcome"] is not None)
    assert sum(row["jack_games"] for row in rows) == sum(
        1 for g in games if g["outcome"] is not None)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), count=st.integers(4, 30), rounds=st.integers(0, 3),
       preferred=st.integers(4, 8))
def test_seating_is_a_partition_no_worse_than_where_it_started(seed, count, rounds,
                                                              preferred):
    rng = random.Random(seed)
    players = list(range(count))
    sizes = t.split_sizes(count, preferred)
    history = [table for _ in range(rounds) for table in t.random_tables(players, sizes, rng)]
    start = t.random_tables(players, sizes, random.Random(seed))
    seated = t.seat_round(players, sizes, history, random.Random(seed), restarts=1)
    assert sorted(p for table in seated for p in table) == players
    assert [len(table) for table in seated] == sizes
    met = t.meetings(history)
    # One restart from the same shuffle: the local search only ever improves on it.
    assert t.seating_cost(met, seated) <= t.seating_cost(met, start)
