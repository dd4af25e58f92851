"""Live updates: a per-table "changed to version V" signal, nothing more.

Only version numbers travel on the shared stream; each page then fetches its
own view with its own cookie, so a secret can never ride along. Waiters are
kept per table so that a change at one table wakes only that table's devices.
"""

from __future__ import annotations

import threading


class Broadcaster:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._tables: dict[int, tuple[threading.Condition, list[int]]] = {}

    def _slot(self, table_id: int) -> tuple[threading.Condition, list[int]]:
        with self._lock:
            slot = self._tables.get(table_id)
            if slot is None:
                slot = self._tables[table_id] = (threading.Condition(), [0])
            return slot

    def publish(self, table_id: int, version: int) -> None:
        condition, latest = self._slot(table_id)
        with condition:
            if version > latest[0]:
                latest[0] = version
            condition.notify_all()

    def wait(self, table_id: int, seen: int, timeout: float) -> int:
        """The table's latest known version once it passes ``seen``, or after
        ``timeout`` seconds whatever it is (0 when nothing was published yet)."""
        condition, latest = self._slot(table_id)
        with condition:
            condition.wait_for(lambda: latest[0] > seen, timeout)
            return latest[0]
