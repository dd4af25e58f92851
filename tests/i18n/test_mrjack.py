"""Mr. Jack in every language: no word of its pages outside a catalogue (the pseudo
language), its German and French pages, its sentences kept as words in the state."""

from __future__ import annotations

import copy
import json
import re

import pytest
from flask import render_template

from companion import words
from companion.games import mrjack
from companion.games.base import TABLE, RuleError
from companion.games.mrjack.rules import _refusal
from companion.games.mrjack.state import _due
from tests.games.test_mrjack_properties import random_game
from tests.support.noninterference import render_component
from tests.support.pseudo import Pseudo, pseudo_language, unmarked
from tests.support.webflow import seated_table, state_of

JACK, DETECTIVE = mrjack.JACK, mrjack.DETECTIVE
VIEWERS = (JACK, DETECTIVE, TABLE)
PLAYERS = ["Ann", "Bob"]
# A sentence whose placeholder is markup (a name in bold) spans several text nodes: read
# with its inline tags taken out, whole (none of them carries an attribute people read).
INLINE = re.compile(r"</?(?:b|span|strong|em)\b[^>]*>")


def left_unmarked(html: str, allowed: list[str]) -> list[str]:
    return unmarked(INLINE.sub("", html), allowed=allowed)


def games(seeds: range = range(4)):
    """Every state of random legal games, base and London, through every phase."""
    for seed in seeds:
        for london in (False, True):
            yield from random_game(seed, london, limit=200)


def pages_left_unmarked(app, seeds: range) -> list[tuple[str, str, str]]:
    """What every viewer's page of every state of these games shows outside a catalogue."""
    phases, left = set(), set()
    with pseudo_language():
        for state in games(seeds):
            phases.add(state["phase"])
            for viewer in VIEWERS:
                html = render_component(app, mrjack, state, viewer)
                left |= {(state["phase"], str(viewer), text)
                         for text in left_unmarked(html, PLAYERS)}
        with app.test_request_context("/"):
            options = render_template("games/mrjack/_options.html", form={"london": True})
        left |= {("options", TABLE, text) for text in left_unmarked(options, ["Mr. Jack"])}
    assert phases == {"draft", "placement", "play", "over"}
    return sorted(left)


def test_every_page_of_every_phase_is_marked(app):
    # Two games of each kind: the language crawl (tests/i18n/test_crawl.py) draws every
    # page a scripted game reaches on top of these.
    left = pages_left_unmarked(app, range(2))
    assert not left, "\n".join(map(repr, left))


def test_every_refusal_and_sentence_of_a_view_is_words():
    for state in games(range(2)):
        for viewer in VIEWERS:
            for kind in mrjack.ACTION_TYPES:
                refusal = _refusal(state, viewer, kind)
                assert refusal is None or isinstance(refusal, words.Text), (kind, refusal)
            view = mrjack.view(state, viewer)
            for key in ("status", "prompt"):
                assert isinstance(view[key], words.Text), (key, view[key])
            assert all(isinstance(line["text"], words.Text) for line in view["log"])


def test_the_state_keeps_keys_and_words_never_a_text():
    for state in games(range(2)):
        assert json.loads(json.dumps(state)) == state
        assert not any(isinstance(entry["text"], words.Text) for entry in state["log"])
        if state["outcome"]:
            assert not isinstance(state["outcome"]["text"], words.Text)
            assert state["outcome"]["ending"] in mrjack.ENDING_WORDS
        mrjack.check_state(json.loads(json.dumps(state)))


def test_the_history_and_the_end_read_in_the_readers_language():
    *_, last = random_game(3, True, limit=200)
    view = mrjack.view(last, TABLE)
    pseudo = Pseudo()
    for line in view["log"]:
        assert line["text"].in_language(pseudo).startswith("⟦")
    assert view["outcome"]["text"].in_language(pseudo).startswith("⟦")
    summary = mrjack.result(last)
    assert summary["how"].in_language(pseudo).startswith("⟦")
    assert summary["winner"].in_language(pseudo) in ("⟦Jack⟧", "⟦the detective⟧")
    assert all(isinstance(name, words.Text) for name in mrjack.ENDING_WORDS.values())


def test_a_state_saved_before_the_words_were_kept_still_reads_in_english():
    *_, last = random_game(5, False, limit=200)
    old = copy.deepcopy(last)
    for entry in old["log"]:
        entry.pop("say"), entry.pop("secret_say", None)
    ending = old["outcome"].pop("ending")
    old["outcome"].pop("say")
    mrjack.check_state(old)
    assert mrjack.result(old)["ending"] == ending
    assert mrjack.result(old)["how"] == last["outcome"]["text"]
    view = mrjack.view(old, TABLE)
    assert [line["text"] for line in view["log"]] == [
        line["text"] for line in mrjack.view(last, TABLE)["log"]]
    assert view["outcome"]["text"] == last["outcome"]["text"]


