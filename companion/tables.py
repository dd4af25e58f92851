"""Tables, seats, tokens, versions, the action log and undo: all storage of play.

Every change is one ``BEGIN IMMEDIATE`` transaction that reads the table,
checks the version the player saw, changes it, appends to the log and bumps
the version. The log keeps every resulting game state, so undo and the
end-of-game reveal need nothing else: each game's first state whole, every later
one as a compressed delta from an earlier entry's (``companion/logstore.py``), so a
whole night of play stays a few hundred kilobytes. Functions take ``db`` and return
dicts.
"""

from __future__ import annotations

import hashlib
import json
import random
import secrets
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from sqlite_utils import Database

from companion import decks, logstore
from companion import history as club_history  # tables.history() is a table's log
from companion.db import write_transaction
from companion.db.versioned import Versioned
from companion.games.base import TABLE, Game
from companion.names import NameField, clean_name
from companion.words import Text, _, ngettext

CODE_LETTERS = "ABCDEFGHJKLMNPQRSTWXYZ"
"""Join code letters: no I/O (1/0), no U/V, so a code read aloud or off a screen is
never mistaken."""
CODE_LENGTH = 4
CODE_LENGTH_MAX = 8
CODE_TRIES = 16
"""Random codes tried at each length before a longer one: while at most half the codes
of a length are taken, all 16 tries miss with a chance under 1 in 65,000, so codes keep
four letters until the laptop has used most of the 234,256 (22^4) there are, then grow.
Choosing a code is bounded: at most 80 look-ups, never a loop that waits for luck."""
STATE_LEVEL = 6
"""zlib's level for a table's current state, rewritten on every action: level 1 is
quicker but its larger rows and the pages they free put a whole Letters from
Whitechapel game 8 KB further from its 300 KB (bench/storage.py)."""
NAME_MAX = 30
SEAT_NAME = NameField(NAME_MAX, _("Please enter your name."),
                      _("Please keep your name to %(count)s characters.", count=NAME_MAX))
"""The name a player joins under."""
COMPANION_NAME = "The companion"
"""The name of a seat the companion plays (a game's ``companion_seats``)."""
ACTION_MAX = 4096
"""Bytes an action may take in the log (its fields as JSON). The longest form of any
game, London 1888's outcome with its eight accomplice boxes, is under 300."""


