"""Bring the catalogues up to date with the code (docs/TRANSLATING.md): extract every
marked string (`pybabel extract`, babel.cfg), update each language's messages.po
(`pybabel update`, or `init` for a new language), compile it (`pybabel compile`), and
list the strings still untranslated.

    .venv/bin/python tools/catalogues.py [--only PATH_PREFIX ...]

``--only`` lists only the untranslated strings found in files under those prefixes.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.web.i18n import LANGUAGES, TRANSLATIONS  # noqa: E402

POT = TRANSLATIONS / "messages.pot"
PLURALS = {"de": (2, "(n != 1)"), "fr": (2, "(n > 1)")}
"""gettext's usual rules, as the catalogues are written. Babel's own French rule has a
third form (CLDR's "many": a million and more), which would leave every ordinary French
plural of 2 to 999,999 untranslated."""


def pybabel(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "babel.messages.frontend", "-q", *args],
                   check=True, cwd=ROOT)


def _untranslated(message) -> bool:
    strings = message.string if isinstance(message.string, tuple) else (message.string,)
    return not all(strings) or message.fuzzy


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--only", nargs="*", default=[])
    args = parser.parse_args()
    pybabel("extract", "-F", "babel.cfg", "-k", "_", "-k", "ngettext:1,2",
            "-k", "pgettext:1c,2", "--no-wrap",
            "--sort-by-file", "--project", "companion", "-o", str(POT), ".")
    missing = 0
    for language in sorted(set(LANGUAGES) - {"en"}):
        po = TRANSLATIONS / language / "LC_MESSAGES" / "messages.po"
        if po.exists():
            pybabel("update", "-i", str(POT), "-d", str(TRANSLATIONS), "-l", language,
                    "--no-fuzzy-matching", "--no-wrap", "--ignore-obsolete")
        else:
            pybabel("init", "-i", str(POT), "-d", str(TRANSLATIONS), "-l", language,
                    "--no-wrap")
            with po.open("rb") as file:
                catalogue = read_po(file, locale=language)
            if language in PLURALS:  # Babel keeps the header's rule in these (no setter)
                catalogue._num_plurals, catalogue._plural_expr = PLURALS[language]
            with po.open("wb") as file:
                write_po(file, catalogue, width=0, sort_by_file=True)
        pybabel("compile", "-d", str(TRANSLATIONS), "-l", language)
        with po.open("rb") as file:
            catalogue = read_po(file, locale=language)
        for message in catalogue:
            if not message.id or not _untranslated(message):
                continue
            places = sorted({path for path, _line in message.locations})
            if args.only and not any(p.startswith(tuple(args.only)) for p in places):
                continue
            missing += 1
            print(f"{language}: {message.id!r}  ({', '.join(places)})")
    print(f"{missing} untranslated", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    raise SystemExit(main())
