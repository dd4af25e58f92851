"""London 1888: setup, the identity deal, the event deck, rounds, questioning, prison, deaths,
every ending and every row of the tournament table, refusals, non-interference.

Rulebook: "London 1888 Rulebook"; rulings: docs/RULINGS.md#london-1888.
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter

import pytest

from companion.games import discover
from companion.games import london1888 as game
from companion.games.base import TABLE, RuleError
from companion.games.london1888.state import _card_name
from tests.support.london_sequence import PUBLIC_SEQUENCE

NAMES = ["Ada", "Ben", "Cleo", "Dan", "Eve", "Finn", "Gus", "Hal"]


def new_game(count: int = 5, seed: int = 1, **form: str) -> dict:
    """A game set up the way the web layer does it: defaults -> form -> options -> setup."""
    fields = {**game.form_from(game.default_options()), **form}
    options = game.parse_options(fields, count)
    return game.setup(options, NAMES[:count], random.Random(seed))


def act(state: dict, actor, **action: str) -> dict:
    before = copy.deepcopy(state)
    after = game.apply(state, actor, action, random.Random(0))
    assert state == before, "apply mutated its input"
    return after


def refused(state: dict, actor, match: str, **action: str) -> RuleError:
    """Assert the action is refused with a message matching ``match`` and nothing changed."""
    before = copy.deepcopy(state)
    with pytest.raises(RuleError, match=match) as caught:
        game.apply(state, actor, action, random.Random(0))
    assert state == before
    return caught.value


def jack_of(state: dict) -> int:
    return next(seat for seat, line in enumerate(state["lines"]) if "jack" in line)


def positions_of(state: dict, seat: int, kind: str) -> list[int]:
    return [index + 1 for index, card in enumerate(state["lines"][seat]) if card == kind]


def role_position(state: dict, seat: int) -> int:
    return next(index + 1 for index, card in enumerate(state["lines"][seat])
                if card in ("jack", "innocent"))


def clue_position(state: dict, seat: int) -> int:
    """A face-down Suspect or False Lead card of ``seat``."""
    return next(index + 1 for index, card in enumerate(state["lines"][seat])
                if card in ("suspect", "false_lead") and not state["revealed"][seat][index])


def current(state: dict):
    return game.view(state, TABLE)["current"]


def finish_round(state: dict) -> dict:
    while current(state) is not None:
        state = act(state, TABLE, type="end_turn")
    return state


def next_round(state: dict) -> dict:
    return act(finish_round(state), TABLE, type="next_round")


def turn_of(state: dict, seat: int) -> dict:
    """End turns (and rounds) until it is ``seat``'s turn, its decision still to take."""
    for _ in range(3 * len(state["players"])):
        if current(state) == seat and not state["decided"]:
            return state
        if current(state) is None:
            state = act(state, TABLE, type="next_round")
        else:
            state = act(state, TABLE, type="end_turn")
    raise AssertionError(f"seat {seat} never got a turn")


def question(state: dict, seat: int, target: int, *positions: int, kind="question") -> dict:
    state = turn_of(state, seat)
    fields = {f"position_{pos}": "on" for pos in positions}
    return act(state, seat, type=kind, target=str(target), **fields)


def reveal_role(state: dict, target: int, by: int) -> dict:
    """``by`` questions ``target`` on their role card (plus a clue card in prison)."""
    state = turn_of(state, by)
    positions = [role_position(state, target)]
    if state["prison"][target] is not None:
        positions.append(clue_position(state, target))
    return question(state, by, target, *positions)


def resignation_and_manifestation_before_the_end(state: dict) -> bool:
    names = [card["name"] for card in state["deck"]]
    last = max(names.index("Manifestation"), names.index("Resignation"))
    return last + 2 < game.fifth_murder_round(state["deck"])


def play_to_fifth_murder(state: dict) -> dict:
    while game.view(state, TABLE)["murders"] < game.MURDERS_TO_END:
        state = next_round(state)
    return state


def propose(state: dict, result: str, *accomplices: int) -> dict:
    fields = {f"accomplice_{seat}": "on" for seat in accomplices}
    return act(state, TABLE, type="record_outcome", result=result, **fields)


def record(state: dict, result: str, *accomplices: int) -> dict:
    """The table proposes the outcome and the host confirms it."""
    return act(propose(state, result, *accomplices), TABLE, type="confirm_outcome")


def seed_where(predicate, count: int = 5) -> dict:
    """The first game (by seed) whose hidden deal satisfies ``predicate``."""
    for seed in range(500):
        state = new_game(count, seed)
        if predicate(state):
            return state
    raise AssertionError("no seed satisfies the predicate")


# --- protocol, options, setup -------------------------------------------------------------

def test_registered_with_the_protocol():
    assert discover()[game.NAME] is game
    assert (game.NAME, game.TITLE) == ("london1888", "London 1888")
    assert (game.MIN_PLAYERS, game.MAX_PLAYERS) == (4, 8)
    assert frozenset({0, 1, 2, 3}) == game.FIXED_SEATS


def test_seat_labels_chosen_and_drawn():
    options = game.default_options()
    assert game.seat_labels(4, options) == ["Abberline", "Lusk", "Gull", "Warren"]
    assert game.seat_labels(6, options) == ["Abberline", "Lusk", "Gull", "Warren", "Godley",
                                            "Netley"]
    form = {**game.form_from(options), "character_5": "Prince Albert Victor",
            "character_6": "Mansfield"}
    assert game.seat_labels(6, game.parse_options(form, 6))[4:] == [
        "Prince Albert Victor", "Mansfield"]
    drawn = game.parse_options({**game.form_from(options), "characters": "drawn"}, 7)
    labels = game.seat_labels(7, drawn)
    assert labels[:4] == list(game.CORE_CHARACTERS)
    assert all("drawn" in label for label in labels[4:])


def test_default_options_round_trip_through_the_form():
    options = game.default_options()
    assert game.parse_options(game.form_from(options), 8) == options
    # Until this laptop names its cards, each name says where the card lies.
    assert options["murder_cards"][0] == "Murder 1 of the row (1st from the left)"
    assert len(options["murder_cards"]) == 5
    assert options["event_cards"][:3] == ["Manifestation", "Resignation",
                                          "Event 1 of the row (1st from the left)"]
    assert options["event_cards"][-1] == "Event 13 of the row (13th from the left)"
    assert len(options["event_cards"]) == 15


def test_absinthe_checkbox_missing_means_off():
    form = game.form_from(game.default_options())
    del form["absinthe"]
    assert game.parse_options(form, 5)["absinthe"] is False


@pytest.mark.parametrize(("change", "match"), [
    ({"character_5": "Godley", "character_6": "Godley"}, "different characters"),
    ({"character_5": "Abberline"}, "not a character for seat 5"),
    ({"character_6": ""}, "choose the character for seat 6"),
    ({"characters": "auction"}, "not a way to pick"),
    ({"murder_cards": "A\nB\nC\nD"}, "exactly 5 Murder card names"),
    ({"event_cards": "x\n" * 16}, "exactly 15 Event card names"),
    ({"murder_cards": "A\nB\nC\nD\nD"}, "must all be different"),
    ({"murder_cards": "Resignation\nB\nC\nD\nE"}, "both a Murder card and an Event card"),
    ({"murder_cards": "A\nB\nC\nD\n" + "x" * 61}, "at most 60 characters"),
])
def test_bad_options_are_refused(change, match):
    form = {**game.form_from(game.default_options()), **change}
    with pytest.raises(RuleError, match=match):
        game.parse_options(form, 6)


def test_player_count_outside_4_to_8_is_refused():
    for count in (3, 9):
        with pytest.raises(RuleError, match="4 to 8 players"):
            game.parse_options(game.form_from(game.default_options()), count)
        with pytest.raises(RuleError, match="4 to 8 players"):
            game.setup(game.default_options(), NAMES[:3] if count == 3 else NAMES + ["Ivy"],
                       random.Random(1))


@pytest.mark.parametrize(("options", "match"), [
    ({"extras": ["Godley", "Jack", "Netley", "Mansfield"]}, "not a character for seat 6"),
    ({"murder_cards": ["A", "B", "C"]}, "exactly 5 Murder card names"),
    ({"event_cards": ["Event 3"] * 15}, "must all be different"),
    ({"characters": "auction"}, "not a way to pick"),
])
def test_setup_refuses_tampered_options(options, match):
    with pytest.raises(RuleError, match=match):
        game.setup({**game.default_options(), **options}, NAMES[:6], random.Random(1))


def test_seat_labels_survive_malformed_stored_options():
    for options in ({}, {"extras": 7}, {"extras": ["Netley"]}, {"characters": None}):
        assert len(game.seat_labels(8, options)) == 8
    assert game.seat_labels(5, {"extras": ["Netley"]})[4] == "Netley"


def test_setup_fills_missing_or_malformed_options_with_defaults():
    state = game.setup({"extras": 7, "murder_cards": None, "event_cards": "x"}, NAMES[:5],
                       random.Random(1))
    assert state["characters"][4] == "Godley" and state["absinthe"] is True
    assert {card["name"] for card in state["deck"]} == set(game.DEFAULT_MURDER_CARDS) | set(
        game.DEFAULT_EVENT_CARDS)


def test_extra_seats_beyond_the_count_are_not_required():
    form = game.form_from(game.default_options())
    for seat in (6, 7, 8):
        del form[f"character_{seat}"]
    form["character_5"] = "Netley"
    options = game.parse_options(form, 5)
    assert game.seat_labels(5, options)[4] == "Netley"
    assert sorted(options["extras"]) == sorted(game.EXTRA_CHARACTERS)


@pytest.mark.parametrize("count", range(4, 9))
def test_characters_chosen_fill_seats_five_to_eight(count):
    state = new_game(count)
    assert state["characters"] == (list(game.CORE_CHARACTERS)
                                   + list(game.EXTRA_CHARACTERS)[:count - 4])


