"""Non-interference (docs/TESTING.md, "Each promise"): a viewer's page depends only on what
that viewer may know.

Give two states that differ only in a hidden fact; for every viewer not entitled
to it, the game's view, its allowed actions and the rendered HTML component
must be identical, byte for byte (after masking the CSRF token).
"""

from __future__ import annotations

import itertools
import json
import random
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from flask import Flask, render_template

from companion.games.base import TABLE, Game
from companion.web.i18n import LANGUAGES
from companion.words import Text
from tests.support.html import at_rest

# Each drawing is a new session: its CSRF token, and the forms' keys made from it
# (companion.web.form_key), differ by themselves.
MASKS = [(re.compile(r'name="(csrf|key)" value="[^"]*"'), r'name="\1" value="-"')]


def masked(html: str) -> str:
    """``html`` with the device's CSRF token and the forms' keys masked: random per device
    and version, they may hold any digits (a hideout's among them) by chance."""
    for pattern, replacement in MASKS:
        html = pattern.sub(replacement, html)
    return html


def render_component(app: Flask, game: Game, state: dict[str, Any], viewer: int | str,
                     host: bool = True, query: str = "", language: str = "en") -> str:
    """The game's own component for ``viewer``, as the table screen or a phone shows it
    (at an address with ``query``, "?cop=blue", for a pick that lives in the address), in
    ``language``."""
    names = state_names(state)
    seats = [{"position": n, "label": f"Seat {n}", "name": name, "claimed": True}
             for n, name in enumerate(names)]
    table = {"code": "TEST", "status": "over" if game.is_over(state) else "playing",
             "version": 7, "game_no": 1, "host_seat": None, "options": {}}
    template = "_table.html" if viewer == TABLE else "_seat.html"
    may = game.actions(state, viewer) if not game.is_over(state) else []
    if viewer == TABLE and not host:
        may = []
    with app.test_request_context("/" + query, headers={"Accept-Language": language}):
        html = render_template(
            f"games/{game.NAME}/{template}", view=game.view(state, viewer), actions=may,
            table=table, seats=seats, host=host,
            me=None if viewer == TABLE else seats[viewer] if seats else None,
            act_url="/act", game={"name": game.NAME, "title": game.TITLE})
    return masked(html)


# The join QR code of the table screen draws the table's random code.
QR = re.compile(r'(<div class="qr-box" data-qr>).*?(</div>)', re.S)


def page_at_rest(html: str, code: str) -> str:
    """A whole page (a refused action's answer, say) as it compares between two tables:
    the CSRF token and the table's random code masked (its QR code too), what shows only
    when held or opened by a tap dropped (tests/support/html.at_rest)."""
    for pattern, replacement in [*MASKS, (QR, r"\1-\2")]:
        html = pattern.sub(replacement, html)
    return at_rest(re.sub(rf"\b{re.escape(code)}\b", "CODE", html))


def same_answer(tables: Sequence[tuple[Any, Sequence[Any]]], actor: int | str,
                action: Mapping[str, str], headers: Mapping[str, str] | None = None) -> Any:
    """Send ``action`` at each table (tests/support/webflow.py's laptop and phones: the
    phone of seat ``actor``, or the table screen for TABLE): None when both accept it;
    when both refuse it, the first table's answer (in English), once both pages are the
    same at rest, in English and again in German or French in turn (a refusal changes
    nothing, so it may be sent again)."""
    first = None
    for language in ("en", next(_OTHER_LANGUAGES)):
        answers = []
        for laptop, phones in tables:
            device = laptop if actor == TABLE else phones[int(actor)]
            url = f"/t/{laptop.code}/act" if actor == TABLE else f"/t/{laptop.code}/me/act"
            answers.append(device.post(url, {"version": laptop.version(), **action},
                                       headers={"Accept-Language": language,
                                                **(headers or {})}))
        statuses = [answer.status_code for answer in answers]
        if statuses == [303, 303] and first is None:
            return None
        assert statuses == [422, 422], (statuses, answers[0].text[:300])
        pages = [page_at_rest(answer.text, laptop.code)
                 for answer, (laptop, _phones) in zip(answers, tables, strict=True)]
        assert pages[0] == pages[1], f"{action}: the two tables' refusals differ in {language}"
        first = first or answers[0]
    return first


def state_names(state: Mapping[str, Any]) -> list[str]:
    """Seat names if the state keeps them under a usual key, else an empty list."""
    for key in ("players", "names"):
        value = state.get(key)
        if isinstance(value, list) and all(isinstance(item, str) for item in value):
            return value
    return []


# The views are compared by message and placeholders, whatever the language: equal views
# draw equal pages in every language (a page is drawn from its view alone). Each drawing
# is then made in the next language in turn, so that every test's phases are drawn in all
# three without drawing each three times.
_LANGUAGE_TURNS = itertools.cycle(LANGUAGES)
_OTHER_LANGUAGES = itertools.cycle([language for language in LANGUAGES if language != "en"])


def plain(value: Any) -> Any:
    """A view as JSON can compare it: each Text as its message and placeholders, so two
    views that read the same in English but would not in German differ."""
    if isinstance(value, Text):
        return value.as_data()
    if isinstance(value, Mapping):
        return {str(key): plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [plain(item) for item in value]
    return value


def assert_indistinguishable(app: Flask | None, game: Game, state_a: dict[str, Any],
                             state_b: dict[str, Any], viewers: Iterable[int | str]) -> None:
    """Every viewer in ``viewers`` sees exactly the same in both states, in every
    language (a secret must not show through a translated word either): the same view,
    message for message, and the same page, drawn in the languages in turn."""
    for viewer in viewers:
        view_a = json.dumps(plain(game.view(state_a, viewer)), sort_keys=True)
        view_b = json.dumps(plain(game.view(state_b, viewer)), sort_keys=True)
        assert view_a == view_b, f"viewer {viewer!r} can tell the states apart by its view"
        assert game.actions(state_a, viewer) == game.actions(state_b, viewer), (
            f"viewer {viewer!r} can tell the states apart by its actions")
        if app is None:
            continue
        language = next(_LANGUAGE_TURNS)
        html_a = render_component(app, game, state_a, viewer, language=language)
        html_b = render_component(app, game, state_b, viewer, language=language)
        assert html_a == html_b, (
            f"viewer {viewer!r} can tell the states apart by its page in {language}")


def play_both(game: Game, state_a: dict[str, Any], state_b: dict[str, Any],
              steps: Sequence[tuple[int | str, Mapping[str, str]]], seed: int = 7,
              ) -> Iterable[tuple[dict[str, Any], dict[str, Any]]]:
    """Apply the same public actions to both states, yielding each pair of results
    (the first pair is the starting pair). Both sides use identically seeded rngs."""
    yield state_a, state_b
    rng_a, rng_b = random.Random(seed), random.Random(seed)
    for actor, action in steps:
        state_a = game.apply(state_a, actor, action, rng_a)
        state_b = game.apply(state_b, actor, action, rng_b)
        yield state_a, state_b


def all_viewers(players: int) -> list[int | str]:
    return [TABLE, *range(players)]
