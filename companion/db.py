"""The one SQLite database: connections, migrations, the write transaction, and a
watch on its file.

One connection per request lives on ``g`` (flaskr style). The database runs in
WAL mode with ``synchronous=FULL`` so that an acknowledged action survives a
killed server or a laptop that loses power.

The file is watched: deleted, replaced by another file or made read-only while the
server runs, it could no longer keep what the server acknowledges (open connections
would go on writing to a deleted file, then a restart would find an empty one). So
every request and every write transaction checks it first, and a write is
acknowledged only if the file was still the one the server opened when it committed.
A deleted or replaced file is still open in the server's connections: what it held is
copied to a new file beside it, and the terminal names that copy.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import stat
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from flask import current_app, g, has_app_context
from sqlite_utils import Database
from sqlite_utils.migrations import Migrations

from companion import logstore

migrations = Migrations("companion")


@migrations()
def m001_tables(db: Database) -> None:
    db.execute("""
        CREATE TABLE tables (
            id INTEGER PRIMARY KEY,
            code TEXT NOT NULL UNIQUE,
            game TEXT NOT NULL,
            options TEXT NOT NULL,
            status TEXT NOT NULL DEFAULT 'lobby'
                CHECK (status IN ('lobby', 'playing', 'over', 'closed')),
            state TEXT,
            game_no INTEGER NOT NULL DEFAULT 0,
            version INTEGER NOT NULL DEFAULT 1,
            host_token_hash TEXT NOT NULL,
            host_seat INTEGER,
            created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
            updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
        )""")
    db.execute("""
        CREATE TABLE seats (
            table_id INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            label TEXT NOT NULL,
            name TEXT,
            token_hash TEXT UNIQUE,
            PRIMARY KEY (table_id, position)
        )""")
    db.execute("""
        CREATE TABLE log (
            id INTEGER PRIMARY KEY,
            table_id INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
            version INTEGER NOT NULL,
            game_no INTEGER NOT NULL,
            actor TEXT NOT NULL,
            kind TEXT NOT NULL,
            action TEXT NOT NULL DEFAULT '{}',
            state TEXT,
            undone INTEGER NOT NULL DEFAULT 0,
            created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
        )""")
    db.execute("CREATE INDEX log_by_table ON log (table_id, id)")
    db.execute("""
        CREATE TABLE settings (
            key TEXT PRIMARY KEY,
            value TEXT NOT NULL
        )""")
    db.execute("""
        CREATE TABLE remembered_options (
            game TEXT PRIMARY KEY,
            options TEXT NOT NULL
        )""")


@migrations()
def m002_tournaments(db: Database) -> None:
    """London 1888 tournaments (companion/tournaments/storage.py): players, rounds, the tables of a
    round (each a London 1888 table of the platform), their seats, and the results the
    organiser typed in or corrected (a table's own outcome is read from the table)."""
    db.execute("""
        CREATE TABLE tournaments (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            rounds INTEGER NOT NULL,
            table_size INTEGER NOT NULL,
            late_murder INTEGER NOT NULL,
            tiebreaks TEXT NOT NULL,
            organiser_token_hash TEXT NOT NULL,
            version INTEGER NOT NULL DEFAULT 1,
            created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
        )""")
    db.execute("""
        CREATE TABLE tournament_players (
            id INTEGER PRIMARY KEY,
            tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
            name TEXT NOT NULL,
            club TEXT NOT NULL DEFAULT '',
            status TEXT NOT NULL DEFAULT 'registered'
                CHECK (status IN ('registered', 'present', 'dropped')),
            lot INTEGER NOT NULL,
            UNIQUE (tournament_id, name)
        )""")
    db.execute("""
        CREATE TABLE tournament_rounds (
            id INTEGER PRIMARY KEY,
            tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
            number INTEGER NOT NULL,
            created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
            UNIQUE (tournament_id, number)
        )""")
    db.execute("""
        CREATE TABLE tournament_tables (
            id INTEGER PRIMARY KEY,
            round_id INTEGER NOT NULL REFERENCES tournament_rounds(id) ON DELETE CASCADE,
            number INTEGER NOT NULL,
            game_table_id INTEGER REFERENCES tables(id) ON DELETE SET NULL,
            UNIQUE (round_id, number)
        )""")
    db.execute("""
        CREATE TABLE tournament_seats (
            tournament_table_id INTEGER NOT NULL
                REFERENCES tournament_tables(id) ON DELETE CASCADE,
            round_id INTEGER NOT NULL REFERENCES tournament_rounds(id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            player_id INTEGER NOT NULL REFERENCES tournament_players(id),
            PRIMARY KEY (tournament_table_id, position),
            UNIQUE (round_id, player_id)
        )""")
    db.execute("""
        CREATE TABLE tournament_results (
            id INTEGER PRIMARY KEY,
            tournament_table_id INTEGER NOT NULL
                REFERENCES tournament_tables(id) ON DELETE CASCADE,
            kind TEXT NOT NULL CHECK (kind IN ('entered', 'correction', 'imported')),
            outcome TEXT NOT NULL,
            reason TEXT NOT NULL DEFAULT '',
            created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
        )""")
    db.execute("CREATE INDEX tournament_results_by_table "
               "ON tournament_results (tournament_table_id, id)")


@migrations()
def m003_lean_log(db: Database) -> None:
    """The log keeps a state as a compressed delta from an earlier entry's state
    (``companion/logstore.py``) instead of whole after every action: ``packed`` holds the
    whole state (``base`` NULL) or the delta from entry ``base``, ``depth`` deltas from
    a whole one. The old log is rewritten so (its ids kept) and its ``state`` column
    goes with the old table (SQLite before 3.35 cannot drop a column). A table's
    current state is kept compressed too (``tables.state``: zlib'd JSON)."""
    db.execute("""
        CREATE TABLE log_lean (
            id INTEGER PRIMARY KEY,
            table_id INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
            version INTEGER NOT NULL,
            game_no INTEGER NOT NULL,
            actor TEXT NOT NULL,
            kind TEXT NOT NULL,
            action TEXT NOT NULL DEFAULT '{}',
            base INTEGER,
            depth INTEGER NOT NULL DEFAULT 0,
            packed BLOB,
            undone INTEGER NOT NULL DEFAULT 0,
            created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')))""")
    games: dict[tuple[int, int], tuple[tuple[int, int, object], tuple[int, object]]] = {}
    # Row by row: an old night's log may hold a gigabyte of whole states.
    for row in db.conn.execute("SELECT id, table_id, version, game_no, actor, kind, action, "
                               "state, undone, created_at FROM log ORDER BY id"):
        entry_id, table_id, version, game_no, actor, kind, action, text, undone, at = row
        base, depth, packed = None, 0, None
        if text is not None:
            state = json.loads(text)
            known = games.get((table_id, game_no))
            base, depth, packed = logstore.encode(
                state, known[0] if known else None, lambda known=known: known[1])
            first = known[1] if known else (entry_id, state)
            games[(table_id, game_no)] = ((entry_id, depth, state), first)
        db.execute("INSERT INTO log_lean (id, table_id, version, game_no, actor, kind, action, "
                   "base, depth, packed, undone, created_at) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   [entry_id, table_id, version, game_no, actor, kind, action, base, depth,
                    packed, undone, at])
    db.execute("DROP TABLE log")
    db.execute("ALTER TABLE log_lean RENAME TO log")
    db.execute("CREATE INDEX log_by_table ON log (table_id, id)")
    for table_id, text in db.execute("SELECT id, state FROM tables "
                                     "WHERE state IS NOT NULL").fetchall():
        db.execute("UPDATE tables SET state = ? WHERE id = ?",
                   [logstore.pack(json.loads(text), 6), table_id])


