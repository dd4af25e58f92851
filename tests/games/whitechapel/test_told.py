"""What the detectives tell the companion's Jack of the board (issue 39): the new patrol
tokens' crossings from the second night, each wretched's move (Hell 6), what a turned
token shows (Hell 7); the kill on a wretched, the alarm on the tokens. Rulebook
sequences and the moves it forbids."""

from __future__ import annotations

import random

from companion.games.whitechapel import jack_ai
from companion.games.whitechapel import rules as wc
from companion.games.whitechapel.state import _patrols_standing
from tests.support.whitechapel_play import act, board_game, head, refused


def at_the_kill(board, level="hard"):
    """A companion table at Hell 5 of night 1, the patrols placed (the companion has
    placed its women)."""
    state = board_game(board, 4, police_map="on", jack=level)
    rng = random.Random(1)
    state = wc.apply(state, wc.JACK, {"type": "hideout", "circle": "1"}, rng)
    state = wc.apply(state, wc.JACK, wc.companion_action(state, rng), rng)
    return act(state, head(state), type="patrols_placed")


def test_the_first_nights_patrols_are_the_seven_yellow_crossings(real):
    state = at_the_kill(real)
    patrols = state["nights"][0]["patrols"]
    assert sorted(p["crossing"] for p in patrols) == sorted(real.police_starts)
    assert all(p["shows"] is None for p in patrols)
    assert state["nights"][0]["wretched"] == sorted(state["nights"][0]["women"])


def test_a_wait_the_wretched_moved_a_token_turned_then_the_kill(real):
    state = act(at_the_kill(real), wc.JACK, type="wait")
    night = state["nights"][0]
    assert state["phase"] == "suspense" and night["time"] == 2
    # Hell 6: only along a road, to a free circle, never next to a patrol token.
    start = wc._wretched_to_move(state)[0]
    allowed = wc._wretched_moves(state, start)
    watched = {c for x in real.police_starts for c in real.circles_next_to(x)}
    assert allowed and not set(allowed) & watched
    far = next(c for c in real.numbers if c not in allowed and c != start)
    assert "can go to" in refused(state, head(state), type="wretched", circle=start,
                                  circle2=far)
    refused(state, wc.JACK, type="wretched", circle=start, circle2=allowed[0])
    while state["phase"] == "suspense":
        start = wc._wretched_to_move(state)[0]
        state = act(state, head(state), type="wretched", circle=start,
                    circle2=wc._wretched_moves(state, start)[0])
    # Hell 7: Jack turns a token over; the Head says what it shows.
    assert state["phase"] == "ready" and wc.actions(state, wc.JACK) == ["reveal"]
    token = sorted(real.police_starts)[0]
    state = act(state, wc.JACK, type="reveal", crossing=token)
    assert state["phase"] == "turned" and wc.actions(state, head(state)) == ["turned"]
    state = act(state, head(state), type="turned", shows="fake")
    assert state["phase"] == "blood"
    assert token not in _patrols_standing(state["nights"][0])
    # The kill is on a wretched where he stands now, not where the women were.
    wretched = state["nights"][0]["wretched"]
    gone = next((c for c in state["nights"][0]["women"] if c not in wretched), None)
    if gone is not None:
        assert "No wretched stands" in refused(state, wc.JACK, type="kill", circle=gone)
    state = act(state, wc.JACK, type="kill", circle=wretched[0])
    assert state["phase"] == "alarm"
    # Hell 9: the fake patrol left the board; no policeman goes there.
    colour = "blue"
    assert "replaces his own patrol token" in refused(
        state, state["policemen"][colour], type="place", policeman=colour, crossing=token)


