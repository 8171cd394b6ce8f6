"""The `Declared` record made from the checker's `Analysis`, once per compiled rule file.

Stage: compile (the side of the contract the compiler writes; the run side reads the
record, declared.py, and never imports this module, nor anything of check/). The records
of the declarations are the checker's own (rulesdsl/declarations.py), handed on as they
are; only the procedures and the payoff line are read off into records of the run side's.
"""

from __future__ import annotations

from ..check.analysis import Analysis
from .declared import Declared, Payoff, Procedure


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
        counters=a.counters, dies=a.dies, dice=a.dice, boards=a.boards, holding=a.holding,
        kinds=a.kinds, zones=a.zones, enums=a.enums, display=a.display,
        stats={name: info.per_player for name, info in a.stats.items()},
        procs=[Procedure(p.kind, p.name, p.span, p.example) for p in a.procs],
        rank_span=a.rank.span if a.rank is not None else None, payoff=payoff)
