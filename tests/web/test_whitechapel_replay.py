"""Letters from Whitechapel, a night replayed, through the Flask client: the routes and
their refusals, the shared cursor, and non-interference: every replay page and fragment of
a running game is the same for two games that differ only in Jack's hideout and path,
whoever asks; after the end the path is shown."""

from __future__ import annotations

import json
import re

import pytest

from companion.games.whitechapel.board import load_board
from tests.support.boardfiles import real_board_path
from tests.support.noninterference import page_at_rest
from tests.support.webflow import Device, seated_table, state_of
from tests.web.test_whitechapel_board import board_table, head_phone, make_app

HX = {"HX-Request": "true"}
WOMEN = "3 21 27 65 84"
CRIME = 65


@pytest.fixture
def real_app(tmp_path):
    return make_app(tmp_path, real_board_path())


def homes() -> list[tuple[int, int]]:
    """Two ways home from the crime on 65 in as many squares: (first circle, hideout)."""
    board = load_board(real_board_path())
    starts = sorted(board.normal_moves(CRIME) - board.red)
    return [(s, next(n for n in sorted(board.normal_moves(s) - {CRIME} - board.red)
                     if board.is_legal_hideout(n))) for s in (starts[0], starts[-1])]


def far_circle(*avoid: int) -> int:
    """A circle far from the crime: a search there finds nothing on either path."""
    board = load_board(real_board_path())
    near = set(board.circles_within([CRIME], 3)) | set(avoid)
    return min(n for n in board.numbers if n not in near)


def to_first_search(app, start: int, hideout: int, search: int):
    """Night 1 up to Jack's first movement, to ``start``, and a search in vain on
    ``search``: the night runs. Returns the laptop and the phones."""
    laptop, phones = board_table(app)
    jack = phones[0]
    assert jack.act("hideout", circle=hideout).status_code == 303
    assert jack.act("women", circles=WOMEN).status_code == 303
    assert head_phone(app, laptop, phones).act("patrols_placed").status_code == 303
    assert jack.act("kill", circle=CRIME).status_code == 303
    assert jack.act("move", circle=start).status_code == 303
    assert laptop.table_act("search", policeman="blue", circle=search).status_code == 303
    return laptop, phones


def night_one(app, start: int, hideout: int, search: int):
    """Night 1: the crime on 65, Jack to ``start`` (the police search ``search`` in vain),
    then home to ``hideout``. Returns the laptop, the phones and the devices to ask."""
    laptop, phones = to_first_search(app, start, hideout, search)
    jack = phones[0]
    assert laptop.table_act("end_turn").status_code == 303
    assert jack.act("escape", circle=hideout).status_code == 303
    assert state_of(app, laptop.code)["night"] == 2
    return laptop, phones


def night_two_begun(app, laptop, phones) -> int:
    """Night 2 up to Jack's first movement and the police's answer: the night runs."""
    jack = phones[0]
    assert jack.act("women", circles="3 21 27 84").status_code == 303
    assert head_phone(app, laptop, phones).act("patrols_placed").status_code == 303
    assert jack.act("kill", circle=3).status_code == 303
    board = load_board(real_board_path())
    step = min(board.normal_moves(3) - board.red)
    assert jack.act("move", circle=step).status_code == 303
    assert laptop.table_act("end_turn").status_code == 303
    return step


def shortest_way(board, start: int, home: int) -> list[int]:
    """Normal moves from ``start`` to ``home`` (home last), fewest first, by the lowest
    circles where two ways are as short, never through a crime scene of night 1."""
    before = {start: start}
    edge = [start]
    while home not in before:
        reached = []
        for here in edge:
            for n in sorted(board.normal_moves(here) - {CRIME} - set(before)):
                before[n] = here
                reached.append(n)
        assert reached, (start, home)
        edge = reached
    way = [home]
    while before[way[-1]] != start:
        way.append(before[way[-1]])
    return way[::-1]


def night_two_home(app, laptop, phones, crime: int, way: list[int]) -> None:
    """Night 2: the crime on ``crime``, then ``way`` home, the police passing."""
    jack = phones[0]
    assert jack.act("women", circles=f"{crime} 3 21 84" if crime not in (3, 21, 84)
                    else "3 21 27 84").status_code == 303
    assert head_phone(app, laptop, phones).act("patrols_placed").status_code == 303
    assert jack.act("kill", circle=crime).status_code == 303
    for circle in way[:-1]:
        assert jack.act("move", circle=circle).status_code == 303
        assert laptop.table_act("end_turn").status_code == 303
    assert jack.act("escape", circle=way[-1]).status_code == 303
    assert state_of(app, laptop.code)["night"] == 3


