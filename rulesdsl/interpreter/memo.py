"""Calls worked out once per call of a pure function: a tree optimisation of generated code.

Stage: compile (compiler.finish passes each generated function through `memoize`). The
loop functions (`Q3`), definitions (`D5`) and emptiness tests (`N5`, truth.py) only read
the state: while one of them runs, the state does not change (only the count of work
done grows). So inside one, a call of another whose arguments read nothing bound inside
it (its parameters, the aliases `V`, `Z`, `B0`, tables, constants) has one value for the
whole call, wherever it stands: repeated in one expression (Cleromancy's `near_keep(d, p)`
asks `keep_of(p)` three times) or inside a loop (`any(c in field where c is empty and
distance(c, keep_of(p)) == 1)` asked it for each of 64 cells). Such a call is worked out
the first time it is reached and remembered for the rest of the call:

    (m1 if u1 else ((u1 := True) and (m1 := Q1(st, B0, V, a0))))

with `u1 = False` at the function's top. A call the function would not have reached is
still not made, so no error can come from a call the rules did not ask for.
"""

from __future__ import annotations

import ast
import re

from . import emit as E

PURE = re.compile(r"^[QDN][0-9]+$")
LOOPS = (ast.For, ast.ListComp, ast.GeneratorExp)


def memoize(name: str, body: list[ast.stmt]) -> list[ast.stmt]:
    """The body of generated function `name`, its repeated and loop-invariant calls of
    pure functions remembered (unchanged when it is not a pure function itself)."""
    if not PURE.match(name):
        return body
    bound = E.bound_names(body)
    seen: dict[str, int] = {}
    in_loop: set[str] = set()

    def candidate(node: ast.AST) -> str | None:
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and PURE.match(node.func.id) and not node.keywords):
            return None
        for arg in node.args:
            for sub in ast.walk(arg):
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

    for stmt in body:
        count(stmt, False)
    chosen = [key for key, n in seen.items() if n > 1 or key in in_loop]
    if not chosen:
        return body
    names = {key: k + 1 for k, key in enumerate(chosen)}

    class Remember(ast.NodeTransformer):
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

    new = [Remember().visit(stmt) for stmt in body]
    first = [E.assign(E.store(f"u{k}"), E.const(False)) for k in names.values()]
    return first + new
