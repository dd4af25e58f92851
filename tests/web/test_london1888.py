"""London 1888 through the Flask client: setup form, phones, the table screen, refusals,
a full game to an outcome, and non-interference on the rendered pages."""

from __future__ import annotations

import copy
import html
import random
import re
from types import SimpleNamespace

import pytest

from companion.games import london1888 as game
from companion.games.base import TABLE
from tests.support.hidden import deal_again
from tests.support.html import at_rest
from tests.support.london_sequence import (
    PHONE_SEQUENCE,
    PUBLIC_SEQUENCE,
    ROUND_SEQUENCE,
    twin_deals,
)
from tests.support.noninterference import (
    all_viewers,
    assert_indistinguishable,
    play_both,
    render_component,
    same_answer,
)
from tests.support.webflow import Device, create_table, seated_table, state_of, table_of

NAMES = ["Ann", "Bob", "Cy", "Di", "Ed"]
FORM = game.form_from(game.default_options())


def new_table(app, names=NAMES, **changes):
    return seated_table(app, game.NAME, names, **{**FORM, **changes})


def role_on(page: str) -> str:
    found = re.search(r"data-role>([^<]+)<", page)
    assert found, "the phone shows no role"
    return found.group(1)


def jack_of(state: dict) -> int:
    return next(seat for seat, line in enumerate(state["lines"]) if "jack" in line)


def end_turns_until(app, laptop, seat: int) -> None:
    """The host ends turns (and rounds) until ``seat`` is to play, decision untaken."""
    for _ in range(20):
        state = state_of(app, laptop.code)
        current = game.view(state, TABLE)["current"]
        if current == seat and not state["decided"]:
            return
        kind = "end_turn" if current is not None else "next_round"
        assert laptop.table_act(kind).status_code == 303
    raise AssertionError("the seat never got a turn")


# --- the setup form ------------------------------------------------------------------

def test_the_new_table_form_shows_the_options_prefilled(app):
    page = Device(app).get("/new/london1888").text
    assert 'name="absinthe" checked' in page
    assert "not named yet" in page and 'href="/decks/london1888"' in page
    for seat in range(5, 9):
        assert f'name="character_{seat}"' in page


def test_options_are_parsed_labelled_and_remembered(app):
    laptop = create_table(app, game.NAME, 6, **{**FORM, "character_5": "Netley",
                                                  "character_6": "Godley"})
    screen = laptop.screen().text
    for label in ("Abberline", "Lusk", "Gull", "Warren", "Netley", "Godley"):
        assert label in screen
    page = laptop.get("/new/london1888").text
    assert '<option value="Netley" selected>' in page


def test_drawn_characters_are_named_once_the_game_starts(app):
    laptop = create_table(app, game.NAME, 6, **{**FORM, "characters": "drawn"})
    assert "Seat 5: drawn character" in laptop.screen().text
    laptop, _phones = new_table(app, NAMES + ["Fay"], characters="drawn")
    drawn = state_of(app, laptop.code)["characters"][4:]
    assert len(set(drawn)) == 2 and set(drawn) <= set(game.EXTRA_CHARACTERS)
    screen = laptop.screen().text
    assert f"{drawn[0]} (Ed)" in screen and f"{drawn[1]} (Fay)" in screen


def test_bad_options_get_a_message_and_no_table(app):
    laptop = Device(app)
    response = laptop.post("/new/london1888", {**FORM, "players": "6",
                                               "character_6": "Godley"})
    assert response.status_code == 422
    assert "choose different characters" in response.text


# --- phones and the table screen ----------------------------------------------------

def test_each_phone_shows_its_own_role_behind_peek_and_no_position(app):
    laptop, phones = new_table(app)
    state = state_of(app, laptop.code)
    jack = jack_of(state)
    for seat, phone in enumerate(phones):
        page = phone.phone().text
        assert 'data-peek' in page
        assert role_on(page) == ("Jack the Ripper" if seat == jack else "Innocent")
        assert "l88-card down" in page and "l88-kind" not in page
    screen = laptop.screen().text
    assert "data-role" not in screen and "l88-kind" not in screen
    assert 'data-setup open' in screen and "Scotland Yard" in screen
    assert "Henry Irving" not in screen  # Mansfield is not at a five-player table


