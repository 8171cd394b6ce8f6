"""Test programs with their expected diagnostics, checked to the exact text.

Each `tests/programs/<name>.rules` is a small rule file with mistakes; it ends with the
expected output of `rulesdsl check` as comment lines starting with `# | ` (what
`Diagnostic.render(sources)` prints, source lines and carets included, paths relative to
the repository root). After a deliberate change of a message, rewrite the expected blocks
with `python tests/regen_programs.py` and review the diff.

A second test keeps docs/diagnostics.md and the codes the source emits in step.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
PROGRAMS = REPO / "tests" / "programs"
DOC = REPO / "docs" / "diagnostics.md"
PREFIX = "# | "
HEADER = "# Expected output of `rulesdsl check` (rewrite: python tests/regen_programs.py):"
CODE = re.compile(r'"([ERGCVPW][0-9]{3})"')
DOC_CODE = re.compile(r"^#+ *([ERGCVPW][0-9]{3})\b", re.MULTILINE)


def programs() -> list[Path]:
    return sorted(PROGRAMS.glob("*.rules"))


def relative(path: Path) -> str:
    """The path as the diagnostics name it: relative to the repository root."""
    return path.resolve().relative_to(REPO).as_posix()


def expected(text: str) -> str:
    """The expected block of a program: its `# | ` lines without the prefix."""
    out = []
    for line in text.splitlines():
        if line.startswith(PREFIX):
            out.append(line[len(PREFIX):])
        elif line == PREFIX.rstrip():
            out.append("")
    return "\n".join(out)


def actual(path: Path) -> str:
    """Every diagnostic `rulesdsl check` reports for the program, rendered, run from the
    repository root."""
    from rulesdsl.validate.checking import check_file

    here = os.getcwd()
    os.chdir(REPO)
    try:
        diags, sources = check_file(relative(path))
    finally:
        os.chdir(here)
    return "\n".join(d.render(sources) for d in diags)


def with_expected(text: str, block: str, header: str = HEADER) -> str:
    """The program text with its expected block (under `header`) replaced by `block`."""
    lines = text.splitlines()
    while lines and (not lines[-1].strip() or lines[-1].startswith(PREFIX.rstrip())
                     or lines[-1] == header):
        lines.pop()
    lines += ["", header]
    lines += [PREFIX + line if line else PREFIX.rstrip() for line in block.splitlines()]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("path", programs(), ids=lambda p: p.stem)
def test_program(path: Path) -> None:
    want = expected(path.read_text(encoding="utf-8"))
    assert want, f"{relative(path)} has no expected block ('# | ' lines)"
    got = actual(path)
    assert got == want, (f"{relative(path)}: the diagnostics differ from the expected block "
                         "(if the change is intended: python tests/regen_programs.py)")


def test_there_are_programs() -> None:
    assert len(programs()) >= 20


# ---- docs/diagnostics.md lists exactly the codes the source emits ---------------------------


def source_codes() -> set[str]:
    """The codes in rulesdsl/ (as `grep -rhoE '"[ERGCVP][0-9]{3}"' rulesdsl` finds them)."""
    found: set[str] = set()
    for py in (REPO / "rulesdsl").rglob("*.py"):
        found.update(CODE.findall(py.read_text(encoding="utf-8")))
    return found


def doc_codes() -> set[str]:
    """The codes docs/diagnostics.md documents: one heading per code, `### E020 ...`."""
    return set(DOC_CODE.findall(DOC.read_text(encoding="utf-8")))


def test_every_emitted_code_is_documented() -> None:
    missing = source_codes() - doc_codes()
    assert not missing, f"codes emitted in rulesdsl/ but not in docs/diagnostics.md: " \
                        f"{sorted(missing)}"


def test_every_documented_code_is_emitted() -> None:
    stale = doc_codes() - source_codes()
    assert not stale, f"codes in docs/diagnostics.md that rulesdsl/ never emits: {sorted(stale)}"


def test_doc_examples_match_the_programs() -> None:
    """An example in docs/diagnostics.md quoted from a test program is what it prints."""
    text = DOC.read_text(encoding="utf-8")
    blocks = re.findall(r"^```\n(.*?)^```", text, re.MULTILINE | re.DOTALL)
    quoted = [b.rstrip("\n") for b in blocks
              if b.startswith(("tests/programs/", "tests/validate/"))]
    assert quoted, "docs/diagnostics.md quotes no test program"
    for block in quoted:
        path = REPO / block.split(":", 1)[0]
        assert path.is_file(), f"docs/diagnostics.md quotes a missing program: {path}"
        want = expected(path.read_text(encoding="utf-8"))
        assert block in want, f"docs/diagnostics.md quotes {relative(path)} wrongly:\n{block}"


def test_every_code_in_the_doc_text_exists() -> None:
    """Codes mentioned anywhere in the doc's text (not only headings) exist too."""
    mentioned = set(re.findall(r"\b([ERGCVP][0-9]{3})\b", DOC.read_text(encoding="utf-8")))
    stale = mentioned - source_codes()
    assert not stale, f"docs/diagnostics.md mentions unknown codes: {sorted(stale)}"
