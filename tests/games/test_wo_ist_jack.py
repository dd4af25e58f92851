"""Wo ist Jack the Ripper: rulebook sequences, every refusal, full games to each outcome.

Rulebook: "Wo ist Jack the Ripper"; rulings: docs/RULINGS.md#wo-ist-jack-the-ripper.
"""

from __future__ import annotations

import copy
import json
import random
import re

import pytest

from companion.games import discover
from companion.games import wo_ist_jack as game
from companion.games.base import TABLE, RuleError

NAMES = ["Anna", "Ben", "Cleo", "Dora", "Emil", "Fritz"]


def new_game(count: int = 3, seed: int = 1, start: int | None = 0, **form: str) -> dict:
    """A game set up the way the web layer does it: defaults -> form -> options -> setup,
    then (unless ``start`` is None) the table names the start player."""
    fields = {**game.form_from(game.default_options()), **form}
    options = game.parse_options(fields, count)
    state = game.setup(options, NAMES[:count], random.Random(seed))
    return state if start is None else act(state, TABLE, type="start_player", seat=str(start))


def act(state: dict, actor, **action: str) -> dict:
    return game.apply(state, actor, action, random.Random(0))


def refused(state: dict, actor, match: str, **action: str) -> RuleError:
    """Assert the action is refused with a message matching ``match`` and nothing changed."""
    before = copy.deepcopy(state)
    with pytest.raises(RuleError, match=match) as caught:
        game.apply(state, actor, action, random.Random(0))
    assert state == before
    return caught.value


CLOCK = 1_000_000.0
"""The laptop's clock (seconds) at each announced print of these tests."""
AFTER = str(CLOCK + game.PRINT_WINDOW_SECONDS)
"""The clock once the window to play Druckmaschine defekt has run out."""


def announce(state: dict, points: int | str | None = None) -> dict:
    """The active reporter taps Print: the story is announced, not printed yet."""
    action = {"type": "print", "story": state["current"], "clock": str(CLOCK)}
    if points is not None:
        action["points"] = str(points)
    return game.apply(state, state["active"], action, random.Random(0))


def print_current(state: dict, points: int | str | None = None) -> dict:
    """Announced, then printed once nobody played Druckmaschine defekt in the window."""
    return act(announce(state, points), state["active"], type="settle", clock=AFTER)


def end_turn(state: dict) -> dict:
    return act(state, state["active"], type="end_turn")


def turn_to(state: dict, seat: int) -> dict:
    """End turns until ``seat`` is the active reporter with an investigation left."""
    for _ in range(2 * len(state["players"]) + 1):
        if state["active"] == seat and "print" in game.actions(state, seat):
            return state
        state = end_turn(state)
    raise AssertionError(f"seat {seat} never became active")


def play(state: dict, script: list[tuple[int, int]]) -> dict:
    """Each (seat, points): that reporter prints the current story for that value."""
    for seat, points in script:
        state = print_current(turn_to(state, seat), points)
    return state


def in_play(count: int) -> set[str]:
    return set(game.DEFAULT_STORIES) - set(game.REMOVED_STORIES.get(count, ()))


# --- registry and options --------------------------------------------------

def test_registered_with_its_protocol():
    assert discover()[game.NAME] is game
    assert game.NAME == "wo_ist_jack"
    assert game.TITLE == "Wo ist Jack the Ripper"
    assert (game.MIN_PLAYERS, game.MAX_PLAYERS) == (2, 6)
    assert game.MIN_PLAYERS <= game.DEFAULT_PLAYERS <= game.MAX_PLAYERS
    assert not game.FIXED_SEATS
    assert game.seat_labels(4, game.default_options()) == [
        "Reporter 1", "Reporter 2", "Reporter 3", "Reporter 4"]


def test_default_options_are_the_rulebook_story_cards():
    options = game.default_options()
    names = options["story_names"]
    assert len(names) == len(set(names)) == 12
    for rulebook_name in ("Polizei tappt im Dunkeln", "Annie ermordet aufgefunden",
                          "Ist der Ripper in Amerika?", "Mordserie nimmt kein Ende"):
        assert rulebook_name in names
    assert options == {"story_names": list(game.DEFAULT_STORIES), "story_points": {}}
    assert game.default_options() is not game.default_options()


@pytest.mark.parametrize("count", range(2, 7))
def test_default_options_round_trip_through_the_form(count):
    options = game.default_options()
    form = game.form_from(options)
    assert set(form) == {"stories"}
    assert all(isinstance(value, str) for value in form.values())
    assert game.parse_options(form, count) == options


def test_the_form_survives_remembered_options_of_an_older_version():
    form = game.form_from({"first_reporter": "1"})
    assert game.parse_options(form, 4) == game.default_options()


def test_renamed_stories_and_known_values_round_trip():
    form = {"stories": "\n".join([
        "  Polizei tappt im Dunkeln = 3 ", "Annie ermordet aufgefunden=2",
        "Ist der Ripper in Amerika? = 5", "Mordserie nimmt kein Ende",
        "Doppelmord in Whitechapel = 4", "Brief an die Central News",
        "Der Ripper schreibt: From Hell = 6", "Mary Kelly tot", "Leather Apron verhaftet?",
        "", "Ein Messer im Hinterhof", "Bloodhounds on the trail", "Der Lusk-Brief = 1"]),
        "csrf": "abc", "players": "5"}
    options = game.parse_options(form, 5)
    assert options["story_names"][0] == "Polizei tappt im Dunkeln"
    assert options["story_names"][4] == "Doppelmord in Whitechapel"
    assert options["story_points"] == {
        "Polizei tappt im Dunkeln": 3, "Annie ermordet aufgefunden": 2,
        "Ist der Ripper in Amerika?": 5, "Doppelmord in Whitechapel": 4,
        "Der Ripper schreibt: From Hell": 6, "Der Lusk-Brief": 1}
    assert set(options) == {"story_names", "story_points"}, "other posted fields are ignored"
    assert game.parse_options(game.form_from(options), 5) == options


