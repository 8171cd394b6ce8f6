"""What a rule file declares, as the run side reads it: the `Declared` record.

Stage: the contract between compile and run. The checker's `Analysis` holds everything it
learnt (the meaning of every name, the type of every expression, each procedure's body);
the run side needs only the declarations: the game's name and players, its counters,
dice, boards, kinds, zones and enums, its constants and settings, what its `display:`
blocks say, the procedures by name, and the few lines it reads facts off (`rank`,
`payoff`). The compiler copies them here once (declare.py); views, saves, the sampler and
the Python API read this record and never the checker's.

The records below carry the fields of the checker's records of the same name that the run
side reads, plain data all of them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .. import ast as A
from ..boards.grids import SquareBoard
from ..diagnostics import Span
from ..valuetypes import Type


@dataclass(frozen=True)
class CounterInfo:
    """A counter (also a statistic's tally): its keys, its slots, its values' type."""

    name: str
    # (kind, name, size, low): kind is player/enum/dice/kind, or number for a range of
    # numbers (its name as written, `2..12`; low its first number, 0 for the others)
    dims: list[tuple[str, str, int, int]]
    size: int
    type: Type
    init: Any
    low: int | None
    high: int | None
    secret: bool
    stat: bool = False  # a statistic's tally (`stat n`): the rules change it, never read it


@dataclass(frozen=True)
class DieInfo:
    name: str
    faces: list[Any]
    face_type: Type


@dataclass(frozen=True)
class DiceInfo:
    """A set of dice: `count` dice in all (a set per player: `per_seat` for each seat, at
    the most players), seen by everyone (`public`), their owner (`owner`) or nobody
    (`hidden`) until revealed."""

    name: str
    die: str
    count: int
    per_seat: int = 0
    visibility: str = "public"


@dataclass(frozen=True)
class KindInfo:
    """A kind of component: its fields, and each component's values (one list per field)."""

    name: str
    fields: list[str]
    columns: dict[str, list[Any]]
    types: dict[str, Type]
    count: int


@dataclass(frozen=True)
class ZoneInfo:
    """A zone: a list of components in the state (one per player with `per player`)."""

    name: str
    kind: str
    per_player: bool
    visibility: str


@dataclass(frozen=True)
class EnumInfo:
    """An enum: its values and their labels; a table's fields, one column per field."""

    name: str
    values: list[str]
    labels: list[str]
    fields: list[str] = field(default_factory=list)
    columns: dict[str, list[Any]] = field(default_factory=dict)
    types: dict[str, Type] = field(default_factory=dict)


@dataclass(frozen=True)
class DisplayInfo:
    """What the `display:` blocks say, by name: plain data a screen reads beside a view."""

    hidden: list[str] = field(default_factory=list)        # counters and zones not drawn
    labels: dict[str, str] = field(default_factory=dict)   # counter or zone -> its name
    groups: list[tuple[str, list[str]]] = field(default_factory=list)
    glyphs: dict[str, list[str]] = field(default_factory=dict)  # kind or enum -> per item
    owners: dict[str, str] = field(default_factory=dict)   # kind -> counter of its owner
    placers: list[str] = field(default_factory=list)       # boards whose pieces are the placer's
    # `ended RULE "words"`: why the game ended, by the place of each `win`, `draw` or
    # `end game` of the rule ("file:line:column")
    endings: dict[str, str] = field(default_factory=dict)
    rings: dict[str, str] = field(default_factory=dict)    # zone -> counter of its place
    names: dict[str, str] = field(default_factory=dict)    # kind -> the field naming each
    cells: dict[str, str] = field(default_factory=dict)    # board -> the noun of its cells
    seat_marks: list[str] = field(default_factory=list)    # a mark per seat, from player 1
    seat_colours: list[str] = field(default_factory=list)  # a colour per seat
    # kind -> (field, glyph, word) of each feature a component may show
    features: dict[str, list[tuple[str, str, str]]] = field(default_factory=dict)
    # board -> (cells, glyph, word) of each set of special cells it marks
    marks: dict[str, list[tuple[list[int], str, str]]] = field(default_factory=dict)
    # `ask` and `tell`, by "rule" (every decision of it) or "rule name" (one choice of it)
    asks: dict[str, str] = field(default_factory=dict)
    tells: dict[str, str] = field(default_factory=dict)
    # `pass forced`: the decisions with one option a screen takes without asking, by ""
    # (every one), "rule" or "rule name", as `ask` names them
    forced: list[str] = field(default_factory=list)


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
