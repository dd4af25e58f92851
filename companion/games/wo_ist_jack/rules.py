"""Wo ist Jack the Ripper's rules: the setup form and its story cards, Set-up, the moves of
the Course of the Game and the Action cards (``apply``), what each reporter may do now
(``actions``), and which answers to an announced print still stand on a table that moved
on (``commutes``).
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.base import (
    RuleError,
    State,
    Viewer,
    check_call,
    draw,
    evolve,
    next_seat,
    parse_choice,
    parse_int,
    parse_names,
    require,
    require_type,
    shuffled,
)
from companion.games.wo_ist_jack.score import score
from companion.games.wo_ist_jack.state import (
    ACTION_CARDS,
    AMERIKA,
    ANNIE,
    DEFAULT_STORIES,
    DRUCKMASCHINE,
    MAX_STORY_POINTS,
    MIN_STORY_POINTS,
    MORDSERIE,
    POLIZEI,
    PRINT_WINDOW_SECONDS,
    REPORTER_IN_U_HAFT,
    REPORTERTEAM,
    RULEBOOK_STORIES,
    STORY_CARD_COUNT,
    TITLE,
    _about_to_print,
    _name,
    _press_broken,
    _quoted,
    _seat,
    _shown,
    _turn_action,
)
from companion.words import Text, _, ngettext

MIN_PLAYERS = 2
MAX_PLAYERS = 6
DEFAULT_PLAYERS = 4
FIXED_SEATS: frozenset[int] = frozenset()

DECK_FIELDS = ("stories",)
"""The setup form's fields that name this game's cards: typed once on the laptop's
decks page and used for every later table (companion/decks.py)."""

REMOVED_STORIES: dict[int, tuple[str, ...]] = {
    3: (POLIZEI, ANNIE),
    2: (POLIZEI, ANNIE, AMERIKA, MORDSERIE),
}
"""Special Rules for 2 or 3 Players: "With three, remove ...; with two, also remove ..."."""

INVESTIGATIONS_PER_TURN = 2
"""Course of the Game: "In his turn a player may undertake 2 Investigations"."""

U_HAFT_COPIES = 2
"""Action Cards: "Reporter in U-Haft [2x]"; each stays in front of its reporter."""

RANDOM_START = "random"
ACTION_TYPES = ("start_player", "print", "pass", "settle", "end_turn", "u_haft",
                "reporterteam", "druckmaschine")


# --- seats and options -----------------------------------------------------

def seat_labels(count: int, options: Mapping[str, Any]) -> list[str]:
    """Every seat is a reporter ("As reporters the players ...")."""
    return [_("Reporter %(number)s", number=number) for number in range(1, count + 1)]


def default_options() -> dict[str, Any]:
    """The rulebook's story names (and placeholders), no point values known yet."""
    return {"story_names": list(DEFAULT_STORIES), "story_points": {}}


def parse_options(form: Mapping[str, str], count: int) -> dict[str, Any]:
    """The options from the setup form's ``stories`` field."""
    _check_count(count)
    names, points = _parse_stories(form.get("stories"))
    return {"story_names": names, "story_points": points}


def form_from(options: Mapping[str, Any]) -> dict[str, str]:
    """The setup form's fields filled in from ``options`` (the inverse of parse_options).

    Remembered options from an older version may lack a key: the defaults fill it.
    """
    points = options.get("story_points") or {}
    lines = [f"{name} = {points[name]}" if name in points else name
             for name in options.get("story_names") or DEFAULT_STORIES]
    return {"stories": "\n".join(lines)}


def options_for_next_game(state: State) -> dict[str, Any]:
    """This game's options with every point value learnt so far, to remember per table."""
    return {"story_names": list(state["story_names"]),
            "story_points": dict(state["story_points"])}


def _check_count(count: int) -> None:
    require(MIN_PLAYERS <= count <= MAX_PLAYERS,
            _("%(game)s is for %(low)s to %(high)s reporters, not %(count)s.", game=TITLE,
              low=MIN_PLAYERS, high=MAX_PLAYERS, count=count))


