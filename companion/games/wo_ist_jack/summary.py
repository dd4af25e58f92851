"""A finished Wo ist Jack the Ripper as the club's history keeps it (companion/history.py):
``result`` and the words for its one ending.
"""

from __future__ import annotations

from typing import Any

from companion.games.base import State, require
from companion.games.wo_ist_jack.score import score
from companion.games.wo_ist_jack.state import _names
from companion.words import _

ENDING_WORDS = {"printed": _("Every story was printed")}
"""The one ending, as the history's tally of endings names it."""


def result(state: State) -> dict[str, Any]:
    """A finished game for the history (``companion/games/base.py``): no Jack at the
    table, the Reporters of the Year win, every reporter's final points."""
    require(state["over"], _("The game is not over."))
    scored = score(state)
    winners = sorted(row["seat"] for row in scored["standings"]
                     if row["reporter_of_the_year"])
    totals = {row["seat"]: row["total"] for row in scored["standings"]}
    return {"side": "players", "winner": _names(state, winners), "winners": winners,
            "jack": [], "jack_side": [], "points": [totals[seat] for seat in
                                                    range(len(state["players"]))],
            "ending": "printed", "how": scored["headline"]}
