"""The platform's pages in German and French: every word through a catalogue (the pseudo
language shows what is not), the language switch per device, and the terminal's language.

The platform's pages are drawn around the test game "tally" (tests/support/tally.py),
whose own words are a test's, never translated: they are allowed below, with the
players' names and the table's code.
"""

from __future__ import annotations

import json
import re

import pytest

from companion import terminal, words
from companion.db import get_db
from companion.games import discover
from companion.games.base import RuleError, check_shape, parse_int, parse_names
from companion.importing import BadExport, check, read
from companion.tables import TableError, set_seat_names
from companion.words import _
from tests.support.pseudo import pseudo_language, unmarked
from tests.support.webflow import Device, create_table, join, seated_table, table_of

NAMES = ["Ann", "Bob", "Cyd"]
TALLY = ["Tally (test game)", "Dealer", "Player", "Total", "of", "Turn:", "Skip this turn",
         "Hold to see your number", "Add", "Waiting for", "Secrets:", "added",
         "was skipped", "Fast (add up to 9)"]
"""The test game's own words (its templates and log): not the platform's to translate."""


KEPT = ["Companion", "English", "Deutsch", "Français", "ABCD", "JSON", "QR"]
"""Words the same in every language: the app's name, each language's own name (the
switch), the table code's example, JSON and QR."""
TITLES = [str(game.TITLE) for game in discover().values()]
"""The games' names: each game's own area says how each edition names it."""


def allowed(code: str = "") -> list[str]:
    return [*NAMES, *TALLY, *KEPT, *TITLES, f"http://localhost/j/{code}", code]


def assert_marked(html: str, code: str = "", *extra: str) -> None:
    left = unmarked(html, [*allowed(code), *extra])
    assert left == [], left


# --- every page of the platform, in every phase, drawn in the pseudo language --------

def test_lobby_new_table_and_error_pages_are_all_marked(app):
    with pseudo_language():
        laptop = create_table(app, "tally", 3)
        lobby = laptop.get("/")
        assert "⟦Join a table⟧" in lobby.text
        assert_marked(lobby.text, laptop.code)  # with "Tables on this laptop"
        code = laptop.code
        assert_marked(laptop.get("/join?code=ZZZZ").text, code, "ZZZZ")  # nobody's code
        assert_marked(laptop.get("/join?code=").text, code)
        assert_marked(laptop.get("/new/tally").text, code)
        refused = laptop.post("/new/tally", {"players": "9"})
        assert refused.status_code == 422
        assert_marked(refused.text, code)
        for path in ("/t/QQQQ", "/t/QQQQ/me", "/h/nonsense", "/new/nogame", "/r/nonsense"):
            page = laptop.get(path)
            assert page.status_code == 404, path
            assert_marked(page.text, "QQQQ")
        stale_form = Device(app).client.post("/new/tally", data={"players": "3"})
        assert stale_form.status_code == 403  # no CSRF token: the page was out of date
        assert "⟦This page is out of date" in stale_form.text
        assert_marked(stale_form.text)
        wrong_way = laptop.client.post("/join", data={"csrf": laptop.csrf})
        assert wrong_way.status_code == 405
        assert_marked(wrong_way.text)


def test_join_pages_are_all_marked(app):
    with pseudo_language():
        laptop = create_table(app, "tally", 3)
        code = laptop.code
        phone = Device(app, code)
        assert_marked(phone.get(f"/j/{code}").text, code)
        refused = phone.post(f"/j/{code}", {"name": "Ann"})  # no seat picked
        assert refused.status_code == 422
        assert_marked(refused.text, code)
        join(app, code, 0, "Ann")
        taken = Device(app, code).post(f"/j/{code}", {"seat": "0", "name": "Bob"})
        assert taken.status_code == 409
        assert_marked(taken.text, code)
        join(app, code, 1, "Bob")
        join(app, code, 2, "Cyd")
        full = Device(app, code).get(f"/j/{code}")
        assert "data-table-full" in full.text
        assert_marked(full.text, code)
        laptop.host("close")
        assert_marked(Device(app, code).get(f"/j/{code}").text, code)


