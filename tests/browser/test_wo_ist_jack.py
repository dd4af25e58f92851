"""Wo ist Jack the Ripper in a real Chromium: a laptop and three phones, one full game."""

from __future__ import annotations

from functools import partial

from playwright.sync_api import expect

from companion.games import wo_ist_jack
from tests.support.glance import read_in
from tests.support.language import translated
from tests.support.pages import confirm, sit, start_game
from tests.support.phone_quality import check_phone, check_screen

NAMES = ["Ann", "Bob", "Cy"]


def open_table(server, laptop, phone) -> tuple[str, dict]:
    laptop.goto(server.url + "/new/wo_ist_jack")
    laptop.select_option("select[name=players]", "3")
    laptop.click("button:has-text('Create the table')")
    code = laptop.locator(".code-big").inner_text().strip()
    phones = {name: phone() for name in NAMES}
    for seat, name in enumerate(NAMES):
        sit(phones[name], f"{server.url}/j/{code}", name, seat)
    expect(laptop.locator("[data-seats]")).to_contain_text("Cy")
    start_game(laptop)
    for page in phones.values():
        expect(page.locator("[data-choose-start]")).to_be_visible()
    return code, phones


# The club's deck, typed once on the laptop: every story with its value (Components:
# "12 Story cards"; the four the rulebook names first).
DECK = ["Polizei tappt im Dunkeln = 3", "Annie ermordet aufgefunden = 2",
        "Ist der Ripper in Amerika? = 4", "Mordserie nimmt kein Ende = 3",
        "Mary Kelly tot = 4", "Brief an die Central News = 2", "Doppelmord = 5",
        "From Hell = 3", "Leather Apron = 2", "Der Lusk-Brief = 1", "Bloodhounds = 4",
        "Ein Messer = 2"]
VALUES = {line.rsplit(" = ", 1)[0]: int(line.rsplit(" = ", 1)[1]) for line in DECK}



def in_points(n: int) -> str:
    """A story's value as the pages write it: "1 point", "3 points"."""
    return f"{n} point" if n == 1 else f"{n} points"

def name_the_deck(server, laptop) -> None:
    """From the setup page to the laptop's deck and back (the laptop: a click, the list
    typed once, a click, a click back)."""
    laptop.goto(server.url + "/new/wo_ist_jack")
    expect(laptop.locator("[data-deck-summary]")).to_contain_text("not named yet")
    check_screen(laptop, "wo_ist_jack-new-table")
    laptop.click("[data-deck-link]")
    expect(laptop.locator("textarea[name=stories]")).to_contain_text("Story 1 of the row")
    check_screen(laptop, "wo_ist_jack-deck-default")
    laptop.fill("textarea[name=stories]", "\n".join(DECK))
    laptop.click("button:has-text('Save the names')")
    expect(laptop.locator("[data-saved]")).to_contain_text("every new Wo ist Jack")
    check_screen(laptop, "wo_ist_jack-deck-saved")
    laptop.click("a.back:has-text('New Wo ist Jack the Ripper table')")
    expect(laptop.locator("[data-deck-summary]")).to_contain_text("as named on this laptop")


def let_print(phones: dict, printer: str) -> None:
    """Every other reporter lets the story print: 2 taps each (the confirm pattern)."""
    for name in NAMES:
        if name != printer:
            confirm(phones[name], "[data-pass]")


def print_story(laptop, phones: dict, name: str, printed: int) -> str:
    """``name`` prints the current story: 2 taps on his phone, no value typed (the deck
    knows it), then 2 taps on each other phone to let it print."""
    story = laptop.locator("[data-current] .wij-name").inner_text().strip()
    confirm(phones[name], "[data-print-button]")
    for page in phones.values():
        expect(page.locator("[data-now]")).to_contain_text(f"about to print “{story}”")
    let_print(phones, name)
    expect(laptop.locator("[data-printed] li")).to_have_count(printed)
    return story


