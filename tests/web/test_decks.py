"""The laptop's decks page: card names typed once (Wo ist Jack the Ripper's stories and
their values, London 1888's event and murder cards), every status, hostile input, and a
deck going with a table's export (checked on import like every other field)."""

from __future__ import annotations

import html
import json

import pytest

from companion import decks, importing, tables
from companion.db import get_db
from companion.games import london1888, wo_ist_jack
from tests.support.hostile_files import upload
from tests.support.webflow import Device, create_table, seated_table

STORIES = "\n".join([*wo_ist_jack.RULEBOOK_STORIES,
                     "Mary Kelly tot = 4", "Brief an die Central News = 2",
                     "Doppelmord = 5", "From Hell", "Leather Apron", "Der Lusk-Brief = 1",
                     "Bloodhounds", "Ein Messer"])
PHONE = {"REMOTE_ADDR": "192.0.2.7"}  # a phone on the table's Wi-Fi, not the laptop


def named(app, game) -> dict | None:
    with app.app_context():
        return decks.named(get_db(), game.NAME)


def test_the_decks_page_lists_the_games_with_cards_to_name(app):
    page = Device(app).get("/decks")
    assert page.status_code == 200
    assert 'data-deck="wo_ist_jack"' in page.text and 'data-deck="london1888"' in page.text
    assert 'data-deck="mrjack"' not in page.text, "Mr. Jack has no deck to name"
    assert page.text.count("not named yet") == 2


@pytest.mark.parametrize("game", [wo_ist_jack, london1888])
def test_until_named_the_defaults_say_how_to_find_each_card(app, game):
    page = html.unescape(Device(app).get(f"/decks/{game.NAME}").text)
    assert "Not named yet" in page
    defaults = decks.defaults(game)
    for text in defaults.values():
        assert text in page
    assert "of the row (3rd from the left)" in page


def test_saved_names_are_kept_as_the_game_writes_them_and_used_by_every_new_table(app):
    laptop = Device(app)
    response = laptop.post("/decks/wo_ist_jack", {"stories": STORIES.replace(" = ", "=")})
    assert response.status_code == 303
    assert response.headers["Location"].endswith("/decks/wo_ist_jack?saved=1")
    page = html.unescape(laptop.get("/decks/wo_ist_jack?saved=1").text)
    assert "data-saved" in page and "Named on this laptop." in page
    assert named(app, wo_ist_jack) == {"stories": STORIES}
    for _ in range(2):
        code = create_table(app, "wo_ist_jack", 4).code
        with app.app_context():
            options = tables.get_table(get_db(), code)["options"]
        assert options["story_names"][4] == "Mary Kelly tot"
        assert options["story_points"]["Doppelmord"] == 5
    assert "named on this laptop" in Device(app).get("/decks").text


def test_london_tables_turn_the_named_cards(app):
    events = "\n".join(["Manifestation", "Resignation",
                        *(f"Fog {number}" for number in range(3, 16))])
    murders = "\n".join(f"Victim {number}" for number in range(1, 6))
    assert Device(app).post("/decks/london1888", {"event_cards": events,
                                                  "murder_cards": murders}
                            ).status_code == 303
    laptop, _phones = seated_table(app, "london1888", ["A", "B", "C", "D"])
    with app.app_context():
        deck = tables.get_table(get_db(), laptop.code)["state"]["deck"]
    assert {card["name"] for card in deck} == set(events.split("\n")) | set(
        murders.split("\n"))


@pytest.mark.parametrize(("game", "fields", "message"), [
    (wo_ist_jack, {"stories": "A\nB"}, "exactly 12 story cards"),
    (wo_ist_jack, {"stories": STORIES.replace("From Hell", "Ein Messer")},
     "must all be different"),
    (wo_ist_jack, {"stories": STORIES.replace("= 4", "= 99")}, "between 1 and 15"),
    (wo_ist_jack, {"stories": STORIES.replace("Polizei tappt im Dunkeln", "Polizei")},
     "must include “Polizei tappt im Dunkeln”"),
    (london1888, {"murder_cards": "One\nTwo"}, "exactly 5 Murder card names"),
    (london1888, {"murder_cards": "Resignation\nB\nC\nD\nE"}, "both a Murder card"),
])
def test_a_refused_deck_keeps_what_was_typed_and_keeps_nothing(app, game, fields, message):
    response = Device(app).post(f"/decks/{game.NAME}", {**decks.defaults(game), **fields})
    assert response.status_code == 422
    page = html.unescape(response.text)
    assert message in page
    for text in fields.values():
        assert text in page, "nothing typed is lost"
    assert named(app, game) is None


def test_ten_thousand_names_are_refused_in_a_sentence(app):
    many = "\n".join(f"Story {number}" for number in range(10_000))
    response = Device(app).post("/decks/wo_ist_jack", {"stories": many})
    assert response.status_code == 422
    assert "far more text than any deck needs" in html.unescape(response.text)
    assert named(app, wo_ist_jack) is None


