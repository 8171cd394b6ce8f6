"""The types of the rules language and the signatures of the built-in functions.

Stage: check. A type is plain data, the same at every stage (rulesdsl/valuetypes.py: a
string for the simple ones, a tuple naming what it belongs to); this module says which
types are compatible, how they join, how error messages name them, and what each
built-in function takes and gives.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..valuetypes import ANY, BOOL, INT, NONE, PLAYER, TEXT, Type, element, list_of


def compatible(a: Type, b: Type) -> bool:
    """Whether values of types a and b may be compared or assigned to each other."""
    if a == b or a == ANY or b == ANY:
        return True
    if a == NONE or b == NONE:
        return True
    if isinstance(a, tuple) and isinstance(b, tuple) and a[0] == b[0] == "list":
        return compatible(a[1], b[1])
    if _kind(a) == "zone" or _kind(b) == "zone":  # a zone's value is its list of items
        return compatible(snapshot(a), snapshot(b))
    if {_kind(a), _kind(b)} == {"list", "board"}:
        other = b if _kind(a) == "board" else a
        return compatible(element(other) or ANY, element(a if other is b else b) or ANY)
    return False


def snapshot(t: Type) -> Type:
    """What a name holds when it is given a zone: the list of its items at that moment."""
    if isinstance(t, tuple) and t[0] == "zone":
        return list_of(("comp", t[2]))
    return t


def _kind(t: Type) -> str:
    return t[0] if isinstance(t, tuple) else t


def join(a: Type, b: Type) -> Type:
    """The type of a value that is either an a or a b."""
    if a == b:
        return a
    if a == NONE or a == ANY:
        return b if a == NONE else a
    if b == NONE or b == ANY:
        return a if b == NONE else b
    if isinstance(a, tuple) and isinstance(b, tuple) and a[0] == b[0] == "list":
        return list_of(b[1] if a[1] == ANY else a[1] if b[1] == ANY else join(a[1], b[1]))
    ea, eb = element(a), element(b)
    if ea is not None and eb is not None:
        # a zone or a board used as a value is the list of what it holds
        return join(list_of(ea), list_of(eb))
    return ANY


def show(t: Type) -> str:
    """A type as the error messages name it."""
    if isinstance(t, tuple):
        kind = t[0]
        if kind == "list":
            return f"list of {show(t[1])}"
        if kind == "tuple":
            return "(" + ", ".join(show(x) for x in t[1]) + ")"
        if kind == "cell":
            return f"cell of {t[1]}"
        if kind == "board":
            return f"board {t[1]}"
        if kind == "die":
            return f"die of {t[1]}"
        if kind in ("enum", "comp"):
            return t[1]
        if kind == "zone":
            return f"zone {t[1]}"
    return {"int": "number", "bool": "true/false", "text": "text"}.get(str(t), str(t))


def with_article(t: Type) -> str:
    """A type as a noun in a sentence: 'a number', 'a cell of grid', but 'text'."""
    s = show(t)
    if t in (TEXT, BOOL, NONE, ANY) or (isinstance(t, tuple) and t[0] == "tuple"):
        return s
    return ("an " if s[:1].lower() in "aeiou" else "a ") + s


# ---- built-in functions ----------------------------------------------------------------

class Problem(str):
    """What is wrong with the arguments of a built-in function (not a type)."""


Sig = Callable[[list[Type]], Type | Problem]


@dataclass(frozen=True)
class Builtin:
    """A built-in function: its arity, the kinds its arguments must be, its result type,
    and a one-line description (for docs and hints)."""

    name: str
    min_args: int
    max_args: int
    result: Sig
    doc: str
    const_args: tuple[int, ...] = ()


def _need(kind: str, t: Type) -> bool:
    return t == ANY or (isinstance(t, tuple) and t[0] == kind) or t == kind


def _lines(ts: list[Type]) -> Type | str:
    if not _need("board", ts[0]):
        return Problem(f"the first argument of lines must be a board, not {with_article(ts[0])}")
    if ts[1] != INT:
        return Problem("the length of a line must be a number")
    if len(ts) == 3 and not (ts[2] == ANY or ts[2] == ("cell", ts[0][1])):
        return Problem(f"the third argument of lines must be a cell of {ts[0][1]}")
    return list_of(list_of(("cell", ts[0][1])))


def _board_list(fname: str) -> Sig:
    def sig(ts: list[Type]) -> Type | str:
        if not _need("board", ts[0]):
            return Problem(f"the first argument of {fname} must be a board, "
                           f"not {with_article(ts[0])}")
        if ts[1] != INT:
            return Problem(f"the second argument of {fname} must be a number")
        return list_of(("cell", ts[0][1]))
    return sig


def _cell(ts: list[Type]) -> Type | str:
    if not _need("board", ts[0]):
        return Problem(f"the first argument of cell must be a board, not {with_article(ts[0])}")
    if ts[1] != INT or ts[2] != INT:
        return Problem("cell(board, column, row) takes numbers for column and row")
    return ("cell", ts[0][1])


def _neighbours(ts: list[Type]) -> Type | str:
    if not _need("cell", ts[0]) or ts[0] == ANY:
        return Problem(f"neighbours takes a cell, not {with_article(ts[0])}")
    return list_of(ts[0])


def _distance(ts: list[Type]) -> Type | str:
    if not (_need("cell", ts[0]) and ts[0] == ts[1]):
        return Problem("distance takes two cells of the same board")
    return INT


def _movement(name: str) -> Sig:
    def sig(ts: list[Type]) -> Type | Problem:
        if not (isinstance(ts[0], tuple) and ts[0][0] == "cell"):
            return Problem(f"{name} starts from a cell, not {with_article(ts[0])}")
        if ts[1] not in (INT, ANY):
            return Problem(f"the second argument of {name} is a number of steps")
        return list_of(ts[0])
    return sig


def _length(ts: list[Type]) -> Type | str:
    if element(ts[0]) is None:
        return Problem(f"length takes a list, not {with_article(ts[0])}")
    return INT


def _player_step(ts: list[Type]) -> Type | str:
    if ts[0] not in (PLAYER, ANY):
        return Problem(f"expected a player, not {with_article(ts[0])}")
    return PLAYER


def _team(ts: list[Type]) -> Type | str:
    if ts[0] not in (PLAYER, ANY):
        return Problem(f"team takes a player, not {with_article(ts[0])}")
    return list_of(PLAYER)


def _ints(ts: list[Type]) -> Type | str:
    if all(t in (INT, ANY) for t in ts):
        return INT
    return Problem("expected numbers")


def _position(ts: list[Type]) -> Type | Problem:
    if ts[0] in (ANY, PLAYER) or (isinstance(ts[0], tuple) and ts[0][0] in ("enum", "cell")):
        return INT
    return Problem(f"index takes a player, a value of an enum or a cell, not "
                   f"{with_article(ts[0])}")


def ordered(t: Type) -> bool:
    """Whether values of type t can be put in order (for `sort`)."""
    return t in (INT, TEXT, BOOL, PLAYER, ANY) or (
        isinstance(t, tuple) and t[0] in ("enum", "comp", "cell"))


def _sorted(ts: list[Type]) -> Type | Problem:
    el = element(ts[0])
    if el is None or _kind(ts[0]) == "board":
        return Problem(f"sort takes a list, not {with_article(ts[0])}")
    if not ordered(el):
        return Problem(f"sort puts numbers, text, players, cells, values of an enum or "
                       f"components in order, not {with_article(el)}")
    return list_of(el)


def _flattened(ts: list[Type]) -> Type | Problem:
    inner = element(ts[0])
    if ts[0] == ANY or inner == ANY:
        return list_of(ANY)
    item = element(inner) if inner is not None else None
    if item is None or inner is None or _kind(ts[0]) == "board" or _kind(inner) == "board":
        return Problem(f"flatten takes a list of lists, not {with_article(ts[0])}")
    return list_of(item)


def _total(ts: list[Type]) -> Type | Problem:
    if ts[0] in (ANY, ("list", INT), ("list", ANY)):
        return INT
    return Problem(f"sum takes a list of numbers, not {with_article(ts[0])}")


# The checker's table of built-in functions, by family: each family's code generation is a
# record of compile/builtins.py, its run-time helpers a module of program/helpers/ (the
# stages above this one). The zones' `top`, `unique` and the triangles' functions are in
# check/analysis.py (LATTICE_DOCS), the territories' in check/tiles.py (TILE_DOCS);
# tests/test_builtins.py keeps the parts of every built-in together.
BUILTINS: dict[str, Builtin] = {b.name: b for b in [
    # numbers
    Builtin("abs", 1, 1, _ints, "abs(n): n without its sign"),
    Builtin("max", 1, 8, _ints, "max(a, b, ...): the largest number"),
    Builtin("min", 1, 8, _ints, "min(a, b, ...): the smallest number"),
    Builtin("sum", 1, 1, _total, "sum(xs): the numbers of a list added up"),
    # lists (unique: check/analysis.py LATTICE_DOCS)
    Builtin("length", 1, 1, _length, "length(xs): how many items xs has"),
    Builtin("flatten", 1, 1, _flattened,
            "flatten(xss): the items of the lists in xss, one list after the other"),
    Builtin("sort", 1, 1, _sorted,
            "sort(xs): the items of xs, smallest first; sort(x in xs by key): ordered by key"),
    # boards
    Builtin("lines", 2, 3, _lines,
            "lines(board, n): every straight run of n cells (rows, columns, diagonals); "
            "lines(board, n, c): only those through cell c", const_args=(1,)),
    Builtin("column", 2, 2, _board_list("column"),
            "column(board, k): the cells of column k (from 1), bottom to top"),
    Builtin("row", 2, 2, _board_list("row"),
            "row(board, k): the cells of row k (from 1), left to right"),
    Builtin("cell", 3, 3, _cell, "cell(board, x, y): the cell in column x, row y (from 1)"),
    Builtin("neighbours", 1, 1, _neighbours,
            "neighbours(c): the cells next to c (diagonals too on a diagonal board)"),
    Builtin("distance", 2, 2, _distance,
            "distance(a, b): steps between two cells of a board (along a ring)"),
    # movement
    Builtin("reach", 2, 2, _movement("reach"),
            "reach(c, n): the empty cells a piece at c reaches in 1 to n steps to a "
            "neighbour, through empty cells only"),
    Builtin("straight", 2, 2, _movement("straight"),
            "straight(c, n): the empty cells 1 to n steps from c in one straight line, "
            "stopping before an occupied cell"),
    Builtin("orthogonal", 2, 2, _movement("orthogonal"),
            "orthogonal(c, n): like reach, but only up, down, left and right"),
    # players
    Builtin("next", 1, 1, _player_step, "next(p): the player after p in seat order"),
    Builtin("previous", 1, 1, _player_step, "previous(p): the player before p"),
    Builtin("index", 1, 1, _position,
            "index(v): the seat of a player, the place of an enum value in its enum, or of a "
            "cell in its board, counted from 1"),
    Builtin("team", 1, 1, _team,
            "team(p): the players of p's team, p among them, in seat order (teams of N)"),
]}

# names that mean something everywhere
BUILTIN_NAMES: dict[str, Type] = {
    "current": PLAYER,
    "players": list_of(PLAYER),
    "player_count": INT,
    "winner": PLAYER,
    "winners": list_of(PLAYER),
    "game_over": BOOL,
}
