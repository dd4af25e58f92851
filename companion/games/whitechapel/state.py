"""Letters from Whitechapel's state as every module of the game reads it.

The game's vocabulary (the nights, the phases, the policemen, the track's squares),
the readings of a state (tonight's row, Jack's circle, the Head of the Investigation,
the roads closed for Jack's coming move) and ``actions``: what a seat may submit now.
``rules`` (setup, apply, an imported state) and ``views`` (what each seat sees) both
read the state through this module: ``rules`` imports ``views`` and this module,
``views`` only this one, and this one neither. The imports run one way, with no loop,
so any of the three may be imported first.

The helpers keep their leading underscore: they are the game's own insides, shared by
its modules, not an interface for the platform (which reads the game through
``rules``, the module the registry finds).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.base import TABLE, State, Viewer, seat_order
from companion.games.whitechapel.board import Board, board_from_graph
from companion.words import Text, _

NAME = "whitechapel"
TITLE = _("Letters from Whitechapel")
JACK = 0

LAST_SQUARE = 15
"""Hunting 1: filling square 15 without escaping loses the game."""

ROMAN = ("I", "II", "III", "IV", "V")
"""Squares 1-5 of a row are the times of the crime (docs/RULINGS.md#letters-from-whitechapel,
"Jack's sheet")."""

POLICEMEN = ("blue", "yellow", "brown", "red", "green")
"""Components: "1 each of blue, yellow, brown, red, and green"."""

COLOUR_NAMES: dict[str, Text] = {
    "blue": _("blue"), "yellow": _("yellow"), "brown": _("brown"), "red": _("red"),
    "green": _("green"),
}
"""Each policeman as a page names him: the colour stays the state's key, the word is
the reader's."""

COLOUR_TITLES: dict[str, Text] = {
    "blue": _("Blue"), "yellow": _("Yellow"), "brown": _("Brown"), "red": _("Red"),
    "green": _("Green"),
}
"""A policeman's name at the start of a line or a button ("Blue does nothing")."""

RESULTS: dict[str, Text] = {
    "clue": _("clue"), "no clue": _("no clue"), "arrested": _("arrested"),
    "not here": _("not here"),
}
"""The answer to a search or an arrest, by its key (a log line keeps the key)."""

KIND_NAMES: dict[str, Text] = {
    "move": _("move"), "coach": _("coach"), "alley": _("alley"), "crime": _("crime"),
}
"""A square of Jack's row or a movement, by its kind."""

NIGHTS: dict[int, dict[str, Any]] = {
    1: {"date": _("August 31st, 1888"), "coaches": 3, "alleys": 2, "women": 8, "marked": 5},
    2: {"date": _("September 8th, 1888"), "coaches": 2, "alleys": 2, "women": 7, "marked": 4},
    3: {"date": _("September 30th, 1888"), "coaches": 2, "alleys": 1, "women": 6, "marked": 3},
    4: {"date": _("November 9th, 1888"), "coaches": 1, "alleys": 1, "women": 4, "marked": 1},
}
"""Hell 1-2: special movement tokens and woman tokens per night."""

DOUBLE_EVENT = 3
"""The Third Night: two murders, the detectives act first."""

CLUES_PER_FALSE_CLUE = 5
"""Optional rule: a False clue for every five clue markers revealed in a night."""

PHASES: dict[str, Text] = {
    "hideout": _("Setup: Jack's hideout"),
    "women": _("Hell: the targets are identified"),
    "patrols": _("Hell: patrolling the streets"),
    "letter": _("Hell: Jack's letter"),
    "blood": _("Hell: blood on the streets"),
    "suspense": _("Hell: suspense grows"),
    "ready": _("Hell: ready to kill"),
    "turned": _("Hell: ready to kill"),
    "alarm": _("Hell: alarm whistles"),
    "jack": _("Hunting: escape in the night"),
    "police": _("Hunting: the police hunt the monster"),
    "over": _("The end of the game"),
}

