"""Table codes on a crowded laptop: every four-letter code taken, how long a new table takes.

Usage: python bench/crowded_codes.py [--tables 200]

A temporary database gets all 234,256 (22^4) four-letter codes, each held by an ended
table (ended tables keep their codes, so an old link never opens someone else's table).
Then tables are created as the lobby creates them (``companion.tables.create_table``, one
transaction with its fsync each) and timed: each draws up to 16 four-letter codes, all
taken, then a five-letter one (issue 15: the old picker looped for ever here).
"""

from __future__ import annotations

import argparse
import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion import tables  # noqa: E402
from companion.db import connect  # noqa: E402
from companion.db.migrations import migrate  # noqa: E402
from tests.support import tally  # noqa: E402
from tests.support.codes import fill_every_four_letter_code  # noqa: E402


def create(path: str, count: int) -> str:
    """Create ``count`` tables; their codes' lengths and the creation times."""
    db = connect(path)
    rng = secrets.SystemRandom()
    times, lengths = [], set()
    try:
        for _ in range(count):
            started = time.perf_counter()
            table, _token = tables.create_table(db, tally, {}, 2, rng)
            times.append((time.perf_counter() - started) * 1000)
            lengths.add(len(table["code"]))
    finally:
        db.close()
    times.sort()
    return (f"{count} new tables, codes of {'/'.join(map(str, sorted(lengths)))} letters: "
            f"creation p50 {statistics.median(times):.1f} ms, "
            f"p95 {times[int(len(times) * 0.95) - 1]:.1f} ms, max {times[-1]:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = str(Path(folder) / "crowded.sqlite")
        migrate(path)
        print("empty database:", create(path, args.tables))
        started = time.perf_counter()
        count = fill_every_four_letter_code(path)
        print(f"every four-letter code ({count:,}) now taken by a table "
              f"({time.perf_counter() - started:.1f} s to fill)")
        print("crowded database:", create(path, args.tables))

if __name__ == "__main__":
    main()
