"""A slow, obviously right deduction to check ``companion.games.whitechapel.deduction`` against.

It lists every path Jack could have taken, one movement at a time, and keeps
those that agree with every public fact, read straight from the rulebook's
wording: a clue means the circle is in the night's row so far, an empty
search that it is not, a failed arrest that Jack is not there at that
moment. Only for small boards and short nights.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from companion.games.whitechapel.board import Board

Rows = list[list[int]]
"""A night's row by steps: step 0 holds the crime scenes, step k the circles of movement k."""


def routes(board: Board, start: int, kind: str, blocked: list[tuple[int, int]]
           ) -> Iterator[tuple[int, ...]]:
    """Each movement of ``kind`` from ``start`` as the circles it writes on the sheet."""
    if kind == "coach":
        yield from board.coach_routes(start)
    elif kind == "alley":
        yield from ((end,) for end in board.alley_moves(start))
    else:
        yield from ((end,) for end in board.normal_moves(start, blocked))


def night_paths(board: Board, facts: Mapping[str, Any], start: int) -> Iterator[Rows]:
    """Every legal night from ``start`` following the public kinds of movement."""
    moves = facts.get("moves", [])
    scenes = list(facts.get("crime_scenes", []))

    def blocked_at(step: int) -> list[tuple[int, int]]:
        return [(entry[0], entry[1]) for entry in facts.get("blocked", [])
                if len(entry) == 2 or entry[2] == step]

    def extend(rows: Rows, here: int) -> Iterator[Rows]:
        step = len(rows)
        if step > len(moves):
            yield rows
            return
        for route in routes(board, here, moves[step - 1], blocked_at(step)):
            yield from extend(rows + [list(route)], route[-1])

    yield from extend([scenes], start)


def consistent(rows: Rows, start: int, facts: Mapping[str, Any]) -> bool:
    """Whether this night agrees with every clue, empty search and failed arrest."""
    def seen(step: int) -> set[int]:
        return {circle for row in rows[:step + 1] for circle in row}

    def position(step: int) -> int:
        return start if step == 0 else rows[step][-1]

    return (all(c["circle"] in seen(c["after_move"]) for c in facts.get("clues", []))
            and all(e["circle"] not in seen(e["after_move"])
                    for e in facts.get("searched_empty", []))
            and all(a["circle"] != position(a["after_move"])
                    for a in facts.get("failed_arrests", [])))


def positions(board: Board, facts: Mapping[str, Any]) -> set[int]:
    """Where Jack can be now: the last circle of every consistent night."""
    found = set()
    for start in facts.get("crime_scenes", []):
        for rows in night_paths(board, facts, start):
            if consistent(rows, start, facts):
                found.add(rows[-1][-1] if len(rows) > 1 else start)
    return found
