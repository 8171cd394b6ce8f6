"""What the checker learns about a rule file, and the names it shares between its parts.

Stage: check. `Analysis` is the checker's result, read by the compiler: the meaning of
each name (bindings.py), the type of each expression, the declarations and the procedures.
It says nothing of where things live in the state: that layout is the compile stage's
(`rulesdsl.program.layout`). The records of the declarations (counters, dice, kinds,
zones, enums, the display) are the shared ones of rulesdsl/declarations.py, which the
compiler hands on to the run side as they are; the small data classes here are the
checker's own.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .. import ast as A
from ..boards.grids import SquareBoard
from ..declarations import CounterInfo, DiceInfo, DieInfo, DisplayInfo, EnumInfo, KindInfo, ZoneInfo
from ..diagnostics import Diagnostic, Span
from ..limits import MAX_PLAYERS as MAX_PLAYERS  # (the checker holds player counts to it)
from .bindings import Ref, Var
from .types import ANY, Type

DEFAULT_LIMIT = 100_000   # decisions, for a game whose rule file declares no `limit`
NAMED = (A.ConstDecl, A.SettingDecl, A.CounterDecl, A.BoardDecl, A.EnumDecl, A.DieDecl,
         A.DiceDecl, A.DefineDecl, A.RuleDecl, A.KindDecl, A.ZoneDecl)
# statements that wait for a player or a roll: not allowed where the rules cannot pause
WAITING = (A.Choose, A.ChooseAny, A.ChooseMenu, A.LetRoll, A.Roll, A.Turns, A.Replay,
           A.CallRule, A.SecretStep, A.Offer, A.Point)


class TooLarge(Exception):
    """A value known before the game is beyond what the engine keeps (a number beyond
    10^18, a list of more than 100,000 items)."""

    def __init__(self, node: A.Node, what: str):
        super().__init__(what)
        self.node = node
        self.what = what


class NotConstant(Exception):
    """An expression that must be known before the game starts is not."""

    def __init__(self, node: A.Node):
        super().__init__("not constant")
        self.node = node


@dataclass
class StatInfo:
    """A statistic (`stat ...`): a tally kept in a counter of its name (no `value`), or an
    expression measured when the game ends, for each player with `var`."""

    name: str
    per_player: bool
    decl: A.StatDecl
    var: Var | None = None


@dataclass
class DefineInstance:
    """A definition checked for one list of argument types: its own copy of the body."""

    name: str
    number: int
    params: list[Var]
    body: Any
    result: Type


@dataclass
class Proc:
    """A block of statements that runs with its own locals: setup, play, a rule, an example."""

    kind: str
    name: str
    body: list
    params: list[str]
    span: Span
    vars: list[Var] = field(default_factory=list)  # the parameters, in order
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
    limit: int = DEFAULT_LIMIT  # decisions before the game ends as a draw at its limit
    limit_span: Span | None = None  # the `limit` line, when the rule file has one
    values: dict[str, Any] = field(default_factory=dict)  # constants and settings
    settings: dict[str, A.SettingDecl] = field(default_factory=dict)
    setting_bounds: dict[str, tuple[Any, Any]] = field(default_factory=dict)  # (low, high)
    counters: dict[str, CounterInfo] = field(default_factory=dict)
    boards: dict[str, SquareBoard] = field(default_factory=dict)
    cells: dict[str, list[str]] = field(default_factory=dict)
    enums: dict[str, EnumInfo] = field(default_factory=dict)
    enum_values: dict[str, tuple[str, int]] = field(default_factory=dict)
    dies: dict[str, DieInfo] = field(default_factory=dict)
    dice: dict[str, DiceInfo] = field(default_factory=dict)
    display: DisplayInfo = field(default_factory=DisplayInfo)
    defines: dict[str, A.DefineDecl] = field(default_factory=dict)
    rules: dict[str, A.RuleDecl] = field(default_factory=dict)
    procs: list[Proc] = field(default_factory=list)
    rank: A.RankDecl | None = None
    heuristic: A.HeuristicDecl | None = None
    payoff: A.PayoffDecl | None = None
    payoff_bounds: tuple[int | None, int | None] = (None, None)
    define_instances: list[DefineInstance] = field(default_factory=list)
    # instance number -> the arguments of each call of it (the compiler weighs a loop over
    # a parameter that every call gives a small list, such as a pair of triangles)
    define_args: dict[int, list[list[Any]]] = field(default_factory=dict)
    holding: dict[str, Type] = field(default_factory=dict)  # board -> what its cells hold
    kinds: dict[str, KindInfo] = field(default_factory=dict)
    zones: dict[str, ZoneInfo] = field(default_factory=dict)
    triggers: list[Proc] = field(default_factory=list)
    stats: dict[str, StatInfo] = field(default_factory=dict)  # in the order declared
    binding: dict[int, Ref] = field(default_factory=dict)  # id(node) -> what it names
    types: dict[int, Type] = field(default_factory=dict)
    # id(statement) -> the variable it binds: let, roll, for each, choose (kept in the frame)
    var_of: dict[int, Var] = field(default_factory=dict)
    # id(node) -> the variable that names each candidate while options are worked out (a
    # choice's filter and label), or each item (an 'as soon as', the rank line)
    candidate: dict[int, Var] = field(default_factory=dict)
    # id(variable) -> the list a comprehension's item, a loop's item or a choice's value
    # is taken from (the compiler weighs a loop over an item of a list whose items are all
    # small, such as a board's lines, and knows the range of an item of `lo..hi`); not
    # for `choose optional`, whose value may be none
    item_of: dict[int, Any] = field(default_factory=dict)
    # id(variable) of each variable kept in a frame that a `set` or `add` changes: its
    # value is no longer an item of the list it was bound from
    assigned: set[int] = field(default_factory=set)
    constants: dict[int, Any] = field(default_factory=dict)  # arguments known in advance
    team_size: int = 0  # `teams of N`; 0: no teams
    # id(secret step) -> the names its first block binds, held for each seat until revealed
    held: dict[int, list[Var]] = field(default_factory=dict)
    # point of the flow -> where the game stands there: (procedure, the call it is in, or
    # last the point), from the play block down
    points: dict[str, list[tuple[tuple[str, str], Any]]] = field(default_factory=dict)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]

    def type_of(self, node: A.Node) -> Type:
        return self.types.get(id(node), ANY)

    def field_column(self, owner: str, name: str) -> list[Any]:
        """The values of a field, one per component of a kind or per value of an enum."""
        table = self.kinds.get(owner) or self.enums[owner]
        return table.columns[name]

    def proc(self, kind: str, name: str = "") -> Proc | None:
        for p in self.procs:
            if p.kind == kind and (not name or p.name == name):
                return p
        return None


class Scope:
    """Local names of one procedure: a stack of blocks of names."""

    def __init__(self, proc: Proc):
        self.proc = proc
        self.blocks: list[dict[str, Var]] = [{}]
        self.loops = 0
        self.turns = 0
        self.at_once: list[bool] = []  # of each enclosing `turns`, innermost last

    def lookup(self, name: str) -> Var | None:
        for block in reversed(self.blocks):
            if name in block:
                return block[name]
        return None

def plural(n: int | str, word: str) -> str:
    """'1 argument', '2 arguments', '1 to 3 arguments'."""
    return f"{n} {word}" if str(n) == "1" else f"{n} {word}s"


def is_a(t: Type | None, kind: str) -> bool:
    return isinstance(t, tuple) and t[0] == kind


SQUARE_ONLY = ("lines", "column", "row", "cell", "distance", "straight", "orthogonal")
LATTICE_DOCS = {
    "corners": "corners(t): the corners of triangle t (a board declared 'corners of ...')",
    "around": "around(x): the triangles that have corner x",
    "pairs": "pairs(board): every two triangles that share an edge, as [a, b]",
    "top": "top(zone): the first item of a zone, or none when it is empty",
    "unique": "unique(xs): the items of xs without repeats, in order",
}


def walk(stmts: list) -> list:
    """Every statement in a block, nested ones too (`rulesdsl.ast.statements_in`)."""
    return A.statements_in(stmts)
