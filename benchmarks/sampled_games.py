"""Measure how often a game the sampler makes up for a bot plays to its end.

For each rule file: random games, and at many points of each (the first steps, every
secret decision, every few steps) games made up for the deciding seat
(`Observation.sample_game`), each played to its end by random agents
(tests/continuations.py). A made-up game that a rule stops with an error is an impossible
game the sampler invented. Prints, per file, the fraction that ended with its 95% Wilson
interval, and the first errors met.

Usage, from the repository root:

    python -m benchmarks.sampled_games [FILE ...] [--games N] [--players N] [--samples K]
                                       [--every S] [--json]

Without files: the Sushi Go and its variant under tests/games, and every seed game.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import rulesdsl  # noqa: E402
from rulesdsl.agents.play import wilson  # noqa: E402
from tests.continuations import Tally, continuations  # noqa: E402

FILES = ["tests/games/sushi_go.rules", "tests/games/sushi_go_in_turn.rules",
         "games/cromlech/cromlech.rules", "games/cleromancy/cleromancy.rules",
         "games/cleromancy/expedition.rules", "games/cronberg/cronberg.rules",
         "games/solstice/solstice.rules", "games/isle_of_skye/isle_of_skye.rules",
         "games/isle_of_skye/druids.rules", "games/goofspiel/goofspiel.rules"]


def measure(path: str, games: int, players: int | None, samples: int,
            every: int) -> tuple[Tally, float]:
    rules = rulesdsl.load(ROOT / path)
    low, high = rules.player_range
    counts = [players] if players else list(range(low, high + 1))
    tally = Tally()
    start = time.perf_counter()
    for seed in range(1, games + 1):
        n = counts[(seed - 1) % len(counts)]
        tally.add(continuations(rules, n, seed, samples=samples, every=every))
    return tally, time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="*", default=FILES)
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--players", type=int)
    ap.add_argument("--samples", type=int, default=2)
    ap.add_argument("--every", type=int, default=7)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    out = []
    for path in args.files:
        tally, seconds = measure(path, args.games, args.players, args.samples, args.every)
        low, high = wilson(tally.ended, tally.tried) if tally.tried else (0.0, 1.0)
        row = {"file": path, "tried": tally.tried, "ended": tally.ended,
               "rate": tally.ended / tally.tried if tally.tried else None,
               "low": low, "high": high, "seconds": round(seconds, 1),
               "errors": sorted({s.error for s in tally.stopped})[:3]}
        out.append(row)
        if not args.json:
            rate = f"{row['rate']:.1%}" if tally.tried else "-"
            print(f"{path}: {tally.ended} of {tally.tried} sampled games ended ({rate}, "
                  f"{low:.1%} to {high:.1%}), {seconds:.0f} s", flush=True)
            for error in row["errors"]:
                print(f"    {error}")
    if args.json:
        print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
