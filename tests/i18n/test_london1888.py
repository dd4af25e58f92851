"""London 1888 in German and French: every word of its pages goes through a catalogue
(drawn in the pseudo language, in every phase the rules reach, for the table screen and
every seat), the log and the news read in each phone's own language, and a real page in
German and in French."""

from __future__ import annotations

import copy
import html
import random
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from flask import render_template

from companion.games import london1888 as game
from companion.games.base import TABLE, RuleError
from companion.terminal import catalogue
from companion.web import i18n
from tests.games.test_london1888 import (
    act,
    finish_round,
    jack_of,
    play_to_fifth_murder,
    propose,
    reveal_role,
    seed_where,
    turn_of,
)
from tests.support.html import at_rest
from tests.support.london_sequence import PHONE_SEQUENCE, PUBLIC_SEQUENCE
from tests.support.noninterference import (
    all_viewers,
    assert_indistinguishable,
    play_both,
    render_component,
)
from tests.support.pseudo import pseudo_language, unmarked
from tests.support.webflow import seated_table, state_of
from tests.web.test_london1888 import jack_at_0_or_1

PLAYERS = ["Ada", "Ben", "Cleo", "Dan", "Eve"]
# Names, not words: the players', the characters' (and their full names), a place's and
# the game's own.
ALLOWED = [*PLAYERS, *game.CHARACTERS,
           *(facts["full_name"] for facts in game.CHARACTERS.values()),
           "Scotland Yard", "London 1888"]


def _try(state: dict, actor: Any, **action: str) -> dict:
    """The action if the rules take it here, else the state as it was (the walk below
    tries things that a given deal may not allow)."""
    try:
        return act(state, actor, **action)
    except RuleError:
        return state


def _walk() -> Iterator[tuple[str, dict]]:
    """States in every phase: setup, the public and the phone sequences step by step
    (questions, prison, the Black Market, deaths, releases), Jack discovered (at large, in
    prison by a card, caught), every proposed outcome and every confirmed one."""
    start = seed_where(lambda state: jack_of(state) not in (0, 3))  # Abberline can arrest
    yield "setup", start
    for name, sequence in (("public", PUBLIC_SEQUENCE), ("phone", PHONE_SEQUENCE)):
        state = start
        for index, (actor, action) in enumerate(sequence):
            state = act(state, actor, **action)
            yield f"{name} {index}", state
    # A prisoner questioned (two cards turned).
    state = _try(turn_of(start, 0), TABLE, type="arrest", target="2", by="abberline")
    positions = [pos for pos in range(1, 6) if not state["revealed"][2][pos - 1]][:2]
    yield "questioned in prison", _try(state, 0, type="question", target="2",
                                        **{f"position_{pos}": "on" for pos in positions})
    jack = jack_of(start)
    asker = 0 if jack != 0 else 1
    found = reveal_role(start, jack, asker)
    yield "jack discovered", found
    # At the Black Market: it takes even Warren or the Prince.
    jailed = _try(found, TABLE, type="arrest", target=str(jack), by="black_market")
    yield "jack in prison by a card", jailed
    yield "jack in prison, his turn", turn_of(jailed, jack)
    caught = act(found, TABLE, type="arrest", target=str(jack), by="abberline")
    yield "jack caught", caught
    yield "jack dead", act(found, TABLE, type="mark_dead", target=str(jack), killer=str(asker))
    proposed = _try(caught, TABLE, type="record_outcome", result="innocents",
                    **{f"accomplice_{(jack + 1) % 5}": "on"})
    yield "innocents proposed", proposed
    yield "innocents over", _try(proposed, TABLE, type="confirm_outcome")
    killed = found
    for seat in range(5):
        if seat != jack:
            killed = _try(killed, TABLE, type="mark_dead", target=str(seat))
    yield "jack alone alive", killed
    proposed = _try(killed, TABLE, type="record_outcome", result="jack_killed_everyone")
    yield "killed everyone proposed", proposed
    yield "killed everyone over", _try(proposed, TABLE, type="confirm_outcome")
    suicide = _try(found, TABLE, type="record_outcome", result="jack_suicide")
    yield "suicide over", _try(suicide, TABLE, type="confirm_outcome")
    last = play_to_fifth_murder(start)
    yield "last round", last
    ended = finish_round(last)
    yield "fifth murder, round over", ended
    proposed = propose(ended, "jack_fifth_murder", (jack + 2) % 5)
    yield "fifth murder proposed", proposed
    yield "withdrawn", act(proposed, TABLE, type="withdraw_outcome")
    yield "fifth murder over", act(proposed, TABLE, type="confirm_outcome")


STATES = list(_walk())


def test_the_walk_reaches_every_phase():
    phases = {game.view(state, TABLE)["phase"] for _label, state in STATES}
    assert phases == {"playing", "round_over", "last_round", "awaiting_outcome", "proposed",
                      "over"}
    labels = dict(STATES)
    assert game.view(labels["jack in prison by a card"], TABLE)["jack"]["in_prison"]
    assert game.view(labels["jack caught"], TABLE)["jack"]["caught"]
    assert game.is_over(labels["killed everyone over"])
    assert game.is_over(labels["suicide over"])


@pytest.mark.parametrize("label", [label for label, _state in STATES])
def test_every_word_of_every_phase_is_marked(app, label):
    state = dict(STATES)[label]
    with pseudo_language():
        for viewer in all_viewers(len(state["players"])):
            html = render_component(app, game, copy.deepcopy(state), viewer)
            assert unmarked(html, ALLOWED) == [], (label, viewer)


