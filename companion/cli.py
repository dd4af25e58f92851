"""`companion serve`, and table export/import from the laptop's terminal."""

from __future__ import annotations

import argparse
import errno
import os
import signal
import sqlite3
import sys
import webbrowser
from collections.abc import Callable
from pathlib import Path

from companion import ROOT, create_app, importing, tables
from companion.db import connect, get_db
from companion.db.migrations import migrate
from companion.db.watch import DatabaseUnavailable
from companion.games.whitechapel.board import BoardError
from companion.net import base_urls, qr_ascii
from companion.server import PHONES_PER_ADDRESS, make_server
from companion.terminal import say
from companion.words import _

DEFAULT_DB = str(ROOT / "instance" / "companion.sqlite")


def main(argv: list[str] | None = None) -> int:
    # The help is in the terminal's language (companion/terminal.py); argparse fills its
    # %(default)s itself, so those sentences are marked without placeholders of ours.
    parser = argparse.ArgumentParser(prog="companion", description=say(_(
        "`companion serve`, and table export/import from the laptop's terminal.")))
    commands = parser.add_subparsers(dest="command", required=True)

    serve = commands.add_parser("serve", help=say(_("start the app for the table")))
    serve.add_argument("--host", default="0.0.0.0",
                       help=say(_("address to listen on (default: every interface)")))
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--db", default=DEFAULT_DB,
                       help=say(_("SQLite file (default: %(default)s)")))
    serve.add_argument("--public-url", help=say(_(
        "the address phones should use, e.g. http://192.168.1.20:8000 (default: "
        "detected)")))
    serve.add_argument("--devices", type=int, default=400, help=say(_(
        "phones and screens the room is sized for; twice as many live pages are held "
        "(default: %(default)s)")))
    serve.add_argument("--phones-per-address", type=int, default=PHONES_PER_ADDRESS,
                       metavar="N", help=say(_(
                           "phones that may share one address, behind a router doing NAT, "
                           "a guest network's proxy or a hotspot: each gets a phone's share "
                           "(default: %(default)s)")))
    serve.add_argument("--no-browser", action="store_true",
                       help=say(_("do not open the lobby in this laptop's browser")))
    serve.add_argument("--board", action="append", default=[], metavar="PATH", help=say(_(
        "a Letters from Whitechapel board file to load (repeatable; files in "
        "instance/boards/ are loaded too; see docs/boards.md)")))

    export = commands.add_parser("export",
                                 help=say(_("write a table as JSON (with its secrets)")))
    export.add_argument("code")
    export.add_argument("--db", default=DEFAULT_DB)
    export.add_argument("-o", "--output",
                        help=say(_("file to write (default: standard output)")))

    load = commands.add_parser("import", help=say(_("load a table exported with `export`")))
    load.add_argument("file")
    load.add_argument("--db", default=DEFAULT_DB)

    args = parser.parse_args(argv)
    try:
        return {"serve": _serve, "export": _export, "import": _import}[args.command](args)
    except sqlite3.DatabaseError as error:
        print(say(_("companion: cannot use the database %(path)s: %(error)s.\nIs it a "
                    "companion database, and may this user read and write it?",
                    path=args.db, error=str(error))), file=sys.stderr)
        return 2
    except DatabaseUnavailable as error:
        print(say(_("companion: %(problem)s", problem=error.words)), file=sys.stderr)
        return 2


