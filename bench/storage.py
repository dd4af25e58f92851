"""What a whole game costs on disk: database bytes and export bytes, per game.

Usage: python bench/storage.py [--seed S] [--board PATH]

Each game is played to its end on its own fresh database, through the app as the
phones and the laptop play it (Flask's test client: the real storage, pages and
forms). Moves come from the forms each page shows (tests/support/scripted.py); Letters
from Whitechapel is played on the board the companion ships, with crossings
(``companion/games/whitechapel/boards/whitechapel-crossings.json``), and with numbers
only, its Jack walking its streets all four nights (tests/support/whitechapel_walks.py).
Printed per game: the actions played, the database file once its write-ahead log is
checkpointed (and the same less an empty database's), the export file, what the log's
states would take kept whole after every action as the log kept them before (format 1),
the time to rebuild the game's last state from the log (as undo does), and the time to
check and import the export as the lobby does (every state checked, every page drawn).
"""

from __future__ import annotations

import argparse
import json
import random
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion import create_app, importing, tables  # noqa: E402
from companion.db import get_db  # noqa: E402
from companion.games.base import TABLE  # noqa: E402
from companion.games.whitechapel import state as wc_state  # noqa: E402
from companion.games.whitechapel.board import SHIPPED_BOARDS, load_board  # noqa: E402
from companion.web.pages import pages_draw  # noqa: E402
from tests.support.campaign import NAMES, playable_games  # noqa: E402
from tests.support.scripted import WEIGHTS, choose, parse_forms  # noqa: E402
from tests.support.webflow import Device, create_table, join  # noqa: E402
from tests.support.whitechapel_walks import (  # noqa: E402
    JACK,
    board_walk,
    current,
    shortest_step,
)

BOARD = SHIPPED_BOARDS[0]
MOST_ACTIONS = 4000
LAST_SQUARE = 15
LONG_GAME = {"accuse": 0.001, "escape": 0.001, "arrest": 0.001, "record_outcome": 0.001,
             "mark_dead": 0.01}
"""Actions that end a game early are rarely chosen: the figures are for whole games."""


def distance(board, start: int, goal: int) -> int:
    """Roads from ``start`` to ``goal`` (breadth first)."""
    reached, frontier, steps = {start}, {start}, 0
    while goal not in reached and frontier:
        frontier = {n for here in frontier for n in board.neighbours(here)} - reached
        reached |= frontier
        steps += 1
    return steps


def long_night(board, state: dict, rng: random.Random, stuck: int) -> tuple:
    """Jack wanders the streets and heads home only when the squares left just reach it,
    so each night lasts as a real one does; the detectives rarely arrest."""
    if state["phase"] != "jack" or stuck > 20:
        actor, fields = board_walk(board, state, rng)
        if fields["type"] == "end_turn" and len(state["police"]["done"]) < 3 and \
                rng.random() < 0.8 and stuck < 20:
            return long_night(board, state, rng, stuck + 1)  # a policeman searches first
        return actor, fields
    night = current(state)
    here, home = wc_state._location(night), state["hideout"]
    used = night["time"] - 1 + len(wc_state._path(night))
    if distance(board, here, home) + 2 >= LAST_SQUARE - used:
        step = shortest_step(board, here, home)
        return JACK, {"type": "escape"} if step == home else {"type": "move",
                                                             "circle": str(step)}
    return JACK, {"type": "move", "circle": str(rng.choice(sorted(board.normal_moves(here))))}



def checkpointed_size(path: str) -> int:
    conn = sqlite3.connect(path)
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()
    return Path(path).stat().st_size


