"""The tools of the benchmark and the campaigns, and the speed-ups the benchmark asked for."""

from __future__ import annotations

import random
import threading
import time

from companion.db import POOL_SIZE, connect, get_db, write_transaction
from companion.db.migrations import migrate
from companion.games.base import TABLE
from companion.net import public_qr_svg, qr_svg
from tests.support import tally
from tests.support.scripted import choose, page_version, parse_forms

PAGE = """
<main id="view" data-version="12">
<form method="post" action="/t/ABCD/me/act">
  <input type="hidden" name="csrf" value="tok"><input type="hidden" name="version" value="12">
  <input type="hidden" name="target" value="3">
  <input type="checkbox" name="position_1"> <input type="checkbox" name="position_2" checked>
  <select name="by"><option value="a">A</option><option value="b" selected>B</option></select>
  <input type="radio" name="result" value="x"><input type="radio" name="result" value="y" checked>
  <input name="amount" inputmode="numeric" data-max="195">
  <input name="seat" disabled value="9">
  <textarea name="cards">
One
Two</textarea>
  <button type="submit" name="type" value="question">Q</button>
  <button type="submit" name="type" value="black_market">B</button>
  <button type="button" data-key="1">1</button>
</form>
<form method="get" action="/join"><input name="code"></form>
</main>"""


def test_forms_are_read_as_a_browser_submits_them():
    act, join = parse_forms(PAGE)
    assert (act.action, act.method, join.method) == ("/t/ABCD/me/act", "post", "get")
    assert act.types() == ["question", "black_market"]
    assert act.defaults() == {"csrf": "tok", "version": "12", "target": "3", "by": "b",
                              "result": "y", "position_2": "on", "cards": "One\nTwo",
                              "type": "question"}
    assert "seat" not in act.fixed and act.numbers == {"amount": 195}
    rng = random.Random(4)
    for _ in range(50):
        sample = act.sample(rng, "black_market")
        assert sample["type"] == "black_market" and sample["by"] in ("a", "b")
        assert 0 <= int(sample["amount"]) <= 195
    assert page_version(PAGE) == 12 and join.texts == ["code"]


def test_choose_only_returns_moves_the_rules_accept(app):
    state = tally.setup({"fast": False}, ["Ann", "Bob"], random.Random(1))
    page = """<form method="post" action="/t/X/me/act"><input type="hidden" name="csrf"
      value="c"><input type="hidden" name="version" value="3"><input type="hidden"
      name="type" value="add"><input name="amount" inputmode="numeric"></form>"""
    rng = random.Random(2)
    for _ in range(20):
        url, fields = choose(tally, state, 0, page, rng)
        assert url == "/t/X/me/act" and 1 <= int(fields["amount"]) <= 3
    assert choose(tally, state, 1, page, rng) is None  # not Bob's turn: nothing is legal
    assert choose(tally, state, TABLE, page, rng) is None


def test_the_join_qr_code_is_drawn_once_per_address():
    """bench/clubnight.py found the table screen spent ~20 ms of its ~25 ms drawing the
    same QR code on every refresh; the drawing is now kept per address."""
    url = "http://192.0.2.7:8000/j/QRQR"
    public_qr_svg.cache_clear()
    started = time.perf_counter()
    first = public_qr_svg(url)
    second = public_qr_svg(url)
    assert first is second and first.startswith("<svg class=\"qr\"")
    assert public_qr_svg(url + "X") != first
    assert time.perf_counter() - started < 5
    # A private link (a lost phone's new seat link) is drawn afresh and never kept.
    private = "http://192.0.2.7:8000/r/secret-token"
    assert qr_svg(private) == qr_svg(private) and qr_svg(private) is not qr_svg(private)
    assert public_qr_svg.cache_info().currsize == 2


