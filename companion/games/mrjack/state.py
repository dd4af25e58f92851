"""Mr. Jack's vocabulary and what is read from a state: the two seats and how the rules
name them, the characters, the shape of a turn, and the facts that the rules and the views
both derive (who takes the next card, who is still a suspect, whom the detective's marks
clear). It imports no other module of the game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.games.base import TABLE, RuleError, State, is_seat
from companion.words import Text, _

# A sentence as shown: a Text, or a plain line kept in English by a state saved before
# the words were kept.
Words = Text | str

NAME = "mrjack"
TITLE = "Mr. Jack"

JACK = 0
DETECTIVE = 1

ROLES = ("Jack", "Detective")
"""The two seats' keys (pages' data attributes, the views' dicts); ROLE_NAMES shows them."""
ROLE_NAMES = {"Jack": _("Jack"), "Detective": _("Detective")}
# How the rulebook names the two players in a sentence, and at its start.
WHO = (_("Jack"), _("the detective"))
WHO_CAPITAL = (_("Jack"), _("The detective"))

# Every character of the base game and the extension, in the order of
# docs/RULINGS.md#mr-jack, "Characters".
CHARACTERS = {
    "holmes": _("Sherlock Holmes"),
    "watson": _("John H. Watson"),
    "smith": _("John Smith"),
    "lestrade": _("Inspector Lestrade"),
    "stealthy": _("Miss Stealthy"),
    "goodley": _("Sergeant Goodley"),
    "gull": _("Sir William Gull"),
    "bert": _("Jeremy Bert"),
    "madame": _("Madame"),
    "pizer": _("John Pizer"),
    "lane": _("Joseph Lane"),
    "abberline": _("Inspector Abberline"),
    "spring": _("Spring-Heeled Man"),
    "moriarty": _("Professor Moriarty"),
}

DRAFT_HAND = 5
DRAFT_KEEP = 2

CARDS_PER_TURN = 4
LAST_TURN = 8
# Game Play III.: gaslight tile n goes out at the end of turn n.
NUMBERED_GASLIGHTS = (1, 2, 3, 4)

# The double-sided Witness card (Setup: "Jack seen" side up for the first round).
WITNESS_SIDES = {"seen": _("Jack seen"), "not_seen": _("Jack not seen (no witnesses)")}
ANSWERS = {"seen": _("Jack is seen"), "not_seen": _("Jack is not seen")}

NOBODY = _("nobody")


def _innocent(state: State, seen: Sequence[str]) -> list[str]:
    """Game Play II.: "seen" clears the suspects not seen, "not seen" the seen ones."""
    if state["answer"] == "seen":
        return [card for card in _suspects(state) if card not in seen]
    return [card for card in _suspects(state) if card in seen]


def _marks_checked(state: State) -> bool:
    """The detective's marks wait for Jack's check."""
    return bool(state["marks"]) and not state["marks"]["returned"]


def is_over(state: State) -> bool:
    """End of the Game: an escape, an accusation or dawn after turn 8."""
    return state["phase"] == "over"


def _check_viewer(viewer: Any) -> None:
    if viewer != TABLE and not is_seat(viewer, len(ROLES)):
        raise RuleError(_("Mr. Jack has only two seats: Jack and the detective."))


def _who(seat: int, capital: bool = False) -> Text:
    return WHO_CAPITAL[seat] if capital else WHO[seat]


def _suspects(state: State) -> list[str]:
    return [card for card in state["characters"] if card not in state["cleared"]]


def _listed(names: Sequence[Words], last: str = "and") -> Words:
    """Names in one sentence part, "A, B and C" (``last`` "comma": "A, B, C"), each name
    translated where shown; "" for none (the caller says "nobody" where it is right)."""
    if not names:
        return ""
    text: Words = names[0]
    for index, name in enumerate(names[1:], start=2):
        if index == len(names) and last == "and":
            text = _("%(list)s and %(name)s", list=text, name=name)
        else:
            text = _("%(list)s, %(name)s", list=text, name=name)
    return text


def _names(cards: Sequence[str]) -> Words:
    return _listed([CHARACTERS[card] for card in cards])


def _commas(cards: Sequence[str]) -> Words:
    return _listed([CHARACTERS[card] for card in cards], "comma")


def _due(state: State) -> int | None:
    """The seat that takes the next card of this round, or None when all four are taken."""
    played = len(state["round"]["picks"])
    return state["round"]["order"][played] if played < CARDS_PER_TURN else None


def _last_pick(state: State) -> dict[str, Any] | None:
    picks = state["round"]["picks"]
    return picks[-1] if picks else None


def _escape_open(state: State) -> bool:
    """Game Play II. note: Jack may leave in the turn after a "not seen" call."""
    return state["phase"] == "play" and state["answer"] is None and state["witness"] == "not_seen"
