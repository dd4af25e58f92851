"""Server-sent events: each table's version, pushed the moment it changes.

A page of a table listens to ``/t/<code>/events``. A browser with many of the app's pages
open (an organiser's laptop: the board, a round, several table screens) would hold one
stream per page, and Chromium gives a host only 6 connections over HTTP/1.1: the 7th page
stalled. So its pages share one stream, ``/events?t=CODE&t=CODE``, held by a
SharedWorker (static/live-worker.js), whose events name their table (docs/ARCHITECTURE.md,
"Live updates").

Chosen over polling because an idle phone then costs one heartbeat every
15 seconds instead of a request every second (see bench/ and the README).
``companion serve`` holds the streams on its stream hub
(companion/server/streamhub.py); the route below serves the same events through WSGI
(the test client, any other server), one thread per stream.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from flask import Blueprint, Response, abort, current_app, jsonify, request

from companion import tables
from companion.broadcast import HEARTBEAT, event
from companion.db import get_db
from companion.web.context import load_head
from companion.words import _

bp = Blueprint("live", __name__)

SHARED_MAX = 64
"""Tables one shared stream follows at most (a club's evening has far fewer)."""

HEADERS = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
"""A stream's own headers, here and on the hub's streams (beside the security headers)."""


def shared_codes(values: list[str]) -> list[str]:
    """The distinct table codes a shared stream asks for, normalised, at most SHARED_MAX."""
    codes = dict.fromkeys(tables.normalise_code(value) for value in values if value)
    return list(codes)[:SHARED_MAX]


@bp.get("/t/<code>/events")
def events(code: str) -> Response:
    # The table's head: its version without reading (and decompressing) its state.
    table = load_head(code)
    broadcaster = current_app.extensions["broadcaster"]
    heartbeat = current_app.config["LIVE_HEARTBEAT"]
    lifetime = current_app.config["LIVE_LIFETIME"]
    table_id, start = table["id"], table["version"]
    # Under `companion serve` the hub holds streams. A request that still lands here
    # (pipelined behind another, or HEAD) gets the first event only, so that it never
    # holds a server thread; the browser reconnects, to the hub.
    hubbed = "stream_hub" in current_app.extensions

    def stream() -> Iterator[str]:
        # The first event tells a page that reconnects (after sleep or a server
        # restart) whether it missed a change.
        yield event(start, first=True)
        if hubbed:
            return
        seen = start
        # A stream ends after a while so that threads of vanished phones come back;
        # the browser reconnects by itself.
        deadline = time.monotonic() + lifetime
        while time.monotonic() < deadline:
            latest = broadcaster.wait(table_id, seen, heartbeat)
            if latest > seen:
                seen = latest
                yield event(seen)
            else:
                yield HEARTBEAT

    return Response(stream(), mimetype="text/event-stream", headers=HEADERS)


@bp.get("/events")
def shared_events() -> Response:
    """One browser's shared stream: the tables ``t`` (repeated) of its open pages; a code
    with no table is left out. The same events as a page's own stream, each naming its
    table."""
    watched: dict[int, tuple[str, int]] = {}  # table id: its code and version
    for code in shared_codes(request.args.getlist("t")):
        opened = tables.table_version(get_db(), code)
        if opened is not None:
            watched[opened[0]] = (code, opened[1])
    if not watched:
        abort(404, _("None of these tables is on this laptop."))
    broadcaster = current_app.extensions["broadcaster"]
    heartbeat = current_app.config["LIVE_HEARTBEAT"]
    lifetime = current_app.config["LIVE_LIFETIME"]
    hubbed = "stream_hub" in current_app.extensions

    def stream() -> Iterator[str]:
        for index, (code, version) in enumerate(watched.values()):
            yield event(version, first=index == 0, code=code)
        if hubbed:
            return
        seen = {table_id: version for table_id, (_code, version) in watched.items()}
        deadline = time.monotonic() + lifetime
        while time.monotonic() < deadline:
            changed = broadcaster.wait_any(seen, heartbeat)
            for table_id, version in changed.items():
                seen[table_id] = version
                yield event(version, code=watched[table_id][0])
            if not changed:
                yield HEARTBEAT

    return Response(stream(), mimetype="text/event-stream", headers=HEADERS)


@bp.get("/t/<code>/version")
def version(code: str) -> Response:
    """The table's version, for a page that cannot hold an event stream."""
    return jsonify(version=load_head(code)["version"])

