"""The police map's targets: from every crossing of the shipped board, every crossing a
policeman may go to is one tap away, and every target is at least 44 CSS px on a 360
px phone, none over another; the map shows only the view."""

from __future__ import annotations

import math

import pytest

from companion.games.whitechapel.policemap import PHONE_WIDTH, TAP, police_map
from tests.support.boardfiles import real_board


@pytest.fixture(scope="module")
def real():
    return real_board()


def view(choices, at=None, phase="police", movable=("yellow",)):
    return {"role": "detective", "phase": phase, "movable": list(movable),
            "cops": {"at": at or {"yellow": choices[0]}, "from": {"yellow": choices[0]},
                     "choices": {"yellow": list(choices)}, "next_to": {}, "before": []}}


def tappable(board, shown) -> set[int]:
    """The crossings one tap away; checks that every target is a thumb (TAP px wide
    at PHONE_WIDTH), none over another, all inside the frame, each with its crossing."""
    frame = police_map(board, shown, {"cop": "yellow"})
    left, top, width, height = map(float, frame["viewbox"].split())
    scale = PHONE_WIDTH / width
    assert 2 * frame["radius"] * scale >= TAP
    centres = [(t["cx"], t["cy"]) for t in frame["targets"]]
    for i, a in enumerate(centres):
        for b in centres[i + 1:]:
            assert math.dist(a, b) * scale >= TAP - 0.1  # the frame's rounding
    for t in frame["targets"]:
        assert (t["x"], t["y"]) == board.crossing_positions[t["id"]]
        r = frame["radius"] - 0.5  # the frame's rounding
        assert left <= t["cx"] - r and t["cx"] + r <= left + width
        assert top <= t["cy"] - r and t["cy"] + r <= top + height
        # Pushed aside at most a target and a half: still next to its crossing.
        assert math.dist((t["x"], t["y"]), (t["cx"], t["cy"])) * scale <= 1.5 * TAP
    return {t["id"] for t in frame["targets"]}


@pytest.mark.slow
def test_every_move_of_every_policeman_is_one_tap_with_thumb_sized_targets(real):
    for start in sorted(real.crossing_ids):
        choices = sorted(real.police_moves(start))
        assert tappable(real, view(choices)) == set(choices), start


def test_the_densest_moves_are_one_tap(real):
    """The start with the most crossings in reach, and the one whose reach holds the
    board's two closest crossings: the quick set's sample of the slow test above."""
    at = real.crossing_positions
    densest = max(sorted(real.crossing_ids), key=lambda x: len(real.police_moves(x)))
    closest = min(sorted(real.crossing_ids), key=lambda x: min(
        (math.dist(at[a], at[b]) for a in real.police_moves(x) for b in real.police_moves(x)
         if a < b), default=math.inf))
    for start in (densest, closest):
        choices = sorted(real.police_moves(start))
        assert tappable(real, view(choices)) == set(choices), start


def test_the_alarm_on_the_whole_board(real):
    starts = sorted(real.police_starts)
    assert tappable(real, view(starts, at={"yellow": None}, phase="alarm")) == set(starts)
    # Night 2: last night's crossings too, some of them next to each other.
    crowded = sorted(real.police_starts | set(sorted(real.police_moves(44))[:5]))
    assert tappable(real, view(crowded, at={"yellow": None}, phase="alarm")) == set(crowded)


def test_nothing_to_tap_without_a_move_and_hostile_queries_change_nothing(real):
    shown = view([109], movable=())
    frame = police_map(real, shown, {"cop": "yellow", "to": "109"})
    assert frame["targets"] == [] and frame["to"] is None and frame["movable"] == []
    frame = police_map(real, view([107, 109]), {"cop": "1e308,-5,x", "to": "99999999"})
    assert frame["to"] is None and frame["picked"] == "yellow"
    assert police_map(real, {"cops": None}) is None
