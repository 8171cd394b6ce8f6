"""Run-time helpers of boards: a cell by column and row, a column or a row by its number,
movement over a board.

Stage: program (see helpers/__init__.py). The code generation of `cell`, `column`, `row`,
`reach`, `straight` and `orthogonal` is compile/builtins.py's; the tables they read (neighbours,
rays) are the board's (rulesdsl/boards/grids.py), baked into the program.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .faults import Faults


def _reach(cells: list, links: list, start: int, n: int) -> list[int]:
    seen = {start}
    frontier = [start]
    found = []
    for _ in range(n):
        nxt = []
        for c in frontier:
            for d in links[c]:
                if d not in seen and cells[d] is None:
                    seen.add(d)
                    nxt.append(d)
                    found.append(d)
        frontier = nxt
    return sorted(found)


def _straight(cells: list, rays: list, start: int, n: int) -> list[int]:
    found = []
    for ray in rays[start]:
        for d in ray[:max(n, 0)]:
            if cells[d] is not None:
                break
            found.append(d)
    return sorted(found)


def bind(faults: Faults) -> dict[str, Callable[..., Any]]:
    err = faults.err

    def _cell(width: int, height: int, x: int, y: int, sid: int) -> int:
        if not (1 <= x <= width and 1 <= y <= height):
            raise err("R003", f"cell ({x}, {y}) is off the {width} x {height} board", sid)
        return (y - 1) * width + (x - 1)

    def _pick(table: list, k: int, sid: int, what: str) -> Any:
        if not 1 <= k <= len(table):
            raise err("R003", f"there is no {what} {k} (1 to {len(table)})", sid)
        return table[k - 1]

    def _occupied(sid: int) -> Exception:
        return err("R004", "placing a piece on a cell that is not empty", sid,
                   hint="clear the cell first, or choose among empty cells")

    return {"_cell": _cell, "_pick": _pick, "_occupied": _occupied, "_reach": _reach,
            "_straight": _straight}
