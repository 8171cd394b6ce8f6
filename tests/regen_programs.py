"""Rewrite the expected blocks of tests/programs/*.rules from the current output.

Run from anywhere: `python tests/regen_programs.py [NAME ...]` (all programs by default).
Review the result as a diff before committing: the expected blocks are the contract.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from test_programs import actual, programs, relative, with_expected  # noqa: E402


def main(names: list[str]) -> int:
    chosen = [p for p in programs() if not names or p.stem in names or p.name in names]
    unknown = set(names) - {p.stem for p in chosen} - {p.name for p in chosen}
    if unknown:
        print(f"no such program: {', '.join(sorted(unknown))}", file=sys.stderr)
        return 2
    for path in chosen:
        old = path.read_text(encoding="utf-8")
        new = with_expected(old, actual(path))
        if new != old:
            path.write_text(new, encoding="utf-8")
            print(f"rewrote {relative(path)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
