"""Wo ist Jack the Ripper in a real Chromium: a laptop and three phones, one full game."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.support.pages import confirm, shot

NAMES = ["Ann", "Bob", "Cy"]


def sit(page, url: str, name: str, seat: int) -> None:
    page.goto(url)
    page.fill("input[name=name]", name)
    page.check(f"input[name=seat][value='{seat}']")
    page.click("button[type=submit]")
    expect(page.locator("[data-seat-label]")).to_be_visible()


def active_name(laptop) -> str:
    return laptop.locator("[data-turn-order] [data-active]").inner_text().strip()


def test_a_three_player_game_to_the_reporter_of_the_year(server, laptop, phone):
    laptop.goto(server.url + "/new/wo_ist_jack")
    laptop.select_option("select[name=players]", "3")
    expect(laptop.locator("textarea[name=stories]")).to_contain_text(
        "Polizei tappt im Dunkeln")
    shot(laptop, "wo_ist_jack-new-table")
    laptop.click("button:has-text('Create the table')")
    code = laptop.locator(".code-big").inner_text().strip()

    phones = {name: phone() for name in NAMES}
    for seat, name in enumerate(NAMES):
        sit(phones[name], f"{server.url}/j/{code}", name, seat)
    expect(laptop.locator("[data-seats]")).to_contain_text("Cy")
    laptop.click("button:has-text('Start the game')")

    # Who starts? A phone may say it as well as the laptop.
    expect(phones["Bob"].locator("[data-choose-start]")).to_be_visible()
    shot(phones["Bob"], "wo_ist_jack-phone-who-starts")
    phones["Bob"].locator("[data-choose-start] button", has_text="Ann").click()
    expect(laptop.locator("[data-prompt]")).to_contain_text("Ann's turn")
    expect(phones["Ann"].locator("[data-print-form]")).to_be_visible()
    expect(phones["Bob"].locator("[data-print-form]")).to_have_count(0)
    current = laptop.locator("[data-current] .wij-name").inner_text().strip()
    upcoming = laptop.locator("[data-next] .wij-name").inner_text().strip()
    expect(laptop.locator("[data-deck-left]")).to_contain_text("8 face-down")
    expect(laptop.locator("body")).to_contain_text("Out of the game with 3 players")
    shot(laptop, "wo_ist_jack-table-start")
    shot(phones["Ann"], "wo_ist_jack-phone-your-turn")

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
    for name in ("Bob", "Cy"):
        expect(phones[name].locator("[data-notice]")).to_contain_text(
            f"Ann printed “{current}”: take one of your melded Research cards back")
    expect(ann.locator("[data-notice]")).to_have_count(0)
    shot(phones["Bob"], "wo_ist_jack-phone-take-back")
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
    shot(laptop, "wo_ist_jack-table-markers")
    ann.click("[data-end-turn]")
    expect(phones["Bob"].locator("[data-prompt]")).to_contain_text("Your turn")
    # Cy breaks Bob's printing press as he is about to print: no printing until his next turn.
    confirm(phones["Cy"], phones["Cy"].locator("[data-druckmaschine] button"))
    expect(phones["Bob"].locator("[data-print-form]")).to_have_count(0)
    expect(phones["Bob"].locator("[data-prompt]")).to_contain_text("printing press is broken")
    expect(laptop.locator("[data-markers]")).to_contain_text("Bob's printing press is broken")
    shot(phones["Bob"], "wo_ist_jack-phone-druckmaschine")
    phones["Bob"].click("[data-end-turn]")
    # Cy loses the turn: back to Ann, with the extra investigation.
    expect(ann.locator("[data-prompt]")).to_contain_text("Your turn: 3 investigations")
    expect(laptop.locator("[data-markers]")).not_to_contain_text("Cy loses")
    shot(ann, "wo_ist_jack-phone-reporterteam")

    # Play on: each active reporter prints at most one story a turn, up to a quota.
    points = {"Ann": "2", "Bob": "3", "Cy": "5"}
    quota = {"Ann": 2, "Bob": 5, "Cy": 3}
    printed = {"Ann": 1, "Bob": 0, "Cy": 0}
    total = 1
    while total < 10:
        name = active_name(laptop)
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
        turn = laptop.locator("[data-turn]").get_attribute("data-turn")
        page.click("[data-end-turn]")
        expect(laptop.locator("[data-turn]")).not_to_have_attribute("data-turn", turn)
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
    shot(laptop, "wo_ist_jack-table-final")
    shot(phones["Cy"], "wo_ist_jack-phone-final")
