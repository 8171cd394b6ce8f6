"""The emitter: generated code is built as a Python syntax tree, never as text.

Stage: compile. The compiler (compiler.py, expressions.py) builds `ast` nodes through the
small constructors here. Names in the generated module are made by the compiler itself
(`V`, `L`, `B0`, `c3`, `Q2`, ...): no text of a rule file is ever part of an identifier,
and its strings and numbers reach the module only as `ast.Constant` values. Nothing is
parsed from text, so nothing in a rule file can change the structure of the generated
code (tests/test_security.py checks this).

`Function` collects the statements of one generated function; `finish_module` numbers every
statement with a line of its own and keeps, for each line, the rule-file span it came from
(`line_sids`): a failure inside generated code is reported at the rule that caused it.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Iterable
from typing import Any

Expr = ast.expr
Stmt = ast.stmt
Body = list  # a list of ast.stmt: the place statements are emitted to


# ---- expressions ---------------------------------------------------------------------------

def name(ident: str) -> ast.Name:
    return ast.Name(id=ident, ctx=ast.Load())


def store(ident: str) -> ast.Name:
    return ast.Name(id=ident, ctx=ast.Store())


def const(value: Any) -> ast.Constant:
    """A literal: a number, text, true/false or none (never a container)."""
    assert value is None or type(value) in (int, str, bool), value
    return ast.Constant(value=value)


def sub(value: Expr, index: Expr | int) -> ast.Subscript:
    if isinstance(index, int):
        index = const(index)
    return ast.Subscript(value=value, slice=index, ctx=ast.Load())


def sub_store(value: Expr, index: Expr | int) -> ast.Subscript:
    if isinstance(index, int):
        index = const(index)
    return ast.Subscript(value=value, slice=index, ctx=ast.Store())


def attr(value: Expr, field: str) -> ast.Attribute:
    return ast.Attribute(value=value, attr=field, ctx=ast.Load())


def attr_store(value: Expr, field: str) -> ast.Attribute:
    return ast.Attribute(value=value, attr=field, ctx=ast.Store())


def call(func: str | Expr, *args: Expr) -> ast.Call:
    f = name(func) if isinstance(func, str) else func
    return ast.Call(func=f, args=list(args), keywords=[])


def method(obj: Expr, meth: str, *args: Expr) -> ast.Call:
    return ast.Call(func=attr(obj, meth), args=list(args), keywords=[])


BINOPS: dict[str, ast.operator] = {"+": ast.Add(), "-": ast.Sub(), "*": ast.Mult(),
                                   "//": ast.FloorDiv(), "%": ast.Mod()}
CMPOPS: dict[str, ast.cmpop] = {"==": ast.Eq(), "!=": ast.NotEq(), "<": ast.Lt(),
                                "<=": ast.LtE(), ">": ast.Gt(), ">=": ast.GtE(),
                                "in": ast.In(), "not in": ast.NotIn(), "is": ast.Is(),
                                "is not": ast.IsNot()}


def binop(left: Expr, op: str, right: Expr) -> ast.BinOp:
    return ast.BinOp(left=left, op=copy.copy(BINOPS[op]), right=right)


def compare(left: Expr, op: str, right: Expr) -> ast.Compare:
    return ast.Compare(left=left, ops=[copy.copy(CMPOPS[op])], comparators=[right])


def and_(*values: Expr) -> Expr:
    return values[0] if len(values) == 1 else ast.BoolOp(op=ast.And(), values=list(values))


def or_(*values: Expr) -> Expr:
    return values[0] if len(values) == 1 else ast.BoolOp(op=ast.Or(), values=list(values))


def not_(value: Expr) -> ast.UnaryOp:
    return ast.UnaryOp(op=ast.Not(), operand=value)


def neg(value: Expr) -> ast.UnaryOp:
    return ast.UnaryOp(op=ast.USub(), operand=value)


def ifexp(test: Expr, body: Expr, orelse: Expr) -> ast.IfExp:
    return ast.IfExp(test=test, body=body, orelse=orelse)


def list_(items: Iterable[Expr]) -> ast.List:
    return ast.List(elts=list(items), ctx=ast.Load())


def tuple_(items: Iterable[Expr]) -> ast.Tuple:
    return ast.Tuple(elts=list(items), ctx=ast.Load())


def listcomp(value: Expr, var: str, domain: Expr, where: Expr | None = None) -> ast.ListComp:
    gen = ast.comprehension(target=store(var), iter=domain, ifs=[where] if where else [],
                            is_async=0)
    return ast.ListComp(elt=value, generators=[gen])


def is_simple(e: Expr) -> bool:
    """A name, a constant, or a slot of a name by a constant: cheap to evaluate twice."""
    if isinstance(e, (ast.Name, ast.Constant)):
        return True
    if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.USub):
        return isinstance(e.operand, ast.Constant)
    return (isinstance(e, ast.Subscript) and isinstance(e.value, ast.Name)
            and isinstance(e.slice, ast.Constant))


def int_constant(e: Expr) -> int | None:
    """The value of a literal whole number (negative ones too), else None."""
    if isinstance(e, ast.Constant) and type(e.value) is int:
        return e.value
    if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.USub):
        inner = int_constant(e.operand)
        return -inner if inner is not None else None
    return None


# ---- statements ----------------------------------------------------------------------------

def assign(target: Expr, value: Expr) -> ast.Assign:
    return ast.Assign(targets=[target], value=value)


def aug(target: ast.Name | ast.Attribute | ast.Subscript, op: str,
        value: Expr) -> ast.AugAssign:
    return ast.AugAssign(target=target, op=copy.copy(BINOPS[op]), value=value)


def expr_stmt(value: Expr) -> ast.Expr:
    return ast.Expr(value=value)


def if_(test: Expr, body: list | None = None, orelse: list | None = None) -> ast.If:
    return ast.If(test=test, body=body if body is not None else [],
                  orelse=orelse if orelse is not None else [])


def for_(var: Expr, domain: Expr, body: list | None = None) -> ast.For:
    return ast.For(target=var, iter=domain, body=body if body is not None else [], orelse=[])


def while_(test: Expr, body: list | None = None) -> ast.While:
    return ast.While(test=test, body=body if body is not None else [], orelse=[])


def return_(value: Expr | None = None) -> ast.Return:
    return ast.Return(value=value)


def raise_(exc: Expr) -> ast.Raise:
    return ast.Raise(exc=exc, cause=None)


def jump(block: int) -> ast.Return:
    """`return N`: go on with block N. Marked, so that short blocks can be written in place
    of the jumps to them."""
    node = ast.Return(value=const(block))
    node.jump = block  # type: ignore[attr-defined]
    return node


def jump_target(s: Stmt) -> int | None:
    return getattr(s, "jump", None)


# ---- functions and the module --------------------------------------------------------------

def _names(nodes: Iterable[ast.AST], ctx: type) -> set[str]:
    return {n.id for node in nodes for n in ast.walk(node)
            if isinstance(n, ast.Name) and isinstance(n.ctx, ctx)}


def loaded_names(nodes: Iterable[ast.AST]) -> set[str]:
    """Every name the code reads."""
    return _names(nodes, ast.Load)


def bound_names(nodes: Iterable[ast.AST]) -> set[str]:
    """Every name the code binds (assignments, loop variables, comprehension items)."""
    return _names(nodes, ast.Store)


class Function:
    """One generated function: a name, its parameters, and a body of statements. The
    aliases it reads (`V`, `Z`, `B0`, ...) are defined at its top from `st` when it is
    finished, so only what is used is looked up."""

    def __init__(self, fname: str, params: list[str], body: list | None = None):
        self.name = fname
        self.params = params
        self.body: list = body if body is not None else []

    def node(self, prologue: list[Stmt]) -> ast.FunctionDef:
        args = ast.arguments(posonlyargs=[], args=[ast.arg(arg=p) for p in self.params],
                             vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None,
                             defaults=[])
        body = prologue + (self.body or [ast.Pass()])
        return ast.FunctionDef(name=self.name, args=args, body=body, decorator_list=[],
                               returns=None, type_comment=None)


def number_lines(module: ast.Module) -> list[int]:
    """Give each statement a line of its own, in order; returns, per line, the span id of
    the rule it came from (-1 where none): a statement's `sid`, else its parent's."""
    table = [-1]  # line 0 does not exist

    def visit(node: ast.AST, line: int) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.stmt):
                continue
            _place(child, line)

    def _place(node: ast.AST, line: int) -> None:
        for n in ast.walk(node):
            if hasattr(n, "lineno") or isinstance(n, (ast.expr, ast.stmt, ast.arg,
                                                       ast.excepthandler)):
                n.lineno = n.end_lineno = line  # type: ignore[attr-defined]
                n.col_offset = n.end_col_offset = 0  # type: ignore[attr-defined]

    def walk_body(stmts: list, inherited: int) -> None:
        for s in stmts:
            line = len(table)
            sid = getattr(s, "sid", inherited)
            table.append(sid)
            s.lineno = s.end_lineno = line
            s.col_offset = s.end_col_offset = 0
            visit(s, line)
            if isinstance(s, ast.FunctionDef):
                for a in s.args.args:
                    a.lineno = a.end_lineno = line
                    a.col_offset = a.end_col_offset = 0
            for fld in ("body", "orelse"):
                inner = getattr(s, fld, None)
                if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                    walk_body(inner, sid)

    walk_body(module.body, -1)
    return table
