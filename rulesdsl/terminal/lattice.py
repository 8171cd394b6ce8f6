"""A hexagon of triangles drawn as text, with its crossings (for the terminal).

Stage: a tool (the terminal). Each triangle stands where it lies: a row of text per row of
crossings and one per row of triangles between them, an empty triangle drawn as its shape
(`/\\` pointing up, `\\/` down) or as the mark the display gives it (`mark parks "P"
"park"`), a covered one by its piece; each crossing a `+`, or what stands on it. Row
letters at the left name the rows as the cells' names do (triangles A1, A2, ...,
crossings a1, a2, ..., numbered from the left in each row).
"""

from __future__ import annotations

from ..boards.grids import CornerBoard, TriangleBoard


def triangle_lines(board: TriangleBoard, pieces: dict[str, str], marks: dict[str, str],
                   crossings: CornerBoard | None, tokens: dict[str, str]) -> list[str]:
    """The board drawn: `pieces` marks each covered triangle (two characters at most),
    `marks` the empty triangles the display marks, `tokens` what stands on the crossings
    of `crossings` (the board of its corners, if the game has one)."""
    rows = sorted({r for _, r in board.corner_xy})
    top = rows[0]
    xs = [2 * q + r for q, r in board.corner_xy]
    left = min(xs)
    width = 3 * (max(xs) - left) + 4
    canvas = [[" "] * width for _ in range(2 * len(rows) - 1)]

    def put(row: int, x: int, text: str) -> None:
        col = 1 + 3 * (x - left)
        for i, ch in enumerate(text[:2].center(2) if len(text) < 3 else text[:2]):
            canvas[row][col + i] = ch

    for k, (q, r, up, _) in enumerate(board.triangles):
        name = board.names[k]
        # `up`: the triangle's first two corners lie on its row of crossings, the third
        # below them: drawn with rows going down, it points down
        shape = "\\/" if up else "/\\"
        put(2 * (r - top) + 1, 2 * q + r + (1 if up else 2), pieces.get(name)
            or marks.get(name) or shape)
    for k, (q, r) in enumerate(board.corner_xy):
        name = crossings.names[k] if crossings is not None else ""
        put(2 * (r - top), 2 * q + r, tokens.get(name, "+") if crossings else "+")
    lines = []
    for i, cells in enumerate(canvas):
        if i % 2:
            label = board.names[_first(board, rows[i // 2])][0]
        else:
            label = crossings.names[_first_corner(board, rows[i // 2])][0] \
                if crossings is not None else " "
        lines.append((f"  {label} " + "".join(cells)).rstrip())
    return lines


def _first(board: TriangleBoard, r: int) -> int:
    """The first triangle of row r."""
    return next(k for k, t in enumerate(board.triangles) if t[1] == r)


def _first_corner(board: TriangleBoard, r: int) -> int:
    """The first crossing of row r."""
    return next(k for k, c in enumerate(board.corner_xy) if c[1] == r)
