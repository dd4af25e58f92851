"""London 1888's confirmed outcome and tournament points (rulebook "Note: Scoring for
Tournaments"; docs/RULINGS.md#london-1888, "Tournament points"): ``outcome_summary`` and
``tournament_points`` are the stable interface tournaments build on."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.base import State, require
from companion.games.london1888.state import (
    DEFAULT_UNDISCOVERED_LATE_MURDER,
    FIFTH_MURDER,
    FIFTH_MURDER_EARLIEST,
    FIFTH_MURDER_LATEST,
    FIFTH_MURDER_POINTS_DISCOVERED,
    INNOCENT_WIN_POINTS,
    INNOCENTS,
    JACK_SIDE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    POINTS_DISCOVERED,
    POINTS_UNDISCOVERED,
    SUICIDE,
    UNDISCOVERED_FIFTH_MURDER_IN_EARLIEST,
    _count,
    _jack_known,
    _jack_seat,
    fifth_murder_round,
)
from companion.words import _


def outcome_summary(state: State) -> dict[str, Any] | None:
    """The confirmed outcome, or None while the game goes on (a proposed outcome not yet
    confirmed included: tournaments count only what the host confirmed). JSON form::

        {"winner": "innocents" | "jack",
         "how": None | "suicide" | "killed_everyone" | "fifth_murder",
         "murder_round": int | None,   # round of the 5th murder (11-21), only for
                                       # "fifth_murder", derived from the event deck
         "discovered": bool,           # Jack's identity known: his card revealed, or
                                       # every other player cleared
         "jack": int,                  # Jack's seat (0-based)
         "accomplices": [int, ...],    # seats, sorted, never Jack's
         "players": int,               # number of seats
         "characters": [str, ...],     # each seat's character, in seat order
         "round": int,                 # the round in which the game ended
         "points": [int, ...]}         # tournament points per seat (late undiscovered
                                       # 5th murder scored 8, the default of
                                       # docs/RULINGS.md#london-1888, "Tournament points")
    """
    outcome = state.get("outcome")
    if outcome is None:
        return None
    summary = {
        "winner": outcome["winner"], "how": outcome["how"],
        "murder_round": (fifth_murder_round(state["deck"]) if outcome["how"] == FIFTH_MURDER
                         else None),
        "discovered": _jack_known(state) is not None,
        "jack": _jack_seat(state),
        "accomplices": list(outcome["accomplices"]),
        "players": _count(state),
        "characters": list(state["characters"]),
        "round": outcome["round"],
    }
    summary["points"] = tournament_points(summary, _count(state))
    return summary


def jack_points(how: str, discovered: bool, murder_round: int | None,
                undiscovered_late_murder: int = DEFAULT_UNDISCOVERED_LATE_MURDER) -> int:
    """Jack's (and each accomplice's) points when Jack wins: the rulebook table."""
    if how == FIFTH_MURDER:
        require(isinstance(murder_round, int) and not isinstance(murder_round, bool)
                and FIFTH_MURDER_EARLIEST <= murder_round <= FIFTH_MURDER_LATEST,
                _("The 5th murder falls between round %(first)s and round %(last)s.",
                  first=FIFTH_MURDER_EARLIEST, last=FIFTH_MURDER_LATEST))
        if not discovered:
            return (UNDISCOVERED_FIFTH_MURDER_IN_EARLIEST if murder_round
                    == FIFTH_MURDER_EARLIEST else undiscovered_late_murder)
        return next(points for first, last, points in FIFTH_MURDER_POINTS_DISCOVERED
                    if first <= murder_round <= last)
    table = POINTS_DISCOVERED if discovered else POINTS_UNDISCOVERED
    require(how in table, _("Jack cannot win by suicide while his identity is undiscovered.")
            if how == SUICIDE else _("“%(how)s” is not a way for Jack to win.",
                                     how=str(how)[:30]))
    return table[how]


def tournament_points(outcome: Mapping[str, Any], players: int,
                      undiscovered_late_murder: int = DEFAULT_UNDISCOVERED_LATE_MURDER
                      ) -> list[int]:
    """Points per seat (rulebook "Note: Scoring for Tournaments"; docs/RULINGS.md#london-1888,
    "Tournament points"): Innocents win: 1 to each Innocent who was not an accomplice. Jack
    wins: Jack and each accomplice get Jack's points, everyone else 0. ``outcome`` is the
    ``outcome_summary`` form (``winner``, ``how``, ``murder_round``, ``discovered``, ``jack``,
    ``accomplices``); an outcome the rules do not allow raises RuleError."""
    require(isinstance(players, int) and MIN_PLAYERS <= players <= MAX_PLAYERS,
            _("London 1888 is played by %(least)s to %(most)s players.", least=MIN_PLAYERS,
              most=MAX_PLAYERS))
    jack = outcome.get("jack")
    require(isinstance(jack, int) and not isinstance(jack, bool) and 0 <= jack < players,
            _("The outcome must name Jack's seat."))
    accomplices = outcome.get("accomplices") or []
    require(all(isinstance(seat, int) and 0 <= seat < players for seat in accomplices),
            _("The accomplices must be seats of this game."))
    side = set(accomplices) | {jack}
    winner = outcome.get("winner")
    if winner == INNOCENTS:
        require(outcome.get("how") is None, _("The Innocents' win has no “how”."))
        require(bool(outcome.get("discovered")), _("The Innocents cannot win while Jack's "
                                                   "identity is undiscovered."))
        return [0 if seat in side else INNOCENT_WIN_POINTS for seat in range(players)]
    require(winner == JACK_SIDE, _("The winner must be the Innocents or Jack."))
    points = jack_points(str(outcome.get("how")), bool(outcome.get("discovered")),
                         outcome.get("murder_round"), undiscovered_late_murder)
    return [points if seat in side else 0 for seat in range(players)]
