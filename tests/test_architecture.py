"""The layout of rulesdsl/ is the pipeline: each folder a stage, then the tools built on
them, and every import goes from a later stage to an earlier one, never back, never in a
circle (docs/architecture.md).

The graph is read from the code itself: every `import` and `from ... import` of every
module, inside functions and under `if TYPE_CHECKING:` too, `from . import x` counted as an
import of the module `x`.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "rulesdsl"

# The stages, lowest first: a module may import its own stage's modules and lower stages'.
STAGES: list[tuple[str, ...]] = [
    ("rulesdsl.diagnostics", "rulesdsl.limits", "rulesdsl.ast", "rulesdsl.files",
     "rulesdsl.boards", "rulesdsl.valuetypes", "rulesdsl.declarations"),  # the vocabulary
    ("rulesdsl.grammar",),                    # 1 parse
    ("rulesdsl.resolve",),                    # 2 resolve
    ("rulesdsl.check",),                      # 3 check
    ("rulesdsl.program",),                    # the contract between compile and run
    ("rulesdsl.compile",),                    # 4 compile
    ("rulesdsl.interpreter",),                # 5 run
    ("rulesdsl.loader",),                     # the pipeline in one call
    ("rulesdsl.agents",),                     # the tools: bots first
    ("rulesdsl.terminal",),
    ("rulesdsl.validate",),
    ("rulesdsl.balance", "rulesdsl.adapters", "rulesdsl.lsp", "rulesdsl.serve"),
    ("rulesdsl.cli",),
    ("rulesdsl",),                            # the package's own names (lazily imported)
]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def imports_of(name: str) -> set[str]:
    """Every module of the package that `name` imports, in any form."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            subs = {f"{source}.{a.name}" for a in node.names} & MODULES.keys()
            found.update(subs)
            if len(subs) < len(node.names):  # a name of the module itself, not a submodule
                found.add(source)
    return {m for m in found if m in MODULES and m != name}


GRAPH = {name: imports_of(name) for name in MODULES}


def stage_of(name: str) -> int:
    best, rank = -1, -1
    for i, prefixes in enumerate(STAGES):
        for prefix in prefixes:
            if (name == prefix or name.startswith(prefix + ".")) and len(prefix) > best:
                best, rank = len(prefix), i
    return rank


def test_every_module_has_a_stage():
    assert [name for name in MODULES if stage_of(name) < 0] == []


def test_no_import_runs_back_up():
    """A stage never imports a later one (the package's __init__ names the public API and
    may import anything, lazily)."""
    upward = [f"{a} (stage {stage_of(a)}) imports {b} (stage {stage_of(b)})"
              for a, targets in GRAPH.items() for b in sorted(targets)
              if stage_of(b) > stage_of(a) and not (stage_of(b) == len(STAGES) - 1)]
    assert upward == []


def circles() -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(GRAPH[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(GRAPH):
        if v not in index:
            visit(v)
    return out


def test_no_import_circle():
    # a package's __init__ that only re-exports its modules' names is not a circle with them
    found = [c for c in circles() if not all(
        GRAPH[m] <= set(c) and MODULES[m].name == "__init__.py" for m in c[:1])]
    assert found == []


def test_the_guard_sees_every_form_of_import():
    """The graph above counts `from . import x`, imports inside functions and under
    TYPE_CHECKING: the forms the old guard missed."""
    assert "rulesdsl.compile.flow" in GRAPH["rulesdsl.compile.compiler"]   # from . import flow
    assert "rulesdsl.resolve.catalogue" in GRAPH["rulesdsl.loader"]
    lazy = [m for m in GRAPH["rulesdsl.loader"] if m.startswith("rulesdsl.compile.native")]
    assert lazy  # imported inside native_backend()


def test_the_run_side_loads_without_the_compiler(tmp_path):
    """The run side imports the contract (program/), never the code generator nor the
    checker: a saved game's module and every run-side module load with compile/ and check/
    out of reach, and read what the rules declare from `Program.declared`."""
    run = [m for m in MODULES if m.startswith("rulesdsl.interpreter")]
    reached: set[str] = set()
    todo = list(run)
    while todo:
        m = todo.pop()
        if m not in reached:
            reached.add(m)
            todo.extend(GRAPH[m])
    assert sorted(m for m in reached if m.startswith(("rulesdsl.compile", "rulesdsl.check"))) \
        == []
    code = ("import sys\n"
            "import rulesdsl.interpreter.game, rulesdsl.interpreter.observation\n"
            "import rulesdsl.interpreter.records, rulesdsl.interpreter.views\n"
            "import rulesdsl.interpreter.sampling, rulesdsl.interpreter.examples\n"
            "print(sorted(m for m in sys.modules\n"
            "             if m.startswith(('rulesdsl.compile', 'rulesdsl.check'))))\n"
            "import rulesdsl.loader\n"  # the pipeline: now the compiler is loaded
            "rules = rulesdsl.loader.load('game.rules')\n"
            "game = rulesdsl.interpreter.game.Rules(rules.program, rules.sources).new_game(2)\n"
            "print(rules.program.declared.game_name, game.counter('score', 0))\n")
    (tmp_path / "game.rules").write_text(
        'game "Tally"\nplayers 2\ncounter score per player = 3\nplay:\n'
        '    turns from player 1:\n        choose n in 1..2:\n'
        '            add n to score of current\n',
        encoding="utf-8")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=tmp_path, env={"PYTHONPATH": str(ROOT)}, check=True)
    assert out.stdout.split("\n")[:2] == ["[]", "Tally 3"]


# being split: each one leaves this set when it is
TOO_LONG: set[str] = set()


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.xfail(strict=True))
                                  if n in TOO_LONG else n for n in sorted(MODULES)])
def test_a_module_a_reader_can_hold(name):
    """No module over 800 lines, and each says in its docstring what it is for."""
    text = MODULES[name].read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 800, f"{name}: {len(text.splitlines())} lines"
    assert ast.get_docstring(ast.parse(text)), f"{name} has no docstring"


def long_functions() -> list[str]:
    out = []
    for name, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > 80:
                    out.append(f"{name}.{node.name}: {length} lines")
    return sorted(out)


def test_no_function_over_eighty_lines():
    assert long_functions() == []
