"""The game protocol every rules module follows, and the mechanics games share.

A game is a pure module (no Flask, no SQL, no I/O) with this surface:

``NAME``, ``TITLE``, ``MIN_PLAYERS``, ``MAX_PLAYERS``, ``DEFAULT_PLAYERS``
    Registry key, display name and seat counts.
``FIXED_SEATS``
    Seat positions that the host may not remove before the start
    (Jack's seat, say). Every other empty seat may go while enough remain.
``seat_labels(count, options) -> list[str]``
    What each seat is called at the table ("Jack", "Detective 1", ...).
``default_options() -> dict`` / ``parse_options(form, count) -> dict``
    The setup form: the defaults, and the checked options from the posted
    form fields (strings). Raises ``RuleError`` on bad values.
``setup(options, players, rng) -> state``
    ``players`` are the seat names in seat order. The state is a
    JSON-serialisable dict.
``apply(state, actor, action, rng) -> state``
    ``actor`` is a seat position (int) or ``TABLE`` (the host at the table
    screen). ``action`` is a mapping of strings from a form, with its name under
    ``"type"``. Returns a new state or raises ``RuleError``; never mutates
    its input. Every game calls ``check_call`` first, so that anything but a
    mapping, and any actor but ``TABLE`` or a seat position proper (never
    ``True`` nor ``1.0``), is refused alike in every game. The log keeps only
    the fields ``apply`` read (by key: ``get``, ``[]``, ``in``), so read a
    group of fields with ``fields_named``, never by looping over ``items()``.
``view(state, viewer) -> dict``
    Everything ``viewer`` (a seat position or ``TABLE``) may see and nothing
    else. Templates only ever receive views. A view may name the seats anew
    under ``"seat_labels"`` (characters drawn at the deal, say).
``actions(state, viewer) -> list[str]``
    The action types ``viewer`` may submit now.
``is_over(state) -> bool``
    Whether the game has ended.
``form_from(options) -> dict[str, str]``
    The setup form's fields for ``options`` (the inverse of ``parse_options``),
    so a remembered table pre-fills the form.
``check_state(state) -> None``
    Whether ``state`` is one this game can reach and show: its shape (keys and types)
    and its invariants (counts, seats and cards in range, a known phase). Raises
    ``RuleError`` naming what is wrong. An imported file's every state must pass it
    (``companion/importing.py``); ``check_shape`` below does the shape part.
``commutes(seen, state, actor, action) -> bool`` (optional)
    Whether ``action``, sent from a page that showed ``seen``, means the same on
    ``state``, the table as it is now: only other players' actions happened since and
    none of them touched what it asks (a detective placing his own policeman while
    another places his). ``apply`` still checks it against ``state``. Without it, an
    action from a page behind the table is refused ("the table moved on").
``view(state, viewer)["reveal"]`` (a view key, optional)
    Once ``is_over``, and never before: what the end turns over and how the game went,
    as ``reveal_view(facts, title, steps)`` below makes it; the ``reveal`` macro of
    ``templates/_macros.html`` draws it on the table screen and every phone. A game
    keeps the history its reveal reads in its own state as it goes (the platform
    passes no log), so a reveal is a function of the last state alone.
``result(state) -> dict`` (optional)
    A finished game as the club's history keeps it (``companion/history.py``; refused
    with ``RuleError`` before the end): ``side`` ("jack", "detectives" or "players" for
    a game without sides), ``winner`` (words: "Jack", "the detectives"), ``winners``
    and ``jack`` (seats), ``jack_side`` (Jack and his accomplices), ``points`` (a number
    per seat, or None), ``ending`` (a short key: "escape", "arrest") and ``how`` (a
    sentence: "Jack reached his hideout on night 4"); Letters from Whitechapel adds
    ``hideout``, ``crimes`` and ``board`` for the heat map. Without it a game's ends
    are not in the history. ``ENDING_WORDS`` (a dict beside it) names each ``ending``
    for the history's tally of how games end.
``companion_seats(options) -> list[int]``, ``companion_seat(state) -> int | None`` and
``companion_action(state, rng) -> dict`` (optional, together)
    The companion plays a seat (Letters from Whitechapel's Jack): the seats it takes when
    the table is made (no phone joins them), the seat it acts for now (None: a person
    acts), and its action then. ``companion.tables`` applies its actions at once, in the
    transaction of the action that handed it the turn, each logged as that seat's; the
    host's undo takes back a person's last action with the companion's after it.
``options_for_next_game(state) -> dict`` (optional)
    Options the table learnt during a game (a card's value, say); the next game
    at the table, and the next new table of this game, start from them.
``OPTION_WORDS`` (optional, a dict)
    The setup form's fields by the name its page gives them (a key ending in "_" names
    every field it begins), so that a new table that starts from the last one's options
    says in words which it kept (``companion/web/lobby.py``); a field without a word is
    counted among "other options".
``replay_nights(states, table_ended) -> list[dict]`` and
``replay_frames(states, night, table_ended) -> list[dict]``
    (optional, together) A game told in nights may replay each one step by step
    (``/t/<code>/replay``, companion/web/replay.py). ``states`` are one game's states in
    the order of its log, undone ones left out. ``replay_nights`` lists the nights that
    may be replayed now, each ``{"number": int, "label": str}``: only nights that ended,
    never the one being played. ``replay_frames`` gives one of them, a frame per step,
    each with a public ``caption`` and whatever the game's ``_replay.html`` draws (raises
    ``RuleError`` for a night not listed). Before the end a frame may hold only what the
    table screen showed at that step: the replay of a running game reveals nothing.
    ``table_ended``: the host ended the table (status "closed"), which can never play
    on: the game counts as over, for what a frame may show as for the nights listed
    (the one play stopped in too).

The host is deliberately not a viewer: host controls are the platform's
business, so no game can leak a secret to the host by mistake. The host's
screen shows the ``TABLE`` view.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Mapping, Sequence
from typing import Any, Protocol, TypeVar

from companion.words import Text, _, ngettext

WHOLE_NUMBER = re.compile(r"[+-]?[0-9]+")

TABLE = "table"
"""The viewer (and actor) for the public table screen."""

Viewer = int | str
State = dict[str, Any]
T = TypeVar("T")


class RuleError(Exception):
    """An action the rules refuse; the message (a ``companion.words.Text``) is shown to
    the player in their language."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class Game(Protocol):
    NAME: str
    TITLE: str
    MIN_PLAYERS: int
    MAX_PLAYERS: int
    DEFAULT_PLAYERS: int
    FIXED_SEATS: frozenset[int]

    def seat_labels(self, count: int, options: Mapping[str, Any]) -> list[str]: ...
    def default_options(self) -> dict[str, Any]: ...
    def parse_options(self, form: Mapping[str, str], count: int) -> dict[str, Any]: ...
    def setup(self, options: Mapping[str, Any], players: Sequence[str],
              rng: random.Random) -> State: ...
    def apply(self, state: State, actor: Viewer, action: Mapping[str, str],
              rng: random.Random) -> State: ...
    def view(self, state: State, viewer: Viewer) -> dict[str, Any]: ...
    def actions(self, state: State, viewer: Viewer) -> list[str]: ...
    def is_over(self, state: State) -> bool: ...
    def form_from(self, options: Mapping[str, Any]) -> dict[str, str]: ...
    def check_state(self, state: Any) -> None: ...


