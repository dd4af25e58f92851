"""Hostile input, hypothesis-driven, through the Flask client to every route and form.

Wrong types, huge numbers, unicode, missing fields, wrong methods, forged and swapped
tokens (cookies and links), other tables' codes and stale versions. Whatever arrives:
never a 500, and a refused request (any 4xx) or any GET changes nothing in the
database (every row of every table is compared before and after).

The routes come from the app's own URL map and the field names from the forms its
pages really show, so routes and games that land later are fuzzed too.
"""

from __future__ import annotations

import atexit
import functools
import io
import random
import re
import shutil
import sqlite3
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import create_app
from companion.games import discover
from companion.tables import hash_token
from companion.web.i18n import own_path
from tests.support import TEMPLATES, tally
from tests.support.campaign import playable_games
from tests.support.html import csrf_of
from tests.support.scripted import parse_forms

pytestmark = pytest.mark.slow  # a long campaign: the full suite runs it

NASTY = ["", " ", "0", "1", "-1", "2", "3", "7", "9" * 25, "-" + "9" * 25, "1e9", "0x10",
         "NaN", "inf", "None", "null", "true", "on", "off", "[]", "{}", "١٢", "Ⅻ", "🙂",
         "Zoë", "\u202eevil", "\x00", "%00", "<script>alert(1)</script>", "' OR 1=1 --",
         "../../etc/passwd", "a" * 5000, "\n\n\n", "table", "seat:0", "jack"]
FORGED = ["forged", "", "x" * 200, "A" * 32, "%", "\u00e9"]
NEXT = ["/", "/history", "//evil.example", "/\t/evil.example", "\t//evil.example",
        "/\r\n/x", "/\n\n", "/\\evil.example", "\\\\evil.example", "https://evil.example",
        "/\x00", "/\x7f", "/\x85", "///evil.example", "/%2F/evil.example", "evil", ""]
"""The language switch's ``next`` (``/language/<code>?next=``): where it may send back."""
SETTINGS = settings(max_examples=200, deadline=None, derandomize=False,
                    suppress_health_check=list(HealthCheck))


@dataclass
class Device:
    client: FlaskClient
    csrf: str
    label: str
    code: str = ""
    act_path: str = ""


@dataclass
class World:
    """One app with tables in every condition, and the devices that sit at them."""

    app: Flask
    db_path: str
    codes: list[str] = field(default_factory=list)
    devices: list[Device] = field(default_factory=list)
    host_tokens: list[str] = field(default_factory=list)
    seat_tokens: list[str] = field(default_factory=list)
    fields: set[str] = field(default_factory=set)
    values: set[str] = field(default_factory=set)
    rules: list[Any] = field(default_factory=list)

    def device(self, label: str) -> Device:
        client = self.app.test_client()
        device = Device(client, csrf_of(client.get("/").text), label)
        self.devices.append(device)
        return device

    def open_table(self, game: Any, players: int, seated: int, start: bool) -> str:
        laptop = self.device(f"{game.NAME} laptop")
        form = next(f for f in parse_forms(laptop.client.get(f"/new/{game.NAME}").text)
                    if f.action.endswith(f"/new/{game.NAME}"))
        created = laptop.client.post(f"/new/{game.NAME}",
                                     data={**form.scripted_setup(), "players": str(players)})
        assert created.status_code == 303, created.text
        code = created.headers["Location"].rsplit("/", 1)[-1]
        laptop.code, laptop.act_path = code, f"/t/{code}/act"
        self.codes.append(code)
        self.host_tokens.append(laptop.client.get_cookie(f"host_{code}").value)
        for seat in range(seated):
            phone = self.device(f"{game.NAME} seat {seat}")
            joined = phone.client.post(f"/j/{code}", data={
                "csrf": phone.csrf, "seat": str(seat), "name": f"P{seat}"})
            assert joined.status_code == 303, joined.text
            phone.code, phone.act_path = code, f"/t/{code}/me/act"
            self.seat_tokens.append(phone.client.get_cookie(f"seat_{code}").value)
        if start:
            version = laptop.client.get(f"/t/{code}/version").get_json()["version"]
            started = laptop.client.post(f"/t/{code}/start",
                                         data={"csrf": laptop.csrf, "version": str(version)})
            assert started.status_code == 303, started.text
        return code

    def harvest(self) -> None:
        """Field names and values from every page every device can see."""
        for device in self.devices:
            for code in self.codes:
                for path in (f"/t/{code}", f"/t/{code}/me", f"/j/{code}"):
                    page = device.client.get(path)
                    if page.status_code != 200:
                        continue
                    for form in parse_forms(page.text):
                        names = (set(form.fixed) | set(form.selects) | set(form.radios)
                                 | {name for name, _v, _c in form.checkboxes}
                                 | set(form.numbers) | set(form.texts)
                                 | {b[0] for b in form.buttons if b})
                        self.fields |= names
                        for values in (*form.selects.values(), *form.radios.values()):
                            self.values |= set(values)
                        self.values |= {b[1] for b in form.buttons if b}
                        self.values |= {v for k, v in form.fixed.items() if k != "csrf"}

    def snapshot(self) -> dict[str, list[tuple[Any, ...]]]:
        """Every row of every table of the database."""
        conn = sqlite3.connect(self.db_path)
        try:
            names = [row[0] for row in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' "
                "AND name NOT LIKE 'sqlite_%'")]
            return {name: conn.execute(f'SELECT * FROM "{name}" ORDER BY rowid').fetchall()
                    for name in names}
        finally:
            conn.close()

    def version(self, code: str) -> int:
        conn = sqlite3.connect(self.db_path)
        try:
            return conn.execute("SELECT version FROM tables WHERE code = ?", [code]).fetchone()[0]
        finally:
            conn.close()


