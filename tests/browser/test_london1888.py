"""London 1888 in a real Chromium: the laptop and phones play to an outcome; two games
that differ only in who holds which line of suspicion look the same on every phone at rest.

Jack's seat and his card's position are read from the server's database: the test is the
omniscient observer, the pages under test never show them.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.support.glance import IDLE_SECONDS, assert_same_glance, untouched
from tests.support.hidden import deal_again, hidden_state
from tests.support.london_sequence import role_position, twin_deals
from tests.support.pages import LAPTOP, caught_up, confirm, shot, sit, start_game
from tests.support.phone_quality import check_phone, check_screen
from tests.support.twin_tables import MASK, NARROW, TwinTables, leak

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
    start_game(laptop)
    expect(laptop.locator("[data-prompt]")).to_contain_text(f"Abberline ({names[0]}) is playing")
    for page in phones:
        expect(page.locator("[data-now]")).to_be_visible()
    return code, phones


def question(page, target: int, *positions: int, kind: str = "question") -> None:
    """Open the target's section, tick the cards, tap the button twice (3 taps + 1 a card)."""
    box = page.locator(f"[data-target='{target}']")
    box.locator("summary").click()
    for position in positions:
        box.locator(f"label:has(input[name=position_{position}])").click()
    confirm(page, box.locator(f"button[value={kind}]"))


# Gull (Cy) is Jack, his role card 3rd; Abberline's, Lusk's, Warren's and Godley's role
# cards lie 5th, 1st, 2nd and 4th; the rest are clue cards.
_J, _I, _S, _F = "jack", "innocent", "suspect", "false_lead"
LINES = [[_S, _F, _S, _F, _I], [_I, _S, _F, _S, _F], [_S, _F, _J, _F, _S],
         [_F, _I, _S, _F, _S], [_S, _F, _F, _I, _S]]


def end_turn(page) -> None:
    """End my turn: 2 taps (the button, then again)."""
    confirm(page, page.locator("[data-end-turn]"))


def now_on_top(pages, *words: str) -> None:
    """Each phone, scrolled to the top, says what happens now in its first 150 px: the
    ``words`` of its now line (one per page, or one for all) end above that line."""
    for page, said in zip(pages, words * len(pages) if len(words) == 1 else words,
                          strict=True):
        caught_up(page)
        text = page.locator("[data-now] .now-text")
        expect(text).to_contain_text(said)
        bottom = text.evaluate("""(el, said) => {
          window.scrollTo(0, 0);
          const node = el.firstChild, start = node.textContent.indexOf(said);
          const range = document.createRange();
          range.setStart(node, start);
          range.setEnd(node, start + said.length);
          return range.getBoundingClientRect().bottom;
        }""", said)
        assert bottom <= 150, (said, bottom)


def event_on_top(pages, name: str) -> None:
    """The round's event card stands under the now line, on the phone's first screen."""
    for page in pages:
        event = page.locator("[data-event]")
        expect(event).to_contain_text(name)
        box = event.evaluate("el => { window.scrollTo(0, 0); "
                             "return el.getBoundingClientRect().y; }")
        assert box < 400, box


def tap_seat(page, section: str, label: str) -> None:
    """Open a section of the board (1 tap), tap a player's name (1) and again (1)."""
    box = page.locator(section)
    box.locator("summary").click()
    confirm(page, box.get_by_role("button", name=label, exact=True).first)


