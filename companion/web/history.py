"""The club's history at /history: every finished game on this laptop, filtered by game
and player, each player's record, each game's endings (Letters from Whitechapel: a heat
map of hideouts and crime scenes), plots, and the list as CSV and JSON.

Everything here is read from the history's rows (``companion.history``), which hold
finished games only: a phone may read it all, and nothing of a game still running can
show. Merging two names is for the laptop alone, as the decks are.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import date
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import format_date

from companion import history, importing, plots, tables
from companion.db import get_db, write_transaction
from companion.games.base import Game, int_or_none
from companion.games.whitechapel.boardmap import heat_layer
from companion.history import HistoryError
from companion.names import clean_name
from companion.net import is_this_laptop
from companion.tournaments import storage as tournaments
from companion.web import i18n, render
from companion.web.boards import drawing_of, loaded
from companion.web.spreadsheet import csv_response
from companion.words import _, ngettext

bp = Blueprint("history", __name__)

ONLY_THE_LAPTOP = _("Names are merged on the laptop running the companion, for the whole "
                    "club's history: open this page there.")
ONLY_THE_LAPTOP_ACCEPTS = _("Imported games are accepted on the laptop running the companion, "
                            "for the whole club's history: open this page there.")
WHITECHAPEL = "whitechapel"


def _games() -> dict[str, Game]:
    """The games that keep a history (their ``result`` hook), by name."""
    return {name: game for name, game in current_app.config["GAMES"].items()
            if hasattr(game, "result")}


def _filters(args: Mapping[str, str]) -> dict[str, Any]:
    """The list's filters from the address: a game, a player (with the names merged
    into theirs) and a page; a HistoryError for what the history cannot show."""
    db = get_db()
    game = args.get("game", "") or None
    if game is not None and game not in _games():
        raise HistoryError(_("This laptop keeps no history of a game called “%(game)s”.",
                             game=game[:40]), 404)
    player, keys = None, None
    if args.get("player"):
        player = clean_name(args["player"], history.PLAYER, HistoryError)
        keys = history.keys_of(db, player)
        if not history.count(db, keys=keys):
            raise HistoryError(_("Nobody called “%(name)s” has finished a game on this "
                                 "laptop.", name=player), 404)
    page = int_or_none(args.get("page", "1") or "1", 1, history.PAGE_MAX)
    if page is None:
        raise HistoryError(_("A page of the history is a whole number from 1: "
                             "use the page links."), 422)
    total = history.count(db, game, keys)
    pages = max(1, -(-total // history.PER_PAGE))
    if page > pages:
        raise HistoryError(ngettext(
            "The history has %(n)s page of games, so there is no page %(page)s.",
            "The history has %(n)s pages of games, so there is no page %(page)s.",
            pages, page=page), 404)
    return {"game": game, "player": player, "keys": keys, "page": page, "pages": pages,
            "total": total}


def _query(filters: Mapping[str, Any], **changes: Any) -> dict[str, Any]:
    """The address arguments of the list with ``filters``, some changed."""
    wanted = {"game": filters.get("game"), "player": filters.get("player"), **changes}
    return {key: value for key, value in wanted.items() if value not in (None, "", 1)}


def _overview(filters: Mapping[str, Any], error: str | None = None,
              status: int = 200) -> Response:
    """The list with its filters; its summary of each game and its plots count the
    games the filters keep, and every name reads as the laptop's merges give it."""
    db = get_db()
    per_game = history.by_game(db, filters["game"], filters["keys"])
    laptop = is_this_laptop(request.remote_addr)
    players = history.players(db)
    return render("history/index.html", "history/_index.html", status=status, error=error,
                  filters=filters, query=_query, games=_games(), per_game=per_game,
                  words={name: ending_words(game) for name, game in _games().items()},
                  rows=history.games(db, filters["game"], filters["keys"], filters["page"],
                                     names=history.names_by_key(players)),
                  players=players, plots=_club_plots(per_game, filters),
                  waiting=_waiting() if laptop else [])


@bp.get("/history")
def index() -> Response:
    try:
        filters = _filters(request.args)
    except HistoryError as refused:
        return _overview(_filters({}), refused.message, refused.status)
    return _overview(filters)


# --- imported games waiting for the laptop ------------------------------------------------
# docs/RULINGS.md#general, "The club's history is the laptop's".

