"""Only the laptop writes the club's history (issue 37, point 2; docs/RULINGS.md#general,
"The club's history is the laptop's"): a table a phone imports plays here at once, but
the games in its file wait until the laptop counts them or leaves them out; the laptop's
own import counts at once; the history says where each game came from."""

from __future__ import annotations

import io
import json
import re

from tests.support.history_games import mrjack_game
from tests.support.hostile_files import rows
from tests.support.webflow import Device

PHONE, STRANGER = "192.0.2.7", "198.51.100.9"


def at(app, address: str) -> Device:
    device = Device(app)
    device.client.environ_base["REMOTE_ADDR"] = address
    return device


def forged_export(app) -> dict:
    """A finished Mr. Jack table, exported, its seats renamed Mallory (who won) and Ann,
    every time in 2019: what a stranger would bring to rewrite the club's records."""
    laptop, _phones, _state = mrjack_game(app, jack="Ann", detective="Bob")
    data = json.loads(laptop.get(f"/t/{laptop.code}/export").data)
    data["seats"][0]["name"], data["seats"][1]["name"] = "Ann", "Mallory"
    for entry in data["log"]:
        entry[6] = "2019-03-01T20:00:00Z"
    data["table"]["code"] = "MALL"
    return data


def import_file(device: Device, data: dict):
    return device.post("/import", {"file": (io.BytesIO(json.dumps(data).encode()), "t.json")},
                       content_type="multipart/form-data")


def history_rows(app) -> list:
    return [table for table in rows(app.config["DATABASE"])
            if table[0] in ("results", "result_players", "name_merges")]


def code_of(response) -> str:
    assert response.status_code == 303, response.text
    return response.headers["Location"].rsplit("/", 1)[-1]


def waiting_id(app, code: str) -> int:
    """The table id of the laptop's waiting card for table ``code``."""
    page = at(app, "127.0.0.1").get("/history").text
    card = next(card for card in page.split("<li data-waiting-import=")[1:]
                if card.startswith(f'"{code}"'))
    return int(re.search(r'action="/history/imports/(\d+)/keep"', card).group(1))


def game_cards(page: str) -> list[str]:
    return page.split('<li class="history-game"')[1:]


def test_a_phones_import_plays_but_its_games_wait_for_the_laptop(app):
    data = forged_export(app)
    before = history_rows(app)
    phone = at(app, PHONE)
    code = code_of(import_file(phone, data))
    assert phone.get(f"/t/{code}").status_code == 200  # the table is back, to play on
    assert history_rows(app) == before
    for device in (phone, at(app, STRANGER)):
        page = device.get("/history").text
        assert "Mallory" not in page and "data-waiting-imports" not in page
    laptop = at(app, "127.0.0.1")
    waiting = laptop.get("/history").text
    assert f'data-waiting-import="{code}"' in waiting and "Mallory" in waiting
    # Neither a phone nor a stranger may count them.
    table_id = waiting_id(app, code)
    for device in (phone, at(app, STRANGER)):
        for choice in ("keep", "leave-out"):
            refused = device.post(f"/history/imports/{table_id}/{choice}")
            assert refused.status_code == 403 and "on the laptop running the companion" in \
                refused.text
    assert history_rows(app) == before
    counted = laptop.post(f"/history/imports/{table_id}/keep")
    assert counted.status_code == 303 and counted.headers["Location"] == "/history"
    assert "data-waiting-imports" not in laptop.get("/history").text
    cards = game_cards(phone.get("/history").text)
    assert [('data-source="imported"' in card, "Mallory" in card) for card in cards] == \
        [(False, False), (True, True)]  # newest first: the real game, then 2019's
    assert 'data-source="here"' in cards[0]
    again = laptop.post(f"/history/imports/{table_id}/leave-out")
    assert again.status_code == 409 and "answered already" in again.text


def test_the_laptop_may_leave_a_phones_import_out_for_good(app):
    data = forged_export(app)
    before = history_rows(app)
    code = code_of(import_file(at(app, PHONE), data))
    laptop = at(app, "127.0.0.1")
    assert laptop.post(f"/history/imports/{waiting_id(app, code)}/leave-out"
                       ).status_code == 303
    assert history_rows(app) == before
    assert "data-waiting-imports" not in laptop.get("/history").text
    assert "Mallory" not in laptop.get("/history").text
    assert at(app, PHONE).get(f"/t/{code}").status_code == 200  # the table stays
    with app.app_context():  # even a backfill of every table leaves them out
        from companion import history, tables
        from companion.db import get_db, write_transaction

        db = get_db()
        with write_transaction(db):
            assert history.backfill(db, app.config["GAMES"], tables.game_end) == 0
    assert history_rows(app) == before


def test_the_laptops_own_import_counts_at_once_marked_imported(app):
    data = forged_export(app)
    code = code_of(import_file(at(app, "127.0.0.1"), data))
    page = at(app, PHONE).get("/history").text
    assert "Mallory" in page and page.count('data-source="imported"') == 1
    assert page.count('data-source="here"') == 1
    assert f'data-waiting-import="{code}"' not in at(app, "127.0.0.1").get("/history").text
    export = at(app, PHONE).get("/history.json").get_json()["games"]
    assert sorted(game["source"] for game in export) == ["here", "imported"]


def test_the_lobby_says_a_phones_import_waits_for_the_laptop(app):
    hint = re.search(r"data-import-hint>([^<]*)<", at(app, PHONE).get("/").text).group(1)
    assert "once the laptop accepts them" in hint
