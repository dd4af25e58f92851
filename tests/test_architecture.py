"""Imports run downward only (docs/ARCHITECTURE.md): cli -> server -> web -> storage ->
games.

The test reads every module of the package with ``ast`` (nothing is imported or run) and
fails on an import that runs upward: a game importing the platform, Flask or SQL; the
tournaments' pure logic importing storage; storage importing the web layer; anything
but the command line importing the server. Every module is in a room with such rules.
"""

from __future__ import annotations

import ast
from pathlib import Path

import companion

PACKAGE = Path(companion.__file__).resolve().parent

WEB_FRAMEWORK = ("flask", "werkzeug", "jinja2", "htmx_flask", "waitress")
SQL = ("sqlite3", "sqlite_utils")

# The layers, top down: the command line, the server, the web layer (with the app
# factory), storage, and the pure rules.
ENTRY = ("companion.cli", "companion.__main__")
SERVER = ("companion.server",)
WEB = ("companion.web",)
STORAGE = ("companion.tables", "companion.db", "companion.importing", "companion.logstore",
           "companion.broadcast", "companion.net", "companion.tournaments.storage",
           "companion.decks", "companion.history")
PLATFORM = (*ENTRY, *SERVER, *WEB, *STORAGE)

# Room -> import prefixes it must never reach. A room holds the module of its name and,
# by prefix, every module under it; a module follows the rules of every room holding
# it. The package root ("companion": create_app) holds only itself, so that a new
# module is never covered by accident.
ROOMS: dict[str, tuple[str, ...]] = {
    "companion.__main__": SERVER,
    "companion.cli": (),
    "companion.server": ENTRY,
    "companion": (*ENTRY, *SERVER),
    "companion.web": (*ENTRY, *SERVER),
    "companion.tables": (*ENTRY, *SERVER, *WEB, "companion.tournaments"),
    "companion.importing": (*ENTRY, *SERVER, *WEB),
    "companion.db": (*ENTRY, *SERVER, *WEB, "companion.tables", "companion.importing",
                     "companion.tournaments"),
    "companion.broadcast": (*ENTRY, *SERVER, *WEB, "companion.tables", "companion.db",
                            *WEB_FRAMEWORK, *SQL),
    "companion.net": (*ENTRY, *SERVER, *WEB),
    # Read by tables and importing (a table's export carries its game's deck).
    "companion.decks": (*ENTRY, *SERVER, *WEB, "companion.tables", "companion.importing",
                        "companion.tournaments"),
    # Written by tables (an end) and importing (an import); its backfill reads the log
    # through the tables.game_end it is handed: it never imports tables.
    "companion.history": (*ENTRY, *SERVER, *WEB, "companion.tables", "companion.importing",
                          "companion.tournaments"),
    "companion.tournaments": (*ENTRY, *SERVER, *WEB),
    # Pure: the words people read, translated where they are shown.
    "companion.words": (*PLATFORM, "companion.tournaments", "companion.games",
                        *WEB_FRAMEWORK, *SQL),
    # Pure: a name as a person typed it, refused in the field's own words; read by
    # storage (a seat's name, the history's filters), the tournaments and the web layer.
    "companion.names": (*PLATFORM, "companion.tournaments", "companion.games",
                        *WEB_FRAMEWORK, *SQL),
    # The terminal's language (the command line's words, the database watch's): the
    # catalogues read with Babel, nothing of the platform nor of Flask.
    "companion.terminal": (*PLATFORM, "companion.tournaments", "companion.games",
                           *WEB_FRAMEWORK, *SQL),
    # Pure: the history's plots drawn from numbers.
    "companion.plots": (*PLATFORM, "companion.tournaments", "companion.games",
                        *WEB_FRAMEWORK, *SQL),
    # Pure: functions of their arguments, no Flask, no SQL, nothing of the platform.
    "companion.logstore": (*PLATFORM, "companion.tournaments", "companion.games",
                           *WEB_FRAMEWORK, *SQL),
    "companion.tournaments.logic": (*PLATFORM, *WEB_FRAMEWORK, *SQL),
    "companion.games": (*PLATFORM, "companion.tournaments", *WEB_FRAMEWORK, *SQL),
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


def rooms_of(name: str) -> list[str]:
    """The rooms holding a module (the package root holds only itself)."""
    return [room for room in ROOMS
            if name == room or (room != PACKAGE.name and reaches(name, room))]


def violations(name: str, imported: set[str]) -> list[str]:
    found = []
    for target in sorted(imported):
        broken = [room for room in rooms_of(name)
                  if any(reaches(target, prefix) for prefix in ROOMS[room])]
        if broken:
            found.append(f"{name} imports {target} (runs upward past {broken[0]})")
    return found


def package_modules() -> dict[str, set[str]]:
    """Every module of the package and what it imports."""
    modules = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        name = module_name(path)
        modules[name] = imports_of(path.read_text(), name, path.name == "__init__.py")
    assert len(modules) > 20, "the walk found too few modules to mean anything"
    return modules


def test_no_import_runs_upward():
    problems = []
    for name, imported in package_modules().items():
        problems += violations(name, imported)
    assert problems == []


def test_every_module_is_in_a_room():
    assert [name for name in package_modules() if not rooms_of(name)] == []


def test_only_the_command_line_imports_the_server():
    importers = {name for name, imported in package_modules().items()
                 if not reaches(name, "companion.server")
                 and any(reaches(target, "companion.server") for target in imported)}
    assert importers == {"companion.cli"}


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
    server = "from companion.server import make_server\n"
    assert violations("companion.web.seat", imports_of(server, "companion.web.seat", False))
    assert violations("companion", imports_of("from companion import server\n", "companion",
                                              True))
    assert violations("companion.cli", imports_of(server, "companion.cli", False)) == []
    logic = "from companion.tournaments import storage\n"
    assert violations("companion.tournaments.logic",
                      imports_of(logic, "companion.tournaments.logic", False))
    # A new module in no room is noticed; one inside a room's package is held by it.
    assert rooms_of("companion.elsewhere") == []
    assert rooms_of("companion.server.newpart") == ["companion.server"]
