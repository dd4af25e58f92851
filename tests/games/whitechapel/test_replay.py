"""Letters from Whitechapel, a night replayed (companion/games/whitechapel/replay.py): which
nights may be replayed, a frame per movement of Jack, each frame the table's own view of
its step before the end, and Jack's real path up to the step only after it."""

from __future__ import annotations

import random

import pytest

from companion.games.base import TABLE, RuleError
from companion.games.whitechapel import rules as wc
from companion.games.whitechapel import state as wc_state
from tests.support.boardfiles import real_board
from tests.support.whitechapel_play import board_game
from tests.support.whitechapel_walks import board_walk

SEEDS = (3, 11, 42, 1888)


def walked(seed: int, steps: int = 500) -> list[dict]:
    """One game on the real board walked at random (Jack steered home), every state."""
    board = real_board()
    r = random.Random(seed)
    states = [board_game(board, 3)]
    for _ in range(steps):
        if wc.is_over(states[-1]):
            break
        actor, action = board_walk(board, states[-1], r)
        try:
            states.append(wc.apply(states[-1], actor, action, random.Random(0)))
        except RuleError:
            continue
    return states


@pytest.fixture(scope="module", params=SEEDS)
def game(request) -> list[dict]:
    return walked(request.param)


def public(frame_view: dict) -> dict:
    """A frame's view without what only a replay adds."""
    return {key: value for key, value in frame_view.items() if key != "replay"}


def test_only_nights_that_ended_are_replayed(game):
    for end in range(1, len(game) + 1):
        states = game[:end]
        last = states[-1]
        numbers = [n["number"] for n in wc.replay_nights(states)]
        ended = last["night"] if wc.is_over(last) else last["night"] - 1
        assert numbers == list(range(1, ended + 1))
        with pytest.raises(RuleError):
            wc.replay_frames(states, ended + 1)
    assert wc.replay_nights([]) == []


def test_before_the_end_a_frame_is_the_table_screen_of_its_step(game):
    """Every frame of a running game is the TABLE view of one state the game went through
    (its reveal none, no path): the replay shows nothing the table did not."""
    for end in range(2, len(game) + 1):
        states = game[:end]
        if wc.is_over(states[-1]) or states[-1]["night"] != states[-2]["night"]:
            views = [wc.view(s, TABLE) for s in states]
            for night in wc.replay_nights(states):
                frames = wc.replay_frames(states, night["number"])
                for step, frame in enumerate(frames):
                    if wc.is_over(states[-1]):
                        continue
                    assert frame["view"]["replay"] is None
                    assert public(frame["view"]) in views
                    assert frame["step"] == step and frame["known"]["moves"] == step


def test_a_frame_per_movement_and_the_path_after_the_end(game):
    last = game[-1]
    if not wc.is_over(last):
        pytest.skip("this walk did not end")
    for night in wc.replay_nights(game):
        number = night["number"]
        moves = last["nights"][number - 1]["moves"]
        frames = wc.replay_frames(game, number)
        assert len(frames) == len(moves) + 1
        assert frames[-1]["known"]["ended"] and not any(f["known"]["ended"] for f in frames[:-1])
        for step, frame in enumerate(frames):
            path = frame["view"]["replay"]
            assert path["hideout"] == last["hideout"]
            assert path["nights"][0]["moves"] == moves[:step]
            assert frame["view"]["reveal"] is None  # not every night's whole path
            assert frame["view"]["options"]["deduction_map"]
            # The step's own table: Jack's movements as many as the step says.
            assert frame["known"]["square"] >= step + 1


def test_the_escape_is_the_nights_last_step_and_the_square_is_public(game):
    for night in wc.replay_nights(game):
        record = game[-1]["nights"][night["number"] - 1]
        last = wc.replay_frames(game, night["number"])[-1]
        assert last["known"]["square"] == wc_state._filled(record)
        assert last["known"]["crimes"] == sorted(record["crimes"])
        if record["escaped"] and not wc.is_over(game[-1]):
            assert last["view"]["night"] == night["number"] + 1  # the next night's table


def test_captions_name_the_kind_of_movement_never_the_circle():
    states = walked(42)
    for night in wc.replay_nights(states):
        record = states[-1]["nights"][night["number"] - 1]
        frames = wc.replay_frames(states, night["number"])
        assert frames[0]["caption"].startswith("The crime on ")
        for step, frame in enumerate(frames[1:], start=1):
            move = record["moves"][step - 1]
            assert f"movement {step} of {len(record['moves'])}" in frame["caption"]
            assert all(str(c) not in frame["caption"].split("(")[1] for c in move["circles"])


def test_a_table_ended_replays_the_night_it_stopped_in_with_the_path(game):
    """docs/RULINGS.md#letters-from-whitechapel, "A table ended during a game": at any
    moment the host may end the table; then every night with its crime replays, the one
    play stopped in up to Jack's last movement (its last step where play stopped, not the
    night's end), every step with Jack's path and hideout."""
    for end in range(1, len(game) + 1, 7):
        states = game[:end]
        last = states[-1]
        numbers = [n["number"] for n in wc.replay_nights(states, table_ended=True)]
        assert numbers == [n for n in range(1, last["night"] + 1)
                           if last["nights"][n - 1]["crimes"]]
        for number in numbers:
            moves = last["nights"][number - 1]["moves"]
            frames = wc.replay_frames(states, number, table_ended=True)
            assert len(frames) == len(moves) + 1
            stopped = number == last["night"] and not wc.is_over(last)
            assert [f["known"]["stopped"] for f in frames] == [False] * len(moves) + [stopped]
            if stopped and moves:
                assert "the night's end" not in frames[-1]["caption"]
            for step, frame in enumerate(frames):
                assert frame["view"]["replay"]["hideout"] == last["hideout"]
                assert frame["view"]["replay"]["nights"][0]["moves"] == moves[:step]
        # The same states while the table plays on: the night in progress stays closed.
        if not wc.is_over(last) and last["nights"][last["night"] - 1]["crimes"]:
            assert last["night"] not in [n["number"] for n in wc.replay_nights(states)]
            with pytest.raises(RuleError):
                wc.replay_frames(states, last["night"])
