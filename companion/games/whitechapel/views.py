"""Letters from Whitechapel's views: what each seat's page shows, from the state.

``view`` is the game's (``rules`` hands it to the registry): the public table for
everyone, Jack's whole sheet for seat 0, a detective's own policemen for seats 1..5,
and the whole sheet for everyone once the game is over. It reads the state through
``companion.games.whitechapel.state`` only and never imports ``rules`` (which imports
this module), so either may be imported first.

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

import re
from collections.abc import Mapping
from typing import Any

from companion.games.base import TABLE, State, Viewer
from companion.games.whitechapel.policemap import crossing_names
from companion.games.whitechapel.state import (
    COLOUR_NAMES,
    DOUBLE_EVENT,
    FAKE,
    JACK,
    LAST_SQUARE,
    NAME,
    NIGHTS,
    PHASES,
    POLICEMEN,
    RESULTS,
    ROMAN,
    TITLE,
    _alarm_crossings,
    _board_label,
    _closed_roads,
    _false_clues_left,
    _filled,
    _head_colour,
    _letters_left,
    _location,
    _movable,
    _moves_left,
    _new_patrol_crossings,
    _night,
    _path,
    _patrols_standing,
    _patrols_to_tap,
    _police_order,
    _policemen_to_act,
    _row,
    _speaking,
    _told,
    _wretched_moves,
    _wretched_to_move,
    actions,
    board_of,
    is_over,
    listed,
)
from companion.words import Text, _


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
        # keeps it behind "Why?" and says the same at the top whatever it is
        # (docs/RULINGS.md#letters-from-whitechapel, "Jack's refusals are private").
        public["private_refusals"] = True
        # His phone draws the refusal under his now line, which stays in the first
        # 150 px with a refusal showing (issue 36, "Fits the screen").
        public["refusal_after_now"] = True
        public["sheet"] = _sheet(state)
        public["jack"] = _jack_private(state)
        public["now"] = _jack_now(state)
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
        public["now"] = _detective_now(state, viewer)
        # A detective's half-finished pick survives a live refresh (another phone's
        # move): the policeman and crossing tapped, whom he speaks for, an arrest begun.
        public["refresh_keeps"] = list(REFRESH_KEEPS)
    return public


REFRESH_KEEPS = ("cop", "to", "speak", "arrest")
"""The query arguments of a detective's picks (templates/games/whitechapel/_police*.html):
public, like everything on his phone."""

WAIT_FOR_JACK = {
    "hideout": _("Jack chooses his hideout: wait"),
    "women": _("Jack places the women: wait"),
    "letter": _("Jack may send a letter: wait"),
    "blood": _("Jack kills or waits: wait"),
    "jack": _("Jack is moving: wait"),
    "ready": _("Jack turns a patrol token over: wait"),
}
"""What a detective's phone says while only Jack acts."""

JACK_NOW = {
    "hideout": _("Your turn: your hideout"),
    "women": _("Your turn: mark the women"),
    "letter": _("Your turn: a letter?"),
    "jack": _("Your turn: move"),
    "patrols": _("Wait: the patrols are placed"),
    "suspense": _("Wait: the wretched move"),
    "ready": _("Your turn: turn a patrol token over"),
    "turned": _("Wait: the police say what the token shows"),
    "alarm": _("Wait: the police take their places"),
    "police": _("Wait: the police look for clues or arrest"),
}
"""What Jack's phone says first, by phase (the kill and the police's move have their
own lines: see _jack_now)."""

def _jack_now(state: State) -> dict[str, Any]:
    """The first line of Jack's phone: the same for every Jack at this point of the game,
    since it reads only the phase, the hour on the time track and his claim to be trapped
    (all public), so a neighbour's glance learns nothing from it."""
    phase = state["phase"]
    if phase == "over":
        return {"text": _("The game is over"), "detail": _outcome(state)["text"],
                "mine": False}
    if phase == "blood":
        # At the last hour (V) only the kill is left (Rulebook, "Jack's turn").
        text = (_("Your turn: kill or wait") if _night(state)["time"] < len(ROMAN)
                else _("Your turn: kill"))
    elif phase == "jack" and state["trapped_claim"]:
        text = _("Your turn: move: the detectives say you cannot move")
    elif _moves_left(state):
        text = _("Wait: the policemen move")
    else:
        text = JACK_NOW[phase]
    return {"text": text, "detail": _news(state) or "", "mine": phase in WAIT_FOR_JACK}


