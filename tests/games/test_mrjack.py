"""Mr. Jack and the Mr. Jack London extension, played by the rulebooks.

Rulebooks: "Mr. Jack" and "Mr. Jack: Extension (Mr. Jack London)";
rulings: docs/RULINGS.md#mr-jack.
"""

from __future__ import annotations

import copy
import json
import random

import pytest

from companion.games import discover, mrjack
from companion.games.base import TABLE, RuleError
from companion.games.mrjack.views import _card

JACK, DETECTIVE = mrjack.JACK, mrjack.DETECTIVE
SEATS = (JACK, DETECTIVE)
VIEWERS = (JACK, DETECTIVE, TABLE)


# --- helpers ---------------------------------------------------------------

def new_game(seed: int = 1, london: bool = False) -> dict:
    return mrjack.setup({"london": london}, ["Ann", "Bob"], random.Random(seed))


def act(state: dict, actor, kind: str, seed: int = 0, **fields) -> dict:
    return mrjack.apply(state, actor, {"type": kind, **fields}, random.Random(seed))


def refused(state: dict, actor, action: dict, message: str) -> None:
    """The action is refused with ``message`` and the state is left exactly as it was."""
    before = copy.deepcopy(state)
    with pytest.raises(RuleError) as caught:
        mrjack.apply(state, actor, action, random.Random(0))
    assert message in caught.value.message
    assert state == before


def with_alibi(state: dict, card: str) -> dict:
    """The same game, but Jack's alibi card is ``card`` (swapped within the alibi deck)."""
    state = copy.deepcopy(state)
    if state["alibi"] != card:
        index = state["alibi_deck"].index(card)
        state["alibi_deck"][index], state["alibi"] = state["alibi"], card
    return state


def pending(state: dict) -> list[str]:
    """The face-up cards of this turn nobody has played yet, in table order."""
    taken = {pick["character"] for pick in state["round"]["picks"]}
    return [card for card in state["round"]["cards"] if card not in taken]


def due(state: dict) -> int:
    return state["round"]["order"][len(state["round"]["picks"])]


def pick_next(state: dict, card: str | None = None) -> dict:
    """The due player plays ``card`` (or the first face-up card left)."""
    return act(state, due(state), "pick", character=card or pending(state)[0])


def play_cards(state: dict, count: int | None = None) -> dict:
    """The due players play ``count`` cards (by default, the rest of this turn's four)."""
    for _ in range(len(pending(state)) if count is None else count):
        state = pick_next(state)
    return state


def marks(cards) -> dict:
    return {f"seen_{card}": "on" for card in cards}


def mark(state: dict, seen=(), seed: int = 0) -> dict:
    """The detective marks ``seen`` and Jack finds the marks match the board: his own
    character where his (honest) answer puts it, whatever ``seen`` says of it."""
    alibi = state["alibi"]
    seen = [card for card in seen if card != alibi] + ([alibi] if state["answer"] == "seen"
                                                        else [])
    state = act(state, DETECTIVE, "mark_seen", **marks(seen))
    return act(state, JACK, "confirm_marks", seed=seed)


def finish_turn(state: dict, answer: str = "seen", seen=(), seed: int = 0) -> dict:
    """Play the rest of the four cards, answer the call for witnesses, mark the seen ones."""
    state = play_cards(state)
    state = act(state, JACK, "witness", answer=answer)
    return mark(state, seen, seed)


def names(view_cards) -> list[str]:
    return [card["id"] for card in view_cards]


def public_text(state: dict, viewer) -> str:
    return json.dumps(mrjack.view(state, viewer))


# --- the setup form ----------------------------------------------------------

def test_registered_with_two_fixed_seats():
    assert discover()["mrjack"] is mrjack
    assert (mrjack.MIN_PLAYERS, mrjack.MAX_PLAYERS, mrjack.DEFAULT_PLAYERS) == (2, 2, 2)
    assert frozenset({0, 1}) == mrjack.FIXED_SEATS
    assert mrjack.seat_labels(2, {}) == ["Jack", "Detective"]


def test_options_default_to_the_base_game_and_read_the_extension_checkbox():
    assert mrjack.default_options() == {"london": False}
    assert mrjack.parse_options({}, 2) == {"london": False}
    assert mrjack.parse_options({"london": "on"}, 2) == {"london": True}
    with pytest.raises(RuleError, match="exactly 2 players"):
        mrjack.parse_options({}, 3)
    with pytest.raises(RuleError, match="exactly 2 players"):
        mrjack.setup({}, ["Ann", "Bob", "Cy"], random.Random(1))


# --- base game setup and the character card cycle -----------------------------

def test_setup_deals_jack_an_alibi_from_the_eight_and_lays_out_turn_one():
    state = new_game(3)
    in_play = set(mrjack.BASE_CHARACTERS)
    assert set(state["characters"]) == in_play
    # Setup 6: Jack's alibi is one of the 8; the other 7 form the hidden alibi deck.
    assert state["alibi"] in in_play
    assert sorted(state["alibi_deck"] + [state["alibi"]]) == sorted(in_play)
    # Game Play I.A: four cards drawn from the shuffled eight, four left face down.
    assert len(state["round"]["cards"]) == 4
    assert sorted(state["round"]["cards"] + state["deck"]) == sorted(in_play)
    assert state["turn"] == 1 and state["witness"] == "seen"
    assert state["round"]["order"] == [DETECTIVE, JACK, JACK, DETECTIVE]
    json.dumps(state)


def test_setup_shuffles_with_the_given_rng_only():
    assert new_game(5) == new_game(5)
    alibis = {new_game(seed)["alibi"] for seed in range(40)}
    firsts = {tuple(new_game(seed)["round"]["cards"]) for seed in range(40)}
    assert len(alibis) > 1 and len(firsts) > 1


