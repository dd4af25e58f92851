"""Storage of London 1888 tournaments: players, rounds, the tables of a round, results.

sqlite-utils style: small functions that take ``db`` and return dicts. Every change of a
tournament is one ``BEGIN IMMEDIATE`` transaction that checks the tournament version the
organiser's page showed, so a doubled or stale submission changes nothing.

A round's tables are ordinary London 1888 tables of the platform (``companion.tables``),
seats pre-named for their players. A table's result is, in this order: the organiser's
latest entry for it (typed in, corrected or imported: ``tournament_results``), else the
outcome its game recorded (``london1888.outcome_summary``), read live from the table, so a
confirmed outcome reaches the leaderboard at once. A finished game cannot be undone (its
end revealed every secret): a mistake is put right as a correction, with its reason.
"""

from __future__ import annotations

import json
import random
import secrets
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from sqlite_utils import Database

from companion import decks, tables
from companion.db import write_transaction
from companion.db.versioned import Versioned
from companion.games import london1888
from companion.games.base import RuleError
from companion.names import clean_name
from companion.tournaments import logic
from companion.tournaments.logic import TournamentError
from companion.words import _, ngettext

STATUSES = ("registered", "present", "dropped")
"""A player's status: registered, checked in (seated in the coming rounds), dropped."""
EXPORT_FORMAT = "companion-tournament/1"
PER_PAGE = 50
"""Tournaments on one page of the list."""


# --- reading -----------------------------------------------------------------------------

def _one(db: Database, sql: str, params: Sequence[Any]) -> dict[str, Any] | None:
    return next(iter(db.query(sql, list(params))), None)


def _decode(row: dict[str, Any] | None) -> dict[str, Any] | None:
    if row is None:
        return None
    row = dict(row)
    row["tiebreaks"] = json.loads(row["tiebreaks"])
    return row


def get_tournament(db: Database, tournament_id: int) -> dict[str, Any] | None:
    return _decode(_one(db, "SELECT * FROM tournaments WHERE id = ?", [tournament_id]))


def list_tournaments(db: Database, page: int = 1) -> list[dict[str, Any]]:
    """One page of the tournaments (``PER_PAGE``): those with players first, newest
    first within each, so a flood of empty ones never pushes the club's own off the
    first page, and every tournament is on some page."""
    return list(db.query(
        "SELECT t.id, t.name, t.rounds, t.created_at, "
        "(SELECT COUNT(*) FROM tournament_rounds r WHERE r.tournament_id = t.id) AS started, "
        "(SELECT COUNT(*) FROM tournament_players p WHERE p.tournament_id = t.id) AS players "
        "FROM tournaments t ORDER BY players > 0 DESC, t.id DESC LIMIT ? OFFSET ?",
        [PER_PAGE, (page - 1) * PER_PAGE]))


