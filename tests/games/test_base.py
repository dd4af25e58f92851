"""The shared game helpers of companion/games/base.py: behaviour and the messages players see."""

from __future__ import annotations

import random

import pytest

from companion.games import base, discover
from companion.games.base import (
    TABLE,
    RuleError,
    check_call,
    draw,
    evolve,
    is_seat,
    next_seat,
    parse_bool,
    parse_choice,
    parse_int,
    parse_names,
    require,
    require_type,
    seat_order,
    shuffled,
)


def test_table_is_a_string_no_seat_can_equal():
    assert TABLE == "table"
    assert all(seat != TABLE for seat in range(10))


def test_rule_error_carries_its_message():
    error = RuleError("Not your turn.")
    assert error.message == "Not your turn."
    assert str(error) == "Not your turn."
    assert isinstance(error, Exception)


# --- evolve --------------------------------------------------------------

def test_evolve_is_a_deep_copy():
    state = {"deck": [1, 2], "seats": [{"name": "Anna", "cards": ["x"]}], "over": False}
    copy = evolve(state)
    assert copy == state and copy is not state
    copy["deck"].append(3)
    copy["seats"][0]["cards"].append("y")
    copy["over"] = True
    assert state == {"deck": [1, 2], "seats": [{"name": "Anna", "cards": ["x"]}],
                     "over": False}


# --- parse_int -----------------------------------------------------------

@pytest.mark.parametrize(("value", "expected"), [
    ("3", 3), (" 7 ", 7), ("0", 0), ("-2", -2), ("+4", 4), (5, 5), ("10", 10), ("007", 7),
])
def test_parse_int_accepts_whole_numbers_in_range(value, expected):
    assert parse_int(value, -5, 10, "number") == expected


@pytest.mark.parametrize("value", [None, "", "   ", "\n"])
def test_parse_int_asks_for_a_missing_value(value):
    with pytest.raises(RuleError) as caught:
        parse_int(value, 1, 6, "point value")
    assert caught.value.message == "Please enter the point value."


@pytest.mark.parametrize("value", ["abc", "2.5", "1e3", "3 4", "½", "0x10"])
def test_parse_int_refuses_what_is_not_a_whole_number(value):
    with pytest.raises(RuleError) as caught:
        parse_int(value, 1, 6, "point value")
    assert caught.value.message == f"The point value must be a whole number, not “{value}”."


@pytest.mark.parametrize("value", ["1_000", "٣", "²", "1e3", "0x10"])
def test_parse_int_takes_only_plain_digits(value):
    with pytest.raises(RuleError):
        parse_int(value, 0, 10_000, "number")


def test_parse_int_refuses_absurdly_long_numbers_without_converting_them():
    with pytest.raises(RuleError) as caught:
        parse_int("9" * 5000, 1, 6, "die roll")
    assert caught.value.message == "The die roll must be between 1 and 6; 999999999999… is not."


def test_parse_int_quotes_at_most_twenty_characters():
    with pytest.raises(RuleError) as caught:
        parse_int("x" * 500, 1, 6, "round")
    assert caught.value.message == f"The round must be a whole number, not “{'x' * 20}”."


@pytest.mark.parametrize("value", ["0", "7", "-1", "9" * 400])
def test_parse_int_refuses_numbers_out_of_range(value):
    with pytest.raises(RuleError) as caught:
        parse_int(value, 1, 6, "die roll")
    assert caught.value.message.startswith("The die roll must be between 1 and 6; ")
    assert caught.value.message.endswith(" is not.")


def test_parse_int_range_is_inclusive():
    assert parse_int("1", 1, 6, "die roll") == 1
    assert parse_int("6", 1, 6, "die roll") == 6
    with pytest.raises(RuleError, match="between 1 and 6; 7 is not"):
        parse_int("7", 1, 6, "die roll")


# --- parse_choice --------------------------------------------------------

def test_parse_choice_returns_the_choice_itself():
    assert parse_choice("2", [1, 2, 3], "seat") == 2
    assert parse_choice(" Jack ", ["Jack", "Detective"], "side") == "Jack"
    assert parse_choice(3, ["1", "3"], "seat") == "3"


