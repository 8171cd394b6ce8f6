"""Benchmark: random playouts with the rulesdsl engine vs. hand-written Python.

For each game, load its rule file, then play whole random games for a fixed
time budget with the engine and with the hand-written reference
implementation in ``benchmarks/handwritten/``, and report playouts per second
for both and their ratio (rulesdsl / hand-written).

Usage, from the repository root:

    python -m benchmarks.run [--games NAME ...] [--seconds S] [--seed N] [--json]
"""

import argparse
import json
import random
import time
from pathlib import Path

import rulesdsl

from benchmarks.handwritten import connect_four, pig, tictactoe, yacht

ROOT = Path(__file__).resolve().parent.parent

# name -> (rule file relative to the repository root, hand-written module)
GAMES = {
    "tictactoe": ("games/tictactoe/tictactoe.rules", tictactoe),
    "connect_four": ("games/connect_four/connect_four.rules", connect_four),
    "pig": ("games/pig/pig.rules", pig),
    "yacht": ("games/yacht/yacht.rules", yacht),
}


def bench_engine(rules, players: int, seconds: float, seed: int) -> tuple[int, float]:
    """Play random engine games until `seconds` have passed; return (games, elapsed)."""
    rng = random.Random(seed)
    randrange = rng.randrange
    games = 0
    start = time.perf_counter()
    while True:
        game = rules.new_game(players=players, seed=seed + games)
        while not game.over:
            game.apply_index(randrange(game.num_options()))
        games += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return games, elapsed


def bench_handwritten(module, seconds: float, seed: int) -> tuple[int, float]:
    """Play random hand-written games until `seconds` have passed; return (games, elapsed)."""
    rng = random.Random(seed)
    play_random = module.play_random
    games = 0
    start = time.perf_counter()
    while True:
        play_random(rng)
        games += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return games, elapsed


def run_game(name: str, seconds: float, seed: int) -> dict:
    rule_file, module = GAMES[name]
    rules = rulesdsl.load(str(ROOT / rule_file))
    engine_games, engine_time = bench_engine(rules, module.PLAYERS, seconds, seed)
    hand_games, hand_time = bench_handwritten(module, seconds, seed)
    engine_rate = engine_games / engine_time
    hand_rate = hand_games / hand_time
    return {
        "game": name,
        "players": module.PLAYERS,
        "rulesdsl_playouts": engine_games,
        "rulesdsl_seconds": round(engine_time, 3),
        "rulesdsl_per_sec": round(engine_rate, 1),
        "handwritten_playouts": hand_games,
        "handwritten_seconds": round(hand_time, 3),
        "handwritten_per_sec": round(hand_rate, 1),
        "ratio": round(engine_rate / hand_rate, 4),
    }


def print_table(results: list[dict]) -> None:
    header = f"{'game':<14}{'rulesdsl/s':>14}{'hand-written/s':>16}{'ratio':>10}"
    print(header)
    print("-" * len(header))
    for r in results:
        print(f"{r['game']:<14}{r['rulesdsl_per_sec']:>14,.1f}"
              f"{r['handwritten_per_sec']:>16,.1f}{r['ratio']:>10.4f}")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.run",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", choices=list(GAMES), default=list(GAMES),
                        metavar="NAME", help="games to run (default: all: " + ", ".join(GAMES) + ")")
    parser.add_argument("--seconds", type=float, default=3.0,
                        help="time budget per side per game (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default: %(default)s)")
    parser.add_argument("--json", action="store_true", help="print results as JSON")
    args = parser.parse_args(argv)

    results = [run_game(name, args.seconds, args.seed) for name in args.games]
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        print_table(results)


if __name__ == "__main__":
    main()
