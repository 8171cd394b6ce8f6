"""Compile expressions of the rules language into Python expressions.

Stage: compile. An expression becomes a Python expression over the state's lists: `V`
the counters, `L` the frame's locals, `B0`, `B1`, ... the cells of each board, and the
names of comprehension variables. Constant values become names of a table (`K3`).
Quantifiers and sums become small generated loop functions (`Q2`): a plain loop is faster
than a generator and stops at the first item that decides. `Compiler` (compiler.py)
builds on this class for the statements.
"""

from __future__ import annotations

import re
from typing import Any

from .. import ast as A
from ..check.analysis import Analysis, Proc
from ..diagnostics import Span

LITERAL_NEED = re.compile(r"\(\((-?\d+)\) if \(\1\) is not None else _need\(None, \d+, '[^']*'\)\)")
INLINE_CHARS = 240  # definitions whose code is this short are written in place of a call
SIMPLE = re.compile(r"^[A-Za-z_]\w*(\[\d+\])?$")  # a name or a slot: cheap to repeat
BOARD_ALIAS = re.compile(r"\bB(\d+)\b")
STRING = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"")


def boards_used(text: str) -> list[str]:
    """The board numbers that generated code refers to as B0, B1, ... (not in strings)."""
    return sorted(set(BOARD_ALIAS.findall(STRING.sub("''", text))), key=int)


def board_aliases(code: list[str]) -> str:
    """`B0 = B[0]; ...` for the boards the code uses."""
    text = "\n".join(code)
    out = [f"B{n} = B[{n}]" for n in boards_used(text)]
    if "Z[" in text:
        out.append("Z = st.z")
    return "; ".join(out)


