"""Letters from Whitechapel board mode through the Flask client: loading boards,
the setup page, legal moves only, the maps, the board's drawing, non-interference.

Played on the real board, the one shipped with the companion; loading errors use
made-up files.
"""

from __future__ import annotations

import gzip
import json
import random
import re
import subprocess
import sys

import pytest
from jinja2 import ChoiceLoader, FileSystemLoader

from companion import create_app, importing, tables
from companion.games import discover
from companion.games.base import TABLE, RuleError
from companion.games.whitechapel import rules as wc
from companion.games.whitechapel.board import (
    SHIPPED_NAME,
    BoardError,
    board_from_graph,
    load_board,
)
from tests.support import TEMPLATES, tally
from tests.support.boardfiles import TINY_BOARD, real_board_path
from tests.support.html import at_rest
from tests.support.noninterference import assert_indistinguishable, play_both, render_component
from tests.support.realserver import ROOT
from tests.support.webflow import Device, seated_table, state_of
from tests.support.whitechapel_walks import CRIME, routes

NAME = "Letters from Whitechapel"
NOT_JACK = [TABLE, 1, 2]
PHONE_BUDGET = 60_000
"""A phone's first page, gzipped, stays under this (issue #4, the map's size)."""


def make_app(tmp_path, *boards, board_dir=None, shipped=True):
    app = create_app({
        "TESTING": True, "DATABASE": str(tmp_path / "companion.sqlite"),
        "GAMES": {**discover(), tally.NAME: tally}, "RNG": random.Random(1888),
        "BOARD_DIR": str(board_dir or tmp_path / "no-boards"),
        "BOARD_PATHS": [str(path) for path in boards],
        **({} if shipped else {"SHIPPED_BOARDS": []})})
    app.jinja_loader = ChoiceLoader([app.jinja_loader,
                                     FileSystemLoader(str(TEMPLATES))])
    return app


@pytest.fixture
def real_app(tmp_path):
    return make_app(tmp_path, real_board_path())


def refused_creation(app, form: dict[str, str]) -> str:
    """A new table with ``form`` is refused (422): the page shown."""
    page = Device(app).post("/new/whitechapel", form)
    assert page.status_code == 422
    return page.text

def head_phone(app, laptop, phones):
    state = state_of(app, laptop.code)
    return phones[state["policemen"][state["head_tiles"][state["night"] - 1]]]


def board_table(app, deduction=True, names=("Jack", "Ann", "Bob"), **more):
    options = {"board": NAME, **more}
    if deduction:
        options["deduction_map"] = "on"
    return seated_table(app, "whitechapel", list(names), **options)


def to_hunting(app, crime=65, **kwargs):
    laptop, phones = board_table(app, **kwargs)
    jack = phones[0]
    assert jack.act("hideout", circle=90).status_code == 303
    assert jack.act("women", circles="3 21 27 65 84").status_code == 303
    assert head_phone(app, laptop, phones).act("patrols_placed").status_code == 303
    assert jack.act("kill", circle=crime).status_code == 303
    return laptop, phones


def gzipped(response) -> int:
    return len(gzip.compress(response.data, 6))


# --- loading boards --------------------------------------------------------------------

def test_boards_from_the_folder_and_from_paths_are_loaded_once(tmp_path):
    folder = tmp_path / "boards"
    folder.mkdir()
    (folder / "tiny.json").write_text(TINY_BOARD.read_text())
    app = make_app(tmp_path, TINY_BOARD, board_dir=folder)
    assert list(app.config["BOARDS"]) == [NAME, "Tiny test district"]
    assert app.config["BOARDS"]["Tiny test district"] == load_board(TINY_BOARD)


def test_a_broken_board_file_stops_the_app_with_its_problems(tmp_path):
    broken = tmp_path / "broken.json"
    data = json.loads(TINY_BOARD.read_text())
    data["roads"].append([12, 300])
    broken.write_text(json.dumps(data))
    with pytest.raises(BoardError, match="road link 12-300 names unknown circle 300"):
        make_app(tmp_path, broken)


