"""A lost phone's new link (the host's re-join control) through the Flask client, from
phones' addresses: every new link is a new token and ends every earlier link of the
seat at once, whatever the form's key; a form sent again while nothing changed shows the
same link; every page says a new link was made, naming the seat as the table knows it;
the phone that lost its seat is told at once (issue 37, point 4)."""

from __future__ import annotations

import html
import re

from companion.db import get_db
from tests.support.hostile_files import rows
from tests.support.scripted import parse_forms
from tests.support.webflow import Device, seated_table, state_of, table_of

PHONE = "192.0.2.7"
NOTICE = re.compile(r"data-relinked>([^<]*)<")


def at_phones(phones: list[Device]) -> None:
    """Each phone on its own address on the Wi-Fi, not the laptop."""
    for number, phone in enumerate(phones):
        phone.client.environ_base["REMOTE_ADDR"] = f"192.0.2.{10 + number}"


def rejoin_form(device: Device, page: str, seat: int) -> dict[str, str]:
    """The re-join form as the host's page shows it, for ``seat``."""
    form = next(form for form in parse_forms(device.get(page).text)
                if form.action.endswith("/rejoin"))
    sent = {**form.defaults(), "seat": str(seat)}
    assert sent.get("key")
    return sent


def made(device: Device, fields: dict[str, str]) -> str:
    """The link the host's re-join form answers with."""
    page = device.post(f"/t/{device.code}/rejoin", fields)
    assert page.status_code == 200, page.text
    return re.search(r'class="address small">([^<]+)<', page.text).group(1) \
        .replace("http://localhost", "")


def notice(device: Device, page: str) -> str | None:
    found = NOTICE.search(device.get(page).text)
    return html.unescape(found.group(1)) if found else None


def rejoin_count(app, code: str) -> int:
    with app.app_context():
        return get_db().execute("SELECT count(*) FROM log WHERE table_id = ? AND kind = ?",
                                [table_of(app, code)["id"], "rejoin"]).fetchone()[0]


def test_a_new_link_ends_the_old_one_and_every_page_says_so(app):
    laptop, (ann, bob) = seated_table(app, "tally", ["Ann", "Bob"])
    at_phones([ann, bob])
    version = laptop.version()
    screen = f"/t/{laptop.code}"
    link = made(laptop, rejoin_form(laptop, screen, 1))
    assert laptop.version() == version + 1  # every page hears of it
    lost = bob.phone()
    assert lost.status_code == 404 and "seat link was replaced by the host" in lost.text
    assert notice(ann, f"/t/{laptop.code}/me") == "A new phone link was made for Bob's seat"
    assert notice(laptop, screen) == "A new phone link was made for Bob's seat"
    new_phone = Device(app, laptop.code)
    new_phone.client.environ_base["REMOTE_ADDR"] = PHONE
    assert new_phone.get(link).status_code == 303
    assert "Bob" in new_phone.phone().text
    assert ann.act("add", amount=1).status_code == 303
    assert notice(ann, f"/t/{laptop.code}/me") is None  # said until the table moves on
    assert ann.host("rejoin", seat=1).status_code == 403
    assert laptop.host("rejoin", seat=9).status_code == 422


def test_a_link_the_wrong_person_took_is_replaced_by_a_new_token(app):
    """The issue's case: the host's link for Bob was scanned by the wrong phone; the
    host's screen, drawn again, makes a new link, and the wrong phone loses the seat."""
    laptop, (ann, bob) = seated_table(app, "tally", ["Ann", "Bob"])
    at_phones([ann, bob])
    screen = f"/t/{laptop.code}"
    first = made(laptop, rejoin_form(laptop, screen, 1))
    wrong = Device(app, laptop.code)
    wrong.client.environ_base["REMOTE_ADDR"] = "198.51.100.9"  # a stranger on the Wi-Fi
    assert wrong.get(first).status_code == 303 and wrong.phone().status_code == 200
    second = made(laptop, rejoin_form(laptop, screen, 1))
    assert second != first
    assert wrong.phone().status_code == 404  # told at once: the seat is gone
    assert Device(app).get(first).status_code == 404  # the earlier link opens nothing
    bob_again = Device(app, laptop.code)
    assert bob_again.get(second).status_code == 303 and "Bob" in bob_again.phone().text