def test_writers_of_one_process_queue_instead_of_meeting_a_busy_database(tmp_path):
    """bench/clubnight.py measured writers polling SQLite's busy lock with back-off
    sleeps (p95 ~1 s). Writers now queue on the process's own lock first: a second
    writer never even tries SQLite's lock while the first holds it, so it succeeds
    even with no busy timeout at all."""
    path = str(tmp_path / "w.sqlite")
    migrate(path)
    first, second = connect(path), connect(path)
    second.conn.execute("PRAGMA busy_timeout = 0")
    holding, done = threading.Event(), []

    def hold() -> None:
        with write_transaction(first):
            first.execute("INSERT INTO settings (key, value) VALUES ('a', '1')")
            holding.set()
            time.sleep(0.3)

    def write() -> None:
        holding.wait(5)
        with write_transaction(second):
            second.execute("INSERT INTO settings (key, value) VALUES ('b', '2')")
        done.append(True)

    threads = [threading.Thread(target=hold), threading.Thread(target=write)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert done == [True]
    assert [row["key"] for row in second.query("SELECT key FROM settings ORDER BY key")] == [
        "a", "b"]
    first.close()
    second.close()


def test_requests_reuse_a_small_pool_of_connections(app):
    """Opening a connection with its pragmas and closing it cost about a millisecond
    per request (bench/clubnight.py); idle connections are now kept for the next one,
    at most POOL_SIZE of them, never one left inside a transaction."""
    client = app.test_client()
    client.get("/")
    pool = app.extensions["db_pool"][app.config["DATABASE"]]
    kept = list(pool)
    assert len(kept) == 1
    client.get("/t/ZZZZ/version")
    assert pool == kept  # the same connection served the next request

    with app.app_context():
        broken = get_db()
        broken.conn.execute("BEGIN")
    assert not pool and broken not in pool

    contexts = [app.app_context() for _ in range(POOL_SIZE + 4)]
    for context in contexts:
        context.push()
        get_db().execute("SELECT 1")
    for context in reversed(contexts):
        context.pop()
    assert len(pool) == POOL_SIZE


def _history_bench():
    """bench/history.py as a module (it imports bench/room.py as a sibling script)."""
    import importlib.util
    import sys
    from pathlib import Path

    folder = Path(__file__).resolve().parents[1] / "bench"
    sys.path.insert(0, str(folder))
    try:
        spec = importlib.util.spec_from_file_location("bench_history", folder / "history.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(folder))
    return module


def test_the_history_bench_fills_once_and_measures_pages_that_answer(tmp_path):
    """bench/history.py fills its database through storage once (a second run on the
    same file measures it as it is) and every address it times is a page of the history."""
    import random
    from urllib.parse import unquote

    from companion import create_app
    from companion.games import discover

    bench = _history_bench()
    path = tmp_path / "history.sqlite"
    held, _seconds = bench.fill(path, 12)
    assert held == 12 and bench.fill(path, 12)[0] == 12
    kinds = connect(str(path)).execute(
        "SELECT game, count(*) FROM results GROUP BY game ORDER BY game").fetchall()
    assert kinds == [("london1888", 3), ("mrjack", 3), ("whitechapel", 3), ("wo_ist_jack", 3)]
    app = create_app({"TESTING": True, "DATABASE": str(path), "GAMES": discover(),
                      "RNG": random.Random(1), "BOARD_DIR": str(tmp_path / "boards")})
    client = app.test_client()
    player = connect(str(path)).execute("SELECT name FROM result_players LIMIT 1").fetchone()[0]
    addresses = bench.addresses(player, 1)
    assert len(addresses) == 10
    for address in addresses.values():
        response = client.get(address)
        assert response.status_code == 200, (unquote(address), response.text[:300])


def _jack_bench():
    """bench/jack.py as a module."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "bench" / "jack.py"
    spec = importlib.util.spec_from_file_location("bench_jack", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_jack_bench_plays_whole_games_its_quick_form():
    """bench/jack.py in its quick form (a handful of games): every Jack against every
    scripted team plays to an end the rules accept, within the thinking budget, the same
    game for the same seed; the detectives read only the table's view (their decisions
    never touch Jack's sheet: a twin with another hideout gets the same first moves)."""
    bench = _jack_bench()
    board = bench.load_board(bench.SHIPPED_BOARDS[0])
    for jack in bench.JACKS:
        for team in bench.TEAMS:
            row = bench.measure(board, jack, team, 1, 39)
            assert row["games"] == 1 and 0 <= row["survived"] <= 4
            assert row["p95"] < bench.BUDGET_MS, row
            assert set(row["reasons"]) <= {"escape", "square15", "no_legal_move", "arrest"}
    first, again = (bench.play(board, "hard", "cordon", 7) for _ in range(2))
    assert len(first.pop("thinking")) == len(again.pop("thinking")) and first == again
    assert bench.wilson(0, 10)[0] == 0.0 and 0.43 < bench.wilson(100, 200)[0] < 0.44
