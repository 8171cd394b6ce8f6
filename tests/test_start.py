"""The start of a command (docs/performance.md, "A cold `check`"): what makes a cold
`rulesdsl check` quick must not change what it finds."""

from __future__ import annotations

import ast as pyast
import gc
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rulesdsl import ast as A
from rulesdsl import diagnostics
from rulesdsl.compile.sandbox import run_module
from rulesdsl.diagnostics import RulesError, Span
from rulesdsl.loader import collector_paused, load, load_text
from rulesdsl.resolve.variants import resolve

from .conftest import ROOT

# every game's own rule file, variants (one with `base` calls, one with edits of menus), and
# test programs the parser, the builder and the merging of variants refuse
FILES = sorted([*(p for p in ROOT.glob("games/*/*.rules") if p.stem == p.parent.name),
                *(ROOT / "games/cromlech" / f for f in ("hardcore.rules", "symmetry.rules")),
                *ROOT.glob("tests/programs/bad_*.rules"),
                ROOT / "tests/programs/change_mistakes.rules"])


def _shape(x: Any) -> Any:
    """A tree as plain data, with the exact type of every value and the fields set."""
    if isinstance(x, (A.Node, Span)):
        return (type(x).__name__, sorted(x.model_fields_set),
                [(k, _shape(v)) for k, v in x.__dict__.items()])
    if isinstance(x, (list, tuple)):
        return (type(x).__name__, [_shape(v) for v in x])
    if isinstance(x, dict):
        return ("dict", [(_shape(k), _shape(v)) for k, v in x.items()])
    return (type(x).__name__, x)


def _parsed(path: Path) -> Any:
    try:
        return _shape(resolve(path).file)
    except RulesError as err:
        return [d.render(err.sources) for d in err.diagnostics]


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_nodes_made_unvalidated_are_the_nodes_validation_makes(path, monkeypatch):
    """The builder, the data files and the merging of variants make nodes and spans
    without pydantic's validation (`Node.make`, `Span.make`): each tree is the same, to the
    type of every value, as when every node and span is validated."""
    made = _parsed(path)
    monkeypatch.setattr(diagnostics, "VALIDATE_MADE", True)
    assert _parsed(path) == made


def test_make_refuses_unknown_and_missing_fields_and_copies_list_defaults():
    span = Span(file="x.rules")
    with pytest.raises(TypeError, match="no field"):
        A.IntLit.make(span=span, value=1, colour=2)
    with pytest.raises(TypeError, match="needs its field 'value'"):
        A.IntLit.make(span=span)
    one, two = (A.Change.make(span=span, what="rule", name="r", edits=[]) for _ in range(2))
    assert one == A.Change(span=span, what="rule", name="r", edits=[])
    assert one.refs == [] and one.refs is not two.refs