def test_a_rejoin_form_sent_twice_shows_the_same_link(app):
    """The answer to a re-join form lost with the connection: the resend shows the link
    the first made (which the host may already have shown the player), not one more that
    would replace it, while nothing changed since. After that it is refused, nothing
    changed; a new page's form makes a new link."""
    laptop, (ann, bob) = seated_table(app, "tally", ["Ann", "Bob"])
    at_phones([ann, bob])
    screen = f"/t/{laptop.code}"
    sent = rejoin_form(laptop, screen, 1)
    first = made(laptop, sent)
    assert made(laptop, sent) == first
    assert rejoin_count(app, laptop.code) == 1
    assert Device(app).get(first).status_code == 303
    other = made(laptop, rejoin_form(laptop, screen, 0))  # Ann's, from the page drawn anew
    assert other != first and rejoin_count(app, laptop.code) == 2
    before = rows(app.config["DATABASE"])
    again = laptop.post(f"/t/{laptop.code}/rejoin", sent)
    assert again.status_code == 409 and "replaced since" in again.text
    assert rows(app.config["DATABASE"]) == before


def test_a_new_link_is_a_new_token_whatever_the_forms_key(app):
    """A form's key alone never brings an earlier link back: the same key sent with the
    table's current version makes a new link, and the link before it stops working."""
    laptop, (ann, bob) = seated_table(app, "tally", ["Ann", "Bob"])
    at_phones([ann, bob])
    sent = rejoin_form(laptop, f"/t/{laptop.code}", 1)
    first = made(laptop, sent)
    again = made(laptop, {**sent, "version": str(laptop.version())})
    assert again != first
    assert Device(app).get(first).status_code == 404
    keyless = {key: value for key, value in sent.items() if key != "key"}
    third = made(laptop, {**keyless, "version": str(laptop.version())})
    assert third not in (first, again) and Device(app).get(again).status_code == 404


def test_a_host_phone_taking_jacks_seat_is_seen_by_every_phone(app):
    """The host controls on a detective's phone make a link for Jack's seat: Jack's
    phone is told at once it lost the seat, and every page says a new link was made."""
    laptop, (jack, detective) = seated_table(app, "mrjack", ["Ann", "Bob"])
    at_phones([jack, detective])
    assert laptop.host("hand-host", seat=1).status_code == 303
    link = made(detective, rejoin_form(detective, f"/t/{laptop.code}/me", 0))
    assert jack.phone().status_code == 404
    assert notice(detective, f"/t/{laptop.code}/me") == \
        "A new phone link was made for Ann's seat"
    assert notice(laptop, f"/t/{laptop.code}") == "A new phone link was made for Ann's seat"
    assert detective.get(link).status_code == 303


def test_the_notice_names_a_seat_as_the_table_knows_it(app):
    """London 1888 keeps who is Jack secret: a new link for Jack's seat and one for an
    Innocent's read alike, each naming the player, on every phone whatever its role."""
    names = ["Ann", "Bob", "Cy", "Di"]
    laptop, phones = seated_table(app, "london1888", names)
    at_phones(phones)
    lines = state_of(app, laptop.code)["lines"]
    jack = next(seat for seat, line in enumerate(lines) if "jack" in line)
    innocent = next(seat for seat in range(len(names)) if seat != jack)
    for seat in (jack, innocent):
        link = made(laptop, rejoin_form(laptop, f"/t/{laptop.code}", seat))
        phones[seat] = Device(app, laptop.code)
        phones[seat].client.environ_base["REMOTE_ADDR"] = PHONE
        assert phones[seat].get(link).status_code == 303
        said = {notice(phone, f"/t/{laptop.code}/me") for phone in phones}
        said.add(notice(laptop, f"/t/{laptop.code}"))
        assert said == {f"A new phone link was made for {names[seat]}'s seat"}
