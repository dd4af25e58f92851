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

from companion import words
from companion.web import i18n, page_cache


class Pseudo:
    def gettext(self, message: str) -> str:
        return f"⟦{message.split(words.CONTEXT, 1)[-1]}⟧"

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return f"⟦{singular if n == 1 else plural}⟧"

    def number(self, value: int | float) -> str:
        return str(value)


@contextmanager
def pseudo_language() -> Iterator[None]:
    """Pages drawn inside this read the pseudo language."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(i18n, "translator", Pseudo)
        # Pages kept by language (companion/web/page_cache.py): never one drawn in English.
        patch.setattr(page_cache, "chosen_language", lambda: "pseudo")
        yield


# Attributes a person reads or hears (a screen reader reads aria-label and title).
READ_ATTRIBUTES = ("title", "aria-label", "placeholder", "alt", "data-confirm",
                   "data-label")
_INNERMOST = re.compile(r"⟦[^⟦⟧]*⟧")
_WORD = re.compile(r"[^\W\d_]{2,}")


# Tags inside a sentence (a word in bold, a link): a sentence's markup placeholder splits
# its text in the page, and the sentence is read whole across them.
_INLINE = frozenset(("a", "abbr", "b", "code", "em", "i", "kbd", "mark", "small", "span",
                     "strong", "wbr"))


class _Visible(HTMLParser):
    """The texts a person reads: each run of text between two block tags, and the
    attributes people read."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self.run: list[str] = []
        self.hidden = 0

    def _end_run(self) -> None:
        text = "".join(self.run)
        if text.strip():
            self.texts.append(text)
        self.run = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in _INLINE:
            self._end_run()
        if tag in ("script", "style"):
            self.hidden += 1
        found = dict(attrs)
        for name in READ_ATTRIBUTES:
            if found.get(name):
                self.texts.append(found[name] or "")
        if tag == "input" and found.get("type") in ("submit", "button") and found.get("value"):
            self.texts.append(found["value"] or "")

    def handle_endtag(self, tag: str) -> None:
        if tag not in _INLINE:
            self._end_run()
        if tag in ("script", "style"):
            self.hidden = max(0, self.hidden - 1)

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.run.append(data)

    def close(self) -> None:
        super().close()
        self._end_run()


def unmarked(html: str, allowed: Iterable[str] = ()) -> list[str]:
    """The visible texts of ``html`` (drawn in the pseudo language) that still hold a
    word outside every ⟦…⟧, once the ``allowed`` words (player names, a table's code,
    a board's name) are taken out.

    A sentence's markup placeholder (a word in bold) splits its text in the page; the
    texts are read across the inline tags, so the sentence is read whole."""
    parser = _Visible()
    parser.feed(html)
    parser.close()
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
