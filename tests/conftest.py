"""Fixtures (flaskr style): an app on a temporary database, and its test client."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from jinja2 import ChoiceLoader, FileSystemLoader

from companion import create_app
from companion.games import discover
from tests import tally

TESTS = Path(__file__).resolve().parent


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
                                     FileSystemLoader(str(TESTS / "templates"))])
    return app


@pytest.fixture
def client(app):
    return app.test_client()


def csrf_of(html: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', html)
    assert found, "the page has no CSRF field"
    return found.group(1)


def version_of(html: str) -> int:
    found = re.search(r'name="version" value="(\d+)"', html) or re.search(
        r'data-version="(\d+)"', html)
    assert found, "the page shows no version"
    return int(found.group(1))
