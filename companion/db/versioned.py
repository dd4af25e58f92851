"""Rows changed only at the version their sender saw: a table of play, a tournament.

A change re-reads its row inside the write transaction (``write_transaction``: nobody
else writes meanwhile), refuses it when the version the sender's page showed is not the
row's any more, and bumps the version with what it changed, so that a doubled or stale
submission changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlite_utils import Database

STAMP = "strftime('%Y-%m-%dT%H:%M:%SZ', 'now')"
"""The moment of a change, as the database writes it (``updated_at``)."""


@dataclass(frozen=True)
class Versioned:
    """One kind of versioned row: its SQL table (with ``id`` and ``version`` columns),
    how a row is read, the refusals of a row that is gone and of a stale version, and
    whether a change stamps ``updated_at``."""

    table: str
    read: Callable[[Database, int], dict[str, Any] | None]
    gone: Callable[[], Exception]
    stale: Callable[[], Exception]
    stamped: bool = False

    def reread(self, db: Database, row_id: int, seen_version: int | None) -> dict[str, Any]:
        """The row as it is inside the write transaction, at ``seen_version`` (None:
        whatever its version)."""
        row = self.read(db, row_id)
        if row is None:
            raise self.gone()
        if seen_version is not None and seen_version != row["version"]:
            raise self.stale()
        return row

    def bump(self, db: Database, row: Mapping[str, Any], **columns: Any) -> int:
        """Write ``columns`` (as the database keeps them) with the row's next version,
        and give that version."""
        version = row["version"] + 1
        columns = {"version": version, **columns}
        assignments = ", ".join(f"{name} = ?" for name in columns)
        stamp = f", updated_at = {STAMP}" if self.stamped else ""
        db.execute(f"UPDATE {self.table} SET {assignments}{stamp} WHERE id = ?",
                   [*columns.values(), row["id"]])
        return version
