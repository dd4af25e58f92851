"""The pseudo language: every translated word shown between ⟦ and ⟧, so that a page's
words that never went through a catalogue stand out (``unmarked``).

A page drawn in it (``pseudo_language``) shows each ``companion.words.Text`` as
``⟦its English⟧``, placeholders filled inside. Whatever visible text is left once every
``⟦…⟧`` is taken out must be a name the players typed, a number or a sign: any word
left is a string no catalogue will ever translate.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from html.parser import HTMLParser

import pytest

from companion.web import i18n


class Pseudo:
    def gettext(self, message: str) -> str:
        return f"⟦{message}⟧"

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return f"⟦{singular if n == 1 else plural}⟧"

    def number(self, value: int | float) -> str:
        return str(value)


@contextmanager
def pseudo_language() -> Iterator[None]:
    """Pages drawn inside this read the pseudo language."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(i18n, "translator", Pseudo)
        yield


# Attributes a person reads or hears (a screen reader reads aria-label and title).
READ_ATTRIBUTES = ("title", "aria-label", "placeholder", "alt", "data-confirm",
                   "data-label")
_INNERMOST = re.compile(r"⟦[^⟦⟧]*⟧")
_WORD = re.compile(r"[^\W\d_]{2,}")


class _Visible(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self.hidden = 0
        self.depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self.hidden += 1
        found = dict(attrs)
        for name in READ_ATTRIBUTES:
            if found.get(name):
                self.texts.append(found[name] or "")
        if tag == "input" and found.get("type") in ("submit", "button") and found.get("value"):
            self.texts.append(found["value"] or "")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self.hidden = max(0, self.hidden - 1)

    def handle_data(self, data: str) -> None:
        # A sentence with markup inside (a {% set %} placeholder: "⟦Coach left: <b>3</b>⟧")
        # spans several text nodes: what lies between its ⟦ and ⟧ is translated, even
        # across tags, so only the words outside every bracket are kept.
        if self.hidden:
            return
        outside = []
        for char in data:
            if char == "⟦":
                self.depth += 1
            elif char == "⟧":
                self.depth = max(0, self.depth - 1)
            outside.append(char if self.depth == 0 and char != "⟧" else " ")
        text = "".join(outside)
        if text.strip():
            self.texts.append(text)


def unmarked(html: str, allowed: Iterable[str] = ()) -> list[str]:
    """The visible texts of ``html`` (drawn in the pseudo language) that still hold a
    word outside every ⟦…⟧, once the ``allowed`` words (player names, a table's code,
    a board's name) are taken out."""
    parser = _Visible()
    parser.feed(html)
    allowed_words = sorted({a for a in allowed if a}, key=len, reverse=True)
    left = []
    for text in parser.texts:
        rest = text
        while _INNERMOST.search(rest):
            rest = _INNERMOST.sub(" ", rest)
        for word in allowed_words:
            rest = rest.replace(word, " ")
        if _WORD.search(rest):
            left.append(" ".join(text.split()))
    return left
