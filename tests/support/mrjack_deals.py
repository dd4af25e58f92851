"""Mr. Jack deals for the glance and non-interference tests: two games with the same
public side (the same cards face up, in the same order) and different secrets.

Both the web and the browser tests give these states to their two tables
(tests/support/hidden.deal_again) and then play the same public actions at both.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from companion.games import mrjack

State = dict[str, Any]

# The draft: each seat keeps the same two at both tables (Professor Moriarty among the
# detective's, so that he comes into play); the six others are split the other way.
KEPT = (["stealthy", "gull"], ["moriarty", "watson"])
UNKEPT = [card for card in mrjack.LONDON_ADDITIONAL if card not in KEPT[0] + KEPT[1]]


def with_first(state: State, card: str) -> State:
    """The same public game but with ``card`` among this turn's four (it trades places
    with the last of them in the deck)."""
    changed = copy.deepcopy(state)
    cards = changed["round"]["cards"]
    if card not in cards:
        changed["deck"][changed["deck"].index(card)] = cards[-1]
        cards[-1] = card
    return changed


def with_alibis(state: State, alibi: str, drawn: str) -> State:
    """The same game with Jack's alibi and the alibi deck's top card (the next one an
    ability draws) as given, the rest of the alibi deck in the table's order."""
    changed = copy.deepcopy(state)
    changed["alibi"] = alibi
    changed["alibi_deck"] = [drawn] + [card for card in state["characters"]
                                       if card not in (alibi, drawn)]
    return changed


def holmes_twins(state: State) -> tuple[State, State]:
    """Two base games from ``state`` (turn 1, nothing played): Sherlock Holmes among
    turn 1's four; Jack's alibi and the alibi Holmes draws differ; neither Jack is
    Holmes nor the character of turn 2's first card (Jack's, so his escape with it is
    refused at both tables)."""
    dealt = with_first(state, "holmes")
    alibi_a, alibi_b, drawn_a, drawn_b = [
        card for card in dealt["characters"] if card not in ("holmes", dealt["deck"][0])][:4]
    return with_alibis(dealt, alibi_a, drawn_a), with_alibis(dealt, alibi_b, drawn_b)


def with_hands(state: State, jack: Sequence[str], detective: Sequence[str]) -> State:
    changed = copy.deepcopy(state)
    changed["draft"]["hands"] = [list(jack), list(detective)]
    return changed


def draft_twins(state: State) -> tuple[State, State]:
    """Two drafts from ``state``: each seat holds its two of KEPT first at both tables,
    its three others differ."""
    (jack, detective), rest = KEPT, UNKEPT
    return (with_hands(state, jack + rest[:3], detective + rest[3:]),
            with_hands(state, jack + rest[3:], detective + rest[:3]))
