"""The range a whole number stays in, known before the game: items of lists that need no
check.

Stage: compile (expressions.py asks `bounds` of the position in `xs[i]`). `xs[i]` checks
that i is between 1 and the length of xs, through a helper call, and fails with a clear
error when it is not. Often the rules themselves keep i in range: `Side[(index(g) + 1) /
2]` with g one of 8 Gariadons is Side 1 to 4; `FACING[(battle - 1) % 4 + 1]` is 1 to 4
whatever battle is; `column(grid, k)` with k chosen from `1..7` is a column of the
grid. When the range of i, worked out from the types and the constants, lies
within a table of the module, the item is read directly (`K3[(a0 + 2) // 2 - 1]`), with no
call. A value that is none still fails, as before, when it is used.
"""

from __future__ import annotations

from typing import Any

from .. import ast as A
from ..check.analysis import Analysis
from ..check.bindings import BuiltinRef, CounterRef, ValueRef, Var, VarRef
from .options import Options

Range = tuple[int, int]


def bounds(a: Analysis, e: Any, options: Options) -> Range | None:
    """The least and greatest value the whole number e can have, or None when unknown
    (an item of `lo..hi` known only with `options.range_items`)."""
    if isinstance(e, A.IntLit):
        return e.value, e.value
    ref = a.binding.get(id(e))
    if isinstance(e, A.Name) and isinstance(ref, ValueRef) and type(ref.value) is int:
        return ref.value, ref.value
    if isinstance(e, A.Name) and isinstance(ref, CounterRef):
        info = a.counters[e.name]
        if info.low is not None and info.high is not None:
            return info.low, info.high
        return None
    if isinstance(e, A.Name) and isinstance(ref, VarRef):
        return item_range(a, ref.var, options)
    if isinstance(e, A.Call) and isinstance(ref, BuiltinRef) and e.func == "index":
        return _positions(a, a.type_of(e.args[0]))
    if isinstance(e, A.Cond):
        then, other = bounds(a, e.then, options), bounds(a, e.otherwise, options)
        if then is None or other is None:
            return None
        return min(then[0], other[0]), max(then[1], other[1])
    if isinstance(e, A.Binary):
        return _binary(a, e, options)
    return None


def item_range(a: Analysis, var: Var, options: Options) -> Range | None:
    """The range of a variable that is an item of `lo..hi` (a loop's, a choice's, a
    comprehension's), never changed by `set` or `add`: from the least lo to the greatest
    hi. A game's save is held to it too (saves.py): a local out of it is a corrupt save."""
    if id(var) in a.assigned or not options.range_items:
        return None
    domain = a.item_of.get(id(var))
    if isinstance(domain, A.Binary) and domain.op == "..":
        low, high = bounds(a, domain.left, options), bounds(a, domain.right, options)
        if low is not None and high is not None:
            return low[0], high[1]
    return None


def _positions(a: Analysis, t: Any) -> Range | None:
    """index(x) for x of type t: 1 to the number of values."""
    if isinstance(t, tuple) and t[0] == "enum" and t[1] in a.enums:
        return 1, len(a.enums[t[1]].values)
    if isinstance(t, tuple) and t[0] == "cell" and t[1] in a.boards:
        return 1, a.boards[t[1]].size
    return None


def _binary(a: Analysis, e: A.Binary, options: Options) -> Range | None:
    right = bounds(a, e.right, options)
    if e.op == "%" and right is not None and right[0] == right[1] and right[0] > 0:
        return 0, right[0] - 1  # whatever the left side is (Python's % of a positive)
    left = bounds(a, e.left, options)
    if left is None or right is None:
        return None
    (lo, hi), (rlo, rhi) = left, right
    if e.op == "+":
        return lo + rlo, hi + rhi
    if e.op == "-":
        return lo - rhi, hi - rlo
    if e.op == "*":
        ends = [lo * rlo, lo * rhi, hi * rlo, hi * rhi]
        return min(ends), max(ends)
    if e.op == "/" and rlo == rhi and rlo > 0:
        return lo // rlo, hi // rlo
    return None
