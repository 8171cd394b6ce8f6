"""Benchmark: whole random games of one rule file, games per second of CPU time.

Game n is played from seed n with a `random.Random(n)` choosing each option, through
`Rules.new_game` and `apply_index` only: the same games, decision for decision, on any
version of the engine, so two versions compare on identical work (the number of decisions
printed says so). Seconds are the process's CPU time (the machine is shared: the wall
clock would count the other programs' turns), without loading the rules.

Usage, from the repository root:

    python -m benchmarks.playouts FILE [--players N] [--games N] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import time

import rulesdsl


def play(rules: rulesdsl.Rules, players: int, games: int) -> tuple[float, int]:
    """CPU seconds and decisions for games 1..games."""
    decisions = 0
    start = time.process_time()
    for seed in range(1, games + 1):
        game = rules.new_game(players=players, seed=seed)
        choose = random.Random(seed).randrange
        while not game.over:
            game.apply_index(choose(game.num_options()))
        decisions += game.decisions
    return time.process_time() - start, decisions


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.playouts",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("file", help="the rule file")
    parser.add_argument("--players", type=int, default=None,
                        help="players (default: the fewest the rules allow)")
    parser.add_argument("--games", type=int, default=100, help="default: %(default)s")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    rules = rulesdsl.load(args.file)
    players = args.players or rules.player_range[0]
    seconds, decisions = play(rules, players, args.games)
    out = {"file": args.file, "players": players, "games": args.games,
           "decisions": decisions, "seconds": round(seconds, 3),
           "games_per_sec": round(args.games / seconds, 1)}
    if args.json:
        print(json.dumps(out, indent=1))
    else:
        print(f"{args.file}, {players} players: {out['games_per_sec']:,} games a second "
              f"({args.games} games, {decisions} decisions, {out['seconds']} s of CPU)")


if __name__ == "__main__":
    main()
