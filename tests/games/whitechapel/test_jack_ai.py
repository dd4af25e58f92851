"""The companion plays Jack (issue 39): its decisions read only what a human Jack knows,
are the same for the same state and seed, and the rules accept every one of them."""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.whitechapel import jack_ai
from companion.games.whitechapel import rules as wc
from tests.support.whitechapel_play import act, board_game, the_head_tells


def companion_game(board, level="hard", players=4, **form):
    return board_game(board, players, police_map="on", jack=level, **form)


def play_companion(state, rng):
    """Every decision the companion has to take now, applied."""
    while (seat := wc.companion_seat(state)) is not None:
        state = wc.apply(state, seat, wc.companion_action(state, rng), rng)
    return state


def police_stand_still(state, board):
    """The detectives' part, as plainly as the rules allow: the patrols placed, the
    policemen on the first free crossings they may take, nobody moving or searching."""
    phase = state["phase"]
    told = the_head_tells(state, random.Random(0))
    if told is not None:
        return act(state, told[0], **told[1])
    if phase == "alarm":
        for colour in wc.POLICEMEN:
            if state["phase"] == "alarm":
                starts = wc.view(state, wc.TABLE)["cops"]["choices"][colour]
                free = [x for x in starts if x not in state["cops"]["at"].values()]
                state = act(state, state["policemen"][colour], type="place",
                            policeman=colour, crossing=free[0])
        return state
    assert phase == "police"
    if wc._moves_left(state):
        colour = wc._moves_left(state)[0]
        return act(state, state["policemen"][colour], type="move_policeman",
                   policeman=colour, crossing=state["cops"]["at"][colour])
    colour = wc._speaking(state)
    return act(state, state["policemen"][colour], type="done", policeman=colour)


def test_the_setup_page_offers_the_companion_only_with_police_on_the_map(real):
    assert wc.parse_options({"board": real.name, "police_map": "on", "jack": "hard"},
                            4)["jack"] == "hard"
    assert wc.parse_options({}, 4)["jack"] == "player"
    with pytest.raises(wc.RuleError, match="police on the map"):
        wc.parse_options({"board": real.name, "jack": "easy"}, 4)
    with pytest.raises(wc.RuleError):
        wc.parse_options({"board": real.name, "police_map": "on", "jack": "cunning"}, 4)
    assert wc.companion_seats({"police_map": True, "jack": "easy"}) == [wc.JACK]
    assert wc.companion_seats({"police_map": True, "jack": "player"}) == []
    assert wc.form_from(wc.parse_options({"board": real.name, "police_map": "on",
                                          "jack": "easy"}, 3))["jack"] == "easy"


def test_a_player_jack_is_never_played_by_the_companion(real):
    state = board_game(real, 3, police_map="on")
    assert state["companion"] is None and wc.companion_seat(state) is None


@pytest.mark.parametrize("level", jack_ai.LEVELS)
def test_the_companion_plays_setup_and_hell_and_says_where_the_women_go(real, level):
    state = play_companion(companion_game(real, level), random.Random(3))
    night = state["nights"][0]
    assert state["phase"] == "patrols" and real.is_legal_hideout(state["hideout"])
    assert len(night["women"]) == 5 and len(night["unmarked"]) == 3
    assert set(night["women"] + night["unmarked"]) <= real.red
    state = play_companion(police_stand_still(state, real), random.Random(3))
    assert state["phase"] == "alarm"
    assert state["nights"][0]["crimes"][0] in night["women"]


@pytest.mark.parametrize("level", jack_ai.LEVELS)
def test_the_companion_plays_four_nights_the_rules_accept_the_same_way_every_time(real,
                                                                                  level):
    def whole_game(seed):
        state = companion_game(real, level, false_clues="on", letters="on")
        rng = random.Random(seed)
        while not wc.is_over(state):
            state = play_companion(state, rng)
            if not wc.is_over(state):
                state = police_stand_still(state, real)
        return state

    first = whole_game(11)
    if level == "hard":
        # Policemen who never move nor search do not stop the hard Jack.
        assert first["outcome"] == {"winner": "jack", "reason": "escape", "night": 4}
        assert [len(n["crimes"]) for n in first["nights"]] == [1, 1, 2, 1]
    assert first["outcome"]["reason"] in ("escape", "square15", "no_legal_move")
    assert whole_game(11) == first


