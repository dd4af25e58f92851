"""The stream hub: every open page's event stream (``GET /t/<code>/events``), held on
one asyncio loop in one thread, so that an open page costs a socket, not a server
thread (bench/streams.py: 1,000 open streams; a thread each froze the room), and a page
that closes frees its stream the moment its socket says so.

Waitress reads the request and hands its connection over (companion/server/wsgi.py);
the hub then writes what the WSGI route of companion/web/live.py would: the same head,
the same events (companion/broadcast.py), told of every change by the app's
broadcaster.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import random
import socket
import threading
import time
from collections.abc import Callable

from flask import Flask

from companion import tables
from companion.broadcast import HEARTBEAT, event
from companion.db import get_db
from companion.server import raw
from companion.web.live import HEADERS
from companion.words import _

# What a stream's page needs first: the table's id and version, or None (no such table).
Opener = Callable[[str], "tuple[int, int] | None"]


def _chunk(text: str) -> bytes:
    data = text.encode()
    return b"%x\r\n%s\r\n" % (len(data), data)


class _Stream(asyncio.Protocol):
    """One page's event stream on the hub's loop."""

    def __init__(self, hub: StreamHub, address: str, phone: str) -> None:
        self.hub = hub
        self.address = address
        self.phone = phone
        # The tables it follows (id: code); a browser's shared stream names the table
        # in each event, a page's own stream follows one and does not.
        self.codes: dict[int, str] = {}
        self.shared = False
        self.transport: asyncio.Transport | None = None
        self.last_write = time.monotonic()
        self.deadline = 0.0
        self.closed = False
        self.language = ""
        """The request's Accept-Language (the words of a refusal)."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        """A stream's page has nothing more to say; anything it sends is dropped."""

    def eof_received(self) -> bool:
        # The page closed (tab closed, phone left, reload): free the stream now.
        self.hub._forget(self)
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        self.hub._forget(self)

    def write(self, data: bytes) -> None:
        if self.transport is None or self.transport.is_closing():
            return
        if self.transport.get_write_buffer_size() > StreamHub.MAX_BACKLOG:
            # A page that reads nothing (asleep behind a dead link) is let go.
            self.transport.abort()
            return
        self.transport.write(data)
        self.last_write = time.monotonic()

    def event(self, table_id: int, version: int, first: bool = False) -> str:
        """A change of one of its tables, as this stream tells it."""
        return event(version, first, self.codes[table_id] if self.shared else None)

    def end(self) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(b"0\r\n\r\n")
            self.transport.close()
        self.hub._forget(self)


class StreamHub:
    """Every open page's event stream, held on one asyncio loop in a thread of its own.

    ``adopt`` takes a connection whose request (``GET /t/<code>/events``, or a browser's
    shared ``GET /events?t=...`` for several tables) the web server has read, with
    ``phone``: what its cookies say of the phone it comes from
    (phones behind one address are told apart so, ``phones_at``). A stream beyond
    ``capacity``, or beyond ``per_address`` from one client address (except those
    ``exempt`` says are the laptop's), is answered at once with a clear
    refusal (the page then asks for the version now and then instead, see
    static/app/live.js). A change reaches each
    stream of its table; a quiet stream gets a heartbeat every ``heartbeat`` seconds
    and ends after about ``lifetime`` seconds (the browser reconnects by itself).
    """

    MAX_BACKLOG = 64 * 1024

    def __init__(self, opener: Opener, head: bytes, capacity: int, per_address: int,
                 exempt: Callable[[str], bool] = lambda _address: False,
                 heartbeat: float = 15.0,
                 lifetime: float = 300.0) -> None:
        self.opener = opener
        self.exempt = exempt
        self.head = head
        self.capacity = capacity
        self.per_address = per_address
        self.heartbeat = heartbeat
        self.lifetime = lifetime
        self._loop = asyncio.new_event_loop()
        self._streams: set[_Stream] = set()
        self._tables: dict[int, set[_Stream]] = collections.defaultdict(set)
        self._addresses: collections.Counter[str] = collections.Counter()
        self._phones: dict[str, collections.Counter[str]] = collections.defaultdict(
            collections.Counter)
        self._thread = threading.Thread(target=self._run, name="companion-streams",
                                        daemon=True)
        self._thread.start()

    # --- called from other threads -------------------------------------------------

    def adopt(self, sock: socket.socket, address: str, codes: list[str], head_only: bool,
              phone: str = "", shared: bool = False, language: str = "") -> None:
        """``language``: the request's Accept-Language, for a refusal's words."""
        self._loop.call_soon_threadsafe(self._start, sock, address, codes, head_only, phone,
                                        shared, language)

    def phones_at(self, address: str) -> int:
        """How many phones (cookies of their own) hold live pages from ``address``. Read
        from the web server's threads: a moment's snapshot is enough."""
        return len(self._phones.get(address) or ())

    def publish(self, table_id: int, version: int) -> None:
        # Once the hub has stopped with its server, no stream is left to tell.
        with contextlib.suppress(RuntimeError):
            self._loop.call_soon_threadsafe(self._send, table_id, version)

    def close(self) -> None:
        """End every stream and stop the loop (the server is stopping)."""
        if self._loop.is_closed() or not self._thread.is_alive():
            return
        self._loop.call_soon_threadsafe(self._shutdown)
        self._thread.join(2)

    # --- on the loop ---------------------------------------------------------------

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        ticker = self._loop.create_task(self._tick())
        self._loop.run_forever()
        # Stopped: the heartbeats end too, quietly.
        ticker.cancel()
        self._loop.run_until_complete(asyncio.gather(ticker, return_exceptions=True))
        self._loop.close()

    def _shutdown(self) -> None:
        for stream in list(self._streams):
            stream.end()
        self._loop.stop()

    def _start(self, sock: socket.socket, address: str, codes: list[str], head_only: bool,
               phone: str, shared: bool, language: str) -> None:
        self._loop.create_task(self._open(sock, address, codes, head_only, phone, shared,
                                          language))

    async def _open(self, sock: socket.socket, address: str, codes: list[str],
                    head_only: bool, phone: str, shared: bool, language: str) -> None:
        stream = _Stream(self, address, phone)
        stream.language = language
        try:
            await self._loop.connect_accepted_socket(lambda: stream, sock)
        except OSError:
            sock.close()
            return
        assert stream.transport is not None
        if len(self._streams) >= self.capacity:
            self._refuse(stream, 503, _("The laptop holds as many live pages as it can. "
                                        "This page refreshes itself more slowly."))
            return
        if self._addresses[address] >= self.per_address and not self.exempt(address):
            self._refuse(stream, 429, _("Too many live pages from this device. Close some "
                                        "tabs; this page refreshes itself more slowly."))
            return
        versions = {}
        for code in codes:
            found = self.opener(code)
            if found is not None:
                stream.codes[found[0]] = code
                versions[found[0]] = found[1]
        if not versions:
            self._refuse(stream, 404, _("There is no table with this code."))
            return
        if head_only:  # HEAD: the headers a stream would have, and nothing held
            stream.transport.write(self.head)
            stream.transport.close()
            return
        stream.shared = shared
        stream.deadline = time.monotonic() + self.lifetime * random.uniform(0.8, 1.0)
        self._streams.add(stream)
        for table_id in stream.codes:
            self._tables[table_id].add(stream)
        self._addresses[address] += 1
        self._phones[address][phone] += 1
        stream.write(self.head + b"".join(
            _chunk(stream.event(table_id, version, first=index == 0))
            for index, (table_id, version) in enumerate(versions.items())))

    def _refuse(self, stream: _Stream, status: int, message: str) -> None:
        assert stream.transport is not None
        stream.transport.write(raw.refusal(status, message, retry_after=30,
                                           accept_language=stream.language))
        stream.transport.close()

    def _forget(self, stream: _Stream) -> None:
        if stream.closed:
            return
        stream.closed = True
        if stream in self._streams:
            self._streams.discard(stream)
            for table_id in stream.codes:
                table = self._tables.get(table_id)
                if table is not None:
                    table.discard(stream)
                    if not table:
                        del self._tables[table_id]
            self._addresses[stream.address] -= 1
            if self._addresses[stream.address] <= 0:
                del self._addresses[stream.address]
            phones = self._phones[stream.address]
            phones[stream.phone] -= 1
            if phones[stream.phone] <= 0:
                del phones[stream.phone]
            if not phones:
                del self._phones[stream.address]
        if stream.transport is not None and not stream.transport.is_closing():
            stream.transport.close()

    def _send(self, table_id: int, version: int) -> None:
        for stream in list(self._tables.get(table_id, ())):
            stream.write(_chunk(stream.event(table_id, version)))

    async def _tick(self) -> None:
        """Heartbeats and stream ends, checked a few times a second."""
        beat = _chunk(HEARTBEAT)
        while True:
            await asyncio.sleep(min(0.25, self.heartbeat))
            now = time.monotonic()
            for stream in list(self._streams):
                if now >= stream.deadline:
                    stream.end()
                elif now - stream.last_write >= self.heartbeat:
                    stream.write(beat)


def stream_hub(app: Flask, capacity: int, per_address: int,
               exempt: Callable[[str], bool]) -> StreamHub:
    """The hub that holds this app's event streams, told of every change."""

    def opener(code: str) -> tuple[int, int] | None:
        with app.app_context():
            found = tables.table_version(get_db(), code)
        return found

    head = raw.head(200, {"Content-Type": "text/event-stream; charset=utf-8",
                          "Transfer-Encoding": "chunked", "Connection": "close", **HEADERS})
    hub = StreamHub(opener, head, capacity=capacity, per_address=per_address, exempt=exempt,
                    heartbeat=app.config["LIVE_HEARTBEAT"], lifetime=app.config["LIVE_LIFETIME"])
    app.extensions["broadcaster"].subscribe(hub.publish)
    app.extensions["stream_hub"] = hub
    return hub
