"""The compiler's dispatch by statement class (compile/compiler.py `HANDLERS`): every
statement class of the language has one handler, or is declared not to reach the compiler
with a reason; a class without either is an error naming it as the table is built."""

from __future__ import annotations

from typing import get_args

import pytest

from rulesdsl import ast as A
from rulesdsl.check import analyze
from rulesdsl.compile import compiler, control, flow, sites, statements
from rulesdsl.compile.compiler import HANDLERS, NOT_COMPILED, Compiler, handler_table
from rulesdsl.grammar import parse

STATEMENTS = get_args(A.Stmt)  # every statement class, as ast.py lists them


@pytest.mark.parametrize("cls", STATEMENTS, ids=lambda c: c.__name__)
def test_every_statement_class_has_a_handler_or_a_reason(cls):
    assert (cls in HANDLERS) != (cls in NOT_COMPILED), cls.__name__
    if cls in NOT_COMPILED:
        assert NOT_COMPILED[cls].strip()


def test_the_table_holds_statement_classes_only():
    assert set(HANDLERS) <= set(STATEMENTS)
    assert set(NOT_COMPILED) <= set(STATEMENTS)


def test_a_statement_class_without_a_handler_is_named_when_the_table_is_built():
    parts = [statements.HANDLERS, control.HANDLERS, sites.HANDLERS,
             {k: v for k, v in flow.HANDLERS.items() if k is not A.Offer}]
    with pytest.raises(TypeError, match="no handler for the statement Offer"):
        handler_table(parts)
    with pytest.raises(TypeError, match="two handlers for the statement If"):
        handler_table([*parts, {A.Offer: flow.offer}, {A.If: control.Control.if_}])


def test_every_part_of_the_compiler_is_there():
    """The parts declare in context.py what they ask of each other: the compiler is only
    made when each is given."""
    assert not Compiler.__abstractmethods__
    assert Compiler.handlers is compiler.HANDLERS


def test_a_node_that_is_no_statement_is_an_error_naming_its_class():
    text = 'game "G"\nplayers 2\nplay:\n    win 1\n'
    analysis = analyze(parse(text, "g.rules"))
    generator = Compiler(analysis, {"g.rules": text})
    node = A.IntLit.make(span=analysis.file.items[0].span, value=1)
    with pytest.raises(TypeError, match="no handler for IntLit"):
        generator.stmt(node, [])
