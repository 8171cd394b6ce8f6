"""The built-in functions as the code generator sees them: one record per family.

Stage: compile. A built-in function lives in three stages, because each stage may read
only those below it:
  - its signature and one-line doc are the checker's (stage 3): `check/types.py` BUILTINS,
    `check/analysis.py` LATTICE_DOCS (triangles, zones' tops, unique) and `check/tiles.py`
    TILE_DOCS (territories);
  - its run-time helper, when its code calls one, is in `program/helpers/<family>.py`
    (bound per program by `program/runtime.py`, the contract the run side reads);
  - its code generation is here, in the `Family` record that also names the helper
    module its code calls.
`ExpressionCompiler.call` looks a call up in `GENERATE`, made once when this module is
imported: the generated code is what the old chain of tests made, and no test runs per
call of the game. Adding a built-in: its `Builtin` (signature and doc) in the checker's
table, its code here in its family's record, its helper (if any) in that family's helper
module, and its section in docs/language.md; tests/test_builtins.py names whichever part
is missing.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Protocol

from .. import ast as A
from ..boards.grids import RingBoard
from ..check.analysis import Analysis
from ..check.tiles import TILE_DOCS
from ..check.types import PLAYER
from ..diagnostics import Span
from ..program.helpers import boards, lists, players, tiles, zones
from . import emit as E
from .bounds import bounds
from .fold import add_constant
from .options import Options
from .tiles import tile_code

DISTANCE_TABLE = 256  # distances on a board of at most this many cells are a table


class Calls(Protocol):
    """What the code of a built-in uses of the expression compiler (expressions.py)."""

    a: Analysis
    options: Options
    distance_tables: dict[str, str]

    def const(self, value: Any) -> ast.expr: ...
    def sid(self, span: Span) -> int: ...
    def fresh(self, stem: str = "t") -> str: ...
    def expr(self, e: Any) -> ast.expr: ...
    def read(self, e: A.Expr) -> ast.expr: ...
    def need(self, e: ast.expr, span: Span, what: str) -> ast.expr: ...
    def board_cells(self, board: str) -> ast.Name: ...
    def line_table(self, e: A.Call) -> list[list[list[int]]]: ...
    def columns_or_rows(self, e: A.Call) -> list[list[int]]: ...


# the code of one call: (the expression compiler, the call, the number of its place)
Generate = Callable[[Calls, A.Call, ast.expr], ast.expr]


@dataclass(frozen=True)
class Family:
    """A family of built-in functions: the code of a call of each (by name), and the
    module of run-time helpers that code calls (None: it calls Python's own)."""

    name: str
    generate: dict[str, Generate]
    helpers: ModuleType | None


def _args(c: Calls, e: A.Call) -> list[ast.expr]:
    return [c.expr(x) for x in e.args]


def _board(c: Calls, e: A.Call) -> Any:
    return c.a.boards[c.a.type_of(e.args[0])[1]]


# ---- numbers -----------------------------------------------------------------------------

def _python(c: Calls, e: A.Call, sid: ast.expr) -> ast.expr:
    """abs, max, min and sum: Python's own."""
    return E.call(e.func, *_args(c, e))


# ---- lists -------------------------------------------------------------------------------

def _flatten(c: Calls, e: A.Call, sid: ast.expr) -> ast.expr:
    lists = c.read(e.args[0])
    if isinstance(lists, ast.ListComp):  # the inner lists made one at a time
        lists = ast.GeneratorExp(elt=lists.elt, generators=lists.generators)
    return E.call("_flatten", lists, sid)


def _length(c: Calls, e: A.Call, sid: ast.expr) -> ast.expr:
    return E.call("len", c.read(e.args[0]))


def _unique(c: Calls, e: A.Call, sid: ast.expr) -> ast.expr:
    return E.call("_uniq", c.read(e.args[0]))


def _sort(c: Calls, e: A.Call, sid: ast.expr) -> ast.expr:
    item = c.fresh("c")
    pairs = E.listcomp(E.tuple_([E.name(item), E.name(item)]), item, c.read(e.args[0]))
    return E.call("_sort", pairs, sid)


# ---- zones -------------------------------------------------------------------------------

def _top(c: Calls, e: A.Call, sid: ast.expr) -> ast.expr:
    return E.call("_top", c.read(e.args[0]))


# ---- boards: lines, columns, rows, cells, neighbours, distances --------------------------

def _lines(c: Calls, e: A.Call, sid: ast.expr) -> ast.expr:
    args = _args(c, e)
    board = _board(c, e)
    n = int(c.a.constants[id(e.args[1])])
    if len(e.args) == 2:
        return c.const(board.lines(n))
    return E.sub(c.const(c.line_table(e)), args[2])


def _cell(c: Calls, e: A.Call, sid: ast.expr) -> ast.expr:
    args = _args(c, e)
    board = _board(c, e)
    return E.call("_cell", E.const(board.width), E.const(board.height), args[1], args[2],
                  sid)


def _column_or_row(c: Calls, e: A.Call, sid: ast.expr) -> ast.expr:
    args = _args(c, e)
    f = e.func
    table = c.columns_or_rows(e)
    k, tname = args[1], c.const(table)
    places = bounds(c.a, e.args[1], c.options)
    if places is not None and 1 <= places[0] and places[1] <= len(table):
        return E.sub(tname, add_constant(k, -1))  # a column or row of the board
    if E.is_simple(k):
        ok = E.compare(E.const(0), "<", E.copy_tree(k))
        ok.ops.append(ast.LtE())
        ok.comparators.append(E.const(len(table)))
        return E.ifexp(ok, E.sub(tname, E.binop(E.copy_tree(k), "-", E.const(1))),
                       E.call("_pick", E.copy_tree(tname), E.copy_tree(k), sid,
                              E.const(f)))
    return E.call("_pick", tname, k, sid, E.const(f))


def _neighbours(c: Calls, e: A.Call, sid: ast.expr) -> ast.expr:
    args = _args(c, e)
    return E.sub(c.const(_board(c, e).neighbours), args[0])


def _distance(c: Calls, e: A.Call, sid: ast.expr) -> ast.expr:
    args = _args(c, e)
    board = _board(c, e)
    if isinstance(board, RingBoard):  # steps along a ring: a table of its own
        return E.sub(E.sub(c.const(board.distances), args[0]), args[1])
    if board.size <= DISTANCE_TABLE:  # a table: two lookups instead of six sums
        name = c.distance_tables.get(board.name)
        if name is None:
            made = c.const([[board.distance(a, b) for b in range(board.size)]
                            for a in range(board.size)])
            assert isinstance(made, ast.Name)
            name = c.distance_tables[board.name] = made.id
        return E.sub(E.sub(E.name(name), args[0]), args[1])
    w = E.const(board.width)
    a0, a1 = args
    dx = E.call("abs", E.binop(E.binop(a0, "%", w), "-",
                               E.binop(a1, "%", E.copy_tree(w))))
    dy = E.call("abs", E.binop(E.binop(E.copy_tree(a0), "//", E.copy_tree(w)), "-",
                               E.binop(E.copy_tree(a1), "//", E.copy_tree(w))))
    if board.adjacency == "diagonal":
        return E.call("max", dx, dy)
    return E.binop(dx, "+", dy)


# ---- movement ----------------------------------------------------------------------------

def _movement(c: Calls, e: A.Call, sid: ast.expr) -> ast.expr:
    """reach, straight, orthogonal: the empty cells a piece goes to."""
    args = _args(c, e)
    bname = c.a.type_of(e.args[0])[1]
    board = c.a.boards[bname]
    cells = c.board_cells(bname)
    if e.func == "straight":
        return E.call("_straight", cells, c.const(board.rays), args[0], args[1])
    links = board.neighbours if e.func == "reach" else board.orthogonal_neighbours
    return E.call("_reach", cells, c.const(links), args[0], args[1])


# ---- triangles and their corners ---------------------------------------------------------

def _pairs(c: Calls, e: A.Call, sid: ast.expr) -> ast.expr:
    _args(c, e)
    return c.const(_board(c, e).pairs)


def _corners_or_around(c: Calls, e: A.Call, sid: ast.expr) -> ast.expr:
    args = _args(c, e)
    board = _board(c, e)
    table = board.corners_of if e.func == "corners" else board.of.around
    return E.sub(c.const(table), args[0])


# ---- players -----------------------------------------------------------------------------

def _next(c: Calls, e: A.Call, sid: ast.expr) -> ast.expr:
    args = _args(c, e)
    return E.binop(E.binop(args[0], "+", E.const(1)), "%", E.attr(E.name("st"), "np"))


def _previous(c: Calls, e: A.Call, sid: ast.expr) -> ast.expr:
    args = _args(c, e)
    return E.binop(E.binop(args[0], "-", E.const(1)), "%", E.attr(E.name("st"), "np"))


def _index(c: Calls, e: A.Call, sid: ast.expr) -> ast.expr:
    args = _args(c, e)
    if c.a.type_of(e.args[0]) == PLAYER:  # a seat: never none
        return E.binop(c.need(args[0], e.args[0].span, "the player"), "+", E.const(1))
    return E.binop(args[0], "+", E.const(1))


def _team(c: Calls, e: A.Call, sid: ast.expr) -> ast.expr:
    args = _args(c, e)
    return E.call("_team", E.name("st"), args[0], E.const(c.a.team_size))


# ---- territories of tiles (compile/tiles.py) -------------------------------------------

def _territory(c: Calls, e: A.Call, sid: ast.expr) -> ast.expr:
    return tile_code(c, e, _args(c, e))


FAMILIES = (
    Family("numbers", {"abs": _python, "max": _python, "min": _python, "sum": _python},
           None),
    Family("lists", {"length": _length, "flatten": _flatten, "sort": _sort,
                     "unique": _unique}, lists),
    Family("zones", {"top": _top}, zones),
    Family("boards", {"lines": _lines, "column": _column_or_row, "row": _column_or_row,
                      "cell": _cell, "neighbours": _neighbours, "distance": _distance},
           boards),
    Family("movement", {"reach": _movement, "straight": _movement,
                        "orthogonal": _movement}, boards),
    Family("triangles", {"corners": _corners_or_around, "around": _corners_or_around,
                         "pairs": _pairs}, None),
    Family("players", {"next": _next, "previous": _previous, "index": _index,
                       "team": _team}, players),
    Family("territories", dict.fromkeys(TILE_DOCS, _territory), tiles),
)

GENERATE: dict[str, Generate] = {name: generate for family in FAMILIES
                                 for name, generate in family.generate.items()}
