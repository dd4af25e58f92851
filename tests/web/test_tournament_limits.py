"""Tournaments against a stranger on the Wi-Fi (issue 37): a phone creates and imports
them no faster than tables, a refused one writes nothing, and a flood of them never hides
the club's tournament, neither in the list nor on a player's page of the history."""

from __future__ import annotations

import io
import json
import random
import re

from companion.db import get_db
from companion.tournaments import logic
from companion.tournaments import storage as store
from companion.web.limits import TOURNAMENT_LIMIT
from tests.support.history_games import mrjack_game
from tests.support.hostile_files import rows
from tests.web.test_tournament import (
    NAMES,
    SETTINGS,
    Organiser,
    new_tournament,
    register,
    small_export,
)

PHONE, OTHER_PHONE, STRANGER = "192.0.2.7", "192.0.2.8", "198.51.100.9"


def at(app, address: str) -> Organiser:
    device = Organiser(app)
    device.client.environ_base["REMOTE_ADDR"] = address
    return device


def import_file(device: Organiser, data: dict):
    return device.post("/tournaments/import",
                       {"file": (io.BytesIO(json.dumps(data).encode()), "t.json")},
                       content_type="multipart/form-data")


def test_a_phone_creates_a_few_tournaments_then_is_told_to_wait(app):
    export = small_export(app)  # from the laptop, which is never limited
    phone = at(app, PHONE)
    refused_form = phone.post("/tournaments", {**SETTINGS, "rounds": "0"})
    assert refused_form.status_code == 422  # a refused form is not counted
    for number in range(TOURNAMENT_LIMIT):
        created = phone.post("/tournaments", {**SETTINGS, "name": f"Cup {number}"})
        assert created.status_code == 303
    before = rows(app.config["DATABASE"])
    refused = phone.post("/tournaments", {**SETTINGS, "name": "One more cup"})
    assert refused.status_code == 429
    assert (f"This device has created {TOURNAMENT_LIMIT} tournaments in the last 10 minutes"
            in refused.text)
    assert "create the tournament on the laptop" in refused.text
    assert 'value="One more cup"' in refused.text  # the form again, as typed
    imported = import_file(phone, export)
    assert imported.status_code == 429 and "This device has created" in imported.text
    assert rows(app.config["DATABASE"]) == before
    # Another phone, and the laptop, are not held back by the first.
    assert import_file(at(app, OTHER_PHONE), export).status_code == 303
    laptop = at(app, "127.0.0.1")
    for number in range(TOURNAMENT_LIMIT + 2):
        assert laptop.post("/tournaments", {**SETTINGS, "name": f"Club {number}"}
                           ).status_code == 303


def test_a_phones_imports_count_against_the_same_limit(app):
    export = small_export(app)
    stranger = at(app, STRANGER)
    for _number in range(TOURNAMENT_LIMIT):
        assert import_file(stranger, export).status_code == 303
    before = rows(app.config["DATABASE"])
    assert stranger.post("/tournaments", SETTINGS).status_code == 429
    assert rows(app.config["DATABASE"]) == before


def flood(app, count: int, player: str | None = None) -> None:
    """``count`` newer tournaments, each with ``player`` registered if given."""
    with app.app_context():
        db = get_db()
        settings = logic.parse_settings({**SETTINGS, "name": "Flood"},
                                        list(logic.DEFAULT_TIEBREAKS))
        for _number in range(count):
            tournament, _token = store.create_tournament(db, settings)
            if player:
                store.add_player(db, tournament["id"], tournament["version"], player, "",
                                 random.Random(1))


def listed(page: str) -> list[int]:
    return [int(n) for n in re.findall(r'href="/tournaments/(\d+)"><b>', page)]


def test_a_flood_of_empty_tournaments_never_hides_the_clubs(app):
    organiser = new_tournament(app)
    register(app, organiser, NAMES[:4])
    flood(app, store.PER_PAGE + 5)
    phone = at(app, PHONE)
    first = phone.get("/tournaments")
    assert first.status_code == 200
    assert listed(first.text)[0] == organiser.tid  # the one with players comes first
    assert len(listed(first.text)) == store.PER_PAGE and "Page 1 of 2" in first.text
    second = phone.get("/tournaments?page=2")
    assert second.status_code == 200 and 'rel="prev" href="/tournaments"' in second.text
    every = listed(first.text) + listed(second.text)
    assert sorted(every) == list(range(1, store.PER_PAGE + 7))  # each on exactly one page
    for page in ("3", "0", "x", "9" * 30):
        missing = phone.get(f"/tournaments?page={page}")
        assert missing.status_code == 404 and "no such page of tournaments" in missing.text


def test_a_players_page_finds_an_old_tournament_behind_many_newer_ones(app):
    mrjack_game(app, jack="Ann", detective="Bob")
    organiser = new_tournament(app)
    register(app, organiser, NAMES[:4])  # Ann among them
    flood(app, store.PER_PAGE + 5, player="Zed")
    page = at(app, STRANGER).get("/history/players/Ann")
    assert page.status_code == 200
    assert f'href="/tournaments/{organiser.tid}/board"' in page.text
