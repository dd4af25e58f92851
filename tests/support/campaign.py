"""Scripted tables on a real server, and one round of the crash campaign.

Used by tests/test_crash.py (20 rounds) and bench/crash_campaign.py (200 and more):
each table is played by its own thread through HTTP, as phones and the laptop would,
until the server is killed with SIGKILL at a random instant. Then the database must
hold every acknowledged action, every state must be the replay of its log, and after
a restart every page must load.
"""

from __future__ import annotations

import http.client
import random
import sqlite3
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion import logstore
from companion.games import discover
from companion.games.base import TABLE, Game
from tests.support import tally
from tests.support.httpdevice import HttpDevice
from tests.support.realserver import Server
from tests.support.scripted import check_database, choose, page_version, parse_forms

ROOT = Path(__file__).resolve().parents[2]
NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal")


def playable_games() -> dict[str, Game]:
    """Every product game that has landed with its web part (its three templates)."""
    folder = ROOT / "templates" / "games"
    return {name: game for name, game in discover().items()
            if all((folder / name / part).exists()
                   for part in ("_options.html", "_table.html", "_seat.html"))}


def server_games() -> dict[str, Game]:
    """The games tests/support/server.py serves: the product's and the test game."""
    return {**discover(), tally.NAME: tally}


@dataclass
class ScriptedTable:
    """A table on a real server: the host's laptop and one phone per seat."""

    game: Game
    laptop: HttpDevice
    phones: list[HttpDevice]
    acknowledged: list[int] = field(default_factory=list)

    @property
    def code(self) -> str:
        return self.laptop.code

    def devices(self) -> list[tuple[int | str, HttpDevice]]:
        return [(TABLE, self.laptop), *enumerate(self.phones)]

    def page(self, viewer: int | str) -> str:
        return f"/t/{self.code}" if viewer == TABLE else f"/t/{self.code}/me"


def open_table(url: str, game: Game, players: int) -> ScriptedTable:
    """Create a table with the setup form's defaults (numbers only: Form.scripted_setup), seat
    everyone, deal."""
    laptop = HttpDevice(url)
    form = next(f for f in parse_forms(laptop.get(f"/new/{game.NAME}").text)
                if f.action.endswith(f"/new/{game.NAME}"))
    laptop.create(game.NAME, players, **{k: v for k, v in form.scripted_setup().items()
                                         if k not in ("csrf", "players")})
    phones = []
    for seat in range(players):
        phone = HttpDevice(url)
        reply = phone.join(laptop.code, seat, NAMES[seat])
        assert reply.status == 303, reply.text[:300]
        phones.append(phone)
    assert laptop.host("start", laptop.version()).status == 303
    return ScriptedTable(game, laptop, phones)


def read_table(db: Path, code: str) -> tuple[dict[str, Any] | None, int, str]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30)
    try:
        state, version, status = conn.execute(
            "SELECT state, version, status FROM tables WHERE code = ?", [code]).fetchone()
    finally:
        conn.close()
    return (logstore.unpack(state) if state else None), version, status


def play_one(table: ScriptedTable, db: Path, rng: random.Random) -> bool:
    """One scripted move (or a new deal when the game is over); False if none was made."""
    state, version, status = read_table(db, table.code)
    if status == "over":
        if table.laptop.host("start", version).status == 303:
            table.acknowledged.append(version + 1)
            return True
        return False
    devices = table.devices()
    rng.shuffle(devices)
    for viewer, device in devices:
        if state is None or not table.game.actions(state, viewer):
            continue
        html = device.get(table.page(viewer)).text
        if page_version(html) != version:
            return False
        picked = choose(table.game, state, viewer, html, rng)
        if picked is None:
            continue
        url, fields = picked
        reply = device.post(url, fields)
        if reply.status == 303:
            table.acknowledged.append(int(fields["version"]) + 1)
            return True
        return False
    return False


def play_until_killed(table: ScriptedTable, db: Path, rng: random.Random) -> None:
    try:
        while True:
            play_one(table, db, rng)
    except (OSError, http.client.HTTPException):
        return


def logged_versions(db: Path) -> dict[str, set[int]]:
    conn = sqlite3.connect(db)
    try:
        found: dict[str, set[int]] = {}
        for code, version in conn.execute(
                "SELECT tables.code, log.version FROM log JOIN tables ON tables.id = log.table_id "
                "WHERE log.kind IN ('act', 'start')"):
            found.setdefault(code, set()).add(version)
        return found
    finally:
        conn.close()


def crash_round(server: Server, tables: list[ScriptedTable], rng: random.Random,
                earliest: float = 0.05, latest: float = 0.8) -> dict[str, int]:
    """Play every table until a SIGKILL at a random instant; check; restart; check pages.
    Returns counts for the report."""
    for table in tables:
        table.acknowledged.clear()
    threads = [threading.Thread(target=play_until_killed,
                                args=(table, server.db, random.Random(rng.random())))
               for table in tables]
    killer = threading.Timer(rng.uniform(earliest, latest), server.kill)
    for thread in threads:
        thread.start()
    killer.start()
    killer.join()
    for thread in threads:
        thread.join(30)
        assert not thread.is_alive(), "a player did not notice the server died"

    logged = logged_versions(server.db)
    for table in tables:
        missing = sorted(set(table.acknowledged) - logged.get(table.code, set()))
        assert not missing, f"{table.game.NAME} {table.code}: acknowledged actions lost: {missing}"
    replayed = check_database(str(server.db), server_games())

    server.start()
    for table in tables:
        screen = table.laptop.get(f"/t/{table.code}")
        assert screen.status == 200 and table.code in screen.text, (
            f"{table.game.NAME} {table.code}: the table screen answers {screen.status}: "
            f"{screen.text[:300]}")
        for seat, phone in enumerate(table.phones):
            page = phone.get(f"/t/{table.code}/me")
            assert page.status == 200 and table.code in page.text, (
                f"{table.game.NAME} {table.code}: seat {seat}'s page answers {page.status}: "
                f"{page.text[:300]}")
        _state, version, _status = read_table(server.db, table.code)
        assert page_version(screen.text) == version
    return {"acknowledged": sum(len(table.acknowledged) for table in tables),
            "replayed": replayed}
