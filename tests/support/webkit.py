"""An iPhone's engine in the browser tests: WebKitGTK (the WebKit of Safari) driven
through its WebDriver (`WebKitWebDriver`, Debian's webkit2gtk-driver) with Selenium,
on a virtual display (Xvfb) the size of a phone.

WebKitGTK's browser (MiniBrowser) will not make its window narrower than its toolbar
(447 px): in full-screen mode it has none, and the window set to 390x844 is the page's
viewport, as on an iPhone 12 to 15 (the display is that size too).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.wait import WebDriverWait
from selenium.webdriver.webkitgtk.options import Options
from selenium.webdriver.webkitgtk.service import Service

from tests.support.pages import CODE_CUT

WIDTH, HEIGHT = 390, 844
WAIT = 10
# No htmx request, swap or settling under way (tests/support/pages.py's SETTLED).
SETTLED = "return !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"


def require_webkit() -> tuple[str, str]:
    """WebKitWebDriver and Xvfb, or a loud skip (a failure in CI)."""
    driver, xvfb = shutil.which("WebKitWebDriver"), shutil.which("Xvfb")
    if driver and xvfb:
        return driver, xvfb
    missing = " and ".join(name for name, path in (("WebKitWebDriver", driver),
                                                    ("Xvfb", xvfb)) if not path)
    message = (f"WEBKIT TESTS NOT RUN: no {missing} on PATH. Install them with `apt-get "
               "install -y webkit2gtk-driver xvfb` (the distribution's WebKitGTK, never a "
               "browser download).")
    if os.environ.get("CI") == "true":
        pytest.fail(message)
    pytest.skip(message)


@contextmanager
def webkit_phone() -> Iterator[WebDriver]:
    """A WebKitGTK browser on its own virtual display, closed with it afterwards."""
    driver_path, xvfb_path = require_webkit()
    # -displayfd: Xvfb takes a free display and writes its number once it is ready.
    xvfb = subprocess.Popen([xvfb_path, "-displayfd", "1", "-screen", "0",
                             f"{WIDTH}x{HEIGHT}x24", "-nolisten", "tcp"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    driver = None
    try:
        display = xvfb.stdout.readline().decode().strip()
        assert display, "Xvfb did not start"
        options = Options()
        options.add_argument("--automation")
        options.add_argument("--full-screen")
        service = Service(executable_path=driver_path, log_output=subprocess.DEVNULL,
                          env={**os.environ, "DISPLAY": f":{display}"})
        driver = webdriver.WebKitGTK(options=options, service=service)
        # A command WebKit never answers fails the test in bounded time instead of holding
        # the whole run (one execute_script hung for minutes on a loaded machine).
        driver.command_executor.client_config.timeout = WAIT * 6
        driver.set_page_load_timeout(WAIT * 2)
        driver.set_script_timeout(WAIT)
        driver.set_window_size(WIDTH, HEIGHT)
        wait(driver, lambda: driver.execute_script("return [innerWidth, innerHeight]") == [
            WIDTH, HEIGHT], f"the viewport never became {WIDTH}x{HEIGHT}")
        yield driver
    finally:
        if driver is not None:
            driver.quit()
        xvfb.terminate()
        xvfb.wait(10)


def wait(driver: WebDriver, condition, message: str) -> object:
    """``condition()`` once truthy; a page swapped in meanwhile (htmx) is asked again."""
    return WebDriverWait(driver, WAIT, poll_frequency=0.1,
                         ignored_exceptions=(StaleElementReferenceException,)).until(
        lambda _driver: condition(), message)


FIRST_SHOWN = """var css = arguments[0];
var box = Array.from(document.querySelectorAll(css)).find(function (e) {
  return e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden'; });
"""
"""Finds ``box``: the first element the selector (the script's first argument) shows.
Each helper reads what it needs in the same script: a page htmx swaps in between two
WebDriver calls leaves no element behind."""


def shown(driver: WebDriver, css: str) -> WebElement:
    """The first element ``css`` finds, once it is displayed."""
    return wait(driver, lambda: driver.execute_script(FIRST_SHOWN + "return box || null", css),
                f"nothing shown at {css}")


def gone(driver: WebDriver, css: str) -> None:
    wait(driver, lambda: driver.execute_script(FIRST_SHOWN + "return !box", css),
         f"still shown: {css}")


def text_of(driver: WebDriver, css: str) -> str:
    """The text of the first element ``css`` shows, once there is one."""
    return wait(driver, lambda: driver.execute_script(
        FIRST_SHOWN + "return box ? box.innerText : null", css), f"nothing shown at {css}")


def says(driver: WebDriver, css: str, words: str) -> None:
    """The first element ``css`` finds comes to say ``words``."""
    wait(driver, lambda: words in driver.execute_script(
        "var e = document.querySelector(arguments[0]); return e ? e.innerText : ''", css),
        f"{css} never said {words!r}")


def attribute(driver: WebDriver, css: str, name: str) -> str:
    """An attribute of the first element ``css`` shows, once there is one."""
    return wait(driver, lambda: driver.execute_script(
        FIRST_SHOWN + "return box ? box.getAttribute(arguments[1]) : null", css, name),
        f"no {name} at {css}")


def settled(driver: WebDriver) -> None:
    wait(driver, lambda: driver.execute_script(SETTLED), "htmx never settled")


def at_version(driver: WebDriver, version: int) -> None:
    """The page shows the table at ``version``: it came by itself (a live refresh)."""
    wait(driver, lambda: driver.execute_script(
        "var v = document.getElementById('view'); return v && v.dataset.version") == str(
            version), f"the page never reached version {version}")
    settled(driver)


def press(driver: WebDriver, css: str) -> ActionBuilder:
    """The pointer pressed where a thumb would: the middle of the first element ``css``
    shows, scrolled into view (an SVG circle of a map too, which WebDriver's own element
    actions refuse as not interactable)."""
    x, y = wait(driver, lambda: driver.execute_script(FIRST_SHOWN + """if (!box) { return null; }
        box.scrollIntoView({block: 'center', inline: 'center'});
        var r = box.getBoundingClientRect();
        return [Math.round(r.left + r.width / 2), Math.round(r.top + r.height / 2)]""", css),
        f"nothing to press at {css}")
    actions = ActionBuilder(driver)
    actions.pointer_action.move_to_location(x, y).pointer_down()
    return actions


def tap(driver: WebDriver, css: str) -> None:
    """A tap: pressed and let go on the middle of the first element ``css`` shows."""
    actions = press(driver, css)
    actions.pointer_action.pointer_up()
    actions.perform()


def sit(driver: WebDriver, url: str, name: str, seat: int, awake: bool = False) -> None:
    """Open the join address, type a name, pick the seat: the phone page (3 taps and the
    name typed). Unless ``awake``, the phone's "Keep screen on" is off, as its player may
    set it: only the keep-awake test plays the looping video, which cost WebKit's web
    process a third of its CPU in the other tests, and WebKitGTK hung twice on a loaded
    machine (a tap's actions, then a page left) while it played."""
    driver.get(url)
    driver.execute_script("localStorage.setItem('companion-awake', arguments[0])",
                          "on" if awake else "off")
    shown(driver, "input[name=name]").send_keys(name)
    tap(driver, f"label:has(> input[name=seat][value='{seat}'])")
    tap(driver, "[data-join-form] button[type=submit]")
    shown(driver, "[data-seat-label]")
    settled(driver)


def confirm(driver: WebDriver, css: str) -> None:
    """The one confirm pattern: a tap arms the button, a second tap on it acts."""
    tap(driver, css)
    tap(driver, "button.armed")
    settled(driver)


def peek(driver: WebDriver, secret: str, box: str = "[data-peek]") -> str:
    """Press and hold the peek box: the secret shows while held and hides on release.
    Returns what it showed."""
    gone(driver, secret)
    press(driver, box).perform()
    try:
        seen = text_of(driver, secret)
    finally:
        ActionChains(driver).release().perform()
    gone(driver, secret)
    return seen


def code_whole(driver: WebDriver) -> None:
    """The header's table code is never cut (issue 38, point 7)."""
    cut = driver.execute_script(f"return {CODE_CUT}")
    assert not cut, f"the table code is cut: {cut}"