def test_deck_cycle_over_eight_turns():
    state = new_game(7)
    seen_turns = []
    for turn in range(1, 9):
        assert state["turn"] == turn
        odd, even = [DETECTIVE, JACK, JACK, DETECTIVE], [JACK, DETECTIVE, DETECTIVE, JACK]
        assert state["round"]["order"] == (odd if turn % 2 else even)
        seen_turns.append(list(state["round"]["cards"]))
        if turn % 2 == 0:
            # Game Play I.B: the even turn uses the four cards the odd turn left.
            assert set(seen_turns[-1]) | set(seen_turns[-2]) == set(mrjack.BASE_CHARACTERS)
            assert not set(seen_turns[-1]) & set(seen_turns[-2])
        if turn < 8:
            state = finish_turn(state, seed=turn)
            if turn % 2 == 0:
                # IV: all eight reshuffled after an even turn; four drawn, four face down.
                assert sorted(state["deck"] + state["round"]["cards"]) == sorted(
                    mrjack.BASE_CHARACTERS)
                assert "the 8 character cards are reshuffled" in state["log"][-2]["text"]
    assert len(seen_turns) == 8


def test_reshuffle_after_even_turns_varies_the_next_odd_turn():
    third_turns = set()
    for seed in range(12):
        state = new_game(1)
        state = finish_turn(finish_turn(state), seed=seed)
        third_turns.add(frozenset(state["round"]["cards"]))
    assert len(third_turns) > 1


def test_odd_turn_pick_order_detective_jack_jack_detective():
    state = new_game(2)
    first, second, third, fourth = state["round"]["cards"]
    refused(state, JACK, {"type": "pick", "character": first}, "detective's turn")
    state = act(state, DETECTIVE, "pick", character=first)
    refused(state, DETECTIVE, {"type": "pick", "character": second}, "Jack's turn")
    state = act(state, JACK, "pick", character=second)
    state = act(state, JACK, "pick", character=third)
    refused(state, JACK, {"type": "pick", "character": fourth}, "detective's turn")
    state = act(state, DETECTIVE, "pick", character=fourth)
    view = mrjack.view(state, TABLE)
    assert [card["taken_by"] for card in view["round"]["cards"]] == [
        "Detective", "Jack", "Jack", "Detective"]
    refused(state, DETECTIVE, {"type": "pick", "character": fourth}, "All four")


def test_even_turn_pick_order_jack_detective_detective_jack():
    state = finish_turn(new_game(2))
    assert state["turn"] == 2
    seats = []
    for _ in range(4):
        seats.append(due(state))
        other = DETECTIVE if due(state) == JACK else JACK
        refused(state, other, {"type": "pick", "character": pending(state)[0]}, "turn to choose")
        state = pick_next(state)
    assert seats == [JACK, DETECTIVE, DETECTIVE, JACK]


def test_pick_refuses_cards_outside_this_turns_four_and_played_cards():
    state = new_game(4)
    outside = state["deck"][0]
    refused(state, DETECTIVE, {"type": "pick", "character": outside},
            f"{mrjack.CHARACTERS[outside]} is not one of the four face-up characters")
    refused(state, DETECTIVE, {"type": "pick", "character": "madame"},
            "Madame is not one of the four")
    refused(state, DETECTIVE, {"type": "pick", "character": "nobody"}, "is not a character")
    refused(state, DETECTIVE, {"type": "pick"}, "Please choose the character")
    played = state["round"]["cards"][0]
    state = act(state, DETECTIVE, "pick", character=played)
    refused(state, JACK, {"type": "pick", "character": played}, "has already been played")
    refused(state, TABLE, {"type": "pick", "character": pending(state)[0]}, "Jack's turn")


def test_table_view_shows_turn_cards_next_picker_and_played_marks():
    state = new_game(6)
    view = mrjack.view(state, TABLE)
    assert view["turn"] == 1
    assert view["round"]["next"] == "Detective"
    assert view["round"]["order"] == ["Detective", "Jack", "Jack", "Detective"]
    assert names(view["round"]["cards"]) == state["round"]["cards"]
    assert view["setup_steps"] and "Witness card" in " ".join(view["setup_steps"])
    state = pick_next(state)
    view = mrjack.view(state, TABLE)
    assert view["round"]["cards"][0]["taken_by"] == "Detective"
    assert view["round"]["next"] == "Jack" and view["round"]["done"] == 1
    assert view["setup_steps"] == []
    assert mrjack.view(state, JACK)["prompt"] == "Choose the character you play."


# --- the call for witnesses -----------------------------------------------------

def test_witness_call_seen_clears_every_suspect_not_seen():
    state = with_alibi(play_cards(new_game(8)), "holmes")
    refused(state, DETECTIVE, {"type": "mark_seen"}, "Wait for Jack")
    refused(state, DETECTIVE, {"type": "witness", "answer": "seen"}, "Only Jack answers")
    state = act(state, JACK, "witness", answer="seen")
    assert mrjack.view(state, TABLE)["witness"]["label"] == "Jack seen"
    refused(state, JACK, {"type": "witness", "answer": "not_seen"}, "already answered")
    refused(state, JACK, {"type": "mark_seen"}, "Only the detective marks")
    seen = ["holmes", "watson", "smith", "lestrade"]
    state = act(state, DETECTIVE, "mark_seen", **marks(seen))
    # Nothing is cleared until Jack has checked the marks against the board.
    assert state["cleared"] == [] and state["turn"] == 1
    assert mrjack.actions(state, JACK) == ["confirm_marks", "return_marks", "correct_answer"]
    refused(state, DETECTIVE, {"type": "mark_seen"}, "Jack is checking your marks")
    refused(state, DETECTIVE, {"type": "confirm_marks"}, "Only Jack checks")
    state = act(state, JACK, "confirm_marks")
    # II: "those characters who cannot be seen are innocent".
    assert state["cleared"] == ["stealthy", "goodley", "gull", "bert"]
    table = mrjack.view(state, TABLE)
    assert names(table["suspects"]) == seen
    assert [c["suspect"] for c in table["characters"]] == [True] * 4 + [False] * 4
    assert state["turn"] == 2 and state["witness"] == "seen"


