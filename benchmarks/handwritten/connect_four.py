"""Hand-written connect four random playouts (benchmark baseline for rulesdsl).

Rules (same as games/connect_four/connect_four.rules):
  * 7 columns x 6 rows, two players, seat 0 moves first, players alternate.
  * A decision is one open column (a column that is not full); options are
    the open columns in column order (0..6).  The piece drops to the lowest
    empty cell of that column.
  * Four or more of one's own pieces in a row -- horizontally, vertically or
    diagonally -- wins: winner rank 1, loser rank 2.  Only the lines through
    the piece just dropped are checked.
  * A full board without such a line is a draw: both rank 1.

Random choices: exactly one ``rng.randrange(len(options))`` per decision.
"""

import random

PLAYERS = 2

COLS = 7
ROWS = 6
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))  # horizontal, vertical, two diagonals


def _ray(col: int, row: int, dc: int, dr: int) -> tuple[int, ...]:
    """Cells (index col * ROWS + row) up to 3 steps from (col, row) in direction (dc, dr)."""
    cells = []
    col, row = col + dc, row + dr
    while 0 <= col < COLS and 0 <= row < ROWS and len(cells) < 3:
        cells.append(col * ROWS + row)
        col, row = col + dc, row + dr
    return tuple(cells)


# RAYS[cell] = for each direction, (cells going forwards, cells going backwards).
RAYS = tuple(
    tuple((_ray(col, row, dc, dr), _ray(col, row, -dc, -dr)) for dc, dr in DIRECTIONS)
    for col in range(COLS)
    for row in range(ROWS)
)


def play_random(rng: random.Random) -> list[int]:
    """Play one game with uniformly random moves; return the rank per seat."""
    randrange = rng.randrange
    board = [-1] * (COLS * ROWS)   # index col * ROWS + row, row 0 = bottom
    heights = [0] * COLS
    open_cols = list(range(COLS))  # kept in column order
    player = 0
    while open_cols:
        i = randrange(len(open_cols))
        col = open_cols[i]
        row = heights[col]
        heights[col] = row + 1
        if row + 1 == ROWS:
            del open_cols[i]
        cell = col * ROWS + row
        board[cell] = player
        for forward, backward in RAYS[cell]:
            n = 1
            for c in forward:
                if board[c] != player:
                    break
                n += 1
            for c in backward:
                if board[c] != player:
                    break
                n += 1
            if n >= 4:
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
