"""A live refresh landing at the wrong moment, forced on purpose: the page never loses
a change, nor a tap, nor what the player had half filled in.

The races are made deterministic by holding a page's refresh answer (Playwright's
route) while the other devices act, or by acting between a player's two taps.
"""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.test_london1888 import KINDS, open_table
from tests.browser.test_platform import REFUSED
from tests.support.hidden import hidden_state
from tests.support.pages import confirm, tally_table
from tests.support.phone_quality import check_phone, check_screen

REFRESH_SETTLES_MS = 500  # time for an announced change to reach a page and be fetched


def add(page, amount: str) -> None:
    page.fill("input[name=amount]", amount)
    page.click("[data-add]")


def test_a_change_announced_while_a_refresh_is_on_its_way_is_fetched(server, laptop, phone):
    """Ann's refresh answer (the table after the skip) is held back until Bob has
    acted too: the page shows the older answer first, then must fetch the newer one
    at once (htmx wires the new view only when it settles; a refresh asked for before
    that, the page's own catch-up, went nowhere and the phone stayed behind)."""
    code, ann, bob = tally_table(server, laptop, phone)
    held = []
    page_url = f"**/t/{code}/me"
    ann.route(page_url, lambda route: held.append((route, route.fetch())))
    laptop.click("button:has-text('Skip this turn')")
    expect(bob.locator("[data-add]")).to_be_visible()
    ann.wait_for_timeout(REFRESH_SETTLES_MS)
    assert len(held) == 1, "Ann's page fetched the skip's view"
    add(bob, "3")
    expect(laptop.locator("[data-total]")).to_have_text("3")
    ann.wait_for_timeout(REFRESH_SETTLES_MS)  # Ann's phone heard of Bob's change meanwhile
    route, answer = held[0]
    route.fulfill(response=answer)
    ann.unroute(page_url)
    expect(ann.locator("[data-total]")).to_have_text("3")
    expect(ann.locator("#view")).to_have_attribute(
        "data-version", laptop.locator("#view").get_attribute("data-version"))
    add(ann, "2")
    expect(bob.locator("[data-total]")).to_have_text("5")
    check_phone(ann, "live-refresh-caught-up")


def test_an_armed_button_stays_armed_through_a_refresh(server, laptop, phone):
    """The host arms "Hand over" (Bob picked); Ann's move refreshes the laptop's page
    before the second tap: the button is still armed, Bob still picked, and the second
    tap hands over. Undo is the exception: what it takes back is the table's last
    action, so a change under an armed Undo disarms it (the second tap only arms it)."""
    _code, ann, bob = tally_table(server, laptop, phone)
    add(ann, "2")
    expect(laptop.locator("[data-total]")).to_have_text("2")
    undo = laptop.locator("form[action$='/undo'] button.confirm")
    undo.click()
    expect(undo).to_have_class("confirm armed")
    add(bob, "3")
    expect(laptop.locator("[data-total]")).to_have_text("5")
    expect(undo).to_have_text("Undo last action")
    expect(undo).not_to_have_class("confirm armed")

    handover = laptop.locator("form[action$='/hand-host']")
    handover.locator("select[name=seat]").select_option("1")
    handover.locator("button.confirm").click()
    expect(handover.locator("button.armed")).to_contain_text("Tap again")
    add(ann, "1")
    expect(laptop.locator("[data-total]")).to_have_text("6")
    expect(handover.locator("select[name=seat]")).to_have_value("1")
    expect(handover.locator("button.armed")).to_have_text(
        "Hand the host controls to that seat? Tap again.")
    check_screen(laptop, "live-refresh-armed")
    handover.locator("button.armed").click()
    expect(bob.locator("[data-host-controls]")).to_be_visible()
    expect(ann.locator("[data-host-controls]")).to_have_count(0)


def test_a_refused_action_keeps_what_the_player_typed(server, laptop, phone):
    """Bob types a number the rules refuse: the answer says why and his number stays in
    the field to be corrected (it used to come back empty)."""
    _code, ann, bob = tally_table(server, laptop, phone)
    add(ann, "1")
    add(bob, "7")
    expect(bob.locator("[data-error]")).to_contain_text("between 1 and 3")
    expect(bob.locator("input[name=amount]")).to_have_value("7")
    check_phone(bob, "live-refresh-refused", allow=REFUSED)
    bob.fill("input[name=amount]", "3")
    bob.click("[data-add]")
    expect(ann.locator("[data-total]")).to_have_text("4")


def test_a_sent_button_asks_no_more_while_its_answer_is_on_its_way(server, laptop, phone):
    """The host's second tap on Undo goes out and its answer is held back (a slow
    Wi-Fi): the button says "Undo last action" again, not "tap again" with seconds
    running, so a third tap is not invited; the answer then replaces the page."""
    _code, ann, _bob = tally_table(server, laptop, phone)
    add(ann, "2")
    expect(laptop.locator("[data-total]")).to_have_text("2")
    held = []
    laptop.route("**/undo", lambda route: held.append(route))
    undo = laptop.locator("form[action$='/undo'] button.confirm")
    undo.click()
    expect(undo).to_have_class("confirm armed")
    undo.click()
    laptop.wait_for_function("() => document.querySelector('.htmx-request')")
    expect(laptop.locator("button.armed")).to_have_count(0)
    expect(undo).to_have_text("Undo last action")
    assert len(held) == 1
    held[0].continue_()
    expect(laptop.locator("[data-total]")).to_have_text("0")


