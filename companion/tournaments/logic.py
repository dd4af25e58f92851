"""London 1888 tournaments: tables of a round, seating, points and standings (pure logic).

Rulebook: "London 1888 Rulebook", "Note: Scoring for Tournaments"; rulings:
docs/RULINGS.md#london-1888, "Tournament points", and docs/RULINGS.md#london-1888-tournaments.
The points table itself lives once, in
``companion.games.london1888.tournament_points``: this module only maps a table's seats to
the tournament's players and adds them up. No Flask, no SQL; randomness only through ``rng``.

- ``split_sizes``: the checked-in players in tables of 4 to 8, as even as possible, around
  a preferred size (London 1888's usual 5, which the organiser may override).
- ``seat_round``: who sits at which table, so that players meet as few earlier opponents as
  possible (a local search with restarts, deterministic for a given ``rng``).
- ``standings``: total points, points per round, and the tiebreaks in the organiser's
  order, then drawn lots, shown as such.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from itertools import combinations
from typing import Any

from companion.games import london1888
from companion.games.base import RuleError, parse_bool, parse_choice, parse_int
from companion.names import NameField, clean_name
from companion.words import Text, _, ngettext

MIN_TABLE = london1888.MIN_PLAYERS
MAX_TABLE = london1888.MAX_PLAYERS
DEFAULT_TABLE = london1888.DEFAULT_PLAYERS
MAX_ROUNDS = 12
MAX_PLAYERS = 200
NAME_MAX = 30
CLUB_MAX = 40
REASON_MAX = 200
# Each field's refusals whole: a language writes "the club" and "the player's name" each
# its own way.
TOURNAMENT_NAME = NameField(60, _("Please enter the tournament's name."), ngettext(
    "Please keep the tournament's name to %(n)s character.",
    "Please keep the tournament's name to %(n)s characters.", 60))
PLAYER_NAME = NameField(NAME_MAX, _("Please enter the player's name."), ngettext(
    "Please keep the player's name to %(n)s character.",
    "Please keep the player's name to %(n)s characters.", NAME_MAX))
CLUB = NameField(CLUB_MAX, _("Please enter the club."), ngettext(
    "Please keep the club to %(n)s character.",
    "Please keep the club to %(n)s characters.", CLUB_MAX))
REASON = NameField(REASON_MAX, _("Please enter the reason for the correction."), ngettext(
    "Please keep the reason for the correction to %(n)s character.",
    "Please keep the reason for the correction to %(n)s characters.", REASON_MAX))
TABLE_SIZE = _("table size")
"""The table size field's name, as a refusal of it names it."""

TIEBREAKS: dict[str, str] = {
    "jack_wins": _("Most games won as Jack"),
    "jack_points": _("Most points as Jack"),
    "wins": _("Most wins"),
    "head_to_head": _("Head-to-head"),
}
"""The tiebreaks the organiser puts in order (issue #6); drawn lots always come last."""
DEFAULT_TIEBREAKS = tuple(TIEBREAKS)
LOTS = "lots"
DECIDED_BY = {"points": _("Points"), **TIEBREAKS, LOTS: _("Drawn lots")}

RESTARTS = 24
"""Random starting seatings tried by the local search; the best one is kept."""