def with_story_line(index: int, line: str) -> dict[str, str]:
    names = list(game.DEFAULT_STORIES)
    names[index] = line
    return {"stories": "\n".join(names)}


@pytest.mark.parametrize(("form", "match"), [
    ({"stories": "\n".join(game.DEFAULT_STORIES[:11])},
     r"exactly 12 story cards.*11 given"),
    ({"stories": "\n".join([*game.DEFAULT_STORIES, "Story 13"])},
     r"exactly 12 story cards.*13 given"),
    ({}, r"exactly 12 story cards.*0 given"),
    (with_story_line(11, game.DEFAULT_STORIES[4]), "must all be different"),
    (with_story_line(11, "x" * 61), "at most 60 characters"),
    (with_story_line(0, "Polizei tappt im Dunkel"), "must include “Polizei tappt im Dunkeln”"),
    (with_story_line(3, "Story 13"), "must include “Mordserie nimmt kein Ende”"),
    (with_story_line(5, "Story 6 = -2"), r"between 1 and 15; -2 is not"),
    (with_story_line(5, "Story 6 = 0"), r"between 1 and 15; 0 is not"),
    (with_story_line(5, "Story 6 = 16"), r"between 1 and 15; 16 is not"),
    (with_story_line(5, "Story 6 = " + "9" * 40), r"between 1 and 15"),
    (with_story_line(5, "Story 6 = drei"), "whole number, not “drei”"),
    (with_story_line(5, "Story 6 = 2.5"), "whole number"),
    (with_story_line(5, "= 4"), "needs its name before the “=”"),
    (with_story_line(5, "a = b = 4"), "cannot contain “=”"),
    (with_story_line(5, "a=b ="), "cannot contain “=”"),
])
def test_bad_setup_forms_are_refused_clearly(form, match):
    with pytest.raises(RuleError, match=match):
        game.parse_options(form, 3)


@pytest.mark.parametrize("count", [0, 1, 7, 12])
def test_only_two_to_six_reporters(count):
    form = game.form_from(game.default_options())
    with pytest.raises(RuleError, match="2 to 6 reporters"):
        game.parse_options(form, count)
    with pytest.raises(RuleError, match="2 to 6 reporters"):
        game.setup(game.default_options(), NAMES[:1] * count, random.Random(1))


def test_a_name_with_an_equals_sign_but_no_value_is_just_a_name():
    options = game.parse_options(with_story_line(6, "Story 7 ="), 4)
    assert "Story 7" in options["story_names"]
    assert "Story 7" not in options["story_points"]


# --- set-up ----------------------------------------------------------------

@pytest.mark.parametrize(("count", "stories"), [(2, 8), (3, 10), (4, 12), (5, 12), (6, 12)])
def test_removals_per_player_count(count, stories):
    state = new_game(count)
    removed = set(game.REMOVED_STORIES.get(count, ()))
    dealt = [state["current"], state["next"], *state["deck"]]
    assert len(dealt) == stories == state["stories_in_play"]
    assert set(dealt) == in_play(count)
    assert not removed & set(dealt)
    table = game.view(state, TABLE)
    assert [card["name"] for card in table["removed"]] == [
        name for name in game.DEFAULT_STORIES if name in removed]
    assert table["deck_left"] == stories - 2


def test_three_players_remove_exactly_the_two_named_cards():
    state = new_game(3)
    dealt = {state["current"], state["next"], *state["deck"]}
    assert "Polizei tappt im Dunkeln" not in dealt
    assert "Annie ermordet aufgefunden" not in dealt
    assert "Ist der Ripper in Amerika?" in dealt
    assert "Mordserie nimmt kein Ende" in dealt
    assert "these stories are out of the game" in state["log"][0]


def test_two_players_also_remove_amerika_and_mordserie():
    state = new_game(2)
    dealt = {state["current"], state["next"], *state["deck"]}
    assert not dealt & set(game.RULEBOOK_STORIES)
    assert len(dealt) == 8


def test_the_shuffle_comes_from_the_rng_and_the_first_two_are_face_up():
    orders = {tuple([new_game(4, seed).get(key) for key in ("current", "next")]
                    + new_game(4, seed)["deck"]) for seed in range(20)}
    assert len(orders) > 1
    assert new_game(4, 7) == new_game(4, 7)
    state = new_game(4, 7)
    table = game.view(state, TABLE)
    assert table["current"]["name"] == state["current"]
    assert table["next"]["name"] == state["next"]
    assert state["current"] != state["next"]


def test_nobody_plays_until_the_start_player_is_chosen():
    state = new_game(4, start=None)
    assert state["active"] is None
    for viewer in (TABLE, 0, 1, 2, 3):
        assert game.actions(state, viewer) == ["start_player"]
        shown = game.view(state, viewer)
        assert shown["choosing_start"] and shown["active_name"] is None
        assert shown["now"]["text"] == ("Who starts? Choose the start player (for example, "
                                        "the youngest player).")
    refused(state, 0, "First choose the start player", type="print", story=state["current"],
            points="3")
    refused(state, TABLE, "First choose the start player", type="end_turn")
    refused(state, 1, "First choose the start player", type="u_haft", target="2")
    for bad in ("4", "-1", "Anna", "", "1.0"):
        refused(state, TABLE, "start player", type="start_player", seat=bad)
    refused(state, TABLE, "Please choose the start player", type="start_player")


def test_anyone_at_the_table_names_the_start_player():
    state = new_game(4, start=None)
    after = act(state, 3, type="start_player", seat="2")
    assert after["active"] == 2 and after["turn"] == 1
    assert "Cleo is the start player (chosen at the table)." in after["log"]
    shown = game.view(after, TABLE)
    assert not shown["choosing_start"] and shown["active_name"] == "Cleo"
    assert [row["name"] for row in shown["turn_order"]] == ["Cleo", "Dora", "Anna", "Ben"]
    refused(after, TABLE, "The start player is already chosen", type="start_player", seat="0")
    assert "start_player" not in game.actions(after, TABLE)


