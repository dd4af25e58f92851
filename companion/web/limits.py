"""How many tables and tournaments one device may create: plenty for a game night,
never a flood.

Each table takes a join code and room in the database: a script creating hundreds a
second would fill both (issue 15). So each client address may create ``CREATE_LIMIT``
tables in ``CREATE_WINDOW`` seconds, and ``TOURNAMENT_LIMIT`` tournaments (created or
imported: a flood of them buried the club's real one, issue 37); the laptop the server
runs on is never limited (``companion.net.is_this_laptop``), so the host and a
tournament's organiser at the laptop create as many as they need.
"""

from __future__ import annotations

import math
import threading
import time
from collections import deque
from collections.abc import Callable

from flask import current_app, request

from companion.net import is_this_laptop
from companion.words import ngettext

CREATE_LIMIT = 10
CREATE_WINDOW = 600.0
"""Ten tables in ten minutes from one phone: more than a club sets up by hand."""
TOURNAMENT_LIMIT = 3
"""Three tournaments in the same ten minutes: a club runs one at a time."""


class CreationLimit:
    """Recent creations per client address, in memory (a restart forgets them)."""

    def __init__(self, count: int, window: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.count = count
        self.window = window
        self._clock = clock
        self._lock = threading.Lock()
        self._recent: dict[str, deque[float]] = {}

    def take(self, address: str, tables: int = 1) -> float | None:
        """Count ``tables`` new tables for ``address``, or, when that would pass the
        limit, count nothing and return the seconds until it may create again."""
        now = self._clock()
        with self._lock:
            self._forget(now)
            recent = self._recent.setdefault(address, deque())
            if len(recent) + tables > self.count:
                return max(1.0, recent[0] + self.window - now) if recent else self.window
            recent.extend([now] * tables)
        return None

    def add(self, address: str, tables: int) -> None:
        """Count ``tables`` already created, whatever the limit."""
        now = self._clock()
        with self._lock:
            self._recent.setdefault(address, deque()).extend([now] * tables)

    def _forget(self, now: float) -> None:
        for address in list(self._recent):
            recent = self._recent[address]
            while recent and recent[0] <= now - self.window:
                recent.popleft()
            if not recent:
                del self._recent[address]


def _limit(kind: str) -> CreationLimit:
    """This app's limit of ``kind`` ("tables" or "tournaments"), made at its first use."""
    limits = current_app.extensions.setdefault("creation_limits", {})
    if kind not in limits:
        count = current_app.config["CREATE_LIMIT" if kind == "tables" else "TOURNAMENT_LIMIT"]
        limits.setdefault(kind, CreationLimit(count, current_app.config["CREATE_WINDOW"]))
    return limits[kind]


def _refused(kind: str, count: int, words: Callable[..., str]) -> str | None:
    """None when this request may create ``count`` more of ``kind`` (they are then
    counted), else ``words`` (an ngettext of "wait n minute(s)") for the minutes to wait."""
    if is_this_laptop(request.remote_addr):
        return None
    limit = _limit(kind)
    wait = limit.take(request.remote_addr or "", count)
    if wait is None:
        return None
    return words(math.ceil(wait / 60), count=limit.count,
                 window=math.ceil(limit.window / 60))


def creation_refused(tables: int = 1) -> str | None:
    """None when this request may create ``tables`` tables (they are then counted), or
    the message to answer with status 429."""
    return _refused("tables", tables, lambda minutes, **said: ngettext(
        "This device has created %(count)s tables in the last %(window)s minutes, the most "
        "one phone may. Please wait %(n)s minute, or create the table on the laptop "
        "running the companion.",
        "This device has created %(count)s tables in the last %(window)s minutes, the most "
        "one phone may. Please wait %(n)s minutes, or create the table on the laptop "
        "running the companion.", minutes, **said))


def tournament_refused() -> str | None:
    """None when this request may create (or import) a tournament, which is then
    counted, or the message to answer with status 429."""
    return _refused("tournaments", 1, lambda minutes, **said: ngettext(
        "This device has created %(count)s tournaments in the last %(window)s minutes, the "
        "most one phone may. Please wait %(n)s minute, or create the tournament on the "
        "laptop running the companion.",
        "This device has created %(count)s tournaments in the last %(window)s minutes, the "
        "most one phone may. Please wait %(n)s minutes, or create the tournament on the "
        "laptop running the companion.", minutes, **said))


def count_created(tables: int) -> None:
    """Count tables created by a request whose number was known only afterwards (a
    tournament round), after ``creation_refused`` let it start."""
    if tables > 0 and not is_this_laptop(request.remote_addr):
        _limit("tables").add(request.remote_addr or "", tables)
