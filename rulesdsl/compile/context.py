"""What a part of the code generator may ask of the others: the state of one compile, the
emission of blocks, jumps, pauses and frame slots, and the handlers the parts give each
other.

Stage: compile. The `Compiler` (compiler.py) is composed of parts, each a module of its
own: statements.py (statement lists and the plain statements), control.py (branches,
loops, turns), sites.py (decisions and chance), flow.py (secret steps, offers, points),
coverage.py (coverage points) and assembly.py (the module, whole). Each builds on
`Generator`, below them all: the compile's state and its primitives, written here, and
the methods one part calls in another, declared here as abstract (the `Compiler` is only
made when every part is there). A statement is compiled by the handler of its class, from
one table built once (`Compiler.handlers`); a handler takes the generator, the statement
and the block being written (`pos`), and returns the block that goes on after it.

Which statements pause the game (`suspends`) is decided here too: such a statement is
split into blocks; the others compile to straight-line Python.
"""

from __future__ import annotations

import ast
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from .. import ast as A
from ..check.analysis import Analysis
from ..check.bindings import Var
from ..check.types import ANY, Type
from ..diagnostics import Span
from ..program.declare import declare
from ..program.display import Display
from ..program.layout import layout_of
from ..program.program import Point, Site
from ..program.runtime import SUSPEND
from . import emit as E
from .backends import PLAIN, Backend
from .bounds import item_range
from .expressions import ExpressionCompiler
from .options import DEFAULT, Options
from .plain import call_kinds

PAUSING = (A.Choose, A.ChooseAny, A.ChooseMenu, A.LetRoll, A.Roll, A.CallRule, A.Turns,
           A.Replay, A.SecretStep, A.Offer, A.Point, A.ExpectOptions)

# a statement's handler: (the generator, the statement, the block being written) -> the
# block that goes on after the statement
Handler = Callable[[Any, Any, list], list]


def suspends(s: Any, plain: frozenset[str] = frozenset()) -> bool:
    """Whether a statement may pause the game (so it must be split into blocks); a call of
    one of the `plain` rules does not (plain.py). The statements inside it are those of
    `A.bodies`: a choice's, a menu's, a secret step's or an offer's body is never looked
    at, as the statement itself pauses."""
    if isinstance(s, A.CallRule) and s.name in plain:
        return False
    if isinstance(s, PAUSING):
        return True
    return any(suspends(x, plain) for body in A.bodies(s) for x in body)


def loop_depth(s: Any) -> int:
    """How deep loops nest in a statement, itself included (asked only of a statement
    that does not pause: the body of one that does is a block of its own, where Python's
    nesting starts again)."""
    inner = max((loop_depth(x) for body in A.bodies(s) for x in body), default=0)
    return inner + (1 if isinstance(s, (A.ForEach, A.Repeat, A.While)) else 0)


@dataclass
class FlowState:
    """What the compiler keeps about the flow while it compiles (flow.py)."""

    # block -> (slot of the list of seats, slot of the index of the seat now choosing): the
    # blocks of a secret step or an `all at once` round
    together: dict[int, tuple[int, int]] = field(default_factory=dict)
    regions: list[tuple[int, int]] = field(default_factory=list)
    seats: list[ast.expr] = field(default_factory=list)  # who decides in a secret step
    points: dict[str, int] = field(default_factory=dict)  # point -> its block
    call_cont: dict[int, int] = field(default_factory=dict)  # id(call) -> block after it

    def mark(self, block: int) -> None:
        """A new block belongs to the innermost step or round that is on."""
        if self.regions:
            self.together[block] = self.regions[-1]

    @property
    def secret(self) -> bool:
        return bool(self.seats)


class Generated(str):
    """The name of a function in the generated module (resolved after it runs)."""


