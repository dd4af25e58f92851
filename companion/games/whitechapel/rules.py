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

The views (what each seat sees, and the public facts the board's deduction reads)
are in ``views``; the state's vocabulary, its readings and ``actions`` in ``state``:
this module imports both and hands the registry their ``view`` and ``actions``.
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
    shuffled,
)
from companion.games.whitechapel import jack_ai
from companion.games.whitechapel.board import (
    CROSSING_GRAPH_KEYS,
    GRAPH_KEYS,
    Board,
    BoardError,
    board_from_graph,
)
from companion.games.whitechapel.jack_ai import LEVELS
from companion.games.whitechapel.policemap import crossing_names

# The protocol's optional replay hook (companion/games/base.py): this module's, as below.
from companion.games.whitechapel.replay import replay_frames as replay_frames
from companion.games.whitechapel.replay import replay_nights as replay_nights
from companion.games.whitechapel.state import (
    CLUES_PER_FALSE_CLUE,
    COLOUR_NAMES,
    DOUBLE_EVENT,
    FAKE,
    JACK,
    LAST_SQUARE,
    NIGHTS,
    PATROL_TOKENS,
    PHASES,
    POLICEMEN,
    ROMAN,
    TITLE,
    TOKEN_KEYS,
    _alarm_crossings,
    _closed_roads,
    _controls,
    _crime_scenes,
    _false_clues_left,
    _filled,
    _jack_actions,
    _letters_left,
    _location,
    _marked_roads,
    _may_speak,
    _movable,
    _moves_left,
    _new_patrol_crossings,
    _night,
    _path,
    _patrols_to_tap,
    _policed,
    _speaking,
    _told,
    _wretched_moves,
    _wretched_to_move,
    actions,
    board_of,
    is_over,
    listed,
)

# The rest of the game the registry reads (companion.games.base.Game), written beside it:
# the redundant aliases say these names are imported to be this module's, not for its use.
from companion.games.whitechapel.state import NAME as NAME
from companion.games.whitechapel.summary import ENDING_WORDS as ENDING_WORDS
from companion.games.whitechapel.summary import result as result
from companion.games.whitechapel.views import view as view
from companion.words import Text, _, ngettext

MIN_PLAYERS = 2
MAX_PLAYERS = 6
DEFAULT_PLAYERS = 4
FIXED_SEATS: frozenset[int] = frozenset({JACK})

FIRST_CIRCLE, LAST_CIRCLE = 1, 195
"""Setup, 1: "195 numbered circles"."""


LETTER_SHEETS = 4
# Texts: the setup form's box shows them in the reader's language (web/i18n.in_reader_words).
DEFAULT_LETTERS = tuple(_("Jack's letter %(n)s", n=n) for n in range(1, LETTER_SHEETS + 1))
"""Components: "4 Jack's Letter sheets"; the text is on the sheet (docs/RULINGS.md#general,
"Card texts")."""

FIRST_LETTER_NIGHT = 2

MOVEMENTS = ("move", "coach", "alley")
NIGHT_NAMES = {1: _("the first night"), 2: _("the second night"), 3: _("the third night"),
               4: _("the fourth night")}

SPECIAL_NAMES = {"coach": _("a Coach"), "alley": _("an Alley")}


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
    labels = [_("Jack the Ripper")]
    for seat in range(1, count):
        colours = listed([COLOUR_NAMES[c] for c in POLICEMEN if deal[c] == seat], commas=True)
        labels.append(_("Detective %(seat)s (%(colours)s)", seat=seat, colours=colours))
    return labels


def _deal_for(options: Mapping[str, Any], count: int) -> dict[str, int]:
    """The explicit deal if it fits this many seats, else the even one."""
    deal = options.get("policemen")
    return dict(deal) if _valid_deal(deal, count) else even_deal(count)


OPTION_WORDS = {"board": _("Board"), "police_map": _("Police on the map"),
                "deduction_map": _("Deduction map"), "false_clues": _("False clues"),
                "letters": _("Jack's letters"), "letter_names": _("Names of Jack's letters"),
                "policeman_": _("Policemen")}
"""The setup form's options by name (a prefix ends in "_"), as its page labels them, to
say which a new table kept from the last one (``companion/games/base.py``)."""


def default_options() -> dict[str, Any]:
    """Optional rules off, policemen dealt evenly, the letters' default names, Jack a
    player."""
    return {"false_clues": False, "letters": False, "deduction_map": False,
            "police_map": False, "policemen": {},
            "letter_names": list(DEFAULT_LETTERS), "jack": "player"}


