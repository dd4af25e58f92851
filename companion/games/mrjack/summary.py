"""A finished Mr. Jack as the club's history keeps it (companion/history.py): ``result``
and the words for each of its endings.
"""

from __future__ import annotations

from typing import Any

from companion.games.base import State, require
from companion.games.mrjack.log import _outcome_text
from companion.games.mrjack.state import DETECTIVE, JACK, WHO, is_over
from companion.words import _

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
