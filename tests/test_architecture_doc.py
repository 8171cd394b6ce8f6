"""docs/architecture.md's walk-through ("Adding a construct") stays true: every file it
names exists, and every class, function, method, table and grammar rule it names is
defined in the file it names it in. The names are listed once here, at the top: when a
module moves or a handler is renamed, this list and the doc change together."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "architecture.md"

# (file, what the walk-through says is defined in it: a grammar rule, a class, a function,
# a table, or Class.method; None for a file named alone)
WALK_THROUGH: list[tuple[str, str | None]] = [
    ("rulesdsl/grammar/rules.lark", "shuffle_stmt"),
    ("rulesdsl/grammar/rules.lark", "simple_stmt"),
    ("rulesdsl/grammar/rules.lark", "stmt"),
    ("rulesdsl/grammar/builder.py", "NODES"),
    ("rulesdsl/grammar/builder.py", "AstBuilder"),
    ("rulesdsl/ast/statements.py", "Shuffle"),
    ("rulesdsl/ast/statements.py", "Stmt"),
    ("rulesdsl/ast/expressions.py", "Expr"),
    ("rulesdsl/ast/trees.py", "_BODIES"),
    ("rulesdsl/ast/trees.py", "bodies"),
    ("rulesdsl/ast/trees.py", "handlers"),
    ("rulesdsl/check/checker.py", "Checker.stmt_Shuffle"),
    ("rulesdsl/compile/statements.py", "Statements.shuffle"),
    ("rulesdsl/compile/statements.py", "HANDLERS"),
    ("rulesdsl/compile/compiler.py", "HANDLERS"),
    ("rulesdsl/compile/expressions.py", "ExpressionCompiler.expr"),
    ("rulesdsl/check/types.py", "BUILTINS"),
    ("rulesdsl/check/types.py", "Builtin"),
    ("rulesdsl/compile/builtins.py", "Family"),
    ("rulesdsl/compile/builtins.py", "FAMILIES"),
    ("rulesdsl/program/runtime.py", "make_helpers"),
    ("rulesdsl/program/program.py", "Program"),
    ("rulesdsl/program/declared.py", "Declared"),
    ("rulesdsl/program/declare.py", "declare"),
    ("rulesdsl/compile/compiler.py", "compile_program"),
    ("rulesdsl/files/paths.py", "locate"),
    ("rulesdsl/declarations.py", None),
    ("rulesdsl/boards/territory.py", "Geometry"),
    ("rulesdsl/check/checker.py", "DECLARATIONS"),
    ("rulesdsl/check/checker.py", "PROCEDURES"),
    ("rulesdsl/check/checker.py", "FILE_LINES"),
    ("rulesdsl/lsp/symbols.py", "Index.item_KindDecl"),
    ("rulesdsl/lsp/symbols.py", "DECLARATIONS"),
    ("rulesdsl/compile/options.py", "Options"),
    ("rulesdsl/compile/bounds.py", "bounds"),
    ("rulesdsl/compile/context.py", None),
    ("benchmarks/alternate.py", None),
    ("docs/language.md", None),
    ("tests/test_builder.py", None),
    ("tests/test_docs.py", None),
    ("tests/test_include.py", None),
    ("tests/test_architecture.py", None),
    ("tests/test_ast_walk.py", None),
    ("tests/test_passes.py", None),
    ("tests/test_compile_dispatch.py", None),
    ("tests/test_builtins.py", None),
]


def defined(path: Path, name: str) -> bool:
    """`name` (or `Class.method`) is defined at the top of the module `path`: a class, a
    function or a name assigned; in a lark grammar, a rule or an alias."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".lark":
        return bool(re.search(rf"^\??{re.escape(name)}\s*:|->\s*{re.escape(name)}\b", text,
                              re.MULTILINE))
    outer, _, inner = name.partition(".")
    for node in ast.parse(text).body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef)) and node.name == outer:
            if not inner:
                return True
            return any(isinstance(m, ast.FunctionDef) and m.name == inner for m in node.body)
        targets = (node.targets if isinstance(node, ast.Assign)
                   else [node.target] if isinstance(node, ast.AnnAssign) else [])
        if not inner and any(isinstance(t, ast.Name) and t.id == outer for t in targets):
            return True
    return False


@pytest.mark.parametrize(("file", "name"), WALK_THROUGH,
                         ids=[f"{f}:{n}" for f, n in WALK_THROUGH])
def test_what_the_walk_through_names_is_where_it_says(file, name):
    path = ROOT / file
    assert path.is_file(), f"{file} does not exist"
    if name is not None:
        assert defined(path, name), f"{name} is not defined in {file}"


def test_the_doc_names_what_the_list_names():
    """The list above and the doc agree: each file and each name is in the doc."""
    doc = DOC.read_text(encoding="utf-8")
    missing = [x for f, n in WALK_THROUGH for x in (f, n)
               if x is not None and f"`{x}`" not in doc and x not in doc]
    assert missing == []


def test_every_path_the_doc_names_exists():
    doc = DOC.read_text(encoding="utf-8")
    named = set(re.findall(r"`((?:rulesdsl|tests|docs|benchmarks)/[\w/.]+?)`", doc))
    assert named  # the doc names its files
    assert sorted(p for p in named if not (ROOT / p).exists()) == []


def test_the_index_and_the_readme_link_the_doc():
    assert "(architecture.md)" in (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    assert "(docs/architecture.md)" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_contract_names_fields_of_the_program():
    """Each field the doc's contract lists is a field of `Program`, and each field of
    `Program` is listed: what the run side may read, all of it and no more."""
    import dataclasses

    from rulesdsl.program.program import Program

    doc = DOC.read_text(encoding="utf-8")
    contract = doc[doc.index("## The contract"):doc.index("The generated code calls")]
    listed = set(re.findall(r"`([a-z_]+)`", contract[contract.index("\n- "):]))
    fields = {f.name for f in dataclasses.fields(Program) if not f.name.startswith("_")}
    assert sorted(listed - fields) == []
    assert sorted(fields - listed) == []
