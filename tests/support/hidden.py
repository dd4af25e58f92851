"""The omniscient observer of the browser tests: a table's hidden state, read from the
server's database, and a second table given the same game with one secret changed.

The glance tests play two games with the same public actions and different secrets; the
deal is random in the real server, so the second table's state is made from the first's.
No page under test ever reads this: it stands for the box of cards on the real table.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from companion import logstore, tables
from companion.db import connect, write_transaction


def hidden_state(server: Any, code: str) -> dict[str, Any]:
    """The table's whole game state, secrets included."""
    with sqlite3.connect(server.db) as db:
        row = db.execute("SELECT state FROM tables WHERE code = ?", [code]).fetchone()
    return logstore.unpack(row[0])


def deal_again(server: Any, code: str, state: dict[str, Any]) -> None:
    """Replace the table's state (between two actions, before anyone acts on it again):
    the same game with a secret changed, stored as the app stores a state: the table's
    row and a new log entry holding it (kind "redeal", which no page describes), so the
    log still ends with the table's state and no page drawn before is served again
    (companion/web/page_cache.py). The version stays, so open forms stay valid; the pages are
    reloaded by hand."""
    db = connect(server.db)
    try:
        with write_transaction(db):
            table = tables.get_table(db, code)
            assert table is not None, code
            db.execute("UPDATE tables SET state = ? WHERE id = ?",
                       [logstore.pack(state), table["id"]])
            tables._log(db, table, table["version"], "table", "redeal", state=state)
    finally:
        db.close()