# --- helpers for apply() -------------------------------------------------

def evolve(state: State) -> State:
    """A deep copy to change, so that apply() never mutates its input.

    Through JSON, as the state is kept between two actions: several times quicker than
    ``copy.deepcopy`` on a long game, and a state that JSON would change (a tuple, a
    number as a key) shows up in the tests rather than after the next reload."""
    return json.loads(json.dumps(state))


def parse_int(value: Any, low: int, high: int, what: str) -> int:
    """A whole number from a form field, within [low, high], or a RuleError."""
    text = str(value if value is not None else "").strip()
    # ``what`` names the field ("circle", a game's Text): each sentence takes it whole,
    # without an article, since German and French articles depend on the word.
    if not text:
        raise RuleError(_("Please enter the %(what)s.", what=what))
    # Plain ASCII digits only: int() would also take "1_000" and other scripts' digits.
    if not WHOLE_NUMBER.fullmatch(text):
        raise RuleError(_("The %(what)s must be a whole number, not “%(text)s”.", what=what,
                          text=text[:20]))
    if len(text) > 12:
        raise RuleError(_("The %(what)s must be between %(low)s and %(high)s; %(text)s… is "
                          "not.", what=what, low=low, high=high, text=text[:12]))
    number = int(text)
    if not low <= number <= high:
        raise RuleError(_("The %(what)s must be between %(low)s and %(high)s; %(number)s is "
                          "not.", what=what, low=low, high=high, number=number))
    return number


def int_or_none(value: Any, low: int, high: int) -> int | None:
    """A whole number as strict as ``parse_int``, for what nobody typed (a link's
    ``?to=82``, say): the number within [low, high], or None for anything else."""
    try:
        return parse_int(value, low, high, "number")
    except RuleError:
        return None