def test_witness_call_not_seen_clears_the_seen_and_allows_an_escape_next_turn():
    state = play_cards(new_game(8))
    state = act(state, JACK, "witness", answer="not_seen")
    # The chance is for the next turn, not for what is left of this one.
    for viewer in VIEWERS:
        view = mrjack.view(state, viewer)
        assert view["escape_possible"] is False
        assert view["escape_note"] == "Jack may try to leave the district next turn."
    state = act(state, DETECTIVE, "mark_seen", seen_holmes="on", seen_bert="on",
                seen_nobody="on", seen_="on")
    state = act(state, JACK, "confirm_marks")
    assert state["cleared"] == ["holmes", "bert"]
    for viewer in VIEWERS:
        view = mrjack.view(state, viewer)
        assert view["witness"]["side"] == "not_seen"
        assert view["escape_possible"] is True
        assert "Jack may try to leave the district" in view["escape_note"]


def test_cleared_characters_stay_cleared_and_are_not_marked_again():
    state = with_alibi(new_game(8), "holmes")
    state = finish_turn(state, answer="seen", seen=["holmes", "watson", "smith"])
    assert state["cleared"] == ["lestrade", "stealthy", "goodley", "gull", "bert"]
    state = play_cards(state)
    state = act(state, JACK, "witness", answer="not_seen")
    assert names(mrjack.view(state, DETECTIVE)["suspects"]) == ["holmes", "watson", "smith"]
    # A tick on a character already cleared changes nothing.
    state = mark(state, ["watson", "gull"])
    assert state["cleared"] == ["watson", "lestrade", "stealthy", "goodley", "gull", "bert"]


def test_a_mis_tick_that_would_clear_jack_is_never_recorded():
    """Jack (Sir William Gull) answers "seen"; the detective forgets to tick Gull. Jack's
    check refuses the clearing, on his phone alone; sent back, the marks return ticked
    for the detective to mend, and the game goes on with Gull a suspect."""
    state = with_alibi(play_cards(new_game(8)), "gull")
    state = act(state, JACK, "witness", answer="seen")
    state = act(state, DETECTIVE, "mark_seen", seen_holmes="on")
    warning = mrjack.view(state, JACK)["marks_warning"]
    assert "would clear you" in warning and "Sir William Gull" not in warning
    assert mrjack.view(state, DETECTIVE)["marks_warning"] is None
    assert mrjack.view(state, TABLE)["marks_warning"] is None
    refused(state, JACK, {"type": "confirm_marks"}, "clear your own character, Sir William Gull")
    state = act(state, JACK, "return_marks")
    detective = mrjack.view(state, DETECTIVE)
    assert detective["marks"]["returned"] and names(detective["marks"]["seen"]) == ["holmes"]
    assert detective["now"]["text"] == "Your turn: mark who is seen"
    assert "Jack sent your marks back" in detective["now"]["detail"]
    state = act(state, DETECTIVE, "mark_seen", seen_holmes="on", seen_gull="on")
    state = act(state, JACK, "confirm_marks")
    assert "gull" not in state["cleared"] and state["turn"] == 2


def test_jacks_wrong_answer_is_corrected_and_the_marks_sent_again():
    """Jack (Gull) answered "not seen" though Gull stands lit; the detective's right marks
    would clear him: Jack corrects his answer, the Witness card turns, the marks come back
    for the detective to send again."""
    state = with_alibi(play_cards(new_game(8)), "gull")
    refused(state, JACK, {"type": "correct_answer"}, "Answer the call for witnesses first")
    state = act(state, JACK, "witness", answer="not_seen")
    state = act(state, DETECTIVE, "mark_seen", seen_gull="on", seen_holmes="on")
    refused(state, JACK, {"type": "confirm_marks"}, "contradicts your answer (Jack is not seen)")
    refused(state, DETECTIVE, {"type": "correct_answer"}, "Only Jack answers")
    state = act(state, JACK, "correct_answer")
    assert state["witness"] == state["answer"] == "seen"
    assert mrjack.actions(state, DETECTIVE)[-1] == "mark_seen"
    state = act(state, DETECTIVE, "mark_seen", seen_gull="on", seen_holmes="on")
    state = act(state, JACK, "confirm_marks")
    assert state["cleared"] == ["watson", "smith", "lestrade", "stealthy", "goodley", "bert"]


def test_the_detective_sees_the_same_whoever_is_among_his_marks():
    """Two games that differ only in Jack's character, the same marks: every view and
    every offered action of the detective and the table is the same, before and after
    Jack's check sends them back."""
    base = play_cards(new_game(8))
    twins = [act(with_alibi(base, card), JACK, "witness", answer="not_seen")
             for card in ("watson", "holmes")]
    twins = [act(twin, DETECTIVE, "mark_seen", seen_watson="on") for twin in twins]
    for viewer in (DETECTIVE, TABLE):
        assert mrjack.view(twins[0], viewer) == mrjack.view(twins[1], viewer)
        assert mrjack.actions(twins[0], viewer) == mrjack.actions(twins[1], viewer)
    twins = [act(twin, JACK, "return_marks") for twin in twins]
    for viewer in (DETECTIVE, TABLE):
        assert mrjack.view(twins[0], viewer) == mrjack.view(twins[1], viewer)


