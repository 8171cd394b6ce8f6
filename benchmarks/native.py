"""Benchmark: random games and MCTS simulations a second, plain path against compiled (--native).

For each game, the rules are loaded twice, plain and built with Cython (compile/native.py:
the build kept in the user's cache, so only the first run builds), and random games are
played for a time budget on each in turn (A B A B ...), the same seeds on both: each
round gives a ratio, native over plain, and the medians are reported with their spread,
with the machine's load average before and after. With `--sims N`, each round also runs
one MCTS search of N simulations (`mcts:sims=N`, the agent's defaults otherwise) from the
same position of the game (benchmarks/search_speed.py's, the round's number its seed) on
each path in turn: simulations a second on each, their ratio, and whether both chose the
same option (the same search, only faster). Time is this process's CPU time, not
the clock's: on a shared machine a process waits for a core for much of the clock's time,
and what it waited would count against whichever side was waiting (`--clock` counts the
clock's time instead). With `--helpers`, the two sides are both built, the run-time helpers
(program/helpers/) built on one and as they are on the other: what building them buys.

Usage, from the repository root:

    python -m benchmarks.native [--games NAME ...] [--seconds S] [--repeat N] [--sims N]
                                [--helpers] [--json]
"""

import argparse
import json
import os
import statistics
import time
from pathlib import Path

import rulesdsl
from benchmarks import search_speed
from rulesdsl.agents import make_agent
from rulesdsl.compile.backends import PLAIN
from rulesdsl.compile.native import Cython
from rulesdsl.interpreter.state import Generator
from rulesdsl.loader import native_backend

ROOT = Path(__file__).resolve().parent.parent
GAMES = {
    "cromlech": "games/cromlech/cromlech.rules",
    "cleromancy": "games/cleromancy/cleromancy.rules",
    "solstice": "games/solstice/solstice.rules",
    "isle_of_skye": "games/isle_of_skye/isle_of_skye.rules",
    "cronberg": "games/cronberg/cronberg.rules",
    "tictactoe": "games/tictactoe/tictactoe.rules",
    "connect_four": "games/connect_four/connect_four.rules",
}


CLOCK = time.process_time


class PlainHelpers(Cython):
    """The rules built, the run-time helpers as they are (the other side of --helpers)."""

    def helpers(self, env):
        return PLAIN.helpers(env)


def play(rules, players: int, seconds: float, seed: int) -> tuple[int, float, int]:
    """Random games (a random option at each step, from the engine's generator) until
    `seconds` have passed: (games, elapsed, a digest of every step taken)."""
    rand = Generator(seed).rand
    games, digest = 0, 0
    clock = CLOCK
    start = clock()
    while True:
        game = rules.new_game(players=players, seed=seed + games)
        while not game.over:
            game.apply_index(rand(game.num_options()))
        digest = hash((digest, tuple(game.history)))
        games += 1
        elapsed = clock() - start
        if elapsed >= seconds:
            return games, elapsed, digest


def search(rules, name: str, sims: int, seed: int) -> tuple[float, int]:
    """One `mcts:sims=N` search from search_speed's position of the game: (simulations a
    second of CPU, the option chosen)."""
    players, before = next((players, before) for path, players, before in search_speed.GAMES
                           if path == GAMES[name].removeprefix("games/"))
    game = search_speed.position(rules, players, seed, before)
    agent = make_agent(f"mcts:sims={sims}", seed)
    start = time.process_time()
    chosen = agent.choose(rulesdsl.Observation(game, game.decider))
    return agent.last.simulations / (time.process_time() - start), chosen


