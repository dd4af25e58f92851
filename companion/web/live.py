"""Server-sent events: each table's version, pushed the moment it changes.

Chosen over polling because an idle phone then costs one heartbeat every
15 seconds instead of a request every second (see bench/ and the README).
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from flask import Blueprint, Response, current_app, jsonify

from companion.web.context import load

bp = Blueprint("live", __name__, url_prefix="/t/<code>")


@bp.get("/events")
def events(code: str) -> Response:
    table, _game = load(code)
    broadcaster = current_app.extensions["broadcaster"]
    heartbeat = current_app.config["LIVE_HEARTBEAT"]
    lifetime = current_app.config["LIVE_LIFETIME"]
    table_id, start = table["id"], table["version"]

    def stream() -> Iterator[str]:
        # The first event tells a page that reconnects (after sleep or a server
        # restart) whether it missed a change.
        yield f"retry: 1500\nevent: changed\ndata: {start}\n\n"
        seen = start
        # A stream ends after a while so that threads of vanished phones come back;
        # the browser reconnects by itself.
        deadline = time.monotonic() + lifetime
        while time.monotonic() < deadline:
            latest = broadcaster.wait(table_id, seen, heartbeat)
            if latest > seen:
                seen = latest
                yield f"event: changed\ndata: {seen}\n\n"
            else:
                yield ": still here\n\n"

    return Response(stream(), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


@bp.get("/version")
def version(code: str) -> Response:
    """The table's version, for a page that cannot hold an event stream."""
    table, _game = load(code)
    return jsonify(version=table["version"])
