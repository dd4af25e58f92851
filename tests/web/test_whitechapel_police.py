"""Police on the map through the Flask client: the option, the detectives placing and
moving policemen by tapping the map, the table screen, and non-interference on
every view of a game with the police on the map (their positions are public)."""

from __future__ import annotations

import random
import re
import threading

import pytest

from companion.games.base import TABLE
from companion.games.whitechapel import rules as wc
from companion.games.whitechapel.board import load_board
from companion.games.whitechapel.policemap import PHONE_WIDTH, TAP
from companion.games.whitechapel.state import _police_order
from tests.support.boardfiles import TINY_BOARD, real_board_path
from tests.support.httpdevice import HttpDevice
from tests.support.noninterference import (
    assert_indistinguishable,
    play_both,
    render_component,
)
from tests.support.realserver import Server
from tests.support.webflow import Device, seated_table
from tests.test_concurrency import Sender
from tests.web.test_whitechapel import turn_of
from tests.web.test_whitechapel_board import (
    NAME,
    head_phone,
    make_app,
    refused_creation,
    state_of,
)

STARTS = {"blue": 44, "yellow": 107, "brown": 101, "red": 119, "green": 186}


def police_table(app):
    laptop, phones = seated_table(app, "whitechapel", ["Jack", "Ann", "Bob"],
                                  board=NAME, police_map="on", deduction_map="on")
    jack = phones[0]
    assert jack.act("hideout", circle=90).status_code == 303
    assert jack.act("women", circles="3 21 27 65 84").status_code == 303
    assert head_phone(app, laptop, phones).act("patrols_placed").status_code == 303
    assert jack.act("kill", circle=65).status_code == 303
    return laptop, phones


def tap_path(device, colour: str, crossing: int) -> str:
    """Tap the crossing on the map as a thumb would (one tap: every crossing in reach is
    a target on the first map); the page that offers the confirm button."""
    page = device.get(f"/t/{device.code}/me?cop={colour}").text
    target = re.search(rf'href="(\?cop={colour}&amp;to={crossing})"', page)
    assert target, f"crossing {crossing} is not one tap away"
    page = device.get(f"/t/{device.code}/me" + target.group(1).replace("&amp;", "&")).text
    assert f'data-police-confirm="{colour}:{crossing}"' in page
    return page


def test_the_detectives_tap_each_policeman_onto_his_crossing(tmp_path):
    app = make_app(tmp_path)
    laptop, phones = police_table(app)
    ann = phones[1]
    page = ann.phone().text
    assert "data-police-map" in page and 'data-police-prompt' in page
    screen = laptop.screen().text
    # One map on the table screen, the board's; the host may place them (folded).
    assert "Alarm whistles" in screen and "data-table-map" in screen
    assert "data-police-map" not in screen and 'data-cop="blue"' in screen
    bystander = Device(app, laptop.code).screen().text  # another screen: no pickers
    assert "data-table-map" in bystander and "data-cop=" not in bystander
    owners = state_of(app, laptop.code)["policemen"]
    # Each detective places his own (Ann: blue, brown, green; Bob: yellow, red).
    assert owners["yellow"] == 2
    assert "not yours to place" in ann.act("place", policeman="yellow", crossing=107).text
    for colour, crossing in STARTS.items():
        phone = phones[owners[colour]]
        if colour == "green":  # a refused placement says why and changes nothing
            before = laptop.version()
            refused = phone.act("place", policeman="green", crossing=44)
            assert refused.status_code == 422
            assert "The blue policeman stands on the crossing between 29, 30 and 50" in (
                refused.text)
            assert laptop.version() == before
        tap_path(phone, colour, crossing)
        assert phone.act("place", policeman=colour, crossing=crossing).status_code == 303
    state = state_of(app, laptop.code)
    assert state["phase"] == "jack" and state["cops"]["at"] == STARTS
    screen = laptop.screen().text
    for colour, crossing in STARTS.items():
        assert f'data-cop-at="{colour}:{crossing}"' in screen


