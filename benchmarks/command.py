"""Benchmark: where the CPU of `rulesdsl simulate` goes, the command against its worker.

For a game, each round plays games 1 to N twice: through the worker alone (`play_batch` in
batches of simulate's size, in this process), then as the command does once the rules are
loaded (`run_study` with a new SQLite file: one worker process plays, the command's process
stores each batch and sums the games up). The CPU of the command's process and of its
worker process are taken apart (`getrusage`, to the microsecond where `os.times` counts
hundredths: a tenth of tic-tac-toe's 5000 games; the children's counted when they end), and
each is divided by the worker's own CPU; the clock's times too. Medians of the rounds. The
rules are loaded as the command loads them, the cycle collector's permanent generation
holding them (loader.lasting), or its collections would look through them while the
command's process reads the games back.

    python -m benchmarks.command GAME N [--repeat R]

(GAME a folder of games/, the rule file of its own name.)
"""

import argparse
import os
import resource
import statistics
import tempfile
import time
from pathlib import Path

import rulesdsl
from rulesdsl.balance.games import Batch, Plan, play_batch, remember
from rulesdsl.balance.running import MAX_BATCH
from rulesdsl.balance.study import Options, run_study
from rulesdsl.loader import lasting

ROOT = Path(__file__).resolve().parent.parent


def round_of(path: str, rules, players: int, games: int) -> tuple[float, ...]:
    """(worker CPU, command's process CPU, its worker process CPU, worker clock, command
    clock) for one round."""
    plan = Plan(path, players, ("random",), 1)
    remember(plan, rules)
    cpu, clock = time.process_time(), time.perf_counter()
    for start in range(1, games + 1, MAX_BATCH):
        play_batch(Batch(plan, tuple(range(start, min(start + MAX_BATCH, games + 1)))))
    worker_cpu, worker_clock = time.process_time() - cpu, time.perf_counter() - clock
    with tempfile.TemporaryDirectory() as folder:
        before, clock = _cpu(), time.perf_counter()
        run_study([path], [rules], Options(players=players, games=games,
                                           db=str(Path(folder) / "study.db")))
        after, command_clock = _cpu(), time.perf_counter() - clock
    return (worker_cpu, after[0] - before[0], after[1] - before[1], worker_clock,
            command_clock)


def _cpu() -> tuple[float, float]:
    """CPU seconds (user and system) of this process, and of its children that ended."""
    me, children = (resource.getrusage(who) for who in (resource.RUSAGE_SELF,
                                                        resource.RUSAGE_CHILDREN))
    return me.ru_utime + me.ru_stime, children.ru_utime + children.ru_stime


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.command",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("games", type=int)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    path = str(ROOT / "games" / args.game / f"{args.game}.rules")
    with lasting(freeze=True):  # as the command loads them: frozen, never looked through
        rules = rulesdsl.load(path)
    players = rules.player_range[0]
    load = os.getloadavg()[0]
    rows = [round_of(path, rules, players, args.games) for _ in range(args.repeat)]

    def median(f) -> float:
        return round(statistics.median(f(r) for r in rows), 3)

    print(f"{args.game}, {args.games} games: command's process CPU / worker's "
          f"{median(lambda r: r[1] / r[0])}, worker process CPU / worker's "
          f"{median(lambda r: r[2] / r[0])}, clock command / worker "
          f"{median(lambda r: r[4] / r[3])} (load {load:.1f} to {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    main()
