"""A London 1888 tournament in a real Chromium: the organiser's laptop, four phones and the
projector. The projector's leaderboard follows the table's confirmed outcome by itself."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from companion import tables
from companion.db import connect
from companion.tournaments import storage as store
from tests.support.html import csrf_of, version_of
from tests.support.httpdevice import HttpDevice
from tests.support.pages import LAPTOP, SCREENSHOTS, confirm, decode_qr, shot, start_game
from tests.support.phone_quality import check_phone, check_screen

PLAYERS = ["Ann", "Bob", "Cy", "Di"]


def from_db(server, fn, *args):
    db = connect(str(server.db))
    try:
        return fn(db, *args)
    finally:
        db.close()




def test_the_projector_follows_a_confirmed_result(server, laptop, phone, browser):
    laptop.goto(server.url + "/")
    laptop.click("[data-tournaments-link]")
    laptop.fill("input[name=name]", "Friday Cup")
    laptop.fill("input[name=rounds]", "2")
    laptop.click("button:has-text('Create the tournament')")
    for name in PLAYERS:
        laptop.fill("[data-add-player] input[name=name]", name)
        laptop.click("[data-add-player] button:has-text('Register')")
        expect(laptop.locator(f"tr[data-player='{name}']")).to_be_visible()
    # Everyone is here: 2 taps (the tap again of the confirm pattern) for all of them,
    # not one per player.
    expect(laptop.locator("[data-check-in-everyone] button")).to_have_text(
        f"Check everyone in ({len(PLAYERS)})")
    check_screen(laptop, "tournament-check-in")
    confirm(laptop, "[data-check-in-everyone] button")
    for name in PLAYERS:
        expect(laptop.locator(f"tr[data-player='{name}'] [data-status]")).to_have_text(
            "Checked in")
    expect(laptop.locator("[data-check-in-everyone]")).to_have_count(0)
    check_screen(laptop, "tournament-organiser")
    board_url = laptop.locator("a:has-text('Leaderboard (projector)')").get_attribute("href")
    tid = int(board_url.split("/")[2])

    projector = browser.new_context(**LAPTOP).new_page()
    projector.goto(server.url + board_url)
    expect(projector.locator("[data-progress]")).to_contain_text("Waiting for round 1")

    laptop.click("button:has-text('Preview the seating')")
    expect(laptop.locator("textarea[name=seating]")).to_contain_text("Ann")
    check_screen(laptop, "tournament-preview")
    laptop.click("button:has-text('Start round 1')")
    expect(laptop.locator("[data-table='1'] [data-qr] svg")).to_be_visible()
    expect(projector.locator("[data-progress]")).to_contain_text("0 of 1 tables finished")
    check_screen(laptop, "tournament-round")
    table = from_db(server, store.round_tables, tid, 1)[0]
    code = table["code"]
    assert laptop.locator("[data-code]").inner_text().strip() == code

    phones = []
    for seat in table["seats"]:
        page = phone()
        page.goto(f"{server.url}/j/{code}")
        # The player taps their own name: nothing to type (a seat kept for "Jon" never
        # refuses a "Jonathan").
        mine = page.locator(f"[data-kept='{seat['position']}'] button")
        expect(mine).to_contain_text(seat["name"])
        if not phones:
            check_phone(page, "tournament-join-tap-name")
        mine.click()  # 1 tap
        expect(page.locator("[data-seat-label]")).to_be_visible()
        phones.append(page)
    check_phone(phones[0], "tournament-phone-seated")

    laptop.click("a:has-text('Table screen')")
    start_game(laptop)
    expect(laptop.locator("[data-prompt]")).to_be_visible()
    state = from_db(server, tables.get_table, code)["state"]
    jack = next(seat for seat, line in enumerate(state["lines"]) if "jack" in line)
    helper = (jack + 1) % 4
    for victim in range(4):
        if victim in (jack, helper):
            continue
        dead = laptop.locator(".l88-dead").count()
        form = laptop.locator("form:has(input[name=type][value=mark_dead])")
        form.locator("select[name=target]").select_option(str(victim))
        confirm(laptop, form.locator("button:has-text('Mark dead')"))
        expect(laptop.locator("[data-error]")).to_have_count(0)
        # The death has landed (the reload below must not cut its request short).
        expect(laptop.locator(".l88-dead")).not_to_have_count(dead)
    # A fresh page, so that no pending live refresh closes the outcome form under us.
    laptop.reload()
    laptop.click(".l88-record summary")
    laptop.check("input[name=result][value=jack_killed_everyone]")
    laptop.check(f"input[name=accomplice_{helper}]")
    laptop.click("[data-propose]")
    # A proposal does not count: the projector waits for the confirmation.
    expect(laptop.locator("[data-proposal]")).to_be_visible()
    expect(projector.locator("[data-progress]")).to_contain_text("0 of 1 tables finished")
    confirm(laptop, laptop.locator("button:has-text('Confirm: end the game')"))
    expect(laptop.locator("[data-outcome]")).to_be_visible()

    # No reload: the projector's component refreshes itself every few seconds.
    expect(projector.locator("[data-progress]")).to_contain_text("1 of 1 tables finished")
    names = [seat["name"] for seat in table["seats"]]
    for seat, name in enumerate(names):
        points = "7" if seat in (jack, helper) else "0"
        expect(projector.locator(f"tr[data-row='{name}'] [data-total]")).to_have_text(points)
    expect(projector.locator("tr").nth(1)).to_contain_text("7")
    expect(projector.locator("[data-qr]")).to_be_visible()
    check_screen(projector, "tournament-projector")

    # The table counted an accomplice by mistake: the organiser corrects the result from
    # the form filled in with it, changing only what was wrong.
    laptop.goto(f"{server.url}/tournaments/{tid}/rounds/1")
    laptop.click("[data-table='1'] summary:has-text('Correct this result')")  # 1 tap
    form = laptop.locator("[data-result-form='1']")
    expect(form.locator("input[value=jack_killed_everyone]")).to_be_checked()
    expect(form.locator("select[name=jack]")).to_have_value(str(jack))
    expect(form.locator(f"input[name=accomplice_{helper}]")).to_be_checked()
    check_screen(laptop, "tournament-correct-filled")
    form.locator(f"input[name=accomplice_{helper}]").uncheck()  # 1 tap
    form.locator("input[name=reason]").fill("No accomplice at this table")
    form.locator("button:has-text('Correct the result')").click()  # 1 tap
    expect(laptop.locator("[data-result]")).not_to_contain_text("accomplices")
    expect(projector.locator(f"tr[data-row='{names[helper]}'] [data-total]")).to_have_text("0")
    expect(projector.locator(f"tr[data-row='{names[jack]}'] [data-total]")).to_have_text("7")

    # A phone opens the same leaderboard (the projector's QR code is read at the end).
    reader = phone()
    reader.goto(server.url + board_url)
    expect(reader.locator(f"tr[data-row='{names[jack]}'] [data-total]")).to_have_text("7")
    # On a phone: no QR code of the page itself, no sideways scroll; the details of a row
    # are one tap away, on the player's page.
    expect(reader.locator("[data-qr]")).to_be_hidden()
    check_phone(reader, "tournament-board-phone")
    reader.click(f"tr[data-row='{names[jack]}'] a")
    expect(reader.locator("[data-points]")).to_have_text("7")
    check_phone(reader, "tournament-player-phone")
    qr_png = SCREENSHOTS / "tournament-projector-qr.png"
    # The projector swaps its board in as results come: photograph the place the code
    # stands, not an element that a swap may have just replaced.
    projector.screenshot(path=str(qr_png), clip=projector.locator("[data-qr]").bounding_box())
    projector.context.close()
    assert decode_qr(qr_png) == server.url + board_url


# --- a club night's tournament: 12 to 60 players --------------------------------------

FIRST = ["Ann", "Bartholomew", "Cy", "Dorothea", "Ed", "Florence", "Gus", "Henrietta",
         "Ivy", "Jonathan", "Kit", "Lucinda", "Mo", "Nathaniel", "Oz", "Philippa", "Quin",
         "Rosalind", "Sam", "Theodora"]
LAST = ["Abberline", "Godley", "Warren", "Lusk"]


def club_names(count: int) -> list[str]:
    """Names as long as a club's (up to "Bartholomew Abberline"), all distinct."""
    return [f"{FIRST[i % len(FIRST)]} {LAST[i // len(FIRST)]}" for i in range(count)]


