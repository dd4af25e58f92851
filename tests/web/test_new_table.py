"""A new table's form starts from the last table's options: it says in words which it
kept from the base game, with the base game (the defaults) one tap away (issue 38,
point 10: after a London-extension table, /new/mrjack opened with the extension ticked
and nothing said so)."""

from __future__ import annotations

import html

from tests.support.webflow import Device, create_table


def page(app, game: str, query: str = "") -> str:
    return html.unescape(Device(app).get(f"/new/{game}{query}").text)


def test_a_first_table_is_the_base_game_and_says_nothing_kept(app):
    for game in ("mrjack", "whitechapel", "london1888", "wo_ist_jack"):
        assert "data-kept-options" not in page(app, game)


def test_the_london_extension_kept_from_the_last_table_is_said_with_the_base_game_a_tap_away(
        app):
    create_table(app, "mrjack", 2, london="on")
    kept = page(app, "mrjack")
    assert 'name="london" checked' in kept
    assert "Kept from the last table: Mr. Jack London extension: on." in kept
    assert 'href="/new/mrjack?base=1" data-base-game' in kept
    # One tap: the base game's form, nothing ticked, said so.
    base = page(app, "mrjack", "?base=1")
    assert 'name="london" checked' not in base and 'name="london"' in base
    assert "data-kept-options" not in base
    assert "The base game: every option at its default." in base
    # A base-game table is remembered as such: nothing to say the next time.
    create_table(app, "mrjack", 2)
    assert "data-kept-options" not in page(app, "mrjack")


def test_letters_from_whitechapel_names_each_option_kept(app):
    policemen = {f"policeman_{colour}": seat for colour, seat in
                 (("blue", "2"), ("yellow", "2"), ("brown", "1"), ("red", "2"), ("green", "2"))}
    create_table(app, "whitechapel", 3, false_clues="on", **policemen)
    kept = page(app, "whitechapel")
    assert "Kept from the last table: False clues: on, Policemen." in kept
    assert "data-kept-options" not in page(app, "whitechapel", "?base=1")


def test_london_says_its_kept_options_by_the_form_s_words(app):
    # Characters chosen for seat 5 is the default; drawn at random is not.
    create_table(app, "london1888", 5, characters="drawn", absinthe="on")
    assert "Kept from the last table: Characters for seats 5 to 8." in page(app, "london1888")
    create_table(app, "london1888", 4, absinthe="")
    assert "Kept from the last table: The ABSINTHE card: off." in page(app, "london1888")


def test_the_laptops_card_names_are_not_counted_as_kept_options(app):
    create_table(app, "wo_ist_jack", 3)
    assert "data-kept-options" not in page(app, "wo_ist_jack")


def test_the_note_reads_in_the_readers_language(app):
    create_table(app, "mrjack", 2, london="on")
    german = html.unescape(Device(app).get("/new/mrjack", headers={
        "Accept-Language": "de"}).text)
    assert "Vom letzten Tisch übernommen: Erweiterung Mr. Jack London: an." in german