class TableError(Exception):
    """A refused table operation, with the message and HTTP status to answer."""

    def __init__(self, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


class StaleVersion(TableError):
    def __init__(self) -> None:
        super().__init__(_("The table moved on while you were deciding. "
                           "Here is the current state: please check and try again."), 409)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    """A seat or host token: 192 random bits."""
    return secrets.token_urlsafe(24)


def normalise_code(code: str) -> str:
    return "".join(ch for ch in str(code).upper() if not ch.isspace())[:12]


# --- reading -------------------------------------------------------------

def _decode(row: dict[str, Any] | None) -> dict[str, Any] | None:
    if row is None:
        return None
    row = dict(row)
    row["options"] = json.loads(row["options"])
    row["state"] = logstore.unpack(row["state"]) if row["state"] else None
    return row


def get_table(db: Database, code: str) -> dict[str, Any] | None:
    rows = db.query("SELECT * FROM tables WHERE code = ?", [normalise_code(code)])
    return _decode(next(iter(rows), None))


def table_head(db: Database, code: str) -> dict[str, Any] | None:
    """A table without its state, and the id of its last log entry: what says whether
    a page drawn before is still the page (``companion/web/page_cache.py``). One query, so
    both come from the same moment."""
    rows = db.query(
        "SELECT id, code, game, options, status, game_no, version, host_token_hash, "
        "host_seat, (SELECT max(id) FROM log WHERE log.table_id = tables.id) AS last_log "
        "FROM tables WHERE code = ?", [normalise_code(code)])
    row = next(iter(rows), None)
    if row is None:
        return None
    return {**row, "options": json.loads(row["options"])}


def table_version(db: Database, code: str) -> tuple[int, int] | None:
    """A table's id and version without its state (an event stream opening)."""
    rows = db.query("SELECT id, version FROM tables WHERE code = ?", [normalise_code(code)])
    row = next(iter(rows), None)
    return None if row is None else (row["id"], row["version"])


def get_table_by_id(db: Database, table_id: int) -> dict[str, Any] | None:
    return _decode(next(iter(db.query("SELECT * FROM tables WHERE id = ?", [table_id])), None))


def get_seats(db: Database, table_id: int) -> list[dict[str, Any]]:
    return [
        {"position": row["position"], "label": row["label"], "name": row["name"],
         "claimed": row["token_hash"] is not None}
        for row in db.query("SELECT * FROM seats WHERE table_id = ? ORDER BY position",
                            [table_id])
    ]


def seat_for_token(db: Database, table_id: int, token: str | None) -> dict[str, Any] | None:
    """The seat a token opens at this table, or None for a missing or forged one."""
    if not token:
        return None
    rows = db.query("SELECT position, label, name FROM seats "
                    "WHERE table_id = ? AND token_hash = ?", [table_id, hash_token(token)])
    return next(iter(rows), None)


def table_for_seat_token(db: Database, token: str) -> tuple[dict[str, Any], int] | None:
    rows = db.query("SELECT table_id, position FROM seats WHERE token_hash = ?",
                    [hash_token(token)])
    row = next(iter(rows), None)
    if row is None:
        return None
    table = get_table_by_id(db, row["table_id"])
    assert table is not None
    return table, row["position"]


def table_for_host_token(db: Database, token: str) -> dict[str, Any] | None:
    rows = db.query("SELECT * FROM tables WHERE host_token_hash = ?", [hash_token(token)])
    return _decode(next(iter(rows), None))


def open_tables(db: Database) -> list[dict[str, Any]]:
    """Tables on this laptop that have not ended, newest first (codes are public)."""
    return list(db.query("SELECT code, game, status, updated_at FROM tables "
                         "WHERE status != 'closed' ORDER BY id DESC LIMIT 30"))


def is_host(table: Mapping[str, Any], host_token: str | None,
            seat: Mapping[str, Any] | None) -> bool:
    """The laptop that created the table, or the seat it handed the controls to."""
    if table["host_seat"] is not None:
        return seat is not None and seat["position"] == table["host_seat"]
    return holds_host_token(table, host_token)


def holds_host_token(table: Mapping[str, Any], host_token: str | None) -> bool:
    """The laptop that created (or imported) the table: it may take the controls back."""
    return bool(host_token) and secrets.compare_digest(
        hash_token(host_token), table["host_token_hash"])


def is_resend(db: Database, table_id: int, sent: str | None) -> bool:
    """Whether the form with key ``sent`` has already changed this table (it was sent
    again: the connection dropped while its answer was on the way)."""
    return sent is not None and next(iter(db.query(
        "SELECT 1 FROM log WHERE table_id = ? AND sent = ?", [table_id, sent])), None) \
        is not None


def table_log(db: Database, table_id: int, limit: int = 8) -> list[dict[str, Any]]:
    """The latest table events (joins, starts, undos...), newest first; never a state."""
    return list(db.query(
        "SELECT id, version, game_no, actor, kind, action, undone, created_at FROM log "
        "WHERE table_id = ? AND kind != 'act' ORDER BY id DESC LIMIT ?", [table_id, limit]))


def logged_action(db: Database, table_id: int, entry_id: Any) -> dict[str, Any] | None:
    """The fields of one game action of the log (an undo's ``entry``), or None."""
    row = next(iter(db.query("SELECT action FROM log WHERE table_id = ? AND id = ? AND "
                             "kind = 'act'", [table_id, entry_id])), None)
    action = json.loads(row["action"]) if row is not None else None
    return action if isinstance(action, dict) else None


def history(db: Database, table_id: int, game_no: int | None = None) -> list[dict[str, Any]]:
    """Every log entry of the table in order (an export's log), or of its game
    ``game_no`` alone, its action decoded and with the state it resulted in (None for
    table events)."""
    entries: list[dict[str, Any]] = []
    states: dict[int, Any] = {}
    for row in db.query("SELECT * FROM log WHERE table_id = ? AND (? IS NULL OR game_no = ?) "
                        "ORDER BY id", [table_id, game_no, game_no]):
        row = dict(row)
        row["action"] = json.loads(row["action"])
        row["state"] = states[row["id"]] = _unpacked(db, row, states)
        for column in ("base", "depth", "packed"):
            del row[column]
        entries.append(row)
    return entries


def game_states(db: Database, table_id: int, game_no: int) -> list[Any]:
    """Every state one game of the table went through, in order, undone steps left out
    (a night's replay, ``companion/web/replay.py``)."""
    return [entry["state"] for entry in history(db, table_id, game_no)
            if entry["state"] is not None and not entry["undone"]]


def replay_cursor(db: Database, table_id: int, game_no: int) -> dict[str, int] | None:
    """The night and step the host shows in the replay of the table's game ``game_no``,
    or None (no replay shown yet, or one of an earlier game)."""
    row = next(iter(db.query("SELECT night, step FROM replay_cursors WHERE table_id = ? "
                             "AND game_no = ?", [table_id, game_no])), None)
    return None if row is None else {"night": row["night"], "step": row["step"]}


def move_replay_cursor(db: Database, table_id: int, game_no: int, night: int,
                       step: int) -> None:
    """The host shows ``night`` at ``step``: the table's version stays as it is."""
    with write_transaction(db):
        db.execute("INSERT INTO replay_cursors (table_id, game_no, night, step) "
                   "VALUES (?, ?, ?, ?) ON CONFLICT (table_id) DO UPDATE SET "
                   "game_no = excluded.game_no, night = excluded.night, step = excluded.step",
                   [table_id, game_no, night, step])


def final_state(db: Database, table_id: int, game_no: int) -> Any:
    """The last state one game of the table reached (undone steps left out), or None."""
    latest = _latest(db, table_id, game_no)
    return None if latest is None else _state_of(db, latest["id"])


def game_end(db: Database, table_id: int, game_no: int) -> dict[str, Any] | None:
    """What the club's history keeps of one game of the table (``companion.history``'s
    backfill): the log entry of its state in force (``log_id``, ``state``, when it was
    recorded: ``ended_at``) and its seats' names; None before its deal."""
    latest = _latest(db, table_id, game_no)
    if latest is None:
        return None
    ended = db.execute("SELECT created_at FROM log WHERE id = ?", [latest["id"]]).fetchone()
    return {"log_id": latest["id"], "state": _state_of(db, latest["id"]),
            "ended_at": ended[0], "names": [seat["name"] for seat in _players(db, table_id)]}


def _latest(db: Database, table_id: int, game_no: int) -> dict[str, Any] | None:
    """The log entry of a game's state in force: its id and depth."""
    return next(iter(db.query(
        "SELECT id, depth FROM log WHERE table_id = ? AND game_no = ? AND "
        "kind IN ('start', 'act') AND undone = 0 ORDER BY id DESC LIMIT 1",
        [table_id, game_no])), None)


def _state_of(db: Database, entry_id: int) -> Any:
    """One entry's state, rebuilt from its whole ancestor and the deltas since."""
    chain = db.execute(
        "WITH RECURSIVE chain (id, base, packed, step) AS ("
        " SELECT id, base, packed, 0 FROM log WHERE id = ?"
        " UNION ALL SELECT log.id, log.base, log.packed, chain.step + 1"
        " FROM log JOIN chain ON log.id = chain.base)"
        " SELECT packed FROM chain ORDER BY step DESC", [entry_id]).fetchall()
    if not chain or chain[0][0] is None:
        return None
    state = logstore.unpack(chain[0][0])
    for (packed,) in chain[1:]:
        state = logstore.patch(state, logstore.unpack(packed))
    return state


def _unpacked(db: Database, row: Mapping[str, Any], known: Mapping[int, Any]) -> Any:
    """A log row's state, its base's state taken from ``known`` when it is there."""
    if row["packed"] is None:
        return None
    value = logstore.unpack(row["packed"])
    if row["base"] is None:
        return value
    base = known[row["base"]] if row["base"] in known else _state_of(db, row["base"])
    return logstore.patch(base, value)


def last_action_time(db: Database, table_id: int) -> str:
    """When the table's latest game action still in force was recorded ("" if none)."""
    row = next(iter(db.query(
        "SELECT created_at FROM log WHERE table_id = ? AND kind = 'act' AND undone = 0 "
        "ORDER BY id DESC LIMIT 1", [table_id])), None)
    return row["created_at"] if row else ""


def remembered_options(db: Database, game: str) -> dict[str, Any] | None:
    row = next(iter(db.query("SELECT options FROM remembered_options WHERE game = ?",
                             [game])), None)
    return json.loads(row["options"]) if row else None


# --- writing -------------------------------------------------------------

TABLES = Versioned("tables", get_table_by_id,
                   lambda: TableError(_("This table no longer exists."), 404), StaleVersion,
                   stamped=True)
"""A table is changed at the version its sender saw (``TABLES.reread``), in one write
transaction with the log's entry."""


def _log(db: Database, table: Mapping[str, Any], version: int, actor: str, kind: str,
         action: Mapping[str, Any] | None = None, state: Any = None,
         game_no: int | None = None, previous: Any = None, sent: str | None = None) -> int:
    """Append one entry and give its id; a game's ``state`` is kept as a delta from
    ``previous``, the state in force before it (a deal has none: it is kept whole).
    ``sent``: the key of the form that asked for it (``is_resend``), written in the same
    transaction."""
    game_no = table["game_no"] if game_no is None else game_no
    base, depth, packed = None, 0, None
    if state is not None:
        latest = _latest(db, table["id"], game_no) if previous is not None else None
        base, depth, packed = logstore.encode(
            _plain(state), latest and (latest["id"], latest["depth"], previous),
            lambda: _first(db, table["id"], game_no))
    return db.execute(
        "INSERT INTO log (table_id, version, game_no, actor, kind, action, base, depth, "
        "packed, sent) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [table["id"], version, game_no, actor, kind, json.dumps(action or {}, sort_keys=True),
         base, depth, packed, sent]).lastrowid


