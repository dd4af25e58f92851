"""Wo ist Jack the Ripper: invariants over random deals, random legal games and garbage.

Rulebook: "Wo ist Jack the Ripper"; rulings: docs/RULINGS.md#wo-ist-jack-the-ripper.
"""

from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games import wo_ist_jack as game
from companion.games.base import TABLE, RuleError
from tests.support.contract import try_apply

pytestmark = pytest.mark.slow  # a long campaign: the full suite runs it

FAST = settings(max_examples=60, deadline=None,
                suppress_health_check=[HealthCheck.too_slow])

counts = st.integers(game.MIN_PLAYERS, game.MAX_PLAYERS)
seeds = st.integers(0, 2**32)
# Names as a table would type them: one line each, no "=", no surrounding spaces.
story_name = st.text(
    st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp"), blacklist_characters="="),
    min_size=1, max_size=60).map(str.strip).filter(bool)


@st.composite
def options_strategy(draw):
    own = draw(st.lists(story_name.filter(lambda name: name not in game.RULEBOOK_STORIES),
                        min_size=8, max_size=8, unique=True))
    names = draw(st.permutations([*game.RULEBOOK_STORIES, *own]))
    valued = draw(st.lists(st.sampled_from(names), unique=True))
    points = {name: draw(st.integers(game.MIN_STORY_POINTS, game.MAX_STORY_POINTS))
              for name in valued}
    return draw(counts), {"story_names": list(names), "story_points": points}


def new_game(count: int, seed: int, options: dict | None = None) -> dict:
    options = options or game.default_options()
    return game.setup(options, [f"Reporter {n}" for n in range(count)], random.Random(seed))


def viewers(state: dict) -> list:
    return [TABLE, *range(len(state["players"]))]


WINDOW_START = 1_000
WINDOW_END = WINDOW_START + game.PRINT_WINDOW_SECONDS


def legal_move(state: dict, rnd: random.Random) -> tuple[object, dict] | None:
    """A random move someone may make now, with legal fields, or None at the end."""
    choices = [(viewer, kind) for viewer in viewers(state)
               for kind in game.actions(state, viewer)]
    if not choices:
        return None
    # Printing often enough that games end within the example's step budget.
    printing = [choice for choice in choices if choice[1] == "print"]
    viewer, kind = rnd.choice(printing if printing and rnd.random() < 0.4 else choices)
    # The laptop's clock: inside the window for a print, a pass or Druckmaschine defekt,
    # past it for a settle.
    action = {"type": kind, "clock": str(WINDOW_END if kind == "settle" else WINDOW_START)}
    if kind == "print":
        action["story"] = state["current"]
        if state["current"] not in state["story_points"] or rnd.random() < 0.3:
            action["points"] = str(rnd.randint(game.MIN_STORY_POINTS, game.MAX_STORY_POINTS))
    elif kind == "start_player":
        action["seat"] = rnd.choice([*map(str, range(len(state["players"]))), "random"])
    elif kind == "druckmaschine" and viewer == TABLE:
        action["by"] = str(rnd.choice([seat for seat in range(len(state["players"]))
                                       if seat != state["about_to_print"]["seat"]]))
    elif kind == "u_haft":
        action["target"] = str(rnd.choice(
            [seat for seat in range(len(state["players"])) if seat != state["active"]]))
    return viewer, action


