"""The watch on the database file while the server runs.

Deleted, replaced by another file or made read-only while the server runs, the file
could no longer keep what the server acknowledges (open connections would go on
writing to a deleted file, then a restart would find an empty one). So every request
and every write transaction checks it first (companion/db/__init__.py), and a write is
acknowledged only if the file was still the one the server opened when it committed.
A deleted or replaced file is still open in the server's connections: what it held is
copied to a new file beside it, and the terminal names that copy.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import stat
import threading
import time
from collections.abc import Callable
from pathlib import Path

from sqlite_utils import Database

from companion.words import Text, _

log = logging.getLogger("companion")


class DatabaseUnavailable(Exception):
    """The database file cannot keep anything more: ``message`` says why, for the
    laptop's terminal (``words``: the same, to translate: companion/terminal.py)."""

    def __init__(self, *sentences: Text) -> None:
        message = " ".join(sentences)
        super().__init__(message)
        self.message = message
        # The sentences side by side, each translated (no catalogue holds the pair).
        layout = " ".join(f"%(s{i})s" for i in range(len(sentences)))
        self.words = Text(layout, params={f"s{i}": text for i, text in enumerate(sentences)})


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
        raise DatabaseUnavailable(_(
            "the database file %(path)s is read-only, so nothing played could be saved. "
            "Make it writable (chmod u+w %(path)s) or choose another file with --db.",
            path=path))


class FileWatch:
    """The watch on the database file an app has just opened (held by the app, carried
    by its connections). ``spare`` gives an idle connection to copy a lost file from
    when the caller has none at hand, or None."""

    def __init__(self, path: str, spare: Callable[[], Database | None]) -> None:
        status = os.stat(path)
        self.path = path
        self.opened = (status.st_dev, status.st_ino)
        self.spare = spare
        self.reported: str | None = None
        """The problem last told to the terminal: told once, not on every request."""
        self.rescued: str | None = None
        """The copy made of the lost file from a connection that still had it open."""
        self._rescue_lock = threading.Lock()

    def lost(self) -> str | None:
        """What happened to the file: "deleted", "replaced", "read-only" or None."""
        try:
            status = os.stat(self.path)
        except FileNotFoundError:
            return "deleted"
        if (status.st_dev, status.st_ino) != self.opened:
            return "replaced"
        return "read-only" if _read_only(self.path, status) else None

    def check(self, db: Database | None = None) -> None:
        """Refuse (``DatabaseUnavailable``) if the file was deleted, replaced or made
        read-only, and tell the laptop's terminal what happened and what to do (once). A
        deleted or replaced file is first copied from a connection that still has it
        open (``db``, or a spare one), so what the server saved is not lost."""
        lost = self.lost()
        if lost is None:
            self.reported = None
            return
        path = self.path
        problem: list[Text]
        if lost == "read-only":
            problem = [_("the database file %(path)s became read-only. Nothing can be saved "
                         "until it is writable again (chmod u+w); the companion then "
                         "carries on by itself.", path=path)]
        else:
            with self._rescue_lock:
                if self.rescued is None:
                    self.rescued = self._rescue(db)
            problem = [_("the database file %(path)s was deleted while the companion was "
                         "running. Nothing can be saved any more, and every page says so.",
                         path=path) if lost == "deleted" else
                       _("the database file %(path)s was replaced by another file while the "
                         "companion was running. Nothing can be saved any more, and every "
                         "page says so.", path=path)]
            if self.rescued:
                problem.append(_("Everything saved until then was copied to %(copy)s: stop "
                                 "the companion and start it again with --db %(copy)s.",
                                 copy=self.rescued))
            elif lost == "deleted":
                problem.append(_("Stop the companion; put the file back from a backup "
                                 "before starting it again, or it starts with an empty "
                                 "database."))
            else:
                problem.append(_("Stop the companion and start it again to use the file "
                                 "there now."))
        refusal = DatabaseUnavailable(*problem)
        if self.reported != refusal.message:
            self.reported = refusal.message
            # The terminal's language (companion/terminal.py), imported here: the
            # database layer stays free of the catalogues until something goes wrong.
            from companion.terminal import say
            log.error("companion: %s", say(refusal.words))
        raise refusal

    def _rescue(self, db: Database | None) -> str | None:
        """Copy the lost file from a connection that still has it open (the system keeps
        an open file's content) to a new file beside it; the copy's path, or None when
        no connection was at hand or the copy failed."""
        if db is None:
            db = self.spare()
            if db is None:
                return None
        name = Path(self.path)
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
