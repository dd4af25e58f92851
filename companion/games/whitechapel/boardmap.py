"""The board map of a Letters from Whitechapel page: what ``_map.html`` draws.

Pure: a loaded ``Board`` and the page's view (``whitechapel.view``; never
the state) in, a JSON-serialisable dict out. It only rearranges what the
view already shows that viewer, so the map keeps the view's secret boundary:
Jack's position, trail and hideout appear only on Jack's page (and on every
page in the end-of-game reveal); the detectives' layers come from the view's
``public_facts`` through ``companion.games.whitechapel.deduction``.

Jack taps a circle (a link adding ``?to=N`` to his page, which htmx fetches
and swaps in, so the address never changes); the page then offers every way
to get there as buttons: a normal move, a Coach through one of its first
circles, an Alley, or the escape onto his hideout (issue #4, "Jack with a
board"). Before the first night he taps his hideout, any circle but a red one;
in Hell he taps his victim (on the third night the first victim, ``?first=N``,
then the second). His first screen offers the same circles as buttons
(``targets``): where he may go, behind hold-to-peek; the marked women's red
circles and the victims, which every Jack has alike (issue 36, "Jack at a
pencil's pace").

A phone draws the map zoomed in (``zoom``): at a scale where every circle a
thumb may tap is at least ``TAP_PX`` wide without touching its neighbour's,
inside a box the thumb pans, opening where the page's focus is or, when
that is spread over the board, on the whole board so the player taps the
part to zoom into (issue #13, "A map a thumb can use"). The table screen
shows the whole board.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

from companion.games.base import int_or_none
from companion.games.whitechapel.board import Board
from companion.games.whitechapel.deduction import FactsError, candidate_hideouts, possible_positions
from companion.games.whitechapel.state import ROMAN
from companion.words import Text, _

MARGIN = 40
"""Room around the circles a close-up frames, in board units."""
MIN_SPAN = 320
"""The narrowest close-up, so that a phone's map is never absurdly magnified."""
RADIUS = 13
"""Circle radius in board units (the real board's circles are about 30 apart)."""

TAP_PX = 44
"""The smallest tap target on a phone, in CSS px: a tappable circle's disc."""
FONT = 12
"""Circle numbers' size in board units (also in ``templates/boards/drawing.svg``)."""
READABLE_PX = 14.5
"""Zoomed in, a circle's number is at least this tall (CSS px)."""
SLACK = 1.02
"""Rounding room, so that a disc of exactly ``TAP_PX`` never measures a hair less."""
FIT_PX = 700
"""A focus wider or taller than this when zoomed (CSS px, about two phone screens)
opens on the whole board: the player taps the part that matters."""

DOUBLE_EVENT = 3
"""The third night: two victims, in the order Jack chooses ("The Third Night")."""


@lru_cache(maxsize=8)
def _drawing(board: Board) -> tuple[str, tuple[tuple[int, float, float, bool], ...]]:
    """The roads as one SVG path, and the circles: drawn once per board."""
    at = board.positions
    roads = " ".join(f"M{at[a][0]:g} {at[a][1]:g}L{at[b][0]:g} {at[b][1]:g}"
                     for a, b in sorted(board.roads))
    circles = tuple((c.n, c.x, c.y, c.red) for c in board.circles)
    return roads, circles


def base_layer(board: Board) -> dict[str, Any]:
    """The part of every map that never changes: the roads and the numbered
    circles over the whole board, drawn once (``templates/boards/drawing.svg``)
    and laid under each page's marks at ``box``."""
    roads, circles = _drawing(board)
    return {"board": board.name, "box": _box(board, ()), "roads": roads,
            "radius": RADIUS, "circles": [{"n": n, "x": x, "y": y, "red": red}
                                          for n, x, y, red in circles]}


@lru_cache(maxsize=8)
def spacing(board: Board) -> float:
    """The shortest distance between two circles' centres, in board units."""
    points = list(board.positions.values())
    return min((math.dist(a, b) for i, a in enumerate(points) for b in points[i + 1:]),
               default=2 * RADIUS)


