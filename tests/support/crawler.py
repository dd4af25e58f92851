"""A table played by script and a crawler that reads every page a device reaches: the
secrets crawl (tests/test_secrets_crawl.py) and the language crawl
(tests/i18n/test_crawl.py) share it."""

from __future__ import annotations

import random
import re
import time
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

from flask import Flask
from flask.testing import FlaskClient

from companion import tables
from companion.db import get_db
from companion.games.base import TABLE, Game, RuleError
from tests.support.campaign import NAMES
from tests.support.html import csrf_of
from tests.support.scripted import choose, parse_forms

Viewer = int | str
# The start, the early game, a long game: a fourth point (3 moves) read again what the
# twin tests of tests/web prove for every step, a quarter of both crawls' time.
CHECKPOINTS = (0, 10, 25)
PAGE_LIMIT = 40


# --- the crawler -----------------------------------------------------------------------

class Browser:
    def __init__(self, app: Flask, label: str, viewer: Viewer | None) -> None:
        self.client: FlaskClient = app.test_client()
        self.csrf = csrf_of(self.client.get("/").text)
        self.label = label
        self.viewer = viewer


def links(html: str) -> Iterable[str]:
    for attribute in ("href", "hx-get", "data-events", "data-version-url"):
        yield from re.findall(rf'{attribute}="(/[^"]*)"', html)
    for form in parse_forms(html):
        if form.method == "get" and form.action.startswith("/"):
            yield form.action + "?" + "&".join(f"{k}={v}" for k, v in form.defaults().items())


def crawl(browser: Browser, start: list[str],
          avoid: tuple[str, ...] = ("/static/",)) -> list[tuple[str, str, str]]:
    """(what, path, text) for every response reachable by GET from ``start`` (but paths
    starting with ``avoid``): the body, the headers and any redirect."""
    seen: set[str] = set()
    queue = list(start)
    found = []
    while queue and len(seen) < PAGE_LIMIT:
        path = queue.pop(0)
        if path in seen or path.startswith(avoid):
            continue
        seen.add(path)
        for headers in ({}, {"HX-Request": "true"}):
            response = browser.client.get(path, headers=headers)
            assert response.status_code < 500, (browser.label, path)
            body = response.get_data(as_text=True)
            found.append((f"GET {path}", path, body))
            found.append((f"headers of GET {path}", path, str(response.headers)))
            location = response.headers.get("Location")
            if location:
                queue.append(urlsplit(location).path)
            if response.mimetype == "text/html":
                queue.extend(link for link in links(body) if link not in seen)
    return found


def refused_submissions(browser: Browser, game: Game, state: dict[str, Any], html: str,
                        rng: random.Random) -> list[tuple[str, str, str]]:
    """Submit the page's action forms in ways the game refuses (checked on the real state
    first, so nothing changes), and once with a stale version."""
    found = []
    for form in parse_forms(html):
        if form.method != "post" or not form.action.endswith("/act"):
            continue
        for _ in range(3):
            fields = form.sample(rng)
            action = {k: v for k, v in fields.items() if k not in ("csrf", "version")}
            # As the web layer sends it: with the laptop's clock (web/context.form_action).
            action["clock"] = f"{time.time():.3f}"
            try:
                game.apply(state, browser.viewer, action, random.Random(1))
                continue  # an accepted move would change the game: not this crawler's job
            except RuleError:
                pass
            response = browser.client.post(form.action, data=fields)
            assert response.status_code in (422, 409, 400), (response.status_code, fields)
            found.append((f"refused POST {form.action} {action}", form.action,
                          response.get_data(True)))
            found.append((f"headers of refused POST {form.action}", form.action,
                          str(response.headers)))
            break
        stale = dict(form.defaults(), version="1")
        response = browser.client.post(form.action, data=stale)
        assert response.status_code == 409
        found.append((f"stale POST {form.action}", form.action, response.get_data(True)))
    return found


def table_of(app: Flask, code: str) -> dict[str, Any]:
    with app.app_context():
        found = tables.get_table(get_db(), code)
    assert found is not None
    return found


def open_table(app: Flask, game: Game) -> tuple[str, Browser, list[Browser]]:
    laptop = Browser(app, "host laptop", TABLE)
    form = next(f for f in parse_forms(laptop.client.get(f"/new/{game.NAME}").text)
                if f.action.endswith(f"/new/{game.NAME}"))
    count = game.DEFAULT_PLAYERS
    created = laptop.client.post(f"/new/{game.NAME}", data={**form.scripted_setup(),
                                                           "players": str(count)})
    assert created.status_code == 303, created.text
    code = created.headers["Location"].rsplit("/", 1)[-1]
    labels = game.seat_labels(count, table_of(app, code)["options"])
    phones = []
    for seat in range(count):
        phone = Browser(app, f"seat {seat} ({labels[seat]})", seat)
        joined = phone.client.post(f"/j/{code}", data={"csrf": phone.csrf, "seat": str(seat),
                                                        "name": NAMES[seat]})
        assert joined.status_code == 303, joined.text
        phones.append(phone)
    version = table_of(app, code)["version"]
    assert laptop.client.post(f"/t/{code}/start", data={
        "csrf": laptop.csrf, "version": str(version)}).status_code == 303
    return code, laptop, phones


def move(app: Flask, game: Game, code: str, devices: list[Browser],
          rng: random.Random) -> bool:
    table = table_of(app, code)
    if table["status"] != "playing":
        return False
    order = list(devices)
    rng.shuffle(order)
    for device in order:
        if not game.actions(table["state"], device.viewer):
            continue
        path = f"/t/{code}" if device.viewer == TABLE else f"/t/{code}/me"
        picked = choose(game, table["state"], device.viewer,
                        device.client.get(path).get_data(True), rng)
        if picked:
            url, fields = picked
            response = device.client.post(url, data=fields)
            assert response.status_code == 303, response.get_data(True)[:500]
            return True
    return False
