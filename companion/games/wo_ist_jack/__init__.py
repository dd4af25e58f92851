"""Wo ist Jack the Ripper: the hidden story deck, printed stories and the final score.

Rulebook: "Wo ist Jack the Ripper", its sections as named; rulings:
docs/RULINGS.md#wo-ist-jack-the-ripper. The reporters' Research and Action cards stay
physical (docs/RULINGS.md#general, "What the companion keeps"). The companion
keeps what paper does badly:

- the Story deck, shuffled in secret ("Set-up"): only the current story and
  the next one lie face up; the order of the rest is known to nobody;
- whose turn it is ("Course of the Game"), with the two Action cards that stay
  in front of a player until their effect ends ("Action Cards"):
  Reporter in U-Haft and Reporterteam; and Druckmaschine defekt, played by
  another reporter on the one about to print, who then cannot print until his
  next turn (docs/RULINGS.md#wo-ist-jack-the-ripper, "Druckmaschine defekt");
- who printed which story for how many points, and the final score
  ("End of the Game");
- the moment "as he is about to print" (Action Cards, Druckmaschine defekt): a print
  is announced to every phone and stands open for ``PRINT_WINDOW_SECONDS``, or until
  every other reporter has passed, before it is printed
  (docs/RULINGS.md#wo-ist-jack-the-ripper, "About to print"). The window's end is a
  deadline kept in the state, so that it survives a restart of the laptop; the time
  comes in with each action as ``clock`` (the laptop's clock in seconds, set by the web
  layer, never by the phone).

The setup form (what ``parse_options`` reads and ``form_from`` writes, so
that ``parse_options(form_from(options), count) == options``):

``stories``
    The 12 Story cards, one per line, each ``Name`` or ``Name = points``
    (its value once known, so it need not be typed again). The four names
    the rulebook gives must be among them, since "Special Rules for 2 or 3
    Players" removes them by name; the other eight are named once per laptop
    (its decks, ``DECK_FIELDS``), and until then say how to find the card.

Options are ``{"story_names": [12 names], "story_points": {name: points}}``;
they do not depend on the number of players, since a table may lose an empty
seat after its options were set. Point values typed during a game are kept
per card name; ``options_for_next_game`` hands them back so that a table's
remembered options never ask for the same value twice (docs/RULINGS.md#wo-ist-jack-the-ripper,
"Story points").

The start player ("for example, the youngest player") is chosen at the table
once everyone is seated: the game's first action, ``start_player``.
"""

from __future__ import annotations

from typing import Any

from companion.games.base import (
    State,
    Viewer,
    check_seat,
    check_shape,
    require,
    reveal_step,
    reveal_view,
    seat_order,
)
from companion.games.wo_ist_jack.rules import (
    DECK_FIELDS,
    DEFAULT_PLAYERS,
    FIXED_SEATS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    REMOVED_STORIES,
    U_HAFT_COPIES,
    _card_line,
    _check_count,
    actions,
    apply,
    commutes,
    default_options,
    form_from,
    options_for_next_game,
    parse_options,
    seat_labels,
    setup,
)
from companion.games.wo_ist_jack.score import score
from companion.games.wo_ist_jack.state import (
    ACTION_CARDS,
    AMERIKA,
    ANNIE,
    DEFAULT_STORIES,
    DRUCKMASCHINE,
    ENGLISH_GLOSSES,
    GLOSSES,
    MAX_STORY_POINTS,
    MIN_STORY_POINTS,
    MORDSERIE,
    NAME,
    POLIZEI,
    PRINT_WINDOW_SECONDS,
    REPORTER_IN_U_HAFT,
    REPORTERTEAM,
    RULEBOOK_STORIES,
    TITLE,
    _about_to_print,
    _lost_this_turn,
    _name,
    _names,
    _press_broken,
    _quoted,
    _seat,
    _shown,
    _turn_action,
    is_over,
)
from companion.words import Text, _, from_data, ngettext

# Moved out, still the game's (companion/games/base.py's protocol).
__all__ = ["NAME", "TITLE", "MIN_PLAYERS", "MAX_PLAYERS", "DEFAULT_PLAYERS", "FIXED_SEATS",
    "DECK_FIELDS", "seat_labels", "default_options", "parse_options", "form_from",
    "options_for_next_game", "setup", "apply", "actions", "commutes", "is_over", "score",
    "DEFAULT_STORIES", "PRINT_WINDOW_SECONDS", "RULEBOOK_STORIES", "REMOVED_STORIES",
    "MIN_STORY_POINTS", "MAX_STORY_POINTS", "REPORTERTEAM", "POLIZEI", "REPORTER_IN_U_HAFT",
    "MORDSERIE", "AMERIKA", "ANNIE", "GLOSSES", "ENGLISH_GLOSSES", "DRUCKMASCHINE", "U_HAFT_COPIES",
    "ACTION_CARDS"]


