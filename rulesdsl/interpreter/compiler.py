"""Compile a checked rule file into Python code: blocks, decision sites and tables.

Stage: compile. Each procedure (setup, play, a rule, an example) becomes a list of
"blocks": generated Python functions `_bN(st, fr)` that run straight-line rule code and
return the next block number (or a code from `runtime`). A block ends where the rules may
pause (a decision, a chance step, a call): the position in the rules is then just the block
number and the locals in the frame, so the state stays plain data. Statements without a
pause inside compile to native Python `if` and `for`. Expressions compile to Python
expressions over the state's lists. Only the AST is turned into code: names are mangled,
literals are `repr`'d, so a rule file cannot reach the host.
"""

from __future__ import annotations

import builtins
from dataclasses import dataclass, field
from typing import Any

from .. import ast as A
from ..check.analysis import Analysis, DefineInstance, Proc
from ..check.types import ANY, INT, Type, element
from ..diagnostics import Span
from .display import Display
from .expressions import ExpressionCompiler, boards_used
from .runtime import CALL, MAX_SUBSET_ITEMS, OVER, REPLAY, RET, SUSPEND, Env, make_helpers

INLINE_LINES = 24   # blocks this short are copied into the blocks that jump to them
INLINE_DEPTH = 2
PAUSING = (A.Choose, A.ChooseAny, A.ChooseMenu, A.LetRoll, A.Roll, A.CallRule, A.Turns,
           A.Replay)


class Generated(str):
    """The name of a function in the generated module (resolved after it runs)."""


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
    resume: int = -1     # the block the deciding frame waits at (a saved game must agree)


@dataclass(frozen=True)
class Point:
    """A place coverage counts (compiled with `coverage=True`): the start of a rule
    ("rule", also "setup" and "play"), of a branch of an `if` ("branch"), of a menu
    option ("option"), of an 'as soon as' block ("trigger"), of each turn of a `turns`
    loop ("turn"), and a statement that ends the game ("end")."""

    kind: str
    span: Span
    proc: str
    name: str = ""   # a rule's or an option's name


@dataclass
class Program:
    """A compiled rule file: the blocks, sites and tables the runtime needs."""

    analysis: Analysis
    blocks: list[Any]
    sites: list[Site]
    slots: list[int]  # per site: the local a chosen value goes to (-1: a die's face)
    entries: dict[tuple[str, str], int]
    nlocals: dict[tuple[str, str], int]
    spans: list[Span]
    span_procs: list[str]  # the name of the block of rules each span lies in
    block_sid: list[int]
    rank: Any
    display: Display
    code: str  # the generated Python, for reading and debugging
    init_counters: list[Any]
    score: Any = None  # st -> each player's first rank key, when the rank line has one
    block_procs: list[tuple[str, str]] = field(default_factory=list)  # (kind, name) a block is of
    points: list[Point] = field(default_factory=list)  # coverage: what each hit counts
    hits: list[int] = field(default_factory=list)  # coverage: how often each point ran


def suspends(s: Any) -> bool:
    """Whether a statement may pause the game (so it must be split into blocks)."""
    if isinstance(s, PAUSING):
        return True
    for body in _bodies(s):
        if any(suspends(x) for x in body):
            return True
    return False


def _bodies(s: Any) -> list[list]:
    if isinstance(s, A.If):
        out = [b for _, b in s.branches]
        return out + ([s.otherwise] if s.otherwise else [])
    if isinstance(s, (A.ForEach, A.Repeat, A.While, A.Turns)):
        return [s.body]
    return []