def _news(state: State) -> Text | None:
    """What just happened that every phone must read at its top, public: the end of a
    night until Jack has placed the next night's women, and the host ending the police's
    turn for a detective (docs/RULINGS.md#letters-from-whitechapel, "The police's turn")
    until Jack has moved."""
    number = state["night"]
    if state["phase"] == "women" and number > 1:
        ended = state["nights"][number - 2]
        return _("Night %(night)s is over: Jack reached his hideout on square %(square)s.",
                 night=ended["number"], square=_filled(ended))
    if _ended_by_host(state):
        # Short enough for the first lines of a phone; the table's events name the
        # policemen who did not act.
        return _("The host ended the police's turn.")
    return None


def _ended_by_host(state: State) -> bool:
    """Whether the host ended the police's turn just before this movement of Jack's."""
    night = _night(state)
    return state["phase"] == "jack" and any(
        o["after_move"] == len(night["moves"]) for o in night.get("overrides", []))


def _detective_now(state: State, seat: int) -> dict[str, Any]:
    """The first lines of a detective's phone: what happens now and who acts, in a
    player's words, short enough for one line of a 360 px phone ("Jack is moving:
    wait", "Your turn: move blue", "Watson moves green"), then what it means in
    ``detail``. ``mine`` says whether this phone has something to do now. Public facts
    only, like the rest of a detective's page."""
    phase = state["phase"]
    players = state["players"]
    if phase == "over":
        return {"text": _("The game is over"), "detail": _outcome(state)["text"],
                "mine": False}
    if phase == "jack" and state["trapped_claim"]:
        return {"text": _("Jack says if he is trapped: wait"), "detail": "", "mine": False}
    if phase == "women" and state["night"] > 1:
        return {"text": _news(state), "detail": _("Next: Jack places the women. Wait."),
                "mine": False}
    if phase in WAIT_FOR_JACK:
        return {"text": WAIT_FOR_JACK[phase], "detail": _news(state) or "", "mine": False}
    head = _head_colour(state)
    head_seat = state["policemen"][head]
    told = _told_now(state, seat, players[head_seat])
    if told is not None:
        return told
    if phase in ("patrols", "suspense"):
        if head_seat == seat:
            task = (_("Your turn: place the patrols") if phase == "patrols"
                    else _("Your turn: move the wretched"))
            return {"text": task, "detail": _("You are the Head of the Investigation."),
                    "mine": True}
        does = (_("%(player)s places the patrol tokens", player=players[head_seat])
                if phase == "patrols"
                else _("%(player)s moves the wretched", player=players[head_seat]))
        return {"text": does, "detail": _("Head of the Investigation: %(colour)s.",
                                          colour=COLOUR_NAMES[head]),
                "mine": False}
    if phase == "alarm":
        mine = [c for c in _movable(state, seat) if state["cops"]["at"][c] is None]
        waiting = {state["policemen"][c] for c in POLICEMEN
                   if state["cops"]["at"][c] is None} - {seat}
        others = listed([_("%(player)s places %(colours)s", player=players[s],
                           colours=_colours([c for c in POLICEMEN
                                             if state["policemen"][c] == s
                                             and state["cops"]["at"][c] is None]))
                         for s in sorted(waiting)], semicolons=True)
        if mine:
            # The one his phone has picked first; the rest follow in the detail line.
            detail = (_("Then %(colours)s. %(others)s", colours=_colours(mine[1:]),
                        others=others) if mine[1:] else others)
            return {"text": _("Your turn: place %(colour)s", colour=COLOUR_NAMES[mine[0]]),
                    "detail": detail, "mine": True}
        return {"text": _("Wait for %(players)s",
                          players=listed([players[s] for s in sorted(waiting)])),
                "detail": others, "mine": False}
    # The police's turn: Hunting 2 (each moves his own, at the same time), then 3.
    left = _moves_left(state)
    if left:
        return _moving_now(state, seat, left)
    speaker = _speaking(state)
    if speaker is None:  # a turn whose last policeman acted has already passed to Jack
        return {"text": _("The police are done"), "detail": _("Jack moves next."),
                "mine": False}
    speaker_seat = state["policemen"][speaker]
    mine = _policemen_to_act(state, seat)
    if speaker_seat == seat:
        if state["police"]["searching"] == speaker:
            return {"text": _("Your turn: %(colour)s searches on",
                              colour=COLOUR_NAMES[speaker]),
                    "detail": _("Tap the next circle, or stop."), "mine": True}
        return {"text": _("Your turn: %(colours)s", colours=_colours(mine)),
                "detail": _("Look for clues or arrest."), "mine": True}
    name = players[speaker_seat]
    colour = COLOUR_NAMES[speaker]
    text = (_("%(player)s searches with %(colour)s: wait", player=name, colour=colour)
            if state["police"]["searching"] == speaker else
            _("%(player)s speaks for %(colour)s: wait", player=name, colour=colour))
    if mine:
        then = _("Then you, for %(colours)s.", colours=_colours(mine))
    elif any(state["policemen"][c] == seat for c in POLICEMEN):
        then = _("Your policemen have acted this turn.")
    else:
        then = ""
    return {"text": text, "detail": then, "mine": False}


