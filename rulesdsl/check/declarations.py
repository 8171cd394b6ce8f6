"""Checking declarations: enums, settings, boards, kinds, zones, dice, counters, triggers,
the ranking and the examples.

Stage: check. Each declaration adds to the `Analysis`: names, the counter slots of the
state, board geometry, component tables.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import replace
from typing import Any

from .. import ast as A
from ..boards.grids import CornerBoard, RingBoard, SquareBoard, TriangleBoard
from ..boards.territory import (
    MAX_TERRITORY,
    TerritoryBoard,
    TurnBoard,
    turns_name,
)
from ..declarations import CounterInfo, DiceInfo, DieInfo, EnumInfo, KindInfo, ZoneInfo
from ..diagnostics import Span
from ..limits import MAX_COMPONENTS, MAX_LIMIT, MAX_SLOTS
from .analysis import Proc, Scope, StatInfo, is_a, plural
from .bindings import Var
from .display import DisplayChecker
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

class DeclarationChecker(DisplayChecker):
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
        info.columns.clear()
        info.columns.update({f: [] for f in d.fields})
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
        if d.visibility == "bag":
            self.err("E050", f"dice {d.name} cannot be a bag: dice are public, owner or "
                     "hidden", d.span, hint="a bag holds components drawn blind")
            return
        if d.visibility == "owner" and not d.per_player:
            self.err("E050", f"dice {d.name} belong to nobody, so no owner can see them",
                     d.span, hint=f"give each player a set: dice {d.name} per player: "
                     f"{d.count} {d.die} owner")
            return
        seats = self.a.max_players if d.per_player else 1
        self.a.dice[d.name] = DiceInfo(d.name, d.die, d.count * seats,
                                       d.count if d.per_player else 0, d.visibility)

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
                self.a.counters[d.name] = replace(self.a.counters[d.name], stat=True)
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
