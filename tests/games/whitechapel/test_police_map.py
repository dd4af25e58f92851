"""Police on the map (table option, board mode): the detectives enter where each
policeman stands; the companion checks the police's moves, where they search and
arrest, which roads Jack may walk and the deduction's use of it. Quotes are from
the "Letters from Whitechapel" rulebook; rulings: docs/RULINGS.md#letters-from-whitechapel,
"Police on the map"."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.base import TABLE, RuleError
from companion.games.whitechapel import rules as wc
from companion.games.whitechapel.board import Board
from companion.games.whitechapel.deduction import possible_positions
from companion.games.whitechapel.policemap import crossing_names
from tests.support.boardfiles import real_board, tiny_board
from tests.support.whitechapel_play import act, all_moved, board_game, head, refused, turn_of

JACK = 0
WOMEN = (3, 21, 27, 65, 84)
STARTS = {"blue": 44, "yellow": 107, "brown": 101, "red": 119, "green": 186}



def game(board: Board, players: int = 3, **form: str) -> dict:
    return board_game(board, players, **{"police_map": "on", **form})


def to_alarm(board: Board, crime: int) -> dict:
    """Night 1: Jack waits until a wretched can have walked to ``crime``, kills there."""
    state = game(board)
    state = act(state, JACK, type="hideout", circle=90)
    state = act(state, JACK, type="women", circles=" ".join(map(str, WOMEN)))
    state = act(state, head(state), type="patrols_placed")
    waits = next(k for k in range(5) if crime in board.circles_within(WOMEN, k))
    for _ in range(waits):
        state = act(state, JACK, type="wait")
        state = act(state, head(state), type="wretched_moved")
    return act(state, JACK, type="kill", circle=crime)


def placed(state: dict, starts=STARTS) -> dict:
    """Each detective places his own (docs/RULINGS.md#letters-from-whitechapel,
    "Policemen at the same time")."""
    for colour, crossing in starts.items():
        state = act(state, state["policemen"][colour], type="place", policeman=colour,
                    crossing=crossing)
    return state


# --- the option ------------------------------------------------------------------------

def test_the_option_needs_a_board_with_crossings(real):
    with pytest.raises(RuleError, match="Police on the map needs a board"):
        wc.parse_options({"police_map": "on"}, 3)
    with pytest.raises(RuleError, match="needs a board with its police crossings"):
        game(tiny_board())
    state = game(real)
    assert wc.view(state, TABLE)["options"]["police_map"] is True
    assert wc.form_from(wc.parse_options({"board": real.name, "police_map": "on"}, 3))[
        "police_map"] == "on"


# --- the alarm: the policemen replace their patrol tokens ---------------------------------

def test_at_the_alarm_the_policemen_stand_where_patrol_tokens_can_be(real):
    """Hell 3: "On the first night, he places the seven police patrol tokens on the
    yellow-bordered crossings"; Hell 9: "They replace the color-marked tokens with
    the corresponding Policeman pawns"."""
    state = to_alarm(real, 65)
    assert state["phase"] == "alarm"
    assert wc.actions(state, JACK) == [] and wc.actions(state, 1) == ["place"]
    assert refused(state, 1, type="place", policeman="blue", crossing=109) == (
        "No patrol token can be on the crossing between 99, 100 and 120: tonight they "
        "stand on the yellow-bordered crossings (the ones the map offers).")
    assert "That crossing is not on the board" in refused(
        state, 1, type="place", policeman="blue", crossing=999)
    state = act(state, 1, type="place", policeman="blue", crossing=44)
    assert "The blue policeman stands on the crossing between 29, 30 and 50" in refused(
        state, 2, type="place", policeman="red", crossing=44)
    assert "not yours to place" in refused(state, 1, type="place", policeman="red",
                                           crossing=75)
    state = act(state, 1, type="place", policeman="blue", crossing=75)  # a wrong tap, put right
    assert wc.view(state, TABLE)["cops"]["at"]["blue"] == 75
    state = placed(state)
    assert state["phase"] == "jack"
    assert wc.view(state, JACK)["cops"]["at"] == STARTS


def test_from_the_second_night_they_may_also_stand_where_they_ended(real):
    """Hell 3: "Five of the tokens must be placed on the positions that were occupied
    by the Policeman pawns at the end of the previous night"."""
    state = placed(to_alarm(real, 65))
    state["cops"]["at"]["blue"] = 109  # where the night left him
    state["phase"], state["night"] = "blood", 2
    state["nights"][1].update(women=[3], revealed=True)
    state = act(state, JACK, type="kill", circle=3)
    assert state["phase"] == "alarm" and state["cops"]["before"] == sorted(
        [109, *list(STARTS.values())[1:]])
    moved = act(state, TABLE, type="place", policeman="red", crossing=109)
    assert moved["cops"]["at"]["red"] == 109
    assert "where the policemen stood at the end of last night" in refused(
        state, TABLE, type="place", policeman="red", crossing=108)


