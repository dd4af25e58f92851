"""Mr. Jack in a real Chromium: the laptop and two phones play a whole base game,
and the London extension's draft and placement."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Callable, Iterator, Sequence

import pytest
from playwright.sync_api import expect

from tests.support.glance import DEFAULT_MASK, assert_same_glance, untouched
from tests.support.hidden import deal_again, hidden_state
from tests.support.mrjack_deals import (
    UNKEPT,
    draft_twins,
    holmes_twins,
    with_alibis,
    with_first,
)
from tests.support.pages import LAPTOP, confirm, shot, sit
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
    # The top says the same whatever was ticked; "Why?" (1 tap) tells him alone.
    expect(jack.locator("[data-error]")).to_contain_text("Not accepted: nothing was changed.")
    reason = jack.locator("[data-why] > p")
    expect(reason).to_be_hidden()
    jack.click("[data-why] > summary")
    expect(reason).to_contain_text("Keep exactly 2 of your 5 characters")
    check_phone(jack, "mrjack-jack-draft-error", allow=("status of 422",))
    # The refused hand came back closed and its ticks emptied: open it (1 tap), tick two.
    expect(jack.locator("[data-hand]")).not_to_have_attribute("open", "")
    expect(jack.locator("[data-keep]:checked")).to_have_count(0)
    jack.click("[data-hand] summary")
    boxes = jack.locator("[data-keep]")
    for index in range(2):
        boxes.nth(index).check()
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
        with urllib.request.urlopen(f"{self.server.url}/t/{self.code}/version") as answer:
            version = str(json.load(answer)["version"])
        for page in self.phones:
            expect(page.locator("#view")).to_have_attribute("data-version", version)


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
    offer (1 tap), for a refusal where no other tap leads to one."""
    button = page.locator(buttons).first
    button.evaluate("(button, value) => { button.value = value; }", value)
    button.click()


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
    detective draws differ. Every point, both seats: the phones at rest are identical,
    after each seat's refused action and after a minute untouched with a secret open."""
    sides = [Side(server, browser, phone) for server in twin_servers]
    a, b = sides
    deal_a, deal_b = holmes_twins(a.state())
    first, second = deal_a["round"]["cards"], deal_a["deck"]
    leaving = second[0]         # Jack's first card of turn 2: neither game's alibi
    alibi_a, drawn_a, drawn_b = deal_a["alibi"], deal_a["alibi_deck"][0], deal_b["alibi_deck"][0]
    a.redeal(deal_a)
    b.redeal(deal_b)
    glance(sides, "start")

    # Turn 1: the detective plays Sherlock Holmes (1 tap) and draws an alibi (1 tap).
    both(sides, lambda side: side.detective.click("[data-pick='holmes']"))
    glance(sides, "holmes")
    both(sides, lambda side: side.detective.click("[data-draw-alibi]"))
    glance(sides, "drawn")
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
    # test makes the button send another character (1 tap to open, 1 on the button).
    def publish_undrawn(side: Side) -> None:
        side.detective.click("[data-publish-list] > summary")
        send_instead(side.detective, "[data-publish]", leaving)

    both(sides, publish_undrawn)
    refused_at_both(sides, "detective", "detective-refused")
    glance(sides, "detective-refused")

    # The rest of turn 1 (1 tap each), Jack's "not seen" (1 tap), and the detective
    # marks the first Jack's own character seen, so cleared (1 tick, 1 tap): the first
    # Jack's warning waits behind his peek.
    for role, card in zip(ODD[1:], [card for card in first if card != "holmes"], strict=True):
        both(sides, lambda side, role=role, card=card:
             getattr(side, role).click(f"[data-pick='{card}']"))
    glance(sides, "witness-call")
    both(sides, lambda side: side.jack.click("[data-answer=not_seen]"))
    glance(sides, "not-seen")

    def mark(side: Side) -> None:
        side.detective.check(f"[data-seen='{alibi_a}']")
        side.detective.click("[data-mark-submit]")

    both(sides, mark)
    expect(a.jack.locator("[data-alibi-warning]")).to_be_attached()
    expect(b.jack.locator("[data-alibi-warning]")).to_have_count(0)
    glance(sides, "cleared")

    # Turn 2, after "not seen": Jack plays first (1 tap) a character neither Jack is; the
    # offer to leave stands on public facts, and leaving (2 taps: arm, confirm) is refused.
    both(sides, lambda side: side.jack.click(f"[data-pick='{leaving}']"))
    glance(sides, "escape-offered")
    both(sides, lambda side: confirm(side.jack, "button:has-text('leaves the district')"))
    refused_at_both(sides, "jack", "jack-escape-refused")
    glance(sides, "jack-refused")

    # The detective plays the second card (1 tap): he may accuse. His list marks the
    # character his own draw cleared, so opened (1 tap) it differs; a minute untouched,
    # it has closed by itself.
    both(sides, lambda side: side.detective.click(f"[data-pick='{second[1]}']"))
    glance(sides, "accuse-offered")
    for side, drawn in ((a, drawn_a), (b, drawn_b)):
        expect(side.detective.locator("button.mj-known")).to_have_attribute(
            "value", drawn)
    opened_differs(sides, "detective", "[data-accuse]", "accuse")
    a_minute_untouched(sides)
    glance(sides, "accuse-a-minute-later")
    for side in sides:
        side.laptop.context.close()


def keep(page, count: int) -> None:
    """Open the dealt hand (1 tap), tick the first ``count`` (1 tap each), send (1 tap)."""
    page.click("[data-hand] > summary")
    for box in page.locator("[data-keep]").all()[:count]:
        box.check()
    page.click("[data-keep-submit]")


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
    # The detective, due to place, sends a character nobody kept (1 tap): refused.
    both(sides, lambda side: send_instead(side.detective, "[data-place]", UNKEPT[0]))
    refused_at_both(sides, "detective", "detective-placement-refused")
    glance(sides, "detective-placement-refused")
    # The eight tokens, placed from the laptops (1 tap each).
    for index in range(8):
        card = a.laptop.locator("[data-place]").first.get_attribute("data-place")
        both(sides, lambda side, card=card: side.laptop.click(f"[data-place='{card}']"))
        if index == 3:
            glance(sides, "placement-second-four")
    # Play: the alibi, dealt alike from the seed, differs at the second table; Professor
    # Moriarty is among turn 1's four at both.
    dealt = with_first(a.state(), "moriarty")
    alibi_b = next(card for card in dealt["alibi_deck"] if card != "moriarty")
    a.redeal(dealt)
    b.redeal(with_alibis(dealt, alibi_b, dealt["alibi"]))
    glance(sides, "london-turn1")
    # The detective plays Moriarty (1 tap), then chooses whom he impersonates (1 tap).
    both(sides, lambda side: side.detective.click("[data-pick='moriarty']"))
    glance(sides, "moriarty-choosing")
    # He sends a character not in Moriarty's row (1 tap): refused.
    both(sides, lambda side: send_instead(side.detective, "[data-impersonate]", "holmes"))
    refused_at_both(sides, "detective", "detective-moriarty-refused")
    glance(sides, "detective-moriarty-refused")
    row = a.detective.locator("[data-impersonate]").first.get_attribute("data-impersonate")
    both(sides, lambda side: side.detective.click(f"[data-impersonate='{row}']"))
    glance(sides, "moriarty-impersonates")
    for side in sides:
        side.laptop.context.close()
