"""Letters from Whitechapel: the rulebook's worked examples, each phase, every
refusal the issue names, full games to each outcome, and non-interference."""

from __future__ import annotations

import copy
import json
import random

import pytest

from companion.games.base import TABLE, RuleError
from companion.games.whitechapel import rules as wc
from companion.games.whitechapel.state import _police_order, _speaking
from tests.support.whitechapel_play import turn_of

JACK = 0


# --- helpers ---------------------------------------------------------------

def new_game(players: int = 3, seed: int = 7, **form: str) -> dict:
    options = wc.parse_options(form, players)
    names = [f"P{n}" for n in range(players)]
    return wc.setup(options, names, random.Random(seed))


def act(state: dict, actor, **fields: str) -> dict:
    """Apply an action, checking that the input state is left alone."""
    before = copy.deepcopy(state)
    after = wc.apply(state, actor, fields, random.Random(0))
    assert state == before
    json.dumps(after)
    return after


def refused(state: dict, actor, **fields: str) -> str:
    """The RuleError message of an illegal action; the state is unchanged."""
    before = copy.deepcopy(state)
    with pytest.raises(RuleError) as caught:
        wc.apply(state, actor, fields, random.Random(0))
    assert state == before
    assert caught.value.message
    return caught.value.message


def head_seat(state: dict) -> int:
    return state["policemen"][state["head_tiles"][state["night"] - 1]]


def to_blood(state: dict, women: str = "3 21 27 65 84") -> dict:
    """From the start of a night to Jack's Blood on the streets."""
    if state["phase"] == "hideout":
        state = act(state, JACK, type="hideout", circle="90")
    marked = wc.NIGHTS[state["night"]]["marked"]
    scenes = {str(c) for night in state["nights"] for c in night["crimes"]}
    free = [c for c in women.split() if c not in scenes]
    state = act(state, JACK, type="women", circles=" ".join(free[:marked]))
    state = act(state, head_seat(state), type="patrols_placed")
    if state["phase"] == "letter":
        state = act(state, JACK, type="no_letter")
    assert state["phase"] == "blood"
    return state


def to_hunting(state: dict, crime: str = "65", second: str = "3",
               women: str = "3 21 27 65 84") -> dict:
    """Through the Hell phase, killing at time I."""
    state = to_blood(state, women)
    if state["night"] == wc.DOUBLE_EVENT:
        return act(state, JACK, type="kill", circle=crime, circle2=second)
    return act(state, JACK, type="kill", circle=crime)


def police_pass(state: dict) -> dict:
    assert state["phase"] == "police"
    return act(state, TABLE, type="end_turn")


def move(state: dict, kind: str = "move", *circles: int) -> dict:
    """Jack moves, then the police pass (unless the game ended)."""
    fields = {"type": kind, "circle": str(circles[0])}
    if kind == "coach":
        fields["circle2"] = str(circles[1])
    state = act(state, JACK, **fields)
    return state if state["phase"] != "police" else police_pass(state)


def seat_of(state: dict, colour: str) -> int:
    return state["policemen"][colour]


@pytest.fixture
def hunting() -> dict:
    """Night 1, Jack has just killed on 127 (a Wretched moved there while he waited)."""
    state = to_blood(new_game())
    for _ in range(2):
        state = act(state, JACK, type="wait")
        state = act(state, head_seat(state), type="wretched_moved")
    return act(state, JACK, type="kill", circle="127")


# --- setup and options -----------------------------------------------------

def test_protocol_constants():
    assert wc.NAME == "whitechapel"
    assert wc.TITLE == "Letters from Whitechapel"
    assert (wc.MIN_PLAYERS, wc.MAX_PLAYERS) == (2, 6)
    assert {0} == set(wc.FIXED_SEATS)
    assert wc.MIN_PLAYERS <= wc.DEFAULT_PLAYERS <= wc.MAX_PLAYERS


@pytest.mark.parametrize("count", range(2, 7))
def test_even_deal_gives_every_detective_a_policeman(count):
    options = wc.parse_options({}, count)
    assert options["policemen"] == {}  # "deal evenly", remembered as such
    assert wc.parse_options(wc.form_from(options), count) == options
    deal = new_game(players=count)["policemen"]
    assert set(deal) == set(wc.POLICEMEN)
    per_seat = [sum(1 for s in deal.values() if s == seat) for seat in range(1, count)]
    assert min(per_seat) >= 1 and max(per_seat) - min(per_seat) <= 1
    labels = wc.seat_labels(count, wc.default_options())
    assert labels[0] == "Jack the Ripper" and len(labels) == count
    assert all(label.startswith("Detective") for label in labels[1:])


def test_explicit_policemen_and_seat_labels():
    form = {"policeman_blue": "1", "policeman_yellow": "2", "policeman_brown": "1",
            "policeman_red": "1", "policeman_green": "2"}
    options = wc.parse_options(form, 3)
    assert options["policemen"] == {"blue": 1, "yellow": 2, "brown": 1, "red": 1, "green": 2}
    assert wc.seat_labels(3, options) == [
        "Jack the Ripper", "Detective 1 (blue, brown, red)", "Detective 2 (yellow, green)"]
    assert wc.parse_options(wc.form_from(options), 3) == options


