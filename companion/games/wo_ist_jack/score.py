"""Wo ist Jack the Ripper's End of the Game: the story points per reporter, the bonus for
the most stories printed, and the Reporter of the Year (``score``).
"""

from __future__ import annotations

from typing import Any

from companion.games.base import State
from companion.games.wo_ist_jack.state import _name, _names
from companion.words import Text, _, ngettext

MOST_STORIES_BONUS = 2
"""End of the Game: "If a single player has printed more stories than anyone else"."""


def score(state: State) -> dict[str, Any]:
    """Story points per reporter, the +2 for most stories, the Reporter of the Year.

    The bonus and the title belong to the end of the game; before it, the
    standings are the story points so far. The rulebook has no tie-break for
    the title, so tied reporters share it.
    """
    players = state["players"]
    counts = [0] * len(players)
    points = [0] * len(players)
    for entry in state["printed"]:
        counts[entry["seat"]] += 1
        points[entry["seat"]] += entry["points"]
    most = max(counts)
    leaders = [seat for seat, count in enumerate(counts) if count == most]
    bonus_seat = leaders[0] if state["over"] and len(leaders) == 1 and most else None
    totals = [points[seat] + (MOST_STORIES_BONUS if seat == bonus_seat else 0)
              for seat in range(len(players))]
    best = max(totals)
    winners = [seat for seat, total in enumerate(totals) if total == best] \
        if state["over"] else []
    standings = sorted(
        ({"seat": seat, "name": players[seat], "stories": counts[seat],
          "story_points": points[seat],
          "bonus": MOST_STORIES_BONUS if seat == bonus_seat else 0,
          "total": totals[seat], "reporter_of_the_year": seat in winners}
         for seat in range(len(players))),
        key=lambda row: (-row["total"], row["seat"]))
    return {"standings": standings, "bonus_seat": bonus_seat,
            "bonus_note": _bonus_note(state, leaders, most) if state["over"] else "",
            "reporters_of_the_year": [players[seat] for seat in winners],
            "headline": _headline(state, winners, best) if state["over"] else ""}


def _bonus_note(state: State, leaders: list[int], most: int) -> Text:
    if len(leaders) == 1:
        return _("%(name)s printed the most stories (%(most)s) and gets +%(bonus)s story "
                 "points.", name=_name(state, leaders[0]), most=most,
                 bonus=MOST_STORIES_BONUS)
    return _("%(names)s tie for the most stories (%(most)s each): nobody gets the bonus.",
             names=_names(state, leaders), most=most)


def _headline(state: State, winners: list[int], best: int) -> Text:
    if len(winners) == 1:
        return ngettext("%(name)s is the Reporter of the Year with %(n)s point!",
                        "%(name)s is the Reporter of the Year with %(n)s points!", best,
                        name=_name(state, winners[0]))
    return ngettext("%(names)s share the title Reporter of the Year with %(n)s point each "
                    "(the rulebook has no tie-break).",
                    "%(names)s share the title Reporter of the Year with %(n)s points each "
                    "(the rulebook has no tie-break).", best, names=_names(state, winners))
