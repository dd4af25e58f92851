"""Mr. Jack in a real Chromium: the laptop and two phones play a whole base game,
and the London extension's draft and placement."""

from __future__ import annotations

import copy

from playwright.sync_api import expect

from tests.support.glance import DEFAULT_MASK, assert_same_glance
from tests.support.hidden import deal_again, hidden_state
from tests.support.pages import LAPTOP, shot, sit
from tests.support.phone_quality import check_phone, check_screen

ODD = ("detective", "jack", "jack", "detective")
EVEN = ("jack", "detective", "detective", "jack")
# The random table code's whole line: antialiasing at the edge of the code's own box
# differs by a pixel from one code to another.
MASK = (*DEFAULT_MASK, "p:has(> .code)")


def open_table(server, laptop, phone, london: bool = False) -> dict:
    laptop.goto(server.url + "/new/mrjack")
    if london:
        laptop.check("input[name=london]")
    laptop.click("text=Create the table")
    code = laptop.locator(".code-big").inner_text().strip()
    jack, detective = phone(), phone()
    sit(jack, f"{server.url}/j/{code}", "Ann", 0)
    sit(detective, f"{server.url}/j/{code}", "Bob", 1)
    laptop.click("button:has-text('Start the game')")
    expect(jack.locator("[data-phase]")).to_be_visible()
    expect(detective.locator("[data-phase]")).to_be_visible()
    return {"jack": jack, "detective": detective, "code": code}


def peek_alibi(jack) -> str:
    """Hold the alibi box: the name shows while held and hides on release."""
    secret = jack.locator("[data-secret-alibi]")
    expect(secret).to_be_hidden()
    box = jack.locator("[data-peek]").first.bounding_box()
    jack.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    jack.mouse.down()
    expect(secret).to_be_visible()
    name = secret.inner_text().strip()
    return name


def release(jack) -> None:
    jack.mouse.up()
    expect(jack.locator("[data-secret-alibi]")).to_be_hidden()


def play_turn(laptop, phones: dict, turn: int, answer: str = "seen") -> None:
    expect(laptop.locator("[data-turn]")).to_have_text(str(turn))
    for number, role in enumerate(ODD if turn % 2 else EVEN, start=1):
        page = phones[role]
        button = page.locator("[data-pick]").first
        card = button.get_attribute("data-pick")
        button.click()
        # Wait for this phone's own page to drop the card, so that the next click
        # never lands on a button of the page before.
        expect(page.locator(f"[data-pick='{card}']")).to_have_count(0)
        expect(laptop.locator(f"[data-round-card='{card}']")).to_have_attribute(
            "data-taken-by", role.capitalize())
        if turn == 1 and number == 1:
            shot(laptop, "mrjack-table-turn1")
    if turn == 8:
        return
    phones["jack"].click(f"[data-answer={answer}]")
    expect(laptop.locator("[data-witness]")).to_have_attribute("data-witness", answer)
    detective = phones["detective"]
    expect(detective.locator("[data-mark-submit]")).to_be_visible()
    # Jack's answer stands at the top of every screen until the detective marks.
    for page in (laptop, phones["jack"], detective):
        expect(page.locator("[data-call]")).to_have_attribute("data-call", answer)
    if turn == 1:
        detective.locator("[data-seen]").first.check()
        check_phone(detective, "mrjack-detective-marks")
        check_phone(phones["jack"], "mrjack-jack-witness-call")
        check_screen(laptop, "mrjack-table-witness-call")
    detective.click("[data-mark-submit]")
    expect(laptop.locator("[data-turn]")).to_have_text(str(turn + 1))


