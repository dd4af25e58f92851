"""What the table screen and the phone pages share: finding the table and the
viewer, their private cookies, building the context of a page, and reading a form."""

from __future__ import annotations

import hashlib
import json
import math
import re
import secrets
import time
from typing import Any

from flask import Response, abort, current_app, g, request, url_for

from companion import tables
from companion.db import get_db
from companion.games.base import TABLE, Game, int_or_none
from companion.words import Text, _

COOKIE_AGE = 60 * 60 * 24 * 30


def seat_cookie(code: str) -> str:
    return f"seat_{code}"


def host_cookie(code: str) -> str:
    return f"host_{code}"


def set_private_cookie(response: Response, name: str, token: str) -> Response:
    """Give this browser a token (a seat's, a host's, an organiser's): sent back to this
    site only, never readable by a page's script."""
    response.set_cookie(name, token, max_age=COOKIE_AGE, httponly=True, samesite="Lax",
                        path="/")
    return response


def load(code: str) -> tuple[dict[str, Any], Game]:
    table = tables.get_table(get_db(), code)
    if table is None:
        abort(404, _("There is no table with the code “%(code)s”. Check the code on the "
                     "table screen.", code=tables.normalise_code(code)[:8]))
    game = current_app.config["GAMES"].get(table["game"])
    if game is None:
        abort(404, _("This table's game is not installed on this laptop."))
    return table, game


def load_head(code: str) -> dict[str, Any]:
    """The table without its state (tables.table_head), or the same 404 as ``load``."""
    head = tables.table_head(get_db(), code)
    if head is None or head["game"] not in current_app.config["GAMES"]:
        load(code)  # says which of the two it is
    assert head is not None
    return head


def game_of(table: dict[str, Any]) -> Game:
    """The game of a table found by ``load`` or ``load_head`` (so it is installed)."""
    return current_app.config["GAMES"][table["game"]]


def current_seat(table: dict[str, Any]) -> dict[str, Any] | None:
    return tables.seat_for_token(get_db(), table["id"],
                                 request.cookies.get(seat_cookie(table["code"])))


def is_host(table: dict[str, Any], seat: dict[str, Any] | None) -> bool:
    return tables.is_host(table, request.cookies.get(host_cookie(table["code"])), seat)


def is_host_home(table: dict[str, Any]) -> bool:
    """This browser is the laptop that created (or imported) the table: it may take the
    host controls back from a seat at any time."""
    return tables.holds_host_token(table, request.cookies.get(host_cookie(table["code"])))


def base_url() -> str:
    urls = current_app.config["PUBLIC_URLS"]
    return urls[0] if urls else request.host_url.rstrip("/")


def join_url(table: dict[str, Any]) -> str:
    return base_url() + url_for("seat.join", code=table["code"])


def rng() -> Any:
    return current_app.config["RNG"] or secrets.SystemRandom()


def page_context(table: dict[str, Any], game: Game, viewer: int | str,
                 seat: dict[str, Any] | None, host: bool, **extra: Any) -> dict[str, Any]:
    """Everything a page or component needs: the viewer's view, never the state."""
    db = get_db()
    state = table["state"]
    view = game.view(state, viewer) if state is not None else None
    may = game.actions(state, viewer) if state is not None and table["status"] == "playing" \
        else []
    if viewer == TABLE and not host:
        may = []
    seats = seat_words(tables.get_seats(db, table["id"]), game, table["options"])
    if seat is not None:
        seat = {**seat, "label": next((entry["label"] for entry in seats
                                       if entry["position"] == seat["position"]),
                                      seat["label"])}
    log = tables.table_log(db, table["id"])
    dealt = (view or {}).get("seat_labels")
    if isinstance(dealt, list) and len(dealt) == len(seats):
        # The deal may name the seats (London 1888's drawn characters, say).
        for entry, label in zip(seats, dealt, strict=True):
            entry["label"] = label
        if seat is not None:
            seat = {**seat, "label": dealt[seat["position"]]}
    return {
        "table": {key: table[key] for key in ("code", "game", "status", "version", "game_no",
                                              "host_seat", "options")},
        "game": {"name": game.NAME, "title": game.TITLE, "min": game.MIN_PLAYERS,
                 "fixed": sorted(game.FIXED_SEATS),
                 # The seats the companion plays: no host control offers them.
                 "companion": list(getattr(game, "companion_seats",
                                           lambda _options: [])(table["options"]))},
        "view": view,
        "actions": may,
        "seats": seats,
        "me": seat,
        "host": host,
        # The table screen of the laptop that gave the controls to a seat offers them back.
        "host_home": viewer == TABLE and table["host_seat"] is not None
        and is_host_home(table),
        "table_log": describe_log(log, seats),
        "undone": undone(log, table, game, seats),
        "relinked": relinked(log, table, seats),
        "join_url": join_url(table),
        "events_url": url_for("live.events", code=table["code"]),
        **extra,
    }


