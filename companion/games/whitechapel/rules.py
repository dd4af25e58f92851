"""Letters from Whitechapel: Jack's move sheet, clue searches and arrests.

Rulebook: "Letters from Whitechapel" (revised edition), its sections as named;
decisions where it is silent: docs/RULINGS.md#letters-from-whitechapel. Pawns, patrol tokens,
women and wretched stay on the real board (docs/RULINGS.md#general, "What the companion
keeps"). The companion keeps
what the paper sheet does: Jack's hideout and his row of 15 squares for each
of the four nights, and answers the detectives' searches and arrests from it.

Seats: seat 0 is Jack the Ripper; seats 1..5 are the detectives, who share
out the five policemen ("Setup", 3).

A night follows the rulebook's phases (``PHASES``)::

    hideout (before night 1 only; "Setup", 6)
    women     Hell 1-2   Jack takes his Coach/Alley tokens, places the women
                         and enters which circles hold the marked ones
    patrols   Hell 3     the Head of the Investigation places the patrols
    letter    optional   from night 2, Jack may send one of Jack's letters
    blood     Hell 4-5   the women are turned up (the marked circles become
                         public), Jack kills or waits (at V he must kill)
    suspense  Hell 6-7   after a wait: the time moves on, the Head moves the
                         wretched; Jack then turns over one patrol token
    alarm     Hell 9     with police on the map only: the detectives put each
                         policeman on his crossing
    jack      Hunting 1  Jack moves: move, Coach, Alley, or escape
    police    Hunting 2-3 the policemen move, then each looks for clues or
                         makes an arrest (night 3 starts here)
    over      the whole sheet is revealed to everyone

Hell 8-9 ("A corpse on the sidewalk", "Alarm whistles") need no input: the
kill writes the sheet, and the first hunting prompt tells the police to turn
over their patrols.

Form fields (every value a string): ``circle``, ``circle2`` (a Coach's second
circle, the double event's second crime), ``circles`` (the marked women,
separated by spaces or commas; or ``woman1``..``womanN``), ``policeman`` (a
colour), ``crossing`` (police on the map), ``letter``.

Escape is declared with the normal move that enters the hideout (action
``escape``: one tap, the circle defaults to the hideout), so Jack never has
to pause on his hideout while the table watches (docs/RULINGS.md#letters-from-whitechapel,
"Escape": never right after a special movement).

Board mode (docs/RULINGS.md#letters-from-whitechapel, "Board mode"): when the
table names a loaded board, the web layer adds its graph to the options
(``options["board_graph"]``, ``companion.games.whitechapel.board.Board.graph``) and ``setup``
keeps it in ``state["board"]``, so a table is self-contained: a restart, an
export or an import needs no board file. With it, ``check_move`` refuses
moves the board forbids (``Board.move_problem``), the hideout may not be red,
the women go on red circles, every circle must exist on the board, and Jack
himself declares "no legal move" ("trapped") when policemen block every road
and no Coach or Alley is left. The policemen stay on the real board: a road
they close is Jack's to respect, unless the detectives mark it ("block",
"unblock": the two circles of the road), which the normal move then checks
too. Without a board, circles are 1-195 and the detectives declare "no legal
move" for Jack to confirm (docs/RULINGS.md#letters-from-whitechapel, "No legal move").

Police on the map (table option ``police_map``, a board with crossings;
docs/RULINGS.md#letters-from-whitechapel, "Police on the map"): ``state["cops"]``
holds each policeman's crossing (``at``), where each stood when the police's
turn began (``from``: a move is 0-2 crossings from there) and where they stood
at the end of the last night (``before``: where patrol tokens may stand). The
detectives enter them ("place" at the alarm, "move_policeman" in the police's
move); a search or an arrest is only next to the policeman's crossing; the
closed roads follow from the policed crossings instead of hand marks, and the
crossings at each of Jack's movements (``night["police"]``) are public facts.
After k waits a victim stands within k roads of a marked woman (Hell 6), which
board mode checks.

``public_facts`` (in every view, for the board's deduction; public only)::

    {"night": int,
     "crime_scenes": [circles of this night's crimes; on night 3 both,
                      sorted ascending: the order Jack wrote them is secret],
     "moves": ["move" | "coach" | "alley", ... one per movement since the
               crime, a Coach is one entry; night 3's second crime is not one],
     "clues": [{"circle": c, "after_move": k, "search": bool}, ...],
     "searched_empty": [{"circle": c, "after_move": k}, ...],
     "failed_arrests": [{"circle": c, "after_move": k}, ...],
     "false_clues": bool (the False clues option is on),
     "blocked": [[a, b, k], ...] roads the detectives marked as closed by a
                 policeman for Jack's k-th movement (board mode),
     "police": [[crossings], ...] with police on the map, the crossings the
                 policemen stood on during each of Jack's movements,
     "escapes": [nights on which Jack escaped],
     "prior_nights": [{"crime_scenes", "moves", "clues", "searched_empty",
                       "failed_arrests", "false_clues", "blocked"} for each
                      finished night]}

``after_move`` is how many movements Jack had made that night when the
question was asked. A clue marker shows on the table exactly like any other;
``"search": true`` says a detective's search found it, which the public log
of searches shows anyway, and lets the deduction ignore Jack's false clues.
(``failed_arrests`` entries are dated objects rather than bare circles so the
deduction can use them: ``companion/games/whitechapel/deduction.py`` reads both.)
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.base import (
    TABLE,
    RuleError,
    State,
    Viewer,
    check_call,
    check_seat,
    check_shape,
    evolve,
    parse_bool,
    parse_choice,
    parse_int,
    parse_names,
    require,
    require_type,
    seat_order,
    shuffled,
)
from companion.games.whitechapel.board import (
    CROSSING_GRAPH_KEYS,
    GRAPH_KEYS,
    Board,
    BoardError,
    board_from_graph,
)

NAME = "whitechapel"
TITLE = "Letters from Whitechapel"
MIN_PLAYERS = 2
MAX_PLAYERS = 6
DEFAULT_PLAYERS = 4
JACK = 0
FIXED_SEATS: frozenset[int] = frozenset({JACK})

FIRST_CIRCLE, LAST_CIRCLE = 1, 195
"""Setup, 1: "195 numbered circles"."""

LAST_SQUARE = 15
"""Hunting 1: filling square 15 without escaping loses the game."""

ROMAN = ("I", "II", "III", "IV", "V")
"""Squares 1-5 of a row are the times of the crime (docs/RULINGS.md#letters-from-whitechapel,
"Jack's sheet")."""

POLICEMEN = ("blue", "yellow", "brown", "red", "green")
"""Components: "1 each of blue, yellow, brown, red, and green"."""

NIGHTS: dict[int, dict[str, Any]] = {
    1: {"date": "August 31st, 1888", "coaches": 3, "alleys": 2, "women": 8, "marked": 5},
    2: {"date": "September 8th, 1888", "coaches": 2, "alleys": 2, "women": 7, "marked": 4},
    3: {"date": "September 30th, 1888", "coaches": 2, "alleys": 1, "women": 6, "marked": 3},
    4: {"date": "November 9th, 1888", "coaches": 1, "alleys": 1, "women": 4, "marked": 1},
}
"""Hell 1-2: special movement tokens and woman tokens per night."""

DOUBLE_EVENT = 3
"""The Third Night: two murders, the detectives act first."""

ORDINALS = {1: "the first", 2: "the second", 3: "the third", 4: "the fourth"}

LETTER_SHEETS = 4
DEFAULT_LETTERS = tuple(f"Jack's letter {n}" for n in range(1, LETTER_SHEETS + 1))
"""Components: "4 Jack's Letter sheets"; the text is on the sheet (docs/RULINGS.md#general,
"Card texts")."""

FIRST_LETTER_NIGHT = 2
CLUES_PER_FALSE_CLUE = 5
"""Optional rule: a False clue for every five clue markers revealed in a night."""

PHASES: dict[str, str] = {
    "hideout": "Setup: Jack's hideout",
    "women": "Hell: the targets are identified",
    "patrols": "Hell: patrolling the streets",
    "letter": "Hell: Jack's letter",
    "blood": "Hell: blood on the streets",
    "suspense": "Hell: suspense grows",
    "alarm": "Hell: alarm whistles",
    "jack": "Hunting: escape in the night",
    "police": "Hunting: the police hunt the monster",
    "over": "The end of the game",
}

MOVEMENTS = ("move", "coach", "alley")
SPECIAL_NAMES = {"coach": "a Coach", "alley": "an Alley"}
TOKEN_KEYS = {"coach": "coaches", "alley": "alleys"}
POLICE_ACTIONS = ("search", "arrest", "done", "end_turn")


# --- setup -------------------------------------------------------------

def even_deal(count: int) -> dict[str, int]:
    """The policemen dealt round the detectives in seat order (Setup, 3)."""
    detectives = max(count - 1, 1)
    return {colour: 1 + index % detectives for index, colour in enumerate(POLICEMEN)}


def _valid_deal(deal: Any, count: int) -> bool:
    if not isinstance(deal, Mapping) or set(deal) != set(POLICEMEN):
        return False
    seats = set(deal.values())
    return all(isinstance(s, int) and 1 <= s < count for s in seats) and \
        seats == set(range(1, count))


def seat_labels(count: int, options: Mapping[str, Any]) -> list[str]:
    """Jack, then each detective with the policemen he controls."""
    deal = _deal_for(options, count)
    labels = ["Jack the Ripper"]
    for seat in range(1, count):
        colours = ", ".join(c for c in POLICEMEN if deal[c] == seat)
        labels.append(f"Detective {seat} ({colours})")
    return labels


def _deal_for(options: Mapping[str, Any], count: int) -> dict[str, int]:
    """The explicit deal if it fits this many seats, else the even one."""
    deal = options.get("policemen")
    return dict(deal) if _valid_deal(deal, count) else even_deal(count)


def default_options() -> dict[str, Any]:
    """Optional rules off, policemen dealt evenly, the letters' default names."""
    return {"false_clues": False, "letters": False, "deduction_map": False,
            "police_map": False, "policemen": {},
            "letter_names": list(DEFAULT_LETTERS)}


