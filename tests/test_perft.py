"""perft against the published counts: tic-tac-toe depths 1-9, connect four depths 1-6."""

from __future__ import annotations

import pytest

from rulesdsl.interpreter.perft import perft

from .conftest import ROOT

TICTACTOE = [9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872]
CONNECT_FOUR = [7, 49, 343, 2401, 16807, 117649]


@pytest.mark.parametrize("depth", range(1, 10))
def test_tictactoe(depth, load_rules):
    rules = load_rules(ROOT / "games/tictactoe/tictactoe.rules")
    assert perft(rules.new_game(seed=1, auto_chance=False), depth) == TICTACTOE[depth - 1]


@pytest.mark.parametrize("depth", range(1, 7))
def test_connect_four(depth, load_rules):
    rules = load_rules(ROOT / "games/connect_four/connect_four.rules")
    assert perft(rules.new_game(seed=1, auto_chance=False), depth) == CONNECT_FOUR[depth - 1]


def test_chance_outcomes_are_branches(load_rules):
    """In Pig the game starts with a roll: 6 outcomes; after a 1 the turn passes (a roll
    again), otherwise the player decides between roll and hold."""
    rules = load_rules(ROOT / "games/pig/pig.rules")
    game = rules.new_game(seed=1, auto_chance=False)
    assert perft(game, 1) == 6
    assert perft(game, 2) == 6 + 5 * 2
    assert perft(game, 0) == 1
