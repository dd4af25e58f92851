"""Wo ist Jack the Ripper: the hidden story deck, printed stories and the final score.

Rulebook: "Wo ist Jack the Ripper", its sections as named; rulings:
docs/RULINGS.md#wo-ist-jack-the-ripper. The reporters' Research and Action cards stay
physical (docs/RULINGS.md#general, "What the companion keeps"). The companion
keeps what paper does badly:

- the Story deck, shuffled in secret ("Set-up"): only the current story and
  the next one lie face up; the order of the rest is known to nobody;
- whose turn it is ("Course of the Game"), with the two Action cards that stay
  in front of a player until their effect ends ("Action Cards"):
  Reporter in U-Haft and Reporterteam; and Druckmaschine defekt, played by
  another reporter on the one about to print, who then cannot print until his
  next turn (docs/RULINGS.md#wo-ist-jack-the-ripper, "Druckmaschine defekt");
- who printed which story for how many points, and the final score
  ("End of the Game");
- the moment "as he is about to print" (Action Cards, Druckmaschine defekt): a print
  is announced to every phone and stands open for ``PRINT_WINDOW_SECONDS``, or until
  every other reporter has passed, before it is printed
  (docs/RULINGS.md#wo-ist-jack-the-ripper, "About to print"). The window's end is a
  deadline kept in the state, so that it survives a restart of the laptop; the time
  comes in with each action as ``clock`` (the laptop's clock in seconds, set by the web
  layer, never by the phone).

The setup form (what ``parse_options`` reads and ``form_from`` writes, so
that ``parse_options(form_from(options), count) == options``):

``stories``
    The 12 Story cards, one per line, each ``Name`` or ``Name = points``
    (its value once known, so it need not be typed again). The four names
    the rulebook gives must be among them, since "Special Rules for 2 or 3
    Players" removes them by name; the other eight are named once per laptop
    (its decks, ``DECK_FIELDS``), and until then say how to find the card.

Options are ``{"story_names": [12 names], "story_points": {name: points}}``;
they do not depend on the number of players, since a table may lose an empty
seat after its options were set. Point values typed during a game are kept
per card name; ``options_for_next_game`` hands them back so that a table's
remembered options never ask for the same value twice (docs/RULINGS.md#wo-ist-jack-the-ripper,
"Story points").

The start player ("for example, the youngest player") is chosen at the table
once everyone is seated: the game's first action, ``start_player``.
"""

from __future__ import annotations

from typing import Any

from companion.games.base import State, check_seat, check_shape, require
from companion.games.wo_ist_jack.rules import (
    DECK_FIELDS,
    DEFAULT_PLAYERS,
    FIXED_SEATS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    REMOVED_STORIES,
    U_HAFT_COPIES,
    _check_count,
    actions,
    apply,
    commutes,
    default_options,
    form_from,
    options_for_next_game,
    parse_options,
    seat_labels,
    setup,
)
from companion.games.wo_ist_jack.score import score
from companion.games.wo_ist_jack.state import (
    ACTION_CARDS,
    AMERIKA,
    ANNIE,
    DEFAULT_STORIES,
    DRUCKMASCHINE,
    ENGLISH_GLOSSES,
    GLOSSES,
    MAX_STORY_POINTS,
    MIN_STORY_POINTS,
    MORDSERIE,
    NAME,
    POLIZEI,
    PRINT_WINDOW_SECONDS,
    REPORTER_IN_U_HAFT,
    REPORTERTEAM,
    RULEBOOK_STORIES,
    TITLE,
    _names,
    is_over,
)
from companion.games.wo_ist_jack.views import view
from companion.words import _

# Moved out, still the game's (companion/games/base.py's protocol).
__all__ = ["NAME", "TITLE", "MIN_PLAYERS", "MAX_PLAYERS", "DEFAULT_PLAYERS", "FIXED_SEATS",
    "DECK_FIELDS", "seat_labels", "default_options", "parse_options", "form_from",
    "options_for_next_game", "setup", "apply", "view", "actions", "commutes", "is_over", "score",
    "DEFAULT_STORIES", "PRINT_WINDOW_SECONDS", "RULEBOOK_STORIES", "REMOVED_STORIES",
    "MIN_STORY_POINTS", "MAX_STORY_POINTS", "REPORTERTEAM", "POLIZEI", "REPORTER_IN_U_HAFT",
    "MORDSERIE", "AMERIKA", "ANNIE", "GLOSSES", "ENGLISH_GLOSSES", "DRUCKMASCHINE", "U_HAFT_COPIES",
    "ACTION_CARDS"]


# --- seats and options -----------------------------------------------------

# --- setup ------------------------------------------------------------------

# --- actions -----------------------------------------------------------------

# --- score -------------------------------------------------------------------

# --- views -------------------------------------------------------------------

# --- the club's history (companion/history.py) -----------------------------------------

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

# --- an imported state ---------------------------------------------------------------

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
