"""What one device (one client address) may take of the server, so that no device can
freeze the room. The host's laptop itself is trusted and never limited.

- ``PER_ADDRESS`` connections (one more is refused at once), so one greedy device cannot
  use up the room's connections; as many live pages (the stream hub counts those);
- a request's headers must arrive within ``REQUEST_DEADLINE`` seconds of its first byte
  (its body within ``BODY_DEADLINE``), and a new connection must start a request within
  that time, so slow or silent clients cannot sit on connections (bench/slow.py);
- ``BUSY_PER_ADDRESS`` requests served at once, and beyond a burst of ``BURST`` at most
  ``RATE_PER_ADDRESS`` a second; its other requests wait their turn, so a page opened in
  a loop takes its share of the server, no more (bench/greedy.py).

``DeviceLimits`` keeps the counts; companion/server/wsgi.py enforces them on waitress's
connections.
"""

from __future__ import annotations

import threading
import time
from collections import Counter, defaultdict, deque
from typing import Any

# The host's own laptop (its browser on 127.0.0.1, the test suite, the campaigns) is
# trusted and never limited; every other address is one device. Narrower than
# companion.net.is_this_laptop on purpose: the rest of 127.0.0.0/8 is how the room
# benchmarks and tests/test_storm.py stand in for phones, each on an address of its own.
THIS_LAPTOP = frozenset({"127.0.0.1", "::1"})
PER_ADDRESS = 48
BUSY_PER_ADDRESS = 3
RATE_PER_ADDRESS = 20.0
BURST = 40.0
REQUEST_DEADLINE = 5.0
BODY_DEADLINE = 30.0


class DeviceLimits:
    """Per device: its open connections, its requests being served and those waiting
    their turn, and its pace. Called from the server's loop and its worker threads."""

    def __init__(self) -> None:
        self.connections: Counter[str] = Counter()
        self.busy: Counter[str] = Counter()
        self.parked: dict[str, deque[Any]] = defaultdict(deque)
        self.lock = threading.Lock()
        self.buckets: dict[str, list[float]] = {}

    def connect(self, address: str) -> bool:
        """Count a new connection, or False (counting nothing) when the device already
        holds ``PER_ADDRESS``."""
        if self.connections[address] >= PER_ADDRESS and address not in THIS_LAPTOP:
            return False
        self.connections[address] += 1
        return True

    def disconnect(self, address: str) -> None:
        self.connections[address] -= 1
        if self.connections[address] <= 0:
            del self.connections[address]

    def start(self, address: str, request: Any) -> bool:
        """True when the device may have ``request`` served now; else it is parked
        until one of the device's requests is done."""
        with self.lock:
            if self.busy[address] >= BUSY_PER_ADDRESS and address not in THIS_LAPTOP:
                self.parked[address].append(request)
                return False
            self.busy[address] += 1
        return True

    def done(self, address: str) -> Any:
        """One of the device's requests has been served: its next parked request, now
        counted as served, or None."""
        with self.lock:
            self.busy[address] -= 1
            waiting = self.parked.get(address)
            following = waiting.popleft() if waiting else None
            if waiting is not None and not waiting:
                del self.parked[address]
            if following is not None:
                self.busy[address] += 1
            elif self.busy[address] <= 0:
                del self.busy[address]
        return following

    def pace(self, address: str) -> float:
        """Seconds this device's next request should wait to stay within
        ``RATE_PER_ADDRESS`` requests a second (after a burst of ``BURST``)."""
        if address in THIS_LAPTOP:
            return 0.0
        now = time.monotonic()
        with self.lock:
            tokens, then = self.buckets.get(address, (BURST, now))
            tokens = min(BURST, tokens + (now - then) * RATE_PER_ADDRESS) - 1
            self.buckets[address] = [tokens, now]
        return 0.0 if tokens >= 0 else min(-tokens / RATE_PER_ADDRESS, 10.0)

    def forget_quiet(self) -> None:
        """A device quiet for a minute has its whole burst back: its bucket goes."""
        quiet = time.monotonic() - 60
        with self.lock:
            for address, (_tokens, then) in list(self.buckets.items()):
                if then < quiet:
                    del self.buckets[address]
