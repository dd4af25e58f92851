"""The laptop's decks: a game's card names typed once, for every later table
(``companion.decks``). Only the laptop running the companion names them: a phone at the
table never changes what every later table shows."""

from __future__ import annotations

from flask import Blueprint, Response, abort, current_app, redirect, request, url_for

from companion import decks
from companion.db import get_db
from companion.games.base import Game, RuleError
from companion.net import is_this_laptop
from companion.web import render
from companion.web.i18n import in_english, in_reader_words
from companion.words import _

bp = Blueprint("decks", __name__)

ONLY_THE_LAPTOP = _("The card names are typed on the laptop running the companion, for "
                     "every table it sets up: open this page there.")


def _games_with_decks() -> list[Game]:
    return [game for game in current_app.config["GAMES"].values() if decks.has_deck(game)]


def _laptop_only() -> None:
    if not is_this_laptop(request.remote_addr):
        abort(403, ONLY_THE_LAPTOP)


def _game(name: str) -> Game:
    game = current_app.config["GAMES"].get(name)
    if game is None or not decks.has_deck(game):
        abort(404, _("This laptop has no deck of cards to name for that game."))
    return game


@bp.get("/decks")
def index() -> Response:
    _laptop_only()
    db = get_db()
    return render("decks/index.html", "decks/_index.html",
                  games=[{"game": game, "named": decks.named(db, game.NAME) is not None}
                         for game in _games_with_decks()])


def _page(game: Game, form: dict[str, str], status: int = 200, error: str | None = None,
          saved: bool = False) -> Response:
    return render("decks/deck.html", "decks/_deck.html", status=status, game=game,
                  form=in_reader_words(game, form, game.DECK_FIELDS), error=error,
                  saved=saved,
                  named=decks.named(get_db(), game.NAME) is not None)


@bp.get("/decks/<name>")
def deck(name: str) -> Response:
    _laptop_only()
    game = _game(name)
    return _page(game, decks.fields(get_db(), game), saved=request.args.get("saved") == "1")


@bp.post("/decks/<name>")
def save(name: str) -> Response:
    """Keep the names typed, or show them again with the reason (nothing typed is lost,
    nothing kept)."""
    _laptop_only()
    game = _game(name)
    typed = {field: request.form.get(field, "") for field in game.DECK_FIELDS}
    try:
        decks.save(get_db(), game, in_english(game, typed, game.DECK_FIELDS))
    except RuleError as error:
        # A list far too long is not sent back to the browser: the saved one is shown.
        kept = decks.fields(get_db(), game)
        shown = {field: text if len(text) <= decks.TEXT_MAX else kept[field]
                 for field, text in typed.items()}
        return _page(game, shown, 422, error.message)
    return redirect(url_for("decks.deck", name=game.NAME, saved="1"), code=303)
