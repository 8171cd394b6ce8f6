"""Compile the statements that change the game or end it, and the dispatch by statement.

Stage: compile. `Statements` is the part of the `Compiler` (compiler.py) that walks a list
of statements: `stmt` counts a costly statement's work before it runs and hands the
statement to the handler of its class (the table `Compiler.handlers`, built once from
each part's `HANDLERS`); the handlers here write straight-line code (`let`, `set`, `add`,
`place`, `move`, `say`, the ends of the game...) into the current block, and a call of a
rule pauses the block (or runs in place, for a plain rule: plain.py).
"""

from __future__ import annotations

import ast
from typing import Any

from .. import ast as A
from ..check.bindings import CounterRef, VarRef, ZoneRef
from ..check.types import ANY, INT, element
from ..diagnostics import Span
from ..program.runtime import CALL, OVER, REPLAY
from . import emit as E
from .context import Generator, Handler
from .plain import chance_call, plain_call, when_told
from .tiles import clear_tile, place_tile


class Statements(Generator):
    """Statement lists, the work they do, and the statements that run straight through."""

    # ---- dispatch -------------------------------------------------------------------------

    def stmts(self, body: list, pos: list) -> list:
        for s in body:
            pos = self.stmt(s, pos)
        return pos

    def stmt(self, s: Any, pos: list) -> list:
        saved = self.cur_sid
        self.cur_sid = self.sid(s.span)
        try:
            cost = self.stmt_work(s)
            if cost >= self.options.costly_calls:
                # definitions that call each other many times: the work is counted before
                # it is done, so 2^40 calls stop at once
                self.emit(pos, *self.count_work(E.const(cost), s.span))
            handler = self.handlers.get(type(s))
            if handler is None:  # not a statement (every statement class has a handler)
                raise TypeError(f"the compiler has no handler for {type(s).__name__}")
            return handler(self, s, pos)
        finally:
            self.cur_sid = saved

    def own_calls(self, s: Any) -> int:
        """The calls of definitions a statement's own expressions make (not its body's)."""
        if isinstance(s, A.If):
            return sum(self.calls(c) for c, _ in s.branches)
        if isinstance(s, A.ChooseMenu):
            return sum(self.calls(o.cond) for o in s.options)
        return sum(self.calls(getattr(s, key)) for key in type(s).model_fields
                   if key not in ("span", "body", "label", "done_label"))

    def stmt_work(self, s: Any) -> int:
        """The work a statement does that no loop counts as it runs: its expressions', and
        a small loop's (over at most SMALL items known before the game) whole."""
        work = self.own_calls(s)
        if isinstance(s, A.ForEach) and not self.suspends(s):
            small = self.small(s.domain)
            if small is not None:
                work += small * (self.calls(s.where) + self.body_weight(s.body))
        return work

    def body_weight(self, body: list) -> int:
        """The work of one turn of a loop with this body: 1, and the work its statements
        do outside the loops inside it that count their own."""
        total = 1
        for s in body:
            total += self.stmt_work(s)
            if isinstance(s, A.If):
                total += sum(self.body_weight(b) for _, b in s.branches)
                total += self.body_weight(s.otherwise or [])
            elif isinstance(s, (A.Choose, A.ChooseAny)) and s.body:
                total += self.body_weight(s.body)
            elif isinstance(s, A.ChooseMenu):
                total += sum(self.body_weight(o.body) for o in s.options)
            elif isinstance(s, A.Step):
                total += self.body_weight(s.body)
        return total

    # ---- statements ------------------------------------------------------------------------

    def let(self, s: A.Let, pos: list) -> list:
        a = self.a
        self.emit(pos, E.assign(self.local_store(self.slot(a.var_of[id(s)])),
                                self.checked_number(s.value)))
        return pos

    def set_(self, s: A.Set, pos: list) -> list:
        a = self.a
        self.assign(s.target, self.checked_number(s.value), pos, s.span)
        if not isinstance(a.binding[id(s.target)], VarRef):
            self.after_change(pos)
        return pos

    def add(self, s: A.Add, pos: list) -> list:
        a = self.a
        self.points_scored(s, pos)
        current = self.target_code(s.target)
        value = E.binop(current, "-" if s.negate else "+", self.expr(s.amount))
        self.assign(s.target, self.checked(value, s.span), pos, s.span)
        if not isinstance(a.binding[id(s.target)], VarRef):
            self.after_change(pos)
        return pos

    def place_piece(self, s: A.Place, pos: list) -> list:
        self.place(s, pos)
        self.after_change(pos)
        return pos

    def clear(self, s: A.Clear, pos: list) -> list:
        a = self.a
        if clear_tile(self, s) is not None:
            self.emit(pos, clear_tile(self, s))  # type: ignore[arg-type]
            self.after_change(pos)
            return pos
        cell_t = a.type_of(s.cell)
        board = self.board_cells(cell_t[1]) if isinstance(cell_t, tuple) else E.name("B0")
        self.emit(pos, E.assign(E.sub_store(board, self.expr(s.cell)), E.const(None)))
        self.after_change(pos)
        return pos

    def shuffle(self, s: A.Shuffle, pos: list) -> list:
        st = E.name("st")
        self.emit(pos, E.expr_stmt(E.call("_shuffle", st, self.zone_number(s.zone))))
        self.after_change(pos)
        return pos

    def move(self, s: A.Move, pos: list) -> list:
        st = E.name("st")
        source = self.zone_number(s.source) if s.source is not None else E.const(None)
        among = E.tuple_(E.const(n) for n in self.zones_of_kind(s.dest)) \
            if s.source is None else E.tuple_([])
        self.emit(pos, E.expr_stmt(E.call(
            "_move", st, self.expr(s.item), source, self.zone_number(s.dest),
            E.const(self.sid(s.span)), among)))
        dest = self.a.binding[id(s.dest)]
        if isinstance(dest, ZoneRef) and self.a.zones[dest.name].visibility == "bag":
            # in a bag, what goes in goes to a random place: the top is a blind draw
            self.emit(pos, E.expr_stmt(E.call("_bag", st, self.zone_number(s.dest))))
        self.after_change(pos)
        return pos

    def win(self, s: A.Win, pos: list) -> list:
        a = self.a
        st = E.name("st")
        self.point(pos, "end", s.span)
        winner = self.need(self.expr(s.player), s.span, "the winner")
        teams = [E.const(a.team_size)] if a.team_size else []  # the winner's team wins
        self.emit(pos, E.assign(E.attr_store(st, "result"),
                                E.call("_win", st, winner, *teams)),
                  self.ending(s.span), E.return_(E.const(OVER)))
        return pos

    def draw(self, s: A.Draw, pos: list) -> list:
        st = E.name("st")
        self.point(pos, "end", s.span)
        self.emit(pos, E.assign(E.attr_store(st, "result"),
                                E.binop(E.list_([E.const(1)]), "*", E.attr(st, "np"))),
                  self.ending(s.span), E.return_(E.const(OVER)))
        return pos

    def end_game(self, s: A.EndGame, pos: list) -> list:
        st = E.name("st")
        self.point(pos, "end", s.span)
        self.emit(pos, E.assign(E.attr_store(st, "result"), E.call("RANK", st)),
                  self.ending(s.span), E.return_(E.const(OVER)))
        return pos

    def end_turn(self, s: A.EndTurn, pos: list) -> list:
        self.goto(pos, self.turns_next[-1])
        return pos

    def next_turn(self, s: A.NextTurn, pos: list) -> list:
        st = E.name("st")
        # the turns move `who` one step on when this turn ends: one step back from P
        who, step = self.turns_who[-1]
        player = self.need(self.expr(s.player), s.player.span, "who plays the next turn")
        self.emit(pos, E.assign(self.local_store(who), E.binop(E.binop(
            player, "-", step()), "%", E.attr(st, "np"))))
        return pos

    def break_(self, s: A.Break, pos: list) -> list:
        loop = self.loops[-1]
        if loop[0] == "native":
            self.emit(pos, ast.Break())
        else:
            self.goto(pos, loop[1])
        return pos

    def say(self, s: A.Say, pos: list) -> list:
        a = self.a
        st = E.name("st")
        # a line of the log: (who is told it, None for everyone; its text)
        to: ast.expr = E.const(None)
        if s.to is not None:
            if isinstance(a.type_of(s.to), tuple):
                to = E.call("tuple", E.call("_uniq", self.expr(s.to)))
            else:
                to = E.tuple_([self.need(self.expr(s.to), s.to.span, "who is told")])
        self.emit(pos, E.if_(E.compare(E.attr(st, "log"), "is not", E.const(None)), [
            E.expr_stmt(E.call("_say", st, to, self.expr(s.text),
                               E.const(self.sid(s.span))))]))
        return pos

    def reveal(self, s: A.Reveal, pos: list) -> list:
        """`reveal dice`: each die's flag set, until it is rolled again."""
        t = self.a.type_of(s.dice)
        one = isinstance(t, tuple) and t[0] == "die"
        name = t[1] if one else element(t)[1]  # type: ignore[index]
        first = E.const(self.layout.shown[name])
        dice = E.list_([self.expr(s.dice)]) if one else self.expr(s.dice)
        self.emit(pos, E.for_(E.store("d"), dice, [E.assign(
            E.sub_store(E.name("V"), E.binop(first, "+", E.name("d"))), E.const(1))]))
        return pos

    def pass_(self, s: A.Pass, pos: list) -> list:
        self.emit(pos, ast.Pass())
        return pos

    def step(self, s: A.Step, pos: list) -> list:
        return self.stmts(s.body, pos)

    def replay(self, s: A.Replay, pos: list) -> list:
        st = E.name("st")
        cont = self.new_block(s.span)
        self.emit(pos, E.assign(E.attr_store(st, "replay"),
                                E.list_(E.const(c) for c in s.choices)))
        self.pause(pos, cont, REPLAY)
        return cont

    def ending(self, span: Span) -> ast.stmt:
        """`st.ending = sid`: which rule ended the game, for statistics (`Game.ended_at`)."""
        return E.assign(E.attr_store(E.name("st"), "ending"), E.const(self.sid(span)))

    def checked(self, value: ast.expr, span: Span) -> ast.expr:
        """A whole number that arithmetic made, checked to stay within bounds when it is
        kept."""
        return E.call("_n", value, E.const(self.sid(span)))

    def checked_number(self, e: A.Expr) -> ast.expr:
        value = self.expr(e)
        if self.a.type_of(e) in (INT, ANY) and self.grows(e):
            return self.checked(value, e.span)
        return value

    def place(self, s: A.Place, pos: list) -> None:
        """`place p at c`, or at each cell of a list (a piece covering several cells)."""
        tile = place_tile(self, s, self.expr(s.turn) if s.turn is not None else E.const(0))
        if tile is not None:
            self.emit(pos, tile)
            return
        cell_t = self.a.type_of(s.cell)
        several = isinstance(cell_t, tuple) and cell_t[0] == "list"
        board_t = element(cell_t) if several else cell_t
        cells = self.board_cells(board_t[1]) if isinstance(board_t, tuple) else E.name("B0")
        cell, piece = self.fresh(), self.fresh()
        sid = E.const(self.sid(s.span))
        self.emit(pos, E.assign(E.store(piece), self.expr(s.piece)))
        occupied = E.raise_(E.call("_occupied", sid))
        if several:
            many = self.fresh()
            self.emit(pos, E.assign(E.store(many), self.expr(s.cell)),
                      E.if_(E.call("any", ast.GeneratorExp(
                          elt=E.compare(E.sub(cells, E.name(cell)), "is not", E.const(None)),
                          generators=[ast.comprehension(target=E.store(cell),
                                                        iter=E.name(many), ifs=[],
                                                        is_async=0)])), [occupied]),
                      E.for_(E.store(cell), E.name(many), [
                          E.assign(E.sub_store(E.copy_tree(cells), E.name(cell)),
                                   E.name(piece))]))
            return
        self.emit(pos, E.assign(E.store(cell), self.expr(s.cell)),
                  E.if_(E.compare(E.sub(cells, E.name(cell)), "is not", E.const(None)),
                        [occupied]),
                  E.assign(E.sub_store(E.copy_tree(cells), E.name(cell)), E.name(piece)))

    def after_change(self, pos: list) -> None:
        """After a change of the game, the 'as soon as' blocks get their turn."""
        if self.a.triggers and self.proc is not None and self.proc.kind != "trigger":
            self.emit(pos, E.if_(E.call("TRIGGERS", E.name("st")),
                                 [E.return_(E.const(OVER))]))

    def target_code(self, t: A.Target) -> ast.expr:
        ref = self.a.binding[id(t)]
        if isinstance(ref, VarRef):
            return self.var(ref.var)
        if isinstance(ref, CounterRef) and t.of is None:
            return E.sub(E.name("V"), self.layout.counter[t.name])
        assert t.of is not None
        return self.of_code(ref, t.name, t.of)

    def assign(self, t: A.Target, value: ast.expr, pos: list, span: Span) -> None:
        ref = self.a.binding[id(t)]
        if isinstance(ref, CounterRef):
            info = self.a.counters[t.name]
            if info.low is not None:
                value = E.call("_bounded", value, E.const(info.low), E.const(info.high),
                               E.const(t.name), E.const(self.sid(span)))
        target = self.target_code(t)
        assert isinstance(target, ast.Subscript)
        target.ctx = ast.Store()
        self.emit(pos, E.assign(target, value))

    def expect(self, s: A.Expect, pos: list) -> list:
        self.expect_part(s.cond, s.span, pos)
        return pos

    def expect_part(self, c: A.Expr, span: Span, pos: list) -> None:
        """The check of an expectation, or of one side of an `and` in it: each side is
        checked in turn (as `and` evaluates them), so a failure names and underlines the
        side that is false."""
        if isinstance(c, A.Binary) and c.op == "and":
            self.expect_part(c.left, c.left.span, pos)
            self.expect_part(c.right, c.right.span, pos)
            return
        sid = E.const(self.sid(span))
        text = self.text_of(c.span)
        if isinstance(c, A.Binary) and c.op in ("==", "!=", "<", ">", "<=", ">="):
            lt, rt = self.a.type_of(c.left), self.a.type_of(c.right)
            left, right = self.fresh(), self.fresh()
            self.emit(pos, E.assign(E.store(left), self.expr(c.left)),
                      E.assign(E.store(right), self.expr(c.right)))
            detail = E.binop(E.binop(E.binop(
                E.const(text + ": the left side is "), "+",
                E.call("_show", E.name(left), self.const(lt))), "+",
                E.const(", the right side ")), "+", E.call("_show", E.name(right), self.const(rt)))
            self.emit(pos, E.if_(E.not_(E.compare(E.name(left), c.op, E.name(right))), [
                E.expr_stmt(E.call("_expect", E.const(False), sid, detail))]))
        else:
            self.emit(pos, E.expr_stmt(E.call("_expect", self.expr(c), sid,
                                              E.const(text + " is false"))))

    def call_rule(self, s: A.CallRule, pos: list) -> list:
        key = ("rule", s.name)
        locals_ = E.list_(self.expr(x) for x in s.args)
        self.padding.append((locals_, key))
        if s.name in self.calls_to.plain:
            told = self.calls_to.told_only.get(s.name, ())
            locals_.elts = [when_told(x) if k in told else x for k, x in enumerate(locals_.elts)]
            self.emit(pos, *plain_call(self.entries[key], locals_, self.fresh()))
            return pos
        cont = self.new_block(s.span)
        if s.name in self.calls_to.chance:
            frame = E.copy_tree(locals_)
            self.padding.append((frame, key))
            self.emit(pos, chance_call(self.entries[key], frame, (self.fresh(), self.fresh()),
                                       lambda n: self.count_work(n, s.span),
                                       self.jump_to(cont)))
        self.flow.call_cont[id(s)] = self.block_number(cont)  # where a point's game goes on
        self.emit(pos, E.expr_stmt(E.method(E.attr(E.name("st"), "stack"), "append",
                                            E.list_([E.const(self.entries[key]), locals_]))))
        self.pause(pos, cont, CALL)
        return cont


HANDLERS: dict[type, Handler] = {
    A.Let: Statements.let, A.Set: Statements.set_, A.Add: Statements.add,
    A.Place: Statements.place_piece, A.Clear: Statements.clear,
    A.Shuffle: Statements.shuffle, A.Move: Statements.move, A.Win: Statements.win,
    A.Draw: Statements.draw, A.EndGame: Statements.end_game,
    A.EndTurn: Statements.end_turn, A.NextTurn: Statements.next_turn,
    A.Break: Statements.break_, A.Say: Statements.say, A.Expect: Statements.expect,
    A.Pass: Statements.pass_, A.Step: Statements.step, A.CallRule: Statements.call_rule,
    A.Replay: Statements.replay, A.Reveal: Statements.reveal,
}
