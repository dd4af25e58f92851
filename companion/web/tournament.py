"""London 1888 tournaments: the organiser's pages, the projector leaderboard, each
player's games, and the exports. Organiser rights belong to the browser that created the
tournament (a cookie token, hashed in the database, like a table's host token)."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime
from itertools import combinations
from typing import Any

from flask import Blueprint, Response, abort, redirect, request, url_for

from companion import importing, tables
from companion.db import get_db
from companion.games import london1888
from companion.games.base import RuleError, int_or_none, parse_int
from companion.names import clean_name
from companion.net import public_qr_svg
from companion.tournaments import logic
from companion.tournaments import storage as store
from companion.tournaments.logic import TournamentError
from companion.web import i18n, render
from companion.web.context import (
    base_url,
    host_cookie,
    rng,
    seen_version,
    set_private_cookie,
)
from companion.web.limits import count_created, creation_refused, tournament_refused
from companion.web.spreadsheet import csv_response
from companion.words import Text, _

bp = Blueprint("tournament", __name__, url_prefix="/tournaments")

SOURCES = {"table": _("Result from its game"), "entered": _("Result entered by the organiser"),
           "correction": _("Result corrected by the organiser"),
           "imported": _("Result imported")}
"""Where the result that counts came from, as a table's card says it."""
ROLES = {"jack": _("Jack the Ripper"), "accomplice": _("Accomplice"),
         "innocent": _("Innocent")}
STATUSES = {"registered": _("Registered"), "present": _("Checked in"),
            "dropped": _("Dropped")}
"""A player's status (``store.STATUSES``) as the organiser's page says it."""
PAGE_MAX = 10 ** 6
"""The furthest page of the list a link may ask for."""


@bp.url_value_preprocessor
def _sane_numbers(_endpoint: str | None, values: dict[str, Any] | None) -> None:
    """A number in the address too big for the database is simply not there."""
    for value in (values or {}).values():
        if isinstance(value, int) and value >= 1 << 62:
            abort(404, _("There is nothing here. Check the address."))


@bp.app_template_filter("points")
def points(value: Any) -> Any:
    """Points as the reader writes a number (German 1,5); anything else ("–") as it is."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return i18n.translator().number(value)
    return value


@bp.app_template_filter("tiebreak_word")
def tiebreak_word(key: str) -> Any:
    """A tiebreak's name in the reader's language (to join several in one sentence)."""
    return i18n.in_language(logic.TIEBREAKS.get(key, key))


def organiser_cookie(tournament_id: int) -> str:
    return f"organiser_{tournament_id}"


def _load(tournament_id: int) -> dict[str, Any]:
    tournament = store.get_tournament(get_db(), tournament_id)
    if tournament is None:
        abort(404, _("There is no such tournament on this laptop."))
    return tournament


def _organiser(tournament: dict[str, Any]) -> bool:
    return store.is_organiser(tournament, request.cookies.get(
        organiser_cookie(tournament["id"])))


def _require_organiser(tournament: dict[str, Any]) -> None:
    if not _organiser(tournament):
        abort(403, _("Only the organiser (the browser that created this tournament) can do "
                     "that."))


def _enter_as_organiser(tournament: dict[str, Any], token: str) -> Response:
    """To the tournament's page, this browser now holding its organiser token."""
    return set_private_cookie(
        redirect(url_for(".manage", tournament_id=tournament["id"]), 303),
        organiser_cookie(tournament["id"]), token)


# --- the list, creating and importing ---------------------------------------------------

def _index(status: int = 200, error: str | None = None,
           form: dict[str, Any] | None = None, page: int = 1) -> Response:
    defaults = {"name": "", "rounds": "3", "table_size": str(logic.DEFAULT_TABLE),
                "late_murder": str(london1888.DEFAULT_UNDISCOVERED_LATE_MURDER),
                "tiebreaks": list(logic.DEFAULT_TIEBREAKS)}
    db = get_db()
    return render("tournament/index.html", "tournament/_index.html", status=status,
                  tournaments=store.list_tournaments(db, page), page_no=page,
                  pages=store.count_pages(db), error=error,
                  form={**defaults, **(form or {})}, tiebreaks=logic.TIEBREAKS,
                  sizes=range(logic.MIN_TABLE, logic.MAX_TABLE + 1),
                  max_rounds=logic.MAX_ROUNDS)


