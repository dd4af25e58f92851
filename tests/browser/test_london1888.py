"""London 1888 in a real Chromium: the laptop and phones play to an outcome; two games
that differ only in who holds which line of suspicion look the same on every phone at rest.

Jack's seat and his card's position are read from the server's database: the test is the
omniscient observer, the pages under test never show them.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from companion.games import london1888 as game
from companion.games.base import TABLE
from tests.support.glance import IDLE_SECONDS, assert_same_glance, untouched
from tests.support.hidden import deal_again, hidden_state
from tests.support.london_sequence import role_position, twin_deals
from tests.support.pages import LAPTOP, confirm, shot, sit
from tests.support.phone_quality import check_phone, check_screen
from tests.support.twin_tables import MASK, NARROW, TwinTables, leak, version_of

NAMES = ["Ann", "Bob", "Cy", "Di", "Ed"]
REFUSED = ("status of 422",)
KINDS = {"innocent": "Innocent", "suspect": "Suspect", "false_lead": "False Lead",
         "jack": "Jack the Ripper"}


def open_table(server, laptop, phone, names, check=False):
    """The laptop creates a table, the phones sit down in seat order, the host starts."""
    laptop.goto(server.url + "/new/london1888")
    laptop.select_option("select[name=players]", str(len(names)))
    if check:
        expect(laptop.locator("[data-deck-summary]")).to_contain_text("not named yet")
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


def question(page, target: int, *positions: int, kind: str = "question") -> None:
    """Open the target's section, tick the cards, tap the button twice (3 taps + 1 a card)."""
    box = page.locator(f"[data-target='{target}']")
    box.locator("summary").click()
    for position in positions:
        box.locator(f"label:has(input[name=position_{position}])").click()
    confirm(page, box.locator(f"button[value={kind}]"))


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


class Twins(TwinTables):
    """Two tables with the same names and the same public actions, dealt the twin deals
    (tests/support/london_sequence.py): Jack is Lusk at the first and Gull at the second,
    every role card lies elsewhere, the event cards never turned lie in another order."""

    def __init__(self, server, screens, phone) -> None:
        tables = []
        for screen in screens:
            code, phones = open_table(server, screen, lambda: phone(clock=True), NAMES[:4])
            tables.append((code, screen, phones))
        super().__init__(server, "london1888", tables)
        self.deals = twin_deals(hidden_state(server, self.codes[0]))
        for (code, _screen, phones), deal in zip(self.tables, self.deals, strict=True):
            deal_again(server, code, deal)
            for page in phones:
                page.set_viewport_size(NARROW)
                page.reload()

    def host(self, **fields: str) -> None:
        """A host button pressed through HTTP with the laptop's own cookies: rounds of
        nothing but End turn and Next round go faster than by taps."""
        for code, screen, _phones in self.tables:
            csrf = screen.locator("input[name=csrf]").first.get_attribute("value")
            answer = screen.request.post(
                f"{self.server.url}/t/{code}/act", max_redirects=0,
                form={"csrf": csrf, "version": str(version_of(self.server, code)), **fields})
            assert answer.status == 303, answer.text()[:300]

    def play_until(self, phase: str) -> None:
        """The host ends turns and turns event cards until the game is in ``phase``."""
        while (seen := game.view(hidden_state(self.server, self.codes[0]),
                                 TABLE))["phase"] != phase:
            self.host(type="end_turn" if seen["current"] is not None else "next_round")
        self.caught_up()


def hold(page, selector: str) -> None:
    """A finger pressing ``selector`` and staying there."""
    box = page.locator(selector).bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()


