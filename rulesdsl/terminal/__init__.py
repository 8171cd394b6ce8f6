"""Playing at the terminal: a person picks numbered options for their seats, bots take
the others. Everything shown comes from the seat's observation (its view, options and
log lines): boards are drawn as grids, zones and counters as the seat may see them.

Commands at the prompt: a number or an option id; `save FILE` writes the game so that
`rulesdsl play --load FILE` resumes it; `quit` leaves.
"""

from __future__ import annotations

import json
import math
import shutil
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from ..agents import Report
from ..agents.play import describe_result
from ..boards.grids import LETTERS, CornerBoard, RingBoard, SquareBoard, TriangleBoard
from ..boards.territory import TerritoryBoard
from ..diagnostics import RulesError
from ..files.paths import Unreadable, read_text
from ..interpreter.drawing import draw_territory, tile_block
from ..interpreter.forced import Policy, passes
from ..interpreter.game import Game, Rules
from ..interpreter.observation import Observation
from ..interpreter.public import Decision
from ..limits import MAX_RECORD_BYTES
from .lattice import triangle_lines
from .menu import Choice, listing, missing, pick


def text(value: Any) -> str:
    """A value of a view as the terminal prints it."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(text(x) for x in value)
    return str(value)


def _marker(view: dict[str, Any], screen: dict[str, Any], kind: str | None,
            holding: str | None) -> Callable[..., str]:
    """How a board's pieces are marked: by glyph and owner, seat mark, or name."""

    def mark(piece: Any, kind: str | None = kind, holds: str | None = holding,
             short: bool = False) -> str:
        # a piece is a number or a name; a saved game may hold anything (shown as text)
        plain = isinstance(piece, (int, str))
        if kind is not None:
            glyph = screen["glyphs"].get(kind, {}).get(piece) if plain else None
            if glyph is None:
                label = view["components"][kind][piece]["label"]
                return label[:2] if short else label
            return glyph + _owner(view, screen, kind, piece)
        seat_marks = screen.get("seats", {}).get("marks") or []
        if holds is None and isinstance(piece, int) and not isinstance(piece, bool):
            # a board that does not say holds players: each by its mark, or number
            return seat_marks[piece] if 0 <= piece < len(seat_marks) else str(piece + 1)
        if holds == "player" and isinstance(piece, str) and seat_marks:
            seat = piece.removeprefix("player ")
            if seat.isdigit() and 1 <= int(seat) <= len(seat_marks):
                return seat_marks[int(seat) - 1]
        glyph = screen["glyphs"].get(holds or "", {}).get(piece) if plain else None
        if glyph is not None:
            return glyph
        shown = text(piece).removeprefix("player ")
        return shown[:2] if short else shown

    return mark


