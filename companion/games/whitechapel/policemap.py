"""The police map of Letters from Whitechapel ("police on the map", a table option):
what ``templates/games/whitechapel/_police_map.html`` draws.

Pure: a loaded ``Board`` (with its crossings) and a page's view in, a
JSON-serialisable dict out. The policemen's crossings are public (the pawns
stand on the real board), so every page may show them; the view's ``cops``
already holds everything drawn here, and nothing of Jack's.

A detective taps where a policeman stands. A crossing is a small target and
two crossings can be 18 board units apart, so the map zooms until every
crossing he may tap is at least ``TAP`` CSS pixels from the next on a phone
``PHONE_WIDTH`` wide. When the crossings he may choose from are too close
together at the first zoom (the whole board at the alarm, the neighbourhood
of two steps in the police's move), he first taps a region, drawn as a box
at least ``TAP`` wide and high, and the map zooms onto it; each region is at
most a fifth of the map's width, so a tap or two always reaches crossings a
thumb can hit. Every step is a plain link (``?cop=blue&area=...``), the
choice is confirmed with a button that posts the action: no script.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

from companion.games.whitechapel.board import Board

PHONE_WIDTH = 284
"""The map's drawn width in CSS px on a 360 px phone, rounded down (296 measured:
the page's, the card's and the map's padding off)."""
TAP = 44
"""The smallest tap target, in CSS px, every map target keeps (DESIGN: controls >= 44 px)."""
REGION = 64
"""A region box's side, in CSS px at the current zoom: a comfortable thumb."""
MAX_ASPECT = 1.3
"""A map at most this much taller than wide, so it fits a phone's screen in one view."""
MIN_ASPECT = 0.6
"""And at least this tall: a region with one crossing still shows its streets."""
OVERVIEW_MARGIN = 30
"""Board units around the policemen on a page that only shows where they stand."""

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


def _area(value: Any) -> Box | None:
    """A region from the page's query ("left,top,width,height" in board units)."""
    try:
        parts = tuple(float(part) for part in str(value or "").split(",")[:5])
    except ValueError:
        return None
    if len(parts) != 4 or not all(math.isfinite(p) for p in parts) or min(parts[2:]) <= 0:
        return None
    return parts