class TournamentError(Exception):
    """A refused tournament operation: the message for the organiser, and an HTTP status."""

    def __init__(self, message: str, status: int = 422,
                 problems: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        # Several mistakes found at once (a typed seating), each a sentence.
        self.problems = list(problems)


# --- tables of a round -----------------------------------------------------------------

def split_sizes(count: int, preferred: int = DEFAULT_TABLE) -> list[int]:
    """Table sizes for ``count`` players: every table 4 to 8, sizes differing by at most one
    (bigger tables first), and their number chosen so the average is nearest ``preferred``
    (on a tie, fewer tables)."""
    if not MIN_TABLE <= preferred <= MAX_TABLE:
        raise TournamentError(_("A table has %(low)s to %(high)s players; %(size)s is not "
                                "possible.", low=MIN_TABLE, high=MAX_TABLE, size=preferred))
    if count < MIN_TABLE:
        raise TournamentError(too_few(count))
    fewest, most = -(-count // MAX_TABLE), count // MIN_TABLE
    tables = min(range(fewest, most + 1), key=lambda k: (abs(count / k - preferred), k))
    small, extra = divmod(count, tables)
    return [small + 1] * extra + [small] * (tables - extra)


def too_few(count: int) -> Text:
    """The refusal of a round with fewer checked-in players than a table needs."""
    return ngettext("A round needs at least %(low)s checked-in players; %(n)s is checked in.",
                    "A round needs at least %(low)s checked-in players; %(n)s are checked "
                    "in.", count, low=MIN_TABLE)


def meetings(history: Iterable[Sequence[Any]]) -> Counter:
    """How often each pair of players sat at the same table (pairs as sorted tuples)."""
    met: Counter = Counter()
    for table in history:
        for pair in combinations(sorted(table), 2):
            met[pair] += 1
    return met


def _pair_cost(met: Counter, a: Any, b: Any) -> int:
    # Squared so that a third meeting costs more than two second ones: repeats spread out.
    times = met.get((a, b) if a < b else (b, a), 0)
    return times * times


def _table_cost(met: Counter, table: Sequence[Any]) -> int:
    return sum(_pair_cost(met, a, b) for a, b in combinations(table, 2))


def seating_cost(met: Counter, tables: Sequence[Sequence[Any]]) -> int:
    """What ``seat_round`` minimises: for every pair seated together, the square of the
    number of times they met before."""
    return sum(_table_cost(met, table) for table in tables)


def _improve(met: Counter, tables: list[list[Any]]) -> None:
    """Best-improvement swaps of two players at different tables until none helps."""
    while True:
        best, best_swap = 0, None
        for i, j in combinations(range(len(tables)), 2):
            for x, a in enumerate(tables[i]):
                without_a = [p for p in tables[i] if p != a]
                lose_a = sum(_pair_cost(met, a, p) for p in without_a)
                for y, b in enumerate(tables[j]):
                    without_b = [p for p in tables[j] if p != b]
                    delta = (sum(_pair_cost(met, b, p) for p in without_a) - lose_a
                             + sum(_pair_cost(met, a, p) for p in without_b)
                             - sum(_pair_cost(met, b, p) for p in without_b))
                    if delta < best:
                        best, best_swap = delta, (i, x, j, y)
        if best_swap is None:
            return
        i, x, j, y = best_swap
        tables[i][x], tables[j][y] = tables[j][y], tables[i][x]


def random_tables(players: Sequence[Any], sizes: Sequence[int],
                  rng: random.Random) -> list[list[Any]]:
    """The players shuffled into tables of ``sizes``, in order: where seating starts."""
    order = list(players)
    rng.shuffle(order)
    tables, start = [], 0
    for size in sizes:
        tables.append(order[start:start + size])
        start += size
    return tables


def seat_round(players: Sequence[Any], sizes: Sequence[int],
               history: Iterable[Sequence[Any]], rng: random.Random,
               restarts: int = RESTARTS) -> list[list[Any]]:
    """Tables for one round that keep repeat opponents as few as possible.

    A local search: deal the players at random into tables of ``sizes``, then swap two
    players of different tables while a swap lowers ``seating_cost`` (best swap first);
    do this from ``restarts`` random deals and keep the cheapest (the first one on a tie).
    Each table's seat order is then shuffled, so characters (seat 1 is Abberline) and who
    holds the ABSINTHE card first vary. Everything random comes from ``rng``: the same
    ``rng`` state gives the same seating."""
    if sum(sizes) != len(players):
        raise TournamentError(_("The table sizes do not add up to the number of players."))
    met = meetings(history)
    best: list[list[Any]] | None = None
    best_cost = None
    for _attempt in range(max(1, restarts)):
        tables = random_tables(players, sizes, rng)
        _improve(met, tables)
        cost = seating_cost(met, tables)
        if best_cost is None or cost < best_cost:
            best, best_cost = tables, cost
        if best_cost == 0:
            break
    assert best is not None
    for table in best:
        rng.shuffle(table)
    return best


def parse_seating(text: str, present: Mapping[str, Any], names: Mapping[Any, str],
                  ) -> list[list[Any]]:
    """The organiser's own seating: one table per line, names separated by commas.

    ``present`` maps each checked-in player's name (case-folded) to their id; ``names``
    maps every id to its name. Every checked-in player sits at exactly one table. A
    seating with mistakes is refused with all of them listed (``problems``), so that
    the organiser mends them in one go."""
    tables: list[list[Any]] = []
    seen: dict[Any, int] = {}
    problems: list[Text] = []
    lines = [line for line in str(text).splitlines() if line.strip()]
    for number, line in enumerate(lines, start=1):
        table = []
        for raw in line.split(","):
            name = " ".join(raw.split())
            if not name:
                continue
            player = present.get(name.casefold())
            if player is None:
                problems.append(_("Table %(table)s: “%(name)s” is not a checked-in player.",
                                  table=number, name=name[:NAME_MAX]))
                continue
            if player in seen:
                if seen[player] == number:
                    problems.append(_("%(name)s cannot sit twice at that table: a player "
                                      "plays at one table per round.", name=names[player]))
                else:
                    problems.append(_("%(name)s cannot sit at table %(first)s and at table "
                                      "%(second)s: a player plays at one table per round.",
                                      name=names[player], first=seen[player],
                                      second=number))
                continue
            seen[player] = number
            table.append(player)
        if not MIN_TABLE <= len(table) <= MAX_TABLE:
            problems.append(ngettext(
                "Table %(table)s has %(n)s player: London 1888 is played by %(low)s to "
                "%(high)s.",
                "Table %(table)s has %(n)s players: London 1888 is played by %(low)s to "
                "%(high)s.", len(table), table=number, low=MIN_TABLE, high=MAX_TABLE))
        tables.append(table)
    missing = [names[player] for player in present.values() if player not in seen]
    if missing:
        problems.append(ngettext(
            "Every checked-in player needs a seat: %(names)s is missing (or drop them "
            "first).",
            "Every checked-in player needs a seat: %(names)s are missing (or drop them "
            "first).", len(missing), names=", ".join(missing)))
    if problems:
        # Several mistakes are shown as a list (``problems``); one is the message.
        raise TournamentError(problems[0] if len(problems) == 1 else " ".join(problems),
                              problems=problems)
    return tables


# --- results ---------------------------------------------------------------------------

def parse_result(form: Mapping[str, str], players: int) -> dict[str, Any]:
    """An outcome typed in by the organiser (a table played without the app, or a
    correction), in ``london1888.outcome_summary`` form. Fields: ``result`` (a key of
    ``london1888.RESULTS``), ``jack`` (seat, 0-based as in the London module),
    ``discovered`` (checkbox), ``murder_round`` (for the 5th murder) and
    ``accomplice_<seat>`` checkboxes. The rules' own checks are
    ``tournament_points``'s: an outcome they refuse raises TournamentError."""
    try:
        result = parse_choice(form.get("result"), list(london1888.RESULTS), _("result"))
        winner, how, _label = london1888.RESULTS[result]
        jack = parse_choice(form.get("jack"), list(range(players)),
                            _("player who was Jack the Ripper"))
        accomplices = sorted(seat for seat in range(players)
                             if seat != jack and parse_bool(form.get(f"accomplice_{seat}")))
        murder_round = None
        if how == london1888.FIFTH_MURDER:
            murder_round = parse_int(form.get("murder_round"),
                                     london1888.FIFTH_MURDER_EARLIEST,
                                     london1888.FIFTH_MURDER_LATEST,
                                     _("round of the 5th murder"))
        outcome = {"winner": winner, "how": how, "murder_round": murder_round,
                   "discovered": winner == london1888.INNOCENTS
                   or parse_bool(form.get("discovered")),
                   "jack": jack, "accomplices": accomplices, "players": players}
        london1888.tournament_points(outcome, players)
    except RuleError as error:
        raise TournamentError(error.message) from None
    return outcome


def result_key(outcome: Mapping[str, Any]) -> str:
    """The ``london1888.RESULTS`` key of an outcome (what the result form's radio sends)."""
    return "innocents" if outcome["winner"] == london1888.INNOCENTS else f"jack_{outcome['how']}"


def same_result(one: Mapping[str, Any], other: Mapping[str, Any]) -> bool:
    """Whether two outcomes score the same game the same way (the innocents' "how" and
    the order of accomplices do not matter)."""
    def facts(outcome: Mapping[str, Any]) -> tuple[Any, ...]:
        return (result_key(outcome), outcome.get("murder_round") or None,
                bool(outcome.get("discovered")), outcome["jack"],
                tuple(sorted(outcome.get("accomplices") or ())))
    return facts(one) == facts(other)


def outcome_text(outcome: Mapping[str, Any], names: Sequence[str]) -> Text:
    """An outcome in words, naming the players: one whole sentence for each shape of
    outcome, so that a language may order it its own way."""
    found = {"result": london1888.RESULTS[result_key(outcome)][2],
             "jack": names[outcome["jack"]], "round": outcome.get("murder_round") or 0,
             "accomplices": ", ".join(names[seat] for seat in outcome.get("accomplices") or ())}
    sentences = {
        # (a 5th murder's round, discovered, accomplices): the sentence
        (True, True, True): _("%(result)s in round %(round)s. Jack: %(jack)s (discovered); "
                              "accomplices: %(accomplices)s.", **found),
        (True, True, False): _("%(result)s in round %(round)s. Jack: %(jack)s (discovered).",
                               **found),
        (True, False, True): _("%(result)s in round %(round)s. Jack: %(jack)s (never "
                               "discovered); accomplices: %(accomplices)s.", **found),
        (True, False, False): _("%(result)s in round %(round)s. Jack: %(jack)s (never "
                                "discovered).", **found),
        (False, True, True): _("%(result)s. Jack: %(jack)s (discovered); accomplices: "
                               "%(accomplices)s.", **found),
        (False, True, False): _("%(result)s. Jack: %(jack)s (discovered).", **found),
        (False, False, True): _("%(result)s. Jack: %(jack)s (never discovered); "
                                "accomplices: %(accomplices)s.", **found),
        (False, False, False): _("%(result)s. Jack: %(jack)s (never discovered).", **found),
    }
    return sentences[bool(outcome.get("murder_round")), bool(outcome.get("discovered")),
                     bool(outcome.get("accomplices"))]


def game_points(outcome: Mapping[str, Any], seats: Sequence[Any],
                undiscovered_late_murder: int = london1888.DEFAULT_UNDISCOVERED_LATE_MURDER,
                ) -> dict[Any, int]:
    """Each seated player's points for one game (the rulebook table via
    ``london1888.tournament_points``, with the tournament's value for a late 5th murder by
    an undiscovered Jack)."""
    points = london1888.tournament_points(outcome, len(seats), undiscovered_late_murder)
    return dict(zip(seats, points, strict=True))


def _records(players: Sequence[Mapping[str, Any]], games: Sequence[Mapping[str, Any]],
             late: int) -> dict[Any, dict[str, Any]]:
    records = {player["id"]: {"points": 0, "rounds": {}, "games": 0, "wins": 0,
                              "jack_games": 0, "jack_wins": 0, "jack_points": 0}
               for player in players}
    for game in games:
        outcome = game.get("outcome")
        if outcome is None:
            continue
        points = game_points(outcome, game["seats"], late)
        jack = game["seats"][outcome["jack"]]
        for player, scored in points.items():
            record = records[player]
            record["points"] += scored
            record["rounds"][game["round"]] = record["rounds"].get(game["round"], 0) + scored
            record["games"] += 1
            record["wins"] += scored > 0
            if player == jack:
                record["jack_games"] += 1
                record["jack_wins"] += scored > 0
                record["jack_points"] += scored
    return records


def _head_to_head(group: Sequence[Any], games: Sequence[Mapping[str, Any]],
                  late: int) -> dict[Any, int]:
    """Within a tied group: for every game two of them played at the same table, the one
    who scored more beat the other; each player's value is the number of such beats."""
    members = set(group)
    beats = dict.fromkeys(group, 0)
    for game in games:
        if game.get("outcome") is None:
            continue
        points = game_points(game["outcome"], game["seats"], late)
        here = [player for player in game["seats"] if player in members]
        for a, b in combinations(here, 2):
            if points[a] > points[b]:
                beats[a] += 1
            elif points[b] > points[a]:
                beats[b] += 1
    return beats


def parse_tiebreaks(values: Sequence[str]) -> list[str]:
    """The tiebreak order from the form: each known tiebreak once (unlisted ones keep their
    default place after the listed ones)."""
    order: list[str] = []
    for value in values:
        value = str(value).strip()
        if not value:
            continue
        if value not in TIEBREAKS:
            raise TournamentError(_("“%(value)s” is not a tiebreak.", value=value[:30]))
        if value in order:
            raise TournamentError(_("“%(tiebreak)s” is chosen twice in the tiebreak order.",
                                    tiebreak=TIEBREAKS[value]))
        order.append(value)
    return order + [key for key in DEFAULT_TIEBREAKS if key not in order]


def parse_settings(form: Mapping[str, Any], tiebreaks: Sequence[str]) -> dict[str, Any]:
    """A tournament's name, rounds, preferred table size, the undiscovered late murder
    value and tiebreaks, from the organiser's form or an exported file."""
    name = clean_name(form.get("name", ""), TOURNAMENT_NAME, TournamentError)
    try:
        # The field's name, whole: the refusal's sentence is games.base's.
        rounds = parse_int(form.get("rounds"), 1, MAX_ROUNDS, _("number of rounds"))
        size = parse_int(form.get("table_size"), MIN_TABLE, MAX_TABLE, TABLE_SIZE)
        late = parse_int(form.get("late_murder"), 0, 20,
                         _("points for an undiscovered Jack's 5th murder after round 11"))
    except RuleError as error:
        raise TournamentError(error.message) from None
    return {"name": name, "rounds": rounds, "table_size": size, "late_murder": late,
            "tiebreaks": parse_tiebreaks(tiebreaks)}


def standings(players: Sequence[Mapping[str, Any]], games: Sequence[Mapping[str, Any]],
              tiebreaks: Sequence[str] = DEFAULT_TIEBREAKS,
              undiscovered_late_murder: int = london1888.DEFAULT_UNDISCOVERED_LATE_MURDER,
              ) -> list[dict[str, Any]]:
    """The leaderboard. ``players``: dicts with ``id``, ``name`` and ``lot`` (a number drawn
    at registration); ``games``: dicts with ``round``, ``seats`` (player ids in seat order)
    and ``outcome`` (``outcome_summary`` form, or None while the game goes on).

    Order: most points, then each tiebreak of ``tiebreaks`` in turn among the players still
    tied (head-to-head counts only games between the players still tied), then drawn lots
    (the lower lot first). Each row says what decided its place among the players it
    was tied with, the same word for all of them (``decided_by``: the tiebreak key, or
    "lots" for every player still tied after the last tiebreak; "points" for a player
    tied with nobody; None only for a tournament of one), and
    ``head_to_head`` its beats over the players still tied with it when that tiebreak
    came (0 for a player nobody was tied with by then: a group of one beats nobody), so
    the column is a number on every row."""
    late = undiscovered_late_murder
    records = _records(players, games, late)
    by_id = {player["id"]: player for player in players}
    criteria = ["points", *tiebreaks]

    def value(criterion: str, group: Sequence[Any]) -> dict[Any, int]:
        if criterion == "head_to_head":
            return _head_to_head(group, games, late)
        return {player: records[player][criterion] for player in group}

    ranked: list[tuple[Any, str | None]] = []
    head_to_head: dict[Any, int] = {}

    def place(group: list[Any], level: int, decided: str | None) -> None:
        # ``decided``: the last criterion that split this group off from the players it
        # was tied with; every member carries it, so tied players read the same word.
        if len(group) == 1:
            ranked.append((group[0], decided))
            return
        if level == len(criteria):
            ranked.extend((player, LOTS) for player in sorted(
                group, key=lambda p: by_id[p]["lot"]))
            return
        values = value(criteria[level], group)
        if criteria[level] == "head_to_head":
            head_to_head.update(values)
        scores = sorted(set(values.values()), reverse=True)
        split = criteria[level] if len(scores) > 1 else decided
        for score in scores:
            place([player for player in group if values[player] == score], level + 1, split)

    place([player["id"] for player in players], 0, None)
    rows = []
    for position, (player, decided) in enumerate(ranked, start=1):
        record = records[player]
        rows.append({
            "position": position, "id": player, "name": by_id[player]["name"],
            "club": by_id[player].get("club") or "", "status": by_id[player].get("status"),
            "points": record["points"], "rounds": dict(record["rounds"]),
            "games": record["games"], "wins": record["wins"],
            "jack_games": record["jack_games"], "jack_wins": record["jack_wins"],
            "jack_points": record["jack_points"],
            "head_to_head": head_to_head.get(player, 0),
            "decided_by": decided, "decided_label": DECIDED_BY.get(decided or "", ""),
        })
    return rows
