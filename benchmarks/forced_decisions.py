"""Count the forced decisions of a game: the decisions with a single option, by the place
in the rules that asks them, and how many a screen that follows the rule file's
`pass forced` lines takes without asking (`rulesdsl.interpreter.forced.passes`).

Random agents play the games (seed k, agents seeded k). The share of forced decisions
comes with its 95% Wilson interval.

Usage, from the repository root:

    python -m benchmarks.forced_decisions FILE [--games N] [--players N]
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import rulesdsl  # noqa: E402
from rulesdsl.agents.play import wilson  # noqa: E402
from rulesdsl.interpreter.forced import passes  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--players", type=int, default=None)
    args = parser.parse_args()
    rules = rulesdsl.load(args.file)
    total = passed = 0
    places: Counter[str] = Counter()
    for seed in range(1, args.games + 1):
        game = rules.new_game(players=args.players, seed=seed)
        rng = random.Random(seed)
        while not game.over:
            n = game.num_options()
            total += 1
            if n == 1:
                site = game.program.sites[game.st.pending[0]]  # type: ignore[index]
                places[f"{site.proc} {site.name}".strip()] += 1
                passed += passes(game)
            game.apply_index(rng.randrange(n))
    forced = sum(places.values())
    low, high = wilson(forced, total)
    print(f"{rules.name}: {args.games} games, {total} decisions; {forced} with one option "
          f"({forced / total:.1%}, 95% interval {low:.1%} to {high:.1%}); {passed} passed "
          "by the rule file's 'pass forced'")
    for place, n in places.most_common():
        print(f"  {n:6}  {place}")


if __name__ == "__main__":
    main()
