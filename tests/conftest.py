"""Fixtures (flaskr style): an app on a temporary database, and its test client."""

from __future__ import annotations

import os
import random
import tempfile
from pathlib import Path

import pytest
from jinja2 import ChoiceLoader, FileSystemLoader

from companion import create_app
from companion.games import discover
from tests.support import TEMPLATES, tally
from tests.support.history_games import mrjack_game


def pytest_configure(config: pytest.Config) -> None:
    """Temporary databases on the RAM disk where there is one (Linux's /dev/shm), unless
    TMPDIR or --basetemp says otherwise. Every action commits with synchronous=FULL, and on
    the shared development machine's disk each fsync took 4 ms: over the quick set, more
    wall time than the tests' own work. A killed server loses nothing there either."""
    ram = Path("/dev/shm")
    if (config.option.basetemp is None and "TMPDIR" not in os.environ
            and ram.is_dir() and os.access(ram, os.W_OK)):
        tempfile.tempdir = str(ram)


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """`-n auto` (pyproject.toml) starts two workers per core: a test spends much of its
    time waiting (on Chromium, on its server, on a server restarting after a kill), and
    two tests a core keep the cores busy where one would leave them idle half the time
    (docs/PERFORMANCE.md, "The test suite"). `-n 2` or `-n 0` still say otherwise."""
    return 2 * (os.cpu_count() or 1)


@pytest.fixture
def app(tmp_path):
    app = create_app({
        "TESTING": True,
        "DATABASE": str(tmp_path / "companion.sqlite"),
        "GAMES": {**discover(), tally.NAME: tally},
        "RNG": random.Random(1888),
        "BOARD_DIR": str(tmp_path / "boards"),  # never the developer's instance/boards
    })
    # The test game's templates live with the tests, never in the product.
    app.jinja_loader = ChoiceLoader([app.jinja_loader,
                                     FileSystemLoader(str(TEMPLATES))])
    return app


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def played(app):
    """Three finished games of Mr. Jack for the history's pages (tests/web/test_history.py,
    tests/i18n/test_club.py): Ann (Jack) loses to Bob, then "anna " (Jack) beats Cy, and
    Dee beats Bob."""
    mrjack_game(app, "Ann", "Bob")
    mrjack_game(app, "ann ", "Cy", detective_wins=False)
    mrjack_game(app, "Dee", "Bob", detective_wins=False)
    return app