def test_kept_seats_join_page_is_marked(app):
    with pseudo_language():
        laptop = create_table(app, "tally", 3)
        with app.app_context():
            set_seat_names(get_db(), table_of(app, laptop.code)["id"], ["Ann", "Bob", None])
        join(app, laptop.code, 0, "Ann")
        page = Device(app, laptop.code).get(f"/j/{laptop.code}")
        assert "data-kept-seats" in page.text
        assert_marked(page.text, laptop.code)


def test_table_screen_and_phones_in_every_phase_are_marked(app):
    with pseudo_language():
        laptop = create_table(app, "tally", 3)
        code = laptop.code
        watcher = Device(app, code)
        ann = join(app, code, 0, "Ann")
        # The lobby with an empty seat: host screen, a watcher's screen, a phone.
        for device in (laptop, watcher):
            assert_marked(device.screen().text, code)
        assert_marked(ann.phone().text, code)
        bob = join(app, code, 1, "Bob")
        cyd = join(app, code, 2, "Cyd")
        # Everyone seated, not started; then playing, with an undo and a refusal.
        assert_marked(laptop.screen().text, code)
        assert_marked(bob.phone().text, code)
        assert laptop.host("start").status_code == 303
        assert ann.act("add", amount=2).status_code == 303
        assert laptop.host("undo").status_code == 303
        for device in (laptop, watcher):
            page = device.screen().text
            assert "data-undone" in page
            assert_marked(page, code)
        for phone in (ann, bob, cyd):
            assert_marked(phone.phone().text, code)
        refused = ann.act("add", amount=99)
        assert refused.status_code == 422
        assert_marked(refused.text, code)
        stale = bob.act("add", version=1, amount=1)
        assert stale.status_code == 409
        assert_marked(stale.text, code)
        # The host controls handed to a seat: that phone has them, the laptop offers
        # to take them back.
        assert laptop.host("hand-host", seat=1).status_code == 303
        assert_marked(bob.phone().text, code)
        screen = laptop.screen().text
        assert "data-host-home" in screen
        assert_marked(screen, code)
        assert laptop.post(f"/t/{code}/take-host", {"version": laptop.version()}
                           ).status_code == 303
        # Over: play to the end; then closed.
        for _turn in range(12):
            table = table_of(app, code)
            if table["status"] != "playing":
                break
            phone = (ann, bob, cyd)[table["state"]["turn"]]
            assert phone.act("add", amount=3).status_code == 303
        assert table_of(app, code)["status"] == "over"
        for device in (laptop, watcher, ann, bob):
            page = device.screen() if device in (laptop, watcher) else device.phone()
            assert_marked(page.text, code)
        # A re-join code for a lost phone.
        rejoin = laptop.host("rejoin", seat=2)
        assert rejoin.status_code == 200
        link = re.search(r'<p class="address small">([^<]*)</p>', rejoin.text).group(1)
        assert_marked(rejoin.text, code, link)
        assert laptop.host("close").status_code == 303
        for page in (laptop.screen(), watcher.screen(), ann.phone()):
            assert_marked(page.text, code)


def test_removing_a_seat_and_the_seat_log_are_marked(app):
    with pseudo_language():
        laptop = create_table(app, "tally", 4)
        code = laptop.code
        assert laptop.host("remove-seat", seat=3).status_code == 303
        refused = laptop.host("remove-seat", seat=0)  # the dealer's seat stays
        assert refused.status_code == 409
        assert_marked(refused.text, code)
        page = laptop.screen().text
        assert "⟦An empty seat was removed⟧" in page
        assert_marked(page, code)


# --- the refusals of the platform's Python, without a page --------------------------

def test_refusals_made_in_python_are_texts():
    for refuse in (lambda: parse_int("x", 1, 5, _("circle")),
                   lambda: parse_int("", 1, 5, _("circle")),
                   lambda: parse_int("9", 1, 5, _("circle")),
                   lambda: parse_names("a\na", 2, _("names")),
                   lambda: check_shape({"a": 1}, {"a": [int]})):
        with pytest.raises(RuleError) as error:
            refuse()
        assert isinstance(error.value.message, words.Text)
    for raw in (b"not json", b'{"format": "x"}', json.dumps(
            {"format": "companion-table/2", "table": {"game": "nogame"}}).encode()):
        with pytest.raises(BadExport) as bad:
            check(read(raw), {})
        assert isinstance(bad.value.message, words.Text)


# --- German and French, for real ----------------------------------------------------

