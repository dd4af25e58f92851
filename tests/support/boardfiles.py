"""Where the tests find board files.

The tests' small synthetic board is ``tests/support/boards/tiny.json``; the real
Letters from Whitechapel board is the one the companion ships
(``companion/games/whitechapel/boards/whitechapel-crossings.json``).
"""

from __future__ import annotations

from collections import deque
from pathlib import Path

from companion.games.whitechapel.board import SHIPPED_BOARDS, Board, load_board

SUPPORT = Path(__file__).resolve().parent
TINY_BOARD = SUPPORT / "boards" / "tiny.json"
REAL_BOARD = SHIPPED_BOARDS[0]


def real_board_path() -> Path:
    """The real board's file: the one shipped with the companion."""
    return REAL_BOARD


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
