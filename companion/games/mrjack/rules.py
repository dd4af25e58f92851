"""Mr. Jack's rules: the setup form, Setup, the moves of Game Play as the rulebooks name
them (``apply``, ``HANDLERS``), and why a move may not be made now (``_refusal``), from
which ``actions`` follows.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.base import (
    TABLE,
    RuleError,
    State,
    Viewer,
    check_call,
    draw,
    evolve,
    parse_bool,
    parse_choice,
    require,
    shuffled,
)
from companion.games.mrjack.log import _kept_line, _log, _say
from companion.games.mrjack.state import (
    ANSWERS,
    CARDS_PER_TURN,
    CHARACTERS,
    DETECTIVE,
    DRAFT_HAND,
    DRAFT_KEEP,
    JACK,
    LAST_TURN,
    NUMBERED_GASLIGHTS,
    ROLE_NAMES,
    ROLES,
    _check_viewer,
    _due,
    _innocent,
    _last_pick,
    _marks_checked,
    _suspects,
    _who,
)
from companion.words import Text, _

MIN_PLAYERS = 2
MAX_PLAYERS = 2
DEFAULT_PLAYERS = 2

FIXED_SEATS = frozenset({JACK, DETECTIVE})

# Base game: the eight characters of the box (docs/RULINGS.md#mr-jack, "Characters").
BASE_CHARACTERS = ("holmes", "watson", "smith", "lestrade", "stealthy", "goodley", "gull", "bert")
# Extension I. "4 basic characters (used in every game)".
LONDON_BASIC = ("bert", "holmes", "lestrade", "smith")
# Extension I. "10 additional characters", the draft pool.
LONDON_ADDITIONAL = ("stealthy", "madame", "goodley", "gull", "pizer", "lane", "watson",
                     "abberline", "spring", "moriarty")

# Sherlock Holmes's ability, the one the companion runs (docs/RULINGS.md#mr-jack,
# "Alibi draws").
ALIBI_DRAWER = "holmes"

# Game Play I. A/B and Extension II.: who chooses each of the four cards.
ODD_ORDER = (DETECTIVE, JACK, JACK, DETECTIVE)
EVEN_ORDER = (JACK, DETECTIVE, DETECTIVE, JACK)

ACTION_TYPES = ("keep", "place", "pick", "impersonate", "draw_alibi", "publish_alibi",
                "accuse", "escape", "witness", "mark_seen", "confirm_marks", "return_marks",
                "correct_answer", "dawn")

EXACTLY_TWO = _("Mr. Jack is a game for exactly 2 players: Jack and the detective.")


# --- the setup form -------------------------------------------------------

def seat_labels(count: int, options: Mapping[str, Any]) -> list[str]:
    """Seat 0 plays Jack, seat 1 the detective (Setup: "who is to play Jack")."""
    return [ROLE_NAMES[role] for role in ROLES[:count]]


OPTION_WORDS = {"london": _("Mr. Jack London extension")}
"""The setup form's options by name, to say which a new table kept from the last one
(``companion/games/base.py``, ``OPTION_WORDS``)."""


def default_options() -> dict[str, Any]:
    """The base game, without the Mr. Jack London extension."""
    return {"london": False}


def parse_options(form: Mapping[str, str], count: int) -> dict[str, Any]:
    """The one option: play with the Mr. Jack London extension (draft, new characters)."""
    require(count == 2, EXACTLY_TWO)
    return {"london": parse_bool(form.get("london"))}


def form_from(options: Mapping[str, Any]) -> dict[str, str]:
    """The setup form's fields for ``options`` (the inverse of parse_options)."""
    return {"london": "on"} if options.get("london") else {}


# --- setup ---------------------------------------------------------------

def setup(options: Mapping[str, Any], players: Sequence[str], rng: random.Random) -> State:
    """Base game Setup, or Extension Setup I. (the draft deal) with the London option."""
    require(len(players) == 2, EXACTLY_TWO)
    london = bool(options.get("london", False))
    state: State = {
        "players": [str(name) for name in players],
        "london": london,
        "phase": "play",
        "turn": 0,
        "characters": [],
        "deck": [],
        "round": None,
        "alibi": None,
        "alibi_deck": [],
        "alibi_draws": [],
        "witness": "seen",
        "answer": None,
        "marks": None,
        "cleared": [],
        "calls": [],
        "draft": None,
        "moriarty": None,
        "outcome": None,
        "log": [],
    }
    if london:
        _deal_draft(state, rng)
    else:
        state["characters"] = list(BASE_CHARACTERS)
        _deal_alibi(state, rng)
        state["deck"] = shuffled(state["characters"], rng)
        _start_turn(state)
    return state


