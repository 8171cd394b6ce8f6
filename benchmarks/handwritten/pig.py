"""Hand-written Pig random playouts (benchmark baseline for rulesdsl).

Rules (same as games/pig/pig.rules):
  * Two players, one six-sided die, seat 0 starts; scores start at 0.
  * A turn starts with a mandatory roll.  On a 1 the turn total is lost and
    the turn passes.  Otherwise the roll is added to the turn total and the
    player decides: option 0 = roll again, option 1 = hold.
  * Holding banks the turn total into the player's score; if the score is
    now >= 100 that player wins and the game ends, else the turn passes.
  * Ranking: winner 1, the other player 2.

Random choices: exactly one ``rng.randrange(2)`` per decision; each die roll
is ``rng.randrange(6) + 1``.
"""

import random

PLAYERS = 2
GOAL = 100


def play_random(rng: random.Random) -> list[int]:
    """Play one game with uniformly random decisions; return the rank per seat."""
    randrange = rng.randrange
    scores = [0, 0]
    player = 0
    while True:
        turn_total = 0
        while True:
            roll = randrange(6) + 1
            if roll == 1:                 # pig out: turn total lost
                break
            turn_total += roll
            if randrange(2) == 1:         # option 1 = hold
                scores[player] += turn_total
                if scores[player] >= GOAL:
                    ranking = [2, 2]
                    ranking[player] = 1
                    return ranking
                break
            # option 0 = roll again
        player ^= 1


if __name__ == "__main__":
    from collections import Counter

    rng = random.Random(1)
    freq = Counter(tuple(play_random(rng)) for _ in range(1000))
    for outcome, n in sorted(freq.items()):
        print(outcome, n)
