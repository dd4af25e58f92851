"""Wo ist Jack the Ripper and the laptop's decks in German and French: every word of
every page its games reach goes through a catalogue (the pseudo language leaves none
unmarked), a real page reads German or French, and the log keeps each line's words."""

from __future__ import annotations

import html
import json
import random
import re
from collections.abc import Iterator

import pytest

from companion import words
from companion.games import wo_ist_jack as game
from companion.games.base import TABLE, RuleError
from companion.web import i18n
from tests.support.noninterference import render_component
from tests.support.pseudo import pseudo_language, unmarked
from tests.support.webflow import Device, seated_table, state_of

NAMES = ["Anna", "Ben", "Cleo", "Dora"]
CLOCK = 1_000_000.0
AFTER = str(CLOCK + game.PRINT_WINDOW_SECONDS)
# Card names stay German in every language; the glosses are drawn in English only.
CARDS = [game.REPORTER_IN_U_HAFT, game.REPORTERTEAM, game.DRUCKMASCHINE, "U-Haft",
         *game.RULEBOOK_STORIES, *game.ENGLISH_GLOSSES.values(), game.TITLE]


def new_game(count: int = 4, start: int | None = 0, stories: str | None = None) -> dict:
    fields = game.form_from(game.default_options())
    if stories is not None:
        fields["stories"] = stories
    state = game.setup(game.parse_options(fields, count), NAMES[:count], random.Random(3))
    return state if start is None else act(state, TABLE, type="start_player", seat=str(start))


def act(state: dict, actor, **action: str) -> dict:
    return game.apply(state, actor, action, random.Random(0))


def announce(state: dict, points: int = 3) -> dict:
    return act(state, state["active"], type="print", story=state["current"],
               points=str(points), clock=str(CLOCK))


def printed(state: dict, points: int = 3) -> dict:
    return act(announce(state, points), state["active"], type="settle", clock=AFTER)


def print_and_pass(state: dict, points: int = 2) -> dict:
    """The active reporter prints one story and ends the turn (unless that was the last)."""
    state = printed(state, points)
    return state if state["over"] else act(state, state["active"], type="end_turn")


def phases() -> Iterator[tuple[str, dict]]:
    """Every moment the game's pages draw differently."""
    yield "choosing the start", new_game(start=None)
    state = new_game()
    yield "first turn", state
    yield "about to print", announce(state)
    passed = act(announce(state), 1, type="pass", clock=str(CLOCK))
    yield "about to print, one passed", passed
    broken = act(announce(state), 2, type="druckmaschine", clock=str(CLOCK))
    yield "press broken", broken
    after = printed(state)
    yield "just printed", after
    cards = act(after, 0, type="u_haft", target="2")
    yield "U-Haft, the turn's Action done", cards
    team = act(act(cards, 0, type="end_turn"), 1, type="reporterteam")
    yield "action cards in front of reporters", team
    team = act(team, 1, type="end_turn")
    yield "U-Haft lost a turn, Reporterteam waits", team
    twice = act(act(new_game(), 0, type="u_haft", target="1"), 0, type="end_turn")
    twice = act(twice, 1 if twice["active"] == 1 else twice["active"], type="end_turn")
    yield "a second turn", twice
    yield "no investigation left", printed(printed(state))
    held = act(act(act(new_game(), 0, type="u_haft", target="2"), 0, type="end_turn"), 1,
               type="u_haft", target="2")
    yield "two turns lost in U-Haft", held
    # Every story printed, by turns, to the final score and the reveal.
    end = act(act(act(new_game(), 0, type="u_haft", target="2"), 0, type="end_turn"), 1,
              type="reporterteam")
    while not end["over"]:
        end = printed(end, 1 + len(end["printed"]) % 5)
        if not end["over"] and end["prints_this_turn"] >= end["investigations"]:
            end = act(end, end["active"], type="end_turn")
    yield "over", end
    tie = new_game(2)
    while not tie["over"]:
        tie = print_and_pass(tie)
    yield "over, a tie", tie
    yield "three players, stories removed", new_game(3)


def joined(page: str) -> str:
    """The page with its inline bold taken out: a name in bold is a placeholder of the
    sentence around it ({% set %} markup), which the pseudo language brackets whole."""
    return re.sub(r"</?b(?: [^>]*)?>", "", page)


def allowed(state: dict) -> list[str]:
    return [*state["players"], *CARDS, "TEST"]


@pytest.mark.parametrize(("phase", "state"), list(phases()), ids=[p for p, _s in phases()])
def test_every_word_of_every_screen_goes_through_a_catalogue(app, phase, state):
    for viewer in [TABLE, *range(len(state["players"]))]:
        with pseudo_language():
            page = render_component(app, game, state, viewer)
        assert unmarked(joined(page), allowed(state)) == [], (phase, viewer)