def _parse_stories(text: Any) -> tuple[list[str], dict[str, int]]:
    """``Name`` or ``Name = points`` per line; the rulebook's four names must be there."""
    names: list[str] = []
    points: dict[str, int] = {}
    for line in str(text or "").splitlines():
        name, equals, value = line.rpartition("=") if "=" in line else (line, "", "")
        name = name.strip()
        if not name:
            require(not equals, _("Each story card needs its name before the “=”."))
            continue
        # Only one "=" per line, so that every name written back reads the same.
        require("=" not in name, _("“%(name)s”: a story name cannot contain “=”, which "
                                   "separates the name from its point value.",
                                   name=name[:60]))
        names.append(name)
        if value.strip():
            points[name] = parse_int(value, MIN_STORY_POINTS, MAX_STORY_POINTS,
                                     _("point value of “%(name)s”", name=name[:60]))
    names = parse_names("\n".join(names), STORY_CARD_COUNT, _("story cards"))
    for needed in RULEBOOK_STORIES:
        require(needed in names, _("The story cards must include “%(story)s”: the rulebook "
                                   "takes it out of the game with 2 or 3 players.",
                                   story=needed))
    return names, points


# --- setup ------------------------------------------------------------------

def setup(options: Mapping[str, Any], players: Sequence[str], rng: random.Random) -> State:
    """Set-up: shuffle the Story cards (less the 2/3-player removals), turn two face up.

    Nobody is active until the start player is chosen (``start_player``).
    """
    count = len(players)
    _check_count(count)
    names = list(options["story_names"])
    removed = [name for name in names if name in REMOVED_STORIES.get(count, ())]
    deck = shuffled([name for name in names if name not in removed], rng)
    current, upcoming = draw(deck, 2)
    state: State = {
        "players": list(players),
        "story_names": names,
        "story_points": dict(options.get("story_points", {})),
        "removed": removed,
        "stories_in_play": len(names) - len(removed),
        "deck": deck,
        "current": current,
        "next": upcoming,
        "printed": [],
        "cards_played": [],
        "answer": None,
        "active": None,
        "turn": 0,
        "investigations": INVESTIGATIONS_PER_TURN,
        "prints_this_turn": 0,
        "u_haft": [0] * count,
        "reporterteam": None,
        "press_broken": None,
        "about_to_print": None,
        "log": [],
        "log_words": [],
        "over": False,
    }
    if removed:
        _log(state, _("With %(count)s reporters these stories are out of the game: "
                      "%(stories)s.", count=count, stories=_quoted(removed)))
    return state


def _log(state: State, line: Text) -> None:
    """A line of the game log: its English in ``log`` (as every state before kept it),
    its words in ``log_words`` so that each phone reads it in its own language."""
    # States saved before the words were kept: their lines stay English.
    words = state.setdefault("log_words", [None] * len(state["log"]))
    state["log"].append(str(line))
    words.append(line.as_data())


# --- actions -----------------------------------------------------------------

def apply(state: State, actor: Viewer, action: Mapping[str, str],
          rng: random.Random) -> State:
    """One action: start_player, print (announced), pass, settle, druckmaschine,
    end_turn, u_haft or reporterteam. A print whose window has run out is printed
    first, whatever the action (its deadline is in the state, so a laptop restarted
    meanwhile prints it all the same)."""
    check_call(actor, action, len(state["players"]))
    state = evolve(state)
    seat = _seat(state, actor)
    require(not state["over"], _("The game is over: every story has been printed."))
    kind = require_type(action, ACTION_TYPES)
    if kind == "start_player" or state["active"] is None:
        require(kind == "start_player" and state["active"] is None,
                _("The start player is already chosen.") if state["active"] is not None
                else _("First choose the start player (for example, the youngest)."))
        _start_player(state, action, rng)
        return state
    pending = _about_to_print(state)
    if pending is not None:
        if _clock(action) >= pending["deadline"]:
            require(kind != "druckmaschine",
                    _("Too late: the seconds to play %(card)s on %(name)s are over, and "
                      "“%(story)s” is printed.", card=DRUCKMASCHINE,
                      name=_name(state, pending["seat"]), story=_shown(pending["story"])))
            # The window is over: the story is printed before anything else happens.
            _print_now(state)
            if kind in ("settle", "pass") or state["over"]:
                return state
        elif kind not in ("pass", "druckmaschine", "settle"):
            raise RuleError(_waiting(state, seat))
    elif kind in ("pass", "settle"):
        raise RuleError(_("Nobody is about to print a story right now."))
    # A print's answer stands until the next action.
    state["answer"] = None
    if kind == "druckmaschine":
        _druckmaschine(state, seat, action)
        return state
    if kind == "pass":
        _pass(state, seat)
        return state
    if kind == "settle":
        raise RuleError(_waiting(state, seat))
    _require_turn(state, seat, kind)
    if kind in ACTION_CARDS:
        _require_no_action_yet(state)
    if kind == "print":
        _announce_print(state, action)
    elif kind == "end_turn":
        _pass_turn(state)
    elif kind == "u_haft":
        _u_haft(state, action)
    else:
        _reporterteam(state)
    return state


