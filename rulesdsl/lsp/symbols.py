"""The names of a rule file: what each one means, where it is declared and where it is used.

Stage: editor support, after the checker. `Index` walks a (merged) rule file once with the
checker's scoping: a local (`let`, a loop's or a choice's name, a parameter) hides a
declaration of the same name from where it is bound to the end of its block; every other
name is a declaration of the file, a value of an enum, a cell of a board, or a built-in.
Each use becomes an `Occurrence` with its exact span (the AST's name spans), so the
language server answers hover, go to definition, references, rename, highlighting and
completion from the same table. Types come from the checker's `Analysis`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, get_args

from .. import ast as A
from ..check.analysis import LATTICE_DOCS, Analysis
from ..check.tiles import TILE_DOCS
from ..check.types import ANY, BUILTIN_NAMES, BUILTINS, Type
from ..diagnostics import Span

DECLARATION_KINDS: dict[type, str] = {
    A.ConstDecl: "constant", A.SettingDecl: "setting", A.CounterDecl: "counter",
    A.BoardDecl: "board", A.EnumDecl: "enum", A.DieDecl: "die", A.DiceDecl: "dice",
    A.DefineDecl: "definition", A.RuleDecl: "rule", A.KindDecl: "kind", A.ZoneDecl: "zone",
}
EXPRESSIONS: tuple[type, ...] = get_args(A.Expr)
BINDERS: dict[type, str] = {
    A.Let: "let", A.LetRoll: "let ... = roll", A.ForEach: "for each", A.Choose: "choose",
    A.ChooseAny: "choose any", A.Quantifier: "quantifier", A.Aggregate: "aggregate",
    A.ListComp: "list", A.TriggerDecl: "as soon as", A.RankDecl: "rank",
    A.HeuristicDecl: "heuristic", A.PayoffDecl: "payoff",
    A.SecretStep: "each ... chooses in secret", A.Offer: "offer",
}


@dataclass(eq=False)
class Symbol:
    """Something a name means. `kind` is one of: constant, setting, counter, board, enum,
    enum value, die, dice, definition, rule, kind, field, zone, cell, local, parameter,
    option, example, builtin, function."""

    name: str
    kind: str
    decl: Any = None  # the node that declares it (for a field or an enum value: its owner's)
    span: Span | None = None  # where its name is written in the declaration
    owner: str = ""  # the enum of a value, the kind of a field, the board of a cell,
    #                  the rule or definition of a parameter
    how: str = ""  # for a local: what bound it ("let", "for each", ...)

    @property
    def is_global(self) -> bool:
        return self.kind not in ("local", "parameter")


@dataclass(frozen=True)
class Occurrence:
    """A name written in a file: where, what it means, and whether it declares it."""

    span: Span
    symbol: Symbol
    declaration: bool = False
    node: Any = None  # the expression node, for its type


@dataclass
class Visible:
    """A local name and where it can be used: from `start` (line, column) to `end`."""

    symbol: Symbol
    file: str
    start: tuple[int, int]
    end: tuple[int, int]


def name_at(span: Span, name: str) -> Span:
    """The span of a name written at the start of a node's span (`score of p`, `f(x)`)."""
    return Span(file=span.file, line=span.line, column=span.column, end_line=span.line,
                end_column=span.column + len(name))


def _end(span: Span) -> tuple[int, int]:
    return (span.end_line, span.end_column)


