"""London 1888's setup (rulebook "Game Setup"): the setup form and its options, the
identity deal and the event deck, and the state of round 1."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.base import (
    State,
    draw,
    parse_bool,
    parse_choice,
    parse_names,
    require,
    shuffled,
)
from companion.games.london1888.rules import _log, _start_round
from companion.games.london1888.state import (
    BOX,
    CHARACTER_MODES,
    CORE_CHARACTERS,
    DEAL_PER_PLAYER,
    DEFAULT_EVENT_CARDS,
    DEFAULT_MURDER_CARDS,
    EVENTS_IN_DECK,
    EXTRA_CHARACTERS,
    FALSE_LEAD,
    INNOCENT,
    JACK,
    LINE_LENGTH,
    MANIFESTATION,
    MAX_PLAYERS,
    MIN_PLAYERS,
    MURDER_POSITION,
    MURDERS_TO_END,
    RESIGNATION,
    SUSPECT,
)
from companion.words import _


def _option_names(options: Mapping[str, Any], key: str) -> list[str]:
    """A list of names from stored options, or the default list when it is missing or
    malformed (the form's checks then judge the names themselves)."""
    value = options.get(key)
    if isinstance(value, list | tuple) and value:
        return [str(name) for name in value]
    return default_options()[key]


def seat_labels(count: int, options: Mapping[str, Any]) -> list[str]:
    """Each seat's character: the four always in play, then the chosen (or drawn) ones."""
    extras = _option_names(options, "extras") + list(EXTRA_CHARACTERS)
    labels = list(CORE_CHARACTERS[:count])
    for seat in range(len(CORE_CHARACTERS), count):
        if options.get("characters") == "drawn":
            labels.append(_("Seat %(number)s: drawn character", number=seat + 1))
        else:
            labels.append(extras[seat - len(CORE_CHARACTERS)])
    return labels


def default_options() -> dict[str, Any]:
    """Absinthe on, characters 5-8 in rulebook order, the deck names of
    docs/RULINGS.md#london-1888, "Event deck"."""
    return {"absinthe": True, "characters": "chosen", "extras": list(EXTRA_CHARACTERS),
            "murder_cards": list(DEFAULT_MURDER_CARDS),
            "event_cards": list(DEFAULT_EVENT_CARDS)}


def parse_options(form: Mapping[str, str], count: int) -> dict[str, Any]:
    """The setup form: ``absinthe`` (checkbox), ``characters`` ("chosen"/"drawn"),
    ``character_5`` .. ``character_<count>`` when chosen, ``murder_cards`` (5 names, one per
    line) and ``event_cards`` (15 names, one per line: Manifestation first, Resignation
    second)."""
    require(MIN_PLAYERS <= count <= MAX_PLAYERS,
            _("London 1888 is played by %(least)s to %(most)s players.", least=MIN_PLAYERS,
              most=MAX_PLAYERS))
    mode = parse_choice(form.get("characters") or "chosen", CHARACTER_MODES,
                        _("way to pick the characters"))
    extras = list(EXTRA_CHARACTERS)
    if mode == "chosen":
        picked = [parse_choice(form.get(f"character_{seat}"), EXTRA_CHARACTERS,
                               _("character for seat %(number)s", number=seat))
                  for seat in range(len(CORE_CHARACTERS) + 1, count + 1)]
        require(len(set(picked)) == len(picked),
                _("Each character can be played by one player only: choose different "
                  "characters for seats 5 to 8."))
        extras = picked + [name for name in EXTRA_CHARACTERS if name not in picked]
    murders = parse_names(form.get("murder_cards"), MURDERS_TO_END, _("Murder card names"))
    events = parse_names(form.get("event_cards"), EVENTS_IN_DECK, _("Event card names"))
    both = set(murders) & set(events)
    require(not both, _("“%(name)s” cannot be both a Murder card and an Event card: the 20 "
                        "card names must all be different.", name=min(both) if both else ""))
    return {"absinthe": parse_bool(form.get("absinthe")), "characters": mode,
            "extras": extras, "murder_cards": murders, "event_cards": events}


def form_from(options: Mapping[str, Any]) -> dict[str, str]:
    """The setup form's fields filled in from ``options`` (the inverse of parse_options)."""
    extras = _option_names(options, "extras")
    form = {"characters": str(options.get("characters") or "chosen"),
            "murder_cards": "\n".join(_option_names(options, "murder_cards")),
            "event_cards": "\n".join(_option_names(options, "event_cards"))}
    form.update({f"character_{seat}": name
                 for seat, name in enumerate(extras, start=len(CORE_CHARACTERS) + 1)})
    if options.get("absinthe", True):
        form["absinthe"] = "on"
    return form


def deal_lines(count: int, rng: random.Random) -> list[list[str]]:
    """The identity deal (rulebook "Game Setup"; docs/RULINGS.md#london-1888, "Identity deal"): one
    role card each (1 Jack the Ripper, the rest Innocent), then Suspect and False Lead cards per the
    player count, drawn from the box so that its totals can never be exceeded; each line of
    suspicion is shuffled so that nobody knows where the role card lies."""
    suspects, false_leads = DEAL_PER_PLAYER[count]
    innocent_pile = [INNOCENT] * BOX[INNOCENT]
    suspect_pile = [SUSPECT] * BOX[SUSPECT]
    false_lead_pile = [FALSE_LEAD] * BOX[FALSE_LEAD]
    role_cards = shuffled([JACK] + draw(innocent_pile, count - 1), rng)
    return [shuffled([role] + draw(suspect_pile, suspects) + draw(false_lead_pile, false_leads),
                     rng)
            for role in role_cards]


def build_event_deck(murder_cards: Sequence[str], event_cards: Sequence[str],
                     rng: random.Random) -> list[dict[str, Any]]:
    """The event deck (rulebook "Game Setup"): one Murder card set aside face down, the
    other 19 shuffled, the set-aside Murder inserted 10th from the top. Index 0 is the top.
    """
    murders = shuffled(murder_cards, rng)
    set_aside = murders.pop()
    deck = shuffled(murders + list(event_cards), rng)
    deck.insert(MURDER_POSITION - 1, set_aside)
    murder_names = set(murder_cards)
    return [{"name": name, "murder": name in murder_names} for name in deck]


def setup(options: Mapping[str, Any], players: Sequence[str], rng: random.Random) -> State:
    """Characters, the identity deal and the event deck; round 1 starts with Abberline.
    The options go through the setup form's checks again: stored or imported options
    cannot smuggle in an unknown character or a deck of the wrong size."""
    count = len(players)
    options = parse_options(form_from(options), count)
    extras = options["extras"]
    if options["characters"] == "drawn":
        extras = shuffled(EXTRA_CHARACTERS, rng)
    events = options["event_cards"]
    state: State = {
        "players": [str(name) for name in players],
        "characters": list(CORE_CHARACTERS) + extras[:count - len(CORE_CHARACTERS)],
        "absinthe": options["absinthe"],
        "lines": deal_lines(count, rng),
        "revealed": [[False] * LINE_LENGTH for _ in range(count)],
        "deck": build_event_deck(options["murder_cards"], events, rng),
        "manifestation": events[MANIFESTATION],
        "resignation": events[RESIGNATION],
        "round": 1,
        "holder": 0,
        "order": [],
        "turn": 0,
        "decided": False,
        "alive": [True] * count,
        "prison": [None] * count,
        "arrested_by": [None] * count,
        "reveals": [],
        "answer": [],
        "news": None,
        "incidents": [],
        "log": [],
        "proposal": None,
        "outcome": None,
    }
    _log(state, _("Round 1: no event card is turned. Abberline holds the ABSINTHE card and "
                  "starts.") if state["absinthe"]
         else _("Round 1: no event card is turned. Abberline starts."))
    _start_round(state)
    return state
