"""No tap lost (issue 38): a tap made while the laptop cannot be reached, or whose answer
is lost on the way back, is said to be waiting at the top of the page, kept, and sent
again by itself when the laptop answers; the action is stored once, and the page then
says it went, or that the table moved on meanwhile.

The Wi-Fi is a TCP proxy between Ann's phone and the real server (tests/support/
cutproxy.py) that the test cuts and mends; the laptop and Bob reach the server directly.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from tests.support.cutproxy import CutProxy
from tests.support.pages import caught_up, confirm, shot, sit, start_game
from tests.support.phone_quality import check_phone

WAITING = ("Not sent: the laptop cannot be reached. "
           "It will be sent when the Wi-Fi is back.")
SENT = "Sent: the Wi-Fi is back."
# What the browser logs while the laptop cannot be reached (htmx logs each failed
# request as an error: its afterRequest and sendError).
CUT = ("net::ERR_", "htmx:afterRequest", "htmx:sendError", "status of 409")


@pytest.fixture
def wifi(server) -> Iterator[CutProxy]:
    with CutProxy(server.port) as proxy:
        yield proxy


def tally_through(server, wifi: CutProxy, laptop, phone):
    """The test game for two, started: Ann's phone (360 px) reaches the laptop through
    the Wi-Fi the test cuts, Bob's directly. Ann has the first turn."""
    laptop.goto(server.url + "/new/tally")
    laptop.select_option("select[name=players]", "2")
    laptop.click("text=Create the table")
    code = laptop.locator(".code-big").inner_text().strip()
    ann, bob = phone(width=360), phone()
    sit(ann, f"{wifi.url}/j/{code}", "Ann", 0)
    sit(bob, f"{server.url}/j/{code}", "Bob", 1)
    start_game(laptop)
    expect(ann.locator("[data-add]")).to_be_visible()
    assert ann.url.startswith(wifi.url)
    return code, ann, bob


def logged(server, code: str) -> list[tuple[str, dict]]:
    """The table's log as the laptop stored it: each entry's kind and action."""
    with sqlite3.connect(server.db) as db:
        rows = db.execute("SELECT log.kind, log.action FROM log JOIN tables "
                          "ON tables.id = log.table_id WHERE tables.code = ? "
                          "ORDER BY log.id", [code]).fetchall()
    return [(kind, json.loads(action)) for kind, action in rows]


def adds(server, code: str) -> list[dict]:
    return [action for kind, action in logged(server, code) if action.get("type") == "add"]


def add_while_down(ann, wifi):
    """Ann adds 2 (1 tap) with the Wi-Fi gone: the top of her page says it waits."""
    ann.fill("input[name=amount]", "2")
    wifi.down()
    ann.click("[data-add]")
    bar = ann.locator("[data-connection]")
    expect(bar).to_have_text(WAITING)
    return bar


def test_a_tap_made_while_the_laptop_cannot_be_reached_is_sent_when_it_can(
        server, wifi, laptop, phone):
    """The Wi-Fi is gone when Ann taps Add (1 tap, as always): the top of her page says
    it is not sent and will be, her number stays in the field, nothing is stored, and
    the page keeps trying. The Wi-Fi back, the tap goes by itself, once, and the top
    says so; her page follows the table again."""
    code, ann, bob = tally_through(server, wifi, laptop, phone)
    bar = add_while_down(ann, wifi)
    expect(bar).to_have_attribute("data-connection", "unsent")
    expect(bar).to_be_in_viewport()
    expect(ann.locator("input[name=amount]")).to_have_value("2")
    ann.wait_for_timeout(3500)  # a few tries, each refused by the cut
    expect(bar).to_have_text(WAITING)
    assert adds(server, code) == []
    expect(laptop.locator("[data-total]")).to_have_text("0")
    shot(ann, "no-tap-lost-waiting-360")
    check_phone(ann, "no-tap-lost-waiting", allow=CUT)

    wifi.up()
    expect(bar).to_have_text(SENT)
    expect(bar).to_have_attribute("data-connection", "sent")
    expect(laptop.locator("[data-total]")).to_have_text("2")
    expect(ann.locator("[data-total]")).to_have_text("2")
    assert adds(server, code) == [{"type": "add", "amount": "2"}]
    shot(ann, "no-tap-lost-sent-360")
    bob.fill("input[name=amount]", "1")
    bob.click("[data-add]")
    expect(ann.locator("[data-total]")).to_have_text("3")  # the live stream is back too
    assert len(adds(server, code)) == 2


def test_a_tap_whose_answer_is_lost_is_answered_as_the_first(server, wifi, laptop, phone):
    """Ann holds the host controls and taps Undo twice (the one confirm pattern); the
    laptop stores the undo, but its answer is lost on the way back: her page says the tap
    is not sent. The Wi-Fi back, the page sends it again and the laptop answers it as the
    first (the same page, "sent"), not "the table moved on": one undo, not two."""
    code, ann, _bob = tally_through(server, wifi, laptop, phone)
    handover = laptop.locator("form[action$='/hand-host']")
    handover.locator("select[name=seat]").select_option("0")
    confirm(laptop, handover.locator("button.confirm"))
    expect(ann.locator("[data-host-controls]")).to_be_visible()
    ann.fill("input[name=amount]", "2")
    ann.click("[data-add]")
    expect(ann.locator("[data-total]")).to_have_text("2")
    caught_up(ann)  # her Undo is armed and tapped on the page as it now stands

    wifi.lose_answers()
    confirm(ann, ann.locator("form[action$='/undo'] button.confirm"))
    bar = ann.locator("[data-connection]")
    expect(bar).to_have_text(WAITING)
    expect(laptop.locator("[data-total]")).to_have_text("0")  # stored, its answer lost
    expect(ann.locator("[data-total]")).to_have_text("2")  # kept as she sent it
    undos = [entry for entry in logged(server, code) if entry[0] == "undo"]
    assert len(undos) == 1, logged(server, code)

    wifi.up()
    expect(bar).to_have_text(SENT)
    expect(ann.locator("[data-total]")).to_have_text("0")
    expect(ann.locator("[data-error]")).to_have_count(0)
    assert [entry for entry in logged(server, code) if entry[0] == "undo"] == undos
    assert len(adds(server, code)) == 1


def test_a_waiting_tap_the_table_moved_past_is_refused(server, wifi, laptop, phone):
    """Ann's Add waits for the Wi-Fi while the laptop skips her turn: sent again, it is
    refused as any tap on a table that moved on, and her page says so (the waiting note
    gone: the refusal is the answer). Nothing of hers is stored."""
    code, ann, bob = tally_through(server, wifi, laptop, phone)
    bar = add_while_down(ann, wifi)
    laptop.click("button:has-text('Skip this turn')")
    expect(bob.locator("[data-add]")).to_be_visible()

    wifi.up()
    expect(ann.locator("[data-error]")).to_contain_text("The table moved on")
    expect(bar).to_be_hidden()
    expect(ann.locator("[data-add]")).to_have_count(0)  # Bob's turn now, as the table is
    assert adds(server, code) == []
    check_phone(ann, "no-tap-lost-refused", allow=CUT)