def frame(device, code: str, query: str = "", headers=None):
    return device.get(f"/t/{code}/replay{query}", headers=headers or {})


def at_rest(html: str, code: str) -> str:
    """A page as it compares between twin tables: the host's CSRF token masked too."""
    return re.sub(r'data-csrf="[^"]*"', 'data-csrf="-"', page_at_rest(html, code))


# --- twins: a running game's replay tells nothing ---------------------------------------

def test_a_running_games_replay_is_the_same_whatever_jacks_hideout_and_path(real_app):
    (start_a, home_a), (start_b, home_b) = homes()
    assert (start_a, home_a) != (start_b, home_b)
    search = far_circle(start_a, start_b, home_a, home_b)
    twins = [night_one(real_app, start_a, home_a, search),
             night_one(real_app, start_b, home_b, search)]
    # Night 2: a crime as far from either hideout, home by other roads.
    board = load_board(real_board_path())
    crime = next(c for c in sorted(board.red - {CRIME})
                 if 2 <= len(shortest_way(board, c, home_a))
                 == len(shortest_way(board, c, home_b)) <= 4)
    ways = [shortest_way(board, crime, home) for home in (home_a, home_b)]
    assert ways[0] != ways[1]
    for (laptop, phones), way in zip(twins, ways, strict=True):
        night_two_home(real_app, laptop, phones, crime, way)

    def viewers(laptop, phones):
        # The table screen (host), Jack's phone, each detective's, a device with no seat.
        return [laptop, *phones, Device(real_app, laptop.code)]

    steps = {1: 3, 2: len(ways[0]) + 1}  # the crime, each movement (the escape last)
    for index in range(len(viewers(*twins[0]))):
        pages = []
        for laptop, phones in twins:
            device = viewers(laptop, phones)[index]
            seen = []
            for night, count in steps.items():
                first = frame(device, laptop.code, f"?night={night}")
                assert first.status_code == 200
                assert f'data-steps="{count}"' in first.text
                seen.append(at_rest(first.text, laptop.code))
                # Every step as htmx swaps it in (the whole page is that inside the layout).
                for query in ("" if night == 2 else "?follow=1",
                              *(f"?night={night}&step={k}" for k in range(count))):
                    answer = frame(device, laptop.code, query, HX)
                    assert answer.status_code == 200, (query, answer.text[:300])
                    seen.append(at_rest(answer.text, laptop.code))
            for query in ("?night=3", "?night=3&step=0", "?follow=1&night=3"):
                answer = frame(device, laptop.code, query)
                assert answer.status_code == 404
                seen.append(at_rest(answer.text, laptop.code))
            seen.append(json.dumps(device.get(f"/t/{laptop.code}/replay/cursor").get_json()))
            pages.append(seen)
        assert pages[0] == pages[1], f"viewer {index} tells the twins' replays apart"
    # Really the table's facts of that moment, and no path before the end.
    laptop, _phones = twins[0]
    page = frame(laptop, laptop.code, "?night=1&step=1").text
    assert f'<span class="pill">{search}</span>' in page  # searched in vain
    assert "data-possible=" in page and "trail move" not in page
    assert "data-known-path" not in page and not re.search(r'class="circle[^"]*\bhideout', page)


def test_the_night_in_progress_and_a_night_to_come_are_never_replayed(real_app):
    (start, home), _other = homes()
    laptop, phones = night_one(real_app, start, home, far_circle(start, home))
    # Night 1 over, night 2 in its women phase: night 1 only.
    assert frame(laptop, laptop.code).status_code == 200
    answer = frame(laptop, laptop.code, "?night=2")
    assert answer.status_code == 404 and "only a night that has ended" in answer.text


# --- after the end: the path is shown -----------------------------------------------------

def over_game(app):
    """Night 1 home, night 2: the detectives arrest Jack after his first movement."""
    (start, home), _other = homes()
    laptop, phones = night_one(app, start, home, far_circle(start, home))
    step = night_two_begun(app, laptop, phones)
    assert phones[0].act("move", circle=min(
        load_board(real_board_path()).normal_moves(step) - {3})).status_code == 303
    state = state_of(app, laptop.code)
    here = state["nights"][1]["moves"][-1]["circles"][-1]
    assert laptop.table_act("arrest", policeman="blue", circle=here).status_code == 303
    assert state_of(app, laptop.code)["phase"] == "over"
    return laptop, phones, (start, home), here


