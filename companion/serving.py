"""The HTTP server of `companion serve`: waitress for pages, the stream hub for
event streams, and limits that keep one device from freezing the room.

Waitress reads every request (on Windows, macOS and Linux alike). A request for
``/t/<code>/events`` is not given a worker thread: its connection is handed to
the stream hub (companion/live.py), which holds any number of idle streams on one
loop. What one device (one client address; the host's laptop itself is trusted and
never limited) can take is bounded:

- per client address (``PER_ADDRESS`` connections; one more is refused at once), so
  one greedy device cannot use up the room's connections;
- a request's headers must arrive within ``REQUEST_DEADLINE`` seconds of its first
  byte (its body within ``BODY_DEADLINE``), and a new connection must start a request
  within that time, so slow or silent clients cannot sit on connections (bench/slow.py);
- when every connection is taken, the kept-alive one idle the longest (else the slowest
  request still arriving) makes room for a newcomer;
- a device has at most ``BUSY_PER_ADDRESS`` requests served at once, and beyond a burst
  at most ``RATE_PER_ADDRESS`` a second; its other requests wait their turn, so a page
  opened in a loop takes its share of the server, no more (bench/greedy.py).
"""

from __future__ import annotations

import contextlib
import re
import socket
import sys
import threading
import time
from collections import Counter, defaultdict, deque
from typing import Any

from flask import Flask
from waitress.channel import HTTPChannel
from waitress.server import TcpWSGIServer
from waitress.task import ThreadedTaskDispatcher

from companion import quietloop
from companion.live import StreamHub
from companion.web.live import stream_hub

# The host's own laptop (its browser on 127.0.0.1, the test suite, the campaigns) is
# trusted and never limited; every other address is one device. Narrower than
# companion.net.is_this_laptop on purpose: the rest of 127.0.0.0/8 is how the room
# benchmarks and tests/test_storm.py stand in for phones, each on an address of its own.
THIS_LAPTOP = frozenset({"127.0.0.1", "::1"})
EVENTS = re.compile(r"^/t/([^/]{1,32})/events$")
PER_ADDRESS = 48
BUSY_PER_ADDRESS = 3
RATE_PER_ADDRESS = 20.0
BURST = 40.0
REQUEST_DEADLINE = 5.0
BODY_DEADLINE = 30.0
# Streams hold no thread. Two threads, actions first: more only take turns on the
# interpreter lock, each request then waiting for all the others (bench/clubnight.py,
# one action per table every 3 s: action p95 171 ms with 8 threads, 114 with 3, 63
# with 2; 1 thread stalls behind each action's fsync).
THREADS = 2
ACCEPT_BATCH = 64
SLOW = 1.0


class Channel(HTTPChannel):
    """A waitress connection that knows when its unfinished request began."""

    waiting_since: float | None = None  # first byte of a request not yet whole
    counted = False
    queued = False  # its request waits for a worker thread (companion/quietloop.py)

    def __init__(self, server: Server, sock: socket.socket, addr: Any, adj: Any,
                 map: dict[int, Any] | None = None) -> None:
        super().__init__(server, sock, addr, adj, map=map)
        self.counted = True
        # A new connection counts as waiting: it must send its request in time too.
        self.waiting_since = self.creation_time

    def received(self, data: bytes) -> bool:
        if self.waiting_since is None and not self.requests:
            self.waiting_since = time.time()
        result = super().received(data)
        if self.request is None:  # nothing half-read
            self.waiting_since = None
        return result

    def service(self) -> None:
        self.queued = False
        if self.server.loop is not None:
            self.server.loop.touch(self._fileno)
        try:
            super().service()
        finally:
            self.server.done(self)

    def quiet(self, flags: int) -> bool:
        """Nothing can change this connection but data arriving or a worker taking it
        (companion/quietloop.py): it waits for its next request, or in the queue."""
        return (flags == quietloop.READ and not self.requests) or (flags == 0 and self.queued)

    def del_channel(self, map: dict[int, Any] | None = None) -> None:
        if self.counted:
            self.counted = False
            self.server.forget(self.addr[0])
        super().del_channel(map)


class Dispatcher(ThreadedTaskDispatcher):
    """Waitress's worker threads, with actions served before page fetches: an action
    is what a player waits for, and each one sets off several devices' fetches
    (bench/clubnight.py), which would otherwise queue in front of the next action."""

    def add_task(self, task: Any) -> None:
        first = bool(task.requests) and task.requests[0].command == "POST"
        with self.lock:
            if first:
                self.queue.appendleft(task)
            else:
                self.queue.append(task)
            self.queue_cv.notify()