# --- Jack's roads -------------------------------------------------------------------------

def test_a_policed_crossing_closes_the_roads_through_it(real):
    """Hunting 1: "He may not move over a crossing occupied by a policeman pawn";
    a Coach "can move through Crossings containing policeman pawns"."""
    state = placed(to_alarm(real, 120))
    closed = wc.view(state, JACK)["closed_roads"]
    assert [119, 120] in closed and [98, 120] in closed
    assert refused(state, JACK, type="move", circle=119) == (
        "A policeman blocks the road from 120 to 119.")
    assert "block" not in wc.actions(state, TABLE)  # no hand marks with the option
    first = next(n for n in sorted(real.neighbours(120)) if n != 119 and 119 in real.neighbours(n))
    assert act(state, JACK, type="coach", circle=first, circle2=119)["phase"] == "police"
    after = act(state, JACK, type="move", circle=101 if real.is_road(120, 101) else 99)
    facts = wc.view(after, TABLE)["public_facts"]
    assert facts["police"] == [sorted(STARTS.values())]
    assert 120 not in possible_positions(real, facts)


# --- the police's move ---------------------------------------------------------------------

def test_a_policeman_moves_zero_one_or_two_crossings_never_onto_another(real):
    """Hunting 2: "a policeman can move up to a distance of two (0, 1, or 2)
    crossings" and "cannot end its move in the same crossing as another Policeman
    pawn"."""
    state = act(placed(to_alarm(real, 65)), JACK, type="move", circle=66)
    assert state["phase"] == "police"
    yellow = state["policemen"]["yellow"]
    other = 1 if yellow == 2 else 2
    assert "move_policeman" in wc.actions(state, yellow)
    far = sorted(real.police_moves(107, 3) - real.police_moves(107))[0]
    assert refused(state, yellow, type="move_policeman", policeman="yellow", crossing=far) == (
        "The yellow policeman started on the crossing between 118, 119 and 120: he moves "
        f"up to two crossings (0, 1 or 2), and {crossing_names(real)[far]} is further.")
    assert "not yours to move" in refused(state, other, type="move_policeman",
                                          policeman="yellow", crossing=109)
    state = act(state, yellow, type="move_policeman", policeman="yellow", crossing=108)
    state = act(state, yellow, type="move_policeman", policeman="yellow", crossing=109)
    assert wc.view(state, TABLE)["cops"]["at"]["yellow"] == 109
    assert wc.view(state, TABLE)["cops"]["choices"]["yellow"] == sorted(real.police_moves(107))
    # No search before every policeman has moved or stayed (Hunting 2, then 3) ...
    assert "First every policeman moves or stays" in refused(
        state, yellow, type="search", policeman="yellow", circle=99)
    # ... then the clues phase begins: no more moves this turn.
    state = all_moved(state)
    assert "move_policeman" not in wc.actions(state, yellow)
    assert "Every policeman has moved" in refused(state, TABLE, type="move_policeman",
                                                  policeman="blue", crossing=44)
    state = act(turn_of(state, "yellow"), yellow, type="search", policeman="yellow", circle=99)
    assert wc.view(state, TABLE)["cops"]["at"]["yellow"] == 109


def test_no_refusal_names_a_crossing_by_a_number(real):
    """The real board prints no number on a crossing (issue 22): every refusal a
    detective reads about one names it in words, whichever crossing he tapped."""
    numbered = re.compile(r"crossings? \d")
    alarm = to_alarm(real, 65)
    alarm2 = act(alarm, 1, type="place", policeman="blue", crossing=44)
    hunt = act(placed(alarm), JACK, type="move", circle=66)
    yellow = hunt["policemen"]["yellow"]
    far = sorted(real.police_moves(107, 3) - real.police_moves(107))
    moved = all_moved(act(hunt, TABLE, type="move_policeman", policeman="yellow", crossing=109))
    messages = [
        refused(alarm, 1, type="place", policeman="blue", crossing=109),
        refused(alarm, 1, type="place", policeman="blue", crossing=99999),
        refused(alarm2, 2, type="place", policeman="red", crossing=44),
        refused(moved, TABLE, type="search", policeman="yellow", circle=83),
        refused(moved, TABLE, type="arrest", policeman="yellow", circle=83),
        refused(hunt, TABLE, type="move_policeman", policeman="yellow", crossing=44),
        *(refused(hunt, yellow, type="move_policeman", policeman="yellow", crossing=x)
          for x in far[:5]),
    ]
    for message in messages:
        assert not numbered.search(message), message
    names = crossing_names(real)
    assert names[109] in messages[0] and names[44] in messages[2]
    assert names[107] in messages[-1] and names[far[4]] in messages[-1]


