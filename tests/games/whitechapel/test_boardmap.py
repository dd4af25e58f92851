"""The board map component: what each viewer's map shows, and its HTML.

Views come from the real game (``rules.view``, written in whitechapel/views.py),
played through a short first night on the real board.
"""

from __future__ import annotations

import json
import math
import random
import re

import pytest
from flask import render_template

from companion.games.base import TABLE
from companion.games.whitechapel import rules as whitechapel
from companion.games.whitechapel.board import Board
from companion.games.whitechapel.boardmap import FONT, TAP_PX, map_context, spacing, zoom
from companion.games.whitechapel.deduction import candidate_hideouts, possible_positions
from tests.support.boardfiles import shortest_road, tiny_board

JACK, DETECTIVE = 0, 1



def act(state, actor, **action):
    return whitechapel.apply(state, actor, {k: str(v) for k, v in action.items()},
                             random.Random(7))


def first_night(board: Board, hideout: int = 90, deduction: bool = True):
    """Jack kills on 65 and moves to 82; a search on 83 finds nothing; Jack to move."""
    options = {**whitechapel.default_options(), "board": board.name,
               "deduction_map": deduction}
    state = whitechapel.setup(options, ["Jack", "Ann", "Bob"], random.Random(7))
    state = act(state, JACK, type="hideout", circle=hideout)
    state = act(state, JACK, type="women", circles="3 21 27 65 84")
    state = act(state, TABLE, type="patrols_placed")
    state = act(state, JACK, type="kill", circle=65)
    state = act(state, JACK, type="move", circle=82)
    state = act(state, TABLE, type="search", policeman="blue", circle=83)
    state = act(state, TABLE, type="end_turn")
    assert state["phase"] == "jack"
    return state


def view_of(state, viewer):
    return whitechapel.view(state, viewer)


def marked(context, mark: str) -> set[int]:
    return {c["n"] for c in context["circles"] if mark in c["marks"].split()}


def tappable(context) -> set[int]:
    return {c["n"] for c in context["circles"] if c["tappable"]}


# --- Jack's map ---------------------------------------------------------------------

def test_jack_taps_only_legal_destinations(real):
    context = map_context(real, view_of(first_night(real), JACK))
    coach_ends = {second for _, second in real.coach_routes(82)}
    expected = real.normal_moves(82) | coach_ends | real.alley_moves(82)
    assert tappable(context) == marked(context, "dest") == expected
    assert marked(context, "jack") == {82}
    assert marked(context, "crime") == {65}
    assert marked(context, "hideout") == {90}
    assert [(s["kind"], s["x2"], s["y2"]) for s in context["trail"]] == [
        ("move", *real.positions[82])]
    assert {(s["x2"], s["y2"]) for s in context["exits"]} == {
        real.positions[n] for n in real.normal_moves(82)}


def test_a_tapped_circle_offers_every_way_to_get_there(real):
    context = map_context(real, view_of(first_night(real), JACK), {"to": "83"})
    assert context["picked"] == 83 and marked(context, "picked") == {83}
    ways = [(w["type"], w["fields"]) for w in context["ways"]]
    assert ("move", {"circle": 83}) in ways
    assert ("alley", {"circle": 83}) in ways
    coaches = {(w["fields"]["circle"], w["fields"]["circle2"]) for w in context["ways"]
               if w["type"] == "coach"}
    assert coaches == {route for route in real.coach_routes(82) if route[1] == 83}


@pytest.mark.parametrize("to", ["", "abc", "-3", "999999999", "90", "82", None, "1e3"])
def test_a_tap_on_no_destination_offers_nothing(real, to):
    context = map_context(real, view_of(first_night(real), JACK), {"to": to})
    assert context["picked"] is None and context["ways"] == []


def test_every_way_is_an_action_the_rules_module_accepts(real):
    state = first_night(real)
    context = map_context(real, view_of(state, JACK), {"to": "83"})
    for way in context["ways"]:
        after = act(state, JACK, type=way["type"], **way["fields"])
        assert after["nights"][0]["moves"][-1]["circles"][-1] == 83


