"""The thin web layer: blueprints, and what every request shares (CSRF, headers,
friendly errors, gzip, full page or htmx component)."""

from __future__ import annotations

import gzip
import hmac
import logging
import secrets
import traceback
from pathlib import Path
from typing import Any

from flask import Flask, Response, abort, current_app, render_template, request, session
from werkzeug.exceptions import HTTPException

from companion.db import file_watch
from companion.db.watch import DatabaseUnavailable
from companion.words import _

log = logging.getLogger("companion")

# media-src blob: the keep-awake video plays from the copy the page fetched (static/app/awake.js).
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "media-src 'self' blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
       "form-action 'self'; frame-ancestors 'none'")
SECURITY_HEADERS = {"Content-Security-Policy": CSP, "Referrer-Policy": "no-referrer",
                    "X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY"}
"""Every answer carries these: the app's through ``_secure``, those the server writes
itself (event streams, refusals) through companion/server/raw.py."""
COMPRESSIBLE = ("text/html", "text/css", "text/javascript", "application/javascript",
                "application/json", "image/svg+xml", "text/csv")

FRIENDLY = {
    400: (_("Something was missing"),
          _("That request was incomplete. Please go back and try again.")),
    403: (_("Not allowed"), _("You are not allowed to do that.")),
    404: (_("Not found"), _("There is nothing here. Check the table code or ask the host "
                            "for a new link.")),
    405: (_("Not like that"),
          _("That page cannot be used this way. Go back and use the buttons.")),
    410: (_("Table ended"), _("This table has ended.")),
    413: (_("Too big"), _("That was more than the laptop takes at once (a file too big, or "
                          "a form far bigger than any move needs). Nothing was changed.")),
    500: (_("Something went wrong"), _("The laptop hit a problem. Nothing was changed; "
                                       "please try again.")),
    503: (_("Nothing can be saved"), _(
        "The laptop can no longer save the game: its database file was deleted, replaced "
        "or made read-only while the companion was running. Nothing from now on is kept. "
        "Ask the host to look at the laptop's terminal.")),
}


def csrf_token() -> str:
    if "csrf" not in session:
        session["csrf"] = secrets.token_urlsafe(24)
        session.permanent = True
    return session["csrf"]


def form_key(*names: Any) -> str:
    """A form's key of its own (``action_form``, ``host_form`` in templates/_macros.html),
    from this device's session, the table's version and what the form posts to: the same
    form drawn again for this device has the same key (a kept page is byte for byte the
    page drawn afresh, companion/web/page_cache.py), any other form, device or version another.
    A form sent twice is so known for what it is (companion/web/pages.py ``change``)."""
    return signed("\x1f".join(map(str, (csrf_token(), *names))))[:32]


def signed(message: str) -> str:
    """``message`` signed with the app's secret (hex): what only this laptop can draw."""
    return hmac.new(str(current_app.secret_key).encode(), message.encode(),
                    "sha256").hexdigest()


def check_csrf() -> None:
    if request.method != "POST":
        return
    sent = request.form.get("csrf") or request.headers.get("X-CSRF-Token") or ""
    expected = session.get("csrf") or ""
    if not expected or not hmac.compare_digest(str(sent), str(expected)):
        abort(403, _("This page is out of date (its security check expired). "
                     "Reload the page and try again."))


def wants_component() -> bool:
    """An htmx swap wants just the component; history restores want full pages."""
    return bool(request.htmx) and not request.htmx.history_restore_request


def render(page: str, component: str, status: int = 200, **context: Any) -> Response:
    """A full page, or with HX-Request just its swappable component."""
    html = render_template(component if wants_component() else page, **context)
    return Response(html, status=status, mimetype="text/html")


def error_page(status: int, message: str | None = None) -> Response:
    title, default = FRIENDLY.get(status, FRIENDLY[500])
    return render("error.html", "_error.html", status=status, title=title,
                  message=message or default)


def _handle_http_error(error: HTTPException) -> Response:
    status = error.code or 500
    description = error.description if status in (403, 404, 410) and isinstance(
        error.description, str) and not error.description.startswith(
            ("The requested URL", "You don't have")) else None
    return error_page(status, description)


def check_database() -> None:
    """Every page first checks that the database is still the file the server opened
    (the stylesheet is still served, so the message is readable)."""
    if not request.path.startswith("/static/"):
        file_watch().check()


def _handle_database_unavailable(_error: DatabaseUnavailable) -> Response:
    # The terminal was told the file's path and what to do (companion.db.watch).
    return error_page(503)


def _handle_unexpected(error: Exception) -> Response:
    # Logged as the error's kind and where it happened, never its message, the URL or
    # the form: any of those could hold a seat token or a secret of the game.
    frames = traceback.extract_tb(error.__traceback__)
    where = " <- ".join(f"{Path(f.filename).name}:{f.lineno}" for f in reversed(frames[-4:]))
    log.error("unexpected %s at %s", error.__class__.__name__, where)
    return error_page(500)


def _secure(response: Response) -> Response:
    headers = response.headers
    headers.update(SECURITY_HEADERS)
    if response.mimetype in ("text/html", "application/json") and not request.path.startswith(
            "/static/"):
        # Private views must never come back from a cache or the back button.
        headers["Cache-Control"] = "no-store"
    headers.add("Vary", "HX-Request")
    return _compress(response)


def _compress(response: Response) -> Response:
    static = request.path.startswith("/static/")
    if ((response.is_streamed and not static) or not 200 <= response.status_code < 300
            or "gzip" not in request.headers.get("Accept-Encoding", "")
            or response.mimetype not in COMPRESSIBLE
            or "Content-Encoding" in response.headers):
        return response
    response.direct_passthrough = False
    data = response.get_data()
    if len(data) < 600:
        return response
    cache = current_app.extensions.setdefault("gzip_cache", {})
    key = request.path if static else None
    packed = cache.get(key) if key else None
    if packed is None:
        packed = gzip.compress(data, 6)
        if key:
            cache[key] = packed
    response.set_data(packed)
    response.headers["Content-Encoding"] = "gzip"
    response.headers["Content-Length"] = str(len(packed))
    response.headers.add("Vary", "Accept-Encoding")
    return response


def register(app: Flask) -> None:
    from companion.web import (
        boards,
        decks,
        history,
        i18n,
        live,
        lobby,
        replay,
        seat,
        table,
        tournament,
    )
    from companion.web.context import seconds_until

    i18n.init_app(app)
    boards.register(app)
    app.register_blueprint(decks.bp)
    app.register_blueprint(history.bp)
    app.register_blueprint(tournament.bp)
    app.register_blueprint(lobby.bp)
    app.register_blueprint(table.bp)
    app.register_blueprint(replay.bp)
    app.register_blueprint(seat.bp)
    app.register_blueprint(live.bp)
    app.before_request(check_database)
    app.before_request(check_csrf)
    app.after_request(_secure)
    app.register_error_handler(HTTPException, _handle_http_error)
    app.register_error_handler(DatabaseUnavailable, _handle_database_unavailable)
    app.register_error_handler(Exception, _handle_unexpected)
    app.jinja_env.globals["csrf_token"] = csrf_token
    app.jinja_env.globals["form_key"] = form_key
    app.jinja_env.globals["seconds_until"] = seconds_until
    app.jinja_env.globals["game_titles"] = lambda: {
        name: game.TITLE for name, game in app.config["GAMES"].items()}
