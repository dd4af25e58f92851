"""Joining a table and the private phone page of a seat."""

from __future__ import annotations

from flask import Blueprint, Response, abort, current_app, redirect, request, url_for

from companion import tables
from companion.db import get_db
from companion.web import render
from companion.web.context import (
    COOKIE_AGE,
    change,
    current_seat,
    form_action,
    is_host,
    load,
    load_head,
    page_context,
    render_phone,
    rng,
    seat_cookie,
    seat_field,
    seen_version,
)
from companion.web.drawn import drawn

bp = Blueprint("seat", __name__)


def _join_page(table: dict, game, status: int = 200, error: str | None = None,
               name: str = "") -> Response:
    seats = tables.get_seats(get_db(), table["id"])
    if error and table["status"] != "closed" and all(seat["claimed"] for seat in seats):
        # "Pick another seat" would send the phone round in circles: the page says
        # every seat is taken and how to get back in.
        error = "Every seat was taken just now."
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
        return _join_page(table, game, 422, "Please pick a seat.", name)
    try:
        version, token = tables.claim_seat(get_db(), table["id"], position, name)
    except tables.TableError as error:
        return _join_page(table, game, error.status, error.message, name)
    current_app.extensions["broadcaster"].publish(table["id"], version)
    response = redirect(url_for("seat.phone", code=table["code"]), code=303)
    _set_seat_cookie(response, table["code"], token)
    return response


def _set_seat_cookie(response: Response, code: str, token: str) -> None:
    response.set_cookie(seat_cookie(code), token, max_age=COOKIE_AGE, httponly=True,
                        samesite="Lax", path="/")


@bp.get("/r/<token>")
def rejoin(token: str) -> Response:
    """A private link (bookmark or the host's re-join QR): back into the seat."""
    found = tables.table_for_seat_token(get_db(), token)
    if found is None:
        abort(404, "This seat link is not valid any more. Ask the host for a new one.")
    table, _position = found
    response = redirect(url_for("seat.phone", code=table["code"]), code=303)
    _set_seat_cookie(response, table["code"], token)
    return response


def _phone_context(code: str, error: str | None = None, by_rules: bool = False):
    table, game = load(code)
    seat = current_seat(table)
    if seat is None:
        return table, game, None, None
    context = page_context(table, game, seat["position"], seat, is_host(table, seat),
                           error=error)
    # The rules' reason may name this seat's secrets (Jack's circle, a card in hand):
    # where the game says so, the top of the page must not show it (docs/RULINGS.md#general,
    # "At a glance").
    context["error_private"] = by_rules and bool((context["view"] or {}).get("private_refusals"))
    return table, game, seat, context


@bp.get("/t/<code>/me")
def phone(code: str) -> Response:
    table = load_head(code)
    seat = current_seat(table)
    if seat is None:
        if request.cookies.get(seat_cookie(table["code"])):
            abort(404, "This phone's seat link was replaced by the host. "
                       "Ask the host for your new link, or join again.")
        return redirect(url_for("seat.join", code=table["code"]), code=303)
    return drawn(table, seat["position"], seat)


@bp.post("/t/<code>/me/act")
def act(code: str) -> Response:
    table, game = load(code)
    seat = current_seat(table)
    if seat is None:
        abort(404, "You do not have a seat at this table (or your link was replaced). "
                   "Join again from the table's QR code.")

    def failure(message: str, status: int) -> Response:
        _t, _g, _s, context = _phone_context(code, error=message, by_rules=status == 422)
        return render_phone(context, status)

    return change(lambda: tables.act(get_db(), game, table["id"], seen_version(),
                                     seat["position"], form_action(), rng()),
                  table, url_for("seat.phone", code=table["code"]), failure)