def test_escape_is_offered_when_the_hideout_is_one_road_away(real):
    hideout = min(real.normal_moves(82) - real.red)
    state = first_night(real, hideout=hideout)
    context = map_context(real, view_of(state, JACK), {"to": str(hideout)})
    kinds = [w["type"] for w in context["ways"]]
    assert "escape" in kinds and "move" in kinds
    after = act(state, JACK, type="escape", circle=hideout)
    assert after["nights"][0]["escaped"]


def test_jack_taps_his_hideout_before_the_first_night(real):
    options = {**whitechapel.default_options(), "board": real.name}
    state = whitechapel.setup(options, ["Jack", "Ann"], random.Random(7))
    context = map_context(real, view_of(state, JACK), {"to": "90"})
    assert tappable(context) == set(real.numbers) - real.red
    assert [w["type"] for w in context["ways"]] == ["hideout"]
    assert map_context(real, view_of(state, JACK), {"to": "3"})["ways"] == []  # red


# --- the detectives' and the table's maps ----------------------------------------------

@pytest.mark.parametrize("viewer", [TABLE, DETECTIVE])
def test_the_detectives_map_shows_the_deduction_and_no_secret(real, viewer):
    state = first_night(real)
    view = view_of(state, viewer)
    context = map_context(real, view, {"to": "83"})
    assert marked(context, "possible") == possible_positions(real, view["public_facts"])
    assert marked(context, "possible") == real.normal_moves(65) - {83}
    assert marked(context, "searched") == {83}
    assert not marked(context, "jack") and not marked(context, "hideout")
    assert context["trail"] == [] and context["exits"] == []
    assert not tappable(context) and context["ways"] == []


def test_the_deduction_map_is_off_unless_the_table_switched_it_on(real):
    state = first_night(real, deduction=False)
    context = map_context(real, view_of(state, TABLE))
    assert context["layers"] is None and not marked(context, "possible")


def test_jack_does_not_get_the_deduction_layers(real):
    assert map_context(real, view_of(first_night(real), JACK))["layers"] is None


@pytest.mark.parametrize("viewer", [TABLE, DETECTIVE])
def test_maps_of_two_games_differing_only_in_the_hideout_are_identical(real, viewer):
    one = map_context(real, view_of(first_night(real, hideout=90), viewer), {"to": "90"})
    other = map_context(real, view_of(first_night(real, hideout=12), viewer), {"to": "90"})
    assert one == other


def test_hideout_candidates_appear_after_an_escape(real):
    hideout = min(real.normal_moves(82) - real.red)
    state = act(first_night(real, hideout=hideout), JACK, type="escape", circle=hideout)
    view = view_of(state, TABLE)
    context = map_context(real, view)
    assert hideout in marked(context, "candidate")
    assert marked(context, "candidate") == candidate_hideouts(real, view["public_facts"])
    assert context["layers"]["possible"] == []  # night 2 has no crime yet


def test_the_reveal_draws_every_night_for_everyone(real):
    state = first_night(real)
    state["phase"] = "over"
    state["outcome"] = {"winner": "detectives", "reason": "square15", "night": 1}
    for viewer in (TABLE, DETECTIVE, JACK):
        context = map_context(real, view_of(state, viewer))
        assert marked(context, "hideout") == {90}
        assert [s["kind"] for s in context["trail"]] == ["move"]
        assert not tappable(context)
        assert context["layers"] is None  # the true path replaces the deduction
    phone = [float(v) for v in map_context(real, view_of(state, DETECTIVE))["viewbox"].split()]
    for circle in (65, 82, 90):
        x, y = real.positions[circle]
        assert phone[0] < x < phone[0] + phone[2] and phone[1] < y < phone[1] + phone[3]


def test_the_table_sees_the_whole_board_and_a_phone_pans_it_zoomed_in(real):
    state = first_night(real)
    left, top, right, bottom = real.bounds()
    whole = [float(v) for v in map_context(real, view_of(state, TABLE))["viewbox"].split()]
    assert whole[0] < left and whole[1] < top
    assert whole[0] + whole[2] > right and whole[1] + whole[3] > bottom
    assert map_context(real, view_of(state, TABLE))["zoom"] is None
    close = map_context(real, view_of(state, JACK))
    assert [float(v) for v in close["viewbox"].split()] == whole
    zoomed = close["zoom"]
    assert zoomed["start"] == "zoomed"  # on Jack's circle, 82
    x, y = real.positions[82]
    assert (zoomed["x"], zoomed["y"]) == (round((x - whole[0]) * zoomed["scale"]),
                                          round((y - whole[1]) * zoomed["scale"]))
    assert zoomed["width"] >= whole[2] * zoomed["scale"]


