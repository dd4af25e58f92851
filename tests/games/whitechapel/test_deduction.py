"""The detectives' deduction map: where can Jack be, from public facts only?

Small nights on the tiny test board (tests/support/boards/tiny.json) whose answers can
be followed on its drawing, the rulebook's example night on the real board,
and a check of every answer against the path-listing oracle.
"""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.whitechapel.board import Board
from companion.games.whitechapel.deduction import (
    FactsError,
    candidate_hideouts,
    deduction_map,
    possible_positions,
    read_night,
)
from tests.support import deduction_oracle
from tests.support.boardfiles import tiny_board


def night(crimes, moves=(), clues=(), empty=(), arrests=(), blocked=(), **extra) -> dict:
    """Public facts; clues/empty/arrests as (circle, after_move) pairs."""
    return {"crime_scenes": list(crimes), "moves": list(moves),
            "clues": [{"circle": c, "after_move": k} for c, k in clues],
            "searched_empty": [{"circle": c, "after_move": k} for c, k in empty],
            "failed_arrests": [{"circle": c, "after_move": k} for c, k in arrests],
            "blocked": [list(pair) for pair in blocked], **extra}


def deduce(board: Board, facts: dict) -> set[int]:
    """possible_positions, checked against the oracle and for not touching its input."""
    before = copy.deepcopy(facts)
    found = possible_positions(board, facts)
    assert facts == before
    assert found == deduction_oracle.positions(board, facts)
    return found


# --- movements ------------------------------------------------------------------

def test_before_the_crime_jack_is_nowhere_on_the_map(tiny):
    assert deduce(tiny, night([])) == set()


def test_at_the_crime_jack_is_on_the_crime_scene(tiny):
    assert deduce(tiny, night([6])) == {6}


def test_a_normal_move_follows_one_road(tiny):
    assert deduce(tiny, night([6], ["move"])) == {2, 5, 7, 10, 11}


def test_a_road_blocked_by_a_policeman_is_closed_for_that_move(tiny):
    assert deduce(tiny, night([6], ["move"], blocked=[(6, 7, 1)])) == {2, 5, 10, 11}
    assert deduce(tiny, night([6], ["move"], blocked=[(7, 6)])) == {2, 5, 10, 11}
    # Marked for the move to come, it does not change where Jack is now.
    assert deduce(tiny, night([6], ["move"], blocked=[(6, 7, 2)])) == {2, 5, 7, 10, 11}


def test_a_coach_passes_policemen_and_never_returns_to_its_start(tiny):
    assert deduce(tiny, night([1], ["coach"])) == {6, 17, 18}
    assert deduce(tiny, night([1], ["coach"], blocked=[(1, 2), (1, 5)])) == {6, 17, 18}


def test_an_alley_crosses_a_block_and_passes_policemen(tiny):
    assert deduce(tiny, night([1], ["alley"])) == {2, 5, 6, 18}
    assert deduce(tiny, night([1], ["alley"], blocked=[(1, 2)])) == {2, 5, 6, 18}


# --- looking for clues, arrests ------------------------------------------------------

def test_a_clue_means_jack_passed_there_tonight(tiny):
    assert deduce(tiny, night([1], ["move", "move"])) == {1, 6, 17, 18}
    assert deduce(tiny, night([1], ["move", "move"], clues=[(2, 2)])) == {1, 6, 17}
    assert deduce(tiny, night([1], ["move", "move"], clues=[(2, 1)])) == {1, 6, 17}
    assert deduce(tiny, night([1], ["move", "move"], clues=[(6, 2)])) == {6}


def test_a_search_without_clue_rules_out_the_path_up_to_then_only(tiny):
    assert deduce(tiny, night([1], ["move", "move"], empty=[(2, 2)])) == {1, 6, 18}
    assert deduce(tiny, night([1], ["move", "move"], empty=[(2, 1)])) == {1, 6, 18}
    # Searched before Jack could get there: he may have come since.
    assert deduce(tiny, night([1], ["move", "move"], empty=[(2, 0)])) == {1, 6, 17, 18}


def test_both_circles_of_a_coach_are_on_the_row(tiny):
    assert deduce(tiny, night([1], ["coach"], clues=[(5, 1)])) == {6, 18}
    assert deduce(tiny, night([1], ["coach"], empty=[(5, 1)])) == {6, 17}


def test_the_crime_scene_is_on_the_row(tiny):
    assert deduce(tiny, night([1], ["move"], clues=[(1, 1)])) == {2, 5}
    assert deduce(tiny, night([1], ["move"], empty=[(1, 1)])) == set()


