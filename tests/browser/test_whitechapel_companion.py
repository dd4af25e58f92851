"""The companion plays Jack in a real Chromium (issue 39): three detectives on phones
(Ann and Bob at 360 px, Cy at 390), the laptop at 1280x800, on the board the companion
ships, nobody at Jack's seat. A whole game, to the arrest that ends it and the reveal:
the Head taps in the patrol tokens, the wretched's moves and a turned token, each
detective places, moves and speaks for his own policemen. At every step every phone
says in its first 150 px what happens now and who acts, under it what the companion
did with his pieces, and each detective step is counted in taps.

The detectives are played by a team that knows where Jack is (tests/support/
knowing_team.py, reading the database as a test's helper, never a page), so that the
seeded game ends soon. Then a glance test: two such tables that differ only in the
companion's secrets look the same at rest on every screen."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from companion.games.whitechapel.board import SHIPPED_BOARDS, load_board
from companion.games.whitechapel.jack_ai import roads_from
from companion.games.whitechapel.state import (
    PHASES,
    _moves_left,
    _speaking,
    _wretched_to_move,
)
from tests.support.glance import assert_same_glance
from tests.support.hidden import deal_again, hidden_state
from tests.support.knowing_team import next_action
from tests.support.pages import LAPTOP, SETTLED, caught_up, shot, sit, start_game
from tests.support.phone_quality import check_phone, check_screen
from tests.support.realserver import Server
from tests.support.twin_tables import MASK, NARROW, TwinTables
from tests.support.whitechapel_pages import Taps

SEED = 104
"""A seed whose companion (easy) waits on the first night, so the Head moves the
wretched and says what a turned token shows; Jack goes home at his second move; on the
second night the Head taps the two new patrol tokens, and the team arrests Jack after
his first move."""
LEVEL = "easy"
GLANCE_SEED = 2
"""A seed whose companion (easy) kills at once on the first night, and whose first
movement differs with the far hideout of the glance test's second table."""
SCREEN = {"width": 360, "height": 740}
WIDER = {"width": 390, "height": 844}
LAPTOP_800 = {"width": 1280, "height": 800}
TOP = 150
FIRST_LINE = 24

TAPS = {
    "the patrols are placed": 2,  # the button and its second tap (irreversible)
    "a new patrol token": 1,  # one crossing on the map: as putting the token down
    "a wretched moved": 2,  # the wretched, then where it goes: as picking it up
    "the last wretched moved": 1,  # the only one left is picked already
    "what the turned token shows": 1,
    "a policeman placed": 2,  # the crossing on the map (his own picked), its button
    "a policeman moves": 2,  # the crossing, its button
    "a policeman stays": 1,
    "a search": 1,  # the circle (in the row above the map, or on it)
    "no more circles": 1,
    "a policeman does nothing": 2,  # the confirm pattern
    "an arrest": 3,  # Arrest, the circle, its second tap
}
"""The taps of each detective step (the targets of issue 22: no more than the board's
gesture, plus the confirm of what cannot be taken back). A detective whose phone picked
another of his policemen first taps the one he means (1, counted apart: "whom he moves",
"whom he speaks for"), as he picks up a pawn."""


@pytest.fixture
def shipped_server(tmp_path) -> Iterator[Server]:
    running = Server(tmp_path / "companion.sqlite", seed=SEED).start()
    yield running
    running.stop()


def companion_table(server, laptop, phone, level: str = LEVEL) -> tuple[str, list]:
    """A table on the shipped board whose Jack the companion plays at ``level``, three
    detectives seated (the even deal: Ann blue and red, Bob yellow and green, Cy
    brown), started: its code and the phones in seat order (None at Jack's)."""
    laptop.goto(server.url + "/new/whitechapel")
    laptop.select_option("select[name=players]", "4")
    laptop.select_option("select[name=board]", load_board(SHIPPED_BOARDS[0]).name)
    laptop.check("input[name=police_map]")
    laptop.select_option("select[name=jack]", level)
    laptop.click("button:has-text('Create the table')")
    code = laptop.locator(".code-big").inner_text().strip()
    phones = [None] + [phone() for _ in range(3)]
    for seat, name, size in ((1, "Ann", SCREEN), (2, "Bob", SCREEN), (3, "Cy", WIDER)):
        phones[seat].set_viewport_size(size)
        sit(phones[seat], f"{server.url}/j/{code}", name, seat)
    start_game(laptop)  # 1 tap: nobody sits at Jack's seat, the companion plays it
    return code, phones


