"""Reading what a test needs from a rendered page: its CSRF field, its version, and what
it shows at rest."""

from __future__ import annotations

import re
from html.parser import HTMLParser


def csrf_of(html: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', html)
    assert found, "the page has no CSRF field"
    return found.group(1)


def version_of(html: str) -> int:
    found = re.search(r'name="version" value="(\d+)"', html) or re.search(
        r'data-version="(\d+)"', html)
    assert found, "the page shows no version"
    return int(found.group(1))


VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
        "source", "track", "wbr"}


class _AtRest(HTMLParser):
    """Copies a page's markup but what shows only when held (``.peek-secret``) or
    opened by a tap (``[data-secret-body]``, inside a closed ``details[data-secret]``)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.out: list[str] = []
        self.hidden = 0  # how many hidden elements we are inside
        self.stack: list[bool] = []  # for each open element: does it hide its subtree?

    def handle_starttag(self, tag: str, attrs: list) -> None:
        found = dict(attrs)
        hides = "peek-secret" in (found.get("class") or "").split() or \
            "data-secret-body" in found
        if tag not in VOID:
            self.stack.append(hides)
            self.hidden += hides
        if not self.hidden and not hides:
            self.out.append(self.get_starttag_text() or "")

    def handle_startendtag(self, tag: str, attrs: list) -> None:
        if not self.hidden:
            self.out.append(self.get_starttag_text() or "")

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID or not self.stack:
            return
        hides = self.stack.pop()
        if not self.hidden:
            self.out.append(f"</{tag}>")
        self.hidden -= hides

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.out.append(data)


def at_rest(html: str) -> str:
    """What a page shows before anyone holds a peek or opens a secret: the glance test
    at the markup level (the browser tests compare screenshots)."""
    parser = _AtRest()
    parser.feed(html)
    parser.close()
    return "".join(parser.out)
