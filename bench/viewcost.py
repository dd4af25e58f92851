"""What one view costs the server: CPU per phone and table-screen component, and where
it goes (a profile), for a London 1888 table of 7 in play.

Usage: python bench/viewcost.py [--game london1888] [--repeat 200] [--top 25]

In one process, without a network (the Flask test client): a table is created, seated
and dealt, then the phone's and the table screen's components are fetched --repeat
times each, as a live refresh fetches them (each drawn afresh, as after a change), and
the phone's once more as kept since the last fetch. Prints CPU ms per fetch and the
profile's heaviest entries (cumulative) of drawing the phone's. bench/clubnight.py's
figure "server CPU per action" is about one action plus one drawing per other device
of the table.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion import create_app  # noqa: E402
from tests.support.scripted import parse_forms  # noqa: E402
from tests.support.webflow import Device, seated_table  # noqa: E402

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus"]


def cpu_ms(fetch, repeat: int) -> float:
    started = time.process_time()
    for _ in range(repeat):
        fetch()
    return (time.process_time() - started) / repeat * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="london1888")
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"DATABASE": f"{tmp}/c.sqlite", "BOARD_DIR": tmp,
                          "PUBLIC_URLS": ["http://192.0.2.1:8000"]})
        form = next(form for form in parse_forms(Device(app).get(f"/new/{args.game}").text)
                    if form.action.endswith(args.game))
        options = {key: value for key, value in form.defaults().items()
                   if key not in ("csrf", "players")}
        game = app.config["GAMES"][args.game]
        players = min(max(7, game.MIN_PLAYERS), game.MAX_PLAYERS)
        laptop, phones = seated_table(app, args.game, NAMES[:players], **options)
        component = {"HX-Request": "true"}

        def phone(kept: bool = False):
            if not kept:  # a new version: the page is drawn (companion/web/page_cache.py)
                app.extensions.pop("page_cache", None)
            return phones[0].get(f"/t/{laptop.code}/me", headers=component)

        def screen():
            app.extensions.pop("page_cache", None)
            return laptop.get(f"/t/{laptop.code}", headers=component)

        for _ in range(20):
            phone(), screen()
        print(f"{args.game}, {players} seats: phone component {cpu_ms(phone, args.repeat):.2f} "
              f"ms CPU ({len(phone().data)} bytes of HTML), table screen component "
              f"{cpu_ms(screen, args.repeat):.2f} ms CPU; the phone's component asked "
              f"again at the same version (kept) {cpu_ms(lambda: phone(True), args.repeat):.2f}"
              " ms CPU")
        profile = cProfile.Profile()
        profile.enable()
        for _ in range(args.repeat):
            phone()
        profile.disable()
        out = io.StringIO()
        pstats.Stats(profile, stream=out).sort_stats("cumulative").print_stats(args.top)
        print(out.getvalue())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
