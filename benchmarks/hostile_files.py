"""The hostile records and the bounds of docs/security.md, measured: each case run as the
command a user would type, in a process of its own, with its time and peak memory.

    python benchmarks/hostile_files.py            # every case, median of three runs
    python benchmarks/hostile_files.py --runs 1   # quicker

For each case it prints the diagnostic code the command ended with, the median wall time of
the whole process (Python's start and the imports included: `rulesdsl --help` is given as
the floor), the median time of the command itself once the parser is built (in this
process, as the tests run it) and the largest peak resident memory of the runs.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulesdsl.cli import main  # noqa: E402

POTATO = ('game "Hot potato"\nplayers 2\n{limit}\nplay:\n    turns:\n'
          '        choose by current:\n            option go "go":\n                pass\n')


def _record(folder: Path, name: str, file: str) -> str:
    path = folder / name
    path.write_text(json.dumps({"format": "rulesdsl-record/1", "file": file, "rules": "x",
                                "players": 2, "seed": 1, "steps": []}), encoding="utf-8")
    return str(path)


def cases(folder: Path) -> dict[str, list[str]]:
    """Each case: the command line, its files written into `folder`."""
    out: dict[str, list[str]] = {"rulesdsl --help (the floor)": ["--help"]}
    for name in ("/etc/passwd", "/proc/self/environ", "/dev/zero", "/dev/urandom"):
        out[f"record naming {name}"] = ["replay", _record(folder, f"r{len(out)}.json", name)]
    (folder / "notes.rules").write_text("password: hunter2\n", encoding="utf-8")
    out["record naming a non-rules file beside it"] = [
        "replay", _record(folder, "notes.json", "notes.rules")]
    text = "x" * 4000
    (folder / "flood.rules").write_text(
        f'game "Flood"\nplayers 2\nplay:\n    turns:\n        repeat 1000 times:\n'
        f'            say "{text}"\n        choose by current:\n'
        f'            option go "go":\n                pass\n', encoding="utf-8")
    out["narration flood (run)"] = ["run", str(folder / "flood.rules")]
    (folder / "v0.rules").write_text(POTATO.format(limit=""), encoding="utf-8")
    for n in range(1, 400):
        (folder / f"v{n}.rules").write_text(f'extends "v{n - 1}.rules"\n', encoding="utf-8")
    out["a chain of 400 variants"] = ["check", str(folder / "v399.rules")]
    checked = {  # case: (command, file name, text)
        "limit 999999999999999999 decisions (run)": (
            "run", "limit.rules", POTATO.format(limit="limit 999999999999999999 decisions")),
        "100,000 lines (1.6 MB)": ("check", "lines.rules", POTATO.format(limit="") + "".join(
            f"const C{n} = {n}\n" for n in range(100_000))),
        "a string of 200,000 characters": ("check", "string.rules", 'game "S"\nplayers 2\n'
                                           'play:\n    say "' + "y" * 200_000 + '"\n'),
        "5,000 examples": ("check", "examples.rules", POTATO.format(limit="") + "".join(
            f'example "e{n}":\n    pass\n' for n in range(5000))),
        "a list of 199,998 items": ("check", "list.rules", 'game "L"\nplayers 2\nconst A = '
                                    '1..99999\nconst B = [A, A]\nplay:\n    end game\n'),
    }
    for case, (command, name, text) in checked.items():
        (folder / name).write_text(text, encoding="utf-8")
        out[case] = [command, str(folder / name)]
    return out


def in_process(args: list[str]) -> tuple[float, str]:
    """The time of the command in this process, and what it printed."""
    printed = io.StringIO()
    start = time.perf_counter()
    with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed):
        try:
            main(args)
        except SystemExit:
            pass
    return time.perf_counter() - start, printed.getvalue()


def in_own_process(args: list[str]) -> tuple[float, int]:
    """Wall time and peak resident memory (MB) of the command in a process of its own,
    the memory as /usr/bin/time reports it (a child's own figure from this process would
    count this process's memory, copied when it forked)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with tempfile.NamedTemporaryFile("r") as peak:
        start = time.perf_counter()
        subprocess.run(["/usr/bin/time", "-f", "%M", "-o", peak.name, sys.executable, "-m",
                        "rulesdsl.cli", *args], env=env, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=False)
        took = time.perf_counter() - start
        return took, int(peak.read().split()[-1]) // 1024


def measure(runs: int, show: Callable[[str], None] = print) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["RULESDSL_NO_CACHE"] = "1"
        in_process(["ast", str(ROOT / "games" / "pig" / "pig.rules")])  # the parser built
        show(f"{'case':44} {'code':5} {'process s':>9} {'command s':>9} {'peak MB':>7}")
        for name, args in cases(Path(tmp)).items():
            own = [in_own_process(args) for _ in range(runs)]
            inner = [in_process(args) for _ in range(runs)] if args != ["--help"] else \
                [(0.0, "")]
            code = re.search(r"error\[(\w+)\]", inner[0][1])
            show(f"{name:44} {code.group(1) if code else '-':5} "
                 f"{statistics.median(t for t, _ in own):9.2f} "
                 f"{statistics.median(t for t, _ in inner):9.3f} "
                 f"{max(m for _, m in own):7d}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    measure(parser.parse_args().runs)
