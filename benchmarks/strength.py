"""How strong an agent is: many games against other agents, with 95% intervals.

The agent under test takes one seat and the opponent agent all the others; its seat
moves round from game to game (game k: seat k mod players), so no seat's advantage
counts for or against it. Game k uses the game seed `seed + k` and agents seeded from it
(as `rulesdsl simulate` does), so a run is reproduced by the same command, whatever the
number of workers (with a `time` budget it is not: the simulations then depend on the
machine).

Reported: wins alone, shared first places and losses of the agent under test; its score
(1 a win alone, 1/k a first place shared by k, 0 otherwise) with a 95% interval; its mean
score in the game, where the game keeps one; and its thinking time per decision (those
where it had more than one option), mean and largest, in CPU seconds of the process (the
machine is shared: the clock would count other programs' work). `rulesdsl strength` plays
a round robin of several agents with the same games (`rulesdsl/agents/strength.py`).

Usage, from the repository root:

    python -m benchmarks.strength FILE --agent mcts:sims=200 --against random
        [--players N] [--games 100] [--seed 1] [--workers 2] [--set NAME=VALUE] [--json]
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import rulesdsl
from benchmarks.stats import mean_interval, percent
from rulesdsl.agents import parse_agents
from rulesdsl.agents.strength import play_game


def play_one(args: tuple) -> dict[str, Any]:
    """One game: the agent under test at seat `me`, the opponent at the others."""
    path, settings, players, seed, me, agent, against = args
    rules = rulesdsl.load(path, settings or None)
    g = play_game(rules, players, seed, me, agent, against)
    return {"seed": seed, "me": me, "score": g.score, "alone": g.alone,
            "shared": g.score > 0 and not g.alone,
            "points": g.points, "seconds": g.seconds, "moves": g.decisions,
            "longest": g.longest, "decisions": g.length}


def measure(path: str, agent: str, against: str, players: int | None, games: int,
            seed: int, workers: int, settings: dict[str, Any],
            out: str | None = None) -> dict[str, Any]:
    rules = rulesdsl.load(path, settings or None)
    players = rules.check_players(players)
    for spec in (agent, against):
        parse_agents(spec)  # a mistake is reported before any game is played
    jobs = [(path, settings, players, seed + k, k % players, agent, against)
            for k in range(games)]
    start = time.perf_counter()
    if workers > 1:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            results = list(_kept(pool.map(play_one, jobs), out))
    else:
        results = list(_kept(map(play_one, jobs), out))
    seconds = time.perf_counter() - start
    return summary(path, agent, against, players, seed, settings, results, seconds)


def _kept(results: Iterator[dict[str, Any]], out: str | None) -> Iterator[dict[str, Any]]:
    """The games as they finish, each written to `out` as a line of JSON at once (so that
    a run stopped early keeps the games it played: `--from` reads them)."""
    for r in results:
        if out is not None:
            with open(out, "a", encoding="utf-8") as f:
                f.write(json.dumps(r) + "\n")
        yield r


def summary(path: str, agent: str, against: str, players: int, seed: int,
            settings: dict[str, Any], results: list[dict[str, Any]],
            seconds: float) -> dict[str, Any]:
    """The figures of a pairing from its games' results."""
    games = len(results)
    mean, low, high = mean_interval([r["score"] for r in results])
    moves = sum(r["moves"] for r in results)
    points = [r["points"] for r in results if r["points"] is not None]
    return {
        "file": path, "players": players, "agent": agent, "against": against,
        "games": games, "seed": seed, "settings": settings,
        "wins": sum(r["alone"] for r in results),
        "shared": sum(r["shared"] for r in results),
        "losses": sum(r["score"] == 0 for r in results),
        "score": round(mean, 4), "interval": [round(low, 4), round(high, 4)],
        "mean_points": round(sum(points) / len(points), 2) if points else None,
        "seconds_per_move": round(sum(r["seconds"] for r in results) / moves, 4)
        if moves else 0.0,
        "longest_move": round(max(r["longest"] for r in results), 3),
        "decisions_per_game": round(sum(r["decisions"] for r in results) / games, 1),
        "seconds": round(seconds, 1),
    }


def describe(out: dict[str, Any]) -> str:
    points = f"; its mean score {out['mean_points']}" if out["mean_points"] is not None \
        else ""
    return (f"{out['file']} ({out['players']} players): {out['agent']} against "
            f"{out['against']}, {out['games']} games: {out['wins']} wins, {out['shared']} "
            f"shared, {out['losses']} losses; score {percent(out['score'])} (95% interval "
            f"{percent(out['interval'][0])} to {percent(out['interval'][1])}){points}; "
            f"thinking {out['seconds_per_move']:.3f} s a move (longest "
            f"{out['longest_move']:.2f} s); {out['decisions_per_game']} decisions a game; "
            f"{out['seconds']} s in all")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("file")
    p.add_argument("--agent", required=True, help="the agent under test, e.g. mcts:sims=200")
    p.add_argument("--against", default="random", help="the agent at the other seats")
    p.add_argument("--players", type=int)
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    p.add_argument("--json", action="store_true")
    p.add_argument("--out", metavar="FILE", help="write each game's result to FILE (a line "
                   "of JSON each) as soon as it is played")
    p.add_argument("--from", dest="source", metavar="FILE", help="report the games of a "
                   "--out file instead of playing (a run stopped early: its games so far)")
    args = p.parse_args()
    settings: dict[str, Any] = {}
    for item in args.set:
        name, _, value = item.partition("=")
        settings[name] = int(value) if value.lstrip("-").isdigit() else value
    if args.source:
        with open(args.source, encoding="utf-8") as f:
            results = [json.loads(line) for line in f if line.strip()]
        if not results:
            p.error(f"{args.source} holds no games")
        players = rulesdsl.load(args.file, settings or None).check_players(args.players)
        out = summary(args.file, args.agent, args.against, players, args.seed, settings,
                      results, 0.0)
    else:
        out = measure(args.file, args.agent, args.against, args.players, args.games,
                      args.seed, args.workers, settings, args.out)
    print(json.dumps(out, indent=1) if args.json else describe(out))


if __name__ == "__main__":
    main()
