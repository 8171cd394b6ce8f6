"""Calls of rules that never pause, compiled as plain Python calls.

Stage: compile (the compiler asks `call_kinds` once, and `plain_call` for each call of
such a rule). A call of a rule normally pushes a frame on the state's stack and returns
CALL; the run loop then runs the rule's blocks, pops the frame when the rule returns, and
calls the block that goes on after the call. That is what a rule that may wait for a
decision or a roll needs: its place in the rules must be plain data in the state. A rule
that can never wait (no decision, no roll, no `turns`, no point, and only calls of rules
that cannot wait either) compiles to a single block that always runs to its end, so its
call is a Python call of that block, with the rule's locals in a frame of its own that is
never on the stack:

    t5 = S12(st, [12, [L[3], None, None]])
    if t5 != -2:        # not RET: the rule ended the game (OVER)
        return t5

The code after the call goes on in the same block (no block of its own, no jump), and the
statements round the call stay native Python (an `if` or a loop with such a call in it is
not split into blocks). A parameter such a rule reads only in `say` lines (a description
for the log: `summon(e, "the {s} of the {spot of s} Gariadon")`) is worked out only while
the game is narrated (`told_only`, `when_told`): its frame lives only for the call, so the
log cannot be turned on while the rule waits. A rule that calls itself, directly or
through others, keeps its frames on the stack (the run loop bounds how deep they go), as
does a rule whose loops nest deeper than Python allows (it needs blocks of its own).
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .. import ast as A
from ..check.analysis import Analysis
from ..program.runtime import BLOCK_WORK, RET
from . import emit as E

ROLLS = (A.LetRoll, A.Roll)


@dataclass(frozen=True)
class CallKinds:
    """Which rules are called without the run loop: `plain` ones never pause; `chance`
    ones pause only for rolls (and call only plain and chance rules), so that while chance
    steps are rolled at once (`st.auto`) they never pause either."""

    plain: frozenset[str] = frozenset()
    chance: frozenset[str] = frozenset()
    # plain rule -> the positions of its parameters read only by `say` lines
    told_only: dict[str, frozenset[int]] = field(default_factory=dict)


def call_kinds(a: Analysis, pausing: tuple[type, ...],
               too_deep: Callable[[Any], bool]) -> CallKinds:
    """Which rules can never pause (no statement of `pausing` kinds in them, calls of
    rules aside, and only calls of rules that cannot pause, no loops nested deeper than
    `too_deep` allows), and which pause only for rolls. No rule in a circle of calls is
    either."""
    calls: dict[str, set[str]] = {}
    waits: dict[str, str] = {}  # "": never; "roll": only for chance steps; "other"
    for proc in a.procs:
        if proc.kind != "rule":
            continue
        called: set[str] = set()
        waiting = ""
        for s in A.statements_in(proc.body):
            if isinstance(s, A.CallRule):
                called.add(s.name)
            elif isinstance(s, ROLLS):
                waiting = waiting or "roll"
            elif isinstance(s, pausing):
                waiting = "other"
        if waiting == "" and any(too_deep(s) for s in proc.body):
            waiting = "roll"  # its loops need blocks: run as a rule that rolls is
        waits[proc.name] = waiting
        calls[proc.name] = called
    plain = _closure(calls, {n for n, w in waits.items() if w == ""}, set())
    chance = _closure(calls, {n for n, w in waits.items() if w != "other"}, plain)
    told = {proc.name: told_only(proc) for proc in a.procs
            if proc.kind == "rule" and proc.name in plain}
    return CallKinds(frozenset(plain), frozenset(chance - plain),
                     {name: found for name, found in told.items() if found})


def told_only(proc: Any) -> frozenset[int]:
    """The positions of the parameters that the rule's statements name only inside `say`
    lines (any other mention of the name, as a value, a target or a loop variable, and the
    parameter is needed)."""
    named: set[str] = set()
    _names_outside_say(proc.body, named)
    return frozenset(k for k, p in enumerate(proc.params) if p not in named)


def _names_outside_say(node: Any, out: set[str]) -> None:
    """Every text held by the tree (names, and any other text: more than needed, never
    less), but for what `say` lines hold."""
    if isinstance(node, A.Say):
        return
    if isinstance(node, A.Node):
        for key in type(node).model_fields:
            if key != "span":
                _names_outside_say(getattr(node, key), out)
    elif isinstance(node, (list, tuple)):
        for x in node:
            _names_outside_say(x, out)
    elif isinstance(node, str):
        out.add(node)


# what an argument may compute and still be left out when nobody reads it: reads, sums,
# comparisons and the showing of values (no call that draws, counts work or changes the
# state)
_QUIET = (ast.Constant, ast.Name, ast.Subscript, ast.BinOp, ast.IfExp, ast.Compare,
          ast.BoolOp, ast.UnaryOp, ast.Tuple, ast.List)


def when_told(arg: ast.expr) -> ast.expr:
    """A narration-only argument: worked out only while the game keeps a log (else none),
    when that saves work and the argument is quiet (see _QUIET)."""
    if E.is_simple(arg):
        return arg
    for node in E.nodes_of([arg]):
        if isinstance(node, ast.Call):
            if not (isinstance(node.func, ast.Name) and node.func.id == "_show"):
                return arg
        elif not isinstance(node, _QUIET):
            return arg
    return E.ifexp(E.compare(E.attr(E.name("st"), "log"), "is not", E.const(None)), arg,
                   E.const(None))


def _closure(calls: dict[str, set[str]], allowed: set[str], known: set[str]) -> set[str]:
    """The least fixed point: an allowed rule whose callees are all in it, or known. A
    circle of calls never gets in."""
    found = set(known)
    grew = True
    while grew:
        grew = False
        for name, called in calls.items():
            if name not in found and name in allowed and called <= found:
                found.add(name)
                grew = True
    return found


def plain_call(block: int, frame: ast.List, result: str) -> list[ast.stmt]:
    """The statements that run block `block` (a rule's only block) with the rule's locals
    `frame`, then go on, unless the rule ended the game."""
    run = E.call(f"S{block}", E.name("st"), E.list_([E.const(block), frame]))
    return [E.assign(E.store(result), run),
            E.if_(E.compare(E.name(result), "!=", E.const(RET)),
                  [E.return_(E.name(result))])]


def chance_call(block: int, frame: ast.List, names: tuple[str, str],
                count: Callable[[ast.expr], list[ast.stmt]], cont: ast.stmt) -> ast.If:
    """While chance steps are rolled at once, the statements that run a rule that pauses
    only for rolls through its blocks (each jump counted as work by `count`, as the run
    loop counts it) and go on at `cont`, unless it ended the game; while they wait, the call
    pushes a frame instead (the statements after this `if`). `names`: two fresh names,
    for what the rule returned and for its frame."""
    result, fr = names
    return E.if_(E.attr(E.name("st"), "auto"), [
        E.assign(E.store(fr), E.list_([E.const(block), frame])),
        E.assign(E.store(result), E.call(f"S{block}", E.name("st"), E.name(fr))),
        E.while_(E.compare(E.name(result), ">=", E.const(0)), [
            *count(E.const(BLOCK_WORK)),
            E.assign(E.store(result), E.call(E.sub(E.name("BLOCKS"), E.name(result)),
                                             E.name("st"), E.name(fr)))]),
        E.if_(E.compare(E.name(result), "!=", E.const(RET)), [E.return_(E.name(result))]),
        cont])
