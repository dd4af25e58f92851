"""A table's export, written and read back: hostile until every part of it is checked.

A table is exported here (``export_table``, ``export_text``: the table screen's export
after a game, ``companion export`` at any time) and read back here, by the lobby's
import and by ``companion import`` alike, and nothing is written until the whole file
passed: its JSON (size, nesting, numbers a database can hold), its schema (every field's
type and size, counts, a code a join link can reach, known log kinds), the log's order
(versions, games, deals), and every state the log keeps: its game's own check
(``check_state``), then what every seat and the table screen would be shown of it.
Each refusal names what is wrong, in a sentence a host can act on. A file that passed
is written in one transaction (``import_table``), its finished games entering the
club's history (``companion.history``) at once or when the laptop accepts them
(``keep_imported``). A tournament export is read by the same ``read`` (its schema is
checked by ``companion.tournaments.storage``).

Both formats are read: ``companion-table/1`` (each log entry a dict with its state
whole) and ``companion-table/2`` (each entry a list, a deal's state whole and each
move's as the delta from the state before it, ``companion/logstore.py``).
"""

from __future__ import annotations

import json
import math
import random
import re
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlite_utils import Database

from companion import decks, history, logstore, tables
from companion.db import write_transaction
from companion.games.base import TABLE, Game, RuleError
from companion.tables import ACTION_MAX, CODE_LENGTH, CODE_LENGTH_MAX, CODE_LETTERS, NAME_MAX
from companion.words import Text, _, ngettext

FORMATS = ("companion-table/1", "companion-table/2")
MAX_BYTES = 64 * 1024 * 1024
"""The largest file read at all (the lobby's upload limit is lower); old exports kept
every state whole and ran to megabytes."""
MAX_DEPTH = 40
MAX_VALUES = 4_000_000
MAX_TEXT = 100_000
"""The longest text a file may hold (its refusal names the number in words)."""
MAX_NUMBER = 2**53
MAX_ENTRIES = 50_000
CODE = re.compile(f"[{CODE_LETTERS}]{{{CODE_LENGTH},{CODE_LENGTH_MAX}}}")
"""The codes a join link reaches: the code letters only, as many as a code may have."""
TIMESTAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")
TOKEN_HASH = re.compile(r"[0-9a-f]{64}")
ACTOR = re.compile(r"host|table|seat:[0-9]{1,2}")
STATUSES = ("lobby", "playing", "over", "closed")
TABLE_EVENTS = ("create", "join", "undo", "host", "rejoin", "remove_seat", "close")
GAME_EVENTS = ("start", "act")
LABEL_MAX = 60


KINDS = {"table": _("table"), "tournament": _("tournament")}
"""What an export holds, as ``read``'s refusals name it ("not a table export")."""
THE_FILE = _("the file")
THE_TABLE = _("the table")


class BadExport(ValueError):
    """A file refused, with the sentence that says why."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass
class Export:
    """A checked export, ready to be written: states rebuilt, the current one derived."""

    game: Game
    table: dict[str, Any]
    state: Any
    seats: list[dict[str, Any]]
    log: list[dict[str, Any]]
    deck: dict[str, str] | None = None
    """The exporting laptop's card names for this game (``companion.decks``), checked."""


