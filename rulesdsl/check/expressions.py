"""Checking expressions: names, types, calls and definitions.

Stage: check. Every expression gets a type (recorded for the compiler) and every name a
meaning. A definition is checked once for each list of argument types it is called with.
"""

from __future__ import annotations

from typing import Any

from .. import ast as A
from ..boards.grids import CornerBoard, RingBoard, SquareBoard, TriangleBoard
from ..declarations import CounterInfo
from ..diagnostics import Span
from .analysis import (
    LATTICE_DOCS,
    SQUARE_ONLY,
    DefineInstance,
    Proc,
    Scope,
    is_a,
    plural,
)
from .base import CheckerBase
from .bindings import (
    BoardRef,
    BuiltinRef,
    CounterRef,
    DefineRef,
    DiceOfRef,
    DiceRef,
    FaceRef,
    FieldRef,
    PieceRef,
    ValueRef,
    Var,
    VarRef,
    ZoneRef,
)
from .tiles import TILE_DOCS, tile_call
from .types import (
    ANY,
    BOOL,
    BUILTIN_NAMES,
    BUILTINS,
    INT,
    NONE,
    PLAYER,
    TEXT,
    Problem,
    Type,
    compatible,
    element,
    join,
    list_of,
    ordered,
    with_article,
)


class ExpressionChecker(CheckerBase):
    """Types and meanings of expressions."""

    def want(self, e: A.Expr | None, t: Type, scope: Scope, what: str) -> Type:
        if e is None:
            return t
        got = self.expr(e, scope)
        if not compatible(got, t) or (got == NONE and t in (INT, BOOL)):
            self.err("E030", f"{what} must be {with_article(t)}, not {with_article(got)}", e.span)
        return got

    def domain(self, e: A.Expr, scope: Scope) -> Type:
        t = self.expr(e, scope)
        el = element(t)
        if el is None:
            self.err("E030", f"expected a list (or a board) to choose from, not {with_article(t)}",
                     e.span)
            return ANY
        return el

    def instantiate(self, d: A.DefineDecl, arg_types: list[Type], span: Span) -> int:
        """A definition is checked (and compiled) once for each list of argument types it
        is called with, so that `neighbours(t)` inside it knows t's board. Returns the
        number of the instance."""
        key = (d.name, tuple(arg_types))
        if key in self.instances:
            n = self.instances[key]
            if n < 0:
                self.err("E046", f"definition {d.name} calls itself: a definition is a "
                         "formula, not a loop", span, hint="write a rule with a loop")
                return 0
            return n
        self.instances[key] = -1
        body = A.copy_tree(d.body)  # its own nodes, for this instance's types
        proc = Proc("define", d.name, [], d.params, d.span)
        scope = Scope(proc)
        params = [Var(p, t, frame=False) for p, t in zip(d.params, arg_types)]
        for var in params:
            scope.blocks[-1][var.name] = var
        result = self.expr(body, scope)
        n = len(self.a.define_instances)
        self.a.define_instances.append(DefineInstance(d.name, n, params, body, result))
        self.instances[key] = n
        return n

    def expr(self, e: Any, scope: Scope) -> Type:
        t = self._expr(e, scope)
        self.a.types[id(e)] = t
        return t

    def _expr(self, e: Any, scope: Scope) -> Type:
        return A.handler(EXPRESSIONS, e, "the checker")(self, e, scope)

    def expr_IntLit(self, e: A.IntLit, scope: Scope) -> Type:
        return INT

    def expr_BoolLit(self, e: A.BoolLit, scope: Scope) -> Type:
        return BOOL

    def expr_NoneLit(self, e: A.NoneLit, scope: Scope) -> Type:
        return NONE

    def expr_StrLit(self, e: A.StrLit, scope: Scope) -> Type:
        for part in e.parts:
            if not isinstance(part, str):
                self.expr(part, scope)
        return TEXT

    def expr_PlayerLit(self, e: A.PlayerLit, scope: Scope) -> Type:
        if not 1 <= e.number <= self.a.max_players:
            self.err("E030", f"there is no player {e.number} in a game of at most "
                     f"{self.a.max_players}", e.span)
        return PLAYER

    def expr_ListLit(self, e: A.ListLit, scope: Scope) -> Type:
        t: Type = NONE
        for item in e.items:
            t = join(t, self.expr(item, scope))
        return list_of(ANY if t == NONE else t)

    def expr_TupleLit(self, e: A.TupleLit, scope: Scope) -> Type:
        return ("tuple", tuple(self.expr(i, scope) for i in e.items))

    def expr_Index(self, e: A.Index, scope: Scope) -> Type:
        t = self.expr(e.obj, scope)
        self.want(e.index, INT, scope, "an index")
        el = element(t)
        if el is None or is_a(t, "board"):
            self.err("E030", f"only lists can be indexed, not {with_article(t)}", e.obj.span)
            return ANY
        return el

    def expr_Unary(self, e: A.Unary, scope: Scope) -> Type:
        if e.op == "not":
            self.want(e.operand, BOOL, scope, "the operand of 'not'")
            return BOOL
        self.want(e.operand, INT, scope, "the operand of '-'")
        return INT

    def expr_IsEmpty(self, e: A.IsEmpty, scope: Scope) -> Type:
        t = self.expr(e.operand, scope)
        if not (is_a(t, "cell") or element(t) is not None):
            self.err("E030", f"'is empty' applies to a cell or a list, not {with_article(t)}",
                     e.operand.span)
        return BOOL

    def expr_Cond(self, e: A.Cond, scope: Scope) -> Type:
        self.want(e.test, BOOL, scope, "a condition")
        return join(self.expr(e.then, scope), self.expr(e.otherwise, scope))

    def name(self, e: A.Name, scope: Scope) -> Type:
        local = scope.lookup(e.name)
        a = self.a
        if local is not None:
            self.a.binding[id(e)] = VarRef(local)
            return local.type
        if e.name in a.values:
            a.binding[id(e)] = ValueRef(a.values[e.name])
            known = self.const_types.get(e.name)  # enum values are stored as numbers
            if known is not None and known != ANY:
                return known
            return self.value_type(a.values[e.name])
        if e.name in a.enum_values:
            enum, idx = a.enum_values[e.name]
            a.binding[id(e)] = ValueRef(idx)
            return ("enum", enum)
        if e.name in a.kinds:
            a.binding[id(e)] = ValueRef(list(range(a.kinds[e.name].count)))
            return list_of(("comp", e.name))
        if e.name in a.zones:
            zone = a.zones[e.name]
            if zone.per_player:
                self.err("E030", f"each player has a zone {e.name}: write '{e.name} of ...'",
                         e.span)
                return ANY
            a.binding[id(e)] = ZoneRef(e.name)
            return ("zone", e.name, zone.kind)
        if e.name in a.counters:
            info = a.counters[e.name]
            if info.dims:
                self.err("E030", f"{e.name} is kept per {info.dims[0][1]}: write "
                         f"'{e.name} of ...'", e.span)
                return ANY
            a.binding[id(e)] = CounterRef(e.name)
            self.not_a_tally(info, e.span, scope)
            return info.type
        if e.name in a.enums:
            a.binding[id(e)] = ValueRef(list(range(len(a.enums[e.name].values))))
            return list_of(("enum", e.name))
        if e.name in a.boards:
            a.binding[id(e)] = BoardRef(e.name)
            return ("board", e.name)
        if e.name in a.dice:
            if a.dice[e.name].per_seat:
                self.err("E030", f"{e.name} is kept per player: write '{e.name} of ...'",
                         e.span)
                return ANY
            a.binding[id(e)] = DiceRef(e.name)
            return list_of(("die", e.name))
        if e.name in BUILTIN_NAMES:
            a.binding[id(e)] = BuiltinRef(e.name)
            return BUILTIN_NAMES[e.name]
        if e.name in a.cells:
            boards = a.cells[e.name]
            if len(boards) > 1:
                self.err("E022", f"cell {e.name} is on several boards ({', '.join(boards)})",
                         e.span, hint="name the board: cell(board, x, y)")
                return ANY
            board = a.boards[boards[0]]
            a.binding[id(e)] = ValueRef(board.names.index(e.name))
            return ("cell", boards[0])
        if e.name in a.rules or e.name in a.defines or e.name in a.dies:
            kind = self.names[e.name][0]
            self.err("E022", f"'{e.name}' is a {kind}, not a value", e.span,
                     hint={"definition": f"call it: {e.name}(...)",
                           "die": f"roll it: let r = roll {e.name}"}.get(kind))
            return ANY
        self.err("E020", f"unknown name '{e.name}'", e.span, hint=self.suggest(e.name))
        return ANY

    def dice_of(self, e: A.Of, scope: Scope) -> Type:
        """`cup of p`: the dice of p's set, for a set kept per player."""
        if not self.a.dice[e.attr].per_seat:
            self.err("E030", f"{e.attr} is one set of dice for all: write '{e.attr}' alone",
                     e.span)
            return ANY
        self.want(e.obj, PLAYER, scope, f"the owner of {e.attr}")
        self.a.binding[id(e)] = DiceOfRef(e.attr)
        return list_of(("die", e.attr))

    def of(self, e: A.Of, scope: Scope) -> Type:
        a = self.a
        reported = len(a.diagnostics)
        if e.attr == "face":
            t = self.expr(e.obj, scope)
            if t == ANY and len(a.diagnostics) > reported:
                return ANY  # the operand's own error is enough
            if not is_a(t, "die"):
                if not self.has_field(t, "face"):  # else the field's name was reported
                    self.err("E030", f"only a die has a face, not {with_article(t)}",
                             e.obj.span)
                return ANY
            a.binding[id(e)] = FaceRef(t[1])
            return a.dies[a.dice[t[1]].die].face_type
        if e.attr == "piece":
            t = self.expr(e.obj, scope)
            if t == ANY and len(a.diagnostics) > reported:
                return ANY
            if not is_a(t, "cell"):
                if not self.has_field(t, "piece"):  # else the field's name was reported
                    self.err("E030", f"only a cell holds a piece, not {with_article(t)}",
                             e.obj.span)
                return ANY
            a.binding[id(e)] = PieceRef(t[1])
            return a.holding.get(t[1], ANY)
        if e.attr in a.dice:
            return self.dice_of(e, scope)
        if e.attr in a.zones:
            zone = a.zones[e.attr]
            if not zone.per_player:
                self.err("E030", f"{e.attr} is one zone for all: write '{e.attr}' alone",
                         e.span)
                return ANY
            self.want(e.obj, PLAYER, scope, f"the owner of {e.attr}")
            a.binding[id(e)] = ZoneRef(e.attr)
            return ("zone", e.attr, zone.kind)
        t_obj = self.field_owner(e, scope, reported)
        if t_obj is not None:
            return t_obj
        info = a.counters.get(e.attr)
        if info is None:
            name = e.span.model_copy(update={"end_line": e.span.line,
                                             "end_column": e.span.column + len(e.attr)})
            if e.attr in self.names:
                self.err("E022", f"'{e.attr}' is a {self.names[e.attr][0]}, not a counter",
                         name)
                return ANY
            self.err("E020", f"unknown counter '{e.attr}'", name,
                     hint=self.suggest(e.attr) or "'face of d' and 'piece of c' are built in")
            return ANY
        if not info.dims:
            self.err("E030", f"{e.attr} is a single counter: write '{e.attr}' alone", e.span)
            return info.type
        keys = e.obj.items if isinstance(e.obj, A.TupleLit) else [e.obj]
        if len(keys) != len(info.dims):
            self.err("E024", f"{e.attr} is kept per " + " per ".join(d[1] for d in info.dims)
                     + f": give {plural(len(info.dims), 'key')}", e.obj.span)
            return info.type
        for key, dim in zip(keys, info.dims):
            kinds: dict[str, Type] = {"player": PLAYER, "enum": ("enum", dim[1]),
                                      "dice": ("die", dim[1]), "kind": ("comp", dim[1]),
                                      "number": INT}
            want = kinds[dim[0]]
            self.want(key, want, scope, f"the key of {e.attr}")
        a.binding[id(e)] = CounterRef(e.attr)
        self.not_a_tally(info, e.span, scope)
        return info.type

    def has_field(self, t: Type, field: str) -> bool:
        """Whether a component or enum type has a field of that name."""
        if is_a(t, "comp") and t[1] in self.a.kinds:
            return field in self.a.kinds[t[1]].fields
        if is_a(t, "enum") and t[1] in self.a.enums:
            return field in self.a.enums[t[1]].fields
        return False

    def not_a_tally(self, info: CounterInfo, span: Span, scope: Scope) -> None:
        """A statistic's tally is read by reports, examples and other statistics, never by
        the rules: so a statistic cannot change how a game goes (E048)."""
        if info.stat and not self.writing and scope.proc.kind not in ("example", "stat"):
            self.err("E048", f"{info.name} is a statistic: the rules may add to it and set it, "
                     "but not read it", span,
                     hint="keep a counter for what the rules need to know")

    def binary(self, e: A.Binary, scope: Scope) -> Type:
        op = e.op
        if op in ("and", "or"):
            self.want(e.left, BOOL, scope, f"the operand of '{op}'")
            self.want(e.right, BOOL, scope, f"the operand of '{op}'")
            return BOOL
        if op == "+":
            return self.plus(e, scope)
        if op in ("+", "-", "*", "/", "%", ".."):
            self.want(e.left, INT, scope, f"the operand of '{op}'")
            self.want(e.right, INT, scope, f"the operand of '{op}'")
            return list_of(INT) if op == ".." else INT
        left = self.expr(e.left, scope)
        right = self.expr(e.right, scope)
        if op in ("in", "not in"):
            el = element(right)
            if el is None:
                self.err("E030", f"'{op}' needs a list on its right, not {with_article(right)}",
                         e.right.span)
            elif not compatible(left, el):
                self.err("E030", f"{with_article(left)} is never in {with_article(right)}", e.span)
            return BOOL
        if op in ("<", ">", "<=", ">="):
            for side, t in ((e.left, left), (e.right, right)):
                if t not in (INT, ANY):
                    self.err("E030", f"'{op}' compares numbers, not {with_article(t)}", side.span)
            return BOOL
        if not compatible(left, right):
            self.err("E030", f"comparing {with_article(left)} with {with_article(right)} is always "
                     f"{'false' if op == '==' else 'true'}", e.span)
        return BOOL

    def plus(self, e: A.Binary, scope: Scope) -> Type:
        """`a + b`: two numbers added, or two lists joined (the items of a, then those of
        b, alike items)."""
        left = self.expr(e.left, scope)
        el_left = element(left)
        if el_left is None or left == ANY or is_a(left, "board"):
            if not compatible(left, INT) or left == NONE:
                self.err("E030", f"the operand of '+' must be a number or a list, not "
                         f"{with_article(left)}", e.left.span)
            self.want(e.right, INT, scope, "the operand of '+'")
            return INT
        right = self.expr(e.right, scope)
        el_right = element(right)
        if el_right is None or is_a(right, "board"):
            self.err("E030", f"'+' joins a list with another list, not with "
                     f"{with_article(right)}", e.right.span,
                     hint="to add an item, put it in a list of its own: xs + [x]")
            return list_of(el_left)
        if not compatible(el_left, el_right):
            self.err("E030", f"'+' joins lists of alike items, not {with_article(left)} and "
                     f"{with_article(right)}", e.span)
        return list_of(join(el_left, el_right))

    def comprehension(self, e: Any, scope: Scope) -> Type:
        el = self.domain(e.domain, scope)
        var = Var(e.var, el, frame=False)
        self.a.candidate[id(e)] = var
        self.a.item_of[id(var)] = e.domain
        scope.blocks.append({e.var: var})
        if e.where is not None:
            self.want(e.where, BOOL, scope, "a condition")
        value: Type = el
        if isinstance(e, (A.Aggregate, A.ListComp)):
            value = self.expr(e.expr, scope)
        scope.blocks.pop()
        if isinstance(e, A.ListComp):
            return list_of(value)
        if isinstance(e, A.Aggregate):
            if e.kind == "sum" and value not in (INT, ANY):
                self.err("E030", f"sum adds numbers, not {with_article(value)}", e.expr.span)
            return INT if e.kind == "sum" else value
        return {"count": INT, "any": BOOL, "all": BOOL, "first": el,
                "filter": list_of(el)}[e.kind]

    def sort(self, e: A.Sort, scope: Scope) -> Type:
        """`sort(x in xs where c by key)`: the items, ordered by a key that can be ordered."""
        el = self.domain(e.domain, scope)
        var = Var(e.var, el, frame=False)
        self.a.candidate[id(e)] = var
        self.a.item_of[id(var)] = e.domain
        scope.blocks.append({e.var: var})
        if e.where is not None:
            self.want(e.where, BOOL, scope, "a condition")
        key = self.expr(e.key, scope)
        scope.blocks.pop()
        if not ordered(key):
            self.err("E030", f"sort by a number, text, true/false, a player, a cell, a value of "
                     f"an enum or a component, not {with_article(key)}", e.key.span)
        return list_of(el)

    def field_owner(self, e: A.Of, scope: Scope, reported: int) -> Type | None:
        """`field of c` for a component c (or a value of an enum that is a table), or None
        when attr is no field of any kind or enum."""
        tables: list[Any] = [k for k in self.a.kinds.values() if e.attr in k.fields]
        tables += [n for n in self.a.enums.values() if e.attr in n.fields]
        if not tables:
            return None
        t = self.expr(e.obj, scope)
        if t == ANY and len(self.a.diagnostics) > reported:
            return ANY
        owner = t[1] if is_a(t, "comp") or is_a(t, "enum") else None
        table = self.a.kinds.get(owner or "") if is_a(t, "comp") else self.a.enums.get(
            owner or "")
        if table is None or e.attr not in table.fields:
            if e.attr in self.a.counters:
                return None  # a counter of the same name: `attr of x` is the counter
            owners = " or ".join(k.name for k in tables)
            self.err("E030", f"{e.attr} is a field of {owners}, not of {with_article(t)}",
                     e.obj.span)
            return ANY
        assert owner is not None
        self.a.binding[id(e)] = FieldRef(owner, e.attr)
        return table.types.get(e.attr, ANY)

    def lattice_call(self, e: A.Call, arg_types: list[Type]) -> Type:
        """corners(t), around(x), pairs(board), top(zone), unique(xs)."""
        f, a = e.func, self.a
        want = {"corners": 1, "around": 1, "pairs": 1, "top": 1, "unique": 1}[f]
        if len(e.args) != want:
            self.err("E024", f"{f} takes {plural(want, 'argument')}, not {len(e.args)}",
                     e.span, hint=LATTICE_DOCS[f])
            return ANY
        t = arg_types[0]
        self.a.binding[id(e)] = BuiltinRef(f)
        board = a.boards.get(t[1]) if isinstance(t, tuple) and len(t) > 1 else None
        if f == "corners" and is_a(t, "cell") and isinstance(board, TriangleBoard):
            if board.name not in self.corners:
                self.err("E050", f"corners of {board.name} need a board of them: "
                         f"board crossings: corners of {board.name}", e.span)
                return ANY
            return list_of(("cell", self.corners[board.name]))
        if f == "around" and is_a(t, "cell") and isinstance(board, CornerBoard):
            return list_of(("cell", board.of.name))
        if f == "pairs" and is_a(t, "board") and isinstance(board, TriangleBoard):
            return list_of(list_of(("cell", board.name)))
        if f == "top" and is_a(t, "zone"):
            return ("comp", t[2])
        if f == "unique" and element(t) is not None:
            return t if is_a(t, "list") else list_of(element(t) or ANY)
        self.err("E030", f"{f} does not take {with_article(t)}", e.args[0].span,
                 hint=LATTICE_DOCS[f])
        return ANY

    def call(self, e: A.Call, scope: Scope) -> Type:
        arg_types = [self.expr(arg, scope) for arg in e.args]
        if e.func in TILE_DOCS and e.func not in self.a.defines:
            return tile_call(self, e, arg_types)
        if e.func in LATTICE_DOCS and e.func not in self.a.defines:
            return self.lattice_call(e, arg_types)
        if e.func in self.a.defines:
            d = self.a.defines[e.func]
            if len(e.args) != len(d.params):
                self.err("E024", f"{e.func} takes {plural(len(d.params), 'argument')}, "
                         f"not {len(e.args)}", e.span)
                return ANY
            n = self.instantiate(d, arg_types, e.span)
            self.a.binding[id(e)] = DefineRef(e.func, n)
            self.a.define_args.setdefault(n, []).append(e.args)
            return self.a.define_instances[n].result if n < len(
                self.a.define_instances) else ANY
        b = BUILTINS.get(e.func)
        if e.func in SQUARE_ONLY and arg_types:
            t = arg_types[0]
            board = self.a.boards.get(t[1]) if isinstance(t, tuple) and len(t) > 1 else None
            ring = e.func == "distance" and isinstance(board, RingBoard)
            if board is not None and not isinstance(board, SquareBoard) and not ring:
                hint = ("on a ring: neighbours, distance, reach, index"
                        if isinstance(board, RingBoard)
                        else "on triangles: neighbours, reach, corners, around, pairs")
                self.err("E030", f"{e.func} works on square boards; {board.name} is not one",
                         e.span, hint=hint)
                return ANY
        if b is None:
            if e.func in self.a.rules:
                self.err("E022", f"rule {e.func} does not give a value; call it as a "
                         "statement on its own line", e.span)
            else:
                self.err("E023", f"unknown function '{e.func}'", e.span,
                         hint=self.suggest(e.func))
            return ANY
        if not b.min_args <= len(e.args) <= b.max_args:
            want = (str(b.min_args) if b.min_args == b.max_args
                    else f"{b.min_args} to {b.max_args}")
            self.err("E024", f"{e.func} takes {plural(want, 'argument')}, not {len(e.args)}",
                     e.span, hint=b.doc)
            return ANY
        for i in b.const_args:
            self.a.constants[id(e.args[i])] = self.constant(e.args[i])
        result = b.result(arg_types)
        self.a.binding[id(e)] = BuiltinRef(e.func)
        if isinstance(result, Problem):
            self.err("E030", result, e.span, hint=b.doc)
            return ANY
        return result


# the checker's handler of each expression, by class: its methods `expr_<class>`, and
# the methods (which a later layer may extend) of the others
EXPRESSIONS: dict[type, Any] = {
    **A.handlers(ExpressionChecker, "expr_"),
    A.Name: lambda checker, e, scope: checker.name(e, scope),
    A.Of: lambda checker, e, scope: checker.of(e, scope),
    A.Binary: lambda checker, e, scope: checker.binary(e, scope),
    A.Quantifier: lambda checker, e, scope: checker.comprehension(e, scope),
    A.Aggregate: lambda checker, e, scope: checker.comprehension(e, scope),
    A.ListComp: lambda checker, e, scope: checker.comprehension(e, scope),
    A.Sort: lambda checker, e, scope: checker.sort(e, scope),
    A.Call: lambda checker, e, scope: checker.call(e, scope),
}
