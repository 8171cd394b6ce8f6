"""Whether two checkouts generate the same code: the program of every game under games/,
hashed, written as JSON, or compared with such a file.

    python benchmarks/same_code.py > before.json            # on one checkout
    python benchmarks/same_code.py --against before.json    # on the other

A refactoring of the compiler that must not change what it makes (issue 36: the built-ins
as records) shows `same: 34 of 34 programs` here; a difference names the game.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

from rulesdsl.loader import load

GAMES = Path(__file__).resolve().parents[1] / "games"


def programs() -> dict[str, str]:
    """The sha256 of each game's generated code, by its path under games/."""
    out = {}
    for path in sorted(GAMES.rglob("*.rules")):
        code = load(path, include=[GAMES]).program.code
        out[str(path.relative_to(GAMES))] = hashlib.sha256(code.encode()).hexdigest()
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", type=Path, help="a JSON file this script wrote")
    args = parser.parse_args()
    found = programs()
    if args.against is None:
        json.dump(found, sys.stdout, indent=1)
        print()
        return 0
    before = json.loads(args.against.read_text(encoding="utf-8"))
    differ = sorted(k for k in before.keys() | found.keys() if before.get(k) != found.get(k))
    for name in differ:
        print(f"differs: {name}")
    print(f"same: {len(found) - len(differ)} of {len(found)} programs")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