def test_a_german_phone_reads_german(app):
    laptop, phones = seated_table(app, "tally", NAMES)
    german = {"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"}
    page = phones[0].get(f"/t/{laptop.code}/me", headers=german).text
    assert '<html lang="de">' in page
    assert "Plätze" in page and "Ereignisse am Tisch" in page
    assert "Bildschirm anlassen" in page
    assert 'data-tap-again="Zum Bestätigen nochmal tippen."' in page
    for english in ("Seats", "Table events", "Keep screen on", "Tap again.", "Game 1 dealt"):
        assert english not in page
    screen = laptop.get(f"/t/{laptop.code}", headers=german).text
    assert "Letzte Aktion rückgängig" in screen and "Gastgeber" in screen
    assert "Undo last action" not in screen and "End this table for everyone?" not in screen
    lobby = laptop.get("/", headers=german).text
    assert "An einen Tisch setzen" in lobby and "Join a table" not in lobby


def test_a_french_table_screen_reads_french(app):
    laptop = create_table(app, "tally", 3)
    join(app, laptop.code, 0, "Ann")
    french = {"Accept-Language": "fr-FR,fr;q=0.9"}
    screen = laptop.get(f"/t/{laptop.code}", headers=french).text
    assert '<html lang="fr">' in screen
    assert "En attente de joueurs" in screen and "Scannez pour rejoindre" in screen
    assert "Ann a rejoint la table" in screen
    for english in ("Waiting for players", "Scan to join", "Ann joined", "Start the game"):
        assert english not in screen
    join_page = Device(app).get(f"/j/{laptop.code}", headers=french).text
    assert "Choisissez votre place" in join_page and "Pick your seat" not in join_page
    refused = Device(app).post(f"/j/{laptop.code}", {"name": "Bob"}, headers=french)
    assert "Choisissez une place." in refused.text


def test_a_refusal_reads_the_devices_language(app):
    laptop = create_table(app, "tally", 3)
    phone = Device(app, laptop.code)
    join(app, laptop.code, 0, "Ann")
    taken = phone.post(f"/j/{laptop.code}", {"seat": "0", "name": "Bob"},
                       headers={"Accept-Language": "de"})
    assert "ist schon von Ann besetzt" in taken.text
    missing = phone.get("/t/QQQQ", headers={"Accept-Language": "fr"})
    assert missing.status_code == 404
    assert "aucune table avec le code «\u00a0QQQQ\u00a0»" in missing.text


# --- the language switch: per device, one tap, back on the same page ----------------

def test_one_tap_changes_the_language_and_comes_back(app):
    laptop = create_table(app, "tally", 3)
    path = f"/t/{laptop.code}"
    page = laptop.get(path).text
    assert '<html lang="en">' in page
    link = re.search(r'href="(/language/de\?[^"]*)"', page).group(1).replace("&amp;", "&")
    tapped = laptop.get(link)
    assert tapped.status_code == 303
    assert tapped.headers["Location"] == path
    again = laptop.get(path).text  # a reload: the choice is kept in the session
    assert '<html lang="de">' in again and "Warten auf Spieler" in again
    assert 'aria-current="true">Deutsch' in again


def test_an_unknown_language_changes_nothing(app):
    device = Device(app)
    device.get("/language/fr?next=/")
    answer = device.get("/language/xx?next=/")
    assert answer.status_code == 303
    assert '<html lang="fr">' in device.get("/").text


@pytest.mark.parametrize("back", ["https://evil.example/", "//evil.example/", "/\\evil",
                                  "evil", "", "/\t/evil.example", "/\r\n/x", "\t//evil.example",
                                  "/\n/evil.example", "/\x00", "/x\x7f", "/x\x85y",
                                  "javascript:alert(1)", "/\t\\evil.example"])
@pytest.mark.parametrize("address", ["192.0.2.7", "198.51.100.9"])  # a phone, a stranger
def test_the_switch_never_leads_to_another_site(app, back, address):
    answer = Device(app).get("/language/de", query_string={"next": back},
                             environ_base={"REMOTE_ADDR": address})
    assert answer.status_code == 303
    assert answer.headers["Location"] == "/"


@pytest.mark.parametrize("back", ["/", "/t/ABCD/me", "/history?game=mrjack&page=2",
                                  "/history/players/Zo%C3%AB"])
