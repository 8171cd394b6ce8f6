"""Benchmark: random playouts with the rulesdsl engine vs. hand-written Python.

For each game, load its rule file, then play whole random games for a fixed
time budget with the engine and with the hand-written reference
implementation in ``benchmarks/handwritten/``, and report playouts per second
for both and their ratio (rulesdsl / hand-written). The engine is timed twice:
bare (`Rules.new_game` and `apply_index` in a loop) and as `rulesdsl simulate
--workers 1` plays (its worker's `play_batch`: a random agent per seat and game,
each decision through the seat's observation, a record of each game with its
result, statistics and decisions; not the storing of the records in SQLite, which
docs/performance.md measures on its own). The command itself is timed too (`command/s`:
`run_study` as `rulesdsl simulate --workers 1 --db FILE` runs it once the rules are
loaded, as many games as the worker played in its round), with its rate against the
worker's in the same round (`command/worker`). A fourth column, `rules alone`, times the
rules' generated code with nothing of the engine around it: a bare loop that puts a
random option where the pending decision expects it and calls the block that goes on
(no check of the index, no history, no step budget reset by `apply_index`, no limit):
no loop around this code can be faster, so its ratio bounds what the engine could reach
without generating faster code for the rules themselves. A fifth, `own generator`, plays
the hand-written games again with every draw from the engine's generator (`Generator.rand`:
xorshift64*, its state one integer, the same draws on every platform, which every record,
save and seeded result depends on) in place of `random.Random.randrange` (Mersenne Twister,
written in C): its ratio to the hand-written rate is what the draws alone leave of 1, a
bound no engine that draws from that generator can pass through simulate.

With `--native`, the seed games instead (Cromlech, Cleromancy, Solstice, Isle of Skye, or
those `--games` names): random games a second and MCTS simulations a second (`--sims`,
default 100, a search a round), on the plain path and built with Cython, paired round by
round (benchmarks/native.py, which this runs; the first run builds the rules and keeps
them in the user's cache).

Usage, from the repository root:

    python -m benchmarks.run [--games NAME ...] [--seconds S] [--repeat N] [--seed N] [--json]
    python -m benchmarks.run --native [--games NAME ...] [--seconds S] [--repeat N] [--sims N]
"""

import argparse
import json
import random
import statistics
import time
from pathlib import Path

import rulesdsl
from benchmarks import native
from benchmarks.handwritten import connect_four, pig, tictactoe, yacht
from rulesdsl.balance.games import Batch, Plan, play_batch, remember
from rulesdsl.balance.running import MAX_BATCH
from rulesdsl.interpreter.state import Generator

ROOT = Path(__file__).resolve().parent.parent
SEED_GAMES = ["cromlech", "cleromancy", "solstice", "isle_of_skye"]

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


def bench_rules_alone(rules, players: int, seconds: float, seed: int) -> tuple[int, float]:
    """Play random games by calling the generated blocks directly (see the module's
    docstring); return (games, elapsed). Reads the compiled program and the state, which
    nothing but a benchmark should."""
    from rulesdsl.interpreter.state import Generator
    from rulesdsl.interpreter.stepping import advance
    from rulesdsl.program.runtime import SUSPEND

    prog = rules.program
    blocks, slots = prog.blocks, prog.slots
    rand = Generator(seed).rand
    games = 0
    start = time.perf_counter()
    while True:
        st = rules.new_game(players=players, seed=seed + games).st
        while st.result is None:  # decisions only: chance steps are rolled at once
            p = st.pending
            fr = st.stack[-1]
            fr[1][slots[p[0]]] = p[2][rand(len(p[2]))]
            st.pending = None
            st.steps = 0
            r = blocks[fr[0]](st, fr)
            if r != SUSPEND:
                advance(prog, st, r)
        games += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return games, elapsed


def bench_simulate(plan: Plan, seconds: float) -> tuple[int, float]:
    """Play games as a `simulate` worker does, in batches of simulate's size, until
    `seconds` have passed; return (games, elapsed)."""
    games = 0
    start = time.perf_counter()
    while True:
        numbers = tuple(range(games + 1, games + MAX_BATCH + 1))
        result = play_batch(Batch(plan, numbers))
        assert result.failed is None, result.failed
        games += len(result.records)
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return games, elapsed


def bench_command(path: str, rules, players: int, games: int, seed: int) -> tuple[int, float]:
    """Play `games` games as the command `rulesdsl simulate FILE --workers 1 --db DB` does
    once the rules are loaded (balance/study.py: the games played in a worker process, each
    batch stored in a new SQLite file as it comes, the figures summed up at the end);
    return (games, elapsed)."""
    import tempfile

    from rulesdsl.balance.study import Options, run_study

    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        run_study([path], [rules], Options(players=players, games=games, seed=seed,
                                           db=str(Path(folder) / "study.db")))
        return games, time.perf_counter() - start


def bench_handwritten(module, seconds: float, seed: int,
                      draws=random.Random) -> tuple[int, float]:
    """Play random hand-written games, drawing from `draws(seed)` (Python's generator, or
    the engine's: `EngineDraws`), until `seconds` have passed; return (games, elapsed)."""
    rng = draws(seed)
    play_random = module.play_random
    games = 0
    start = time.perf_counter()
    while True:
        play_random(rng)
        games += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return games, elapsed


class EngineDraws:
    """A stand-in for `random.Random` in the hand-written games (they call only
    `randrange(n)`): the draws of the engine's generator, seeded as a game is."""

    __slots__ = ("randrange",)

    def __init__(self, seed: int):
        self.randrange = Generator(seed).rand