def test_drawn_characters_come_from_the_rng_and_are_distinct():
    seen = set()
    for seed in range(30):
        state = new_game(7, seed, characters="drawn")
        extras = state["characters"][4:]
        assert len(set(extras)) == 3 and set(extras) <= set(game.EXTRA_CHARACTERS)
        assert state["characters"][:4] == list(game.CORE_CHARACTERS)
        seen.add(tuple(extras))
    assert len(seen) > 1, "drawing never varied"


@pytest.mark.parametrize("count", range(4, 9))
@pytest.mark.parametrize("seed", range(6))
def test_identity_deal_respects_the_split_and_the_box(count, seed):
    state = new_game(count, seed)
    suspects, false_leads = game.DEAL_PER_PLAYER[count]
    totals = Counter()
    for line in state["lines"]:
        kinds = Counter(line)
        assert len(line) == 5
        assert kinds["jack"] + kinds["innocent"] == 1
        assert kinds["suspect"] == suspects and kinds["false_lead"] == false_leads
        totals.update(line)
    assert totals["jack"] == 1 and totals["innocent"] == count - 1
    for kind, number in totals.items():
        assert number <= game.BOX[kind]


def test_identity_split_per_count_matches_the_rulebook():
    assert game.DEAL_PER_PLAYER == {4: (2, 2), 5: (2, 2), 6: (1, 3), 7: (1, 3), 8: (0, 4)}
    assert game.BOX == {"jack": 1, "innocent": 7, "suspect": 10, "false_lead": 32}


def test_jack_and_role_positions_vary_with_the_seed():
    jacks = {jack_of(new_game(6, seed)) for seed in range(40)}
    positions = {role_position(new_game(6, seed), 0) for seed in range(40)}
    assert len(jacks) == 6 and len(positions) == 5


@pytest.mark.parametrize("seed", range(40))
def test_the_set_aside_murder_is_tenth_for_every_seed(seed):
    deck = new_game(5, seed)["deck"]
    assert len(deck) == 20
    assert sum(card["murder"] for card in deck) == 5
    assert deck[9]["murder"] is True
    assert {card["name"] for card in deck} == set(game.DEFAULT_MURDER_CARDS) | set(
        game.DEFAULT_EVENT_CARDS)
    assert 11 <= game.fifth_murder_round(deck) <= 21


def test_murder_card_names_are_the_custom_ones():
    state = new_game(4, 3, murder_cards="Nichols\nChapman\nStride\nEddowes\nKelly")
    assert {card["name"] for card in state["deck"] if card["murder"]} == {
        "Nichols", "Chapman", "Stride", "Eddowes", "Kelly"}


def test_fifth_murder_round_spans_11_to_later_rounds_across_seeds():
    rounds = {game.fifth_murder_round(new_game(5, seed)["deck"]) for seed in range(200)}
    assert min(rounds) == 11 and max(rounds) > 16


def test_setup_checklist_lists_every_pawn_and_the_physical_steps():
    state = new_game(8)
    setup = game.view(state, TABLE)["setup"]
    residences = {pawn["character"]: pawn["residence"] for pawn in setup["pawns"]}
    assert residences == {
        "Abberline": "the Police Station (Commissariat)", "Lusk": "Lusk's residence",
        "Gull": "Gull's residence", "Warren": "Scotland Yard",
        "Godley": "the Police Station (Commissariat)", "Netley": "Netley's residence",
        "Mansfield": "Henry Irving's Lyceum Theatre",
        "Prince Albert Victor": "the Palais Royal"}
    text = " ".join(setup["steps"])
    for words in ("2 ACTION cards", "SCALPEL", "SILVER", "£2", "ABSINTHE", "10th"):
        assert words in text
    no_absinthe = game.view(new_game(4, absinthe=""), TABLE)["setup"]["steps"][-1]
    assert "Abberline starts every round" in no_absinthe


# --- rounds, turns, absinthe ---------------------------------------------------------------

def test_round_one_turns_no_card_and_abberline_starts():
    table = game.view(new_game(5), TABLE)
    assert table["round"] == 1 and table["event_cards"] == [] and table["latest_event"] is None
    assert table["holder"] == 0 and table["current"] == 0
    assert [entry["seat"] for entry in table["order"]] == [0, 1, 2, 3, 4]
    assert table["cards_left"] == 20 and table["murders"] == 0


def test_round_k_turns_card_k_minus_1_and_counts_murders():
    state = new_game(5, 4)
    for round_number in range(2, 9):
        state = next_round(state)
        table = game.view(state, TABLE)
        card = state["deck"][round_number - 2]
        assert table["round"] == round_number
        assert table["latest_event"]["name"] == card["name"]
        assert table["latest_event"]["murder"] == card["murder"]
        assert table["murders"] == sum(c["murder"] for c in state["deck"][:round_number - 1])
        assert table["cards_left"] == 20 - (round_number - 1)


def test_absinthe_passes_to_the_left_each_round():
    state = new_game(6)
    for round_number in range(1, 14):
        table = game.view(state, TABLE)
        holder = (round_number - 1) % 6
        assert table["holder"] == holder
        assert [entry["seat"] for entry in table["order"]] == [(holder + k) % 6
                                                                for k in range(6)]
        if table["murders"] == 5:
            break
        state = next_round(state)


def test_without_absinthe_abberline_always_starts():
    state = new_game(5, absinthe="")
    for _ in range(6):
        state = next_round(state)
        assert game.view(state, TABLE)["order"][0]["seat"] == 0


def test_absinthe_passes_over_the_dead():
    state = new_game(5)
    state = act(state, TABLE, type="mark_dead", target="1")
    state = next_round(state)
    table = game.view(state, TABLE)
    assert table["holder"] == 2
    assert [entry["seat"] for entry in table["order"]] == [2, 3, 4, 0]


def test_without_absinthe_a_dead_abberline_is_replaced_by_his_left():
    state = act(new_game(5, absinthe=""), TABLE, type="mark_dead", target="0")
    state = next_round(state)
    assert game.view(state, TABLE)["order"][0]["seat"] == 1


def test_turns_follow_the_order_and_only_the_player_or_table_ends_one():
    state = new_game(4)
    refused(state, 1, "not your turn", type="end_turn")
    state = act(state, 0, type="end_turn")
    assert current(state) == 1
    state = act(state, TABLE, type="end_turn")
    state = act(state, 2, type="end_turn")
    refused(state, TABLE, "Warren \\(Dan\\) has not finished", type="next_round")
    state = act(state, 3, type="end_turn")
    assert current(state) is None
    assert game.view(state, TABLE)["phase"] == "round_over"
    assert game.view(state, TABLE)["prompt"] == (
        "Round 1 is over: Lusk (Ben) receives the ABSINTHE card and turns the next event "
        "card on their phone (or press Next round).")
    assert game.view(state, 2)["prompt"] == (
        "Round 1 is over: Lusk (Ben) receives the ABSINTHE card and turns the next event "
        "card.")
    refused(state, TABLE, "Everyone has played this round", type="end_turn")
    assert game.actions(state, TABLE)[0] == "next_round"
    assert game.actions(state, 0) == ["arrest", "mark_dead"], \
        "between turns a phone may still play an ARREST card at the Black Market or die"


def test_the_fifth_murder_finishes_its_round_then_the_game_ends():
    state = play_to_fifth_murder(new_game(5, 7))
    table = game.view(state, TABLE)
    assert table["round"] == game.fifth_murder_round(state["deck"])
    assert table["murders"] == 5 and table["phase"] == "last_round"
    assert "Last round" in table["prompt"]
    assert "next_round" not in game.actions(state, TABLE)
    state = finish_round(state)
    table = game.view(state, TABLE)
    assert table["phase"] == "awaiting_outcome"
    assert "Record the outcome" in table["prompt"]
    assert game.actions(state, TABLE) == ["record_outcome"]
    refused(state, TABLE, "round of the 5th murder is over, so the game is over",
            type="next_round")
    refused(state, TABLE, "record the outcome", type="arrest", target="1", by="card")


@pytest.mark.parametrize("seed", range(12))
def test_round_of_the_fifth_murder_matches_the_deck(seed):
    state = play_to_fifth_murder(new_game(4, seed))
    assert 11 <= state["round"] == game.fifth_murder_round(state["deck"]) <= 21


def test_manifestation_and_resignation_reminders():
    state = seed_where(resignation_and_manifestation_before_the_end)
    names = [card["name"] for card in state["deck"]]
    last = max(names.index("Manifestation"), names.index("Resignation"))
    found = {}
    while state["round"] - 1 <= last:
        state = next_round(state)
        event = game.view(state, TABLE)["latest_event"]
        found[event["name"]] = event["reminders"]
    assert any("Protester pawns" in text for text in found["Manifestation"])
    assert any("may be arrested" in text for text in found["Resignation"])
    assert all("read" in texts[0].lower() for name, texts in found.items()
               if not name.startswith("Murder"))
    assert game.view(state, TABLE)["resigned"] is True


def test_renamed_manifestation_keeps_its_reminder():
    events = "\n".join(["Demonstration", "Démission"] + [f"E{k}" for k in range(3, 16)])
    for seed in range(100):
        state = new_game(4, seed, event_cards=events)
        target = next(i for i, card in enumerate(state["deck"])
                      if card["name"] == "Demonstration")
        if target + 2 < game.fifth_murder_round(state["deck"]):
            break
    while state["round"] - 2 < target:
        state = next_round(state)
    assert "Protester pawns" in game.view(state, TABLE)["latest_event"]["reminders"][1]


# --- questioning and the Black Market ------------------------------------------------------

def test_questioning_reveals_one_card_to_everyone():
    state = new_game(5, 1)
    position = clue_position(state, 1)
    state = question(state, 0, 1, position)
    kind = state["lines"][1][position - 1]
    for viewer in (TABLE, 0, 1, 2, 3, 4):
        seen = game.view(state, viewer)
        assert seen["seats"][1]["line"][position - 1]["card"] == kind
        assert seen["reveals"][-1]["position"] == position
        assert seen["reveal_count"] == 1
    assert game.view(state, TABLE)["seats"][1]["face_down"] == [
        pos for pos in range(1, 6) if pos != position]
    assert "question" not in game.actions(state, 0), "one decision per turn"
    assert "end_turn" in game.actions(state, 0)
    refused(state, 0, "“one, and only one, decision”", type="question", target="2",
            position_1="on")


