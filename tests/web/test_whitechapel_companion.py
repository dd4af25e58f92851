"""The companion plays Jack at a table (issue 39), through the Flask client: the setup
page, the seat nobody joins, Jack's decisions applied in the transaction of the action
that handed him the turn and logged as his, what he does said at the top of every page,
the host's undo taking a mis-tap back with his decisions after it, an export that
imports to the same states, and twin tables that differ only in his secrets."""

from __future__ import annotations

import json
import random
import re

import pytest

from companion import importing, tables
from companion.db import get_db
from companion.games.base import TABLE
from companion.games.whitechapel import rules as wc
from tests.support.noninterference import assert_indistinguishable
from tests.support.webflow import Device, create_table, join, state_of, table_of
from tests.web.test_whitechapel_board import NAME, head_phone, make_app


def companion_table(app, level="hard", names=("Ann", "Bob", "Cy")):
    """A table whose Jack the companion plays, three detectives seated, started."""
    laptop = create_table(app, "whitechapel", len(names) + 1, board=NAME,
                          police_map="on", jack=level)
    phones = [None] + [join(app, laptop.code, seat, name)
                       for seat, name in enumerate(names, start=1)]
    assert laptop.host("start").status_code == 303
    return laptop, phones


def log_of(app, code):
    with app.app_context():
        table = table_of(app, code)
        return [dict(e) for e in get_db().query(
            "SELECT actor, kind, action, undone FROM log WHERE table_id = ? ORDER BY id",
            [table["id"]])]


def place_all(app, laptop, phones):
    """The alarm: each detective puts his policemen on the first free start crossings."""
    state = state_of(app, laptop.code)
    board = wc.board_of(state)
    starts = sorted(board.police_starts | set(state["cops"]["before"]))
    for colour in wc.POLICEMEN:
        taken = set(state_of(app, laptop.code)["cops"]["at"].values())
        free = next(x for x in starts if x not in taken)
        response = phones[state["policemen"][colour]].act("place", policeman=colour,
                                                          crossing=free)
        assert response.status_code == 303, response.text


def test_the_setup_page_offers_the_companion_as_jack_with_police_on_the_map(tmp_path):
    app = make_app(tmp_path)
    page = app.test_client().get("/new/whitechapel").text
    assert 'name="jack"' in page and 'value="easy"' in page and 'value="hard"' in page
    # Without police on the map the companion could not know where the policemen stand.
    answer = Device(app).post("/new/whitechapel", {"players": 4, "board": NAME,
                                                   "jack": "hard"})
    assert answer.status_code == 422 and "Police on the map" in answer.text
    laptop = create_table(app, "whitechapel", 4, board=NAME, police_map="on", jack="easy")
    assert table_of(app, laptop.code)["options"]["jack"] == "easy"
    # Jack's seat is taken by the companion: the join page offers only the detectives.
    join_page = app.test_client().get(f"/j/{laptop.code}").text
    assert tables.COMPANION_NAME in join_page


def test_the_companion_takes_jacks_seat_and_plays_at_once(tmp_path):
    app = make_app(tmp_path)
    laptop, phones = companion_table(app)
    table = table_of(app, laptop.code)
    state = table["state"]
    # Nobody joined seat 0 and nobody waits on it: his hideout and women are chosen.
    assert state["players"][0] == tables.COMPANION_NAME
    assert state["phase"] == "patrols" and state["hideout"] is not None
    entries = log_of(app, laptop.code)
    assert [e["actor"] for e in entries if e["kind"] == "act"] == ["seat:0", "seat:0"]
    # What he did with his pieces, at the top of the table screen and every phone,
    # never which tokens are marked nor his hideout.
    tokens = sorted(state["nights"][0]["women"] + state["nights"][0]["unmarked"])
    said = "Women tokens face down on " + ", ".join(map(str, tokens)) + "."
    for page in (laptop.screen().text, *(p.phone().text for p in phones[1:])):
        assert said in page
        assert page.index("data-companion-said") < page.index("data-prompt") \
            if "data-prompt" in page else True
    # The Head says the patrols are placed: the companion kills at once.
    assert head_phone(app, laptop, phones).act("patrols_placed").status_code == 303
    state = state_of(app, laptop.code)
    assert state["phase"] == "alarm" and state["nights"][0]["crimes"]
    assert f"Jack killed on {state['nights'][0]['crimes'][0]}: crime scene" \
        in laptop.screen().text
    # The last policeman placed hands the turn to Jack, who moves in the same
    # transaction: the police's turn is next.
    place_all(app, laptop, phones)
    state = state_of(app, laptop.code)
    assert state["phase"] == "police" and len(state["nights"][0]["moves"]) == 1
    assert "Jack" in phones[1].phone().text


