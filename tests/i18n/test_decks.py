"""A deck's default names in the laptop's language, and saved back as the defaults."""

from __future__ import annotations

import html

from companion import decks
from companion.db import get_db
from tests.support.webflow import Device


def test_a_german_laptop_reads_the_default_names_in_german_and_keeps_them_as_defaults(app):
    laptop = Device(app)
    german = {"Accept-Language": "de"}
    page = html.unescape(laptop.get("/decks/london1888", headers=german).text)
    assert "Murder 1 of the row" not in page
    textarea = page.split('name="murder_cards"', 1)[1].split("</textarea>", 1)[0]
    typed = textarea.split(">", 1)[1]
    events = page.split('name="event_cards"', 1)[1].split("</textarea>", 1)[0].split(">", 1)[1]
    response = laptop.post("/decks/london1888", {"murder_cards": typed.replace("\n", "\r\n"),
                                                 "event_cards": events}, headers=german)
    assert response.status_code == 303
    with app.app_context():
        game = app.config["GAMES"]["london1888"]
        assert decks.named(get_db(), "london1888") == decks.defaults(game)
