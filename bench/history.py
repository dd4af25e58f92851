"""The club's history over years of games: /history, its plots, a player's page, Letters
from Whitechapel's heat map and the exports, on a database of 2,000 finished games.

Usage: python bench/history.py [--games 2000] [--repeat 30] [--db PATH]

The database is filled through storage (tests/support/club.py: each game a table export
checked and imported as the lobby imports one, its history row written by the import),
a quarter of each game, on weekly club nights of four games over about ten years, at
tables of 2 to 8 from a club of 24 names. Then the real server (waitress, as
`companion serve` runs it) answers each address --repeat times in a row, one request at
a time from one client on 127.0.0.1: wall time per answer (whole body read) and the
server's CPU per answer (Linux: /proc), which the machine's other work does not inflate. With --db
an existing file is measured (filled first if it has no finished game). The target is a
p95 under 300 ms for every address (issue 24).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from room import Running, machine, percentiles, save  # noqa: E402

from companion.db import connect  # noqa: E402
from companion.db.migrations import migrate  # noqa: E402
from companion.games import discover  # noqa: E402
from companion.games.whitechapel.board import SHIPPED_BOARDS, load_board  # noqa: E402
from tests.support import club  # noqa: E402
from tests.support.realserver import Server  # noqa: E402

TARGET_MS = 300


def fill(path: Path, games: int) -> tuple[int, float]:
    """The database at ``path`` with ``games`` finished games (none added when it holds
    some already); how many it holds and the seconds the filling took."""
    migrate(str(path))
    db = connect(str(path))
    try:
        held = db.execute("SELECT count(*) FROM results").fetchone()[0]
        started = time.perf_counter()
        if not held:
            held = club.fill(db, discover(), games, board=load_board(SHIPPED_BOARDS[0]))
        return held, time.perf_counter() - started
    finally:
        db.close()


def addresses(player: str, pages: int) -> dict[str, str]:
    """What is measured: each address by the name the figures give it."""
    name = urllib.parse.quote(player)
    return {"/history": "/history", "/history (last page)": f"/history?page={pages}",
            "/history?game=whitechapel": "/history?game=whitechapel",
            f"/history?player={player}": f"/history?player={name}",
            "player's page": f"/history/players/{name}",
            "heat map (/history/games/whitechapel)": "/history/games/whitechapel",
            "plot: wins over time": "/history/plots/wins.svg",
            "plot: Jack's win rate": "/history/plots/jack.svg",
            "/history.csv": "/history.csv", "/history.json": "/history.json"}


def fetch_ms(url: str) -> float:
    started = time.perf_counter()
    with urllib.request.urlopen(url, timeout=60) as response:
        response.read()
        assert response.status == 200, url
    return (time.perf_counter() - started) * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--db", type=Path, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = args.db or Path(tmp) / "history.sqlite"
        held, seconds = fill(path, args.games)
        print(f"{held} finished games ({seconds:.0f} s to fill); {machine()}", flush=True)
        db = connect(str(path))
        player = db.execute("SELECT name FROM result_players GROUP BY key "
                            "ORDER BY count(*) DESC LIMIT 1").fetchone()[0]
        db.close()
        pages = -(-held // 50)
        server = Server(path).start()
        running = Running(server.process, server.port, 0.0)  # its CPU clock (/proc)
        try:
            wanted = addresses(player, pages)
            timed: dict[str, list[float]] = {label: [] for label in wanted}
            cpu: dict[str, float | None] = {}
            for label, address in wanted.items():
                fetch_ms(server.url + address)  # once unmeasured: warm caches
                before = running.cpu()
                timed[label] = [fetch_ms(server.url + address) for _ in range(args.repeat)]
                after = running.cpu()
                cpu[label] = None if before is None or after is None else round(
                    (after - before) / args.repeat * 1000, 1)
        finally:
            server.stop()
    result = {"games": held, "repeat": args.repeat, "machine": machine(),
              "target_p95_ms": TARGET_MS,
              "ms": {label: {**percentiles(values), "server_cpu_ms": cpu[label]}
                     for label, values in timed.items()}}
    width = max(len(label) for label in timed)
    for label, figures in result["ms"].items():
        verdict = "ok" if figures["p95"] < TARGET_MS else "OVER"
        print(f"{label:<{width}}  p50 {figures['p50']:7.1f} ms  p95 {figures['p95']:7.1f} ms"
              f"  max {figures['max']:7.1f} ms  server CPU {figures['server_cpu_ms']} ms"
              f"  {verdict}")
    save("history", result)
    return 0 if all(f["p95"] < TARGET_MS for f in result["ms"].values()) else 1


if __name__ == "__main__":
    sys.exit(main())