def test_the_switch_goes_back_to_a_path_of_this_app(app, back):
    answer = Device(app).get("/language/de", query_string={"next": back},
                             environ_base={"REMOTE_ADDR": "192.0.2.7"})
    assert answer.status_code == 303
    assert answer.headers["Location"] == back


def test_the_choice_beats_the_browsers_language(app):
    device = Device(app)
    german = {"Accept-Language": "de"}
    assert '<html lang="de">' in device.get("/", headers=german).text
    device.get("/language/fr?next=/")
    assert '<html lang="fr">' in device.get("/", headers=german).text
    assert '<html lang="en">' in Device(app).get("/").text


def test_two_phones_at_one_table_read_two_languages(app):
    laptop, (ann, bob, _cyd) = seated_table(app, "tally", NAMES)
    ann.get("/language/de?next=/")
    bob.get("/language/fr?next=/")
    laptop.get("/language/en?next=/")
    ann_page, bob_page = ann.phone().text, bob.phone().text
    assert '<html lang="de">' in ann_page and "Plätze" in ann_page
    assert '<html lang="fr">' in bob_page and "Places" in bob_page
    screen = laptop.screen().text
    assert '<html lang="en">' in screen and "Undo last action" in screen
    # Asked again, each kept page is the device's own language (companion/web/page_cache.py).
    assert "Plätze" in ann.phone().text and "Places" in bob.phone().text
    assert "Undo last action" in laptop.screen().text


def test_the_host_phone_and_the_screen_keep_their_own_choice(app):
    laptop, phones = seated_table(app, "tally", NAMES)
    assert laptop.host("hand-host", seat=0).status_code == 303
    phones[0].get("/language/fr?next=/")
    page = phones[0].phone().text
    assert "Terminer la table" in page and "End the table" not in page
    assert "Take the host controls back" in laptop.screen().text


# --- the terminal ---------------------------------------------------------------------

@pytest.mark.parametrize(("environ", "language"), [
    ({}, "en"), ({"LANG": "C.UTF-8"}, "en"), ({"LANG": "de_DE.UTF-8"}, "de"),
    ({"LC_ALL": "fr_FR.UTF-8", "LANG": "de_DE.UTF-8"}, "fr"),
    ({"LANGUAGE": "es:fr", "LANG": "de_DE.UTF-8"}, "fr"),
    ({"LANGUAGE": "es", "LANG": "de_AT.UTF-8"}, "de"),
    ({"LC_MESSAGES": "it_IT", "LANG": "de_DE"}, "en"),
])
def test_the_terminal_reads_its_environment(environ, language):
    assert terminal.terminal_language(environ) == language


def test_the_terminal_speaks_german_and_french():
    text = _("Table %(code)s written to %(path)s", code="ABCD", path="t.json")
    assert terminal.say(text, {"LANG": "de_DE.UTF-8"}) == "Tisch ABCD nach t.json geschrieben"
    assert terminal.say(text, {"LANG": "fr_FR.UTF-8"}) == "Table ABCD écrite dans t.json"
    assert terminal.say(text, {}) == "Table ABCD written to t.json"


def test_the_command_line_help_follows_the_terminal(monkeypatch, capsys):
    from companion import cli

    monkeypatch.setenv("LANGUAGE", "de")
    with pytest.raises(SystemExit):
        cli.main(["serve", "--help"])
    assert "SQLite-Datei" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    out = capsys.readouterr().out
    assert "die App für den Tisch starten" in out
    assert "start the app for the table" not in out


def test_a_word_in_context_reads_as_its_language_writes_it_there():
    """French writes "none" after a feminine noun otherwise ("Arrestations : aucune"):
    the same English words in a context are another message, kept as such in a state."""
    arrests, plain = words.pgettext("arrests", "none"), _("none")
    assert arrests == plain == "none"
    french, german = terminal.catalogue("fr"), terminal.catalogue("de")
    assert (arrests.in_language(french), plain.in_language(french)) == ("aucune", "aucun")
    assert arrests.in_language(german) == "keine"
    assert words.from_data(json.loads(json.dumps(arrests.as_data()))).in_language(
        french) == "aucune"
    # No catalogue has it: the words, never the context.
    missing = words.pgettext("nowhere", "Ann's %(n)s cards", n=2)
    assert missing.in_language(french) == "Ann's 2 cards"


