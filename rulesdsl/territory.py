"""Tile territories: square tiles with four edges, placed turned, growing from a start tile.

Stage: shared. The checker builds a `TerritoryBoard` for `board land: territory 13 x 13 of
Tile edges n, e, s, w` (its cells, names and neighbours); the compiler bakes a
`Geometry` of it into the compiled program; the helpers made by `tile_helpers` are what the
generated code calls at run time to answer the questions of a tile-laying game: where a
tile fits, its areas, its roads, its runs of tiles.

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

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from .boards import LETTERS, STEPS_DIAGONAL, STEPS_ORTHOGONAL

SIDES = ("n", "e", "s", "w")
SIDE_NAMES = {"n": 0, "north": 0, "e": 1, "east": 1, "s": 2, "south": 2, "w": 3, "west": 3}
DIRECTIONS = ((0, 1), (1, 0), (0, -1), (-1, 0))   # north, east, south, west as (dx, dy)
MAX_TERRITORY = 31     # columns and rows of one territory, at most
MAX_ROAD_TILES = 40    # a road longer than this is counted as this long (see longest_road)
MAX_ROAD_STEPS = 100_000  # the longest road's search stops after this many steps
_EVERY = object()      # the areas of every terrain (see _parts)


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


# ---- views and drawings --------------------------------------------------------------------

def territory_view(board: TerritoryBoard, cells: list, turns: list, ids: list[str],
                   players: int) -> Any:
    """A territory as a view shows it: per placed cell, [the tile's id, its turn in
    degrees]; one such mapping per player for a territory per player."""
    def seat(p: int) -> dict[str, list]:
        base = p * board.cells_per_seat
        return {board.names[c]: [ids[cells[c]], (turns[c] or 0) * 90]
                for c in range(base, base + board.cells_per_seat) if cells[c] is not None}
    if board.seats == 1:
        return seat(0)
    return [seat(p) for p in range(players)]


def tile_looks(board: TerritoryBoard, kind: Any, ids: list[str],
               show: Callable[[Any, Any], str]) -> dict[str, tuple[list[str], str, list[int]]]:
    """For each tile (by id) of a territory's kind (a KindInfo): its four edges' terrains as
    printed and its centre's, as `show(value, type)` names them ("" without a centre), and
    the sides where a road ends."""
    def shown(field: str | None, k: int) -> str:
        return show(kind.columns[field][k], kind.types[field]) if field else ""
    return {ids[k]: ([shown(f, k) for f in board.edges], shown(board.centre, k),
                     sorted({g for group in road_groups(
                         kind.columns[board.roads][k] if board.roads else None,
                         kind.columns[board.groups][k] if board.groups else None,
                         board.edges) for g in group}))
            for k in range(kind.count)}


def draw_territory(board: TerritoryBoard, placed: dict[str, list],
                   looks: dict[str, tuple[list[str], str, list[int]]],
                   corners: dict[str, str] | None = None) -> list[str]:
    """A territory as text: three lines of three characters per row of tiles, from the
    northernmost row down, over the columns and rows its tiles reach. `looks` gives for
    each tile id its four edges' letters as printed, its centre's letter and the sides
    where a road ends. Each edge shows its terrain's letter, a capital where a road ends
    there; the middle shows the centre's; the four corners the glyphs `corners` gives a
    tile (its features), up to four."""
    if not placed:
        return ["    (no tile)"]
    spots = {name: board.xy(board.names.index(name)) for name in placed}
    xs = [x for x, _ in spots.values()]
    ys = [y for _, y in spots.values()]
    at = {xy: name for name, xy in spots.items()}
    lines = []
    for y in range(max(ys), min(ys) - 1, -1):
        rows = ["    ", f"{y + 1:>3} ", "    "]
        for x in range(min(xs), max(xs) + 1):
            name = at.get((x, y))
            if name is None:
                block = ["   ", " . ", "   "]
            else:
                tile, degrees = placed[name]
                edges, centre, roads = looks[tile]
                q = degrees // 90 % 4
                side = [edges[(d - q) % 4] for d in range(4)]
                side = [c.upper() if (d - q) % 4 in roads else c for d, c in enumerate(side)]
                block = tile_block(side, centre, (corners or {}).get(tile, ""))
            for k in range(3):
                rows[k] += block[k] + " "
        lines += [rows[0].rstrip(), rows[1].rstrip(), rows[2].rstrip()]
    lines.append("    " + " ".join(f" {LETTERS[x]} " for x in range(min(xs), max(xs) + 1)))
    return lines


def tile_block(side: list[str], centre: str, marks: str) -> list[str]:
    """One tile as three lines of three characters: its edges' letters (north, east,
    south, west) round its centre's, the first four of `marks` in its corners."""
    c = (marks + "    ")[:4]
    return [f"{c[0]}{side[0]}{c[1]}", f"{side[3]}{centre}{side[1]}", f"{c[2]}{side[2]}{c[3]}"]


