"""Every pass that walks statements or expressions takes every class of rulesdsl.ast, or
says in one explicit set which it does not take and why: a construct added to the language
names the pass that forgot it."""

from __future__ import annotations

from rulesdsl import ast as A
from rulesdsl.check import checker, expressions, flow
from rulesdsl.lsp import symbols
from rulesdsl.resolve import render


def missing(table: dict, classes: tuple, not_taken: frozenset = frozenset()) -> list[str]:
    assert not (not_taken & table.keys()), "a class both taken and declared not taken"
    return sorted(c.__name__ for c in classes if c not in table and c not in not_taken)


def test_the_checker_takes_every_statement():
    assert missing(checker.STATEMENTS, A.STATEMENTS, checker.NOT_TAKEN) == []


def test_the_places_of_points_know_every_statement_with_a_block():
    # a step is written out in place before (its statements run where it is written)
    with_blocks = tuple(c for c in A.STATEMENTS if c in A.HOLDING_BLOCKS)
    assert missing(flow.HELD, with_blocks, frozenset({A.Step})) == []


def test_the_text_of_a_declaration_takes_every_statement_and_expression():
    assert missing(render.STATEMENTS, A.STATEMENTS) == []
    assert missing(render.EXPRESSIONS, A.EXPRESSIONS) == []


def test_the_index_of_names_takes_every_statement_and_expression():
    assert missing(symbols.STATEMENTS, A.STATEMENTS) == []
    assert missing(symbols.EXPRESSION_HANDLERS, A.EXPRESSIONS) == []


def test_the_checker_takes_every_expression():
    assert missing(expressions.EXPRESSIONS, A.EXPRESSIONS) == []


def test_the_checker_takes_every_declaration():
    taken = {c: None for phase in (*checker.DECLARATIONS, checker.PROCEDURES) for c in phase}
    assert missing(taken, A.DECLARATIONS, checker.FILE_LINES) == []


def test_the_checker_reads_each_declaration_in_one_phase_or_by_a_condition():
    """A class in two phases is read twice on purpose: an enum's values, then its fields;
    a board, then what it holds; a statistic that is a tally, or one with a value."""
    seen: dict[type, int] = {}
    for phase in (*checker.DECLARATIONS, checker.PROCEDURES):
        for c in phase:
            seen[c] = seen.get(c, 0) + 1
    assert {c.__name__ for c, n in seen.items() if n > 1} == {"EnumDecl", "BoardDecl",
                                                             "StatDecl"}


def test_the_index_of_names_takes_every_declaration():
    assert missing(symbols.DECLARATIONS, A.DECLARATIONS) == []
