"""The detectives' deduction map for Letters from Whitechapel: where can Jack be?

Its only input is public: what the table screen shows (the TABLE view's
``public_facts``), never Jack's sheet. From it, it computes exactly the set
of circles at which some path of Jack ends that is legal on the board and
agrees with every public fact ("Second Part: Hunting"):

- Jack starts on the crime scene. On the third night, the double event,
  he starts on one of the two crime scenes; the detectives do not know
  which ("The Third Night"), so either is a possible start, whatever order
  the facts list them in. Both are on his path.
- Each movement since the crime is public by its kind: a normal move
  follows one road link not blocked by a policeman; a Coach makes two road
  steps to circles different from each other and from the start, passing
  policemen; an Alley follows one alley link.
- "Looking for clues": the detective's circle is checked against "every
  circle in the current night's row (crime scenes included)"
  (docs/RULINGS.md#letters-from-whitechapel, "Looking for clues"),
  so a clue at c found after k movements means c is on the path up to
  movement k (Coach circles included), and a circle searched without a clue
  is on no part of it up to then.
- "Executing an arrest": a failed arrest at c after k movements means Jack
  was not at c at that moment.

The facts of one night (``facts`` itself for the night in progress, and each
entry of ``facts["prior_nights"]``)::

    {"crime_scenes": [82],               # this night's crime scenes
     "moves": ["move", "coach", ...],    # one entry per movement; a Coach is one
     "clues": [{"circle": 100, "after_move": 3}, ...],
     "searched_empty": [{"circle": 99, "after_move": 3}, ...],
     "failed_arrests": [{"circle": 99, "after_move": 4}, ...],
     "blocked": [[65, 66, 2], [81, 82]],  # optional, see below
     "police": [[44, 75, 101, 107, 119], ...]}  # optional, see below

``after_move`` is how many entries of ``moves`` Jack had made when the
detectives acted (0: before his first movement, as on the third night). A
``blocked`` entry ``[a, b, k]`` says the road link a-b was closed by a
policeman during Jack's k-th movement (1 for the first; one more than the
movements so far marks the move to come); ``[a, b]`` says it was closed
during every movement of the night. Only normal moves are
affected: a Coach passes policemen and an Alley crosses no crossing.

With police on the map (a board with crossings), ``police`` lists, for each
of Jack's movements in order, the crossings the policemen stood on during it
(public: the pawns stand on the real board). A road is closed for that
movement when every way along it passes one of them ("He may not move over a
crossing occupied by a policeman pawn"; ``Board.closed_roads``): the same as
a ``blocked`` entry for each such road.

With the False clues optional rule, ``"false_clues": true`` says a clue
marker may be one Jack placed: then a clue counts only if its entry says
``"search": true`` (a detective's search found it). A failed arrest given as
a bare circle number (no ``after_move``) is ignored, as it cannot be dated.

The whole game's facts add ``"night"`` (the night in progress, 1-4),
``"escapes"`` (the nights on which Jack declared his escape) and
``"prior_nights"`` (the facts of each finished night, first night first; an
entry may name its ``"night"``). Each escape puts the hideout among the
circles Jack could reach that night, so the candidates are those, across
escapes, that are not red (Setup 6).

The computation is a forward search over states (circle, which clue circles
not yet due have been visited), pruned by searches, arrests and by whether a
clue circle can still be reached in time. It is exact: a circle is in the
set if and only if some path consistent with the facts ends there. (Only
when many clues found late would make the search too slow does it drop the
latest of them, still sound; see ``_Search``.)
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from companion.games.whitechapel.board import Board, Link, link

MOVE_KINDS = ("move", "coach", "alley")
"""Jack's movements as the table sees them: normal move, Coach, Alley."""


class FactsError(ValueError):
    """Public facts that do not fit the board or each other (a bug upstream)."""


@dataclass(frozen=True)
class NightFacts:
    """The validated public facts of one night."""

    crime_scenes: tuple[int, ...]
    moves: tuple[str, ...]
    clues: tuple[tuple[int, int], ...]
    searched_empty: tuple[tuple[int, int], ...]
    failed_arrests: tuple[tuple[int, int], ...]
    blocked: tuple[tuple[Link, int | None], ...] = ()


