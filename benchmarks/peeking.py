"""Measure whether a bot peeks: Pig's greedy bot, with the opponent close to the goal.

In Pig the next roll is hidden from everyone. At each decision of a greedy seat where the
opponent could win with the first roll of their next turn (their score is at least
GOAL - 6), we look (outside the bot) at whether that next roll is a 1, and count how
often the bot rolls again in each case. A bot that cannot see the future rolls again at
the same rate either way, within noise; a bot that peeks rolls again far less often
when the next roll is a 1. Each rate is given with its 95% Wilson interval.

Usage, from the repository root:

    python -m benchmarks.peeking [--games N] [--seed S] [--json]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import rulesdsl
from rulesdsl.agents.play import agents_for, wilson

ROOT = Path(__file__).resolve().parent.parent
PIG = ROOT / "games" / "pig" / "pig.rules"
CLOSE = 6   # the opponent wins with the first roll of their next turn if it is enough


def next_roll_is_one(game: rulesdsl.Game) -> bool:
    """Whether rolling again now would roll a 1 (the turn passes): the real future, which
    only this measurement may look at."""
    ahead = game.copy()
    ahead.apply("roll")
    return ahead.current != game.current


def measure(games: int, seed: int) -> dict:
    """Greedy against greedy: per case (next roll a 1 or not), decisions and rolls again."""
    rules = rulesdsl.load(PIG)
    goal = rules.value("GOAL")
    counts = {"one": [0, 0], "not_one": [0, 0]}   # [decisions, rolled again]
    for g in range(seed, seed + games):
        game = rules.new_game(players=2, seed=g)
        agents = agents_for(["greedy"], 2, g)
        while not game.over:
            seat = game.decider
            assert seat is not None
            i = agents[seat].choose(rulesdsl.Observation(game, seat))
            if game.counter("score", 1 - seat) >= goal - CLOSE:
                case = counts["one" if next_roll_is_one(game) else "not_one"]
                case[0] += 1
                case[1] += game.decision.options[i].id == "roll"  # type: ignore[union-attr]
            game.apply_index(i)
    out: dict = {"games": games, "seed": seed, "close": CLOSE}
    for name, (n, k) in counts.items():
        low, high = wilson(k, n)
        out[name] = {"decisions": n, "rolled_again": k, "rate": k / n if n else None,
                     "interval_95": [round(low, 4), round(high, 4)]}
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=2000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    data = measure(args.games, args.seed)
    if args.json:
        print(json.dumps(data, indent=1))
        return
    print(f"Pig, greedy against greedy, {data['games']} games; decisions with the opponent "
          f"within {CLOSE} of the goal:")
    for name, label in (("not_one", "next roll not a 1"), ("one", "next roll a 1")):
        d = data[name]
        rate = f"{d['rate']:.1%}" if d["rate"] is not None else "-"
        low, high = d["interval_95"]
        print(f"  {label:18} {d['decisions']:6} decisions, rolls again {rate} "
              f"(95% interval {low:.1%} to {high:.1%})")


if __name__ == "__main__":
    main()
