"""The types of the rules language's values, as plain data.

Stage: foundation. The checker works types out (check/types.py: which are compatible,
how they join, the built-ins' signatures); the compiled program carries them to the run
side (a decision's options, a frame's slots, a counter's values), which reads them to
show, save and check values. A type is a string for the simple ones ("int", "bool",
"text", "player", "none", "any") or a tuple naming what it belongs to: ("cell", board),
("board", board), ("die", dice set), ("enum", enum), ("comp", kind), ("zone", zone,
kind), ("list", element type), ("tuple", (types...)). "any" is compatible with
everything: a board cell may hold any piece.
"""

from __future__ import annotations

Type = str | tuple

INT, BOOL, TEXT, PLAYER, NONE, ANY = "int", "bool", "text", "player", "none", "any"


def list_of(t: Type) -> Type:
    return ("list", t)


def element(t: Type) -> Type | None:
    """What iterating over a value of type t gives, or None if it is not a collection."""
    if isinstance(t, tuple):
        if t[0] == "list":
            return t[1]
        if t[0] == "board":
            return ("cell", t[1])
        if t[0] == "zone":
            return ("comp", t[2])
    if t == ANY:
        return ANY
    return None
