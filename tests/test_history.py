"""The club's history in storage (companion/history.py): the end of a game writes its
row in the same transaction, an import writes it, the first start fills in the games
that ended before the history, names count once however typed, merges come and go."""

from __future__ import annotations

import pytest

from companion import create_app, history, importing, tables
from companion.db import connect, get_db, write_transaction
from companion.games import discover, london1888, mrjack, wo_ist_jack
from companion.games.base import RuleError
from companion.games.london1888.state import _jack_seat
from companion.games.whitechapel import rules as whitechapel
from tests.support.history_games import mrjack_game
from tests.support.webflow import table_of


def rows(app):
    with app.app_context():
        return history.games(get_db(), per_page=None)


def test_the_action_that_ends_a_game_writes_its_row(app):
    laptop, _phones, state = mrjack_game(app, "Ann", "Bob")
    [row] = rows(app)
    table = table_of(app, laptop.code)
    assert (row["game"], row["side"], row["winner"], row["ending"]) == (
        "mrjack", "detectives", "the detective", "accused")
    assert row["table_id"] == table["id"] and row["game_no"] == 1
    assert [(p["name"], p["jack"], p["won"]) for p in row["players"]] == [
        ("Ann", 1, 0), ("Bob", 0, 1)]
    assert row["jack"] == ["Ann"] and "is Jack! The detective wins." in row["how"]
    with app.app_context():
        logged = get_db().execute("SELECT max(id) FROM log WHERE table_id = ? AND kind = 'act'",
                                  [table["id"]]).fetchone()[0]
        assert get_db().execute("SELECT log_id FROM results").fetchone()[0] == logged


def test_a_running_game_has_no_row_and_a_second_deal_gets_its_own(app):
    laptop, _phones, _state = mrjack_game(app, finish=False)
    assert rows(app) == []
    assert laptop.host("undo").status_code == 303
    assert rows(app) == []
    laptop, _phones, _state = mrjack_game(app, "Cy", "Dee", detective_wins=False)
    assert laptop.host("start").status_code == 303  # a new deal at the same table
    [row] = rows(app)
    assert row["side"] == "jack" and row["ending"] == "wrong_accusation"


def test_an_ended_game_cannot_be_undone_so_its_row_stays(app):
    # tables.undo refuses once a game is over (everything was revealed): the row that
    # end wrote is never taken back.
    laptop, _phones, _state = mrjack_game(app)
    refused = laptop.host("undo")
    assert refused.status_code == 409 and "cannot be undone" in refused.text
    assert len(rows(app)) == 1


def test_an_imported_finished_table_writes_its_row(app):
    laptop, _phones, _state = mrjack_game(app, "Ann", "Bob")
    exported = laptop.get(f"/t/{laptop.code}/export")
    with app.app_context():
        export = importing.check(importing.read(exported.data), app.config["GAMES"])
        imported, _token = importing.import_table(get_db(), export, by_laptop=True)
    games = rows(app)
    assert len(games) == 2
    assert {row["table_id"] for row in games} == {table_of(app, laptop.code)["id"],
                                                  imported["id"]}
    assert games[0]["ended_at"] == games[1]["ended_at"]  # when it ended, not imported


def test_games_that_ended_before_the_history_are_filled_in_once(app, tmp_path):
    mrjack_game(app, "Ann", "Bob")
    mrjack_game(app, "Cy", "Dee", detective_wins=False)
    path = app.config["DATABASE"]
    db = connect(path)
    with write_transaction(db):  # as a database from before migration m008 would be
        db.execute("DELETE FROM results")
        db.execute("DELETE FROM settings WHERE key = 'history_filled'")
    db.close()
    again = create_app({"TESTING": True, "DATABASE": path, "GAMES": discover(),
                        "BOARD_DIR": str(tmp_path / "boards")})
    assert sorted(row["winner"] for row in rows(again)) == ["Jack", "the detective"]
    db = connect(path)
    with write_transaction(db):
        db.execute("DELETE FROM results")
    db.close()
    create_app({"TESTING": True, "DATABASE": path, "GAMES": discover(),
                "BOARD_DIR": str(tmp_path / "boards")})
    assert rows(again) == []  # once: a later start does not scan the log again


def test_the_backfill_skips_what_is_kept_and_what_goes_on(app):
    mrjack_game(app)
    mrjack_game(app, finish=False)
    with app.app_context():
        db = get_db()
        with write_transaction(db):
            assert history.backfill(db, app.config["GAMES"], tables.game_end) == 0


def test_names_count_once_however_typed(app):
    mrjack_game(app, "Anna", "Bob")
    mrjack_game(app, "anna  ", "BOB", detective_wins=False)
    with app.app_context():
        found = {p["key"]: p for p in history.players(get_db())}
    assert set(found) == {"anna", "bob"}
    assert found["anna"]["games"] == 2 and found["anna"]["wins"] == 1
    assert found["anna"]["name"] == "anna"  # as last typed, its spaces tidied
    assert history.normalise("  Anna   Lee ") == history.normalise("anna lee")


