"""Compile the decisions and the chance steps: `choose`, `choose any`, menus, rolls.

Stage: compile. `Sites` is the part of the `Compiler` (compiler.py) that makes a decision
site (`program.Site`) of each place where a player decides or the dice fall: the block
works out the options, leaves them pending in the state (`st.pending`) and pauses; the game
resumes at a new block with the answer in the frame. A site keeps what the run side needs
to show and check the decision (its prompt, the labels of its options as functions of the
state, whether it is secret).
"""

from __future__ import annotations

import ast

from .. import ast as A
from ..check.bindings import DieKindRef, Var
from ..check.types import ANY, INT, element, list_of
from ..diagnostics import Span
from ..program.program import Site
from ..program.runtime import MAX_SUBSET_ITEMS
from . import emit as E
from . import flow
from .context import Generated, Generator, Handler
from .distinct import distinct


class Sites(Generator):
    """Decisions and chance."""

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
        return self.options.current_known and bool(self.turns_next) and self.proc is not None and \
            self.proc.kind != "define"

    def label_function(self, label: A.StrLit | None, var: Var | None) -> str | None:
        if label is None:
            return None
        fname = Generated(f"LABEL{self.labels}")
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
        fname = Generated(f"OPTIONS{len(self.sites)}")
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
        shown = self.layout.shown.get(die_t[1], -1)
        each: list = [E.assign(
            E.sub_store(E.name("V"), E.binop(E.const(base), "+", E.name("d"))),
            E.sub(faces, E.method(st, "rand", E.const(nf))))]
        if shown >= 0:  # rolled again, the die is hidden again
            each.append(E.assign(E.sub_store(E.name("V"), E.binop(E.const(shown), "+",
                                                                  E.name("d"))), E.const(0)))
        self.emit(head, E.if_(E.compare(self.local(idx), ">=", E.call("len", self.local(lst))),
                              [self.jump_to(exit_)]),
                  E.if_(E.attr(st, "auto"), [
                      E.for_(E.store("d"), self.local(lst), each), self.jump_to(exit_)]))
        site = Site("die", self.proc_name, s.span, self.a.dies[dice.die].face_type,
                    hidden=[lst, idx], base=base, resume=self.block_number(res),
                    shown=shown)
        site.prompt = self.prompt_of(s.span)
        self.sites.append(site)
        self.emit(head, E.assign(E.attr_store(st, "pending"), E.tuple_(
            [E.const(len(self.sites) - 1), E.const(-1), E.copy_tree(faces)])))
        self.pause(head, res)
        self.emit(res, E.aug(self.local_store(idx), "+", E.const(1)))
        self.goto(res, head)
        return exit_


def _alias(n: str) -> bool:
    """V, Z, B0, B1, ...: the state's lists, which a function looks up from st itself."""
    return n in ("V", "Z") or (n[:1] == "B" and n[1:].isdigit())


HANDLERS: dict[type, Handler] = {
    A.Choose: Sites.choose, A.ChooseAny: Sites.choose_any, A.ChooseMenu: Sites.choose_menu,
    A.LetRoll: Sites.let_roll, A.Roll: Sites.roll,
}