def test_a_bystander_sees_the_table_without_controls(app):
    laptop, _phones = new_table(app)
    bystander = Device(app, laptop.code).screen().text
    assert "data-prompt" in bystander and "Lines of suspicion" in bystander
    assert 'value="end_turn"' not in bystander and 'value="record_outcome"' not in bystander
    assert 'value="end_turn"' in laptop.screen().text
    assert Device(app, laptop.code).table_act("end_turn").status_code == 403


def test_htmx_refusal_returns_the_phone_component_with_the_message(app):
    laptop, phones = new_table(app)
    response = phones[0].post(f"/t/{laptop.code}/me/act",
                              {"type": "question", "target": "0", "position_1": "on",
                               "version": phones[0].version()},
                              headers={"HX-Request": "true"})
    assert response.status_code == 422
    assert response.text.lstrip().startswith("<main") and "question yourself" in response.text
    assert "data-decision" in response.text


def test_every_tap_form_of_a_deciding_phone_has_a_key_of_its_own(app):
    """Sent again after a Wi-Fi drop, a tap is stored once only if its form has a key
    (static/app/no-tap-lost.js): the question forms too."""
    laptop, phones = new_table(app)
    page = phones[0].phone().text
    assert "data-decision" in page
    forms = re.findall(r"<form method=\"post\".*?</form>", page, re.S)
    assert len([f for f in forms if 'name="target"' in f]) >= 3
    for form in forms:
        assert 'name="key"' in form, form[:200]


def test_question_from_the_phone_reveals_to_everyone(app):
    laptop, phones = new_table(app)
    state = state_of(app, laptop.code)
    kind = state["lines"][2][3]
    response = phones[0].act("question", target=2, position_4="on")
    assert response.status_code == 303
    name = game.CARD_NAMES[kind]
    for page in [laptop.screen().text] + [phone.phone().text for phone in phones]:
        # The answer comes first in the game's component, before the prompt (the table's)
        # or the now line (a phone's).
        component = page[page.index('class="l88"'):]
        now = "data-prompt" if "data-prompt" in component else "data-now"
        assert component.index("data-answer") < component.index(now)
        assert f"card 4 is <b>{name}</b>" in answer_of(page)
    assert "data-decision" not in phones[0].phone().text
    # It stands until the next action, then goes (no stale answer rounds later).
    assert phones[0].act("end_turn").status_code == 303
    for page in [laptop.screen().text, phones[0].phone().text]:
        assert "data-answer" not in page


def answer_of(page: str) -> str:
    found = re.search(r'<div class="notice answer"[^>]*data-answer>(.*?)</div>', page, re.S)
    assert found, "no answer shown"
    return found.group(1)


def test_refusals_change_nothing(app):
    laptop, phones = new_table(app)
    version = laptop.version()
    cases = [
        (phones[1].act("question", target=2, position_1="on"), 422, "not your turn"),
        (phones[0].act("question", target=0, position_1="on"), 422, "question yourself"),
        (phones[0].act("question", target=1, position_7="on"), 422, "numbered 1 to 5"),
        (phones[0].act("question", target=1, position_1="on", position_2="on"), 422,
         "only one card"),
        (phones[0].act("question", target=9, position_1="on"), 422, "not a player"),
        (phones[0].act("next_round"), 422, "End your turn first"),
        (phones[0].act("record_outcome", result="innocents"), 422,
         "entered by the host at the table screen"),
        (laptop.table_act("next_round"), 422, "has not finished their turn"),
        (laptop.table_act("record_outcome", result="innocents"), 422, "not been discovered"),
        (laptop.table_act("record_outcome", result="jack_suicide"), 422, "only once"),
        (laptop.table_act("arrest", target=3, by="card"), 422, "Warren cannot be arrested"),
        (phones[0].table_act("end_turn"), 403, ""),
        (phones[0].act("question", version=version - 1, target=1, position_1="on"), 409,
         "moved on"),
    ]
    for response, status, message in cases:
        assert response.status_code == status, response.text[:300]
        assert message in response.text
    assert laptop.version() == version
    assert not any(any(row) for row in state_of(app, laptop.code)["revealed"])


