"""Benchmark: how many options the decisions of a rule file offer, in random games.

A search of N simulations cannot try every option of a decision of more than N: this
says which games have such decisions, and so which ones `mcts`'s `wide=N` (docs/agents.md)
would change. Game n is played from seed n (seeds 0 to games - 1) by a `random.Random(n)`
choosing each option; chance steps are rolled as the game rolls them. Printed: the most
options a decision offered, and how many decisions offered more than `--over`.

Usage, from the repository root:

    python -m benchmarks.option_counts FILE [--players N] [--games 15] [--over 50] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter

import rulesdsl


def counts(rules: rulesdsl.Rules, players: int, games: int) -> Counter[int]:
    """How many decisions offered each number of options, over games 0..games-1."""
    seen: Counter[int] = Counter()
    for seed in range(games):
        game = rules.new_game(players=players, seed=seed)
        choose = random.Random(seed).randrange
        while not game.over:
            if game.is_chance:
                game.roll_chance()
                continue
            n = game.num_options()
            seen[n] += 1
            game.apply_index(choose(n))
    return seen


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("file")
    p.add_argument("--players", type=int)
    p.add_argument("--games", type=int, default=15)
    p.add_argument("--over", type=int, default=50)
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    rules = rulesdsl.load(args.file)
    players = rules.check_players(args.players)
    seen = counts(rules, players, args.games)
    out = {"file": args.file, "players": players, "games": args.games,
           "decisions": sum(seen.values()), "most": max(seen, default=0),
           "over": sum(k for n, k in seen.items() if n > args.over)}
    if args.json:
        print(json.dumps(out))
    else:
        print(f"{args.file}, {players} players, {args.games} random games: "
              f"{out['decisions']:,} decisions, at most {out['most']} options, "
              f"{out['over']:,} with more than {args.over}")


if __name__ == "__main__":
    main()
