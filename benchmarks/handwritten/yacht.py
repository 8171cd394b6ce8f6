"""Hand-written Yacht random playouts (benchmark baseline for rulesdsl).

Rules (same as games/yacht/yacht.rules):
  * 1-4 players (the benchmark uses 2), 12 rounds; in each round every player,
    in seat order, takes one turn.
  * A turn: roll all five d6.  Then, up to two times, the player decides which
    dice to re-roll: the options are all 32 subsets of the five dice, in
    bitmask order 0..31 (bit i = die i); subset 0, the empty subset, means
    stop rolling.  Then the player decides one unused category (options are
    the unused categories in category order) and scores it.
  * Categories, in order:
      Ones .. Sixes     sum of the dice showing that number
      Full House        three of one number and two of another (five of a
                        kind is NOT a full house): sum of all dice, else 0
      Four of a Kind    at least four dice the same: sum of those four, else 0
      Little Straight   1-2-3-4-5: 30, else 0
      Big Straight      2-3-4-5-6: 30, else 0
      Choice            sum of all dice
      Yacht             all five the same: 50, else 0
  * The game ends after every player filled all 12 categories.  Players are
    ranked by total score: rank = 1 + number of players with a strictly
    higher score, so ties share a rank (e.g. 1, 1, 3).

Random choices: exactly one ``rng.randrange(len(options))`` per decision
(32 for re-roll decisions); each die roll is ``rng.randrange(6) + 1``.
"""

import random

PLAYERS = 2

CATEGORIES = (
    "Ones", "Twos", "Threes", "Fours", "Fives", "Sixes",
    "Full House", "Four of a Kind", "Little Straight", "Big Straight",
    "Choice", "Yacht",
)
FULL_HOUSE, FOUR_OF_A_KIND, LITTLE_STRAIGHT, BIG_STRAIGHT, CHOICE, YACHT = range(6, 12)


def score(category: int, dice: list[int]) -> int:
    """Points the five dice are worth in the given category."""
    if category < 6:
        face = category + 1
        return face * dice.count(face)
    if category == CHOICE:
        return sum(dice)
    counts = [0] * 7
    for d in dice:
        counts[d] += 1
    if category == FULL_HOUSE:
        return sum(dice) if 3 in counts and 2 in counts else 0
    if category == FOUR_OF_A_KIND:
        for face in range(1, 7):
            if counts[face] >= 4:
                return 4 * face
        return 0
    if category == LITTLE_STRAIGHT:
        return 30 if counts[6] == 0 and max(counts) == 1 else 0
    if category == BIG_STRAIGHT:
        return 30 if counts[1] == 0 and max(counts) == 1 else 0
    # YACHT
    return 50 if 5 in counts else 0


def play_scores(rng: random.Random, players: int = PLAYERS) -> list[int]:
    """Play one game with uniformly random decisions; return the total score per seat."""
    randrange = rng.randrange
    scores = [0] * players
    unused = [list(range(12)) for _ in range(players)]  # kept in category order
    for _round in range(12):
        for player in range(players):
            dice = [randrange(6) + 1 for _ in range(5)]
            for _reroll in range(2):
                mask = randrange(32)
                if mask == 0:             # empty subset = stop rolling
                    break
                for i in range(5):
                    if mask >> i & 1:
                        dice[i] = randrange(6) + 1
            free = unused[player]
            category = free.pop(randrange(len(free)))
            scores[player] += score(category, dice)
    return scores


def play_random(rng: random.Random, players: int = PLAYERS) -> list[int]:
    """Play one game with uniformly random decisions; return the rank per seat."""
    scores = play_scores(rng, players)
    return [1 + sum(other > s for other in scores) for s in scores]


if __name__ == "__main__":
    from collections import Counter

    # Scoring spot checks.
    assert score(FULL_HOUSE, [2, 2, 3, 3, 3]) == 13
    assert score(FULL_HOUSE, [4, 4, 4, 4, 4]) == 0
    assert score(FOUR_OF_A_KIND, [5, 5, 5, 5, 5]) == 20
    assert score(FOUR_OF_A_KIND, [3, 3, 3, 3, 6]) == 12
    assert score(LITTLE_STRAIGHT, [5, 4, 3, 2, 1]) == 30
    assert score(LITTLE_STRAIGHT, [2, 3, 4, 5, 6]) == 0
    assert score(BIG_STRAIGHT, [6, 4, 3, 2, 5]) == 30
    assert score(YACHT, [6] * 5) == 50 and score(YACHT, [6, 6, 6, 6, 5]) == 0
    assert score(2, [3, 3, 1, 3, 2]) == 9 and score(CHOICE, [1, 2, 3, 4, 6]) == 16

    rng = random.Random(1)
    freq = Counter(tuple(play_random(rng)) for _ in range(1000))
    for outcome, n in sorted(freq.items()):
        print(outcome, n)
    rng = random.Random(2)
    totals = [s for _ in range(1000) for s in play_scores(rng)]
    print(f"mean score per player: {sum(totals) / len(totals):.1f} "
          f"(min {min(totals)}, max {max(totals)})")
