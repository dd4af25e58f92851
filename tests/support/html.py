"""Reading what a test needs from a rendered page: its CSRF field and its version."""

from __future__ import annotations

import re


def csrf_of(html: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', html)
    assert found, "the page has no CSRF field"
    return found.group(1)


def version_of(html: str) -> int:
    found = re.search(r'name="version" value="(\d+)"', html) or re.search(
        r'data-version="(\d+)"', html)
    assert found, "the page shows no version"
    return int(found.group(1))


# The hold-to-peek macro (templates/_macros.html): its secret, up to the peek's own end.
PEEK_SECRET = re.compile(r'<div class="peek-secret">.*?</div>\s*</div>', re.S)


def at_rest(html: str) -> str:
    """What a phone shows while nobody holds a peek: each peek's secret blanked out."""
    return PEEK_SECRET.sub('<div class="peek-secret">…</div></div>', html)