def test_a_wrong_police_move_is_refused_with_the_rule(tmp_path):
    app = make_app(tmp_path)
    laptop, phones = police_table(app)
    for colour, crossing in STARTS.items():
        assert laptop.table_act("place", policeman=colour, crossing=crossing).status_code == 303
    assert phones[0].act("move", circle=66).status_code == 303
    state = state_of(app, laptop.code)
    yellow = phones[state["policemen"]["yellow"]]
    page = tap_path(yellow, "yellow", 109)
    assert "Yellow to the crossing between 99, 100 and 120" in page
    assert yellow.act("move_policeman", policeman="yellow", crossing=109).status_code == 303
    turn_of(app, laptop, phones, "yellow")
    before = laptop.version()
    refused = yellow.act("search", policeman="yellow", circle=83)
    assert refused.status_code == 422
    assert "he can look for clues or arrest only on 99, 100, 120" in refused.text
    assert laptop.version() == before
    page = yellow.phone().text
    for circle in (99, 100, 120):
        assert f'aria-label="Circle {circle}"' in page


def test_every_map_target_is_44_px_on_a_phone(tmp_path):
    """Targets are sized in board units so that they are TAP px at PHONE_WIDTH."""
    app = make_app(tmp_path)
    laptop, phones = police_table(app)
    page = phones[1].get(f"/t/{laptop.code}/me?cop=blue").text
    box = re.search(r'<svg viewBox="([\d. -]+)"[^>]*aria-label="Policemen', page).group(1)
    width = float(box.split()[2])
    for radius in re.findall(r'class="target[^"]*" cx="[^"]+" cy="[^"]+" r="([\d.]+)"', page):
        assert 2 * float(radius) * PHONE_WIDTH / width >= TAP - 2


def police_state(hideout: str, route: list[str], placed: bool = True) -> dict:
    board = load_board(real_board_path())
    options = {**wc.parse_options({"board": NAME, "deduction_map": "on", "police_map": "on"},
                                  3), "board_graph": board.graph()}
    state = wc.setup(options, ["Jack", "Ann", "Bob"], random.Random(3))
    steps = [(0, {"type": "hideout", "circle": hideout}),
             (0, {"type": "women", "circles": "3 21 27 65 84"}),
             (TABLE, {"type": "patrols_placed"}),
             (0, {"type": "kill", "circle": "65"})]
    steps += [(TABLE, {"type": "place", "policeman": c, "crossing": str(x)})
              for c, x in STARTS.items() if placed]
    for actor, action in steps:
        state = wc.apply(state, actor, action, random.Random(0))
    for circle in route:
        state = wc.apply(state, 0, {"type": "move", "circle": circle}, random.Random(0))
    return state


STAY = [(TABLE, {"type": "move_policeman", "policeman": c, "crossing": str(x)})
        for c, x in STARTS.items() if c != "yellow"]
"""Hunting 2's end: every policeman but yellow stays where he stands."""


def test_views_with_the_police_on_the_map_do_not_tell_jacks_secrets(tmp_path):
    app = make_app(tmp_path)
    first, second = police_state("90", ["66"]), police_state("12", ["83"])
    assert first["cops"] == second["cops"]
    steps = [(TABLE, {"type": "move_policeman", "policeman": "yellow", "crossing": "109"}),
             *STAY,
             (TABLE, {"type": "search", "policeman": "blue", "circle": "50"}),
             (TABLE, {"type": "arrest", "policeman": "yellow", "circle": "99"}),
             (TABLE, {"type": "end_turn"})]
    for state_a, state_b in play_both(wc, first, second, steps):
        assert_indistinguishable(app, wc, state_a, state_b, [TABLE, 1, 2])


def test_a_board_without_crossings_is_refused_for_the_police_at_creation(tmp_path):
    page = refused_creation(make_app(tmp_path, TINY_BOARD), {
        "players": "3", "board": "Tiny test district", "police_map": "on"})
    assert "has no police crossings" in page


# --- two detectives at the same moment (docs/RULINGS.md#letters-from-whitechapel,
# "Policemen at the same time") ----------------------------------------------------------

