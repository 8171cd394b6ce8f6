"""Check: the code generator writes the same module as another checkout does.

A change to the compiler's layout (a module split, a dispatch table) must not change what
it writes. For every rule file under games/ (those of the other checkout), the generated
module (`Rules.program.code`), with coverage off and on, is made by this checkout and by
the other one, each in a process of its own; the files whose modules differ are listed,
with the first line that differs. A file that does not load alone (a part another file
includes) must fail the same way on both.

Usage, from the repository root (`--save` keeps the other checkout's modules in a file,
which can then stand for it):

    python -m benchmarks.same_code OTHER_CHECKOUT|SAVED.json [--save FILE] [--json]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Run in each checkout: every rule file's module, as JSON on stdout.
MODULES = """
import json, sys
from pathlib import Path
import rulesdsl
out = {}
for path in sorted(Path(sys.argv[1]).glob("games/**/*.rules")):
    name = str(path.relative_to(sys.argv[1]))
    for coverage in (False, True):
        try:
            code = rulesdsl.load(path, coverage=coverage).program.code
        except Exception as error:  # noqa: BLE001  # compared, not raised
            code = f"error: {type(error).__name__}"
        out[f"{name} coverage={coverage}"] = code
json.dump(out, sys.stdout)
"""


def modules(checkout: Path, games: Path) -> dict[str, str]:
    """The module of every rule file under `games`/games, as `checkout` writes it."""
    done = subprocess.run([sys.executable, "-c", MODULES, str(games)], capture_output=True,
                          text=True, cwd=games, env={"PYTHONPATH": str(checkout)},
                          check=True)
    return json.loads(done.stdout)


def first_difference(a: str, b: str) -> str:
    for n, (x, y) in enumerate(zip(a.splitlines(), b.splitlines()), 1):
        if x != y:
            return f"line {n}: {x.strip()!r} / {y.strip()!r}"
    return f"lengths {len(a.splitlines())} / {len(b.splitlines())} lines"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.same_code",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("other", type=Path,
                        help="the other checkout (its rulesdsl/ and games/), or its saved modules")
    parser.add_argument("--save", type=Path, help="keep the other checkout's modules in a file")
    parser.add_argument("--json", action="store_true", help="print the findings as JSON")
    args = parser.parse_args(argv)
    if args.other.suffix == ".json":
        theirs = json.loads(args.other.read_text(encoding="utf-8"))
        ours = modules(ROOT, ROOT)
    else:
        other = args.other.resolve()
        ours, theirs = modules(ROOT, other), modules(other, other)
    if args.save:
        args.save.write_text(json.dumps(theirs), encoding="utf-8")
    differ = {name: first_difference(theirs[name], ours.get(name, ""))
              for name in sorted(theirs) if theirs[name] != ours.get(name)}
    if args.json:
        print(json.dumps({"modules": len(theirs), "differ": differ}, indent=1))
    else:
        for name, where in differ.items():
            print(f"{name}: {where}")
        print(f"{len(theirs) - len(differ)} of {len(theirs)} modules the same")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