def test_gaslight_reminders_at_the_end_of_turns_one_to_four_only():
    state = new_game(9)
    for turn in range(1, 8):
        state = play_cards(state)
        reminders = mrjack.view(state, TABLE)["reminders"]
        if turn <= 4:
            assert reminders == [f"After the call for witnesses, gaslight {turn} goes out."]
        else:
            assert reminders == []
        state = mark(act(state, JACK, "witness", answer="seen"))
        reminders = " ".join(mrjack.view(state, TABLE)["reminders"])
        assert (f"remove the lit gaslight tile numbered {turn}" in reminders) == (turn <= 4)
        assert f"Move the turn counter to Turn {turn + 1}" in reminders
        assert ("reshuffled" in reminders) == (turn % 2 == 0)


# --- the ends of the game -----------------------------------------------------

def test_escape_needs_a_not_seen_call_and_jacks_own_activation():
    state = new_game(10)
    state = pick_next(state)            # the detective plays first in turn 1
    state = pick_next(state)            # Jack's first character
    refused(state, JACK, {"type": "escape"}, "the Witness card shows 'Jack seen'")
    state = finish_turn(play_cards(state, 2), answer="not_seen")
    # Turn 2: Jack plays first; his own character is the last of the four.
    state = with_alibi(state, state["round"]["cards"][3])
    refused(state, JACK, {"type": "escape"}, "Choose the character you play first")
    state = pick_next(state)
    refused(state, DETECTIVE, {"type": "escape"}, "Only Jack can leave")
    assert "escape" in mrjack.actions(state, JACK)
    state = pick_next(state)            # the detective's activation now
    refused(state, JACK, {"type": "escape"}, "Choose the character you play first")
    state = pick_next(pick_next(state))
    state = act(state, JACK, "escape")
    assert mrjack.is_over(state)
    view = mrjack.view(state, TABLE)
    assert view["outcome"]["winner"] == "Jack"
    assert mrjack.CHARACTERS[state["alibi"]] in view["outcome"]["text"]
    assert view["alibi"]["id"] == state["alibi"]


def test_escape_only_in_a_turn_in_which_jack_plays_his_own_character():
    """Rulebook, End of the Game 1.: "Jack succeeds in moving his character out of the
    district, by taking the token through an exit that is not blocked by the police."""
    state = finish_turn(new_game(10), answer="not_seen")
    first, last = state["round"]["cards"][0], state["round"]["cards"][3]
    state = with_alibi(state, last)
    state = pick_next(state, first)         # Jack plays someone else's character
    refused(state, JACK, {"type": "escape"},
            "only in a turn in which you play your own character")
    # The button stays: its presence on Jack's phone must not tell a neighbour anything.
    other = with_alibi(state, first)
    assert mrjack.actions(state, JACK) == mrjack.actions(other, JACK)
    for viewer in (TABLE, DETECTIVE):
        assert mrjack.view(state, viewer) == mrjack.view(
            with_alibi(state, state["round"]["cards"][1]), viewer)
    assert act(other, JACK, "escape")["outcome"]["winner"] == JACK
    state = pick_next(pick_next(state))     # the detective's two characters
    state = pick_next(state, last)          # now Jack plays his own character
    assert act(state, JACK, "escape")["outcome"]["winner"] == JACK


def test_the_refusal_names_john_pizer_only_with_the_extension():
    state = finish_turn(new_game(10), answer="not_seen")
    state = with_alibi(pick_next(state), state["round"]["cards"][3])
    with pytest.raises(RuleError) as caught:
        mrjack.apply(state, JACK, {"type": "escape"}, random.Random(0))
    assert "Pizer" not in caught.value.message


def until_jack_may_pick(state: dict, card: str, keep: tuple[str, ...] = ()) -> dict:
    """Turns go on (witness calls "not seen", the others picked first) until Jack is due
    with ``card`` still free; neither ``card`` nor ``keep`` is picked on the way."""
    for _ in range(12):
        if due_or_none(state) is None:
            state = mark(act(state, JACK, "witness", answer="not_seen"))
        elif due(state) == JACK and card in pending(state):
            break
        else:
            others = [other for other in pending(state) if other not in (card, *keep)]
            state = pick_next(state, others[0] if others else None)
    return state


def test_moriarty_impersonating_pizer_may_push_jack_out():
    """Extension, Professor Moriarty: "possesses and uses exactly the same movement capacity
    and Special Ability as the chosen Character"; FAQ: Jack "can use John Pizer to push the
    Character token representing the disguised Jack off the game board"."""
    state = with_alibi(to_play(london_game(keep_jack=("moriarty", "madame"),
                                           keep_detective=("stealthy", "goodley"))), "madame")
    assert "pizer" in state["moriarty"]["row"]
    state = finish_turn(state, answer="not_seen")
    state = until_jack_may_pick(state, "moriarty", keep=("madame",))
    state = act(state, JACK, "pick", character="moriarty")
    as_lane = act(state, JACK, "impersonate", character="lane")
    refused(as_lane, JACK, {"type": "escape"}, "or play John Pizer to push it out")
    as_pizer = act(state, JACK, "impersonate", character="pizer")
    assert act(as_pizer, JACK, "escape")["outcome"]["winner"] == JACK


def test_no_escape_after_a_seen_call():
    state = finish_turn(new_game(10), answer="not_seen")
    state = finish_turn(state, answer="seen")
    assert state["turn"] == 3
    state = pick_next(pick_next(state))
    refused(state, JACK, {"type": "escape"}, "after a 'not seen' call")
    assert "escape" not in mrjack.actions(state, JACK)
    assert mrjack.view(state, DETECTIVE)["escape_possible"] is False