def test_revealing_an_innocent_clears_the_player():
    state = seed_where(lambda s: jack_of(s) not in (0, 2))
    state = reveal_role(state, 2, by=0)
    table = game.view(state, TABLE)
    assert table["seats"][2]["cleared"] is True
    assert "cleared" in table["log"][-1]["text"]
    assert table["jack"] is None


def test_revealing_the_jack_card_discovers_jack():
    state = seed_where(lambda s: jack_of(s) == 3)
    state = reveal_role(state, 3, by=1)
    for viewer in (TABLE, 0, 3):
        seen = game.view(state, viewer)
        assert seen["jack"]["seat"] == 3 and seen["jack"]["how"] == "revealed"
        assert seen["seats"][3]["revealed_jack"] is True
    assert "SCALPEL" in game.view(state, TABLE)["log"][-1]["text"]


def test_a_discovered_police_jack_goes_home_to_the_police_station():
    """Rulebook example: Abberline or Godley as the Ripper must go to the Police Station."""
    for seat in (0, 4):
        state = reveal_role(seed_where(lambda s, seat=seat: jack_of(s) == seat), seat,
                            by=(seat + 1) % 5)
        assert game.view(state, TABLE)["jack"]["home"] == "the Police Station (Commissariat)"
    state = reveal_role(seed_where(lambda s: jack_of(s) == 3), 3, by=1)
    assert game.view(state, 3)["jack"]["home"] == "Scotland Yard"


def test_eleven_rounds_when_the_other_murders_come_first():
    """Rulebook example: if the 4 other Murder cards come before the 10th card, the game
    ends after 11 rounds."""
    state = seed_where(lambda s: sum(card["murder"] for card in s["deck"][:10]) == 5)
    state = finish_round(play_to_fifth_murder(state))
    assert state["round"] == 11 and game.view(state, TABLE)["phase"] == "awaiting_outcome"


def test_jack_is_deduced_when_every_other_player_is_cleared():
    state = seed_where(lambda s: jack_of(s) == 1, count=4)
    for target, by in ((0, 2), (2, 0), (3, 0)):
        assert game.view(state, TABLE)["jack"] is None
        state = reveal_role(state, target, by=by)
    jack = game.view(state, TABLE)["jack"]
    assert jack["seat"] == 1 and jack["how"] == "deduced"


def test_a_dead_innocent_keeps_jack_hidden_from_deduction():
    state = seed_where(lambda s: jack_of(s) == 1, count=4)
    state = act(state, TABLE, type="mark_dead", target="3")
    for target, by in ((0, 2), (2, 0)):
        state = reveal_role(state, target, by=by)
    assert game.view(state, TABLE)["jack"] is None


@pytest.mark.parametrize(("fields", "match"), [
    ({"target": "0", "position_1": "on"}, "cannot question yourself"),
    ({"target": "1", "position_0": "on"}, "numbered 1 to 5"),
    ({"target": "1", "position_6": "on"}, "numbered 1 to 5"),
    ({"target": "1", "position_x": "on"}, "numbered 1 to 5"),
    ({"target": "1"}, "Choose one of Lusk"),
    ({"target": "1", "position_1": "on", "position_2": "on"}, "Choose only one card"),
    ({"target": "9", "position_1": "on"}, "not a player to question"),
    ({"target": "-1", "position_1": "on"}, "not a player to question"),
    ({"target": "", "position_1": "on"}, "choose the player to question"),
    ({"target": "1" * 500, "position_1": "on"}, "not a player to question"),
])
def test_bad_questions_are_refused(fields, match):
    refused(new_game(5), 0, match, type="question", **fields)


def test_an_unchecked_box_does_not_count():
    state = new_game(5)
    refused(state, 0, "Choose one", type="question", target="1", position_2="off")
    after = act(state, 0, type="question", target="1", position_2="off", position_4="on")
    assert after["revealed"][1] == [False, False, False, True, False]


def test_questioning_a_revealed_position_or_a_dead_player_is_refused():
    state = new_game(5)
    state = question(state, 0, 1, 2)
    state = turn_of(state, 2)
    refused(state, 2, "Card 2 of Lusk \\(Ben\\) is already revealed", type="question",
            target="1", position_2="on")
    state = act(state, TABLE, type="mark_dead", target="4")
    refused(state, 2, "dead: a dead player's cards stay face down until the end of the game",
            type="question", target="4", position_1="on")
    refused(state, 2, "stay face down", type="black_market", target="4", position_1="on")


def test_questioning_out_of_turn_or_from_the_table_is_refused():
    state = new_game(5)
    refused(state, 2, "not your turn: Abberline \\(Ada\\) is playing", type="question", target="1",
            position_1="on")
    refused(state, TABLE, "on their own phone", type="question", target="1",
            position_1="on")


def test_a_dead_player_cannot_question_and_the_phone_says_so():
    state = act(new_game(5), TABLE, type="mark_dead", target="3")
    me = game.view(state, 3)["me"]
    assert me["alive"] is False and me["dead_note"] == (
        "You are dead. Nobody may question you any more: your face-down cards stay face down "
        "until the end of the game.")
    assert me["line_note"] is None
    state = turn_of(state, 4)
    assert [entry["seat"] for entry in game.view(state, TABLE)["order"]] == [0, 1, 2, 3, 4]
    state = next_round(state)
    assert 3 not in [entry["seat"] for entry in game.view(state, TABLE)["order"]]
    refused(state, 3, "not your turn", type="end_turn")


def test_all_cards_revealed_leaves_nothing_to_ask():
    state = new_game(4)
    for position in range(1, 6):
        state = turn_of(state, 0)
        state = act(state, 0, type="question", target="1", **{f"position_{position}": "on"})
    state = turn_of(state, 0)
    refused(state, 0, "All of Lusk \\(Ben\\)'s cards are already revealed", type="question",
            target="1", position_1="on")
    assert all(t["seat"] != 1 for t in game.view(state, 0)["me"]["targets"])


def test_black_market_reveals_one_card_of_any_player():
    state = new_game(5)
    state = question(state, 0, 3, 5, kind="black_market")
    assert state["revealed"][3][4] is True
    assert "Black Market" in game.view(state, TABLE)["log"][-1]["text"]
    assert game.view(state, TABLE)["reveals"][-1]["how"] == "black_market"
    state = turn_of(state, 1)
    refused(state, 1, "another player", type="black_market", target="1", position_1="on")
    refused(state, 1, "Choose only one", type="black_market", target="2", position_1="on",
            position_2="on")


# --- prison -------------------------------------------------------------------------------

def test_a_player_questioned_in_prison_reveals_two_cards():
    state = act(new_game(5), TABLE, type="arrest", target="2", by="abberline")
    assert game.view(state, TABLE)["seats"][2]["in_prison"] is True
    refused(state, 0, "Choose two of Gull", type="question", target="2", position_1="on")
    refused(state, 0, "reveals two cards, not more", type="question", target="2",
            position_1="on", position_2="on", position_3="on")
    state = act(state, 0, type="question", target="2", position_1="on", position_3="on")
    assert state["revealed"][2] == [True, False, True, False, False]
    assert [t["picks"] for t in game.view(state, 1)["me"]["targets"]] == []
    state = turn_of(state, 1)
    target = next(t for t in game.view(state, 1)["me"]["targets"] if t["seat"] == 2)
    assert target["picks"] == 2 and target["in_prison"] is True


def test_in_prison_with_one_card_left_one_is_revealed():
    state = new_game(4)
    for positions in ((1,), (2,), (3,), (4,)):
        state = turn_of(state, 0)
        state = act(state, 0, type="question", target="1",
                    **{f"position_{p}": "on" for p in positions})
    state = turn_of(state, 2)
    state = act(state, TABLE, type="arrest", target="1", by="black_market")
    state = act(state, 2, type="question", target="1", position_5="on")
    assert all(state["revealed"][1])


def test_two_prisoners_cannot_question_each_other():
    state = new_game(5)
    state = act(state, TABLE, type="arrest", target="0", by="godley")
    state = act(state, TABLE, type="arrest", target="1", by="abberline")
    refused(state, 0, "Two prisoners cannot question each other", type="question",
            target="1", position_1="on")
    assert next(t for t in game.view(state, 0)["me"]["targets"]
                if t["seat"] == 1)["can_question"] is False
    # A prisoner may still question a visitor.
    state = act(state, 0, type="question", target="2", position_1="on")
    assert state["revealed"][2][0]


def test_a_prisoner_cannot_reach_the_black_market():
    state = act(new_game(5), TABLE, type="arrest", target="0", by="godley")
    assert "black_market" not in game.actions(state, 0)
    refused(state, 0, "spending this turn in PRISON", type="black_market", target="1",
            position_1="on")
    # Seat 0 is arrested during its own turn: that turn is not the one spent in prison.
    state = act(state, 0, type="end_turn")
    assert state["prison"][0] == "arrested"


def test_prison_flag_is_cleared_after_the_turn_spent_there():
    state = new_game(5)
    state = act(state, TABLE, type="arrest", target="2", by="abberline")
    state = turn_of(state, 2)
    assert state["prison"][2] == "serving"
    assert "PRISON" in game.view(state, TABLE)["prompt"]
    assert "PRISON" in game.view(state, 2)["prompt"]
    state = act(state, 2, type="end_turn")
    assert game.view(state, TABLE)["seats"][2]["in_prison"] is False
    assert "free again" in game.view(state, TABLE)["log"][-1]["text"]


def test_arrested_during_own_turn_spends_the_next_turn():
    state = turn_of(new_game(5), 3)
    state = act(state, TABLE, type="arrest", target="3", by="black_market")
    state = act(state, 3, type="end_turn")
    assert state["prison"][3] == "arrested"
    state = turn_of(state, 3)
    assert state["prison"][3] == "serving"
    state = act(state, 3, type="end_turn")
    assert state["prison"][3] is None


