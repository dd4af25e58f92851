"""A night replayed: ``/t/<code>/replay``, for a game that offers the optional replay
hook (``replay_nights``, ``replay_frames``: companion/games/base.py).

Every address is a whole page (``?night=N&step=K``), the frame alone on ``HX-Request``.
The platform knows nothing of the game: it lists the nights the game says may be
replayed, checks the step asked, and draws the game's ``_replay.html`` with the frame.
Before the end a frame holds only what the table screen showed at that step (the game's
promise), and nothing here is kept between requests: each answer is drawn from the
table's log as it is now. A table its host ended counts as over: the game is told so
(``table_ended``) and replays the night play stopped in too, as after the end.

Phones may follow the table screen: the host's screen tells where it is
(``POST /replay/cursor``, the host only), kept in a row of its own
(``tables.move_replay_cursor``) so that the table's version, and every action in
flight, is left alone; a phone that follows asks ``GET /replay/cursor`` every 1.5 s
while its replay page is open (static/replay.js) and fetches the frame when it moved.
A light poll rather than an event on the stream: the stream carries table versions
only, and a cursor event would need a second kind through the hub, the shared worker
and every page, for a page few devices have open for a few minutes.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, abort, jsonify, redirect, request, url_for

from companion import tables
from companion.db import get_db
from companion.games.base import Game, RuleError, int_or_none
from companion.web import render
from companion.web.context import current_seat, is_host, load
from companion.words import _, ngettext

bp = Blueprint("replay", __name__, url_prefix="/t/<code>")

FOLLOW_POLL_MS = 1500
"""How often a following phone asks where the host is (and play's pace)."""


def _replayable(code: str) -> tuple[dict[str, Any], Game, list[Any], list[dict[str, Any]]]:
    """The table, its game, the game's states and the nights it may replay, or a 404
    saying why there is nothing to replay."""
    table, game = load(code)
    if not hasattr(game, "replay_frames"):
        abort(404, _("%(game)s has no replay of its nights.", game=game.TITLE))
    if table["state"] is None:
        abort(404, _("The game has not started: there is nothing to replay yet."))
    states = tables.game_states(get_db(), table["id"], table["game_no"])
    nights = game.replay_nights(states, table_ended=_ended(table))
    if not nights:
        abort(404, _("The table ended before any night could be replayed.") if _ended(table)
              else _("No night is over yet: a night can be replayed once it has ended."))
    return table, game, states, nights


def _ended(table: dict[str, Any]) -> bool:
    """The host ended the table: nothing can be played there again, so its game counts
    as over for its replay too (docs/RULINGS.md#letters-from-whitechapel, "A table ended
    during a game")."""
    return table["status"] == "closed"


def _number(name: str, text: str | None) -> int | None:
    """A query argument's whole number, None when absent; a 404 naming a bad one."""
    if text is None or text == "":
        return None
    number = int_or_none(text, 0, 999)
    if number is None:
        abort(404, _("There is no night “%(text)s” to replay.", text=text[:12]) if name == "night"
              else _("There is no step “%(text)s” to replay.", text=text[:12]))
    return number


def _frames(table: dict[str, Any], game: Game, states: list[Any],
            nights: list[dict[str, Any]], night: int) -> list[dict[str, Any]]:
    numbers = [n["number"] for n in nights]
    if night not in numbers:
        listed = ", ".join(map(str, numbers))
        abort(404, ngettext("Night %(night)s cannot be replayed: only a night that has ended "
                            "can (now night %(listed)s).",
                            "Night %(night)s cannot be replayed: only a night that has ended "
                            "can (now nights %(listed)s).", len(numbers), night=night,
                            listed=listed))
    try:
        return game.replay_frames(states, night,  # type: ignore[attr-defined]
                                  table_ended=_ended(table))
    except RuleError as error:
        abort(404, error.message)


def _checked_step(frames: list[dict[str, Any]], night: int, step: int | None) -> int:
    step = 0 if step is None else step
    if step >= len(frames):
        abort(404, _("Night %(night)s has steps 0 to %(last)s; there is no step %(step)s.",
                     night=night, last=len(frames) - 1, step=step))
    return step


@bp.get("/replay")
def page(code: str) -> Response:
    """The replay of a night at a step (by default the last night that ended, from its
    start); ``follow=1``: wherever the host's table screen is."""
    table, game, states, nights = _replayable(code)
    host = is_host(table, current_seat(table))
    follow = request.args.get("follow") == "1" and not host
    cursor = tables.replay_cursor(get_db(), table["id"], table["game_no"]) if follow else None
    night = _number("night", request.args.get("night"))
    step = _number("step", request.args.get("step"))
    if cursor is not None and cursor["night"] in [n["number"] for n in nights]:
        night, step = cursor["night"], cursor["step"]
    night = nights[-1]["number"] if night is None else night
    frames = _frames(table, game, states, nights, night)
    if cursor is not None:
        step = min(step or 0, len(frames) - 1)
    step = _checked_step(frames, night, step)

    def at(n: int, k: int | None = None, **more: Any) -> str:
        return url_for("replay.page", code=table["code"], night=n, step=k, **more)

    return render(
        "table/replay.html", "table/_replay.html",
        table={key: table[key] for key in ("code", "game", "status", "version", "game_no")},
        game={"name": game.NAME, "title": game.TITLE},
        nights=[{**n, "url": at(n["number"])} for n in nights],
        night=night, step=step, steps=len(frames), frame=frames[step], host=host,
        follow=follow,
        previous=at(night, step - 1) if step > 0 else None,
        next=at(night, step + 1) if step + 1 < len(frames) else None,
        follow_url=at(night, step, follow=1), own_url=at(night, step),
        cursor_url=url_for("replay.cursor", code=table["code"]),
        back=url_for("seat.phone" if current_seat(table) else "table.screen",
                     code=table["code"]),
        poll_ms=FOLLOW_POLL_MS)


@bp.get("/replay/cursor")
def cursor(code: str) -> Response:
    """Where the host's replay is: ``{"night", "step"}``, or nulls before the host shows
    one. Public: the table screen shows it to the room."""
    table, _game = load(code)
    where = tables.replay_cursor(get_db(), table["id"], table["game_no"]) or {}
    return jsonify(night=where.get("night"), step=where.get("step"))


@bp.post("/replay/cursor")
def move_cursor(code: str) -> Response:
    """The host's screen shows ``night`` at ``step``: the phones that follow go there.
    The host only; the step is checked like a page's. 204 for the screen's script, else
    back to the replay at that step."""
    table, game, states, nights = _replayable(code)
    if not is_host(table, current_seat(table)):
        abort(403, _("Only the host moves the replay the phones follow."))
    night = _number("night", request.form.get("night"))
    if night is None:
        abort(404, _("Please say which night the replay shows."))
    step = _checked_step(_frames(table, game, states, nights, night), night,
                         _number("step", request.form.get("step")))
    tables.move_replay_cursor(get_db(), table["id"], table["game_no"], night, step)
    if request.headers.get("HX-Request"):
        return Response(status=204)
    return redirect(url_for("replay.page", code=table["code"], night=night, step=step), 303)
