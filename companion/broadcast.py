"""Live updates: a per-table "changed to version V" signal, nothing more, and how it
is written on an event stream.

Only version numbers travel on the shared stream; each page then fetches its
own view with its own cookie, so a secret can never ride along.

``Broadcaster`` tells of every change: it wakes the threads that serve
``/t/<code>/events`` through WSGI (companion/web/live.py: the Flask test client, any
WSGI server), and its listeners, such as the stream hub of ``companion serve``
(companion/server/streamhub.py), which holds every page's stream without a thread.
"""

from __future__ import annotations

import threading
from collections.abc import Callable


def event(version: int, first: bool = False, code: str | None = None) -> str:
    """One server-sent event; the first also tells the browser how soon to reconnect.
    On a browser's shared stream (several tables, ``GET /events``) it names its table:
    ``data: CODE VERSION``."""
    data = f"{code} {version}" if code else str(version)
    return ("retry: 1500\n" if first else "") + f"event: changed\ndata: {data}\n\n"


HEARTBEAT = ": still here\n\n"


class Broadcaster:
    """Waiters per table, so that a change at one table wakes only that table's
    devices; ``subscribe`` adds a listener (the stream hub) told of every change."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._tables: dict[int, tuple[threading.Condition, list[int]]] = {}
        self._listeners: list[Callable[[int, int], None]] = []
        self._any = threading.Condition()  # woken by every change (a shared stream)

    def subscribe(self, listener: Callable[[int, int], None]) -> None:
        self._listeners.append(listener)

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
        with self._any:
            self._any.notify_all()
        for listener in self._listeners:
            listener(table_id, version)

    def wait(self, table_id: int, seen: int, timeout: float) -> int:
        """The table's latest known version once it passes ``seen``, or after
        ``timeout`` seconds whatever it is (0 when nothing was published yet)."""
        condition, latest = self._slot(table_id)
        with condition:
            condition.wait_for(lambda: latest[0] > seen, timeout)
            return latest[0]

    def wait_any(self, seen: dict[int, int], timeout: float) -> dict[int, int]:
        """The tables of ``seen`` (table id: version) whose latest known version passed
        it, with that version, as soon as one did, or after ``timeout`` seconds (then
        empty)."""
        slots = {table: self._slot(table)[1] for table in seen}

        def changed() -> dict[int, int]:
            return {table: slots[table][0] for table, version in seen.items()
                    if slots[table][0] > version}

        with self._any:
            self._any.wait_for(changed, timeout)
            return changed()
