"""Waitress as ``companion serve`` runs it: pages and actions on worker threads,
event streams handed to the stream hub, the per-device limits enforced.

Waitress reads every request (on Windows, macOS and Linux alike). A request for
``/t/<code>/events`` is not given a worker thread: its connection is handed to
the stream hub (companion/server/streamhub.py), which holds any number of idle streams
on one loop. Every other request goes to a worker thread, actions first, within its
device's share (companion/server/limits.py). When every connection is taken, the
kept-alive one idle the longest (else the slowest request still arriving) makes room
for a newcomer.
"""

from __future__ import annotations

import hashlib
import re
import socket
import threading
import time
from typing import Any
from urllib.parse import parse_qs

from flask import Flask
from waitress import wasyncore
from waitress.channel import HTTPChannel
from waitress.server import TcpWSGIServer
from waitress.task import ThreadedTaskDispatcher

from companion.server import limits, quietloop, raw
from companion.server.streamhub import StreamHub
from companion.web import live

EVENTS = re.compile(r"^/t/([^/]{1,32})/events$")
SHARED_EVENTS = "/events"  # a browser's one stream for the tables of all its pages
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
    queued = False  # its request waits for a worker thread (companion/server/quietloop.py)

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
        (companion/server/quietloop.py): it waits for its next request, or in the queue."""
        return (flags == quietloop.READ and not self.requests) or (flags == 0 and self.queued)

    def del_channel(self, map: dict[int, Any] | None = None) -> None:
        if self.counted:
            self.counted = False
            self.server.devices.disconnect(self.addr[0])
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
    """Waitress, with event streams handed to the hub and per-device limits."""

    channel_class = Channel

    def __init__(self, app: Flask, hub: StreamHub, devices: limits.DeviceLimits,
                 hard_limit: int, **kw: Any) -> None:
        self.hub = hub
        self.hard_limit = hard_limit
        self.devices = devices
        self.loop_thread: int | None = None
        self.loop: quietloop.QuietLoop | None = None
        self.stopping = False
        super().__init__(app, **kw)

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
        if self.devices.over(addr[0]) and not self._idle_makes_room(addr[0]):
            _refuse(conn, 429, "Too many connections from this device.")
            return
        self.devices.connect(addr[0])
        try:
            self.set_socket_options(conn)
            channel = self.channel_class(self, conn, addr, self.adj, map=self._map)
        except OSError:
            self.devices.disconnect(addr[0])
            conn.close()
            return
        crowd = len(self.active_channels)
        if crowd > self.adj.connection_limit and not self._make_room(crowd > self.hard_limit) \
                and crowd > self.hard_limit:
            # Every connection is busy with a request: this one is told so.
            channel.del_channel()
            _refuse(conn, 503, "The laptop is busy. Try again in a moment.")

    def add_task(self, channel: Any) -> None:
        request = channel.requests[0]
        path = request.path or ""
        match = EVENTS.match(path)
        if ((match or path == SHARED_EVENTS) and request.command in ("GET", "HEAD")
                and len(channel.requests) == 1
                and channel.request in (None, request) and not channel.total_outbufs_len
                and threading.get_ident() == self.loop_thread):
            # The stream leaves waitress: its socket goes to the hub, its thread is
            # never taken. (Only on the loop thread, which owns the socket map.)
            sock = channel.socket
            address = channel.addr[0]
            channel.del_channel()
            channel.connected = False
            codes = ([match.group(1)] if match else
                     live.shared_codes(parse_qs(request.query).get("t", [])))
            self.hub.adopt(sock, address, codes, request.command == "HEAD",
                           _phone(request.headers.get("COOKIE", "")), shared=not match,
                           language=request.headers.get("ACCEPT_LANGUAGE", ""))
            return
        address = channel.addr[0]
        channel.queued = True
        # A device that already has its share of the threads: its next request waits
        # for one of them, not for everyone else's.
        if self.devices.start(address, channel):
            self._dispatch(channel)

    def _dispatch(self, channel: Any) -> None:
        """To a worker thread now, or once the device is back within its pace (it waits
        on a timer, holding no worker thread)."""
        wait = self.devices.pace(channel.addr[0])
        if wait > 0:
            timer = threading.Timer(wait, self.task_dispatcher.add_task, [channel])
            timer.daemon = True
            timer.start()
        else:
            self.task_dispatcher.add_task(channel)

    def done(self, channel: Any) -> None:
        """A request has been served: the device's next waiting request may run."""
        following = self.devices.done(channel.addr[0])
        if following is not None:
            self._dispatch(following)

    def maintenance(self, now: float) -> None:
        super().maintenance(now)
        for channel in list(self.active_channels.values()):
            since = channel.waiting_since
            # Headers in a few seconds; a body (an imported file) may take longer.
            body = channel.request is not None and channel.request.headers_finished
            limit = limits.BODY_DEADLINE if body else limits.REQUEST_DEADLINE
            if since is not None and now - since > limit and not channel.requests:
                # Slow or silent: the connection is dropped, its slot freed.
                channel.will_close = True
        self.devices.upkeep()

    def _idle_makes_room(self, address: str) -> bool:
        """The device is at its share of connections: its kept-alive one idle the
        longest closes (a browser keeps several open in case; it opens another when it
        needs one), so only what a device really holds counts. False: none is idle."""
        idle = [channel for channel in self.active_channels.values()
                if channel.addr[0] == address and channel.waiting_since is None
                and not channel.requests and not channel.total_outbufs_len
                and not channel.will_close]
        if not idle:
            return False
        min(idle, key=lambda channel: channel.last_activity).will_close = True
        return True

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
        """Serve until ``stop`` (or a KeyboardInterrupt before its handler is set)."""
        if quietloop.available():
            self.loop = quietloop.QuietLoop(
                self._map, lambda obj, flags: isinstance(obj, Channel) and obj.quiet(flags))
            turn = self.loop.turn
        else:
            def turn(timeout: float) -> None:
                wasyncore.poll(timeout, self._map)
        try:
            while self._map and not self.stopping:
                turn(self.adj.asyncore_loop_timeout)
        except (SystemExit, KeyboardInterrupt):
            pass
        self.task_dispatcher.shutdown()

    def stop(self) -> None:
        """Ask the loop to end after its turn, and wake it. Safe in a signal handler:
        a KeyboardInterrupt raised there lands at any bytecode of the loop thread, inside
        a ``with lock`` of the task dispatcher, say, which may then stay taken; once in
        CI, stopping with streams open hung for good (tests/test_storm.py)."""
        self.stopping = True
        self.pull_trigger()

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


def _phone(cookies: str) -> str:
    """What a stream's cookies say of the phone it comes from: phones behind one address
    hold cookies of their own (their session, their seat). A digest: nothing of a cookie
    is kept."""
    return hashlib.blake2b(cookies.encode(), digest_size=8).hexdigest()


def _refuse(conn: socket.socket, status: int, message: str) -> None:
    """Answer a connection waitress never took, and close it."""
    try:
        conn.setblocking(False)
        conn.send(raw.refusal(status, message, retry_after=10))
    except OSError:
        pass
    finally:
        conn.close()
