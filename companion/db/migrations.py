"""The database's schema, built and upgraded by numbered migrations (sqlite-utils).

A migration's name (``m001_tables``, ...) is recorded in each database file it has run
on, so a name is never changed and a migration never edited once released: a change of
schema is a new migration at the end.
"""

from __future__ import annotations

import json

from sqlite_utils import Database
from sqlite_utils.migrations import Migrations

from companion import logstore
from companion.db import connect

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


@migrations()
def m005_sent(db: Database) -> None:
    """A log entry keeps the key of the form that asked for it (``tables.is_resend``), so
    a form sent twice is answered as the first time, never stored twice."""
    db.execute("ALTER TABLE log ADD COLUMN sent TEXT")
    db.execute("CREATE INDEX log_by_sent ON log (table_id, sent) WHERE sent IS NOT NULL")


@migrations()
def m006_decks(db: Database) -> None:
    """The laptop's decks: a game's card names, typed once and used by every later table
    of that game (``companion.decks``)."""
    db.execute("""
        CREATE TABLE decks (
            game TEXT PRIMARY KEY,
            fields TEXT NOT NULL
        )""")


@migrations()
def m007_replay_cursor(db: Database) -> None:
    """Where the host is in a night's replay (``tables.replay_cursor``), for the phones
    that follow the table screen: a row of its own, so that stepping through a replay
    never bumps the table's version (which would make every in-flight action stale)."""
    db.execute("""
        CREATE TABLE replay_cursors (
            table_id INTEGER PRIMARY KEY REFERENCES tables (id),
            game_no INTEGER NOT NULL,
            night INTEGER NOT NULL,
            step INTEGER NOT NULL
        )""")


@migrations()
def m008_results(db: Database) -> None:
    """The club's history (``companion.history``): one row per finished game, keyed on
    the log entry of its final state, its players with their names as typed and
    normalised, and the names the host merged. Games that ended before this migration
    are filled in once, at the next start (``companion.history.backfill``)."""
    db.execute("""
        CREATE TABLE results (
            id INTEGER PRIMARY KEY,
            table_id INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
            game_no INTEGER NOT NULL,
            log_id INTEGER NOT NULL UNIQUE REFERENCES log(id) ON DELETE CASCADE,
            game TEXT NOT NULL,
            ended_at TEXT NOT NULL,
            side TEXT NOT NULL,
            winner TEXT NOT NULL,
            ending TEXT NOT NULL,
            how TEXT NOT NULL,
            detail TEXT NOT NULL DEFAULT '{}',
            UNIQUE (table_id, game_no)
        )""")
    db.execute("CREATE INDEX results_by_time ON results (ended_at, id)")
    db.execute("CREATE INDEX results_by_game ON results (game, ended_at, id)")
    db.execute("""
        CREATE TABLE result_players (
            result_id INTEGER NOT NULL REFERENCES results(id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            name TEXT NOT NULL,
            key TEXT NOT NULL,
            jack INTEGER NOT NULL,
            side TEXT NOT NULL,
            won INTEGER NOT NULL,
            points INTEGER,
            PRIMARY KEY (result_id, position)
        )""")
    db.execute("CREATE INDEX result_players_by_key ON result_players (key, result_id)")
    db.execute("""
        CREATE TABLE name_merges (
            key TEXT PRIMARY KEY,
            into_key TEXT NOT NULL,
            created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
        )""")


@migrations()
def m009_result_words(db: Database) -> None:
    """The words of a finished game's result in every language: the history keeps
    ``winner`` and ``how`` in English (its exports, its filters) and, beside them, each
    as ``companion.words.Text.as_data()`` JSON, so a page draws them in its reader's
    language. Rows written before this keep NULL and show their English."""
    db.execute("ALTER TABLE results ADD COLUMN words TEXT")


@migrations()
def m010_imports(db: Database) -> None:
    """Where each finished game came from (docs/RULINGS.md#general, "The club's history is
    the laptop's"): ``results.source`` is "here" or "imported" (NULL for the rows written
    before, whose origin nobody kept), and ``imports`` one row per imported table: the
    games it brought (1 to ``game_no``), and whether they count in the history ("kept"),
    wait for the laptop ("waiting": a phone imported it) or were left out ("left_out")."""
    db.execute("ALTER TABLE results ADD COLUMN source TEXT")
    db.execute("""
        CREATE TABLE imports (
            table_id INTEGER PRIMARY KEY REFERENCES tables(id) ON DELETE CASCADE,
            game_no INTEGER NOT NULL,
            state TEXT NOT NULL CHECK (state IN ('kept', 'waiting', 'left_out')),
            created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
        )""")
    db.execute("CREATE INDEX imports_waiting ON imports (state, created_at)")


def migrate(path: str) -> None:
    """Create or upgrade the database file at ``path``."""
    db = connect(path)
    try:
        migrations.apply(db)
    finally:
        db.close()