# --- seats and options -----------------------------------------------------

# --- setup ------------------------------------------------------------------

def _log_view(state: State) -> list[str]:
    """The log as shown: each line in the reader's language where its words were kept."""
    lines, words = state["log"], state.get("log_words")
    if not isinstance(words, list) or len(words) != len(lines):
        return list(lines)
    return [from_data(kept) if isinstance(kept, dict) else line
            for line, kept in zip(lines, words, strict=True)]


# --- actions -----------------------------------------------------------------

def _reveal(state: State) -> dict[str, Any]:
    """The stories in the order printed, each with its reporter and points, the Action
    cards kept here (U-Haft, Reporterteam, Druckmaschine defekt) between them, and the
    end with the Reporter of the Year."""
    keyed = []
    for index, entry in enumerate(state["printed"]):
        points = entry["points"]
        gloss = GLOSSES.get(entry["story"])
        keyed.append(((index, 1, 0), reveal_step(
            _("Turn %(turn)s", turn=entry["turn"]) if "turn" in entry
            else _("Story %(number)s", number=index + 1),
            ngettext("“%(story)s” printed by %(name)s: %(n)s point.",
                     "“%(story)s” printed by %(name)s: %(n)s points.", points,
                     story=_shown(entry["story"]), name=_name(state, entry["seat"])),
            "print", [gloss] if gloss else [])))
    for number, entry in enumerate(state.get("cards_played", [])):
        # A turn lost in U-Haft is lost as the turn before it ends.
        when = (_("After turn %(turn)s", turn=entry["turn"]) if entry["kind"] == "lost_turn"
                else _("Turn %(turn)s", turn=entry["turn"]))
        keyed.append(((entry["printed"], 0, number), reveal_step(
            when, _card_line(state, entry), "action")))
    steps = [step for _key, step in sorted(keyed, key=lambda pair: pair[0])]
    result = score(state)
    steps.append(reveal_step(_("Turn %(turn)s", turn=state["turn"]),
                             _("Every story has been printed: %(headline)s",
                               headline=result["headline"]), "end"))
    # The Reporter of the Year and the bonus: the final score above the reveal says them.
    facts: list[tuple[str, str]] = []
    if state["removed"]:
        facts.append((_("Out of the game"), _quoted(state["removed"])))
    return reveal_view(facts, _("The stories in the order printed"), steps)


# --- score -------------------------------------------------------------------

# --- views -------------------------------------------------------------------

def view(state: State, viewer: Viewer) -> dict[str, Any]:
    """The public table, plus a reporter's own prompt, reminders and print form.

    The story deck beyond the current and next card is in nobody's view,
    only its size (the physical pile shows that much).
    """
    seat = _seat(state, viewer)
    public = _public_view(state)
    if seat is None:
        return public
    active = state["active"]
    your_turn = seat == active and not state["over"]
    allowed = actions(state, seat)
    answer = public["answer"]
    you = {
        "seat": seat,
        "name": _name(state, seat),
        "your_turn": your_turn,
        # All of the other players "must choose one of their melded Research cards to
        # take back into the hand (if they have any)": said with the print, never asked
        # back (docs/RULINGS.md#wo-ist-jack-the-ripper, "Taking a card back").
        "take_back": answer is not None and answer["seat"] != seat and not state["over"],
        "print": _print_form(state) if "print" in allowed else None,
        "u_haft_targets": [{"seat": other, "name": _name(state, other)}
                           for other in range(len(state["players"])) if other != active]
        if "u_haft" in allowed else [],
    }
    return {**public, "you": you, "now": _seat_now(state, seat)}


