"""What each reporter and the table screen see of Wo ist Jack the Ripper (``view``): the
public table, a reporter's now line and print form, the Action cards lying in front of
reporters, the log in the reader's language, and the reveal at the end.
"""

from __future__ import annotations

from typing import Any

from companion.games.base import State, Viewer, reveal_step, reveal_view, seat_order
from companion.games.wo_ist_jack.rules import _card_line, actions
from companion.games.wo_ist_jack.score import score
from companion.games.wo_ist_jack.state import (
    ACTION_CARDS,
    DRUCKMASCHINE,
    ENGLISH_GLOSSES,
    GLOSSES,
    MAX_STORY_POINTS,
    MIN_STORY_POINTS,
    PRINT_WINDOW_SECONDS,
    REPORTER_IN_U_HAFT,
    REPORTERTEAM,
    TITLE,
    _about_to_print,
    _lost_this_turn,
    _name,
    _press_broken,
    _quoted,
    _seat,
    _shown,
    _turn_action,
)
from companion.words import Text, _, from_data, ngettext


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


# --- the log and the reveal -------------------------------------------------

def _log_view(state: State) -> list[str]:
    """The log as shown: each line in the reader's language where its words were kept."""
    lines, words = state["log"], state.get("log_words")
    if not isinstance(words, list) or len(words) != len(lines):
        return list(lines)
    return [from_data(kept) if isinstance(kept, dict) else line
            for line, kept in zip(lines, words, strict=True)]


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