def test_john_pizer_faq_jack_pushes_himself_out_in_a_no_witness_turn():
    state = with_alibi(to_play(london_game(keep_jack=("pizer", "madame"))), "madame")
    state = finish_turn(state, answer="not_seen")
    state = until_jack_may_pick(state, "pizer")
    state = act(state, JACK, "pick", character="pizer")
    state = act(state, JACK, "escape")
    assert mrjack.view(state, DETECTIVE)["outcome"]["text"] == (
        "Jack (Madame) leaves the district and wins.")


def test_a_right_accusation_wins_for_the_detective():
    state = new_game(11)
    card = state["round"]["cards"][2]
    state = with_alibi(state, card)
    refused(state, DETECTIVE, {"type": "accuse", "character": card}, "Choose the character")
    state = pick_next(state)
    refused(state, JACK, {"type": "accuse", "character": card}, "Only the detective can accuse")
    state = act(state, DETECTIVE, "accuse", character=card)
    assert mrjack.is_over(state)
    for viewer in VIEWERS:
        view = mrjack.view(state, viewer)
        assert view["outcome"]["winner"] == "Detective"
        assert view["alibi"]["id"] == card
        assert view["actions"] == []
    refused(state, JACK, {"type": "pick", "character": pending(state)[0]}, "The game is over")


def test_a_wrong_accusation_lets_jack_escape_in_the_confusion():
    state = new_game(11)
    alibi = state["alibi"]
    wrong = next(card for card in state["characters"] if card != alibi)
    state = act(pick_next(state), DETECTIVE, "accuse", character=wrong)
    outcome = mrjack.view(state, TABLE)["outcome"]
    assert outcome["winner"] == "Jack"
    assert "escapes in the confusion" in outcome["text"]
    assert mrjack.CHARACTERS[alibi] in outcome["text"]


def test_accusation_only_during_the_detectives_own_activation():
    state = new_game(12)
    state = pick_next(pick_next(state))                  # Jack is playing now
    target = state["characters"][0]
    refused(state, DETECTIVE, {"type": "accuse", "character": target}, "Choose the character")
    state = play_cards(state, 2)                         # the detective plays the 4th
    assert "accuse" in mrjack.actions(state, DETECTIVE)
    refused(state, DETECTIVE, {"type": "accuse", "character": "madame"}, "is not a character")
    refused(state, DETECTIVE, {"type": "accuse"}, "Please choose the character to accuse")
    state = act(state, JACK, "witness", answer="seen")
    refused(state, DETECTIVE, {"type": "accuse", "character": target},
            "call for witnesses has been made")


def test_dawn_after_turn_eight_jack_wins_and_everything_is_revealed():
    state = new_game(13)
    for _ in range(7):
        state = finish_turn(state)
    assert state["turn"] == 8
    refused(state, JACK, {"type": "dawn"}, "Dawn breaks when the four characters")
    state = play_cards(state)
    refused(state, JACK, {"type": "witness", "answer": "seen"}, "no call for witnesses")
    refused(state, DETECTIVE, {"type": "dawn"}, "Jack or the table screen")
    assert "dawn" in mrjack.actions(state, TABLE)
    state = act(state, TABLE, "dawn")
    view = mrjack.view(state, DETECTIVE)
    assert view["outcome"] == {
        "winner": "Jack",
        "text": f"Dawn after turn 8: Jack ({mrjack.CHARACTERS[state['alibi']]}) has not been "
                f"caught and wins."}
    texts = [line["text"] for line in view["log"]]
    assert f"Jack's alibi card: {mrjack.CHARACTERS[state['alibi']]}." in texts
    assert sum(text.startswith("Turn ") and "face up" in text for text in texts) == 8


# --- alibi draws (Sherlock Holmes) ----------------------------------------------

def end_turn(state: dict, answer: str = "seen") -> dict:
    return mark(act(state, JACK, "witness", answer=answer))


def holmes_turn(seed: int, player: int, last: bool = False) -> dict:
    """The first game from ``seed`` on where ``player`` has just played Sherlock Holmes
    in turns 1-7 (with ``last``: as the fourth card of a turn)."""
    for attempt in range(seed, seed + 50):
        state = new_game(attempt)
        while state["turn"] < 8:
            if due_or_none(state) is None:
                state = end_turn(state)
            elif (due(state) == player and "holmes" in pending(state)
                  and (not last or len(pending(state)) == 1)):
                return act(state, player, "pick", character="holmes")
            else:
                others = [card for card in pending(state) if card != "holmes"]
                state = pick_next(state, others[0] if others else None)
    raise AssertionError("that player never had Sherlock Holmes to play")


def test_the_detective_draws_an_alibi_card_in_secret_and_may_publish_it():
    state = holmes_turn(1, DETECTIVE)
    refused(state, JACK, {"type": "draw_alibi"}, "just played Sherlock Holmes")
    top = state["alibi_deck"][0]
    state = act(state, DETECTIVE, "draw_alibi")
    refused(state, DETECTIVE, {"type": "draw_alibi"}, "already drawn")
    assert mrjack.view(state, DETECTIVE)["my_alibi_cards"] == [
        dict(_card(top), published=False)]
    assert mrjack.view(state, DETECTIVE)["alibi_draws"][0]["card"]["id"] == top
    for viewer in (JACK, TABLE):
        view = mrjack.view(state, viewer)
        assert view["alibi_draws"][0]["card"] is None
        assert view["my_alibi_cards"] == []
        assert mrjack.CHARACTERS[top] not in json.dumps(
            [line for line in view["log"] if line["secret"]])
    refused(state, JACK, {"type": "publish_alibi", "character": top}, "no unpublished alibi")
    refused(state, DETECTIVE, {"type": "publish_alibi", "character": state["alibi"]},
            "is not a drawn alibi card")
    state = act(state, DETECTIVE, "publish_alibi", character=top)
    assert top in state["cleared"]
    for viewer in VIEWERS:
        assert mrjack.view(state, viewer)["alibi_draws"][0]["card"]["id"] == top
        assert top not in names(mrjack.view(state, viewer)["suspects"])
    refused(state, DETECTIVE, {"type": "publish_alibi", "character": top}, "no unpublished")


