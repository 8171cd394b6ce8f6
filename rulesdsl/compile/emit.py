"""The emitter: generated code is built as a Python syntax tree, never as text.

Stage: compile. The compiler (compiler.py, expressions.py) builds `ast` nodes through the
small constructors here. Names in the generated module are made by the compiler itself
(`V`, `L`, `B0`, `c3`, `Q2`, ...): no text of a rule file is ever part of an identifier,
and its strings and numbers reach the module only as `ast.Constant` values. Nothing is
parsed from text, so nothing in a rule file can change the structure of the generated
code (tests/test_security.py checks this).

`Function` collects the statements of one generated function; `number_lines` numbers every
statement with a line of its own and keeps, for each line, the rule-file span it came from
(`line_sids`): a failure inside generated code is reported at the rule that caused it.

The passes over generated trees use the quick tools here (`nodes_of`, `copy_tree`,
`Transformer`), not `ast.walk`, `copy.deepcopy` and `ast.NodeTransformer`: they give the
same results (but for the contexts and operators, `Load` and `Add`, which `nodes_of`
leaves out and `copy_tree` shares: no pass looks at them), and a rule file's module has
tens of thousands of nodes, walked by several passes each time a rule file is loaded.
"""

from __future__ import annotations

import ast
import copy
import re
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


def is_cheap(e: Expr) -> bool:
    """Simple, or a slot of a name by a simple index, or by a constant plus a simple index
    (`K5[c3]`, `K5[L[2]]`, `V[197 + a0]`): two or three reads, cheaper than a call to
    evaluate twice."""
    if is_simple(e):
        return True
    if not (isinstance(e, ast.Subscript) and isinstance(e.value, ast.Name)):
        return False
    k = e.slice
    if isinstance(k, ast.BinOp) and isinstance(k.op, ast.Add):
        return (isinstance(k.left, ast.Constant) and is_simple(k.right)
                or is_simple(k.left) and isinstance(k.right, ast.Constant))
    return is_simple(k)


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

# the types of fields that hold no node a pass looks for: names and constants (plain
# values), and the contexts and operators (`Load`, `Add`, `Eq`: nodes without fields or
# places, which no pass reads by walking; compile() refuses anything else in such a field)
_LEAF_TYPES = frozenset(("identifier", "string", "constant", "int", "expr_context",
                         "boolop", "operator", "unaryop", "cmpop"))
_FIELD = re.compile(r"(\w+)[?*]? (\w+)")
_CHILDREN: dict[type, tuple[str, ...]] = {}


def child_fields(cls: type) -> tuple[str, ...]:
    """The fields of a class of node that may hold nodes a pass walks to: every field but
    those of the types in _LEAF_TYPES, read from the class's signature in its docstring
    (`Name(identifier id, expr_context ctx)`), as Python's grammar of syntax trees types
    them; every field when the signature cannot be read."""
    found = _CHILDREN.get(cls)
    if found is None:
        fields: tuple[str, ...] = getattr(cls, "_fields", ())
        doc = (cls.__doc__ or "").split("\n")[0]
        head, _, rest = doc.partition("(")
        typed = dict((f, t) for t, f in _FIELD.findall(rest))
        if head == cls.__name__ and set(typed) == set(fields):
            fields = tuple(f for f in fields if typed[f] not in _LEAF_TYPES)
        found = _CHILDREN[cls] = fields
    return found


def nodes_of(roots: Iterable[ast.AST]) -> list[ast.AST]:
    """Every node of the trees `roots` but contexts and operators (see `child_fields`),
    breadth first (as `ast.walk` gives them, root by root): one list built in one pass,
    quicker than `ast.walk`, for the passes that look at every node of the generated
    module (the sandbox's among them)."""
    out = list(roots)
    add = out.append
    children = _CHILDREN
    for node in out:  # the list grows as it is read
        cls = node.__class__
        fields = children.get(cls) or child_fields(cls)
        for f in fields:
            v = getattr(node, f, None)
            if isinstance(v, ast.AST):
                add(v)
            elif isinstance(v, list):
                for x in v:
                    if isinstance(x, ast.AST):
                        add(x)
    return out


def statements(body: list) -> int:
    """How many statements a body holds, those inside the bodies of its statements too
    (generated code nests statements only in `body` and `orelse`)."""
    n = 0
    for s in body:
        n += 1
        for fld in ("body", "orelse"):
            inner = getattr(s, fld, None)
            if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                n += statements(inner)
    return n


def jumps(body: list) -> list[int]:
    """The blocks the jumps of a body go to (jumps are statements: only the bodies of
    statements are looked into, as in `statements`)."""
    found = []
    for s in body:
        target = getattr(s, "jump", None)
        if target is not None:
            found.append(target)
            continue
        for fld in ("body", "orelse"):
            inner = getattr(s, fld, None)
            if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                found += jumps(inner)
    return found


_ATOMS = (str, int, bool, type(None))


