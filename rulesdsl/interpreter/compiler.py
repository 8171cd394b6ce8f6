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
import re
from dataclasses import dataclass, field
from typing import Any

from .. import ast as A
from ..check.checker import Analysis, Proc
from ..check.types import ANY, Type, element
from ..diagnostics import Span
from .display import Display
from .runtime import CALL, MAX_SUBSET_ITEMS, OVER, REPLAY, RET, SUSPEND, Env, make_helpers

SIMPLE = re.compile(r"^[A-Za-z_]\w*(\[\d+\])?$")
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
    menu: list[tuple[str, str]] = field(default_factory=list)  # (id, label) per option


@dataclass
class Program:
    """A compiled rule file: the blocks, sites and tables the runtime needs."""

    analysis: Analysis
    blocks: list[Any]
    sites: list[Site]
    entries: dict[tuple[str, str], int]
    nlocals: dict[tuple[str, str], int]
    spans: list[Span]
    span_procs: list[str]  # the name of the block of rules each span lies in
    block_sid: list[int]
    rank: Any
    display: Display
    source: str
    init_counters: list[Any]


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


class Compiler:
    """Generates the Python source of one program, then executes it once to get the
    block functions."""

    def __init__(self, analysis: Analysis, source: str):
        self.a = analysis
        self.source_lines = source.splitlines()
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
        self.pyvars: list[str] = []
        self.turns: list[int] = []
        self.tmp = 0

    # ---- tables and emission -----------------------------------------------------------

    def const(self, value: Any) -> str:
        """A name in the generated module holding a constant value (shared, never mutated)."""
        key = repr(value)
        if key not in self.const_ids:
            name = f"K{len(self.const_ids)}"
            self.const_ids[key] = name
            self.consts[name] = value
        return self.const_ids[key]

    def sid(self, span: Span) -> int:
        self.spans.append(span)
        self.proc_of_span.append(self.proc.name if self.proc else "")
        return len(self.spans) - 1

    def new_block(self, span: Span) -> int:
        self.blocks.append([])
        self.block_sid.append(self.sid(span))
        return len(self.blocks) - 1

    def line(self, pos: tuple[int, int], text: str) -> None:
        self.blocks[pos[0]].append("    " * pos[1] + text)

    def fresh(self, stem: str) -> str:
        self.tmp += 1
        return f"_{stem}{self.tmp}"

    def text_of(self, span: Span) -> str:
        if span.line == span.end_line and 1 <= span.line <= len(self.source_lines):
            return self.source_lines[span.line - 1][span.column - 1:span.end_column - 1]
        return "the condition"

    # ---- program -----------------------------------------------------------------------

    def compile(self) -> Program:
        for proc in self.a.procs:
            key = (proc.kind, proc.name)
            self.entries[key] = self.new_block(proc.span)
            self.nlocals[key] = proc.nlocals
        defines = [self.define(d) for d in self.a.defines.values()]
        for proc in self.a.procs:
            self.proc = proc
            pos = (self.entries[(proc.kind, proc.name)], 1)
            pos = self.stmts(proc.body, pos)
            if proc.kind == "play":
                self.line(pos, "st.result = RANK(st)")
                self.line(pos, f"return {OVER}")
            else:
                self.line(pos, f"return {RET}")
        self.proc = None
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
        src.extend(self.labels)
        code = "\n".join(src) + "\n"
        env = Env(self.spans, self.proc_of_span)
        namespace: dict[str, Any] = {"__builtins__": _SAFE_BUILTINS}
        namespace.update(make_helpers(env))
        namespace["_show"] = self.display.show
        namespace.update(self.consts)
        exec(compile(code, f"<rules {self.a.file.path}>", "exec"), namespace)  # noqa: S102
        for site in self.sites:
            if isinstance(site.label, str):
                site.label = namespace[site.label]
            site.menu = [(oid, namespace[label] if isinstance(label, Generated) else label)
                         for oid, label in site.menu]
        init = self.initial_counters()
        return Program(self.a, namespace["BLOCKS"], self.sites, self.entries, self.nlocals,
                       self.spans, self.proc_of_span, self.block_sid, namespace["RANK"],
                       self.display,
                       code, init)

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

    def define(self, d: A.DefineDecl) -> str:
        params = "".join(f", a_{p}" for p in d.params)
        self.pyvars = [f"a_{p}" for p in d.params]
        body = self.expr(d.body)
        self.pyvars = []
        return (f"def D_{d.name}(st{params}):\n    {_prologue([body], 'L = None')}\n"
                f"    return {body}")

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
            self.pyvars = []
        return (f"def RANK(st):\n    {_prologue([key, 'V B'], 'L = None')}\n"
                f"    keys = [{key} for {var} in range(st.np)]\n"
                f"    return [1 + sum(1 for o in keys if o > k) for k in keys]")

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
        elif isinstance(s, A.Add):
            current = self.target_code(s.target)
            sign = "-" if s.negate else "+"
            self.assign(s.target, f"{current} {sign} ({self.expr(s.amount)})", pos, s.span)
        elif isinstance(s, A.Place):
            cell_t = a.type_of(s.cell)
            board = a.board_index[cell_t[1]] if isinstance(cell_t, tuple) else 0
            cell = self.fresh("c")
            self.line(pos, f"{cell} = {self.expr(s.cell)}")
            self.line(pos, f"if B{board}[{cell}] is not None: raise _occupied({self.sid(s.span)})")
            self.line(pos, f"B{board}[{cell}] = {self.expr(s.piece)}")
        elif isinstance(s, A.Clear):
            cell_t = a.type_of(s.cell)
            board = a.board_index[cell_t[1]] if isinstance(cell_t, tuple) else 0
            self.line(pos, f"B{board}[{self.expr(s.cell)}] = None")
        elif isinstance(s, A.Win):
            self.line(pos, f"st.result = _win(st, _need({self.expr(s.player)}, "
                      f"{self.sid(s.span)}, 'the winner'))")
            self.line(pos, f"return {OVER}")
        elif isinstance(s, A.Draw):
            self.line(pos, "st.result = [1] * st.np")
            self.line(pos, f"return {OVER}")
        elif isinstance(s, A.EndGame):
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
            return self.if_chain(branches, s.otherwise, pos, suspends(s), s.span)
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

    def target_code(self, t: A.Target) -> str:
        b = self.a.binding[id(t)]
        if b[0] == "local":
            return f"L[{b[1]}]"
        if b[0] == "counter" and t.of is None:
            return f"V[{self.a.counters[t.name].base}]"
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
                 pos: tuple[int, int], split: bool, span: Span) -> tuple[int, int]:
        b, ind = pos
        inner = (b, ind + 1)
        if not split:
            for i, (cond, body) in enumerate(branches):
                self.line(pos, f"{'if' if i == 0 else 'elif'} {cond}:")
                self.stmts(body, inner)
                self.line(inner, "pass")
            if otherwise:
                self.line(pos, "else:")
                self.stmts(otherwise, inner)
            return pos
        join = self.new_block(span)
        for i, (cond, body) in enumerate(branches):
            self.line(pos, f"{'if' if i == 0 else 'elif'} {cond}:")
            end = self.stmts(body, inner)
            self.goto(end, join)
        if otherwise:
            self.line(pos, "else:")
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

    def domain(self, e: A.Expr) -> str:
        if isinstance(e, A.Binary) and e.op == "..":
            return f"range({self.expr(e.left)}, {self.expr(e.right)} + 1)"
        return self.expr(e)

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

    def need(self, code: str, span: Span, what: str) -> str:
        """`code`, with a clear error if it is none; literals and slots are not re-checked
        through a call."""
        if code.isdigit():
            return code
        if SIMPLE.match(code):
            return f"({code} if {code} is not None else _need(None, {self.sid(span)}, {what!r}))"
        return f"_need({code}, {self.sid(span)}, {what!r})"

    def decider(self, by: A.Expr | None, span: Span) -> str:
        if by is not None:
            return self.need(self.expr(by), span, "who chooses")
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
        if check_empty and not options.startswith("K"):
            opts = self.fresh("o")
            self.line(pos, f"{opts} = {options}")
            self.line(pos, f"if not {opts}: raise _none_left({self.sid(span)})")
            options = opts
        self.line(pos, f"st.pending = ({n}, {player}, {options})")
        self.pause(pos, resume)
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
        site = Site("choose", self.proc.name, s.span, el, self.a.slot[id(s)],
                    label=self.label_function(s.label, var))
        resume = self.suspend_for(site, options, self.decider(s.by, s.span), pos, s.span)
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
        site = Site("any", self.proc.name, s.span, t, self.a.slot[id(s)],
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
        site = Site("menu", self.proc.name, s.span, "int", slot,
                    menu=[(o.id, self.label_function(o.label, "_k") if o.label else o.id)
                          for o in s.options])
        resume = self.suspend_for(site, options, self.decider(s.by, s.span), pos, s.span)
        branches = [(f"L[{slot}] == {k}", o.body) for k, o in enumerate(s.options)]
        return self.if_chain(branches, None, (resume, 1), suspends_any(s), s.span)

    def let_roll(self, s: A.LetRoll, pos: tuple[int, int]) -> tuple[int, int]:
        die = self.a.dies[self.a.binding[id(s.die)][1]]
        faces = self.const(die.faces)
        slot = self.a.slot[id(s)]
        site = Site("roll", self.proc.name, s.span, die.face_type, slot)
        self.sites.append(site)
        n = len(self.sites) - 1
        resume = self.new_block(s.span)
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
        site = Site("die", self.proc.name, s.span, self.a.dies[dice.die].face_type,
                    hidden=[lst, idx], base=dice.base)
        self.sites.append(site)
        self.line(hp, f"st.pending = ({len(self.sites) - 1}, -1, {faces})")
        self.pause(hp, res)
        self.line((res, 1), f"L[{idx}] += 1")
        self.goto((res, 1), head)
        return (exit_, 1)

    # ---- expressions -------------------------------------------------------------------

    def of_code(self, b: tuple, attr: str, obj: A.Expr) -> str:
        if b[0] == "face":
            return f"V[{self.a.dice[b[1]].base} + {self.expr(obj)}]"
        if b[0] == "piece":
            return f"B{self.a.board_index[b[1]]}[{self.expr(obj)}]"
        info = self.a.counters[attr]
        keys = obj.items if isinstance(obj, A.TupleLit) else [obj]
        index = str(info.base)
        stride = info.size
        for key, dim in zip(keys, info.dims):
            stride //= dim[2]
            code = self.expr(key)
            if dim[0] == "player":
                code = self.need(code, key.span, "the player")
            index += f" + {code}" if stride == 1 else f" + ({code}) * {stride}"
        return f"V[{index}]"

    def expr(self, e: Any) -> str:
        a = self.a
        if isinstance(e, (A.IntLit, A.BoolLit)):
            return repr(e.value)
        if isinstance(e, A.NoneLit):
            return "None"
        if isinstance(e, A.StrLit):
            parts = []
            for p in e.parts:
                if isinstance(p, str):
                    parts.append(repr(p))
                else:
                    parts.append(f"_show({self.expr(p)}, {self.const(a.type_of(p))})")
            return parts[0] if len(parts) == 1 else "(" + " + ".join(parts) + ")"
        if isinstance(e, A.PlayerLit):
            return str(e.number - 1)
        if isinstance(e, A.Name):
            return self.name(e)
        if isinstance(e, A.ListLit):
            return "[" + ", ".join(self.expr(i) for i in e.items) + "]"
        if isinstance(e, A.TupleLit):
            return "[" + ", ".join(self.expr(i) for i in e.items) + "]"
        if isinstance(e, A.Of):
            return self.of_code(a.binding[id(e)], e.attr, e.obj)
        if isinstance(e, A.Index):
            xs, i, sid = self.expr(e.obj), self.expr(e.index), self.sid(e.span)
            if i.isdigit():
                tmp = self.fresh("w")
                return (f"({tmp}[{int(i) - 1}] if len({tmp} := {xs}) >= {i} "
                        f"else _idx({tmp}, {i}, {sid}))")
            return f"_idx({xs}, {i}, {sid})"
        if isinstance(e, A.Unary):
            op = "not " if e.op == "not" else "-"
            return f"({op}{self.expr(e.operand)})"
        if isinstance(e, A.Binary):
            return self.binary(e)
        if isinstance(e, A.IsEmpty):
            t = a.type_of(e.operand)
            inner = self.expr(e.operand)
            if isinstance(t, tuple) and t[0] == "cell":
                test = f"B{a.board_index[t[1]]}[{inner}] is None"
            else:
                test = f"not {inner}"
            return f"(not ({test}))" if e.negated else f"({test})"
        if isinstance(e, A.Cond):
            return f"({self.expr(e.then)} if {self.expr(e.test)} else {self.expr(e.otherwise)})"
        if isinstance(e, A.Quantifier):
            return self.quantifier(e)
        if isinstance(e, A.Aggregate):
            if e.kind == "sum":
                return self.loop_function(e, "sum")
            var = a.binding[id(e)][1]
            domain = self.domain(e.domain)
            self.pyvars.append(var)
            gen = f"{self.expr(e.expr)} for {var} in {domain}"
            if e.where is not None:
                gen += f" if {self.expr(e.where)}"
            self.pyvars.pop()
            return f"_extreme([{gen}], {self.sid(e.span)}, {e.kind!r})"
        if isinstance(e, A.ListComp):
            var = a.binding[id(e)][1]
            domain = self.domain(e.domain)
            self.pyvars.append(var)
            where = f" if {self.expr(e.where)}" if e.where is not None else ""
            value = self.expr(e.expr)
            self.pyvars.pop()
            return f"[{value} for {var} in {domain}{where}]"
        if isinstance(e, A.Call):
            return self.call(e)
        raise AssertionError(type(e))  # pragma: no cover

    def name(self, e: A.Name) -> str:
        b = self.a.binding[id(e)]
        kind = b[0]
        if kind == "local":
            return f"L[{b[1]}]"
        if kind == "py":
            return b[1]
        if kind == "value":
            v = b[1]
            return repr(v) if isinstance(v, (int, str, type(None))) else self.const(v)
        if kind == "counter":
            return f"V[{self.a.counters[e.name].base}]"
        if kind == "board":
            return self.const(list(range(self.a.boards[e.name].size)))
        if kind == "dice":
            return self.const(list(range(self.a.dice[e.name].count)))
        if kind == "builtin":
            return {"current": "V[0]", "players": "st.pl", "player_count": "st.np",
                    "winner": "_winner(st)", "game_over": "(st.result is not None)"}[e.name]
        raise AssertionError(b)  # pragma: no cover

    def binary(self, e: A.Binary) -> str:
        left, right = self.expr(e.left), self.expr(e.right)
        op = e.op
        if op == "/":
            return f"_div({left}, {right}, {self.sid(e.span)})"
        if op == "%":
            return f"_mod({left}, {right}, {self.sid(e.span)})"
        if op == "..":
            return f"list(range({left}, {right} + 1))"
        return f"({left} {op} {right})"

    def empty_cells_test(self, e: Any) -> tuple[int, bool] | None:
        """(board, empty?) when e ranges over a whole board testing only whether each cell
        is empty: such a quantifier is a scan of the board's list, done in C."""
        dt = self.a.type_of(e.domain)
        w = e.where
        if (isinstance(dt, tuple) and dt[0] == "board" and isinstance(w, A.IsEmpty)
                and isinstance(w.operand, A.Name) and w.operand.name == e.var):
            return self.a.board_index[dt[1]], not w.negated
        return None

    def quantifier(self, e: A.Quantifier) -> str:
        scan = self.empty_cells_test(e)
        if scan is not None and e.kind in ("any", "all", "count"):
            board, empty = scan
            cells = f"B{board}"
            if e.kind == "count":
                n = f"{cells}.count(None)"
                return n if empty else f"(len({cells}) - {n})"
            if e.kind == "any":
                return f"(None in {cells})" if empty else f"({cells}.count(None) < len({cells}))"
            return f"({cells}.count(None) == len({cells}))" if empty else f"(None not in {cells})"
        var = self.a.binding[id(e)][1]
        domain = self.domain(e.domain)
        if e.kind == "count" and e.where is None:
            return f"len({domain})"
        if e.kind == "filter":
            self.pyvars.append(var)
            where = self.expr(e.where) if e.where is not None else "True"
            self.pyvars.pop()
            return f"[{var} for {var} in {domain} if {where}]"
        return self.loop_function(e, e.kind)

    def loop_function(self, e: Any, kind: str) -> str:
        """A quantifier or sum as a small generated function with a plain loop: faster
        than a generator expression, and it stops at the first item that decides."""
        var = self.a.binding[id(e)][1]
        domain = self.domain(e.domain)
        outer = list(dict.fromkeys(self.pyvars))
        slot = len(self.helpers)
        self.helpers.append("")  # reserved: quantifiers inside this one come after it
        name = f"Q{slot}"
        params = "".join(f", {v}" for v in outer)
        nested = (kind in ("any", "all") and isinstance(e.where, A.Quantifier)
                  and e.where.kind in ("any", "all"))
        if nested:
            self.helpers[slot] = self.nested_loops(name, params, e, var, domain)
            return f"{name}(st, V, L, B{params})"
        self.pyvars.append(var)
        where = self.expr(e.where) if e.where is not None else None
        value = self.expr(e.expr) if kind == "sum" else None
        self.pyvars.pop()
        body = {
            "any": (f"        if {where}: return True", "    return False"),
            "all": (f"        if not ({where}): return False", "    return True"),
            "count": (f"        if {where}: n += 1", "    return n"),
            "first": (f"        if {where}: return {var}", "    return None"),
            "sum": (f"        {'if ' + where + ': ' if where else ''}n += {value}",
                    "    return n"),
        }[kind]
        lines = [f"def {name}(st, V, L, B{params}):"]
        aliases = _board_aliases([domain, where or "", value or ""])
        if aliases:
            lines.append("    " + aliases)
        if kind in ("count", "sum"):
            lines.append("    n = 0")
        lines += [f"    for {var} in {domain}:", body[0], body[1]]
        self.helpers[slot] = "\n".join(lines)
        return f"{name}(st, V, L, B{params})"

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

    def nested_loops(self, name: str, params: str, e: A.Quantifier, var: str,
                     domain: str) -> str:
        """`any`/`all` whose condition is itself `any`/`all`: two plain nested loops."""
        inner = e.where
        assert isinstance(inner, A.Quantifier)
        self.pyvars.append(var)
        ivar = self.a.binding[id(inner)][1]
        idomain = self.domain(inner.domain)
        self.pyvars.append(ivar)
        test = self.expr(inner.where) if inner.where is not None else "True"
        self.pyvars.pop()
        self.pyvars.pop()
        outer_any, inner_any = e.kind == "any", inner.kind == "any"
        lines = [f"def {name}(st, V, L, B{params}):"]
        aliases = _board_aliases([domain, idomain, test])
        if aliases:
            lines.append("    " + aliases)
        lines += [f"    for {var} in {domain}:", f"        for {ivar} in {idomain}:"]
        if outer_any and inner_any:
            lines += [f"            if {test}: return True", "    return False"]
        elif not outer_any and not inner_any:
            lines += [f"            if not ({test}): return False", "    return True"]
        else:
            hit = f"if {test}: break" if inner_any else f"if not ({test}): break"
            decided = "return True" if outer_any else "return False"
            lines += [f"            {hit}", "        else:", f"            {decided}",
                      f"    return {not outer_any}"]
        return "\n".join(lines)

    def call(self, e: A.Call) -> str:
        b = self.a.binding[id(e)]
        args = [self.expr(x) for x in e.args]
        if b[0] == "define":
            return f"D_{e.func}(st{''.join(', ' + x for x in args)})"
        f = e.func
        sid = self.sid(e.span)
        if f in ("lines", "column", "row", "cell"):
            board_name = self.a.type_of(e.args[0])[1]
            board = self.a.boards[board_name]
            if f == "lines":
                n = self.const_int(e.args[1])
                if len(e.args) == 2:
                    return self.const(board.lines(n))
                return f"{self.const(board.lines_through(n))}[{args[2]}]"
            if f == "cell":
                return f"_cell({board.width}, {board.height}, {args[1]}, {args[2]}, {sid})"
            table = board.columns if f == "column" else board.rows
            k, name = args[1], self.const(table)
            if SIMPLE.match(k) or k.isdigit():
                return (f"({name}[{k} - 1] if 0 < {k} <= {len(table)} "
                        f"else _pick({name}, {k}, {sid}, {f!r}))")
            return f"_pick({name}, {k}, {sid}, {f!r})"
        if f == "neighbours":
            board = self.a.boards[self.a.type_of(e.args[0])[1]]
            return f"{self.const(board.neighbours)}[{args[0]}]"
        if f == "distance":
            board = self.a.boards[self.a.type_of(e.args[0])[1]]
            w = board.width
            a0, a1 = args
            if board.adjacency == "diagonal":
                return (f"max(abs({a0} % {w} - {a1} % {w}), "
                        f"abs({a0} // {w} - {a1} // {w}))")
            return f"(abs({a0} % {w} - {a1} % {w}) + abs({a0} // {w} - {a1} // {w}))"
        if f == "length":
            return f"len({args[0]})"
        if f == "next":
            return f"(({args[0]}) + 1) % st.np"
        if f == "previous":
            return f"(({args[0]}) - 1) % st.np"
        if f in ("abs", "max", "min"):
            return f"{f}({', '.join(args)})"
        raise AssertionError(f)  # pragma: no cover

    def const_int(self, e: A.Expr) -> int:
        from ..check.checker import Checker

        checker = Checker(self.a.file)
        checker.a.values = self.a.values
        checker.a.enum_values = self.a.enum_values
        return int(checker.const_eval(e))


BOARD_ALIAS = re.compile(r"\bB(\d+)\b")


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
        out += [f"B{n} = B[{n}]" for n in sorted(set(BOARD_ALIAS.findall(text)), key=int)]
    return "; ".join(out) or "pass"


def _board_aliases(code: list[str]) -> str:
    names = sorted(set(BOARD_ALIAS.findall("\n".join(code))), key=int)
    return "; ".join(f"B{n} = B[{n}]" for n in names)


def suspends_any(s: A.ChooseMenu) -> bool:
    return any(suspends(x) for o in s.options for x in o.body)


_SAFE_BUILTINS = {name: getattr(builtins, name)
                  for name in ("len", "list", "range", "sum", "any", "all", "next", "abs",
                               "max", "min", "enumerate")}


def compile_program(analysis: Analysis, source: str) -> Program:
    """Compile a checked rule file (no errors) into a `Program`."""
    return Compiler(analysis, source).compile()