@pytest.mark.parametrize("form, message", [
    ({"policeman_blue": "1"}, "every policeman"),
    ({"policeman_blue": "3", "policeman_yellow": "1", "policeman_brown": "1",
      "policeman_red": "1", "policeman_green": "1"}, "between 1 and 2"),
    ({"policeman_blue": "0", "policeman_yellow": "1", "policeman_brown": "1",
      "policeman_red": "1", "policeman_green": "1"}, "between 1 and 2"),
    ({"policeman_blue": "x", "policeman_yellow": "1", "policeman_brown": "1",
      "policeman_red": "1", "policeman_green": "1"}, "whole number"),
    ({"policeman_blue": "1", "policeman_yellow": "1", "policeman_brown": "1",
      "policeman_red": "1", "policeman_green": "1"}, "Detective 2 has no policeman"),
    ({"letter_names": "a\nb"}, "exactly 4"),
])
def test_bad_options_are_refused(form, message):
    with pytest.raises(RuleError) as caught:
        wc.parse_options(form, 3)
    assert message in caught.value.message


def test_options_default_off_and_board_kept():
    options = wc.parse_options({"board": "whitechapel"}, 4)
    assert options["false_clues"] is False and options["letters"] is False
    assert options["deduction_map"] is False
    assert wc.parse_options({"deduction_map": "on", "board": "B"}, 4)["deduction_map"] is True
    with pytest.raises(RuleError, match="deduction map needs a board"):
        wc.parse_options({"deduction_map": "on"}, 4)
    assert options["board"] == "whitechapel"
    assert wc.parse_options(wc.form_from(options), 4)["board"] == "whitechapel"
    # A name alone is no board: the web layer attaches a loaded board's graph
    # (tests/games/test_whitechapel_board.py plays with one).
    state = wc.setup(options, ["a", "b", "c", "d"], random.Random(1))
    assert state["board"] is None
    assert wc.view(state, TABLE)["options"]["board"] is None


def test_deal_that_no_longer_fits_the_table_is_dealt_evenly():
    options = wc.parse_options({"policeman_blue": "4", "policeman_yellow": "1",
                                "policeman_brown": "2", "policeman_red": "3",
                                "policeman_green": "3"}, 5)
    state = wc.setup(options, ["j", "a", "b"], random.Random(1))
    assert state["policemen"] == wc.even_deal(3)


def test_head_of_the_investigation_tiles_are_shuffled_once():
    orders = {tuple(new_game(seed=seed)["head_tiles"]) for seed in range(20)}
    assert all(sorted(order) == sorted(wc.POLICEMEN) for order in orders)
    assert len(orders) > 1


# --- the hideout and Hell ----------------------------------------------------

def test_hideout_first_and_only_from_jack():
    state = new_game()
    assert state["phase"] == "hideout"
    assert "hideout" in refused(state, JACK, type="hideout")
    assert "between 1 and 195" in refused(state, JACK, type="hideout", circle="196")
    assert "between 1 and 195" in refused(state, JACK, type="hideout", circle="0")
    assert "whole number" in refused(state, JACK, type="hideout", circle="ninety")
    refused(state, 1, type="hideout", circle="90")
    refused(state, TABLE, type="hideout", circle="90")
    refused(state, JACK, type="women", circles="3 21 27 65 84")
    state = act(state, JACK, type="hideout", circle="90")
    assert state["hideout"] == 90 and state["phase"] == "women"
    refused(state, JACK, type="hideout", circle="91")


def test_women_tokens_prompted_and_marked_circles_entered():
    state = act(new_game(), JACK, type="hideout", circle="90")
    prompt = wc.view(state, JACK)["prompt"]
    assert "8 woman tokens" in prompt and "5 marked" in prompt and "3 Coach" in prompt
    assert "5 circles" in refused(state, JACK, type="women", circles="3 21 27")
    assert "different" in refused(state, JACK, type="women", circles="3 3 27 65 84")
    assert "between 1" in refused(state, JACK, type="women", circles="3 21 27 65 999")
    refused(state, 1, type="women", circles="3 21 27 65 84")
    one_each = act(state, JACK, type="women", woman1="3", woman2="21", woman3="27",
                   woman4="65", woman5="84")
    assert "5 circles" in refused(state, JACK, type="women", woman1="3", woman2="21")
    state = act(state, JACK, type="women", circles="3, 21,27  65;84")
    assert one_each == state
    assert state["nights"][0]["women"] == [3, 21, 27, 65, 84]
    assert state["phase"] == "patrols"


def test_patrols_placed_by_the_head_of_the_investigation():
    state = act(act(new_game(), JACK, type="hideout", circle="90"),
                JACK, type="women", circles="3 21 27 65 84")
    head = head_seat(state)
    other = 2 if head == 1 else 1
    view = wc.view(state, TABLE)
    assert view["head"]["colour"] == state["head_tiles"][0]
    assert "place the 7 police patrol tokens on yellow-bordered crossings" in view["prompt"]
    refused(state, JACK, type="patrols_placed")
    refused(state, other, type="patrols_placed")
    assert wc.actions(state, head) == ["patrols_placed"]
    assert act(state, TABLE, type="patrols_placed")["phase"] == "blood"