def _serve(args: argparse.Namespace) -> int:
    db_path = str(Path(args.db).resolve())
    urls = base_urls(args.host, args.port, args.public_url)
    try:
        app = create_app({"DATABASE": db_path, "PUBLIC_URLS": urls,
                          "BOARD_PATHS": args.board})
    except BoardError as error:
        print(say(_("companion: %(error)s\nFix the board file or leave it out (see "
                    "docs/boards.md).", error=str(error))), file=sys.stderr)
        return 2
    try:
        server = make_server(app, args.host, args.port, args.devices,
                             max(1, args.phones_per_address))
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            # Port numbers as they are typed (never "8.000"): passed as text.
            print(say(_("companion: port %(port)s is already in use (is companion already "
                        "running?). Try: companion serve --port %(next)s",
                        port=str(args.port), next=str(args.port + 1))), file=sys.stderr)
        else:
            address = f"{args.host}:{args.port}"
            print(say(_("companion: cannot listen on %(address)s: %(error)s",
                        address=address, error=error.strerror)), file=sys.stderr)
        return 2
    lobby = urls[0] + "/"
    print(say(_("Companion is running. Database: %(path)s", path=db_path)))
    for name in app.config["BOARDS"]:
        print(say(_("Board loaded: %(name)s", name=name)))
    print(say(_("Phones on the same Wi-Fi can open:")))
    for url in urls:
        print(f"  {url}/")
    print(qr_ascii(lobby))
    print(say(_("Lobby: %(address)s   (Ctrl+C to stop)", address=lobby)), flush=True)
    if not args.no_browser and _has_display():
        webbrowser.open(lobby)
    _stop_on_signals(server.stop)
    try:
        server.run()
    finally:
        server.hub.close()
        server.close()
    # Every action was committed before it was acknowledged: nothing is left to save.
    print("\n" + say(_("Stopped. Every table is saved.")), flush=True)
    return 0


def _stop_on_signals(stop: Callable[[], None]) -> None:
    """Ctrl+C, SIGTERM (and Ctrl+Break on Windows) ask the server to stop after its loop's
    turn, rather than raise KeyboardInterrupt wherever the loop thread happens to be."""

    def interrupt(_signum: int, _frame: object) -> None:
        stop()

    for name in ("SIGINT", "SIGTERM", "SIGBREAK"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), interrupt)


def _has_display() -> bool:
    return sys.platform in ("darwin", "win32") or bool(
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def _export(args: argparse.Namespace) -> int:
    migrate(args.db)
    db = connect(args.db)
    table = tables.get_table(db, args.code)
    if table is None:
        print(say(_("companion: no table with the code %(code)s", code=args.code)),
              file=sys.stderr)
        return 1
    data = importing.export_text(importing.export_table(db, table["id"]))
    if args.output:
        Path(args.output).write_text(data, encoding="utf-8")
        print(say(_("Table %(code)s written to %(path)s", code=table["code"],
                    path=args.output)))
    else:
        print(data)
    return 0


def _import(args: argparse.Namespace) -> int:
    """Exit status 1: the file cannot be read; 2: it is not a table this laptop can show."""
    from companion.web.pages import pages_draw

    db_path = str(Path(args.db).resolve())
    migrate(db_path)
    try:
        with open(args.file, "rb") as file:
            raw = file.read(importing.MAX_BYTES + 1)
    except OSError as error:
        print(say(_("companion: cannot read %(path)s: %(error)s", path=args.file,
                    error=error.strerror)), file=sys.stderr)
        return 1
    # The pages are drawn as the server would draw them, to refuse a table that
    # cannot be shown before anything is written.
    try:
        app = create_app({"DATABASE": db_path})
    except BoardError as error:
        print(say(_("companion: %(error)s\nFix the board file (see docs/boards.md).",
                    error=str(error))), file=sys.stderr)
        return 2
    try:
        with app.test_request_context("/import"):
            export = importing.check(importing.read(raw), app.config["GAMES"])
            table, host_token = importing.import_table(get_db(), export, accept=pages_draw,
                                                    by_laptop=True)
    except (importing.BadExport, tables.TableError) as error:
        print(say(_("companion: %(path)s: %(why)s", path=args.file, why=error.message)),
              file=sys.stderr)
        return 2
    print(say(_("Imported table %(code)s. Open this host link on the laptop to control it:",
                code=table["code"])))
    link = f"/h/{host_token}"
    print(say(_("  %(link)s  (after the server's address, e.g. %(example)s)",
                link=link, example="http://127.0.0.1:8000" + link)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