PATROL_TOKENS = 7
"""Components: 7 police patrol tokens, five marked with the policemen's colours."""

FAKE = "fake"
"""What a turned patrol token shows when it is one of the two fake patrols (Hell 7)."""

TOKEN_KEYS = {"coach": "coaches", "alley": "alleys"}
POLICE_ACTIONS = ("search", "arrest", "done")
"""What the detective who speaks may say for a policeman of his in Hunting 3."""


def listed(items: list[Any], semicolons: bool = False, commas: bool = False) -> Any:
    """``items`` as one phrase, "a, b and c" (or "a; b; c", or "a, b, c"): each joint a
    sentence of its own for the translator, never words glued together. "" for no item."""
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    if semicolons:
        return _("%(first)s; %(rest)s", first=items[0], rest=listed(items[1:], True))
    if commas:
        return _("%(first)s, %(rest)s", first=items[0],
                 rest=listed(items[1:], commas=True))
    if len(items) == 2:
        return _("%(first)s and %(last)s", first=items[0], last=items[1])
    return _("%(first)s, %(rest)s", first=items[0], rest=listed(items[1:]))


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


def _told(state: State) -> bool:
    """Whether the detectives tell the app what the board shows Jack and the app does
    not know (the patrol tokens' crossings, where each wretched goes, what a turned
    token shows): at a table where the companion plays Jack, who must see them as a
    human Jack does (docs/RULINGS.md#letters-from-whitechapel, "The companion plays
    Jack"). With a human Jack they stay on the real board."""
    return bool(state.get("companion"))


def _patrols_standing(night: Mapping[str, Any]) -> list[int]:
    """The crossings of the patrol tokens on the board: a fake one turned over leaves
    it (Hell 7)."""
    return [p["crossing"] for p in night.get("patrols", []) if p["shows"] != FAKE]


def _new_patrol_crossings(state: State) -> list[int]:
    """From the second night, the yellow-bordered crossings no policeman held at the end
    of the night before: the Head puts two patrol tokens among them, the other five
    where the policemen stood (Hell 3), who stand there until the alarm."""
    board = board_of(state)
    return sorted(board.police_starts - set(_policed(state)))


def _patrols_to_tap(state: State) -> int:
    """How many patrol crossings the Head still taps in: the two new ones of a night
    after the first, when he has a choice (on the first night all seven stand on the
    seven yellow-bordered crossings, and the app knows them)."""
    if not _told(state) or state["phase"] != "patrols" or state["night"] == 1:
        return 0
    if len(_new_patrol_crossings(state)) <= 2:
        return 0
    return 2 - len(_night(state).get("patrols", []))


def _wretched_moves(state: State, circle: int) -> list[int]:
    """Where the Head may move the wretched on ``circle`` (Hell 6): along a road to an
    adjacent circle no other wretched and no crime scene holds, never past a patrol
    token nor next to one."""
    board = board_of(state)
    night = _night(state)
    patrols = _patrols_standing(night)
    watched = {c for x in patrols for c in board.circles_next_to(x)}
    taken = set(night["wretched"]) | set(_crime_scenes(state))
    return sorted(board.normal_moves(circle, board.closed_roads(patrols)) - watched - taken)


def _wretched_to_move(state: State) -> list[int]:
    """The wretched the Head has still to move in this Suspense (those with no legal
    move stay where they are: Hell 6)."""
    if state["phase"] != "suspense" or not _told(state):
        return []
    night = _night(state)
    return [c for c in night["wretched"] if c not in night["moved"]
            and _wretched_moves(state, c)]


def _alarm_crossings(state: State, colour: str) -> list[int]:
    """Where a policeman may replace his patrol token at the alarm (Hell 9), when the
    detectives told the app where the tokens stand: the token turned over showing his
    colour, else any still face down."""
    patrols = _night(state).get("patrols", [])
    own = [p["crossing"] for p in patrols if p["shows"] == colour]
    return own or [p["crossing"] for p in patrols if p["shows"] is None]


