"""Waitress's poll loop, without asking every connection on every turn.

``waitress.wasyncore.poll2`` asks each connection of the map whether it wants to read
or write on every turn of the loop, and the loop turns with every request and every
answer: with a room's 400 kept-alive connections that asking was a quarter of the
server's time in a busy room (bench/clubnight.py under ``py-spy record --gil``).

A connection that waits for its next request (nothing to send, nothing being served)
cannot change by itself: only data arriving on it, which poll reports, or the
server's own upkeep (dropping idle and slow connections, making room), which runs on
this thread and is caught by a full turn. Nor can one whose request waits in the queue
for a worker thread: the worker that takes it says so (``touched``), and from then on
it is asked on every turn until it is quiet again. So a quiet connection is asked again
only when poll reports it or a worker touches it, and every connection at least every
``FULL_TURN`` seconds. (Asking a queue of 400 waiting connections on every turn made a
reconnect storm cost three times the CPU, bench/storm.py --cold.)

Where ``select.poll`` does not exist (Windows) waitress's own loop runs.
"""

from __future__ import annotations

import select
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from waitress import wasyncore

FULL_TURN = 0.25
"""Seconds between two turns that ask every connection (the upkeep's changes)."""
READ = select.POLLIN | select.POLLPRI if hasattr(select, "poll") else 0
"""The flags of a connection that wants to read and has nothing to write."""


def available() -> bool:
    return hasattr(select, "poll")


class QuietLoop:
    """One poll registration kept across turns; only active connections are asked."""

    def __init__(self, map: dict[int, Any], is_quiet: Callable[[Any, int], bool]) -> None:
        self.map = map
        self.is_quiet = is_quiet  # (connection, its flags): it cannot change by itself
        self.pollster = select.poll()
        self.registered: dict[int, int] = {}
        self.quiet: set[int] = set()
        self.touched: deque[int] = deque()  # appended by worker threads
        self.full_at = 0.0

    def touch(self, fd: int) -> None:
        """A worker thread took this connection: ask it on the coming turns (called
        before the worker pulls the server's trigger)."""
        self.touched.append(fd)

    def _ask(self, fd: int, obj: Any) -> None:
        flags = READ if obj.readable() else 0
        if obj.writable() and not obj.accepting:
            flags |= select.POLLOUT
        if flags != self.registered.get(fd, 0):
            if flags:
                self.pollster.register(fd, flags)
                self.registered[fd] = flags
            else:
                self.pollster.unregister(fd)
                del self.registered[fd]
        if self.is_quiet(obj, flags):
            self.quiet.add(fd)
        else:
            self.quiet.discard(fd)

    def turn(self, timeout: float) -> None:
        """One turn: ask who may have changed, wait for events, handle them."""
        map = self.map
        for fd in self.registered.keys() - map.keys():
            self.pollster.unregister(fd)
            del self.registered[fd]
        self.quiet &= map.keys()
        touched = self.touched
        while touched:
            self.quiet.discard(touched.popleft())
        now = time.monotonic()
        if now >= self.full_at:
            self.full_at = now + FULL_TURN
            asked = list(map)
        else:
            asked = list(map.keys() - self.quiet)
        for fd in asked:
            obj = map.get(fd)
            if obj is not None:
                self._ask(fd, obj)
        try:
            events = self.pollster.poll(int(timeout * 1000))
        except InterruptedError:
            events = []
        for fd, flags in events:
            obj = map.get(fd)
            if obj is None:
                continue
            self.quiet.discard(fd)
            if obj.accepting:
                # A newcomer may have made room by closing a quiet connection.
                self.full_at = 0.0
            wasyncore.readwrite(obj, flags)