def parse_options(form: Mapping[str, str], count: int) -> dict[str, Any]:
    """The setup form: ``false_clues``, ``letters`` (checkboxes),
    ``policeman_<colour>`` (the detective seat 1..count-1 controlling it; all
    blank deals them evenly), ``letter_names`` (four lines, optional),
    ``deduction_map`` (checkbox: with a board, the detectives' pages show where
    Jack can be, ``companion/games/whitechapel/boardmap.py``), ``police_map``
    (checkbox: with a board that has crossings, the detectives enter where each
    policeman stands) and ``board`` (a loaded board's name, optional)."""
    require(MIN_PLAYERS <= count <= MAX_PLAYERS,
            f"Letters from Whitechapel is for {MIN_PLAYERS} to {MAX_PLAYERS} players.")
    given = {c: str(form.get(f"policeman_{c}", "") or "").strip() for c in POLICEMEN}
    if not any(given.values()):
        deal = {}  # dealt evenly at setup, for however many seats remain by then
    else:
        missing = [c for c in POLICEMEN if not given[c]]
        require(not missing, "Please give every policeman to a detective "
                f"(missing: {', '.join(missing)}), or leave all blank to deal them evenly.")
        deal = {c: parse_int(given[c], 1, count - 1, f"detective of the {c} policeman")
                for c in POLICEMEN}
        for seat in range(1, count):
            require(seat in deal.values(), f"Detective {seat} has no policeman: "
                    "every detective needs at least one.")
    letter_text = str(form.get("letter_names", "") or "")
    letters = (parse_names(letter_text, LETTER_SHEETS, "letter names")
               if letter_text.strip() else list(DEFAULT_LETTERS))
    options: dict[str, Any] = {
        "false_clues": parse_bool(form.get("false_clues")),
        "letters": parse_bool(form.get("letters")),
        "deduction_map": parse_bool(form.get("deduction_map")),
        "police_map": parse_bool(form.get("police_map")),
        "policemen": deal,
        "letter_names": letters,
    }
    board = str(form.get("board", "") or "").strip()
    if board:
        require(len(board) <= 60, "The board name must be at most 60 characters long.")
        options["board"] = board
    require(board or not options["police_map"], "Police on the map needs a board: "
            "choose one under Board, or untick Police on the map.")
    require(board or not options["deduction_map"], "The deduction map needs a board: "
            "choose one under Board, or untick Deduction map.")
    return options


def form_from(options: Mapping[str, Any]) -> dict[str, str]:
    """The setup form that ``parse_options`` reads back into ``options``."""
    form = {f"policeman_{c}": str(s) for c, s in dict(options.get("policemen") or {}).items()}
    for flag in ("false_clues", "letters", "deduction_map", "police_map"):
        if options.get(flag):
            form[flag] = "on"
    form["letter_names"] = "\n".join(options.get("letter_names") or DEFAULT_LETTERS)
    if options.get("board"):
        form["board"] = str(options["board"])
    return form


def setup(options: Mapping[str, Any], players: Sequence[str], rng: random.Random) -> State:
    """A fresh sheet; the Head of the Investigation tiles shuffled (Setup, 9)."""
    count = len(players)
    board = _board_graph(options)
    if options.get("police_map"):
        require(board is not None and board_from_graph(board).has_crossings,
                "Police on the map needs a board with its police crossings: choose the "
                "board shipped with the companion, or untick Police on the map.")
    letters = options.get("letter_names")
    if not (isinstance(letters, list) and len(letters) == LETTER_SHEETS
            and all(isinstance(n, str) and n for n in letters)):
        letters = list(DEFAULT_LETTERS)
    return {
        "players": [str(p) for p in players],
        "options": {"false_clues": bool(options.get("false_clues")),
                    "letters": bool(options.get("letters")),
                    "deduction_map": bool(options.get("deduction_map")),
                    "letter_names": list(letters)},
        "board": board,
        "cops": _new_cops() if options.get("police_map") else None,
        "policemen": _deal_for(options, count),
        "head_tiles": shuffled(POLICEMEN, rng),
        "hideout": None,
        "night": 1,
        "phase": "hideout",
        "nights": [_new_night(n) for n in NIGHTS],
        "police": _new_police_turn(),
        "trapped_claim": False,
        "outcome": None,
    }


def _board_graph(options: Mapping[str, Any]) -> dict[str, str] | None:
    """The loaded board's graph the web layer attached to the options, checked."""
    graph = options.get("board_graph")
    if not graph:
        return None
    try:
        board_from_graph(graph)
    except BoardError as error:
        raise RuleError(f"The board's data is damaged ({error}): create the table "
                        "again, or choose no board.") from None
    return {key: graph[key] for key in (*GRAPH_KEYS, *CROSSING_GRAPH_KEYS) if key in graph}


def _new_night(number: int) -> dict[str, Any]:
    return {
        "number": number,
        "women": [],          # circles of the marked women, secret until Hell 4
        "revealed": False,    # Hell 4 has happened: the marked women are public
        "letter": None,
        "time": 1,            # the time of the crime token, 1..5 = I..V
        "crimes": [],         # in the order Jack wrote them
        "moves": [],          # {"kind": move|coach|alley, "circles": [...]}
        "clues": [],          # {"circle", "after_move", "false"}
        "log": [],            # searches and arrests, public
        "escaped": False,
        "blocked": [],        # {"road": [a, b], "move": k}: closed for movement k, public
    }


def _new_cops() -> dict[str, Any]:
    """Police on the map: the crossing of each policeman (None until the alarm
    whistles), where each stood when the police turn began (his move is counted
    from there), and where they stood at the end of the last night."""
    return {"at": {c: None for c in POLICEMEN}, "from": {c: None for c in POLICEMEN},
            "before": []}


def _new_police_turn() -> dict[str, Any]:
    return {"done": [], "searching": None, "searched": []}