@bp.get("")
def index() -> Response:
    page = int_or_none(request.args.get("page", "1") or "1", 1, PAGE_MAX)
    if page is None or page > store.count_pages(get_db()):
        return _index(404, _("There is no such page of tournaments: use the page links."))
    return _index(page=page)


@bp.post("")
def create() -> Response:
    order = [request.form.get(f"tiebreak_{n}", "") for n in range(len(logic.TIEBREAKS))]
    try:
        settings = logic.parse_settings(request.form, order)
    except TournamentError as error:
        return _index(error.status, error.message, {**request.form.to_dict(),
                                                    "tiebreaks": order})
    refused = tournament_refused()
    if refused:
        return _index(429, refused, {**request.form.to_dict(), "tiebreaks": order})
    tournament, token = store.create_tournament(get_db(), settings)
    return _enter_as_organiser(tournament, token)


@bp.post("/import")
def import_tournament() -> Response:
    upload = request.files.get("file")
    if upload is None or not upload.filename:
        return _index(422, _("Please choose an exported tournament file (.json)."))
    try:
        data = importing.read(upload.read(), "tournament")
        refused = tournament_refused()
        if refused:
            return _index(429, refused)
        tournament, token = store.import_tournament(get_db(), data)
    except importing.BadExport as error:
        return _index(422, error.message)
    except TournamentError as error:
        return _index(error.status, error.message)
    return _enter_as_organiser(tournament, token)


# --- the organiser's page ---------------------------------------------------------------

def _manage(tournament_id: int, status: int = 200, error: str | None = None,
            **extra: Any) -> Response:
    db = get_db()
    tournament = _load(tournament_id)
    numbers = store.round_numbers(db, tournament_id)
    players = store.get_players(db, tournament_id)
    waiting = store.unfinished_tables(db, tournament_id, numbers[-1]) if numbers else []
    return render("tournament/manage.html", "tournament/_manage.html", status=status,
                  tournament=tournament, players=players, rounds=numbers, waiting=waiting,
                  present=sum(player["status"] == "present" for player in players),
                  registered=sum(player["status"] == "registered" for player in players),
                  statuses=STATUSES, history=_results_history(tournament_id),
                  sizes=range(logic.MIN_TABLE, logic.MAX_TABLE + 1),
                  tiebreaks=logic.TIEBREAKS, error=error, name=extra.get("name", ""),
                  club=extra.get("club", ""), seating=extra.get("seating", ""),
                  problems=extra.get("problems", ()),
                  size=extra.get("size") or tournament["table_size"])


def _results_history(tournament_id: int) -> list[dict[str, Any]]:
    """The results history (``store.history``) in words, each line at the laptop's
    time."""
    return [{**line, "text": logic.outcome_text(line["outcome"], line["names"]),
             "time": _local_time(line["at"])}
            for line in store.history(get_db(), tournament_id)]


def _local_time(stamp: str) -> str:
    """An ISO UTC stamp of the database as the laptop's clock shows it (HH:MM)."""
    try:
        moment = datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
    except (TypeError, ValueError):
        return ""
    return moment.astimezone().strftime("%H:%M")


@bp.get("/<int:tournament_id>")
def manage(tournament_id: int) -> Response:
    tournament = _load(tournament_id)
    if not _organiser(tournament):
        return redirect(url_for(".board", tournament_id=tournament_id), 303)
    return _manage(tournament_id)


def _change(tournament_id: int, do: Callable[[dict[str, Any]], Any], back: str,
            failure: Callable[[str, int], Response]) -> Response:
    """One organiser change; on a refusal the page again with the message, nothing
    changed."""
    tournament = _load(tournament_id)
    _require_organiser(tournament)
    try:
        do(tournament)
    except TournamentError as error:
        return failure(error.message, error.status)
    return redirect(back, 303)


