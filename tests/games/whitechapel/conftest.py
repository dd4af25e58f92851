"""The boards the Whitechapel rule tests play on: the real one (shipped with the
companion, the rulebook's examples) and the tiny test board (tests/support/boards)."""

from __future__ import annotations

import pytest

from companion.games.whitechapel.board import Board
from tests.support.boardfiles import real_board, tiny_board


@pytest.fixture(scope="module")
def real() -> Board:
    return real_board()


@pytest.fixture(scope="module")
def tiny() -> Board:
    return tiny_board()