def test_after_the_end_each_step_draws_jacks_path_so_far_and_his_hideout(real_app):
    laptop, phones, (start, home), here = over_game(real_app)
    for device in (laptop, phones[1], Device(real_app, laptop.code)):
        first = frame(device, laptop.code, "?night=1&step=0").text
        assert "trail move" not in first and f"his hideout: <b>{home}</b>" in first
        assert re.search(rf'class="circle[^"]*\bhideout\b[^"]*" data-circle="{home}"', first)
        second = frame(device, laptop.code, "?night=1&step=1").text
        assert second.count('class="trail move night-1"') == 1
        assert f"65 → {start}" in second
        last = frame(device, laptop.code, "?night=1&step=2").text
        assert last.count('class="trail move night-1"') == 2
    # The game's last night is replayable too, its last step the arrest.
    default = frame(laptop, laptop.code).text
    assert 'data-night="2"' in default and 'data-step="0"' in default
    end = frame(laptop, laptop.code, "?night=2&step=2").text
    assert "data-known-outcome" in end and f"on {here}" in end


def test_the_table_screen_and_the_phones_link_to_the_replay(real_app):
    (start, home), _other = homes()
    laptop, phones = night_one(real_app, start, home, far_circle(start, home))
    screen = laptop.screen().text
    assert "Replay the night" in screen and 'data-replay-link="1"' in screen
    for phone in phones:
        page = phone.phone().text
        assert "Watch the replay" in page and 'data-replay-fold' in page
        assert 'data-replay-fold open' not in page  # folded away
    laptop, phones, _way, _here = over_game(real_app)
    assert 'data-replay-link="2"' in laptop.screen().text
    assert all('data-replay-link="2"' in phone.phone().text for phone in phones)


# --- routes, statuses, bad input ------------------------------------------------------------

BAD = [
    ("?night=0", "Night 0 cannot be replayed"),
    ("?night=9", "Night 9 cannot be replayed"),
    ("?night=2", "Night 2 cannot be replayed: only a night that has ended can (now night 1)"),
    ("?night=abc", "There is no night “abc”"),
    ("?night=1&step=-1", "There is no step “-1”"),
    ("?night=1&step=" + str(10**30), "There is no step"),
    ("?night=1&step=3", "Night 1 has steps 0 to 2; there is no step 3"),
    ("?night=1&step=x", "There is no step “x”"),
]


def test_bad_nights_and_steps_are_a_sentence_and_404(real_app):
    (start, home), _other = homes()
    laptop, phones = night_one(real_app, start, home, far_circle(start, home))
    version = laptop.version()
    for query, words in BAD:
        for headers in ({}, HX):
            answer = frame(phones[1], laptop.code, query, headers)
            assert answer.status_code == 404 and words in answer.text, (query, answer.text[-600:])
    assert laptop.version() == version


def test_nothing_to_replay_is_a_sentence_and_404(real_app):
    lobby = board_table(real_app)[0]
    laptop = Device(real_app)
    assert laptop.post("/new/whitechapel", {"players": 3}).status_code == 303
    cases = [
        (seated_table(real_app, "whitechapel", ["J", "A", "B"], start=False)[0],
         "The game has not started"),
        (lobby, "No night is over yet"),
        (seated_table(real_app, "london1888", ["A", "B", "C", "D"])[0],
         "London 1888 has no replay"),
    ]
    for device, words in cases:
        answer = frame(device, device.code)
        assert answer.status_code == 404 and words in answer.text, answer.text[-400:]
    assert Device(real_app).get("/t/ZZZZ/replay").status_code == 404


def test_a_step_is_a_whole_page_or_with_htmx_the_replay_alone(real_app):
    (start, home), _other = homes()
    laptop, _phones = night_one(real_app, start, home, far_circle(start, home))
    page = frame(laptop, laptop.code, "?night=1&step=1")
    assert page.text.startswith("<!doctype html>") and "replay.js" in page.text
    for step in (0, 2):
        assert f'href="/t/{laptop.code}/replay?night=1&amp;step={step}"' in page.text
    part = frame(laptop, laptop.code, "?night=1&step=1", HX)
    assert part.text.lstrip().startswith("<main id=\"replay\"") and "<html" not in part.text


# --- the shared cursor --------------------------------------------------------------------

