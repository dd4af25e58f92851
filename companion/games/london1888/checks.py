"""An imported London 1888 state checked (``check_state``): its shape, and the
invariants ``setup`` and ``apply`` keep."""

from __future__ import annotations

from typing import Any

from companion.games.base import TABLE, State, check_seat, check_shape, require
from companion.games.london1888.state import (
    ARRESTED,
    ARRESTS,
    BOX,
    CHARACTERS,
    CORRUPTION,
    INNOCENTS,
    JACK,
    JACK_SIDE,
    LINE_LENGTH,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PAID,
    POLICE_ARRESTS,
    PRISON_REASONS,
    RESULTS,
    SERVING,
)
from companion.games.london1888.views import NEWS_LINES
from companion.words import _

STATE_SHAPE = {
    "players": [str], "characters": [str], "absinthe": bool, "lines": [[str]],
    "revealed": [[bool]], "deck": [{"name": str, "murder": bool}], "manifestation": str,
    "resignation": str, "round": int, "holder": int, "order": [int], "turn": int,
    "decided": bool, "alive": [bool], "prison": [(None, frozenset({ARRESTED, SERVING}))],
    "reveals": [{"by": int, "target": int, "position": int, "round": int,
                 "card": frozenset(BOX), "how": str}],
    "log": [{"round": int, "text": str}],
    "outcome": (None, {"winner": frozenset({INNOCENTS, JACK_SIDE}),
                       "how": (None, frozenset(how for _, how, _ in RESULTS.values() if how))}),
}

NEWS_SHAPE = (None, {"kind": frozenset(NEWS_LINES), "actor": (None, int), "target": int,
                     "log": int, "way": (None, frozenset({*ARRESTS, PAID, CORRUPTION, TABLE})),
                     "killer": (None, int), "jailed": bool})


def _check_news(state: State, count: int) -> None:
    """The latest arrest, release or death (states saved before it was kept have none):
    seats of this game, log lines it wrote, a policeman of this cast."""
    news = state.get("news")
    check_shape(news, NEWS_SHAPE, "the state.news")
    if news is None:
        return
    for key in ("actor", "target", "killer"):
        if news[key] is not None:
            check_seat(news[key], count, f"the news's {key}")
    require(0 <= news["log"] <= len(state["log"]), _("the news is off the game log."))
    require(news["way"] not in POLICE_ARRESTS
            or POLICE_ARRESTS[news["way"]] in state["characters"],
            _("the news names a policeman who is not in this game."))


INCIDENT_SHAPE = [{"round": int, "reveals": int, "kind": frozenset(NEWS_LINES),
                   "actor": (None, int), "target": int, "killer": (None, int), "jailed": bool,
                   "way": (None, frozenset({*ARRESTS, PAID, CORRUPTION, TABLE}))}]


def _check_incidents(state: State, count: int) -> None:
    """The arrests, releases and deaths kept for the reveal (states saved before they
    were kept have none): seats of this game, rounds and reveals already played."""
    incidents = state.get("incidents", [])
    check_shape(incidents, INCIDENT_SHAPE, "the state.incidents")
    for entry in incidents:
        for key in ("actor", "target", "killer"):
            if entry[key] is not None:
                check_seat(entry[key], count, f"an incident's {key}")
        require(1 <= entry["round"] <= state["round"]
                and 0 <= entry["reveals"] <= len(state["reveals"]),
                _("an incident comes after the game's last round or card."))


def check_state(state: Any) -> None:
    """A London 1888 state as ``setup`` and ``apply`` leave it (an imported file's):
    the shape, one character, line and flag per player, five cards a line and exactly
    one Jack among them, seats and rounds in range."""
    check_shape(state, STATE_SHAPE)
    count = len(state["players"])
    require(MIN_PLAYERS <= count <= MAX_PLAYERS, _("London 1888 has 4 to 8 players, not %(count)s.",
                                                         count=count))
    for key in ("characters", "lines", "revealed", "alive", "prison"):
        require(len(state[key]) == count, _("the state has %(found)s %(key)s for %(count)s "
                                            "players.", found=len(state[key]), key=key,
                                            count=count))
    require(set(state["characters"]) <= set(CHARACTERS)
            and len(set(state["characters"])) == count, _("the characters are not a cast."))
    for line, flags in zip(state["lines"], state["revealed"], strict=True):
        require(len(line) == LINE_LENGTH == len(flags) and set(line) <= set(BOX),
                _("a line of suspicion is not five identity cards."))
    require(sum(line.count(JACK) for line in state["lines"]) == 1,
            _("the lines hold no Jack, or more than one."))
    require(1 <= state["round"] <= len(state["deck"]) + 1, _("the round is out of the deck."))
    check_seat(state["holder"], count, "the Absinthe's holder")
    for seat in state["order"]:
        check_seat(seat, count, "a seat of the turn order")
    require(0 <= state["turn"] <= len(state["order"]), _("the turn is out of the order."))
    # Kept since arrests name who made them, and since outcomes are proposed first;
    # states saved before have neither.
    check_shape(state.get("arrested_by", [None] * count),
                [(None, frozenset(PRISON_REASONS))], "the state.arrested_by")
    require(len(state.get("arrested_by", [None] * count)) == count,
            _("the arrests are not one a player."))
    check_shape(state.get("proposal"), (None, {"result": frozenset(RESULTS),
                                               "accomplices": [int], "round": int}),
                "the state.proposal")
    for seat in (state.get("proposal") or {}).get("accomplices", []):
        check_seat(seat, count, "a proposed accomplice")
    _check_news(state, count)
    _check_incidents(state, count)
    for reveal in state["reveals"]:
        check_seat(reveal["by"], count, "a reveal's seat")
        check_seat(reveal["target"], count, "a reveal's target")
        require(1 <= reveal["position"] <= LINE_LENGTH, _("a reveal's card is off its line."))
