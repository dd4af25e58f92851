"""What each seat and the table screen see of Mr. Jack (``view``): the public game and a
seat's secrets, the sentences that say what happens now and who acts, the reminders for
the physical pieces, the log as its reader may read it, and the reveal at the end.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.base import TABLE, State, Viewer, reveal_step, reveal_view
from companion.games.mrjack.log import _kept, _outcome_text
from companion.games.mrjack.rules import actions
from companion.games.mrjack.state import (
    ANSWERS,
    CARDS_PER_TURN,
    CHARACTERS,
    DETECTIVE,
    DRAFT_HAND,
    DRAFT_KEEP,
    JACK,
    LAST_TURN,
    NOBODY,
    NUMBERED_GASLIGHTS,
    ROLE_NAMES,
    ROLES,
    TITLE,
    WHO,
    WHO_CAPITAL,
    WITNESS_SIDES,
    Words,
    _check_viewer,
    _commas,
    _due,
    _escape_open,
    _innocent,
    _last_pick,
    _listed,
    _marks_checked,
    _names,
    _suspects,
    _who,
)
from companion.words import Text, _, pgettext

# Only the abilities given in the rulebook texts; the base game's cards are
# not in them, so for those the table is told to read the card (docs/RULINGS.md#mr-jack,
# "Abilities shown"). Sherlock Holmes's alibi draw is the one the companion runs.
ABILITIES = {
    "holmes": _("After moving, draw an alibi card in secret on your phone."),
    "madame": _("Moves 1 to 6 hexes and never uses the sewers."),
    "spring": _("Moves 1 to 3 hexes and may jump over a structure or a character "
                "(1 movement point per jump)."),
    "pizer": _("Moves 1 to 3 hexes, then every adjacent character flees 3 hexes "
               "(no sewers, not through his hex)."),
    "abberline": _("Moves 1 to 3 hexes. A character on a street hex next to him has "
                   "only 1 movement point."),
    "lane": _("Moves 1 to 3 hexes and moves the Barricade between two street hexes "
              "(never across an exit), before or after moving."),
    "moriarty": _("Has the movement and ability of the character he impersonates."),
}

BASE_SETUP_STEPS = (
    _("The detective sits at the yellow edge of the board, Jack at the grey edge."),
    _("Set the 8 character tokens (suspect side up), the 2 covered manhole tiles, the 6 lit "
      "gaslight tiles and the 2 police cordons as in the rulebook's setup picture."),
    _("Witness card: 'Jack seen' side up. Turn counter on Turn 1."),
    _("The companion has shuffled the character cards and the alibi cards."),
    _("Jack: hold to peek at your alibi card on your phone. That is who you are all game."),
)
LONDON_SETUP_STEPS = (
    _("The detective sits at the yellow edge of the board, Jack at the grey edge."),
    _("Place the Witness card ('Jack seen' side up), the turn counter on Turn 1, the manhole "
      "covers and the lit gaslight tiles as in the base game."),
    _("Draft: each player keeps 2 of the 5 characters dealt to his phone."),
    _("Then place the 8 character tokens, suspect side up, on street hexes in the order "
      "the table screen shows."),
)


def view(state: State, viewer: Viewer) -> dict[str, Any]:
    """What ``viewer`` may know: the TABLE sees the public game, a seat adds its secrets.

    Secrets: Jack's alibi (Jack only), the alibi deck (nobody), drawn alibi cards
    (their drawer, until published), draft hands and choices (their owner, until
    both have chosen), the character deck's order (nobody). At the end of the
    game everything but the decks' order is revealed.

    A seat's refusals are private while the game runs (``private_refusals``): the
    reason may tell its secret (an escape refused says that the character just played
    is not Jack's), so the phone says the same at the top and the reason waits behind
    "Why?" (docs/RULINGS.md#mr-jack, "Refusals are private").
    """
    _check_viewer(viewer)
    over = state["phase"] == "over"
    seat = viewer if viewer in (JACK, DETECTIVE) else None
    result: dict[str, Any] = {
        "title": TITLE,
        "london": state["london"],
        "phase": state["phase"],
        "viewer": ROLES[seat] if seat is not None else "Table",
        "players": {ROLES[index]: name for index, name in enumerate(state["players"])},
        "who": dict(zip(ROLES, WHO, strict=True)),
        "who_capital": dict(zip(ROLES, WHO_CAPITAL, strict=True)),
        "roles": dict(ROLE_NAMES),
        "turn": state["turn"],
        "last_turn": LAST_TURN,
        "status": _status(state),
        "prompt": _prompt(state, viewer),
        "now": _now(state, seat) if seat is not None else None,
        "actions": actions(state, viewer),
        "setup_steps": _setup_steps(state),
        "reminders": _reminders(state),
        "characters": [_character(state, card) for card in state["characters"]],
        "suspects": [_card(card) for card in _suspects(state)],
        "round": _round_view(state),
        "witness": {"side": state["witness"], "label": WITNESS_SIDES[state["witness"]],
                    "answer": ANSWERS[state["answer"]] if state["answer"] else None},
        "marks": _marks_view(state),
        "escape_possible": _escape_open(state),
        "escape_note": _escape_note(state),
        "alibi_deck_count": len(state["alibi_deck"]),
        "alibi_draws": [_alibi_draw(entry, seat, over) for entry in state["alibi_draws"]],
        "moriarty": _moriarty_view(state),
        "draft": _draft_view(state, seat, over),
        "outcome": _outcome_view(state),
        "reveal": _reveal(state) if over else None,
        "log": _log_view(state, seat, over),
        "alibi": None,
        "marks_warning": None,
        "my_alibi_cards": [],
        "private_refusals": seat is not None and not over,
    }
    if over or seat == JACK:
        result["alibi"] = _card(state["alibi"]) if state["alibi"] else None
    if seat == JACK and _marks_checked(state) and state["alibi"] in _innocent(
            state, state["marks"]["seen"]):
        # Shown only behind hold-to-peek, with the alibi: open, it would tell a glance
        # that Jack is among the marks.
        result["marks_warning"] = _(
            "These marks would clear you: they contradict your answer. Look at the board "
            "with the detective: send the marks back if one is wrong, or correct your "
            "answer if it was wrong.")
    if seat is not None:
        result["my_alibi_cards"] = [
            dict(_card(entry["character"]), published=entry["published"])
            for entry in state["alibi_draws"] if entry["seat"] == seat]
    return result


def _card(card: str) -> dict[str, Any]:
    """A character card; ``ability`` is None where the table reads the physical card."""
    return {"id": card, "name": CHARACTERS[card], "ability": ABILITIES.get(card)}


def _character(state: State, card: str) -> dict[str, Any]:
    return dict(_card(card), suspect=card not in state["cleared"])


def _round_view(state: State) -> dict[str, Any] | None:
    """The four face-up cards, who takes them in which order, and who took which."""
    current = state["round"]
    if current is None:
        return None
    taken = {pick["character"]: ROLES[pick["seat"]] for pick in current["picks"]}
    due = _due(state)
    return {
        "cards": [dict(_card(card), taken_by=taken.get(card)) for card in current["cards"]],
        "order": [ROLES[seat] for seat in current["order"]],
        "done": len(current["picks"]),
        "next": ROLES[due] if due is not None and state["phase"] != "over" else None,
        "verb": "place" if state["phase"] == "placement" else "play",
    }


def _marks_view(state: State) -> dict[str, Any] | None:
    """The detective's marks of this call for witnesses, and whom they would clear."""
    marks = state["marks"]
    if not marks:
        return None
    cleared = _innocent(state, marks["seen"])
    return {"seen": [_card(card) for card in marks["seen"]],
            "cleared": [_card(card) for card in cleared],
            "seen_names": _commas(marks["seen"]) or NOBODY,
            "cleared_names": _commas(cleared) or NOBODY,
            "returned": marks["returned"]}


def _moriarty_view(state: State) -> dict[str, Any] | None:
    moriarty = state["moriarty"]
    if not moriarty:
        return None
    current = moriarty["current"]
    pending = moriarty["pending"]
    return {
        "row": [_card(card) for card in moriarty["row"] if card != current],
        "removed": [_card(card) for card in moriarty["removed"]],
        "removed_names": _commas(moriarty["removed"]),
        "impersonates": _card(current) if current else None,
        "choosing": ROLES[pending] if pending is not None else None,
    }


def _draft_view(state: State, seat: int | None, over: bool) -> dict[str, Any] | None:
    """Each hand and its choice are their owner's until both have chosen."""
    draft = state["draft"]
    if not draft:
        return None
    revealed = all(draft["kept"])
    kept = draft["kept"][seat] or [] if seat is not None else []
    return {
        "hand": [_card(card) for card in draft["hands"][seat]] if seat is not None else [],
        "kept": [_card(card) for card in kept],
        "kept_names": _names(kept),
        "chosen": {ROLES[index]: bool(kept) for index, kept in enumerate(draft["kept"])},
        "revealed": ({ROLES[index]: [_card(card) for card in kept]
                      for index, kept in enumerate(draft["kept"])} if revealed else None),
        "revealed_names": ({ROLES[index]: _names(kept)
                            for index, kept in enumerate(draft["kept"])} if revealed else None),
        "hands": ({ROLES[index]: [_card(card) for card in hand]
                   for index, hand in enumerate(draft["hands"])} if over else None),
        "hands_names": ({ROLES[index]: _commas(hand)
                         for index, hand in enumerate(draft["hands"])} if over else None),
        "keep_count": DRAFT_KEEP,
    }


def _alibi_draw(entry: Mapping[str, Any], seat: int | None, over: bool) -> dict[str, Any]:
    shown = entry["published"] or over or entry["seat"] == seat
    return {"by": ROLES[entry["seat"]], "turn": entry["turn"], "published": entry["published"],
            "card": _card(entry["character"]) if shown else None}


def _outcome_view(state: State) -> dict[str, Any] | None:
    outcome = state["outcome"]
    if not outcome:
        return None
    return {"winner": ROLES[outcome["winner"]], "text": _outcome_text(outcome)}


# --- the reveal at the end ---------------------------------------------------

def _played(picks: Sequence[Mapping[str, Any]]) -> Text:
    if not picks:
        return _("Played: nothing yet.")
    # Made apart: pybabel does not extract a _() nested in another's arguments.
    played = [_("%(character)s (%(who)s)", character=CHARACTERS[pick["character"]],
                who=WHO[pick["seat"]]) for pick in picks]
    return _("Played: %(picks)s.", picks=_listed(played, "comma"))


def _drawn(entry: Mapping[str, Any]) -> Text:
    if entry["published"]:
        return _("%(who)s drew the alibi card of %(character)s (shown to the table).",
                 who=_who(entry["seat"], True), character=CHARACTERS[entry["character"]])
    return _("%(who)s drew the alibi card of %(character)s.", who=_who(entry["seat"], True),
             character=CHARACTERS[entry["character"]])


def _reveal(state: State) -> dict[str, Any]:
    """The witness calls turn by turn (the characters played and by whom, Seen or Not
    seen, who was marked seen and who was cleared), the alibi cards drawn in their turn,
    and the end: the turn it came in with what was played of it."""
    draws = state["alibi_draws"]
    steps = []
    for call in state.get("calls", []):
        steps.append(reveal_step(
            # Mr. Jack's own words for a turn (not the shared "Turn %(turn)s"): its German
            # edition counts the eight turns in Runden.
            _("Turn %(number)s", number=call["turn"]),
            _("%(answer)s: %(cleared)s cleared.", answer=ANSWERS[call["answer"]],
              cleared=_names(call["cleared"]) or NOBODY),
            call["answer"],
            [_played(call["picks"]),
             _("Marked seen: %(seen)s.", seen=_names(call["seen"]) or NOBODY),
             *(_drawn(entry) for entry in draws if entry["turn"] == call["turn"])]))
    called = {call["turn"] for call in state.get("calls", [])}
    last = [] if state["turn"] in called or state["round"] is None else [
        _played(state["round"]["picks"]),
        *(_drawn(entry) for entry in draws if entry["turn"] == state["turn"])]
    steps.append(reveal_step(_("Turn %(number)s", number=state["turn"]),
                             _outcome_text(state["outcome"]), "end", last))
    # Jack's character: the outcome above the reveal says it (the view's ``alibi``).
    drawn: Words = ""
    for entry in draws:
        line = _("Turn %(turn)s: %(drawn)s", turn=entry["turn"], drawn=_drawn(entry))
        drawn = _("%(lines)s %(line)s", lines=drawn, line=line) if drawn else line
    facts = [(_("Alibi cards drawn"), drawn or pgettext("cards", "none")),
             (_("Never cleared"), _names(_suspects(state)))]
    return reveal_view(facts, _("Turn by turn"), steps)


# --- the log and what happens now --------------------------------------------

def _log_view(state: State, seat: int | None, over: bool) -> list[dict[str, Any]]:
    """The history: public lines, plus the secret lines this viewer may read, each in the
    reader's language where its key was kept (English for states saved before)."""
    lines = []
    for entry in state["log"]:
        lines.append({"turn": entry["turn"], "text": _kept(entry.get("say"), entry["text"]),
                      "secret": False})
        secret_say = entry.get("secret_say")
        if not isinstance(secret_say, dict):
            secret_say = {}
        for owner, text in entry["secrets"].items():
            if over or owner == str(seat):
                lines.append({"turn": entry["turn"], "text": _kept(secret_say.get(owner), text),
                              "secret": True})
    return lines


def _setup_steps(state: State) -> list[Text]:
    """The physical setup checklist, shown until the first card of turn 1 is played."""
    if state["phase"] in ("draft", "placement"):
        return list(LONDON_SETUP_STEPS)
    if state["phase"] == "play" and state["turn"] == 1 and not state["round"]["picks"]:
        if not state["london"]:
            return list(BASE_SETUP_STEPS)
        return [BASE_SETUP_STEPS[-1]]
    return []


def _reminders(state: State) -> list[Text]:
    """Game Play III. and IV. on the table: what to do with the physical pieces now."""
    if state["phase"] == "placement":
        if state["moriarty"]:
            notes = [_("Professor Moriarty is in play: lay the 6 unused character cards "
                       "face up in a row and the '?' token by the deck.")]
        else:
            notes = [_("Put the cards and tokens of the 6 unused characters back in the box.")]
        if "lane" in state["characters"]:
            notes.append(_("Joseph Lane is in play: place the Barricade with his token."))
        return notes
    if state["phase"] != "play":
        return []
    turn = state["turn"]
    if _due(state) is None:
        if turn in NUMBERED_GASLIGHTS:
            return [_("After the call for witnesses, gaslight %(turn)s goes out.", turn=turn)]
        return []
    if state["round"]["picks"] or turn == 1:
        return []
    ended = turn - 1
    notes = []
    if ended in NUMBERED_GASLIGHTS:
        notes.append(_("Turn %(turn)s is over: remove the lit gaslight tile numbered "
                       "%(turn)s.", turn=ended))
    notes.append(_("Move the turn counter to Turn %(turn)s.", turn=turn))
    if ended % 2 == 0:
        notes.append(_("The character cards have been reshuffled."))
    return notes


def _escape_note(state: State) -> Text | None:
    if state["phase"] != "play":
        return None
    if state["answer"] is not None:
        if state["answer"] == "not_seen":
            return _("Jack may try to leave the district next turn.")
        return _("Jack cannot try to leave the district next turn.")
    if _escape_open(state):
        return _("The Witness card shows 'Jack not seen': Jack may try to leave the district "
                 "this turn.")
    return _("The Witness card shows 'Jack seen': Jack cannot leave the district this turn.")


def _status(state: State) -> Words:
    """One public line: what the table is waiting for."""
    phase = state["phase"]
    turn = state["turn"]
    if phase == "over":
        return _outcome_text(state["outcome"])
    if phase == "draft":
        waiting = [seat for seat in (JACK, DETECTIVE) if not state["draft"]["kept"][seat]]
        if len(waiting) == 2:
            return _("Draft: waiting for Jack and the detective to keep 2 characters.")
        return _("Draft: waiting for %(who)s to keep 2 characters.", who=_who(waiting[0]))
    due = _due(state)
    if phase == "placement":
        return _("Placement: %(who)s places a character token.", who=_who(due))
    moriarty = state["moriarty"]
    if moriarty and moriarty["pending"] is not None:
        return _("Turn %(turn)s: %(who)s chooses whom Professor Moriarty impersonates.",
                 turn=turn, who=_who(moriarty["pending"]))
    if due is not None:
        return _("Turn %(turn)s: %(who)s chooses a character (%(number)s of %(count)s).",
                 turn=turn, who=_who(due), number=len(state["round"]["picks"]) + 1,
                 count=CARDS_PER_TURN)
    if turn == LAST_TURN:
        return _("Turn %(turn)s: when Jack's last character has moved, dawn breaks.",
                 turn=LAST_TURN)
    if state["answer"] is None:
        return _("Turn %(turn)s: call for witnesses. Jack, are you seen?", turn=turn)
    if _marks_checked(state):
        return _("Turn %(turn)s: Jack checks the detective's marks against the board.",
                 turn=turn)
    if state["marks"]:
        return _("Turn %(turn)s: %(answer)s. The detective marks again which characters are "
                 "seen on the board.", turn=turn, answer=ANSWERS[state["answer"]])
    return _("Turn %(turn)s: %(answer)s. The detective marks which characters are seen on "
             "the board.", turn=turn, answer=ANSWERS[state["answer"]])


def _task(state: State) -> tuple[list[int], Text, Text]:
    """Who the table waits for now, and the task as the acting phone's first line ("Your
    turn: ...") and as the other phone's ("... : wait")."""
    phase = state["phase"]
    if phase == "draft":
        acting = [seat for seat in (JACK, DETECTIVE) if not state["draft"]["kept"][seat]]
        return (acting, _("Your turn: keep 2 characters"),
                _("%(who)s keeps 2 characters: wait", who=_who(acting[0], True)))
    due = _due(state)
    if phase == "placement":
        return ([due], _("Your turn: place a character"),
                _("%(who)s places a character: wait", who=_who(due, True)))
    moriarty = state["moriarty"]
    if moriarty and moriarty["pending"] is not None:
        pending = moriarty["pending"]
        return ([pending], _("Your turn: choose whom Moriarty impersonates"),
                _("%(who)s chooses whom Moriarty impersonates: wait",
                  who=_who(pending, True)))
    if due is not None:
        number, count = len(state["round"]["picks"]) + 1, CARDS_PER_TURN
        return ([due], _("Your turn: play a character (%(number)s of %(count)s)",
                         number=number, count=count),
                _("%(who)s plays a character (%(number)s of %(count)s): wait",
                  who=_who(due, True), number=number, count=count))
    jack = _who(JACK, True)
    if state["turn"] == LAST_TURN:
        return ([JACK], _("Your turn: end the game at dawn"),
                _("%(who)s ends the game at dawn: wait", who=jack))
    if state["answer"] is None:
        return ([JACK], _("Your turn: answer the call for witnesses"),
                _("%(who)s answers the call for witnesses: wait", who=jack))
    if _marks_checked(state):
        return ([JACK], _("Your turn: check the marks on the board"),
                _("%(who)s checks the marks on the board: wait", who=jack))
    return ([DETECTIVE], _("Your turn: mark who is seen"),
            _("%(who)s marks who is seen: wait", who=_who(DETECTIVE, True)))


def _now(state: State, seat: int) -> dict[str, Any]:
    """The first lines of a phone, as on Whitechapel's detective phone: what happens now
    and who acts, short enough for one line at 360 px ("Your turn: mark who is seen",
    "Jack checks the marks on the board: wait"), then this phone's task in a sentence.
    Public facts only, so it reads the same whatever the seat's secrets."""
    if state["phase"] == "over":
        return {"text": _("The game is over"), "detail": "", "mine": False}
    acting, mine, theirs = _task(state)
    prompt = _prompt(state, seat)
    detail = prompt if prompt != _status(state) else ""
    if seat in acting:
        return {"text": mine, "detail": detail, "mine": True}
    return {"text": theirs, "detail": detail, "mine": False}


def _prompt(state: State, viewer: Viewer) -> Words:
    """What this viewer should do now, in a sentence."""
    mine = actions(state, viewer)
    if viewer == TABLE:
        if "place" in mine:
            return _("Tap the character %(who)s places (on any street hex).",
                     who=_who(_due(state)))
        return _status(state)
    if "keep" in mine:
        return _("Keep %(keep)s of your %(hand)s characters. Nobody sees your hand.",
                 keep=DRAFT_KEEP, hand=DRAFT_HAND)
    if "impersonate" in mine:
        return _("Professor Moriarty: choose the character he impersonates.")
    if "place" in mine:
        return _("Place a character token on any street hex, then tap it here.")
    if "pick" in mine:
        return _("Choose the character you play.")
    if "witness" in mine:
        last = _last_pick(state)
        if last["seat"] == JACK:
            return _("Call for witnesses: is your character seen (lit or next to another)?")
        return _("When the detective has moved %(character)s: Call for witnesses: is your "
                 "character seen (lit or next to another)?",
                 character=CHARACTERS[last["character"]])
    if "mark_seen" in mine:
        answer = ANSWERS[state["answer"]]
        if state["answer"] == "seen":
            if state["marks"]:
                return _("Jack sent your marks back: look at the board together. %(answer)s: "
                         "tick every suspect that is seen on the board (lit or next to another "
                         "character). Those not seen are innocent; Jack checks your marks.",
                         answer=answer)
            return _("%(answer)s: tick every suspect that is seen on the board (lit or next "
                     "to another character). Those not seen are innocent; Jack checks your "
                     "marks.", answer=answer)
        if state["marks"]:
            return _("Jack sent your marks back: look at the board together. %(answer)s: "
                     "tick every suspect that is seen on the board (lit or next to another "
                     "character). Those seen are innocent; Jack checks your marks.",
                     answer=answer)
        return _("%(answer)s: tick every suspect that is seen on the board (lit or next to "
                 "another character). Those seen are innocent; Jack checks your marks.",
                 answer=answer)
    if "confirm_marks" in mine:
        return _("Look at the board: do the detective's marks show who is seen?")
    if "draw_alibi" in mine:
        return _("Sherlock Holmes: after moving him, draw an alibi card.")
    last = _last_pick(state) if state["phase"] == "play" else None
    if last and last["seat"] == viewer and state["answer"] is None:
        return _("Move %(character)s on the board.", character=CHARACTERS[last["character"]])
    return _status(state)
