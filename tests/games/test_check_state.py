"""Each game's ``check_state``: every state its own play reaches passes, and a damaged one
is refused with a RuleError (never another exception), as an imported file needs."""

from __future__ import annotations

import copy
import random

import pytest

from companion import tables
from companion.db import get_db
from companion.games.base import TABLE, RuleError
from tests.support.campaign import NAMES, playable_games
from tests.support.scripted import choose, parse_forms
from tests.support.webflow import Device, game_log, seated_table

WRONG = [None, 0, -1, 10**6, True, "", "x", "tea", [], [0], [None], {}, {"a": 1}, 1.5]


def states_of_play(app, name: str, seed: int, actions: int = 30) -> list[dict]:
    """The states of one game played from its pages' forms, as the log keeps them."""
    game = playable_games()[name]
    form = next(f for f in parse_forms(Device(app).get(f"/new/{name}").text)
                if f.action.endswith(f"/new/{name}"))
    options = {k: v for k, v in form.defaults().items() if k not in ("csrf", "players")}
    laptop, phones = seated_table(app, name, list(NAMES[:game.DEFAULT_PLAYERS]), **options)
    rng = random.Random(seed)
    for _ in range(actions):
        with app.app_context():
            state = tables.get_table(get_db(), laptop.code)["state"]
        if game.is_over(state):
            break
        viewer = rng.choice([v for v in [TABLE, *range(len(phones))] if game.actions(state, v)])
        device = laptop if viewer == TABLE else phones[viewer]
        page = device.screen() if viewer == TABLE else device.phone()
        picked = choose(game, state, viewer, page.text, rng)
        if picked is None:
            continue
        fields = {k: v for k, v in picked[1].items() if k not in ("csrf", "version")}
        kind = fields.pop("type")
        (laptop.table_act(kind, **fields) if viewer == TABLE else device.act(kind, **fields))
    with app.app_context():
        db = get_db()
        table = tables.get_table(db, laptop.code)
        return [e["state"] for e in game_log(db, table["id"], 1) if e["state"]]


def damaged(state: dict, rng: random.Random) -> dict:
    """``state`` with one value somewhere replaced, or one key dropped."""
    state = copy.deepcopy(state)
    here = state
    while True:
        keys = list(here) if isinstance(here, dict) else list(range(len(here)))
        if not keys:
            return state
        key = rng.choice(keys)
        inner = here[key]
        if isinstance(inner, (dict, list)) and inner and rng.random() < 0.6:
            here = inner
            continue
        if isinstance(here, dict) and rng.random() < 0.2:
            del here[key]
        else:
            here[key] = rng.choice(WRONG)
        return state


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(playable_games()))
def test_played_states_pass_and_damaged_ones_are_refused_cleanly(app, name):
    game = playable_games()[name]
    states = states_of_play(app, name, seed=len(name))
    assert len(states) > 1
    for state in states:
        game.check_state(state)
    rng = random.Random(7)
    refused = 0
    for _ in range(400):
        try:
            game.check_state(damaged(rng.choice(states), rng))
        except RuleError:
            refused += 1
    assert refused > 200  # most damage is caught by the shape alone
    for wrong in WRONG:
        with pytest.raises(RuleError):
            game.check_state(wrong)


def test_a_london_outcome_passes():
    """Scripted play rarely reaches an outcome: each kind the rules record passes."""
    from companion.games import london1888 as london

    state = london.setup(london.default_options(), list(NAMES[:5]), random.Random(1))
    for _name, (winner, how, _text) in london.RESULTS.items():
        london.check_state({**state, "outcome": {"winner": winner, "how": how,
                                                 "accomplices": [1], "round": 12}})
    with pytest.raises(RuleError):
        london.check_state({**state, "outcome": {"winner": "jack", "how": "jack_suicide"}})


def test_every_state_of_a_mr_jack_in_london_game_passes():
    """The extension places the eight tokens before Jack's alibi is dealt (Extension
    II.): a table saved during the placement must import again."""
    from companion.games import mrjack
    from tests.games.test_mrjack_properties import random_game
    phases = set()
    for seed in range(5):
        for state in random_game(seed, london=True):
            mrjack.check_state(state)
            phases.add(state["phase"])
    assert {"draft", "placement", "play"} <= phases
