"""Mr. Jack in a real Chromium: two phones play a whole base game and a whole London
game (draft, placement, Professor Moriarty), every action from the phone of the player
who takes it; a mis-tick at the call for witnesses; a reload in the middle of an action.
Every irreversible action takes two taps on the same button (arm, confirm)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import partial

import pytest
from playwright.sync_api import expect

from companion.games.mrjack import CHARACTERS
from tests.support.glance import DEFAULT_MASK, assert_same_glance, read_in, untouched
from tests.support.hidden import deal_again, hidden_state
from tests.support.language import translated
from tests.support.mrjack_deals import (
    KEPT,
    UNKEPT,
    draft_twins,
    holmes_twins,
    with_alibis,
    with_first,
)
from tests.support.pages import LAPTOP, caught_up, confirm, shot, sit, start_game
from tests.support.phone_quality import check_phone, check_screen
from tests.support.realserver import Server

ODD = ("detective", "jack", "jack", "detective")
EVEN = ("jack", "detective", "detective", "jack")
# The random table code's whole line: antialiasing at the edge of the code's own box
# differs by a pixel from one code to another.
MASK = (*DEFAULT_MASK, "p:has(> .code)")
# The phone put away: the page hidden, as when the screen goes off.
HIDE = """() => {
  Object.defineProperty(document, 'visibilityState', {value: 'hidden', configurable: true});
  document.dispatchEvent(new Event('visibilitychange'));
  delete document.visibilityState;
}"""


def open_table(server, laptop, phone, london: bool = False, language: str = "en") -> dict:
    """A table of two phones; in ``language``, the laptop switched to it with one tap at
    the foot of its page, the phones set to it (their browsers' language) at 360 px."""
    say = partial(translated, language)
    laptop.goto(server.url + "/new/mrjack")
    if language != "en":
        read_in(language, laptop)
    if london:
        laptop.check("input[name=london]")
    laptop.click(f"text={say('Create the table')}")
    code = laptop.locator(".code-big").inner_text().strip()
    if language == "en":
        jack, detective = phone(), phone()
    else:
        jack, detective = (phone(language=language, width=360) for _seat in range(2))
    sit(jack, f"{server.url}/j/{code}", "Ann", 0)
    sit(detective, f"{server.url}/j/{code}", "Bob", 1)
    start_game(laptop, say("Start the game"))
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


def play_card(laptop, page, role: str, card: str | None = None) -> str:
    """The due player plays ``card`` (or the first left) on his phone: 2 taps (arm,
    confirm)."""
    button = page.locator(f"[data-pick='{card}']" if card else "[data-pick]").first
    card = button.get_attribute("data-pick")
    confirm(page, button)
    # Wait for this phone's own page to drop the card, so that the next tap never lands
    # on a button of the page before.
    expect(page.locator(f"[data-pick='{card}']")).to_have_count(0)
    expect(laptop.locator(f"[data-round-card='{card}']")).to_have_attribute(
        "data-taken-by", role.capitalize())
    return card


def free_picks(page) -> list[str]:
    """The characters the due player's phone offers, once his page shows his turn."""
    expect(page.locator(".now-line")).to_have_attribute("data-mine", "yes")
    expect(page.locator("[data-pick]").first).to_be_visible()
    return [item.get_attribute("data-pick") for item in page.locator("[data-pick]").all()]


def board_seen(detective, answer: str, alibi: str, others: int = 0) -> list[str]:
    """What the board shows seen, as an honest answer has it: Jack's character if he is
    seen, and the first ``others`` other suspects."""
    suspects = [item.get_attribute("data-seen") for item in detective.locator("[data-seen]").all()]
    return [card for card in suspects if card != alibi][:others] + (
        [alibi] if answer == "seen" else [])


def witness_call(laptop, phones: dict, answer: str, alibi: str, others: int = 0,
                 look=None, language: str = "en") -> None:
    """Jack answers (2 taps: arm, confirm); the detective ticks what the board shows
    seen (1 tap each) and sends the marks (1 tap); Jack finds they match the board
    (2 taps). ``look`` is called with the detective's ticks in place."""
    jack, detective = phones["jack"], phones["detective"]
    confirm(jack, f"[data-answer={answer}]")
    expect(laptop.locator("[data-witness]")).to_have_attribute("data-witness", answer)
    expect(detective.locator("[data-mark-submit]")).to_be_visible()
    # Jack's answer stands at the top of every screen until the turn ends.
    for page in (laptop, jack, detective):
        expect(page.locator("[data-call]")).to_have_attribute("data-call", answer)
    for card in board_seen(detective, answer, alibi, others):
        detective.check(f"[data-seen='{card}']")
    if look:
        look()
    detective.click("[data-mark-submit]")
    expect(detective.locator(".now-text")).to_have_text(
        translated(language, "Jack checks the marks on the board: wait"))
    confirm(jack, "[data-confirm-marks]")


def play_turn(laptop, phones: dict, turn: int, alibi: str, answer: str = "seen",
              language: str = "en") -> None:
    """The four cards of ``turn`` (2 taps each), then the call for witnesses (6 taps and
    one per tick), but on turn 8, which has none."""
    expect(laptop.locator("[data-turn]")).to_have_text(str(turn))
    for number, role in enumerate(ODD if turn % 2 else EVEN, start=1):
        play_card(laptop, phones[role], role)
        if turn == 1 and number == 1:
            shot(laptop, "mrjack-table-turn1")
    if turn == 8:
        return

    def look() -> None:
        check_phone(phones["detective"], "mrjack-detective-marks")
        check_phone(phones["jack"], "mrjack-jack-witness-call")
        check_screen(laptop, "mrjack-table-witness-call")

    witness_call(laptop, phones, answer, alibi, others=1 if turn == 1 else 0,
                 look=look if turn == 1 else None, language=language)
    expect(laptop.locator("[data-turn]")).to_have_text(str(turn + 1))


def test_a_whole_base_game_on_three_screens_in_french(server, laptop, phone):
    """The whole game in French: the laptop switched with one tap, both phones set to
    French at 360 px (docs/TRANSLATING.md); every word they check is the catalogue's."""
    say = partial(translated, "fr")
    phones = open_table(server, laptop, phone, language="fr")
    jack, detective = phones["jack"], phones["detective"]
    expect(laptop.locator("[data-setup]")).to_contain_text("témoin")
    expect(detective.locator("[data-pick]")).to_have_count(4)
    expect(jack.locator("[data-pick]")).to_have_count(0)
    check_phone(jack, "mrjack-jack-start-fr")
    check_phone(detective, "mrjack-detective-start-fr")
    # Each phone says first what happens now and who acts.
    expect(detective.locator(".now-text")).to_have_text(
        say("Your turn: play a character (1 of 4)"))
    expect(jack.locator(".now-text")).to_have_text(
        say("The detective plays a character (1 of 4): wait"))
    alibi = peek_alibi(jack)
    shot(jack, "mrjack-jack-peek-fr")
    release(jack)
    # The alibi is nowhere on the detective's phone and the table screen.
    expect(detective.locator("[data-secret-alibi]")).to_have_count(0)
    expect(laptop.locator("[data-secret-alibi]")).to_have_count(0)
    alibi_id = hidden_state(server, phones["code"])["alibi"]

    play_turn(laptop, phones, 1, alibi_id, answer="not_seen", language="fr")
    expect(laptop.locator("[data-reminders]")).to_contain_text(
        say("Turn 1 is over: remove the lit gaslight tile numbered 1."))
    expect(jack.locator("[data-escape]")).to_have_attribute("data-escape", "possible")
    expect(detective.locator("[data-escape]")).to_have_attribute("data-escape", "possible")
    expect(laptop.locator("[data-suspect=no]")).to_have_count(1)
    shot(laptop, "mrjack-table-turn2-fr")
    shot(jack, "mrjack-jack-turn2-fr")
    for turn in range(2, 9):
        play_turn(laptop, phones, turn, alibi_id, language="fr")
    check_phone(jack, "mrjack-jack-turn8-fr")
    # Dawn from Jack's phone: 2 taps (arm, confirm).
    confirm(jack, f"button:has-text(\"{say('Dawn: end turn 8')}\")")
    for page in (laptop, jack, detective):
        expect(page.locator("[data-outcome]")).to_have_attribute("data-outcome", "Jack")
        expect(page.locator("[data-outcome]")).to_contain_text(alibi)
        expect(page.locator("[data-history]")).to_contain_text(
            say(f"Jack's alibi card: {alibi}."))
    check_screen(laptop, "mrjack-table-over-fr")
    check_phone(detective, "mrjack-detective-over-fr")
    check_phone(jack, "mrjack-jack-over-fr")


def test_a_whole_london_game_from_the_phones(server, laptop, phone):
    """The extension, every action on the phone of the player who takes it: the draft
    (Professor Moriarty in the detective's hand), the placement, Moriarty activated and
    impersonating, two calls for witnesses, and an accusation that ends the game."""
    phones = open_table(server, laptop, phone, london=True)
    jack, detective, code = phones["jack"], phones["detective"], phones["code"]
    deal_again(server, code, draft_twins(hidden_state(server, code))[0])
    for page in (jack, detective):
        page.reload()
    # The dealt hands are secrets: closed until tapped.
    expect(jack.locator("[data-keep]")).to_have_count(5)
    expect(jack.locator("[data-keep]").first).to_be_hidden()
    expect(detective.locator("[data-keep]")).to_have_count(5)
    expect(laptop.locator("[data-keep]")).to_have_count(0)
    expect(jack.locator(".now-text")).to_have_text("Your turn: keep 2 characters")
    check_phone(jack, "mrjack-jack-draft-closed")
    # The hand opened (1 tap) and a card ticked (1 tap), the phone reloaded: a secret
    # comes back closed and empty, the page at rest.
    jack.click("[data-hand] summary")
    jack.locator("[data-keep]").first.check()
    jack.reload()
    expect(jack.locator("[data-hand]")).not_to_have_attribute("open", "")
    expect(jack.locator("[data-keep]:checked")).to_have_count(0)
    # Three cards (1 tap to open, 3 ticks, 2 taps to keep): refused with a clear message.
    jack.click("[data-hand] summary")
    for box in jack.locator("[data-keep]").all()[:3]:
        box.check()
    check_phone(jack, "mrjack-jack-draft")
    confirm(jack, "[data-keep-submit]")
    # The top says the same whatever was ticked; "Why?" (1 tap) tells him alone.
    expect(jack.locator("[data-error]")).to_contain_text("Not accepted: nothing was changed.")
    reason = jack.locator("[data-why] > p")
    expect(reason).to_be_hidden()
    jack.click("[data-why] > summary")
    expect(reason).to_contain_text("Keep exactly 2 of your 5 characters")
    check_phone(jack, "mrjack-jack-draft-error", allow=("status of 422",))
    # The refused hand came back closed and its ticks emptied: keep two (5 taps).
    expect(jack.locator("[data-hand]")).not_to_have_attribute("open", "")
    expect(jack.locator("[data-keep]:checked")).to_have_count(0)
    keep(jack, 2)
    expect(jack.locator("[data-secret-kept]")).to_be_attached()
    expect(jack.locator(".now-text")).to_have_text("The detective keeps 2 characters: wait")
    expect(laptop.locator("[data-draft-status]")).to_contain_text("Jack: has chosen")
    expect(laptop.locator("[data-draft-status]")).to_contain_text("Detective: choosing")
    keep(detective, 2)
    revealed = laptop.locator("[data-draft-revealed]")
    expect(revealed).to_contain_text("Jack chose")
    shot(laptop, "mrjack-table-draft-revealed")
    # Placement, each token from the placing player's phone (2 taps each): detective 1,
    # Jack 2, detective 1, then the reverse.
    order = ["Detective", "Jack", "Jack", "Detective", "Jack", "Detective", "Detective", "Jack"]
    for index, role in enumerate(order):
        who = "Jack" if role == "Jack" else "the detective"
        expect(laptop.locator("[data-status]")).to_contain_text(f"Tap the character {who} places")
        page = phones[role.lower()]
        expect(page.locator(".now-text")).to_have_text("Your turn: place a character")
        if index == 0:
            check_phone(page, "mrjack-detective-placement")
        if index == 1:
            check_screen(laptop, "mrjack-table-placement")
        button = page.locator("[data-place]").first
        card = button.get_attribute("data-place")
        confirm(page, button)
        expect(laptop.locator(f"[data-place='{card}']")).to_have_count(0)
        if index % 4 != 3:          # the fourth card turns over the next four
            expect(laptop.locator(f"[data-round-card='{card}']")).to_have_attribute(
                "data-taken-by", role)
    expect(laptop.locator("[data-turn]")).to_have_text("1")
    ids = [item.get_attribute("data-character")
           for item in laptop.locator("[data-character]").all()]
    assert set(KEPT[0] + KEPT[1] + ["bert", "holmes", "lestrade", "smith"]) == set(ids)
    alibi = peek_alibi(jack)
    shot(jack, "mrjack-jack-london-alibi")
    release(jack)
    alibi_id = hidden_state(server, code)["alibi"]
    assert alibi == CHARACTERS[alibi_id]

    # Turns 1 and 2: whoever is due plays Professor Moriarty as soon as he may (2 taps),
    # then chooses on his phone whom he impersonates (2 taps).
    for turn in (1, 2):
        for role in ODD if turn % 2 else EVEN:
            page = phones[role]
            free = free_picks(page)
            card = play_card(laptop, page, role, "moriarty" if "moriarty" in free else None)
            if card == "moriarty":
                expect(page.locator(".now-text")).to_have_text(
                    "Your turn: choose whom Moriarty impersonates")
                check_phone(page, f"mrjack-{role}-moriarty")
                row = page.locator("[data-impersonate]").first
                chosen = row.get_attribute("data-impersonate")
                confirm(page, row)
                expect(laptop.locator("[data-impersonates]")).to_have_attribute(
                    "data-impersonates", chosen)
        witness_call(laptop, phones, "not_seen" if turn == 1 else "seen", alibi_id, others=1)
        expect(laptop.locator("[data-turn]")).to_have_text(str(turn + 1))
    expect(laptop.locator("[data-impersonates]")).to_be_visible()
    # Turn 3: the detective plays first (2 taps) a character other than Moriarty (who
    # would ask first whom he impersonates) and accuses Jack's character: 1 tap to open
    # his list, 2 on the name.
    free = free_picks(detective)
    play_card(laptop, detective, "detective", next(card for card in free if card != "moriarty"))
    detective.click("[data-accuse] > summary")
    check_phone(detective, "mrjack-detective-london-accuse")
    confirm(detective, f"[data-accuse] button[value='{alibi_id}']")
    for page in (laptop, jack, detective):
        expect(page.locator("[data-outcome]")).to_have_attribute("data-outcome", "Detective")
        expect(page.locator("[data-outcome]")).to_contain_text(alibi)
    expect(jack.locator(".now-text")).to_have_text("The game is over")
    check_phone(jack, "mrjack-jack-london-over")
    check_phone(detective, "mrjack-detective-london-over")

    # The next new table starts from this one's options and says so; the base game is
    # 1 tap away (issue 38: a group expecting the base game got a draft).
    laptop.goto(server.url + "/new/mrjack")
    expect(laptop.locator("input[name=london]")).to_be_checked()
    expect(laptop.locator("[data-kept-options]")).to_contain_text(
        "Kept from the last table: Mr. Jack London extension: on.")
    check_screen(laptop, "mrjack-new-table-kept")
    laptop.click("[data-base-game]")  # 1 tap
    expect(laptop.locator("input[name=london]")).not_to_be_checked()
    expect(laptop.locator("[data-base-game-shown]")).to_be_visible()
    expect(laptop.locator("[data-kept-options]")).to_have_count(0)


# --- the glance test: two tables, the same public game, different secrets -------------

GLANCE_SEED = 1888        # both servers deal the same games from it
NARROW = {"width": 360, "height": 740}
ROLE_NAMES = ("jack", "detective")


@pytest.fixture
def twin_servers(tmp_path) -> Iterator[list[Server]]:
    """Two servers seeded alike: the same actions deal the same games on both."""
    servers = [Server(tmp_path / f"{side}.sqlite", seed=GLANCE_SEED).start() for side in "ab"]
    yield servers
    for running in servers:
        running.stop()


class Side:
    """One of the two tables, on its own server: its laptop and two phones, 360 px wide,
    their clocks held by the test (a minute can pass at once)."""

    def __init__(self, server: Server, browser, phone, london: bool = False) -> None:
        self.server = server
        self.laptop = browser.new_context(**LAPTOP).new_page()
        self.laptop.context.set_default_timeout(10_000)

        def narrow():
            page = phone(clock=True)
            page.set_viewport_size(NARROW)
            return page

        opened = open_table(server, self.laptop, narrow, london)
        self.code, self.jack, self.detective = opened["code"], opened["jack"], opened["detective"]
        self.phones = (self.jack, self.detective)

    def state(self) -> dict:
        return hidden_state(self.server, self.code)

    def redeal(self, state: dict) -> None:
        """The same game with its secrets as given; the phones read it afresh."""
        deal_again(self.server, self.code, state)
        for page in self.phones:
            page.reload()
        self.settled()

    def settled(self) -> None:
        """Both phones show the table's latest version."""
        caught_up(*self.phones)


def both(sides: Sequence[Side], step: Callable[[Side], object]) -> None:
    """One public step at both tables, then wait until every phone has caught up."""
    for side in sides:
        step(side)
    for side in sides:
        side.settled()


def glance(sides: Sequence[Side], point: str) -> None:
    """Each seat's phone at rest is the same at both tables."""
    first, second = sides
    for role in ROLE_NAMES:
        assert_same_glance(getattr(first, role), getattr(second, role),
                           f"mrjack-{point}-{role}", MASK)


def opened_differs(sides: Sequence[Side], role: str, summary: str, point: str) -> None:
    """Opened (1 tap each), the seat's section shows its secret, different at each
    table: the comparison must see it (a test that cannot fail proves nothing)."""
    for side in sides:
        getattr(side, role).click(f"{summary} > summary")
        expect(getattr(side, role).locator(summary)).to_have_attribute("open", "")
    with pytest.raises(AssertionError, match="differ"):
        assert_same_glance(getattr(sides[0], role), getattr(sides[1], role),
                           f"mrjack-{point}-opened-{role}", MASK)


def a_minute_untouched(sides: Sequence[Side]) -> None:
    untouched(*(page for side in sides for page in side.phones))
    for side in sides:
        for page in side.phones:
            expect(page.locator("details[data-secret][open]")).to_have_count(0)


def send_instead(page, buttons: str, value: str) -> None:
    """Tap the first of ``buttons`` made to send ``value``: a choice the phone does not
    offer (2 taps: arm, confirm), for a refusal where no other tap leads to one."""
    button = page.locator(buttons).first
    button.evaluate("(button, value) => { button.value = value; }", value)
    confirm(page, button)


def refused_at_both(sides: Sequence[Side], role: str, name: str) -> None:
    """The refusal says the same at the top whatever the reason; the reason waits
    behind a closed "Why?"; the page passes the phone checks."""
    for side in sides:
        page = getattr(side, role)
        expect(page.locator("[data-error]")).to_contain_text("Not accepted: nothing was changed.")
        expect(page.locator("[data-why]")).not_to_have_attribute("open", "")
        check_phone(page, f"mrjack-{name}" if side is sides[0] else None,
                    allow=("status of 422",))


def test_the_base_games_phones_at_rest_tell_no_secret(twin_servers, browser, phone):
    """Two tables, the same names and public actions; Jack's alibi and the alibi the
    detective draws differ. Both seats: the phones at rest are identical at the start,
    after each seat's refused action, after a minute untouched with a secret open, and
    through the mis-tick to the game not ruined. The plain steps between (Holmes, the
    call for witnesses, "not seen", the offers to leave and to accuse) draw the same
    markup whatever the secrets, which tests/web/test_mrjack.py proves
    (test_pages_do_not_depend_on_the_alibi_or_the_alibi_deck,
    test_pages_do_not_show_a_drawn_alibi_card_to_the_other_seat_or_table,
    test_jacks_phone_at_rest_is_the_same_whatever_his_alibi); the browser looks where
    markup cannot (docs/TESTING.md, "Glance points proved in markup")."""
    sides = [Side(server, browser, phone) for server in twin_servers]
    a, b = sides
    deal_a, deal_b = holmes_twins(a.state())
    first, second = deal_a["round"]["cards"], deal_a["deck"]
    leaving = second[0]         # Jack's first card of turn 2: neither game's alibi
    alibi_a, drawn_a, drawn_b = deal_a["alibi"], deal_a["alibi_deck"][0], deal_b["alibi_deck"][0]
    a.redeal(deal_a)
    b.redeal(deal_b)
    glance(sides, "start")

    # Turn 1: the detective plays Sherlock Holmes (2 taps) and draws an alibi (2 taps).
    both(sides, lambda side: confirm(side.detective, "[data-pick='holmes']"))
    both(sides, lambda side: confirm(side.detective, "[data-draw-alibi]"))
    # His list of alibis to show, opened (1 tap): the names differ and the test sees it;
    # a minute untouched, it has closed by itself on both phones.
    opened_differs(sides, "detective", "[data-publish-list]", "alibis")
    a_minute_untouched(sides)
    for side, name in ((a, "a"), (b, "b")):
        shot(side.detective, f"mrjack-detective-alibis-a-minute-later-360-{name}")
    glance(sides, "alibis-a-minute-later")
    # Put away, the phone closes it too (1 tap to open, then the screen goes off).
    for side in sides:
        side.detective.click("[data-publish-list] > summary")
        side.detective.evaluate(HIDE)
        expect(side.detective.locator("[data-publish-list]")).not_to_have_attribute("open", "")

    # The detective's refused action. His phone offers only the alibis he drew, so the
    # test makes the button send another character (1 tap to open, 2 on the button).
    def publish_undrawn(side: Side) -> None:
        side.detective.click("[data-publish-list] > summary")
        send_instead(side.detective, "[data-publish]", leaving)

    both(sides, publish_undrawn)
    refused_at_both(sides, "detective", "detective-refused")
    glance(sides, "detective-refused")

    # The rest of turn 1 (2 taps each), Jack's "not seen" (2 taps).
    for role, card in zip(ODD[1:], [card for card in first if card != "holmes"], strict=True):
        both(sides, lambda side, role=role, card=card:
             confirm(getattr(side, role), f"[data-pick='{card}']"))
    both(sides, lambda side: confirm(side.jack, "[data-answer=not_seen]"))
    mis_tick(sides, alibi_a)
    # Turn 2, after "not seen": Jack plays first (2 taps) a character neither Jack is; the
    # offer to leave stands on public facts, and leaving (2 taps: arm, confirm) is refused.
    both(sides, lambda side: confirm(side.jack, f"[data-pick='{leaving}']"))
    both(sides, lambda side: confirm(side.jack, "button:has-text('leaves the district')"))
    refused_at_both(sides, "jack", "jack-escape-refused")
    glance(sides, "jack-refused")

    # The detective plays the second card (2 taps): he may accuse. His list marks the
    # character his own draw cleared, so opened (1 tap) it differs; a minute untouched,
    # it has closed by itself.
    both(sides, lambda side: confirm(side.detective, f"[data-pick='{second[1]}']"))
    for side, drawn in ((a, drawn_a), (b, drawn_b)):
        expect(side.detective.locator("button.mj-known")).to_have_attribute(
            "value", drawn)
    opened_differs(sides, "detective", "[data-accuse]", "accuse")
    a_minute_untouched(sides)
    glance(sides, "accuse-a-minute-later")
    for side in sides:
        side.laptop.context.close()


def mis_tick(sides: Sequence[Side], tick: str) -> None:
    """The issue's mis-tick: Jack said "not seen" and the detective ticks ``tick`` seen
    by mistake (1 tick) and sends the marks (1 tap); at the first table ``tick`` is Jack,
    at the second an innocent. The detective's phone reacts the same at both, and at
    both the game is not ruined: Jack's confirmation anyway (first table, 2 taps) is
    refused on his phone alone; both Jacks look at the board and send the marks back
    (1 tap); the detective mends them (1 tap), sends them (1 tap), Jack confirms (2
    taps): ``tick`` is still a suspect."""
    a, b = sides

    def send(side: Side, ticked: bool) -> None:
        box = side.detective.locator(f"[data-seen='{tick}']")
        box.check() if ticked else box.uncheck()
        side.detective.click("[data-mark-submit]")

    both(sides, lambda side: send(side, True))
    for side in sides:
        expect(side.detective.locator(".now-text")).to_have_text(
            "Jack checks the marks on the board: wait")
        expect(side.laptop.locator("[data-marks-cleared]")).to_contain_text(CHARACTERS[tick])
    # Jack's own phone may know, behind his peek.
    expect(a.jack.locator("[data-marks-warning]")).to_be_attached()
    expect(b.jack.locator("[data-marks-warning]")).to_have_count(0)
    glance(sides, "mis-tick")
    check_phone(a.detective, "mrjack-detective-mis-tick-sent")
    check_phone(a.jack, "mrjack-jack-mis-tick-check")
    confirm(a.jack, "[data-confirm-marks]")
    refused_at_both(sides[:1], "jack", "jack-mis-tick-refused")
    a.jack.click("[data-why] > summary")
    expect(a.jack.locator("[data-why] > p")).to_contain_text("clear your own character")
    a.settled()
    assert_same_glance(a.detective, b.detective, "mrjack-mis-tick-refused-detective", MASK)
    both(sides, lambda side: side.jack.click("[data-return-marks]"))
    for side in sides:
        expect(side.detective.locator(f"[data-seen='{tick}']")).to_be_checked()
    both(sides, lambda side: send(side, False))
    both(sides, lambda side: confirm(side.jack, "[data-confirm-marks]"))
    for side in sides:
        expect(side.laptop.locator("[data-turn]")).to_have_text("2")
        expect(side.laptop.locator(f"[data-character='{tick}']")).to_have_attribute(
            "data-suspect", "yes")
    glance(sides, "not-ruined")


def keep(page, count: int) -> None:
    """Open the dealt hand (1 tap), tick the first ``count`` (1 tap each), keep them
    (2 taps: arm, confirm)."""
    page.click("[data-hand] > summary")
    for box in page.locator("[data-keep]").all()[:count]:
        box.check()
    confirm(page, "[data-keep-submit]")


def test_the_london_phones_at_rest_tell_no_secret(twin_servers, browser, phone):
    """The extension: the two tables deal other hands (the same two kept by each seat),
    then Jack's alibi differs. The draft, the placement and Professor Moriarty, both
    seats, after each seat's refused draft and a minute untouched with the hand open."""
    sides = [Side(server, browser, phone, london=True) for server in twin_servers]
    a, b = sides
    deal_a, deal_b = draft_twins(a.state())
    a.redeal(deal_a)
    b.redeal(deal_b)
    glance(sides, "draft")
    opened_differs(sides, "jack", "[data-hand]", "hand")
    a_minute_untouched(sides)
    glance(sides, "draft-a-minute-later")
    # Each seat keeps three (5 taps): refused, the hand closed and its ticks emptied.
    for role in ROLE_NAMES:
        both(sides, lambda side, role=role: keep(getattr(side, role), 3))
        refused_at_both(sides, role, f"{role}-draft-refused")
        glance(sides, f"{role}-draft-refused")
    # Both keep the same two at both tables (4 taps each): Jack first.
    both(sides, lambda side: keep(side.jack, 2))
    glance(sides, "jack-kept")
    both(sides, lambda side: keep(side.detective, 2))
    expect(a.laptop.locator("[data-draft-revealed]")).to_be_visible()
    assert a.state()["round"] == b.state()["round"], "the seeded servers dealt apart"
    glance(sides, "placement")
    # The detective, due to place, sends a character nobody kept (2 taps): refused.
    both(sides, lambda side: send_instead(side.detective, "[data-place]", UNKEPT[0]))
    refused_at_both(sides, "detective", "detective-placement-refused")
    glance(sides, "detective-placement-refused")
    # The eight tokens, placed from the laptops (2 taps each).
    for _ in range(8):
        card = a.laptop.locator("[data-place]").first.get_attribute("data-place")
        both(sides, lambda side, card=card: confirm(side.laptop, f"[data-place='{card}']"))
    # Play: the alibi, dealt alike from the seed, differs at the second table; Professor
    # Moriarty is among turn 1's four at both.
    dealt = with_first(a.state(), "moriarty")
    alibi_b = next(card for card in dealt["alibi_deck"] if card != "moriarty")
    a.redeal(dealt)
    b.redeal(with_alibis(dealt, alibi_b, dealt["alibi"]))
    glance(sides, "london-turn1")
    # The detective plays Moriarty (2 taps), then chooses whom he impersonates (2 taps).
    both(sides, lambda side: confirm(side.detective, "[data-pick='moriarty']"))
    # He sends a character not in Moriarty's row (2 taps): refused.
    both(sides, lambda side: send_instead(side.detective, "[data-impersonate]", "holmes"))
    refused_at_both(sides, "detective", "detective-moriarty-refused")
    glance(sides, "detective-moriarty-refused")
    row = a.detective.locator("[data-impersonate]").first.get_attribute("data-impersonate")
    both(sides, lambda side: confirm(side.detective, f"[data-impersonate='{row}']"))
    glance(sides, "moriarty-impersonates")
    for side in sides:
        side.laptop.context.close()


def test_a_reload_keeps_the_ticks_and_the_open_section_but_no_secret(server, laptop, phone):
    """A phone reloaded in the middle of an action comes back as a live refresh would:
    the detective's History still open and, at the call for witnesses, his ticks still
    ticked; his accusation list, a secret section, comes back closed."""
    phones = open_table(server, laptop, phone)
    jack, detective = phones["jack"], phones["detective"]
    alibi = hidden_state(server, phones["code"])["alibi"]
    # The detective plays his first card (2 taps), opens his History and his list to
    # accuse (1 tap each), then reloads.
    play_card(laptop, detective, "detective")
    detective.click("[data-history] > summary")
    detective.click("[data-accuse] > summary")
    expect(detective.locator("[data-accuse]")).to_have_attribute("open", "")
    detective.reload()
    expect(detective.locator("[data-history]")).to_have_attribute("open", "")
    expect(detective.locator("[data-accuse]")).not_to_have_attribute("open", "")
    for role in ODD[1:]:
        play_card(laptop, phones[role], role)
    confirm(jack, "[data-answer=not_seen]")
    # His own last card sent, his page came back as the server sends it: he opens his
    # History again (1 tap), ticks two suspects (1 tap each) and reloads: the History
    # still open, both still ticked, nothing sent.
    expect(detective.locator("[data-mark-submit]")).to_be_visible()
    detective.click("[data-history] > summary")
    ticked = board_seen(detective, "not_seen", alibi, others=2)
    for card in ticked:
        detective.check(f"[data-seen='{card}']")
    detective.reload()
    for card in ticked:
        expect(detective.locator(f"[data-seen='{card}']")).to_be_checked()
    expect(detective.locator("[data-seen]:checked")).to_have_count(2)
    expect(detective.locator("[data-history]")).to_have_attribute("open", "")
    check_phone(detective, "mrjack-detective-reloaded")
    # Sent (1 tap) and confirmed by Jack (2 taps): the reload kept nothing past it.
    detective.click("[data-mark-submit]")
    confirm(jack, "[data-confirm-marks]")
    expect(laptop.locator("[data-suspect=no]")).to_have_count(2)
    detective.reload()
    expect(detective.locator("[data-seen]:checked")).to_have_count(0)
