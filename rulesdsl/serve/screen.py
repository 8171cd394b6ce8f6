"""How to draw a rule file's game: the shapes the page draws views onto.

Stage: serving. What a rule file declares, not what a game holds: each board's cells with
where they sit (a square grid's columns and rows, a triangle's three corners, a
crossing's point, a ring's positions round a circle), each zone (rows of cards, per player
or shared), counters (per player or shared) and dice. The page fills these shapes from
each view it is sent; nothing here depends on a game's state, so it is the same for every
seat.

Everything is named as the rule file names it, refined by its display declaration (how
the screen names and groups things, which counters are bookkeeping, glyphs, owners,
zones drawn as rings); `display` is the one place here that reads it.
"""

from __future__ import annotations

import math
from typing import Any

from ..boards.grids import CornerBoard, RingBoard, SquareBoard, TriangleBoard
from ..boards.territory import TerritoryBoard
from ..interpreter.game import Rules
from .faces import faces, special_cells

SQRT3 = math.sqrt(3)


def _point(q: int, r: int) -> list[float]:
    """A lattice point (axial q, r) on the page, one triangle's edge being 1."""
    return [round(q + r / 2, 4), round(r * SQRT3 / 2, 4)]


def board_shape(name: str, board: Any, holding: str | None) -> dict[str, Any]:
    if isinstance(board, SquareBoard):
        return {"name": name, "kind": "square", "width": board.width,
                "height": board.height, "diagonal": board.adjacency == "diagonal",
                "cells": [[board.names[c], *board.xy(c)] for c in range(board.size)],
                "holding": holding}
    if isinstance(board, TriangleBoard):
        points = [_point(q, r) for q, r in board.corner_xy]
        return {"name": name, "kind": "triangles", "holding": holding,
                "cells": [[board.names[i], [points[c] for c in corners]]
                          for i, corners in enumerate(board.corners_of)],
                "corners": [[n, p] for n, p in zip(board.corner_names, points)]}
    if isinstance(board, CornerBoard):
        return {"name": name, "kind": "corners", "of": board.of.name, "holding": holding,
                "cells": [[n, _point(q, r)] for n, (q, r) in
                          zip(board.names, board.of.corner_xy)]}
    if isinstance(board, RingBoard):  # positions round a circle of radius 1, y downwards
        return {"name": name, "kind": "ring", "open": board.open, "holding": holding,
                "cells": [[n, list(p)] for n, p in zip(board.names, board.spots)]}
    return {"name": name, "kind": "cells", "holding": holding,  # a board drawn as a list
            "cells": [[n] for n in board.names]}


def territory_shape(rules: Rules, name: str, board: TerritoryBoard) -> dict[str, Any]:
    """A territory of tiles: the cells of one player's territory (every player's has the
    same), and how each tile looks: its edges' and centre's terrains (north, east, south,
    west, as printed) and the sides where a road ends."""
    looks = rules.tiles(name)
    return {"name": name, "kind": "territory", "width": board.width, "height": board.height,
            "per_player": board.seats > 1, "holding": board.kind,
            "cells": [[board.names[c], *board.xy(c)] for c in range(board.cells_per_seat)],
            "tiles": {tile: {"edges": edges, "centre": centre, "roads": roads}
                      for tile, (edges, centre, roads) in looks.items()}}


NO_DISPLAY: dict[str, Any] = {"hidden": [], "labels": {}, "groups": [], "glyphs": {},
                              "owners": {}, "rings": {}}


def display(rules: Rules) -> dict[str, Any]:
    """The rule file's display declaration as plain data (hidden, labels, groups, glyphs,
    owners, rings: `Rules.display`; none for rules without one). A kind whose
    owner is not declared takes its one counter kept per component that holds a player,
    when it has exactly one (Cleromancy's `owner per Die`)."""
    declared = getattr(rules, "display", None)
    out = dict(declared) if isinstance(declared, dict) else dict(NO_DISPLAY)
    owners = dict(out.get("owners") or {})
    held: dict[str, list[str]] = {}
    for name, shape in rules.counters.items():
        kind = shape.keys[0] if len(shape.keys) == 1 else None
        if shape.holds == "player" and kind is not None and _is_kind(rules, kind):
            held.setdefault(kind, []).append(name)
    for kind, names in held.items():
        if len(names) == 1:
            owners.setdefault(kind, names[0])
    out["owners"] = owners
    return out


def _is_kind(rules: Rules, name: str) -> bool:
    try:
        rules.components(name)
    except KeyError:
        return False
    return True


def headings(rules: Rules, keys: tuple[str, ...]) -> list[str] | None:
    """The headings of a counter's one key besides the player (an enum's values, a kind's
    components, as views name them), for the page to draw it as a table; None for a
    counter with no such key, or more than one."""
    rest = keys[1:] if keys[:1] == ("player",) else keys
    if len(rest) != 1:
        return None
    key = rest[0]
    try:
        return rules.enum(key)
    except KeyError:
        pass
    try:
        return rules.labels(key)
    except KeyError:   # a set of dice: its dice by number
        return None


def screen(rules: Rules) -> dict[str, Any]:
    """The shapes of a rule file's game, as plain JSON for the page."""
    return {
        "display": display(rules),
        "game": rules.name,
        "boards": [territory_shape(rules, name, shape.geometry)
                   if isinstance(shape.geometry, TerritoryBoard)
                   else board_shape(name, shape.geometry, shape.holding)
                   for name, shape in rules.boards.items()],
        "zones": [{"name": name, "kind": z.kind, "per_player": z.per_player,
                   "visibility": z.visibility} for name, z in rules.zones.items()],
        "counters": [{"name": name, "keys": list(c.keys), "secret": c.secret,
                      "headings": headings(rules, c.keys)}
                     for name, c in rules.counters.items()],
        "faces": faces(rules),
        "special": special_cells(rules),
    }
