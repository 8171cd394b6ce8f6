"""Board geometry: cells, their names, neighbours, rows, columns and lines.

Stage: shared by the checker (cell names) and the compiler (tables baked into the
compiled program). A square board of W x H cells names them like a chess board: column
letter then row number, `a1` at the bottom left. Cells are numbered row by row from a1.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

LETTERS = "abcdefghijklmnopqrstuvwxyz"
STEPS_ORTHOGONAL = ((1, 0), (0, 1), (-1, 0), (0, -1))
STEPS_DIAGONAL = ((1, 1), (-1, 1), (-1, -1), (1, -1))
LINE_DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))


@dataclass
class SquareBoard:
    """A rectangular grid. `adjacency` says whether diagonal cells are neighbours."""

    name: str
    width: int
    height: int
    adjacency: str = "orthogonal"
    _lines: dict[int, list[list[int]]] = field(default_factory=dict, repr=False)

    @property
    def size(self) -> int:
        return self.width * self.height

    def index(self, x: int, y: int) -> int:
        """Cell number of column x, row y (both from 0)."""
        return y * self.width + x

    def xy(self, cell: int) -> tuple[int, int]:
        return cell % self.width, cell // self.width

    @cached_property
    def names(self) -> list[str]:
        return [f"{LETTERS[c % self.width]}{c // self.width + 1}" for c in range(self.size)]

    def steps(self) -> tuple[tuple[int, int], ...]:
        if self.adjacency == "diagonal":
            return STEPS_ORTHOGONAL + STEPS_DIAGONAL
        return STEPS_ORTHOGONAL

    @cached_property
    def neighbours(self) -> list[list[int]]:
        out = []
        for c in range(self.size):
            x, y = self.xy(c)
            out.append([self.index(x + dx, y + dy) for dx, dy in self.steps()
                        if 0 <= x + dx < self.width and 0 <= y + dy < self.height])
        return out

    @cached_property
    def columns(self) -> list[list[int]]:
        """Column k (from 0), its cells from the bottom row up."""
        return [[self.index(x, y) for y in range(self.height)] for x in range(self.width)]

    @cached_property
    def rows(self) -> list[list[int]]:
        """Row k (from 0), its cells from left to right."""
        return [[self.index(x, y) for x in range(self.width)] for y in range(self.height)]

    def lines(self, n: int) -> list[list[int]]:
        """Every straight run of n cells: horizontal, vertical and both diagonals."""
        if n not in self._lines:
            found = []
            for c in range(self.size):
                x, y = self.xy(c)
                for dx, dy in LINE_DIRECTIONS:
                    ex, ey = x + dx * (n - 1), y + dy * (n - 1)
                    if 0 <= ex < self.width and 0 <= ey < self.height:
                        found.append([self.index(x + dx * i, y + dy * i) for i in range(n)])
            self._lines[n] = found
        return self._lines[n]

    def lines_through(self, n: int) -> list[list[list[int]]]:
        """For each cell, the lines of n cells that contain it."""
        table: list[list[list[int]]] = [[] for _ in range(self.size)]
        for line in self.lines(n):
            for c in line:
                table[c].append(line)
        return table

    def distance(self, a: int, b: int) -> int:
        """Steps between two cells: king moves with diagonal adjacency, else rook steps."""
        ax, ay = self.xy(a)
        bx, by = self.xy(b)
        if self.adjacency == "diagonal":
            return max(abs(ax - bx), abs(ay - by))
        return abs(ax - bx) + abs(ay - by)