@pytest.mark.slow
def test_a_check_builds_no_validator_of_the_syntax_tree():
    """Building pydantic's validators of the node classes is a tenth of a second: a check
    of a game makes every node and span without them (in a process of its own, as other
    tests build them)."""
    script = ("from rulesdsl import ast as A\n"
              "from rulesdsl.validate.checking import check_file\n"
              "diags, _ = check_file('games/cromlech/cromlech.rules')\n"
              "assert not [d for d in diags if d.severity == 'error'], diags\n"
              "def sub(c):\n"
              "    return [k for s in c.__subclasses__() for k in (s, *sub(s))]\n"
              "from rulesdsl.diagnostics import Span\n"
              "print(sorted(c.__name__ for c in [Span, *sub(A.Node)]\n"
              "             if c.__pydantic_complete__))\n")
    env = {**os.environ, "RULESDSL_NO_CACHE": "1", "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env,
                         capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_loading_pauses_the_collector_and_leaves_it_as_it_was():
    text = 'game "g"\nplayers 1\nplay:\n    end game\n'
    assert gc.isenabled()
    seen = []
    with collector_paused():
        seen.append(gc.isenabled())
    load_text(text, "g.rules")
    assert seen == [False] and gc.isenabled()
    gc.disable()
    try:
        load_text(text, "g.rules")
        assert not gc.isenabled()
    finally:
        gc.enable()
    with pytest.raises(RulesError):
        load_text("game 1\n", "bad.rules")
    assert gc.isenabled()


@pytest.mark.parametrize("game", ["cromlech", "cleromancy", "yacht"])
@pytest.mark.parametrize("coverage", [False, True])
def test_the_code_made_when_asked_for_is_the_code_that_runs(game, coverage, monkeypatch):
    """`Program.code` is made when first read, by generating the module again: the same
    text as the module that was checked and run."""
    from rulesdsl.compile import backends

    ran = []

    def run(tree: Any, filename: str, namespace: dict) -> dict:
        ran.append(pyast.unparse(tree))
        return run_module(tree, filename, namespace)

    monkeypatch.setattr(backends, "run_module", run)  # the plain backend runs the module
    program = load(ROOT / "games" / game / f"{game}.rules", coverage=coverage).program
    assert len(ran) == 1
    assert program.code == ran[0]
    assert len(ran) == 1  # made without running the module again


def test_the_quick_walk_finds_every_node_but_contexts_and_operators():
    """`emit.nodes_of` (the sandbox's walk, and the compiler's) gives the nodes `ast.walk`
    gives, in its order, but for contexts and operators (`Load`, `Add`: no fields, no
    place), whose fields it does not enter (`child_fields`, read from each class's
    signature); and those fields hold nothing else in a generated module."""
    from rulesdsl.compile.emit import _LEAF_TYPES, child_fields, nodes_of

    leaves = (pyast.expr_context, pyast.boolop, pyast.operator, pyast.unaryop, pyast.cmpop)
    for game in ("cromlech", "cleromancy", "isle_of_skye"):
        tree = pyast.parse(load(ROOT / "games" / game / f"{game}.rules").program.code)
        walked = [n for n in pyast.walk(tree) if not isinstance(n, leaves)]
        assert [id(n) for n in nodes_of([tree])] == [id(n) for n in walked]
    for cls in (c for c in vars(pyast).values()
                if isinstance(c, type) and issubclass(c, pyast.AST) and c._fields):
        skipped = set(cls._fields) - set(child_fields(cls))
        doc = (cls.__doc__ or "").split("\n")[0]
        if not doc.startswith(cls.__name__ + "("):  # no signature (ast.Num): every field
            assert not skipped, cls
            continue
        typed = {field: kind for kind, field in
                 (pair.split() for pair in doc.partition("(")[2].rstrip(")").split(", "))}
        assert all(typed[f].rstrip("?*") in _LEAF_TYPES for f in skipped), cls
    assert child_fields(pyast.Name) == () and child_fields(pyast.BinOp) == ("left", "right")
    assert child_fields(pyast.Compare) == ("left", "comparators")


PLACES = ("empty", "line", "column", "start_pos", "end_line", "end_column", "end_pos",
          "container_line", "container_column", "container_start_pos",
          "container_end_line", "container_end_column", "container_end_pos")


def _places(tree: Any) -> list:
    return [(t.data, [getattr(t.meta, a, None) for a in PLACES])
            for t in tree.iter_subtrees_topdown()]


def test_the_parser_places_every_tree_where_lark_would():
    """PlacingLark places trees itself, more cheaply than lark's `propagate_positions`:
    every tree of every rule file of the repository (and of the expressions of its
    strings' `{...}`) has the place, and the container's place, lark gives it."""
    from lark import Lark, UnexpectedInput
    from lark.indenter import DedentError

    from rulesdsl.grammar import GRAMMAR, PlacingLark, RulesIndenter

    grammar = GRAMMAR.read_text(encoding="utf-8")
    options: dict[str, Any] = {"parser": "lalr", "maybe_placeholders": True,
                               "start": ["start", "expr"]}
    lark = Lark(grammar, propagate_positions=True, postlex=RulesIndenter(), **options)
    ours = PlacingLark(grammar, postlex=RulesIndenter(), **options)
    compared = 0
    for path in sorted(ROOT.glob("**/*.rules")):
        text = path.read_text(encoding="utf-8").rstrip("\n") + "\n"
        try:
            expected = lark.parse(text, start="start")
        except (UnexpectedInput, DedentError):
            with pytest.raises((UnexpectedInput, DedentError)):
                ours.parse(text, start="start")
            continue
        assert _places(ours.parse(text, start="start")) == _places(expected), path
        compared += 1
    for src in ("(a + b) * -(c)", "count(x in grid where (x is empty))", "[1, (2), f(3)]"):
        assert _places(ours.parse(src, start="expr")) == _places(lark.parse(src, start="expr"))
    assert compared > 60


def test_a_lark_that_does_not_let_the_parser_place_trees_places_them_its_own_way(monkeypatch):
    """PlacingLark overrides a method of lark's that lark may rename: then the parser is
    lark's own, with lark's placing, and places trees all the same."""
    from lark import Lark

    from rulesdsl.grammar import parser as grammar

    monkeypatch.setattr(grammar.PlacingLark, "_prepare_callbacks", Lark._prepare_callbacks)
    parser = grammar._lark(grammar.GRAMMAR.read_text(encoding="utf-8"), None)
    assert type(parser) is Lark
    tree = parser.parse("a + (b)", start="expr")
    assert (tree.meta.line, tree.meta.column, tree.meta.end_column) == (1, 1, 8)