def hit_radius(board: Board) -> float:
    """A tappable circle's tap disc (board units): as wide as it can be without
    overlapping the nearest circle's."""
    return math.floor(spacing(board) * 50) / 100


def zoom(board: Board, focus: Iterable[int], centre: int | None = None) -> dict[str, Any]:
    """How a phone shows ``board``: the whole board (``_box``) drawn ``width`` x
    ``height`` CSS px, in a box the thumb pans, opening centred on ``x``, ``y``.

    The scale gives every circle a tap disc of radius ``hit`` (board units) at
    least ``TAP_PX`` wide that never overlaps another circle's, and numbers at
    least ``READABLE_PX`` tall. It opens on ``centre`` (Jack's circle, say),
    else on the middle of ``focus``; a focus too spread to see at a glance, or
    none, opens on the whole board (``start`` = "overview") and a tap zooms in.
    Used by every phone map: Jack's, the detectives' deduction map, the reveal.
    """
    left, top, width, height = _box(board, ())
    gap = spacing(board)
    scale = max(TAP_PX * SLACK / gap, READABLE_PX / FONT)
    points = [board.positions[n] for n in focus if board.has_circle(n)]
    start = "zoomed"
    if centre is not None and board.has_circle(centre):
        x, y = board.positions[centre]
    elif points:
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        x, y = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
        if max(max(xs) - min(xs), max(ys) - min(ys)) * scale > FIT_PX:
            start = "overview"
    else:
        x, y, start = left + width / 2, top + height / 2, "overview"
    return {"scale": round(scale, 4), "hit": hit_radius(board),
            "width": math.ceil(width * scale), "height": math.ceil(height * scale),
            "x": round((x - left) * scale), "y": round((y - top) * scale), "start": start}


def _frame(board: Board, focus: Iterable[int]) -> str:
    """An SVG viewBox around ``focus`` (the whole board when it is empty)."""
    return " ".join(f"{value:g}" for value in _box(board, focus))


def _box(board: Board, focus: Iterable[int]) -> tuple[float, float, float, float]:
    """(left, top, width, height) around ``focus`` (the whole board when it is empty)."""
    points = [board.positions[n] for n in focus if board.has_circle(n)]
    if not points:
        points = list(board.positions.values())
    left = min(x for x, _ in points) - MARGIN
    right = max(x for x, _ in points) + MARGIN
    top = min(y for _, y in points) - MARGIN
    bottom = max(y for _, y in points) + MARGIN
    width, height = right - left, bottom - top
    if width < MIN_SPAN:
        left -= (MIN_SPAN - width) / 2
        width = MIN_SPAN
    if height < MIN_SPAN:
        top -= (MIN_SPAN - height) / 2
        height = MIN_SPAN
    return left, top, width, height


def _picked(value: Any) -> int | None:
    return int_or_none(value, 0, 999_999)


def _segment(board: Board, a: int, b: int, **extra: Any) -> dict[str, Any]:
    (x1, y1), (x2, y2) = board.positions[a], board.positions[b]
    return {"x1": x1, "y1": y1, "x2": x2, "y2": y2, **extra}