def _public_view(state: State) -> dict[str, Any]:
    active = state["active"]
    team = state["reporterteam"]
    result = score(state)
    rows = {row["seat"]: row for row in result["standings"]}
    printed = [{**_card(state, entry["story"]), "points": entry["points"],
                "seat": entry["seat"], "by": _name(state, entry["seat"])}
               for entry in state["printed"]]
    players = [{
        "seat": seat,
        "name": name,
        "active": seat == active and not state["over"],
        "u_haft": state["u_haft"][seat],
        "reporterteam": team is not None and team["seat"] == seat,
        "stories": [_card(state, entry["story"]) for entry in state["printed"]
                    if entry["seat"] == seat],
        "story_points": rows[seat]["story_points"],
    } for seat, name in enumerate(state["players"])]
    pending = _about_to_print(state)
    return {
        "title": TITLE,
        "players": players,
        "choosing_start": active is None,
        "turn_order": [{"seat": seat, "name": _name(state, seat)}
                       for seat in seat_order(len(state["players"]), active or 0)],
        "active": None if state["over"] else active,
        "active_name": None if state["over"] or active is None else _name(state, active),
        "turn": state["turn"],
        "turn_action": None if (done := _turn_action(state)) is None or state["over"]
        else ACTION_CARDS[done["kind"]],
        "investigations": state["investigations"],
        "prints_this_turn": state["prints_this_turn"],
        "current": _card(state, state["current"]) if state["current"] else None,
        "next": _card(state, state["next"]) if state["next"] else None,
        "deck_left": len(state["deck"]),
        "stories_in_play": state["stories_in_play"],
        "removed": [_card(state, name) for name in state["removed"]],
        "printed": printed,
        # The story the latest action printed (states saved before this field have none).
        "answer": None if state.get("answer") is None else printed[state["answer"]],
        "about_to_print": None if pending is None else {
            **_card(state, pending["story"]), "seat": pending["seat"],
            "by": _name(state, pending["seat"]), "points": pending["points"],
            "deadline": pending["deadline"],
            "waiting_for": [_name(state, other) for other in range(len(state["players"]))
                            if other not in (pending["seat"], *pending["passed"])]},
        "window": PRINT_WINDOW_SECONDS,
        "markers": _markers(state),
        "log": _log_view(state),
        "now": _table_now(state),
        "over": state["over"],
        "result": result if state["over"] else None,
        "reveal": _reveal(state) if state["over"] else None,
        "point_range": [MIN_STORY_POINTS, MAX_STORY_POINTS],
        # Only the face-up cards': a gloss must not name a card still in the deck.
        "glosses": {name: ENGLISH_GLOSSES[name] for name in (
            state["current"], state["next"], *state["removed"],
            *(entry["story"] for entry in state["printed"])) if name in ENGLISH_GLOSSES},
    }


def _card(state: State, name: str) -> dict[str, Any]:
    """A story card as shown: German name, the rulebook's gloss if any, its known value."""
    return {"name": _shown(name), "gloss": GLOSSES.get(name),
            "points": state["story_points"].get(name)}


def _markers(state: State) -> list[dict[str, Any]]:
    """The Action cards lying in front of reporters, and when each one ends."""
    markers = []
    for seat, turns in enumerate(state["u_haft"]):
        if turns:
            markers.append({"card": REPORTER_IN_U_HAFT, "gloss": GLOSSES[REPORTER_IN_U_HAFT],
                            "seat": seat, "name": _name(state, seat),
                            "text": _("%(name)s loses their next turn.",
                                      name=_name(state, seat)) if turns == 1 else
                            _("%(name)s loses their next %(turns)s turns.",
                              name=_name(state, seat), turns=turns)})
    broken = _press_broken(state)
    if broken is not None:
        markers.append({"card": DRUCKMASCHINE, "gloss": ENGLISH_GLOSSES[DRUCKMASCHINE],
                        "seat": broken["seat"],
                        "name": _name(state, broken["seat"]),
                        "text": _("%(by)s played it: %(name)s's printing press is broken, "
                                  "no story can be printed until their next turn.",
                                  by=_name(state, broken["by"]),
                                  name=_name(state, broken["seat"]))})
    team = state["reporterteam"]
    if team is not None:
        now = team["seat"] == state["active"] and team["turn"] != state["turn"]
        who, story = _name(state, team["seat"]), _shown(team["story"])
        markers.append({"card": REPORTERTEAM, "gloss": GLOSSES[REPORTERTEAM],
                        "seat": team["seat"], "name": who,
                        "text": _("%(name)s has one extra investigation this turn, until "
                                  "“%(story)s” is printed.", name=who, story=story) if now
                        else _("%(name)s has one extra investigation from their next turn, "
                               "until “%(story)s” is printed.", name=who, story=story)})
    return markers


CHOOSE_START = _("Who starts? Choose the start player (for example, the youngest player).")


