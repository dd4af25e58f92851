"""The club's history: one row per finished game, its players, and the names the host
merged. Small functions over ``db`` returning dicts.

A row is written by ``record`` in the transaction of the action that ended the game
(``companion.tables.act``), by an import, and once for the games that ended before the
history existed (``backfill``); a game dealt in an imported file
only once the laptop accepted it (``origin``, ``note_import``, ``decide``). It is keyed
on the log entry of the game's final state (``log_id``), so it is drawn from that entry
alone: nothing of a game still running is in it. Names count as one player when they
differ only in case and spaces ("Anna" and "anna "); the host may merge two names into
one player (``merge``) and take a merge back (``unmerge``). Everything is read from these
rows and their indexes, never by replaying a log (bench/history.py).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from sqlite_utils import Database

from companion import words
from companion.games.base import Game
from companion.names import NameField, clean_name
from companion.words import _, ngettext

PER_PAGE = 50
"""Games on one page of the list."""
PAGE_MAX = 10 ** 6
"""The furthest page a link may ask for (a million pages of 50: more than any club)."""
NAME_MAX = 60
"""The longest name a filter or a merge takes (a seat's name is at most 30)."""
PLAYER = NameField(NAME_MAX, _("Please choose a player."), ngettext(
    "No player's name is longer than %(n)s character: please choose one of the players "
    "listed.",
    "No player's name is longer than %(n)s characters: please choose one of the players "
    "listed.", NAME_MAX))
"""A player's name typed or tapped for a filter or a merge (``names.clean_name``)."""
SIDES = ("jack", "detectives")
"""The sides of the games with a Jack: the detectives' side holds London 1888's
Innocents. Wo ist Jack the Ripper has neither ("players")."""


class HistoryError(Exception):
    """A refused change of the history, with the message and HTTP status to answer."""

    def __init__(self, message: str, status: int = 422) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def normalise(name: str) -> str:
    """A player's key: "Anna", "anna " and "ANNA" are one player."""
    return " ".join(str(name or "").split()).casefold()


# --- writing ---------------------------------------------------------------------------

def record(db: Database, game: Game, table_id: int, game_no: int, log_id: int,
           state: Any, names: Sequence[str | None], ended_at: str | None = None) -> bool:
    """Keep a finished game (inside the caller's transaction); False when its game has
    no ``result`` hook, the row is already there (a backfill run twice), or the game came
    in a file the laptop has not accepted (``origin``)."""
    result_of = getattr(game, "result", None)
    source, counts = origin(db, table_id, game_no)
    if result_of is None or not counts:
        return False
    result = result_of(state)
    detail = {key: result[key] for key in ("points", "hideout", "crimes", "board",
                                            "jack_side", "companion")
              if result.get(key) is not None}
    cursor = db.execute(
        "INSERT OR IGNORE INTO results (table_id, game_no, log_id, game, ended_at, side, "
        "winner, ending, how, detail, words, source) VALUES (?, ?, ?, ?, "
        "coalesce(?, strftime('%Y-%m-%dT%H:%M:%SZ', 'now')), ?, ?, ?, ?, ?, ?, ?)",
        [table_id, game_no, log_id, game.NAME, ended_at, result["side"],
         str(result["winner"]), result["ending"], str(result["how"]),
         json.dumps(detail, sort_keys=True), _kept_words(result), source])
    if not cursor.rowcount:
        return False
    points = result.get("points")
    jack_side = set(result.get("jack_side") or ())
    played = set(result.get("companion_seats") or ())
    for position, name in enumerate(names):
        if position in played:
            continue  # the companion's seat: no player's record
        shown = " ".join(str(name or f"Seat {position + 1}").split())
        side = "players" if result["side"] == "players" else (
            "jack" if position in jack_side else "detectives")
        db.execute(
            "INSERT INTO result_players (result_id, position, name, key, jack, side, won, "
            "points) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [cursor.lastrowid, position, shown, normalise(shown),
             int(position in result["jack"]), side, int(position in result["winners"]),
             points[position] if points else None])
    return True


Ending = Callable[[Database, int, int], Mapping[str, Any] | None]
"""A game's end as its table's log keeps it (``companion.tables.game_end``): the entry
of its state in force (``log_id``, ``state``, ``ended_at``) and its seats' ``names``."""