def _told_now(state: State, seat: int, head: str) -> dict[str, Any] | None:
    """A detective's first lines while the Head taps in what the board shows the
    companion's Jack (``_told``): the new patrol tokens' crossings, each wretched's
    move, what a turned token shows. Who taps, and what; None at any other time."""
    phase = state["phase"]
    night = _night(state)
    is_head = state["policemen"][_head_colour(state)] == seat
    if _patrols_to_tap(state):
        tapped = len(night.get("patrols", []))
        if is_head:
            # One line on a 360 px phone: the women's circles said under it stay
            # within the first 150 px.
            return {"text": _("Your turn: tap the 2 patrols"),
                    "detail": _("The 2 on yellow-bordered crossings (%(n)s of 2 tapped); "
                                "the app knows the 5 where the policemen stood.", n=tapped),
                    "mine": True}
        return {"text": _("%(player)s taps the patrols: wait", player=head),
                "detail": _("Then Jack kills or waits."), "mine": False}
    if phase == "suspense" and _told(state):
        counted = {"n": len(night["moved"]), "of": len(night["wretched"])}
        if is_head:
            return {"text": _("Your turn: move the wretched and tap each"),
                    "detail": _("Tap a wretched, then where you put it (%(n)s of %(of)s "
                                "moved).", **counted), "mine": True}
        return {"text": _("%(player)s moves the wretched and taps each", player=head),
                "detail": _("Then Jack turns a patrol token over."), "mine": False}
    if phase == "turned":
        where = crossing_names(board_of(state))[night["turning"]]
        if is_head:
            return {"text": _("Your turn: tap what the turned token shows"),
                    "detail": _("Jack turned over the patrol token on %(crossing)s.",
                                crossing=where), "mine": True}
        return {"text": _("%(player)s taps what the turned token shows", player=head),
                "detail": _("Jack turned over the patrol token on %(crossing)s.",
                            crossing=where), "mine": False}
    return None


def _moving_now(state: State, seat: int, left: list[str]) -> dict[str, Any]:
    """A detective's first lines while the policemen move (Hunting 2): his own to move,
    or whom the searches wait for."""
    players = state["players"]
    mine = [c for c in left if state["policemen"][c] == seat]
    others = sorted({state["policemen"][c] for c in left} - {seat})
    waiting = listed([_("%(player)s moves %(colours)s", player=players[s],
                        colours=_colours([c for c in left if state["policemen"][c] == s]))
                      for s in others], semicolons=True)
    if mine:
        return {"text": _("Your turn: move %(colours)s", colours=_colours(mine)),
                "detail": _("Meanwhile: %(others)s.", others=waiting) if others
                else _("Then the searches."), "mine": True}
    return {"text": _("Wait for %(players)s to move",
                      players=listed([players[s] for s in others])),
            "detail": _("%(others)s. Then the searches, from the Head of the Investigation "
                        "clockwise.", others=waiting), "mine": False}


