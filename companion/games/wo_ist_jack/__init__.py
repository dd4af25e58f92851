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

This package is the game the registry finds (companion/games/base.py's protocol), each
module one job:

- ``state``: the vocabulary (the cards, their glosses, the points' range, the print
  window) and what is read from a state; it imports no other module of the game.
- ``score``: the End of the Game's final score.
- ``rules``: the setup form, Set-up, the moves and Action cards (``apply``), what each
  reporter may do now (``actions``) and which answers to a print commute.
- ``views``: what each reporter and the table screen see, their sentences, and the
  reveal.
- ``summary``: a finished game for the club's history (``result``).
- ``checks``: an imported state checked (``check_state``).

Pure like every game: nothing here imports Flask, SQL or the platform.
"""

from __future__ import annotations

from companion.games.wo_ist_jack.checks import check_state
from companion.games.wo_ist_jack.rules import (
    DECK_FIELDS,
    DEFAULT_PLAYERS,
    FIXED_SEATS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    REMOVED_STORIES,
    U_HAFT_COPIES,
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
    is_over,
)
from companion.games.wo_ist_jack.summary import ENDING_WORDS, result
from companion.games.wo_ist_jack.views import view

# The game protocol (companion/games/base.py) and the vocabulary callers read.
__all__ = [
    "ACTION_CARDS", "AMERIKA", "ANNIE", "DECK_FIELDS", "DEFAULT_PLAYERS", "DEFAULT_STORIES",
    "DRUCKMASCHINE", "ENDING_WORDS", "ENGLISH_GLOSSES", "FIXED_SEATS", "GLOSSES",
    "MAX_PLAYERS", "MAX_STORY_POINTS", "MIN_PLAYERS", "MIN_STORY_POINTS", "MORDSERIE", "NAME",
    "POLIZEI", "PRINT_WINDOW_SECONDS", "REMOVED_STORIES", "REPORTERTEAM", "REPORTER_IN_U_HAFT",
    "RULEBOOK_STORIES", "TITLE", "U_HAFT_COPIES", "actions", "apply", "check_state",
    "commutes", "default_options", "form_from", "is_over", "options_for_next_game",
    "parse_options", "result", "score", "seat_labels", "setup", "view",
]
