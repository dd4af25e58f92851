"""Pages drawn once per table version and viewer (companion/web/page_cache.py): a kept page
is always byte for byte the page a fresh drawing gives that device, and never another
device's."""

from __future__ import annotations

import random

import pytest

from companion.games import discover
from companion.games.base import TABLE
from companion.web import context as web_context
from companion.web.page_cache import PageCache
from tests.support.scripted import choose, parse_forms
from tests.support.webflow import Device, seated_table, state_of

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve"]
COMPONENT = {"HX-Request": "true"}


def _setup(app, game: str, players: int):
    form = next(f for f in parse_forms(Device(app).get(f"/new/{game}").text)
                if f.action.endswith(f"/new/{game}"))
    options = {k: v for k, v in form.defaults().items() if k not in ("csrf", "players")}
    return seated_table(app, game, NAMES[:players], **options)


def _forget(app) -> None:
    app.extensions.pop("page_cache", None)


def _same_as_fresh(app, device: Device, path: str) -> None:
    """The page kept for this device equals the one drawn afresh, whole and component."""
    for headers in ({}, COMPONENT):
        kept_or_drawn = device.get(path, headers=headers)
        again = device.get(path, headers=headers)
        _forget(app)
        fresh = device.get(path, headers=headers)
        assert kept_or_drawn.status_code == again.status_code == fresh.status_code == 200
        assert kept_or_drawn.data == again.data == fresh.data, path


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(discover()))
def test_kept_pages_are_the_fresh_pages_through_a_whole_game(app, game):
    """Random legal play (the pages' own forms), a stranger and the host looking on,
    a seat link replaced and an undo on the way: at every step each device's kept page
    is the page drawn for it afresh."""
    players = min(max(discover()[game].MIN_PLAYERS, 3), discover()[game].MAX_PLAYERS)
    laptop, phones = _setup(app, game, players)
    stranger = Device(app, laptop.code)
    rng = random.Random(game)
    screen, mine = f"/t/{laptop.code}", f"/t/{laptop.code}/me"
    for step in range(30):
        _same_as_fresh(app, laptop, screen)
        _same_as_fresh(app, stranger, screen)
        seat = rng.randrange(players)
        _same_as_fresh(app, phones[seat], mine)
        if step == 10:
            # A new link for a seat: a new version, every page says so at its top.
            reply = laptop.post(f"/t/{laptop.code}/rejoin",
                                {"version": laptop.version(), "seat": 1},
                                headers={"Accept": "text/html"})
            assert reply.status_code == 200
            assert phones[1].get(mine).status_code == 404
            link = reply.text.split("/r/", 1)[1].split('"', 1)[0].split("<", 1)[0]
            phones[1] = Device(app, laptop.code)
            assert phones[1].get(f"/r/{link}").status_code == 303
            continue
        if step == 20:
            assert laptop.host("undo").status_code == 303
            continue
        viewer = rng.choice([TABLE, *range(players)])
        device = laptop if viewer == TABLE else phones[viewer]
        html = device.get(screen if viewer == TABLE else mine).text
        chosen = choose(app.config["GAMES"][game], state_of(app, laptop.code), viewer, html, rng)
        if chosen is not None:
            url, fields = chosen
            assert device.post(url, {**fields, "csrf": device.csrf}).status_code == 303


def test_a_page_asked_again_is_not_drawn_again(app, monkeypatch):
    laptop, phones = _setup(app, "london1888", 4)
    drawings = []
    original = web_context.page_context

    def counted(*args, **kwargs):
        drawings.append(args[2])
        return original(*args, **kwargs)

    monkeypatch.setattr("companion.web.pages.page_context", counted)
    mine = f"/t/{laptop.code}/me"
    for _ in range(3):
        phones[0].get(mine, headers=COMPONENT)
        laptop.get(f"/t/{laptop.code}", headers=COMPONENT)
    assert drawings == [0, TABLE]
    # The whole page is another page; another seat is another viewer.
    phones[0].get(mine)
    phones[1].get(mine, headers=COMPONENT)
    assert drawings == [0, TABLE, 0, 1]
    # A change draws everyone's page again.
    assert laptop.host("hand-host", seat=2).status_code == 303
    phones[0].get(mine, headers=COMPONENT)
    assert drawings == [0, TABLE, 0, 1, 0]