DEFAULT_LETTER = re.compile(r"Jack's letter (\d)")
"""The name ``rules`` gives a letter sheet nobody named (rules.DEFAULT_LETTERS)."""


def letter_words(name: str) -> Text | str:
    """A letter's name as a page shows it: a default name in the reader's words, a name
    the table typed as it was typed."""
    default = DEFAULT_LETTER.fullmatch(name)
    return _("Jack's letter %(n)s", n=int(default[1])) if default else name


def _colours(colours: list[str]) -> Text | str:
    return listed([COLOUR_NAMES[c] for c in colours])


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
        "police_moving": _moves_left(state),
        "police_done": list(state["police"]["done"]),
        "police_searching": state["police"]["searching"],
        "police_searched": list(state["police"]["searched"]),
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
        "told": _told_view(state),
        "log": [_log_line(state, entry) for entry in night["log"]],
        # The answer to the last action, if it was a search or an arrest.
        "answer": (_log_line(state, night["log"][-1])
                   if state.get("answered") and night["log"] else None),
        "letters": [{"night": n["number"], "letter": letter_words(n["letter"])}
                    for n in state["nights"] if n["letter"]],
        "options": {"false_clues": state["options"]["false_clues"],
                    "letters": state["options"]["letters"],
                    "deduction_map": state["options"].get("deduction_map", False),
                    "police_map": state.get("cops") is not None,
                    "board": _board_label(state)},
        "trapped_claim": state["trapped_claim"],
        "outcome": _outcome(state),
        # The night just ended, in sight until Jack has placed the next night's women.
        "night_end": (_night_end(state["nights"][number - 2])
                      if number > 1 and state["phase"] == "women" and not is_over(state)
                      else None),
        "events": _events(state),
        "companion": ({"level": state["companion"], "said": companion_said(state)}
                      if state.get("companion") else None),
        "reveal": _sheet(state) if is_over(state) else None,
        "public_facts": public_facts(state),
        "seat_labels": _seat_labels(state),
    }


def _told_view(state: State) -> dict[str, Any] | None:
    """What the detectives told the app of the board for the companion's Jack, public
    like the tokens and pawns it names (``_told``): tonight's patrol tokens (their
    crossings, and what a turned one showed), the wretched, and what the Head may tap
    now (new patrol crossings; each wretched left to move and where it may go)."""
    if not _told(state) or state.get("cops") is None:
        return None
    night = _night(state)
    choices = _new_patrol_crossings(state) if _patrols_to_tap(state) else []
    hell = state["phase"] in ("patrols", "letter", "blood", "suspense", "ready", "turned",
                              "alarm")
    return {
        "patrols": [dict(p) for p in night.get("patrols", [])] if hell else [],
        "standing": _patrols_standing(night) if hell else [],
        "patrol_choices": choices,
        "names": {x: crossing_names(board_of(state))[x] for x in choices},
        "wretched": list(night.get("wretched", [])) if hell else [],
        "to_move": {c: _wretched_moves(state, c) for c in _wretched_to_move(state)},
        "turning": night.get("turning") if state["phase"] == "turned" else None,
    }