def test_head_tile_stays_hidden_until_the_patrols_phase():
    state = act(new_game(), JACK, type="hideout", circle="90")
    assert wc.view(state, TABLE)["head"] is None
    assert wc.view(state, TABLE)["heads"] == []


def test_victims_revealed_then_wait_until_v_where_jack_must_kill():
    state = to_blood(new_game())
    view = wc.view(state, TABLE)
    assert view["time"] == "I" and view["wretched_at_start"] == [3, 21, 27, 65, 84]
    assert wc.actions(state, JACK) == ["wait", "kill"]
    for roman in ("II", "III", "IV", "V"):
        state = act(state, JACK, type="wait")
        assert state["phase"] == "suspense"
        assert roman in wc.view(state, TABLE)["prompt"]
        refused(state, JACK, type="wretched_moved")
        state = act(state, head_seat(state), type="wretched_moved")
        assert "turn over one police patrol token" in wc.view(state, TABLE)["prompt"]
        assert wc.view(state, TABLE)["time"] == roman
    assert wc.actions(state, JACK) == ["kill"]
    assert "can no longer wait" in refused(state, JACK, type="wait")
    state = act(state, JACK, type="kill", circle="100")
    assert wc.view(state, JACK)["sheet"]["nights"][0]["row"][4] == {
        "square": 5, "label": "V", "circle": 100, "kind": "crime"}


def test_kill_at_time_i_must_be_on_a_wretched():
    state = to_blood(new_game())
    assert "No wretched stands on 100" in refused(state, JACK, type="kill", circle="100")
    refused(state, 1, type="kill", circle="65")
    refused(state, JACK, type="kill")
    state = act(state, JACK, type="kill", circle="65")
    assert state["nights"][0]["crimes"] == [65] and state["phase"] == "jack"


def test_crime_on_an_existing_crime_scene_is_refused():
    state = to_hunting(new_game(), crime="65")
    state = act(state, JACK, type="escape")  # 65 ... straight home is enough here
    assert state["night"] == 2
    state = to_blood(state, women="21 27 84 3")
    state = act(state, JACK, type="wait")
    state = act(state, TABLE, type="wretched_moved")
    assert "already a crime scene" in refused(state, JACK, type="kill", circle="65")


def test_women_not_on_crime_scenes_from_the_second_night():
    state = to_hunting(new_game(), crime="65")
    state = act(state, JACK, type="escape")
    assert "crime scene" in refused(state, JACK, type="women", circles="65 3 21 27")
    assert "Dawn" in wc.view(state, TABLE)["prompt"]


# --- the worked examples ------------------------------------------------------

def test_worked_example_127_to_103(hunting):
    assert "Alarm whistles" in wc.view(hunting, TABLE)["prompt"]
    state = act(hunting, JACK, type="move", circle="103")
    row = wc.view(state, JACK)["sheet"]["nights"][0]["row"]
    assert [row[2]["circle"], row[3]["circle"]] == [127, 103]
    assert row[3]["kind"] == "move"
    table = wc.view(state, TABLE)
    assert [sq["square"] for sq in table["track"] if sq["jack"]] == [4]
    assert table["public_facts"]["moves"] == ["move"]
    assert all("circle" not in sq for sq in table["track"])


def test_worked_example_coach_69_then_56(hunting):
    state = move(hunting, "move", 103)
    state = act(state, JACK, type="coach", circle="69", circle2="56")
    night = wc.view(state, JACK)["sheet"]["nights"][0]
    assert [night["row"][4]["circle"], night["row"][5]["circle"]] == [69, 56]
    assert night["moves"][-1] == {"kind": "coach", "circles": [69, 56]}
    table = wc.view(state, TABLE)
    assert [sq["token"] for sq in table["track"][4:6]] == ["coach", "coach"]
    assert table["tokens"]["coaches"] == 2
    assert table["public_facts"]["moves"] == ["move", "coach"]
    assert wc.view(state, JACK)["jack"]["location"] == 56


def test_worked_example_alley_56_to_72(hunting):
    state = move(hunting, "move", 103)
    state = move(state, "coach", 69, 56)
    state = act(state, JACK, type="alley", circle="72")
    table = wc.view(state, TABLE)
    assert table["track"][6]["token"] == "alley" and table["tokens"]["alleys"] == 1
    assert table["public_facts"]["moves"] == ["move", "coach", "alley"]
    assert wc.view(state, JACK)["sheet"]["nights"][0]["row"][6]["circle"] == 72


