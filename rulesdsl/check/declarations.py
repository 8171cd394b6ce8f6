"""Checking declarations: enums, settings, boards, kinds, zones, dice, counters, triggers,
the ranking and the examples.

Stage: check. Each declaration adds to the `Analysis`: names, the counter slots of the
state, board geometry, component tables.
"""

from __future__ import annotations

import itertools
import math
import re
from typing import Any

from .. import ast as A
from ..boards.grids import CornerBoard, RingBoard, SquareBoard, TriangleBoard
from ..boards.territory import (
    MAX_TERRITORY,
    TerritoryBoard,
    TurnBoard,
    turns_name,
)
from ..diagnostics import Diagnostic, Span
from ..limits import MAX_COMPONENTS, MAX_LIMIT, MAX_SLOTS
from .analysis import (
    CounterInfo,
    DiceInfo,
    DieInfo,
    EnumInfo,
    KindInfo,
    Proc,
    Scope,
    StatInfo,
    ZoneInfo,
    is_a,
    plural,
    walk,
)
from .bindings import Var
from .expressions import ExpressionChecker
from .tiles import tile_fields_problem
from .types import (
    ANY,
    BOOL,
    INT,
    NONE,
    PLAYER,
    TEXT,
    Type,
    compatible,
    element,
    with_article,
)

# the names `of` reads itself, whatever the value: a field cannot take them
RESERVED_FIELDS = {
    "face": "'face of d' reads the face a die shows",
    "piece": "'piece of c' reads the piece on a cell",
}

