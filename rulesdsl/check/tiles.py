"""Checking tile territories: the built-in functions' arguments and result types, and
whether a territory's kind can be its tiles.

Stage: check. A territory (`board land: territory 9 x 9 of Tile edges n, e, s, w`) is
asked where a tile fits, what its areas, roads and runs of tiles are; see
`rulesdsl/boards/territory.py` for what each function means and `docs/language.md`
(Territories of tiles) for the language. TILE_DOCS is the territories' family in the
checker's table of built-ins; their code is compile/tiles.py's (through the family record
of compile/builtins.py), their helpers program/helpers/tiles.py's.
"""

from __future__ import annotations

from typing import Any, Protocol

from .. import ast as A
from ..boards.territory import SIDE_NAMES, TerritoryBoard
from .analysis import is_a, plural
from .bindings import BuiltinRef
from .types import ANY, BOOL, INT, PLAYER, Type, compatible, element, list_of, with_article


class ExpressionChecker(Protocol):
    """What these functions use of the expression checker (expressions.py calls them)."""

    a: Any

    def err(self, code: str, message: str, span: Any, hint: str | None = None) -> None: ...

TILE_DOCS = {
    "territory": "territory(board, p): the cells of player p's territory",
    "start": "start(cells): the middle cell of a territory, where its first tile goes",
    "spots": "spots(cells, tile): the empty cells of a territory where the tile fits turned "
             "some way",
    "turns": "turns(c, tile): the turns (0, 90, 180, 270) at which the tile fits on cell c",
    "fits": "fits(c, tile, turn): whether the tile fits on cell c turned so",
    "turn": "turn(c): how far the tile on c is turned (0, 90, 180 or 270), none when empty",
    "areas": "areas(cells) or areas(cells, terrain): the areas of a territory, each the list "
             "of cells holding part of it",
    "completed": "completed(cells) or completed(cells, terrain): the areas that border no "
                 "empty space",
    "completed_at": "completed_at(c): whether the area of the centre of c's tile is "
                    "completed",
    "by_road": "by_road(c): the cells whose roads link to the roads of c's tile",
    "longest_road": "longest_road(cells): the most tiles on one road entering no tile twice",
    "rows": "rows(cells): the unbroken runs of tiles from west to east",
    "columns": "columns(cells): the unbroken runs of tiles from south to north",
    "diagonals": "diagonals(cells): the unbroken diagonal runs of tiles, both ways",
    "squares": "squares(cells): every block of 2 x 2 tiles",
    "open_edges": "open_edges(cells) or open_edges(cells, terrain): how many edges of the "
                  "placed tiles (of that terrain) border an empty cell or the rim",
}

# the kind of each argument: a territory's cells (a board or a list of its cells), a cell
# of one, a tile, a turn (number), a player, a terrain; the last `optional` may be left out
_ARGS: dict[str, tuple[tuple[str, ...], int]] = {
    "territory": (("board", "player"), 0),
    "start": (("cells",), 0), "spots": (("cells", "tile"), 0),
    "turns": (("cell", "tile"), 0), "fits": (("cell", "tile", "int"), 0),
    "turn": (("cell",), 0), "areas": (("cells", "terrain"), 1),
    "completed": (("cells", "terrain"), 1), "completed_at": (("cell",), 0),
    "by_road": (("cell",), 0), "longest_road": (("cells",), 0), "rows": (("cells",), 0),
    "columns": (("cells",), 0), "diagonals": (("cells",), 0), "squares": (("cells",), 0),
    "open_edges": (("cells", "terrain"), 1),
}
_RUNS = ("areas", "completed", "rows", "columns", "diagonals", "squares")


def territory_of(checker: ExpressionChecker, t: Type) -> TerritoryBoard | None:
    """The territory a board, a cell or a list of cells belongs to, if any."""
    if is_a(t, "list"):
        t = element(t) or ANY
    if (is_a(t, "board") or is_a(t, "cell")) and isinstance(
            checker.a.boards.get(t[1]), TerritoryBoard):
        board = checker.a.boards[t[1]]
        assert isinstance(board, TerritoryBoard)
        return board
    return None


