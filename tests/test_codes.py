"""Table codes never run out and choosing one never spins; one device cannot create
tables without end, the laptop itself always can (issue 15, point 2)."""

from __future__ import annotations

import ipaddress
import json
import random
import threading
import time

import pytest

from companion import importing, net, tables
from companion.db import connect
from companion.games import london1888
from tests.support import tally
from tests.support.codes import fill_every_four_letter_code
from tests.support.webflow import Device, create_table, join
from tests.web.test_tournament import new_tournament, register

PHONE = "192.168.1.50"


class Stuck(random.Random):
    """An rng that always draws the first letter: every code it offers is AAAA…"""

    def choice(self, seq):
        return seq[0]


def finishes(work, seconds: float = 10.0):
    """``work()``'s result, failing (not hanging) if it does not finish in time."""
    result: list = []

    def run() -> None:
        try:
            result.append(work())
        except Exception as error:  # handed to the test's thread below
            result.append(error)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"still choosing a code after {seconds} s"
    if isinstance(result[0], Exception):
        raise result[0]
    return result[0]


def test_choosing_a_code_is_bounded_and_codes_grow_a_letter(app):
    db = connect(app.config["DATABASE"])
    codes = []
    for _ in range(tables.CODE_LENGTH_MAX - tables.CODE_LENGTH + 1):
        table, _token = finishes(lambda: tables.create_table(db, tally, {}, 2, Stuck()))
        codes.append(table["code"])
    assert codes == ["A" * n for n in range(tables.CODE_LENGTH, tables.CODE_LENGTH_MAX + 1)]
    started = time.monotonic()
    with pytest.raises(tables.TableError) as refused:
        finishes(lambda: tables.create_table(db, tally, {}, 2, Stuck()))
    assert time.monotonic() - started < 2
    assert refused.value.status == 503 and "no table code left" in refused.value.message
    assert db.execute("SELECT count(*) FROM tables").fetchone()[0] == len(codes)


@pytest.mark.slow
def test_when_every_four_letter_code_is_used_new_tables_get_five(app):
    assert fill_every_four_letter_code(app.config["DATABASE"]) == len(tables.CODE_LETTERS) ** 4
    started = time.monotonic()
    laptop = finishes(lambda: create_table(app, "tally", 2))
    assert time.monotonic() - started < 5
    code = laptop.code
    assert len(code) == 5 and set(code) <= set(tables.CODE_LETTERS)
    # Every way in takes the longer code: the QR link, the typed code, the table screen.
    assert f"/j/{code}" in laptop.screen().text
    phone = Device(app)
    typed = phone.get(f"/join?code={code.lower()[:2]} {code.lower()[2:]}")
    assert typed.status_code == 303 and typed.headers["Location"].endswith(f"/j/{code}")
    assert phone.get(f"/j/{code}").status_code == 200
    join(app, code, 1, "Bob")
    # The codes are in the database: after a restart the laptop still finds free ones.
    from companion import create_app

    again = create_app({**app.config, "RNG": random.Random(7)})
    assert len(finishes(lambda: create_table(again, "tally", 2)).code) == 5


def test_a_join_code_lookup_takes_longer_codes_and_nothing_else():
    assert tables.normalise_code(" abcde fgh ") == "ABCDEFGH"


# --- the creation limit ------------------------------------------------------------------

def phone_at(app, address: str) -> Device:
    device = Device(app)
    device.client.environ_base["REMOTE_ADDR"] = address
    return device


def table_count(app) -> int:
    db = connect(app.config["DATABASE"])
    try:
        return db.execute("SELECT count(*) FROM tables").fetchone()[0]
    finally:
        db.close()


def test_a_phone_may_create_a_nights_worth_of_tables_then_is_told_to_wait(app):
    from companion.web.limits import CREATE_LIMIT

    phone = phone_at(app, PHONE)
    for _ in range(CREATE_LIMIT):
        assert phone.post("/new/tally", {"players": "2"}).status_code == 303
    before = table_count(app)
    refused = phone.post("/new/tally", {"players": "3", "fast": "on"})
    assert refused.status_code == 429
    assert "This device has created 10 tables in the last 10 minutes" in refused.text
    assert "create the table on the laptop" in refused.text
    assert 'name="players"' in refused.text  # the form again, as typed
    assert table_count(app) == before
    export = {"format": importing.EXPORT_FORMAT, "table": {}, "seats": [], "log": []}
    upload = phone.post("/import", {"file": (__import__("io").BytesIO(
        json.dumps(export).encode()), "t.json")}, content_type="multipart/form-data")
    assert upload.status_code == 429 and "This device has created" in upload.text
    # Another phone is not held back by the first.
    assert phone_at(app, "192.168.1.51").post("/new/tally", {"players": "2"}
                                               ).status_code == 303


def test_the_limit_forgets_creations_older_than_its_window():
    from companion.web.limits import CreationLimit

    now = [0.0]
    limit = CreationLimit(2, 600, clock=lambda: now[0])
    assert limit.take(PHONE) is None and limit.take(PHONE) is None
    now[0] = 100
    assert limit.take(PHONE) == 500
    now[0] = 600  # the first two are ten minutes old: forgotten
    assert limit.take(PHONE) is None and limit.take(PHONE) is None
    assert limit.take(PHONE) == 600
    assert limit.take("192.168.1.51") is None


@pytest.mark.parametrize("address", ["127.0.0.1", "127.0.1.1", "::1", "::ffff:127.0.0.1"])
def test_the_laptop_on_loopback_is_never_limited(app, address):
    laptop = phone_at(app, address)
    for _ in range(15):
        assert laptop.post("/new/tally", {"players": "2"}).status_code == 303


def test_the_laptop_on_its_own_lan_address_is_never_limited(app, monkeypatch):
    mine = "192.168.1.10"
    monkeypatch.setattr(net, "own_addresses", lambda: {ipaddress.ip_address(mine)})
    laptop = phone_at(app, mine)
    for _ in range(15):
        assert laptop.post("/new/tally", {"players": "2"}).status_code == 303
    assert phone_at(app, PHONE).post("/new/tally", {"players": "2"}).status_code == 303


def test_this_laptops_real_addresses_are_recognised():
    for address in net.lan_addresses():
        assert net.is_this_laptop(address)
    assert net.is_this_laptop("127.0.0.1") and net.is_this_laptop("::1")
    assert not net.is_this_laptop("203.0.113.9")
    assert not net.is_this_laptop("") and not net.is_this_laptop(None)
    assert not net.is_this_laptop("not an address")


def test_a_tournament_round_from_a_phone_counts_its_tables(app):
    organiser = new_tournament(app)
    register(app, organiser, names=["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"])
    organiser.client.environ_base["REMOTE_ADDR"] = PHONE
    for _ in range(8):  # eight tables from this phone first
        assert organiser.post("/new/tally", {"players": "2"}).status_code == 303
    response = organiser.send("/rounds", table_size="4")
    assert response.status_code == 303  # two tables: ten in all
    assert organiser.post("/new/tally", {"players": "2"}).status_code == 429
    opened = sum(1 for row in connect(app.config["DATABASE"]).query(
        "SELECT game FROM tables") if row["game"] == london1888.NAME)
    assert opened == 2