def _waiting() -> list[dict[str, Any]]:
    """Each import from a phone whose games wait: its table, game and players."""
    db = get_db()
    found = []
    for entry in history.waiting(db):
        table = tables.get_table_by_id(db, entry["table_id"])
        if table is not None:
            found.append({**entry, "code": table["code"], "game": table["game"],
                          "names": [seat["name"] for seat in tables.get_seats(
                              db, entry["table_id"]) if seat["name"]]})
    return found


def _decide(table_id: int, keep: bool) -> Response:
    if not is_this_laptop(request.remote_addr):
        abort(403, ONLY_THE_LAPTOP_ACCEPTS)
    db = get_db()
    try:
        with write_transaction(db):
            if keep:
                importing.keep_imported(db, current_app.config["GAMES"], table_id)
            else:
                history.decide(db, table_id, keep=False)
    except HistoryError as refused:
        return _overview(_filters({}), refused.message, refused.status)
    return redirect(url_for("history.index"), code=303)


@bp.post("/history/imports/<int:table_id>/keep")
def keep_import(table_id: int) -> Response:
    """The laptop accepts a phone's import: its finished games enter the history."""
    return _decide(table_id, keep=True)


@bp.post("/history/imports/<int:table_id>/leave-out")
def leave_out_import(table_id: int) -> Response:
    """The laptop leaves a phone's import out of the history for good (the table plays on)."""
    return _decide(table_id, keep=False)


# --- plots -----------------------------------------------------------------------------

def _titles() -> dict[str, str]:
    return {name: game.TITLE for name, game in current_app.config["GAMES"].items()}


def _club_plots(per_game: list[dict[str, Any]], filters: Mapping[str, Any],
                ) -> dict[str, dict[str, Any]]:
    return {"wins": _wins_plot(filters), "jack": _jack_plot(per_game)}


MONTHS_MAX = 36
"""Over more months than this a plot counts per year: ten years of months is noise."""


def _over_time(rows: list[dict[str, Any]], fields: tuple[str, ...]
               ) -> tuple[str, list[str], list[list[int]]]:
    """Each field per month from the first row's month to the last's (a month without
    games is a 0, so the axis runs evenly through time), or per year over more than
    ``MONTHS_MAX`` months: the period's word, the labels and each field's values."""
    if not rows:
        return "month", [], [[] for _ in fields]
    found = {row["month"]: row for row in rows}
    year, month = (int(part) for part in rows[0]["month"].split("-"))
    labels = [rows[0]["month"]]
    while labels[-1] < rows[-1]["month"]:
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
        labels.append(f"{year:04d}-{month:02d}")
    values = [[(found[label][field] or 0) if label in found else 0 for label in labels]
              for field in fields]
    if len(labels) <= MONTHS_MAX:
        return "month", labels, values
    years = sorted({label[:4] for label in labels})
    return "year", years, [[sum(v for label, v in zip(labels, series, strict=True)
                                 if label.startswith(y)) for y in years] for series in values]


def _wins_plot(filters: Mapping[str, Any]) -> dict[str, Any]:
    period, labels, (jack, detectives) = _over_time(
        history.months(get_db(), filters["game"], filters["keys"]),
        ("jack_wins", "detective_wins"))
    title = _("Wins per month") if period == "month" else _("Wins per year")
    return plots.lines(title, labels, [(_("Jack"), jack), (_("Detectives"), detectives)])


def _jack_plot(per_game: list[dict[str, Any]]) -> dict[str, Any]:
    titles = _titles()
    return plots.bars(_("Jack's win rate"), [
        (titles.get(entry["game"], entry["game"]), 100 * entry["jack_rate"])
        for entry in per_game if entry["jack_rate"] is not None], unit="%", top=100)


def _player_plot(record: Mapping[str, Any]) -> dict[str, Any]:
    period, labels, (games, wins) = _over_time(record["months"], ("games", "wins"))
    title = (_("Games and wins per month") if period == "month"
             else _("Games and wins per year"))
    return plots.lines(title, labels, [(_("Games"), games), (_("Wins"), wins)])


