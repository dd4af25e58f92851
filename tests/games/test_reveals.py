"""The reveal at the end of the card games (companion/games/base.py reveal_view): what
each game's view tells once it is over, and nothing of it before."""

from __future__ import annotations

import copy
import random

import pytest

from companion.games import london1888, mrjack, wo_ist_jack
from companion.games.base import TABLE, RuleError
from tests.support.reveal_games import jack_of, pure


def steps_of(view: dict) -> list[tuple[str, str, str]]:
    return [(step["kind"], step["when"], step["text"]) for step in view["reveal"]["steps"]]


def london_game(seed: int = 5) -> tuple[list[dict], int, int]:
    """The London script's states, Jack's seat and the finder's."""
    states = pure("london1888", seed=seed)
    jack = jack_of(states[0])
    return states, jack, 0 if jack != 0 else 1


def mrjack_game() -> list[dict]:
    return pure("mrjack")


def wo_ist_game() -> list[dict]:
    return pure("wo_ist_jack")


def facts_of(view: dict) -> dict[str, str]:
    return {fact["label"]: fact["text"] for fact in view["reveal"]["facts"]}


@pytest.mark.parametrize("game, states", [
    (london1888, london_game()[0]), (mrjack, mrjack_game()), (wo_ist_jack, wo_ist_game())])
def test_no_reveal_before_the_end_and_every_state_checks(game, states):
    viewers = [TABLE, 0, 1]
    for state in states[:-1]:
        game.check_state(state)
        assert all(game.view(state, viewer)["reveal"] is None for viewer in viewers)
    game.check_state(states[-1])
    reveals = [game.view(states[-1], viewer)["reveal"] for viewer in viewers]
    assert reveals[0] is not None and reveals[0]["steps"][-1]["kind"] == "end"
    assert reveals[1:] == [reveals[0]] * 2, "every phone is told the same reveal"


@pytest.mark.parametrize("seed", [2, 5])
def test_london_turning_points_in_order(seed):
    states, jack, finder = london_game(seed)
    view = london1888.view(states[-1], TABLE)
    who = lambda seat: view["seats"][seat]["label"]  # noqa: E731
    facts = facts_of(view)
    assert facts["The question that found him"].startswith(
        f"Round 2: {who(finder)} questioned {who(jack)}: card ")
    assert facts["Cards turned"].startswith("2 in the game (1 Suspect or False Lead")
    kinds = [kind for kind, _when, _text in steps_of(view)]
    assert kinds == ["arrest", "release", "found", "death", "end"]
    arrest, release, found, death, end = steps_of(view)
    assert arrest == ("arrest", "Round 1", "Godley (Ed) is arrested (ARREST card) and goes "
                                           "to PRISON.")
    assert release[2] == "Godley (Ed) is released by the table: out of PRISON."
    assert found[1] == "Round 2" and found[2].endswith("is Jack the Ripper. Jack the Ripper "
                                                       "is found.")
    assert death[2] == f"{who(jack)} dies, killed by {who(finder)}."
    assert end == ("end", "Round 2", "The Innocents win: Jack was caught alive or killed.")


def test_london_murders_by_round_and_jack_found_by_clearing_everyone_else():
    """A deal where every other player's Innocent card is turned: the last of them finds
    Jack; the murders are told in the round their card turned."""
    state = london1888.setup(london1888.default_options(), ["A", "B", "C", "D"],
                             random.Random(3))
    jack = next(seat for seat, line in enumerate(state["lines"]) if "jack" in line)
    others = [seat for seat in range(4) if seat != jack]
    for number, seat in enumerate(others):
        position = state["lines"][seat].index("innocent")
        state["revealed"][seat][position] = True
        state["reveals"].append({"round": 3 + number, "by": jack, "target": seat,
                                 "position": position + 1, "card": "innocent",
                                 "how": "questioned"})
    state["round"] = 12
    state["outcome"] = {"winner": "jack", "how": "fifth_murder", "accomplices": [],
                        "round": 12}
    del state["incidents"]  # a state saved before they were kept
    london1888.check_state(state)
    view = london1888.view(state, 0)
    steps = steps_of(view)
    murders = [(when, text) for kind, when, text in steps if kind == "murder"]
    rounds = [index + 2 for index, card in enumerate(state["deck"][:11]) if card["murder"]]
    assert [when for when, _text in murders] == [f"Round {r}" for r in rounds]
    assert murders[0][1].startswith("Murder 1 of 5: “")
    assert [kind for kind, _w, _t in steps if kind in ("cleared", "found")] == [
        "cleared", "cleared", "found"]
    found = next(text for kind, _w, text in steps if kind == "found")
    assert found.endswith(f"Everyone else is cleared: {view['seats'][jack]['label']} is Jack "
                          "the Ripper.")
    assert steps[-1][2] == "Jack wins: the 5th murder was discovered."


def test_london_never_discovered_says_so_and_names_the_first_card_at_his_seat():
    states, jack, _finder = london_game(5)
    state = copy.deepcopy(states[-1])
    # The finder turned another of Jack's cards, a clue: nobody found him.
    found = next(entry for entry in state["reveals"] if entry["target"] == jack)
    clue = next(index for index, card in enumerate(state["lines"][jack])
                if card not in ("jack", "innocent"))
    state["revealed"][jack] = [index == clue for index in range(5)]
    found.update(position=clue + 1, card=state["lines"][jack][clue])
    state["outcome"] = {"winner": "jack", "how": "fifth_murder", "accomplices": [],
                        "round": 12}
    london1888.check_state(state)
    facts = facts_of(london1888.view(state, TABLE))
    assert facts["The question that found him"] == ("Nobody found him: his identity was never "
                                                    "discovered.")
    assert facts["First card turned at his seat"].startswith("Round 2: ")