def test_only_the_host_moves_the_cursor_and_the_version_stays(real_app):
    (start, home), _other = homes()
    laptop, phones = night_one(real_app, start, home, far_circle(start, home))
    cursor = f"/t/{laptop.code}/replay/cursor"
    assert laptop.get(cursor).get_json() == {"night": None, "step": None}
    version = laptop.version()
    assert phones[1].post(cursor, {"night": 1, "step": 2}).status_code == 403
    assert Device(real_app).post(cursor, {"night": 1, "step": 2}).status_code == 403
    assert laptop.client.post(cursor, data={"night": 1, "step": 2}).status_code == 403  # no csrf
    assert laptop.post(cursor, {"night": 1, "step": 9}).status_code == 404
    assert laptop.post(cursor, {"night": 2, "step": 0}).status_code == 404
    assert laptop.post(cursor, {"step": 0}).status_code == 404
    assert laptop.get(cursor).get_json() == {"night": None, "step": None}
    moved = laptop.post(cursor, {"night": 1, "step": 2}, headers=HX)
    assert moved.status_code == 204
    assert laptop.post(cursor, {"night": 1, "step": 1}).status_code == 303
    assert phones[2].get(cursor).get_json() == {"night": 1, "step": 1}
    assert laptop.version() == version
    # A phone that follows sees the host's step; its own stepping stays its own.
    followed = frame(phones[1], laptop.code, "?follow=1&night=1&step=0").text
    assert 'data-step="1"' in followed and "data-follow=" in followed
    assert "following the table screen" in followed
    own = frame(phones[1], laptop.code, "?night=1&step=2").text
    assert 'data-step="2"' in own and "data-follow=" not in own
    assert phones[2].get(cursor).get_json() == {"night": 1, "step": 1}
    # The host's page offers no following: it is what is followed.
    host = frame(laptop, laptop.code, "?follow=1").text
    assert "data-share=" in host and "data-follow=" not in host


def test_without_a_board_the_replay_tells_the_facts(app):
    laptop, phones = seated_table(app, "whitechapel", ["J", "A"])
    jack = phones[0]
    assert jack.act("hideout", circle=100).status_code == 303
    assert jack.act("women", circles=WOMEN).status_code == 303
    assert laptop.table_act("patrols_placed").status_code == 303
    assert jack.act("kill", circle=CRIME).status_code == 303
    assert jack.act("move", circle=66).status_code == 303
    assert laptop.table_act("search", policeman="blue", circle=67).status_code == 303
    assert laptop.table_act("end_turn").status_code == 303
    assert jack.act("escape", circle=100).status_code == 303
    page = frame(phones[1], laptop.code, "?night=1&step=1").text
    assert "board-map" not in page and "This table plays without a board" in page
    known = page[page.index("data-known"):]  # what the detectives knew: 67 searched
    assert 'data-steps="3"' in page and "67" in known and "66" not in known


# --- a table ended during a game (docs/RULINGS.md#letters-from-whitechapel, "A table ended
# during a game") ---------------------------------------------------------------------------

def hunting(app):
    """Night 1 up to Jack's first movement and a search in vain: the night runs."""
    (start, home), _other = homes()
    laptop, phones = to_first_search(app, start, home, far_circle(start, home))
    return laptop, phones, (start, home)


def end_table(laptop) -> None:
    assert laptop.host("close").status_code == 303


def ended_card(page: str) -> str:
    found = re.search(r'<section class="card wc-table-ended" data-table-ended>.*?</section>',
                      page, re.S)
    assert found, "no word of the ended table"
    return found.group(0)


def test_a_table_ended_in_night_1_replays_night_1_with_jacks_path(real_app):
    laptop, phones, (start, home) = hunting(real_app)
    assert frame(laptop, laptop.code).status_code == 404  # running: nothing over yet
    end_table(laptop)
    # The screen and every phone say it on top, with the way into the replay.
    for page in (laptop.screen().text, *(p.phone().text for p in phones)):
        card = ended_card(page)
        assert "The table ended during night 1" in card and 'data-replay-link="1"' in card
        assert page.count("data-replay-link=") == 1
        assert "data-now" not in page or page.index("data-table-ended") < page.index(
            "data-now")
    for device in (laptop, phones[0], phones[1], Device(real_app, laptop.code)):
        first = frame(device, laptop.code)
        assert first.status_code == 200
        assert 'data-night="1"' in first.text and 'data-steps="2"' in first.text
        assert f"his hideout: <b>{home}</b>" in first.text and "trail move" not in first.text
        last = frame(device, laptop.code, "?night=1&step=1").text
        assert f"65 → {start}" in last and last.count('class="trail move night-1"') == 1
        # Where play stopped, not the night's end.
        assert "data-known-stopped" in last and "the night's end" not in last
        assert "data-known-home" not in last and "data-known-outcome" not in last
        assert "data-known-stopped" not in first.text
        assert frame(device, laptop.code, "?night=2").status_code == 404


