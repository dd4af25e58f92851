"""Import is safe by construction, and the log is lean: hostile export files through both
import paths (the lobby and `companion import`), the log's text never a template, old
exports and old databases still read, deltas that rebuild every state."""

from __future__ import annotations

import copy
import json
import random
import sqlite3
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import cli, importing, logstore, tables
from companion.db import get_db
from companion.db.migrations import migrations
from companion.web.context import describe_log
from tests.support.hostile_files import json_values, mutate, upload
from tests.support.hostile_files import rows as database_rows
from tests.support.webflow import Device, game_log, seated_table

SEATS = [{"position": 0, "label": "Dealer", "name": "Ann"},
         {"position": 1, "label": "Player 1", "name": "Bob"}]


def played(app) -> tuple:
    """A tally table with a few actions, one undone, exported (format 2)."""
    laptop, (ann, bob) = seated_table(app, "tally", ["Ann", "Bob"])
    ann.act("add", amount=2)
    bob.act("add", amount=3)
    laptop.host("undo")
    bob.act("add", amount=1)
    with app.app_context():
        db = get_db()
        return laptop, importing.export_table(db, tables.get_table(db, laptop.code)["id"])


def mrjack(app) -> tuple:
    """A Mr. Jack table (a game `companion import` knows) a few scripted moves in, with
    an undo; exported."""
    from companion.games import mrjack as game
    from tests.support.scripted import choose

    laptop, phones = seated_table(app, "mrjack", ["Ann", "Bob"])
    rng = random.Random(3)
    for step in range(4):
        with app.app_context():
            state = tables.get_table(get_db(), laptop.code)["state"]
        seat = next(s for s in (0, 1) if game.actions(state, s))
        url, fields = choose(game, state, seat, phones[seat].phone().text, rng)
        kind = fields.pop("type")
        fields = {k: v for k, v in fields.items() if k not in ("csrf", "version")}
        assert phones[seat].act(kind, **fields).status_code == 303
        if step == 1:
            assert laptop.host("undo").status_code == 303
    with app.app_context():
        db = get_db()
        return laptop, importing.export_table(db, tables.get_table(db, laptop.code)["id"])


def rows(app) -> list:
    return database_rows(app.config["DATABASE"])


def web_import(app, raw: bytes, device: Device | None = None):
    return upload(device or Device(app), "/import", raw)


def cli_import(app, tmp_path, raw: bytes) -> int:
    path = tmp_path / "in.json"
    path.write_bytes(raw)
    return cli.main(["import", str(path), "--db", app.config["DATABASE"]])


# --- a log's text is data ------------------------------------------------------------

@pytest.mark.parametrize("kind", ["{0}", "{who:>100000000}", "{who.__class__}"])
def test_a_log_kind_is_never_a_template(app, kind):
    laptop, _phones = seated_table(app, "tally", ["Ann", "Bob"])
    conn = sqlite3.connect(app.config["DATABASE"])
    with conn:
        conn.execute("INSERT INTO log (table_id, version, game_no, actor, kind, action) "
                     "SELECT id, version, game_no, 'seat:0', ?, '[1]' FROM tables", [kind])
    conn.close()
    started = time.monotonic()
    page = laptop.screen()
    assert page.status_code == 200 and len(page.data) < 100_000
    assert time.monotonic() - started < 2
    assert describe_log([{"kind": kind, "action": "{}", "actor": "x", "game_no": 1}], []) == []


# --- the lean log --------------------------------------------------------------------

@pytest.mark.slow
@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(json_values, json_values)
def test_a_delta_rebuilds_the_state_exactly(old, new):
    delta = logstore.diff(old, new)
    rebuilt = logstore.patch(old, logstore.nothing(old) if delta is None else delta)
    assert json.dumps(rebuilt, sort_keys=True) == json.dumps(new, sort_keys=True)
    assert logstore.same(rebuilt, new)


