"""Finished games for the history's tests: a Mr. Jack game ends in two taps (the
detective plays a card, then accuses), so a test may finish as many as it needs."""

from __future__ import annotations

from typing import Any

from flask import Flask

from tests.support.webflow import Device, seated_table, state_of


def mrjack_game(app: Flask, jack: str = "Ann", detective: str = "Bob",
                detective_wins: bool = True, finish: bool = True
                ) -> tuple[Device, list[Device], dict[str, Any]]:
    """A Mr. Jack table, Jack and the detective seated, ended by an accusation (right or
    wrong) unless ``finish`` is off; its laptop, phones and last state."""
    laptop, phones = seated_table(app, "mrjack", [jack, detective])
    state = state_of(app, laptop.code)
    assert phones[1].act("pick", character=state["round"]["cards"][0]).status_code == 303
    if finish:
        accused = state["alibi"] if detective_wins else next(
            card for card in state["characters"] if card != state["alibi"])
        assert phones[1].act("accuse", character=accused).status_code == 303
    return laptop, phones, state_of(app, laptop.code)