def test_a_three_player_game_to_the_reporter_of_the_year(server, laptop, phone):
    name_the_deck(server, laptop)
    _code, phones = open_table(server, laptop, phone)

    # Who starts? Any phone may say it (1 tap on Bob's).
    expect(phones["Bob"].locator("[data-now]")).to_contain_text("Who starts?")
    check_phone(phones["Bob"], "wo_ist_jack-phone-who-starts")
    phones["Bob"].locator("[data-choose-start] button", has_text="Ann").click()
    expect(laptop.locator("[data-now]")).to_contain_text("Ann's turn")
    ann, bob, cy = (phones[name] for name in NAMES)
    expect(ann.locator("[data-now]")).to_contain_text("Your turn: 2 investigations")
    expect(bob.locator("[data-now]")).to_contain_text("It is Ann's turn.")
    expect(bob.locator("[data-print-form]")).to_have_count(0)
    current = laptop.locator("[data-current] .wij-name").inner_text().strip()
    upcoming = laptop.locator("[data-next] .wij-name").inner_text().strip()
    expect(laptop.locator("[data-deck-left]")).to_contain_text("8 face-down")
    expect(laptop.locator("body")).to_contain_text("Out of the game with 3 players")
    # The deck knows the value: printing asks for none.
    expect(ann.locator("input[name=points]")).to_have_count(0)
    expect(ann.locator("[data-print-button]")).to_contain_text(in_points(VALUES[current]))
    check_screen(laptop, "wo_ist_jack-table-start")
    check_phone(ann, "wo_ist_jack-phone-your-turn")
    check_phone(cy, "wo_ist_jack-phone-waiting")

    # Ann prints (2 taps): every phone is told first, and the others may stop it.
    confirm(ann, "[data-print-button]")
    for page in (laptop, bob, cy):
        expect(page.locator("[data-now]")).to_contain_text(f"Ann is about to print “{current}”")
    expect(ann.locator("[data-now]")).to_contain_text(f"You are about to print “{current}”")
    expect(bob.locator("[data-now]")).to_have_attribute("data-mine", "yes")
    expect(ann.locator("[data-pass]")).to_have_count(0)
    check_phone(bob, "wo_ist_jack-phone-about-to-print")
    # Bob lets it print (2 taps); Cy too (2 taps): printed at once.
    confirm(bob, "[data-pass]")
    expect(laptop.locator("[data-about-to-print]")).to_contain_text("once Cy lets it print")
    confirm(cy, "[data-pass]")
    expect(laptop.locator("[data-current] .wij-name")).to_have_text(upcoming)
    expect(laptop.locator("[data-deck-left]")).to_contain_text("7 face-down")
    for page in (laptop, *phones.values()):
        expect(page.locator("[data-answer] p").first).to_have_text(
            f"Ann printed “{current}” for {in_points(VALUES[current])}. "
            f"Now current: “{upcoming}”.")
    for page in (bob, cy):
        expect(page.locator("[data-take-back]")).to_have_text(
            "Take one of your melded Research cards back into your hand, if you have any.")
        expect(page.locator("[data-took-back]")).to_have_count(0)
    expect(ann.locator("[data-take-back]")).to_have_count(0)
    check_phone(bob, "wo_ist_jack-phone-take-back")

    # Ann plays Reporterteam (2 taps): her turn's one Action (docs/RULINGS.md
    # #wo-ist-jack-the-ripper, "One Action a turn"), so no other card is offered to her.
    expect(ann.locator("[data-u-haft]")).to_be_visible()
    confirm(ann, "[data-reporterteam]")
    expect(laptop.locator("[data-markers]")).to_contain_text(
        "Ann has one extra investigation from their next turn")
    expect(ann.locator("[data-action-done]")).to_have_text(
        "Your Action this turn: Reporterteam. No other Action card, nor a draw, until your "
        "next turn.")
    expect(ann.locator("[data-u-haft]")).to_have_count(0)
    expect(ann.locator("[data-now]")).to_contain_text("the action is done (Reporterteam)")
    expect(laptop.locator("[data-action-done]")).to_have_text(
        "Ann's Action this turn: Reporterteam.")
    check_phone(ann, "wo_ist_jack-phone-action-done")
    confirm(ann, "[data-end-turn]")  # 2 taps

    # Bob plays U-Haft on Cy from his phone (a pick, 2 taps): Cy's phone says so at its top.
    bob.select_option("[data-my-actions] select[name=target]", label="Cy")
    confirm(bob, "[data-u-haft]")
    expect(cy.locator("[data-now-detail]")).to_have_text(
        "You are in U-Haft (Reporter in Detention): you lose your next turn.")
    expect(ann.locator("[data-now-detail]")).to_have_count(0)
    expect(laptop.locator("[data-markers]")).to_contain_text("Cy loses their next turn.")
    check_screen(laptop, "wo_ist_jack-table-markers")
    check_phone(cy, "wo_ist_jack-phone-u-haft")

    # Bob is about to print (2 taps); Cy breaks his press in the window (2 taps).
    expect(bob.locator("[data-now]")).to_contain_text("Your turn")
    confirm(bob, "[data-print-button]")
    expect(cy.locator("[data-druckmaschine]")).to_be_visible()
    confirm(cy, "[data-druckmaschine]")
    expect(bob.locator("[data-print-form]")).to_have_count(0)
    expect(bob.locator("[data-now-detail]")).to_contain_text("printing press is broken")
    expect(laptop.locator("[data-markers]")).to_contain_text("Bob's printing press is broken")
    check_phone(bob, "wo_ist_jack-phone-druckmaschine")
    confirm(bob, "[data-end-turn]")  # 2 taps
    # Cy loses the turn, and her phone says so in its first 150 px (no tap): back to Ann,
    # with the extra investigation.
    expect(ann.locator("[data-now]")).to_contain_text("Your turn: 3 investigations")
    expect(cy.locator("[data-now] .now-text")).to_have_text(
        "U-Haft: you lose this turn. It is Ann's turn.")
    box = cy.locator("[data-now] .now-text").bounding_box()
    assert box["y"] + box["height"] <= 150, box
    expect(laptop.locator("[data-markers]")).not_to_contain_text("Cy loses")
    check_phone(cy, "wo_ist_jack-phone-lost-turn")
    check_phone(ann, "wo_ist_jack-phone-reporterteam")

    # Nobody else taps: the window runs out and Ann's print lands by itself (2 taps,
    # then at most the window's seconds).
    story = laptop.locator("[data-current] .wij-name").inner_text().strip()
    confirm(ann, "[data-print-button]")
    check_phone(ann, "wo_ist_jack-phone-printing")
    expect(laptop.locator("[data-printed] li")).to_have_count(2, timeout=20_000)
    # The deal is random: a story with an English gloss is listed with it.
    gloss = wo_ist_jack.ENGLISH_GLOSSES.get(story)
    listed = f"{story} ({gloss})" if gloss else story
    expect(laptop.locator("[data-printed] li").nth(1)).to_contain_text(f"{listed}: Ann")

    # Play on: each active reporter prints at most one story a turn, up to a quota
    # (a print: 2 taps and 2 x 2 taps to let it; End my turn: 2 taps).
    quota = {"Ann": 3, "Bob": 4, "Cy": 3}
    printed = {"Ann": 2, "Bob": 0, "Cy": 0}
    total = 2
    confirm(ann, "[data-end-turn]")
    name = "Bob"
    while total < 10:
        page = phones[name]
        expect(page.locator("[data-now]")).to_contain_text("Your turn")
        if printed[name] < quota[name]:
            total += 1
            printed[name] += 1
            print_story(laptop, phones, name, total)
            if total == 10:
                break
            expect(page.locator("[data-printed] li")).to_have_count(total)
        confirm(page, "[data-end-turn]")
        name = NAMES[(NAMES.index(name) + 1) % len(NAMES)]
        expect(laptop.locator("[data-turn-order] [data-active]")).to_have_text(name)
    # Each line of "Who printed what" reads "Story: Reporter, N points".
    points = {who: 0 for who in NAMES}
    for line in laptop.locator("[data-printed] li").all_inner_texts():
        story, _, rest = line.rpartition(": ")
        # An English page glosses the stories the rulebook names: "Mary Kelly tot (...)".
        story = story.split(" (", 1)[0] if story.split(" (", 1)[0] in VALUES else story
        points[rest.split(",")[0]] += VALUES[story]
    points["Bob"] += 2  # the most stories (4)
    best = max(points.values())
    winners = [who for who in NAMES if points[who] == best]
    expect(laptop.locator("[data-bonus]")).to_have_text(
        "Bob printed the most stories (4) and gets +2 story points.")
    if len(winners) == 1:
        expect(laptop.locator("[data-result]")).to_have_text(
            f"{winners[0]} is the Reporter of the Year with {best} points!")
    for page in phones.values():
        expect(page.locator("[data-result]")).to_contain_text("Reporter of the Year")
        expect(page.locator("[data-print-form]")).to_have_count(0)
        expect(page.locator("[data-take-back]")).to_have_count(0)
    expect(laptop.locator("[data-printed] li")).to_have_count(10)
    # The final score stands first, whole (Total column included) at 360 px.
    for page in phones.values():
        assert page.locator("[data-result]").bounding_box()["y"] < 300
    check_screen(laptop, "wo_ist_jack-table-final")
    check_phone(cy, "wo_ist_jack-phone-final")
    cy.set_viewport_size({"width": 360, "height": 844})
    total_box = cy.locator("[data-score] [data-total]").first.bounding_box()
    assert total_box["x"] + total_box["width"] <= 360


