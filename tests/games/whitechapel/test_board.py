"""Board files: the format, its validation, and Jack's legal destinations.

The real board's facts come from the worked examples of the "Letters from Whitechapel"
rulebook, quoted beside each test.
"""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.whitechapel.board import (
    BoardError,
    find_boards,
    load_board,
    parse_board,
)
from tests.support.boardfiles import TINY_BOARD, tiny_board


def tiny_data() -> dict:
    return json.loads(TINY_BOARD.read_text(encoding="utf-8"))


def problem_of(data) -> str:
    with pytest.raises(BoardError) as caught:
        parse_board(data)
    return str(caught.value)


# --- the format ---------------------------------------------------------------

def test_tiny_board_loads_with_its_circles_links_and_red_circles(tiny):
    data = tiny_data()
    assert tiny.name == data["board"]
    assert tiny.numbers == tuple(sorted(c["n"] for c in data["circles"]))
    assert tiny.red == {c["n"] for c in data["circles"] if c["red"]}
    assert len(tiny.roads) == len(data["roads"])
    assert len(tiny.alleys) == len(data["alleys"])
    assert tiny.positions[1] == (data["circles"][0]["x"], data["circles"][0]["y"])


def test_links_are_undirected(tiny):
    for a, b in tiny.roads:
        assert b in tiny.neighbours(a) and a in tiny.neighbours(b)
    for a, b in tiny.alleys:
        assert b in tiny.alley_neighbours(a) and a in tiny.alley_neighbours(b)


def test_to_dict_reads_back_as_the_same_board(tiny):
    again = parse_board(json.loads(json.dumps(tiny.to_dict())))
    assert again == tiny
    assert hash(again) == hash(tiny)


def test_extra_keys_are_allowed_and_red_defaults_to_false():
    data = tiny_data()
    data["source"] = "drawn by hand"
    data["circles"][1]["label"] = "Mitre Square"
    del data["circles"][1]["red"]
    board = parse_board(data)
    assert 2 in board.numbers and 2 not in board.red


def test_alleys_are_optional():
    data = tiny_data()
    del data["alleys"]
    board = parse_board(data)
    assert board.alleys == frozenset()
    assert board.alley_moves(1) == frozenset()


def test_positions_cannot_be_changed_through_the_board(tiny):
    with pytest.raises(TypeError):
        tiny.positions[1] = (0, 0)  # type: ignore[index]


def test_bounds_cover_every_circle(tiny):
    left, top, right, bottom = tiny.bounds()
    for x, y in tiny.positions.values():
        assert left <= x <= right and top <= y <= bottom


# --- validation -----------------------------------------------------------------

def broken(change):
    data = tiny_data()
    change(data)
    return data


@pytest.mark.parametrize("change, expected", [
    (lambda d: d["roads"].append([1, 99]), "road link 1-99 names unknown circle 99"),
    (lambda d: d["alleys"].append([98, 99]), "alley link 98-99 names unknown circle 98 and 99"),
    (lambda d: d["roads"].append([3, 3]), "road link 3-3 joins circle 3 to itself"),
    (lambda d: d["roads"].append([1, 2]), "road link 1-2 is listed twice"),
    (lambda d: d["roads"].append([2, 1]), "road link 2-1 is listed twice"),
    (lambda d: d["alleys"].append([2, 1]), "alley link 2-1 is listed twice"),
    (lambda d: d["roads"].append([1]), "road link [1] is not a pair of circle numbers"),
    (lambda d: d["roads"].append([1, "2"]), 'road link [1, "2"] is not a pair'),
    (lambda d: d["circles"][3].pop("x"), "circle 4 has no position: missing x"),
    (lambda d: d["circles"][4].clear() or d["circles"][4].update(n=5),
     "circle 5 has no position: missing x and y"),
    (lambda d: d["circles"][3].update(y="high"), "circle 4 has a position that is not a pair"),
    (lambda d: d["circles"][3].update(x=float("nan")), "circle 4 has a position that is not"),
    (lambda d: d["circles"][3].update(red="yes"), 'circle 4: "red" must be true or false'),
    (lambda d: d["circles"].append(dict(d["circles"][0])),
     "circle number 1 appears more than once"),
    (lambda d: d["circles"][0].update(n=0), 'circle #1 needs a number "n"'),
    (lambda d: d["circles"][0].update(n=True), 'circle #1 needs a number "n"'),
    (lambda d: d["circles"][0].pop("n"), 'circle #1 needs a number "n"'),
    (lambda d: d["circles"].__setitem__(0, [1, 2, 3]), "circle #1 must be an object"),
    (lambda d: d.update(circles=[]), '"circles" must be a non-empty list'),
    (lambda d: d.pop("circles"), '"circles" must be a non-empty list'),
    (lambda d: d.pop("roads"), '"roads" is missing'),
    (lambda d: d.update(roads={"1": 2}), '"roads" must be a list of pairs'),
    (lambda d: d.pop("board"), '"board" must name the board'),
    (lambda d: d.update(board="  "), '"board" must name the board'),
    (lambda d: d["circles"].append({"n": 40, "x": 1, "y": 1}), "no road link reaches circle 40"),
])
def test_a_broken_board_is_refused_with_the_problem_named(change, expected):
    assert expected in problem_of(broken(change))


