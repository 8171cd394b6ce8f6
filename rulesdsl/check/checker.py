"""Static checks of a rule file: declarations, names, types and counts.

Stage: check. `analyze` walks the AST once, reports every problem it finds as a
diagnostic, and records what the compiler needs: the meaning of each name, the type of
each expression, the state layout (counter slots), and the local slots of each block.
Nothing runs while this reports an error.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .. import ast as A
from ..diagnostics import Diagnostic, Span
from ..interpreter.boards import CornerBoard, SquareBoard, TriangleBoard
from .types import (
    ANY,
    BOOL,
    BUILTIN_NAMES,
    BUILTINS,
    INT,
    NONE,
    PLAYER,
    TEXT,
    Problem,
    Type,
    compatible,
    element,
    join,
    list_of,
    snapshot,
    with_article,
)

MAX_PLAYERS = 16
NAMED = (A.ConstDecl, A.SettingDecl, A.CounterDecl, A.BoardDecl, A.EnumDecl, A.DieDecl,
         A.DiceDecl, A.DefineDecl, A.RuleDecl, A.KindDecl, A.ZoneDecl)
# statements that wait for a player or a roll: not allowed where the rules cannot pause
WAITING = (A.Choose, A.ChooseAny, A.ChooseMenu, A.LetRoll, A.Roll, A.Turns, A.Replay,
           A.CallRule)


class NotConstant(Exception):
    """An expression that must be known before the game starts is not."""

    def __init__(self, node: A.Node):
        super().__init__("not constant")
        self.node = node


@dataclass
class CounterInfo:
    name: str
    dims: list[tuple[str, str, int]]  # (kind, name, size): kind is player/enum/dice
    base: int
    size: int
    type: Type
    init: Any
    low: int | None
    high: int | None
    secret: bool
    span: Span


@dataclass
class DieInfo:
    name: str
    faces: list[Any]
    face_type: Type


@dataclass
class DiceInfo:
    name: str
    die: str
    count: int
    base: int


@dataclass
class DefineInstance:
    """A definition checked for one list of argument types: its own copy of the body."""

    name: str
    number: int
    params: list[str]
    body: Any
    result: Type


@dataclass
class KindInfo:
    """A kind of component: its fields, and each component's values (one list per field)."""

    name: str
    fields: list[str]
    columns: dict[str, list[Any]]
    types: dict[str, Type]
    count: int


@dataclass
class ZoneInfo:
    """A zone: a list of components in the state (one per player with `per player`)."""

    name: str
    kind: str
    per_player: bool
    visibility: str
    base: int


@dataclass
class EnumInfo:
    name: str
    values: list[str]
    labels: list[str]


@dataclass
class Proc:
    """A block of statements that runs with its own locals: setup, play, a rule, an example."""

    kind: str
    name: str
    body: list
    params: list[str]
    span: Span
    nlocals: int = 0
    example: A.ExampleDecl | None = None
    trigger: A.TriggerDecl | None = None


@dataclass
class Analysis:
    """Everything the checker learnt about a rule file."""

    file: A.RulesFile
    diagnostics: list[Diagnostic] = field(default_factory=list)
    game_name: str = ""
    min_players: int = 1
    max_players: int = 1
    values: dict[str, Any] = field(default_factory=dict)  # constants and settings
    settings: dict[str, A.SettingDecl] = field(default_factory=dict)
    counters: dict[str, CounterInfo] = field(default_factory=dict)
    boards: dict[str, SquareBoard] = field(default_factory=dict)
    board_index: dict[str, int] = field(default_factory=dict)
    cells: dict[str, list[str]] = field(default_factory=dict)
    enums: dict[str, EnumInfo] = field(default_factory=dict)
    enum_values: dict[str, tuple[str, int]] = field(default_factory=dict)
    dies: dict[str, DieInfo] = field(default_factory=dict)
    dice: dict[str, DiceInfo] = field(default_factory=dict)
    defines: dict[str, A.DefineDecl] = field(default_factory=dict)
    rules: dict[str, A.RuleDecl] = field(default_factory=dict)
    procs: list[Proc] = field(default_factory=list)
    rank: A.RankDecl | None = None
    define_instances: list[DefineInstance] = field(default_factory=list)
    holding: dict[str, Type] = field(default_factory=dict)  # board -> what its cells hold
    kinds: dict[str, KindInfo] = field(default_factory=dict)
    zones: dict[str, ZoneInfo] = field(default_factory=dict)
    nzones: int = 0
    triggers: list[Proc] = field(default_factory=list)
    nslots: int = 1  # slot 0 holds the current player
    binding: dict[int, tuple] = field(default_factory=dict)
    types: dict[int, Type] = field(default_factory=dict)
    slot: dict[int, int] = field(default_factory=dict)
    hidden: dict[int, list[int]] = field(default_factory=dict)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]

    def type_of(self, node: A.Node) -> Type:
        return self.types.get(id(node), ANY)

    def proc(self, kind: str, name: str = "") -> Proc | None:
        for p in self.procs:
            if p.kind == kind and (not name or p.name == name):
                return p
        return None


class Scope:
    """Local names of one procedure: a stack of blocks, and the procedure's slot count."""

    def __init__(self, proc: Proc):
        self.proc = proc
        self.blocks: list[dict[str, tuple]] = [{}]
        self.loops = 0
        self.turns = 0

    def new_slot(self) -> int:
        self.proc.nlocals += 1
        return self.proc.nlocals - 1

    def lookup(self, name: str) -> tuple | None:
        for block in reversed(self.blocks):
            if name in block:
                return block[name]
        return None


