"""The language of each device: English, German or French, one tap to change.

A device reads the language it chose (one tap on any page, kept in its session), else
the first of its browser's languages the app speaks, else English. Two phones at one
table may so read two languages; the laptop's table screen reads its own choice.

Pages translate every ``companion.words.Text`` they show as they are drawn (``shown`` is
Jinja's ``finalize``): the games make English ``Text``s and never know who reads them.
The catalogues are gettext's, under companion/translations (docs/TRANSLATING.md).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable
from typing import Any

from flask import Blueprint, Flask, g, has_request_context, redirect, request, session
from flask_babel import Babel
from markupsafe import Markup
from werkzeug import Response

from companion import words
from companion.terminal import LANGUAGES, TRANSLATIONS, catalogue

bp = Blueprint("language", __name__)


def chosen_language() -> str:
    """This device's language: its own choice, else its browser's, else English."""
    if not has_request_context():
        return "en"
    chosen = session.get("language")
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(LANGUAGES, "en")


def translator() -> words.Translator:
    """The reader's catalogue: this request's device's language (English outside one)."""
    if not has_request_context():
        return words.ENGLISH
    if "translator" not in g:
        # The catalogues the terminal reads too (English is a Text's own value).
        g.translator = catalogue(chosen_language())
    return g.translator


def shown(value: Any) -> Any:
    """Jinja's ``finalize``: a Text in the reader's language, anything else as it is.

    A placeholder that is markup (a ``{% set %}`` block: a word in bold, a link) stays
    markup; the sentence around it and every other placeholder are escaped."""
    if not isinstance(value, words.Text):
        return value
    reader = translator()
    if not any(hasattr(v, "__html__") for v in value.params.values()):
        return value.in_language(reader)
    filled = {name: v if hasattr(v, "__html__") else words.shown(v, reader)
              for name, v in value.params.items()}
    try:
        return Markup.escape(value.template(reader)) % filled
    except (KeyError, ValueError, TypeError):
        return Markup.escape(value.template(words.ENGLISH)) % filled


def in_language(value: Any) -> Any:
    """``value`` (a Text, or a plain string) as this request's reader reads it: for what
    leaves the app outside a template (a refusal's header, a file's name)."""
    return words.shown(value, translator()) if isinstance(value, words.Text) else value


def _default_words(game: Any) -> dict[str, words.Text]:
    """The Texts of a game's default options (card names, letter names): English -> Text."""
    found: dict[str, words.Text] = {}

    def walk(value: Any) -> None:
        if isinstance(value, words.Text):
            found[str(value)] = value
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list | tuple):
            for item in value:
                walk(item)

    walk(game.default_options())
    return found


def _each_line(form: dict[str, str], fields: Iterable[str],
               change: Callable[[str], str]) -> dict[str, str]:
    return {**form, **{field: "\n".join(change(line) for line in form[field].splitlines())
                       for field in fields if isinstance(form.get(field), str)}}


def in_reader_words(game: Any, form: dict[str, str], fields: Iterable[str]) -> dict[str, str]:
    """A form's text ``fields`` (one name a line) with each of the game's default names in
    the reader's language: a German laptop's box reads "Story 1 der Reihe", not the
    English the default is kept as."""
    names = _default_words(game)
    return _each_line(form, fields,
                      lambda line: in_language(names[line]) if line in names else line)


def in_english(game: Any, typed: dict[str, str], fields: Iterable[str]) -> dict[str, str]:
    """Typed ``fields`` with each default name, in whichever language it was shown, back
    as the default it is: a deck saved untouched in German is still the default deck."""
    back = {text.in_language(catalogue(language)): english
            for english, text in _default_words(game).items() for language in LANGUAGES}
    return _each_line(typed, fields, lambda line: back.get(line.strip(), line))


@bp.get("/language/<code>")
def choose(code: str) -> Response:
    """One tap: this device reads ``code`` from now on, back on the page it was on. A
    link, not a form: a preference of the device's own, it changes nothing at any table
    (and a page keeps no form, no token, for a viewer who may post nothing)."""
    if code in LANGUAGES:
        session["language"] = code
        session.permanent = True
    return redirect(own_path(request.args.get("next", "")), code=303)


def own_path(back: str) -> str:
    """``back`` when it is a path of this app, else ``/``: never another site (an open
    redirect), never a header the server cannot write (a 500).

    One leading ``/`` and no second one (so no scheme and no host), no backslash
    (browsers read it as a slash), and no control character: browsers drop a tab or a
    line break from an address, so ``/<tab>/evil.example`` would arrive as
    ``//evil.example``, and a line break cannot go in a header at all."""
    if (not back.startswith("/") or back.startswith("//") or "\\" in back
            or any(unicodedata.category(char) == "Cc" for char in back)):
        return "/"
    return back


def _language_context() -> dict[str, Any]:
    return {"language": chosen_language(), "languages": LANGUAGES}


def init_app(app: Flask) -> None:
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(TRANSLATIONS))
    Babel(app, locale_selector=chosen_language)
    # Templates mark their words with the same ``_`` as the games: a Text, translated as
    # it is shown (``shown``), so a template's sentence may take a game's Text as a
    # placeholder.
    app.jinja_env.globals.update(_=words._, gettext=words._, ngettext=words.ngettext,
                                 pgettext=words.pgettext)
    # For a Text a filter works on (``|upper``, ``|join``): translated first.
    app.jinja_env.filters["translated"] = in_language
    app.context_processor(_language_context)
    app.register_blueprint(bp)
