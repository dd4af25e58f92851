"""Letters from Whitechapel: a refused action keeps Jack's secrets (issue 20).

Two tables on two laptops (the same seed, names and public actions) whose Jack keeps
different secrets: another hideout, another path, and each time another circle typed
into a refused action, so that the reasons differ ("No road joins 66 and 127." and
"No road joins 82 and 127."). Jack's refusal page must be the same, byte for byte,
outside what shows only on a tap or a held peek (the "Why?" section, the map, the
sheet); every other page (the detectives' phones, the table screen) is the same whole,
and so is a detective's refusal, which names only public facts.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

import pytest
from flask import Flask

from companion.games.base import TABLE
from companion.games.whitechapel import rules as wc
from tests.support.boardfiles import real_board, real_board_path
from tests.support.contract import try_apply
from tests.support.html import at_rest
from tests.support.noninterference import render_component
from tests.support.webflow import Device, seated_table, state_of
from tests.support.whitechapel_play import board_game
from tests.support.whitechapel_walks import board_walk, new_game, random_action
from tests.web.test_whitechapel_board import NAME, head_phone, make_app

NAMES = ["Jack", "Ann", "Bob"]
WOMEN = "3 21 27 65 84"
CRIME = 65
HIDEOUTS = (90, 12)
"""Neither is red nor next to the crime: an escape from there is refused in both."""
FIRST_MOVES = (66, 82)
"""Two roads out of the crime: after them the two Jacks stand on different circles."""

WHY = re.compile(r'(<details class="why"[^>]*>\s*<summary>.*?</summary>)(.*?)(</details>)', re.S)


@dataclass
class Side:
    """One table: its laptop (the host) and the phones, Jack first."""

    app: Flask
    laptop: Device
    phones: list[Device]

    @property
    def jack(self) -> Device:
        return self.phones[0]

    def masked(self, html: str) -> str:
        """The page without what is random and public: the table code (and its QR
        code on the table screen), the CSRF token and the forms' keys made from it."""
        html = html.replace(self.laptop.code, "CODE")
        html = re.sub(r"<div class=\"qr-box\" data-qr>.*?</div>", "QR", html, flags=re.S)
        return re.sub(r'name="(csrf|key)" value="[^"]*"', r'name="\1" value="-"', html)

    def state(self) -> dict:
        return state_of(self.app, self.laptop.code)


def reason(html: str) -> str:
    """The reason of a private refusal, as the "Why?" section holds it."""
    found = WHY.search(html)
    assert found, "the refusal is not private: no Why? section"
    return re.sub(r"<[^>]+>", "", found.group(2)).strip()


def glance(html: str) -> str:
    """What the page shows at rest: nothing held, nothing opened, not even "Why?"."""
    return WHY.sub(r"\1\3", at_rest(html))


def twins(tmp_path, **options) -> list[Side]:
    sides = []
    for name in "ab":
        app = make_app(tmp_path / name, real_board_path())
        laptop, phones = seated_table(app, "whitechapel", NAMES, **options)
        sides.append(Side(app, laptop, phones))
    return sides


def each(sides: list[Side], step) -> None:
    """One step that succeeds in both games (``step(side, index)`` gives the response)."""
    for index, side in enumerate(sides):
        response = step(side, index)
        assert response.status_code == 303, response.text


def assert_others_alike(sides: list[Side]) -> None:
    """The detectives' phones and the table screen are the same whole pages, and
    every detective (and the table) is offered the same; so is Jack."""
    a, b = sides
    for device_a, device_b in [*zip(a.phones[1:], b.phones[1:], strict=True),
                               (a.laptop, b.laptop)]:
        page_a = device_a.screen() if device_a is a.laptop else device_a.phone()
        page_b = device_b.screen() if device_b is b.laptop else device_b.phone()
        assert a.masked(page_a.text) == b.masked(page_b.text)
    for viewer in (wc.JACK, *range(1, len(NAMES)), TABLE):
        assert wc.actions(a.state(), viewer) == wc.actions(b.state(), viewer), viewer