def run_game(name: str, seconds: float, repeat: int, seed: int,
             helpers: bool = False, sims: int = 0) -> dict:
    path = str(ROOT / GAMES[name])
    plain = rulesdsl.load(path, backend=PlainHelpers() if helpers else PLAIN)
    built = rulesdsl.load(path, backend=native_backend())
    if built.program.backend != "native":
        raise SystemExit(f"{name}: the rules could not be built (see the message above)")
    players = plain.player_range[0]
    load_before = os.getloadavg()[0]
    plain_rates, native_rates, ratios = [], [], []
    plain_sims, native_sims, sims_ratios, same_choices = [], [], [], True
    for k in range(repeat):
        a_games, a_time, _ = play(plain, players, seconds, seed)
        b_games, b_time, _ = play(built, players, seconds, seed)
        plain_rates.append(a_games / a_time)
        native_rates.append(b_games / b_time)
        ratios.append(native_rates[-1] / plain_rates[-1])
        if sims:
            (a_rate, a_choice), (b_rate, b_choice) = (search(rules, name, sims, seed + k)
                                                      for rules in (plain, built))
            plain_sims.append(a_rate)
            native_sims.append(b_rate)
            sims_ratios.append(b_rate / a_rate)
            same_choices = same_choices and a_choice == b_choice
    # the same games on both: a few of each, step for step
    same = play(plain, players, 0, seed)[2] == play(built, players, 0, seed)[2]
    out = {"game": name, "players": players, "runs": repeat,
           "plain_per_sec": round(statistics.median(plain_rates), 2),
           "native_per_sec": round(statistics.median(native_rates), 2),
           "ratio": round(statistics.median(ratios), 3),
           "ratio_min": round(min(ratios), 3), "ratio_max": round(max(ratios), 3),
           "same_games": same,
           "load": [round(load_before, 1), round(os.getloadavg()[0], 1)]}
    if sims:
        out |= {"sims": sims, "plain_sims_per_sec": round(statistics.median(plain_sims)),
                "native_sims_per_sec": round(statistics.median(native_sims)),
                "sims_ratio": round(statistics.median(sims_ratios), 3),
                "sims_ratio_min": round(min(sims_ratios), 3),
                "sims_ratio_max": round(max(sims_ratios), 3),
                "same_choices": same_choices}
    return out


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.native",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", choices=list(GAMES),
                        default=["cromlech", "cleromancy", "solstice", "isle_of_skye"])
    parser.add_argument("--seconds", type=float, default=5.0,
                        help="time per side per round (default: %(default)s)")
    parser.add_argument("--repeat", type=int, default=5,
                        help="rounds; medians are reported (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--clock", action="store_true", help="time by the clock, not CPU")
    parser.add_argument("--helpers", action="store_true",
                        help="both sides built, the helpers built on one side only")
    parser.add_argument("--sims", type=int, default=0,
                        help="also an MCTS search of this many simulations a round on "
                             "each side (default: none)")
    args = parser.parse_args(argv)
    global CLOCK
    if args.clock:
        CLOCK = time.perf_counter
    results = [run_game(name, args.seconds, args.repeat, args.seed, args.helpers, args.sims)
               for name in args.games]
    if args.json:
        print(json.dumps(results, indent=1))
        return
    print_table(results, args.helpers)


def print_table(results: list[dict], helpers: bool = False) -> None:
    if helpers:
        print("both sides built; 'plain/s': the helpers as they are; 'native/s': built")
    sims = "sims" in results[0] if results else False
    print(f"{'game':<14}{'plain/s':>10}{'native/s':>10}{'ratio':>8}{'min-max':>14}"
          f"{'same':>6}" + (f"{'MCTS plain/s':>14}{'native/s':>10}{'ratio':>8}{'min-max':>14}"
                            f"{'same':>6}" if sims else "") + f"{'load':>12}")
    for r in results:
        search = (f"{r['plain_sims_per_sec']:>14,}{r['native_sims_per_sec']:>10,}"
                  f"{r['sims_ratio']:>8.3f}{r['sims_ratio_min']:>8.3f}-{r['sims_ratio_max']:.3f}"
                  f"{'yes' if r['same_choices'] else 'NO':>6}") if sims else ""
        print(f"{r['game']:<14}{r['plain_per_sec']:>10.2f}{r['native_per_sec']:>10.2f}"
              f"{r['ratio']:>8.3f}{r['ratio_min']:>8.3f}-{r['ratio_max']:.3f}"
              f"{'yes' if r['same_games'] else 'NO':>6}{search}"
              f"{r['load'][0]:>6.1f}-{r['load'][1]:.1f}")


if __name__ == "__main__":
    main()