def seat_words(seats: list[dict[str, Any]], game: Game,
               options: dict[str, Any]) -> list[dict[str, Any]]:
    """``seats`` with their labels in the reader's language: the database keeps each
    seat's label in English (as the game named it at the table's creation), so the
    game names them again, and each label the game still gives word for word is
    swapped for its Text. A label it no longer gives (an imported file's) stays as kept."""
    try:
        labels = game.seat_labels(len(seats), options)
    except Exception:  # noqa: BLE001 - an imported table's options may be anything
        return seats
    if len(labels) != len(seats):
        return seats
    for seat, label in zip(seats, labels, strict=True):
        if isinstance(label, Text) and str(label) == seat["label"]:
            seat["label"] = label
    return seats


def in_seat_words(message: Any, seats: list[dict[str, Any]]) -> Any:
    """A refusal naming a seat by the label the database keeps (English: "Dealer is
    already taken by Ann"), with that label in the reader's language (``seat_words``)."""
    if not isinstance(message, Text):
        return message
    labels = {str(seat["label"]): seat["label"] for seat in seats
              if isinstance(seat["label"], Text)}
    params = {name: labels.get(value, value) if type(value) is str else value
              for name, value in message.params.items()}
    return Text(message.msgid, message.plural, message.n, params)


def _names(seats: list[dict[str, Any]]) -> dict[str, str]:
    return {f"seat:{seat['position']}": seat["name"] or seat["label"] for seat in seats}


def undone(entries: list[dict[str, Any]], table: dict[str, Any], game: Game,
           seats: list[dict[str, Any]]) -> str | None:
    """What the host's undo took back, while nothing has happened since (the undo made
    the table's current version, so the state is the one the action was sent to). In the
    game's own words when it has an ``undone_words(state, actor, action)`` and says them
    (a game whose actions may be secret moves leaves it out, or answers None); else only
    whose action it was."""
    entry = next((entry for entry in entries if entry["kind"] == "undo"), None)
    if entry is None or entry["version"] != table["version"]:
        return None
    undo = json.loads(entry["action"])
    by = undo.get("by")
    words = getattr(game, "undone_words", None)
    action = tables.logged_action(get_db(), table["id"], undo.get("entry")) if words else None
    if action is not None and table["state"] is not None:
        actor = TABLE if by == TABLE else int_or_none(str(by).removeprefix("seat:"), 0, SEAT_MAX)
        said = words(table["state"], actor, action) if actor is not None else None
        if said:
            return _("Undone by the host: %(what)s. Play on from here.", what=said)
    if by == TABLE:
        return _("Undone by the host: the table's last action. Play on from here.")
    name = _names(seats).get(by)
    if name is None:
        return _("Undone by the host: a player's last action. Play on from here.")
    return _("Undone by the host: %(name)s's last action. Play on from here.", name=name)


def relinked(entries: list[dict[str, Any]], table: dict[str, Any],
             seats: list[dict[str, Any]]) -> Text | None:
    """A new phone link made for a seat, while nothing has happened since (the link made
    the table's current version): said at the top of every page, so that a link made for
    someone's seat (a lost phone, or a host's phone taking Jack's) is seen by all. The
    seat is named as every page's table log names it: its player, else its label."""
    entry = entries[0] if entries else None
    if entry is None or entry["kind"] != "rejoin" or entry["version"] != table["version"]:
        return None
    action = json.loads(entry["action"])
    seat = action.get("seat") if isinstance(action, dict) else None
    name = _names(seats).get(f"seat:{seat}")
    if name is None:
        return None
    return _("A new phone link was made for %(seat)s's seat", seat=name)