def test_a_turned_colour_takes_its_own_policeman_only(real):
    state = act(at_the_kill(real), wc.JACK, type="wait")
    while state["phase"] == "suspense":
        start = wc._wretched_to_move(state)[0]
        state = act(state, head(state), type="wretched", circle=start,
                    circle2=wc._wretched_moves(state, start)[0])
    token = sorted(real.police_starts)[1]
    state = act(state, wc.JACK, type="reveal", crossing=token)
    state = act(state, head(state), type="turned", shows="red")
    assert "No patrol token lies face down" in refused(
        {**state, "phase": "ready"}, wc.JACK, type="reveal", crossing=token)
    assert "already face up" in refused(
        {**state, "phase": "turned"}, head(state), type="turned", shows="red")
    state = act(state, wc.JACK, type="kill", circle=state["nights"][0]["wretched"][0])
    blue = state["policemen"]["blue"]
    assert "replaces his own" in refused(state, blue, type="place", policeman="blue",
                                         crossing=token)
    red = state["policemen"]["red"]
    other = next(x for x in real.police_starts if x != token)
    assert "replaces his own" in refused(state, red, type="place", policeman="red",
                                         crossing=other)
    assert act(state, red, type="place", policeman="red", crossing=token)


def test_from_the_second_night_the_head_taps_the_two_new_tokens(real):
    state = at_the_kill(real)
    state = act(state, wc.JACK, type="kill", circle=state["nights"][0]["wretched"][0])
    starts = sorted(real.police_starts)
    # The policemen end night 1 on five of the seven yellow crossings, then Jack escapes.
    for colour, x in zip(wc.POLICEMEN, starts, strict=False):
        state = act(state, state["policemen"][colour], type="place", policeman=colour,
                    crossing=x)
    state.update(night=2, phase="patrols")
    choices = wc._new_patrol_crossings(state)
    assert choices == starts[5:]
    # Only two choices: nothing to tap, the app knows all seven.
    assert wc.actions(state, head(state)) == ["patrols_placed"]
    # Green ended the night on a crossing no token stood on: three yellow ones are free.
    state["cops"]["at"]["green"] = next(x for x in sorted(real.crossing_ids)
                                        if x not in real.police_starts)
    choices = wc._new_patrol_crossings(state)
    assert len(choices) == 3 and wc.actions(state, head(state)) == ["patrol"]
    stray = state["cops"]["at"]["green"]
    assert "No patrol token can be on" in refused(state, head(state), type="patrol",
                                                 crossing=stray)
    once = act(state, head(state), type="patrol", crossing=choices[0])
    # A tap on a tapped crossing takes it back.
    assert act(once, head(state), type="patrol", crossing=choices[0])["nights"][1][
        "patrols"] == []
    done = act(once, head(state), type="patrol", crossing=choices[1])
    assert done["phase"] == "blood"
    assert sorted(p["crossing"] for p in done["nights"][1]["patrols"]) == sorted(
        [*choices[:2], *wc._policed(state)])


def test_the_hard_jack_waits_to_turn_over_a_token_by_his_best_victim(real):
    """A crafted Hell 5: every victim next to a face-down token, one wait allowed: the
    hard Jack waits, and then turns over the token that tells him most."""
    state = at_the_kill(real)
    known = jack_ai.knowledge(wc.view(state, wc.JACK), real)
    assert known.patrols and known.wretched and "wait" in known.actions
    x = sorted(real.police_starts)[0]
    near = sorted(real.circles_next_to(x))
    crafted = jack_ai.Knowledge(**{**known.__dict__, "wretched": tuple(near[:1]),
                                   "women": tuple(near[:1])})
    weights = jack_ai._patrol_weights(crafted)
    assert abs(weights[x] - 5 / 7) < 1e-9
    assert jack_ai.decide(crafted, "hard", random.Random(0)) == {"type": "wait"}
    ready = jack_ai.Knowledge(**{**crafted.__dict__, "phase": "ready"})
    assert jack_ai.decide(ready, "hard", random.Random(0)) == {"type": "reveal",
                                                               "crossing": str(x)}
    late = jack_ai.Knowledge(**{**crafted.__dict__, "time": 3})
    assert jack_ai.decide(late, "hard", random.Random(0))["type"] == "kill"
