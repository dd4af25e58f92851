"""London 1888's state as every module of the game reads it.

The game's vocabulary (the characters, the identity cards, the event deck, prison, the
results and the scoring table) and the readings of a state (whose turn it is, the event
cards turned, who is in prison and why, Jack discovered or caught, the game ended).
``rules`` changes a state and ``views`` shows it; both read it through this module,
which imports neither.

The helpers keep their leading underscore: they are the game's own insides, shared by its
modules, not an interface for the platform (which reads the game through the package).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.base import State, next_seat, ordinal
from companion.words import Text, _

NAME = "london1888"
TITLE = "London 1888"
MIN_PLAYERS = 4
MAX_PLAYERS = 8
DEFAULT_PLAYERS = 5
# Abberline, Lusk, Gull and Warren always play (rulebook "Game Setup"): their seats stay.
FIXED_SEATS = frozenset(range(4))


# --- the characters (rulebook "Game Setup": character list and starting residences) -------

CORE_CHARACTERS = ("Abberline", "Lusk", "Gull", "Warren")
EXTRA_CHARACTERS = ("Godley", "Netley", "Mansfield", "Prince Albert Victor")
CHARACTERS: dict[str, dict[str, str]] = {
    "Abberline": {"full_name": "Frederick Abberline",
                  "title": _("Inspector at the Metropolitan Police"),
                  "residence": _("the Police Station (Commissariat)")},
    "Lusk": {"full_name": "George Lusk", "title": _("Head of the Protesters"),
             "residence": _("Lusk's residence")},
    "Gull": {"full_name": "Sir William Gull", "title": _("Queen's Physician"),
             "residence": _("Gull's residence")},
    "Warren": {"full_name": "Sir Charles Warren", "title": _("Commissioner-in-Chief"),
               "residence": "Scotland Yard"},
    "Godley": {"full_name": "George Godley", "title": _("Sergeant in J Division"),
               "residence": _("the Police Station (Commissariat)")},
    "Netley": {"full_name": "John Netley", "title": _("Coachman"),
               "residence": _("Netley's residence")},
    "Mansfield": {"full_name": "Richard Mansfield", "title": _("Actor"),
                  "residence": _("Henry Irving's Lyceum Theatre")},
    "Prince Albert Victor": {"full_name": "Prince Albert Victor",
                             "title": _("Duke of Clarence and Avondale"),
                             "residence": _("the Palais Royal")},
}
CHARACTER_MODES = ("chosen", "drawn")


# --- the identity cards (rulebook "Game Description", "Game Setup"; docs/RULINGS.md#london-1888)

JACK = "jack"
INNOCENT = "innocent"
SUSPECT = "suspect"
FALSE_LEAD = "false_lead"
ROLE_CARDS = (JACK, INNOCENT)
CARD_NAMES = {JACK: _("Jack the Ripper"), INNOCENT: _("Innocent"), SUSPECT: _("Suspect"),
              FALSE_LEAD: _("False Lead")}
# The box holds 50 IDENTITY cards; the deal must never take more of a kind than this.
BOX = {JACK: 1, INNOCENT: 7, SUSPECT: 10, FALSE_LEAD: 32}
# (Suspect, False Lead) cards per player, by player count.
DEAL_PER_PLAYER = {4: (2, 2), 5: (2, 2), 6: (1, 3), 7: (1, 3), 8: (0, 4)}
LINE_LENGTH = 5
PRISON_REVEALS = 2


# --- the event deck (rulebook "Game Setup"; docs/RULINGS.md#london-1888, "Event deck") ---------

MURDERS_TO_END = 5
EVENTS_IN_DECK = 15
MURDER_POSITION = 10  # the set-aside Murder card, counted from the top
# Until this laptop names its cards (its decks page, DECK_FIELDS), a default name says how
# to find the card: the table lays the MURDER cards, and the EVENT cards other than
# Manifestation and Resignation, face up in two rows (docs/RULINGS.md#london-1888,
# "Event deck").
DEFAULT_MURDER_CARDS = tuple(_("Murder %(place)s of the row (%(ordinal)s from the left)",
                               place=place, ordinal=ordinal(place))
                             for place in range(1, MURDERS_TO_END + 1))
# The first two event names are the Manifestation and Resignation cards, whatever they are
# called at this table: their reminders are tied to the line, not to the spelling.
DEFAULT_EVENT_CARDS = (_("Manifestation"), _("Resignation")) + tuple(
    _("Event %(place)s of the row (%(ordinal)s from the left)", place=place,
      ordinal=ordinal(place))
    for place in range(1, EVENTS_IN_DECK - 1))
# The default names are kept in options and states as their English; shown, they read in
# the reader's language (a name the table typed is shown as typed).
DEFAULT_CARD_WORDS = {str(name): name for name in DEFAULT_MURDER_CARDS + DEFAULT_EVENT_CARDS}
DECK_FIELDS = ("murder_cards", "event_cards")
"""The setup form's fields that name this game's cards, typed once on the laptop."""
OPTION_WORDS = {"absinthe": _("The ABSINTHE card"),
                "characters": _("Characters for seats 5 to 8"),
                "character_": _("Characters for seats 5 to 8")}
"""The setup form's options by name (a prefix ends in "_"), to say which a new table kept
from the last one (``companion/games/base.py``, ``OPTION_WORDS``)."""
MANIFESTATION, RESIGNATION = 0, 1


# --- prison (rulebook "Prison and Arrests", "Discovery of Jack the Ripper") ---------------

ARRESTED = "arrested"  # in prison, the turn to spend there has not begun yet
SERVING = "serving"    # spending this turn in prison; free when it ends
ARRESTS = {
    "abberline": _("Abberline arrests"),
    "godley": _("Godley arrests"),
    "card": _("ARREST card"),
    "black_market": _("ARREST card at the Black Market"),
}
# Only these catch a discovered Jack ("He may lose by being arrested or killed by ABBERLINE or
# GODLEY, or killed by the other players"); sent to prison any other way he may pay or be
# saved like any prisoner (docs/RULINGS.md#london-1888, "Catching a discovered Jack").
POLICE_ARRESTS = {"abberline": "Abberline", "godley": "Godley"}
# Why a player is in prison: an arrest, or a kill without knowing the victim's identity.
KILLING = "killing"
PRISON_REASONS = {**ARRESTS, KILLING: _("killed without knowing the victim's identity")}
# Warren (until Resignation) and the Prince cannot be arrested, except by an ARREST card
# played on them at the Black Market ("including SIR WARREN or PRINCE ALBERT VICTOR").
PRIVILEGED = ("Warren", "Prince Albert Victor")
# Who may save a prisoner with a CORRUPTION card: Warren, or Netley once they have traded
# privileges ("WARREN and NETLEY may trade their privilege ... (release from prison ...)";
# the trade is spoken at the table, so the app trusts either: docs/RULINGS.md#london-1888,
# "Who enters what").
RELEASERS = ("Warren", "Netley")
# How a release came about, for the notices: the prisoner paid, a CORRUPTION card, the host.
PAID, CORRUPTION = "paid", "corruption"

# A dead player "NEVER turns over their IDENTITY cards" during the game, and the reveal at
# its end turns every line over (docs/RULINGS.md#london-1888, "Cleared and discovered"):
# so the words say "until the end", never "never", and only while a card lies face down.
STAY_DOWN = _("Their face-down cards stay face down until the end of the game.")
STAY_DOWN_YOURS = _("Nobody may question you any more: your face-down cards stay face down "
                    "until the end of the game.")


# --- the outcome and the scoring table (rulebook "Note: Scoring for Tournaments") ---------

INNOCENTS = "innocents"
JACK_SIDE = "jack"
SUICIDE = "suicide"
KILLED_EVERYONE = "killed_everyone"
FIFTH_MURDER = "fifth_murder"
RESULTS: dict[str, tuple[str, str | None, Text]] = {
    "innocents": (INNOCENTS, None, _("The Innocents win: Jack was caught alive or killed")),
    "jack_suicide": (JACK_SIDE, SUICIDE, _("Jack wins: he took his own life at home")),
    "jack_killed_everyone": (JACK_SIDE, KILLED_EVERYONE, _("Jack wins: he killed everyone")),
    "jack_fifth_murder": (JACK_SIDE, FIFTH_MURDER,
                          _("Jack wins: the 5th murder was discovered")),
}
INNOCENT_WIN_POINTS = 1
POINTS_DISCOVERED = {SUICIDE: 2, KILLED_EVERYONE: 3}
# (first round, last round, points) for the 5th murder with Jack's identity discovered.
FIFTH_MURDER_POINTS_DISCOVERED = ((11, 11, 4), (12, 16, 5), (17, 21, 6))
POINTS_UNDISCOVERED = {KILLED_EVERYONE: 7}
FIFTH_MURDER_EARLIEST = MURDER_POSITION + 1
FIFTH_MURDER_LATEST = MURDERS_TO_END + EVENTS_IN_DECK + 1
UNDISCOVERED_FIFTH_MURDER_IN_EARLIEST = 8
# The rulebook is silent on an undiscovered Jack whose 5th murder comes later
# (docs/RULINGS.md#london-1888, "Tournament points").
DEFAULT_UNDISCOVERED_LATE_MURDER = 8


# --- derived facts (public unless said otherwise) --------------------------------------

def _count(state: State) -> int:
    return len(state["players"])


def _who(state: State, seat: int) -> str:
    return f"{state['characters'][seat]} ({state['players'][seat]})"


def _card_name(name: str) -> str:
    """An event card's name as the reader reads it: a default name translated, a name the
    table typed as typed."""
    return DEFAULT_CARD_WORDS.get(name, name)


def _turned(state: State) -> list[dict[str, Any]]:
    """Round 1 turns no card; round k turns card k-1 (docs/RULINGS.md#london-1888, "Event deck")."""
    return state["deck"][:state["round"] - 1]


def _murders(state: State) -> int:
    return sum(card["murder"] for card in _turned(state))


def _resigned(state: State) -> bool:
    return any(card["name"] == state["resignation"] for card in _turned(state))


def fifth_murder_round(deck: Sequence[Mapping[str, Any]]) -> int:
    """The round in which the deck turns its 5th Murder: card i (0-based) turns in round
    i + 2, and the 5th Murder is the last Murder card of the deck."""
    return max(index for index, card in enumerate(deck) if card["murder"]) + 2


def _current(state: State) -> int | None:
    """Whose turn it is, or None when everyone has played this round."""
    order = state["order"]
    return order[state["turn"]] if state["turn"] < len(order) else None


def _in_prison(state: State, seat: int) -> bool:
    return state["prison"][seat] is not None


def _waiting(state: State) -> list[int]:
    """The prisoners who have not begun their turn in prison: £10 or a CORRUPTION card may
    still save them ("Prison and Arrests"), unless it is a caught Jack ("he may not play a
    CORRUPTION card")."""
    held = _jack_known(state) if _caught(state) else None
    return [seat for seat in range(_count(state))
            if state["prison"][seat] == ARRESTED and seat != held]


def _arrested_by(state: State, seat: int) -> str | None:
    """Why ``seat`` is in prison (a key of ``PRISON_REASONS``), or None. States saved before
    the reason was kept have no ``arrested_by``: their prisoners count as held by an ARREST
    card, which catches nobody."""
    if not _in_prison(state, seat):
        return None
    return (state.get("arrested_by") or [None] * _count(state))[seat] or "card"


def _arrester(state: State, seat: int) -> str:
    """Who holds a prisoner arrested by the police: "Abberline" or "Godley"."""
    return POLICE_ARRESTS[str(_arrested_by(state, seat))]


def _role_revealed(state: State, seat: int) -> str | None:
    for card, shown in zip(state["lines"][seat], state["revealed"][seat], strict=True):
        if shown and card in ROLE_CARDS:
            return card
    return None


def _jack_known(state: State) -> int | None:
    """Jack's seat once the public knows it: his card was revealed, or every other player
    was cleared by a revealed Innocent card (a dead player's cards never are)."""
    uncleared = [seat for seat in range(_count(state))
                 if _role_revealed(state, seat) != INNOCENT]
    for seat in uncleared:
        if _role_revealed(state, seat) == JACK:
            return seat
    return uncleared[0] if len(uncleared) == 1 else None


def _caught(state: State) -> bool:
    """Jack is caught: discovered, and dead or held by an arrest of Abberline or Godley
    (rulebook "Discovery of Jack": "He may lose by being arrested or killed by ABBERLINE or
    GODLEY, or killed by the other players"). Public facts only."""
    known = _jack_known(state)
    return known is not None and (not state["alive"][known]
                                  or _arrested_by(state, known) in POLICE_ARRESTS)


def _proposal(state: State) -> dict[str, Any] | None:
    """The outcome the table has entered and not yet confirmed (older states have none)."""
    return state.get("proposal")


def _jack_seat(state: State) -> int:
    """Secret until the end or the discovery: the seat dealt the Jack the Ripper card."""
    return next(seat for seat, line in enumerate(state["lines"]) if JACK in line)


def _game_over_after_round(state: State) -> bool:
    """The 5th murder was turned and its round is finished (rulebook: "If the 5th murder is
    discovered, the round must be ended")."""
    return _murders(state) >= MURDERS_TO_END and _current(state) is None


def is_over(state: State) -> bool:
    """The game is over once the table has recorded the outcome."""
    return state["outcome"] is not None


def _dead_seats(state: State) -> list[int]:
    return [seat for seat, alive in enumerate(state["alive"]) if not alive]


def _next_starter(state: State) -> int:
    """The ABSINTHE card passes to the left (the next living player); without it Abberline
    (or, if he is dead, the next living player on his left) starts every round."""
    dead = _dead_seats(state)
    if state["absinthe"]:
        return next_seat(_count(state), state["holder"], dead)
    return 0 if state["alive"][0] else next_seat(_count(state), 0, dead)


def _face_down(state: State, seat: int) -> int:
    """How many of ``seat``'s cards are still face down (public)."""
    return LINE_LENGTH - sum(state["revealed"][seat])


def _turns_the_event(state: State) -> int | None:
    """The seat whose phone turns the next event card once everyone has played: the player
    to whom the ABSINTHE card passes, who starts the next round (rulebook "Playing the
    Game": "another round begins by passing the ABSINTHE card to the player on the left
    ... A new EVENT card is turned over"; without it, who starts the round;
    docs/RULINGS.md#london-1888, "The next event card"). None during a round, after the
    5th murder or with nobody left alive."""
    if (_current(state) is not None or _murders(state) >= MURDERS_TO_END
            or not any(state["alive"])):
        return None
    return _next_starter(state)


def _ended(state: State) -> bool:
    """The game has ended on the board (recorded, proposed, or waiting to be): no phone
    gives advice for it any more."""
    return (is_over(state) or _proposal(state) is not None or _caught(state)
            or _game_over_after_round(state))