def count_pages(db: Database) -> int:
    """How many pages ``list_tournaments`` has (one, even without a tournament)."""
    total = db.execute("SELECT count(*) FROM tournaments").fetchone()[0]
    return max(1, -(-total // PER_PAGE))


def tournaments_with(db: Database, wanted: Callable[[str], bool]) -> list[dict[str, Any]]:
    """Every tournament with a player whose name ``wanted`` takes, newest first (a
    player's page: however many tournaments the laptop holds)."""
    ids = sorted({row["tournament_id"] for row in db.query(
        "SELECT tournament_id, name FROM tournament_players") if wanted(row["name"])},
        reverse=True)
    found = (get_tournament(db, tournament_id) for tournament_id in ids)
    return [tournament for tournament in found if tournament is not None]


def is_organiser(tournament: Mapping[str, Any], token: str | None) -> bool:
    return bool(token) and secrets.compare_digest(tables.hash_token(token),
                                                  tournament["organiser_token_hash"])


def get_players(db: Database, tournament_id: int) -> list[dict[str, Any]]:
    return list(db.query("SELECT id, name, club, status, lot FROM tournament_players "
                         "WHERE tournament_id = ? ORDER BY name COLLATE NOCASE, id",
                         [tournament_id]))


def get_player(db: Database, tournament_id: int, player_id: int) -> dict[str, Any] | None:
    return _one(db, "SELECT id, name, club, status, lot FROM tournament_players "
                    "WHERE tournament_id = ? AND id = ?", [tournament_id, player_id])


def round_numbers(db: Database, tournament_id: int) -> list[int]:
    return [row["number"] for row in db.query(
        "SELECT number FROM tournament_rounds WHERE tournament_id = ? ORDER BY number",
        [tournament_id])]


def table_outcome(db: Database, game_table_id: int | None) -> dict[str, Any] | None:
    """The outcome a London table's game recorded, or None while it goes on. When the
    host dealt a new game after an outcome, the latest game with an outcome counts."""
    table = None if game_table_id is None else tables.get_table_by_id(db, game_table_id)
    if table is None or table["game"] != london1888.NAME:
        return None
    if table["state"]:
        summary = london1888.outcome_summary(table["state"])
        if summary is not None:
            return summary
    for game_no in range(table["game_no"] - 1, 0, -1):
        last = tables.final_state(db, table["id"], game_no)
        summary = None if last is None else london1888.outcome_summary(last)
        if summary is not None:
            return summary
    return None


def outcome_time(db: Database, game_table_id: int) -> str:
    """When the table's latest game action (its outcome, once over) was recorded."""
    return tables.last_action_time(db, game_table_id)


def _entries(db: Database, tournament_table_id: int) -> list[dict[str, Any]]:
    entries = []
    for row in db.query("SELECT * FROM tournament_results WHERE tournament_table_id = ? "
                        "ORDER BY id", [tournament_table_id]):
        row = dict(row)
        row["outcome"] = json.loads(row["outcome"])
        entries.append(row)
    return entries


def round_tables(db: Database, tournament_id: int, number: int) -> list[dict[str, Any]]:
    """The tables of one round: seats, the platform table (code, status), the result that
    counts and where it comes from ("table", "entered", "correction", "imported")."""
    found = []
    for row in db.query(
            "SELECT tt.id, tt.number, tt.game_table_id "
            "FROM tournament_tables tt JOIN tournament_rounds r ON r.id = tt.round_id "
            "WHERE r.tournament_id = ? AND r.number = ? ORDER BY tt.number",
            [tournament_id, number]):
        row = dict(row)
        game_table = (None if row["game_table_id"] is None
                      else tables.get_table_by_id(db, row["game_table_id"]))
        row["code"] = game_table["code"] if game_table else None
        row["table_status"] = game_table["status"] if game_table else None
        row["round"] = number
        row["seats"] = list(db.query(
            "SELECT s.position, p.id, p.name, p.club FROM tournament_seats s "
            "JOIN tournament_players p ON p.id = s.player_id "
            "WHERE s.tournament_table_id = ? ORDER BY s.position", [row["id"]]))
        entries = _entries(db, row["id"])
        row["entries"] = entries
        if entries:
            row["outcome"], row["source"] = entries[-1]["outcome"], entries[-1]["kind"]
        else:
            row["outcome"] = table_outcome(db, row["game_table_id"])
            row["source"] = "table" if row["outcome"] is not None else None
        found.append(row)
    return found


def games(db: Database, tournament_id: int) -> list[dict[str, Any]]:
    """Every table of every round, in the form ``logic.standings`` reads."""
    played = []
    for number in round_numbers(db, tournament_id):
        for table in round_tables(db, tournament_id, number):
            played.append({**table, "seats": [seat["id"] for seat in table["seats"]],
                           "names": [seat["name"] for seat in table["seats"]]})
    return played


def standings(db: Database, tournament_id: int) -> list[dict[str, Any]]:
    tournament = get_tournament(db, tournament_id)
    assert tournament is not None
    return logic.standings(get_players(db, tournament_id), games(db, tournament_id),
                           tournament["tiebreaks"], tournament["late_murder"])


def history(db: Database, tournament_id: int) -> list[dict[str, Any]]:
    """The results history, newest first: every outcome that reached the leaderboard, from
    a table or the organiser (with the names of the table's seats), with the reason of
    each correction."""
    lines = []
    for game in games(db, tournament_id):
        names = game["names"]
        if game["game_table_id"] is not None:
            outcome = table_outcome(db, game["game_table_id"])
            if outcome is not None:
                lines.append({"round": game["round"], "table": game["number"],
                              "kind": "table", "reason": "", "seq": 0,
                              "at": outcome_time(db, game["game_table_id"]),
                              "outcome": outcome, "names": names})
        for entry in game["entries"]:
            lines.append({"round": game["round"], "table": game["number"],
                          "kind": entry["kind"], "at": entry["created_at"],
                          "seq": entry["id"],
                          "reason": entry["reason"], "outcome": entry["outcome"],
                          "names": names})
    # Within one second an organiser's entry is taken to follow the table's outcome.
    return sorted(lines, key=lambda line: (line["at"] or "", line["kind"] != "table",
                                           line["seq"]), reverse=True)


def unfinished_tables(db: Database, tournament_id: int, number: int) -> list[int]:
    """The table numbers of round ``number`` still without a result."""
    return [table["number"] for table in round_tables(db, tournament_id, number)
            if table["outcome"] is None]


# --- writing -----------------------------------------------------------------------------

TOURNAMENTS = Versioned(
    "tournaments", get_tournament,
    lambda: TournamentError(_("This tournament no longer exists."), 404),
    lambda: TournamentError(_("The tournament changed while you were deciding. Here is the "
                              "current page: please check and try again."), 409))
"""A tournament is changed at the version the organiser's page showed
(``TOURNAMENTS.reread``)."""


def create_tournament(db: Database, settings: Mapping[str, Any]) -> tuple[dict[str, Any], str]:
    """A new tournament and the organiser token that controls it."""
    token = tables.new_token()
    with write_transaction(db):
        cursor = db.execute(
            "INSERT INTO tournaments (name, rounds, table_size, late_murder, tiebreaks, "
            "organiser_token_hash) VALUES (?, ?, ?, ?, ?, ?)",
            [settings["name"], settings["rounds"], settings["table_size"],
             settings["late_murder"], json.dumps(list(settings["tiebreaks"])),
             tables.hash_token(token)])
    created = get_tournament(db, cursor.lastrowid)
    assert created is not None
    return created, token


def add_player(db: Database, tournament_id: int, seen_version: int, name: str, club: str,
               rng: random.Random) -> int:
    """Register a player (checked in when ``present``), ``name`` and ``club`` as the
    organiser's form gives them cleaned. Names are unique, ignoring case."""
    with write_transaction(db):
        tournament = TOURNAMENTS.reread(db, tournament_id, seen_version)
        taken = {row["name"].casefold(): row["name"] for row in db.query(
            "SELECT name FROM tournament_players WHERE tournament_id = ?", [tournament_id])}
        if name.casefold() in taken:
            raise TournamentError(_("%(name)s is already registered: please add an initial "
                                    "to tell the two apart.", name=taken[name.casefold()]),
                                  409)
        if len(taken) >= logic.MAX_PLAYERS:
            raise TournamentError(_("A tournament holds at most %(most)s players.",
                                    most=logic.MAX_PLAYERS))
        db.execute("INSERT INTO tournament_players (tournament_id, name, club, lot) "
                   "VALUES (?, ?, ?, ?)", [tournament_id, name, club, rng.randrange(1 << 30)])
        return TOURNAMENTS.bump(db, tournament)


def set_status(db: Database, tournament_id: int, seen_version: int, player_id: int,
               status: str) -> int:
    """Check a player in, back to registered, or drop them (for the coming rounds)."""
    if status not in STATUSES:
        raise TournamentError(_("Choose check in, not here or drop."))
    with write_transaction(db):
        tournament = TOURNAMENTS.reread(db, tournament_id, seen_version)
        player = get_player(db, tournament_id, player_id)
        if player is None:
            raise TournamentError(_("That player is not registered in this tournament."),
                                  404)
        db.execute("UPDATE tournament_players SET status = ? WHERE id = ?", [status, player_id])
        return TOURNAMENTS.bump(db, tournament)


def check_in_everyone(db: Database, tournament_id: int, seen_version: int) -> int:
    """Check in every registered player at once (a dropped player stays out); the
    tournament's new version."""
    with write_transaction(db):
        tournament = TOURNAMENTS.reread(db, tournament_id, seen_version)
        count = db.execute("UPDATE tournament_players SET status = 'present' "
                           "WHERE tournament_id = ? AND status = 'registered'",
                           [tournament_id]).rowcount
        if not count:
            raise TournamentError(_("Nobody is waiting to be checked in: every registered "
                                    "player is checked in already."), 409)
        return TOURNAMENTS.bump(db, tournament)


def _present(db: Database, tournament_id: int) -> list[dict[str, Any]]:
    return list(db.query("SELECT id, name FROM tournament_players WHERE tournament_id = ? "
                         "AND status = 'present' ORDER BY id", [tournament_id]))


def _history(db: Database, tournament_id: int) -> list[list[int]]:
    grouped: dict[int, list[int]] = {}
    for row in db.query(
            "SELECT s.tournament_table_id AS t, s.player_id FROM tournament_seats s "
            "JOIN tournament_rounds r ON r.id = s.round_id WHERE r.tournament_id = ? "
            "ORDER BY s.tournament_table_id, s.position", [tournament_id]):
        grouped.setdefault(row["t"], []).append(row["player_id"])
    return list(grouped.values())


def plan_round(db: Database, tournament_id: int, size: int | None, seating: str,
               rng: random.Random) -> tuple[int, list[list[int]]]:
    """Check that the next round may start and seat it: the organiser's seating when given,
    else the automatic one. Returns the round number and the players of each table."""
    tournament = TOURNAMENTS.reread(db, tournament_id, None)
    numbers = round_numbers(db, tournament_id)
    number = len(numbers) + 1
    if number > tournament["rounds"]:
        raise TournamentError(ngettext(
            "All %(n)s rounds of this tournament have been started.",
            "All %(n)s rounds of this tournament have been started.",
            tournament["rounds"]), 409)
    if numbers:
        waiting = unfinished_tables(db, tournament_id, numbers[-1])
        if waiting:
            raise TournamentError(ngettext(
                "Round %(round)s is not finished: table %(tables)s still without a result "
                "(enter it by hand if the game was played on paper).",
                "Round %(round)s is not finished: tables %(tables)s still without a result "
                "(enter it by hand if the game was played on paper).",
                len(waiting), round=numbers[-1], tables=", ".join(map(str, waiting))), 409)
    present = _present(db, tournament_id)
    if str(seating or "").strip():
        names = {row["id"]: row["name"] for row in db.query(
            "SELECT id, name FROM tournament_players WHERE tournament_id = ?",
            [tournament_id])}
        groups = logic.parse_seating(seating, {row["name"].casefold(): row["id"]
                                               for row in present}, names)
        if len(present) < logic.MIN_TABLE:
            raise TournamentError(logic.too_few(len(present)))
        return number, groups
    sizes = logic.split_sizes(len(present), size or tournament["table_size"])
    groups = logic.seat_round([row["id"] for row in present], sizes,
                              _history(db, tournament_id), rng)
    return number, groups


def start_round(db: Database, tournament_id: int, seen_version: int, size: int | None,
                seating: str, rng: random.Random) -> tuple[int, list[tuple[str, str]]]:
    """Open the next round: one London 1888 table per group, seats kept for its players.

    The platform opens each table in its own transaction, so the round is recorded last, in
    one transaction that re-checks the version: if another submission won the race, the
    tables just opened are closed again and nothing of the round remains. Returns the
    round number and each table's (code, host token) for the organiser's browser."""
    TOURNAMENTS.reread(db, tournament_id, seen_version)
    number, groups = plan_round(db, tournament_id, size, seating, rng)
    names = {row["id"]: row["name"] for row in db.query(
        "SELECT id, name FROM tournament_players WHERE tournament_id = ?", [tournament_id])}
    opened = []
    # The club's own London 1888 setup if this laptop has one, with its named cards.
    options = decks.options_with(db, london1888, tables.remembered_options(
        db, london1888.NAME) or london1888.default_options())
    for group in groups:
        table, host_token = tables.create_table(db, london1888, options, len(group), rng,
                                                remember=False)
        tables.set_seat_names(db, table["id"], [names[player] for player in group])
        opened.append((table, host_token))
    try:
        with write_transaction(db):
            tournament = TOURNAMENTS.reread(db, tournament_id, seen_version)
            if number in round_numbers(db, tournament_id):
                raise TournamentError(_("Round %(round)s has already started.",
                                        round=number), 409)
            round_id = db.execute("INSERT INTO tournament_rounds (tournament_id, number) "
                                  "VALUES (?, ?)", [tournament_id, number]).lastrowid
            for table_no, (group, (table, _token)) in enumerate(zip(groups, opened,
                                                                    strict=True), 1):
                table_id = db.execute(
                    "INSERT INTO tournament_tables (round_id, number, game_table_id) "
                    "VALUES (?, ?, ?)", [round_id, table_no, table["id"]]).lastrowid
                for position, player in enumerate(group):
                    db.execute("INSERT INTO tournament_seats (tournament_table_id, round_id, "
                               "position, player_id) VALUES (?, ?, ?, ?)",
                               [table_id, round_id, position, player])
            TOURNAMENTS.bump(db, tournament)
    except (TournamentError, sqlite3.IntegrityError):
        for table, _token in opened:
            tables.close_table(db, table["id"], None)
        raise
    return number, [(table["code"], token) for table, token in opened]


def _table(db: Database, tournament_id: int, number: int, table_no: int) -> dict[str, Any]:
    if number not in round_numbers(db, tournament_id):
        raise TournamentError(_("There is no round %(round)s in this tournament.",
                                round=number), 404)
    found = next((table for table in round_tables(db, tournament_id, number)
                  if table["number"] == table_no), None)
    if found is None:
        raise TournamentError(_("Round %(round)s has no table %(table)s.", round=number,
                                table=table_no), 404)
    return found


def record_result(db: Database, tournament_id: int, seen_version: int, number: int,
                  table_no: int, form: Mapping[str, str], reason: str = "",
                  correction: bool = False) -> int:
    """The organiser types in a table's result (a game played without the app) or corrects
    the one that counts, with a reason (cleaned by the organiser's form); both are kept
    in the results history."""
    with write_transaction(db):
        tournament = TOURNAMENTS.reread(db, tournament_id, seen_version)
        table = _table(db, tournament_id, number, table_no)
        where = {"table": table_no, "round": number}
        if correction and table["outcome"] is None:
            raise TournamentError(_("Table %(table)s of round %(round)s has no result to "
                                    "correct yet: enter it instead.", **where), 409)
        if not correction and table["outcome"] is not None:
            raise TournamentError(
                _("Table %(table)s of round %(round)s already has a result (from its game). "
                  "To change it, correct it and give the reason.", **where)
                if table["source"] == "table" else
                _("Table %(table)s of round %(round)s already has a result (from the "
                  "organiser). To change it, correct it and give the reason.", **where), 409)
        outcome = logic.parse_result(form, len(table["seats"]))
        if correction and logic.same_result(outcome, table["outcome"]):
            raise TournamentError(_("Table %(table)s of round %(round)s: that is the result "
                                    "already. Change what was wrong, then correct it.",
                                    **where))
        db.execute("INSERT INTO tournament_results (tournament_table_id, kind, outcome, reason) "
                   "VALUES (?, ?, ?, ?)",
                   [table["id"], "correction" if correction else "entered",
                    json.dumps(outcome, sort_keys=True), reason])
        return TOURNAMENTS.bump(db, tournament)


# --- export and import -------------------------------------------------------------------

def export_tournament(db: Database, tournament_id: int) -> dict[str, Any]:
    """The whole tournament as JSON: settings, players, rounds with their tables and seats,
    each table's result that counts and every organiser entry. Only finished games are in
    it (their outcomes are public), so it holds no secret."""
    tournament = get_tournament(db, tournament_id)
    assert tournament is not None
    rounds = []
    for number in round_numbers(db, tournament_id):
        rounds.append({"number": number, "tables": [
            {"number": table["number"], "code": table["code"],
             "seats": [seat["name"] for seat in table["seats"]],
             "table_outcome": (table_outcome(db, table["game_table_id"])
                               if table["game_table_id"] is not None else None),
             "entries": [{"kind": entry["kind"], "outcome": entry["outcome"],
                          "reason": entry["reason"], "created_at": entry["created_at"]}
                         for entry in table["entries"]]}
            for table in round_tables(db, tournament_id, number)]})
    return {"format": EXPORT_FORMAT,
            "tournament": {key: tournament[key] for key in (
                "name", "rounds", "table_size", "late_murder", "tiebreaks", "created_at")},
            "players": [{key: player[key] for key in ("name", "club", "status", "lot")}
                        for player in get_players(db, tournament_id)],
            "rounds": rounds}


def import_tournament(db: Database, data: Any) -> tuple[dict[str, Any], str]:
    """Load an exported tournament (JSON read by ``companion.importing.read``) with a new
    organiser token. Tables are not moved between laptops: each finished table's outcome
    comes along as an imported result, and a table still playing when exported has no
    result here (type it in when its game ends)."""
    token = tables.new_token()
    try:
        if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
            raise TournamentError(_("This file is not a companion tournament export."))
        info = data["tournament"]
        settings = logic.parse_settings(info, list(info["tiebreaks"]))
        with write_transaction(db):
            tournament_id = db.execute(
                "INSERT INTO tournaments (name, rounds, table_size, late_murder, tiebreaks, "
                "organiser_token_hash, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [settings["name"], settings["rounds"], settings["table_size"],
                 settings["late_murder"], json.dumps(settings["tiebreaks"]),
                 tables.hash_token(token), str(info["created_at"])]).lastrowid
            ids: dict[str, int] = {}
            for player in data["players"]:
                name = clean_name(player["name"], logic.PLAYER_NAME, TournamentError)
                if name.casefold() in ids:
                    raise TournamentError(_("This export lists %(name)s twice.", name=name))
                if player["status"] not in STATUSES:
                    raise ValueError
                ids[name.casefold()] = db.execute(
                    "INSERT INTO tournament_players (tournament_id, name, club, status, lot) "
                    "VALUES (?, ?, ?, ?, ?)",
                    [tournament_id, name, clean_name(player["club"], logic.CLUB, TournamentError,
                                                     required=False),
                     player["status"], int(player["lot"])]).lastrowid
            for expected, round_ in enumerate(data["rounds"], start=1):
                if int(round_["number"]) != expected or expected > settings["rounds"]:
                    raise TournamentError(_("This export's rounds are out of order."))
                round_id = db.execute("INSERT INTO tournament_rounds (tournament_id, number) "
                                      "VALUES (?, ?)", [tournament_id, expected]).lastrowid
                seated: set[int] = set()
                for table_no, table in enumerate(round_["tables"], start=1):
                    _import_table(db, round_id, expected, table_no, table, ids, seated,
                                  settings["late_murder"])
    except RuleError as error:
        raise TournamentError(_("This export holds an impossible result: %(why)s",
                                why=error.message)) from None
    except (KeyError, TypeError, ValueError, AttributeError, sqlite3.IntegrityError) as error:
        raise TournamentError(_("This export file is damaged (%(error)s).",
                                error=error.__class__.__name__)) from None
    imported = get_tournament(db, tournament_id)
    assert imported is not None
    return imported, token


def _import_table(db: Database, round_id: int, number: int, table_no: int,
                  table: Mapping[str, Any], ids: Mapping[str, int], seated: set[int],
                  late: int) -> None:
    seats = [ids.get(str(name).casefold()) for name in table["seats"]]
    if None in seats:
        raise TournamentError(_("Round %(round)s, table %(table)s seats someone who is not "
                                "a player of this tournament.", round=number, table=table_no))
    for player in seats:
        if player in seated or seats.count(player) > 1:
            raise TournamentError(_("Round %(round)s: a player sits at two tables.",
                                    round=number))
        seated.add(player)
    if not logic.MIN_TABLE <= len(seats) <= logic.MAX_TABLE:
        raise TournamentError(ngettext(
            "Round %(round)s, table %(table)s has %(n)s player.",
            "Round %(round)s, table %(table)s has %(n)s players.", len(seats), round=number,
            table=table_no))
    table_id = db.execute("INSERT INTO tournament_tables (round_id, number) VALUES (?, ?)",
                          [round_id, table_no]).lastrowid
    for position, player in enumerate(seats):
        db.execute("INSERT INTO tournament_seats (tournament_table_id, round_id, position, "
                   "player_id) VALUES (?, ?, ?, ?)", [table_id, round_id, position, player])
    entries = list(table["entries"])
    if table.get("table_outcome") is not None:
        entries.insert(0, {"kind": "imported", "outcome": table["table_outcome"],
                           "reason": "", "created_at": None})
    for entry in entries:
        kind = entry["kind"]
        if kind not in ("entered", "correction", "imported"):
            raise ValueError
        outcome = {key: value for key, value in dict(entry["outcome"]).items()
                   if key != "points"}
        logic.game_points(outcome, seats, late)
        db.execute("INSERT INTO tournament_results (tournament_table_id, kind, outcome, reason"
                   + (", created_at" if entry.get("created_at") else "") + ") VALUES (?, ?, ?, ?"
                   + (", ?" if entry.get("created_at") else "") + ")",
                   [table_id, kind, json.dumps(outcome, sort_keys=True),
                    str(entry.get("reason") or "")[:logic.REASON_MAX]]
                   + ([str(entry["created_at"])] if entry.get("created_at") else []))
