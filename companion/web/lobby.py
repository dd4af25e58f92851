"""The lobby: create a table for a game, join one by its code, import a backup."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Blueprint, Response, abort, current_app, redirect, request, url_for

from companion import decks, importing, tables
from companion.db import get_db
from companion.games.base import Game, RuleError, int_or_none, parse_int
from companion.net import is_this_laptop
from companion.web import render
from companion.web.boards import default_board, with_board
from companion.web.context import host_cookie, set_private_cookie
from companion.web.i18n import in_english, in_reader_words
from companion.web.limits import creation_refused
from companion.web.pages import pages_draw
from companion.words import Text, _

bp = Blueprint("lobby", __name__)


def _games() -> dict[str, Game]:
    return current_app.config["GAMES"]


def _lobby(status: int = 200, error: str | None = None, code: str = "") -> Response:
    return render("lobby/index.html", "lobby/_index.html", status=status, games=_games(),
                  open_tables=tables.open_tables(get_db()), error=error, code=code)


@bp.get("/")
def index() -> Response:
    return _lobby()


@bp.get("/favicon.ico")
def favicon() -> Response:
    """Where browsers look for an icon when a page names none (a JSON export, say)."""
    return redirect(url_for("static", filename="icon.svg"), code=301)


@bp.get("/join")
def join() -> Response:
    """The join-by-code form (for a phone that cannot scan)."""
    code = tables.normalise_code(request.args.get("code", ""))
    if not code:
        return _lobby(422, _("Please type the code shown on the table screen."))
    if tables.get_table(get_db(), code) is None:
        return _lobby(404, _("There is no table with the code “%(code)s”. "
                             "Check the table screen.", code=code[:8]), code)
    return redirect(url_for("seat.join", code=code), code=303)


def _game(name: str) -> Game:
    game = _games().get(name)
    if game is None:
        abort(404, _("This laptop does not have that game."))
    return game


def _new_page(game: Game, form: dict[str, str], count: int, status: int = 200,
              error: str | None = None, kept: Text | None = None,
              base: bool = False) -> Response:
    """The setup form, filled from ``form``: the remembered options (``kept``: those
    that are not the base game's, in words), the base game's (``base``), or what the
    player just typed when it was refused (nothing typed is lost)."""
    named = decks.has_deck(game) and decks.named(get_db(), game.NAME) is not None
    form = decks.form_with(get_db(), game, form)
    return render("lobby/new.html", "lobby/_new.html", status=status, game=game,
                  form=in_reader_words(game, form, form), count=count, error=error,
                  has_deck=decks.has_deck(game), deck_named=named, kept=kept, base=base)


def kept_options(game: Game, remembered: Mapping[str, Any] | None) -> list[Text]:
    """In words, the options of the last table of ``game`` that differ from the base game
    (its defaults): a form that starts from them must say so (a group expecting the base
    game would otherwise get the London extension's draft). The card names are the
    laptop's deck, said on their own (``decks``), never counted here."""
    if remembered is None:
        return []
    words: dict[str, Text] = dict(getattr(game, "OPTION_WORDS", {}))
    kept_form, base = game.form_from(remembered), game.form_from(game.default_options())
    if "board" in words:
        # A form without a board shows the shipped one (games/whitechapel/_options.html).
        for form in (kept_form, base):
            form.setdefault("board", default_board())
    deck = set(getattr(game, "DECK_FIELDS", ()))
    order = list(words)

    def word_for(field: str) -> tuple[int, Text]:
        for index, key in enumerate(order):
            if field == key or (key.endswith("_") and field.startswith(key)):
                return index, words[key]
        return len(order), _("other options")

    found: dict[str, tuple[int, Text]] = {}
    for field in sorted(set(kept_form) | set(base)):
        value, default = kept_form.get(field, ""), base.get(field, "")
        if field in deck or value == default:
            continue
        index, word = word_for(field)
        said = (word if index == len(order) else
                _("%(option)s: on", option=word) if value == "on" else
                _("%(option)s: off", option=word) if default == "on" else word)
        found.setdefault(str(said), (index, said))
    return [said for _index, said in sorted(found.values(), key=lambda pair: pair[0])]


def _listed(items: list[Text]) -> Text:
    """Items side by side, each in the reader's language."""
    return Text(", ".join(f"%(s{i})s" for i in range(len(items))),
                params={f"s{i}": item for i, item in enumerate(items)})


@bp.get("/new/<name>")
def new(name: str) -> Response:
    """The setup form, from the last table's options (said in words, the base game one
    tap away), or from the defaults with ``?base=1``."""
    game = _game(name)
    base = request.args.get("base") == "1"
    remembered = None if base else tables.remembered_options(get_db(), game.NAME)
    kept = kept_options(game, remembered)
    return _new_page(game, game.form_from(remembered or game.default_options()),
                     game.DEFAULT_PLAYERS, kept=_listed(kept) if kept else None,
                     base=base)


@bp.post("/new/<name>")
def create(name: str) -> Response:
    game = _game(name)
    typed = {key: value for key, value in request.form.items() if key != "csrf"}
    typed = in_english(game, typed, list(typed))
    try:
        count = parse_int(request.form.get("players"), game.MIN_PLAYERS, game.MAX_PLAYERS,
                          _("number of players"))
        options = with_board(game.parse_options(
            decks.form_with(get_db(), game, typed), count))
    except RuleError as error:
        count = int_or_none(typed.get("players"), game.MIN_PLAYERS,
                            game.MAX_PLAYERS) or game.DEFAULT_PLAYERS
        return _new_page(game, typed, count, 422, error.message)
    refused = creation_refused()
    if refused:
        return _new_page(game, typed, count, 429, refused)
    try:
        table, host_token = tables.create_table(get_db(), game, options, count)
    except tables.TableError as error:
        return _new_page(game, typed, count, error.status, error.message)
    return _enter_as_host(table["code"], host_token)


def _enter_as_host(code: str, host_token: str) -> Response:
    """To the table screen, this browser now holding the table's host token."""
    return set_private_cookie(redirect(url_for("table.screen", code=code), code=303),
                              host_cookie(code), host_token)


@bp.get("/h/<token>")
def host_link(token: str) -> Response:
    """The host's private link (printed by `companion import`)."""
    table = tables.table_for_host_token(get_db(), token)
    if table is None:
        abort(404, _("This host link is not valid."))
    return _enter_as_host(table["code"], token)


@bp.post("/import")
def import_table() -> Response:
    upload = request.files.get("file")
    if upload is None or not upload.filename:
        return _lobby(422, _("Please choose an exported table file (.json)."))
    try:
        data = importing.read(upload.read())
        refused = creation_refused()
        if refused:
            return _lobby(429, refused)
        export = importing.check(data, _games())
    except importing.BadExport as error:
        return _lobby(422, error.message)
    try:
        # A phone's file may bring a table back to play; only the laptop adds its games
        # to the club's history (docs/RULINGS.md#general, "The club's history is the
        # laptop's").
        table, host_token = importing.import_table(get_db(), export, accept=pages_draw,
                                                by_laptop=is_this_laptop(request.remote_addr))
    except tables.TableError as error:
        return _lobby(error.status, error.message)
    return _enter_as_host(table["code"], host_token)

