"""What a name means: the checker's resolution of every name, as typed references.

Stage: check. The checker records, for each name and each `of` in the rules, what it refers
to: a local variable, a counter, a zone, a board, a value known before the game, a field of
a component, a definition... These references say *what* a name is, never *where* it lives
in the state: the layout of the state (counter slots, zone numbers, frame slots) belongs to
the compile stage (`rulesdsl.program.layout` and the compiler).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .types import Type


class Var:
    """A name a block of rules binds: a parameter, `let`, `for each`, a choice, a roll, the
    item of a comprehension or of an `as soon as`, a definition's parameter.

    `frame` says where it lives while the game runs: True for names kept in the frame of the
    block of rules (they survive a pause for a decision), False for names that live inside
    one evaluation (a comprehension's item, a definition's parameter, a choice's candidate
    while its options are worked out). Each Var is its own object: two with one name are two
    variables."""

    __slots__ = ("name", "type", "frame")

    def __init__(self, name: str, type: Type, frame: bool):
        self.name = name
        self.type = type
        self.frame = frame

    def __repr__(self) -> str:
        return f"Var({self.name!r}, {self.type!r}, frame={self.frame})"


@dataclass(frozen=True)
class VarRef:
    var: Var


@dataclass(frozen=True)
class ValueRef:
    """A value known before the game: a constant, a setting, an enum value, a cell, the list
    of a kind's components or of an enum's values."""

    value: Any


@dataclass(frozen=True)
class CounterRef:
    name: str


@dataclass(frozen=True)
class ZoneRef:
    name: str


@dataclass(frozen=True)
class BoardRef:
    name: str


@dataclass(frozen=True)
class DiceRef:
    """A set of dice: the list of its dice."""

    name: str


@dataclass(frozen=True)
class DiceOfRef:
    """A player's set of dice: `cup of p`, the list of p's dice."""

    name: str


@dataclass(frozen=True)
class DieKindRef:
    """A kind of die, in `let r = roll d6`."""

    name: str


@dataclass(frozen=True)
class BuiltinRef:
    """A built-in name (`current`, `players`...) or function (`lines`, `top`...)."""

    name: str


@dataclass(frozen=True)
class FieldRef:
    """`field of c`: a field of a component of a kind."""

    kind: str
    field: str


@dataclass(frozen=True)
class FaceRef:
    """`face of d`: the face a die of a set shows."""

    dice: str


@dataclass(frozen=True)
class PieceRef:
    """`piece of c`: what stands on a cell of a board."""

    board: str


@dataclass(frozen=True)
class DefineRef:
    """A call of a definition, checked for one list of argument types (its instance)."""

    name: str
    instance: int


Ref = (VarRef | ValueRef | CounterRef | ZoneRef | BoardRef | DiceRef | DiceOfRef | DieKindRef
       | BuiltinRef | FieldRef | FaceRef | PieceRef | DefineRef)
