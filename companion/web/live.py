"""Server-sent events: each table's version, pushed the moment it changes.

Chosen over polling because an idle phone then costs one heartbeat every
15 seconds instead of a request every second (see bench/ and the README).
``companion serve`` holds the streams on its stream hub
(companion/server/streamhub.py); the route below serves the same events through WSGI
(the test client, any other server), one thread per stream.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from flask import Blueprint, Response, current_app, jsonify

from companion.broadcast import HEARTBEAT, event
from companion.web.context import load, load_head

bp = Blueprint("live", __name__, url_prefix="/t/<code>")

HEADERS = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
"""A stream's own headers, here and on the hub's streams (beside the security headers)."""


@bp.get("/events")
def events(code: str) -> Response:
    table, _game = load(code)
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


@bp.get("/version")
def version(code: str) -> Response:
    """The table's version, for a page that cannot hold an event stream."""
    return jsonify(version=load_head(code)["version"])