def test_release_after_bail_or_corruption():
    state = act(new_game(5), TABLE, type="arrest", target="2", by="abberline")
    state = act(state, TABLE, type="release", target="2")
    assert state["prison"][2] is None
    refused(state, TABLE, "not in prison", type="release", target="2")


@pytest.mark.parametrize(("count", "target", "by", "match"), [
    (5, "3", "abberline", "Warren cannot be arrested before the Resignation"),
    (5, "3", "card", "Warren cannot be arrested"),
    (8, "7", "godley", "Prince Albert Victor cannot be arrested"),
    (8, "7", "card", "Prince Albert Victor cannot be arrested"),
    (4, "1", "godley", "Godley is not in this game"),
    (5, "0", "abberline", "Abberline cannot arrest himself"),
    (5, "4", "godley", "Godley cannot arrest himself"),
    (5, "0", "card", "holds the ABSINTHE card"),
    (5, "0", "black_market", "holds the ABSINTHE card"),
    (5, "1", "magic", "not a way of arresting"),
    (5, "1", "", "choose the way of arresting"),
    (5, "12", "card", "not a player to arrest"),
])
def test_arrests_the_rules_forbid(count, target, by, match):
    refused(new_game(count), TABLE, match, type="arrest", target=target, by=by)


def test_black_market_arrest_works_on_warren_and_the_prince():
    state = new_game(8)
    state = act(state, TABLE, type="arrest", target="3", by="black_market")
    state = act(state, TABLE, type="arrest", target="7", by="black_market")
    assert state["prison"][3] and state["prison"][7]
    refused(state, TABLE, "already in prison", type="arrest", target="3", by="black_market")


def test_without_absinthe_the_arrest_card_works_on_anyone_arrestable():
    state = act(new_game(5, absinthe=""), TABLE, type="arrest", target="0", by="card")
    assert state["prison"][0] == "arrested"


def test_warren_can_be_arrested_after_resignation():
    state = seed_where(resignation_and_manifestation_before_the_end)
    while not game.view(state, TABLE)["resigned"]:
        state = next_round(state)
    state = act(state, TABLE, type="arrest", target="3", by="abberline")
    assert state["prison"][3] == "arrested"


def test_arrests_by_a_dead_policeman_or_of_the_dead_are_refused():
    state = act(new_game(5), TABLE, type="mark_dead", target="4")
    refused(state, TABLE, "Godley is dead", type="arrest", target="1", by="godley")
    refused(state, TABLE, "is dead", type="arrest", target="4", by="abberline")


# --- deaths ----------------------------------------------------------------------------------

def test_killing_without_knowing_the_identity_sends_the_killer_to_prison():
    state = seed_where(lambda s: jack_of(s) != 2)
    state = act(state, TABLE, type="mark_dead", target="2", killer="1")
    assert state["prison"][1] == "arrested" and state["alive"][2] is False
    assert "PRISON" in game.view(state, TABLE)["log"][-1]["text"]


def test_killing_a_cleared_player_or_once_jack_is_known_is_free():
    state = seed_where(lambda s: jack_of(s) == 4)
    state = reveal_role(state, 2, by=0)
    state = act(state, TABLE, type="mark_dead", target="2", killer="1")
    assert state["prison"][1] is None
    state = reveal_role(state, 4, by=1)
    state = act(state, TABLE, type="mark_dead", target="3", killer="1")
    assert state["prison"][1] is None


@pytest.mark.parametrize(("fields", "match"), [
    ({"target": "1", "killer": "1"}, "their own killer"),
    ({"target": "1", "killer": "7"}, "not a killer"),
    ({"target": "x"}, "not a player who died"),
])
def test_bad_deaths_are_refused(fields, match):
    refused(new_game(5), TABLE, match, type="mark_dead", **fields)


def test_the_dead_cannot_die_or_kill_again():
    state = act(new_game(5), TABLE, type="mark_dead", target="2")
    refused(state, TABLE, "already dead", type="mark_dead", target="2")
    refused(state, TABLE, "Gull \\(Cleo\\) is dead", type="mark_dead", target="1", killer="2")


def test_death_of_the_player_whose_turn_it_is_passes_the_turn():
    state = turn_of(new_game(5), 1)
    state = act(state, TABLE, type="mark_dead", target="1")
    assert current(state) == 2
    state = turn_of(state, 4)
    state = act(state, TABLE, type="mark_dead", target="4")
    assert current(state) is None
    assert "Round 1 is over" in game.view(state, TABLE)["log"][-1]["text"]


def test_phone_only_for_seats_and_table_actions_only_for_the_table():
    state = new_game(5)
    refused(state, 0, "The outcome is entered by the host at the table screen",
            type="record_outcome")
    refused(state, 0, "End your turn first: the next event card is turned once everyone",
            type="next_round")
    refused(state, 1, "Abberline \\(Ada\\) is playing: the next event card is turned once",
            type="next_round")
    for kind in ("confirm_outcome", "withdraw_outcome"):
        refused(state, TABLE, "No outcome has been proposed", type=kind)
    refused(state, 7, "one of this table's 5 seats", type="end_turn")
    refused(state, "host", "one of this table's 5 seats", type="end_turn")
    refused(state, TABLE, "not something you can do in London 1888", type="teleport")
    refused(state, TABLE, "not something you can do in London 1888")
    for garbage in ("end_turn", None, ["type", "end_turn"]):
        with pytest.raises(RuleError, match="a form's fields"):
            game.apply(state, TABLE, garbage, random.Random(0))


# --- the end ------------------------------------------------------------------------------

def test_innocents_cannot_win_while_jack_is_undiscovered():
    state = new_game(5)
    refused(state, TABLE, "has not been discovered", type="record_outcome",
            result="innocents")
    state = act(state, TABLE, type="mark_dead", target=str(jack_of(state)))
    refused(state, TABLE, "has not been discovered", type="record_outcome",
            result="innocents")


def test_innocents_cannot_win_while_a_discovered_jack_is_at_large():
    state = seed_where(lambda s: jack_of(s) == 2)
    state = reveal_role(state, 2, by=0)
    refused(state, TABLE, "still at large", type="record_outcome", result="innocents")


def test_innocents_win_when_discovered_jack_is_arrested():
    state = seed_where(lambda s: jack_of(s) == 2)
    state = reveal_role(state, 2, by=0)
    state = act(state, TABLE, type="arrest", target="2", by="abberline")
    assert "Innocents win" in game.view(state, TABLE)["prompt"]
    assert "CORRUPTION" in game.view(state, TABLE)["log"][-1]["text"]
    state = record(state, "innocents", 3)
    summary = game.outcome_summary(state)
    assert summary["winner"] == "innocents" and summary["discovered"] is True
    assert summary["points"] == [1, 1, 0, 0, 1]
    assert game.is_over(state)


# Rulebook "Discovery of Jack the Ripper": "He may lose by being arrested or killed by
# ABBERLINE or GODLEY, or killed by the other players."; "Reveals and End of Game": "if Jack
# the Ripper is discovered and arrested by ABBERLINE or GODLEY, he may not play a CORRUPTION
# card."; "Prison and Arrests": "unless WARREN saves them by playing a CORRUPTION card, or
# they discard 10£ to pay for their release".

def test_an_arrest_card_on_a_discovered_jack_does_not_end_the_game():
    state = seed_where(lambda s: jack_of(s) == 2 and s["holder"] != 2)
    state = reveal_role(state, 2, by=0)
    state = act(state, TABLE, type="arrest", target="2", by="card")
    table = game.view(state, TABLE)
    assert "Innocents win" not in table["prompt"]
    assert table["jack"]["in_prison"] and table["jack"]["caught"] is False
    assert table["seats"][2]["prison_reason"] == "ARREST card"
    assert "may pay or be saved like any prisoner" in table["log"][-1]["text"]
    refused(state, TABLE, "only an arrest by Abberline or Godley, or a kill, catches him",
            type="record_outcome", result="innocents")
    # Like any prisoner, he may pay £10 or be saved by Warren's CORRUPTION card.
    released = act(state, TABLE, type="release", target="2")
    assert released["prison"][2] is None
    # Still in prison when the 5th murder's round ends, he wins.
    state = finish_round(play_to_fifth_murder(state))
    summary = game.outcome_summary(record(state, "jack_fifth_murder"))
    assert (summary["winner"], summary["jack"], summary["discovered"]) == ("jack", 2, True)


@pytest.mark.parametrize("by", ["card", "black_market"])
def test_a_jack_in_prison_by_an_arrest_card_cannot_take_his_life_there(by):
    state = seed_where(lambda s: jack_of(s) == 2 and s["holder"] != 2)
    state = reveal_role(state, 2, by=0)
    state = act(state, TABLE, type="arrest", target="2", by=by)
    refused(state, TABLE, "“at home, in his starting residence”", type="record_outcome",
            result="jack_suicide")
    state = act(state, TABLE, type="release", target="2")
    assert game.outcome_summary(record(state, "jack_suicide"))["points"][2] == 2


@pytest.mark.parametrize(("by", "police"), [("abberline", "Abberline"), ("godley", "Godley")])
def test_an_arrest_by_abberline_or_godley_catches_a_discovered_jack(by, police):
    state = seed_where(lambda s: jack_of(s) == 2)
    state = reveal_role(state, 2, by=0)
    state = act(state, TABLE, type="arrest", target="2", by=by)
    table = game.view(state, TABLE)
    assert table["jack"]["caught"] is True
    assert f"arrested by {police}: the Innocents win" in table["prompt"]
    assert "may not play a CORRUPTION card nor pay" in table["log"][-1]["text"]
    refused(state, TABLE, "“may not play a CORRUPTION card”", type="release", target="2")
    refused(state, TABLE, "held by the police", type="record_outcome", result="jack_suicide")
    assert game.outcome_summary(record(state, "innocents"))["winner"] == "innocents"