@pytest.mark.parametrize("junk", [7, "x", ["plays", {"seat": 0, "card": "holmes"}],
                                  '["nope",{}]', '["plays",{"seat":0}]',
                                  '["plays",{"seat":0,"card":["holmes"]}]',
                                  '["face_up",{"turn":1,"cards":"holmes"}]',
                                  "[" * 100000 + "]" * 100000])
def test_an_imported_line_that_makes_no_sentence_is_refused(junk):
    *_, last = random_game(2, False, limit=200)
    state = copy.deepcopy(last)
    state["log"][3]["say"] = junk
    with pytest.raises(RuleError):
        mrjack.check_state(state)
    # Shown anyway (a view never fails on it): in its English.
    public = [line for line in mrjack.view(state, TABLE)["log"] if not line["secret"]]
    assert public[3]["text"] == state["log"][3]["text"]


# --- real pages in German and French -------------------------------------------------

ENGLISH = ("Witness card", "Your turn", "This turn&#39;s characters", "History",
           "Setting up the board", "Turn ", "call for witnesses", "Hold to", "wait")


def test_two_phones_at_one_table_read_german_and_french(app):
    laptop, (jack, detective) = seated_table(app, "mrjack", PLAYERS)
    german = detective.get(f"/t/{laptop.code}/me", headers={"Accept-Language": "de"}).text
    assert "Du bist dran: Spiele eine Figur (1 von 4)" in german
    assert "Zeugenkarte: Zeuge" in german and "Die Figuren dieser Runde" in german
    assert "Verdächtige" in german and "Verlauf" in german
    french = jack.get(f"/t/{laptop.code}/me", headers={"Accept-Language": "fr"}).text
    assert "L&#39;enquêteur joue un personnage (1 sur 4) : attendez" in french
    assert "Carte témoin : Témoin" in french and "Les personnages de ce tour" in french
    assert "Maintenez appuyé pour voir qui vous êtes" in french
    screen = laptop.get(f"/t/{laptop.code}", headers={"Accept-Language": "de"}).text
    assert "Spielplan aufbauen" in screen and "Runde" in screen
    for page in (german, french, screen):
        assert not [word for word in ENGLISH if word in _mrjack_part(page)]


def test_the_end_reads_in_german(app):
    laptop, (jack, detective) = seated_table(app, "mrjack", PLAYERS)
    state = state_of(app, laptop.code)
    for _ in range(7):
        state = _finish_turn(app, laptop, jack, detective)
    while _due(state) is not None:
        phone = jack if _due(state) == JACK else detective
        card = next(card for card in state["round"]["cards"]
                    if card not in {pick["character"] for pick in state["round"]["picks"]})
        assert phone.act("pick", character=card).status_code == 303
        state = state_of(app, laptop.code)
    assert jack.act("dawn").status_code == 303
    page = detective.get(f"/t/{laptop.code}/me", headers={"Accept-Language": "de"}).text
    assert "Jack gewinnt" in page and "Morgengrauen nach Runde 8" in page
    assert "Runde für Runde" in page and "Das ganze Spiel" in page
    assert "has not been caught" not in page and "Turn by turn" not in page


def _finish_turn(app, laptop, jack, detective) -> dict:
    state = state_of(app, laptop.code)
    while _due(state) is not None:
        phone = jack if _due(state) == JACK else detective
        taken = {pick["character"] for pick in state["round"]["picks"]}
        card = next(card for card in state["round"]["cards"] if card not in taken)
        assert phone.act("pick", character=card).status_code == 303
        state = state_of(app, laptop.code)
    assert jack.act("witness", answer="not_seen").status_code == 303
    # No marks: "not seen" clears nobody, Jack's own character never among them.
    assert detective.act("mark_seen").status_code == 303
    assert jack.act("confirm_marks").status_code == 303
    return state_of(app, laptop.code)


def _mrjack_part(page: str) -> str:
    start = page.index('<div class="mj ')
    return page[start:page.index("</details>", page.index("data-history", start))]


def test_a_refusal_reads_in_the_phones_language(app):
    laptop, (jack, detective) = seated_table(app, "mrjack", PLAYERS)
    answer = laptop.post(f"/t/{laptop.code}/act", {"type": "dawn", "version": laptop.version()},
                         headers={"Accept-Language": "de"})
    assert answer.status_code == 422
    assert "Der Morgen graut, wenn die vier Figuren von Runde 8 gespielt sind." in answer.text
    answer = jack.post(f"/t/{laptop.code}/me/act", {"type": "witness", "answer": "seen",
                                                    "version": laptop.version()},
                       headers={"Accept-Language": "fr"})
    assert answer.status_code == 422
    assert "Seul l&#39;enquêteur" not in answer.text
    assert "L&#39;appel à témoin a lieu quand les quatre personnages ont été joués." in answer.text