class Index:
    """Every name of a rule file, declared and used."""

    def __init__(self, file: A.RulesFile, analysis: Analysis | None = None,
                 variant: A.RulesFile | None = None, originals: tuple = ()):
        """`file` is the merged file; for a variant, `variant` is its own text's AST and
        `originals` the base's declarations that it replaces or removes."""
        self.file = file
        self.analysis = analysis
        self.symbols: dict[str, Symbol] = {}
        self.options: dict[str, list[Symbol]] = {}
        self.examples: dict[str, Symbol] = {}
        self.occurrences: list[Occurrence] = []
        self.visible: list[Visible] = []
        self.params: dict[str, list[Symbol]] = {}  # a rule's or definition's parameters
        self.fields: dict[tuple[str, str], Symbol] = {}
        self._option: dict[int, Symbol] = {}
        self._types = self._define_types(analysis)
        self._declare_all()
        self._scopes: list[dict[str, Symbol]] = []
        for item in file.items:
            self._item(item)
        self._variant(variant, originals)

    # ---- queries -------------------------------------------------------------------

    def at(self, file: str, line: int, column: int) -> Occurrence | None:
        """The name written at a place (a cursor just after a name still touches it)."""
        best = None
        for occ in self.occurrences:
            s = occ.span
            if s.file == file and s.line == line and s.column <= column <= s.end_column:
                if best is None or s.column > best.span.column:
                    best = occ
        return best

    def references(self, symbol: Symbol) -> list[Occurrence]:
        return [o for o in self.occurrences if o.symbol is symbol]

    def type_of(self, node: Any) -> Type:
        """The checker's type of an expression (in a definition: as first called)."""
        if self.analysis is None:
            return ANY
        return self.analysis.type_of(self._types.get(id(node), node))

    def locals_at(self, file: str, line: int, column: int) -> list[Symbol]:
        here = (line, column)
        seen: dict[str, Symbol] = {}
        for v in self.visible:
            if v.file == file and v.start <= here <= v.end:
                seen[v.symbol.name] = v.symbol  # the innermost binding comes last
        return list(seen.values())

    def enclosing(self, file: str, line: int) -> Any:
        """The top-level declaration a line belongs to, if any."""
        for item in self.file.items:
            if item.span.file == file and item.span.line <= line < max(item.span.end_line,
                                                                        item.span.line + 1):
                return item
        return None

    # ---- declarations --------------------------------------------------------------

    def _declare_all(self) -> None:
        item: Any
        for item in self.file.items:
            kind = DECLARATION_KINDS.get(type(item))
            if kind is not None and item.name not in self.symbols:
                sym = Symbol(item.name, kind, item, item.name_span)
                self.symbols[item.name] = sym
            if isinstance(item, A.EnumDecl):
                for v in item.values:
                    self.symbols.setdefault(v.name, Symbol(v.name, "enum value", item,
                                                           v.name_span, owner=item.name))
            if isinstance(item, A.KindDecl):
                spans: list[Span | None] = [*item.field_spans] or [None] * len(item.fields)
                for f, s in zip(item.fields, spans):
                    self.fields.setdefault((item.name, f), Symbol(f, "field", item, s,
                                                                  owner=item.name))
            if isinstance(item, A.ExampleDecl):
                self.examples.setdefault(item.name, Symbol(item.name, "example", item,
                                                           item.name_span))
            for opt in _menu_options(item):
                sym = Symbol(opt.id, "option", opt, opt.name_span)
                self.options.setdefault(opt.id, []).append(sym)
                self._option[id(opt)] = sym
        if self.analysis is not None:
            for cell, boards in self.analysis.cells.items():
                board = self.symbols.get(boards[0])
                if cell not in self.symbols and board is not None:
                    self.symbols[cell] = Symbol(cell, "cell", board.decl, board.span,
                                                owner=boards[0])

    def _define_types(self, analysis: Analysis | None) -> dict[int, Any]:
        """A definition's body is checked on a copy for each list of argument types: the
        nodes of the first copy stand for the written ones."""
        out: dict[int, Any] = {}
        if analysis is None:
            return out
        for inst in analysis.define_instances:
            decl = analysis.defines.get(inst.name)
            if decl is not None and id(decl.body) not in out:
                for written, copy in _pairs(decl.body, inst.body):
                    out.setdefault(id(written), copy)
        return out

    def _variant(self, variant: A.RulesFile | None, originals: tuple) -> None:
        """A replaced declaration of the base is one more declaration of the name; a
        removed one is a symbol of its own, which the variant's `remove` names."""
        for decl in originals:
            kind = DECLARATION_KINDS.get(type(decl))
            if kind is None:
                continue
            sym = self.symbols.get(decl.name)
            if sym is None:
                sym = self.symbols[decl.name] = Symbol(decl.name, kind, decl, decl.name_span)
            self._declare(decl.name_span, sym)
        for item in variant.items if variant is not None else []:
            if isinstance(item, A.Remove):
                for ref in item.refs:
                    self._use(ref.span, self.symbols.get(ref.name))

    # ---- walking -------------------------------------------------------------------

    def _use(self, span: Span, sym: Symbol | None, node: Any = None) -> None:
        if sym is not None:
            self.occurrences.append(Occurrence(span, sym, False, node))

    def _declare(self, span: Span | None, sym: Symbol) -> None:
        if span is not None:
            self.occurrences.append(Occurrence(span, sym, True))

    def _lookup(self, name: str) -> Symbol | None:
        for scope in reversed(self._scopes):
            if name in scope:
                return scope[name]
        found = self.symbols.get(name)
        if found is not None:
            return found
        if name in BUILTIN_NAMES:
            return _builtin(name, "builtin")
        return None

    def _bind(self, node: Any, name: str, how: str, until: Span,
              kind: str = "local", owner: str = "") -> Symbol:
        sym = Symbol(name, kind, node, getattr(node, "name_span", None), owner=owner, how=how)
        self._declare(sym.span, sym)
        self._scopes[-1][name] = sym
        start = sym.span or node.span
        self.visible.append(Visible(sym, start.file, _end(start), _end(until)))
        return sym

    def _item(self, item: Any) -> None:
        kind = DECLARATION_KINDS.get(type(item))
        if kind is not None and self.symbols.get(item.name) is not None:
            self._declare(item.name_span, self.symbols[item.name])
        for ref in getattr(item, "refs", []):
            self._use(ref.span, self._lookup(ref.name) if ref.name != "player" else None)
        self._scopes = [{}]
        A.handler(DECLARATIONS, item, "the index of names")(self, item)

    def item_names(self, item: Any) -> None:
        """A declaration whose name and the names it refers to are all the index reads."""

    def item_EnumDecl(self, item: A.EnumDecl) -> None:
        for value in item.values:
            self._declare(value.name_span, self.symbols[value.name])

    def item_KindDecl(self, item: A.KindDecl) -> None:
        for f in item.fields:
            field = self.fields[(item.name, f)]
            self._declare(field.span, field)
        for row in item.rows:
            for ref in row.refs:
                self._use(ref.span, self._lookup(ref.name))
            for v in row.values:
                self._expr(v)

    def item_RuleDecl(self, item: A.RuleDecl | A.DefineDecl) -> None:
        """A rule or a definition: its parameters, then its body."""
        kind_word = "rule" if isinstance(item, A.RuleDecl) else "definition"
        spans: list[Span | None] = [*item.param_spans] or [None] * len(item.params)
        params = []
        for p, s in zip(item.params, spans):
            sym = Symbol(p, "parameter", item, s, owner=item.name, how=kind_word)
            self._declare(s, sym)
            self._scopes[-1][p] = sym
            self.visible.append(Visible(sym, item.span.file, (item.span.line, 1),
                                        _end(item.span)))
            params.append(sym)
        self.params.setdefault(item.name, params)
        if isinstance(item, A.RuleDecl):
            self._block(item.body, item.span)
        else:
            self._expr(item.body)

    item_DefineDecl = item_RuleDecl

    def item_SetupDecl(self, item: A.SetupDecl | A.PlayDecl) -> None:
        self._block(item.body, item.span)

    item_PlayDecl = item_SetupDecl

    def item_ExampleDecl(self, item: A.ExampleDecl) -> None:
        self._declare(item.name_span, self.examples[item.name])
        self._block(item.body, item.span)

    def item_TriggerDecl(self, item: A.TriggerDecl) -> None:
        self._expr(item.domain)
        self._bind(item, item.var, "as soon as", item.span)
        self._expr(item.where)
        self._block(item.body, item.span)

    def item_RankDecl(self, item: A.RankDecl) -> None:
        self._bind(item, item.var, "rank", item.span)
        for key in item.keys:
            self._expr(key)

    def item_HeuristicDecl(self, item: A.HeuristicDecl) -> None:
        self._bind(item, item.var, "heuristic", item.span)
        self._expr(item.value)

    def item_PayoffDecl(self, item: A.PayoffDecl) -> None:
        self._bind(item, item.var, "payoff", item.span)
        for part in (item.value, item.low, item.high):
            if part is not None:
                self._expr(part)

    def item_values(self, item: Any) -> None:
        """A constant, a setting, a counter or a die: the expressions of its values."""
        for attr in ("value", "low", "high", "init", "faces"):
            self._expr(getattr(item, attr, None))

    def item_DisplayDecl(self, item: A.DisplayDecl) -> None:
        self._display(item)

    def _display(self, item: A.DisplayDecl) -> None:
        """The names a `display:` block uses: counters, zones, a kind and its field, an
        enum's values (renaming one renames it there too)."""
        for line in item.items:
            # `ask rule name`, `tell rule name`: the name is a choice's, local to the rule
            for n in line.names[:1] if line.what in ("ask", "tell") else line.names:
                self._use(n.span, self._lookup(n.name))
            if line.by is not None:
                field = self.fields.get((line.names[0].name, line.by.name))
                self._use(line.by.span, field if line.what in ("glyph", "label", "feature")
                          and field is not None
                          else self._lookup(line.by.name))
            for value, _ in line.glyphs if line.what != "seat" else []:
                self._use(value.span, self._lookup(value.name))

    def _block(self, stmts: list, until: Span) -> None:
        self._scopes.append({})
        for s in stmts:
            self._stmt(s, until)
        self._scopes.pop()

    def _stmt(self, s: Any, until: Span) -> None:
        A.handler(STATEMENTS, s, "the index of names")(self, s, until)

    def stmt_Let(self, s: A.Let, until: Span) -> None:
        self._expr(s.value)
        self._bind(s, s.name, "let", until)

    def stmt_LetRoll(self, s: A.LetRoll, until: Span) -> None:
        self._expr(s.die)
        self._bind(s, s.name, "let ... = roll", until)

    def stmt_Set(self, s: A.Set | A.Add, until: Span) -> None:
        self._target(s.target)
        self._expr(s.value if isinstance(s, A.Set) else s.amount)

    stmt_Add = stmt_Set

    def stmt_CallRule(self, s: A.CallRule, until: Span) -> None:
        self._use(name_at(s.span, s.name), self.symbols.get(s.name), s)
        for arg in s.args:
            self._expr(arg)

    def stmt_SecretStep(self, s: A.SecretStep, until: Span) -> None:
        self._secret_step(s)

    def stmt_Offer(self, s: A.Offer, until: Span) -> None:
        self._offer(s)

    def stmt_Point(self, s: A.Point, until: Span) -> None:
        pass  # a point's name is only ever read by an example's `from`

    def stmt_Replay(self, s: A.Replay | A.ExpectOptions, until: Span) -> None:
        choices, spans = (s.choices, s.choice_spans) if isinstance(s, A.Replay) \
            else (s.ids, s.id_spans)
        for choice, span in zip(choices, spans):
            for sym in self.options.get(choice, []):
                self._use(span, sym)
            value = self.symbols.get(choice)
            if value is not None and value.kind == "enum value":  # chosen by its id
                self._use(span, value)

    stmt_ExpectOptions = stmt_Replay

    def stmt_If(self, s: A.If, until: Span) -> None:
        for cond, body in s.branches:
            self._expr(cond)
            self._block(body, s.span)
        if s.otherwise is not None:
            self._block(s.otherwise, s.span)

    def stmt_ForEach(self, s: A.ForEach, until: Span) -> None:
        self._expr(s.domain)
        self._scopes.append({})
        self._bind(s, s.var, "for each", s.span)
        self._expr(s.where)
        self._block(s.body, s.span)
        self._scopes.pop()

    def stmt_Repeat(self, s: A.Repeat | A.While | A.Turns, until: Span) -> None:
        for key in ("count", "cond", "start", "rounds"):
            self._expr(getattr(s, key, None))
        self._block(s.body, s.span)

    stmt_While = stmt_Turns = stmt_Repeat

    def stmt_Choose(self, s: A.Choose | A.ChooseAny, until: Span) -> None:
        self._choose(s, until)

    stmt_ChooseAny = stmt_Choose

    def stmt_ChooseMenu(self, s: A.ChooseMenu, until: Span) -> None:
        self._expr(s.by)
        for opt in s.options:
            self._declare(opt.name_span, self._option[id(opt)])
            self._expr(opt.label)
            self._expr(opt.cond)
            self._block(opt.body, opt.span)

    def stmt_parts(self, s: Any, until: Span) -> None:
        """The statements that hold expressions only (and a step, whose statements are
        looked at as parts)."""
        for child in A.child_nodes(s):
            self._expr(child)

    def _secret_step(self, s: A.SecretStep) -> None:
        """The seat's name, and the names its block binds, reach to the end of the reveal."""
        self._expr(s.seats)
        self._scopes.append({})
        self._bind(s, s.var, BINDERS[A.SecretStep], s.span)
        self._scopes.append({})
        for x in s.body:
            self._stmt(x, s.span)
        self._block(s.reveal or [], s.span)
        del self._scopes[-2:]

    def _offer(self, s: A.Offer) -> None:
        for e in (s.domain, s.by, s.to):
            self._expr(e)
        self._scopes.append({})
        self._bind(s, s.var, BINDERS[A.Offer], s.span)
        for e in (s.where, s.label, s.done_label):
            self._expr(e)
        for answer in s.answers:
            self._expr(answer.label)
            self._block(answer.body, answer.span)
        self._scopes.pop()

    def _choose(self, s: A.Choose | A.ChooseAny, until: Span) -> None:
        self._expr(s.domain)
        self._expr(s.by)
        how = "choose any" if isinstance(s, A.ChooseAny) else "choose"
        if s.body is not None:
            self._scopes.append({})
            self._bind(s, s.var, how, s.span)
        else:
            self._bind(s, s.var, how, until)
        self._expr(getattr(s, "where", None))
        self._expr(s.label)
        self._expr(getattr(s, "done_label", None))
        if s.body is not None:
            self._block(s.body, s.span)
            self._scopes.pop()

    def _target(self, t: A.Target) -> None:
        span = name_at(t.span, t.name)
        if t.of is None:
            self._use(span, self._lookup(t.name), t)
        else:
            self._use(span, self.symbols.get(t.name), t)
            self._expr(t.of)

    def _expr(self, e: Any) -> None:
        if e is None or isinstance(e, str):
            return
        # an expression by its class; other nodes (a step's statements) by their parts
        EXPRESSION_HANDLERS.get(type(e), Index.expr_parts)(self, e)

    def expr_Name(self, e: A.Name) -> None:
        self._use(e.span, self._lookup(e.name), e)

    def expr_Of(self, e: A.Of) -> None:
        self._use(name_at(e.span, e.attr), self._attribute(e), e)
        self._expr(e.obj)

    def expr_Call(self, e: A.Call) -> None:
        sym = self.symbols.get(e.func)
        if sym is None and (e.func in BUILTINS or e.func in LATTICE_DOCS
                            or e.func in TILE_DOCS):
            sym = _builtin(e.func, "function")
        self._use(name_at(e.span, e.func), sym, e)
        for arg in e.args:
            self._expr(arg)

    def expr_Quantifier(self, e: A.Quantifier | A.Aggregate | A.ListComp) -> None:
        self._expr(e.domain)
        self._scopes.append({})
        self._bind(e, e.var, BINDERS[type(e)], e.span)
        self._expr(e.where)
        self._expr(getattr(e, "expr", None))
        self._scopes.pop()

    expr_Aggregate = expr_ListComp = expr_Quantifier

    def expr_parts(self, e: Any) -> None:
        for child in A.child_nodes(e):
            self._expr(child)

    def _attribute(self, e: A.Of) -> Symbol | None:
        """What `attr` means in `attr of x`: a zone, a field, a counter, or face/piece."""
        if e.attr in ("face", "piece"):
            return _builtin(e.attr, "builtin")
        found = self.symbols.get(e.attr)
        if found is not None and found.kind in ("zone", "counter"):
            return found
        owner = self.type_of(e.obj)
        if isinstance(owner, tuple) and owner[0] == "comp" and (owner[1], e.attr) in self.fields:
            return self.fields[(owner[1], e.attr)]
        for (_, name), sym in self.fields.items():
            if name == e.attr:
                return sym
        return found


