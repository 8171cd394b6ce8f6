"""Benchmark: a `simulate` worker alone, as a whole process, to time the command against.

`python -m benchmarks.worker FILE --games N` loads the rules as `rulesdsl simulate` does and
plays games 1 to N with random agents through the worker's `play_batch`, in batches of
simulate's size, in this process, storing nothing and summing nothing up: what the command
`rulesdsl simulate FILE --games N --db DB` does less the database, the worker process and
the figures. Timed from outside against the command (docs/performance.md):

    farm-bench -n 5 --vs 'python -m benchmarks.worker FILE --games N' -- \
        sh -c 'rm -f DB; exec rulesdsl simulate FILE --games N --db DB'

(the database removed before each run of the command, or it resumes with nothing to play).
"""

import argparse

from rulesdsl.balance.games import Batch, Plan, play_batch, remember
from rulesdsl.balance.running import MAX_BATCH
from rulesdsl.loader import load, native_backend


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.worker",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--players", type=int)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--native", action="store_true", help="the rules built (--native)")
    args = parser.parse_args(argv)
    kwargs = {"backend": native_backend()} if args.native else {}
    rules = load(args.file, **kwargs)
    players = args.players or rules.player_range[0]
    plan = Plan(args.file, players, ("random",), args.seed, native=args.native)
    remember(plan, rules)
    for start in range(1, args.games + 1, MAX_BATCH):
        result = play_batch(Batch(plan, tuple(range(start, min(start + MAX_BATCH,
                                                               args.games + 1)))))
        assert result.failed is None, result.failed


if __name__ == "__main__":
    main()
