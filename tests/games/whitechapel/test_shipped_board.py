"""The board shipped with the companion: its crossings, checked against the
rulebook, its notices, and that a fresh install loads it with no file of its own."""

from __future__ import annotations

import json

import pytest

from companion.games.whitechapel.board import (
    SHIPPED_BOARDS,
    BoardError,
    board_from_graph,
    load_board,
    load_boards,
    parse_board,
)

NAME = "Letters from Whitechapel"
SHIPPED = SHIPPED_BOARDS[0]


@pytest.fixture(scope="module")
def real():
    return load_board(SHIPPED)


@pytest.fixture(scope="module")
def data():
    return json.loads(SHIPPED.read_text(encoding="utf-8"))


def test_the_shipped_board_is_the_whole_board_with_its_crossings(real):
    """Setup 1: "It is marked with 195 numbered circles linked together by dotted lines."
    "Policemen move on their patrols between Crossings"."""
    assert real.name == NAME
    assert real.numbers == tuple(range(1, 196))
    assert len(real.roads) == 775 and len(real.alleys) == 451
    assert len(real.crossings) == 234 and len(real.crossing_links) == 453
    assert real.police_starts == {44, 75, 101, 107, 119, 165, 186}
    assert all(real.road_routes[road] for road in real.roads)


def test_the_yellow_policemans_circles_are_those_of_the_rulebook(real):
    """Clues and Suspicion: "Numbered circles 99, 100, and 120 are adjacent to the
    yellow Policeman pawn. Circle 83 is not adjacent, because the route to 83 is
    interrupted by a Crossing.\""""
    yellow = [x for x in real.crossing_ids if {99, 100, 120} <= real.circles_next_to(x)]
    assert yellow == [109]
    assert real.circles_next_to(109) == {99, 100, 120}
    assert 83 not in real.circles_next_to(109)
    # 83 is a road away from 99, 100 and 120, through another crossing.
    assert all(real.is_road(83, n) for n in (99, 100, 120))
    beyond = [x for x in real.crossing_links_of(109) if 83 in real.circles_next_to(x)]
    assert beyond


def test_a_policeman_moves_zero_one_or_two_crossings(real):
    """Hunting 2: "a policeman can move up to a distance of two (0, 1, or 2)
    crossings. Policeman pawns ignore numbered circles when moving.\""""
    one = real.police_moves(109, 1)
    two = real.police_moves(109)
    assert 109 in one and one < two
    assert two == {y for x in one for y in real.police_moves(x, 1)}
    assert real.police_moves(999) == frozenset()


def test_a_policeman_on_a_crossing_closes_the_roads_through_it(real):
    """Hunting 1: "He may not move over a crossing occupied by a policeman pawn."
    A road is closed when every way along it passes a policed crossing."""
    closed = real.closed_roads([109])
    assert (99, 120) in closed and (100, 120) in closed
    for a, b in closed:
        assert all(109 in route for route in real.road_routes[(a, b)])
    assert not real.closed_roads([])
    # The street 26-28 passes no crossing: no policeman ever closes it.
    assert (26, 28) in real.open_roads
    assert (26, 28) not in real.closed_roads(real.crossing_ids)


def test_the_compact_graph_keeps_everything_the_rules_need(real):
    graph = real.graph()
    again = board_from_graph(json.loads(json.dumps(graph)))
    assert again.road_routes == real.road_routes
    assert again.crossing_links == real.crossing_links
    assert again.crossing_circles == real.crossing_circles
    assert again.police_starts == real.police_starts
    # What the action log pays per state for the board (docs/boards.md).
    assert len(json.dumps(graph)) < 9_500


def test_routes_that_do_not_follow_the_streets_are_refused(data):
    broken = dict(data, road_routes=[dict(r, via=[[1]]) if r["road"] == [1, 2] else r
                                     for r in data["road_routes"]])
    with pytest.raises(BoardError, match="routes of road 1-2 do not follow"):
        parse_board(broken)
    links = dict(data, crossing_links=data["crossing_links"][1:])
    with pytest.raises(BoardError, match="crossing_links must be .* differ at 1-2"):
        parse_board(links)
    partial = {key: value for key, value in data.items() if key != "crossing_streets"}
    with pytest.raises(BoardError, match='missing "crossing_streets"'):
        parse_board(partial)


def test_the_board_and_its_notices_are_package_data():
    folder = SHIPPED.parent
    readme = (folder / "README.md").read_text(encoding="utf-8")
    for name in ("MIT-whitechapelR.txt", "LGPL-3.0.txt", "GPL-3.0.txt"):
        assert (folder / "licences" / name).is_file()
        assert f"licences/{name}" in readme
    assert "Copyright (c) 2018 Mark Ewing" in (folder / "licences" / "MIT-whitechapelR.txt"
                                              ).read_text(encoding="utf-8")
    assert "GNU LESSER GENERAL PUBLIC LICENSE" in (folder / "licences" / "LGPL-3.0.txt"
                                                  ).read_text(encoding="utf-8")
    from tests.support.realserver import ROOT

    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '"boards/*.json"' in pyproject and '"boards/licences/*.txt"' in pyproject


def test_every_start_loads_the_shipped_board(tmp_path, real):
    assert load_boards(tmp_path / "none") == {NAME: real}
    assert load_boards(tmp_path / "none", shipped=()) == {}


def test_another_file_naming_the_shipped_board_is_refused(tmp_path, data):
    other = tmp_path / "mine.json"
    other.write_text(json.dumps(dict(data, roads=data["roads"][:-1],
                                     road_routes=data["road_routes"][:-1])))
    with pytest.raises(BoardError, match="as the board shipped with the companion"):
        load_boards(None, [other])
    same = tmp_path / "copy.json"
    same.write_text(json.dumps(data))
    assert load_boards(None, [same]) == {NAME: load_board(SHIPPED)}