class Compiler(ExpressionCompiler):
    """Generates the Python source of one program, then executes it once to get the
    block functions."""

    def __init__(self, analysis: Analysis, sources: dict[str, str], coverage: bool = False):
        self.a = analysis
        self.coverage = coverage
        self.points: list[Point] = []
        self.block_procs: list[tuple[str, str]] = []
        self.source_lines = {path: text.splitlines() for path, text in sources.items()}
        self.display = Display(analysis)
        self.blocks: list[list[str]] = []
        self.block_sid: list[int] = []
        self.consts: dict[str, Any] = {}
        self.const_ids: dict[str, str] = {}
        self.spans: list[Span] = []
        self.proc_of_span: list[str] = []
        self.sites: list[Site] = []
        self.labels: list[str] = []
        self.entries: dict[tuple[str, str], int] = {}
        self.nlocals: dict[tuple[str, str], int] = {}
        self.proc: Proc | None = None
        self.loops: list[tuple] = []
        self.helpers: list[str] = []
        self.define_code: dict[tuple[str, int], tuple[list[str], str]] = {}
        self.pyvars: list[str] = []
        self.turns: list[int] = []
        self.tmp = 0

    # ---- tables and emission -----------------------------------------------------------

    def new_block(self, span: Span) -> int:
        self.blocks.append([])
        self.block_sid.append(self.sid(span))
        self.block_procs.append((self.proc.kind, self.proc.name) if self.proc else ("", ""))
        return len(self.blocks) - 1

    def point(self, pos: tuple[int, int], kind: str, span: Span, name: str = "") -> None:
        """With coverage on, count each run of this place (examples are not counted)."""
        if self.coverage and (self.proc is None or self.proc.kind != "example"):
            self.line(pos, f"HITS[{len(self.points)}] += 1")
            self.points.append(Point(kind, span, self.proc_name, name))

    def line(self, pos: tuple[int, int], text: str) -> None:
        self.blocks[pos[0]].append("    " * pos[1] + text)

    @property
    def proc_name(self) -> str:
        return self.proc.name if self.proc is not None else ""

    def text_of(self, span: Span) -> str:
        lines = self.source_lines.get(span.file, [])
        if span.line == span.end_line and 1 <= span.line <= len(lines):
            return lines[span.line - 1][span.column - 1:span.end_column - 1]
        return "the condition"

    # ---- program -----------------------------------------------------------------------

    def compile(self) -> Program:
        for proc in self.a.procs:
            key = (proc.kind, proc.name)
            self.entries[key] = self.new_block(proc.span)
            self.block_procs[-1] = key
            self.nlocals[key] = proc.nlocals
        defines = [self.define(inst) for inst in self.a.define_instances]
        for proc in self.a.procs:
            self.proc = proc
            pos = (self.entries[(proc.kind, proc.name)], 1)
            self.point(pos, proc.kind, proc.span, proc.name)
            pos = self.stmts(proc.body, pos)
            if proc.kind == "play":
                self.line(pos, "st.result = RANK(st)")
                self.line(pos, f"return {OVER}")
            else:
                self.line(pos, f"return {RET}")
        self.proc = None
        triggers = self.triggers_function() if self.a.triggers else ""
        self.inline_jumps()
        src = ["# generated from " + self.a.file.path]
        src += defines
        src.append(self.rank_function())
        for n, body in enumerate(self.blocks):
            src.append(f"def _b{n}(st, fr):")
            src.append("    " + _prologue(body, "L = fr[1]"))
            src.extend(body or ["    pass"])
        src.extend(self.helpers)
        src.append("BLOCKS = [" + ", ".join(f"_b{n}" for n in range(len(self.blocks))) + "]")
        if triggers:
            src.append(triggers)
        src.extend(self.labels)
        code = "\n".join(src) + "\n"
        env = Env(self.spans, self.proc_of_span)
        namespace: dict[str, Any] = {"__builtins__": _SAFE_BUILTINS}
        namespace.update(make_helpers(env))
        namespace["_show"] = self.display.show
        namespace.update(self.consts)
        hits = [0] * len(self.points)
        namespace["HITS"] = hits
        exec(compile(code, f"<rules {self.a.file.path}>", "exec"), namespace)  # noqa: S102
        for site in self.sites:
            if isinstance(site.label, str):
                site.label = namespace[site.label]
            if isinstance(site.done_label, str):
                site.done_label = namespace[site.done_label]
            site.menu = [(oid, namespace[label] if isinstance(label, Generated) else label)
                         for oid, label in site.menu]
        init = self.initial_counters()
        return Program(self.a, namespace["BLOCKS"], self.sites,
                       [site.slot for site in self.sites], self.entries, self.nlocals,
                       self.spans, self.proc_of_span, self.block_sid, namespace["RANK"],
                       self.display,
                       code, init, namespace.get("SCORE"), self.block_procs, self.points, hits)

    def inline_jumps(self) -> None:
        """Replace `return N` by the code of block N where that block is short: one Python
        call less per jump. Block N stays, for the other places that jump or resume there."""
        originals = [list(body) for body in self.blocks]

        def expand(body: list[str], depth: int) -> list[str]:
            out: list[str] = []
            for text in body:
                stripped = text.lstrip()
                target = stripped[7:] if stripped.startswith("return ") else ""
                if target.isdigit() and depth < INLINE_DEPTH:
                    code = originals[int(target)]
                    if len(code) <= INLINE_LINES:
                        pad = text[:len(text) - len(stripped)]
                        out.extend(pad[4:] + line for line in expand(code, depth + 1))
                        continue
                out.append(text)
            return out

        self.blocks = [expand(body, 0) for body in originals]

    def initial_counters(self) -> list[Any]:
        v: list[Any] = [None] * self.a.nslots
        for info in self.a.counters.values():
            for k in range(info.size):
                v[info.base + k] = info.init
        for dice in self.a.dice.values():
            faces = self.a.dies[dice.die].faces
            for k in range(dice.count):
                v[dice.base + k] = faces[0]
        return v

    def define(self, inst: DefineInstance) -> str:
        params = "".join(f", a_{p}" for p in inst.params)
        self.pyvars = [f"a_{p}" for p in inst.params]
        body = self.expr(inst.body)
        self.pyvars = []
        self.define_code[(inst.name, inst.number)] = (inst.params, body)
        return (f"def D_{inst.name}_{inst.number}(st{params}):\n"
                f"    {_prologue([body], 'L = None')}\n    return {body}")

    def rank_function(self) -> str:
        rank = self.a.rank
        if rank is None:
            score = self.a.counters.get("score")
            if score is not None and [dim[0] for dim in score.dims] == ["player"]:
                key = f"(V[{score.base} + p_p],)"
            else:
                key = "(0,)"
            var = "p_p"
        else:
            var = f"p_{rank.var}"
            self.pyvars = [var]
            key = "(" + "".join(f"{self.expr(k)}, " for k in rank.keys) + ")"
            first = self.expr(rank.keys[0])
            self.pyvars = []
        source = (f"def RANK(st):\n    {_prologue([key, 'V B'], 'L = None')}\n"
                  f"    keys = [{key} for {var} in range(st.np)]\n"
                  f"    return [1 + sum(1 for o in keys if o > k) for k in keys]")
        if rank is not None and self.a.type_of(rank.keys[0]) == INT:
            # a game ranked by a number first (a score kept by definitions, say) reports it
            source += (f"\ndef SCORE(st):\n    {_prologue([first, 'V B'], 'L = None')}\n"
                       f"    return [{first} for {var} in range(st.np)]")
        return source

    # ---- statements --------------------------------------------------------------------

    def stmts(self, body: list, pos: tuple[int, int]) -> tuple[int, int]:
        for s in body:
            pos = self.stmt(s, pos)
        return pos

    def goto(self, pos: tuple[int, int], block: int) -> None:
        self.line(pos, f"return {block}")

    def pause(self, pos: tuple[int, int], resume: int, code: int = SUSPEND) -> None:
        self.line(pos, f"fr[0] = {resume}")
        self.line(pos, f"return {code}")

    def stmt(self, s: Any, pos: tuple[int, int]) -> tuple[int, int]:
        a = self.a
        if isinstance(s, A.Let):
            self.line(pos, f"L[{a.slot[id(s)]}] = {self.expr(s.value)}")
        elif isinstance(s, A.Set):
            self.assign(s.target, self.expr(s.value), pos, s.span)
            if a.binding[id(s.target)][0] != "local":
                self.after_change(pos)
        elif isinstance(s, A.Add):
            current = self.target_code(s.target)
            sign = "-" if s.negate else "+"
            self.assign(s.target, f"{current} {sign} ({self.expr(s.amount)})", pos, s.span)
            if a.binding[id(s.target)][0] != "local":
                self.after_change(pos)
        elif isinstance(s, A.Place):
            self.place(s, pos)
            self.after_change(pos)
        elif isinstance(s, A.Clear):
            cell_t = a.type_of(s.cell)
            board = a.board_index[cell_t[1]] if isinstance(cell_t, tuple) else 0
            self.line(pos, f"B{board}[{self.expr(s.cell)}] = None")
            self.after_change(pos)
        elif isinstance(s, A.Shuffle):
            self.line(pos, f"_shuffle(st, Z[{self.zone_index(s.zone)}])")
            self.after_change(pos)
        elif isinstance(s, A.Move):
            source = self.zone_index(s.source) if s.source is not None else "None"
            self.line(pos, f"_move(st.z, {self.expr(s.item)}, {source}, "
                      f"{self.zone_index(s.dest)}, {self.sid(s.span)}, "
                      f"{self.zones_of_kind(s.dest) if s.source is None else ()})")
            self.after_change(pos)
        elif isinstance(s, A.Win):
            self.point(pos, "end", s.span)
            self.line(pos, f"st.result = _win(st, _need({self.expr(s.player)}, "
                      f"{self.sid(s.span)}, 'the winner'))")
            self.line(pos, f"return {OVER}")
        elif isinstance(s, A.Draw):
            self.point(pos, "end", s.span)
            self.line(pos, "st.result = [1] * st.np")
            self.line(pos, f"return {OVER}")
        elif isinstance(s, A.EndGame):
            self.point(pos, "end", s.span)
            self.line(pos, "st.result = RANK(st)")
            self.line(pos, f"return {OVER}")
        elif isinstance(s, A.EndTurn):
            self.goto(pos, self.turns[-1])
        elif isinstance(s, A.Break):
            loop = self.loops[-1]
            self.line(pos, "break" if loop[0] == "native" else f"return {loop[1]}")
        elif isinstance(s, A.Say):
            self.line(pos, "if st.log is not None:")
            self.line((pos[0], pos[1] + 1), f"st.log.append({self.expr(s.text)})")
        elif isinstance(s, A.Expect):
            self.expect(s, pos)
        elif isinstance(s, A.Pass):
            self.line(pos, "pass")
        elif isinstance(s, A.CallRule):
            return self.call_rule(s, pos)
        elif isinstance(s, A.Replay):
            cont = self.new_block(s.span)
            self.line(pos, f"st.replay = {s.choices!r}")
            self.pause(pos, cont, REPLAY)
            return (cont, 1)
        elif isinstance(s, A.If):
            first = self.condition(s.branches[0][0], pos)
            branches = [(first, s.branches[0][1])]
            branches += [(self.expr(c), body) for c, body in s.branches[1:]]
            marks = [("branch", _through(c.span, body), "") for c, body in s.branches]
            if s.otherwise:
                marks.append(("branch", _through(s.otherwise[0].span, s.otherwise), "else"))
            return self.if_chain(branches, s.otherwise, pos, suspends(s), s.span, marks)
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
        elif isinstance(s, A.LetRoll):
            return self.let_roll(s, pos)
        elif isinstance(s, A.Roll):
            return self.roll(s, pos)
        else:  # pragma: no cover
            raise AssertionError(type(s))
        return pos

    def place(self, s: A.Place, pos: tuple[int, int]) -> None:
        """`place p at c`, or at each cell of a list (a piece covering several cells)."""
        cell_t = self.a.type_of(s.cell)
        several = isinstance(cell_t, tuple) and cell_t[0] == "list"
        board_t = element(cell_t) if several else cell_t
        board = self.a.board_index[board_t[1]] if isinstance(board_t, tuple) else 0
        cell, piece = self.fresh("c"), self.fresh("p")
        sid = self.sid(s.span)
        self.line(pos, f"{piece} = {self.expr(s.piece)}")
        if several:
            cells = self.fresh("cs")
            self.line(pos, f"{cells} = {self.expr(s.cell)}")
            self.line(pos, f"if any(B{board}[{cell}] is not None for {cell} in {cells}): "
                      f"raise _occupied({sid})")
            self.line(pos, f"for {cell} in {cells}: B{board}[{cell}] = {piece}")
            return
        self.line(pos, f"{cell} = {self.expr(s.cell)}")
        self.line(pos, f"if B{board}[{cell}] is not None: raise _occupied({sid})")
        self.line(pos, f"B{board}[{cell}] = {piece}")

    def after_change(self, pos: tuple[int, int]) -> None:
        """After a change of the game, the 'as soon as' blocks get their turn."""
        if self.a.triggers and self.proc is not None and self.proc.kind != "trigger":
            self.line(pos, f"if TRIGGERS(st): return {OVER}")

    def triggers_function(self) -> str:
        """TRIGGERS(st): run every 'as soon as' block for each item that meets its
        condition, again and again until none does; True when one ended the game."""
        lines = ["def TRIGGERS(st):", "    fired = True", "    while fired:",
                 "        fired = False"]
        for proc in self.a.triggers:
            d = proc.trigger
            assert d is not None
            self.proc = proc
            var = self.a.binding[id(d)][1]
            self.pyvars = [var]
            domain, where = self.domain(d.domain), self.expr(d.where)
            self.pyvars = []
            entry = self.entries[(proc.kind, proc.name)]
            rest = proc.nlocals - 1
            lines += [f"        {_prologue([domain, where], 'L = None')}",
                      f"        for {var} in list({domain}):",
                      f"            if {where}:",
                      f"                _tick(st, {self.sid(d.span)})",
                      f"                if _b{entry}(st, [{entry}, [{var}] + [None] * {rest}])"
                      f" == {OVER}: return True",
                      "                fired = True"]
        self.proc = None
        lines.append("    return False")
        return "\n".join(lines)

    def target_code(self, t: A.Target) -> str:
        b = self.a.binding[id(t)]
        if b[0] == "local":
            return f"L[{b[1]}]"
        if b[0] == "counter" and t.of is None:
            return f"V[{self.a.counters[t.name].base}]"
        assert t.of is not None
        return self.of_code(b, t.name, t.of)

    def assign(self, t: A.Target, value: str, pos: tuple[int, int], span: Span) -> None:
        b = self.a.binding[id(t)]
        if b[0] == "counter":
            info = self.a.counters[t.name]
            if info.low is not None:
                value = (f"_bounded({value}, {info.low}, {info.high}, {t.name!r}, "
                         f"{self.sid(span)})")
        self.line(pos, f"{self.target_code(t)} = {value}")

    def expect(self, s: A.Expect, pos: tuple[int, int]) -> None:
        sid = self.sid(s.span)
        c = s.cond
        text = self.text_of(c.span)
        if isinstance(c, A.Binary) and c.op in ("==", "!=", "<", ">", "<=", ">="):
            lt, rt = self.a.type_of(c.left), self.a.type_of(c.right)
            left, right = self.fresh("l"), self.fresh("r")
            self.line(pos, f"{left} = {self.expr(c.left)}; {right} = {self.expr(c.right)}")
            self.line(pos, f"if not ({left} {c.op} {right}):")
            lshow = f"_show({left}, {self.const(lt)})"
            rshow = f"_show({right}, {self.const(rt)})"
            self.line((pos[0], pos[1] + 1),
                      f"_expect(False, {sid}, {text!r} + ': the left side is ' + {lshow} + "
                      f"', the right side ' + {rshow})")
        else:
            self.line(pos, f"_expect({self.expr(c)}, {sid}, {text!r} + ' is false')")

    def call_rule(self, s: A.CallRule, pos: tuple[int, int]) -> tuple[int, int]:
        key = ("rule", s.name)
        nargs = len(s.args)
        extra = self.nlocals[key] - nargs
        args = "[" + "".join(f"{self.expr(x)}, " for x in s.args) + "]"
        if extra:
            args += f" + [None] * {extra}"
        cont = self.new_block(s.span)
        self.line(pos, f"st.stack.append([{self.entries[key]}, {args}])")
        self.pause(pos, cont, CALL)
        return (cont, 1)

    def if_chain(self, branches: list[tuple[str, list]], otherwise: list | None,
                 pos: tuple[int, int], split: bool, span: Span,
                 marks: list[tuple[str, Span, str]]) -> tuple[int, int]:
        """`marks`: the coverage point of each branch, then of `otherwise`."""
        b, ind = pos
        inner = (b, ind + 1)
        if not split:
            for i, (cond, body) in enumerate(branches):
                self.line(pos, f"{'if' if i == 0 else 'elif'} {cond}:")
                self.point(inner, *marks[i])
                self.stmts(body, inner)  # a block always holds a statement
            if otherwise:
                self.line(pos, "else:")
                self.point(inner, *marks[-1])
                self.stmts(otherwise, inner)
            return pos
        join = self.new_block(span)
        for i, (cond, body) in enumerate(branches):
            self.line(pos, f"{'if' if i == 0 else 'elif'} {cond}:")
            self.point(inner, *marks[i])
            end = self.stmts(body, inner)
            self.goto(end, join)
        if otherwise:
            self.line(pos, "else:")
            self.point(inner, *marks[-1])
            end = self.stmts(otherwise, inner)
            self.goto(end, join)
        self.goto(pos, join)
        return (join, 1)

    def loop_body(self, body: list, pos: tuple[int, int], kind: tuple) -> tuple[int, int]:
        self.loops.append(kind)
        end = self.stmts(body, pos)
        self.loops.pop()
        return end

    def tick(self, pos: tuple[int, int], span: Span) -> None:
        self.line(pos, f"_tick(st, {self.sid(span)})")

    def for_each(self, s: A.ForEach, pos: tuple[int, int]) -> tuple[int, int]:
        slot = self.a.slot[id(s)]
        lst, idx = self.a.hidden[id(s)]
        inner = (pos[0], pos[1] + 1)
        if not suspends(s):
            self.line(pos, f"for L[{slot}] in {self.domain(s.domain)}:")
            self.tick(inner, s.span)
            if s.where is not None:
                self.line(inner, f"if not ({self.expr(s.where)}): continue")
            self.loop_body(s.body, inner, ("native",))
            return pos
        head, exit_ = self.new_block(s.span), self.new_block(s.span)
        self.line(pos, f"L[{lst}] = list({self.domain(s.domain)}); L[{idx}] = 0")
        self.goto(pos, head)
        hp = (head, 1)
        self.line(hp, f"if L[{idx}] >= len(L[{lst}]): return {exit_}")
        self.line(hp, f"L[{slot}] = L[{lst}][L[{idx}]]; L[{idx}] += 1")
        if s.where is not None:
            self.line(hp, f"if not ({self.expr(s.where)}): return {head}")
        end = self.loop_body(s.body, hp, ("flat", exit_))
        self.goto(end, head)
        return (exit_, 1)

    def repeat(self, s: A.Repeat, pos: tuple[int, int]) -> tuple[int, int]:
        inner = (pos[0], pos[1] + 1)
        if not suspends(s):
            if s.count is not None:
                self.line(pos, f"for _ in range({self.expr(s.count)}):")
            else:
                self.line(pos, "while True:")
            self.tick(inner, s.span)
            self.loop_body(s.body, inner, ("native",))
            return pos
        head, exit_ = self.new_block(s.span), self.new_block(s.span)
        hp = (head, 1)
        if s.count is not None:
            (left,) = self.a.hidden[id(s)]
            self.line(pos, f"L[{left}] = {self.expr(s.count)}")
            self.line(hp, f"if L[{left}] <= 0: return {exit_}")
            self.line(hp, f"L[{left}] -= 1")
        self.goto(pos, head)
        end = self.loop_body(s.body, hp, ("flat", exit_))
        self.goto(end, head)
        return (exit_, 1)

    def while_loop(self, s: A.While, pos: tuple[int, int]) -> tuple[int, int]:
        inner = (pos[0], pos[1] + 1)
        cond = self.expr(s.cond)
        if not suspends(s):
            self.line(pos, f"while {cond}:")
            self.tick(inner, s.span)
            self.loop_body(s.body, inner, ("native",))
            return pos
        head, exit_ = self.new_block(s.span), self.new_block(s.span)
        self.goto(pos, head)
        hp = (head, 1)
        self.line(hp, f"if not ({cond}): return {exit_}")
        end = self.loop_body(s.body, hp, ("flat", exit_))
        self.goto(end, head)
        return (exit_, 1)

    def turns_loop(self, s: A.Turns, pos: tuple[int, int]) -> tuple[int, int]:
        who, taken = self.a.hidden[id(s)]
        head, nxt, exit_ = (self.new_block(s.span), self.new_block(s.span),
                            self.new_block(s.span))
        start = self.expr(s.start) if s.start is not None else "0"
        self.line(pos, f"L[{who}] = {start}")
        self.line(pos, f"L[{taken}] = 0")
        self.goto(pos, head)
        hp = (head, 1)
        self.line(hp, f"V[0] = L[{who}]")
        self.point(hp, "turn", s.span)
        self.turns.append(nxt)
        self.loops.append(("flat", exit_))
        end = self.stmts(s.body, hp)
        self.loops.pop()
        self.turns.pop()
        for at in (end, (nxt, 1)):
            if s.rounds is not None:
                self.line(at, f"L[{taken}] += 1")
                self.line(at, f"if L[{taken}] >= ({self.expr(s.rounds)}) * st.np: "
                          f"return {exit_}")
            self.line(at, f"L[{who}] = (L[{who}] + 1) % st.np")
            self.goto(at, head)
        return (exit_, 1)

    def decider(self, by: A.Expr | None, span: Span) -> str:
        if by is not None:
            return self.need(self.expr(by), span, "who chooses")
        if self.turns:
            return "V[0]"  # inside 'turns', the current player is always set
        return f"(V[0] if V[0] is not None else _need(None, {self.sid(span)}, 'current'))"

    def label_function(self, label: A.StrLit | None, var: str) -> str | None:
        if label is None:
            return None
        name = Generated(f"LABEL{len(self.labels)}")
        self.pyvars.append(var)
        body = self.expr(label)
        self.pyvars.pop()
        self.labels.append(f"def {name}(st, L, {var}):\n    {_prologue([body], '')}\n"
                           f"    return {body}")
        return name

    def suspend_for(self, site: Site, options: str, player: str, pos: tuple[int, int],
                    span: Span, check_empty: bool = True) -> int:
        self.sites.append(site)
        n = len(self.sites) - 1
        resume = self.new_block(span)
        self.after_change(pos)  # 'as soon as' blocks settle before anyone decides
        if check_empty and not options.startswith("K"):
            opts = self.fresh("o")
            self.line(pos, f"{opts} = {options}")
            self.line(pos, f"if not {opts}: raise _none_left({self.sid(span)})")
            options = opts
        self.line(pos, f"st.pending = ({n}, {player}, {options})")
        self.pause(pos, resume)
        site.resume = resume
        return resume

    def choose(self, s: A.Choose, pos: tuple[int, int]) -> tuple[int, int]:
        b = self.a.binding[id(s)]
        var, el = b[1], b[2]
        domain = self.domain(s.domain)
        if s.where is not None:
            self.pyvars.append(var)
            options = f"[{var} for {var} in {domain} if {self.expr(s.where)}]"
            self.pyvars.pop()
        else:
            options = f"list({domain})"
        dt = self.a.type_of(s.domain)
        if not (isinstance(dt, tuple) and dt[0] == "board") and not (
                isinstance(s.domain, A.Binary) and s.domain.op == ".."):
            options = f"_uniq({options})"
        if s.optional:
            options = f"{options} + [None]"  # None: the option 'done'
        site = Site("choose", self.proc_name, s.span, el, self.a.slot[id(s)],
                    label=self.label_function(s.label, var),
                    done_label=self.label_function(s.done_label, var), secret=s.secret)
        resume = self.suspend_for(site, options, self.decider(s.by, s.span), pos, s.span,
                                  check_empty=not s.optional)
        rp = (resume, 1)
        return self.stmts(s.body, rp) if s.body is not None else rp

    def choose_any(self, s: A.ChooseAny, pos: tuple[int, int]) -> tuple[int, int]:
        b = self.a.binding[id(s)]
        var, t = b[1], b[2]
        domain = self.domain(s.domain)
        if domain in self.consts and len(self.consts[domain]) <= MAX_SUBSET_ITEMS:
            # a fixed set (the dice of a set, say): its subsets are worked out once
            items = list(dict.fromkeys(self.consts[domain]))
            options = self.const([[x for i, x in enumerate(items) if mask >> i & 1]
                                  for mask in range(1 << len(items))])
        else:
            options = f"_subsets(_uniq({domain}), {self.sid(s.span)})"
        site = Site("any", self.proc_name, s.span, t, self.a.slot[id(s)],
                    label=self.label_function(s.label, var))
        resume = self.suspend_for(site, options, self.decider(s.by, s.span), pos, s.span)
        rp = (resume, 1)
        return self.stmts(s.body, rp) if s.body is not None else rp

    def choose_menu(self, s: A.ChooseMenu, pos: tuple[int, int]) -> tuple[int, int]:
        slot = self.a.slot[id(s)]
        if all(o.cond is None for o in s.options):
            options = self.const(list(range(len(s.options))))
        else:
            pairs = ", ".join(f"({k}, {self.expr(o.cond) if o.cond is not None else 'True'})"
                              for k, o in enumerate(s.options))
            options = f"[k for k, ok in ({pairs},) if ok]"
        site = Site("menu", self.proc_name, s.span, "int", slot,
                    menu=[(o.id, self.label_function(o.label, "_k") if o.label else o.id)
                          for o in s.options])
        resume = self.suspend_for(site, options, self.decider(s.by, s.span), pos, s.span)
        branches = [(f"L[{slot}] == {k}", o.body) for k, o in enumerate(s.options)]
        marks = [("option", o.span, o.id) for o in s.options]
        return self.if_chain(branches, None, (resume, 1), suspends_any(s), s.span, marks)

    def let_roll(self, s: A.LetRoll, pos: tuple[int, int]) -> tuple[int, int]:
        die = self.a.dies[self.a.binding[id(s.die)][1]]
        faces = self.const(die.faces)
        slot = self.a.slot[id(s)]
        site = Site("roll", self.proc_name, s.span, die.face_type, slot)
        self.sites.append(site)
        n = len(self.sites) - 1
        resume = site.resume = self.new_block(s.span)
        self.line(pos, "if st.auto:")
        inner = (pos[0], pos[1] + 1)
        self.line(inner, f"L[{slot}] = {faces}[st.rand({len(die.faces)})]")
        self.goto(inner, resume)
        self.line(pos, f"st.pending = ({n}, -1, {faces})")
        self.pause(pos, resume)
        return (resume, 1)

    def roll(self, s: A.Roll, pos: tuple[int, int]) -> tuple[int, int]:
        t = self.a.type_of(s.dice)
        die_t = t if t[0] == "die" else element(t)
        assert isinstance(die_t, tuple)  # the checker saw to it
        dice = self.a.dice[die_t[1]]
        faces_list = self.a.dies[dice.die].faces
        faces, nf = self.const(faces_list), len(faces_list)
        lst, idx = self.a.hidden[id(s)]
        value = self.expr(s.dice)
        self.line(pos, f"L[{lst}] = {'[' + value + ']' if t[0] == 'die' else value}")
        self.line(pos, f"L[{idx}] = 0")
        head, res, exit_ = (self.new_block(s.span), self.new_block(s.span),
                            self.new_block(s.span))
        self.goto(pos, head)
        hp = (head, 1)
        self.line(hp, f"if L[{idx}] >= len(L[{lst}]): return {exit_}")
        self.line(hp, "if st.auto:")
        self.line((head, 2), f"for d in L[{lst}]: V[{dice.base} + d] = {faces}[st.rand({nf})]")
        self.goto((head, 2), exit_)
        site = Site("die", self.proc_name, s.span, self.a.dies[dice.die].face_type,
                    hidden=[lst, idx], base=dice.base, resume=res)
        self.sites.append(site)
        self.line(hp, f"st.pending = ({len(self.sites) - 1}, -1, {faces})")
        self.pause(hp, res)
        self.line((res, 1), f"L[{idx}] += 1")
        self.goto((res, 1), head)
        return (exit_, 1)

    # ---- expressions -------------------------------------------------------------------

    def condition(self, c: A.Expr, pos: tuple[int, int]) -> str:
        """The test of an `if`. An `any`/`all` test becomes a loop written into the block
        itself (no function call), leaving its answer in a flag."""
        if not (isinstance(c, A.Quantifier) and c.kind in ("any", "all") and c.where is not None
                and self.empty_cells_test(c) is None):
            return self.expr(c)
        flag = self.fresh("t")
        var = self.a.binding[id(c)][1]
        lines = [f"for {var} in {self.domain(c.domain)}:"]
        self.pyvars.append(var)
        inner = c.where
        outer_any = c.kind == "any"
        if isinstance(inner, A.Quantifier) and inner.kind in ("any", "all") \
                and inner.where is not None:
            ivar = self.a.binding[id(inner)][1]
            lines.append(f"    for {ivar} in {self.domain(inner.domain)}:")
            self.pyvars.append(ivar)
            test = self.expr(inner.where)
            self.pyvars.pop()
            inner_any = inner.kind == "any"
            lines.append(f"        if {test}: break" if inner_any
                         else f"        if not ({test}): break")
            if outer_any != inner_any:
                # the inner loop running to its end decides the outer one
                lines += ["    else:", f"        {flag} = {outer_any}", "        break"]
            else:
                # the inner loop stopping early decides the outer one
                lines += ["    else:", "        continue", f"    {flag} = {outer_any}",
                          "    break"]
        else:
            test = self.expr(inner)
            if outer_any:
                lines.append(f"    if {test}: {flag} = True; break")
            else:
                lines.append(f"    if not ({test}): {flag} = False; break")
        self.pyvars.pop()
        self.line(pos, f"{flag} = {not outer_any}")
        for text in lines:
            self.line(pos, text)
        return flag

