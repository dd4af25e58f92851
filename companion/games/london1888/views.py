"""What each viewer of London 1888 sees: the table screen public facts only, a phone its
owner's role too (never its position), each in its reader's words (the prompt, the latest
arrest, release or death, the notes of a phone's own line); after the outcome, every line
and the whole event deck, with the turning points (``reveal``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.base import TABLE, State, Viewer, is_seat, require
from companion.games.london1888.reveal import _turning_points
from companion.games.london1888.rules import _protection, actions
from companion.games.london1888.scoring import outcome_summary
from companion.games.london1888.state import (
    ARRESTS,
    CARD_NAMES,
    CHARACTERS,
    INNOCENT,
    JACK,
    KILLED_EVERYONE,
    LINE_LENGTH,
    MANIFESTATION,
    MURDERS_TO_END,
    NAME,
    PAID,
    POLICE_ARRESTS,
    PRISON_REASONS,
    PRISON_REVEALS,
    RELEASERS,
    RESIGNATION,
    RESULTS,
    SERVING,
    STAY_DOWN_YOURS,
    TITLE,
    _arrested_by,
    _arrester,
    _card_name,
    _caught,
    _count,
    _current,
    _ended,
    _face_down,
    _game_over_after_round,
    _in_prison,
    _jack_known,
    _murders,
    _proposal,
    _resigned,
    _role_revealed,
    _turned,
    _turns_the_event,
    _waiting,
    _who,
    is_over,
)
from companion.words import Text, _, from_data

REMINDERS = {
    MANIFESTATION: _("Manifestation: if Lusk is using his privilege with the 3 Protester "
                     "pawns, he loses it and the 3 pawns move onto the spaces assigned to "
                     "them."),
    RESIGNATION: _("Resignation: Warren has resigned and may be arrested from now on."),
}
EVENT_HINT = _("Read the physical card, carry out its action and place it on location 1.")
MURDER_HINT = _("A murder is discovered: place the card on a reserved murder location.")
# The same ways, as the player who arrests picks them on their phone.
ARREST_CHOICES = {
    "abberline": _("You arrest a player on your space"),
    "godley": _("You arrest a player on your space"),
    "card": _("You play an ARREST card"),
    "black_market": _("You play an ARREST card on the player at the Black Market"),
}

SETUP_STEPS = (
    _("Event deck: the app has shuffled the 20 EVENT cards, with the set-aside MURDER 10th "
      "from the top. Keep the physical EVENT cards beside the board: when the app turns a "
      "card, take that card, read it and carry out its action."),
    _("Identity cards: the app has dealt them; each phone shows its owner's role. Put the "
      "physical SUSPECT and FALSE LEAD cards in two face-down piles: when the app reveals "
      "one, the questioned player turns the top card of that pile and carries out its "
      "action."),
    _("Give each player 2 ACTION cards; shuffle the rest into a draw pile on the left of the "
      "board (the discard pile goes underneath)."),
    _("Set the SCALPEL aside (it goes to Jack the Ripper once he is discovered); shuffle the "
      "WEAPON cards into a pile on the left of the board (discard underneath)."),
    _("Place the LIFE and WEAPON tokens face up on the residences and locations showing the "
      "matching symbol (the Hospital receives 2 LIFE tokens, the Police Station 2 "
      "WEAPONS...)."),
    _("Shuffle the SILVER tokens face down onto the BANK locations."),
    _("Shuffle the remaining tokens and place them face down in the other residences."),
    _("Give £2 to each player; the rest of the banknotes go in the purse to the left of the "
      "board."),
    _("Each player places their CHARACTER card face up, facing them, with the 3 drops of "
      "blood at the top (3 Life points)."),
    _("Place each character's pawn on their residence (list below)."),
)
ABSINTHE_STEP = _("Give the ABSINTHE card to Abberline: he starts round 1.")
NO_ABSINTHE_STEP = _("Playing without the ABSINTHE card: Abberline starts every round.")


def _log_text(entry: Mapping[str, Any]) -> str:
    """A log line as its reader reads it: lines kept before the words were kept (and an
    imported file's junk) stay as they were written."""
    words = entry.get("words")
    if isinstance(words, dict) and isinstance(words.get("msgid"), str):
        return from_data(words)
    return str(entry.get("text", ""))


def _public_seat(state: State, seat: int, reveal_all: bool) -> dict[str, Any]:
    character = state["characters"][seat]
    line = []
    for index, (card, shown) in enumerate(zip(state["lines"][seat], state["revealed"][seat],
                                              strict=True)):
        visible = shown or reveal_all
        line.append({"position": index + 1, "revealed": shown,
                     "card": card if visible else None,
                     "card_name": CARD_NAMES[card] if visible else None})
    role = _role_revealed(state, seat)
    return {
        "seat": seat, "player": state["players"][seat], "character": character,
        "label": _who(state, seat), **CHARACTERS[character],
        "alive": state["alive"][seat],
        "prison": state["prison"][seat],
        "in_prison": _in_prison(state, seat),
        "prison_reason": (PRISON_REASONS[str(_arrested_by(state, seat))]
                          if _in_prison(state, seat) else None),
        "cleared": role == INNOCENT,
        "revealed_jack": role == JACK,
        "face_down": [entry["position"] for entry in line if not entry["revealed"]],
        "line": line,
    }


def _event(card: Mapping[str, Any], round_number: int, state: State) -> dict[str, Any]:
    reminders = [MURDER_HINT] if card["murder"] else [EVENT_HINT]
    if card["name"] == state["manifestation"]:
        reminders.append(REMINDERS[MANIFESTATION])
    elif card["name"] == state["resignation"]:
        reminders.append(REMINDERS[RESIGNATION])
    return {"round": round_number, "name": _card_name(card["name"]), "murder": card["murder"],
            "reminders": reminders}


def _phase(state: State) -> str:
    if is_over(state):
        return "over"
    if _proposal(state) is not None:
        return "proposed"
    if _game_over_after_round(state):
        return "awaiting_outcome"
    if _murders(state) >= MURDERS_TO_END:
        return "last_round"
    return "round_over" if _current(state) is None else "playing"


def _prompt(state: State, phase: str, viewer: Viewer) -> Text:
    """What the screen asks for now; the table's buttons are the host's, a phone's its own."""
    current = _current(state)
    known = _jack_known(state)
    table = viewer == TABLE
    if phase == "over":
        return _("The game is over: every line of suspicion and the whole event deck are "
                 "shown.")
    if phase == "proposed":
        label = RESULTS[_proposal(state)["result"]][2]
        if table:
            return _("Proposed outcome: %(result)s. Check it with everyone, then Confirm (the "
                     "game ends and every card is revealed) or Withdraw (play goes on).",
                     result=label)
        return _("The table proposes the outcome: %(result)s. Nothing is revealed until the "
                 "host confirms it: speak up now if it is wrong.", result=label)
    if _caught(state):
        who = _who(state, known)
        if not state["alive"][known]:
            return (_("Jack the Ripper, %(who)s, is dead: the Innocents win. Record the "
                      "outcome.", who=who) if table else
                    _("Jack the Ripper, %(who)s, is dead: the Innocents win. The table records "
                      "the outcome.", who=who))
        police = _arrester(state, known)
        return (_("Jack the Ripper, %(who)s, is arrested by %(police)s: the Innocents win. "
                  "Record the outcome.", who=who, police=police) if table else
                _("Jack the Ripper, %(who)s, is arrested by %(police)s: the Innocents win. "
                  "The table records the outcome.", who=who, police=police))
    if phase == "awaiting_outcome":
        return (_("The 5th murder was discovered in round %(round)s and the round is over: "
                  "the game is over. Record the outcome.", round=state["round"]) if table else
                _("The 5th murder was discovered in round %(round)s and the round is over: "
                  "the game is over. The table records the outcome.", round=state["round"]))
    if current is None:
        return _round_over(state, viewer)
    if viewer == current:
        if state["prison"][current] == SERVING:
            return _("Your turn, spent in PRISON: you may still question a visitor (never "
                     "another prisoner). End your turn when done.")
        if state["characters"][current] == "Abberline":
            return _("Your turn: draw 2 ACTION cards, move, play cards, take one decision, no "
                     "hand limit for Abberline, then end your turn.")
        return _("Your turn: draw 2 ACTION cards, move, play cards, take one decision, "
                 "discard down to 2 ACTION cards, then end your turn.")
    facts = {"round": state["round"], "who": _who(state, current)}
    serving = state["prison"][current] == SERVING
    if phase == "last_round":
        return (_("Round %(round)s: %(who)s is playing (in PRISON). Last round: the 5th "
                  "murder has been discovered.", **facts) if serving else
                _("Round %(round)s: %(who)s is playing. Last round: the 5th murder has been "
                  "discovered.", **facts))
    return (_("Round %(round)s: %(who)s is playing (in PRISON).", **facts) if serving
            else _("Round %(round)s: %(who)s is playing.", **facts))


def _round_over(state: State, viewer: Viewer) -> Text:
    """Everyone has played: who turns the next event card (``_turns_the_event``), said to
    the table, to that player and to everyone else."""
    turner = _turns_the_event(state)
    if turner is None:
        return _("Round %(round)s is over.", round=state["round"])
    facts = {"round": state["round"], "who": _who(state, turner)}
    if viewer == TABLE:
        return (_("Round %(round)s is over: %(who)s receives the ABSINTHE card and turns the "
                  "next event card on their phone (or press Next round).", **facts)
                if state["absinthe"] else
                _("Round %(round)s is over: %(who)s starts the next round and turns its event "
                  "card on their phone (or press Next round).", **facts))
    if viewer == turner:
        return (_("Round %(round)s is over: the ABSINTHE card passes to you. Turn the next "
                  "event card.", **facts) if state["absinthe"] else
                _("Round %(round)s is over: you start the next round. Turn its event card.",
                  **facts))
    return (_("Round %(round)s is over: %(who)s receives the ABSINTHE card and turns the next "
              "event card.", **facts) if state["absinthe"] else
            _("Round %(round)s is over: %(who)s starts the next round and turns its event "
              "card.", **facts))


def view(state: State, viewer: Viewer) -> dict[str, Any]:
    """The table screen shows public facts only; a phone adds its owner's role (never its
    position). After the outcome, every line and the whole event deck are revealed."""
    count = _count(state)
    require(viewer == TABLE or is_seat(viewer, count), "Unknown player.")
    over = is_over(state)
    phase = _phase(state)
    current = _current(state)
    known = _jack_known(state)
    turned = _turned(state)
    events = [_event(card, index + 2, state) for index, card in enumerate(turned)]
    seats = [_public_seat(state, seat, over) for seat in range(count)]
    reveals = [{**reveal, "by_label": _who(state, reveal["by"]),
                "target_label": _who(state, reveal["target"]),
                "card_name": CARD_NAMES[reveal["card"]]}
               for reveal in state["reveals"]]
    result: dict[str, Any] = {
        "game": NAME, "title": TITLE, "viewer": viewer, "phase": phase, "over": over,
        "seat_labels": list(state["characters"]),
        "prompt": _prompt(state, phase, viewer),
        "round": state["round"],
        "absinthe": state["absinthe"],
        "holder": state["holder"], "holder_label": _who(state, state["holder"]),
        "order": [{"seat": seat, "label": _who(state, seat),
                   "done": index < state["turn"], "current": seat == current,
                   "alive": state["alive"][seat]}
                  for index, seat in enumerate(state["order"])],
        "current": current,
        "current_label": _who(state, current) if current is not None else None,
        "seats": seats,
        "murders": _murders(state), "murders_to_end": MURDERS_TO_END,
        # Not "events": the platform lists a view's "events" as the table's event lines.
        "event_cards": events,
        "latest_event": events[-1] if events else None,
        "cards_left": len(state["deck"]) - len(turned),
        "resigned": _resigned(state),
        "jack": None if known is None else {
            "seat": known, "label": _who(state, known),
            "how": "revealed" if _role_revealed(state, known) == JACK else "deduced",
            "alive": state["alive"][known], "in_prison": _in_prison(state, known),
            "caught": _caught(state),
            # Suicide is at home, in his starting residence (rulebook "Discovery of Jack").
            "home": CHARACTERS[state["characters"][known]]["residence"]},
        "reveals": reveals,
        # What the latest action revealed (a prison questioning reveals two cards);
        # states saved before this field have no answer to show.
        "answer": [reveals[index] for index in state.get("answer", [])],
        "news": _news_lines(state, viewer),
        "ended": _ended(state),
        "suggested": None if over else _suggested_result(state),
        "reveal_count": len(state["reveals"]),
        "log": [{"round": entry["round"], "text": _log_text(entry)} for entry in state["log"]],
        "setup": {
            "steps": list(SETUP_STEPS) + [ABSINTHE_STEP if state["absinthe"]
                                          else NO_ABSINTHE_STEP],
            "pawns": [{"character": state["characters"][seat],
                       "player": state["players"][seat],
                       "residence": CHARACTERS[state["characters"][seat]]["residence"]}
                      for seat in range(count)],
        },
        "results": {key: label for key, (_w, _h, label) in RESULTS.items()},
        "arrest_ways": dict(ARRESTS),
        "proposal": _proposal_view(state),
        "outcome": outcome_summary(state),
        "deck": ([{**_event(card, index + 2, state), "turned": index < len(turned)}
                  for index, card in enumerate(state["deck"])] if over else None),
        "reveal": _turning_points(state) if over else None,
        "actions": actions(state, viewer),
    }
    if viewer != TABLE:
        result["me"] = _my_view(state, int(viewer))
        # The phone's now line (templates/_macros.html now_line): the prompt, then the
        # latest arrest, release or death in this reader's words.
        result["now"] = {"text": result["prompt"], "detail": _together(result["news"]),
                         "mine": result["me"]["my_turn"] or "next_round" in result["actions"]}
        # docs/RULINGS.md#london-1888, "Private refusals": every seat holds an identity.
        # Set for all seats alike, the flag itself tells nothing; the reasons name public
        # facts only, yet they tell a neighbour what the player tried.
        result["private_refusals"] = True
    return result


def _together(lines: Sequence[str]) -> str | None:
    """Sentences shown as one paragraph, each in the reader's language (joining them as
    strings would keep only their English)."""
    if not lines:
        return None
    text = lines[0]
    for line in lines[1:]:
        text = _("%(first)s %(then)s", first=text, then=line)
    return text


# --- the latest arrest, release or death, in each reader's words -------------------------

def _escape(state: State, reader: int) -> Text:
    """How ``reader``, just sent to prison, may keep their cards, said to them."""
    if state["characters"][reader] == "Warren":
        return _("unless you discard £10 or you play a CORRUPTION card (then tap “Out of "
                 "PRISON” below: you are a simple visitor)")
    if "Warren" in state["characters"] and state["alive"][state["characters"].index("Warren")]:
        return _("unless you discard £10 or Warren plays a CORRUPTION card for you (then tap "
                 "“Out of PRISON” below: you are a simple visitor)")
    return _("unless you discard £10 (then tap “Out of PRISON” below: you are a simple "
             "visitor)")


def _arrest_made(state: State, news: Mapping[str, Any], reader: int) -> Text:
    """Who sent whom to prison, said to ``reader`` (the clause before the colon)."""
    target, actor, way = news["target"], news["actor"], news["way"]
    you = reader == target
    who = _who(state, target)
    if way in POLICE_ARRESTS:
        police = state["characters"].index(POLICE_ARRESTS[way])
        if reader == police:
            return _("You arrested %(who)s", who=who)
        return (_("%(police)s arrested you", police=_who(state, police)) if you
                else _("%(police)s arrested %(who)s", police=_who(state, police), who=who))
    market = way == "black_market"
    if reader == actor:
        return (_("You played an ARREST card at the Black Market on %(who)s", who=who) if market
                else _("You played an ARREST card on %(who)s", who=who))
    if actor is not None:
        by = _who(state, actor)
        if you:
            return (_("%(by)s played an ARREST card at the Black Market on you", by=by)
                    if market else _("%(by)s played an ARREST card on you", by=by))
        return (_("%(by)s played an ARREST card at the Black Market on %(who)s", by=by,
                  who=who) if market
                else _("%(by)s played an ARREST card on %(who)s", by=by, who=who))
    if you:
        return (_("An ARREST card was played at the Black Market on you") if market
                else _("An ARREST card was played on you"))
    return (_("An ARREST card was played at the Black Market on %(who)s", who=who) if market
            else _("An ARREST card was played on %(who)s", who=who))


def _arrest_line(state: State, news: Mapping[str, Any], reader: int) -> Text:
    made = _arrest_made(state, news, reader)
    if reader != news["target"]:
        return (_("%(made)s: the Innocents win.", made=made) if _caught(state)
                else _("%(made)s: they go to PRISON.", made=made))
    if _caught(state):
        return _("%(made)s, discovered as Jack the Ripper: you may neither play a CORRUPTION "
                 "card nor pay your way out. The Innocents win.", made=made)
    return _("%(made)s: you are in PRISON for your next turn and lose your WEAPON and ACTION "
             "cards on entering, %(escape)s.", made=made, escape=_escape(state, reader))


def _release_line(state: State, news: Mapping[str, Any], reader: int) -> Text:
    target, actor, way = news["target"], news["actor"], news["way"]
    if reader != target:
        return _("You played a CORRUPTION card: %(who)s is out of PRISON.",
                 who=_who(state, target))
    if way == PAID:
        return _("You discarded £10: you are out of PRISON, a simple visitor (you keep your "
                 "cards and do not spend your turn there).")
    if way == TABLE:
        return _("The table released you: you are out of PRISON, a simple visitor (you keep "
                 "your cards and do not spend your turn there).")
    return _("%(saviour)s played a CORRUPTION card for you: you are out of PRISON, a simple "
             "visitor (you keep your cards and do not spend your turn there).",
             saviour=_who(state, actor))


def _death_line(state: State, news: Mapping[str, Any], reader: int) -> Text:
    target, actor, killer = news["target"], news["actor"], news["killer"]
    if reader == target:
        if killer is None:
            died = _("You are dead.")
        elif killer == actor:
            died = _("%(killer)s killed you: you are dead.", killer=_who(state, killer))
        else:
            died = _("You are dead, killed by %(killer)s.", killer=_who(state, killer))
        return _together([died, STAY_DOWN_YOURS] if _face_down(state, target) else [died])
    said = (_("You killed %(who)s", who=_who(state, target)) if actor == reader else
            _("%(who)s is dead, killed by you", who=_who(state, target)))
    if not news["jailed"]:
        return _("%(said)s.", said=said)
    return _("%(said)s without knowing their identity: you go to PRISON for your next turn "
             "and lose your WEAPON and ACTION cards on entering, %(escape)s.", said=said,
             escape=_escape(state, reader))


NEWS_LINES = {"arrest": _arrest_line, "release": _release_line, "death": _death_line}


def _news_lines(state: State, viewer: Viewer) -> list[Text | str]:
    """The latest arrest, release or death in the reader's words: to the players it
    happened to or who entered it, "you"; to everyone else (and the table), the log lines
    it wrote. Public facts only."""
    news = state.get("news")
    if news is None:
        return []
    parties = {news["target"], news["actor"], news["killer"]}
    if news["way"] in POLICE_ARRESTS:
        parties.add(state["characters"].index(POLICE_ARRESTS[news["way"]]))
    if viewer != TABLE and int(viewer) in parties:
        return [NEWS_LINES[news["kind"]](state, news, int(viewer))]
    return [_log_text(entry) for entry in state["log"][news["log"]:]]


# --- the outcome to enter, and a phone's own line ----------------------------------------

def _suggested_result(state: State) -> dict[str, Any] | None:
    """The result the app knows of (a key of ``RESULTS``) and why, to fill in the outcome
    form: Jack caught, the 5th murder's round over, or a discovered Jack the only one left
    alive. Suicide and the accomplices stay the table's to enter. Public facts only."""
    known = _jack_known(state)
    if _caught(state):
        who = _who(state, known)
        return {"result": "innocents",
                "why": _("Jack the Ripper, %(who)s, is dead.", who=who)
                if not state["alive"][known] else
                _("Jack the Ripper, %(who)s, was arrested by %(police)s.", who=who,
                  police=_arrester(state, known))}
    if _game_over_after_round(state):
        return {"result": "jack_fifth_murder",
                "why": _("The 5th murder was discovered in round %(round)s and its round is "
                         "over; Jack the Ripper was not caught.", round=state["round"])}
    if known is not None and sum(state["alive"]) == 1 and state["alive"][known]:
        return {"result": "jack_killed_everyone",
                "why": _("Jack the Ripper, %(who)s, is the only one left alive.",
                         who=_who(state, known))}
    return None


def _proposal_view(state: State) -> dict[str, Any] | None:
    """The proposed outcome as the whole table sees it: what was entered, and who it would
    make Jack where the entry itself says so; never a hidden role nor the points."""
    proposal = _proposal(state)
    if proposal is None:
        return None
    _winner, how, label = RESULTS[proposal["result"]]
    named = None
    if how == KILLED_EVERYONE:
        # The one living player left unticked: the entry's own claim, checked by everyone.
        named = next(seat for seat in range(_count(state))
                     if state["alive"][seat] and seat not in proposal["accomplices"])
    return {"result": proposal["result"], "label": label, "round": proposal["round"],
            "accomplices": [_who(state, seat) for seat in proposal["accomplices"]],
            "names_jack": None if named is None else _who(state, named)}


def _my_view(state: State, seat: int) -> dict[str, Any]:
    """The owner's own secret: the role, never where it lies in the line."""
    is_jack = JACK in state["lines"][seat]
    my_turn = _current(state) == seat and not is_over(state)
    targets = []
    if my_turn and not state["decided"]:
        for other in range(_count(state)):
            face_down = [pos for pos in range(1, LINE_LENGTH + 1)
                         if not state["revealed"][other][pos - 1]]
            if other == seat or not state["alive"][other] or not face_down:
                continue
            both_prisoners = _in_prison(state, seat) and _in_prison(state, other)
            picks = min(PRISON_REVEALS, len(face_down)) if _in_prison(state, other) else 1
            targets.append({"seat": other, "label": _who(state, other),
                            "in_prison": _in_prison(state, other), "face_down": face_down,
                            "picks": picks, "can_question": not both_prisoners})
    return {
        "seat": seat, "label": _who(state, seat), "player": state["players"][seat],
        "character": state["characters"][seat], **CHARACTERS[state["characters"][seat]],
        "role": JACK if is_jack else INNOCENT,
        "role_name": CARD_NAMES[JACK if is_jack else INNOCENT],
        "role_hint": _role_hint(state, seat, is_jack),
        "alive": state["alive"][seat],
        "dead_note": _dead_note(state, seat),
        "line_note": _line_note(state, seat),
        "in_prison": _in_prison(state, seat),
        "my_turn": my_turn,
        "decided": state["decided"] if my_turn else False,
        "targets": targets,
        **_board_choices(state, seat, my_turn),
    }


def _role_hint(state: State, seat: int, is_jack: bool) -> Text | None:
    """The advice behind the owner's peek, for the game as the table knows it: none once it
    has ended, and a discovered Jack is told what is left to him ("Discovery of Jack")."""
    if _ended(state):
        return None
    if not is_jack:
        return _("Help capture Jack the Ripper before the 5th murder, or protect him as his "
                 "accomplice.")
    if _jack_known(state) == seat:
        return _("You are discovered: flee until the 5th murder, or take your own life at "
                 "home with the ROPE or WORN ROPE card.")
    return _("Do not let yourself be arrested; if your identity is discovered, flee until the "
             "5th murder or take your own life at home with the ROPE.")


def _dead_note(state: State, seat: int) -> Text | None:
    """Said to a dead player: their face-down cards wait for the end's reveal."""
    if state["alive"][seat]:
        return None
    if is_over(state) or not _face_down(state, seat):
        return _("You are dead.")
    return _together([_("You are dead."), STAY_DOWN_YOURS])


def _line_note(state: State, seat: int) -> Text | None:
    """What the table knows of the owner's own line, said to them (nothing once the game
    has ended, or once they are dead: ``_dead_note``). Public facts only: which of their
    cards are turned over, and whether their role card is among them; the same words
    whether that card is Jack's or an Innocent's."""
    if _ended(state) or not state["alive"][seat]:
        return None
    character = CHARACTERS[state["characters"][seat]]
    facts = {"name": character["full_name"], "title": character["title"]}
    down = _face_down(state, seat)
    if _role_revealed(state, seat) is not None:
        return _("%(name)s, %(title)s. Your role card was turned over for the whole table.",
                 **facts)
    if down == LINE_LENGTH:
        return _("%(name)s, %(title)s. Your 5 cards lie face down on the table screen: nobody "
                 "knows where your role card is, not even you.", **facts)
    if down == 1:
        return _("%(name)s, %(title)s. Only your role card still lies face down.", **facts)
    return _("%(name)s, %(title)s. %(n)s of your cards still lie face down on the table "
             "screen: nobody knows which one is your role card, not even you.", n=down,
             **facts)


def _board_choices(state: State, seat: int, my_turn: bool) -> dict[str, Any]:
    """What this phone may enter of the board, as buttons (seats tapped, never typed):
    the ways it may send someone to prison now, whom; whom it may kill (in its turn, its
    decision untaken); the prisoners it may release (itself, or any as Warren or Netley).
    Public facts only (``_board_actions``)."""
    character = state["characters"][seat]
    ways = [key for key, police in POLICE_ARRESTS.items() if police == character and my_turn]
    ways += (["card"] if my_turn else []) + ["black_market"]
    others = [{"seat": other, "label": _who(state, other)} for other in range(_count(state))
              if other != seat and state["alive"][other]]
    free = [entry for entry in others if not _in_prison(state, entry["seat"])]
    waiting = _waiting(state)
    # Each way lists only the players it may arrest now (``_protection``): no button for a
    # protected seat, whose tap would only be refused.
    arrests = [{"key": key, "label": ARREST_CHOICES[key],
                "targets": [entry for entry in free
                            if _protection(state, entry["seat"], key) is None]}
               for key in ways]
    return {
        "arrest_ways": [way for way in arrests if way["targets"]],
        "kill_targets": others if my_turn and not state["decided"] else [],
        "killers": others,
        "can_leave_prison": seat in waiting,
        "corruption_targets": ([entry for entry in others if entry["seat"] in waiting]
                               if character in RELEASERS else []),
    }
