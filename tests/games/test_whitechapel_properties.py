"""Letters from Whitechapel: random legal games keep the sheet legal, searches
answer from the row, garbage only ever raises RuleError, and the hideout never
shows on a public view."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from companion.games import whitechapel as wc
from companion.games.base import TABLE, RuleError
from tests.games.contract import try_apply

JACK = 0
CIRCLES = range(wc.FIRST_CIRCLE, wc.LAST_CIRCLE + 1)
FAST = settings(max_examples=12, deadline=None,
                suppress_health_check=[HealthCheck.too_slow])


def new_game(seed: int, players: int, false_clues: bool, letters: bool) -> dict:
    form = {"false_clues": "on" if false_clues else "", "letters": "on" if letters else ""}
    return wc.setup(wc.parse_options(form, players), [f"P{n}" for n in range(players)],
                    random.Random(seed))


def scenes(state: dict) -> set[int]:
    return {c for night in state["nights"] for c in night["crimes"]}


def current(state: dict) -> dict:
    return state["nights"][state["night"] - 1]


def random_action(state: dict, r: random.Random) -> tuple[object, dict[str, str]]:
    """Some legal-looking action for whoever may act now."""
    phase = state["phase"]
    night = current(state)
    head = state["policemen"][state["head_tiles"][state["night"] - 1]]
    if phase == "hideout":
        return JACK, {"type": "hideout", "circle": str(r.choice(CIRCLES))}
    if phase == "women":
        marked = wc.NIGHTS[state["night"]]["marked"]
        free = [c for c in CIRCLES if c not in scenes(state)]
        return JACK, {"type": "women",
                      "circles": " ".join(map(str, r.sample(free, marked)))}
    if phase == "patrols":
        return r.choice([head, TABLE]), {"type": "patrols_placed"}
    if phase == "suspense":
        return r.choice([head, TABLE]), {"type": "wretched_moved"}
    if phase == "letter":
        left = wc.view(state, JACK)["jack"]["letters_left"]
        if r.random() < 0.5:
            return JACK, {"type": "letter", "letter": r.choice(left)}
        return JACK, {"type": "no_letter"}
    if phase == "blood":
        if night["time"] < 5 and r.random() < 0.4:
            return JACK, {"type": "wait"}
        pool = night["women"] if night["time"] == 1 else \
            [c for c in CIRCLES if c not in scenes(state)]
        victims = r.sample(pool, 2 if state["night"] == wc.DOUBLE_EVENT else 1)
        fields = {"type": "kill", "circle": str(victims[0])}
        if len(victims) == 2:
            fields["circle2"] = str(victims[1])
        return JACK, fields
    if phase == "jack":
        return jack_action(state, r)
    if phase == "police":
        return police_action(state, r)
    raise AssertionError(phase)


def jack_action(state: dict, r: random.Random) -> tuple[object, dict[str, str]]:
    available = wc.actions(state, JACK)
    if state["trapped_claim"]:
        return JACK, {"type": r.choice(["deny_trapped", "deny_trapped", "confirm_trapped"])}
    if r.random() < 0.02:
        return r.randrange(1, len(state["players"])), {"type": "no_legal_move"}
    here = wc.view(state, JACK)["jack"]["location"]
    others = [c for c in CIRCLES if c != here]
    if "escape" in available and r.random() < 0.15:
        return JACK, {"type": "escape"}
    if state["hideout"] != here and r.random() < 0.1:
        return JACK, {"type": "move", "circle": str(state["hideout"])}
    kind = r.choice([k for k in ("move", "move", "move", "coach", "alley") if k in available])
    picked = r.sample(others, 2)
    fields = {"type": kind, "circle": str(picked[0])}
    if kind == "coach":
        fields["circle2"] = str(picked[1])
    return JACK, fields


def police_action(state: dict, r: random.Random) -> tuple[object, dict[str, str]]:
    if "false_clue" in wc.actions(state, JACK) and r.random() < 0.5:
        clued = {c["circle"] for c in current(state)["clues"]}
        return JACK, {"type": "false_clue",
                      "circle": str(r.choice([c for c in CIRCLES if c not in clued]))}
    if r.random() < 0.1:
        return TABLE, {"type": "end_turn"}
    todo = wc.view(state, TABLE)["police_order"]
    todo = [c for c in todo if c not in state["police"]["done"]]
    colour = r.choice(todo)
    actor = r.choice([TABLE, state["policemen"][colour]])
    path = wc.view(state, JACK)["sheet"]["nights"][state["night"] - 1]
    on_row = [sq["circle"] for sq in path["row"] if sq["circle"]]
    clued = {c["circle"] for c in current(state)["clues"]}
    searched = set(state["police"]["searched"]) if state["police"]["searching"] == colour \
        else set()
    roll = r.random()
    if roll < 0.05:
        return actor, {"type": "arrest", "policeman": colour,
                       "circle": str(r.choice(on_row[-1:] + [r.choice(CIRCLES)]))}
    if roll < 0.15:
        return actor, {"type": "done", "policeman": colour}
    candidates = [c for c in on_row + [r.choice(CIRCLES)] if c not in clued | searched]
    if not candidates:
        return actor, {"type": "done", "policeman": colour}
    return actor, {"type": "search", "policeman": colour,
                   "circle": str(r.choice(candidates))}


def check_invariants(state: dict) -> None:
    total = 0
    for night in state["nights"]:
        rules = wc.NIGHTS[night["number"]]
        kinds = [m["kind"] for m in night["moves"]]
        assert kinds.count("coach") <= rules["coaches"]
        assert kinds.count("alley") <= rules["alleys"]
        filled = wc._filled(night)
        assert filled <= wc.LAST_SQUARE
        assert 1 <= night["time"] <= 5
        if night["crimes"]:
            total += len(night["crimes"])
            assert len(night["crimes"]) == (2 if night["number"] == wc.DOUBLE_EVENT else 1)
        if night["escaped"]:
            assert night["moves"][-1] == {"kind": "move", "circles": [state["hideout"]]}
        for move in night["moves"]:
            if move["kind"] == "coach":
                assert len(set(move["circles"])) == 2
        path = wc._path(night)
        prefix_len = len(night["crimes"])
        for clue in night["clues"]:
            if not clue["false"]:
                visited = path[:prefix_len + sum(
                    len(m["circles"]) for m in night["moves"][:clue["after_move"]])]
                assert clue["circle"] in visited
        for entry in night["log"]:
            visited = path[:prefix_len + sum(
                len(m["circles"]) for m in night["moves"][:entry["after_move"]])]
            if entry["action"] == "search":
                assert entry["found"] == (entry["circle"] in visited)
            else:
                assert entry["found"] == (entry["circle"] == visited[-1])
        real = sum(1 for c in night["clues"] if not c["false"])
        assert sum(1 for c in night["clues"] if c["false"]) <= real // 5
    assert len(scenes(state)) == total
    for viewer in (JACK, TABLE, *range(1, len(state["players"]))):
        json.dumps(wc.view(state, viewer))
        json.dumps(wc.actions(state, viewer))


def play(seed: int, players: int, false_clues: bool, letters: bool, steps: int = 400,
         check: bool = True) -> tuple[dict, list]:
    r = random.Random(seed)
    state = new_game(seed, players, false_clues, letters)
    history = []
    for _ in range(steps):
        if wc.is_over(state):
            break
        actor, action = random_action(state, r)
        after = try_apply(wc, state, actor, action, random.Random(0))
        if after is None:
            continue
        history.append((actor, action))
        state = after
        if check:
            check_invariants(state)
    return state, history


@FAST
@given(seed=st.integers(0, 10**6), players=st.integers(2, 6),
       false_clues=st.booleans(), letters=st.booleans())
def test_random_legal_games_stay_legal(seed, players, false_clues, letters):
    state, history = play(seed, players, false_clues, letters)
    assert history
    if wc.is_over(state):
        view = wc.view(state, TABLE)
        assert view["outcome"]["winner"] in ("jack", "detectives")
        assert view["reveal"]["hideout"] == state["hideout"]


@FAST
@given(players=st.integers(2, 6), seed=st.integers(0, 10**6))
def test_deals_and_tiles(players, seed):
    state = new_game(seed, players, False, False)
    assert sorted(state["head_tiles"]) == sorted(wc.POLICEMEN)
    assert set(state["policemen"].values()) == set(range(1, players))
    assert wc.seat_labels(players, wc.default_options())[0] == "Jack the Ripper"


FIELD_VALUES = st.one_of(
    st.text(max_size=12), st.sampled_from(["", "0", "1", "90", "195", "196", "-5", "1e3",
                                           "  7 ", "blue", "red", "99999999999999999999"]),
    st.integers(-10**30, 10**30).map(str))
ACTION_TYPES = st.one_of(st.sampled_from(sorted(wc.HANDLERS)), st.text(max_size=8))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 120),
       actor=st.one_of(st.integers(-3, 8), st.just(TABLE), st.text(max_size=4)),
       kind=ACTION_TYPES,
       fields=st.dictionaries(st.sampled_from(["circle", "circle2", "circles", "policeman",
                                               "letter", "escape", "x"]), FIELD_VALUES))
def test_garbage_only_raises_rule_error(seed, steps, actor, kind, fields):
    state, _ = play(seed, 4, True, True, steps=steps, check=False)
    action = dict(fields, type=kind)
    after = try_apply(wc, state, actor, action, random.Random(0))
    if after is not None:
        check_invariants(after)


def replay(state: dict, history: list, hideout: int) -> dict:
    for actor, action in history:
        if action["type"] == "hideout":
            action = dict(action, circle=str(hideout))
        state = wc.apply(state, actor, action, random.Random(0))
    return state


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), other=st.integers(1, 195))
def test_the_hideout_never_shows_before_the_end(seed, other):
    played, history = play(seed, 3, False, False, steps=150, check=False)
    if wc.is_over(played):
        history = history[:-1]  # the moment before the end, when it is still secret
    first = replay(new_game(seed, 3, False, False), history, played["hideout"])
    assume(other != first["hideout"])
    try:
        second = replay(new_game(seed, 3, False, False), history, other)
    except RuleError:
        assume(False)  # Jack's moves in the first game ran into the second hideout
    assert not wc.is_over(first) and not wc.is_over(second)
    for viewer in (TABLE, 1, 2):
        assert wc.view(first, viewer) == wc.view(second, viewer)
        assert wc.actions(first, viewer) == wc.actions(second, viewer)


# --- the public facts against the board's deduction ----------------------------------

def shortest_step(board, start: int, goal: int) -> int | None:
    """The first circle on a shortest road path from ``start`` to ``goal``."""
    first: dict[int, int] = {n: n for n in board.neighbours(start)}
    frontier = sorted(first)
    while frontier and goal not in first:
        reached = []
        for here in frontier:
            for n in sorted(board.neighbours(here)):
                if n not in first and n != start:
                    first[n] = first[here]
                    reached.append(n)
        frontier = reached
    return first.get(goal)


def board_walk(board, state: dict, r: random.Random) -> tuple[object, dict[str, str]]:
    """A legal action on the real board, steering Jack home half of the time."""
    phase = state["phase"]
    night = current(state)
    if phase == "hideout":
        return JACK, {"type": "hideout", "circle": str(r.choice(
            [n for n in board.numbers if board.is_legal_hideout(n)]))}
    if phase == "women":
        free = sorted(board.red - scenes(state))
        marked = wc.NIGHTS[state["night"]]["marked"]
        return JACK, {"type": "women", "circles": " ".join(map(str, r.sample(free, marked)))}
    if phase == "blood":
        victims = r.sample(night["women"], 2 if state["night"] == wc.DOUBLE_EVENT else 1)
        return JACK, {"type": "kill", "circle": str(victims[0]),
                      "circle2": str(victims[-1])}
    if phase == "jack":
        here = wc._location(night)
        home = state["hideout"]
        step = shortest_step(board, here, home)
        if step == home and r.random() < 0.8:
            return JACK, {"type": "escape"}
        options = [("move", (n,)) for n in board.normal_moves(here)]
        if "coach" in wc.actions(state, JACK):
            options += [("coach", route) for route in board.coach_routes(here)]
        if "alley" in wc.actions(state, JACK):
            options += [("alley", (n,)) for n in board.alley_moves(here)]
        kind, route = ("move", (step,)) if step and r.random() < 0.5 else \
            r.choice(sorted(options))
        fields = {"type": kind, "circle": str(route[0])}
        if kind == "coach":
            fields["circle2"] = str(route[1])
        return JACK, fields
    if phase == "police":
        todo = [c for c in wc.POLICEMEN if c not in state["police"]["done"]]
        if not todo or r.random() < 0.2:
            return TABLE, {"type": "end_turn"}
        near = sorted({n for c in wc._path(night) for n in board.neighbours(c)}
                      - {c["circle"] for c in night["clues"]}
                      - set(state["police"]["searched"]))
        here = wc._location(night)
        if not near:  # every circle around the path is searched or marked already
            return TABLE, {"type": "end_turn"}
        if r.random() < 0.1:
            return TABLE, {"type": "arrest", "policeman": todo[0],
                           "circle": str(r.choice(sorted(board.neighbours(here))))}
        if "false_clue" in wc.actions(state, JACK) and r.random() < 0.5:
            return JACK, {"type": "false_clue", "circle": str(r.choice(near))}
        colour = state["police"]["searching"] or todo[0]
        return TABLE, {"type": "search", "policeman": colour, "circle": str(r.choice(near))}
    return random_action(state, r)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), false_clues=st.booleans())
def test_deduction_from_public_facts_always_holds_jack(seed, false_clues):
    from companion import deduction
    from tests.boardfiles import real_board

    board = real_board()
    r = random.Random(seed)
    state = new_game(seed, 3, false_clues, False)
    for _ in range(300):
        if wc.is_over(state):
            break
        actor, action = board_walk(board, state, r)
        try:
            state = wc.apply(state, actor, action, random.Random(0))
        except RuleError:
            continue
        facts = wc.view(state, TABLE)["public_facts"]
        night = current(state)
        if state["phase"] in ("jack", "police") and night["crimes"]:
            assert wc._location(night) in deduction.possible_positions(board, facts)
        if facts["escapes"]:
            assert state["hideout"] in deduction.candidate_hideouts(board, facts)