def test_a_failed_arrest_rules_out_that_circle_at_that_moment(tiny):
    assert deduce(tiny, night([1], ["move"], arrests=[(2, 1)])) == {5}
    assert deduce(tiny, night([1], ["move"], arrests=[(2, 0)])) == {2, 5}
    assert deduce(tiny, night([1], ["move", "move"], arrests=[(2, 1)])) == {1, 6, 18}


def test_more_facts_never_widen_the_map(tiny):
    facts = night([6], ["move", "alley", "move"])
    sizes = [len(deduce(tiny, facts))]
    for key, entry in [("searched_empty", (2, 1)), ("clues", (7, 2)),
                       ("failed_arrests", (8, 3)), ("searched_empty", (12, 3))]:
        facts[key].append({"circle": entry[0], "after_move": entry[1]})
        sizes.append(len(deduce(tiny, facts)))
    assert sizes == sorted(sizes, reverse=True)
    assert sizes[-1] < sizes[0]


# --- the double event ---------------------------------------------------------------

def test_double_event_jack_starts_from_either_crime_scene(tiny):
    """The detectives know both crime scenes, but not their order."""
    assert deduce(tiny, night([1, 16], ["move"])) == {2, 5, 12, 15}
    assert deduce(tiny, night([16, 1], ["move"])) == {2, 5, 12, 15}
    # Both crime scenes are in the row: a clue on either says nothing new.
    assert deduce(tiny, night([1, 16], ["move"], clues=[(16, 1)])) == {2, 5, 12, 15}
    # The detectives act first on the third night: an arrest after 0 moves.
    assert deduce(tiny, night([1, 16], [], arrests=[(1, 0)])) == {16}
    assert deduce(tiny, night([1, 16], ["move"], arrests=[(1, 0)])) == {12, 15}


# --- the rulebook's night on the real board ---------------------------------------------

def test_rulebook_example_night_on_the_real_board(real):
    """Jack leaves 127 for 103, takes a Coach 69 then 56, then an Alley to 72
    (Hunting 1; Special Movements I and II)."""
    moves = ["move", "coach", "alley"]
    assert 72 in deduce(real, night([127], moves))
    facts = night([127], moves, clues=[(103, 1), (69, 3)], empty=[(99, 2), (57, 3)],
                  arrests=[(73, 3)])
    found = deduce(real, facts)
    assert 72 in found
    assert found < possible_positions(real, night([127], moves))
    assert 57 not in found and 73 not in found


# --- hideouts ------------------------------------------------------------------------------

def test_no_escape_yet_leaves_every_circle_but_the_red_ones(tiny):
    assert candidate_hideouts(tiny, night([6], ["move"])) == set(tiny.numbers) - tiny.red


def test_each_escape_narrows_the_hideout(tiny):
    first = night([6], ["move"])
    second = night([12], ["move", "move"])
    third = night([3], ["move"], night=3)
    facts = {**third, "prior_nights": [first, second], "escapes": [1]}
    assert candidate_hideouts(tiny, facts) == {2, 5, 10, 11}  # 7 is red
    facts["escapes"] = [1, 2]
    assert candidate_hideouts(tiny, facts) == {10}


def test_an_escape_tonight_counts_too(tiny):
    tonight = night([6], ["move"], night=2, escapes=[2],
                    prior_nights=[night([12], ["move", "move"])])
    assert candidate_hideouts(tiny, tonight) == {2, 5, 10, 11}
    tonight["escapes"] = [1, 2]
    assert candidate_hideouts(tiny, tonight) == {10}


def test_deduction_map_is_json_for_a_view(tiny):
    facts = night([6], ["move"], night=1, escapes=[1])
    layers = deduction_map(tiny, facts)
    assert json.loads(json.dumps(layers)) == {"possible": [2, 5, 7, 10, 11],
                                              "hideouts": [2, 5, 10, 11]}


# --- options and formats of the facts ------------------------------------------------------

def test_with_false_clues_only_a_clue_found_by_a_search_counts(tiny):
    facts = night([1], ["move", "move"], clues=[(2, 2)], false_clues=True)
    assert possible_positions(tiny, facts) == {1, 6, 17, 18}
    facts["clues"][0]["search"] = True
    assert possible_positions(tiny, facts) == {1, 6, 17}


def test_a_failed_arrest_without_its_moment_is_not_used(tiny):
    facts = night([1], ["move"])
    facts["failed_arrests"] = [2]
    assert possible_positions(tiny, facts) == {2, 5}


