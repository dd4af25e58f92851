"""Letters from Whitechapel through the Flask client: setup form, a game played
from phones and the table screen, refusals, and rendered non-interference."""

from __future__ import annotations

import random
import re

from companion.games.base import TABLE
from companion.games.whitechapel import rules as wc
from tests.support.html import at_rest
from tests.support.noninterference import (
    assert_indistinguishable,
    masked,
    play_both,
    render_component,
)
from tests.support.webflow import Device, seated_table, state_of

HIDEOUT = 187


def head_phone(app, laptop, phones):
    state = state_of(app, laptop.code)
    return phones[state["policemen"][state["head_tiles"][state["night"] - 1]]]


def game_to_hunting(app, names=("Jack", "Ann", "Bob"), **options):
    laptop, phones = seated_table(app, "whitechapel", list(names), **options)
    jack = phones[0]
    assert jack.act("hideout", circle=HIDEOUT).status_code == 303
    assert jack.act("women", woman1=3, woman2=21, woman3=27, woman4=65,
                    woman5=84).status_code == 303
    assert head_phone(app, laptop, phones).act("patrols_placed").status_code == 303
    assert jack.act("kill", circle=65).status_code == 303
    return laptop, phones


def test_new_table_form_has_the_policemen_and_optional_rules(client):
    page = client.get("/new/whitechapel")
    assert page.status_code == 200
    for colour in wc.POLICEMEN:
        assert f'name="policeman_{colour}"' in page.text
    assert 'name="false_clues"' in page.text and 'name="letters"' in page.text
    assert 'name="false_clues" checked' not in page.text


def test_create_with_an_explicit_deal_and_options(app):
    form = {"policeman_blue": "1", "policeman_yellow": "1", "policeman_brown": "2",
            "policeman_red": "2", "policeman_green": "2", "false_clues": "on"}
    laptop, phones = seated_table(app, "whitechapel", ["J", "A", "B"], **form)
    state = state_of(app, laptop.code)
    assert state["policemen"] == {"blue": 1, "yellow": 1, "brown": 2, "red": 2, "green": 2}
    assert state["options"]["false_clues"] and not state["options"]["letters"]
    page = phones[1].phone().text
    assert 'data-policemen="blue yellow"' in page
    again = laptop.get("/new/whitechapel").text  # remembered for the next table
    assert re.search(r'name="policeman_brown"[^>]*>\s*<option value="">deal evenly</option>'
                     r'\s*<option value="1">Detective 1</option>\s*'
                     r'<option value="2" selected>', again)


def test_bad_deal_is_refused_with_a_message(app):
    laptop = Device(app)
    page = laptop.post("/new/whitechapel", {"players": "3", "policeman_blue": "5",
                                            "policeman_yellow": "1", "policeman_brown": "1",
                                            "policeman_red": "1", "policeman_green": "2"})
    assert page.status_code == 422
    assert "between 1 and 2" in page.text


def turn_of(app, laptop, phones, colour: str) -> None:
    """Hunting 3 up to ``colour``'s detective, once every policeman has moved (police on
    the map: each detective's phone says his others stay): the detectives who speak
    before him (from the Head of the Investigation clockwise) let their policemen pass."""
    state = state_of(app, laptop.code)
    for left in wc._moves_left(state):
        assert phones[state["policemen"][left]].act(
            "move_policeman", policeman=left, crossing=state["cops"]["at"][left]
        ).status_code == 303
    while True:
        state = state_of(app, laptop.code)
        speaker = wc._speaking(state)
        seat = state["policemen"][speaker]
        if seat == state["policemen"][colour]:
            return
        assert phones[seat].act("done", policeman=speaker).status_code == 303


def test_a_night_from_the_phones_and_the_table(app):
    laptop, phones = game_to_hunting(app)
    jack, ann, bob = phones
    screen = laptop.screen().text
    assert "Alarm whistles" in screen and 'data-night="1"' in screen
    assert "August 31st, 1888" in screen
    before = laptop.version()
    refused = ann.act("move", circle=66)
    assert refused.status_code == 422 and "not something you can do" in refused.text
    assert laptop.version() == before
    refused = jack.act("move", circle=999)
    assert refused.status_code == 422 and "between 1 and 195" in refused.text
    assert laptop.version() == before
    assert jack.act("move", circle=66).status_code == 303
    assert jack.act("move", circle=67).status_code == 422  # the police act now
    state = state_of(app, laptop.code)
    blue = phones[state["policemen"]["blue"]]
    turn_of(app, laptop, phones, "blue")
    page = blue.phone().text
    assert 'value="search"' in page and 'name="policeman"' in page
    assert blue.act("search", policeman="blue", circle=99).status_code == 303
    assert blue.act("search", policeman="blue", circle=66).status_code == 303
    screen = laptop.screen().text
    assert "searches <b>99</b>: no clue" in screen and "searches <b>66</b>: clue" in screen
    assert 'class="pill wc-clue">66<' in screen
    again = blue.act("search", policeman="blue", circle=120)
    assert again.status_code == 422 and "already acted" in again.text
    stale = blue.act("arrest", policeman="yellow", circle=1, version=before)
    assert stale.status_code == 409
    assert laptop.table_act("end_turn").status_code == 303
    assert 'data-act="move"' in jack.phone().text