def _deal_draft(state: State, rng: random.Random) -> None:
    """Extension I.: the 10 additional cards, dealt one by one beginning with Jack."""
    pool = shuffled(LONDON_ADDITIONAL, rng)
    hands: list[list[str]] = [[], []]
    for dealt in range(2 * DRAFT_HAND):
        hands[dealt % 2] += draw(pool)
    state["phase"] = "draft"
    state["draft"] = {"hands": hands, "kept": [None, None]}
    _log(state, ("draft_dealt", {}),
         {seat: ("dealt", {"seat": seat, "cards": hands[seat]}) for seat in (JACK, DETECTIVE)})


def _deal_alibi(state: State, rng: random.Random) -> None:
    """Setup: the alibi cards are shuffled; Jack draws one in secret: who he is all game."""
    state["alibi_deck"] = shuffled(state["characters"], rng)
    state["alibi"] = draw(state["alibi_deck"])[0]
    _log(state, ("alibi_shuffled", {}), {JACK: ("alibi_card", {"card": state["alibi"]})})


def _start_round(state: State, order: Sequence[int]) -> None:
    """Lay out the next four character cards (odd turn: the top four; even: the other four)."""
    state["round"] = {"cards": draw(state["deck"], CARDS_PER_TURN), "order": list(order),
                      "picks": []}


def _start_turn(state: State) -> None:
    """Game Play I.: a new turn; its four cards are turned face up."""
    state["turn"] += 1
    state["answer"] = None
    state["marks"] = None
    odd = state["turn"] % 2 == 1
    _start_round(state, ODD_ORDER if odd else EVEN_ORDER)
    _log(state, ("face_up", {"turn": state["turn"], "cards": state["round"]["cards"]}))


# --- apply ---------------------------------------------------------------

def apply(state: State, actor: Viewer, action: Mapping[str, str], rng: random.Random) -> State:
    """One action from a phone (seat) or the table screen; see ACTION_TYPES."""
    check_call(actor, action, len(ROLES))
    kind = str(action.get("type", ""))
    if kind not in ACTION_TYPES:
        raise RuleError(_("That is not something you can do in Mr. Jack."))
    refusal = _refusal(state, actor, kind)
    if refusal:
        raise RuleError(refusal)
    state = evolve(state)
    HANDLERS[kind](state, actor, action, rng)
    return state


def _keep(state: State, actor: Viewer, action: Mapping[str, str], rng: random.Random) -> None:
    """Extension I.: keep 2 of the 5 cards; both pairs are revealed at once."""
    seat = int(actor)
    draft = state["draft"]
    hand = draft["hands"][seat]
    kept = [card for card in hand if parse_bool(action.get(f"keep_{card}"))]
    require(len(kept) == DRAFT_KEEP,
            _("Keep exactly %(keep)s of your %(hand)s characters (%(chosen)s chosen).",
              keep=DRAFT_KEEP, hand=DRAFT_HAND, chosen=len(kept)))
    draft["kept"][seat] = kept
    _log(state, ("has_chosen", {"seat": seat}), {seat: ("kept", {"seat": seat, "cards": kept})})
    if all(draft["kept"]):
        _reveal_draft(state, rng)


def _reveal_draft(state: State, rng: random.Random) -> None:
    """Extension I.: the 4 chosen join the 4 basic; Moriarty's row is the 6 unused."""
    jack_kept, detective_kept = state["draft"]["kept"]
    chosen = set(jack_kept) | set(detective_kept)
    state["characters"] = [card for card in CHARACTERS
                           if card in chosen or card in LONDON_BASIC]
    _log(state, ("draft_revealed", {"jack": jack_kept, "detective": detective_kept,
                                    "cards": state["characters"]}))
    if "moriarty" in chosen:
        state["moriarty"] = {"row": [card for card in LONDON_ADDITIONAL if card not in chosen],
                             "current": None, "removed": [], "pending": None}
    state["phase"] = "placement"
    state["deck"] = shuffled(state["characters"], rng)
    _start_round(state, ODD_ORDER)


