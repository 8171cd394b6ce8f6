"""Rewrite the expected blocks of tests/programs/*.rules (`rulesdsl check`) and of
tests/validate/*.rules (`rulesdsl validate`) from the current output.

Run from anywhere: `python tests/regen_programs.py [NAME ...]` (all programs by default).
Review the result as a diff before committing: the expected blocks are the contract.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests import test_programs, test_validate  # noqa: E402


def main(names: list[str]) -> int:
    with tempfile.TemporaryDirectory() as records:
        outputs = [(path, test_programs.HEADER, lambda p: test_programs.actual(p))
                   for path in test_programs.programs()]
        outputs += [(path, test_validate.HEADER,
                     lambda p: test_validate.actual(p, Path(records)))
                    for path in test_validate.broken_games()]
        chosen = [o for o in outputs if not names or o[0].stem in names or o[0].name in names]
        unknown = set(names) - {o[0].stem for o in chosen} - {o[0].name for o in chosen}
        if unknown:
            print(f"no such program: {', '.join(sorted(unknown))}", file=sys.stderr)
            return 2
        for path, header, actual in chosen:
            old = path.read_text(encoding="utf-8")
            new = test_programs.with_expected(old, actual(path), header)
            if new != old:
                path.write_text(new, encoding="utf-8")
                print(f"rewrote {test_programs.relative(path)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