def test_a_half_filled_question_survives_the_table_moving(server, laptop, phone):
    """London 1888: Ann opens her questions to Cy and to the prisoner Bob, ticks a card
    of Cy's and two of Bob's, and taps Bob's question once; the table sends Cy to prison
    meanwhile. Ann's phone follows: both sections still open (Cy's under its new title),
    each form's ticks its own, Bob's button still armed, Cy's (now asking for two cards)
    not: her second tap questions Bob."""
    code, (ann, _bob, cy, _di) = open_table(server, laptop, phone, ["Ann", "Bob", "Cy", "Di"])
    state = hidden_state(server, code)
    arrest(laptop, 1)
    lusk, gull = ann.locator("[data-target='1']"), ann.locator("[data-target='2']")
    expect(lusk.locator("summary")).to_contain_text("in prison")
    gull.locator("summary").click()
    gull.locator("label:has(input[name=position_3])").click()
    lusk.locator("summary").click()
    for position in (2, 4):
        lusk.locator(f"label:has(input[name=position_{position}])").click()
    lusk.locator("button[value=question]").click()
    expect(lusk.locator("button.armed")).to_be_visible()
    arrest(laptop, 2)
    expect(cy.locator("[data-in-prison]")).to_be_visible()
    expect(gull.locator("summary")).to_contain_text("in prison")
    for section in (lusk, gull):
        expect(section).to_have_attribute("open", "")
    for position in (2, 4):
        expect(lusk.locator(f"input[name=position_{position}]")).to_be_checked()
    expect(lusk.locator("input:checked")).to_have_count(2)
    expect(gull.locator("input:checked")).to_have_count(1)
    expect(gull.locator("input[name=position_3]")).to_be_checked()
    expect(gull.locator("button.armed")).to_have_count(0)
    lusk.locator("button.armed").click()
    for position in (2, 4):
        kind = KINDS[state["lines"][1][position - 1]]
        expect(ann.locator(f"[data-answer] [data-revealed='{position}']")).to_contain_text(
            f"card {position} is {kind}")


def arrest(laptop, seat: int) -> None:
    """The table sends a player to prison, arrested by Abberline."""
    laptop.select_option("form:has(input[value=arrest]) select[name=target]", str(seat))
    laptop.select_option("form:has(input[value=arrest]) select[name=by]", "abberline")
    confirm(laptop, laptop.locator("button:has-text('Send to prison')"))


def test_a_refresh_waits_for_the_finger_to_lift(server, laptop, phone):
    """Ann's finger is down on "Add" when the host hands the host controls to Bob. The
    refresh waits until her finger lifts, so the tap lands on the button it began on (a
    view swapped between press and release got no click: the tap vanished without a
    word). Her tap was made on the table of before: it is refused, and says so, with
    her number kept; her next tap adds."""
    _code, ann, bob = tally_table(server, laptop, phone)
    ann.fill("input[name=amount]", "2")
    version = ann.locator("#view").get_attribute("data-version")
    box = ann.locator("[data-add]").bounding_box()
    ann.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    ann.mouse.down()
    handover = laptop.locator("form[action$='/hand-host']")
    handover.locator("select[name=seat]").select_option("1")
    confirm(laptop, handover.locator("button.confirm"))
    expect(bob.locator("[data-host-controls]")).to_be_visible()
    ann.wait_for_timeout(REFRESH_SETTLES_MS)  # the change reached Ann's phone
    ann.mouse.up()
    expect(ann.locator("[data-error]")).to_contain_text("The table moved on")
    expect(ann.locator("#view")).not_to_have_attribute("data-version", version)
    expect(ann.locator("input[name=amount]")).to_have_value("2")
    check_phone(ann, "live-refresh-pressed", allow=REFUSED)
    ann.click("[data-add]")
    expect(bob.locator("[data-total]")).to_have_text("2")


def test_a_reload_keeps_a_half_filled_question(server, laptop, phone):
    """London 1888: Ann opens her question to Cy and ticks a card of his; her phone is
    reloaded (a thumb on the browser's reload, a phone woken up): the section is still
    open and the card still ticked, as after a live refresh. Another page of the same
    table (the laptop's) keeps nothing of hers."""
    _code, (ann, _bob, _cy, _di) = open_table(server, laptop, phone, ["Ann", "Bob", "Cy", "Di"])
    gull = ann.locator("[data-target='2']")
    gull.locator("summary").click()
    gull.locator("label:has(input[name=position_3])").click()
    ann.reload()
    expect(gull).to_have_attribute("open", "")
    expect(gull.locator("input[name=position_3]")).to_be_checked()
    expect(gull.locator("input:checked")).to_have_count(1)
    check_phone(ann, "live-refresh-reloaded")