def test_the_host_page_is_never_given_to_a_stranger(app):
    """The host's laptop and a stranger ask for the same table screen at the same
    version: the stranger is not given the host's page (its controls, its token)."""
    laptop, _phones = _setup(app, "london1888", 4)
    stranger = Device(app, laptop.code)
    for _ in range(2):
        hosts = laptop.get(f"/t/{laptop.code}").text
        strangers = stranger.get(f"/t/{laptop.code}").text
        assert laptop.csrf in hosts and 'method="post"' in hosts
        assert laptop.csrf not in strangers and 'method="post"' not in strangers


def test_pages_with_query_arguments_are_drawn_every_time(app, monkeypatch):
    laptop, phones = _setup(app, "whitechapel", 3)
    drawings = []
    original = web_context.page_context
    monkeypatch.setattr("companion.web.pages.page_context",
                        lambda *a, **k: drawings.append(1) or original(*a, **k))
    for _ in range(2):
        assert phones[0].get(f"/t/{laptop.code}/me?to=1").status_code in (200, 422)
    assert len(drawings) == 2


def test_the_oldest_pages_go_first_when_the_budget_is_spent():
    pages = PageCache(budget=10)
    pages.put("a", b"1234", 1, 5)
    pages.put("b", b"1234", 2, 5)
    assert pages.get("a") == b"1234"  # now the newest
    pages.put("c", b"1234", 3, 5)
    assert pages.get("b") is None
    assert pages.get("a") == pages.get("c") == b"1234"
    assert pages.size == 8


def test_only_a_tables_newest_version_is_kept():
    pages = PageCache()
    pages.put("ann@5", b"12", 1, 5)
    pages.put("bob@5", b"34", 1, 5)
    pages.put("other table", b"56", 2, 3)
    pages.put("ann@6", b"78", 1, 6)
    assert pages.get("ann@5") is pages.get("bob@5") is None
    assert pages.get("ann@6") == b"78" and pages.get("other table") == b"56"
    pages.put("bob@5", b"34", 1, 5)  # drawn from the older version, kept no more
    assert pages.get("bob@5") is None
    assert pages.size == 4


def test_an_ended_tables_pages_are_let_go(app):
    """Ending the table lets go of every page kept for it (and its newest version), and
    the pages of an ended table are not kept again; another table's pages stay."""
    laptop, phones = _setup(app, "london1888", 4)
    other, _ = _setup(app, "london1888", 4)
    for device, path in ((laptop, f"/t/{laptop.code}"), (phones[0], f"/t/{laptop.code}/me"),
                         (other, f"/t/{other.code}")):
        device.get(path)
    pages: PageCache = app.extensions["page_cache"]
    kept_before = len(pages.pages)
    assert len(pages.newest) == 2
    assert laptop.host("close").status_code == 303
    assert len(pages.newest) == 1 and len(pages.pages) == 1 < kept_before
    for device, path in ((laptop, f"/t/{laptop.code}"), (phones[0], f"/t/{laptop.code}/me")):
        assert "ended" in device.get(path).text
    assert len(pages.newest) == 1 and len(pages.pages) == 1
    assert other.get(f"/t/{other.code}").status_code == 200


def test_forget_gives_back_the_tables_bytes():
    pages = PageCache()
    pages.put("ann@5", b"12", 1, 5)
    pages.put("other", b"345", 2, 3)
    pages.forget(1)
    pages.forget(7)  # never kept: nothing to do
    assert pages.get("ann@5") is None and pages.get("other") == b"345"
    assert pages.size == 3 and list(pages.newest) == [2]
    pages.put("ann@5", b"12", 1, 5)  # drawn just before the table ended, put after
    assert pages.get("ann@5") is None and pages.size == 3
