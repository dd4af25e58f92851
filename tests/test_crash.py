"""Killing the real server mid-game loses no acknowledged action (SIGKILL, restart)."""

from __future__ import annotations

import http.client
import json
import random
import sqlite3
import threading
import time

import pytest

from tests.httpdevice import HttpDevice
from tests.realserver import Server

pytestmark = pytest.mark.slow


def _start_table(url: str) -> tuple[HttpDevice, list[HttpDevice]]:
    laptop = HttpDevice(url)
    code = laptop.create("tally", 3)
    phones = []
    for seat, name in enumerate(["Ann", "Bob", "Cy"]):
        phone = HttpDevice(url)
        assert phone.join(code, seat, name).status == 303
        phones.append(phone)
    assert laptop.host("start", laptop.version()).status == 303
    return laptop, phones


def _play_until_killed(laptop: HttpDevice, phones: list[HttpDevice]) -> list[int]:
    """Phones act in turn as fast as they can; returns the versions acknowledged (303)."""
    acknowledged: list[int] = []
    try:
        while True:
            for phone in phones:
                version = phone.version()
                reply = phone.act("add", version, amount=1)
                if reply.status == 303:
                    acknowledged.append(version + 1)
                elif "over" in reply.text:
                    laptop.host("start", laptop.version())
    except (OSError, http.client.HTTPException):
        return acknowledged


def _check_database(db_path: str) -> None:
    """Every table's state is the state of the last effective entry of its log."""
    conn = sqlite3.connect(db_path)
    try:
        for table_id, state, version in conn.execute("SELECT id, state, version FROM tables"):
            last = conn.execute(
                "SELECT state FROM log WHERE table_id = ? AND kind IN ('start', 'act') "
                "AND undone = 0 ORDER BY id DESC LIMIT 1", [table_id]).fetchone()
            if state is not None:
                assert json.loads(last[0]) == json.loads(state)
            assert conn.execute("SELECT max(version) FROM log WHERE table_id = ?",
                                [table_id]).fetchone()[0] == version
    finally:
        conn.close()


@pytest.mark.parametrize("round_", range(3))
def test_sigkill_mid_game_loses_no_acknowledged_action(tmp_path, round_):
    server = Server(tmp_path / "companion.sqlite").start()
    try:
        laptop, phones = _start_table(server.url)
        killer = threading.Timer(random.uniform(0.3, 1.2), server.kill)
        killer.start()
        acknowledged = _play_until_killed(laptop, phones)
        killer.join()
        assert acknowledged, "no action was acknowledged before the kill"

        conn = sqlite3.connect(server.db)
        logged = {row[0] for row in conn.execute(
            "SELECT version FROM log WHERE kind = 'act'")}
        conn.close()
        missing = [version for version in acknowledged if version not in logged]
        assert not missing, f"acknowledged actions lost: {missing}"
        _check_database(str(server.db))

        server.start()  # the same database, the same port
        time.sleep(0.1)
        assert laptop.get(f"/t/{laptop.code}").status == 200
        for phone in phones:
            page = phone.get(f"/t/{phone.code}/me")
            assert page.status == 200 and phone.code in page.text
        version = phones[0].version()
        assert version == max(logged | {version})
    finally:
        server.stop()