def test_search_and_arrest_only_next_to_the_policemans_crossing(real):
    """Clues and Suspicion: "Numbered circles 99, 100, and 120 are adjacent to the
    yellow Policeman pawn. Circle 83 is not adjacent, because the route to 83 is
    interrupted by a Crossing.\""""
    state = act(placed(to_alarm(real, 65)), JACK, type="move", circle=66)
    state = all_moved(act(state, TABLE, type="move_policeman", policeman="yellow",
                          crossing=109))
    message = refused(state, TABLE, type="search", policeman="yellow", circle=83)
    assert message == ("The yellow policeman stands on the crossing between 99, 100 and 120: "
                       "he can look for clues or arrest only on 99, 100, 120.")
    assert refused(state, TABLE, type="arrest", policeman="yellow", circle=83) == message
    assert wc.view(state, 1)["cops"]["next_to"]["yellow"] == [99, 100, 120]
    state = act(state, TABLE, type="search", policeman="yellow", circle=100)
    assert state["nights"][0]["log"][-1]["circle"] == 100


# --- soundness over random nights -------------------------------------------------------

def _random_turn(state: dict, board: Board, r: random.Random) -> dict:
    """One phase of a random legal game with police on the map."""
    phase = state["phase"]
    view = wc.view(state, TABLE)
    if phase == "alarm":
        colour = r.choice([c for c in wc.POLICEMEN if view["cops"]["at"][c] is None])
        return act(state, TABLE, type="place", policeman=colour,
                   crossing=r.choice(view["cops"]["choices"][colour]))
    if phase == "police":
        if "move_policeman" in view["actions"]:
            for colour in r.sample(wc.POLICEMEN, 5):
                choices = wc.view(state, TABLE)["cops"]["choices"][colour]
                state = act(state, TABLE, type="move_policeman", policeman=colour,
                            crossing=r.choice(choices))
        for colour in r.sample(wc.POLICEMEN, r.randint(0, 3)):
            near = wc.view(state, TABLE)["cops"]["next_to"][colour]
            if not near:
                continue  # a crossing with no circle next to it
            kind = "arrest" if r.random() < 0.2 else "search"
            try:
                state = act(state, TABLE, type=kind, policeman=colour, circle=r.choice(near))
            except RuleError:
                continue  # a clue already there, or searched twice: the walker's miss
            if wc.is_over(state):
                return state
        return act(state, TABLE, type="end_turn") if state["phase"] == "police" else state
    jack = wc.view(state, JACK)
    here = jack["jack"]["location"]
    ends = sorted(board.normal_moves(here, jack["closed_roads"]))
    ways = [("move", [n]) for n in ends]
    if "coach" in jack["actions"]:
        ways += [("coach", list(route)) for route in sorted(board.coach_routes(here))]
    if "alley" in jack["actions"]:
        ways += [("alley", [n]) for n in sorted(board.alley_moves(here))]
    if jack["jack"]["hideout"] in ends and r.random() < 0.3:
        return act(state, JACK, type="escape")
    if not ways:
        return act(state, JACK, type="trapped")
    kind, route = r.choice(ways)
    fields = {"circle": route[0], **({"circle2": route[1]} if len(route) == 2 else {})}
    return act(state, JACK, type=kind, **fields)


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), crime=st.sampled_from(WOMEN))
def test_jack_is_always_where_the_deduction_says_he_can_be(seed, crime):
    """Random nights with random police: after every movement Jack's true circle
    is in the set the detectives see, from public facts only."""
    board = real_board()
    r = random.Random(seed)
    state = to_alarm(board, crime)
    for _ in range(120):
        if wc.is_over(state) or state["phase"] not in ("alarm", "jack", "police"):
            break
        state = _random_turn(state, board, r)
        if state["phase"] == "police" and state["night"] == 1:
            truth = wc.view(state, JACK)["jack"]["location"]
            facts = wc.view(state, TABLE)["public_facts"]
            assert truth in possible_positions(board, facts)
            # Every normal move Jack made was along a road no policeman closed.
            night = state["nights"][0]
            here = night["crimes"][-1]
            for police, move in zip(facts["police"], night["moves"], strict=True):
                assert len(police) == 5
                if move["kind"] == "move":
                    road = tuple(sorted((here, move["circles"][0])))
                    assert road not in board.closed_roads(police)
                here = move["circles"][-1]
