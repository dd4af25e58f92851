"""Mr. Jack and the Mr. Jack London extension: the hidden parts of a two-player duel.

Rulebooks: "Mr. Jack" (base game) and "Mr. Jack: Extension (Mr. Jack London)",
their sections as named; rulings: docs/RULINGS.md#mr-jack.

The board, the character tokens, the gaslights, manholes, cordons and the
Barricade stay physical. The companion holds what paper hides or what is
easy to get wrong: Jack's alibi card (the character he impersonates), the
alibi deck, the character card deck and its cycle over the eight turns, the
Witness card, the suspect list, the extension's draft and Professor
Moriarty's impersonation.

Seat 0 plays Jack, seat 1 the detective. A game runs through these phases:

``draft``      (extension) each player keeps 2 of the 5 additional characters dealt to him
``placement``  (extension) the 8 character tokens are placed in the rulebook's order
``play``       turns 1-8: four characters played, then the call for witnesses
``over``       Jack left the district, was accused, or dawn broke after turn 8
"""

from __future__ import annotations

from typing import Any

from companion.games.base import State, check_seat, check_shape, require
from companion.games.mrjack.log import _outcome_text, _said
from companion.games.mrjack.rules import (
    ACTION_TYPES,
    BASE_CHARACTERS,
    DEFAULT_PLAYERS,
    EVEN_ORDER,
    FIXED_SEATS,
    LONDON_ADDITIONAL,
    LONDON_BASIC,
    MAX_PLAYERS,
    MIN_PLAYERS,
    ODD_ORDER,
    OPTION_WORDS,
    actions,
    apply,
    default_options,
    form_from,
    parse_options,
    seat_labels,
    setup,
)
from companion.games.mrjack.state import (
    ANSWERS,
    CARDS_PER_TURN,
    CHARACTERS,
    DETECTIVE,
    JACK,
    LAST_TURN,
    NAME,
    ROLES,
    TITLE,
    WHO,
    WITNESS_SIDES,
    is_over,
)
from companion.games.mrjack.views import view
from companion.words import Text, _

# Moved out, still the game's (companion/games/base.py's protocol).
__all__ = ["ACTION_TYPES", "ANSWERS", "BASE_CHARACTERS", "CHARACTERS", "DEFAULT_PLAYERS",
    "DETECTIVE", "EVEN_ORDER", "FIXED_SEATS", "JACK", "LAST_TURN", "LONDON_ADDITIONAL",
    "LONDON_BASIC", "MAX_PLAYERS", "MIN_PLAYERS", "NAME", "ODD_ORDER", "OPTION_WORDS", "ROLES",
    "TITLE", "actions", "apply", "default_options", "form_from", "is_over", "parse_options",
    "seat_labels", "setup", "view"]


# --- the setup form -------------------------------------------------------

# --- setup ---------------------------------------------------------------

# --- apply ---------------------------------------------------------------

# --- what may happen now ---------------------------------------------------

# --- views ---------------------------------------------------------------

# --- the club's history (companion/history.py) -----------------------------------------

ENDING_WORDS = {"accused": _("The detective accused Jack"),
                "wrong_accusation": _("The detective accused an innocent"),
                "escaped": _("Jack left the district"),
                "dawn": _("Dawn after the eighth turn")}
"""Each ending as the history's tally of endings names it."""


def result(state: State) -> dict[str, Any]:
    """A finished game for the history (``companion/games/base.py``): the winner, Jack's
    seat and which of the End of the Game's ways ended it, the key ``_finish`` kept (for
    states saved before it was kept, read from the English it wrote)."""
    require(is_over(state), _("The game is not over."))
    outcome = state["outcome"]
    text = outcome["text"]
    ending = outcome.get("ending")
    if ending not in ENDING_WORDS:
        if outcome["winner"] == DETECTIVE:
            ending = "accused"
        elif text.startswith("Dawn"):
            ending = "dawn"
        elif text.startswith("The detective accuses"):
            ending = "wrong_accusation"
        else:
            ending = "escaped"
    jack_won = outcome["winner"] == JACK
    return {"side": "jack" if jack_won else "detectives",
            "winner": WHO[JACK] if jack_won else WHO[DETECTIVE],
            "winners": [outcome["winner"]], "jack": [JACK], "jack_side": [JACK],
            "points": None, "ending": ending, "how": _outcome_text(outcome)}


# --- an imported state ---------------------------------------------------------------