def test_five_phones_play_to_an_outcome_each_action_from_its_players_phone(
        server, laptop, phone):
    """Every action from the phone of the player who takes it, the next event card from the
    phone of the ABSINTHE's new holder (the host's laptop only records the outcome), each
    phone saying what happens now in its first 150 px: an arrest, a questioning in prison, a
    CORRUPTION card, Jack discovered, a kill, Jack arrested by Godley; the outcome form
    filled in by itself; every phone shows the end and the whole reveal, and no advice."""
    code, phones = open_table(server, laptop, lambda: phone(width=360), NAMES, check=True)
    expect(laptop.locator("[data-setup]")).to_contain_text("Scotland Yard")
    check_screen(laptop, "london1888-table-setup")
    state = hidden_state(server, code)
    deal_again(server, code, {**state, "lines": [list(line) for line in LINES]})
    for page in [laptop, *phones]:
        page.reload()
    ann, bob, cy, di, ed = phones
    # Each phone's role is hidden until held; the now line comes first.
    for seat, page in enumerate(phones):
        role = page.locator("[data-role]")
        expect(role).to_be_hidden()
        assert role.text_content() == ("Jack the Ripper" if seat == 2 else "Innocent")
    expect(ann.locator("[data-now].mine")).to_contain_text("Your turn")
    assert ann.locator("[data-now]").bounding_box()["y"] < 150
    check_phone(ann, "london1888-phone-your-turn")
    check_phone(bob, "london1888-phone-waiting")
    box = ann.locator("[data-peek]").bounding_box()
    ann.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    ann.mouse.down()
    expect(ann.locator("[data-role]")).to_be_visible()
    shot(ann, "london1888-phone-peek")
    ann.mouse.up()
    expect(ann.locator("[data-role]")).to_be_hidden()

    # Round 1. Abberline arrests Godley on his space (3 taps: the section, Godley's name,
    # again): Godley's phone says so at its top, the table screen shows it.
    ann.locator("[data-arrest] summary").click()
    # Warren has not resigned: his name is a button only under the Black Market's ARREST
    # card ("neither WARREN nor the PRINCE may be arrested").
    for way, count in (("abberline", 0), ("card", 0), ("black_market", 1)):
        expect(ann.locator(f"[data-way={way}] button", has_text="Warren (Di)")).to_have_count(
            count)
    check_phone(ann, "london1888-phone-arrest")
    confirm(ann, ann.locator("[data-way=abberline]").get_by_role("button", name="Godley (Ed)",
                                                                 exact=True))
    expect(ed.locator("[data-now-detail]")).to_contain_text(
        "Abberline (Ann) arrested you: you are in PRISON")
    expect(ed.locator("[data-now-detail]")).to_contain_text(
        "Warren plays a CORRUPTION card for you")
    expect(ann.locator("[data-now-detail]")).to_have_text(
        "You arrested Godley (Ed): they go to PRISON.")
    expect(laptop.locator("[data-news]")).to_contain_text("Godley (Ed) is arrested")
    expect(ed.locator("[data-in-prison]")).to_contain_text("You are in PRISON")
    check_phone(ed, "london1888-phone-arrested")
    # She visits him in prison: two cards (5 taps: his section, 2 cards, Question, again),
    # announced at the top of every screen, the asker's first.
    question(ann, 4, 1, 2)
    for page in [laptop, *phones]:
        answer = page.locator("[data-answer]")
        expect(answer.locator("[data-revealed='1']")).to_contain_text("card 1 is Suspect")
        expect(answer.locator("[data-revealed='2']")).to_contain_text("card 2 is False Lead")
    expect(ann.locator("[data-answer]")).to_contain_text("You questioned Godley (Ed) in prison")
    expect(ed.locator("[data-answer]")).to_contain_text("Abberline (Ann) questioned you")
    check_phone(ann, "london1888-phone-answer")
    check_screen(laptop, "london1888-table-answer")
    end_turn(ann)
    for page in [laptop, *phones]:
        expect(page.locator("[data-answer]")).to_have_count(0)
    end_turn(bob)
    end_turn(cy)
    # Warren saves Godley with a CORRUPTION card before Godley's turn (3 taps).
    tap_seat(di, "[data-corruption]", "Godley (Ed)")
    expect(ed.locator("[data-now-detail]")).to_contain_text(
        "Warren (Di) played a CORRUPTION card for you: you are out of PRISON")
    expect(ed.locator("[data-in-prison]")).to_have_count(0)
    end_turn(di)
    end_turn(ed)
    # Round 1 is over: every phone says in its first 150 px that the ABSINTHE card passes
    # to Lusk, who turns the next event card from his phone (1 tap, inside his now line).
    expect(laptop.locator("[data-prompt]")).to_contain_text(
        "Round 1 is over: Lusk (Bob) receives the ABSINTHE card")
    now_on_top([ann, bob, cy, di, ed], "Lusk (Bob) receives the ABSINTHE card",
               "the ABSINTHE card passes to you", "Lusk (Bob) receives the ABSINTHE card",
               "Lusk (Bob) receives the ABSINTHE card", "Lusk (Bob) receives the ABSINTHE card")
    for page in (ann, cy, di, ed):
        expect(page.locator("[data-next-round]")).to_have_count(0)
    check_phone(bob, "london1888-phone-turn-the-event")
    bob.locator("[data-next-round]").click()
    first_card = state["deck"][0]["name"]
    expect(laptop.locator("[data-event]")).to_contain_text(first_card)
    expect(laptop.locator("[data-round]")).to_have_text("2")
    # The event stands under every phone's now line, the round's turn on top.
    now_on_top([ann, bob, cy, di, ed], "Lusk (Bob) is playing", "Your turn",
               "Lusk (Bob) is playing", "Lusk (Bob) is playing", "Lusk (Bob) is playing")
    event_on_top([ann, bob, cy, di, ed], first_card)
    check_phone(di, "london1888-phone-event")

    # Round 2 (Lusk holds the ABSINTHE). Lusk questions Gull's card 3 (4 taps): Jack.
    question(bob, 2, 3)
    for page in [laptop, *phones]:
        expect(page.locator("[data-answer]")).to_contain_text("JACK THE RIPPER")
    expect(laptop.locator("[data-jack]")).to_contain_text("Jack the Ripper is Gull (Cy)")
    expect(cy.locator("[data-jack]")).to_contain_text("You are discovered")
    expect(cy.locator("[data-jack]")).to_contain_text("You receive the SCALPEL")
    # His phone no longer says that nobody knows where his role card is.
    expect(cy.locator("[data-line-note]")).to_contain_text(
        "Your role card was turned over for the whole table")
    check_screen(laptop, "london1888-table-jack-discovered")
    check_phone(di, "london1888-phone-jack-discovered")
    end_turn(bob)
    end_turn(cy)
    # Warren kills Lusk (3 taps: "A death" under the event, "You killed Lusk (Bob)",
    # again): no prison, Jack is known. Lusk's phone is told, at its top.
    now_on_top([di], "Your turn")
    death = di.locator("[data-death] summary")
    assert death.evaluate("el => { window.scrollTo(0, 0); "
                          "return el.getBoundingClientRect().bottom; }") < 740
    tap_seat(di, "[data-death]", "You killed Lusk (Bob)")
    expect(bob.locator("[data-now-detail]")).to_have_text(
        "Warren (Di) killed you: you are dead. Nobody may question you any more: your "
        "face-down cards stay face down until the end of the game.")
    expect(bob.locator("[data-dead]")).to_be_visible()
    check_phone(bob, "london1888-phone-dead")
    end_turn(di)
    # Godley arrests Jack (3 taps): caught, the Innocents win; the phones stop.
    expect(ed.locator("[data-now].mine")).to_contain_text("Your turn")
    tap_seat(ed, "[data-arrest]", "Gull (Cy)")
    expect(cy.locator("[data-now-detail]")).to_contain_text(
        "Godley (Ed) arrested you, discovered as Jack the Ripper")
    for page in phones:
        expect(page.locator("[data-now]")).to_contain_text("the Innocents win")
        expect(page.locator("[data-end-turn]")).to_have_count(0)
    expect(cy.locator("[data-jack]")).not_to_contain_text("SCALPEL")
    check_phone(cy, "london1888-phone-jack-caught")

    # The host: the outcome form is open and filled in (Innocents); propose (1 tap), then
    # confirm (2 taps).
    record = laptop.locator("details.l88-record")
    expect(record).to_have_attribute("open", "")
    expect(record.locator("input[name=result][value=innocents]")).to_be_checked()
    expect(record.locator("[data-suggested]")).to_contain_text("arrested by Godley")
    record.locator("[data-propose]").click()
    for page in [laptop, *phones]:
        expect(page.locator("[data-proposal]")).to_contain_text("The Innocents win")
        expect(page.locator("[data-outcome]")).to_have_count(0)
    check_screen(laptop, "london1888-table-proposal")
    check_phone(ann, "london1888-phone-proposal")
    confirm(laptop, laptop.locator("button:has-text('Confirm: end the game')"))
    expect(laptop.locator("[data-outcome]")).to_contain_text("The Innocents win")
    points = laptop.locator("[data-points] td[data-points-seat]").all_inner_texts()
    assert points == ["1", "1", "0", "1", "1"]
    expect(laptop.locator("[data-deck] li")).to_have_count(20)
    check_screen(laptop, "london1888-table-outcome")
    # Every phone: the end, who was Jack, every line turned over; no advice left.
    for page in phones:
        expect(page.locator("[data-phase]")).to_have_attribute("data-phase", "over")
        expect(page.locator("[data-outcome]")).to_contain_text("Jack the Ripper was Gull (Cy)")
        expect(page.locator(".l88-players .l88-kind")).to_have_count(25)
        for advice in ("SCALPEL", "nobody knows where your role card is",
                       "Do not let yourself be arrested", "Help capture"):
            assert advice not in page.locator("main").inner_text()
            assert advice not in (page.locator("[data-peek]").text_content() or "")
    check_phone(cy, "london1888-phone-outcome")


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


