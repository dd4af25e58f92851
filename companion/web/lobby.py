"""The lobby: create a table for a game, join one by its code, import a backup."""

from __future__ import annotations

from flask import Blueprint, Response, abort, current_app, redirect, request, url_for

from companion import decks, importing, tables
from companion.db import get_db
from companion.games.base import Game, RuleError, int_or_none, parse_int
from companion.net import is_this_laptop
from companion.web import render
from companion.web.boards import with_board
from companion.web.context import host_cookie, set_private_cookie
from companion.web.i18n import in_english, in_reader_words
from companion.web.limits import creation_refused
from companion.web.pages import pages_draw
from companion.words import _

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
              error: str | None = None) -> Response:
    """The setup form, filled from ``form``: the remembered options, or what the
    player just typed when it was refused (nothing typed is lost)."""
    named = decks.has_deck(game) and decks.named(get_db(), game.NAME) is not None
    form = decks.form_with(get_db(), game, form)
    return render("lobby/new.html", "lobby/_new.html", status=status, game=game,
                  form=in_reader_words(game, form, form), count=count, error=error,
                  has_deck=decks.has_deck(game), deck_named=named)


@bp.get("/new/<name>")
def new(name: str) -> Response:
    game = _game(name)
    remembered = tables.remembered_options(get_db(), game.NAME)
    return _new_page(game, game.form_from(remembered or game.default_options()),
                     game.DEFAULT_PLAYERS)


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
        table, host_token = tables.import_table(get_db(), export, accept=pages_draw,
                                                by_laptop=is_this_laptop(request.remote_addr))
    except tables.TableError as error:
        return _lobby(error.status, error.message)
    return _enter_as_host(table["code"], host_token)

