"""`companion serve` as the browser and crash tests run it: the same app factory and
the same waitress server, plus the test game.
Usage: python -m tests.support.server PORT DB [BOARD ...]
(board files to load, as with --board; the developer's instance/boards is never read)"""

from __future__ import annotations

import os
import random
import sys
import threading
from collections.abc import Callable, Iterable
from typing import Any

from jinja2 import ChoiceLoader, FileSystemLoader

from companion import create_app
from companion.games import discover
from companion.server import make_server
from tests.support import TEMPLATES, tally


def access_logged(app: Callable, path: str) -> Callable:
    """The WSGI app, writing a line per request to ``path`` once answered: method, path,
    Range header, status (a test counts what a browser fetched; the product logs no
    request, since an address can hold a seat's token)."""
    lock = threading.Lock()

    def logged(environ: dict[str, Any], start_response: Callable) -> Iterable[bytes]:
        def start(status: str, headers: list, *args: Any) -> Callable:
            line = " ".join([environ["REQUEST_METHOD"], environ["PATH_INFO"],
                             environ.get("HTTP_RANGE", "-").replace(" ", ""),
                             status.split()[0]])
            with lock, open(path, "a", encoding="utf-8") as log:
                log.write(line + "\n")
            return start_response(status, headers, *args)
        return app(environ, start)

    return logged


def main() -> None:
    port, db, boards = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
    url = f"http://127.0.0.1:{port}"
    app = create_app({"DATABASE": db, "PUBLIC_URLS": [url],
                      "GAMES": {**discover(), tally.NAME: tally},
                      "BOARD_DIR": "", "BOARD_PATHS": boards})
    # Deals from random.Random(seed): two servers given the same actions deal the same
    # games (the glance tests compare two games that differ only in a secret).
    seed = os.environ.get("COMPANION_TEST_SEED")
    if seed:
        app.config["RNG"] = random.Random(int(seed))
    app.jinja_loader = ChoiceLoader([app.jinja_loader,
                                     FileSystemLoader(str(TEMPLATES))])
    access_log = os.environ.get("COMPANION_TEST_ACCESS_LOG")
    if access_log:
        app.wsgi_app = access_logged(app.wsgi_app, access_log)
    server = make_server(app, "127.0.0.1", port, devices=64)
    print(f"ready {url}", flush=True)
    server.run()


if __name__ == "__main__":
    main()