def _place(state: State, actor: Viewer, action: Mapping[str, str], rng: random.Random) -> None:
    """Extension II.: the due player places the token of one of the four face-up cards."""
    seat = _due(state)
    card = _card_of_round(state, action.get("character"), "placed")
    state["round"]["picks"].append({"character": card, "seat": seat})
    _log(state, ("places_lane" if card == "lane" else "places", {"seat": seat, "card": card}))
    if len(state["round"]["picks"]) < CARDS_PER_TURN:
        return
    if state["deck"]:
        _start_round(state, EVEN_ORDER)
        return
    # Extension II.: "shuffle the 8 Character cards again", then the alibi as in the base game.
    state["deck"] = shuffled(state["characters"], rng)
    _deal_alibi(state, rng)
    state["phase"] = "play"
    _start_turn(state)


def _pick(state: State, actor: Viewer, action: Mapping[str, str], rng: random.Random) -> None:
    """Game Play I.: the due player plays one of the turn's four characters."""
    seat = int(actor)
    card = _card_of_round(state, action.get("character"), "played")
    state["round"]["picks"].append({"character": card, "seat": seat})
    _log(state, ("plays", {"seat": seat, "card": card}))
    if card == "moriarty":
        moriarty = state["moriarty"]
        # Extension, Professor Moriarty: a new activation removes the previous impersonation.
        previous = moriarty["current"]
        if previous:
            moriarty["row"].remove(previous)
            moriarty["removed"].append(previous)
            moriarty["current"] = None
            # Extension FAQ: the Barricade stays where it is when Joseph Lane's card goes.
            _log(state, ("leaves_lane" if previous == "lane" else "leaves",
                         {"card": previous}))
        moriarty["pending"] = seat


def _impersonate(state: State, actor: Viewer, action: Mapping[str, str],
                 rng: random.Random) -> None:
    """Extension, Professor Moriarty: the "?" token goes under one card of the row."""
    moriarty = state["moriarty"]
    card = parse_choice(action.get("character"), moriarty["row"],
                        _("character for Professor Moriarty to impersonate"))
    moriarty["current"] = card
    moriarty["pending"] = None
    _log(state, ("impersonates", {"card": card}))


def _draw_alibi(state: State, actor: Viewer, action: Mapping[str, str],
                rng: random.Random) -> None:
    """Sherlock Holmes's ability (docs/RULINGS.md#mr-jack, "Alibi draws"): the player draws an
    alibi card in secret."""
    seat = int(actor)
    card = draw(state["alibi_deck"])[0]
    state["alibi_draws"].append({"seat": seat, "character": card, "turn": state["turn"],
                                 "published": False})
    _log(state, ("draws_alibi", {"seat": seat}),
         {seat: ("drew_alibi", {"seat": seat, "card": card})})


def _publish_alibi(state: State, actor: Viewer, action: Mapping[str, str],
                   rng: random.Random) -> None:
    """docs/RULINGS.md#mr-jack, "Alibi draws": the drawer may publish an alibi card; that
    character is innocent."""
    seat = int(actor)
    mine = [entry for entry in state["alibi_draws"]
            if entry["seat"] == seat and not entry["published"]]
    card = parse_choice(action.get("character"), [entry["character"] for entry in mine],
                        _("drawn alibi card"))
    next(entry for entry in mine if entry["character"] == card)["published"] = True
    _clear(state, [card])
    _log(state, ("shows_alibi", {"seat": seat, "card": card}))


def _accuse(state: State, actor: Viewer, action: Mapping[str, str], rng: random.Random) -> None:
    """End of the Game 2.: the detective confronts a character; the alibi answers at once."""
    card = parse_choice(action.get("character"), state["characters"],
                        _("character to accuse"))
    if card == state["alibi"]:
        _finish(state, DETECTIVE, "accused", {"card": card})
    else:
        _finish(state, JACK, "wrong_accusation", {"card": card, "alibi": state["alibi"]})