class ExpressionCompiler:
    """Expressions to Python code; the tables of constants, spans and loop functions."""

    a: Analysis
    proc: Proc | None
    consts: dict[str, Any]
    const_ids: dict[str, str]
    spans: list[Span]
    proc_of_span: list[str]
    helpers: list[str]
    pyvars: list[str]
    tmp: int
    define_code: dict[tuple[str, int], tuple[list[str], str]]

    def const(self, value: Any) -> str:
        """A name in the generated module holding a constant value (shared, never mutated)."""
        key = repr(value)
        if key not in self.const_ids:
            name = f"K{len(self.const_ids)}"
            self.const_ids[key] = name
            self.consts[name] = value
        return self.const_ids[key]

    def sid(self, span: Span) -> int:
        self.spans.append(span)
        self.proc_of_span.append(self.proc.name if self.proc else "")
        return len(self.spans) - 1

    def fresh(self, stem: str) -> str:
        self.tmp += 1
        return f"_{stem}{self.tmp}"

    def domain(self, e: A.Expr) -> str:
        if isinstance(e, A.Binary) and e.op == "..":
            return f"range({self.expr(e.left)}, {self.expr(e.right)} + 1)"
        return self.expr(e)

    def need(self, code: str, span: Span, what: str) -> str:
        """`code`, with a clear error if it is none; literals and slots are not re-checked
        through a call."""
        if code.isdigit():
            return code
        if SIMPLE.match(code):
            return f"({code} if {code} is not None else _need(None, {self.sid(span)}, {what!r}))"
        return f"_need({code}, {self.sid(span)}, {what!r})"

    def zones_of_kind(self, e: A.Expr) -> tuple[int, ...]:
        """The numbers of every zone that holds components of the kind zone e holds: where
        `move x to Z` looks for x (components of different kinds share numbers)."""
        kind = self.a.zones[self.a.binding[id(e)][1]].kind
        return tuple(z.base + i for z in self.a.zones.values() if z.kind == kind
                     for i in range(self.a.max_players if z.per_player else 1))

    def zone_index(self, e: A.Expr) -> str:
        """The number of the zone an expression names (a zone of one player: base + p)."""
        b = self.a.binding[id(e)]
        zone = self.a.zones[b[1]]
        if isinstance(e, A.Of):
            return f"{zone.base} + {self.need(self.expr(e.obj), e.obj.span, 'the owner')}"
        return str(zone.base)

    def of_code(self, b: tuple, attr: str, obj: A.Expr) -> str:
        if b[0] == "field":
            return f"{self.const(self.a.kinds[b[1]].columns[b[2]])}[{self.expr(obj)}]"
        if b[0] == "face":
            return f"V[{self.a.dice[b[1]].base} + {self.expr(obj)}]"
        if b[0] == "piece":
            return f"B{self.a.board_index[b[1]]}[{self.expr(obj)}]"
        info = self.a.counters[attr]
        keys = obj.items if isinstance(obj, A.TupleLit) else [obj]
        index = str(info.base)
        stride = info.size
        for key, dim in zip(keys, info.dims):
            stride //= dim[2]
            code = self.expr(key)
            if dim[0] == "player":
                code = self.need(code, key.span, "the player")
            index += f" + {code}" if stride == 1 else f" + ({code}) * {stride}"
        return f"V[{index}]"

    def expr(self, e: Any) -> str:
        a = self.a
        if isinstance(e, (A.IntLit, A.BoolLit)):
            return repr(e.value)
        if isinstance(e, A.NoneLit):
            return "None"
        if isinstance(e, A.StrLit):
            parts = []
            for p in e.parts:
                if isinstance(p, str):
                    parts.append(repr(p))
                else:
                    parts.append(f"_show({self.expr(p)}, {self.const(a.type_of(p))})")
            return parts[0] if len(parts) == 1 else "(" + " + ".join(parts) + ")"
        if isinstance(e, A.PlayerLit):
            return str(e.number - 1)
        if isinstance(e, A.Name):
            return self.name(e)
        if isinstance(e, A.ListLit):
            return "[" + ", ".join(self.expr(i) for i in e.items) + "]"
        if isinstance(e, A.TupleLit):
            return "[" + ", ".join(self.expr(i) for i in e.items) + "]"
        if isinstance(e, A.Of):
            if a.binding[id(e)][0] == "zone":
                return f"list(Z[{self.zone_index(e)}])"
            return self.of_code(a.binding[id(e)], e.attr, e.obj)
        if isinstance(e, A.Index):
            xs, i, sid = self.expr(e.obj), self.expr(e.index), self.sid(e.span)
            if i.isdigit():
                tmp = self.fresh("w")
                return (f"({tmp}[{int(i) - 1}] if len({tmp} := {xs}) >= {i} "
                        f"else _idx({tmp}, {i}, {sid}))")
            return f"_idx({xs}, {i}, {sid})"
        if isinstance(e, A.Unary):
            op = "not " if e.op == "not" else "-"
            return f"({op}{self.expr(e.operand)})"
        if isinstance(e, A.Binary):
            return self.binary(e)
        if isinstance(e, A.IsEmpty):
            t = a.type_of(e.operand)
            inner = self.expr(e.operand)
            if isinstance(t, tuple) and t[0] == "cell":
                test = f"B{a.board_index[t[1]]}[{inner}] is None"
            else:
                test = f"not {inner}"
            return f"(not ({test}))" if e.negated else f"({test})"
        if isinstance(e, A.Cond):
            return f"({self.expr(e.then)} if {self.expr(e.test)} else {self.expr(e.otherwise)})"
        if isinstance(e, A.Quantifier):
            return self.quantifier(e)
        if isinstance(e, A.Aggregate):
            if e.kind == "sum":
                return self.loop_function(e, "sum")
            var = a.binding[id(e)][1]
            domain = self.domain(e.domain)
            self.pyvars.append(var)
            gen = f"{self.expr(e.expr)} for {var} in {domain}"
            if e.where is not None:
                gen += f" if {self.expr(e.where)}"
            self.pyvars.pop()
            return f"_extreme([{gen}], {self.sid(e.span)}, {e.kind!r})"
        if isinstance(e, A.ListComp):
            var = a.binding[id(e)][1]
            domain = self.domain(e.domain)
            self.pyvars.append(var)
            where = f" if {self.expr(e.where)}" if e.where is not None else ""
            value = self.expr(e.expr)
            self.pyvars.pop()
            return f"[{value} for {var} in {domain}{where}]"
        if isinstance(e, A.Call):
            return self.call(e)
        raise AssertionError(type(e))  # pragma: no cover

    def name(self, e: A.Name) -> str:
        b = self.a.binding[id(e)]
        kind = b[0]
        if kind == "local":
            return f"L[{b[1]}]"
        if kind == "py":
            return b[1]
        if kind == "value":
            v = b[1]
            return repr(v) if isinstance(v, (int, str, type(None))) else self.const(v)
        if kind == "counter":
            return f"V[{self.a.counters[e.name].base}]"
        if kind == "zone":
            return f"list(Z[{self.zone_index(e)}])"
        if kind == "board":
            return self.const(list(range(self.a.boards[e.name].size)))
        if kind == "dice":
            return self.const(list(range(self.a.dice[e.name].count)))
        if kind == "builtin":
            return {"current": "V[0]", "players": "st.pl", "player_count": "st.np",
                    "winner": "_winner(st)", "game_over": "(st.result is not None)"}[e.name]
        raise AssertionError(b)  # pragma: no cover

    def binary(self, e: A.Binary) -> str:
        left, right = self.expr(e.left), self.expr(e.right)
        op = e.op
        if op == "/":
            return f"_div({left}, {right}, {self.sid(e.span)})"
        if op == "%":
            return f"_mod({left}, {right}, {self.sid(e.span)})"
        if op == "..":
            return f"list(range({left}, {right} + 1))"
        return f"({left} {op} {right})"

    def empty_cells_test(self, e: Any) -> tuple[int, bool] | None:
        """(board, empty?) when e ranges over a whole board testing only whether each cell
        is empty: such a quantifier is a scan of the board's list, done in C."""
        dt = self.a.type_of(e.domain)
        w = e.where
        if (isinstance(dt, tuple) and dt[0] == "board" and isinstance(w, A.IsEmpty)
                and isinstance(w.operand, A.Name) and w.operand.name == e.var):
            return self.a.board_index[dt[1]], not w.negated
        return None

    def quantifier(self, e: A.Quantifier) -> str:
        scan = self.empty_cells_test(e)
        if scan is not None and e.kind in ("any", "all", "count"):
            board, empty = scan
            cells = f"B{board}"
            if e.kind == "count":
                n = f"{cells}.count(None)"
                return n if empty else f"(len({cells}) - {n})"
            if e.kind == "any":
                return f"(None in {cells})" if empty else f"({cells}.count(None) < len({cells}))"
            return f"({cells}.count(None) == len({cells}))" if empty else f"(None not in {cells})"
        var = self.a.binding[id(e)][1]
        domain = self.domain(e.domain)
        if e.kind == "count" and e.where is None:
            return f"len({domain})"
        if e.kind == "filter":
            self.pyvars.append(var)
            where = self.expr(e.where) if e.where is not None else "True"
            self.pyvars.pop()
            return f"[{var} for {var} in {domain} if {where}]"
        return self.loop_function(e, e.kind)

    def loop_function(self, e: Any, kind: str) -> str:
        """A quantifier or sum as a small generated function with a plain loop: faster
        than a generator expression, and it stops at the first item that decides."""
        var = self.a.binding[id(e)][1]
        domain = self.domain(e.domain)
        outer = list(dict.fromkeys(self.pyvars))
        slot = len(self.helpers)
        self.helpers.append("")  # reserved: quantifiers inside this one come after it
        name = f"Q{slot}"
        params = "".join(f", {v}" for v in outer)
        nested = (kind in ("any", "all") and isinstance(e.where, A.Quantifier)
                  and e.where.kind in ("any", "all"))
        if nested:
            self.helpers[slot] = self.nested_loops(name, params, e, var, domain)
            return f"{name}(st, V, L, B{params})"
        self.pyvars.append(var)
        # without `where`, every item counts: first(x in xs) is the first item
        where = self.expr(e.where) if e.where is not None else ("" if kind == "sum" else "True")
        value = self.expr(e.expr) if kind == "sum" else None
        self.pyvars.pop()
        body = {
            "any": (f"        if {where}: return True", "    return False"),
            "all": (f"        if not ({where}): return False", "    return True"),
            "count": (f"        if {where}: n += 1", "    return n"),
            "first": (f"        if {where}: return {var}", "    return None"),
            "sum": (f"        {'if ' + where + ': ' if where else ''}n += {value}",
                    "    return n"),
        }[kind]
        lines = [f"def {name}(st, V, L, B{params}):"]
        aliases = board_aliases([domain, where or "", value or ""])
        if aliases:
            lines.append("    " + aliases)
        if kind in ("count", "sum"):
            lines.append("    n = 0")
        lines += [f"    for {var} in {domain}:", body[0], body[1]]
        self.helpers[slot] = "\n".join(lines)
        return f"{name}(st, V, L, B{params})"

    def nested_loops(self, name: str, params: str, e: A.Quantifier, var: str,
                     domain: str) -> str:
        """`any`/`all` whose condition is itself `any`/`all`: two plain nested loops."""
        inner = e.where
        assert isinstance(inner, A.Quantifier)
        self.pyvars.append(var)
        ivar = self.a.binding[id(inner)][1]
        idomain = self.domain(inner.domain)
        self.pyvars.append(ivar)
        test = self.expr(inner.where) if inner.where is not None else "True"
        self.pyvars.pop()
        self.pyvars.pop()
        outer_any, inner_any = e.kind == "any", inner.kind == "any"
        lines = [f"def {name}(st, V, L, B{params}):"]
        aliases = board_aliases([domain, idomain, test])
        if aliases:
            lines.append("    " + aliases)
        lines += [f"    for {var} in {domain}:", f"        for {ivar} in {idomain}:"]
        if outer_any and inner_any:
            lines += [f"            if {test}: return True", "    return False"]
        elif not outer_any and not inner_any:
            lines += [f"            if not ({test}): return False", "    return True"]
        else:
            hit = f"if {test}: break" if inner_any else f"if not ({test}): break"
            decided = "return True" if outer_any else "return False"
            lines += [f"            {hit}", "        else:", f"            {decided}",
                      f"    return {not outer_any}"]
        return "\n".join(lines)

    def call(self, e: A.Call) -> str:
        b = self.a.binding[id(e)]
        args = [self.expr(x) for x in e.args]
        if b[0] == "define":
            inlined = self.inline(e.func, b[2], args)
            if inlined is not None:
                return inlined
            return f"D_{e.func}_{b[2]}(st{''.join(', ' + x for x in args)})"
        f = e.func
        sid = self.sid(e.span)
        if f in ("lines", "column", "row", "cell"):
            board_name = self.a.type_of(e.args[0])[1]
            board = self.a.boards[board_name]
            if f == "lines":
                n = self.const_int(e.args[1])
                if len(e.args) == 2:
                    return self.const(board.lines(n))
                return f"{self.const(board.lines_through(n))}[{args[2]}]"
            if f == "cell":
                return f"_cell({board.width}, {board.height}, {args[1]}, {args[2]}, {sid})"
            table = board.columns if f == "column" else board.rows
            k, name = args[1], self.const(table)
            if SIMPLE.match(k) or k.isdigit():
                return (f"({name}[{k} - 1] if 0 < {k} <= {len(table)} "
                        f"else _pick({name}, {k}, {sid}, {f!r}))")
            return f"_pick({name}, {k}, {sid}, {f!r})"
        if f in ("corners", "around", "pairs"):
            board = self.a.boards[self.a.type_of(e.args[0])[1]]
            lattice: Any = {"corners": getattr(board, "corners_of", None),
                            "around": getattr(getattr(board, "of", None), "around", None),
                            "pairs": getattr(board, "pairs", None)}[f]
            if f == "pairs":
                return self.const(lattice)
            return f"{self.const(lattice)}[{args[0]}]"
        if f in ("reach", "straight", "orthogonal"):
            name = self.a.type_of(e.args[0])[1]
            board = self.a.boards[name]
            cells = f"B{self.a.board_index[name]}"
            if f == "straight":
                return f"_straight({cells}, {self.const(board.rays)}, {args[0]}, {args[1]})"
            links = board.neighbours if f == "reach" else board.orthogonal_neighbours
            return f"_reach({cells}, {self.const(links)}, {args[0]}, {args[1]})"
        if f == "top":
            return f"_top(Z[{self.zone_index(e.args[0])}])"
        if f == "unique":
            return f"_uniq({args[0]})"
        if f == "neighbours":
            board = self.a.boards[self.a.type_of(e.args[0])[1]]
            return f"{self.const(board.neighbours)}[{args[0]}]"
        if f == "distance":
            board = self.a.boards[self.a.type_of(e.args[0])[1]]
            w = board.width
            a0, a1 = args
            if board.adjacency == "diagonal":
                return (f"max(abs({a0} % {w} - {a1} % {w}), "
                        f"abs({a0} // {w} - {a1} // {w}))")
            return f"(abs({a0} % {w} - {a1} % {w}) + abs({a0} // {w} - {a1} // {w}))"
        if f == "length":
            return f"len({args[0]})"
        if f == "next":
            return f"(({args[0]}) + 1) % st.np"
        if f == "previous":
            return f"(({args[0]}) - 1) % st.np"
        if f == "index":
            return f"({args[0]} + 1)"
        if f in ("abs", "max", "min", "sum"):
            return f"{f}({', '.join(args)})"
        raise AssertionError(f)  # pragma: no cover

    def inline(self, name: str, number: int, args: list[str]) -> str | None:
        """A short definition's body in place of its call (a Python call less), when each
        argument is a plain name or slot, or is used once. Expressions have no effects,
        so this changes nothing but speed."""
        known = self.define_code.get((name, number))
        if known is None:
            return None
        params, body = known
        if len(body) > INLINE_CHARS:
            return None
        parts = STRING.split(body)
        strings = STRING.findall(body)
        for p, arg in zip(params, args):
            uses = sum(len(re.findall(rf"\ba_{p}\b", part)) for part in parts)
            if uses > 1 and not (SIMPLE.match(arg) or arg.lstrip("-").isdigit()):
                return None
            parts = [re.sub(rf"\ba_{p}\b", lambda _m, a=arg: f"({a})", part)
                     for part in parts]
        out = parts[0]
        for s, part in zip(strings, parts[1:]):
            out += s + part
        # a number passed where a player must not be none needs no check
        out = LITERAL_NEED.sub(r"(\1)", out)
        return f"({out})"

    def const_int(self, e: A.Expr) -> int:
        """An argument the checker evaluated before the game (`n` of `lines(board, n)`)."""
        return int(self.a.constants[id(e)])
