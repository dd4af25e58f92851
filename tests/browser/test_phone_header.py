"""The phone's header at 360 and 390 px, in every game: the table code is always whole
(a player reads it out to whoever joins or re-joins); the game's name gives way (issue
38, point 7: "Letters from Whitechapel · table A…" at 390 px)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.support.httpdevice import HttpDevice, others_join_and_start
from tests.support.pages import CODE_CUT, SCREENSHOTS, sit

NAMES = ("Ann", "Bob", "Cy", "Di")


@pytest.mark.parametrize(("game", "players"), [
    ("whitechapel", 2), ("london1888", 4), ("mrjack", 2), ("wo_ist_jack", 2)])
def test_the_table_code_is_whole_from_360_px(server, phone, game, players):
    laptop = HttpDevice(server.url)
    code = laptop.create_as_set_up(game, players)
    page = phone(width=360)
    sit(page, f"{server.url}/j/{code}", NAMES[0], 0)
    others_join_and_start(laptop, NAMES[:players])
    # Playing: the header also holds the keep-awake button.
    expect(page.locator("[data-wake]")).to_be_visible()
    header = page.locator("header.topbar")
    SCREENSHOTS.mkdir(exist_ok=True)
    for width in (360, 390):
        page.set_viewport_size({"width": width, "height": 740})
        expect(header.locator(".code")).to_have_text(code)
        assert page.evaluate(CODE_CUT) == "", (width, page.evaluate(CODE_CUT))
        header.screenshot(path=str(SCREENSHOTS / f"phone-header-{game}-{width}.png"))