def play(folder: Path, name: str, board: str | None, walk: str,
         rng: random.Random) -> dict:
    """One whole game of ``name`` on a fresh database (Letters from Whitechapel with
    the board file ``board`` or with numbers only, Jack walking on ``walk``'s streets
    either way); its figures."""
    database = str(folder / f"{name}.sqlite")
    app = create_app({"DATABASE": database, "BOARD_DIR": str(folder / "no-boards"),
                      "BOARD_PATHS": [board] if board else []})
    empty = checkpointed_size(database)
    game = playable_games()[name]
    count = 4 if name == "whitechapel" else game.DEFAULT_PLAYERS
    form = next(f for f in parse_forms(Device(app).get(f"/new/{name}").text)
                if f.action.endswith(f"/new/{name}"))
    options = {k: v for k, v in form.defaults().items() if k not in ("csrf", "players")}
    options["board"] = load_board(board).name if board else ""
    laptop = create_table(app, name, count, **options)
    phones = [join(app, laptop.code, seat, NAMES[seat]) for seat in range(count)]
    assert laptop.host("start").status_code == 303
    walker = load_board(walk) if name == "whitechapel" else None

    def table() -> dict:
        with app.app_context():
            return tables.get_table(get_db(), laptop.code)

    played = stuck = 0
    while played < MOST_ACTIONS:
        state = table()["state"]
        if game.is_over(state):
            break
        if walker is not None:
            viewer, fields = long_night(walker, state, rng, stuck)
            if fields["type"] == "arrest" and rng.random() > LONG_GAME["arrest"]:
                continue
        else:
            viewers = [v for v in [TABLE, *range(count)] if game.actions(state, v)]
            viewer = rng.choice(viewers)
            device = laptop if viewer == TABLE else phones[viewer]
            page = device.screen() if viewer == TABLE else device.phone()
            picked = choose(game, state, viewer, page.text, rng,
                            weights={**WEIGHTS.get(name, {}), **LONG_GAME})
            if picked is None:
                continue
            fields = {k: v for k, v in picked[1].items() if k not in ("csrf", "version")}
            if fields["type"] in LONG_GAME and rng.random() > 0.02:
                continue
        kind = fields.pop("type")
        reply = laptop.table_act(kind, **fields) if viewer == TABLE else \
            phones[viewer].act(kind, **fields)
        if reply.status_code == 303:
            played, stuck = played + 1, 0
        else:
            stuck += 1
    over = game.is_over(table()["state"])
    size = checkpointed_size(database)
    with app.app_context():
        db = get_db()
        table_id = table()["id"]
        export = importing.export_text(importing.export_table(db, table_id))
        whole = sum(len(json.dumps(entry["state"], sort_keys=True))
                    for entry in tables.history(db, table_id) if entry["state"])
        started = time.perf_counter()
        tables.final_state(db, table_id, 1)
        rebuild = time.perf_counter() - started
    with app.test_request_context("/import"):
        started = time.perf_counter()
        checked = importing.check(importing.read(export.encode()), app.config["GAMES"])
        importing.import_table(get_db(), checked, accept=pages_draw, by_laptop=True)
        imported = time.perf_counter() - started
    return {"game": name, "board": Path(board).name if board else None, "actions": played,
            "over": over, "database": size, "empty_database": empty,
            "export": len(export.encode()), "states_kept_whole": whole,
            "rebuild_ms": rebuild * 1000, "import_s": imported}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=1888)
    parser.add_argument("--board", default=str(BOARD),
                        help="the Letters from Whitechapel board file (default: %(default)s)")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    runs = [("whitechapel", args.board), ("whitechapel", None)] + [
        (name, None) for name in playable_games() if name != "whitechapel"]
    print(f"seed {args.seed}")
    print(f"{'game':<28} {'actions':>7} {'database':>10} {'less empty':>10} {'export':>9} "
          f"{'whole states':>12} {'last state':>10} {'import':>7}")
    with tempfile.TemporaryDirectory() as tmp:
        for number, (name, board) in enumerate(runs):
            folder = Path(tmp) / str(number)
            folder.mkdir()
            got = play(folder, name, board, args.board, rng)
            label = name + (" (board)" if board else "")
            print(f"{label:<28} {got['actions']:>7} {got['database'] / 1024:>8.0f} KB "
                  f"{(got['database'] - got['empty_database']) / 1024:>7.0f} KB "
                  f"{got['export'] / 1024:>6.0f} KB {got['states_kept_whole'] / 1024:>9.0f} KB"
                  f" {got['rebuild_ms']:>7.1f} ms {got['import_s']:>5.1f} s"
                  + ("" if got["over"] else f"  (stopped after {MOST_ACTIONS} actions)"),
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