@pytest.mark.parametrize("board", ["real", "tiny"])
def test_zoomed_in_every_tap_disc_is_a_thumb_wide_and_never_touches_another(real, board):
    drawn = real if board == "real" else tiny_board()
    zoomed = zoom(drawn, ())
    points = list(drawn.positions.values())
    closest = min(math.dist(a, b) for i, a in enumerate(points) for b in points[i + 1:])
    assert 2 * zoomed["hit"] * zoomed["scale"] >= TAP_PX
    assert 2 * zoomed["hit"] <= closest
    assert FONT * zoomed["scale"] >= 14


def test_a_spread_focus_opens_on_the_whole_board(real):
    assert zoom(real, real.numbers)["start"] == "overview"
    assert zoom(real, ())["start"] == "overview"
    assert zoom(real, (82, 83))["start"] == "zoomed"
    assert zoom(real, real.numbers, centre=82)["start"] == "zoomed"


def test_the_hideout_map_opens_zoomed_in_on_the_middle_of_the_board(real):
    """Issue 36: the hideout, anywhere, is a tap on the map and one on its button: no
    tap to zoom in first (a thumb pans to his part of town)."""
    hideout = map_context(real, view_of(whitechapel.setup(
        {**whitechapel.default_options(), "board": real.name}, ["J", "A"],
        random.Random(7)), JACK))
    assert hideout["zoom"]["start"] == "zoomed" and len(tappable(hideout)) > 150
    left, top, width, height = (hideout["box"][k] for k in ("x", "y", "width", "height"))
    scale = hideout["zoom"]["scale"]
    middle = (left + width / 2, top + height / 2)
    opened = (left + hideout["zoom"]["x"] / scale, top + hideout["zoom"]["y"] / scale)
    assert math.dist(middle, opened) < 2 * spacing(real)
    assert hideout["targets"] is None  # no buttons: anywhere on the board


def test_the_map_is_json_for_templates(real):
    for viewer in (TABLE, DETECTIVE, JACK):
        context = map_context(real, view_of(first_night(real), viewer), {"to": "83"})
        assert json.loads(json.dumps(context)) == context


def test_the_tiny_board_draws_too():
    tiny = tiny_board()
    view = {"role": "table", "night": 1, "options": {"deduction_map": True},
            "crime_scenes": [{"night": 1, "circles": [6]}], "clues": [],
            "public_facts": {"night": 1, "crime_scenes": [6], "moves": ["move"]}}
    context = map_context(tiny, view)
    assert marked(context, "possible") == {2, 5, 7, 10, 11}
    assert len(context["circles"]) == len(tiny.numbers)
    assert context["roads"].count("M") == len(tiny.roads)


# --- the HTML ---------------------------------------------------------------------------

def render(app, context, part: str = "_map.html") -> str:
    """The map, or the ways to the circle Jack tapped (``_jack_ways.html``)."""
    with app.test_request_context("/"):
        return render_template(f"games/whitechapel/{part}", board_map=context,
                               act_url="/t/ABCD/act", table={"version": 12, "code": "ABCD"},
                               pick_swap='hx-target="[data-map-body]"')


def test_the_map_renders_circles_links_and_forms(app, real):
    context = map_context(real, view_of(first_night(real), JACK), {"to": "83"})
    html = render(app, context)
    assert html.count("<g class=\"circle") == len(real.numbers)
    assert set(map(int, re.findall(r'<a href="\?to=(\d+)"', html))) == tappable(context)
    assert re.search(r'class="circle jack path" data-circle="82"', html)  # Jack, on his path
    assert "<form" not in html  # the ways to the circle tapped are under the map
    ways = render(app, context, "_jack_ways.html")
    assert 'data-picked="83" open' in ways
    forms = re.findall(r'<form method="post" action="/t/ABCD/act".*?</form>', ways, re.S)
    assert len(forms) == len(context["ways"])
    assert all('name="version" value="12"' in form and 'name="csrf"' in form for form in forms)
    assert any('name="type" value="coach"' in form and 'name="circle2" value="83"' in form
               for form in forms)
    # The Content-Security-Policy forbids inline scripts and styles.
    for page in (html, ways):
        assert "<script" not in page and "style=" not in page and "hx-on" not in page


