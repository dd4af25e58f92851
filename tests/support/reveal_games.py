"""Three short games played to their end through the pure rules modules, for the reveal's
tests (tests/games/test_reveals.py, tests/web/test_reveals.py): each touches every kind
of step its reveal tells (a question that finds Jack, an arrest, a release, a death; two
witness calls, an alibi drawn, an accusation; U-Haft, Reporterteam, Druckmaschine defekt
and every story printed)."""

from __future__ import annotations

import random
from typing import Any

from companion.games import london1888, mrjack, wo_ist_jack
from companion.games.base import TABLE

State = dict[str, Any]

LONDON_NAMES = ["Ann", "Bob", "Cy", "Di", "Ed"]


def jack_of(state: State) -> int:
    return next(seat for seat, line in enumerate(state["lines"]) if "jack" in line)


def london_game(seed: int = 5) -> tuple[list[State], int, int]:
    """Every state of a London game to the Innocents' win: (states, Jack, the finder)."""
    rng = random.Random(1)
    state = london1888.setup(london1888.default_options(), LONDON_NAMES, random.Random(seed))
    states = [state]

    def act(actor: int | str, **fields: str) -> None:
        nonlocal state
        state = london1888.apply(state, actor, fields, rng)
        states.append(state)

    jack = jack_of(state)
    finder = 0 if jack != 0 else 1
    clue = next(seat for seat in range(5) if seat not in (jack, finder))
    clue_at = next(index + 1 for index, card in enumerate(state["lines"][clue])
                   if card not in ("jack", "innocent"))
    # Seat 0 starts round 1; the clue's seat is never 0 (nor Jack's, nor the finder's).
    act(0, type="question", target=str(clue), **{f"position_{clue_at}": "on"})
    act(TABLE, type="arrest", target="4", by="card")
    act(TABLE, type="release", target="4")
    while london1888.view(state, TABLE)["round"] == 1:
        current = london1888.view(state, TABLE)["current"]
        act(TABLE, type="end_turn" if current is not None else "next_round")
    while london1888.view(state, TABLE)["current"] != finder:
        act(TABLE, type="end_turn")
    jack_at = state["lines"][jack].index("jack") + 1
    act(finder, type="question", target=str(jack), **{f"position_{jack_at}": "on"})
    act(TABLE, type="mark_dead", target=str(jack), killer=str(finder))
    act(TABLE, type="record_outcome", result="innocents")
    act(TABLE, type="confirm_outcome")
    return states, jack, finder


def free_cards(state: State) -> list[str]:
    taken = [pick["character"] for pick in state["round"]["picks"]]
    return [card for card in state["round"]["cards"] if card not in taken]


def mrjack_game(seed: int = 5) -> list[State]:
    """Every state of a base Mr. Jack game: turn 1 Seen, turn 2 Not seen (Holmes draws an
    alibi card when he is played), one card of turn 3, then the detective accuses Jack's
    character."""
    rng = random.Random(1)
    state = mrjack.setup({"london": False}, ["Ann", "Bob"], random.Random(seed))
    states = [state]

    def act(actor: int, **fields: str) -> None:
        nonlocal state
        state = mrjack.apply(state, actor, fields, rng)
        states.append(state)

    for answer in ("seen", "not_seen"):
        for _ in range(4):
            seat = state["round"]["order"][len(state["round"]["picks"])]
            card = free_cards(state)[0]
            act(seat, type="pick", character=card)
            if card == "holmes":
                act(seat, type="draw_alibi")
        act(mrjack.JACK, type="witness", answer=answer)
        suspects = [card for card in state["characters"]
                    if card not in state["cleared"] and card != state["alibi"]]
        seen = [suspects[0]] + ([state["alibi"]] if answer == "seen" else [])
        act(mrjack.DETECTIVE, type="mark_seen", **{f"seen_{card}": "on" for card in seen})
        act(mrjack.JACK, type="confirm_marks")
    act(state["round"]["order"][0], type="pick", character=free_cards(state)[0])
    act(mrjack.DETECTIVE, type="accuse", character=state["alibi"])
    return states


WO_NAMES = ["Ann", "Bob", "Cy"]


def wo_ist_game(seed: int = 5, options: dict[str, Any] | None = None) -> list[State]:
    """Every state of a three-reporter Wo ist game: Ann plays U-Haft on Bob and
    Reporterteam, announces a print that Bob stops with Druckmaschine defekt; then each
    active reporter prints the current story (1 to 4 points in turn) until the deck is out."""
    rng = random.Random(1)
    state = wo_ist_jack.setup(options or wo_ist_jack.default_options(), WO_NAMES,
                              random.Random(seed))
    states = [state]

    def act(actor: int | str, **fields: str) -> None:
        nonlocal state
        state = wo_ist_jack.apply(state, actor, {"clock": "1000", **fields}, rng)
        states.append(state)

    act(TABLE, type="start_player", seat="0")
    act(0, type="u_haft", target="1")
    act(0, type="reporterteam")
    act(0, type="print", story=state["current"], points="3")
    act(1, type="druckmaschine")
    act(0, type="end_turn")
    for number in range(40):
        if state["over"]:
            break
        printer = state["active"]
        act(printer, type="print", story=state["current"], points=str(1 + number % 4))
        for seat in range(len(WO_NAMES)):
            if seat != printer and state["about_to_print"] is not None:
                act(seat, type="pass")
        if not state["over"]:
            act(state["active"], type="end_turn")
    assert state["over"]
    return states
