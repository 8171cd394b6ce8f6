"""Compile expressions of the rules language into Python expressions (syntax trees).

Stage: compile. An expression becomes a Python expression over the state's lists: `V` the
counters, `L` the frame's locals, `B0`, `B1`, ... the cells of each board, `Z` the zones,
and the names of comprehension items (`c3`) and of a definition's parameters (`a0`).
Values known before the game become tables of the module (`K3`). Quantifiers and sums
become small generated loop functions (`Q2`): a plain loop is faster than a generator and
stops at the first item that decides. A short definition is written in place of its call by
substituting its arguments into its compiled tree (never into text). `Compiler`
(compiler.py) builds on this class for the statements.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Any

from .. import ast as A
from ..check.analysis import Analysis, DefineInstance, Proc
from ..check.bindings import (
    BoardRef,
    BuiltinRef,
    CounterRef,
    DefineRef,
    DiceOfRef,
    DiceRef,
    FaceRef,
    FieldRef,
    PieceRef,
    Ref,
    ValueRef,
    Var,
    VarRef,
    ZoneRef,
)
from ..check.types import element
from ..diagnostics import Span
from ..limits import MAX_ITEMS
from ..program.layout import Layout
from ..program.runtime import MAX_NUMBER, WORK_BUDGET
from . import emit as E
from .bounds import bounds
from .builtins import GENERATE
from .fold import add_constant
from .options import DEFAULT, Options
from .sizes import Sizes
from .truth import nonempty

CHEAP_USES = 3     # a cheap argument (emit.is_cheap) read this often is written in place
INLINE_NODES = 60  # definitions whose compiled tree is this small are written in place
DISTANCE_TABLE = 256  # distances on a board of at most this many cells are a table
ALIASES = ("V", "L", "Z")  # besides B0, B1, ...: the state's lists, looked up once a call


@dataclass
class Template:
    """A definition's instance compiled once: its body as a tree over parameters a0, a1..."""

    function: str
    body: ast.expr
    size: int
    uses: list[int]   # how often each parameter is read
    grows: bool       # whole numbers computed by arithmetic: the result is checked