def test_prison_two_cards_and_prisoners(app):
    laptop, phones = new_table(app)
    assert laptop.table_act("arrest", target=2, by="abberline").status_code == 303
    assert "In prison" in laptop.screen().text
    refused = phones[0].act("question", target=2, position_1="on")
    assert refused.status_code == 422 and "Choose two" in refused.text
    third = phones[0].act("question", target=2, position_1="on", position_2="on",
                          position_3="on")
    assert third.status_code == 422 and "not more" in third.text
    page = phones[2].phone().text
    assert "data-in-prison" in page and "You are in PRISON" in page
    assert "data-in-prison" not in phones[1].phone().text
    assert phones[0].act("question", target=2, position_1="on",
                         position_5="on").status_code == 303
    state = state_of(app, laptop.code)
    assert state["revealed"][2] == [True, False, False, False, True]
    # Each reads it in their own words: the table, the asker ("You"), the asked ("you").
    for page, said in [(laptop.screen().text, "Abberline (Ann) questioned Gull (Cy) in prison"),
                       (phones[0].phone().text, "You questioned Gull (Cy) in prison"),
                       (phones[2].phone().text, "Abberline (Ann) questioned you in prison")]:
        answer = answer_of(page)
        assert said in answer
        for position in (1, 5):
            name = game.CARD_NAMES[state["lines"][2][position - 1]]
            assert f"card {position} is <b>{name}</b>" in answer


def test_dead_player_phone_says_so_and_cannot_be_questioned(app):
    laptop, phones = new_table(app)
    assert laptop.table_act("mark_dead", target=3).status_code == 303
    page = phones[3].phone().text
    assert "your face-down cards stay face down until the end of the game" in page
    assert "never" not in page[page.index('class="l88"'):page.index("Game log")]
    refused = phones[0].act("question", target=3, position_1="on")
    assert refused.status_code == 422 and "stay face down until the end" in refused.text


def test_a_full_game_to_the_fifth_murder_with_points_and_the_reveal(app):
    laptop, phones = new_table(app)
    phones[0].act("question", target=1, position_1="on")
    for _ in range(200):
        state = state_of(app, laptop.code)
        table_view = game.view(state, TABLE)
        if table_view["phase"] == "awaiting_outcome":
            break
        kind = "end_turn" if table_view["current"] is not None else "next_round"
        current = table_view["current"]
        if kind == "end_turn" and current is not None:
            assert phones[current].act("end_turn").status_code == 303
        else:
            assert laptop.table_act(kind).status_code == 303
    state = state_of(app, laptop.code)
    murder_round = game.fifth_murder_round(state["deck"])
    assert state["round"] == murder_round
    screen = laptop.screen().text
    assert "5 of 5" in screen and "Record the outcome" in screen
    jack = jack_of(state)
    helper = (jack + 1) % 5
    # A mis-ticked proposal: seen by everyone with nothing revealed, undone by the host.
    wrong = laptop.table_act("record_outcome", result="jack_fifth_murder",
                             **{f"accomplice_{(helper + 1) % 5}": "on"})
    assert wrong.status_code == 303
    assert table_of(app, laptop.code)["status"] == "playing"
    for page in (laptop.screen().text, phones[2].phone().text):
        assert 'data-proposal="jack_fifth_murder"' in page
        assert "data-outcome" not in page and "data-points" not in page
        assert page.count("l88-kind") == 1, "only the one questioned card is shown"
    assert 'value="confirm_outcome"' in laptop.screen().text
    assert 'value="confirm_outcome"' not in phones[2].phone().text
    assert laptop.host("undo").status_code == 303
    assert state_of(app, laptop.code)["proposal"] is None
    response = laptop.table_act("record_outcome", result="jack_fifth_murder",
                                **{f"accomplice_{helper}": "on"})
    assert response.status_code == 303
    assert laptop.table_act("confirm_outcome").status_code == 303
    assert table_of(app, laptop.code)["status"] == "over"
    assert laptop.host("undo").status_code == 409, "a confirmed ending is never undone"
    summary = game.outcome_summary(state_of(app, laptop.code))
    assert summary["murder_round"] == murder_round and summary["discovered"] is False
    for page in (laptop.screen().text, phones[2].phone().text):
        assert "data-outcome" in page and "data-deck" in page
        assert f'data-points-seat="{jack}">8<' in page
        assert f'data-points-seat="{helper}">8<' in page
        assert page.count("l88-kind") >= 25, "every line of suspicion is revealed"
        for card in state["deck"]:
            assert card["name"] in page
    assert phones[0].act("end_turn").status_code == 409