def test_a_phone_at_rest_shows_neither_role_nor_line(server, browser, laptop, phone):
    """Two tables, same names, same public actions, different secrets (who is Jack, where
    each role card lies, the event cards never turned): at every phase, after refusals
    and after a minute untouched, every seat's phone at rest is the same at both."""
    other = browser.new_context(**LAPTOP).new_page()
    twins = Twins(server, (laptop, other), phone)
    assert [deal["lines"][1].count("jack") for deal in twins.deals] == [1, 0]
    twins.glance("deal")
    # The test sees a one-character leak: Abberline's phone saying where his role card
    # lies (card 3 at the first table, card 5 at the second).
    first, second = twins.phones(0)
    leak(first, str(role_position(twins.deals[0], 0)))
    leak(second, str(role_position(twins.deals[1], 0)))
    with pytest.raises(AssertionError, match="differ in"):
        assert_same_glance(first, second, "london1888-leak", MASK)
    for page in (first, second):
        page.reload()

    # Abberline forgets to tick a card of Gull's (3 taps: Gull's section, Question, tap
    # again): "Not accepted", the reason behind Why?.
    def unticked(screen, phones):
        ann = phones[0]
        ann.locator("[data-target='2'] summary").click()
        confirm(ann, ann.locator("[data-target='2'] button[value=question]"))
        expect(ann.locator("[data-error]")).to_contain_text("Not accepted: nothing was changed")
    twins.both(unticked)
    check_phone(twins.phones(0)[0], "london1888-phone-refused", allow=REFUSED)
    twins.glance("refused")
    # Why? opened (1 tap) and every other role held, a finger sliding off the glass
    # still pressing: all closed and let go a minute later.
    for page in twins.phones(0):
        page.locator("[data-why] summary").click()
        expect(page.locator("[data-why]")).to_contain_text("Choose one of Gull (Cy)'s")
    shot(twins.phones(0)[0], "london1888-phone-why-360")
    for seat in (1, 2, 3):
        for page in twins.phones(seat):
            hold(page, "[data-peek]")
            expect(page.locator("[data-role]")).to_be_visible()
    untouched(*twins.every_phone())
    for page in twins.every_phone():
        expect(page.locator("[data-role]")).to_be_hidden()
    for page in twins.phones(0):
        expect(page.locator("[data-why]")).not_to_have_attribute("open", "")
    twins.glance("untouched")
    for page in twins.every_phone():
        page.mouse.up()

    # The table sends Lusk to PRISON (ARREST card); Abberline visits him: one card ticked
    # is refused (2 cards are due in prison), then the second too (2 taps: the second
    # card, Question, tap again): both revealed at the top of every screen.
    def arrest(screen, phones):
        screen.select_option("form:has(input[value=arrest]) select[name=target]", "1")
        screen.select_option("form:has(input[value=arrest]) select[name=by]", "card")
        confirm(screen, screen.locator("button:has-text('Send to prison')"))
        expect(phones[1].locator("[data-in-prison]")).to_be_visible()
    twins.both(arrest)
    twins.glance("prison")

    def visit_lusk(position: int, answer: str):
        """Abberline ticks card ``position`` of Lusk's too and asks (3 taps; 4 with his
        section to open), then his phone shows ``answer``."""
        def ask(screen, phones):
            box = phones[0].locator("[data-target='1']")
            if box.get_attribute("open") is None:
                box.locator("summary").click()
            box.locator(f"label:has(input[name=position_{position}])").click()
            confirm(phones[0], box.locator("button[value=question]"))
            expect(phones[0].locator(answer)).to_be_visible()
        return ask
    twins.both(visit_lusk(1, "[data-error]"))
    twins.glance("refused-in-prison")
    twins.both(visit_lusk(2, "[data-answer] li:nth-child(2)"))
    twins.glance("answer-in-prison")

    # Lusk's turn, spent in prison (1 tap each: End my turn). A finger left still on his
    # role (a phone case on the glass) lets go after a minute.
    twins.both(lambda screen, phones: phones[0].click("[data-end-turn]"))
    for page in twins.phones(1):
        hold(page, "[data-peek]")
        page.clock.fast_forward(IDLE_SECONDS * 1000)
        page.clock.run_for(1000)
        expect(page.locator("[data-role]")).to_be_hidden()
    twins.glance("in-prison-turn")
    for page in twins.phones(1):
        page.mouse.up()
    twins.both(lambda screen, phones: phones[1].click("[data-end-turn]"))

    # Gull at the Black Market (4 taps: Abberline's section, card 1, the button, tap
    # again), Warren questions Gull (4 taps), the round ends.
    twins.both(lambda screen, phones: question(phones[2], 0, 1, kind="black_market"))
    twins.glance("black-market")
    twins.both(lambda screen, phones: phones[2].click("[data-end-turn]"))
    twins.both(lambda screen, phones: question(phones[3], 2, 1))
    twins.glance("answer")
    twins.both(lambda screen, phones: phones[3].click("[data-end-turn]"))
    twins.glance("round-over")

    # Round 2 turns a murder; Warren dies; round 3 turns the Manifestation.
    twins.both(lambda screen, phones: screen.click("[data-next-round]"))
    expect(twins.phones(0)[0].locator("[data-murders]")).to_have_text("1 of 5")
    twins.glance("murder")

    def death(screen, phones):
        screen.select_option("form:has(input[value=mark_dead]) select[name=target]", "3")
        confirm(screen, screen.locator("button:has-text('Mark dead')"))
        expect(phones[3].locator("[data-dead]")).to_be_visible()
    twins.both(death)
    twins.glance("dead")
    twins.play_until("round_over")
    twins.both(lambda screen, phones: screen.click("[data-next-round]"))
    expect(twins.phones(1)[0].locator("[data-event]")).to_contain_text("Manifestation")
    twins.glance("event")

    # On to the 5th murder (round 11) and the end of its round; the host proposes Jack's
    # win with Abberline as his accomplice, then confirms it.
    twins.play_until("last_round")
    twins.glance("last-round")
    twins.play_until("awaiting_outcome")
    twins.glance("awaiting-outcome")

    def propose(screen, phones):
        record = screen.locator("details.l88-record")
        record.locator("input[value=jack_fifth_murder]").check()
        record.locator("input[name=accomplice_0]").check()
        record.locator("[data-propose]").click()
        expect(phones[0].locator("[data-proposal]")).to_be_visible()
    twins.both(propose)
    twins.glance("proposal")
    twins.both(lambda screen, phones: confirm(
        screen, screen.locator("button:has-text('Confirm: end the game')")))
    expect(twins.phones(2)[1].locator("[data-outcome]")).to_contain_text("Gull (Cy)")
    # The end reveals every card: what the reveal shows is public now and differs by
    # design (who was Jack, every line, the whole deck); the rest of each phone, its
    # length included, is the same.
    twins.glance("end", (*MASK, "[data-outcome]", "details:has(> .l88-players)", "[data-deck]"))
    other.context.close()