def step_of(state: dict, action: dict[str, str]) -> str:
    """The detective step ``action`` is, in TAPS's words."""
    kind = action["type"]
    if kind == "move_policeman":
        stays = int(action["crossing"]) == state["cops"]["from"][action["policeman"]]
        return "a policeman stays" if stays else "a policeman moves"
    if kind == "wretched":
        last = len(_wretched_to_move(state)) == 1
        return "the last wretched moved" if last else "a wretched moved"
    if kind == "done":
        searching = state["police"]["searching"] == action["policeman"]
        return "no more circles" if searching else "a policeman does nothing"
    return {"patrols_placed": "the patrols are placed", "patrol": "a new patrol token",
            "turned": "what the turned token shows", "place": "a policeman placed",
            "search": "a search", "arrest": "an arrest"}[kind]


TOP_LINES = """() => {
  window.scrollTo(0, 0);
  const box = el => { if (!el) { return null; } const b = el.getBoundingClientRect();
                      return {y: b.y, height: b.height}; };
  const text = el => el ? el.innerText : '';
  return {phase: text(document.querySelector('[data-now] [data-phase-name]')),
          now: text(document.querySelector('[data-now] .now-text')),
          now_box: box(document.querySelector('[data-now] .now-text')),
          said: text(document.querySelector('[data-companion-said]')),
          said_box: box(document.querySelector('[data-companion-said]'))};
}"""
"""What a page shows at its top, read in one go (the page has caught up: no refresh
is on its way)."""


def first_lines(state: dict, detectives: list, actor: int) -> None:
    """Every detective's phone, scrolled to the top, says in its first 150 px what
    happens now (the phase, and "Your turn" on the phone that acts; on the others who
    acts, when one detective alone does), and the first line of what the companion did
    right under it."""
    players = state["players"]
    alone = state["phase"] in ("patrols", "suspense", "turned") or (
        state["phase"] == "police" and _speaking(state) and not _moves_left(state))
    for seat, page in enumerate(detectives, start=1):
        top = page.evaluate(TOP_LINES)
        where = (players[seat], state["phase"], top)
        assert str(PHASES[state["phase"]]) in top["phase"], where
        if seat == actor:
            assert "Your turn" in top["now"], where
        elif alone:
            assert players[actor] in top["now"], where
        assert top["now_box"]["y"] + top["now_box"]["height"] <= TOP, where
        if top["said_box"]:
            assert top["said_box"]["y"] + FIRST_LINE <= TOP, where
        if top["said"].startswith("Women tokens"):  # eight circles, all of them
            assert top["said_box"]["y"] + top["said_box"]["height"] <= TOP, where


class TapsInReach(Taps):
    """Taps counted, and each on the phone's first screen: nobody scrolls to act."""

    def tap(self, step: str, page, target) -> None:
        locator = page.locator(target).first if isinstance(target, str) else target
        expect(locator).to_be_visible()
        bottom = locator.evaluate("el => { window.scrollTo(0, 0);"
                                  " return el.getBoundingClientRect().bottom; }")
        if bottom > page.viewport_size["height"]:
            shot(page, "wc39-out-of-reach")
        assert bottom <= page.viewport_size["height"], (step, target, bottom)
        super().tap(step, page, locator)


def speaks_for(taps: Taps, page, colour: str) -> None:
    """Hunting 3: the phone shows the policeman its detective speaks for now (his
    first; another one tap away, "Or first:")."""
    if not page.locator(f"[data-act-for='{colour}']").count():
        taps.tap("whom he speaks for", page, f"a[data-speak='{colour}']")
    expect(page.locator(f"[data-act-for='{colour}']")).to_have_count(1)


def on_the_map(taps: Taps, step: str, page, colour: str, crossing: str) -> None:
    """A policeman placed or moved: his own is picked on the phone's map already (else
    one tap on his name), the crossing, then its button."""
    police_map = page.locator("[data-police-map]")
    if police_map.get_attribute("data-picked") != colour:
        taps.tap("whom he moves", page, f"a[data-cop='{colour}']")
        expect(police_map).to_have_attribute("data-picked", colour)
    taps.tap(step, page, f"a[data-crossing='{crossing}']")
    taps.tap(step, page, f"[data-police-confirm='{colour}:{crossing}']")


