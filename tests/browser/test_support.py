"""The browser-test helpers themselves: they must catch what they are there to catch."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.support.glance import assert_same_glance
from tests.support.phone_quality import WIDTHS, check_phone

STATIC = Path(__file__).resolve().parents[2] / "static"

MAP = """<!doctype html><meta name=viewport content="width=device-width">
<body style="margin:0;background:#111;color:#eee;font-family:monospace">
<p>Table <span class=code>{code}</span></p>
<svg width=300 height=120 viewBox="0 0 300 120">{circles}</svg></body>"""


def _map(page, code: str, marked: int) -> None:
    circles = "".join(
        f'<circle cx="{20 + 30 * n}" cy="60" r="10" fill="{"#f33" if n == marked else "#888"}"/>'
        for n in range(9))
    page.set_content(MAP.format(code=code, circles=circles))


def test_glance_masks_the_code_and_catches_one_circle(phone):
    first, second = phone(), phone()
    _map(first, "ABCD", 3)
    _map(second, "WXYZ", 3)
    assert_same_glance(first, second, "support-same")
    _map(second, "WXYZ", 4)
    with pytest.raises(AssertionError, match=r"differ in \d+ pixels.*-diff\.png"):
        assert_same_glance(first, second, "support-one-circle")


BAD = """<!doctype html><meta name=viewport content="width=device-width">
<body style="margin:0;background:#fff">
<p style="color:#bbb">Faint words</p>
<button style="width:30px;height:20px">x</button>
<div style="width:500px">wide</div>
<details><summary>Seats</summary>x</details>
<label style="display:flex;width:150px;min-height:48px"><input type=radio name=r
  style="width:24px;height:24px">A seat label long enough to wrap twice</label>
<div style="overflow-x:auto;width:100px"><div style="width:300px">a sideways box</div></div>
<script>console.error("boom")</script></body>"""


def test_phone_quality_names_each_problem(phone):
    page = phone()
    page.set_content(BAD)
    with pytest.raises(AssertionError) as failure:
        check_phone(page)
    report = str(failure.value)
    for expected in ("360 px: overflow", "390 px: small control: button", "360 px: contrast:",
                     "console: boom", 'summary "Seats"', "radio itself is squeezed",
                     "scrolls sideways"):
        assert expected in report
    assert page.viewport_size["width"] == 390


def test_the_phone_widths_draw_the_same_colours():
    """check_phone reads contrast at the narrowest phone width only: no width breakpoint of
    the stylesheets may fall between the phone widths, where it could change a colour."""
    low, high = min(WIDTHS), max(WIDTHS)
    breakpoints = [(sheet.name, bound, int(width)) for sheet in STATIC.glob("*.css")
                   for bound, width in re.findall(r"@media[^{]*?(min|max)-width:\s*(\d+)px",
                                                  sheet.read_text())]
    assert breakpoints  # the pattern still reads the stylesheets' queries
    for sheet, bound, width in breakpoints:
        # max-width: N holds up to N, min-width: N from N.
        apart = low <= width < high if bound == "max" else low < width <= high
        assert not apart, f"{sheet}: a {bound}-width: {width}px breakpoint"
