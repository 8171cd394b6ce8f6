"""The `Declared` record made from the checker's `Analysis`, once per compiled rule file.

Stage: compile (the side of the contract the compiler writes; the run side reads the
record, declared.py, and never imports this module, nor anything of check/).
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any, TypeVar

from ..check.analysis import Analysis
from .declared import (
    CounterInfo,
    Declared,
    DiceInfo,
    DieInfo,
    DisplayInfo,
    EnumInfo,
    KindInfo,
    Payoff,
    Procedure,
    ZoneInfo,
)

R = TypeVar("R")


def _copy(record: type[R], info: Any) -> R:
    """The run side's record of a checker's record: the fields it reads."""
    return record(**{f.name: getattr(info, f.name) for f in fields(record)})  # type: ignore[arg-type]


def _copies(record: type[R], table: dict[str, Any]) -> dict[str, R]:
    return {name: _copy(record, info) for name, info in table.items()}


def declare(a: Analysis) -> Declared:
    """What the run side needs of a checked rule file (one without errors)."""
    payoff = None
    if a.payoff is not None:
        low, high = a.payoff_bounds
        payoff = Payoff(low, high, a.payoff.zero_sum, a.payoff.span)
    return Declared(
        game_name=a.game_name, path=a.file.path, tree=a.file,
        min_players=a.min_players, max_players=a.max_players, team_size=a.team_size,
        limit=a.limit, values=a.values, settings=list(a.settings),
        counters=_copies(CounterInfo, a.counters), dies=_copies(DieInfo, a.dies),
        dice=_copies(DiceInfo, a.dice), boards=a.boards, holding=a.holding,
        kinds=_copies(KindInfo, a.kinds), zones=_copies(ZoneInfo, a.zones),
        enums=_copies(EnumInfo, a.enums), display=_copy(DisplayInfo, a.display),
        stats={name: info.per_player for name, info in a.stats.items()},
        procs=[Procedure(p.kind, p.name, p.span, p.example) for p in a.procs],
        rank_span=a.rank.span if a.rank is not None else None, payoff=payoff)