def test_a_whole_base_game_on_three_screens(server, laptop, phone):
    phones = open_table(server, laptop, phone)
    jack, detective = phones["jack"], phones["detective"]
    expect(laptop.locator("[data-setup]")).to_contain_text("Witness card")
    expect(detective.locator("[data-pick]")).to_have_count(4)
    expect(jack.locator("[data-pick]")).to_have_count(0)
    check_phone(jack, "mrjack-jack-start")
    check_phone(detective, "mrjack-detective-start")
    alibi = peek_alibi(jack)
    shot(jack, "mrjack-jack-peek")
    release(jack)
    # The alibi is nowhere on the detective's phone and the table screen.
    expect(detective.locator("[data-secret-alibi]")).to_have_count(0)
    expect(laptop.locator("[data-secret-alibi]")).to_have_count(0)

    play_turn(laptop, phones, 1, answer="not_seen")
    expect(laptop.locator("[data-reminders]")).to_contain_text("gaslight tile numbered 1")
    expect(jack.locator("[data-escape]")).to_have_attribute("data-escape", "possible")
    expect(detective.locator("[data-escape]")).to_have_attribute("data-escape", "possible")
    expect(laptop.locator("[data-suspect=no]")).to_have_count(1)
    shot(laptop, "mrjack-table-turn2")
    shot(jack, "mrjack-jack-turn2")
    for turn in range(2, 9):
        play_turn(laptop, phones, turn)
    shot(jack, "mrjack-jack-turn8")
    laptop.locator("button", has_text="Dawn: end turn 8").click()
    laptop.locator("button.armed").click()
    for page in (laptop, jack, detective):
        expect(page.locator("[data-outcome]")).to_have_attribute("data-outcome", "Jack")
        expect(page.locator("[data-outcome]")).to_contain_text(alibi)
        expect(page.locator("[data-history]")).to_contain_text(f"Jack's alibi card: {alibi}.")
    check_screen(laptop, "mrjack-table-over")
    check_phone(detective, "mrjack-detective-over")
    check_phone(jack, "mrjack-jack-over")


def test_jacks_phone_at_rest_does_not_tell_his_alibi(server, browser, laptop, phone):
    """Two tables, same names, same public actions; the second Jack has another alibi.
    The detective wrongly clears the first Jack's own character: neither Jack's phone,
    at rest, may show it."""
    other = browser.new_context(**LAPTOP).new_page()
    first = open_table(server, laptop, phone)
    second = open_table(server, other, phone)
    state = hidden_state(server, first["code"])
    changed = copy.deepcopy(state)
    alibi, stranger = state["alibi"], state["alibi_deck"][0]
    changed["alibi"] = stranger
    changed["alibi_deck"][0] = alibi
    deal_again(server, second["code"], changed)
    for page in (second["jack"], second["detective"]):
        page.reload()

    def glance(point: str) -> None:
        assert_same_glance(first["jack"], second["jack"], f"mrjack-{point}", MASK)

    def both(role: str, selector: str) -> None:
        for game in (first, second):
            game[role].click(selector)

    glance("start")
    for role, card in zip(ODD, state["round"]["cards"], strict=True):
        both(role, f"[data-pick='{card}']")
        for game in (first, second):
            expect(game["jack"].locator(f"[data-round-card='{card}']")).to_have_attribute(
                "data-taken-by", role.capitalize())
    glance("witness")
    both("jack", "[data-answer=not_seen]")
    glance("not-seen")
    # "Not seen": those seen are innocent. The detective marks the first Jack's own
    # character as seen: it is cleared in both games, Jack's alibi in the first only.
    for game in (first, second):
        game["detective"].check(f"[data-seen='{alibi}']")
        game["detective"].click("[data-mark-submit]")
        expect(game["jack"].locator(f"[data-character='{alibi}']")).to_have_attribute(
            "data-suspect", "no")
    expect(first["jack"].locator("[data-alibi-warning]")).to_be_attached()
    expect(second["jack"].locator("[data-alibi-warning]")).to_have_count(0)
    glance("cleared")
    # Turn 2: Jack plays first, after "not seen": the same offer to leave on both phones.
    card = next(card for card in state["deck"][:4] if card != alibi)
    both("jack", f"[data-pick='{card}']")
    for game in (first, second):
        expect(game["jack"].locator("button:has-text('leaves the district')")).to_be_visible()
    glance("escape")
    other.context.close()