# --- reading the facts ------------------------------------------------------

def _whole(value: Any, what: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise FactsError(f"{what} must be a whole number from {low} to {high}, not {value!r}")
    return value


def _circle(board: Board, value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not board.has_circle(value):
        raise FactsError(f"{what}: {value!r} is not a circle of the board {board.name!r}")
    return value


def _list(raw: Mapping[str, Any], key: str) -> list[Any]:
    value = raw.get(key, [])
    if value is None:
        return []
    if not isinstance(value, list | tuple):
        raise FactsError(f'"{key}" must be a list, not {value!r}')
    return list(value)


def _dated(board: Board, raw: Mapping[str, Any], key: str, moves: int,
           trusted: Callable[[Mapping[str, Any]], bool]) -> tuple[tuple[int, int], ...]:
    """(circle, after_move) of each entry of ``raw[key]`` that ``trusted`` accepts."""
    found = []
    for item in _list(raw, key):
        if _is_circle_number(item):
            continue  # no "after_move": when it happened is unknown, so it says nothing sure
        if not isinstance(item, Mapping):
            raise FactsError(f'an entry of "{key}" must be an object, not {item!r}')
        circle = _circle(board, item.get("circle"), key)
        step = _whole(item.get("after_move"), f'"after_move" in "{key}"', 0, moves)
        if trusted(item):
            found.append((circle, step))
    return tuple(found)


def _is_circle_number(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def read_night(board: Board, raw: Mapping[str, Any], false_clues: bool = False) -> NightFacts:
    """Validate one night's public facts against ``board``; a ``FactsError`` if they are off.

    With the False clues optional rule (``false_clues``, or ``raw["false_clues"]``)
    a clue marker may be Jack's lie, so only clues marked ``"search": true``
    (answered to a detective's search) count. A failed arrest given as a
    bare circle number, without ``after_move``, is ignored: Jack may have
    stood there at another moment.
    """
    if not isinstance(raw, Mapping):
        raise FactsError(f"the facts of a night must be an object, not {raw!r}")
    false_clues = false_clues or raw.get("false_clues") is True
    scenes = tuple(_circle(board, c, "crime scene") for c in _list(raw, "crime_scenes"))
    if len(set(scenes)) != len(scenes):
        raise FactsError(f"a crime scene is listed twice: {list(scenes)}")
    moves = tuple(_list(raw, "moves"))
    for kind in moves:
        if kind not in MOVE_KINDS:
            raise FactsError(f"a movement must be one of {', '.join(MOVE_KINDS)}, not {kind!r}")
    searches = {
        "clues": _dated(board, raw, "clues", len(moves),
                        lambda item: not false_clues or item.get("search") is True),
        "searched_empty": _dated(board, raw, "searched_empty", len(moves), lambda item: True),
        "failed_arrests": _dated(board, raw, "failed_arrests", len(moves), lambda item: True),
    }
    blocked = []
    for item in _list(raw, "blocked"):
        if not isinstance(item, list | tuple) or len(item) not in (2, 3):
            raise FactsError(f"a blocked link must be [a, b] or [a, b, movement], not {item!r}")
        a = _circle(board, item[0], "blocked link")
        b = _circle(board, item[1], "blocked link")
        if b not in board.neighbours(a):
            raise FactsError(f"blocked link {a}-{b} is not a road of the board")
        move = (_whole(item[2], "the movement of a blocked link", 1, len(moves) + 1)
                if len(item) == 3 else None)
        blocked.append((link(a, b), move))
    blocked += _policed_roads(board, _list(raw, "police"), len(moves))
    return NightFacts(scenes, moves, searches["clues"], searches["searched_empty"],
                      searches["failed_arrests"], tuple(blocked))


def _policed_roads(board: Board, police: list[Any],
                   moves: int) -> list[tuple[Link, int | None]]:
    """The roads closed by the policemen's crossings, as (road, movement) pairs."""
    if len(police) > moves:
        raise FactsError(f"police positions for {len(police)} movements, but Jack made "
                         f"{moves}")
    closed: list[tuple[Link, int | None]] = []
    for step, crossings in enumerate(police, start=1):
        if not isinstance(crossings, list | tuple) or not all(
                _is_circle_number(x) and x in board.crossing_ids for x in crossings):
            raise FactsError(f"the police of movement {step} must be crossings of the board "
                             f"{board.name!r}, not {crossings!r}")
        closed += [(road, step) for road in board.closed_roads(crossings)]
    return closed


# --- the search ---------------------------------------------------------------
# Sets of circles are bit masks over the board's circles (bit i = numbers[i]):
# a late night with Coaches touches every circle many times, and int
# operations keep it well under the 50 ms the issue asks for.

CHUNK = 8
"""Bits per lookup when spreading a set of circles one step."""
CHUNK_MASK = (1 << CHUNK) - 1


@dataclass(frozen=True)
class _Graph:
    """The board as bit masks: circle index -> mask of the circles one step away.

    ``road_spread``/``alley_spread`` hold, for each 8-circle chunk and each
    subset of it, the circles one step away: a set of any size spreads in
    about 25 lookups on the real board.
    """

    numbers: tuple[int, ...]
    index: Mapping[int, int]
    road: tuple[int, ...]
    alley: tuple[int, ...]
    road_spread: tuple[tuple[int, ...], ...]
    alley_spread: tuple[tuple[int, ...], ...]


def _spread_table(steps: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    table = []
    for base in range(0, len(steps), CHUNK):
        row = [0] * (1 << CHUNK)
        for subset in range(1, 1 << CHUNK):
            low = (subset & -subset).bit_length() - 1
            own = steps[base + low] if base + low < len(steps) else 0
            row[subset] = row[subset & (subset - 1)] | own
        table.append(tuple(row))
    return tuple(table)


@lru_cache(maxsize=8)
def _graph(board: Board) -> _Graph:
    numbers = board.numbers
    index = {n: i for i, n in enumerate(numbers)}

    def masks(neighbours: Callable[[int], Iterable[int]]) -> tuple[int, ...]:
        return tuple(sum(1 << index[m] for m in neighbours(n)) for n in numbers)

    road, alley = masks(board.neighbours), masks(board.alley_neighbours)
    return _Graph(numbers, index, road, alley, _spread_table(road), _spread_table(alley))


def _bits(mask: int) -> Iterator[int]:
    """The indexes of the set bits of ``mask``."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _spread(table: tuple[tuple[int, ...], ...], mask: int) -> int:
    """Every circle one step (of ``table``) from a circle of ``mask``."""
    found = 0
    for row in table:
        if not mask:
            break
        found |= row[mask & CHUNK_MASK]
        mask >>= CHUNK
    return found


def _reach_masks(graph: _Graph, moves: Sequence[str], clue: int, deadline: int) -> list[int]:
    """For each step j < deadline, the circles from which movements j+1..deadline can pass ``clue``.

    Blocks and searches are ignored: an over-approximation only prunes less.
    """
    reach = [0] * (len(moves) + 1)
    target = 1 << clue
    for step in range(deadline - 1, -1, -1):
        table = graph.alley_spread if moves[step] == "alley" else graph.road_spread
        before = _spread(table, target)
        if moves[step] == "coach":
            before = _spread(graph.road_spread, before) | graph.road[clue]
        reach[step] = before
        target = before | (1 << clue)
    return reach


def _movements(graph: _Graph, start: int, kind: str, forbidden: int, closed: int,
               clue_bit: Mapping[int, int]) -> dict[int, int]:
    """Every ``kind`` movement from ``start``: clue bits it visits -> circles it reaches.

    A Coach's second circle differs from the start (the first always does:
    no road joins a circle to itself); a circle searched empty is never
    entered; ``closed`` holds the circles a blocked road would have led to.
    """
    if kind == "coach":
        legs = [(clue_bit.get(first, 0), graph.road[first] & ~(1 << start))
                for first in _bits(graph.road[start] & ~forbidden)]
    elif kind == "alley":
        legs = [(0, graph.alley[start])]
    else:
        legs = [(0, graph.road[start] & ~closed)]
    reached: dict[int, int] = defaultdict(int)
    for visited, ends in legs:
        ends &= ~forbidden
        for i, bit in clue_bit.items():
            if ends >> i & 1:
                reached[visited | bit] |= 1 << i
                ends &= ~(1 << i)
        reached[visited] |= ends
    return reached


def _maximal(masks: list[int]) -> list[int]:
    """Drop every clue mask that another includes: at the same circle, having
    visited more clue circles is never worse."""
    kept: list[int] = []
    for mask in sorted(set(masks), key=int.bit_count, reverse=True):
        if not any(mask & other == mask for other in kept):
            kept.append(mask)
    return kept


STATE_LIMIT = 3000
"""States (circle, clue circles visited) kept per step before loosening: see _Search."""


class _Search:
    """One night's forward search over states (circle, pending clue circles visited).

    States are grouped by their clue mask: a dict clue mask -> mask of
    circles. Pending clues are those whose deadline (the movement after which
    they were found) is still to come. Each step, states that break a fact
    are dropped: an arrest here now, a clue due but never visited, a clue not
    reachable in time (``_reach_masks``), or more clues still to visit than
    the row has squares left before their deadline.

    Many clues all found late can make the states explode. Past
    ``STATE_LIMIT`` the search forgets the pending clue found last, which
    only drops a constraint: the answer stays sound (a superset), exact in
    every other case.
    """

    def __init__(self, board: Board, night: NightFacts) -> None:
        graph = self.graph = _graph(board)
        at = graph.index
        self.night = night
        steps = self.steps = len(night.moves)
        self.scenes = {at[c] for c in night.crime_scenes}
        empty_until: dict[int, int] = {}
        for circle, step in night.searched_empty:
            empty_until[at[circle]] = max(empty_until.get(at[circle], -1), step)
        deadline: dict[int, int] = {}
        for circle, step in night.clues:
            if at[circle] not in self.scenes:
                deadline[at[circle]] = min(deadline.get(at[circle], steps), step)
        self.impossible = bool(self.scenes & empty_until.keys()) or any(
            empty_until.get(i, -1) >= step for i, step in deadline.items())
        self.clue_bit = {i: 1 << k for k, i in enumerate(sorted(deadline))}
        self.deadline = {self.clue_bit[i]: step for i, step in deadline.items()}
        self.tracked = sum(self.clue_bit.values())
        self.forbidden = [sum(1 << i for i, until in empty_until.items() if until >= step)
                          for step in range(steps + 1)]
        self.due = [0] * (steps + 1)
        for bit, step in self.deadline.items():
            self.due[step] |= bit
        self.still_needed = [0] * (steps + 1)
        for step in range(steps - 1, -1, -1):
            self.still_needed[step] = self.still_needed[step + 1] | self.due[step + 1]
        self.reach = {self.clue_bit[i]: _reach_masks(graph, night.moves, i, step)
                      for i, step in deadline.items()}
        # Each movement writes one circle on the row, a Coach two: k clue
        # circles still unvisited before movement d need k circles by then.
        written = [0]
        for kind in night.moves:
            written.append(written[-1] + (2 if kind == "coach" else 1))
        self.budget: list[list[tuple[int, int]]] = [[] for _ in range(steps + 1)]
        for step in range(steps + 1):
            upto = 0
            for until in range(step + 1, steps + 1):
                upto |= self.due[until]
                if self.due[until]:
                    self.budget[step].append((upto, written[until] - written[step]))
        self.not_here = [0] * (steps + 1)
        for circle, step in night.failed_arrests:
            self.not_here[step] |= 1 << at[circle]
        self.closed: list[dict[int, int]] = [defaultdict(int) for _ in range(steps + 2)]
        for (a, b), move in night.blocked:
            for step in ([move] if move is not None else range(1, steps + 1)):
                self.closed[step][at[a]] |= 1 << at[b]
                self.closed[step][at[b]] |= 1 << at[a]

    def settle(self, groups: Mapping[int, int], step: int) -> dict[int, int]:
        """The states of ``groups`` that fit the facts known after ``step`` movements."""
        due = self.due[step] & self.tracked
        needed = self.still_needed[step] & self.tracked
        kept: dict[int, int] = defaultdict(int)
        for visited, here in groups.items():
            if visited & due != due:
                continue
            here &= ~self.not_here[step]
            missing = needed & ~visited
            if any((missing & upto).bit_count() > room for upto, room in self.budget[step]):
                continue
            while missing and here:
                bit = missing & -missing
                here &= self.reach[bit][step]
                missing ^= bit
            if here:
                kept[visited & ~due] |= here
        while sum(here.bit_count() for here in kept.values()) > STATE_LIMIT:
            pending = [bit for bit in self.deadline
                       if bit & self.tracked and self.deadline[bit] > step]
            if not pending:
                break
            self.tracked &= ~max(pending, key=lambda bit: (self.deadline[bit], bit))
            merged: dict[int, int] = defaultdict(int)
            for visited, here in kept.items():
                merged[visited & self.tracked] |= here
            kept = merged
        return kept

    def advance(self, groups: Mapping[int, int], step: int, kind: str) -> dict[int, int]:
        """Every state one ``kind`` movement (movement number ``step``) after ``groups``."""
        visits: dict[int, list[int]] = defaultdict(list)
        for visited, here in groups.items():
            for i in _bits(here):
                visits[i].append(visited)
        following: dict[int, int] = defaultdict(int)
        for i, visited_sets in visits.items():
            if len(visited_sets) > 1:
                visited_sets = _maximal(visited_sets)
            for gained, ends in _movements(self.graph, i, kind, self.forbidden[step],
                                           self.closed[step].get(i, 0), self.clue_bit).items():
                gained &= self.tracked
                for visited in visited_sets:
                    following[visited | gained] |= ends
        return following

    def positions(self) -> frozenset[int]:
        if self.impossible:
            return frozenset()
        groups = self.settle({0: sum(1 << i for i in self.scenes)}, 0)
        for step, kind in enumerate(self.night.moves, start=1):
            groups = self.settle(self.advance(groups, step, kind), step)
            if not groups:
                return frozenset()
        found = 0
        for here in groups.values():
            found |= here
        return frozenset(self.graph.numbers[i] for i in _bits(found))


def night_positions(board: Board, night: NightFacts) -> frozenset[int]:
    """Where Jack can be after all of ``night.moves``, given that night's facts."""
    if not night.crime_scenes:
        return frozenset()
    return _Search(board, night).positions()


# --- the public entry points --------------------------------------------------

def possible_positions(board: Board, facts: Mapping[str, Any]) -> set[int]:
    """The circles where Jack can be now, from the public facts of the night in progress.

    Empty before the night's crime (Jack is not on the streets yet) and for
    facts that no legal play could produce.
    """
    return set(night_positions(board, read_night(board, facts)))


def _nights(board: Board, facts: Mapping[str, Any]) -> dict[int, Mapping[str, Any]]:
    if not isinstance(facts, Mapping):
        raise FactsError(f"the public facts must be an object, not {facts!r}")
    nights: dict[int, Mapping[str, Any]] = {}
    for index, night in enumerate(_list(facts, "prior_nights")):
        if not isinstance(night, Mapping):
            raise FactsError(f"a finished night's facts must be an object, not {night!r}")
        number = _whole(night.get("night", index + 1), "a finished night", 1, 4)
        if number in nights:
            raise FactsError(f"night {number} has two sets of facts")
        nights[number] = night
    if "night" in facts:
        nights.setdefault(_whole(facts["night"], '"night"', 1, 4), facts)
    return nights


def candidate_hideouts(board: Board, facts: Mapping[str, Any]) -> set[int]:
    """The circles that can still be Jack's hideout, from every night he escaped.

    "If Jack moves onto his hideout, he may declare that his escape was
    successful": on each night in ``facts["escapes"]`` he ended on it. The
    hideout is never red (Setup 6). With no escape yet, every other circle.
    """
    nights = _nights(board, facts)
    candidates = {n for n in board.numbers if board.is_legal_hideout(n)}
    for night in _list(facts, "escapes"):
        number = _whole(night, "a night of escape", 1, 4)
        if number not in nights:
            raise FactsError(f"Jack escaped on night {number}, but that night has no facts")
        candidates &= night_positions(
            board, read_night(board, nights[number], facts.get("false_clues") is True))
    return candidates


def deduction_map(board: Board, facts: Mapping[str, Any]) -> dict[str, list[int]]:
    """The two layers of the map, JSON-serialisable for a view: now, and hideouts."""
    return {"possible": sorted(possible_positions(board, facts)),
            "hideouts": sorted(candidate_hideouts(board, facts))}
