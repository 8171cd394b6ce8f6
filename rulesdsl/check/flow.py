"""Checking the flow of play: simultaneous secret steps, offers, turn order, teams, and the
named points of the flow where examples may start.

Stage: check. These statements and declarations build on the rest of the checker:
- `each p in players chooses in secret: ... then reveal: ...`: the first block may only
  choose (every decision its seat's own) and change local names and p's own `secret`
  counters, so that nothing another seat sees changes before every seat has chosen;
- `offer x in xs by p to q: accept: ... refuse: ...`;
- `turns ... going d` (a value of the built-in enum Direction) and `all at once`;
- `teams of N`, `rank team t by ...` and `team(p)`;
- `point NAME` and `example "..." from NAME`: a point an example can start at lies on one
  path of calls from the play block, with no local name or loop whose place the game
  would need to know.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import ast as A
from ..declarations import EnumInfo
from .analysis import Proc, Scope, plural, walk
from .bindings import CounterRef, Var, VarRef
from .declarations import DeclarationChecker
from .types import ANY, BOOL, INT, PLAYER, Type, compatible, list_of, with_article

DIRECTION = "Direction"
DIRECTIONS = ("clockwise", "anticlockwise")

# what a secret step's first block may not do: each changes what another seat sees, waits
# for chance or another seat, or leaves the step
NOT_IN_SECRET: dict[type, str] = {
    A.Place: "'place' changes a board", A.Clear: "'clear' changes a board",
    A.Move: "'move' changes a zone", A.Shuffle: "'shuffle' changes a zone",
    A.Roll: "a roll is public", A.LetRoll: "a roll is public",
    A.Reveal: "'reveal' shows dice to everyone",
    A.Say: "'say' tells the other players something",
    A.Win: "'win' ends the game", A.Draw: "'draw' ends the game",
    A.EndGame: "'end game' ends the game", A.EndTurn: "'end turn' leaves the step",
    A.NextTurn: "'next turn to' changes whose turn is next",
    A.CallRule: "a rule may change anything", A.Turns: "'turns' hands the step to others",
    A.SecretStep: "a secret step cannot hold another",
    A.Offer: "an offer asks another player",
}


class FlowChecker(DeclarationChecker):
    """The statements and declarations of the flow of play."""

    def __init__(self, file: A.RulesFile, overrides: dict[str, Any] | None = None):
        super().__init__(file, overrides)
        self.seats: list[Var] = []  # the seat of each enclosing secret step, innermost last
        self.point_nodes: dict[str, tuple[Proc, A.Point]] = {}
        self.teams_declared = False  # a `teams` line, even one E082 refused

    if TYPE_CHECKING:
        # the statements' checks, defined by checker.py (the layer above this one)
        def stmt(self, s: Any, scope: Scope) -> None:
            ...

        def block(self, stmts: list, scope: Scope, bind: dict[str, Var] | None = None) -> None:
            ...

        def bind(self, node: A.Node, name: str, t: Type) -> Var:
            ...

        def option_scope(self, s: Any, t: Type, scope: Scope, where: A.Expr | None,
                         label: A.StrLit | None) -> None:
            ...

    # ---- declarations --------------------------------------------------------------------

    def builtin_enums(self) -> None:
        """The built-in enum Direction (clockwise, anticlockwise), for `turns ... going d`;
        a name the rule file declares itself stays the file's."""
        free = [v for v in DIRECTIONS if v not in self.first]
        if DIRECTION in self.first or not free:
            return
        self.a.enums[DIRECTION] = EnumInfo(DIRECTION, list(DIRECTIONS), list(DIRECTIONS))
        for i, name in enumerate(DIRECTIONS):
            if name in free:
                self.a.enum_values[name] = (DIRECTION, i)

    def teams_decl(self, items: list) -> None:
        found = [i for i in items if isinstance(i, A.TeamsDecl)]
        for again in found[1:]:
            self.err("E021", "a second 'teams' line", again.span)
        if not found:
            return
        self.teams_declared = True
        d = found[0]
        low, high = self.a.min_players, self.a.max_players
        bad = [n for n in range(low, high + 1) if d.size < 1 or n % d.size or n // d.size < 2]
        if bad:
            counts = ", ".join(str(n) for n in bad)
            self.err("E082", f"teams of {d.size} cannot be made with {counts} player"
                     f"{'s' if bad != [1] else ''}: every player count must make two or more "
                     "teams of that size", d.span,
                     hint=f"allow only counts that are multiples of {max(d.size, 1)}, from "
                          f"{2 * max(d.size, 1)}: players {2 * max(d.size, 1)}")
            return
        self.a.team_size = d.size

    def rank_decl(self, d: A.RankDecl) -> None:
        teams = self.a.team_size > 0
        if self.teams_declared and not teams:
            pass  # the teams line has its own error
        elif d.team and not teams:
            self.err("E083", "'rank team' ranks teams, and this game has none", d.span,
                     hint="declare the teams: teams of 2")
        elif teams and not d.team:
            self.err("E083", "in a game of teams, the teams are ranked, not the players",
                     d.span, hint=f"write: rank team t by sum(... for {d.var} in t), ...")
        if not d.team:
            super().rank_decl(d)
            return
        self.a.rank = d
        scope = Scope(Proc("rank", "rank", [], [d.var], d.span))
        var = Var(d.var, list_of(PLAYER), frame=False)
        self.a.candidate[id(d)] = var
        scope.blocks[-1][d.var] = var
        for key in d.keys:
            t = self.expr(key, scope)
            if t not in (INT, BOOL, ANY):
                self.err("E030", f"teams are ranked by numbers, not {with_article(t)}",
                         key.span)

    def call(self, e: A.Call, scope: Scope) -> Type:
        if e.func == "team" and e.func not in self.a.defines and not self.teams_declared:
            self.err("E083", "team(p) names a player's team, and this game has none", e.span,
                     hint="declare the teams: teams of 2")
        return super().call(e, scope)

    # ---- statements ----------------------------------------------------------------------

    def stmt_ExpectOptions(self, s: A.ExpectOptions, scope: Scope) -> None:
        if scope.proc.kind != "example" or len(scope.blocks) > 2:
            self.err("E043", "'expect options' checks the decision an example's game is "
                     "waiting for; it belongs at the top of an example block", s.span)

    def decider_ok(self, by: A.Expr | None, seat: Var) -> None:
        """Inside a secret step, a decision is its seat's own."""
        if by is None:
            return
        ref = self.a.binding.get(id(by))
        if not (isinstance(ref, VarRef) and ref.var is seat):
            self.err("E081", f"in a secret step each seat makes its own decisions: this one "
                     f"is {seat.name}'s", by.span, hint="leave out 'by ...'")

    def stmt_SecretStep(self, s: A.SecretStep, scope: Scope) -> None:
        t = self.expr(s.seats, scope)
        if not (compatible(t, list_of(PLAYER)) and t != PLAYER):
            self.err("E030", f"'each ... chooses in secret' goes through a list of players, "
                     f"not {with_article(t)}", s.seats.span)
        var = self.bind(s, s.var, PLAYER)
        loops, scope.loops = scope.loops, 0  # 'break' may not leave the step
        self.seats.append(var)
        scope.blocks.append({s.var: var})
        for stmt in s.body:
            self.stmt(stmt, scope)
        top = scope.blocks.pop()
        self.seats.pop()
        scope.loops = loops
        self.secret_body(s, var)
        self.a.held[id(s)] = [v for name, v in top.items() if v is not var and v.frame]
        if s.reveal is not None:
            scope.blocks.append(top)
            for stmt in s.reveal:
                self.stmt(stmt, scope)
            scope.blocks.pop()

    def secret_body(self, s: A.SecretStep, seat: Var) -> None:
        """What the first block of a secret step may not do."""
        for x in walk(s.body):
            why = NOT_IN_SECRET.get(type(x))
            if why is not None:
                self.err("E080", f"{why}: in a secret step a seat only chooses, and changes "
                         f"local names and its own secret counters", x.span,
                         hint="do it in 'then reveal:', once every seat has chosen")
            elif isinstance(x, (A.Choose, A.ChooseAny, A.ChooseMenu)):
                self.decider_ok(x.by, seat)
            elif isinstance(x, (A.Set, A.Add)):
                self.secret_target(x.target, seat)

    def secret_target(self, t: A.Target, seat: Var) -> None:
        ref = self.a.binding.get(id(t))
        if ref is None or isinstance(ref, VarRef):
            return
        info = self.a.counters.get(t.name) if isinstance(ref, CounterRef) else None
        own = False
        if info is not None and info.secret and info.dims and info.dims[0][0] == "player":
            key = t.of.items[0] if isinstance(t.of, A.TupleLit) else t.of
            key_ref = self.a.binding.get(id(key))
            own = isinstance(key_ref, VarRef) and key_ref.var is seat
        if not own:
            self.err("E080", f"{t.name} is seen by the other players: in a secret step a seat "
                     f"changes only local names and its own secret counters "
                     f"('... of {seat.name}' of a secret counter kept per player)", t.span,
                     hint="do it in 'then reveal:', once every seat has chosen")

    def choice(self, s: A.Choose | A.Offer, scope: Scope, word: str) -> Var:
        """What a choice (or an offer) offers: its list, who decides, the filter and the
        labels; returns the name it binds."""
        el = self.domain(s.domain, scope)
        b = self.bind(s, s.var, el)
        if not s.optional:  # `choose optional` binds none for its `done`
            self.a.item_of[id(b)] = s.domain
        self.want(s.by, PLAYER, scope, "who chooses" if word == "choose" else "who offers")
        self.option_scope(s, el, scope, s.where, s.label)
        if s.done_label is not None:
            if not s.optional:
                self.err("E042", f"only '{word} optional' has a 'done' option to label",
                         s.done_label.span, hint=f"write '{word} optional', or drop the "
                         "'or \"...\"'")
            self.expr(s.done_label, scope)
        return b

    def stmt_Offer(self, s: A.Offer, scope: Scope) -> None:
        b = self.choice(s, scope, "offer")
        self.want(s.to, PLAYER, scope, "who is offered")
        seen: set[bool] = set()
        for answer in s.answers:
            if answer.accept in seen:
                word = "accept" if answer.accept else "refuse"
                self.err("E021", f"a second '{word}' answer to one offer", answer.span)
            seen.add(answer.accept)
            scope.blocks.append({s.var: b})
            if answer.label is not None:
                self.expr(answer.label, scope)
            self.block(answer.body, scope)
            scope.blocks.pop()

    def stmt_Point(self, s: A.Point, scope: Scope) -> None:
        if scope.proc.kind not in ("play", "rule"):
            self.err("E084", "a point of the flow belongs in the play block or in a rule it "
                     "calls", s.span)
            return
        if s.name in self.point_nodes:
            self.err("E021", f"a second point named '{s.name}'", s.span,
                     hint="give every point its own name")
            return
        self.point_nodes[s.name] = (scope.proc, s)

    # ---- where examples may start ---------------------------------------------------------

    def flow_points(self) -> None:
        """Each point's path of calls from the play block, or the reason an example cannot
        start there (E084); then each example's `from` (E085)."""
        flow = [p for p in self.a.procs if p.kind in ("play", "rule")]
        calls: dict[str, list[tuple[Proc, A.CallRule, str | None]]] = {}
        places: dict[int, str | None] = {}
        for proc in flow:
            for node, why in places_in(proc.body):
                if isinstance(node, A.CallRule):
                    calls.setdefault(node.name, []).append((proc, node, why))
                else:
                    places[id(node)] = why
        # the examples that start at each point: a point no example starts at need not be
        # one a game can start at (a variant's new flow may leave its base's points aside)
        starting: dict[str, list[str]] = {}
        for proc in self.a.procs:
            if proc.example is not None and proc.example.start is not None:
                starting.setdefault(proc.example.start, []).append(proc.example.name)
        for name, (proc, node) in self.point_nodes.items():
            chain, why = _path(proc, node, places[id(node)], calls, self.a.rules)
            if chain is not None:
                self.a.points[name] = chain
            elif name in starting:
                first = starting[name][0]
                self.err("E084", f"an example cannot start at point {name}: {why}", node.span,
                         hint="put the point where the game needs no local name and no "
                              "loop's place: in the play block, or in a rule called once "
                              f"from it; or let no example start there (example \"{first}\" "
                              "does)")
        for proc in self.a.procs:
            d = proc.example
            if d is None or d.start is None:
                continue
            if d.start not in self.point_nodes:
                known = ", ".join(sorted(self.point_nodes)) or "none (write 'point NAME' in "\
                    "the flow)"
                self.err("E085", f"example '{d.name}' starts from '{d.start}', which is no "
                         "point of the flow", d.start_span or d.span, hint=f"points: {known}")


def places_in(stmts: list, why: str | None = None) -> list[tuple[Any, str | None]]:
    """Every call of a rule and every point in a block, each with the reason (if any) an
    example could not start the game there: a local name bound before it, or a loop,
    choice or step around it whose place the game would need."""
    out: list[tuple[Any, str | None]] = []
    for s in in_place(stmts):
        if isinstance(s, (A.CallRule, A.Point)):
            out.append((s, why))
        if A.bodies(s):
            held = A.handler(HELD, s, "the places an example may start at")(s)
            for body in A.bodies(s):
                out += places_in(body, why or held)
        name = _bound_name(s)
        if name is not None and why is None:
            why = f"after the local name '{name}' (line {s.span.line}), which would have no value"
    return out


def _line(s: Any) -> str:
    return f"(line {s.span.line})"


# why an example cannot start the game inside each statement with a block (None: it may,
# as far as that statement goes); a step is written out in place before (`in_place`)
HELD: dict[type, Any] = {
    A.If: lambda s: None,
    A.While: lambda s: None,
    A.Repeat: lambda s: None if s.count is None else f"inside 'repeat ... times' {_line(s)}",
    A.ForEach: lambda s: f"inside 'for each {s.var}' {_line(s)}",
    A.Turns: lambda s: f"inside 'turns' {_line(s)}",
    A.Choose: lambda s: f"inside the choice of {s.var} {_line(s)}",
    A.ChooseAny: lambda s: f"inside the choice of {s.var} {_line(s)}",
    A.ChooseMenu: lambda s: None,
    A.SecretStep: lambda s: f"inside 'each {s.var} ... chooses in secret' {_line(s)}",
    A.Offer: lambda s: f"inside the offer of {s.var} {_line(s)}",
}


def in_place(stmts: list) -> list:
    """A block with each `step NAME:` written out in place (a step is only a name a variant
    may change a part of a rule by: what it binds stays bound after it)."""
    out: list = []
    for s in stmts:
        out += in_place(s.body) if isinstance(s, A.Step) else [s]
    return out


def _bound_name(s: Any) -> str | None:
    """The local name a statement binds for the rest of its block."""
    if isinstance(s, (A.Let, A.LetRoll)):
        return s.name
    if isinstance(s, (A.Choose, A.ChooseAny)) and s.body is None:
        return s.var
    return None


def _path(proc: Proc, node: Any, why: str | None, calls: dict, rules: dict,
          seen: tuple[str, ...] = ()) -> tuple[list | None, str]:
    """The chain of (procedure, node) from the play block down to `node` in `proc`, each
    node the call (or, last, the point) where that procedure stands; or None and why not."""
    if why is not None:
        return None, f"it is {why}"
    if proc.kind == "play":
        return [(("play", "play"), node)], ""
    rule = rules.get(proc.name)
    if rule is not None and rule.params:
        return None, (f"rule {proc.name} takes {plural(len(rule.params), 'parameter')}, "
                      "which the game would not know")
    if proc.name in seen:
        return None, f"rule {proc.name} calls itself"
    sites = calls.get(proc.name, [])
    if len(sites) != 1:
        where = "nowhere in the flow" if not sites else f"from {len(sites)} places"
        return None, (f"rule {proc.name} is called {where}, and the game would not know "
                      "where to go on from")
    caller, call, call_why = sites[0]
    chain, problem = _path(caller, call, call_why, calls, rules, (*seen, proc.name))
    if chain is None:
        return None, f"{problem} (rule {proc.name} is called there)"
    return [*chain, ((proc.kind, proc.name), node)], ""
