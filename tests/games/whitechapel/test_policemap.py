"""The police map's zoom: from every crossing of the shipped board, every crossing a
policeman may go to is reachable in a few taps, and every tap target (region or
crossing) is at least 44 CSS px on a 360 px phone; the map shows only the view."""

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


def reachable(board, shown, depth=0, area=None) -> set[int]:
    """Every crossing reachable by tapping regions; checks each frame's targets."""
    query = {"cop": "yellow", **({"area": area} if area else {})}
    frame = police_map(board, shown, query)
    width = float(frame["viewbox"].split()[2])
    scale = PHONE_WIDTH / width
    assert depth <= 3, "more than three taps to reach a crossing"
    if frame["targets"]:
        points = [(t["x"], t["y"]) for t in frame["targets"]]
        for i, a in enumerate(points):
            for b in points[i + 1:]:
                assert math.dist(a, b) * scale >= TAP - 0.1  # the frame's rounding
        assert 2 * frame["radius"] * scale >= TAP
        return {t["id"] for t in frame["targets"]}
    found: set[int] = set()
    for region in frame["regions"]:
        assert region["size"] * scale >= TAP
        found |= reachable(board, shown, depth + 1, region["area"])
    return found


@pytest.mark.slow
def test_every_move_of_every_policeman_is_reachable_with_thumb_sized_targets(real):
    for start in sorted(real.crossing_ids):
        choices = sorted(real.police_moves(start))
        assert reachable(real, view(choices)) == set(choices), start


def test_the_alarm_on_the_whole_board(real):
    starts = sorted(real.police_starts)
    assert reachable(real, view(starts, at={"yellow": None}, phase="alarm")) == set(starts)


def test_nothing_to_tap_without_a_move_and_hostile_queries_change_nothing(real):
    shown = view([109], movable=())
    frame = police_map(real, shown, {"cop": "yellow", "area": "nan,1,2,3", "to": "109"})
    assert frame["targets"] == [] and frame["to"] is None and frame["movable"] == []
    frame = police_map(real, view([107, 109]), {"area": "1e308,-5,x", "to": "99999999"})
    assert frame["to"] is None and frame["picked"] == "yellow"
    assert police_map(real, {"cops": None}) is None
