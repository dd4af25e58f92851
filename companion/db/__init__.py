"""The one SQLite database: its connections (a small pool, one per request on ``g``,
flaskr style) and the write transaction. Its schema is built by db/migrations.py; the
watch on its file is db/watch.py.

The database runs in WAL mode with ``synchronous=FULL`` so that an acknowledged action
survives a killed server or a laptop that loses power. A connection of the app carries
the app's watch on the file: every request checks it first, and every write transaction
before and after it commits.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from flask import Flask, current_app, g
from sqlite_utils import Database

from companion.db.watch import FileWatch


class FileDatabase(Database):
    """A sqlite-utils database that may carry the watch on its file, so that a write
    can check the file."""

    def __init__(self, conn: sqlite3.Connection, watch: FileWatch | None = None) -> None:
        super().__init__(conn, execute_plugins=False)
        self.watch = watch


def connect(path: str, create: bool = True, watch: FileWatch | None = None) -> FileDatabase:
    """A connection with the pragmas every connection needs. Without ``create`` a
    missing file is an error instead of a new empty database; with ``watch`` its writes
    check the file (``write_transaction``)."""
    target, uri = (path, False) if create else (Path(path).resolve().as_uri() + "?mode=rw",
                                                True)
    conn = sqlite3.connect(target, timeout=30, isolation_level=None, check_same_thread=False,
                           uri=uri)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("PRAGMA foreign_keys=ON")
    conn.execute("PRAGMA busy_timeout=30000")
    return FileDatabase(conn, watch)


POOL_SIZE = 16
"""Idle connections kept for the next requests: opening one (with its pragmas) and
closing it cost about a millisecond, a fifth of a phone's refresh (bench/clubnight.py)."""


def _pool(app: Flask) -> list[Database]:
    pools = app.extensions.setdefault("db_pool", {})
    return pools.setdefault(app.config["DATABASE"], [])


def watch_file(app: Flask) -> None:
    """Watch the database file the app has just opened (``file_watch``)."""
    pool = _pool(app)

    def spare() -> Database | None:
        try:
            return pool.pop()  # its file is gone: it never goes back to the pool
        except IndexError:
            return None

    app.extensions["db_watch"] = FileWatch(app.config["DATABASE"], spare)


def file_watch() -> FileWatch:
    """The watch on this app's database file: its ``check()`` refuses when the file was
    lost (companion/db/watch.py)."""
    return current_app.extensions["db_watch"]


def get_db() -> Database:
    if "db" not in g:
        try:
            g.db = _pool(current_app).pop()
        except IndexError:
            watch = file_watch()
            try:
                # Never a new empty file where the server's database was.
                g.db = connect(current_app.config["DATABASE"], create=False, watch=watch)
            except sqlite3.OperationalError:
                watch.check()
                raise
    return g.db


def close_db(_exc: BaseException | None = None) -> None:
    db = g.pop("db", None)
    if db is None:
        return
    pool = _pool(current_app)
    if len(pool) < POOL_SIZE and not db.conn.in_transaction:
        pool.append(db)
    else:
        db.close()


# Writers of this process queue here before SQLite's write lock: a writer that finds
# the database busy would otherwise poll it with SQLite's growing back-off sleeps, and
# bench/clubnight.py measured a p95 wait of ~1 s for the lock at 15 actions a second.
_writers = threading.RLock()


@contextmanager
def write_transaction(db: Database) -> Iterator[Database]:
    """One write transaction that takes the write lock up front.

    ``BEGIN IMMEDIATE`` means two phones acting at the same instant are
    serialised before either reads the version, so the version check cannot
    be raced. Writers of this process wait their turn on a lock first, woken
    when it is free instead of polling; another process (the terminal's export or
    import) still gets the busy timeout.
    """
    watch = db.watch if isinstance(db, FileDatabase) else None
    with _writers:
        if watch:
            watch.check(db)
        db.conn.execute("BEGIN IMMEDIATE")
        try:
            yield db
        except BaseException:
            db.conn.execute("ROLLBACK")
            raise
        if watch and watch.lost():
            # Lost during the transaction: keep none of it, not even in a rescued copy.
            db.conn.execute("ROLLBACK")
            watch.check(db)
        db.conn.execute("COMMIT")
        if watch:
            # Lost while committing: the change went to a file that is gone, so it is
            # not acknowledged.
            watch.check(db)