class ExpressionCompiler(Sizes):
    """Expressions to Python syntax trees; the tables of constants, spans, loop functions
    and definitions."""

    a: Analysis
    layout: Layout
    proc: Proc | None

    def __init__(self, analysis: Analysis, layout: Layout, options: Options = DEFAULT):
        self.a = analysis
        self.layout = layout
        self.options = options
        self.consts: dict[str, Any] = {}
        self.const_ids: dict[str, str] = {}
        self.spans: list[Span] = []
        self.proc_of_span: list[str] = []
        self.sid_cache: dict[tuple[Span, str], int] = {}
        self.functions: list[E.Function] = []   # loop functions, definitions, labels...
        self.var_names: dict[Var, str] = {}
        self.frame_slots: dict[Var, int] = {}
        self.templates: dict[int, Template] = {}
        self.nonempty_tests: dict[int, str | None] = {}  # see truth.py
        self.distance_tables: dict[str, str] = {}  # board -> the table of its distances
        self.instance_cost: dict[int, int] = {}
        # id(parameter) -> (definition instance, its place); what argument_size found
        self.param_of = {id(p): (inst.number, k) for inst in analysis.define_instances
                         for k, p in enumerate(inst.params)}
        self.argument_sizes: dict[tuple[int, int], int | None] = {}
        self.tmp = 0
        self.proc = None

    # ---- tables ----------------------------------------------------------------------------

    def const(self, value: Any) -> ast.expr:
        """A value known before the game: a literal, or a table of the module for a list
        (shared, never changed)."""
        if value is None or type(value) in (int, str, bool):
            return E.const(value)
        key = repr(value)
        if key not in self.const_ids:
            ident = f"K{len(self.const_ids)}"
            self.const_ids[key] = ident
            self.consts[ident] = value
        return E.name(self.const_ids[key])

    def sid(self, span: Span) -> int:
        """The number of a place in the rules, for errors raised at run time."""
        proc = self.proc.name if self.proc else ""
        key = (span, proc)
        if key not in self.sid_cache:
            self.sid_cache[key] = len(self.spans)
            self.spans.append(span)
            self.proc_of_span.append(proc)
        return self.sid_cache[key]

    def fresh(self, stem: str = "t") -> str:
        self.tmp += 1
        return f"{stem}{self.tmp}"

    def var(self, v: Var) -> ast.expr:
        """Where a variable is read: a slot of the frame, or a name inside one evaluation."""
        if v.frame:
            return E.sub(E.name("L"), self.frame_slots[v])
        if v not in self.var_names:
            self.var_names[v] = self.fresh("c")
        return E.name(self.var_names[v])

    def var_name(self, v: Var) -> str:
        """The Python name of a variable that lives inside one evaluation."""
        assert not v.frame
        if v not in self.var_names:
            self.var_names[v] = self.fresh("c")
        return self.var_names[v]

    def ref(self, node: A.Node) -> Ref:
        return self.a.binding[id(node)]

    # ---- small shapes ----------------------------------------------------------------------

    def need(self, e: ast.expr, span: Span, what: str) -> ast.expr:
        """`e`, with a clear error when it is none (literals and slots are tested in place);
        `current` as it is where it is always set."""
        if E.int_constant(e) is not None:
            return e
        if self.current_is_set() and isinstance(e, ast.Subscript) and isinstance(
                e.value, ast.Name) and e.value.id == "V" and E.int_constant(e.slice) == 0:
            return e
        sid = E.const(self.sid(span))
        if E.is_simple(e):
            return E.ifexp(E.compare(e, "is not", E.const(None)), E.copy_tree(e),
                           E.call("_need", E.const(None), sid, E.const(what)))
        return E.call("_need", e, sid, E.const(what))

    def current_is_set(self) -> bool:
        """Whether the code being compiled runs only while `current` is a player (the
        compiler knows: inside the turns of a block of rules)."""
        return False

    def zone_number(self, e: A.Expr) -> ast.expr:
        """The number of the zone an expression names (a zone of one player: base + p)."""
        ref = self.ref(e)
        assert isinstance(ref, ZoneRef)
        base = self.layout.zone[ref.name]
        if isinstance(e, A.Of):
            owner = self.need(self.expr(e.obj), e.obj.span, "the owner")
            k = E.int_constant(owner)
            return E.const(base + k) if k is not None else E.binop(E.const(base), "+", owner)
        return E.const(base)

    def zone_list(self, e: A.Expr) -> ast.expr:
        """The zone's own list (read, never changed, by the caller)."""
        return E.sub(E.name("Z"), self.zone_number(e))

    def zones_of_kind(self, e: A.Expr) -> list[int]:
        """The numbers of every zone that holds components of the kind zone e holds: where
        `move x to Z` looks for x (components of different kinds share numbers)."""
        ref = self.ref(e)
        assert isinstance(ref, ZoneRef)
        kind = self.a.zones[ref.name].kind
        return [n for n, k in enumerate(self.layout.zone_kind) if k == kind]

    def board_cells(self, board: str) -> ast.Name:
        return E.name(f"B{self.layout.board[board]}")

    def number_key(self, code: ast.expr, dim: tuple[str, str, int, int], counter: str,
                   span: Span) -> ast.expr:
        """A number that keys a counter kept per number of a range, as the place among its
        keys (from 0): checked against the range unless known before the game."""
        _, _, size, low = dim
        k = E.int_constant(code)
        if k is not None and low <= k < low + size:
            return E.const(k - low)
        return E.call("_number_key", code, E.const(low), E.const(size), E.const(counter),
                      E.const(self.sid(span)))

    def slot_index(self, base: int, key: ast.expr, stride: int = 1) -> ast.expr:
        k = E.int_constant(key)
        if k is not None:
            return E.const(base + k * stride)
        term = key if stride == 1 else E.binop(key, "*", E.const(stride))
        return E.binop(E.const(base), "+", term) if base else term

    def of_code(self, ref: Ref, attr: str, obj: A.Expr) -> ast.expr:
        if isinstance(ref, FieldRef):
            column = self.const(self.a.field_column(ref.kind, ref.field))
            return E.sub(column, self.expr(obj))
        if isinstance(ref, FaceRef):
            return E.sub(E.name("V"), self.slot_index(self.layout.dice[ref.dice],
                                                        self.expr(obj)))
        if isinstance(ref, PieceRef):
            return E.sub(self.board_cells(ref.board), self.expr(obj))
        if isinstance(ref, DiceOfRef):  # p's dice: the per_seat numbers from p's first
            n = self.a.dice[ref.name].per_seat
            first = E.binop(self.need(self.expr(obj), obj.span, "the player"), "*", E.const(n))
            return E.call("list", E.call("range", first, E.binop(E.copy_tree(first), "+",
                                                                 E.const(n))))
        assert isinstance(ref, CounterRef)
        info = self.a.counters[attr]
        keys = obj.items if isinstance(obj, A.TupleLit) else [obj]
        index: ast.expr = E.const(self.layout.counter[attr])
        stride = info.size
        for key, dim in zip(keys, info.dims):
            stride //= dim[2]
            code = self.expr(key)
            if dim[0] == "player":
                code = self.need(code, key.span, "the player")
            elif dim[0] == "number":
                code = self.number_key(code, dim, attr, key.span)
            base = E.int_constant(index)
            if base is not None:
                index = self.slot_index(base, code, stride)
            else:
                k = E.int_constant(code)
                term = E.const(k * stride) if k is not None else (
                    code if stride == 1 else E.binop(code, "*", E.const(stride)))
                index = E.binop(index, "+", term)
        return E.sub(E.name("V"), index)

    # ---- expressions -----------------------------------------------------------------------

    def read(self, e: A.Expr) -> ast.expr:
        """An expression whose value is only read (iterated, measured, searched): a zone
        gives its own list, not a copy."""
        ref = self.a.binding.get(id(e))
        if isinstance(ref, ZoneRef):
            return self.zone_list(e)
        return self.expr(e)

    def domain(self, e: A.Expr) -> ast.expr:
        """What a loop or a choice goes through: a range is not built as a list."""
        if isinstance(e, A.Binary) and e.op == "..":
            return E.call("range", self.expr(e.left), E.binop(self.expr(e.right), "+",
                                                              E.const(1)))
        return self.read(e)

    def expr(self, e: Any) -> ast.expr:
        a = self.a
        if isinstance(e, (A.IntLit, A.BoolLit)):
            return E.const(e.value)
        if isinstance(e, A.NoneLit):
            return E.const(None)
        if isinstance(e, A.StrLit):
            return self.text(e)
        if isinstance(e, A.PlayerLit):
            return E.const(e.number - 1)
        if isinstance(e, A.Name):
            return self.name(e)
        if isinstance(e, (A.ListLit, A.TupleLit)):
            return E.list_(self.expr(i) for i in e.items)
        if isinstance(e, A.Of):
            ref = self.ref(e)
            if isinstance(ref, ZoneRef):
                return E.call("list", self.zone_list(e))
            return self.of_code(ref, e.attr, e.obj)
        if isinstance(e, A.Index):
            xs, i = self.read(e.obj), self.expr(e.index)
            sid = E.const(self.sid(e.span))
            shortest = self.shortest(e.obj)
            places = bounds(self.a, e.index, self.options)  # see bounds.py
            if shortest is not None and places is not None \
                    and 1 <= places[0] and places[1] <= shortest:
                return E.sub(xs, add_constant(i, -1))  # in every list it can be
            k = E.int_constant(i)
            if k is not None and k >= 1 and E.is_simple(xs):
                return E.ifexp(E.compare(E.call("len", xs), ">=", i),
                               E.sub(E.copy_tree(xs), k - 1),
                               E.call("_idx", E.copy_tree(xs), E.copy_tree(i), sid))
            table = self.consts.get(xs.id) if isinstance(xs, ast.Name) else None
            if isinstance(table, list) and places is not None and \
                    1 <= places[0] and places[1] <= len(table):
                return E.sub(xs, add_constant(i, -1))
            return E.call("_idx", xs, i, sid)
        if isinstance(e, A.Unary):
            operand = self.expr(e.operand)
            return E.not_(operand) if e.op == "not" else E.neg(operand)
        if isinstance(e, A.Binary):
            return self.binary(e)
        if isinstance(e, A.IsEmpty):
            return self.is_empty(e)
        if isinstance(e, A.Cond):
            return E.ifexp(self.expr(e.test), self.expr(e.then), self.expr(e.otherwise))
        if isinstance(e, A.Quantifier):
            return self.quantifier(e)
        if isinstance(e, A.Aggregate):
            if e.kind == "sum":
                return self.loop_function(e, "sum")
            var = self.var_name(a.candidate[id(e)])
            where = self.expr(e.where) if e.where is not None else None
            items = E.listcomp(self.expr(e.expr), var, self.work(
                e, self.domain(e.domain), self.weight(e.expr, e.where)), where)
            return E.call("_extreme", items, E.const(self.sid(e.span)), E.const(e.kind))
        if isinstance(e, A.ListComp):
            var = self.var_name(a.candidate[id(e)])
            where = self.expr(e.where) if e.where is not None else None
            return E.listcomp(self.expr(e.expr), var, self.work(
                e, self.domain(e.domain), self.weight(e.expr, e.where)), where)
        if isinstance(e, A.Call):
            return self.call(e)
        if isinstance(e, A.Sort):
            var = self.var_name(a.candidate[id(e)])
            where = self.expr(e.where) if e.where is not None else None
            pairs = E.listcomp(E.tuple_([self.expr(e.key), E.name(var)]), var, self.work(
                e, self.domain(e.domain), self.weight(e.key, e.where)), where)
            return E.call("_sort", pairs, E.const(self.sid(e.span)))
        raise AssertionError(type(e))  # pragma: no cover

    def work(self, node: Any, domain: ast.expr, weight: int = 1) -> ast.expr:
        """A comprehension's domain, counted against the work budget (items times the work
        of one item) before it is gone through: a huge range stops with a clear error, not a
        hang. A small domain known before the game is not counted one by one."""
        if self.small(node.domain) is not None:
            return domain
        return E.call("_w", E.name("st"), domain, E.const(weight),
                      E.const(self.sid(node.span)))

    def text(self, e: A.StrLit) -> ast.expr:
        parts: list[ast.expr] = []
        for p in e.parts:
            if isinstance(p, str):
                parts.append(E.const(p))
            else:
                parts.append(E.call("_show", self.expr(p), self.const(self.a.type_of(p))))
        out = parts[0]
        for part in parts[1:]:
            out = E.binop(out, "+", part)
        return out

    def name(self, e: A.Name) -> ast.expr:
        ref = self.ref(e)
        if isinstance(ref, VarRef):
            return self.var(ref.var)
        if isinstance(ref, ValueRef):
            return self.const(ref.value)
        if isinstance(ref, CounterRef):
            return E.sub(E.name("V"), self.layout.counter[e.name])
        if isinstance(ref, ZoneRef):
            return E.call("list", self.zone_list(e))
        if isinstance(ref, BoardRef):
            return self.const(list(range(self.a.boards[e.name].size)))
        if isinstance(ref, DiceRef):
            return self.const(list(range(self.a.dice[e.name].count)))
        if isinstance(ref, BuiltinRef):
            st = E.name("st")
            if ref.name == "current":
                return E.sub(E.name("V"), 0)
            if ref.name == "players":
                return E.attr(st, "pl")
            if ref.name == "player_count":
                return E.attr(st, "np")
            if ref.name == "winner":
                return E.call("_winner", st)
            if ref.name == "winners":
                return E.call("_winners", st)
            if ref.name == "game_over":
                return E.compare(E.attr(st, "result"), "is not", E.const(None))
        raise AssertionError(ref)  # pragma: no cover

    def binary(self, e: A.Binary) -> ast.expr:
        op = e.op
        if op in ("in", "not in"):
            return self.membership(e, op)
        if op in ("<", "<=", ">", ">=", "==", "!="):
            counted = self.compare_count(e)
            if counted is not None:
                return counted
        left, right = self.expr(e.left), self.expr(e.right)
        if op in ("/", "%"):
            k = E.int_constant(right)
            if k:  # a constant divisor: never zero, no check
                return E.binop(left, "//" if op == "/" else "%", right)
            helper = "_div" if op == "/" else "_mod"
            return E.call(helper, left, right, E.const(self.sid(e.span)))
        if op == "..":
            return E.call("_range", left, right, E.const(self.sid(e.span)))
        if op == "and":
            return E.and_(left, right)
        if op == "or":
            return E.or_(left, right)
        if op == "+" and element(self.a.type_of(e)) is not None:
            return E.call("_concat", left, right, E.const(self.sid(e.span)))
        if op in E.BINOPS:
            return E.binop(left, op, right)
        return E.compare(left, op, right)

    def compare_count(self, e: A.Binary) -> ast.expr | None:
        """`count(x in xs where c)`, or the length of a filter `[x for x in xs where c]`,
        compared with a number k known before the game: only whether the count is below,
        at or above k matters, so the loop stops once it has found k + 1 items (the
        comparison gives the same answer for min(count, k + 1) as for the count). None
        when e is no such comparison."""
        for count, other in ((e.left, e.right), (e.right, e.left)):
            counted = self.counted(count)
            if counted is None:
                continue
            value = self.expr(other)
            k = E.int_constant(value)
            if k is not None and 0 <= k < MAX_ITEMS:
                code = self.loop_function(counted, "count", counted, cap=k + 1)
            else:  # compared with something else: counted whole
                code = self.expr(count)
            return (E.compare(code, e.op, value) if count is e.left
                    else E.compare(value, e.op, code))
        return None

    def counted(self, e: Any) -> Any:
        """The count or filter `compare_count` may stop early, or None."""
        if isinstance(e, A.Call) and e.func == "length" and len(e.args) == 1 and \
                isinstance(self.a.binding.get(id(e)), BuiltinRef):
            inner = e.args[0]
            if isinstance(inner, A.ListComp):  # only the items themselves: nothing to skip
                item = self.a.binding.get(id(inner.expr))
                if not (isinstance(item, VarRef) and item.var is self.a.candidate.get(id(inner))):
                    return None
            elif not (isinstance(inner, A.Quantifier) and inner.kind == "filter"):
                return None
            e = inner
        elif not (isinstance(e, A.Quantifier) and e.kind == "count"):
            return None
        if e.where is None or self.empty_cells_test(e) is not None:
            return None
        return e

    def membership(self, e: A.Binary, op: str) -> ast.expr:
        """`x in Z` for a zone Z asks the state's index where component x is (`State.at`:
        one look, however big the zone), when x is a plain name or constant of Z's kind
        (a component, or none: then it is in no zone); anything else is looked for in
        the list."""
        left = self.expr(e.left)
        ref = self.a.binding.get(id(e.right))
        if isinstance(ref, ZoneRef) and E.is_simple(left):
            kind = self.a.zones[ref.name].kind
            if self.a.type_of(e.left) == ("comp", kind):
                at = E.sub(E.attr(E.name("st"), "at"), self.layout.kinds.index(kind))
                held = E.compare(E.sub(at, left), "==", self.zone_number(e.right))
                test = E.and_(E.compare(E.copy_tree(left), "is not", E.const(None)), held)
                return test if op == "in" else E.not_(test)
        return E.compare(left, op, self.read(e.right))

    def is_empty(self, e: A.IsEmpty) -> ast.expr:
        t = self.a.type_of(e.operand)
        if isinstance(t, tuple) and t[0] == "cell":
            assert isinstance(e.operand, A.Node)
            cells = self.board_cells(t[1])
            return E.compare(E.sub(cells, self.expr(e.operand)),
                             "is not" if e.negated else "is", E.const(None))
        inner = e.operand
        # `filter(x in xs where c) is empty`: no list is built, the search stops at a hit
        if isinstance(inner, A.Quantifier) and inner.kind == "filter":
            found = self.quantifier(inner.model_copy(update={"kind": "any"}), inner)
            return found if e.negated else E.not_(found)
        value = self.read(inner)
        hit = nonempty(self, value)  # a list built only to be tested: stop at a hit
        if hit is not None:
            return hit if e.negated else E.not_(hit)
        test = E.not_(value)
        return E.not_(test) if e.negated else test

    # ---- quantifiers and loop functions ----------------------------------------------------

    def empty_cells_test(self, e: Any) -> tuple[str, bool] | None:
        """(board, empty?) when e ranges over a whole board testing only whether each cell
        is empty: such a quantifier is a scan of the board's list, done in C."""
        dt = self.a.type_of(e.domain)
        w = e.where
        if (isinstance(dt, tuple) and dt[0] == "board" and isinstance(w, A.IsEmpty)
                and isinstance(w.operand, A.Name) and w.operand.name == e.var):
            return dt[1], not w.negated
        return None

    def quantifier(self, e: A.Quantifier, original: A.Quantifier | None = None) -> ast.expr:
        """count, any, all, first, filter. `original` is the node the checker saw, when e is
        a rewritten copy of it (its bindings and types are the original's)."""
        node = original or e
        scan = self.empty_cells_test(node)
        if scan is not None and e.kind in ("any", "all", "count"):
            board, empty = scan
            cells = self.board_cells(board)
            nones = E.method(cells, "count", E.const(None))
            size = E.call("len", E.copy_tree(cells))
            if e.kind == "count":
                return nones if empty else E.binop(size, "-", nones)
            if e.kind == "any":
                return (E.compare(E.const(None), "in", E.copy_tree(cells)) if empty
                        else E.compare(nones, "<", size))
            return (E.compare(nones, "==", size) if empty
                    else E.compare(E.const(None), "not in", E.copy_tree(cells)))
        var = self.var_name(self.a.candidate[id(node)])
        if e.kind == "count" and e.where is None:
            return E.call("len", self.domain(e.domain))
        if e.kind == "filter":
            where = self.expr(e.where) if e.where is not None else None
            return E.listcomp(E.name(var), var, self.work(
                node, self.domain(e.domain), self.weight(e.where)), where)
        return self.loop_function(e, e.kind, node)

    def loop_function(self, e: Any, kind: str, node: Any = None,
                      cap: int | None = None) -> ast.expr:
        """A quantifier or sum as a small generated function with a plain loop: faster than
        a generator expression, and it stops at the first item that decides. Its
        parameters are exactly the names it reads from outside."""
        node = node or e
        var = self.var_name(self.a.candidate[id(node)])
        domain = self.domain(e.domain)
        fname = f"Q{len(self.functions)}"
        self.functions.append(E.Function(fname, []))  # reserved: inner loops come after
        nested = (kind in ("any", "all") and isinstance(e.where, A.Quantifier)
                  and e.where.kind in ("any", "all") and e.where.where is not None)
        body: list[ast.stmt] = []
        d = self.fresh("d")
        counted = self.small(e.domain) is None
        weight = self.weight(e.where, e.expr if kind == "sum" else None) if counted else 0
        # over a plain filter, a loop over its items that skips those it leaves out: the
        # test stops at the first item that decides without filtering the rest first, and
        # counts the work of each item it reaches (as many in all when it reaches the end)
        parts = None if nested else E.plain_filter(domain)
        if parts is None:
            body.append(E.assign(E.store(d), domain))
            if counted:
                body += self.count_work(E.call("len", E.name(d)), node.span, weight)
        if nested:
            body += self.nested_loops(e, var, d)
        else:
            where = self.expr(e.where) if e.where is not None else None
            value = self.expr(e.expr) if kind == "sum" else None
            loop = E.for_(E.store(var), E.name(d))
            if kind in ("count", "sum"):
                body.insert(0, E.assign(E.store("n"), E.const(0)))
                step: list[ast.stmt] = [
                    E.aug(E.store("n"), "+", value if value is not None else E.const(1))]
                if cap is not None:  # a count compared with a number: see `compare_count`
                    step.append(E.if_(E.compare(E.name("n"), ">=", E.const(cap)),
                                      [E.return_(E.name("n"))]))
                loop.body += [E.if_(where, step)] if where is not None else step
                body += [loop, E.return_(E.name("n"))]
            else:
                test = where if where is not None else E.const(True)
                if kind == "any":
                    loop.body.append(E.if_(test, [E.return_(E.const(True))]))
                    done = E.const(False)
                elif kind == "all":
                    loop.body.append(E.if_(E.not_(test), [E.return_(E.const(False))]))
                    done = E.const(True)
                else:  # first
                    loop.body.append(E.if_(test, [E.return_(E.name(var))]))
                    done = E.const(None)
                body += [loop, E.return_(done)]
            if parts is not None:
                self.over_filter(loop, parts, self.count_work(E.const(1), node.span, weight)
                                 if counted else [])
        return self.finish_function(fname, body)

    def over_filter(self, loop: ast.For, parts: tuple[ast.expr, str, list[ast.expr]],
                    count: list[ast.stmt]) -> None:
        """Make `loop` (its steps written) go over the items of a plain filter (`parts`,
        from `E.plain_filter`) and skip those the filter leaves out, counting the work of
        each it keeps with `count`: a test that stops at its first decisive item then
        filters no further, and builds no list."""
        items, inner, tests = parts
        assert isinstance(loop.target, ast.Name)
        rename = E.Rename(inner, loop.target.id)
        loop.iter = items
        step = [*count, *loop.body]
        loop.body = [E.if_(E.and_(*(rename.visit(t) for t in tests)), step)] if tests \
            else step

    def nested_loops(self, e: A.Quantifier, var: str, d: str) -> list[ast.stmt]:
        """`any`/`all` whose condition is itself `any`/`all`: two plain nested loops."""
        inner = e.where
        assert isinstance(inner, A.Quantifier) and inner.where is not None
        ivar = self.var_name(self.a.candidate[id(inner)])
        idomain = self.domain(inner.domain)
        test = self.expr(inner.where)
        outer_any, inner_any = e.kind == "any", inner.kind == "any"
        di = self.fresh("d")
        inner_loop = E.for_(E.store(ivar), E.name(di))
        count = [] if self.small(inner.domain) is not None else self.count_work(
            E.call("len", E.name(di)), inner.span, self.weight(inner.where))
        outer = E.for_(E.store(var), E.name(d),
                       [E.assign(E.store(di), idomain), *count, inner_loop])
        if outer_any == inner_any:
            hit = test if outer_any else E.not_(test)
            inner_loop.body.append(E.if_(hit, [E.return_(E.const(outer_any))]))
            return [outer, E.return_(E.const(not outer_any))]
        stop = test if inner_any else E.not_(test)
        inner_loop.body.append(E.if_(stop, [ast.Break()]))
        inner_loop.orelse = [E.return_(E.const(outer_any))]
        return [outer, E.return_(E.const(not outer_any))]

    def count_work(self, amount: ast.expr, span: Span, weight: int = 1) -> list[ast.stmt]:
        """Count `amount` times `weight` against the budget of work between two decisions."""
        steps = E.attr(E.name("st"), "steps")
        if weight != 1:
            amount = E.binop(amount, "*", E.const(weight))
        return [E.aug(E.attr_store(E.name("st"), "steps"), "+", amount),
                E.if_(E.compare(steps, ">", E.const(WORK_BUDGET)),
                      [E.raise_(E.call("_stuck", E.const(self.sid(span))))])]

    def finish_function(self, fname: str, body: list[ast.stmt],
                        first: tuple[str, ...] = ("st",)) -> ast.expr:
        """Make a generated function whose parameters are `first` and then the names its
        body reads from outside (aliases, items, parameters); returns the call."""
        free = sorted(E.loaded_names(body) - E.bound_names(body) - self.module_names()
                      - set(first))
        self.define_function(fname, list(first) + free, body)
        return E.call(fname, *(E.name(n) for n in (*first, *free)))

    def define_function(self, fname: str, params: list[str], body: list[ast.stmt]) -> None:
        for i, f in enumerate(self.functions):
            if f.name == fname:
                self.functions[i] = E.Function(fname, params, body)
                return
        self.functions.append(E.Function(fname, params, body))

    def module_names(self) -> set[str]:
        """Names that belong to the module: tables, helpers, generated functions, built-ins.
        Everything else a function reads must be given to it."""
        from ..program.runtime import HELPER_NAMES
        from .sandbox import SAFE_BUILTINS

        names = set(self.consts) | HELPER_NAMES | set(SAFE_BUILTINS) | {"_show", "RANK",
                                                                         "TRIGGERS"}
        names |= {f.name for f in self.functions}
        return names

    # ---- calls -----------------------------------------------------------------------------

    def call(self, e: A.Call) -> ast.expr:
        """A call of a definition, or of a built-in function: its family's code
        (compile/builtins.py, looked up in a table made once)."""
        ref = self.ref(e)
        if isinstance(ref, DefineRef):
            args = [self.expr(x) for x in e.args]
            return self.call_define(ref.instance, args)
        generate = GENERATE.get(e.func)
        if generate is None:  # pragma: no cover (tests/test_builtins.py)
            raise AssertionError(f"compile/builtins.py has no code for {e.func}()")
        return generate(self, e, E.const(self.sid(e.span)))

    # ---- definitions -----------------------------------------------------------------------

    def template(self, n: int) -> Template:
        """Definition instance n, compiled once as a tree over its parameters a0, a1, ..."""
        if n in self.templates:
            return self.templates[n]
        inst: DefineInstance = self.a.define_instances[n]
        saved = self.proc
        self.proc = Proc("define", inst.name, [], [], inst.body.span)
        for k, p in enumerate(inst.params):
            self.var_names[p] = f"a{k}"
        body = self.expr(inst.body)
        self.proc = saved
        loaded = [x.id for x in ast.walk(body) if isinstance(x, ast.Name)]
        grows = inst.result in ("int", "any") and self.grows(inst.body)
        t = Template(f"D{n}", body, sum(1 for _ in ast.walk(body)),
                     [loaded.count(f"a{k}") for k in range(len(inst.params))], grows)
        self.templates[n] = t
        fbody: list[ast.stmt] = [E.assign(E.store("r"), E.copy_tree(body))]
        if grows:
            fbody += self.number_check(E.name("r"), inst.body.span)
        fbody.append(E.return_(E.name("r")))
        params = [f"a{k}" for k in range(len(inst.params))]
        self.define_function(t.function, ["st", *params], fbody)
        return t

    def call_define(self, n: int, args: list[ast.expr]) -> ast.expr:
        t = self.template(n)
        inline = t.size <= INLINE_NODES and all(
            uses <= 1 or E.is_simple(arg) or uses <= CHEAP_USES and E.is_cheap(arg)
            for uses, arg in zip(t.uses, args))
        if not inline:
            return E.call(t.function, E.name("st"), *args)
        return Substitute({f"a{k}": arg for k, arg in enumerate(args)}).visit(
            E.copy_tree(t.body))

    def number_check(self, value: ast.expr, span: Span) -> list[ast.stmt]:
        """Whole numbers stay between -10^18 and 10^18: a rule that squares a number forty
        times stops with a clear error, not with the memory of the machine."""
        big = E.compare(E.call("abs", value), ">", E.const(MAX_NUMBER))
        test = E.and_(E.compare(E.copy_tree(value), "is not", E.const(None)), big)
        return [E.if_(test, [E.raise_(E.call("_too_big", E.copy_tree(value),
                                             E.const(self.sid(span))))])]


class Substitute(E.Transformer):
    """Put argument trees in place of a definition's parameters, all at once; then let a
    literal argument drop the `is none` test a parameter needed."""

    def __init__(self, args: dict[str, ast.expr]):
        self.args = args

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if isinstance(node.ctx, ast.Load) and node.id in self.args:
            return E.copy_tree(self.args[node.id])
        return node

    def visit_IfExp(self, node: ast.IfExp) -> ast.AST:
        self.generic_visit(node)
        t = node.test
        if (isinstance(t, ast.Compare) and len(t.ops) == 1 and isinstance(t.ops[0], ast.IsNot)
                and isinstance(t.comparators[0], ast.Constant)
                and t.comparators[0].value is None and E.int_constant(t.left) is not None):
            return node.body
        return node
