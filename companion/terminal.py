"""Words for the laptop's terminal, in the language its environment asks for.

The command line (``companion serve``, ``export``, ``import``) and what the server tells
the terminal while it runs (companion/db/watch.py) speak the terminal's language: the
first of ``LANGUAGE`` (a colon-separated list), ``LC_ALL``, ``LC_MESSAGES`` and ``LANG``
that is set, as gettext reads them, if the app speaks it; else English. A page's
language is each device's own (companion/web/i18n.py): this is only the laptop's.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from babel.numbers import format_decimal
from babel.support import NullTranslations, Translations

from companion import words

TRANSLATIONS = Path(__file__).resolve().parent / "translations"
LANGUAGES = {"en": "English", "de": "Deutsch", "fr": "Français"}
"""The languages the app speaks, each named in its own words (the pages' switch)."""
SPOKEN = tuple(LANGUAGES)
VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def terminal_language(environ: Mapping[str, str] | None = None) -> str:
    """The language the terminal's environment asks for, if the app speaks it, else
    "en" ("C" and "POSIX" are English)."""
    environ = os.environ if environ is None else environ
    for name in VARIABLES:
        value = environ.get(name, "")
        if not value:
            continue
        for entry in value.split(":"):
            code = entry.split(".")[0].split("@")[0].split("_")[0].lower()
            if code in SPOKEN:
                return code
        if name == "LANGUAGE":
            # A list of languages none of which the app speaks: the locale may still.
            continue
        return "en"
    return "en"


class _Catalogue:
    """A language's catalogue as a ``words.Translator``."""

    def __init__(self, language: str) -> None:
        self.language = language
        self.translations: NullTranslations = Translations.load(str(TRANSLATIONS),
                                                                [language])

    def gettext(self, message: str) -> str:
        return self.translations.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self.translations.ngettext(singular, plural, n)

    def number(self, value: int | float) -> str:
        return format_decimal(value, locale=self.language)


@cache
def catalogue(language: str) -> words.Translator:
    """The catalogue of ``language`` (one the app speaks), read once per process: the
    terminal's, a page's (companion/web/i18n.py) or that of a refusal the server writes
    itself (companion/server/raw.py)."""
    return words.ENGLISH if language not in SPOKEN[1:] else _Catalogue(language)


def translator(environ: Mapping[str, str] | None = None) -> words.Translator:
    """The terminal's catalogue (English when its language is not one the app speaks)."""
    return catalogue(terminal_language(environ))


def say(value: Any, environ: Mapping[str, str] | None = None) -> str:
    """``value`` (a Text, or a plain string) as the terminal's reader reads it."""
    if isinstance(value, words.Text):
        return value.in_language(translator(environ))
    return str(value)
