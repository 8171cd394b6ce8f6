"""perft: count the sequences of exactly D steps from the start of a game.

Stage: run (a tool over the API). Every decision option and every chance outcome is a
branch; sequences that end the game before D steps are not counted. At the last level
the options are counted without being played (bulk counting).
"""

from __future__ import annotations

from .game import Game


def perft(game: Game, depth: int) -> int:
    if depth == 0:
        return 1
    if game.over:
        return 0
    n = game.num_options()
    if depth == 1:
        return n
    total = 0
    for i in range(n):
        child = game.copy()
        child.apply_index(i)
        total += perft(child, depth - 1)
    return total