def parse_options(form: Mapping[str, str], count: int) -> dict[str, Any]:
    """The setup form: ``false_clues``, ``letters`` (checkboxes),
    ``policeman_<colour>`` (the detective seat 1..count-1 controlling it; all
    blank deals them evenly), ``letter_names`` (four lines, optional),
    ``deduction_map`` (checkbox: with a board, the detectives' pages show where
    Jack can be, ``companion/games/whitechapel/boardmap.py``), ``police_map``
    (checkbox: with a board that has crossings, the detectives enter where each
    policeman stands), ``board`` (a loaded board's name, optional) and ``jack``
    ("player", or a level of ``jack_ai.LEVELS``: the companion plays Jack, which needs
    police on the map, so that he knows where the policemen stand)."""
    require(MIN_PLAYERS <= count <= MAX_PLAYERS,
            _("Letters from Whitechapel is for %(low)s to %(high)s players.", low=MIN_PLAYERS,
              high=MAX_PLAYERS))
    given = {c: str(form.get(f"policeman_{c}", "") or "").strip() for c in POLICEMEN}
    if not any(given.values()):
        deal = {}  # dealt evenly at setup, for however many seats remain by then
    else:
        missing = [c for c in POLICEMEN if not given[c]]
        require(not missing, _("Please give every policeman to a detective (missing: "
                               "%(colours)s), or leave all blank to deal them evenly.",
                               colours=listed([COLOUR_NAMES[c] for c in missing], commas=True)))
        deal = {c: parse_int(given[c], 1, count - 1, f"detective of the {c} policeman")
                for c in POLICEMEN}
        for seat in range(1, count):
            require(seat in deal.values(), _("Detective %(seat)s has no policeman: every "
                                             "detective needs at least one.", seat=seat))
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
        require(len(board) <= 60, _("The board name must be at most 60 characters long."))
        options["board"] = board
    require(board or not options["police_map"], _("Police on the map needs a board: "
            "choose one under Board, or untick Police on the map."))
    require(board or not options["deduction_map"], _("The deduction map needs a board: "
            "choose one under Board, or untick Deduction map."))
    jack = str(form.get("jack", "") or "player").strip()
    options["jack"] = parse_choice(jack, ("player", *LEVELS), "Jack")
    require(jack == "player" or options["police_map"],
            _("The companion plays Jack only with police on the map (he must know where "
              "the policemen stand): tick Police on the map, or let a player be Jack."))
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
    form["jack"] = str(options.get("jack") or "player")
    return form


def setup(options: Mapping[str, Any], players: Sequence[str], rng: random.Random) -> State:
    """A fresh sheet; the Head of the Investigation tiles shuffled (Setup, 9)."""
    count = len(players)
    board = _board_graph(options)
    if options.get("police_map"):
        require(board is not None and board_from_graph(board).has_crossings,
                _("Police on the map needs a board with its police crossings: choose the "
                  "board shipped with the companion, or untick Police on the map."))
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
        "companion": _companion_level(options),
    }


def _companion_level(options: Mapping[str, Any]) -> str | None:
    """The level the companion plays Jack at, or None: a player is Jack."""
    level = options.get("jack")
    return level if level in LEVELS and options.get("police_map") else None


def companion_seats(options: Mapping[str, Any]) -> list[int]:
    """The seats the companion takes at the table (Jack's, when it plays him): nobody
    joins them (the platform's optional hook, companion/games/base.py)."""
    return [JACK] if _companion_level(options) else []


def companion_seat(state: State) -> int | None:
    """The seat the companion acts for now, or None: a person acts (or nobody)."""
    if not state.get("companion") or is_over(state):
        return None
    return JACK if actions(state, JACK) else None


def companion_action(state: State, rng: random.Random) -> dict[str, str]:
    """The companion's decision now, taken from Jack's own view and the public board
    only (``jack_ai.knowledge``): it never reads the state itself."""
    board = board_of(state)
    assert board is not None
    return jack_ai.decide(jack_ai.knowledge(view(state, JACK), board), state["companion"],
                          rng)


def _board_graph(options: Mapping[str, Any]) -> dict[str, str] | None:
    """The loaded board's graph the web layer attached to the options, checked."""
    graph = options.get("board_graph")
    if not graph:
        return None
    try:
        board_from_graph(graph)
    except BoardError as error:
        raise RuleError(_("The board's data is damaged (%(error)s): create the table "
                          "again, or choose no board.", error=str(error))) from None
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
    """Hunting 2 and 3: who has moved or stayed, who has acted, the one searching and
    the circles he named."""
    return {"moved": [], "done": [], "searching": None, "searched": []}


# --- the board hook --------------------------------------------------------

def check_circle(value: Any, what: str = "circle") -> int:
    """A circle number from a form field (docs/RULINGS.md#letters-from-whitechapel, "Circles and
    hideout": circles are 1-195)."""
    return parse_int(value, FIRST_CIRCLE, LAST_CIRCLE, what)