def test_an_undiscovered_jack_arrested_by_the_police_is_caught_once_discovered():
    state = seed_where(lambda s: jack_of(s) == 2)
    state = act(state, TABLE, type="arrest", target="2", by="godley")
    assert game.view(state, TABLE)["jack"] is None
    state = reveal_role(state, 2, by=0)
    assert game.view(state, TABLE)["jack"]["caught"] is True
    refused(state, TABLE, "“may not play a CORRUPTION card”", type="release", target="2")


def test_a_killer_in_prison_is_not_held_by_the_police():
    state = seed_where(lambda s: jack_of(s) == 1)
    state = act(state, TABLE, type="mark_dead", target="3", killer="1")
    assert game.view(state, TABLE)["seats"][1]["prison_reason"] == (
        "killed without knowing the victim's identity")
    state = reveal_role(state, 1, by=0)
    assert game.view(state, TABLE)["jack"]["caught"] is False
    assert act(state, TABLE, type="release", target="1")["prison"][1] is None


def test_states_saved_before_the_arrest_was_kept_read_as_an_arrest_card():
    state = seed_where(lambda s: jack_of(s) == 2 and s["holder"] != 2)
    state = reveal_role(state, 2, by=0)
    state = act(state, TABLE, type="arrest", target="2", by="abberline")
    old = {key: value for key, value in state.items() if key not in ("arrested_by", "proposal")}
    assert game.view(old, TABLE)["jack"]["caught"] is False
    assert act(old, TABLE, type="release", target="2")["prison"][2] is None


# Rulebook "Reveals and End of Game" and docs/RULINGS.md#london-1888, "Proposed, then confirmed":
# the outcome is shown to the table and only then confirmed; until then it can be withdrawn,
# and nothing secret is revealed.

def test_the_outcome_is_proposed_then_confirmed():
    state = seed_where(lambda s: jack_of(s) == 4)
    state = reveal_role(state, 4, by=0)
    proposed = propose(state, "jack_suicide", 2, 4)
    assert not game.is_over(proposed) and game.outcome_summary(proposed) is None
    for viewer in (TABLE, 0, 4):
        seen = game.view(proposed, viewer)
        assert seen["phase"] == "proposed" and seen["outcome"] is None
        assert seen["proposal"]["label"] == "Jack wins: he took his own life at home"
        assert seen["proposal"]["accomplices"] == ["Gull (Cleo)", "Godley (Eve)"]
        assert seen["deck"] is None
        assert all(entry["card"] is None for entry in seen["seats"][1]["line"])
    assert "Confirm" in game.view(proposed, TABLE)["prompt"]
    assert "speak up now" in game.view(proposed, 1)["prompt"]
    assert game.actions(proposed, TABLE) == ["confirm_outcome", "withdraw_outcome"]
    assert all(game.actions(proposed, seat) == [] for seat in range(5))
    confirmed = act(proposed, TABLE, type="confirm_outcome")
    assert game.is_over(confirmed)
    assert game.outcome_summary(confirmed)["accomplices"] == [2]
    assert game.view(confirmed, TABLE)["proposal"] is None


def test_a_proposed_outcome_pauses_play_until_withdrawn():
    state = seed_where(lambda s: jack_of(s) == 4)
    state = reveal_role(state, 4, by=0)
    proposed = propose(state, "jack_suicide")
    seat = current(proposed)
    refused(proposed, seat, "play waits until the host confirms it", type="end_turn")
    refused(proposed, TABLE, "play waits until the host confirms it", type="mark_dead",
            target="1")
    refused(proposed, TABLE, "play waits", type="record_outcome", result="jack_suicide")
    withdrawn = act(proposed, TABLE, type="withdraw_outcome")
    assert withdrawn["proposal"] is None and not game.is_over(withdrawn)
    assert "withdrawn: the game goes on" in game.view(withdrawn, TABLE)["log"][-1]["text"]
    assert game.actions(withdrawn, seat) == game.actions(state, seat)
    assert current(act(withdrawn, TABLE, type="end_turn")) != seat


def test_a_wrong_killed_everyone_is_seen_and_withdrawn_before_the_reveal():
    """The module's promise: a mis-ticked "killed everyone" is fixed before secrets show."""
    state = seed_where(lambda s: jack_of(s) == 1, count=4)
    for victim in (2, 3):
        state = act(state, TABLE, type="mark_dead", target=str(victim))
    wrong = propose(state, "jack_killed_everyone", 1)  # Jack's own box ticked by mistake
    assert game.view(wrong, 0)["proposal"]["names_jack"] == "Abberline (Ada)"
    assert game.outcome_summary(wrong) is None
    state = record(act(wrong, TABLE, type="withdraw_outcome"), "jack_killed_everyone", 0)
    summary = game.outcome_summary(state)
    assert (summary["jack"], summary["accomplices"], summary["points"]) == (1, [0], [7, 7, 0, 0])


def test_a_proposal_tells_nobody_who_jack_is():
    """Two games differing only in which of two living, unrevealed players is Jack: the
    proposal, its withdrawal and a second proposal look the same to every viewer."""
    state = seed_where(lambda s: jack_of(s) == 0, count=4)
    twin = swap_jack(state, 1)
    for victim in (2, 3):
        state = act(state, TABLE, type="mark_dead", target=str(victim))
        twin = act(twin, TABLE, type="mark_dead", target=str(victim))
    steps = [{"type": "record_outcome", "result": "jack_killed_everyone", "accomplice_1": "on"},
             {"type": "withdraw_outcome"},
             {"type": "record_outcome", "result": "jack_killed_everyone", "accomplice_0": "on"}]
    for step in steps:
        state = act(state, TABLE, **step)
        twin = act(twin, TABLE, **step)
        for viewer in (TABLE, 2, 3):
            assert game.view(state, viewer) == game.view(twin, viewer)
            assert game.actions(state, viewer) == game.actions(twin, viewer)


def test_innocents_win_when_discovered_jack_is_killed():
    state = seed_where(lambda s: jack_of(s) == 1)
    state = reveal_role(state, 1, by=0)
    state = act(state, TABLE, type="mark_dead", target="1", killer="3")
    assert state["prison"][3] is None
    state = record(state, "innocents")
    assert game.outcome_summary(state)["points"] == [1, 0, 1, 1, 1]


def test_dead_undiscovered_jack_then_everyone_cleared_means_innocents_win():
    state = seed_where(lambda s: jack_of(s) == 3, count=4)
    state = act(state, TABLE, type="mark_dead", target="3", killer="0")
    assert state["prison"][0] == "arrested"
    state = reveal_role(state, 0, by=1)
    state = reveal_role(state, 1, by=2)
    refused(state, TABLE, "has not been discovered", type="record_outcome",
            result="innocents")
    state = reveal_role(state, 2, by=1)
    state = record(state, "innocents")
    summary = game.outcome_summary(state)
    assert summary["discovered"] is True and summary["points"] == [1, 1, 1, 0]


def test_suicide_needs_a_discovered_living_jack():
    state = seed_where(lambda s: jack_of(s) == 4)
    refused(state, TABLE, "only once his identity is discovered", type="record_outcome",
            result="jack_suicide")
    state = reveal_role(state, 4, by=0)
    state = record(state, "jack_suicide", 2)
    summary = game.outcome_summary(state)
    assert (summary["winner"], summary["how"], summary["jack"]) == ("jack", "suicide", 4)
    assert summary["murder_round"] is None
    assert summary["points"] == [0, 0, 2, 0, 2]


def test_killed_everyone_needs_everyone_but_jack_and_accomplices_dead():
    state = seed_where(lambda s: jack_of(s) == 2, count=4)
    refused(state, TABLE, "only Jack and his accomplices are alive",
            type="record_outcome", result="jack_killed_everyone", accomplice_1="on")
    for victim in (0, 3):
        state = act(state, TABLE, type="mark_dead", target=str(victim))
    refused(state, TABLE, "leave Jack unticked", type="record_outcome",
            result="jack_killed_everyone")
    refused(state, TABLE, "leave Jack unticked", type="record_outcome",
            result="jack_killed_everyone", accomplice_1="on", accomplice_2="on")
    state = record(state, "jack_killed_everyone", 1)
    summary = game.outcome_summary(state)
    assert summary["discovered"] is False and summary["points"] == [0, 7, 7, 0]


def test_killed_everyone_discovered_scores_three():
    state = seed_where(lambda s: jack_of(s) == 0, count=4)
    state = reveal_role(state, 0, by=1)
    for victim in (1, 2):
        state = act(state, TABLE, type="mark_dead", target=str(victim), killer="0")
    assert state["prison"][0] is None, "killing is free once Jack is known"
    refused(state, TABLE, "Warren \\(Dan\\) is alive and not Jack the Ripper",
            type="record_outcome", result="jack_killed_everyone", accomplice_0="on")
    state = act(state, TABLE, type="mark_dead", target="3", killer="0")
    state = record(state, "jack_killed_everyone")
    assert game.outcome_summary(state)["points"] == [3, 0, 0, 0]


def test_trying_outcomes_never_tells_the_host_who_jack_is():
    """The same outcome attempts on two games that differ only in which of two unrevealed
    players is Jack are accepted or refused alike, with the same message."""
    state = seed_where(lambda s: jack_of(s) == 0)
    twin = copy.deepcopy(state)
    twin["lines"][0][twin["lines"][0].index("jack")] = "innocent"
    twin["lines"][1][role_position(state, 1) - 1] = "jack"
    state = act(state, TABLE, type="mark_dead", target="4")
    twin = act(twin, TABLE, type="mark_dead", target="4")
    attempts = [{"result": result, **{f"accomplice_{seat}": "on" for seat in ticked}}
                for result in game.RESULTS
                for ticked in ((), (1, 2, 3), (0, 2, 3), (0, 1, 2, 3), (2,))]
    for fields in attempts:
        outcomes = []
        for game_state in (state, twin):
            try:
                game.apply(game_state, TABLE, {"type": "record_outcome", **fields},
                           random.Random(0))
                outcomes.append("accepted")
            except RuleError as error:
                outcomes.append(error.message)
        assert outcomes[0] == outcomes[1], fields


