"""London 1888 in a real Chromium: the laptop and phones play to an outcome; two games
that differ only in who holds which line of suspicion look the same on every phone at rest.

Jack's seat and his card's position are read from the server's database: the test is the
omniscient observer, the pages under test never show them.
"""

from __future__ import annotations

import copy
import re

from playwright.sync_api import expect

from tests.support.glance import DEFAULT_MASK, assert_same_glance
from tests.support.hidden import deal_again, hidden_state
from tests.support.pages import LAPTOP, confirm, shot, sit
from tests.support.phone_quality import check_phone, check_screen

NAMES = ["Ann", "Bob", "Cy", "Di", "Ed"]
# The random table code's whole line: antialiasing at the edge of the code's own box
# differs by a pixel from one code to another.
MASK = (*DEFAULT_MASK, "p:has(> .code)")
KINDS = {"innocent": "Innocent", "suspect": "Suspect", "false_lead": "False Lead",
         "jack": "Jack the Ripper"}


def open_table(server, laptop, phone, names, check=False):
    """The laptop creates a table, the phones sit down in seat order, the host starts."""
    laptop.goto(server.url + "/new/london1888")
    laptop.select_option("select[name=players]", str(len(names)))
    if check:
        expect(laptop.locator("textarea[name=murder_cards]")).to_have_value(
            "Murder I\nMurder II\nMurder III\nMurder IV\nMurder V")
        check_screen(laptop, "london1888-new-table")
    laptop.click("button:has-text('Create the table')")
    code = laptop.locator(".code-big").inner_text().strip()
    phones = [phone() for _ in names]
    for seat, (page, name) in enumerate(zip(phones, names, strict=True)):
        if check and seat == 0:
            page.goto(f"{server.url}/j/{code}")
            check_phone(page, "london1888-phone-join")
        sit(page, f"{server.url}/j/{code}", name, seat)
    expect(laptop.locator("[data-seats]")).to_contain_text(names[-1])
    if check:
        check_phone(phones[0], "london1888-phone-lobby")
    laptop.click("button:has-text('Start the game')")
    expect(laptop.locator("[data-prompt]")).to_contain_text(f"Abberline ({names[0]}) is playing")
    for page in phones:
        expect(page.locator("[data-prompt]")).to_be_visible()
    return code, phones


def question(page, target: int, *positions: int) -> None:
    box = page.locator(f"[data-target='{target}']")
    box.locator("summary").click()
    for position in positions:
        box.locator(f"label:has(input[name=position_{position}])").click()
    confirm(page, box.locator("button[value=question]"))