def test_the_decks_pages_and_the_setup_summary_are_marked(app):
    laptop = Device(app)
    with pseudo_language():
        pages = {path: laptop.get(path).text for path in (
            "/decks", f"/decks/{game.NAME}", f"/decks/{game.NAME}?saved=1")}
        refused = laptop.post(f"/decks/{game.NAME}", {"stories": "= 4"}).text
        phone = laptop.get("/decks", environ_base={"REMOTE_ADDR": "192.168.1.20"}).text
        new = laptop.get(f"/new/{game.NAME}").text
    typed = game.form_from(game.default_options())["stories"].splitlines()
    for path, page in {**pages, "refused": refused}.items():
        main = re.search(r'<main id="view".*?</main>', page, re.S).group(0)
        # The deck's text is what the laptop typed (or the defaults as the form keeps them).
        main = re.sub(r"<textarea.*?</textarea>", "", main, flags=re.S)
        assert unmarked(joined(main), ["London 1888", game.TITLE, *typed]) == [], path
    assert "⟦" in refused and "data-error" in refused
    assert "⟦The card names are typed on the laptop" in html.unescape(phone)
    summary = re.search(r"<section[^>]*data-deck-summary.*?</section>", new, re.S).group(0)
    assert unmarked(joined(summary)) == []
    options = re.search(r'<fieldset class="stack wij-options">.*?</fieldset>', new, re.S)
    assert unmarked(options.group(0), [game.TITLE]) == []


def test_a_refusal_and_the_results_are_texts():
    state = new_game()
    with pytest.raises(RuleError) as caught:
        act(state, 1, type="end_turn")
    assert isinstance(caught.value.message, words.Text)
    end = new_game(2)
    while not end["over"]:
        end = print_and_pass(end)
    result = game.result(end)
    assert isinstance(result["how"], words.Text) and isinstance(result["winner"], words.Text)
    assert isinstance(game.ENDING_WORDS["printed"], words.Text)
    assert all(isinstance(label, words.Text) for label in game.seat_labels(3, {}))


def test_the_log_keeps_its_words_and_its_english():
    state = json.loads(json.dumps(printed(new_game(3))))
    assert len(state["log_words"]) == len(state["log"])
    shown = game.view(state, TABLE)["log"]
    assert all(isinstance(line, words.Text) for line in shown)
    assert shown == state["log"]
    game.check_state(state)


def test_a_state_saved_before_the_words_shows_its_log_in_english():
    state = printed(new_game(3))
    del state["log_words"]
    old = act(state, 0, type="end_turn")
    assert game.view(old, TABLE)["log"] == old["log"]
    assert old["log_words"][:len(state["log"])] == [None] * len(state["log"])
    assert isinstance(game.view(old, TABLE)["log"][-1], words.Text)
    game.check_state(old)
    # Junk where the words are kept (a hostile file) shows the English, never an error.
    junk = {**old, "log_words": [{"msgid": "%(x)s", "params": {"y": 1}}] * len(old["log"])}
    game.check_state(junk)
    assert len(game.view(junk, TABLE)["log"]) == len(old["log"])
    with pytest.raises(RuleError):
        game.check_state({**old, "log_words": [3]})
    deep: dict = {"msgid": "%(x)s"}
    for _level in range(50):
        deep = {"msgid": "%(x)s", "params": {"x": deep}}
    with pytest.raises(RuleError, match="too deep"):
        game.check_state({**old, "log_words": [deep] * len(old["log"])})


def test_the_deepest_log_line_the_game_writes_passes_the_import_check():
    state = json.loads(json.dumps(new_game(2)))
    assert len(state["removed"]) == 4
    game.check_state(state)
    assert game.view(state, TABLE)["log"][0] == state["log"][0]


def test_the_english_glosses_are_drawn_in_english_only(app, monkeypatch):
    state = act(new_game(), 0, type="u_haft", target="2")
    state = act(announce(state), 1, type="druckmaschine", clock=str(CLOCK))
    state["current"] = game.POLIZEI  # a Story card the rulebook names, face up
    glosses = ["Reporter in Detention", "Printing Press Broken", "Police in the Dark"]
    english = render_component(app, game, state, TABLE)
    for gloss in glosses:
        assert gloss in english
    for language in ("de", "fr"):
        monkeypatch.setattr(i18n, "chosen_language", lambda language=language: language)
        page = render_component(app, game, state, TABLE)
        assert "Reporter in U-Haft" in page and "Druckmaschine defekt" in page
        assert game.POLIZEI in page
        for gloss in glosses:
            assert gloss not in page, (language, gloss)


def german_and_french_table(app):
    laptop, phones = seated_table(app, game.NAME, NAMES[:3])
    assert laptop.table_act("start_player", seat=0).status_code == 303
    return laptop, phones


@pytest.mark.parametrize(("language", "expected", "english"), [
    ("de", ["Du bist dran: 2 Recherchen", "Aktuelle Story", "Spielprotokoll", "Wert auf der Karte"],
     ["Your turn", "Current story", "face-down in the story deck", "Game log"]),
    ("fr", ["À vous de jouer : 2 recherches", "Histoire en cours", "Journal de la partie",
            "valeur sur la carte"],
     ["Your turn", "Current story", "face-down in the story deck", "Game log"]),
])
def test_a_real_phone_reads_its_language(app, language, expected, english):
    laptop, phones = german_and_french_table(app)
    page = html.unescape(phones[0].get(f"/t/{laptop.code}/me",
                                       headers={"Accept-Language": language}).text)
    for word in expected:
        assert word in page, word
    for sentence in english:
        assert sentence not in page, sentence
    assert state_of(app, laptop.code)["current"] in page