def assert_refused_alike(sides: list[Side], kind: str, *fields: dict, says: tuple[str, ...]
                         ) -> None:
    """Jack's ``kind`` with ``fields[i]`` on table i is refused with reason ``says[i]``
    (the reasons differ, or say the same public thing): his pages at rest are the same,
    the tables unchanged, every other page alike."""
    pages = []
    for side, typed, said in zip(sides, fields, says, strict=True):
        before = side.laptop.version()
        response = side.jack.act(kind, **typed)
        assert response.status_code == 422, (kind, typed, response.text)
        assert said in reason(response.text), (kind, reason(response.text))
        assert "Not accepted: nothing was changed." in response.text
        assert said not in glance(response.text)
        assert side.laptop.version() == before
        pages.append(side.masked(response.text))
    assert glance(pages[0]) == glance(pages[1]), kind
    assert_others_alike(sides)


def through_hell(sides: list[Side], wrong_women: list[str] | None = None,
                 women_say: list[str] | None = None) -> None:
    """Each Jack writes his hideout, then Hell to the crime on 65; given the wrong
    women (one text a table, refused for ``women_say``), Jack's marked women and his
    kill on his hideout are refused first."""
    each(sides, lambda side, i: side.jack.act("hideout", circle=HIDEOUTS[i]))
    if wrong_women:
        assert_refused_alike(sides, "women", *({"circles": text} for text in wrong_women),
                             says=tuple(women_say or ()))
    each(sides, lambda side, i: side.jack.act("women", circles=WOMEN))
    each(sides, lambda side, i: head_phone(side.app, side.laptop, side.phones).act(
        "patrols_placed"))
    if wrong_women:
        # No wretched stands on his hideout.
        assert_refused_alike(sides, "kill", *({"circle": home} for home in HIDEOUTS),
                             says=tuple(f"No wretched stands on {home}" for home in HIDEOUTS))
    each(sides, lambda side, i: side.jack.act("kill", circle=CRIME))


def test_jacks_refusals_on_the_board_tell_nothing_at_rest(tmp_path):
    sides = twins(tmp_path, board=NAME, false_clues="on")
    assert_others_alike(sides)
    # Setup: a red circle for a hideout.
    assert_refused_alike(sides, "hideout", {"circle": 3}, {"circle": 21},
                         says=("Circle 3 is a red circle", "Circle 21 is a red circle"))
    # Hell: a marked woman on his hideout, which is not red.
    through_hell(sides, [f"3 21 27 65 {home}" for home in HIDEOUTS],
                 [f"Circle {home} is not a red circle" for home in HIDEOUTS])
    # From the crime (public), the typed circle or his hideout tells the secret.
    assert_refused_alike(sides, "move", {"circle": 127}, {"circle": 128},
                         says=("No road joins 65 and 127.", "No road joins 65 and 128."))
    assert_refused_alike(sides, "escape", {}, {},
                         says=tuple(f"No road joins {CRIME} and {home}." for home in HIDEOUTS))
    each(sides, lambda side, i: side.jack.act("move", circle=FIRST_MOVES[i]))
    assert_refused_alike(sides, "false_clue", {"circle": 150}, {"circle": 151},
                         says=("No False clue left",) * 2)
    each(sides, lambda side, i: side.laptop.table_act("end_turn"))
    # From two different circles: every movement refused names where he stands.
    here = FIRST_MOVES
    assert_refused_alike(sides, "move", {"circle": 127}, {"circle": 127},
                         says=tuple(f"No road joins {n} and 127." for n in here))
    assert_refused_alike(sides, "move", *({"circle": n} for n in here),
                         says=tuple(f"You are on {n}: move to another circle." for n in here))
    assert_refused_alike(sides, "coach", *({"circle": CRIME, "circle2": n} for n in here),
                         says=tuple(f"different from your start, {n}." for n in here))
    assert_refused_alike(sides, "alley", {"circle": 127}, {"circle": 127},
                         says=tuple(f"from {n} to 127." for n in here))
    assert_refused_alike(sides, "escape", {}, {},
                         says=tuple(f"No road joins {n} and {home}."
                                    for n, home in zip(here, HIDEOUTS, strict=True)))
    # Offered whatever he has left, "no legal move" is checked when tapped.
    assert_refused_alike(sides, "trapped", {}, {}, says=("You still have a legal move",) * 2)