def _now(text: str, detail: str = "", mine: bool = False) -> dict[str, Any]:
    """A now line: what happens now and who acts; ``mine`` when this phone is to act."""
    return {"text": text, "detail": detail, "mine": mine}


def _turn_text(state: State) -> Text:
    done = _turn_action(state)
    if done is not None:
        return ngettext("%(n)s investigation (meld, draw or print); the action is done "
                        "(%(card)s)",
                        "%(n)s investigations (meld, draw or print); the action is done "
                        "(%(card)s)", state["investigations"],
                        card=ACTION_CARDS[done["kind"]])
    return ngettext("%(n)s investigation (meld, draw or print) and 1 action",
                    "%(n)s investigations (meld, draw or print) and 1 action",
                    state["investigations"])


def _table_now(state: State) -> dict[str, Any]:
    if state["over"]:
        return _now(score(state)["headline"])
    if state["active"] is None:
        return _now(CHOOSE_START, mine=True)
    pending = _about_to_print(state)
    if pending is not None:
        return _now(_("%(name)s is about to print “%(story)s”",
                      name=_name(state, pending["seat"]), story=_shown(pending["story"])),
                    _("A few seconds for %(card)s, then it is printed.", card=DRUCKMASCHINE))
    return _now(_("%(name)s's turn: %(turn)s.", name=_name(state, state["active"]),
                  turn=_turn_text(state)))


def _seat_now(state: State, seat: int) -> dict[str, Any]:
    """A reporter's now line; one in U-Haft is told so first thing."""
    if state["over"] or state["active"] is None:
        return _table_now(state)
    turns = state["u_haft"][seat]
    detained: Text | str = (
        "" if not turns else
        _("You are in U-Haft (Reporter in Detention): you lose your next turn.")
        if turns == 1 else
        _("You are in U-Haft (Reporter in Detention): you lose your next %(turns)s turns.",
          turns=turns))
    pending = _about_to_print(state)
    if pending is not None:
        story = _shown(pending["story"])
        if seat == pending["seat"]:
            return _now(_("You are about to print “%(story)s”", story=story),
                        _("The others have a few seconds to play %(card)s; then it is "
                          "printed by itself.", card=DRUCKMASCHINE))
        printer = _name(state, pending["seat"])
        about = _("%(name)s is about to print “%(story)s”", name=printer, story=story)
        if seat in pending["passed"]:
            return _now(about, _("You let it print. %(detained)s", detained=detained)
                        if detained else _("You let it print."))
        return _now(about, _("Play %(card)s on %(name)s now if you hold it, or let it "
                             "print. %(detained)s", card=DRUCKMASCHINE, name=printer,
                             detained=detained) if detained else
                    _("Play %(card)s on %(name)s now if you hold it, or let it print.",
                      card=DRUCKMASCHINE, name=printer), mine=True)
    if seat != state["active"]:
        if _lost_this_turn(state, seat):
            # Said at the top of the phone whose turn it would have been.
            return _now(_("U-Haft: you lose this turn. It is %(name)s's turn.",
                          name=_name(state, state["active"])), detained)
        return _now(_("It is %(name)s's turn.", name=_name(state, state["active"])), detained)
    left = state["investigations"] - state["prints_this_turn"]
    why: Text | str
    if _press_broken(state) is not None:
        why = _("Your printing press is broken (%(card)s): no printing this turn.",
                card=DRUCKMASCHINE)
    else:
        why = "" if left > 0 else _("No investigation left to print.")
    return _now(_("Your turn: %(turn)s.", turn=_turn_text(state)), why, mine=True)


def _print_form(state: State) -> dict[str, Any]:
    """What the print form needs: the story, its remembered value, the allowed range."""
    # ``story`` goes back with the form as typed (the page shows the current card's name).
    return {"story": state["current"], "known_points": state["story_points"].get(
        state["current"]), "min": MIN_STORY_POINTS, "max": MAX_STORY_POINTS}


# --- the club's history (companion/history.py) -----------------------------------------

ENDING_WORDS = {"printed": _("Every story was printed")}
"""The one ending, as the history's tally of endings names it."""


def result(state: State) -> dict[str, Any]:
    """A finished game for the history (``companion/games/base.py``): no Jack at the
    table, the Reporters of the Year win, every reporter's final points."""
    require(state["over"], _("The game is not over."))
    scored = score(state)
    winners = sorted(row["seat"] for row in scored["standings"]
                     if row["reporter_of_the_year"])
    totals = {row["seat"]: row["total"] for row in scored["standings"]}
    return {"side": "players", "winner": _names(state, winners), "winners": winners,
            "jack": [], "jack_side": [], "points": [totals[seat] for seat in
                                                    range(len(state["players"]))],
            "ending": "printed", "how": scored["headline"]}

