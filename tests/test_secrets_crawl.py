"""A crawler sits at every seat of every product game and looks for other seats' secrets.

For every game that has landed with its web part, a table is played by script (moves
chosen from the real forms). At several points of the game the crawler opens the
pages as every seat, as the host's laptop, as a bystander's table screen and as a
stranger, follows every link, redirect and live-update URL it can reach, and submits
each action form it is shown in ways the rules refuse (and with a stale version), to
read the refusal pages too. No response body, header or redirect may hold a secret
of another seat: the seat and host tokens of others, and the game's own secrets as
listed by ``SECRETS`` (the only game-specific part, small on purpose).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from markupsafe import escape

from companion.games.base import TABLE, Game
from tests.support.campaign import playable_games
from tests.support.crawler import (
    CHECKPOINTS,
    Browser,
    Viewer,
    crawl,
    move,
    open_table,
    refused_submissions,
    table_of,
)

pytestmark = pytest.mark.slow  # a long campaign: the full suite runs it




# --- what counts as a secret, per game -------------------------------------------------

def _london1888(state: dict[str, Any], viewer: Viewer, game: Game) -> set[str]:
    """Jack's identity: the hint only Jack's phone shows (the innocents' hint is no secret:
    there is one Jack, and Jack knows he is not innocent)."""
    if game.is_over(state):
        return set()
    hints = {seat: game.view(state, seat)["me"]["role_hint"]
             for seat in range(len(state["players"]))}
    jack_seat = next(seat for seat, line in enumerate(state["lines"]) if "jack" in line)
    return {hints[jack_seat]} if viewer != jack_seat else set()


def _mrjack(state: dict[str, Any], viewer: Viewer, game: Game) -> set[str]:
    """Jack's alibi card as his phone shows it, and every secret line of another seat
    (alibi cards drawn, draft hands and choices), until the end reveals them."""
    if game.is_over(state):
        return set()
    found = {text for entry in state["log"] for owner, text in entry["secrets"].items()
             if owner != str(viewer)}
    if viewer != 0 and state["alibi"]:
        found.add(f"data-secret-alibi>{game.CHARACTERS[state['alibi']]}<")
    return found


def _wo_ist_jack(state: dict[str, Any], viewer: Viewer, game: Game) -> set[str]:
    """The story deck below the two face-up cards: nobody may see which stories are
    still in it (only how many)."""
    if game.is_over(state):
        return set()
    return set(state["deck"])


def _whitechapel(state: dict[str, Any], viewer: Viewer, game: Game) -> set[str]:
    """Jack's private component (sheet, hideout, where he is): only on Jack's phone."""
    if game.is_over(state) or viewer == 0:
        return set()
    found = {"data-hideout", "data-sheet", "data-location", "data-questions", "wc-jack"}
    if state.get("hideout"):
        found.add(f"Hideout: <b data-hideout>{state['hideout']}<")
    return found


SECRETS: dict[str, Callable[[dict[str, Any], Viewer, Game], set[str]]] = {
    "london1888": _london1888, "mrjack": _mrjack, "wo_ist_jack": _wo_ist_jack,
    "whitechapel": _whitechapel,
}
# Pages of the laptop's own setup (new-table form, its decks, tournaments) list a table's
# card names as they were typed: the set is public there, only the deck's order is secret.
SETUP_PAGES = ("/new/", "/decks", "/tournaments")


def _tokens(browser: Browser, code: str) -> set[str]:
    return {cookie.value for name in (f"seat_{code}", f"host_{code}")
            if (cookie := browser.client.get_cookie(name))}


@pytest.mark.parametrize("name", sorted(playable_games()))
def test_no_seat_ever_reaches_another_seats_secret(app, name):
    game = app.config["GAMES"][name]
    # Event streams end at once, so the crawler can read them to the end.
    app.config.update(LIVE_HEARTBEAT=0.001, LIVE_LIFETIME=0.002)
    assert name in SECRETS, f"list {name}'s secrets in SECRETS"
    rng = random.Random(name)
    code, laptop, phones = open_table(app, game)
    bystander = Browser(app, "bystander's table screen", TABLE)
    stranger = Browser(app, "stranger", None)
    everyone = [laptop, *phones, bystander, stranger]
    tokens = {browser.label: _tokens(browser, code) for browser in everyone}
    moves = checked = 0
    listed: set[str] = set()
    shown: set[str] = set()
    for checkpoint in CHECKPOINTS:
        while moves < checkpoint and move(app, game, code, [laptop, *phones], rng):
            moves += 1
        state = table_of(app, code)["state"]
        for browser in everyone:
            viewer = TABLE if browser.viewer is None else browser.viewer
            own_view = json.dumps(game.view(state, viewer), ensure_ascii=False)
            game_secrets = {form for s in SECRETS[name](state, viewer, game) if s not in own_view
                            for form in (s, str(escape(s)))}
            others = set().union(*(t for label, t in tokens.items() if label != browser.label))
            start = [f"/t/{code}", f"/j/{code}", "/", f"/t/{code}/export"]
            if isinstance(browser.viewer, int):
                start.insert(0, f"/t/{code}/me")
            responses = crawl(browser, start)
            page = browser.client.get(start[0]).get_data(True)
            if browser.viewer is not None:
                responses += refused_submissions(browser, game, state, page, rng)
            listed |= game_secrets
            shown |= {s for s in listed if any(s in text for _w, _p, text in responses)}
            for what, path, text in responses:
                for secret in others:
                    assert secret not in text, f"{browser.label}: another's token in {what}"
                if path.startswith(SETUP_PAGES):
                    continue
                for secret in game_secrets:
                    assert secret not in text, (
                        f"{name}, after {moves} moves: {browser.label} sees the secret "
                        f"{secret!r} in {what}")
                checked += 1
    # The control: secrets are listed as pages really show them (on their owner's page,
    # or the setup form), so their absence everywhere else means something.
    assert shown, f"none of {name}'s SECRETS ever showed on any page: {sorted(listed)[:5]}"
    assert moves >= 3, f"the scripted {name} game did not get going"
    assert checked > 100
