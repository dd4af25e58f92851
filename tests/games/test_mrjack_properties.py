"""Mr. Jack: invariants of random legal games, garbage input, and non-interference.

Non-interference: two games that differ only in a hidden fact (Jack's alibi, the
order of the alibi deck, a draft hand and the choice made from it), played with
the same public actions, look identical (``view`` and ``actions``) to every
viewer not entitled to that fact.
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import mrjack
from companion.games.base import TABLE, RuleError
from tests.support.contract import try_apply

pytestmark = pytest.mark.slow  # a long campaign: the full suite runs it

JACK, DETECTIVE = mrjack.JACK, mrjack.DETECTIVE
VIEWERS = (JACK, DETECTIVE, TABLE)
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


# --- a random player --------------------------------------------------------------

def plan(state: dict, rng: random.Random, forbid: tuple[str, ...] = ()) -> tuple | None:
    """A random legal move (actor, kind, abstract choice), made only from what the actor sees.

    Choices are indices into the lists of the actor's own view, so that the same plan
    can be replayed in a twin game whose hidden cards differ.
    """
    options = [(actor, kind) for actor in VIEWERS for kind in mrjack.actions(state, actor)
               if kind not in forbid and (kind != "escape" or may_escape(state))]
    if not options:
        return None
    # Accusations and escapes end the game: keep them rare so that games run long, and
    # Jack's corrections too (each sends the marks back).
    weights = [1 if kind in ("accuse", "escape", "correct_answer") else 12
               for _, kind in options]
    actor, kind = rng.choices(options, weights)[0]
    view = mrjack.view(state, actor)
    if kind == "confirm_marks" and view["marks_warning"]:
        # Jack checks the board: marks that would clear him do not match it.
        return actor, "return_marks", None
    if kind == "keep":
        return actor, kind, sorted(rng.sample(range(len(view["draft"]["hand"])), 2))
    if kind in ("place", "pick"):
        free = [i for i, card in enumerate(view["round"]["cards"]) if not card["taken_by"]]
        return actor, kind, rng.choice(free)
    if kind == "impersonate":
        return actor, kind, rng.randrange(len(view["moriarty"]["row"]))
    if kind == "publish_alibi":
        mine = [i for i, card in enumerate(view["my_alibi_cards"]) if not card["published"]]
        return actor, kind, rng.choice(mine)
    if kind == "accuse":
        return actor, kind, rng.randrange(len(view["characters"]))
    if kind == "witness":
        return actor, kind, rng.choice(list(mrjack.ANSWERS))
    if kind == "mark_seen":
        return actor, kind, [rng.random() < 0.5 for _ in view["suspects"]]
    return actor, kind, None


def may_escape(state: dict) -> bool:
    """What Jack's own phone tells him: he played his character this turn, or John Pizer
    (or Moriarty as Pizer), who may push him out. The button shows either way."""
    view = mrjack.view(state, JACK)
    played = {card["id"] for card in view["round"]["cards"] if card["taken_by"] == "Jack"}
    impersonated = (view["moriarty"] or {}).get("impersonates") or {}
    pushers = {view["alibi"]["id"], "pizer"} | (
        {"moriarty"} if impersonated.get("id") == "pizer" else set())
    return bool(played & pushers)


def action_for(state: dict, move: tuple) -> dict:
    """The form that ``move`` posts in ``state``."""
    actor, kind, choice = move
    view = mrjack.view(state, actor)
    action = {"type": kind}
    if kind == "keep":
        for index in choice:
            action[f"keep_{view['draft']['hand'][index]['id']}"] = "on"
    elif kind in ("place", "pick"):
        action["character"] = view["round"]["cards"][choice]["id"]
    elif kind == "impersonate":
        action["character"] = view["moriarty"]["row"][choice]["id"]
    elif kind == "publish_alibi":
        action["character"] = view["my_alibi_cards"][choice]["id"]
    elif kind == "accuse":
        action["character"] = view["characters"][choice]["id"]
    elif kind == "witness":
        action["answer"] = choice
    elif kind == "mark_seen":
        for card, seen in zip(view["suspects"], choice, strict=True):
            if seen:
                action[f"seen_{card['id']}"] = "on"
    return action


def step(state: dict, move: tuple, seed: int) -> dict:
    before = copy.deepcopy(state)
    new = mrjack.apply(state, move[0], action_for(state, move), random.Random(seed))
    assert state == before, "apply mutated its input"
    return new


def random_game(seed: int, london: bool, limit: int = 120):
    """Yield every state of a random legal game."""
    rng = random.Random(seed)
    state = mrjack.setup({"london": london}, ["Ann", "Bob"], random.Random(seed))
    yield state
    for _ in range(limit):
        move = plan(state, rng)
        if move is None:
            return
        state = step(state, move, rng.randrange(2**32))
        yield state


# --- invariants ---------------------------------------------------------------

def check(state: dict) -> None:
    """Everything a legal state satisfies."""
    json.dumps(state)
    phase = state["phase"]
    assert phase in ("draft", "placement", "play", "over")
    draft = state["draft"]
    if state["london"]:
        hands = draft["hands"]
        assert [len(hand) for hand in hands] == [5, 5]
        assert sorted(hands[0] + hands[1]) == sorted(mrjack.LONDON_ADDITIONAL)
        for seat, kept in enumerate(draft["kept"]):
            assert kept is None or (len(kept) == 2 and set(kept) <= set(hands[seat]))
    else:
        assert draft is None and state["moriarty"] is None
    if phase == "draft":
        assert state["characters"] == [] and state["alibi"] is None
    else:
        characters = state["characters"]
        assert len(set(characters)) == 8
        if state["london"]:
            chosen = set(draft["kept"][0]) | set(draft["kept"][1])
            assert set(characters) == set(mrjack.LONDON_BASIC) | chosen
        else:
            assert set(characters) == set(mrjack.BASE_CHARACTERS)
        current = state["round"]
        picks = [pick["character"] for pick in current["picks"]]
        assert len(current["cards"]) == 4 and set(picks) <= set(current["cards"])
        assert len(set(picks)) == len(picks) <= 4
        assert [pick["seat"] for pick in current["picks"]] == current["order"][:len(picks)]
        assert len(set(current["cards"] + state["deck"])) == len(current["cards"] + state["deck"])
        assert set(state["cleared"]) <= set(characters)
        # A mis-tick never clears Jack: his check refuses it (docs/RULINGS.md#mr-jack).
        assert state["alibi"] not in state["cleared"]
        moriarty = state["moriarty"]
        if moriarty:
            assert "moriarty" in characters
            assert not set(moriarty["row"]) & set(characters)
            assert len(moriarty["row"]) + len(moriarty["removed"]) == 6
            assert moriarty["current"] is None or moriarty["current"] in moriarty["row"]
    if phase == "placement":
        assert state["turn"] == 0 and state["alibi"] is None
        assert len(state["deck"]) in (0, 4)
    if phase in ("play", "over") and state["turn"]:
        assert 1 <= state["turn"] <= mrjack.LAST_TURN
        drawn = [entry["character"] for entry in state["alibi_draws"]]
        assert Counter(state["alibi_deck"] + drawn + [state["alibi"]]) == Counter(
            state["characters"])
        assert state["alibi"] not in drawn
        odd = state["turn"] % 2 == 1
        if odd:
            assert sorted(state["deck"] + state["round"]["cards"]) == sorted(state["characters"])
        else:
            assert state["deck"] == []
        assert state["round"]["order"] == list(mrjack.ODD_ORDER if odd else mrjack.EVEN_ORDER)
    assert (state["outcome"] is not None) == (phase == "over") == mrjack.is_over(state)
    for viewer in VIEWERS:
        view = mrjack.view(state, viewer)
        json.dumps(view)
        kinds = mrjack.actions(state, viewer)
        assert set(kinds) <= set(mrjack.ACTION_TYPES)
        assert view["actions"] == kinds
        if phase == "over":
            assert kinds == [] and view["alibi"]["id"] == state["alibi"]


@settings(max_examples=30, deadline=None)
@given(seed=SEEDS, london=st.booleans())
def test_random_legal_games_stay_legal(seed, london):
    for state in random_game(seed, london):
        check(state)


@settings(max_examples=25, deadline=None)
@given(seed=SEEDS, london=st.booleans())
def test_a_game_always_ends_within_eight_turns(seed, london):
    *_, last = random_game(seed, london, limit=200)
    assert mrjack.is_over(last)
    assert last["turn"] <= mrjack.LAST_TURN


@settings(max_examples=40, deadline=None)
@given(seed=SEEDS, london=st.booleans())
def test_deals_respect_the_card_counts(seed, london):
    state = mrjack.setup({"london": london}, ["Ann", "Bob"], random.Random(seed))
    if london:
        assert sorted(sum(state["draft"]["hands"], [])) == sorted(mrjack.LONDON_ADDITIONAL)
        assert state["deck"] == [] and state["alibi_deck"] == []
    else:
        assert len(state["alibi_deck"]) == 7 and len(state["deck"]) == 4
        assert state["alibi"] not in state["alibi_deck"]


# --- garbage never raises anything but RuleError, and never changes the state -----

KEYS = ["type", "character", "answer", "keep_holmes", "keep_madame", "keep_moriarty",
        "seen_holmes", "seen_bert", "seen_watson", "x"]
TEXT = st.one_of(
    st.sampled_from(list(mrjack.ACTION_TYPES) + list(mrjack.CHARACTERS)
                    + ["seen", "not_seen", "on", "", "0", "-1", "99999999999999999999"]),
    st.text(max_size=30))
ACTORS = st.one_of(st.sampled_from([JACK, DETECTIVE, TABLE]),
                   st.sampled_from([2, -1, None, "host", True, 0.0, "0", [0]]))


@settings(max_examples=150, deadline=None)
@given(seed=SEEDS, london=st.booleans(), moves=st.integers(0, 40), actor=ACTORS,
       action=st.dictionaries(st.sampled_from(KEYS), TEXT, max_size=6))
def test_garbage_actions_only_ever_raise_rule_errors(seed, london, moves, actor, action):
    states = list(random_game(seed, london, limit=moves))
    state = states[-1]
    new = try_apply(mrjack, state, actor, action, random.Random(seed))
    if new is not None:
        check(new)


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS, london=st.booleans(), moves=st.integers(0, 60))
def test_action_types_not_offered_are_refused(seed, london, moves):
    state = list(random_game(seed, london, limit=moves))[-1]
    for actor in VIEWERS:
        offered = mrjack.actions(state, actor)
        for kind in mrjack.ACTION_TYPES:
            if kind in offered:
                continue
            try:
                mrjack.apply(state, actor, {"type": kind, "character": "holmes",
                                            "answer": "seen"}, random.Random(0))
            except RuleError:
                continue
            raise AssertionError(f"{kind} by {actor} accepted though not offered")


# --- non-interference ------------------------------------------------------------

def same_to(viewers, twins: list[dict]) -> None:
    for viewer in viewers:
        first = mrjack.view(twins[0], viewer), mrjack.actions(twins[0], viewer)
        for other in twins[1:]:
            assert (mrjack.view(other, viewer), mrjack.actions(other, viewer)) == first, viewer


def play_twins(twins: list[dict], rng: random.Random, viewers, forbid=(), until=None,
               limit: int = 80) -> None:
    """Drive the twins with the moves the first one allows; each must look the same."""
    for _ in range(limit):
        # An end of the game reveals everything, and ``until`` marks where a
        # viewer becomes entitled to the difference: compare up to there.
        if any(mrjack.is_over(twin) or (until and until(twin)) for twin in twins):
            return
        same_to(viewers, twins)
        move = plan(twins[0], rng, forbid)
        if move is None:
            return
        if move[1] == "confirm_marks" and any(
                mrjack.view(twin, JACK)["marks_warning"] for twin in twins):
            # The board is the twins' own: marks that clear any twin's Jack do not match it.
            move = (JACK, "return_marks", None)
        seed = rng.randrange(2**32)
        twins[:] = [step(twin, move, seed) for twin in twins]


def in_play(seed: int, london: bool) -> dict:
    """A game at turn 1 (a London game after a random draft and placement)."""
    rng = random.Random(seed)
    state = mrjack.setup({"london": london}, ["Ann", "Bob"], random.Random(seed))
    while state["phase"] != "play":
        state = step(state, plan(state, rng), rng.randrange(2**32))
    return state


def alibi_twins(state: dict, rng: random.Random) -> list[dict]:
    """The same game with other alibis and the alibi deck's undrawn part reshuffled.

    Sherlock Holmes draws at most 4 alibi cards (once in every two turns), so the top
    four stay in place and each drawn card is the same in every twin; Jack's alibi is
    any of the other four cards, the rest shuffled below.
    """
    top, rest = state["alibi_deck"][:4], [state["alibi"]] + state["alibi_deck"][4:]
    twins = []
    for card in rest:
        twin = copy.deepcopy(state)
        bottom = [other for other in rest if other != card]
        rng.shuffle(bottom)
        twin["alibi"], twin["alibi_deck"] = card, top + bottom
        twins.append(twin)
    return twins


@settings(max_examples=8, deadline=None)  # tests/web/test_mrjack.py's twins repeat it
@given(seed=SEEDS, london=st.booleans())
def test_the_alibi_and_the_alibi_deck_are_invisible_to_the_detective_and_table(seed, london):
    rng = random.Random(seed)
    twins = alibi_twins(in_play(seed, london), rng)
    # An escape is refused or accepted by the alibi: the twins part there, for Jack alone.
    play_twins(twins, rng, (DETECTIVE, TABLE), forbid=("escape",))
    # Jack sees his own alibi: the twins do differ for him.
    assert len({json.dumps(mrjack.view(twin, JACK)) for twin in twins}) == 4


@settings(max_examples=8, deadline=None)  # tests/web/test_mrjack.py's twins repeat it
@given(seed=SEEDS)
def test_the_drawn_alibi_card_is_invisible_to_the_other_seat_and_table(seed):
    rng = random.Random(seed)
    state = in_play(seed, False)
    for drawer in (JACK, DETECTIVE):
        twins = []
        for _ in range(4):
            twin = copy.deepcopy(state)
            rng.shuffle(twin["alibi_deck"])
            twins.append(twin)
        other = DETECTIVE if drawer == JACK else JACK

        def only_drawer(twin, drawer=drawer):
            return any(entry["seat"] != drawer for entry in twin["alibi_draws"])

        play_twins(twins, rng, (other, TABLE), forbid=("publish_alibi",), until=only_drawer)


def draft_twins(state: dict, rng: random.Random, hidden: int | None) -> list[dict]:
    """The same draft with the ``hidden`` seat's hand reordered, or (None) every split."""
    twins = []
    pool = state["draft"]["hands"][0] + state["draft"]["hands"][1]
    for _ in range(5):
        twin = copy.deepcopy(state)
        if hidden is None:
            rng.shuffle(pool)
            twin["draft"]["hands"] = [pool[:5], pool[5:]]
        else:
            rng.shuffle(twin["draft"]["hands"][hidden])
        twins.append(twin)
    return twins


