"""The long crash campaign: SIGKILL the real server at random instants, many times.

Usage: python bench/crash_campaign.py [--rounds 200] [--seed S]

One server (tests/support/server.py: `companion serve`'s app and waitress, plus the test
game) on 127.0.0.1 with a temporary database. One table of the test game and one of
every product game with its web part are played by scripted players, one thread per
table, through HTTP. Each round kills the server with SIGKILL at a random instant
(0.05-0.8 s into the round), then checks that every acknowledged action is in the
log, that every table's state is the replay of its log, and, after a restart, that
every page loads. The suite runs 20 rounds of the same (tests/test_crash.py).
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support import tally  # noqa: E402
from tests.support.campaign import crash_round, open_table, playable_games  # noqa: E402
from tests.support.realserver import Server  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args()
    seed = random.randrange(10**6) if args.seed is None else args.seed
    rng = random.Random(seed)
    started = time.monotonic()
    acknowledged = replayed = 0
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp) / "companion.sqlite").start()
        try:
            tables = [open_table(server.url, tally, 3)]
            for game in playable_games().values():
                tables.append(open_table(server.url, game, game.DEFAULT_PLAYERS))
            print(f"seed {seed}; tables: {', '.join(t.game.NAME for t in tables)}")
            for number in range(1, args.rounds + 1):
                try:
                    counts = crash_round(server, tables, rng)
                except AssertionError as failure:
                    kept = ROOT / "bench" / "results" / f"crash-{seed}-round{number}.sqlite"
                    kept.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copy(server.db, kept)
                    server.kill()
                    stderr = server.process.stderr.read().decode() if server.process else ""
                    print(f"round {number} FAILED: {failure}\nthe database is kept in "
                          f"{kept}\nserver said: {stderr[-2000:]}")
                    return 1
                acknowledged += counts["acknowledged"]
                replayed = counts["replayed"]
                if number % 10 == 0 or number == args.rounds:
                    print(f"round {number}: {acknowledged} acknowledged actions so far, all "
                          f"present; {replayed} logged actions replayed in the last check",
                          flush=True)
        finally:
            server.stop()
    print(f"{args.rounds} SIGKILLs, {acknowledged} acknowledged actions, none lost, every "
          f"state equal to its log's replay, every page loaded after each restart "
          f"({time.monotonic() - started:.0f} s).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