def test_worked_example_searching_99_then_100(hunting):
    state = move(hunting, "move", 100)
    state = turn_of(act(state, JACK, type="move", circle="120"), "yellow")
    yellow = seat_of(state, "yellow")
    state = act(state, yellow, type="search", policeman="yellow", circle="99")
    table = wc.view(state, TABLE)
    assert table["log"][-1]["result"] == "no clue" and table["clues"] == []
    state = act(state, yellow, type="search", policeman="yellow", circle="100")
    table = wc.view(state, TABLE)
    assert table["clues"] == [100]
    assert table["log"][-1] == {"policeman": "yellow", "action": "search", "circle": 100,
                                "result": "clue", "after_move": 2}
    assert "already acted" in refused(state, yellow, type="search", policeman="yellow",
                                      circle="120")
    facts = table["public_facts"]
    assert facts["clues"] == [{"circle": 100, "after_move": 2, "search": True}]
    assert facts["searched_empty"] == [{"circle": 99, "after_move": 2}]
    questions = wc.view(state, JACK)["jack"]["questions"]
    assert [(q["circle"], q["result"]) for q in questions] == [(99, "no clue"), (100, "clue")]
    assert questions[-1]["square"] == 4


def test_worked_example_arrest_at_99_fails(hunting):
    state = turn_of(act(hunting, JACK, type="move", circle="103"), "yellow")
    yellow = seat_of(state, "yellow")
    state = act(state, yellow, type="arrest", policeman="yellow", circle="99")
    assert not wc.is_over(state)
    line = wc.view(state, TABLE)["log"][-1]
    assert line["result"] == "not here" and set(line) == {
        "policeman", "action", "circle", "result", "after_move"}
    assert wc.view(state, TABLE)["public_facts"]["failed_arrests"] == [
        {"circle": 99, "after_move": 1}]
    refused(state, yellow, type="arrest", policeman="yellow", circle="103")


def test_the_answer_to_a_search_or_an_arrest_stands_until_the_next_action(hunting):
    state = act(hunting, JACK, type="move", circle="103")
    assert wc.view(state, TABLE)["answer"] is None
    yellow, red = seat_of(state, "yellow"), seat_of(state, "red")
    state = act(turn_of(state, "yellow"), yellow, type="search", policeman="yellow", circle="99")
    for viewer in (TABLE, JACK, 1, 2):
        assert wc.view(state, viewer)["answer"] == wc.view(state, TABLE)["log"][-1]
    assert wc.view(state, TABLE)["answer"]["result"] == "no clue"
    state = act(turn_of(state, "red"), red, type="arrest", policeman="red", circle="98")
    assert wc.view(state, TABLE)["answer"]["result"] == "not here"
    refused(state, JACK, type="hideout", circle="98")  # a refusal changes nothing
    assert wc.view(state, TABLE)["answer"]["result"] == "not here"
    # Red was the last to speak: Jack moves, and that clears the answer.
    state = act(state, JACK, type="move", circle="104")
    assert wc.view(state, TABLE)["answer"] is None  # any next action clears it


def test_worked_example_double_event_27_then_3():
    state = new_game()
    for night in (1, 2):
        state = to_hunting(state, crime=("65", "84")[night - 1])
        state = act(state, JACK, type="escape")
    assert state["night"] == 3
    state = to_blood(state, women="3 21 27")
    refused(state, JACK, type="kill", circle="27")
    assert "two different" in refused(state, JACK, type="kill", circle="27", circle2="27")
    state = act(state, JACK, type="kill", circle="27", circle2="3")
    assert state["phase"] == "police"  # the detectives act first
    sheet = wc.view(state, JACK)["sheet"]["nights"][2]
    assert [sheet["row"][0]["circle"], sheet["row"][1]["circle"]] == [27, 3]
    assert wc.view(state, JACK)["jack"]["location"] == 3
    table = wc.view(state, TABLE)
    assert table["crime_scenes"][-1]["circles"] == [3, 27]
    assert [sq["square"] for sq in table["track"] if sq["jack"]] == [2]
    assert table["tokens"] == {"coaches": 2, "alleys": 1, "squares": 13}
    # the first crime scene is not where he is
    state = act(state, TABLE, type="arrest", policeman="blue", circle="27")
    assert not wc.is_over(state)
    won = act(state, TABLE, type="arrest", policeman="red", circle="3")
    assert won["outcome"]["winner"] == "detectives"


# --- hunting refusals ---------------------------------------------------------------

def test_movement_refusals(hunting):
    assert "between 1 and 195" in refused(hunting, JACK, type="move", circle="196")
    assert "another circle" in refused(hunting, JACK, type="move", circle="127")
    assert "from each other" in refused(hunting, JACK, type="coach", circle="5", circle2="5")
    assert "start" in refused(hunting, JACK, type="coach", circle="127", circle2="5")
    assert "start" in refused(hunting, JACK, type="coach", circle="5", circle2="127")
    refused(hunting, JACK, type="coach", circle="5")
    refused(hunting, 1, type="move", circle="5")
    refused(hunting, TABLE, type="move", circle="5")
    refused(hunting, JACK, type="fly", circle="5")
    refused(hunting, JACK, type="search", policeman="blue", circle="5")


