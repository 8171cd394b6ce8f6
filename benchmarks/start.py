"""Benchmark: the CPU time of `rulesdsl check FILE` as a whole process, from a cold cache to
a warm one, for one or more checkouts in turn (paired runs).

What a command keeps in the user's cache folder between runs (docs/performance.md, "State
and start-up"): the built parser, each rule file's syntax tree (declaration by
declaration), its data files' values, and the result of a check that found no error. Each
checkout gets a cache folder of its own (in a temporary folder), its parser built there
first (lark keys the parser it keeps by the folder's path, so it is built where it is
read). Then, `--runs` times, for each checkout in turn:

- cold: every kept file but the parser removed, then `check FILE` (as for a file never
  read before);
- edited: a copy of FILE's folder (made once per checkout, in the temporary folder) is
  edited, a comment line at its end changed, and checked, twice in a row, the second
  time timed (as in an editing session: change a line, check, change it, check; the
  first round's first check is the copy's first, and untimed);
- warm: `check FILE` again (unchanged since the run before);
- tree: the file's syntax tree kept but no check result, then `check FILE` (as when the
  file was parsed twice before by other commands, or another engine checked it: the
  tree is kept after a second parse of the same text, so one untimed
  `check --no-examples FILE` parses it a second time first).

A checkout that keeps none of these runs the same commands from scratch each time. The
table gives each median (user + system CPU of the process and its children) and the
range. Each checkout runs its own code: the command runs with the checkout as its folder.

Python's own cache of compiled modules is kept too, as an installed package has it: each
checkout writes its bytecode to a folder of its own (PYTHONPYCACHEPREFIX) in the first
runs, even where PYTHONDONTWRITEBYTECODE is set. With `--no-bytecode` every run compiles
the modules it imports from their source (about a tenth of a second more for `check`).

Usage, from the repository root:

    python -m benchmarks.start [--file FILE] [--runs N] [--no-bytecode] [CHECKOUT ...]

(default: this checkout only; give another checkout first to compare, e.g. one of main:
then a second table gives, per state, the median of the rounds' paired ratios with an
interval).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.paired import median_interval

ROOT = Path(__file__).resolve().parent.parent
STATES = ("cold", "edited", "tree", "warm")


def cpu(args: list[str], cwd: Path, cache: Path, bytecode: bool = True) -> float:
    """The CPU seconds of `python -m rulesdsl.cli ARGS` run in `cwd` with this cache
    (and with its bytecode kept in the cache folder, if `bytecode`)."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("RULESDSL_NO_CACHE", "PYTHONPATH", "PYTHONDONTWRITEBYTECODE",
                        "PYTHONPYCACHEPREFIX")}
    env["XDG_CACHE_HOME"] = str(cache)
    if bytecode:
        env["PYTHONPYCACHEPREFIX"] = str(cache / "bytecode")
    else:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-m", "rulesdsl.cli", *args], cwd=cwd, env=env,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def forget(cache: Path, keep: tuple[str, ...]) -> None:
    """Remove the kept files of a cache folder but those whose names start with `keep`."""
    folder = cache / "rulesdsl"
    for f in folder.iterdir() if folder.is_dir() else ():
        if not f.name.startswith(keep):
            f.unlink()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.start",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("checkouts", nargs="*", type=Path, default=[ROOT],
                        help="repository folders to time, in turn (default: this one)")
    parser.add_argument("--file", default="games/cromlech/cromlech.rules",
                        help="the rule file, relative to each checkout (default: %(default)s)")
    parser.add_argument("--runs", type=int, default=5, help="default: %(default)s")
    parser.add_argument("--no-bytecode", dest="bytecode", action="store_false",
                        help="compile the modules from their source in every run")
    args = parser.parse_args(argv)
    check = ["check", args.file]
    with tempfile.TemporaryDirectory() as tmp:
        caches = {c: Path(tmp) / str(n) for n, c in enumerate(args.checkouts)}
        # the copies edited, each checked by its checkout's code with a cache folder of its
        # own (which the other states' removals leave alone)
        copies = {c: Path(tmp) / f"edited{n}" / "game" / Path(args.file).name
                  for n, c in enumerate(args.checkouts)}
        for c, copy in copies.items():
            shutil.copytree((c / args.file).parent, copy.parent)
        text = (args.checkouts[0] / args.file).read_text(encoding="utf-8")

        def run(what: list[str], c: Path, cache: Path | None = None) -> float:
            return cpu(what, c, caches[c] if cache is None else cache, args.bytecode)

        def edited(c: Path, n: int) -> float:
            copies[c].write_text(f"{text}# edit {n}\n", encoding="utf-8")
            return run(["check", str(copies[c])], c, copies[c].parent.parent / "cache")

        for c in caches:   # the parser (and the bytecode), built where they are read back
            for _ in range(2):
                run(check, c)
                edited(c, -1)
        times: dict[tuple[Path, str], list[float]] = {}
        for r in range(args.runs):
            for c, cache in caches.items():
                forget(cache, ("parser-",))
                times.setdefault((c, "cold"), []).append(run(check, c))
                edited(c, 2 * r)
                times.setdefault((c, "edited"), []).append(edited(c, 2 * r + 1))
                times.setdefault((c, "warm"), []).append(run(check, c))
                # a second parse of the same text keeps its tree (grammar/treecache.py)
                forget(cache, ("parser-", "tree-"))
                run(["check", "--no-examples", args.file], c)
                forget(cache, ("parser-", "tree-"))
                times.setdefault((c, "tree"), []).append(run(check, c))
    kept = "kept" if args.bytecode else "not kept"
    print(f"`rulesdsl check {args.file}`: CPU seconds, median of {args.runs} runs (range); "
          f"bytecode {kept}")
    print("| checkout | " + " | ".join(STATES) + " |")
    print("|---|" + "---:|" * len(STATES))
    for c in args.checkouts:
        cells = [f"{statistics.median(times[c, s]):.2f} ({min(times[c, s]):.2f} - "
                 f"{max(times[c, s]):.2f})" for s in STATES]
        print(f"| {c} | " + " | ".join(cells) + " |")
    if len(args.checkouts) > 1:
        print(paired_table(times, args.checkouts))


def paired_table(times: dict[tuple[Path, str], list[float]], checkouts: list[Path]) -> str:
    """Each later checkout against the first, run by run: per state, the median of the
    rounds' ratios (the first's CPU time over this one's: above 1, this one is quicker)
    and its interval (benchmarks.paired's `median_interval`: the machine's drift between
    rounds cancels out of each round's ratio, as it does not out of the medians)."""
    first = checkouts[0]
    lines = [f"\nPaired against {first}, the ratio of its time to each one's (above 1: "
             "quicker), median of the rounds (95% interval or wider, its coverage):",
             "| checkout | " + " | ".join(STATES) + " |", "|---|" + "---:|" * len(STATES)]
    for c in checkouts[1:]:
        cells = []
        for s in STATES:
            ratios = [a / b for a, b in zip(times[first, s], times[c, s]) if b > 0]
            m, low, high, cover = median_interval(ratios)
            cells.append(f"{m:.3f} ({low:.3f} - {high:.3f}, {cover:.0%})")
        lines.append(f"| {c} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