def test_the_detectives_map_renders_the_deduction(app, real):
    context = map_context(real, view_of(first_night(real), TABLE))
    html = render(app, context)
    assert f"Jack can be on {len(context['layers']['possible'])} circles" in html
    shown = set(map(int, re.search(r'data-possible="([\d ]*)"', html).group(1).split()))
    assert shown == set(context["layers"]["possible"])
    assert "<form" not in html and "<a href" not in html


# --- Hell: Jack taps his victims ---------------------------------------------------------



def to_hell(board: Board, night_women: dict[int, str | None], hideout: int = 90):
    """Nights before the last of ``night_women`` end in an escape; the last is in Hell 5,
    or in Hell 2 (the women to place) when its women are None."""
    options = {**whitechapel.default_options(), "board": board.name}
    state = whitechapel.setup(options, ["Jack", "Ann"], random.Random(7))
    state = act(state, JACK, type="hideout", circle=hideout)
    for number, women in sorted(night_women.items()):
        if women is None:
            return state
        state = act(state, JACK, type="women", circles=women)
        state = act(state, TABLE, type="patrols_placed")
        if number == max(night_women):
            return state
        victims = [int(c) for c in women.split()][:2 if number == 3 else 1]
        fields = ["circle", "circle2"][:len(victims)]
        state = act(state, JACK, type="kill", **dict(zip(fields, victims, strict=True)))
        if state["phase"] == "police":
            state = act(state, TABLE, type="end_turn")
        route = shortest_road(board, victims[-1], hideout)
        for circle in route[:-1]:
            state = act(state, JACK, type="move", circle=circle)
            state = act(state, TABLE, type="end_turn")
        state = act(state, JACK, type="escape", circle=hideout)
    return state


def test_jack_taps_a_wretched_at_time_one_then_confirms(real):
    state = to_hell(real, {1: "3 21 27 65 84"})
    context = map_context(real, view_of(state, JACK), {"to": "65"})
    assert tappable(context) == {3, 21, 27, 65, 84}
    assert "victim" in context["prompt"]
    assert [(w["type"], w["fields"], w["confirm"]) for w in context["ways"]] == [
        ("kill", {"circle": 65}, True)]
    assert act(state, JACK, type="kill", circle=65)["nights"][0]["crimes"] == [65]


def test_after_waiting_the_victim_is_tapped_where_a_wretched_can_be(real):
    """docs/RULINGS.md#letters-from-whitechapel, "The victim after waiting": after k
    waits, within k roads of a marked woman's circle, never on a crime scene; every
    circle offered is a kill the rules accept."""
    state = to_hell(real, {1: "65 3 21 27 84", 2: "3 21 27 147"})
    for waits in (1, 2):
        state = act(state, JACK, type="wait")
        state = act(state, TABLE, type="wretched_moved")
        context = map_context(real, view_of(state, JACK))
        scenes = set(state["nights"][0]["crimes"])
        reach = real.circles_within([3, 21, 27, 147], waits)
        assert tappable(context) == set(reach) - scenes
        assert tappable(context) < set(real.numbers) - scenes
        for circle in tappable(context):
            assert act(state, JACK, type="kill", circle=circle)["nights"][1]["crimes"] == [circle]


def test_jack_ticks_the_marked_women_on_red_circles_of_his_first_screen(real):
    """Issue 36: the red circles as buttons on his first screen, the same for every
    Jack (public: red circles); what he ticks is sent as the women's circles."""
    state = to_hell(real, {1: None})
    context = map_context(real, view_of(state, JACK))
    assert not tappable(context)  # not on the map
    assert context["targets"] == {"kind": "women", "circles": sorted(real.red), "needed": 5}
    after = act(state, JACK, type="women", circles="3 21 27 65 84")
    assert after["nights"][0]["women"] == [3, 21, 27, 65, 84]