def test_more_coaches_or_alleys_than_the_night_allows(hunting):
    """Hell 1: "1 August 31st, 1888 | 3 Coach tokens and 2 Alley tokens"; the
    refusal names the night's allowance."""
    state = hunting
    for first in (10, 20, 30):
        state = move(state, "coach", first, first + 1)
    assert "coach" not in wc.actions(state, JACK)
    assert refused(state, JACK, type="coach", circle="50", circle2="51") == (
        "No Coach token left: the first night allows 3 Coach tokens, and you have used all 3.")
    state = move(state, "alley", 40)
    state = move(state, "alley", 41)
    assert refused(state, JACK, type="alley", circle="42") == (
        "No Alley token left: the first night allows 2 Alley tokens, and you have used all 2.")
    assert wc.view(state, TABLE)["tokens"]["coaches"] == 0


def test_coach_needs_two_squares(hunting):
    state = hunting  # crime on square 3
    for circle in range(10, 21):
        state = move(state, "move", circle)
    assert wc.view(state, TABLE)["tokens"]["squares"] == 1
    assert "coach" not in wc.actions(state, JACK)
    refused(state, JACK, type="coach", circle="40", circle2="41")


def test_escape_refusals(hunting):
    assert "only escape on your hideout" in refused(hunting, JACK, type="escape", circle="91")
    state = move(hunting, "coach", 91, 90)
    # Offered on his hideout as anywhere (the button must not tell where he is).
    assert "escape" in wc.actions(state, JACK)
    assert "with a Coach" in refused(state, JACK, type="escape")
    state = move(move(hunting, "move", 91), "alley", 90)
    assert "with an Alley" in refused(state, JACK, type="escape")
    state = move(move(hunting, "move", 91), "move", 90)
    assert "already on your hideout" in refused(state, JACK, type="escape")
    escaped = act(move(state, "move", 91), JACK, type="escape", circle="90")
    assert escaped["night"] == 2 and escaped["nights"][0]["escaped"]
    assert "not something" in refused(escaped, JACK, type="move", circle="5")


def test_escape_by_coach_is_not_offered_and_escape_clears_the_night(hunting):
    state = act(hunting, JACK, type="escape")
    assert state["phase"] == "women" and state["night"] == 2
    table = wc.view(state, TABLE)
    assert table["clues"] == [] and table["log"] == []
    assert table["public_facts"]["escapes"] == [1]
    prior = table["public_facts"]["prior_nights"][0]
    assert prior["crime_scenes"] == [127] and prior["moves"] == ["move"]
    assert table["tokens"]["coaches"] == 2


def test_square_15_without_escape_loses_at_once(hunting):
    state = hunting
    for circle in range(10, 21):
        state = move(state, "move", circle)
    state = act(state, JACK, type="move", circle="90")  # square 15, hideout, no escape
    assert wc.is_over(state)
    assert state["outcome"] == {"winner": "detectives", "reason": "square15", "night": 1}
    assert "square 15" in wc.view(state, TABLE)["prompt"]


def test_escape_on_square_15_is_in_time(hunting):
    state = hunting
    for circle in range(10, 21):
        state = move(state, "move", circle)
    state = act(state, JACK, type="escape")
    assert not wc.is_over(state) and state["night"] == 2


def test_searches_and_arrests_only_in_the_police_phase(hunting):
    refused(hunting, TABLE, type="search", policeman="blue", circle="127")
    refused(hunting, TABLE, type="arrest", policeman="blue", circle="127")
    state = to_blood(new_game())
    refused(state, TABLE, type="search", policeman="blue", circle="65")


def test_search_refusals(hunting):
    state = act(hunting, JACK, type="move", circle="103")
    blue = seat_of(state, "blue")
    assert blue == 1  # the even deal with two detectives
    assert "not yours" in refused(state, 2, type="search", policeman="blue", circle="5")
    refused(state, JACK, type="search", policeman="blue", circle="5")
    assert "policeman" in refused(state, blue, type="search", policeman="purple", circle="5")
    assert "policeman" in refused(state, blue, type="search", circle="5")
    assert "between 1" in refused(state, blue, type="search", policeman="blue", circle="-3")
    state = act(state, blue, type="search", policeman="blue", circle="5")
    assert "already searched 5" in refused(state, blue, type="search", policeman="blue",
                                           circle="5")
    assert "cannot also make an arrest" in refused(state, blue, type="arrest",
                                                   policeman="blue", circle="103")
    state = act(state, blue, type="search", policeman="blue", circle="127")  # crime scene
    assert wc.view(state, TABLE)["clues"] == [127]
    assert "already a clue" in refused(state, TABLE, type="search", policeman="red",
                                       circle="127")


def test_next_policeman_ends_the_previous_search(hunting):
    state = act(hunting, JACK, type="move", circle="103")
    state = act(state, TABLE, type="search", policeman="blue", circle="5")
    state = act(state, TABLE, type="search", policeman="red", circle="6")
    assert "blue" in state["police"]["done"]
    refused(state, TABLE, type="search", policeman="blue", circle="7")


