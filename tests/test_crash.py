"""Killing the real server mid-game loses no acknowledged action (SIGKILL, restart).

10 kills at random instants while scripted games run at every table (the test game
and every product game with its web part), with one server restarted each time.
After each kill: every acknowledged action is in the log, every table's state is
the replay of its log, and after the restart every page loads. The longer campaign:
`python bench/crash_campaign.py --rounds 200`.
"""

from __future__ import annotations

import random

import pytest

from tests.support import tally
from tests.support.campaign import crash_round, open_table, playable_games
from tests.support.realserver import Server

pytestmark = pytest.mark.slow
KILLS = 10


def test_ten_sigkills_lose_no_acknowledged_action(tmp_path):
    rng = random.Random()
    seed = rng.randrange(10**6)
    rng.seed(seed)
    server = Server(tmp_path / "companion.sqlite").start()
    try:
        tables = [open_table(server.url, tally, 3)]
        for game in playable_games().values():
            tables.append(open_table(server.url, game, game.DEFAULT_PLAYERS))
        acknowledged = 0
        for _kill in range(KILLS):
            counts = crash_round(server, tables, rng)
            acknowledged += counts["acknowledged"]
        assert acknowledged >= KILLS, f"too few actions were acknowledged (seed {seed})"
    finally:
        server.stop()
