"""Letters from Whitechapel in board mode: the rules with a board's graph in the state.

The rulebook's examples are played on the real board (the one the companion
ships); the tiny test board checks what needs no night (hideout, unknown circles).
"""

from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.base import TABLE, RuleError
from companion.games.whitechapel import rules as wc
from companion.games.whitechapel import state as wc_state
from companion.games.whitechapel.board import Board, board_from_graph
from tests.support.boardfiles import real_board, tiny_board
from tests.support.whitechapel_play import act, board_game, head, refused
from tests.support.whitechapel_walks import board_walk

JACK = 0



WOMEN = (3, 21, 27, 65, 84)


def waits_to_reach(board: Board, crime: int, women=WOMEN) -> int:
    """How many waits a wretched needs to walk from a marked woman to ``crime``."""
    return next(k for k in range(1, 5) if crime in board.circles_within(women, k))


def hunting_from(board: Board, crime: int, hideout: int = 90, **form: str) -> dict:
    """Night 1 on ``board``: Jack waits until a wretched can have walked to
    ``crime`` (once at least), then kills there; Jack to move."""
    state = board_game(board, **form)
    state = act(state, JACK, type="hideout", circle=hideout)
    state = act(state, JACK, type="women", circles=" ".join(map(str, WOMEN)))
    state = act(state, head(state), type="patrols_placed")
    for _ in range(waits_to_reach(board, crime)):
        state = act(state, JACK, type="wait")
        state = act(state, head(state), type="wretched_moved")
    state = act(state, JACK, type="kill", circle=crime)
    assert state["phase"] == "jack"
    return state


def police_pass(state: dict) -> dict:
    return act(state, TABLE, type="end_turn")


# --- the graph in the state ------------------------------------------------------------

def test_the_state_keeps_the_boards_graph_and_the_view_its_name(real):
    state = board_game(real)
    assert board_from_graph(state["board"]).roads == real.roads
    assert board_from_graph(state["board"]).alleys == real.alleys
    assert board_from_graph(state["board"]).red == real.red
    assert json.loads(json.dumps(state)) == state
    for viewer in (TABLE, JACK, 1):
        assert wc.view(state, viewer)["options"]["board"] == real.name
    assert board_from_graph(state["board"]).road_routes == real.road_routes
    # Compact: the log keeps every state, so the graph must stay small: 5.6 KB for
    # the circles, roads and alleys, 3.4 KB for the crossings (docs/boards.md).
    assert len(json.dumps(state["board"])) < 9500


def test_a_damaged_graph_is_refused_at_setup():
    options = {**wc.default_options(), "board": "X",
               "board_graph": {"board": "X", "red": "", "roads": "1:two", "alleys": ""}}
    with pytest.raises(RuleError, match="damaged"):
        wc.setup(options, ["J", "A"], random.Random(1))


# --- hideout, women, crimes ----------------------------------------------------------

def test_the_hideout_is_never_red_and_always_on_the_board():
    tiny = tiny_board()
    state = board_game(tiny)
    assert "red circle" in refused(state, JACK, type="hideout", circle=7)
    assert "no circle 19 on the board" in refused(state, JACK, type="hideout", circle=19)
    assert act(state, JACK, type="hideout", circle=6)["hideout"] == 6


def test_without_a_board_any_circle_is_a_hideout():
    state = wc.setup(wc.default_options(), ["J", "A"], random.Random(1))
    assert act(state, JACK, type="hideout", circle=3)["hideout"] == 3


def test_the_women_go_on_red_circles(real):
    state = act(board_game(real), JACK, type="hideout", circle=90)
    assert "not a red circle" in refused(state, JACK, type="women", circles="3 21 27 65 90")
    assert act(state, JACK, type="women", circles="3 21 27 65 84")["phase"] == "patrols"


def test_a_crime_is_never_on_an_existing_crime_scene(real):
    state = hunting_from(real, 82)
    state = act(state, JACK, type="move", circle=81 if 81 in real.neighbours(82) else
                min(real.neighbours(82)))
    assert state["nights"][0]["crimes"] == [82]
    assert "already a crime scene" in refused(
        {**state, "phase": "blood", "night": 2}, JACK, type="kill", circle=82)


# --- Jack's movements: the rulebook's examples ----------------------------------------

def test_rulebook_night_127_103_coach_69_56_alley_72(real):
    state = hunting_from(real, 127)
    state = police_pass(act(state, JACK, type="move", circle=103))
    state = police_pass(act(state, JACK, type="coach", circle=69, circle2=56))
    state = act(state, JACK, type="alley", circle=72)
    assert [m["circles"] for m in state["nights"][0]["moves"]] == [[103], [69, 56], [72]]


def test_a_move_without_a_road_is_refused_with_the_reason(real):
    state = hunting_from(real, 127)
    assert refused(state, JACK, type="move", circle=56) == "No road joins 127 and 56."
    assert 56 not in real.neighbours(127)


