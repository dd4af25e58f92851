"""London 1888: the secret identities, the event deck, questioning and tournament points.

The game's surface for the registry and the platform (``companion/games/base.py``) is
gathered here from its modules, each of one job:

- ``rules``: the game itself (rounds and turns, questioning, the Black Market, arrests,
  releases, deaths, the outcome proposed then confirmed), ``apply`` and ``actions``;
- ``game_setup``: the setup form (options, the deck's names) and the deal (rulebook
  "Game Setup");
- ``state``: the game's vocabulary (characters, identity cards, the event deck, prison,
  the results) and what is read from a state (whose turn, Jack discovered or caught);
  every other module reads the state through it, and it imports none of them;
- ``views``: what the table screen and each phone see, in each reader's words;
- ``reveal``: the turning points the end turns over (``base.reveal_view``);
- ``checks``: an imported state checked (``check_state``);
- ``scoring``: the confirmed outcome and the tournament points (``outcome_summary``,
  ``tournament_points``: the stable interface for tournaments);
- ``undo``: the words of an undo (the platform's undo notice);
- ``summary``: a finished game as the club's history keeps it (``result``).

Pure like every game: nothing here imports Flask, SQL or the platform.
"""

from __future__ import annotations

from companion.games.london1888.checks import check_state
from companion.games.london1888.game_setup import (
    default_options,
    form_from,
    parse_options,
    seat_labels,
    setup,
)
from companion.games.london1888.rules import ACTIONS, TURN_ACTIONS, actions, apply
from companion.games.london1888.scoring import outcome_summary, tournament_points
from companion.games.london1888.state import (
    ARRESTS,
    BOX,
    CARD_NAMES,
    CHARACTER_MODES,
    CHARACTERS,
    CORE_CHARACTERS,
    DEAL_PER_PLAYER,
    DECK_FIELDS,
    DEFAULT_EVENT_CARDS,
    DEFAULT_MURDER_CARDS,
    DEFAULT_PLAYERS,
    DEFAULT_UNDISCOVERED_LATE_MURDER,
    EXTRA_CHARACTERS,
    FIFTH_MURDER,
    FIFTH_MURDER_EARLIEST,
    FIFTH_MURDER_LATEST,
    FIXED_SEATS,
    INNOCENTS,
    JACK,
    MAX_PLAYERS,
    MIN_PLAYERS,
    MURDERS_TO_END,
    NAME,
    OPTION_WORDS,
    RESULTS,
    TITLE,
    fifth_murder_round,
    is_over,
)
from companion.games.london1888.summary import ENDING_WORDS, ENDINGS, result
from companion.games.london1888.undo import undone_words
from companion.games.london1888.views import view

__all__ = [
    "NAME", "TITLE", "MIN_PLAYERS", "MAX_PLAYERS", "DEFAULT_PLAYERS", "FIXED_SEATS",
    "DECK_FIELDS", "OPTION_WORDS", "CHARACTERS", "CORE_CHARACTERS", "EXTRA_CHARACTERS",
    "CHARACTER_MODES", "JACK", "BOX", "CARD_NAMES", "DEAL_PER_PLAYER", "DEFAULT_EVENT_CARDS",
    "DEFAULT_MURDER_CARDS", "ARRESTS", "MURDERS_TO_END", "RESULTS", "INNOCENTS",
    "FIFTH_MURDER", "FIFTH_MURDER_EARLIEST", "FIFTH_MURDER_LATEST",
    "DEFAULT_UNDISCOVERED_LATE_MURDER", "is_over", "fifth_murder_round",
    "seat_labels", "default_options", "parse_options", "form_from", "setup",
    "apply", "actions", "ACTIONS", "TURN_ACTIONS",
    "view",
    "check_state",
    "outcome_summary", "tournament_points",
    "undone_words",
    "result", "ENDINGS", "ENDING_WORDS",
]
