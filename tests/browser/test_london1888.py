"""London 1888 in a real Chromium: the laptop and five phones play to an outcome.

Jack's seat and his card's position are read from the server's database: the test is the
omniscient observer, the pages under test never show them.
"""

from __future__ import annotations

import json
import re
import sqlite3

from playwright.sync_api import expect

from tests.support.pages import confirm, shot, sit

NAMES = ["Ann", "Bob", "Cy", "Di", "Ed"]


def hidden_state(server, code: str) -> dict:
    with sqlite3.connect(server.db) as db:
        row = db.execute("SELECT state FROM tables WHERE code = ?", [code]).fetchone()
    return json.loads(row[0])






def question(page, target: int, position: int) -> None:
    box = page.locator(f"[data-target='{target}']")
    box.locator("summary").click()
    box.locator(f"label:has(input[name=position_{position}])").click()
    confirm(page, box.locator("button[value=question]"))


def test_five_phones_and_the_table_play_to_an_outcome(server, laptop, phone):
    laptop.goto(server.url + "/new/london1888")
    laptop.select_option("select[name=players]", "5")
    expect(laptop.locator("textarea[name=murder_cards]")).to_have_value(
        "Murder I\nMurder II\nMurder III\nMurder IV\nMurder V")
    shot(laptop, "london1888-new-table")
    laptop.click("button:has-text('Create the table')")
    code = laptop.locator(".code-big").inner_text().strip()
    phones = [phone() for _ in NAMES]
    for seat, (page, name) in enumerate(zip(phones, NAMES, strict=True)):
        sit(page, f"{server.url}/j/{code}", name, seat)
    expect(laptop.locator("[data-seats]")).to_contain_text("Ed")
    laptop.click("button:has-text('Start the game')")
    expect(laptop.locator("[data-prompt]")).to_contain_text("Abberline (Ann) is playing")
    expect(laptop.locator("[data-setup]")).to_contain_text("Scotland Yard")
    shot(laptop, "london1888-table-setup")

    state = hidden_state(server, code)
    jack = next(seat for seat, line in enumerate(state["lines"]) if "jack" in line)
    # Each phone's role is hidden until held.
    for seat, page in enumerate(phones):
        role = page.locator("[data-role]")
        expect(role).to_be_hidden()
        assert role.text_content() == ("Jack the Ripper" if seat == jack else "Innocent")
    ann = phones[0]
    box = ann.locator("[data-peek]").bounding_box()
    ann.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    ann.mouse.down()
    expect(ann.locator("[data-role]")).to_be_visible()
    shot(ann, "london1888-phone-peek")
    ann.mouse.up()
    expect(ann.locator("[data-role]")).to_be_hidden()

    # Round 1: Abberline questions a player who is not Jack; everyone sees the card.
    target = next(seat for seat in range(1, 5) if seat != jack)
    kind = {"innocent": "Innocent", "suspect": "Suspect",
            "false_lead": "False Lead"}[state["lines"][target][1]]
    ann.locator(f"[data-target='{target}'] summary").click()
    ann.locator(f"[data-target='{target}'] label:has(input[name=position_2])").click()
    shot(ann, "london1888-phone-question")
    confirm(ann, ann.locator(f"[data-target='{target}'] button[value=question]"))
    for page in [laptop, *phones]:
        expect(page.locator("[data-last-reveal]")).to_contain_text(f"card 2 is {kind}")
    expect(ann.locator("[data-decision]")).to_have_count(0)

    # Everyone ends their turn (phones, and once the host for a slow player).
    ann.click("[data-end-turn]")
    phones[1].click("[data-end-turn]")
    laptop.click("button:has-text(\"End Gull (Cy)'s turn\")")
    phones[3].click("[data-end-turn]")
    phones[4].click("[data-end-turn]")
    expect(laptop.locator("[data-prompt]")).to_contain_text("Round 1 is over")
    laptop.click("[data-next-round]")
    first_card = state["deck"][0]["name"]
    for page in (laptop, phones[2]):
        expect(page.locator("[data-event]")).to_contain_text(first_card)
        expect(page.locator("[data-round]")).to_have_text("2")
    expect(laptop.locator("[data-current]")).to_contain_text("Lusk (Bob)")

    # Round 2: the Absinthe went to Lusk. He (or the next player) questions Jack's role card.
    asker = 1 if jack != 1 else 2
    if asker == 2:
        phones[1].click("[data-end-turn]")
    position = state["lines"][jack].index("jack") + 1
    question(phones[asker], jack, position)
    for page in [laptop, *phones]:
        expect(page.locator("[data-jack]")).to_contain_text("Jack the Ripper is")
    shot(laptop, "london1888-table-jack-discovered")
    shot(phones[(jack + 1) % 5], "london1888-phone-jack-discovered")

    # The table marks Jack killed by the asker, then records the Innocents' win.
    laptop.select_option("form:has(input[value=mark_dead]) select[name=target]", str(jack))
    laptop.select_option("form:has(input[value=mark_dead]) select[name=killer]", str(asker))
    confirm(laptop, laptop.locator("button:has-text('Mark dead')"))
    expect(laptop.locator("[data-prompt]")).to_contain_text("the Innocents win")
    expect(phones[jack].locator("[data-dead]")).to_contain_text("never be revealed")
    record = laptop.locator("details.l88-record")
    expect(record).to_have_attribute("open", "")  # opened by itself: Jack is caught
    # A mis-ticked box: the proposal is shown to everyone, nothing revealed, then withdrawn.
    wrong = next(seat for seat in range(5) if seat not in (jack, asker))
    record.locator("input[value=innocents]").check()
    record.locator(f"input[name=accomplice_{wrong}]").check()
    record.locator("[data-propose]").click()
    for page in [laptop, *phones]:
        expect(page.locator("[data-proposal]")).to_contain_text("The Innocents win")
        expect(page.locator("[data-proposal]")).to_contain_text(NAMES[wrong])
        expect(page.locator("[data-outcome]")).to_have_count(0)
    expect(phones[wrong].locator("[data-prompt]")).to_contain_text("speak up now")
    expect(laptop.locator(".l88-kind")).to_have_count(2)  # only the two cards questioned
    shot(laptop, "london1888-table-proposal")
    shot(phones[wrong], "london1888-phone-proposal")
    laptop.click("[data-withdraw]")
    expect(laptop.locator("[data-proposal]")).to_have_count(0)
    record.locator("input[value=innocents]").check()
    record.locator("[data-propose]").click()
    expect(phones[0].locator("[data-proposal]")).to_contain_text("none")
    confirm(laptop, laptop.locator("button:has-text('Confirm: end the game')"))
    expect(laptop.locator("[data-outcome]")).to_contain_text("The Innocents win")
    for page in phones:
        expect(page.locator("[data-outcome]")).to_be_visible()
    points = laptop.locator("[data-points] td[data-points-seat]").all_inner_texts()
    assert points == ["0" if seat == jack else "1" for seat in range(5)]
    expect(laptop.locator(".l88-kind")).to_have_count(25)
    expect(laptop.locator("[data-deck] li")).to_have_count(20)
    assert re.search(r"Jack the Ripper was", laptop.locator("[data-outcome]").inner_text())
    shot(laptop, "london1888-table-outcome")
    shot(phones[0], "london1888-phone-outcome")