def backfill(db: Database, games: Mapping[str, Game], ending: Ending,
             table_id: int | None = None) -> int:
    """Keep every finished game of the table (every table without ``table_id``) that the
    history does not hold yet: an imported table's, and once, at the first start with
    the history (``companion.create_app``), those that ended before it. Inside the
    caller's transaction; gives how many were added. The log is read through ``ending``:
    tables.py writes here at every game's end, so this module never imports it."""
    added = 0
    for row in list(db.query(
            "SELECT DISTINCT log.table_id, log.game_no, tables.game FROM log "
            "JOIN tables ON tables.id = log.table_id WHERE log.kind = 'start' "
            "AND (? IS NULL OR log.table_id = ?) AND NOT EXISTS (SELECT 1 FROM results "
            "WHERE results.table_id = log.table_id AND results.game_no = log.game_no)",
            [table_id, table_id])):
        game = games.get(row["game"])
        end = None if game is None else ending(db, row["table_id"], row["game_no"])
        if game is None or end is None or end["state"] is None or not game.is_over(
                end["state"]):
            continue
        added += record(db, game, row["table_id"], row["game_no"], end["log_id"],
                        end["state"], end["names"], end["ended_at"])
    return added


# --- imported games ------------------------------------------------------------------------
# docs/RULINGS.md#general, "The club's history is the laptop's": a game dealt in an imported
# file counts once the laptop accepts it (at once when the laptop imported it itself).

def origin(db: Database, table_id: int, game_no: int) -> tuple[str, bool]:
    """Where a table's game came from, "here" or "imported" (dealt in the file an import
    brought), and whether it counts in the history now."""
    found = next(iter(db.query("SELECT game_no, state FROM imports WHERE table_id = ?",
                               [table_id])), None)
    if found is None or game_no > found["game_no"]:
        return "here", True
    return "imported", found["state"] == "kept"


def note_import(db: Database, table_id: int, game_no: int, by_laptop: bool) -> None:
    """An imported table's games 1 to ``game_no`` came in its file: they count at once when
    the laptop imported it, else they wait for the laptop (``decide``). Inside the
    import's transaction, before its games are recorded."""
    if game_no:  # a table imported before its first deal brought no game
        db.execute("INSERT INTO imports (table_id, game_no, state) VALUES (?, ?, ?)",
                   [table_id, game_no, "kept" if by_laptop else "waiting"])


def waiting(db: Database) -> list[dict[str, Any]]:
    """The imports whose games wait for the laptop, oldest first: table id, the games the
    file brought, when it was imported."""
    return list(db.query("SELECT table_id, game_no, created_at FROM imports "
                         "WHERE state = 'waiting' ORDER BY created_at, table_id"))


def decide(db: Database, table_id: int, keep: bool) -> None:
    """The laptop's answer to a waiting import, in the caller's transaction: its games
    count (the caller then records them) or stay out of the history for good."""
    # Looked up among the waiting first: a number from the address may be anything.
    if table_id not in {entry["table_id"] for entry in waiting(db)}:
        raise HistoryError(_("No imported games of that table wait for the laptop: it was "
                             "answered already."), 409)
    db.execute("UPDATE imports SET state = ? WHERE table_id = ?",
               ["kept" if keep else "left_out", table_id])


def _kept_words(result: Mapping[str, Any]) -> str | None:
    """The result's sentences as JSON for every language (``words.Text.as_data``); None
    when the game gave plain English (its row then shows that English, as before)."""
    kept = {key: result[key].as_data() for key in ("winner", "how")
            if isinstance(result.get(key), words.Text)}
    return json.dumps(kept, sort_keys=True, ensure_ascii=False) if kept else None


def shown_words(row: Mapping[str, Any], kept: str | None) -> dict[str, Any]:
    """A row's ``winner`` and ``how`` to draw in the reader's language: the kept Texts,
    else (a row written before the words were kept, or junk) its English."""
    try:
        found = json.loads(kept) if kept else {}
    except ValueError:
        found = {}
    if not isinstance(found, dict):
        found = {}
    return {key: words.from_data(found[key]) if key in found else row[key]
            for key in ("winner", "how")}


