"""A crawler sits at every seat of every product game and looks for other seats' secrets.

For every game that has landed with its web part, a table is played by script (moves
chosen from the real forms). At several points of the game the crawler opens the
pages as every seat, as the host's laptop, as a bystander's table screen and as a
stranger, follows every link, redirect and live-update URL it can reach, and submits
each action form it is shown in ways the rules refuse (and with a stale version), to
read the refusal pages too. No response body, header or redirect may hold a secret
of another seat: the seat and host tokens of others, and the game's own secrets as
listed by ``SECRETS`` (the only game-specific part, small on purpose).
"""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient
from markupsafe import escape

from companion import tables
from companion.db import get_db
from companion.games.base import TABLE, Game, RuleError
from tests.support.campaign import NAMES, playable_games
from tests.support.html import csrf_of
from tests.support.scripted import choose, parse_forms

pytestmark = pytest.mark.slow  # a long campaign: the full suite runs it

Viewer = int | str
CHECKPOINTS = (0, 3, 10, 25)
PAGE_LIMIT = 40


# --- what counts as a secret, per game -------------------------------------------------

def _london1888(state: dict[str, Any], viewer: Viewer, game: Game) -> set[str]:
    """Jack's identity: the hint only Jack's phone shows (the innocents' hint is no secret:
    there is one Jack, and Jack knows he is not innocent)."""
    if game.is_over(state):
        return set()
    hints = {seat: game.view(state, seat)["me"]["role_hint"]
             for seat in range(len(state["players"]))}
    jack_seat = next(seat for seat, line in enumerate(state["lines"]) if "jack" in line)
    return {hints[jack_seat]} if viewer != jack_seat else set()


def _mrjack(state: dict[str, Any], viewer: Viewer, game: Game) -> set[str]:
    """Jack's alibi card as his phone shows it, and every secret line of another seat
    (alibi cards drawn, draft hands and choices), until the end reveals them."""
    if game.is_over(state):
        return set()
    found = {text for entry in state["log"] for owner, text in entry["secrets"].items()
             if owner != str(viewer)}
    if viewer != 0 and state["alibi"]:
        found.add(f"data-secret-alibi>{game.CHARACTERS[state['alibi']]}<")
    return found


def _wo_ist_jack(state: dict[str, Any], viewer: Viewer, game: Game) -> set[str]:
    """The story deck below the two face-up cards: nobody may see which stories are
    still in it (only how many)."""
    if game.is_over(state):
        return set()
    return set(state["deck"])


def _whitechapel(state: dict[str, Any], viewer: Viewer, game: Game) -> set[str]:
    """Jack's private component (sheet, hideout, where he is): only on Jack's phone."""
    if game.is_over(state) or viewer == 0:
        return set()
    found = {"data-hideout", "data-sheet", "data-location", "data-questions", "wc-jack"}
    if state.get("hideout"):
        found.add(f"Hideout: <b data-hideout>{state['hideout']}<")
    return found


SECRETS: dict[str, Callable[[dict[str, Any], Viewer, Game], set[str]]] = {
    "london1888": _london1888, "mrjack": _mrjack, "wo_ist_jack": _wo_ist_jack,
    "whitechapel": _whitechapel,
}
# Pages of the laptop's own setup (new-table form, its decks, tournaments) list a table's
# card names as they were typed: the set is public there, only the deck's order is secret.
SETUP_PAGES = ("/new/", "/decks", "/tournaments")


# --- the crawler -----------------------------------------------------------------------

class Browser:
    def __init__(self, app: Flask, label: str, viewer: Viewer | None) -> None:
        self.client: FlaskClient = app.test_client()
        self.csrf = csrf_of(self.client.get("/").text)
        self.label = label
        self.viewer = viewer


def _links(html: str) -> Iterable[str]:
    for attribute in ("href", "hx-get", "data-events", "data-version-url"):
        yield from re.findall(rf'{attribute}="(/[^"]*)"', html)
    for form in parse_forms(html):
        if form.method == "get" and form.action.startswith("/"):
            yield form.action + "?" + "&".join(f"{k}={v}" for k, v in form.defaults().items())


def crawl(browser: Browser, start: list[str]) -> list[tuple[str, str, str]]:
    """(what, path, text) for every response reachable by GET from ``start``: the body, the
    headers and any redirect."""
    seen: set[str] = set()
    queue = list(start)
    found = []
    while queue and len(seen) < PAGE_LIMIT:
        path = queue.pop(0)
        if path in seen or path.startswith("/static/"):
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
                queue.extend(link for link in _links(body) if link not in seen)
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


