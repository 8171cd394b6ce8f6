"""Tests of emptiness that stop at the first hit: a tree optimisation of the generated code.

Stage: compile (called by expressions.py for `xs is empty` / `xs is not empty`). Rules
often ask whether a list they build has anything in it: Cromlech's `usable(d)` is
`single_targets(d) is not empty or can_pair(d)`, and each of those builds a list of
targets over every stone only to look at its length. Compiled plainly, the whole list is
built; here the test is rewritten on the generated tree into one that stops at the first
item that passes:

- a list comprehension `[x for v in xs if c]` becomes a loop function that returns True at
  the first `v` for which `c` holds (`Q7(...)`, like the compiler's own `any` loops);
- `a if t else b` becomes the test of each branch;
- `[]` is false, and `list(xs)` (a copy of a zone) is tested as `xs`, without copying;
- a call of a definition `D5(st, ...)` whose body can be tested so becomes a call of its
  test, a function `N5(st, ...)` made once from the same body;
- a call of a runtime helper that builds a list and has a test of its own (`spots` of a
  territory: `_tspots`, tested by `_thas_spot`) becomes a call of that test.

Anything else is tested as it is (its truth). The result is the same truth value; what
differs is only how much is built, and so how much work is counted: a rule whose later
items would have failed (a division by zero in a condition after the first hit) no longer
fails there, which only ever stops a game sooner.
"""

from __future__ import annotations

import ast
from typing import Any

from . import emit as E

DEFINE = "D"   # the names of definitions (expressions.Template.function)
TEST = "N"     # the names of their tests made here
# runtime helpers that build a list, and the helpers that tell whether it would have an item
# (the same search, stopped at the first; rulesdsl/boards/territory.py)
HELPER_TESTS = {"_tspots": "_thas_spot"}


def nonempty(ec: Any, e: ast.expr) -> ast.expr | None:
    """A tree whose value is true exactly when e's value is not empty, stopping at the first
    item found; None when e has no such cheaper form (then test e itself). `ec` is the
    expression compiler: it makes the loop functions and holds the definitions."""
    if isinstance(e, ast.ListComp) and len(e.generators) == 1:
        gen = e.generators[0]
        if gen.is_async or not isinstance(gen.target, ast.Name):
            return None
        test: ast.expr = E.and_(*gen.ifs) if gen.ifs else E.const(True)
        d = ec.fresh("d")
        body: list[ast.stmt] = [
            E.assign(E.store(d), gen.iter),
            E.for_(gen.target, E.name(d), [E.if_(test, [E.return_(E.const(True))])]),
            E.return_(E.const(False)),
        ]
        call: ast.expr = ec.finish_function(f"Q{len(ec.functions)}", body)
        return call
    if isinstance(e, ast.IfExp):
        then, other = nonempty(ec, e.body), nonempty(ec, e.orelse)
        if then is None and other is None:
            return None
        return E.ifexp(e.test, then if then is not None else _truth(e.body),
                       other if other is not None else _truth(e.orelse))
    if isinstance(e, ast.List) and not e.elts:
        return E.const(False)
    if (isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.id == "list"
            and len(e.args) == 1 and not e.keywords):  # a copy (of a zone): test the original
        inner = nonempty(ec, e.args[0])
        return inner if inner is not None else _truth(e.args[0])
    if (isinstance(e, ast.Call) and isinstance(e.func, ast.Name)
            and e.func.id in HELPER_TESTS and not e.keywords):
        return E.call(HELPER_TESTS[e.func.id], *e.args)
    if (isinstance(e, ast.Call) and isinstance(e.func, ast.Name)
            and e.func.id[:1] == DEFINE and e.func.id[1:].isdigit() and not e.keywords):
        name = test_of(ec, int(e.func.id[1:]))
        if name is not None:
            return E.call(name, *e.args)
    return None


def _truth(e: ast.expr) -> ast.expr:
    return E.not_(E.not_(e))


def test_of(ec: Any, n: int) -> str | None:
    """The name of the function that tests definition n's value for emptiness, made the
    first time it is asked for; None when its body has no cheaper test."""
    made: dict[int, str | None] = ec.nonempty_tests
    if n in made:
        return made[n]
    template = ec.templates.get(n)
    if template is None:
        return None
    made[n] = None  # a definition that calls itself is tested plainly inside
    found = nonempty(ec, E.copy_tree(template.body))
    if found is None:
        return None
    name = f"{TEST}{n}"
    params = ["st", *(f"a{k}" for k in range(len(template.uses)))]
    ec.define_function(name, params, [E.return_(found)])
    made[n] = name
    return name