def _trail(board: Board, night: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The segments of one night's row: from the (last) crime scene, move by move."""
    crimes = night.get("crimes") or []
    if not crimes:
        return []
    segments = []
    here = crimes[-1]
    for move in night.get("moves", []):
        for circle in move["circles"]:
            if board.has_circle(here) and board.has_circle(circle):
                segments.append(_segment(board, here, circle, kind=move["kind"],
                                         night=night.get("night")))
            here = circle
    return segments


def _victims(board: Board, view: Mapping[str, Any]) -> set[int]:
    """Where Jack may kill now: a wretched's circle, never a crime scene (Hell 5).

    At time I the wretched still stand where the marked women were; once the
    Head of the Investigation has moved them, only the table knows where.
    """
    scenes = {c for night in view.get("crime_scenes", []) for c in night["circles"]}
    women = view.get("wretched_at_start") or []
    if women and view.get("time") in ROMAN:
        # Each wait moved each wretched one road at most (Hell 6; docs/RULINGS.md
        # #letters-from-whitechapel, "The victim after waiting"): after k waits a
        # victim stands within k roads of a marked woman's circle.
        found = set(board.circles_within(women, ROMAN.index(view["time"])))
    else:
        found = set(board.numbers)
    return {n for n in found if board.is_legal_crime_scene(n, scenes)}


def _women_circles(board: Board, view: Mapping[str, Any]) -> set[int]:
    """Where a marked woman may go: a red circle that is no crime scene."""
    scenes = {c for night in view.get("crime_scenes", []) for c in night["circles"]}
    return set(board.red) - scenes


def _jack_choices(board: Board, view: Mapping[str, Any],
                  first: int | None) -> dict[int, list[dict[str, Any]]]:
    """Jack's choices on the map now: circle -> the actions that reach it, or the link
    a tap follows.

    ``first`` is the double event's first victim, once tapped. The marked women are
    ticked on his first screen (``_targets``), not on the map.
    """
    actions = view.get("actions", [])
    jack = view.get("jack") or {}
    choices: dict[int, list[dict[str, Any]]] = {}

    def offer(circle: int, kind: str, fields: dict[str, int], label: Text,
              question: Text | None = None) -> None:
        # ``question``: the second tap's words (the confirm pattern), for a way that asks.
        choices.setdefault(circle, []).append(
            {"type": kind, "fields": fields, "label": label, "confirm": question is not None,
             "question": question})

    if "kill" in actions:
        victims = _victims(board, view)
        if view.get("night") != DOUBLE_EVENT:
            for n in sorted(victims):
                offer(n, "kill", {"circle": n}, _("Kill on %(n)s", n=n),
                      _("Kill on %(n)s?", n=n))
        elif first in victims:
            for n in sorted(victims - {first}):
                offer(n, "kill", {"circle": first, "circle2": n},
                      _("Kill on %(first)s, then on %(n)s: you start from %(n)s",
                        first=first, n=n),
                      _("Kill on %(first)s, then on %(n)s: you start from %(n)s?",
                        first=first, n=n))
        else:
            for n in sorted(victims):
                choices[n] = [{"href": f"?first={n}", "label": _("First victim on %(n)s", n=n)}]
        return choices
    if "hideout" in actions:
        for n in board.numbers:
            if board.is_legal_hideout(n):
                offer(n, "hideout", {"circle": n}, _("My hideout is %(n)s", n=n))
        return choices
    here = jack.get("location")
    if here is None or not board.has_circle(here):
        return choices
    closed = _closed(board, view)
    if "move" in actions:
        for n in sorted(board.normal_moves(here, closed)):
            offer(n, "move", {"circle": n}, _("Move to %(n)s", n=n))
    if "escape" in actions and jack.get("hideout") in board.normal_moves(here, closed):
        hideout = jack["hideout"]
        offer(hideout, "escape", {"circle": hideout},
              _("Escape: move to my hideout %(n)s", n=hideout),
              _("Escape: move to my hideout %(n)s?", n=hideout))
    if "coach" in actions:
        for first, second in sorted(board.coach_routes(here)):
            offer(second, "coach", {"circle": first, "circle2": second},
                  _("Coach via %(first)s to %(second)s", first=first, second=second))
    if "alley" in actions:
        for n in sorted(board.alley_moves(here)):
            offer(n, "alley", {"circle": n}, _("Alley to %(n)s", n=n))
    return choices


def _closed(board: Board, view: Mapping[str, Any]) -> list[tuple[int, int]]:
    """The roads the detectives marked closed by a policeman for Jack's coming move."""
    return [(a, b) for a, b in view.get("closed_roads", [])
            if board.has_circle(a) and board.has_circle(b)]


def _prompt(view: Mapping[str, Any], choices: Mapping[int, Any],
            first: int | None) -> Text | str:
    """What Jack's taps on the map do now."""
    if not choices:
        return ""
    actions = view.get("actions", [])
    if "kill" in actions:
        if first is not None:
            return _("First victim on %(first)s. Tap the circle of the second victim: "
                     "you start your escape from there.", first=first)
        if view.get("night") == DOUBLE_EVENT:
            return _("Tap the circle of your first victim.")
        return _("Tap the circle of your victim.")
    if "hideout" in actions:
        return _("Tap the circle of your hideout: any circle but a red one.")
    return _("Tap the circle to go to. A road through a crossing held by a policeman is "
             "closed to a normal move; a Coach passes policemen.")


def _deduction(board: Board, view: Mapping[str, Any]) -> dict[str, Any] | None:
    """The detectives' layers, when the table switched the deduction map on."""
    options = view.get("options") or {}
    facts = view.get("public_facts")
    if not options.get("deduction_map") or not facts or view.get("role") == "jack":
        return None
    return dict(_layers(board, json.dumps(facts, sort_keys=True)))


@lru_cache(maxsize=32)
def _layers(board: Board, facts_json: str) -> tuple[tuple[str, Any], ...]:
    """The deduction for one set of public facts: every detective's phone and the
    table screen redraw after each action, and all ask the same question."""
    facts = json.loads(facts_json)
    try:
        possible = possible_positions(board, facts)
        hideouts = candidate_hideouts(board, facts) if facts.get("escapes") else None
    except FactsError as error:
        return (("possible", []), ("hideouts", None), ("problem", str(error)))
    return (("possible", sorted(possible)),
            ("hideouts", sorted(hideouts) if hideouts is not None else None),
            ("problem", None))


Marks = dict[int, set[str]]
"""Each circle's classes in the drawing (``crime``, ``clue``, ``path``, ``dest``...)."""


def _mark(marks: Marks, found: Iterable[int], name: str) -> None:
    for n in found:
        if n in marks:
            marks[n].add(name)


def map_context(board: Board, view: Mapping[str, Any],
                pick: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Everything ``templates/games/whitechapel/_map.html`` draws for this view.

    ``pick`` is the page's query (``request.args``): ``to`` is the circle Jack
    tapped, whose ways to get there are offered as buttons. Each step below marks
    circles and adds the ones the phone's map opens on (``focus``).
    """
    roads, circles = _drawing(board)
    marks = _public_marks(board, view)
    focus: set[int] = set()
    trail = _jacks_trail(board, view, marks, focus)
    turn = _jacks_turn(board, view, pick or {}, marks, focus)
    layers = _deduction_layers(board, view, marks, focus)
    return {
        "board": board.name,
        **_framing(board, view, focus),
        "hit": hit_radius(board),
        "radius": RADIUS,
        "roads": roads,
        "box": dict(zip(("x", "y", "width", "height"), _box(board, ()), strict=True)),
        "circles": [{"n": n, "x": x, "y": y, "red": red,
                     "marks": " ".join(sorted(marks[n])), "tappable": n in turn["choices"]}
                    for n, x, y, red in circles],
        "trail": trail,
        "exits": turn["exits"],
        "closed": [_segment(board, a, b) for a, b in _closed(board, view)],
        "prompt": turn["prompt"],
        "picked": turn["picked"],
        "query": f"first={turn['first']}&" if turn["first"] is not None else "",
        "ways": turn["choices"].get(turn["picked"], []) if turn["picked"] is not None else [],
        "targets": turn["targets"],
        "layers": layers,
        "cops": _cops(board, view),
    }


PAWN_LETTERS = {"blue": "B", "yellow": "Y", "brown": "Br", "red": "R", "green": "G"}
"""Each policeman's pawn is lettered as well as coloured: told apart without colours."""


def _cops(board: Board, view: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The policemen on their crossings (police on the map: public, like the pawns)."""
    at = (view.get("cops") or {}).get("at") or {}
    spots = board.crossing_positions
    return [{"colour": colour, "crossing": x, "x": spots[x][0], "y": spots[x][1],
             "letter": PAWN_LETTERS.get(colour, colour[:1].upper())}
            for colour, x in at.items() if x is not None and x in spots]


def _public_marks(board: Board, view: Mapping[str, Any]) -> Marks:
    """What every page marks: the crime scenes, the clues, the circles searched in vain,
    and the wretched while they stand where the women were turned up (time I, before
    the crime: once moved, only the board knows where they are)."""
    number = view.get("night")
    marks: Marks = {n: set() for n in board.numbers}
    if view.get("time") == ROMAN[0] and not any(
            scenes["night"] == number for scenes in view.get("crime_scenes", [])):
        _mark(marks, view.get("wretched_at_start") or [], "wretched")
    for scenes in view.get("crime_scenes", []):
        _mark(marks, scenes["circles"], "crime" if scenes["night"] == number else "old-crime")
    _mark(marks, view.get("clues", []), "clue")
    facts = view.get("public_facts") or {}
    _mark(marks, (e["circle"] for e in facts.get("searched_empty", [])), "searched")
    return marks


def _jacks_trail(board: Board, view: Mapping[str, Any], marks: Marks,
                 focus: set[int]) -> list[dict[str, Any]]:
    """Jack's paths: tonight's on his own page, every night's in the reveal (which
    opens on them), a night's up to a step in its replay after the end (``replay``,
    companion/games/whitechapel/replay.py), with his hideout and the circle he stands on."""
    number = view.get("night")
    reveal = view.get("reveal")
    trail: list[dict[str, Any]] = []
    replayed = view.get("replay")
    sheet = reveal or replayed or (view.get("sheet") if view.get("role") == "jack" else None)
    if sheet:
        shown = sheet["nights"] if reveal or replayed else [
            n for n in sheet["nights"] if n["night"] == number]
        for night in shown:
            trail += _trail(board, night)
            # Drawn over the path's lines, so its numbers stay readable.
            _mark(marks, (c for move in night.get("moves", []) for c in move["circles"]),
                  "path")
            _mark(marks, night.get("crimes", []),
                  "crime" if night["night"] == number else "old-crime")
            if reveal:
                focus |= set(night.get("crimes", []))
                focus |= {c for move in night.get("moves", []) for c in move["circles"]}
        if sheet.get("hideout") is not None:
            _mark(marks, [sheet["hideout"]], "hideout")
            if reveal:
                focus.add(sheet["hideout"])
    jack = view.get("jack") or {}
    if view.get("role") == "jack" and jack.get("location") is not None:
        _mark(marks, [jack["location"]], "jack")
        focus.add(jack["location"])
    return trail


def _jacks_turn(board: Board, view: Mapping[str, Any], pick: Mapping[str, Any],
                marks: Marks, focus: set[int]) -> dict[str, Any]:
    """Jack's choices on his page: the circles he may tap (``choices``, each with its
    ways), the first victim and the circle he picked, the map's prompt, the roads
    out of his circle (``exits``) for a normal move or the escape, and the same
    circles as his first screen's buttons (``targets``)."""
    jack = view.get("jack") or {}
    first = _picked(pick.get("first"))
    mine = view.get("role") == "jack" and not view.get("reveal")
    choices = _jack_choices(board, view, first) if mine else {}
    if not any("circle2" in way.get("fields", {}) and way["type"] == "kill"
               for ways in choices.values() for way in ways):
        first = None
    _mark(marks, choices, "dest")
    prompt = _prompt(view, choices, first)
    picked = _picked(pick.get("to"))
    if picked not in choices:
        picked = None
    _mark(marks, [n for n in (first, picked) if n is not None], "picked")
    exits = []
    if choices and jack.get("location") is not None:
        focus |= set(choices)
        here = jack["location"]
        exits = [_segment(board, here, n) for n in sorted(choices)
                 if any(way["type"] in ("move", "escape") for way in choices[n])]
    return {"choices": choices, "first": first, "picked": picked, "prompt": prompt,
            "exits": exits, "targets": _targets(board, view, choices) if mine else None}