def test_fifth_murder_outcome_needs_the_round_finished():
    state = new_game(5, 11)
    refused(state, TABLE, "Only 0 of 5 murders", type="record_outcome",
            result="jack_fifth_murder")
    state = play_to_fifth_murder(state)
    refused(state, TABLE, "must be ended first", type="record_outcome",
            result="jack_fifth_murder")
    state = finish_round(state)
    state = record(state, "jack_fifth_murder", 1)
    summary = game.outcome_summary(state)
    assert summary["murder_round"] == game.fifth_murder_round(state["deck"]) == state["round"]
    jack = jack_of(state)
    assert summary["jack"] == jack and summary["discovered"] is False
    expected = 8
    assert summary["points"] == [expected if seat in {jack, 1} else 0 for seat in range(5)]


def test_fifth_murder_with_a_caught_discovered_jack_is_an_innocent_win():
    state = seed_where(lambda s: jack_of(s) == 1)
    state = reveal_role(state, 1, by=0)
    state = act(state, TABLE, type="mark_dead", target="1")
    state = finish_round(play_to_fifth_murder(state))
    refused(state, TABLE, "the Innocents win", type="record_outcome",
            result="jack_fifth_murder")
    refused(state, TABLE, "is dead", type="record_outcome", result="jack_suicide")
    assert game.outcome_summary(record(state, "innocents"))["winner"] == "innocents"


def test_dead_undiscovered_jack_wins_at_the_fifth_murder():
    state = seed_where(lambda s: jack_of(s) == 2)
    state = act(state, TABLE, type="mark_dead", target="2", killer="0")
    state = finish_round(play_to_fifth_murder(state))
    summary = game.outcome_summary(record(state, "jack_fifth_murder"))
    assert summary["winner"] == "jack" and summary["discovered"] is False
    assert summary["points"][2] > 0


def test_fifth_murder_points_follow_the_round_of_the_deck():
    rows = {}
    for seed in range(200):
        state = new_game(4, seed)
        murder_round = game.fifth_murder_round(state["deck"])
        band = 11 if murder_round == 11 else 16 if murder_round <= 16 else 21
        if band in rows:
            continue
        jack = jack_of(state)
        helper = (jack + 1) % 4
        state = reveal_role(state, jack, by=helper)
        state = finish_round(play_to_fifth_murder(state))
        summary = game.outcome_summary(record(state, "jack_fifth_murder", helper))
        assert summary["murder_round"] == murder_round and summary["discovered"] is True
        rows[band] = summary["points"][jack]
        assert summary["points"][helper] == rows[band]
        assert sum(summary["points"]) == 2 * rows[band]
    assert rows == {11: 4, 16: 5, 21: 6}


def test_accomplice_box_on_jacks_own_seat_is_ignored_quietly():
    state = seed_where(lambda s: jack_of(s) == 2)
    state = reveal_role(state, 2, by=0)
    state = record(state, "jack_suicide", 2, 3)
    assert game.outcome_summary(state)["accomplices"] == [3]


@pytest.mark.parametrize(("fields", "match"), [
    ({"result": "draw"}, "not a result"),
    ({"result": ""}, "choose the result"),
    ({"result": "innocents", "accomplice_9": "on"}, "not a player"),
])
def test_bad_outcome_forms_are_refused(fields, match):
    refused(new_game(5), TABLE, match, type="record_outcome", **fields)


def test_after_the_outcome_everything_is_revealed_and_nothing_more_happens():
    state = seed_where(lambda s: jack_of(s) == 3)
    state = question(state, 0, 1, 1)
    state = reveal_role(state, 3, by=1)
    state = record(state, "jack_suicide")
    for viewer in (TABLE, 0, 3):
        seen = game.view(state, viewer)
        assert seen["over"] and seen["phase"] == "over"
        assert [[e["card"] for e in s["line"]] for s in seen["seats"]] == state["lines"]
        assert seen["seats"][1]["line"][0]["revealed"] is True
        assert seen["seats"][1]["line"][1]["revealed"] is False
        assert [c["name"] for c in seen["deck"]] == [c["name"] for c in state["deck"]]
        assert sum(c["turned"] for c in seen["deck"]) == state["round"] - 1
        assert seen["outcome"]["points"] == game.outcome_summary(state)["points"]
        assert game.actions(state, viewer) == []
    refused(state, TABLE, "The game is over", type="next_round")
    refused(state, 0, "The game is over", type="end_turn")
    json.dumps(game.view(state, TABLE))


def test_outcome_summary_is_none_while_playing():
    assert game.outcome_summary(new_game(5)) is None
    assert game.view(new_game(5), TABLE)["outcome"] is None


# --- tournament points: every row of the rulebook table -----------------------------------

def outcome(winner, how=None, murder_round=None, discovered=True, jack=0, accomplices=()):
    return {"winner": winner, "how": how, "murder_round": murder_round,
            "discovered": discovered, "jack": jack, "accomplices": list(accomplices)}


@pytest.mark.parametrize(("row", "points"), [
    (outcome("jack", "suicide"), 2),
    (outcome("jack", "killed_everyone"), 3),
    (outcome("jack", "fifth_murder", 11), 4),
    (outcome("jack", "fifth_murder", 12), 5),
    (outcome("jack", "fifth_murder", 16), 5),
    (outcome("jack", "fifth_murder", 17), 6),
    (outcome("jack", "fifth_murder", 21), 6),
    (outcome("jack", "killed_everyone", discovered=False), 7),
    (outcome("jack", "fifth_murder", 11, discovered=False), 8),
    (outcome("jack", "fifth_murder", 12, discovered=False), 8),
    (outcome("jack", "fifth_murder", 21, discovered=False), 8),
])
def test_every_jack_row_of_the_rulebook_table(row, points):
    row = {**row, "jack": 2, "accomplices": [4]}
    assert game.tournament_points(row, 6) == [0, 0, points, 0, points, 0]


def test_innocents_win_gives_one_point_per_innocent_not_accomplice():
    assert game.tournament_points(outcome("innocents", jack=1, accomplices=[3]), 5) == [
        1, 0, 1, 0, 1]
    assert game.tournament_points(outcome("innocents", jack=7), 8) == [1] * 7 + [0]


def test_late_undiscovered_fifth_murder_is_configurable():
    late = outcome("jack", "fifth_murder", 14, discovered=False, jack=1)
    assert game.tournament_points(late, 4, undiscovered_late_murder=6) == [0, 6, 0, 0]
    early = outcome("jack", "fifth_murder", 11, discovered=False, jack=1)
    assert game.tournament_points(early, 4, undiscovered_late_murder=6) == [0, 8, 0, 0]


@pytest.mark.parametrize(("row", "players", "match"), [
    (outcome("jack", "suicide", discovered=False), 5, "suicide while his identity is undis"),
    (outcome("innocents", discovered=False), 5, "undiscovered"),
    (outcome("innocents", "suicide"), 5, "has no"),
    (outcome("jack", "fifth_murder", 10), 5, "between round 11 and round 21"),
    (outcome("jack", "fifth_murder", 22), 5, "between round 11 and round 21"),
    (outcome("jack", "fifth_murder", None), 5, "between round 11"),
    (outcome("jack", "fifth_murder", "12"), 5, "between round 11"),
    (outcome("jack", "teatime"), 5, "not a way for Jack to win"),
    (outcome("nobody"), 5, "Innocents or Jack"),
    (outcome("jack", "suicide", jack=5), 5, "Jack's seat"),
    (outcome("jack", "suicide", accomplices=[9]), 5, "seats of this game"),
    (outcome("jack", "suicide"), 3, "4 to 8 players"),
])
def test_outcomes_the_rules_do_not_allow_are_refused(row, players, match):
    with pytest.raises(RuleError, match=match):
        game.tournament_points(row, players)


def test_outcome_summary_feeds_tournament_points_unchanged():
    state = seed_where(lambda s: jack_of(s) == 0)
    state = reveal_role(state, 0, by=1)
    summary = game.outcome_summary(record(state, "jack_suicide", 4))
    assert set(summary) == {"winner", "how", "murder_round", "discovered", "jack",
                            "accomplices", "players", "characters", "round", "points"}
    assert summary["characters"] == ["Abberline", "Lusk", "Gull", "Warren", "Godley"]
    assert game.tournament_points(summary, summary["players"]) == summary["points"]
    assert json.loads(json.dumps(summary)) == summary


# --- what each viewer sees ---------------------------------------------------------------

def test_each_phone_shows_its_role_but_no_position():
    state = new_game(6, 5)
    jack = jack_of(state)
    for seat in range(6):
        me = game.view(state, seat)["me"]
        assert me["role"] == ("jack" if seat == jack else "innocent")
        assert me["role_name"] in ("Jack the Ripper", "Innocent")
        line = game.view(state, seat)["seats"][seat]["line"]
        assert all(entry["card"] is None for entry in line)
        # Every seat holds an identity: its refusals are private, Jack's and the others'.
        assert game.view(state, seat)["private_refusals"] is True
    table = game.view(state, TABLE)
    assert "me" not in table and "private_refusals" not in table
    assert all(entry["card"] is None for s in table["seats"] for entry in s["line"])


def test_views_never_carry_the_deck_order_or_unrevealed_cards():
    state = next_round(next_round(new_game(5, 9)))
    for viewer in (TABLE, 0, 1, 2, 3, 4):
        seen = game.view(state, viewer)
        assert seen["deck"] is None
        assert [e["name"] for e in seen["event_cards"]] == [c["name"] for c in state["deck"][:2]]
        text = json.dumps(seen)
        assert "false_lead" not in text and "suspect" not in text


def test_unknown_viewer_is_refused():
    with pytest.raises(RuleError):
        game.view(new_game(4), 4)
    with pytest.raises(RuleError):
        game.view(new_game(4), "host")
    with pytest.raises(RuleError):
        game.view(new_game(4), True)
    refused(new_game(4), True, "one of this table's 4 seats", type="end_turn")
    refused(new_game(4), 1.0, "one of this table's 4 seats", type="end_turn")