def _zoom(board: Board, choices: list[int], area: Box | None) -> dict[str, Any]:
    """The frame for picking one of ``choices``: either every choice tappable, or
    regions to tap first. ``area`` is the region tapped last (None: all choices)."""
    at = board.crossing_positions
    shown = [x for x in choices if area is None or _inside(area, at[x])] or choices
    points = [at[x] for x in shown]
    # Margin: a tap circle of TAP/2 px must fit inside.
    minimum = _close_up(board)
    box = _fit(points, 0, minimum)
    scale = PHONE_WIDTH / box[2]
    box = _fit(points, TAP / scale, minimum)
    scale = PHONE_WIDTH / box[2]
    if _closest(points) * scale >= TAP:
        # Half a pixel more: the drawn frame's numbers are rounded.
        return {"box": box, "targets": shown, "regions": [], "radius": (TAP + 1) / 2 / scale}
    side = REGION / scale
    cells: dict[tuple[int, int], list[int]] = {}
    for x in shown:
        px, py = at[x]
        cells.setdefault((int((px - box[0]) // side), int((py - box[1]) // side)), []).append(x)
    regions = []
    for (i, j), inside in sorted(cells.items()):
        cell = (box[0] + i * side, box[1] + j * side, side, side)
        # Whole units in the link, rounded outwards: the region keeps its crossings.
        left, top = math.floor(cell[0]), math.floor(cell[1])
        area = (left, top, math.ceil(cell[0] + side) + 1 - left,
                math.ceil(cell[1] + side) + 1 - top)
        regions.append({"x": cell[0], "y": cell[1], "size": side, "count": len(inside),
                        "area": ",".join(map(str, area))})
    return {"box": box, "targets": [], "regions": regions, "radius": TAP / 2 / scale}


def police_map(board: Board, view: Mapping[str, Any],
               query: Mapping[str, Any] | None = None) -> dict[str, Any] | None:
    """Everything ``_police_map.html`` draws for ``view``; None without crossings
    or without police on the map.

    ``query`` is the page's query: ``cop`` the policeman being placed or moved,
    ``area`` the region tapped last, ``to`` the crossing tapped (offered as a
    button that posts the action)."""
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
        pending = [c for c in movable if standing.get(c) == started.get(c)]
        picked = (pending or movable or [None])[0]
    choices = [x for x in cops["choices"].get(picked, []) if x in at] if picked else []
    if choices:
        frame = _zoom(board, choices, _area(query.get("area")))
    else:
        # Nothing to tap: the table screen shows the whole board, a phone the
        # part where the policemen stand.
        points = [at[x] for x in standing.values()]
        box = (_fit(points, OVERVIEW_MARGIN, _close_up(board))
               if points and view.get("role") != "table" else _board_box(board))
        frame = {"box": box, "targets": [], "regions": [], "radius": 0}
    box = frame["box"]
    to = str(query.get("to") or "")
    target = int(to) if to.isdigit() and int(to) in frame["targets"] else None
    if target is None and to.isdigit() and int(to) in choices:
        target = int(to)  # a tap remembered from another zoom: still a legal choice
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
        "from_name": names.get(started.get(picked)),
        "names": {c: names[x] for c, x in standing.items()},
        "all_placed": action == "place" and target is not None
        and all(c in pawns for c in POLICEMEN),
        "targets": [{"id": x, "x": at[x][0], "y": at[x][1], "name": names[x],
                     "here": standing.get(picked) == x} for x in frame["targets"]],
        "regions": frame["regions"],
        "radius": frame["radius"],
        "area": query.get("area") if frame["targets"] and _area(query.get("area")) else None,
        "to": target,
        "to_name": names.get(target),
        "action": action,
        "unit": box[2] / PHONE_WIDTH,
    }


def _listed(numbers: list[int]) -> str:
    words = [str(n) for n in numbers]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + f" and {words[-1]}"


@lru_cache(maxsize=8)
def crossing_names(board: Board) -> dict[int, str]:
    """Every crossing named in words, as a detective says it at the table: the real
    board prints no number on a crossing, only on the circles around it ("the
    crossing between 29, 30 and 50", the circles a policeman there may search). Where
    those circles name two crossings (or only one circle), the nearest other circles
    on the drawing tell them apart ("the crossing by 21, towards 35")."""
    at = board.crossing_positions
    circles = board.positions
    towards: dict[int, list[int]] = {}
    for x in board.crossing_ids:
        near = board.circles_next_to(x)
        towards[x] = sorted((c for c in circles if c not in near),
                            key=lambda c: math.dist(circles[c], at[x]))

    def name(x: int, extra: int) -> str:
        near = sorted(board.circles_next_to(x))
        if extra == 0 and len(near) >= 2:
            return f"the crossing between {_listed(near)}"
        more = towards[x][:max(extra, 2 - len(near) if near else 2)]
        return (f"the crossing by {_listed(near)}, towards {_listed(more)}" if near
                else f"the crossing among {_listed(more)}")

    extras = dict.fromkeys(board.crossing_ids, 0)
    for _ in range(4):
        names = {x: name(x, extras[x]) for x in board.crossing_ids}
        seen: dict[str, list[int]] = {}
        for x, text in names.items():
            seen.setdefault(text, []).append(x)
        clashes = [x for same in seen.values() if len(same) > 1 for x in same]
        if not clashes:
            break
        for x in clashes:
            extras[x] += 1
    return names


def _grow(box: Box, by: float) -> Box:
    return box[0] - by, box[1] - by, box[2] + 2 * by, box[3] + 2 * by


def _board_box(board: Board) -> Box:
    points = [*board.positions.values(), *board.crossing_positions.values()]
    return _fit(points, OVERVIEW_MARGIN, 0)
