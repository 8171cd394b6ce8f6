"""Compiling the flow of play: simultaneous secret steps, offers, points of the flow,
`expect options`, and the ranking of teams.

Stage: compile. Functions here take the code generator (`context.Generator`, which the
`Compiler` of compiler.py is) and build on its blocks, frame slots and decision sites; the
statements' handlers are in `HANDLERS`, which the compiler's table takes in:
- a secret step (`each p in players chooses in secret: ... then reveal: ...`) runs its
  first block once per seat, every decision in it secret and the seat's own, and keeps
  each seat's local names in a list of the frame (the held choices); once every seat has
  chosen, the reveal block runs per seat with them put back;
- an offer is a choice of the offering seat, then a menu `accept` / `refuse` for the
  seat offered to;
- a point starts a block of its own, which an example can start the game at;
- while a secret step or an `all at once` round is on, the blocks it makes belong to it
  (`FlowState.together`): a decision pending there names every seat still to choose.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

from .. import ast as A
from ..check.types import INT, PLAYER, list_of
from ..program.runtime import OPTIONS
from . import emit as E
from .context import Generator, Handler
from .distinct import distinct


def point_block(c: Generator, s: A.Point, pos: list) -> list:
    """A point starts a block of its own, where an example can start the game."""
    block = c.new_block(s.span)
    c.goto(pos, block)
    c.flow.points[s.name] = c.block_number(block)
    return block


def default_decider(c: Generator) -> ast.expr | None:
    """Who decides when a decision does not say: in a secret step, its seat."""
    return E.copy_tree(c.flow.seats[-1]) if c.flow.seats else None


# ---- secret steps --------------------------------------------------------------------------

def secret_step(c: Generator, s: A.SecretStep, pos: list) -> list:
    held = c.a.held[id(s)]
    seat = c.slot(c.a.var_of[id(s)])
    seats, k = c.new_slot(list_of(PLAYER)), c.new_slot(INT)
    kept = c.new_slot(list_of(("tuple", tuple(v.type for v in held))))
    slots = [c.slot(v) for v in held]
    L = c.local
    domain = c.domain(s.seats)
    # a list of its own (the seats' list may be the players' or a zone's)
    c.emit(pos, E.assign(c.local_store(seats), E.call(
               "list" if distinct(c.a, s.seats) else "_uniq", domain)),
           E.assign(c.local_store(k), E.const(0)),
           E.assign(c.local_store(kept), E.list_([])))
    head, reveal, exit_ = c.new_block(s.span), c.new_block(s.span), c.new_block(s.span)
    c.goto(pos, head)
    c.emit(head, E.if_(E.compare(L(k), ">=", E.call("len", L(seats))),
                       [E.assign(c.local_store(k), E.const(0)),
                        c.jump_to(reveal)]),
           E.assign(c.local_store(seat), E.sub(L(seats), L(k))),
           *[E.assign(c.local_store(x), E.const(None)) for x in slots])
    # the block runs for one seat at a time: its loops and turns are its own
    c.flow.regions.append((seats, k))
    c.flow.seats.append(L(seat))
    outer = c.loops, c.turns_next, c.native
    c.loops, c.turns_next, c.native = [], [], 0
    end = c.stmts(s.body, head)
    c.loops, c.turns_next, c.native = outer
    c.flow.seats.pop()
    c.flow.regions.pop()
    # a new list, never one changed in place: copies of the state share the old one
    c.emit(end, E.assign(c.local_store(kept), E.binop(L(kept), "+", E.list_(
        [E.list_(L(x) for x in slots)]))),
           E.aug(c.local_store(k), "+", E.const(1)))
    c.goto(end, head)
    c.emit(reveal, E.if_(E.compare(L(k), ">=", E.call("len", L(seats))),
                         [c.jump_to(exit_)]),
           E.assign(c.local_store(seat), E.sub(L(seats), L(k))),
           *[E.assign(c.local_store(x), E.sub(E.sub(L(kept), L(k)), i))
             for i, x in enumerate(slots)],
           E.aug(c.local_store(k), "+", E.const(1)))
    end = c.stmts(s.reveal or [], reveal)
    c.goto(end, reveal)
    return exit_


# ---- turn order ----------------------------------------------------------------------------

def turn_step(c: Generator, s: A.Turns, pos: list) -> Callable[[], ast.expr]:
    """How many seats on the next turn is: 1 (clockwise), or from `going d`, worked out
    once: 1 for clockwise, one less than the players for anticlockwise."""
    if s.direction is None:
        return lambda: E.const(1)
    step = c.new_slot(INT)
    np = E.attr(E.name("st"), "np")
    c.emit(pos, E.assign(c.local_store(step), E.ifexp(
        E.compare(c.need(c.expr(s.direction), s.direction.span, "the direction"), "==",
                  E.const(0)), E.const(1), E.binop(np, "-", E.const(1)))))
    return lambda: c.local(step)


def round_start(c: Generator, s: A.Turns, head: list, who: int, taken: int,
                step: Callable[[], ast.expr]) -> None:
    """`all at once`: at the first turn of each round, the seats of the round in order; the
    blocks of the body belong to the round (decisions there name the seats still to
    play)."""
    if not s.at_once:
        return
    seats, place = c.new_slot(list_of(PLAYER)), c.new_slot(INT)
    np = E.attr(E.name("st"), "np")
    c.emit(head, E.assign(c.local_store(place), E.binop(c.local(taken), "%", np)),
           E.if_(E.compare(c.local(place), "==", E.const(0)), [
               E.assign(c.local_store(seats), E.listcomp(E.binop(E.binop(
                   c.local(who), "+", E.binop(E.name("i"), "*", step())), "%",
                   E.copy_tree(np)), "i", E.call("range", E.copy_tree(np))))]))
    c.flow.regions.append((seats, place))


def round_end(c: Generator, s: A.Turns) -> None:
    if s.at_once:
        c.flow.regions.pop()


# ---- offers --------------------------------------------------------------------------------

def offer(c: Generator, s: A.Offer, pos: list) -> list:
    """The offering seat chooses what to offer (a `choose` of its own), then the seat
    offered to answers: `accept` (0) or `refuse` (1)."""
    from ..program.program import Site

    a = c.a
    var = a.var_of[id(s)]
    by, to, answer = c.new_slot(PLAYER), c.new_slot(PLAYER), c.new_slot(INT)
    c.emit(pos, E.assign(c.local_store(by), c.decider(s.by, s.span)))
    choice = A.Choose.make(span=s.span, name_span=s.name_span, var=s.var, optional=s.optional,
                      domain=s.domain, where=s.where, by=s.by, label=s.label,
                      done_label=s.done_label, body=None)
    a.var_of[id(choice)] = var
    a.candidate[id(choice)] = a.candidate[id(s)]
    asked = c.choose(choice, pos)
    after = c.new_block(s.span)
    if s.optional:  # nothing offered: nobody answers
        c.emit(asked, E.if_(E.compare(c.local(c.slot(var)), "is", E.const(None)),
                            [c.jump_to(after)]))
    c.emit(asked, E.assign(c.local_store(to), c.need(c.expr(s.to), s.to.span,
                                                     "who is offered")))
    by_seat = c.display.show
    menu: list[tuple[str, Any]] = []
    for word, accept in (("accept", True), ("refuse", False)):
        given = next((x for x in s.answers if x.accept == accept), None)
        if given is not None and given.label is not None:
            menu.append((word, c.label_function(given.label, None)))
        else:
            menu.append((word, _default_answer(word, by, by_seat)))
    site = Site("menu", c.proc_name, s.span, "int", answer, menu=menu, offered_by=by)
    answered = c.suspend_for(site, c.const([0, 1]), c.local(to), asked, s.span)
    branches = [(E.compare(c.local(answer), "==", E.const(0 if x.accept else 1)), x.body)
                for x in s.answers]
    split = any(c.suspends(x) for answer_ in s.answers for x in answer_.body)
    marks = [("option", x.span, "accept" if x.accept else "refuse") for x in s.answers]
    end = c.if_chain(branches, None, answered, split, s.span, marks)
    c.goto(end, after)
    return after


def _default_answer(word: str, by: int, show: Any) -> Any:
    """'accept the offer of player 2': an answer's label when the rules give none."""
    def label(st: Any, locals_: list, value: Any) -> str:
        return f"{word} the offer of {show(locals_[by], PLAYER)}"
    return label


