"""Wo ist Jack the Ripper's vocabulary and what is read from a state: the cards by the
names the rulebook prints (German, with their English glosses), the story points' range,
the print window, and the facts that the rules, the score and the views all derive (whose
seat acts, the print about to happen, the Action card of this turn). It imports no other
module of the game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.games.base import TABLE, RuleError, State, Viewer, is_seat, ordinal
from companion.words import Text, _

NAME = "wo_ist_jack"
TITLE = "Wo ist Jack the Ripper"

STORY_CARD_COUNT = 12
"""Components: "12 Story cards"."""

POLIZEI = "Polizei tappt im Dunkeln"
ANNIE = "Annie ermordet aufgefunden"
AMERIKA = "Ist der Ripper in Amerika?"
MORDSERIE = "Mordserie nimmt kein Ende"
RULEBOOK_STORIES = (POLIZEI, ANNIE, AMERIKA, MORDSERIE)
"""The only Story cards the rulebook names (Special Rules for 2 or 3 Players)."""

DEFAULT_STORIES = RULEBOOK_STORIES + tuple(
    _("Story %(place)s of the row (%(ordinal)s from the left)", place=place,
      ordinal=ordinal(place))
    for place in range(1, STORY_CARD_COUNT - len(RULEBOOK_STORIES) + 1))
"""The rulebook's names, then names that say how to find a card not named yet: the
table lays the eight other Story cards face up in a row at setup
(docs/RULINGS.md#wo-ist-jack-the-ripper, "Story names")."""

PLACEHOLDER_STORIES: dict[str, Text] = {
    str(name): name for name in DEFAULT_STORIES if isinstance(name, Text)}
"""A default name, kept in options and states as its English, shown in the reader's
language (a name the table typed is shown as typed)."""

MIN_STORY_POINTS = 1
MAX_STORY_POINTS = 15
# The rulebook prints no values ("found at the top of each card") but caps a
# reporter at 6 Research cards worth 1 or 2 each, +1 from Wichtiger Hinweis:
# no story can ask for more than 13, and its value rewards what it asks.
# 15 leaves headroom yet refuses a slip like 40.

REPORTER_IN_U_HAFT = "Reporter in U-Haft"
REPORTERTEAM = "Reporterteam"
DRUCKMASCHINE = "Druckmaschine defekt"
"""Action Cards: "he cannot print his story this round! (This card can be played at any
time on another player as he is about to print.)"; docs/RULINGS.md#wo-ist-jack-the-ripper,
"Druckmaschine defekt": until his next turn."""

GLOSSES: dict[str, str] = {
    REPORTER_IN_U_HAFT: "Reporter in Detention",
    REPORTERTEAM: "Reporting Team",
}
"""English glosses the rulebook gives for German card names (Action Cards)."""

ADDED_GLOSSES: dict[str, str] = {
    DRUCKMASCHINE: "Printing Press Broken",
    POLIZEI: "Police in the Dark",
    ANNIE: "Annie Found Murdered",
    AMERIKA: "Is the Ripper in America?",
    MORDSERIE: "No End to the Murders",
}
"""Ours, for the German names the rulebook does not gloss (the Story cards it names, and
Druckmaschine defekt): the cards stay German in every language, and an English page
says what they mean. Drawn on English pages only, like the rulebook's (a German reader
needs none, and a French gloss would be a translation the box never printed)."""

ENGLISH_GLOSSES: dict[str, str] = {**GLOSSES, **ADDED_GLOSSES}

PRINT_WINDOW_SECONDS = 8
"""How long the other reporters have to play Druckmaschine defekt on a print announced:
"a few seconds", enough to take the card from the hand and tap twice
(docs/RULINGS.md#wo-ist-jack-the-ripper, "About to print")."""

ACTION_CARDS = {"u_haft": REPORTER_IN_U_HAFT, "reporterteam": REPORTERTEAM}
"""The Action cards the companion keeps that a reporter plays as his turn's Action
(Course of the Game, Action: "each player must at some point during his turn perform one
of the following actions"; docs/RULINGS.md#wo-ist-jack-the-ripper, "One Action a turn").
Druckmaschine defekt is none: it "cannot be played as an action card"."""


def _shown(story: str) -> str:
    """A story's name as shown: a default name in the reader's language, a name the
    table typed as typed (German, as printed on the card)."""
    return PLACEHOLDER_STORIES.get(story, story)


def _quoted(stories: Sequence[str]) -> Text | str:
    """Story names in quotes, one after the other (“A”, “B”)."""
    quoted = [_("“%(story)s”", story=_shown(story)) for story in stories]
    text: Text | str = quoted[0] if quoted else ""
    for more in quoted[1:]:
        text = _("%(list)s, %(story)s", list=text, story=more)
    return text


def _about_to_print(state: State) -> dict[str, Any] | None:
    """The print announced and still open to Druckmaschine defekt, or None (states saved
    before the window existed have none)."""
    return state.get("about_to_print")


def _seat(state: State, actor: Viewer) -> int | None:
    """The actor's seat, None for the table screen; anything else is refused."""
    if actor == TABLE:
        return None
    if is_seat(actor, len(state["players"])):
        return int(actor)
    raise RuleError(_("Only the reporters at this table can do that."))


def _turn_action(state: State) -> dict[str, Any] | None:
    """The Action card the active reporter played as this turn's Action, or None. Read
    from the cards kept for the reveal, so a state saved before the rule needs nothing
    new (one saved before the cards were kept has none: its turn plays on)."""
    return next((entry for entry in reversed(state.get("cards_played", []))
                 if entry["kind"] in ACTION_CARDS and entry["turn"] == state["turn"]), None)


def _lost_this_turn(state: State, seat: int) -> bool:
    """Whether ``seat``'s turn was just passed over for U-Haft: the turn now being played
    came in its place ("He must lose a turn!")."""
    return any(entry["kind"] == "lost_turn" and entry["on"] == seat
               and entry["turn"] == state["turn"] - 1
               for entry in state.get("cards_played", []))


def _press_broken(state: State) -> dict[str, Any] | None:
    """The Druckmaschine defekt lying in front of the active reporter, or None (states
    saved before the card was tracked have none)."""
    return state.get("press_broken")


def is_over(state: State) -> bool:
    """End of the Game: every Story card is printed."""
    return bool(state["over"])


def _name(state: State, seat: int) -> str:
    return state["players"][seat]


def _names(state: State, seats: Sequence[int]) -> str:
    names = [_name(state, seat) for seat in seats]
    # The players' own names, listed with commas; only the last "and" is a word.
    return _("%(names)s and %(last)s", names=", ".join(names[:-1]),
             last=names[-1]) if len(names) > 1 else names[0]
