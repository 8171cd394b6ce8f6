"""Every built-in function has each of its parts: the checker's signature and one-line doc
(check/types.py BUILTINS, check/analysis.py LATTICE_DOCS, check/tiles.py TILE_DOCS), its
code generation in its family's record (compile/builtins.py), the run-time helpers that
code calls in the family's helper module (program/helpers/), and a row in the table of
docs/language.md. A new built-in that forgets a part fails here, naming the part."""

from __future__ import annotations

import ast
import inspect
import re
import textwrap
from pathlib import Path
from types import FunctionType

import pytest

from rulesdsl.check.analysis import LATTICE_DOCS
from rulesdsl.check.tiles import TILE_DOCS
from rulesdsl.check.types import BUILTINS
from rulesdsl.compile.builtins import FAMILIES, GENERATE, Family
from rulesdsl.program.helpers.faults import Faults
from rulesdsl.program.runtime import HELPER_NAMES

ROOT = Path(__file__).resolve().parents[1]
DOCS: dict[str, str] = {**{n: b.doc for n, b in BUILTINS.items()}, **LATTICE_DOCS, **TILE_DOCS}
HELPER = re.compile(r"_[a-z]\w*")


def family_of(name: str) -> Family:
    (found,) = [f for f in FAMILIES if name in f.generate]
    return found


def helpers_called(fn: FunctionType, depth: int = 2) -> set[str]:
    """The names of run-time helpers the code generation `fn` writes into the generated
    code (string constants such as "_sort"), and those of the compile/ functions it calls
    (compile/tiles.py's tile_code), `depth` calls deep."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    found = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)
             and isinstance(n.value, str) and HELPER.fullmatch(n.value)}
    if depth:
        for n in ast.walk(tree):
            if isinstance(n, ast.Name) and isinstance(fn.__globals__.get(n.id), FunctionType):
                called = fn.__globals__[n.id]
                if called.__module__.startswith("rulesdsl.compile") and called is not fn:
                    found |= helpers_called(called, depth - 1)
    return found


def test_each_built_in_is_in_one_family():
    names = [n for f in FAMILIES for n in f.generate]
    assert sorted(n for n in set(names) if names.count(n) > 1) == []
    assert set(GENERATE) == set(names)


@pytest.mark.parametrize("name", sorted(DOCS))
def test_each_built_in_the_checker_knows_has_its_code(name: str):
    assert name in GENERATE, (f"{name}() has a signature in the checker but no code: "
                              "add it to its family's record in compile/builtins.py")
    assert DOCS[name].startswith(f"{name}("), f"{name}: its one-line doc names it first"


@pytest.mark.parametrize("name", sorted(GENERATE))
def test_each_built_in_with_code_has_a_signature(name: str):
    assert name in DOCS, (f"compile/builtins.py has code for {name}() but the checker has "
                          "no signature for it (check/types.py BUILTINS)")


@pytest.mark.parametrize("name", sorted(GENERATE))
def test_the_helpers_a_built_in_calls_are_its_familys(name: str):
    family = family_of(name)
    called = helpers_called(GENERATE[name])  # type: ignore[arg-type]
    bound = set(family.helpers.bind(Faults(ValueError, []))) if family.helpers else set()
    missing = sorted(called - bound)
    assert missing == [], (f"the code of {name}() calls {', '.join(missing)}, which the "
                           f"{family.name} family's helper module does not give "
                           "(program/helpers/)")
    assert called <= HELPER_NAMES


def test_the_helper_search_sees_the_helpers_of_a_family():
    """(The check above finds what it looks for: the code of sort calls _sort, of a
    territory function the territories' helpers through compile/tiles.py.)"""
    assert helpers_called(GENERATE["sort"]) == {"_sort"}  # type: ignore[arg-type]
    assert {"_tspots", "_tfits", "_tland"} <= helpers_called(
        GENERATE["spots"])  # type: ignore[arg-type]
    assert helpers_called(GENERATE["abs"]) == set()  # type: ignore[arg-type]


def builtin_table() -> str:
    text = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    start = text.index("\n## Built-in functions\n")
    return text[start:text.index("\n## ", start + 1)]


@pytest.mark.parametrize("name", sorted(DOCS))
def test_each_built_in_has_a_row_in_the_language_docs(name: str):
    rows = [line for line in builtin_table().splitlines() if line.startswith("|")]
    assert any(f"`{name}(" in row for row in rows), (
        f"{name}() has no row in the table of docs/language.md, Built-in functions")


def test_every_helper_the_code_generator_calls_is_bound():
    """Each `E.call("_name", ...)` of compile/ names a helper make_helpers binds (or
    `_show`, which the compiler puts beside them): a helper left out of its family's
    `bind` is found here, not when a game first reaches it."""
    called = set()
    for path in sorted((ROOT / "rulesdsl" / "compile").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "call" and node.args
                    and isinstance(node.args[0], ast.Constant)
                    and isinstance(node.args[0].value, str)
                    and HELPER.fullmatch(node.args[0].value)):
                called.add(node.args[0].value)
    assert {"_number_key", "_move", "_tput"} <= called
    assert sorted(called - HELPER_NAMES - {"_show"}) == []
