"""Lists whose items are known to differ: a choice among them needs no pass that drops
repeated items.

Stage: compile (sites.py asks `distinct` of a choice's domain). A choice offers each
value once (`_uniq` drops repeats). A zone holds each component at most once (a move
takes the component out of where it was before it puts it in), so a zone, the players, a
filter of either that keeps its items as they are, and a definition whose value is one of
these (on every branch of its `if ... then ... else`) never repeat an item, nor does a
list known before the game whose items differ (`[1, 2, 4]`, a constant's list), nor the
pairs of a board of triangles or the lines of n cells of a board, or the lines through a
cell, when the board's table of them holds each once (`lines(b, 1)` holds each cell four
times, once per direction): the choice offers them as they are, without building the list
a second time (for lists of lists, a pass that compares every two of them).
"""

from __future__ import annotations

from typing import Any

from .. import ast as A
from ..check.analysis import Analysis
from ..check.bindings import BuiltinRef, DefineRef, ValueRef, VarRef, ZoneRef


def distinct(a: Analysis, e: Any) -> bool:
    """Whether the list e's value never holds an item twice."""
    ref = a.binding.get(id(e))
    if isinstance(ref, ZoneRef) or isinstance(ref, BuiltinRef) and ref.name == "players":
        return True
    if isinstance(e, A.Quantifier) and e.kind == "filter":
        return distinct(a, e.domain)
    if isinstance(e, A.ListComp):  # [x for x in xs where ...]: the items themselves
        item = a.binding.get(id(e.expr))
        return (isinstance(item, VarRef) and item.var is a.candidate.get(id(e))
                and distinct(a, e.domain))
    if isinstance(ref, ValueRef) and isinstance(ref.value, list):  # a constant list
        return _differ(ref.value)
    if isinstance(e, A.ListLit):
        values = [_known(a, x) for x in e.items]
        return len(e.items) <= 1 or (None not in values and _differ(values))
    if isinstance(e, A.Cond):
        return distinct(a, e.then) and distinct(a, e.otherwise)
    if isinstance(e, A.Call) and isinstance(ref, DefineRef):
        return distinct(a, a.define_instances[ref.instance].body)
    if isinstance(e, A.Call) and isinstance(ref, BuiltinRef) and e.func in ("pairs", "lines"):
        table = _table(a, e)
        return table is not None and _differ(table)
    return False


def _table(a: Analysis, e: A.Call) -> list | None:
    """The board's table `pairs(b)`, `lines(b, n)` or `lines(b, n, c)` takes its items from
    (the lines through a cell are some of the lines of n cells); None when it is not known
    before the game."""
    t = a.type_of(e.args[0])
    board = a.boards.get(t[1]) if isinstance(t, tuple) and len(t) > 1 else None
    if e.func == "pairs":
        return getattr(board, "pairs", None)
    n = a.constants.get(id(e.args[1])) if len(e.args) > 1 else None
    if board is None or type(n) is not int or not hasattr(board, "lines"):
        return None
    return board.lines(n)


def _known(a: Analysis, e: Any) -> Any:
    """The value of an item known before the game (a number, a text, a constant, an enum
    value), in a box so that none is a value too; None when it is not known."""
    if isinstance(e, A.IntLit):
        return (e.value,)
    if isinstance(e, A.StrLit) and all(isinstance(p, str) for p in e.parts):
        return ("".join(e.parts),)  # type: ignore[arg-type]
    ref = a.binding.get(id(e))
    if isinstance(ref, ValueRef):
        return (ref.value,)
    if id(e) in a.constants:
        return (a.constants[id(e)],)
    return None


def _differ(values: list) -> bool:
    """Whether no two of the values are equal (values of other kinds, a list among them,
    are compared by what they show)."""
    shown = [repr(v) for v in values]
    return len(set(shown)) == len(shown)
