"""Benchmark: the territory helpers (program/helpers/tiles.py) over the positions of random games.

Random games of a rule file with territories (Isle of Skye) are played, seeded, and every
call the rules make of the helpers timed here is kept with a copy of the boards it read:
`_tareas` (areas and completed areas, of every terrain or of one), `_tcentre_done`
(`completed_at`), `_tspots` and `_thas_spot` (where a tile fits). Each helper then
answers its calls again, `--repeat` times in turn; the least time of each helper's calls
is given per call, in microseconds, and as calls a second. Reads the compiled program's
helpers, which nothing but a benchmark should.

Usage, from the repository root:

    python -m benchmarks.territory [FILE] [--players N] [--games N] [--repeat N]
                                   [--helper NAME] [--json]

(`--helper`: the helper whose calls a second `per_sec` is, for `benchmarks.paired`;
default `_tareas`).
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import rulesdsl
from benchmarks.playouts import play

HELPERS = ("_tareas", "_tcentre_done", "_tspots", "_thas_spot")
KEPT = 2000  # calls kept per helper, at most


def namespace_of(rules: rulesdsl.Rules) -> dict[str, Any]:
    """The generated module's names: its tables and the helpers it calls."""
    return next(b for b in rules.program.blocks if b is not None).__globals__


def calls_of(rules: rulesdsl.Rules, players: int, games: int) -> tuple[dict, int]:
    """The calls of each helper in `games` random games (seeds 1 to games), each with
    copies of the lists it was given; and the decisions the games took."""
    namespace = namespace_of(rules)
    kept: dict[str, list[tuple]] = {name: [] for name in HELPERS}
    originals = {name: namespace[name] for name in HELPERS}

    def keeper(name: str) -> Any:
        helper, calls = originals[name], kept[name]

        def keep(*args: Any) -> Any:
            if len(calls) < KEPT:
                calls.append(tuple(a[:] if isinstance(a, list) else a for a in args))
            return helper(*args)
        return keep

    try:
        for name in HELPERS:
            namespace[name] = keeper(name)
        _, decisions = play(rules, players, games)  # as benchmarks.playouts plays them
    finally:
        namespace.update(originals)
    return {name: (originals[name], calls) for name, calls in kept.items()}, decisions


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.territory",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", default="games/isle_of_skye/druids.rules")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--games", type=int, default=10, help="default: %(default)s")
    parser.add_argument("--repeat", type=int, default=5, help="default: %(default)s")
    parser.add_argument("--helper", choices=HELPERS, default="_tareas")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    found, decisions = calls_of(rulesdsl.load(args.file), args.players, args.games)
    least: dict[str, float] = {}
    for _ in range(args.repeat):
        for name, (helper, calls) in found.items():
            start = time.process_time()
            for call in calls:
                helper(*call)
            seconds = time.process_time() - start
            least[name] = min(least.get(name, seconds), seconds)
    micro = {name: round(least[name] / len(calls) * 1e6, 2)
             for name, (_, calls) in found.items() if calls}
    chosen = found[args.helper][1]
    out = {"file": args.file, "players": args.players, "games": args.games,
           "decisions": decisions, "calls": {name: len(c) for name, (_, c) in found.items()},
           "microseconds": micro,
           "per_sec": round(len(chosen) / least[args.helper]) if chosen and
           least[args.helper] else 0}
    if args.json:
        print(json.dumps(out, indent=1))
    else:
        print(f"{args.file}, {args.players} players, {args.games} games ({decisions:,} "
              f"decisions), least of {args.repeat}, microseconds a call: " +
              ", ".join(f"{name} {us} ({out['calls'][name]:,} calls)"
                        for name, us in micro.items()))


if __name__ == "__main__":
    main()
