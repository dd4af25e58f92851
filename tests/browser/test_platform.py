"""The table platform in a real Chromium: a laptop and two phones at phone size."""

from __future__ import annotations

import asyncio
import threading

from playwright.sync_api import expect

from tests.support.glance import assert_same_glance, compare
from tests.support.httpdevice import HttpDevice
from tests.support.pages import SCREENSHOTS, decode_qr, shot, sit, start_game, tally_table
from tests.support.phone_quality import check_phone, check_screen
from tests.support.rawhttp import Stream

# The browser logs every refused request (422, 409) as a console error; a test that
# provokes one on purpose allows exactly that.
REFUSED = ("status of 422", "status of 409")


def test_join_by_qr_live_updates_and_reload(server, laptop, phone):
    lobby = phone()
    lobby.goto(server.url + "/")
    check_phone(lobby, "platform-phone-lobby")
    lobby.click("text=Tally (test game)")
    check_phone(lobby, "platform-phone-new-table")

    laptop.goto(server.url + "/")
    check_screen(laptop)
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
    check_screen(laptop, "platform-table-lobby")

    ann, bob = phone(), phone()
    ann.goto(url)
    check_phone(ann, "platform-phone-join")
    sit(ann, url, "Ann", 0)
    expect(ann.locator("[data-waiting]")).to_contain_text("Waiting for Player 1 to join")
    check_phone(ann, "platform-phone-waiting")
    expect(laptop.locator("[data-seats]")).to_contain_text("Ann")
    sit(bob, url, "Bob", 1)
    # Each phone sees the other join, without a reload.
    expect(ann.locator("[data-seats]")).to_contain_text("Bob")
    expect(laptop.locator("[data-seats]")).to_contain_text("Bob")
    expect(ann.locator("[data-waiting]")).to_contain_text("Everyone is seated")
    # "Seats" is said once: the collapsible header on the phone, a heading on the screen.
    expect(ann.get_by_text("Seats", exact=True)).to_have_count(1)
    expect(laptop.get_by_text("Seats", exact=True)).to_have_count(1)

    start_game(laptop)
    expect(ann.locator("[data-total]")).to_have_text("0")
    expect(bob.locator("[data-total]")).to_have_text("0")
    check_phone(ann, "platform-phone-playing-at-rest")
    check_screen(laptop, "platform-table-playing-start")

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
    check_phone(bob, "platform-phone-error", allow=REFUSED)

    bob.reload()
    expect(bob.locator("[data-seat-label]")).to_have_text("Player 1")
    expect(bob.locator("[data-total]")).to_have_text("2")
    bob.fill("input[name=amount]", "3")
    bob.click("[data-add]")
    expect(ann.locator("[data-total]")).to_have_text("5")
    # The laptop too, before its tap below: a refresh landing after the first tap of
    # Undo disarms it (it acts on the latest state).
    expect(laptop.locator("[data-total]")).to_have_text("5")

    # Undo needs a second tap, and everyone follows and is told, at the top of the
    # screen whatever the scroll, until the next action.
    ann.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
    undo = laptop.locator("button", has_text="Undo last action")
    undo.click()
    expect(laptop.locator("button.armed")).to_be_visible()
    laptop.locator("button.armed").click()
    expect(ann.locator("[data-total]")).to_have_text("2")
    for page in (ann, bob, laptop):
        expect(page.locator("[data-undone]")).to_contain_text("Bob's last action")
    assert ann.locator("[data-undone]").bounding_box()["y"] < 120
    ann.evaluate("() => window.scrollTo(0, 0)")
    shot(laptop, "platform-table-playing")
    shot(ann, "platform-phone-playing")
    check_phone(ann, "platform-phone-undone")
    check_screen(laptop, "platform-table-undone")
    bob.fill("input[name=amount]", "1")
    bob.click("[data-add]")
    expect(ann.locator("[data-total]")).to_have_text("3")
    for page in (ann, bob, laptop):
        expect(page.locator("[data-undone]")).to_have_count(0)


def test_pages_survive_a_server_restart(server, laptop, phone):
    _code, ann, bob = tally_table(server, laptop, phone)

    server.kill()
    server.start()
    ann.fill("input[name=amount]", "3")
    ann.click("[data-add]")
    # The other pages reconnect their event streams by themselves.
    expect(bob.locator("[data-total]")).to_have_text("3", timeout=15_000)
    expect(laptop.locator("[data-total]")).to_have_text("3", timeout=15_000)


def test_a_page_refused_its_stream_still_follows_the_table(server, phone):
    """When the laptop holds every stream it can, a new page is refused its stream (503)
    and asks for the version every 10 s instead (static/app/live.js): slower, never stuck."""
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


def _table(server, laptop, players: int = 2) -> str:
    laptop.goto(server.url + "/new/tally")
    laptop.select_option("select[name=players]", str(players))
    laptop.click("text=Create the table")
    return laptop.locator(".code-big").inner_text().strip()


