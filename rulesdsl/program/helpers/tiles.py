"""Run-time helpers of territories of tiles: where a tile fits, its areas, roads and runs.

Stage: program (see helpers/__init__.py). A territory's geometry (`Geometry`, its cells,
sides and tiles as the compiler bakes them) and what the rules mean by areas and roads are
in rulesdsl/boards/territory.py; the checker's signatures in check/tiles.py; the code
generation in compile/tiles.py. Each territory function is one call of a helper here
(`_t...`): those that can fail (`_tq`, `_tput`, `_tfits`) are bound to the program's
`Faults`, the others are plain functions. What two calls share (a territory's list of
cells, a tile look's groups) is kept in small caches of a bounded size.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...boards.territory import MAX_ROAD_STEPS, MAX_ROAD_TILES, Geometry
from .faults import Faults

KEPT = 4096   # the territories' lists of cells, and the tile looks, each cache keeps
_LANDS: dict[tuple[int, int], list[int]] = {}   # (cells per seat, seat): its cells
_LOOKS: dict[tuple[Any, ...], tuple[list[int], list[tuple[Any, list[int]]]]] = {}
Areas = list[tuple[Any, list[tuple[int, int]]]]
# the areas of the tiles of a territory (see _parts), by the geometry's id and the placed
# cells, their tiles and turns; each with its geometry, so that another geometry made
# where a freed one was is never given its areas
_AREAS: dict[tuple[Any, ...], tuple[Geometry, Areas]] = {}
_EVERY = object()      # the areas of every terrain (see _parts)


def _tclear(cells: list, turns: list, cell: int) -> None:
    cells[cell] = None
    turns[cell] = None


def _tturn(cells: list, turns: list, cell: int) -> int | None:
    return None if cells[cell] is None else (turns[cell] or 0) * 90


def _side(geo: Geometry, cells: list, turns: list, cell: int, d: int) -> Any:
    return geo.sides[cells[cell]][(d - (turns[cell] or 0)) % 4]


def _faces(geo: Geometry, cells: list, turns: list, cell: int) -> list[tuple[int, Any]]:
    """What the tiles next to a cell ask of a tile put there: for each side of the cell
    that faces a placed tile, (that side, the terrain the placed tile shows it)."""
    return [(d, _side(geo, cells, turns, n, (d + 2) % 4))
            for d, n in enumerate(geo.steps[cell]) if n is not None and cells[n] is not None]


def _matching(printed: list, faces: list[tuple[int, Any]], q: int) -> bool:
    """A tile showing `printed` turned q quarter turns matches every face."""
    for d, terrain in faces:
        if printed[(d - q) % 4] != terrain:
            return False
    return True


def _empty(cells: list, xs: Any) -> bool:
    return all(cells[c] is None for c in xs)


def _tstart(geo: Geometry, xs: Any) -> int:
    base = xs[0] - xs[0] % geo.cells_per_seat if xs else 0
    return base + (geo.height // 2) * geo.width + geo.width // 2


def _land(per_seat: int, seat: int) -> list[int]:
    """The cells of a seat's territory, in order: one list kept per territory, never
    handed to the rules (`_tland` gives a copy)."""
    found = _LANDS.get((per_seat, seat))
    if found is None:
        if len(_LANDS) >= KEPT:
            _LANDS.clear()
        found = _LANDS[per_seat, seat] = list(range(seat * per_seat,
                                                    (seat + 1) * per_seat))
    return found


def _tland(per_seat: int, seat: int) -> list[int]:
    return _land(per_seat, seat)[:]


def _seat_of(geo: Geometry, cell: int) -> range:
    """The cells of the territory that holds a cell."""
    base = cell - cell % geo.cells_per_seat
    return range(base, base + geo.cells_per_seat)


def _tturns(geo: Geometry, cells: list, turns: list, cell: int, tile: Any) -> list[int]:
    xs = _seat_of(geo, cell)
    if cell == _tstart(geo, xs) and _empty(cells, xs):
        return [0, 90, 180, 270]
    if cells[cell] is not None:
        return []
    faces = _faces(geo, cells, turns, cell)
    printed = geo.sides[tile]
    return [q * 90 for q in range(4) if faces and _matching(printed, faces, q)]


def _whole(geo: Geometry, xs: Any) -> bool:
    """Whether `xs` is a whole territory, its cells in order (what `territory(board, p)`
    gives): then a cell of it only neighbours cells of it."""
    n = geo.cells_per_seat
    return len(xs) == n and n > 0 and xs[0] % n == 0 and xs[-1] == xs[0] + n - 1 and (
        type(xs) is range or xs == _land(n, xs[0] // n))


def _placed_in(cells: list, base: int, n: int) -> list[int]:
    """The cells from `base` to `base + n` that hold a tile, in order."""
    return [c for c in range(base, base + n) if cells[c] is not None]


def _near_tiles(geo: Geometry, cells: list, xs: Any) -> tuple[bool, list[int]]:
    """(whether a cell of `xs` holds a tile, the empty cells of `xs` next to a tile, in
    the order of `xs`): the only cells where a tile can fit. A whole territory is looked
    at through its tiles and their neighbours; any other list of cells, cell by cell."""
    steps = geo.steps
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
    printed = geo.sides[tile]
    return [c for c in near if _fits_some_turn(printed, _faces(geo, cells, turns, c))]


def _thas_spot(geo: Geometry, cells: list, turns: list, xs: list, tile: Any) -> bool:
    """`spots(xs, tile) is not empty`: true for a territory with no tile in `xs` (its
    start), else the search stops at the first cell found, in any order."""
    printed = geo.sides[tile]
    if _whole(geo, xs):
        steps = geo.steps
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
def _inside(shown: tuple[Any, ...]) -> tuple[list[int], list[tuple[Any, list[int]]]]:
    found = _LOOKS.get(shown)
    if found is None:
        if len(_LOOKS) >= KEPT:
            _LOOKS.clear()
        found = _LOOKS[shown] = _grouped(shown)
    return found


def _grouped(shown: tuple[Any, ...]) -> tuple[list[int], list[tuple[Any, list[int]]]]:
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
    return [roots.index(root(p)) if p in parts else -1 for p in range(5)], groups


def _parts(geo: Geometry, cells: list, turns: list, xs: Any, only: Any = _EVERY) -> Areas:
    """The areas of a territory: (terrain, parts), a part being (cell, side) with side
    4 the centre; each area's parts in order; with `only`, the areas of that terrain alone
    (a group joins only groups of its own terrain, so they are those of every terrain
    that are of it). The areas of the same tiles in the same places are worked out once
    (kept while KEPT others are): a search judges the positions of its rollouts by them,
    each scoring tile asking again of the same territory. The lists given are shared:
    the callers read them and make their own."""
    placed = [c for c in xs if cells[c] is not None]
    key = (id(geo), *placed, None, *[cells[c] for c in placed], None,
           *[turns[c] or 0 for c in placed])
    found = _AREAS.get(key)
    if found is None or found[0] is not geo:
        if len(_AREAS) >= KEPT:
            _AREAS.clear()
        found = _AREAS[key] = (geo, _every_area(geo, cells, turns, placed))
    if only is _EVERY:
        return found[1]
    return [area for area in found[1] if area[0] == only]


def _every_area(geo: Geometry, cells: list, turns: list, placed: list[int]) -> Areas:
    """The areas of the tiles in the cells `placed`, of every terrain, in the order of
    their first parts. Each tile's groups (`_inside`) are joined across the edges tiles
    share; a group is numbered cell * 5 + its first part (numbers order as the pairs do,
    and an area's smallest number is its first part)."""
    parent: dict[int, int] = {}

    def find(p: int) -> int:
        while (up := parent[p]) != p:
            parent[p] = p = parent[up]
        return p

    printed, centres, steps = geo.sides, geo.centres, geo.steps
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
            # a tile next to it among those placed (a cell outside them is not looked at)
            b = side_group.get(n * 4 + d + 2, -1) if n is not None else -1
            if b >= 0:
                a = side_group[c * 4 + d]
                if terrain[a] == terrain[b]:
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
    steps = geo.steps
    for c, d in parts:
        if d < 4:
            n = steps[c][d]
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
    if tile is None or geo.centres[tile] is None:  # no tile there, or one without a centre
        return False
    # the centre's area: of the centre's own terrain
    for _t, ps in _parts(geo, cells, turns, _seat_of(geo, cell), geo.centres[tile]):
        if (cell, 4) in ps:
            return _closed(geo, cells, ps)
    return False


def _groups(geo: Geometry, cells: list, turns: list, cell: int) -> list[list[int]]:
    q = turns[cell] or 0
    return [[(s + q) % 4 for s in g] for g in geo.groups[cells[cell]]]


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
    steps = geo.steps
    for (c, s), node in side_group.items():
        n = steps[c][s]
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
    step = geo.steps
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
    w, h, per_seat = geo.width, geo.height, geo.cells_per_seat
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
        for d, n in enumerate(geo.steps[c]):
            if (n is None or cells[n] is None) and (
                    not terrain or _side(geo, cells, turns, c, d) == terrain[0]):
                count += 1
    return count


def _tsquares(geo: Geometry, cells: list, xs: list) -> list[list[int]]:
    """Every block of 2 x 2 placed tiles, by its corner cell among `xs`. Search bots
    read it for each option they try: an empty corner is passed over before its
    neighbours are looked up, and no generator is made per cell."""
    out = []
    near = geo.steps
    for c in xs:
        if cells[c] is None:
            continue
        up, right = near[c][0], near[c][1]
        if right is None or up is None:
            continue
        if cells[right] is not None and cells[up] is not None and cells[up + 1] is not None:
            out.append(sorted([c, right, up, up + 1]))
    return out


def bind(faults: Faults) -> dict[str, Callable[..., Any]]:
    """The helpers of territories, those that can fail bound to the program's faults."""
    err = faults.err

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

    def _tfits(geo: Geometry, cells: list, turns: list, cell: int, tile: Any, degrees: int,
               sid: int) -> bool:
        return _tq(degrees, sid) * 90 in _tturns(geo, cells, turns, cell, tile)

    return {"_tq": _tq, "_tput": _tput, "_tclear": _tclear, "_tturn": _tturn,
            "_tstart": _tstart, "_tland": _tland, "_tturns": _tturns, "_tfits": _tfits,
            "_tspots": _tspots, "_thas_spot": _thas_spot, "_tareas": _tareas,
            "_tcentre_done": _tcentre_done, "_tby_road": _tby_road, "_tlongest": _tlongest,
            "_truns": _truns, "_topen": _topen, "_tsquares": _tsquares}