TARGET_GROUPS = {"move": _("Move"), "coach": _("Coach"), "alley": _("Alley")}
"""Jack's destinations on his first screen, by way of getting there (a circle reached
both on foot and through an alley is in both rows)."""


def _targets(board: Board, view: Mapping[str, Any],
             choices: Mapping[int, list[dict[str, Any]]]) -> dict[str, Any] | None:
    """Jack's choices as buttons for his first screen (issue 36, "Jack at a pencil's
    pace"): where he may go, by way (secret: the page draws them behind hold-to-peek,
    a tap on one, ``?to=N``, offers its ways); or what every Jack has alike, drawn in
    the open: the red circles where the marked women may go (ticked, then sent), the
    circles where a wretched can be (one tap, then tap again: the kill). The hideout,
    anywhere on the board, is tapped on the map."""
    actions = view.get("actions", [])
    if "women" in actions:
        return {"kind": "women", "circles": sorted(_women_circles(board, view)),
                "needed": (view.get("jack") or {}).get("marked_count", 0)}
    if "kill" in actions:
        return {"kind": "kill", "circles": sorted(_victims(board, view)),
                "double": view.get("night") == DOUBLE_EVENT}
    if "move" not in actions or not choices:
        return None
    rows = [{"way": way, "label": label,
             "circles": sorted(n for n, ways in choices.items()
                               if any(w.get("type") == way for w in ways))}
            for way, label in TARGET_GROUPS.items()]
    return {"kind": "move", "rows": [row for row in rows if row["circles"]]}