def is_over(state: State) -> bool:
    """Whether the game has ended (End of the Game)."""
    return state["phase"] == "over"


# --- the board ---------------------------------------------------------------

def board_of(state: State) -> Board | None:
    """The table's board (board mode), or None: numbers only."""
    graph = state.get("board")
    return board_from_graph(graph) if isinstance(graph, Mapping) else None


def _board_label(state: State) -> str | None:
    graph = state.get("board")
    return str(graph["board"]) if isinstance(graph, Mapping) else None


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
    if phase == "patrols":
        return (["patrol"] if _patrols_to_tap(state) else ["patrols_placed"]) \
            if is_head else []
    if phase == "suspense":
        return (["wretched"] if _told(state) else ["wretched_moved"]) if is_head else []
    if phase == "ready":
        return ["reveal"] if is_jack else []
    if phase == "turned":
        return ["turned"] if is_head else []
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
        # The host's override (a detective whose phone died): only the table screen ends
        # the police's turn before every policeman has acted (docs/RULINGS.md
        # #letters-from-whitechapel, "The police's turn").
        host = ["end_turn"] if viewer == TABLE else []
        if _moves_left(state):
            return (["move_policeman"] if _movable(state, viewer) else []) + host
        marks = (["block", "unblock"] if state.get("cops") is None
                 and board_of(state) is not None else [])
        if _policemen_to_act(state, viewer) and _may_speak(state, viewer):
            return list(POLICE_ACTIONS) + marks + host
        return marks + host
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
    # tell where both are. Whether a road leads home is checked when he taps it
    # (docs/RULINGS.md#letters-from-whitechapel, "Escape").
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


def _movable(state: State, viewer: Viewer) -> list[str]:
    """The policemen ``viewer`` may put on a crossing now (police on the map): his
    own, at the alarm ("They replace the color-marked tokens with the corresponding
    Policeman pawns", each detective his own pawns, in any order: see
    docs/RULINGS.md#letters-from-whitechapel, "Policemen at the same time") and in the
    police's move (Hunting 2: "Each player moves the pawn(s) whose policemen he
    controls"), again if he tapped the wrong crossing, until the last policeman has
    moved or stayed (Hunting 3 follows 2). The table screen's host may place or move any."""
    if state.get("cops") is None or viewer == JACK:
        return []
    if state["phase"] == "police" and not _moves_left(state):
        return []
    if state["phase"] not in ("alarm", "police"):
        return []
    return [c for c in POLICEMEN if _controls(state, viewer, c)]


def _moves_left(state: State) -> list[str]:
    """Hunting 2 before 3, police on the map: the policemen, in the police's order, who
    have neither moved nor stayed this turn. Until none is left nobody looks for clues
    or arrests, so no tap of one detective ends another's move. (A turn saved before the
    companion kept the moves has none left: its searches had already begun.)"""
    if state["phase"] != "police" or state.get("cops") is None:
        return []
    moved = state["police"].get("moved", POLICEMEN)
    return [c for c in _police_order(state) if c not in moved]


def _policemen_to_act(state: State, viewer: Viewer) -> list[str]:
    if state["phase"] != "police":
        return []
    return [c for c in _police_order(state)
            if c not in state["police"]["done"] and _controls(state, viewer, c)]


def _speaking(state: State) -> str | None:
    """The policeman whose detective speaks now in Hunting 3 ("Starting with the head
    of the investigation and proceeding clockwise around the table, each detective
    states, for each policeman pawn he controls..."): the one searching, else the first
    in the order who has not acted. His detective may speak for any of his own that
    have not acted (he chooses their order, as in Hunting 2)."""
    if state["phase"] != "police":
        return None
    turn = state["police"]
    if turn["searching"]:
        return turn["searching"]
    return next((c for c in _police_order(state) if c not in turn["done"]), None)


def _may_speak(state: State, viewer: Viewer) -> bool:
    """Whether ``viewer`` (a detective or the table) speaks now in Hunting 3."""
    colour = _speaking(state)
    return colour is not None and _controls(state, viewer, colour)