def test_a_coach_follows_two_roads_to_two_new_circles(real):
    state = police_pass(act(hunting_from(real, 127), JACK, type="move", circle=103))
    assert "No road joins 69 and 72" in refused(state, JACK, type="coach", circle=69,
                                                circle2=72)
    assert "different from your start" in refused(state, JACK, type="coach", circle=69,
                                                  circle2=103)
    first = min(real.neighbours(103) - {127})
    assert "No road joins 103 and" in refused(state, JACK, type="coach", circle=56,
                                              circle2=first)


def test_an_alley_crosses_one_block(real):
    state = police_pass(act(hunting_from(real, 127), JACK, type="move", circle=103))
    away = min(set(real.numbers) - real.alley_moves(103) - {103})
    assert refused(state, JACK, type="alley", circle=away) == \
        f"No alley crosses a block of houses from 103 to {away}."


def test_escape_only_along_a_road_into_the_hideout(real):
    state = hunting_from(real, 127, hideout=90)
    assert 90 not in real.neighbours(127)
    # The button is there either way (offered from public facts), checked when tapped.
    assert "escape" in wc.actions(state, JACK)
    assert "No road joins 127 and 90" in refused(state, JACK, type="escape")
    near = min(real.normal_moves(127) - real.red)
    state = hunting_from(real, 127, hideout=near)
    assert wc.actions(state, JACK) == wc.actions(hunting_from(real, 127, hideout=90), JACK)
    assert act(state, JACK, type="escape")["nights"][0]["escaped"]


def test_every_legal_destination_of_the_board_is_accepted(real):
    state = hunting_from(real, 65)
    for n in real.normal_moves(65):
        assert act(state, JACK, type="move", circle=n)["nights"][0]["moves"][-1] == {
            "kind": "move", "circles": [n]}
    for first, second in real.coach_routes(65):
        act(state, JACK, type="coach", circle=first, circle2=second)
    for n in real.alley_moves(65):
        act(state, JACK, type="alley", circle=n)


# --- no legal move ----------------------------------------------------------------------

def test_jack_declares_no_legal_move_only_when_no_coach_or_alley_is_left(real):
    state = hunting_from(real, 127)
    # Offered whatever he has left (that depends on where he is), checked when tapped.
    assert "trapped" in wc.actions(state, JACK)
    assert "a Coach" in refused(state, JACK, type="trapped")
    # Use up the three Coaches and two Alleys of the first night.
    for _ in range(3):
        here = wc_state._location(state["nights"][0])
        first, second = min(real.coach_routes(here))
        state = police_pass(act(state, JACK, type="coach", circle=first, circle2=second))
    for _ in range(2):
        here = wc_state._location(state["nights"][0])
        state = police_pass(act(state, JACK, type="alley", circle=min(real.alley_moves(here))))
    over = act(state, JACK, type="trapped")
    assert over["outcome"]["reason"] == "no_legal_move"
    assert wc.view(over, TABLE)["outcome"]["winner"] == "detectives"


def test_in_board_mode_jack_declares_it_not_the_detectives(real):
    state = hunting_from(real, 127)
    assert "no_legal_move" not in wc.actions(state, TABLE)
    assert "no_legal_move" not in wc.actions(state, 1)
    plain = wc.setup(wc.default_options(), ["J", "A"], random.Random(1))
    assert "without a board file" in refused(
        {**plain, "phase": "jack", "hideout": 90}, JACK, type="trapped").lower()


# --- random legal games ------------------------------------------------------------------

def walk(board: Board, state: dict, r: random.Random):
    """The properties' random legal walk; None when it finds nothing to pick
    (the walker's own dead end, such as no circle left to search)."""
    try:
        return board_walk(board, state, r)
    except IndexError:
        return None


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6))
def test_legal_moves_on_the_real_board_are_never_refused(seed):
    board = real_board()
    r = random.Random(seed)
    state = board_game(board)
    for _ in range(250):
        if wc.is_over(state):
            break
        step = walk(board, state, r)
        if step is None:
            break
        actor, action = step
        try:
            state = wc.apply(state, actor, action, random.Random(0))
        except RuleError as error:
            assert action["type"] not in ("hideout", "women", "kill", "move", "coach",
                                          "alley", "escape"), (action, error.message)


FIELDS = st.dictionaries(
    st.sampled_from(["circle", "circle2", "circles", "policeman", "x"]),
    st.one_of(st.text(max_size=8), st.integers(-5, 260).map(str)))


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 60),
       actor=st.one_of(st.integers(-1, 3), st.just(TABLE)),
       kind=st.sampled_from(sorted(wc.HANDLERS)), fields=FIELDS)
def test_garbage_in_board_mode_only_raises_rule_error(seed, steps, actor, kind, fields):
    """Tiny board: circles 1-195 that are not on it, red hideouts, roads that do not
    exist; nothing but a RuleError, and the state untouched."""
    # The tiny board has too few red circles for a night: it is tried at the start.
    board = real_board() if seed % 2 else tiny_board()
    r = random.Random(seed)
    state = board_game(board)
    for _ in range(steps if seed % 2 else 0):
        if wc.is_over(state):
            break
        step = walk(board, state, r)
        if step is None:
            break
        try:
            state = wc.apply(state, *step, random.Random(0))
        except RuleError:
            continue
    before = copy.deepcopy(state)
    try:
        after = wc.apply(state, actor, dict(fields, type=kind), random.Random(0))
    except RuleError as error:
        assert error.message
    else:
        json.dumps(after)
        assert after["board"] == state["board"]
    assert state == before