def companion_said(state: State) -> Text | None:
    """What the companion, playing Jack, does with his pieces on the real board, said to
    the table as a human Jack would show it (issue 39): where the women tokens go (face
    down: which are marked stays his), the targets and the crime scene once he kills,
    the Jack pawn and a Coach or Alley token on the move track after each movement.
    Public facts only, like the rest of the table screen."""
    night = _night(state)
    phase = state["phase"]
    if phase == "patrols" and night.get("unmarked") is not None:
        tokens = ", ".join(map(str, sorted(night["women"] + night["unmarked"])))
        # Short: with eight circles it still ends within a phone's first 150 px.
        return _("Women tokens face down on %(circles)s.", circles=tokens)
    moves = night["moves"]
    targets = _("The targets: %(circles)s: a wretched there, remove the other women "
                "tokens.", circles=listed([str(c) for c in sorted(night["women"])]))
    if phase in ("alarm", "police") and night["crimes"] and not moves:
        scenes = sorted(night["crimes"])
        killed = _("Jack killed on %(circle)s: crime scene.", circle=scenes[0]) \
            if len(scenes) == 1 else \
            _("Jack killed on %(circles)s: crime scenes; the Jack pawn on square "
              "%(square)s.", circles=listed([str(c) for c in scenes]),
              square=_filled(night))
        # After a wait the targets were said when he waited.
        return _sentences(targets, killed) if night["time"] == 1 else killed
    if _told(state) and phase in ("suspense", "blood", "turned") and night["time"] > 1:
        return _hell_said(state, targets)
    clues = night["clues"]
    if phase == "police" and clues and clues[-1]["false"] \
            and clues[-1]["after_move"] == len(moves):
        return _("Jack put a False clue on %(circle)s: a clue marker there.",
                 circle=clues[-1]["circle"])
    if phase == "police" and moves:
        square = _filled(night)
        kind = moves[-1]["kind"]
        if kind == "coach":
            return _("Jack took a Coach: two spaces on the track, the Coach token on "
                     "them (the Jack pawn on square %(square)s).", square=square)
        if kind == "alley":
            return _("Jack took an Alley: the Alley token on square %(square)s.",
                     square=square)
        return _("Jack moved: the Jack pawn on square %(square)s.", square=square)
    return None


def _hell_said(state: State, targets: Text) -> Text:
    """The companion's Jack between the targets and the kill: he waits (the targets
    said the first time), he turns a patrol token over, and what it showed."""
    night = _night(state)
    names = crossing_names(board_of(state))
    if state["phase"] == "turned":
        return _("Jack turns over the patrol token on %(crossing)s.",
                 crossing=names[night["turning"]])
    if state["phase"] == "suspense":
        waits = _("Jack waits: the time of the crime to %(time)s.",
                  time=ROMAN[night["time"] - 1])
        return _sentences(targets, waits) if night["time"] == 2 else waits
    last = next(p for p in night["patrols"] if p["crossing"] == night["turning"])
    if last["shows"] == FAKE:
        return _("The token on %(crossing)s was a fake patrol: take it off the board.",
                 crossing=names[last["crossing"]])
    return _("The token on %(crossing)s shows %(colour)s: it stays, face up.",
             crossing=names[last["crossing"]], colour=COLOUR_NAMES[last["shows"]])


def _seat_labels(state: State) -> list[Text]:
    """The seats as the deal names them, in the reader's words (the platform shows these
    rather than the English it kept when the table was made): public, like the deal."""
    labels = [_("Jack the Ripper")]
    for seat in range(1, len(state["players"])):
        colours = listed([COLOUR_NAMES[c] for c in POLICEMEN if state["policemen"][c] == seat],
                         commas=True)
        labels.append(_("Detective %(seat)s (%(colours)s)", seat=seat, colours=colours))
    return labels


def _night_end(night: Mapping[str, Any]) -> dict[str, Any]:
    """How a night ended, in public words: the square (never the circle) where Jack
    reached his hideout, the crime scenes (ascending: the double event's order stays
    his), the clues found and the arrests tried."""
    return {"night": night["number"], "date": NIGHTS[night["number"]]["date"],
            "square": _filled(night), "crimes": sorted(night["crimes"]),
            "clues": [c["circle"] for c in night["clues"]],
            "arrests": [e["circle"] for e in night["log"] if e["action"] == "arrest"]}


EVENTS_SHOWN = 12
"""The table screen's "Table events" lists this many of the game's latest events."""