def _first(db: Database, table_id: int, game_no: int) -> tuple[int, Any]:
    """A game's first state, kept whole: the base that keeps delta chains short."""
    row = next(iter(db.query(
        "SELECT id, packed FROM log WHERE table_id = ? AND game_no = ? AND base IS NULL "
        "AND packed IS NOT NULL ORDER BY id LIMIT 1", [table_id, game_no])))
    return row["id"], logstore.unpack(row["packed"])


def _plain(state: Any) -> Any:
    """The state as JSON gives it back (tuples become lists), so deltas compare alike."""
    return json.loads(json.dumps(state))


def _bump(db: Database, table: Mapping[str, Any], **changes: Any) -> int:
    """Write ``changes`` with the table's next version (inside the write transaction)."""
    if changes.get("options") is not None:
        changes["options"] = json.dumps(changes["options"], sort_keys=True)
    if changes.get("state") is not None:
        # Compressed: read on every page, rewritten on every action, and a late state
        # of Letters from Whitechapel is 40 KB of JSON (bench/storage.py).
        changes["state"] = logstore.pack(changes["state"], STATE_LEVEL)
    return TABLES.bump(db, table, **changes)


def create_table(db: Database, game: Game, options: Mapping[str, Any], count: int,
                 rng: random.Random | None = None,
                 remember: bool = True) -> tuple[dict[str, Any], str]:
    """A new table in the lobby, and the host token that controls it. Its options
    pre-fill this game's next "new table" form unless ``remember`` is off (a
    tournament's tables, say, should not overwrite what the club set up by hand)."""
    rng = rng or secrets.SystemRandom()
    host_token = new_token()
    labels = game.seat_labels(count, options)
    with write_transaction(db):
        code = free_code(db, rng)
        cursor = db.execute(
            "INSERT INTO tables (code, game, options, host_token_hash) VALUES (?, ?, ?, ?)",
            [code, game.NAME, json.dumps(dict(options), sort_keys=True),
             hash_token(host_token)])
        table_id = cursor.lastrowid
        played = set(getattr(game, "companion_seats", lambda _options: [])(options))
        for position, label in enumerate(labels):
            # A seat the companion plays is taken by nobody's phone: its token is made
            # and thrown away, so no link ever opens it.
            db.execute("INSERT INTO seats (table_id, position, label, name, token_hash) "
                       "VALUES (?, ?, ?, ?, ?)",
                       [table_id, position, label,
                        COMPANION_NAME if position in played else None,
                        hash_token(new_token()) if position in played else None])
        if remember:
            _remember(db, game.NAME, options)
        table = {"id": table_id, "game_no": 0}
        _log(db, table, 1, "host", "create", {"game": game.NAME})
    created = get_table(db, code)
    assert created is not None
    return created, host_token


