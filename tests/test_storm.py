"""A room that never freezes, against the real server (`companion serve`'s waitress and
stream hub): a reconnect storm recovers, one greedy or slow device cannot lock the
others out, a page that closed frees its stream, and Ctrl+C or SIGTERM stop at once.

Functional checks with generous limits; the figures belong to bench/storm.py,
streams.py, greedy.py, slow.py and gone.py. The real server here is sized for 64
devices: 128 streams, 128 connections, 48 connections and streams per address.
"""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
import time
import urllib.request
from typing import Any

import pytest

from companion.server import limits, wsgi
from tests.support.httpdevice import HttpDevice
from tests.support.rawhttp import (
    HOST,
    Stream,
    close_all,
    connect,
    fetch,
    loopback,
    many_addresses,
    open_all,
    read_response,
    run,
)
from tests.support.realserver import ROOT, Server, free_port
from tests.support.scripted import parse_forms

pytestmark = pytest.mark.slow
CAPACITY = 128  # streams held by tests/support/server.py (devices=64)
needs_addresses = pytest.mark.skipif(not many_addresses(),
                                     reason="this system routes only 127.0.0.1 to loopback")


@pytest.fixture
def table(tmp_path):
    """The real server with one table of the test game: (server, host, Ann)."""
    server = Server(tmp_path / "companion.sqlite").start()
    try:
        host = HttpDevice(server.url)
        code = host.create("tally", 2)
        ann = HttpDevice(server.url)
        assert ann.join(code, 0, "Ann").status == 303
        HttpDevice(server.url).join(code, 1, "Bob")
        assert host.host("start", host.version()).status == 303
        yield server, host, ann
    finally:
        server.stop()


def change(ann: HttpDevice) -> int:
    """Ann adds one to the tally; the table's new version."""
    version = ann.version()
    assert ann.act("add", version, amount=1).status == 303
    return version + 1


