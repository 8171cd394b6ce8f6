"""The expressions of a rule file: literals, names, calls, operators, comprehensions.

Stage: the vocabulary every stage shares. `Expr` is the union of every expression class.
"""

from __future__ import annotations

from .base import Named, Node


class IntLit(Node):
    """An integer literal: `3`."""

    value: int


class StrLit(Node):
    """A string, possibly with `{expr}` holes: `"mark {c}"`. Parts alternate text and
    expressions in order."""

    parts: list[str | Expr]


class BoolLit(Node):
    """`true` or `false`."""

    value: bool


class NoneLit(Node):
    """`none`: no value (an empty cell holds none)."""


class PlayerLit(Node):
    """`player 2`: a seat, numbered from 1."""

    number: int


class Name(Node):
    """A name: a local, a constant, a setting, a counter, a board, a cell, an enum value
    or a built-in such as `current` and `players`."""

    name: str


class Call(Node):
    """A call of a built-in function or a `define`: `lines(grid, 3)`."""

    func: str
    args: list[Expr]


class ListLit(Node):
    """A list: `[1, 2, 3]`."""

    items: list[Expr]


class Of(Node):
    """`score of p`: a per-player counter of a player, a die's `face`, a cell's `piece`."""

    attr: str
    obj: Expr


class Index(Node):
    """`xs[i]`: the i-th item of a list, counted from 1."""

    obj: Expr
    index: Expr


class Unary(Node):
    """`-x` or `not x`."""

    op: str
    operand: Expr


class Binary(Node):
    """Arithmetic (`+ - * / %`), comparison, `and`, `or`, `in`, `not in`, range `a..b`."""

    op: str
    left: Expr
    right: Expr


class IsEmpty(Node):
    """`c is empty` / `c is not empty`: a cell without a piece, or a list without items."""

    operand: Expr
    negated: bool


class Cond(Node):
    """`if test then a else b`."""

    test: Expr
    then: Expr
    otherwise: Expr


class TupleLit(Node):
    """`(p, c)`: the key of a counter kept per two things: `used of (current, c)`."""

    items: list[Expr]


class ListComp(Named):
    """`[e for x in xs where c]`: a new list."""

    expr: Expr
    var: str
    domain: Expr
    where: Expr | None


class Quantifier(Named):
    """`count(x in xs where c)`, also `any`, `all`, `first`, `filter`."""

    kind: str
    var: str
    domain: Expr
    where: Expr | None


class Aggregate(Named):
    """`sum(e for x in xs where c)`, also `max`, `min`."""

    kind: str
    expr: Expr
    var: str
    domain: Expr
    where: Expr | None


class Sort(Named):
    """`sort(x in xs where c by key)`: the items of xs (those meeting c), ordered by the key
    (smallest first; ties keep their order). `sort(xs)` without a key is a call of the
    built-in function."""

    var: str
    domain: Expr
    where: Expr | None
    key: Expr


Expr = (
    IntLit | StrLit | BoolLit | NoneLit | PlayerLit | Name | Call | ListLit | Of | Index |
    Unary | Binary | IsEmpty | Cond | Quantifier | Aggregate | TupleLit | ListComp | Sort
)
