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
from collections.abc import Mapping
from typing import Any

from companion.games.base import (
    TABLE,
    RuleError,
    State,
    Viewer,
    check_call,
    evolve,
    fields_named,
    parse_bool,
    parse_choice,
    require,
    seat_order,
)
from companion.games.london1888.state import (
    ARRESTED,
    ARRESTS,
    CARD_NAMES,
    CORRUPTION,
    FIFTH_MURDER,
    INNOCENT,
    INNOCENTS,
    JACK,
    KILLING,
    LINE_LENGTH,
    MURDERS_TO_END,
    PAID,
    POLICE_ARRESTS,
    PRISON_REASONS,
    PRISON_REVEALS,
    RELEASERS,
    RESULTS,
    SERVING,
    STAY_DOWN,
    SUICIDE,
    _arrested_by,
    _arrester,
    _card_name,
    _caught,
    _count,
    _current,
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
from companion.words import Text, _

# --- rounds and turns ("Playing the Game") ---------------------------------------------

def _log(state: State, text: Text) -> None:
    # The English stays in "text" (what older code and files read); "words" keeps the
    # sentence so that each reader reads it in their own language (_log_text).
    state["log"].append({"round": state["round"], "text": str(text), "words": text.as_data()})


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
