"""Letters from Whitechapel in a real Chromium: Jack's phone, two detectives'
phones and the table screen play a whole game, four nights to Jack's escape."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.support.pages import confirm, shot
from tests.support.phone_quality import check_phone, check_screen
from tests.support.whitechapel_pages import (
    assert_controls_thumb_sized,
    assert_no_sideways_scroll,
    assert_not_clipped,
    contrast,
    create_and_seat,
    hell,
    key_in,
    kill_typed,
    phone_with,
    tap,
)

HIDEOUT = "187"


def move(jack, circle: str) -> None:
    """A typed move: a tap a digit, then Move twice (the one confirm pattern)."""
    expect(jack.locator("[data-act=move]")).to_be_visible()
    key_in(jack, circle)
    confirm(jack, "[data-act=move]")


def escape(jack) -> None:
    """Once the page shows Jack's move (a refresh landing between the two taps of a
    tap-again button would disarm it), the escape into the hideout."""
    expect(jack.locator("[data-jack-phase]")).to_have_attribute("data-jack-phase", "jack")
    expect(jack.locator("[data-act=move]")).to_be_visible()
    confirm(jack, "button:has-text('Escape')")


def test_a_whole_game_with_three_phones_and_the_table(dealt_server, laptop, phone):
    server = dealt_server  # Ann leads the police on night 1
    laptop.goto(server.url + "/new/whitechapel")
    laptop.select_option("select[name=players]", "3")
    laptop.select_option("select[name=board]", "")  # the shipped board is the default
    laptop.check("input[name=letters]")
    check_screen(laptop, "whitechapel-setup")
    jack, ann, bob = phone(), phone(), phone()
    jack.set_viewport_size({"width": 360, "height": 740})  # the narrowest phone
    create_and_seat(laptop, server.url, [jack, ann, bob])
    detectives = [ann, bob]

    # Before night 1: the hideout, from the keypad (numbers only: no map).
    expect(jack.locator("[data-prompt]").first).to_contain_text("hideout")
    key_in(jack, HIDEOUT)
    confirm(jack, "button:has-text('Write it')")  # 3 digits, 2 taps
    expect(laptop.locator("[data-prompt]").first).to_contain_text("8 woman tokens")

    # Night 1: women, patrols, a wait, then the crime.
    hell(jack, detectives, laptop, ["3", "21", "27", "65", "84"])
    prompt = laptop.locator("[data-prompt]").first
    expect(prompt).to_contain_text("wretched pawns on 3, 21, 27, 65, 84")
    confirm(jack, "button:has-text('Wait')")
    expect(laptop.locator("[data-prompt]").first).to_contain_text("Time of the crime to II")
    for page in detectives:
        if page.locator("[data-act=wretched_moved]").count():
            confirm(page, "[data-act=wretched_moved]")  # 2 taps
            break
    else:
        confirm(laptop, "[data-act=wretched_moved]")
    # The Kill key reads clearly (WCAG AA) and every control takes a thumb.
    assert contrast(jack, "[data-act=kill]") >= 4.5
    assert_controls_thumb_sized(jack)
    check_phone(jack, "whitechapel-jack-kill")
    kill_typed(jack, "82")
    expect(laptop.locator("[data-prompt]").first).to_contain_text("Alarm whistles")
    check_screen(laptop, "whitechapel-table-alarm")

    # Hunting: a move, searches from Ann's phone, an arrest from Bob's.
    move(jack, "83")
    expect(ann.locator("[data-act=search]")).to_be_visible()
    ann.locator("label.wc-pick").first.click()
    key_in(ann, "99")
    tap(ann, "[data-act=search]")
    expect(laptop.locator("[data-log]").first).to_contain_text("99: no clue")
    # Every answer is seen: at the top of each screen, in view, until the next action.
    for page in (ann, bob, laptop):
        expect(page.locator("[data-answer]")).to_contain_text("Search 99: no clue")
    assert ann.locator("[data-answer]").evaluate(
        "node => { const r = node.getBoundingClientRect(); "
        "return r.top >= 0 && r.bottom <= window.innerHeight; }")
    assert_controls_thumb_sized(ann)
    assert_no_sideways_scroll(ann)
    key_in(ann, "83")
    tap(ann, "[data-act=search]")
    expect(laptop.locator("[data-clues]").first).to_contain_text("83")
    expect(jack.locator("[data-questions]")).to_contain_text("83: clue")
    expect(bob.locator("[data-answer]")).to_contain_text("Search 83: CLUE!")
    check_phone(ann, "whitechapel-detective-search")
    # The order of play (the Head of the Investigation first, then clockwise): Ann's other
    # policemen pass before Bob speaks, 2 taps each (the one confirm pattern).
    while ann.locator("button:has-text('does nothing')").count():
        before = ann.locator("#view").get_attribute("data-version")
        confirm(ann, "button:has-text('does nothing')")
        expect(ann.locator("#view")).not_to_have_attribute("data-version", before)
    bob.locator("label.wc-pick").first.click()
    key_in(bob, "84")
    confirm(bob, "button:has-text('Arrest here')")
    expect(laptop.locator("[data-log]").first).to_contain_text("84: not here")
    expect(ann.locator("[data-answer]")).to_contain_text("Arrest 84: not here")
    check_phone(bob, "whitechapel-detective-arrest")
    confirm(laptop, "button:has-text('The police are done')")

    # A Coach, then home: the escape ends the night.
    expect(jack.locator("[data-act=move]")).to_be_visible()
    jack.click("summary:has-text('Coach')")
    jack.fill("[data-coach='1']", "101")
    jack.fill("[data-coach='2']", "102")
    confirm(jack, "[data-act=coach]")  # 1 tap to open, two fields, 2 taps
    expect(laptop.locator("[data-track] [data-token=coach]")).to_have_count(2)
    check_screen(laptop, "whitechapel-table-coach")
    assert_not_clipped(laptop, "[data-track] .wc-token")
    assert_not_clipped(jack, "[data-track] .wc-token")
    confirm(laptop, "button:has-text('The police are done')")
    expect(jack.locator("[data-act=move]")).to_be_visible()
    expect(jack.locator("[data-peek]").first).to_be_visible()
    jack.locator("[data-peek]").first.scroll_into_view_if_needed()
    box = jack.locator("[data-peek]").first.bounding_box()
    jack.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    jack.mouse.down()
    expect(jack.locator("[data-location]")).to_be_visible()
    # Held, the whole night's row shows on a 360 px phone: 15 squares, none cut off.
    squares = jack.locator("[data-sheet-night='1'] li").evaluate_all(
        "nodes => nodes.map(n => n.getBoundingClientRect())"
        ".map(r => [r.left, r.right, r.bottom])")
    assert len(squares) == 15
    assert all(left >= 0 and right <= 360 and bottom <= 740 for left, right, bottom in squares)
    assert_no_sideways_scroll(jack)
    shot(jack, "whitechapel-jack-peek")
    jack.mouse.up()
    expect(jack.locator("[data-location]")).to_be_hidden()
    escape(jack)
    expect(laptop.locator("[data-night]").first).to_have_attribute("data-night", "2")
    expect(laptop.locator("[data-prompt]").first).to_contain_text("Dawn")

    # Night 2 with a letter, night 3 the double event, night 4 home again.
    hell(jack, detectives, laptop, ["3", "21", "27", "84"], letter=True)
    expect(laptop.locator("[data-letters]").first).to_contain_text("Jack's letter 1")
    kill_typed(jack, "84")
    escape(jack)
    expect(laptop.locator("[data-night]").first).to_have_attribute("data-night", "3")
    hell(jack, detectives, laptop, ["3", "21", "27"], letter=True)
    jack.fill("[data-crime='1']", "27")
    jack.fill("[data-crime='2']", "3")
    confirm(jack, "button:has-text('Kill both')")
    expect(laptop.locator("[data-crime-scenes]").first).to_contain_text("night 3: 3 & 27")
    phone_with((ann, bob), "[data-act=search]")  # the police first, the Head leading
    check_phone(jack, "whitechapel-jack-night3")
    confirm(laptop, "button:has-text('The police are done')")  # the host's override
    escape(jack)
    expect(laptop.locator("[data-night]").first).to_have_attribute("data-night", "4")
    hell(jack, detectives, laptop, ["21"], letter=True)
    kill_typed(jack, "21")
    move(jack, "22")
    confirm(laptop, "button:has-text('The police are done')")
    escape(jack)

    # The end: the whole sheet for everyone.
    for page in (laptop, jack, ann, bob):
        expect(page.locator("[data-outcome]").first).to_have_attribute("data-outcome", "jack")
        expect(page.locator("[data-hideout]").first).to_have_text(HIDEOUT)
        expect(page.locator("[data-sheet-night='3']").first).to_contain_text("27")
    check_screen(laptop, "whitechapel-table-end")
    check_phone(jack, "whitechapel-jack-end")
    check_phone(ann, "whitechapel-detective-end")
    check_phone(bob, "whitechapel-detective2-end")