def test_the_hosts_undo_takes_back_a_mistap_with_the_companions_decisions(tmp_path):
    app = make_app(tmp_path)
    laptop, phones = companion_table(app)
    assert head_phone(app, laptop, phones).act("patrols_placed").status_code == 303
    before = state_of(app, laptop.code)
    assert before["phase"] == "alarm"
    place_all(app, laptop, phones)
    moved = state_of(app, laptop.code)
    assert moved["phase"] == "police"
    # One undo: the last placement and Jack's move after it go together.
    assert laptop.host("undo").status_code == 303
    back = state_of(app, laptop.code)
    assert back["phase"] == "alarm" and not back["nights"][0]["moves"]
    assert sum(1 for x in back["cops"]["at"].values() if x is None) == 1
    # A second undo takes back the placement before it, a detective's alone.
    assert laptop.host("undo").status_code == 303
    assert sum(1 for x in state_of(app, laptop.code)["cops"]["at"].values() if x is None) == 2
    for _ in range(3):
        assert laptop.host("undo").status_code == 303
    assert state_of(app, laptop.code)["phase"] == "alarm"
    # The Head's "patrols placed" goes with the kill the companion made after it.
    assert laptop.host("undo").status_code == 303
    assert state_of(app, laptop.code)["phase"] == "patrols"
    # Only the companion's own decisions are left: nothing a person did to take back.
    assert laptop.host("undo").status_code != 303
    assert state_of(app, laptop.code)["phase"] == "patrols"


def test_an_export_of_a_companion_game_imports_to_the_same_states(tmp_path):
    app = make_app(tmp_path)
    laptop, phones = companion_table(app)
    assert head_phone(app, laptop, phones).act("patrols_placed").status_code == 303
    place_all(app, laptop, phones)
    with app.app_context():
        table = table_of(app, laptop.code)
        export = importing.export_table(get_db(), table["id"])
        checked = importing.check(json.loads(json.dumps(export)), app.config["GAMES"])
        imported, _host = importing.import_table(get_db(), checked, by_laptop=True)
        copy = tables.get_table_by_id(get_db(), imported["id"])
        # Every state of the log, in order, undone or not, is the same in the copy.
        assert [e["state"] for e in tables.history(get_db(), copy["id"])] == \
            [e["state"] for e in tables.history(get_db(), table["id"])]
    assert copy["state"] == table["state"]
    # Each entry: version, game, actor, kind, action, undone, time, state.
    jack_entries = [e for e in export["log"] if e[2] == "seat:0"]
    assert len(jack_entries) == 4  # hideout, women, kill, first move
    # The copy beside its original frees its seats' links: the companion's seat (Jack's
    # sheet) is still no phone's, even under its own name.
    stranger = Device(app, copy["code"])
    for name in (tables.COMPANION_NAME, "Mallory"):
        answer = stranger.post(f"/j/{copy['code']}", {"seat": 0, "name": name})
        assert answer.status_code == 422, answer.text
        assert "The companion plays that seat" in answer.text
    assert stranger.get(f"/t/{copy['code']}/me").status_code != 200


@pytest.mark.parametrize("viewer", [TABLE, 1, 2, 3])
def test_twin_tables_differing_only_in_the_companions_secrets_look_alike(tmp_path, viewer):
    """Two games alike in public, one whose companion hid on another circle and made
    another first move of the same kind: every detective's page and the table screen
    draw the same, his said line included."""
    app = make_app(tmp_path)
    laptop, phones = companion_table(app)
    assert head_phone(app, laptop, phones).act("patrols_placed").status_code == 303
    place_all(app, laptop, phones)
    state = state_of(app, laptop.code)
    board = wc.board_of(state)
    night = state["nights"][0]
    twin = json.loads(json.dumps(state))
    twin["hideout"] = next(n for n in board.numbers
                           if n != state["hideout"] and board.is_legal_hideout(n))
    first = night["moves"][0]
    crime = night["crimes"][0]
    police = night["police"][0]
    other = sorted({end for end in board.normal_moves(crime, board.closed_roads(police))}
                   - {first["circles"][-1]})
    if first["kind"] == "move" and other:
        twin["nights"][0]["moves"][0] = {"kind": "move", "circles": [other[0]]}
    assert twin != state
    assert_indistinguishable(app, wc, state, twin, [viewer])


@pytest.mark.parametrize("viewer", [TABLE, 1, 2, 3])
def test_twins_alike_while_the_head_tells_the_board(tmp_path, viewer):
    """While the Head taps in the wretched's moves and what a turned token shows (the
    companion waited), two tables whose companion hid elsewhere, and whose first wait
    was decided with another seed, draw the same pages (the now lines, the map, the
    companion's said line, the Head's buttons)."""
    from tests.support.whitechapel_play import the_head_tells

    app = make_app(tmp_path)
    laptop, phones = companion_table(app)
    assert head_phone(app, laptop, phones).act("patrols_placed").status_code == 303
    state = state_of(app, laptop.code)
    board = wc.board_of(state)
    r = random.Random(3)
    seen = []
    # Whatever the companion chose at time I, the same table had it waited.
    night = state["nights"][0]
    night.update(crimes=[], time=1, wretched=sorted(night["women"]))
    state.update(phase="blood")
    state = wc.apply(state, wc.JACK, {"type": "wait"}, r)
    while state["phase"] in ("suspense", "ready", "turned") and len(seen) < 12:
        if state["phase"] == "ready":
            state = wc.apply(state, wc.JACK, wc.companion_action(state, r), r)
        twin = json.loads(json.dumps(state))
        twin["hideout"] = next(n for n in board.numbers
                               if n != state["hideout"] and board.is_legal_hideout(n))
        assert_indistinguishable(app, wc, state, twin, [viewer])
        seen.append(state["phase"])
        actor, action = the_head_tells(state, r)
        state = wc.apply(state, actor, action, r)
    assert "suspense" in seen and "turned" in seen


