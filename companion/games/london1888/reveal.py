"""The reveal at the end of London 1888 (``base.reveal_view``; templates/_macros.html
``reveal``): the turning points, in the order they happened, from the last state alone."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.base import TABLE, State, reveal_step, reveal_view
from companion.games.london1888.state import (
    ARRESTS,
    CARD_NAMES,
    JACK,
    LINE_LENGTH,
    MURDERS_TO_END,
    PAID,
    POLICE_ARRESTS,
    RESULTS,
    ROLE_CARDS,
    _card_name,
    _count,
    _jack_known,
    _jack_seat,
    _turned,
    _who,
)
from companion.words import Text, _, ngettext


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
