"""No English left in German and French: every page a device reaches is drawn in the
pseudo language (tests/support/pseudo.py), where every word that went through a
catalogue stands between ⟦ and ⟧; a word outside them would read English in every
language.

For every game a table is played by script (tests/support/crawler.py, as the secrets
crawl plays it); at each checkpoint every device (the host's laptop, each seat's phone,
a bystander's table screen, a stranger) reads every page it can reach, and the refusals
of the action forms it is shown. The laptop's own pages (the lobby, setup, decks,
tournaments, the history) are read too.
"""

from __future__ import annotations

import random

import pytest

from companion.games import london1888, wo_ist_jack
from companion.games.base import TABLE
from companion.web.i18n import LANGUAGES
from tests.support.campaign import NAMES, playable_games
from tests.support.crawler import (
    CHECKPOINTS,
    Browser,
    crawl,
    move,
    open_table,
    refused_submissions,
    table_of,
)
from tests.support.pseudo import pseudo_language, unmarked

pytestmark = pytest.mark.slow  # a campaign per game: the full suite runs it

# What reads the same in every language: people's and places' names, the cards that keep
# their German names (docs/RULINGS.md, "Words of the editions"), the app's name, each
# language's own name on the switch, the example code, the nights' Roman numerals.
PROPER_NAMES = (
    *london1888.CORE_CHARACTERS, *london1888.EXTRA_CHARACTERS, "Scotland Yard",
    *(c["full_name"] for c in london1888.CHARACTERS.values()),
    wo_ist_jack.REPORTER_IN_U_HAFT, wo_ist_jack.REPORTERTEAM, wo_ist_jack.DRUCKMASCHINE,
    "U-Haft", *wo_ist_jack.GLOSSES.values(),  # the English glosses, drawn in English only
    *wo_ist_jack.RULEBOOK_STORIES, "Companion", *LANGUAGES.values(), "ABCD",
    "IV", "III", "II")
LAPTOP_PAGES = ["/", "/history", "/tournaments", "/decks"]
# The language switch would leave the pseudo language; the test game is no product.
AVOID = ("/static/", "/language/", "/new/tally")
REDIRECT = "<title>Redirecting...</title>"  # werkzeug's body of a 303: a browser never shows it


@pytest.mark.parametrize("name", sorted(playable_games()))
def test_every_page_of_a_game_goes_through_the_catalogue(app, name):
    game = app.config["GAMES"][name]
    app.config.update(LIVE_HEARTBEAT=0.001, LIVE_LIFETIME=0.002)
    rng = random.Random(name)
    with pseudo_language():
        code, laptop, phones = open_table(app, game)
        devices = [laptop, *phones, Browser(app, "bystander's table screen", TABLE),
                   Browser(app, "stranger", None)]
        # Names people gave (players, the table's code, a board's file) and the games'
        # titles as their boxes print them in every language.
        allowed = [*NAMES, code, "http://localhost", *app.config["BOARDS"],
                   *(each.TITLE for each in app.config["GAMES"].values()), *PROPER_NAMES]
        moves = read = 0
        left: dict[str, set[str]] = {}
        for checkpoint in CHECKPOINTS:
            while moves < checkpoint and move(app, game, code, [laptop, *phones], rng):
                moves += 1
            state = table_of(app, code)["state"]
            for device in devices:
                start = [f"/t/{code}", f"/j/{code}", f"/new/{name}", *LAPTOP_PAGES]
                if isinstance(device.viewer, int):
                    start.insert(0, f"/t/{code}/me")
                responses = [(what, text) for what, _path, text
                             in crawl(device, start, AVOID) if not what.startswith("headers")]
                if device.viewer is not None:
                    page = device.client.get(start[0]).get_data(True)
                    responses += [(what, text) for what, _path, text in refused_submissions(
                        device, game, state, page, rng) if not what.startswith("headers")]
                for what, text in responses:
                    if not text.lstrip().startswith("<") or REDIRECT in text:
                        continue  # an event stream, a JSON export, a redirect: no page
                    read += 1
                    for words in unmarked(text, allowed):
                        left.setdefault(words, set()).add(f"{device.label}: {what}")
    assert moves >= 3, f"the scripted {name} game did not get going"
    assert read > 50
    assert not left, "English that no catalogue translates:\n" + "\n".join(
        f"  {words!r}  ({sorted(where)[0]})" for words, where in sorted(left.items()))
