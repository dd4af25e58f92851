"""Where the tests find board files.

The project ships a small synthetic board (``tests/support/boards/tiny.json``). The
real Letters from Whitechapel board is not part of the project: it lives in
``../shared/boards/whitechapel.json`` next to the repository. Tests that need
it skip with the reason when it is absent, except in CI (``CI=true``), where
its absence is a failure.
"""

from __future__ import annotations

import os
from collections import deque
from pathlib import Path

import pytest

from companion.games.whitechapel.board import Board, load_board

SUPPORT = Path(__file__).resolve().parent
TINY_BOARD = SUPPORT / "boards" / "tiny.json"
REAL_BOARD = SUPPORT.parents[2] / "shared" / "boards" / "whitechapel.json"


def real_board_path() -> Path:
    """The real board's file, or skip (fail in CI) when it is not there."""
    if REAL_BOARD.is_file():
        return REAL_BOARD
    reason = (f"the real Letters from Whitechapel board is not at {REAL_BOARD} "
              "(../shared/boards/whitechapel.json next to the repository)")
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason}; CI requires it")
    pytest.skip(reason)


def real_board() -> Board:
    return load_board(real_board_path())


def tiny_board() -> Board:
    return load_board(TINY_BOARD)

def shortest_road(board: Board, start: int, goal: int) -> list[int]:
    """The circles of a shortest chain of normal moves from ``start`` to ``goal``."""
    previous = {start: start}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for there in sorted(board.neighbours(here)):
            if there not in previous:
                previous[there] = here
                queue.append(there)
    path = [goal]
    while path[-1] != start:
        path.append(previous[path[-1]])
    return path[::-1][1:]
