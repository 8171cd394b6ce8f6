"""The statistics a rule file declares (`stat ...`), compiled: how a finished game reports
them.

Stage: compile. A tally (`stat battles`, `stat kills per player`) is a counter the rules
change; a measured statistic (`stat left = ...`, `stat held of p = ...`) is an expression
compiled here into the generated function `STATS(st)`, a list with one value per measured
statistic (a list by seat for one measured per player). `reader` puts both together:
`Game.statistics()` returns them by name, in the order the rule file declares them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..check.analysis import Analysis, Proc
from ..program.layout import Layout
from . import emit as E


def stats_function(compiler: Any) -> E.Function | None:
    """STATS(st): the measured statistics' values, or None when there are none."""
    a: Analysis = compiler.a
    values = []
    for info in a.stats.values():
        d = info.decl
        if d.value is None:
            continue
        compiler.proc = Proc("stat", d.name, [], [], d.span)
        value = compiler.expr(d.value)
        if info.var is not None:
            value = E.listcomp(value, compiler.var_name(info.var),
                               E.call("range", E.attr(E.name("st"), "np")))
        values.append(value)
    compiler.proc = None
    if not values:
        return None
    return E.Function("STATS", ["st"], [E.return_(E.list_(values))])


def reader(a: Analysis, layout: Layout, measured: Callable[[Any], list] | None
           ) -> Callable[[Any], dict[str, Any]] | None:
    """A function from a state to the statistics by name (None: the rules declare none)."""
    if not a.stats:
        return None
    tallies = {name: (layout.counter[name], info.per_player)
               for name, info in a.stats.items() if info.decl.value is None}

    def read(st: Any) -> dict[str, Any]:
        values = iter(measured(st) if measured is not None else [])
        out: dict[str, Any] = {}
        for name in a.stats:
            if name in tallies:
                base, per_player = tallies[name]
                out[name] = st.v[base:base + st.np] if per_player else st.v[base]
            else:
                out[name] = next(values)
        return out

    return read