def test_all_policemen_acting_gives_jack_the_move(hunting):
    state = act(hunting, JACK, type="move", circle="103")
    order = _police_order(state)
    spoken = []
    for _ in wc.POLICEMEN:
        assert state["phase"] == "police"
        colour = _speaking(state)
        spoken.append(colour)
        state = act(state, seat_of(state, colour), type="done", policeman=colour)
    assert state["phase"] == "jack"
    assert spoken == order  # from the Head of the Investigation clockwise


def test_hunting_3_from_the_head_clockwise_and_the_others_told_whom_they_wait_for(hunting):
    """Hunting 3: "Starting with the head of the investigation and proceeding clockwise
    around the table, each detective states, for each policeman pawn he controls..."."""
    state = act(hunting, JACK, type="move", circle="103")
    first = _speaking(state)
    waiting = next(c for c in wc.POLICEMEN if seat_of(state, c) != seat_of(state, first))
    assert "search" not in wc.actions(state, seat_of(state, waiting))
    message = refused(state, seat_of(state, waiting), type="search", policeman=waiting,
                      circle="99")
    assert message.startswith(f"{state['players'][seat_of(state, first)]} speaks first, "
                              f"for the {first} policeman")
    assert "search" in wc.actions(state, seat_of(state, first))


def test_detective_views_their_own_policemen(hunting):
    state = act(hunting, JACK, type="move", circle="103")
    for seat in (1, 2):
        me = wc.view(state, seat)["me"]
        assert me["policemen"] == [c for c in wc.POLICEMEN if state["policemen"][c] == seat]
        assert set(me["to_act"]) == set(me["policemen"])
        assert "sheet" not in wc.view(state, seat)


def test_arrest_success_ends_the_game_and_reveals_the_sheet(hunting):
    state = act(hunting, JACK, type="move", circle="103")
    state = act(state, TABLE, type="arrest", policeman="green", circle="103")
    assert wc.is_over(state)
    assert state["outcome"]["winner"] == "detectives"
    for viewer in (TABLE, 1, 2, JACK):
        view = wc.view(state, viewer)
        assert view["reveal"]["hideout"] == 90
        assert view["reveal"]["nights"][0]["crimes"] == [127]
        assert view["reveal"]["nights"][0]["moves"] == [{"kind": "move", "circles": [103]}]
        assert "arrested" in view["prompt"] and view["actions"] == []
    refused(state, TABLE, type="end_turn")


def test_wrong_seats_and_garbage():
    state = new_game()
    for actor in (-1, 3, 99, "x", None, True):
        refused(state, actor, type="hideout", circle="90")
    refused(state, JACK)
    refused(state, JACK, type="")
    before = copy.deepcopy(state)
    with pytest.raises(RuleError):
        wc.apply(state, JACK, "not a dict", random.Random(0))  # type: ignore[arg-type]
    assert state == before


# --- no legal move ---------------------------------------------------------------

def test_no_legal_move_declared_by_detectives_confirmed_by_jack(hunting):
    refused(hunting, JACK, type="no_legal_move")
    state = act(hunting, 2, type="no_legal_move")
    assert "no legal move" in wc.view(state, TABLE)["prompt"]
    refused(state, 1, type="confirm_trapped")
    refused(state, TABLE, type="no_legal_move")
    denied = act(state, JACK, type="deny_trapped")
    assert not denied["trapped_claim"] and denied["phase"] == "jack"
    over = act(state, JACK, type="confirm_trapped")
    assert over["outcome"]["reason"] == "no_legal_move"
    assert over["outcome"]["winner"] == "detectives"
    moved = act(state, JACK, type="move", circle="5")
    assert not moved["trapped_claim"]


# --- optional rules ------------------------------------------------------------------

def test_false_clues_earned_placed_like_clues_and_discarded_at_dawn():
    state = new_game(false_clues="on")
    state = to_blood(state)
    for _ in range(2):
        state = act(state, JACK, type="wait")
        state = act(state, TABLE, type="wretched_moved")
    state = act(state, JACK, type="kill", circle="30")
    path = [31, 32, 33, 34, 35]
    for circle in path:
        state = move(state, "move", circle)
    state = act(state, JACK, type="move", circle="36")
    assert wc.actions(state, JACK) == []
    for colour, circle in zip(wc.POLICEMEN, [30] + path[:4], strict=True):
        state = act(state, TABLE, type="search", policeman=colour, circle=str(circle))
    state = act(state, JACK, type="move", circle="37")
    assert wc.view(state, JACK)["jack"]["false_clues_left"] == 1
    assert wc.actions(state, JACK) == ["false_clue"]
    assert "false_clues_left" not in json.dumps(wc.view(state, TABLE))
    assert "already a clue" in refused(state, JACK, type="false_clue", circle="31")
    refused(state, 1, type="false_clue", circle="150")
    placed = act(state, JACK, type="false_clue", circle="150")
    table = wc.view(placed, TABLE)
    assert table["clues"][-1] == 150
    assert table["public_facts"]["clues"][-1] == {"circle": 150, "after_move": 7,
                                                  "search": False}
    assert table["public_facts"]["false_clues"] is True
    assert wc.actions(placed, JACK) == []
    # Unused ones go at dawn: keep one, escape, and the next night starts with none.
    dawn = act(police_pass(state), JACK, type="escape")
    assert dawn["night"] == 2
    assert wc.view(dawn, JACK)["jack"]["false_clues_left"] == 0