def test_without_a_board_jacks_refusals_tell_nothing_at_rest(tmp_path):
    sides = twins(tmp_path)
    through_hell(sides, [f"3 21 27 {home} {home}" for home in HIDEOUTS],
                 ["Each marked woman is on a different circle."] * 2)
    each(sides, lambda side, i: side.jack.act("move", circle=FIRST_MOVES[i]))
    each(sides, lambda side, i: side.laptop.table_act("end_turn"))
    here = FIRST_MOVES
    assert_refused_alike(sides, "move", *({"circle": n} for n in here),
                         says=tuple(f"You are on {n}: move to another circle." for n in here))
    assert_refused_alike(sides, "coach", *({"circle": CRIME, "circle2": n} for n in here),
                         says=tuple(f"different from your start, {n}." for n in here))
    assert_refused_alike(sides, "escape", *({"circle": home + 1} for home in HIDEOUTS),
                         says=tuple(f"You can only escape on your hideout, {home}"
                                    for home in HIDEOUTS))


def test_a_detectives_refusal_is_public_and_the_same_on_both_tables(tmp_path):
    """A detective's reason names only public facts (a circle searched, a clue on the
    table): it stays in the open, and his page is the same whatever Jack's secrets."""
    sides = twins(tmp_path, board=NAME)
    through_hell(sides)
    each(sides, lambda side, i: side.jack.act("move", circle=FIRST_MOVES[i]))
    colour = wc._speaking(sides[0].state())  # the first to speak (Hunting 3)
    seat = sides[0].state()["policemen"][colour]
    each(sides, lambda side, i: side.phones[seat].act("search", policeman=colour, circle=150))
    pages = []
    for side in sides:
        response = side.phones[seat].act("search", policeman=colour, circle=150)
        assert response.status_code == 422
        assert f"The {colour} policeman has already searched 150 this turn." in response.text
        assert "data-why" not in response.text
        pages.append(side.masked(response.text))
    assert pages[0] == pages[1]
    assert_others_alike(sides)


# --- which fields are secret ------------------------------------------------------------

TAGS = re.compile(r"<(/?)(details|input)\b([^>]*)>")


def typed_fields(html: str) -> list[tuple[str, bool]]:
    """Every field a player types into, and whether it is secret: marked
    data-secret-field or inside a details[data-secret] (static/app/secrets.js empties both)."""
    sections: list[bool] = []
    found = []
    for closing, tag, attributes in TAGS.findall(html):
        names = set(re.findall(r"([\w-]+)(?:=\"[^\"]*\")?", attributes))
        kind = re.search(r'type="(\w+)"', attributes)
        if tag == "details":
            if closing:
                sections.pop()
            else:
                sections.append("data-secret" in names)
        elif not kind or kind.group(1) not in ("hidden", "radio", "checkbox"):
            name = re.search(r'name="([^"]*)"', attributes)
            found.append((name.group(1) if name else "",
                          "data-secret-field" in names or any(sections)))
    return found


JACKS_FIELDS = {("hideout", "circle"), ("blood", "circle"), ("blood", "circle2"),
                ("jack", "circle"), ("jack", "circle2"), ("police", "circle"),
                *(("women", f"woman{n}") for n in range(1, 6))}
"""What Jack types, phase by phase: the hideout, the marked women, the victim (two on
night 3), a move or a Coach, a false clue. Each tells a secret until it is played."""


@pytest.mark.slow
def test_every_field_jack_types_into_is_secret_and_no_detectives_is(tmp_path):
    """Random games, with a board and without (False clues on, so that the false clue's
    keypad shows): on every page Jack types only into secret fields, while what a
    detective types (a circle to search) is public and stays after a refusal."""
    app = make_app(tmp_path, real_board_path())
    board = real_board()
    games = [(new_game(5, 3, True, True), lambda state, r: random_action(state, r)),
             (board_game(board, false_clues="on"), lambda state, r: board_walk(board, state, r))]
    for state, walk in games:
        seen = set()
        r = random.Random(3)
        for _ in range(250):
            if wc.is_over(state):
                break
            for name, secret in typed_fields(render_component(app, wc, state, wc.JACK)):
                assert secret, (state["phase"], name)
                seen.add((state["phase"], name))
            assert not any(secret for _, secret in typed_fields(
                render_component(app, wc, state, 1)))
            assert "private_refusals" not in wc.view(state, 1)
            actor, action = walk(state, r)
            state = try_apply(wc, state, actor, action, random.Random(0)) or state
        assert seen == JACKS_FIELDS
