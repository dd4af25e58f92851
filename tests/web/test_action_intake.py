"""An action stores what its game reads, and no more than a move needs (issue 15, point 3).

A legal action padded with fields no game reads used to be logged verbatim (1.9 MB of
padding: +5.6 MB of database). Now the log keeps the fields the game read, those fields
replay to the logged state, and an action too long to keep is refused with a message.
"""

from __future__ import annotations

import json
import random

import pytest

from companion import tables
from companion.db import connect
from companion.games.base import TABLE
from tests.support.campaign import NAMES, playable_games, server_games
from tests.support.scripted import check_database, choose, parse_forms
from tests.support.webflow import Device, join, seated_table, state_of

JUNK = {"junk": "x" * 500, "note": "<script>", "type2": "kill", "positionx": "on",
        "accomplice": "1"}
"""Fields no game reads, some named like fields that games do read."""


def logged_actions(app, code: str) -> list[dict]:
    db = connect(app.config["DATABASE"])
    try:
        return [json.loads(row["action"]) for row in db.query(
            "SELECT action FROM log WHERE kind = 'act' AND table_id = "
            "(SELECT id FROM tables WHERE code = ?) ORDER BY id", [code])]
    finally:
        db.close()


def database_bytes(app) -> int:
    db = connect(app.config["DATABASE"])
    try:
        return sum(len(row["action"]) + len(row["packed"] or b"")
                   for row in db.query("SELECT action, packed FROM log"))
    finally:
        db.close()


def test_fields_the_game_does_not_read_are_not_logged(app):
    laptop, (ann, _bob) = seated_table(app, "tally", ["Ann", "Bob"])
    assert ann.act("add", amount=2, **JUNK).status_code == 303
    assert logged_actions(app, laptop.code) == [{"type": "add", "amount": "2"}]


@pytest.mark.parametrize("padding", [
    {f"pad{n}": "x" * 19_000 for n in range(100)},  # 1.9 MB in fields a form may hold
    {"pad": "x" * 5_000},                             # just past the cap
    {f"f{n}": "" for n in range(600)},                 # many empty fields
])
def test_an_action_too_long_to_keep_is_refused_and_changes_nothing(app, padding):
    laptop, (ann, _bob) = seated_table(app, "tally", ["Ann", "Bob"])
    version, stored = laptop.version(), database_bytes(app)
    for reply in (ann.act("add", amount=2, **padding),
                  laptop.table_act("skip", **padding)):
        assert reply.status_code == 413
        assert "far more than any move needs" in reply.text
        assert 'data-version="' in reply.text  # the player's page, with the message
    assert laptop.version() == version and database_bytes(app) == stored
    assert logged_actions(app, laptop.code) == []


def test_a_field_too_big_for_any_form_is_a_friendly_413(app):
    laptop, (ann, _bob) = seated_table(app, "tally", ["Ann", "Bob"])
    version = laptop.version()
    reply = ann.post(f"/t/{laptop.code}/me/act", {
        "type": "add", "amount": "2", "version": version, "pad": "x" * 1_900_000},
        content_type="multipart/form-data")
    assert reply.status_code == 413 and "Something went wrong" not in reply.text
    assert "more than the laptop takes at once" in reply.text
    assert laptop.version() == version


def test_the_cap_leaves_room_for_every_real_form():
    longest = {"type": "record_outcome", "result": "jack_fifth_murder",
               **{f"accomplice_{seat}": "on" for seat in range(8)},
               **{f"position_{n}": "on" for n in range(1, 6)}}
    assert len(json.dumps(longest)) * 8 < tables.ACTION_MAX


def open_scripted_table(app, game) -> tuple[Device, list[Device]]:
    laptop = Device(app)
    form = next(f for f in parse_forms(laptop.get(f"/new/{game.NAME}").text)
                if f.action.endswith(f"/new/{game.NAME}"))
    players = game.DEFAULT_PLAYERS
    created = laptop.post(f"/new/{game.NAME}", {
        **{k: v for k, v in form.scripted_setup().items() if k not in ("csrf", "players")},
        "players": str(players)})
    assert created.status_code == 303, created.text
    laptop.code = created.headers["Location"].rsplit("/", 1)[-1]
    phones = [join(app, laptop.code, seat, NAMES[seat]) for seat in range(players)]
    assert laptop.host("start").status_code == 303
    return laptop, phones


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(playable_games()))
def test_every_game_logs_only_what_it_read_and_the_log_replays(app, name):
    """Scripted play of each game from the forms its pages show, every action padded
    with junk: no junk is logged, each form field a game reads by group (London 1888's
    ``position_N`` and ``accomplice_N`` boxes) is, and the log replays to every state."""
    game = playable_games()[name]
    laptop, phones = open_scripted_table(app, game)
    rng = random.Random(15)
    devices = [(TABLE, laptop), *enumerate(phones)]
    made = replayed = 0
    for _ in range(120):
        if made >= 30:
            break
        state = state_of(app, laptop.code)
        if game.is_over(state):  # the log of that game replays; deal the next one
            replayed += check_database(app.config["DATABASE"], server_games())
            assert laptop.host("start").status_code == 303
            continue
        rng.shuffle(devices)
        for viewer, device in devices:
            if not game.actions(state, viewer):
                continue
            page = device.screen() if viewer == TABLE else device.phone()
            picked = choose(game, state, viewer, page.text, rng)
            if picked is None:
                continue
            url, fields = picked
            assert device.post(url, {**fields, **JUNK}).status_code == 303
            made += 1
            stored = logged_actions(app, laptop.code)[-1]
            sent = {k: v for k, v in fields.items() if k not in ("csrf", "version")}
            assert stored.items() <= sent.items()
            assert {k for k in sent if k.startswith(("position_", "accomplice_"))} <= set(
                stored)
            break
    replayed += check_database(app.config["DATABASE"], server_games())
    assert made >= 30 and replayed > 0
    if name == "london1888":  # the questions' boxes were played, and kept
        assert any(key.startswith("position_") for action in logged_actions(app, laptop.code)
                   for key in action)

