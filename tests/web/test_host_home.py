"""The laptop is always the host's home, and a form sent twice is answered once
(issue 26): the laptop that created a table takes the host controls back from any seat,
an imported table's host link gives the controls, and an action sent again after it was
stored is answered as the first time, never stored twice."""

from __future__ import annotations

import io
import re

from companion import tables
from tests.support.scripted import parse_forms
from tests.support.webflow import Device, seated_table, table_of


def _log_kinds(app, code: str) -> list[str]:
    with app.app_context():
        from companion.db import get_db

        table = tables.get_table(get_db(), code)
        return [entry["kind"] for entry in tables.history(get_db(), table["id"])]


def test_the_laptop_takes_the_host_controls_back_from_a_seat(app):
    laptop, (ann, bob) = seated_table(app, "tally", ["Ann", "Bob"])
    assert laptop.host("hand-host", seat=1).status_code == 303
    screen = laptop.screen().text
    # The laptop's screen offers them back; it is no host meanwhile.
    assert "data-host-controls" not in screen and "Take the host controls back" in screen
    handed = "Host controls handed to Bob"
    assert handed in screen and handed in ann.phone().text
    # Nobody else is offered it or may do it: not the seat holding them, not a stranger.
    stranger = Device(app, laptop.code)
    for other in (bob, ann, stranger):
        assert "Take the host controls back" not in other.screen().text
        assert other.host("take-host").status_code == 403
    assert laptop.host("take-host").status_code == 303
    assert table_of(app, laptop.code)["host_seat"] is None
    screen = laptop.screen().text
    assert "data-host-controls" in screen and "Take the host controls back" not in screen
    # Logged, and every page announces it.
    back = "The host controls came back to the laptop (from Bob)"
    assert back in screen and back in ann.phone().text and back in bob.phone().text
    assert "data-host-controls" not in bob.phone().text
    assert _log_kinds(app, laptop.code)[-2:] == ["host", "host_back"]
    assert laptop.host("undo").status_code in (303, 409)  # a host again (nothing to undo: 409)
    # Already home: a plain refusal, nothing changed.
    version = laptop.version()
    again = laptop.host("take-host")
    assert again.status_code == 409 and "already on this laptop" in again.text
    assert laptop.version() == version


def test_an_imported_tables_host_link_gives_the_controls(app):
    laptop, (ann, _bob) = seated_table(app, "tally", ["Ann", "Bob"], start=False)
    assert laptop.host("hand-host", seat=0).status_code == 303
    exported = ann.get(f"/t/{laptop.code}/export")  # Ann holds the controls
    assert exported.status_code == 200
    with app.app_context():
        from companion import importing
        from companion.db import get_db

        export = importing.check(importing.read(exported.data), app.config["GAMES"])
        imported, host_token = importing.import_table(get_db(), export, by_laptop=True)
    other = Device(app)
    assert other.get(f"/h/{host_token}").status_code == 303
    assert imported["host_seat"] is None
    assert "data-host-controls" in other.get(f"/t/{imported['code']}").text
    # The lobby's import too.
    upload = Device(app).post("/import", {"file": (io.BytesIO(exported.data), "t.json")},
                              content_type="multipart/form-data")
    assert upload.status_code == 303


def _form(html: str, action_end: str):
    return next(form for form in parse_forms(html) if form.action.endswith(action_end))


def test_every_action_form_carries_a_key_of_its_own(app):
    laptop, (ann, _bob) = seated_table(app, "tally", ["Ann", "Bob"])
    forms = [form for form in parse_forms(laptop.screen().text + ann.phone().text)
             if form.action.startswith(f"/t/{laptop.code}/")]
    keys = [form.defaults().get("key") for form in forms]
    assert forms and all(re.fullmatch(r"[0-9a-f]{32}", key or "") for key in keys)
    host_keys = {form.defaults()["key"] for form in forms if "/me/" not in form.action}
    assert len(host_keys) == len({form.action for form in forms if "/me/" not in form.action})
    # The same page drawn again has the same keys (a kept page is the fresh page).
    assert laptop.screen().text == laptop.screen().text


def test_an_action_sent_twice_is_answered_as_the_first_time_and_stored_once(app):
    laptop, (ann, _bob) = seated_table(app, "tally", ["Ann", "Bob"])
    form = _form(ann.phone().text, "/me/act")
    fields = {**form.defaults(), "type": "add", "amount": "3"}
    first = ann.post(form.action, fields)
    again = ann.post(form.action, fields)
    assert first.status_code == again.status_code == 303
    assert first.headers["Location"] == again.headers["Location"]
    assert table_of(app, laptop.code)["state"]["total"] == 3
    assert _log_kinds(app, laptop.code).count("act") == 1
    # Another choice on that old form (a second tab) is told the table moved on.
    other = ann.post(form.action, {**fields, "amount": "4"})
    assert other.status_code == 409 and "moved on" in other.text
    # A host control sent twice, too.
    end = _form(laptop.screen().text, "/close")
    assert laptop.post(end.action, end.defaults()).status_code == 303
    assert laptop.post(end.action, end.defaults()).status_code == 303
    assert _log_kinds(app, laptop.code).count("close") == 1