def test_the_start_player_can_be_drawn_at_random():
    state = new_game(4, start=None)
    starts = {game.apply(state, TABLE, {"type": "start_player", "seat": "random"},
                         random.Random(seed))["active"] for seed in range(30)}
    assert starts == {0, 1, 2, 3}
    drawn = game.apply(state, TABLE, {"type": "start_player", "seat": "random"},
                       random.Random(5))
    assert drawn["log"][-2].endswith("is the start player (drawn at random).")


def test_options_do_not_depend_on_the_seat_count():
    # A table set up for 5 may lose an empty seat before the start.
    options = game.parse_options(game.form_from(game.default_options()), 5)
    state = game.setup(options, NAMES[:4], random.Random(1))
    assert state["stories_in_play"] == 12 and state["players"] == NAMES[:4]
    state = game.setup(options, NAMES[:3], random.Random(1))
    assert state["stories_in_play"] == 10


def test_known_values_are_shown_on_the_face_up_cards():
    form = "\n".join(f"{name} = {index + 1}" for index, name in enumerate(game.DEFAULT_STORIES))
    state = new_game(4, stories=form)
    table = game.view(state, TABLE)
    assert table["current"]["points"] == game.DEFAULT_STORIES.index(state["current"]) + 1
    assert table["next"]["points"] == game.DEFAULT_STORIES.index(state["next"]) + 1


# --- printing --------------------------------------------------------------

def test_printing_moves_next_up_and_turns_a_new_story():
    state = new_game(3)
    current, upcoming, top = state["current"], state["next"], state["deck"][0]
    after = print_current(state, 4)
    assert after["printed"] == [{"story": current, "seat": 0, "points": 4, "turn": 1}]
    assert after["current"] == upcoming
    assert after["next"] == top
    assert after["deck"] == state["deck"][1:]
    assert after["story_points"][current] == 4
    assert after["active"] == 0, "printing is one investigation: the turn goes on"
    table = game.view(after, TABLE)
    assert table["printed"][0] == {"name": current, "gloss": None, "points": 4, "seat": 0,
                                   "by": "Anna"}
    assert table["players"][0]["stories"] == [{"name": current, "gloss": None, "points": 4}]
    assert table["players"][0]["story_points"] == 4
    assert table["current"]["name"] == upcoming
    assert f"Anna printed “{current}” for 4 points." in table["log"]


def test_every_other_reporter_is_told_to_take_back_a_melded_card_and_asked_nothing():
    # Print a Story: "All of the other players must choose one of their melded Research
    # cards to take back into the hand (if they have any)": said, never asked back.
    state = print_current(new_game(4), 2)
    assert not game.view(state, 0)["you"]["take_back"]
    for seat in (1, 2, 3):
        assert game.view(state, seat)["you"]["take_back"]
        assert game.actions(state, seat) == []
    refused(state, 1, "That is not something you can do", type="took_back")
    state = end_turn(state)
    assert not any(game.view(state, seat)["you"]["take_back"] for seat in range(4))


def test_the_last_print_asks_nobody_to_take_a_card_back():
    state = play(new_game(2), [(0, 3)] * 8)
    assert game.is_over(state)
    assert not game.view(state, 1)["you"]["take_back"]


def test_a_print_is_the_answer_until_the_next_action():
    state = print_current(new_game(3), 2)
    printed = state["printed"][0]["story"]
    for viewer in (TABLE, 0, 1, 2):
        assert game.view(state, viewer)["answer"]["name"] == printed
    state = act(state, 0, type="end_turn")
    assert game.view(state, TABLE)["answer"] is None


# --- about to print: the window for Druckmaschine defekt ----------------------

def test_a_print_is_announced_on_every_phone_before_it_is_printed():
    state = announce(new_game(3), 4)
    story = state["current"]
    assert state["printed"] == [] and state["about_to_print"] == {
        "seat": 0, "story": story, "points": 4,
        "deadline": int(CLOCK) + game.PRINT_WINDOW_SECONDS, "passed": []}
    table = game.view(state, TABLE)
    assert table["about_to_print"]["by"] == "Anna"
    assert table["about_to_print"]["waiting_for"] == ["Ben", "Cleo"]
    assert table["now"]["text"] == f"Anna is about to print “{story}”"
    assert game.view(state, 0)["now"]["text"] == f"You are about to print “{story}”"
    for seat in (1, 2):
        now = game.view(state, seat)["now"]
        assert now["text"] == f"Anna is about to print “{story}”" and now["mine"]
        assert game.actions(state, seat) == ["druckmaschine", "settle", "pass"]
    assert game.actions(state, 0) == ["settle"]
    assert game.actions(state, TABLE) == ["druckmaschine", "settle"]
    assert f"Anna is about to print “{story}”." in state["log"]


def test_the_story_prints_once_every_other_reporter_has_passed():
    state = announce(new_game(3), 4)
    story = state["current"]
    state = act(state, 1, type="pass", clock=str(CLOCK + 1))
    assert state["printed"] == [] and state["about_to_print"]["passed"] == [1]
    assert not game.view(state, 1)["now"]["mine"]
    assert game.actions(state, 1) == ["druckmaschine", "settle"]
    assert game.view(state, TABLE)["about_to_print"]["waiting_for"] == ["Cleo"]
    state = act(state, 2, type="pass", clock=str(CLOCK + 2))
    assert state["about_to_print"] is None
    assert state["printed"] == [{"story": story, "seat": 0, "points": 4, "turn": 1}]
    refused(state, 1, "Nobody is about to print", type="pass")


