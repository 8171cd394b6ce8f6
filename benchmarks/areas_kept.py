"""Benchmark: MCTS in Isle of Skye with a territory's areas kept and worked out afresh.

Isle of Skye's heuristic, which judges a rollout cut at `depth`, asks each scoring tile in
play what the territory would score, and several of them ask for its areas (the run-time
helper `_parts`, program/helpers/tiles.py), which are kept once worked out for the same
tiles in the same places. Here, in one process, the same searches (`mcts:sims=N` from
benchmarks/search_speed.py's positions 0 to 2) run in turn with the areas kept (what is
kept emptied before each round) and with nothing kept: each round's ratio of the median
simulations a second, and the median of the rounds with its interval
(`benchmarks.paired.median_interval`). CPU time of the process.

Usage, from the repository root:

    python -m benchmarks.areas_kept [--rounds 9] [--sims 100] [--json]
"""

import argparse
import json
import statistics
import time
from pathlib import Path

import rulesdsl
from benchmarks.paired import median_interval
from benchmarks.search_speed import position
from rulesdsl.agents import make_agent
from rulesdsl.program.helpers import tiles

ROOT = Path(__file__).resolve().parent.parent


class NothingKept(dict):
    """A dict that keeps nothing: every call works the areas out afresh."""

    def get(self, key, default=None):
        return default

    def __setitem__(self, key, value):
        pass


def rate(rules: rulesdsl.Rules, sims: int, seed: int) -> float:
    game = position(rules, 2, seed, 20)
    agent = make_agent(f"mcts:sims={sims}", seed)
    start = time.process_time()
    agent.choose(rulesdsl.Observation(game, game.decider))
    return agent.last.simulations / (time.process_time() - start)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.areas_kept",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--sims", type=int, default=100)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rules = rulesdsl.load(ROOT / "games" / "isle_of_skye" / "isle_of_skye.rules")
    kept = tiles._AREAS
    rounds = []
    try:
        for _ in range(args.rounds):
            tiles._AREAS = NothingKept()
            afresh = statistics.median(rate(rules, args.sims, k) for k in range(3))
            tiles._AREAS = kept
            kept.clear()
            with_kept = statistics.median(rate(rules, args.sims, k) for k in range(3))
            rounds.append((afresh, with_kept))
            if not args.json:
                print(f"afresh {afresh:,.0f} sims/s, kept {with_kept:,.0f}: "
                      f"{with_kept / afresh:.3f}", flush=True)
    finally:
        tiles._AREAS = kept
    ratio, low, high, coverage = median_interval([b / a for a, b in rounds])
    out = {"rounds": [list(r) for r in rounds], "ratio": round(ratio, 3),
           "interval": [round(low, 3), round(high, 3)], "coverage": round(coverage, 3)}
    if args.json:
        print(json.dumps(out, indent=1))
    else:
        print(f"kept / afresh: {ratio:.3f} ({low:.3f} to {high:.3f}, "
              f"{coverage:.0%} coverage)")


if __name__ == "__main__":
    main()