def _player_fields(name: str, club: str) -> tuple[str, str]:
    """A new player's name and club as the organiser typed them, cleaned; a name holds
    no comma."""
    name = clean_name(name, logic.PLAYER_NAME, TournamentError)
    if "," in name:
        raise TournamentError(_("Please leave commas out of names: they separate the names "
                                "of a typed seating."))
    return name, clean_name(club, logic.CLUB, TournamentError, required=False)


@bp.post("/<int:tournament_id>/players")
def add_player(tournament_id: int) -> Response:
    name, club = request.form.get("name", ""), request.form.get("club", "")
    return _change(
        tournament_id,
        lambda t: store.add_player(get_db(), t["id"], seen_version(),
                                   *_player_fields(name, club), rng()),
        url_for(".manage", tournament_id=tournament_id),
        lambda message, status: _manage(tournament_id, status, message, name=name, club=club))


@bp.post("/<int:tournament_id>/players/<int:player_id>/status")
def set_status(tournament_id: int, player_id: int) -> Response:
    return _change(
        tournament_id,
        lambda t: store.set_status(get_db(), t["id"], seen_version(), player_id,
                                   request.form.get("status", "")),
        url_for(".manage", tournament_id=tournament_id),
        lambda message, status: _manage(tournament_id, status, message))


@bp.post("/<int:tournament_id>/players/check-in")
def check_in_everyone(tournament_id: int) -> Response:
    """Every registered player checked in with one confirmed tap, not one per player."""
    return _change(
        tournament_id,
        lambda t: store.check_in_everyone(get_db(), t["id"], seen_version()),
        url_for(".manage", tournament_id=tournament_id),
        lambda message, status: _manage(tournament_id, status, message))


@bp.post("/<int:tournament_id>/rounds/preview")
def preview_round(tournament_id: int) -> Response:
    """The automatic seating written into the seating box, to check or change before any
    table opens (nothing is stored)."""
    tournament = _load(tournament_id)
    _require_organiser(tournament)
    try:
        size = parse_int(request.form.get("table_size") or tournament["table_size"],
                         logic.MIN_TABLE, logic.MAX_TABLE, logic.TABLE_SIZE)
        _number, groups = store.plan_round(get_db(), tournament_id, size, "", rng())
    except RuleError as error:
        return _manage(tournament_id, 422, error.message)
    except TournamentError as error:
        return _manage(tournament_id, error.status, error.message)
    names = {player["id"]: player["name"]
             for player in store.get_players(get_db(), tournament_id)}
    seating = "\n".join(", ".join(names[player] for player in group) for group in groups)
    return _manage(tournament_id, seating=seating, size=size)


@bp.post("/<int:tournament_id>/rounds")
def start_round(tournament_id: int) -> Response:
    """Open the next round's tables; this browser becomes the host of each of them."""
    tournament = _load(tournament_id)
    _require_organiser(tournament)
    seating = request.form.get("seating", "")
    refused = creation_refused()
    if refused:
        return _manage(tournament_id, 429, refused, seating=seating)
    try:
        size = parse_int(request.form.get("table_size") or tournament["table_size"],
                         logic.MIN_TABLE, logic.MAX_TABLE, logic.TABLE_SIZE)
        number, opened = store.start_round(get_db(), tournament_id, seen_version(), size,
                                           seating, rng())
    except RuleError as error:
        return _manage(tournament_id, 422, error.message, seating=seating,
                       size=request.form.get("table_size"))
    except TournamentError as error:
        return _manage(tournament_id, error.status, error.message, seating=seating,
                       problems=error.problems, size=request.form.get("table_size"))
    except tables.TableError as error:
        return _manage(tournament_id, error.status, error.message, seating=seating)
    count_created(len(opened) - 1)
    response = redirect(url_for(".round_page", tournament_id=tournament_id, number=number),
                        303)
    for code, host_token in opened:
        set_private_cookie(response, host_cookie(code), host_token)
    return response