def test_false_clues_off_by_default():
    state = to_hunting(new_game())
    assert wc.view(state, JACK)["jack"]["false_clues_left"] == 0


def test_jacks_letters_from_night_two_one_each_night():
    state = new_game(letters="on")
    state = to_hunting(state)  # no letter on night 1
    assert state["nights"][0]["letter"] is None
    state = act(state, JACK, type="escape")
    state = act(state, JACK, type="women", circles="3 21 27 84")
    state = act(state, TABLE, type="patrols_placed")
    assert state["phase"] == "letter"
    refused(state, 1, type="letter", letter="Jack's letter 1")
    assert "not a letter" in refused(state, JACK, type="letter", letter="Dear Boss")
    state = act(state, JACK, type="letter", letter="Jack's letter 2")
    assert state["phase"] == "blood"
    assert wc.view(state, TABLE)["letters"] == [{"night": 2, "letter": "Jack's letter 2"}]
    state = act(act(state, JACK, type="kill", circle="3"), JACK, type="escape")
    state = act(state, JACK, type="women", circles="21 27 84")
    state = act(state, TABLE, type="patrols_placed")
    assert "Jack's letter 2" not in wc.view(state, JACK)["jack"]["letters_left"]
    refused(state, JACK, type="letter", letter="Jack's letter 2")
    assert act(state, JACK, type="no_letter")["phase"] == "blood"


def test_letter_names_are_the_tables():
    state = new_game(letters="on", letter_names="Dear Boss\nSaucy Jacky\nFrom Hell\nOpenshaw")
    assert state["options"]["letter_names"][0] == "Dear Boss"


# --- full games ----------------------------------------------------------------------

NIGHT_PLANS = {
    1: ("3 21 27 65 84", ["65"], [66, 67, 68]),
    2: ("3 21 27 84", ["84"], [85, 86]),
    3: ("3 21 27", ["27", "3"], [4, 5]),
    4: ("21", ["21"], [22]),
}


def play_night(state: dict, escape: bool = True) -> dict:
    """One night: the women, a kill at time I, a few moves with searches, home."""
    women, crimes, path = NIGHT_PLANS[state["night"]]
    state = to_hunting(state, *crimes, women=women) if len(crimes) == 2 else \
        to_hunting(state, crimes[0], women=women)
    if state["phase"] == "police":
        state = act(state, TABLE, type="search", policeman="blue", circle=crimes[0])
        state = police_pass(state)
    for circle in path:
        state = act(state, JACK, type="move", circle=str(circle))
        state = act(state, TABLE, type="search", policeman="red", circle=str(circle - 1))
        state = police_pass(state)
    return act(state, JACK, type="escape") if escape else state


def test_full_game_jack_wins():
    state = new_game(players=6)
    for night in (1, 2, 3, 4):
        assert state["night"] == night
        state = play_night(state)
    assert wc.is_over(state)
    assert state["outcome"] == {"winner": "jack", "reason": "escape", "night": 4}
    reveal = wc.view(state, 3)["reveal"]
    assert [n["crimes"] for n in reveal["nights"]] == [[65], [84], [27, 3], [21]]
    assert all(n["escaped"] for n in reveal["nights"])
    assert wc.view(state, TABLE)["public_facts"]["escapes"] == [1, 2, 3, 4]
    assert wc.view(state, TABLE)["nights"][3]["date"] == "November 9th, 1888"


def test_full_game_arrest_on_the_fourth_night():
    state = new_game(players=2)
    for _ in (1, 2, 3):
        state = play_night(state)
    state = play_night(state, escape=False)
    state = act(state, JACK, type="move", circle="40")
    state = act(state, 1, type="arrest", policeman="green", circle="40")
    assert state["outcome"] == {"winner": "detectives", "reason": "arrest", "night": 4}
    assert "on 40" in wc.view(state, TABLE)["outcome"]["text"]


def test_full_game_square_15_on_the_fourth_night():
    state = new_game(players=4)
    for _ in (1, 2, 3):
        state = play_night(state)
    state = play_night(state, escape=False)
    while not wc.is_over(state):
        state = move(state, "move", 100 + wc.view(state, TABLE)["tokens"]["squares"])
    assert state["outcome"]["reason"] == "square15"


def test_full_game_no_legal_move_on_the_fourth_night():
    state = new_game(players=5)
    for _ in (1, 2, 3):
        state = play_night(state)
    state = play_night(state, escape=False)
    state = act(state, 4, type="no_legal_move")
    state = act(state, JACK, type="confirm_trapped")
    assert state["outcome"] == {"winner": "detectives", "reason": "no_legal_move", "night": 4}
    assert [n["escaped"] for n in wc.view(state, 2)["reveal"]["nights"]] == [
        True, True, True, False]