def test_a_name_of_a_megabyte_is_refused_in_a_sentence(app):
    huge = STORIES.replace("Ein Messer", "x" * 1_000_000)
    response = Device(app).post("/decks/wo_ist_jack", {"stories": huge})
    assert response.status_code in (413, 422)
    assert "Traceback" not in response.text and len(response.text) < 100_000
    assert named(app, wo_ist_jack) is None


def test_html_in_a_name_is_shown_as_text_everywhere(app):
    evil = STORIES.replace("Ein Messer", "<script>alert(1)</script><b>x")
    assert Device(app).post("/decks/wo_ist_jack", {"stories": evil}).status_code == 303
    laptop, phones = seated_table(app, "wo_ist_jack", ["Ann", "Bob"])
    pages = [Device(app).get("/decks/wo_ist_jack").text, laptop.screen().text,
             phones[0].phone().text]
    for page in pages:
        assert "<script>alert(1)" not in page and "<b>x" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;&lt;b&gt;x" in pages[0]


@pytest.mark.parametrize("path", ["/decks", "/decks/wo_ist_jack"])
def test_only_the_laptop_names_the_cards(app, path):
    phone = Device(app)
    assert phone.get(path, environ_base=PHONE).status_code == 403
    response = phone.post("/decks/wo_ist_jack", {"stories": STORIES}, environ_base=PHONE)
    assert response.status_code == 403
    assert "on the laptop running the companion" in html.unescape(response.text)
    assert named(app, wo_ist_jack) is None


@pytest.mark.parametrize("name", ["mrjack", "chess", "tally"])
def test_a_game_without_a_deck_has_no_deck_page(app, name):
    assert Device(app).get(f"/decks/{name}").status_code == 404
    assert Device(app).post(f"/decks/{name}", {"stories": STORIES}).status_code == 404


def test_a_deck_without_the_csrf_token_is_refused(app):
    laptop = Device(app)
    response = laptop.client.post("/decks/wo_ist_jack", data={"stories": STORIES})
    assert response.status_code in (400, 403)
    assert named(app, wo_ist_jack) is None


def test_the_setup_page_leads_to_the_deck(app):
    page = Device(app).get("/new/wo_ist_jack").text
    assert 'href="/decks/wo_ist_jack"' in page and "Name the cards once" in page
    Device(app).post("/decks/wo_ist_jack", {"stories": STORIES})
    assert "Change the card names" in Device(app).get("/new/wo_ist_jack").text


# --- a deck goes with its table's export ---------------------------------------------

def exported(app) -> dict:
    laptop, _phones = seated_table(app, "wo_ist_jack", ["Ann", "Bob"])
    with app.app_context():
        db = get_db()
        return importing.export_table(db, tables.get_table(db, laptop.code)["id"])


def test_an_export_carries_the_deck_and_a_laptop_without_one_adopts_it(app, tmp_path):
    Device(app).post("/decks/wo_ist_jack", {"stories": STORIES})
    data = exported(app)
    assert data["deck"] == {"stories": STORIES}
    with app.app_context():
        get_db().execute("DELETE FROM decks")
    response = upload(Device(app), "/import", json.dumps(data).encode())
    assert response.status_code == 303
    assert named(app, wo_ist_jack) == {"stories": STORIES}


def test_an_imported_deck_never_overwrites_the_laptops_own(app):
    data = exported(app)
    data["deck"] = {"stories": STORIES}
    mine = STORIES.replace("Bloodhounds", "Unsere Karte")
    Device(app).post("/decks/wo_ist_jack", {"stories": mine})
    assert upload(Device(app), "/import", json.dumps(data).encode()).status_code == 303
    assert named(app, wo_ist_jack) == {"stories": mine}


@pytest.mark.parametrize(("deck", "message"), [
    ("Ann", "must be a deck of card names"),
    ({"stories": 12}, "card names must be text"),
    ({"stories": "A\nB"}, "exactly 12 story cards"),
    ({"stories": "\n".join(f"S{n}" for n in range(10_000))}, "far more text"),
])
def test_a_hostile_deck_in_an_export_is_refused_and_nothing_kept(app, deck, message):
    data = exported(app)
    data["deck"] = deck
    response = upload(Device(app), "/import", json.dumps(data).encode())
    assert response.status_code == 422
    assert message in html.unescape(response.text)
    assert named(app, wo_ist_jack) is None
    with app.app_context():
        assert len(tables.open_tables(get_db())) == 1, "only the exported table"


def test_a_value_learnt_in_play_never_overwrites_a_deck_renamed_since(app):
    laptop, phones = seated_table(app, "wo_ist_jack", ["Ann", "Bob"])
    assert laptop.table_act("start_player", seat=0).status_code == 303
    with app.app_context():
        story = tables.get_table(get_db(), laptop.code)["state"]["current"]
    assert phones[0].act("print", story=story, points=5).status_code == 303
    assert phones[1].act("pass").status_code == 303
    Device(app).post("/decks/wo_ist_jack", {"stories": STORIES})
    assert laptop.host("start").status_code == 303
    assert named(app, wo_ist_jack) == {"stories": STORIES}