def _remember(db: Database, game: str, options: Mapping[str, Any]) -> None:
    """Options that pre-fill the next new table of this game on this laptop."""
    db.execute("INSERT INTO remembered_options (game, options) VALUES (?, ?) "
               "ON CONFLICT (game) DO UPDATE SET options = excluded.options",
               [game, json.dumps(dict(options), sort_keys=True)])


def set_seat_names(db: Database, table_id: int, names: Sequence[str | None]) -> None:
    """Pre-fill seat names (a tournament seats its players); seats stay unclaimed."""
    with write_transaction(db):
        for position, name in enumerate(names):
            db.execute("UPDATE seats SET name = ? WHERE table_id = ? AND position = ?",
                       [name, table_id, position])


def claim_seat(db: Database, table_id: int, position: int, name: str,
               game: Game) -> tuple[int, str]:
    """Claim an empty seat under ``name``; returns the new version and the seat token."""
    name = clean_name(name, SEAT_NAME, TableError)
    token = new_token()
    with write_transaction(db):
        table = TABLES.reread(db, table_id, None)
        if table["status"] == "closed":
            raise TableError(_("This table has ended."), 410)
        # Whatever its token (an imported copy frees the seats' links), never by a phone.
        _not_the_companions(game, table, position)
        seat = next(iter(db.query("SELECT * FROM seats WHERE table_id = ? AND position = ?",
                                  [table_id, position])), None)
        if seat is None:
            raise TableError(_("That seat does not exist at this table."), 404)
        if seat["token_hash"] is not None:
            raise TableError(_("%(seat)s is already taken by %(name)s. Please pick another "
                               "seat.", seat=seat["label"], name=seat["name"]), 409)
        if seat["name"] and seat["name"].casefold() != name.casefold():
            raise TableError(_("%(seat)s is kept for %(name)s.", seat=seat["label"],
                               name=seat["name"]), 409)
        taken = {row["name"].casefold() for row in db.query(
            "SELECT name FROM seats WHERE table_id = ? AND token_hash IS NOT NULL",
            [table_id])}
        if name.casefold() in taken:
            raise TableError(_("Someone called %(name)s is already at this table: "
                               "please add an initial.", name=name), 409)
        db.execute("UPDATE seats SET name = ?, token_hash = ? "
                   "WHERE table_id = ? AND position = ?",
                   [name, hash_token(token), table_id, position])
        version = _bump(db, table)
        _log(db, table, version, f"seat:{position}", "join", {"name": name})
    return version, token


