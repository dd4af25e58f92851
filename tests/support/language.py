"""An English sentence as a page in another language says it, for browser tests that play
in German or French and expect what a page shows: ``translated("fr", "Your turn: play a
character (1 of 4)")`` finds the catalogue's message it was made from (its placeholders
read back from the English), and writes it as the French catalogue does."""

from __future__ import annotations

import re
from functools import cache

from babel.messages.pofile import read_po

from companion.terminal import catalogue
from companion.web.i18n import TRANSLATIONS
from companion.words import shown

_PLACEHOLDER = re.compile(r"%\((\w+)\)s")


@cache
def _messages() -> list[tuple[str, str | None, re.Pattern[str]]]:
    """(msgid, plural or None, the English pattern of the form), the most written words
    first: the most particular message wins."""
    with (TRANSLATIONS / "messages.pot").open("rb") as file:
        template = read_po(file)
    found = []
    for message in template:
        if not message.id:
            continue
        forms = (message.id, None) if isinstance(message.id, str) else tuple(message.id)
        for english in filter(None, forms):
            pieces, seen = [], set()
            for index, piece in enumerate(_PLACEHOLDER.split(english)):
                if index % 2 == 0:
                    pieces.append(re.escape(piece.replace("%%", "%")))
                else:  # a placeholder said twice reads the same both times
                    pieces.append(f"(?P={piece})" if piece in seen else f"(?P<{piece}>.+?)")
                    seen.add(piece)
            pattern = "".join(pieces)
            literal = len(_PLACEHOLDER.sub("", english))
            found.append((literal, forms[0], forms[1], re.compile(pattern, re.S)))
    found.sort(key=lambda entry: (-entry[0], entry[3].groups))
    return [entry[1:] for entry in found]


def translated(language: str, english: str) -> str:
    """``english`` (a sentence a page shows in English) as it reads in ``language``."""
    reader = catalogue(language)
    for msgid, plural, pattern in _messages():
        match = pattern.fullmatch(english)
        if match is None:
            continue
        params = {name: _part(language, value) for name, value in match.groupdict().items()}
        if plural is not None:
            n = int(match.group("n")) if "n" in params else 1
            words = reader.ngettext(msgid, plural, n)
        else:
            words = reader.gettext(msgid)
        return words % {name: shown(value, reader) for name, value in params.items()}
    raise LookupError(f"no message of the catalogue reads {english!r}")


def _part(language: str, value: str) -> str | int:
    if value.isdigit():
        return int(value)
    try:
        return translated(language, value)
    except LookupError:
        return value  # a name, a code: the same in every language


@cache
def _english_only(language: str) -> frozenset[str]:
    """The catalogue's whole sentences (no placeholder) that ``language`` writes otherwise."""
    reader = catalogue(language)
    return frozenset(msgid for msgid, plural, _pattern in _messages()
                     if plural is None and "%(" not in msgid
                     and reader.gettext(msgid) != msgid)


def english_lines(text: str, language: str) -> list[str]:
    """The lines of a page's text (Playwright's ``inner_text``) that are one of the app's
    English sentences left untranslated in ``language``."""
    return [line.strip() for line in text.splitlines()
            if line.strip() in _english_only(language)]
