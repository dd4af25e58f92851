"""Properties of the deduction map over random legal nights, on both boards.

Hypothesis plays Jack: a crime (or the double event's two), random legal
movements within the night's Coach and Alley tokens, policemen blocking
roads he does not take, and after each movement detectives searching and
arresting near his trail, answered truthfully from his row. From the public
facts alone, the map must always hold his true circle (sound), never widen
when a fact arrives, and on the tiny board equal the set of every path's end
(exact). Over several nights ending on one hideout, the hideout stays a
candidate.
"""

from __future__ import annotations

from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.whitechapel import deduction
from companion.games.whitechapel.board import Board, link
from companion.games.whitechapel.deduction import candidate_hideouts, possible_positions
from tests.support import deduction_oracle
from tests.support.boardfiles import real_board, shortest_road, tiny_board

pytestmark = pytest.mark.slow  # a long campaign: the full suite runs it

TOKENS = {"coach": 3, "alley": 2}  # the first night's allowance, the largest
SEARCH_FACTS = ("clues", "searched_empty", "failed_arrests")


@pytest.fixture(scope="module", params=["tiny", "real"])
def board(request) -> Board:
    """Each property runs on the tiny test board and on the real board."""
    return tiny_board() if request.param == "tiny" else real_board()





class Night:
    """One night as Jack plays it: the truth, and the public facts it yields."""

    def __init__(self, scenes: list[int]) -> None:
        self.row = list(scenes)
        self.positions = [scenes[-1]]
        self.used_roads: set[tuple[int, int]] = set()
        self.tokens = dict(TOKENS)
        self.facts: dict = {"crime_scenes": sorted(scenes), "moves": [], "clues": [],
                            "searched_empty": [], "failed_arrests": [], "blocked": []}

    @property
    def position(self) -> int:
        return self.positions[-1]

    def move(self, kind: str, route: list[int]) -> None:
        if kind == "move":
            self.used_roads.add(link(self.position, route[0]))
        else:
            self.tokens[kind] -= 1
        self.facts["moves"].append(kind)
        self.row += route
        self.positions.append(route[-1])

    def investigate(self, draw, board: Board) -> None:
        """Policemen look for clues and arrest near Jack's trail; Jack answers truly."""
        near = set(self.row[-4:])
        for circle in self.row[-4:]:
            near |= board.neighbours(circle)
        step = len(self.facts["moves"])
        clues = {c["circle"] for c in self.facts["clues"]}
        for action, circle in draw(st.lists(st.tuples(
                st.sampled_from(["search", "arrest"]), st.sampled_from(sorted(near))),
                max_size=4)):
            if action == "arrest":
                if circle != self.position:
                    self.facts["failed_arrests"].append({"circle": circle, "after_move": step})
            elif circle in self.row:
                if circle not in clues:
                    clues.add(circle)
                    self.facts["clues"].append({"circle": circle, "after_move": step})
            else:
                self.facts["searched_empty"].append({"circle": circle, "after_move": step})

    def random_movement(self, draw, board: Board) -> None:
        here = self.position
        kinds = ["move"]
        if self.tokens["coach"] and board.coach_routes(here):
            kinds.append("coach")
        if self.tokens["alley"] and board.alley_moves(here):
            kinds.append("alley")
        kind = draw(st.sampled_from(kinds))
        if kind == "coach":
            self.move(kind, list(draw(st.sampled_from(sorted(board.coach_routes(here))))))
        elif kind == "alley":
            self.move(kind, [draw(st.sampled_from(sorted(board.alley_moves(here))))])
        else:
            roads = sorted(board.neighbours(here))
            end = draw(st.sampled_from(roads))
            closed = [n for n in roads if n != end]
            if closed:
                step = len(self.facts["moves"]) + 1
                for other in draw(st.lists(st.sampled_from(closed), max_size=2, unique=True)):
                    self.facts["blocked"].append([here, other, step])
            self.move(kind, [end])

    def block_unused_roads(self, draw, board: Board) -> None:
        """Policemen who held a road all night that Jack never walked."""
        unused = sorted(board.roads - self.used_roads)
        for a, b in draw(st.lists(st.sampled_from(unused[:60]), max_size=2, unique=True)):
            self.facts["blocked"].append([a, b])

    def facts_after(self, step: int) -> dict:
        """The public facts as they stood after ``step`` movements."""
        facts = {key: value for key, value in self.facts.items()}
        facts["moves"] = self.facts["moves"][:step]
        for key in SEARCH_FACTS:
            facts[key] = [e for e in self.facts[key] if e["after_move"] <= step]
        facts["blocked"] = [b for b in self.facts["blocked"] if len(b) == 2 or b[2] <= step]
        return facts


