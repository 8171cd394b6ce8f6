"""Compile a checked rule file into Python code: blocks, decision sites and tables.

Stage: compile. Each procedure (setup, play, a rule, an example) becomes a list of
"blocks": generated Python functions `S3(st, fr)` that run straight-line rule code and
return the next block number (or a `Code` from runtime). A block ends where the rules may
pause (a decision, a chance step, a call): the position in the rules is then just the block
number and the locals in the frame, so the state stays plain data. Statements without a
pause inside compile to native Python `if` and `for`.

The code is built as a Python syntax tree through emit.py (names are the compiler's own,
the rule file's strings and numbers are constants), checked by sandbox.py, then compiled and
run once to get the block functions. Each generated line maps back to the rule it came from.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from .. import ast as A
from ..check.analysis import Analysis, Proc
from ..check.bindings import CounterRef, DieKindRef, Var, VarRef, ZoneRef
from ..check.types import ANY, INT, PLAYER, Type, element, list_of
from ..diagnostics import Span
from . import emit as E
from . import flow
from .backends import PLAIN, Backend
from .bounds import item_range
from .display import Display
from .distinct import distinct
from .expressions import ExpressionCompiler
from .fold import fold
from .guards import guarded_test
from .layout import Layout, layout_of
from .memo import memoize
from .plain import call_kinds, chance_call, plain_call, when_told
from .runtime import CALL, MAX_SUBSET_ITEMS, OVER, REPLAY, RET, SUSPEND, Env, make_helpers
from .statistics import reader, stats_function
from .tiles import clear_tile, place_tile
from .unroll import unroll

INLINE_STATEMENTS = 24  # blocks this short are copied into the blocks that jump to them
COSTLY_CALLS = 1000     # a statement whose expressions make this many calls counts them
INLINE_DEPTH = 2
LIVE_ONLY = True        # (for testing) blocks only jumped to, and copied in, left out
CURRENT_KNOWN = True    # (for measuring) inside the turns, `current` is read untested
NATIVE_LOOPS = 15       # loops nested deeper than this are compiled as blocks (Python's limit)
PAUSING = (A.Choose, A.ChooseAny, A.ChooseMenu, A.LetRoll, A.Roll, A.CallRule, A.Turns,
           A.Replay, *flow.STATEMENTS)


@dataclass
class Site:
    """A place in the rules where a decision or a chance step happens."""

    kind: str            # choose, any, menu, roll, die
    proc: str
    span: Span
    type: Type = ANY     # the type of one option's value
    slot: int = -1       # where the chosen value goes in the frame's locals
    hidden: list[int] = field(default_factory=list)
    base: int = 0        # first counter slot of the dice set (kind "die")
    label: Any = None    # generated function (st, L, value) -> str, or None
    done_label: Any = None  # the same for the option 'done' of 'choose optional'
    secret: bool = False    # `choose ... secretly`: only the chooser learns the choice
    menu: list[tuple[str, Any]] = field(default_factory=list)  # (id, label) per option
    prompt: str = ""     # the rule line of the decision, as players read it
    offered_by: int = -1  # the answer to an offer: the local holding who made the offer
    resume: int = -1     # the block the deciding frame waits at (a saved game must agree)
    # generated function (st, L) -> the options offered, worked out again from the state
    # and the deciding frame (the sampler's, after it deals hidden components anew), or
    # None where they cannot be (a menu, the subsets of `choose any`, a roll)
    options: Any = None
    name: str = ""       # the name a choice binds (`choose t in ...`: t), for the display


@dataclass(frozen=True)
class Point:
    """A place coverage counts (compiled with `coverage=True`): the start of a rule
    ("rule", also "setup" and "play"), of a branch of an `if` ("branch"), of a menu
    option ("option"), of an 'as soon as' block ("trigger"), of each turn of a `turns`
    loop ("turn"), a statement that ends the game ("end"), and an `add` to the counter the
    game is ranked by ("points": it counts the points added, not the times it ran)."""

    kind: str
    span: Span
    proc: str
    name: str = ""   # a rule's or an option's name


@dataclass
class Program:
    """A compiled rule file: the blocks, sites and tables the runtime needs."""

    analysis: Analysis
    layout: Layout
    blocks: list[Any]  # by number; none where a block was left out (`live_blocks`)
    sites: list[Site]
    slots: list[int]  # per site: the local a chosen value goes to (-1: a die's face)
    entries: dict[tuple[str, str], int]
    nlocals: dict[tuple[str, str], int]
    spans: list[Span]
    span_procs: list[str]  # the name of the block of rules each span lies in
    block_sid: list[int]
    rank: Any
    display: Display
    make_code: Callable[[], str]  # makes `code` (the module generated again)
    init_counters: list[Any]
    score: Any = None  # st -> each player's first rank key, when the rank line has one
    filename: str = "<rules>"  # the name the generated code runs under
    line_sids: list[int] = field(default_factory=list)  # generated line -> span id (-1)
    block_proc: list[int] = field(default_factory=list)  # block -> its procedure's number
    # per procedure (in analysis.procs order): the type of what each frame slot holds
    frame_types: list[dict[int, Type]] = field(default_factory=list)
    # block -> the locals naming the seats of the secret step or `all at once` round it is
    # in, and the one choosing now (see flow.py)
    together: dict[int, tuple[int, int]] = field(default_factory=dict)
    # point of the flow -> the frames a game started there has: (block, number of locals)
    starts: dict[str, list[tuple[int, int]]] = field(default_factory=dict)
    points: list[Point] = field(default_factory=list)  # coverage: what each hit counts
    hits: list[int] = field(default_factory=list)  # coverage: how often each point ran
    statistics: Any = None  # st -> the declared statistics by name (`stat ...`), or None
    heuristic: Any = None  # st -> each player's number from the `heuristic` line, if any
    payoff: Any = None     # st -> each player's payoff from the `payoff` line, if any
    # per procedure: the range of each frame slot that holds an item of `lo..hi` (bounds.py:
    # the code reads by it without a check, and a save is held to it)
    frame_ranges: list[dict[int, tuple[int, int]]] = field(default_factory=list)
    # per procedure: the name of the rules each frame slot holds (not the compiler's own)
    frame_names: list[dict[int, str]] = field(default_factory=list)
    # the blocks inside turns, where the code reads `current` without a test for none
    turns_blocks: frozenset[int] = frozenset()
    backend: str = "plain"  # what runs the generated module (backends.py)
    _code: str | None = field(default=None, repr=False)

    @property
    def code(self) -> str:
        """The generated Python, for reading and debugging: made when first asked for, by
        generating the module again (writing it out at every load took 0.05 s of
        Cromlech's; keeping the module's tree for it would nearly double what a loaded
        Cromlech holds)."""
        if self._code is None:
            self._code = self.make_code()
        return self._code

    def span_of_line(self, line: int | None) -> Span | None:
        """The rule a line of the generated code came from (None for an instruction of no
        line: Python gives some of the code it makes of a statement none)."""
        if line is not None and 0 < line < len(self.line_sids) and self.line_sids[line] >= 0:
            return self.spans[self.line_sids[line]]
        return None


def suspends(s: Any, plain: frozenset[str] = frozenset()) -> bool:
    """Whether a statement may pause the game (so it must be split into blocks); a call of
    one of the `plain` rules does not (plain.py)."""
    if isinstance(s, A.CallRule) and s.name in plain:
        return False
    if isinstance(s, PAUSING):
        return True
    return any(suspends(x, plain) for body in _bodies(s) for x in body)


def loop_depth(s: Any) -> int:
    """How deep loops nest in a statement, itself included."""
    inner = max((loop_depth(x) for body in _bodies(s) for x in body), default=0)
    return inner + (1 if isinstance(s, (A.ForEach, A.Repeat, A.While)) else 0)


def _bodies(s: Any) -> list[list]:
    if isinstance(s, A.If):
        out = [b for _, b in s.branches]
        return out + ([s.otherwise] if s.otherwise else [])
    if isinstance(s, (A.ForEach, A.Repeat, A.While, A.Turns, A.Step)):
        return [s.body]
    return []


class Compiler(ExpressionCompiler):
    """Generates the syntax tree of one program, checks it, and runs it once to get the
    block functions."""

    def __init__(self, analysis: Analysis, sources: dict[str, str], coverage: bool = False,
                 backend: Backend = PLAIN):
        super().__init__(analysis, layout_of(analysis))
        self.coverage = coverage
        self.backend = backend
        self.sources = sources
        self.points: list[Point] = []
        self.source_lines = {path: text.splitlines() for path, text in sources.items()}
        self.display = Display(analysis)
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
        self.calls_to = call_kinds(analysis, PAUSING, _bodies,
                                   lambda s: loop_depth(s) > NATIVE_LOOPS)
        self.labels = 0
        self.flow = flow.FlowState()
        self.roots: set[int] = set()  # blocks numbered other than by a jump: block_number

    # ---- emission ----------------------------------------------------------------------

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

    def point(self, pos: list, kind: str, span: Span, name: str = "") -> None:
        """With coverage on, count each run of this place (examples are not counted)."""
        if self.coverage and (self.proc is None or self.proc.kind != "example"):
            self.emit(pos, E.aug(E.sub_store(E.name("HITS"), len(self.points)), "+",
                                 E.const(1)))
            self.points.append(Point(kind, span, self.proc_name, name))

    def points_scored(self, s: A.Add, pos: list) -> None:
        """With coverage on, an `add` to the counter the game is ranked by first (`score`
        when there is no `rank` line) counts the points it adds at its own point ("points":
        a source of points), as the amount added rather than 1 (examples not counted)."""
        if not self.coverage or (self.proc is not None and self.proc.kind == "example"):
            return
        rank = self.a.rank
        first = rank.keys[0] if rank is not None and rank.keys else None
        counter = first.attr if isinstance(first, A.Of) else "score" if rank is None else None
        if counter is None or s.target.name != counter or s.target.of is None or \
                counter not in self.a.counters:
            return
        amount = self.expr(s.amount)
        self.emit(pos, E.aug(E.sub_store(E.name("HITS"), len(self.points)), "-" if s.negate
                             else "+", amount))
        self.points.append(Point("points", s.span, self.proc_name, counter))

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
        r = item_range(self.a, v)
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

    # ---- program -----------------------------------------------------------------------

    def compile(self) -> Program:
        a = self.a
        module, line_sids = self.module()
        filename = f"<rules {a.file.path}>"
        env = Env(self.spans, self.proc_of_span)
        namespace: dict[str, Any] = dict(make_helpers(env))
        namespace["_show"] = self.display.show
        namespace.update(self.consts)
        hits = [0] * len(self.points)
        if self.coverage:
            namespace["HITS"] = hits
        loaded = self.backend.load(module, filename, line_sids, namespace)
        namespace = loaded.namespace
        for site in self.sites:
            if isinstance(site.label, str):
                site.label = namespace[site.label]
            if isinstance(site.done_label, str):
                site.done_label = namespace[site.done_label]
            if isinstance(site.options, str):
                site.options = namespace[site.options]
            site.menu = [(oid, namespace[label] if isinstance(label, _Generated) else label)
                         for oid, label in site.menu]
        return Program(a, self.layout, namespace["BLOCKS"], self.sites,
                       [site.slot for site in self.sites], self.entries, self.nlocals,
                       self.spans, self.proc_of_span, self.block_sid, namespace["RANK"],
                       self.display, partial(_code_of, a, self.sources, self.coverage),
                       self.initial_counters(),
                       namespace.get("SCORE"), loaded.filename, loaded.line_sids,
                       self.block_proc,
                       self.frame_types, self.flow.together, flow.point_frames(self),
                       self.points, hits, heuristic=namespace.get("HEURISTIC"),
                       payoff=namespace.get("PAYOFF"),
                       statistics=reader(a, self.layout, namespace.get("STATS")),
                       frame_ranges=self.frame_ranges, frame_names=self.frame_names,
                       turns_blocks=frozenset(self.turns_blocks),
                       backend=loaded.backend)

    def module(self) -> tuple[ast.Module, list[int]]:
        """The generated module, and the rule each of its lines came from (a span id)."""
        a = self.a
        for n, proc in enumerate(a.procs):
            self.proc_number = n
            self.entries[(proc.kind, proc.name)] = len(self.blocks)
            self.new_block(proc.span)
        for n, proc in enumerate(a.procs):
            self.proc_number = n
            self.compile_proc(proc)
        triggers = self.triggers_function() if a.triggers else None
        for frame, key in self.padding:  # the callee's other locals start as none
            frame.elts += [E.const(None) for _ in range(self.nlocals[key] - len(frame.elts))]
        for block in self.blocks:  # once, before short blocks are copied into others
            block.body = memoize(block.name, fold(block.body))  # see fold.py and memo.py
        self.inline_jumps()
        rank, score = flow.team_rank_functions(self) if a.team_size else self.rank_functions()
        stats = stats_function(self)
        heuristic = self.per_seat_function("HEURISTIC", self.a.heuristic)
        payoff = self.per_seat_function("PAYOFF", self.a.payoff)
        functions = [*self.functions, rank, *([score] if score else []),
                     *([stats] if stats else []), *([heuristic] if heuristic else []),
                     *([payoff] if payoff else []),
                     *([triggers] if triggers else [])]
        live = self.live_blocks(functions)
        functions += [fn for n, fn in enumerate(self.blocks) if n in live]
        module = ast.Module(body=[self.finish(fn) for fn in functions], type_ignores=[])
        module.body.append(E.assign(E.store("BLOCKS"), E.list_(
            E.name(fn.name) if n in live else E.const(None)
            for n, fn in enumerate(self.blocks))))
        return module, E.number_lines(module)

    def live_blocks(self, others: list[E.Function]) -> set[int]:
        """The blocks the game can run, once short blocks are written in place of the jumps
        to them: those it may be at between steps (each procedure's first block and every
        block numbered by `block_number`), and those a jump left in a live block (or in one
        of the `others`, the module's functions but the blocks) goes to. The others (35 of
        Cromlech's 200, a tenth of its code) are not written into the module: BLOCKS holds
        none at their numbers, which nothing reaches (a save whose stack points at one is
        refused, saves.py)."""
        if not LIVE_ONLY:
            return set(range(len(self.blocks)))
        live = set(self.roots) | set(self.entries.values())
        todo = [self.blocks[n].body for n in live] + [fn.body for fn in others]
        while todo:
            for target in E.jumps(todo.pop()):
                if target not in live:
                    live.add(target)
                    todo.append(self.blocks[target].body)
        return live

    def compile_proc(self, proc: Proc) -> None:
        self.proc = proc
        self.frame_slots = {v: i for i, v in enumerate(proc.vars)}
        self.nslots = len(proc.vars)
        self.slot_types = {i: v.type for i, v in enumerate(proc.vars)}
        self.frame_types.append(self.slot_types)
        self.slot_ranges: dict[int, tuple[int, int]] = {}
        self.slot_names: dict[int, str] = {}
        for i, v in enumerate(proc.vars):
            self.name_slot(i, v)
        self.frame_ranges.append(self.slot_ranges)
        self.frame_names.append(self.slot_names)
        self.cur_sid = self.sid(proc.span)
        key = (proc.kind, proc.name)
        pos = self.blocks[self.entries[key]].body
        self.point(pos, proc.kind, proc.span, proc.name)
        pos = self.stmts(proc.body, pos)
        self.cur_sid = self.sid(proc.span)
        if proc.kind == "play":
            self.emit(pos, E.assign(E.attr_store(E.name("st"), "result"),
                                    E.call("RANK", E.name("st"))),
                      E.return_(E.const(OVER)))
        else:
            self.emit(pos, E.return_(E.const(RET)))
        self.nlocals[key] = self.nslots
        self.proc = None

    def finish(self, fn: E.Function) -> ast.FunctionDef:
        """The function with the aliases it reads defined at its top."""
        if fn.name[:1] != "S":  # blocks were done before inline_jumps
            fn.body = memoize(fn.name, fold(fn.body))  # see fold.py and memo.py
        fn.body = unroll(fn.body, fn.params)  # see unroll.py
        read, bound = E.names(fn.body)
        used = read - set(fn.params) - bound
        prologue: list[ast.stmt] = []
        st = E.name("st")
        if "V" in used:
            prologue.append(E.assign(E.store("V"), E.attr(st, "v")))
        if "L" in used:
            assert "fr" in fn.params, fn.name
            prologue.append(E.assign(E.store("L"), E.sub(E.name("fr"), 1)))
        if "Z" in used:
            prologue.append(E.assign(E.store("Z"), E.attr(st, "z")))
        boards = sorted(int(n[1:]) for n in used if n[:1] == "B" and n[1:].isdigit())
        for n in boards:
            prologue.append(E.assign(E.store(f"B{n}"), E.sub(E.attr(st, "b"), n)))
        return fn.node(prologue)

    def inline_jumps(self) -> None:
        """Write the code of a short block in place of a jump to it: one Python call less
        per jump. The block stays, for the other places that jump or resume there."""
        originals = [fn.body for fn in self.blocks]
        sizes = [E.statements(body) for body in originals]
        # a block that only returns (`return -2`: the rule's end) is written in place of
        # every jump to it, however deep: it is no longer than the jump
        ends = {n for n, body in enumerate(originals) if len(body) == 1 and isinstance(
            body[0], ast.Return) and isinstance(body[0].value, ast.Constant)
            and E.jump_target(body[0]) is None}

        def expand(body: list, depth: int) -> list:
            """The statements with the jumps in them expanded; the originals are left as
            they are (a statement whose body changes is a new one), as they are copied
            again for each jump to them."""
            out: list = []
            for s in body:
                target = E.jump_target(s)
                if target in ends:
                    out.append(E.copy_tree(originals[target][0]))
                    continue
                if target is not None and depth < INLINE_DEPTH and \
                        sizes[target] <= INLINE_STATEMENTS:
                    out.extend(expand(E.copy_tree(originals[target]), depth + 1))
                    continue
                changed: dict[str, list] = {}
                for fld in ("body", "orelse"):
                    inner = getattr(s, fld, None)
                    if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                        changed[fld] = expand(inner, depth)
                out.append(E.replaced(s, **changed) if changed else s)
            return out

        expanded = [expand(body, 0) for body in originals]
        for fn, body in zip(self.blocks, expanded):
            fn.body = body

    def initial_counters(self) -> list[Any]:
        v: list[Any] = [None] * self.layout.nslots
        for name, info in self.a.counters.items():
            base = self.layout.counter[name]
            for k in range(info.size):
                v[base + k] = info.init
        for name, dice in self.a.dice.items():
            faces = self.a.dies[dice.die].faces
            base = self.layout.dice[name]
            for k in range(dice.count):
                v[base + k] = faces[0]
        return v

    def rank_functions(self) -> tuple[E.Function, E.Function | None]:
        """RANK(st): each seat's rank; SCORE(st): the first rank key, when it is a number."""
        rank = self.a.rank
        self.proc = Proc("rank", "rank", [], [], rank.span if rank else Span.make())
        if rank is None:
            score = self.a.counters.get("score")
            var = "r"
            if score is not None and [dim[0] for dim in score.dims] == ["player"]:
                keys: list[ast.expr] = [E.sub(E.name("V"), E.binop(
                    E.const(self.layout.counter["score"]), "+", E.name(var)))]
            else:
                keys = [E.const(0)]
            first = None
        else:
            var = self.var_name(self.a.candidate[id(rank)])
            keys = [self.expr(k) for k in rank.keys]
            first = E.copy_tree(keys[0]) if self.a.type_of(rank.keys[0]) == INT else None
        self.proc = None
        players = E.call("range", E.attr(E.name("st"), "np"))
        body: list[ast.stmt] = [
            E.assign(E.store("q"), E.listcomp(E.tuple_(keys), var, players)),
            E.return_(E.listcomp(
                E.binop(E.const(1), "+", E.call("sum", ast.GeneratorExp(
                    elt=E.const(1), generators=[ast.comprehension(
                        target=E.store("o"), iter=E.name("q"),
                        ifs=[E.compare(E.name("o"), ">", E.name("k"))], is_async=0)]))),
                "k", E.name("q")))]
        score_fn = None
        if first is not None:
            # a game ranked by a number first (a score kept by definitions, say) reports it
            score_fn = E.Function("SCORE", ["st"], [E.return_(E.listcomp(
                first, var, E.copy_tree(players)))])
        return E.Function("RANK", ["st"], body), score_fn

    def per_seat_function(self, name: str,
                          h: A.HeuristicDecl | A.PayoffDecl | None) -> E.Function | None:
        """HEURISTIC(st) or PAYOFF(st): each seat's number from the `heuristic` or `payoff`
        line, if there is one."""
        if h is None:
            return None
        kind = name.lower()
        self.proc = Proc(kind, kind, [], [], h.span)
        var = self.var_name(self.a.candidate[id(h)])
        value = self.expr(h.value)
        self.proc = None
        return E.Function(name, ["st"], [E.return_(E.listcomp(
            value, var, E.call("range", E.attr(E.name("st"), "np"))))])

    # ---- statements --------------------------------------------------------------------

    def stmts(self, body: list, pos: list) -> list:
        for s in body:
            pos = self.stmt(s, pos)
        return pos

    def stmt(self, s: Any, pos: list) -> list:
        saved = self.cur_sid
        self.cur_sid = self.sid(s.span)
        try:
            cost = self.stmt_work(s)
            if cost >= COSTLY_CALLS:
                # definitions that call each other many times: the work is counted before
                # it is done, so 2^40 calls stop at once
                self.emit(pos, *self.count_work(E.const(cost), s.span))
            return self._stmt(s, pos)
        finally:
            self.cur_sid = saved

    def own_calls(self, s: Any) -> int:
        """The calls of definitions a statement's own expressions make (not its body's)."""
        if isinstance(s, A.If):
            return sum(self.calls(c) for c, _ in s.branches)
        if isinstance(s, A.ChooseMenu):
            return sum(self.calls(o.cond) for o in s.options)
        return sum(self.calls(getattr(s, key)) for key in type(s).model_fields
                   if key not in ("span", "body", "label", "done_label"))

    def stmt_work(self, s: Any) -> int:
        """The work a statement does that no loop counts as it runs: its expressions', and
        a small loop's (over at most SMALL items known before the game) whole."""
        work = self.own_calls(s)
        if isinstance(s, A.ForEach) and not self.suspends(s):
            small = self.small(s.domain)
            if small is not None:
                work += small * (self.calls(s.where) + self.body_weight(s.body))
        return work

    def body_weight(self, body: list) -> int:
        """The work of one turn of a loop with this body: 1, and the work its statements
        do outside the loops inside it that count their own."""
        total = 1
        for s in body:
            total += self.stmt_work(s)
            if isinstance(s, A.If):
                total += sum(self.body_weight(b) for _, b in s.branches)
                total += self.body_weight(s.otherwise or [])
            elif isinstance(s, (A.Choose, A.ChooseAny)) and s.body:
                total += self.body_weight(s.body)
            elif isinstance(s, A.ChooseMenu):
                total += sum(self.body_weight(o.body) for o in s.options)
            elif isinstance(s, A.Step):
                total += self.body_weight(s.body)
        return total

    def _stmt(self, s: Any, pos: list) -> list:
        a = self.a
        st = E.name("st")
        if isinstance(s, A.Let):
            self.emit(pos, E.assign(self.local_store(self.slot(a.var_of[id(s)])),
                                    self.checked_number(s.value)))
        elif isinstance(s, A.Set):
            self.assign(s.target, self.checked_number(s.value), pos, s.span)
            if not isinstance(a.binding[id(s.target)], VarRef):
                self.after_change(pos)
        elif isinstance(s, A.Add):
            self.points_scored(s, pos)
            current = self.target_code(s.target)
            value = E.binop(current, "-" if s.negate else "+", self.expr(s.amount))
            self.assign(s.target, self.checked(value, s.span), pos, s.span)
            if not isinstance(a.binding[id(s.target)], VarRef):
                self.after_change(pos)
        elif isinstance(s, A.Place):
            self.place(s, pos)
            self.after_change(pos)
        elif isinstance(s, A.Clear) and clear_tile(self, s) is not None:
            self.emit(pos, clear_tile(self, s))  # type: ignore[arg-type]
            self.after_change(pos)
        elif isinstance(s, A.Clear):
            cell_t = a.type_of(s.cell)
            board = self.board_cells(cell_t[1]) if isinstance(cell_t, tuple) else E.name("B0")
            self.emit(pos, E.assign(E.sub_store(board, self.expr(s.cell)), E.const(None)))
            self.after_change(pos)
        elif isinstance(s, A.Shuffle):
            self.emit(pos, E.expr_stmt(E.call("_shuffle", st, self.zone_number(s.zone))))
            self.after_change(pos)
        elif isinstance(s, A.Move):
            source = self.zone_number(s.source) if s.source is not None else E.const(None)
            among = E.tuple_(E.const(n) for n in self.zones_of_kind(s.dest)) \
                if s.source is None else E.tuple_([])
            self.emit(pos, E.expr_stmt(E.call(
                "_move", st, self.expr(s.item), source, self.zone_number(s.dest),
                E.const(self.sid(s.span)), among)))
            dest = self.a.binding[id(s.dest)]
            if isinstance(dest, ZoneRef) and self.a.zones[dest.name].visibility == "bag":
                # in a bag, what goes in goes to a random place: the top is a blind draw
                self.emit(pos, E.expr_stmt(E.call("_bag", st, self.zone_number(s.dest))))
            self.after_change(pos)
        elif isinstance(s, A.Win):
            self.point(pos, "end", s.span)
            winner = self.need(self.expr(s.player), s.span, "the winner")
            teams = [E.const(a.team_size)] if a.team_size else []  # the winner's team wins
            self.emit(pos, E.assign(E.attr_store(st, "result"),
                                    E.call("_win", st, winner, *teams)),
                      self.ending(s.span), E.return_(E.const(OVER)))
        elif isinstance(s, A.Draw):
            self.point(pos, "end", s.span)
            self.emit(pos, E.assign(E.attr_store(st, "result"),
                                    E.binop(E.list_([E.const(1)]), "*", E.attr(st, "np"))),
                      self.ending(s.span), E.return_(E.const(OVER)))
        elif isinstance(s, A.EndGame):
            self.point(pos, "end", s.span)
            self.emit(pos, E.assign(E.attr_store(st, "result"), E.call("RANK", st)),
                      self.ending(s.span), E.return_(E.const(OVER)))
        elif isinstance(s, A.EndTurn):
            self.goto(pos, self.turns_next[-1])
        elif isinstance(s, A.NextTurn):
            # the turns move `who` one step on when this turn ends: one step back from P
            who, step = self.turns_who[-1]
            player = self.need(self.expr(s.player), s.player.span, "who plays the next turn")
            self.emit(pos, E.assign(self.local_store(who), E.binop(E.binop(
                player, "-", step()), "%", E.attr(st, "np"))))
        elif isinstance(s, A.Break):
            loop = self.loops[-1]
            if loop[0] == "native":
                self.emit(pos, ast.Break())
            else:
                self.goto(pos, loop[1])
        elif isinstance(s, A.Say):
            # a line of the log: (who is told it, None for everyone; its text)
            to: ast.expr = E.const(None)
            if s.to is not None:
                if isinstance(a.type_of(s.to), tuple):
                    to = E.call("tuple", E.call("_uniq", self.expr(s.to)))
                else:
                    to = E.tuple_([self.need(self.expr(s.to), s.to.span, "who is told")])
            self.emit(pos, E.if_(E.compare(E.attr(st, "log"), "is not", E.const(None)), [
                E.expr_stmt(E.call("_say", st, to, self.expr(s.text),
                                   E.const(self.sid(s.span))))]))
        elif isinstance(s, A.Expect):
            self.expect(s, pos)
        elif isinstance(s, A.Pass):
            self.emit(pos, ast.Pass())
        elif isinstance(s, A.Step):
            return self.stmts(s.body, pos)
        elif isinstance(s, A.CallRule):
            return self.call_rule(s, pos)
        elif isinstance(s, A.Replay):
            cont = self.new_block(s.span)
            self.emit(pos, E.assign(E.attr_store(st, "replay"),
                                    E.list_(E.const(c) for c in s.choices)))
            self.pause(pos, cont, REPLAY)
            return cont
        elif isinstance(s, A.If):
            first = guarded_test(self, *s.branches[0]) or self.condition(s.branches[0][0], pos)
            branches = [(first, s.branches[0][1])]
            branches += [(self.expr(c), body) for c, body in s.branches[1:]]
            marks = [("branch", _through(c.span, body), "") for c, body in s.branches]
            if s.otherwise:
                marks.append(("branch", _through(s.otherwise[0].span, s.otherwise), "else"))
            return self.if_chain(branches, s.otherwise, pos, self.suspends(s), s.span, marks)
        elif isinstance(s, A.ForEach):
            return self.for_each(s, pos)
        elif isinstance(s, A.Repeat):
            return self.repeat(s, pos)
        elif isinstance(s, A.While):
            return self.while_loop(s, pos)
        elif isinstance(s, A.Turns):
            return self.turns_loop(s, pos)
        elif isinstance(s, A.Choose):
            return self.choose(s, pos)
        elif isinstance(s, A.ChooseAny):
            return self.choose_any(s, pos)
        elif isinstance(s, A.ChooseMenu):
            return self.choose_menu(s, pos)
        elif isinstance(s, flow.STATEMENTS):
            return flow.statement(self, s, pos)
        elif isinstance(s, A.LetRoll):
            return self.let_roll(s, pos)
        elif isinstance(s, A.Roll):
            return self.roll(s, pos)
        else:  # pragma: no cover
            raise AssertionError(type(s))
        return pos

    def ending(self, span: Span) -> ast.stmt:
        """`st.ending = sid`: which rule ended the game, for statistics (`Game.ended_at`)."""
        return E.assign(E.attr_store(E.name("st"), "ending"), E.const(self.sid(span)))

    def checked(self, value: ast.expr, span: Span) -> ast.expr:
        """A whole number that arithmetic made, checked to stay within bounds when it is
        kept."""
        return E.call("_n", value, E.const(self.sid(span)))

    def checked_number(self, e: A.Expr) -> ast.expr:
        value = self.expr(e)
        if self.a.type_of(e) in (INT, ANY) and self.grows(e):
            return self.checked(value, e.span)
        return value

    def place(self, s: A.Place, pos: list) -> None:
        """`place p at c`, or at each cell of a list (a piece covering several cells)."""
        tile = place_tile(self, s, self.expr(s.turn) if s.turn is not None else E.const(0))
        if tile is not None:
            self.emit(pos, tile)
            return
        cell_t = self.a.type_of(s.cell)
        several = isinstance(cell_t, tuple) and cell_t[0] == "list"
        board_t = element(cell_t) if several else cell_t
        cells = self.board_cells(board_t[1]) if isinstance(board_t, tuple) else E.name("B0")
        cell, piece = self.fresh(), self.fresh()
        sid = E.const(self.sid(s.span))
        self.emit(pos, E.assign(E.store(piece), self.expr(s.piece)))
        occupied = E.raise_(E.call("_occupied", sid))
        if several:
            many = self.fresh()
            self.emit(pos, E.assign(E.store(many), self.expr(s.cell)),
                      E.if_(E.call("any", ast.GeneratorExp(
                          elt=E.compare(E.sub(cells, E.name(cell)), "is not", E.const(None)),
                          generators=[ast.comprehension(target=E.store(cell),
                                                        iter=E.name(many), ifs=[],
                                                        is_async=0)])), [occupied]),
                      E.for_(E.store(cell), E.name(many), [
                          E.assign(E.sub_store(E.copy_tree(cells), E.name(cell)),
                                   E.name(piece))]))
            return
        self.emit(pos, E.assign(E.store(cell), self.expr(s.cell)),
                  E.if_(E.compare(E.sub(cells, E.name(cell)), "is not", E.const(None)),
                        [occupied]),
                  E.assign(E.sub_store(E.copy_tree(cells), E.name(cell)), E.name(piece)))

    def after_change(self, pos: list) -> None:
        """After a change of the game, the 'as soon as' blocks get their turn."""
        if self.a.triggers and self.proc is not None and self.proc.kind != "trigger":
            self.emit(pos, E.if_(E.call("TRIGGERS", E.name("st")),
                                 [E.return_(E.const(OVER))]))

    def triggers_function(self) -> E.Function:
        """TRIGGERS(st): run every 'as soon as' block for each item that meets its
        condition, again and again until none does; True when one ended the game."""
        loop_body: list[ast.stmt] = [E.assign(E.store("f"), E.const(False))]
        for proc in self.a.triggers:
            d = proc.trigger
            assert d is not None
            self.proc = proc
            var = self.var_name(self.a.candidate[id(d)])
            domain, where = self.domain(d.domain), self.expr(d.where)
            entry = self.entries[(proc.kind, proc.name)]
            rest = self.nlocals[(proc.kind, proc.name)] - 1
            frame = E.list_([E.const(entry), E.binop(
                E.list_([E.name(var)]), "+",
                E.binop(E.list_([E.const(None)]), "*", E.const(rest)))])
            loop_body.append(E.for_(E.store(var), E.call("list", domain), [
                E.if_(where, [
                    *self.count_work(E.const(1), d.span),
                    E.if_(E.compare(E.call(f"S{entry}", E.name("st"), frame), "==",
                                    E.const(OVER)), [E.return_(E.const(True))]),
                    E.assign(E.store("f"), E.const(True))])]))
        self.proc = None
        body = [E.assign(E.store("f"), E.const(True)),
                E.while_(E.name("f"), loop_body), E.return_(E.const(False))]
        return E.Function("TRIGGERS", ["st"], body)

    def target_code(self, t: A.Target) -> ast.expr:
        ref = self.a.binding[id(t)]
        if isinstance(ref, VarRef):
            return self.var(ref.var)
        if isinstance(ref, CounterRef) and t.of is None:
            return E.sub(E.name("V"), self.layout.counter[t.name])
        assert t.of is not None
        return self.of_code(ref, t.name, t.of)

    def assign(self, t: A.Target, value: ast.expr, pos: list, span: Span) -> None:
        ref = self.a.binding[id(t)]
        if isinstance(ref, CounterRef):
            info = self.a.counters[t.name]
            if info.low is not None:
                value = E.call("_bounded", value, E.const(info.low), E.const(info.high),
                               E.const(t.name), E.const(self.sid(span)))
        target = self.target_code(t)
        assert isinstance(target, ast.Subscript)
        target.ctx = ast.Store()
        self.emit(pos, E.assign(target, value))

    def expect(self, s: A.Expect, pos: list) -> None:
        self.expect_part(s.cond, s.span, pos)

    def expect_part(self, c: A.Expr, span: Span, pos: list) -> None:
        """The check of an expectation, or of one side of an `and` in it: each side is
        checked in turn (as `and` evaluates them), so a failure names and underlines the
        side that is false."""
        if isinstance(c, A.Binary) and c.op == "and":
            self.expect_part(c.left, c.left.span, pos)
            self.expect_part(c.right, c.right.span, pos)
            return
        sid = E.const(self.sid(span))
        text = self.text_of(c.span)
        if isinstance(c, A.Binary) and c.op in ("==", "!=", "<", ">", "<=", ">="):
            lt, rt = self.a.type_of(c.left), self.a.type_of(c.right)
            left, right = self.fresh(), self.fresh()
            self.emit(pos, E.assign(E.store(left), self.expr(c.left)),
                      E.assign(E.store(right), self.expr(c.right)))
            detail = E.binop(E.binop(E.binop(
                E.const(text + ": the left side is "), "+",
                E.call("_show", E.name(left), self.const(lt))), "+",
                E.const(", the right side ")), "+", E.call("_show", E.name(right), self.const(rt)))
            self.emit(pos, E.if_(E.not_(E.compare(E.name(left), c.op, E.name(right))), [
                E.expr_stmt(E.call("_expect", E.const(False), sid, detail))]))
        else:
            self.emit(pos, E.expr_stmt(E.call("_expect", self.expr(c), sid,
                                              E.const(text + " is false"))))

    def suspends(self, s: Any) -> bool:
        return suspends(s, self.calls_to.plain)

    def call_rule(self, s: A.CallRule, pos: list) -> list:
        key = ("rule", s.name)
        locals_ = E.list_(self.expr(x) for x in s.args)
        self.padding.append((locals_, key))
        if s.name in self.calls_to.plain:
            told = self.calls_to.told_only.get(s.name, ())
            locals_.elts = [when_told(x) if k in told else x for k, x in enumerate(locals_.elts)]
            self.emit(pos, *plain_call(self.entries[key], locals_, self.fresh()))
            return pos
        cont = self.new_block(s.span)
        if s.name in self.calls_to.chance:
            frame = E.copy_tree(locals_)
            self.padding.append((frame, key))
            self.emit(pos, chance_call(self.entries[key], frame, (self.fresh(), self.fresh()),
                                       lambda n: self.count_work(n, s.span),
                                       self.jump_to(cont)))
        self.flow.call_cont[id(s)] = self.block_number(cont)  # where a point's game goes on
        self.emit(pos, E.expr_stmt(E.method(E.attr(E.name("st"), "stack"), "append",
                                            E.list_([E.const(self.entries[key]), locals_]))))
        self.pause(pos, cont, CALL)
        return cont

    def if_chain(self, branches: list, otherwise: list | None, pos: list, split: bool,
                 span: Span, marks: list[tuple[str, Span, str]]) -> list:
        """`marks`: the coverage point of each branch, then of `otherwise`."""
        chain: list[ast.If] = []
        for cond, _ in branches:
            node = E.if_(cond)
            if chain:
                chain[-1].orelse = [node]
            else:
                self.emit(pos, node)
            chain.append(node)
        if not split:
            for k, (node, (_, body)) in enumerate(zip(chain, branches)):
                self.point(node.body, *marks[k])
                self.stmts(body, node.body)
            if otherwise:
                self.point(chain[-1].orelse, *marks[-1])
                self.stmts(otherwise, chain[-1].orelse)
            return pos
        join = self.new_block(span)
        for k, (node, (_, body)) in enumerate(zip(chain, branches)):
            self.point(node.body, *marks[k])
            end = self.stmts(body, node.body)
            self.goto(end, join)
        if otherwise:
            self.point(chain[-1].orelse, *marks[-1])
            end = self.stmts(otherwise, chain[-1].orelse)
            self.goto(end, join)
        self.goto(pos, join)
        return join

    def loop_body(self, body: list, pos: list, kind: tuple) -> list:
        self.loops.append(kind)
        end = self.stmts(body, pos)
        self.loops.pop()
        return end

    def native_loop(self, s: Any) -> bool:
        """A loop without a pause inside runs as a Python loop, unless it and the loops in
        it are nested deeper than Python allows: then the whole nest runs as blocks, like a
        loop that pauses (a loop of blocks inside a Python loop would lose its place)."""
        return not self.suspends(s) and self.native + loop_depth(s) <= NATIVE_LOOPS

    def native_body(self, body: list, pos: list) -> None:
        self.native += 1
        self.loop_body(body, pos, ("native",))
        self.native -= 1

    def tick(self, pos: list, span: Span, weight: int = 1) -> None:
        """One turn of a loop that cannot count its turns in advance."""
        self.emit(pos, *self.count_work(E.const(1), span, weight))

    def for_each(self, s: A.ForEach, pos: list) -> list:
        var = self.a.var_of[id(s)]
        if self.native_loop(s):
            items = self.fresh()
            # the items are counted as work before the loop: a huge range stops at once
            weight = self.body_weight(s.body) + self.calls(s.where)
            self.emit(pos, E.assign(E.store(items), self.domain_copy(s.domain)))
            if self.small(s.domain) is None:
                self.emit(pos, *self.count_work(E.call("len", E.name(items)), s.span, weight))
            loop = E.for_(self.local_store(self.slot(var)), E.name(items))
            self.emit(pos, loop)
            if s.where is not None:
                self.emit(loop.body, E.if_(E.not_(self.expr(s.where)), [ast.Continue()]))
            self.native_body(s.body, loop.body)
            return pos
        lst = self.new_slot(list_of(element(self.a.type_of(s.domain)) or ANY))
        idx = self.new_slot(INT)
        head, exit_ = self.new_block(s.span), self.new_block(s.span)
        self.emit(pos, E.assign(self.local_store(lst), E.call("list", self.domain(s.domain))),
                  E.assign(self.local_store(idx), E.const(0)))
        self.goto(pos, head)
        self.emit(head, E.if_(E.compare(self.local(idx), ">=", E.call("len", self.local(lst))),
                              [self.jump_to(exit_)]),
                  E.assign(self.local_store(self.slot(var)),
                           E.sub(self.local(lst), self.local(idx))),
                  E.aug(self.local_store(idx), "+", E.const(1)))
        self.tick(head, s.span, self.body_weight(s.body) + self.calls(s.where))
        if s.where is not None:
            self.emit(head, E.if_(E.not_(self.expr(s.where)),
                                  [self.jump_to(head)]))
        end = self.loop_body(s.body, head, ("flat", exit_))
        self.goto(end, head)
        return exit_

    def domain_copy(self, e: A.Expr) -> ast.expr:
        """A loop's items, taken before the loop runs: the body may move them."""
        d = self.domain(e)
        if isinstance(d, ast.Subscript) and isinstance(d.value, ast.Name) and d.value.id == "Z":
            return E.call("list", d)
        return d

    def repeat(self, s: A.Repeat, pos: list) -> list:
        if self.native_loop(s):
            if s.count is not None:
                count = self.fresh()
                self.emit(pos, E.assign(E.store(count), E.call("range", self.expr(s.count))),
                          *self.count_work(E.call("len", E.name(count)), s.span,
                                           self.body_weight(s.body)))
                loop: ast.stmt = E.for_(E.store(self.fresh()), E.name(count))
            else:
                loop = E.while_(E.const(True))
                self.tick(loop.body, s.span, self.body_weight(s.body))  # type: ignore[attr-defined]
            self.emit(pos, loop)
            self.native_body(s.body, loop.body)  # type: ignore[attr-defined]
            return pos
        head, exit_ = self.new_block(s.span), self.new_block(s.span)
        if s.count is not None:
            left = self.new_slot(INT)
            self.emit(pos, E.assign(self.local_store(left), self.expr(s.count)))
            self.emit(head, E.if_(E.compare(self.local(left), "<=", E.const(0)),
                                  [self.jump_to(exit_)]),
                      E.aug(self.local_store(left), "-", E.const(1)))
        self.tick(head, s.span, self.body_weight(s.body))
        self.goto(pos, head)
        end = self.loop_body(s.body, head, ("flat", exit_))
        self.goto(end, head)
        return exit_

    def while_loop(self, s: A.While, pos: list) -> list:
        if self.native_loop(s):
            loop = E.while_(self.expr(s.cond))
            self.emit(pos, loop)
            self.tick(loop.body, s.span, self.body_weight(s.body) + self.calls(s.cond))
            self.native_body(s.body, loop.body)
            return pos
        head, exit_ = self.new_block(s.span), self.new_block(s.span)
        self.goto(pos, head)
        test = guarded_test(self, s.cond, s.body) or self.expr(s.cond)
        self.emit(head, E.if_(E.not_(test), [self.jump_to(exit_)]))
        self.tick(head, s.span, self.body_weight(s.body) + self.calls(s.cond))
        end = self.loop_body(s.body, head, ("flat", exit_))
        self.goto(end, head)
        return exit_

    def turns_loop(self, s: A.Turns, pos: list) -> list:
        who, taken = self.new_slot(PLAYER), self.new_slot(INT)
        first_block = len(self.blocks)
        head, nxt, exit_ = (self.new_block(s.span), self.new_block(s.span),
                            self.new_block(s.span))
        # the first player is never none (an error at the turns, if it is), nor the players
        # after it: inside the turns, `current` is always a player (`current_is_set`)
        start = self.need(self.expr(s.start), s.start.span, "the first player") \
            if s.start is not None else E.const(0)
        self.emit(pos, E.assign(self.local_store(who), start),
                  E.assign(self.local_store(taken), E.const(0)))
        step = flow.turn_step(self, s, pos)  # 1 seat on, clockwise
        if s.direction is None:
            # the seat of the game's first turn, for figures by turn order
            # (`Game.first_player`); turns that may go anticlockwise are left out
            self.emit(pos, E.if_(E.compare(E.attr(E.name("st"), "first"), "is",
                                           E.const(None)),
                                 [E.assign(E.attr_store(E.name("st"), "first"),
                                           self.local(who))]))
        self.goto(pos, head)
        self.emit(head, E.assign(E.sub_store(E.name("V"), 0), self.local(who)))
        self.point(head, "turn", s.span)
        flow.round_start(self, s, head, who, taken, step)
        self.turns_next.append(nxt)
        self.turns_who.append((who, step))
        self.loops.append(("flat", exit_))
        native, self.native = self.native, 0
        end = self.stmts(s.body, head)
        self.native = native
        self.loops.pop()
        self.turns_next.pop()
        self.turns_who.pop()
        # the blocks of the turns, and of what they hold: a game resumed in one of them
        # has a current player (a save is held to it: saves.py)
        self.turns_blocks.update(range(first_block, len(self.blocks)))
        flow.round_end(self, s)
        for at in (end, nxt):
            if s.rounds is not None or s.at_once:
                self.emit(at, E.aug(self.local_store(taken), "+", E.const(1)))
            if s.rounds is not None:
                self.emit(at, E.if_(E.compare(self.local(taken), ">=", E.binop(
                    self.expr(s.rounds), "*", E.attr(E.name("st"), "np"))),
                    [self.jump_to(exit_)]))
            self.emit(at, E.assign(self.local_store(who), E.binop(
                E.binop(self.local(who), "+", step()), "%", E.attr(E.name("st"), "np"))))
            self.goto(at, head)
        return exit_

    # ---- decisions and chance ----------------------------------------------------------

    def decider(self, by: A.Expr | None, span: Span) -> ast.expr:
        if by is not None:
            return self.need(self.expr(by), span, "who chooses")
        seat = flow.default_decider(self)
        if seat is not None:
            return seat  # in a secret step: its seat
        return self.need(E.sub(E.name("V"), 0), span, "current")  # see current_is_set

    def current_is_set(self) -> bool:
        """Inside the turns of a block of rules, `current` is always a player (the turns
        set it before their first statement, and it is never none: see `turns`); not in a
        definition, which may be called from anywhere, nor outside the turns."""
        return CURRENT_KNOWN and bool(self.turns_next) and self.proc is not None and \
            self.proc.kind != "define"

    def label_function(self, label: A.StrLit | None, var: Var | None) -> str | None:
        if label is None:
            return None
        fname = _Generated(f"LABEL{self.labels}")
        self.labels += 1
        vname = self.var_name(var) if var is not None else "k"
        body: list[ast.stmt] = [E.return_(self.text(label))]
        params = ["st", "L", vname]
        free = E.loaded_names(body) - E.bound_names(body) - self.module_names() - set(params)
        # a label reads the state (its aliases come from st), the frame and its candidate
        assert all(_alias(n) for n in free), free
        self.define_function(str(fname), params, body)
        return fname

    def options_function(self, options: ast.expr) -> str | None:
        """A function (st, L) -> the options of a choice, as its block works them out, or
        None when they read more than the state and the frame."""
        fname = _Generated(f"OPTIONS{len(self.sites)}")
        body: list[ast.stmt] = [E.return_(options)]
        free = E.loaded_names(body) - E.bound_names(body) - self.module_names() - {"st", "L"}
        if not all(_alias(n) for n in free):
            return None
        self.define_function(str(fname), ["st", "L"], body)
        return fname

    def suspend_for(self, site: Site, options: ast.expr, player: ast.expr, pos: list,
                    span: Span, check_empty: bool = True) -> list:
        site.prompt = self.prompt_of(span)
        site.secret = site.secret or self.flow.secret  # so is every decision of a secret step
        self.sites.append(site)
        n = len(self.sites) - 1
        resume = self.new_block(span)
        self.after_change(pos)  # 'as soon as' blocks settle before anyone decides
        if check_empty and not (isinstance(options, ast.Name) and options.id.startswith("K")):
            opts = self.fresh()
            self.emit(pos, E.assign(E.store(opts), options),
                      E.if_(E.not_(E.name(opts)),
                            [E.raise_(E.call("_none_left", E.const(self.sid(span))))]))
            options = E.name(opts)
        self.emit(pos, E.assign(E.attr_store(E.name("st"), "pending"),
                                E.tuple_([E.const(n), player, options])))
        self.pause(pos, resume)
        site.resume = self.block_number(resume)
        return resume

    def choice_list(self, s: A.Choose) -> ast.expr:
        """The items a choice offers (before duplicates are dropped)."""
        cname = self.var_name(self.a.candidate[id(s)])
        domain = self.domain(s.domain)
        if s.where is None:
            return E.call("list", domain)
        return E.listcomp(E.name(cname), cname, domain, self.expr(s.where))

    def choose(self, s: A.Choose, pos: list) -> list:
        var = self.a.var_of[id(s)]
        cand = self.a.candidate[id(s)]
        known = self.known_options.get(id(s))  # worked out by the test before (guards.py)
        options = E.name(known) if known is not None else self.choice_list(s)
        options, again = self.offered(s, options), self.offered(s, self.choice_list(s))
        dt = self.a.type_of(s.domain)
        site = Site("choose", self.proc_name, s.span, element(dt) or ANY, self.slot(var),
                    label=self.label_function(s.label, cand),
                    done_label=self.label_function(s.done_label, cand), secret=s.secret,
                    options=self.options_function(again), name=s.var)
        site.type = var.type
        resume = self.suspend_for(site, options, self.decider(s.by, s.span), pos, s.span,
                                  check_empty=not s.optional)
        return self.stmts(s.body, resume) if s.body is not None else resume

    def offered(self, s: A.Choose, options: ast.expr) -> ast.expr:
        """The options a choice offers, from the list of its items: each once, and `done`
        last for `choose optional`."""
        dt = self.a.type_of(s.domain)
        if not (isinstance(dt, tuple) and dt[0] == "board") and not (
                isinstance(s.domain, A.Binary) and s.domain.op == "..") and \
                not distinct(self.a, s.domain):
            options = E.call("_uniq", options)
        if s.optional:
            options = E.binop(options, "+", E.list_([E.const(None)]))  # None: 'done'
        return options

    def choose_any(self, s: A.ChooseAny, pos: list) -> list:
        var = self.a.var_of[id(s)]
        cand = self.a.candidate[id(s)]
        domain = self.domain(s.domain)
        fixed = self.fixed_list(domain)
        if fixed is not None and len(fixed) <= MAX_SUBSET_ITEMS:
            # a fixed set (the dice of a set, say): its subsets are worked out once
            items = list(dict.fromkeys(fixed))
            options = self.const([[x for i, x in enumerate(items) if mask >> i & 1]
                                  for mask in range(1 << len(items))])
        else:
            options = E.call("_subsets", E.call("_uniq", domain), E.const(self.sid(s.span)))
        site = Site("any", self.proc_name, s.span, var.type, self.slot(var),
                    label=self.label_function(s.label, cand), name=s.var)
        resume = self.suspend_for(site, options, self.decider(s.by, s.span), pos, s.span)
        return self.stmts(s.body, resume) if s.body is not None else resume

    def fixed_list(self, e: ast.expr) -> list | None:
        if isinstance(e, ast.Name) and e.id in self.consts and \
                isinstance(self.consts[e.id], list):
            return self.consts[e.id]
        return None

    def choose_menu(self, s: A.ChooseMenu, pos: list) -> list:
        slot = self.new_slot(INT)
        if all(o.cond is None for o in s.options):
            options = self.const(list(range(len(s.options))))
        else:
            pairs = E.tuple_(E.tuple_([E.const(k), self.expr(o.cond) if o.cond is not None
                                       else E.const(True)]) for k, o in enumerate(s.options))
            options = ast.ListComp(elt=E.name("k"), generators=[ast.comprehension(
                target=E.tuple_([E.store("k"), E.store("y")]), iter=pairs,
                ifs=[E.name("y")], is_async=0)])
            options.generators[0].target.ctx = ast.Store()  # type: ignore[attr-defined]
        site = Site("menu", self.proc_name, s.span, "int", slot,
                    menu=[(o.id, self.label_function(o.label, None) if o.label else o.id)
                          for o in s.options])
        resume = self.suspend_for(site, options, self.decider(s.by, s.span), pos, s.span)
        branches = [(E.compare(self.local(slot), "==", E.const(k)), o.body)
                    for k, o in enumerate(s.options)]
        split = any(self.suspends(x) for o in s.options for x in o.body)
        marks = [("option", o.span, o.id) for o in s.options]
        return self.if_chain(branches, None, resume, split, s.span, marks)

    def let_roll(self, s: A.LetRoll, pos: list) -> list:
        ref = self.a.binding.get(id(s.die))
        if isinstance(ref, DieKindRef):
            die = self.a.dies[ref.name]
            faces: ast.expr = self.const(die.faces)
            count: ast.expr = E.const(len(die.faces))
            face_type = die.face_type
        else:  # a component whose kind lists each one's faces
            t = self.a.type_of(s.die)
            assert isinstance(t, tuple) and t[0] == "comp", t
            kind = self.a.kinds[t[1]]
            held = self.fresh()
            self.emit(pos, E.assign(E.store(held), E.sub(
                self.const(kind.columns["faces"]),
                self.need(self.expr(s.die), s.die.span, "the die"))))
            faces, count = E.name(held), E.call("len", E.name(held))
            face_type = element(kind.types["faces"]) or ANY
        slot = self.slot(self.a.var_of[id(s)])
        site = Site("roll", self.proc_name, s.span, face_type, slot)
        site.prompt = self.prompt_of(s.span)
        self.sites.append(site)
        n = len(self.sites) - 1
        resume = self.new_block(s.span)
        site.resume = self.block_number(resume)
        st = E.name("st")
        roll = E.sub(faces, E.method(st, "rand", count))
        self.emit(pos, E.if_(E.attr(st, "auto"), [E.assign(self.local_store(slot), roll),
                                                  self.jump_to(resume)]),
                  E.assign(E.attr_store(st, "pending"),
                           E.tuple_([E.const(n), E.const(-1), E.copy_tree(faces)])))
        self.pause(pos, resume)
        return resume

    def roll(self, s: A.Roll, pos: list) -> list:
        t = self.a.type_of(s.dice)
        die_t = t if t[0] == "die" else element(t)
        assert isinstance(die_t, tuple)  # the checker saw to it
        dice = self.a.dice[die_t[1]]
        faces_list = self.a.dies[dice.die].faces
        faces, nf = self.const(faces_list), len(faces_list)
        base = self.layout.dice[die_t[1]]
        lst, idx = self.new_slot(list_of(die_t)), self.new_slot(INT)
        value = self.expr(s.dice)
        self.emit(pos, E.assign(self.local_store(lst),
                                E.list_([value]) if t[0] == "die" else value),
                  E.assign(self.local_store(idx), E.const(0)))
        head, res, exit_ = (self.new_block(s.span), self.new_block(s.span),
                            self.new_block(s.span))
        self.goto(pos, head)
        st = E.name("st")
        self.emit(head, E.if_(E.compare(self.local(idx), ">=", E.call("len", self.local(lst))),
                              [self.jump_to(exit_)]),
                  E.if_(E.attr(st, "auto"), [
                      E.for_(E.store("d"), self.local(lst), [E.assign(
                          E.sub_store(E.name("V"), E.binop(E.const(base), "+", E.name("d"))),
                          E.sub(faces, E.method(st, "rand", E.const(nf))))]),
                      self.jump_to(exit_)]))
        site = Site("die", self.proc_name, s.span, self.a.dies[dice.die].face_type,
                    hidden=[lst, idx], base=base, resume=self.block_number(res))
        site.prompt = self.prompt_of(s.span)
        self.sites.append(site)
        self.emit(head, E.assign(E.attr_store(st, "pending"), E.tuple_(
            [E.const(len(self.sites) - 1), E.const(-1), E.copy_tree(faces)])))
        self.pause(head, res)
        self.emit(res, E.aug(self.local_store(idx), "+", E.const(1)))
        self.goto(res, head)
        return exit_

    # ---- conditions --------------------------------------------------------------------

    def condition(self, c: A.Expr, pos: list) -> ast.expr:
        """The test of an `if`. An `any`/`all` test becomes a loop written into the block
        itself (no function call), leaving its answer in a flag."""
        if not (isinstance(c, A.Quantifier) and c.kind in ("any", "all") and c.where is not None
                and self.empty_cells_test(c) is None):
            return self.expr(c)
        flag = self.fresh()
        var = self.var_name(self.a.candidate[id(c)])
        items = self.fresh()
        outer_any = c.kind == "any"
        inner = c.where
        nested = isinstance(inner, A.Quantifier) and inner.kind in ("any", "all") \
            and inner.where is not None
        domain = self.domain(c.domain)
        counted = self.small(c.domain) is None
        parts = None if nested else E.plain_filter(domain)  # see `over_filter`
        self.emit(pos, E.assign(E.store(flag), E.const(not outer_any)))
        if parts is None:
            self.emit(pos, E.assign(E.store(items), domain))
            if counted:
                self.emit(pos, *self.count_work(E.call("len", E.name(items)), c.span,
                                                self.weight(c.where)))
        loop = E.for_(E.store(var), E.name(items))
        if nested:
            assert isinstance(inner, A.Quantifier) and inner.where is not None
            ivar = self.var_name(self.a.candidate[id(inner)])
            inner_items = self.fresh()
            inner_loop = E.for_(E.store(ivar), E.name(inner_items))
            count = [] if self.small(inner.domain) is not None else self.count_work(
                E.call("len", E.name(inner_items)), inner.span, self.weight(inner.where))
            loop.body += [E.assign(E.store(inner_items), self.domain(inner.domain)), *count,
                          inner_loop]
            test = self.expr(inner.where)
            inner_any = inner.kind == "any"
            inner_loop.body.append(E.if_(test if inner_any else E.not_(test), [ast.Break()]))
            if outer_any != inner_any:
                # the inner loop running to its end decides the outer one
                inner_loop.orelse = [E.assign(E.store(flag), E.const(outer_any)), ast.Break()]
                loop.orelse = []
            else:
                # the inner loop stopping early decides the outer one
                inner_loop.orelse = [ast.Continue()]
                loop.body += [E.assign(E.store(flag), E.const(outer_any)), ast.Break()]
        else:
            test = self.expr(inner)
            hit = test if outer_any else E.not_(test)
            loop.body.append(E.if_(hit, [E.assign(E.store(flag), E.const(outer_any)),
                                         ast.Break()]))
            if parts is not None:
                self.over_filter(loop, parts, self.count_work(
                    E.const(1), c.span, self.weight(c.where)) if counted else [])
        self.emit(pos, loop)
        return E.name(flag)


def _through(start: Span, body: list) -> Span:
    """From `start` to the end of a block: the place of a branch, its body included."""
    end = body[-1].span
    return start.model_copy(update={"end_line": end.end_line, "end_column": end.end_column})


def _alias(n: str) -> bool:
    """V, Z, B0, B1, ...: the state's lists, which a function looks up from st itself."""
    return n in ("V", "Z") or (n[:1] == "B" and n[1:].isdigit())


class _Generated(str):
    """The name of a function in the generated module (resolved after it runs)."""


def _code_of(analysis: Analysis, sources: dict[str, str], coverage: bool) -> str:
    """The text of the module `compile_program` runs for these arguments."""
    return ast.unparse(Compiler(analysis, sources, coverage).module()[0])


def compile_program(analysis: Analysis, sources: dict[str, str],
                    coverage: bool = False, backend: Backend = PLAIN) -> Program:
    """Compile a checked rule file (no errors) into a `Program`; `sources` holds the text
    of each file its declarations come from. With `coverage`, the program counts in
    `Program.hits` how often each of its `Program.points` ran (for `rulesdsl validate`);
    without it, the generated code has no trace of the counting. `backend` runs the
    generated module (the plain path, or the compiled one of native.py)."""
    return Compiler(analysis, sources, coverage, backend).compile()