def register_by_post(page, server, tid: int, names: list[str]) -> None:
    """The organiser's Register and Check everyone in, sent as the forms send them (the browser's
    own cookies, through its request API): the clicks themselves are played above."""
    manage = f"{server.url}/tournaments/{tid}"
    html = page.context.request.get(manage).text()

    def post(path: str, **fields) -> None:
        nonlocal html
        fields.update(csrf=csrf_of(html), version=str(version_of(html)))
        response = page.context.request.post(manage + path, form=fields)
        assert response.ok, response.text()
        # The page the answer's 303 leads to, as the organiser's browser shows it: it holds
        # the next form's token and version.
        html = response.text()

    for index, name in enumerate(names):
        post("/players", name=name, club="Ripper Club" if index % 3 == 0 else "")
    post("/players/check-in")


def new_tournament(page, server, name: str, players: int) -> int:
    page.goto(server.url + "/tournaments")
    page.fill("input[name=name]", name)
    page.fill("input[name=rounds]", "3")
    page.click("button:has-text('Create the tournament')")
    tid = int(page.url.rstrip("/").rsplit("/", 1)[-1])
    register_by_post(page, server, tid, club_names(players))
    return tid


def every_row_seen(browser, url: str, size: dict, count: int, name: str) -> int:
    """Watches the projector's board turn its pages until every page was shown, each
    whole on the screen; returns how many pages it has."""
    context = browser.new_context(viewport=size)
    context.clock.install()  # time flows; the test moves it on to turn a page sooner
    board = context.new_page()
    board.goto(url)
    expect(board.locator("tr[data-row]")).to_have_count(count)
    check_screen(board, name)
    shown: dict[int, list[str]] = {}
    pages = 1
    while len(shown) < pages:
        number, pages, rows = board.evaluate("""() => {
          const note = document.querySelector("[data-page]").textContent;
          const found = /Page (\\d+) of (\\d+)/.exec(note) || [null, "1", "1"];
          const rows = Array.from(document.querySelectorAll("tr[data-row]")).filter(row => {
            const box = row.getBoundingClientRect();
            return !row.hidden && box.height > 0 && box.top >= 0 && box.bottom <= innerHeight;
          }).map(row => row.dataset.row);
          return [Number(found[1]), Number(found[2]), rows];
        }""")
        assert board.evaluate("document.documentElement.scrollHeight <= innerHeight")
        assert shown.setdefault(number, rows) == rows, (size, count, number)
        board.clock.run_for(8000)
    every = [row for number in sorted(shown) for row in shown[number]]
    assert every == board.locator("tr[data-row]").evaluate_all(
        "rows => rows.map(row => row.dataset.row)"), (size, count)  # each once, in order
    # Pages evenly filled: no lonely last row (12 rows: 6 and 6, not 11 and 1).
    assert len(shown[pages]) >= len(shown[1]) - pages
    context.close()
    return pages


