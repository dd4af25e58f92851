"""Browser tests: the real server (waitress) and the system Chromium at phone size, and
the distribution's WebKitGTK for iPhones (tests/support/webkit.py).

Without /usr/bin/chromium (or WebKitWebDriver and Xvfb) these tests are skipped with a
loud reason; in CI (CI=true) they fail instead, so a missing browser can never pass
silently.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.support.pages import LAPTOP
from tests.support.phone_quality import watch
from tests.support.realserver import Server

CHROMIUM = "/usr/bin/chromium"
# As long as an action's wait (context.set_default_timeout below): a CI machine running four
# workers on two cores took more than expect's own 5 s to land a start.
expect.set_options(timeout=10_000)
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 1}
# Playwright's own --disable-features (1.65), which a second --disable-features replaces.
_PLAYWRIGHT_OFF = ["AvoidUnnecessaryBeforeUnloadCheckSync", "DestroyProfileOnBrowserClose",
                   "HttpsUpgrades", "HttpsFirstBalancedModeAutoEnable", "LensOverlay",
                   "MediaRouter", "PaintHolding", "ThirdPartyStoragePartitioning",
                   "AvoidCorsURLLoaderRestartOnRedirect", "TcpPortRandomizationWin",
                   "OptimizationHints", "NetworkTimeServiceQuerying", "AimEnabled",
                   "PreconnectToSearch"]
# Headless Chromium 156 still builds each window's address-bar popups as WebUI pages
# (chrome://omnibox-popup.top-chrome/): a renderer per browser context, which cost
# four fifths of a new phone's CPU (docs/PERFORMANCE.md, "The test suite"). No test
# has an address bar to type in.
_OMNIBOX_POPUPS = ["WebUIOmniboxFullPopup", "WebUIOmniboxPopup", "WebUIOmniboxAimPopup"]
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--disable-dev-shm-usage",
                 "--disable-features=" + ",".join(_PLAYWRIGHT_OFF + _OMNIBOX_POPUPS)]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/browser" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


def _require_chromium() -> None:
    if Path(CHROMIUM).exists():
        return
    message = (f"BROWSER TESTS NOT RUN: no Chromium at {CHROMIUM}. "
               "Install it with `apt-get install -y chromium` (never a browser download).")
    if os.environ.get("CI") == "true":
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path / "companion.sqlite").start()
    yield running
    running.stop()


@pytest.fixture
def dealt_server(tmp_path: Path) -> Iterator[Server]:
    """A server that deals from random.Random(7): for a test that plays one given deal
    (tonight's Head of the Investigation, who is Jack), the same on every run."""
    running = Server(tmp_path / "companion.sqlite", seed=7).start()
    yield running
    running.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    _require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def phone(browser) -> Iterator[Callable[[], object]]:
    """A factory of phones: each call is a separate browser context (its own cookies),
    its console watched for errors (tests/support/phone_quality.py); phone(clock=True)
    gives one whose clock a test can move forward, phone(language="de-DE") one set to
    German (its Accept-Language), phone(width=360) a narrower one."""
    contexts = []

    def make(clock: bool = False, language: str | None = None,
             width: int | None = None) -> object:
        options = dict(PHONE, viewport={**PHONE["viewport"], "width": width or 390})
        if language:
            options["locale"] = language
        context = browser.new_context(**options)
        context.set_default_timeout(10_000)
        if clock:
            # Time still flows as usual; a glance test may jump a minute ahead
            # (tests/support/glance.untouched) instead of waiting for it.
            context.clock.install()
        contexts.append(context)
        return watch(context.new_page())

    yield make
    for context in contexts:
        context.close()


@pytest.fixture(scope="module")
def webkit() -> Iterator[object]:
    """One WebKitGTK a test module (Selenium through WebKitWebDriver, on its own Xvfb
    display the size of a phone: tests/support/webkit.py)."""
    from tests.support.webkit import webkit_phone

    with webkit_phone() as driver:
        yield driver


@pytest.fixture
def iphone(webkit) -> Iterator[object]:
    """The module's WebKitGTK as a new phone: every cookie of the last test's phone
    forgotten (all the tests' servers are on 127.0.0.1, and cookies ignore the port)."""
    yield webkit
    webkit.delete_all_cookies()
    webkit.get("about:blank")


@pytest.fixture
def laptop(browser) -> Iterator[object]:
    context = browser.new_context(**LAPTOP)
    context.set_default_timeout(10_000)
    yield watch(context.new_page())
    context.close()