def now_line_of(page: str) -> str:
    """The shared now line (templates/_macros.html now_line) that opens a phone's page."""
    start = page.index('<section class="now-line')
    return page[start:page.index("</section>", start)]


def test_jacks_now_line_is_the_shared_one_and_says_who_acts(app):
    laptop, phones = game_to_hunting(app)
    jack = phones[0]
    line = now_line_of(jack.phone().text)
    assert 'data-mine="yes"' in line and "Your turn: move" in line and 'role="status"' in line
    assert jack.act("move", circle=66).status_code == 303
    line = now_line_of(jack.phone().text)
    assert 'data-mine="no"' in line and "Wait: the police look for clues or arrest" in line


def test_secrets_stay_on_jacks_phone(app):
    laptop, phones = game_to_hunting(app)
    phones[0].act("move", circle=66)
    jack_page = phones[0].phone().text
    assert f'data-hideout>{HIDEOUT}<' in jack_page and "On 66" in jack_page
    for page in (laptop.screen().text, phones[1].phone().text, phones[2].phone().text):
        assert "data-hideout" not in page and "data-sheet" not in page
        assert "data-location" not in page and "On 66" not in page
    for phone in phones[1:]:
        assert str(HIDEOUT) not in masked(phone.phone().text)


def test_the_whole_sheet_is_revealed_at_the_end(app):
    laptop, phones = game_to_hunting(app)
    phones[0].act("move", circle=66)
    state = state_of(app, laptop.code)
    green = phones[state["policemen"]["green"]]
    turn_of(app, laptop, phones, "green")
    arrest = green.act("arrest", policeman="green", circle=66)
    assert arrest.status_code == 303
    for page in (laptop.screen().text, phones[1].phone().text, phones[2].phone().text,
                 phones[0].phone().text):
        assert 'data-outcome="detectives"' in page
        assert f'data-hideout>{HIDEOUT}<' in page
        assert "arrested Jack the Ripper on 66" in page


def test_table_screen_acts_only_for_the_host(app):
    laptop, phones = game_to_hunting(app)
    phones[0].act("move", circle=66)
    assert 'value="search"' in laptop.screen().text
    stranger = Device(app, laptop.code)
    page = stranger.get(f"/t/{laptop.code}")
    assert page.status_code == 200 and "Clues tonight" in page.text
    assert 'value="search"' not in page.text


def test_double_event_asks_for_two_crimes_in_order(app):
    laptop, phones = game_to_hunting(app)
    jack = phones[0]
    assert jack.act("escape").status_code == 303
    jack.act("women", woman1=3, woman2=21, woman3=27, woman4=84)
    head_phone(app, laptop, phones).act("patrols_placed")
    jack.act("kill", circle=84)
    jack.act("escape")
    jack.act("women", woman1=3, woman2=21, woman3=27)
    head_phone(app, laptop, phones).act("patrols_placed")
    page = jack.phone().text
    assert 'data-crime="1"' in page and 'data-crime="2"' in page
    same = jack.act("kill", circle=27, circle2=27)
    assert same.status_code == 422 and "two different" in same.text
    assert jack.act("kill", circle=27, circle2=3).status_code == 303
    screen = laptop.screen().text
    assert "night 3: 3 &amp; 27" in screen and "the double event" in screen


# --- rendered non-interference ------------------------------------------------

def run(state, steps):
    for actor, fields in steps:
        state = wc.apply(state, actor, fields, random.Random(0))
    return state


def fresh():
    return wc.setup(wc.parse_options({}, 3), ["Jack", "Ann", "Bob"], random.Random(5))


def hell(hideout="90", women="3 21 27 65 84", night_steps=()):
    state = run(fresh(), [(0, {"type": "hideout", "circle": hideout}),
                          (0, {"type": "women", "circles": women})])
    return run(state, night_steps)


NOT_JACK = (TABLE, 1, 2)