def _through(start: Span, body: list) -> Span:
    """From `start` to the end of a block: the place of a branch, its body included."""
    end = body[-1].span
    return start.model_copy(update={"end_line": end.end_line, "end_column": end.end_column})


def _prologue(body: list[str], locals_: str, boards: bool = True) -> str:
    """The aliases a generated function needs, and no more: V for the counters, L for the
    frame's locals, B0, B1, ... for the cells of each board."""
    text = "\n".join(body)
    out = []
    if "V" in text:
        out.append("V = st.v")
    if "L" in text and locals_:
        out.append(locals_)
    if "B" in text and boards:
        out.append("B = st.b")
        out += [f"B{n} = B[{n}]" for n in boards_used(text)]
    if "Z[" in text:
        out.append("Z = st.z")
    return "; ".join(out) or "pass"


def suspends_any(s: A.ChooseMenu) -> bool:
    return any(suspends(x) for o in s.options for x in o.body)


_SAFE_BUILTINS = {name: getattr(builtins, name)
                  for name in ("len", "list", "range", "sum", "any", "all", "next", "abs",
                               "max", "min", "enumerate")}


def compile_program(analysis: Analysis, sources: dict[str, str],
                    coverage: bool = False) -> Program:
    """Compile a checked rule file (no errors) into a `Program`; `sources` holds the text
    of each file its declarations come from. With `coverage`, the program counts in
    `Program.hits` how often each of its `Program.points` ran (for `rulesdsl validate`);
    without it, the generated code has no trace of the counting."""
    return Compiler(analysis, sources, coverage).compile()