def test_the_double_event_can_end_the_game_before_jack_moves():
    state = new_game()
    for _ in (1, 2):
        state = play_night(state)
    state = to_hunting(state, "27", "3", women="3 21 27")
    assert wc.actions(state, JACK) == []
    state = act(state, TABLE, type="arrest", policeman="yellow", circle="3")
    assert state["outcome"] == {"winner": "detectives", "reason": "arrest", "night": 3}


# --- views ---------------------------------------------------------------------------

def test_table_view_has_everything_the_issue_asks(hunting):
    state = act(hunting, JACK, type="move", circle="103")
    view = wc.view(state, TABLE)
    json.dumps(view)
    assert view["night"] == 1 and view["date"] == "August 31st, 1888"
    assert view["phase_name"].startswith("Hunting") and view["acting"] == "Police"
    assert view["head"]["colour"] in wc.POLICEMEN
    assert [sq["label"] for sq in view["track"][:6]] == ["I", "II", "III", "IV", "V", "6"]
    assert view["time"] == "III"
    assert view["tokens"] == {"coaches": 3, "alleys": 2, "squares": 11}
    assert view["crime_scenes"] == [{"night": 1, "date": "August 31st, 1888",
                                     "circles": [127]}]
    assert set(view["public_facts"]) == {"night", "crime_scenes", "moves", "clues",
                                         "searched_empty", "failed_arrests", "blocked",
                                         "police", "escapes", "prior_nights", "false_clues"}
    assert "sheet" not in view and view["reveal"] is None
    assert "90" not in json.dumps(view["public_facts"])


def test_jacks_view_is_the_whole_sheet(hunting):
    view = wc.view(act(hunting, JACK, type="move", circle="103"), JACK)
    sheet = view["sheet"]
    assert sheet["hideout"] == 90 and len(sheet["nights"]) == 4
    assert all(len(n["row"]) == 15 for n in sheet["nights"])
    assert view["jack"]["location"] == 103 and view["role"] == "jack"


# --- non-interference -------------------------------------------------------------------

VIEWERS = (TABLE, 1, 2)


def assert_same_public(first: dict, second: dict) -> None:
    for viewer in VIEWERS:
        assert wc.view(first, viewer) == wc.view(second, viewer)
        assert wc.actions(first, viewer) == wc.actions(second, viewer)


def test_hideout_is_invisible():
    first = act(new_game(), JACK, type="hideout", circle="90")
    second = act(new_game(), JACK, type="hideout", circle="12")
    assert_same_public(first, second)
    assert_same_public(to_hunting(first), to_hunting(second))


def test_womens_marks_are_invisible_until_turned_up():
    base = act(new_game(), JACK, type="hideout", circle="90")
    first = act(base, JACK, type="women", circles="3 21 27 65 84")
    second = act(base, JACK, type="women", circles="147 149 158 65 84")
    assert_same_public(first, second)
    first, second = (act(s, TABLE, type="patrols_placed") for s in (first, second))
    assert wc.view(first, TABLE) != wc.view(second, TABLE)  # Hell 4 turns them up


def test_path_is_invisible(hunting):
    first = move(move(hunting, "move", 103), "coach", 69, 56)
    second = move(move(hunting, "move", 128), "coach", 11, 12)
    assert_same_public(first, second)
    first = act(first, JACK, type="alley", circle="72")
    second = act(second, JACK, type="alley", circle="13")
    assert_same_public(first, second)
    # Searches of a circle off both paths and a failed arrest stay equal too.
    first, second = (act(s, TABLE, type="search", policeman="blue", circle="150")
                     for s in (first, second))
    first, second = (act(s, TABLE, type="arrest", policeman="red", circle="151")
                     for s in (first, second))
    assert_same_public(first, second)


def test_double_event_order_is_invisible():
    state = new_game()
    for night in (1, 2):
        state = to_hunting(state, crime=("65", "84")[night - 1])
        state = act(state, JACK, type="escape")
    state = to_blood(state, women="3 21 27")
    first = act(state, JACK, type="kill", circle="27", circle2="3")
    second = act(state, JACK, type="kill", circle="3", circle2="27")
    assert_same_public(first, second)
    first, second = (act(s, TABLE, type="search", policeman="blue", circle="3")
                     for s in (first, second))
    assert_same_public(first, second)


def test_unused_false_clue_shows_only_on_jacks_phone():
    def night_with_clues(path_end: int) -> dict:
        state = new_game(false_clues="on")
        state = to_blood(state)
        state = act(state, JACK, type="wait")
        state = act(state, TABLE, type="wretched_moved")
        state = act(state, JACK, type="kill", circle="30")
        for circle in (31, 32, 33, 34, path_end):
            state = move(state, "move", circle)
        return state

    first = night_with_clues(35)
    second = night_with_clues(36)
    first = act(first, JACK, type="move", circle="40")
    second = act(second, JACK, type="move", circle="40")
    for colour, circle in zip(wc.POLICEMEN, (30, 31, 32, 33, 34), strict=True):
        first, second = (act(s, TABLE, type="search", policeman=colour, circle=str(circle))
                         for s in (first, second))
    assert wc.view(first, JACK)["jack"]["false_clues_left"] == 1
    assert_same_public(first, second)