def test_two_different_boards_with_one_name_are_refused(tmp_path):
    other = tmp_path / "other.json"
    data = json.loads(TINY_BOARD.read_text())
    data["roads"].remove([13, 14])
    data["roads"].append([14, 15])
    other.write_text(json.dumps(data))
    with pytest.raises(BoardError, match="already does"):
        make_app(tmp_path, TINY_BOARD, other)


@pytest.mark.slow
def test_serve_with_a_broken_board_prints_the_problem_not_a_traceback(tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text('{"board": "X", "circles": [')
    result = subprocess.run(
        [sys.executable, "-m", "companion", "serve", "--db", str(tmp_path / "c.sqlite"),
         "--no-browser", "--port", "0", "--board", str(broken)],
        cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert result.returncode == 2
    assert f"Board file {broken}: is not valid JSON" in result.stderr
    assert "Traceback" not in result.stderr


# --- the setup page ----------------------------------------------------------------------

def test_setup_without_boards_says_numbers_only(tmp_path):
    page = Device(make_app(tmp_path, shipped=False)).get("/new/whitechapel").text
    assert "no board: numbers only" in page and "data-no-board" in page
    assert 'name="board"' not in page and 'name="deduction_map"' not in page


def test_a_fresh_install_offers_the_shipped_board_as_the_default(app):
    """The board ships with the app: no file of the user's own is needed, and a first
    setup plays on it unless "no board" is chosen (kept when the form is refused)."""
    assert NAME == SHIPPED_NAME
    laptop = Device(app)
    assert f'<option value="{NAME}" selected>{NAME}</option>' in laptop.get(
        "/new/whitechapel").text
    refused = laptop.post("/new/whitechapel", {"players": "99", "board": ""})
    assert refused.status_code == 422
    assert f'<option value="{NAME}">{NAME}</option>' in refused.text  # not selected


def test_setup_offers_the_loaded_boards_and_remembers_the_choice(tmp_path):
    app = make_app(tmp_path, TINY_BOARD)
    laptop = Device(app)
    page = laptop.get("/new/whitechapel").text
    assert '<option value="">no board: numbers only</option>' in page
    assert '<option value="Tiny test district">Tiny test district</option>' in page
    assert 'name="deduction_map"' in page
    seated_table(app, "whitechapel", ["J", "A"], start=False, board="Tiny test district")
    again = laptop.get("/new/whitechapel").text
    assert '<option value="Tiny test district" selected>' in again


def test_a_table_with_a_board_keeps_the_boards_graph(real_app):
    laptop, _phones = board_table(real_app)
    state = state_of(real_app, laptop.code)
    assert board_from_graph(state["board"]) == board_from_graph(
        load_board(real_board_path()).graph())
    assert wc.view(state, TABLE)["options"]["board"] == NAME


def test_a_board_that_is_not_loaded_is_refused_at_creation(tmp_path):
    page = refused_creation(make_app(tmp_path), {"players": "3", "board": "Nowhere"})
    assert "not loaded on this laptop" in page


def test_without_a_board_the_game_plays_with_numbers(client, app):
    laptop, phones = seated_table(app, "whitechapel", ["J", "A"])
    assert state_of(app, laptop.code)["board"] is None
    page = phones[0].phone().text
    assert "board-map" not in page and "data-keypad" in page


# --- legal moves only ---------------------------------------------------------------------

def test_illegal_moves_are_refused_and_change_nothing(real_app):
    laptop, phones = to_hunting(real_app)
    jack = phones[0]
    before = laptop.version()
    for fields, message in [
            ({"circle": 127}, "No road joins 65 and 127."),
            ({"circle": 300}, "between 1 and 195")]:
        page = jack.act("move", **fields)
        assert page.status_code == 422 and message in page.text
    page = jack.act("coach", circle=66, circle2=65)
    assert page.status_code == 422 and "different from your start" in page.text
    page = jack.act("alley", circle=127)
    assert page.status_code == 422 and "No alley crosses a block of houses" in page.text
    assert laptop.version() == before
    assert jack.act("move", circle=82).status_code == 303


def test_a_red_hideout_is_refused(real_app):
    _laptop, phones = board_table(real_app)
    page = phones[0].act("hideout", circle=3)
    assert page.status_code == 422 and "red circle" in page.text


# --- the maps -------------------------------------------------------------------------------

def test_jacks_phone_shows_the_map_with_his_legal_destinations(real_app):
    _laptop, phones = to_hunting(real_app)
    page = phones[0].phone().text
    board = load_board(real_board_path())
    assert 'class="board-map zoomable"' in page
    tappable = set(map(int, re.findall(r'data-to="(\d+)"', page)))
    coach_ends = {second for _, second in board.coach_routes(65)}
    assert tappable == board.normal_moves(65) | coach_ends | board.alley_moves(65)
    assert "closed to a normal move" in page  # the policemen's reminder
    picked = phones[0].get(f"/t/{phones[0].code}/me?to=82").text
    assert 'data-way="move"' in picked and 'name="circle" value="82"' in picked


def test_jack_taps_a_way_and_it_is_played(real_app):
    laptop, phones = to_hunting(real_app)
    page = phones[0].get(f"/t/{phones[0].code}/me?to=82").text
    form = re.search(r'<form method="post" action="([^"]+)"[^>]*>(.*?)</form>', page[
        page.index('data-picked="82"'):], re.S)
    fields = dict(re.findall(r'name="(\w+)" value="([^"]*)"', form.group(2)))
    assert fields["type"] == "move" and fields["circle"] == "82"
    assert phones[0].post(form.group(1), fields).status_code == 303
    assert state_of(real_app, laptop.code)["nights"][0]["moves"] == [
        {"kind": "move", "circles": [82]}]


def test_the_deduction_map_is_on_the_table_and_the_detectives_phones(real_app):
    laptop, phones = to_hunting(real_app)
    assert phones[0].act("move", circle=82).status_code == 303
    for page in (laptop.screen().text, phones[1].phone().text, phones[2].phone().text):
        shown = re.search(r'data-possible="([\d ]*)"', page)
        assert shown and set(map(int, shown.group(1).split())) == {51, 63, 66, 67, 82, 83, 84}
        assert "data-to=" not in page and 'class="circle jack' not in page


def test_the_deduction_map_shrinks_when_a_clue_is_found(real_app):
    laptop, phones = to_hunting(real_app)
    assert phones[0].act("move", circle=82).status_code == 303
    assert laptop.table_act("search", policeman="blue", circle=82).status_code == 303
    page = phones[1].phone().text
    assert set(map(int, re.search(r'data-possible="([\d ]*)"', page).group(1).split())) \
        == {82}


def test_the_deduction_map_is_off_by_default(real_app):
    laptop, phones = to_hunting(real_app, deduction=False)
    assert "data-possible" not in laptop.screen().text
    assert "board-map" not in phones[1].phone().text


def test_the_reveal_draws_jacks_path_for_everyone(real_app):
    laptop, phones = to_hunting(real_app)
    board = load_board(real_board_path())
    home = min(board.normal_moves(65) - board.red)
    for step in (home,):
        assert phones[0].act("move", circle=step).status_code == 303
    assert laptop.table_act("arrest", policeman="blue", circle=home).status_code == 303
    for page in (laptop.screen().text, phones[1].phone().text, phones[0].phone().text):
        assert "Jack's path" in page and 'class="trail move night-1"' in page
        assert "data-possible" not in page


# --- the board's drawing ----------------------------------------------------------------------

def test_the_drawing_is_served_once_and_cached(real_app):
    _laptop, phones = to_hunting(real_app)
    page = phones[0].phone().text
    address = re.search(r'<image href="([^"]+)"', page).group(1)
    drawing = phones[0].get(address, headers={"Accept-Encoding": "gzip"})
    assert drawing.status_code == 200 and drawing.mimetype == "image/svg+xml"
    assert "max-age" in drawing.headers["Cache-Control"]
    assert drawing.headers["Content-Encoding"] == "gzip"
    again = phones[0].get(address, headers={"If-None-Match": drawing.headers["ETag"]})
    assert again.status_code == 304
    assert phones[0].get(address.replace("/boards/", "/boards/0")).status_code == 404
    assert phones[0].get("/boards/abc/Nowhere.svg").status_code == 404


def test_a_phone_page_with_the_map_stays_small(real_app):
    _laptop, phones = board_table(real_app)
    jack = phones[0]
    # The hideout choice taps the most circles: every circle but the red ones.
    first = jack.phone()
    assert first.text.count("data-to=") > 150
    drawing = jack.get(re.search(r'<image href="([^"]+)"', first.text).group(1))
    css = jack.get("/static/app.css")
    assert gzipped(first) + gzipped(drawing) + gzipped(css) < PHONE_BUDGET
    update = jack.get(f"/t/{jack.code}/me", headers={"HX-Request": "true"})
    assert gzipped(update) < 15_000


# --- secrets ----------------------------------------------------------------------------------

def board_state(hideout: str, route: list[dict], police_turn: bool = False) -> dict:
    """Jack kills on 65 and follows ``route``; the police pass after each movement,
    but not the last one with ``police_turn``."""
    board = load_board(real_board_path())
    options = {**wc.parse_options({"board": NAME, "deduction_map": "on"}, 3),
               "board_graph": board.graph()}
    state = wc.setup(options, ["Jack", "Ann", "Bob"], random.Random(3))
    steps = [(0, {"type": "hideout", "circle": hideout}),
             (0, {"type": "women", "circles": "3 21 27 65 84"}),
             (TABLE, {"type": "patrols_placed"}),
             (0, {"type": "kill", "circle": "65"})]
    for actor, action in steps:
        state = wc.apply(state, actor, action, random.Random(0))
    for number, action in enumerate(route, start=1):
        state = wc.apply(state, 0, action, random.Random(0))
        if not (police_turn and number == len(route)):
            state = wc.apply(state, TABLE, {"type": "end_turn"}, random.Random(0))
    return state


def move_then_coach(start: int, first: int) -> list[dict]:
    board = load_board(real_board_path())
    via, to = min(board.coach_routes(first))
    return [{"type": "move", "circle": str(first)},
            {"type": "coach", "circle": str(via), "circle2": str(to)}]


def test_rendered_maps_do_not_tell_the_path_or_the_hideout(real_app):
    first = board_state("90", move_then_coach(65, 66))
    second = board_state("12", move_then_coach(65, 83))
    assert first["nights"][0]["moves"] != second["nights"][0]["moves"]
    for viewer in NOT_JACK:  # the maps are really on these pages
        assert 'data-possible="' in render_component(real_app, wc, first, viewer)
    assert_indistinguishable(real_app, wc, first, second, NOT_JACK)


def test_rendered_maps_stay_identical_through_searches(real_app):
    first = board_state("90", [{"type": "move", "circle": "66"}], police_turn=True)
    second = board_state("12", [{"type": "move", "circle": "83"}], police_turn=True)
    steps = [(TABLE, {"type": "block", "circle": "65", "circle2": "66"}),
             (TABLE, {"type": "search", "policeman": "blue", "circle": "67"}),
             (TABLE, {"type": "arrest", "policeman": "red", "circle": "51"}),
             (TABLE, {"type": "end_turn"})]
    for state_a, state_b in play_both(wc, first, second, steps):
        assert_indistinguishable(real_app, wc, state_a, state_b, NOT_JACK)


def test_after_a_restart_without_the_file_the_rules_still_know_the_board(tmp_path):
    with_file = make_app(tmp_path, real_board_path())
    laptop, phones = to_hunting(with_file)
    without = make_app(tmp_path, shipped=False)  # the same database, without the board
    jack = Device(without, laptop.code)
    jack.client.set_cookie(f"seat_{laptop.code}", phones[0].client.get_cookie(
        f"seat_{laptop.code}").value)
    page = jack.phone().text
    assert "data-map-missing" in page and "board-map" not in page
    refused = jack.act("move", circle=127)
    assert refused.status_code == 422 and "No road joins 65 and 127." in refused.text
    assert jack.act("move", circle=82).status_code == 303


def test_a_detective_marks_a_road_closed_and_jacks_map_drops_it(real_app):
    laptop, phones = to_hunting(real_app, crime=65)
    jack, ann = phones[0], phones[1]
    assert jack.act("move", circle=82).status_code == 303
    page = ann.phone().text
    assert "data-closed-roads" in page
    assert ann.act("block", circle=82, circle2=83).status_code == 303
    assert 'data-closed="82-83"' in ann.phone().text
    assert "data-closed-public" in laptop.screen().text
    assert laptop.table_act("end_turn").status_code == 303
    page = jack.phone().text
    assert 'class="closed"' in page and "road closed by a policeman" in page
    assert 'data-to="83"' in page  # still reachable by an Alley or a Coach
    ways = jack.get(f"/t/{jack.code}/me?to=83").text
    assert 'data-way="move"' not in ways and 'data-way="alley"' in ways
    before = laptop.version()
    refused = jack.act("move", circle=83)
    assert refused.status_code == 422
    assert "A policeman blocks the road from 82 to 83." in refused.text
    assert laptop.version() == before


def test_the_next_game_and_an_imported_copy_keep_the_board(real_app, tmp_path):
    laptop, phones = to_hunting(real_app)
    assert phones[0].act("move", circle=82).status_code == 303
    assert laptop.table_act("arrest", policeman="blue", circle=82).status_code == 303
    assert state_of(real_app, laptop.code)["outcome"]["reason"] == "arrest"
    assert laptop.host("start").status_code == 303  # a new game, same seats
    graph = state_of(real_app, laptop.code)["board"]
    assert board_from_graph(graph) == board_from_graph(load_board(real_board_path()).graph())
    with real_app.app_context():
        from companion.db import get_db

        exported = importing.export_table(get_db(), tables.get_table(get_db(), laptop.code)["id"])
    elsewhere = make_app(tmp_path / "elsewhere", shipped=False)  # a laptop without it
    with elsewhere.app_context():
        from companion.db import get_db

        checked = importing.check(json.loads(importing.export_text(exported)),
                                  elsewhere.config["GAMES"])
        table, _token = importing.import_table(get_db(), checked, by_laptop=True)
        assert table["state"]["board"] == graph
    with pytest.raises(RuleError, match="red circle"):  # the copy still knows the board
        wc.apply(table["state"], 0, {"type": "hideout", "circle": "3"}, random.Random(0))


def test_the_deduction_map_without_a_board_is_refused_and_the_form_kept(tmp_path):
    page = refused_creation(make_app(tmp_path, TINY_BOARD),
                            {"players": "3", "deduction_map": "on", "false_clues": "on"})
    assert "The deduction map needs a board" in page
    assert 'name="false_clues" checked' in page


# --- glance-proof: what Jack's page shows in the open ----------------------------------------

@pytest.mark.parametrize("route", ["hunting", "police"])
def test_jacks_page_in_the_open_is_the_same_whatever_his_secrets(real_app, route):
    board = load_board(real_board_path())
    one = min(board.normal_moves(65) - board.red)
    other = max(board.normal_moves(65) - board.red)
    first = board_state("90", [{"type": "move", "circle": str(one)}],
                        police_turn=route == "police")
    second = board_state("12", [{"type": "move", "circle": str(other)}],
                         police_turn=route == "police")
    pages = [render_component(real_app, wc, state, 0) for state in (first, second)]
    assert pages[0] != pages[1]  # the secrets are on the page, behind the tap or the peek
    assert 'data-map-body' in pages[0] and "data-location" in pages[0]
    assert at_rest(pages[0]) == at_rest(pages[1])


@pytest.mark.slow
def test_jacks_and_anns_pages_through_the_browsers_twin_nights_are_the_same(real_app):
    """The night the browser's glance test plays on two tables (tests/support/
    whitechapel_walks.routes: other hideouts, moves, Coaches and Alleys, the same in
    public): after every step Jack's page at rest and Ann's whole page are the same at
    both. The browser photographs the refusals, the minutes untouched and a few of these
    steps; this test covers every step between, in markup (docs/TESTING.md)."""
    board = load_board(real_board_path())
    options = {**wc.parse_options({"board": NAME, "deduction_map": "on"}, 2),
               "board_graph": board.graph()}
    twins = routes(board)
    searched = min(board.normal_moves(CRIME) - twins[0].circles() - twins[1].circles())

    def night(route) -> list[dict]:
        """Each state of one table's night, from the hideout to the escape."""
        state = wc.setup(options, ["Jack", "Ann"], random.Random(1888))
        states = []
        for actor, action in [
                (0, {"type": "hideout", "circle": str(route.home)}),
                (0, {"type": "women", "circles": f"3 21 27 {CRIME} 84"}),
                (TABLE, {"type": "patrols_placed"}),
                (0, {"type": "kill", "circle": str(CRIME)}),
                (0, {"type": "move", "circle": str(route.move)}),
                (TABLE, {"type": "search", "circle": str(searched)}),
                (TABLE, {"type": "end_turn"}),
                (0, {"type": "coach", "circle": str(route.coach[0]),
                     "circle2": str(route.coach[1])}),
                (TABLE, {"type": "end_turn"}),
                (0, {"type": "alley", "circle": str(route.alley)}),
                (TABLE, {"type": "end_turn"}),
                (0, {"type": "escape", "circle": str(route.home)})]:
            if action["type"] == "search":  # the first policeman to speak searches
                action["policeman"] = wc.view(state, TABLE)["police_order"][0]
            state = wc.apply(state, actor, action, random.Random(0))
            states.append(state)
        assert state["night"] == 2
        return states

    secret_steps = 0
    sections: set[str] = set()
    for first, second in zip(*(night(route) for route in twins), strict=True):
        assert_indistinguishable(real_app, wc, first, second, [TABLE, 1])
        jacks = [render_component(real_app, wc, state, 0) for state in (first, second)]
        assert at_rest(jacks[0]) == at_rest(jacks[1])
        secret_steps += jacks[0] != jacks[1]
        sections |= set(re.findall(r"data-(targets=\"\w+\"|cannot-move|peek-pick)", jacks[0]))
    assert secret_steps == 12  # at every step his secrets are on his page, behind a tap
    # His first screen's sections were among them (issue 36): destinations held, women
    # ticked, victims tapped, "I cannot move".
    assert sections == {'targets="move"', 'targets="women"', 'targets="kill"', "cannot-move",
                        "peek-pick"}


def test_jacks_map_is_never_sent_open(real_app):
    _laptop, phones = to_hunting(real_app)
    jack = phones[0]
    for query in ("", "?to=82", "?to=82&first=3"):
        page = jack.get(f"/t/{jack.code}/me{query}").text
        assert re.search(r'<details class="wc-secret" data-secret>', page)
        assert "<details class=\"wc-secret\" data-secret open" not in page
    picked = jack.get(f"/t/{jack.code}/me?to=82").text
    assert 'data-picked="82"' in picked and 'hx-select="[data-map-body]"' in picked


def test_the_answer_to_a_search_stands_until_the_next_action(real_app):
    laptop, phones = to_hunting(real_app)
    jack, ann, bob = phones
    assert jack.act("move", circle=82).status_code == 303
    assert laptop.table_act("search", policeman="blue", circle=83).status_code == 303
    for page in (laptop.screen().text, ann.phone().text, bob.phone().text, jack.phone().text):
        assert 'data-answer="no clue"' in page and "Search <b>83</b>" in page
    assert laptop.table_act("search", policeman="blue", circle=82).status_code == 303
    assert 'data-answer="clue"' in bob.phone().text
    assert laptop.table_act("arrest", policeman="red", circle=51).status_code == 303
    assert 'data-answer="not here"' in ann.phone().text
    assert laptop.table_act("end_turn").status_code == 303
    for page in (laptop.screen().text, ann.phone().text, jack.phone().text):
        assert "data-answer" not in page


# --- issue 22: the end of a night, Jack's taps on the women --------------------------------

def escaped_to(hideout: int, route: list[int]) -> dict:
    """Night 1 played to Jack's escape on ``hideout`` along ``route`` (the crime on 65,
    ``route`` ending on the hideout), the police passing each turn: night 2's women."""
    state = board_state(str(hideout), [{"type": "move", "circle": str(c)} for c in route[:-1]])
    state = wc.apply(state, 0, {"type": "escape", "circle": str(hideout)}, random.Random(0))
    assert state["night"] == 2 and state["phase"] == "women"
    return state


def test_the_end_of_a_night_tells_the_square_never_the_hideout(real_app):
    """Two nights home on other hideouts by other roads in as many squares: the table
    screen and the detectives see the same end of the night, and the same events."""
    board = load_board(real_board_path())
    starts = sorted(board.normal_moves(65) - board.red)
    homes = [next(n for n in sorted(board.normal_moves(s) - {65} - board.red)
                  if board.is_legal_hideout(n)) for s in (starts[0], starts[-1])]
    first = escaped_to(homes[0], [starts[0], homes[0]])
    second = escaped_to(homes[1], [starts[-1], homes[1]])
    assert homes[0] != homes[1]
    assert_indistinguishable(real_app, wc, first, second, NOT_JACK)
    table = render_component(real_app, wc, first, TABLE)
    assert 'data-night-end="1"' in table and "square 3</b> of 15" in table
    jack = render_component(real_app, wc, first, 0)
    assert 'data-night-end="1"' in jack and jack.count("data-night-end=") == 1


def test_jacks_women_are_ticked_on_his_first_screen_and_sent_together(real_app):
    """Issue 36: the red circles as boxes to tick on Jack's first screen (emptied like a
    typed secret: data-secret-field), sent together as the women's circles; a
    detective's page has none."""
    laptop, phones = board_table(real_app)
    jack = phones[0]
    assert jack.act("hideout", circle=90).status_code == 303
    page = jack.phone().text
    ticks = re.findall(r'<input type="checkbox" name="circles" value="(\d+)"[^>]*'
                       r'data-secret-field>', page)
    assert ticks == ["3", "21", "27", "65", "84", "147", "149", "158"]
    assert page.index("data-now") < page.index('data-targets="women"') < page.index(
        "data-prompt")
    assert 'data-targets' not in phones[1].phone().text
    sent = jack.post(f"/t/{jack.code}/me/act", {
        "type": "women", "version": jack.version(), "circles": ["3", "21", "27", "65", "84"]})
    assert sent.status_code == 303
    assert state_of(real_app, laptop.code)["nights"][0]["women"] == [3, 21, 27, 65, 84]


def test_jacks_victims_are_buttons_that_ask_for_a_second_tap(real_app):
    laptop, phones = board_table(real_app)
    jack = phones[0]
    assert jack.act("hideout", circle=90).status_code == 303
    assert jack.act("women", circles="3 21 27 65 84").status_code == 303
    assert head_phone(real_app, laptop, phones).act("patrols_placed").status_code == 303
    page = jack.phone().text
    victims = re.findall(r'<button type="submit" class="confirm danger" data-confirm='
                         r'"Kill on (\d+)\?" name="circle" value="(\d+)"', page)
    assert victims == [(n, n) for n in ("3", "21", "27", "65", "84")]


def test_jacks_destinations_are_held_and_a_tapped_ones_ways_come_under_them(real_app):
    """Issue 36: where Jack may go, on his first screen behind hold-to-peek (a peek whose
    lifted finger picks: data-peek-pick), "I cannot move" closed; a tapped circle's ways
    come in #jack-ways, which the map's taps swap too (hx-select-oob). That the page at
    rest is the same wherever he stands: the twin nights below."""
    board = load_board(real_board_path())
    _laptop, phones = to_hunting(real_app, crime=65)
    jack = phones[0]
    page = jack.phone().text
    assert "data-peek data-peek-pick" in page
    assert '<details class="wc-cannot" data-secret data-cannot-move>' in page
    assert page.index("data-now") < page.index("data-peek-pick") < page.index("data-prompt")
    held = page[page.index('<div class="peek-secret">'):page.index("data-prompt")]
    coach_ends = {second for _, second in board.coach_routes(65)}
    assert set(map(int, re.findall(r'data-target="(\d+)"', held))) == (
        board.normal_moves(65) | coach_ends | board.alley_moves(65))
    assert '<details id="jack-ways" class="card map-ways" data-secret data-picked="">' in page
    picked = jack.get(f"/t/{jack.code}/me?to=82").text
    assert '<details id="jack-ways" class="card map-ways" data-secret data-picked="82" open>' \
        in picked
    assert picked.count('hx-select-oob="#jack-ways"') >= 2  # the buttons' and the map's


# --- issue 22: the table screen is a board ---------------------------------------------

STARTS = {"blue": 44, "yellow": 107, "brown": 101, "red": 119, "green": 186}
"""A legal alarm on the shipped board: each policeman on a start crossing."""


def marked(page: str, mark: str) -> set[int]:
    """The circles a rendered map draws with ``mark``."""
    return {int(n) for n in re.findall(
        rf'class="circle[^"]*\b{mark}\b[^"]*" data-circle="(\d+)"', page)}


def test_the_table_screen_has_one_map_with_the_policemen_on_it(real_app):
    """The board's map shows each policeman on his crossing; the host's fallback for a
    detective without a phone stays folded, and draws its picker only once he picks."""
    laptop, phones = to_hunting(real_app, police_map="on")
    placing = laptop.screen().text
    assert "data-table-map" in placing and "data-police-map" not in placing
    assert '<details class="card wc-host-police" data-host-police>' in placing
    picker = laptop.get(f"/t/{laptop.code}?cop=blue").text
    assert "data-host-police open" in picker and 'data-police-map data-picked="blue"' in picker
    for colour, crossing in STARTS.items():
        assert laptop.table_act("place", policeman=colour, crossing=crossing).status_code == 303
    screen = laptop.screen().text
    bystander = Device(real_app, laptop.code).screen().text
    for page in (screen, bystander):
        assert "data-police-map" not in page
        for colour, crossing in STARTS.items():
            assert page.count(f'data-cop-at="{colour}:{crossing}"') == 1
    assert "data-host-police" not in screen  # Jack moves: nothing for the host to place
    assert "data-host-police" not in bystander and 'data-cop="' not in bystander


def test_the_table_shows_no_stale_wretched(real_app):
    """At time I the wretched stand where the women were turned up, on the list and on
    the map; once the Head moves them (after a wait) only the board knows: no circle."""
    laptop, phones = board_table(real_app)
    jack = phones[0]
    assert jack.act("hideout", circle=90).status_code == 303
    assert jack.act("women", circles="3 21 27 65 84").status_code == 303
    head = head_phone(real_app, laptop, phones)
    assert head.act("patrols_placed").status_code == 303
    women = {3, 21, 27, 65, 84}
    time_one = laptop.screen().text
    assert marked(time_one, "wretched") == women
    assert all(f'<span class="pill">{c}</span>' in time_one for c in women)
    assert jack.act("wait").status_code == 303
    moving = [laptop.screen().text, head.phone().text]  # the suspense step
    assert head.act("wretched_moved").status_code == 303
    assert state_of(real_app, laptop.code)["phase"] == "blood"
    for page in [*moving, laptop.screen().text]:  # while they move, then moved
        assert marked(page, "wretched") == set()
        assert "The wretched have moved (time II)" in page
        assert not any(f'<span class="pill">{c}</span>' in page for c in women)
    assert jack.act("kill", circle=84).status_code == 303
    assert "data-wretched" not in laptop.screen().text
