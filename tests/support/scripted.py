"""Scripted players for the campaigns and the benchmark: a move chosen from the forms a
page really shows, checked against the game's own rules before it is sent.

Nothing here knows a particular game: a player reads the action forms of its page
(selects, radios, checkboxes, keypads, named submit buttons), fills them at random
and keeps the first filling that the game's ``apply`` accepts for the real state.
So every game that lands with its templates can be played by script, as a phone
would play it, with no per-game code. ``WEIGHTS`` only makes games last like real
ones (an arrest now and then, not every turn).
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

from companion import tables
from companion.db import connect
from companion.games.base import TABLE, Game, RuleError
from tests.support.webflow import game_log

FREE_TEXT = ("x", "Ann", "ü", "12")


@dataclass
class Form:
    """One HTML form as a browser would submit it."""

    action: str
    method: str
    fixed: dict[str, str] = field(default_factory=dict)
    selects: dict[str, list[str]] = field(default_factory=dict)
    selected: dict[str, str] = field(default_factory=dict)
    radios: dict[str, list[str]] = field(default_factory=dict)
    checked_radio: dict[str, str] = field(default_factory=dict)
    checkboxes: list[tuple[str, str, bool]] = field(default_factory=list)
    numbers: dict[str, int] = field(default_factory=dict)
    texts: list[str] = field(default_factory=list)
    buttons: list[tuple[str, str] | None] = field(default_factory=list)

    def types(self) -> list[str]:
        """The action types this form can post (a hidden field or named buttons)."""
        if "type" in self.fixed:
            return [self.fixed["type"]]
        return [button[1] for button in self.buttons if button and button[0] == "type"]

    def defaults(self) -> dict[str, str]:
        """What a browser sends when nothing is touched and the first button is pressed."""
        data = dict(self.fixed)
        for name, values in self.selects.items():
            if values:
                data[name] = self.selected.get(name, values[0])
        data.update(self.checked_radio)
        for name, value, checked in self.checkboxes:
            if checked:
                data[name] = value
        if self.buttons and self.buttons[0]:
            name, value = self.buttons[0]
            data[name] = value
        return data

    def scripted_setup(self) -> dict[str, str]:
        """A setup form's defaults for a table scripted players drive: numbers only,
        where the form offers a board (the shipped one is its default), since circles
        tapped about at random are nearly all refused on a board."""
        data = self.defaults()
        if "board" in self.selects:
            data["board"] = ""
        return data

    def sample(self, rng: random.Random, kind: str | None = None) -> dict[str, str]:
        """A random filling, as a player tapping about would send it."""
        data = dict(self.fixed)
        for name, values in self.selects.items():
            if values:
                data[name] = rng.choice(values)
        for name, values in self.radios.items():
            data[name] = rng.choice(values)
        if self.checkboxes:
            ticked = rng.sample(self.checkboxes, rng.randint(0, min(3, len(self.checkboxes))))
            for name, value, _checked in ticked:
                data[name] = value
        for name, high in self.numbers.items():
            # Small numbers are the usual answer (amounts, counts); any up to the max may be.
            data[name] = str(rng.randint(0, min(high, 12) if rng.random() < 0.6 else high))
        for name in self.texts:
            data[name] = rng.choice(FREE_TEXT)
        buttons = [b for b in self.buttons if b and (
            kind is None or "type" in self.fixed or b == ("type", kind))]
        if buttons:
            name, value = rng.choice(buttons)
            data[name] = value
        return data


class _FormParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[Form] = []
        self.form: Form | None = None
        self.select: str | None = None
        self.textarea: str | None = None
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {key: value or "" for key, value in attrs}
        present = {key for key, _ in attrs}
        if tag == "form":
            self.form = Form(a.get("action", ""), a.get("method", "get").lower())
            self.forms.append(self.form)
            return
        form = self.form
        if form is None or "disabled" in present:
            return
        name = a.get("name", "")
        if tag == "input" and name:
            kind = a.get("type", "text").lower()
            if kind == "hidden":
                form.fixed[name] = a.get("value", "")
            elif kind == "checkbox":
                form.checkboxes.append((name, a.get("value", "on"), "checked" in present))
            elif kind == "radio":
                form.radios.setdefault(name, []).append(a.get("value", "on"))
                if "checked" in present:
                    form.checked_radio[name] = a.get("value", "on")
            elif kind in ("submit", "button", "file", "image", "reset"):
                pass
            elif a.get("value"):
                form.fixed[name] = a["value"]
            elif "data-max" in a or "max" in a or a.get("inputmode") == "numeric":
                form.numbers[name] = int(a.get("data-max") or a.get("max") or 200)
            else:
                form.texts.append(name)
        elif tag == "select" and name:
            self.select = name
            form.selects[name] = []
        elif tag == "option" and self.select:
            form.selects[self.select].append(a.get("value", ""))
            if "selected" in present:
                form.selected[self.select] = a.get("value", "")
        elif tag == "textarea" and name:
            self.textarea, self.text = name, []
        elif tag == "button" and a.get("type", "submit").lower() == "submit":
            form.buttons.append((name, a.get("value", "")) if name else None)

    def handle_data(self, data: str) -> None:
        if self.textarea is not None:
            self.text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.form = None
        elif tag == "select":
            self.select = None
        elif tag == "textarea" and self.textarea is not None and self.form is not None:
            self.form.fixed[self.textarea] = "".join(self.text).lstrip("\n")
            self.textarea = None


def parse_forms(html: str) -> list[Form]:
    parser = _FormParser()
    parser.feed(html)
    parser.close()
    return parser.forms


def page_version(html: str) -> int | None:
    found = re.search(r'data-version="(\d+)"', html)
    return int(found.group(1)) if found else None


# How often a type is chosen among the legal ones, relative to 1.0: games then
# run like real ones (turns end, rounds advance) instead of arresting all night.
WEIGHTS: dict[str, dict[str, float]] = {
    "london1888": {"question": 4, "end_turn": 3, "next_round": 4, "black_market": 0.5,
                   "arrest": 0.15, "release": 0.5, "mark_dead": 0.05, "record_outcome": 0.02},
    "mrjack": {"accuse": 0.05, "escape": 0.2},
}


def _fillings(forms: list[Form], kind: str, rng: random.Random,
              tries: int) -> Iterator[tuple[Form, dict[str, str]]]:
    for _ in range(tries):
        form = rng.choice(forms)
        yield form, form.sample(rng, kind)
    for form in forms:
        yield form, {**form.defaults(), "type": kind}


def choose(game: Game, state: dict[str, Any], viewer: int | str, html: str,
           rng: random.Random, tries: int = 60,
           weights: Mapping[str, float] | None = None) -> tuple[str, dict[str, str]] | None:
    """A legal game action from the page's own action forms: (url, fields to post).

    Each filling is checked with the game's ``apply`` on the real state first, so the
    server is sent only moves it will accept (unless the table moved on meanwhile).
    """
    weights = WEIGHTS.get(game.NAME, {}) if weights is None else weights
    by_type: dict[str, list[Form]] = {}
    for form in parse_forms(html):
        if form.method == "post" and form.action.endswith("/act"):
            for kind in form.types():
                by_type.setdefault(kind, []).append(form)
    kinds = list(by_type)
    while kinds:
        kind = rng.choices(kinds, [weights.get(k, 1.0) for k in kinds])[0]
        kinds.remove(kind)
        # Random fillings, then what each form proposes as drawn (London 1888's outcome
        # form comes filled in with the one result the app knows: random boxes miss it).
        for form, fields in _fillings(by_type[kind], kind, rng, tries):
            action = {k: v for k, v in fields.items() if k not in ("csrf", "version")}
            try:
                game.apply(state, viewer, action, random.Random(rng.random()))
            except RuleError:
                continue
            return form.action, fields
    return None


# --- the action log, as the crash campaigns check it -------------------------------

def actor_of(name: str) -> int | str:
    return TABLE if name == TABLE else int(name.split(":", 1)[1])


def check_database(path: str, games: Mapping[str, Game]) -> int:
    """Every table's state equals the replay of its action log. Returns the number of
    actions replayed.

    The log keeps each resulting state: the table's state must be the last effective
    entry's, and each effective action applied to the state before it must give the
    logged state (checked only where ``apply`` draws nothing at random, which two
    different seeds tell)."""
    db = connect(path)
    replayed = 0
    try:
        rows = db.execute("SELECT id, game, version, status, game_no FROM tables").fetchall()
        for table_id, name, version, status, game_no in rows:
            assert db.execute("SELECT max(version) FROM log WHERE table_id = ?",
                              [table_id]).fetchone()[0] == version, "version not logged"
            state = tables.get_table_by_id(db, table_id)["state"]
            if state is None:
                continue
            game = games[name]
            entries = [entry for entry in game_log(db, table_id, game_no)
                       if entry["kind"] in ("start", "act") and not entry["undone"]]
            assert entries and entries[0]["kind"] == "start", "a game without its deal"
            previous = entries[0]["state"]
            for entry in entries[1:]:
                assert entry["kind"] == "act"
                actor, action, logged = entry["actor"], entry["action"], entry["state"]
                first = _plain(game.apply(previous, actor_of(actor), action, random.Random(1)))
                second = _plain(game.apply(previous, actor_of(actor), action, random.Random(2)))
                if first == second:
                    assert first == logged, f"table {table_id}: the log does not replay"
                    replayed += 1
                previous = logged
            assert previous == state, f"table {table_id}: state is not the log's"
            assert (status == "over") == game.is_over(previous) or status == "closed"
    finally:
        db.close()
    return replayed


def _plain(state: Any) -> Any:
    """The state as the log stores it (JSON: tuples become lists)."""
    return json.loads(json.dumps(state))