def test_a_broken_circle_is_reported_once_not_in_every_link():
    message = problem_of(broken(lambda d: d["circles"][4].pop("y")))
    assert message == "Board: circle 5 has no position: missing y"


def test_every_problem_is_reported_and_a_long_list_is_cut_short():
    data = tiny_data()
    data["roads"] += [[1, 100 + k] for k in range(20)]
    with pytest.raises(BoardError) as caught:
        parse_board(data)
    assert len(caught.value.problems) == 20
    message = str(caught.value)
    assert "road link 1-100 names unknown circle 100" in message
    assert "and 12 more problems" in message
    assert "1-119" not in message


@pytest.mark.parametrize("data", [[1, 2], "board", None, 3])
def test_a_board_must_be_a_json_object(data):
    assert "must hold a JSON object" in problem_of(data)


def test_the_input_is_not_changed_by_parsing():
    data = tiny_data()
    before = copy.deepcopy(data)
    parse_board(data)
    assert data == before


def test_load_board_names_the_file_and_the_json_error(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{"board": "x",\n "circles": [', encoding="utf-8")
    with pytest.raises(BoardError) as caught:
        load_board(path)
    assert str(path) in str(caught.value)
    assert "is not valid JSON" in str(caught.value) and "line 2" in str(caught.value)


def test_load_board_refuses_a_missing_or_unreadable_file(tmp_path):
    with pytest.raises(BoardError, match="there is no such file"):
        load_board(tmp_path / "nowhere.json")
    latin = tmp_path / "latin.json"
    latin.write_bytes(b'{"board": "Caf\xe9"}')
    with pytest.raises(BoardError, match="cannot be read"):
        load_board(latin)


def test_load_board_reports_problems_with_the_file_name(tmp_path):
    path = tmp_path / "self.json"
    path.write_text(json.dumps(broken(lambda d: d["roads"].append([5, 5]))), encoding="utf-8")
    with pytest.raises(BoardError) as caught:
        load_board(path)
    assert str(caught.value).startswith(f"Board file {path}: ")
    assert caught.value.problems == ["road link 5-5 joins circle 5 to itself"]


# --- finding boards in instance/boards/ --------------------------------------------

def write_board(path, name):
    data = tiny_data()
    data["board"] = name
    path.write_text(json.dumps(data), encoding="utf-8")


def test_find_boards_reads_every_json_file_by_board_name(tmp_path):
    write_board(tmp_path / "a.json", "East End")
    write_board(tmp_path / "b.json", "Spitalfields")
    (tmp_path / "notes.txt").write_text("not a board", encoding="utf-8")
    boards = find_boards(tmp_path)
    assert sorted(boards) == ["East End", "Spitalfields"]
    assert boards["East End"].numbers == tiny_board().numbers


def test_find_boards_in_a_missing_directory_finds_none(tmp_path):
    assert find_boards(tmp_path / "boards") == {}


def test_find_boards_refuses_a_broken_file_by_name(tmp_path):
    write_board(tmp_path / "a.json", "East End")
    (tmp_path / "b.json").write_text("{", encoding="utf-8")
    with pytest.raises(BoardError, match="b.json: is not valid JSON"):
        find_boards(tmp_path)


def test_find_boards_refuses_two_files_naming_the_same_board(tmp_path):
    write_board(tmp_path / "a.json", "East End")
    write_board(tmp_path / "b.json", "East End")
    with pytest.raises(BoardError, match='names the board "East End", as .*a.json already'):
        find_boards(tmp_path)


# --- Jack's legal destinations on the tiny board ---------------------------------------

def test_normal_moves_follow_roads_and_skip_blocked_ones(tiny):
    assert tiny.normal_moves(6) == tiny.neighbours(6) == {2, 5, 7, 10, 11}
    assert tiny.normal_moves(6, blocked=[(7, 6), (6, 10)]) == {2, 5, 11}
    assert tiny.normal_moves(6, blocked=[(1, 2)]) == {2, 5, 7, 10, 11}
    assert tiny.normal_moves(14) == {10, 13}  # no street joins 14 and 15


def test_a_coach_is_two_road_steps_never_back_to_the_start(tiny):
    routes = tiny.coach_routes(6)
    # The triangle 6-7-11 offers 6 -> 7 -> 11 and 6 -> 11 -> 7, never 6 -> 7 -> 6.
    assert (7, 11) in routes and (11, 7) in routes
    assert all(second != 6 for _, second in routes)
    for first, second in routes:
        assert first in tiny.neighbours(6) and second in tiny.neighbours(first)
        assert len({6, first, second}) == 3
    expected = {(first, second) for first in tiny.neighbours(6)
                for second in tiny.neighbours(first) if second != 6}
    assert routes == expected


def test_an_alley_crosses_a_block_of_houses(tiny):
    assert tiny.alley_moves(1) == {2, 5, 6, 18}
    assert tiny.alley_moves(4) == frozenset()


def test_move_problem_checks_each_kind(tiny):
    def legal(start, kind, route, blocked=()):
        return tiny.move_problem(start, kind, route, blocked) is None

    assert legal(6, "move", [7])
    assert not legal(6, "move", [7], blocked=[[6, 7]])
    assert not legal(6, "move", [8])
    assert not legal(6, "move", [7, 8])
    assert legal(6, "coach", (7, 8))
    assert legal(6, "coach", (7, 8), blocked=[[6, 7], [7, 8]])
    assert not legal(6, "coach", (7, 6))
    assert not legal(6, "coach", (7,))
    assert legal(1, "alley", [18])
    assert legal(1, "alley", [18], blocked=[[1, 18]])
    assert not legal(1, "alley", [9])
    assert not legal(1, "walk", [2])
    assert not legal(99, "move", [1])


def test_hideout_is_any_circle_but_a_red_one(tiny):
    assert not tiny.is_legal_hideout(1)  # red
    assert tiny.is_legal_hideout(2)
    assert not tiny.is_legal_hideout(99)
    legal = {n for n in tiny.numbers if tiny.is_legal_hideout(n)}
    assert legal == set(tiny.numbers) - tiny.red


def test_a_crime_cannot_be_on_an_existing_crime_scene(tiny):
    assert tiny.is_legal_crime_scene(7, [])
    assert not tiny.is_legal_crime_scene(7, [16, 7])
    assert tiny.is_legal_crime_scene(1, [16, 7])
    assert not tiny.is_legal_crime_scene(99, [])


def test_roads_and_alleys_join_in_either_order(tiny):
    assert tiny.is_road(6, 11) and tiny.is_road(11, 6)
    assert not tiny.is_road(14, 15)
    assert 18 in tiny.alley_moves(1) and 1 in tiny.alley_moves(18)
    assert 8 not in tiny.alley_moves(4)


def test_unknown_circles_have_no_destinations(tiny):
    assert not tiny.has_circle(99)
    assert tiny.neighbours(99) == tiny.alley_moves(99) == tiny.coach_routes(99) == frozenset()


# --- the real board: the rulebook's examples as board facts -----------------------------

def test_real_board_has_195_circles_and_every_circle_a_road(real):
    assert real.numbers == tuple(range(1, 196))
    assert all(real.neighbours(n) for n in real.numbers)


def test_real_board_circle_65_wretched_example(real):
    """"The Wretched pawn on numbered circle 65 must move. The Head of the
    Investigation must chose a destination from among numbered circles 63, 66,
    51, 67, 84, 83, and 82.\""""
    assert real.neighbours(65) == {51, 63, 66, 67, 82, 83, 84}


def test_real_board_move_and_coach_example(real):
    """"Jack makes his move from numbered circle 127 ... to numbered circle 103."
    "Jack is on numbered circle 103 and decides to use a Coach ... first 69,
    then 56.\""""
    assert real.move_problem(127, "move", [103]) is None
    assert real.is_road(127, 103) and real.is_road(103, 69) and real.is_road(69, 56)
    assert (69, 56) in real.coach_routes(103)
    assert real.move_problem(103, "coach", [69, 56]) is None


def test_real_board_alley_example(real):
    """"Jack is on numbered circle 56 and decides to use an Alley. His legal
    destinations on the block of houses to his south are 57, 73, 72, 71, 70,
    and 69. He chooses numbered circle 72.\""""
    assert {57, 69, 70, 71, 72, 73} <= real.alley_moves(56)
    assert real.move_problem(56, "alley", [72]) is None


def test_real_board_hideout_and_double_event_examples(real):
    """"Jack chooses numbered circle 90 as his Hideout." The double event's
    crime scenes 3 and 27 hold wretched, so they are red numbered circles."""
    assert real.is_legal_hideout(90)
    assert {3, 27} <= real.red
    assert not real.is_legal_hideout(3)
    assert real.is_legal_crime_scene(3, [27]) and not real.is_legal_crime_scene(27, [27])


def test_real_board_coach_routes_are_complete_and_legal_everywhere(real):
    for start in real.numbers:
        expected = {(first, second) for first in real.neighbours(start)
                    for second in real.neighbours(first) if second != start}
        assert real.coach_routes(start) == expected


# --- garbage in, a clear refusal out ---------------------------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 300) | st.floats(allow_nan=True)
    | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["board", "circles", "roads", "alleys", "n", "x", "y", "red"]),
        inner, max_size=5),
    max_leaves=25)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(JSON)
