"""Loop variables the compiled path declares C integers: a first step of typed code.

Stage: compile (the compiled backend's, native.py). Built by Cython, the generated code is
code of Python objects: an item of a list by a Python integer is the C API's generic call,
about as fast as Python 3.11's own interpreter makes it. A loop over the cells of a board
(Cleromancy's `keep_of(p)`, the hottest function of its module, goes over the 64 cells of
the field for each player's Keep) reads a list by its loop variable at every turn; with
that variable a C integer (`Py_ssize_t`), Cython reads a list's item directly (such a
loop, `python -m benchmarks.native_loop`: 1.24 to 1.35 times the interpreted speed in
three runs, against 0.95 to 1.02 untyped; docs/performance.md). So the text built declares
such a variable a C integer (`@cython.locals(c14=cython.Py_ssize_t)`) where that can
change nothing but the speed:

- every value the variable takes is an integer of Python's own `int` type that a C
  integer holds: it is only ever the target of `for` loops or of list, set and dict
  comprehensions (which Cython writes into the function itself; a generator is a closure,
  left out), each over a table of the module whose every item is such an integer (the
  cells of a board; a name the function sets once to such a table and reads only there),
  or over the players (`st.pl`);
- it is only read where Cython makes a Python integer of it again, or compares it as
  Python would: an index (`X[c]`), an operand of a comparison, an argument of a call, an
  item of a list or tuple or of what a comprehension makes, a value returned or
  assigned. Never an operand of arithmetic (`c + 1` would be C arithmetic, which can
  overflow where Python's cannot), of `and`, `or` or `if ... else`, a formatted value,
  or read inside a nested function, lambda or generator (a closure).

The plain path never sees any of it: the module the sandbox checked is left as it is,
and the functions of the text built are copies with the declaration added. Which variables
are declared depends on the tables, so it is part of the text whose digest names the
build.
"""

from __future__ import annotations

import ast
import copy
import sys
from typing import Any

# the module's own name for Cython's decorators, which no generated name can be
CYTHON = "cython"
C_INTEGER = sys.maxsize   # what a Py_ssize_t holds, either way (its least is one less)


def declared(module: ast.Module, namespace: dict[str, Any]) -> tuple[list[ast.stmt], bool]:
    """The module's statements, each function whose loop variables can be C integers a
    copy declaring them; and whether any was declared (the text then imports `cython`)."""
    tables = {name for name, value in namespace.items() if _integers(value)}
    body: list[ast.stmt] = []
    any_declared = False
    for stmt in module.body:
        if isinstance(stmt, ast.FunctionDef) and (names := _loop_integers(stmt, tables)):
            fn = copy.copy(stmt)
            fn.decorator_list = [*stmt.decorator_list, _locals(names)]
            body.append(fn)
            any_declared = True
        else:
            body.append(stmt)
    return body, any_declared


def _integers(value: Any) -> bool:
    """A table whose items are all Python integers a C integer holds (not truth values)."""
    if isinstance(value, range):
        return not value or max(abs(value[0]), abs(value[-1])) <= C_INTEGER
    return isinstance(value, (list, tuple)) and bool(value) and all(
        type(x) is int and -C_INTEGER <= x <= C_INTEGER for x in value)


def _locals(names: list[str]) -> ast.expr:
    ssize = ast.Attribute(value=ast.Name(id=CYTHON, ctx=ast.Load()), attr="Py_ssize_t",
                          ctx=ast.Load())
    return ast.Call(func=ast.Attribute(value=ast.Name(id=CYTHON, ctx=ast.Load()),
                                       attr="locals", ctx=ast.Load()),
                    args=[], keywords=[ast.keyword(arg=name, value=ssize) for name in names])


def _loop_integers(fn: ast.FunctionDef, tables: set[str]) -> list[str]:
    """The names of `fn` that can be declared C integers (see the module's text)."""
    parents: dict[int, ast.AST] = {}
    stores: dict[str, list[ast.AST]] = {}
    loads: dict[str, list[ast.Name]] = {}
    nested: set[str] = set()   # names read or set inside a closure
    for node in ast.walk(fn):
        for child in ast.iter_child_nodes(node):
            parents[id(child)] = node
        if node is not fn and isinstance(node, (ast.FunctionDef, ast.Lambda,
                                                ast.GeneratorExp, ast.AsyncFunctionDef)):
            nested |= {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            nested |= set(node.names)
    for node in ast.walk(fn):
        if isinstance(node, ast.Name):
            if isinstance(node.ctx, ast.Load):
                loads.setdefault(node.id, []).append(node)
            else:
                stores.setdefault(node.id, []).append(parents[id(node)])
    params = {a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)}

    def integer_table(it: ast.expr) -> bool:
        if isinstance(it, ast.Attribute):   # the players, in seat order
            return isinstance(it.value, ast.Name) and it.value.id == "st" and it.attr == "pl"
        if not isinstance(it, ast.Name) or it.id in params:
            return False
        if it.id in tables and it.id not in stores:
            return True
        # a name set once, to such a table, and read only as this loop's iterable
        setting = stores.get(it.id, [])
        if len(setting) != 1 or it.id in nested or len(loads.get(it.id, [])) != 1:
            return False
        (assign,) = setting
        return (isinstance(assign, ast.Assign) and len(assign.targets) == 1
                and isinstance(assign.targets[0], ast.Name)
                and isinstance(assign.value, ast.Name | ast.Attribute)
                and integer_table(assign.value))

    chosen = []
    for name, places in stores.items():
        if name in params or name in nested or name == CYTHON:
            continue
        if not all(isinstance(p, ast.For | ast.comprehension)
                   and isinstance(p.target, ast.Name) and p.target.id == name
                   and integer_table(p.iter) for p in places):
            continue
        if all(_read_as_python(node, parents) for node in loads.get(name, [])):
            chosen.append(name)
    return sorted(chosen)


def _read_as_python(node: ast.Name, parents: dict[int, ast.AST]) -> bool:
    """Whether Cython reads a C integer here as Python reads an int: an index, a
    comparison's operand, a call's argument, an item of a list or tuple or of what a
    comprehension makes, a value returned or assigned."""
    up = parents[id(node)]
    if isinstance(up, ast.Subscript):
        return up.slice is node
    if isinstance(up, ast.Compare):
        return True
    if isinstance(up, ast.Call):
        return node in up.args
    if isinstance(up, ast.List | ast.Tuple):
        return isinstance(up.ctx, ast.Load)
    if isinstance(up, ast.ListComp | ast.SetComp):
        return up.elt is node
    if isinstance(up, ast.DictComp):
        return node in (up.key, up.value)
    if isinstance(up, ast.Return | ast.Assign):
        return up.value is node
    return False