def _clock(action: Mapping[str, str]) -> float:
    """The laptop's clock in seconds, as the web layer sent it with the action; an
    action without one (a test, an old log) counts as far past any deadline."""
    try:
        clock = float(action.get("clock") or "inf")
    except ValueError:
        return math.inf
    return clock if math.isfinite(clock) else math.inf


def _waiting(state: State, seat: int | None) -> Text:
    pending = _about_to_print(state)
    assert pending is not None
    story = _shown(pending["story"])
    return (_("Wait a few seconds: %(name)s is about to print “%(story)s”, and the other "
              "reporters may still play %(card)s.", name=_name(state, pending["seat"]),
              story=story, card=DRUCKMASCHINE)
            if seat != pending["seat"] else
            _("Wait a few seconds: you are about to print “%(story)s”, and the other "
              "reporters may still play %(card)s.", story=story, card=DRUCKMASCHINE))


def _start_player(state: State, action: Mapping[str, str], rng: random.Random) -> None:
    """Course of the Game: "First a start player is chosen (for example, the youngest
    player); he is the first active player". Anyone at the table may say who."""
    choices = [str(seat) for seat in range(len(state["players"]))] + [RANDOM_START]
    choice = parse_choice(action.get("seat"), choices, _("start player"))
    seat = rng.randrange(len(state["players"])) if choice == RANDOM_START else int(choice)
    _log(state, _("%(name)s is the start player (drawn at random).", name=_name(state, seat))
         if choice == RANDOM_START else
         _("%(name)s is the start player (chosen at the table).", name=_name(state, seat)))
    _start_turn(state, seat)


def _require_turn(state: State, seat: int | None, kind: str) -> None:
    """Action cards are "only played in one's own turn"; printing is an Investigation."""
    active = _name(state, state["active"])
    if kind == "print":
        require(seat is not None, _("%(name)s prints the story on their own phone.",
                                    name=active))
        require(seat == state["active"],
                _("It is %(name)s's turn: only the active reporter can print a story.",
                  name=active))
    else:
        # The table screen acts for the active reporter (a tap on the laptop).
        require(seat is None or seat == state["active"],
                _("It is %(name)s's turn, not yours: Action cards “can only be played in "
                  "one's own turn” (%(card)s excepted).", name=active, card=DRUCKMASCHINE))


def _require_no_action_yet(state: State) -> None:
    """Course of the Game, Action: one Action a turn, "play an Action card" or "draw"
    one; a second is refused (docs/RULINGS.md#wo-ist-jack-the-ripper, "One Action a
    turn")."""
    done = _turn_action(state)
    if done is not None:
        raise RuleError(_("%(name)s has already played %(card)s this turn: each turn has "
                          "one Action (play an Action card or draw one), no more.",
                          name=_name(state, state["active"]),
                          card=ACTION_CARDS[done["kind"]]))


def _announce_print(state: State, action: Mapping[str, str]) -> None:
    """Print a Story, announced: the active reporter says which story (and its value
    while the laptop does not know it); the other reporters then have the window to
    play Druckmaschine defekt "as he is about to print" (``pass`` or ``settle`` ends it).

    The value is typed the first time a card is printed where the laptop's deck does
    not know it (docs/RULINGS.md#wo-ist-jack-the-ripper, "Story points") and reused after.
    """
    current = state["current"]
    claimed = str(action.get("story") or "").strip()
    require(bool(claimed), _("Please say which story you are printing."))
    require(claimed == current, _("“%(claimed)s” is not the current story: the current "
                                  "story is “%(story)s”.", claimed=claimed[:60],
                                  story=_shown(current)))
    broken = _press_broken(state)
    if broken is not None:
        raise RuleError(_("%(name)s played %(card)s on you: “he cannot print his story this "
                          "round!” You may print again from your next turn.",
                          name=_name(state, broken["by"]), card=DRUCKMASCHINE))
    require(state["prints_this_turn"] < state["investigations"],
            _("You have used all %(count)s investigations of this turn: printing a story is "
              "one of them.", count=state["investigations"]))
    known = state["story_points"].get(current)
    typed = str(action.get("points") or "").strip()
    points = known if known is not None and not typed else parse_int(
        typed, MIN_STORY_POINTS, MAX_STORY_POINTS,
        _("point value of “%(name)s”", name=_shown(current)))
    clock = _clock(action)
    require(clock != math.inf, _("The laptop's clock did not come with the print: "
                                 "print again from your phone."))
    state["about_to_print"] = {"seat": state["active"], "story": current, "points": points,
                               "deadline": int(clock + PRINT_WINDOW_SECONDS), "passed": []}
    _log(state, _("%(name)s is about to print “%(story)s”.",
                  name=_name(state, state["active"]), story=_shown(current)))