def _board_circle(state: State, value: Any, what: str) -> int:
    """A circle number that, in board mode, is also a circle of the board."""
    circle = check_circle(value, what)
    board = board_of(state)
    require(board is None or board.has_circle(circle),
            _("There is no circle %(circle)s on the board (%(board)s).", circle=circle,
              board=board.name) if board is not None else "")
    return circle


def check_move(state: State, kind: str, circles: Sequence[int]) -> None:
    """Refuse a movement the rules forbid (Hunting 1, Special Movements).

    Without a board only the numbers and the rulebook's own constraints are
    known; adjacency, police-blocked crossings and alley blocks are checked
    here once a board is loaded (``state["board"]``).
    """
    night = _night(state)
    start = _location(night)
    require(kind in MOVEMENTS, _("That is not a movement."))
    require(len(circles) == (2 if kind == "coach" else 1),
            _("A Coach is two circles.") if kind == "coach" else _("A move is one circle."))
    require(all(isinstance(c, int) and FIRST_CIRCLE <= c <= LAST_CIRCLE for c in circles),
            _("Circles are numbered %(first)s to %(last)s.", first=FIRST_CIRCLE,
              last=LAST_CIRCLE))
    if kind == "coach":
        require(circles[0] != circles[1],
                _("The two circles of a Coach must be different from each other."))
        require(start not in circles,
                _("The two circles of a Coach must be different from your start, %(start)s.",
                  start=start))
    else:
        require(circles[0] != start,
                _("You are on %(start)s: move to another circle.", start=start))
    left = LAST_SQUARE - _filled(night)
    require(len(circles) <= left,
            _("A Coach fills two squares and only one is left on your row."))
    board = board_of(state)
    if board is not None and start is not None:
        problem = board.move_problem(start, kind, circles, _closed_roads(state))
        require(problem is None, problem or "")


def _special_movement_possible(state: State, board: Board) -> Text | None:
    """A Coach or an Alley Jack could still make: policemen never stop those."""
    night = _night(state)
    here = _location(night)
    actions = _jack_actions(state)
    if "coach" in actions and board.coach_routes(here):
        return _("a Coach (it passes policemen)")
    if "alley" in actions and board.alley_moves(here):
        return _("an Alley (it crosses a block of houses, never a crossing)")
    return None


# --- apply -----------------------------------------------------------------

def apply(state: State, actor: Viewer, action: Mapping[str, str],
          rng: random.Random) -> State:
    """Validate one action and return the new state (never mutates ``state``)."""
    check_call(actor, action, len(state["players"]))
    require(not is_over(state), _("The game is over."))
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
        if state["phase"] != "police":
            return []
        # Out of turn or out of step in Hunting 2 and 3: told whom they wait for.
        return ["search", "arrest", "done", "end_turn"] + (
            ["move_policeman"] if state.get("cops") else [])
    police = ["false_clue"] if state["options"]["false_clues"] else []
    return {"blood": ["wait"], "jack": ["coach", "alley", "trapped"],
            "police": police}.get(state["phase"], [])


def _hideout(state: State, actor: Viewer, action: Mapping[str, str]) -> None:
    """Setup, 6: Jack writes his hideout at the top of the sheet; in board mode
    not on a red circle ("any numbered circle on the game board except a red one")."""
    hideout = _board_circle(state, action.get("circle"), "hideout circle")
    board = board_of(state)
    require(board is None or board.is_legal_hideout(hideout),
            _("Circle %(circle)s is a red circle: your hideout may be any circle but a red "
              "one.", circle=hideout))
    state["hideout"] = hideout
    state["phase"] = "women"


def _women(state: State, actor: Viewer, action: Mapping[str, str]) -> None:
    """Hell 2: the marked women's circles, never on a crime scene (Hell 2, note).
    Given as ``circles`` ("3 21 27") or one field each, ``woman1``..``womanN``."""
    marked = NIGHTS[state["night"]]["marked"]
    text = str(action.get("circles", "") or "").strip() or " ".join(
        str(action.get(f"woman{n}", "") or "") for n in range(1, marked + 1))
    fields = [f for f in re.split(r"[\s,;]+", text) if f]
    require(len(fields) == marked,
            ngettext("Please enter the %(n)s circle of the marked women (%(given)s given).",
                     "Please enter the %(n)s circles of the marked women (%(given)s given).",
                     marked, given=len(fields)))
    circles = _woman_tokens(state, fields, "circle of a marked woman")
    require(len(set(circles)) == len(circles), _("Each marked woman is on a different circle."))
    _night(state)["women"] = circles
    unmarked = str(action.get("unmarked", "") or "").strip()
    if unmarked:
        _unmarked(state, circles, unmarked)
    state["phase"] = "patrols"


