"""What one device may take of the server, so that no device can freeze the room. The
host's laptop itself (at any of its addresses) is trusted and never limited.

A device is a client address, standing for as many phones as hold live pages of their
own there (event streams with cookies of their own, counted by the stream hub), up to
``phones_per_address`` (``companion serve --phones-per-address``, default
``PHONES_PER_ADDRESS``): behind a router doing NAT, a guest network's proxy or a hotspot,
every phone arrives from one address, and each still gets a phone's share. What a phone
really holds is counted, never the idle kept-alive connections its browser keeps open.
Each phone's share:

- ``PER_ADDRESS`` connections with a request on them (or not yet started): past that, the
  device's longest-idle kept-alive connection makes room (a browser opens another when it
  needs one), and only when none is idle is a new one refused, so one greedy device cannot
  use up the room's connections; ``PER_ADDRESS`` live pages for a device, or more where one
  address stands for more phones (``streams_per_address``; the stream hub counts those);
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
from collections.abc import Callable
from typing import Any

from companion.net import own_addresses

# The host's own laptop (its browser, the test suite, the campaigns) is trusted and never
# limited: these and its interfaces' addresses (laptop_addresses).
THIS_LAPTOP = frozenset({"127.0.0.1", "::1"})
PER_ADDRESS = 48
PHONES_PER_ADDRESS = 32
"""Phones one address may stand for unless ``companion serve --phones-per-address`` says
otherwise: a full club room behind one travel router. A single greedy client shows one
device's cookies and gets one phone's share whatever it opens (bench/greedy.py)."""
SPARE_STREAMS = 16  # second tabs and table screens, beyond one live page a phone
BUSY_PER_ADDRESS = 3
RATE_PER_ADDRESS = 20.0
BURST = 40.0
REQUEST_DEADLINE = 5.0
BODY_DEADLINE = 30.0


def streams_per_address(phones_per_address: int) -> int:
    """Live pages one address may hold: a phone's one each, and some spare."""
    return max(PER_ADDRESS, phones_per_address + SPARE_STREAMS)


def laptop_addresses() -> frozenset[str]:
    """The addresses the host's laptop arrives from: loopback and each of its network
    interfaces (``serve`` opens its browser at the Wi-Fi address). Not the rest of
    127.0.0.0/8: that is how the room benchmarks and tests/test_storm.py stand in for
    phones, each on an address of its own."""
    found = {str(address) for address in own_addresses()}
    # Waitress on a dual-stack socket may name an IPv4 client in its IPv6 form.
    return THIS_LAPTOP | found | {f"::ffff:{address}" for address in found if "." in address}


class DeviceLimits:
    """Per device: its open connections, its requests being served and those waiting
    their turn, and its pace. Called from the server's loop and its worker threads.
    ``phones_at(address)``: how many phones hold live pages there (the stream hub)."""

    LAPTOP_REFRESH = 10.0  # seconds: the Wi-Fi may change while serving

    def __init__(self, phones_per_address: int = PHONES_PER_ADDRESS,
                 phones_at: Callable[[str], int] = lambda _address: 1) -> None:
        self.phones_per_address = phones_per_address
        self.phones_at = phones_at
        self.connections: Counter[str] = Counter()
        self.busy: Counter[str] = Counter()
        self.parked: dict[str, deque[Any]] = defaultdict(deque)
        self.lock = threading.Lock()
        self.buckets: dict[str, list[float]] = {}
        self.laptop = laptop_addresses()
        self.laptop_read = time.monotonic()

    def share(self, address: str) -> int:
        """How many phones' shares ``address`` gets: one, or as many as hold live pages
        there, up to ``phones_per_address``."""
        return max(1, min(self.phones_at(address), self.phones_per_address))

    def over(self, address: str) -> bool:
        """Whether one more connection would take the device past its share (then one
        of its idle ones must make room, companion/server/wsgi.py)."""
        return (address not in self.laptop
                and self.connections[address] >= PER_ADDRESS * self.share(address))

    def connect(self, address: str) -> None:
        self.connections[address] += 1

    def disconnect(self, address: str) -> None:
        self.connections[address] -= 1
        if self.connections[address] <= 0:
            del self.connections[address]

    def start(self, address: str, request: Any) -> bool:
        """True when the device may have ``request`` served now; else it is parked
        until one of the device's requests is done."""
        with self.lock:
            if address not in self.laptop \
                    and self.busy[address] >= BUSY_PER_ADDRESS * self.share(address):
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
        if address in self.laptop:
            return 0.0
        share = self.share(address)
        burst, rate = BURST * share, RATE_PER_ADDRESS * share
        now = time.monotonic()
        with self.lock:
            tokens, then = self.buckets.get(address, (burst, now))
            tokens = min(burst, tokens + (now - then) * rate) - 1
            self.buckets[address] = [tokens, now]
        return 0.0 if tokens >= 0 else min(-tokens / rate, 10.0)

    def upkeep(self) -> None:
        """A device quiet for a minute has its whole burst back: its bucket goes. The
        laptop's addresses are read again now and then."""
        now = time.monotonic()
        if now - self.laptop_read > self.LAPTOP_REFRESH:
            self.laptop, self.laptop_read = laptop_addresses(), now
        quiet = now - 60
        with self.lock:
            for address, (_tokens, then) in list(self.buckets.items()):
                if then < quiet:
                    del self.buckets[address]