def _pass(state: State, seat: int | None) -> None:
    """Another reporter lets the print go ahead; once every other reporter has, it is
    printed at once."""
    pending = _about_to_print(state)
    assert pending is not None
    require(seat is not None, _("Each reporter passes on their own phone."))
    require(seat != pending["seat"], _("You are the one printing: the others may pass."))
    if seat not in pending["passed"]:
        pending["passed"].append(seat)
    if len(pending["passed"]) == len(state["players"]) - 1:
        _print_now(state)


def _print_now(state: State) -> None:
    """The announced story goes to its reporter; the next story moves up. A value that
    differs from the one remembered corrects it."""
    pending = state["about_to_print"]
    state["about_to_print"] = None
    current, points, reporter = pending["story"], pending["points"], pending["seat"]
    known = state["story_points"].get(current)
    state["story_points"][current] = points
    state["printed"].append({"story": current, "seat": reporter, "points": points,
                             "turn": state["turn"]})
    state["answer"] = len(state["printed"]) - 1
    state["prints_this_turn"] += 1
    who, story = _name(state, reporter), _shown(current)
    _log(state, ngettext("%(name)s printed “%(story)s” for %(n)s point.",
                         "%(name)s printed “%(story)s” for %(n)s points.", points,
                         name=who, story=story)
         if known in (None, points) else
         ngettext("%(name)s printed “%(story)s” for %(n)s point (remembered value was "
                  "%(known)s).",
                  "%(name)s printed “%(story)s” for %(n)s points (remembered value was "
                  "%(known)s).", points, name=who, story=story, known=known))
    if state["reporterteam"] is not None:
        # "in effect until the current story is printed, upon which it is discarded"
        _log(state, _("%(card)s of %(name)s is discarded.", card=REPORTERTEAM,
                      name=_name(state, state["reporterteam"]["seat"])))
        state["reporterteam"] = None
    state["current"] = state["next"]
    state["next"] = draw(state["deck"])[0] if state["deck"] else None
    if state["current"] is None:
        _finish(state)
        return
    _log(state, _("“%(story)s” is now the current story; “%(next)s” is turned.",
                  story=_shown(state["current"]), next=_shown(state["next"]))
         if state["next"] else
         _("“%(story)s” is now the current story; the story deck is empty.",
           story=_shown(state["current"])))


def _pass_turn(state: State) -> None:
    """The next reporter clockwise; one in U-Haft "must lose a turn" and is passed over."""
    count = len(state["players"])
    seat = next_seat(count, state["active"])
    # Terminates: every pass over a reporter in U-Haft uses up one of the cards.
    while state["u_haft"][seat]:
        state["u_haft"][seat] -= 1
        _played(state, "lost_turn", None, seat)
        seat = next_seat(count, seat)
    _start_turn(state, seat)


def _start_turn(state: State, seat: int) -> None:
    team = state["reporterteam"]
    # Druckmaschine defekt lasts "this round": the broken press works again next turn.
    state["press_broken"] = None
    state["active"] = seat
    state["turn"] += 1
    state["prints_this_turn"] = 0
    # Reporterteam: "From your next turn to the printing of your story".
    state["investigations"] = INVESTIGATIONS_PER_TURN + (
        1 if team is not None and team["seat"] == seat else 0)
    _log(state, _("Turn %(turn)s: %(name)s is the active reporter.", turn=state["turn"],
                  name=_name(state, seat)))


def _u_haft(state: State, action: Mapping[str, str]) -> None:
    """Reporter in U-Haft on another reporter: "He must lose a turn!"."""
    active = state["active"]
    require(sum(state["u_haft"]) < U_HAFT_COPIES,
            _("Both %(card)s cards already lie in front of reporters.",
              card=REPORTER_IN_U_HAFT))
    choices = [str(seat) for seat in range(len(state["players"]))]
    target = int(parse_choice(action.get("target"), choices, _("reporter")))
    require(target != active, _("%(name)s cannot put themselves in U-Haft.",
                                name=_name(state, active)))
    state["u_haft"][target] += 1
    _played(state, "u_haft", active, target)


def _reporterteam(state: State) -> None:
    """Reporterteam for the active reporter: an extra Investigation from their next turn."""
    team = state["reporterteam"]
    require(team is None, _("The %(card)s card already lies in front of %(name)s.",
                            card=REPORTERTEAM,
                            name=_name(state, team["seat"]) if team else ""))
    state["reporterteam"] = {"seat": state["active"], "story": state["current"],
                             "turn": state["turn"]}
    _played(state, "reporterteam", state["active"], None)