def tap_it(taps: Taps, step: str, page, action: dict[str, str]) -> None:
    """The detective's action, tapped on his phone."""
    kind = action["type"]
    colour = action.get("policeman", "")
    if kind == "patrols_placed":
        taps.tap(step, page, "[data-act=patrols_placed]")
        taps.tap(step, page, "button.armed")
    elif kind == "patrol":
        taps.tap(step, page, f"[data-map-asks] [data-tap-crossing='{action['crossing']}']")
    elif kind == "wretched":
        start = action["circle"]
        if step == "a wretched moved":
            taps.tap(step, page, f"a[data-wretched='{start}']")
        taps.tap(step, page, f"[data-wretched-to='{start}:{action['circle2']}']")
    elif kind == "turned":
        taps.tap(step, page, f"[data-shows='{action['shows']}']")
    elif kind in ("place", "move_policeman") and step != "a policeman stays":
        on_the_map(taps, step, page, colour, action["crossing"])
    elif kind == "move_policeman":
        taps.tap(step, page, f"[data-stay='{colour}']")
    elif kind == "search":
        speaks_for(taps, page, colour)
        taps.tap(step, page, f"[data-search='{colour}:{action['circle']}']")
    elif kind == "done" and step == "no more circles":
        taps.tap(step, page, f"[data-act-for='{colour}'] [data-act=done]")
    elif kind == "done":
        speaks_for(taps, page, colour)
        taps.tap(step, page, f"[data-act-for='{colour}'] button:has-text('does nothing')")
        taps.tap(step, page, "button.armed")
    elif kind == "arrest":
        speaks_for(taps, page, colour)
        taps.tap(step, page, f"a[data-arrest-for='{colour}']")
        taps.tap(step, page, f"[data-arrest-circles='{colour}'] "
                             f"[aria-label='Arrest on {action['circle']}']")
        taps.tap(step, page, "button.armed")
    else:
        raise AssertionError(f"no taps for {action}")


def test_a_whole_game_of_three_detectives_against_the_companion(shipped_server, laptop,
                                                                phone):
    laptop.set_viewport_size(LAPTOP_800)
    code, phones = companion_table(shipped_server, laptop, phone)
    detectives = phones[1:]
    taps = TapsInReach()
    looked_at: set[str] = set()
    said: list[str] = []
    for _ in range(100):
        caught_up(laptop, *detectives)
        state = hidden_state(shipped_server, code)
        if state["phase"] == "over":
            break
        seat, action = next_action(state)
        step = step_of(state, action)
        first_lines(state, detectives, seat)
        screen = laptop.evaluate(TOP_LINES)
        if screen["said_box"]:  # the table screen's line, at its top
            said.append(screen["said"])
            assert screen["said_box"]["y"] < TOP, screen
        page = phones[seat]
        if step not in looked_at:  # each new screen looked at once, at 360 and 390 px
            looked_at.add(step)
            name = "wc39-" + step.replace(" ", "-")
            check_phone(page, name)
            shot(laptop, f"{name}-1280")
        before = dict(taps.steps)
        tap_it(taps, step, page, action)
        assert taps.steps[step] - before.get(step, 0) == TAPS[step], (step, taps.steps)
        caught_up(page)  # its answer in before the next phone reads the table's version
    else:
        raise AssertionError("the game did not end")

    # What the companion did was said at the top of every screen, step by step.
    told = " ".join(said)
    for words in ("Women tokens face down on", "The targets:", "Jack waits",
                  "Jack turns over the patrol token", "Jack killed on",
                  "the Jack pawn on square"):
        assert words in told, (words, said)
    # The arrest ends the game: every screen reveals Jack's sheet.
    state = hidden_state(shipped_server, code)
    assert state["outcome"]["winner"] == "detectives" and state["night"] == 2
    caught = state["nights"][1]["moves"][-1]["circles"][-1]
    for page in (laptop, *detectives):
        expect(page.locator("[data-outcome]").first).to_have_attribute("data-outcome",
                                                                       "detectives")
        expect(page.locator("[data-hideout]").first).to_have_text(str(state["hideout"]))
        expect(page.locator("[data-log]").first).to_contain_text(f"{caught}: arrested")
    check_screen(laptop, "wc39-reveal-1280")
    for number, page in enumerate(detectives, start=1):
        check_phone(page, f"wc39-reveal-{number}")
    for step in ("the patrols are placed", "a new patrol token", "a wretched moved",
                 "the last wretched moved", "what the turned token shows", "an arrest"):
        assert step in looked_at, (step, sorted(looked_at))
    print("detective taps:", taps.steps)