class Server(TcpWSGIServer):
    """Waitress, with event streams handed to the hub and per-address limits."""

    channel_class = Channel

    def __init__(self, app: Flask, hub: StreamHub, hard_limit: int, **kw: Any) -> None:
        self.hub = hub
        self.hard_limit = hard_limit
        self.per_address: Counter[str] = Counter()
        self.busy: Counter[str] = Counter()
        self.parked: dict[str, deque[Any]] = defaultdict(deque)
        self.busy_lock = threading.Lock()
        self.buckets: dict[str, list[float]] = {}
        self.loop_thread: int | None = None
        self.loop: quietloop.QuietLoop | None = None
        super().__init__(app, **kw)

    def forget(self, address: str) -> None:
        self.per_address[address] -= 1
        if self.per_address[address] <= 0:
            del self.per_address[address]

    def handle_accept(self) -> None:
        # Many at a time: one per loop turn (waitress's way) left newcomers queued for
        # seconds behind a crowd of reconnecting clients (bench/slow.py).
        for _ in range(ACCEPT_BATCH):
            try:
                accepted = self.accept()
            except OSError:
                return
            if accepted is None:
                return
            self._admit(*accepted)

    def _admit(self, conn: socket.socket, addr: Any) -> None:
        addr = self.fix_addr(addr)
        if self.per_address[addr[0]] >= PER_ADDRESS and addr[0] not in THIS_LAPTOP:
            _refuse(conn, b"Too many connections from this device.")
            return
        self.per_address[addr[0]] += 1
        try:
            self.set_socket_options(conn)
            channel = self.channel_class(self, conn, addr, self.adj, map=self._map)
        except OSError:
            self.forget(addr[0])
            conn.close()
            return
        crowd = len(self.active_channels)
        if crowd > self.adj.connection_limit and not self._make_room(crowd > self.hard_limit) \
                and crowd > self.hard_limit:
            # Every connection is busy with a request: this one is told so.
            channel.del_channel()
            _refuse(conn, b"The laptop is busy. Try again in a moment.", 503)

    def add_task(self, channel: Any) -> None:
        request = channel.requests[0]
        match = EVENTS.match(request.path or "")
        if (match and request.command in ("GET", "HEAD") and len(channel.requests) == 1
                and channel.request in (None, request) and not channel.total_outbufs_len
                and threading.get_ident() == self.loop_thread):
            # The stream leaves waitress: its socket goes to the hub, its thread is
            # never taken. (Only on the loop thread, which owns the socket map.)
            sock = channel.socket
            address = channel.addr[0]
            channel.del_channel()
            channel.connected = False
            self.hub.adopt(sock, address, match.group(1), request.command == "HEAD")
            return
        address = channel.addr[0]
        channel.queued = True
        with self.busy_lock:
            if self.busy[address] >= BUSY_PER_ADDRESS and address not in THIS_LAPTOP:
                # This device already has its share of the threads: its next request
                # waits for one of them, not for everyone else's.
                self.parked[address].append(channel)
                return
            self.busy[address] += 1
        self._dispatch(channel)

    def _dispatch(self, channel: Any) -> None:
        """To a worker thread now, or once the device is back within its pace (it waits
        on a timer, holding no worker thread)."""
        wait = self.pace(channel.addr[0])
        if wait > 0:
            timer = threading.Timer(wait, self.task_dispatcher.add_task, [channel])
            timer.daemon = True
            timer.start()
        else:
            self.task_dispatcher.add_task(channel)

    def pace(self, address: str) -> float:
        """Seconds this device's next request should wait to stay within
        ``RATE_PER_ADDRESS`` requests a second (after a burst of ``BURST``)."""
        if address in THIS_LAPTOP:
            return 0.0
        now = time.monotonic()
        with self.busy_lock:
            tokens, then = self.buckets.get(address, (BURST, now))
            tokens = min(BURST, tokens + (now - then) * RATE_PER_ADDRESS) - 1
            self.buckets[address] = [tokens, now]
        return 0.0 if tokens >= 0 else min(-tokens / RATE_PER_ADDRESS, 10.0)

    def done(self, channel: Any) -> None:
        """A request has been served: the device's next waiting request may run."""
        address = channel.addr[0]
        with self.busy_lock:
            self.busy[address] -= 1
            waiting = self.parked.get(address)
            following = waiting.popleft() if waiting else None
            if waiting is not None and not waiting:
                del self.parked[address]
            if following is not None:
                self.busy[address] += 1
            elif self.busy[address] <= 0:
                del self.busy[address]
        if following is not None:
            self._dispatch(following)

    def maintenance(self, now: float) -> None:
        super().maintenance(now)
        for channel in list(self.active_channels.values()):
            since = channel.waiting_since
            # Headers in a few seconds; a body (an imported file) may take longer.
            body = channel.request is not None and channel.request.headers_finished
            limit = BODY_DEADLINE if body else REQUEST_DEADLINE
            if since is not None and now - since > limit and not channel.requests:
                # Slow or silent: the connection is dropped, its slot freed.
                channel.will_close = True
        # A device quiet for a minute has its whole burst back: forget its bucket.
        quiet = time.monotonic() - 60
        with self.busy_lock:
            for address, (_tokens, then) in list(self.buckets.items()):
                if then < quiet:
                    del self.buckets[address]

    def _make_room(self, full: bool = False) -> bool:
        """Every connection is taken: close the kept-alive one idle the longest, else
        the one whose request has been arriving the longest (a whole request takes
        milliseconds). A newcomer is so never kept waiting behind slow clients.
        ``full``: past the hard limit, the one whose request has been arriving the
        longest goes however young (a crowd of slow clients reconnecting at once is never
        old: newcomers were refused instead, bench/slow.py on a quiet machine); one not
        yet read from is left alone (a crowd of pages opening their streams at once:
        those past the limit are told so, bench/streams.py)."""
        open_ = [channel for channel in self.active_channels.values()
                 if not channel.requests and not channel.total_outbufs_len
                 and not channel.will_close]
        idle = [channel for channel in open_ if channel.waiting_since is None]
        if idle:
            min(idle, key=lambda channel: channel.last_activity).will_close = True
            return True
        # Only a request that started arriving a while ago counts as slow: a burst of
        # newcomers (a room reconnecting) may wait a moment to be read on a busy laptop.
        late = time.time() - SLOW
        slow = [channel for channel in open_ if channel.request is not None
                and channel.waiting_since is not None and (full or channel.waiting_since < late)]
        if slow:
            min(slow, key=lambda channel: channel.waiting_since).will_close = True
            return True
        return False

    def run(self) -> None:
        if not quietloop.available():
            super().run()
            return
        self.loop = quietloop.QuietLoop(
            self._map, lambda obj, flags: isinstance(obj, Channel) and obj.quiet(flags))
        try:
            while self._map:
                self.loop.turn(self.adj.asyncore_loop_timeout)
        except (SystemExit, KeyboardInterrupt):
            self.task_dispatcher.shutdown()

    def readable(self) -> bool:
        """Always accepting (waitress stops at its connection limit, leaving newcomers
        queued behind whoever holds the connections): ``handle_accept`` makes room."""
        if self.loop_thread is None:
            self.loop_thread = threading.get_ident()
        now = time.time()
        if now >= self.next_channel_cleanup:
            self.next_channel_cleanup = now + self.adj.cleanup_interval
            self.maintenance(now)
        return self.accepting