# --- a round: its tables, their QR codes, results ---------------------------------------

def _seat_labels(game_table_id: int | None, count: int) -> list[str]:
    if game_table_id is None:
        return london1888.seat_labels(count, london1888.default_options())
    return [seat["label"] for seat in tables.get_seats(get_db(), game_table_id)]


def _describe(table: dict[str, Any], tournament: dict[str, Any]) -> dict[str, Any]:
    """A table of a round for the templates: seats with labels, result and points."""
    names = [seat["name"] for seat in table["seats"]]
    labels = _seat_labels(table["game_table_id"], len(names))
    claimed = {}
    if table["game_table_id"] is not None:
        claimed = {seat["position"]: seat["claimed"]
                   for seat in tables.get_seats(get_db(), table["game_table_id"])}
    outcome = table["outcome"]
    points = (logic.game_points(outcome, list(range(len(names))), tournament["late_murder"])
              if outcome is not None else {})
    seats = []
    for seat in table["seats"]:
        position = seat["position"]
        role = None
        if outcome is not None:
            role = ROLES["jack" if position == outcome["jack"] else
                         "accomplice" if position in outcome["accomplices"] else "innocent"]
        seats.append({**seat, "label": labels[position] if position < len(labels) else "",
                      "joined": claimed.get(position, False), "role": role,
                      "points": points.get(position)})
    join = (base_url() + url_for("seat.join", code=table["code"])) if table["code"] else None
    return {**table, "seats": seats, "join_url": join,
            "join_qr": public_qr_svg(join) if join else None,
            "result_text": logic.outcome_text(outcome, names) if outcome else None,
            "source_text": SOURCES.get(table["source"] or "", "")}


def _ordinal(n: int) -> str:
    """1st, 2nd... in the reader's language (German 1., 2.; French 1er, 2e)."""
    language = i18n.chosen_language()
    if language == "de":
        return f"{n}."
    if language == "fr":
        return f"{n}er" if n == 1 else f"{n}e"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n if n < 20 else n % 10, 'th')}"


def result_values(outcome: dict[str, Any] | None, typed: dict[str, str] | None,
                  players: int) -> dict[str, Any]:
    """What a table's result form shows: what the organiser just typed (a refused form
    keeps it), else the result that counts (a correction starts from it, so a slip cannot
    silently change who was Jack), else nothing chosen (a hand entry picks everything)."""
    if typed is not None:
        jack = typed.get("jack", "")
        return {"result": typed.get("result", ""),
                "jack": int(jack) if jack.isdigit() else None,
                "discovered": bool(typed.get("discovered")),
                "murder_round": typed.get("murder_round", "")[:2],
                "accomplices": {seat for seat in range(players)
                                if typed.get(f"accomplice_{seat}")},
                "reason": typed.get("reason", "")[:logic.REASON_MAX]}
    if outcome is not None:
        return {"result": logic.result_key(outcome), "jack": outcome["jack"],
                "discovered": bool(outcome.get("discovered")),
                "murder_round": str(outcome.get("murder_round") or ""),
                "accomplices": set(outcome.get("accomplices") or ()), "reason": ""}
    return {"result": "", "jack": None, "discovered": False, "murder_round": "",
            "accomplices": set(), "reason": ""}


def _round_context(tournament_id: int, number: int, form_table: int | None = None,
                   typed: dict[str, str] | None = None) -> dict[str, Any]:
    """A round's page; ``typed``: what the organiser sent in table ``form_table``'s
    refused result form, shown again."""
    db = get_db()
    tournament = _load(tournament_id)
    if number not in store.round_numbers(db, tournament_id):
        abort(404, _("There is no round %(round)s in this tournament.", round=number))
    described = [_describe(table, tournament)
                 for table in store.round_tables(db, tournament_id, number)]
    for table in described:
        table["form"] = result_values(table["outcome"],
                                      typed if table["number"] == form_table else None,
                                      len(table["seats"]))
    met = logic.meetings(game["names"] for game in store.games(db, tournament_id)
                         if game["round"] < number)
    again: list[Text] = [
        _("%(one)s and %(other)s (%(ordinal)s meeting)", one=a, other=b,
          ordinal=_ordinal(met[a, b] + 1))
        for table in described
        for a, b in combinations(sorted(seat["name"] for seat in table["seats"]), 2)
        if met.get((a, b))]
    return {"tournament": tournament, "number": number, "tables": described, "again": again,
            "organiser": _organiser(tournament), "results": london1888.RESULTS,
            "earliest": london1888.FIFTH_MURDER_EARLIEST,
            "latest": london1888.FIFTH_MURDER_LATEST}