def test_jack_draws_with_holmes_and_keeps_the_card_hidden():
    state = holmes_turn(1, JACK)
    state = act(state, JACK, "draw_alibi")
    card = state["alibi_draws"][0]["character"]
    assert card != state["alibi"]
    assert mrjack.view(state, JACK)["my_alibi_cards"][0]["id"] == card
    assert mrjack.view(state, DETECTIVE)["my_alibi_cards"] == []
    assert "Jack draws an alibi card in secret." in [
        line["text"] for line in mrjack.view(state, DETECTIVE)["log"]]


def test_holmes_draw_closes_with_the_next_pick_or_the_end_of_the_turn():
    closed_by_pick = closed_by_turn = 0
    for seed in range(1, 12):
        state = holmes_turn(seed, DETECTIVE, last=seed % 2 == 0)
        if due_or_none(state) is None:
            state = act(state, JACK, "witness", answer="seen")
            assert "draw_alibi" in mrjack.actions(state, DETECTIVE)
            state = mark(state)
            closed_by_turn += 1
        else:
            state = pick_next(state)
            closed_by_pick += 1
        refused(state, DETECTIVE, {"type": "draw_alibi"}, "just played Sherlock Holmes")
    assert closed_by_pick and closed_by_turn


def due_or_none(state: dict):
    picks = len(state["round"]["picks"])
    return state["round"]["order"][picks] if picks < 4 else None


# --- the extension: draft, placement, Moriarty ------------------------------------

def london_game(seed: int = 1, keep_jack=(), keep_detective=()) -> dict:
    """A London game whose draft hands are rearranged so that each side holds the given cards."""
    state = new_game(seed, london=True)
    hands = state["draft"]["hands"]
    wanted = list(keep_jack) + list(keep_detective)
    rest = [card for card in hands[JACK] + hands[DETECTIVE] if card not in wanted]
    hands[JACK] = list(keep_jack) + rest[:5 - len(keep_jack)]
    hands[DETECTIVE] = list(keep_detective) + rest[5 - len(keep_jack):]
    return state


def keep(state: dict, seat: int, cards) -> dict:
    return act(state, seat, "keep", **{f"keep_{card}": "on" for card in cards})


def to_play(state: dict) -> dict:
    """Draft with the first two cards of each hand, then place all eight tokens."""
    state = keep(state, JACK, state["draft"]["hands"][JACK][:2])
    state = keep(state, DETECTIVE, state["draft"]["hands"][DETECTIVE][:2])
    for _ in range(8):
        state = act(state, TABLE, "place", character=pending(state)[0])
    return state


def test_draft_deals_the_ten_additional_one_by_one_starting_with_jack():
    rng = random.Random(21)
    state = mrjack.setup({"london": True}, ["Ann", "Bob"], random.Random(21))
    pool = list(mrjack.LONDON_ADDITIONAL)
    rng.shuffle(pool)
    assert state["draft"]["hands"] == [pool[0::2], pool[1::2]]
    assert state["phase"] == "draft" and state["alibi"] is None
    assert set(state["draft"]["hands"][JACK]) | set(state["draft"]["hands"][DETECTIVE]) == set(
        mrjack.LONDON_ADDITIONAL)
    for seat in SEATS:
        view = mrjack.view(state, seat)
        assert names(view["draft"]["hand"]) == state["draft"]["hands"][seat]
        assert view["actions"] == ["keep"]
    assert mrjack.view(state, TABLE)["draft"]["hand"] == []
    assert not set(mrjack.LONDON_BASIC) & set(pool)


def test_draft_keeps_exactly_two_and_reveals_both_pairs_at_once():
    state = new_game(22, london=True)
    jack_hand, detective_hand = state["draft"]["hands"]
    refused(state, JACK, {"type": "keep", **{f"keep_{c}": "on" for c in jack_hand[:3]}},
            "Keep exactly 2 of your 5 characters (3 chosen)")
    refused(state, JACK, {"type": "keep", f"keep_{jack_hand[0]}": "on"}, "(1 chosen)")
    # A card of the other hand does not count as a choice.
    refused(state, JACK, {"type": "keep", f"keep_{jack_hand[0]}": "on",
                          f"keep_{detective_hand[0]}": "on"}, "(1 chosen)")
    refused(state, TABLE, {"type": "keep"}, "on their phones")
    refused(state, JACK, {"type": "pick", "character": "holmes"}, "Finish the draft first")
    state = keep(state, JACK, jack_hand[1:3])
    refused(state, JACK, {"type": "keep", **{f"keep_{c}": "on" for c in jack_hand[:2]}},
            "already chosen")
    assert mrjack.view(state, DETECTIVE)["draft"]["revealed"] is None
    assert mrjack.view(state, TABLE)["draft"]["chosen"] == {"Jack": True, "Detective": False}
    state = keep(state, DETECTIVE, detective_hand[3:5])
    revealed = mrjack.view(state, TABLE)["draft"]["revealed"]
    assert {role: names(cards) for role, cards in revealed.items()} == {
        "Jack": jack_hand[1:3], "Detective": detective_hand[3:5]}
    assert set(state["characters"]) == set(mrjack.LONDON_BASIC) | set(
        jack_hand[1:3] + detective_hand[3:5])
    assert state["phase"] == "placement"
    refused(state, DETECTIVE, {"type": "keep"}, "The draft is over")


