"""The tournaments and the club's history in every language (issue 25): every page of
the area drawn in the pseudo language has no word left outside a catalogue; a German and
a French device read their own words (numbers, dates and ordinals their way); a finished
game's sentences are kept as Text data beside their English (m009) and drawn in the
reader's language; the plots' SVG is drawn per reader and never cached across readers."""

from __future__ import annotations

import json
import re
from html import escape
from html.parser import HTMLParser

from companion import history
from companion.db import get_db, write_transaction
from companion.games import london1888
from companion.games.base import Game
from companion.games.whitechapel.board import SHIPPED_BOARDS, load_board
from companion.tournaments import storage
from companion.words import _, ngettext
from tests.support import club
from tests.support.history_games import mrjack_game
from tests.support.pseudo import READ_ATTRIBUTES, pseudo_language, unmarked
from tests.support.webflow import Device
from tests.web.test_tournament import NAMES, SETTINGS, new_tournament, read, register

PLAYERS = NAMES[:8]


def _plain(values) -> set[str]:
    """Words another area owns that are still plain English here (a game's title, its
    characters, its result labels): allowed until that area makes them Texts, and once
    it has, they are marked and so nothing is allowed by this."""
    return {str(value) for value in values if not hasattr(value, "msgid")}


def foreign(app) -> set[str]:
    """What the pages of this area show that other areas write: game titles, London
    1888's characters and result labels, the games' endings and result sentences kept in
    the history, the languages' own names and the shared import form's button."""
    games = app.config["GAMES"].values()
    found = _plain(game.TITLE for game in games)
    found |= _plain(london1888.CORE_CHARACTERS + london1888.EXTRA_CHARACTERS)
    found |= _plain(label for _w, _h, label in london1888.RESULTS.values())
    for game in games:
        found |= _plain(getattr(game, "ENDING_WORDS", {}).values())
    with app.app_context():
        for row in get_db().query("SELECT winner, how FROM results"):
            found |= {row["winner"], row["how"]}
    # Shared parts of every page (layout.html's language switch and its footer, the
    # import form): another area's to mark, allowed by name only.
    found |= {"English", "Deutsch", "Français", "Import", "Companion"}
    return found


_INLINE = re.compile(r"</?(?:a|abbr|b|code|em|i|kbd|mark|small|span|strong)\b[^>]*>")
"""Inline tags: a sentence's markup placeholder (a name in bold) splits its text, so the
text is read with them taken out, whole (the platform's checker reads it so too)."""


