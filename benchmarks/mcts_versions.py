"""MCTS against the MCTS of another commit, at equal thinking time, on paired seeds.

Issue 37 asks for the new MCTS to score at least 60% against the version on main at
equal thinking time. The old version is taken from git (`git show REF:rulesdsl/agents/
mcts.py`, REF by default 3bbe4f3, the last commit before the bots' rework) and loaded as
a temporary module inside this script only (it shares this checkout's engine and search
helpers, `rulesdsl/agents/search.py`, so what differs is the agent's code and
parameters). Both bots get the same thinking time a decision (`--time`) and a budget of
simulations too large to reach first; the thinking time each took is reported. The time
is CPU time of the process (`--clock cpu`, the default: on a machine shared with other
work the wall clock would give each bot what the others left it) or the wall clock
(`--clock wall`, what a person waiting for a bot sees).

Paired seeds: seed s is played once with the new bot in each seat (the old one in every
other seat), from the same deal; the score of a seed is the mean over its seatings of the
new bot's share of first places (1 alone, 1/k shared by k), so chance is 1/players. The
95% interval is the normal one over the seeds' scores (seeds are independent, seatings
of one seed are not). A time budget makes the games depend on the machine: the command
does not give the same games twice, and the load it ran under is reported with it.
`--out FILE` writes each game as a line of JSON as soon as it is played (in order), and
`--from FILE ...` reports the games of such files (the seeds played in every seat): a run
stopped early keeps its games, and runs over other seeds add up.

Usage, from the repository root:

    python -m benchmarks.mcts_versions FILE [--players N] [--seeds 50] [--seed 1]
        [--time 0.05] [--new mcts:depth=10,reuse=true,score=0.5] [--old mcts] [--ref 3bbe4f3]
        [--workers 2] [--clock cpu] [--out FILE] [--from FILE ...] [--json]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from functools import lru_cache
from pathlib import Path
from types import ModuleType
from typing import Any

import rulesdsl
from benchmarks.stats import Z95
from rulesdsl import Observation
from rulesdsl.agents import make_agent, parse_agents, search

ROOT = Path(__file__).resolve().parent.parent
OLD_MODULE = "rulesdsl.agents._mcts_of_ref"
BUDGET = 10**9  # simulations: the clock stops the search first
# the last commit before the bots' rework (kept tree, widening, the heuristic's cut): the
# version the rework is measured against; a later main has the agent in roots.py
BEFORE = "3bbe4f3"


@lru_cache(maxsize=4)
def old_mcts(ref: str) -> ModuleType:
    """The MCTS module of commit `ref`, loaded beside this checkout's agents package."""
    source = subprocess.run(["git", "show", f"{ref}:rulesdsl/agents/mcts.py"], cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout
    spec = importlib.util.spec_from_loader(OLD_MODULE, loader=None)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    module.__package__ = "rulesdsl.agents"
    sys.modules[OLD_MODULE] = module
    exec(compile(source, f"{ref}:rulesdsl/agents/mcts.py", "exec"), module.__dict__)
    return module


def make_old(ref: str, spec: str, seed: int, seconds: float) -> Any:
    """The old MCTS from `spec`'s parameters (`mcts:depth=10`), with the time budget."""
    parsed = parse_agents(spec)[0]
    if parsed.name != "mcts":
        raise SystemExit("--old names the old version's mcts parameters: mcts[:k=v,...]")
    params = dict(parsed.params)
    params.update(time=seconds, sims=BUDGET)
    return old_mcts(ref).MCTSAgent(seed, **params)


def make_new(spec: str, seed: int, seconds: float) -> Any:
    return make_agent(f"{spec}{',' if ':' in spec else ':'}time={seconds},sims={BUDGET}",
                      seed)


class CpuClock:
    """What the search's budget reads as its clock, to count CPU time instead of wall."""

    perf_counter = staticmethod(time.process_time)


def play(job: tuple[str, int, int, int, float, str, str, str, str]) -> dict[str, Any]:
    """One game: the new bot at seat `me`, the old at the others."""
    path, players, seed, me, seconds, new, old, ref, clock = job
    if clock == "cpu":
        search.time = CpuClock  # type: ignore[assignment]  # both versions' Budget
    rules = rulesdsl.load(path)
    game = rules.new_game(players=players, seed=seed)
    bots = [make_new(new, seed * 100 + p, seconds) if p == me else
            make_old(ref, old, seed * 100 + p, seconds) for p in range(players)]
    cpu = [0.0, 0.0]
    moves = [0, 0]
    while not game.over:
        seat = game.decider
        if seat is None:
            game.roll_chance()
            continue
        n = game.num_options()
        started = time.process_time()
        i = bots[seat].choose(Observation(game, seat)) if n > 1 else 0
        if n > 1:
            side = 0 if seat == me else 1
            cpu[side] += time.process_time() - started
            moves[side] += 1
        game.apply_index(i)
    result = game.result
    assert result is not None
    score = 1 / len(result.winners) if me in result.winners else 0.0
    return {"seed": seed, "me": me, "score": score, "cpu": cpu, "moves": moves}


def measure(path: str, players: int | None, seeds: int, first: int, seconds: float,
            new: str, old: str, ref: str, workers: int, clock: str,
            out: str | None) -> dict[str, Any]:
    rules = rulesdsl.load(path)
    players = rules.check_players(players)
    parse_agents(new)
    old_mcts(ref)  # a bad ref stops here, before any game
    jobs = [(path, players, first + s, me, seconds, new, old, ref, clock)
            for s in range(seeds) for me in range(players)]
    load_before = os.getloadavg()
    start = time.perf_counter()
    games = []
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for game in pool.map(play, jobs):
            games.append(game)
            if out is not None:
                with open(out, "a", encoding="utf-8") as f:
                    f.write(json.dumps(game) + "\n")
    wall = time.perf_counter() - start
    return summary(path, players, seconds, f"{new}", f"{old} of {ref}", clock, games,
                   wall, load_before)


def summary(path: str, players: int, seconds: float, new: str, old: str, clock: str,
            games: list[dict[str, Any]], wall: float,
            load_before: tuple[float, float, float]) -> dict[str, Any]:
    """The figures from the games played (whole seeds only: every seating of a seed, so
    the games of several runs' files may be put together)."""
    by_seed: dict[int, dict[int, dict[str, Any]]] = {}
    for g in games:
        by_seed.setdefault(g["seed"], {})[g["me"]] = g
    whole = [seats for seats in by_seed.values() if len(seats) == players]
    games = [g for seats in whole for g in seats.values()]
    per_seed = [sum(g["score"] for g in seats.values()) / players for seats in whole]
    seeds = len(per_seed)
    if not seeds:
        raise ValueError("no seed has been played in every seat")
    mean = sum(per_seed) / seeds
    spread = (sum((x - mean) ** 2 for x in per_seed) / (seeds - 1)) ** 0.5 if seeds > 1 \
        else 0.0
    half = Z95 * spread / seeds ** 0.5
    cpu = [sum(g["cpu"][k] for g in games) for k in (0, 1)]
    moves = [sum(g["moves"][k] for g in games) for k in (0, 1)]
    return {
        "file": path, "players": players, "seeds": seeds, "games": seeds * players,
        "time": seconds, "clock": clock, "new": new, "old": old,
        "score": round(mean, 4),
        "interval": [round(max(0.0, mean - half), 4), round(min(1.0, mean + half), 4)],
        "chance": round(1 / players, 4),
        "cpu_per_move": [round(cpu[k] / moves[k], 4) if moves[k] else 0.0 for k in (0, 1)],
        "wall_seconds": round(wall, 1),
        "load": [round(x, 2) for x in load_before],
        "load_after": [round(x, 2) for x in os.getloadavg()],
    }


def describe(out: dict[str, Any]) -> str:
    low, high = out["interval"]
    new_cpu, old_cpu = out["cpu_per_move"]
    return (f"{out['file']} ({out['players']} players), {out['time']} s a decision "
            f"({out['clock']}): "
            f"{out['new']} against {out['old']}, {out['seeds']} seeds x {out['players']} "
            f"seats: score {out['score']:.3f} (95% interval {low:.3f} to {high:.3f}; "
            f"chance {out['chance']:.3f}); CPU s a decision {new_cpu} new, {old_cpu} old; "
            f"{out['wall_seconds']} s; load {out['load']} before, {out['load_after']} after")


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m benchmarks.mcts_versions",
                                description=__doc__.splitlines()[0])
    p.add_argument("file")
    p.add_argument("--players", type=int)
    p.add_argument("--seeds", type=int, default=50)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--time", type=float, default=0.05, help="seconds a decision, each bot")
    p.add_argument("--new", default="mcts:depth=10,reuse=true,score=0.5",
                   help="this checkout's agent (its time and sims are set here)")
    p.add_argument("--old", default="mcts", help="the old version's mcts and parameters")
    p.add_argument("--ref", default=BEFORE, help="the commit of the old version (default: "
                   "the MCTS before the bots' rework)")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    p.add_argument("--out", metavar="FILE", help="each game as a line of JSON, as played")
    p.add_argument("--from", dest="source", metavar="FILE", nargs="+",
                   help="report the games of --out files instead of playing")
    p.add_argument("--json", action="store_true")
    a = p.parse_args(argv)
    if a.seeds < 1 or a.workers < 1 or a.time <= 0:
        p.error("--seeds and --workers must be at least 1, --time above 0")
    if a.source:
        games = []
        for name in a.source:
            with open(name, encoding="utf-8") as f:
                games += [json.loads(line) for line in f if line.strip()]
        players = rulesdsl.load(a.file).check_players(a.players)
        if not any(sum(g["seed"] == s for g in games) == players for s in
                   {g["seed"] for g in games}):
            p.error("no seed was played in every seat")
        out = summary(a.file, players, a.time, a.new, f"{a.old} of {a.ref}", a.clock,
                      games, 0.0, os.getloadavg())
    else:
        out = measure(a.file, a.players, a.seeds, a.seed, a.time, a.new, a.old, a.ref,
                      a.workers, a.clock, a.out)
    print(json.dumps(out) if a.json else describe(out))


if __name__ == "__main__":
    main()