class Generator(ExpressionCompiler, ABC):
    """The state of one compile and what every part of the compiler writes with."""

    # each statement class -> its handler (Compiler.handlers, built once)
    handlers: ClassVar[dict[type, Handler]]
    # the procedure being compiled: each frame slot's type, range and name (compile_proc)
    slot_types: dict[int, Type]
    slot_ranges: dict[int, tuple[int, int]]
    slot_names: dict[int, str]

    def __init__(self, analysis: Analysis, sources: dict[str, str], coverage: bool = False,
                 backend: Backend = PLAIN, options: Options = DEFAULT):
        self.declared = declare(analysis)  # what the run side reads of the analysis
        super().__init__(analysis, layout_of(self.declared), options)
        self.coverage = coverage
        self.backend = backend
        self.sources = sources
        self.points: list[Point] = []
        self.source_lines = {path: text.splitlines() for path, text in sources.items()}
        self.display = Display(self.declared)
        self.blocks: list[E.Function] = []
        self.block_sid: list[int] = []
        self.block_proc: list[int] = []
        self.frame_types: list[dict[int, Type]] = []
        self.frame_ranges: list[dict[int, tuple[int, int]]] = []
        self.frame_names: list[dict[int, str]] = []
        self.turns_blocks: set[int] = set()
        self.proc_number = -1
        self.sites: list[Site] = []
        self.entries: dict[tuple[str, str], int] = {}
        self.nlocals: dict[tuple[str, str], int] = {}
        self.loops: list[tuple] = []
        self.turns_next: list[list] = []  # where 'end turn' goes, innermost last
        self.turns_who: list[tuple[int, Callable[[], ast.expr]]] = []  # its seat slot, step
        self.native = 0          # native Python loops around the statement being compiled
        self.nslots = 0          # frame slots the current procedure has used
        self.cur_sid = -1        # the rule statement being compiled
        self.padding: list[tuple[ast.List, tuple[str, str]]] = []  # a called rule's locals
        self.known_options: dict[int, str] = {}  # id(choice) -> the name of its options
        self.calls_to = call_kinds(analysis, PAUSING,
                                   lambda s: loop_depth(s) > options.native_loops)
        self.labels = 0
        self.flow = FlowState()
        self.roots: set[int] = set()  # blocks numbered other than by a jump: block_number

    # ---- emission --------------------------------------------------------------------------

    def new_block(self, span: Span) -> list:
        fn = E.Function(f"S{len(self.blocks)}", ["st", "fr"])
        self.flow.mark(len(self.blocks))
        self.blocks.append(fn)
        self.block_sid.append(self.sid(span))
        self.block_proc.append(self.proc_number)
        return fn.body

    def block_number(self, body: list) -> int:
        """The number of a block that the game may be at when no code is running (where it
        resumes after a decision or a call, where a point's game goes on): kept in the
        module whatever jumps to it (see `live_blocks`)."""
        n = self._number(body)
        self.roots.add(n)
        return n

    def jump_to(self, body: list) -> ast.Return:
        """A jump to a block: the block is kept in the module only while a jump to it is
        left after short blocks are copied in place of jumps (see `live_blocks`)."""
        return E.jump(self._number(body))

    def _number(self, body: list) -> int:
        for n, fn in enumerate(self.blocks):
            if fn.body is body:
                return n
        raise AssertionError("not a block")  # pragma: no cover

    def emit(self, pos: list, *stmts: ast.stmt) -> None:
        for s in stmts:
            if not hasattr(s, "sid"):
                s.sid = self.cur_sid  # type: ignore[attr-defined]
            pos.append(s)

    def goto(self, pos: list, block: list) -> None:
        self.emit(pos, self.jump_to(block))

    def pause(self, pos: list, resume: list, code: int = SUSPEND) -> None:
        self.emit(pos, E.assign(E.sub_store(E.name("fr"), 0), E.const(self.block_number(resume))),
                  E.return_(E.const(code)))

    def new_slot(self, t: Type = ANY) -> int:
        """A slot of the current procedure's frame, for a value of type t."""
        self.nslots += 1
        self.slot_types[self.nslots - 1] = t
        return self.nslots - 1

    def slot(self, v: Var) -> int:
        if v not in self.frame_slots:
            self.frame_slots[v] = self.new_slot(v.type)
            self.name_slot(self.frame_slots[v], v)
        return self.frame_slots[v]

    def name_slot(self, slot: int, v: Var) -> None:
        """Keep the name a slot holds, and its range if it is an item of `lo..hi`
        (bounds.py): a save is held to them (saves.py)."""
        self.slot_names[slot] = v.name
        r = item_range(self.a, v, self.options)
        if r is not None:
            self.slot_ranges[slot] = r

    def var(self, v: Var) -> ast.expr:
        if v.frame:
            return E.sub(E.name("L"), self.slot(v))
        return super().var(v)

    def local(self, n: int) -> ast.Subscript:
        return E.sub(E.name("L"), n)

    def local_store(self, n: int) -> ast.Subscript:
        return E.sub_store(E.name("L"), n)

    @property
    def proc_name(self) -> str:
        return self.proc.name if self.proc is not None else ""

    def text_of(self, span: Span) -> str:
        lines = self.source_lines.get(span.file, [])
        if span.line == span.end_line and 1 <= span.line <= len(lines):
            return lines[span.line - 1][span.column - 1:span.end_column - 1]
        return "the condition"

    def prompt_of(self, span: Span) -> str:
        lines = self.source_lines.get(span.file, [])
        if 1 <= span.line <= len(lines):
            return lines[span.line - 1].strip().rstrip(":")
        return ""

    def suspends(self, s: Any) -> bool:
        return suspends(s, self.calls_to.plain)

    # ---- what the parts give each other ----------------------------------------------------

    @abstractmethod
    def stmts(self, body: list, pos: list) -> list:
        """Compile statements into the block `pos`; the block that goes on after them
        (statements.py)."""

    @abstractmethod
    def body_weight(self, body: list) -> int:
        """The work of one turn of a loop with this body (statements.py)."""

    @abstractmethod
    def after_change(self, pos: list) -> None:
        """After a change of the game, the 'as soon as' blocks get their turn
        (statements.py)."""

    @abstractmethod
    def if_chain(self, branches: list, otherwise: list | None, pos: list, split: bool,
                 span: Span, marks: list[tuple[str, Span, str]]) -> list:
        """A chain of branches, split into blocks when `split` (control.py)."""

    @abstractmethod
    def point(self, pos: list, kind: str, span: Span, name: str = "") -> None:
        """With coverage on, count each run of this place (coverage.py)."""

    @abstractmethod
    def points_scored(self, s: A.Add, pos: list) -> None:
        """With coverage on, count the points an `add` scores (coverage.py)."""

    @abstractmethod
    def decider(self, by: A.Expr | None, span: Span) -> ast.expr:
        """Who makes a decision (sites.py)."""

    @abstractmethod
    def choice_list(self, s: A.Choose) -> ast.expr:
        """The items a choice offers (sites.py)."""

    @abstractmethod
    def choose(self, s: A.Choose, pos: list) -> list:
        """A choice: its site, and the block that resumes with the answer (sites.py)."""

    @abstractmethod
    def label_function(self, label: A.StrLit | None, var: Var | None) -> str | None:
        """The generated function that labels an option (sites.py)."""

    @abstractmethod
    def suspend_for(self, site: Site, options: ast.expr, player: ast.expr, pos: list,
                    span: Span, check_empty: bool = True) -> list:
        """Leave a decision pending and pause; the block that resumes (sites.py)."""