def test_two_detectives_placing_from_the_same_page_are_both_accepted(tmp_path):
    """At the alarm Ann and Bob both tap from the page of one version: both stand. A
    detective's other actions from a stale page, and another's policeman, are refused."""
    app = make_app(tmp_path)
    laptop, phones = police_table(app)
    seen = laptop.version()
    state = state_of(app, laptop.code)
    mine = {seat: [c for c in wc.POLICEMEN if state["policemen"][c] == seat] for seat in (1, 2)}
    first, second = mine[1][0], mine[2][0]
    assert phones[1].act("place", policeman=first, crossing=STARTS[first],
                         version=seen).status_code == 303
    assert phones[2].act("place", policeman=second, crossing=STARTS[second],
                         version=seen).status_code == 303
    at = state_of(app, laptop.code)["cops"]["at"]
    assert (at[first], at[second]) == (STARTS[first], STARTS[second])
    # Bob's page is behind again: Ann's other policeman on Bob's colour's crossing is
    # checked against the table as it is now.
    taken = phones[1].act("place", policeman=mine[1][1], crossing=STARTS[second], version=seen)
    assert taken.status_code == 422 and f"The {second} policeman stands" in taken.text
    # Another's policeman from a stale page: the table moved on (and it is not his).
    stale = phones[1].act("place", policeman=mine[2][1], crossing=STARTS[mine[2][1]],
                          version=seen)
    assert stale.status_code == 409 and "moved on" in stale.text
    # A policeman placed since the page was drawn, placed again from it: refused too.
    again = phones[1].act("place", policeman=first, crossing=STARTS[mine[1][1]], version=seen)
    assert again.status_code == 409
    assert state_of(app, laptop.code)["cops"]["at"][first] == STARTS[first]


def test_a_stale_search_is_refused(tmp_path):
    """Hunting 3 answers questions: a search from a page behind the table may have been
    asked without the answer before it, so it is refused as before."""
    app = make_app(tmp_path)
    laptop, phones = police_table(app)
    state = state_of(app, laptop.code)
    for colour, crossing in STARTS.items():
        phones[state["policemen"][colour]].act("place", policeman=colour, crossing=crossing)
    assert phones[0].act("move", circle=66).status_code == 303
    state = state_of(app, laptop.code)
    speaker = wc._speaking(state)
    seat = state["policemen"][speaker]
    seen = laptop.version()
    other = next(c for c in wc.POLICEMEN if state["policemen"][c] != seat)
    assert phones[state["policemen"][other]].act(
        "move_policeman", policeman=other, crossing=STARTS[other]).status_code == 303
    near = sorted(load_board(real_board_path()).circles_next_to(STARTS[speaker]))
    stale = phones[seat].act("search", policeman=speaker, circle=near[0], version=seen)
    assert stale.status_code == 409


