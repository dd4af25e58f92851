"""The table platform in a real Chromium: a laptop and two phones at phone size."""

from __future__ import annotations

import asyncio
import threading

from playwright.sync_api import expect

from tests.support.httpdevice import HttpDevice
from tests.support.pages import SCREENSHOTS, decode_qr, shot, sit
from tests.support.rawhttp import Stream


def test_join_by_qr_live_updates_and_reload(server, laptop, phone):
    laptop.goto(server.url + "/")
    laptop.click("text=Tally (test game)")
    laptop.select_option("select[name=players]", "2")
    laptop.click("text=Create the table")
    code = laptop.locator(".code-big").inner_text().strip()
    assert len(code) == 4

    SCREENSHOTS.mkdir(exist_ok=True)
    qr_png = SCREENSHOTS / "platform-qr.png"
    laptop.locator("[data-qr]").screenshot(path=str(qr_png))
    url = decode_qr(qr_png)
    assert url == f"{server.url}/j/{code}"
    shot(laptop, "platform-table-lobby")

    ann, bob = phone(), phone()
    sit(ann, url, "Ann", 0)
    expect(laptop.locator("[data-seats]")).to_contain_text("Ann")
    sit(bob, url, "Bob", 1)
    # Each phone sees the other join, without a reload.
    expect(ann.locator("[data-seats]")).to_contain_text("Bob")
    expect(laptop.locator("[data-seats]")).to_contain_text("Bob")

    laptop.click("button:has-text('Start the game')")
    expect(ann.locator("[data-total]")).to_have_text("0")
    expect(bob.locator("[data-total]")).to_have_text("0")

    # Hold to peek: hidden until held, hidden again on release.
    secret = ann.locator("[data-secret]")
    expect(secret).to_be_hidden()
    box = ann.locator("[data-peek]").bounding_box()
    ann.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    ann.mouse.down()
    expect(secret).to_be_visible()
    shot(ann, "platform-phone-peek")
    ann.mouse.up()
    expect(secret).to_be_hidden()

    # A live refresh keeps what the host was choosing.
    handover = laptop.locator("form[action$='/hand-host'] select[name=seat]")
    handover.select_option("1")
    laptop.click("summary:has-text('Table events')")
    ann.fill("input[name=amount]", "2")
    ann.click("[data-add]")
    expect(bob.locator("[data-total]")).to_have_text("2")
    expect(laptop.locator("[data-total]")).to_have_text("2")
    expect(handover).to_have_value("1")
    expect(laptop.locator("details.table-log")).to_have_attribute("open", "")
    expect(laptop.locator("[data-total]")).to_have_text("2")

    # An out-of-range number gets an inline message, and changes nothing.
    bob.fill("input[name=amount]", "7")
    bob.click("[data-add]")
    expect(bob.locator("[data-error]")).to_contain_text("between 1 and 3")
    expect(laptop.locator("[data-total]")).to_have_text("2")
    shot(bob, "platform-phone-error")

    bob.reload()
    expect(bob.locator("[data-seat-label]")).to_have_text("Player 1")
    expect(bob.locator("[data-total]")).to_have_text("2")
    bob.fill("input[name=amount]", "3")
    bob.click("[data-add]")
    expect(ann.locator("[data-total]")).to_have_text("5")

    # Undo needs a second tap, and everyone follows.
    undo = laptop.locator("button", has_text="Undo last action")
    undo.click()
    expect(laptop.locator("button.armed")).to_be_visible()
    laptop.locator("button.armed").click()
    expect(ann.locator("[data-total]")).to_have_text("2")
    shot(laptop, "platform-table-playing")
    shot(ann, "platform-phone-playing")


def test_pages_survive_a_server_restart(server, laptop, phone):
    laptop.goto(server.url + "/new/tally")
    laptop.select_option("select[name=players]", "2")
    laptop.click("text=Create the table")
    code = laptop.locator(".code-big").inner_text().strip()
    ann, bob = phone(), phone()
    sit(ann, f"{server.url}/j/{code}", "Ann", 0)
    sit(bob, f"{server.url}/j/{code}", "Bob", 1)
    laptop.click("button:has-text('Start the game')")
    expect(ann.locator("[data-total]")).to_have_text("0")

    server.kill()
    server.start()
    ann.fill("input[name=amount]", "3")
    ann.click("[data-add]")
    # The other pages reconnect their event streams by themselves.
    expect(bob.locator("[data-total]")).to_have_text("3", timeout=15_000)
    expect(laptop.locator("[data-total]")).to_have_text("3", timeout=15_000)


def test_a_page_refused_its_stream_still_follows_the_table(server, phone):
    """When the laptop holds every stream it can, a new page is refused its stream (503)
    and asks for the version every 10 s instead (static/app.js): slower, never stuck."""
    host = HttpDevice(server.url)
    code = host.create("tally", 2)
    assert HttpDevice(server.url).join(code, 1, "Bob").status == 303
    loop = asyncio.new_event_loop()
    threading.Thread(target=loop.run_forever, daemon=True).start()
    streams = [Stream(code) for _ in range(128)]  # tests/support/server.py holds 128

    async def open_all() -> list[Stream]:
        return await asyncio.gather(*(stream.open(server.port) for stream in streams))

    try:
        opened = asyncio.run_coroutine_threadsafe(open_all(), loop).result(60)
        assert {stream.status for stream in opened} == {200}
        ann = phone()
        sit(ann, f"{server.url}/j/{code}", "Ann", 0)
        assert host.host("start", host.version()).status == 303
        expect(ann.locator("[data-total]")).to_have_text("0", timeout=30_000)
    finally:
        for stream in streams:
            loop.call_soon_threadsafe(stream.close)
        loop.call_soon_threadsafe(loop.stop)
