"""Solstice's open points, as its notes decide them (games/solstice/NOTES.md, section 7 and
section 9): what the game for two tells of the dummies, over whole games.

The turn's order (asking before quarrying, passing only with no stone to be had, buying
after building) is checked by the rule file's own examples (`rulesdsl check`)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

import rulesdsl

ROOT = Path(__file__).resolve().parents[1]
GAMES = ROOT / "games" / "solstice"


def played(path: Path, seed: int) -> list[str]:
    """Every line of one game of random choices, as everyone was told it."""
    rules = rulesdsl.load(path)
    game = rules.new_game(seed=seed, narrate=True)
    rng = random.Random(seed)
    while game.result is None:
        options = game.options()
        game.apply(rng.choice(options).id)
    return game.log


@pytest.mark.parametrize("seed", [1, 2])
def test_the_dummies_score_nothing_and_are_not_told_to(seed):
    lines = played(GAMES / "two_players.rules", seed)
    dummies = ("player 2", "player 4")
    completed = [line for line in lines if re.match(r"player [24] completes", line)]
    assert completed, "no dummy completed a trilithon: choose another seed"
    assert not [line for line in completed if "point" in line]
    assert not [line for line in lines if line.startswith(tuple(f"{d}: " for d in dummies))]
    assert not [line for line in lines if re.search(r"both score", line)]


def test_the_game_for_three_still_tells_each_lintels_points():
    lines = played(GAMES / "solstice.rules", 1)
    assert [line for line in lines if re.match(r"player \d completes .*point", line)]
