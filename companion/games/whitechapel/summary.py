"""A finished Letters from Whitechapel game as the club's history keeps it
(``result``, the optional hook of ``companion/games/base.py``): who won and how, in the
words of the End of the Game, and the hideout and the crime scenes for the history's
heat map of the board. Read only once the game is over: until then all of it but the
crime scenes is Jack's secret."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.games.base import State, require
from companion.games.whitechapel.state import JACK, _board_label, _crime_scenes, _location, is_over
from companion.words import Text, _

HOW: dict[str, Callable[[int, int | None], Text]] = {
    "escape": lambda night, circle: _("Jack reached his hideout on night %(night)s",
                                      night=night),
    "arrest": lambda night, circle: _("Jack was arrested on circle %(circle)s on night "
                                      "%(night)s", circle=circle, night=night),
    "square15": lambda night, circle: _("Jack did not reach his hideout by square 15 on "
                                        "night %(night)s", night=night),
    "no_legal_move": lambda night, circle: _("Jack had no legal move on night %(night)s",
                                             night=night),
}
"""How a game ends (End of the Game), a sentence for the history's list (by the night
and Jack's last circle)."""

ENDING_WORDS = {
    "escape": _("Jack reached his hideout on the fourth night"),
    "arrest": _("Jack was arrested"),
    "square15": _("Jack did not reach his hideout by square 15"),
    "no_legal_move": _("Jack had no legal move"),
}
"""Each ending as the history's tally of endings names it."""


def result(state: State) -> dict[str, Any]:
    require(is_over(state), _("The game is not over."))
    outcome = state["outcome"]
    night = outcome["night"]
    circle = _location(state["nights"][night - 1])
    jack_won = outcome["winner"] == "jack"
    detectives = [seat for seat in range(len(state["players"])) if seat != JACK]
    return {"side": "jack" if jack_won else "detectives",
            "winner": _("Jack") if jack_won else _("the detectives"),
            "winners": [JACK] if jack_won else detectives, "jack": [JACK],
            "jack_side": [JACK], "points": None, "ending": outcome["reason"],
            "how": HOW[outcome["reason"]](night, circle),
            "hideout": state["hideout"], "crimes": _crime_scenes(state),
            "board": _board_label(state),
            # The companion played Jack (issue 39): counted apart, by level, and its
            # seat is nobody's record.
            "companion": state.get("companion"),
            "companion_seats": [JACK] if state.get("companion") else []}
