"""Drawing a table's pages: one viewer's page, the answer to a change (303, or the page
again with the refusal), and every page of an imported table."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Response, abort, current_app, redirect

from companion import tables
from companion.db import get_db
from companion.games.base import TABLE, Game, RuleError
from companion.net import public_qr_svg
from companion.web import render
from companion.web.context import is_host, load, page_context, resend_key
from companion.words import _


def render_screen(table_view: dict[str, Any], status: int = 200) -> Response:
    return render("table/screen.html", "table/_screen.html", status=status,
                  join_qr=public_qr_svg(table_view["join_url"]), **table_view)


def render_phone(phone_view: dict[str, Any], status: int = 200) -> Response:
    return render("seat/phone.html", "seat/_phone.html", status=status, **phone_view)


def page(table: dict[str, Any], game: Game, viewer: int | str, seat: dict[str, Any] | None,
         host: bool, status: int = 200, error: str | None = None,
         private: bool = False) -> Response:
    """The page of ``viewer`` (TABLE: the table screen, else that seat's phone) at
    ``table`` for the device whose seat is ``seat``, with ``error`` at its top; a
    ``private`` refusal (status 422) is kept behind "Why?" where the game asks."""
    context = page_context(table, game, viewer, seat, host, error=error)
    if viewer == TABLE:
        return render_screen(context, status)
    # The rules' reason may name this seat's secrets (Jack's circle, a card in hand):
    # where the game says so, the top of the page must not show it (docs/RULINGS.md#general,
    # "At a glance").
    context["error_private"] = private and status == 422 and bool(
        (context["view"] or {}).get("private_refusals"))
    return render_phone(context, status)


NO_SEAT = _("You do not have a seat at this table (or your link was replaced). "
            "Join again from the table's QR code.")


def refused(code: str, seat: dict[str, Any] | None, on_phone: bool, message: str,
            status: int, private: bool = False) -> Response:
    """The page the device acted from (its phone, or the table screen) with why, for
    ``seat``, the device's seat its route read. The table is read again, this time with
    its state, which the route did not read: as it is now (another change may have
    landed; this one did not)."""
    table, game = load(code)
    if on_phone and seat is None:
        abort(404, NO_SEAT)
    viewer = seat["position"] if on_phone and seat is not None else TABLE
    return page(table, game, viewer, seat, is_host(table, seat), status, message, private)


def change(run: Callable[[str | None], int], table: dict[str, Any],
           seat: dict[str, Any] | None, back: str, on_phone: bool,
           private: bool = False) -> Response:
    """Run one change of ``table`` (``run`` is given the form's ``resend_key`` to store
    with it and returns the new version) asked by the device whose seat is ``seat``; on
    success tell every device and go ``back`` (303), on a refusal answer with the page
    again and the reason, nothing changed. A form that
    already changed the table, sent again (its answer was lost with the connection), is
    answered as the first time: the same 303. ``private``: a rules refusal may hold the
    seat's secrets."""
    sent = resend_key()
    try:
        version = run(sent)
    except (RuleError, tables.TableError) as error:
        # Looked up only when refused: the resend finds the table moved on by itself.
        if tables.is_resend(get_db(), table["id"], sent):
            return redirect(back, code=303)
        if isinstance(error, RuleError):
            return refused(table["code"], seat, on_phone, error.message, 422, private)
        return refused(table["code"], seat, on_phone, error.message, error.status, private)
    current_app.extensions["broadcaster"].publish(table["id"], version)
    return redirect(back, code=303)


def pages_draw(table: dict[str, Any]) -> None:
    """An imported table is kept only if every page of it draws: the table screen (for
    the host and for anyone else) and every seat's phone. Called inside the import's
    transaction (the lobby's and ``companion import``'s), so a table that cannot be
    shown is never seen."""
    game = current_app.config["GAMES"][table["game"]]
    try:
        for host in (False, True):
            page(table, game, TABLE, None, host)
            for seat in tables.get_seats(get_db(), table["id"]):
                me = {key: seat[key] for key in ("position", "label", "name")}
                page(table, game, seat["position"], me, host)
    except Exception as error:  # noqa: BLE001 - whatever the file made a page trip on
        raise tables.TableError(_("This export file is damaged: its pages cannot be shown "
                                  "(%(error)s).", error=error.__class__.__name__),
                                422) from None