def _stale_start_race(laptop, slow: str) -> None:
    """The host taps Start on a page of before while a live refresh is on its way; the
    `slow` request ("refresh" or "start") is held back until the other has answered."""
    pattern = "**/t/*" if slow == "refresh" else "**/t/*/start"
    held = []
    laptop.route(pattern, lambda route: held.append(route))
    laptop.evaluate("""() => {
      const start = [...document.querySelectorAll('form')].find(
        form => form.action.endsWith('/start'));
      htmx.trigger(document.getElementById('view'), 'refresh');
      start.requestSubmit();
    }""")
    while not held:
        laptop.wait_for_timeout(50)
    laptop.wait_for_timeout(500)
    if slow == "start":
        # The refresh has landed (and was set aside); now the page hears of the new
        # version too, and must still wait for the tap's answer.
        laptop.unroute("**/version")
        laptop.evaluate("() => window.dispatchEvent(new Event('online'))")
        laptop.wait_for_timeout(500)
    laptop.unroute(pattern)
    held[0].continue_()
    laptop.wait_for_timeout(500)
    # The refusal's message and the fresh page stay, whichever answer lands first.
    expect(laptop.locator("[data-error]")).to_contain_text("The table moved on")
    expect(laptop.locator(".status")).to_have_text("Waiting for players")


def test_the_door_speaks_plainly(server, laptop, phone):
    """A full table, a stale host tap, the host's own phone, error and re-join pages."""
    # The laptop's live updates are cut, so its page is left behind as players sit
    # down: just what happens when "Start" is tapped at that very moment.
    # (The page's own stream, which a route can cut: a browser's shared stream is held
    # by its SharedWorker, out of the page's reach.)
    laptop.add_init_script("delete window.SharedWorker")
    laptop.route("**/events", lambda route: route.abort())
    laptop.route("**/version", lambda route: route.abort())
    code = _table(server, laptop, players=3)
    url = f"{server.url}/j/{code}"
    ann, bob, cy, extra = phone(), phone(), phone(), phone()
    sit(ann, url, "Annabel Fitzgerald-Smythe", 0)
    # A long name wraps in its seat's label: the radio beside it keeps its size.
    bob.goto(url)
    bob.fill("input[name=name]", "Bartholomew Fitzgerald-Smythe")
    check_phone(bob, "platform-phone-join-one-left")
    bob.check("input[name=seat][value='1']")
    bob.click("button[type=submit]")
    expect(bob.locator("[data-seat-label]")).to_be_visible()
    _stale_start_race(laptop, slow="refresh")
    expect(laptop.locator("[data-seats]")).to_contain_text("Bartholomew")
    sit(cy, url, "Cy", 2)
    _stale_start_race(laptop, slow="start")
    expect(laptop.locator("[data-seats]")).to_contain_text("Cy")
    check_screen(laptop, "platform-table-stale-start",
                 allow=REFUSED + ("net::ERR_FAILED",))

    # An extra phone learns the table is full and how to get back in, with no button
    # that would only answer "please pick a seat".
    extra.goto(url)
    expect(extra.locator("[data-table-full]")).to_contain_text("Every seat is taken")
    expect(extra.locator("[data-table-full]")).to_contain_text("re-join code")
    expect(extra.locator("button:has-text('Sit down')")).to_have_count(0)
    check_phone(extra, "platform-phone-table-full")

    # Host controls handed to Ann's phone: her phone offers the start, Bob's waits.
    laptop.unroute("**/events")
    laptop.unroute("**/version")
    laptop.reload()
    laptop.select_option("form[action$='/hand-host'] select[name=seat]", "0")
    laptop.click("button:has-text('Hand over')")
    laptop.locator("button.armed").click()
    expect(ann.locator("[data-host-controls]")).to_be_visible()
    expect(ann.locator("[data-waiting]")).to_contain_text("You are the host")
    expect(ann.locator("[data-waiting]")).not_to_contain_text("Waiting for the host")
    expect(bob.locator("[data-waiting]")).to_contain_text("Waiting for the host to start")
    check_phone(ann, "platform-phone-host-lobby")
    check_phone(bob, "platform-phone-guest-lobby")

    # The host's phone makes a re-join code for Bob: a page a phone can show.
    ann.select_option("form[action$='/rejoin'] select[name=seat]", "1")
    ann.click("button:has-text('Show re-join code')")
    ann.locator("button.armed").click()
    expect(ann.locator("[data-qr]")).to_be_visible()
    check_phone(ann, "platform-phone-rejoin")
    # Bob's phone is told at once it lost its seat; Cy's says a new link was made.
    expect(bob.locator("#view")).to_contain_text("seat link was replaced by the host")
    expect(cy.locator("[data-relinked]")).to_have_text(
        "A new phone link was made for Bartholomew Fitzgerald-Smythe's seat")

    # The laptop takes the controls back (the host's phone may be lost): its table screen
    # offers it, and every page's table log says so.
    laptop.reload()
    # (Its streams were cut earlier in this test: those failures are allowed.)
    check_screen(laptop, "platform-screen-take-host-back", allow=("net::ERR_FAILED",))
    laptop.click("button:has-text('Take the host controls back')")
    expect(laptop.locator("[data-host-controls]")).to_be_visible()
    expect(cy.locator("#view")).to_contain_text("came back to the laptop (from Ann")
    ann.goto(f"{server.url}/t/{code}/me")
    expect(ann.locator("[data-host-controls]")).to_have_count(0)
    check_phone(ann, "platform-phone-host-back")

    # An error page, on a phone.
    extra.goto(server.url + "/j/ZZZZ")
    expect(extra.locator("h1")).to_be_visible()
    check_phone(extra, "platform-phone-error-page", allow=("status of 404",))