def test_five_phones_and_the_table_play_to_an_outcome(server, laptop, phone):
    code, phones = open_table(server, laptop, phone, NAMES, check=True)
    expect(laptop.locator("[data-setup]")).to_contain_text("Scotland Yard")
    check_screen(laptop, "london1888-table-setup")

    state = hidden_state(server, code)
    jack = next(seat for seat, line in enumerate(state["lines"]) if "jack" in line)
    # Each phone's role is hidden until held.
    for seat, page in enumerate(phones):
        role = page.locator("[data-role]")
        expect(role).to_be_hidden()
        assert role.text_content() == ("Jack the Ripper" if seat == jack else "Innocent")
    ann = phones[0]
    check_phone(ann, "london1888-phone-your-turn")
    check_phone(phones[1], "london1888-phone-waiting")
    box = ann.locator("[data-peek]").bounding_box()
    ann.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    ann.mouse.down()
    expect(ann.locator("[data-role]")).to_be_visible()
    shot(ann, "london1888-phone-peek")
    ann.mouse.up()
    expect(ann.locator("[data-role]")).to_be_hidden()

    # Round 1: the table sends a player who is not Jack to prison; Abberline questions him
    # there: two cards, both announced at the top of every screen, the asker's first.
    target = next(seat for seat in range(1, 5) if seat not in (jack, 3))
    laptop.select_option("form:has(input[value=arrest]) select[name=target]", str(target))
    laptop.select_option("form:has(input[value=arrest]) select[name=by]", "abberline")
    confirm(laptop, laptop.locator("button:has-text('Send to prison')"))
    prisoner = phones[target]
    expect(prisoner.locator("[data-in-prison]")).to_contain_text("You are in PRISON")
    check_phone(prisoner, "london1888-phone-in-prison")
    ann.locator(f"[data-target='{target}'] summary").click()
    ann.locator(f"[data-target='{target}'] label:has(input[name=position_2])").click()
    ann.locator(f"[data-target='{target}'] label:has(input[name=position_4])").click()
    check_phone(ann, "london1888-phone-question")
    ann.mouse.wheel(0, 600)  # the asker has scrolled down to the cards
    confirm(ann, ann.locator(f"[data-target='{target}'] button[value=question]"))
    for page in [laptop, *phones]:
        answer = page.locator("[data-answer]")
        for position in (2, 4):
            kind = KINDS[state["lines"][target][position - 1]]
            expect(answer.locator(f"[data-revealed='{position}']")).to_contain_text(
                f"card {position} is {kind}")
    top = ann.locator("[data-answer]").bounding_box()
    assert 0 <= top["y"] <= 10, "the answer stands at the top of the asker's screen"
    check_phone(ann, "london1888-phone-answer")
    check_screen(laptop, "london1888-table-answer")
    expect(ann.locator("[data-decision]")).to_have_count(0)

    # Everyone ends their turn (phones, and once the host for a slow player); the answer
    # goes with the next action.
    ann.click("[data-end-turn]")
    for page in [laptop, *phones]:
        expect(page.locator("[data-answer]")).to_have_count(0)
    laptop.click("button:has-text(\"End Lusk (Bob)'s turn\")")
    for seat in (2, 3, 4):
        phones[seat].click("[data-end-turn]")
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
        expect(page.locator("[data-answer]")).to_contain_text("is JACK THE RIPPER")
    check_screen(laptop, "london1888-table-jack-discovered")
    check_phone(phones[(jack + 1) % 5], "london1888-phone-jack-discovered")

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
    expect(laptop.locator(".l88-kind")).to_have_count(3)  # only the three cards questioned
    check_screen(laptop, "london1888-table-proposal")
    check_phone(phones[wrong], "london1888-phone-proposal")
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
    check_screen(laptop, "london1888-table-outcome")
    check_phone(phones[0], "london1888-phone-outcome")


def test_a_phone_at_rest_shows_neither_role_nor_line(server, browser, laptop, phone):
    """Two tables, same names, same public actions; in the second, the first seat and
    Jack's (or the second seat) have swapped lines of suspicion: roles differ, every phone
    at rest must not."""
    names = NAMES[:4]
    other = browser.new_context(**LAPTOP).new_page()
    code_a, phones_a = open_table(server, laptop, phone, names)
    code_b, phones_b = open_table(server, other, phone, names)
    state = hidden_state(server, code_a)
    swap = next(seat for seat, line in enumerate(state["lines"]) if "jack" in line) or 1
    changed = copy.deepcopy(state)
    changed["lines"][0], changed["lines"][swap] = state["lines"][swap], state["lines"][0]
    deal_again(server, code_b, changed)
    for page in phones_b:
        page.reload()
    roles = [[page.locator("[data-role]").text_content() for page in phones]
             for phones in (phones_a, phones_b)]
    assert roles[0][0] != roles[1][0] and roles[0][swap] != roles[1][swap]

    def glance(point: str) -> None:
        for seat in sorted({0, swap}):
            assert_same_glance(phones_a[seat], phones_b[seat], f"london1888-{point}-{seat}",
                               MASK)

    glance("start")
    # Abberline questions a third player (same line in both games): the same answer.
    third = next(seat for seat in range(1, 4) if seat != swap)
    for phones in (phones_a, phones_b):
        question(phones[0], third, 1)
        expect(phones[swap].locator("[data-answer]")).to_be_visible()
    glance("answer")
    # The table sends the other changed seat to prison (an ARREST card at the Black Market
    # works on anyone): its phone says so, the same in both games.
    for screen, phones in ((laptop, phones_a), (other, phones_b)):
        screen.select_option("form:has(input[value=arrest]) select[name=target]", str(swap))
        screen.select_option("form:has(input[value=arrest]) select[name=by]", "black_market")
        confirm(screen, screen.locator("button:has-text('Send to prison')"))
        expect(phones[swap].locator("[data-in-prison]")).to_be_visible()
        expect(phones[0].locator("[data-answer]")).to_have_count(0)
    glance("prison")
    other.context.close()
