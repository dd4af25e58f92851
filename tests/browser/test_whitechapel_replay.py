"""Letters from Whitechapel, a night replayed, in a real Chromium: a game on the shipped
board played to its end (its actions sent straight to the server by each device, to keep
the test short: the taps of a night are other tests' business), then the table screen at
1280x800 steps through night 1 by taps and by the arrow keys, plays it, and a phone at
360 px follows the table screen."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from companion.games.whitechapel.board import load_board
from tests.support.boardfiles import real_board_path
from tests.support.html import csrf_of
from tests.support.pages import confirm, shot
from tests.support.phone_quality import check_phone, check_screen
from tests.support.whitechapel_pages import create_and_seat, tap

SCREEN = {"width": 1280, "height": 800}
CRIME = 65


def sender(page, server_url: str, code: str):
    """``send(kind, **fields)``: a game action from this device (a phone's seat, or the
    host's table screen with ``table=True``), as its own form would post it."""
    csrf = csrf_of(page.request.get(server_url + "/").text())

    def send(kind: str, table: bool = False, **fields) -> None:
        version = page.request.get(f"{server_url}/t/{code}/version").json()["version"]
        url = f"{server_url}/t/{code}/{'act' if table else 'me/act'}"
        answer = page.request.post(url, form={"csrf": csrf, "version": str(version),
                                              "type": kind, **{k: str(v) for k, v in
                                                               fields.items()}},
                                   max_redirects=0)
        assert answer.status == 303, (kind, fields, answer.status, answer.text()[:300])
    return send


def play_to_the_end(jack_send, table_send) -> dict:
    """Night 1: the crime on 65, two movements home (a search in vain between); night 2:
    the crime on 3, two movements, and the police arrest Jack."""
    board = load_board(real_board_path())
    start = min(board.normal_moves(CRIME) - board.red)
    home = next(n for n in sorted(board.normal_moves(start) - {CRIME} - board.red)
                if board.is_legal_hideout(n))
    far = min(n for n in board.numbers if n not in board.circles_within([CRIME], 3))
    jack_send("hideout", circle=home)
    jack_send("women", circles="3 21 27 65 84")
    table_send("patrols_placed", table=True)
    jack_send("kill", circle=CRIME)
    jack_send("move", circle=start)
    table_send("search", table=True, policeman="blue", circle=far)
    table_send("end_turn", table=True)
    jack_send("escape", circle=home)
    jack_send("women", circles="3 21 27 84")
    table_send("patrols_placed", table=True)
    jack_send("kill", circle=3)
    first = min(board.normal_moves(3) - board.red)
    jack_send("move", circle=first)
    table_send("end_turn", table=True)
    second = min(board.normal_moves(first) - {3})
    jack_send("move", circle=second)
    table_send("arrest", table=True, policeman="blue", circle=second)
    return {"start": start, "home": home, "far": far}


def step_of(page) -> str:
    return page.locator("#replay").get_attribute("data-step")


def test_the_table_screen_replays_a_night_and_a_phone_follows(server, laptop, phone):
    laptop.set_viewport_size(SCREEN)
    laptop.goto(server.url + "/new/whitechapel")
    laptop.select_option("select[name=players]", "3")
    laptop.check("input[name=deduction_map]")
    jack, ann, bob = phone(), phone(), phone()
    ann.set_viewport_size({"width": 360, "height": 740})
    code = create_and_seat(laptop, server.url, [jack, ann, bob])
    way = play_to_the_end(sender(jack, server.url, code), sender(laptop, server.url, code))

    # The game's end on the table screen: "Replay the night" (1 tap) opens the last night.
    expect(laptop.locator("[data-outcome]")).to_be_visible()
    check_screen(laptop, "whitechapel-replay-link")
    tap(laptop, "[data-replay-link]")
    expect(laptop.locator("#replay")).to_have_attribute("data-night", "2")
    # Night 1 (1 tap): its crime, then Jack's path drawn move by move beside what the
    # detectives could know (the deduction set on the map and as a count).
    tap(laptop, "[data-replay-night='1']")
    expect(laptop.locator("#replay")).to_have_attribute("data-night", "1")
    expect(laptop.locator("[data-replay-play]")).to_be_visible()
    check_screen(laptop, "whitechapel-replay-step-0")
    assert laptop.locator("line.trail").count() == 0
    assert laptop.locator("[data-known-path]").inner_text().endswith(f"hideout: {way['home']}")
    deduction = laptop.locator("[data-deduction]")
    map_box = laptop.locator(".wc-replay svg").bounding_box()
    side_box = laptop.locator("[data-known]").bounding_box()
    assert map_box["x"] + map_box["width"] <= side_box["x"]  # side by side
    assert map_box["y"] + map_box["height"] <= SCREEN["height"]  # the map fits the screen
    tap(laptop, "[data-replay-next]")  # 1 tap a step
    expect(laptop.locator("#replay")).to_have_attribute("data-step", "1")
    expect(laptop.locator("line.trail")).to_have_count(1)
    expect(deduction).to_contain_text("Jack can be on")
    expect(laptop.locator("[data-known-searched]")).to_contain_text(str(way["far"]))
    check_screen(laptop, "whitechapel-replay-step-1")
    assert re.search(r"/replay\?night=1&step=1$", laptop.url)  # each step an address
    tap(laptop, "[data-replay-next]")
    expect(laptop.locator("#replay")).to_have_attribute("data-step", "2")
    expect(laptop.locator("line.trail")).to_have_count(2)
    expect(deduction).to_contain_text("His hideout is one of")
    check_screen(laptop, "whitechapel-replay-step-2")
    expect(laptop.locator("[data-replay-next]")).to_have_count(0)  # the night's end

    # The arrow keys: left twice back to the crime, right once (no tap).
    laptop.keyboard.press("ArrowLeft")
    expect(laptop.locator("#replay")).to_have_attribute("data-step", "1")
    laptop.keyboard.press("ArrowLeft")
    expect(laptop.locator("#replay")).to_have_attribute("data-step", "0")
    laptop.keyboard.press("ArrowRight")
    expect(laptop.locator("#replay")).to_have_attribute("data-step", "1")

    # A phone follows the table screen (2 taps: the fold, then the link; 1 more to follow).
    tap(ann, "[data-replay-fold] summary")
    check_phone(ann, "whitechapel-replay-fold")
    tap(ann, "[data-replay-link]")
    tap(ann, "[data-replay-follow]")
    expect(ann.locator("#replay")).to_have_attribute("data-step", "1")
    expect(ann.locator("[data-replay-caption]")).to_contain_text("following the table screen")
    laptop.keyboard.press("ArrowLeft")  # the host steps: the phone goes with it
    expect(ann.locator("#replay")).to_have_attribute("data-step", "0", timeout=5000)
    check_phone(ann, "whitechapel-replay-follow")

    # Space plays (a step every 1.5 s) and stops at the end of the night.
    laptop.keyboard.press(" ")
    expect(laptop.locator("[data-replay-play]")).to_contain_text("Pause")
    expect(laptop.locator("#replay")).to_have_attribute("data-step", "2", timeout=6000)
    expect(laptop.locator("[data-replay-play]")).to_contain_text("Play", timeout=3000)
    expect(ann.locator("#replay")).to_have_attribute("data-step", "2", timeout=5000)
    shot(ann, "whitechapel-replay-follow-end-360")
    assert step_of(ann) == "2"


def test_a_table_ended_during_night_2_replays_it_with_the_police_named_by_their_circles(
        server, laptop, phone):
    """Police on the map; the host ends the table during night 2's hunt. The table screen
    and a phone say so on top (no scrolling), the replay link is 1 tap there, and the
    night play stopped in replays with Jack's path, each policeman's crossing said by the
    circles around it (no number: the board prints none), at 1280x800 and 360 px."""
    laptop.set_viewport_size(SCREEN)
    laptop.goto(server.url + "/new/whitechapel")
    laptop.select_option("select[name=players]", "3")
    laptop.check("input[name=police_map]")
    jack, ann, bob = phone(), phone(), phone()
    ann.set_viewport_size({"width": 360, "height": 740})
    code = create_and_seat(laptop, server.url, [jack, ann, bob])
    jack_send, table_send = sender(jack, server.url, code), sender(laptop, server.url, code)
    board = load_board(real_board_path())
    start = min(board.normal_moves(CRIME) - board.red)
    home = next(n for n in sorted(board.normal_moves(start) - {CRIME} - board.red)
                if board.is_legal_hideout(n))
    placed = {"blue": 165, "yellow": 107, "brown": 101, "red": 119, "green": 186}
    jack_send("hideout", circle=home)
    jack_send("women", circles="3 21 27 65 84")
    table_send("patrols_placed", table=True)
    jack_send("kill", circle=CRIME)
    for colour, crossing in placed.items():
        table_send("place", table=True, policeman=colour, crossing=crossing)
    jack_send("move", circle=start)
    table_send("move_policeman", table=True, policeman="green", crossing=200)
    table_send("end_turn", table=True)
    jack_send("escape", circle=home)
    jack_send("women", circles="3 21 27 84")
    table_send("patrols_placed", table=True)
    jack_send("kill", circle=3)
    for colour, crossing in {**placed, "green": 200}.items():
        table_send("place", table=True, policeman=colour, crossing=crossing)
    first = min(board.normal_moves(3) - board.red)
    jack_send("move", circle=first)
    # The host ends the table (2 taps: the button, then again to confirm).
    laptop.reload()
    confirm(laptop, "[data-host-controls] button:has-text('End the table')")
    expect(laptop.locator("[data-table-ended]")).to_contain_text("during night 2")
    ann.goto(f"{server.url}/t/{code}/me")
    expect(ann.locator("[data-table-ended] [data-replay-link]")).to_be_in_viewport()
    check_phone(ann, "whitechapel-ended-phone")
    laptop.evaluate("window.scrollTo(0, 0)")  # the host tapped at the foot of the screen
    check_screen(laptop, "whitechapel-ended-screen")
    expect(laptop.locator("[data-table-ended] [data-replay-link]")).to_be_in_viewport()
    tap(laptop, "[data-table-ended] [data-replay-link]")  # 1 tap
    expect(laptop.locator("#replay")).to_have_attribute("data-night", "2")
    tap(laptop, "[data-replay-next]")
    expect(laptop.locator("#replay")).to_have_attribute("data-step", "1")
    expect(laptop.locator("[data-known-stopped]")).to_be_visible()
    expect(laptop.locator("[data-known-path]")).to_contain_text(f"3 → {first}")
    police = laptop.locator("[data-known-police]")
    expect(police).to_contain_text("Green: the crossing between 145 and 160")
    assert not re.search(r"\b(200|on \d)", police.inner_text())
    check_screen(laptop, "whitechapel-ended-replay")
    tap(ann, "[data-table-ended] [data-replay-link]")
    tap(ann, "[data-replay-next]")
    expect(ann.locator("#replay")).to_have_attribute("data-step", "1")
    expect(ann.locator("[data-known-police]")).to_contain_text("Blue: the crossing between")
    check_phone(ann, "whitechapel-ended-replay")