@st.composite
def nights(draw, board: Board, max_moves: int = 12, hideout: int | None = None,
           taken: frozenset[int] = frozenset()) -> Night:
    """A random legal night; with ``hideout``, one that ends there by a normal move."""
    free = [n for n in board.numbers if n not in taken]
    scenes = draw(st.lists(st.sampled_from(free), min_size=1, max_size=2, unique=True))
    night = Night(scenes)
    if len(scenes) == 2:  # the double event: the detectives act first
        night.investigate(draw, board)
    for _ in range(draw(st.integers(0, max_moves))):
        night.random_movement(draw, board)
        night.investigate(draw, board)
    if hideout is not None:
        if night.position == hideout:
            night.move("move", [min(board.neighbours(hideout))])
        for circle in shortest_road(board, night.position, hideout):
            night.move("move", [circle])
            night.investigate(draw, board)
    night.block_unused_roads(draw, board)
    return night


QUICK = settings(max_examples=60, deadline=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@QUICK
@given(data=st.data())
def test_jack_is_always_on_the_map(board, data):
    night = data.draw(nights(board))
    for step, position in enumerate(night.positions):
        assert position in possible_positions(board, night.facts_after(step))


@QUICK
@given(data=st.data(), rng=st.randoms(use_true_random=False))
def test_the_map_never_widens_when_a_fact_arrives(board, data, rng):
    night = data.draw(nights(board))
    arrivals = [(key, entry) for key in SEARCH_FACTS for entry in night.facts[key]]
    arrivals += [("blocked", entry) for entry in night.facts["blocked"]]
    rng.shuffle(arrivals)
    facts = {**night.facts, **{key: [] for key in (*SEARCH_FACTS, "blocked")}}
    shown = possible_positions(board, facts)
    for key, entry in arrivals:
        facts[key] = facts[key] + [entry]
        narrower = possible_positions(board, facts)
        assert narrower <= shown
        shown = narrower
    assert night.position in shown


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_map_is_exactly_where_some_legal_night_ends(tiny, data):
    night = data.draw(nights(tiny, max_moves=6))
    assert possible_positions(tiny, night.facts) == deduction_oracle.positions(
        tiny, night.facts)


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_the_hideout_stays_a_candidate_and_escapes_narrow_them(board, data):
    hideout = data.draw(st.sampled_from(sorted(set(board.numbers) - board.red)))
    played: list[Night] = []
    taken: frozenset[int] = frozenset()
    for _ in range(data.draw(st.integers(1, 3))):
        night = data.draw(nights(board, max_moves=5, hideout=hideout, taken=taken))
        assert night.position == hideout and night.facts["moves"][-1] == "move"
        played.append(night)
        taken |= set(night.facts["crime_scenes"])
    candidates = candidate_hideouts(board, {"night": len(played), "escapes": [],
                                            **played[-1].facts})
    assert candidates == set(board.numbers) - board.red
    for escaped in range(1, len(played) + 1):
        facts = {"night": len(played), **played[-1].facts,
                 "prior_nights": [n.facts for n in played[:-1]],
                 "escapes": list(range(1, escaped + 1))}
        narrower = candidate_hideouts(board, facts)
        assert hideout in narrower
        assert narrower <= candidates
        candidates = narrower


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data(), limit=st.integers(1, 40))
def test_a_loosened_search_still_holds_jack(board, data, limit):
    """Past the state limit the search forgets clues: never Jack, never a tighter map."""
    night = data.draw(nights(board))
    exact = possible_positions(board, night.facts)
    with mock.patch.object(deduction, "STATE_LIMIT", limit):
        loose = possible_positions(board, night.facts)
    assert exact <= loose and night.position in loose