def test_a_phone_at_rest_shows_no_secret(server, laptop, phone):
    """Two tables, same names and actions, different dealt secrets: at rest, Ann's
    phones look the same; held, they do not (so the test can see a difference)."""
    ann_pages = []
    for _ in range(2):
        code = _table(server, laptop)
        ann, bob = phone(), phone()
        sit(ann, f"{server.url}/j/{code}", "Ann", 0)
        sit(bob, f"{server.url}/j/{code}", "Bob", 1)
        start_game(laptop)
        expect(ann.locator("[data-total]")).to_have_text("0")
        ann_pages.append(ann)
    first, second = ann_pages
    assert_same_glance(first, second, "platform-tally-at-rest")
    # Held, the dealt numbers show (and differ whenever the deals do).
    secrets = []
    for page in ann_pages:
        box = page.locator("[data-peek]").bounding_box()
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.down()
        expect(page.locator("[data-secret]")).to_be_visible()
        secrets.append((page.locator("[data-secret]").inner_text(), at_rest_or_held(page)))
        page.mouse.up()
    if secrets[0][0] != secrets[1][0]:
        assert compare(secrets[0][1], secrets[1][1], first)["differing"] > 0


def at_rest_or_held(page) -> bytes:
    return page.screenshot(full_page=True, mask=[page.locator(".code")], mask_color="#ff00ff")


def test_screen_stays_awake_on_a_plain_http_address(server, browser):
    """No Wake Lock on a plain-http LAN address: the muted looping video keeps the
    screen on, and the toggle stops and restarts it."""
    from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, PHONE

    lan = browser.browser_type.launch(
        executable_path=CHROMIUM,
        args=[*CHROMIUM_ARGS, "--host-resolver-rules=MAP table.test 127.0.0.1",
              "--autoplay-policy=user-gesture-required"])
    try:
        context = lan.new_context(**PHONE)
        context.set_default_timeout(10_000)
        host = context.new_page()
        origin = f"http://table.test:{server.port}"
        host.goto(origin + "/new/tally")
        host.select_option("select[name=players]", "2")
        host.click("text=Create the table")
        code = host.locator(".code-big").inner_text().strip()
        other = lan.new_context(**PHONE).new_page()
        sit(other, f"{origin}/j/{code}", "Bob", 1)
        sit(host, f"{origin}/j/{code}", "Ann", 0)
        assert host.evaluate("() => isSecureContext") is False
        assert host.evaluate("() => 'wakeLock' in navigator") is False
        wake = host.locator("[data-wake]")
        expect(wake).to_be_hidden()
        host.goto(f"{origin}/t/{code}")
        start_game(host)
        host.goto(f"{origin}/t/{code}/me")
        expect(wake).to_be_visible()
        # Autoplay needs a tap here (as on many phones): the first tap anywhere starts it.
        host.locator("[data-seat-label]").click()
        expect(wake).to_have_text("Screen stays on")
        playing = "() => { const v = document.querySelector('video.awake-video');" \
                  " return Boolean(v) && !v.paused && v.muted && v.loop; }"
        host.wait_for_function(playing)
        wake.click()
        expect(wake).to_have_text("Keep screen on")
        host.wait_for_function("() => document.querySelector('video.awake-video').paused")
        wake.click()
        expect(wake).to_have_text("Screen stays on")
        host.wait_for_function(playing)
    finally:
        lan.close()


def test_a_refused_wake_lock_falls_back_to_the_video(server, phone):
    """A secure page whose Wake Lock says no (a power saver) keeps the screen on anyway."""
    host = phone()
    host.add_init_script("""navigator.wakeLock.request = () =>
      Promise.reject(new DOMException('Power saver', 'NotAllowedError'));""")
    code = _table(server, host)
    sit(phone(), f"{server.url}/j/{code}", "Bob", 1)
    sit(host, f"{server.url}/j/{code}", "Ann", 0)
    host.goto(f"{server.url}/t/{code}")
    start_game(host)
    host.goto(f"{server.url}/t/{code}/me")
    expect(host.locator("[data-wake]")).to_have_text("Screen stays on")
    host.wait_for_function("() => !document.querySelector('video.awake-video').paused")
    check_phone(host, "platform-phone-awake-by-video")
