"""What a rule file declares, as the run side reads it: the `Declared` record.

Stage: the contract between compile and run. The checker's `Analysis` holds everything it
learnt (the meaning of every name, the type of every expression, each procedure's body);
the run side needs only the declarations: the game's name and players, its counters,
dice, boards, kinds, zones and enums, its constants and settings, what its `display:`
blocks say, the procedures by name, and the few lines it reads facts off (`rank`,
`payoff`). The compiler makes it once (declare.py); views, saves, the sampler and the
Python API read this record and never the checker's `Analysis`.

The records of each declaration (`CounterInfo`, `KindInfo`, `DisplayInfo`...) are the
checker's own, defined once in rulesdsl/declarations.py and handed on as they are; this
module adds what the run side reads beside them (the procedures, the payoff line).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .. import ast as A
from ..boards.grids import SquareBoard
from ..declarations import CounterInfo, DiceInfo, DieInfo, DisplayInfo, EnumInfo, KindInfo, ZoneInfo
from ..diagnostics import Span
from ..valuetypes import Type


@dataclass(frozen=True)
class Procedure:
    """A block of rules run with its own locals (setup, play, a rule, an example), in the
    order of the program's procedures; an example's declaration with it."""

    kind: str
    name: str
    span: Span
    example: A.ExampleDecl | None = None


@dataclass(frozen=True)
class Payoff:
    """The `payoff` line: its bounds (None where it gives none), whether it is zero sum."""

    low: int | None
    high: int | None
    zero_sum: bool
    span: Span


@dataclass(frozen=True)
class Declared:
    """The declarations of one rule file, variants applied."""

    game_name: str
    path: str                # the rule file
    tree: A.RulesFile        # its syntax tree, for tools that read what it says
    min_players: int
    max_players: int
    team_size: int           # `teams of N`; 0: no teams
    limit: int               # decisions before the game ends as a draw at its limit
    values: dict[str, Any]   # constants and settings
    settings: list[str]      # the settings' names, in declaration order
    counters: dict[str, CounterInfo]
    dies: dict[str, DieInfo]
    dice: dict[str, DiceInfo]
    boards: dict[str, SquareBoard]
    holding: dict[str, Type]  # board -> what its cells hold
    kinds: dict[str, KindInfo]
    zones: dict[str, ZoneInfo]
    enums: dict[str, EnumInfo]
    display: DisplayInfo
    stats: dict[str, bool]    # statistic -> whether it is kept per player, in order
    procs: list[Procedure]
    rank_span: Span | None    # the `rank` line, where a failing rank key is reported
    payoff: Payoff | None

    def proc(self, kind: str, name: str = "") -> Procedure | None:
        """The procedure of that kind (and name), or None."""
        for p in self.procs:
            if p.kind == kind and (not name or p.name == name):
                return p
        return None