def _events(state: State) -> list[Text]:
    """The game's public events, newest first: each night's crime, every search and
    arrest with its answer, and the escape (as a square)."""
    events = []
    for night in state["nights"]:
        number = night["number"]
        if night["crimes"]:
            scenes = listed([str(c) for c in sorted(night["crimes"])])
            events.append(_("Night %(night)s: a crime on %(circles)s", night=number,
                            circles=scenes))
        # The host's ended turns (after the searches of the same movement) among them.
        overrides = list(night.get("overrides", []))
        for entry in night["log"]:
            while overrides and overrides[0]["after_move"] < entry["after_move"]:
                events.append(_override_event(number, overrides.pop(0)))
            line = _log_line(state, entry)
            said = {"night": number, "colour": COLOUR_NAMES[line["policeman"]],
                    "circle": line["circle"], "result": RESULTS[line["result"]]}
            events.append(
                _("Night %(night)s: the %(colour)s policeman searches %(circle)s: %(result)s",
                  **said) if line["action"] == "search" else
                _("Night %(night)s: the %(colour)s policeman tries an arrest on %(circle)s: "
                  "%(result)s", **said))
        events += [_override_event(number, override) for override in overrides]
        if night["escaped"]:
            events.append(_("Night %(night)s: Jack reached his hideout on square %(square)s",
                            night=number, square=_filled(night)))
    return events[::-1][:EVENTS_SHOWN]


def _override_event(night: int, override: Mapping[str, Any]) -> Text:
    if not override["forgone"]:
        return _("Night %(night)s: the host ended the police's turn", night=night)
    return _("Night %(night)s: the host ended the police's turn; %(colours)s did not act",
             night=night, colours=_colours(override["forgone"]))


