"""What every browser test does with a page: sit at a seat, confirm, read a QR code."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect

SCREENSHOTS = Path(__file__).resolve().parents[1] / "browser" / "screenshots"
LAPTOP = {"viewport": {"width": 1280, "height": 860}}
# No htmx request, swap or settling under way: the page shows a finished state.
SETTLED = """() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"""
_VERSION = """async address => (await (await fetch(address, {cache: "no-store"})).json()).version"""


CODE_CUT = """(() => {
  const code = document.querySelector('.topbar .code'), line = code.closest('p');
  const [c, p] = [code.getBoundingClientRect(), line.getBoundingClientRect()];
  return c.left < p.left - 1 || c.right > p.right + 1 ? `${code.textContent}: ${c.left}-${
    c.right} px in a line of ${p.left}-${p.right} px` : '';
})()"""
"""A phone header's table code cut off (its line clips what overflows), or ''. Read
by Playwright's and Selenium's phones alike (issue 38, point 7)."""


def measured(locator: Locator, script: str) -> list:
    """``script`` (a function of the nodes) over what ``locator`` finds, once every node
    is still in the page: Playwright finds the nodes and runs the script in two steps, and
    a live refresh swapped in between leaves detached nodes that measure 0x0."""
    whole = f"nodes => nodes.every(n => n.isConnected) ? ({script})(nodes) : null"
    for _ in range(50):
        result = locator.evaluate_all(whole)
        if result is not None:
            return result
        locator.page.wait_for_timeout(100)
    raise AssertionError(f"{locator} kept being swapped out for 5 s")


def sit(page: Page, url: str, name: str, seat: int) -> None:
    """Open a join link, type a name, pick the seat and land on the phone page."""
    page.goto(url)
    page.fill("input[name=name]", name)
    page.check(f"input[name=seat][value='{seat}']")
    page.click("button[type=submit]")
    expect(page.locator("[data-seat-label]")).to_be_visible()


def caught_up(*pages: Page) -> None:
    """Every page shows its table's latest version (a live refresh may still be on its
    way after an action), asked at the page's own version address. The version is read
    once no page still waits for an answer: a tap's request may reach the server after
    the tap returned."""
    for page in pages:
        page.wait_for_function(SETTLED)
    for page in pages:
        view = page.locator("#view")
        # Asked by the page itself: its address may be a name only its browser resolves.
        version = page.evaluate(_VERSION, view.get_attribute("data-version-url"))
        expect(view).to_have_attribute("data-version", str(version))


def start_game(screen: Page, label: str = "Start the game") -> None:
    """The host taps Start (1 tap) once the screen has drawn the last seat taken, as a
    host who sees everyone seated does, and the start lands. A start sent from a screen
    a join has overtaken is refused: the table moved on (tables.start_game)."""
    caught_up(screen)
    button = screen.locator(f"button:has-text('{label}')")
    button.click()
    expect(button).to_have_count(0)


def confirm(page: Page, button: Locator | str) -> None:
    """A tap-again button: the first tap arms it, the second acts; then its answer
    stands, as it does for the player before his next tap (another phone may show the
    action before this one has its answer)."""
    (page.locator(button).first if isinstance(button, str) else button).click()
    page.locator("button.armed").first.click()
    page.wait_for_function(SETTLED)


def decode_qr(path) -> str:
    """Read a QR code with a real decoder (zbarimg, Debian's zbar-tools)."""
    zbarimg = shutil.which("zbarimg")
    if zbarimg is None:
        message = "QR DECODE NOT RUN: install zbar-tools (apt-get install -y zbar-tools)."
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    result = subprocess.run([zbarimg, "--raw", "-q", str(path)], capture_output=True,
                            text=True, check=True)
    return result.stdout.strip()


def shot(page: object, name: str) -> Path | None:
    """Save a full-page screenshot under tests/browser/screenshots/ (git-ignored), for a
    person to look at. CI has nobody to look: there none is taken, a tenth of a browser
    test's Chromium CPU."""
    if os.environ.get("CI") == "true":
        return None
    SCREENSHOTS.mkdir(exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def tally_table(server, laptop: Page, phone) -> tuple[str, Page, Page]:
    """The test game for two, created on the laptop and started: Ann (the dealer) has
    the first turn. Returns the code and Ann's and Bob's phones."""
    laptop.goto(server.url + "/new/tally")
    laptop.select_option("select[name=players]", "2")
    laptop.click("text=Create the table")
    code = laptop.locator(".code-big").inner_text().strip()
    ann, bob = phone(), phone()
    sit(ann, f"{server.url}/j/{code}", "Ann", 0)
    sit(bob, f"{server.url}/j/{code}", "Bob", 1)
    start_game(laptop)
    expect(ann.locator("[data-add]")).to_be_visible()
    expect(bob.locator("[data-total]")).to_have_text("0")
    return code, ann, bob
