"""Mr. Jack and the Mr. Jack London extension: the hidden parts of a two-player duel.

Rulebooks: "Mr. Jack" (base game) and "Mr. Jack: Extension (Mr. Jack London)",
their sections as named; rulings: docs/RULINGS.md#mr-jack.

The board, the character tokens, the gaslights, manholes, cordons and the
Barricade stay physical. The companion holds what paper hides or what is
easy to get wrong: Jack's alibi card (the character he impersonates), the
alibi deck, the character card deck and its cycle over the eight turns, the
Witness card, the suspect list, the extension's draft and Professor
Moriarty's impersonation.

Seat 0 plays Jack, seat 1 the detective. A game runs through these phases:

``draft``      (extension) each player keeps 2 of the 5 additional characters dealt to him
``placement``  (extension) the 8 character tokens are placed in the rulebook's order
``play``       turns 1-8: four characters played, then the call for witnesses
``over``       Jack left the district, was accused, or dawn broke after turn 8

This package is the game the registry finds (companion/games/base.py's protocol), each
module one job:

- ``state``: the vocabulary (seats, characters, the turn's shape) and what is read from
  a state; it imports no other module of the game.
- ``log``: the log's lines by their keys, made in the reader's language when shown.
- ``rules``: the setup form, Setup, the moves (``apply``), and why one may not be made
  now, from which ``actions`` follows.
- ``views``: what each seat and the table screen see, their sentences, and the reveal.
- ``summary``: a finished game for the club's history (``result``).
- ``checks``: an imported state checked (``check_state``).

Pure like every game: nothing here imports Flask, SQL or the platform.
"""

from __future__ import annotations

from companion.games.mrjack.checks import check_state
from companion.games.mrjack.rules import (
    ACTION_TYPES,
    BASE_CHARACTERS,
    DEFAULT_PLAYERS,
    EVEN_ORDER,
    FIXED_SEATS,
    LONDON_ADDITIONAL,
    LONDON_BASIC,
    MAX_PLAYERS,
    MIN_PLAYERS,
    ODD_ORDER,
    OPTION_WORDS,
    actions,
    apply,
    default_options,
    form_from,
    parse_options,
    seat_labels,
    setup,
)
from companion.games.mrjack.state import (
    ANSWERS,
    CHARACTERS,
    DETECTIVE,
    JACK,
    LAST_TURN,
    NAME,
    ROLES,
    TITLE,
    is_over,
)
from companion.games.mrjack.summary import ENDING_WORDS, result
from companion.games.mrjack.views import view

# The game protocol (companion/games/base.py) and the vocabulary callers read.
__all__ = [
    "ACTION_TYPES", "ANSWERS", "BASE_CHARACTERS", "CHARACTERS", "DEFAULT_PLAYERS",
    "DETECTIVE", "ENDING_WORDS", "EVEN_ORDER", "FIXED_SEATS", "JACK", "LAST_TURN",
    "LONDON_ADDITIONAL", "LONDON_BASIC", "MAX_PLAYERS", "MIN_PLAYERS", "NAME", "ODD_ORDER",
    "OPTION_WORDS", "ROLES", "TITLE", "actions", "apply", "check_state", "default_options",
    "form_from", "is_over", "parse_options", "result", "seat_labels", "setup", "view",
]