# --- roads closed by policemen (optional marks) -------------------------------------------

def test_a_marked_road_closes_the_normal_move_not_a_coach(real):
    state = act(hunting_from(real, 127), JACK, type="move", circle=103)
    assert {"block", "unblock"} <= set(wc.actions(state, TABLE))
    state = act(state, TABLE, type="block", circle=69, circle2=103)
    assert wc.view(state, 1)["closed_roads"] == [[69, 103]]
    assert "already marked" in refused(state, TABLE, type="block", circle=103, circle2=69)
    assert "No road joins 103 and 56" in refused(state, 1, type="block", circle=103,
                                                 circle2=56)
    state = police_pass(state)
    assert refused(state, JACK, type="move", circle=69) == \
        "A policeman blocks the road from 103 to 69."
    assert act(state, JACK, type="coach", circle=69, circle2=56)["nights"][0]["moves"][-1] \
        == {"kind": "coach", "circles": [69, 56]}


def test_marks_stay_until_opened_again(real):
    state = act(hunting_from(real, 127), JACK, type="move", circle=103)
    state = police_pass(act(state, TABLE, type="block", circle=69, circle2=103))
    other = min(real.normal_moves(103) - {69, 127})
    state = police_pass(act(state, JACK, type="move", circle=other))
    state = police_pass(act(state, JACK, type="move", circle=103))
    assert wc.view(state, TABLE)["closed_roads"] == [[69, 103]]
    assert "blocks the road" in refused(state, JACK, type="move", circle=69)
    state = act(act(state, JACK, type="move", circle=127), TABLE, type="unblock",
                circle=103, circle2=69)
    assert wc.view(state, TABLE)["closed_roads"] == []
    assert "not marked closed" in refused(state, TABLE, type="unblock", circle=69,
                                          circle2=103)


def test_marks_are_public_facts_the_deduction_uses(real):
    from companion.games.whitechapel.deduction import possible_positions

    state = act(hunting_from(real, 127), JACK, type="move", circle=103)
    state = act(state, TABLE, type="block", circle=69, circle2=103)
    state = police_pass(state)
    state = act(state, JACK, type="move", circle=min(real.normal_moves(103) - {69}))
    facts = wc.view(state, TABLE)["public_facts"]
    # Marked for Jack's second movement, and carried over to his third.
    assert facts["blocked"] == [[69, 103, 2], [69, 103, 3]]
    unmarked = {**facts, "blocked": []}
    assert possible_positions(real, facts) <= possible_positions(real, unmarked)
    assert wc_state._location(state["nights"][0]) in possible_positions(real, facts)


def test_without_a_board_there_are_no_marks():
    state = wc.setup(wc.default_options(), ["J", "A"], random.Random(1))
    state = {**state, "phase": "police", "hideout": 90}
    assert "block" not in wc.actions(state, TABLE)
    assert refused(state, TABLE, type="block", circle=1, circle2=2) == \
        "That is not something you can do right now."


# --- the victim after waiting -----------------------------------------------------------

def test_a_kill_after_waiting_is_within_reach_of_a_marked_woman(real):
    """Hell 6: each wretched "must move along dotted lines to an adjacent,
    unoccupied numbered circle". After k waits the victim stands within k roads
    of a marked woman's circle; two roads away at time II is refused."""
    state = board_game(real)
    state = act(state, JACK, type="hideout", circle=90)
    state = act(state, JACK, type="women", circles=" ".join(map(str, WOMEN)))
    state = act(state, head(state), type="patrols_placed")
    state = act(state, JACK, type="wait")
    state = act(state, head(state), type="wretched_moved")
    one = real.circles_within(WOMEN, 1)
    two = sorted(real.circles_within(WOMEN, 2) - one)
    message = refused(state, JACK, type="kill", circle=two[0])
    assert message == (f"No wretched can be on {two[0]}: after 1 wait each wretched has moved "
                       "at most 1 circle along the dotted lines from the marked women's "
                       "circles (3, 21, 27, 65, 84), and "
                       f"{two[0]} is further.")
    assert act(state, JACK, type="kill", circle=82)["phase"] == "jack"  # 65's neighbour
    state = act(state, JACK, type="wait")
    state = act(state, head(state), type="wretched_moved")
    assert act(state, JACK, type="kill", circle=two[0])["phase"] == "jack"


def test_without_a_board_a_kill_after_waiting_is_anywhere():
    state = wc.setup(wc.default_options(), ["J", "A"], random.Random(1))
    state = act(state, JACK, type="hideout", circle=90)
    state = act(state, JACK, type="women", circles="3 21 27 65 84")
    state = act(state, TABLE, type="patrols_placed")
    state = act(state, JACK, type="wait")
    state = act(state, TABLE, type="wretched_moved")
    assert act(state, JACK, type="kill", circle=150)["phase"] == "jack"