def test_the_women_are_never_offered_on_a_crime_scene_and_only_to_jack(real):
    state = to_hell(real, {1: "65 3 21 27 84", 2: None})
    assert state["phase"] == "women" and state["night"] == 2
    context = map_context(real, view_of(state, JACK))
    assert context["targets"]["circles"] == sorted(set(real.red) - {65})
    for viewer in (TABLE, 1):
        assert map_context(real, view_of(state, viewer))["targets"] is None


def test_jacks_destinations_on_his_first_screen_are_his_maps_by_way(real):
    """Issue 36: every circle he may tap on the map, in a row per way of getting there
    (a circle reached on foot and through an alley is in both); none to a detective."""
    state = first_night(real)
    context = map_context(real, view_of(state, JACK))
    rows = {row["way"]: row["circles"] for row in context["targets"]["rows"]}
    coach_ends = {second for _, second in real.coach_routes(82)}
    assert rows == {"move": sorted(real.normal_moves(82)), "coach": sorted(coach_ends),
                    "alley": sorted(real.alley_moves(82))}
    assert set().union(*rows.values()) == tappable(context)
    assert map_context(real, view_of(state, DETECTIVE))["targets"] is None
    assert map_context(real, view_of(state, TABLE))["targets"] is None


def test_jacks_victims_on_his_first_screen_are_where_a_wretched_can_be(real):
    state = to_hell(real, {1: "3 21 27 65 84"})
    context = map_context(real, view_of(state, JACK))
    assert context["targets"] == {"kind": "kill", "circles": [3, 21, 27, 65, 84],
                                  "double": False}
    assert set(context["targets"]["circles"]) == tappable(context)


def test_double_event_jack_taps_the_first_victim_then_the_second(real):
    state = to_hell(real, {1: "65 3 21 27 84", 2: "147 149 158 21", 3: "3 27 84"})
    assert state["night"] == 3
    first = map_context(real, view_of(state, JACK), {"to": "27"})
    assert "first victim" in first["prompt"]
    assert first["ways"] == [{"href": "?first=27", "label": "First victim on 27"}]
    second = map_context(real, view_of(state, JACK), {"first": "27", "to": "3"})
    assert second["query"] == "first=27&"
    assert tappable(second) == {3, 84}
    assert marked(second, "picked") == {27, 3}
    (way,) = second["ways"]
    assert way["fields"] == {"circle": 27, "circle2": 3}
    after = act(state, JACK, type="kill", **way["fields"])
    assert after["nights"][2]["crimes"] == [27, 3]
    assert map_context(real, view_of(state, JACK), {"first": "65"})["query"] == ""


def test_the_kill_buttons_ask_for_a_second_tap(app, real):
    state = to_hell(real, {1: "3 21 27 65 84"})
    html = render(app, map_context(real, view_of(state, JACK), {"to": "84"}), "_jack_ways.html")
    assert 'class="confirm big danger" data-confirm="Kill on 84?"' in html
    assert 'name="circle" value="84"' in html


# --- the end of a night and the table's events -----------------------------------------

def test_the_end_of_a_night_is_public_and_names_the_square_not_the_circle(real):
    """Issue 22, point 8: every page, until Jack has placed the next night's women."""
    state = to_hell(real, {1: "65 3 21 27 84", 2: None}, hideout=90)
    first = state["nights"][0]
    square = 1 + len(shortest_road(real, 65, 90))  # the crime on I, then a move a square
    ends = [view_of(state, viewer)["night_end"] for viewer in (JACK, TABLE, 1)]
    assert ends[0] == ends[1] == ends[2] == {
        "night": 1, "date": ends[0]["date"], "square": square, "crimes": [65],
        "clues": [c["circle"] for c in first["clues"]], "arrests": []}
    assert 90 not in ends[0].values()  # the hideout's circle stays Jack's
    events = view_of(state, TABLE)["events"]
    assert events[0] == f"Night 1: Jack reached his hideout on square {square}"
    assert events[-1] == "Night 1: a crime on 65"
    placed = act(state, JACK, type="women", circles="3 21 27 147")
    assert view_of(placed, TABLE)["night_end"] is None
    assert view_of(to_hell(real, {1: None}), TABLE)["night_end"] is None