def parse_choice(value: Any, choices: Sequence[T], what: str) -> T:
    """One of ``choices`` (matched as text), or a RuleError naming them."""
    text = str(value if value is not None else "").strip()
    for choice in choices:
        if str(choice) == text:
            return choice
    if not text:
        raise RuleError(_("Please choose the %(what)s.", what=what))
    raise RuleError(_("“%(text)s” is not a %(what)s you can choose here.", text=text[:40],
                      what=what))


def parse_bool(value: Any) -> bool:
    """A checkbox: present and not 'off'/'0'/'false' means on."""
    return str(value if value is not None else "").strip().lower() not in (
        "", "0", "off", "false", "no")


def parse_names(text: Any, count: int, what: str) -> list[str]:
    """Exactly ``count`` non-empty, distinct names, one per line."""
    names = [line.strip() for line in str(text or "").splitlines() if line.strip()]
    if len(names) != count:
        raise RuleError(ngettext("Please give exactly %(n)s %(what)s, one per line "
                                 "(%(given)s given).",
                                 "Please give exactly %(n)s %(what)s, one per line "
                                 "(%(given)s given).", count, what=what, given=len(names)))
    if any(len(name) > 60 for name in names):
        raise RuleError(_("Each of the %(what)s must be at most %(count)s characters long.",
                          what=what, count=60))
    if len(set(names)) != len(names):
        raise RuleError(_("The %(what)s must all be different.", what=what))
    return names


def ordinal(number: int) -> str:
    """1st, 2nd, 3rd, 4th ... 11th, 12th, 13th, 21st: where a card lies, in a default name.
    A Text: German writes 1., 2., French 1er, 2e (each English ending is its own msgid,
    and the first its own again, which French alone writes otherwise)."""
    if number == 1:
        return _("1st")
    if 10 <= number % 100 <= 20:
        return _("%(n)sth", n=number)
    last = number % 10
    if last == 1:
        return _("%(n)sst", n=number)
    if last == 2:
        return _("%(n)snd", n=number)
    if last == 3:
        return _("%(n)srd", n=number)
    return _("%(n)sth", n=number)


def require(condition: bool, message: str) -> None:
    """Refuse an action with ``message`` unless ``condition`` holds."""
    if not condition:
        raise RuleError(message)


def is_seat(actor: Any, count: int) -> bool:
    """A seat position of a table of ``count`` seats: an ``int`` proper, so neither
    ``True`` (a bool is an int to Python) nor ``1.0`` passes for seat 1."""
    return type(actor) is int and 0 <= actor < count


def check_call(actor: Any, action: Any, count: int) -> None:
    """What every game's ``apply`` checks first, so that every game refuses the same
    malformed calls in the same words: the action must be a mapping (a form's fields) and
    the actor the table screen or one of the ``count`` seats."""
    if not isinstance(action, Mapping):
        raise RuleError(_("An action is a form's fields (a type and its values); this is "
                          "not one."))
    if actor != TABLE and not is_seat(actor, count):
        raise RuleError(ngettext("Only the table screen or one of this table's %(n)s seats "
                                 "can act here.",
                                 "Only the table screen or one of this table's %(n)s seats "
                                 "can act here.", count))


def fields_named(action: Mapping[str, str], prefix: str) -> dict[str, str]:
    """A group of fields by the rest of their names (the boxes ``position_1`` to
    ``position_5`` as ``{"1": ..., "5": ...}``). Reads only the group's fields: the
    platform keeps of an action just what its game read (``companion.tables.act``)."""
    return {key[len(prefix):]: action[key] for key in action
            if isinstance(key, str) and key.startswith(prefix)}


def require_type(action: Mapping[str, str], allowed: Sequence[str]) -> str:
    """The action's type, refused unless it is one of ``allowed`` now."""
    kind = str(action.get("type", ""))
    if kind not in allowed:
        raise RuleError(_("That is not something you can do right now."))
    return kind


# --- shared mechanics ----------------------------------------------------

def shuffled(cards: Sequence[T], rng: random.Random) -> list[T]:
    """A new list with ``cards`` in random order (the deck stays as given)."""
    deck = list(cards)
    rng.shuffle(deck)
    return deck


def draw(deck: list[T], count: int = 1) -> list[T]:
    """Take ``count`` cards off the top (index 0) of ``deck``, in place."""
    if count > len(deck):
        raise RuleError(_("There are not enough cards left in the deck."))
    taken = deck[:count]
    del deck[:count]
    return taken


