"""Benchmark: where a random game's time goes, by part of the engine, on either path.

Random games (as benchmarks/native.py plays them) are played in a child process that
py-spy samples, native frames included (`py-spy record --native`): each sample goes to
the part of the engine its innermost frame is in. The parts: the generated rule code (on
the compiled path, the built module), the run-time helpers (program/helpers/, built or
not), the engine's step loop and reading (the rest of interpreter/ and program/), the
engine's random generator (`Generator.rand`: the random agent's and the chance steps'),
and the rest (the driver's loop, the C library). py-spy leaves out the interpreter's own
C frames, so what a part asks of Python's C API (a list's item, a dictionary) counts as
that part's. Sampling, unlike cProfile, adds nothing to each call: parts made of many
small calls do not read high. Only the games count, not the loading, and not the samples
taken while the driver reads its CPU clock: py-spy samples by the clock on the wall, so a
process that waits for a core on a loaded machine is sampled where it waits, and it waits
most after a system call (that share is given, left out of the others). The games a
second played while sampled are given too (the sampler stops the process to read it).

Usage, from the repository root (py-spy installed; as root, or where ptrace is allowed):

    python -m benchmarks.time_split [--games NAME ...] [--seconds S] [--native] [--json]
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

from benchmarks.native import GAMES, ROOT, play

HELPER_FILES = ("numbers", "lists", "boards", "zones", "players", "work", "tiles")
PLAYING = "play (benchmarks/native.py"
CLOCK = "clock_gettime"   # the driver reading its CPU clock, a system call
NATIVE_FRAME = re.compile(r"0x([0-9a-f]+) \(\?\)$")


def child(name: str, seconds: float, native: bool, maps: str) -> None:
    """What py-spy samples: the rules loaded, this process's map of libraries kept (the
    built modules are loaded from files since removed, which py-spy cannot name), then
    random games for `seconds` of CPU."""
    import rulesdsl
    from rulesdsl.loader import native_backend

    path = str(ROOT / GAMES[name])
    rules = rulesdsl.load(path, backend=native_backend()) if native else rulesdsl.load(path)
    Path(maps).write_text(Path("/proc/self/maps").read_text())
    games, elapsed, _ = play(rules, rules.player_range[0], seconds, 1)
    print(json.dumps({"games_per_sec": round(games / elapsed, 2)}))


def libraries(maps: str) -> list[tuple[int, int, str]]:
    found = []
    for line in Path(maps).read_text().splitlines():
        fields = line.split()
        if len(fields) >= 6:
            low, high = (int(x, 16) for x in fields[0].split("-"))
            found.append((low, high, fields[5].rsplit("/", 1)[-1]))
    return found


def part_of(frame: str, libs: list[tuple[int, int, str]]) -> str:
    """The part of the engine a sample's innermost frame is in."""
    native = NATIVE_FRAME.match(frame)
    if native:
        address = int(native.group(1), 16)
        frame = next((f"({lib})" for low, high, lib in libs if low <= address < high), "")
    if ".rules>:" in frame or "(rules_" in frame:   # `<rules PATH>`, py-spy shortens it
        return "generated"
    if "program/helpers/" in frame or any(f"({h}.cpython" in frame for h in HELPER_FILES):
        return "helpers"
    if frame.startswith("Generator.rand "):
        return "generator"
    if "rulesdsl/interpreter/" in frame or "rulesdsl/program/" in frame:
        return "engine"
    return "other"


def split(raw: str, maps: str) -> dict[str, float]:
    """Each part's share of the samples taken while games were played."""
    libs = libraries(maps)
    shares: Counter[str] = Counter()
    clock = 0
    for line in Path(raw).read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        frames = stack.split(";")
        if not any(f.startswith(PLAYING) for f in frames):
            continue
        if any(CLOCK in f for f in frames):
            clock += int(count)
        else:
            shares[part_of(frames[-1], libs)] += int(count)
    total = sum(shares.values()) or 1
    found = {part: round(100 * n / total, 1) for part, n in shares.most_common()}
    found["clock, left out"] = round(100 * clock / (total + clock), 1)
    return found


def run_game(name: str, seconds: float, native: bool) -> dict:
    spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    with tempfile.TemporaryDirectory(prefix="time-split-") as work:
        raw, maps = os.path.join(work, "raw.txt"), os.path.join(work, "maps.txt")
        command = [spy, "record", "--native", "--rate", "250", "--format", "raw",
                   "--output", raw, "--", sys.executable, "-m", "benchmarks.time_split",
                   "--child", name, str(seconds), maps] + (["--native"] if native else [])
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
        if done.returncode != 0 or not os.path.exists(raw):
            raise SystemExit(f"py-spy failed: {done.stderr.strip()[-300:]}")
        said = [line for line in done.stdout.splitlines() if line.startswith("{")]
        rate = json.loads(said[-1])["games_per_sec"] if said else None
        return {"game": name, "path": "native" if native else "plain",
                "games_per_sec": rate, "percent": split(raw, maps),
                "load": round(os.getloadavg()[0], 1)}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.time_split",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", choices=list(GAMES),
                        default=["cromlech", "cleromancy"])
    parser.add_argument("--seconds", type=float, default=10.0,
                        help="CPU time of games per game (default: %(default)s)")
    parser.add_argument("--native", action="store_true", help="the compiled path")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--child", nargs=3, metavar=("GAME", "SECONDS", "MAPS"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(args.child[0], float(args.child[1]), args.native, args.child[2])
        return
    results = [run_game(name, args.seconds, args.native) for name in args.games]
    if args.json:
        print(json.dumps(results, indent=1))
        return
    for r in results:
        parts = ", ".join(f"{part} {share}%" for part, share in r["percent"].items())
        print(f"{r['game']} ({r['path']}, {r['games_per_sec']} games/s sampled, "
              f"load {r['load']}): {parts}")


if __name__ == "__main__":
    main()