def merge(db: Database, name: str, into: str) -> None:
    """Count ``name`` as ``into`` from now on (the same person typed two ways), in the
    caller's transaction. Both must have played; a name already merged is merged again
    where ``into`` is."""
    typed = {normalise(text): text for text in (clean_name(into, PLAYER, HistoryError),
                                                clean_name(name, PLAYER, HistoryError))}
    key, target = normalise(name), normalise(into)
    known = _known(db, [key, target])
    for asked in (key, target):
        if asked not in known:
            raise HistoryError(_("Nobody called “%(name)s” has finished a game on this "
                                 "laptop.", name=typed[asked]), 404)
    roots = merged(db)
    if roots.get(key, key) == roots.get(target, target):
        raise HistoryError(_("Those two names already count as one player: nothing to "
                             "merge."), 409)
    db.execute("INSERT INTO name_merges (key, into_key) VALUES (?, ?) "
               "ON CONFLICT (key) DO UPDATE SET into_key = excluded.into_key, "
               "created_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now')", [key, target])


def unmerge(db: Database, name: str) -> None:
    """Take back the merge of ``name``: it counts as a player of its own again."""
    key = normalise(clean_name(name, PLAYER, HistoryError))
    if not db.execute("DELETE FROM name_merges WHERE key = ?", [key]).rowcount:
        raise HistoryError(_("“%(name)s” was not merged into another name.",
                             name=clean_name(name, PLAYER, HistoryError)), 409)


def _known(db: Database, keys: Sequence[str]) -> set[str]:
    marks = ", ".join("?" for _ in keys)
    return {row["key"] for row in db.query(
        f"SELECT DISTINCT key FROM result_players WHERE key IN ({marks})", list(keys))}


# --- the players' names ----------------------------------------------------------------

def merged(db: Database) -> dict[str, str]:
    """Every merged key and the key it counts as in the end (a merge into a merged name
    follows it; a loop, which ``merge`` never makes, stops where it closes)."""
    into = {row["key"]: row["into_key"] for row in db.query(
        "SELECT key, into_key FROM name_merges")}
    roots = {}
    for key in into:
        seen, root = {key}, into[key]
        while root in into and into[root] not in seen:
            seen.add(root)
            root = into[root]
        roots[key] = root
    return roots


def merges(db: Database) -> list[dict[str, Any]]:
    """The merges the host made, newest first, with the names as last typed."""
    rows = list(db.query("SELECT key, into_key, created_at FROM name_merges "
                         "ORDER BY created_at DESC, key"))
    roots = merged(db)
    return [{"name": _shown(db, row["key"]), "into": _shown(db, row["into_key"]),
             "key": row["key"], "into_key": roots[row["key"]],
             "created_at": row["created_at"]} for row in rows]


def _shown(db: Database, key: str) -> str | None:
    """A key's name as it was last typed at a finished game."""
    row = next(iter(db.query("SELECT name FROM result_players WHERE key = ? "
                             "ORDER BY result_id DESC LIMIT 1", [key])), None)
    return row["name"] if row else None


def players(db: Database) -> list[dict[str, Any]]:
    """Every player of a finished game, merges applied: name (as last typed under the key
    they count as), key, games and wins; most games first."""
    roots = merged(db)
    found: dict[str, dict[str, Any]] = {}
    for row in db.query("SELECT key, name, max(result_id) AS latest, count(*) AS games, "
                        "sum(won) AS wins FROM result_players GROUP BY key"):
        root = roots.get(row["key"], row["key"])
        player = found.setdefault(root, {"key": root, "name": "", "games": 0, "wins": 0,
                                         "keys": [], "_rank": (False, -1)})
        player["games"] += row["games"]
        player["wins"] += row["wins"]
        player["keys"].append(row["key"])
        # Shown as the name they count as was last typed, else the latest of the others.
        rank = (row["key"] == root, row["latest"])
        if rank > player["_rank"]:
            player["name"], player["_rank"] = row["name"], rank
    for player in found.values():
        del player["_rank"]
    return sorted(found.values(), key=lambda p: (-p["games"], p["key"]))