@pytest.mark.slow
def test_two_detectives_placing_at_the_same_instant_through_the_real_server(tmp_path):
    """Two phones post their placements at the same instant from pages of one version,
    to the real server (waitress, SQLite): both are accepted."""
    server = Server(tmp_path / "companion.sqlite").start()
    try:
        laptop = HttpDevice(server.url)
        code = laptop.create("whitechapel", 3, board=NAME, police_map="on")
        phones = []
        for seat, name in enumerate(["Jack", "Ann", "Bob"]):
            phone = HttpDevice(server.url)
            assert phone.join(code, seat, name).status == 303
            phones.append(phone)
        assert laptop.host("start", laptop.version()).status == 303
        jack = phones[0]
        assert jack.act("hideout", laptop.version(), circle=90).status == 303
        assert jack.act("women", laptop.version(), circles="3 21 27 65 84").status == 303
        head = next(p for p in phones[1:] if 'data-act="patrols_placed"' in
                    p.get(f"/t/{code}/me").text)
        assert head.act("patrols_placed", laptop.version()).status == 303
        assert jack.act("kill", laptop.version(), circle=65).status == 303
        own = {}
        for seat in (1, 2):
            page = phones[seat].get(f"/t/{code}/me").text
            own[seat] = re.search(r'data-policemen="([a-z ]+)"', page).group(1).split()
        version = laptop.version()
        senders = [Sender(phones[seat], server.port) for seat in (1, 2)]
        forms = [{"type": "place", "policeman": own[seat][0],
                  "crossing": STARTS[own[seat][0]], "version": version} for seat in (1, 2)]
        barrier = threading.Barrier(2)
        path = f"/t/{code}/me/act"
        threads = [threading.Thread(target=s.post, args=(path, f, barrier))
                   for s, f in zip(senders, forms, strict=True)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
        assert [s.result[0] for s in senders] == [303, 303], [s.result for s in senders]
        table = laptop.get(f"/t/{code}").text
        for seat in (1, 2):
            colour = own[seat][0]
            assert f'data-cop-at="{colour}:{STARTS[colour]}"' in table
        assert laptop.version() == version + 2
    finally:
        server.stop()


def refresh_address(page: str) -> str:
    """Where the phone's live refresh asks for its page again."""
    return re.search(r'<main id="view"[^>]*hx-get="([^"]*)"', page).group(1).replace("&amp;", "&")


def test_a_live_refresh_keeps_a_detectives_pick_and_nothing_of_jacks(tmp_path):
    """The view's "refresh_keeps": a detective's pick (?cop=, ?to=, ?speak=, ?arrest=)
    survives another phone's move; any other argument, and every argument of Jack's
    (his picks are secret), is dropped."""
    app = make_app(tmp_path)
    laptop, phones = police_table(app)
    me = f"/t/{laptop.code}/me"
    page = phones[1].get(me + "?cop=blue&to=44&zoom=3&speak=red").text
    assert refresh_address(page) == me + "?cop=blue&to=44&speak=red"
    assert refresh_address(phones[1].get(me).text) == me
    assert refresh_address(phones[0].get(me + "?to=66&women=3.21&cop=blue").text) == me


# Each pick that lives in a detective's address, and the fragment it draws.
PICKS = {"": "data-now", "?cop=yellow": "data-crossing=", "?cop=yellow&to=109":
         "data-police-confirm", "?cop=blue&to=75": "all five placed", "?speak=yellow":
         "data-map-asks", "?speak=yellow&arrest=yellow": "data-arrest-circles",
         "?speak=blue": 'data-search-circles="blue"'}


def test_every_fragment_of_a_detectives_phone_is_the_same_whatever_jacks_secrets(tmp_path):
    """The now line, the map's targets and its circles (searching, arresting), the
    confirm of a pick, whatever the address holds: the same for two Jacks with other
    hideouts and paths, at the alarm and through a police's turn."""
    app = make_app(tmp_path)
    alarm = [police_state(h, [], placed=False) for h in ("90", "12")]
    setting = [(TABLE, {"type": "place", "policeman": c, "crossing": str(x)})
               for c, x in STARTS.items() if c != "blue"]
    pairs = list(play_both(wc, *alarm, setting))
    hunt = police_state("90", ["66"]), police_state("12", ["83"])
    board = load_board(real_board_path())
    # Yellow moves; the policemen before him in the order pass, the first searching
    # on 50 first (no clue at either table); then yellow speaks.
    order = _police_order(hunt[0])
    before = order[:order.index("yellow")]
    steps = [(TABLE, {"type": "move_policeman", "policeman": "yellow", "crossing": "109"}),
             *STAY]
    if before:
        steps.append((TABLE, {"type": "search", "policeman": before[0],
                              "circle": str(min(board.circles_next_to(STARTS[before[0]])))}))
    steps += [(TABLE, {"type": "done", "policeman": c}) for c in before]
    pairs += list(play_both(wc, *hunt, steps))
    drawn = set()
    for state_a, state_b in pairs:
        for viewer in (1, 2):
            for query, fragment in PICKS.items():
                page = render_component(app, wc, state_a, viewer, query=query)
                assert page == render_component(app, wc, state_b, viewer, query=query), (
                    viewer, query)
                if fragment in page:
                    drawn.add(query)
    assert drawn == set(PICKS)  # every fragment was drawn somewhere
