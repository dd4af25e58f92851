"""A browser's one shared stream for the tables of all its pages (``GET /events?t=...``,
companion/web/live.py, the stream hub): every event names its table, a change at one
table reaches the stream once, and a code without a table is left out. The browser side
(10 tabs in one Chromium) is in tests/browser/test_tournament.py."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from companion.broadcast import Broadcaster
from tests.support.httpdevice import HttpDevice
from tests.support.rawhttp import Stream, run
from tests.support.realserver import Server
from tests.support.webflow import seated_table
from tests.test_storm import change


def test_wait_any_wakes_for_a_change_at_any_watched_table():
    broadcaster = Broadcaster()
    broadcaster.publish(1, 3)
    assert broadcaster.wait_any({1: 3, 2: 0}, 0.01) == {}
    threading.Timer(0.05, broadcaster.publish, [2, 7]).start()
    started = time.monotonic()
    assert broadcaster.wait_any({1: 3, 2: 0}, 5) == {2: 7}
    assert time.monotonic() - started < 2
    broadcaster.publish(3, 9)  # a table nobody watches wakes, and is not told
    assert broadcaster.wait_any({1: 3, 2: 7}, 0.01) == {}


def test_the_shared_stream_through_wsgi_names_each_table(app):
    one, _ = seated_table(app, "tally", ["Ann", "Bob"])
    two, _ = seated_table(app, "tally", ["Cy", "Di"])
    app.config["LIVE_LIFETIME"] = 0.05
    app.config["LIVE_HEARTBEAT"] = 0.01
    # Codes as typed (lower case, twice) and one with no table: left out.
    stream = one.get(f"/events?t={one.code.lower()}&t={two.code}&t={one.code}&t=NOPE")
    assert stream.status_code == 200 and stream.mimetype == "text/event-stream"
    body = stream.get_data(as_text=True)
    assert body.count("retry:") == 1
    assert f"data: {one.code} {one.version()}\n" in body
    assert f"data: {two.code} {two.version()}\n" in body
    assert "NOPE" not in body and body.count(f"data: {one.code} ") == 1
    assert one.get("/events?t=NOPE").status_code == 404
    assert one.get("/events").status_code == 404


@pytest.mark.slow
def test_the_hub_holds_one_stream_for_several_tables(tmp_path):
    server = Server(tmp_path / "companion.sqlite").start()
    try:
        seats = {}
        for names in (["Ann", "Bob"], ["Cy", "Di"]):
            host = HttpDevice(server.url)
            code = host.create("tally", 2)
            pair = [HttpDevice(server.url), HttpDevice(server.url)]
            for seat, (device, name) in enumerate(zip(pair, names, strict=True)):
                assert device.join(code, seat, name).status == 303
            assert host.host("start", host.version()).status == 303
            seats[code] = pair
        (one, (ann, _bob)), (two, (cy, di)) = seats.items()

        async def listen() -> None:
            stream = await Stream(one, path=f"/events?t={one}&t={two}").open(server.port)
            assert stream.status == 200 and stream.version == ann.version()
            assert f"data: {two} {cy.version()}\n" in await stream.next_event(10)
            for device, code in ((cy, two), (ann, one), (di, two)):  # each in turn
                version = await asyncio.to_thread(change, device)
                event = await stream.next_event(10)
                while "data:" not in event:  # a heartbeat
                    event = await stream.next_event(10)
                assert event == f"event: changed\ndata: {code} {version}\n\n"
            stream.close()

        run(listen())
    finally:
        server.stop()