def _escape(state: State, actor: Viewer, action: Mapping[str, str], rng: random.Random) -> None:
    """End of the Game 1.: "Jack succeeds in moving his character out of the district", so
    only in a turn in which he played that character, or (Extension FAQ) John Pizer, who may
    "push the Character token representing the disguised Jack off the game board" (as may
    Professor Moriarty while he impersonates Pizer). The button shows whenever the public
    conditions hold and this check runs here, so the refusal is seen on Jack's phone only and
    a glance at it tells nothing."""
    played = [pick["character"] for pick in state["round"]["picks"] if pick["seat"] == JACK]
    moriarty = state["moriarty"]
    pushers = [state["alibi"], "pizer"]
    if moriarty and moriarty["current"] == "pizer":
        pushers.append("moriarty")
    require(any(card in pushers for card in played),
            _("You can leave the district only in a turn in which you play your own "
              "character (your alibi card) and move it out (“Jack succeeds in moving his "
              "character out of the district”), or play John Pizer to push it out.")
            if state["london"] else
            _("You can leave the district only in a turn in which you play your own "
              "character (your alibi card) and move it out (“Jack succeeds in moving his "
              "character out of the district”)."))
    _finish(state, JACK, "escaped", {"alibi": state["alibi"]})


def _witness(state: State, actor: Viewer, action: Mapping[str, str], rng: random.Random) -> None:
    """Game Play II.: Jack announces whether his character is seen; the card turns."""
    answer = parse_choice(action.get("answer"), tuple(ANSWERS), _("witness answer"))
    state["answer"] = answer
    state["witness"] = answer
    _log(state, ("call", {"answer": answer}))


def _mark_seen(state: State, actor: Viewer, action: Mapping[str, str],
               rng: random.Random) -> None:
    """Game Play II.: the detective marks which suspects the board shows seen; nothing is
    cleared until Jack has checked the marks against the board (docs/RULINGS.md#mr-jack,
    "Witness call")."""
    seen = [card for card in _suspects(state) if parse_bool(action.get(f"seen_{card}"))]
    state["marks"] = {"seen": seen, "returned": False}
    _log(state, ("marks", {"seen": seen}))


def _confirm_marks(state: State, actor: Viewer, action: Mapping[str, str],
                   rng: random.Random) -> None:
    """Game Play II.: Jack says the marks match the board; the group his answer makes
    innocent is flipped, then III. and IV. Marks that would clear his own character
    contradict his answer: refused on his phone alone (its refusals are private), so the
    detective's phone and the table screen stay as they were."""
    innocent = _innocent(state, state["marks"]["seen"])
    require(state["alibi"] not in innocent,
            _("These marks clear your own character, %(alibi)s, which contradicts your "
              "answer (%(answer)s). Look at the board with the detective: if a mark is "
              "wrong, send the marks back; if your answer was wrong, correct it.",
              alibi=CHARACTERS[state["alibi"]], answer=ANSWERS[state["answer"]]))
    _clear(state, innocent)
    seen = state["marks"]["seen"]
    state["marks"] = None
    # The turn as the reveal tells it (_reveal); states saved before it was kept have none.
    state.setdefault("calls", []).append({
        "turn": state["turn"], "picks": list(state["round"]["picks"]),
        "answer": state["answer"], "seen": list(seen), "cleared": innocent})
    _log(state, ("checked", {"seen": seen, "cleared": innocent}))
    _end_turn(state, rng)


def _return_marks(state: State, actor: Viewer, action: Mapping[str, str],
                  rng: random.Random) -> None:
    """Jack says the marks are not what the board shows: the detective marks again, his
    ticks kept for him to mend."""
    state["marks"]["returned"] = True
    _log(state, ("returned", {}))


def _correct_answer(state: State, actor: Viewer, action: Mapping[str, str],
                    rng: random.Random) -> None:
    """Jack's answer was not what the board shows ("Jack must now announce whether he can
    be seen"): the Witness card turns over and the detective sends his marks again."""
    answer = "not_seen" if state["answer"] == "seen" else "seen"
    state["answer"] = answer
    state["witness"] = answer
    if state["marks"]:
        state["marks"]["returned"] = True
    _log(state, ("corrected", {"answer": answer}))


def _dawn(state: State, actor: Viewer, action: Mapping[str, str], rng: random.Random) -> None:
    """End of the Game 3.: Jack has not been caught at the end of the eighth turn."""
    _finish(state, JACK, "dawn", {"turn": LAST_TURN, "alibi": state["alibi"]})