def jack_discovered(app):
    """A new table where the first seat that is not Jack asked to see the Jack card in
    Jack's line: (laptop, phones, state as dealt, Jack's seat, the asker's seat)."""
    laptop, phones = new_table(app)
    state = state_of(app, laptop.code)
    jack = jack_of(state)
    asker = 0 if jack != 0 else 1
    end_turns_until(app, laptop, asker)
    position = next(i + 1 for i, card in enumerate(state["lines"][jack]) if card == "jack")
    assert phones[asker].act("question", target=jack,
                             **{f"position_{position}": "on"}).status_code == 303
    return laptop, phones, state, jack, asker


def test_innocents_win_after_discovering_and_arresting_jack(app):
    laptop, phones, state, jack, asker = jack_discovered(app)
    for page in (laptop.screen().text, phones[(jack + 2) % 5].phone().text):
        assert "data-jack" in page and "Jack the Ripper is" in page
    at_large = laptop.table_act("record_outcome", result="innocents")
    assert at_large.status_code == 422 and "still at large" in at_large.text
    laptop.table_act("mark_dead", target=jack, killer=asker)
    assert laptop.table_act("record_outcome", result="innocents").status_code == 303
    assert "data-points" not in laptop.screen().text
    assert laptop.table_act("confirm_outcome").status_code == 303
    screen = laptop.screen().text
    points = [int(p) for p in re.findall(r'data-points-seat="\d">(\d)<', screen)]
    assert points == [0 if seat == jack else 1 for seat in range(5)]


def test_an_arrest_card_on_discovered_jack_is_shown_and_the_game_goes_on(app):
    """Rulebook: "He may lose by being arrested or killed by ABBERLINE or GODLEY, or killed
    by the other players."; any other prisoner may "discard 10£ to pay for their release"."""
    laptop, phones, state, jack, asker = jack_discovered(app)
    assert jack not in (0, 4) and game.view(state, TABLE)["holder"] != jack  # the app's deal
    assert laptop.table_act("arrest", target=jack, by="card").status_code == 303
    screen = laptop.screen().text
    assert "In prison (ARREST card)" in screen
    assert "only an arrest by Abberline or Godley catches him" in screen
    assert "the Innocents win" not in screen
    refused = laptop.table_act("record_outcome", result="innocents")
    assert refused.status_code == 422 and "only an arrest by" in refused.text
    assert laptop.table_act("release", target=jack).status_code == 303
    assert laptop.table_act("arrest", target=jack, by="godley").status_code == 303
    assert "the Innocents win" in laptop.screen().text
    refused = laptop.table_act("release", target=jack)
    assert refused.status_code == 422 and "may not play a CORRUPTION card" in refused.text


# --- non-interference on the rendered pages ------------------------------------------

# The first ten public actions of the rules tests' sequence.
STEPS = PUBLIC_SEQUENCE[:10]


def dealt(seed: int) -> dict:
    return game.setup(game.default_options(), NAMES, random.Random(seed))


def test_nobody_can_tell_who_is_jack_among_two_unrevealed_players(app):
    state = next(s for s in map(dealt, range(100)) if jack_of(s) == 0)
    twin = copy.deepcopy(state)
    role = next(i for i, card in enumerate(state["lines"][1]) if card == "innocent")
    jack_slot = state["lines"][0].index("jack")
    twin["lines"][0][jack_slot], twin["lines"][1][role] = "innocent", "jack"
    for first, second in play_both(game, state, twin, STEPS):
        assert_indistinguishable(app, game, first, second, [TABLE, 2, 3, 4])


def test_nobody_can_tell_unrevealed_positions_or_unturned_cards(app):
    state = dealt(5)
    twin = copy.deepcopy(state)
    for seat in (0, 1, 3):  # never revealed in STEPS
        twin["lines"][seat] = list(reversed(state["lines"][seat]))
    twin["deck"][1:9] = list(reversed(state["deck"][1:9]))
    twin["deck"][10:] = list(reversed(state["deck"][10:]))
    for first, second in play_both(game, state, twin, STEPS):
        assert_indistinguishable(app, game, first, second, all_viewers(5))