@functools.cache
def world() -> World:
    folder = Path(tempfile.mkdtemp(prefix="hostile-"))
    atexit.register(shutil.rmtree, folder, True)
    app = create_app({
        "TESTING": True, "DATABASE": str(folder / "companion.sqlite"),
        "GAMES": {**discover(), tally.NAME: tally}, "RNG": random.Random(9),
        # The event stream ends at once, so the fuzzer can read it to the end.
        "LIVE_HEARTBEAT": 0.001, "LIVE_LIFETIME": 0.002,
    })
    from jinja2 import ChoiceLoader, FileSystemLoader
    app.jinja_loader = ChoiceLoader([app.jinja_loader,
                                     FileSystemLoader(str(TEMPLATES))])
    found = World(app, app.config["DATABASE"])
    found.open_table(tally, 3, 3, start=True)
    found.open_table(tally, 4, 1, start=False)          # a table still in its lobby
    closed = found.open_table(tally, 2, 2, start=True)
    laptop = next(d for d in found.devices if d.label == "tally laptop"
                  and d.client.get_cookie(f"host_{closed}"))
    version = found.version(closed)
    assert laptop.client.post(f"/t/{closed}/close", data={
        "csrf": laptop.csrf, "version": str(version)}).status_code == 303
    for game in playable_games().values():
        found.open_table(game, game.DEFAULT_PLAYERS, game.DEFAULT_PLAYERS, start=True)
    found.device("stranger")
    found.harvest()
    found.rules = [rule for rule in app.url_map.iter_rules()]
    return found


def codes() -> st.SearchStrategy[str]:
    known = world().codes
    return st.one_of(st.sampled_from(known), st.sampled_from(known), st.sampled_from(known),
                     st.sampled_from(known).map(str.lower),
                     st.sampled_from(["ZZZZ", "", "A", "ABCDEFGHIJKLMNOP", "ÄBCD", "AB CD"]),
                     st.text(max_size=12))


def numbers() -> st.SearchStrategy[int]:
    return st.one_of(st.integers(0, 5), st.integers(0, 2**70))