def revealed(state: dict) -> bool:
    return state["phase"] != "draft"


@settings(max_examples=40, deadline=None)
@given(seed=SEEDS)
def test_the_draft_hands_and_choices_are_invisible_until_both_reveal(seed):
    rng = random.Random(seed)
    state = mrjack.setup({"london": True}, ["Ann", "Bob"], random.Random(seed))
    # The table: any split of the ten cards between the hands, any choices.
    play_twins(draft_twins(state, rng, None), rng, (TABLE,), until=revealed)
    # Each player: the other's hand in any order, so that the same choice (by index)
    # keeps different cards.
    play_twins(draft_twins(state, rng, DETECTIVE), rng, (JACK, TABLE), until=revealed)
    play_twins(draft_twins(state, rng, JACK), rng, (DETECTIVE, TABLE), until=revealed)


@settings(max_examples=20, deadline=None)
@given(seed=SEEDS)
def test_every_view_after_the_end_reveals_the_alibi_and_the_whole_history(seed):
    *_, last = random_game(seed, True, limit=200)
    assert mrjack.is_over(last)
    secrets = sum(len(entry["secrets"]) for entry in last["log"])
    for viewer in VIEWERS:
        view = mrjack.view(last, viewer)
        assert view["alibi"]["id"] == last["alibi"]
        assert sum(line["secret"] for line in view["log"]) == secrets
        assert all(draw["card"] for draw in view["alibi_draws"])
        assert view["draft"]["hands"] is not None
