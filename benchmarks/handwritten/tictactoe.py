"""Hand-written tic-tac-toe random playouts (benchmark baseline for rulesdsl).

Rules (same as games/tictactoe/tictactoe.rules):
  * 3x3 board, two players, seat 0 moves first, players alternate.
  * A decision is one free cell; options are the free cells in cell order
    (0..8, row by row).
  * Three of one's own marks in a row (3 rows, 3 columns, 2 diagonals) wins:
    winner rank 1, loser rank 2.
  * A full board without a line is a draw: both rank 1.

Random choices: exactly one ``rng.randrange(len(options))`` per decision.
"""

import random

PLAYERS = 2

LINES = (
    (0, 1, 2), (3, 4, 5), (6, 7, 8),   # rows
    (0, 3, 6), (1, 4, 7), (2, 5, 8),   # columns
    (0, 4, 8), (2, 4, 6),              # diagonals
)
# For each cell, the lines through it: only these can be completed by a move there.
LINES_THROUGH = tuple(tuple(line for line in LINES if cell in line) for cell in range(9))


def play_random(rng: random.Random) -> list[int]:
    """Play one game with uniformly random moves; return the rank per seat."""
    randrange = rng.randrange
    board = [-1] * 9
    free = list(range(9))          # kept in cell order: pop() preserves it
    player = 0
    while free:
        cell = free.pop(randrange(len(free)))
        board[cell] = player
        for a, b, c in LINES_THROUGH[cell]:
            if board[a] == board[b] == board[c]:   # one of them is `cell`
                ranking = [2, 2]
                ranking[player] = 1
                return ranking
        player ^= 1
    return [1, 1]


if __name__ == "__main__":
    from collections import Counter

    rng = random.Random(1)
    freq = Counter(tuple(play_random(rng)) for _ in range(1000))
    for outcome, n in sorted(freq.items()):
        print(outcome, n)