def path_for(data: st.DataObject, rule: Any) -> str:
    """The rule's URL with hostile (or real) values for its arguments."""
    built = rule.rule
    for name in rule.arguments:
        converter = rule._converters[name].__class__.__name__
        if converter == "IntegerConverter":
            value = str(data.draw(numbers(), label=name))
        elif name == "code":
            value = data.draw(codes(), label=name)
        elif name == "token":
            value = data.draw(st.one_of(st.sampled_from(world().host_tokens),
                                        st.sampled_from(world().seat_tokens),
                                        st.sampled_from(FORGED)), label=name)
        elif name == "name":
            value = data.draw(st.one_of(st.sampled_from(sorted(discover())),
                                        st.sampled_from(NASTY)), label=name)
        elif name == "filename":
            value = data.draw(st.sampled_from(["app.css", "app/live.js", "nope.js", "../app.py",
                                               "%2e%2e/app.py", "htmx-2.0.11.min.js"]))
        else:
            value = data.draw(st.sampled_from(NASTY), label=name)
        built = re.sub(rf"<(?:\w+:)?{name}>", lambda _m, v=value: v, built)
    built = built.replace("\x00", "%00").replace(" ", "%20") or "/"
    if rule.endpoint == "language.choose":
        built += "?" + urlencode({"next": data.draw(st.one_of(
            st.sampled_from(NEXT), st.text(max_size=12).map("/".__add__)), label="next")})
    return built


def hostile_form(data: st.DataObject, code: str | None = None) -> dict[str, str]:
    w = world()
    names = sorted(w.fields | {"type", "version", "seat", "name", "players", "target",
                               "amount", "character", "file"})
    values = st.one_of(st.sampled_from(NASTY), st.sampled_from(sorted(w.values)),
                       st.text(max_size=20), st.integers(-10**30, 10**30).map(str))
    form = data.draw(st.dictionaries(st.sampled_from(names), values, max_size=8), label="form")
    version = data.draw(st.sampled_from(["current"] * 3 + ["stale", "future", "missing",
                                                           "garbage"]), label="version")
    code = code or data.draw(st.sampled_from(w.codes), label="version of")
    current = w.version(code)
    form["version"] = {"current": str(current), "stale": str(current - 1),
                       "future": str(current + 1), "garbage": "🙂"}.get(version, "")
    if version == "missing":
        del form["version"]
    return form


def check(w: World, data: st.DataObject, client: FlaskClient, method: str, path: str,
          form: dict[str, str] | None) -> None:
    headers = {}
    if data.draw(st.booleans(), label="htmx"):
        headers["HX-Request"] = "true"
    if data.draw(st.booleans(), label="gzip"):
        headers["Accept-Encoding"] = "gzip"
    body = data.draw(st.sampled_from(["form"] * 6 + ["repeated", "json", "raw", "file"]),
                     label="body") if form is not None else "form"
    kwargs: dict[str, Any] = {"data": form}
    if body == "repeated" and form:  # every field sent twice, the second time different
        kwargs["data"] = {key: [value, value + "1"] for key, value in form.items()}
    elif body == "json":
        kwargs = {"json": form}
    elif body == "raw":
        kwargs = {"data": b"\xff\xfe--\x00" * 50, "content_type": data.draw(st.sampled_from(
            ["application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
             "text/plain"]))}
    elif body == "file":
        kwargs["data"] = {**(form or {}), "file": (io.BytesIO(data.draw(st.binary(
            max_size=200))), data.draw(st.sampled_from(["t.json", "", "../x", "ü.json"])))}
        kwargs["content_type"] = "multipart/form-data"
    before = w.snapshot()
    response = client.open(path, method=method, headers=headers, **kwargs)
    response.get_data()
    assert response.status_code < 500, (method, path, form, response.status_code)
    if "Location" in response.headers:  # a redirect stays on this app, whatever was sent
        location = urlsplit(response.headers["Location"])
        # Werkzeug's own redirects (a doubled slash merged: /t//me) name this very host.
        assert location.netloc in ("", "localhost"), (method, path, location)
        here = location.path + (f"?{location.query}" if location.query else "")
        assert own_path(here) == here, (method, path, response.headers["Location"])
    if response.status_code >= 400 or method in ("GET", "HEAD"):
        assert w.snapshot() == before, f"{method} {path} {form} was refused " \
            f"({response.status_code}) yet changed the database"