def _woman_tokens(state: State, fields: list[str], what: str) -> list[int]:
    """The circles of women tokens: red circles (board mode) that hold no crime scene
    marker (Hell 2, note)."""
    circles = [_board_circle(state, f, what) for f in fields]
    board = board_of(state)
    for circle in circles:
        require(board is None or circle in board.red,
                _("Circle %(circle)s is not a red circle: the women tokens go on red circles.",
                  circle=circle))
    scenes = set(_crime_scenes(state))
    for circle in circles:
        require(circle not in scenes,
                _("Circle %(circle)s holds a crime scene marker: no woman may be placed there.",
                  circle=circle))
    return circles


def _unmarked(state: State, marked: list[int], text: str) -> None:
    """The unmarked women tokens, where the companion says it puts them (Hell 2: "Jack
    places ... women tokens face down on red circles"; a player puts them on the board
    himself). Kept so the table screen can say where all the tokens go, face down."""
    rules = NIGHTS[state["night"]]
    circles = _woman_tokens(state, [f for f in re.split(r"[\s,;]+", text) if f],
                            "circle of a woman token")
    require(len(circles) == rules["women"] - rules["marked"]
            and len(set(circles) | set(marked)) == rules["women"],
            _("Each woman token is on a different circle."))
    _night(state)["unmarked"] = sorted(circles)


def _patrols_placed(state: State, actor: Viewer, action: Mapping[str, str]) -> None:
    """Hell 3 done; from night 2 Jack may send a letter (optional rule). Where the
    detectives tell the companion's Jack what the board shows (``_told``) and the Head
    had no choice (the first night's seven yellow-bordered crossings; later, as many
    free ones as tokens left), the app writes down the crossings itself."""
    if _told(state):
        board = board_of(state)
        crossings = (board.police_starts if state["night"] == 1 else
                     set(_policed(state)) | set(_new_patrol_crossings(state)))
        _night(state)["patrols"] = [{"crossing": x, "shows": None}
                                    for x in sorted(crossings)]
    _patrols_down(state)


def _patrol(state: State, actor: Viewer, action: Mapping[str, str]) -> None:
    """Hell 3 from the second night, the companion playing Jack: the Head taps each of
    the two yellow-bordered crossings where he put a patrol token besides the five
    where the policemen stood (those the app knows); a tap on one already tapped takes
    it back. The last one ends the patrols (docs/RULINGS.md#letters-from-whitechapel,
    "The companion plays Jack")."""
    crossing = _crossing(state, action.get("crossing"))
    night = _night(state)
    tapped = night.setdefault("patrols", [])
    if any(p["crossing"] == crossing for p in tapped):
        night["patrols"] = [p for p in tapped if p["crossing"] != crossing]
        return
    require(crossing in _new_patrol_crossings(state),
            _("No patrol token can be on %(crossing)s: the two besides the five where the "
              "policemen stood go on yellow-bordered crossings no policeman held last "
              "night (Hell 3).", crossing=_named(state, crossing)))
    tapped.append({"crossing": crossing, "shows": None})
    if not _patrols_to_tap(state):
        night["patrols"] = sorted(
            tapped + [{"crossing": x, "shows": None} for x in _policed(state)],
            key=lambda p: p["crossing"])
        _patrols_down(state)


def _patrols_down(state: State) -> None:
    """The patrol tokens are on the board (Hell 3): Jack's letter, or the victims."""
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
    if _told(state):
        # The wretched pawns stand where the marked women were (Hell 4).
        night["wretched"] = sorted(night["women"])
    state["phase"] = "blood"


def _wait(state: State, actor: Viewer, action: Mapping[str, str]) -> None:
    """Hell 5-6: waiting moves the time of the crime on (not possible at V)."""
    night = _night(state)
    require(night["time"] < len(ROMAN),
            _("The time of the crime is on V: Jack can no longer wait and must kill."))
    night["time"] += 1
    state["phase"] = "suspense"
    if _told(state):
        night["moved"] = []
        _suspense_over(state)


def _wretched_moved(state: State, actor: Viewer, action: Mapping[str, str]) -> None:
    """Hell 6 done; Hell 7 (turning a patrol over) is prompted with Hell 5."""
    state["phase"] = "blood"


def _wretched(state: State, actor: Viewer, action: Mapping[str, str]) -> None:
    """Hell 6, the companion playing Jack: the Head taps a wretched (``circle``) and
    where he moved it (``circle2``), one after the other; those with no legal move stay.
    When none is left to move, Jack turns a patrol token over (Hell 7)."""
    night = _night(state)
    start = _board_circle(state, action.get("circle"), "circle of the wretched")
    require(start in night["wretched"],
            _("No wretched stands on %(circle)s: they stand on %(circles)s.", circle=start,
              circles=", ".join(map(str, night["wretched"]))))
    require(start in _wretched_to_move(state),
            _("The wretched on %(circle)s has moved already, or cannot move.", circle=start))
    end = _board_circle(state, action.get("circle2"), "circle the wretched goes to")
    allowed = _wretched_moves(state, start)
    require(end in allowed,
            _("The wretched on %(circle)s can go to %(circles)s only: along a road, to a "
              "free circle, never past a patrol token nor next to one, nor onto a crime "
              "scene (Hell 6).", circle=start, circles=", ".join(map(str, allowed))))
    night["wretched"] = sorted([c for c in night["wretched"] if c != start] + [end])
    night["moved"].append(end)
    _suspense_over(state)