HANDLERS = {
    "keep": _keep, "place": _place, "pick": _pick, "impersonate": _impersonate,
    "draw_alibi": _draw_alibi, "publish_alibi": _publish_alibi, "accuse": _accuse,
    "escape": _escape, "witness": _witness, "mark_seen": _mark_seen,
    "confirm_marks": _confirm_marks, "return_marks": _return_marks,
    "correct_answer": _correct_answer, "dawn": _dawn,
}


def _end_turn(state: State, rng: random.Random) -> None:
    """Game Play III. and IV.: a gaslight goes out (turns 1-4); reshuffle after even turns."""
    turn = state["turn"]
    if turn in NUMBERED_GASLIGHTS:
        _log(state, ("gaslight_out", {"turn": turn}))
    if turn % 2 == 0:
        state["deck"] = shuffled(state["characters"], rng)
        _log(state, ("reshuffled", {"turn": turn}))
    _start_turn(state)


def _finish(state: State, winner: int, ending: str, params: dict[str, Any]) -> None:
    """Every end reveals the alibi and the whole history (views read ``outcome``). The
    outcome keeps its ending's key (``result``, and its line in LINES) and the line's
    cards, beside its English."""
    state["phase"] = "over"
    state["outcome"] = {"winner": winner, "text": str(_say(ending, params)),
                        "ending": ending, "say": _kept_line((ending, params))}
    _log(state, (ending, params))


def _clear(state: State, cards: Sequence[str]) -> None:
    """Flip characters to their innocent side, keeping the table order."""
    cleared = set(state["cleared"]) | set(cards)
    state["cleared"] = [card for card in state["characters"] if card in cleared]


def _card_of_round(state: State, value: Any, done: str) -> str:
    """A face-up card of this round that nobody has taken yet, with a message that says why not."""
    text = str(value if value is not None else "").strip()
    cards = state["round"]["cards"]
    taken = [pick["character"] for pick in state["round"]["picks"]]
    if text in CHARACTERS and text not in cards:
        raise RuleError(_("%(character)s is not one of the four face-up characters.",
                          character=CHARACTERS[text]))
    if text in taken:
        raise RuleError(_("%(character)s has already been placed.", character=CHARACTERS[text])
                        if done == "placed" else
                        _("%(character)s has already been played.", character=CHARACTERS[text]))
    return parse_choice(text, [card for card in cards if card not in taken], _("character"))


# --- what may happen now ---------------------------------------------------

def _refusal(state: State, actor: Viewer, kind: str) -> Text | None:
    """Why ``actor`` may not submit ``kind`` now, or None when it may."""
    phase = state["phase"]
    if phase == "over":
        return _("The game is over.")
    if kind == "keep":
        return _keep_refusal(state, actor)
    if kind == "place":
        if phase != "placement":
            return _("The characters are not being placed now.")
        if actor not in (TABLE, _due(state)):
            return _("It is %(who)s's turn to place a character.", who=_who(_due(state)))
        return None
    if phase != "play":
        return (_("Finish the draft first.") if phase == "draft"
                else _("Finish placing the characters first."))
    if kind == "publish_alibi":
        if not any(entry["seat"] == actor and not entry["published"]
                   for entry in state["alibi_draws"]):
            return _("You hold no unpublished alibi card.")
        return None
    moriarty = state["moriarty"]
    if moriarty and moriarty["pending"] is not None:
        if kind == "impersonate" and actor == moriarty["pending"]:
            return None
        return _("Professor Moriarty is activated: %(who)s first chooses whom he "
                 "impersonates.", who=_who(moriarty["pending"]))
    if kind == "impersonate":
        return _("Professor Moriarty is not being activated now.")
    return ROUND_REFUSALS[kind](state, actor)


def _keep_refusal(state: State, actor: Viewer) -> Text | None:
    if state["draft"] is None:
        return _("There is no draft without the Mr. Jack London extension.")
    if state["phase"] != "draft":
        return _("The draft is over.")
    if actor not in (JACK, DETECTIVE):
        return _("The players choose their characters on their phones.")
    if state["draft"]["kept"][int(actor)]:
        return _("You have already chosen your 2 characters.")
    return None


