"""Wo ist Jack the Ripper in a real Chromium: a laptop and three phones, one full game."""

from __future__ import annotations

import copy

from playwright.sync_api import expect

from tests.support.glance import DEFAULT_MASK, assert_same_glance
from tests.support.hidden import deal_again, hidden_state
from tests.support.pages import LAPTOP, confirm, sit
from tests.support.phone_quality import check_phone, check_screen

NAMES = ["Ann", "Bob", "Cy"]
# The random table code's whole line: antialiasing at the edge of the code's own box
# differs by a pixel from one code to another.
MASK = (*DEFAULT_MASK, "p:has(> .code)")


def open_table(server, laptop, phone) -> tuple[str, dict]:
    laptop.goto(server.url + "/new/wo_ist_jack")
    laptop.select_option("select[name=players]", "3")
    laptop.click("button:has-text('Create the table')")
    code = laptop.locator(".code-big").inner_text().strip()
    phones = {name: phone() for name in NAMES}
    for seat, name in enumerate(NAMES):
        sit(phones[name], f"{server.url}/j/{code}", name, seat)
    expect(laptop.locator("[data-seats]")).to_contain_text("Cy")
    laptop.click("button:has-text('Start the game')")
    for page in phones.values():
        expect(page.locator("[data-choose-start]")).to_be_visible()
    return code, phones


def active_name(laptop) -> str:
    return laptop.locator("[data-turn-order] [data-active]").inner_text().strip()


def test_a_three_player_game_to_the_reporter_of_the_year(server, laptop, phone):
    laptop.goto(server.url + "/new/wo_ist_jack")
    laptop.select_option("select[name=players]", "3")
    expect(laptop.locator("textarea[name=stories]")).to_contain_text(
        "Polizei tappt im Dunkeln")
    check_screen(laptop, "wo_ist_jack-new-table")
    code, phones = open_table(server, laptop, phone)

    # Who starts? A phone may say it as well as the laptop.
    check_phone(phones["Bob"], "wo_ist_jack-phone-who-starts")
    phones["Bob"].locator("[data-choose-start] button", has_text="Ann").click()
    expect(laptop.locator("[data-prompt]")).to_contain_text("Ann's turn")
    expect(phones["Ann"].locator("[data-print-form]")).to_be_visible()
    expect(phones["Bob"].locator("[data-print-form]")).to_have_count(0)
    current = laptop.locator("[data-current] .wij-name").inner_text().strip()
    upcoming = laptop.locator("[data-next] .wij-name").inner_text().strip()
    expect(laptop.locator("[data-deck-left]")).to_contain_text("8 face-down")
    expect(laptop.locator("body")).to_contain_text("Out of the game with 3 players")
    check_screen(laptop, "wo_ist_jack-table-start")
    check_phone(phones["Ann"], "wo_ist_jack-phone-your-turn")
    check_phone(phones["Cy"], "wo_ist_jack-phone-waiting")

    # A negative value never leaves the phone (the field refuses it), nothing changes.
    ann = phones["Ann"]
    ann.fill("input[name=points]", "-3")
    ann.click("[data-print-button]")
    expect(ann.locator("input[name=points]:invalid")).to_have_count(1)
    expect(laptop.locator("[data-current] .wij-name")).to_have_text(current)

    ann.fill("input[name=points]", "4")
    ann.click("[data-print-button]")
    expect(laptop.locator("[data-current] .wij-name")).to_have_text(upcoming)
    expect(laptop.locator("[data-deck-left]")).to_contain_text("7 face-down")
    for page in (laptop, *phones.values()):
        expect(page.locator("[data-answer]")).to_have_text(
            f"Ann printed “{current}” for 4 points. Now current: “{upcoming}”.")
    for name in ("Bob", "Cy"):
        expect(phones[name].locator("[data-notice]")).to_contain_text(
            f"Take one of your melded Research cards back into your hand (if you have any): "
            f"Ann printed “{current}”")
    expect(ann.locator("[data-notice]")).to_have_count(0)
    check_phone(phones["Bob"], "wo_ist_jack-phone-take-back")
    check_phone(ann, "wo_ist_jack-phone-printed")
    phones["Bob"].click("[data-took-back]")
    expect(phones["Bob"].locator("[data-notice]")).to_have_count(0)

    # Let the laptop catch up with Bob's tap before using its form (a refresh resets it).
    expect(laptop.locator("[data-score='1']")).not_to_contain_text("takes back")
    # The host marks U-Haft on Cy for Ann; Ann plays Reporterteam on her phone.
    laptop.select_option("[data-host-actions] select[name=target]", label="Cy")
    laptop.click("[data-host-actions] button:has-text('U-Haft')")
    expect(laptop.locator("[data-markers]")).to_contain_text("Cy loses their next turn.")
    ann.click("button:has-text('Play Reporterteam')")
    expect(laptop.locator("[data-markers]")).to_contain_text(
        "Ann has one extra investigation from their next turn")
    expect(phones["Cy"].locator("[data-markers]")).to_contain_text("Reporter in Detention")
    check_screen(laptop, "wo_ist_jack-table-markers")
    check_phone(phones["Cy"], "wo_ist_jack-phone-u-haft")
    ann.click("[data-end-turn]")
    expect(phones["Bob"].locator("[data-prompt]")).to_contain_text("Your turn")
    # Cy breaks Bob's printing press as he is about to print: no printing until his next turn.
    confirm(phones["Cy"], phones["Cy"].locator("[data-druckmaschine] button"))
    expect(phones["Bob"].locator("[data-print-form]")).to_have_count(0)
    expect(phones["Bob"].locator("[data-prompt]")).to_contain_text("printing press is broken")
    expect(laptop.locator("[data-markers]")).to_contain_text("Bob's printing press is broken")
    check_phone(phones["Bob"], "wo_ist_jack-phone-druckmaschine")
    phones["Bob"].click("[data-end-turn]")
    # Cy loses the turn: back to Ann, with the extra investigation.
    expect(ann.locator("[data-prompt]")).to_contain_text("Your turn: 3 investigations")
    expect(laptop.locator("[data-markers]")).not_to_contain_text("Cy loses")
    check_phone(ann, "wo_ist_jack-phone-reporterteam")

    # Play on: each active reporter prints at most one story a turn, up to a quota.
    points = {"Ann": "2", "Bob": "3", "Cy": "5"}
    quota = {"Ann": 2, "Bob": 5, "Cy": 3}
    printed = {"Ann": 1, "Bob": 0, "Cy": 0}
    total = 1
    name = active_name(laptop)
    while total < 10:
        page = phones[name]
        expect(page.locator("[data-prompt]")).to_contain_text("Your turn")
        if printed[name] < quota[name]:
            page.fill("input[name=points]", points[name])
            page.click("[data-print-button]")
            printed[name] += 1
            total += 1
            expect(laptop.locator("[data-printed] li")).to_have_count(total)
            if total == 10:
                break
            # The reporter's own page has caught up with the print before the next tap.
            expect(page.locator("[data-printed] li")).to_have_count(total)
        page.click("[data-end-turn]")
        # Nobody is in U-Haft any more: the turn passes clockwise.
        name = NAMES[(NAMES.index(name) + 1) % len(NAMES)]
        expect(laptop.locator("[data-turn-order] [data-active]")).to_have_text(name)
    # Ann 4 + 2, Bob 5 x 3 + 2 for the most stories, Cy 3 x 5.
    expect(laptop.locator("[data-result]")).to_have_text(
        "Bob is the Reporter of the Year with 17 points!")
    expect(laptop.locator("[data-bonus]")).to_have_text(
        "Bob printed the most stories (5) and gets +2 story points.")
    expect(laptop.locator("[data-score='2']")).to_contain_text("15")
    for page in phones.values():
        expect(page.locator("[data-result]")).to_contain_text("Reporter of the Year")
        expect(page.locator("[data-print-form]")).to_have_count(0)
    expect(laptop.locator("[data-printed] li")).to_have_count(10)
    # The final score stands first, whole (Total column included) at 360 px.
    for page in phones.values():
        assert page.locator("[data-result]").bounding_box()["y"] < 300
    check_screen(laptop, "wo_ist_jack-table-final")
    check_phone(phones["Cy"], "wo_ist_jack-phone-final")
    phones["Cy"].set_viewport_size({"width": 360, "height": 844})
    total = phones["Cy"].locator("[data-score] [data-total]").first.bounding_box()
    assert total["x"] + total["width"] <= 360