def test_a_whole_game_in_german_at_360_px(server, laptop, phone):
    """The game as its German box prints it, on three phones set to German (their
    browsers' language) at 360 px and a laptop switched with one tap at the foot of its
    page: every screen checked for overflow, 44 px controls, contrast and any English
    sentence left (tests/support/phone_quality.py). Taps: who starts 1; a print 1 (its
    value, the deck being unnamed) and 2, and 2 x 2 to let it (within the print window:
    no check in between); the end of a turn 2."""
    say = partial(translated, "de")
    laptop.goto(server.url + "/new/wo_ist_jack")
    read_in("de", laptop)
    laptop.select_option("select[name=players]", "3")
    laptop.click(f"button:has-text('{say('Create the table')}')")
    code = laptop.locator(".code-big").inner_text().strip()
    phones = {name: phone(language="de-DE", width=360) for name in NAMES}
    for seat, name in enumerate(NAMES):
        sit(phones[name], f"{server.url}/j/{code}", name, seat)
    start_game(laptop, say("Start the game"))
    expect(phones["Bob"].locator("[data-choose-start]")).to_be_visible()
    check_phone(phones["Bob"], "wo_ist_jack-de-who-starts")
    phones["Bob"].locator("[data-choose-start] button", has_text="Ann").click()
    name = "Ann"
    for turn in range(40):
        page = phones[name]
        expect(laptop.locator("[data-turn-order] [data-active]")).to_have_text(name)
        expect(page.locator("[data-end-turn]")).to_be_visible()
        if turn == 0:
            check_phone(page, "wo_ist_jack-de-your-turn")
            check_phone(phones["Cy"], "wo_ist_jack-de-waiting")
            check_screen(laptop, "wo_ist_jack-de-table")
        if page.locator("[data-print-button]").count():
            printed = laptop.locator("[data-printed] li").count()
            # The deck is not named on this laptop: the story's value is typed (1 tap).
            page.fill("input[name=points]", "3")
            confirm(page, "[data-print-button]")
            let_print(phones, name)
            expect(laptop.locator("[data-printed] li")).to_have_count(printed + 1)
            if laptop.locator("[data-result]").count():
                break
        confirm(page, "[data-end-turn]")
        name = NAMES[(NAMES.index(name) + 1) % len(NAMES)]
    for page in phones.values():
        expect(page.locator("[data-result]")).to_contain_text(say("Reporter of the Year"))
    check_screen(laptop, "wo_ist_jack-de-over")
    check_phone(phones["Ann"], "wo_ist_jack-de-over")