def _players(db: Database, table_id: int) -> list[dict[str, Any]]:
    return list(db.query("SELECT position, label, name, token_hash FROM seats "
                         "WHERE table_id = ? ORDER BY position", [table_id]))


def start_game(db: Database, game: Game, table_id: int, seen_version: int,
               rng: random.Random, sent: str | None = None) -> int:
    """Deal a new game for the seated players (the first, or a fresh one)."""
    with write_transaction(db):
        table = TABLES.reread(db, table_id, seen_version)
        if table["status"] == "closed":
            raise TableError(_("This table has ended."), 410)
        players = _players(db, table_id)
        empty = [_game_label(game, players, seat, table["options"]) for seat in players
                 if seat["token_hash"] is None]
        if empty:
            # The labels side by side, each in the reader's language.
            listing = Text(", ".join(f"%(s{i})s" for i in range(len(empty))),
                           params={f"s{i}": label for i, label in enumerate(empty)})
            raise TableError(_("Waiting for %(seats)s to join (or remove the empty seats).",
                               seats=listing))
        options = table["options"]
        carry_over = getattr(game, "options_for_next_game", None)
        if table["state"] is not None and carry_over is not None:
            # What the last game taught the table (a card's printed value, say) is kept.
            options = {**options, **carry_over(table["state"])}
            _remember(db, game.NAME, options)
            decks.learn(db, game, table["options"], options)
        state = game.setup(options, [seat["name"] for seat in players], rng)
        game_no = table["game_no"] + 1
        version = _bump(db, table, state=state, status="playing", game_no=game_no,
                        options=options)
        _log(db, table, version, "host", "start", {}, state, game_no=game_no, sent=sent)
        version = _companion_plays(db, game, {**table, "version": version, "state": state,
                                              "status": "playing", "game_no": game_no}, rng)
    return version


class ReadFields(Mapping[str, str]):
    """An action's fields that remember which of them the game read.

    The log keeps only those: a form padded with fields no game uses stores nothing
    more, and the kept fields replay to the same state, since a game's decisions come
    from the values it reads. Iterating gives the names only; a game that looks at a
    group of fields reads each one of them (``companion.games.base.fields_named``)."""

    def __init__(self, fields: Mapping[str, str]) -> None:
        self._fields = dict(fields)
        self._read: set[str] = set()

    def __getitem__(self, key: str) -> str:
        value = self._fields[key]
        self._read.add(key)
        return value

    def __iter__(self) -> Iterator[str]:
        return iter(self._fields)

    def __len__(self) -> int:
        return len(self._fields)

    def read(self) -> dict[str, str]:
        """The fields the game read, to store."""
        return {key: value for key, value in self._fields.items() if key in self._read}