def read(raw: bytes, what: str = "table") -> Any:
    """The file's JSON, refused if it is not UTF-8 JSON a ``what`` export (a table's,
    a tournament's) could be: its size, nesting, count, texts and numbers."""
    what = KINDS.get(what, what)
    if len(raw) > MAX_BYTES:
        raise BadExport(_("This file is too large for a %(what)s export (more than "
                          "%(size)s MB).", what=what, size=MAX_BYTES // 2**20))
    try:
        data = json.loads(raw.decode("utf-8"), parse_constant=_no_constant)
    except RecursionError:
        raise BadExport(_("This file is not a %(what)s export: it is nested too deeply.",
                          what=what)) from None
    except (UnicodeDecodeError, ValueError):
        raise BadExport(_("This file is not a %(what)s export (it is not JSON).",
                          what=what)) from None
    _check_values(data, what)
    return data


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number an export holds")


def _check_values(data: Any, what: str) -> None:
    """Nesting, count and every number and text, walked without recursion."""
    stack = [(data, 1)]
    seen = 0
    while stack:
        value, depth = stack.pop()
        seen += 1
        if seen > MAX_VALUES:
            raise BadExport(_("This file holds far more than a %(what)s export does.",
                              what=what))
        if depth > MAX_DEPTH:
            raise BadExport(_("This file is not a %(what)s export: it is nested more than "
                              "%(depth)s levels deep.", what=what, depth=MAX_DEPTH))
        if isinstance(value, dict):
            for key, item in value.items():
                if len(key) > 200:
                    raise BadExport(_("This file has a field name longer than %(count)s "
                                      "characters.", count=200))
                stack.append((item, depth + 1))
        elif isinstance(value, list):
            stack.extend((item, depth + 1) for item in value)
        elif isinstance(value, str):
            if len(value) > MAX_TEXT:
                # The number as English writes it (100,000): each catalogue its own way.
                raise BadExport(_("This file has a text longer than 100,000 characters."))
        elif isinstance(value, bool) or value is None:
            pass
        elif isinstance(value, int):
            if abs(value) > MAX_NUMBER:
                raise BadExport(_("This file has a number too large to be a %(what)s's "
                                  "(%(number)s…).", what=what, number=str(value)[:12]))
        elif isinstance(value, float) and not math.isfinite(value):
            raise BadExport(_("This file has a number that is not finite."))


# --- the schema ----------------------------------------------------------

def _field(obj: Mapping[str, Any], key: str, kinds: tuple[type, ...] | type, where: str,
           what: str) -> Any:
    if key not in obj:
        raise BadExport(_("This export file is damaged: %(where)s has no “%(key)s”.",
                          where=where, key=key))
    value = obj[key]
    kinds = kinds if isinstance(kinds, tuple) else (kinds,)
    if isinstance(value, bool) and bool not in kinds or not isinstance(value, kinds):
        raise BadExport(_("This export file is damaged: %(where)s's “%(key)s” must be "
                          "%(what)s.", where=where, key=key, what=what))
    return value


def _text(obj: Mapping[str, Any], key: str, where: str, longest: int,
          pattern: re.Pattern[str] | None = None, empty: bool = False) -> str:
    value = _field(obj, key, str, where, _("a text"))
    if len(value) > longest or (not empty and not value) or (
            pattern is not None and not pattern.fullmatch(value)):
        raise BadExport(_("This export file is damaged: %(where)s's “%(key)s” (“%(value)s”) "
                          "is not valid there.", where=where, key=key, value=value[:20]))
    return value


def _number(obj: Mapping[str, Any], key: str, where: str, low: int, high: int) -> int:
    value = _field(obj, key, int, where, _("a whole number"))
    if not low <= value <= high:
        raise BadExport(_("This export file is damaged: %(where)s's “%(key)s” must be "
                          "between %(low)s and %(high)s, not %(value)s.", where=where,
                          key=key, low=low, high=high, value=value))
    return value


def check(data: Any, games: Mapping[str, Game]) -> Export:
    """The export, checked whole; BadExport names the first thing wrong."""
    if not isinstance(data, dict) or data.get("format") not in FORMATS:
        raise BadExport(_("This file is not a companion table export."))
    info = _field(data, "table", dict, THE_FILE, _("a table"))
    name = _text(info, "game", THE_TABLE, 60)
    game = games.get(name)
    if game is None:
        raise BadExport(_("This laptop does not know the game “%(game)s”.", game=name[:40]))
    table = {
        "code": _text(info, "code", THE_TABLE, CODE_LENGTH_MAX, CODE),
        "game": name,
        "options": _field(info, "options", dict, THE_TABLE, _("a set of options")),
        "status": _text(info, "status", THE_TABLE, 10),
        "game_no": _number(info, "game_no", THE_TABLE, 0, MAX_ENTRIES),
        "version": _number(info, "version", THE_TABLE, 1, 10**9),
        "host_seat": _field(info, "host_seat", (int, type(None)), THE_TABLE,
                            _("a seat number or null")),
        "created_at": _text(info, "created_at", THE_TABLE, 20, TIMESTAMP),
        "updated_at": _text(info, "updated_at", THE_TABLE, 20, TIMESTAMP),
    }
    if table["status"] not in STATUSES:
        raise BadExport(_("This export file is damaged: the table's status “%(status)s” is "
                          "unknown.", status=table["status"][:20]))
    seats = _seats(data, game, table)
    log = _log(data, len(seats), table)
    state = _current_state(data, log, table)
    _check_states(game, log, state, len(seats), table)
    _check_options(game, table["options"], [seat["name"] or seat["label"] for seat in seats])
    return Export(game, table, state, seats, log, _deck(data, game))


def _deck(data: Mapping[str, Any], game: Game) -> dict[str, str] | None:
    """The exporting laptop's card names, checked as its deck page checks them."""
    if "deck" not in data:
        return None
    given = _field(data, "deck", dict, THE_FILE, _("a deck of card names"))
    if not decks.has_deck(game):
        raise BadExport(_("This export file is damaged: %(game)s has no deck to name.",
                          game=game.TITLE))
    try:
        return decks.check(game, given)
    except RuleError as error:
        raise BadExport(_("This export file's card names are refused: %(why)s",
                          why=error.message)) from None


def _seats(data: Mapping[str, Any], game: Game, table: Mapping[str, Any]) -> list[dict]:
    listed = _field(data, "seats", list, THE_FILE, _("a list of seats"))
    if not game.MIN_PLAYERS <= len(listed) <= game.MAX_PLAYERS:
        raise BadExport(_("This export file is damaged: %(game)s is played by %(low)s to "
                          "%(high)s seats, not %(count)s.", game=game.TITLE,
                          low=game.MIN_PLAYERS, high=game.MAX_PLAYERS, count=len(listed)))
    seats = []
    for number, seat in enumerate(listed, 1):
        where = _("seat %(number)s", number=number)
        if not isinstance(seat, dict):
            raise BadExport(_("This export file is damaged: %(where)s is not a seat.",
                              where=where))
        name = _field(seat, "name", (str, type(None)), where, _("a name or null"))
        token_hash = _field(seat, "token_hash", (str, type(None)), where,
                            _("a text or null"))
        seats.append({
            "position": _number(seat, "position", where, 0, len(listed) - 1),
            "label": _text(seat, "label", where, LABEL_MAX),
            "name": _text(seat, "name", where, NAME_MAX) if name else None,
            "token_hash": _text(seat, "token_hash", where, 64, TOKEN_HASH) if token_hash
            else None})
    if sorted(seat["position"] for seat in seats) != list(range(len(seats))):
        raise BadExport(_("This export file is damaged: its seats are not numbered "
                          "one after another."))
    if table["host_seat"] is not None and not 0 <= table["host_seat"] < len(seats):
        raise BadExport(_("This export file is damaged: the host's seat is not one of its "
                          "seats."))
    return sorted(seats, key=lambda seat: seat["position"])


FIELDS = ("version", "game_no", "actor", "kind", "action", "undone", "created_at", "state")
"""A format 2 log entry's items, in order (``export_table``)."""


def _log(data: Mapping[str, Any], count: int, table: Mapping[str, Any]) -> list[dict]:
    """The log's entries with their states rebuilt, in order and consistent."""
    listed = _field(data, "log", list, THE_FILE, _("a list of log entries"))
    if not 0 < len(listed) <= MAX_ENTRIES:
        raise BadExport(_("This export file is damaged: its log has %(count)s entries.",
                          count=len(listed)))
    log: list[dict[str, Any]] = []
    version = game_no = 0
    for number, entry in enumerate(listed, 1):
        where = _("log entry %(number)s", number=number)
        if data["format"] == FORMATS[0] and isinstance(entry, dict):
            entry = {**entry, "state": entry.get("state")}
        elif isinstance(entry, list) and len(entry) == len(FIELDS):
            entry = dict(zip(FIELDS, entry, strict=True))
        else:
            raise BadExport(_("This export file is damaged: %(where)s is not an entry.",
                              where=where))
        kind = _text(entry, "kind", where, 20)
        if kind not in TABLE_EVENTS + GAME_EVENTS:
            raise BadExport(_("This export file is damaged: %(where)s is of an unknown kind "
                              "(“%(kind)s”).", where=where, kind=kind[:20]))
        actor = _text(entry, "actor", where, 10, ACTOR)
        if actor.startswith("seat:") and int(actor[5:]) >= 16:
            raise BadExport(_("This export file is damaged: %(where)s names no seat.",
                              where=where))
        action = _field(entry, "action", dict, where, _("a set of fields"))
        if len(json.dumps(action)) > ACTION_MAX:
            raise BadExport(_("This export file is damaged: %(where)s's action is larger "
                              "than the %(size)s KB an action may take.", where=where,
                              size=ACTION_MAX // 1024))
        if any(isinstance(value, (dict, list)) for value in action.values()):
            raise BadExport(_("This export file is damaged: %(where)s's action holds more "
                              "than plain values.", where=where))
        item = {
            "version": _number(entry, "version", where, version, table["version"]),
            "game_no": _number(entry, "game_no", where, game_no, table["game_no"]),
            "actor": actor, "kind": kind, "action": action,
            "undone": _number(entry, "undone", where, 0, 1 if kind == "act" else 0),
            "created_at": _text(entry, "created_at", where, 20, TIMESTAMP),
        }
        if kind == "start" and item["game_no"] != game_no + 1:
            raise BadExport(_("This export file is damaged: %(where)s deals game "
                              "%(dealt)s after game %(game)s.", where=where,
                              dealt=item["game_no"], game=game_no))
        if kind != "start" and item["game_no"] != game_no:
            raise BadExport(_("This export file is damaged: %(where)s belongs to game "
                              "%(its)s but game %(game)s is being played.", where=where,
                              its=item["game_no"], game=game_no))
        version, game_no = item["version"], item["game_no"]
        if kind == "act" and game_no == 0:
            raise BadExport(_("This export file is damaged: %(where)s is a move before any "
                              "game was dealt.", where=where))
        item["state"] = _entry_state(entry["state"], log, where, kind, game_no,
                                     data["format"] == FORMATS[0])
        log.append(item)
    if log[0]["kind"] != "create" or version != table["version"] or game_no != table[
            "game_no"]:
        raise BadExport(_("This export file is damaged: its log does not lead to the table "
                          "it describes (its creation, version or number of games)."))
    return log


def _entry_state(kept: Any, log: list[dict[str, Any]], where: Text, kind: str,
                 game_no: int, whole: bool) -> Any:
    """An entry's state: whole (a deal's, or every one in format 1), or the delta from
    the state of the game's entry before it."""
    if kind not in GAME_EVENTS:
        if kept is not None:
            raise BadExport(_("This export file is damaged: %(where)s is a table event "
                              "with a game state.", where=where))
        return None
    if whole or kind == "start":
        if not isinstance(kept, dict):
            raise BadExport(_("This export file is damaged: %(where)s has no game state.",
                              where=where))
        return kept
    before = next((entry["state"] for entry in reversed(log)
                   if entry["game_no"] == game_no and entry["state"] is not None), None)
    try:
        state = logstore.patch(before, kept)
    except logstore.DeltaError as error:
        raise BadExport(_("This export file is damaged: %(where)s's change does not fit "
                          "(%(error)s).", where=where, error=str(error))) from None
    if not isinstance(state, dict):
        raise BadExport(_("This export file is damaged: %(where)s's state is not a game "
                          "state.", where=where))
    return state


def _current_state(data: Mapping[str, Any], log: list[dict[str, Any]],
                   table: Mapping[str, Any]) -> Any:
    """The state in force: the last one of the table's game not undone. A file that
    names another (format 1 keeps it too) is refused."""
    state = None
    for entry in log:
        if entry["game_no"] == table["game_no"] and entry["kind"] in GAME_EVENTS and \
                not entry["undone"]:
            state = entry["state"]
    if "state" in data["table"] and not logstore.same(data["table"]["state"], state):
        raise BadExport(_("This export file is damaged: the table's state is not the last "
                          "state of its log."))
    status = table["status"]
    if (table["game_no"] == 0) != (status == "lobby") and status != "closed":
        raise BadExport(ngettext("This export file is damaged: a table “%(status)s” after "
                                 "%(n)s games.",
                                 "This export file is damaged: a table “%(status)s” after "
                                 "%(n)s games.", table["game_no"], status=status))
    return state


def _check_states(game: Game, log: list[dict[str, Any]], state: Any, count: int,
                  table: Mapping[str, Any]) -> None:
    """Every logged state passes its game's check; the state in force, the one an undo
    brings back and each game's last show to every viewer (the pages of the one in
    force are drawn too, ``companion.web.pages.pages_draw``)."""
    viewers = [TABLE, *range(count)]
    shown = _shown(log, table)
    for number, entry in enumerate(log, 1):
        if entry["state"] is None:
            continue
        where = _("the state of log entry %(number)s", number=number)
        try:
            game.check_state(entry["state"])
            if len(entry["state"].get("players", ())) != count:
                raise RuleError(_("it has %(players)s players for %(count)s seats.",
                                  players=len(entry["state"].get("players", ())),
                                  count=count))
            if number - 1 in shown:
                for viewer in viewers:
                    game.view(entry["state"], viewer)
                    game.actions(entry["state"], viewer)
        except RuleError as error:
            raise BadExport(_("This export file is damaged: %(where)s is not a state of "
                              "%(game)s: %(why)s", where=where, game=game.TITLE,
                              why=error.message)) from None
        except Exception as error:  # noqa: BLE001 - any failure of the game's own code on it
            raise BadExport(_("This export file is damaged: %(game)s cannot show %(where)s "
                              "(%(error)s).", game=game.TITLE, where=where,
                              error=error.__class__.__name__)) from None
    if state is not None and table["status"] != "closed" and (
            table["status"] == "over") != bool(game.is_over(state)):
        if game.is_over(state):
            raise BadExport(_("This export file is damaged: the table is “%(status)s” but "
                              "its game is over.", status=table["status"]))
        raise BadExport(_("This export file is damaged: the table is “%(status)s” but its "
                          "game is not.", status=table["status"]))


def _shown(log: list[dict[str, Any]], table: Mapping[str, Any]) -> set[int]:
    """The places in the log of the states a page may show: each game's last, and the
    current game's last two in force (the one an undo brings back)."""
    last: dict[int, list[int]] = {}
    for place, entry in enumerate(log):
        if entry["state"] is not None and not entry["undone"]:
            last.setdefault(entry["game_no"], []).append(place)
    shown = {places[-1] for places in last.values()}
    return shown | set(last.get(table["game_no"], [])[-2:])


def _check_options(game: Game, options: Mapping[str, Any], names: list[str]) -> None:
    """The table's options must deal a game (the host may deal a new one any time)."""
    try:
        dealt = game.setup(options, names, random.Random(0))
        game.check_state(json.loads(json.dumps(dealt)))
    except RuleError as error:
        raise BadExport(_("This export file is damaged: its options do not deal a game "
                          "(%(why)s)", why=error.message)) from None
    except Exception as error:  # noqa: BLE001 - any failure of the game's own code on them
        raise BadExport(_("This export file is damaged: its options do not deal a game "
                          "(%(error)s).", error=error.__class__.__name__)) from None


# --- writing ---------------------------------------------------------------------------

EXPORT_FORMAT = "companion-table/2"
"""Format 2 keeps a deal's state whole and each move's as the delta from the state
before it; format 1 (every state whole, each entry a dict) is still imported
(``check``)."""


def export_table(db: Database, table_id: int) -> dict[str, Any]:
    """The whole table as a JSON-able dict: seats and full log, the table's state being
    its log's last. Holds every secret, so only the laptop's command line offers it
    while a game runs.

    Each log entry is a list, ``[version, game_no, actor, kind, action, undone,
    created_at, state]``, where ``state`` is null (a table event), the whole state (a
    deal, kind "start") or the delta (``companion/logstore.py``) from the state of the
    game's entry before it (a move, kind "act")."""
    table = tables.get_table_by_id(db, table_id)
    assert table is not None
    seats = list(db.query("SELECT position, label, name, token_hash FROM seats "
                          "WHERE table_id = ? ORDER BY position", [table_id]))
    log: list[list[Any]] = []
    last: dict[int, Any] = {}  # by game: its latest state so far, a move's base
    for entry in tables.history(db, table_id):
        state = kept = entry["state"]
        if state is not None and entry["kind"] != "start":
            delta = logstore.diff(last[entry["game_no"]], state)
            kept = logstore.nothing(state) if delta is None else delta
        if state is not None:
            last[entry["game_no"]] = state
        log.append([entry["version"], entry["game_no"], entry["actor"], entry["kind"],
                    entry["action"], entry["undone"], entry["created_at"], kept])
    exported = {"format": EXPORT_FORMAT,
                "table": {key: table[key] for key in (
                    "code", "game", "options", "status", "game_no", "version",
                    "host_seat", "created_at", "updated_at")},
                "seats": seats, "log": log}
    # The laptop's card names for this game go with it, for the laptop it is taken to.
    deck = decks.named(db, table["game"])
    if deck is not None:
        exported["deck"] = deck
    return exported


def export_text(data: Mapping[str, Any]) -> str:
    """An export as its file holds it: one log entry a line, no spaces."""
    compact = {"separators": (",", ":"), "ensure_ascii": False, "sort_keys": True}
    head = {key: value for key, value in data.items() if key != "log"}
    lines = ",\n".join(json.dumps(entry, **compact) for entry in data["log"])
    return json.dumps(head, **compact)[:-1] + ',"log":[\n' + lines + "\n]}\n"


def import_table(db: Database, export: Export,
                 accept: Callable[[dict[str, Any]], None] | None = None, *,
                 by_laptop: bool) -> tuple[dict[str, Any], str]:
    """Write an export checked by ``check``, with a new host token
    for whoever imports it. Keeps its code unless that code is taken here. ``accept``
    sees the written table inside the transaction (the web layer draws its pages
    there) and may refuse it with a TableError: nothing is then kept. ``by_laptop``: the
    laptop running the companion imports it (its terminal, its own browser), so the
    games in the file enter the club's history at once; else they wait for the laptop
    (``companion.history.note_import``)."""
    host_token = tables.new_token()
    info = export.table
    with write_transaction(db):
        code = info["code"]
        if next(iter(db.query("SELECT 1 FROM tables WHERE code = ?", [code])), None):
            code = tables.free_code(db, secrets.SystemRandom())
        cursor = db.execute(
            "INSERT INTO tables (code, game, options, status, state, game_no, version, "
            "host_token_hash, host_seat, created_at, updated_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [code, info["game"], json.dumps(info["options"], sort_keys=True), info["status"],
             None if export.state is None
             else logstore.pack(export.state, tables.STATE_LEVEL),
             # The controls are with whoever imports it (its /h/ link): the seat that
             # held them may be on a phone that is not in this room.
             info["game_no"], info["version"], tables.hash_token(host_token), None,
             info["created_at"], info["updated_at"]])
        table_id = cursor.lastrowid
        for seat in export.seats:
            token_hash = seat["token_hash"]
            # A copy imported beside its original cannot share seat links: its
            # players claim their named seats again from the join page.
            if token_hash and next(iter(db.query(
                    "SELECT 1 FROM seats WHERE token_hash = ?", [token_hash])), None):
                token_hash = None
            db.execute("INSERT INTO seats (table_id, position, label, name, token_hash) "
                       "VALUES (?, ?, ?, ?, ?)",
                       [table_id, seat["position"], seat["label"], seat["name"], token_hash])
        chains: dict[int, tuple[logstore.Base, tuple[int, Any]]] = {}
        for entry in export.log:
            base, depth, packed = None, 0, None
            if entry["state"] is not None:
                known = chains.get(entry["game_no"])
                base, depth, packed = logstore.encode(
                    entry["state"], known[0] if known else None,
                    lambda known=known: known[1])
            cursor = db.execute(
                "INSERT INTO log (table_id, version, game_no, actor, kind, action, base, "
                "depth, packed, undone, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [table_id, entry["version"], entry["game_no"], entry["actor"], entry["kind"],
                 json.dumps(entry["action"], sort_keys=True), base, depth, packed,
                 entry["undone"], entry["created_at"]])
            if entry["state"] is not None:
                mine = (cursor.lastrowid, depth, entry["state"])
                first = chains[entry["game_no"]][1] if base is not None else mine[::2]
                chains[entry["game_no"]] = (mine, first)
        if export.deck is not None:
            decks.adopt(db, export.game, export.deck)
        history.note_import(db, table_id, info["game_no"], by_laptop)
        history.backfill(db, {export.game.NAME: export.game}, tables.game_end, table_id)
        imported = tables.get_table_by_id(db, table_id)
        assert imported is not None
        if accept is not None:
            accept(imported)
    return imported, host_token


def keep_imported(db: Database, games: Mapping[str, Game], table_id: int) -> int:
    """The laptop accepts the games a phone's import brought: they enter the club's
    history now (inside the caller's transaction); gives how many finished games did."""
    history.decide(db, table_id, keep=True)
    return history.backfill(db, games, tables.game_end, table_id)