def test_the_window_ends_by_its_deadline_whatever_comes_first():
    state = announce(new_game(3), 4)
    refused(state, 0, "Wait a few seconds: you are about to print", type="settle",
            clock=str(CLOCK + game.PRINT_WINDOW_SECONDS - 1))
    refused(state, 0, "Wait a few seconds", type="end_turn", clock=str(CLOCK + 1))
    refused(state, 1, "Wait a few seconds: Anna is about to print", type="settle",
            clock=str(CLOCK + 1))
    # Anyone's action after the deadline prints the story first (a laptop restarted in
    # between prints it all the same: the deadline is in the state).
    after = act(state, 0, type="end_turn", clock=AFTER)
    assert after["printed"][0]["points"] == 4 and after["active"] == 1
    assert act(state, 2, type="pass", clock=AFTER)["about_to_print"] is None
    late = refused(state, 1, "Too late", type="druckmaschine", clock=AFTER)
    assert "are over" in late.message


def test_only_the_others_pass_and_on_their_own_phones():
    state = announce(new_game(3), 4)
    refused(state, 0, "You are the one printing", type="pass", clock=str(CLOCK))
    refused(state, TABLE, "on their own phone", type="pass", clock=str(CLOCK))
    twice = act(act(state, 1, type="pass", clock=str(CLOCK)), 1, type="pass",
                clock=str(CLOCK))
    assert twice["about_to_print"]["passed"] == [1]


def test_a_print_without_the_laptops_clock_is_refused():
    state = new_game(3)
    refused(state, 0, "clock did not come with the print", type="print",
            story=state["current"], points="3")


def test_a_known_value_need_not_be_typed_again():
    state = new_game(3)
    form = "\n".join(f"{name} = 5" if name == state["current"] else name
                     for name in game.DEFAULT_STORIES)
    state = new_game(3, stories=form)
    you = game.view(state, 0)["you"]
    assert you["print"] == {"story": state["current"], "known_points": 5, "min": 1, "max": 15}
    after = print_current(state)
    assert after["printed"][0]["points"] == 5


def test_a_typed_value_corrects_a_remembered_one():
    state = new_game(3)
    form = "\n".join(f"{name} = 5" if name == state["current"] else name
                     for name in game.DEFAULT_STORIES)
    state = print_current(new_game(3, stories=form), 3)
    assert state["printed"][0]["points"] == 3
    assert state["story_points"][state["printed"][0]["story"]] == 3
    assert "(remembered value was 5)" in state["log"][-2]


def test_values_typed_in_play_are_remembered_for_the_next_game():
    state = print_current(print_current(new_game(4), 2), 6)
    options = game.options_for_next_game(state)
    first, second = (entry["story"] for entry in state["printed"])
    assert options["story_points"] == {first: 2, second: 6}
    assert options["story_names"] == list(game.DEFAULT_STORIES)
    assert game.parse_options(game.form_from(options), 4) == options
    again = game.setup(options, NAMES[:4], random.Random(99))
    assert again["story_points"] == {first: 2, second: 6}


@pytest.mark.parametrize(("points", "match"), [
    ("-1", r"between 1 and 15; -1 is not"),
    ("0", r"between 1 and 15; 0 is not"),
    ("16", r"between 1 and 15; 16 is not"),
    ("1000000000000000000000", r"between 1 and 15"),
    ("vier", "whole number, not “vier”"),
    ("4.5", "whole number"),
    ("", "Please enter the point value"),
    ("   ", "Please enter the point value"),
])
def test_a_negative_absurd_or_missing_value_is_refused(points, match):
    state = new_game(3)
    refused(state, 0, match, type="print", story=state["current"], points=points)


def test_missing_points_field_is_refused():
    state = new_game(3)
    refused(state, 0, "Please enter the point value", type="print", story=state["current"])


def test_printing_out_of_turn_is_refused():
    state = new_game(3)
    for seat in (1, 2):
        refused(state, seat, "It is Anna's turn: only the active reporter can print",
                type="print", story=state["current"], points="3")
    refused(state, TABLE, "Anna prints the story on their own phone",
            type="print", story=state["current"], points="3")


def test_printing_any_story_but_the_current_one_is_refused():
    state = new_game(3)
    refused(state, 0, re.escape(f"“{state['next']}” is not the current story: the current "
                                f"story is “{state['current']}”"), type="print",
            story=state["next"], points="2")
    refused(state, 0, "Please say which story", type="print", points="2")
    stale = print_current(state, 2)
    # A doubled submission of the same print names a story that is gone.
    refused(stale, 0, "is not the current story", type="print", story=state["current"],
            points="2", clock=str(CLOCK))


def test_two_investigations_allow_two_prints_a_turn_not_three():
    state = print_current(print_current(new_game(3), 1), 1)
    assert "print" not in game.actions(state, 0)
    assert game.view(state, 0)["you"]["print"] is None
    assert game.view(state, 0)["now"] == {
        "text": "Your turn: 2 investigations (meld, draw or print) and 1 action.",
        "detail": "No investigation left to print.", "mine": True}
    refused(state, 0, "used all 2 investigations", type="print", story=state["current"],
            points="1", clock=str(CLOCK))
    state = end_turn(end_turn(end_turn(state)))
    assert state["active"] == 0 and "print" in game.actions(state, 0)


# --- turns and the action cards that stay in front of a player --------------

def test_turns_pass_clockwise_and_the_table_screen_can_pass_for_the_reporter():
    state = new_game(4, start=2)
    assert game.view(state, TABLE)["active_name"] == "Cleo"
    seen = []
    for _ in range(5):
        seen.append(state["active"])
        state = end_turn(state)
    assert seen == [2, 3, 0, 1, 2]
    state = act(state, TABLE, type="end_turn")
    assert state["active"] == 0
    table = game.view(state, TABLE)
    assert [row["name"] for row in table["turn_order"]] == ["Anna", "Ben", "Cleo", "Dora"]
    assert [row["active"] for row in table["players"]] == [True, False, False, False]
    assert table["now"]["text"] == ("Anna's turn: 2 investigations (meld, draw or print) and "
                                    "1 action.")
    assert game.view(state, 1)["now"] == {"text": "It is Anna's turn.", "detail": "",
                                          "mine": False}
    assert game.view(state, 0)["now"]["text"].startswith("Your turn: 2 investigations")


