"""Pages drawn once per table version and viewer.

A device that asks again for the page it already has (a reload, or every phone of a
room fetching its view when its stream comes back after a Wi-Fi blip: bench/storm.py)
gets the same bytes without the page being drawn again. A page is kept under
everything it was drawn from: the table's version and its last log entry (an undo, a
new seat link: every change adds one or bumps the version), the viewer's seat, the host
flag (and whether it is the laptop that may take the controls back), whole page or
component, the address the page was asked at (the join link and QR code name it, the language
switch comes back to it), the device's session CSRF token (its forms carry it and their
keys) and the device's language, so nobody
is ever given a page drawn for someone else. Pages with query arguments (the Letters
from Whitechapel map's chosen circle) or for a device without a session yet are drawn
every time, and so are pages drawn from the laptop's clock (the seconds left of Wo ist
Jack the Ripper's print window: ``context.seconds_until``). A table that has ended has
its pages let go (``forget``), and its pages are not kept again: its devices read it a
last time, nobody plays on it.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Any

from flask import Response, current_app, g, request, session

from companion.web import wants_component
from companion.web.context import is_host, is_host_home, load
from companion.web.i18n import chosen_language
from companion.web.pages import page

BUDGET = 24 * 1024 * 1024
"""Bytes of HTML kept (the oldest page goes first): a room of 400 devices keeps each
one's London 1888 view (17 KB) in under a third of it, only each table's newest
version being kept."""


class PageCache:
    """The kept pages: a bounded, thread-safe least-recently-used map that keeps only
    each table's newest version (nobody asks for an older one again)."""

    def __init__(self, budget: int = BUDGET) -> None:
        self.budget = budget
        self.size = 0
        self.pages: OrderedDict[Hashable, bytes] = OrderedDict()
        self.newest: dict[int, tuple[int, set[Hashable]]] = {}  # table: version, its keys
        self.ended: set[int] = set()  # tables let go: a page drawn before the end stays out
        self.lock = threading.Lock()

    def get(self, key: Hashable) -> bytes | None:
        with self.lock:
            html = self.pages.get(key)
            if html is not None:
                self.pages.move_to_end(key)
            return html

    def forget(self, table: int) -> None:
        """The table ended: its pages, and its entry among the newest, go, and none of its
        pages is kept again (one drawn just before it ended may be put after this)."""
        with self.lock:
            self.ended.add(table)
            _version, keys = self.newest.pop(table, (0, set()))
            for key in keys:
                self.size -= len(self.pages.pop(key, b""))

    def put(self, key: Hashable, html: bytes, table: int, version: int) -> None:
        with self.lock:
            newest, keys = self.newest.get(table, (version, set()))
            if version < newest or key in self.pages or table in self.ended:
                return
            if version > newest:
                for old in keys:
                    self.size -= len(self.pages.pop(old, b""))
                keys = set()
            self.newest[table] = (version, keys)
            keys.add(key)
            self.pages[key] = html
            self.size += len(html)
            while self.size > self.budget:
                _key, old_html = self.pages.popitem(last=False)
                self.size -= len(old_html)


def _key(table: dict[str, Any], last_log: int | None, viewer: Any,
         seat: dict[str, Any] | None, host: bool) -> Hashable | None:
    if request.args or "csrf" not in session:
        return None
    return (table["id"], table["version"], last_log, viewer,
            None if seat is None else seat["position"], host, is_host_home(table),
            wants_component(), request.host_url, request.path, session["csrf"],
            chosen_language())


def page_cache() -> PageCache:
    """This app's kept pages."""
    return current_app.extensions.setdefault("page_cache", PageCache())


def cached_page(head: dict[str, Any], viewer: Any, seat: dict[str, Any] | None) -> Response:
    """The page of ``viewer`` (TABLE: the table screen, else that seat's phone) at the
    table ``head`` (tables.table_head), with ``seat`` the device's own: the kept one,
    or drawn afresh and kept for next time under what was drawn."""
    pages = page_cache()
    key = _key(head, head["last_log"], viewer, seat, is_host(head, seat))
    html = pages.get(key) if key is not None else None
    if html is not None:
        return Response(html, mimetype="text/html")
    table, game = load(head["code"])
    host = is_host(table, seat)
    response = page(table, game, viewer, seat, host)
    # Kept under the version that was drawn (a change may have landed meanwhile) and
    # the log entry read before it: a key never claims a newer table than its page.
    drawn_key = _key(table, head["last_log"], viewer, seat, host)
    if (drawn_key is not None and response.status_code == 200 and table["status"] != "closed"
            and not g.get("drawn_from_clock")):
        pages.put(drawn_key, response.get_data(), table["id"], table["version"])
    return response
