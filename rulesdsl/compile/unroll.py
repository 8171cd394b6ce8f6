"""Lists built by loops, not comprehensions: a tree optimisation of generated code.

Stage: compile (assembly.py's `finish` passes each generated function through `unroll`). On
Python 3.11 a list comprehension is a function of its own: each time it runs, a function
object and a frame are made (about 0.1 us), more than the whole filter costs on the few
items rules mostly filter (the dice a player holds, the players). A comprehension that a
statement starts with, whole, is written as the loop it stands for, appending to the
list:

    t5 = [c1 for c1 in Z[3] if V[c1]]          t5 = []
                                        ->     for c1 in Z[3]:
                                                   if V[c1]:
                                                       t5.append(c1)

for the value of an assignment (`x = [...]`, a list read by a subscript `L[4] = [...]`
through a name of its own), the list a guard names as it tests it (`if not (t2 :=
[...]):`, the options of a choice) and the value returned. The items, their order, the
work counted and the errors are the same; only where the comprehension's names live
changes (the function's locals), so a comprehension is written out only when its names
appear nowhere in the function but inside comprehensions (it can clobber nothing, and
nothing reads it after).

A loop over items counted against the budget of work, `for c1 in _w(st, Z[3], 2, 17):`,
has the counting written out before it (`x1 = Z[3]`, `st.steps += len(x1) * 2`, the test
of the budget), as the compiler writes it in its own loops: one call less per loop.
"""

from __future__ import annotations

import ast
import itertools
from collections.abc import Iterator
from typing import TypeGuard

from ..program.runtime import WORK_BUDGET
from . import emit as E

COMPREHENSIONS = (ast.ListComp, ast.GeneratorExp, ast.SetComp, ast.DictComp)


def unroll(body: list[ast.stmt], params: list[str]) -> list[ast.stmt]:
    """The function body with the comprehensions its statements start with written as
    loops (see the module's docstring); `params` are the function's parameters."""
    outside = _Outside(body, params)
    fresh = (f"x{n}" for n in itertools.count(1))
    return _body(body, outside, fresh)


class _Outside:
    """The names a function reads or binds outside its comprehensions and its parameters:
    `name in outside`, worked out when first asked (a function whose statements start
    with no comprehension never asks)."""

    def __init__(self, body: list[ast.stmt], params: list[str]):
        self.body, self.params = body, params
        self.names: set[str] | None = None

    def __contains__(self, name: str) -> bool:
        if self.names is None:
            self.names = _names_outside_comprehensions(self.body) | set(self.params)
        return name in self.names


def _body(body: list[ast.stmt], outside: _Outside, fresh: Iterator[str]) -> list[ast.stmt]:
    out: list[ast.stmt] = []
    for stmt in body:
        for f in ("body", "orelse"):
            inner = getattr(stmt, f, None)
            if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                setattr(stmt, f, _body(inner, outside, fresh))
        for s in _statement(stmt, outside, fresh):
            out += _counted(s, fresh) if isinstance(s, ast.For) else [s]
    return out


def _counted(loop: ast.For, fresh: Iterator[str]) -> list[ast.stmt]:
    """A loop over `_w(st, items, weight, sid)` (its items counted against the budget of
    work, then gone through) with the counting written out before it: no call."""
    it = loop.iter
    if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "_w"
            and len(it.args) == 4 and not it.keywords):
        return [loop]
    st, items, weight, sid = it.args
    out: list[ast.stmt] = []
    if not isinstance(items, ast.Name):
        holder = next(fresh)
        out.append(E.assign(E.store(holder), items))
        items = E.name(holder)
    amount: ast.expr = E.call("len", items)
    if not (isinstance(weight, ast.Constant) and weight.value == 1):
        amount = E.binop(amount, "*", weight)
    steps = E.attr(st, "steps")
    out += [E.aug(E.attr_store(st, "steps"), "+", amount),
            E.if_(E.compare(steps, ">", E.const(WORK_BUDGET)),
                  [E.raise_(E.call("_stuck", sid))])]
    loop.iter = E.name(items.id)
    return _marked(loop, [*out, loop])


def _statement(stmt: ast.stmt, outside: _Outside, fresh: Iterator[str]) -> list[ast.stmt]:
    """The statement, or the loop that builds its list followed by the statement reading
    it."""
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and \
            _writable(stmt.value, outside):
        target = stmt.targets[0]
        if isinstance(target, ast.Name):
            return _marked(stmt, _loop(target.id, stmt.value, fresh))
        holder = next(fresh)
        return _marked(stmt, [*_loop(holder, stmt.value, fresh), E.assign(target, E.name(holder))])
    if isinstance(stmt, ast.Return) and stmt.value is not None and \
            _writable(stmt.value, outside):
        holder = next(fresh)
        return _marked(stmt, [*_loop(holder, stmt.value, fresh), E.return_(E.name(holder))])
    if isinstance(stmt, ast.If):  # (a while's test is worked out again: left as it is)
        test = stmt.test
        negated = isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)
        named = test.operand if negated else test  # type: ignore[attr-defined]
        if isinstance(named, ast.NamedExpr) and _writable(named.value, outside):
            holder = named.target.id
            stmt.test = E.not_(E.name(holder)) if negated else E.name(holder)
            return _marked(stmt, [*_loop(holder, named.value, fresh), stmt])
    return [stmt]


def _writable(e: ast.expr, outside: _Outside) -> TypeGuard[ast.ListComp]:
    """A list comprehension whose names are read and bound nowhere but in comprehensions."""
    if not isinstance(e, ast.ListComp):
        return False
    for gen in e.generators:
        if gen.is_async or not isinstance(gen.target, ast.Name) or gen.target.id in outside:
            return False
    return True


def _loop(holder: str, comp: ast.ListComp, fresh: Iterator[str]) -> list[ast.stmt]:
    """`holder = []` and the loops that append the comprehension's items to it."""
    inner: list[ast.stmt] = [E.expr_stmt(E.method(E.name(holder), "append", comp.elt))]
    for gen in reversed(comp.generators):
        for test in reversed(gen.ifs):
            inner = [E.if_(test, inner)]
        inner = _counted(E.for_(E.store(gen.target.id), gen.iter, inner),  # type: ignore[attr-defined]
                         fresh)
    return [E.assign(E.store(holder), E.list_([])), *inner]


def _marked(original: ast.stmt, stmts: list[ast.stmt]) -> list[ast.stmt]:
    """The statements, each marked as coming from the original's rule (its `sid`)."""
    sid = getattr(original, "sid", None)
    if sid is not None:
        for s in stmts:
            s.sid = sid  # type: ignore[attr-defined]
    return stmts


def _names_outside_comprehensions(body: list[ast.stmt]) -> set[str]:
    """Every name the body reads or binds outside any comprehension."""
    found: set[str] = set()
    todo: list[ast.AST] = list(body)
    children = E.child_fields
    for node in todo:  # the list grows as it is read
        if isinstance(node, ast.Name):
            found.add(node.id)
            continue
        for f in children(node.__class__):
            v = getattr(node, f, None)
            if isinstance(v, ast.AST):
                if not isinstance(v, COMPREHENSIONS):
                    todo.append(v)
            elif isinstance(v, list):
                todo += [x for x in v if isinstance(x, ast.AST) and
                         not isinstance(x, COMPREHENSIONS)]
    return found
