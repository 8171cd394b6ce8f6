"""Static checks of a rule file: declarations, names, types and counts.

Stage: check. `analyze` walks the AST once, reports every problem it finds as a
diagnostic, and records what the compiler needs (analysis.py): the meaning of each name
(bindings.py), the type of each expression, and the variables each statement binds.
Nothing runs while this reports an error. The checker is built in layers: base.py (state,
reporting, constants), expressions.py, declarations.py, and this module: the order of the
checks and the statements.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import ast as A
from ..diagnostics import Span
from ..limits import MAX_EXAMPLES
from .analysis import (  # noqa: F401  (Analysis is part of this module's interface)
    MAX_PLAYERS,
    NAMED,
    WAITING,
    Analysis,
    Proc,
    Scope,
    is_a,
    plural,
    walk,
)
from .bindings import CounterRef, DieKindRef, PieceRef, Var, VarRef
from .flow import FlowChecker
from .tiles import check_turned
from .types import (
    ANY,
    BOOL,
    INT,
    NONE,
    PLAYER,
    Type,
    compatible,
    element,
    list_of,
    snapshot,
    with_article,
)


class Checker(FlowChecker):
    """Walks a rule file, filling an `Analysis`."""

    # ---- reporting ---------------------------------------------------------------------

    # ---- declarations ------------------------------------------------------------------

    def run(self) -> Analysis:
        items = self.a.file.items
        self.file_lines(items)
        self.declarations(items)
        self.procedures(items)
        self.check_rules()
        self.flow_points()
        self.uncalled_defines()
        order = [i.name for i in items if isinstance(i, A.StatDecl)]
        self.a.stats = {n: self.a.stats[n] for n in order if n in self.a.stats}
        return self.a

    def file_lines(self, items: list) -> None:
        """The lines a rule file has once: its game, players, play, setup, rank..."""
        games = [i for i in items if isinstance(i, A.GameDecl)]
        players = [i for i in items if isinstance(i, A.PlayersDecl)]
        plays = [i for i in items if isinstance(i, A.PlayDecl)]
        file_span = Span.make(file=self.a.file.path, line=0, column=0, end_line=0, end_column=0)
        if not games:
            self.err("E010", "the rule file has no 'game \"Name\"' line", file_span)
        for extra in games[1:]:
            self.err("E010", "a second 'game' line", extra.span)
        if games:
            self.a.game_name = games[0].name
        examples = [i for i in items if isinstance(i, A.ExampleDecl)]
        if len(examples) > MAX_EXAMPLES:  # each runs a game: thousands would run for minutes
            self.err("E062", f"a rule file has at most {MAX_EXAMPLES:,} examples, with those "
                     f"of the files it extends: this is example {MAX_EXAMPLES + 1:,}",
                     examples[MAX_EXAMPLES].span, hint="split them among variants of the game")
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
        self.teams_decl(items)
        words = {A.SetupDecl: "'setup:' block", A.RankDecl: "'rank' line",
                 A.HeuristicDecl: "'heuristic' line", A.LimitDecl: "'limit' line",
                 A.PayoffDecl: "'payoff' line"}
        for kind, what in words.items():
            found = [i for i in items if isinstance(i, kind)]
            for again in found[1:]:
                self.err("E021", f"a second {what}", again.span)

    def declarations(self, items: list) -> None:
        """Every declared name first, then the declarations kind by kind."""
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
        self.builtin_enums()
        self.kind_by_kind(items)

    def kind_by_kind(self, items: list) -> None:
        """Values first (constants may refer to enums), then boards, dies and kinds, zones,
        dice, counters, definitions and rules, the display; each kind in file order (the
        phases of DECLARATIONS)."""
        for phase in DECLARATIONS:
            self.each_handled(phase, items)
        self.stated_endings()
        self.screen_names()
        for unknown in self.overrides:
            if unknown not in self.a.settings:
                known = ", ".join(sorted(self.a.settings)) or "none"
                self.err("E033", f"'{unknown}' is not a setting of this game", None,
                         hint=f"settings: {known}")

    def procedures(self, items: list) -> None:
        """The blocks of statements and what reads the game's state: setup, play, rank,
        statistics, heuristic, payoff, triggers, examples (PROCEDURES)."""
        self.each_handled(PROCEDURES, items)

    def each_handled(self, table: dict[type, Callable[[Any, Any], None]], items: list) -> None:
        """The handler of each item the table has one for, in file order."""
        for item in items:
            handler = table.get(type(item))
            if handler is not None:
                handler(self, item)

    # ---- the declarations' handlers (DECLARATIONS, PROCEDURES) ---------------------------

    def const_decl(self, item: A.ConstDecl) -> None:
        if self.declare(item.name, "constant", item.span):
            before = len(self.a.diagnostics)
            self.a.values[item.name] = self.constant(item.value)
            if len(self.a.diagnostics) == before:
                # its type, for enum values (stored as numbers) in lists
                scope = Scope(Proc("const", item.name, [], [], item.span))
                self.const_types[item.name] = self.expr(item.value, scope)
                del self.a.diagnostics[before:]

    def first_limit(self, item: A.LimitDecl) -> None:
        """The first `limit` line (a second is an error of file_lines)."""
        if item is next(i for i in self.a.file.items if isinstance(i, A.LimitDecl)):
            self.limit_decl(item)

    def board_holding(self, item: A.BoardDecl) -> None:
        if item.holding is not None:
            self.holding(item)

    def tally_decl(self, item: A.StatDecl) -> None:
        """A statistic that is a tally is a counter: the rules change it."""
        if item.value is None:
            self.stat_decl(item)

    def measured_stat(self, item: A.StatDecl) -> None:
        """A statistic with a value, measured when the game ends."""
        if item.value is not None:
            self.stat_decl(item)

    def define_decl(self, item: A.DefineDecl) -> None:
        if self.declare(item.name, "definition", item.span):
            self.a.defines[item.name] = item

    def rule_decl(self, item: A.RuleDecl) -> None:
        if self.declare(item.name, "rule", item.span):
            self.a.rules[item.name] = item

    def setup_decl(self, item: A.SetupDecl) -> None:
        self.procedure(Proc("setup", "setup", item.body, [], item.span))

    def play_decl(self, item: A.PlayDecl) -> None:
        self.procedure(Proc("play", "play", item.body, [], item.span))

    # ---- constants ---------------------------------------------------------------------

    # ---- statements --------------------------------------------------------------------

    def procedure(self, proc: Proc, param_types: list[Type] | None = None) -> None:
        self.a.procs.append(proc)
        scope = Scope(proc)
        for i, p in enumerate(proc.params):
            t = param_types[i] if param_types and i < len(param_types) else ANY
            var = Var(p, t, frame=True)
            proc.vars.append(var)
            scope.blocks[-1][p] = var
        steps: set[str] = set()
        for s in walk(proc.body):
            if isinstance(s, A.Step):
                if s.name in steps:
                    self.err("E021", f"a second step named {s.name} in {proc.kind} "
                             f"{proc.name}", s.span, hint="give every step its own name")
                steps.add(s.name)
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

    def block(self, stmts: list, scope: Scope, bind: dict[str, Var] | None = None) -> None:
        scope.blocks.append(dict(bind or {}))
        for s in stmts:
            self.stmt(s, scope)
        scope.blocks.pop()

    def bind(self, node: A.Node, name: str, t: Type) -> Var:
        """The variable a statement binds, kept in the frame."""
        var = Var(name, snapshot(t), frame=True)
        self.a.var_of[id(node)] = var
        return var

    def stmt(self, s: Any, scope: Scope) -> None:
        A.handler(STATEMENTS, s, "the checker")(self, s, scope)

    def stmt_Let(self, s: A.Let, scope: Scope) -> None:
        t = self.expr(s.value, scope)
        scope.blocks[-1][s.name] = self.bind(s, s.name, t)

    def stmt_LetRoll(self, s: A.LetRoll, scope: Scope) -> None:
        t = self.die_kind(s.die, scope)
        scope.blocks[-1][s.name] = self.bind(s, s.name, t)

    def stmt_Set(self, s: A.Set | A.Add, scope: Scope) -> None:
        target = self.target(s.target, scope)
        if isinstance(s, A.Set):
            self.want(s.value, target, scope, "the new value")
        else:
            if target not in (INT, ANY):
                self.err("E030", f"only numbers can be added to, not {with_article(target)}",
                         s.target.span)
            self.want(s.amount, INT, scope, "the amount")

    stmt_Add = stmt_Set

    def stmt_Place(self, s: A.Place, scope: Scope) -> None:
        piece = self.expr(s.piece, scope)
        t = self.expr(s.cell, scope)
        cell_t = t if is_a(t, "cell") else element(t)
        if not (is_a(cell_t, "cell") or t == ANY):
            self.err("E030", f"a piece is placed on a cell or a list of cells, not "
                     f"{with_article(t)}", s.cell.span)
        elif isinstance(cell_t, tuple) and cell_t[1] in self.a.holding:
            holds = self.a.holding[cell_t[1]]
            if not compatible(piece, holds) or piece == NONE:
                self.err("E030", f"board {cell_t[1]} holds {with_article(holds)}, not "
                         f"{with_article(piece)}", s.piece.span)
        if s.turn is not None:
            check_turned(self, s, t, self.expr(s.turn, scope))

    def stmt_Shuffle(self, s: A.Shuffle, scope: Scope) -> None:
        self.zone(s.zone, scope)

    def stmt_Move(self, s: A.Move, scope: Scope) -> None:
        item = self.expr(s.item, scope)
        zones = [self.zone(z, scope) for z in (s.source, s.dest) if z is not None]
        for z in zones:
            if z is not None and item != ANY and item != ("comp", z[2]) and item != NONE:
                self.err("E030", f"zone {z[1]} holds {z[2]}, not {with_article(item)}",
                         s.item.span)

    def stmt_Clear(self, s: A.Clear, scope: Scope) -> None:
        self.cell(s.cell, scope)

    def stmt_Roll(self, s: A.Roll, scope: Scope) -> None:
        t = self.expr(s.dice, scope)
        if not (is_a(t, "die") or is_a(element(t), "die") or t == ANY):
            self.err("E030", f"roll takes a die or a list of dice, not {with_article(t)}",
                     s.dice.span, hint="to roll a kind of die, write: let r = roll d6")

    def stmt_Reveal(self, s: A.Reveal, scope: Scope) -> None:
        t = self.expr(s.dice, scope)
        die_t = t if is_a(t, "die") else element(t)
        if t == ANY:
            return
        if not is_a(die_t, "die"):
            self.err("E030", f"reveal takes a die or a list of dice, not {with_article(t)}",
                     s.dice.span)
        elif self.a.dice[die_t[1]].visibility == "public":  # type: ignore[index]
            name = die_t[1]  # type: ignore[index]
            self.err("E030", f"the dice of {name} are public: there is nothing to reveal",
                     s.dice.span, hint="dice declared 'owner' or 'hidden' can be revealed")

    def stmt_Win(self, s: A.Win, scope: Scope) -> None:
        self.want(s.player, PLAYER, scope, "the winner")

    def stmt_EndTurn(self, s: A.EndTurn, scope: Scope) -> None:
        if not scope.turns:
            self.err("E041", "'end turn' outside a 'turns' block", s.span)

    def stmt_NextTurn(self, s: A.NextTurn, scope: Scope) -> None:
        self.want(s.player, PLAYER, scope, "who plays the next turn")
        if not scope.at_once:
            self.err("E041", "'next turn to' outside a 'turns' block", s.span)
        elif scope.at_once[-1]:
            self.err("E041", "'next turn to' in turns played all at once: every player "
                     "plays each round", s.span)

    def stmt_Break(self, s: A.Break, scope: Scope) -> None:
        if not scope.loops:
            self.err("E040", "'break' outside a loop", s.span)

    def stmt_Say(self, s: A.Say, scope: Scope) -> None:
        self.expr(s.text, scope)
        if s.to is not None:
            t = self.expr(s.to, scope)
            if not (compatible(t, PLAYER) or compatible(t, list_of(PLAYER))):
                self.err("E030", f"'say ... to' takes a player or a list of players, "
                         f"not {with_article(t)}", s.to.span)

    def stmt_Expect(self, s: A.Expect, scope: Scope) -> None:
        self.want(s.cond, BOOL, scope, "what an example expects")

    def stmt_CallRule(self, s: A.CallRule, scope: Scope) -> None:
        self.call_rule(s, scope)

    def stmt_Replay(self, s: A.Replay, scope: Scope) -> None:
        if scope.proc.kind != "example" or len(scope.blocks) > 2:
            self.err("E043", "'play \"...\"' continues the game in an example; it belongs "
                     "at the top of an example block", s.span)

    def stmt_If(self, s: A.If, scope: Scope) -> None:
        for cond, body in s.branches:
            self.want(cond, BOOL, scope, "a condition")
            self.block(body, scope)
        if s.otherwise is not None:
            self.block(s.otherwise, scope)

    def stmt_ForEach(self, s: A.ForEach, scope: Scope) -> None:
        el = self.domain(s.domain, scope)
        b = self.bind(s, s.var, el)
        self.a.item_of[id(b)] = s.domain
        if s.where is not None:
            scope.blocks.append({s.var: b})
            self.want(s.where, BOOL, scope, "a condition")
            scope.blocks.pop()
        self.loop(s.body, scope, {s.var: b})

    def stmt_Repeat(self, s: A.Repeat, scope: Scope) -> None:
        if s.count is not None:
            self.want(s.count, INT, scope, "the number of repeats")
        self.loop(s.body, scope)

    def stmt_While(self, s: A.While, scope: Scope) -> None:
        self.want(s.cond, BOOL, scope, "a condition")
        self.loop(s.body, scope)

    def stmt_Turns(self, s: A.Turns, scope: Scope) -> None:
        self.want(s.start, PLAYER, scope, "the first player")
        self.want(s.direction, ("enum", "Direction"), scope, "the direction of play")
        self.want(s.rounds, INT, scope, "the number of rounds")
        scope.turns += 1
        scope.at_once.append(s.at_once)
        self.block(s.body, scope)
        scope.at_once.pop()
        scope.turns -= 1

    def stmt_Choose(self, s: A.Choose, scope: Scope) -> None:
        self.chosen(s, self.choice(s, scope, "choose"), scope)

    def stmt_ChooseAny(self, s: A.ChooseAny, scope: Scope) -> None:
        el = self.domain(s.domain, scope)
        b = self.bind(s, s.var, list_of(el))
        self.want(s.by, PLAYER, scope, "who chooses")
        self.option_scope(s, list_of(el), scope, None, s.label)
        self.chosen(s, b, scope)

    def stmt_ChooseMenu(self, s: A.ChooseMenu, scope: Scope) -> None:
        self.want(s.by, PLAYER, scope, "who chooses")
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

    def stmt_Step(self, s: A.Step, scope: Scope) -> None:
        for inner in s.body:  # in place: what it binds stays bound after it
            self.stmt(inner, scope)

    def stmt_Pass(self, s: A.Draw | A.EndGame | A.Pass, scope: Scope) -> None:
        """`draw`, `end game` and `pass` hold nothing to check."""

    stmt_Draw = stmt_EndGame = stmt_Pass

    def option_scope(self, s: A.Choose | A.ChooseAny | A.Offer, t: Type, scope: Scope,
                     where: A.Expr | None, label: A.StrLit | None) -> None:
        """The filter and the label of a choice see each candidate under the choice's name."""
        b = Var(s.var, t, frame=False)
        self.a.candidate[id(s)] = b
        if not isinstance(s, A.ChooseAny):  # its candidates are lists of items
            self.a.item_of[id(b)] = s.domain
        scope.blocks.append({s.var: b})
        if where is not None:
            self.want(where, BOOL, scope, "a condition")
        if label is not None:
            self.expr(label, scope)
        scope.blocks.pop()

    def chosen(self, s: A.Choose | A.ChooseAny, b: Var, scope: Scope) -> None:
        if s.body is None:
            scope.blocks[-1][s.var] = b
        else:
            self.block(s.body, scope, {s.var: b})

    def loop(self, body: list, scope: Scope, bind: dict[str, Var] | None = None) -> None:
        scope.loops += 1
        self.block(body, scope, bind)
        scope.loops -= 1

    def die_kind(self, e: A.Expr, scope: Scope) -> Type:
        """What `let x = roll ...` rolls: a kind of die, or a component of a kind with
        faces; the type of its faces."""
        if isinstance(e, A.Name) and e.name in self.a.dies and scope.lookup(e.name) is None:
            self.a.binding[id(e)] = DieKindRef(e.name)
            return self.a.dies[e.name].face_type
        reported = len(self.a.diagnostics)
        t = self.expr(e, scope)
        if is_a(t, "comp") and "faces" in self.a.kinds[t[1]].fields:
            return element(self.a.kinds[t[1]].types.get("faces", ANY)) or ANY
        if t != ANY or len(self.a.diagnostics) == reported:
            self.err("E030", f"'let x = roll ...' rolls a kind of die declared with 'die', or "
                     f"a component whose kind has faces, not {with_article(t)}", e.span,
                     hint="to roll dice of a set, write: roll hand")
        return ANY

    def zone(self, e: A.Expr, scope: Scope) -> tuple | None:
        t = self.expr(e, scope)
        if not is_a(t, "zone"):
            if t != ANY:
                self.err("E030", f"expected a zone, not {with_article(t)}", e.span)
            return None
        assert isinstance(t, tuple)
        return t

    def cell(self, e: A.Expr, scope: Scope) -> None:
        t = self.expr(e, scope)
        if not (is_a(t, "cell") or t == ANY):
            self.err("E030", f"expected a cell of a board, not {with_article(t)}", e.span)

    def target(self, t: A.Target, scope: Scope) -> Type:
        if t.of is None:
            local = scope.lookup(t.name)
            if local is not None and local.frame:
                self.a.binding[id(t)] = VarRef(local)
                self.a.assigned.add(id(local))
                return local.type
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
            self.a.binding[id(t)] = CounterRef(t.name)
            return info.type
        fake = A.Of.make(span=t.span, attr=t.name, obj=t.of)
        self.writing = True  # a statistic's tally may be changed, not read
        try:
            result = self.of(fake, scope)
        finally:
            self.writing = False
        ref = self.a.binding.pop(id(fake), None)
        if ref is not None:
            self.a.binding[id(t)] = ref
        if isinstance(ref, PieceRef):
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
            self.err("E024", f"rule {s.name} takes {plural(len(rule.params), 'argument')}, "
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

    def trigger_decl(self, d: A.TriggerDecl) -> None:
        proc = Proc("trigger", f"as soon as {d.var} (line {d.span.line})", d.body, [d.var],
                    d.span, trigger=d)
        self.a.procs.append(proc)
        self.a.triggers.append(proc)
        scope = Scope(proc)
        el = self.domain(d.domain, scope)
        b = Var(d.var, el, frame=False)
        self.a.candidate[id(d)] = b
        scope.blocks.append({d.var: b})
        self.want(d.where, BOOL, scope, "a condition")
        scope.blocks.pop()
        for s in walk(d.body):
            if isinstance(s, WAITING):
                self.err("E045", "an 'as soon as' block runs in the middle of a change: it "
                         "cannot wait for a decision or a roll, nor call a rule", s.span)
        body_var = Var(d.var, el, frame=True)
        proc.vars.append(body_var)
        scope.blocks[-1][d.var] = body_var
        self.block(d.body, scope)

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


def analyze(file: A.RulesFile, overrides: dict[str, Any] | None = None) -> Analysis:
    """Check a parsed rule file; the diagnostics are in the returned analysis, in the
    order of their places in the file (those about the whole file first)."""
    analysis = Checker(file, overrides).run()
    analysis.diagnostics.sort(key=lambda d: (d.span.line, d.span.column) if d.span else (0, 0))
    return analysis


# the checker's handler of each statement, by class (its methods `stmt_<class>`)
STATEMENTS = A.handlers(Checker, "stmt_")
# the statements the checker never meets: `base NAME(...)` is a call of a rule once the
# variants are merged (resolve/variants.py)
NOT_TAKEN = frozenset({A.BaseCall})

# the checker's handlers of the declarations, phase by phase, each phase over the whole file
# in its order (kind_by_kind): enums' values first (constants may refer to them), constants
# and settings, the limit, enums' fields, boards, dies and kinds, zones and what boards
# hold, dice, counters, tallies, definitions and rules, the display
Handlers = dict[type, Callable[[Any, Any], None]]
DECLARATIONS: tuple[Handlers, ...] = (
    {A.EnumDecl: Checker.enum_decl},
    {A.ConstDecl: Checker.const_decl, A.SettingDecl: Checker.setting_decl},
    {A.LimitDecl: Checker.first_limit},
    {A.EnumDecl: Checker.enum_fields},
    {A.BoardDecl: Checker.board_decl, A.DieDecl: Checker.die_decl,
     A.KindDecl: Checker.kind_decl},
    {A.ZoneDecl: Checker.zone_decl, A.BoardDecl: Checker.board_holding},
    {A.DiceDecl: Checker.dice_decl, A.CounterDecl: Checker.counter_decl,
     A.StatDecl: Checker.tally_decl, A.DefineDecl: Checker.define_decl,
     A.RuleDecl: Checker.rule_decl},
    {A.DisplayDecl: Checker.display_decl},
)
# then the procedures and what reads the game's state, once every name is declared
PROCEDURES: Handlers = {
    A.SetupDecl: Checker.setup_decl, A.PlayDecl: Checker.play_decl,
    A.RankDecl: Checker.rank_decl, A.StatDecl: Checker.measured_stat,
    A.HeuristicDecl: Checker.heuristic_decl, A.PayoffDecl: Checker.payoff_decl,
    A.TriggerDecl: Checker.trigger_decl, A.ExampleDecl: Checker.example_decl,
}
# the lines a rule file has once, checked together by file_lines
FILE_LINES = frozenset({A.GameDecl, A.PlayersDecl, A.TeamsDecl})