# --- an imported state ---------------------------------------------------------------

STATE_SHAPE = {
    "players": [str], "story_names": [str], "story_points": dict, "removed": [str],
    "stories_in_play": int, "deck": [str], "current": (None, str), "next": (None, str),
    "printed": [{"story": str, "seat": int, "points": int}], "active": (None, int),
    "turn": int, "investigations": int, "prints_this_turn": int, "u_haft": [int],
    "reporterteam": (None, {"seat": int, "story": str, "turn": int}),
    "log": [str], "over": bool,
}


WORDS_DEPTH = 12
"""How deep a log line's kept words may nest (a sentence in a sentence: the longest the
game writes, the stories taken out of a 2-player game, nests 7): a hostile file's words
nested deeper would make ``words.from_data`` recurse past Python's limit."""


def _fair_words(kept: Any, depth: int = 0) -> bool:
    if depth > WORDS_DEPTH:
        return False
    params = kept.get("params") if isinstance(kept, dict) else None
    return not isinstance(params, dict) or all(
        _fair_words(value, depth + 1) for value in params.values() if isinstance(value, dict))


def check_state(state: Any) -> None:
    """A Wo ist Jack the Ripper state as ``setup`` and ``apply`` leave it (an imported
    file's): the shape, one U-Haft count per reporter, every story
    one of the game's, points whole numbers, seats in range."""
    check_shape(state, STATE_SHAPE)
    count = len(state["players"])
    _check_count(count)
    require(len(state["u_haft"]) == count, "the U-Haft markers are not one per reporter.")
    names = set(state["story_names"])
    stories = [*state["deck"], *state["removed"],
               *(entry["story"] for entry in state["printed"]),
               *(story for story in (state["current"], state["next"]) if story is not None)]
    require(set(stories) <= names, "a story is not one of the game's.")
    require(all(type(points) is int for points in state["story_points"].values()),
            "a story's points are not a whole number.")
    if state["active"] is not None:
        check_seat(state["active"], count, "the active reporter")
    for entry in state["printed"]:
        check_seat(entry["seat"], count, "a printing reporter")
    if state["reporterteam"] is not None:
        check_seat(state["reporterteam"]["seat"], count, "the Reporterteam's reporter")
    # Kept since a print is announced first; states saved before have none.
    pending = state.get("about_to_print")
    check_shape(pending, (None, {"seat": int, "story": str, "points": int, "deadline": int,
                                 "passed": [int]}), "the state.about_to_print")
    if pending is not None:
        check_seat(pending["seat"], count, "the reporter about to print")
        require(pending["story"] == state["current"], "the story about to print is not the "
                                                      "current one.")
        require(MIN_STORY_POINTS <= pending["points"] <= MAX_STORY_POINTS,
                "the points of the story about to print are out of range.")
        for other in pending["passed"]:
            check_seat(other, count, "a reporter who let the print go")
    # The Action cards kept for the reveal; states saved before they were kept have none.
    played = state.get("cards_played", [])
    check_shape(played, [{"kind": frozenset({"u_haft", "lost_turn", "reporterteam",
                                             "druckmaschine"}),
                          "by": (None, int), "on": (None, int), "story": (None, str),
                          "turn": int, "printed": int}], "the state.cards_played")
    for entry in played:
        for key in ("by", "on"):
            if entry[key] is not None:
                check_seat(entry[key], count, f"a played card's {key}")
        require(entry["printed"] <= len(state["printed"]) and entry["turn"] <= state["turn"],
                "a played card comes after the game's last print.")
    # The log's words, kept since the pages speak German and French; states saved before
    # have none. Only their shape is checked: words.from_data shows any junk as English
    # or nothing, never an error.
    words = state.get("log_words", [])
    check_shape(words, [(None, {"msgid": str})], "the state.log_words")
    require(all(_fair_words(kept) for kept in words if kept is not None),
            "a line of the state.log_words is nested too deep.")
    # Tracked since Druckmaschine defekt is kept; states saved before have none.
    broken = state.get("press_broken")
    check_shape(broken, (None, {"seat": int, "by": int}), "the state.press_broken")
    if broken is not None:
        check_seat(broken["seat"], count, "the broken press's reporter")
        check_seat(broken["by"], count, "the reporter who broke the press")