def names_by_key(found: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    """Every merged key of ``players`` (``found``) and the name of the player it counts
    as: "ann" merged into "Anne" reads "Anne". A name merged into nobody stays as it was
    typed at its table."""
    return {key: player["name"] for player in found for key in player["keys"]
            if key != player["key"]}


def keys_of(db: Database, name: str) -> list[str]:
    """The keys that count as the player ``name`` (theirs and those merged into it)."""
    roots = merged(db)
    key = normalise(name)
    root = roots.get(key, key)
    return sorted({root, *(k for k, r in roots.items() if r == root)})


# --- reading the games -----------------------------------------------------------------

def _where(game: str | None, keys: Sequence[str] | None) -> tuple[str, list[Any]]:
    clauses, params = [], []
    if game:
        clauses.append("r.game = ?")
        params.append(game)
    if keys is not None:
        marks = ", ".join("?" for _ in keys)
        clauses.append(f"r.id IN (SELECT result_id FROM result_players WHERE key IN ({marks}))")
        params.extend(keys)
    return (" WHERE " + " AND ".join(clauses)) if clauses else "", params


def count(db: Database, game: str | None = None, keys: Sequence[str] | None = None) -> int:
    where, params = _where(game, keys)
    return db.execute(f"SELECT count(*) FROM results r{where}", params).fetchone()[0]


def games(db: Database, game: str | None = None, keys: Sequence[str] | None = None,
          page: int = 1, per_page: int | None = PER_PAGE, shown: bool = True,
          names: Mapping[str, str] | None = None) -> list[dict[str, Any]]:
    """Finished games, newest first, each with its players in seat order (name, key,
    Jack or not, accomplice or not, won or not, points): one page of them, or all with
    ``per_page`` None. ``names`` (``names_by_key``): each player by the name the laptop's
    merges give them, else as typed at the table.
    Rows as plain tuples first: an export of years of games reads 10,000 players.
    ``shown``: each row's ``winner`` and ``how`` for a page, in its reader's language
    (``shown_words``); an export, in English only, goes without."""
    where, params = _where(game, keys)
    limit = "" if per_page is None else " LIMIT ? OFFSET ?"
    if per_page is not None:
        params += [per_page, (page - 1) * per_page]
    rows = [dict(zip(("id", "table_id", "game_no", "game", "ended_at", "side", "winner",
                      "ending", "how", "words", "source"), row, strict=True)) for row in db.execute(
        "SELECT r.id, r.table_id, r.game_no, r.game, r.ended_at, r.side, r.winner, r.ending, "
        f"r.how, r.words, r.source FROM results r{where} "
        f"ORDER BY r.ended_at DESC, r.id DESC{limit}", params)]
    for row in rows:
        # English stays in ``winner`` and ``how`` (the exports); ``shown`` is for a page.
        kept = row.pop("words")
        if shown:
            row["shown"] = shown_words(row, kept)
    seated: dict[int, list[dict[str, Any]]] = {row["id"]: [] for row in rows}
    for start in range(0, len(rows), 500):
        ids = [row["id"] for row in rows[start:start + 500]]
        marks = ", ".join("?" for _ in ids)
        for result_id, name, key, jack, side, won, points in db.execute(
                "SELECT result_id, name, key, jack, side, won, points FROM result_players "
                f"WHERE result_id IN ({marks}) ORDER BY result_id, position", ids):
            # London 1888's accomplices: on Jack's side, not Jack (``record``).
            seated[result_id].append({
                "name": (names or {}).get(key, name), "key": key, "jack": jack,
                "accomplice": int(side == "jack" and not jack), "won": won,
                "points": points})
    for row in rows:
        row["players"] = seated[row["id"]]
        row["jack"] = [p["name"] for p in row["players"] if p["jack"]]
        row["accomplices"] = [p["name"] for p in row["players"] if p["accomplice"]]
    return rows


def by_game(db: Database, game: str | None = None, keys: Sequence[str] | None = None,
            ) -> list[dict[str, Any]]:
    """Per game: finished games, Jack's wins among those with a Jack, and how they
    ended (each ending's count, most frequent first, and the words of its latest); only
    the games of ``game`` and with one of ``keys`` (a player and the names merged into
    theirs) when given, as the list's filters keep them."""
    found: dict[str, dict[str, Any]] = {}
    where, params = _where(game, keys)
    # SQLite gives a bare column from the row of max(): ``how`` of each ending's latest.
    for row in db.query("SELECT r.game AS game, r.side AS side, r.ending AS ending, "
                        "r.how AS how, r.words AS words, max(r.id) AS latest, "
                        f"count(*) AS n FROM results r{where} "
                        "GROUP BY r.game, r.side, r.ending", params):
        entry = found.setdefault(row["game"], {"game": row["game"], "games": 0,
                                               "jack_wins": 0, "with_jack": 0,
                                               "endings": []})
        entry["games"] += row["n"]
        if row["side"] in SIDES:
            entry["with_jack"] += row["n"]
            entry["jack_wins"] += row["n"] if row["side"] == "jack" else 0
        entry["endings"].append({"ending": row["ending"], "side": row["side"],
                                 "games": row["n"], "example": shown_words(
                                     {"winner": "", "how": row["how"]}, row["words"])["how"]})
    # Games against the companion, apart by its level ("the detectives against the
    # companion: 7 of 12"), under the same filters.
    companion = "json_extract(r.detail, '$.companion') IS NOT NULL"
    where = f"{where} AND {companion}" if where else f" WHERE {companion}"
    for row in db.query("SELECT r.game AS game, json_extract(r.detail, '$.companion') AS "
                        "level, count(*) AS n, sum(r.side = 'detectives') AS won "
                        f"FROM results r{where} GROUP BY r.game, level "
                        "ORDER BY r.game, level", params):
        found[row["game"]].setdefault("companion", []).append(
            {"level": row["level"], "games": row["n"], "detective_wins": row["won"]})
    for entry in found.values():
        entry["endings"].sort(key=lambda e: (-e["games"], e["ending"]))
        entry["jack_rate"] = (entry["jack_wins"] / entry["with_jack"]
                              if entry["with_jack"] else None)
    return sorted(found.values(), key=lambda e: e["game"])


def player_record(db: Database, keys: Sequence[str]) -> dict[str, Any]:
    """A player's games, wins, wins as Jack and as a detective, per game, and their wins
    and games per month (the plot of wins over time)."""
    marks = ", ".join("?" for _ in keys)
    totals = {"games": 0, "wins": 0, "jack_games": 0, "jack_wins": 0, "detective_games": 0,
              "detective_wins": 0, "points": 0}
    per_game: dict[str, dict[str, int]] = {}
    for row in db.query(
            "SELECT r.game, p.side, p.jack, count(*) AS n, sum(p.won) AS wins, "
            "coalesce(sum(p.points), 0) AS points FROM result_players p "
            f"JOIN results r ON r.id = p.result_id WHERE p.key IN ({marks}) "
            "GROUP BY r.game, p.side, p.jack", list(keys)):
        entry = per_game.setdefault(row["game"], {"games": 0, "wins": 0, "points": 0})
        for target in (entry, totals):
            target["games"] += row["n"]
            target["wins"] += row["wins"]
            target["points"] += row["points"]
        if row["jack"]:
            totals["jack_games"] += row["n"]
            totals["jack_wins"] += row["wins"]
        elif row["side"] == "detectives":
            totals["detective_games"] += row["n"]
            totals["detective_wins"] += row["wins"]
    months = list(db.query(
        "SELECT substr(r.ended_at, 1, 7) AS month, count(*) AS games, sum(p.won) AS wins "
        f"FROM result_players p JOIN results r ON r.id = p.result_id WHERE p.key IN ({marks}) "
        "GROUP BY month ORDER BY month", list(keys)))
    return {**totals, "by_game": per_game, "months": months}


def months(db: Database, game: str | None = None, keys: Sequence[str] | None = None,
           ) -> list[dict[str, Any]]:
    """Finished games and Jack's wins per month (the plot of wins over time), of the
    games the list's filters keep (``by_game``)."""
    where, params = _where(game, keys)
    return list(db.query(
        "SELECT substr(r.ended_at, 1, 7) AS month, count(*) AS games, "
        "sum(r.side = 'jack') AS jack_wins, sum(r.side = 'detectives') AS detective_wins "
        f"FROM results r{where} GROUP BY month ORDER BY month", params))


def heat(db: Database) -> dict[str, dict[str, Mapping[int, int]]]:
    """Per board of Letters from Whitechapel: how often each circle was a hideout and a
    crime scene in the finished games."""
    boards: dict[str, dict[str, dict[int, int]]] = {}
    for (text,) in db.execute("SELECT detail FROM results WHERE game = 'whitechapel'"):
        detail = json.loads(text)
        counts = boards.setdefault(detail.get("board") or "", {"hideouts": {}, "crimes": {}})
        if detail.get("hideout") is not None:
            hideouts = counts["hideouts"]
            hideouts[detail["hideout"]] = hideouts.get(detail["hideout"], 0) + 1
        for circle in detail.get("crimes", ()):
            counts["crimes"][circle] = counts["crimes"].get(circle, 0) + 1
    return boards
