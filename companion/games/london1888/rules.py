"""London 1888's rules: rounds and turns, questioning, arrests and deaths, the outcome.

Rulebook: "London 1888 Rulebook", its sections as named; rulings: docs/RULINGS.md#london-1888.
The board, pawns, weapons, money and ACTION cards stay physical. The game keeps what is
hidden or error-prone on paper:

- each player's line of suspicion (rulebook "Game Setup", IDENTITY cards;
  docs/RULINGS.md#london-1888, "Identity deal"): the owner knows their role, nobody knows any
  card's position;
- the order of the event deck (rulebook "Game Setup", first paragraphs;
  docs/RULINGS.md#london-1888, "Event deck");
- rounds, turns and the ABSINTHE card ("Playing the Game"), murders counted (N of 5),
  prison flags ("Prison and Arrests"), deaths, the discovery of Jack ("Discovery of Jack the
  Ripper and Consequences");
- the outcome and the tournament points ("Reveals and End of Game", "Note: Scoring for
  Tournaments"; docs/RULINGS.md#london-1888, "Outcome of a game" and "Tournament points").

The ending is a step the table confirms (docs/RULINGS.md#london-1888, "Proposed, then
confirmed": the outcome is shown to the table and only then confirmed): ``record_outcome``
enters a proposed outcome, which every
screen shows with nothing secret in it (no role, no points), and play pauses; the host then
confirms it (the game ends and every card is revealed) or withdraws it (play goes on). A
mis-ticked box is put right before anything is revealed: once confirmed, the game is over and
the platform refuses to undo it, since the reveal cannot be taken back.

Seats are in clockwise order (to the left); seats 1-4 play Abberline, Lusk, Gull and Warren,
seats 5-8 Godley, Netley, Mansfield and Prince Albert Victor, chosen in the options or drawn.

Who may submit what (``actor``):

- a seat's own phone, during its own turn: ``question`` and ``black_market`` (together at
  most one per turn: they are the turn's single decision, rulebook phase 4) and ``end_turn``;
- a seat's own phone, for what that player does on the board or what happens to them
  (docs/RULINGS.md#london-1888, "Who enters what"): ``arrest`` (Abberline or Godley in his
  turn, an ARREST card in the player's turn, or at the Black Market at any time),
  ``release`` (the prisoner who discards £10, or Warren's CORRUPTION card) and ``mark_dead``
  (the killer in his turn, or the victim at any time);
- the phone of the player who receives the ABSINTHE card, once everyone has played:
  ``next_round`` (``_turns_the_event``; docs/RULINGS.md#london-1888, "The next event card");
- ``TABLE`` (the host at the laptop): all of these for anyone (the override: a phone that
  is away, a slip), ``next_round``, ``record_outcome`` and then ``confirm_outcome`` or
  ``withdraw_outcome``.

Form fields (all strings): ``question``: ``target`` (seat number, 0-based) and checkboxes
``position_1`` .. ``position_5``; ``black_market``: the same with one position; ``arrest``:
``target`` and ``by`` (a key of ``ARRESTS``); ``release``: ``target``; ``mark_dead``:
``target`` and optional ``killer`` (from the killer's phone: the killer is the phone);
``record_outcome``: ``result`` (a key of ``RESULTS``) and checkboxes ``accomplice_<seat>``;
``confirm_outcome`` and ``withdraw_outcome``: none.

What each seat may submit now (``actions``) and why anything else is refused (``_refusal``)
are decided here, beside ``apply``; the package's ``__init__`` lists the other modules.
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
    evolve,
    fields_named,
    is_seat,
    parse_bool,
    parse_choice,
    require,
    reveal_step,
    reveal_view,
    seat_order,
)
from companion.games.london1888.scoring import outcome_summary
from companion.games.london1888.state import (
    ARRESTED,
    ARRESTS,
    CARD_NAMES,
    CHARACTERS,
    CORRUPTION,
    FIFTH_MURDER,
    INNOCENT,
    INNOCENTS,
    JACK,
    KILLED_EVERYONE,
    KILLING,
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
    ROLE_CARDS,
    SERVING,
    STAY_DOWN,
    STAY_DOWN_YOURS,
    SUICIDE,
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
    _jack_seat,
    _murders,
    _next_starter,
    _proposal,
    _resigned,
    _role_revealed,
    _turned,
    _turns_the_event,
    _waiting,
    _who,
    is_over,
)
from companion.words import Text, _, from_data, ngettext

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


# --- rounds and turns ("Playing the Game") ---------------------------------------------

def _log(state: State, text: Text) -> None:
    # The English stays in "text" (what older code and files read); "words" keeps the
    # sentence so that each reader reads it in their own language (_log_text).
    state["log"].append({"round": state["round"], "text": str(text), "words": text.as_data()})


def _log_text(entry: Mapping[str, Any]) -> str:
    """A log line as its reader reads it: lines kept before the words were kept (and an
    imported file's junk) stay as they were written."""
    words = entry.get("words")
    if isinstance(words, dict) and isinstance(words.get("msgid"), str):
        return from_data(words)
    return str(entry.get("text", ""))


def _news(state: State, kind: str, actor: Viewer, target: int, **facts: Any) -> None:
    """An arrest, release or death, kept until the next action so that each phone is told
    of it in its own words (``_news_lines``): who entered it (None for the table), to whom it
    happened, and the log lines it writes from here on (what everyone else reads)."""
    state["news"] = {"kind": kind, "actor": None if actor == TABLE else int(actor),
                     "target": target, "log": len(state["log"]), "way": None,
                     "killer": None, "jailed": False, **facts}


def _set_prison(state: State, seat: int, reason: str | None) -> None:
    """Set (``reason``) or clear (None) a prison flag and why it was set."""
    state["prison"][seat] = None if reason is None else ARRESTED
    state.setdefault("arrested_by", [None] * _count(state))[seat] = reason


def _start_round(state: State) -> None:
    """The round's order: the living players clockwise from the one who starts it."""
    state["order"] = [seat for seat in seat_order(_count(state), state["holder"])
                      if state["alive"][seat]]
    state["turn"] = 0
    _begin_turn(state)


def _begin_turn(state: State) -> None:
    """Pass over players who died during the round; a prisoner's turn is spent in prison."""
    while state["turn"] < len(state["order"]) and not state["alive"][_current(state)]:
        state["turn"] += 1
    state["decided"] = False
    seat = _current(state)
    if seat is not None and state["prison"][seat] == ARRESTED:
        state["prison"][seat] = SERVING


def _end_turn(state: State) -> None:
    seat = _current(state)
    if seat is not None and state["prison"][seat] == SERVING:
        _set_prison(state, seat, None)
        _log(state, _("%(who)s has spent the turn in PRISON and is free again.",
                      who=_who(state, seat)))
    state["turn"] += 1
    _begin_turn(state)
    if _current(state) is None:
        if _murders(state) >= MURDERS_TO_END:
            _log(state, _("Round %(round)s is over after the 5th murder: the game is over. The "
                          "table records the outcome.", round=state["round"]))
        else:
            _log(state, _("Round %(round)s is over.", round=state["round"]))


def _apply_end_turn(state: State, actor: Viewer, action: Mapping[str, str]) -> None:
    """Offered (by ``actions``) to the player whose turn it is and to the table."""
    _end_turn(state)


def _apply_next_round(state: State, actor: Viewer, action: Mapping[str, str]) -> None:
    """Turns the next event card; ``actions`` stops offering it after the 5th murder."""
    seat = _current(state)
    require(seat is None, _("%(who)s has not finished their turn yet.",
                            who=_who(state, seat)) if seat is not None else "")
    require(any(state["alive"]), _("Nobody is left to play."))
    state["holder"] = _next_starter(state)
    state["round"] += 1
    card = _turned(state)[-1]
    facts = {"round": state["round"], "card": _card_name(card["name"]),
             "murders": _murders(state), "of": MURDERS_TO_END}
    if card["murder"] and _murders(state) >= MURDERS_TO_END:
        text = _("Round %(round)s: the event card “%(card)s” is turned. Murder discovered: "
                 "%(murders)s of %(of)s. This is the last round.", **facts)
    elif card["murder"]:
        text = _("Round %(round)s: the event card “%(card)s” is turned. Murder discovered: "
                 "%(murders)s of %(of)s.", **facts)
    else:
        text = _("Round %(round)s: the event card “%(card)s” is turned.", **facts)
    _log(state, text)
    _start_round(state)


# --- questioning and the Black Market ---------------------------------------------------

def _parse_seat(state: State, value: Any, what: str) -> int:
    return parse_choice(value, list(range(_count(state))), what)


def _parse_positions(action: Mapping[str, str]) -> list[int]:
    """The checked ``position_<k>`` boxes; any other position is refused."""
    chosen = []
    valid = [str(position) for position in range(1, LINE_LENGTH + 1)]
    for number, ticked in fields_named(action, "position_").items():
        require(number in valid, _("There is no card “%(number)s”: the cards of a line of "
                                   "suspicion are numbered 1 to %(last)s.",
                                   number=number[:10], last=LINE_LENGTH))
        if parse_bool(ticked):
            chosen.append(int(number))
    return sorted(chosen)


def _reveal(state: State, actor: int, target: int, positions: list[int], how: str) -> None:
    require(target != actor, _("You cannot question yourself.") if how == "questioned"
            else _("The Black Market reveals the card of another player."))
    who = _who(state, target)
    require(state["alive"][target], _("%(who)s is dead: a dead player's cards stay face down "
                                      "until the end of the game.", who=who))
    face_down = [pos for pos in range(1, LINE_LENGTH + 1)
                 if not state["revealed"][target][pos - 1]]
    require(bool(face_down), _("All of %(who)s's cards are already revealed.", who=who))
    for pos in positions:
        require(pos in face_down, _("Card %(number)s of %(who)s is already revealed.",
                                    number=pos, who=who))
    wanted = 1
    if how == "questioned" and _in_prison(state, target):
        wanted = min(PRISON_REVEALS, len(face_down))
        require(len(positions) <= PRISON_REVEALS,
                _("A player questioned in prison reveals two cards, not more."))
    if wanted == 1:
        require(len(positions) <= 1, _("Choose only one card: only a player questioned in "
                                       "prison reveals two."))
    require(len(positions) == wanted,
            _("Choose two of %(who)s's face-down cards (a player questioned in prison reveals "
              "two).", who=who) if wanted == 2
            else _("Choose one of %(who)s's face-down cards.", who=who))
    for pos in positions:
        state["revealed"][target][pos - 1] = True
        card = state["lines"][target][pos - 1]
        state["answer"].append(len(state["reveals"]))
        state["reveals"].append({"round": state["round"], "by": actor, "target": target,
                                 "position": pos, "card": card, "how": how})
        facts = {"asker": _who(state, actor), "who": who, "number": pos,
                 "card": CARD_NAMES[card]}
        _log(state, _("%(asker)s questioned %(who)s: card %(number)s is %(card)s.", **facts)
             if how == "questioned" else
             _("%(asker)s paid £10 at the Black Market to see %(who)s: card %(number)s is "
               "%(card)s.", **facts))
        if card == INNOCENT:
            _log(state, _("%(who)s is cleared: Innocent.", who=who))
        elif card == JACK:
            _log(state, _("%(who)s is JACK THE RIPPER! He receives the SCALPEL and may have "
                          "one more weapon of his choice; killing him no longer sends anyone "
                          "to prison.", who=who))
    state["decided"] = True


def _apply_question(state: State, actor: Viewer, action: Mapping[str, str]) -> None:
    """Rulebook phase 4 c) and "Prison and Arrests": one card, two in prison; two prisoners
    cannot question each other. Being on the same space is physical: the app trusts it.
    ``actions`` offers it to the player whose turn it is, once (the turn's single decision).
    """
    seat = int(actor)
    target = _parse_seat(state, action.get("target"), _("player to question"))
    positions = _parse_positions(action)
    require(not (_in_prison(state, seat) and _in_prison(state, target) and seat != target),
            _("Two prisoners cannot question each other."))
    _reveal(state, seat, target, positions, "questioned")


def _apply_black_market(state: State, actor: Viewer, action: Mapping[str, str]) -> None:
    """Rulebook phase 4 g): pay £10 (physical) and turn over one card of any player. A
    prisoner cannot get there: ``actions`` does not offer it in prison, nor a second
    decision in a turn."""
    seat = int(actor)
    target = _parse_seat(state, action.get("target"), _("player"))
    _reveal(state, seat, target, _parse_positions(action), "black_market")


# --- arrests, deaths ("Prison and Arrests", "Discovery of Jack the Ripper") -------------

def _own_turn(state: State, seat: int, what: str) -> None:
    """Refuses ``what`` ("abberline", "godley", "card" or "kill") from ``seat``'s phone
    outside that player's own turn, in one whole sentence for each."""
    current = _current(state)
    if current == seat:
        return
    if current is None:
        raise RuleError({
            "abberline": _("Abberline arrests during your own turn: the round is over."),
            "godley": _("Godley arrests during your own turn: the round is over."),
            "card": _("An ARREST card is played (away from the Black Market) during your own "
                      "turn: the round is over."),
            "kill": _("You kill during your own turn: the round is over."),
        }[what])
    who = _who(state, current)
    raise RuleError({
        "abberline": _("Abberline arrests during your own turn: %(who)s is playing.", who=who),
        "godley": _("Godley arrests during your own turn: %(who)s is playing.", who=who),
        "card": _("An ARREST card is played (away from the Black Market) during your own "
                  "turn: %(who)s is playing.", who=who),
        "kill": _("You kill during your own turn: %(who)s is playing.", who=who),
    }[what])


def _check_phone_arrest(state: State, seat: int, target: int, by: str) -> None:
    """An arrest from a phone is entered by who makes it (docs/RULINGS.md#london-1888, "Who
    enters what"): Abberline or Godley himself, in his turn, side by side (trusted, like
    questioning); an ARREST card in its player's turn (phase 3, "Play one or several ACTION
    cards"), or on the player at the Black Market "at any time"."""
    require(target != seat, _("You cannot send yourself to prison."))
    if by in POLICE_ARRESTS:
        police = POLICE_ARRESTS[by]
        require(state["characters"][seat] == police,
                _("Only %(police)s makes %(police)s's arrests: play an ARREST card instead.",
                  police=police))
        _own_turn(state, seat, by)
    elif by == "card":
        _own_turn(state, seat, "card")


def _protection(state: State, target: int, by: str) -> Text | None:
    """Why ``target`` may not be arrested ``by`` this way now, or None. Public facts only
    (the characters lie face up, the ABSINTHE card and the turned events are in sight), so
    a phone may leave out the buttons they forbid (docs/RULINGS.md#london-1888, "Protected
    from arrest"): the Prince, and Warren before the Resignation event, except by an ARREST
    card at the Black Market ("neither WARREN nor the PRINCE may be arrested", "including
    SIR WARREN or PRINCE ALBERT VICTOR"); never the ABSINTHE holder by an ARREST card ("The
    ARREST card, however, does not work on the player who holds the ABSINTHE card")."""
    character = state["characters"][target]
    if by != "black_market" and character == "Prince Albert Victor":
        return _("Prince Albert Victor cannot be arrested (his privilege), except by an "
                 "ARREST card at the Black Market.")
    if by != "black_market" and character == "Warren" and not _resigned(state):
        return _("Warren cannot be arrested before the Resignation event (his privilege), "
                 "except by an ARREST card at the Black Market.")
    if by in ("card", "black_market") and state["absinthe"] and target == state["holder"]:
        return _("%(who)s holds the ABSINTHE card: the ARREST card does not work on them.",
                 who=_who(state, target))
    return None


def _apply_arrest(state: State, actor: Viewer, action: Mapping[str, str]) -> None:
    """Rulebook "Prison and Arrests": Abberline or Godley arrest a player on their space; an
    ARREST card, never on the ABSINTHE holder, works at the Black Market even on Warren and
    the Prince. Who arrested is kept: only Abberline or Godley catch a discovered Jack
    ("Discovery of Jack the Ripper")."""
    target = _parse_seat(state, action.get("target"), _("player to arrest"))
    by = parse_choice(action.get("by"), list(ARRESTS), _("way of arresting"))
    if actor != TABLE:
        _check_phone_arrest(state, int(actor), target, by)
    name = _who(state, target)
    require(state["alive"][target], _("%(who)s is dead.", who=name))
    require(not _in_prison(state, target), _("%(who)s is already in prison.", who=name))
    character = state["characters"][target]
    if by in POLICE_ARRESTS:
        police = POLICE_ARRESTS[by]
        require(police in state["characters"], _("%(police)s is not in this game.",
                                                  police=police))
        arrester = state["characters"].index(police)
        require(arrester != target, _("%(police)s cannot arrest himself.", police=police))
        require(state["alive"][arrester], _("%(who)s is dead.", who=police))
    protected = _protection(state, target, by)
    if protected is not None:
        raise RuleError(protected)
    _news(state, "arrest", actor, target, way=by)
    _set_prison(state, target, by)
    if by in POLICE_ARRESTS and _jack_known(state) == target:
        _log(state, _("Jack the Ripper, %(who)s, discovered and arrested by %(police)s, goes "
                      "to PRISON and may not play a CORRUPTION card nor pay for his release: "
                      "the Innocents win.", who=name, police=_arrester(state, target)))
        return
    if character != "Warren":
        _log(state, _("%(who)s is arrested (%(way)s) and goes to PRISON for their next turn, "
                      "losing their WEAPON and ACTION cards unless Warren plays a CORRUPTION "
                      "card or they discard £10 (then they are released: a simple visitor).",
                      who=name, way=ARRESTS[by]))
    else:
        _log(state, _("%(who)s is arrested (%(way)s) and goes to PRISON for their next turn, "
                      "losing their WEAPON and ACTION cards unless he plays a CORRUPTION card "
                      "himself or they discard £10 (then they are released: a simple "
                      "visitor).", who=name, way=ARRESTS[by]))
    if _jack_known(state) == target:
        _log(state, _("Only an arrest by Abberline or Godley catches Jack the Ripper: %(who)s "
                      "may pay or be saved like any prisoner, and the game goes on.",
                      who=name))


def _apply_release(state: State, actor: Viewer, action: Mapping[str, str]) -> None:
    """Rulebook "Prison and Arrests": a prisoner goes free when "WARREN saves them by playing
    a CORRUPTION card, or they discard 10£"; not a discovered Jack held by Abberline or
    Godley ("he may not play a CORRUPTION card"; docs/RULINGS.md#london-1888, "Catching a
    discovered Jack": nor buy his way out). From a phone: the prisoner who paid, or Warren
    (Netley) who played the card, while the prisoner has not begun the turn spent there
    ("In that case they nonetheless go there, but ... do not spend their turn")."""
    target = _parse_seat(state, action.get("target"), _("player to release"))
    name = _who(state, target)
    require(_in_prison(state, target), _("%(who)s is not in prison.", who=name))
    if _jack_known(state) == target and _caught(state):
        raise RuleError(_(
            "%(who)s is Jack the Ripper, discovered and arrested by %(police)s: the rulebook "
            "says he “may not play a CORRUPTION card”, and he cannot pay his way out either. "
            "If the arrest was entered by mistake, undo it.", who=name,
            police=_arrester(state, target)))
    way = TABLE
    if actor != TABLE:
        seat = int(actor)
        way = PAID if target == seat else CORRUPTION
        require(way == PAID or state["characters"][seat] in RELEASERS,
                _("A prisoner goes free when they discard £10 (on their own phone) or when "
                  "Warren plays a CORRUPTION card for them (on his phone)."))
        require(state["prison"][target] == ARRESTED,
                _("You are already spending this turn in PRISON: £10 or a CORRUPTION card "
                  "save a prisoner on entering, before that turn.") if way == PAID else
                _("%(who)s is already spending this turn in PRISON: £10 or a CORRUPTION card "
                  "save a prisoner on entering, before that turn.", who=name))
    _news(state, "release", actor, target, way=way)
    _set_prison(state, target, None)
    if way == PAID:
        _log(state, _("%(who)s discards £10 and is released from PRISON: a simple visitor.",
                      who=name))
    elif way == CORRUPTION:
        _log(state, _("%(saviour)s plays a CORRUPTION card: %(who)s is released from PRISON, "
                      "a simple visitor.", saviour=_who(state, int(actor)), who=name))
    else:
        _log(state, _("%(who)s is released from PRISON.", who=name))


def _killer_of(state: State, actor: Viewer, target: int, action: Mapping[str, str]
               ) -> int | None:
    """Who killed ``target``: the field ``killer`` (the host, or the victim's own phone), or
    the phone itself when it is not the victim's: a kill is a weapon used in the killer's
    own turn, that turn's one decision (rulebook phase 4 b)."""
    if actor != TABLE and int(actor) != target:
        seat = int(actor)
        _own_turn(state, seat, "kill")
        require(not state["decided"], _("You have already taken this turn's decision: using "
                                        "a weapon is one, and each turn allows “one, and "
                                        "only one, decision”."))
        require(str(action.get("killer") or seat) == str(seat),
                _("Enter only your own kills; the victim enters who killed them."))
        return seat
    if not str(action.get("killer") or "").strip():
        return None
    killer = _parse_seat(state, action.get("killer"), _("killer"))
    require(killer != target, _("A player cannot be their own killer here: Jack's suicide "
                                "is recorded as the outcome."))
    require(state["alive"][killer], _("%(who)s is dead.", who=_who(state, killer)))
    return killer


def _apply_mark_dead(state: State, actor: Viewer, action: Mapping[str, str]) -> None:
    """A dead player never turns their cards over; a killer who did not know the victim's
    identity goes to prison, unless Jack is known ("Prison and Arrests", "Reveals")."""
    target = _parse_seat(state, action.get("target"), _("player who died"))
    name = _who(state, target)
    require(state["alive"][target], _("%(who)s is already dead.", who=name))
    killer = _killer_of(state, actor, target, action)
    identity_known = _jack_known(state) is not None or _role_revealed(state, target) is not None
    was_playing = _current(state) == target
    _news(state, "death", actor, target, killer=killer)
    state["alive"][target] = False
    _set_prison(state, target, None)
    died = (_("%(who)s is dead, killed by %(killer)s.", who=name, killer=_who(state, killer))
            if killer is not None else _("%(who)s is dead.", who=name))
    _log(state, _("%(first)s %(then)s", first=died, then=STAY_DOWN)
         if _face_down(state, target) else died)
    if killer is not None and not identity_known and not _in_prison(state, killer):
        _set_prison(state, killer, KILLING)
        state["news"]["jailed"] = True
        _log(state, _("%(killer)s killed without knowing the victim's identity and goes to "
                      "PRISON for their next turn.", killer=_who(state, killer)))
    if killer == actor:
        state["decided"] = True
    if was_playing:
        _end_turn(state)


# --- the outcome ("Reveals and End of Game") ---------------------------------------------

def _parse_outcome(state: State, action: Mapping[str, str]) -> tuple[str, list[int]]:
    """The result's key and the ticked accomplices' seats, sorted."""
    result = parse_choice(action.get("result"), list(RESULTS), _("result"))
    accomplices = set()
    for number, ticked in fields_named(action, "accomplice_").items():
        seat = _parse_seat(state, number, _("player"))
        if parse_bool(ticked):
            accomplices.add(seat)
    return result, sorted(accomplices)


def _check_outcome(state: State, result: str, accomplices: list[int]) -> None:
    """Refuses an ending the rules do not allow, from public facts only: a refusal that
    depended on Jack's hidden seat would let the host find him by trying outcomes. So "Jack
    killed everyone" with Jack undiscovered names the one living player left unticked as
    Jack: the proposal says so to the whole table before anything is revealed."""
    winner, how, _label = RESULTS[result]
    known = _jack_known(state)
    caught = _caught(state)
    jack = _who(state, known) if known is not None else ""
    if winner == INNOCENTS:
        require(known is not None,
                _("Jack the Ripper's identity has not been discovered: while he is at large "
                  "and undiscovered the game goes on (even a dead Jack wins at the 5th murder "
                  "unless every identity is discovered)."))
        if not caught and _in_prison(state, known):
            raise RuleError(_(
                "%(who)s (Jack the Ripper) is in prison by %(reason)s: only an arrest by "
                "Abberline or Godley, or a kill, catches him (“He may lose by being arrested "
                "or killed by ABBERLINE or GODLEY, or killed by the other players”).",
                who=jack, reason=PRISON_REASONS[str(_arrested_by(state, known))]))
        require(caught, _("%(who)s (Jack the Ripper) is still at large: mark his arrest by "
                          "Abberline or Godley, or his death, first.", who=jack))
    elif how == SUICIDE:
        require(known is not None, _("Jack can take his own life and win only once his "
                                     "identity is discovered."))
        require(state["alive"][known], _("%(who)s (Jack the Ripper) is dead.", who=jack))
        require(not caught, _("%(who)s (Jack the Ripper) is held by the police: the "
                              "Innocents win.", who=jack))
        require(not _in_prison(state, known),
                _("%(who)s (Jack the Ripper) is in prison: he takes his own life “at home, in "
                  "his starting residence” (release him first if he paid or was saved).",
                  who=jack))
    elif how == FIFTH_MURDER:
        require(_murders(state) >= MURDERS_TO_END,
                _("Only %(murders)s of %(of)s murders have been discovered.",
                  murders=_murders(state), of=MURDERS_TO_END))
        seat = _current(state)
        require(seat is None, _("The round of the 5th murder must be ended first: %(who)s "
                                "still has to play.", who=_who(state, seat))
                if seat is not None else "")
        require(not caught, _("%(who)s (Jack the Ripper) was caught after his identity was "
                              "discovered: the Innocents win.", who=jack)
                if known is not None else "")
    else:
        survivors = [seat for seat in range(_count(state))
                     if state["alive"][seat] and seat not in accomplices]
        require(len(survivors) == 1,
                _("When Jack has killed everyone, only Jack and his accomplices are alive: "
                  "tick the living accomplices and leave Jack unticked (mark the deaths "
                  "first)."))
        require(known is None or survivors == [known],
                _("%(who)s is alive and not Jack the Ripper: mark the deaths first.",
                  who=_who(state, survivors[0])) if known is not None and survivors else "")
        require(not caught, _("Jack the Ripper is held by the police: the Innocents win."))


def _apply_record_outcome(state: State, actor: Viewer, action: Mapping[str, str]) -> None:
    """Rulebook "Reveals and End of Game"; docs/RULINGS.md#london-1888, "Proposed, then confirmed":
    the proposal is public, reveals nothing and pauses play.
    The ticked boxes are kept as entered (dropping Jack's own seat now would show where he
    sits); confirming drops it."""
    result, accomplices = _parse_outcome(state, action)
    _check_outcome(state, result, accomplices)
    state["proposal"] = {"result": result, "accomplices": accomplices,
                         "round": state["round"]}
    _log(state, _("The table proposes the outcome: %(result)s. Nothing is revealed until "
                  "the host confirms it.", result=RESULTS[result][2]))


def _apply_confirm_outcome(state: State, actor: Viewer, action: Mapping[str, str]) -> None:
    """The proposal becomes the outcome: the game ends and every card is revealed. Play
    paused while it stood, so the facts it was checked against have not changed."""
    proposal = _proposal(state)
    winner, how, label = RESULTS[proposal["result"]]
    jack = _jack_seat(state)
    state["outcome"] = {"winner": winner, "how": how,
                        "accomplices": [seat for seat in proposal["accomplices"]
                                        if seat != jack],
                        "round": proposal["round"]}
    state["proposal"] = None
    _log(state, _("%(result)s. Jack the Ripper was %(who)s.", result=label,
                  who=_who(state, jack)))


def _apply_withdraw_outcome(state: State, actor: Viewer, action: Mapping[str, str]) -> None:
    """A wrong proposal is taken back before anything was revealed; play goes on."""
    label = RESULTS[_proposal(state)["result"]][2]
    state["proposal"] = None
    _log(state, _("The proposed outcome (%(result)s) is withdrawn: the game goes on.",
                  result=label))


ACTIONS = {
    "end_turn": _apply_end_turn,
    "next_round": _apply_next_round,
    "question": _apply_question,
    "black_market": _apply_black_market,
    "arrest": _apply_arrest,
    "release": _apply_release,
    "mark_dead": _apply_mark_dead,
    "record_outcome": _apply_record_outcome,
    "confirm_outcome": _apply_confirm_outcome,
    "withdraw_outcome": _apply_withdraw_outcome,
}
TURN_ACTIONS = ("question", "black_market", "end_turn")
BOARD_ACTIONS = ("arrest", "release", "mark_dead")
DECISIONS = ("question", "black_market")
CONFIRM_STEP = ("confirm_outcome", "withdraw_outcome")


def actions(state: State, viewer: Viewer) -> list[str]:
    """What ``viewer`` may submit now: the table runs the board's public happenings, each
    phone its owner's turn. Depends on public facts only."""
    if is_over(state):
        return []
    if _proposal(state) is not None:
        return list(CONFIRM_STEP) if viewer == TABLE else []
    current = _current(state)
    ended = _game_over_after_round(state)
    if viewer == TABLE:
        if ended:
            return ["record_outcome"]
        # Next round stays listed during the round: pressed early, it says who still plays.
        listed = ["end_turn"] if current is not None else []
        if _murders(state) < MURDERS_TO_END:
            listed.append("next_round")
        return listed + ["arrest", "release", "mark_dead", "record_outcome"]
    if ended or _caught(state):
        # The game has ended on the board: the table records the outcome (an entry made by
        # mistake is undone by the host).
        return []
    listed = []
    if viewer == current:
        if not state["decided"]:
            listed.append("question")
            if not _in_prison(state, current):
                listed.append("black_market")
        listed.append("end_turn")
    elif _turns_the_event(state) == viewer:
        listed.append("next_round")
    return listed + _board_actions(state, int(viewer))


def _board_actions(state: State, seat: int) -> list[str]:
    """What a living player may enter of the board on their own phone (public facts only;
    ``_apply_arrest``, ``_apply_release`` and ``_apply_mark_dead`` check the details): an
    ARREST card may be played at the Black Market at any time, the victim enters a death at
    any time, the prisoner pays on entering, and Warren saves any prisoner."""
    if not state["alive"][seat]:
        return []
    listed = [] if _in_prison(state, seat) else ["arrest"]
    waiting = _waiting(state)
    if seat in waiting or (waiting and state["characters"][seat] in RELEASERS):
        listed.append("release")
    return listed + ["mark_dead"]


def _refusal(state: State, actor: Viewer, kind: str) -> Text:
    """Why ``kind`` is not open to ``actor`` now, saying the rule (public facts only)."""
    current = _current(state)
    if kind not in ACTIONS:
        return _("That is not something you can do in London 1888.")
    if _proposal(state) is not None:
        return _("The table has proposed the outcome: play waits until the host confirms it "
                 "(the game ends) or withdraws it.")
    if kind in CONFIRM_STEP:
        return _("No outcome has been proposed: record the outcome first.")
    if actor == TABLE and kind in DECISIONS:
        return _("Each player takes their turn's decision on their own phone.")
    if actor != TABLE and kind not in TURN_ACTIONS + BOARD_ACTIONS + ("next_round",):
        return _("The outcome is entered by the host at the table screen.")
    if _game_over_after_round(state):
        return _("The round of the 5th murder is over, so the game is over (“If the 5th "
                 "murder is discovered, the round must be ended”): record the outcome.")
    if actor != TABLE and _caught(state):
        return _("Jack the Ripper is caught: the Innocents win, and the table records the "
                 "outcome.")
    if kind == "next_round":
        return _next_round_refusal(state, actor)
    if kind in BOARD_ACTIONS:
        return _board_refusal(state, int(actor), kind)
    if kind == "end_turn" and current is None:
        return _("Everyone has played this round: turn the next event card.")
    if actor != current:
        return (_("It is not your turn: %(who)s is playing.", who=_who(state, current))
                if current is not None else _("It is not your turn: the round is over."))
    if kind in DECISIONS and state["decided"]:
        return _("You have already taken this turn's decision: each turn allows “one, and "
                 "only one, decision”.")
    # Only the Black Market is left: a prisoner spends the turn in prison.
    return _("You are spending this turn in PRISON: you cannot go to the Black Market (a "
             "visitor may still be questioned).")


def _next_round_refusal(state: State, actor: Viewer) -> Text:
    """Why the next event card may not be turned by ``actor`` now (the table is refused it
    only after the 5th murder; during a round, ``_apply_next_round`` names who plays)."""
    current = _current(state)
    if _murders(state) >= MURDERS_TO_END:
        return _("The 5th murder has been discovered: this is the last round (“If the 5th "
                 "murder is discovered, the round must be ended”).")
    if not state["alive"][int(actor)]:
        return _board_refusal(state, int(actor), "next_round")
    if current == actor:
        return _("End your turn first: the next event card is turned once everyone has "
                 "played this round.")
    if current is not None:
        return _("%(who)s is playing: the next event card is turned once everyone has "
                 "played this round.", who=_who(state, current))
    starter = _who(state, _next_starter(state))
    return (_("%(who)s receives the ABSINTHE card and turns the next event card on their "
              "phone (or the host, at the table screen).", who=starter) if state["absinthe"]
            else _("%(who)s starts the next round and turns its event card on their phone (or "
                   "the host, at the table screen).", who=starter))


def _board_refusal(state: State, seat: int, kind: str) -> Text:
    """Why a phone may not enter ``kind`` (an arrest, a release, a death) now."""
    if not state["alive"][seat]:
        return _("You are dead: a dead player takes no more part in the game.")
    if kind == "arrest":
        return _("You are in PRISON: you cannot arrest anyone nor play an ARREST card.")
    return (_("Nobody is entering PRISON now: £10 or a CORRUPTION card save a prisoner on "
              "entering, before the turn spent there.") if _in_prison(state, seat)
            or state["characters"][seat] in RELEASERS else
            _("Only the prisoner (who discards £10) or Warren (a CORRUPTION card) enters a "
              "release."))


def apply(state: State, actor: Viewer, action: Mapping[str, str],
          rng: random.Random) -> State:
    """One action (see the module docstring for who may do what); a RuleError otherwise."""
    check_call(actor, action, _count(state))
    require(not is_over(state), _("The game is over."))
    kind = str(action.get("type", ""))
    if kind not in actions(state, actor):
        raise RuleError(_refusal(state, actor, kind))
    state = evolve(state)
    # The cards this action revealed, and the arrest, release or death it entered: shown
    # until the next action.
    state["answer"] = []
    state["news"] = None
    ACTIONS[kind](state, actor, action)
    news = state["news"]
    if news is not None:
        # Every arrest, release and death for the turning points (_turning_points), with
        # how many cards were turned before it (its place among them). States saved
        # before they were kept start the list here.
        state.setdefault("incidents", []).append({
            "round": state["round"], "reveals": len(state["reveals"]),
            **{key: news[key] for key in ("kind", "actor", "target", "way", "killer",
                                          "jailed")}})
    return state


# --- views -------------------------------------------------------------------------------

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


# --- the reveal at the end (base.reveal_view; templates/_macros.html reveal) ------

def _finding(state: State) -> int | None:
    """The index of the reveal after which the table first knew Jack's seat (his own card,
    or the Innocent card that cleared the last other player), or None: never discovered."""
    shown = [[False] * LINE_LENGTH for _ in range(_count(state))]
    for index, entry in enumerate(state["reveals"]):
        shown[entry["target"]][entry["position"] - 1] = True
        if _jack_known({**state, "revealed": shown}) is not None:
            return index
    return None


def _reveal_line(state: State, entry: Mapping[str, Any]) -> Text:
    facts = {"asker": _who(state, entry["by"]), "who": _who(state, entry["target"]),
             "number": entry["position"], "card": CARD_NAMES[entry["card"]]}
    if entry["how"] == "questioned":
        return _("%(asker)s questioned %(who)s: card %(number)s is %(card)s.", **facts)
    return _("%(asker)s saw at the Black Market %(who)s: card %(number)s is %(card)s.", **facts)


def _incident_line(state: State, entry: Mapping[str, Any]) -> Text:
    target, actor = _who(state, entry["target"]), entry["actor"]
    if entry["kind"] == "arrest":
        way = ARRESTS[entry["way"]]
        if actor is not None and entry["way"] not in POLICE_ARRESTS:
            return _("%(who)s is arrested (%(way)s, played by %(by)s) and goes to PRISON.",
                     who=target, way=way, by=_who(state, actor))
        return _("%(who)s is arrested (%(way)s) and goes to PRISON.", who=target, way=way)
    if entry["kind"] == "release":
        if entry["way"] == PAID:
            return _("%(who)s discards £10: out of PRISON.", who=target)
        if entry["way"] == TABLE:
            return _("%(who)s is released by the table: out of PRISON.", who=target)
        if actor is not None:
            return _("%(who)s is saved by %(saviour)s's CORRUPTION card: out of PRISON.",
                     who=target, saviour=_who(state, actor))
        return _("%(who)s is released: out of PRISON.", who=target)
    killer = entry["killer"]
    if killer is None:
        return (_("%(who)s dies. The killer goes to PRISON: he did not know the victim's "
                  "identity.", who=target) if entry["jailed"] else
                _("%(who)s dies.", who=target))
    facts = {"who": target, "killer": _who(state, killer)}
    return (_("%(who)s dies, killed by %(killer)s. The killer goes to PRISON: he did not know "
              "the victim's identity.", **facts) if entry["jailed"] else
            _("%(who)s dies, killed by %(killer)s.", **facts))


def _turning_points(state: State) -> dict[str, Any]:
    """The turning points, in the order they happened: the murders as their event cards
    turned, every role card turned over (an Innocent clearing its owner, the card or the
    clearing that found Jack), the arrests, releases and deaths, and the end. Every line
    of suspicion itself is in the view's seats, all turned over; Jack, his accomplices
    and the points are in the outcome (``outcome_summary``)."""
    jack = _jack_seat(state)
    found = _finding(state)
    outcome = state["outcome"]
    keyed: list[tuple[tuple[int, int, int], dict[str, Any]]] = []
    murders = 0
    for index, card in enumerate(_turned(state)):
        if card["murder"]:
            murders += 1
            keyed.append(((index + 2, -1, 0), reveal_step(
                _round(index + 2), _("Murder %(murders)s of %(of)s: “%(card)s” is turned.",
                                     murders=murders, of=MURDERS_TO_END,
                                     card=_card_name(card["name"])), "murder")))
    for index, entry in enumerate(state["reveals"]):
        if index != found and entry["card"] not in ROLE_CARDS:
            continue
        text = _reveal_line(state, entry)
        if index == found:
            text = (_("%(line)s Jack the Ripper is found.", line=text)
                    if entry["card"] == JACK else
                    _("%(line)s Everyone else is cleared: %(who)s is Jack the Ripper.",
                      line=text, who=_who(state, jack)))
        keyed.append(((entry["round"], index, 1), reveal_step(
            _round(entry["round"]), text, "found" if index == found else "cleared")))
    for entry in state.get("incidents", []):
        keyed.append(((entry["round"], entry["reveals"], 0), reveal_step(
            _round(entry["round"]), _incident_line(state, entry), entry["kind"])))
    steps = [step for _key, step in sorted(keyed, key=lambda pair: pair[0])]
    steps.append(reveal_step(_round(outcome["round"]),
                             _("%(result)s.", result=RESULTS[_result_key(outcome)][2]), "end"))
    if found is None:
        how = _("Nobody found him: his identity was never discovered.")
    else:
        entry = state["reveals"][found]
        how = _("Round %(round)s: %(line)s", round=entry["round"],
                line=_reveal_line(state, entry))
    first = next((entry for entry in state["reveals"] if entry["target"] == jack), None)
    # Who was Jack and his accomplices: the outcome above the reveal says it already.
    facts = [(_("The question that found him"), how)]
    if first is not None and (found is None or state["reveals"][found] is not first):
        facts.append((_("First card turned at his seat"),
                      _("Round %(round)s: %(line)s", round=first["round"],
                        line=_reveal_line(state, first))))
    others = len(state["reveals"]) - sum(entry["card"] in ROLE_CARDS
                                         for entry in state["reveals"])
    facts.append((_("Cards turned"), ngettext(
        "%(n)s in the game (%(others)s Suspect or False Lead, not in the timeline)",
        "%(n)s in the game (%(others)s Suspect or False Lead, not in the timeline)",
        len(state["reveals"]), others=others)))
    return reveal_view(facts, _("Turning points"), steps)


def _round(number: int) -> Text:
    return _("Round %(round)s", round=number)


def _result_key(outcome: Mapping[str, Any]) -> str:
    return next(key for key, (winner, how, _label) in RESULTS.items()
                if winner == outcome["winner"] and how == outcome["how"])


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
