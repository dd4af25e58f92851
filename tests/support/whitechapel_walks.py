"""Random play of Letters from Whitechapel for property tests: legal-looking
actions for whoever may act, and a walk on the real board that steers Jack home; and
two secret nights on the real board alike in public, for the glance tests (the browser's
tests/browser/test_whitechapel_board.py and the Flask client's
tests/web/test_whitechapel_board.py play the same two)."""

from __future__ import annotations

import random
from dataclasses import dataclass

from companion.games.base import TABLE
from companion.games.whitechapel import rules as wc
from companion.games.whitechapel import state as wc_state

JACK = 0
CIRCLES = range(wc.FIRST_CIRCLE, wc.LAST_CIRCLE + 1)
CRIME = 65
"""The crime of the glance tests' nights (a red circle of the shipped board)."""


def new_game(seed: int, players: int, false_clues: bool, letters: bool) -> dict:
    form = {"false_clues": "on" if false_clues else "", "letters": "on" if letters else ""}
    return wc.setup(wc.parse_options(form, players), [f"P{n}" for n in range(players)],
                    random.Random(seed))


def scenes(state: dict) -> set[int]:
    return {c for night in state["nights"] for c in night["crimes"]}


def current(state: dict) -> dict:
    return state["nights"][state["night"] - 1]


def random_action(state: dict, r: random.Random) -> tuple[object, dict[str, str]]:
    """Some legal-looking action for whoever may act now."""
    phase = state["phase"]
    night = current(state)
    head = state["policemen"][state["head_tiles"][state["night"] - 1]]
    if phase == "hideout":
        return JACK, {"type": "hideout", "circle": str(r.choice(CIRCLES))}
    if phase == "women":
        marked = wc.NIGHTS[state["night"]]["marked"]
        free = [c for c in CIRCLES if c not in scenes(state)]
        return JACK, {"type": "women",
                      "circles": " ".join(map(str, r.sample(free, marked)))}
    if phase == "patrols":
        return r.choice([head, TABLE]), {"type": "patrols_placed"}
    if phase == "suspense":
        return r.choice([head, TABLE]), {"type": "wretched_moved"}
    if phase == "letter":
        left = wc.view(state, JACK)["jack"]["letters_left"]
        if r.random() < 0.5:
            return JACK, {"type": "letter", "letter": r.choice(left)}
        return JACK, {"type": "no_letter"}
    if phase == "blood":
        if night["time"] < 5 and r.random() < 0.4:
            return JACK, {"type": "wait"}
        pool = night["women"] if night["time"] == 1 else \
            [c for c in CIRCLES if c not in scenes(state)]
        victims = r.sample(pool, 2 if state["night"] == wc.DOUBLE_EVENT else 1)
        fields = {"type": "kill", "circle": str(victims[0])}
        if len(victims) == 2:
            fields["circle2"] = str(victims[1])
        return JACK, fields
    if phase == "jack":
        return jack_action(state, r)
    if phase == "police":
        return police_action(state, r)
    raise AssertionError(phase)


def jack_action(state: dict, r: random.Random) -> tuple[object, dict[str, str]]:
    available = wc.actions(state, JACK)
    if state["trapped_claim"]:
        return JACK, {"type": r.choice(["deny_trapped", "deny_trapped", "confirm_trapped"])}
    if r.random() < 0.02:
        return r.randrange(1, len(state["players"])), {"type": "no_legal_move"}
    here = wc.view(state, JACK)["jack"]["location"]
    others = [c for c in CIRCLES if c != here]
    if "escape" in available and r.random() < 0.15:
        return JACK, {"type": "escape"}
    if state["hideout"] != here and r.random() < 0.1:
        return JACK, {"type": "move", "circle": str(state["hideout"])}
    kind = r.choice([k for k in ("move", "move", "move", "coach", "alley") if k in available])
    picked = r.sample(others, 2)
    fields = {"type": kind, "circle": str(picked[0])}
    if kind == "coach":
        fields["circle2"] = str(picked[1])
    return JACK, fields


def police_action(state: dict, r: random.Random) -> tuple[object, dict[str, str]]:
    if "false_clue" in wc.actions(state, JACK) and r.random() < 0.5:
        clued = {c["circle"] for c in current(state)["clues"]}
        return JACK, {"type": "false_clue",
                      "circle": str(r.choice([c for c in CIRCLES if c not in clued]))}
    if r.random() < 0.1:
        return TABLE, {"type": "end_turn"}
    todo = wc.view(state, TABLE)["police_order"]
    todo = [c for c in todo if c not in state["police"]["done"]]
    # Mostly the detective who speaks now (Hunting 3, from the Head clockwise), now and
    # then another, whose turn it is not.
    speaker = wc._speaking(state)
    speaking = [c for c in todo if speaker and state["policemen"][c] == state["policemen"][speaker]]
    colour = r.choice(speaking if speaking and r.random() < 0.9 else todo)
    actor = r.choice([TABLE, state["policemen"][colour]])
    path = wc.view(state, JACK)["sheet"]["nights"][state["night"] - 1]
    on_row = [sq["circle"] for sq in path["row"] if sq["circle"]]
    clued = {c["circle"] for c in current(state)["clues"]}
    searched = set(state["police"]["searched"]) if state["police"]["searching"] == colour \
        else set()
    roll = r.random()
    if roll < 0.05:
        return actor, {"type": "arrest", "policeman": colour,
                       "circle": str(r.choice(on_row[-1:] + [r.choice(CIRCLES)]))}
    if roll < 0.15:
        return actor, {"type": "done", "policeman": colour}
    candidates = [c for c in on_row + [r.choice(CIRCLES)] if c not in clued | searched]
    if not candidates:
        return actor, {"type": "done", "policeman": colour}
    return actor, {"type": "search", "policeman": colour,
                   "circle": str(r.choice(candidates))}


