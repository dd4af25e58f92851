"""Two devices submitting conflicting actions at the same instant, 1,000 times, against
the real server: exactly one wins each time, the other is told the table moved on.

The conflicts are the ones a table really has: the player whose turn it is acts while
the host's laptop skips that turn, or the same seat open on two devices (a phone and a
tablet) acts on both. Both requests carry the version both pages showed; a barrier
releases them together, each on its own kept-alive connection.
"""

from __future__ import annotations

import http.client
import sqlite3
import threading
import urllib.parse

import pytest

from tests.support.httpdevice import HttpDevice
from tests.support.realserver import Server

pytestmark = pytest.mark.slow
ROUNDS = 1000
MOVED_ON = "moved on"


class Sender:
    """One device's kept-alive connection and cookies, posting one prepared form."""

    def __init__(self, device: HttpDevice, port: int) -> None:
        self.cookie = "; ".join(f"{c.name}={c.value}" for c in device.jar)
        self.csrf = device.csrf
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.result: tuple[int, str] | None = None

    def post(self, path: str, form: dict[str, object], barrier: threading.Barrier) -> None:
        body = urllib.parse.urlencode({"csrf": self.csrf, **form})
        headers = {"Cookie": self.cookie, "HX-Request": "true",
                   "Content-Type": "application/x-www-form-urlencoded"}
        barrier.wait()
        self.conn.request("POST", path, body, headers)
        response = self.conn.getresponse()
        self.result = (response.status, response.read().decode())


def _race(first: Sender, second: Sender, path_one: str, form_one: dict[str, object],
          path_two: str, form_two: dict[str, object]) -> list[tuple[int, str]]:
    barrier = threading.Barrier(2)
    threads = [threading.Thread(target=first.post, args=(path_one, form_one, barrier)),
               threading.Thread(target=second.post, args=(path_two, form_two, barrier))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert first.result and second.result
    results = [first.result, second.result]
    first.result = second.result = None
    return results


def test_a_thousand_simultaneous_conflicts_have_exactly_one_winner(tmp_path):
    server = Server(tmp_path / "companion.sqlite").start()
    try:
        laptop = HttpDevice(server.url)
        code = laptop.create("tally", 2)
        phones = []
        for seat, name in enumerate(["Ann", "Bob"]):
            phone = HttpDevice(server.url)
            assert phone.join(code, seat, name).status == 303
            phones.append(phone)
        twins = []
        for phone in phones:  # the same seat open on a second device
            twin = HttpDevice(server.url)
            for cookie in phone.jar:
                if cookie.name.startswith("seat_"):
                    twin.jar.set_cookie(cookie)
            twin.get("/")
            twins.append(twin)
        assert laptop.host("start", laptop.version()).status == 303
        version = laptop.version()

        host = Sender(laptop, server.port)
        seats = [Sender(phone, server.port) for phone in phones]
        seconds = [Sender(twin, server.port) for twin in twins]
        act, skip = f"/t/{code}/me/act", f"/t/{code}/act"
        turn, total, wins = 0, 0, {"seat": 0, "table": 0, "twin": 0}
        for number in range(ROUNDS):
            add = {"type": "add", "amount": 1, "version": version}
            if number % 2 == 0:
                rival, rival_path, rival_form, rival_name = (
                    host, skip, {"type": "skip", "version": version}, "table")
            else:
                rival, rival_path, rival_form, rival_name = seconds[turn], act, add, "twin"
            (seat_status, seat_text), (rival_status, rival_text) = _race(
                seats[turn], rival, act, add, rival_path, rival_form)
            statuses = sorted([seat_status, rival_status])
            assert statuses == [303, 409], f"round {number}: {statuses}"
            loser = seat_text if seat_status == 409 else rival_text
            assert MOVED_ON in loser, f"round {number}: the loser was not told: {loser[:300]}"
            winner = "seat" if seat_status == 303 else rival_name
            wins[winner] += 1
            version += 1
            if winner != "table":
                total += 1
            turn = 1 - turn
            if total >= 30:  # the test game is over: the host deals a new one
                assert laptop.host("start", version).status == 303
                version += 1
                total, turn = 0, 0

        assert laptop.version() == version
        conn = sqlite3.connect(server.db)
        acts = conn.execute("SELECT count(*) FROM log WHERE kind = 'act'").fetchone()[0]
        conn.close()
        assert acts == ROUNDS, "every round logged exactly one action"
        # Both sides of each kind of race won sometimes: the races were real.
        assert wins["seat"] and (wins["table"] or wins["twin"]), wins
    finally:
        server.stop()