def test_a_proposed_outcome_shows_nobody_who_jack_is(app):
    """Jack in seat 0 or 1, both alive and unrevealed: the proposal, its withdrawal and a
    new proposal render the same for the table and the other players."""
    state = next(s for s in map(dealt, range(100)) if jack_of(s) == 0)
    twin = copy.deepcopy(state)
    role = next(i for i, card in enumerate(state["lines"][1]) if card == "innocent")
    jack_slot = state["lines"][0].index("jack")
    twin["lines"][0][jack_slot], twin["lines"][1][role] = "innocent", "jack"
    steps = [(TABLE, {"type": "mark_dead", "target": str(seat)}) for seat in (2, 3, 4)]
    steps += [(TABLE, {"type": "record_outcome", "result": "jack_killed_everyone",
                       "accomplice_1": "on"}),
              (TABLE, {"type": "withdraw_outcome"}),
              (TABLE, {"type": "record_outcome", "result": "jack_killed_everyone",
                       "accomplice_0": "on"})]
    for first, second in play_both(game, state, twin, steps):
        assert_indistinguishable(app, game, first, second, [TABLE, 2, 3, 4])


def test_drawn_characters_name_the_seats_once_dealt(app):
    form = {**game.form_from(game.default_options()), "characters": "drawn"}
    laptop, phones = seated_table(app, "london1888", ["Ann", "Bob", "Cy", "Di", "Ed"], **form)
    screen = laptop.screen().text
    assert "drawn character" not in screen
    drawn = [name for name in game.EXTRA_CHARACTERS if name in screen]
    assert len(drawn) >= 1
    assert any(name in phones[4].phone().text for name in drawn)


def test_the_last_event_card_is_counted_in_the_singular(app):
    state = dealt(5)
    state["round"] = len(state["deck"])  # round k has turned k - 1 cards: one is left
    view = game.view(state, TABLE)
    assert view["cards_left"] == 1
    with app.test_request_context():
        html = app.jinja_env.get_template("games/london1888/_round.html").render(view=view)
    assert "1 event card left" in html and "cards left" not in html


def test_a_phone_at_rest_is_the_same_whatever_its_role_and_line(app):
    """Seats 0 and 1 swap lines of suspicion (one of them Jack's): each one's own page,
    peek not held, must not change through a public stretch of the game."""
    state = next(s for s in map(dealt, range(100)) if jack_of(s) == 0)
    twin = copy.deepcopy(state)
    twin["lines"][0], twin["lines"][1] = state["lines"][1], state["lines"][0]
    for first, second in play_both(game, state, twin, STEPS):
        for seat in (0, 1):
            assert at_rest(render_component(app, game, first, seat)) == at_rest(
                render_component(app, game, second, seat))


def jack_at_0_or_1() -> tuple[dict, dict]:
    """Two deals alike but that Jack is seat 0 in one and seat 1 in the other."""
    state = next(s for s in map(dealt, range(100)) if jack_of(s) == 0)
    twin = copy.deepcopy(state)
    role = next(i for i, card in enumerate(state["lines"][1]) if card == "innocent")
    twin["lines"][0][state["lines"][0].index("jack")], twin["lines"][1][role] = (
        "innocent", "jack")
    return state, twin


def test_arrests_releases_and_deaths_from_the_phones_show_nobody_who_jack_is(app):
    """PHONE_SEQUENCE (every kind of arrest, a release, a kill and a death entered by
    the victim, from the phones): the table and the other phones render the same whether
    Jack is seat 0 or seat 1, and seats 0 and 1 too, once their peek is dropped."""
    for first, second in play_both(game, *jack_at_0_or_1(), PHONE_SEQUENCE):
        assert_indistinguishable(app, game, first, second, [TABLE, 2, 3, 4])
        for seat in (0, 1):
            assert at_rest(render_component(app, game, first, seat)) == at_rest(
                render_component(app, game, second, seat))