def _cops_view(state: State) -> dict[str, Any] | None:
    """Police on the map, public like the pawns on the board: each policeman's
    crossing, where that is in words (``where``, in the rules' order, None before he
    is placed: the board prints no number on a crossing, so a page never shows
    ``at``'s), the circles he may search or arrest
    in, and, while the detectives place or move them, the crossings each may go to."""
    cops = state.get("cops")
    board = board_of(state)
    if cops is None or board is None:
        return None
    at = dict(cops["at"])
    if state["phase"] == "alarm" and _told(state):
        reach = {c: set(_alarm_crossings(state, c)) for c in POLICEMEN}
    elif state["phase"] == "alarm":
        reach = dict.fromkeys(POLICEMEN, board.police_starts | set(cops["before"]))
    elif state["phase"] == "police" and _movable(state, TABLE):
        reach = {c: board.police_moves(cops["from"][c]) for c in POLICEMEN}
    else:
        reach = {}
    names = crossing_names(board)
    return {
        "at": at,
        "where": {c: names[at[c]] if at.get(c) is not None else None
                  for c in POLICEMEN},
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


def _prompt(state: State) -> tuple[str | None, Any]:
    """Who acts now, and what to do on the real board, in one line."""
    phase = state["phase"]
    number = state["night"]
    rules = NIGHTS[number]
    night = _night(state)
    head = _head_colour(state)
    head_name = (_("Head of the Investigation (%(player)s, %(colour)s policeman)",
                   player=state["players"][state["policemen"][head]],
                   colour=COLOUR_NAMES[head]) if head else "")
    if phase == "hideout":
        return "Jack", _("Jack: choose your hideout (any circle but a red one) on your phone.")
    if phase == "women":
        tokens = {"coaches": rules["coaches"], "alleys": rules["alleys"],
                  "women": rules["women"], "marked": rules["marked"]}
        if number == 1:
            return "Jack", _("Jack: take %(coaches)s Coach and %(alleys)s Alley tokens, place "
                             "%(women)s woman tokens facedown on red circles (%(marked)s "
                             "marked).", **tokens)
        return "Jack", _("Dawn: remove the clue markers and the Coach and Alley tokens; "
                         "Jack's pawn to the next night. Jack: take %(coaches)s Coach and "
                         "%(alleys)s Alley tokens, place %(women)s woman tokens facedown on "
                         "red circles, not on crime scenes (%(marked)s marked).", **tokens)
    if phase == "patrols":
        if number == 1:
            return "Head of the Investigation", _(
                "%(head)s: place the 7 police patrol tokens on yellow-bordered crossings.",
                head=head_name)
        placing = _(
            "%(head)s: place 5 patrol tokens where the policemen stood at the end of last "
            "night and 2 on free yellow-bordered crossings.", head=head_name)
        return "Head of the Investigation", (
            _sentences(placing, _("Then tap those 2 crossings on your phone."))
            if _patrols_to_tap(state) else placing)
    if phase == "letter":
        return "Jack", _("Jack may send one of Jack's letters.")
    if phase == "ready":
        return "Jack", _("Jack: turn over one police patrol token of your choice.")
    if phase == "turned":
        return "Head of the Investigation", _(
            "Jack turned over the patrol token on %(crossing)s. %(head)s: tap what it "
            "shows on your phone.", crossing=crossing_names(board_of(state))[night["turning"]],
            head=head_name)
    if phase == "blood":
        if night["time"] == 1:
            first = _("Turn the women face up: wretched pawns on %(circles)s; the others "
                      "leave. Time of the crime on I.",
                      circles=", ".join(map(str, sorted(night["women"]))))
        elif _told(state):
            first = None  # the companion turned his token over; its line says what it shows
        else:
            first = _("Jack: turn over one police patrol token of your choice.")
        double = number == DOUBLE_EVENT
        if night["time"] == len(ROMAN):
            then = (_("It is V: Jack must kill two victims now.") if double
                    else _("It is V: Jack must kill a victim now."))
        else:
            then = (_("Jack: kill two victims or wait.") if double
                    else _("Jack: kill a victim or wait."))
        return "Jack", _sentences(first, then) if first else then
    if phase == "suspense":
        moving = _(
            "Time of the crime to %(time)s. %(head)s: move every wretched pawn to an adjacent "
            "free circle (not next to or past a patrol token, not onto a crime scene).",
            time=ROMAN[night["time"] - 1], head=head_name)
        return "Head of the Investigation", (
            _sentences(moving, _("Tap each on your phone: the wretched, then where it goes."))
            if _told(state) else moving)
    alarm = _("Alarm whistles! Police: turn over all patrol tokens, put each policeman on "
              "his token, remove the fake patrols and the wretched pawns.")
    if phase == "alarm":
        return "Police", _sentences(
            alarm, _("Then tap each policeman's crossing on the police map."))
    first_move = not (night["moves"] or state.get("cops") is not None)
    if phase == "jack":
        if state["trapped_claim"]:
            return "Jack", _("The detectives say Jack has no legal move: Jack confirms or "
                             "denies.")
        move = _("Jack: make your move (square %(square)s of %(last)s).",
                 square=_filled(night) + 1, last=LAST_SQUARE)
        news = _news(state)
        return "Jack", (_sentences(alarm, move) if first_move
                        else _sentences(news, move) if news else move)
    if phase == "police":
        order = listed([COLOUR_NAMES[c] for c in _police_order(state)], commas=True)
        left = _moves_left(state)
        if left:
            hunt = _("Police: move each policeman 0-2 crossings and tap his new crossing on "
                     "the police map, or that he stays (still to move: %(colours)s). Then "
                     "the searches, from the Head of the Investigation clockwise "
                     "(%(order)s).", colours=_colours(left), order=order)
        elif state.get("cops") is not None:
            hunt = _("Police, from the Head of the Investigation clockwise (%(order)s): each "
                     "policeman looks for clues or makes an arrest.", order=order)
        else:
            hunt = _("Police, from the Head of the Investigation clockwise (%(order)s): move "
                     "each policeman 0-2 crossings, then each looks for clues or makes an "
                     "arrest.", order=order)
        return "Police", _sentences(alarm, hunt) if first_move else hunt
    return None, _outcome(state)["text"]


def _sentences(first: Any, then: Any) -> Text:
    """Two whole sentences, one after the other."""
    return _("%(first)s %(then)s", first=first, then=then)


def _outcome(state: State) -> dict[str, Any] | None:
    outcome = state["outcome"]
    if outcome is None:
        return None
    circle = _location(state["nights"][outcome["night"] - 1])
    texts = {
        "arrest": _("The detectives arrested Jack the Ripper on %(circle)s!", circle=circle),
        "square15": _("Jack did not reach his hideout by square 15: the detectives win."),
        "no_legal_move": _("Jack had no legal move: the detectives win."),
        "escape": _("Jack the Ripper escaped on the fourth night: Jack wins."),
    }
    return dict(outcome, text=texts[outcome["reason"]])


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
        # Each letter's name as his phone shows it; the form sends the name kept.
        "letter_words": {name: letter_words(name) for name in _letters_left(state)},
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