def shortest_step(board, start: int, goal: int) -> int | None:
    """The first circle on a shortest road path from ``start`` to ``goal``."""
    first: dict[int, int] = {n: n for n in board.neighbours(start)}
    frontier = sorted(first)
    while frontier and goal not in first:
        reached = []
        for here in frontier:
            for n in sorted(board.neighbours(here)):
                if n not in first and n != start:
                    first[n] = first[here]
                    reached.append(n)
        frontier = reached
    return first.get(goal)


def board_walk(board, state: dict, r: random.Random) -> tuple[object, dict[str, str]]:
    """A legal action on the real board, steering Jack home half of the time."""
    phase = state["phase"]
    night = current(state)
    if phase == "hideout":
        return JACK, {"type": "hideout", "circle": str(r.choice(
            [n for n in board.numbers if board.is_legal_hideout(n)]))}
    if phase == "women":
        free = sorted(board.red - scenes(state))
        marked = wc.NIGHTS[state["night"]]["marked"]
        return JACK, {"type": "women", "circles": " ".join(map(str, r.sample(free, marked)))}
    if phase == "blood":
        victims = r.sample(night["women"], 2 if state["night"] == wc.DOUBLE_EVENT else 1)
        return JACK, {"type": "kill", "circle": str(victims[0]),
                      "circle2": str(victims[-1])}
    if phase == "jack":
        here = wc_state._location(night)
        home = state["hideout"]
        step = shortest_step(board, here, home)
        if step == home and r.random() < 0.8:
            return JACK, {"type": "escape"}
        options = [("move", (n,)) for n in board.normal_moves(here)]
        if "coach" in wc.actions(state, JACK):
            options += [("coach", route) for route in board.coach_routes(here)]
        if "alley" in wc.actions(state, JACK):
            options += [("alley", (n,)) for n in board.alley_moves(here)]
        kind, route = ("move", (step,)) if step and r.random() < 0.5 else \
            r.choice(sorted(options))
        fields = {"type": kind, "circle": str(route[0])}
        if kind == "coach":
            fields["circle2"] = str(route[1])
        return JACK, fields
    if phase == "police":
        todo = [c for c in wc.POLICEMEN if c not in state["police"]["done"]]
        if not todo or r.random() < 0.2:
            return TABLE, {"type": "end_turn"}
        near = sorted({n for c in wc_state._path(night) for n in board.neighbours(c)}
                      - {c["circle"] for c in night["clues"]}
                      - set(state["police"]["searched"]))
        here = wc_state._location(night)
        if not near:  # every circle around the path is searched or marked already
            return TABLE, {"type": "end_turn"}
        if r.random() < 0.1:
            return TABLE, {"type": "arrest", "policeman": todo[0],
                           "circle": str(r.choice(sorted(board.neighbours(here))))}
        if "false_clue" in wc.actions(state, JACK) and r.random() < 0.5:
            return JACK, {"type": "false_clue", "circle": str(r.choice(near))}
        colour = state["police"]["searching"] or todo[0]
        return TABLE, {"type": "search", "policeman": colour, "circle": str(r.choice(near))}
    return random_action(state, r)


# --- two secret nights alike in public (the glance tests, browser and Flask client) ---

@dataclass(frozen=True)
class Route:
    """One table's secret night from the crime: a move, a Coach, an Alley, the road home;
    and the circles Jack types into refused actions, illegal from where he then stands."""

    move: int
    coach: tuple[int, int]
    alley: int
    home: int
    typed: int  # no road joins it to ``move``
    alley_typed: int  # no alley joins it to the Coach's end

    def circles(self) -> set[int]:
        return {self.move, *self.coach, self.alley, self.home, self.typed, self.alley_typed}


def route_from(board, move: int, taken: set[int]) -> Route | None:
    """A night through ``move`` using none of the ``taken`` circles (the other table's)."""
    coach_ends = {second for _, second in board.coach_routes(move)}
    for end in sorted(coach_ends - {CRIME, move} - taken):
        # The map's first Coach way to ``end`` (its ways are sorted): the one a tap takes.
        via = min(first for first, second in board.coach_routes(move) if second == end)
        if via in taken | {CRIME}:
            continue
        for alley in sorted(board.alley_moves(end) - {CRIME, move, via, end} - taken):
            homes = sorted(n for n in board.normal_moves(alley) - taken
                           - {CRIME, move, via, end, alley} if board.is_legal_hideout(n))
            if homes:
                typed = max(set(board.numbers) - board.normal_moves(move) - {move} - taken)
                alley_typed = max(set(board.numbers) - board.alley_moves(end) - {end, typed}
                                  - taken)
                return Route(move, (via, end), alley, homes[0], typed, alley_typed)
    return None


def routes(board) -> tuple[Route, Route]:
    """Two secret nights with the same public kinds of movement and no circle in common."""
    found: list[Route] = []
    for move in sorted(board.normal_moves(CRIME) - board.red):
        route = route_from(board, move, set().union(*(r.circles() for r in found)))
        if route:
            found.append(route)
        if len(found) == 2:
            return found[0], found[1]
    raise AssertionError("the board has no two such nights")
