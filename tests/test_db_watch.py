"""The database file is watched (issue 15, point 5).

Deleted (with or without its -wal and -shm), replaced by another file or made
read-only while the server runs, the database could no longer keep what the server
acknowledges: open connections wrote on into a deleted file and a restart found an
empty one. Now every page answers 503 with a message, the terminal is told once with
the file's path and what to do, and no change is acknowledged that the file did not
keep. What was saved before a deletion or replacement is copied from a connection that
still has the old file open. A read-only database stops the start with exit status 2.

Tests run as root here, where chmod does not stop a write: the watch reads the file's
mode bits (a file nobody may write is read-only, whoever the server runs as) as well
as ``os.access`` (which also answers for read-only mounts and other users).
"""

from __future__ import annotations

import logging
import os
import re
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.db.migrations import migrate
from tests.support import tally
from tests.support.httpdevice import HttpDevice
from tests.support.realserver import ROOT, free_port
from tests.support.scripted import parse_forms
from tests.support.webflow import Device, seated_table

MESSAGE = "The laptop can no longer save the game"


def delete(path: Path) -> None:
    path.unlink()


def delete_with_wal_and_shm(path: Path) -> None:
    for name in (path.name, path.name + "-wal", path.name + "-shm"):
        (path.parent / name).unlink(missing_ok=True)


def replace(path: Path) -> None:
    other = path.parent / "other.sqlite"
    migrate(str(other))
    os.replace(other, path)


def make_read_only(path: Path) -> None:
    path.chmod(0o444)


BREAKS = {"deleted": (delete, "was deleted"),
          "deleted with -wal and -shm": (delete_with_wal_and_shm, "was deleted"),
          "replaced": (replace, "was replaced by another file"),
          "read-only": (make_read_only, "became read-only")}


def rescued(told: str) -> Path:
    """The copy of a lost database the terminal names."""
    found = re.search(r"copied to (\S+): stop the companion and start it again with --db",
                      told)
    assert found, told
    copy = Path(found.group(1))
    assert copy.exists()
    return copy


def version_in_file(path: Path, code: str) -> int | None:
    if not path.exists():
        return None
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        row = conn.execute("SELECT version FROM tables WHERE code = ?", [code]).fetchone()
    finally:
        conn.close()
    return row[0] if row else None


@pytest.mark.parametrize("name", BREAKS)
def test_a_lost_database_refuses_every_page_and_tells_the_terminal_once(app, caplog, name):
    break_it, problem = BREAKS[name]
    path = Path(app.config["DATABASE"])
    laptop, (ann, bob) = seated_table(app, "tally", ["Ann", "Bob"])
    assert ann.act("add", amount=2).status_code == 303
    version = laptop.version()
    stranger = Device(app)
    break_it(path)
    caplog.clear()
    with caplog.at_level(logging.ERROR, logger="companion"):
        replies = [ann.act("add", amount=3, version=version), ann.phone(), laptop.screen(),
                   laptop.host("undo", version=version), laptop.get("/"),
                   laptop.post("/new/tally", {"players": "2"}),
                   stranger.get(f"/j/{laptop.code}"),
                   stranger.post(f"/j/{laptop.code}", {"seat": "0", "name": "Cy"}),
                   bob.act("add", amount=1, version=version),
                   laptop.get(f"/t/{laptop.code}/version"),
                   ann.get(f"/t/{laptop.code}/me", headers={"HX-Request": "true"})]
    for reply in replies:
        assert reply.status_code == 503
        assert MESSAGE in reply.text
    assert laptop.get("/static/app.css").status_code == 200  # the message stays readable
    told = [r.getMessage() for r in caplog.records if r.name == "companion"]
    assert len(told) == 1, told
    assert str(path) in told[0] and problem in told[0]
    assert "Traceback" not in told[0]
    # Nothing refused was stored. (A file put in place of the database still reads the
    # old one's -wal, which SQLite applies to whatever file has the name.)
    assert version_in_file(path, laptop.code) in (None, version)
    if name != "read-only":  # what was saved is copied from a connection still open
        copy = rescued(told[0])
        assert version_in_file(copy, laptop.code) == version
        assert copy.parent == path.parent and copy != path
    if name == "read-only":
        path.chmod(0o644)  # writable again: play carries on by itself
        assert bob.act("add", amount=3).status_code == 303
        assert laptop.version() == version + 1
    elif name.startswith("deleted"):
        assert not path.exists()  # never a new empty database in its place


def test_a_database_lost_while_an_action_is_stored_is_not_acknowledged(app, monkeypatch,
                                                                          caplog):
    path = Path(app.config["DATABASE"])
    laptop, (ann, _bob) = seated_table(app, "tally", ["Ann", "Bob"])
    play = tally.apply

    def play_then_lose_the_file(*args):
        state = play(*args)
        delete_with_wal_and_shm(path)
        return state

    monkeypatch.setattr(tally, "apply", play_then_lose_the_file)
    version = laptop.version()
    with caplog.at_level(logging.ERROR, logger="companion"):
        reply = ann.act("add", amount=2, version=version)
    assert reply.status_code == 503 and MESSAGE in reply.text
    monkeypatch.setattr(tally, "apply", play)
    assert ann.act("add", amount=2, version=version).status_code == 503
    told = [r.getMessage() for r in caplog.records if r.name == "companion"]
    assert len(told) == 1  # the refused action is not in the rescued copy either
    assert version_in_file(rescued(told[0]), laptop.code) == version


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=30)


@pytest.mark.slow
def test_a_read_only_database_stops_the_start_with_a_message(tmp_path):
    path = tmp_path / "c.sqlite"
    migrate(str(path))
    path.chmod(0o444)
    result = run("serve", "--host", "127.0.0.1", "--port", str(free_port()), "--db",
                 str(path), "--no-browser")
    assert result.returncode == 2
    assert f"the database file {path} is read-only" in result.stderr
    assert "chmod u+w" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.slow
def test_the_real_server_notices_a_deleted_database_and_says_so(tmp_path):
    """`companion serve` as the host runs it: after the file is deleted, nothing more is
    acknowledged, every page says why, and the terminal tells the host once."""
    path = tmp_path / "c.sqlite"
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port",
         str(port), "--db", str(path), "--no-browser"],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        url = f"http://127.0.0.1:{port}"
        laptop = HttpDevice(url)
        deadline = time.monotonic() + 20
        while True:
            try:
                laptop.get("/")
                break
            except OSError:
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.1)
        setup = next(form for form in parse_forms(laptop.get("/new/mrjack").text)
                     if form.action.endswith("/new/mrjack")).defaults()
        code = laptop.create("mrjack", 2, **{k: v for k, v in setup.items()
                                             if k not in ("csrf", "players")})
        assert HttpDevice(url).join(code, 0, "Ann").status == 303
        delete_with_wal_and_shm(path)
        for reply in (laptop.post("/new/mrjack", {**setup, "players": 2}),
                      HttpDevice(url).join(code, 1, "Bob"), laptop.get(f"/t/{code}")):
            assert reply.status == 503 and MESSAGE in reply.text
        assert not path.exists()
    finally:
        server.kill()
        _out, err = server.communicate(timeout=10)
    assert err.count("was deleted while the companion was running") == 1, err
    assert str(path) in err and "Traceback" not in err
    copy = rescued(err)  # Ann's seat, acknowledged before the loss, is in the copy
    conn = sqlite3.connect(copy)
    try:
        assert conn.execute("SELECT name FROM seats JOIN tables ON tables.id = table_id "
                            "WHERE code = ? AND position = 0", [code]).fetchone() == ("Ann",)
    finally:
        conn.close()
