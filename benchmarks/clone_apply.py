"""Benchmark: copy a game and take one option (`Game.copy` + `apply_index`), as search does.

A search agent copies the position it searches from for every simulation and every
option it tries. This times that step on mid-game positions: for each seed, a game of
the rule file played by random decisions (seeded) for `--decisions` decisions, then
`copy()` followed by `apply_index(i)` for each option i in turn, for `--seconds`; the
table gives the median of the seeds' rates (and their range). Seconds are the process's
CPU time (the machine is shared: the wall clock would count the other programs' turns).

Usage, from the repository root:

    python -m benchmarks.clone_apply [--rules FILE] [--players N] [--decisions N]
                                     [--seeds N] [--seconds S] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

import rulesdsl

BATCH = 200  # steps between two reads of the clock


def position(rules: rulesdsl.Rules, players: int, seed: int, decisions: int) -> rulesdsl.Game:
    """The game after `decisions` random decisions (fewer if it ends: then it is played
    again from the next seed)."""
    return walk(rules, players, seed, decisions)[0]


def walk(rules: rulesdsl.Rules, players: int, seed: int,
         decisions: int) -> tuple[rulesdsl.Game, int]:
    """`position`, and how many options the decisions on its way had in all: the same
    count on two versions of the engine says they reached the same position the same way
    (benchmarks/paired.py compares it)."""
    while True:
        game = rules.new_game(players=players, seed=seed)
        rng = random.Random(seed)
        seen = 0
        for _ in range(decisions):
            n = game.num_options()
            seen += n
            game.apply_index(rng.randrange(n))
            if game.over:
                break
        if not game.over:
            return game, seen
        seed += 1000


def rate(game: rulesdsl.Game, seconds: float) -> float:
    """Copies and steps a second: copy the game, take option i, for every i in turn. The
    clock is read once per BATCH steps or so: a read of the process's CPU clock takes
    about half a microsecond, as much as a tenth of a step (this script read it after
    every round of options until the figures of "Issue 19's aims, where they stand" in
    docs/performance.md: a position with one option paid a read a step)."""
    n = game.num_options()
    rounds = range(max(1, BATCH // n))
    done = 0
    start = time.process_time()
    while True:
        for _ in rounds:
            for i in range(n):
                game.copy().apply_index(i)
        done += n * len(rounds)
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return done / elapsed


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.clone_apply",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="games/cromlech/cromlech.rules",
                        help="the rule file (default: %(default)s)")
    parser.add_argument("--players", type=int, default=4, help="default: %(default)s")
    parser.add_argument("--decisions", type=int, default=300,
                        help="random decisions before the position (default: %(default)s)")
    parser.add_argument("--seeds", type=int, default=5,
                        help="positions, one a seed (default: %(default)s)")
    parser.add_argument("--seconds", type=float, default=1.0,
                        help="time per position (default: %(default)s)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    rules = rulesdsl.load(args.rules)
    walks = [walk(rules, args.players, seed, args.decisions)
             for seed in range(1, args.seeds + 1)]
    rates = [rate(game, args.seconds) for game, _ in walks]
    out = {"rules": args.rules, "players": args.players, "decisions_before": args.decisions,
           "options_seen": sum(seen for _, seen in walks),
           "positions": len(rates), "per_sec": round(statistics.median(rates)),
           "min": round(min(rates)), "max": round(max(rates)),
           "microseconds": round(1e6 / statistics.median(rates), 2)}
    if args.json:
        print(json.dumps(out, indent=1))
    else:
        print(f"{args.rules}, {args.players} players, {args.decisions} decisions in: "
              f"copy + apply {out['per_sec']:,} a second ({out['microseconds']} us; "
              f"{out['min']:,} to {out['max']:,} over {out['positions']} positions)")


if __name__ == "__main__":
    main()
