"""Board files on the pages (docs/boards.md): the loaded boards' names, a board's
map for a view, and each board's unchanging drawing served once as a cacheable SVG.

The boards are read once at start (``create_app``: ``app.config["BOARDS"]``).
Nothing here reads a game state: a new table's options name a board, and the
board's graph is attached to them so that the game keeps it in its state
(``with_board``); a page's map is drawn from the page's view only
(``companion.games.whitechapel.boardmap``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from flask import Blueprint, Flask, Response, abort, current_app, render_template, request, url_for

from companion.games.base import RuleError
from companion.games.whitechapel.board import SHIPPED_NAME, Board
from companion.games.whitechapel.boardmap import base_layer, map_context
from companion.games.whitechapel.policemap import police_map
from companion.games.whitechapel.state import COLOUR_NAMES, COLOUR_TITLES, KIND_NAMES, RESULTS
from companion.words import _

bp = Blueprint("boards", __name__)

DRAWING_MAX_AGE = 60 * 60 * 24 * 30
"""A drawing's address carries its fingerprint, so a changed board is a new address."""


def loaded() -> Mapping[str, Board]:
    return current_app.config.get("BOARDS") or {}


def board_names() -> list[str]:
    """The names of the loaded boards, for a setup form's board select."""
    return sorted(loaded())


def default_board() -> str:
    """The board a new table plays on unless its setup says otherwise: the shipped one
    (docs/RULINGS.md#letters-from-whitechapel, "Board mode"), else the first loaded."""
    names = board_names()
    return SHIPPED_NAME if SHIPPED_NAME in names else (names[0] if names else "")


def with_board(options: Mapping[str, Any]) -> dict[str, Any]:
    """A new table's options, plus the graph of the board they name (if any).

    A name that is not loaded (a remembered form from another start, a forged
    post) is refused: the table would silently play without its board.
    """
    name = options.get("board")
    if not name:
        return dict(options)
    board = loaded().get(str(name))
    if board is None:
        raise RuleError(_("The board “%(board)s” is not loaded on this laptop. Start the "
                          "companion with --board, or choose “no board: numbers only”.",
                          board=str(name)[:60]))
    if options.get("police_map") and not board.has_crossings:
        raise RuleError(_("The board “%(board)s” has no police crossings: untick Police on "
                          "the map, or choose a board that has them.", board=board.name))
    return {**options, "board_graph": board.graph()}


@lru_cache(maxsize=8)
def _fingerprint(board: Board) -> str:
    return hashlib.sha256(repr(board.to_dict()).encode()).hexdigest()[:16]


def board_map_for(name: Any, view: Mapping[str, Any]) -> dict[str, Any] | None:
    """What ``_map.html`` draws for ``view`` on the loaded board ``name``; None
    when that board is not loaded (the page then works with numbers only)."""
    board = loaded().get(str(name)) if name else None
    if board is None:
        return None
    context = map_context(board, view, request.args)
    # A phone lays its marks over the drawing, fetched once; the table screen draws
    # every circle itself, numbers large enough to read from a chair (static/app.css).
    if view.get("role") != "table":
        context["drawing"] = url_for("boards.drawing", fingerprint=_fingerprint(board),
                                     name=board.name)
    return context


def police_map_for(name: Any, view: Mapping[str, Any]) -> dict[str, Any] | None:
    """What ``_police_map.html`` draws for ``view`` (police on the map) on the loaded
    board ``name``, over the board's drawing; None when it is not loaded."""
    board = loaded().get(str(name)) if name else None
    context = police_map(board, view, request.args) if board is not None else None
    if context is not None:
        drawn = drawing_of(board)
        context["drawing"], context["drawing_box"] = drawn["url"], drawn["box"]
    return context


def drawing_of(board: Board) -> dict[str, Any]:
    """Where a page lays the board's drawing under its own marks: the drawing's address
    and the box it covers, in board units."""
    left, top, width, height = base_layer(board)["box"]
    return {"url": url_for("boards.drawing", fingerprint=_fingerprint(board),
                           name=board.name),
            "box": {"x": left, "y": top, "width": width, "height": height}}


@bp.get("/boards/<fingerprint>/<path:name>.svg")
def drawing(fingerprint: str, name: str) -> Response:
    """The board's streets, alleys and circles: the same for every page and every
    update, so a phone fetches it once and each update sends only the marks."""
    board = loaded().get(name)
    if board is None or fingerprint != _fingerprint(board):
        abort(404, _("There is no such board on this laptop."))
    svg = render_template("boards/drawing.svg", layer=base_layer(board))
    response = Response(svg, mimetype="image/svg+xml")
    response.set_etag(fingerprint)
    response.cache_control.public = True
    response.cache_control.max_age = DRAWING_MAX_AGE
    return response.make_conditional(request)


def register(app: Flask) -> None:
    """The drawing's route and the templates' board helpers."""
    app.register_blueprint(bp)
    app.jinja_env.globals["boards"] = board_names
    app.jinja_env.globals["default_board"] = default_board
    app.jinja_env.globals["board_map_for"] = board_map_for
    app.jinja_env.globals["police_map_for"] = police_map_for
    # The game's words by key (a policeman's colour, a search's answer, a square's
    # kind): the view keeps keys, its pages say them in the reader's words.
    app.jinja_env.globals["wc_words"] = {"colour": COLOUR_NAMES, "Colour": COLOUR_TITLES,
                                         "kind": KIND_NAMES, "result": RESULTS}