def test_a_phone_at_rest_does_not_tell_the_story_deck(server, browser, laptop, phone):
    """Two tables, same names, same public actions; the second's face-down story deck
    lies in another order. No phone, at rest, may tell which."""
    other = browser.new_context(**LAPTOP).new_page()
    code_a, first = open_table(server, laptop, phone)
    code_b, second = open_table(server, other, phone)
    state = hidden_state(server, code_a)
    changed = copy.deepcopy(state)
    # The two cards printed below come from the top of the deck: the rest is reversed.
    changed["deck"] = state["deck"][:2] + state["deck"][2:][::-1]
    assert changed["deck"] != state["deck"]
    deal_again(server, code_b, changed)
    for page in second.values():
        page.reload()

    def glance(point: str) -> None:
        for name in NAMES:
            assert_same_glance(first[name], second[name], f"wo_ist_jack-{point}-{name}", MASK)

    glance("who-starts")
    for phones in (first, second):
        phones["Bob"].locator("[data-choose-start] button", has_text="Ann").click()
        expect(phones["Ann"].locator("[data-print-form]")).to_be_visible()
    glance("start")
    for phones in (first, second):
        phones["Ann"].fill("input[name=points]", "4")
        phones["Ann"].click("[data-print-button]")
        expect(phones["Cy"].locator("[data-notice]")).to_be_visible()
        phones["Ann"].fill("input[name=points]", "2")
        phones["Ann"].click("[data-print-button]")
        expect(phones["Cy"].locator("[data-notice]")).to_contain_text("Take 2 of")
    glance("printed")
    other.context.close()
