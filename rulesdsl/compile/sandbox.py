"""The sandbox the generated code runs in, and the check it passes before it runs.

Stage: compile. A rule file is untrusted: the compiler never puts its text into code (see
emit.py), and as a second wall the generated module is checked before it is compiled, then
run in a namespace that offers nothing but the runtime helpers and the module's own tables:
- only the kinds of syntax the compiler emits (no import, class, lambda, try, with, global,
  del, yield, await, f-string, starred or keyword arguments);
- only names the compiler makes, by their shape (`V`, `L`, `B3`, `c12`, `Q4`, `_div`...),
  and of those only the module's own, its function's own, and the allowed built-ins;
- no attribute but the fields of the state and a few list methods; nothing with a double
  underscore anywhere;
- constants are numbers, text, true/false and none; the tables it is handed hold nothing
  but those, in lists, tuples and the few records of plain data of `RECORDS`.
`__builtins__` holds a fixed allow-list of harmless functions, so even a name that slipped
through could not reach `open`, `__import__` or `eval`.
"""

from __future__ import annotations

import ast
import builtins
import re
from dataclasses import fields
from typing import Any

from ..boards.territory import Geometry
from .emit import nodes_of

# the records of plain data a table may be, besides lists and tuples: the generated code
# hands them to the helpers and reads none of their fields (no such attribute is allowed)
RECORDS = (Geometry,)

SAFE_BUILTINS: dict[str, Any] = {n: getattr(builtins, n) for n in (
    "len", "list", "range", "sum", "any", "all", "abs", "max", "min", "enumerate", "sorted",
    "reversed", "dict", "set", "tuple", "zip", "isinstance", "int", "bool", "str")}

# the fields of a State and the list methods generated code may use
ALLOWED_ATTRIBUTES = frozenset({
    "v", "b", "z", "w", "stack", "pending", "rng", "result", "auto", "log", "steps", "replay",
    "np", "pl", "rand", "count", "append", "remove", "index", "pop", "insert", "extend",
    "hits", "say", "first", "ending", "at",
})

ALLOWED_NODES = (
    ast.Module, ast.FunctionDef, ast.arguments, ast.arg, ast.Return, ast.Assign,
    ast.AugAssign, ast.For, ast.While, ast.If, ast.Raise, ast.Expr, ast.Pass, ast.Break,
    ast.Continue, ast.BoolOp, ast.BinOp, ast.UnaryOp, ast.IfExp, ast.Compare, ast.Call,
    ast.Constant, ast.Attribute, ast.Subscript, ast.Name, ast.List, ast.Tuple, ast.ListComp,
    ast.GeneratorExp, ast.comprehension, ast.Load, ast.Store, ast.boolop, ast.operator,
    ast.unaryop, ast.cmpop, ast.Slice, ast.NamedExpr,
)

# the shapes of the names the compiler makes: aliases and locals (V, L, B3, Z, st, fr, c12,
# t4, a0, o5), generated functions and tables (K3, Q4, D2, LABEL1, RANK, BLOCKS, TRIGGERS)
# and runtime helpers (_div, _need, ...)
GENERATED_NAME = re.compile(r"^(?:[A-Z]+[0-9]*|[a-z][0-9]*|st|fr|_[a-z][a-z_]*)$")


class UnsafeCode(Exception):
    """The generated module holds something the compiler never emits: a compiler bug, or
    an attempt to reach the host. The rule file is refused."""


def check_module(tree: ast.Module, globals_: set[str]) -> None:
    """Refuse a generated module that does anything but what the compiler emits."""
    allowed = set(globals_) | set(SAFE_BUILTINS)
    for fn in tree.body:
        if isinstance(fn, ast.FunctionDef):
            allowed.add(fn.name)
        elif isinstance(fn, ast.Assign):
            for t in fn.targets:
                if isinstance(t, ast.Name):
                    allowed.add(t.id)
        else:
            raise UnsafeCode(f"a {type(fn).__name__} at the top of the module")
    kinds = _KINDS
    for fn in tree.body:
        nodes = nodes_of([fn])  # every node, as ast.walk gives them, in one pass
        # the function's own names: its parameters and what it assigns
        local = {a.arg for a in fn.args.args} if isinstance(fn, ast.FunctionDef) else set()
        local.update(n.id for n in nodes
                     if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store))
        passed: set[str] = set()  # the names found good in this function: checked once
        for node in nodes:
            kind = kinds.get(node.__class__)
            if kind is None:
                kind = _kind(node.__class__)
            if kind == _NAME:
                ident = node.id  # type: ignore[attr-defined]
                if ident not in passed:
                    _check_name(ident, allowed, local)
                    passed.add(ident)
            elif kind != _OTHER:  # most nodes: nothing more to check
                _check_node(node, kind)


