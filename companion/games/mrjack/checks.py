"""An imported Mr. Jack state checked (``check_state``, companion/importing.py): its
shape, and the invariants that ``setup`` and ``apply`` keep.
"""

from __future__ import annotations

from typing import Any

from companion.games.base import check_seat, check_shape, require
from companion.games.mrjack.log import _said
from companion.games.mrjack.state import (
    ANSWERS,
    CARDS_PER_TURN,
    CHARACTERS,
    DETECTIVE,
    JACK,
    LAST_TURN,
    WITNESS_SIDES,
)
from companion.games.mrjack.summary import ENDING_WORDS
from companion.words import Text, _

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
