"""Playing a table through the Flask test client, as phones and the laptop would."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from companion import tables
from companion.db import get_db
from tests.support.html import csrf_of


class Device:
    """One browser: the laptop (host) or a phone, with its own cookies."""

    def __init__(self, app: Flask, code: str | None = None) -> None:
        self.client: FlaskClient = app.test_client()
        self.code = code
        self.csrf = csrf_of(self.client.get("/").text)

    def get(self, path: str, **kwargs: Any) -> TestResponse:
        return self.client.get(path, **kwargs)

    def post(self, path: str, data: dict[str, Any] | None = None,
             **kwargs: Any) -> TestResponse:
        return self.client.post(path, data={"csrf": self.csrf, **(data or {})}, **kwargs)

    # --- pages -----------------------------------------------------------
    def screen(self) -> TestResponse:
        return self.get(f"/t/{self.code}")

    def phone(self) -> TestResponse:
        return self.get(f"/t/{self.code}/me")

    def version(self) -> int:
        return int(self.get(f"/t/{self.code}/version").get_json()["version"])

    # --- acting ----------------------------------------------------------
    def act(self, kind: str, version: int | None = None, **fields: Any) -> TestResponse:
        """A game action from this phone's seat (with the current version unless given)."""
        return self.post(f"/t/{self.code}/me/act", {
            "type": kind, "version": self.version() if version is None else version,
            **{key: str(value) for key, value in fields.items()}})

    def table_act(self, kind: str, version: int | None = None,
                  **fields: Any) -> TestResponse:
        """A game action at the table screen (host only)."""
        return self.post(f"/t/{self.code}/act", {
            "type": kind, "version": self.version() if version is None else version,
            **{key: str(value) for key, value in fields.items()}})

    def host(self, control: str, version: int | None = None, **fields: Any) -> TestResponse:
        """A host control: start, undo, hand-host, rejoin, remove-seat, close."""
        return self.post(f"/t/{self.code}/{control}", {
            "version": self.version() if version is None else version,
            **{key: str(value) for key, value in fields.items()}})


def create_table(app: Flask, game: str, players: int, **options: Any) -> Device:
    """The laptop creates a table; returns the host device with the table's code."""
    laptop = Device(app)
    response = laptop.post(f"/new/{game}", {"players": players, **options})
    assert response.status_code == 303, response.text
    laptop.code = response.headers["Location"].rstrip("/").rsplit("/", 1)[-1]
    return laptop


def join(app: Flask, code: str, seat: int, name: str) -> Device:
    """A phone scans the code and sits at ``seat``."""
    phone = Device(app, code)
    response = phone.post(f"/j/{code}", {"seat": seat, "name": name})
    assert response.status_code == 303, response.text
    return phone


def seated_table(app: Flask, game: str, names: list[str], start: bool = True,
                 **options: Any) -> tuple[Device, list[Device]]:
    """A table with every seat taken (in order) and, by default, the game started."""
    laptop = create_table(app, game, len(names), **options)
    phones = [join(app, laptop.code, seat, name) for seat, name in enumerate(names)]
    if start:
        response = laptop.host("start")
        assert response.status_code == 303, response.text
    return laptop, phones


def table_of(app: Flask, code: str) -> dict[str, Any]:
    """The table's row as stored (its state decoded), read as the app reads it."""
    with app.app_context():
        table = tables.get_table(get_db(), code)
    assert table is not None, code
    return table


def state_of(app: Flask, code: str) -> Any:
    return table_of(app, code)["state"]


def game_log(db: Any, table_id: int, game_no: int) -> list[dict[str, Any]]:
    """One game's log entries with their states: the table's history as its export reads
    it (``tables.history``)."""
    return [entry for entry in tables.history(db, table_id) if entry["game_no"] == game_no]