def test_the_london_draft_and_placement(server, laptop, phone):
    phones = open_table(server, laptop, phone, london=True)
    jack, detective = phones["jack"], phones["detective"]
    # The dealt hands are secrets: closed until tapped.
    expect(jack.locator("[data-keep]")).to_have_count(5)
    expect(jack.locator("[data-keep]").first).to_be_hidden()
    expect(detective.locator("[data-keep]")).to_have_count(5)
    expect(laptop.locator("[data-keep]")).to_have_count(0)
    check_phone(jack, "mrjack-jack-draft-closed")
    # Three cards: refused with a clear message, nothing kept.
    jack.click("[data-hand] summary")
    for box in jack.locator("[data-keep]").all()[:3]:
        box.check()
    check_phone(jack, "mrjack-jack-draft")
    jack.click("[data-keep-submit]")
    expect(jack.locator("[data-error]")).to_contain_text("Keep exactly 2 of your 5 characters")
    check_phone(jack, "mrjack-jack-draft-error", allow=("status of 422",))
    # Tick exactly two, whatever the page kept of the refused choice.
    if not jack.locator("[data-hand][open]").count():
        jack.click("[data-hand] summary")
    boxes = jack.locator("[data-keep]")
    for index in range(5):
        boxes.nth(index).set_checked(index < 2)
    kept = [boxes.nth(0).get_attribute("data-keep"), boxes.nth(1).get_attribute("data-keep")]
    expect(boxes.nth(0)).to_be_checked()
    expect(boxes.nth(1)).to_be_checked()
    jack.click("[data-keep-submit]")
    expect(jack.locator("[data-secret-kept]")).to_be_attached()
    expect(laptop.locator("[data-draft-status]")).to_contain_text("Jack: has chosen")
    expect(laptop.locator("[data-draft-status]")).to_contain_text("Detective: choosing")
    detective.click("[data-hand] summary")
    for box in detective.locator("[data-keep]").all()[3:]:
        box.check()
    detective.click("[data-keep-submit]")
    revealed = laptop.locator("[data-draft-revealed]")
    expect(revealed).to_contain_text("Jack chose")
    shot(laptop, "mrjack-table-draft-revealed")
    # Placement from the table screen: detective 1, Jack 2, detective 1, then the reverse.
    order = ["Detective", "Jack", "Jack", "Detective", "Jack", "Detective", "Detective", "Jack"]
    for index, role in enumerate(order):
        who = "Jack" if role == "Jack" else "the detective"
        expect(laptop.locator("[data-status]")).to_contain_text(f"Tap the character {who} places")
        if index == 1:
            check_screen(laptop, "mrjack-table-placement")
        if index == 0:
            # The placing player may also tap the card on his own phone.
            button = detective.locator("[data-place]").first
            card = button.get_attribute("data-place")
            check_phone(detective, "mrjack-detective-placement")
        else:
            button = laptop.locator("[data-place]").first
            card = button.get_attribute("data-place")
        button.click()
        expect(laptop.locator(f"[data-place='{card}']")).to_have_count(0)
        if index % 4 != 3:          # the fourth card turns over the next four
            expect(laptop.locator(f"[data-round-card='{card}']")).to_have_attribute(
                "data-taken-by", role)
    expect(laptop.locator("[data-turn]")).to_have_text("1")
    expect(detective.locator("[data-pick]")).to_have_count(4)
    characters = laptop.locator("[data-character]")
    expect(characters).to_have_count(8)
    ids = [item.get_attribute("data-character") for item in characters.all()]
    assert set(kept) <= set(ids)
    assert {"bert", "holmes", "lestrade", "smith"} <= set(ids)
    alibi = peek_alibi(jack)
    shot(jack, "mrjack-jack-london-alibi")
    release(jack)
    assert alibi
