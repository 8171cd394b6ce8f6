"""How a territory of tiles looks: on a view (tile ids and turns) and as text.

Stage: run (the screens). The views (views.py) show each placed tile as its id and its
turn; the game (game.py) gathers each tile's look for a screen; the terminal draws a
territory with `draw_territory`. The territory's geometry is rulesdsl/boards/territory.py.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..boards.grids import LETTERS
from ..boards.territory import TerritoryBoard, road_groups


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
