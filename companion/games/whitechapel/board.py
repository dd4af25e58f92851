"""Board files for Letters from Whitechapel: the streets Jack may take.

A board is optional: the companion ships one and users may add others
(docs/RULINGS.md#letters-from-whitechapel, "Board mode"). With one loaded
the companion knows which numbered circles a dotted line joins, so it can
offer Jack only legal moves and compute the detectives' deduction map
(``companion.games.whitechapel.deduction``). The format is documented in ``docs/boards.md``::

    {"board": "Letters from Whitechapel",
     "circles": [{"n": 1, "x": 240, "y": 32, "red": false}, ...],
     "roads": [[1, 6], [1, 7], ...],
     "alleys": [[1, 2], ...]}

- ``circles``: every numbered circle, its number ``n`` (a whole number, 1 or
  more), its position ``x``/``y`` on the drawing (any unit; the map scales)
  and whether it is a ``red`` numbered circle (optional, default false).
- ``roads``: pairs of circles joined by a dotted line, possibly through
  crossings: one normal move of Jack ("Escape in the night").
- ``alleys``: pairs of circles on the perimeter of the same block of houses:
  one Alley move ("Special Movements, II. Alley").

Links are undirected and listed once. Any other key (a source, a licence,
notes) is allowed and ignored.

Optionally the police crossings ("Policemen move on their patrols between
Crossings"), all five keys together::

     "crossings": [{"id": 1, "x": 140, "y": 91, "police_start": false}, ...],
     "crossing_links": [[1, 2], ...],    one step of a policeman (Hunting 2)
     "crossing_streets": [[1, 2], ...],  crossing to crossing, no circle between
     "crossing_circles": [[3, 1], ...],  [crossing, circle]: no crossing between
     "road_routes": [{"road": [1, 2], "via": [[4, 5]]}, ...]

A road's routes are the crossings Jack walks through along it (``[]``: a
street that passes no crossing). They must follow from ``crossing_streets``
and ``crossing_circles`` (checked on loading), which is what lets a game's
state keep them compactly (``Board.graph``). With crossings, the roads a
policeman closes follow from where the policemen stand (``closed_roads``);
without them, the detectives mark a closed road by the two circles it joins.

The board shipped with the companion (``SHIPPED_BOARDS``,
``boards/whitechapel-crossings.json``, with its sources' notices in
``boards/licences``) has crossings; it is loaded by default.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from companion.words import Text, _

Link = tuple[int, int]

SHIPPED_BOARDS = (Path(__file__).resolve().parent / "boards" / "whitechapel-crossings.json",)
"""The boards loaded at every start (docs/RULINGS.md#letters-from-whitechapel, "Board mode": the
companion ships the Letters from Whitechapel board); ``--board`` and ``instance/boards/`` add
others."""

SHIPPED_NAME = "Letters from Whitechapel"
"""The name the shipped board's file gives it: the setup page's default board."""

POLICE_STEPS = 2
"""Hunting 2: "a policeman can move up to a distance of two (0, 1, or 2) crossings"."""

MAX_PROBLEMS_SHOWN = 8
"""A broken file may have hundreds of bad links; the first few say enough."""


class BoardError(ValueError):
    """A board file that cannot be used; ``problems`` lists what is wrong."""

    def __init__(self, problems: Iterable[str], source: str = "") -> None:
        self.problems = list(problems)
        self.source = source
        shown = self.problems[:MAX_PROBLEMS_SHOWN]
        more = len(self.problems) - len(shown)
        text = "; ".join(shown) + (f"; and {more} more problems" if more > 0 else "")
        prefix = f"Board file {source}: " if source else "Board: "
        super().__init__(prefix + text)


@dataclass(frozen=True)
class Circle:
    """A numbered circle: its number, where it is drawn, and whether it is red."""

    n: int
    x: float
    y: float
    red: bool = False


@dataclass(frozen=True)
class Crossing:
    """A police crossing: its id, where it is drawn, and whether its border is
    yellow (where the patrol tokens start on the first night, Hell 3)."""

    id: int
    x: float
    y: float
    start: bool = False


def link(a: int, b: int) -> Link:
    """The undirected link between two circles, smaller number first."""
    return (a, b) if a < b else (b, a)


@dataclass(frozen=True)
class Board:
    """A validated board: circles, road links and alley links, and optionally
    the police crossings. Immutable."""

    name: str
    circles: tuple[Circle, ...]
    roads: frozenset[Link]
    alleys: frozenset[Link]
    crossings: tuple[Crossing, ...] = ()
    crossing_links: frozenset[Link] = frozenset()
    crossing_streets: frozenset[Link] = frozenset()
    crossing_circles: frozenset[tuple[int, int]] = frozenset()
    """(crossing, circle) pairs: a policeman there may search or arrest in the circle."""
    open_roads: frozenset[Link] = frozenset()
    """Roads with a street that passes no crossing: no policeman ever closes them."""

    # --- the graph -------------------------------------------------------

    @cached_property
    def numbers(self) -> tuple[int, ...]:
        """Every circle number, in increasing order."""
        return tuple(sorted(circle.n for circle in self.circles))

    @cached_property
    def positions(self) -> Mapping[int, tuple[float, float]]:
        """Where each circle is drawn: number -> (x, y)."""
        return MappingProxyType({circle.n: (circle.x, circle.y) for circle in self.circles})

    @cached_property
    def red(self) -> frozenset[int]:
        """The red numbered circles (where the women tokens go)."""
        return frozenset(circle.n for circle in self.circles if circle.red)

    @cached_property
    def _road_map(self) -> Mapping[int, frozenset[int]]:
        return _adjacency(self.numbers, self.roads)

    @cached_property
    def _alley_map(self) -> Mapping[int, frozenset[int]]:
        return _adjacency(self.numbers, self.alleys)

    @cached_property
    def _coach_map(self) -> Mapping[int, frozenset[Link]]:
        return {start: frozenset((first, second)
                                 for first in self._road_map[start]
                                 for second in self._road_map[first]
                                 if second not in (start, first))
                for start in self.numbers}

    def has_circle(self, n: int) -> bool:
        """Whether ``n`` is a circle of this board."""
        return n in self._road_map

    def is_road(self, a: int, b: int) -> bool:
        """Whether a road link (a dotted line) joins circles ``a`` and ``b``."""
        return link(a, b) in self.roads

    def neighbours(self, n: int) -> frozenset[int]:
        """The circles one road link (a dotted line) away from ``n``."""
        return self._road_map.get(n, frozenset())

    def alley_neighbours(self, n: int) -> frozenset[int]:
        """The circles across a block of houses from ``n`` (alley links)."""
        return self._alley_map.get(n, frozenset())

    # --- Jack's legal destinations ------------------------------------------

    def normal_moves(self, start: int, blocked: Iterable[Iterable[int]] = ()) -> frozenset[int]:
        """Destinations of a normal move ("Escape in the night").

        Jack follows one dotted line and "may not move over a crossing
        occupied by a policeman pawn": the road links in ``blocked`` (pairs
        of circles, either order) are closed.
        """
        closed = _links(blocked)
        return frozenset(end for end in self.neighbours(start) if link(start, end) not in closed)

    def coach_routes(self, start: int) -> frozenset[Link]:
        """Every Coach as its (first, second) circles ("Special Movements, I. Coach").

        Two road steps; "the two numbered circles involved in a Coach move
        must be different from each other and from the circle he started the
        move from". A Coach may pass policemen, so no link is ever blocked.
        """
        return self._coach_map.get(start, frozenset())

    def alley_moves(self, start: int) -> frozenset[int]:
        """Destinations of an Alley ("Special Movements, II. Alley").

        Any other circle on the perimeter of a block that ``start`` is on. An
        alley crosses houses, not crossings, so policemen never block one.
        """
        return self.alley_neighbours(start)

    def move_problem(self, start: int, kind: str, route: Iterable[int],
                     blocked: Iterable[Iterable[int]] = ()) -> Text | None:
        """Why ``route`` is not a legal ``kind`` move from ``start``, for the player; None if it is.

        The rules module's refusal message when a board is loaded.
        """
        if kind not in ("move", "coach", "alley"):
            return _("A movement is a move, a Coach or an Alley.")
        circles = tuple(route)
        unknown = [n for n in (start, *circles) if not self.has_circle(n)]
        if unknown:
            return _("There is no circle %(circle)s on the board %(board)s.",
                     circle=unknown[0], board=self.name)
        if kind == "coach":
            if len(circles) != 2:
                return _("A Coach goes to two circles.")
            first, second = circles
            if first not in self.neighbours(start):
                return _("No road joins %(a)s and %(b)s: a Coach follows two roads.",
                         a=start, b=first)
            if second not in self.neighbours(first):
                return _("No road joins %(a)s and %(b)s: a Coach follows two roads.",
                         a=first, b=second)
            if len({start, first, second}) < 3:
                return _("The two circles of a Coach must be different from each other "
                         "and from the circle you start from.")
            return None
        if len(circles) != 1:
            return _("A move goes to one circle.")
        (end,) = circles
        if kind == "alley":
            if end not in self.alley_moves(start):
                return _("No alley crosses a block of houses from %(a)s to %(b)s.",
                         a=start, b=end)
            return None
        if end not in self.neighbours(start):
            return _("No road joins %(a)s and %(b)s.", a=start, b=end)
        if end not in self.normal_moves(start, blocked):
            return _("A policeman blocks the road from %(a)s to %(b)s.", a=start, b=end)
        return None

    def circles_within(self, starts: Iterable[int], steps: int) -> frozenset[int]:
        """The circles at most ``steps`` roads from one of ``starts``: where a
        wretched can be after ``steps`` moves (Hell 6: each "must move along dotted
        lines to an adjacent, unoccupied numbered circle")."""
        reached = {n for n in starts if self.has_circle(n)}
        edge = set(reached)
        for _step in range(steps):
            edge = {m for n in edge for m in self.neighbours(n)} - reached
            reached |= edge
        return frozenset(reached)

    def is_legal_hideout(self, n: int) -> bool:
        """A hideout may be "any numbered circle on the game board except a red" one (Setup 6)."""
        return self.has_circle(n) and n not in self.red

    def is_legal_crime_scene(self, n: int, crime_scenes: Iterable[int]) -> bool:
        """A crime needs a circle of the board without a crime scene marker on it yet.

        Wretched pawns may not end on a crime scene (Hell, phase 6), so no
        victim is ever found on one.
        """
        return self.has_circle(n) and n not in set(crime_scenes)

    # --- the police crossings -----------------------------------------------

    @property
    def has_crossings(self) -> bool:
        """Whether the board knows its police crossings ("police on the map")."""
        return bool(self.crossings)

    @cached_property
    def crossing_ids(self) -> frozenset[int]:
        return frozenset(crossing.id for crossing in self.crossings)

    @cached_property
    def police_starts(self) -> frozenset[int]:
        """The yellow-bordered crossings, where the patrol tokens go on the first night."""
        return frozenset(crossing.id for crossing in self.crossings if crossing.start)

    @cached_property
    def crossing_positions(self) -> Mapping[int, tuple[float, float]]:
        return MappingProxyType({c.id: (c.x, c.y) for c in self.crossings})

    @cached_property
    def _crossing_map(self) -> Mapping[int, frozenset[int]]:
        return _adjacency(self.crossing_ids, self.crossing_links)

    @cached_property
    def _circles_at(self) -> Mapping[int, frozenset[int]]:
        found: dict[int, set[int]] = {x: set() for x in self.crossing_ids}
        for crossing, circle in self.crossing_circles:
            found[crossing].add(circle)
        return {x: frozenset(circles) for x, circles in found.items()}

    def crossing_links_of(self, crossing: int) -> frozenset[int]:
        """The crossings one step of a policeman away from ``crossing``."""
        return self._crossing_map.get(crossing, frozenset())

    def circles_next_to(self, crossing: int) -> frozenset[int]:
        """Where a policeman on ``crossing`` may search or arrest ("Clues and
        Suspicion": "There cannot be an intervening crossing on the dotted line")."""
        return self._circles_at.get(crossing, frozenset())

    def police_moves(self, start: int, steps: int = POLICE_STEPS) -> frozenset[int]:
        """The crossings a policeman on ``start`` can reach in 0 to ``steps`` steps
        (Hunting 2: "Policeman pawns ignore numbered circles when moving", and
        may pass other policemen, so nothing on the way stops him)."""
        if start not in self._crossing_map:
            return frozenset()
        reached = {start}
        edge = {start}
        for _step in range(steps):
            edge = {y for x in edge for y in self.crossing_links_of(x)} - reached
            reached |= edge
        return frozenset(reached)

    @cached_property
    def road_routes(self) -> Mapping[Link, tuple[frozenset[int], ...]]:
        """For each road, the sets of crossings Jack passes on each way along it,
        keeping only the smallest (a route through more crossings is closed
        whenever a smaller one inside it is); ``frozenset()``: never closed."""
        return MappingProxyType(_routes(self.roads, self.crossing_streets,
                                        self.crossing_circles, self.open_roads))

    @cached_property
    def _roads_through(self) -> Mapping[int, frozenset[Link]]:
        found: dict[int, set[Link]] = {}
        for road, routes in self.road_routes.items():
            for crossing in frozenset().union(*routes):
                found.setdefault(crossing, set()).add(road)
        return {x: frozenset(roads) for x, roads in found.items()}

    def closed_roads(self, policed: Iterable[int]) -> frozenset[Link]:
        """The roads a normal move of Jack cannot take with policemen on ``policed``
        (Hunting 1: "He may not move over a crossing occupied by a policeman
        pawn"): those where every way along the road passes one of them."""
        held = frozenset(policed)
        candidates = set().union(*(self._roads_through.get(x, ()) for x in held))
        return frozenset(road for road in candidates
                         if all(route & held for route in self.road_routes[road]))

    # --- for drawing --------------------------------------------------------

    def bounds(self) -> tuple[float, float, float, float]:
        """(min x, min y, max x, max y) of the circles' positions."""
        xs = [circle.x for circle in self.circles]
        ys = [circle.y for circle in self.circles]
        return min(xs), min(ys), max(xs), max(ys)

    def to_dict(self) -> dict[str, Any]:
        """The board in the file format (JSON-serialisable; ``parse_board`` reads it back)."""
        return {
            "board": self.name,
            "circles": [{"n": c.n, "x": c.x, "y": c.y, "red": c.red}
                        for c in sorted(self.circles, key=lambda c: c.n)],
            "roads": [list(pair) for pair in sorted(self.roads)],
            "alleys": [list(pair) for pair in sorted(self.alleys)],
            **({"crossings": [{"id": c.id, "x": c.x, "y": c.y, "police_start": c.start}
                              for c in sorted(self.crossings, key=lambda c: c.id)],
                "crossing_links": [list(pair) for pair in sorted(self.crossing_links)],
                "crossing_streets": [list(pair) for pair in sorted(self.crossing_streets)],
                "crossing_circles": [list(pair) for pair in sorted(self.crossing_circles)],
                "road_routes": [{"road": list(road),
                                 "via": [sorted(route) for route in sorted(
                                     routes, key=lambda r: (len(r), sorted(r)))]}
                                for road, routes in sorted(self.road_routes.items())]}
               if self.crossings else {}),
        }


    # --- inside a game's state -------------------------------------------------

    def graph(self) -> dict[str, str]:
        """The board's graph, compact, for a game's state: name, red circles, links.

        The state keeps the graph so that a table is self-contained (a restart,
        an export or an import needs no board file), and the action log keeps
        every state, so each link costs a few characters: ``"1:2,6 2:3"`` lists
        under each circle the higher-numbered circles it is linked to.
        Positions stay in the file: only the map draws them.

        With crossings, only what the rules need: the yellow-bordered crossings,
        the policemen's steps, the crossing-to-crossing streets, the circles next
        to each crossing and the roads that pass no crossing. The roads' routes
        follow from those (checked when the file was loaded), so they are not kept.
        """
        graph = {"board": self.name,
                 "red": " ".join(str(n) for n in sorted(self.red)),
                 "roads": _adjacency_text(self.roads),
                 "alleys": _adjacency_text(self.alleys)}
        if self.crossings:
            graph |= {"police_starts": " ".join(str(x) for x in sorted(self.police_starts)),
                      "crossing_streets": _adjacency_text(self.crossing_streets),
                      "crossing_circles": _adjacency_text(self.crossing_circles),
                      "open_roads": _adjacency_text(self.open_roads)}
        return graph


GRAPH_KEYS = ("board", "red", "roads", "alleys")
CROSSING_GRAPH_KEYS = ("police_starts", "crossing_streets", "crossing_circles", "open_roads")


def _police_links(streets: Iterable[Link], circles: Iterable[tuple[int, int]],
                  open_roads: Iterable[Link]) -> set[Link]:
    """A policeman's steps: two crossings joined by a street that passes no other
    crossing, directly or through circles ("Policeman pawns ignore numbered
    circles when moving"): one circle next to both, or a street between circles."""
    touching: dict[int, set[int]] = {}
    for crossing, circle in circles:
        touching.setdefault(circle, set()).add(crossing)
    pairs = [(xs, xs) for xs in touching.values()]
    pairs += [(touching.get(a, set()), touching.get(b, set())) for a, b in open_roads]
    return set(streets) | {link(x, y) for near, far in pairs for x in near for y in far
                           if x != y}


def _routes(roads: Iterable[Link], streets: Iterable[Link],
            circles: Iterable[tuple[int, int]],
            open_roads: Iterable[Link]) -> dict[Link, tuple[frozenset[int], ...]]:
    """Each road's smallest sets of crossings passed, walking from one circle to a
    crossing next to it, along streets between crossings, to a crossing next to
    the other circle (a walk through no other circle: that would be two roads)."""
    along = _adjacency({x for pair in streets for x in pair}, streets)
    touching: dict[int, set[int]] = {}
    for crossing, circle in circles:
        touching.setdefault(circle, set()).add(crossing)
    free = set(open_roads)
    found: dict[Link, tuple[frozenset[int], ...]] = {}
    for a, b in roads:
        ends = touching.get(b, set())
        sets: set[frozenset[int]] = {frozenset()} if (a, b) in free else set()
        stack = [(x, (x,)) for x in touching.get(a, ())]
        while stack:
            here, path = stack.pop()
            if here in ends:
                sets.add(frozenset(path))
            stack += [(y, (*path, y)) for y in along.get(here, ()) if y not in path]
        found[(a, b)] = tuple(sorted(
            (s for s in sets if not any(other < s for other in sets)),
            key=lambda s: (len(s), sorted(s))))
    return found


def _adjacency_text(links: Iterable[Link]) -> str:
    above: dict[int, list[int]] = {}
    for a, b in sorted(links):
        above.setdefault(a, []).append(b)
    return " ".join(f"{a}:{','.join(map(str, ends))}" for a, ends in above.items())


def _links_from_text(text: Any, key: str) -> list[list[int]]:
    if not isinstance(text, str):
        raise BoardError([f'"{key}" of a board graph must be a text like "1:2,6 2:3"'])
    found = []
    for entry in text.split():
        start, _colon, ends = entry.partition(":")
        try:
            found += [[int(start), int(end)] for end in ends.split(",")]
        except ValueError:
            raise BoardError([f'"{key}" of a board graph has a bad entry {entry[:20]!r}']) \
                from None
    return found


def _numbers_from_text(text: str, key: str) -> set[int]:
    try:
        return {int(n) for n in text.split()}
    except ValueError:
        raise BoardError([f'"{key}" of a board graph must be numbers']) from None


@lru_cache(maxsize=8)
def _graph_board(name: str, red: str, roads: str, alleys: str,
                 crossings: tuple[str, ...] = ()) -> Board:
    road_links = _links_from_text(roads, "roads")
    alley_links = _links_from_text(alleys, "alleys")
    reds = _numbers_from_text(red, "red")
    numbers = sorted({n for pair in road_links + alley_links for n in pair} | reds)
    data: dict[str, Any] = {"board": name, "roads": road_links, "alleys": alley_links,
                            "circles": [{"n": n, "x": 0, "y": 0, "red": n in reds}
                                        for n in numbers]}
    if crossings:
        text = dict(zip(CROSSING_GRAPH_KEYS, crossings, strict=True))
        starts = _numbers_from_text(text["police_starts"], "police_starts")
        links = {key: _links_from_text(text[key], key) for key in CROSSING_GRAPH_KEYS[1:]}
        streets = {link(a, b) for a, b in links["crossing_streets"]}
        circles = {(x, c) for x, c in links["crossing_circles"]}
        open_roads = {link(a, b) for a, b in links["open_roads"]}
        ids = sorted({x for pair in streets for x in pair} | {x for x, _ in circles} | starts)
        routes = _routes({link(a, b) for a, b in road_links}, streets, circles, open_roads)
        data |= {"crossings": [{"id": x, "x": 0, "y": 0, "police_start": x in starts}
                               for x in ids],
                 "crossing_links": [list(pair) for pair in
                                    _police_links(streets, circles, open_roads)],
                 "crossing_streets": [list(pair) for pair in streets],
                 "crossing_circles": [list(pair) for pair in circles],
                 "road_routes": [{"road": list(road), "via": [sorted(r) for r in found]}
                                 for road, found in routes.items()]}
    return parse_board(data)


def board_from_graph(graph: Any) -> Board:
    """The ``Board`` of a graph made by ``Board.graph`` (every position at 0, 0: the
    rules need no drawing), or a ``BoardError``. Decoded once per graph."""
    if not isinstance(graph, Mapping) or not all(
            isinstance(graph.get(key), str) for key in GRAPH_KEYS):
        raise BoardError(['a board graph needs the texts "board", "red", "roads" and '
                          '"alleys"'])
    crossings = tuple(graph.get(key) for key in CROSSING_GRAPH_KEYS)
    if any(value is not None for value in crossings):
        if not all(isinstance(value, str) for value in crossings):
            raise BoardError(["a board graph with crossings needs the texts "
                              + ", ".join(f'"{key}"' for key in CROSSING_GRAPH_KEYS)])
    else:
        crossings = ()
    return _graph_board(graph["board"], graph["red"], graph["roads"], graph["alleys"],
                        crossings)


def _adjacency(numbers: Iterable[int], links: Iterable[Link]) -> dict[int, frozenset[int]]:
    sets: dict[int, set[int]] = {n: set() for n in numbers}
    for a, b in links:
        sets[a].add(b)
        sets[b].add(a)
    return {n: frozenset(others) for n, others in sets.items()}


def _links(pairs: Iterable[Iterable[int]]) -> frozenset[Link]:
    found = set()
    for pair in pairs:
        a, b = pair
        found.add(link(a, b))
    return frozenset(found)


# --- reading and validating -------------------------------------------------

def _is_whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return (isinstance(value, int | float) and not isinstance(value, bool)
            and math.isfinite(value))


def _parse_circles(raw: Any, problems: list[str], seen: set[int]) -> list[Circle]:
    """The valid circles; ``seen`` collects every number declared, valid or not."""
    if not isinstance(raw, list) or not raw:
        problems.append('"circles" must be a non-empty list of circles')
        return []
    circles: list[Circle] = []
    for index, item in enumerate(raw):
        where = f"circle #{index + 1}"
        if not isinstance(item, dict):
            problems.append(f'{where} must be an object like {{"n": 1, "x": 10, "y": 20}}')
            continue
        n = item.get("n")
        if not _is_whole(n) or n < 1:
            problems.append(f'{where} needs a number "n" (a whole number, 1 or more), '
                            f"not {n!r}")
            continue
        where = f"circle {n}"
        if n in seen:
            problems.append(f"circle number {n} appears more than once")
            continue
        seen.add(n)
        missing = [axis for axis in ("x", "y") if axis not in item]
        if missing:
            problems.append(f"{where} has no position: missing {' and '.join(missing)}")
            continue
        if not (_is_number(item["x"]) and _is_number(item["y"])):
            problems.append(f"{where} has a position that is not a pair of numbers: "
                            f"x={item['x']!r}, y={item['y']!r}")
            continue
        red = item.get("red", False)
        if not isinstance(red, bool):
            problems.append(f'{where}: "red" must be true or false, not {red!r}')
            continue
        circles.append(Circle(n, item["x"], item["y"], red))
    return circles


def _parse_links(raw: Any, key: str, numbers: set[int], declared: set[int],
                 problems: list[str]) -> set[Link]:
    """The valid links; one with a circle ``declared`` but broken is already reported."""
    kind = key[:-1]  # "roads" -> "road"
    if not isinstance(raw, list):
        problems.append(f'"{key}" must be a list of pairs of circle numbers like [[1, 6], ...]')
        return set()
    found: set[Link] = set()
    for item in raw:
        if (not isinstance(item, list) or len(item) != 2
                or not all(_is_whole(end) for end in item)):
            problems.append(f"{kind} link {json.dumps(item)[:40]} is not a pair of circle numbers")
            continue
        a, b = item
        unknown = [end for end in (a, b) if end not in declared]
        if unknown:
            problems.append(f"{kind} link {a}-{b} names unknown circle "
                            f"{' and '.join(str(end) for end in unknown)}")
        elif a == b:
            problems.append(f"{kind} link {a}-{b} joins circle {a} to itself")
        elif link(a, b) in found:
            problems.append(f"{kind} link {a}-{b} is listed twice")
        elif a in numbers and b in numbers:
            found.add(link(a, b))
    return found


CROSSING_KEYS = ("crossings", "crossing_links", "crossing_streets", "crossing_circles",
                 "road_routes")


def _parse_crossing_list(raw: Any, problems: list[str]) -> list[Crossing]:
    if not isinstance(raw, list) or not raw:
        problems.append('"crossings" must be a non-empty list of crossings')
        return []
    found: dict[int, Crossing] = {}
    for index, item in enumerate(raw):
        x_id = item.get("id") if isinstance(item, dict) else None
        if not _is_whole(x_id) or x_id < 1:
            problems.append(f'crossing #{index + 1} needs an "id" (a whole number, 1 or more)')
        elif x_id in found:
            problems.append(f"crossing {x_id} appears more than once")
        elif not (_is_number(item.get("x")) and _is_number(item.get("y"))):
            problems.append(f"crossing {x_id} has no position x, y")
        elif not isinstance(item.get("police_start", False), bool):
            problems.append(f'crossing {x_id}: "police_start" must be true or false')
        else:
            found[x_id] = Crossing(x_id, item["x"], item["y"], item.get("police_start", False))
    if found and not any(c.start for c in found.values()):
        problems.append('no crossing is a "police_start" (yellow-bordered) crossing')
    return list(found.values())


def _parse_pairs(raw: Any, key: str, first: set[int], second: set[int],
                 problems: list[str], ordered: bool = False) -> set[Link]:
    """Pairs of ids from ``first`` and ``second``; undirected unless ``ordered``."""
    if not isinstance(raw, list):
        problems.append(f'"{key}" must be a list of pairs like [[1, 2], ...]')
        return set()
    found: set[Link] = set()
    for item in raw:
        if (not isinstance(item, list) or len(item) != 2
                or not all(_is_whole(end) for end in item)):
            problems.append(f"{key} entry {json.dumps(item)[:40]} is not a pair of numbers")
            continue
        a, b = item
        if a not in first or b not in second:
            problems.append(f"{key} entry {a}-{b} names an unknown "
                            + ("crossing or circle" if ordered else "crossing"))
        elif not ordered and a == b:
            problems.append(f"{key} entry {a}-{b} joins crossing {a} to itself")
        else:
            found.add((a, b) if ordered else link(a, b))
    return found


def _parse_crossings(data: Mapping[str, Any], numbers: set[int], roads: set[Link],
                     problems: list[str]) -> dict[str, Any]:
    """The crossing fields of a ``Board`` (empty when the file has none); the
    roads' routes must follow from the streets and the crossings' circles."""
    present = [key for key in CROSSING_KEYS if key in data]
    if not present:
        return {}
    missing = [key for key in CROSSING_KEYS if key not in data]
    if missing:
        problems.append("crossings need all of " + ", ".join(f'"{k}"' for k in CROSSING_KEYS)
                        + "; missing " + ", ".join(f'"{k}"' for k in missing))
        return {}
    before = len(problems)
    crossings = _parse_crossing_list(data["crossings"], problems)
    ids = {c.id for c in crossings}
    links = _parse_pairs(data["crossing_links"], "crossing_links", ids, ids, problems)
    streets = _parse_pairs(data["crossing_streets"], "crossing_streets", ids, ids, problems)
    circles = _parse_pairs(data["crossing_circles"], "crossing_circles", ids, numbers,
                           problems, ordered=True)
    given: dict[Link, set[frozenset[int]]] = {}
    raw_routes = data["road_routes"]
    for item in raw_routes if isinstance(raw_routes, list) else [None]:
        road = item.get("road") if isinstance(item, dict) else None
        via = item.get("via") if isinstance(item, dict) else None
        if (not isinstance(road, list) or len(road) != 2 or not all(map(_is_whole, road))
                or not isinstance(via, list)
                or not all(isinstance(r, list) and set(r) <= ids for r in via)):
            problems.append('each of "road_routes" must be like {"road": [1, 2], '
                            '"via": [[4, 5]]}, naming known crossings')
            break
        given[link(*road)] = {frozenset(route) for route in via}
    if len(problems) > before:
        return {}
    open_roads = frozenset(road for road, routes in given.items() if frozenset() in routes)
    steps = _police_links(streets, circles, open_roads)
    if steps != links:
        odd = sorted(steps ^ links)[:5]
        problems.append("crossing_links must be the crossings joined by a street through no "
                        "other crossing (crossing_streets, a circle next to both, or a street "
                        "between circles); they differ at "
                        + ", ".join(f"{a}-{b}" for a, b in odd))
    derived = _routes(roads, streets, circles, open_roads)
    for road in sorted(roads):
        smallest = {r for r in given.get(road, ()) if not any(o < r for o in given[road])}
        if road not in given:
            problems.append(f"road {road[0]}-{road[1]} has no entry in road_routes")
        elif not derived[road] or smallest != set(derived[road]):
            problems.append(f"the routes of road {road[0]}-{road[1]} do not follow "
                            "crossing_streets and crossing_circles")
    return {"crossings": tuple(sorted(crossings, key=lambda c: c.id)),
            "crossing_links": frozenset(links), "crossing_streets": frozenset(streets),
            "crossing_circles": frozenset(circles), "open_roads": open_roads}


def parse_board(data: Any, source: str = "") -> Board:
    """A ``Board`` from the decoded JSON of a board file, or a ``BoardError``.

    Every problem found is reported, each naming the circle or link at fault.
    """
    if not isinstance(data, dict):
        raise BoardError(["the file must hold a JSON object with \"board\", \"circles\", "
                          "\"roads\" and \"alleys\""], source)
    problems: list[str] = []
    name = data.get("board")
    if not isinstance(name, str) or not name.strip():
        problems.append('"board" must name the board, like "Letters from Whitechapel"')
    declared: set[int] = set()
    circles = _parse_circles(data.get("circles"), problems, declared)
    numbers = {circle.n for circle in circles}
    if "roads" not in data:
        problems.append('"roads" is missing: a board needs road links')
    roads = _parse_links(data.get("roads", []), "roads", numbers, declared, problems)
    alleys = _parse_links(data.get("alleys", []), "alleys", numbers, declared, problems)
    linked = {end for pair in roads for end in pair}
    if circles and roads and not problems:
        stranded = sorted(numbers - linked)
        if stranded:
            problems.append("no road link reaches circle "
                            + ", ".join(str(n) for n in stranded[:10])
                            + (" ..." if len(stranded) > 10 else ""))
    crossings = _parse_crossings(data, numbers, roads, problems) if not problems else {}
    if problems:
        raise BoardError(problems, source)
    return Board(name.strip(), tuple(sorted(circles, key=lambda c: c.n)),
                 frozenset(roads), frozenset(alleys), **crossings)


def load_board(path: str | Path) -> Board:
    """Read and validate a board file; a ``BoardError`` says what is wrong with it."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise BoardError(["there is no such file"], str(path)) from None
    except (OSError, UnicodeDecodeError) as error:
        raise BoardError([f"cannot be read ({error})"], str(path)) from None
    return _board_from_text(text, str(path))


@lru_cache(maxsize=16)
def _board_from_text(text: str, source: str) -> Board:
    """The board a file's text describes. Every new table and app reads its boards again,
    and checking the shipped one costs 25 ms of CPU: a Board is frozen, so one parse serves
    every reader of the same text (keyed on the text and the name its errors give)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise BoardError([f"is not valid JSON: {error.msg} at line {error.lineno}, "
                          f"column {error.colno}"], source) from None
    return parse_board(data, source)


def find_boards(directory: str | Path) -> dict[str, Board]:
    """Every board file (``*.json``) in ``directory``, by board name.

    A missing directory holds no boards. A broken file or two files naming
    the same board raise a ``BoardError``: a board that silently fails to
    appear would leave the table guessing why.
    """
    directory = Path(directory)
    if not directory.is_dir():
        return {}
    boards: dict[str, Board] = {}
    origin: dict[str, Path] = {}
    for path in sorted(directory.glob("*.json")):
        board = load_board(path)
        if board.name in boards:
            raise BoardError([f'names the board "{board.name}", as {origin[board.name]} '
                              "already does"], str(path))
        boards[board.name] = board
        origin[board.name] = path
    return boards


def load_boards(directory: str | Path | None, paths: Iterable[str | Path] = (),
                shipped: Iterable[str | Path] = SHIPPED_BOARDS) -> dict[str, Board]:
    """The boards of a server: the ``shipped`` ones, every file of ``directory`` and
    each of ``paths``, by name.

    A broken file, or two files naming the same board differently, raise a
    ``BoardError``: a board that silently fails to appear, or replaces another,
    would leave the table guessing why.
    """
    boards: dict[str, Board] = {}
    for path in shipped:
        board = load_board(path)
        boards[board.name] = board
    shipped_names = set(boards)
    found = find_boards(directory) if directory else {}
    extra = [(board, str(directory)) for board in found.values()]
    extra += [(load_board(path), str(path)) for path in paths]
    for board, source in extra:
        if board.name in boards and boards[board.name] != board:
            whose = ("the board shipped with the companion" if board.name in shipped_names
                     else "another board file")
            raise BoardError([f'names the board "{board.name}", as {whose} already does: '
                              'give it another name (its "board" key)'], source)
        boards[board.name] = board
    return boards
