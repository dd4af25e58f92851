"""Crossings as the board shows them (issue 36): the real board prints no number on a
police crossing, so no page, fragment, replay step or history page a person reads names a
crossing by the companion's number for it, in any language; each says the circles around
it (``policemap.crossing_names``), as the refusals do.

Two policemen stand on crossings whose numbers are no circle's (196 and 200): those
numbers may not show at all. For the others, a colour followed by a number ("blue on
57", "Blau: 57", "bleu sur 57") would be a crossing named by its number."""

from __future__ import annotations

import html
import re

import pytest

from companion.games.whitechapel.board import load_board
from companion.games.whitechapel.policemap import crossing_names
from tests.support.boardfiles import real_board_path
from tests.support.webflow import Device, seated_table, state_of
from tests.web.test_whitechapel_board import NAME, head_phone, make_app

CRIME = 65
PLACED = {"blue": 165, "yellow": 107, "brown": 101, "red": 119, "green": 186}
MOVED = {"blue": 196, "green": 200}
"""Crossings whose numbers no circle bears (the circles are 1-195)."""
COLOURS = {"en": "blue|yellow|brown|red|green",
           "de": "blau|gelb|braun|rot|grün",
           "fr": "bleu|jaune|marron|rouge|vert"}
QUERIES = ("", "?cop=blue", "?cop=green&to=200", "?cop=yellow", "?speak=blue",
           "?speak=green", "?speak=green&arrest=green")
"""A phone's picks in its address (the police map's and the searches' fragments)."""
READ = re.compile(r'\b(?:aria-label|title|alt|placeholder)="([^"]*)"')
UNREAD = re.compile(r"<(script|style)\b.*?</\1>", re.S)


@pytest.fixture
def real_app(tmp_path):
    return make_app(tmp_path, real_board_path())


def read(page: str) -> str:
    """What a person reads on a page: its text (folded sections too) and the words a
    screen reader says (labels, titles); not its data attributes, links or scripts."""
    page = UNREAD.sub(" ", page)
    spoken = " ".join(READ.findall(page))
    return html.unescape(re.sub(r"<[^>]+>", " ", page) + " " + spoken)


def assert_no_crossing_number(page: str, language: str, where: str) -> None:
    text = read(page)
    for number in MOVED.values():
        assert not re.search(rf"\b{number}\b", text), (where, language, number)
    named = re.search(rf"(?i)\b(?:{COLOURS[language]})\b\W{{0,3}}(?:\w{{1,5}}\W{{1,3}})?\d",
                      text)
    assert named is None, (where, language, text[max(0, named.start() - 80):named.end() + 40])


def every_page(app, laptop, phones, queries=QUERIES) -> dict[str, str]:
    """Every page and fragment of the table: the table screen (the host's and another
    device's), each phone with each pick in its address, whole and as htmx fetches it,
    and the replay of each night that may be replayed, step by step, in English; in the
    other languages (the same numbers in other words) the screens, the replays and each
    phone whole, at rest and with a crossing picked."""
    code = laptop.code
    bystander = Device(app, code)
    pages = {}
    for language in COLOURS:
        said = {"Accept-Language": language}
        for name, device in (("host", laptop), ("screen", bystander)):
            for query in ("", "?cop=blue", "?cop=green&to=200"):
                pages[f"{language} {name} {query}"] = device.get(f"/t/{code}{query}",
                                                                 headers=said).text
        english = language == "en"
        for seat, phone in enumerate(phones):
            for query in queries if english else ("", "?cop=green&to=200"):
                for hx in ({}, {"HX-Request": "true"}) if english else ({},):
                    answer = phone.get(f"/t/{code}/me{query}", headers={**said, **hx})
                    assert answer.status_code == 200, (seat, query)
                    pages[f"{language} seat {seat} {query} {bool(hx)}"] = answer.text
        replay = laptop.get(f"/t/{code}/replay", headers=said)
        if replay.status_code == 404:
            continue
        for night in map(int, re.findall(r'data-replay-night="(\d+)"', replay.text)):
            steps = int(re.search(r'data-steps="(\d+)"', laptop.get(
                f"/t/{code}/replay?night={night}").text).group(1))
            for step in range(steps):
                pages[f"{language} replay {night}.{step}"] = phones[1].get(
                    f"/t/{code}/replay?night={night}&step={step}", headers=said).text
    return pages


