"""The police's turn in the rulebook's order ("Second Part: Hunting", 2 then 3), with
the police on the map: every policeman moves 0, 1 or 2 crossings (or stays, a move of
0) before any looks for clues or arrests; then each detective speaks for his own, from
the Head of the Investigation clockwise; the turn passes to Jack when the last
policeman has acted. No detective ends, skips or acts for another's policemen; only
the host at the table screen ends the turn early (docs/RULINGS.md#letters-from-whitechapel,
"The police's turn")."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from companion.games.base import TABLE
from companion.games.whitechapel import rules as wc
from companion.games.whitechapel import state as st_
from companion.games.whitechapel.board import Board
from tests.games.whitechapel.test_police_map import STARTS, placed, to_alarm
from tests.support.boardfiles import real_board
from tests.support.whitechapel_play import act, all_moved, refused

JACK = 0


def hunt(board: Board) -> dict:
    """Night 1, the police's first turn: Jack killed on 65 and moved to 66."""
    return act(placed(to_alarm(board, 65)), JACK, type="move", circle=66)


def stay(state: dict, colour: str, actor=None) -> dict:
    return act(state, state["policemen"][colour] if actor is None else actor,
               type="move_policeman", policeman=colour, crossing=state["cops"]["at"][colour])


def test_no_search_or_arrest_before_every_policeman_moved_or_stayed(real):
    state = hunt(real)
    head = st_._head_colour(state)
    seat = state["policemen"][head]
    assert wc.actions(state, seat) == ["move_policeman"]
    near = real.circles_next_to(STARTS[head])
    for kind in ("search", "arrest"):
        message = refused(state, seat, type=kind, policeman=head, circle=min(near))
        assert message.startswith("First every policeman moves or stays (Hunting 2, then 3)")
    assert "First every policeman" in refused(state, seat, type="done", policeman=head)
    # Four stay: the fifth still has his move, and still nobody searches.
    last = st_._police_order(state)[-1]
    for colour in st_._police_order(state)[:-1]:
        state = stay(state, colour)
    assert st_._moves_left(state) == [last]
    assert "search" not in wc.actions(state, seat)
    waited = refused(state, seat, type="search", policeman=head, circle=min(near))
    assert state["players"][state["policemen"][last]] in waited and last in waited
    # His move ends Hunting 2: the Head speaks first.
    state = stay(state, last)
    assert st_._moves_left(state) == [] and st_._speaking(state) == head
    assert "search" in wc.actions(state, seat)


def test_a_policeman_who_stays_is_one_tap_and_a_wrong_tap_is_mended(real):
    state = hunt(real)
    yellow = state["policemen"]["yellow"]
    state = act(state, yellow, type="move_policeman", policeman="yellow", crossing=108)
    assert "yellow" not in st_._moves_left(state)
    # Tapped again, from where he stood when the turn began: back to 0 crossings.
    state = act(state, yellow, type="move_policeman", policeman="yellow", crossing=107)
    assert state["cops"]["at"]["yellow"] == 107 and "yellow" not in st_._moves_left(state)
    assert len(st_._moves_left(state)) == 4


def test_no_detective_ends_the_turn_or_acts_for_anothers_policemen(real):
    state = all_moved(hunt(real))
    for seat in (1, 2):
        assert "end_turn" not in wc.actions(state, seat)
        assert refused(state, seat, type="end_turn") == (
            "Each detective's policemen move and act for themselves: only the host at the "
            "table screen can end the police's turn early.")
        for colour in wc.POLICEMEN:
            if state["policemen"][colour] != seat:
                assert "not yours" in refused(state, seat, type="done", policeman=colour)
    assert "end_turn" in wc.actions(state, TABLE)


def test_the_host_ends_the_turn_for_a_detective_whose_phone_died(real):
    state = hunt(real)
    order = st_._police_order(state)
    first = order[0]
    state = all_moved(state)
    state = act(state, state["policemen"][first], type="done", policeman=first)
    state = act(state, TABLE, type="end_turn")
    assert state["phase"] == "jack"
    forgone = [c for c in wc.POLICEMEN if c != first]
    assert state["nights"][0]["overrides"] == [{"after_move": 1, "forgone": forgone}]
    said = "The host ended the police's turn."
    for viewer in (TABLE, JACK, 1, 2):
        view = wc.view(state, viewer)
        shown = view["prompt"] if viewer == TABLE else view["now"]["detail"]
        assert said in str(shown), viewer
    assert str(wc.view(state, 1)["events"][0]).startswith(
        "Night 1: the host ended the police's turn; ")
    # Said until Jack has moved, in the events for good.
    state = act(state, JACK, type="move", circle=65)
    assert said not in str(wc.view(state, 1)["now"]["detail"])
    assert any("the host ended" in str(e) for e in wc.view(state, 1)["events"])


def test_the_turn_passes_to_jack_when_the_last_policeman_has_acted(real):
    state = all_moved(hunt(real))
    for colour in st_._police_order(state):
        assert state["phase"] == "police"
        state = act(state, state["policemen"][colour], type="done", policeman=colour)
    assert state["phase"] == "jack" and "overrides" not in state["nights"][0]


# --- any sequence of the detectives' taps --------------------------------------------------

BOARD = real_board()
START = hunt(BOARD)


def _detective_taps(state: dict, draw) -> tuple[int, dict[str, str]]:
    """One action a detective's phone offers now, drawn by hypothesis."""
    seat = draw(st.sampled_from([1, 2]))
    offered = wc.actions(state, seat)
    view = wc.view(state, TABLE)
    mine = [c for c in wc.POLICEMEN if state["policemen"][c] == seat]
    colour = draw(st.sampled_from(mine))
    if "move_policeman" in offered:
        crossing = draw(st.sampled_from(view["cops"]["choices"][colour]))
        return seat, {"type": "move_policeman", "policeman": colour, "crossing": str(crossing)}
    kind = draw(st.sampled_from(["search", "arrest", "done", "end_turn"]))
    near = view["cops"]["next_to"][colour] or [1]
    return seat, {"type": kind, "policeman": colour, "circle": str(draw(st.sampled_from(near)))}


# No shrinking: a failing sequence is read from its draws (shrinking 40 taps is slow).
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow],
          phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(st.data())
def test_no_tap_of_one_detective_costs_another_policeman_his_move_or_action(data):
    """Whatever the detectives tap (legal or not), the searches begin only once all
    five policemen have moved or stayed, and the turn passes to Jack only once all five
    have acted (or Jack is caught)."""
    state = START
    for _ in range(40):
        seat, action = _detective_taps(state, data.draw)
        try:
            after = wc.apply(state, seat, action, random.Random(0))
        except wc.RuleError:
            continue
        turn = state["police"]
        if after["phase"] == "police" and not st_._moves_left(after):
            assert set(after["police"]["moved"]) == set(wc.POLICEMEN)
        if after["police"]["done"] or after["police"]["searching"]:
            assert set(turn["moved"]) == set(wc.POLICEMEN)
        if after["phase"] == "jack":
            # Only the last policeman's own action hands over to Jack.
            acted = set(turn["done"]) | {turn["searching"], action["policeman"]}
            assert acted - {None} == set(wc.POLICEMEN)
            assert "overrides" not in after["nights"][0]
            return
        if wc.is_over(after):
            assert action["type"] == "arrest"
            return
        state = after
