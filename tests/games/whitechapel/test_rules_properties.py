"""Letters from Whitechapel: random legal games keep the sheet legal, searches
answer from the row, garbage only ever raises RuleError, and the hideout never
shows on a public view."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from companion.games.base import TABLE, RuleError
from companion.games.whitechapel import rules as wc
from companion.games.whitechapel import state as wc_state
from tests.support.contract import try_apply
from tests.support.whitechapel_walks import (
    JACK,
    board_walk,
    current,
    new_game,
    random_action,
    scenes,
)

pytestmark = pytest.mark.slow  # a long campaign: the full suite runs it

CIRCLES = range(wc.FIRST_CIRCLE, wc.LAST_CIRCLE + 1)
FAST = settings(max_examples=12, deadline=None,
                suppress_health_check=[HealthCheck.too_slow])


def check_invariants(state: dict) -> None:
    total = 0
    for night in state["nights"]:
        rules = wc.NIGHTS[night["number"]]
        kinds = [m["kind"] for m in night["moves"]]
        assert kinds.count("coach") <= rules["coaches"]
        assert kinds.count("alley") <= rules["alleys"]
        filled = wc_state._filled(night)
        assert filled <= wc.LAST_SQUARE
        assert 1 <= night["time"] <= 5
        if night["crimes"]:
            total += len(night["crimes"])
            assert len(night["crimes"]) == (2 if night["number"] == wc.DOUBLE_EVENT else 1)
        if night["escaped"]:
            assert night["moves"][-1] == {"kind": "move", "circles": [state["hideout"]]}
        for move in night["moves"]:
            if move["kind"] == "coach":
                assert len(set(move["circles"])) == 2
        path = wc_state._path(night)
        prefix_len = len(night["crimes"])
        for clue in night["clues"]:
            if not clue["false"]:
                visited = path[:prefix_len + sum(
                    len(m["circles"]) for m in night["moves"][:clue["after_move"]])]
                assert clue["circle"] in visited
        for entry in night["log"]:
            visited = path[:prefix_len + sum(
                len(m["circles"]) for m in night["moves"][:entry["after_move"]])]
            if entry["action"] == "search":
                assert entry["found"] == (entry["circle"] in visited)
            else:
                assert entry["found"] == (entry["circle"] == visited[-1])
        real = sum(1 for c in night["clues"] if not c["false"])
        assert sum(1 for c in night["clues"] if c["false"]) <= real // 5
    assert len(scenes(state)) == total
    for viewer in (JACK, TABLE, *range(1, len(state["players"]))):
        json.dumps(wc.view(state, viewer))
        json.dumps(wc.actions(state, viewer))


def play(seed: int, players: int, false_clues: bool, letters: bool, steps: int = 400,
         check: bool = True) -> tuple[dict, list]:
    r = random.Random(seed)
    state = new_game(seed, players, false_clues, letters)
    history = []
    for _ in range(steps):
        if wc.is_over(state):
            break
        actor, action = random_action(state, r)
        after = try_apply(wc, state, actor, action, random.Random(0))
        if after is None:
            continue
        history.append((actor, action))
        state = after
        if check:
            check_invariants(state)
    return state, history


@FAST
@given(seed=st.integers(0, 10**6), players=st.integers(2, 6),
       false_clues=st.booleans(), letters=st.booleans())
def test_random_legal_games_stay_legal(seed, players, false_clues, letters):
    state, history = play(seed, players, false_clues, letters)
    assert history
    if wc.is_over(state):
        view = wc.view(state, TABLE)
        assert view["outcome"]["winner"] in ("jack", "detectives")
        assert view["reveal"]["hideout"] == state["hideout"]


@FAST
@given(players=st.integers(2, 6), seed=st.integers(0, 10**6))
def test_deals_and_tiles(players, seed):
    state = new_game(seed, players, False, False)
    assert sorted(state["head_tiles"]) == sorted(wc.POLICEMEN)
    assert set(state["policemen"].values()) == set(range(1, players))
    assert wc.seat_labels(players, wc.default_options())[0] == "Jack the Ripper"


FIELD_VALUES = st.one_of(
    st.text(max_size=12), st.sampled_from(["", "0", "1", "90", "195", "196", "-5", "1e3",
                                           "  7 ", "blue", "red", "99999999999999999999"]),
    st.integers(-10**30, 10**30).map(str))
ACTION_TYPES = st.one_of(st.sampled_from(sorted(wc.HANDLERS)), st.text(max_size=8))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 120),
       actor=st.one_of(st.integers(-3, 8), st.just(TABLE), st.text(max_size=4)),
       kind=ACTION_TYPES,
       fields=st.dictionaries(st.sampled_from(["circle", "circle2", "circles", "policeman",
                                               "letter", "escape", "x"]), FIELD_VALUES))
def test_garbage_only_raises_rule_error(seed, steps, actor, kind, fields):
    state, _ = play(seed, 4, True, True, steps=steps, check=False)
    action = dict(fields, type=kind)
    after = try_apply(wc, state, actor, action, random.Random(0))
    if after is not None:
        check_invariants(after)


def replay(state: dict, history: list, hideout: int) -> dict:
    for actor, action in history:
        if action["type"] == "hideout":
            action = dict(action, circle=str(hideout))
        state = wc.apply(state, actor, action, random.Random(0))
    return state


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), other=st.integers(1, 195))
def test_the_hideout_never_shows_before_the_end(seed, other):
    played, history = play(seed, 3, False, False, steps=150, check=False)
    if wc.is_over(played):
        history = history[:-1]  # the moment before the end, when it is still secret
    first = replay(new_game(seed, 3, False, False), history, played["hideout"])
    assume(other != first["hideout"])
    try:
        second = replay(new_game(seed, 3, False, False), history, other)
    except RuleError:
        assume(False)  # Jack's moves in the first game ran into the second hideout
    assert not wc.is_over(first) and not wc.is_over(second)
    for viewer in (TABLE, 1, 2):
        assert wc.view(first, viewer) == wc.view(second, viewer)
        assert wc.actions(first, viewer) == wc.actions(second, viewer)


# --- the public facts against the board's deduction ----------------------------------

@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), false_clues=st.booleans())
def test_deduction_from_public_facts_always_holds_jack(seed, false_clues):
    from companion.games.whitechapel import deduction
    from tests.support.boardfiles import real_board

    board = real_board()
    r = random.Random(seed)
    state = new_game(seed, 3, false_clues, False)
    for _ in range(300):
        if wc.is_over(state):
            break
        actor, action = board_walk(board, state, r)
        try:
            state = wc.apply(state, actor, action, random.Random(0))
        except RuleError:
            continue
        facts = wc.view(state, TABLE)["public_facts"]
        night = current(state)
        if state["phase"] in ("jack", "police") and night["crimes"]:
            assert wc_state._location(night) in deduction.possible_positions(board, facts)
        if facts["escapes"]:
            assert state["hideout"] in deduction.candidate_hideouts(board, facts)
