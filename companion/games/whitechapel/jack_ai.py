"""The companion plays Jack: every decision of Jack's, from what a human Jack knows.

Two steps, kept apart on purpose (issue 39, "A fair Jack"):

- ``knowledge(jack_view, board)`` reads Jack's own page (``view(state, JACK)``: his
  sheet, tonight's row, the policemen where they stand, the tokens left, the public
  facts) and the board everyone sees. It is the only door: nothing else of a state
  reaches a decision, so two states that differ only in what Jack cannot know give
  the same ``Knowledge`` and the same decisions (tests/games/test_whitechapel_jack_ai.py).
- ``decide(knowledge, level, rng) -> action`` picks one action, a form as a phone
  would send it. Chance comes only from ``rng`` (the table's random source), and sets
  are walked in sorted order, so a seeded game plays the same every time.

Levels (``LEVELS``, offered on the setup page): ``easy`` walks the shortest road
home with some randomness and never spends a Coach or an Alley unless trapped, a Jack
a new group beats; ``hard`` weighs each legal movement by the detectives' own
deduction (how many circles they must still consider after it, how many policemen can
search or arrest there next, the circles of his trail they can reach) while keeping a
road home within the squares left. ``BASELINES`` (``random``, ``shortest``) are the
bench's reference Jacks (bench/jack.py), never offered at a table.

What a human Jack sees on the real board the detectives tap in (the patrol tokens'
crossings, where the Head moves each wretched, what a turned token shows), and it
reaches him through his view like the rest: so he may wait (Hell 5), and then
chooses the patrol token he turns over (Hell 7)
(docs/RULINGS.md#letters-from-whitechapel, "The companion plays Jack").
"""

from __future__ import annotations

import math
import random
from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.games.whitechapel.board import Board, link
from companion.games.whitechapel.deduction import FactsError, possible_positions
from companion.games.whitechapel.state import DOUBLE_EVENT, FAKE, NIGHTS, ROMAN

LEVELS = ("easy", "hard")
BASELINES = ("random", "shortest")

KILL_DISTANCE = 7
"""How far from his hideout the hard Jack likes a victim: far enough that the crime
tells little about the hideout, near enough to get home with squares to spare."""


@dataclass(frozen=True)
class Knowledge:
    """What a human Jack knows at this moment, and nothing else."""

    board: Board
    phase: str
    night: int
    actions: tuple[str, ...]
    hideout: int | None
    location: int | None
    trail: tuple[int, ...]
    squares_left: int
    coaches: int
    alleys: int
    police: tuple[int, ...]
    closed: frozenset[tuple[int, int]]
    police_before: tuple[int, ...]
    crime_scenes: frozenset[int]
    women: tuple[int, ...]
    clues: frozenset[int]
    letters_left: tuple[str, ...]
    false_clues_left: int
    facts: Mapping[str, Any]
    time: int = 1
    patrols: tuple[tuple[int, str | None], ...] = ()
    wretched: tuple[int, ...] = ()


def knowledge(jack_view: Mapping[str, Any], board: Board) -> Knowledge:
    """Jack's knowledge from his own view and the board on the table."""
    night = jack_view["night"]
    sheet = jack_view["sheet"]
    row = sheet["nights"][night - 1]
    trail = tuple(row["crimes"]) + tuple(c for m in row["moves"] for c in m["circles"])
    cops = jack_view.get("cops") or {}
    tokens = jack_view["tokens"]
    told = jack_view.get("told") or {}
    return Knowledge(
        board=board,
        phase=jack_view["phase"],
        night=night,
        actions=tuple(jack_view["actions"]),
        hideout=sheet["hideout"],
        location=jack_view["jack"]["location"],
        trail=trail,
        squares_left=tokens["squares"] if tokens["squares"] is not None else 0,
        coaches=tokens["coaches"],
        alleys=tokens["alleys"],
        police=tuple(sorted(x for x in (cops.get("at") or {}).values() if x is not None)),
        closed=frozenset(link(*road) for road in jack_view["closed_roads"]),
        police_before=tuple(cops.get("before") or ()),
        crime_scenes=frozenset(c for scene in jack_view["crime_scenes"]
                               for c in scene["circles"]),
        women=tuple(jack_view["jack"]["women"]),
        clues=frozenset(jack_view["clues"]),
        letters_left=tuple(jack_view["jack"]["letters_left"]),
        false_clues_left=jack_view["jack"]["false_clues_left"],
        facts=jack_view["public_facts"],
        time=ROMAN.index(jack_view["time"]) + 1 if jack_view["time"] else 1,
        patrols=tuple((p["crossing"], p["shows"]) for p in told.get("patrols", ())),
        wretched=tuple(told.get("wretched", ())),
    )


