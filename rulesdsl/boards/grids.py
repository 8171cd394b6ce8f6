"""Board geometry: cells, their names, neighbours, rows, columns and lines.

Stage: shared by the checker (cell names) and the compiler (tables baked into the
compiled program). A square board of W x H cells names them like a chess board: column
letter then row number, `a1` at the bottom left. Cells are numbered row by row from a1.
"""

from __future__ import annotations

import math
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
    def orthogonal_neighbours(self) -> list[list[int]]:
        out = []
        for c in range(self.size):
            x, y = self.xy(c)
            out.append([self.index(x + dx, y + dy) for dx, dy in STEPS_ORTHOGONAL
                        if 0 <= x + dx < self.width and 0 <= y + dy < self.height])
        return out

    @cached_property
    def rays(self) -> list[list[list[int]]]:
        """For each cell, the straight runs of cells leaving it, one per direction the
        board's adjacency allows, nearest first."""
        out = []
        for c in range(self.size):
            x, y = self.xy(c)
            runs = []
            for dx, dy in self.steps():
                run = []
                k = 1
                while 0 <= x + dx * k < self.width and 0 <= y + dy * k < self.height:
                    run.append(self.index(x + dx * k, y + dy * k))
                    k += 1
                runs.append(run)
            out.append(runs)
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


class TriangleBoard:
    """A hexagon of equilateral triangles, `side` triangles along each edge (6 side^2 in
    all), with the lattice points at their corners. Corners use axial coordinates (q, r)
    with |q|, |r|, |q + r| <= side; the triangle (q, r, up) has corners (q, r), (q+1, r),
    (q, r+1), and (q, r, down) has (q+1, r), (q, r+1), (q+1, r+1).

    Names read like a map: corner rows from the top are a, b, c, ... and each row counts
    from 1 on the left (`a1`, `d4`); triangle rows are A, B, C, ... between corner rows,
    counted from 1 on the left (`A1`, `C7`)."""

    def __init__(self, name: str, side: int):
        self.name = name
        self.side = side
        n = side
        corners = [(q, r) for r in range(-n, n + 1) for q in range(-n, n + 1)
                   if abs(q + r) <= n]
        # rows from the top: r = -n first; within a row, left to right by q
        corners.sort(key=lambda c: (c[1], c[0]))
        self.corner_xy = corners
        self.corner_index = {c: i for i, c in enumerate(corners)}
        tris = []
        anchors = [(q, r) for r in range(-n - 1, n + 1) for q in range(-n - 1, n + 1)]
        for q, r in anchors:
            for up in (True, False):
                pts = ([(q, r), (q + 1, r), (q, r + 1)] if up
                       else [(q + 1, r), (q, r + 1), (q + 1, r + 1)])
                if all(p in self.corner_index for p in pts):
                    tris.append((q, r, up, tuple(self.corner_index[p] for p in pts)))
        # a triangle's row is the corner row of its upper edge; left to right by the
        # x-position of its centre (2q + r, with down triangles one step right of up ones)
        tris.sort(key=lambda t: (t[1], 2 * t[0] + t[1] + (0 if t[2] else 1)))
        self.triangles = tris
        self.size = len(tris)
        self.corners_of = [list(t[3]) for t in tris]
        self.around: list[list[int]] = [[] for _ in corners]
        for i, t in enumerate(tris):
            for c in t[3]:
                self.around[c].append(i)
        row_names = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
        self.names = []
        counts: dict[int, int] = {}
        for _q, r, _up, _ in tris:
            counts[r] = counts.get(r, 0) + 1
            self.names.append(f"{row_names[r + n]}{counts[r]}")
        self.corner_names = []
        ccounts: dict[int, int] = {}
        for _q, r in corners:
            ccounts[r] = ccounts.get(r, 0) + 1
            self.corner_names.append(f"{row_names[r + n].lower()}{ccounts[r]}")
        edge: dict[tuple[int, ...], list[int]] = {}
        for i, t in enumerate(tris):
            for a in range(3):
                for b in range(a + 1, 3):
                    edge.setdefault(tuple(sorted((t[3][a], t[3][b]))), []).append(i)
        self.neighbours: list[list[int]] = [[] for _ in tris]
        self.pairs: list[list[int]] = []
        for shared in edge.values():
            if len(shared) == 2:
                a, b = sorted(shared)
                self.neighbours[a].append(b)
                self.neighbours[b].append(a)
                self.pairs.append([a, b])
        self.pairs.sort()
        for ns in self.neighbours:
            ns.sort()
        for ts in self.around:
            ts.sort()


class CornerBoard:
    """The corners of a `TriangleBoard` as a board of their own (Cronberg's crossings).
    Two corners are neighbours when a triangle edge joins them."""

    def __init__(self, name: str, triangles: TriangleBoard):
        self.name = name
        self.of = triangles
        self.size = len(triangles.corner_xy)
        self.names = triangles.corner_names
        links: list[set[int]] = [set() for _ in range(self.size)]
        for cs in triangles.corners_of:
            for a in cs:
                links[a].update(c for c in cs if c != a)
        self.neighbours = [sorted(s) for s in links]


class RingBoard:
    """Positions round a circle (`ring N`), or along an open arc (`ring N open`, a
    horseshoe: its two ends are not neighbours). Positions are named by the board's name
    and their number from 1 (`outer1`, `outer2`, ...), numbered round the ring; each has
    the positions before and after it as neighbours, and `distance` counts steps along
    the ring, the shorter way round when it is closed."""

    def __init__(self, name: str, size: int, open_ends: bool = False):
        self.name = name
        self.size = size
        self.open = open_ends
        self.names = [f"{name}{k + 1}" for k in range(size)]
        self.neighbours: list[list[int]] = []
        for k in range(size):
            around = {k - 1, k + 1} if open_ends else {(k - 1) % size, (k + 1) % size}
            self.neighbours.append(sorted(c for c in around if 0 <= c < size and c != k))

    def distance(self, a: int, b: int) -> int:
        """Steps from a to b along the ring (the shorter way round when it is closed)."""
        d = abs(a - b)
        return d if self.open else min(d, self.size - d)

    @cached_property
    def distances(self) -> list[list[int]]:
        """distance(a, b) for every two positions: a table baked into the program."""
        return [[self.distance(a, b) for b in range(self.size)] for a in range(self.size)]

    @cached_property
    def spots(self) -> list[tuple[float, float]]:
        """Where each position is drawn, on a circle of radius 1 about (0, 0), y downwards:
        the first at the top, then clockwise; an open arc leaves a gap of 60 degrees at the
        top between its two ends."""
        if self.open:
            gap = math.radians(60)
            step = (2 * math.pi - gap) / max(1, self.size - 1)
            angles = [gap / 2 + k * step for k in range(self.size)]
        else:
            angles = [2 * math.pi * k / self.size for k in range(self.size)]
        return [(round(math.sin(t), 4), round(-math.cos(t), 4)) for t in angles]
