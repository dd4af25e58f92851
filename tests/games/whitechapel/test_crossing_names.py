"""A crossing's name (``policemap.crossing_names``): the real board prints no number on a
crossing, so every page, refusal and replay names it by the circles around it (issue 36,
"Crossings as the board shows them"). One name per crossing, the same from the table's
graph (what the rules and the views read) as from the loaded board with its drawing
(what a page's police map reads), in every language."""

from __future__ import annotations

import re

import pytest

from companion.games.whitechapel.board import board_from_graph
from companion.games.whitechapel.policemap import crossing_names
from companion.terminal import catalogue
from tests.support.boardfiles import real_board, tiny_board

LONGEST = 45
"""Characters: a policeman's line ("Yellow: " and the name) wraps at most once on a 360
px phone."""


@pytest.fixture(scope="module")
def real():
    return real_board()


def test_the_tables_graph_and_the_drawn_board_name_every_crossing_alike(real):
    drawn = crossing_names(real)
    kept = crossing_names(board_from_graph(real.graph()))
    assert set(drawn) == set(real.crossing_ids)
    assert {x: str(name) for x, name in drawn.items()} == {
        x: str(name) for x, name in kept.items()}


@pytest.mark.parametrize("language", ["en", "de", "fr"])
def test_each_crossing_has_its_own_short_name_in_every_language(real, language):
    words = catalogue(language)
    said = [name.in_language(words) for name in crossing_names(real).values()]
    assert len(set(said)) == len(said), "two crossings read the same"
    assert max(map(len, said)) <= LONGEST, max(said, key=len)


def test_a_name_says_the_circles_a_policeman_there_may_search_and_no_other_number(real):
    for crossing, name in crossing_names(real).items():
        numbers = [int(n) for n in re.findall(r"\d+", name)]
        assert set(numbers) <= set(real.numbers), name  # circles only: no crossing's id
        near = sorted(real.circles_next_to(crossing))
        assert numbers[:len(near)] == near, (crossing, name)
        if len(near) >= 2 and len(numbers) == len(near):
            assert name == f"the crossing between {', '.join(map(str, near[:-1]))} and {near[-1]}"


def test_two_crossings_by_one_circle_are_told_apart_by_where_their_streets_go(real):
    """The circles next to the crossings a policeman's step away (two, three where
    those are by the same circle): the way along the street, as the board shows it."""
    lonely = [x for x in real.crossing_ids if len(real.circles_next_to(x)) < 2]
    assert lonely
    for crossing in lonely:
        name = crossing_names(real)[crossing]
        assert "towards" in name or "among" in name, name
        beyond = {c for y in real.police_moves(crossing, 3) for c in real.circles_next_to(y)}
        first = int(re.split(r"towards |among ", name)[1].split(",")[0].split(" ")[0])
        assert first in beyond - real.circles_next_to(crossing), (crossing, name)


def test_a_small_board_names_its_crossings_too():
    board = tiny_board()
    names = crossing_names(board)
    assert len(set(map(str, names.values()))) == len(names) == len(board.crossing_ids)