# the index's handler of each statement and expression, by class (`stmt_<class>`,
# `expr_<class>`); the others hold only parts to look at
STATEMENTS = A.handlers(Index, "stmt_")
STATEMENTS.update({c: Index.stmt_parts for c in (
    A.Place, A.Clear, A.Roll, A.Reveal, A.Win, A.Draw, A.EndGame, A.EndTurn, A.NextTurn, A.Break,
    A.Say, A.Expect, A.Pass, A.Shuffle, A.Move, A.Step, A.BaseCall)})
# the index's handler of each declaration, by class (`item_<class>`); the others hold values
# to look at, or nothing but their name and the names they refer to
DECLARATIONS = A.handlers(Index, "item_")
DECLARATIONS.update({c: Index.item_values for c in (
    A.ConstDecl, A.SettingDecl, A.CounterDecl, A.DieDecl)})
DECLARATIONS.update({c: Index.item_names for c in (
    A.GameDecl, A.PlayersDecl, A.BoardDecl, A.DiceDecl, A.ZoneDecl, A.TeamsDecl,
    A.LimitDecl, A.StatDecl)})
EXPRESSION_HANDLERS = A.handlers(Index, "expr_")
EXPRESSION_HANDLERS.update({c: Index.expr_parts for c in (
    A.IntLit, A.StrLit, A.BoolLit, A.NoneLit, A.PlayerLit, A.ListLit, A.Index, A.Unary,
    A.Binary, A.IsEmpty, A.Cond, A.TupleLit, A.Sort)})

_BUILTINS: dict[tuple[str, str], Symbol] = {}


def _builtin(name: str, kind: str) -> Symbol:
    key = (name, kind)
    if key not in _BUILTINS:
        _BUILTINS[key] = Symbol(name, kind)
    return _BUILTINS[key]


def _menu_options(node: Any) -> Iterator[A.MenuOption]:
    """The options of the menus in a declaration (statements only: no expression holds one)."""
    if isinstance(node, A.MenuOption):
        yield node
    for child in A.child_nodes(node):
        if not isinstance(child, EXPRESSIONS):
            yield from _menu_options(child)


def _pairs(a: Any, b: Any) -> Iterator[tuple[Any, Any]]:
    """The nodes of two trees of the same shape, side by side."""
    yield a, b
    for x, y in zip(A.child_nodes(a), A.child_nodes(b)):
        yield from _pairs(x, y)


