"""Compiling the territory functions and `place ... turned`: calls of run-time helpers.

Stage: compile. Each territory function becomes one call of a helper from
`rulesdsl/boards/territory.py`, given the territory's geometry (a table baked into the program),
its list of tiles and its list of turns.
"""

from __future__ import annotations

import ast
from typing import Any, Protocol

from .. import ast as A
from ..boards.territory import TerritoryBoard, geometry, road_groups, turns_name
from ..check.analysis import Analysis
from ..check.types import Type, element
from . import emit as E


class ExpressionCompiler(Protocol):
    """What these functions use of the expression compiler (expressions.py calls them)."""

    a: Analysis

    def board_cells(self, board: str) -> ast.Name: ...
    def const(self, value: Any) -> ast.expr: ...
    def sid(self, span: Any) -> int: ...
    def expr(self, e: Any) -> ast.expr: ...


def territory_named(a: Analysis, t: Type) -> TerritoryBoard | None:
    """The territory of a cell, a list of cells or a board type, if it is one."""
    if isinstance(t, tuple) and t[0] == "list":
        t = element(t) or "any"
    if isinstance(t, tuple) and t[0] in ("cell", "board"):
        board = a.boards.get(t[1])
        if isinstance(board, TerritoryBoard):
            return board
    return None


def geometry_const(c: ExpressionCompiler, board: TerritoryBoard) -> ast.expr:
    a = c.a
    edges = [a.field_column(board.kind, f) for f in board.edges]
    centre = a.field_column(board.kind, board.centre) if board.centre else None
    roads = a.field_column(board.kind, board.roads) if board.roads else None
    groups = a.field_column(board.kind, board.groups) if board.groups else None
    count = len(edges[0])
    tables = [road_groups(roads[t] if roads else None, groups[t] if groups else None,
                          board.edges) for t in range(count)]
    return c.const(geometry(board, edges, centre, tables))


def tile_code(c: ExpressionCompiler, e: A.Call, args: list[ast.expr]) -> ast.expr:
    """The code of a call of a territory function (the checker has checked it)."""
    f = e.func
    board = territory_named(c.a, c.a.type_of(e.args[0]))
    assert board is not None
    if f == "territory":
        return E.call("_tland", E.const(board.cells_per_seat), args[1])
    cells = c.board_cells(board.name)
    turns = c.board_cells(turns_name(board.name))
    geo = geometry_const(c, board)
    sid = E.const(c.sid(e.span))
    if f == "turn":
        return E.call("_tturn", cells, turns, args[0])
    if f == "start":
        return E.call("_tstart", geo, args[0])
    if f in ("turns", "fits", "completed_at", "by_road"):
        helper = {"turns": "_tturns", "fits": "_tfits", "completed_at": "_tcentre_done",
                  "by_road": "_tby_road"}[f]
        extra = [sid] if f == "fits" else []
        return E.call(helper, geo, cells, turns, *args, *extra)
    if f == "spots":
        return E.call("_tspots", geo, cells, turns, *args)
    if f in ("areas", "completed"):
        return E.call("_tareas", geo, cells, turns, args[0], E.const(f == "completed"),
                      *args[1:])
    if f == "longest_road":
        return E.call("_tlongest", geo, cells, turns, args[0])
    if f == "squares":
        return E.call("_tsquares", geo, cells, args[0])
    if f == "open_edges":
        return E.call("_topen", geo, cells, turns, *args)
    if f == "diagonals":
        return E.binop(E.call("_truns", geo, cells, args[0], E.const(1), E.const(1)), "+",
                       E.call("_truns", geo, cells, args[0], E.const(1), E.const(-1)))
    dx, dy = (1, 0) if f == "rows" else (0, 1)
    return E.call("_truns", geo, cells, args[0], E.const(dx), E.const(dy))


def place_tile(c: ExpressionCompiler, s: A.Place, turn: ast.expr) -> ast.stmt | None:
    """`place tile at cell turned r` on a territory, or None for any other place."""
    board = territory_named(c.a, c.a.type_of(s.cell))
    if board is None:
        return None
    return E.expr_stmt(E.call("_tput", c.board_cells(board.name),
                              c.board_cells(turns_name(board.name)), c.expr(s.cell),
                              c.expr(s.piece), turn, E.const(c.sid(s.span))))


def clear_tile(c: ExpressionCompiler, s: A.Clear) -> ast.stmt | None:
    """`clear cell` on a territory takes the tile and its turn away; None elsewhere."""
    board = territory_named(c.a, c.a.type_of(s.cell))
    if board is None:
        return None
    return E.expr_stmt(E.call("_tclear", c.board_cells(board.name),
                              c.board_cells(turns_name(board.name)), c.expr(s.cell)))
