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
