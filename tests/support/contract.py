"""The promise every rules module makes about apply(), checked in one place."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Mapping
from typing import Any

from companion.games.base import Game, RuleError


def try_apply(game: Game, state: dict[str, Any], actor: int | str,
              action: Mapping[str, str], rng: random.Random) -> dict[str, Any] | None:
    """Apply ``action`` as the protocol promises: either a RuleError with a message, or a
    new JSON-serialisable state; the input is never changed. The new state, or None when
    the action was refused."""
    before = copy.deepcopy(state)
    try:
        after = game.apply(state, actor, action, rng)
    except RuleError as error:
        assert error.message, "a refusal must say why"
        after = None
    else:
        json.dumps(after)
    assert state == before, "apply mutated its input"
    return after