def test_base_game_has_no_draft():
    refused(new_game(1), JACK, {"type": "keep"}, "no draft without the Mr. Jack London")


def test_placement_order_then_reshuffle_and_alibi():
    state = new_game(23, london=True)
    state = keep(state, JACK, state["draft"]["hands"][JACK][:2])
    state = keep(state, DETECTIVE, state["draft"]["hands"][DETECTIVE][:2])
    assert state["phase"] == "placement" and state["alibi"] is None
    placers = []
    for index in range(8):
        seat = due(state)
        placers.append(seat)
        other = DETECTIVE if seat == JACK else JACK
        refused(state, other, {"type": "place", "character": pending(state)[0]},
                "turn to place")
        refused(state, seat, {"type": "pick", "character": pending(state)[0]},
                "Finish placing")
        actor = TABLE if index % 2 else seat
        state = act(state, actor, "place", character=pending(state)[0], seed=index)
    assert placers == [DETECTIVE, JACK, JACK, DETECTIVE, JACK, DETECTIVE, DETECTIVE, JACK]
    assert state["phase"] == "play" and state["turn"] == 1
    assert state["alibi"] in state["characters"]
    assert sorted(state["alibi_deck"] + [state["alibi"]]) == sorted(state["characters"])
    assert sorted(state["deck"] + state["round"]["cards"]) == sorted(state["characters"])
    assert mrjack.view(state, JACK)["alibi"]["id"] == state["alibi"]
    assert mrjack.view(state, DETECTIVE)["alibi"] is None


def test_placement_reminds_of_the_barricade_and_moriarty_row():
    state = london_game(24, keep_jack=("lane", "moriarty"))
    state = keep(state, JACK, ["lane", "moriarty"])
    state = keep(state, DETECTIVE, state["draft"]["hands"][DETECTIVE][:2])
    reminders = " ".join(mrjack.view(state, TABLE)["reminders"])
    assert "Barricade" in reminders and "'?' token" in reminders
    assert len(state["moriarty"]["row"]) == 6
    assert not set(state["moriarty"]["row"]) & set(state["characters"])


def moriarty_game(seed: int = 25, detective=("madame", "lane")) -> dict:
    state = london_game(seed, keep_jack=("moriarty", "pizer"), keep_detective=detective)
    state = keep(state, JACK, ["moriarty", "pizer"])
    state = keep(state, DETECTIVE, detective)
    for _ in range(8):
        state = act(state, TABLE, "place", character=pending(state)[0])
    return state


def play_until_moriarty(state: dict) -> dict:
    """Play cards and turns until Professor Moriarty is activated."""
    for _ in range(40):
        if state["round"]["picks"] and state["round"]["picks"][-1]["character"] == "moriarty":
            return state
        if due_or_none(state) is None:
            state = end_turn(state)
        else:
            choice = "moriarty" if "moriarty" in pending(state) else pending(state)[0]
            state = pick_next(state, choice)
    raise AssertionError("Moriarty never came up")


def test_moriarty_impersonates_from_the_unused_row_until_his_next_activation():
    state = moriarty_game()
    row = list(state["moriarty"]["row"])
    assert row == ["stealthy", "goodley", "gull", "watson", "abberline", "spring"]
    state = play_until_moriarty(state)
    chooser = state["round"]["picks"][-1]["seat"]
    other = DETECTIVE if chooser == JACK else JACK
    table = mrjack.view(state, TABLE)
    assert table["moriarty"]["choosing"] == mrjack.ROLES[chooser]
    refused(state, other, {"type": "impersonate", "character": "gull"}, "first chooses whom")
    if due_or_none(state) is not None:
        refused(state, due(state), {"type": "pick", "character": pending(state)[0]},
                "first chooses whom")
    refused(state, chooser, {"type": "impersonate", "character": "holmes"}, "is not a character")
    refused(state, chooser, {"type": "impersonate", "character": "pizer"}, "is not a character")
    state = act(state, chooser, "impersonate", character="gull")
    for viewer in VIEWERS:
        view = mrjack.view(state, viewer)
        assert view["moriarty"]["impersonates"]["id"] == "gull"
        assert "gull" not in names(view["moriarty"]["row"])
    refused(state, chooser, {"type": "impersonate", "character": "watson"}, "not being activated")
    # Until the next activation the "?" stays under Sir William Gull...
    state = end_turn(play_cards(state))
    assert mrjack.view(state, TABLE)["moriarty"]["impersonates"]["id"] == "gull"
    state = play_until_moriarty(state)
    # ... then his card leaves the game and a new character is chosen.
    assert state["moriarty"]["removed"] == ["gull"]
    assert mrjack.view(state, TABLE)["moriarty"]["impersonates"] is None
    chooser = state["round"]["picks"][-1]["seat"]
    refused(state, chooser, {"type": "impersonate", "character": "gull"}, "is not a character")
    state = act(state, chooser, "impersonate", character="spring")
    assert mrjack.view(state, JACK)["moriarty"]["impersonates"]["name"] == "Spring-Heeled Man"
    assert names(mrjack.view(state, JACK)["moriarty"]["removed"]) == ["gull"]


def test_moriarty_faq_the_barricade_stays_when_joseph_lanes_card_leaves():
    state = play_until_moriarty(moriarty_game(27, detective=("madame", "abberline")))
    state = act(state, state["moriarty"]["pending"], "impersonate", character="lane")
    state = end_turn(play_cards(state))
    state = play_until_moriarty(state)
    assert state["moriarty"]["removed"] == ["lane"]
    assert "Joseph Lane's card leaves the game. The Barricade stays where it is." in [
        line["text"] for line in mrjack.view(state, TABLE)["log"]]


