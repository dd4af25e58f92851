"""An imported Wo ist Jack the Ripper state checked (``check_state``,
companion/importing.py): its shape, and the invariants that ``setup`` and ``apply`` keep.
"""

from __future__ import annotations

from typing import Any

from companion.games.base import check_seat, check_shape, require
from companion.games.wo_ist_jack.rules import _check_count
from companion.games.wo_ist_jack.state import MAX_STORY_POINTS, MIN_STORY_POINTS

STATE_SHAPE = {
    "players": [str], "story_names": [str], "story_points": dict, "removed": [str],
    "stories_in_play": int, "deck": [str], "current": (None, str), "next": (None, str),
    "printed": [{"story": str, "seat": int, "points": int}], "active": (None, int),
    "turn": int, "investigations": int, "prints_this_turn": int, "u_haft": [int],
    "reporterteam": (None, {"seat": int, "story": str, "turn": int}),
    "log": [str], "over": bool,
}


WORDS_DEPTH = 12
"""How deep a log line's kept words may nest (a sentence in a sentence: the longest the
game writes, the stories taken out of a 2-player game, nests 7): a hostile file's words
nested deeper would make ``words.from_data`` recurse past Python's limit."""


def _fair_words(kept: Any, depth: int = 0) -> bool:
    if depth > WORDS_DEPTH:
        return False
    params = kept.get("params") if isinstance(kept, dict) else None
    return not isinstance(params, dict) or all(
        _fair_words(value, depth + 1) for value in params.values() if isinstance(value, dict))


def check_state(state: Any) -> None:
    """A Wo ist Jack the Ripper state as ``setup`` and ``apply`` leave it (an imported
    file's): the shape, one U-Haft count per reporter, every story
    one of the game's, points whole numbers, seats in range."""
    check_shape(state, STATE_SHAPE)
    count = len(state["players"])
    _check_count(count)
    require(len(state["u_haft"]) == count, "the U-Haft markers are not one per reporter.")
    names = set(state["story_names"])
    stories = [*state["deck"], *state["removed"],
               *(entry["story"] for entry in state["printed"]),
               *(story for story in (state["current"], state["next"]) if story is not None)]
    require(set(stories) <= names, "a story is not one of the game's.")
    require(all(type(points) is int for points in state["story_points"].values()),
            "a story's points are not a whole number.")
    if state["active"] is not None:
        check_seat(state["active"], count, "the active reporter")
    for entry in state["printed"]:
        check_seat(entry["seat"], count, "a printing reporter")
    if state["reporterteam"] is not None:
        check_seat(state["reporterteam"]["seat"], count, "the Reporterteam's reporter")
    # Kept since a print is announced first; states saved before have none.
    pending = state.get("about_to_print")
    check_shape(pending, (None, {"seat": int, "story": str, "points": int, "deadline": int,
                                 "passed": [int]}), "the state.about_to_print")
    if pending is not None:
        check_seat(pending["seat"], count, "the reporter about to print")
        require(pending["story"] == state["current"], "the story about to print is not the "
                                                      "current one.")
        require(MIN_STORY_POINTS <= pending["points"] <= MAX_STORY_POINTS,
                "the points of the story about to print are out of range.")
        for other in pending["passed"]:
            check_seat(other, count, "a reporter who let the print go")
    # The Action cards kept for the reveal; states saved before they were kept have none.
    played = state.get("cards_played", [])
    check_shape(played, [{"kind": frozenset({"u_haft", "lost_turn", "reporterteam",
                                             "druckmaschine"}),
                          "by": (None, int), "on": (None, int), "story": (None, str),
                          "turn": int, "printed": int}], "the state.cards_played")
    for entry in played:
        for key in ("by", "on"):
            if entry[key] is not None:
                check_seat(entry[key], count, f"a played card's {key}")
        require(entry["printed"] <= len(state["printed"]) and entry["turn"] <= state["turn"],
                "a played card comes after the game's last print.")
    # The log's words, kept since the pages speak German and French; states saved before
    # have none. Only their shape is checked: words.from_data shows any junk as English
    # or nothing, never an error.
    words = state.get("log_words", [])
    check_shape(words, [(None, {"msgid": str})], "the state.log_words")
    require(all(_fair_words(kept) for kept in words if kept is not None),
            "a line of the state.log_words is nested too deep.")
    # Tracked since Druckmaschine defekt is kept; states saved before have none.
    broken = state.get("press_broken")
    check_shape(broken, (None, {"seat": int, "by": int}), "the state.press_broken")
    if broken is not None:
        check_seat(broken["seat"], count, "the broken press's reporter")
        check_seat(broken["by"], count, "the reporter who broke the press")
