"""A guard and the options of the choice it guards, worked out once.

Stage: compile (control.py asks `guarded_test` for the test of an `if` or a `while` whose
body begins with a choice). Rules often ask whether a choice has anything to offer before
they offer it:

    while any(d in held where usable(d)):
        choose optional d in held where usable(d) as ...

    while points > 0 and c is not empty and enemies_in_range(c) is not empty:
        choose optional t in enemies_in_range(c) as ...

Compiled plainly, the test looks for a first item that passes, then the choice builds the
whole list again from the start. Here the test builds the list the choice offers, keeps it
in a name of the block (`t7`), and is true when it is not empty; the choice offers that
list. The test's other conditions come first, as written, so the list is built only where
the rules would have looked at it:

    if not (L[1] > 0 and B0[L[0]] is not None and (t7 := D8(st, L[0]))):
        return 12
    st.pending = (4, ..., _uniq(t7) + [None])

The guard must ask exactly for the choice's items (the same list, or `any`/`filter` over
the same items with the same condition and the same name for the item), and the choice must
be the first statement the test leads to (nothing changes the game in between). Rules with
'as soon as' blocks are left as they are: those run just before a decision and may change
what it offers.
"""

from __future__ import annotations

import ast
from typing import Any, Protocol

from .. import ast as A
from ..check.analysis import Analysis
from . import emit as E


class Compiler(Protocol):
    """What `guarded_test` uses of the compiler (control.py calls it)."""

    a: Analysis
    known_options: dict[int, str]

    def fresh(self, stem: str = "t") -> str: ...
    def expr(self, e: Any) -> ast.expr: ...
    def choice_list(self, s: A.Choose) -> ast.expr: ...


def guarded_test(c: Compiler, cond: A.Expr, body: list) -> ast.expr | None:
    """The test of an `if` or `while` that builds the options of the choice its body
    begins with (and records them for `Compiler.choose`); None when the test does not ask
    for exactly those options."""
    if c.a.triggers or not body or not isinstance(body[0], A.Choose):
        return None
    choice = body[0]
    conjuncts = _conjuncts(cond)
    if not asks_for(conjuncts[-1], choice):
        return None
    held = c.fresh()
    c.known_options[id(choice)] = held
    built = ast.NamedExpr(target=E.store(held), value=c.choice_list(choice))
    return E.and_(*(c.expr(x) for x in conjuncts[:-1]), built)


def asks_for(guard: A.Expr, choice: A.Choose) -> bool:
    """Whether `guard` is true exactly when the choice has an option (its `done` aside):
    `xs is not empty` for `choose x in xs`, or `any(x in xs where p)` / `filter(x in xs
    where p) is not empty` for `choose x in xs where p`."""
    if isinstance(guard, A.IsEmpty) and guard.negated:
        inner = guard.operand
        if isinstance(inner, A.Quantifier) and inner.kind == "filter":
            guard = inner
        elif choice.where is None:
            return shape(inner) == shape(choice.domain)
    if isinstance(guard, A.Quantifier) and guard.kind in ("any", "filter"):
        return (guard.var == choice.var and guard.where is not None
                and choice.where is not None
                and shape(guard.domain) == shape(choice.domain)
                and shape(guard.where) == shape(choice.where))
    return False


def _conjuncts(e: A.Expr) -> list[A.Expr]:
    """`a and b and c` as [a, b, c] (`and` groups to the left)."""
    if isinstance(e, A.Binary) and e.op == "and":
        return [*_conjuncts(e.left), e.right]
    return [e]


def shape(x: Any) -> Any:
    """A syntax tree as plain tuples, without the places it was written: two trees of the
    same shape, in the same scope, mean the same."""
    if isinstance(x, A.Node):
        return (type(x).__name__, *((k, shape(getattr(x, k))) for k in type(x).model_fields
                                     if k not in ("span", "name_span")))
    if isinstance(x, (list, tuple)):
        return tuple(shape(v) for v in x)
    return x
