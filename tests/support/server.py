"""`companion serve` as the browser and crash tests run it: the same app factory and
the same waitress server, plus the test game.
Usage: python -m tests.support.server PORT DB [BOARD ...]
(board files to load, as with --board; the developer's instance/boards is never read)"""

from __future__ import annotations

import os
import random
import sys

from jinja2 import ChoiceLoader, FileSystemLoader

from companion import create_app
from companion.games import discover
from companion.server import make_server
from tests.support import TEMPLATES, tally


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
    server = make_server(app, "127.0.0.1", port, devices=64)
    print(f"ready {url}", flush=True)
    server.run()


if __name__ == "__main__":
    main()
