"""The reveal at the end of London 1888, Mr. Jack and Wo ist, in Chromium: the table screen
at 1280x800 and a phone at 360 and 390 px (nothing overflows, no sideways scroll, controls
and contrast as every phone page: tests/support/phone_quality.py); and a Wo ist table whose
deck has the longest story names the setup allows, a U-Haft pill beside them, at 360 px.

Each game is played to its end over HTTP against the real server (0 taps: the scripts of
tests/support/reveal_games.py, a few dozen requests in all), then its pages are opened in
Chromium with the devices' cookies: the host's laptop and seat 0's phone. The screenshots
land in tests/browser/screenshots/reveal-*.png: look at them.
"""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from companion.games import wo_ist_jack
from companion.games.base import TABLE
from tests.support.hidden import hidden_state
from tests.support.httpdevice import HttpDevice
from tests.support.phone_quality import check_phone, check_screen
from tests.support.reveal_games import SCRIPTS, print_to_the_end, web, web_act

SCREEN = {"width": 1280, "height": 800}


class Player:
    """A phone or the laptop over HTTP, with webflow.Device's ``act`` and ``table_act``."""

    def __init__(self, server: Any, code: str = "") -> None:
        self.device = HttpDevice(server.url)
        self.device.code = code

    @property
    def code(self) -> str:
        return self.device.code

    def version(self) -> int:
        return int(json.loads(self.device.get(f"/t/{self.code}/version").text)["version"])

    def send(self, path: str, kind: str, fields: dict[str, Any]) -> SimpleNamespace:
        reply = self.device.post(path, {"type": kind, "version": self.version(),
                                        **{key: str(value) for key, value in fields.items()}})
        return SimpleNamespace(status_code=reply.status, text=reply.text)

    def act(self, kind: str, **fields: Any) -> SimpleNamespace:
        return self.send(f"/t/{self.code}/me/act", kind, fields)

    def table_act(self, kind: str, **fields: Any) -> SimpleNamespace:
        return self.send(f"/t/{self.code}/act", kind, fields)

    def open_in(self, page: Page, server: Any, path: str) -> Page:
        """The same device in Chromium: its cookies (host or seat) in the page's context."""
        page.context.add_cookies([{"name": cookie.name, "value": cookie.value,
                                   "url": server.url} for cookie in self.device.jar])
        page.goto(server.url + path)
        return page


def seated(server: Any, name: str, names: list[str]) -> tuple[Player, list[Player]]:
    """A table of ``name`` created by the laptop with its set-up form's defaults (or its
    decks), every seat taken, the game started."""
    game = SCRIPTS[name][0]
    laptop = Player(server)
    form = game.form_from(game.default_options())
    form.pop("stories", None)  # Wo ist's stories are the laptop's deck (companion/decks.py)
    reply = laptop.device.post(f"/new/{name}", {"players": len(names), **form})
    assert reply.status == 303, reply.text[:300]
    laptop.device.code = reply.location.rstrip("/").rsplit("/", 1)[-1]
    phones = []
    for seat, player in enumerate(names):
        phone = Player(server, laptop.code)
        assert phone.device.post(f"/j/{laptop.code}", {"seat": seat, "name": player}).status == 303
        phones.append(phone)
    assert laptop.device.post(f"/t/{laptop.code}/start",
                              {"version": laptop.version()}).status == 303
    return laptop, phones


def look(server: Any, screen: Page, phone: Page, laptop: Player, seat: Player,
         name: str) -> None:
    """The table screen at 1280x800 and the phone at 360 and 390 px, checked and saved."""
    screen.set_viewport_size(SCREEN)
    laptop.open_in(screen, server, f"/t/{laptop.code}")
    expect(screen.locator("[data-reveal]")).to_be_visible()
    check_screen(screen, f"reveal-{name}-screen")
    seat.open_in(phone, server, f"/t/{seat.code}/me")
    expect(phone.locator("[data-reveal] [data-timeline]")).to_be_visible()
    check_phone(phone, f"reveal-{name}-phone")


@pytest.mark.parametrize("name", list(SCRIPTS))
def test_the_reveal_on_the_table_screen_and_a_phone(server, laptop, phone, name):
    game, names, _script = SCRIPTS[name]
    host, phones = seated(server, name, list(names))
    web(name, lambda: hidden_state(server, host.code), host, phones)
    state = hidden_state(server, host.code)
    assert game.is_over(state)
    steps = game.view(state, TABLE)["reveal"]["steps"]
    look(server, laptop, phone(), host, phones[0], name)
    expect(laptop.locator(".timeline-step")).to_have_count(len(steps))
    # Read from a chair: the reveal's type on the table screen is larger than a phone's.
    size = laptop.locator(".timeline-what").first.evaluate(
        "node => parseFloat(getComputedStyle(node).fontSize)")
    assert size >= 22, f"the table screen's reveal is {size} px"


# The longest story names the setup takes (60 characters, parse_names), each one German
# compound that breaks nowhere by itself, beside the rulebook's four.
COMPOUND = "Polizeipräsidiumsuntersuchungsausschussvorsitzendenwahlskandal"
LONG_STORIES = [*wo_ist_jack.RULEBOOK_STORIES,
                *(f"{COMPOUND[:59]}{number}" for number in range(1, 9))]


def test_wo_ist_longest_story_names_and_a_u_haft_pill_fit_360_px(server, laptop, phone):
    """Ann prints two stories (4 taps on the phones: Print and its second tap, twice;
    Bob's Let it print, twice, here over HTTP), ends her turn; Bob puts her in U-Haft:
    her row holds the pill beside two of the longest names. No page is wider than 360 px,
    nor later the reveal listing all of them."""
    reply = HttpDevice(server.url).post("/decks/wo_ist_jack",
                                        {"stories": "\n".join(LONG_STORIES)})
    assert reply.status == 303, reply.text[:300]
    assert all(len(story) == 60 for story in LONG_STORIES[4:])
    host, phones = seated(server, "wo_ist_jack", ["Ann", "Bob"])
    now = lambda: hidden_state(server, host.code)  # noqa: E731
    act = web_act(host, phones)
    act(TABLE, type="start_player", seat=0)
    for points in (3, 4):
        act(0, type="print", story=now()["current"], points=points)
        act(1, type="pass")
    act(0, type="end_turn")
    act(1, type="u_haft", target=0)
    printed = [entry["story"] for entry in now()["printed"]]
    assert now()["u_haft"] == [1, 0] and any(story in LONG_STORIES[4:] for story in printed)
    ann, bob = phone(), phone()
    for page, player, who in ((ann, phones[0], "ann"), (bob, phones[1], "bob")):
        player.open_in(page, server, f"/t/{host.code}/me")
        expect(page.locator(".wij-flag", has_text="U-Haft")).to_be_visible()
        check_phone(page, f"reveal-wo-ist-long-names-{who}", widths=(360,))
    print_to_the_end(now, act, 2)
    bob.reload()
    expect(bob.locator("[data-reveal]")).to_contain_text(LONG_STORIES[4])
    check_phone(bob, "reveal-wo-ist-long-names-end", widths=(360,))