# --- the scripted table ----------------------------------------------------------------

def _table(app: Flask, code: str) -> dict[str, Any]:
    with app.app_context():
        found = tables.get_table(get_db(), code)
    assert found is not None
    return found


def _open(app: Flask, game: Game) -> tuple[str, Browser, list[Browser]]:
    laptop = Browser(app, "host laptop", TABLE)
    form = next(f for f in parse_forms(laptop.client.get(f"/new/{game.NAME}").text)
                if f.action.endswith(f"/new/{game.NAME}"))
    count = game.DEFAULT_PLAYERS
    created = laptop.client.post(f"/new/{game.NAME}", data={**form.scripted_setup(),
                                                           "players": str(count)})
    assert created.status_code == 303, created.text
    code = created.headers["Location"].rsplit("/", 1)[-1]
    labels = game.seat_labels(count, _table(app, code)["options"])
    phones = []
    for seat in range(count):
        phone = Browser(app, f"seat {seat} ({labels[seat]})", seat)
        joined = phone.client.post(f"/j/{code}", data={"csrf": phone.csrf, "seat": str(seat),
                                                        "name": NAMES[seat]})
        assert joined.status_code == 303, joined.text
        phones.append(phone)
    version = _table(app, code)["version"]
    assert laptop.client.post(f"/t/{code}/start", data={
        "csrf": laptop.csrf, "version": str(version)}).status_code == 303
    return code, laptop, phones


def _move(app: Flask, game: Game, code: str, devices: list[Browser],
          rng: random.Random) -> bool:
    table = _table(app, code)
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


def _tokens(browser: Browser, code: str) -> set[str]:
    return {cookie.value for name in (f"seat_{code}", f"host_{code}")
            if (cookie := browser.client.get_cookie(name))}


@pytest.mark.parametrize("name", sorted(playable_games()))
def test_no_seat_ever_reaches_another_seats_secret(app, name):
    game = app.config["GAMES"][name]
    # Event streams end at once, so the crawler can read them to the end.
    app.config.update(LIVE_HEARTBEAT=0.001, LIVE_LIFETIME=0.002)
    assert name in SECRETS, f"list {name}'s secrets in SECRETS"
    rng = random.Random(name)
    code, laptop, phones = _open(app, game)
    bystander = Browser(app, "bystander's table screen", TABLE)
    stranger = Browser(app, "stranger", None)
    everyone = [laptop, *phones, bystander, stranger]
    tokens = {browser.label: _tokens(browser, code) for browser in everyone}
    moves = checked = 0
    listed: set[str] = set()
    shown: set[str] = set()
    for checkpoint in CHECKPOINTS:
        while moves < checkpoint and _move(app, game, code, [laptop, *phones], rng):
            moves += 1
        state = _table(app, code)["state"]
        for browser in everyone:
            viewer = TABLE if browser.viewer is None else browser.viewer
            own_view = json.dumps(game.view(state, viewer), ensure_ascii=False)
            game_secrets = {form for s in SECRETS[name](state, viewer, game) if s not in own_view
                            for form in (s, str(escape(s)))}
            others = set().union(*(t for label, t in tokens.items() if label != browser.label))
            start = [f"/t/{code}", f"/j/{code}", "/", f"/t/{code}/export"]
            if isinstance(browser.viewer, int):
                start.insert(0, f"/t/{code}/me")
            responses = crawl(browser, start)
            page = browser.client.get(start[0]).get_data(True)
            if browser.viewer is not None:
                responses += refused_submissions(browser, game, state, page, rng)
            listed |= game_secrets
            shown |= {s for s in listed if any(s in text for _w, _p, text in responses)}
            for what, path, text in responses:
                for secret in others:
                    assert secret not in text, f"{browser.label}: another's token in {what}"
                if path.startswith(SETUP_PAGES):
                    continue
                for secret in game_secrets:
                    assert secret not in text, (
                        f"{name}, after {moves} moves: {browser.label} sees the secret "
                        f"{secret!r} in {what}")
                checked += 1
    # The control: secrets are listed as pages really show them (on their owner's page,
    # or the setup form), so their absence everywhere else means something.
    assert shown, f"none of {name}'s SECRETS ever showed on any page: {sorted(listed)[:5]}"
    assert moves >= 3, f"the scripted {name} game did not get going"
    assert checked > 100
