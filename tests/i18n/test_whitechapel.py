"""Letters from Whitechapel in every language: every word its pages show went through a
catalogue (drawn in the pseudo language, nothing is left outside ⟦…⟧), and a real page
in German and in French reads German and French."""

from __future__ import annotations

import random

import pytest
from flask import render_template

from companion.games.base import TABLE, RuleError
from companion.games.whitechapel import rules as wc
from companion.games.whitechapel.replay import replay_frames, replay_nights
from companion.web.i18n import LANGUAGES
from companion.words import from_data
from tests.games.whitechapel.test_police_map import _random_turn, placed, to_alarm
from tests.support.boardfiles import real_board
from tests.support.noninterference import assert_indistinguishable, render_component
from tests.support.pseudo import pseudo_language, unmarked
from tests.support.whitechapel_play import board_game
from tests.support.whitechapel_walks import board_walk, new_game, random_action
from tests.web.test_whitechapel_board import (
    NOT_JACK,
    board_state,
    make_app,
    move_then_coach,
    to_hunting,
)
from tests.web.test_whitechapel_replay import homes, night_one, real_app  # noqa: F401

JACK = 0

# Words of the shared pages (templates/_macros.html: the keypad's "Delete", its "OK")
# are the platform's to mark; they are not this game's. "Br": the brown pawn's letter
# on the police map, a sign like the others (B, Y, R, G) rather than a word.
SHARED = ["Delete", "Br"]


def allowed(state: dict) -> list[str]:
    """What a page of ``state`` shows untranslated by design: the players' names, the
    board's name (a file's). Jack's letters keep the names the table typed; the default
    names are translated, and these games keep them."""
    board = (state.get("board") or {}).get("board")
    return [*state["players"], *([board] if board else []),
            "TEST", *wc.ROMAN, *SHARED]


def walk(state: dict, step, rng: random.Random, limit: int) -> list[dict]:
    """The states of a random game, one per action taken."""
    seen = [state]
    for _turn in range(limit):
        if wc.is_over(state):
            break
        actor, action = step(state, rng)
        try:
            state = wc.apply(state, actor, action, rng)
        except RuleError:
            continue
        seen.append(state)
    return seen


def police_walk(seed: int) -> list[dict]:
    board = real_board()
    rng = random.Random(seed)
    state = to_alarm(board, 65)
    seen = [state]
    for colour, crossing in {"blue": 44, "yellow": 107}.items():
        state = wc.apply(state, state["policemen"][colour],
                         {"type": "place", "policeman": colour, "crossing": str(crossing)},
                         rng)
        seen.append(state)
    state = placed(seen[0])
    seen.append(state)
    for _turn in range(40):
        if wc.is_over(state):
            break
        try:
            state = _random_turn(state, board, rng)
        except RuleError:
            break
        seen.append(state)
    return seen


def every_phase(states: list[dict]) -> list[dict]:
    """A few states of each phase and night: the pages differ by phase far more than by
    anything else."""
    kept: dict[tuple, int] = {}
    chosen = []
    for state in states:
        key = (state["phase"], state["night"], state["trapped_claim"])
        if kept.get(key, 0) < 2:
            kept[key] = kept.get(key, 0) + 1
            chosen.append(state)
    return chosen


def numbers_games() -> list[dict]:
    found = []
    for seed in (1, 2, 3):
        found += walk(new_game(seed, 4 + seed % 3, True, True), random_action,
                      random.Random(seed), 400)
    return every_phase(found)


def board_games() -> list[dict]:
    board = real_board()
    found = []
    for seed in (4,):
        found += walk(board_game(board, 3, deduction_map="on", false_clues="on",
                                 letters="on"),
                      lambda s, r: board_walk(board, s, r), random.Random(seed), 400)
    return every_phase(found)


def viewers(state: dict) -> list:
    return [TABLE, *range(len(state["players"]))]


def left_unmarked(app, states: list[dict], queries=("",)) -> list[tuple]:
    found = []
    with pseudo_language():
        for state in states:
            for viewer in viewers(state):
                for query in queries:
                    html = render_component(app, wc, state, viewer, query=query)
                    for text in unmarked(html, allowed(state)):
                        found.append((state["phase"], viewer, query, text))
    return sorted(set(found), key=repr)


@pytest.mark.slow  # every phase, viewer and pick drawn: a campaign
def test_every_page_of_a_numbers_only_game_is_marked(app):
    assert left_unmarked(app, numbers_games()) == []


