"""Compile the statements that branch and loop: `if`, `for each`, `repeat`, `while`,
the turns.

Stage: compile. `Control` is the part of the `Compiler` (compiler.py) for control flow.
Without a pause inside, a branch or a loop is a native Python `if`, `for` or `while` in
the current block; with one (a decision, a roll, a call), it is split into blocks that
jump to each other (the head of a loop, its exit, the join after a branch), so that the
game can stop inside and go on from the block it stopped at. Loops count their turns as
work (the budget that stops a runaway rule).
"""

from __future__ import annotations

import ast
from typing import Any

from .. import ast as A
from ..check.types import ANY, INT, PLAYER, element, list_of
from ..diagnostics import Span
from . import emit as E
from . import flow
from .context import Generator, Handler, loop_depth
from .guards import guarded_test


class Control(Generator):
    """Branches, loops and turns."""

    def if_(self, s: A.If, pos: list) -> list:
        first = guarded_test(self, *s.branches[0]) or self.condition(s.branches[0][0], pos)
        branches = [(first, s.branches[0][1])]
        branches += [(self.expr(c), body) for c, body in s.branches[1:]]
        marks = [("branch", _through(c.span, body), "") for c, body in s.branches]
        if s.otherwise:
            marks.append(("branch", _through(s.otherwise[0].span, s.otherwise), "else"))
        return self.if_chain(branches, s.otherwise, pos, self.suspends(s), s.span, marks)

    def if_chain(self, branches: list, otherwise: list | None, pos: list, split: bool,
                 span: Span, marks: list[tuple[str, Span, str]]) -> list:
        """`marks`: the coverage point of each branch, then of `otherwise`."""
        chain: list[ast.If] = []
        for cond, _ in branches:
            node = E.if_(cond)
            if chain:
                chain[-1].orelse = [node]
            else:
                self.emit(pos, node)
            chain.append(node)
        if not split:
            for k, (node, (_, body)) in enumerate(zip(chain, branches)):
                self.point(node.body, *marks[k])
                self.stmts(body, node.body)
            if otherwise:
                self.point(chain[-1].orelse, *marks[-1])
                self.stmts(otherwise, chain[-1].orelse)
            return pos
        join = self.new_block(span)
        for k, (node, (_, body)) in enumerate(zip(chain, branches)):
            self.point(node.body, *marks[k])
            end = self.stmts(body, node.body)
            self.goto(end, join)
        if otherwise:
            self.point(chain[-1].orelse, *marks[-1])
            end = self.stmts(otherwise, chain[-1].orelse)
            self.goto(end, join)
        self.goto(pos, join)
        return join

    def loop_body(self, body: list, pos: list, kind: tuple) -> list:
        self.loops.append(kind)
        end = self.stmts(body, pos)
        self.loops.pop()
        return end

    def native_loop(self, s: Any) -> bool:
        """A loop without a pause inside runs as a Python loop, unless it and the loops in
        it are nested deeper than Python allows: then the whole nest runs as blocks, like a
        loop that pauses (a loop of blocks inside a Python loop would lose its place)."""
        return not self.suspends(s) and self.native + loop_depth(s) <= self.options.native_loops

    def native_body(self, body: list, pos: list) -> None:
        self.native += 1
        self.loop_body(body, pos, ("native",))
        self.native -= 1

    def tick(self, pos: list, span: Span, weight: int = 1) -> None:
        """One turn of a loop that cannot count its turns in advance."""
        self.emit(pos, *self.count_work(E.const(1), span, weight))

    def for_each(self, s: A.ForEach, pos: list) -> list:
        var = self.a.var_of[id(s)]
        if self.native_loop(s):
            items = self.fresh()
            # the items are counted as work before the loop: a huge range stops at once
            weight = self.body_weight(s.body) + self.calls(s.where)
            self.emit(pos, E.assign(E.store(items), self.domain_copy(s.domain)))
            if self.small(s.domain) is None:
                self.emit(pos, *self.count_work(E.call("len", E.name(items)), s.span, weight))
            loop = E.for_(self.local_store(self.slot(var)), E.name(items))
            self.emit(pos, loop)
            if s.where is not None:
                self.emit(loop.body, E.if_(E.not_(self.expr(s.where)), [ast.Continue()]))
            self.native_body(s.body, loop.body)
            return pos
        lst = self.new_slot(list_of(element(self.a.type_of(s.domain)) or ANY))
        idx = self.new_slot(INT)
        head, exit_ = self.new_block(s.span), self.new_block(s.span)
        self.emit(pos, E.assign(self.local_store(lst), E.call("list", self.domain(s.domain))),
                  E.assign(self.local_store(idx), E.const(0)))
        self.goto(pos, head)
        self.emit(head, E.if_(E.compare(self.local(idx), ">=", E.call("len", self.local(lst))),
                              [self.jump_to(exit_)]),
                  E.assign(self.local_store(self.slot(var)),
                           E.sub(self.local(lst), self.local(idx))),
                  E.aug(self.local_store(idx), "+", E.const(1)))
        self.tick(head, s.span, self.body_weight(s.body) + self.calls(s.where))
        if s.where is not None:
            self.emit(head, E.if_(E.not_(self.expr(s.where)),
                                  [self.jump_to(head)]))
        end = self.loop_body(s.body, head, ("flat", exit_))
        self.goto(end, head)
        return exit_

    def domain_copy(self, e: A.Expr) -> ast.expr:
        """A loop's items, taken before the loop runs: the body may move them."""
        d = self.domain(e)
        if isinstance(d, ast.Subscript) and isinstance(d.value, ast.Name) and d.value.id == "Z":
            return E.call("list", d)
        return d

    def repeat(self, s: A.Repeat, pos: list) -> list:
        if self.native_loop(s):
            if s.count is not None:
                count = self.fresh()
                self.emit(pos, E.assign(E.store(count), E.call("range", self.expr(s.count))),
                          *self.count_work(E.call("len", E.name(count)), s.span,
                                           self.body_weight(s.body)))
                loop: ast.stmt = E.for_(E.store(self.fresh()), E.name(count))
            else:
                loop = E.while_(E.const(True))
                self.tick(loop.body, s.span, self.body_weight(s.body))  # type: ignore[attr-defined]
            self.emit(pos, loop)
            self.native_body(s.body, loop.body)  # type: ignore[attr-defined]
            return pos
        head, exit_ = self.new_block(s.span), self.new_block(s.span)
        if s.count is not None:
            left = self.new_slot(INT)
            self.emit(pos, E.assign(self.local_store(left), self.expr(s.count)))
            self.emit(head, E.if_(E.compare(self.local(left), "<=", E.const(0)),
                                  [self.jump_to(exit_)]),
                      E.aug(self.local_store(left), "-", E.const(1)))
        self.tick(head, s.span, self.body_weight(s.body))
        self.goto(pos, head)
        end = self.loop_body(s.body, head, ("flat", exit_))
        self.goto(end, head)
        return exit_

    def while_loop(self, s: A.While, pos: list) -> list:
        if self.native_loop(s):
            loop = E.while_(self.expr(s.cond))
            self.emit(pos, loop)
            self.tick(loop.body, s.span, self.body_weight(s.body) + self.calls(s.cond))
            self.native_body(s.body, loop.body)
            return pos
        head, exit_ = self.new_block(s.span), self.new_block(s.span)
        self.goto(pos, head)
        test = guarded_test(self, s.cond, s.body) or self.expr(s.cond)
        self.emit(head, E.if_(E.not_(test), [self.jump_to(exit_)]))
        self.tick(head, s.span, self.body_weight(s.body) + self.calls(s.cond))
        end = self.loop_body(s.body, head, ("flat", exit_))
        self.goto(end, head)
        return exit_

    def turns_loop(self, s: A.Turns, pos: list) -> list:
        who, taken = self.new_slot(PLAYER), self.new_slot(INT)
        first_block = len(self.blocks)
        head, nxt, exit_ = (self.new_block(s.span), self.new_block(s.span),
                            self.new_block(s.span))
        # the first player is never none (an error at the turns, if it is), nor the players
        # after it: inside the turns, `current` is always a player (`current_is_set`)
        start = self.need(self.expr(s.start), s.start.span, "the first player") \
            if s.start is not None else E.const(0)
        self.emit(pos, E.assign(self.local_store(who), start),
                  E.assign(self.local_store(taken), E.const(0)))
        step = flow.turn_step(self, s, pos)  # 1 seat on, clockwise
        if s.direction is None:
            # the seat of the game's first turn, for figures by turn order
            # (`Game.first_player`); turns that may go anticlockwise are left out
            self.emit(pos, E.if_(E.compare(E.attr(E.name("st"), "first"), "is",
                                           E.const(None)),
                                 [E.assign(E.attr_store(E.name("st"), "first"),
                                           self.local(who))]))
        self.goto(pos, head)
        self.emit(head, E.assign(E.sub_store(E.name("V"), 0), self.local(who)))
        self.point(head, "turn", s.span)
        flow.round_start(self, s, head, who, taken, step)
        self.turns_next.append(nxt)
        self.turns_who.append((who, step))
        self.loops.append(("flat", exit_))
        native, self.native = self.native, 0
        end = self.stmts(s.body, head)
        self.native = native
        self.loops.pop()
        self.turns_next.pop()
        self.turns_who.pop()
        # the blocks of the turns, and of what they hold: a game resumed in one of them
        # has a current player (a save is held to it: saves.py)
        self.turns_blocks.update(range(first_block, len(self.blocks)))
        flow.round_end(self, s)
        for at in (end, nxt):
            if s.rounds is not None or s.at_once:
                self.emit(at, E.aug(self.local_store(taken), "+", E.const(1)))
            if s.rounds is not None:
                self.emit(at, E.if_(E.compare(self.local(taken), ">=", E.binop(
                    self.expr(s.rounds), "*", E.attr(E.name("st"), "np"))),
                    [self.jump_to(exit_)]))
            self.emit(at, E.assign(self.local_store(who), E.binop(
                E.binop(self.local(who), "+", step()), "%", E.attr(E.name("st"), "np"))))
            self.goto(at, head)
        return exit_

    def condition(self, c: A.Expr, pos: list) -> ast.expr:
        """The test of an `if`. An `any`/`all` test becomes a loop written into the block
        itself (no function call), leaving its answer in a flag."""
        if not (isinstance(c, A.Quantifier) and c.kind in ("any", "all") and c.where is not None
                and self.empty_cells_test(c) is None):
            return self.expr(c)
        flag = self.fresh()
        var = self.var_name(self.a.candidate[id(c)])
        items = self.fresh()
        outer_any = c.kind == "any"
        inner = c.where
        nested = isinstance(inner, A.Quantifier) and inner.kind in ("any", "all") \
            and inner.where is not None
        domain = self.domain(c.domain)
        counted = self.small(c.domain) is None
        parts = None if nested else E.plain_filter(domain)  # see `over_filter`
        self.emit(pos, E.assign(E.store(flag), E.const(not outer_any)))
        if parts is None:
            self.emit(pos, E.assign(E.store(items), domain))
            if counted:
                self.emit(pos, *self.count_work(E.call("len", E.name(items)), c.span,
                                                self.weight(c.where)))
        loop = E.for_(E.store(var), E.name(items))
        if nested:
            assert isinstance(inner, A.Quantifier) and inner.where is not None
            ivar = self.var_name(self.a.candidate[id(inner)])
            inner_items = self.fresh()
            inner_loop = E.for_(E.store(ivar), E.name(inner_items))
            count = [] if self.small(inner.domain) is not None else self.count_work(
                E.call("len", E.name(inner_items)), inner.span, self.weight(inner.where))
            loop.body += [E.assign(E.store(inner_items), self.domain(inner.domain)), *count,
                          inner_loop]
            test = self.expr(inner.where)
            inner_any = inner.kind == "any"
            inner_loop.body.append(E.if_(test if inner_any else E.not_(test), [ast.Break()]))
            if outer_any != inner_any:
                # the inner loop running to its end decides the outer one
                inner_loop.orelse = [E.assign(E.store(flag), E.const(outer_any)), ast.Break()]
                loop.orelse = []
            else:
                # the inner loop stopping early decides the outer one
                inner_loop.orelse = [ast.Continue()]
                loop.body += [E.assign(E.store(flag), E.const(outer_any)), ast.Break()]
        else:
            test = self.expr(inner)
            hit = test if outer_any else E.not_(test)
            loop.body.append(E.if_(hit, [E.assign(E.store(flag), E.const(outer_any)),
                                         ast.Break()]))
            if parts is not None:
                self.over_filter(loop, parts, self.count_work(
                    E.const(1), c.span, self.weight(c.where)) if counted else [])
        self.emit(pos, loop)
        return E.name(flag)


def _through(start: Span, body: list) -> Span:
    """From `start` to the end of a block: the place of a branch, its body included."""
    end = body[-1].span
    return start.model_copy(update={"end_line": end.end_line, "end_column": end.end_column})


HANDLERS: dict[type, Handler] = {
    A.If: Control.if_, A.ForEach: Control.for_each, A.Repeat: Control.repeat,
    A.While: Control.while_loop, A.Turns: Control.turns_loop,
}
