"""A laptop after a long life: every four-letter join code taken (tests/test_codes.py,
bench/crowded_codes.py)."""

from __future__ import annotations

from companion import tables
from companion.db import connect


def fill_every_four_letter_code(path: str) -> int:
    """Every 4-letter code taken, by ended tables where free (22^4 = 234,256 of them);
    returns how many 4-letter codes the database then holds."""
    db = connect(path)
    letters = ", ".join(f"('{letter}')" for letter in tables.CODE_LETTERS)
    try:
        with db.conn:
            db.execute(
                f"WITH l(c) AS (VALUES {letters}) "
                "INSERT OR IGNORE INTO tables (code, game, options, status, host_token_hash) "
                "SELECT a.c || b.c || c.c || d.c, 'tally', '{}', 'closed', 'x' "
                "FROM l a, l b, l c, l d")
        return db.execute("SELECT count(*) FROM tables WHERE length(code) = 4").fetchone()[0]
    finally:
        db.close()
