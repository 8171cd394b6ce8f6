"""Tile territories: square tiles with four edges, placed turned, growing from a start tile.

Stage: shared (the geometry every stage reads). The checker builds a `TerritoryBoard` for
`board land: territory 13 x 13 of Tile edges n, e, s, w` (its cells, names and neighbours)
and checks its tiles' fields (check/tiles.py); the compiler bakes a `Geometry` of it into
the compiled program; the helpers in program/helpers/tiles.py are what the generated code
calls at run time to answer the questions of a tile-laying game: where a tile fits, its
areas, its roads, its runs of tiles; interpreter/drawing.py shows a territory.

A territory `per player` is one stripe of W x H cells per seat: cell `p * W * H + y * W + x`
is column x, row y of seat p's territory, named like a chess board (`a1` bottom left) within
its stripe, so every seat's territory has a `g7`. The start cell is the middle one.

The board's cells hold tiles (components); a second list of the same length holds each
tile's turn, in quarter turns clockwise (the language speaks of 0, 90, 180 and 270
degrees). Sides are numbered 0 north, 1 east, 2 south, 3 west, as the rows and columns
run: north is the next row up. A tile turned k quarter turns shows its printed side i
towards side (i + k) % 4.

Inside a tile, two sides next to each other (north and east, ...) with the same terrain
are one part of an area; the tile's centre, when the kind has a centre field, joins every
side of its own terrain, and a centre whose terrain is on no side is an area of its own.
Roads: each tile has road groups (sets of sides whose road ends are linked inside it);
two tiles' roads link when both facing sides are in a group.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from .grids import LETTERS, STEPS_DIAGONAL, STEPS_ORTHOGONAL

SIDES = ("n", "e", "s", "w")
SIDE_NAMES = {"n": 0, "north": 0, "e": 1, "east": 1, "s": 2, "south": 2, "w": 3, "west": 3}
DIRECTIONS = ((0, 1), (1, 0), (0, -1), (-1, 0))   # north, east, south, west as (dx, dy)
MAX_TERRITORY = 31     # columns and rows of one territory, at most
MAX_ROAD_TILES = 40    # a road longer than this is counted as this long (see longest_road)
MAX_ROAD_STEPS = 100_000  # the longest road's search stops after this many steps


@dataclass
class TerritoryBoard:
    """A territory of square tiles, one stripe of width x height cells per seat."""

    name: str
    width: int
    height: int
    seats: int
    kind: str
    edges: list[str]
    centre: str | None = None
    roads: str | None = None
    groups: str | None = None
    adjacency: str = "orthogonal"

    @property
    def cells_per_seat(self) -> int:
        return self.width * self.height

    @property
    def size(self) -> int:
        return self.cells_per_seat * self.seats

    def xy(self, cell: int) -> tuple[int, int]:
        """Column and row of a cell within its seat's territory (both from 0)."""
        r = cell % self.cells_per_seat
        return r % self.width, r // self.width

    def seat(self, cell: int) -> int:
        return cell // self.cells_per_seat

    @cached_property
    def names(self) -> list[str]:
        return [f"{LETTERS[x]}{y + 1}" for x, y in map(self.xy, range(self.size))]

    def start(self, seat: int) -> int:
        return seat * self.cells_per_seat + (self.height // 2) * self.width + self.width // 2

    def _near(self, cell: int, steps: tuple[tuple[int, int], ...]) -> list[int | None]:
        x, y = self.xy(cell)
        base = cell - cell % self.cells_per_seat
        return [base + (y + dy) * self.width + x + dx
                if 0 <= x + dx < self.width and 0 <= y + dy < self.height else None
                for dx, dy in steps]

    @cached_property
    def step(self) -> list[list[int | None]]:
        """Per cell, the cell beyond each side (north, east, south, west), None off the edge."""
        return [self._near(c, DIRECTIONS) for c in range(self.size)]

    @cached_property
    def neighbours(self) -> list[list[int]]:
        steps = STEPS_ORTHOGONAL + (STEPS_DIAGONAL if self.adjacency == "diagonal" else ())
        return [sorted(n for n in self._near(c, steps) if n is not None)
                for c in range(self.size)]

    @cached_property
    def orthogonal_neighbours(self) -> list[list[int]]:
        return [sorted(n for n in self._near(c, STEPS_ORTHOGONAL) if n is not None)
                for c in range(self.size)]


class TurnBoard:
    """The turns of a territory's tiles, in quarter turns: a board of its own in the state
    (named `turns_name(territory)`, which no rule can write), cell for cell."""

    def __init__(self, territory: TerritoryBoard):
        self.of = territory
        self.name = turns_name(territory.name)
        self.size = territory.size
        self.names = territory.names


def turns_name(territory: str) -> str:
    return f"{territory} turns"


def road_groups(roads: Any, groups: Any, edges: list[str]) -> list[list[int]]:
    """A tile's road groups, as lists of sides, from its fields: `groups` (a list of lists
    of side names) when it has any, else `roads` (a list of side names, all linked).
    A side is named by a compass letter or word, or by the name of its edge field."""
    def side(name: Any) -> int:
        key = str(name).lower()
        if key in SIDE_NAMES:
            return SIDE_NAMES[key]
        return edges.index(str(name))
    if groups:
        return [sorted({side(s) for s in g}) for g in groups if g]
    if roads:
        return [sorted({side(s) for s in roads})]
    return []


# ---- the geometry the program carries -------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Geometry:
    """A territory's geometry, as the compiler bakes it into the program for the run-time
    helpers (program/helpers/tiles.py). Tiles (components) are numbered from 0 within their
    kind; cells as in the module's docstring. Slotted: the helpers read its fields on every
    call, as quickly as the items of a tuple."""

    width: int
    height: int
    cells_per_seat: int
    steps: list[list[int | None]]   # cell -> its neighbour towards each side (0 north...)
    sides: list[list[Any]]          # tile -> the terrains printed on its four sides
    centres: list[Any]              # tile -> the terrain of its centre, or None
    groups: list[list[list[int]]]   # tile -> its road groups, each a list of sides


def geometry(board: TerritoryBoard, edges: list[list[Any]], centre: list[Any] | None,
             groups: list[list[list[int]]]) -> Geometry:
    count = len(edges[0]) if edges else 0
    sides = [[edges[i][t] for i in range(4)] for t in range(count)]
    return Geometry(board.width, board.height, board.cells_per_seat, board.step, sides,
                    centre if centre is not None else [None] * count, groups)