def test_ending_someone_elses_turn_is_refused():
    state = new_game(3)
    refused(state, 1, "It is Anna's turn, not yours", type="end_turn")
    refused(state, 2, "It is Anna's turn, not yours", type="u_haft", target="1")
    refused(state, 2, "It is Anna's turn, not yours", type="reporterteam")


def test_reporter_in_u_haft_loses_one_turn_and_is_shown_until_then():
    state = act(new_game(4), 0, type="u_haft", target="2")
    marker = game.view(state, TABLE)["markers"]
    assert marker == [{"card": "Reporter in U-Haft", "gloss": "Reporter in Detention",
                       "seat": 2, "name": "Cleo", "text": "Cleo loses their next turn."}]
    assert game.view(state, TABLE)["players"][2]["u_haft"] == 1
    state = end_turn(state)
    assert state["active"] == 1
    assert game.view(state, 3)["markers"] == marker, "still shown until the turn is lost"
    state = end_turn(state)
    assert state["active"] == 3, "Cleo's turn is lost"
    assert "Cleo is in U-Haft and loses this turn." in state["log"]
    assert game.view(state, TABLE)["markers"] == []
    state = end_turn(end_turn(state))
    assert state["active"] == 1
    state = end_turn(state)
    assert state["active"] == 2, "only one turn is lost"


def test_both_u_haft_cards_on_one_reporter_cost_two_turns():
    # One Action a turn: Anna and Ben each play one U-Haft on Dora, in their own turns.
    state = end_turn(act(new_game(4), 0, type="u_haft", target="3"))
    state = end_turn(act(state, TABLE, type="u_haft", target="3"))
    assert game.view(state, TABLE)["markers"][0]["text"] == "Dora loses their next 2 turns."
    assert state["active"] == 2 and "u_haft" not in game.actions(state, 2)
    refused(state, 2, "Both Reporter in U-Haft cards already lie", type="u_haft", target="1")
    state = end_turn(state)
    assert state["active"] == 0 and state["u_haft"] == [0, 0, 0, 1]
    state = end_turn(end_turn(end_turn(state)))
    assert state["active"] == 0 and state["u_haft"] == [0, 0, 0, 0]
    state = end_turn(end_turn(end_turn(state)))
    assert state["active"] == 3


def test_a_two_player_game_loses_the_turn_to_the_same_reporter_again():
    state = end_turn(act(new_game(2), 0, type="u_haft", target="1"))
    assert state["active"] == 0, "Ben's turn is lost"
    state = end_turn(act(state, 0, type="u_haft", target="1"))
    assert state["active"] == 0 and state["u_haft"] == [0, 0]
    assert end_turn(state)["active"] == 1


# --- one Action a turn ------------------------------------------------------
# Course of the Game, Action: "each player must at some point during his turn perform one
# of the following actions" (play an Action card, or draw one);
# docs/RULINGS.md#wo-ist-jack-the-ripper, "One Action a turn".

ACTION_CARDS = {"u_haft": {"type": "u_haft", "target": "2"},
                "reporterteam": {"type": "reporterteam"}}


@pytest.mark.parametrize("first", sorted(ACTION_CARDS))
@pytest.mark.parametrize("second", sorted(ACTION_CARDS))
@pytest.mark.parametrize("first_by", [0, TABLE])
@pytest.mark.parametrize("second_by", [0, TABLE])
def test_every_pair_of_actions_in_one_turn_is_refused(first, second, first_by, second_by):
    state = act(new_game(3), first_by, **ACTION_CARDS[first])
    card = {"u_haft": "Reporter in U-Haft", "reporterteam": "Reporterteam"}[first]
    error = refused(state, second_by, "Anna has already played", **ACTION_CARDS[second])
    assert error.message == (f"Anna has already played {card} this turn: each turn has one "
                             "Action (play an Action card or draw one), no more.")
    # The buttons follow: nothing offered that would be refused.
    for viewer in (0, TABLE):
        assert not {"u_haft", "reporterteam"} & set(game.actions(state, viewer))
    assert game.view(state, 0)["you"]["u_haft_targets"] == []
    assert game.view(state, TABLE)["turn_action"] == card
    assert game.view(state, 0)["now"]["text"] == (
        f"Your turn: 2 investigations (meld, draw or print); the action is done ({card}).")
    # The rest of the turn goes on: a print, then the end of the turn.
    state = print_current(state, 2)
    assert "print" in game.actions(state, 0)
    state = end_turn(state)
    assert game.view(state, TABLE)["turn_action"] is None


def test_the_next_turn_has_its_own_action():
    state = end_turn(act(new_game(3), 0, type="reporterteam"))
    assert game.actions(state, 1) == ["print", "u_haft", "end_turn"]
    state = act(state, 1, type="u_haft", target="0")
    refused(state, 1, "Ben has already played Reporter in U-Haft this turn", type="u_haft",
            target="2")


def test_druckmaschine_defekt_and_prints_are_not_the_turns_action():
    """Druckmaschine defekt "cannot be played as an action card"; printing is an
    Investigation."""
    state = act(announce(new_game(3), 3), 1, type="druckmaschine", clock=str(CLOCK))
    assert game.actions(state, 0) == ["u_haft", "reporterteam", "end_turn"]
    state = act(state, 0, type="reporterteam")
    assert "reporterteam" in [entry["kind"] for entry in state["cards_played"]]


def test_a_state_saved_before_the_cards_were_kept_plays_its_turn_on():
    state = new_game(3)
    del state["cards_played"]
    state = act(state, 0, type="reporterteam")
    refused(state, 0, "already played Reporterteam", type="u_haft", target="1")


