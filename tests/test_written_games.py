"""Games first written from docs/language.md alone, with workarounds, and written again
with the constructs that replaced them: Can't Stop (counters kept per number, `per
2..12`; lists joined, flattened and sorted for its moves) and Liar's Dice (dice under a
cup, `reveal`, and the loser starting the next round with `next turn to`). Their worked
examples hold, and random games of every size end by their rules.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import rulesdsl

GAMES = Path(__file__).resolve().parent / "games"


@pytest.mark.parametrize("name", ["cant_stop", "liars_dice"])
def test_the_examples_hold_and_random_games_end(name: str) -> None:
    path = GAMES / f"{name}.rules"
    diags, _ = rulesdsl.check_file(path)
    assert [d.render({}) for d in diags if d.severity == "error"] == []
    rules = rulesdsl.load(path)
    low, high = rules.player_range
    for seed in range(6):
        game = rules.new_game(players=low + seed % (high - low + 1), seed=seed)
        rng = random.Random(seed)
        while not game.over:
            game.apply_index(rng.randrange(game.num_options()))
        assert game.ended_by == "rules" and game.result is not None


def test_cant_stops_columns_are_kept_by_their_numbers() -> None:
    rules = rulesdsl.load(GAMES / "cant_stop.rules")
    game = rules.new_game(players=2, seed=1)
    heights = game.view(0)["counters"]["height"]
    assert len(heights) == 2 and len(heights[0]) == 11   # columns 2 to 12, per player
    assert game.view(0)["headings"]["height"] == [[str(c) for c in range(2, 13)]]