def test_the_arrested_phone_is_told_at_its_top_and_leaves_prison_with_two_taps(app):
    laptop, phones = new_table(app)
    assert phones[0].act("arrest", target=2, by="abberline").status_code == 303
    prisoner = phones[2].phone().text
    now = prisoner[prisoner.index("data-now"):prisoner.index("</section>",
                                                            prisoner.index("data-now"))]
    assert "Abberline (Ann) arrested you: you are in PRISON" in now
    assert prisoner.index("data-now") < prisoner.index("data-peek")
    assert "data-leave-prison" in prisoner and 'data-confirm="Leave PRISON' in prisoner
    assert "You arrested Gull (Cy)" in phones[0].phone().text
    assert "Gull (Cy) is arrested (Abberline arrests)" in laptop.screen().text
    assert "data-leave-prison" not in phones[1].phone().text
    assert phones[2].act("release", target=2).status_code == 303
    assert state_of(app, laptop.code)["prison"][2] is None
    assert "You discarded £10: you are out of PRISON" in phones[2].phone().text


def test_an_undo_says_what_was_undone(app):
    laptop, phones = new_table(app)
    assert phones[0].act("question", target=2, position_4="on").status_code == 303
    assert laptop.host("undo").status_code == 303
    said = "Undone by the host: Ann's question to Cy. Play on from here."
    for page in (laptop.screen().text, phones[3].phone().text):
        assert said in html.unescape(page)
    assert phones[0].act("arrest", target=1, by="abberline").status_code == 303
    assert laptop.host("undo").status_code == 303
    assert "Undone by the host: Ann's arrest of Bob." in html.unescape(phones[1].phone().text)
    assert phones[0].act("end_turn").status_code == 303
    assert laptop.host("undo").status_code == 303
    assert "Undone by the host: the end of Ann's turn." in html.unescape(laptop.screen().text)


# --- refusals: private, and the same whatever the secrets -----------------------------

def twin_tables(app):
    """Two tables, same names, dealt the twin deals (tests/support/london_sequence.py):
    Jack and every role card's position differ, and the event cards never turned."""
    tables = [new_table(app, NAMES[:4]) for _ in range(2)]
    deals = twin_deals(state_of(app, tables[0][0].code))
    for (laptop, _phones), deal in zip(tables, deals, strict=True):
        deal_again(SimpleNamespace(db=app.config["DATABASE"]), laptop.code, deal)
    return tables


# (seat or TABLE, action, the reason behind "Why?" when refused); in turn order, 4 players.
REFUSALS = [
    (1, {"type": "question", "target": "2", "position_1": "on"}, "not your turn"),
    (1, {"type": "arrest", "target": "2", "by": "abberline"}, "Only Abberline makes"),
    (2, {"type": "arrest", "target": "3", "by": "card"}, "during your own turn"),
    (2, {"type": "mark_dead", "target": "3"}, "You kill during your own turn"),
    (3, {"type": "release", "target": "1"}, "Nobody is entering PRISON now"),
    (2, {"type": "release", "target": "2"}, "Only the prisoner"),
    (0, {"type": "question", "target": "0", "position_1": "on"}, "question yourself"),
    (0, {"type": "question", "target": "2"}, "Choose one of Gull (Cy)"),
    (0, {"type": "question", "target": "2", "position_1": "on", "position_2": "on"},
     "Choose only one card"),
    (0, {"type": "black_market", "target": "3", "position_9": "on"}, "numbered 1 to 5"),
    (0, {"type": "next_round"}, "End your turn first"),
    (2, {"type": "next_round"}, "Abberline (Ann) is playing"),
    (0, {"type": "record_outcome", "result": "innocents"},
     "entered by the host at the table screen"),
    (TABLE, {"type": "arrest", "target": "1", "by": "card"}, None),
    (0, {"type": "question", "target": "1", "position_1": "on"}, "Choose two"),
    (0, {"type": "question", "target": "1", "position_1": "on", "position_2": "on"}, None),
    (0, {"type": "black_market", "target": "2", "position_1": "on"}, "one, and only one"),
    (0, {"type": "end_turn"}, None),
    (1, {"type": "black_market", "target": "2", "position_1": "on"}, "spending this turn"),
    (TABLE, {"type": "mark_dead", "target": "3"}, None),
    (1, {"type": "question", "target": "3", "position_3": "on"}, "stay face down until"),
]