def run_game(name: str, seconds: float, seed: int, repeat: int) -> dict:
    """Time the five sides `repeat` times, in turn (A B C D E A B C D E ...), and report the
    medians: of each side's rate, and of the ratios within each round (robust to a
    drifting machine)."""
    rule_file, module = GAMES[name]
    rules = rulesdsl.load(str(ROOT / rule_file))
    plan = Plan(str(ROOT / rule_file), module.PLAYERS, ("random",), seed)
    remember(plan, rules)
    engine_rates, simulate_rates, hand_rates, command_rates = [], [], [], []
    ratios, simulate_ratios, alone_ratios, drawn_ratios = [], [], [], []
    command_ratios = []
    for _ in range(repeat):
        engine_games, engine_time = bench_engine(rules, module.PLAYERS, seconds, seed)
        alone_games, alone_time = bench_rules_alone(rules, module.PLAYERS, seconds, seed)
        simulate_games, simulate_time = bench_simulate(plan, seconds)
        # as many games as the worker played in its time: the command's own costs (a
        # worker process started, the database, the figures) count at their real share
        command_games, command_time = bench_command(str(ROOT / rule_file), rules,
                                                    module.PLAYERS, simulate_games, seed)
        command_rates.append(command_games / command_time)
        command_ratios.append(command_rates[-1] / (simulate_games / simulate_time))
        hand_games, hand_time = bench_handwritten(module, seconds, seed)
        drawn_games, drawn_time = bench_handwritten(module, seconds, seed, EngineDraws)
        engine_rates.append(engine_games / engine_time)
        simulate_rates.append(simulate_games / simulate_time)
        hand_rates.append(hand_games / hand_time)
        ratios.append(engine_rates[-1] / hand_rates[-1])
        simulate_ratios.append(simulate_rates[-1] / hand_rates[-1])
        alone_ratios.append(alone_games / alone_time / hand_rates[-1])
        drawn_ratios.append(drawn_games / drawn_time / hand_rates[-1])
    return {
        "game": name,
        "players": module.PLAYERS,
        "runs": repeat,
        "rulesdsl_per_sec": round(statistics.median(engine_rates), 1),
        "simulate_per_sec": round(statistics.median(simulate_rates), 1),
        "handwritten_per_sec": round(statistics.median(hand_rates), 1),
        "ratio": round(statistics.median(ratios), 4),
        "ratio_min": round(min(ratios), 4),
        "ratio_max": round(max(ratios), 4),
        "simulate_ratio": round(statistics.median(simulate_ratios), 4),
        "simulate_ratio_min": round(min(simulate_ratios), 4),
        "simulate_ratio_max": round(max(simulate_ratios), 4),
        "command_per_sec": round(statistics.median(command_rates), 1),
        "command_to_worker": round(statistics.median(command_ratios), 4),
        "command_to_worker_min": round(min(command_ratios), 4),
        "command_to_worker_max": round(max(command_ratios), 4),
        "rules_alone_ratio": round(statistics.median(alone_ratios), 4),
        "own_generator_ratio": round(statistics.median(drawn_ratios), 4),
    }


def print_table(results: list[dict]) -> None:
    header = (f"{'game':<14}{'rulesdsl/s':>12}{'simulate/s':>12}{'hand-written/s':>16}"
              f"{'ratio':>8}{'min-max':>13}{'simulate ratio':>16}{'min-max':>13}"
              f"{'rules alone':>13}{'own generator':>15}{'command/s':>11}"
              f"{'command/worker':>16}{'min-max':>13}")
    print(header)
    print("-" * len(header))
    for r in results:
        print(f"{r['game']:<14}{r['rulesdsl_per_sec']:>12,.0f}{r['simulate_per_sec']:>12,.0f}"
              f"{r['handwritten_per_sec']:>16,.0f}{r['ratio']:>8.3f}"
              f"{r['ratio_min']:>7.3f}-{r['ratio_max']:.3f}"
              f"{r['simulate_ratio']:>16.3f}"
              f"{r['simulate_ratio_min']:>7.3f}-{r['simulate_ratio_max']:.3f}"
              f"{r['rules_alone_ratio']:>13.3f}{r['own_generator_ratio']:>15.3f}"
              f"{r['command_per_sec']:>11,.0f}{r['command_to_worker']:>16.3f}"
              f"{r['command_to_worker_min']:>7.3f}-{r['command_to_worker_max']:.3f}")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.run",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", choices=[*GAMES, *native.GAMES],
                        metavar="NAME",
                        help="games to run (default: all: " + ", ".join(GAMES) + "; with "
                             "--native: " + ", ".join(SEED_GAMES) + ")")
    parser.add_argument("--native", action="store_true",
                        help="the seed games, plain against built with Cython")
    parser.add_argument("--sims", type=int, default=100,
                        help="with --native: an MCTS search of this many simulations a "
                             "round on each side (default: %(default)s)")
    parser.add_argument("--seconds", type=float, default=3.0,
                        help="time budget per side per game (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default: %(default)s)")
    parser.add_argument("--repeat", type=int, default=5,
                        help="timed runs of each side; medians are reported (default: %(default)s)")
    parser.add_argument("--json", action="store_true", help="print results as JSON")
    args = parser.parse_args(argv)
    if args.native:
        built = [native.run_game(name, args.seconds, args.repeat, args.seed, sims=args.sims)
                 for name in args.games or SEED_GAMES]
        if args.json:
            print(json.dumps(built, indent=2))
        else:
            native.print_table(built)
        return
    if not set(args.games or GAMES) <= set(GAMES):
        parser.error("the seed games are measured with --native")
    results = [run_game(name, args.seconds, args.seed, args.repeat)
               for name in args.games or GAMES]
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        print_table(results)


if __name__ == "__main__":
    main()
