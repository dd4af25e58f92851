"""The police map of Letters from Whitechapel ("police on the map", a table option):
what ``templates/games/whitechapel/_police_map.html`` draws.

Pure: a loaded ``Board`` (with its crossings) and a page's view in, a
JSON-serialisable dict out. The policemen's crossings are public (the pawns
stand on the real board), so every page may show them; the view's ``cops``
already holds everything drawn here, and nothing of Jack's.

A detective taps where a policeman stands: one tap on the crossing, one on the
button that sends it (issue 22: a move in 2 taps). A crossing is a small target
and two crossings can be 18 board units apart, so the map frames the crossings
he may choose from (the policeman's two steps, or the patrol tokens at the
alarm) and draws each as a disc ``TAP`` CSS px wide on a phone ``PHONE_WIDTH``
wide; where two discs would overlap they are pushed apart (``_spread``), each
with a line to its crossing, so every target is thumb-sized without a zoom
step. The other crossings are small grey dots. The tap is a plain link
(``?cop=blue&to=109``), the choice is confirmed with a button that posts the
action: no script.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

from companion.games.whitechapel.board import Board
from companion.games.whitechapel.state import listed
from companion.words import Text, _

PHONE_WIDTH = 284
"""The map's drawn width in CSS px on a 360 px phone, rounded down (296 measured:
the page's, the card's and the map's padding off)."""
TAP = 44
"""The smallest tap target, in CSS px, every map target keeps (DESIGN: controls >= 44 px)."""
SPREAD_ROUNDS = 300
"""At most this many rounds of pushing overlapping targets apart (the shipped board
needs at most 60: 24 targets in the densest two steps); more means two targets are
stuck in a corner of the frame, which then grows."""
MAX_ASPECT = 1.0
"""A map at most as tall as wide (about 300 px on a 360 px phone), so that the map and
the button that sends a pick fit the first screen under the now line."""
MIN_ASPECT = 0.6
"""And at least this tall: a frame of a few crossings still shows their streets."""
ASK_WIDTH = 2.2
"""The map of a search or an arrest: this many closest frames wide (the circles around
one crossing and the streets between them, not a close-up of two circles)."""
OVERVIEW_MARGIN = 30
"""Board units around the whole board on the table screen."""
PAWN_REACH = 26
"""CSS px a pawn's disc reaches from its crossing (drawn above it): the margin around
the policemen on a page that only shows where they stand."""

POLICEMEN = ("blue", "yellow", "brown", "red", "green")
"""The pawns' colours (Components), in the rules' order."""

Box = tuple[float, float, float, float]


def _fit(points: Iterable[tuple[float, float]], margin: float, minimum: float) -> Box:
    """(left, top, width, height) around ``points``, at least ``minimum`` wide, and
    never taller than ``MAX_ASPECT`` times its width (widened instead)."""
    points = list(points)
    left = min(x for x, _ in points) - margin
    top = min(y for _, y in points) - margin
    width = max(x for x, _ in points) + margin - left
    height = max(y for _, y in points) + margin - top
    if width < minimum:
        left -= (minimum - width) / 2
        width = minimum
    if height > width * MAX_ASPECT:
        left -= (height / MAX_ASPECT - width) / 2
        width = height / MAX_ASPECT
    if height < width * MIN_ASPECT:  # a close-up shows the streets around, not a strip
        top -= (width * MIN_ASPECT - height) / 2
        height = width * MIN_ASPECT
    return left, top, width, height


def _inside(box: Box, point: tuple[float, float]) -> bool:
    left, top, width, height = box
    return left <= point[0] <= left + width and top <= point[1] <= top + height


def _closest(points: list[tuple[float, float]]) -> float:
    return min((math.dist(a, b) for i, a in enumerate(points) for b in points[i + 1:]),
               default=math.inf)


@lru_cache(maxsize=8)
def _close_up(board: Board) -> float:
    """The narrowest frame, in board units: where the board's two closest crossings
    are ``TAP`` px apart on a phone. Closer up magnifies for nothing."""
    return PHONE_WIDTH * _closest(list(board.crossing_positions.values())) / TAP


@lru_cache(maxsize=64)
def _spread(points: tuple[tuple[float, float], ...], width: float,
            height: float) -> tuple[tuple[float, float], ...] | None:
    """Target centres (CSS px in a ``width`` x ``height`` frame) at least ``TAP`` apart
    and inside the frame, each as near its crossing at ``points`` as that allows: every
    overlapping pair is pushed apart along the line between them, half each, until
    none overlaps (None if they stay stuck). Deterministic, so a page looks the same
    on every phone."""
    spaced = TAP + 1  # a pixel to spare for the drawn frame's rounding
    half = spaced / 2
    at = [list(p) for p in points]
    for _round in range(SPREAD_ROUNDS):
        for p in at:  # inside the frame first: a target pushed to its edge stops there
            p[0] = min(max(p[0], half), width - half)
            p[1] = min(max(p[1], half), height - half)
        moved = False
        for i, a in enumerate(at):
            for b in at[i + 1:]:
                dx, dy = b[0] - a[0], b[1] - a[1]
                apart = math.hypot(dx, dy)
                if apart >= spaced:
                    continue
                if apart < 1e-6:  # one on the other: push sideways
                    dx, dy, apart = 1.0, 0.0, 1.0
                push = (spaced - apart) / 2 + 0.01
                a[0] -= dx / apart * push
                a[1] -= dy / apart * push
                b[0] += dx / apart * push
                b[1] += dy / apart * push
                moved = True
        if not moved:
            return tuple((x, y) for x, y in at)
    return None


