"""Constants worked out at compile time: a tree optimisation of the generated code.

Stage: compile (assembly.py's `finish` passes each generated function through `fold`). Rules
write their arithmetic for people (`index(g) + 1`, `row(field, 1)`, `(battle - 1) % 4 +
1`), and the compiler adds its own (`- 1` to read item i of a list): what is known before
the game is worked out once, here, on the tree:

- whole numbers: `1 - 1` is `0`, `7 // 2` is `3` (never a division by zero: that stays,
  to fail as the rules say), `(x + 1) + 1` is `x + 2`;
- comparisons of constants: `0 < 1 <= 8` is `True`;
- `a if True else b` is `a`, `not True` is `False`;
- a filter of a filter is one filter: `[x for x in [y for y in d if p(y)] if q(x)]` is
  `[y for y in d if p(y) if q(y)]` (no list in between; the rules' conditions are pure, so
  only which of two failing conditions reports first may differ).

Only whole numbers (not true/false) are folded, and a sum keeps the name it adds to, so a
value that is none fails where it did.
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable
from typing import Any

from . import emit as E

ARITHMETIC: dict[type, Callable[[int, int], int]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
    ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod}
COMPARISONS: dict[type, Callable[[Any, Any], bool]] = {
    ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
    ast.Gt: operator.gt, ast.GtE: operator.ge}
BIG = 10 ** 18  # folded numbers stay within what the engine keeps


def fold(body: list[ast.stmt]) -> list[ast.stmt]:
    """The statements with their constant parts worked out (changed in place)."""
    folder = _Fold()
    return [folder.visit(s) for s in body]


def add_constant(e: ast.expr, k: int) -> ast.expr:
    """e + k, with the constants folded (`(x + 1) + -1` is `x`: for a position that the
    checker typed as a whole number)."""
    c = E.int_constant(e)
    if c is not None:
        return E.const(c + k)
    if isinstance(e, ast.BinOp) and isinstance(e.op, ast.Add):
        inner = E.int_constant(e.right)
        if inner is not None:
            return e.left if inner + k == 0 else E.binop(e.left, "+", E.const(inner + k))
    return E.binop(e, "+", E.const(k)) if k >= 0 else E.binop(e, "-", E.const(-k))


def _number(e: ast.expr) -> int | None:
    value = E.int_constant(e)
    return value if value is not None and abs(value) <= BIG else None


class _Fold(E.Transformer):
    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        self.generic_visit(node)
        fn = ARITHMETIC.get(type(node.op))
        left, right = _number(node.left), _number(node.right)
        if fn is None or right is None:
            return node
        if left is not None:
            if right == 0 and isinstance(node.op, (ast.FloorDiv, ast.Mod)):
                return node
            value = fn(left, right)
            return E.const(value) if abs(value) <= BIG else node
        # (x + a) + b, (x - a) + b, ...: one sum
        inner = node.left
        if isinstance(node.op, (ast.Add, ast.Sub)) and isinstance(inner, ast.BinOp) and \
                isinstance(inner.op, (ast.Add, ast.Sub)) and _number(inner.right) is not None:
            a = _number(inner.right) * (1 if isinstance(inner.op, ast.Add) else -1)  # type: ignore[operator]
            total = a + (right if isinstance(node.op, ast.Add) else -right)
            if abs(total) <= BIG:
                return (E.binop(inner.left, "+", E.const(total)) if total >= 0
                        else E.binop(inner.left, "-", E.const(-total)))
        return node

    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        self.generic_visit(node)
        values = [node.left, *node.comparators]
        if not all(isinstance(v, ast.Constant) and type(v.value) in (int, str)
                   for v in values):
            return node
        consts = [v.value for v in values]  # type: ignore[attr-defined]
        result = True
        for op, x, y in zip(node.ops, consts, consts[1:]):
            fn = COMPARISONS.get(type(op))
            if fn is None or type(x) is not type(y):
                return node
            result = result and fn(x, y)
        return E.const(result)

    def visit_IfExp(self, node: ast.IfExp) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.test, ast.Constant):
            return node.body if node.test.value else node.orelse
        return node

    def visit_ListComp(self, node: ast.ListComp) -> ast.AST:
        self.generic_visit(node)
        if len(node.generators) != 1:
            return node
        outer = node.generators[0]
        parts = E.plain_filter(outer.iter)
        if parts is None or not isinstance(outer.target, ast.Name):
            return node
        _, inner, tests = parts
        rename = E.Rename(outer.target.id, inner)
        gen = outer.iter.generators[0]  # type: ignore[attr-defined]
        gen.ifs = [*tests, *(rename.visit(test) for test in outer.ifs)]
        return ast.ListComp(elt=rename.visit(node.elt), generators=[gen])

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.op, ast.Not) and isinstance(node.operand, ast.Constant):
            return E.const(not node.operand.value)
        return node

