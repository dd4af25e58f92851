"""Joining a table and the private phone page of a seat."""

from __future__ import annotations

from flask import Blueprint, Response, abort, current_app, redirect, request, url_for

from companion import tables
from companion.db import get_db
from companion.web import render
from companion.web.context import (
    current_seat,
    form_action,
    game_of,
    in_seat_words,
    load,
    load_head,
    rng,
    seat_cookie,
    seat_field,
    seat_words,
    seen_version,
    set_private_cookie,
)
from companion.web.page_cache import cached_page
from companion.web.pages import NO_SEAT, change
from companion.words import _

bp = Blueprint("seat", __name__)


def _join_page(table: dict, game, status: int = 200, error: str | None = None,
               name: str = "") -> Response:
    seats = seat_words(tables.get_seats(get_db(), table["id"]), game, table["options"])
    if error and table["status"] != "closed" and all(seat["claimed"] for seat in seats):
        # "Pick another seat" would send the phone round in circles: the page says
        # every seat is taken and how to get back in.
        error = _("Every seat was taken just now.")
    error = in_seat_words(error, seats)
    return render("seat/join.html", "seat/_join.html", status=status,
                  table=table, game=game, seats=seats, error=error, name=name)


@bp.get("/j/<code>")
def join(code: str) -> Response:
    """Where the QR code leads: back to your seat if you have one, else pick a seat."""
    table, game = load(code)
    if current_seat(table) is not None:
        return redirect(url_for("seat.phone", code=table["code"]), code=303)
    return _join_page(table, game)


@bp.post("/j/<code>")
def claim(code: str) -> Response:
    table, game = load(code)
    name = request.form.get("name", "")
    position = seat_field()
    if position is None:
        return _join_page(table, game, 422, _("Please pick a seat."), name)
    try:
        version, token = tables.claim_seat(get_db(), table["id"], position, name, game)
    except tables.TableError as error:
        return _join_page(table, game, error.status, error.message, name)
    current_app.extensions["broadcaster"].publish(table["id"], version)
    return set_private_cookie(redirect(url_for("seat.phone", code=table["code"]), code=303),
                              seat_cookie(table["code"]), token)


@bp.get("/r/<token>")
def rejoin(token: str) -> Response:
    """A private link (bookmark or the host's re-join QR): back into the seat."""
    found = tables.table_for_seat_token(get_db(), token)
    if found is None:
        abort(404, _("This seat link is not valid any more. Ask the host for a new one."))
    table, _position = found
    return set_private_cookie(redirect(url_for("seat.phone", code=table["code"]), code=303),
                              seat_cookie(table["code"]), token)


@bp.get("/t/<code>/me")
def phone(code: str) -> Response:
    table = load_head(code)
    seat = current_seat(table)
    if seat is None:
        if request.cookies.get(seat_cookie(table["code"])):
            abort(404, _("This phone's seat link was replaced by the host. "
                         "Ask the host for your new link, or join again."))
        return redirect(url_for("seat.join", code=table["code"]), code=303)
    return cached_page(table, seat["position"], seat)


@bp.post("/t/<code>/me/act")
def act(code: str) -> Response:
    """A seat's game action. The table and the seat are read once here (the table without
    its state); ``tables.act`` reads the table again inside its transaction, and only a
    refusal draws a page."""
    table = load_head(code)
    seat = current_seat(table)
    if seat is None:
        abort(404, NO_SEAT)
    return change(lambda sent: tables.act(get_db(), game_of(table), table["id"],
                                          seen_version(), seat["position"], form_action(),
                                          rng(), sent=sent),
                  table, seat, url_for("seat.phone", code=table["code"]), on_phone=True,
                  private=True)
