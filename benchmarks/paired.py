"""Benchmark: one of these benchmarks run against two checkouts in turn, as paired rounds.

The machine is shared: its speed drifts by a tenth or more from one minute to the next,
more than most changes the engine's figures measure. So two versions are compared run by
run: round r runs the benchmark on checkout A, then on checkout B, and the ratio of the
two figures is that round's; the result is the median of the rounds' ratios, with a 95%
interval that assumes nothing of how the noise is spread (the order statistics of the
ratios, from the binomial distribution of the sign of each ratio's error about the true
median: `median_interval`).

Each side runs THIS checkout's script (benchmarks/NAME.py, given by file, so a checkout
without it is measured all the same) on that checkout's engine: the checkout first on
the module path, and as the working folder, so a rule file named relative to the
repository root is each checkout's own copy of it (a rule file whose syntax changed
between the two is then read by the engine that knows it). The script must print JSON
with `--json`; where it prints a count of the decisions it played, or of the options met
on the way to the positions it times, both sides must agree on it (the same games, move
for move), or the comparison stops.

Usage, from the repository root:

    python -m benchmarks.paired [--rounds N] [--figure KEY] A B -- NAME [ARGS ...]

for instance, the aims of docs/performance.md ("Issue 19's aims, where they stand"):

    python -m benchmarks.paired --rounds 9 BEFORE . -- playouts \\
        games/cromlech/cromlech.rules --players 4 --games 150
    python -m benchmarks.paired --rounds 9 BEFORE . -- clone_apply --seconds 0.5

The figure compared is `--figure` (default: the first of games_per_sec, per_sec in the
script's JSON); the ratio is B's over A's (above 1: B is faster).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
FIGURES = ("games_per_sec", "per_sec")  # higher is better in each
# what the two sides must agree on where the script prints it: the games played (playouts),
# the options met on the way to the positions timed (clone_apply)
SAME = ("decisions", "options_seen")
Interval = tuple[float, float, float, float]  # median, low, high, coverage


def median_interval(values: list[float], level: float = 0.95) -> Interval:
    """The median of `values`, and an interval that holds the true median with probability
    at least `level`, from order statistics alone: the (k+1)-th least and (k+1)-th greatest
    values, k the largest for which fewer than k+1 of n values fall below the true median
    with probability at most (1 - level) / 2 (a binomial(n, 1/2)). With so few values that
    no k will do (five or fewer for 95%), the least and the greatest. Also the interval's
    own level, its coverage: 1 - 2 P(binomial <= k)."""
    xs = sorted(values)
    n = len(xs)
    if n == 0:
        raise ValueError("no values")

    def at_most(k: int) -> float:
        return sum(math.comb(n, j) for j in range(k + 1)) / 2 ** n

    tail = (1 - level) / 2
    k = 0
    while k + 1 <= (n - 1) // 2 and at_most(k + 1) <= tail:
        k += 1
    return statistics.median(xs), xs[k], xs[n - 1 - k], 1 - 2 * at_most(k)


def run_once(checkout: Path, name: str, args: list[str]) -> dict | list:
    """The benchmark's JSON figures, run by this checkout's script on `checkout`'s engine."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(checkout)
    done = subprocess.run([sys.executable, str(HERE / f"{name}.py"), *args, "--json"],
                          cwd=checkout, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{name} failed on {checkout}:\n{done.stderr.strip()}")
    try:
        return json.loads(done.stdout)
    except json.JSONDecodeError:
        raise SystemExit(f"{name} on {checkout} printed no JSON:\n{done.stdout[:400]}") from None


def one_row(out: dict | list, name: str) -> dict:
    """The figures a run printed: its object, or the one row of a table (a benchmark of
    several games, such as search_speed, narrowed to one with --only)."""
    if isinstance(out, list):
        if len(out) != 1 or not isinstance(out[0], dict):
            raise SystemExit(f"{name} prints {len(out)} rows: compare one at a time (for "
                             "search_speed, name one game with --only)")
        return out[0]
    return out


def figure_of(out: dict, key: str | None) -> float:
    if key is not None:
        if key not in out:
            raise SystemExit(f"the benchmark prints no {key!r}: it prints {sorted(out)}")
        return float(out[key])
    for k in FIGURES:
        if k in out:
            return float(out[k])
    raise SystemExit(f"no figure to compare among {sorted(out)}: name one with --figure")


def compare(a: Path, b: Path, name: str, args: list[str], rounds: int,
            key: str | None = None) -> dict:
    """Run the benchmark `rounds` times on each checkout in turn; the figures, the ratios
    (B over A) and the median ratio with its interval."""
    if not (HERE / f"{name}.py").is_file() or name in ("paired", "__init__"):
        known = sorted(p.stem for p in HERE.glob("*.py") if p.stem not in ("paired", "__init__"))
        raise SystemExit(f"no benchmark {name!r}: one of {', '.join(known)}")
    figures: dict[str, list[float]] = {"a": [], "b": []}
    same: dict[str, set] = {}
    for _ in range(rounds):
        for side, checkout in (("a", a), ("b", b)):
            out = one_row(run_once(checkout, name, args), name)
            figures[side].append(figure_of(out, key))
            for k in SAME:
                if k in out:
                    same.setdefault(k, set()).add(out[k])
        for k, values in same.items():
            if len(values) > 1:
                raise SystemExit(f"the two checkouts played different games: {k} "
                                 f"{', '.join(map(str, sorted(values)))}")
    ratios = [fb / fa for fa, fb in zip(figures["a"], figures["b"])]
    median, low, high, coverage = median_interval(ratios)
    return {"benchmark": name, "args": args, "a": str(a), "b": str(b), "rounds": rounds,
            "a_median": statistics.median(figures["a"]),
            "b_median": statistics.median(figures["b"]),
            "ratios": [round(r, 3) for r in ratios], "ratio": round(median, 3),
            "low": round(low, 3), "high": round(high, 3), "coverage": round(coverage, 3),
            "same": {k: values.pop() for k, values in same.items()}}


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    if "--" not in argv:
        raise SystemExit("usage: python -m benchmarks.paired [--rounds N] [--figure KEY] "
                         "A B -- NAME [ARGS ...]")
    cut = argv.index("--")
    parser = argparse.ArgumentParser(prog="python -m benchmarks.paired",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("a", type=Path, help="the checkout compared with (before)")
    parser.add_argument("b", type=Path, help="the checkout compared (after)")
    parser.add_argument("--rounds", type=int, default=9, help="default: %(default)s")
    parser.add_argument("--figure", default=None,
                        help="the key of the figure in the benchmark's JSON (higher better)")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    args = parser.parse_args(argv[:cut])
    if not argv[cut + 1:]:
        parser.error("name a benchmark after --, with its arguments")
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    for c in (args.a, args.b):
        if not (c / "rulesdsl").is_dir():
            parser.error(f"{c} is not a checkout of rulesdsl (no rulesdsl folder in it)")
    name, *rest = argv[cut + 1:]
    out = compare(args.a.resolve(), args.b.resolve(), name, rest, args.rounds, args.figure)
    if args.json:
        print(json.dumps(out, indent=1))
        return
    print(f"{name} {' '.join(rest)}: {out['rounds']} rounds, A then B in each")
    print(f"A {out['a']}: median {_number(out['a_median'])}")
    print(f"B {out['b']}: median {_number(out['b_median'])}")
    print(f"B / A, round by round: {', '.join(f'{r:.2f}' for r in out['ratios'])}")
    agreed = ", ".join(f"{k.replace('_', ' ')} {v:,}" for k, v in out["same"].items())
    print(f"B / A: median {out['ratio']:.2f}, {100 * out['coverage']:.0f}% interval "
          f"{out['low']:.2f} to {out['high']:.2f}"
          + (f" (both sides: {agreed})" if agreed else ""))


def _number(x: float) -> str:
    return f"{x:,.0f}" if abs(x) >= 1000 else f"{x:,.4g}"

if __name__ == "__main__":
    main()