def _deduction_layers(board: Board, view: Mapping[str, Any], marks: Marks,
                      focus: set[int]) -> dict[str, Any] | None:
    """The detectives' deduction (never in the reveal), marked; a detective's map
    opens on where Jack may be, or else on his possible hideouts."""
    layers = None if view.get("reveal") else _deduction(board, view)
    if layers:
        _mark(marks, layers["possible"], "possible")
        _mark(marks, layers["hideouts"] or [], "candidate")
        if view.get("role") == "detective":
            focus |= set(layers["possible"]) or set(layers["hideouts"] or ())
    return layers


def _framing(board: Board, view: Mapping[str, Any], focus: set[int]) -> dict[str, Any]:
    """A phone pans the whole board, zoomed in on ``focus`` (Jack's own circle at the
    centre while he plays); the table screen shows the whole board, except the reveal:
    Jack's paths."""
    phone = view.get("role") != "table"
    reveal = view.get("reveal")
    jack = view.get("jack") or {}
    here = jack.get("location") if view.get("role") == "jack" and not reveal else None
    if view.get("role") == "jack" and "hideout" in view.get("actions", []):
        # Anywhere but a red circle: zoomed in on the middle of the board, where a
        # thumb pans to his part of town and taps, rather than on the whole board.
        here = _middle(board)
    return {"viewbox": _frame(board, focus if not phone and reveal else ()),
            "zoom": zoom(board, focus, here) if phone else None}


def _middle(board: Board) -> int:
    """The circle nearest the middle of the board."""
    left, top, width, height = _box(board, ())
    middle = (left + width / 2, top + height / 2)
    return min(board.numbers, key=lambda n: math.dist(board.positions[n], middle))


HEAT_GROWTH = 1.2
"""A circle of the history's heat map grows up to (1 + this) times a circle's radius."""


def heat_layer(board: Board, counts: Mapping[int, int]) -> list[dict[str, Any]]:
    """The history's heat map of ``counts`` (how often each circle was a hideout, or a
    crime scene, in the finished games): a disc per counted circle at its place on the
    board, larger and more opaque the more often, drawn over the board's drawing
    (``templates/boards/drawing.svg``). Circles not on ``board`` are left out."""
    most = max(counts.values(), default=0)
    at = board.positions
    return [{"n": circle, "count": count, "x": at[circle][0], "y": at[circle][1],
             "r": round(RADIUS * (1 + HEAT_GROWTH * math.sqrt(count / most)), 1),
             "opacity": round(0.35 + 0.6 * count / most, 2)}
            for circle, count in sorted(counts.items()) if circle in at]