class _Attributes(HTMLParser):
    """The attributes people read (tests.support.pseudo.READ_ATTRIBUTES), as they are."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.values: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        self.values += [found[name] or "" for name in READ_ATTRIBUTES if found.get(name)]


def unmarked_whole(html: str, allowed: set[str]) -> list[str]:
    """``unmarked``, reading a sentence with markup placeholders whole."""
    attributes = _Attributes()
    attributes.feed(html)
    return unmarked(_INLINE.sub("", html), allowed) + [
        word for value in attributes.values
        for word in unmarked(f"<p>{escape(value)}</p>", allowed)]


def check(pages: dict[str, str], allowed: set[str]) -> None:
    left = {name: unmarked_whole(html, allowed) for name, html in pages.items()}
    assert {name: words for name, words in left.items() if words} == {}


# --- a tournament in every phase ------------------------------------------------------

def played_tournament(app):
    """Eight players over two rounds: results typed in (one corrected with a reason, one
    a late 5th murder with an accomplice), a second round where players meet again, a
    dropped player and a typed seating refused with several mistakes."""
    organiser = new_tournament(app)
    ids = register(app, organiser, PLAYERS)
    assert organiser.send("/rounds", table_size="4").status_code == 303
    assert organiser.send("/rounds/1/tables/1/result", result="innocents", jack="0",
                          accomplice_1="on").status_code == 303
    assert organiser.send("/rounds/1/tables/2/result", result="jack_fifth_murder", jack="2",
                          discovered="on", murder_round="14",
                          accomplice_0="on").status_code == 303
    assert organiser.send("/rounds/1/tables/1/correct", result="jack_killed_everyone",
                          jack="1", reason="Misread the sheet").status_code == 303
    assert organiser.send(f"/players/{ids[PLAYERS[-1]]}/status",
                          status="dropped").status_code == 303
    assert organiser.send(f"/players/{ids[PLAYERS[-1]]}/status",
                          status="present").status_code == 303
    assert organiser.send("/rounds", table_size="4").status_code == 303
    return organiser, ids


def tournament_pages(app, organiser, ids) -> dict[str, str]:
    tid = organiser.tid
    viewer = Device(app)
    pages = {
        "index": organiser.get("/tournaments").text,
        "manage": organiser.page().text,
        "round 1": organiser.get(f"/tournaments/{tid}/rounds/1").text,
        "round 2": organiser.get(f"/tournaments/{tid}/rounds/2").text,
        "round 2, a viewer": viewer.get(f"/tournaments/{tid}/rounds/2").text,
        "table card": organiser.get(f"/tournaments/{tid}/rounds/1/tables/1",
                                    headers={"HX-Request": "true"}).text,
        "sheets": organiser.get(f"/tournaments/{tid}/rounds/2/sheets").text,
        "board": viewer.get(f"/tournaments/{tid}/board").text,
        "board, the organiser": organiser.get(f"/tournaments/{tid}/board").text,
    }
    for name in PLAYERS[:3]:
        pages[f"player {name}"] = viewer.get(f"/tournaments/{tid}/players/{ids[name]}").text
    # Refusals, each drawn in its page.
    pages["a typed seating's mistakes"] = organiser.send(
        "/rounds", table_size="5", seating="Ann, Bob, Zed\nAnn, Cy").text
    pages["a bad setting"] = organiser.post("/tournaments", {**SETTINGS, "name": ""}).text
    pages["a missing file"] = organiser.post("/tournaments/import", {}).text
    pages["a stale version"] = organiser.send("/players", version=1, name="Late").text
    pages["a result twice"] = organiser.send("/rounds/1/tables/1/result", result="innocents",
                                             jack="0").text
    return pages


def test_every_tournament_page_is_marked(app):
    empty = new_tournament(app)
    with pseudo_language():
        waiting = {"board before round 1":
                   Device(app).get(f"/tournaments/{empty.tid}/board").text,
                   "manage before players": empty.page().text}
    organiser, ids = played_tournament(app)
    allowed = foreign(app) | set(PLAYERS) | {SETTINGS["name"], "Misread the sheet", "Zed"}
    allowed |= {f"Club {name[0]}" for name in PLAYERS}
    codes = {table["code"] for number in (1, 2)
             for table in read(app, storage.round_tables, organiser.tid, number)}
    allowed |= {code for code in codes if code}
    allowed |= {f"http://localhost/j/{code}" for code in codes if code}  # the join address
    with pseudo_language():
        pages = tournament_pages(app, organiser, ids)
        pages.update({name: html for name, html in waiting.items()})
        final = tournament_pages_final(app, organiser)
    check({**pages, **final}, allowed)


def tournament_pages_final(app, organiser) -> dict[str, str]:
    """The board once every round is played (final standings)."""
    for table in (1, 2):
        organiser.send(f"/rounds/2/tables/{table}/result", result="innocents", jack="0")
    organiser.send("/rounds", table_size="4")  # a third round of three
    for table in (1, 2):
        organiser.send(f"/rounds/3/tables/{table}/result", result="innocents", jack="1")
    return {"final board": Device(app).get(f"/tournaments/{organiser.tid}/board").text,
            "final manage": organiser.page().text}


# --- the history in every page ----------------------------------------------------------



def test_every_history_page_is_marked(played):
    app = played
    laptop = Device(app)
    with app.app_context(), write_transaction(get_db()):
        history.merge(get_db(), "Dee", "Cy")
    allowed = foreign(app) | {"Ann", "ann", "Bob", "Cy", "Dee"}
    with pseudo_language():
        pages = {
            "list": laptop.get("/history").text,
            "by game": laptop.get("/history?game=mrjack").text,
            "by player": laptop.get("/history?player=Bob").text,
            "by both": laptop.get("/history?game=mrjack&player=Bob").text,
            "a page too far": laptop.get("/history?page=9").text,
            "nobody": laptop.get("/history?player=Zed").text,
            "a game": laptop.get("/history/games/mrjack").text,
            "a game never played": laptop.get("/history/games/whitechapel").text,
            "a player": laptop.get("/history/players/Cy").text,
            "another player": laptop.get("/history/players/Bob").text,
            "a merge refused": laptop.post("/history/merge",
                                           {"name": "Cy", "into": "Dee"}).text,
            "wins plot": laptop.get("/history/plots/wins.svg").text,
            "jack plot": laptop.get("/history/plots/jack.svg").text,
        }
    check(pages, allowed)


def test_every_game_of_a_clubs_years_is_marked(app):
    """Every kind of game in the history, the heat map on a board, and the plots counted
    per year over years of club nights."""
    board = load_board(SHIPPED_BOARDS[0])
    with app.app_context():
        club.fill(get_db(), app.config["GAMES"], 40, board=board)
    allowed = foreign(app) | set(club.CLUB) | {name.strip() for name in
                                               club.TYPED_AGAIN.values()} | {board.name}
    reader = Device(app)
    with pseudo_language():
        pages = {name: reader.get(f"/history/games/{name}").text for name in club.KINDS}
        pages["list"] = reader.get("/history").text
        pages["a player"] = reader.get("/history/players/Anna").text
        pages["wins per year"] = reader.get("/history/plots/wins.svg").text
    assert f'data-heat="{board.name}"' in pages["whitechapel"]
    check(pages, allowed)


def test_a_tournament_player_has_points_on_the_history_page(app):
    organiser, _ids = played_tournament(app)
    with pseudo_language():
        empty = Device(app).get("/history").text
    assert unmarked_whole(empty, foreign(app)) == []
    assert organiser.page().status_code == 200


# --- German and French pages --------------------------------------------------------------

GERMAN = {"Accept-Language": "de"}
FRENCH = {"Accept-Language": "fr-FR,fr;q=0.9"}
ENGLISH_SENTENCES = ("Waiting for round", "Scan to follow on your phone", "Tiebreak",
                     "Points: the London 1888 tournament table", "No players yet",
                     "Results history", "Register the players", "Start round",
                     "Leaderboard", "Meeting again this round", "Table screen")


def test_a_german_organiser_reads_german(app):
    organiser, _ids = played_tournament(app)
    tid = organiser.tid
    manage = organiser.get(f"/tournaments/{tid}", headers=GERMAN).text
    assert "Verlauf der Ergebnisse" in manage and "Runde 3 starten" in manage
    assert "Grund: Misread the sheet" in manage
    assert "Tisch 1 in Runde" not in manage  # no refusal on a page that refused nothing
    board = Device(app).get(f"/tournaments/{tid}/board", headers=GERMAN).text
    assert "Scannen, um auf dem Handy mitzulesen" in board and "Gleichstand" in board
    assert "Bei Gleichstand: Meiste Siege als Jack; Meiste Punkte als Jack" in board
    round_2 = organiser.get(f"/tournaments/{tid}/rounds/2", headers=GERMAN).text
    for page in (manage, board, round_2):
        assert not [s for s in ENGLISH_SENTENCES if s in page]
    # Eight players at two tables twice: some always meet again.
    assert "Begegnen sich in dieser Runde wieder" in round_2 and "2. Begegnung" in round_2
    refused = organiser.post(f"/tournaments/{tid}/rounds/1/tables/1/result",
                             {"version": re.search(r'data-version="(\d+)"', manage)[1],
                              "result": "innocents", "jack": "0"}, headers=GERMAN)
    assert "Tisch 1 in Runde 1 hat schon ein Ergebnis (von der Turnierleitung)" in refused.text


def test_a_french_player_reads_french(app):
    organiser, ids = played_tournament(app)
    tid = organiser.tid
    phone = Device(app)
    page = phone.get(f"/tournaments/{tid}/players/{ids[PLAYERS[0]]}", headers=FRENCH).text
    assert "Classement" in page and "Manche 1 · table" in page
    board = phone.get(f"/tournaments/{tid}/board", headers=FRENCH).text
    assert "Scannez pour suivre sur votre téléphone" in board
    assert "Départage" in board and "Tiebreak" not in board
    round_2 = organiser.get(f"/tournaments/{tid}/rounds/2", headers=FRENCH).text
    assert not [s for s in ENGLISH_SENTENCES if s in round_2]
    assert "Se retrouvent à cette manche" in round_2 and "2e rencontre" in round_2
    words = re.search(r'data-page-words="([^"]*)"', board)[1]
    assert words == "Page {page} sur {pages} · places {first} à {last} sur {count}"


def test_two_languages_at_one_tournament(app):
    """The same board, a German and a French phone, each its own words."""
    organiser, _ids = played_tournament(app)
    url = f"/tournaments/{organiser.tid}/board"
    german = Device(app).get(url, headers=GERMAN).text
    french = Device(app).get(url, headers=FRENCH).text
    english = Device(app).get(url).text
    assert "Punkte" in german and "Punkte" not in french
    assert "Points" in french and "Scan to follow on your phone" in english


def test_the_history_in_german_and_french(played):
    app = played
    german = Device(app).get("/history", headers=GERMAN).text
    assert "3 beendete Partien." in german and "Die Geschichte des Vereins" in german
    assert re.search(r"\d\d\.\d\d\.\d{4}", german)  # a German date
    assert "The club's history" not in german and "finished games" not in german
    french = Device(app).get("/history?game=mrjack", headers=FRENCH).text
    assert "3 parties terminées de Mr. Jack." in french
    assert "L’historique du club" in french
    one = Device(app).get("/history?player=Dee", headers=FRENCH).text
    assert "1 partie terminée avec Dee." in one  # French: 0 and 1 are singular
    game = Device(app).get("/history/games/mrjack", headers=GERMAN).text
    assert "Wie die Partien endeten" in game and "How the games ended" not in game


def test_the_plots_are_drawn_per_reader_and_never_cached(played):
    app = played
    german = Device(app).get("/history/plots/jack.svg", headers=GERMAN)
    assert "Siegquote von Jack" in german.text
    assert re.search(r">\d+ %<", german.text)  # German writes "50 %"
    assert german.headers["Cache-Control"] == "no-store"
    assert german.headers["Content-Language"] == "de"
    assert "Accept-Language" in german.headers["Vary"] and "Cookie" in german.headers["Vary"]
    french = Device(app).get("/history/plots/wins.svg", headers=FRENCH).text
    assert "Victoires par mois" in french and "Enquêteurs" in french
    english = Device(app).get("/history/plots/wins.svg").text
    assert "Wins per month" in english and "Detectives" in english


def test_points_and_numbers_are_written_the_readers_way(app):
    """Babel's numbers: the pure plots give Texts; the page writes them by language."""
    from companion import plots

    plot = plots.bars("Jack's win rate", [("London 1888", 33.3)], unit="%", top=100)
    assert plot["bars"][0]["value"] == "33.3%"  # English, as before
    with app.test_request_context(headers=GERMAN):
        from companion.web import i18n
        assert i18n.in_language(plot["bars"][0]["value"]) == "33,3\u00a0%" or \
            i18n.in_language(plot["bars"][0]["value"]) == "33,3 %"