@migrations(transactional=False)
def m004_vacuum(db: Database) -> None:
    """Give back the room the whole states took (m003): without it the file keeps its
    size until new play fills the freed pages. Once, at the first start after m003;
    SQLite's VACUUM is itself all or nothing."""
    if db.execute("PRAGMA freelist_count").fetchone()[0] > 0:
        db.execute("VACUUM")


class FileDatabase(Database):
    """A sqlite-utils database that knows its file, so a write can check the file."""

    def __init__(self, conn: sqlite3.Connection, path: str) -> None:
        super().__init__(conn, execute_plugins=False)
        self.path = path


def connect(path: str, create: bool = True) -> FileDatabase:
    """A connection with the pragmas every connection needs. Without ``create`` a
    missing file is an error instead of a new empty database."""
    target, uri = (path, False) if create else (Path(path).resolve().as_uri() + "?mode=rw",
                                                True)
    conn = sqlite3.connect(target, timeout=30, isolation_level=None, check_same_thread=False,
                           uri=uri)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("PRAGMA foreign_keys=ON")
    conn.execute("PRAGMA busy_timeout=30000")
    return FileDatabase(conn, path)


# --- the watch on the file -------------------------------------------------

log = logging.getLogger("companion")


class DatabaseUnavailable(Exception):
    """The database file cannot keep anything more: ``message`` says why, for the
    laptop's terminal."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


_watched: dict[str, tuple[int, int]] = {}
"""Each watched file's (device, inode) when the server opened it."""
_reported: dict[str, str] = {}
"""The problem last told to the terminal, per file: told once, not on every request."""
_rescued: dict[str, str] = {}
"""Per lost file, the copy made of it from a connection that still had it open."""
_rescue_lock = threading.Lock()


