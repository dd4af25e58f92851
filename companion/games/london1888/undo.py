"""The words of an undo in London 1888 (the platform's undo notice:
companion/web/context.undone)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.base import TABLE, State, Viewer, int_or_none
from companion.games.london1888.state import _count, _current
from companion.words import Text, _


def undone_words(state: State, actor: Viewer, action: Mapping[str, Any]) -> Text | None:
    """What an undo took back, in the words of the action ("Fay's question to Ilse"), from
    the state it was sent to. Every London action is public, so the whole table may read
    it; None for anything this game did not log (an imported file may hold anything)."""
    count = _count(state)
    name = {seat: state["players"][seat] for seat in range(count)}
    target = name.get(int_or_none(action.get("target"), 0, count - 1))
    table = actor == TABLE
    who = name[actor] if isinstance(actor, int) and actor in name else None
    kind = str(action.get("type"))
    if kind in ("question", "black_market", "arrest"):
        if not target or not (table or who):
            return None
        if kind == "question":
            return (_("the table's question to %(target)s", target=target) if table
                    else _("%(who)s's question to %(target)s", who=who, target=target))
        if kind == "black_market":
            return (_("the table's Black Market clue on %(target)s", target=target) if table
                    else _("%(who)s's Black Market clue on %(target)s", who=who,
                           target=target))
        return (_("the table's arrest of %(target)s", target=target) if table
                else _("%(who)s's arrest of %(target)s", who=who, target=target))
    current = _current(state)
    if kind == "end_turn":
        return (_("the end of %(who)s's turn", who=name[current]) if current is not None
                else None)
    if kind in ("release", "mark_dead"):
        if not target:
            return None
        return (_("%(target)s's release from PRISON", target=target) if kind == "release"
                else _("%(target)s's death", target=target))
    return {
        "next_round": _("the round %(round)s event card", round=state["round"] + 1),
        "record_outcome": _("the proposed outcome"),
        "withdraw_outcome": _("the withdrawal of the proposed outcome"),
    }.get(kind)