@pytest.mark.parametrize("value", [None, "", "  "])
def test_parse_choice_asks_for_a_missing_choice(value):
    with pytest.raises(RuleError) as caught:
        parse_choice(value, ["a", "b"], "suspect")
    assert caught.value.message == "Please choose the suspect."


def test_parse_choice_names_what_was_refused():
    with pytest.raises(RuleError) as caught:
        parse_choice("Moriarty", ["Holmes", "Watson"], "character")
    assert caught.value.message == "“Moriarty” is not a character you can choose here."


def test_parse_choice_quotes_at_most_forty_characters():
    with pytest.raises(RuleError) as caught:
        parse_choice("y" * 100, ["a"], "card")
    assert caught.value.message == f"“{'y' * 40}” is not a card you can choose here."


def test_parse_choice_matches_exactly():
    with pytest.raises(RuleError):
        parse_choice("jack", ["Jack"], "side")
    with pytest.raises(RuleError):
        parse_choice("1", [], "seat")


# --- parse_bool ----------------------------------------------------------

@pytest.mark.parametrize("value", ["on", "1", "true", "yes", "y", "anything", " ON "])
def test_parse_bool_on(value):
    assert parse_bool(value) is True


@pytest.mark.parametrize("value", [None, "", "0", "off", "false", "no", " Off ", "FALSE"])
def test_parse_bool_off(value):
    assert parse_bool(value) is False


# --- parse_names ---------------------------------------------------------

def test_parse_names_strips_and_skips_blank_lines():
    text = "  Murder I \n\n Murder II\r\n\t\nMurder III  "
    assert parse_names(text, 3, "cards") == ["Murder I", "Murder II", "Murder III"]


@pytest.mark.parametrize(("text", "given"), [("a\nb", 2), ("a\nb\nc\nd", 4), ("", 0),
                                              (None, 0), ("\n \n", 0)])
def test_parse_names_wants_exactly_count(text, given):
    with pytest.raises(RuleError) as caught:
        parse_names(text, 3, "event cards")
    assert caught.value.message == (
        f"Please give exactly 3 event cards, one per line ({given} given).")


def test_parse_names_limits_the_length():
    assert parse_names("x" * 60, 1, "names") == ["x" * 60]
    with pytest.raises(RuleError) as caught:
        parse_names("ok\n" + "x" * 61, 2, "names")
    assert caught.value.message == "Each of the names must be at most 60 characters long."


def test_parse_names_refuses_duplicates():
    with pytest.raises(RuleError) as caught:
        parse_names("Anna\nBen\n Anna ", 3, "players")
    assert caught.value.message == "The players must all be different."


# --- require and require_type --------------------------------------------

def test_require_passes_or_raises_with_the_message():
    require(True, "never shown")
    with pytest.raises(RuleError) as caught:
        require(False, "Jack must move first.")
    assert caught.value.message == "Jack must move first."


def test_require_type_returns_an_allowed_type():
    assert require_type({"type": "move"}, ["move", "wait"]) == "move"


@pytest.mark.parametrize("action", [{}, {"type": ""}, {"type": "kill"}, {"type": "Move"},
                                    {"type": None}, {"kind": "move"}])
def test_require_type_refuses_anything_else(action):
    with pytest.raises(RuleError) as caught:
        require_type(action, ["move", "wait"])
    assert caught.value.message == "That is not something you can do right now."


# --- decks ---------------------------------------------------------------

def test_shuffled_returns_a_new_permutation_and_leaves_the_input():
    cards = list(range(20))
    mixed = shuffled(cards, random.Random(3))
    assert cards == list(range(20))
    assert sorted(mixed) == cards
    assert mixed != cards
    assert shuffled(cards, random.Random(3)) == mixed
    assert shuffled((), random.Random(3)) == []


def test_draw_takes_from_the_top_in_place():
    deck = ["a", "b", "c", "d"]
    assert draw(deck) == ["a"]
    assert deck == ["b", "c", "d"]
    assert draw(deck, 2) == ["b", "c"]
    assert deck == ["d"]
    assert draw(deck, 0) == []
    assert draw(deck, 1) == ["d"]
    assert deck == []


