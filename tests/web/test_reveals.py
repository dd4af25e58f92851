"""The reveal at the end of London 1888, Mr. Jack and Wo ist (docs/RULINGS.md, each game's
"The reveal"): on the table screen and every phone, as a whole page and as the component a
live refresh fetches; nothing of it before the end, even between twin games that differ
only in a secret; the truth after it."""

from __future__ import annotations

import copy
import html
import random

import pytest

from companion import importing, logstore, tables
from companion.db import get_db
from companion.games import london1888, mrjack, wo_ist_jack
from companion.games.base import TABLE
from tests.support.hostile_files import upload
from tests.support.noninterference import (
    all_viewers,
    assert_indistinguishable,
    play_both,
    render_component,
)
from tests.support.reveal_games import SCRIPTS, jack_of, pure, web
from tests.support.webflow import Device, seated_table, state_of

HTMX = {"HX-Request": "true"}


def pages(laptop, phones) -> dict[str, str]:
    """Every page of the table, whole and as the live refresh's component, unescaped."""
    found = {"screen": laptop.screen(), "screen-part": laptop.get(f"/t/{laptop.code}",
                                                                   headers=HTMX)}
    for seat, phone in enumerate(phones):
        found[f"phone {seat}"] = phone.phone()
        found[f"phone {seat}-part"] = phone.get(f"/t/{phone.code}/me", headers=HTMX)
    assert all(response.status_code == 200 for response in found.values())
    return {name: html.unescape(response.text) for name, response in found.items()}


@pytest.mark.parametrize("name", list(SCRIPTS))
def test_every_page_shows_the_reveal_at_the_end_and_none_before(app, name):
    game, names, _script = SCRIPTS[name]
    form = game.form_from(game.default_options())
    laptop, phones = seated_table(app, name, list(names), **form)
    for where, page in pages(laptop, phones).items():
        assert "data-reveal" not in page and "data-timeline" not in page, where
    web(name, lambda: state_of(app, laptop.code), laptop, phones)
    state = state_of(app, laptop.code)
    assert game.is_over(state)
    shown = game.view(state, TABLE)["reveal"]
    for where, page in pages(laptop, phones).items():
        assert page.count("data-reveal") == 1, where
        assert page.count('class="timeline-step') == len(shown["steps"]), where
        for step in shown["steps"]:
            assert step["text"] in page, (where, step["text"])
        for fact in shown["facts"]:
            assert fact["label"] in page and fact["text"] in page, (where, fact)


def test_london_reveal_names_jack_the_finder_and_the_incidents_in_order(app):
    laptop, phones = seated_table(app, "london1888", SCRIPTS["london1888"][1],
                                  **london1888.form_from(london1888.default_options()))
    web("london1888", lambda: state_of(app, laptop.code), laptop, phones)
    state = state_of(app, laptop.code)
    jack = jack_of(state)
    label = london1888.view(state, TABLE)["seats"][jack]["label"]
    for page in pages(laptop, phones).values():
        steps = page[page.index("data-timeline"):]
        kinds = [steps.index(f'data-step="{kind}"') for kind in
                 ("arrest", "release", "found", "death", "end")]
        assert kinds == sorted(kinds), "the steps come in the order they happened"
        assert f"Jack the Ripper was <b>{label}</b>" in page
        assert f"questioned {label}: card " in page
        assert page.count("l88-kind") >= 25, "every line of suspicion is turned over"


def test_mrjack_reveal_tells_every_witness_call(app):
    laptop, phones = seated_table(app, "mrjack", SCRIPTS["mrjack"][1])
    web("mrjack", lambda: state_of(app, laptop.code), laptop, phones)
    state = state_of(app, laptop.code)
    for page in pages(laptop, phones).values():
        assert page.count('data-step="seen"') == 1 and page.count('data-step="not_seen"') == 1
        assert f">{mrjack.CHARACTERS[state['alibi']]}</b>." in page
        assert page.count("Played: ") == 3 and page.count("Marked seen: ") == 2


def test_wo_ist_reveal_lists_every_story_in_print_order(app):
    laptop, phones = seated_table(app, "wo_ist_jack", SCRIPTS["wo_ist_jack"][1],
                                  **wo_ist_jack.form_from(wo_ist_jack.default_options()))
    web("wo_ist_jack", lambda: state_of(app, laptop.code), laptop, phones)
    state = state_of(app, laptop.code)
    for page in pages(laptop, phones).values():
        places = [page.index(f"“{entry['story']}” printed by") for entry in state["printed"]]
        assert places == sorted(places) and len(places) == state["stories_in_play"]
        assert page.count('data-step="action"') == 4


# --- twins that differ only in a secret: the same pages until the end ---------------------

def differ_after_the_end(app, game, first: dict, second: dict, viewers) -> None:
    """Once over, the twins' pages tell their own truth: they differ for every viewer."""
    assert game.is_over(first) and game.is_over(second)
    for viewer in viewers:
        drawn = [render_component(app, game, state, viewer) for state in (first, second)]
        assert drawn[0] != drawn[1], f"viewer {viewer!r}: the end shows no truth"