def draw_boards(view: dict[str, Any], rules: Rules) -> list[str]:
    """Square boards as grids; other boards row by row, naming what stands on each cell. A
    piece is drawn by its glyph and its owner's seat number when the rules' `display:` gives
    them ("K2": the Keep of player 2), else by the start of its name."""
    lines = []
    screen = rules.display
    for name, shape in rules.boards.items():
        if name in screen["hidden"]:
            continue
        cells = view["boards"][name]
        kind = shape.holding if shape.holding in view["components"] else None
        placed = view.get("placed", {}).get(name, {})

        mark = _marker(view, screen, kind, shape.holding)

        def marked(cell: str, piece: Any, short: bool = True,
                   placed: dict[str, str] = placed, mark: Callable[..., str] = mark) -> str:
            # a piece the display gives to its placer: its mark, then the placer's seat
            seat = placed.get(cell)
            return mark(piece, short=short) + (seat.removeprefix("player ") if seat else "")

        board = shape.geometry
        if isinstance(board, TerritoryBoard):
            lines += territory_lines(_title(name, screen), board, cells, rules, view)
            continue
        if isinstance(board, CornerBoard) and any(
                b.geometry is board.of for n, b in rules.boards.items()
                if n not in screen["hidden"]):
            continue  # drawn on the triangles it is the corners of
        lines.append(f"{_title(name, screen)}:")
        if name in screen.get("placers", []):
            lines.append("    (the digit after a piece: the player who placed it)")
        if isinstance(board, TriangleBoard):
            lines += _triangles(view, rules, name, board, mark)
            continue
        special = {cell: glyph for cells_, glyph, _ in screen.get("marks", {}).get(name, [])
                   for cell in cells_}  # `mark`: the special cells, where they are empty
        if isinstance(board, SquareBoard):
            marks = {**special, **{c: marked(c, p) for c, p in cells.items()}}
            width = max([1, *(len(m) for m in marks.values())])
            for y in reversed(range(board.height)):
                row = [marks.get(c, ".")
                       for c in (board.names[board.index(x, y)] for x in range(board.width))]
                lines.append(f"{y + 1:>3} " + " ".join(f"{c:>{width}}" for c in row))
            lines.append("    " + " ".join(f"{c:>{width}}" for c in LETTERS[:board.width]))
            if kind is not None:
                lines += [f"    {cell}: {_component(view, rules, kind, piece, False)}"
                          for cell, piece in sorted(cells.items(),
                                                    key=lambda cp: board.names.index(cp[0]))]
            continue
        if isinstance(board, RingBoard):
            lines += ring_lines(board, {**special,
                                        **{c: marked(c, p) for c, p in cells.items()}},
                                screen.get("cells", {}).get(name, ""))
            noun = screen.get("cells", {}).get(name)
            lines.append("    " + "  ".join(
                f"{noun + ' ' + str(board.names.index(c) + 1) if noun else c}="
                f"{marked(c, p, short=False)}"
                for c, p in sorted(
                cells.items(), key=lambda cp: board.names.index(cp[0]))))
            continue
        rows: dict[str, list[str]] = {}
        for cell in board.names:
            rows.setdefault(cell[0], []).append(
                f"{cell}={marked(cell, cells[cell], False)}" if cell in cells else f"{cell} .")
        for row in rows.values():
            lines.append("    " + "  ".join(row))
    return lines


def _triangles(view: dict[str, Any], rules: Rules, name: str, board: TriangleBoard,
               mark: Callable[..., str]) -> list[str]:
    """A hexagon of triangles drawn in its shape, its crossings on it (see lattice_text),
    then a legend and what covers which triangles."""
    screen = rules.display
    cells = view["boards"][name]
    marks = {cell: glyph for cells_, glyph, _ in screen.get("marks", {}).get(name, [])
             for cell in cells_}
    corners = next(((n, b.geometry) for n, b in rules.boards.items()
                    if isinstance(b.geometry, CornerBoard) and b.geometry.of is board), None)
    tokens: dict[str, str] = {}
    if corners is not None:
        holds = rules.boards[corners[0]].holding
        kind = holds if holds in view["components"] else None
        tokens = {c: mark(p, kind, holds, short=True)
                  for c, p in view["boards"][corners[0]].items()}
    lines = triangle_lines(board, {c: mark(p, short=True) for c, p in cells.items()}, marks,
                           corners[1] if corners else None, tokens)
    legend = [f"{g} {w}" for _, g, w in screen.get("marks", {}).get(name, [])]
    if corners is not None:
        legend.append("+ a free crossing")
    lines.append("    (rows named at the left, cells numbered from the left in each row"
                 + "".join(f"; {x}" for x in legend) + ")")
    covered: dict[str, list[str]] = {}
    for cell, piece in cells.items():
        covered.setdefault(piece, []).append(cell)
    for piece, where in covered.items():
        lines.append(f"    {mark(piece, short=True)}: {mark(piece)} on {', '.join(where)}")
    return lines


def tile_looks(rules: Rules, board: str) -> dict[str, Any]:
    """How each tile of a territory is drawn: a letter per edge, one for the centre, roads."""
    return {tile: ([e[:1].lower() or "?" for e in edges], centre[:1].lower() or "*", roads)
            for tile, (edges, centre, roads) in rules.tiles(board).items()}