def test_what_jack_cannot_know_changes_no_decision(real):
    """Two states alike for Jack (the head tiles of nights not begun, the order the
    detectives' policemen were dealt are the same facts; tonight's and later heads are
    hidden from everyone): the same knowledge, the same decision with the same seed."""
    state = companion_game(real)
    rng = random.Random(5)
    while state["phase"] != "jack":
        if wc.companion_seat(state) is not None:
            state = wc.apply(state, wc.JACK, wc.companion_action(state, rng), rng)
        else:
            state = police_stand_still(state, real)
    twin = copy.deepcopy(state)
    later = twin["head_tiles"][state["night"]:]
    twin["head_tiles"][state["night"]:] = later[::-1]
    assert twin != state
    known = jack_ai.knowledge(wc.view(state, wc.JACK), wc.board_of(state))
    assert known == jack_ai.knowledge(wc.view(twin, wc.JACK), wc.board_of(twin))
    for seed in range(5):
        assert (wc.companion_action(state, random.Random(seed))
                == wc.companion_action(twin, random.Random(seed)))


def test_the_decision_reads_nothing_but_the_knowledge(real):
    """The AI is handed a Knowledge, never a state: a state is refused outright."""
    state = play_companion(companion_game(real), random.Random(1))
    with pytest.raises((AttributeError, TypeError)):
        jack_ai.decide(state, "hard", random.Random(1))  # type: ignore[arg-type]


def test_trapped_when_no_movement_is_left(real):
    state = play_companion(companion_game(real, "easy"), random.Random(2))
    known = jack_ai.knowledge(wc.view(state, wc.JACK), real)
    stuck = jack_ai.Knowledge(**{**known.__dict__, "phase": "jack", "location": 1,
                                 "actions": ("move", "escape", "trapped"),
                                 "closed": frozenset(tuple(sorted((1, n)))
                                                     for n in real.neighbours(1))})
    assert jack_ai.decide(stuck, "hard", random.Random(0)) == {"type": "trapped"}


def random_police(state, board, r):
    """Some legal action of the detectives, at random (the rules refusing any of it
    would be a fault of this helper: it reads the choices the view offers)."""
    public = wc.view(state, wc.TABLE)
    phase = state["phase"]
    told = the_head_tells(state, r)
    if told is not None:
        return told
    cops = public["cops"]
    if phase == "alarm":
        colour = r.choice([c for c in wc.POLICEMEN if cops["at"][c] is None])
        return state["policemen"][colour], {"type": "place", "policeman": colour,
                                             "crossing": str(r.choice(cops["choices"][colour]))}
    if public["police_moving"]:
        colour = public["police_moving"][0]
        return state["policemen"][colour], {
            "type": "move_policeman", "policeman": colour,
            "crossing": str(r.choice(cops["choices"][colour]))}
    colour = wc._speaking(state)
    seat = state["policemen"][colour]
    near = sorted(set(cops["next_to"][colour]) - set(public["clues"])
                  - set(public["police_searched"]))
    roll = r.random()
    if near and roll < 0.6:
        return seat, {"type": "search", "policeman": colour, "circle": str(r.choice(near))}
    if near and roll < 0.7 and state["police"]["searching"] != colour:
        return seat, {"type": "arrest", "policeman": colour, "circle": str(r.choice(near))}
    return seat, {"type": "done", "policeman": colour}


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), level=st.sampled_from(jack_ai.LEVELS),
       false_clues=st.booleans(), letters=st.booleans(), players=st.integers(2, 6))
def test_the_rules_never_refuse_the_companion(real, seed, level, false_clues, letters,
                                              players):
    """Random legal police play over whole games, every option: each decision of the
    companion is accepted, and taken again from the same state and seed it is the same."""
    state = companion_game(real, level, players, false_clues="on" if false_clues else "",
                           letters="on" if letters else "")
    r = random.Random(seed)
    while not wc.is_over(state):
        if wc.companion_seat(state) is not None:
            decision = wc.companion_action(state, random.Random(seed))
            assert decision == wc.companion_action(state, random.Random(seed))
            state = wc.apply(state, wc.JACK, decision, r)   # a RuleError fails the test
        else:
            actor, action = random_police(state, real, r)
            state = wc.apply(state, actor, action, r)
    assert state["outcome"]["reason"] in ("escape", "arrest", "square15", "no_legal_move")
