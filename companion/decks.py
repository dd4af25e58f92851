"""The laptop's decks: a game's card names (Wo ist Jack the Ripper's 12 stories with
their values, London 1888's event and murder cards), typed once on the laptop and used
for every later table of that game.

A game names the fields of its setup form that hold card names (``DECK_FIELDS``); a
deck is those fields' text, checked by the game's own ``parse_options`` and kept as
``form_from`` writes it back. Until a deck is named the game's defaults stand, names
that say how to find each card. Functions take ``db``; ``check`` is pure (an import
checks a file's deck with it before anything is written).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from companion.db import Database, write_transaction
from companion.games.base import Game, RuleError
from companion.words import _

TEXT_MAX = 16 * 1024
"""A deck field's text at most: 20 names of 60 characters and their values fit many
times over; a pasted novel is refused before any name is read."""


def has_deck(game: Game) -> bool:
    return bool(getattr(game, "DECK_FIELDS", ()))


def defaults(game: Game) -> dict[str, str]:
    """The game's deck fields as its default options write them."""
    form = game.form_from(game.default_options())
    return {field: form[field] for field in game.DECK_FIELDS}


def check(game: Game, fields: Mapping[str, Any]) -> dict[str, str]:
    """The deck fields of ``fields`` checked by the game and written as it writes them
    back; RuleError with the player's sentence otherwise. A missing field is the
    default's."""
    given = {**defaults(game)}
    for field in game.DECK_FIELDS:
        value = fields.get(field, given[field])
        if not isinstance(value, str):
            raise RuleError(_("The card names must be text, one name per line."))
        if len(value) > TEXT_MAX:
            raise RuleError(_("That is far more text than any deck needs (at most "
                              "%(size)s KB a list): type one card name per line.",
                              size=TEXT_MAX // 1024))
        given[field] = value
    written = game.form_from(_parse(game, {**game.form_from(game.default_options()),
                                          **given}))
    return {field: written[field] for field in game.DECK_FIELDS}


def _parse(game: Game, form: Mapping[str, str]) -> dict[str, Any]:
    # With every seat: a deck does not depend on the number of players, and every seat's
    # choice the form holds is kept.
    return game.parse_options(form, game.MAX_PLAYERS)


def named(db: Database, name: str) -> dict[str, str] | None:
    """This laptop's deck of the game ``name``, or None while it has not been named."""
    row = next(iter(db.query("SELECT fields FROM decks WHERE game = ?", [name])), None)
    return json.loads(row["fields"]) if row else None


def fields(db: Database, game: Game) -> dict[str, str]:
    """The deck fields a new table of ``game`` is set up with: the named deck, else the
    defaults."""
    return named(db, game.NAME) or defaults(game)


def form_with(db: Database, game: Game, form: Mapping[str, str]) -> dict[str, str]:
    """A setup form with this laptop's card names in place of whatever it held: a new
    table takes the laptop's deck, never names posted with the form."""
    return {**form, **fields(db, game)} if has_deck(game) else dict(form)


def options_with(db: Database, game: Game, options: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` with this laptop's card names (a tournament's tables, say)."""
    if not has_deck(game):
        return dict(options)
    return _parse(game, form_with(db, game, game.form_from(options)))


def save(db: Database, game: Game, given: Mapping[str, Any]) -> dict[str, str]:
    """Check and keep the deck of ``game`` (RuleError, nothing kept, when refused)."""
    checked = check(game, given)
    with write_transaction(db):
        _write(db, game, checked)
    return checked


def _write(db: Database, game: Game, checked: Mapping[str, str]) -> None:
    db.execute("INSERT INTO decks (game, fields) VALUES (?, ?) "
               "ON CONFLICT (game) DO UPDATE SET fields = excluded.fields",
               [game.NAME, json.dumps(dict(checked), sort_keys=True)])


def learn(db: Database, game: Game, played: Mapping[str, Any],
          learnt: Mapping[str, Any]) -> None:
    """What a table learnt in play (a story's value typed at its first print) joins the
    laptop's deck, when the table was set up with the deck as it stands: no later table
    asks for it again. A deck renamed meanwhile is left as it is."""
    if not has_deck(game):
        return
    before, after = game.form_from(played), game.form_from(learnt)
    deck = {field: before[field] for field in game.DECK_FIELDS}
    if deck == fields(db, game) and deck != {field: after[field] for field in game.DECK_FIELDS}:
        _write(db, game, check(game, after))


def adopt(db: Database, game: Game, checked: Mapping[str, str]) -> bool:
    """An imported table's deck (already ``check``-ed) becomes this laptop's only while
    this laptop has not named its own: a table from another laptop never overwrites
    what was typed here. Called inside the import's transaction."""
    if named(db, game.NAME) is not None:
        return False
    _write(db, game, checked)
    return True
