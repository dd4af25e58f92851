"""A finished London 1888 game as the club's history keeps it (companion/history.py)."""

from __future__ import annotations

from typing import Any

from companion.games.base import State, require
from companion.games.london1888.scoring import outcome_summary
from companion.games.london1888.state import (
    FIFTH_MURDER,
    JACK_SIDE,
    KILLED_EVERYONE,
    RESULTS,
    SUICIDE,
)
from companion.words import _

ENDINGS = {None: "caught", SUICIDE: SUICIDE, KILLED_EVERYONE: KILLED_EVERYONE,
           FIFTH_MURDER: FIFTH_MURDER}
"""How a game ended, as the history counts it: the Innocents' one way, Jack's three."""
ENDING_WORDS = {"caught": _("The Innocents caught or killed Jack"),
                SUICIDE: _("Jack took his own life at home"),
                KILLED_EVERYONE: _("Jack killed everyone"),
                FIFTH_MURDER: _("The 5th murder was discovered")}
"""Each ending as the history's tally of endings names it."""


def result(state: State) -> dict[str, Any]:
    """A finished game for the history (``companion/games/base.py``): the confirmed
    outcome, Jack's seat, his side (Jack and the accomplices the table named) and the
    tournament points. The Innocents count as the detectives' side."""
    summary = outcome_summary(state)
    require(summary is not None, _("The game is not over."))
    jack_side = [summary["jack"], *summary["accomplices"]]
    jack_won = summary["winner"] == JACK_SIDE
    label = next(words for winner, how, words in RESULTS.values()
                 if winner == summary["winner"] and how == summary["how"])
    return {"side": "jack" if jack_won else "detectives",
            "winner": _("Jack") if jack_won else _("the Innocents"),
            "winners": sorted(jack_side) if jack_won else [
                seat for seat in range(summary["players"]) if seat not in jack_side],
            "jack": [summary["jack"]], "jack_side": sorted(jack_side),
            "points": list(summary["points"]), "ending": ENDINGS[summary["how"]],
            "how": _("%(result)s (round %(round)s)", result=label, round=summary["round"])}
