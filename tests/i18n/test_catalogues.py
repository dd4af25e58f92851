"""The catalogues hold every string the pages and the terminal show, in German and
French: extract the marked strings from the code and templates (as ``pybabel extract``
does, babel.cfg), then compare with companion/translations."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from companion.web.i18n import LANGUAGES, TRANSLATIONS

ROOT = Path(__file__).resolve().parents[2]
KEYWORDS = {"_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2)}
TRANSLATED = sorted(set(LANGUAGES) - {"en"})


@cache
def extracted() -> dict[tuple[str | None, str], set[str]]:
    """Every marked message of the project (its context, its msgid), with where it is."""
    with (ROOT / "babel.cfg").open() as config:
        method_map, options_map = parse_mapping_cfg(config)
    found: dict[tuple[str | None, str], set[str]] = {}
    for path, line, message, _comments, context in extract_from_dir(
            str(ROOT), method_map, options_map, keywords=KEYWORDS):
        msgid = message[0] if isinstance(message, tuple) else message
        if msgid:
            found.setdefault((context, msgid), set()).add(f"{path}:{line}")
    return found


def _msgid(message) -> str:
    return message.id if isinstance(message.id, str) else message.id[0]


def catalogue(language: str) -> Catalog:
    with (TRANSLATIONS / language / "LC_MESSAGES" / "messages.po").open("rb") as file:
        return read_po(file, locale=language)


def _key(value: str | tuple | list) -> str | tuple:
    # A plural's forms: a tuple from the .po, a list from the .mo.
    return value if isinstance(value, str) else tuple(value)


def _translated(message) -> bool:
    strings = message.string if isinstance(message.string, tuple) else (message.string,)
    return all(strings) and not message.fuzzy


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_string_shown_is_translated(language):
    po = catalogue(language)
    missing = sorted(f"{msgid!r} ({sorted(where)[0]})"
                     for (context, msgid), where in extracted().items()
                     if po.get(msgid, context=context) is None
                     or not _translated(po.get(msgid, context=context)))
    assert not missing, f"{len(missing)} strings lack a {language} translation:\n" + "\n".join(
        missing[:40])


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_catalogue_holds_nothing_the_code_no_longer_shows(language):
    stale = sorted(_msgid(m) for m in catalogue(language)
                   if m.id and (m.context, _msgid(m)) not in extracted())
    assert not stale, f"run tools/catalogues.py: {stale[:20]}"


@pytest.mark.parametrize("language", TRANSLATED)
def test_placeholders_match_in_every_translation(language):
    errors = [(message.id, [str(e) for e in found])
              for message, found in catalogue(language).check() if found]
    assert not errors, errors[:20]


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_compiled_catalogue_is_the_one_written(language):
    with (TRANSLATIONS / language / "LC_MESSAGES" / "messages.mo").open("rb") as file:
        compiled = {(m.context, _key(m.id)): _key(m.string) for m in read_mo(file) if m.id}
    written = {(m.context, _key(m.id)): _key(m.string) for m in catalogue(language)
               if m.id and _translated(m)}
    assert compiled == written, "run tools/catalogues.py (pybabel compile)"
