"""Run-time helpers of zones: the top item, moving a component, shuffling, bags.

Stage: program (see helpers/__init__.py). The code generation of `top` is
compile/builtins.py's; `move`, `shuffle` and bags are statements (compile/compiler.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...limits import WORK_BUDGET
from .faults import Faults


def _top(zone: list) -> Any:
    return zone[0] if zone else None


def _bag(st: Any, n: int) -> None:
    """What went last into bag n goes to a random place in it."""
    zone = st.own_zone(n)
    if len(zone) > 1:
        zone.insert(st.rand(len(zone)), zone.pop())


def _shuffle(st: Any, n: int) -> None:
    zone = st.own_zone(n)
    for i in range(len(zone) - 1, 0, -1):
        j = st.rand(i + 1)
        zone[i], zone[j] = zone[j], zone[i]


def bind(faults: Faults) -> dict[str, Callable[..., Any]]:
    err = faults.err
    _stuck = faults.stuck

    def _move(st: Any, item: Any, source: int | None, dest: int, sid: int,
              among: tuple[int, ...] = ()) -> None:
        # the state knows which zone holds the item (State.at; `among`, the zones of its
        # kind, is where it may be); taking it out of that zone is a scan of the zone,
        # counted as work (a quarter of a step per component), so moving a huge kind is
        # R001, not minutes of scanning
        if item is None:
            raise err("R007", "there is nothing to move (the zone is empty?)", sid)
        # (State.own_zone and own_index written out: a move is the commonest change)
        k = st.zk[dest]
        at = st.at[k]
        held = at[item]
        if source is not None and held != source:
            raise err("R007", "moving a component out of a zone that does not hold it", sid)
        z = st.z
        if held >= 0:
            zone = z[held] if st.zown >> held & 1 else st.own_zone(held)
            st.steps += len(zone) >> 2
            if st.steps > WORK_BUDGET:
                raise _stuck(sid)
            zone.remove(item)
        if not st.aown >> k & 1:
            at = st.own_index(k)
        at[item] = dest
        (z[dest] if st.zown >> dest & 1 else st.own_zone(dest)).append(item)

    return {"_top": _top, "_bag": _bag, "_shuffle": _shuffle, "_move": _move}
