"""Build the catalogues: extract every marked string, update de and fr, fill them from
the parts under companion/translations/parts/ (one file per area and language, while the
areas are being translated), compile, and list what is still untranslated.

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
TRANSLATIONS = ROOT / "companion" / "translations"
PARTS = TRANSLATIONS / "parts"
POT = TRANSLATIONS / "messages.pot"
LANGUAGES = ("de", "fr")
# The plural rules the parts are written for (their headers): Babel's own French rule has
# a third form (a million and more), which the parts never fill, so a French plural of 2
# to 999999 fell back to English.
PLURALS = {"de": (2, "(n != 1)"), "fr": (2, "(n > 1)")}


def pybabel(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "babel.messages.frontend", "-q", *args],
                   check=True, cwd=ROOT)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--only", nargs="*", default=[])
    args = parser.parse_args()
    pybabel("extract", "-F", "babel.cfg", "-k", "_", "-k", "ngettext:1,2", "--no-wrap",
            "--sort-by-file", "--project", "companion", "-o", str(POT), ".")
    missing_total = 0
    for language in LANGUAGES:
        po = TRANSLATIONS / language / "LC_MESSAGES" / "messages.po"
        if po.exists():
            pybabel("update", "-i", str(POT), "-d", str(TRANSLATIONS), "-l", language,
                    "--no-fuzzy-matching", "--no-wrap", "--ignore-obsolete")
        else:
            pybabel("init", "-i", str(POT), "-d", str(TRANSLATIONS), "-l", language,
                    "--no-wrap")
        with po.open("rb") as file:
            catalogue = read_po(file, locale=language)
        catalogue._num_plurals, catalogue._plural_expr = PLURALS[language]
        for part in sorted(PARTS.glob(f"*.{language}.po")):
            with part.open("rb") as file:
                for message in read_po(file, locale=language):
                    if message.id and message.string and message.id in catalogue:
                        catalogue[message.id].string = message.string
        with po.open("wb") as file:
            write_po(file, catalogue, width=0, sort_by_file=True, ignore_obsolete=True)
        pybabel("compile", "-d", str(TRANSLATIONS), "-l", language)
        for message in catalogue:
            if not message.id or (message.string and all(message.string)
                                  if isinstance(message.string, tuple) else message.string):
                continue
            places = [path for path, _line in message.locations]
            if args.only and not any(p.startswith(tuple(args.only)) for p in places):
                continue
            missing_total += 1
            print(f"{language}: {message.id!r}  ({', '.join(sorted(set(places)))})")
    print(f"{missing_total} untranslated", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
