"""A club's years of finished games, written through storage (for bench/history.py and
the history's browser test).

Each game is a table export as another laptop would write it (a deal, the move that
ended it), checked whole by ``companion.importing.check`` and written by
``importing.import_table``, which keeps its history row: the real path of an imported
table. Mr. Jack is played for real (a card, then an accusation); the other three games'
last states are drawn as their rules leave them at the end (the outcome, Jack's sheet,
the printed stories) and pass each game's ``check_state``. Club nights are weekly over
five years, at tables of 2 to 6 from a club of 24 names, some typed two ways.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from sqlite_utils import Database

from companion import importing, logstore
from companion.games import london1888, mrjack, wo_ist_jack
from companion.games.base import TABLE, Game
from companion.games.london1888.state import _jack_seat
from companion.games.whitechapel import rules as whitechapel
from companion.games.whitechapel.board import Board

CLUB = ("Anna", "Ben", "Cleo", "Dev", "Edith", "Finn", "Gus", "Hana", "Ivo", "Jo", "Kai",
        "Lena", "Mo", "Nia", "Otto", "Pia", "Quinn", "Ravi", "Sol", "Tess", "Uma", "Vic",
        "Wren", "Yara")
TYPED_AGAIN = {"Anna": "anna ", "Finn": "FINN", "Tess": "Tess "}
"""Names typed another way some nights: the history counts them once."""
LAST_NIGHT = datetime(2026, 11, 27, 19, 30)
"""The club's latest night before the tests' own games: the years run up to it."""
KINDS = ("whitechapel", "london1888", "mrjack", "wo_ist_jack")


def _stamp(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def _mrjack(rng: random.Random, names: list[str], options: dict[str, Any]
            ) -> list[dict[str, Any]]:
    """A real Mr. Jack game: the detective plays a card and accuses (right or wrong)."""
    state = mrjack.setup(options, names, rng)
    states = [state]
    state = mrjack.apply(state, 1, {"type": "pick", "character": state["round"]["cards"][0]},
                         rng)
    states.append(state)
    accused = state["alibi"] if rng.random() < 0.5 else rng.choice(
        [card for card in state["characters"] if card != state["alibi"]])
    states.append(mrjack.apply(state, 1, {"type": "accuse", "character": accused}, rng))
    return states


def _walk(board: Board | None, rng: random.Random, start: int, steps: int) -> list[int]:
    circles, at = [], start
    for _ in range(steps):
        at = rng.choice(sorted(board.neighbours(at))) if board else rng.randint(1, 195)
        circles.append(at)
    return circles


def _whitechapel(rng: random.Random, names: list[str], options: dict[str, Any],
                 board: Board | None) -> list[dict[str, Any]]:
    """Jack's sheet at the end: a hideout, his crimes (on red circles, where the women
    stand) and his walks home, and how it ended."""
    first = whitechapel.setup(options, names, rng)
    state = copy.deepcopy(first)
    circles = board.numbers if board else tuple(range(1, 196))
    red = sorted(board.red) if board else list(circles)
    plain = [c for c in circles if c not in board.red] if board else list(circles)
    state["hideout"] = rng.choice(plain)
    ending = rng.choices(["escape", "arrest", "square15", "no_legal_move"], [5, 3, 2, 1])[0]
    last = 4 if ending == "escape" else rng.randint(1, 4)
    for night in state["nights"][:last]:
        crimes = rng.sample(red, 2 if night["number"] == 3 else 1)
        night["crimes"] = crimes
        night["women"] = list(crimes)
        night["revealed"] = True
        final = night["number"] == last
        # The row's 15 squares hold the crimes and every move after them.
        steps = 15 - len(crimes) if final and ending == "square15" else rng.randint(3, 9)
        path = _walk(board, rng, crimes[-1], steps)
        if not final or ending == "escape":
            path.append(state["hideout"])
            night["escaped"] = True
        night["moves"] = [{"kind": "move", "circles": [c]} for c in path]
    state["night"] = last
    state["phase"] = "over"
    state["outcome"] = {"winner": "jack" if ending == "escape" else "detectives",
                        "reason": ending, "night": last}
    return [first, state]


def _london(rng: random.Random, names: list[str], options: dict[str, Any]
            ) -> list[dict[str, Any]]:
    """The outcome the host confirmed, and the round it came in."""
    first = london1888.setup(options, names, rng)
    state = copy.deepcopy(first)
    result = rng.choices(list(london1888.RESULTS), [5, 1, 1, 3])[0]
    winner, how, _label = london1888.RESULTS[result]
    jack = _jack_seat(state)
    others = [seat for seat in range(len(names)) if seat != jack]
    state["round"] = rng.randint(11, 21) if how == london1888.FIFTH_MURDER else rng.randint(
        4, 18)
    if result in ("innocents", "jack_suicide") or rng.random() < 0.4:
        # Jack's card turned over by a question: his identity is discovered.
        position = state["lines"][jack].index(london1888.JACK) + 1
        state["revealed"][jack][position - 1] = True
        state["reveals"].append({"by": others[0], "target": jack, "position": position,
                                 "round": state["round"] - 1, "card": london1888.JACK,
                                 "how": "question"})
        if result == "innocents":
            state["alive"][jack] = False
    state["outcome"] = {"winner": winner, "how": how, "round": state["round"],
                        "accomplices": rng.sample(others, rng.randint(0, 1))}
    return [first, state]


def _wo_ist(rng: random.Random, names: list[str], options: dict[str, Any]
            ) -> list[dict[str, Any]]:
    """Every story printed, by whom, for how many points."""
    first = wo_ist_jack.setup(options, names, rng)
    state = copy.deepcopy(first)
    stories = [*(s for s in (state["current"], state["next"]) if s), *state["deck"]]
    state["printed"] = [{"story": story, "seat": rng.randrange(len(names)),
                         "points": rng.randint(1, 6)} for story in stories]
    state["deck"], state["current"], state["next"] = [], None, None
    state["over"], state["active"] = True, None
    state["u_haft"] = [0] * len(names)
    return [first, state]


def _names(rng: random.Random, count: int) -> list[str]:
    picked = rng.sample(CLUB, count)
    return [TYPED_AGAIN[name] if name in TYPED_AGAIN and rng.random() < 0.3 else name
            for name in picked]


PLAYERS = {"mrjack": (2, 2), "whitechapel": (2, 6), "london1888": (4, 8),
           "wo_ist_jack": (2, 6)}


def game_states(game: Game, rng: random.Random, board: Board | None) -> tuple[
        list[dict[str, Any]], list[str], dict[str, Any]]:
    """One finished game: its states from the deal to the end, players and options."""
    names = _names(rng, rng.randint(*PLAYERS[game.NAME]))
    options = game.default_options()
    if game.NAME == "whitechapel" and board is not None:
        options = {**options, "board": board.name, "board_graph": board.graph()}
    if game.NAME == "whitechapel":
        return _whitechapel(rng, names, options, board), names, options
    play = {"mrjack": _mrjack, "london1888": _london, "wo_ist_jack": _wo_ist}[game.NAME]
    return play(rng, names, options), names, options


def export_of(game: Game, states: list[dict[str, Any]], names: list[str],
              options: dict[str, Any], ended: datetime) -> dict[str, Any]:
    """A finished table's export (format 2): created, joined, dealt, played, ended."""
    times = [_stamp(ended - timedelta(minutes=5 * (len(states) - index)))
             for index in range(len(states) + 1)]
    log: list[list[Any]] = [[1, 0, "host", "create", {"game": game.NAME}, 0, times[0], None]]
    for seat, name in enumerate(names):
        log.append([2 + seat, 0, f"seat:{seat}", "join", {"name": name}, 0, times[0], None])
    version = 1 + len(names)
    for index, state in enumerate(states):
        version += 1
        kept = state if index == 0 else logstore.diff(states[index - 1], state)
        log.append([version, 1, "host" if index == 0 else TABLE,
                    "start" if index == 0 else "act", {}, 0,
                    times[index] if index < len(states) - 1 else _stamp(ended),
                    logstore.nothing(state) if kept is None else kept])
    return {"format": importing.EXPORT_FORMAT,
            "table": {"code": "ABCD", "game": game.NAME, "options": options,
                      "status": "over", "game_no": 1, "version": version, "host_seat": None,
                      "created_at": times[0], "updated_at": _stamp(ended)},
            "seats": [{"position": seat, "label": label, "name": name, "token_hash": None}
                      for seat, (label, name) in enumerate(zip(
                          game.seat_labels(len(names), options), names, strict=True))],
            "log": log}


def fill(db: Database, games: Mapping[str, Game], count: int, seed: int = 24,
         board: Board | None = None) -> int:
    """``count`` finished games of every kind in turn, on club nights one week apart (a
    few games a night), imported one by one; gives how many history rows there are."""
    rng = random.Random(seed)
    night, played = LAST_NIGHT - timedelta(days=7 * (count // 4)), 0
    for number in range(count):
        kind = KINDS[number % len(KINDS)]
        game = games[kind]
        states, names, options = game_states(game, rng, board)
        played += 1
        ended = night + timedelta(minutes=40 * played)
        if played == 4:
            night, played = night + timedelta(days=7), 0
        export = importing.check(export_of(game, states, names, options, ended), games)
        importing.import_table(db, export, by_laptop=True)
    return db.execute("SELECT count(*) FROM results").fetchone()[0]