def _read_only(path: str, status: os.stat_result) -> bool:
    # os.access alone is not enough: it says yes to root whatever the mode, and an
    # open connection would keep writing anyway. A file nobody may write is read-only.
    return not status.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH) or not os.access(
        path, os.W_OK)


def require_writable(path: str) -> None:
    """At start: a database file that exists must be writable."""
    try:
        status = os.stat(path)
    except FileNotFoundError:
        return
    if stat.S_ISREG(status.st_mode) and _read_only(path, status):
        raise DatabaseUnavailable(
            f"the database file {path} is read-only, so nothing played could be saved. "
            f"Make it writable (chmod u+w {path}) or choose another file with --db.")


def watch(path: str) -> None:
    """Watch the database file the server has just opened (``check`` compares with it)."""
    status = os.stat(path)
    _watched[path] = (status.st_dev, status.st_ino)
    _reported.pop(path, None)
    _rescued.pop(path, None)


def _lost(path: str) -> str | None:
    """What happened to a watched file: "deleted", "replaced", "read-only" or None."""
    opened = _watched.get(path)
    if opened is None:
        return None
    try:
        status = os.stat(path)
    except FileNotFoundError:
        return "deleted"
    if (status.st_dev, status.st_ino) != opened:
        return "replaced"
    return "read-only" if _read_only(path, status) else None


def check(path: str, db: Database | None = None) -> None:
    """Refuse (``DatabaseUnavailable``) if the watched file was deleted, replaced or made
    read-only, and tell the laptop's terminal what happened and what to do (once). A
    deleted or replaced file is first copied from a connection that still has it open
    (``db``, or an idle one of the pool), so what the server saved is not lost."""
    lost = _lost(path)
    if lost is None:
        _reported.pop(path, None)
        return
    if lost == "read-only":
        problem = (f"the database file {path} became read-only. Nothing can be saved "
                   "until it is writable again (chmod u+w); the companion then carries "
                   "on by itself.")
    else:
        with _rescue_lock:
            if path not in _rescued:
                copy = _rescue(path, db)
                if copy:
                    _rescued[path] = copy
        problem = (f"the database file {path} was "
                   + ("deleted" if lost == "deleted" else "replaced by another file")
                   + " while the companion was running. Nothing can be saved any more, and "
                   "every page says so. ")
        if path in _rescued:
            problem += (f"Everything saved until then was copied to {_rescued[path]}: stop "
                        f"the companion and start it again with --db {_rescued[path]}.")
        elif lost == "deleted":
            problem += ("Stop the companion; put the file back from a backup before "
                        "starting it again, or it starts with an empty database.")
        else:
            problem += "Stop the companion and start it again to use the file there now."
    if _reported.get(path) != problem:
        _reported[path] = problem
        log.error("companion: %s", problem)
    raise DatabaseUnavailable(problem)