def territory_lines(title: str, board: TerritoryBoard, cells: Any, rules: Rules,
                    view: dict[str, Any] | None = None) -> list[str]:
    """Each territory drawn tile by tile, under its owner's name (see draw_territory),
    then a legend of its letters and glyphs."""
    looks = tile_looks(rules, board.name)
    marks = tile_marks(view, rules, board.kind) if view is not None else {}
    seats = cells if isinstance(cells, list) else [cells]
    out = []
    for p, placed in enumerate(seats):
        owner = f" of player {p + 1}" if isinstance(cells, list) else ""
        out.append(f"{title}{owner}:")
        out += draw_territory(board, placed, looks, marks)
    return out + tile_legend(rules, board)


def tile_legend(rules: Rules, board: TerritoryBoard) -> list[str]:
    """What the letters and glyphs of a drawn tile mean."""
    terrains = sorted({t for edges, centre, _ in rules.tiles(board.name).values()
                       for t in [*edges, centre] if t})
    features = rules.display.get("features", {}).get(board.kind, [])
    out = ["    (a letter per edge and the centre: its terrain; a capital: a road "
           "ends there)",
           "    (" + ", ".join(f"{t[:1].lower()} {t}" for t in terrains) + ")"]
    if features:
        out.append("    (in the corners: " + ", ".join(f"{g} {w}" for g, w in features) + ")")
    return out


def tile_marks(view: dict[str, Any], rules: Rules, kind: str) -> dict[str, str]:
    """The glyphs of each tile's features the view shows, one per unit (`feature`)."""
    glyphs = {w: g for g, w in rules.display.get("features", {}).get(kind, [])}
    return {cid: "".join(glyphs.get(w, "") * n for w, n in seen.get("features", {}).items())
            for cid, seen in view["components"].get(kind, {}).items()}