def test_london_twins_look_the_same_until_the_reveal(app):
    state = london1888.setup(london1888.default_options(), SCRIPTS["london1888"][1],
                             random.Random(5))
    steps: list = []
    pure("london1888", state, steps=steps)
    twin = copy.deepcopy(state)
    jack = jack_of(state)
    touched = {jack, 0 if jack != 0 else 1}
    touched.add(next(seat for seat in range(5) if seat not in touched))
    for seat in set(range(5)) - touched:  # never questioned: every card where nobody saw
        twin["lines"][seat].reverse()
    twin["deck"][1:] = reversed(twin["deck"][1:])  # only round 2's card is ever turned
    assert twin != state
    pairs = list(play_both(london1888, state, twin, steps, seed=1))
    for first, second in pairs[:-1]:
        assert_indistinguishable(app, london1888, first, second, all_viewers(5))
    differ_after_the_end(app, london1888, *pairs[-1], all_viewers(5))


def test_mrjack_twins_look_the_same_until_the_reveal(app):
    state = mrjack.setup({"london": False}, SCRIPTS["mrjack"][1], random.Random(5))
    twin = copy.deepcopy(state)
    # Jack's character and the alibi card at the bottom of the deck trade places.
    twin["alibi"], twin["alibi_deck"][-1] = state["alibi_deck"][-1], state["alibi"]
    steps: list = []
    pure("mrjack", state, steps=steps, jacks=[state["alibi"], twin["alibi"]])
    pairs = list(play_both(mrjack, state, twin, steps, seed=1))
    for first, second in pairs[:-1]:
        assert_indistinguishable(app, mrjack, first, second, [TABLE, mrjack.DETECTIVE])
    first, second = pairs[-1]
    differ_after_the_end(app, mrjack, first, second, [TABLE, mrjack.DETECTIVE])
    told = [mrjack.view(end, TABLE)["reveal"]["steps"][-1]["text"] for end in pairs[-1]]
    assert mrjack.CHARACTERS[state["alibi"]] in told[0], "the end names each twin's Jack"
    assert mrjack.CHARACTERS[twin["alibi"]] in told[1], "the end names each twin's Jack"


def test_wo_ist_twins_look_the_same_until_a_story_turns(app):
    """The hidden deck is Wo ist's only secret; every story of it is printed (public) by
    the end. Until the first print turns a new one, twins with the deck reversed look
    the same to everyone, the reveal absent."""
    state = wo_ist_jack.setup(wo_ist_jack.default_options(), SCRIPTS["wo_ist_jack"][1],
                              random.Random(5))
    steps: list = []
    pure("wo_ist_jack", state, steps=steps)
    twin = copy.deepcopy(state)
    twin["deck"].reverse()
    first_print = next(index for index, (_actor, action) in enumerate(steps)
                       if action["type"] == "pass")
    for first, second in play_both(wo_ist_jack, state, twin, steps[:first_print], seed=1):
        assert_indistinguishable(app, wo_ist_jack, first, second, all_viewers(3))


# --- an exported game carries its reveal; a history the game cannot reach is refused ------

BAD_HISTORY = {
    "london1888": ("incidents", [{"round": 1, "reveals": 0, "kind": "arrest", "actor": None,
                                  "target": 9, "killer": None, "jailed": False,
                                  "way": "card"}], "an incident&#39;s target is not a seat"),
    "mrjack": ("calls", [{"turn": 1, "picks": [], "answer": "maybe", "seen": [],
                          "cleared": []}], "the state.calls[0].answer"),
    "wo_ist_jack": ("cards_played", [{"kind": "u_haft", "by": 0, "on": 1, "story": None,
                                      "turn": 1, "printed": 99}], "after the game&#39;s last"),
}


@pytest.mark.parametrize("name", list(SCRIPTS))
def test_an_export_imports_with_its_reveal_and_a_forged_history_is_refused(app, name):
    game, names, _script = SCRIPTS[name]
    laptop, phones = seated_table(app, name, list(names), **game.form_from(
        game.default_options()))
    web(name, lambda: state_of(app, laptop.code), laptop, phones)
    with app.app_context():
        db = get_db()
        table_id = tables.get_table(db, laptop.code)["id"]
        data = importing.export_table(db, table_id)
        states = [entry["state"] for entry in tables.history(db, table_id)
                  if entry["state"] is not None]
    reply = upload(Device(app), "/import", importing.export_text(data).encode())
    assert reply.status_code == 303, reply.text[:400]
    code = reply.headers["Location"].rstrip("/").rsplit("/", 1)[-1]
    screen = Device(app).get(f"/t/{code}").text
    assert "data-reveal" in screen
    assert screen.count('class="timeline-step') == len(
        game.view(states[-1], TABLE)["reveal"]["steps"])
    key, bad, message = BAD_HISTORY[name]
    forged = copy.deepcopy(states[-1])
    forged[key] = bad
    last = max(index for index, entry in enumerate(data["log"]) if entry[7] is not None)
    data["log"][last][7] = logstore.diff(states[-2], forged)
    reply = upload(Device(app), "/import", importing.export_text(data).encode())
    assert reply.status_code == 422 and message in reply.text, reply.text[-2000:]