def _frame(board: Board, points: list[tuple[float, float]],
           widest: float = 1) -> dict[str, Any]:
    """The frame for tapping one of ``points`` (board units), at least ``widest``
    times the closest frame wide, and where each one's target is drawn, every target
    ``TAP`` px wide and none over another."""
    minimum = _close_up(board) * widest
    unit = _fit(points, 0, minimum)[2] / PHONE_WIDTH
    spread = None
    for margin in range(1, 6):  # half a target around, then more if two get stuck
        # A target at a crossing on the edge stays inside.
        box = _fit(points, margin * (TAP + 1) / 2 * unit, minimum)
        scale = PHONE_WIDTH / box[2]
        spread = _spread(tuple(((x - box[0]) * scale, (y - box[1]) * scale)
                               for x, y in points), PHONE_WIDTH, box[3] * scale)
        if spread is not None:
            break
    assert spread is not None, "five margins give any board's targets room"
    # Half a pixel more: the drawn frame's numbers are rounded.
    return {"box": box, "centres": [(box[0] + px / scale, box[1] + py / scale)
                                    for px, py in spread],
            "radius": (TAP + 1) / 2 / scale}


def _asked(board: Board, view: Mapping[str, Any],
           standing: Mapping[str, int]) -> list[int]:
    """The circles a detective's phone offers on the map for a search or an arrest
    (Hunting 3): ``view["asking"]``, set by the page for the policeman it speaks for,
    when he stands on a crossing."""
    asking = view.get("asking") or {}
    if asking.get("colour") not in standing:
        return []
    return [c for c in asking.get("circles", []) if c in board.positions]


def police_map(board: Board, view: Mapping[str, Any],
               query: Mapping[str, Any] | None = None) -> dict[str, Any] | None:
    """Everything ``_police_map.html`` draws for ``view``; None without crossings
    or without police on the map.

    ``query`` is the page's query: ``cop`` the policeman being placed or moved,
    ``to`` the crossing tapped (offered as a button that posts the action)."""
    cops = view.get("cops")
    if not cops or not board.has_crossings:
        return None
    query = query or {}
    at = board.crossing_positions
    standing = {c: x for c, x in (cops.get("at") or {}).items() if x in at}
    movable = [c for c in view.get("movable", []) if cops.get("choices", {}).get(c)]
    started = cops.get("from") or {}
    picked = str(query.get("cop") or "")
    if picked not in movable:
        # The next policeman not yet placed (alarm) or not yet moved (police's move).
        pending = [c for c in movable if c in view.get("police_moving", [])
                   or view.get("phase") == "alarm" and c not in standing]
        picked = (pending or movable or [None])[0]
    asked = _asked(board, view, standing)
    # Crossings tapped one by one, each tap posted (the Head's new patrol tokens, for
    # the companion's Jack): drawn where circles asked about are.
    tapping = [x for x in (view.get("asking") or {}).get("crossings", []) if x in at]
    # A phone asking about circles shows them, not crossings to move to.
    choices = ([x for x in cops["choices"].get(picked, []) if x in at]
               if picked and not asked and not tapping else [])
    circles = board.positions
    if tapping:
        frame = _frame(board, [at[x] for x in tapping])
        asked, circles = tapping, at
    elif asked:
        # A few circles around one crossing: wide enough to show the streets there.
        frame = _frame(board, [circles[c] for c in asked], ASK_WIDTH)
    elif choices:
        frame = _frame(board, [at[x] for x in choices])
    else:
        # Nothing to tap: the table screen shows the whole board, a phone the
        # part where the policemen stand.
        points = [at[x] for x in standing.values()]
        if points and view.get("role") != "table":
            unit = _fit(points, 0, _close_up(board))[2] / PHONE_WIDTH
            # Twice: the margin widens the frame, which makes each pixel more units.
            box = _fit(points, 2 * PAWN_REACH * unit, _close_up(board))
        else:
            box = _board_box(board)
        frame = {"box": box, "centres": [], "radius": 0}
    box = frame["box"]
    to = str(query.get("to") or "")
    target = int(to) if to.isdigit() and int(to) in choices else None
    action = "place" if view.get("phase") == "alarm" else "move_policeman"
    names = crossing_names(board)
    pawns = dict(standing)
    if target is not None:
        # The pick shown before it is sent: the last placement shows all five.
        pawns[picked] = target
    return {
        "board": board.name,
        "viewbox": " ".join(f"{v:.1f}" for v in box),
        "crossings": [{"id": c.id, "x": c.x, "y": c.y, "start": c.start}
                      for c in board.crossings if _inside(_grow(box, 20), (c.x, c.y))],
        "policemen": [{"colour": c, "crossing": x, "x": at[x][0], "y": at[x][1],
                       "letter": c[0].upper() if c != "brown" else "Br",
                       "preview": c == picked and x == target and standing.get(c) != x}
                      for c, x in pawns.items()],
        "movable": movable,
        "picked": picked,
        "from": started.get(picked),
        "all_placed": action == "place" and target is not None
        and all(c in pawns for c in POLICEMEN),
        "targets": [{"id": x, "x": at[x][0], "y": at[x][1], "name": names[x],
                     "cx": cx, "cy": cy, "here": standing.get(picked) == x}
                    for x, (cx, cy) in zip(choices, frame["centres"] if choices else [],
                                           strict=True)],
        # The circles asked about, where their buttons go over the map (percent of it).
        "asks": [{"n": c, "x": circles[c][0], "y": circles[c][1], "cx": cx, "cy": cy,
                  "name": names[c] if tapping else None,
                  "on": c in (view.get("asking") or {}).get("on", ()),
                  "left": round((cx - box[0]) / box[2] * 100, 2),
                  "top": round((cy - box[1]) / box[3] * 100, 2)}
                 for c, (cx, cy) in zip(asked, frame["centres"] if asked else [],
                                        strict=True)],
        "radius": frame["radius"],
        "to": target,
        "to_name": names.get(target),
        "action": action,
        "unit": box[2] / PHONE_WIDTH,
    }


