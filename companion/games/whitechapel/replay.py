"""Letters from Whitechapel, a night replayed: the frames of one night, step by step.

Pure: the states of one game's log in order (undone entries left out) in, frames out.
Step ``k`` of a night is the table after Jack's ``k``-th movement of that night and the
police's answer to it (Hunting 2-3: their moves, searches and arrests); step 0 is the
table before his first movement (the crime, the alarm and, on the third night, the
police's first turn). The last step is the table when the night ended: the escape, the
arrest, square 15 or no legal move.

Each frame is drawn from the TABLE view of its step's state (``views.view(state,
TABLE)``): before the end of the game a frame shows nothing the table screen did not
show at that moment (the crime scenes, the clues, the circles searched, the policemen,
the squares used, and the deduction map only if the table switched it on). Only once
the game is over does a frame add Jack's real path of that night up to the step and his
hideout, from the last state's move sheet: the sheet is secret until "The End of the
Game" turns it over (docs/RULINGS.md#letters-from-whitechapel, "The replay of a night").
A night still being played is never replayable, only the nights that ended.

A table its host ended (``table_ended``) is over too, for its secrets as for its play:
the table chose to stop and can never go on. Every night that ended replays and so does
the night it stopped in, up to Jack's last movement, each with his path
(docs/RULINGS.md#letters-from-whitechapel, "A table ended during a game").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.base import TABLE, RuleError, State
from companion.games.whitechapel.state import NIGHTS, _filled, is_over, listed
from companion.games.whitechapel.views import view
from companion.words import Text, _

KINDS = {"move": _("a normal move"), "coach": _("a Coach"), "alley": _("an Alley")}
"""Jack's movements as the track shows them: the kind is public, the circle is not."""


def replay_nights(states: Sequence[State], table_ended: bool = False) -> list[dict[str, Any]]:
    """The nights that may be replayed now: every night that ended (the one the game
    ended on with it), never the night in progress; on a table its host ended, the
    night it stopped in too. Only a night with its crime (step 0). Each
    ``{"number", "label"}``."""
    if not states:
        return []
    last = states[-1]
    ended = last["night"] + 1 if is_over(last) or table_ended else last["night"]
    return [{"number": n, "label": _("Night %(night)s (%(date)s)", night=n,
                                                date=NIGHTS[n]["date"])}
            for n in range(1, ended) if last["nights"][n - 1]["crimes"]]


def replay_frames(states: Sequence[State], night: int,
                  table_ended: bool = False) -> list[dict[str, Any]]:
    """The frames of ``night`` (one of ``replay_nights``), step 0 to the night's end
    (on an ended table, to Jack's last movement of the night it stopped in).

    Each frame: ``step``, ``caption`` (public words), ``view`` (the TABLE view the map
    draws, plus Jack's path so far under ``replay`` once the game or the table is over)
    and ``known`` (what the detectives knew: the night's public facts at that step)."""
    if night not in [n["number"] for n in replay_nights(states, table_ended)]:
        raise RuleError(_("Night %(night)s cannot be replayed: only a night that has ended "
                          "can.", night=night))
    last = states[-1]
    made = len(last["nights"][night - 1]["moves"])
    steps = _step_states(states, night, made)
    over = is_over(last) or table_ended
    # The night the host ended the table in has no end of its own: its last step is
    # where play stopped.
    stopped = night == last["night"] and not is_over(last)
    return [_frame(steps[k], night, k, made, last if over else None, stopped)
            for k in range(made + 1)]


def _step_states(states: Sequence[State], night: int, made: int) -> dict[int, State]:
    """Each step's state: the last one of that night with ``k`` movements made (the
    police have answered), or, for the movement that ended the night (the escape, whose
    state is already the next night's), the first one with all of them."""
    steps: dict[int, State] = {}
    for state in states:
        record = state["nights"][night - 1]
        moves = len(record["moves"])
        if state["night"] == night and record["crimes"]:
            steps[moves] = state
        elif state["night"] > night and moves == made and made not in steps:
            steps[made] = state
    return steps


def _frame(state: State, night: int, step: int, made: int,
           final: State | None, stopped: bool) -> dict[str, Any]:
    table = view(state, TABLE)
    facts = table["public_facts"]
    tonight = facts if facts["night"] == night else facts["prior_nights"][night - 1]
    record = state["nights"][night - 1]
    shown = dict(table)
    # The whole sheet of the reveal would draw every night's path to its end: a frame
    # draws its own night's, up to its step, and only after the end (``final``).
    shown["reveal"] = None
    if not table["options"]["deduction_map"] and final is not None:
        shown["options"] = {**table["options"], "deduction_map": True}
    shown["replay"] = _path(final, night, step) if final is not None else None
    return {
        "night": night,
        "step": step,
        "steps": made + 1,
        "caption": _caption(record, step, made, stopped),
        "view": shown,
        "known": {
            "crimes": tonight["crime_scenes"],
            "moves": step,
            "square": _filled(record),
            "clues": sorted({c["circle"] for c in tonight["clues"]}),
            "searched": sorted({e["circle"] for e in tonight["searched_empty"]}),
            "arrests": sorted({e["circle"] for e in tonight["failed_arrests"]}),
            "ended": state["night"] != night or is_over(state),
            "outcome": table["outcome"]["text"] if table["outcome"] else None,
            "stopped": stopped and step == made,
        },
    }


def _caption(record: Mapping[str, Any], step: int, made: int, stopped: bool) -> Text:
    """What this step was, as the table saw it: the kind of each movement, never its
    circle. A night the table stopped in has no end to name."""
    if step == 0:
        scenes = listed([str(c) for c in sorted(record["crimes"])])
        return _("The crime on %(circles)s: Jack has not moved yet", circles=scenes)
    kind = KINDS[record["moves"][step - 1]["kind"]]
    if step == made and not stopped:
        return _("Jack's movement %(step)s of %(made)s (%(kind)s) and the night's end",
                 step=step, made=made, kind=kind)
    return _("Jack's movement %(step)s of %(made)s (%(kind)s)", step=step, made=made,
             kind=kind)


def _path(final: State, night: int, step: int) -> dict[str, Any]:
    """Jack's real path of ``night`` up to movement ``step`` and his hideout, from the
    final state's sheet: drawn after the end only (as ``boardmap`` draws a reveal)."""
    record = final["nights"][night - 1]
    return {"hideout": final["hideout"],
            "nights": [{"night": night, "crimes": list(record["crimes"]),
                        "moves": [dict(m) for m in record["moves"][:step]]}]}
