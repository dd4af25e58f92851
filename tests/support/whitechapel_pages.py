"""Letters from Whitechapel in the browser: tapping, and Hell (the marked women, the
patrols, maybe a letter), shared by the keypad and the board-mode tests."""

from __future__ import annotations

import time

from playwright.sync_api import expect


def tap(page, selector: str) -> None:
    page.locator(selector).first.click()


def head_of(phones, laptop):
    """The detective phone that shows the Head of the Investigation's button."""
    expect(laptop.locator("[data-phase]").first).to_have_attribute("data-phase", "patrols")
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        for page in phones:
            if page.locator("[data-act=patrols_placed]").count():
                return page
        time.sleep(0.1)
    raise AssertionError("no detective phone offers the patrols button")


def hell(jack, detectives, laptop, women: list[str], letter: bool = False) -> None:
    """Hell: the marked women, the patrols, maybe a letter."""
    expect(jack.locator("[data-woman]")).to_have_count(len(women))
    for field, circle in zip(jack.locator("[data-woman]").all(), women, strict=True):
        field.fill(circle)
    tap(jack, "[data-act=women]")
    tap(head_of(detectives, laptop), "[data-act=patrols_placed]")
    if letter:
        tap(jack, "[data-act=letter]")
    expect(jack.locator("[data-jack-phase]")).to_have_attribute("data-jack-phase", "blood")