def test_the_reporter_who_loses_the_turn_is_told_at_the_top_of_his_phone():
    state = end_turn(act(new_game(3), 0, type="u_haft", target="1"))
    assert state["active"] == 2, "Ben's turn is lost"
    now = game.view(state, 1)["now"]
    assert now == {"text": "U-Haft: you lose this turn. It is Cleo's turn.", "detail": "",
                   "mine": False}
    assert game.view(state, 0)["now"]["text"] == "It is Cleo's turn."
    # Only while the turn that came in its place is played.
    state = end_turn(state)
    assert game.view(state, 1)["now"]["text"] == "It is Anna's turn."


def test_u_haft_needs_another_reporter():
    state = new_game(3)
    refused(state, 0, "Anna cannot put themselves in U-Haft", type="u_haft", target="0")
    refused(state, TABLE, "Anna cannot put themselves in U-Haft", type="u_haft", target="0")
    for bad in ("3", "-1", "Ben", "", "1.0", "9" * 30):
        refused(state, 0, "not a reporter you can choose here|Please choose the reporter",
                type="u_haft", target=bad)
    refused(state, 0, "Please choose the reporter", type="u_haft")
    assert [target["seat"] for target in game.view(state, 0)["you"]["u_haft_targets"]] == [1, 2]
    assert game.view(state, 1)["you"]["u_haft_targets"] == []


def test_reporterteam_gives_an_extra_investigation_from_the_next_turn_until_a_print():
    state = act(new_game(3), 0, type="reporterteam")
    story = state["current"]
    marker = game.view(state, TABLE)["markers"]
    assert marker == [{"card": "Reporterteam", "gloss": "Reporting Team", "seat": 0,
                       "name": "Anna", "text": "Anna has one extra investigation from their "
                                               f"next turn, until “{story}” is printed."}]
    assert game.view(state, TABLE)["investigations"] == 2, "not in the turn it is played"
    assert "reporterteam" not in game.actions(state, 0)
    state = turn_to(end_turn(state), 0)
    table = game.view(state, TABLE)
    assert table["investigations"] == 3
    assert table["now"]["text"].startswith("Anna's turn: 3 investigations")
    assert table["markers"][0]["text"].startswith("Anna has one extra investigation this turn")
    state = print_current(print_current(state, 2), 2)
    assert "print" in game.actions(state, 0), "3 investigations this turn"
    assert game.view(state, TABLE)["markers"] == [], "discarded when the story is printed"
    assert f"{game.REPORTERTEAM} of Anna is discarded." in state["log"]
    state = turn_to(end_turn(state), 0)
    assert state["investigations"] == 2


def test_reporterteam_ends_when_anyone_prints_the_current_story():
    state = end_turn(act(new_game(3), 0, type="reporterteam"))
    state = print_current(state, 3)
    assert state["reporterteam"] is None
    state = turn_to(state, 0)
    assert game.view(state, TABLE)["investigations"] == 2


def test_there_is_one_reporterteam_card():
    state = act(new_game(3), TABLE, type="reporterteam")
    assert state["reporterteam"]["seat"] == 0
    state = end_turn(state)
    assert "reporterteam" not in game.actions(state, 1)
    refused(state, 1, "The Reporterteam card already lies in front of Anna",
            type="reporterteam")


# --- bad input of every kind ------------------------------------------------

@pytest.mark.parametrize("action", [
    {}, {"type": ""}, {"type": "Print"}, {"type": "draw"}, {"type": "undo"},
    {"type": "x" * 10000}, {"type": None}, {"type": "print\x00"},
])
def test_unknown_actions_are_refused(action):
    state = new_game(3)
    refused(state, 0, "not something you can do right now", **action)


@pytest.mark.parametrize("actor", [3, -1, 99, True, False, "0", "host", None, 1.0])
def test_unknown_actors_are_refused(actor):
    state = new_game(3)
    refused(state, actor, "one of this table's 3 seats", type="end_turn")
    assert game.actions(state, actor) == []


def test_a_bad_viewer_sees_nothing():
    state = new_game(3)
    for viewer in (3, -1, True, "host", None):
        with pytest.raises(RuleError):
            game.view(state, viewer)


def test_actions_follow_the_turn():
    state = new_game(3)
    assert game.actions(state, 0) == ["print", "u_haft", "reporterteam", "end_turn"]
    assert game.actions(state, TABLE) == ["u_haft", "reporterteam", "end_turn"]
    assert game.actions(state, 1) == []
    state = print_current(state, 2)
    assert game.actions(state, 1) == []


# --- Druckmaschine defekt ----------------------------------------------------
# Action Cards: "Druckmaschine defekt [2x] - Since there is a defect in another player's
# printing press, he cannot print his story this round! (This card can be played at any
# time on another player as he is about to print.)"

def test_druckmaschine_defekt_stops_the_print_and_printing_until_his_next_turn():
    state = announce(new_game(3), 3)
    story = state["current"]
    state = act(state, 2, type="druckmaschine", clock=str(CLOCK + 3))
    assert state["about_to_print"] is None and state["printed"] == []
    assert state["current"] == story
    assert "print" not in game.actions(state, 0)
    assert game.view(state, 0)["you"]["print"] is None
    error = refused(state, 0, "“he cannot print his story this round!”", type="print",
                    story=state["current"], points="3", clock=str(CLOCK))
    assert "Cleo played Druckmaschine defekt on you" in error.message
    for viewer in (TABLE, 0, 1, 2):
        markers = game.view(state, viewer)["markers"]
        assert [m["card"] for m in markers] == ["Druckmaschine defekt"]
        assert "Anna's printing press is broken" in markers[0]["text"]
    assert "printing press is broken" in game.view(state, 0)["now"]["detail"]
    assert (f"Cleo plays Druckmaschine defekt on Anna, who cannot print “{story}” until their "
            "next turn.") == game.view(state, TABLE)["log"][-1]
    # The rest of Anna's turn goes on: her action, then the next reporter prints freely.
    state = act(state, 0, type="reporterteam")
    state = end_turn(state)
    assert game.view(state, TABLE)["markers"][0]["card"] == "Reporterteam"
    state = print_current(state, 2)
    state = turn_to(state, 0)
    assert "print" in game.actions(state, 0)