def tile_call(checker: ExpressionChecker, e: A.Call, types: list[Type]) -> Type:
    """The type of a call of a territory function, after checking its arguments."""
    f = e.func
    wanted, optional = _ARGS[f]
    low = len(wanted) - optional
    if not low <= len(types) <= len(wanted):
        count = str(low) if not optional else f"{low} to {len(wanted)}"
        checker.err("E024", f"{f} takes {plural(count, 'argument')}, not {len(types)}",
                    e.span, hint=TILE_DOCS[f])
        return ANY
    checker.a.binding[id(e)] = BuiltinRef(f)
    board = territory_of(checker, types[0])
    first_ok = board is not None and {
        "board": is_a(types[0], "board"), "cell": is_a(types[0], "cell"),
        "cells": is_a(types[0], "board") or is_a(types[0], "list")}[wanted[0]]
    if types[0] == ANY:
        return ANY   # the argument is wrong already, and said so
    if board is None or not first_ok:
        what = {"board": "a territory", "cell": "a cell of a territory",
                "cells": "a territory or a list of its cells"}[wanted[0]]
        checker.err("E030", f"the first argument of {f} is {what}, not "
                    f"{with_article(types[0])}", e.args[0].span, hint=TILE_DOCS[f])
        return ANY
    for want, t, arg in zip(wanted[1:], types[1:], e.args[1:]):
        expected: Type = {"player": PLAYER, "tile": ("comp", board.kind), "int": INT,
                          "terrain": checker.a.kinds[board.kind].types.get(board.edges[0],
                                                                           ANY)}[want]
        if not compatible(t, expected):
            checker.err("E030", f"{f} takes {with_article(expected)} here, not "
                        f"{with_article(t)}", arg.span, hint=TILE_DOCS[f])
    if f == "completed_at" and board.centre is None:
        checker.err("E030", f"completed_at needs the centre of the tiles: {board.name} names "
                    "no centre field", e.span, hint=TILE_DOCS[f])
    cell: Type = ("cell", board.name)
    if f in ("territory", "spots", "by_road"):
        return list_of(cell)
    if f == "start":
        return cell
    if f in ("turns",):
        return list_of(INT)
    if f in ("turn", "longest_road", "open_edges"):
        return INT
    if f in ("fits", "completed_at"):
        return BOOL
    assert f in _RUNS
    return list_of(list_of(cell))


def check_turned(checker: ExpressionChecker, s: A.Place, cell_t: Type, turn_t: Type) -> None:
    """`place tile at c turned r`: c is one cell of a territory, r a number."""
    if cell_t != ANY and (territory_of(checker, cell_t) is None or not is_a(cell_t, "cell")):
        checker.err("E030", f"only a tile on one cell of a territory is turned, not a piece "
                    f"on {with_article(cell_t)}", s.cell.span,
                    hint="board land: territory 9 x 9 of Tile edges n, e, s, w")
    if not compatible(turn_t, INT):
        checker.err("E030", f"a tile is turned by a number of degrees, not "
                    f"{with_article(turn_t)}", s.turn.span if s.turn else s.span)


# ---- the fields of a territory's tiles ----------------------------------------------------

def tile_fields_problem(decl: Any, kind: Any) -> str | None:
    """Why a territory's kind cannot be its tiles (the fields it names are missing, or its
    roads name no sides), or None. `decl` is the board's declaration, `kind` the KindInfo."""
    named = [*decl.edges, decl.centre, decl.roads, decl.groups]
    missing = [f for f in named if f is not None and f not in kind.fields]
    if missing:
        return (f"kind {kind.name} has no field {', '.join(missing)} (it has "
                f"{', '.join(kind.fields)})")
    for field in (decl.roads, decl.groups):
        for value in kind.columns[field] if field is not None else []:
            bad = side_name_problem(value if value is not None else [], decl.edges)
            if bad:
                return f"the field {field} of a {kind.name} lists sides: {bad}"
    return None


def side_name_problem(value: Any, edges: list[str]) -> str | None:
    """Why a value of a roads field does not name sides, or None when it does."""
    names = value if isinstance(value, list) else [value]
    for n in names:
        if isinstance(n, list):
            bad = side_name_problem(n, edges)
            if bad:
                return bad
        elif str(n).lower() not in SIDE_NAMES and str(n) not in edges:
            names = ["n", "e", "s", "w"] + [e for e in edges if e not in SIDE_NAMES]
            return f"'{n}' is not a side ({', '.join(names)})"
    return None