@SETTINGS
@given(data=st.data())
def test_any_request_to_any_route_from_any_device(data):
    """Every route with every method, from the laptops, the phones and a stranger."""
    w = world()
    rule = data.draw(st.sampled_from(w.rules), label="route")
    allowed = sorted(rule.methods - {"HEAD", "OPTIONS"})
    method = data.draw(st.sampled_from(allowed * 3 + ["GET", "POST", "PUT", "DELETE",
                                                      "PATCH"]), label="method")
    device = data.draw(st.sampled_from(w.devices), label="device")
    path = path_for(data, rule)
    form = None
    if method != "GET":
        form = hostile_form(data)
        csrf = data.draw(st.sampled_from(["own"] * 4 + ["other", "forged", "missing"]),
                         label="csrf")
        other = data.draw(st.sampled_from(w.devices))
        form["csrf"] = {"own": device.csrf, "other": other.csrf, "forged": "forged",
                        "missing": ""}[csrf]
        if csrf == "missing":
            del form["csrf"]
    check(w, data, device.client, method, path, form)


@SETTINGS
@given(data=st.data())
def test_hostile_game_actions_from_seated_devices(data):
    """A real phone or the host's laptop, with its own CSRF token, posting game actions
    to its own table: real action types with hostile fields, stale or garbage versions.
    Refusals (422, 409, 400) must change nothing; an accepted action may."""
    w = world()
    device = data.draw(st.sampled_from([d for d in w.devices if d.act_path]), label="device")
    form = hostile_form(data, device.code)
    kinds = sorted(w.values | {"add", "skip", "question", "end_turn", "next_round"})
    form["type"] = data.draw(st.one_of(st.sampled_from(kinds), st.sampled_from(NASTY)),
                             label="type")
    form["csrf"] = device.csrf
    check(w, data, device.client, "POST", device.act_path, form)


@SETTINGS
@given(data=st.data())
def test_forged_and_swapped_tokens(data):
    """A fresh browser with cookies forged or taken from another table's seat or host,
    posting real-looking game actions and host controls to every table."""
    w = world()
    client = w.app.test_client()
    csrf = csrf_of(client.get("/").text)
    code = data.draw(st.sampled_from(w.codes), label="table")
    for kind in ("seat", "host"):
        choice = data.draw(st.sampled_from(["none", "forged", "seat", "host"]), label=kind)
        if choice == "forged":
            client.set_cookie(f"{kind}_{code}", data.draw(st.sampled_from(FORGED[:4])))
        elif choice in ("seat", "host"):
            pool = w.seat_tokens if choice == "seat" else w.host_tokens
            client.set_cookie(f"{kind}_{code}", data.draw(st.sampled_from(pool)))
    endpoint = data.draw(st.sampled_from(["me/act", "act", "start", "undo", "hand-host",
                                          "remove-seat", "close", "rejoin", "export", "me",
                                          ""]), label="endpoint")
    path = f"/t/{code}" + (f"/{endpoint}" if endpoint else "")
    if endpoint in ("export", "me", ""):
        check(w, data, client, "GET", path, None)
        return
    form = hostile_form(data)
    form["csrf"] = csrf
    before = w.snapshot()
    check(w, data, client, "POST", path, form)
    if w.snapshot() != before:
        # Only a token that really belongs to this table may change it.
        conn = sqlite3.connect(w.db_path)
        table_id, host_hash = conn.execute(
            "SELECT id, host_token_hash FROM tables WHERE code = ?", [code]).fetchone()
        seat_hashes = {row[0] for row in conn.execute(
            "SELECT token_hash FROM seats WHERE table_id = ?", [table_id])}
        conn.close()
        used = {hash_token(cookie.value) for cookie in (
            client.get_cookie(f"seat_{code}"), client.get_cookie(f"host_{code}")) if cookie}
        assert used & (seat_hashes | {host_hash}), "a forged or swapped token changed a table"


def test_the_fuzzer_reaches_every_route_and_real_forms():
    """The fuzz above covers the whole URL map and knows the real forms' fields."""
    w = world()
    endpoints = {rule.endpoint for rule in w.rules}
    assert {"seat.act", "table.act", "table.start", "lobby.create", "live.events",
            "language.choose"} <= endpoints
    assert {"csrf", "version", "type", "seat", "name"} <= w.fields
    assert len(w.codes) >= 3 + len(playable_games())
