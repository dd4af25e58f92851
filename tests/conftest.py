"""Fixtures (flaskr style): an app on a temporary database, and its test client."""

from __future__ import annotations

import random

import pytest
from jinja2 import ChoiceLoader, FileSystemLoader

from companion import create_app
from companion.games import discover
from tests.support import TEMPLATES, tally


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
