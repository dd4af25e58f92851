"""London 1888: invariants over random deals, random legal games, garbage and hidden facts.

Rulebook: "London 1888 Rulebook"; rulings: docs/RULINGS.md#london-1888.
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games import london1888 as game
from companion.games.base import TABLE, RuleError, next_seat
from tests.support.contract import try_apply

pytestmark = pytest.mark.slow  # a long campaign: the full suite runs it

FAST = settings(max_examples=40, deadline=None,
                suppress_health_check=[HealthCheck.too_slow])

counts = st.integers(game.MIN_PLAYERS, game.MAX_PLAYERS)
seeds = st.integers(0, 2**32)
card_name = st.text(st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")),
                    min_size=1, max_size=60).map(str.strip).filter(bool)


def new_game(count: int, seed: int, **options) -> dict:
    options = {**game.default_options(), **options}
    return game.setup(options, [f"Player {n}" for n in range(count)], random.Random(seed))


def viewers(state: dict) -> list:
    return [TABLE, *range(len(state["players"]))]


def random_fields(state: dict, kind: str, rnd: random.Random) -> dict:
    """Plausible form fields for ``kind``: often legal, sometimes not."""
    count = len(state["players"])
    action = {"type": kind}
    if kind in ("question", "black_market", "arrest", "release", "mark_dead"):
        action["target"] = str(rnd.randrange(count))
    if kind in ("question", "black_market"):
        face_down = [pos for pos in range(1, 6)
                     if not state["revealed"][int(action["target"])][pos - 1]]
        picks = rnd.choice([1, 1, 1, 2]) if face_down else 1
        for pos in rnd.sample(face_down or [1], min(picks, len(face_down) or 1)):
            action[f"position_{pos}"] = "on"
    elif kind == "arrest":
        action["by"] = rnd.choice(list(game.ARRESTS))
    elif kind == "mark_dead" and rnd.random() < 0.5:
        action["killer"] = str(rnd.randrange(count))
    elif kind == "record_outcome":
        action["result"] = rnd.choice(list(game.RESULTS))
        for seat in rnd.sample(range(count), rnd.randrange(3)):
            action[f"accomplice_{seat}"] = "on"
    return action


# Weights keep random games moving: rounds advance, deaths and outcomes stay rare.
WEIGHTS = {"end_turn": 6, "next_round": 6, "question": 4, "black_market": 2, "arrest": 1,
           "release": 1, "mark_dead": 0.4, "record_outcome": 0.3, "confirm_outcome": 1,
           "withdraw_outcome": 1}


def attempt(state: dict, viewer, action: dict, rnd: random.Random) -> dict:
    """The state after ``action``, or the same state when the rules refuse it."""
    try:
        return game.apply(state, viewer, action, rnd)
    except RuleError:
        return state


def random_move(state: dict, rnd: random.Random, outcomes: bool = True):
    choices = [(viewer, kind) for viewer in viewers(state)
               for kind in game.actions(state, viewer)
               if outcomes or kind != "record_outcome"]
    if not choices:
        return None
    viewer, kind = rnd.choices(choices, [WEIGHTS[kind] for _, kind in choices])[0]
    return viewer, random_fields(state, kind, rnd)


def check_invariants(before: dict, state: dict) -> None:
    """What must hold after every accepted action of a game."""
    count = len(state["players"])
    assert state["lines"] == before["lines"], "cards never move"
    assert state["deck"] == before["deck"], "the event deck never changes"
    for seat in range(count):
        assert all(state["revealed"][seat][i] or not before["revealed"][seat][i]
                   for i in range(5)), "a revealed card stays revealed"
        if not before["alive"][seat]:
            assert state["revealed"][seat] == before["revealed"][seat], "the dead never reveal"
            assert not state["alive"][seat], "the dead stay dead"
            assert state["prison"][seat] is None
    murders = sum(card["murder"] for card in state["deck"][:state["round"] - 1])
    assert murders <= game.MURDERS_TO_END
    assert 1 <= state["round"] <= game.fifth_murder_round(state["deck"]) <= 21
    if murders == game.MURDERS_TO_END:
        assert state["round"] == game.fifth_murder_round(state["deck"])
    table = game.view(state, TABLE)
    assert table["murders"] == murders
    if table["current"] is not None:
        assert state["alive"][table["current"]]
    if state["absinthe"] and state["round"] > before["round"]:
        assert state["holder"] == next_seat(count, before["holder"],
                                                 [s for s in range(count)
                                                  if not state["alive"][s]])
    summary = game.outcome_summary(state)
    if summary is not None:
        assert summary["jack"] == next(s for s, line in enumerate(state["lines"])
                                       if "jack" in line)
        assert summary["jack"] not in summary["accomplices"]
        if summary["winner"] == "innocents" or summary["how"] == "suicide":
            assert summary["discovered"]
        if summary["how"] == "fifth_murder":
            assert murders == game.MURDERS_TO_END and table["current"] is None
        assert summary["points"] == game.tournament_points(summary, count)
    for viewer in viewers(state):
        seen = game.view(state, viewer)
        json.dumps(seen)
        for seat in seen["seats"]:
            for entry in seat["line"]:
                shown = state["revealed"][seat["seat"]][entry["position"] - 1]
                assert (entry["card"] is not None) == (shown or summary is not None)


@FAST
@given(counts, seeds)
def test_deals_respect_the_split_and_the_box(count, seed):
    state = new_game(count, seed)
    suspects, false_leads = game.DEAL_PER_PLAYER[count]
    totals = Counter(card for line in state["lines"] for card in line)
    assert totals == Counter({"jack": 1, "innocent": count - 1, "suspect": suspects * count,
                              "false_lead": false_leads * count}) - Counter()
    assert all(totals[kind] <= game.BOX[kind] for kind in totals)
    assert all(len(line) == 5 and sum(card in ("jack", "innocent") for card in line) == 1
               for line in state["lines"])
    assert state["deck"][9]["murder"] and sum(c["murder"] for c in state["deck"]) == 5


@FAST
@given(counts, st.lists(card_name, min_size=20, max_size=20, unique=True), st.booleans(),
       st.sampled_from(game.CHARACTER_MODES), seeds)
def test_any_valid_options_give_a_playable_game(count, names, absinthe, mode, seed):
    form = {"murder_cards": "\n".join(names[:5]), "event_cards": "\n".join(names[5:]),
            "characters": mode}
    form.update({f"character_{seat}": name
                 for seat, name in zip(range(5, 9), game.EXTRA_CHARACTERS, strict=True)})
    if absinthe:
        form["absinthe"] = "on"
    options = game.parse_options(form, count)
    assert game.parse_options(game.form_from(options), count) == options
    state = game.setup(options, [f"P{n}" for n in range(count)], random.Random(seed))
    assert sorted(card["name"] for card in state["deck"]) == sorted(names)
    assert {card["name"] for card in state["deck"] if card["murder"]} == set(names[:5])
    assert len(set(state["characters"])) == count
    assert len(game.seat_labels(count, options)) == count
    json.dumps(game.view(state, TABLE))


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(counts, seeds, seeds, st.booleans())
def test_random_legal_games_never_reach_an_illegal_state(count, seed, moves, absinthe):
    state = new_game(count, seed, absinthe=absinthe)
    rnd = random.Random(moves)
    for _ in range(150):
        move = random_move(state, rnd)
        if move is None:
            break
        viewer, action = move
        after = try_apply(game, state, viewer, action, rnd)
        if after is None:
            continue
        check_invariants(state, after)
        state = after
    if game.is_over(state):
        assert all(game.actions(state, viewer) == [] for viewer in viewers(state))


text = st.text(max_size=30)
garbage_action = st.dictionaries(
    st.one_of(st.sampled_from(["type", "target", "by", "killer", "result", "position_1",
                               "position_9", "position_", "accomplice_0", "accomplice_x"]),
              text),
    st.one_of(text, st.sampled_from(list(game.ACTIONS) + list(game.RESULTS)
                                    + list(game.ARRESTS) + ["0", "1", "-1", "on", "99"])),
    max_size=6)
garbage_actor = st.one_of(st.sampled_from([TABLE, 0, 1, 2, 3, 7, 8, -1, "host", None, True]),
                          st.integers(), text)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(counts, seeds, st.integers(0, 40), garbage_actor, garbage_action)
def test_garbage_only_ever_raises_rule_error(count, seed, warmup, actor, action):
    state = new_game(count, seed)
    rnd = random.Random(seed)
    for _ in range(warmup):
        move = random_move(state, rnd)
        if move is None:
            break
        state = attempt(state, move[0], move[1], rnd)
    try_apply(game, state, actor, action, rnd)


def replay(state: dict, moves: list) -> list[dict]:
    """Each state along ``moves`` (accepted or refused, as the first game did)."""
    states = [state]
    for viewer, action in moves:
        state = attempt(state, viewer, action, random.Random(0))
        states.append(state)
    return states


def public_moves(state: dict, rnd: random.Random, steps: int) -> list:
    moves = []
    for _ in range(steps):
        move = random_move(state, rnd, outcomes=False)
        if move is None:
            break
        moves.append(move)
        state = attempt(state, move[0], move[1], rnd)
    return moves


def same_for(first: list[dict], second: list[dict], watchers: list) -> None:
    for one, two in zip(first, second, strict=True):
        for viewer in watchers:
            assert game.view(one, viewer) == game.view(two, viewer)
            assert game.actions(one, viewer) == game.actions(two, viewer)


# 6: tests/web/test_london1888.py's twin tests repeat it on the pages
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(counts, seeds, seeds, st.data())
def test_non_interference_positions_and_the_deck(count, seed, moves, data):
    """No viewer, the host's table screen included, can tell where unrevealed cards lie or
    what the unturned event cards are, whatever public actions are taken."""
    state = new_game(count, seed)
    moves = public_moves(state, random.Random(moves), 80)
    first = replay(state, moves)
    end = first[-1]
    twin = copy.deepcopy(state)
    for seat in range(count):
        hidden = [i for i in range(5) if not end["revealed"][seat][i]]
        order = data.draw(st.permutations(hidden))
        for index, source in zip(hidden, order, strict=True):
            twin["lines"][seat][index] = state["lines"][seat][source]
    unturned = [i for i in range(end["round"] - 1, 20) if i != 9]
    order = data.draw(st.permutations(unturned))
    for index, source in zip(unturned, order, strict=True):
        twin["deck"][index] = state["deck"][source]
    second = replay(twin, moves)
    same_for(first, second, viewers(state))
    rnd = random.Random(seed)
    for one, two in zip(first, second, strict=True):
        same_phone_refusals(one, two, rnd)


# 6: tests/web/test_london1888.py's twin tests repeat it on the pages
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(counts, seeds, seeds, st.data())
def test_non_interference_who_is_jack(count, seed, play, data):
    """Whose line holds Jack is invisible to everyone but those two players while none of
    their role cards is revealed."""
    state = new_game(count, seed)
    moves = public_moves(state, random.Random(play), 80)
    first = replay(state, moves)
    end = first[-1]
    jack = next(s for s, line in enumerate(state["lines"]) if "jack" in line)

    def role_shown(seat: int) -> bool:
        return any(shown and card in ("jack", "innocent")
                   for card, shown in zip(state["lines"][seat], end["revealed"][seat],
                                          strict=True))

    others = [seat for seat in range(count) if seat != jack and not role_shown(seat)]
    if role_shown(jack) or not others:
        return
    other = data.draw(st.sampled_from(others))
    twin = copy.deepcopy(state)
    # Only the role cards trade places, so every revealed clue card stays where it was.
    for seat, role in ((jack, "innocent"), (other, "jack")):
        index = next(i for i, card in enumerate(state["lines"][seat])
                     if card in ("jack", "innocent"))
        twin["lines"][seat][index] = role
    watchers = [TABLE, *[seat for seat in range(count) if seat not in (jack, other)]]
    second = replay(twin, moves)
    same_for(first, second, watchers)
    # Trying outcomes at the table never tells the host who Jack is, and what a phone
    # tries is refused in the same words, Jack's and the other's phone included.
    rnd = random.Random(play)
    for one, two in zip(first, second, strict=True):
        if game.is_over(one):
            break
        attempt_fields = random_fields(one, "record_outcome", rnd)
        assert refusal(one, attempt_fields) == refusal(two, attempt_fields)
        same_phone_refusals(one, two, rnd)


def refusal(state: dict, action: dict, actor=TABLE) -> str | None:
    try:
        game.apply(state, actor, action, random.Random(0))
    except RuleError as error:
        return error.message
    return None


def same_phone_refusals(one: dict, two: dict, rnd: random.Random) -> None:
    """Every seat tries a turn's action: accepted in both games or refused in the same
    words (no refusal may depend on a secret)."""
    for seat in range(len(one["players"])):
        fields = random_fields(one, rnd.choice(game.TURN_ACTIONS), rnd)
        assert refusal(one, fields, seat) == refusal(two, fields, seat)


@FAST
@given(st.sampled_from(["innocents", "jack"]),
       st.sampled_from([None, "suicide", "killed_everyone", "fifth_murder"]),
       st.integers(11, 21), st.booleans(), counts, st.data())
def test_tournament_points_give_points_only_to_the_winning_side(winner, how, murder_round,
                                                                discovered, count, data):
    jack = data.draw(st.integers(0, count - 1))
    accomplices = data.draw(st.lists(st.integers(0, count - 1), unique=True, max_size=3))
    outcome = {"winner": winner, "how": how, "murder_round": murder_round,
               "discovered": discovered, "jack": jack, "accomplices": accomplices}
    side = set(accomplices) | {jack}
    try:
        points = game.tournament_points(outcome, count)
    except RuleError:
        assert (winner == "innocents" and (how is not None or not discovered)) or (
            winner == "jack" and (how is None or (how == "suicide" and not discovered)))
        return
    assert len(points) == count
    if winner == "innocents":
        assert points == [0 if seat in side else 1 for seat in range(count)]
    else:
        value = points[jack]
        assert value in range(2, 9)
        assert points == [value if seat in side else 0 for seat in range(count)]
        assert (value >= 7) == (not discovered and how != "suicide")


def offered_buttons(state: dict, seat: int) -> list[dict]:
    """Every arrest, kill and next event card the seat's phone draws as a button now (as
    templates/games/london1888/_board.html, _death.html and _seat.html draw them: the
    sections of the actions offered)."""
    seen = game.view(state, seat)
    me, offered = seen["me"], seen["actions"]
    buttons = [{"type": "arrest", "by": way["key"], "target": str(entry["seat"])}
               for way in me["arrest_ways"] for entry in way["targets"]
               if "arrest" in offered]
    buttons += [{"type": "mark_dead", "target": str(entry["seat"])}
                for entry in me["kill_targets"] if "mark_dead" in offered]
    if "next_round" in offered:
        buttons.append({"type": "next_round"})
    return buttons


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(counts, seeds, seeds, st.booleans())
def test_a_button_a_phone_offers_is_never_refused(count, seed, moves, absinthe):
    """Along random legal games, every arrest button (each way lists only whom it may
    arrest: docs/RULINGS.md#london-1888, "Protected from arrest"), every kill and the next
    event card offered to a phone is accepted when tapped: ``actions`` and ``_refusal``
    agree, and no protected seat is ever offered."""
    state = new_game(count, seed, absinthe=absinthe)
    rnd = random.Random(moves)
    for _ in range(40):
        for seat in range(count):
            for button in offered_buttons(state, seat):
                assert refusal(state, button, seat) is None, (seat, button)
        move = random_move(state, rnd)
        if move is None:
            break
        state = attempt(state, move[0], move[1], rnd)