def test_druckmaschine_defekt_is_played_only_as_a_reporter_is_about_to_print():
    state = new_game(3)
    refused(state, 1, "when the app says so on every phone", type="druckmaschine")
    refused(state, TABLE, "when the app says so", type="druckmaschine", by="1")


def test_druckmaschine_defekt_from_the_table_screen_names_who_plays_it():
    announced = announce(new_game(3), 2)
    state = act(announced, TABLE, type="druckmaschine", by="1", clock=str(CLOCK))
    assert state["press_broken"] == {"seat": 0, "by": 1}
    refused(announced, TABLE, "not a reporter who plays the card", type="druckmaschine",
            by="0", clock=str(CLOCK))
    refused(announced, TABLE, "choose the reporter who plays the card",
            type="druckmaschine", clock=str(CLOCK))


def test_druckmaschine_defekt_is_played_on_another_and_once_a_turn():
    state = announce(new_game(3), 2)
    refused(state, 0, "never on yourself", type="druckmaschine", clock=str(CLOCK))
    state = act(state, 1, type="druckmaschine", clock=str(CLOCK))
    refused(state, 2, "when the app says so", type="druckmaschine", clock=str(CLOCK))
    assert "druckmaschine" not in game.actions(state, 2)
    refused(new_game(3, start=None), 1, "First choose the start player", type="druckmaschine")


def test_druckmaschine_defekt_after_a_first_print_stops_the_second():
    state = turn_to(new_game(3), 0)
    state = print_current(state, 2)
    state = act(announce(state, 2), 1, type="druckmaschine", clock=str(CLOCK))
    refused(state, 0, "cannot print his story this round", type="print",
            story=state["current"], points="2", clock=str(CLOCK))


def test_states_saved_before_the_window_and_druckmaschine_still_play():
    state = new_game(3)
    del state["press_broken"], state["about_to_print"]
    assert "print" in game.actions(state, 0)
    game.check_state(state)
    assert print_current(state, 2)["printed"][0]["points"] == 2


# --- the end of the game ----------------------------------------------------

def test_a_single_reporter_with_most_stories_gets_two_points_and_the_title():
    # 2 players, 8 stories: Anna prints 5 stories for 1 point, Ben 3 for 2 points.
    state = play(new_game(2), [(0, 1), (1, 2), (0, 1), (1, 2), (0, 1), (1, 2), (0, 1), (0, 1)])
    assert game.is_over(state)
    result = game.view(state, TABLE)["result"]
    anna, ben = sorted(result["standings"], key=lambda row: row["seat"])
    assert (anna["stories"], anna["story_points"], anna["bonus"], anna["total"]) == (5, 5, 2, 7)
    assert (ben["stories"], ben["story_points"], ben["bonus"], ben["total"]) == (3, 6, 0, 6)
    assert result["bonus_seat"] == 0
    assert result["bonus_note"] == "Anna printed the most stories (5) and gets +2 story points."
    assert result["reporters_of_the_year"] == ["Anna"]
    assert anna["reporter_of_the_year"] and not ben["reporter_of_the_year"]
    assert result["headline"] == "Anna is the Reporter of the Year with 7 points!"
    assert [row["name"] for row in result["standings"]] == ["Anna", "Ben"]
    assert game.view(state, 1)["now"]["text"] == result["headline"]


def test_no_bonus_when_the_most_stories_are_tied():
    # 3 players, 10 stories: Anna 4, Ben 4, Cleo 2 (the last two worth most).
    script = [(0, 2), (1, 2), (0, 2), (1, 2), (0, 2), (1, 2), (0, 2), (1, 3), (2, 4), (2, 5)]
    state = play(new_game(3), script)
    result = game.view(state, TABLE)["result"]
    by_seat = {row["seat"]: row for row in result["standings"]}
    assert [by_seat[seat]["stories"] for seat in range(3)] == [4, 4, 2]
    assert [by_seat[seat]["bonus"] for seat in range(3)] == [0, 0, 0]
    assert [by_seat[seat]["total"] for seat in range(3)] == [8, 9, 9]
    assert result["bonus_seat"] is None
    assert result["bonus_note"] == "Anna and Ben tie for the most stories (4 each): " \
                                   "nobody gets the bonus."
    assert result["reporters_of_the_year"] == ["Ben", "Cleo"]
    assert result["headline"] == ("Ben and Cleo share the title Reporter of the Year with 9 "
                                  "points each (the rulebook has no tie-break).")


def test_the_bonus_can_decide_the_title():
    # 4 players, 12 stories: Dora prints 4 small ones, the others 3 bigger ones each.
    script = [(3, 1), (0, 2), (1, 2), (2, 2), (3, 1), (0, 1), (1, 1), (2, 1),
              (3, 2), (0, 2), (1, 2), (3, 2)]
    state = play(new_game(4), script)
    result = game.score(state)
    totals = {row["name"]: row["total"] for row in result["standings"]}
    assert totals == {"Anna": 5, "Ben": 5, "Cleo": 3, "Dora": 8}
    assert result["reporters_of_the_year"] == ["Dora"]
    assert result["standings"][0]["bonus"] == 2