@pytest.mark.parametrize("htmx", [False, True])
def test_a_refused_action_says_the_same_at_the_top_whatever_the_secrets(app, htmx):
    """Every seat holds an identity (docs/RULINGS.md#london-1888, "Private refusals"): a
    refusal of its phone says only "Not accepted" at
    the top, its reason behind "Why?", and the page is the same, byte for byte but the
    role behind the peek, on two tables that differ in who is Jack and where each role
    card lies."""
    tables = twin_tables(app)
    codes = [laptop.code for laptop, _phones in tables]
    assert [game.view(state_of(app, code), 1)["me"]["role"] for code in codes] == [
        "jack", "innocent"]
    headers = {"HX-Request": "true"} if htmx else {}
    for actor, action, reason in REFUSALS:
        # The role behind the peek differs (seats 1 and 2): the rest is the same.
        first = same_answer(tables, actor, action, headers)
        if reason is None:
            assert first is None, action
            continue
        top = re.search(r'class="error private" role="alert" data-error>\s*<p>(.*?)</p>',
                        first.text).group(1)
        assert top == "Not accepted: nothing was changed."
        why = html.unescape(first.text[first.text.index("data-why>"):])
        assert why.index(reason) < why.index("</details>")
    assert state_of(app, codes[0])["revealed"][1][:2] == [True, True]


def test_the_table_screen_says_its_refusals_in_the_open(app):
    """The host's buttons act on the public board: a refusal there names its reason at
    the top (the rules refuse outcomes from public facts only)."""
    laptop, _phones = new_table(app)
    refused = laptop.table_act("arrest", target=3, by="card")
    assert refused.status_code == 422
    assert '<p class="error" role="alert" data-error>' in refused.text
    assert "Warren cannot be arrested" in refused.text and "Not accepted" not in refused.text


# --- rounds from the phones (issue 38, point 3; docs/RULINGS.md#london-1888, "The next
# event card", "Protected from arrest") ------------------------------------------------

def marks(page: str, *selectors: str) -> list[int]:
    """Where each data- attribute first stands in the game's component."""
    component = page[page.index('class="l88"'):]
    return [component.index(selector) for selector in selectors]


def way_buttons(page: str, way: str) -> list[str]:
    """The names on the buttons of one way of arresting on a phone."""
    found = re.search(rf'data-way="{way}">(.*?)</div>', page, re.S)
    return re.findall(r'>([^<>]+ \([A-Za-z]+\))</button>', found.group(1)) if found else []


def test_the_absinthe_holders_phone_turns_the_event_which_stands_on_top_of_every_phone(app):
    laptop, phones = new_table(app)
    for seat in range(5):
        assert phones[seat].act("end_turn").status_code == 303
    # One tap on Lusk's phone, inside the now line; nobody else has the button.
    lusk = phones[1].phone().text
    now = lusk[lusk.index("data-now"):lusk.index("</section>", lusk.index("data-now"))]
    assert "the ABSINTHE card passes to you" in now and "data-next-round" in now
    assert 'class="now-line mine"' in lusk
    for seat in (0, 2, 3, 4):
        page = phones[seat].phone().text
        assert "data-next-round" not in page
        assert "Lusk (Bob) receives the ABSINTHE card and turns the next event card" in page
    assert "turns the next event card on their phone (or press Next round)" in (
        laptop.screen().text)
    refused = phones[2].act("next_round")
    assert refused.status_code == 422 and "Lusk (Bob) receives the ABSINTHE" in (
        html.unescape(refused.text))
    assert phones[1].act("next_round").status_code == 303
    state = state_of(app, laptop.code)
    assert state["round"] == 2 and state["holder"] == 1
    card = state["deck"][0]["name"]
    # The event stands under the now line, above the death, the role and the decision.
    for seat, phone in enumerate(phones):
        page = phone.phone().text
        assert card in page[page.index("data-event"):]
        now, event, death, peek = marks(page, "data-now", "data-event", "data-death",
                                        "data-peek")
        assert now < event < death < peek
        if seat == 1:
            assert event < marks(page, "data-decision")[0]
        assert "Round 2 event card" in page
        assert page.count("data-event>") == 1, "shown once, at the top"
    assert "data-event" in laptop.screen().text
    # It stays through the round, until the next card.
    assert phones[1].act("end_turn").status_code == 303
    assert card in phones[3].phone().text.split("data-death")[0]