def _suspense_over(state: State) -> None:
    if not _wretched_to_move(state):
        state["phase"] = "ready"


def _reveal(state: State, actor: Viewer, action: Mapping[str, str]) -> None:
    """Hell 7, "Ready to kill": Jack chooses a patrol token still face down and turns it
    over; the detectives then tap what it shows."""
    night = _night(state)
    crossing = _crossing(state, action.get("crossing"))
    require(any(p["crossing"] == crossing and p["shows"] is None for p in night["patrols"]),
            _("No patrol token lies face down on %(crossing)s.",
              crossing=_named(state, crossing)))
    night["turning"] = crossing
    state["phase"] = "turned"


def _turned(state: State, actor: Viewer, action: Mapping[str, str]) -> None:
    """Hell 7: what the turned token shows, a policeman's colour (it stays, face up) or
    a fake patrol (it leaves the board); then Jack kills or waits again (Hell 5)."""
    night = _night(state)
    shown = {p["shows"] for p in night["patrols"]} - {None}
    fakes = sum(1 for p in night["patrols"] if p["shows"] == FAKE)
    shows = parse_choice(action.get("shows"), (*POLICEMEN, FAKE), "token")
    if shows != FAKE and shows in shown:
        raise RuleError(_("The %(colour)s patrol token is already face up.",
                          colour=COLOUR_NAMES[shows]))
    require(shows != FAKE or fakes < PATROL_TOKENS - len(POLICEMEN),
            _("Both fake patrols are already face up: this one shows a policeman's colour."))
    for patrol in night["patrols"]:
        if patrol["crossing"] == night["turning"]:
            patrol["shows"] = shows
    # ``turning`` stays: the token last turned, whose face the table is told.
    state["phase"] = "blood"


def _kill(state: State, actor: Viewer, action: Mapping[str, str]) -> None:
    """Hell 5 and 8, and the double event: the crime goes in the square of the
    time of the crime (night 3: that square and the next, in Jack's order)."""
    night = _night(state)
    fields = ["circle", "circle2"] if state["night"] == DOUBLE_EVENT else ["circle"]
    crimes = [_board_circle(state, action.get(f), "crime scene circle") for f in fields]
    require(len(set(crimes)) == len(crimes),
            _("The double event needs two different victims: two different circles."))
    scenes = set(_crime_scenes(state))
    for circle in crimes:
        require(circle not in scenes,
                _("Circle %(circle)s is already a crime scene.", circle=circle))
    women = ", ".join(map(str, sorted(night["women"])))
    if _told(state):
        for circle in crimes:
            require(circle in night["wretched"],
                    _("No wretched stands on %(circle)s: the wretched are on %(circles)s.",
                      circle=circle, circles=", ".join(map(str, night["wretched"]))))
    if night["time"] == 1:
        # Nobody has moved the wretched yet: they stand where the marked women were.
        for circle in crimes:
            require(circle in night["women"],
                    _("No wretched stands on %(circle)s: at time I the wretched are on "
                      "%(women)s.", circle=circle, women=women))
    board = board_of(state)
    if board is not None and night["time"] > 1:
        # Each wait moved each wretched one road at most (Hell 6), so a victim
        # after k waits stands within k roads of a marked woman's circle. The
        # table knows more (patrols, occupied circles); that stays physical.
        waits = night["time"] - 1
        reach = board.circles_within(night["women"], waits)
        for circle in crimes:
            require(circle in reach,
                    ngettext("No wretched can be on %(circle)s: after %(n)s wait each wretched "
                             "has moved at most %(n)s circle along the dotted lines from the "
                             "marked women's circles (%(women)s), and %(circle)s is further.",
                             "No wretched can be on %(circle)s: after %(n)s waits each "
                             "wretched has moved at most %(n)s circles along the dotted lines "
                             "from the marked women's circles (%(women)s), and %(circle)s is "
                             "further.", waits, circle=circle, women=women))
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
        require(used < allowed, _token_refusal(kind, state["night"], allowed))
    check_move(state, kind, circles)
    _record_police(state)
    night["moves"].append({"kind": kind, "circles": circles})
    state["trapped_claim"] = False
    if _filled(night) == LAST_SQUARE:
        _end_game(state, "detectives", "square15")
    else:
        _start_hunting_turn(state, "police")