def test_a_table_ended_in_night_2_replays_both_nights_with_jacks_path(real_app):
    (start, home), _other = homes()
    laptop, phones = night_one(real_app, start, home, far_circle(start, home))
    step = night_two_begun(real_app, laptop, phones)
    assert frame(laptop, laptop.code, "?night=2").status_code == 404  # running
    end_table(laptop)
    for page in (laptop.screen().text, *(p.phone().text for p in phones)):
        card = ended_card(page)
        assert "during night 2" in card and 'data-replay-link="2"' in card
    for device in (laptop, phones[2], Device(real_app, laptop.code)):
        default = frame(device, laptop.code).text
        assert 'data-night="2"' in default and 'data-replay-night="1"' in default
        one = frame(device, laptop.code, "?night=1&step=2").text
        assert f"65 → {start} → {home}" in one and "data-known-home" in one
        assert "data-known-stopped" not in one  # night 1 ended: its end is its own
        two = frame(device, laptop.code, "?night=2&step=1").text
        assert f"3 → {step}" in two and f"his hideout: <b>{home}</b>" in two
        assert "data-known-stopped" in two and 'data-steps="2"' in two
        assert frame(device, laptop.code, "?night=3").status_code == 404
    # The host still shows the phones where he is.
    assert laptop.post(f"/t/{laptop.code}/replay/cursor", {"night": 2, "step": 1},
                       headers=HX).status_code == 204


def test_a_table_ended_before_the_first_crime_has_nothing_to_replay(real_app):
    laptop, phones = board_table(real_app)
    assert phones[0].act("hideout", circle=homes()[0][1]).status_code == 303
    end_table(laptop)
    for page in (laptop.screen().text, *(p.phone().text for p in phones)):
        card = ended_card(page)
        assert "no night to replay" in card and "data-replay-link" not in page
    answer = frame(phones[1], laptop.code)
    assert answer.status_code == 404 and "The table ended before any night" in answer.text


def test_twins_replay_alike_while_they_play_and_each_its_own_path_once_ended(real_app):
    """Two tables whose Jacks differ only in their hideout and night 1's path, both in
    night 2's hunt: whoever asks, the replay (night 1's frames, night 2 refused, the
    cursor) are the same and no page speaks of an end; once both are ended, the word of
    it is the same on every page (public), and each replay shows its own Jack."""
    (start_a, home_a), (start_b, home_b) = homes()
    search = far_circle(start_a, start_b, home_a, home_b)
    twins = [night_one(real_app, start_a, home_a, search),
             night_one(real_app, start_b, home_b, search)]
    for laptop, phones in twins:
        night_two_begun(real_app, laptop, phones)

    def seen(laptop, phones, ended: bool) -> list[list[str]]:
        viewers = [(laptop, laptop.screen), *((p, p.phone) for p in phones),
                   (bystander := Device(real_app, laptop.code), bystander.screen)]
        pages = []
        for device, page in viewers:
            # The deals differ in public (the Head tiles' order): the word of the end
            # is what a page adds once ended.
            own = [at_rest(ended_card(page().text), laptop.code) if ended
                   else "data-table-ended" in page().text]
            if not ended:
                for query in ("?night=1", *(f"?night=1&step={k}" for k in range(3)),
                              "?night=2", "?night=2&step=0", "?follow=1"):
                    answer = frame(device, laptop.code, query, HX)
                    own.append(f"{answer.status_code} {at_rest(answer.text, laptop.code)}")
                own.append(json.dumps(device.get(f"/t/{laptop.code}/replay/cursor").get_json()))
            pages.append(own)
        return pages

    assert seen(*twins[0], ended=False) == seen(*twins[1], ended=False)
    for laptop, _phones in twins:
        assert frame(laptop, laptop.code, "?night=2").status_code == 404
        assert "data-known-path" not in frame(laptop, laptop.code, "?night=1&step=2").text
        end_table(laptop)
    assert seen(*twins[0], ended=True) == seen(*twins[1], ended=True)
    for (laptop, _phones), home in zip(twins, (home_a, home_b), strict=True):
        for night in (1, 2):
            page = frame(Device(real_app, laptop.code), laptop.code, f"?night={night}").text
            assert f"his hideout: <b>{home}</b>" in page