def _round(tournament_id: int, number: int, status: int = 200, error: str | None = None,
           form_table: int | None = None, typed: dict[str, str] | None = None) -> Response:
    context = _round_context(tournament_id, number, form_table, typed)
    return render("tournament/round.html", "tournament/_round.html", status=status,
                  error=error, form_table=form_table, **context)


@bp.get("/<int:tournament_id>/rounds/<int:number>")
def round_page(tournament_id: int, number: int) -> Response:
    return _round(tournament_id, number)


@bp.get("/<int:tournament_id>/rounds/<int:number>/tables/<int:table_no>")
def table_card(tournament_id: int, number: int, table_no: int) -> Response:
    """One table of the round: the round's page, or with htmx just that table's card."""
    context = _round_context(tournament_id, number)
    table = next((t for t in context["tables"] if t["number"] == table_no), None)
    if table is None:
        abort(404, _("Round %(round)s has no table %(table)s.", round=number,
                     table=table_no))
    return render("tournament/round.html", "tournament/_table_card.html", table=table,
                  error=None, form_table=None, **context)


@bp.get("/<int:tournament_id>/rounds/<int:number>/sheets")
def sheets(tournament_id: int, number: int) -> Response:
    """The round on paper (static/print.css): the pairings on one page, with each table's
    code to scan, then a score sheet for each table to fill in by hand. Nothing of a game
    but who sits where."""
    return render("tournament/sheets.html", "tournament/_sheets.html",
                  **_round_context(tournament_id, number))


def _result(tournament_id: int, number: int, table_no: int, correction: bool) -> Response:
    def failure(message: str, status: int) -> Response:
        if number not in store.round_numbers(get_db(), tournament_id):
            return _manage(tournament_id, status, message)
        return _round(tournament_id, number, status, message, table_no,
                      request.form.to_dict())

    return _change(
        tournament_id,
        lambda t: store.record_result(
            get_db(), t["id"], seen_version(), number, table_no, request.form.to_dict(),
            clean_name(request.form.get("reason", ""), logic.REASON, TournamentError,
                       required=correction), correction),
        url_for(".round_page", tournament_id=tournament_id, number=number), failure)


@bp.post("/<int:tournament_id>/rounds/<int:number>/tables/<int:table_no>/result")
def enter_result(tournament_id: int, number: int, table_no: int) -> Response:
    return _result(tournament_id, number, table_no, correction=False)


@bp.post("/<int:tournament_id>/rounds/<int:number>/tables/<int:table_no>/correct")
def correct_result(tournament_id: int, number: int, table_no: int) -> Response:
    return _result(tournament_id, number, table_no, correction=True)


# --- the leaderboard and the players' pages ---------------------------------------------

def _progress(tournament_id: int) -> dict[str, Any]:
    db = get_db()
    numbers = store.round_numbers(db, tournament_id)
    if not numbers:
        return {"round": 0, "done": 0, "tables": 0, "final": False}
    current = store.round_tables(db, tournament_id, numbers[-1])
    done = sum(table["outcome"] is not None for table in current)
    return {"round": numbers[-1], "tables": len(current), "done": done,
            "final": numbers[-1] == _load(tournament_id)["rounds"] and done == len(current)}