def test_the_game_ends_when_the_last_story_is_printed_not_when_the_deck_is_empty():
    state = new_game(4)
    while state["deck"]:
        state = print_current(end_turn(state), 1)
    assert state["next"] is not None and not game.is_over(state)
    assert game.view(state, TABLE)["deck_left"] == 0
    state = print_current(end_turn(state), 1)
    assert state["next"] is None and state["current"] is not None
    assert "the story deck is empty" in state["log"][-1]
    assert game.view(state, TABLE)["next"] is None
    assert not game.is_over(state)
    state = print_current(end_turn(state), 1)
    assert game.is_over(state)
    table = game.view(state, TABLE)
    assert table["over"] and table["current"] is None and table["next"] is None
    assert table["active"] is None and not any(row["active"] for row in table["players"])
    assert len(table["printed"]) == 12
    assert {entry["name"] for entry in table["printed"]} == set(game.DEFAULT_STORIES)


def test_nothing_is_accepted_after_the_end():
    state = play(new_game(2), [(0, 3)] * 8)
    assert game.is_over(state)
    for seat in (0, 1, TABLE):
        assert game.actions(state, seat) == []
    refused(state, 0, "The game is over: every story has been printed", type="print",
            story=game.DEFAULT_STORIES[4], points="3", clock=str(CLOCK))
    refused(state, 1, "The game is over", type="end_turn")
    refused(state, TABLE, "The game is over", type="u_haft", target="1")
    refused(state, 1, "The game is over", type="pass")


def test_markers_and_reminders_go_when_the_game_ends():
    state = play(new_game(2), [(0, 3)] * 7)
    # One Action a turn: Anna plays Reporterteam, Ben U-Haft on Anna and prints the last.
    state = end_turn(act(state, 0, type="reporterteam"))
    state = print_current(act(state, 1, type="u_haft", target="0"), 3)
    assert game.is_over(state)
    assert game.view(state, TABLE)["markers"] == []
    assert all(not row["u_haft"] and not row["reporterteam"]
               for row in game.view(state, TABLE)["players"])
    assert game.view(state, TABLE)["result"]["headline"] in state["log"]


# --- views and the secret boundary -----------------------------------------

def all_viewers(state: dict) -> list:
    return [TABLE, *range(len(state["players"]))]


def test_views_are_json_and_hold_no_deck_order():
    state = play(new_game(5), [(1, 2), (3, 4)])
    for viewer in all_viewers(state):
        shown = game.view(state, viewer)
        json.dumps(shown)
        assert "deck" not in shown
        text = json.dumps(shown, ensure_ascii=False)
        for hidden in state["deck"]:
            assert hidden not in text, f"{hidden} is still in the deck"


def with_deck(state: dict, deck: list[str]) -> dict:
    other = copy.deepcopy(state)
    other["deck"] = deck
    return other


@pytest.mark.parametrize("count", range(2, 7))
def test_non_interference_the_deck_order_beyond_current_and_next(count):
    one = new_game(count, seed=count)
    two = with_deck(one, list(reversed(one["deck"])))
    assert one["deck"] != two["deck"]
    script = [("u_haft", 0, {"target": "1"}), ("end_turn", 0, {}), ("reporterteam", TABLE, {}),
              ("end_turn", TABLE, {}), ("end_turn", None, {})]
    for _ in range(2):
        for viewer in all_viewers(one):
            assert game.view(one, viewer) == game.view(two, viewer)
            assert game.actions(one, viewer) == game.actions(two, viewer)
        for kind, actor, fields in script:
            actor = one["active"] if actor is None else actor
            if kind in game.actions(one, actor):
                one = act(one, actor, type=kind, **fields)
                two = act(two, actor, type=kind, **fields)


def test_non_interference_after_prints_when_the_revealed_cards_agree():
    one = new_game(4, seed=3)
    deck = one["deck"]
    two = with_deck(one, deck[:2] + list(reversed(deck[2:])))
    for _ in range(2):
        one, two = announce(one, 2), announce(two, 2)
        for viewer in all_viewers(one):
            assert game.view(one, viewer) == game.view(two, viewer)
        one = act(one, 1, type="settle", clock=AFTER)
        two = act(two, 1, type="settle", clock=AFTER)
        for viewer in all_viewers(one):
            assert game.view(one, viewer) == game.view(two, viewer)
            assert game.actions(one, viewer) == game.actions(two, viewer)
    assert one["deck"] != two["deck"]


def test_apply_never_mutates_its_input():
    state = new_game(3)
    frozen = copy.deepcopy(state)
    after = print_current(state, 4)
    after = end_turn(act(after, 0, type="u_haft", target="1"))
    end_turn(act(after, TABLE, type="reporterteam"))
    assert state == frozen


def test_a_reporter_in_u_haft_is_told_so_first_whatever_happens_now():
    state = act(new_game(3), 0, type="u_haft", target="2")
    detained = "You are in U-Haft (Reporter in Detention): you lose your next turn."
    assert game.view(state, 2)["now"] == {"text": "It is Anna's turn.", "detail": detained,
                                          "mine": False}
    assert game.view(state, 1)["now"]["detail"] == ""
    state = announce(state, 3)
    assert game.view(state, 2)["now"]["detail"] == (
        "Play Druckmaschine defekt on Anna now if you hold it, or let it print. " + detained)
    state = act(state, 2, type="pass", clock=str(CLOCK))
    assert game.view(state, 2)["now"]["detail"] == "You let it print. " + detained
    assert game.view(state, 1)["now"]["detail"] == (
        "Play Druckmaschine defekt on Anna now if you hold it, or let it print.")


def test_passes_and_druckmaschine_in_one_window_commute_nothing_else_does():
    seen = announce(new_game(3), 3)
    now = act(seen, 1, type="pass", clock=str(CLOCK))
    assert game.commutes(seen, now, 2, {"type": "pass"})
    assert game.commutes(seen, now, 2, {"type": "druckmaschine"})
    assert not game.commutes(seen, now, 2, {"type": "end_turn"})
    printed = act(now, 2, type="pass", clock=str(CLOCK))
    assert not game.commutes(seen, printed, 2, {"type": "druckmaschine"})
    later = announce(end_turn(printed), 3)
    assert not game.commutes(seen, later, 2, {"type": "pass"}), "another print's window"