def decide(k: Knowledge, level: str, rng: random.Random) -> dict[str, str]:
    """Jack's action now, as a phone would send it."""
    if k.phase == "hideout":
        return {"type": "hideout", "circle": str(_hideout(k, level, rng))}
    if k.phase == "women":
        return _women(k, level, rng)
    if k.phase == "letter":
        if k.letters_left and rng.random() < 0.5:
            return {"type": "letter", "letter": rng.choice(k.letters_left)}
        return {"type": "no_letter"}
    if k.phase == "blood":
        return _kill_or_wait(k, level, rng)
    if k.phase == "ready":
        return {"type": "reveal", "crossing": str(_token_to_turn(k, level, rng))}
    if k.phase == "jack":
        return _movement(k, level, rng)
    if k.phase == "police" and "false_clue" in k.actions:
        return {"type": "false_clue", "circle": str(_false_clue(k, level, rng))}
    raise ValueError(f"the companion has nothing to decide in phase {k.phase!r}")


# --- the board's distances, once per board -----------------------------------------

_TABLES: dict[int, tuple[Board, dict[int, dict[int, int]], dict[int, frozenset[int]]]] = {}


def _distances(board: Board) -> dict[int, dict[int, int]]:
    """Road distances between every two circles (Board objects are decoded once per
    graph, so this is worked out once per board)."""
    return _tables(board)[0]


def _tables(board: Board) -> tuple[dict[int, dict[int, int]], dict[int, frozenset[int]]]:
    kept = _TABLES.get(id(board))
    if kept is None or kept[0] is not board:
        roads = {n: roads_from(board, n) for n in board.numbers}
        # Where each crossing's policeman can look next turn: the circles next to any
        # crossing he reaches in 0-2 steps (Hunting 2 then 3).
        reach = {x: frozenset(c for y in board.police_moves(x)
                              for c in board.circles_next_to(y))
                 for x in board.crossing_ids}
        kept = _TABLES[id(board)] = (board, roads, reach)
    return kept[1], kept[2]


def roads_from(board: Board, start: int) -> dict[int, int]:
    """Each circle's distance from ``start``, in roads."""
    seen = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for there in sorted(board.neighbours(here)):
            if there not in seen:
                seen[there] = seen[here] + 1
                queue.append(there)
    return seen


def _home(k: Knowledge, circle: int) -> int:
    """Squares from ``circle`` to his hideout as the board stands now: the roads the
    policemen close stay closed (they may move away, or not), an Alley counts while
    he has one."""
    return _home_table(k).get(circle, 99)


_HOME: dict[tuple[Any, ...], tuple[Board, dict[int, int]]] = {}
"""The last decision's distances home: a decision asks for them once per option."""


def _home_table(k: Knowledge) -> dict[int, int]:
    key = (id(k.board), k.hideout, k.closed, bool(k.alleys))
    kept = _HOME.get(key)
    if kept is None or kept[0] is not k.board:
        _HOME.clear()
        board = k.board
        start = k.hideout if k.hideout is not None else board.numbers[0]
        seen = {start: 0}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            ends = set(board.normal_moves(here, k.closed))
            if k.alleys:
                ends |= board.alley_moves(here)
            for there in sorted(ends):
                if there not in seen:
                    seen[there] = seen[here] + 1
                    queue.append(there)
        kept = _HOME[key] = (board, seen)
    return kept[1]


def _threat(k: Knowledge) -> dict[int, int]:
    """For each circle, how many policemen can search or arrest there next turn."""
    reach = _tables(k.board)[1]
    count: dict[int, int] = {}
    for x in k.police:
        for c in reach.get(x, ()):
            count[c] = count.get(c, 0) + 1
    return count