# ---- run time ------------------------------------------------------------------------------
# A geometry, as the compiler bakes it: (width, height, cells per seat, step table, the
# edges of each tile (4 terrains), the centre terrain of each tile (or None), the road groups
# of each tile). Components are numbered from 0 within their kind.

Geometry = tuple[int, int, int, list, list, list, list]


def geometry(board: TerritoryBoard, edges: list[list[Any]], centre: list[Any] | None,
             groups: list[list[list[int]]]) -> Geometry:
    count = len(edges[0]) if edges else 0
    sides = [[edges[i][t] for i in range(4)] for t in range(count)]
    return (board.width, board.height, board.cells_per_seat, board.step, sides,
            centre if centre is not None else [None] * count, groups)


def tile_helpers(err: Callable[..., Exception]) -> dict[str, Callable[..., Any]]:
    """The run-time helpers of territories; `err(code, message, sid)` makes a rule error."""

    def _tq(degrees: Any, sid: int) -> int:
        if not isinstance(degrees, int) or degrees % 90:
            raise err("R009", f"a tile is turned 0, 90, 180 or 270 degrees, not {degrees}",
                      sid)
        return degrees // 90 % 4

    def _tput(cells: list, turns: list, cell: int, tile: Any, degrees: int, sid: int) -> None:
        q = _tq(degrees, sid)
        if cells[cell] is not None:
            raise err("R004", "placing a tile on a cell that is not empty", sid)
        cells[cell] = tile
        turns[cell] = q

    def _tclear(cells: list, turns: list, cell: int) -> None:
        cells[cell] = None
        turns[cell] = None

    def _tturn(cells: list, turns: list, cell: int) -> int | None:
        return None if cells[cell] is None else (turns[cell] or 0) * 90

    def _side(geo: Geometry, cells: list, turns: list, cell: int, d: int) -> Any:
        return geo[4][cells[cell]][(d - (turns[cell] or 0)) % 4]

    def _faces(geo: Geometry, cells: list, turns: list, cell: int) -> list[tuple[int, Any]]:
        """What the tiles next to a cell ask of a tile put there: for each side of the cell
        that faces a placed tile, (that side, the terrain the placed tile shows it)."""
        return [(d, _side(geo, cells, turns, n, (d + 2) % 4))
                for d, n in enumerate(geo[3][cell]) if n is not None and cells[n] is not None]

    def _matching(printed: list, faces: list[tuple[int, Any]], q: int) -> bool:
        """A tile showing `printed` turned q quarter turns matches every face."""
        for d, terrain in faces:
            if printed[(d - q) % 4] != terrain:
                return False
        return True

    def _empty(cells: list, xs: Any) -> bool:
        return all(cells[c] is None for c in xs)

    def _tstart(geo: Geometry, xs: Any) -> int:
        base = xs[0] - xs[0] % geo[2] if xs else 0
        return base + (geo[1] // 2) * geo[0] + geo[0] // 2

    lands: dict[tuple[int, int], list[int]] = {}

    def _land(per_seat: int, seat: int) -> list[int]:
        """The cells of a seat's territory, in order: one list kept per territory, never
        handed to the rules (`_tland` gives a copy)."""
        found = lands.get((per_seat, seat))
        if found is None:
            found = lands[per_seat, seat] = list(range(seat * per_seat,
                                                       (seat + 1) * per_seat))
        return found

    def _tland(per_seat: int, seat: int) -> list[int]:
        return _land(per_seat, seat)[:]

    def _seat_of(geo: Geometry, cell: int) -> range:
        """The cells of the territory that holds a cell."""
        base = cell - cell % geo[2]
        return range(base, base + geo[2])

    def _tturns(geo: Geometry, cells: list, turns: list, cell: int, tile: Any) -> list[int]:
        xs = _seat_of(geo, cell)
        if cell == _tstart(geo, xs) and _empty(cells, xs):
            return [0, 90, 180, 270]
        if cells[cell] is not None:
            return []
        faces = _faces(geo, cells, turns, cell)
        printed = geo[4][tile]
        return [q * 90 for q in range(4) if faces and _matching(printed, faces, q)]

    def _tfits(geo: Geometry, cells: list, turns: list, cell: int, tile: Any, degrees: int,
               sid: int) -> bool:
        return _tq(degrees, sid) * 90 in _tturns(geo, cells, turns, cell, tile)

    def _whole(geo: Geometry, xs: Any) -> bool:
        """Whether `xs` is a whole territory, its cells in order (what `territory(board, p)`
        gives): then a cell of it only neighbours cells of it."""
        n = geo[2]
        return len(xs) == n and n > 0 and xs[0] % n == 0 and xs[-1] == xs[0] + n - 1 and (
            type(xs) is range or xs == _land(n, xs[0] // n))

    def _placed_in(cells: list, base: int, n: int) -> list[int]:
        """The cells from `base` to `base + n` that hold a tile, in order."""
        return [c for c in range(base, base + n) if cells[c] is not None]

    def _near_tiles(geo: Geometry, cells: list, xs: Any) -> tuple[bool, list[int]]:
        """(whether a cell of `xs` holds a tile, the empty cells of `xs` next to a tile, in
        the order of `xs`): the only cells where a tile can fit. A whole territory is looked
        at through its tiles and their neighbours; any other list of cells, cell by cell."""
        steps = geo[3]
        if _whole(geo, xs):
            tiles = _placed_in(cells, xs[0], len(xs))
            return bool(tiles), sorted({m for c in tiles for m in steps[c]
                                        if m is not None and cells[m] is None})
        placed = False
        found = []
        for c in xs:
            if cells[c] is not None:
                placed = True
            elif any(m is not None and cells[m] is not None for m in steps[c]):
                found.append(c)
        return placed, found

    def _fits_some_turn(printed: list, faces: list[tuple[int, Any]]) -> bool:
        return (_matching(printed, faces, 0) or _matching(printed, faces, 1)
                or _matching(printed, faces, 2) or _matching(printed, faces, 3))

    def _tspots(geo: Geometry, cells: list, turns: list, xs: list, tile: Any) -> list[int]:
        """The cells of `xs` where the tile fits at some turn (an empty cell next to a tile,
        every edge it shares with one showing the same terrain), in order; the start of a
        territory with no tile in `xs`."""
        placed, near = _near_tiles(geo, cells, xs)
        if not placed:
            return [_tstart(geo, xs)]
        printed = geo[4][tile]
        return [c for c in near if _fits_some_turn(printed, _faces(geo, cells, turns, c))]

    def _thas_spot(geo: Geometry, cells: list, turns: list, xs: list, tile: Any) -> bool:
        """`spots(xs, tile) is not empty`: true for a territory with no tile in `xs` (its
        start), else the search stops at the first cell found, in any order."""
        printed = geo[4][tile]
        if _whole(geo, xs):
            steps = geo[3]
            placed = False
            for c in _placed_in(cells, xs[0], len(xs)):
                placed = True
                for m in steps[c]:
                    if m is not None and cells[m] is None and _fits_some_turn(
                            printed, _faces(geo, cells, turns, m)):
                        return True
            return not placed
        placed, near = _near_tiles(geo, cells, xs)
        return not placed or any(_fits_some_turn(printed, _faces(geo, cells, turns, c))
                                 for c in near)

    # a tile's groups as it shows them (its four sides as turned, its centre): the parts of
    # one terrain that touch inside the tile (two sides next to each other, a side and the
    # centre) are one group; per shown look, (the group of each part, each group's terrain
    # and parts in order)
    inside: dict[tuple[Any, ...], tuple[list[int], list[tuple[Any, list[int]]]]] = {}

    def _inside(shown: tuple[Any, ...]) -> tuple[list[int], list[tuple[Any, list[int]]]]:
        found = inside.get(shown)
        if found is None:
            label = list(range(5))

            def root(p: int) -> int:
                while label[p] != p:
                    p = label[p]
                return p

            def join(a: int, b: int) -> None:
                ra, rb = root(a), root(b)
                label[max(ra, rb)] = min(ra, rb)

            centre = shown[4]
            for d in range(4):
                if shown[d] == shown[(d + 1) % 4]:
                    join(d, (d + 1) % 4)
                if centre is not None and shown[d] == centre:
                    join(d, 4)
            parts = range(5) if centre is not None else range(4)
            roots = sorted({root(p) for p in parts})
            groups = [(shown[r], [p for p in parts if root(p) == r]) for r in roots]
            found = inside[shown] = ([roots.index(root(p)) if p in parts else -1
                                      for p in range(5)], groups)
        return found

    def _parts(geo: Geometry, cells: list, turns: list, xs: Any,
               only: Any = _EVERY) -> list[tuple[Any, list[tuple[int, int]]]]:
        """The areas of a territory: (terrain, parts), a part being (cell, side) with side
        4 the centre; each area's parts in order. Each tile's groups (`_inside`) are joined
        across the edges tiles share; a group is numbered cell * 5 + its first part (numbers
        order as the pairs do, and an area's smallest number is its first part). With
        `only`, the areas of that terrain alone (the others' groups are not made: a group
        joins only groups of its own terrain)."""
        parent: dict[int, int] = {}

        def find(p: int) -> int:
            while (up := parent[p]) != p:
                parent[p] = p = parent[up]
            return p

        printed, centres, steps = geo[4], geo[5], geo[3]
        placed = [c for c in xs if cells[c] is not None]
        members: dict[int, list[int]] = {}
        terrain: dict[int, Any] = {}
        side_group: dict[int, int] = {}   # cell * 4 + side: the group it belongs to
        for c in placed:
            t, q = cells[c], turns[c] or 0
            shown = printed[t]
            of, groups = _inside((shown[-q], shown[1 - q], shown[2 - q], shown[3 - q],
                                  centres[t]))   # each side as turned (as `_side`)
            k = c * 5
            nodes = []
            for kind, ps in groups:
                if only is not _EVERY and kind != only:
                    nodes.append(-1)  # a group of another terrain: left out
                    continue
                node = k + ps[0]
                parent[node] = node
                terrain[node] = kind
                members[node] = [k + p for p in ps]
                nodes.append(node)
            for d in range(4):
                side_group[c * 4 + d] = nodes[of[d]]
        for c in placed:
            for d in (0, 1):   # each shared edge once: towards north and east
                n = steps[c][d]
                if n is not None and cells[n] is not None:
                    a, b = side_group[c * 4 + d], side_group[n * 4 + d + 2]
                    if a >= 0 and b >= 0 and terrain[a] == terrain[b]:
                        ra, rb = find(a), find(b)
                        if ra < rb:
                            parent[rb] = ra
                        elif rb < ra:
                            parent[ra] = rb
        areas: dict[int, list[int]] = {}
        for node in parent:
            areas.setdefault(find(node), []).extend(members[node])
        return [(terrain[root], [divmod(p, 5) for p in sorted(ps)])
                for root, ps in sorted(areas.items())]

    def _closed(geo: Geometry, cells: list, parts: list[tuple[int, int]]) -> bool:
        for c, d in parts:
            if d < 4:
                n = geo[3][c][d]
                if n is None or cells[n] is None:
                    return False
        return True

    def _cells_of(parts: list[tuple[int, int]]) -> list[int]:
        return sorted({c for c, _ in parts})

    def _tareas(geo: Geometry, cells: list, turns: list, xs: list, completed: bool,
                *terrain: Any) -> list[list[int]]:
        return [_cells_of(ps) for _t, ps in _parts(geo, cells, turns, xs, *terrain)
                if not completed or _closed(geo, cells, ps)]

    def _tcentre_done(geo: Geometry, cells: list, turns: list, cell: int) -> bool:
        tile = cells[cell]
        if tile is None or geo[5][tile] is None:  # no tile there, or one without a centre
            return False
        # the centre's area: of the centre's own terrain
        for _t, ps in _parts(geo, cells, turns, _seat_of(geo, cell), geo[5][tile]):
            if (cell, 4) in ps:
                return _closed(geo, cells, ps)
        return False

    def _groups(geo: Geometry, cells: list, turns: list, cell: int) -> list[list[int]]:
        q = turns[cell] or 0
        return [[(s + q) % 4 for s in g] for g in geo[6][cells[cell]]]

    def _network(geo: Geometry, cells: list, turns: list,
                 xs: Any) -> dict[tuple[int, int], set[tuple[int, int]]]:
        """The road links: each (cell, group) to the (cell, group)s its road ends meet."""
        links: dict[tuple[int, int], set[tuple[int, int]]] = {}
        side_group: dict[tuple[int, int], tuple[int, int]] = {}
        for c in xs:
            if cells[c] is None:
                continue
            for k, g in enumerate(_groups(geo, cells, turns, c)):
                links[(c, k)] = set()
                for s in g:
                    side_group[(c, s)] = (c, k)
        for (c, s), node in side_group.items():
            n = geo[3][c][s]
            other = side_group.get((n, (s + 2) % 4)) if n is not None else None
            if other is not None:
                links[node].add(other)
        return links

    def _tby_road(geo: Geometry, cells: list, turns: list, cell: int) -> list[int]:
        links = _network(geo, cells, turns, _seat_of(geo, cell))
        todo = [node for node in links if node[0] == cell]
        seen = set(todo)
        while todo:
            for m in links[todo.pop()]:
                if m not in seen:
                    seen.add(m)
                    todo.append(m)
        return sorted({c for c, _ in seen})

    def _tlongest(geo: Geometry, cells: list, turns: list, xs: list) -> int:
        """The most tiles on one continuous road. A road crosses from a tile to the next
        where their road ends face each other, and through a tile from one end of a road to
        another end joined to it (a bend, a straight road, a junction's arms); it never
        goes along a road end it has taken before. A tile it passes twice counts once; the
        arms of a junction it does not take do not count; one tile with a road is a road
        of one. Searched depth first from every road end, in a fixed order; the search
        ends when a road takes every tile with a road, or MAX_ROAD_TILES of them, and in
        any case after MAX_ROAD_STEPS steps (the longest is a hard search: a grid of
        crossroads has more roads than can be tried), with the longest found by then."""
        joined: dict[tuple[int, int], list[int]] = {}  # (cell, side): the ends joined to it
        for c in xs:
            if cells[c] is None:
                continue
            for g in _groups(geo, cells, turns, c):
                for s in g:
                    joined[(c, s)] = g
        if not joined:
            return 0
        step = geo[3]
        best = 1
        most = min(MAX_ROAD_TILES, len({c for c, _ in joined}))
        steps = 0

        def leave(c: int, ends: list[int], used: set[tuple[int, int]],
                  tiles: dict[int, int]) -> None:
            """Go on from tile c by each of `ends` not taken yet."""
            nonlocal best, steps
            for s in ends:
                if best >= most or steps >= MAX_ROAD_STEPS:
                    return
                n = step[c][s]
                if n is None or (c, s) in used:
                    continue
                entry = (n, (s + 2) % 4)
                if entry not in joined or entry in used:
                    continue
                steps += 1
                used.add((c, s))
                used.add(entry)
                tiles[n] = tiles.get(n, 0) + 1
                best = max(best, len(tiles))
                leave(n, joined[entry], used, tiles)
                tiles[n] -= 1
                if not tiles[n]:
                    del tiles[n]
                used.discard((c, s))
                used.discard(entry)

        for c, s in joined:
            leave(c, [s], set(), {c: 1})
        return best

    def _truns(geo: Geometry, cells: list, xs: list, dx: int, dy: int) -> list[list[int]]:
        """Every unbroken run of tiles in direction (dx, dy), longest first, each from its
        start; a lone tile is a run of one."""
        w, h, per_seat = geo[0], geo[1], geo[2]
        inside = set(xs)
        runs = []
        for c in xs:
            if cells[c] is None:
                continue
            x, y = (c % per_seat) % w, (c % per_seat) // w
            px, py = x - dx, y - dy
            if 0 <= px < w and 0 <= py < h and cells[c - dy * w - dx] is not None:
                continue   # not the start of its run
            run = []
            while 0 <= x < w and 0 <= y < h and cells[c] is not None and c in inside:
                run.append(c)
                x, y, c = x + dx, y + dy, c + dy * w + dx
            runs.append(run)
        runs.sort(key=lambda r: (-len(r), r[0]))
        return runs

    def _topen(geo: Geometry, cells: list, turns: list, xs: list, *terrain: Any) -> int:
        """How many edges of the placed tiles (showing the terrain, if given) border an
        empty cell or the rim of the territory."""
        count = 0
        for c in xs:
            if cells[c] is None:
                continue
            for d, n in enumerate(geo[3][c]):
                if (n is None or cells[n] is None) and (
                        not terrain or _side(geo, cells, turns, c, d) == terrain[0]):
                    count += 1
        return count

    def _tsquares(geo: Geometry, cells: list, xs: list) -> list[list[int]]:
        out = []
        for c in xs:
            right, up = geo[3][c][1], geo[3][c][0]
            if right is None or up is None:
                continue
            block = [c, right, up, up + 1]
            if all(cells[b] is not None for b in block):
                out.append(sorted(block))
        return out

    return {name: fn for name, fn in locals().items() if name.startswith("_t")}