# what each class of node is checked for, found once per class (the module has tens of
# thousands of nodes of a few dozen classes): as `isinstance` would find it for each node
_OTHER, _NAME, _ATTRIBUTE, _CONSTANT, _FUNCTION, _CALL, _REFUSED = range(7)
_KINDS: dict[type, int] = {}


def _kind(cls: type) -> int:
    found = _KINDS.get(cls)
    if found is None:
        if not issubclass(cls, ALLOWED_NODES):
            found = _REFUSED
        else:
            found = next((k for k, c in ((_NAME, ast.Name), (_ATTRIBUTE, ast.Attribute),
                                         (_CONSTANT, ast.Constant), (_FUNCTION, ast.FunctionDef),
                                         (_CALL, ast.Call)) if issubclass(cls, c)), _OTHER)
        _KINDS[cls] = found
    return found


def _check_name(ident: str, module: set[str], local: set[str]) -> None:
    """A name read or written: one of the shapes the compiler makes, and defined in the
    module or by the function."""
    if not (GENERATED_NAME.match(ident) or ident in SAFE_BUILTINS) or "__" in ident:
        raise UnsafeCode(f"the name {ident!r} is not one the compiler makes")
    if ident not in module and ident not in local:
        raise UnsafeCode(f"the name {ident!r} is not defined in the module")


def _check_node(node: ast.AST, kind: int) -> None:
    """A node other than a name, of the kind `_kind` found for its class."""
    if kind == _REFUSED:
        raise UnsafeCode(f"{type(node).__name__} is never generated")
    if kind == _ATTRIBUTE:
        assert isinstance(node, ast.Attribute)
        if node.attr not in ALLOWED_ATTRIBUTES:
            raise UnsafeCode(f"the attribute {node.attr!r} is not allowed")
    elif kind == _CONSTANT:
        assert isinstance(node, ast.Constant)
        if node.value is not None and type(node.value) not in (int, str, bool):
            raise UnsafeCode(f"a constant of type {type(node.value).__name__}")
    elif kind == _FUNCTION:
        assert isinstance(node, ast.FunctionDef)
        if node.decorator_list or node.args.vararg or node.args.kwarg or \
                node.args.kwonlyargs or node.args.defaults:
            raise UnsafeCode("a function with decorators or special arguments")
        if not GENERATED_NAME.match(node.name):
            raise UnsafeCode(f"the function name {node.name!r} is not one the compiler makes")
    elif kind == _CALL:
        assert isinstance(node, ast.Call)
        if node.keywords or any(isinstance(a, ast.Starred) for a in node.args):
            raise UnsafeCode("a call with keywords or starred arguments")


def run_module(tree: ast.Module, filename: str, namespace: dict[str, Any]) -> dict[str, Any]:
    """Check a generated module, then run it in `namespace` (its tables and helpers) with
    only the allowed built-ins; returns the namespace with the module's functions."""
    check(tree, namespace)
    env = dict(namespace)
    env["__builtins__"] = dict(SAFE_BUILTINS)
    code = compile(tree, filename, "exec")
    exec(code, env)  # noqa: S102  (checked above: only what the compiler emits)
    return env


def check(tree: ast.Module, namespace: dict[str, Any]) -> None:
    """Refuse a generated module, or a namespace it would run in, holding anything but what
    the compiler makes (every backend runs this before it compiles anything)."""
    check_module(tree, set(namespace))
    for value in namespace.values():
        _check_table(value)


def _check_table(value: Any) -> None:
    """A table handed to generated code holds plain data or runtime helpers only."""
    if value is None or type(value) in (int, str, bool):
        return
    if isinstance(value, (list, tuple)):
        for v in value:
            _check_table(v)
        return
    if type(value) in RECORDS:  # a record the helpers read, of plain data too
        for f in fields(value):
            _check_table(getattr(value, f.name))
        return
    if callable(value) and getattr(value, "__module__", "").startswith("rulesdsl."):
        return
    raise UnsafeCode(f"a table of type {type(value).__name__}")