def _pick_refusal(state: State, actor: Viewer) -> Text | None:
    due = _due(state)
    if due is None:
        return _("All four characters of this turn have been played.")
    if actor != due:
        return _("It is %(who)s's turn to choose a character.", who=_who(due))
    return None


def _activation_refusal(state: State, actor: Viewer, role: int, only: Text,
                        first: Text) -> Text | None:
    """Accusations and escapes happen while that player plays one of his characters."""
    if actor != role:
        return only
    if state["answer"] is not None:
        return _("The call for witnesses has been made: this turn's characters have all "
                 "moved.")
    last = _last_pick(state)
    if last is None or last["seat"] != role:
        return first
    return None


def _accuse_refusal(state: State, actor: Viewer) -> Text | None:
    return _activation_refusal(
        state, actor, DETECTIVE, _("Only the detective can accuse a character."),
        _("Choose the character you play first: you can only accuse a character with it."))


def _escape_refusal(state: State, actor: Viewer) -> Text | None:
    if actor == JACK and state["witness"] == "seen":
        return _("Jack can only leave the district in a turn after a 'not seen' call: "
                 "the Witness card shows 'Jack seen'.")
    return _activation_refusal(
        state, actor, JACK, _("Only Jack can leave the district."),
        _("Choose the character you play first: you can only leave the district with it."))


def _draw_alibi_refusal(state: State, actor: Viewer) -> Text | None:
    last = _last_pick(state)
    if last is None or last["character"] != ALIBI_DRAWER or last["seat"] != actor:
        return _("Only the player who has just played Sherlock Holmes draws an alibi card.")
    if any(entry["turn"] == state["turn"] for entry in state["alibi_draws"]):
        return _("Sherlock Holmes has already drawn his alibi card this turn.")
    if not state["alibi_deck"]:
        return _("The alibi deck is empty.")
    return None


def _witness_refusal(state: State, actor: Viewer) -> Text | None:
    if actor != JACK:
        return _("Only Jack answers the call for witnesses.")
    if _due(state) is not None:
        return _("The call for witnesses comes when all four characters have been played.")
    if state["turn"] == LAST_TURN:
        return _("Turn %(turn)s is the last: no call for witnesses, dawn breaks.",
                 turn=LAST_TURN)
    if state["answer"] is not None:
        return _("Jack has already answered the call for witnesses this turn.")
    return None


def _mark_seen_refusal(state: State, actor: Viewer) -> Text | None:
    if actor != DETECTIVE:
        return _("Only the detective marks which characters are seen.")
    if state["answer"] is None:
        return _("Wait for Jack to answer the call for witnesses.")
    if _marks_checked(state):
        return _("Jack is checking your marks against the board.")
    return None


def _check_marks_refusal(state: State, actor: Viewer) -> Text | None:
    if actor != JACK:
        return _("Only Jack checks the detective's marks against the board.")
    if not _marks_checked(state):
        return _("The detective has not sent his marks yet.")
    return None


def _correct_answer_refusal(state: State, actor: Viewer) -> Text | None:
    if actor != JACK:
        return _("Only Jack answers the call for witnesses.")
    if state["answer"] is None:
        return _("Answer the call for witnesses first.")
    return None


def _dawn_refusal(state: State, actor: Viewer) -> Text | None:
    if actor not in (JACK, TABLE):
        return _("Jack or the table screen ends the last turn.")
    if state["turn"] != LAST_TURN or _due(state) is not None:
        return _("Dawn breaks when the four characters of turn %(turn)s have been played.",
                 turn=LAST_TURN)
    return None


ROUND_REFUSALS = {
    "pick": _pick_refusal, "accuse": _accuse_refusal, "escape": _escape_refusal,
    "draw_alibi": _draw_alibi_refusal, "witness": _witness_refusal,
    "mark_seen": _mark_seen_refusal, "confirm_marks": _check_marks_refusal,
    "return_marks": _check_marks_refusal, "correct_answer": _correct_answer_refusal,
    "dawn": _dawn_refusal,
}


def actions(state: State, viewer: Viewer) -> list[str]:
    """The action types ``viewer`` may submit now (drives the buttons)."""
    _check_viewer(viewer)
    return [kind for kind in ACTION_TYPES if _refusal(state, viewer, kind) is None]