def _listed(numbers: list[int]) -> Any:
    return listed([str(n) for n in numbers])


NAMING_ROUNDS = 12
"""At most this many rounds of naming more circles around crossings whose names are the
same (the shipped board needs 2); a board where names still clash after that gets the
last names found, each still true of its crossing."""


@lru_cache(maxsize=8)
def crossing_names(board: Board) -> dict[int, Text]:
    """Every crossing named in words, as a detective says it at the table: the real
    board prints no number on a crossing, only on the circles around it ("the
    crossing between 29, 30 and 50", the circles a policeman there may search). Where
    those circles name two crossings (or only one circle), the circles next to the
    crossings a policeman's step away tell them apart ("the crossing by 21, towards
    35"), nearest step first.

    The one name of a crossing, on every page, refusal and replay: read from the
    board's graph alone (``Board.graph``, what a table keeps), never from the drawing,
    so the rules (a table's graph) and a page's map (the loaded board) say the same."""
    towards = {x: _circles_around(board, x) for x in board.crossing_ids}

    def name(x: int, extra: int) -> Text:
        near = sorted(board.circles_next_to(x))
        if extra == 0 and len(near) >= 2:
            return _("the crossing between %(circles)s", circles=_listed(near))
        more = towards[x][:max(extra, 2 - len(near) if near else 2)]
        return (_("the crossing by %(circles)s, towards %(others)s", circles=_listed(near),
                  others=_listed(more)) if near
                else _("the crossing among %(others)s", others=_listed(more)))

    extras = dict.fromkeys(board.crossing_ids, 0)
    names = {x: name(x, 0) for x in board.crossing_ids}
    for _round in range(NAMING_ROUNDS):
        seen: dict[str, list[int]] = {}
        for x, text in names.items():
            seen.setdefault(str(text), []).append(x)
        clashes = [x for same in seen.values() if len(same) > 1 for x in same]
        if not clashes:
            break
        for x in clashes:
            extras[x] += 1
        names = {x: name(x, extras[x]) for x in board.crossing_ids}
    return names


def _circles_around(board: Board, crossing: int) -> list[int]:
    """The circles around ``crossing`` beyond its own: those next to the crossings one
    policeman's step away, then two, and so on, each ring in the order of its numbers."""
    own = board.circles_next_to(crossing)
    found: list[int] = []
    reached = {crossing}
    ring = {crossing}
    while ring:
        ring = {y for x in ring for y in board.crossing_links_of(x)} - reached
        reached |= ring
        found += sorted({c for x in ring for c in board.circles_next_to(x)}
                        - own - set(found))
    return found


def _grow(box: Box, by: float) -> Box:
    return box[0] - by, box[1] - by, box[2] + 2 * by, box[3] + 2 * by


def _board_box(board: Board) -> Box:
    points = [*board.positions.values(), *board.crossing_positions.values()]
    return _fit(points, OVERVIEW_MARGIN, 0)