def _rescue(path: str, db: Database | None) -> str | None:
    """Copy a deleted or replaced database from a connection that still has it open (the
    system keeps an open file's content) to a new file beside it; the copy's path, or
    None when no connection was at hand or the copy failed."""
    if db is None:
        if not has_app_context() or current_app.config["DATABASE"] != path:
            return None
        try:
            db = _pool().pop()  # its file is gone: it never goes back to the pool
        except IndexError:
            return None
    name = Path(path)
    copy = name.with_name(f"{name.stem}-rescued-{time.strftime('%Y%m%d-%H%M%S')}"
                          f"{name.suffix}")
    try:
        target = sqlite3.connect(copy)
        try:
            db.conn.backup(target)
        finally:
            target.close()
    except (sqlite3.Error, OSError):
        copy.unlink(missing_ok=True)
        return None
    return str(copy)


def migrate(path: str) -> None:
    """Create or upgrade the database file at ``path``."""
    db = connect(path)
    try:
        migrations.apply(db)
    finally:
        db.close()


POOL_SIZE = 16
"""Idle connections kept for the next requests: opening one (with its pragmas) and
closing it cost about a millisecond, a fifth of a phone's refresh (bench/clubnight.py)."""


def _pool() -> list[Database]:
    pools = current_app.extensions.setdefault("db_pool", {})
    return pools.setdefault(current_app.config["DATABASE"], [])


def get_db() -> Database:
    if "db" not in g:
        try:
            g.db = _pool().pop()
        except IndexError:
            path = current_app.config["DATABASE"]
            try:
                # Never a new empty file where the server's database was.
                g.db = connect(path, create=False)
            except sqlite3.OperationalError:
                check(path)
                raise
    return g.db


def close_db(_exc: BaseException | None = None) -> None:
    db = g.pop("db", None)
    if db is None:
        return
    pool = _pool()
    if len(pool) < POOL_SIZE and not db.conn.in_transaction:
        pool.append(db)
    else:
        db.close()


# Writers of this process queue here before SQLite's write lock: a writer that finds
# the database busy would otherwise poll it with SQLite's growing back-off sleeps, and
# bench/clubnight.py measured a p95 wait of ~1 s for the lock at 15 actions a second.
_writers = threading.RLock()


@contextmanager
def immediate(db: Database) -> Iterator[Database]:
    """One write transaction that takes the write lock up front.

    ``BEGIN IMMEDIATE`` means two phones acting at the same instant are
    serialised before either reads the version, so the version check cannot
    be raced. Writers of this process wait their turn on a lock first, woken
    when it is free instead of polling; another process (the terminal's export or
    import) still gets the busy timeout.
    """
    path = db.path if isinstance(db, FileDatabase) else None
    with _writers:
        if path:
            check(path, db)
        db.conn.execute("BEGIN IMMEDIATE")
        try:
            yield db
        except BaseException:
            db.conn.execute("ROLLBACK")
            raise
        if path and _lost(path):
            # Lost during the transaction: keep none of it, not even in a rescued copy.
            db.conn.execute("ROLLBACK")
            check(path, db)
        db.conn.execute("COMMIT")
        if path:
            # Lost while committing: the change went to a file that is gone, so it is
            # not acknowledged.
            check(path, db)
