"""Wo ist Jack the Ripper through the Flask client: the setup form and the laptop's
deck, the start player, printing (announced, a window for Druckmaschine defekt, then
printed), the action cards, every refusal, a full game to the score, and
non-interference of the hidden story deck on the rendered pages."""

from __future__ import annotations

import copy
import html
import random
from types import SimpleNamespace

import pytest

from companion import tables
from companion.games import wo_ist_jack as game
from companion.games.base import TABLE
from tests.support.hidden import deal_again
from tests.support.noninterference import assert_indistinguishable, play_both, same_answer
from tests.support.webflow import Device, create_table, seated_table, state_of

NAMES = ["Ann", "Bob", "Cy"]
FORM = game.form_from(game.default_options())


class Clock:
    """The laptop's clock (app.config["CLOCK"]), moved on by hand."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(autouse=True)
def clock(app) -> Clock:
    app.config["CLOCK"] = Clock()
    return app.config["CLOCK"]


def new_table(app, names=NAMES, start: int | None = 0, **changes):
    laptop, phones = seated_table(app, game.NAME, names, **{**FORM, **changes})
    if start is not None:
        assert laptop.table_act("start_player", seat=start).status_code == 303
    return laptop, phones


def text(response) -> str:
    return html.unescape(response.text)


def refused(laptop, response, status: int, message: str) -> None:
    """A refusal: the right status, the message on the page, and nothing changed."""
    assert response.status_code == status, response.text
    assert message in text(response)


def announce(app, laptop, phones, points=3):
    """The active reporter taps Print: every phone is told it is about to be printed."""
    state = state_of(app, laptop.code)
    return phones[state["active"]].act("print", story=state["current"], points=points)


def print_current(app, laptop, phones, points=3):
    """Announced, then printed as every other reporter lets it print."""
    response = announce(app, laptop, phones, points)
    if response.status_code != 303:
        return response
    printer = state_of(app, laptop.code)["active"]
    for seat, phone in enumerate(phones):
        if seat != printer:
            assert phone.act("pass").status_code == 303
    return response


# --- the setup form ----------------------------------------------------------

def test_the_new_table_form_sends_to_the_laptops_deck(app):
    page = Device(app).get(f"/new/{game.NAME}")
    assert page.status_code == 200
    body = text(page)
    assert 'name="stories"' not in body, "the names are typed once, on the decks page"
    assert "not named yet" in body and f'href="/decks/{game.NAME}"' in body
    assert "chosen at the table" in body


def test_a_new_table_takes_the_laptops_deck_not_names_posted_with_it(app):
    names = list(game.DEFAULT_STORIES)
    names[4] = "Mary Kelly tot = 4"
    assert Device(app).post(f"/decks/{game.NAME}",
                            {"stories": "\n".join(names)}).status_code == 303
    assert "named on this laptop" in text(Device(app).get(f"/new/{game.NAME}"))
    laptop = create_table(app, game.NAME, 4, stories="Anything\nelse")
    options = state_of(app, laptop.code) or {}
    with app.app_context():
        from companion.db import get_db

        table = tables.get_table(get_db(), laptop.code)
    assert table["options"]["story_names"][4] == "Mary Kelly tot"
    assert table["options"]["story_points"] == {"Mary Kelly tot": 4}
    assert options is not None


# --- playing -----------------------------------------------------------------

def test_the_table_chooses_the_start_player_first(app):
    laptop, phones = new_table(app, start=None)
    screen = text(laptop.screen())
    assert "Who starts?" in screen and "data-choose-start" in screen
    assert "Who starts?" in text(phones[1].phone())
    before = laptop.version()
    refused(laptop, phones[0].act("end_turn"), 422, "First choose the start player")
    refused(laptop, laptop.table_act("start_player", seat=7), 422,
            "“7” is not a start player")
    assert laptop.version() == before
    assert phones[2].act("start_player", seat=1).status_code == 303
    assert state_of(app, laptop.code)["active"] == 1
    screen = text(laptop.screen())
    assert "Bob's turn" in screen and "data-choose-start" not in screen


def test_the_screens_show_current_and_next_but_not_the_deck(app):
    laptop, phones = new_table(app)
    state = state_of(app, laptop.code)
    for page in (laptop.screen(), *(phone.phone() for phone in phones)):
        assert page.status_code == 200
        body = text(page)
        assert state["current"] in body and state["next"] in body
        for hidden in state["deck"]:
            assert hidden not in body
    screen = text(laptop.screen())
    assert "Polizei tappt im Dunkeln" in screen, "the 3-player removals are listed"
    assert f"{len(state['deck'])} face-down" in screen


def test_printing_is_announced_then_printed_and_the_others_told_to_take_back(app, clock):
    laptop, phones = new_table(app)
    state = state_of(app, laptop.code)
    phone_page = text(phones[0].phone())
    assert "data-print-form" in phone_page and f"Print “{state['current']}”" in phone_page
    assert "data-print-form" not in text(phones[1].phone())
    assert announce(app, laptop, phones, 4).status_code == 303
    # About to print: on every screen, the other phones may stop it or let it print.
    story = state["current"]
    for page in [text(laptop.screen())] + [text(phone.phone()) for phone in phones]:
        assert f"Ann is about to print “{story}”" in page
        assert f"printed within {game.PRINT_WINDOW_SECONDS} seconds" in page
    mine = text(phones[0].phone())
    assert "You are about to print" in mine and "data-pass" not in mine
    assert f'hx-trigger="load delay:{game.PRINT_WINDOW_SECONDS}s"' in mine
    for seat in (1, 2):
        page = text(phones[seat].phone())
        assert "data-pass" in page and "data-druckmaschine" in page
        assert 'data-mine="yes"' in page and "load delay" not in page
    clock.now += 3
    assert phones[1].act("pass").status_code == 303
    assert state_of(app, laptop.code)["printed"] == []
    assert "once Cy lets it print" in text(laptop.screen())
    assert phones[2].act("pass").status_code == 303
    after = state_of(app, laptop.code)
    assert after["current"] == state["next"] and after["next"] == state["deck"][0]
    screen = text(laptop.screen())
    assert f"Ann printed “{story}” for 4 points." in screen
    # The answer stands at the top of every screen, under the now line of the phones.
    for page in [screen] + [text(phone.phone()) for phone in phones]:
        component = page[page.index('class="wij"'):]
        assert component.index("data-now") < component.index("data-answer")
        assert f"<b>Ann</b> printed “{story}” for 4 points." in component
    for seat in (1, 2):
        page = text(phones[seat].phone())
        assert "Take one of your melded Research cards back" in page
        assert "data-took-back" not in page, "said, never asked back"
    assert "melded Research cards back" not in text(phones[0].phone())
    assert phones[0].act("end_turn").status_code == 303
    assert "data-answer" not in text(laptop.screen())


def test_the_window_ends_by_its_stored_deadline(app, clock):
    laptop, phones = new_table(app)
    assert announce(app, laptop, phones, 4).status_code == 303
    version = laptop.version()
    refused(laptop, phones[0].act("settle"), 422, "Wait a few seconds")
    refused(laptop, phones[0].act("end_turn"), 422, "Wait a few seconds")
    assert laptop.version() == version
    clock.now += game.PRINT_WINDOW_SECONDS
    assert 'hx-trigger="load delay:0s"' in text(phones[0].phone())
    assert phones[0].act("settle").status_code == 303
    assert state_of(app, laptop.code)["printed"][0]["points"] == 4


def test_a_phone_asking_again_in_the_window_is_told_the_seconds_left_now(app, clock):
    """A page is drawn once per table version (web/page_cache.py), but the printer's page
    sends the end of the window after the seconds left when it was drawn: asked again
    (a reload, a phone back from sleep), it must count from now, not from the first
    drawing, or the print waits on a phone that was put away."""
    laptop, phones = new_table(app)
    assert announce(app, laptop, phones, 4).status_code == 303
    assert f'hx-trigger="load delay:{game.PRINT_WINDOW_SECONDS}s"' in text(phones[0].phone())
    clock.now += 5
    assert f'hx-trigger="load delay:{game.PRINT_WINDOW_SECONDS - 5}s"' in text(phones[0].phone())
    clock.now += game.PRINT_WINDOW_SECONDS
    assert 'hx-trigger="load delay:0s"' in text(phones[0].phone())


def test_a_posted_clock_is_never_the_laptops(app, clock):
    laptop, phones = new_table(app)
    assert announce(app, laptop, phones, 4).status_code == 303
    refused(laptop, phones[0].act("settle", clock="99999999999"), 422, "Wait a few seconds")


def test_a_known_value_is_not_asked_again(app):
    names = [f"{name} = 3" for name in game.DEFAULT_STORIES]
    assert Device(app).post(f"/decks/{game.NAME}",
                            {"stories": "\n".join(names)}).status_code == 303
    laptop, phones = new_table(app)
    page = text(phones[0].phone())
    assert 'name="points"' not in page and "Print the story (3 points)" in page
    state = state_of(app, laptop.code)
    assert phones[0].act("print", story=state["current"]).status_code == 303
    assert state_of(app, laptop.code)["about_to_print"]["points"] == 3


def test_simultaneous_passes_both_stand(app):
    laptop, phones = new_table(app)
    assert announce(app, laptop, phones, 4).status_code == 303
    seen = laptop.version()
    assert phones[1].act("pass", version=seen).status_code == 303
    assert phones[2].act("pass", version=seen).status_code == 303
    assert state_of(app, laptop.code)["printed"][0]["seat"] == 0


@pytest.mark.parametrize(("points", "message"), [
    ("-2", "between 1 and 15; -2 is not"), ("0", "between 1 and 15; 0 is not"),
    ("100", "between 1 and 15; 100 is not"), ("drei", "whole number"),
    ("", "Please enter the point value"), ("9" * 50, "between 1 and 15"),
])
def test_bad_point_values_are_refused_and_change_nothing(app, points, message):
    laptop, phones = new_table(app)
    before = laptop.version()
    refused(laptop, print_current(app, laptop, phones, points), 422, message)
    assert laptop.version() == before


def test_printing_out_of_turn_and_stale_or_doubled_prints_are_refused(app):
    laptop, phones = new_table(app)
    state = state_of(app, laptop.code)
    before = laptop.version()
    refused(laptop, phones[1].act("print", story=state["current"], points=3), 422,
            "It is Ann's turn: only the active reporter can print a story.")
    refused(laptop, laptop.table_act("print", story=state["current"], points=3), 422,
            "Ann prints the story on their own phone.")
    refused(laptop, phones[0].act("print", story=state["current"], points=3, version=before - 1),
            409, "")
    assert laptop.version() == before
    assert print_current(app, laptop, phones).status_code == 303
    after = laptop.version()
    # The same print again (say a double tap that raced the version): the story is gone.
    refused(laptop, phones[0].act("print", story=state["current"], points=3), 422,
            "is not the current story")
    assert laptop.version() == after


def test_turns_u_haft_and_reporterteam_from_the_table_and_the_phones(app):
    laptop, phones = new_table(app)
    refused(laptop, phones[1].act("end_turn"), 422, "It is Ann's turn, not yours")
    assert laptop.table_act("u_haft", target=2).status_code == 303
    screen = text(laptop.screen())
    assert "Reporter in U-Haft" in screen and "Reporter in Detention" in screen
    assert "Cy loses their next turn." in screen
    detained = text(phones[2].phone())
    assert "Cy loses their next turn." in detained
    top = detained[detained.index("data-now"):detained.index("</section>",
                                                             detained.index("data-now"))]
    assert "You are in U-Haft (Reporter in Detention): you lose your next turn." in top
    assert "You are in U-Haft" not in text(phones[1].phone())
    assert phones[0].act("end_turn").status_code == 303
    assert phones[1].act("reporterteam").status_code == 303
    assert "Bob has one extra investigation from their next turn" in text(laptop.screen())
    assert laptop.table_act("end_turn").status_code == 303
    state = state_of(app, laptop.code)
    assert state["active"] == 0, "Cy lost the turn"
    screen = text(laptop.screen())
    assert "Cy is in U-Haft and loses this turn." in screen
    assert "Cy loses their next turn." not in screen
    refused(laptop, phones[0].act("reporterteam"), 422, "already lies in front of Bob")
    assert phones[0].act("end_turn").status_code == 303
    assert "Bob's turn: 3 investigations" in text(laptop.screen())
    assert "Your turn: 3 investigations" in text(phones[1].phone())


def now_of(page: str) -> str:
    """The now line of a page: its first section, what the first 150 px show."""
    start = page.index("data-now")
    return page[start:page.index("</section>", start)]


def test_one_action_a_turn_and_the_buttons_follow(app):
    """Course of the Game, Action: one Action a turn (docs/RULINGS.md#wo-ist-jack-the-ripper,
    "One Action a turn"): Ann's Reporterteam, then U-Haft, is refused with the rule, and
    neither the phone nor the table screen offers a second card."""
    laptop, phones = new_table(app)
    page = text(phones[0].phone())
    assert "data-u-haft" in page and "data-reporterteam" in page
    assert "One Action a turn: play one of these" in page
    assert phones[0].act("reporterteam").status_code == 303
    version = laptop.version()
    for device in ("phone", "table"):
        response = (phones[0].act("u_haft", target=2) if device == "phone"
                    else laptop.table_act("u_haft", target=2))
        refused(laptop, response, 422, "Ann has already played Reporterteam this turn: each "
                                       "turn has one Action (play an Action card or draw "
                                       "one), no more.")
    assert laptop.version() == version
    page = text(phones[0].phone())
    assert "data-u-haft" not in page and "data-reporterteam" not in page
    assert "data-end-turn" in page and "data-print-form" in page
    assert ("Your Action this turn: Reporterteam. No other Action card, nor a draw, until "
            "your next turn.") in page
    assert "the action is done (Reporterteam)" in now_of(page)
    screen = text(laptop.screen())
    assert 'value="u_haft"' not in screen and 'value="reporterteam"' not in screen
    assert "Ann's Action this turn: Reporterteam." in screen
    assert phones[0].act("end_turn").status_code == 303
    assert "data-u-haft" in text(phones[1].phone()), "Bob's turn has its own Action"


def test_the_reporter_in_u_haft_reads_that_he_loses_this_turn_at_the_top(app):
    laptop, phones = new_table(app)
    assert phones[0].act("u_haft", target=1).status_code == 303
    assert phones[0].act("end_turn").status_code == 303
    assert state_of(app, laptop.code)["active"] == 2, "Bob's turn is lost"
    assert "U-Haft: you lose this turn. It is Cy's turn." in now_of(text(phones[1].phone()))
    for seat in (0, 2):
        assert "you lose this turn" not in text(phones[seat].phone())
    assert phones[2].act("end_turn").status_code == 303
    assert "you lose this turn" not in text(phones[1].phone())


def test_a_phone_that_is_not_the_host_cannot_act_for_the_table(app):
    laptop, phones = new_table(app)
    before = laptop.version()
    response = phones[1].table_act("end_turn")
    assert response.status_code in (403, 404)
    assert laptop.version() == before


def test_a_full_game_to_the_reporter_of_the_year(app):
    laptop, phones = new_table(app, ["Ann", "Bob"])
    # 2 players, 8 stories: Ann prints 5 for 1 point, Bob 3 for 2 points.
    script = [0, 1, 0, 1, 0, 1, 0, 0]
    points = {0: 1, 1: 2}
    for seat in script:
        for _ in range(3):
            state = state_of(app, laptop.code)
            if state["active"] == seat and "print" in game.actions(state, seat):
                break
            assert phones[state["active"]].act("end_turn").status_code == 303
        assert print_current(app, laptop, phones, points[seat]).status_code == 303
    screen = text(laptop.screen())
    assert "Ann is the Reporter of the Year with 7 points!" in screen
    assert "Ann printed the most stories (5) and gets +2 story points." in screen
    assert "Who printed what" in screen
    for phone in phones:
        assert "Ann is the Reporter of the Year with 7 points!" in text(phone.phone())
    # A story after the end.
    response = phones[0].act("print", story=game.DEFAULT_STORIES[4], points=3)
    assert response.status_code == 409 and "This game is over." in text(response)
    assert "data-print-form" not in text(phones[0].phone())


# --- non-interference on the rendered pages ---------------------------------

def dealt(count: int, seed: int = 5) -> dict:
    names = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"][:count]
    state = game.setup(game.default_options(), names, random.Random(seed))
    return game.apply(state, TABLE, {"type": "start_player", "seat": "0"}, random.Random(0))


CLOCK = str(1_000_000.0)
AFTER = str(1_000_000.0 + game.PRINT_WINDOW_SECONDS)

# Ben loses a turn to U-Haft (his phone says so at its top), the next reporter plays her
# turn's Action from the table screen (every page says it is done).
STEPS = [
    (0, {"type": "u_haft", "target": "1"}),
    (0, {"type": "end_turn"}),
    (TABLE, {"type": "reporterteam"}),
    (TABLE, {"type": "end_turn"}),
]


@pytest.mark.parametrize("count", [2, 3, 4, 6])
def test_nobody_can_tell_the_hidden_story_deck_order(app, count):
    state = dealt(count)
    twin = copy.deepcopy(state)
    twin["deck"].reverse()
    assert twin["deck"] != state["deck"]
    viewers = [TABLE, *range(count)]
    for first, second in play_both(game, state, twin, STEPS):
        assert_indistinguishable(app, game, first, second, viewers)


def test_nobody_can_tell_the_deck_order_beyond_what_printing_turned(app):
    state = dealt(4)
    twin = copy.deepcopy(state)
    twin["deck"][2:] = reversed(twin["deck"][2:])
    # The story field names the face-up cards, which both games share.
    current = [state["current"], state["next"]]
    steps = [(0, {"type": "print", "story": current[0], "points": "3", "clock": CLOCK}),
             (1, {"type": "pass", "clock": CLOCK}),
             (0, {"type": "settle", "clock": AFTER}),
             (0, {"type": "print", "story": current[1], "points": "2", "clock": CLOCK}),
             (2, {"type": "druckmaschine", "clock": CLOCK}),
             (0, {"type": "end_turn"})]
    for first, second in play_both(game, state, twin, steps):
        assert_indistinguishable(app, game, first, second, [TABLE, 0, 1, 2, 3])


# --- Druckmaschine defekt ------------------------------------------------------
# Action Cards: "he cannot print his story this round! (This card can be played at any
# time on another player as he is about to print.)"

def test_druckmaschine_defekt_on_the_reporter_about_to_print(app):
    laptop, phones = new_table(app)
    assert "data-druckmaschine" not in phones[1].phone().text, "only as he is about to print"
    assert announce(app, laptop, phones).status_code == 303
    assert "data-druckmaschine" in phones[1].phone().text
    assert "data-druckmaschine" not in phones[0].phone().text, "not on yourself"
    assert phones[2].act("druckmaschine").status_code == 303
    active = text(phones[0].phone())
    assert "data-print-form" not in active and "data-about-to-print" not in active
    assert "Your printing press is broken (Druckmaschine defekt)" in active
    for page in (active, text(laptop.screen()), text(phones[1].phone())):
        assert 'data-marker="Druckmaschine defekt"' in page
        assert "Ann's printing press is broken" in page
    version = laptop.version()
    refused(laptop, announce(app, laptop, phones), 422,
            "“he cannot print his story this round!”")
    refused(laptop, phones[1].act("druckmaschine"), 422, "when the app says so")
    assert laptop.version() == version
    assert phones[0].act("end_turn").status_code == 303
    assert print_current(app, laptop, phones).status_code == 303  # Bob's press works


def test_the_table_screen_enters_druckmaschine_defekt_for_a_player(app):
    laptop, phones = new_table(app)
    assert 'value="druckmaschine"' not in laptop.screen().text
    assert announce(app, laptop, phones).status_code == 303
    screen = laptop.screen().text
    assert 'value="druckmaschine"' in screen and 'name="by"' in screen
    refused(laptop, laptop.table_act("druckmaschine", by=0), 422, "not a reporter who plays")
    assert laptop.table_act("druckmaschine", by=1).status_code == 303
    assert "Bob plays Druckmaschine defekt on Ann" in text(laptop.screen())


# --- refusals: in the open, and the same whatever the story deck ----------------------

def test_no_reporter_holds_a_secret_so_refusals_are_said_in_the_open(app):
    """The face-down story deck is hidden from everyone alike: no seat holds a secret of
    its own, so a phone's refusal names its reason at the top
    (docs/RULINGS.md#wo-ist-jack-the-ripper, "The story deck")."""
    laptop, phones = new_table(app)
    state = state_of(app, laptop.code)
    assert all("private_refusals" not in game.view(state, seat) for seat in range(3))
    response = phones[1].act("end_turn")
    assert response.status_code == 422
    assert '<p class="error" role="alert" data-error>It is Ann' in text(response)


def hide_otherwise(app, first: str, second: str) -> None:
    """The second table's face-down stories become the first's, all but the top one in
    reverse: the next print turns the same story at both, the rest differs. Both tables
    are dealt again (the first its own deck), so that their logs stay alike."""
    db = SimpleNamespace(db=app.config["DATABASE"])
    mine, theirs = state_of(app, first), state_of(app, second)
    assert sorted(theirs["deck"]) == sorted(mine["deck"])
    deal_again(db, first, mine)
    deal_again(db, second, {**theirs, "deck": mine["deck"][:1] + mine["deck"][1:][::-1]})


# (seat or TABLE, action, a part of the refusal; None: accepted), three reporters.
REFUSALS = [
    (0, {"type": "print", "story": game.DEFAULT_STORIES[6], "points": "3"},
     "is not the current story"),
    (0, {"type": "print", "points": "40"}, "between 1 and 15; 40 is not"),
    (1, {"type": "print", "points": "3"}, "only the active reporter can print"),
    (0, {"type": "u_haft", "target": "0"}, "cannot put themselves in U-Haft"),
    (1, {"type": "druckmaschine"}, "when the app says so"),
    (2, {"type": "pass"}, "Nobody is about to print"),
    (TABLE, {"type": "start_player", "seat": "1"}, "already chosen"),
    (0, {"type": "print", "points": "4"}, None),
    (0, {"type": "druckmaschine"}, "never on yourself"),
    (0, {"type": "end_turn"}, "Wait a few seconds"),
    (1, {"type": "pass"}, None),
    (2, {"type": "pass"}, None),
    (0, {"type": "print", "points": "2"}, None),
    (1, {"type": "pass"}, None),
    (2, {"type": "pass"}, None),
    (0, {"type": "print", "points": "5"}, "used all 2 investigations"),
    (1, {"type": "reporterteam"}, "not yours"),
    (0, {"type": "end_turn"}, None),
    (1, {"type": "print", "points": "3"}, None),
    (2, {"type": "druckmaschine"}, None),
    (1, {"type": "print", "points": "3"}, "cannot print his story this round"),
]


@pytest.mark.parametrize("htmx", [False, True])
def test_a_refused_action_reads_the_same_whatever_the_story_deck(app, htmx):
    """Two tables, the same names and actions, the face-down stories in another order:
    every refused action's page is the same, byte for byte."""
    tables_ = [new_table(app) for _ in range(2)]
    # The second table is dealt the first's game, to begin with (both, for their logs).
    for laptop, _phones in tables_:
        deal_again(SimpleNamespace(db=app.config["DATABASE"]), laptop.code,
                   state_of(app, tables_[0][0].code))
    headers = {"HX-Request": "true"} if htmx else {}
    for actor, action, reason in REFUSALS:
        hide_otherwise(app, tables_[0][0].code, tables_[1][0].code)
        # The same current story at both tables: a print names it.
        current = state_of(app, tables_[0][0].code)["current"]
        story = {"story": current} if action["type"] == "print" else {}
        first = same_answer(tables_, actor, {**story, **action}, headers)
        if reason is None:
            assert first is None, action
        else:
            assert reason in text(first)
    decks = [state_of(app, laptop.code)["deck"] for laptop, _phones in tables_]
    assert decks[0] != decks[1] and sorted(decks[0]) == sorted(decks[1])