def test_merge_and_unmerge(app):
    mrjack_game(app, "Anna", "Bob")
    mrjack_game(app, "Annie", "Bob", detective_wins=False)
    mrjack_game(app, "Nan", "Bob")
    with app.app_context():
        db = get_db()
        with write_transaction(db):
            history.merge(db, "Annie", "Anna")
            history.merge(db, "Nan", "annie")  # into a merged name: where it went
        assert history.keys_of(db, "Anna") == ["anna", "annie", "nan"]
        anna = history.player_record(db, history.keys_of(db, "anna"))
        assert (anna["games"], anna["wins"], anna["jack_games"], anna["jack_wins"]) == (
            3, 1, 3, 1)
        assert {p["key"] for p in history.players(db)} == {"anna", "bob"}
        assert history.count(db, keys=history.keys_of(db, "Nan")) == 3
        with pytest.raises(history.HistoryError, match="already count as one"):
            history.merge(db, "Anna", "Nan")
        with pytest.raises(history.HistoryError, match="already count as one"):
            history.merge(db, "Anna", "anna ")
        with pytest.raises(history.HistoryError, match="Nobody called") as missing:
            history.merge(db, "Zed", "Anna")
        assert missing.value.status == 404
        with write_transaction(db):
            history.unmerge(db, "Annie")
        assert history.keys_of(db, "Anna") == ["anna"]
        assert history.keys_of(db, "Nan") == ["annie", "nan"]
        with pytest.raises(history.HistoryError, match="was not merged"):
            history.unmerge(db, "Anna")
        assert [m["name"] for m in history.merges(db)] == ["Nan"]


def test_player_record_counts_sides(app):
    mrjack_game(app, "Ann", "Bob")                       # Bob wins as the detective
    mrjack_game(app, "Bob", "Ann", detective_wins=False)  # Bob wins as Jack
    mrjack_game(app, "Ann", "Bob", detective_wins=False)  # Bob loses as the detective
    with app.app_context():
        bob = history.player_record(get_db(), ["bob"])
        per_game = history.by_game(get_db())
    assert (bob["games"], bob["wins"], bob["jack_games"], bob["jack_wins"],
            bob["detective_games"], bob["detective_wins"]) == (3, 2, 1, 1, 2, 1)
    [mr] = per_game
    assert (mr["games"], mr["jack_wins"], mr["with_jack"]) == (3, 2, 3)
    assert {e["ending"]: e["games"] for e in mr["endings"]} == {
        "accused": 1, "wrong_accusation": 2}


# --- each game's result hook -----------------------------------------------------------

def test_a_result_is_refused_before_the_end():
    import random

    rng = random.Random(1)
    for game, names in ((mrjack, ["A", "B"]), (wo_ist_jack, ["A", "B", "C"]),
                        (london1888, ["A", "B", "C", "D"]), (whitechapel, ["A", "B", "C"])):
        state = game.setup(game.default_options(), names, rng)
        with pytest.raises(RuleError, match="not over"):
            game.result(state)


def test_whitechapel_result_says_how_and_where():
    from tests.games.whitechapel.test_rules import new_game, play_night

    state = new_game(players=3)
    for _night in range(4):
        state = play_night(state)
    result = whitechapel.result(state)
    assert result["winner"] == "Jack" and result["winners"] == [0]
    assert result["how"] == "Jack reached his hideout on night 4"
    assert result["crimes"] == [65, 84, 27, 3, 21] and result["hideout"] == state["hideout"]


def test_london_and_wo_ist_results():
    from tests.games import test_london1888 as london_tests
    from tests.games import test_wo_ist_jack as wo_tests

    dealt = london_tests.new_game(5)
    accomplice = [] if _jack_seat(dealt) == 1 else [1]
    played = london_tests.finish_round(london_tests.play_to_fifth_murder(dealt))
    london = london_tests.record(played, "jack_fifth_murder", *accomplice)
    result = london1888.result(london)
    jack = london1888.outcome_summary(london)["jack"]
    assert result["side"] == "jack" and result["jack"] == [jack]
    assert set(result["winners"]) == {jack, 1}
    assert result["points"] == london1888.outcome_summary(london)["points"]
    assert result["how"].startswith("Jack wins: the 5th murder was discovered (round ")
    wo = wo_tests.play(wo_tests.new_game(2), [(0, 1), (1, 2)] * 3 + [(0, 1), (0, 1)])
    scored = wo_ist_jack.result(wo)
    assert scored["side"] == "players" and scored["jack"] == []
    assert scored["points"] == [row["total"] for row in sorted(
        wo_ist_jack.score(wo)["standings"], key=lambda r: r["seat"])]
    assert scored["how"] == wo_ist_jack.score(wo)["headline"]


def test_every_ending_has_its_words():
    from companion.games.whitechapel import summary

    assert set(summary.ENDING_WORDS) == set(summary.HOW)
    assert set(london1888.ENDING_WORDS) == set(london1888.ENDINGS.values())
    assert set(mrjack.ENDING_WORDS) == {"accused", "wrong_accusation", "escaped", "dawn"}
    assert set(wo_ist_jack.ENDING_WORDS) == {"printed"}
    assert all(hasattr(game, "ENDING_WORDS") for game in discover().values()
               if hasattr(game, "result"))