def test_any_json_is_a_board_or_a_board_error(data):
    try:
        board = parse_board(data)
    except BoardError as error:
        assert error.problems and str(error).startswith("Board: ")
    else:
        assert board.numbers and all(board.neighbours(n) for n in board.numbers)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["circles", "roads", "alleys"]), st.integers(0, 40), JSON)
def test_a_damaged_tiny_board_is_a_board_or_a_board_error(key, index, value):
    data = tiny_data()
    items = data[key]
    items[index % len(items)] = value
    try:
        parse_board(data)
    except BoardError as error:
        assert error.problems


# --- refusals a player understands ----------------------------------------------------

@pytest.mark.parametrize("start, kind, route, blocked, message", [
    (6, "move", [8], [], "No road joins 6 and 8."),
    (6, "move", [7], [[7, 6]], "A policeman blocks the road from 6 to 7."),
    (6, "move", [99], [], "There is no circle 99 on the board Tiny test district."),
    (6, "move", [7, 8], [], "A move goes to one circle."),
    (6, "coach", [8, 12], [], "No road joins 6 and 8: a Coach follows two roads."),
    (6, "coach", [7, 16], [], "No road joins 7 and 16: a Coach follows two roads."),
    (6, "coach", [7, 6], [], "must be different from each other and from the circle"),
    (6, "coach", [7], [], "A Coach goes to two circles."),
    (1, "alley", [9], [], "No alley crosses a block of houses from 1 to 9."),
    (1, "walk", [2], [], "A movement is a move, a Coach or an Alley."),
])
def test_an_illegal_move_is_explained(tiny, start, kind, route, blocked, message):
    assert message in tiny.move_problem(start, kind, route, blocked)


def test_a_legal_move_has_no_problem_and_every_listed_destination_is_legal(tiny):
    for start in tiny.numbers:
        for end in tiny.normal_moves(start):
            assert tiny.move_problem(start, "move", [end]) is None
        for route in tiny.coach_routes(start):
            assert tiny.move_problem(start, "coach", route, blocked=[[start, route[0]]]) is None
        for end in tiny.alley_moves(start):
            assert tiny.move_problem(start, "alley", [end]) is None