def _druckmaschine(state: State, seat: int | None, action: Mapping[str, str]) -> None:
    """Druckmaschine defekt: "This card can be played at any time on another player as he
    is about to print": in the window of an announced print, which it stops. The player
    is the phone's seat, or the one the table screen names under ``by``."""
    pending = _about_to_print(state)
    require(pending is not None, _("%(card)s is played on a reporter “as he is about to "
                                   "print”: when the app says so on every phone.",
                                   card=DRUCKMASCHINE))
    assert pending is not None
    printer = pending["seat"]
    if seat is None:
        seat = int(parse_choice(action.get("by"), [str(other) for other in range(
            len(state["players"])) if other != printer], _("reporter who plays the card")))
    require(seat != printer, _("%(card)s is played on another reporter as he is about to "
                               "print, never on yourself.", card=DRUCKMASCHINE))
    state["about_to_print"] = None
    state["press_broken"] = {"seat": printer, "by": seat}
    _played(state, "druckmaschine", seat, printer)


def _played(state: State, kind: str, by: int | None, on: int | None) -> None:
    """An Action card played (or a turn lost to one): the log's line, and the entry the
    reveal reads, placed among the prints by how many came before it."""
    entry = {"kind": kind, "by": by, "on": on, "story": state["current"],
             "turn": state["turn"], "printed": len(state["printed"])}
    # States saved before the cards were kept start the list here.
    state.setdefault("cards_played", []).append(entry)
    _log(state, _card_line(state, entry))


def _card_line(state: State, entry: Mapping[str, Any]) -> Text:
    by = "" if entry["by"] is None else _name(state, entry["by"])
    on = "" if entry["on"] is None else _name(state, entry["on"])
    story = _shown(entry["story"]) if entry["story"] is not None else ""
    kind = entry["kind"]
    if kind == "u_haft":
        return _("%(by)s plays %(card)s on %(on)s, who loses their next turn.", by=by,
                 card=REPORTER_IN_U_HAFT, on=on)
    if kind == "lost_turn":
        return _("%(on)s is in U-Haft and loses this turn.", on=on)
    if kind == "reporterteam":
        return _("%(by)s plays %(card)s until “%(story)s” is printed.", by=by,
                 card=REPORTERTEAM, story=story)
    return _("%(by)s plays %(card)s on %(on)s, who cannot print “%(story)s” until their "
             "next turn.", by=by, card=DRUCKMASCHINE, on=on, story=story)


def _finish(state: State) -> None:
    """End of the Game: "When all of the Story cards have been printed"."""
    state["over"] = True
    # Nothing lies in front of anyone once the game is over.
    state["u_haft"] = [0] * len(state["players"])
    _log(state, _("Every story has been printed: the game is over."))
    _log(state, score(state)["headline"])


# --- what may happen now ---------------------------------------------------

def actions(state: State, viewer: Viewer) -> list[str]:
    """What ``viewer`` may do now; the table screen acts for the active reporter. While
    a print is announced, only its window's actions."""
    try:
        seat = _seat(state, viewer)
    except RuleError:
        return []
    if state["over"]:
        return []
    if state["active"] is None:
        return ["start_player"]
    pending = _about_to_print(state)
    if pending is not None:
        if seat == pending["seat"]:
            return ["settle"]
        if seat is None:
            return ["druckmaschine", "settle"]
        return ["druckmaschine", "settle"] + (["pass"] if seat not in pending["passed"]
                                              else [])
    if seat is not None and seat != state["active"]:
        return []
    allowed = []
    if seat is not None and state["prints_this_turn"] < state["investigations"] \
            and _press_broken(state) is None:
        allowed.append("print")
    if _turn_action(state) is None:
        if sum(state["u_haft"]) < U_HAFT_COPIES:
            allowed.append("u_haft")
        if state["reporterteam"] is None:
            allowed.append("reporterteam")
    allowed.append("end_turn")
    return allowed


def commutes(seen: State, state: State, actor: Viewer, action: Mapping[str, str]) -> bool:
    """Whether a pass or a Druckmaschine defekt sent from a page that showed ``seen``
    stands on ``state``, the table now (``companion.games.base``, ``commutes``): the other
    reporters answer the same announced print at the same moment, and another's pass
    in between changes nothing of what theirs means. Anything else is refused as stale."""
    pending, before = _about_to_print(state), _about_to_print(seen)
    return (action.get("type") in ("pass", "druckmaschine") and pending is not None
            and before is not None and all(pending[key] == before[key]
                                           for key in ("seat", "story", "deadline")))
