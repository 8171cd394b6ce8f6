"""The records of what a rule file declares: its counters, dice, kinds, zones, enums and
what its `display:` blocks say.

Stage: shared (the vocabulary every stage reads). The checker builds them as it reads the
declarations (check/declarations.py, check/display.py) and keeps them in its `Analysis`;
the compiler hands the same records to the run side in the program's `Declared`
(program/declared.py, made by program/declare.py); views, saves and the sampler read
them there. One definition, so a new field is added once.

They are plain data and frozen: the checker fills their lists and tables while it reads a
declaration, and makes a new record (`dataclasses.replace`) where a later line changes a
field (a counter that a `stat` line makes a tally).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .diagnostics import Span
from .valuetypes import Type


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
    span: Span
    stat: bool = False  # a statistic's tally (`stat n`): the rules change it, never read it


@dataclass(frozen=True)
class DieInfo:
    """A kind of die: its faces, in order, and their type."""

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
    """An enum: its values and their labels; an enum that is a table also has fields, each
    a column of values (one per enum value, in order)."""

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