@pytest.mark.parametrize("facts, message", [
    (night([99]), "crime scene: 99 is not a circle"),
    (night([1, 1]), "a crime scene is listed twice"),
    (night([1], ["walk"]), "a movement must be one of move, coach, alley"),
    (night([1], ["move"], clues=[(2, 2)]), '"after_move" in "clues" must be a whole number'),
    (night([1], ["move"], empty=[(2, -1)]), '"after_move" in "searched_empty"'),
    (night([1], ["move"], arrests=[(42, 1)]), "failed_arrests: 42 is not a circle"),
    (night([1], ["move"], blocked=[(1, 9)]), "blocked link 1-9 is not a road"),
    (night([1], ["move"], blocked=[(1, 2, 3)]), "the movement of a blocked link"),
    (night([1], ["move"], blocked=[(1,)]), "a blocked link must be [a, b]"),
    ({"crime_scenes": 1}, '"crime_scenes" must be a list'),
    ({"crime_scenes": [1], "clues": ["2"]}, 'an entry of "clues" must be an object'),
    ({"crime_scenes": [True]}, "crime scene: True is not a circle"),
])
def test_facts_that_do_not_fit_the_board_are_refused(tiny, facts, message):
    with pytest.raises(FactsError) as caught:
        possible_positions(tiny, facts)
    assert message in str(caught.value)


@pytest.mark.parametrize("facts, message", [
    (night([6], ["move"], escapes=[2]), "Jack escaped on night 2, but that night has no facts"),
    (night([6], ["move"], escapes=[5]), "a night of escape must be a whole number from 1 to 4"),
    (night([6], ["move"], prior_nights=["x"]), "a finished night's facts must be an object"),
    (night([6], ["move"], prior_nights=[night([1], night=1), night([2], night=1)]),
     "night 1 has two sets of facts"),
])
def test_escapes_that_do_not_fit_the_nights_are_refused(tiny, facts, message):
    with pytest.raises(FactsError, match=message):
        candidate_hideouts(tiny, facts)


@pytest.mark.parametrize("facts", [[1, 2], "facts", None, 7])
def test_facts_that_are_not_an_object_are_refused(tiny, facts):
    with pytest.raises(FactsError, match="must be an object"):
        read_night(tiny, facts)
    with pytest.raises(FactsError, match="must be an object"):
        possible_positions(tiny, facts)
    with pytest.raises(FactsError, match="must be an object"):
        candidate_hideouts(tiny, facts)


def test_past_the_state_limit_the_map_loosens_but_still_holds_jack(tiny, monkeypatch):
    """Many clues found late: the search forgets the latest clue, never Jack."""
    from companion.games.whitechapel import deduction

    path = [1, 2, 6, 7, 11, 10, 9, 13]  # crime on 1, then seven normal moves
    facts = night([1], ["move"] * 7,
                  clues=[(circle, 7) for circle in path[1:-1]], empty=[(17, 7)])
    exact = deduce(tiny, facts)
    assert 13 in exact
    monkeypatch.setattr(deduction, "STATE_LIMIT", 2)
    loose = possible_positions(tiny, facts)
    assert exact < loose and 13 in loose


ENTRY = st.fixed_dictionaries({}, optional={
    "circle": st.integers(-2, 20) | st.text(max_size=2) | st.none() | st.booleans(),
    "after_move": st.integers(-2, 5) | st.text(max_size=2) | st.none(),
    "search": st.booleans() | st.integers(0, 2)})
FACTS = st.fixed_dictionaries({}, optional={
    "night": st.integers(-1, 6) | st.text(max_size=2),
    "crime_scenes": st.lists(st.integers(-1, 20) | st.text(max_size=2), max_size=3)
    | st.integers() | st.none(),
    "moves": st.lists(st.sampled_from(["move", "coach", "alley", "walk", 3]), max_size=4)
    | st.text(max_size=3),
    "clues": st.lists(ENTRY | st.integers(0, 20) | st.text(max_size=2), max_size=3),
    "searched_empty": st.lists(ENTRY | st.integers(0, 20), max_size=3),
    "failed_arrests": st.lists(ENTRY | st.integers(0, 20), max_size=3) | st.booleans(),
    "blocked": st.lists(st.lists(st.integers(-1, 20) | st.text(max_size=1), max_size=4),
                        max_size=2),
    "false_clues": st.booleans() | st.text(max_size=2),
    "escapes": st.lists(st.integers(-1, 6) | st.text(max_size=1), max_size=2),
    "prior_nights": st.lists(st.dictionaries(st.sampled_from(
        ["night", "crime_scenes", "moves", "clues"]), st.integers(0, 5) | st.lists(
        st.integers(0, 20), max_size=2)), max_size=2) | st.text(max_size=2),
})


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(FACTS)
def test_any_facts_give_circles_of_the_board_or_a_facts_error(facts):
    board = tiny_board()
    for compute in (possible_positions, candidate_hideouts):
        try:
            found = compute(board, facts)
        except FactsError as error:
            assert str(error)
        else:
            assert found <= set(board.numbers)
