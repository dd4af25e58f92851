"""Three short games played to their end, for the reveal's tests: each touches every kind
of step its reveal tells (a question that finds Jack, an arrest, a release, a death; two
witness calls, an alibi drawn, an accusation; U-Haft, Reporterteam, Druckmaschine defekt
and every story printed).

Each script reads the table through ``now()`` (its state) and acts through
``act(actor, type=..., **fields)``, so the same game is played on the pure rules module
(``pure``: tests/games/test_reveals.py) and through the Flask client's phones and laptop
(``web``: tests/web/test_reveals.py, tests/browser/test_reveals.py).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from companion.games import london1888, mrjack, wo_ist_jack
from companion.games.base import TABLE, Game

State = dict[str, Any]
Now = Callable[[], State]
Act = Callable[..., None]

LONDON_NAMES = ["Ann", "Bob", "Cy", "Di", "Ed"]
MRJACK_NAMES = ["Ann", "Bob"]
WO_NAMES = ["Ann", "Bob", "Cy"]


def jack_of(state: State) -> int:
    return next(seat for seat, line in enumerate(state["lines"]) if "jack" in line)


def london_script(now: Now, act: Act) -> None:
    """Five players: seat 0 turns a clue card of a player who is neither Jack nor the
    finder (the first seat that is not Jack's); an ARREST card on Godley and his
    release; round 2, where the finder turns Jack's own card and kills him; the
    Innocents' outcome, proposed and confirmed (the table's 16 or so actions)."""
    state = now()
    jack = jack_of(state)
    finder = 0 if jack != 0 else 1
    clue = next(seat for seat in range(5) if seat not in (jack, finder))
    clue_at = next(index + 1 for index, card in enumerate(state["lines"][clue])
                   if card not in ("jack", "innocent"))
    # Seat 0 starts round 1; the clue's seat is never 0.
    act(0, type="question", target=clue, **{f"position_{clue_at}": "on"})
    act(TABLE, type="arrest", target=4, by="card")
    act(TABLE, type="release", target=4)
    while now()["round"] == 1:
        current = london1888.view(now(), TABLE)["current"]
        act(TABLE, type="end_turn" if current is not None else "next_round")
    while london1888.view(now(), TABLE)["current"] != finder:
        act(TABLE, type="end_turn")
    jack_at = now()["lines"][jack].index("jack") + 1
    act(finder, type="question", target=jack, **{f"position_{jack_at}": "on"})
    act(TABLE, type="mark_dead", target=jack, killer=finder)
    act(TABLE, type="record_outcome", result="innocents")
    act(TABLE, type="confirm_outcome")


def free_cards(state: State) -> list[str]:
    taken = [pick["character"] for pick in state["round"]["picks"]]
    return [card for card in state["round"]["cards"] if card not in taken]


def mrjack_script(now: Now, act: Act, jacks: Sequence[str] = ()) -> None:
    """A base game: turn 1 Seen, turn 2 Not seen (Holmes draws an alibi card whenever he
    is played), one card of turn 3, then the detective accuses Jack's character. Given
    ``jacks`` (Jack's character in each of two twin games), the marks treat each of them
    as Jack would be and the detective accuses another: the same public actions in both."""
    for answer in ("seen", "not_seen"):
        for _ in range(4):
            state = now()
            seat = state["round"]["order"][len(state["round"]["picks"])]
            card = free_cards(state)[0]
            act(seat, type="pick", character=card)
            if card == "holmes":
                act(seat, type="draw_alibi")
        act(mrjack.JACK, type="witness", answer=answer)
        state = now()
        hidden = list(jacks) or [state["alibi"]]
        suspects = [card for card in state["characters"]
                    if card not in state["cleared"] and card not in hidden]
        seen = [suspects[0]] + (hidden if answer == "seen" else [])
        act(mrjack.DETECTIVE, type="mark_seen", **{f"seen_{card}": "on" for card in seen})
        act(mrjack.JACK, type="confirm_marks")
    state = now()
    act(state["round"]["order"][0], type="pick", character=free_cards(state)[0])
    state = now()
    wrong = next(card for card in state["characters"] if card not in jacks)
    act(mrjack.DETECTIVE, type="accuse", character=wrong if jacks else state["alibi"])


def wo_ist_script(now: Now, act: Act) -> None:
    """Three reporters: Ann plays U-Haft on Bob (her turn's Action), announces a print that
    Bob stops with Druckmaschine defekt; Bob loses his turn and Cy plays Reporterteam;
    then each active reporter prints the current story (1 to 4 points in turn), the
    others letting it print, until the deck is out."""
    act(TABLE, type="start_player", seat=0)
    act(0, type="u_haft", target=1)
    act(0, type="print", story=now()["current"], points=3)
    act(1, type="druckmaschine")
    act(0, type="end_turn")
    act(2, type="reporterteam")
    print_to_the_end(now, act, len(WO_NAMES))


def print_to_the_end(now: Now, act: Act, reporters: int) -> None:
    """Each active reporter prints the current story (1 to 4 points in turn), the others
    letting it print, then ends the turn, until every story is printed."""
    for number in range(40):
        if now()["over"]:
            return
        printer = now()["active"]
        act(printer, type="print", story=now()["current"], points=1 + number % 4)
        for seat in range(reporters):
            if seat != printer and now()["about_to_print"] is not None:
                act(seat, type="pass")
        if not now()["over"]:
            act(now()["active"], type="end_turn")
    raise AssertionError("the stories never ran out")


SCRIPTS: dict[str, tuple[Game, Sequence[str], Callable[..., None]]] = {
    "london1888": (london1888, LONDON_NAMES, london_script),
    "mrjack": (mrjack, MRJACK_NAMES, mrjack_script),
    "wo_ist_jack": (wo_ist_jack, WO_NAMES, wo_ist_script),
}


def pure(name: str, state: State | None = None, seed: int = 5,
         steps: list[tuple[int | str, dict[str, str]]] | None = None, **script: Any
         ) -> list[State]:
    """Every state of the game ``name`` played by its script on the rules module, from
    ``state`` (or a deal of ``seed``); Wo ist's clock stands still (no print window
    runs out). ``steps``, if given, receives each (actor, action) as it is applied
    (tests/support/noninterference.py's play_both replays them on a twin)."""
    game, names, play = SCRIPTS[name]
    rng = random.Random(1)
    if state is None:
        options = game.parse_options(game.form_from(game.default_options()), len(names))
        state = game.setup(options, list(names), random.Random(seed))
    states = [state]

    def act(actor: int | str, **fields: Any) -> None:
        action = {"clock": "1000", **{key: str(value) for key, value in fields.items()}}
        if steps is not None:
            steps.append((actor, action))
        states.append(game.apply(states[-1], actor, action, rng))

    play(lambda: states[-1], act, **script)
    return states


def web_act(laptop: Any, phones: Sequence[Any]) -> Act:
    """``act`` through the devices of tests/support/webflow.py (or any with their
    ``act`` and ``table_act``): a seat's action from its phone, the table's from the
    host's laptop; each must be accepted (303)."""

    def act(actor: int | str, type: str, **fields: Any) -> None:  # noqa: A002
        device = laptop.table_act if actor == TABLE else phones[int(actor)].act
        response = device(type, **fields)
        assert response.status_code == 303, (type, fields, response.text[:400])

    return act


def web(name: str, now: Now, laptop: Any, phones: Sequence[Any]) -> None:
    """The game ``name`` played by its script through the web devices (``web_act``)."""
    SCRIPTS[name][2](now, web_act(laptop, phones))
