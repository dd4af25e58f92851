"""The companion: hidden parts of Jack the Ripper board games on the players' phones."""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

from flask import Flask
from htmx_flask import Htmx

from companion import db as database
from companion import history, tables
from companion.broadcast import Broadcaster
from companion.db.migrations import migrate
from companion.db.watch import require_writable
from companion.games import discover
from companion.games.whitechapel.board import SHIPPED_BOARDS, load_boards
from companion.web import limits
from companion.web.templating import ViewEnvironment

ROOT = Path(__file__).resolve().parent.parent


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """The Flask app (flaskr style): config, database, blueprints."""
    app = Flask(__name__, instance_path=str(ROOT / "instance"),
                template_folder=str(ROOT / "templates"), static_folder=str(ROOT / "static"))
    app.jinja_environment = ViewEnvironment
    app.config.from_mapping(
        DATABASE=os.path.join(app.instance_path, "companion.sqlite"),
        GAMES=None,
        PUBLIC_URLS=None,
        BOARD_DIR=None,
        BOARD_PATHS=[],
        SHIPPED_BOARDS=list(SHIPPED_BOARDS),
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_NAME="companion",
        PERMANENT_SESSION_LIFETIME=60 * 60 * 24 * 30,
        SESSION_REFRESH_EACH_REQUEST=False,
        SEND_FILE_MAX_AGE_DEFAULT=60 * 60 * 24,
        MAX_CONTENT_LENGTH=2 * 1024 * 1024,
        LIVE_HEARTBEAT=15.0,
        LIVE_LIFETIME=300.0,
        # Deals and lots: the system's randomness, or a seeded random.Random in tests.
        RNG=None,
        # Tables and tournaments one client address may create in a window of seconds
        # (web/limits.py).
        CREATE_LIMIT=limits.CREATE_LIMIT,
        TOURNAMENT_LIMIT=limits.TOURNAMENT_LIMIT,
        CREATE_WINDOW=limits.CREATE_WINDOW,
    )
    if test_config is not None:
        app.config.from_mapping(test_config)
    if app.config["GAMES"] is None:
        app.config["GAMES"] = discover()
    # Letters from Whitechapel board files (docs/boards.md): the shipped board,
    # instance/boards/ and --board paths, read once; a broken one stops the start
    # with a BoardError.
    if app.config["BOARD_DIR"] is None:
        app.config["BOARD_DIR"] = os.path.join(app.instance_path, "boards")
    app.config["BOARDS"] = load_boards(app.config["BOARD_DIR"], app.config["BOARD_PATHS"],
                                       app.config["SHIPPED_BOARDS"])

    Path(app.config["DATABASE"]).parent.mkdir(parents=True, exist_ok=True)
    require_writable(app.config["DATABASE"])
    migrate(app.config["DATABASE"])
    app.secret_key = _secret_key(app.config["DATABASE"])
    _fill_history(app.config["DATABASE"], app.config["GAMES"])
    database.watch_file(app)
    app.teardown_appcontext(database.close_db)
    app.extensions["broadcaster"] = Broadcaster()
    Htmx(app)

    from companion.web import register
    register(app)
    return app


def _fill_history(path: str, games: dict[str, Any]) -> None:
    """Once per database file: the club's history of the games that ended before it had
    one (migration m008); after that, every end writes its own row."""
    db = database.connect(path)
    try:
        with database.write_transaction(db):
            if next(iter(db.query("SELECT 1 FROM settings WHERE key = 'history_filled'")),
                    None) is None:
                history.backfill(db, games, tables.game_end)
                db.execute("INSERT INTO settings (key, value) VALUES ('history_filled', '1')")
    finally:
        db.close()


def _secret_key(path: str) -> str:
    """The signing key, kept in the database so sessions survive a restart."""
    db = database.connect(path)
    try:
        with database.write_transaction(db):
            row = next(iter(db.query("SELECT value FROM settings WHERE key = 'secret_key'")),
                       None)
            if row is None:
                key = secrets.token_hex(32)
                db.execute("INSERT INTO settings (key, value) VALUES ('secret_key', ?)", [key])
                return key
            return row["value"]
    finally:
        db.close()
