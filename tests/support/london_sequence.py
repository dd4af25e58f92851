"""A public stretch of London 1888 (questions, an arrest, a Black Market, a death, a new
round) that reveals nothing of who is Jack: the non-interference tests replay it on two
deals that differ in a secret."""

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
