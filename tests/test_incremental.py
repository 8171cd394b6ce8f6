"""The incremental parser gives what `parse` gives, and parses again only what changed."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesdsl import ast as A
from rulesdsl.diagnostics import RulesError
from rulesdsl.grammar import parse
from rulesdsl.grammar.incremental import IncrementalParser, chunk_starts

from .conftest import GAME_FILES, ROOT
from .test_properties import _damage

PROGRAMS = sorted((ROOT / "tests" / "programs").glob("*.rules"))
SMALL = [p for p in GAME_FILES if len(p.read_text()) < 4000]


def outcome(parse_text, text: str, path: str) -> object:
    """The tree as plain data, or the rendered diagnostics."""
    try:
        return A.to_json(parse_text(text))
    except RulesError as err:
        return [d.render(err.sources) for d in err.diagnostics]


def same_as_parse(text: str, path: str, parser: IncrementalParser | None = None) -> None:
    parser = parser or IncrementalParser(path)
    assert outcome(parser.parse, text, path) == outcome(lambda t: parse(t, path), text, path)


@pytest.mark.slow
def test_every_game_and_test_program_parses_the_same():
    for path in GAME_FILES + PROGRAMS:
        same_as_parse(path.read_text(), str(path))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_damaged_files_give_the_same_errors(data):
    path = data.draw(st.sampled_from(SMALL))
    text = path.read_text()
    for _ in range(data.draw(st.integers(1, 3))):
        text = _damage(text, data)
    same_as_parse(text, str(path))


PIG = ROOT / "games" / "pig" / "pig.rules"


def pig_parser() -> tuple[str, IncrementalParser]:
    """Pig's text, and a parser that has parsed it once."""
    parser = IncrementalParser(str(PIG))
    parser.parse(PIG.read_text())
    return PIG.read_text(), parser


def test_an_edit_parses_one_declaration_again():
    text, parser = pig_parser()
    before = parser.parsed
    same_as_parse(text.replace("setting GOAL = 100", "setting GOAL = 90"), str(PIG), parser)
    assert parser.parsed == before + 1


def test_lines_added_above_move_the_declarations_below():
    text, parser = pig_parser()
    before = parser.parsed
    same_as_parse("# two more lines\n\n" + text, str(PIG), parser)
    assert parser.parsed == before + 1  # only the first chunk, whose comments changed


def test_a_broken_declaration_reports_like_parse_and_recovers():
    text, parser = pig_parser()
    path = PIG
    broken = text.replace("counter turn_total = 0", "counter turn_total =")
    same_as_parse(broken, str(path), parser)
    same_as_parse(broken.replace("rule", "rule foo:\n"), str(path), parser)
    same_as_parse(text, str(path), parser)


def test_chunks_start_at_top_level_declarations_only():
    lines = [
        "game \"x\"\n",           # 0
        "# a comment\n",          # 1
        "define f = (\n",          # 2
        "    1 + 2\n",             # 3
        ")\n",                     # 4 closes a bracket: not a declaration
        "const A = 1 + \\\n",      # 5
        "2\n",                     # 6 continued from the line before
        "const S = \"(\"\n",       # 7 a bracket in a string does not count
        "play:\n",                 # 8
        "    pass\n",
    ]
    assert chunk_starts(lines) == [0, 2, 5, 7, 8]


def _scan_each_character(line: str, depth: int) -> tuple[int, bool]:
    """`_scan` as it was first written, a character at a time: what the quicker one must
    give."""
    in_string = False
    i, end = 0, len(line)
    code_end = end
    while i < end:
        ch = line[i]
        if in_string:
            if ch == "\\":
                i += 1
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch == "#":
            code_end = i
            break
        elif ch in "([":
            depth += 1
        elif ch in ")]":
            depth = max(depth - 1, 0)
        i += 1
    code = line[:code_end].rstrip("\r\n").rstrip(" \t\f")
    return depth, not in_string and code_end == end and code.endswith("\\")


@settings(max_examples=400, deadline=None)
@given(line=st.text(alphabet='ab "#()[]\\\t\r\n', max_size=30), depth=st.integers(0, 3))
def test_the_scan_for_brackets_reads_every_line_as_a_character_at_a_time_would(line, depth):
    from rulesdsl.grammar.incremental import _scan

    assert _scan(line, depth) == _scan_each_character(line, depth)


def test_the_scan_for_brackets_on_every_line_of_the_games():
    from rulesdsl.grammar.incremental import _scan

    for path in GAME_FILES + PROGRAMS:
        depth = 0
        for line in path.read_text().split("\n"):
            assert _scan(line + "\n", depth) == _scan_each_character(line + "\n", depth)
            depth = _scan(line + "\n", depth)[0]