def test_a_murder_says_so_first_at_the_top_of_every_phone(app):
    laptop, phones = new_table(app)
    state = state_of(app, laptop.code)
    state["deck"].insert(0, state["deck"].pop(next(index for index, card in
                                                   enumerate(state["deck"])
                                                   if card["murder"] and index != 9)))
    deal_again(SimpleNamespace(db=app.config["DATABASE"]), laptop.code, state)
    for seat in range(5):
        phones[seat].act("end_turn")
    assert phones[1].act("next_round").status_code == 303
    for phone in phones:
        page = phone.phone().text
        top = page[page.index("data-event"):page.index("data-death")]
        assert "l88-event murder" in page and "MURDER 1 of 5" in top
        assert state["deck"][0]["name"] in top


def test_the_death_control_is_near_the_top_of_every_living_phone(app):
    laptop, phones = new_table(app)
    for seat, phone in enumerate(phones):
        page = phone.phone().text
        death = marks(page, "data-death")[0]
        assert death < marks(page, "data-peek")[0]
        assert ("A death: you killed someone, or you died" if seat == 0 else "You died") in page
    assert phones[3].act("mark_dead", target=3, killer="").status_code == 303
    dead = phones[3].phone().text
    assert "data-death" not in dead and "Nobody may question you any more" in dead


def test_arrest_buttons_only_for_the_seats_each_way_may_arrest(app):
    """Abberline holds the ABSINTHE card in round 1 and Warren has not resigned: no button
    for Warren away from the Black Market, none for Abberline by any ARREST card."""
    laptop, phones = new_table(app)
    ann = phones[0].phone().text
    assert way_buttons(ann, "abberline") == ["Lusk (Bob)", "Gull (Cy)", "Godley (Ed)"]
    assert way_buttons(ann, "card") == ["Lusk (Bob)", "Gull (Cy)", "Godley (Ed)"]
    assert way_buttons(ann, "black_market") == ["Lusk (Bob)", "Gull (Cy)", "Warren (Di)",
                                                "Godley (Ed)"]
    bob = phones[1].phone().text
    assert way_buttons(bob, "black_market") == ["Gull (Cy)", "Warren (Di)", "Godley (Ed)"]
    assert 'data-way="card"' not in bob, "not his turn"
    refused = phones[1].act("arrest", target=0, by="black_market")
    assert refused.status_code == 422 and "holds the ABSINTHE card" in html.unescape(
        refused.text)


def test_a_prisoners_decision_offers_only_what_he_may_do(app):
    laptop, phones = new_table(app)
    assert laptop.table_act("arrest", target=1, by="abberline").status_code == 303
    assert phones[0].act("end_turn").status_code == 303
    page = phones[1].phone().text
    decision = page[page.index("data-decision"):]
    assert "Question a visitor to the PRISON" in decision
    assert "Black Market" not in decision[:decision.index("</section>")]


def test_rounds_from_the_phones_show_nobody_who_jack_is(app):
    """ROUND_SEQUENCE (the next event card turned on the ABSINTHE's new holder's phone,
    the event on top, an arrest at the Black Market, a prisoner's decision, a death with
    cards face down): every viewer but seats 0 and 1 sees the same whether Jack is seat 0
    or 1, and those two the same at rest."""
    for first, second in play_both(game, *jack_at_0_or_1(), ROUND_SEQUENCE):
        assert_indistinguishable(app, game, first, second, [TABLE, 2, 3, 4])
        for seat in (0, 1):
            assert at_rest(render_component(app, game, first, seat)) == at_rest(
                render_component(app, game, second, seat))


def test_a_turned_role_card_reads_the_same_for_jack_and_an_innocent(app):
    """The phone whose role card was turned says so in the same words whatever it was:
    twin deals, seat 2's role card revealed (Jack's at one, an Innocent's at the other);
    seat 2's phone at rest, the peek dropped, is the same."""
    state = next(s for s in map(dealt, range(100)) if jack_of(s) == 2)
    twin = copy.deepcopy(state)
    slot = state["lines"][2].index("jack")
    twin["lines"][2][slot] = "innocent"
    twin["lines"][3][twin["lines"][3].index("innocent")] = "jack"
    steps = [(0, {"type": "question", "target": "2", f"position_{slot + 1}": "on"})]
    for first, second in play_both(game, state, twin, steps):
        mine = [at_rest(render_component(app, game, one, 2)) for one in (first, second)]
        notes = [re.search(r"data-line-note>([^<]*)<", page).group(1) for page in mine]
        assert notes[0] == notes[1]
    assert "Your role card was turned over for the whole table." in notes[0]