def check_invariants(state: dict) -> None:
    """What must hold after every action of a legal game."""
    count = len(state["players"])
    printed = [entry["story"] for entry in state["printed"]]
    face_up = [card for card in (state["current"], state["next"]) if card is not None]
    everything = printed + face_up + state["deck"]
    assert len(everything) == len(set(everything)) == state["stories_in_play"]
    assert set(everything) == set(state["story_names"]) - set(state["removed"])
    assert state["stories_in_play"] == {2: 8, 3: 10}.get(count, 12)
    if state["deck"]:
        assert state["next"] is not None
    if state["next"] is not None:
        assert state["current"] is not None
    assert game.is_over(state) == (state["current"] is None)
    assert all(game.MIN_STORY_POINTS <= entry["points"] <= game.MAX_STORY_POINTS
               for entry in state["printed"])
    assert all(0 <= seat < count for seat in (entry["seat"] for entry in state["printed"]))
    assert 0 <= sum(state["u_haft"]) <= game.U_HAFT_COPIES
    # One Action a turn (docs/RULINGS.md#wo-ist-jack-the-ripper, "One Action a turn"): the
    # random games play only what ``actions`` offers, so an offered card is never refused.
    turns = [entry["turn"] for entry in state["cards_played"]
             if entry["kind"] in game.ACTION_CARDS]
    assert len(turns) == len(set(turns)), "two Action cards in one turn"
    assert min(state["u_haft"]) >= 0
    if state["active"] is None:
        assert state["turn"] == 0 and not state["printed"] and not any(state["u_haft"])
        return
    assert 0 <= state["active"] < count
    if not game.is_over(state):
        assert state["u_haft"][state["active"]] == 0, "a reporter in U-Haft never plays"
    assert state["investigations"] in (2, 3)
    assert 0 <= state["prints_this_turn"] <= state["investigations"]
    team = state["reporterteam"]
    if team is not None:
        assert team["story"] == state["current"], "Reporterteam ends with its story"
    pending = state["about_to_print"]
    if pending is not None:
        assert pending["story"] == state["current"] and pending["seat"] == state["active"]
        assert pending["seat"] not in pending["passed"]
        assert len(pending["passed"]) < count - 1, "everyone passed: it is printed"
    json.dumps(state)


def expected_totals(state: dict) -> list[int]:
    """The End of the Game rule, worked out independently of the module."""
    count = len(state["players"])
    stories = [sum(1 for e in state["printed"] if e["seat"] == s) for s in range(count)]
    points = [sum(e["points"] for e in state["printed"] if e["seat"] == s) for s in range(count)]
    ahead = [s for s in range(count) if all(stories[s] > stories[o] for o in range(count)
                                            if o != s)]
    for seat in ahead:
        points[seat] += 2
    return points


@settings(FAST, max_examples=40)
@given(counts, seeds, seeds)
def test_random_legal_games_stay_legal_and_score_by_the_rulebook(count, seed, moves):
    state = new_game(count, seed)
    rnd = random.Random(moves)
    for _ in range(400):
        check_invariants(state)
        move = legal_move(state, rnd)
        if move is None:
            break
        viewer, action = move
        before = copy.deepcopy(state)
        state = game.apply(state, viewer, action, random.Random(moves))
        assert before != state
    assert game.is_over(state)
    check_invariants(state)
    result = game.score(state)
    totals = {row["seat"]: row["total"] for row in result["standings"]}
    assert [totals[seat] for seat in range(count)] == expected_totals(state)
    best = max(totals.values())
    assert result["reporters_of_the_year"] == [
        state["players"][seat] for seat in range(count) if totals[seat] == best]
    assert [row["total"] for row in result["standings"]] == sorted(totals.values(),
                                                                   reverse=True)
    for viewer in viewers(state):
        assert game.actions(state, viewer) == []
        assert game.view(state, viewer)["result"] == result


@FAST
@given(counts, seeds)
def test_deals_respect_the_card_counts(count, seed):
    state = new_game(count, seed)
    check_invariants(state)
    removed = set(game.REMOVED_STORIES.get(count, ()))
    assert set(state["removed"]) == removed
    assert len(state["deck"]) == state["stories_in_play"] - 2
    assert state["printed"] == [] and state["turn"] == 0 and state["active"] is None


@FAST
@given(options_strategy())
def test_options_round_trip_through_the_form(case):
    count, options = case
    form = game.form_from(options)
    assert all(isinstance(value, str) for value in form.values())
    assert game.parse_options(form, count) == options
    state = game.setup(options, [f"R{n}" for n in range(count)], random.Random(1))
    assert game.options_for_next_game(state) == options