def swap_jack(state: dict, other: int) -> dict:
    """The same game in which ``other`` holds Jack's line and Jack holds ``other``'s."""
    twin = copy.deepcopy(state)
    jack = jack_of(state)
    twin["lines"][jack], twin["lines"][other] = state["lines"][other], state["lines"][jack]
    return twin


def play_both(first: dict, second: dict, hidden_viewers: list) -> None:
    """Same public actions on both; the given viewers must see no difference at all."""
    for step in [None, *PUBLIC_SEQUENCE]:
        if step is not None:
            actor, action = step
            first = game.apply(first, actor, action, random.Random(0))
            second = game.apply(second, actor, action, random.Random(0))
        for viewer in hidden_viewers:
            assert game.view(first, viewer) == game.view(second, viewer)
            assert game.actions(first, viewer) == game.actions(second, viewer)


def test_non_interference_who_is_jack():
    # Jack in seat 0 or seat 1: no card of theirs is ever revealed in the sequence.
    state = seed_where(lambda s: jack_of(s) == 0)
    play_both(state, swap_jack(state, 1), [TABLE, 2, 3, 4])


def test_non_interference_where_the_role_card_lies():
    state = new_game(5, 13)
    twin = copy.deepcopy(state)
    for seat in (0, 3):
        twin["lines"][seat] = list(reversed(state["lines"][seat]))
    play_both(state, twin, [TABLE, 0, 1, 2, 3, 4])


def test_non_interference_the_deck_order_beyond_the_turned_cards():
    state = new_game(5, 14)
    twin = copy.deepcopy(state)
    twin["deck"][2:9] = list(reversed(state["deck"][2:9]))
    twin["deck"][10:] = list(reversed(state["deck"][10:]))
    play_both(state, twin, [TABLE, 0, 1, 2, 3, 4])


# --- arrests, releases and deaths from the phones (docs/RULINGS.md#london-1888, "Who enters
# what") ---------------------------------------------------------------------------------

def sitting(count: int = 5, **form: str) -> dict:
    """A game with Godley at seat 4 (5 players: the default characters)."""
    state = new_game(count, **form)
    assert state["characters"][4] == "Godley"
    return state


def test_abberline_arrests_from_his_phone_in_his_turn_and_both_phones_are_told():
    state = act(sitting(), 0, type="arrest", target="1", by="abberline")
    assert state["prison"][1] == "arrested" and state["arrested_by"][1] == "abberline"
    mine = game.view(state, 1)["news"]
    assert mine[0].startswith("Abberline (Ada) arrested you: you are in PRISON")
    assert "Warren plays a CORRUPTION card for you" in mine[0]
    assert game.view(state, 0)["news"] == ["You arrested Lusk (Ben): they go to PRISON."]
    third = game.view(state, 2)["news"]
    assert third == game.view(state, TABLE)["news"] and "Lusk (Ben) is arrested" in third[0]
    assert "arrest" in game.actions(state, 0) and "question" in game.actions(state, 0), \
        "an arrest is not the turn's one decision"
    assert game.view(act(state, 0, type="end_turn"), 1)["news"] == [], "until the next action"


@pytest.mark.parametrize(("actor", "by", "match"), [
    (4, "godley", "Godley arrests during your own turn: Abberline \\(Ada\\) is playing"),
    (1, "abberline", "Only Abberline makes Abberline's arrests"),
    (1, "card", "during your own turn"),
    (0, "godley", "Only Godley makes Godley's arrests"),
])
def test_phone_arrests_the_rules_forbid(actor, by, match):
    refused(sitting(), actor, match, type="arrest", target="2", by=by)


def test_an_arrest_card_at_the_black_market_at_any_time_and_never_oneself():
    state = act(sitting(), 2, type="arrest", target="3", by="black_market")
    assert state["prison"][3] == "arrested"
    assert game.view(state, 3)["news"][0].startswith(
        "Gull (Cleo) played an ARREST card at the Black Market on you: you are in PRISON")
    assert "or you play a CORRUPTION card" in game.view(state, 3)["news"][0], \
        "Warren is told that he saves himself, not 'or Warren plays'"
    refused(sitting(), 2, "cannot send yourself to prison", type="arrest", target="2",
            by="black_market")
    assert "arrest" not in game.actions(state, 3), "a prisoner arrests nobody"
    refused(state, 3, "You are in PRISON: you cannot arrest", type="arrest", target="1",
            by="black_market")


def test_the_prisoner_pays_or_warren_saves_on_entering_only():
    state = act(sitting(), 0, type="arrest", target="1", by="abberline")
    assert game.view(state, 1)["me"]["can_leave_prison"]
    assert [entry["seat"] for entry in game.view(state, 3)["me"]["corruption_targets"]] == [1]
    refused(state, 2, "Only the prisoner", type="release", target="1")
    paid = act(state, 1, type="release", target="1")
    assert paid["prison"][1] is None
    assert game.view(paid, 1)["news"][0].startswith("You discarded £10: you are out of PRISON")
    saved = act(state, 3, type="release", target="1")
    assert saved["prison"][1] is None
    assert game.view(saved, 1)["news"][0].startswith(
        "Warren (Dan) played a CORRUPTION card for you")
    assert game.view(saved, 3)["news"] == [
        "You played a CORRUPTION card: Lusk (Ben) is out of PRISON."]
    # Once the prisoner's turn in prison has begun, only the host's override releases.
    state = act(state, 0, type="end_turn")
    assert state["prison"][1] == "serving"
    assert "release" not in game.actions(state, 1) and "release" not in game.actions(state, 3)
    refused(state, 1, "Nobody is entering PRISON now", type="release", target="1")
    assert act(state, TABLE, type="release", target="1")["prison"][1] is None


def test_a_caught_jack_cannot_leave_prison_from_his_phone():
    state = seed_where(lambda s: jack_of(s) == 2)
    state = reveal_role(state, 2, by=0)
    state = act(state, TABLE, type="arrest", target="2", by="godley")
    assert "release" not in game.actions(state, 2)
    assert not game.view(state, 2)["me"]["can_leave_prison"]
    refused(state, 2, "Jack the Ripper is caught", type="release", target="2")
    assert game.view(state, 2)["news"][0].endswith("The Innocents win.")
    assert all(game.actions(state, seat) == [] for seat in range(5)), \
        "the game has ended on the board: the table records the outcome"
    refused(state, TABLE, "may not play a CORRUPTION", type="release", target="2")


def test_the_killer_enters_a_kill_in_his_turn_as_his_decision():
    state = act(sitting(), 0, type="mark_dead", target="2")
    assert not state["alive"][2]
    assert state["prison"][0] == "arrested", "killed without knowing the identity"
    assert state["decided"] and "question" not in game.actions(state, 0)
    news = game.view(state, 0)["news"][0]
    assert news.startswith("You killed Gull (Cleo) without knowing their identity: you go "
                           "to PRISON")
    assert game.view(state, 2)["news"] == [
        "Abberline (Ada) killed you: you are dead. Nobody may question you any more: your "
        "face-down cards stay face down until the end of the game."]
    refused(sitting(), 1, "You kill during your own turn", type="mark_dead", target="2")
    refused(sitting(), 0, "Enter only your own kills", type="mark_dead", target="2",
            killer="3")
    asked = question(sitting(), 0, 1, clue_position(sitting(), 1))
    refused(asked, 0, "already taken this turn's decision", type="mark_dead", target="2")


def test_the_victim_enters_their_own_death_at_any_time():
    state = act(sitting(), 3, type="mark_dead", target="3", killer="1")
    assert not state["alive"][3] and state["prison"][1] == "arrested"
    assert game.view(state, 3)["news"][0].startswith(
        "You are dead, killed by Lusk (Ben). Nobody may question you any more")
    assert game.view(state, 1)["news"][0].startswith("Warren (Dan) is dead, killed by you "
                                                     "without knowing their identity")
    assert game.actions(state, 3) == [], "the dead enter nothing"
    alone = act(sitting(), 3, type="mark_dead", target="3", killer="")
    assert game.view(alone, 3)["news"][0].startswith("You are dead. Nobody may question you")
    refused(sitting(), 3, "cannot be their own killer", type="mark_dead", target="3",
            killer="3")


def test_nothing_is_entered_from_a_phone_once_the_fifth_murder_round_is_over():
    state = finish_round(play_to_fifth_murder(new_game(5, 7)))
    for seat in range(5):
        assert game.actions(state, seat) == []


def test_the_outcome_form_is_filled_in_from_what_the_app_knows():
    assert game.view(new_game(5), TABLE)["suggested"] is None
    state = finish_round(play_to_fifth_murder(new_game(5, 7)))
    assert game.view(state, TABLE)["suggested"]["result"] == "jack_fifth_murder"
    caught = seed_where(lambda s: jack_of(s) == 2)
    caught = act(reveal_role(caught, 2, by=0), TABLE, type="arrest", target="2", by="godley")
    suggested = game.view(caught, TABLE)["suggested"]
    assert suggested == {"result": "innocents",
                         "why": "Jack the Ripper, Gull (Cleo), was arrested by Godley."}


def test_no_phone_gives_advice_once_the_game_has_ended():
    state = seed_where(lambda s: jack_of(s) == 2)
    assert game.view(state, 2)["me"]["role_hint"] and not game.view(state, 2)["ended"]
    state = act(reveal_role(state, 2, by=0), TABLE, type="arrest", target="2", by="godley")
    assert game.view(state, 2)["ended"] and game.view(state, 2)["me"]["role_hint"] is None


def test_warrens_own_prison_log_does_not_call_him_by_name():
    state = act(sitting(), 2, type="arrest", target="3", by="black_market")
    assert "unless he plays a CORRUPTION card himself" in state["log"][-1]["text"]