# --- reading the state ---------------------------------------------------

def _night(state: State) -> dict[str, Any]:
    return state["nights"][state["night"] - 1]


def _path(night: Mapping[str, Any]) -> list[int]:
    """Every circle written in the night's row, in order."""
    return list(night["crimes"]) + [c for m in night["moves"] for c in m["circles"]]


def _filled(night: Mapping[str, Any]) -> int:
    """How many squares of the row are used (the Jack pawn's square)."""
    if not night["crimes"]:
        return 0
    return night["time"] - 1 + len(_path(night))


def _row(night: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The night's 15 squares as on the paper sheet."""
    squares: list[dict[str, Any]] = [
        {"square": n, "label": ROMAN[n - 1] if n <= len(ROMAN) else str(n),
         "circle": None, "kind": None}
        for n in range(1, LAST_SQUARE + 1)]
    if night["crimes"]:
        entries = [("crime", c) for c in night["crimes"]] + [
            (m["kind"], c) for m in night["moves"] for c in m["circles"]]
        for offset, (kind, circle) in enumerate(entries):
            squares[night["time"] - 1 + offset].update(circle=circle, kind=kind)
    return squares


def _location(night: Mapping[str, Any]) -> int | None:
    path = _path(night)
    return path[-1] if path else None


def _crime_scenes(state: State) -> list[int]:
    return [c for night in state["nights"] for c in night["crimes"]]


def _head_colour(state: State) -> str | None:
    """The Head of the Investigation, once this night's tile is turned (Hell 3)."""
    if state["phase"] in ("hideout", "women"):
        return None
    return state["head_tiles"][state["night"] - 1]


def _controls(state: State, actor: Viewer, colour: str) -> bool:
    return actor == TABLE or state["policemen"][colour] == actor


def _police_order(state: State) -> list[str]:
    """From the Head of the Investigation clockwise (Hunting 2)."""
    head = state["head_tiles"][state["night"] - 1]
    order = seat_order(len(state["players"]), state["policemen"][head])
    own = [head] + [c for c in POLICEMEN if c != head]
    return [c for seat in order for c in own if state["policemen"][c] == seat]


def _false_clues_left(state: State) -> int:
    """Earned (one per five real clues tonight) minus placed; 0 without the option."""
    if not state["options"]["false_clues"]:
        return 0
    clues = _night(state)["clues"]
    real = sum(1 for clue in clues if not clue["false"])
    placed = sum(1 for clue in clues if clue["false"])
    return real // CLUES_PER_FALSE_CLUE - placed


def _letters_left(state: State) -> list[str]:
    used = {n["letter"] for n in state["nights"] if n["letter"]}
    return [name for name in state["options"]["letter_names"] if name not in used]


def is_over(state: State) -> bool:
    """Whether the game has ended (End of the Game)."""
    return state["phase"] == "over"


# --- the board hook --------------------------------------------------------

def check_circle(value: Any, what: str = "circle") -> int:
    """A circle number from a form field (docs/RULINGS.md#letters-from-whitechapel, "Circles and
    hideout": circles are 1-195)."""
    return parse_int(value, FIRST_CIRCLE, LAST_CIRCLE, what)


def board_of(state: State) -> Board | None:
    """The table's board (board mode), or None: numbers only."""
    graph = state.get("board")
    return board_from_graph(graph) if isinstance(graph, Mapping) else None


def _board_circle(state: State, value: Any, what: str) -> int:
    """A circle number that, in board mode, is also a circle of the board."""
    circle = check_circle(value, what)
    board = board_of(state)
    require(board is None or board.has_circle(circle),
            f"There is no circle {circle} on the board{_board_name(board)}.")
    return circle


def _board_label(state: State) -> str | None:
    graph = state.get("board")
    return str(graph["board"]) if isinstance(graph, Mapping) else None


def _board_name(board: Board | None) -> str:
    return f" ({board.name})" if board is not None else ""


def check_move(state: State, kind: str, circles: Sequence[int]) -> None:
    """Refuse a movement the rules forbid (Hunting 1, Special Movements).

    Without a board only the numbers and the rulebook's own constraints are
    known; adjacency, police-blocked crossings and alley blocks are checked
    here once a board is loaded (``state["board"]``).
    """
    night = _night(state)
    start = _location(night)
    require(kind in MOVEMENTS, "That is not a movement.")
    require(len(circles) == (2 if kind == "coach" else 1),
            "A Coach is two circles." if kind == "coach" else "A move is one circle.")
    require(all(isinstance(c, int) and FIRST_CIRCLE <= c <= LAST_CIRCLE for c in circles),
            f"Circles are numbered {FIRST_CIRCLE} to {LAST_CIRCLE}.")
    if kind == "coach":
        require(circles[0] != circles[1],
                "The two circles of a Coach must be different from each other.")
        require(start not in circles,
                f"The two circles of a Coach must be different from your start, {start}.")
    else:
        require(circles[0] != start, f"You are on {start}: move to another circle.")
    left = LAST_SQUARE - _filled(night)
    require(len(circles) <= left,
            "A Coach fills two squares and only one is left on your row.")
    board = board_of(state)
    if board is not None and start is not None:
        problem = board.move_problem(start, kind, circles, _closed_roads(state))
        require(problem is None, str(problem))


def _closed_roads(state: State) -> list[list[int]]:
    """The roads closed by a policeman for Jack's coming normal move: with police
    on the map, from the policemen's crossings (Hunting 1: "He may not move over a
    crossing occupied by a policeman pawn"), else the roads the detectives marked."""
    cops = state.get("cops")
    board = board_of(state)
    if cops is None or board is None:
        return _marked_roads(_night(state))
    return [list(road) for road in sorted(board.closed_roads(_policed(state)))]


def _marked_roads(night: Mapping[str, Any]) -> list[list[int]]:
    """The roads the detectives marked closed for Jack's coming movement."""
    coming = len(night["moves"]) + 1
    return [mark["road"] for mark in night.get("blocked", []) if mark["move"] == coming]


def _policed(state: State) -> list[int]:
    """The crossings policemen stand on (police on the map)."""
    return sorted(x for x in state["cops"]["at"].values() if x is not None)


def _special_movement_possible(state: State, board: Board) -> str | None:
    """A Coach or an Alley Jack could still make: policemen never stop those."""
    night = _night(state)
    here = _location(night)
    actions = _jack_actions(state)
    if "coach" in actions and board.coach_routes(here):
        return "a Coach (it passes policemen)"
    if "alley" in actions and board.alley_moves(here):
        return "an Alley (it crosses a block of houses, never a crossing)"
    return None


# --- apply -----------------------------------------------------------------

def apply(state: State, actor: Viewer, action: Mapping[str, str],
          rng: random.Random) -> State:
    """Validate one action and return the new state (never mutates ``state``)."""
    check_call(actor, action, len(state["players"]))
    require(not is_over(state), "The game is over.")
    kind = require_type(action, actions(state, actor) + _explained(state, actor))
    state = evolve(state)
    # A search or an arrest sets it: its answer stands until the next action.
    state["answered"] = False
    HANDLERS[kind](state, actor, action)
    return state


def _explained(state: State, actor: Viewer) -> list[str]:
    """Jack's actions that the buttons hide but that deserve a precise refusal
    (a Coach with no token left, waiting at V, "no legal move" without a board)."""
    if actor != JACK:
        return ["move_policeman"] if state.get("cops") and state["phase"] == "police" else []
    police = ["false_clue"] if state["options"]["false_clues"] else []
    return {"blood": ["wait"], "jack": ["coach", "alley", "trapped"],
            "police": police}.get(state["phase"], [])


def _hideout(state: State, actor: Viewer, action: Mapping[str, str]) -> None:
    """Setup, 6: Jack writes his hideout at the top of the sheet; in board mode
    not on a red circle ("any numbered circle on the game board except a red one")."""
    hideout = _board_circle(state, action.get("circle"), "hideout circle")
    board = board_of(state)
    require(board is None or board.is_legal_hideout(hideout),
            f"Circle {hideout} is a red circle: your hideout may be any circle but a red one.")
    state["hideout"] = hideout
    state["phase"] = "women"


def _women(state: State, actor: Viewer, action: Mapping[str, str]) -> None:
    """Hell 2: the marked women's circles, never on a crime scene (Hell 2, note).
    Given as ``circles`` ("3 21 27") or one field each, ``woman1``..``womanN``."""
    marked = NIGHTS[state["night"]]["marked"]
    text = str(action.get("circles", "") or "").strip() or " ".join(
        str(action.get(f"woman{n}", "") or "") for n in range(1, marked + 1))
    fields = [f for f in re.split(r"[\s,;]+", text) if f]
    noun = "circle" if marked == 1 else "circles"
    require(len(fields) == marked,
            f"Please enter the {marked} {noun} of the marked women ({len(fields)} given).")
    circles = [_board_circle(state, f, "circle of a marked woman") for f in fields]
    require(len(set(circles)) == len(circles), "Each marked woman is on a different circle.")
    board = board_of(state)
    for circle in circles:
        require(board is None or circle in board.red,
                f"Circle {circle} is not a red circle: the women tokens go on red circles.")
    scenes = set(_crime_scenes(state))
    for circle in circles:
        require(circle not in scenes,
                f"Circle {circle} holds a crime scene marker: no woman may be placed there.")
    _night(state)["women"] = circles
    state["phase"] = "patrols"


def _patrols_placed(state: State, actor: Viewer, action: Mapping[str, str]) -> None:
    """Hell 3 done; from night 2 Jack may send a letter (optional rule)."""
    if (state["options"]["letters"] and state["night"] >= FIRST_LETTER_NIGHT
            and _letters_left(state)):
        state["phase"] = "letter"
    else:
        _victims_chosen(state)


def _letter(state: State, actor: Viewer, action: Mapping[str, str]) -> None:
    """Optional rule: one of Jack's letters, shown on the table screen."""
    _night(state)["letter"] = parse_choice(action.get("letter"), _letters_left(state),
                                           "letter")
    _victims_chosen(state)


def _no_letter(state: State, actor: Viewer, action: Mapping[str, str]) -> None:
    _victims_chosen(state)


def _victims_chosen(state: State) -> None:
    """Hell 4: the women are turned face up; the time of the crime goes on I."""
    night = _night(state)
    night["revealed"] = True
    night["time"] = 1
    state["phase"] = "blood"


def _wait(state: State, actor: Viewer, action: Mapping[str, str]) -> None:
    """Hell 5-6: waiting moves the time of the crime on (not possible at V)."""
    night = _night(state)
    require(night["time"] < len(ROMAN),
            "The time of the crime is on V: Jack can no longer wait and must kill.")
    night["time"] += 1
    state["phase"] = "suspense"


def _wretched_moved(state: State, actor: Viewer, action: Mapping[str, str]) -> None:
    """Hell 6 done; Hell 7 (turning a patrol over) is prompted with Hell 5."""
    state["phase"] = "blood"


def _kill(state: State, actor: Viewer, action: Mapping[str, str]) -> None:
    """Hell 5 and 8, and the double event: the crime goes in the square of the
    time of the crime (night 3: that square and the next, in Jack's order)."""
    night = _night(state)
    fields = ["circle", "circle2"] if state["night"] == DOUBLE_EVENT else ["circle"]
    crimes = [_board_circle(state, action.get(f), "crime scene circle") for f in fields]
    require(len(set(crimes)) == len(crimes),
            "The double event needs two different victims: two different circles.")
    scenes = set(_crime_scenes(state))
    for circle in crimes:
        require(circle not in scenes, f"Circle {circle} is already a crime scene.")
    women = ", ".join(map(str, sorted(night["women"])))
    if night["time"] == 1:
        # Nobody has moved the wretched yet: they stand where the marked women were.
        for circle in crimes:
            require(circle in night["women"],
                    f"No wretched stands on {circle}: at time I the wretched are on {women}.")
    board = board_of(state)
    if board is not None and night["time"] > 1:
        # Each wait moved each wretched one road at most (Hell 6), so a victim
        # after k waits stands within k roads of a marked woman's circle. The
        # table knows more (patrols, occupied circles); that stays physical.
        waits = night["time"] - 1
        reach = board.circles_within(night["women"], waits)
        for circle in crimes:
            require(circle in reach,
                    f"No wretched can be on {circle}: after {waits} wait"
                    f"{'s' if waits > 1 else ''} each wretched has moved at most {waits} "
                    f"circle{'s' if waits > 1 else ''} along the dotted lines from the marked "
                    f"women's circles ({women}), and {circle} is further.")
    night["crimes"] = crimes
    cops = state.get("cops")
    if cops is not None:
        # Hell 9, "Alarm whistles": the policemen replace their patrol tokens; the
        # detectives say where, from the crossings the tokens could stand on.
        cops["before"] = sorted(x for x in cops["at"].values() if x is not None)
        cops["at"] = {c: None for c in POLICEMEN}
        state["phase"] = "alarm"
        return
    _start_hunting_turn(state, _first_hunting_phase(state))


def _first_hunting_phase(state: State) -> str:
    """The Third Night: "the detectives act first"."""
    return "police" if state["night"] == DOUBLE_EVENT else "jack"


def _movement(state: State, actor: Viewer, action: Mapping[str, str]) -> None:
    """Hunting 1 and Special Movements: the next square(s) of the row."""
    kind = str(action.get("type"))
    night = _night(state)
    fields = ["circle", "circle2"] if kind == "coach" else ["circle"]
    circles = [_board_circle(state, action.get(f), "circle") for f in fields]
    if kind != "move":
        allowed = NIGHTS[state["night"]][TOKEN_KEYS[kind]]
        used = sum(1 for m in night["moves"] if m["kind"] == kind)
        token = f"{kind.capitalize()} token"
        require(used < allowed, f"No {token} left: {ORDINALS[state['night']]} night allows "
                f"{allowed} {token}{'s' if allowed > 1 else ''}, and you have used "
                f"{'it' if allowed == 1 else f'all {allowed}'}.")
    check_move(state, kind, circles)
    _record_police(state)
    night["moves"].append({"kind": kind, "circles": circles})
    state["trapped_claim"] = False
    if _filled(night) == LAST_SQUARE:
        _end_game(state, "detectives", "square15")
    else:
        _start_hunting_turn(state, "police")


def _escape(state: State, actor: Viewer, action: Mapping[str, str]) -> None:
    """The End of the Hunting: a normal move onto the hideout, declared as the
    escape (Special Movements: "the last move ... must always be a normal move")."""
    night = _night(state)
    hideout = state["hideout"]
    given = str(action.get("circle", "") or "").strip()
    circle = check_circle(given, "hideout circle") if given else hideout
    require(circle == hideout,
            f"You can only escape on your hideout, {hideout}; {circle} is not it.")
    if _location(night) == hideout:
        last = night["moves"][-1]["kind"] if night["moves"] else "crime"
        if last in ("coach", "alley"):
            raise RuleError(f"You reached your hideout with {SPECIAL_NAMES[last]}: you can "
                            "escape only with a normal move into it. Move on first.")
        raise RuleError("You are already on your hideout: the escape is declared with the "
                        "normal move that enters it.")
    check_move(state, "move", [hideout])
    _record_police(state)
    night["moves"].append({"kind": "move", "circles": [hideout]})
    night["escaped"] = True
    state["trapped_claim"] = False
    if state["night"] == len(NIGHTS):
        _end_game(state, "jack", "escape")
        return
    state["night"] += 1
    state["phase"] = "women"
    state["police"] = _new_police_turn()


def _no_legal_move(state: State, actor: Viewer, action: Mapping[str, str]) -> None:
    """Hunting 1, note: the detectives say Jack cannot move; Jack must confirm
    (docs/RULINGS.md#letters-from-whitechapel, "No legal move": without a board, the table
    declares it)."""
    state["trapped_claim"] = True


def _trapped(state: State, actor: Viewer, action: Mapping[str, str]) -> None:
    """Hunting 1, note: "If, for this reason, Jack cannot make a legal move, he
    loses the game!" In board mode Jack says so himself: the policemen are on
    the real board, but a Coach or an Alley left is always a legal move."""
    board = board_of(state)
    require(board is not None, "Without a board file the detectives declare that Jack "
            "has no legal move, and Jack confirms it.")
    possible = _legal_move_left(state, board)
    require(possible is None, f"You still have a legal move: {possible}.")
    _end_game(state, "detectives", "no_legal_move")


def _confirm_trapped(state: State, actor: Viewer, action: Mapping[str, str]) -> None:
    _end_game(state, "detectives", "no_legal_move")


def _deny_trapped(state: State, actor: Viewer, action: Mapping[str, str]) -> None:
    state["trapped_claim"] = False


MAX_CLOSED_ROADS = 40
"""Far more roads than five policemen can close: a bound on a forged flood."""


def _road(state: State, action: Mapping[str, str]) -> list[int]:
    """The road (two circles) a policeman closes, as the detectives mark it."""
    board = board_of(state)
    require(board is not None, "Closed roads are marked only with a board file.")
    a = _board_circle(state, action.get("circle"), "circle at one end of the road")
    b = _board_circle(state, action.get("circle2"), "circle at the other end of the road")
    require(board.is_road(a, b), f"No road joins {a} and {b}: mark the two circles at "
            "the ends of the road the policeman stands on.")
    return sorted((a, b))


def _block(state: State, actor: Viewer, action: Mapping[str, str]) -> None:
    """Hunting 1: Jack "may not move over a crossing occupied by a policeman pawn".
    The detectives may mark such a road (board mode): Jack's coming normal move
    cannot take it, and the deduction map knows it. Marks stay from move to move
    until removed, as a policeman who does not move keeps the road closed."""
    night = _night(state)
    road = _road(state, action)
    require(road not in _marked_roads(night),
            f"The road {road[0]}-{road[1]} is already marked closed.")
    require(len(_marked_roads(night)) < MAX_CLOSED_ROADS, "That is enough closed roads.")
    # setdefault: a night saved before marks existed has no list yet.
    night.setdefault("blocked", []).append({"road": road, "move": len(night["moves"]) + 1})


def _unblock(state: State, actor: Viewer, action: Mapping[str, str]) -> None:
    """A policeman moved away: the road is open again for Jack's coming move."""
    night = _night(state)
    road = _road(state, action)
    coming = len(night["moves"]) + 1
    require(road in _marked_roads(night), f"The road {road[0]}-{road[1]} is not marked closed.")
    night["blocked"] = [mark for mark in night.get("blocked", [])
                        if not (mark["road"] == road and mark["move"] == coming)]


def _record_police(state: State) -> None:
    """The policemen's crossings during Jack's movement: public facts for the
    deduction, as the roads they closed follow from them."""
    if state.get("cops") is not None:
        _night(state).setdefault("police", []).append(_policed(state))


def _crossing(state: State, value: Any) -> int:
    board = board_of(state)
    crossing = parse_int(value, 1, 10**6, "crossing")
    require(board is not None and crossing in board.crossing_ids,
            f"There is no crossing {crossing} on the board{_board_name(board)}.")
    return crossing


def _others_on(state: State, colour: str, crossing: int) -> None:
    """Hunting 2: a policeman "cannot end its move in the same crossing as another
    Policeman pawn" (nor can two pawns replace tokens on one crossing)."""
    for other, at in state["cops"]["at"].items():
        require(other == colour or at != crossing,
                f"The {other} policeman stands on crossing {crossing}: two policemen "
                "never share a crossing.")


def _place(state: State, actor: Viewer, action: Mapping[str, str]) -> None:
    """Hell 9, "Alarm whistles": each policeman replaces his patrol token. Tokens
    stand on yellow-bordered crossings, and from the second night also where the
    policemen stood at the end of the night before (Hell 3). A policeman may be
    placed again until all five stand; then the hunt begins."""
    colour = parse_choice(action.get("policeman"), POLICEMEN, "policeman")
    crossing = _crossing(state, action.get("crossing"))
    board = board_of(state)
    cops = state["cops"]
    starts = board.police_starts | set(cops["before"])
    if crossing not in starts:
        yellow = ", ".join(map(str, sorted(board.police_starts)))
        where = (f"the yellow-bordered crossings ({yellow})" if not cops["before"] else
                 f"where the policemen stood at the end of last night "
                 f"({', '.join(map(str, cops['before']))}) or the yellow-bordered "
                 f"crossings ({yellow})")
        raise RuleError(f"No patrol token can be on crossing {crossing}: tonight they stand "
                        f"on {where}.")
    _others_on(state, colour, crossing)
    cops["at"][colour] = crossing
    if all(x is not None for x in cops["at"].values()):
        _start_hunting_turn(state, _first_hunting_phase(state))


def _move_policeman(state: State, actor: Viewer, action: Mapping[str, str]) -> None:
    """Hunting 2: "a policeman can move up to a distance of two (0, 1, or 2)
    crossings", counted from where he stood when the police's turn began (so a
    wrong tap is put right by tapping again), never onto another's crossing."""
    colour = parse_choice(action.get("policeman"), POLICEMEN, "policeman")
    if colour not in _movable(state, actor):
        turn = state["police"]
        require(not (turn["done"] or turn["searching"]),
                "The policemen have moved: once one looks for clues or makes an arrest, "
                "none moves until Jack has moved again (Hunting 2, then 3).")
        raise RuleError(f"The {colour} policeman is not yours to move: each detective moves "
                        "his own.")
    crossing = _crossing(state, action.get("crossing"))
    start = state["cops"]["from"][colour]
    require(crossing in board_of(state).police_moves(start),
            f"The {colour} policeman started on crossing {start}: he moves up to two "
            f"crossings (0, 1 or 2), and crossing {crossing} is further.")
    _others_on(state, colour, crossing)
    state["cops"]["at"][colour] = crossing


def _next_to(state: State, colour: str, circle: int) -> None:
    """Clues and Suspicion: both actions are "in the numbered circles adjacent to
    that policeman pawn" (police on the map)."""
    cops = state.get("cops")
    if cops is None:
        return
    crossing = cops["at"][colour]
    near = sorted(board_of(state).circles_next_to(crossing))
    require(circle in near, f"The {colour} policeman stands on crossing {crossing}: he can "
            f"look for clues or arrest only on {', '.join(map(str, near))}.")


def _false_clue(state: State, actor: Viewer, action: Mapping[str, str]) -> None:
    """Optional rule: Jack places a False clue in the clues phase; it shows
    exactly like a clue."""
    night = _night(state)
    if _false_clues_left(state) <= 0:
        real = sum(1 for clue in night["clues"] if not clue["false"])
        placed = sum(1 for clue in night["clues"] if clue["false"])
        raise RuleError(f"No False clue left: you earn one for every {CLUES_PER_FALSE_CLUE} "
                        f"clues found in a night; {real} found tonight, {placed} placed.")
    circle = _board_circle(state, action.get("circle"), "circle for the false clue")
    require(circle not in {c["circle"] for c in night["clues"]},
            f"There is already a clue marker on {circle}.")
    night["clues"].append({"circle": circle, "after_move": len(night["moves"]), "false": True})


def _policeman(state: State, actor: Viewer, action: Mapping[str, str]) -> str:
    """The acting policeman: controlled by ``actor`` and not yet done this turn."""
    colour = parse_choice(action.get("policeman"), POLICEMEN, "policeman")
    require(_controls(state, actor, colour),
            f"The {colour} policeman is not yours to move.")
    require(colour not in state["police"]["done"],
            f"The {colour} policeman has already acted this turn.")
    turn = state["police"]
    if turn["searching"] not in (None, colour):
        # Another policeman speaking up ends the previous one's search.
        turn["done"].append(turn["searching"])
        turn["searching"], turn["searched"] = None, []
    return colour


def _search(state: State, actor: Viewer, action: Mapping[str, str]) -> None:
    """Looking for Clues: one circle at a time, answered from the current
    night's row, crime scenes included; the first yes ends the action."""
    night = _night(state)
    colour = _policeman(state, actor, action)
    circle = _board_circle(state, action.get("circle"), "circle to search")
    _next_to(state, colour, circle)
    turn = state["police"]
    require(circle not in {c["circle"] for c in night["clues"]},
            f"There is already a clue marker on {circle} tonight.")
    require(circle not in turn["searched"],
            f"The {colour} policeman has already searched {circle} this turn.")
    after = len(night["moves"])
    found = circle in _path(night)
    night["log"].append({"policeman": colour, "action": "search", "circle": circle,
                         "found": found, "after_move": after})
    state["answered"] = True
    if found:
        night["clues"].append({"circle": circle, "after_move": after, "false": False})
        _policeman_done(state, colour)
    else:
        turn["searching"] = colour
        turn["searched"].append(circle)


def _arrest(state: State, actor: Viewer, action: Mapping[str, str]) -> None:
    """Executing an Arrest: one circle; only Jack's latest circle succeeds."""
    night = _night(state)
    colour = _policeman(state, actor, action)
    require(state["police"]["searching"] != colour,
            f"The {colour} policeman is looking for clues: he cannot also make an arrest.")
    circle = _board_circle(state, action.get("circle"), "circle for the arrest")
    _next_to(state, colour, circle)
    caught = circle == _location(night)
    night["log"].append({"policeman": colour, "action": "arrest", "circle": circle,
                         "found": caught, "after_move": len(night["moves"])})
    state["answered"] = True
    if caught:
        _end_game(state, "detectives", "arrest")
    else:
        _policeman_done(state, colour)


def _done(state: State, actor: Viewer, action: Mapping[str, str]) -> None:
    """A policeman ends his action (no more circles to search, or none at all)."""
    _policeman_done(state, _policeman(state, actor, action))


def _end_turn(state: State, actor: Viewer, action: Mapping[str, str]) -> None:
    """The police are finished: policemen who did not act forgo their action."""
    _start_hunting_turn(state, "jack")


def _policeman_done(state: State, colour: str) -> None:
    turn = state["police"]
    turn["done"].append(colour)
    if turn["searching"] == colour:
        turn["searching"], turn["searched"] = None, []
    if len(turn["done"]) == len(POLICEMEN):
        _start_hunting_turn(state, "jack")


def _start_hunting_turn(state: State, phase: str) -> None:
    state["phase"] = phase
    state["police"] = _new_police_turn()
    if phase == "police" and state.get("cops") is not None:
        state["cops"]["from"] = dict(state["cops"]["at"])
    night = _night(state)
    made = len(night["moves"])
    if phase == "police" and made:
        # A policeman who does not move keeps his road closed for the next movement.
        night["blocked"] = night.get("blocked", []) + [
            {"road": list(mark["road"]), "move": made + 1}
            for mark in night.get("blocked", []) if mark["move"] == made]


def _end_game(state: State, winner: str, reason: str) -> None:
    state["phase"] = "over"
    state["outcome"] = {"winner": winner, "reason": reason, "night": state["night"]}
    state["police"] = _new_police_turn()
    state["trapped_claim"] = False


HANDLERS = {
    "hideout": _hideout,
    "women": _women,
    "patrols_placed": _patrols_placed,
    "letter": _letter,
    "no_letter": _no_letter,
    "wait": _wait,
    "kill": _kill,
    "wretched_moved": _wretched_moved,
    "move": _movement,
    "coach": _movement,
    "alley": _movement,
    "escape": _escape,
    "no_legal_move": _no_legal_move,
    "trapped": _trapped,
    "confirm_trapped": _confirm_trapped,
    "deny_trapped": _deny_trapped,
    "false_clue": _false_clue,
    "block": _block,
    "place": _place,
    "move_policeman": _move_policeman,
    "unblock": _unblock,
    "search": _search,
    "arrest": _arrest,
    "done": _done,
    "end_turn": _end_turn,
}


# --- actions -----------------------------------------------------------------

def actions(state: State, viewer: Viewer) -> list[str]:
    """What ``viewer`` may submit now; police actions never depend on Jack's secrets."""
    phase = state["phase"]
    is_jack = viewer == JACK
    is_police = viewer == TABLE or (isinstance(viewer, int) and not isinstance(viewer, bool)
                                    and 1 <= viewer < len(state["players"]))
    head = _head_colour(state)
    is_head = viewer == TABLE or (head is not None and state["policemen"][head] == viewer)
    if phase == "hideout":
        return ["hideout"] if is_jack else []
    if phase == "women":
        return ["women"] if is_jack else []
    if phase in ("patrols", "suspense"):
        return (["patrols_placed"] if phase == "patrols" else ["wretched_moved"]) \
            if is_head else []
    if phase == "letter":
        return ["letter", "no_letter"] if is_jack else []
    if phase == "blood":
        if not is_jack:
            return []
        return ["wait", "kill"] if _night(state)["time"] < len(ROMAN) else ["kill"]
    if phase == "alarm":
        return ["place"] if is_police else []
    if phase == "jack":
        if is_jack:
            return _jack_actions(state) + _trapped_action(state)
        return (["no_legal_move"] if is_police and not state["trapped_claim"]
                and board_of(state) is None else [])
    if phase == "police":
        if is_jack:
            return ["false_clue"] if _false_clues_left(state) > 0 else []
        if not is_police:
            return []
        if state.get("cops") is not None:
            marks = ["move_policeman"] if _movable(state, viewer) else []
        else:
            marks = ["block", "unblock"] if board_of(state) is not None else []
        if _policemen_to_act(state, viewer):
            return list(POLICE_ACTIONS) + marks
        return ["end_turn"] + marks
    return []


def _jack_actions(state: State) -> list[str]:
    night = _night(state)
    left = LAST_SQUARE - _filled(night)
    found = ["move"]
    for kind in ("coach", "alley"):
        allowed = NIGHTS[state["night"]][TOKEN_KEYS[kind]]
        used = sum(1 for m in night["moves"] if m["kind"] == kind)
        if used < allowed and (kind == "alley" or left >= 2):
            found.append(kind)
    # Always offered: a button shown only next to his hideout, or away from it, would
    # tell where both are. Whether a road leads home is checked when he taps it.
    found.append("escape")
    if state["trapped_claim"]:
        found += ["confirm_trapped", "deny_trapped"]
    return found


def _trapped_action(state: State) -> list[str]:
    """In board mode, Jack declares "no legal move" when no Coach or Alley is left
    (and, with police on the map, when the policemen close every road). Whether he
    has one depends on where he stands, so the button is always there (offered from
    public facts only, like the escape) and ``_trapped`` checks it when tapped."""
    return ["trapped"] if board_of(state) is not None else []


def _legal_move_left(state: State, board: Board) -> str | None:
    """A movement Jack can still make, in words; None when he has none that the
    companion knows of (the policemen's crossings only with police on the map)."""
    special = _special_movement_possible(state, board)
    if special or state.get("cops") is None:
        return special
    ends = board.normal_moves(_location(_night(state)), _closed_roads(state))
    if ends:
        return (f"a normal move to {', '.join(map(str, sorted(ends)))} "
                "(no policeman closes that road)")
    return None


def _movable(state: State, viewer: Viewer) -> list[str]:
    """The policemen ``viewer`` may put on a crossing now (police on the map):
    any, for the detectives at the alarm ("They replace the color-marked tokens
    with the corresponding Policeman pawns"); his own in the police's move
    (Hunting 2: "Each player moves the pawn(s) whose policemen he controls"),
    until the first search or arrest of the turn (Hunting 3 follows 2)."""
    if state.get("cops") is None or viewer == JACK:
        return []
    if state["phase"] == "alarm":
        return list(POLICEMEN)
    turn = state["police"]
    if state["phase"] != "police" or turn["done"] or turn["searching"]:
        return []
    return [c for c in POLICEMEN if _controls(state, viewer, c)]


def _policemen_to_act(state: State, viewer: Viewer) -> list[str]:
    if state["phase"] != "police":
        return []
    return [c for c in _police_order(state)
            if c not in state["police"]["done"] and _controls(state, viewer, c)]


# --- views ---------------------------------------------------------------------

def view(state: State, viewer: Viewer) -> dict[str, Any]:
    """The public table, plus Jack's whole sheet for seat 0, plus a detective's
    own policemen for seats 1..5; after the end, the sheet for everyone."""
    public = _public_view(state)
    public["actions"] = actions(state, viewer)
    public["to_act"] = _policemen_to_act(state, viewer) if viewer != JACK else []
    public["movable"] = _movable(state, viewer)
    if viewer == JACK:
        public["role"] = "jack"
        # A refusal's reason names his circles ("No road joins 147 and 90."): his phone
        # keeps it behind "Why?" and says the same at the top whatever it is.
        public["private_refusals"] = True
        public["sheet"] = _sheet(state)
        public["jack"] = _jack_private(state)
    elif viewer == TABLE:
        public["role"] = "table"
    else:
        public["role"] = "detective"
        public["me"] = {
            "seat": viewer,
            "policemen": [c for c in POLICEMEN if state["policemen"][c] == viewer],
            "to_act": _policemen_to_act(state, viewer),
            "is_head": _head_colour(state) is not None
            and state["policemen"][_head_colour(state)] == viewer,
        }
    return public


def _public_view(state: State) -> dict[str, Any]:
    night = _night(state)
    number = state["night"]
    head = _head_colour(state)
    policemen = [{"colour": c, "seat": state["policemen"][c],
                  "name": state["players"][state["policemen"][c]]} for c in POLICEMEN]
    heads = [{"night": n, "colour": state["head_tiles"][n - 1],
              "name": state["players"][state["policemen"][state["head_tiles"][n - 1]]]}
             for n in range(1, number + 1) if n < number or head]
    acting, prompt = _prompt(state)
    return {
        "game": NAME,
        "title": TITLE,
        "night": number,
        "date": NIGHTS[number]["date"],
        "nights": [{"night": n, "date": NIGHTS[n]["date"]} for n in NIGHTS],
        "phase": state["phase"],
        "phase_name": PHASES[state["phase"]],
        "acting": acting,
        "prompt": prompt,
        "head": {"colour": head, "seat": state["policemen"][head],
                 "name": state["players"][state["policemen"][head]]} if head else None,
        "heads": heads,
        "policemen": policemen,
        "police_order": _police_order(state) if state["phase"] == "police" else [],
        "police_done": list(state["police"]["done"]),
        "police_searching": state["police"]["searching"],
        "time": ROMAN[night["time"] - 1] if night["revealed"] else None,
        "track": _track(night),
        "tokens": _tokens_left(state),
        "wretched_at_start": sorted(night["women"]) if night["revealed"] else [],
        "crime_scenes": [{"night": n["number"], "date": NIGHTS[n["number"]]["date"],
                          "circles": sorted(n["crimes"])}
                         for n in state["nights"] if n["crimes"]],
        "clues": [c["circle"] for c in night["clues"]],
        "closed_roads": _closed_roads(state) if state["phase"] in ("jack", "police") else [],
        "cops": _cops_view(state),
        "log": [_log_line(state, entry) for entry in night["log"]],
        # The answer to the last action, if it was a search or an arrest.
        "answer": (_log_line(state, night["log"][-1])
                   if state.get("answered") and night["log"] else None),
        "letters": [{"night": n["number"], "letter": n["letter"]}
                    for n in state["nights"] if n["letter"]],
        "options": {"false_clues": state["options"]["false_clues"],
                    "letters": state["options"]["letters"],
                    "deduction_map": state["options"].get("deduction_map", False),
                    "police_map": state.get("cops") is not None,
                    "board": _board_label(state)},
        "trapped_claim": state["trapped_claim"],
        "outcome": _outcome(state),
        "reveal": _sheet(state) if is_over(state) else None,
        "public_facts": public_facts(state),
    }


def _cops_view(state: State) -> dict[str, Any] | None:
    """Police on the map, public like the pawns on the board: each policeman's
    crossing, the circles he may search or arrest in, and, while the detectives
    place or move them, the crossings each may go to."""
    cops = state.get("cops")
    board = board_of(state)
    if cops is None or board is None:
        return None
    at = dict(cops["at"])
    if state["phase"] == "alarm":
        reach = dict.fromkeys(POLICEMEN, board.police_starts | set(cops["before"]))
    elif state["phase"] == "police" and _movable(state, TABLE):
        reach = {c: board.police_moves(cops["from"][c]) for c in POLICEMEN}
    else:
        reach = {}
    return {
        "at": at,
        "from": dict(cops["from"]) if reach and state["phase"] == "police" else {},
        "before": list(cops["before"]),
        "next_to": {c: sorted(board.circles_next_to(x)) for c, x in at.items()
                    if x is not None},
        "choices": {c: sorted(x for x in found if x == at[c] or x not in at.values())
                    for c, found in reach.items()},
    }


def _track(night: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The move track: squares 1-15, I-V, the time of the crime, the Jack pawn,
    and Coach/Alley tokens on the squares where they were used (Special Movements)."""
    filled = _filled(night)
    track = []
    for square in _row(night):
        number = square["square"]
        track.append({
            "square": number,
            "label": square["label"],
            "roman": number <= len(ROMAN),
            "crime_time": night["revealed"] and number == night["time"],
            "filled": number <= filled and square["kind"] is not None,
            "jack": filled > 0 and number == filled,
            "token": square["kind"] if square["kind"] in ("coach", "alley") else None,
        })
    return track


def _tokens_left(state: State) -> dict[str, int]:
    night = _night(state)
    rules = NIGHTS[state["night"]]
    return {
        "coaches": rules["coaches"] - sum(1 for m in night["moves"] if m["kind"] == "coach"),
        "alleys": rules["alleys"] - sum(1 for m in night["moves"] if m["kind"] == "alley"),
        "squares": LAST_SQUARE - _filled(night) if night["crimes"] else None,
    }


def _log_line(state: State, entry: Mapping[str, Any]) -> dict[str, Any]:
    if entry["action"] == "search":
        result = "clue" if entry["found"] else "no clue"
    else:
        result = "arrested" if entry["found"] else "not here"
    return {"policeman": entry["policeman"], "action": entry["action"],
            "circle": entry["circle"], "result": result, "after_move": entry["after_move"]}


def _prompt(state: State) -> tuple[str | None, str]:
    """Who acts now, and what to do on the real board, in one line."""
    phase = state["phase"]
    number = state["night"]
    rules = NIGHTS[number]
    night = _night(state)
    head = _head_colour(state)
    head_name = (f"Head of the Investigation ({state['players'][state['policemen'][head]]}, "
                 f"{head} policeman)") if head else ""
    if phase == "hideout":
        return "Jack", "Jack: choose your hideout (any circle but a red one) on your phone."
    if phase == "women":
        dawn = ("Dawn: remove the clue markers and the Coach and Alley tokens; "
                "Jack's pawn to the next night. " if number > 1 else "")
        scene = ", not on crime scenes" if number > 1 else ""
        return "Jack", (f"{dawn}Jack: take {rules['coaches']} Coach and {rules['alleys']} "
                        f"Alley tokens, place {rules['women']} woman tokens facedown on red "
                        f"circles{scene} ({rules['marked']} marked).")
    if phase == "patrols":
        where = ("place the 7 police patrol tokens on yellow-bordered crossings"
                 if number == 1 else
                 "place 5 patrol tokens where the policemen stood at the end of last night "
                 "and 2 on free yellow-bordered crossings")
        return "Head of the Investigation", f"{head_name}: {where}."
    if phase == "letter":
        return "Jack", "Jack may send one of Jack's letters."
    if phase == "blood":
        if night["time"] == 1:
            first = (f"Turn the women face up: wretched pawns on "
                     f"{', '.join(map(str, sorted(night['women'])))}; the others leave. "
                     "Time of the crime on I. ")
        else:
            first = "Jack: turn over one police patrol token of your choice. "
        victims = "two victims" if number == DOUBLE_EVENT else "a victim"
        if night["time"] == len(ROMAN):
            return "Jack", f"{first}It is V: Jack must kill {victims} now."
        return "Jack", f"{first}Jack: kill {victims} or wait."
    if phase == "suspense":
        return "Head of the Investigation", (
            f"Time of the crime to {ROMAN[night['time'] - 1]}. {head_name}: move every "
            "wretched pawn to an adjacent free circle (not next to or past a patrol token, "
            "not onto a crime scene).")
    alarm = ("Alarm whistles! Police: turn over all patrol tokens, put each policeman on "
             "his token, remove the fake patrols and the wretched pawns. ")
    if phase == "alarm":
        return "Police", (f"{alarm}Then tap each policeman's crossing on the police map.")
    if night["moves"] or state.get("cops") is not None:
        alarm = ""
    if phase == "jack":
        if state["trapped_claim"]:
            return "Jack", "The detectives say Jack has no legal move: Jack confirms or denies."
        square = _filled(night) + 1
        return "Jack", f"{alarm}Jack: make your move (square {square} of {LAST_SQUARE})."
    if phase == "police":
        order = ", ".join(_police_order(state))
        tap = (" and tap his new crossing on the police map"
               if state.get("cops") is not None else "")
        return "Police", (f"{alarm}Police, from the Head of the Investigation clockwise "
                          f"({order}): move each policeman 0-2 crossings{tap}, then each "
                          "looks for clues or makes an arrest.")
    return None, _outcome(state)["text"]


OUTCOMES = {
    "arrest": "The detectives arrested Jack the Ripper on {circle}!",
    "square15": "Jack did not reach his hideout by square 15: the detectives win.",
    "no_legal_move": "Jack had no legal move: the detectives win.",
    "escape": "Jack the Ripper escaped on the fourth night: Jack wins.",
}


def _outcome(state: State) -> dict[str, Any] | None:
    outcome = state["outcome"]
    if outcome is None:
        return None
    circle = _location(state["nights"][outcome["night"] - 1])
    return dict(outcome, text=OUTCOMES[outcome["reason"]].format(circle=circle))


def _sheet(state: State) -> dict[str, Any]:
    """Jack's sheet: hideout and every night's row (secret until the end)."""
    return {
        "hideout": state["hideout"],
        "nights": [{
            "night": n["number"],
            "date": NIGHTS[n["number"]]["date"],
            "row": _row(n),
            "crimes": list(n["crimes"]),
            "moves": [dict(m) for m in n["moves"]],
            "women": list(n["women"]),
            "letter": n["letter"],
            "escaped": n["escaped"],
            "false_clues": [c["circle"] for c in n["clues"] if c["false"]],
            "started": n["number"] <= state["night"],
        } for n in state["nights"]],
    }


def _jack_private(state: State) -> dict[str, Any]:
    """What only Jack's phone shows besides the sheet."""
    night = _night(state)
    path = _path(night)
    questions = []
    for entry in night["log"]:
        line = _log_line(state, entry)
        if entry["found"] and entry["action"] == "search":
            line["square"] = night["time"] + path.index(entry["circle"])
        questions.append(line)
    return {
        "hideout": state["hideout"],
        "location": _location(night),
        "women": list(night["women"]),
        "marked_count": NIGHTS[state["night"]]["marked"],
        "false_clues_left": _false_clues_left(state),
        "letters_left": _letters_left(state) if state["options"]["letters"] else [],
        "questions": questions,
        "crimes_in_order": list(night["crimes"]),
    }


def public_facts(state: State) -> dict[str, Any]:
    """The public facts of this night and the finished ones, for the board's
    deduction (contract in the module docstring)."""
    false_clues = state["options"]["false_clues"]
    return {
        "night": state["night"],
        **_night_facts(_night(state), false_clues),
        "escapes": [n["number"] for n in state["nights"] if n["escaped"]],
        "prior_nights": [_night_facts(n, false_clues) for n in state["nights"]
                         if n["number"] < state["night"]],
    }


def _night_facts(night: Mapping[str, Any], false_clues: bool) -> dict[str, Any]:
    return {
        "crime_scenes": sorted(night["crimes"]),
        "moves": [m["kind"] for m in night["moves"]],
        "clues": [{"circle": c["circle"], "after_move": c["after_move"],
                   "search": not c["false"]} for c in night["clues"]],
        "searched_empty": [{"circle": e["circle"], "after_move": e["after_move"]}
                           for e in night["log"]
                           if e["action"] == "search" and not e["found"]],
        "failed_arrests": [{"circle": e["circle"], "after_move": e["after_move"]}
                           for e in night["log"] if e["action"] == "arrest" and not e["found"]],
        "false_clues": false_clues,
        "blocked": [[*mark["road"], mark["move"]] for mark in night.get("blocked", [])],
        "police": [list(crossings) for crossings in night.get("police", [])],
    }


# --- an imported state ---------------------------------------------------------------

_COLOUR = frozenset(POLICEMEN)
NIGHT_SHAPE = {
    "number": int, "women": [int], "revealed": bool, "letter": (None, str), "time": int,
    "crimes": [int], "moves": [{"kind": str, "circles": [int]}],
    "clues": [{"circle": int, "after_move": int, "false": bool}],
    "log": [{"policeman": _COLOUR, "action": str, "circle": int}], "escaped": bool,
    "blocked": list,
}
STATE_SHAPE = {
    "players": [str], "options": {"false_clues": bool, "letters": bool},
    "board": (None, dict), "policemen": {colour: int for colour in POLICEMEN},
    "head_tiles": [_COLOUR], "hideout": (None, int), "night": int, "phase": frozenset(PHASES),
    "nights": [NIGHT_SHAPE],
    "police": {"done": [_COLOUR], "searching": (None, _COLOUR), "searched": [int]},
    "trapped_claim": bool,
    "outcome": (None, {"winner": str, "reason": str}),
}


def check_state(state: Any) -> None:
    """A Letters from Whitechapel state as ``setup`` and ``apply`` leave it (an imported
    file's): the shape, Jack and 1-5 detectives, each policeman with a detective, the
    four nights in order, circles on the board (1-195, or the board's own), the move
    track within its 15 squares."""
    check_shape(state, STATE_SHAPE)
    count = len(state["players"])
    require(MIN_PLAYERS <= count <= MAX_PLAYERS, f"{TITLE} has 2 to 6 players, not {count}.")
    for colour in POLICEMEN:
        check_seat(state["policemen"][colour], count, f"the {colour} policeman's detective")
        require(state["policemen"][colour] != 0, "Jack cannot lead a policeman.")
    require(len(state["nights"]) == len(NIGHTS) and [night["number"] for night in
            state["nights"]] == list(NIGHTS), "the nights are not the game's four.")
    require(state["night"] in NIGHTS and len(state["head_tiles"]) >= len(NIGHTS),
            "the night is not one of the game's four.")
    try:
        board = board_of(state)
    except BoardError as error:
        raise RuleError(f"its board is damaged ({error}).") from None
    circles = set(board.numbers) if board else set(range(FIRST_CIRCLE, LAST_CIRCLE + 1))
    named = [state["hideout"]] if state["hideout"] is not None else []
    for night in state["nights"]:
        require(1 <= night["time"] <= len(ROMAN), "a night's time is off the track.")
        require(night["time"] - 1 + len(night["moves"]) <= LAST_SQUARE,
                "a night's moves fill more than its 15 squares.")
        named += night["women"] + night["crimes"] + [circle for move in night["moves"]
                                                     for circle in move["circles"]]
        named += [clue["circle"] for clue in night["clues"]]
        named += [entry["circle"] for entry in night["log"]]
    named += state["police"]["searched"]
    require(set(named) <= circles, "a circle is not on the board.")