def test_rendered_hideout_and_marks_are_indistinguishable(app):
    assert_indistinguishable(app, wc, hell("90"), hell("12"), NOT_JACK)
    assert_indistinguishable(app, wc, hell(women="3 21 27 65 84"),
                             hell(women="147 149 158 65 84"), NOT_JACK)


def test_rendered_path_is_indistinguishable(app):
    to_kill = [(TABLE, {"type": "patrols_placed"}), (0, {"type": "kill", "circle": "65"})]
    first = run(hell(night_steps=to_kill), [
        (0, {"type": "move", "circle": "66"}),
        (TABLE, {"type": "search", "policeman": "blue", "circle": "150"}),
        (TABLE, {"type": "end_turn"}),
        (0, {"type": "coach", "circle": "69", "circle2": "56"})])
    second = run(hell(night_steps=to_kill), [
        (0, {"type": "move", "circle": "64"}),
        (TABLE, {"type": "search", "policeman": "blue", "circle": "150"}),
        (TABLE, {"type": "end_turn"}),
        (0, {"type": "coach", "circle": "11", "circle2": "12"})])
    assert_indistinguishable(app, wc, first, second, NOT_JACK)


def test_rendered_double_event_order_is_indistinguishable(app):
    def night3(order):
        state = hell(night_steps=[(TABLE, {"type": "patrols_placed"}),
                                  (0, {"type": "kill", "circle": "65"}),
                                  (0, {"type": "escape"})])
        state = run(state, [(0, {"type": "women", "circles": "3 21 27 84"}),
                            (TABLE, {"type": "patrols_placed"}),
                            (0, {"type": "kill", "circle": "84"}),
                            (0, {"type": "escape"}),
                            (0, {"type": "women", "circles": "3 21 27"}),
                            (TABLE, {"type": "patrols_placed"})])
        return run(state, [(0, {"type": "kill", "circle": order[0], "circle2": order[1]})])

    assert_indistinguishable(app, wc, night3(("27", "3")), night3(("3", "27")), NOT_JACK)


def test_rendered_night_with_two_hideouts_step_by_step(app):
    """The same public night, played from two hideouts: every step looks the same."""
    steps = [(0, {"type": "women", "circles": "3 21 27 65 84"}),
             (TABLE, {"type": "patrols_placed"}),
             (0, {"type": "wait"}),
             (TABLE, {"type": "wretched_moved"}),
             (0, {"type": "kill", "circle": "100"}),
             (0, {"type": "move", "circle": "101"}),
             (TABLE, {"type": "search", "policeman": "blue", "circle": "100"}),
             (TABLE, {"type": "arrest", "policeman": "red", "circle": "5"}),
             (TABLE, {"type": "end_turn"}),
             (0, {"type": "alley", "circle": "120"}),
             (TABLE, {"type": "end_turn"}),
             (2, {"type": "no_legal_move"}),
             (0, {"type": "deny_trapped"})]
    first = run(fresh(), [(0, {"type": "hideout", "circle": "90"})])
    second = run(fresh(), [(0, {"type": "hideout", "circle": "33"})])
    for state_a, state_b in play_both(wc, first, second, steps):
        assert_indistinguishable(app, wc, state_a, state_b, NOT_JACK)


def test_jacks_page_in_the_open_is_the_same_whatever_his_secrets(app):
    """Without a board: what Jack's phone shows before he holds the peek."""
    to_kill = [(TABLE, {"type": "patrols_placed"}), (0, {"type": "kill", "circle": "65"})]
    first = run(hell("90", night_steps=to_kill), [(0, {"type": "move", "circle": "66"})])
    second = run(hell("12", night_steps=to_kill), [(0, {"type": "move", "circle": "64"})])
    pages = [render_component(app, wc, state, 0) for state in (first, second)]
    assert "data-location" in pages[0] and pages[0] != pages[1]
    assert at_rest(pages[0]) == at_rest(pages[1])
    # Standing on his own hideout (a plain move onto it) looks like standing anywhere.
    on_hideout, elsewhere = (run(state, [(TABLE, {"type": "end_turn"}),
                                         (0, {"type": "move", "circle": circle}),
                                         (TABLE, {"type": "end_turn"})])
                             for state, circle in ((first, "90"), (second, "70")))
    assert wc.actions(on_hideout, 0) == wc.actions(elsewhere, 0)
    pages = [render_component(app, wc, state, 0) for state in (on_hideout, elsewhere)]
    assert 'value="escape"' in pages[0]
    assert at_rest(pages[0]) == at_rest(pages[1])
