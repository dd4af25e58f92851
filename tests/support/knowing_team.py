"""A detective team that knows where the companion's Jack is, to end a browser test's
whole game soon (issue 39). It reads the table's whole state, his sheet included: a
test's helper reading the database, never a page. What it decides, the test taps on
the detectives' phones.

Its play: every decision the Head tells the companion (the patrol tokens from the
second night, each wretched's move, a turned token's face) taken in the board's order,
the first one allowed; at the alarm each policeman on the first token he may replace.
On the first night one policeman walks off the yellow-bordered crossings at the first
move (so that on the second night the Head has a choice of crossings to tap), the Head
searches one circle, the others stay and pass; from the second night every policeman
walks toward Jack's circle and the first next to it arrests him.
"""

from __future__ import annotations

from collections import deque

from companion.games.whitechapel import rules as wc
from companion.games.whitechapel.board import Board
from companion.games.whitechapel.state import (
    FAKE,
    _alarm_crossings,
    _location,
    _moves_left,
    _new_patrol_crossings,
    _night,
    _speaking,
    _wretched_moves,
    _wretched_to_move,
)

Action = tuple[int, dict[str, str]]


def head_seat(state: dict) -> int:
    """The seat of tonight's Head of the Investigation."""
    return state["policemen"][state["head_tiles"][state["night"] - 1]]


def next_action(state: dict) -> Action:
    """The detective who acts now and his action, as his phone would send it."""
    phase = state["phase"]
    head = head_seat(state)
    night = _night(state)
    if phase == "patrols":
        if "patrol" in wc.actions(state, head):
            tapped = {p["crossing"] for p in night.get("patrols", [])}
            crossing = next(x for x in _new_patrol_crossings(state) if x not in tapped)
            return head, {"type": "patrol", "crossing": str(crossing)}
        return head, {"type": "patrols_placed"}
    if phase == "suspense":
        start = _wretched_to_move(state)[0]
        return head, {"type": "wretched", "circle": str(start),
                      "circle2": str(_wretched_moves(state, start)[0])}
    if phase == "turned":
        return head, {"type": "turned", "shows": turned_shows(state)}
    cops = state["cops"]
    if phase == "alarm":
        colour = next(c for c in wc.POLICEMEN if cops["at"][c] is None)
        taken = set(cops["at"].values())
        crossing = next(x for x in _alarm_crossings(state, colour) if x not in taken)
        return state["policemen"][colour], {"type": "place", "policeman": colour,
                                            "crossing": str(crossing)}
    if phase != "police":
        raise AssertionError(f"the detectives have nothing to do in {phase!r}")
    left = _moves_left(state)
    if left:
        colour = left[0]
        return state["policemen"][colour], {"type": "move_policeman", "policeman": colour,
                                            "crossing": str(_walk(state, colour))}
    colour = _speaking(state)
    seat = state["policemen"][colour]
    board = wc.board_of(state)
    near = sorted(board.circles_next_to(cops["at"][colour]))
    jack = _location(night)
    if jack in near and state["night"] > 1:
        return seat, {"type": "arrest", "policeman": colour, "circle": str(jack)}
    searched = {entry["circle"] for entry in night["log"]}
    if (state["night"] == 1 and len(night["moves"]) == 1 and colour == _head(state)
            and not searched):
        return seat, {"type": "search", "policeman": colour, "circle": str(near[0])}
    return seat, {"type": "done", "policeman": colour}


def turned_shows(state: dict) -> str:
    """A turned token shows a fake patrol while one is left, then a colour not shown."""
    shown = [p["shows"] for p in _night(state)["patrols"]]
    if shown.count(FAKE) < 2:
        return FAKE
    return next(c for c in wc.POLICEMEN if c not in shown)


def _head(state: dict) -> str:
    return state["head_tiles"][state["night"] - 1]


def _walk(state: dict, colour: str) -> int:
    """Where ``colour`` moves (his own crossing: he stays)."""
    board = wc.board_of(state)
    cops = state["cops"]
    start = cops["from"][colour]
    others = {x for c, x in cops["at"].items() if c != colour}
    reach = sorted(x for x in board.police_moves(start) if x not in others)
    if state["night"] == 1:
        off = [x for x in reach if x not in board.police_starts]
        first_move = len(_night(state)["moves"]) == 1 and colour == _head(state)
        return off[0] if first_move and off else start
    jack = _location(_night(state))
    goal = {x for x in board.crossing_ids if jack in board.circles_next_to(x)}
    away = _distance_to(board, goal)
    return min(reach, key=lambda x: (away.get(x, 99), x != start, x))


def _distance_to(board: Board, goal: set[int]) -> dict[int, int]:
    """Crossings from the ``goal`` ones, one crossing a step."""
    seen = dict.fromkeys(goal, 0)
    queue = deque(sorted(goal))
    while queue:
        here = queue.popleft()
        for there in sorted(board.police_moves(here, 1)):
            if there not in seen:
                seen[there] = seen[here] + 1
                queue.append(there)
    return seen
