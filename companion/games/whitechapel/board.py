"""Board files for Letters from Whitechapel: the streets Jack may take.

A board file is optional and supplied by the user (RULINGS.md, Letters from
Whitechapel, "Board files are optional and user-supplied"). With one loaded
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

The board knows nothing about policemen's crossings: a blocked street is
given as the pair of circles it joins, as the detectives mark it.
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

Link = tuple[int, int]

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


def link(a: int, b: int) -> Link:
    """The undirected link between two circles, smaller number first."""
    return (a, b) if a < b else (b, a)


@dataclass(frozen=True)
class Board:
    """A validated board: circles, road links and alley links. Immutable."""

    name: str
    circles: tuple[Circle, ...]
    roads: frozenset[Link]
    alleys: frozenset[Link]

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

    def is_alley(self, a: int, b: int) -> bool:
        """Whether an alley link joins circles ``a`` and ``b`` across a block."""
        return link(a, b) in self.alleys

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

    def coach_destinations(self, start: int) -> frozenset[int]:
        """The circles a Coach from ``start`` can end on."""
        return frozenset(second for _, second in self.coach_routes(start))

    def alley_moves(self, start: int) -> frozenset[int]:
        """Destinations of an Alley ("Special Movements, II. Alley").

        Any other circle on the perimeter of a block that ``start`` is on. An
        alley crosses houses, not crossings, so policemen never block one.
        """
        return self.alley_neighbours(start)

    def is_legal_move(self, start: int, kind: str, route: Iterable[int],
                      blocked: Iterable[Iterable[int]] = ()) -> bool:
        """Whether ``route`` (one circle, or two for a "coach") is a legal ``kind`` move."""
        return self.move_problem(start, kind, route, blocked) is None

    def move_problem(self, start: int, kind: str, route: Iterable[int],
                     blocked: Iterable[Iterable[int]] = ()) -> str | None:
        """Why ``route`` is not a legal ``kind`` move from ``start``, for the player; None if it is.

        The rules module's refusal message when a board is loaded.
        """
        if kind not in ("move", "coach", "alley"):
            return "A movement is a move, a Coach or an Alley."
        circles = tuple(route)
        unknown = [n for n in (start, *circles) if not self.has_circle(n)]
        if unknown:
            return f"There is no circle {unknown[0]} on the board {self.name}."
        if kind == "coach":
            if len(circles) != 2:
                return "A Coach goes to two circles."
            first, second = circles
            if first not in self.neighbours(start):
                return f"No road joins {start} and {first}: a Coach follows two roads."
            if second not in self.neighbours(first):
                return f"No road joins {first} and {second}: a Coach follows two roads."
            if len({start, first, second}) < 3:
                return ("The two circles of a Coach must be different from each other "
                        "and from the circle you start from.")
            return None
        if len(circles) != 1:
            return "A move goes to one circle."
        (end,) = circles
        if kind == "alley":
            if end not in self.alley_moves(start):
                return f"No alley crosses a block of houses from {start} to {end}."
            return None
        if end not in self.neighbours(start):
            return f"No road joins {start} and {end}."
        if end not in self.normal_moves(start, blocked):
            return f"A policeman blocks the road from {start} to {end}."
        return None

    def is_legal_hideout(self, n: int) -> bool:
        """A hideout may be "any numbered circle on the game board except a red" one (Setup 6)."""
        return self.has_circle(n) and n not in self.red

    def is_legal_crime_scene(self, n: int, crime_scenes: Iterable[int]) -> bool:
        """A crime needs a circle of the board without a crime scene marker on it yet.

        Wretched pawns may not end on a crime scene (Hell, phase 6), so no
        victim is ever found on one.
        """
        return self.has_circle(n) and n not in set(crime_scenes)

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
        }


    # --- inside a game's state -------------------------------------------------

    def graph(self) -> dict[str, str]:
        """The board's graph, compact, for a game's state: name, red circles, links.

        The state keeps the graph so that a table is self-contained (a restart,
        an export or an import needs no board file), and the action log keeps
        every state, so each link costs a few characters: ``"1:2,6 2:3"`` lists
        under each circle the higher-numbered circles it is linked to.
        Positions stay in the file: only the map draws them.
        """
        return {"board": self.name,
                "red": " ".join(str(n) for n in sorted(self.red)),
                "roads": _adjacency_text(self.roads),
                "alleys": _adjacency_text(self.alleys)}


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
        start, _, ends = entry.partition(":")
        try:
            found += [[int(start), int(end)] for end in ends.split(",")]
        except ValueError:
            raise BoardError([f'"{key}" of a board graph has a bad entry {entry[:20]!r}']) \
                from None
    return found


@lru_cache(maxsize=8)
def _graph_board(name: str, red: str, roads: str, alleys: str) -> Board:
    road_links = _links_from_text(roads, "roads")
    alley_links = _links_from_text(alleys, "alleys")
    try:
        reds = {int(n) for n in red.split()}
    except ValueError:
        raise BoardError(['"red" of a board graph must be circle numbers']) from None
    numbers = sorted({n for pair in road_links + alley_links for n in pair} | reds)
    return parse_board({"board": name, "roads": road_links, "alleys": alley_links,
                        "circles": [{"n": n, "x": 0, "y": 0, "red": n in reds}
                                    for n in numbers]})


def board_from_graph(graph: Any) -> Board:
    """The ``Board`` of a graph made by ``Board.graph`` (every position at 0, 0: the
    rules need no drawing), or a ``BoardError``. Decoded once per graph."""
    if not isinstance(graph, Mapping) or not all(
            isinstance(graph.get(key), str) for key in ("board", "red", "roads", "alleys")):
        raise BoardError(['a board graph needs the texts "board", "red", "roads" and '
                          '"alleys"'])
    return _graph_board(graph["board"], graph["red"], graph["roads"], graph["alleys"])


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
    if problems:
        raise BoardError(problems, source)
    return Board(name.strip(), tuple(sorted(circles, key=lambda c: c.n)),
                 frozenset(roads), frozenset(alleys))


def load_board(path: str | Path) -> Board:
    """Read and validate a board file; a ``BoardError`` says what is wrong with it."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise BoardError(["there is no such file"], str(path)) from None
    except (OSError, UnicodeDecodeError) as error:
        raise BoardError([f"cannot be read ({error})"], str(path)) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise BoardError([f"is not valid JSON: {error.msg} at line {error.lineno}, "
                          f"column {error.colno}"], str(path)) from None
    return parse_board(data, str(path))


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


def load_boards(directory: str | Path | None, paths: Iterable[str | Path] = ()) -> dict[str, Board]:
    """The boards of a server: every file of ``directory`` and each of ``paths``, by name.

    A broken file, or two files naming the same board, raise a ``BoardError``.
    """
    boards = find_boards(directory) if directory else {}
    for path in paths:
        board = load_board(path)
        if board.name in boards and boards[board.name] != board:
            raise BoardError([f'names the board "{board.name}", as another board file '
                              "already does"], str(path))
        boards[board.name] = board
    return boards