def test_the_log_keeps_deltas_and_undo_and_history_still_work(app):
    laptop, data = played(app)
    with app.app_context():
        db = get_db()
        table = tables.get_table(db, laptop.code)
        history = game_log(db, table["id"], 1)
        kept = db.execute("SELECT kind, base, packed FROM log WHERE packed IS NOT NULL "
                          "ORDER BY id").fetchall()
    assert [row[0] for row in kept] == ["start", "act", "act", "act"]
    assert kept[0][1] is None and all(row[1] is not None for row in kept[1:])
    totals = [entry["state"]["total"] for entry in history if entry["state"]]
    assert totals == [0, 2, 5, 3] and table["state"]["total"] == 3
    assert data["format"] == "companion-table/2"
    # a move keeps a delta from the state before it in the log (the undone one, here)
    assert data["log"][-1][7] == {"log": ["=", ["Ann added 2", "Bob added 1"]],
                                  "total": ["=", 3]}


def test_an_old_database_is_migrated(tmp_path):
    """A database of the old schema (every state whole) reads the same after m003."""
    from companion.db import connect

    path = str(tmp_path / "old.sqlite")
    db = connect(path)
    migrations.apply(db, stop_before="m003_lean_log")
    db.execute("INSERT INTO tables (code, game, options, status, state, game_no, version, "
               "host_token_hash) VALUES ('ABCD', 'tally', '{}', 'playing', ?, 1, 4, 'x')",
               [json.dumps({"players": ["A", "B"], "secrets": [1, 2], "total": 5, "turn": 0,
                            "log": ["a", "b"], "step": 3})])
    states = [{"players": ["A", "B"], "secrets": [1, 2], "total": total, "turn": total % 2,
               "log": ["a", "b"][:index], "step": 3}
              for index, total in enumerate([0, 2, 5])]
    states[-1]["turn"] = 0
    for version, (kind, state) in enumerate(zip(["start", "act", "act"], states, strict=True), 2):
        db.execute("INSERT INTO log (table_id, version, game_no, actor, kind, state) "
                   "VALUES (1, ?, 1, 'host', ?, ?)", [version, kind, json.dumps(state)])
    db.close()
    db = connect(path)
    migrations.apply(db)
    assert tables.get_table(db, "ABCD")["state"]["total"] == 5
    assert [e["state"]["total"] for e in game_log(db, 1, 1)] == [0, 2, 5]
    tables.undo(db, 1, 4)
    assert tables.get_table(db, "ABCD")["state"]["total"] == 2
    db.close()


# --- import: round trips ----------------------------------------------------------------

def test_both_formats_round_trip_through_both_paths(app, tmp_path):
    laptop, data = mrjack(app)
    with app.app_context():
        db = get_db()
        table = tables.get_table(db, laptop.code)
        history = game_log(db, table["id"], 1)
    with app.app_context():
        db = get_db()
        log = []
        for game_no in (0, 1):
            log += game_log(db, table["id"], game_no)
        log.sort(key=lambda e: e["id"])
    old = {"format": "companion-table/1",
           "table": {**data["table"], "state": table["state"]}, "seats": data["seats"],
           "log": [{key: e[key] for key in ("version", "game_no", "actor", "kind", "action",
                                            "undone", "created_at", "state")} for e in log]}
    for raw in (importing.export_text(data).encode(), json.dumps(old, indent=1).encode()):
        reply = web_import(app, raw)
        assert reply.status_code == 303, reply.text[:500]
        code = reply.headers["Location"].rsplit("/", 1)[-1]
        with app.app_context():
            copy_ = tables.get_table(get_db(), code)
            assert copy_["state"] == table["state"]
            assert [e["state"] for e in game_log(get_db(), copy_["id"], 1)] == [
                e["state"] for e in history]
        assert cli_import(app, tmp_path, raw) == 0
    assert len(history) > 3


# --- import: hostile files -----------------------------------------------------------