garbage_text = st.one_of(st.text(max_size=30), st.sampled_from(
    ["print", "end_turn", "u_haft", "reporterteam", "pass", "settle", "-1", "0", "1", "5", "15",
     "16", "9" * 30, "1e3", " 3 ", "", "None", "table", "current", "random",
     "start_player"]))
garbage_action = st.dictionaries(
    st.sampled_from(["type", "story", "points", "target", "seat", "clock", "x"]), garbage_text,
    max_size=4)
garbage_actor = st.one_of(st.integers(-3, 8), st.sampled_from([TABLE, "host", None, True]))


@FAST
@given(counts, seeds, st.integers(0, 12), st.lists(st.tuples(garbage_actor, garbage_action),
                                                   min_size=1, max_size=12))
def test_garbage_only_ever_raises_rule_error_and_never_mutates(count, seed, warmup, attempts):
    state = new_game(count, seed)
    rnd = random.Random(seed)
    for _ in range(warmup):
        move = legal_move(state, rnd)
        if move is None:
            break
        state = game.apply(state, move[0], move[1], rnd)
    for actor, action in attempts:
        if action.get("story") == "current" and state["current"]:
            action["story"] = state["current"]
        after = try_apply(game, state, actor, action, rnd)
        if after is None:
            continue
        check_invariants(after)
        state = after
    for viewer in viewers(state):
        json.dumps(game.view(state, viewer))


@settings(FAST, max_examples=30)
@given(counts, seeds, seeds, st.integers(0, 10), st.randoms(use_true_random=False))
def test_non_interference_hidden_deck_order(count, seed, moves, keep, shuffler):
    """Two games differing only in the hidden deck order look the same to every viewer.

    The first ``keep`` cards of the hidden deck agree, so the games may go on
    through as many prints before a differing card is turned face up.
    """
    one = new_game(count, seed)
    two = copy.deepcopy(one)
    tail = two["deck"][keep:]
    shuffler.shuffle(tail)
    two["deck"][keep:] = tail
    rnd = random.Random(moves)
    # Identically seeded, as two real tables would be: only the deck differs.
    rng_one, rng_two = random.Random(seed), random.Random(seed)
    for _ in range(120):
        if one["next"] != two["next"]:
            break
        for viewer in viewers(one):
            assert game.view(one, viewer) == game.view(two, viewer)
            assert game.actions(one, viewer) == game.actions(two, viewer)
        move = legal_move(one, rnd)
        if move is None:
            break
        one = game.apply(one, move[0], move[1], rng_one)
        two = game.apply(two, move[0], move[1], rng_two)


@settings(FAST, max_examples=30)
@given(counts, seeds, seeds)
def test_a_second_action_card_in_a_turn_is_always_refused(count, seed, moves):
    """Wherever a random legal game stands, once the turn's Action card is played every
    other Action card of that turn is refused, from the phone and the table screen alike,
    and none is offered (docs/RULINGS.md#wo-ist-jack-the-ripper, "One Action a turn")."""
    state = new_game(count, seed)
    rnd = random.Random(moves)
    for _ in range(200):
        # (An action sent after a print's window first prints it: that case is the
        # window's own, tested in tests/games/test_wo_ist_jack.py.)
        if state["active"] is not None and not state["over"] \
                and state["about_to_print"] is None \
                and game.view(state, TABLE)["turn_action"] is not None:
            other = str((state["active"] + 1) % count)
            for actor in (state["active"], TABLE):
                assert not {"u_haft", "reporterteam"} & set(game.actions(state, actor))
                for action in ({"type": "u_haft", "target": other}, {"type": "reporterteam"}):
                    with pytest.raises(RuleError):
                        game.apply(state, actor, action, rnd)
        move = legal_move(state, rnd)
        if move is None:
            break
        state = game.apply(state, move[0], move[1], rnd)