# --- at a glance: the companion's secrets do not show on a phone at rest (issue 39) ------

def played_alike(twins: TwinTables, servers: list[Server], phase: str) -> None:
    """Both tables' detectives do the same until ``phase``: what the knowing team
    does at the first table (public actions only before the hunt of the second night:
    the patrols, the wretched, a turned token, the policemen), tapped at both."""
    for _ in range(40):
        states = [hidden_state(server, code) for server, code in zip(servers, twins.codes,
                                                                     strict=True)]
        if states[0]["phase"] == phase:
            assert states[1]["phase"] == phase
            twins.caught_up()
            return
        seat, action = next_action(states[0])
        assert next_action(states[1]) == (seat, action)
        step = step_of(states[0], action)
        for _code, _screen, phones in twins.tables:
            # Only the phone that acts catches up, before and after: the glance
            # points wait for every page.
            caught_up(phones[seat - 1])
            tap_it(Taps(), step, phones[seat - 1], action)
            caught_up(phones[seat - 1])
    raise AssertionError(f"never reached {phase}")


def test_the_companions_secrets_do_not_show_at_a_glance(tmp_path, laptop, browser, phone):
    """Two tables of the same seed on two servers (so that the companion draws the same
    chances at both), the second dealt again with another hideout: from then on the
    companion's secrets differ (his hideout, and the road he walks to it), and the
    detectives do the same at both. Every detective's phone at 360 px and the table
    screen at 1280x800 are the same at rest, pixel for pixel: with the women placed, at
    the alarm (the crime said), and in the police's move after Jack's first movement
    (another circle at each table). Every step between, and the Head's taps when the
    companion waits, draw the same markup whatever his secrets
    (tests/web/test_whitechapel_companion.py's twin tests)."""
    servers = [Server(tmp_path / f"{name}.sqlite", seed=GLANCE_SEED).start()
               for name in "ab"]
    try:
        screens = [laptop, browser.new_context(**LAPTOP).new_page()]
        tables = []
        for server, screen in zip(servers, screens, strict=True):
            screen.set_viewport_size(LAPTOP_800)
            code, phones = companion_table(server, screen, phone)
            for page in phones[1:]:
                page.set_viewport_size(NARROW)
            tables.append((code, screen, phones[1:]))
        twins = TwinTables(servers[0], "wc39", tables)
        # The second table's companion hides as far from the first one's as the board
        # allows: his road home differs from the first movement on.
        state = hidden_state(servers[0], twins.codes[0])
        board = load_board(SHIPPED_BOARDS[0])
        roads = roads_from(board, state["hideout"])
        far = max((n for n in board.numbers if board.is_legal_hideout(n)),
                  key=lambda n: (roads.get(n, 0), n))
        deal_again(servers[1], twins.codes[1], {**state, "hideout": far})
        for page in (screens[1], *tables[1][2]):
            page.reload()
        twins.caught_up()

        def glance(point: str) -> None:
            for seat, (first, second) in enumerate(zip(*(phones for _c, _s, phones in tables),
                                                       strict=True), start=1):
                assert_same_glance(first, second, f"wc39-{point}-{seat}", MASK)
            # The table screen's corner of the table code, drawn at random for each
            # table: as wide as its letters, so it is hidden rather than masked (it sits
            # apart, and moves nothing else).
            for screen in screens:
                screen.wait_for_function(SETTLED)
                screen.evaluate("document.querySelector('.join-panel').style.visibility"
                                " = 'hidden'")
            assert_same_glance(*screens, f"wc39-{point}-table", MASK)

        glance("women")
        played_alike(twins, servers, "alarm")
        glance("alarm")
        played_alike(twins, servers, "police")
        glance("hunt")
        paths = [hidden_state(server, code)["nights"][0]["moves"]
                 for server, code in zip(servers, twins.codes, strict=True)]
        hideouts = [hidden_state(server, code)["hideout"]
                    for server, code in zip(servers, twins.codes, strict=True)]
        assert hideouts[0] != hideouts[1] and paths[0] != paths[1], (hideouts, paths)
    finally:
        for server in servers:
            server.stop()