_CARD = frozenset(CHARACTERS)
_SEAT = frozenset({JACK, DETECTIVE})
STATE_SHAPE = {
    "players": [str], "london": bool,
    "phase": frozenset({"draft", "placement", "play", "over"}), "turn": int,
    "characters": [_CARD], "deck": [_CARD],
    "round": (None, {"cards": [_CARD], "order": [_SEAT],
                     "picks": [{"character": _CARD, "seat": _SEAT}]}),
    "alibi": (None, _CARD), "alibi_deck": [_CARD],
    "alibi_draws": [{"seat": _SEAT, "character": _CARD, "turn": int, "published": bool}],
    "witness": frozenset(WITNESS_SIDES), "answer": (None, frozenset(ANSWERS)),
    "marks": (None, {"seen": [_CARD], "returned": bool}),
    "cleared": [_CARD],
    "draft": (None, {"hands": [[_CARD]], "kept": [(None, [_CARD])]}),
    "moriarty": (None, {"row": [_CARD], "current": (None, _CARD), "removed": [_CARD],
                        "pending": (None, _SEAT)}),
    "outcome": (None, {"winner": _SEAT, "text": str}),
    "log": [{"turn": int, "text": str}],
}


CALLS_SHAPE = [{"turn": int, "picks": [{"character": _CARD, "seat": _SEAT}],
                "answer": frozenset(ANSWERS), "seen": [_CARD], "cleared": [_CARD]}]


def check_state(state: Any) -> None:
    """A Mr. Jack state as ``setup`` and ``apply`` leave it (an imported file's): the
    shape, two players, known characters, the turn within the game's 8, Jack's alibi
    one of the game's characters once play begins (none yet while London's tokens are
    placed) and never cleared,
    the detective's marks only after Jack's answer."""
    check_shape(state, STATE_SHAPE)
    require(len(state["players"]) == 2, _("Mr. Jack has exactly 2 players."))
    require(0 <= state["turn"] <= LAST_TURN, _("the turn is not one of the game's 8."))
    # In London the alibi is dealt once the tokens are placed (Extension II.).
    require(state["phase"] in ("draft", "over") or state["alibi"] in state["characters"]
            or (state["phase"] == "placement" and state["alibi"] is None),
            _("Jack's alibi is not one of the game's characters."))
    require(state["alibi"] not in state["cleared"], _("Jack's own character is marked innocent."))
    require(state["marks"] is None or state["answer"] is not None,
            _("the detective's marks come before Jack's answer."))
    require(state["phase"] != "draft" or state["draft"] is not None, _("the draft has no hands."))
    if state["draft"] is not None:
        require(len(state["draft"]["hands"]) == len(state["draft"]["kept"]) == 2,
                _("the draft is not between two players."))
    if state["round"] is not None:
        require(len(state["round"]["cards"]) <= CARDS_PER_TURN, _("a turn lays out 4 cards."))
    for entry in state["log"]:
        secrets = entry.get("secrets", {})
        require(isinstance(secrets, dict) and all(
            key in ("0", "1") and isinstance(text, str) for key, text in secrets.items()),
            _("a log line's secrets are not texts for the two players."))
        # The lines' keys, kept since phones read the history in their own language: each
        # must make its line (else an imported file's junk would show as English).
        _check_said(entry.get("say"), _("a log line"))
        secret_say = entry.get("secret_say", {})
        require(isinstance(secret_say, dict) and all(key in ("0", "1") for key in secret_say),
                _("a log line's secret lines are not for the two players."))
        for said in secret_say.values():
            _check_said(said, _("a log line's secret line"))
    if state["phase"] == "over":
        check_seat(state["outcome"] and state["outcome"]["winner"], 2, "the winner")
        # Kept since the history reads a key; states saved before have neither.
        check_shape(state["outcome"].get("ending"), (None, frozenset(ENDING_WORDS)),
                    "the outcome's ending")
        _check_said(state["outcome"].get("say"), _("the outcome"))
    # The witness calls kept for the reveal; states saved before they were kept have none.
    calls = state.get("calls", [])
    check_shape(calls, CALLS_SHAPE, "the state.calls")
    require(all(1 <= call["turn"] <= state["turn"] for call in calls),
            _("a witness call comes after the game's turn."))


def _check_said(said: Any, where: Text) -> None:
    """A kept line (``_log``): none (a state saved before), or one that makes its line."""
    require(said is None or (isinstance(said, str) and _said(said) is not None),
            _("%(where)s is not one of the game's lines.", where=where))