def tile_row(view: dict[str, Any], rules: Rules, board: TerritoryBoard, items: list[str],
             width: int) -> list[str]:
    """The tiles of a zone drawn side by side, not yet turned, each numbered as the list
    under them numbers it."""
    looks = tile_looks(rules, board.name)
    marks = tile_marks(view, rules, board.kind)
    per_line = max(1, (width - 4) // 6)
    out: list[str] = []
    for start in range(0, len(items), per_line):
        rows = ["    "] * 4
        for k, cid in enumerate(items[start:start + per_line], start=start + 1):
            edges, centre, roads = looks[cid]
            side = [c.upper() if d in roads else c for d, c in enumerate(edges)]
            for r, line in enumerate(tile_block(side, centre, marks.get(cid, ""))):
                rows[r] += f" {line}  "
            rows[3] += f"{k:^5} "
        out += [r.rstrip() for r in rows]
    return out


def territories(view: dict[str, Any], rules: Rules) -> list[str]:
    """The territories of tiles of a view, drawn (none for a game without them)."""
    return [line for name, shape in rules.boards.items()
            if isinstance(shape.geometry, TerritoryBoard)
            and name not in rules.display["hidden"]
            for line in territory_lines(_title(name, rules.display), shape.geometry,
                                        view["boards"][name], rules, view)]


class TerritoryWatch:
    """What `run` draws as a game goes: a territory each time its owner has finished
    placing tiles (when the seat to decide changes), so that a game of tile-laying can be
    followed tile by tile; the drawing at the end is `territories`."""

    def __init__(self, rules: Rules, seat: int | None):
        self.rules, self.seat = rules, seat
        self.boards = [(name, shape.geometry) for name, shape in rules.boards.items()
                       if isinstance(shape.geometry, TerritoryBoard)
                       and name not in rules.display["hidden"]]
        self.drawn: dict[str, list[Any]] = {}
        self.decider: int | None = None

    def lines(self, game: Any) -> list[str]:
        """The territories changed since they were last drawn, when the seat to decide
        has just changed (none for a game without territories)."""
        if not self.boards:
            return []
        decider = None if game.over else game.decider
        if decider == self.decider and not game.over:
            return []
        self.decider = decider
        view = game.view(self.seat)
        out: list[str] = []
        for name, board in self.boards:
            cells = view["boards"][name]
            seats = cells if isinstance(cells, list) else [cells]
            before = self.drawn.setdefault(name, [dict(c) for c in seats])
            for p, placed in enumerate(seats):
                if placed != before[p]:
                    before[p] = dict(placed)
                    owner = f" of player {p + 1}" if isinstance(cells, list) else ""
                    out.append(f"{_title(name, self.rules.display)}{owner}:")
                    out += draw_territory(board, placed, tile_looks(self.rules, name),
                                          tile_marks(view, self.rules, board.kind))
        return out



def ring_lines(board: RingBoard, marks: dict[str, str], noun: str = "") -> list[str]:
    """A ring drawn as a circle of marks (`.` for an empty position), its first position at
    the top and the others clockwise (an open arc leaves a gap at the top). A mark is at
    most two characters; a line under the circle says how to count round it."""
    ends = "; its two ends are not neighbours" if board.open else ""
    first, last = (f"{noun} 1", f"{noun} {board.size}") if noun else \
        (f"{board.name}1", f"{board.name}{board.size}")
    return _circle(board, [marks.get(n, ".") for n in board.names]) + [
        f"    ({first} at the top, then clockwise to {last}{ends})"]


def _circle(board: RingBoard, marks: list[str]) -> list[str]:
    """The marks of a ring's positions (at most two characters each) round a circle."""
    ry = max(2, math.ceil(board.size / 5))  # a row of text is about twice a column's width
    rx = 3 * ry
    canvas = [[" "] * (2 * rx + 6) for _ in range(2 * ry + 1)]
    for k, (x, y) in enumerate(board.spots):
        row, col = round(ry + y * ry), round(rx + x * rx) + 2
        for i, ch in enumerate(f"{marks[k]:>2}"):
            canvas[row][col + i] = ch
    return [("    " + "".join(r)).rstrip() for r in canvas]


def zone_ring(view: dict[str, Any], rules: Rules, zone: str, items: list[str]) -> list[str]:
    """A zone the display draws as a ring (`ring zone by counter`): the components that
    stand at each place round a circle, by their glyphs or initials (their number, when
    more than two stand there; the first place at the top, then clockwise), then each
    place with what stands there."""
    ring = rules.display["rings"][zone]
    kind, places = rules.zones[zone].kind, ring["places"]
    at: dict[str, list[str]] = {p: [] for p in places}
    elsewhere: list[str] = []
    for cid in items:
        place = view["components"][kind][cid]["counters"].get(ring["by"])
        shown = _component(view, rules, kind, cid, True, besides=ring["by"])
        (at[place] if place in at else elsewhere).append(shown)
    glyphs = rules.display["glyphs"].get(kind, {})
    marks = {p: "".join(glyphs.get(c) or view["components"][kind][c]["label"][:1]
                        for c in items if view["components"][kind][c]["counters"]
                        .get(ring["by"]) == p) for p in places}
    lines = _circle(RingBoard(zone, len(places)),
                    [(marks[p] if len(marks[p]) <= 2 else str(len(at[p]))) or "."
                     for p in places])
    lines.append(f"    ({places[0]} at the top, then clockwise; the initials of what "
                 "stands there)")
    lines += [f"    {p}: {', '.join(at[p])}" for p in places if at[p]]
    if elsewhere:
        lines.append(f"    in no place: {', '.join(elsewhere)}")
    return lines


def _owner(view: dict[str, Any], screen: dict[str, Any], kind: str, piece: str) -> str:
    """The seat number of a piece's owner, as the rules' display names its counter."""
    counter = screen["owners"].get(kind)
    if counter is None:
        return ""
    owner = view["components"][kind][piece]["counters"].get(counter)
    return str(owner).removeprefix("player ") if isinstance(owner, str) else ""


def _title(name: str, screen: dict[str, Any]) -> str:
    """What the screen calls a counter, zone or board: its label, else its name."""
    return str(screen["labels"].get(name, name))


def _component(view: dict[str, Any], rules: Rules, kind: str, cid: str,
               changed_only: bool, besides: str = "") -> str:
    """A component's label and, in brackets, the counters kept per component of its kind
    that the view shows (with `changed_only`, those that have left their first value; never
    those the display hides, nor `besides`, which the drawing shows otherwise)."""
    seen = view["components"][kind][cid]
    screen = rules.display
    facts = ", ".join(f"{_title(name, screen)} {text(value)}"
                      for name, value in seen["counters"].items()
                      if name not in screen["hidden"] and name != besides
                      and not (changed_only and value == rules.counters[name].initial))
    return f"{seen['label']} ({facts})" if facts else seen["label"]


def show_state(view: dict[str, Any], rules: Rules, width: int = 80) -> list[str]:
    """The boards, counters, dice and zones of a seat's view, as lines of text within
    `width` columns: the counters that belong to nobody first, then the players' as a
    table (the seat deciding marked), a counter kept per player and per something else as
    a table with its keys as headings; what the rules' `display:` hides is left out, its
    groups are drawn under their titles."""
    screen = rules.display
    lines = draw_boards(view, rules)
    shown: dict[str, list[str]] = {}
    columns: dict[str, list[Any]] = {}
    for name, value in view["counters"].items():
        shape = rules.counters[name]
        if any(key in view["components"] for key in shape.keys) or name in screen["hidden"]:
            continue  # a counter kept per component and per something else: not drawn
        title = _title(name, screen)
        headings = view.get("headings", {}).get(name)
        in_group = any(name in g for _, g in screen["groups"])
        if list(shape.keys) == ["player"] and not in_group:
            columns[title] = value
        elif shape.keys and shape.keys[0] == "player":
            shown[name] = _keyed(title, headings[0] if headings and len(headings) == 1
                                 else None, value, width)
        else:
            shown[name] = [f"{title}: {text(value)}"]
    for name, faces in view["dice"].items():
        if faces and isinstance(faces[0], list):  # a set per player: a line per seat
            shown[name] = [f"{_title(name, screen)} of player {p + 1}: "
                           f"{' '.join(text(f) for f in fs)}" for p, fs in enumerate(faces)]
        else:
            shown[name] = [f"{_title(name, screen)}: {' '.join(text(f) for f in faces)}"]
    shown.update(_zones(view, rules, width))
    grouped = {n for _, names in screen["groups"] for n in names}
    deciding = view.get("decision", {}).get("player")
    lines += _players(columns, view["players"], deciding, width)
    for name, drawn in shown.items():
        if name not in screen["hidden"] and name not in grouped:
            lines += drawn
    for title, names in screen["groups"]:
        inside = [line for n in names if n not in screen["hidden"] for line in shown.get(n, [])]
        if inside:
            lines.append(f"{title}:")
            lines += [f"  {line}" for line in inside]
    return [w for line in lines for w in (textwrap.wrap(line, width, subsequent_indent="    ")
                                          if len(line) > width else [line])]


def _players(columns: dict[str, list[Any]], players: int, deciding: int | None,
             width: int) -> list[str]:
    """The counters kept per player as one table, a row per seat, the seat deciding marked;
    as a line per counter when the table is wider than the screen."""
    if not columns:
        return []
    heads = list(columns)
    sizes = [max(len(h), *(len(text(v)) for v in columns[h])) for h in heads]
    rows = ["          " + "  ".join(f"{h:>{n}}" for h, n in zip(heads, sizes, strict=True))]
    for p in range(players):
        mark = "  < deciding" if p == deciding else ""
        rows.append(f"  player {p + 1:<2}" + "  ".join(
            f"{text(columns[h][p]):>{n}}" for h, n in zip(heads, sizes, strict=True)) + mark)
    if max(len(r) for r in rows) <= width:
        return rows
    return [f"{h}: " + "; ".join(f"player {p + 1}: {text(v)}" for p, v in enumerate(vs))
            for h, vs in columns.items()]


def _keyed(title: str, heads: list[str] | None, rows: list[Any], width: int) -> list[str]:
    """A counter kept per player and per one other key: a table, the key's values as its
    headings; as a line per player when it is wider than the screen."""
    if heads is not None:
        sizes = [max(len(h), *(len(text(r[k])) for r in rows)) for k, h in enumerate(heads)]
        table = [f"{title}:", "           " + " ".join(
            f"{h:>{n}}" for h, n in zip(heads, sizes, strict=True))]
        table += [f"  player {p + 1:<2} " + " ".join(
            f"{text(v):>{n}}" for v, n in zip(row, sizes, strict=True))
            for p, row in enumerate(rows)]
        if max(len(t) for t in table) <= width:
            return table
        return [f"{title}:"] + [f"  player {p + 1}: " + ", ".join(
            f"{h} {text(v)}" for h, v in zip(heads, row, strict=True))
            for p, row in enumerate(rows)]
    return [f"{title}: " + "; ".join(f"player {p + 1}: {text(r)}" for p, r in enumerate(rows))]


def _zones(view: dict[str, Any], rules: Rules, width: int = 80) -> dict[str, list[str]]:
    """Each zone that holds something, as the seat sees it: its components, each with the
    counters kept per component that have left their first value; a hidden zone by its
    size; tiles of a territory not yet placed drawn side by side, numbered."""
    out: dict[str, list[str]] = {}
    screen = rules.display
    boards = {shape.geometry.kind: shape.geometry for shape in rules.boards.values()
              if isinstance(shape.geometry, TerritoryBoard)}
    placed = {t for name, shape in rules.boards.items()
              if isinstance(shape.geometry, TerritoryBoard)
              for cells in _seats(view["boards"][name]) for t, _ in cells.values()}
    for name, shape in rules.zones.items():
        shown = view["zones"][name]
        lines = out.setdefault(name, [])
        for owner, items in enumerate(shown) if shape.per_player else [(None, shown)]:
            title = _title(name, screen)
            title = title if owner is None else f"{title} of player {owner + 1}"
            if isinstance(items, dict):
                if items["size"]:
                    lines.append(f"{title}: {items['size']} hidden")
            elif items and name in screen["rings"]:
                lines += [f"{title}:", *zone_ring(view, rules, name, items)]
            elif items and shape.kind in boards and not placed.intersection(items):
                lines += [f"{title}:", *tile_row(view, rules, boards[shape.kind], items, width)]
                lines += [f"    {k}. {_component(view, rules, shape.kind, c, True)}"
                          for k, c in enumerate(items, start=1)]
            elif items:  # an empty zone says nothing
                lines.append(f"{title}: " + ", ".join(
                    _component(view, rules, shape.kind, c, True,
                               besides=_own(view, screen, shape.kind, c, owner))
                    for c in items))
    return out


def _own(view: dict[str, Any], screen: dict[str, Any], kind: str, cid: str,
         owner: int | None) -> str:
    """The owner counter of a component in a zone of its own owner's, which the zone's
    title says already ("pool of player 2": not "Scion (owner player 2)")."""
    counter = screen["owners"].get(kind, "")
    value = view["components"][kind][cid]["counters"].get(counter)
    return counter if owner is not None and value == f"player {owner + 1}" else ""


def _seats(cells: Any) -> list[dict[str, Any]]:
    """A territory's cells per seat (one territory shared by all: a list of one)."""
    return cells if isinstance(cells, list) else [cells]


def asking(who: int, decision: Decision | None, question: str = "") -> str:
    """The line that asks a seat to decide: the question the display gives it; a secret
    choice, a turn of a round played at once, an answer to an offer say so."""
    line = f"player {who + 1}, your choice"
    if decision is None:
        return line + ":"
    together = [p for p in decision.simultaneous if p != who]
    names = ", ".join(f"player {p + 1}" for p in together)
    if decision.secret:
        line = f"player {who + 1}, your secret choice"
        if together:
            line += f" ({names} will choose too; nothing is revealed before all have chosen)"
    elif together:
        line += f" ({names} play this round at the same time)"
    if decision.offered_by is not None:
        line = f"player {who + 1}, player {decision.offered_by + 1} makes you an offer"
    if question and question not in ("Your choice", "Your secret choice"):
        return f"{line}: {question}"
    return line + ":"


def read_save(rules: Rules, path: str) -> Game:
    """A game saved at the prompt with `save FILE`."""
    try:
        data = json.loads(read_text(path, MAX_RECORD_BYTES))  # a regular file under the cap
    except FileNotFoundError:
        raise RulesError([_diag(f"no such saved game: {path}")]) from None
    except Unreadable as err:
        raise RulesError([_diag(f"cannot read the saved game {path}: {err.reason}")]) from None
    except ValueError as err:
        raise RulesError([_diag(f"cannot read the saved game {path}: {err}")]) from None
    except RecursionError:
        raise RulesError([_diag(f"cannot read the saved game {path}: its lists are nested "
                                "too deep")]) from None
    return rules.load_game(data)


class Seats:
    """What the person at the terminal is told, for the seats they play. Playing several
    seats (hot seat), a line told to only some of them waits until one of those seats is
    next to decide, after the terminal has asked for the screen to be passed to it: so a
    secret choice is never shown to the next person."""

    def __init__(self, game: Game, seats: set[int], say: Callable[[str], None],
                 width: int = 80):
        self.game, self.seats, self.width = game, seats, width
        self.raw = say
        self.said = 0
        self.held: dict[int, list[str]] = {s: [] for s in seats}
        self.at: int | None = None  # the seat the screen was last passed to

    def say(self, line: str) -> None:
        for part in textwrap.wrap(line, self.width, subsequent_indent="    ") or [""]:
            self.raw(part)

    def tell(self) -> None:
        """Say the new lines of the log, as the screen words them (see words.py)."""
        new = self.game.screen_lines(self.said)
        self.said = len(self.game.log)
        for line in new:
            told = [s for s in self.seats if line.told(s)]
            if len(told) == len(self.seats) or (told and len(self.seats) == 1) \
                    or told == [self.at]:  # the screen is with the seat told
                self.say(f"  {line.text}")
            else:
                for s in told:
                    self.held[s].append(line.text)

    def hand_to(self, who: int, secret: bool, stdin: TextIO) -> bool:
        """Before a seat decides: with several seats, ask for the screen to be passed to
        it when it changes (and, after a secret choice, clear what was on it); then say
        what was held for it. False at the end of the input."""
        if len(self.seats) > 1 and self.at != who:
            if self.at is not None and secret:
                self.raw("\n" * 40)  # what the last seat chose scrolls off the screen
            self.say(f"-- pass the screen to player {who + 1}, then press Enter --")
            if not stdin.readline():
                return False
        self.at = who
        for text in self.held[who]:
            self.say(f"  {text}")
        self.held[who] = []
        return True


def play_at_terminal(game: Game, agents: list, seats: set[int],
                     stdin: TextIO | None = None, stdout: TextIO | None = None,
                     ask_forced: bool = False, width: int | None = None,
                     show_ids: bool = False, forced: Policy = "pass") -> int:
    """Play `game` to its end: the person answers for `seats`, `agents` for the others.
    The person is shown the lines of the log their seats were told, as they are said. A
    decision of the person's with one option is taken for them, and said, as `forced`
    says (every one by default; "rules": those the rule file's `pass forced` names; "ask",
    as `ask_forced`: none): the record holds it as any other. Lines are drawn within `width`
    columns (by default the terminal's); `show_ids` shows each option's id (for rule
    authors writing examples)."""
    # looked up at call time, not import time, so a replaced sys.stdin/sys.stdout is used
    stdin = stdin if stdin is not None else sys.stdin
    stdout = stdout if stdout is not None else sys.stdout
    width = width or shutil.get_terminal_size((80, 24)).columns
    rules = game.rules

    def say(text: str = "") -> None:
        print(text, file=stdout, flush=True)

    game.auto_chance = False
    game.narrate()
    person = Seats(game, seats, say, width)  # a resumed game first tells again what was told
    say(f"{rules.name}: you play seat{'s' if len(seats) > 1 else ''} "
        + ", ".join(str(s + 1) for s in sorted(seats)))
    while not game.over:
        person.tell()
        if game.is_chance:
            game.roll_chance()
            continue
        who = game.decider
        assert who is not None
        seen = Observation(game, who)
        if who not in seats:
            game.apply_index(_bot_move(agents[who], seen, say))
            continue
        decision = seen.decision
        if not person.hand_to(who, decision is not None and decision.secret, stdin):
            say("\nend of input: the game is left unfinished")
            return 1
        view = seen.view
        options = view["decision"]["options"]
        if passes(game, "ask" if ask_forced else forced):
            person.say(f"  player {who + 1} (you): {options[0][1]}, the only option")
            game.apply_index(0)
            continue
        say()
        for line in show_state(view, rules, width):
            say(line)
        question = asking(who, decision, view["decision"]["prompt"])
        chosen = _ask(game, view, "\n".join(textwrap.wrap(question, width)), stdin, stdout,
                      width, show_ids)
        if chosen is None:
            return 1
        if chosen < 0:
            return 0
        game.apply_index(chosen)
    person.tell()
    say()
    for line in show_state(game.view(min(seats) if seats else None), rules, width):
        say(line)
    for line in describe_result(game):
        say(line)
    return 0


def _ask(game: Game, view: dict[str, Any], question: str, stdin: TextIO, stdout: TextIO,
         width: int, show_ids: bool = False) -> int | None:
    """The index of the option the person picks (-1: they quit; None: the input ended).
    A word or coordinate narrows a long list; `save FILE` saves the game."""
    choices = [Choice(n, oid, f"{label}   [{oid}]" if show_ids else label)
               for n, (oid, label) in enumerate(view["decision"]["options"], start=1)]
    shown = choices

    def say(text: str = "") -> None:
        print(text, file=stdout, flush=True)

    say(question)
    for line in listing(shown, width):
        say(line)
    while True:
        stdout.write("> ")
        stdout.flush()
        answer = stdin.readline()
        if not answer:
            say("\nend of input: the game is left unfinished")
            return None
        answer = answer.strip()
        if answer == "quit":
            say("game left unfinished")
            return -1
        if answer.startswith("save "):
            _save(game, answer[5:].strip(), say)
            continue
        if not answer:
            shown = choices
            for line in listing(shown, width):
                say(line)
            continue
        picked, narrowed = pick(shown if not answer.isdigit() else choices, answer)
        if picked is None and not narrowed and shown is not choices:
            picked, narrowed = pick(choices, answer)  # a word of the whole list
        if picked is not None:
            return picked.number - 1
        if narrowed:
            shown = narrowed
            for line in listing(shown, width):
                say(line)
            say("  (an empty line shows every option again)")
            continue
        say(missing(choices, answer))


def _save(game: Game, target: str, say: Callable[[str], None]) -> None:
    try:
        Path(target).write_text(json.dumps(game.to_json()), encoding="utf-8")
        say(f"saved to {target}; resume with: rulesdsl play "
            f"{game.rules.path} --load {target}")
    except OSError as err:
        say(f"cannot save to {target}: {err}")


def _bot_move(agent: Any, seen: Observation, say: Callable[[str], None]) -> int:
    """A bot's choice; a bot that searches (it keeps a `last` report) says that it is
    thinking, then how long it thought and what it found (not when it has one option)."""
    if not hasattr(agent, "last") or seen.num_options < 2:
        return int(agent.choose(seen))
    who = f"player {seen.seat + 1} ({agent.name})"
    say(f"  {who} is thinking...")
    choice = int(agent.choose(seen))
    report = agent.last
    if isinstance(report, Report):
        say(f"  {who} thought: {report.describe()}")
    return choice


def _diag(message: str):  # type: ignore[no-untyped-def]
    from ..diagnostics import Diagnostic

    return Diagnostic("G001", message)
