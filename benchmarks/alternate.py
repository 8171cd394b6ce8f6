"""Benchmark: one rewrite of the generated code, off and on, in one process.

Two whole processes differ by more than most single rewrites of the code generator are
worth (the shared machine's speed drifts by a tenth from one minute to the next). So the
rule file is compiled twice in one process, with a switch of the compiler off and then on,
and the same random games are played with the two, in turn, `--rounds` times: the least
CPU time of each side, and their ratio (above 1: the rewrite makes the games quicker).
Both sides must play the same games, decision for decision, or the comparison stops.

The switches (each a field of the compiler's `Options`, compile/options.py, given to the
compiler as it compiles):

- `unroll`: list comprehensions a statement starts with written as loops, and the items
  of a counted loop counted before it (rulesdsl/compile/unroll.py);
- `small-results`: a filter of a small domain, and a definition whose value is one, are
  small: loops over them weighed before the game (expressions.py, `small`);
- `range-items`: the range of a loop's, a choice's or a comprehension's item of `lo..hi`
  is known: a column, a row or an item it names is read directly (bounds.py);
- `current-known`: inside the turns, `current` is read without a test for none
  (`current_is_set`);
- `argument-sizes`: a loop over a definition's parameter that every call gives a small
  list (a pair of triangles, a line of a board) is weighed before the game
  (expressions.py, `argument_size`);
- `live-blocks`: the blocks the rules only jump to, once copied in place of every jump,
  are left out of the module (`live_blocks`).

With `--compile`, what is timed is the checking and compiling of the rules (read once,
before), not games: the least CPU time of each side over the rounds.

Usage, from the repository root:

    python -m benchmarks.alternate SWITCH FILE [--players N] [--games N] [--rounds N]
                                   [--compile] [--json]
"""

from __future__ import annotations

import argparse
import json
import time

import rulesdsl
from benchmarks.playouts import play
from rulesdsl.compile.options import Options
from rulesdsl.loader import _build as build
from rulesdsl.loader import collector_paused, load
from rulesdsl.resolve.variants import resolve

# switch -> the field of Options it is
SWITCHES: dict[str, str] = {
    "unroll": "unroll",
    "small-results": "small_results",
    "range-items": "range_items",
    "current-known": "current_known",
    "argument-sizes": "argument_sizes",
    "live-blocks": "live_only",
}


def switched(switch: str, on: bool) -> Options:
    """The options to compile with, the switch as given."""
    return Options(**{SWITCHES[switch]: on})


def compiled(switch: str, on: bool, path: str) -> rulesdsl.Rules:
    """The rules of `path`, compiled with the switch as given; the text of their code is
    made at once, as it was compiled (it is made when first asked for)."""
    rules = load(path, options=switched(switch, on))
    rules.program.code  # noqa: B018  # its text made now, as it was compiled
    return rules


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.alternate",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("switch", choices=sorted(SWITCHES))
    parser.add_argument("file", help="the rule file")
    parser.add_argument("--players", type=int, default=None,
                        help="players (default: the fewest the rules allow)")
    parser.add_argument("--games", type=int, default=40, help="default: %(default)s")
    parser.add_argument("--rounds", type=int, default=8, help="default: %(default)s")
    parser.add_argument("--compile", action="store_true",
                        help="time checking and compiling the rules, not games")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if args.compile:
        compile_times(args)
        return
    off, on = compiled(args.switch, False, args.file), compiled(args.switch, True, args.file)
    players = args.players or off.player_range[0]
    times: dict[str, list[float]] = {"off": [], "on": []}
    decisions = {}
    for _ in range(args.rounds):
        for side, rules in (("off", off), ("on", on)):
            seconds, decisions[side] = play(rules, players, args.games)
            times[side].append(seconds)
        if decisions["off"] != decisions["on"]:
            parser.exit(1, f"the two sides played different games ({decisions['off']} and "
                           f"{decisions['on']} decisions)\n")
    report(args, times, {"players": players, "games": args.games,
                         "decisions": decisions["on"]},
           f"{args.file}, {players} players, {args.games} games ({decisions['on']:,} "
           "decisions)")


def report(args: argparse.Namespace, times: dict[str, list[float]], figures: dict,
           what: str) -> None:
    """Print the least time of each side and their ratio, with the other `figures`."""
    least = {side: min(ts) for side, ts in times.items()}
    out = {"switch": args.switch, "file": args.file, "rounds": args.rounds, **figures,
           "off_seconds": round(least["off"], 4), "on_seconds": round(least["on"], 4),
           "ratio": round(least["off"] / least["on"], 3)}
    if args.json:
        print(json.dumps(out, indent=1))
    else:
        print(f"{what}, least of {args.rounds} rounds: {args.switch} off "
              f"{out['off_seconds']} s, on {out['on_seconds']} s: {out['ratio']} times as "
              "quick")


def compile_times(args: argparse.Namespace) -> None:
    """The least CPU time of checking and compiling the rules (`loader._build`, as every
    command does once the file is read) with the switch off and on, in turn."""
    resolved = resolve(args.file)
    times: dict[str, list[float]] = {"off": [], "on": []}
    for _ in range(args.rounds):
        for side in ("off", "on"):
            options = switched(args.switch, side == "on")
            start = time.process_time()
            with collector_paused():  # as every command builds them
                build(resolved, None, options=options)
            times[side].append(time.process_time() - start)
    report(args, times, {}, f"{args.file}, checked and compiled")


if __name__ == "__main__":
    main()
