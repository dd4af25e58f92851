"""Words for people, in the reader's language.

Every sentence the app shows a person (a page, a refusal, a prompt, the terminal) is a
``Text``: made where the words are known (a game's rules, a template, the command line)
and translated only where they are shown, into the language of whoever reads them
(companion/web/i18n.py for pages, companion/cli.py for the terminal). A game thus stays
pure (no Flask, no catalogue), and two phones at one table may read two languages.

A ``Text`` is a ``str`` whose value is the English sentence, so code and tests that
compare, join or store it see English. Joining it to other text, ``str()`` or storing it
in a state keeps only that English: build a whole sentence with ``_`` and its
placeholders instead, and keep keys, not sentences, in states.

``_("Jack moved %(count)s times", count=n)`` and ``ngettext(singular, plural, n)`` are
the markers ``pybabel extract`` reads (babel.cfg); placeholders are gettext's
``%(name)s``. A placeholder's value may be a ``Text`` itself (a character's name): it is
translated too. Numbers are written the reader's way.
"""

from __future__ import annotations

from typing import Any, Protocol


class Translator(Protocol):
    """What a catalogue gives: its sentences, its plurals and its numbers."""

    def gettext(self, message: str) -> str: ...
    def ngettext(self, singular: str, plural: str, n: int) -> str: ...
    def number(self, value: int | float) -> str: ...


class _English:
    """No catalogue: the words as written (a Text's own value)."""

    def gettext(self, message: str) -> str:
        return message

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return singular if n == 1 else plural

    def number(self, value: int | float) -> str:
        return str(value)


ENGLISH: Translator = _English()


class Text(str):
    """A sentence: its English as the string, its message id and placeholders kept for
    translating it (``in_language``)."""

    msgid: str
    plural: str | None
    n: int | None
    params: dict[str, Any]

    def __new__(cls, msgid: str, plural: str | None = None, n: int | None = None,
                params: dict[str, Any] | None = None) -> Text:
        params = params or {}
        self = super().__new__(cls, _fill(msgid, plural, n, params, ENGLISH))
        self.msgid, self.plural, self.n, self.params = msgid, plural, n, params
        return self

    def in_language(self, translator: Translator) -> str:
        """The sentence as ``translator``'s catalogue writes it."""
        if translator is ENGLISH:
            # The Text's own value is its English, filled when it was made: a long log
            # of nested Texts is not filled again on every page.
            return str.__str__(self)
        return _fill(self.msgid, self.plural, self.n, self.params, translator)

    def template(self, translator: Translator) -> str:
        """The catalogue's sentence before its placeholders are filled."""
        return _words(self.msgid, self.plural, self.n, translator)

    def as_data(self) -> dict[str, Any]:
        """The Text as JSON can keep it (in a state, a row): ``from_data`` makes it again."""
        data: dict[str, Any] = {"msgid": self.msgid}
        if self.plural is not None:
            data.update(plural=self.plural, n=self.n)
        if self.params:
            data["params"] = {name: value.as_data() if isinstance(value, Text) else value
                              for name, value in self.params.items()}
        return data


def from_data(data: Any) -> str:
    """A Text kept by ``as_data``; anything else (a sentence kept in English before, a
    hostile file's junk) as a plain string, never an error."""
    if not isinstance(data, dict):
        return _from_data(data)
    # A page draws a game's whole log of kept Texts for every viewer, again after every
    # action: each is made once. Its ``repr`` is all a JSON value holds.
    key = repr(data)
    made = _MADE.get(key)
    if made is None:
        if len(_MADE) >= _MADE_AT_MOST:
            _MADE.clear()
        made = _MADE[key] = _from_data(data)
    return made


_MADE: dict[str, str] = {}
_MADE_AT_MOST = 8192


def _from_data(data: Any) -> str:
    if not isinstance(data, dict) or not isinstance(data.get("msgid"), str):
        return data if isinstance(data, str) else ""
    params = data.get("params") if isinstance(data.get("params"), dict) else {}
    kept = {str(name): _from_data(value) if isinstance(value, dict) else value
            for name, value in params.items()
            if isinstance(value, str | int | float | dict) and not isinstance(value, bool)}
    plural = data.get("plural")
    n = data.get("n")
    if isinstance(plural, str) and isinstance(n, int) and not isinstance(n, bool):
        return Text(data["msgid"], plural, n, kept)
    return Text(data["msgid"], params=kept)


CONTEXT = "\x04"
"""gettext's mark between a message's context and its words (``pgettext``): a catalogue
keeps ``context + CONTEXT + words`` as the message's key."""


def _words(msgid: str, plural: str | None, n: int | None, translator: Translator) -> str:
    words = translator.gettext(msgid) if plural is None else translator.ngettext(
        msgid, plural, n or 0)
    # No catalogue has it (English, a missing translation): the words, not the context.
    return words.split(CONTEXT, 1)[1] if CONTEXT in words else words


def _fill(msgid: str, plural: str | None, n: int | None, params: dict[str, Any],
          translator: Translator) -> str:
    words = _words(msgid, plural, n, translator)
    if not params:
        return words
    filled = {name: shown(value, translator) for name, value in params.items()}
    try:
        return words % filled
    except (KeyError, ValueError, TypeError):
        # A translation (or a kept sentence) whose placeholders do not match: the
        # English, or at worst the bare sentence, rather than an error page.
        english = _words(msgid, plural, n, ENGLISH)
        try:
            return english % filled
        except (KeyError, ValueError, TypeError):
            return english


def shown(value: Any, translator: Translator) -> Any:
    """``value`` as ``translator``'s reader reads it: a Text translated, a number
    written their way; anything else as it is."""
    if isinstance(value, Text):
        return value.in_language(translator)
    if isinstance(value, int | float) and not isinstance(value, bool):
        return translator.number(value)
    return value


def _(message: str, **params: Any) -> Text:
    """``message`` to be translated where it is shown, its ``%(name)s`` placeholders
    filled from ``params``."""
    return Text(message, params=params)


def pgettext(context: str, message: str, **params: Any) -> Text:
    """``message`` in ``context``: the same English words that another language writes
    otherwise there (French "aucun" after a masculine noun, "aucune" after a feminine
    one)."""
    return Text(context + CONTEXT + message, params=params)


def ngettext(singular: str, plural: str, n: int, **params: Any) -> Text:
    """The singular or plural of a sentence by ``n`` (and by the reader's language's
    rules: French and German count differently from English); ``%(n)s`` is ``n``."""
    return Text(singular, plural, n, {"n": n, **params})