def describe_log(entries: list[dict[str, Any]], seats: list[dict[str, Any]]) -> list[str]:
    """Table events in words; a game's own events are in its view.

    Only the platform's own sentences are templates: a log's kind and action are data
    (an imported file may hold anything there), so a kind without a sentence is left out.
    """
    names = _names(seats)
    someone, the_table, a_seat = _("Someone"), _("the table"), _("a seat")
    described: list[str] = []
    for entry in entries:
        sentence = LOG_WORDS.get(entry["kind"])
        if sentence is None:
            continue
        action = json.loads(entry["action"])
        if not isinstance(action, dict):
            action = {}
        described.append(Text(sentence.msgid, params={
            "who": names.get(entry["actor"], someone), "game": entry["game_no"],
            "by": names.get(str(action.get("by")), the_table),
            "to": names.get(f"seat:{action.get('to')}", a_seat),
            "source": names.get(f"seat:{action.get('from')}", a_seat),
            "seat": names.get(f"seat:{action.get('seat')}", a_seat)}))
    return described


LOG_WORDS = {
    "create": _("Table created"), "join": _("%(who)s joined"),
    "start": _("Game %(game)s dealt"), "undo": _("The host undid the last action (by %(by)s)"),
    "host": _("Host controls handed to %(to)s"),
    "host_back": _("The host controls came back to the laptop (from %(source)s)"),
    "rejoin": _("A new link was made for %(seat)s"),
    "remove_seat": _("An empty seat was removed"), "close": _("The host ended the table")}
"""The platform's own table events, by the log's kind: each sentence takes the
placeholders it names of ``describe_log``'s (who, game, by, to, source, seat)."""


VERSION_MAX = 10**12
"""More versions than any table reaches: a bigger one in a form is forged."""
SEAT_MAX = 999
"""Seat numbers a form may name; the table then says whether that seat exists."""


def seen_version() -> int:
    """The version the player's page showed when they acted."""
    version = int_or_none(request.form.get("version"), 0, VERSION_MAX)
    if version is None:
        abort(400, _("That form was incomplete. Reload the page and try again."))
    return version


def seat_field() -> int | None:
    """The seat a form names (joining, host controls), or None if it names none."""
    return int_or_none(request.form.get("seat"), -SEAT_MAX, SEAT_MAX)


def form_action() -> dict[str, str]:
    """A game action from the posted form: every field but the page's own, and the
    laptop's clock as ``clock`` (never a phone's: a posted one is replaced), for a game
    whose rules keep a deadline (Wo ist Jack the Ripper's window to play a card). A
    field sent several times (the boxes of one name ticked) is its values, spaced."""
    action = {key: " ".join(values) for key, values in request.form.lists()
              if key not in ("csrf", "version", "key", "clock")}
    return {**action, "clock": f"{clock():.3f}"}


def clock() -> float:
    """The laptop's clock in seconds (a test may set ``CLOCK`` in the app's config)."""
    return float(current_app.config.get("CLOCK", time.time)())


def seconds_until(deadline: float) -> int:
    """Whole seconds from now to ``deadline`` on the laptop's clock, never below 0. A
    page that says them was drawn from the clock, so it is not kept (web/page_cache.py)."""
    g.drawn_from_clock = True
    return max(0, math.ceil(deadline - clock()))


FORM_KEY = re.compile(r"[0-9a-f]{32}")


def resend_key() -> str | None:
    """What the posted form is known by once it has changed the table (``tables.is_resend``):
    its key (companion.web.form_key) with everything it sent, so the very same form sent
    again is known, and another choice made on the same form (a second tab) is not. None
    for a form without a key of its own."""
    key = request.form.get("key", "")
    if not FORM_KEY.fullmatch(key):
        return None
    fields = sorted((name, value) for name, value in request.form.items(multi=True)
                    if name != "csrf")
    return hashlib.sha256(json.dumps(fields).encode()).hexdigest()[:32]