def act(db: Database, game: Game, table_id: int, seen_version: int, actor: int | str,
        action: Mapping[str, str], rng: random.Random, sent: str | None = None) -> int:
    """Apply one game action: the heart of play. RuleError passes through unchanged.
    The log keeps the fields the game read; an action too long to keep is refused."""
    if len(json.dumps(dict(action))) > ACTION_MAX:
        raise TableError(_("That was far more than any move needs, so the table did not "
                           "take it. Reload the page and use its buttons."), 413)
    fields = ReadFields(action)
    with write_transaction(db):
        table = TABLES.reread(db, table_id, None)
        if seen_version != table["version"] and not _commutes(db, game, table, seen_version,
                                                               actor, action):
            raise StaleVersion()
        if table["status"] != "playing":
            raise TableError(_("The game is not running.") if table["status"] == "lobby"
                             else _("This game is over."), 409)
        table = _applied(db, game, table, actor, fields, rng, sent)
        return _companion_plays(db, game, table, rng)


def _applied(db: Database, game: Game, table: Mapping[str, Any], actor: int | str,
             fields: ReadFields, rng: random.Random, sent: str | None = None
             ) -> dict[str, Any]:
    """One action applied, written and logged in the open transaction: the table as
    it is after it."""
    state = game.apply(table["state"], actor, fields, rng)
    status = "over" if game.is_over(state) else "playing"
    version = _bump(db, table, state=state, status=status)
    actor_name = TABLE if actor == TABLE else f"seat:{actor}"
    entry = _log(db, table, version, actor_name, "act", fields.read(), state,
                 previous=table["state"], sent=sent)
    if status == "over":
        # The club's history, in the transaction that ended the game: never a row
        # for a game that did not end, nor an end without its row.
        club_history.record(db, game, table["id"], table["game_no"], entry, state,
                            [seat["name"] for seat in _players(db, table["id"])])
    return {**table, "version": version, "state": state, "status": status}


def _companion_plays(db: Database, game: Game, table: Mapping[str, Any],
                     rng: random.Random) -> int:
    """While the game says the companion acts (it plays a seat, issue 39: Jack), its
    decisions are applied at once, in the transaction of the action that handed it the
    turn, each logged as that seat's action: an export holds them like anyone's, and
    nobody at the table waits on a button. Gives the version after the last."""
    seat_of = getattr(game, "companion_seat", None)
    while (table["status"] == "playing" and seat_of is not None
           and (seat := seat_of(table["state"])) is not None):
        action = game.companion_action(table["state"], rng)
        table = _applied(db, game, table, seat, ReadFields(action), rng)
    return int(table["version"])


def _commutes(db: Database, game: Game, table: Mapping[str, Any], seen_version: int,
              actor: int | str, action: Mapping[str, str]) -> bool:
    """Whether an action sent from a page ``seen_version`` shows may still be applied
    to the table as it is now: the game says so (its optional ``commutes``, from the
    state the page showed and the current one), and nothing but game actions happened
    since (no undo, no seat or host change, no new game): two detectives placing their
    own policemen at once are both accepted, anything else behind the table is refused."""
    commutes = getattr(game, "commutes", None)
    if commutes is None or table["status"] != "playing" or seen_version > table["version"]:
        return False
    since = list(db.query(
        "SELECT id, version, kind, undone, game_no FROM log WHERE table_id = ? AND "
        "version >= ? AND kind != 'rejoin' ORDER BY id", [table["id"], seen_version]))
    if (not since or since[0]["version"] != seen_version
            or since[0]["kind"] not in ("start", "act")
            or any(row["kind"] != "act" for row in since[1:])
            or any(row["undone"] or row["game_no"] != table["game_no"] for row in since)):
        return False
    seen = _state_of(db, since[0]["id"])
    return seen is not None and bool(commutes(seen, table["state"], actor, dict(action)))