def _refuse(conn: socket.socket, message: bytes, status: int = 429) -> None:
    reason = b"Too Many Requests" if status == 429 else b"Service Unavailable"
    try:
        conn.setblocking(False)
        conn.send(b"HTTP/1.1 %d %s\r\nContent-Type: text/plain; charset=utf-8\r\n"
                  b"Content-Length: %d\r\nRetry-After: 10\r\nConnection: close\r\n\r\n%s"
                  % (status, reason, len(message), message))
    except OSError:
        pass
    finally:
        conn.close()


def raise_open_file_limit(wanted: int) -> None:
    """Each connection is a file descriptor; many systems allow only 256 or 1,024 by
    default, fewer than a room of streams. Windows has no such limit."""
    if sys.platform == "win32":
        return
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    # macOS refuses more than its own per-process cap (often 10,240) whatever the hard
    # limit says: then a smaller raise is tried.
    for limit in (target, min(target, 10240), min(target, 4096)):
        if soft == resource.RLIM_INFINITY or soft >= limit:
            return
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (limit, hard))
            return


def make_server(app: Flask, host: str, port: int, devices: int) -> Server:
    """Waitress sized for ``devices`` phones and screens, each with its event stream
    on the hub (twice as many streams fit before one is refused)."""
    streams = devices * 2
    # A connection per device plus room; past it, idle and slow ones make room for
    # newcomers, and a burst may go over up to the hard limit (on Windows select()
    # stops at 512 sockets).
    connections = devices + 64
    hard = min(connections * 2, 500) if sys.platform == "win32" else connections * 2
    connections = min(connections, hard)
    raise_open_file_limit(streams + hard + 256)
    hub = stream_hub(app, capacity=streams, per_address=PER_ADDRESS, exempt=THIS_LAPTOP)
    dispatcher = Dispatcher()
    dispatcher.set_thread_count(THREADS)
    return Server(app, hub, hard, host=host, port=port, dispatcher=dispatcher, threads=THREADS,
                  connection_limit=connections, asyncore_use_poll=True,
                  channel_timeout=60, cleanup_interval=1, ident="companion")