def hold(page, selector: str) -> None:
    """A finger pressing ``selector`` and staying there."""
    box = page.locator(selector).bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()


def test_a_phone_at_rest_shows_neither_role_nor_line(server, browser, laptop, phone):
    """Two tables, same names, same public actions, different secrets (who is Jack, where
    each role card lies, the event cards never turned): at the deal, after refusals,
    after a minute untouched (a peek held, "Why?" open), through a turn in prison and
    after round 2's murder and death, every seat's phone at rest is the same at both.
    The phases between and after (an answer, the Black Market, an event, the proposal)
    draw the same markup whatever the secrets, which the Flask-client tests prove for
    every viewer (tests/web/test_london1888.py: test_nobody_can_tell_unrevealed_positions
    _or_unturned_cards, test_arrests_releases_and_deaths_from_the_phones_show_nobody_who
    _jack_is, test_a_proposed_outcome_shows_nobody_who_jack_is); the browser looks where
    markup cannot (docs/TESTING.md, "Glance points proved in markup")."""
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

    # Abberline plays an ARREST card on Lusk from his phone (3 taps: the section, Lusk's
    # name under "You play an ARREST card", again); Lusk's phone is told at its top. Then
    # he visits
    # him: one card ticked is refused (2 cards are due in prison), then the second too (2
    # taps: the second card, Question, tap again): both revealed at the top of every screen.
    def arrest(screen, phones):
        box = phones[0].locator("[data-arrest]")
        box.locator("summary").click()
        confirm(phones[0], box.locator("[data-way=card]").get_by_role(
            "button", name="Lusk (Bob)", exact=True))
        expect(phones[1].locator("[data-now-detail]")).to_contain_text(
            "Abberline (Ann) played an ARREST card on you")
        expect(phones[1].locator("[data-in-prison]")).to_be_visible()
    twins.both(arrest)
    check_phone(twins.phones(1)[0], "london1888-phone-arrested-by-card")

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

    # Lusk's turn, spent in prison (2 taps each: End my turn, again). A finger left still
    # on his role (a phone case on the glass) lets go after a minute.
    twins.both(lambda screen, phones: end_turn(phones[0]))
    for page in twins.phones(1):
        hold(page, "[data-peek]")
        page.clock.fast_forward(IDLE_SECONDS * 1000)
        page.clock.run_for(1000)
        expect(page.locator("[data-role]")).to_be_hidden()
    twins.glance("in-prison-turn", language="de")
    for page in twins.phones(1):
        page.mouse.up()
    twins.both(lambda screen, phones: end_turn(phones[1]))

    # Gull at the Black Market (4 taps: Abberline's section, card 1, the button, tap
    # again), Warren questions Gull (4 taps), the round ends.
    twins.both(lambda screen, phones: question(phones[2], 0, 1, kind="black_market"))
    twins.both(lambda screen, phones: end_turn(phones[2]))
    twins.both(lambda screen, phones: question(phones[3], 2, 1))
    twins.both(lambda screen, phones: end_turn(phones[3]))

    # Round 2 turns a murder, from the phone of Lusk, who receives the ABSINTHE card (1
    # tap); the murder stands on top of every phone. Warren dies, entered on his own phone
    # (3 taps: "You died", "Not by a player", again).
    twins.both(lambda screen, phones: phones[1].click("[data-next-round]"))
    expect(twins.phones(0)[0].locator("[data-murders]")).to_have_text("1 of 5")
    for page in twins.every_phone():
        expect(page.locator("[data-event]")).to_contain_text("MURDER 1 of 5")
    twins.glance("murder")

    def death(screen, phones):
        tap_seat(phones[3], "[data-death]", "Not by a player")
        expect(phones[3].locator("[data-dead]")).to_be_visible()
    twins.both(death)
    # Round 2 as the representative late phase: a murder turned, a death entered on the
    # victim's phone. The rounds after it up to the outcome are public steps the Flask
    # client covers; at the outcome every card is turned and nothing is secret.
    twins.glance("dead", language="fr")
    other.context.close()