def hostile(data: dict) -> list[tuple[str, bytes]]:
    """The issue's files: each must be refused with a clear message."""
    def changed(change) -> bytes:
        mutated = copy.deepcopy(data)
        change(mutated)
        return json.dumps(mutated).encode()

    start = next(i for i, e in enumerate(data["log"]) if e[3] == "start")
    return [
        ("deep", b"[" * 100_000 + b"]" * 100_000),
        ("deep object", (b'{"a":' * 5000) + b"1" + b"}" * 5000),
        ("huge version", changed(lambda d: d["table"].update(version=2**70))),
        ("huge game number", changed(lambda d: d["table"].update(game_no=2**70))),
        ("dict as a date", changed(lambda d: d["table"].update(created_at={"a": 1}))),
        ("list as a seat name", changed(lambda d: d["seats"][0].update(name=["x"]))),
        ("dict as the host seat", changed(lambda d: d["table"].update(host_seat={}))),
        ("empty state", changed(lambda d: d["log"][start].__setitem__(7, {}))),
        ("number state", changed(lambda d: d["log"][start].__setitem__(7, 42))),
        ("unknown phase", changed(lambda d: d["log"][start][7].update(phase="tea"))),
        ("list action", changed(lambda d: d["log"][-1].__setitem__(4, ["add"]))),
        ("template kind", changed(lambda d: d["log"][1].__setitem__(3, "{0}"))),
        ("empty code", changed(lambda d: d["table"].update(code=""))),
        ("slash code", changed(lambda d: d["table"].update(code="A/B"))),
        ("another game's state", changed(lambda d: d["table"].update(game="london1888"))),
        ("NaN", changed(lambda d: d["table"].update(version="NaN!")).replace(
            b'"NaN!"', b"NaN")),
        ("bad delta", changed(lambda d: d["log"][-1].__setitem__(7, ["[", 99, [], []]))),
    ]


def test_hostile_files_are_refused_on_both_paths(app, tmp_path):
    _laptop, data = mrjack(app)
    before = rows(app)
    for name, raw in hostile(data):
        reply = web_import(app, raw)
        assert reply.status_code == 422, name
        assert 'role="alert"' in reply.text and "went wrong" not in reply.text, name
        assert cli_import(app, tmp_path, raw) == 2, name
        assert rows(app) == before, name


# --- import: mutated exports and random JSON ---------------------------------------------

@pytest.mark.slow
@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_mutated_exports_never_harm(app, tmp_path, data):
    """Never a 500, never a change to another table, and a table accepted shows every
    page to every viewer."""
    if "export" not in app.config:
        app.config["export"] = mrjack(app)[1]
    exported = app.config["export"]
    raw = json.dumps(mutate(exported, data) if data.draw(st.booleans()) else
                     data.draw(json_values)).encode()
    before = rows(app)
    host = Device(app)
    reply = web_import(app, raw, host)
    assert reply.status_code in (303, 422), reply.text[:300]
    if reply.status_code == 422:
        assert rows(app) == before
        assert cli_import(app, tmp_path, raw) == 2
        assert rows(app) == before
        return
    code = reply.headers["Location"].rsplit("/", 1)[-1]
    assert set(code) <= set(tables.CODE_LETTERS)
    stranger = Device(app, code)
    host.code = code
    for device in (host, stranger):
        assert device.screen().status_code == 200
        assert device.get(f"/t/{code}", headers={"HX-Request": "true"}).status_code == 200
    assert stranger.get(f"/j/{code}").status_code == 200
    with app.app_context():
        table = tables.get_table(get_db(), code)
        free = [seat for seat in tables.get_seats(get_db(), table["id"]) if not seat["claimed"]]
    for seat in free:  # the copy's seats are free again: each phone page draws
        phone = Device(app, code)
        joined = phone.post(f"/j/{code}", {"seat": seat["position"],
                                           "name": seat["name"] or f"P{seat['position']}"})
        if joined.status_code == 303:
            assert phone.phone().status_code == 200
    assert cli_import(app, tmp_path, raw) == 0
    after = dict(rows(app))
    for name, kept in before:  # only rows were added: every other table is untouched
        assert set(kept) <= set(after[name]), name