def copy_tree(node: Any, memo: dict[int, Any] | None = None) -> Any:
    """A deep copy of a generated tree (a node or a list of nodes) with every attribute
    (fields, positions, marks such as `jump` and `sid`), a node met twice copied once:
    what `copy.deepcopy` gives, at a fraction of its cost, as the generated trees hold only
    nodes, lists and plain values. Contexts and operators (`Load`, `Add`: no fields, no
    place) are shared with the original, as Python's own parser shares them."""
    if memo is None:
        memo = {}
    new = memo.get(id(node))
    if new is not None:
        return new
    if isinstance(node, list):
        new = memo[id(node)] = []
        new.extend(x if isinstance(x, _ATOMS) else copy_tree(x, memo) for x in node)
    elif isinstance(node, ast.AST):
        cls = node.__class__
        if not cls._fields and not cls._attributes:
            return node
        new = memo[id(node)] = cls.__new__(cls)
        d = new.__dict__
        for k, v in node.__dict__.items():
            d[k] = v if isinstance(v, _ATOMS) else copy_tree(v, memo)
    else:
        new = node if isinstance(node, _ATOMS) else copy.deepcopy(node, memo)
    return new


def replaced(node: ast.AST, **fields: Any) -> ast.AST:
    """A new node like `node` (its fields, positions and marks) with these fields."""
    new = node.__class__.__new__(node.__class__)
    new.__dict__.update(node.__dict__, **fields)
    return new


def names(nodes: Iterable[ast.AST]) -> tuple[set[str], set[str]]:
    """Every name the code reads, and every name it binds (assignments, loop variables,
    comprehension items), in one pass."""
    read: set[str] = set()
    bound: set[str] = set()
    for n in nodes_of(nodes):
        if isinstance(n, ast.Name):
            if isinstance(n.ctx, ast.Load):
                read.add(n.id)
            elif isinstance(n.ctx, ast.Store):
                bound.add(n.id)
    return read, bound


def loaded_names(nodes: Iterable[ast.AST]) -> set[str]:
    """Every name the code reads."""
    return names(nodes)[0]


def bound_names(nodes: Iterable[ast.AST]) -> set[str]:
    """Every name the code binds (assignments, loop variables, comprehension items)."""
    return names(nodes)[1]


class Transformer(ast.NodeTransformer):
    """`ast.NodeTransformer`, with the same results at about half its cost (the passes over
    generated code run on tens of thousands of nodes): the method for a class of node is
    looked up once per class, and a node's children are read by its fields directly."""

    _methods: dict[type, str] = {}

    def visit(self, node: ast.AST) -> Any:
        cls = node.__class__
        method = self._methods.get(cls)
        if method is None:
            method = self._methods[cls] = "visit_" + cls.__name__
        visitor = getattr(self, method, None)
        return self.generic_visit(node) if visitor is None else visitor(node)

    def visit_Constant(self, node: ast.Constant) -> Any:
        return node  # no children (ast.NodeVisitor's own looks for visit_Num and the like)

    def generic_visit(self, node: ast.AST) -> ast.AST:
        for field in node._fields:
            old = getattr(node, field, None)
            if isinstance(old, list):
                new: list = []
                for value in old:
                    if isinstance(value, ast.AST):
                        value = self.visit(value)
                        if value is None:
                            continue
                        if not isinstance(value, ast.AST):
                            new.extend(value)
                            continue
                    new.append(value)
                old[:] = new
            elif isinstance(old, ast.AST):
                replacement = self.visit(old)
                if replacement is None:
                    delattr(node, field)
                else:
                    setattr(node, field, replacement)
        return node


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


_PLACED = (ast.expr, ast.stmt, ast.arg, ast.excepthandler)


class Rename(Transformer):
    """Reads of one name made reads of another (the generated names are never reused)."""

    def __init__(self, old: str, new: str):
        self.old, self.new = old, new

    def visit_Name(self, node: ast.Name) -> ast.AST:
        return name(self.new) if node.id == self.old and isinstance(node.ctx, ast.Load) \
            else node


def plain_filter(e: Expr) -> tuple[Expr, str, list[Expr]] | None:
    """(items, name, tests) of a plain filter `[y for y in items if t1 if t2]`, else None."""
    if not (isinstance(e, ast.ListComp) and len(e.generators) == 1):
        return None
    gen = e.generators[0]
    if not (isinstance(gen.target, ast.Name) and isinstance(e.elt, ast.Name)
            and e.elt.id == gen.target.id):
        return None
    return gen.iter, gen.target.id, gen.ifs


def number_lines(module: ast.Module) -> list[int]:
    """Give each statement a line of its own, in order; returns, per line, the span id of
    the rule it came from (-1 where none): a statement's `sid`, else its parent's."""
    table = [-1]  # line 0 does not exist

    def place(node: ast.AST, line: int) -> None:
        """A statement and its own nodes on its line (not the statements of its body,
        which have lines of their own)."""
        todo = [node]
        add = todo.append
        children = _CHILDREN
        for n in todo:  # the list grows as it is read
            if isinstance(n, _PLACED) or hasattr(n, "lineno"):
                n.lineno = n.end_lineno = line  # type: ignore[attr-defined]
                n.col_offset = n.end_col_offset = 0  # type: ignore[attr-defined]
            cls = n.__class__
            for f in children.get(cls) or child_fields(cls):
                v = getattr(n, f, None)
                if isinstance(v, ast.AST):
                    if n is not node or not isinstance(v, ast.stmt):
                        add(v)
                elif isinstance(v, list):
                    for x in v:
                        if isinstance(x, ast.AST) and (n is not node or
                                                       not isinstance(x, ast.stmt)):
                            add(x)

    def walk_body(stmts: list, inherited: int) -> None:
        for s in stmts:
            line = len(table)
            sid = getattr(s, "sid", inherited)
            table.append(sid)
            place(s, line)
            for fld in ("body", "orelse"):
                inner = getattr(s, fld, None)
                if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                    walk_body(inner, sid)

    walk_body(module.body, -1)
    return table