def test_draw_refuses_more_cards_than_the_deck_holds_and_keeps_the_deck():
    deck = ["a", "b"]
    with pytest.raises(RuleError) as caught:
        draw(deck, 3)
    assert caught.value.message == "There are not enough cards left in the deck."
    assert deck == ["a", "b"]
    with pytest.raises(RuleError):
        draw([])


# --- seats -----------------------------------------------------------------

def test_seat_order_is_clockwise_from_the_first():
    assert seat_order(4, 0) == [0, 1, 2, 3]
    assert seat_order(4, 2) == [2, 3, 0, 1]
    assert seat_order(1, 0) == [0]
    assert seat_order(0, 0) == []


def test_next_seat_wraps_around():
    assert next_seat(4, 0) == 1
    assert next_seat(4, 3) == 0
    assert next_seat(2, 1) == 0


def test_next_seat_passes_over_skipped_seats():
    assert next_seat(5, 0, skip=[1, 2]) == 3
    assert next_seat(5, 3, skip=[4, 0]) == 1
    assert next_seat(3, 1, skip=[2, 0]) == 1, "the current seat comes round again"


def test_next_seat_refuses_when_everyone_is_skipped():
    with pytest.raises(RuleError) as caught:
        next_seat(3, 0, skip=[0, 1, 2])
    assert caught.value.message == "Nobody is left to play."


def test_every_game_module_follows_the_protocol():
    for name, game in discover().items():
        assert name == game.NAME
        assert isinstance(game.TITLE, str) and game.TITLE
        assert game.MIN_PLAYERS <= game.DEFAULT_PLAYERS <= game.MAX_PLAYERS
        assert all(0 <= seat < game.MIN_PLAYERS for seat in game.FIXED_SEATS)
        for attribute in ("seat_labels", "default_options", "parse_options", "setup",
                          "apply", "view", "actions", "is_over"):
            assert callable(getattr(game, attribute)), f"{name} lacks {attribute}"
        assert len(game.seat_labels(game.DEFAULT_PLAYERS, game.default_options())) == \
            game.DEFAULT_PLAYERS
    assert base.Game.__name__ == "Game"


# --- what every apply() checks first -------------------------------------------------

def test_is_seat_takes_only_an_int_proper_in_range():
    assert [is_seat(seat, 3) for seat in (0, 1, 2)] == [True, True, True]
    for actor in (3, -1, True, False, 1.0, 0.0, "1", None, [1], TABLE):
        assert not is_seat(actor, 3), actor


def test_check_call_refuses_what_is_not_a_form_or_not_a_seat():
    check_call(TABLE, {"type": "end_turn"}, 3)
    check_call(2, {}, 3)
    for action in (None, "end_turn", ["type", "end_turn"], 5, (("type", "x"),)):
        with pytest.raises(RuleError, match="a form's fields"):
            check_call(0, action, 3)
    for actor in (3, True, False, 1.0, "0", "host", None):
        with pytest.raises(RuleError, match="one of this table's 3 seats"):
            check_call(actor, {"type": "end_turn"}, 3)


MALFORMED_ACTIONS = [None, "end_turn", ["type", "end_turn"], 5, 1.5, (("type", "end_turn"),)]
NOT_SEATS = [True, False, 1.0, 0.0, "0", "host", None, -1, 99, [0]]


@pytest.mark.parametrize("name", list(discover()))
def test_every_game_refuses_malformed_calls_the_same_way(name):
    """Each registered game's apply refuses, with a RuleError and its state untouched, an
    action that is not a mapping and an actor that is neither the table nor a seat proper
    (True and 1.0 are not seat 1)."""
    game = discover()[name]
    players = [f"P{seat}" for seat in range(game.DEFAULT_PLAYERS)]
    state = game.setup(game.default_options(), players, random.Random(1))
    before = evolve(state)
    for action in MALFORMED_ACTIONS:
        for actor in (TABLE, 0):
            with pytest.raises(RuleError, match="a form's fields"):
                game.apply(state, actor, action, random.Random(0))
    for actor in NOT_SEATS:
        with pytest.raises(RuleError, match=f"one of this table's {len(players)} seats"):
            game.apply(state, actor, {"type": "end_turn"}, random.Random(0))
    assert state == before