# ---- examples ------------------------------------------------------------------------------

def expect_options(c: Generator, s: A.ExpectOptions, pos: list) -> list:
    """The example pauses with the ids to compare (the example runner compares them with
    the options of the game's pending decision)."""
    cont = c.new_block(s.span)
    c.emit(pos, E.assign(E.attr_store(E.name("st"), "replay"),
                         E.list_(E.const(x) for x in [s.mode, *s.ids])))
    c.pause(pos, cont, OPTIONS)
    return cont


def point_frames(c: Generator) -> dict[str, list[tuple[int, int]]]:
    """Each point's frames, from the play block down: (block to go on at, frame size)."""
    out = {}
    for name, chain in c.a.points.items():
        frames = []
        for key, node in chain:
            block = c.flow.points[name] if isinstance(node, A.Point) \
                else c.flow.call_cont[id(node)]
            frames.append((block, c.nlocals[key]))
        out[name] = frames
    return out


# ---- teams ---------------------------------------------------------------------------------

def team_rank_functions(c: Generator) -> tuple[E.Function, E.Function | None]:
    """RANK(st) for a game of teams: each team's keys, then each seat the rank of its team
    (1 and 2 for two teams); SCORE(st): each seat its team's first key, when it is a
    number."""
    from ..check.analysis import Proc

    rank, a = c.a.rank, c.a
    st = E.name("st")
    size = E.const(a.team_size)
    if rank is not None:
        c.proc = Proc("rank", "rank", [], [], rank.span)
        var = c.var_name(a.candidate[id(rank)])
        keys = [c.expr(k) for k in rank.keys]
        first = E.copy_tree(keys[0]) if a.type_of(rank.keys[0]) == INT else None
        c.proc = None
    else:
        var = "m"
        score = a.counters.get("score")
        per_player = score is not None and [d[0] for d in score.dims] == ["player"]
        keys = [E.call("sum", E.listcomp(E.sub(E.name("V"), E.binop(
            E.const(c.layout.counter["score"]), "+", E.name("p"))), "p", E.name(var)))] \
            if per_player else [E.const(0)]
        first = E.copy_tree(keys[0]) if per_player else None
    teams = E.call("_teams", st, size)
    body: list[ast.stmt] = [
        E.assign(E.store("g"), teams),
        E.assign(E.store("q"), E.listcomp(E.tuple_(keys), var, E.name("g"))),
        E.assign(E.store("r"), E.listcomp(E.binop(E.const(1), "+", E.call("sum", ast.GeneratorExp(
            elt=E.const(1), generators=[ast.comprehension(
                target=E.store("o"), iter=E.name("q"),
                ifs=[E.compare(E.name("o"), ">", E.name("k"))], is_async=0)]))),
            "k", E.name("q"))),
        E.return_(E.listcomp(E.sub(E.name("r"), E.binop(E.name("p"), "%", E.call(
            "len", E.name("g")))), "p", E.attr(st, "pl")))]
    score_fn = None
    if first is not None:
        score_fn = E.Function("SCORE", ["st"], [
            E.assign(E.store("g"), E.copy_tree(teams)),
            E.assign(E.store("s"), E.listcomp(first, var, E.name("g"))),
            E.return_(E.listcomp(E.sub(E.name("s"), E.binop(E.name("p"), "%", E.call(
                "len", E.name("g")))), "p", E.attr(st, "pl")))])
    return E.Function("RANK", ["st"], body), score_fn


HANDLERS: dict[type, Handler] = {
    A.SecretStep: secret_step, A.Offer: offer, A.Point: point_block,
    A.ExpectOptions: expect_options,
}