def _pressure(board: Board, crossings: Iterable[int]) -> dict[int, float]:
    """How near a circle is to crossings where policemen may stand (their patrol
    tokens' crossings before the alarm): 1 next to one, a half one road further."""
    found: dict[int, float] = {}
    for x in crossings:
        near = board.circles_next_to(x)
        for c in near:
            found[c] = found.get(c, 0) + 1
        for c in {m for n in near for m in board.neighbours(n)} - near:
            found[c] = found.get(c, 0) + 0.5
    return found


def _best(scored: list[tuple[float, Any]], rng: random.Random, spread: float = 0.0) -> Any:
    """The best-scored choice; ``spread`` adds noise from ``rng`` to each score first
    (ties, and a Jack who is not always the same)."""
    noisy = [(score + (rng.random() * spread if spread else 0.0), i)
             for i, (score, _) in enumerate(scored)]
    return scored[max(noisy)[1]][1]


# --- Setup and Hell ---------------------------------------------------------------

def _hideout(k: Knowledge, level: str, rng: random.Random) -> int:
    """Setup 6: any circle but a red one."""
    legal = [n for n in k.board.numbers if k.board.is_legal_hideout(n)]
    if level != "hard":
        return rng.choice(legal)
    dist = _distances(k.board)
    red = sorted(k.board.red)
    # Many red circles (where the women stand) at a killing distance, few right next.
    scored = [(sum(1 for r in red if 4 <= dist[n].get(r, 99) <= 9)
               - 3 * sum(1 for r in red if dist[n].get(r, 99) <= 2), n) for n in legal]
    scored.sort(reverse=True)
    return rng.choice([n for _, n in scored[:max(8, len(scored) // 5)]])


def _women(k: Knowledge, level: str, rng: random.Random) -> dict[str, str]:
    """Hell 2: the women tokens on red circles, the marked ones among them."""
    rules = NIGHTS[k.night]
    free = sorted(c for c in k.board.red if c not in k.crime_scenes)
    if level == "hard" and k.hideout is not None:
        dist = _distances(k.board)[k.hideout]
        pressure = _pressure(k.board, k.board.police_starts | set(k.police_before))
        scored = [(-abs(dist.get(c, 99) - KILL_DISTANCE) - pressure.get(c, 0), c)
                  for c in free]
        marked = []
        for _ in range(rules["marked"]):
            pick = _best([(s, c) for s, c in scored if c not in marked], rng, spread=1.5)
            marked.append(pick)
    else:
        marked = rng.sample(free, rules["marked"])
    others = rng.sample([c for c in free if c not in marked], rules["women"] - rules["marked"])
    return {"type": "women", "circles": " ".join(map(str, marked)),
            "unmarked": " ".join(map(str, sorted(others)))}


WAIT_WORTH = 0.15
"""How much better the hard Jack's best victim must be likely to look once a patrol
token near it is turned over, before he waits for it (a wait costs a square)."""


def _kill_or_wait(k: Knowledge, level: str, rng: random.Random) -> dict[str, str]:
    """Hell 5: kill now, or wait (not at V) to turn a patrol token over. The easy Jack
    waits now and then; the hard one waits while a token face down near his best
    victims may be a fake, and the squares lost still leave him a road home."""
    if "wait" in k.actions and k.patrols and k.wretched:
        if level == "easy" and rng.random() < 0.2:
            return {"type": "wait"}
        if level == "hard" and k.hideout is not None and _worth_waiting(k):
            return {"type": "wait"}
    return _kill(k, level, rng)


def _victims(k: Knowledge) -> list[int]:
    """Where the wretched stand now (the marked women's circles before any wait)."""
    return sorted(k.wretched or k.women)


def _patrol_weights(k: Knowledge) -> dict[int, float]:
    """Each patrol token's crossing, weighted by the chance that a policeman stands
    there at the alarm: 1 turned over showing a colour, none for a fake (it left the
    board), else the real ones not yet seen shared among those face down."""
    down = [x for x, shows in k.patrols if shows is None]
    seen = sum(1 for _, shows in k.patrols if shows not in (None, FAKE))
    share = (5 - seen) / len(down) if down else 0.0
    return {x: (share if shows is None else 0.0 if shows == FAKE else 1.0)
            for x, shows in k.patrols}


def _victim_score(k: Knowledge, circle: int, weights: Mapping[int, float]) -> float:
    """Lower is better: how far a victim is from a good killing distance, and how near
    the policemen may stand (their tokens' crossings, by weight)."""
    dist = _distances(k.board)[k.hideout]
    pressure = 0.0
    for x, weight in weights.items():
        near = k.board.circles_next_to(x)
        if circle in near:
            pressure += weight
        elif any(circle in k.board.neighbours(n) for n in near):
            pressure += weight / 2
    return abs(dist.get(circle, 99) - KILL_DISTANCE) + pressure


def _worth_waiting(k: Knowledge) -> bool:
    """Whether turning the most telling token over is likely to make his best victim
    better by ``WAIT_WORTH``, with the squares to get home after it."""
    weights = _patrol_weights(k)
    best = min(_victim_score(k, c, weights) for c in _victims(k))
    down = [x for x, shows in k.patrols if shows is None]
    if not down or k.time >= 3:
        return False
    token = _most_telling(k, weights, down)
    fake = {**weights, token: 0.0}
    # If it is a fake his best victim looks better; the chance of that is what is left.
    chance = 1 - weights[token]
    gain = best - min(_victim_score(k, c, fake) for c in _victims(k))
    return chance * gain >= WAIT_WORTH


def _most_telling(k: Knowledge, weights: Mapping[int, float], down: list[int]) -> int:
    """The token face down whose face most changes how good his victims look."""
    victims = _victims(k)

    def change(x: int) -> tuple[float, int]:
        fake = {**weights, x: 0.0}
        return (sum(_victim_score(k, c, weights) - _victim_score(k, c, fake)
                    for c in victims), -x)

    return max(down, key=change)


def _token_to_turn(k: Knowledge, level: str, rng: random.Random) -> int:
    """Hell 7: the patrol token he turns over, face down still."""
    down = sorted(x for x, shows in k.patrols if shows is None)
    if level != "hard" or k.hideout is None:
        return rng.choice(down)
    return _most_telling(k, _patrol_weights(k), down)


def _kill(k: Knowledge, level: str, rng: random.Random) -> dict[str, str]:
    """Hell 5: the kill on the wretched (the two of the double event in the order he
    chooses: he escapes from the second)."""
    count = 2 if k.night == DOUBLE_EVENT else 1
    women = _victims(k)
    if level == "hard" and k.hideout is not None:
        if k.patrols:
            weights = _patrol_weights(k)
            ranked = sorted(women, key=lambda c: (_victim_score(k, c, weights),
                                                  rng.random()))
        else:
            dist = _distances(k.board)[k.hideout]
            pressure = _pressure(k.board, k.board.police_starts | set(k.police_before))
            ranked = sorted(women, key=lambda c: (abs(dist.get(c, 99) - KILL_DISTANCE)
                                                  + pressure.get(c, 0), rng.random()))
        victims = ranked[:count][::-1]
    else:
        victims = rng.sample(women, count)
    action = {"type": "kill", "circle": str(victims[0])}
    if count == 2:
        action["circle2"] = str(victims[1])
    return action


def _false_clue(k: Knowledge, level: str, rng: random.Random) -> int:
    """Optional rule: a False clue where it leads the detectives away from him: near
    the clues already found, far from where he stands and from his hideout."""
    dist = _distances(k.board)
    near = sorted({m for c in k.clues for m in k.board.neighbours(c)}
                  - k.clues - set(k.trail)) or sorted(set(k.board.numbers) - k.clues)
    if level != "hard" or k.location is None:
        return rng.choice(near)
    return _best([(dist[k.location].get(c, 0) + _home(k, c), c) for c in near], rng, 0.5)


# --- Hunting --------------------------------------------------------------------

@dataclass(frozen=True)
class _Option:
    kind: str
    circles: tuple[int, ...]

    @property
    def end(self) -> int:
        return self.circles[-1]

    @property
    def squares(self) -> int:
        return len(self.circles)

    def action(self) -> dict[str, str]:
        if self.kind == "escape":
            return {"type": "escape"}
        action = {"type": self.kind, "circle": str(self.circles[0])}
        if self.kind == "coach":
            action["circle2"] = str(self.circles[1])
        return action


def _options(k: Knowledge) -> list[_Option]:
    """Every legal movement from where he stands (Hunting 1, Special Movements)."""
    here = k.location
    if here is None:
        return []
    found = [_Option("move", (end,)) for end in sorted(k.board.normal_moves(here, k.closed))
             if end != k.hideout]
    if k.hideout in k.board.normal_moves(here, k.closed):
        found.append(_Option("escape", (k.hideout,)))
    if "coach" in k.actions and k.squares_left >= 2:
        found += [_Option("coach", route) for route in sorted(k.board.coach_routes(here))]
    if "alley" in k.actions:
        found += [_Option("alley", (end,)) for end in sorted(k.board.alley_moves(here))]
    return found


def _movement(k: Knowledge, level: str, rng: random.Random) -> dict[str, str]:
    options = _options(k)
    if not options:
        return {"type": "trapped"}
    escape = next((o for o in options if o.kind == "escape"), None)
    if escape is not None and level != "random":
        return escape.action()
    if level == "random":
        return rng.choice(options).action()
    home = [o for o in options if o.kind != "escape"
            and _home(k, o.end) <= k.squares_left - o.squares]
    if level in ("easy", "shortest"):
        return _homeward(k, level, home or options, rng).action()
    return _hard(k, home, options, rng).action()


def _homeward(k: Knowledge, level: str, options: list[_Option],
              rng: random.Random) -> _Option:
    """Shortest road home: the normal move nearest home (the easy Jack wanders off it
    now and then; the shortest-road baseline keeps away from policemen between equals),
    a Coach or an Alley only when no normal move is left."""
    normal = [o for o in options if o.kind == "move"] or options
    if level == "easy" and rng.random() < 0.3:
        return rng.choice(normal)
    threat = _threat(k)
    return _best([(-_home(k, o.end) - 0.1 * threat.get(o.end, 0), o) for o in normal], rng,
                 0.05)


def _spread(k: Knowledge, circles: frozenset[int], kind: str) -> frozenset[int]:
    """Where the detectives must think he may be after a movement of ``kind`` from
    any of ``circles`` (the deduction's next step, without the searches to come)."""
    board = k.board
    if kind == "move":
        return frozenset(m for c in circles for m in board.normal_moves(c, k.closed))
    if kind == "alley":
        return frozenset(m for c in circles for m in board.alley_moves(c))
    return frozenset(route[1] for c in circles for route in board.coach_routes(c))


def _possible(k: Knowledge) -> frozenset[int]:
    """The detectives' deduction map now, from the public facts in his view."""
    try:
        found = possible_positions(k.board, k.facts)
    except FactsError:
        found = set()
    if k.location is not None:
        found.add(k.location)
    return frozenset(found)


def _hard(k: Knowledge, home: list[_Option], options: list[_Option],
          rng: random.Random) -> _Option:
    """Each movement weighed as the detectives will see it: the circles their map keeps
    after it (more is better), how many policemen can reach where he ends and the new
    circles of his trail next turn, the squares to spare on the way home, and the
    tokens spent, which later turns may need more."""
    if not home:
        # No road home in time whatever he does: the movement that gets nearest.
        return min(options, key=lambda o: (_home(k, o.end) - (k.squares_left - o.squares),
                                           o.kind != "move", o.circles))
    possible = _possible(k)
    threat = _threat(k)
    sizes = {kind: len(_spread(k, possible, kind)) for kind in {o.kind for o in home}}
    left_after = k.squares_left
    scored = []
    for option in home:
        end = option.end
        spare = left_after - option.squares - _home(k, end)
        watched = threat.get(end, 0)
        trail_seen = sum(1 for c in option.circles if threat.get(c, 0))
        score = (1.2 * math.log(1 + sizes[option.kind])
                 - 2.5 * watched / max(1.0, math.sqrt(sizes[option.kind]))
                 - 0.6 * trail_seen
                 - 3.0 * max(0, 3 - spare)
                 - 0.1 * spare)
        if option.kind == "coach":
            score -= 1.2 if k.coaches > 1 else 1.8
        elif option.kind == "alley":
            score -= 0.8 if k.alleys > 1 else 1.2
        scored.append((score, option))
    return _best(scored, rng, 0.2)
