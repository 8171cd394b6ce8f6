"""Run-time helpers of whole numbers: division, bounds, their size, max and min of a list,
a number that keys a counter.

Stage: program (see helpers/__init__.py). The code generation is compile/builtins.py's
(`abs`, `max`, `min`, `sum`) and compile/expressions.py's (operators, counters' bounds).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...limits import MAX_NUMBER
from .faults import Faults


def bind(faults: Faults) -> dict[str, Callable[..., Any]]:
    err = faults.err
    _too_big = faults.too_big

    def _div(a: int, b: int, sid: int) -> int:
        if b == 0:
            raise err("R003", "division by zero", sid)
        return a // b

    def _mod(a: int, b: int, sid: int) -> int:
        if b == 0:
            raise err("R003", "remainder of a division by zero", sid)
        return a % b

    def _bounded(value: int, low: int, high: int, name: str, sid: int) -> int:
        if not low <= value <= high:
            raise err("R005", f"{name} would become {value}, outside {low} to {high}", sid)
        return value

    def _extreme(values: list, sid: int, kind: str) -> Any:
        if not values:
            raise err("R003", f"{kind} of nothing", sid)
        return max(values) if kind == "max" else min(values)

    def _n(value: Any, sid: int) -> Any:
        if value is not None and not -MAX_NUMBER <= value <= MAX_NUMBER:
            raise _too_big(value, sid)
        return value

    def _number_key(key: int, low: int, size: int, counter: str, sid: int) -> int:
        if not low <= key < low + size:
            raise err("R003", f"{counter} is kept per number from {low} to "
                      f"{low + size - 1}, and {key} is not one of them", sid)
        return key - low

    return {"_div": _div, "_mod": _mod, "_bounded": _bounded, "_extreme": _extreme,
            "_n": _n, "_too_big": _too_big, "_number_key": _number_key}