def _svg(name: str, plot: Mapping[str, Any]) -> Response:
    response = Response(render_template("history/plot.svg", plot=plot, name=name),
                        mimetype="image/svg+xml")
    # Drawn in its reader's language, never kept: a cache (the browser's, a proxy's)
    # must not hand one device's words to another, nor yesterday's language to this one.
    response.headers["Cache-Control"] = "no-store"
    response.headers["Content-Language"] = i18n.chosen_language()
    response.vary.update(("Accept-Language", "Cookie"))
    return response


@bp.get("/history/plots/<name>.svg")
def plot(name: str) -> Response:
    """A plot alone, as an image (a projector's tab, a club's newsletter), with the
    list's filters (``?game=...&player=...``)."""
    try:
        filters = _filters({**request.args, "page": "1"})
    except HistoryError as refused:
        abort(refused.status, refused.message)
    if name == "wins":
        return _svg(name, _wins_plot(filters))
    if name == "jack":
        return _svg(name, _jack_plot(history.by_game(get_db(), filters["game"],
                                                     filters["keys"])))
    abort(404, _("There is no such plot: the history draws “wins” and “jack”."))


# --- a player ----------------------------------------------------------------------------

def _player(name: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """A player (``history.players``: the name shown, the keys that count as them) and
    their record, or a HistoryError."""
    name = clean_name(name, history.PLAYER, HistoryError)
    db = get_db()
    key = history.normalise(name)
    found = next((p for p in history.players(db) if key in p["keys"]), None)
    if found is None:
        raise HistoryError(_("Nobody called “%(name)s” has finished a game on this "
                             "laptop.", name=name), 404)
    return found, history.player_record(db, found["keys"])


def _tournament_points(keys: list[str]) -> list[dict[str, Any]]:
    """The player's rows of every tournament's leaderboard (``tournaments.standings``)."""
    db = get_db()
    found = []
    for tournament in tournaments.tournaments_with(
            db, lambda name: history.normalise(name) in keys):
        for row in tournaments.standings(db, tournament["id"]):
            if history.normalise(row["name"]) in keys:
                found.append({"tournament": tournament["name"], "id": tournament["id"],
                              "points": row["points"], "position": row["position"],
                              "games": row["games"]})
    return found


def _player_page(name: str, error: str | None = None, status: int = 200) -> Response:
    try:
        found, record = _player(name)
    except HistoryError as refused:
        return _overview(_filters({}), refused.message, refused.status)
    db = get_db()
    keys = found["keys"]
    players = history.players(db)
    return render("history/player.html", "history/_player.html", status=status,
                  error=error, player=found, record=record, titles=_titles(),
                  plot=_player_plot(record), tournaments=_tournament_points(keys),
                  rows=history.games(db, keys=keys, per_page=10,
                                     names=history.names_by_key(players)),
                  others=[p for p in players if p["key"] != found["key"]],
                  merged_here=[m for m in history.merges(db)
                               if m["into_key"] == found["key"]],
                  laptop=is_this_laptop(request.remote_addr))


@bp.get("/history/players/<path:name>")
def player(name: str) -> Response:
    return _player_page(name)


def _laptop_only() -> None:
    if not is_this_laptop(request.remote_addr):
        abort(403, ONLY_THE_LAPTOP)


@bp.post("/history/merge")
def merge() -> Response:
    """Count the name ``name`` as the player ``into`` (the same person typed two ways)."""
    _laptop_only()
    into, name = request.form.get("into", ""), request.form.get("name", "")
    db = get_db()
    try:
        with write_transaction(db):
            history.merge(db, name, into)
    except HistoryError as error:
        return _player_page(into, error.message, error.status)
    return redirect(url_for("history.player", name=clean_name(into, history.PLAYER,
                                                              HistoryError)), code=303)


@bp.post("/history/unmerge")
def unmerge() -> Response:
    """Take a merge back: ``name`` counts as a player of their own again; back to the
    player it had been merged into (``into``)."""
    _laptop_only()
    name, into = request.form.get("name", ""), request.form.get("into", "")
    db = get_db()
    try:
        with write_transaction(db):
            history.unmerge(db, name)
    except HistoryError as error:
        return _player_page(into or name, error.message, error.status)
    return redirect(url_for("history.player", name=clean_name(into or name, history.PLAYER,
                                                              HistoryError)), code=303)


# --- a game --------------------------------------------------------------------------------

@bp.get("/history/games/<name>")
def game(name: str) -> Response:
    """One game's record: how its games end, Jack's win rate, and for Letters from
    Whitechapel the heat map of hideouts and crime scenes on each board played."""
    chosen = _games().get(name)
    if chosen is None:
        abort(404, _("This laptop keeps no history of a game called “%(game)s”.",
                     game=name[:40]))
    db = get_db()
    entry = next((e for e in history.by_game(db) if e["game"] == name), None)
    return render("history/game.html", "history/_game.html", game=chosen, entry=entry,
                  words=ending_words(chosen),
                  heat=_heat() if name == WHITECHAPEL else [])


def ending_words(game: Game) -> dict[str, str]:
    """How the game names each way it ends (its ``ENDING_WORDS``)."""
    return dict(getattr(game, "ENDING_WORDS", {}))


def _heat() -> list[dict[str, Any]]:
    """Each board's heat map: hideouts and crime scenes over its drawing."""
    maps = []
    for board_name, counts in sorted(history.heat(get_db()).items()):
        board = loaded().get(board_name)
        top = {kind: sorted(found.items(), key=lambda item: (-item[1], item[0]))[:8]
               for kind, found in counts.items()}
        maps.append({"board": board_name or None, "top": top,
                     "drawing": drawing_of(board) if board else None,
                     "hideouts": heat_layer(board, counts["hideouts"]) if board else [],
                     "crimes": heat_layer(board, counts["crimes"]) if board else []})
    return maps


@bp.app_template_filter("day")
def day(stamp: Any) -> str:
    """A stored UTC stamp's day as the reader writes a date (English: as stored,
    2026-11-27; German 27.11.2026; French 27 nov. 2026)."""
    text = str(stamp or "")[:10]
    if i18n.chosen_language() == "en":
        return text
    try:
        return format_date(date.fromisoformat(text), "medium")
    except ValueError:
        return text


# --- exports ----------------------------------------------------------------------------
# Machine-readable, so English whatever the reader's language: a spreadsheet's columns
# and a script's keys must not change with the device that downloaded them.

COLUMNS = ("ended_at", "game", "winner", "side", "jack", "accomplices", "how", "players",
           "points", "source")
"""``accomplices``: London 1888's, on Jack's side; ``players``: each by the name the
laptop's merges give them, "(accomplice)" and "(won)" after it; ``source``: "here",
"imported", or empty for a game kept before the history noted it."""


def _export_rows() -> list[dict[str, Any]]:
    """Every game the list's filters keep (all pages), as the exports write them."""
    try:
        filters = _filters({**request.args, "page": "1"})
    except HistoryError as refused:
        abort(Response(json.dumps({"error": refused.message}), status=refused.status,
                       mimetype="application/json"))
    titles = _titles()
    db = get_db()
    names = history.names_by_key(history.players(db))
    return [{"ended_at": row["ended_at"], "game": titles.get(row["game"], row["game"]),
             "game_name": row["game"], "table_id": row["table_id"], "game_no": row["game_no"],
             "winner": row["winner"], "side": row["side"], "jack": row["jack"],
             "accomplices": row["accomplices"],
             "ending": row["ending"], "how": row["how"], "source": row["source"],
             "players": [{"name": p["name"], "jack": bool(p["jack"]),
                          "accomplice": bool(p["accomplice"]), "won": bool(p["won"]),
                          "points": p["points"]} for p in row["players"]]}
            for row in history.games(db, filters["game"], filters["keys"],
                                     per_page=None, shown=False, names=names)]


@bp.get("/history.json")
def export_json() -> Response:
    # Compact: json's indent runs its pure-Python encoder, 5 times slower on years of games.
    response = Response(json.dumps({"games": _export_rows()}, ensure_ascii=False,
                                   separators=(",", ":")), mimetype="application/json")
    response.headers["Content-Disposition"] = "attachment; filename=history.json"
    return response


@bp.get("/history.csv")
def export_csv() -> Response:
    return csv_response([COLUMNS, *([
        row["ended_at"], row["game"], row["winner"], row["side"], " & ".join(row["jack"]),
        " & ".join(row["accomplices"]), row["how"],
        "; ".join(p["name"] + (" (accomplice)" if p["accomplice"] else "")
                  + (" (won)" if p["won"] else "") for p in row["players"]),
        "; ".join("" if p["points"] is None else str(p["points"]) for p in row["players"]),
        row["source"] or ""] for row in _export_rows())], "history.csv")