def test_the_decisions_are_the_same_for_the_same_seed(tmp_path):
    one = make_app(tmp_path / "a")
    two = make_app(tmp_path / "b")
    for app in (one, two):
        app.config["RNG"] = random.Random(39)
    first = companion_table(one)[0]
    second = companion_table(two)[0]
    a, b = state_of(one, first.code), state_of(two, second.code)
    assert a["hideout"] == b["hideout"] and a["nights"][0] == b["nights"][0]


def test_another_tables_pages_answer_while_the_companion_thinks(tmp_path, monkeypatch):
    """The companion thinks inside the transaction of the action that handed him the
    turn; a page of another table (a read) does not wait for it. His thinking is made to
    last three seconds here, far over its budget: the pages must come back while he still
    thinks (an order of events, not a time a loaded machine could miss)."""
    import threading
    import time

    from companion.games.whitechapel import jack_ai

    app = make_app(tmp_path)
    laptop, phones = companion_table(app)
    other, other_phones = companion_table(app, level="easy")
    thinking, thought = threading.Event(), threading.Event()
    decide = jack_ai.decide

    def slow(knowledge, level, rng):
        thinking.set()
        time.sleep(3.0)
        thought.set()
        return decide(knowledge, level, rng)

    monkeypatch.setattr(jack_ai, "decide", slow)
    head = head_phone(app, laptop, phones)
    done: list[int] = []
    worker = threading.Thread(target=lambda: done.append(
        head.act("patrols_placed").status_code))
    worker.start()
    assert thinking.wait(5)
    screen = other.screen()
    phone = other_phones[1].phone()
    answered_while_thinking = not thought.is_set()
    worker.join(10)
    assert screen.status_code == phone.status_code == 200
    assert done == [303]
    assert answered_while_thinking, "another table's pages waited for the companion"


def test_a_whole_game_against_the_companion_counts_apart_in_the_history(tmp_path):
    """A whole game through storage, the detectives scripted from the table's view
    (bench/jack.py), the companion answering in each of their transactions; the end
    reveals his sheet, and the club's history counts it apart, by level, with no
    player's record for his seat."""
    from tests.test_bench import _jack_bench

    app = make_app(tmp_path)
    laptop, phones = companion_table(app, level="easy")
    board = wc.board_of(state_of(app, laptop.code))
    detectives = _jack_bench().Detectives(board, "cordon")
    rng = random.Random(4)
    for _ in range(2000):
        table = table_of(app, laptop.code)
        if table["status"] != "playing":
            break
        actor, action = detectives.act(table["state"], rng)
        response = phones[actor].act(action.pop("type"), **action)
        assert response.status_code == 303, response.text
    state = state_of(app, laptop.code)
    assert wc.is_over(state)
    screen = laptop.screen().text
    assert "Jack&#39;s sheet" in screen and f">{state['hideout']}<" in screen
    with app.app_context():
        page = app.test_client().get("/history/games/whitechapel").text
    won = 0 if state["outcome"]["winner"] == "jack" else 1
    assert f"The detectives against the companion (easy): {won} of 1." in page
    players = app.test_client().get("/history").text
    assert tables.COMPANION_NAME not in players
    # Filtered to another game or a player, the companion's tally follows the filters.
    for query in ("?game=london1888", f"?player={state['players'][1]}"):
        answer = app.test_client().get(f"/history{query}")
        assert answer.status_code == 200, query
        assert ("against the companion" in answer.text) == ("player" in query), query
    plot = app.test_client().get("/history/plots/jack.svg?game=london1888")
    assert plot.status_code == 200


def test_no_link_opens_the_companions_seat_nor_do_the_host_controls_go_to_it(tmp_path):
    """Jack's seat holds his sheet: the host (a detective) can neither make a re-join
    link for it nor hand it the host controls."""
    app = make_app(tmp_path)
    laptop, _phones = companion_table(app)
    # Nor do the table screen's host controls offer it (they offered it first, to be
    # refused).
    offered = re.findall(r'<option value="(\d+)">', laptop.screen().text)
    assert offered and "0" not in offered, offered
    for control in ("rejoin", "hand-host"):
        answer = laptop.host(control, seat=0, position=0)
        assert answer.status_code == 422, (control, answer.status_code)
        assert "The companion plays that seat" in answer.text
    assert state_of(app, laptop.code)["phase"] == "patrols"