@bp.get("/<int:tournament_id>/board")
def board(tournament_id: int) -> Response:
    """The projector page: big type, refreshed every few seconds by htmx, and a QR code
    that opens the same page on a phone."""
    tournament = _load(tournament_id)
    url = base_url() + url_for(".board", tournament_id=tournament_id)
    return render("tournament/board.html", "tournament/_board.html", tournament=tournament,
                  rows=store.standings(get_db(), tournament_id),
                  rounds=range(1, tournament["rounds"] + 1), progress=_progress(tournament_id),
                  board_url=url, board_qr=public_qr_svg(url), decided=logic.DECIDED_BY,
                  organiser=_organiser(tournament))


@bp.get("/<int:tournament_id>/players/<int:player_id>")
def player_page(tournament_id: int, player_id: int) -> Response:
    tournament = _load(tournament_id)
    player = store.get_player(get_db(), tournament_id, player_id)
    if player is None:
        abort(404, _("That player is not registered in this tournament."))
    played = []
    for game in store.games(get_db(), tournament_id):
        if player_id in game["seats"]:
            table = _describe({**game, "seats": [
                {"position": position, "id": pid, "name": name, "club": ""}
                for position, (pid, name) in enumerate(zip(game["seats"], game["names"],
                                                           strict=True))]}, tournament)
            mine = next(seat for seat in table["seats"] if seat["id"] == player_id)
            played.append({"table": table, "me": mine})
    row = next(row for row in store.standings(get_db(), tournament_id)
               if row["id"] == player_id)
    return render("tournament/player.html", "tournament/_player.html", tournament=tournament,
                  player=player, games=played, row=row, statuses=STATUSES)


# --- exports ----------------------------------------------------------------------------
# Machine-readable, so English whatever the reader's language: a spreadsheet's columns
# and a script's keys must not change with the device that downloaded them.

@bp.get("/<int:tournament_id>/standings.csv")
def standings_csv(tournament_id: int) -> Response:
    tournament = _load(tournament_id)
    rounds = range(1, tournament["rounds"] + 1)
    rows: list[list[Any]] = [["position", "player", "club", "status", "points",
                              *[f"round {n}" for n in rounds], "games", "wins",
                              "games as Jack", "games won as Jack", "points as Jack",
                              "head-to-head", "placed by"]]
    for row in store.standings(get_db(), tournament_id):
        rows.append([row["position"], row["name"], row["club"], row["status"], row["points"],
                     *[row["rounds"].get(n, "") for n in rounds], row["games"], row["wins"],
                     row["jack_games"], row["jack_wins"], row["jack_points"],
                     row["head_to_head"],
                     str(row["decided_label"])])
    return csv_response(rows, f"tournament-{tournament_id}-standings.csv")


@bp.get("/<int:tournament_id>/results.csv")
def results_csv(tournament_id: int) -> Response:
    """One line per player and finished game."""
    tournament = _load(tournament_id)
    rows: list[list[Any]] = [["round", "table", "code", "seat", "player", "role", "result",
                              "Jack discovered", "round of 5th murder", "points", "source"]]
    for game in store.games(get_db(), tournament_id):
        outcome = game["outcome"]
        if outcome is None:
            continue
        points = logic.game_points(outcome, game["seats"], tournament["late_murder"])
        key = logic.result_key(outcome)
        for position, (player, name) in enumerate(zip(game["seats"], game["names"],
                                                      strict=True)):
            role = ("Jack" if position == outcome["jack"] else
                    "accomplice" if position in outcome["accomplices"] else "innocent")
            rows.append([game["round"], game["number"], game["code"] or "", position + 1,
                         name, role, str(london1888.RESULTS[key][2]),
                         "yes" if outcome["discovered"] else "no",
                         outcome.get("murder_round") or "", points[player], game["source"]])
    return csv_response(rows, f"tournament-{tournament_id}-results.csv")


@bp.get("/<int:tournament_id>/export.json")
def export(tournament_id: int) -> Response:
    tournament = _load(tournament_id)
    _require_organiser(tournament)
    data = json.dumps(store.export_tournament(get_db(), tournament_id), indent=1)
    return Response(data, mimetype="application/json", headers={
        "Content-Disposition": f"attachment; filename=tournament-{tournament_id}.json"})