def _token_refusal(kind: str, night: int, allowed: int) -> Text:
    """No Coach or Alley token left tonight (Hell 1), in one sentence per token."""
    said = {"night": NIGHT_NAMES[night]}
    if kind == "coach":
        return ngettext("No Coach token left: %(night)s allows %(n)s Coach token, and you "
                        "have used it.",
                        "No Coach token left: %(night)s allows %(n)s Coach tokens, and you "
                        "have used all %(n)s.", allowed, **said)
    return ngettext("No Alley token left: %(night)s allows %(n)s Alley token, and you have "
                    "used it.",
                    "No Alley token left: %(night)s allows %(n)s Alley tokens, and you have "
                    "used all %(n)s.", allowed, **said)


def _escape(state: State, actor: Viewer, action: Mapping[str, str]) -> None:
    """The End of the Hunting: a normal move onto the hideout, declared as the
    escape (Special Movements: "the last move ... must always be a normal move")."""
    night = _night(state)
    hideout = state["hideout"]
    given = str(action.get("circle", "") or "").strip()
    circle = check_circle(given, "hideout circle") if given else hideout
    require(circle == hideout,
            _("You can only escape on your hideout, %(hideout)s; %(circle)s is not it.",
              hideout=hideout, circle=circle))
    if _location(night) == hideout:
        last = night["moves"][-1]["kind"] if night["moves"] else "crime"
        if last in ("coach", "alley"):
            raise RuleError(_("You reached your hideout with %(movement)s: you can escape "
                              "only with a normal move into it. Move on first.",
                              movement=SPECIAL_NAMES[last]))
        raise RuleError(_("You are already on your hideout: the escape is declared with the "
                          "normal move that enters it."))
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
    require(board is not None, _("Without a board file the detectives declare that Jack "
                                 "has no legal move, and Jack confirms it."))
    possible = _legal_move_left(state, board)
    require(possible is None, _("You still have a legal move: %(move)s.", move=possible))
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
    require(board is not None, _("Closed roads are marked only with a board file."))
    a = _board_circle(state, action.get("circle"), "circle at one end of the road")
    b = _board_circle(state, action.get("circle2"), "circle at the other end of the road")
    require(board.is_road(a, b), _("No road joins %(a)s and %(b)s: mark the two circles at "
                                   "the ends of the road the policeman stands on.", a=a, b=b))
    return sorted((a, b))


def _block(state: State, actor: Viewer, action: Mapping[str, str]) -> None:
    """Hunting 1: Jack "may not move over a crossing occupied by a policeman pawn".
    The detectives may mark such a road (board mode): Jack's coming normal move
    cannot take it, and the deduction map knows it. Marks stay from move to move
    until removed, as a policeman who does not move keeps the road closed."""
    night = _night(state)
    road = _road(state, action)
    require(road not in _marked_roads(night),
            _("The road %(a)s-%(b)s is already marked closed.", a=road[0], b=road[1]))
    require(len(_marked_roads(night)) < MAX_CLOSED_ROADS, _("That is enough closed roads."))
    # setdefault: a night saved before marks existed has no list yet.
    night.setdefault("blocked", []).append({"road": road, "move": len(night["moves"]) + 1})


def _unblock(state: State, actor: Viewer, action: Mapping[str, str]) -> None:
    """A policeman moved away: the road is open again for Jack's coming move."""
    night = _night(state)
    road = _road(state, action)
    coming = len(night["moves"]) + 1
    require(road in _marked_roads(night),
            _("The road %(a)s-%(b)s is not marked closed.", a=road[0], b=road[1]))
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
            _("That crossing is not on the board (%(board)s).", board=board.name)
            if board is not None else _("That crossing is not on the board."))
    return crossing


def _named(state: State, crossing: int) -> Text:
    """A crossing in a player's words: the real board prints no number on it ("the
    crossing between 29, 30 and 50", ``policemap.crossing_names``)."""
    return crossing_names(board_of(state))[crossing]


def _others_on(state: State, colour: str, crossing: int) -> None:
    """Hunting 2: a policeman "cannot end its move in the same crossing as another
    Policeman pawn" (nor can two pawns replace tokens on one crossing)."""
    for other, at in state["cops"]["at"].items():
        require(other == colour or at != crossing,
                _("The %(colour)s policeman stands on %(crossing)s: two policemen never share "
                  "a crossing.", colour=COLOUR_NAMES[other], crossing=_named(state, crossing)))


