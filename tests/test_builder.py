"""The builder of the syntax tree (grammar/builder.py): a method for every rule of the
grammar, the rules that only hand their children to a node made from its tables (NODES,
PASSED, HOOKS) and nowhere else. The trees it builds are compared, game by game, with the
ones validation makes in tests/test_start.py."""

from __future__ import annotations

import inspect

import pytest

from rulesdsl import ast as A
from rulesdsl.grammar import parse
from rulesdsl.grammar.builder import HOOKS, NODES, PASSED, AstBuilder
from rulesdsl.grammar.parser import rules_parser


def named_rules() -> set[str]:
    """The rules (and aliases) of the grammar that make a tree of their own: not inlined
    (`_rule`), not a `?rule` that hands on its one child."""
    names = set()
    for rule in rules_parser().rules:
        name = str(getattr(rule.alias or rule.origin.name, "name", rule.alias or rule.origin.name))
        if name.startswith("_") or (rule.options.expand1 and not rule.alias):
            continue
        names.add(name)
    return names


def test_every_rule_of_the_grammar_has_a_method():
    """A rule without one would leave a lark tree in the syntax tree."""
    assert sorted(n for n in named_rules() if not hasattr(AstBuilder, n)) == []


@pytest.mark.parametrize("table", [NODES, PASSED, HOOKS], ids=["NODES", "PASSED", "HOOKS"])
def test_each_rule_of_the_tables_is_of_the_grammar_and_made_only_there(table):
    written = {name for name, _ in inspect.getmembers(AstBuilder)
               if f"def {name}(" in inspect.getsource(AstBuilder)}
    assert sorted(set(table) - named_rules()) == []
    assert sorted(set(table) & written) == []


def test_the_fields_of_nodes_are_the_fields_of_their_class():
    for rule, (cls, fields, constant) in NODES.items():
        names = {f.lstrip("*") for f in fields} | set(constant)
        assert issubclass(cls, A.Node), rule
        assert names <= set(cls.model_fields), (rule, names - set(cls.model_fields))
        assert all(not f.startswith("*") for f in fields[:-1]), rule


def test_a_made_node_is_placed_and_filled():
    rules = parse('game "G"\nplayers 2\nplay:\n    move x from a to b\n'
                  '    if not (1 in [1]) or x is empty:\n        draw\n', "g.rules")
    play = next(i for i in rules.items if isinstance(i, A.PlayDecl))
    move, test = play.body
    assert isinstance(move, A.Move) and (move.span.line, move.span.column) == (4, 5)
    assert [type(getattr(move, f)).__name__ for f in ("item", "source", "dest")] == \
        ["Name", "Name", "Name"]
    cond = test.branches[0][0]
    assert isinstance(cond, A.Binary) and cond.op == "or"
    assert isinstance(cond.left, A.Unary) and cond.left.op == "not"
    assert isinstance(cond.right, A.IsEmpty) and cond.right.negated is False
    assert isinstance(test.branches[0][1][0], A.Draw)