# --- the kept words of a finished game (m009) --------------------------------------------

class _Worded:
    """A game whose result sentences are Texts, as the games' own areas make them."""

    NAME = "mrjack"

    @staticmethod
    def result(_state):
        return {"side": "jack", "winner": _("Jack"), "winners": [0], "jack": [0],
                "ending": "escaped",
                "how": ngettext("Jack escaped after %(n)s turn", "Jack escaped after %(n)s "
                                "turns", 3),
                "points": None}


def _record(app, game: Game, log_id: int) -> dict:
    laptop, _phones, _state = mrjack_game(app, "Ann", "Bob", finish=False)
    with app.app_context():
        db = get_db()
        table_id = db.execute("SELECT id FROM tables WHERE code = ?",
                              [laptop.code]).fetchone()[0]
        db.execute("INSERT INTO log (id, table_id, version, game_no, actor, kind) "
                   "VALUES (?, ?, 1, 9, 'table', 'end')", [log_id, table_id])
        assert history.record(db, game, table_id, 9, log_id, {}, ["Ann", "Bob"])
        db.conn.commit()
        return dict(next(iter(db.query("SELECT * FROM results WHERE log_id = ?",
                                       [log_id]))))


def test_a_results_row_keeps_its_words_beside_the_english(app):
    row = _record(app, _Worded, 900001)
    assert row["how"] == "Jack escaped after 3 turns" and row["winner"] == "Jack"
    kept = json.loads(row["words"])
    assert kept["how"] == {"msgid": "Jack escaped after %(n)s turn",
                           "plural": "Jack escaped after %(n)s turns", "n": 3,
                           "params": {"n": 3}}
    with pseudo_language():
        page = Device(app).get("/history").text
    assert "⟦Jack escaped after 3 turns⟧" in page
    # The exports stay English (machine-readable).
    export = Device(app).get("/history.json").get_json()["games"][0]
    assert export["how"] == "Jack escaped after 3 turns"


def test_rows_without_or_with_broken_words_show_their_english(app):
    row = _record(app, _Worded, 900002)
    with app.app_context():
        db = get_db()
        db.execute("UPDATE results SET words = NULL WHERE id = ?", [row["id"]])
        db.conn.commit()
        assert history.games(db)[0]["shown"]["how"] == "Jack escaped after 3 turns"
        for junk in ("not json", "[1, 2]", '{"how": {"msgid": 7}}', '{"how": 5}'):
            db.execute("UPDATE results SET words = ? WHERE id = ?", [junk, row["id"]])
            db.conn.commit()
            shown = history.games(db)[0]["shown"]
            assert isinstance(shown["how"], str) and isinstance(shown["winner"], str)
    assert Device(app).get("/history").status_code == 200