@pytest.mark.slow  # every phase, viewer and pick drawn: a campaign
def test_every_page_of_a_board_game_is_marked(app):
    states = board_games()
    queries = ("", "?to=65", "?first=65", "?women=3.21")
    assert left_unmarked(app, states, queries) == []


@pytest.mark.slow  # every phase, viewer and pick drawn: a campaign
def test_every_page_with_police_on_the_map_is_marked(app):
    states = every_phase(police_walk(8) + police_walk(9))
    queries = ("", "?cop=blue", "?cop=blue&to=44", "?speak=blue&arrest=blue")
    assert left_unmarked(app, states, queries) == []


@pytest.mark.parametrize("shipped", [True, False])
def test_the_setup_form_is_marked(tmp_path, shipped):
    """The options of a new table, with the shipped board loaded and with no board."""
    app = make_app(tmp_path, shipped=shipped)
    form = wc.form_from({**wc.default_options(), "police_map": True, "false_clues": True})
    with pseudo_language(), app.test_request_context("/new/whitechapel"):
        html = render_template("games/whitechapel/_options.html", game=wc, form=form)
    assert unmarked(html, [*wc.DEFAULT_LETTERS, "Letters from Whitechapel", "PATH",
                           "instance/boards/", "docs/boards.md"]) == []
    assert "⟦Policemen⟧" in html and "⟦Optional rules⟧" in html


def test_the_replay_is_marked(real_app):  # noqa: F811
    start, hideout = homes()[0]
    laptop, phones = night_one(real_app, start, hideout, 1)
    with pseudo_language():
        for device in (laptop, phones[1]):
            for query in ("", "?step=1", "?follow=1"):
                page = device.get(f"/t/{laptop.code}/replay{query}").text
                assert unmarked(page, ["Jack", "Ann", "Bob", laptop.code, "Companion",
                                       *LANGUAGES.values(), *SHARED]) == [], query
            page = device.get(f"/t/{laptop.code}/replay?night=9").text
            assert "⟦Night 9 cannot be replayed" in page


def test_the_replay_frames_and_nights_are_texts():
    states = walk(new_game(3, 3, False, False), random_action, random.Random(3), 300)
    nights = replay_nights(states)
    assert nights and all(hasattr(n["label"], "msgid") for n in nights)
    frames = replay_frames(states, nights[0]["number"])
    assert all(hasattr(f["caption"], "msgid") for f in frames)


def test_the_history_keeps_its_words_as_texts():
    """``result`` (summary.py) gives Texts: the history keeps them with ``as_data``."""
    over = next(s for s in walk(new_game(2, 4, False, False), random_action,
                                random.Random(2), 2000) if wc.is_over(s))
    result = wc.result(over)
    for key in ("how", "winner"):
        kept = result[key].as_data()
        assert from_data(kept) == result[key]
    assert all(hasattr(words, "msgid") for words in wc.ENDING_WORDS.values())


ENGLISH = ("Your turn", "Hunting", "Searches and arrests tonight", "Move track",
           "Head of the Investigation", "Crime scenes", "Clues tonight", "Jack's sheet",
           "the crossing")


@pytest.mark.parametrize(("language", "words"), [
    ("de", ["Zugleiste", "Hinweise heute Nacht:", "Ermittlungsleiter", "Nacht 1"]),
    ("fr", ["Piste de déplacement", "Indices cette nuit", "Chef de l’enquête", "Nuit 1"]),
])
def test_a_real_page_reads_the_readers_language(real_app, language, words):  # noqa: F811
    laptop, phones = to_hunting(real_app)
    headers = {"Accept-Language": language}
    for page in (laptop.get(f"/t/{laptop.code}", headers=headers).text,
                 phones[1].get(f"/t/{laptop.code}/me", headers=headers).text):
        for word in words:
            assert word in page, (language, word)
        for english in ENGLISH:
            assert english not in page, (language, english)


def test_a_translated_page_tells_no_secret(real_app):  # noqa: F811
    """Two nights alike in public, different in Jack's path and hideout: every page of
    a viewer who is not Jack is the same, byte for byte, in German and in French too
    (assert_indistinguishable draws them in every language)."""
    first = board_state("90", move_then_coach(65, 66))
    second = board_state("12", move_then_coach(65, 83))
    assert "Nacht 1" in render_component(real_app, wc, first, 1, language="de")
    assert "Nuit 1" in render_component(real_app, wc, first, 1, language="fr")
    assert_indistinguishable(real_app, wc, first, second, NOT_JACK)