def assert_every_page_names_crossings_in_words(app, laptop, phones) -> dict[str, str]:
    pages = every_page(app, laptop, phones)
    for where, page in pages.items():
        assert_no_crossing_number(page, where.split()[0], where)
    return pages


def test_no_page_names_a_crossing_by_a_number_through_two_nights(real_app):
    board = load_board(real_board_path())
    names = crossing_names(board)
    start = 66
    home = next(n for n in sorted(board.normal_moves(start) - {CRIME} - board.red)
                if board.is_legal_hideout(n))
    laptop, phones = seated_table(real_app, "whitechapel", ["Jack", "Ann", "Bob"],
                                  board=NAME, police_map="on", deduction_map="on")
    jack = phones[0]
    assert jack.act("hideout", circle=home).status_code == 303
    assert jack.act("women", circles="3 21 27 65 84").status_code == 303
    assert head_phone(real_app, laptop, phones).act("patrols_placed").status_code == 303
    assert jack.act("kill", circle=CRIME).status_code == 303
    assert laptop.table_act("place", policeman="blue", crossing=PLACED["blue"]).status_code == 303
    assert_every_page_names_crossings_in_words(real_app, laptop, phones)  # the alarm
    for colour, crossing in PLACED.items():
        assert laptop.table_act("place", policeman=colour, crossing=crossing).status_code == 303
    assert jack.act("move", circle=start).status_code == 303
    for colour, crossing in MOVED.items():
        assert laptop.table_act("move_policeman", policeman=colour,
                                crossing=crossing).status_code == 303
    assert_every_page_names_crossings_in_words(real_app, laptop, phones)
    assert laptop.table_act("end_turn").status_code == 303
    pages = assert_every_page_names_crossings_in_words(real_app, laptop, phones)
    # Really named: where each stands, in words, on a detective's "Where the policemen
    # stand", on either phone.
    for page in (pages["en seat 1  False"], pages["en seat 2  True"]):
        for colour, crossing in {**PLACED, **MOVED}.items():
            assert f"{colour.title()}: {names[crossing]}" in read(page), colour
    assert jack.act("escape", circle=home).status_code == 303
    assert state_of(real_app, laptop.code)["night"] == 2
    pages = assert_every_page_names_crossings_in_words(real_app, laptop, phones)
    replayed = read(pages["en replay 1.1"])
    assert f"Green: {names[200]}" in replayed and f"Blue: {names[196]}" in replayed
    assert "Grün: die Kreuzung" in read(pages["de replay 1.1"])
    assert "Vert\u00a0: le carrefour" in read(pages["fr replay 1.1"])
    # Night 2: the policemen stand where they ended night 1 (or on a yellow crossing).
    assert jack.act("women", circles="3 21 27 84").status_code == 303
    assert head_phone(real_app, laptop, phones).act("patrols_placed").status_code == 303
    assert jack.act("kill", circle=3).status_code == 303
    for colour, crossing in {**PLACED, **MOVED}.items():
        assert laptop.table_act("place", policeman=colour, crossing=crossing).status_code == 303
    step = min(board.normal_moves(3) - board.red)
    assert jack.act("move", circle=step).status_code == 303
    near = sorted(board.circles_next_to(MOVED["green"]))
    for colour, crossing in state_of(real_app, laptop.code)["cops"]["at"].items():
        assert laptop.table_act("move_policeman", policeman=colour,  # each stays
                                crossing=crossing).status_code == 303
    assert laptop.table_act("arrest", policeman="green", circle=near[0]).status_code == 303
    assert_every_page_names_crossings_in_words(real_app, laptop, phones)
    # Ended by the host: night 2 replays too, as far as it went.
    assert laptop.host("close").status_code == 303
    pages = assert_every_page_names_crossings_in_words(real_app, laptop, phones)
    assert f"Green: {names[200]}" in read(pages["en replay 2.1"])