class Checker:
    """Walks a rule file, filling an `Analysis`."""

    def __init__(self, file: A.RulesFile, overrides: dict[str, Any] | None = None):
        self.a = Analysis(file=file)
        self.overrides = overrides or {}
        self.names: dict[str, tuple[str, Span]] = {}
        self.first: dict[str, tuple[str, Span]] = {}  # the first declaration in file order
        self.comp = 0
        self.corners: dict[str, str] = {}  # triangle board -> its corners board
        self.instances: dict[tuple, int] = {}  # (definition, argument types) -> number
        self.rule_args: dict[str, list[Type]] = {}  # rule -> the types it is called with
        self.const_types: dict[str, Type] = {}
        self.checked_rules: set[str] = set()

    # ---- reporting ---------------------------------------------------------------------

    def err(self, code: str, message: str, span: Span | None, hint: str | None = None) -> None:
        self.a.diagnostics.append(Diagnostic(code, message, span, hint=hint))

    def declare(self, name: str, kind: str, span: Span) -> bool:
        first_kind, first = self.first.setdefault(name, (kind, span))
        if first != span:
            self.err("E021", f"'{name}' is already declared as a {first_kind}", span,
                     hint=f"the first declaration is at {first}")
            return False
        self.names[name] = (kind, span)
        return True

    # ---- declarations ------------------------------------------------------------------

    def run(self) -> Analysis:
        items = self.a.file.items
        games = [i for i in items if isinstance(i, A.GameDecl)]
        players = [i for i in items if isinstance(i, A.PlayersDecl)]
        plays = [i for i in items if isinstance(i, A.PlayDecl)]
        file_span = Span(file=self.a.file.path, line=0, column=0, end_line=0, end_column=0)
        if not games:
            self.err("E010", "the rule file has no 'game \"Name\"' line", file_span)
        for extra in games[1:]:
            self.err("E010", "a second 'game' line", extra.span)
        if games:
            self.a.game_name = games[0].name
        if not players:
            self.err("E011", "the rule file does not say how many players: add 'players N'",
                     file_span)
        for extra_players in players[1:]:
            self.err("E011", "a second 'players' line", extra_players.span)
        if players:
            p = players[0]
            if p.low < 1 or p.high < p.low or p.high > MAX_PLAYERS:
                count = str(p.low) if p.low == p.high else f"{p.low} to {p.high}"
                self.err("E012", f"impossible player count {count}", p.span,
                         hint=f"from 1 to {MAX_PLAYERS} players, the smaller number first")
            else:
                self.a.min_players, self.a.max_players = p.low, p.high
        if not plays:
            self.err("E044", "the rule file has no 'play:' block", file_span)
        for extra_play in plays[1:]:
            self.err("E044", "a second 'play:' block", extra_play.span)
        for kind in (A.SetupDecl, A.RankDecl):
            found = [i for i in items if isinstance(i, kind)]
            for again in found[1:]:
                what = "'setup:' block" if kind is A.SetupDecl else "'rank' line"
                self.err("E021", f"a second {what}", again.span)

        # declarations are checked kind by kind; a duplicate is the later one in the file
        kinds = {A.ConstDecl: "constant", A.SettingDecl: "setting", A.CounterDecl: "counter",
                 A.BoardDecl: "board", A.EnumDecl: "enum", A.DieDecl: "die",
                 A.DiceDecl: "dice", A.DefineDecl: "definition", A.RuleDecl: "rule",
                 A.KindDecl: "kind", A.ZoneDecl: "zone"}
        for item in items:
            if isinstance(item, NAMED):
                self.first.setdefault(item.name, (kinds[type(item)], item.span))
            if isinstance(item, A.EnumDecl):
                for v in item.values:
                    self.first.setdefault(v.name, (f"value of {item.name}", v.span))

        # values first (constants may refer to enums), in file order
        for item in items:
            if isinstance(item, A.EnumDecl):
                self.enum_decl(item)
        for item in items:
            if isinstance(item, A.ConstDecl):
                if self.declare(item.name, "constant", item.span):
                    before = len(self.a.diagnostics)
                    self.a.values[item.name] = self.constant(item.value)
                    if len(self.a.diagnostics) == before:
                        # its type, for enum values (stored as numbers) in lists
                        scope = Scope(Proc("const", item.name, [], [], item.span))
                        self.const_types[item.name] = self.expr(item.value, scope)
                        del self.a.diagnostics[before:]
            elif isinstance(item, A.SettingDecl):
                self.setting_decl(item)
        for item in items:
            if isinstance(item, A.BoardDecl):
                self.board_decl(item)
            elif isinstance(item, A.DieDecl):
                self.die_decl(item)
            elif isinstance(item, A.KindDecl):
                self.kind_decl(item)
        for item in items:
            if isinstance(item, A.ZoneDecl):
                self.zone_decl(item)
            elif isinstance(item, A.BoardDecl) and item.holding is not None:
                self.holding(item)
        for item in items:
            if isinstance(item, A.DiceDecl):
                self.dice_decl(item)
            elif isinstance(item, A.CounterDecl):
                self.counter_decl(item)
            elif isinstance(item, A.DefineDecl):
                if self.declare(item.name, "definition", item.span):
                    self.a.defines[item.name] = item
            elif isinstance(item, A.RuleDecl):
                if self.declare(item.name, "rule", item.span):
                    self.a.rules[item.name] = item
        for unknown in self.overrides:
            if unknown not in self.a.settings:
                known = ", ".join(sorted(self.a.settings)) or "none"
                self.err("E033", f"'{unknown}' is not a setting of this game", None,
                         hint=f"settings: {known}")

        for item in items:
            if isinstance(item, A.SetupDecl):
                self.procedure(Proc("setup", "setup", item.body, [], item.span))
            elif isinstance(item, A.PlayDecl):
                self.procedure(Proc("play", "play", item.body, [], item.span))
            elif isinstance(item, A.RankDecl):
                self.rank_decl(item)
            elif isinstance(item, A.TriggerDecl):
                self.trigger_decl(item)
            elif isinstance(item, A.ExampleDecl):
                self.example_decl(item)
        self.check_rules()
        self.uncalled_defines()
        return self.a

    def enum_decl(self, d: A.EnumDecl) -> None:
        if not self.declare(d.name, "enum", d.span):
            return
        info = EnumInfo(d.name, [], [])
        for i, v in enumerate(d.values):
            if self.declare(v.name, f"value of {d.name}", v.span):
                self.a.enum_values[v.name] = (d.name, i)
            info.values.append(v.name)
            info.labels.append(v.label or v.name)
        self.a.enums[d.name] = info

    def setting_decl(self, d: A.SettingDecl) -> None:
        if not self.declare(d.name, "setting", d.span):
            return
        self.a.settings[d.name] = d
        value = self.constant(d.value)
        low = self.constant(d.low) if d.low is not None else None
        high = self.constant(d.high) if d.high is not None else None
        if d.name in self.overrides:
            new = self.overrides[d.name]
            # a rejected value leaves the default in force, so uses of the setting still
            # check (and are not reported as unknown names)
            if type(new) is not type(value):
                self.err("E033", f"setting {d.name} takes {with_article(self.value_type(value))}, "
                         f"not {new!r}", d.span)
            elif low is not None and not (low <= new <= high):
                self.err("E032", f"{d.name}={new} is outside its bounds {low} to {high}",
                         d.span)
            else:
                value = new
        elif low is not None and value is not None and not (low <= value <= high):
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
        width, height = self.size(d.width, d.span), self.size(d.height, d.span)
        if width is None or height is None:
            return
        if not (1 <= width <= 26 and 1 <= height <= 99):
            self.err("E050", f"a square board is 1 to 26 columns by 1 to 99 rows, not "
                     f"{width} x {height}", d.span)
            return
        self.add_board(SquareBoard(d.name, width, height, d.adjacency))

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
        self.err("E031", f"a board's size is a number or a constant (or setting) that holds "
                 f"one, and '{value}' is not", span, hint=self.suggest(value))
        return None

    def holding(self, d: A.BoardDecl) -> None:
        what = d.holding or ""
        if what == "player":
            t: Type = PLAYER
        elif what in self.a.kinds:
            t = ("comp", what)
        elif what in self.a.enums:
            t = ("enum", what)
        else:
            self.err("E020", f"a board holds players, components of a kind or values of an "
                     f"enum, and '{what}' is none of these", d.span, hint=self.suggest(what))
            return
        self.a.holding[d.name] = t

    def add_board(self, board: Any) -> None:
        self.a.board_index[board.name] = len(self.a.boards)
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
        for row in d.rows:
            if len(row.values) != len(d.fields):
                self.err("E024", f"a {d.name} has {_count(len(d.fields), 'field')} "
                         f"({', '.join(d.fields)}), this row gives {len(row.values)}",
                         row.span)
                continue
            if row.count < 1:
                self.err("E050", "a row stands for at least one component", row.span)
                continue
            for f, value in zip(d.fields, row.values):
                t = self.expr(value, scope)
                v = self.constant(value)
                known = types.get(f)
                if known is not None and not compatible(known, t):
                    self.err("E030", f"field {f} of {d.name} holds {with_article(known)}, "
                             f"not {with_article(t)}", value.span)
                types.setdefault(f, t)
                columns[f].extend([v] * row.count)
        count = sum(r.count for r in d.rows if len(r.values) == len(d.fields))
        if count == 0:
            self.err("E050", f"kind {d.name} has no components", d.span)
        self.a.kinds[d.name] = KindInfo(d.name, list(d.fields), columns, types, count)

    def zone_decl(self, d: A.ZoneDecl) -> None:
        if not self.declare(d.name, "zone", d.span):
            return
        if d.kind not in self.a.kinds:
            self.err("E020", f"unknown kind '{d.kind}'", d.span, hint=self.suggest(d.kind))
            return
        info = ZoneInfo(d.name, d.kind, d.per_player, d.visibility, self.a.nzones)
        self.a.zones[d.name] = info
        self.a.nzones += self.a.max_players if d.per_player else 1

    def trigger_decl(self, d: A.TriggerDecl) -> None:
        proc = Proc("trigger", f"as soon as {d.var} (line {d.span.line})", d.body, [d.var],
                    d.span, trigger=d)
        self.a.procs.append(proc)
        self.a.triggers.append(proc)
        scope = Scope(proc)
        el = self.domain(d.domain, scope)
        self.comp += 1
        b = ("py", f"t{self.comp}_{d.var}", el)
        self.a.binding[id(d)] = b
        scope.blocks.append({d.var: b})
        self.want(d.where, BOOL, scope, "a condition")
        scope.blocks.pop()
        for s in _walk(d.body):
            if isinstance(s, WAITING):
                self.err("E045", "an 'as soon as' block runs in the middle of a change: it "
                         "cannot wait for a decision or a roll, nor call a rule", s.span)
        scope.blocks[-1][d.var] = ("local", scope.new_slot(), el)
        self.block(d.body, scope)

    def die_decl(self, d: A.DieDecl) -> None:
        if not self.declare(d.name, "die", d.span):
            return
        faces = self.constant(d.faces)
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
        self.a.dice[d.name] = DiceInfo(d.name, d.die, d.count, self.a.nslots)
        self.a.nslots += d.count

    def counter_decl(self, d: A.CounterDecl) -> None:
        if not self.declare(d.name, "counter", d.span):
            return
        dims: list[tuple[str, str, int]] = []
        for per in d.per:
            if per == "player":
                dims.append(("player", "player", self.a.max_players))
            elif per in self.a.enums:
                dims.append(("enum", per, len(self.a.enums[per].values)))
            elif per in self.a.dice:
                dims.append(("dice", per, self.a.dice[per].count))
            elif per in self.a.kinds:
                dims.append(("kind", per, self.a.kinds[per].count))
            else:
                self.err("E020", f"a counter is kept per player, per enum value, per die or "
                         f"per component, and '{per}' is none of these", d.span,
                         hint=self.suggest(per))
                return
        init = self.constant(d.init)
        low = self.constant(d.low) if d.low is not None else None
        high = self.constant(d.high) if d.high is not None else None
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
        ctype = BOOL if isinstance(init, bool) else (INT if isinstance(init, int) else ANY)
        self.a.counters[d.name] = CounterInfo(d.name, dims, self.a.nslots, size, ctype, init,
                                              low, high, d.secret, d.span)
        self.a.nslots += size

    def rank_decl(self, d: A.RankDecl) -> None:
        self.a.rank = d
        proc = Proc("rank", "rank", [], [d.var], d.span)
        scope = Scope(proc)
        scope.blocks[-1][d.var] = ("py", f"p_{d.var}", PLAYER)
        for key in d.keys:
            t = self.expr(key, scope)
            if t not in (INT, BOOL, ANY):
                self.err("E030", f"players are ranked by numbers, not {with_article(t)}", key.span)

    def example_decl(self, d: A.ExampleDecl) -> None:
        if self.a.proc("example", d.name) is not None:
            self.err("E021", f"a second example named '{d.name}'", d.span,
                     hint="give every example its own name")
            return
        if d.players is not None and not (self.a.min_players <= d.players
                                          <= self.a.max_players):
            low, high = self.a.min_players, self.a.max_players
            want = str(low) if low == high else f"{low} to {high}"
            self.err("E012", f"this game is for {want} players, not {d.players}", d.span)
        self.procedure(Proc("example", d.name, d.body, [], d.span, example=d))

    def instantiate(self, d: A.DefineDecl, arg_types: list[Type], span: Span) -> int:
        """A definition is checked (and compiled) once for each list of argument types it
        is called with, so that `neighbours(t)` inside it knows t's board. Returns the
        number of the instance."""
        key = (d.name, tuple(arg_types))
        if key in self.instances:
            n = self.instances[key]
            if n < 0:
                self.err("E046", f"definition {d.name} calls itself: a definition is a "
                         "formula, not a loop", span, hint="write a rule with a loop")
                return 0
            return n
        self.instances[key] = -1
        body = d.body.model_copy(deep=True)  # its own nodes, for this instance's types
        proc = Proc("define", d.name, [], d.params, d.span)
        scope = Scope(proc)
        for p, t in zip(d.params, arg_types):
            scope.blocks[-1][p] = ("py", f"a_{p}", t)
        result = self.expr(body, scope)
        n = len(self.a.define_instances)
        self.a.define_instances.append(DefineInstance(d.name, n, d.params, body, result))
        self.instances[key] = n
        return n

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
                scope.blocks[-1][p] = ("py", f"a_{p}", ANY)
            self.expr(d.body.model_copy(deep=True), scope)
            self.a.diagnostics[before:] = [x for x in self.a.diagnostics[before:]
                                           if x.code in ("E020", "E023")]
            # nothing of this look is compiled: forget the instances it made
            del self.a.define_instances[made:]
            self.instances = known

    # ---- constants ---------------------------------------------------------------------

    def constant(self, e: A.Expr) -> Any:
        """Evaluate an expression that must be known before the game starts."""
        try:
            return self.const_eval(e)
        except NotConstant as nc:
            self.err("E031", "this must be a value known before the game starts",
                     nc.node.span, hint="use numbers, text, lists and other constants")
            return None

    def const_eval(self, e: A.Expr) -> Any:
        if isinstance(e, (A.IntLit, A.BoolLit)):
            return e.value
        if isinstance(e, A.NoneLit):
            return None
        if isinstance(e, A.StrLit) and all(isinstance(p, str) for p in e.parts):
            return "".join(p for p in e.parts if isinstance(p, str))
        if isinstance(e, A.ListLit):
            return [self.const_eval(i) for i in e.items]
        if isinstance(e, A.Name):
            if e.name in self.a.values:
                return self.a.values[e.name]
            if e.name in self.a.enum_values:
                return self.a.enum_values[e.name][1]
            raise NotConstant(e)
        if isinstance(e, A.Unary) and e.op == "-":
            v = self.const_eval(e.operand)
            if isinstance(v, int):
                return -v
        if isinstance(e, A.Binary):
            left, right = self.const_eval(e.left), self.const_eval(e.right)
            if isinstance(left, int) and isinstance(right, int):
                if e.op == "..":
                    return list(range(left, right + 1))
                ops = {"+": lambda a, b: a + b, "-": lambda a, b: a - b,
                       "*": lambda a, b: a * b}
                if e.op in ops:
                    return ops[e.op](left, right)
                if e.op in ("/", "%") and right != 0:
                    return left // right if e.op == "/" else left % right
        raise NotConstant(e)

    def value_type(self, v: Any) -> Type:
        if isinstance(v, bool):
            return BOOL
        if isinstance(v, int):
            return INT
        if isinstance(v, str):
            return TEXT
        if isinstance(v, list):
            return list_of(self.value_type(v[0]) if v else ANY)
        return NONE if v is None else ANY

    def suggest(self, name: str) -> str | None:
        import difflib

        pool = list(self.names) + list(BUILTIN_NAMES) + list(BUILTINS) + list(self.a.cells)
        close = [c for c in difflib.get_close_matches(name, pool, n=2) if c != name]
        return f"did you mean '{close[0]}'?" if close else None

    # ---- statements --------------------------------------------------------------------

    def procedure(self, proc: Proc, param_types: list[Type] | None = None) -> None:
        self.a.procs.append(proc)
        scope = Scope(proc)
        for i, p in enumerate(proc.params):
            t = param_types[i] if param_types and i < len(param_types) else ANY
            scope.blocks[-1][p] = ("local", scope.new_slot(), t)
        self.block(proc.body, scope)

    def check_rules(self) -> None:
        """Rules are checked after the blocks that call them: a parameter has the type of
        the values it is called with. Rules nobody calls come last, untyped."""
        pending = [r for r in self.a.rules.values()]
        while pending:
            called = [r for r in pending if r.name in self.rule_args]
            rule = called[0] if called else pending[0]
            pending.remove(rule)
            self.checked_rules.add(rule.name)
            self.procedure(Proc("rule", rule.name, rule.body, rule.params, rule.span),
                           self.rule_args.get(rule.name))

    def block(self, stmts: list, scope: Scope, bind: dict[str, tuple] | None = None) -> None:
        scope.blocks.append(dict(bind or {}))
        for s in stmts:
            self.stmt(s, scope)
        scope.blocks.pop()

    def bind(self, node: A.Node, name: str, t: Type, scope: Scope) -> tuple:
        slot = scope.new_slot()
        self.a.slot[id(node)] = slot
        return ("local", slot, snapshot(t))

    def hide(self, node: A.Node, n: int, scope: Scope) -> None:
        self.a.hidden[id(node)] = [scope.new_slot() for _ in range(n)]

    def want(self, e: A.Expr | None, t: Type, scope: Scope, what: str) -> Type:
        if e is None:
            return t
        got = self.expr(e, scope)
        if not compatible(got, t) or (got == NONE and t in (INT, BOOL)):
            self.err("E030", f"{what} must be {with_article(t)}, not {with_article(got)}", e.span)
        return got

    def domain(self, e: A.Expr, scope: Scope) -> Type:
        t = self.expr(e, scope)
        el = element(t)
        if el is None:
            self.err("E030", f"expected a list (or a board) to choose from, not {with_article(t)}",
                     e.span)
            return ANY
        return el

    def stmt(self, s: Any, scope: Scope) -> None:
        kind = scope.proc.kind
        if isinstance(s, A.Let):
            t = self.expr(s.value, scope)
            scope.blocks[-1][s.name] = self.bind(s, s.name, t, scope)
        elif isinstance(s, A.LetRoll):
            t = self.die_kind(s.die, scope)
            scope.blocks[-1][s.name] = self.bind(s, s.name, t, scope)
        elif isinstance(s, (A.Set, A.Add)):
            target = self.target(s.target, scope)
            if isinstance(s, A.Set):
                self.want(s.value, target, scope, "the new value")
            else:
                if target not in (INT, ANY):
                    self.err("E030", f"only numbers can be added to, not {with_article(target)}",
                             s.target.span)
                self.want(s.amount, INT, scope, "the amount")
        elif isinstance(s, A.Place):
            piece = self.expr(s.piece, scope)
            t = self.expr(s.cell, scope)
            cell_t = t if _is(t, "cell") else element(t)
            if not (_is(cell_t, "cell") or t == ANY):
                self.err("E030", f"a piece is placed on a cell or a list of cells, not "
                         f"{with_article(t)}", s.cell.span)
            elif isinstance(cell_t, tuple) and cell_t[1] in self.a.holding:
                holds = self.a.holding[cell_t[1]]
                if not compatible(piece, holds) or piece == NONE:
                    self.err("E030", f"board {cell_t[1]} holds {with_article(holds)}, not "
                             f"{with_article(piece)}", s.piece.span)
        elif isinstance(s, A.Shuffle):
            self.zone(s.zone, scope)
        elif isinstance(s, A.Move):
            item = self.expr(s.item, scope)
            zones = [self.zone(z, scope) for z in (s.source, s.dest) if z is not None]
            for z in zones:
                if z is not None and item != ANY and item != ("comp", z[2]) and item != NONE:
                    self.err("E030", f"zone {z[1]} holds {z[2]}, not {with_article(item)}",
                             s.item.span)
        elif isinstance(s, A.Clear):
            self.cell(s.cell, scope)
        elif isinstance(s, A.Roll):
            t = self.expr(s.dice, scope)
            if not (_is(t, "die") or _is(element(t), "die") or t == ANY):
                self.err("E030", f"roll takes a die or a list of dice, not {with_article(t)}",
                         s.dice.span, hint="to roll a kind of die, write: let r = roll d6")
            self.hide(s, 2, scope)
        elif isinstance(s, A.Win):
            self.want(s.player, PLAYER, scope, "the winner")
        elif isinstance(s, A.EndTurn):
            if not scope.turns:
                self.err("E041", "'end turn' outside a 'turns' block", s.span)
        elif isinstance(s, A.Break):
            if not scope.loops:
                self.err("E040", "'break' outside a loop", s.span)
        elif isinstance(s, A.Say):
            self.expr(s.text, scope)
        elif isinstance(s, A.Expect):
            self.want(s.cond, BOOL, scope, "what an example expects")
        elif isinstance(s, A.CallRule):
            self.call_rule(s, scope)
        elif isinstance(s, A.Replay):
            if kind != "example" or len(scope.blocks) > 2:
                self.err("E043", "'play \"...\"' continues the game in an example; it belongs "
                         "at the top of an example block", s.span)
        elif isinstance(s, A.If):
            for cond, body in s.branches:
                self.want(cond, BOOL, scope, "a condition")
                self.block(body, scope)
            if s.otherwise is not None:
                self.block(s.otherwise, scope)
        elif isinstance(s, A.ForEach):
            el = self.domain(s.domain, scope)
            self.hide(s, 2, scope)
            b = self.bind(s, s.var, el, scope)
            if s.where is not None:
                scope.blocks.append({s.var: b})
                self.want(s.where, BOOL, scope, "a condition")
                scope.blocks.pop()
            self.loop(s.body, scope, {s.var: b})
        elif isinstance(s, A.Repeat):
            if s.count is not None:
                self.want(s.count, INT, scope, "the number of repeats")
                self.hide(s, 1, scope)
            self.loop(s.body, scope)
        elif isinstance(s, A.While):
            self.want(s.cond, BOOL, scope, "a condition")
            self.loop(s.body, scope)
        elif isinstance(s, A.Turns):
            self.want(s.start, PLAYER, scope, "the first player")
            self.want(s.rounds, INT, scope, "the number of rounds")
            self.hide(s, 2, scope)
            scope.turns += 1
            self.block(s.body, scope)
            scope.turns -= 1
        elif isinstance(s, A.Choose):
            el = self.domain(s.domain, scope)
            b = self.bind(s, s.var, el, scope)
            self.want(s.by, PLAYER, scope, "who chooses")
            self.option_scope(s, el, scope, s.where, s.label)
            self.chosen(s, b, scope)
        elif isinstance(s, A.ChooseAny):
            el = self.domain(s.domain, scope)
            b = self.bind(s, s.var, list_of(el), scope)
            self.want(s.by, PLAYER, scope, "who chooses")
            self.option_scope(s, list_of(el), scope, None, s.label)
            self.chosen(s, b, scope)
        elif isinstance(s, A.ChooseMenu):
            self.want(s.by, PLAYER, scope, "who chooses")
            self.a.slot[id(s)] = scope.new_slot()
            seen: set[str] = set()
            for opt in s.options:
                if opt.id in seen:
                    self.err("E021", f"two options named '{opt.id}'", opt.span)
                seen.add(opt.id)
                if opt.cond is not None:
                    self.want(opt.cond, BOOL, scope, "an option's condition")
                if opt.label is not None:
                    self.expr(opt.label, scope)
                self.block(opt.body, scope)
        elif isinstance(s, (A.Draw, A.EndGame, A.Pass)):
            pass
        else:  # pragma: no cover - the grammar has no other statements
            raise AssertionError(type(s))

    def option_scope(self, s: A.Choose | A.ChooseAny, t: Type, scope: Scope, where: A.Expr | None,
                     label: A.StrLit | None) -> None:
        """The filter and the label of a choice see each candidate under the choice's name."""
        self.comp += 1
        var = s.var
        b = ("py", f"o{self.comp}_{var}", t)
        self.a.binding[id(s)] = b
        scope.blocks.append({var: b})
        if where is not None:
            self.want(where, BOOL, scope, "a condition")
        if label is not None:
            self.expr(label, scope)
        scope.blocks.pop()

    def chosen(self, s: A.Choose | A.ChooseAny, b: tuple, scope: Scope) -> None:
        if s.body is None:
            scope.blocks[-1][s.var] = b
        else:
            self.block(s.body, scope, {s.var: b})

    def loop(self, body: list, scope: Scope, bind: dict[str, tuple] | None = None) -> None:
        scope.loops += 1
        self.block(body, scope, bind)
        scope.loops -= 1

    def die_kind(self, e: A.Expr, scope: Scope) -> Type:
        if isinstance(e, A.Name) and e.name in self.a.dies:
            self.a.binding[id(e)] = ("die_kind", e.name)
            return self.a.dies[e.name].face_type
        self.err("E030", "'let x = roll ...' rolls a kind of die declared with 'die'", e.span,
                 hint="to roll dice of a set, write: roll hand")
        return ANY

    def zone(self, e: A.Expr, scope: Scope) -> tuple | None:
        t = self.expr(e, scope)
        if not _is(t, "zone"):
            if t != ANY:
                self.err("E030", f"expected a zone, not {with_article(t)}", e.span)
            return None
        assert isinstance(t, tuple)
        return t

    def cell(self, e: A.Expr, scope: Scope) -> None:
        t = self.expr(e, scope)
        if not (_is(t, "cell") or t == ANY):
            self.err("E030", f"expected a cell of a board, not {with_article(t)}", e.span)

    def target(self, t: A.Target, scope: Scope) -> Type:
        if t.of is None:
            local = scope.lookup(t.name)
            if local is not None and local[0] == "local":
                self.a.binding[id(t)] = local
                return local[2]
            info = self.a.counters.get(t.name)
            if info is None and t.name in self.names:
                self.err("E022", f"'{t.name}' is a {self.names[t.name][0]}: only counters and "
                         "names made with 'let' can change", t.span)
                return ANY
            if info is None:
                self.err("E020", f"unknown counter or local name '{t.name}'", t.span,
                         hint=self.suggest(t.name))
                return ANY
            if info.dims:
                self.err("E030", f"{t.name} is kept per {info.dims[0][1]}: write "
                         f"'{t.name} of ...'", t.span)
                return ANY
            self.a.binding[id(t)] = ("counter", t.name)
            return info.type
        fake = A.Of(span=t.span, attr=t.name, obj=t.of)
        result = self.of(fake, scope)
        self.a.binding[id(t)] = self.a.binding.get(id(fake), ("error",))
        if self.a.binding[id(t)][0] == "piece":
            self.err("E030", "a cell's piece changes with 'place' and 'clear'", t.span)
        return result

    def call_rule(self, s: A.CallRule, scope: Scope) -> None:
        rule = self.a.rules.get(s.name)
        if rule is None:
            if s.name in self.a.defines:
                self.err("E023", f"'{s.name}' is a definition, not a rule: use its value in an "
                         "expression", s.span)
            else:
                self.err("E023", f"unknown rule '{s.name}'", s.span, hint=self.suggest(s.name))
            return
        if len(s.args) != len(rule.params):
            self.err("E024", f"rule {s.name} takes {_count(len(rule.params), 'argument')}, "
                     f"not {len(s.args)}", s.span)
        types = [snapshot(self.expr(arg, scope)) for arg in s.args]
        known = self.rule_args.get(s.name)
        if known is None:
            if s.name not in self.checked_rules:
                self.rule_args[s.name] = types
            return
        for i, (old, new) in enumerate(zip(known, types)):
            if compatible(old, new) and old != ANY:
                continue
            if old == ANY and s.name not in self.checked_rules:
                known[i] = new
            elif not compatible(old, new):
                self.err("E047", f"rule {s.name} is called with {with_article(new)} for "
                         f"'{rule.params[i]}' here, and with {with_article(old)} elsewhere",
                         s.args[i].span, hint="give each kind of value its own rule")

    # ---- expressions -------------------------------------------------------------------

    def expr(self, e: Any, scope: Scope) -> Type:
        t = self._expr(e, scope)
        self.a.types[id(e)] = t
        return t

    def _expr(self, e: Any, scope: Scope) -> Type:
        if isinstance(e, A.IntLit):
            return INT
        if isinstance(e, A.BoolLit):
            return BOOL
        if isinstance(e, A.NoneLit):
            return NONE
        if isinstance(e, A.StrLit):
            for part in e.parts:
                if not isinstance(part, str):
                    self.expr(part, scope)
            return TEXT
        if isinstance(e, A.PlayerLit):
            if not 1 <= e.number <= self.a.max_players:
                self.err("E030", f"there is no player {e.number} in a game of at most "
                         f"{self.a.max_players}", e.span)
            return PLAYER
        if isinstance(e, A.Name):
            return self.name(e, scope)
        if isinstance(e, A.ListLit):
            t: Type = NONE
            for item in e.items:
                t = join(t, self.expr(item, scope))
            return list_of(ANY if t == NONE else t)
        if isinstance(e, A.TupleLit):
            return ("tuple", tuple(self.expr(i, scope) for i in e.items))
        if isinstance(e, A.Of):
            return self.of(e, scope)
        if isinstance(e, A.Index):
            t = self.expr(e.obj, scope)
            self.want(e.index, INT, scope, "an index")
            el = element(t)
            if el is None or _is(t, "board"):
                self.err("E030", f"only lists can be indexed, not {with_article(t)}", e.obj.span)
                return ANY
            return el
        if isinstance(e, A.Unary):
            if e.op == "not":
                self.want(e.operand, BOOL, scope, "the operand of 'not'")
                return BOOL
            self.want(e.operand, INT, scope, "the operand of '-'")
            return INT
        if isinstance(e, A.Binary):
            return self.binary(e, scope)
        if isinstance(e, A.IsEmpty):
            t = self.expr(e.operand, scope)
            if not (_is(t, "cell") or element(t) is not None):
                self.err("E030", f"'is empty' applies to a cell or a list, not {with_article(t)}",
                         e.operand.span)
            return BOOL
        if isinstance(e, A.Cond):
            self.want(e.test, BOOL, scope, "a condition")
            return join(self.expr(e.then, scope), self.expr(e.otherwise, scope))
        if isinstance(e, (A.Quantifier, A.Aggregate, A.ListComp)):
            return self.comprehension(e, scope)
        if isinstance(e, A.Call):
            return self.call(e, scope)
        raise AssertionError(type(e))  # pragma: no cover

    def name(self, e: A.Name, scope: Scope) -> Type:
        local = scope.lookup(e.name)
        a = self.a
        if local is not None:
            self.a.binding[id(e)] = local
            return local[2]
        if e.name in a.values:
            a.binding[id(e)] = ("value", a.values[e.name])
            known = self.const_types.get(e.name)  # enum values are stored as numbers
            if known is not None and known != ANY:
                return known
            return self.value_type(a.values[e.name])
        if e.name in a.enum_values:
            enum, idx = a.enum_values[e.name]
            a.binding[id(e)] = ("value", idx)
            return ("enum", enum)
        if e.name in a.kinds:
            a.binding[id(e)] = ("value", list(range(a.kinds[e.name].count)))
            return list_of(("comp", e.name))
        if e.name in a.zones:
            zone = a.zones[e.name]
            if zone.per_player:
                self.err("E030", f"each player has a zone {e.name}: write '{e.name} of ...'",
                         e.span)
                return ANY
            a.binding[id(e)] = ("zone", e.name)
            return ("zone", e.name, zone.kind)
        if e.name in a.counters:
            info = a.counters[e.name]
            if info.dims:
                self.err("E030", f"{e.name} is kept per {info.dims[0][1]}: write "
                         f"'{e.name} of ...'", e.span)
                return ANY
            a.binding[id(e)] = ("counter", e.name)
            return info.type
        if e.name in a.enums:
            a.binding[id(e)] = ("value", list(range(len(a.enums[e.name].values))))
            return list_of(("enum", e.name))
        if e.name in a.boards:
            a.binding[id(e)] = ("board", e.name)
            return ("board", e.name)
        if e.name in a.dice:
            a.binding[id(e)] = ("dice", e.name)
            return list_of(("die", e.name))
        if e.name in BUILTIN_NAMES:
            a.binding[id(e)] = ("builtin", e.name)
            return BUILTIN_NAMES[e.name]
        if e.name in a.cells:
            boards = a.cells[e.name]
            if len(boards) > 1:
                self.err("E022", f"cell {e.name} is on several boards ({', '.join(boards)})",
                         e.span, hint="name the board: cell(board, x, y)")
                return ANY
            board = a.boards[boards[0]]
            a.binding[id(e)] = ("value", board.names.index(e.name))
            return ("cell", boards[0])
        if e.name in a.rules or e.name in a.defines or e.name in a.dies:
            kind = self.names[e.name][0]
            self.err("E022", f"'{e.name}' is a {kind}, not a value", e.span,
                     hint={"definition": f"call it: {e.name}(...)",
                           "die": f"roll it: let r = roll {e.name}"}.get(kind))
            return ANY
        self.err("E020", f"unknown name '{e.name}'", e.span, hint=self.suggest(e.name))
        return ANY

    def of(self, e: A.Of, scope: Scope) -> Type:
        a = self.a
        reported = len(a.diagnostics)
        if e.attr == "face":
            t = self.expr(e.obj, scope)
            if t == ANY and len(a.diagnostics) > reported:
                return ANY  # the operand's own error is enough
            if not _is(t, "die"):
                self.err("E030", f"only a die has a face, not {with_article(t)}", e.obj.span)
                return ANY
            a.binding[id(e)] = ("face", t[1])
            return a.dies[a.dice[t[1]].die].face_type
        if e.attr == "piece":
            t = self.expr(e.obj, scope)
            if t == ANY and len(a.diagnostics) > reported:
                return ANY
            if not _is(t, "cell"):
                self.err("E030", f"only a cell holds a piece, not {with_article(t)}", e.obj.span)
                return ANY
            a.binding[id(e)] = ("piece", t[1])
            return a.holding.get(t[1], ANY)
        if e.attr in a.zones:
            zone = a.zones[e.attr]
            if not zone.per_player:
                self.err("E030", f"{e.attr} is one zone for all: write '{e.attr}' alone",
                         e.span)
                return ANY
            self.want(e.obj, PLAYER, scope, f"the owner of {e.attr}")
            a.binding[id(e)] = ("zone", e.attr)
            return ("zone", e.attr, zone.kind)
        t_obj = self.field_owner(e, scope, reported)
        if t_obj is not None:
            return t_obj
        info = a.counters.get(e.attr)
        if info is None:
            name = e.span.model_copy(update={"end_line": e.span.line,
                                             "end_column": e.span.column + len(e.attr)})
            if e.attr in self.names:
                self.err("E022", f"'{e.attr}' is a {self.names[e.attr][0]}, not a counter",
                         name)
                return ANY
            self.err("E020", f"unknown counter '{e.attr}'", name,
                     hint=self.suggest(e.attr) or "'face of d' and 'piece of c' are built in")
            return ANY
        if not info.dims:
            self.err("E030", f"{e.attr} is a single counter: write '{e.attr}' alone", e.span)
            return info.type
        keys = e.obj.items if isinstance(e.obj, A.TupleLit) else [e.obj]
        if len(keys) != len(info.dims):
            self.err("E024", f"{e.attr} is kept per " + " per ".join(d[1] for d in info.dims)
                     + f": give {_count(len(info.dims), 'key')}", e.obj.span)
            return info.type
        for key, dim in zip(keys, info.dims):
            kinds: dict[str, Type] = {"player": PLAYER, "enum": ("enum", dim[1]),
                                      "dice": ("die", dim[1]), "kind": ("comp", dim[1])}
            want = kinds[dim[0]]
            self.want(key, want, scope, f"the key of {e.attr}")
        a.binding[id(e)] = ("counter", e.attr)
        return info.type

    def binary(self, e: A.Binary, scope: Scope) -> Type:
        op = e.op
        if op in ("and", "or"):
            self.want(e.left, BOOL, scope, f"the operand of '{op}'")
            self.want(e.right, BOOL, scope, f"the operand of '{op}'")
            return BOOL
        if op in ("+", "-", "*", "/", "%", ".."):
            self.want(e.left, INT, scope, f"the operand of '{op}'")
            self.want(e.right, INT, scope, f"the operand of '{op}'")
            return list_of(INT) if op == ".." else INT
        left = self.expr(e.left, scope)
        right = self.expr(e.right, scope)
        if op in ("in", "not in"):
            el = element(right)
            if el is None:
                self.err("E030", f"'{op}' needs a list on its right, not {with_article(right)}",
                         e.right.span)
            elif not compatible(left, el):
                self.err("E030", f"{with_article(left)} is never in {with_article(right)}", e.span)
            return BOOL
        if op in ("<", ">", "<=", ">="):
            for side, t in ((e.left, left), (e.right, right)):
                if t not in (INT, ANY):
                    self.err("E030", f"'{op}' compares numbers, not {with_article(t)}", side.span)
            return BOOL
        if not compatible(left, right):
            self.err("E030", f"comparing {with_article(left)} with {with_article(right)} is always "
                     f"{'false' if op == '==' else 'true'}", e.span)
        return BOOL

    def comprehension(self, e: Any, scope: Scope) -> Type:
        el = self.domain(e.domain, scope)
        self.comp += 1
        pyname = f"v{self.comp}_{e.var}"
        self.a.binding[id(e)] = ("py", pyname, el)
        scope.blocks.append({e.var: ("py", pyname, el)})
        if e.where is not None:
            self.want(e.where, BOOL, scope, "a condition")
        value: Type = el
        if isinstance(e, (A.Aggregate, A.ListComp)):
            value = self.expr(e.expr, scope)
        scope.blocks.pop()
        if isinstance(e, A.ListComp):
            return list_of(value)
        if isinstance(e, A.Aggregate):
            if e.kind == "sum" and value not in (INT, ANY):
                self.err("E030", f"sum adds numbers, not {with_article(value)}", e.expr.span)
            return INT if e.kind == "sum" else value
        return {"count": INT, "any": BOOL, "all": BOOL, "first": el,
                "filter": list_of(el)}[e.kind]

    def field_owner(self, e: A.Of, scope: Scope, reported: int) -> Type | None:
        """`field of c` for a component c, or None when attr is no field of any kind."""
        kinds = [k for k in self.a.kinds.values() if e.attr in k.fields]
        if not kinds:
            return None
        t = self.expr(e.obj, scope)
        if t == ANY and len(self.a.diagnostics) > reported:
            return ANY
        if not (_is(t, "comp") and e.attr in self.a.kinds[t[1]].fields):
            owners = " or ".join(k.name for k in kinds)
            self.err("E030", f"{e.attr} is a field of {owners}, not of {with_article(t)}",
                     e.obj.span)
            return ANY
        self.a.binding[id(e)] = ("field", t[1], e.attr)
        return self.a.kinds[t[1]].types.get(e.attr, ANY)

    def lattice_call(self, e: A.Call, arg_types: list[Type]) -> Type:
        """corners(t), around(x), pairs(board), top(zone), unique(xs)."""
        f, a = e.func, self.a
        want = {"corners": 1, "around": 1, "pairs": 1, "top": 1, "unique": 1}[f]
        if len(e.args) != want:
            self.err("E024", f"{f} takes {_count(want, 'argument')}, not {len(e.args)}",
                     e.span, hint=LATTICE_DOCS[f])
            return ANY
        t = arg_types[0]
        self.a.binding[id(e)] = ("builtin", f)
        board = a.boards.get(t[1]) if isinstance(t, tuple) and len(t) > 1 else None
        if f == "corners" and _is(t, "cell") and isinstance(board, TriangleBoard):
            if board.name not in self.corners:
                self.err("E050", f"corners of {board.name} need a board of them: "
                         f"board crossings: corners of {board.name}", e.span)
                return ANY
            return list_of(("cell", self.corners[board.name]))
        if f == "around" and _is(t, "cell") and isinstance(board, CornerBoard):
            return list_of(("cell", board.of.name))
        if f == "pairs" and _is(t, "board") and isinstance(board, TriangleBoard):
            return list_of(list_of(("cell", board.name)))
        if f == "top" and _is(t, "zone"):
            return ("comp", t[2])
        if f == "unique" and element(t) is not None:
            return t if _is(t, "list") else list_of(element(t) or ANY)
        self.err("E030", f"{f} does not take {with_article(t)}", e.args[0].span,
                 hint=LATTICE_DOCS[f])
        return ANY

    def call(self, e: A.Call, scope: Scope) -> Type:
        arg_types = [self.expr(arg, scope) for arg in e.args]
        if e.func in LATTICE_DOCS and e.func not in self.a.defines:
            return self.lattice_call(e, arg_types)
        if e.func in self.a.defines:
            d = self.a.defines[e.func]
            if len(e.args) != len(d.params):
                self.err("E024", f"{e.func} takes {_count(len(d.params), 'argument')}, "
                         f"not {len(e.args)}", e.span)
                return ANY
            n = self.instantiate(d, arg_types, e.span)
            self.a.binding[id(e)] = ("define", e.func, n)
            return self.a.define_instances[n].result if n < len(
                self.a.define_instances) else ANY
        b = BUILTINS.get(e.func)
        if e.func in SQUARE_ONLY and arg_types:
            t = arg_types[0]
            board = self.a.boards.get(t[1]) if isinstance(t, tuple) and len(t) > 1 else None
            if board is not None and not isinstance(board, SquareBoard):
                self.err("E030", f"{e.func} works on square boards; {board.name} is not one",
                         e.span, hint="on triangles: neighbours, reach, corners, around, pairs")
                return ANY
        if b is None:
            if e.func in self.a.rules:
                self.err("E022", f"rule {e.func} does not give a value; call it as a "
                         "statement on its own line", e.span)
            else:
                self.err("E023", f"unknown function '{e.func}'", e.span,
                         hint=self.suggest(e.func))
            return ANY
        if not b.min_args <= len(e.args) <= b.max_args:
            want = (str(b.min_args) if b.min_args == b.max_args
                    else f"{b.min_args} to {b.max_args}")
            self.err("E024", f"{e.func} takes {_count(want, 'argument')}, not {len(e.args)}",
                     e.span, hint=b.doc)
            return ANY
        for i in b.const_args:
            self.constant(e.args[i])
        result = b.result(arg_types)
        self.a.binding[id(e)] = ("builtin", e.func)
        if isinstance(result, Problem):
            self.err("E030", result, e.span, hint=b.doc)
            return ANY
        return result