class DeclarationChecker(ExpressionChecker):
    """The declarations of a rule file."""

    def enum_decl(self, d: A.EnumDecl) -> None:
        if not self.declare(d.name, "enum", d.span):
            return
        info = EnumInfo(d.name, [], [], list(d.fields))
        for i, v in enumerate(d.values):
            if self.declare(v.name, f"value of {d.name}", v.span):
                self.a.enum_values[v.name] = (d.name, i)
            info.values.append(v.name)
            info.labels.append(v.label or v.name)
        self.a.enums[d.name] = info

    def reserved_fields(self, d: A.EnumDecl | A.KindDecl) -> None:
        """Report each field of a table named by a word `of` reads itself (`face of d`,
        `piece of c`), at its place."""
        for i, f in enumerate(d.fields):
            if f in RESERVED_FIELDS:
                span = d.field_spans[i] if i < len(d.field_spans) else d.span
                self.err("E022", f"'{f}' is a word of the language and cannot name a field: "
                         f"{RESERVED_FIELDS[f]}", span,
                         hint=f"give the field another name, such as {f}_value")

    def enum_fields(self, d: A.EnumDecl) -> None:
        """The fields of an enum that is a table, once the constants are known."""
        info = self.a.enums.get(d.name)
        if info is None or not d.fields:
            return
        self.reserved_fields(d)
        if len(set(d.fields)) != len(d.fields):
            self.err("E021", f"enum {d.name} names a field twice", d.span)
            return
        scope = Scope(Proc("enum", d.name, [], [], d.span))
        info.columns = {f: [] for f in d.fields}
        for v in d.values:
            if len(v.fields) != len(d.fields):
                self.err("E024", f"a value of {d.name} has {plural(len(d.fields), 'field')} "
                         f"({', '.join(d.fields)}), {v.name} gives {len(v.fields)}", v.span)
                for f in d.fields:
                    info.columns[f].append(None)
                continue
            for f, value in zip(d.fields, v.fields):
                info.columns[f].append(self.table_value(d.name, f, value, info.types, scope))

    def table_value(self, owner: str, f: str, value: A.Expr, types: dict[str, Type],
                    scope: Scope, each: bool = False) -> Any:
        """A value of a table (a kind's, an enum's), known before the game; its field's
        type is the type of its first value, and every other must fit it. With `each`, the
        value is a list whose items are the field's values."""
        t = self.expr(value, scope)
        if each:
            t = element(t) or ANY
        v = self.constant(value)
        known = types.get(f)
        if known is not None and not compatible(known, t):
            self.err("E030", f"field {f} of {owner} holds {with_article(known)}, "
                     f"not {with_article(t)}", value.span)
        if known is None or known in (NONE, ANY) or known == ("list", ANY):
            types[f] = t
        return v

    def bounds(self, low: A.Expr | None, high: A.Expr | None,
               what: str) -> tuple[int | None, int | None]:
        """The bounds of `between LOW and HIGH`: whole numbers known before the game (E031
        when not known, E030 when not whole numbers, each at its bound); (None, None) when
        there are none, or when either is wrong (its error reported)."""
        if low is None or high is None:
            return None, None
        found: list[int | None] = []
        for bound in (low, high):
            errors = len(self.a.diagnostics)
            v = self.constant(bound)
            if type(v) is not int:
                if len(self.a.diagnostics) == errors:  # known, but not a whole number
                    self.err("E030", f"the bounds of {what} are whole numbers, not "
                             f"{with_article(self.value_type(v))}", bound.span)
                v = None
            found.append(v)
        return (found[0], found[1]) if None not in found else (None, None)

    def setting_decl(self, d: A.SettingDecl) -> None:
        if not self.declare(d.name, "setting", d.span):
            return
        self.a.settings[d.name] = d
        value = self.constant(d.value)
        low, high = self.bounds(d.low, d.high, f"setting {d.name}")
        self.a.setting_bounds[d.name] = (low, high)
        if d.name in self.overrides:
            new = self.overrides[d.name]
            # a rejected value leaves the default in force, so uses of the setting still
            # check (and are not reported as unknown names)
            if type(new) is not type(value):
                self.err("E033", f"setting {d.name} takes {with_article(self.value_type(value))}, "
                         f"not {new!r}", d.span)
            elif low is not None and high is not None and not (low <= new <= high):
                self.err("E032", f"{d.name}={new} is outside its bounds {low} to {high}",
                         d.span)
            else:
                value = new
        elif low is not None and high is not None and type(value) is int and \
                not (low <= value <= high):
            self.err("E032", f"{d.name} = {value} is outside its own bounds {low} to {high}",
                     d.value.span)
        self.a.values[d.name] = value

    def board_decl(self, d: A.BoardDecl) -> None:
        if not self.declare(d.name, "board", d.span):
            return
        board: Any
        if d.shape == "hexagon":
            side = self.size(d.width, d.span)
            if side is None:
                return
            if not 1 <= side <= 12:
                self.err("E050", f"a hexagon of triangles is 1 to 12 triangles along each "
                         f"edge, not {side}", d.span)
                return
            board = TriangleBoard(d.name, side)
            self.add_board(board)
            return
        if d.shape == "territory":
            self.territory_decl(d)
            return
        if d.shape == "corners":
            under = self.a.boards.get(d.of or "")
            if not isinstance(under, TriangleBoard):
                self.err("E050", f"'corners of' takes a hexagon of triangles, and "
                         f"'{d.of}' is none", d.span, hint=self.suggest(d.of or ""))
                return
            board = CornerBoard(d.name, under)
            self.corners[under.name] = d.name
            self.add_board(board)
            return
        if d.shape in ("ring", "arc"):
            n = self.size(d.width, d.span)
            if n is None:
                return
            if not 2 <= n <= 99:
                self.err("E050", f"a ring is 2 to 99 positions, not {n}", d.span)
                return
            self.add_board(RingBoard(d.name, n, open_ends=d.shape == "arc"))
            return
        width, height = self.size(d.width, d.span), self.size(d.height, d.span)
        if width is None or height is None:
            return
        if not (1 <= width <= 26 and 1 <= height <= 99):
            self.err("E050", f"a square board is 1 to 26 columns by 1 to 99 rows, not "
                     f"{width} x {height}", d.span)
            return
        self.add_board(SquareBoard(d.name, width, height, d.adjacency))

    def limit_decl(self, d: A.LimitDecl) -> None:
        n = self.size(d.decisions, d.span)
        if n is None:
            return
        if not 1 <= n <= MAX_LIMIT:  # a game of random bots plays to its limit
            self.err("E050", f"a game's limit is 1 to {MAX_LIMIT:,} decisions, not {n:,}",
                     d.span)
            return
        self.a.limit, self.a.limit_span = n, d.span

    def size(self, value: int | str, span: Span) -> int | None:
        """A board's size: a number, or a constant or setting that holds one."""
        if isinstance(value, int):
            return value
        got = self.a.values.get(value)
        if isinstance(got, int) and not isinstance(got, bool):
            return got
        if value not in self.names:
            self.err("E020", f"unknown name '{value}'", span, hint=self.suggest(value))
            return None
        self.err("E031", f"a size or a count is a number or a constant (or setting) that "
                 f"holds one, and '{value}' is not", span, hint=self.suggest(value))
        return None

    def held_type(self, what: str, span: Span) -> Type | None:
        """The type `holding WHAT` names: player, a kind's components, an enum's values."""
        if what == "player":
            return PLAYER
        if what in self.a.kinds:
            return ("comp", what)
        if what in self.a.enums:
            return ("enum", what)
        self.err("E020", f"a board or counter holds players, components of a kind or values "
                 f"of an enum, and '{what}' is none of these", span, hint=self.suggest(what))
        return None

    def holding(self, d: A.BoardDecl) -> None:
        held = self.held_type(d.holding or "", d.span)
        if held is not None:
            self.a.holding[d.name] = held
        if d.shape == "territory" and d.name in self.a.boards and held is not None:
            problem = tile_fields_problem(d, self.a.kinds[d.of or ""])
            if problem:
                self.err("E051", problem, d.span,
                         hint="for example: board land: territory 9 x 9 of Tile edges n, e, "
                              "s, w roads roads")

    def territory_decl(self, d: A.BoardDecl) -> None:
        width, height = self.size(d.width, d.span), self.size(d.height, d.span)
        if width is None or height is None:
            return
        if not (1 <= width <= MAX_TERRITORY and 1 <= height <= MAX_TERRITORY):
            self.err("E051", f"a territory is 1 to {MAX_TERRITORY} columns by 1 to "
                     f"{MAX_TERRITORY} rows, not {width} x {height}", d.span)
            return
        seats = self.a.max_players if d.per_player else 1
        board: Any = TerritoryBoard(d.name, width, height, seats, d.of or "", list(d.edges),
                                    d.centre, d.roads, d.groups, d.adjacency)
        if d.per_player:
            # every seat's territory has a g7: cells are named through territory(land, p)
            self.a.boards[board.name] = board
        else:
            self.add_board(board)
        # the turns of the tiles are kept as a board of their own, not nameable in rules
        turns: Any = TurnBoard(board)
        self.a.boards[turns_name(board.name)] = turns

    def add_board(self, board: Any) -> None:
        self.a.boards[board.name] = board
        for cell in board.names:
            self.a.cells.setdefault(cell, []).append(board.name)

    def kind_decl(self, d: A.KindDecl) -> None:
        if not self.declare(d.name, "kind", d.span):
            return
        columns: dict[str, list[Any]] = {f: [] for f in d.fields}
        types: dict[str, Type] = {}
        scope = Scope(Proc("kind", d.name, [], [], d.span))
        if len(set(d.fields)) != len(d.fields):
            self.err("E021", f"kind {d.name} names a field twice", d.span)
            return
        self.reserved_fields(d)
        if d.defaults and d.source is None:
            self.err("E009", f"kind {d.name} gives a field a value for the rows that leave it "
                     "out, and only a kind read from a data file has such rows", d.span,
                     hint="write the value in each row of the table")
        count = 0
        for row in d.rows:
            n = self.size(row.count, row.span)
            if n is None:
                continue
            if len(row.values) != len(d.fields):
                self.err("E024", f"a {d.name} has {plural(len(d.fields), 'field')} "
                         f"({', '.join(d.fields)}), this row gives {len(row.values)}",
                         row.span)
                continue
            if n < 1:
                self.err("E050", "a row stands for at least one component", row.span)
                continue
            made = self.kind_row(d, row, types, scope)
            if made is None or count + n * len(made) > MAX_COMPONENTS:
                self.err("E034", f"kind {d.name} would have more than {MAX_COMPONENTS:,} "
                         "components", row.span)
                return
            for combo in made:
                for f, v in zip(d.fields, combo):
                    columns[f].extend([v] * n)
            count += n * len(made)
        if count == 0 and d.rows:
            self.err("E050", f"kind {d.name} has no components", d.span)
        if "faces" in d.fields and count:
            self.faces_field(d, columns["faces"], types.get("faces", ANY))
        self.a.kinds[d.name] = KindInfo(d.name, list(d.fields), columns, types, count)

    def kind_row(self, d: A.KindDecl, row: A.KindRow, types: dict[str, Type],
                 scope: Scope) -> list[list[Any]] | None:
        """The field values of the components a row stands for (before its count): one
        list, or one per combination of its `each` values (the first varying slowest);
        None when the combinations would be more than a kind may have."""
        choices: list[list[Any]] = []
        holes: dict[int, A.StrLit] = {}
        for k, (f, value) in enumerate(zip(d.fields, row.values)):
            if isinstance(value, A.Each):
                before = len(self.a.diagnostics)
                items = self.table_value(d.name, f, value.items, types, scope, each=True)
                if len(self.a.diagnostics) > before:
                    items = [None]
                elif not isinstance(items, list) or not items:
                    self.err("E070", "'each' takes a non-empty list known before the game",
                             value.items.span)
                    items = [None]
                choices.append(items)
            elif isinstance(value, A.StrLit) and any(not isinstance(p, str)
                                                     for p in value.parts):
                holes[k] = value
                types.setdefault(f, TEXT)
                choices.append([None])
            else:
                choices.append([self.table_value(d.name, f, value, types, scope)])
        if math.prod(len(c) for c in choices) > MAX_COMPONENTS:
            return None
        combos = [list(c) for c in itertools.product(*choices)]
        for k, text in holes.items():
            if not self.holes_named(d, text, holes):
                continue
            named = [p if isinstance(p, str) else getattr(p, "name", "") for p in text.parts]
            for combo in combos:
                combo[k] = "".join(
                    p if isinstance(p, str) else self.shown(
                        combo[d.fields.index(n)], types.get(n, ANY))
                    for p, n in zip(text.parts, named))
        return combos

    def holes_named(self, d: A.KindDecl, text: A.StrLit, holes: dict[int, A.StrLit]) -> bool:
        """Whether each `{...}` of a row's text names another field of the row."""
        for part in text.parts:
            if isinstance(part, str):
                continue
            name = part.name if isinstance(part, A.Name) else None
            if name not in d.fields or d.fields.index(name) in holes:
                self.err("E070", f"in a row of kind {d.name}, braces name another field of "
                         f"the row ({', '.join(d.fields)})", part.span,
                         hint='for example: "{rank} of {suit}"')
                return False
        return True

    def shown(self, value: Any, t: Type) -> str:
        """A value as a row's text shows it: an enum value by its label."""
        if isinstance(t, tuple) and t[0] == "enum" and isinstance(value, int):
            return self.a.enums[t[1]].labels[value]
        if isinstance(value, bool):
            return "yes" if value else "no"
        return "none" if value is None else str(value)

    def faces_field(self, d: A.KindDecl, faces: list[Any], t: Type) -> None:
        """A kind with a field `faces` is a kind of die: each component lists its faces."""
        face = element(t)
        ok = is_a(t, "list") and (face == INT or is_a(face, "enum"))
        if not ok or any(not isinstance(f, list) or not f for f in faces):
            self.err("E071", f"the faces of a {d.name} are a non-empty list of numbers, or of "
                     "values of one enum, for each row", d.span,
                     hint="for example: 4 x Fire, [Rune, Rend, Build, Heal]")

    def display_decl(self, d: A.DisplayDecl) -> None:
        """What a `display:` block says: names it uses must be the game's."""
        info = self.a.display
        drawn = set(self.a.counters) | set(self.a.zones) | set(self.a.dice) | set(self.a.boards)
        for item in d.items:
            if item.what == "label" and item.by is not None:
                self.label_by(item)
            elif item.what in ("ask", "tell"):
                self.ask_or_tell(item)
            elif item.what == "seat":
                self.seat(item)
            elif item.what == "feature":
                self.feature(item)
            elif item.what == "mark":
                self.mark(item)
            elif item.what == "cells":
                board = item.names[0]
                if board.name not in self.a.boards:
                    self.err("E090", f"'{board.name}' is not a board of the game", board.span,
                             hint=self.suggest(board.name))
                else:
                    self.a.display.cells[board.name] = item.text or board.name
            elif item.what in ("hide", "label", "group"):
                for n in item.names:
                    if n.name not in drawn:
                        self.err("E090", f"'{n.name}' is no counter, zone, board or dice of "
                                 "the game", n.span, hint=self.suggest(n.name))
                names = [n.name for n in item.names]
                if item.what == "hide":
                    info.hidden += [n for n in names if n not in info.hidden]
                elif item.what == "label":
                    info.labels[names[0]] = item.text or names[0]
                else:
                    info.groups.append((item.text or "", names))
            elif item.what == "glyph":
                self.glyphs(item)
            elif item.what == "ring":
                self.ring(item)
            else:
                self.owner(item)

    def screen_names(self) -> None:
        """W001: a name that reaches a screen reading as an identifier (joined by `_`,
        letters and digits mixed, a capital inside a word) with no label to show instead:
        a counter, zone, board or dice the display does not hide, a component called by
        such a field, a ring's positions, an enum value."""
        d = self.a.display
        shown = [*self.a.counters, *self.a.zones, *self.a.boards, *self.a.dice]
        for name in shown:
            info = self.a.counters.get(name)
            if name in d.hidden or name in d.labels or (info is not None and info.stat):
                continue
            if raw(name):
                self.warn(name, f"'{name}' reaches a screen as it is written",
                          f'label {name} "..." (or hide {name})')
        for name, board in self.a.boards.items():
            if isinstance(board, RingBoard) and name not in d.hidden and name not in d.cells \
                    and raw(board.names[0]):
                self.warn(name, f"the positions of {name} reach a screen as {board.names[0]}, "
                          f"{board.names[1] if len(board.names) > 1 else '...'}, ...",
                          f'label {name} cells "..." (a noun: "... 1", "... 2")')
        for name, kind in self.a.kinds.items():
            field = "name" if "name" in kind.fields else kind.fields[0]
            first = next((v for v in kind.columns.get(field, []) if isinstance(v, str) and
                          raw(v)), None)
            if name not in d.names and first is not None:
                self.warn(name, f"a {name} reaches a screen by its {field}, such as '{first}'",
                          f"label {name} by FIELD (a field of words)")
        for name, enum in self.a.enums.items():
            for value, label in zip(enum.values, enum.labels, strict=True):
                if value == label and raw(value) and value in self.first:
                    self.warn(value, f"the value {value} of {name} reaches a screen as it "
                              "is written", f'{value} "..." in the enum')

    def warn(self, name: str, message: str, fix: str) -> None:
        """A warning at the declaration of `name` (W001)."""
        span = self.first.get(name, ("", None))[1]
        self.a.diagnostics.append(Diagnostic("W001", message, span, "warning",
                                             hint=f"give it a label: {fix}"))

    def seat(self, item: A.DisplayItem) -> None:
        """`seat marks "X", "O"` and `seat colours "blue", "red"`: one for each seat the
        game may have; a mark of one or two characters, a colour a plain name (`blue`) or
        `#` and six hex digits."""
        values = [text for _, text in item.glyphs]
        colours = item.text == "colours"
        span = item.glyphs[0][0].span if item.glyphs else item.span
        if len(values) < self.a.max_players:
            self.err("E090", f"the game seats up to {self.a.max_players} players, and "
                     f"{len(values)} {item.text} are given", span)
            return
        for (name, text) in item.glyphs:
            ok = re.fullmatch(r"[a-z]{3,20}|#[0-9a-fA-F]{6}", text) if colours else \
                1 <= len(text) <= 2 and text.isprintable() and text.strip() == text
            if not ok:
                self.err("E090", f"{text!r} is no {'colour' if colours else 'mark'}",
                         name.span, hint="a colour: a name such as blue, or #1f77b4"
                         if colours else "a mark: one or two characters")
                return
        if colours:
            self.a.display.seat_colours = values
        else:
            self.a.display.seat_marks = values

    def feature(self, item: A.DisplayItem) -> None:
        """`feature Kind field "g" "word"`: a field of numbers, each unit drawn as g."""
        kind, by = item.names[0], item.by
        assert by is not None
        info = self.a.kinds.get(kind.name)
        glyph = item.done or ""
        if info is None:
            self.err("E090", f"'{kind.name}' is not a kind of component", kind.span,
                     hint=self.suggest(kind.name))
        elif by.name not in info.fields or not all(
                v is None or (isinstance(v, int) and not isinstance(v, bool))
                for v in info.columns[by.name]):
            self.err("E090", f"a feature of a {kind.name} is a field of it that holds numbers",
                     by.span, hint=f"the fields of {kind.name}: {', '.join(info.fields)}")
        elif len(glyph) != 1 or not glyph.isprintable() or glyph == " ":
            self.err("E090", f"a feature's glyph is one character, not {glyph!r}", by.span)
        else:
            self.a.display.features.setdefault(kind.name, []).append(
                (by.name, glyph, item.text or by.name))

    def mark(self, item: A.DisplayItem) -> None:
        """`mark name "g" "word"`: the cells a definition without parameters lists, all of
        one board, marked g on it."""
        name = item.names[0]
        d = self.a.defines.get(name.name)
        cells = d.body.items if d is not None and not d.params and \
            isinstance(d.body, A.ListLit) else None
        boards = {b for c in cells or [] if isinstance(c, A.Name)
                  for b in self.a.cells.get(c.name, [])}
        glyph = item.done or ""
        if cells is None or not cells or len(boards) != 1 or not all(
                isinstance(c, A.Name) and c.name in self.a.cells for c in cells):
            self.err("E090", f"'{name.name}' is no definition without parameters that lists "
                     "cells of one board", name.span,
                     hint="for example: define parks() = [A4, B9, C7]")
        elif not 1 <= len(glyph) <= 2 or not glyph.isprintable() or glyph.strip() != glyph:
            self.err("E090", f"a mark is one or two characters, not {glyph!r}", name.span)
        else:
            board = boards.pop()
            names = self.a.boards[board].names
            self.a.display.marks.setdefault(board, []).append(
                ([names.index(c.name) for c in cells if isinstance(c, A.Name)], glyph,
                 item.text or name.name))

    def label_by(self, item: A.DisplayItem) -> None:
        """`label Kind by field`: each component of a kind called by one of its fields."""
        kind, by = item.names[0], item.by
        assert by is not None
        if kind.name not in self.a.kinds:
            self.err("E090", f"'{kind.name}' is not a kind of component", kind.span,
                     hint=self.suggest(kind.name))
        elif by.name not in self.a.kinds[kind.name].fields:
            self.err("E090", f"'{by.name}' is not a field of {kind.name}", by.span,
                     hint=f"the fields of {kind.name}: "
                     f"{', '.join(self.a.kinds[kind.name].fields)}")
        else:
            self.a.display.names[kind.name] = by.name

    def ask_or_tell(self, item: A.DisplayItem) -> None:
        """`ask rule [name] "text"`, `tell rule [name] "text"`: the rule (or `play`,
        `setup`) must be the game's, and the name a choice of it (the name it binds) or an
        option of one of its menus."""
        rule = item.names[0]
        bodies = {name: r.body for name, r in self.a.rules.items()}
        for decl in self.a.file.items:
            if isinstance(decl, (A.PlayDecl, A.SetupDecl)):
                bodies["play" if isinstance(decl, A.PlayDecl) else "setup"] = decl.body
        if rule.name not in bodies:
            self.err("E090", f"'{rule.name}' is no rule of the game (nor play or setup)",
                     rule.span, hint=self.suggest(rule.name))
            return
        key = rule.name
        if len(item.names) > 1:
            name = item.names[1]
            choices = decision_names(bodies[rule.name])
            replaced = rule.name in self.a.rules and \
                self.a.rules[rule.name].span.file != item.span.file
            if name.name not in choices and replaced:
                return  # a base's line about a rule its variant replaced: nothing to say
            if name.name not in choices:
                self.err("E090", f"'{name.name}' names no choice of {rule.name}", name.span,
                         hint=f"its choices: {', '.join(choices) or 'none'}")
                return
            key = f"{rule.name} {name.name}"
        table = self.a.display.asks if item.what == "ask" else self.a.display.tells
        table[key] = item.text or ""
        if item.done is not None:
            table[f"{key} done"] = item.done

    def glyphs(self, item: A.DisplayItem) -> None:
        target = item.names[0]
        values: list[int] | None = None
        names: list[str] = []
        if target.name in self.a.kinds and item.by is not None:
            kind = self.a.kinds[target.name]
            t = kind.types.get(item.by.name)
            if item.by.name not in kind.fields or not is_a(t, "enum"):
                self.err("E090", f"a glyph of a {target.name} goes by a field of it that holds "
                         "values of an enum", item.by.span,
                         hint=f"the fields of {target.name}: {', '.join(kind.fields)}")
                return
            assert isinstance(t, tuple)
            values, names = kind.columns[item.by.name], self.a.enums[t[1]].values
        elif target.name in self.a.enums and item.by is None:
            names = self.a.enums[target.name].values
            values = list(range(len(names)))
        else:
            self.err("E090", "glyphs are given for a kind of component 'by' one of its fields, "
                     "or for the values of an enum", target.span,
                     hint=self.suggest(target.name))
            return
        table: dict[int, str] = {}
        for value, text in item.glyphs:
            if value.name not in names:
                self.err("E090", f"'{value.name}' is not a value of the enum", value.span,
                         hint=f"its values: {', '.join(names)}")
            elif not 1 <= len(text) <= 3 or not text.isprintable() or text.strip() != text:
                self.err("E090", f"a glyph is 1 to 3 characters without spaces at its ends, "
                         f"not {text!r}", value.span)
            else:
                table[names.index(value.name)] = text
        old = self.a.display.glyphs.get(target.name, [])
        self.a.display.glyphs[target.name] = [
            table.get(v, old[i] if i < len(old) else "") if v is not None else ""
            for i, v in enumerate(values)]

    def owner(self, item: A.DisplayItem) -> None:
        kind, by = item.names[0], item.by
        assert by is not None
        info = self.a.counters.get(by.name)
        if kind.name not in self.a.kinds:
            self.err("E090", f"'{kind.name}' is not a kind of component", kind.span,
                     hint=self.suggest(kind.name))
        elif info is None or [dim[:2] for dim in info.dims] != [("kind", kind.name)] \
                or info.type != PLAYER:
            self.err("E090", f"the owner of a {kind.name} is a counter kept per {kind.name} "
                     f"that holds a player, and '{by.name}' is not one", by.span,
                     hint=f"for example: counter owner per {kind.name} = none holding player")
        else:
            self.a.display.owners[kind.name] = by.name

    def ring(self, item: A.DisplayItem) -> None:
        """`ring zone by counter`: a zone drawn round a ring of an enum's values, each of
        its components where a counter kept per component says."""
        zone, by = item.names[0], item.by
        assert by is not None
        z = self.a.zones.get(zone.name)
        info = self.a.counters.get(by.name)
        if z is None:
            self.err("E090", f"'{zone.name}' is not a zone of the game", zone.span,
                     hint=self.suggest(zone.name))
        elif info is None or [dim[:2] for dim in info.dims] != [("kind", z.kind)] \
                or not is_a(info.type, "enum"):
            self.err("E090", f"a zone drawn as a ring places each {z.kind} by a counter kept "
                     f"per {z.kind} that holds values of an enum, and '{by.name}' is not one",
                     by.span, hint=f"for example: counter spot per {z.kind} = none holding "
                     "Place, with `enum Place: North, East, South, West`")
        else:
            self.a.display.rings[zone.name] = by.name

    def zone_decl(self, d: A.ZoneDecl) -> None:
        if not self.declare(d.name, "zone", d.span):
            return
        if d.kind not in self.a.kinds:
            self.err("E020", f"unknown kind '{d.kind}'", d.span, hint=self.suggest(d.kind))
            return
        self.a.zones[d.name] = ZoneInfo(d.name, d.kind, d.per_player, d.visibility)

    def die_decl(self, d: A.DieDecl) -> None:
        if not self.declare(d.name, "die", d.span):
            return
        faces = self.constant(d.faces)
        if faces is None:
            return  # reported already (E031, E034)
        if not isinstance(faces, list) or not faces:
            self.err("E050", f"die {d.name} needs a non-empty list of faces", d.faces.span,
                     hint="for example: faces 1..6")
            return
        # the faces' type comes from the expression: enum values are stored as numbers
        scope = Scope(Proc("die", d.name, [], [], d.span))
        face_type = element(self.expr(d.faces, scope)) or ANY
        if face_type == ANY or isinstance(face_type, tuple) and face_type[0] != "enum":
            self.err("E030", "the faces of a die must all be numbers, or all values of one "
                     "enum", d.faces.span)
            return
        self.a.dies[d.name] = DieInfo(d.name, faces, face_type)

    def dice_decl(self, d: A.DiceDecl) -> None:
        if not self.declare(d.name, "dice", d.span):
            return
        if d.die not in self.a.dies:
            self.err("E020", f"unknown die '{d.die}'", d.span, hint=self.suggest(d.die))
            return
        if d.count < 1:
            self.err("E050", f"dice {d.name} needs at least one die", d.span)
            return
        self.a.dice[d.name] = DiceInfo(d.name, d.die, d.count)

    def counter_decl(self, d: A.CounterDecl) -> None:
        if d.name == "face":
            self.err("E021", "'face' is taken: `face of d` is the face die d shows", d.span,
                     hint="give the counter another name, such as 'shows'")
            return
        if not self.declare(d.name, "counter", d.span):
            return
        dims: list[tuple[str, str, int, int]] = []
        for per in d.per:
            if per == "player":
                dims.append(("player", "player", self.a.max_players, 0))
            elif per in self.a.enums:
                dims.append(("enum", per, len(self.a.enums[per].values), 0))
            elif per in self.a.dice:
                dims.append(("dice", per, self.a.dice[per].count, 0))
            elif per in self.a.kinds:
                dims.append(("kind", per, self.a.kinds[per].count, 0))
            elif ".." in per:
                numbers = self.key_range(d, per)
                if numbers is None:
                    return
                dims.append(("number", per, numbers[1] - numbers[0] + 1, numbers[0]))
            else:
                self.err("E020", f"a counter is kept per player, per enum value, per die, "
                         f"per component or per number of a range (per 2..12), and '{per}' "
                         "is none of these", d.span, hint=self.suggest(per))
                return
        init = self.constant(d.init)
        low, high = self.bounds(d.low, d.high, f"counter {d.name}")
        if not isinstance(init, (int, type(None))):
            self.err("E030", f"a counter holds a number or true/false, not {init!r}",
                     d.init.span)
            return
        if low is not None and high is not None and isinstance(init, int) and \
                not (low <= init <= high):
            self.err("E032", f"counter {d.name} starts at {init}, outside {low} to {high}",
                     d.init.span)
        size = 1
        for dim in dims:
            size *= dim[2]
        self.slots_total += size
        if self.slots_total > MAX_SLOTS:
            self.err("E034", f"counter {d.name} would make the counters hold "
                     f"{self.slots_total:,} values (at most {MAX_SLOTS:,})", d.span)
            return
        ctype: Type = BOOL if isinstance(init, bool) else (INT if isinstance(init, int) else ANY)
        if d.holding is not None:
            held = self.held_type(d.holding, d.span)
            if held is not None:
                init_type = self.expr(d.init, Scope(Proc("counter", d.name, [], [], d.span)))
                if init is not None and not compatible(init_type, held):
                    self.err("E030", f"counter {d.name} holds {with_article(held)}, and starts "
                             f"at {init!r}", d.init.span)
                ctype = held
        self.a.counters[d.name] = CounterInfo(d.name, dims, size, ctype, init, low, high,
                                              d.secret, d.span)

    def key_range(self, d: A.CounterDecl, per: str) -> tuple[int, int] | None:
        """The first and last numbers of a counter's range of keys (`per 2..12`), each a
        number or a constant or setting that holds one; None when they cannot be."""
        bounds = [self.size(int(b) if b.isdigit() else b, d.span) for b in per.split("..")]
        low, high = bounds
        if low is None or high is None:
            return None
        if high < low:
            self.err("E050", f"counter {d.name} is kept per number from {low} to {high}, "
                     "a range with no number", d.span, hint="write the smaller number first")
            return None
        return low, high

    def stat_decl(self, d: A.StatDecl) -> None:
        """A tally is a counter from 0 that only reports read; a measured statistic is an
        expression of the game as it ends (for each player p with `of p`)."""
        if d.per is not None and d.per != "player":
            self.err("E020", f"a statistic is kept for the game or per player, not per "
                     f"'{d.per}'", d.span)
            return
        if d.value is None:
            self.counter_decl(A.CounterDecl.make(span=d.span, name=d.name, name_span=d.name_span,
                                            per=[d.per] if d.per else [],
                                            init=A.IntLit.make(span=d.span, value=0)))
            if d.name in self.a.counters:
                self.a.counters[d.name].stat = True
                self.a.stats[d.name] = StatInfo(d.name, d.per is not None, d)
            return
        if not self.declare(d.name, "statistic", d.span):
            return
        scope = Scope(Proc("stat", d.name, [], [d.var] if d.var else [], d.span))
        var = None
        if d.var is not None:
            var = Var(d.var, PLAYER, frame=False)
            self.a.candidate[id(d)] = var
            scope.blocks[-1][d.var] = var
        t = self.expr(d.value, scope)
        if t not in (INT, BOOL, ANY):
            self.err("E030", f"a statistic is a number or true/false, not {with_article(t)}",
                     d.value.span)
        self.a.stats[d.name] = StatInfo(d.name, var is not None, d, var)

    def rank_decl(self, d: A.RankDecl) -> None:
        self.a.rank = d
        self.per_player_numbers(d, d.keys, "rank", "players are ranked by numbers")

    def heuristic_decl(self, d: A.HeuristicDecl) -> None:
        self.a.heuristic = d
        self.per_player_numbers(d, [d.value], "heuristic", "a heuristic is a number")

    def payoff_decl(self, d: A.PayoffDecl) -> None:
        self.a.payoff = d
        self.per_player_numbers(d, [d.value], "payoff", "a payoff is a number")
        self.a.payoff_bounds = self.bounds(d.low, d.high, "a payoff")

    def per_player_numbers(self, d: A.RankDecl | A.HeuristicDecl | A.PayoffDecl,
                           values: list[A.Expr],
                           kind: str, what: str) -> None:
        """`rank p by ...` and `heuristic p by ...`: numbers worked out for each player p."""
        proc = Proc(kind, kind, [], [d.var], d.span)
        scope = Scope(proc)
        var = Var(d.var, PLAYER, frame=False)
        self.a.candidate[id(d)] = var
        scope.blocks[-1][d.var] = var
        for value in values:
            t = self.expr(value, scope)
            if t not in (INT, BOOL, ANY):
                self.err("E030", f"{what}, not {with_article(t)}", value.span)

    def uncalled_defines(self) -> None:
        """A definition nobody calls is still checked for unknown names, with parameters of
        any type (its other errors depend on what it would be called with)."""
        called = {inst.name for inst in self.a.define_instances}
        for d in self.a.defines.values():
            if d.name in called:
                continue
            before = len(self.a.diagnostics)
            made, known = len(self.a.define_instances), dict(self.instances)
            scope = Scope(Proc("define", d.name, [], d.params, d.span))
            for p in d.params:
                scope.blocks[-1][p] = Var(p, ANY, frame=False)
            self.expr(A.copy_tree(d.body), scope)
            self.a.diagnostics[before:] = [x for x in self.a.diagnostics[before:]
                                           if x.code in ("E020", "E023")]
            # nothing of this look is compiled: forget the instances it made (the calls it
            # made of others stay among theirs: more calls can only make a loop over a
            # parameter less likely to be weighed before the game)
            del self.a.define_instances[made:]
            for k in [k for k in self.a.define_args if k >= made]:
                del self.a.define_args[k]
            self.instances = known


def decision_names(body: list) -> list[str]:
    """The names the decisions of a block bind (`choose t in ...`: t) and the options of
    its menus, in order."""
    out: list[str] = []
    for s in walk(body):
        if isinstance(s, (A.Choose, A.ChooseAny, A.Offer)):
            out.append(s.var)
        elif isinstance(s, A.ChooseMenu):
            out += [o.id for o in s.options]
    return list(dict.fromkeys(out))


def raw(name: str) -> bool:
    """Whether a name reads as an identifier rather than words: `_` in it, a letter and
    a digit side by side (t36, outer3), or a capital after a small letter (RendAttack)."""
    return "_" in name or bool(re.search(r"[A-Za-z]\d|\d[A-Za-z]|[a-z][A-Z]", name))
