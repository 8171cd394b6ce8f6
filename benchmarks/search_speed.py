"""Simulations per second of the search agents, game by game.

For each game, a position a few random decisions into a game (seeded), and one search of
`--sims` simulations by `mcts` and by `ismcts` with their default settings; the median of
`--repeat` runs (each from another position). A search proved early counts the
simulations it ran. Seconds are the process's CPU time (the machine is shared: the wall
clock would count the other programs' turns).

Usage, from the repository root:

    python -m benchmarks.search_speed [--sims 300] [--repeat 3] [--only NAME ...] [--json]

(`--only`: the games whose rule file's name holds one of the NAMEs, e.g. `--only skye`).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from pathlib import Path

import rulesdsl
from rulesdsl.agents import make_agent

ROOT = Path(__file__).resolve().parent.parent

# game, players, random decisions before the searched position
GAMES = [
    ("tictactoe/tictactoe.rules", 2, 1),
    ("connect_four/connect_four.rules", 2, 2),
    ("pig/pig.rules", 2, 4),
    ("yacht/yacht.rules", 1, 2),
    ("cronberg/cronberg.rules", 2, 6),
    ("cromlech/cromlech.rules", 2, 40),
    ("cleromancy/cleromancy.rules", 2, 8),
    ("goofspiel/goofspiel.rules", 2, 2),
    ("solstice/solstice.rules", 3, 12),
    ("isle_of_skye/isle_of_skye.rules", 2, 20),
    ("isle_of_skye/druids.rules", 2, 20),
]


def position(rules: rulesdsl.Rules, players: int, seed: int, before: int) -> rulesdsl.Game:
    game = rules.new_game(players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(before):
        game.apply_index(rng.randrange(game.num_options()))
    while game.num_options() < 2:   # a position with a choice to make
        game.apply_index(0)
    return game


def rate(spec: str, game: rulesdsl.Game, seed: int) -> float:
    agent = make_agent(spec, seed)
    seat = game.decider
    assert seat is not None
    start = time.process_time()
    agent.choose(rulesdsl.Observation(game, seat))
    report = agent.last  # type: ignore[attr-defined]
    return report.simulations / (time.process_time() - start)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--sims", type=int, default=300)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--only", nargs="+", metavar="NAME", default=[],
                   help="only the games whose rule file's name holds one of these")
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    rows = []
    for path, players, before in GAMES:
        if args.only and not any(name in path for name in args.only):
            continue
        rules = rulesdsl.load(ROOT / "games" / path)
        row: dict = {"game": rules.name, "players": players}
        for name in ("mcts", "ismcts"):
            rates = [rate(f"{name}:sims={args.sims}", position(rules, players, k, before), k)
                     for k in range(args.repeat)]
            row[name] = round(statistics.median(rates))
        rows.append(row)
        if not args.json:
            seats = f"{players} player{'s' if players > 1 else ''}"
            print(f"{row['game']} ({seats}): mcts {row['mcts']:,} sims/s, "
                  f"ismcts {row['ismcts']:,} sims/s", flush=True)
    if args.json:
        print(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
