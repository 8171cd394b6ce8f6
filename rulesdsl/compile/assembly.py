"""The module's assembly: each procedure compiled into blocks, the blocks tidied, and the
module's other functions (ranks, scores, statistics, heuristics, triggers).

Stage: compile. `Assembly` is the part of the `Compiler` (compiler.py) that makes the
whole generated module: every procedure's first block first (so that their numbers are
known to calls), then their statements; each block folded and memoised (fold.py,
memo.py); short blocks copied in place of the jumps to them (`inline_jumps`), and the
blocks then only jumped to left out (`live_blocks`); the functions' aliases of the state's
lists written at their tops (`finish`).
"""

from __future__ import annotations

import ast
from typing import Any

from .. import ast as A
from ..check.analysis import Proc
from ..check.types import INT
from ..diagnostics import Span
from ..program.runtime import OVER, RET
from . import emit as E
from . import flow
from .context import Generator
from .fold import fold
from .memo import memoize
from .statistics import stats_function
from .unroll import unroll


class Assembly(Generator):
    """The generated module, whole."""

    def module(self) -> tuple[ast.Module, list[int]]:
        """The generated module, and the rule each of its lines came from (a span id)."""
        a = self.a
        for n, proc in enumerate(a.procs):
            self.proc_number = n
            self.entries[(proc.kind, proc.name)] = len(self.blocks)
            self.new_block(proc.span)
        for n, proc in enumerate(a.procs):
            self.proc_number = n
            self.compile_proc(proc)
        triggers = self.triggers_function() if a.triggers else None
        for frame, key in self.padding:  # the callee's other locals start as none
            frame.elts += [E.const(None) for _ in range(self.nlocals[key] - len(frame.elts))]
        for block in self.blocks:  # once, before short blocks are copied into others
            block.body = memoize(block.name, fold(block.body))  # see fold.py and memo.py
        self.inline_jumps()
        rank, score = flow.team_rank_functions(self) if a.team_size else self.rank_functions()
        stats = stats_function(self)
        heuristic = self.per_seat_function("HEURISTIC", self.a.heuristic)
        payoff = self.per_seat_function("PAYOFF", self.a.payoff)
        functions = [*self.functions, rank, *([score] if score else []),
                     *([stats] if stats else []), *([heuristic] if heuristic else []),
                     *([payoff] if payoff else []),
                     *([triggers] if triggers else [])]
        live = self.live_blocks(functions)
        functions += [fn for n, fn in enumerate(self.blocks) if n in live]
        module = ast.Module(body=[self.finish(fn) for fn in functions], type_ignores=[])
        module.body.append(E.assign(E.store("BLOCKS"), E.list_(
            E.name(fn.name) if n in live else E.const(None)
            for n, fn in enumerate(self.blocks))))
        return module, E.number_lines(module)

    def live_blocks(self, others: list[E.Function]) -> set[int]:
        """The blocks the game can run, once short blocks are written in place of the jumps
        to them: those it may be at between steps (each procedure's first block and every
        block numbered by `block_number`), and those a jump left in a live block (or in one
        of the `others`, the module's functions but the blocks) goes to. The others (35 of
        Cromlech's 200, a tenth of its code) are not written into the module: BLOCKS holds
        none at their numbers, which nothing reaches (a save whose stack points at one is
        refused, saves.py)."""
        if not self.options.live_only:
            return set(range(len(self.blocks)))
        live = set(self.roots) | set(self.entries.values())
        todo = [self.blocks[n].body for n in live] + [fn.body for fn in others]
        while todo:
            for target in E.jumps(todo.pop()):
                if target not in live:
                    live.add(target)
                    todo.append(self.blocks[target].body)
        return live

    def compile_proc(self, proc: Proc) -> None:
        self.proc = proc
        self.frame_slots = {v: i for i, v in enumerate(proc.vars)}
        self.nslots = len(proc.vars)
        self.slot_types = {i: v.type for i, v in enumerate(proc.vars)}
        self.frame_types.append(self.slot_types)
        self.slot_ranges: dict[int, tuple[int, int]] = {}
        self.slot_names: dict[int, str] = {}
        for i, v in enumerate(proc.vars):
            self.name_slot(i, v)
        self.frame_ranges.append(self.slot_ranges)
        self.frame_names.append(self.slot_names)
        self.cur_sid = self.sid(proc.span)
        key = (proc.kind, proc.name)
        pos = self.blocks[self.entries[key]].body
        self.point(pos, proc.kind, proc.span, proc.name)
        pos = self.stmts(proc.body, pos)
        self.cur_sid = self.sid(proc.span)
        if proc.kind == "play":
            self.emit(pos, E.assign(E.attr_store(E.name("st"), "result"),
                                    E.call("RANK", E.name("st"))),
                      E.return_(E.const(OVER)))
        else:
            self.emit(pos, E.return_(E.const(RET)))
        self.nlocals[key] = self.nslots
        self.proc = None

    def finish(self, fn: E.Function) -> ast.FunctionDef:
        """The function with the aliases it reads defined at its top."""
        if fn.name[:1] != "S":  # blocks were done before inline_jumps
            fn.body = memoize(fn.name, fold(fn.body))  # see fold.py and memo.py
        if self.options.unroll:
            fn.body = unroll(fn.body, fn.params)  # see unroll.py
        read, bound = E.names(fn.body)
        used = read - set(fn.params) - bound
        prologue: list[ast.stmt] = []
        st = E.name("st")
        if "V" in used:
            prologue.append(E.assign(E.store("V"), E.attr(st, "v")))
        if "L" in used:
            assert "fr" in fn.params, fn.name
            prologue.append(E.assign(E.store("L"), E.sub(E.name("fr"), 1)))
        if "Z" in used:
            prologue.append(E.assign(E.store("Z"), E.attr(st, "z")))
        boards = sorted(int(n[1:]) for n in used if n[:1] == "B" and n[1:].isdigit())
        for n in boards:
            prologue.append(E.assign(E.store(f"B{n}"), E.sub(E.attr(st, "b"), n)))
        return fn.node(prologue)

    def inline_jumps(self) -> None:
        """Write the code of a short block in place of a jump to it: one Python call less
        per jump. The block stays, for the other places that jump or resume there."""
        originals = [fn.body for fn in self.blocks]
        sizes = [E.statements(body) for body in originals]
        # a block that only returns (`return -2`: the rule's end) is written in place of
        # every jump to it, however deep: it is no longer than the jump
        ends = {n for n, body in enumerate(originals) if len(body) == 1 and isinstance(
            body[0], ast.Return) and isinstance(body[0].value, ast.Constant)
            and E.jump_target(body[0]) is None}

        def expand(body: list, depth: int) -> list:
            """The statements with the jumps in them expanded; the originals are left as
            they are (a statement whose body changes is a new one), as they are copied
            again for each jump to them."""
            out: list = []
            for s in body:
                target = E.jump_target(s)
                if target in ends:
                    out.append(E.copy_tree(originals[target][0]))
                    continue
                if target is not None and depth < self.options.inline_depth and \
                        sizes[target] <= self.options.inline_statements:
                    out.extend(expand(E.copy_tree(originals[target]), depth + 1))
                    continue
                changed: dict[str, list] = {}
                for fld in ("body", "orelse"):
                    inner = getattr(s, fld, None)
                    if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                        changed[fld] = expand(inner, depth)
                out.append(E.replaced(s, **changed) if changed else s)
            return out

        expanded = [expand(body, 0) for body in originals]
        for fn, body in zip(self.blocks, expanded):
            fn.body = body

    def initial_counters(self) -> list[Any]:
        v: list[Any] = [None] * self.layout.nslots
        for name, info in self.a.counters.items():
            base = self.layout.counter[name]
            for k in range(info.size):
                v[base + k] = info.init
        for name, dice in self.a.dice.items():
            faces = self.a.dies[dice.die].faces
            base = self.layout.dice[name]
            for k in range(dice.count):
                v[base + k] = faces[0]
            if name in self.layout.shown:
                first = self.layout.shown[name]
                v[first:first + dice.count] = [0] * dice.count
        return v

    def rank_functions(self) -> tuple[E.Function, E.Function | None]:
        """RANK(st): each seat's rank; SCORE(st): the first rank key, when it is a number."""
        rank = self.a.rank
        self.proc = Proc("rank", "rank", [], [], rank.span if rank else Span.make())
        if rank is None:
            score = self.a.counters.get("score")
            var = "r"
            if score is not None and [dim[0] for dim in score.dims] == ["player"]:
                keys: list[ast.expr] = [E.sub(E.name("V"), E.binop(
                    E.const(self.layout.counter["score"]), "+", E.name(var)))]
            else:
                keys = [E.const(0)]
            first = None
        else:
            var = self.var_name(self.a.candidate[id(rank)])
            keys = [self.expr(k) for k in rank.keys]
            first = E.copy_tree(keys[0]) if self.a.type_of(rank.keys[0]) == INT else None
        self.proc = None
        players = E.call("range", E.attr(E.name("st"), "np"))
        body: list[ast.stmt] = [
            E.assign(E.store("q"), E.listcomp(E.tuple_(keys), var, players)),
            E.return_(E.listcomp(
                E.binop(E.const(1), "+", E.call("sum", ast.GeneratorExp(
                    elt=E.const(1), generators=[ast.comprehension(
                        target=E.store("o"), iter=E.name("q"),
                        ifs=[E.compare(E.name("o"), ">", E.name("k"))], is_async=0)]))),
                "k", E.name("q")))]
        score_fn = None
        if first is not None:
            # a game ranked by a number first (a score kept by definitions, say) reports it
            score_fn = E.Function("SCORE", ["st"], [E.return_(E.listcomp(
                first, var, E.copy_tree(players)))])
        return E.Function("RANK", ["st"], body), score_fn

    def per_seat_function(self, name: str,
                          h: A.HeuristicDecl | A.PayoffDecl | None) -> E.Function | None:
        """HEURISTIC(st) or PAYOFF(st): each seat's number from the `heuristic` or `payoff`
        line, if there is one."""
        if h is None:
            return None
        kind = name.lower()
        self.proc = Proc(kind, kind, [], [], h.span)
        var = self.var_name(self.a.candidate[id(h)])
        value = self.expr(h.value)
        self.proc = None
        return E.Function(name, ["st"], [E.return_(E.listcomp(
            value, var, E.call("range", E.attr(E.name("st"), "np"))))])

    def triggers_function(self) -> E.Function:
        """TRIGGERS(st): run every 'as soon as' block for each item that meets its
        condition, again and again until none does; True when one ended the game."""
        loop_body: list[ast.stmt] = [E.assign(E.store("f"), E.const(False))]
        for proc in self.a.triggers:
            d = proc.trigger
            assert d is not None
            self.proc = proc
            var = self.var_name(self.a.candidate[id(d)])
            domain, where = self.domain(d.domain), self.expr(d.where)
            entry = self.entries[(proc.kind, proc.name)]
            rest = self.nlocals[(proc.kind, proc.name)] - 1
            frame = E.list_([E.const(entry), E.binop(
                E.list_([E.name(var)]), "+",
                E.binop(E.list_([E.const(None)]), "*", E.const(rest)))])
            loop_body.append(E.for_(E.store(var), E.call("list", domain), [
                E.if_(where, [
                    *self.count_work(E.const(1), d.span),
                    E.if_(E.compare(E.call(f"S{entry}", E.name("st"), frame), "==",
                                    E.const(OVER)), [E.return_(E.const(True))]),
                    E.assign(E.store("f"), E.const(True))])]))
        self.proc = None
        body = [E.assign(E.store("f"), E.const(True)),
                E.while_(E.name("f"), loop_body), E.return_(E.const(False))]
        return E.Function("TRIGGERS", ["st"], body)