def test_a_table_error_keeps_its_english_value():
    error = TableError(_("%(seat)s is kept for %(name)s.", seat="Dealer", name="Ann"))
    assert error.message == "Dealer is kept for Ann."


# --- the shared components (templates/_macros.html) ---------------------------------

MACROS = """{% from "_macros.html" import error_box, peek, keypad, confirm_button,
    undone_notice, reveal, now_line with context %}
{{ error_box(error, True) }}{{ error_box(error) }}
{% call peek() %}7{% endcall %}
{{ keypad("circle", label) }}
{{ confirm_button(label, question) }}
{{ undone_notice(undone) }}
{{ now_line({"text": label, "detail": question, "mine": True}) }}
"""


def test_the_shared_components_are_marked(app):
    from flask import render_template_string

    with app.test_request_context("/"), pseudo_language():
        html = render_template_string(
            MACROS, error=_("That seat does not exist at this table."),
            label=_("Host"), question=_("End this table for everyone?"),
            undone=_("Undone by the host: the table's last action. Play on from here."))
    assert "⟦Not accepted: nothing was changed.⟧" in html
    assert 'aria-label="⟦Delete⟧"' in html and "⟦Hold to peek⟧" in html
    assert unmarked(html) == []


def test_the_confirm_words_reach_the_script_in_the_readers_language(app):
    page = Device(app).get("/", headers={"Accept-Language": "fr"}).text
    assert 'data-tap-again="Touchez encore pour confirmer."' in page
    assert 'data-not-sent="non envoyé"' in page
    assert 'data-screen-on="L&#39;écran reste allumé"' in page
    assert 'data-screen-off="Garder l&#39;écran allumé"' in page


# --- seat labels: kept in English by the database, shown in the reader's language ---

def test_seat_labels_are_shown_in_the_readers_language(app, monkeypatch):
    from tests.support import tally

    # As a game whose labels are marked names them (the test game's are not).
    monkeypatch.setattr(tally, "seat_labels", lambda count, options: [
        _("Dealer"), *(_("Player %(n)s", n=n) for n in range(1, count))])
    laptop = create_table(app, "tally", 3)
    code = laptop.code
    ann = join(app, code, 0, "Ann")
    with pseudo_language():
        join_page = Device(app, code).get(f"/j/{code}").text
        assert "⟦Player 1⟧" in join_page and "⟦Dealer⟧" in join_page
        taken = Device(app, code).post(f"/j/{code}", {"seat": "0", "name": "Bob"})
        assert "⟦⟦Dealer⟧ is already taken by Ann. Please pick another seat.⟧" in taken.text
        refused = laptop.host("start")
        assert "⟦Player 1⟧, ⟦Player 2⟧" in refused.text
        phone = ann.phone().text
        assert "<b data-seat-label>⟦Dealer⟧</b>" in phone
        assert "⟦You are seated as <b>⟦Dealer⟧</b>.⟧" in phone
        assert "⟦Player 1⟧" in laptop.screen().text
    # English is as it was: the labels' English is what the database keeps.
    assert "Dealer is already taken by Ann." in Device(app, code).post(
        f"/j/{code}", {"seat": "0", "name": "Bob"}).text


def test_an_import_refusal_reads_the_devices_language(app):
    import io

    laptop = Device(app)
    for language, words_ in (("de", "Diese Datei ist kein Tisch-Export (es ist kein JSON)."),
                             ("fr", "Ce fichier n&#39;est pas un export de table (ce n&#39;est "
                                    "pas du JSON).")):
        answer = laptop.post("/import", {"file": (io.BytesIO(b"not json"), "t.json")},
                             headers={"Accept-Language": language},
                             content_type="multipart/form-data")
        assert answer.status_code == 422
        assert words_ in answer.text
    damaged = json.dumps({"format": "companion-table/2", "table": {"game": "tally"}})
    answer = laptop.post("/import", {"file": (io.BytesIO(damaged.encode()), "t.json")},
                         headers={"Accept-Language": "de"},
                         content_type="multipart/form-data")
    assert "Diese Exportdatei ist beschädigt: der Tisch: „code“ fehlt." in answer.text


