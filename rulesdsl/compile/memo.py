"""Calls worked out once per call of a pure function: a tree optimisation of generated code.

Stage: compile (assembly.py's `finish` passes each generated function through `memoize`). The
loop functions (`Q3`), definitions (`D5`) and emptiness tests (`N5`, truth.py) only read
the state: while one of them runs, the state does not change (only the count of work
done grows). So inside one, a call of another whose arguments read nothing bound inside
it (its parameters, the aliases `V`, `Z`, `B0`, tables, constants) has one value for the
whole call, wherever it stands: repeated in one expression (Cleromancy's `near_keep(d, p)`
asks `keep_of(p)` three times) or inside a loop (`any(c in field where c is empty and
distance(c, keep_of(p)) == 1)` asked it for each of 64 cells). Such a call is worked out
the first time it is reached and remembered for the rest of the call:

    (m1 if u1 else ((u1 := True) and (m1 := Q1(st, B0, V, a0))))

with `u1 = False` at the function's top, and `m1 = None` beside it (Python never reads
`m1` before the flag is set, but a compiler that checks every name is bound before it is
read, as Cython does, cannot tell). A call the function would not have reached is still
not made, so no error can come from a call the rules did not ask for.
"""

from __future__ import annotations

import ast
import itertools
import re
from collections.abc import Iterator

from . import emit as E

PURE = re.compile(r"^[QDN][0-9]+$")
# the runtime helpers and built-ins that only read the state (or count work, or fail)
READING = frozenset({
    "_need", "_idx", "_pick", "_cell", "_w", "_n", "_range", "_top", "_sort", "_extreme",
    "_reach", "_straight", "_uniq", "_subsets", "_div", "_mod", "_bounded", "_show",
    "_winner", "_winners", "_team", "_teams", "_win", "_none_left", "_occupied", "_stuck",
    "_too_big", "_expect", "_tq", "_tturn", "_side", "_empty",
    "len", "list", "range", "sum", "any", "all", "abs", "max", "min", "enumerate",
    "sorted", "reversed", "tuple", "zip", "int", "bool", "str",
})
LOOPS = (ast.For, ast.ListComp, ast.GeneratorExp)


def memoize(name: str, body: list[ast.stmt]) -> list[ast.stmt]:
    """The body of generated function `name`, its repeated and loop-invariant calls of
    pure functions remembered: for the whole call in a pure function, for one statement
    in a block (see memoize_statements)."""
    if not PURE.match(name):
        return memoize_statements(body, itertools.count(1))
    names = _remember(body, E.bound_names(body), itertools.count(1))
    return [s for k in names for s in _forget(k)] + body


def _forget(k: int) -> list[ast.stmt]:
    """`uK = False` and `mK = None`: call K not made yet."""
    return [E.assign(E.store(f"u{k}"), E.const(False)), E.assign(E.store(f"m{k}"), E.const(None))]


def memoize_statements(body: list[ast.stmt], counter: Iterator[int]) -> list[ast.stmt]:
    """A block changes the state from one statement to the next, but never while one
    statement works out its values: the calls of pure functions inside one statement's
    own expressions (an `if`'s test, not its branches) are remembered for that statement,
    forgotten (`u1 = False`) just before it runs again. A `while`'s test is worked out
    anew after its body: it is left as it is. A statement that calls anything that changes
    the state (a rule's block, a move) is left as it is too."""
    out: list[ast.stmt] = []
    for stmt in body:
        inner = {f: getattr(stmt, f) for f in ("body", "orelse")
                 if isinstance(getattr(stmt, f, None), list)}
        for f in inner:
            setattr(stmt, f, [])
        if not isinstance(stmt, ast.While) and _worth_it(stmt):
            names = _remember([stmt], E.bound_names([stmt]), counter)
            out += [s for k in names for s in _forget(k)]
        for f, stmts in inner.items():
            setattr(stmt, f, memoize_statements(stmts, counter))
        out.append(stmt)
    return out


def _worth_it(stmt: ast.stmt) -> bool:
    """Whether the statement's own expressions call a pure function twice, or in a loop,
    and call nothing but what reads the state."""
    pure = 0
    for node in E.nodes_of([stmt]):
        if isinstance(node, (ast.ListComp, ast.GeneratorExp)):
            pure += 1  # a call inside may be made for each item
        elif isinstance(node, ast.Call):
            f = node.func
            if isinstance(f, ast.Attribute):
                continue  # st.rand, st.log.append, a board's count: never a zone or a slot
            if not isinstance(f, ast.Name):
                return False
            if PURE.match(f.id):
                pure += 1
            elif f.id not in READING:
                return False
    return pure > 1


def _remember(roots: list[ast.stmt], bound: set[str], counter: Iterator[int]) -> list[int]:
    """Rewrite the roots so that each call of a pure function that is repeated, or inside a
    loop, and reads nothing in `bound` is made once; returns the numbers of the flags."""
    seen: dict[str, int] = {}
    in_loop: set[str] = set()

    def candidate(node: ast.AST) -> str | None:
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and PURE.match(node.func.id) and not node.keywords):
            return None
        for arg in node.args:
            for sub in E.nodes_of([arg]):
                if isinstance(sub, (ast.Call, ast.NamedExpr, *LOOPS)) or (
                        isinstance(sub, ast.Name) and sub.id in bound):
                    return None
        return ast.dump(node)

    def count(node: ast.AST, loop: bool) -> None:
        key = candidate(node)
        if key is not None:
            seen[key] = seen.get(key, 0) + 1
            if loop:
                in_loop.add(key)
        for field, value in ast.iter_fields(node):
            if isinstance(node, ast.comprehension) and field == "iter":
                continue  # an iterable of a comprehension is read once (and a `:=` there
                # is not allowed)
            inner = loop or (isinstance(node, LOOPS) and field != "iter")
            for child in value if isinstance(value, list) else [value]:
                if isinstance(child, ast.AST):
                    count(child, inner)

    for root in roots:
        count(root, False)
    chosen = [key for key, n in seen.items() if n > 1 or key in in_loop]
    names = {key: next(counter) for key in chosen}
    if not names:
        return []

    class Remember(E.Transformer):
        def visit_comprehension(self, node: ast.comprehension) -> ast.AST:
            node.target = self.visit(node.target)
            node.ifs = [self.visit(x) for x in node.ifs]
            return node  # not its iterable (see above)

        def visit_Call(self, node: ast.Call) -> ast.AST:
            key = candidate(node)
            if key not in names:
                return self.generic_visit(node)
            k = names[key]
            value, used = f"m{k}", f"u{k}"
            work = ast.BoolOp(op=ast.And(), values=[
                ast.NamedExpr(target=E.store(used), value=E.const(True)),
                ast.NamedExpr(target=E.store(value), value=node)])
            return E.ifexp(E.name(used), E.name(value), work)

    for k, root in enumerate(roots):
        roots[k] = Remember().visit(root)
    return list(names.values())