def test_the_projector_shows_every_row_for_12_to_60_players(server, laptop, browser):
    for count in (12, 40, 60):
        tid = new_tournament(laptop, server, f"Club night {count}", count)
        url = f"{server.url}/tournaments/{tid}/board"
        for size in ({"width": 1280, "height": 800}, {"width": 1920, "height": 1080}):
            pages = every_row_seen(browser, url, size, count,
                                   f"tournament-board-{count}-{size['width']}")
            # Pages only when needed, and few enough to find one's name in half a minute.
            assert pages <= (1 if count <= 12 and size["width"] == 1920 else 5), (count, size)


def test_a_40_player_round_prints_and_ten_table_screens_stay_live_in_one_browser(
        server, laptop, browser):
    tid = new_tournament(laptop, server, "Spring Cup", 40)
    laptop.goto(f"{server.url}/tournaments/{tid}")
    laptop.select_option("select[name=table_size]", "4")
    laptop.click("button:has-text('Start round 1')")  # 1 tap
    expect(laptop.locator("[data-table]")).to_have_count(10)
    round_tables = from_db(server, store.round_tables, tid, 1)

    # On paper: the pairings on one page, then one score sheet per table.
    laptop.click("[data-sheets]")  # 1 tap
    expect(laptop.locator("[data-score-sheet]")).to_have_count(10)
    pdf = SCREENSHOTS / "tournament-round-sheets.pdf"
    SCREENSHOTS.mkdir(exist_ok=True)
    laptop.pdf(path=str(pdf), format="A4", print_background=True)
    # Chromium writes one page object per printed page.
    assert len(re.findall(rb"/Type\s*/Page[^s]", pdf.read_bytes())) == 11
    laptop.emulate_media(media="print")
    shot(laptop, "tournament-round-sheets-print")  # looked at: white, no buttons
    paper = laptop.evaluate("getComputedStyle(document.body).backgroundColor")
    assert paper == "rgb(255, 255, 255)"
    assert laptop.locator("a, button").evaluate_all(
        "nodes => nodes.filter(node => node.offsetParent !== null).length") == 0
    pairings = laptop.locator("[data-pairings]").inner_text()
    assert all(seat["name"] in pairings for table in round_tables for seat in table["seats"])
    for table in round_tables:
        sheet = laptop.locator(f"[data-score-sheet='{table['number']}']").inner_text()
        assert f"table {table['number']}" in sheet
        assert [seat["name"] in sheet for seat in table["seats"]] == [True] * 4
    laptop.emulate_media(media="screen")

    # Ten table screens open in the organiser's one browser: each holds no stream of its
    # own (Chromium's 6 connections per host), all share one, and each stays live.
    screens = []
    for table in round_tables:
        page = laptop.context.new_page()
        page.goto(f"{server.url}/t/{table['code']}")
        expect(page.locator("li.seat.taken")).to_have_count(0)
        screens.append(page)
    for table in round_tables:  # 40 phones sit down (plain HTTP, each its own cookies)
        for seat in table["seats"]:
            reply = HttpDevice(server.url).join(table["code"], seat["position"], seat["name"])
            assert reply.status == 303, reply.text
    # Each updated by itself, without a reload. (How quickly is bench/'s to measure, not
    # a test's: bench/streams.py.)
    for page in screens:
        expect(page.locator("li.seat.taken")).to_have_count(4)
    for page in screens:  # each answers a tap
        start_game(page)  # 1 tap
        expect(page.locator("[data-prompt]")).to_be_visible()
    # And every screen hears a change made elsewhere (a phone's action, here the host's
    # on another screen would do the same): the round page shows each table playing.
    board = laptop.context.new_page()
    board.goto(f"{server.url}/tournaments/{tid}/rounds/1")
    expect(board.locator(".status-playing")).to_have_count(10)
