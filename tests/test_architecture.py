"""Imports run downward only (docs/ARCHITECTURE.md): web -> storage -> games.

The test reads every module of the package with ``ast`` (nothing is imported or run) and
fails on an import that runs upward: a game importing the platform, Flask or SQL; the
tournaments' pure logic importing storage; storage importing the web layer.
"""

from __future__ import annotations

import ast
from pathlib import Path

import companion

PACKAGE = Path(companion.__file__).resolve().parent

WEB_FRAMEWORK = ("flask", "werkzeug", "jinja2", "htmx_flask", "waitress")
SQL = ("sqlite3", "sqlite_utils")

# Module prefix -> import prefixes it must never reach.
FORBIDDEN: dict[str, tuple[str, ...]] = {
    "companion.games": ("companion.web", "companion.tables", "companion.db",
                        "companion.tournaments", "companion.live", "companion.net",
                        "companion.cli", *WEB_FRAMEWORK, *SQL),
    "companion.tournaments.logic": ("companion.web", "companion.tables", "companion.db",
                                    "companion.tournaments.storage", *WEB_FRAMEWORK, *SQL),
    "companion.tables": ("companion.web", "companion.tournaments", "companion.cli"),
    "companion.db": ("companion.web", "companion.tables", "companion.tournaments",
                     "companion.cli"),
    "companion.tournaments.storage": ("companion.web", "companion.cli"),
    "companion.live": ("companion.web", "companion.cli"),
    "companion.net": ("companion.web", "companion.cli"),
    "companion.web": ("companion.cli",),
}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(source: str, name: str, is_package: bool) -> set[str]:
    """Every module a source imports, relative imports resolved against ``name``."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".")
                base = base[:len(base) - node.level + (1 if is_package else 0)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found.add(target)
            found.update(f"{target}.{alias.name}" for alias in node.names)
    return found


def reaches(imported: str, prefix: str) -> bool:
    return imported == prefix or imported.startswith(prefix + ".")


def violations(name: str, imported: set[str]) -> list[str]:
    found = []
    for owner, banned in FORBIDDEN.items():
        if reaches(name, owner):
            found += [f"{name} imports {target} (runs upward past {owner})"
                      for target in sorted(imported)
                      for prefix in banned if reaches(target, prefix)]
    return found


def test_no_import_runs_upward():
    problems = []
    modules = sorted(PACKAGE.rglob("*.py"))
    assert len(modules) > 20, "the walk found too few modules to mean anything"
    for path in modules:
        name = module_name(path)
        problems += violations(name, imports_of(path.read_text(), name,
                                                path.name == "__init__.py"))
    assert problems == []


def test_the_walk_catches_an_upward_import():
    # The same check on sources that break the rule, so a silent walker cannot pass.
    game = "from companion import tables\nfrom flask import g\n"
    assert len(violations("companion.games.mrjack",
                          imports_of(game, "companion.games.mrjack", False))) == 3
    relative = "from ...web import render\n"
    assert violations("companion.games.whitechapel.board",
                      imports_of(relative, "companion.games.whitechapel.board", False))
    storage = "import companion.web.context\n"
    assert violations("companion.tables", imports_of(storage, "companion.tables", False))
    assert violations("companion.games.london1888",
                      imports_of("import sqlite3\n", "companion.games.london1888", False))
    fine = "from companion.games.base import RuleError\n"
    assert violations("companion.tables", imports_of(fine, "companion.tables", False)) == []
