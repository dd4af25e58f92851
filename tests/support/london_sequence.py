"""London 1888 for the tests that play two games side by side: a public stretch of play
(questions, an arrest, a Black Market, a death, a new round) that reveals nothing of who
is Jack, replayed by the non-interference tests on two deals that differ in a secret; and
two four-player deals made to differ in every secret (the glance tests)."""

from __future__ import annotations

import copy
from typing import Any

from companion.games.base import TABLE

PUBLIC_SEQUENCE = [
    (0, {"type": "question", "target": "2", "position_3": "on"}),
    (0, {"type": "end_turn"}),
    (TABLE, {"type": "arrest", "target": "2", "by": "abberline"}),
    (1, {"type": "black_market", "target": "4", "position_1": "on"}),
    (TABLE, {"type": "end_turn"}),
    (2, {"type": "question", "target": "4", "position_2": "on"}),
    (2, {"type": "end_turn"}),
    (TABLE, {"type": "mark_dead", "target": "3", "killer": "4"}),
    (4, {"type": "end_turn"}),
    (TABLE, {"type": "next_round"}),
    (1, {"type": "question", "target": "4", "position_4": "on"}),
    (TABLE, {"type": "end_turn"}),
]

# Five players (Godley at seat 5): arrests, releases and deaths entered from the phones of
# who makes or suffers them (docs/RULINGS.md#london-1888, "Who enters what"), revealing
# nothing; Lusk, Gull and Godley are in prison at the end, Warren and Abberline dead.
PHONE_SEQUENCE = [
    (0, {"type": "arrest", "target": "1", "by": "abberline"}),
    (1, {"type": "release", "target": "1"}),
    (0, {"type": "arrest", "target": "2", "by": "card"}),
    (0, {"type": "end_turn"}),
    (1, {"type": "end_turn"}),
    (2, {"type": "end_turn"}),
    (3, {"type": "arrest", "target": "4", "by": "black_market"}),
    (3, {"type": "end_turn"}),
    (4, {"type": "end_turn"}),
    (TABLE, {"type": "next_round"}),
    (1, {"type": "end_turn"}),
    (2, {"type": "mark_dead", "target": "3"}),
    (2, {"type": "end_turn"}),
    (4, {"type": "arrest", "target": "1", "by": "godley"}),
    (0, {"type": "mark_dead", "target": "0", "killer": "4"}),
    (4, {"type": "end_turn"}),
]

# Five players, rounds run from the phones (issue 38, point 3): the player who receives
# the ABSINTHE card turns each event card on his phone; an ARREST card at the Black Market;
# a prisoner's decision; seat 0 (Jack or not) dies with his cards face down. Seats 0 and 1
# are never questioned, so a twin that swaps their roles stays hidden.
ROUND_SEQUENCE = [
    *[(seat, {"type": "end_turn"}) for seat in range(5)],
    (1, {"type": "next_round"}),
    (1, {"type": "question", "target": "2", "position_1": "on"}),
    (1, {"type": "end_turn"}),
    (2, {"type": "arrest", "target": "4", "by": "black_market"}),
    (2, {"type": "end_turn"}),
    (3, {"type": "end_turn"}),
    (4, {"type": "question", "target": "3", "position_2": "on"}),
    (0, {"type": "mark_dead", "target": "0", "killer": ""}),
    (4, {"type": "end_turn"}),
    (2, {"type": "next_round"}),
]

_J, _I, _S, _F = "jack", "innocent", "suspect", "false_lead"
# Cards 1 and 2 of every line are the same clue cards in both deals: the glance tests
# reveal only those. Jack is Lusk (seat 1) in the first deal and Gull (seat 2) in the
# second, and every role card lies elsewhere (card 3, 4 or 5).
TWIN_LINES = (
    [[_F, _S, _I, _S, _F], [_S, _F, _S, _J, _F], [_S, _F, _F, _S, _I], [_F, _S, _S, _F, _I]],
    [[_F, _S, _S, _F, _I], [_S, _F, _I, _S, _F], [_S, _F, _J, _F, _S], [_F, _S, _I, _S, _F]],
)
# The default deck's names (docs/RULINGS.md#london-1888, "Event deck"), the five murders
# among the first ten cards, the set-aside one 10th: round 2 turns a murder, round 3 the
# Manifestation, and the 5th murder comes in round 11. The ten never turned lie in
# another order.
TURNED = ("Murder I", "Manifestation", "Event 3", "Murder II", "Event 4", "Murder III",
          "Resignation", "Murder IV", "Event 5", "Murder V")
NEVER_TURNED = tuple(f"Event {number}" for number in range(6, 16))


def role_position(state: dict[str, Any], seat: int) -> int:
    """Where ``seat``'s role card lies (1 to 5): a secret from everyone."""
    return next(index + 1 for index, card in enumerate(state["lines"][seat])
                if card in (_J, _I))


def twin_deals(state: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Two deals of the four-player game ``state`` (default deck names) that differ in who
    is Jack, where each role card lies and the order of the event cards never turned."""
    assert len(state["players"]) == 4, "the twin deals are made for four players"
    deals = []
    for lines, never in zip(TWIN_LINES, (NEVER_TURNED, NEVER_TURNED[::-1]), strict=True):
        deal = copy.deepcopy(state)
        deal["lines"] = copy.deepcopy(lines)
        deal["deck"] = [{"name": name, "murder": name.startswith("Murder")}
                        for name in TURNED + never]
        deals.append(deal)
    return deals[0], deals[1]