def undo(db: Database, table_id: int, seen_version: int, sent: str | None = None,
         game: Game | None = None) -> int:
    """Take back the last game action of the current game (host only, confirmed);
    ``game``: the table's game, which says whether the companion plays a seat."""
    with write_transaction(db):
        table = TABLES.reread(db, table_id, seen_version)
        if table["status"] == "over":
            # The end revealed every secret: taking it back would let the table play on
            # knowing them.
            raise TableError(_("The game is over and everything was revealed, so it cannot "
                               "be undone. Deal a new game instead."))
        if table["status"] != "playing":
            raise TableError(_("There is no game action to undo."))
        entries = list(db.query(
            "SELECT id, kind, actor FROM log WHERE table_id = ? AND game_no = ? "
            "AND kind IN ('start', 'act') AND undone = 0 ORDER BY id DESC",
            [table_id, table["game_no"]]))
        taken = _taken_back(db, game, entries)
        if not taken:
            raise TableError(_("There is no game action to undo."))
        for entry in taken:
            db.execute("UPDATE log SET undone = 1 WHERE id = ?", [entry["id"]])
        before = entries[len(taken)]
        version = _bump(db, table, state=_state_of(db, before["id"]), status="playing")
        last = taken[-1]
        _log(db, table, version, "host", "undo", {"entry": last["id"], "by": last["actor"]},
             sent=sent)
    return version


