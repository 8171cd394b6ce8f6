"""What a base-against-variant study of each seed game costs with study-grade bots.

A designer's study is `rulesdsl simulate BASE VARIANT --games 1000 --agents good
--workers 2`: 1,000 games of each file, every seat played by the preset. This script
plays N games of each file (the same seeds for both, as simulate does), the preset at
every seat, in `--workers` processes, and reports:

- the wall time of those 2N games, and the seconds of each game on its worker's clock
  (the rules loaded before it starts; the mean, with its 95% interval from the games'
  spread, and the CPU seconds beside it);
- the wall time of the 1,000-game study, *extrapolated* from the N games when N is below
  1,000: 2,000 games times the mean seconds a game, over the workers (who play side by
  side); its interval carries the per-game interval over. It says "extrapolated from N
  games" whenever it is. A busy machine stretches the clock: the CPU seconds say by how
  much, and the study on a quiet machine is given from them too (2,000 games times the
  CPU seconds a game, over the workers).

The studies (issue 37): Cromlech against Hardcore at 4 players, Cleromancy against Rush,
Cronberg against its triple parks, Solstice at 4 players against a shorter year (nine
months: a variant written to a temporary folder that extends the base, `replace const
MONTHS = 9`), Isle of Skye against the Druids.

With `--native`, the rules are built with Cython (compile/native.py, as `simulate
--native` builds them; the first run builds and keeps them): the same games, so the same
decisions a game.

Usage, from the repository root:

    python -m benchmarks.study_cost [--agents good] [--games 20] [--workers 2]
        [--only NAME ...] [--target 1000] [--native] [--json]
"""

from __future__ import annotations

import argparse
import json
import math
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from functools import lru_cache
from pathlib import Path
from typing import Any

import rulesdsl
from benchmarks.stats import Z95
from rulesdsl.agents import parse_agents
from rulesdsl.agents.play import agents_for, play_out
from rulesdsl.loader import backend_for

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "games"
SOLSTICE = GAMES / "solstice" / "solstice.rules"
SHORTER_YEAR = f"extends {json.dumps(str(SOLSTICE))}\n\nreplace const MONTHS = 9\n"

# name, base, variant (a path, or None for the shorter year), players
STUDIES: list[tuple[str, str, str | None, int]] = [
    ("cromlech", "cromlech/cromlech.rules", "cromlech/hardcore.rules", 4),
    ("cleromancy", "cleromancy/cleromancy.rules", "cleromancy/rush.rules", 2),
    ("cronberg", "cronberg/cronberg.rules", "cronberg/parks_triple.rules", 2),
    ("solstice", "solstice/solstice.rules", None, 4),
    ("isle_of_skye", "isle_of_skye/isle_of_skye.rules", "isle_of_skye/druids.rules", 2),
]


@lru_cache(maxsize=8)
def _rules(path: str, native: bool = False) -> rulesdsl.Rules:
    # the shorter year extends the base from there
    rules = rulesdsl.load(path, include=[str(SOLSTICE.parent)], backend=backend_for(native))
    if native and rules.program.backend != "native":
        raise SystemExit(f"{path}: the rules could not be built (see the message above)")
    return rules


def play(job: tuple[str, int, int, str, bool]) -> tuple[float, float, int]:
    """One game with the agents at every seat: its wall and CPU seconds (the rules loaded
    before the clocks start) and its decisions."""
    path, players, seed, agents, native = job
    rules = _rules(path, native)
    wall, cpu = time.perf_counter(), time.process_time()
    game = rules.new_game(players=players, seed=seed)
    play_out(game, agents_for([agents], players, seed))
    return time.perf_counter() - wall, time.process_time() - cpu, len(game.history)


def measure(name: str, base: str, variant: str, players: int, agents: str, games: int,
            workers: int, target: int, native: bool = False) -> dict[str, Any]:
    jobs = [(path, players, seed, agents, native) for path in (base, variant)
            for seed in range(1, games + 1)]
    start = time.perf_counter()
    if workers > 1:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            done = list(pool.map(play, jobs, chunksize=1))
    else:
        done = [play(job) for job in jobs]
    wall = time.perf_counter() - start
    walls = [w for w, _, _ in done]
    mean = sum(walls) / len(walls)
    sd = math.sqrt(sum((w - mean) ** 2 for w in walls) / max(len(walls) - 1, 1))
    half = Z95 * sd / math.sqrt(len(walls))
    cpu = sum(c for _, c, _ in done) / len(done)
    per_game = 1 / workers  # the workers play side by side, each game's clock its own

    def study(x: float) -> float:
        return 2 * target * x * per_game

    return {"study": name, "players": players, "agents": agents, "native": native,
            "games": games,
            "workers": workers, "wall_seconds": round(wall, 1),
            "wall_per_game": round(mean, 3),
            "wall_per_game_interval": [round(max(0.0, mean - half), 3), round(mean + half, 3)],
            "cpu_per_game": round(cpu, 3),
            "decisions_per_game": round(sum(d for _, _, d in done) / len(done), 1),
            "target": target,
            "study_seconds": round(study(mean)),
            "study_interval": [round(study(max(0.0, mean - half))), round(study(mean + half))],
            "study_seconds_quiet": round(2 * target * cpu / workers),
            "extrapolated": games < target}


def describe(out: dict[str, Any]) -> str:
    low, high = out["study_interval"]
    how = (f"extrapolated from {out['games']} games of each file"
           if out["extrapolated"] else "measured")
    built = ", built" if out["native"] else ""
    return (f"{out['study']} ({out['players']} players, {out['agents']}{built}): "
            f"{out['games']} "
            f"games of each file in {out['wall_seconds']} s with {out['workers']} workers; "
            f"{out['wall_per_game']} s a game ({out['wall_per_game_interval'][0]} to "
            f"{out['wall_per_game_interval'][1]}; {out['cpu_per_game']} s of CPU), "
            f"{out['decisions_per_game']} decisions; "
            f"a {out['target']:,}-game study: {out['study_seconds'] / 60:.0f} min "
            f"({low / 60:.0f} to {high / 60:.0f}), {how}; on a quiet machine (the CPU "
            f"seconds) {out['study_seconds_quiet'] / 60:.0f} min")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--agents", default="good", help="the agent at every seat (a preset)")
    p.add_argument("--games", type=int, default=20, help="games of each file measured")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--target", type=int, default=1000, help="the study's games per file")
    p.add_argument("--only", nargs="+", metavar="NAME", help="only these studies")
    p.add_argument("--native", action="store_true",
                   help="the rules built with Cython, as simulate --native builds them")
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    if args.games < 2 or args.workers < 1 or args.target < 1:
        p.error("--games must be at least 2, --workers and --target at least 1")
    (spec,) = parse_agents(args.agents)  # a mistake stops here, before any game
    agents = str(spec)
    with tempfile.TemporaryDirectory() as folder:
        shorter = Path(folder) / "shorter_year.rules"
        shorter.write_text(SHORTER_YEAR, encoding="utf-8")
        for name, base, variant, players in STUDIES:
            if args.only and not any(o in name for o in args.only):
                continue
            out = measure(name, str(GAMES / base),
                          str(GAMES / variant) if variant else str(shorter), players,
                          agents, args.games, args.workers, args.target, args.native)
            print(json.dumps(out) if args.json else describe(out), flush=True)


if __name__ == "__main__":
    main()