def test_mrjack_witness_calls_turn_by_turn():
    states = mrjack_game()
    final = states[-1]
    view = mrjack.view(final, mrjack.DETECTIVE)
    facts = facts_of(view)
    assert view["alibi"]["name"] == mrjack.CHARACTERS[final["alibi"]]
    assert facts["Never cleared"] == mrjack.CHARACTERS[final["alibi"]]
    drawn = final["alibi_draws"]
    assert drawn and facts["Alibi cards drawn"] == " ".join(
        f"Turn {entry['turn']}: {('Jack' if entry['seat'] == 0 else 'The detective')} drew "
        f"the alibi card of {mrjack.CHARACTERS[entry['character']]}." for entry in drawn)
    steps = view["reveal"]["steps"]
    assert [(step["kind"], step["when"]) for step in steps] == [
        ("seen", "Turn 1"), ("not_seen", "Turn 2"), ("end", "Turn 3")]
    for step, call in zip(steps, final["calls"], strict=False):
        names = [mrjack.CHARACTERS[card] for card in call["cleared"]]
        assert step["text"].startswith(mrjack.ANSWERS[call["answer"]] + ": ")
        assert all(name in step["text"] for name in names)
        played = step["lines"][0]
        assert played.startswith("Played: ") and played.count("(") == 4
        assert step["lines"][1].startswith("Marked seen: ")
    assert steps[-1]["text"] == final["outcome"]["text"]
    assert steps[-1]["lines"][0].startswith("Played: ") and steps[-1]["lines"][0].count("(") == 1
    # Turn 1 "seen" cleared everyone not marked; turn 2 "not seen" the one marked.
    assert len(final["calls"][0]["cleared"]) == 6 and len(final["calls"][1]["cleared"]) == 1


def test_wo_ist_stories_in_print_order_with_the_action_cards():
    states = wo_ist_game()
    final = states[-1]
    view = wo_ist_jack.view(final, TABLE)
    steps = steps_of(view)
    assert [kind for kind, _w, _t in steps[:4]] == ["action"] * 4
    assert steps[0] == ("action", "Turn 1", "Ann plays Reporter in U-Haft on Bob, who loses "
                                          "their next turn.")
    assert steps[1][2].startswith("Bob plays Druckmaschine defekt on Ann, who cannot print")
    assert steps[2] == ("action", "After turn 1", "Bob is in U-Haft and loses this turn.")
    assert steps[3][:2] == ("action", "Turn 2")
    assert steps[3][2].startswith("Cy plays Reporterteam until “")
    prints = [(when, text) for kind, when, text in steps if kind == "print"]
    assert len(prints) == len(final["printed"]) == final["stories_in_play"]
    for (when, text), entry in zip(prints, final["printed"], strict=True):
        name = final["players"][entry["seat"]]
        plural = "s" if entry["points"] != 1 else ""
        assert when == f"Turn {entry['turn']}"
        assert text == f"“{entry['story']}” printed by {name}: {entry['points']} point{plural}."
    headline = wo_ist_jack.score(final)["headline"]
    assert steps[-1] == ("end", f"Turn {final['turn']}", "Every story has been printed: "
                                                        + headline)
    facts = facts_of(view)
    assert list(facts) == ["Out of the game"]
    assert facts["Out of the game"].count("“") == 2, "3 reporters play without two stories"


def test_wo_ist_a_state_saved_before_the_turns_were_kept_still_reveals():
    final = copy.deepcopy(wo_ist_game()[-1])
    del final["cards_played"]
    for entry in final["printed"]:
        del entry["turn"]
    wo_ist_jack.check_state(final)
    steps = wo_ist_jack.view(final, 1)["reveal"]["steps"]
    assert [step["when"] for step in steps[:2]] == ["Story 1", "Story 2"]


@pytest.mark.parametrize("game, states, key, bad, message", [
    (london1888, london_game()[0], "incidents", [{"round": 1, "reveals": 0, "kind": "arrest",
     "actor": None, "target": 9, "killer": None, "jailed": False, "way": "card"}],
     "an incident's target is not a seat"),
    (london1888, london_game()[0], "incidents", [{"round": 99, "reveals": 0, "kind": "death",
     "actor": None, "target": 1, "killer": None, "jailed": False, "way": None}],
     "after the game's last round"),
    (mrjack, mrjack_game(), "calls", [{"turn": 1, "picks": [], "answer": "maybe", "seen": [],
                                       "cleared": []}], "not one of the values"),
    (mrjack, mrjack_game(), "calls", [{"turn": 8, "picks": [], "answer": "seen", "seen": [],
                                       "cleared": []}], "after the game's turn"),
    (wo_ist_jack, wo_ist_game(), "cards_played", [{"kind": "u_haft", "by": 7, "on": 1,
     "story": None, "turn": 1, "printed": 0}], "a played card's by is not a seat"),
    (wo_ist_jack, wo_ist_game(), "cards_played", [{"kind": "u_haft", "by": 0, "on": 1,
     "story": None, "turn": 1, "printed": 99}], "after the game's last print"),
])
def test_a_history_that_the_game_cannot_reach_is_refused(game, states, key, bad, message):
    state = copy.deepcopy(states[-1])
    state[key] = bad
    with pytest.raises(RuleError, match=message):
        game.check_state(state)