@pytest.mark.parametrize("language", ["en", "de", "fr"])
def test_every_armed_confirm_button_stays_within_two_lines(app, language):
    """Armed, a button reads its question and "Tap again." (static/app/confirm.js): at 360 px a
    button holds some 36 characters a line, and the English takes two lines at most."""
    import html as markup

    laptop, _phones = seated_table(app, "tally", NAMES)
    headers = {"Accept-Language": language}
    page = laptop.get(f"/t/{laptop.code}", headers=headers).text
    tap = markup.unescape(re.search(r'data-tap-again="([^"]*)"', page).group(1))
    questions = [markup.unescape(q) for q in re.findall(r'data-confirm="([^"]*)"', page)]
    assert len(questions) >= 4
    for question in questions:
        assert len(f"{question} {tap}") <= 72, question


def test_the_creation_limit_speaks_the_phones_language(app):
    from companion.web.limits import CREATE_LIMIT

    phone = Device(app)
    phone.client.environ_base["REMOTE_ADDR"] = "192.0.2.7"  # a phone, not the laptop
    for _turn in range(CREATE_LIMIT):
        assert phone.post("/new/tally", {"players": "2"}).status_code == 303
    with pseudo_language():
        refused = phone.post("/new/tally", {"players": "2"})
        assert refused.status_code == 429
        assert_marked(refused.text)
    german = phone.post("/new/tally", {"players": "2"}, headers={"Accept-Language": "de"})
    assert "Dieses Gerät hat in den letzten 10 Minuten 10 Tische erstellt" in german.text
    assert "Bitte warte 10 Minuten" in german.text


# --- what the server writes itself -------------------------------------------------------

def test_a_raw_refusal_reads_the_browsers_language():
    from companion.server import raw

    message = _("There is no table with this code.")
    body = {language: raw.refusal(404, message, 30, accept).split(b"\r\n\r\n", 1)[1].decode()
            for language, accept in (("en", ""), ("de", "de-CH,de;q=0.9"),
                                     ("fr", "fr;q=0.8, en;q=0.5"), ("xx", "es"))}
    assert body == {"en": "There is no table with this code.",
                    "de": "Es gibt keinen Tisch mit diesem Code.",
                    "fr": "Il n'y a aucune table avec ce code.",
                    "xx": "There is no table with this code."}


def test_the_stream_hub_refuses_in_the_browsers_language(tmp_path):
    import asyncio

    from tests.support.rawhttp import connect, read_response, request, run
    from tests.support.realserver import Server

    server = Server(tmp_path / "companion.sqlite").start()
    try:
        async def ask() -> tuple[int, bytes]:
            reader, writer = await connect(server.port, None)
            writer.write(request("/t/QQQQ/events", server.port,
                                 extra="Accept-Language: de\r\n"))
            await writer.drain()
            try:
                return await asyncio.wait_for(read_response(reader), 20)
            finally:
                writer.close()

        status, body = run(ask())
        assert status == 404
        assert body.decode() == "Es gibt keinen Tisch mit diesem Code."
    finally:
        server.stop()


def test_the_pseudo_language_check_finds_a_word_no_catalogue_has():
    """The check itself: a word outside ⟦…⟧ is found in a text, an attribute a person
    reads and a button's value; a sentence split by a word in bold is read whole; a
    script's text and the allowed names are not words to translate."""
    page = ("<main><p>⟦Ann moved ⟧<b>Ann</b>⟦ to the inn⟧</p>"
            "<p title='Hello'>⟦Shown⟧</p><input type=submit value='Send'>"
            "<script>var word = 1</script><h2>Unmarked heading</h2><p>12 – 3</p></main>")
    assert unmarked(page, ["Ann"]) == ["Hello", "Send", "Unmarked heading"]


def test_a_kept_text_is_made_again_the_same_and_read_in_each_language():
    """words.from_data keeps what it made: made twice, a kept Text is the same sentence,
    still translated for each reader (the kept Text is its English, not a page's words),
    and junk is still a plain string, never an error."""
    kept = _("It is %(name)s's turn.", name="Ann").as_data()
    first, again = words.from_data(kept), words.from_data(json.loads(json.dumps(kept)))
    assert first == again == "It is Ann's turn."
    german = again.in_language(terminal.catalogue("de"))
    assert german != "It is Ann's turn." and "Ann" in german
    assert words.from_data(kept).in_language(words.ENGLISH) == "It is Ann's turn."
    assert [words.from_data(junk) for junk in ({"msgid": 3}, [1], None, "kept")] == [
        "", "", "", "kept"]
