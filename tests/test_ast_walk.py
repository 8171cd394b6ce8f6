"""The one definition of a node's children (`child_nodes`) and of the blocks inside a
statement (`bodies`), checked against the classes' own fields, so that a statement added
with a block of statements cannot be forgotten by the passes that walk blocks."""

from __future__ import annotations

import sys
import types
import typing
from typing import Any, get_args, get_origin, get_type_hints

from rulesdsl import ast as A
from rulesdsl.diagnostics import Span

SPAN = Span.make(file="t.rules", line=1, column=1, end_line=1, end_column=2)


def node_classes() -> list[type[A.Node]]:
    modules = (A.expressions, A.statements, A.declarations)
    return [c for m in modules for c in vars(m).values()
            if isinstance(c, type) and issubclass(c, A.Node) and c.__module__ == m.__name__
            and c not in (A.Node, A.Named)]


def fields(cls: type) -> dict[str, Any]:
    hints = get_type_hints(cls, {**vars(A.base), **vars(sys.modules[cls.__module__])})
    return {k: hints[k] for k in cls.model_fields}


PART: dict[type, bool] = {}
ITEMS = {*A.DECLARATIONS, A.Extends, A.Replace, A.Remove, A.Change, A.RulesFile}


def holds_block(tp: Any) -> bool:
    """Whether a field of this type holds blocks of statements: a list of statements, or
    parts (a menu's options, an offer's answers) that hold them."""
    origin, args = get_origin(tp), get_args(tp)
    if origin is list and all(a in A.STATEMENTS for a in _union(args[0])):
        return True
    if isinstance(tp, type) and issubclass(tp, A.Node):
        if tp in A.STATEMENTS or tp in ITEMS:  # nodes of their own, not parts
            return False
        if tp not in PART:
            PART[tp] = False  # while its fields are looked at (a part may hold itself)
            PART[tp] = any(holds_block(t) for t in fields(tp).values())
        return PART[tp]
    return any(holds_block(a) for a in args)


def _union(tp: Any) -> tuple:
    return get_args(tp) if get_origin(tp) in (typing.Union, types.UnionType) else (tp,)


def sample(tp: Any) -> tuple[Any, list[list]]:
    """A value of a field's type whose blocks are fresh lists, and those lists in order."""
    origin, args = get_origin(tp), get_args(tp)
    if origin in (typing.Union, types.UnionType):
        return sample(next(a for a in args if holds_block(a)))
    if origin is list and all(a in A.STATEMENTS for a in _union(args[0])):
        block = [A.Pass.make(span=SPAN)]
        return block, [block]
    if origin is list:
        (one, first), (two, second) = sample(args[0]), sample(args[0])
        return [one, two], first + second
    if origin is tuple:
        parts = [sample(a) if holds_block(a) else (None, []) for a in args]
        return tuple(p for p, _ in parts), [b for _, found in parts for b in found]
    assert isinstance(tp, type) and issubclass(tp, A.Node), tp
    values: dict[str, Any] = {"span": SPAN}
    blocks: list[list] = []
    for key, t in fields(tp).items():
        if holds_block(t):
            values[key], found = sample(t)
            blocks += found
    return tp.model_construct(**values), blocks


# a variant's `change` holds edits (hooks, steps, options) of a declaration of the base: they
# are not blocks of the change, and are walked once applied, in the declaration they change
NOT_BLOCKS = {A.Change}


def test_bodies_covers_every_class_with_a_block():
    with_blocks = [c for c in node_classes() if any(holds_block(t) for t in fields(c).values())
                   and c not in NOT_BLOCKS]
    assert A.If in with_blocks and A.Offer in with_blocks and A.MenuOption in with_blocks
    for cls in with_blocks:
        node, blocks = sample(cls)
        assert [id(b) for b in A.bodies(node)] == [id(b) for b in blocks], cls.__name__


def test_bodies_of_a_statement_without_a_block_is_empty():
    assert A.bodies(A.Pass.make(span=SPAN)) == []
    choose = A.Choose.make(span=SPAN, var="x", domain=A.ListLit.make(span=SPAN, items=[]),
                           where=None, by=None, label=None, body=None)
    assert A.bodies(choose) == []


def test_child_nodes_are_every_node_directly_inside_in_field_order():
    one, two = A.IntLit.make(span=SPAN, value=1), A.IntLit.make(span=SPAN, value=2)
    text = A.StrLit.make(span=SPAN, parts=["a", one, "b"])
    say = A.Say.make(span=SPAN, text=text, to=two)
    assert list(A.child_nodes(say)) == [text, two]
    assert list(A.child_nodes(text)) == [one]
    stop = A.Pass.make(span=SPAN)
    branch = A.If.make(span=SPAN, branches=[(one, [stop])], otherwise=[say])
    assert list(A.child_nodes(branch)) == [one, stop, say]
    kind = A.KindDecl.make(span=SPAN, name="K", fields=["a"], rows=[], defaults={"a": two})
    assert list(A.child_nodes(kind)) == [two]


def test_statements_in_reaches_every_block():
    inner = A.Pass.make(span=SPAN)
    menu = A.ChooseMenu.make(span=SPAN, by=None, options=[A.MenuOption.make(
        span=SPAN, id="go", label=None, cond=None, body=[inner])])
    assert A.statements_in([menu]) == [menu, inner]


def test_a_node_without_a_handler_names_the_pass_and_the_class():
    class Pass:
        def visit_Pass(self) -> None: ...

    table = A.handlers(Pass, "visit_")
    assert table == {A.Pass: Pass.visit_Pass}
    try:
        A.handler(table, A.Draw.make(span=SPAN), "the printer")
    except A.NoHandler as e:
        assert str(e) == "the printer has no handler for Draw"
    else:
        raise AssertionError("no error")