def _place(state: State, actor: Viewer, action: Mapping[str, str]) -> None:
    """Hell 9, "Alarm whistles": each policeman replaces his patrol token. Tokens
    stand on yellow-bordered crossings, and from the second night also where the
    policemen stood at the end of the night before (Hell 3). A policeman may be
    placed again until all five stand; then the hunt begins."""
    colour = parse_choice(action.get("policeman"), POLICEMEN, "policeman")
    require(colour in _movable(state, actor),
            _("The %(colour)s policeman is not yours to place: each detective places his own.",
              colour=COLOUR_NAMES[colour]))
    crossing = _crossing(state, action.get("crossing"))
    board = board_of(state)
    cops = state["cops"]
    starts = board.police_starts | set(cops["before"])
    if _told(state):
        require(crossing in _alarm_crossings(state, colour),
                _("The %(colour)s policeman replaces his own patrol token: not the one on "
                  "%(crossing)s (a fake patrol, another colour's, or none).",
                  colour=COLOUR_NAMES[colour], crossing=_named(state, crossing)))
    if crossing not in starts:
        named = _named(state, crossing)
        raise RuleError(
            _("No patrol token can be on %(crossing)s: tonight they stand on the "
              "yellow-bordered crossings (the ones the map offers).", crossing=named)
            if not cops["before"] else
            _("No patrol token can be on %(crossing)s: tonight they stand on where the "
              "policemen stood at the end of last night or on the yellow-bordered crossings "
              "(the ones the map offers).", crossing=named))
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
        require(_moves_left(state),
                _("Every policeman has moved: now they look for clues or arrest, and none "
                  "moves until Jack has moved again (Hunting 2, then 3)."))
        raise RuleError(_("The %(colour)s policeman is not yours to move: each detective "
                          "moves his own.", colour=COLOUR_NAMES[colour]))
    crossing = _crossing(state, action.get("crossing"))
    start = state["cops"]["from"][colour]
    require(crossing in board_of(state).police_moves(start),
            _("The %(colour)s policeman started on %(start)s: he moves up to two crossings "
              "(0, 1 or 2), and %(crossing)s is further.", colour=COLOUR_NAMES[colour],
              start=_named(state, start), crossing=_named(state, crossing)))
    _others_on(state, colour, crossing)
    state["cops"]["at"][colour] = crossing
    # Staying is a move of 0 crossings: either way this policeman's move is said.
    moved = state["police"]["moved"]
    if colour not in moved:
        moved.append(colour)


def _next_to(state: State, colour: str, circle: int) -> None:
    """Clues and Suspicion: both actions are "in the numbered circles adjacent to
    that policeman pawn" (police on the map)."""
    cops = state.get("cops")
    if cops is None:
        return
    crossing = cops["at"][colour]
    near = sorted(board_of(state).circles_next_to(crossing))
    require(circle in near, _("The %(colour)s policeman stands on %(crossing)s: he can look "
                              "for clues or arrest only on %(circles)s.",
                              colour=COLOUR_NAMES[colour], crossing=_named(state, crossing),
                              circles=", ".join(map(str, near))))


def commutes(seen: State, state: State, actor: Viewer, action: Mapping[str, str]) -> bool:
    """Whether a detective's placement or move, sent from a page that showed ``seen``,
    stands on ``state``, the table now (``companion.games.base``, ``commutes``).

    At the alarm and in the police's move each detective puts his own pawns on the
    board, and the others theirs at the same moment, as at the real table ("after
    consulting together, the detectives move their Policeman pawns", Hunting 2). What
    one of them did since cannot change what another's placement means: a move is
    counted from where the policeman stood when the turn began, not from the page; his
    own pawn is only his to move; and the one thing two pawns share, a crossing,
    ``apply`` checks against the table as it is now ("cannot end its move in the same
    crossing as another Policeman pawn"). So it stands while the table is still in the
    same phase of the same turn and nobody moved that policeman since. Anything else
    (a search, an arrest, Jack's move, the end of the turn in between) is refused as
    before: its meaning may depend on an answer the page did not show.
    (docs/RULINGS.md#letters-from-whitechapel, "Policemen at the same time".)"""
    kind = action.get("type")
    colour = action.get("policeman")
    if (kind not in ("place", "move_policeman") or not isinstance(actor, int)
            or actor == JACK or colour not in POLICEMEN
            or seen.get("cops") is None or state.get("cops") is None):
        return False
    same_turn = (seen["night"] == state["night"] and seen["phase"] == state["phase"]
                 and len(_night(seen)["moves"]) == len(_night(state)["moves"])
                 and seen["cops"]["from"] == state["cops"]["from"])
    return (same_turn and state["policemen"][colour] == actor
            and seen["cops"]["at"][colour] == state["cops"]["at"][colour])


def _false_clue(state: State, actor: Viewer, action: Mapping[str, str]) -> None:
    """Optional rule: Jack places a False clue in the clues phase; it shows
    exactly like a clue."""
    night = _night(state)
    if _false_clues_left(state) <= 0:
        real = sum(1 for clue in night["clues"] if not clue["false"])
        placed = sum(1 for clue in night["clues"] if clue["false"])
        raise RuleError(_("No False clue left: you earn one for every %(every)s clues found "
                          "in a night; %(real)s found tonight, %(placed)s placed.",
                          every=CLUES_PER_FALSE_CLUE, real=real, placed=placed))
    circle = _board_circle(state, action.get("circle"), "circle for the false clue")
    require(circle not in {c["circle"] for c in night["clues"]},
            _("There is already a clue marker on %(circle)s.", circle=circle))
    night["clues"].append({"circle": circle, "after_move": len(night["moves"]), "false": True})


