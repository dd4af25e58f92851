"""Mr. Jack's log: each line by its key (``LINES``), kept in the state with its cards and
seats (``_log``) and made again in the reader's language when shown (``_kept``); the end's
line among them (``_outcome_text``).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Mapping
from typing import Any

from companion.games.base import State
from companion.games.mrjack.state import ANSWERS, CHARACTERS, NOBODY, Words, _names, _who
from companion.words import Text, _

# Each line of the history by its key: the state keeps the key and its cards, seats and
# numbers (small, and never a sentence), the line is made in the reader's language when
# shown. ``who`` is a seat, ``card`` a character, ``cards`` a list of them, ``answer`` a
# witness answer.
LINES: dict[str, Callable[[Mapping[str, Any]], Text]] = {
    "draft_dealt": lambda p: _(
        "The 4 basic characters are set aside; the 10 additional characters are dealt one "
        "by one, 5 to each player."),
    "dealt": lambda p: _("%(who)s was dealt %(characters)s.", who=_who(p["seat"], True),
                         characters=_names(p["cards"])),
    "alibi_shuffled": lambda p: _(
        "The alibi cards are shuffled. Jack draws his alibi card in secret."),
    "alibi_card": lambda p: _("Jack's alibi card: %(character)s.",
                              character=CHARACTERS[p["card"]]),
    "face_up": lambda p: _("Turn %(turn)s: %(characters)s are face up.", turn=p["turn"],
                           characters=_names(p["cards"])),
    "has_chosen": lambda p: _("%(who)s has chosen 2 characters.", who=_who(p["seat"], True)),
    "kept": lambda p: _("%(who)s kept %(characters)s.", who=_who(p["seat"], True),
                        characters=_names(p["cards"])),
    "draft_revealed": lambda p: _(
        "Both reveal their choice: Jack %(jack)s, the detective %(detective)s. The 8 "
        "characters of this game: %(characters)s.", jack=_names(p["jack"]),
        detective=_names(p["detective"]), characters=_names(p["cards"])),
    "places_lane": lambda p: _(
        "%(who)s places %(character)s and the Barricade between two street hexes.",
        who=_who(p["seat"], True), character=CHARACTERS[p["card"]]),
    "places": lambda p: _("%(who)s places %(character)s.", who=_who(p["seat"], True),
                          character=CHARACTERS[p["card"]]),
    "plays": lambda p: _("%(who)s plays %(character)s.", who=_who(p["seat"], True),
                         character=CHARACTERS[p["card"]]),
    # Extension FAQ: the Barricade stays where it is when Joseph Lane's card goes.
    "leaves_lane": lambda p: _(
        "%(character)s's card leaves the game. The Barricade stays where it is.",
        character=CHARACTERS[p["card"]]),
    "leaves": lambda p: _("%(character)s's card leaves the game.",
                          character=CHARACTERS[p["card"]]),
    "impersonates": lambda p: _("Professor Moriarty impersonates %(character)s.",
                                character=CHARACTERS[p["card"]]),
    "draws_alibi": lambda p: _("%(who)s draws an alibi card in secret.",
                               who=_who(p["seat"], True)),
    "drew_alibi": lambda p: _("%(who)s drew the alibi card of %(character)s.",
                              who=_who(p["seat"], True), character=CHARACTERS[p["card"]]),
    "shows_alibi": lambda p: _(
        "%(who)s shows the alibi card of %(character)s: %(character)s is innocent.",
        who=_who(p["seat"], True), character=CHARACTERS[p["card"]]),
    "call": lambda p: _("Call for witnesses: %(answer)s.", answer=ANSWERS[p["answer"]]),
    "marks": lambda p: _(
        "The detective marks as seen: %(seen)s. Jack checks the marks against the board.",
        seen=_names(p["seen"]) or NOBODY),
    "checked": lambda p: _(
        "Jack checks the marks against the board. Seen: %(seen)s. Cleared: %(cleared)s.",
        seen=_names(p["seen"]) or NOBODY, cleared=_names(p["cleared"]) or NOBODY),
    "returned": lambda p: _(
        "Jack says the marks are not what the board shows: look at the board together; the "
        "detective marks again."),
    "corrected": lambda p: _("Jack corrects his answer: %(answer)s.",
                             answer=ANSWERS[p["answer"]]),
    "gaslight_out": lambda p: _("End of turn %(turn)s: gaslight %(turn)s goes out.",
                                turn=p["turn"]),
    "reshuffled": lambda p: _("End of turn %(turn)s: the 8 character cards are reshuffled.",
                              turn=p["turn"]),
    # The four ends (``_finish``; ENDING_WORDS has the same keys).
    "accused": lambda p: _(
        "The detective accuses %(character)s: %(character)s is Jack! The detective wins.",
        character=CHARACTERS[p["card"]]),
    "wrong_accusation": lambda p: _(
        "The detective accuses %(character)s, but Jack is %(alibi)s: Jack escapes in the "
        "confusion and wins.", character=CHARACTERS[p["card"]],
        alibi=CHARACTERS[p["alibi"]]),
    "escaped": lambda p: _("Jack (%(alibi)s) leaves the district and wins.",
                           alibi=CHARACTERS[p["alibi"]]),
    "dawn": lambda p: _(
        "Dawn after turn %(turn)s: Jack (%(alibi)s) has not been caught and wins.",
        turn=p["turn"], alibi=CHARACTERS[p["alibi"]]),
}
# What a kept line's cards and seats may be that LINES cannot read: an imported file's.
_UNREADABLE = (KeyError, IndexError, TypeError, ValueError, AttributeError, RecursionError)


def _say(key: str, params: Mapping[str, Any]) -> Text:
    return LINES[key](params)


def _kept(say: Any, english: str) -> Words:
    """A kept line made again in the reader's language; its English where none was kept
    (a state saved before) or the kept one cannot be read."""
    return (_said(say) if isinstance(say, str) else None) or english


def _outcome_text(outcome: Mapping[str, Any]) -> Words:
    """The end in words: made again from its key since it is kept, else its English."""
    return _kept(outcome.get("say"), outcome["text"])


@functools.lru_cache(maxsize=4096)
def _said(kept: str) -> Text | None:
    """A kept line's Text (None if it makes none), made once: every view of every phone
    shows the whole history, and a Text is never changed once made."""
    try:
        key, params = json.loads(kept)
        if key not in LINES or not isinstance(params, dict):
            return None
        return _say(key, params)
    except _UNREADABLE:
        return None


Line = tuple[str, dict[str, Any]]


def _kept_line(line: Line) -> str:
    """A line as the state keeps it: its key and what it reads, in one JSON string (one
    value for every copy of the state to copy, and the key of ``_said``'s cache)."""
    return json.dumps(list(line), sort_keys=True, separators=(",", ":"))


def _log(state: State, line: Line, secrets: Mapping[int, Line] | None = None) -> None:
    """A line of the history: its English (as every state before kept it) and its key
    with its cards (``say``, ``secret_say``), so that each phone reads it in its own
    language."""
    entry = {"turn": state["turn"], "text": str(_say(*line)), "say": _kept_line(line),
             "secrets": {str(seat): str(_say(*said)) for seat, said in (secrets or {}).items()}}
    if secrets:
        entry["secret_say"] = {str(seat): _kept_line(said) for seat, said in secrets.items()}
    state["log"].append(entry)
