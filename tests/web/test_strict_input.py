"""Links and forms parsed strictly, and exports a spreadsheet cannot run (issue 15, point 6).

``str.isdigit`` takes "²" and "①", which ``int`` refuses: a page that trusted it
answered 500. Every number a request carries goes through the strict parser of
``companion.games.base``; every text cell of a CSV export is written so that a
spreadsheet shows it as text instead of running it as a formula.
"""

from __future__ import annotations

import csv
import io
import random
import re

import pytest
from jinja2 import ChoiceLoader, FileSystemLoader

from companion import create_app, tables
from companion.games import discover
from companion.games.base import int_or_none
from companion.web.spreadsheet import spreadsheet_text
from tests.support import TEMPLATES, tally
from tests.support.boardfiles import real_board_path
from tests.support.webflow import Device, seated_table

NOT_NUMBERS = ["²", "①", "١٢", "8²", "1_0", "0x10", " ", "82.0", "9" * 40]


@pytest.mark.parametrize("text", NOT_NUMBERS)
def test_the_shared_parser_takes_only_plain_digits(text):
    assert int_or_none(text, 0, 10**50) is None


def test_the_shared_parser_takes_plain_numbers_in_range():
    assert int_or_none(" 82 ", 1, 195) == 82
    assert int_or_none("0", 1, 195) is None
    assert int_or_none(None, 1, 195) is None


@pytest.fixture
def board_app(tmp_path):
    app = create_app({
        "TESTING": True, "DATABASE": str(tmp_path / "companion.sqlite"),
        "GAMES": {**discover(), tally.NAME: tally}, "RNG": random.Random(1888),
        "BOARD_DIR": str(tmp_path / "no-boards"), "BOARD_PATHS": [str(real_board_path())]})
    app.jinja_loader = ChoiceLoader([app.jinja_loader, FileSystemLoader(str(TEMPLATES))])
    return app


def test_jacks_map_ignores_links_that_are_not_plain_numbers(board_app):
    laptop, phones = seated_table(board_app, "whitechapel", ["Jack", "Ann", "Bob"],
                                  board="Letters from Whitechapel")
    jack = phones[0]
    assert jack.act("hideout", circle=90).status_code == 303
    assert jack.act("women", circles="3 21 27 65 84").status_code == 303
    with board_app.app_context():
        from companion.db import get_db

        state = tables.get_table(get_db(), laptop.code)["state"]
    head = phones[state["policemen"][state["head_tiles"][0]]]
    assert head.act("patrols_placed").status_code == 303
    assert jack.act("kill", circle=65).status_code == 303
    plain = jack.phone()
    assert plain.status_code == 200 and 'class="board-map' in plain.text
    for query in ("to=²", "first=²", "to=①", "to=١٢", "first=①&to=²", "to=82²"):
        page = jack.get(f"/t/{jack.code}/me?{query}")
        assert page.status_code == 200, query
        # The ways sheet is always drawn (the same for every Jack at rest), picked empty.
        assert not re.search(r'data-picked="[^"]', page.text), query
    assert 'data-picked="82"' in jack.get(f"/t/{jack.code}/me?to=82").text


@pytest.mark.parametrize("players", ["²", "①", "١٢", "3²"])
def test_a_refused_player_count_is_a_message_not_a_500(app, players):
    laptop = Device(app)
    response = laptop.post("/new/tally", {"players": players})
    assert response.status_code == 422
    assert "number of players must be a whole number" in response.text


@pytest.mark.parametrize("cell", ["=1+2", "+SUM(A1)", "-2+3", "@cmd", "\tx", "\rx"])
def test_a_cell_that_could_be_a_formula_is_written_as_text(cell):
    assert spreadsheet_text(cell) == "'" + cell
    assert spreadsheet_text("Ann") == "Ann"
    assert spreadsheet_text(-2) == -2  # numbers stay numbers


FORMULAS = ['=HYPERLINK("http://x.io";"a")', "@cmd", "+SUM(A1)", "-Ann"]
"""Names a player may join with (no comma: a tournament's names are comma-free; a tab or
a line break at the start is trimmed off a name, ``spreadsheet_text`` is checked above)."""
PHONE, STRANGER = "192.0.2.7", "198.51.100.9"


def csv_cells(text: str) -> list[str]:
    return [cell for row in csv.reader(io.StringIO(text, newline="")) for cell in row]


def test_every_csv_export_holds_no_formula(app):
    """Every CSV route of the app (the URL map's ``.csv`` rules, so a new export is
    checked too), with players who joined as formulas, read from the laptop, a phone and
    a stranger: each such name arrives as text, behind an apostrophe."""
    from tests.support.history_games import mrjack_game
    from tests.web.test_tournament import new_tournament, register

    mrjack_game(app, jack=FORMULAS[0], detective=FORMULAS[1])
    mrjack_game(app, jack=FORMULAS[2], detective=FORMULAS[3])
    organiser = new_tournament(app)
    register(app, organiser, names=[*FORMULAS, "Bob"])
    urls = {"history.export_csv": "/history.csv",
            "tournament.standings_csv": f"/tournaments/{organiser.tid}/standings.csv",
            "tournament.results_csv": f"/tournaments/{organiser.tid}/results.csv"}
    assert {rule.endpoint for rule in app.url_map.iter_rules()
            if rule.rule.endswith(".csv")} == set(urls), "a CSV route this test does not read"
    for address in ("127.0.0.1", PHONE, STRANGER):
        cells = []
        for endpoint, url in urls.items():
            response = organiser.get(url, environ_base={"REMOTE_ADDR": address})
            assert response.status_code == 200 and response.mimetype == "text/csv", endpoint
            cells += csv_cells(response.text)
            for cell in csv_cells(response.text):
                assert not cell.startswith(("=", "+", "@", "\t", "\r")), (endpoint, cell)
                assert not cell.startswith("-") or cell.lstrip("-").isdigit(), (endpoint, cell)
        assert {"'" + name for name in FORMULAS} <= set(cells)
        assert any(cell.startswith(f"'{FORMULAS[0]}") and FORMULAS[1] in cell
                   for cell in cells)  # the history's players cell


ARABIC_INDIC = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")


def lax(number: int) -> list[str]:
    """``number`` as ``int`` took it but the forms' parser does not: another script's
    digits ("٥" is 5), underscores ("0_5" is 5), superscripts."""
    return [str(number).translate(ARABIC_INDIC), f"0_{number}", f"{number}²"]


@pytest.mark.parametrize("way", range(3))
def test_a_seat_is_a_plain_number(app, way):
    laptop, _phones = seated_table(app, "tally", ["Ann", "Bob", "Cy"], start=False)
    version = laptop.version()
    seat = lax(1)[way]
    for control in ("hand-host", "rejoin", "remove-seat"):
        assert laptop.host(control, seat=seat).status_code == 400
    assert Device(app).post(f"/j/{laptop.code}", {"seat": "9" * 30, "name": "Di"}
                            ).status_code == 422  # too big for SQLite: was a 500
    assert laptop.version() == version


@pytest.mark.parametrize("way", range(3))
def test_a_seen_version_is_a_plain_number(app, way):
    laptop, (ann, _bob) = seated_table(app, "tally", ["Ann", "Bob"])
    before = laptop.version()
    version = lax(before)[way]
    replies = [ann.act("add", version=version, amount=1),
               laptop.table_act("skip", version=version), laptop.host("undo", version=version)]
    for reply in replies:
        assert reply.status_code == 400, (version, reply.status_code)
    assert laptop.version() == before