async def trickling(port: int, count: int) -> list[tuple[asyncio.StreamReader, Any]]:
    """``count`` slow clients, each from its own address, having sent part of a request."""
    slow = []
    for i in range(count):
        reader, writer = await connect(port, loopback(i))
        writer.write(b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        slow.append((reader, writer))
    return slow


@needs_addresses
def test_a_reconnect_storm_recovers_and_every_stream_hears_the_next_change(table):
    server, host, ann = table
    cookie = ann.cookie()
    port, code = server.port, host.code

    async def storm() -> None:
        streams = [Stream(code, loopback(i), cookie) for i in range(100)]
        await open_all(streams, port)
        assert {stream.status for stream in streams} == {200}
        started = time.monotonic()
        for stream in streams:  # a Wi-Fi blip: every page drops its stream ...
            stream.close()
        # ... and reconnects at once, then fetches its view.
        again = await asyncio.gather(*(Stream(code, loopback(i), cookie).open(port)
                                       for i in range(100)))
        views = await asyncio.gather(*(fetch(port, f"/t/{code}/me", loopback(i), cookie,
                                             component=True) for i in range(100)))
        assert [stream.status for stream in again] == [200] * 100
        assert [status for status, _ in views] == [200] * 100
        assert time.monotonic() - started < 30
        assert {stream.version for stream in again} == {host.version()}
        # The room carries on: a change reaches every stream.
        version = change(ann)
        heard = await asyncio.gather(*(stream.next_version(15) for stream in again))
        assert set(heard) == {version}
        close_all(again)

    run(storm())


@needs_addresses
def test_streams_beyond_what_the_server_holds_get_a_clear_answer(table):
    server, host, ann = table
    cookie = ann.cookie()

    async def crowd() -> None:
        streams = [Stream(host.code, loopback(i), cookie) for i in range(CAPACITY + 30)]
        await open_all(streams, server.port)
        statuses = [stream.status for stream in streams]
        assert statuses.count(200) == CAPACITY and statuses.count(503) == 30
        # ... and the other pages still answer.
        status, seconds = await fetch(server.port, "/", loopback(400))
        assert status == 200 and seconds < 10
        close_all(streams)

    run(crowd())


@needs_addresses
def test_one_greedy_device_is_limited_and_the_others_do_not_wait(table):
    server, host, ann = table
    cookie = ann.cookie()
    greedy, other = loopback(200), loopback(300)

    async def greed() -> None:
        streams = [Stream(host.code, greedy, cookie) for _ in range(60)]
        await open_all(streams, server.port)
        statuses = [stream.status for stream in streams]
        assert statuses.count(200) == limits.PER_ADDRESS and statuses.count(429) == 12
        # Its connections too: past its share, each new one is refused at once.
        held = [await connect(server.port, greedy) for _ in range(limits.PER_ADDRESS)]
        reader, writer = await connect(server.port, greedy)
        writer.write(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        assert b" 429 " in (await asyncio.wait_for(reader.read(200), 10))[:20]
        writer.close()
        # Another device meanwhile: its page and its stream as usual.
        status, seconds = await fetch(server.port, "/", other)
        assert status == 200 and seconds < 10
        assert (await Stream(host.code, other, cookie).open(server.port)).status == 200

        # A page opened in a loop is paced: it is served, at its share.
        async def loop(reader, writer) -> int:
            served = 0
            deadline = time.monotonic() + 3
            while time.monotonic() < deadline:
                writer.write(b"GET /static/app.css HTTP/1.1\r\nHost: x\r\n\r\n")
                status, _body = await asyncio.wait_for(read_response(reader), 10)
                served += status == 200
            return served

        started = time.monotonic()
        loops = asyncio.gather(*(loop(*pair) for pair in held[:8]))
        await asyncio.sleep(0.5)
        status, seconds = await fetch(server.port, "/", other)
        assert status == 200 and seconds < 5
        served = sum(await loops)
        elapsed = time.monotonic() - started
        assert served <= limits.BURST + limits.RATE_PER_ADDRESS * elapsed + 8
        for _reader, writer in held:
            writer.close()
        close_all(streams)

    run(greed())


@needs_addresses
def test_slow_clients_are_dropped_and_lock_nobody_out(table):
    server, _host, _cookie = table

    async def trickle() -> None:
        slow = await trickling(server.port, CAPACITY + 40)  # more than the server keeps
        await asyncio.sleep(0.5)
        for _ in range(3):
            status, seconds = await fetch(server.port, "/", loopback(900))
            assert status == 200 and seconds < 10
        # Every one of them is dropped within a few seconds of its first byte.
        started = time.monotonic()
        for reader, writer in slow:
            remaining = limits.REQUEST_DEADLINE + 10 - (time.monotonic() - started)
            data = await asyncio.wait_for(reader.read(), max(remaining, 0.1))
            assert b" 200 " not in data[:20]
            writer.close()

    run(trickle())


@needs_addresses
def test_past_the_hard_limit_a_newcomer_replaces_a_slow_client_however_young(table):
    """Slow clients reconnecting at once are all younger than a second: a newcomer past
    the hard limit (twice the connections kept) still gets in, in place of one of them,
    instead of being refused (bench/slow.py on a quiet machine)."""
    server, _host, _cookie = table

    async def crowd() -> None:
        slow = await trickling(server.port, 2 * CAPACITY + 40)
        await asyncio.sleep(0.2)
        for _ in range(3):
            status, _seconds = await fetch(server.port, "/", loopback(900))
            assert status == 200
        for _reader, writer in slow:
            writer.close()

    run(crowd())


@needs_addresses
def test_a_stream_whose_page_closed_is_freed_at_once(table):
    server, host, ann = table
    cookie = ann.cookie()

    async def come_and_go() -> None:
        for round_ in range(3):
            # Each round fills every stream the server holds: the previous round's
            # streams must all have been let go already.
            streams = [Stream(host.code, loopback(i + round_ * CAPACITY), cookie)
                       for i in range(CAPACITY)]
            await open_all(streams, server.port)
            assert [stream.status for stream in streams] == [200] * CAPACITY, round_
            close_all(streams)
            await asyncio.sleep(2)

    run(come_and_go())


def test_no_way_of_asking_for_a_stream_holds_a_server_thread(table):
    """HEAD, or a stream request pipelined behind another on one connection, would hold
    one of the server's few threads for minutes: each is answered at once."""
    server, host, _ann = table
    events = f"/t/{host.code}/events"

    async def ask() -> None:
        held = []
        for index in range(3 * wsgi.THREADS):
            reader, writer = await connect(server.port, None)
            if index % 2:
                writer.write(f"HEAD {events} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
            else:
                writer.write(f"GET / HTTP/1.1\r\nHost: x\r\n\r\n"
                             f"GET {events} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
            held.append((reader, writer))
        for index, (reader, _writer) in enumerate(held):
            if not index % 2:
                assert (await asyncio.wait_for(read_response(reader), 10))[0] == 200
                status, body = await asyncio.wait_for(read_response(reader), 10)
                assert status == 200 and body.count(b"event: changed") == 1
            else:
                head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
                assert head.startswith(b"HTTP/1.1 200")
        # Every connection is still open, and the room is served as usual.
        status, seconds = await fetch(server.port, "/", None, timeout=10)
        assert status == 200 and seconds < 5
        for _reader, writer in held:
            writer.close()

    run(ask())


def test_streams_carry_the_version_and_nothing_of_the_viewer(table):
    """The hub's streams are the same bytes for a seat, the host and a stranger."""
    server, host, ann = table
    cookie = ann.cookie()
    host_cookie = host.cookie()

    async def listen() -> list[str]:
        streams = [Stream(host.code, None, who) for who in (cookie, host_cookie, "")]
        await open_all(streams, server.port)
        change(ann)
        heard = [await stream.next_event(10) for stream in streams]
        close_all(streams)
        return [f"{stream.status} {stream.version} {event}"
                for stream, event in zip(streams, heard, strict=True)]

    seat, laptop, stranger = run(listen())
    assert seat == laptop == stranger
    assert seat.startswith("200 ") and "event: changed" in seat


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_ctrl_c_and_sigterm_stop_at_once_with_streams_open(tmp_path, stop):
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "companion", "serve", "--host", HOST, "--port", str(port),
         "--db", str(tmp_path / "c.sqlite"), "--no-browser"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(f"http://{HOST}:{port}/", timeout=1).read()
                break
            except OSError:
                time.sleep(0.1)
        host = HttpDevice(f"http://{HOST}:{port}")
        form = next(form for form in parse_forms(host.get("/new/london1888").text)
                    if form.action.endswith("london1888"))
        code = host.create("london1888", 4, **{key: value for key, value in
                                                form.defaults().items()
                                                if key not in ("csrf", "players")})

        async def hold_and_stop() -> float:
            streams = [Stream(code) for _ in range(20)]
            await open_all(streams, port)
            assert {stream.status for stream in streams} == {200}
            started = time.monotonic()
            process.send_signal(stop)
            while process.poll() is None and time.monotonic() - started < 10:
                await asyncio.sleep(0.02)
            return time.monotonic() - started

        took = run(hold_and_stop())
        out, _err = process.communicate(timeout=10)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert "Stopped. Every table is saved." in out
    assert process.returncode == 0
    assert took < 3  # about a tenth of a second; the target is within one


def test_actions_are_served_before_page_fetches_already_waiting():
    """The threads take a waiting action (POST) before the page fetches queued ahead of
    it: each action sets off several fetches, which would otherwise delay the next."""

    class Waiting:
        def __init__(self, command: str) -> None:
            self.requests = [type("Request", (), {"command": command})()]

    dispatcher = wsgi.Dispatcher()  # no threads: the queue is only read here
    fetches = [Waiting("GET") for _ in range(5)]
    action = Waiting("POST")
    for task in [*fetches[:3], action, *fetches[3:]]:
        dispatcher.add_task(task)
    assert list(dispatcher.queue) == [action, *fetches]


async def _get(pair: list[Any], port: int, path: str, address: str, cookie: str) -> int:
    """A GET on one of a browser's kept-alive connections (``pair``: reader, writer),
    reopened as a browser does when the server closed it meanwhile; the status."""
    for _attempt in range(2):
        reader, writer = pair
        try:
            writer.write(fetch_request(path, port, cookie))
            status, _body = await asyncio.wait_for(read_response(reader), 15)
            return status
        except (OSError, asyncio.IncompleteReadError, ValueError):
            writer.close()
            pair[:] = await connect(port, address)
    return 0


def fetch_request(path: str, port: int, cookie: str) -> bytes:
    return (f"GET {path} HTTP/1.1\r\nHost: {HOST}:{port}\r\nCookie: {cookie}\r\n"
            "HX-Request: true\r\n\r\n").encode()


@needs_addresses
def test_thirty_phones_behind_one_address_play_as_if_each_had_its_own(table):
    """A travel router doing NAT: 30 browsers from one address, each with its live page
    and 4 kept-alive connections (120 connections, past one device's 48), load their page
    and its files twice over; every answer is 200. One greedy client, one cookie on
    another address, still gets one device's share."""
    server, host, _ann = table
    shared = loopback(700)
    phones = []
    for _ in range(30):
        phone = HttpDevice(server.url)
        phone.get("/")  # a session cookie of its own, as each phone has
        phones.append(phone.cookie())
    paths = [f"/t/{host.code}", "/static/app.css", "/static/app/live.js",
             "/static/htmx-2.0.11.min.js"]

    async def room() -> None:
        streams = await open_all([Stream(host.code, shared, cookie) for cookie in phones],
                                 server.port)
        assert [stream.status for stream in streams] == [200] * 30
        browsers = [[list(await connect(server.port, shared)) for _ in range(4)]
                    for _ in phones]
        statuses: list[int] = []
        for _round in range(2):
            answers = await asyncio.gather(*(
                _get(pair, server.port, path, shared, cookie)
                for cookie, pairs in zip(phones, browsers, strict=True)
                for pair, path in zip(pairs, paths, strict=True)))
            statuses += answers
        assert statuses == [200] * len(statuses)
        # The greedy one next door: one device's streams, whatever it asks for.
        greedy = [Stream(host.code, loopback(701), phones[0]) for _ in range(60)]
        await open_all(greedy, server.port)
        assert [s.status for s in greedy].count(200) == limits.PER_ADDRESS
        for pairs in browsers:
            for _reader, writer in pairs:
                writer.close()
        close_all(streams + greedy)

    run(room())
