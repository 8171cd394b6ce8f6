"""Run-time helpers of lists: items by place, sorting, joining, subsets, ranges.

Stage: program (see helpers/__init__.py). The code generation of `length`, `flatten`,
`sort`, `unique` and `top` is compile/builtins.py's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...limits import MAX_ITEMS
from .faults import Faults

MAX_SUBSET_ITEMS = 12


def _uniq(xs: Any) -> list:
    try:
        return list(dict.fromkeys(xs))
    except TypeError:
        out: list = []
        for x in xs:
            if x not in out:
                out.append(x)
        return out


def _first(pair: tuple[Any, Any]) -> Any:
    return pair[0]


def bind(faults: Faults) -> dict[str, Callable[..., Any]]:
    err = faults.err

    def _idx(xs: list, i: int, sid: int) -> Any:
        if not 1 <= i <= len(xs):
            raise err("R003", f"item {i} of a list of {len(xs)} (lists count from 1)", sid)
        return xs[i - 1]

    def _subsets(xs: list, sid: int) -> list[list]:
        if len(xs) > MAX_SUBSET_ITEMS:
            raise err("R006", f"choosing any of {len(xs)} items gives {2 ** len(xs)} "
                      "options; split it into smaller choices", sid)
        return [[x for i, x in enumerate(xs) if mask >> i & 1] for mask in range(1 << len(xs))]

    def _sort(pairs: list[tuple[Any, Any]], sid: int) -> list:
        """The items of (key, item) pairs, by their keys (ties keep their order)."""
        try:
            pairs.sort(key=_first)
        except TypeError:
            raise err("R003", "sorting by none, or by keys of different kinds", sid) from None
        return [item for _, item in pairs]

    def _range(low: int, high: int, sid: int) -> list[int]:
        if high - low >= MAX_ITEMS:
            raise err("R008", f"the list {low}..{high} would hold {high - low + 1:,} items "
                      f"(at most {MAX_ITEMS:,})", sid)
        return list(range(low, high + 1))

    def _concat(xs: list, ys: list, sid: int) -> list:
        if len(xs) + len(ys) > MAX_ITEMS:
            raise err("R008", f"joining lists of {len(xs):,} and {len(ys):,} items: a list "
                      f"holds at most {MAX_ITEMS:,}", sid)
        return [*xs, *ys]

    def _flatten(lists: Any, sid: int) -> list:
        out: list = []
        for xs in lists:
            out.extend(xs)
            if len(out) > MAX_ITEMS:
                raise err("R008", f"the lists joined would hold more than {MAX_ITEMS:,} "
                          "items", sid)
        return out

    return {"_idx": _idx, "_subsets": _subsets, "_uniq": _uniq,
            "_sort": _sort, "_range": _range, "_concat": _concat, "_flatten": _flatten}
