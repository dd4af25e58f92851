"""A tiny game for the platform's own tests; it never appears in the product.

Each seat is dealt a secret number; in turn, seats add 1-9 to a public total.
Reaching 30 ends the game. The table screen may skip the seat whose turn it is.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.base import (
    TABLE,
    check_shape,
    evolve,
    next_seat,
    parse_bool,
    parse_int,
    require,
    require_type,
)

NAME = "tally"
TITLE = "Tally (test game)"
MIN_PLAYERS = 2
MAX_PLAYERS = 4
DEFAULT_PLAYERS = 3
FIXED_SEATS = frozenset({0})
TARGET = 30


def seat_labels(count: int, options: Mapping[str, Any]) -> list[str]:
    return ["Dealer"] + [f"Player {n}" for n in range(1, count)]


def default_options() -> dict[str, Any]:
    return {"fast": False}


def parse_options(form: Mapping[str, str], count: int) -> dict[str, Any]:
    return {"fast": parse_bool(form.get("fast"))}


def form_from(options: Mapping[str, Any]) -> dict[str, str]:
    return {"fast": "on"} if options.get("fast") else {}


def setup(options: Mapping[str, Any], players: Sequence[str], rng: random.Random) -> dict:
    return {"players": list(players), "secrets": [rng.randint(1, 1000) for _ in players],
            "total": 0, "turn": 0, "log": [], "step": 9 if options.get("fast") else 3}


def apply(state: dict, actor: int | str, action: Mapping[str, str],
          rng: random.Random) -> dict:
    require(not is_over(state), "The game is over.")
    kind = require_type(action, actions(state, actor))
    state = evolve(state)
    if kind == "add":
        amount = parse_int(action.get("amount"), 1, state["step"], "amount")
        state["total"] += amount
        state["log"].append(f"{state['players'][actor]} added {amount}")
    else:
        state["log"].append(f"{state['players'][state['turn']]} was skipped")
    state["turn"] = next_seat(len(state["players"]), state["turn"])
    return state


def view(state: dict, viewer: int | str) -> dict[str, Any]:
    public = {"players": state["players"], "total": state["total"], "turn": state["turn"],
              "log": state["log"], "step": state["step"], "over": is_over(state),
              "target": TARGET}
    if viewer != TABLE:
        public["secret"] = state["secrets"][viewer]
    if is_over(state):
        public["secrets"] = state["secrets"]
    return public


def actions(state: dict, viewer: int | str) -> list[str]:
    if is_over(state):
        return []
    if viewer == TABLE:
        return ["skip"]
    return ["add"] if viewer == state["turn"] else []


def is_over(state: dict) -> bool:
    return state["total"] >= TARGET



def check_state(state: Any) -> None:
    check_shape(state, {"players": [str], "secrets": [int], "total": int, "turn": int,
                        "log": [str], "step": frozenset({3, 9})})
    require(len(state["secrets"]) == len(state["players"]), "one secret a player.")
    require(0 <= state["turn"] < len(state["players"]), "the turn is not a seat.")
    require(0 <= state["total"] < TARGET + 10, "the total is out of reach.")