def test_without_moriarty_the_unused_characters_go_back_in_the_box():
    state = london_game(28, keep_jack=("madame", "pizer"), keep_detective=("gull", "spring"))
    state = keep(keep(state, JACK, ["madame", "pizer"]), DETECTIVE, ["gull", "spring"])
    assert state["moriarty"] is None
    assert mrjack.view(state, TABLE)["reminders"] == [
        "Put the cards and tokens of the 6 unused characters back in the box."]
    assert mrjack.view(state, TABLE)["moriarty"] is None


def test_moriarty_activated_four_times_has_always_a_character_to_impersonate():
    state = moriarty_game(26)
    impersonated = []
    while not mrjack.is_over(state):
        if state["moriarty"]["pending"] is not None:
            card = state["moriarty"]["row"][-1]
            state = act(state, state["moriarty"]["pending"], "impersonate", character=card)
            impersonated.append(card)
        elif due_or_none(state) is not None:
            state = pick_next(state)
        elif state["turn"] == 8:
            state = act(state, JACK, "dawn")
        else:
            state = end_turn(state)
    assert len(impersonated) == 4 and len(set(impersonated)) == 4
    assert state["moriarty"]["removed"] == impersonated[:3]


# --- bad input ----------------------------------------------------------------

@pytest.mark.parametrize("action, message", [
    ({}, "not something you can do"),
    ({"type": "fly"}, "not something you can do"),
    ({"type": None}, "not something you can do"),
    ({"type": "witness", "answer": "maybe"}, "is not a witness answer"),
    ({"type": "witness"}, "Please choose the witness answer"),
])
def test_unknown_actions_and_answers_are_refused(action, message):
    refused(play_cards(new_game(30)), JACK, action, message)


def test_bad_actors_and_non_dict_actions_are_refused():
    state = new_game(31)
    for actor in (2, -1, "host", None, True, 1.0):
        refused(state, actor, {"type": "pick", "character": state["round"]["cards"][0]},
                "one of this table's 2 seats")
    for action in (None, "pick", 5, ["pick"]):
        with pytest.raises(RuleError, match="a form's fields"):
            mrjack.apply(state, DETECTIVE, action, random.Random(0))
    with pytest.raises(RuleError):
        mrjack.view(state, 7)
    with pytest.raises(RuleError):
        mrjack.actions(state, "seat")


def test_huge_and_strange_values_are_refused_with_a_message():
    state = new_game(32)
    for value in ("9" * 500, "holmes\x00", " ", "HOLMES", "<script>"):
        refused(state, DETECTIVE, {"type": "pick", "character": value}, "")


def test_views_are_json_and_never_show_the_alibi_to_the_detective_or_table():
    state = new_game(33)
    alibi_name = mrjack.CHARACTERS[state["alibi"]]
    for viewer in VIEWERS:
        text = public_text(state, viewer)
        secret_lines = [line["text"] for line in mrjack.view(state, viewer)["log"]
                        if line["secret"]]
        if viewer == JACK:
            assert secret_lines == [f"Jack's alibi card: {alibi_name}."]
            assert mrjack.view(state, viewer)["alibi"]["name"] == alibi_name
        else:
            assert secret_lines == []
            assert '"alibi": null' in text


def test_a_seats_refusals_are_private_while_the_game_runs():
    """Each seat holds a secret from the deal on (a hand, then Jack's alibi or the alibis
    the detective draws), and a refusal may tell it ("play your own character" says the
    character just played is not Jack's): the web layer keeps such reasons behind Why?."""
    draft = new_game(3, london=True)
    play = new_game(3)
    over = act(play_cards(play, 1), DETECTIVE, "accuse", character=play["alibi"])
    for state in (draft, play):
        assert [mrjack.view(state, viewer)["private_refusals"] for viewer in VIEWERS] == [
            True, True, False]
    assert not any(mrjack.view(over, viewer)["private_refusals"] for viewer in VIEWERS)


def test_each_phone_says_first_what_happens_now_and_who_acts():
    """The now line: "Your turn: ..." on the phone that acts, "... : wait" on the other,
    through a turn's picks, the call for witnesses and Jack's check; public facts only."""
    state = new_game(8)

    def now(seat: int) -> str:
        return mrjack.view(state, seat)["now"]["text"]

    assert now(DETECTIVE) == "Your turn: play a character (1 of 4)"
    assert now(JACK) == "The detective plays a character (1 of 4): wait"
    assert mrjack.view(state, DETECTIVE)["now"]["mine"] is True
    assert mrjack.view(state, JACK)["now"]["mine"] is False
    assert mrjack.view(state, TABLE)["now"] is None
    state = pick_next(state)
    assert now(JACK) == "Your turn: play a character (2 of 4)"
    assert mrjack.view(state, DETECTIVE)["now"]["detail"].startswith("Move ")
    state = play_cards(state)
    assert now(JACK) == "Your turn: answer the call for witnesses"
    state = act(state, JACK, "witness", answer="not_seen")
    assert now(DETECTIVE) == "Your turn: mark who is seen"
    assert now(JACK) == "The detective marks who is seen: wait"
    state = act(state, DETECTIVE, "mark_seen", seen_holmes="on")
    assert now(JACK) == "Your turn: check the marks on the board"
    assert now(DETECTIVE) == "Jack checks the marks on the board: wait"
    # Whoever Jack is (Holmes, who is ticked, or Watson), the detective's line is the same.
    assert mrjack.view(with_alibi(state, "holmes"), DETECTIVE)["now"] == mrjack.view(
        with_alibi(state, "watson"), DETECTIVE)["now"]
    state = act(state, JACK, "confirm_marks")
    assert now(JACK) == "Your turn: play a character (1 of 4)"      # turn 2: Jack first
