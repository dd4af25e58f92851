"""Playing Letters from Whitechapel in board mode from a test: a new game on a board,
an action that must pass or must be refused (the state given is left alone either way)."""

from __future__ import annotations

import copy
import random

import pytest

from companion.games.base import RuleError
from companion.games.whitechapel import rules as wc
from companion.games.whitechapel.board import Board


def board_game(board: Board, players: int = 3, **form: str) -> dict:
    """A new game whose table chose ``board`` (the graph the web layer attaches)."""
    options = {**wc.parse_options({"board": board.name, **form}, players),
               "board_graph": board.graph()}
    return wc.setup(options, [f"P{n}" for n in range(players)], random.Random(7))


def act(state: dict, actor, **fields) -> dict:
    """The state after ``actor`` does ``fields``; the state given is unchanged."""
    before = copy.deepcopy(state)
    after = wc.apply(state, actor, {k: str(v) for k, v in fields.items()}, random.Random(0))
    assert state == before
    return after


def refused(state: dict, actor, **fields) -> str:
    """The RuleError message of an illegal action; the state is unchanged."""
    before = copy.deepcopy(state)
    with pytest.raises(RuleError) as caught:
        wc.apply(state, actor, {k: str(v) for k, v in fields.items()}, random.Random(0))
    assert state == before
    return caught.value.message


def head(state: dict) -> int:
    """The seat of tonight's head of the investigation."""
    return state["policemen"][state["head_tiles"][state["night"] - 1]]


def all_moved(state: dict) -> dict:
    """The end of Hunting 2 (police on the map): each detective says that every
    policeman of his who has not moved stays where he stands."""
    for colour in wc._moves_left(state):
        state = act(state, state["policemen"][colour], type="move_policeman",
                    policeman=colour, crossing=state["cops"]["at"][colour])
    return state


def turn_of(state: dict, colour: str) -> dict:
    """Hunting 3 up to ``colour``'s detective, once the policemen have moved: each
    detective who speaks before him (from the Head of the Investigation clockwise) lets
    his policemen pass."""
    state = all_moved(state)
    seat = state["policemen"][colour]
    while (speaker := wc._speaking(state)) and state["policemen"][speaker] != seat:
        state = act(state, state["policemen"][speaker], type="done", policeman=speaker)
    return state


def the_head_tells(state: dict, r: random.Random) -> tuple[int, dict[str, str]] | None:
    """At a table where the companion plays Jack, the Head's part of Hell, told at
    random among what the view offers: the patrols placed (or the new ones tapped), a
    wretched's move, what a turned token shows. None when the Head has nothing to tell."""
    public = wc.view(state, wc.TABLE)
    told = public["told"]
    if "patrols_placed" in public["actions"]:
        return head(state), {"type": "patrols_placed"}
    if "patrol" in public["actions"]:
        tapped = {p["crossing"] for p in told["patrols"]}
        return head(state), {"type": "patrol", "crossing": str(
            r.choice([x for x in told["patrol_choices"] if x not in tapped]))}
    if "wretched" in public["actions"]:
        start = r.choice(sorted(told["to_move"]))
        return head(state), {"type": "wretched", "circle": str(start),
                             "circle2": str(r.choice(told["to_move"][start]))}
    if "turned" in public["actions"]:
        shown = [p["shows"] for p in told["patrols"]]
        faces = [c for c in wc.POLICEMEN if c not in shown]
        if shown.count(wc.FAKE) < 2:
            faces.append(wc.FAKE)
        return head(state), {"type": "turned", "shows": r.choice(faces)}
    return None