def _taken_back(db: Database, game: Game | None,
                entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The entries an undo takes back, newest first: the last action, and with a seat
    the companion plays, every action back to the last one a person made (the
    companion's decisions after a mis-tap go with it, and are taken again when the
    table plays on). Nothing when no person's action is left to take back."""
    seat_of = getattr(game, "companion_seat", None)
    for count, entry in enumerate(entries):
        if entry["kind"] != "act" or count + 1 >= len(entries):
            return []
        if seat_of is None or seat_of(_state_of(db, entries[count + 1]["id"])) is None:
            return entries[:count + 1]
    return []


def hand_host(db: Database, table_id: int, seen_version: int, position: int,
              sent: str | None = None, game: Game | None = None) -> int:
    with write_transaction(db):
        table = TABLES.reread(db, table_id, seen_version)
        _not_the_companions(game, table, position)
        seat = next((s for s in _players(db, table_id) if s["position"] == position), None)
        if seat is None or seat["token_hash"] is None:
            raise TableError(_("Host controls can only go to a seat someone has joined."),
                             422)
        version = _bump(db, table, host_seat=position)
        _log(db, table, version, "host", "host", {"to": position}, sent=sent)
    return version


def take_host_back(db: Database, table_id: int, seen_version: int,
                   sent: str | None = None) -> int:
    """The host controls back on the laptop that created the table (its host cookie,
    checked by the caller), from whichever seat holds them: a lost phone never takes
    the controls with it."""
    with write_transaction(db):
        table = TABLES.reread(db, table_id, seen_version)
        if table["host_seat"] is None:
            raise TableError(_("The host controls are already on this laptop."), 409)
        version = _bump(db, table, host_seat=None)
        _log(db, table, version, "host", "host_back", {"from": table["host_seat"]}, sent=sent)
    return version


def replace_seat_token(db: Database, table_id: int, seen_version: int,
                       position: int, token: str | None = None,
                       sent: str | None = None, game: Game | None = None) -> tuple[str, int]:
    """A new private link for a seat whose phone was lost: every earlier link of the seat
    stops working at once. Gives the link's token and the table's new version: a new
    link is a new version, so every page says so at its top (``relinked``) and the phone
    that held the seat is told at once that it lost it.

    ``token``: the new link's token (random if None); the caller makes it new for every
    link (the web layer signs the whole form, the version it saw included). A form sent
    again (``sent`` already logged: its answer was lost) gets back the same ``token``
    while nothing changed since, the table still at the version that link made: the host
    then sees the link he may already have shown, not one more that replaces it. Once the
    table moved on, the resend is refused."""
    token = token or new_token()
    with write_transaction(db):
        made = next(iter(db.query("SELECT version FROM log WHERE table_id = ? AND sent = ? "
                                  "AND kind = 'rejoin'", [table_id, sent])), None)
        if made is not None:
            table = TABLES.reread(db, table_id, None)
            seat = _seat(db, table_id, position)
            if (table["version"] != made["version"] or seat is None
                    or seat["token_hash"] != hash_token(token)):
                raise TableError(_("That link was replaced since: make a new one."), 409)
            return token, made["version"]
        table = TABLES.reread(db, table_id, seen_version)
        _not_the_companions(game, table, position)
        seat = _seat(db, table_id, position)
        if seat is None or seat["token_hash"] is None:
            raise TableError(_("That seat has nobody in it yet: they can join normally."),
                             422)
        db.execute("UPDATE seats SET token_hash = ? WHERE table_id = ? AND position = ?",
                   [hash_token(token), table_id, position])
        version = _bump(db, table)
        _log(db, table, version, "host", "rejoin", {"seat": position}, sent=sent)
    return token, version


def _not_the_companions(game: Game | None, table: Mapping[str, Any], position: int) -> None:
    """A seat the companion plays holds its secrets (Jack's sheet): no link opens it and
    the host controls never go to it."""
    played = getattr(game, "companion_seats", None)
    if played is not None and position in played(table["options"]):
        raise TableError(_("The companion plays that seat: no phone can take it."), 422)


def _seat(db: Database, table_id: int, position: int) -> dict[str, Any] | None:
    return next((s for s in _players(db, table_id) if s["position"] == position), None)


def _game_label(game: Game, players: list[dict[str, Any]], seat: dict[str, Any],
                options: Mapping[str, Any]) -> Any:
    """A seat's label as the game names it (a Text, in the reader's language) while the
    game still names it so; else the label the database keeps."""
    labels = game.seat_labels(len(players), options)
    position = seat["position"]
    if 0 <= position < len(labels) and str(labels[position]) == seat["label"]:
        return labels[position]
    return seat["label"]


def remove_seat(db: Database, game: Game, table_id: int, seen_version: int,
                position: int, sent: str | None = None) -> int:
    """Remove an empty seat before the game starts; the others close up in order."""
    with write_transaction(db):
        table = TABLES.reread(db, table_id, seen_version)
        if table["status"] != "lobby":
            raise TableError(_("Seats can only be removed before the game starts."))
        players = _players(db, table_id)
        seat = next((s for s in players if s["position"] == position), None)
        if seat is None:
            raise TableError(_("That seat does not exist at this table."), 404)
        if seat["token_hash"] is not None:
            raise TableError(_("%(name)s is sitting there: only empty seats can go.",
                               name=seat["name"]))
        if position in game.FIXED_SEATS:
            raise TableError(_("The game cannot be played without %(seat)s.",
                               seat=_game_label(game, players, seat, table["options"])))
        if len(players) - 1 < game.MIN_PLAYERS:
            raise TableError(ngettext("%(game)s needs at least %(n)s player.",
                                      "%(game)s needs at least %(n)s players.",
                                      game.MIN_PLAYERS, game=game.TITLE))
        labels = game.seat_labels(len(players) - 1, table["options"])
        db.execute("DELETE FROM seats WHERE table_id = ? AND position = ?",
                   [table_id, position])
        remaining = [s for s in players if s["position"] != position]
        # Two passes so the (table, position) key never collides while closing up.
        for new_position, old in enumerate(remaining):
            db.execute("UPDATE seats SET position = ? WHERE table_id = ? AND position = ?",
                       [-1 - new_position, table_id, old["position"]])
        for new_position, label in enumerate(labels):
            db.execute("UPDATE seats SET position = ?, label = ? "
                       "WHERE table_id = ? AND position = ?",
                       [new_position, label, table_id, -1 - new_position])
        version = _bump(db, table)
        _log(db, table, version, "host", "remove_seat", {"label": seat["label"]}, sent=sent)
    return version


def close_table(db: Database, table_id: int, seen_version: int | None,
                sent: str | None = None) -> int:
    with write_transaction(db):
        table = TABLES.reread(db, table_id, seen_version)
        if table["status"] == "closed":
            raise TableError(_("This table has already ended."))
        version = _bump(db, table, status="closed")
        _log(db, table, version, "host", "close", sent=sent)
    return version


# --- join codes ----------------------------------------------------------

def free_code(db: Database, rng: random.Random) -> str:
    """A join code no table of this laptop has: four letters, more when four are crowded.
    Ended tables keep their codes, so an old link never opens someone else's table."""
    for length in range(CODE_LENGTH, CODE_LENGTH_MAX + 1):
        for _try in range(CODE_TRIES):
            code = "".join(rng.choice(CODE_LETTERS) for _letter in range(length))
            if not next(iter(db.query("SELECT 1 FROM tables WHERE code = ?", [code])), None):
                return code
    raise TableError(_("This laptop has no table code left to give. Start the companion "
                       "with a new database file (--db) for new tables."), 503)