def seat_order(count: int, first: int) -> list[int]:
    """Seat positions clockwise (increasing position) starting at ``first``."""
    return [(first + step) % count for step in range(count)]


def next_seat(count: int, current: int, skip: Sequence[int] = ()) -> int:
    """The next seat clockwise after ``current``, passing over ``skip``."""
    for step in range(1, count + 1):
        candidate = (current + step) % count
        if candidate not in skip:
            return candidate
    raise RuleError(_("Nobody is left to play."))


# --- the reveal at the end of a game (templates/_macros.html ``reveal``) ---------------

def reveal_step(when: str, text: str, kind: str | None = None,
                lines: Sequence[str] = ()) -> dict[str, Any]:
    """One step of a reveal's timeline: when ("Round 4", "Turn 2"), what happened, its kind
    (the page's class and ``data-step``: "found", "murder", "end"...) and the lines under it
    (the characters of a turn, the suspects it cleared)."""
    return {"when": when, "text": text, "kind": kind, "lines": list(lines)}


def reveal_view(facts: Sequence[tuple[str, str]], title: str,
                steps: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """A view's ``reveal``: the secrets the end turns over (label, text), then the
    timeline under ``title``, its steps made by ``reveal_step`` in the order they
    happened."""
    return {"facts": [{"label": label, "text": text} for label, text in facts],
            "title": title, "steps": [dict(step) for step in steps]}


# --- checking a state from outside (an imported file) ----------------------------

THE_STATE = _("the state")
"""Where ``check_shape`` starts naming a place; a path below it keeps this in the
reader's language ("der Spielstand.players[2]")."""


def check_shape(value: Any, shape: Any, where: str = THE_STATE) -> None:
    """``value`` has ``shape``, or a RuleError saying where it does not.

    A shape is a type (``int`` never takes a bool), ``None``, a tuple of shapes (any
    of them), a frozenset of the allowed values, ``[shape]`` for a list of such items,
    or ``{key: shape}`` for a dict with at least those keys (each of that shape).
    Only as deep as the shape, so a hostile value cannot make it recurse without end.
    A quick pass says whether it fits; only a value that does not is walked again to
    name the place (an import checks thousands of states).
    """
    if not _fits(value, shape):
        _explain(value, shape, where)


def _fits(value: Any, shape: Any) -> bool:
    if isinstance(shape, tuple):
        return any(_fits(value, option) for option in shape)
    if shape is None:
        return value is None
    if isinstance(shape, frozenset):
        return isinstance(value, (str, int)) and value in shape
    if isinstance(shape, list):
        if not isinstance(value, list):
            return False
        if shape[0] is int:  # the common case (circles, seats), without a call per item
            return all(type(item) is int for item in value)
        return all(_fits(item, shape[0]) for item in value)
    if isinstance(shape, dict):
        return isinstance(value, dict) and all(
            key in value and _fits(value[key], part) for key, part in shape.items())
    if shape is int:
        return type(value) is int
    return isinstance(value, shape)


def _explain(value: Any, shape: Any, where: str) -> None:
    """The RuleError naming where ``value`` departs from ``shape``."""
    if isinstance(shape, tuple):
        for option in shape:
            if _fits(value, option):
                return
        _explain(value, shape[-1], where)
    elif shape is None:
        raise RuleError(_("%(where)s must be empty (null).", where=where))
    elif isinstance(shape, frozenset):
        raise RuleError(_("%(where)s is not one of the values it can take.", where=where))
    elif isinstance(shape, list):
        require(isinstance(value, list), _("%(where)s must be a list.", where=where))
        for index, item in enumerate(value):
            if not _fits(item, shape[0]):
                _explain(item, shape[0], Text("%(where)s[%(index)s]",
                                              params={"where": where, "index": str(index)}))
    elif isinstance(shape, dict):
        require(isinstance(value, dict), _("%(where)s must be a set of fields.", where=where))
        for key, part in shape.items():
            require(key in value, _("%(where)s has no “%(key)s”.", where=where, key=key))
            if not _fits(value[key], part):
                _explain(value[key], part, Text("%(where)s.%(key)s",
                                                params={"where": where, "key": str(key)}))
    elif shape is int:
        raise RuleError(_("%(where)s must be a whole number.", where=where))
    else:
        raise RuleError(_("%(where)s must be %(kind)s.", where=where, kind=shape.__name__))


def check_seat(value: Any, count: int, where: str) -> None:
    """A seat position of a game of ``count`` players."""
    require(is_seat(value, count), _("%(where)s is not a seat.", where=where))
