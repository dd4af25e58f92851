"""The table platform through the Flask client: every route, its statuses and errors."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from companion import tables
from companion.tables import CODE_LETTERS
from tests.support.html import csrf_of, version_of
from tests.support.webflow import Device, create_table, join, seated_table, table_of


def _db(app):
    from companion.db import connect

    return connect(app.config["DATABASE"])


# --- lobby ---------------------------------------------------------------

def test_lobby_lists_the_games_and_the_join_form(client):
    page = client.get("/")
    assert page.status_code == 200
    assert "Tally (test game)" in page.text
    assert 'action="/join"' in page.text


def test_lobby_component_with_htmx(client):
    page = client.get("/", headers={"HX-Request": "true"})
    assert page.text.lstrip().startswith("<main") or "<html" not in page.text


def test_new_table_form_and_creation(app):
    laptop = Device(app)
    page = laptop.get("/new/tally")
    assert page.status_code == 200 and 'name="players"' in page.text
    created = laptop.post("/new/tally", {"players": "3", "fast": "on"})
    assert created.status_code == 303
    code = created.headers["Location"].rsplit("/", 1)[-1]
    assert len(code) == 4 and set(code) <= set(CODE_LETTERS)
    assert not set(code) & set("IO01UV")
    cookie = created.headers.getlist("Set-Cookie")
    assert any("HttpOnly" in c and "SameSite=Lax" in c and c.startswith(f"host_{code}=")
               for c in cookie)
    screen = laptop.get(f"/t/{code}")
    assert screen.status_code == 200
    assert code in screen.text and f"/j/{code}" in screen.text
    assert "<svg" in screen.text and "Start the game" in screen.text
    assert screen.text.count('class="seat ') == 3


def test_options_are_remembered_for_the_next_table(app):
    create_table(app, "tally", 2, fast="on")
    page = Device(app).get("/new/tally").text
    assert 'name="fast" checked' in page


@pytest.mark.parametrize("players", ["1", "5", "x", "", "99999999999999999999"])
def test_new_table_refuses_bad_player_counts(app, players):
    laptop = Device(app)
    response = laptop.post("/new/tally", {"players": players})
    assert response.status_code == 422
    assert "number of players" in response.text
    assert tables.open_tables(_db(app)) == []


def test_unknown_game_is_a_friendly_404(client):
    response = client.get("/new/chess")
    assert response.status_code == 404
    assert "does not have that game" in response.text


def test_join_by_code_redirects_and_unknown_codes_are_404(app):
    laptop = create_table(app, "tally", 2)
    phone = Device(app)
    found = phone.get(f"/join?code={laptop.code.lower()}")
    assert found.status_code == 303 and found.headers["Location"].endswith(f"/j/{laptop.code}")
    missing = phone.get("/join?code=ZZZZ")
    assert missing.status_code == 404 and "no table with the code" in missing.text
    assert phone.get("/join?code=").status_code == 422
    assert phone.get("/j/QQQQ").status_code == 404
    assert phone.get("/t/QQQQ").status_code == 404
    assert phone.get("/t/QQQQ/me").status_code == 404


# --- joining -------------------------------------------------------------

def test_join_page_then_phone_page_and_return_to_seat(app):
    laptop = create_table(app, "tally", 2)
    phone = join(app, laptop.code, 1, "Bob")
    page = phone.phone()
    assert page.status_code == 200 and "Bob" in page.text and "Player 1" in page.text
    again = phone.get(f"/j/{laptop.code}")
    assert again.status_code == 303 and again.headers["Location"].endswith("/me")
    assert "Bob" in laptop.screen().text


def test_a_seat_cannot_be_claimed_twice(app):
    laptop = create_table(app, "tally", 2)
    join(app, laptop.code, 1, "Bob")
    rival = Device(app, laptop.code)
    response = rival.post(f"/j/{laptop.code}", {"seat": "1", "name": "Eve"})
    assert response.status_code == 409
    assert "already taken by Bob" in response.text
    assert not any(c.startswith("seat_") for c in response.headers.getlist("Set-Cookie"))


@pytest.mark.parametrize("form, message", [
    ({"seat": "0", "name": ""}, "enter your name"),
    ({"seat": "0", "name": "x" * 31}, "30 characters"),
    ({"seat": "", "name": "Ann"}, "pick a seat"),
    ({"seat": "7", "name": "Ann"}, "does not exist"),
    ({"seat": "-1", "name": "Ann"}, "does not exist"),
])
def test_join_refusals(app, form, message):
    laptop = create_table(app, "tally", 2)
    phone = Device(app, laptop.code)
    before = phone.version()
    response = phone.post(f"/j/{laptop.code}", form)
    assert response.status_code in (404, 422)
    assert message in response.text
    assert phone.version() == before


def test_same_name_twice_is_refused(app):
    laptop = create_table(app, "tally", 3)
    join(app, laptop.code, 0, "Ann")
    response = Device(app).post(f"/j/{laptop.code}", {"seat": "1", "name": " ann "})
    assert response.status_code == 409 and "already at this table" in response.text


def test_forged_seat_cookie_gets_404_and_no_view(app):
    laptop, phones = seated_table(app, "tally", ["Ann", "Bob"])
    forger = Device(app, laptop.code)
    forger.client.set_cookie(f"seat_{laptop.code}", "forged-token")
    page = forger.phone()
    assert page.status_code == 404
    assert "replaced" in page.text
    response = forger.post(f"/t/{laptop.code}/me/act",
                           {"type": "add", "amount": "1", "version": forger.version()})
    assert response.status_code == 404
    assert forger.get("/r/forged-token").status_code == 404


def test_phone_without_seat_is_sent_to_join(app):
    laptop = create_table(app, "tally", 2)
    response = Device(app).get(f"/t/{laptop.code}/me")
    assert response.status_code == 303 and response.headers["Location"].endswith(
        f"/j/{laptop.code}")


# --- CSRF and headers ----------------------------------------------------

def test_missing_or_wrong_csrf_is_refused(app):
    laptop = create_table(app, "tally", 2)
    before = laptop.version()
    bare = laptop.client.post(f"/j/{laptop.code}", data={"seat": "0", "name": "Ann"})
    assert bare.status_code == 403 and "Reload the page" in bare.text
    wrong = laptop.client.post(f"/t/{laptop.code}/start",
                               data={"csrf": "nope", "version": before})
    assert wrong.status_code == 403
    other = Device(app)  # a token from another browser's session
    stolen = laptop.client.post(f"/t/{laptop.code}/close",
                                data={"csrf": other.csrf, "version": before})
    assert stolen.status_code == 403
    assert laptop.version() == before


def test_security_headers(client):
    response = client.get("/")
    assert response.headers["Referrer-Policy"] == "no-referrer"
    csp = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert response.headers["Cache-Control"] == "no-store"
    session = [c for c in response.headers.getlist("Set-Cookie") if c.startswith("companion=")]
    assert session and "HttpOnly" in session[0] and "SameSite=Lax" in session[0]


def test_pages_are_gzipped_for_phones(client):
    page = client.get("/", headers={"Accept-Encoding": "gzip"})
    assert page.headers.get("Content-Encoding") == "gzip"
    script = client.get("/static/htmx-2.0.11.min.js", headers={"Accept-Encoding": "gzip"})
    assert script.headers.get("Content-Encoding") == "gzip"
    assert len(script.data) < 20_000



def test_every_behaviour_script_is_loaded_after_htmx_and_leaks_no_global(client):
    """static/app/ is one deferred file per behaviour (docs/ARCHITECTURE.md): a page loads
    each of them, after htmx and companion.js (the one name they share), and each says
    what it owns at its top and keeps its names in its own function."""
    page = client.get("/").text
    app = Path(client.application.static_folder) / "app"
    loaded = re.findall(r'<script src="/static/([^"]+)" defer></script>', page)
    files = sorted(path.name for path in app.glob("*.js"))
    assert loaded[:2] == ["htmx-2.0.11.min.js", "app/companion.js"]
    assert sorted(name.removeprefix("app/") for name in loaded[1:]) == files
    for name in files:
        text = (app / name).read_text()
        owns, code = text.split("*/\n", 1)
        assert owns.startswith("/* Owns "), name
        assert code.startswith("(function () {\n") and code.endswith("})();\n"), name

def test_wrong_method_is_friendly(client):
    response = client.get("/import")
    assert response.status_code == 405 and "cannot be used this way" in response.text


# --- playing -------------------------------------------------------------

def test_start_needs_every_seat_and_the_host(app):
    laptop = create_table(app, "tally", 3)
    phone = join(app, laptop.code, 0, "Ann")
    refused = laptop.host("start")
    assert refused.status_code == 409 and "Waiting for Player 1, Player 2" in refused.text
    not_host = phone.host("start")
    assert not_host.status_code == 403 and "Only the host" in not_host.text


def test_actions_in_turn_out_of_turn_stale_and_doubled(app):
    laptop, (ann, bob) = seated_table(app, "tally", ["Ann", "Bob"])
    version = ann.version()
    assert ann.act("add", amount=2, version=version).status_code == 303
    doubled = ann.act("add", amount=2, version=version)
    assert doubled.status_code == 409 and "moved on" in doubled.text
    out_of_turn = ann.act("add", amount=1)
    assert out_of_turn.status_code == 422 and "not something you can do" in out_of_turn.text
    too_big = bob.act("add", amount=99)
    assert too_big.status_code == 422 and "between 1 and 3" in too_big.text
    garbage = bob.act("add", amount="🙂")
    assert garbage.status_code == 422
    no_version = bob.post(f"/t/{laptop.code}/me/act", {"type": "add", "amount": "1"})
    assert no_version.status_code == 400
    after = table_of(app, laptop.code)
    assert after["state"]["total"] == 2 and after["version"] == version + 1


def test_refused_action_with_htmx_returns_the_component_with_the_message(app):
    laptop, (ann, bob) = seated_table(app, "tally", ["Ann", "Bob"])
    response = bob.post(f"/t/{laptop.code}/me/act",
                        {"type": "add", "amount": "1", "version": bob.version()},
                        headers={"HX-Request": "true"})
    assert response.status_code == 422
    assert response.text.lstrip().startswith("<main") and 'role="alert"' in response.text


def test_table_actions_are_host_only(app):
    laptop, (ann, bob) = seated_table(app, "tally", ["Ann", "Bob"])
    assert ann.table_act("skip").status_code == 403
    assert laptop.table_act("skip").status_code == 303
    assert table_of(app, laptop.code)["state"]["turn"] == 1
    screen = Device(app, laptop.code).screen().text  # a bystander sees no host controls
    assert "Skip this turn" not in screen and "data-host-controls" not in screen


def test_views_show_only_the_viewers_secret(app):
    laptop, (ann, bob) = seated_table(app, "tally", ["Ann", "Bob"])
    secrets_ = table_of(app, laptop.code)["state"]["secrets"]
    ann_page, bob_page = ann.phone().text, bob.phone().text
    assert f'data-secret>{secrets_[0]}<' in ann_page
    assert f'data-secret>{secrets_[1]}<' in bob_page
    assert f'data-secret>{secrets_[1]}<' not in ann_page
    assert "data-secret" not in laptop.screen().text


def test_game_over_and_reveal(app):
    laptop, (ann, bob) = seated_table(app, "tally", ["Ann", "Bob"], fast="on")
    for _ in range(2):
        ann.act("add", amount=9)
        bob.act("add", amount=9)
    assert table_of(app, laptop.code)["status"] == "over"
    assert "data-reveal" in laptop.screen().text
    assert ann.act("add", amount=1).status_code == 409


# --- host controls -------------------------------------------------------

def test_undo_restores_the_previous_state_and_is_logged(app):
    laptop, (ann, bob) = seated_table(app, "tally", ["Ann", "Bob"])
    ann.act("add", amount=3)
    bob.act("add", amount=2)
    version = laptop.version()
    assert laptop.host("undo", version=version).status_code == 303
    assert table_of(app, laptop.code)["state"]["total"] == 3
    assert laptop.host("undo", version=version).status_code == 409  # a doubled undo
    assert "undid the last action (by Bob)" in bob.phone().text
    assert laptop.host("undo").status_code == 303
    assert table_of(app, laptop.code)["state"]["total"] == 0
    nothing = laptop.host("undo")
    assert nothing.status_code == 409 and "no game action to undo" in nothing.text
    assert ann.host("undo").status_code == 403


def test_no_undo_once_the_end_revealed_everything(app):
    laptop, (ann, bob) = seated_table(app, "tally", ["Ann", "Bob"], fast="on")
    for _ in range(2):
        ann.act("add", amount=9)
        bob.act("add", amount=9)
    before = table_of(app, laptop.code)
    refused = laptop.host("undo")
    assert refused.status_code == 409 and "cannot be undone" in refused.text
    assert table_of(app, laptop.code) == before
    assert "Undo last action" not in laptop.screen().text


def test_hand_host_to_a_seat(app):
    laptop, (ann, bob) = seated_table(app, "tally", ["Ann", "Bob"])
    assert laptop.host("hand-host", seat=1).status_code == 303
    assert laptop.host("undo").status_code == 403  # the laptop gave its controls away
    assert "data-host-controls" in bob.phone().text
    assert "data-host-controls" not in ann.phone().text
    assert bob.table_act("skip").status_code == 303
    assert bob.host("hand-host", seat=5).status_code == 422


def test_remove_an_empty_seat_before_the_start(app):
    laptop = create_table(app, "tally", 4)
    join(app, laptop.code, 0, "Ann")
    join(app, laptop.code, 3, "Dan")
    assert laptop.host("remove-seat", seat=0).status_code == 409  # taken
    assert laptop.host("remove-seat", seat=1).status_code == 303
    table_id = table_of(app, laptop.code)["id"]
    with app.app_context():
        from companion.db import get_db

        seats = tables.get_seats(get_db(), table_id)
    assert [(s["label"], s["name"]) for s in seats] == [
        ("Dealer", "Ann"), ("Player 1", None), ("Player 2", "Dan")]
    assert laptop.host("remove-seat", seat=1).status_code == 303
    refused = laptop.host("remove-seat", seat=1)
    assert refused.status_code == 409 and "Dan is sitting there" in refused.text
    assert laptop.host("start").status_code == 303
    late = laptop.host("remove-seat", seat=1)
    assert late.status_code == 409 and "before the game starts" in late.text


def test_fixed_seats_cannot_be_removed(app):
    laptop = create_table(app, "tally", 3)
    response = laptop.host("remove-seat", seat=0)
    assert response.status_code == 409 and "cannot be played without Dealer" in response.text


def test_close_and_new_game(app):
    laptop, (ann, bob) = seated_table(app, "tally", ["Ann", "Bob"])
    first = table_of(app, laptop.code)["state"]["secrets"]
    ann.act("add", amount=2)
    assert laptop.host("start").status_code == 303  # a new game, same seats
    fresh = table_of(app, laptop.code)
    assert fresh["game_no"] == 2 and fresh["state"]["total"] == 0
    assert fresh["state"]["secrets"] != first
    assert laptop.host("close").status_code == 303
    assert laptop.host("close").status_code == 409
    assert "host ended this table" in ann.phone().text
    assert ann.act("add", amount=1).status_code == 409
    assert Device(app).post(f"/j/{laptop.code}", {"seat": 0, "name": "Zed"}).status_code in (
        409, 410)


# --- export and import ---------------------------------------------------

def test_export_refused_while_secrets_matter_then_round_trip(app):
    laptop, (ann, bob) = seated_table(app, "tally", ["Ann", "Bob"], fast="on")
    refused = laptop.get(f"/t/{laptop.code}/export")
    assert refused.status_code == 403 and "companion export" in refused.text
    assert ann.get(f"/t/{laptop.code}/export").status_code == 403
    for _ in range(2):
        ann.act("add", amount=9)
        bob.act("add", amount=9)
    exported = laptop.get(f"/t/{laptop.code}/export")
    assert exported.status_code == 200
    data = json.loads(exported.data)
    assert data["format"] == "companion-table/2" and len(data["log"]) >= 7
    assert "host_token_hash" not in data["table"]
    other = Device(app)
    imported = other.post("/import", {"file": (io.BytesIO(exported.data), "t.json")},
                          content_type="multipart/form-data")
    assert imported.status_code == 303
    code = imported.headers["Location"].rsplit("/", 1)[-1]
    assert code != laptop.code
    assert table_of(app, code)["state"] == table_of(app, laptop.code)["state"]
    assert "data-host-controls" in other.get(f"/t/{code}").text


@pytest.mark.parametrize("payload, status", [
    (b"not json", 422), (b"[1, 2]", 422), (b'{"format": "other"}', 422),
    (b'{"format": "companion-table/1"}', 422),
    (b'{"format": "companion-table/1", "table": {"game": "chess"}}', 422),
])
def test_import_refuses_bad_files(app, payload, status):
    device = Device(app)
    response = device.post("/import", {"file": (io.BytesIO(payload), "t.json")},
                           content_type="multipart/form-data")
    assert response.status_code == status
    assert 'role="alert"' in response.text


def test_import_without_file(app):
    response = Device(app).post("/import", {}, content_type="multipart/form-data")
    assert response.status_code == 422 and "choose an exported table" in response.text


def test_version_endpoint_and_event_stream(app):
    laptop, (ann, bob) = seated_table(app, "tally", ["Ann", "Bob"])
    app.config["LIVE_LIFETIME"] = 0.05
    app.config["LIVE_HEARTBEAT"] = 0.01
    stream = laptop.get(f"/t/{laptop.code}/events")
    assert stream.mimetype == "text/event-stream"
    body = stream.get_data(as_text=True)
    assert f"data: {laptop.version()}" in body and "retry:" in body


def test_html_component_swaps_carry_the_version(app):
    laptop, (ann, bob) = seated_table(app, "tally", ["Ann", "Bob"])
    component = ann.get(f"/t/{laptop.code}/me", headers={"HX-Request": "true"}).text
    assert component.lstrip().startswith("<main") and "<html" not in component
    assert version_of(component) == laptop.version()
    assert csrf_of(component) == ann.csrf


def test_an_unexpected_error_is_a_friendly_500_and_logs_no_secret(app, caplog):
    laptop, (ann, bob) = seated_table(app, "tally", ["Ann", "Bob"])
    secret = str(table_of(app, laptop.code)["state"]["secrets"][1])
    game = app.config["GAMES"]["tally"]
    original = game.view

    def broken(*_args):
        raise ValueError(f"secret {secret} in a message")

    game.view = broken
    try:
        with caplog.at_level("ERROR"):
            response = ann.phone()
    finally:
        game.view = original
    assert response.status_code == 500 and "Nothing was changed" in response.text
    assert secret not in response.text
    assert "unexpected ValueError" in caplog.text and secret not in caplog.text
    assert laptop.code not in caplog.text


def test_host_on_a_phone_gets_a_link_to_the_table_screen(app):
    laptop, (ann, bob) = seated_table(app, "tally", ["Ann", "Bob"])
    laptop.host("hand-host", seat=0)
    assert f'href="/t/{laptop.code}"' in ann.phone().text
    screen = ann.screen().text
    assert "data-host-controls" in screen and "Skip this turn" in screen


def test_a_new_game_and_the_next_table_start_from_what_the_last_game_learnt(app):
    from companion.games import wo_ist_jack

    laptop, phones = seated_table(app, "wo_ist_jack", ["Ann", "Bob", "Cy"],
                                  **wo_ist_jack.form_from(wo_ist_jack.default_options()))
    assert laptop.table_act("start_player", seat=0).status_code == 303
    story = table_of(app, laptop.code)["state"]["current"]
    assert phones[0].act("print", story=story, points=4).status_code == 303
    for phone in phones[1:]:  # the others let it print
        assert phone.act("pass").status_code == 303
    assert laptop.host("start").status_code == 303  # a new game, same seats
    table = table_of(app, laptop.code)
    assert table["options"]["story_points"][story] == 4
    assert table["state"]["story_points"][story] == 4
    # The laptop's deck learnt it too: the next table knows the value.
    assert f"{story} = 4" in Device(app).get("/decks/wo_ist_jack").text
    next_table, _phones = seated_table(app, "wo_ist_jack", ["Ann", "Bob"])
    assert table_of(app, next_table.code)["options"]["story_points"][story] == 4


def test_a_refused_setup_form_keeps_what_was_typed(app):
    laptop = Device(app)
    response = laptop.post("/new/london1888", {"players": "6", "characters": "chosen",
                                               "character_5": "Netley",
                                               "character_6": "Netley"})
    assert response.status_code == 422
    assert response.text.count('<option value="Netley" selected>') == 2
    assert '<option value="6" selected>' in response.text


@pytest.mark.parametrize("game", ["london1888", "mrjack", "whitechapel", "wo_ist_jack"])
def test_every_game_setup_form_round_trips_its_defaults(app, game):
    module = app.config["GAMES"][game]
    laptop = Device(app)
    page = laptop.get(f"/new/{game}")
    assert page.status_code == 200
    form = module.form_from(module.default_options())
    created = laptop.post(f"/new/{game}", {"players": str(module.DEFAULT_PLAYERS), **form})
    assert created.status_code == 303, created.text


def test_a_full_table_tells_an_extra_phone_how_to_get_back_in(app):
    laptop = create_table(app, "tally", 2)
    join(app, laptop.code, 0, "Ann")
    extra = Device(app, laptop.code)
    open_seat = extra.get(f"/j/{laptop.code}").text
    assert "Sit down" in open_seat and "Every seat is taken" not in open_seat
    join(app, laptop.code, 1, "Bob")
    page = extra.get(f"/j/{laptop.code}")
    assert page.status_code == 200
    assert "Every seat is taken" in page.text and "re-join code" in page.text
    assert "Sit down" not in page.text and 'name="seat"' not in page.text
    # A phone that posts anyway (an old page) gets the same door, and no seat.
    late = extra.post(f"/j/{laptop.code}", {"seat": "1", "name": "Cy"})
    assert late.status_code == 409 and "Every seat is taken" in late.text
    assert "Every seat was taken just now" in late.text and "pick another" not in late.text
    assert not any(c.startswith("seat_") for c in late.headers.getlist("Set-Cookie"))


def test_every_page_shows_what_an_undo_took_back_until_the_next_action(app):
    laptop, (ann, bob) = seated_table(app, "tally", ["Ann", "Bob"])
    ann.act("add", amount=3)
    bob.act("add", amount=2)
    assert "data-undone" not in ann.phone().text
    assert laptop.host("undo").status_code == 303
    for page in (ann.phone().text, bob.phone().text, laptop.screen().text):
        assert "Undone by the host: Bob&#39;s last action" in page
    bob.act("add", amount=1)
    for page in (ann.phone().text, bob.phone().text, laptop.screen().text):
        assert "data-undone" not in page


def test_a_host_tap_on_a_page_of_before_shows_the_message_and_the_fresh_page(app):
    laptop = create_table(app, "tally", 2)
    join(app, laptop.code, 0, "Ann")
    seen = laptop.version()
    join(app, laptop.code, 1, "Bob")
    refused = laptop.host("start", version=seen)
    assert refused.status_code == 409
    assert "The table moved on" in refused.text and "Bob" in refused.text
    swapped = laptop.post(f"/t/{laptop.code}/start", {"version": seen},
                          headers={"HX-Request": "true"})
    assert swapped.status_code == 409 and "The table moved on" in swapped.text
    assert "<html" not in swapped.text and "Bob" in swapped.text


def test_the_host_phone_is_offered_the_start(app):
    laptop = create_table(app, "tally", 2)
    ann = join(app, laptop.code, 0, "Ann")
    assert laptop.host("hand-host", seat=0).status_code == 303
    page = ann.phone().text
    assert "You are the host" in page and "Waiting for Player 1 to join" in page
    assert "Waiting for the host" not in page
    bob = join(app, laptop.code, 1, "Bob")
    assert "Start the game" in ann.phone().text
    assert "Waiting for the host to start" in bob.phone().text
    assert "Start the game" not in bob.phone().text


def test_seats_are_named_once_on_each_page(app):
    laptop, (ann, _bob) = seated_table(app, "tally", ["Ann", "Bob"], start=False)
    assert len(re.findall(r">\s*Seats\s*<", ann.phone().text)) == 1
    assert len(re.findall(r">\s*Seats\s*<", laptop.screen().text)) == 1


def test_icons_and_manifest_are_served_so_no_page_meets_a_404(client):
    page = client.get("/").text
    for path in re.findall(r'(?:href)="(/static/[^"]+\.(?:svg|png|webmanifest))"', page):
        assert client.get(path).status_code == 200, path
    manifest = client.get("/static/manifest.webmanifest")
    assert manifest.mimetype == "application/manifest+json"
    data = json.loads(manifest.data)
    assert data["theme_color"] == "#121417" and data["name"]
    for icon in data["icons"]:
        assert client.get("/static/" + icon["src"]).status_code == 200
    favicon = client.get("/favicon.ico")
    assert favicon.status_code == 301 and favicon.headers["Location"].endswith("/icon.svg")