def _count(n: int | str, word: str) -> str:
    """'1 argument', '2 arguments', '1 to 3 arguments'."""
    return f"{n} {word}" if str(n) == "1" else f"{n} {word}s"


def _is(t: Type | None, kind: str) -> bool:
    return isinstance(t, tuple) and t[0] == kind


def analyze(file: A.RulesFile, overrides: dict[str, Any] | None = None) -> Analysis:
    """Check a parsed rule file; the diagnostics are in the returned analysis, in the
    order of their places in the file (those about the whole file first)."""
    analysis = Checker(file, overrides).run()
    analysis.diagnostics.sort(key=lambda d: (d.span.line, d.span.column) if d.span else (0, 0))
    return analysis


SQUARE_ONLY = ("lines", "column", "row", "cell", "distance", "straight", "orthogonal")
LATTICE_DOCS = {
    "corners": "corners(t): the corners of triangle t (a board declared 'corners of ...')",
    "around": "around(x): the triangles that have corner x",
    "pairs": "pairs(board): every two triangles that share an edge, as [a, b]",
    "top": "top(zone): the first item of a zone, or none when it is empty",
    "unique": "unique(xs): the items of xs without repeats, in order",
}


def _walk(stmts: list) -> list:
    """Every statement in a block, nested ones too."""
    out = []
    for s in stmts:
        out.append(s)
        if isinstance(s, A.If):
            for _, body in s.branches:
                out += _walk(body)
            out += _walk(s.otherwise or [])
        elif isinstance(s, (A.ForEach, A.Repeat, A.While, A.Turns)):
            out += _walk(s.body)
        elif isinstance(s, (A.Choose, A.ChooseAny)):
            out += _walk(s.body or [])
        elif isinstance(s, A.ChooseMenu):
            for o in s.options:
                out += _walk(o.body)
    return out