def _policeman(state: State, actor: Viewer, action: Mapping[str, str]) -> str:
    """The acting policeman: controlled by ``actor`` and not yet done this turn."""
    colour = parse_choice(action.get("policeman"), POLICEMEN, "policeman")
    require(_controls(state, actor, colour),
            _("The %(colour)s policeman is not yours to move.", colour=COLOUR_NAMES[colour]))
    _every_policeman_moved(state)
    require(colour not in state["police"]["done"],
            _("The %(colour)s policeman has already acted this turn.",
              colour=COLOUR_NAMES[colour]))
    if not _may_speak(state, actor):
        speaker = _speaking(state)
        raise RuleError(_("%(player)s speaks first, for the %(colour)s policeman: the "
                          "detectives look for clues or arrest from the Head of the "
                          "Investigation clockwise (Hunting 3).",
                          player=state["players"][state["policemen"][speaker]],
                          colour=COLOUR_NAMES[speaker]))
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
            _("There is already a clue marker on %(circle)s tonight.", circle=circle))
    require(circle not in turn["searched"],
            _("The %(colour)s policeman has already searched %(circle)s this turn.",
              colour=COLOUR_NAMES[colour], circle=circle))
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
            _("The %(colour)s policeman is looking for clues: he cannot also make an arrest.",
              colour=COLOUR_NAMES[colour]))
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


def _every_policeman_moved(state: State) -> None:
    """Hunting 3 follows 2: no search or arrest until every policeman has moved or
    stayed, so no detective's question ends another's move."""
    left = _moves_left(state)
    if left:
        waiting = sorted({state["policemen"][c] for c in left})
        raise RuleError(_("First every policeman moves or stays (Hunting 2, then 3): wait "
                          "for %(players)s to move %(colours)s.",
                          players=listed([state["players"][s] for s in waiting]),
                          colours=listed([COLOUR_NAMES[c] for c in left])))


def _end_turn(state: State, actor: Viewer, action: Mapping[str, str]) -> None:
    """The host's override, for a detective whose phone died: the police's turn ends
    and the policemen who had not moved or acted forgo it, said to every phone until
    Jack has moved (docs/RULINGS.md#letters-from-whitechapel, "The police's turn")."""
    require(actor == TABLE,
            _("Each detective's policemen move and act for themselves: only the host at the "
              "table screen can end the police's turn early."))
    night = _night(state)
    night.setdefault("overrides", []).append({
        "after_move": len(night["moves"]),
        "forgone": [c for c in POLICEMEN if c not in state["police"]["done"]]})
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
    "patrol": _patrol,
    "wretched": _wretched,
    "reveal": _reveal,
    "turned": _turned,
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


def _legal_move_left(state: State, board: Board) -> Text | None:
    """A movement Jack can still make, in words; None when he has none that the
    companion knows of (the policemen's crossings only with police on the map)."""
    special = _special_movement_possible(state, board)
    if special or state.get("cops") is None:
        return special
    ends = board.normal_moves(_location(_night(state)), _closed_roads(state))
    if ends:
        return _("a normal move to %(circles)s (no policeman closes that road)",
                 circles=", ".join(map(str, sorted(ends))))
    return None


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
COMPANION_SHAPE = (None, frozenset(LEVELS))


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
        # Kept since the police's turn ran in the rulebook's order; older files lack it.
        check_shape(night.get("overrides", []), [{"after_move": int, "forgone": [_COLOUR]}],
                    "a night's ended police turns")
    check_shape(state["police"].get("moved", []), [_COLOUR], "the policemen who moved")
    # Kept since the companion plays Jack; older files lack it.
    check_shape(state.get("companion"), COMPANION_SHAPE, "the companion's level")
    require(not state.get("companion") or state.get("cops") is not None,
            "the companion plays Jack only with police on the map.")
    for night in state["nights"]:
        check_shape(night.get("unmarked", []), [int], "a night's unmarked women")
        named += night.get("unmarked", [])
        # Kept since the detectives tell the companion's Jack what the board shows.
        check_shape(night.get("patrols", []),
                    [{"crossing": int, "shows": (None, frozenset((*POLICEMEN, FAKE)))}],
                    "a night's patrol tokens")
        check_shape(night.get("wretched", []), [int], "a night's wretched")
        check_shape(night.get("moved", []), [int], "the wretched moved")
        check_shape(night.get("turning"), (None, int), "the patrol token turned")
        named += night.get("wretched", []) + night.get("moved", [])
    named += state["police"]["searched"]
    require(set(named) <= circles, "a circle is not on the board.")
