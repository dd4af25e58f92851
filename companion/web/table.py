"""The table screen (public, on the laptop) and the host's controls."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, abort, current_app, url_for
from sqlite_utils import Database

from companion import importing, tables
from companion.db import get_db
from companion.games.base import TABLE, Game
from companion.net import qr_svg
from companion.web import render, signed
from companion.web.context import (
    base_url,
    current_seat,
    form_action,
    game_of,
    is_host,
    is_host_home,
    load,
    load_head,
    resend_key,
    rng,
    seat_field,
    seat_words,
    seen_version,
)
from companion.web.page_cache import cached_page, page_cache
from companion.web.pages import change, refused
from companion.words import _

bp = Blueprint("table", __name__, url_prefix="/t/<code>")


@bp.get("")
def screen(code: str) -> Response:
    head = load_head(code)
    return cached_page(head, TABLE, current_seat(head))


def _host_only(code: str) -> tuple[dict[str, Any], Game, dict[str, Any] | None, bool]:
    """The table (without its state), its game, the device's seat and whether the host
    acts from their phone (else from the table screen); anyone but the host is turned
    away (403)."""
    table = load_head(code)
    seat = current_seat(table)
    if not is_host(table, seat):
        abort(403, _("Only the host can do that."))
    on_phone = seat is not None and table["host_seat"] == seat["position"]
    return table, game_of(table), seat, on_phone


def _host_page(table: dict[str, Any], on_phone: bool) -> str:
    """The page the host acts from, where a control leads back to."""
    return url_for("seat.phone" if on_phone else "table.screen", code=table["code"])


Run = Callable[[Database, Game, dict[str, Any], "str | None"], int]
"""A host control's change of the table, given the database, the game, the table and the
form's key to store with it (companion/web/pages.py ``change``); the new version."""


def _host_change(code: str, run: Run) -> Response:
    """A host control: one change, then back to the page the host used."""
    table, game, seat, on_phone = _host_only(code)
    return change(lambda sent: run(get_db(), game, table, sent), table, seat,
                  _host_page(table, on_phone), on_phone)


def _position() -> int:
    position = seat_field()
    if position is None:
        abort(400, _("Please choose a seat."))
    return position


@bp.post("/act")
def act(code: str) -> Response:
    """A game action made at the table screen (by the host)."""
    return _host_change(code, lambda db, game, table, sent: tables.act(
        db, game, table["id"], seen_version(), TABLE, form_action(), rng(), sent=sent))


@bp.post("/start")
def start(code: str) -> Response:
    return _host_change(code, lambda db, game, table, sent: tables.start_game(
        db, game, table["id"], seen_version(), rng(), sent=sent))


@bp.post("/undo")
def undo(code: str) -> Response:
    return _host_change(code, lambda db, game, table, sent: tables.undo(
        db, table["id"], seen_version(), sent=sent, game=game))


@bp.post("/hand-host")
def hand_host(code: str) -> Response:
    return _host_change(code, lambda db, game, table, sent: tables.hand_host(
        db, table["id"], seen_version(), _position(), sent=sent, game=game))


@bp.post("/take-host")
def take_host(code: str) -> Response:
    """The laptop that created the table takes the host controls back from the seat it
    handed them to (that phone may be lost): never refused to that laptop."""
    table = load_head(code)
    if not is_host_home(table):
        abort(403, _("Only the laptop that created the table can take the host controls back."))
    return change(lambda sent: tables.take_host_back(get_db(), table["id"], seen_version(),
                                                     sent=sent),
                  table, current_seat(table), url_for("table.screen", code=table["code"]),
                  on_phone=False)


@bp.post("/remove-seat")
def remove_seat(code: str) -> Response:
    return _host_change(code, lambda db, game, table, sent: tables.remove_seat(
        db, game, table["id"], seen_version(), _position(), sent=sent))


@bp.post("/close")
def close(code: str) -> Response:
    def run(db: Database, _game: Game, table: dict[str, Any], sent: str | None) -> int:
        version = tables.close_table(db, table["id"], seen_version(), sent=sent)
        # Nobody plays on an ended table: the pages kept for it go now.
        page_cache().forget(table["id"])
        return version
    return _host_change(code, run)


def _rejoin_token(sent: str | None) -> str | None:
    """The token of the link a re-join form makes: the whole form as sent (its key, the
    seat and the version it saw, ``resend_key``) signed with the app's secret, so that the
    same form sent again (its answer lost with the connection) shows the same link, and
    every new link is a new token (it is made at a version no earlier link was made at,
    each link making a new one); random for a form without a key."""
    return None if sent is None else signed("rejoin " + sent)


@bp.post("/rejoin")
def rejoin(code: str) -> Response:
    """A fresh private link for a seat whose phone was lost, shown once to the host."""
    table, game, seat, on_phone = _host_only(code)
    position = _position()
    sent = resend_key()
    try:
        token, version = tables.replace_seat_token(get_db(), table["id"], seen_version(),
                                                   position, _rejoin_token(sent), sent,
                                                   game=game)
    except tables.TableError as error:
        return refused(table["code"], seat, on_phone, error.message, error.status)
    # Every page says so, and the phone that held the seat learns at once it lost it.
    current_app.extensions["broadcaster"].publish(table["id"], version)
    link = base_url() + url_for("seat.rejoin", token=token)
    seats = seat_words(tables.get_seats(get_db(), table["id"]), game, table["options"])
    label = next(s for s in seats if s["position"] == position)
    return render("table/rejoin.html", "table/_rejoin.html", table=table, seat=label,
                  link=link, link_qr=qr_svg(link), back=_host_page(table, on_phone))


@bp.get("/export")
def export(code: str) -> Response:
    """The table as a JSON file, when it holds no secret anyone could still use."""
    table, game = load(code)
    if not is_host(table, current_seat(table)):
        abort(403, _("Only the host can export the table."))
    if table["state"] is not None and not game.is_over(table["state"]):
        abort(403, _("A game in progress holds secrets: export it after the game, or from "
                     "the laptop's terminal with: companion export %(code)s",
                     code=table["code"]))
    data = importing.export_text(importing.export_table(get_db(), table["id"]))
    return Response(data, mimetype="application/json", headers={
        "Content-Disposition": f"attachment; filename=table-{table['code']}.json"})