def test_an_imported_state_is_refused_when_its_news_is_not_one_of_this_game():
    state = act(sitting(), 0, type="arrest", target="1", by="abberline")
    game.check_state(state)
    game.check_state({**state, "news": None})
    for bad in ({"target": 9}, {"kind": "teleport"}, {"log": 999}, {"actor": "0"},
                {"way": "magic"}, {"jailed": "yes"}):
        with pytest.raises(RuleError):
            game.check_state({**state, "news": {**state["news"], **bad}})
    four = act(new_game(4), 0, type="arrest", target="1", by="abberline")
    with pytest.raises(RuleError, match="policeman who is not in this game"):
        game.check_state({**four, "news": {**four["news"], "way": "godley"}})


# --- protected arrests: refused, and never offered (docs/RULINGS.md#london-1888, "Protected
# from arrest") ------------------------------------------------------------------------

def offered(state: dict, seat: int) -> dict[str, list[int]]:
    """The seats each way of arresting offers on ``seat``'s phone."""
    return {way["key"]: [entry["seat"] for entry in way["targets"]]
            for way in game.view(state, seat)["me"]["arrest_ways"]}


# (way, protected seat, the rulebook's reason); 8 players: Warren is seat 3, the Prince 7,
# Abberline (seat 0) holds the ABSINTHE card in round 1.
PROTECTED = [
    ("abberline", 3, "Warren cannot be arrested before the Resignation event"),
    ("abberline", 7, "Prince Albert Victor cannot be arrested \\(his privilege\\)"),
    ("card", 3, "Warren cannot be arrested before the Resignation event"),
    ("card", 7, "Prince Albert Victor cannot be arrested"),
    ("godley", 3, "Warren cannot be arrested before the Resignation event"),
    ("godley", 7, "Prince Albert Victor cannot be arrested"),
]


@pytest.mark.parametrize(("by", "target", "reason"), PROTECTED)
def test_every_protected_seat_is_refused_with_the_rulebooks_reason(by, target, reason):
    """"neither WARREN nor the PRINCE may be arrested, since that is the privilege of their
    character (before the appearance of the RESIGNATION Event for WARREN)": refused to the
    policeman or the card's player in his turn, and to the host."""
    state = new_game(8)
    seat = 4 if by == "godley" else 0
    state = turn_of(state, seat)
    refused(state, seat, reason, type="arrest", target=str(target), by=by)
    refused(state, TABLE, reason, type="arrest", target=str(target), by=by)
    assert target not in offered(state, seat)[by]


def test_the_absinthe_holder_is_safe_from_every_arrest_card_but_not_from_the_police():
    """"The ARREST card may not be played on the holder of that card"; at the Black Market
    it "does not work on the player who holds the ABSINTHE card". Abberline and Godley are
    not named: Godley may arrest the holder in his turn."""
    state = turn_of(new_game(5), 1)
    assert state["holder"] == 0
    for by in ("card", "black_market"):
        refused(state, 1, "Abberline \\(Ada\\) holds the ABSINTHE card: the ARREST card does "
                "not work on them", type="arrest", target="0", by=by)
        assert 0 not in offered(state, 1)[by]
    assert offered(state, 1) == {"card": [2, 4], "black_market": [2, 3, 4]}
    godley = turn_of(state, 4)
    assert offered(godley, 4)["godley"] == [0, 1, 2]
    assert act(godley, 4, type="arrest", target="0", by="godley")["prison"][0] == "arrested"
    # Without the card nobody holds it: the ARREST card works on Abberline too.
    variant = turn_of(new_game(5, absinthe=""), 1)
    assert offered(variant, 1) == {"card": [0, 2, 4], "black_market": [0, 2, 3, 4]}


def test_warren_and_the_prince_at_the_black_market_and_warren_after_resignation():
    """At the Black Market the ARREST card works "including SIR WARREN or PRINCE ALBERT
    VICTOR"; after the Resignation event Warren is offered to every way."""
    state = new_game(8)
    assert offered(state, 1) == {"black_market": [2, 3, 4, 5, 6, 7]}
    assert offered(state, 0) == {"abberline": [1, 2, 4, 5, 6], "card": [1, 2, 4, 5, 6],
                                 "black_market": [1, 2, 3, 4, 5, 6, 7]}
    resigned = seed_where(resignation_and_manifestation_before_the_end, count=8)
    while not game.view(resigned, TABLE)["resigned"]:
        resigned = next_round(resigned)
    resigned = turn_of(resigned, 4)
    assert 3 in offered(resigned, 4)["godley"] and 3 in offered(resigned, 4)["card"]
    assert 7 not in offered(resigned, 4)["godley"]


def test_a_way_with_nobody_to_arrest_is_not_offered():
    """Four players, round 1, Lusk's turn: Abberline holds the ABSINTHE card, Warren is
    protected, Gull is in prison: his ARREST card has nobody to work on away from the
    Black Market, where only Warren is left."""
    state = act(new_game(4), TABLE, type="arrest", target="2", by="abberline")
    state = turn_of(state, 1)
    assert offered(state, 1) == {"black_market": [3]}


# --- the next event card from the phone of the ABSINTHE's new holder
# (docs/RULINGS.md#london-1888, "The next event card") ---------------------------------

def test_the_player_who_receives_the_absinthe_turns_the_next_event_card():
    state = finish_round(new_game(5))
    assert [seat for seat in range(5) if "next_round" in game.actions(state, seat)] == [1]
    assert game.view(state, 1)["prompt"] == (
        "Round 1 is over: the ABSINTHE card passes to you. Turn the next event card.")
    assert game.view(state, 1)["now"]["mine"] and not game.view(state, 2)["now"]["mine"]
    for seat in (0, 2, 3, 4):
        refused(state, seat, "Lusk \\(Ben\\) receives the ABSINTHE card and turns the next "
                "event card on their phone", type="next_round")
    turned = act(state, 1, type="next_round")
    assert turned["round"] == 2 and turned["holder"] == 1 and current(turned) == 1
    assert game.view(turned, 3)["latest_event"]["name"] == str(
        _card_name(state["deck"][0]["name"]))
    # Not before everyone has played, nor twice.
    refused(turned, 2, "Lusk \\(Ben\\) is playing: the next event card is turned once",
            type="next_round")
    refused(turned, 1, "End your turn first", type="next_round")
    # The laptop keeps its override: the host turns it for an absent phone.
    by_host = act(finish_round(turned), TABLE, type="next_round")
    assert by_host["round"] == 3 and by_host["holder"] == 2


def test_the_next_event_card_passes_over_the_dead_and_follows_the_variant():
    state = act(finish_round(new_game(5)), TABLE, type="mark_dead", target="1")
    assert [seat for seat in range(5) if "next_round" in game.actions(state, seat)] == [2]
    refused(state, 1, "You are dead", type="next_round")
    variant = finish_round(new_game(5, absinthe=""))
    assert [seat for seat in range(5) if "next_round" in game.actions(variant, seat)] == [0]
    assert game.view(variant, 3)["prompt"] == (
        "Round 1 is over: Abberline (Ada) starts the next round and turns its event card.")
    assert act(variant, 0, type="next_round")["round"] == 2


def test_no_phone_turns_a_card_after_the_fifth_murder():
    state = finish_round(play_to_fifth_murder(new_game(5, 7)))
    assert all("next_round" not in game.actions(state, seat) for seat in range(5))
    last = play_to_fifth_murder(new_game(5, 7))
    refused(last, current(last), "this is the last round", type="next_round")


# --- every sentence a phone shows follows what the table knows (issue 38, point 9) -------

def test_a_discovered_jacks_phone_no_longer_says_nobody_knows_his_card():
    state = seed_where(lambda s: jack_of(s) == 2)
    assert "nobody knows where your role card is" in game.view(state, 2)["me"]["line_note"]
    found = reveal_role(state, 2, by=0)
    me = game.view(found, 2)["me"]
    assert me["line_note"] == ("Sir William Gull, Queen's Physician. Your role card was "
                               "turned over for the whole table.")
    assert me["role_hint"].startswith("You are discovered: flee until the 5th murder")
    # The same words for a cleared Innocent: the note tells nothing of the card.
    cleared = game.view(reveal_role(state, 1, by=0), 1)["me"]["line_note"]
    assert cleared == ("George Lusk, Head of the Protesters. Your role card was turned over "
                       "for the whole table.")


def test_a_line_partly_turned_says_how_many_cards_are_left_face_down():
    state = seed_where(lambda s: jack_of(s) == 2)
    for _ in range(3):
        state = turn_of(state, 0)
        state = act(state, 0, type="question", target="1",
                    **{f"position_{clue_position(state, 1)}": "on"})
        state = act(state, 0, type="end_turn")
    note = game.view(state, 1)["me"]["line_note"]
    assert "2 of your cards still lie face down" in note and "not even you" in note
    state = turn_of(state, 0)
    state = act(state, 0, type="question", target="1",
                **{f"position_{clue_position(state, 1)}": "on"})
    assert game.view(state, 1)["me"]["line_note"].endswith(
        "Only your role card still lies face down.")


def test_a_discovered_jack_who_dies_is_never_told_his_cards_will_never_be_revealed():
    """A dead player's cards stay face down until the end (the reveal then turns every line
    over): no "never" on his phone, the table screen or anyone's."""
    state = reveal_role(seed_where(lambda s: jack_of(s) == 2), 2, by=0)
    dead = act(state, 2, type="mark_dead", target="2", killer="")
    for viewer in (TABLE, 0, 2):
        seen = game.view(dead, viewer)
        words = " ".join(map(str, seen["news"] + [seen["prompt"]]))
        assert "never" not in words and "dead" in words, (viewer, words)
    assert game.view(dead, 2)["me"]["dead_note"] == (
        "You are dead. Nobody may question you any more: your face-down cards stay face down "
        "until the end of the game.")
    over = record(dead, "innocents")
    assert game.view(over, 2)["me"]["dead_note"] == "You are dead."
    assert all(all(seat["line"][i]["card"] for i in range(5))
               for seat in game.view(over, 2)["seats"])