def test_the_setup_form_is_marked(app):
    form = game.form_from(game.default_options())
    with pseudo_language(), app.test_request_context("/"):
        html = render_template("games/london1888/_options.html", form=form, game=game)
        html += render_template("games/london1888/_deck.html", form=form)
    # The card names in the text boxes are the table's to type: kept as they are typed.
    html = re.sub(r"<textarea[^>]*>.*?</textarea>", "", html, flags=re.S)
    assert unmarked(html, ALLOWED) == []


def test_refusals_and_history_words_are_texts():
    state = STATES[0][1]
    with pytest.raises(RuleError) as refused:
        game.apply(state, 1, {"type": "end_turn"}, random.Random(0))
    message = refused.value.message
    assert getattr(message, "msgid", None) == "It is not your turn: %(who)s is playing."
    over = dict(STATES)["fifth murder over"]
    result = game.result(over)
    for key in ("how", "winner"):
        assert hasattr(result[key], "msgid"), key
    assert all(hasattr(words, "msgid") for words in game.ENDING_WORDS.values())
    assert hasattr(game.undone_words(state, 0, {"type": "question", "target": "1"}), "msgid")


def test_the_log_keeps_words_not_sentences_and_reads_old_lines_as_written():
    state = dict(STATES)["public 11"]
    for entry in state["log"]:
        assert isinstance(entry["text"], str) and isinstance(entry["words"], dict)
    view = game.view(state, TABLE)
    assert [entry["text"] for entry in view["log"]] == [entry["text"] for entry in state["log"]]
    assert all(hasattr(entry["text"], "msgid") for entry in view["log"])
    old = copy.deepcopy(state)
    for entry in old["log"]:
        del entry["words"]
    old["log"][0]["words"] = {"msgid": 7}  # an imported file's junk
    game.check_state(old)
    shown = game.view(old, TABLE)["log"]
    assert [entry["text"] for entry in shown] == [entry["text"] for entry in state["log"]]


def _pages(app, language: str) -> tuple[str, str]:
    laptop, phones = seated_table(app, game.NAME, PLAYERS,
                                  **game.form_from(game.default_options()))
    state = state_of(app, laptop.code)
    jack = jack_of(state)
    asker = 0 if jack != 0 else 1
    headers = {"Accept-Language": language}
    position = next(i + 1 for i, card in enumerate(state["lines"][jack]) if card != "jack")
    if asker != 0:
        phones[0].act("end_turn")
    phones[asker].act("question", target=jack, **{f"position_{position}": "on"})
    screen = laptop.get(f"/t/{laptop.code}", headers=headers).text
    phone = phones[asker].get(f"/t/{laptop.code}/me", headers=headers).text
    return html.unescape(screen), html.unescape(phone)


ENGLISH = ("Lines of suspicion", "Game log", "Murders discovered", "event cards left",
           "is playing", "Setup checklist", "Your turn", "questioned", "End my turn",
           "Hold to see your role", "Round 1: no event card is turned")


def test_a_german_table_and_phone(app):
    screen, phone = _pages(app, "de")
    assert "Verdachtsreihen" in screen and "Spielprotokoll" in screen
    assert "Entdeckte Morde" in screen and "Checkliste für den Aufbau" in screen
    assert "Gedrückt halten, um deine Rolle zu sehen" in phone
    assert "hat" in phone and "befragt" in phone
    for page in (screen, phone):
        for sentence in ENGLISH:
            assert sentence not in page, sentence


def test_a_french_table_and_phone(app):
    screen, phone = _pages(app, "fr")
    assert "Lignes de suspicion" in screen and "Journal de la partie" in screen
    assert "Meurtres découverts" in screen and "Liste de mise en place" in screen
    assert "Maintenez pour voir votre rôle" in phone
    assert "Vous avez interrogé" in phone
    for page in (screen, phone):
        for sentence in ENGLISH:
            assert sentence not in page, sentence


def test_two_phones_read_the_same_log_in_two_languages(app):
    laptop, phones = seated_table(app, game.NAME, PLAYERS,
                                  **game.form_from(game.default_options()))
    german = html.unescape(phones[1].get(f"/t/{laptop.code}/me",
                                         headers={"Accept-Language": "de"}).text)
    french = html.unescape(phones[2].get(f"/t/{laptop.code}/me",
                                         headers={"Accept-Language": "fr"}).text)
    assert ("Runde 1: Es wird keine Ereigniskarte aufgedeckt. Abberline hat die "
            "ABSINTH-Karte") in german
    assert ("Manche 1 : aucune carte événement n'est retournée. Abberline a la carte "
            "ABSINTHE") in french


@contextmanager
def reading(language: str) -> Iterator[None]:
    reader = catalogue(language)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(i18n, "translator", lambda: reader)
        yield


@pytest.mark.parametrize("language", ["de", "fr"])
def test_no_secret_shows_through_the_german_or_french_words(app, language):
    """PHONE_SEQUENCE on two deals alike but that Jack is seat 0 or seat 1: the table and
    the other phones read the same, and seats 0 and 1 too once their peek is dropped, in
    German and in French as in English."""
    with reading(language):
        for first, second in play_both(game, *jack_at_0_or_1(), PHONE_SEQUENCE):
            assert_indistinguishable(app, game, first, second, [TABLE, 2, 3, 4])
            for seat in (0, 1):
                assert at_rest(render_component(app, game, first, seat)) == at_rest(
                    render_component(app, game, second, seat))
        page = render_component(app, game, first, 2)
    assert ("Verdachtsreihen" if language == "de" else "Lignes de suspicion") in page
