"""Options as actions: a fixed numbering of every option a rule file's decisions can offer.

Stage: tools over the Python API. OpenSpiel and PettingZoo want a fixed set of actions,
numbered from 0, whose meaning stays the same from one position to the next. A rule
file's options already have stable ids ("b2", "roll", "fire-trilithon-3", "p2"); this
module numbers them before any game, from the declarations of each decision:

- a cell, a player, an enum value, a component, a die of a set, yes/no: one action per
  value the type has, in declaration order (tic-tac-toe's "a1".."c3" are actions 0..8);
- a number: one action per number of the decision's range when its ends are constants
  (connect four's columns 1..7 are actions 0..6); otherwise the numbers 0..`numbers`;
- `choose any` (a subset): one action per subset of the element type (at most
  MAX_SUBSET_ACTIONS subsets);
- a list (`choose p in pairs(city)`): one action per list of at most two elements;
- a menu option: one action per option id, shared by every menu that uses the id;
- `done`, the option of `choose optional` that takes nothing: one action.

Decisions of the same type share their actions: "c3" is one action whether a unit is
placed there or moves there. What an action means in a position is its option's label
there. A chance step's outcomes are numbered apart, as OpenSpiel does: outcome i is face
i of the die rolled.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .. import ast as A
from ..diagnostics import Diagnostic, RulesError, Span
from ..interpreter.game import Game, Rules
from .traits import statements

DONE_IDS = ("done", "done-choosing")  # the id of `choose optional`'s none (game.py)
DEFAULT_NUMBERS = 100   # a number option without constant ends: 0..100
MAX_SUBSET_ACTIONS = 1 << 12
MAX_ACTIONS = 1 << 20


class Domain:
    """A block of consecutive actions: the option ids one type of value can have."""

    def __init__(self, name: str, ids: Sequence[str], subsets: bool = False,
                 pairs: bool = False):
        self.name = name
        self.offset = 0
        self.ids = list(ids)
        self.index = {oid: i for i, oid in enumerate(self.ids)}
        self.subsets = subsets      # an id is "a+b+c": a set of element ids
        self.pairs = pairs          # an id is "a", "a+b" or "none": a list of at most two
        n = len(self.ids)
        self.size = (1 << n) if subsets else (1 + n + n * n) if pairs else n

    def local(self, oid: str) -> int | None:
        """The option id's place in this block, or None when the block has no such id."""
        if not (self.subsets or self.pairs):
            return self.index.get(oid)
        parts = [] if oid == "none" else oid.split("+")
        if any(p not in self.index for p in parts):
            return None
        places = [self.index[p] for p in parts]
        if self.subsets:
            return sum(1 << i for i in set(places))
        if len(places) > 2:
            return None
        n = len(self.ids)
        return [0, 1 + places[0], 1 + n + places[0] * n + places[-1]][len(places)] \
            if places else 0

    def id_of(self, local: int) -> str:
        """The option id of a place in this block (the inverse of `local`)."""
        if self.subsets:
            return "+".join(self.ids[i] for i in range(len(self.ids)) if local >> i & 1) \
                or "none"
        if self.pairs:
            n = len(self.ids)
            if local == 0:
                return "none"
            if local <= n:
                return self.ids[local - 1]
            a, b = divmod(local - 1 - n, n)
            return f"{self.ids[a]}+{self.ids[b]}"
        return self.ids[local]


class ActionSpace:
    """The actions of one rule file for a number of players (a player is an option's
    value in some decisions): `size` actions, each site's options mapped into them."""

    def __init__(self, rules: Rules, players: int, numbers: int = DEFAULT_NUMBERS):
        self.rules = rules
        self.players = players
        self.numbers = numbers
        self.domains: dict[str, Domain] = {}
        self.site_domain: list[Domain | None] = []  # None: a chance step
        self.done: Domain | None = None
        written = {n.span: n for n in statements(rules)
                   if isinstance(n, (A.Choose, A.ChooseAny, A.ChooseMenu, A.Offer))}
        menu_ids: list[str] = []
        for site in rules.program.sites:
            menu_ids += [oid for oid, _ in site.menu if oid not in menu_ids]
        for site in rules.program.sites:
            if site.kind in ("roll", "die"):
                self.site_domain.append(None)
                continue
            if site.kind == "menu":
                self.site_domain.append(self._domain("menu", lambda: menu_ids))
                continue
            node = written.get(site.span)
            if isinstance(node, (A.Choose, A.Offer)) and node.optional and self.done is None:
                self.done = self._domain("done", lambda: ["done"])
            self.site_domain.append(self._typed(site, node))
        offset = 0
        for domain in self.domains.values():
            domain.offset = offset
            offset += domain.size
        self.size = max(offset, 1)  # OpenSpiel wants at least one action
        if offset > MAX_ACTIONS:
            raise self._cannot(f"its options would need {offset:,} actions (at most "
                               f"{MAX_ACTIONS:,})", None)
        self.chance_size = max(rules.dies.values(), default=0)

    def _domain(self, name: str, ids: Any, **kind: bool) -> Domain:
        if name not in self.domains:
            self.domains[name] = Domain(name, ids(), **kind)
        return self.domains[name]

    def _typed(self, site: Any, node: Any) -> Domain:
        """The block of a `choose` or `choose any` site, by the type of its values."""
        t = site.type
        if site.kind == "any" or (isinstance(t, tuple) and t[0] == "list"):
            inner = t[1] if isinstance(t, tuple) and t[0] == "list" else "any"
            ids = self._values(inner, None, site.span)
            if site.kind == "any":
                if 1 << len(ids) > MAX_SUBSET_ACTIONS:
                    raise self._cannot(f"choosing any of {len(ids)} values would need "
                                       f"{1 << len(ids):,} actions (at most "
                                       f"{MAX_SUBSET_ACTIONS:,})", site.span)
                return self._domain(f"subsets of {inner}", lambda: ids, subsets=True)
            return self._domain(f"lists of {inner}", lambda: ids, pairs=True)
        if t == "int" and _is_turns(node):
            return self._domain("turns", lambda: ["0", "90", "180", "270"])
        if t == "int":
            low, high = self._number_range(node)
            key = f"numbers {low}..{high}"
            return self._domain(key, lambda: [str(n) for n in range(low, high + 1)])
        return self._domain(str(t), lambda: self._values(t, node, site.span))

    def _values(self, t: Any, node: Any, span: Span) -> list[str]:
        """The option ids of every value of a type with a fixed set of values."""
        disp = self.rules.program.display
        if isinstance(t, tuple):
            if t[0] == "cell":
                return list(disp.boards[t[1]])
            if t[0] == "enum":
                return list(disp.enums[t[1]][0])
            if t[0] == "comp":
                return list(disp.components[t[1]][0])
            if t[0] == "die":
                return [disp.option_id(i, t) for i in range(self.rules.dice[t[1]].count)]
        if t == "player":
            return [disp.option_id(p, t) for p in range(self.players)]
        if t == "bool":
            return ["yes", "no"]
        if t == "int":
            low, high = self._number_range(node)
            return [str(n) for n in range(low, high + 1)]
        raise self._cannot(f"its options here are values of no fixed set "
                           f"({_type_name(t)}): they cannot be numbered as actions", span)

    def _number_range(self, node: Any) -> tuple[int, int]:
        """The numbers a decision can offer: its range when both ends are constants."""
        domain = node.domain if isinstance(node, (A.Choose, A.Offer)) else None
        if isinstance(domain, A.Binary) and domain.op == "..":
            low, high = self._constant(domain.left), self._constant(domain.right)
            if low is not None and high is not None and high - low < MAX_ACTIONS:
                return low, max(high, low)
        return 0, self.numbers

    def _constant(self, e: Any) -> int | None:
        if isinstance(e, A.IntLit):
            return e.value
        if isinstance(e, A.Name):
            try:
                value = self.rules.value(e.name)
            except KeyError:  # not a constant: a counter, a local
                return None
            return value if type(value) is int else None
        if isinstance(e, A.Unary) and e.op == "-":
            inner = self._constant(e.operand)
            return -inner if inner is not None else None
        return None

    def _cannot(self, why: str, span: Span | None) -> RulesError:
        return RulesError([Diagnostic("C003", "this rule file cannot be an OpenSpiel game "
                                      f"or a PettingZoo environment: {why}", span)],
                          self.rules.sources)

    # ---- in a game ---------------------------------------------------------------------

    def legal(self, game: Game) -> dict[int, int]:
        """The pending decision's actions, each with the index of its option."""
        site = game.step_site
        assert site is not None
        domain = self.site_domain[site]
        out: dict[int, int] = {}
        for i, option in enumerate(game.options()):
            if domain is None:  # a chance step: outcome i is face i
                out[i] = i
                continue
            local = domain.local(option.id)
            if local is not None:
                action = domain.offset + local
            elif option.id in DONE_IDS and self.done is not None:
                action = self.done.offset
            else:
                raise RulesError([Diagnostic(
                    "G005", f"the option '{option.id}' ({option.label}) has no action: "
                    f"{_beyond(domain, option.id)}",
                    self.rules.program.sites[site].span,
                    hint="a number option beyond the actions: load the game with a "
                         "larger `numbers`" if domain.name.startswith("numbers") else None)],
                    self.rules.sources)
            out.setdefault(action, i)
        return out

    def name(self, action: int) -> str:
        """The option id an action stands for, in any position."""
        for domain in self.domains.values():
            if domain.offset <= action < domain.offset + domain.size:
                return domain.id_of(action - domain.offset)
        raise ValueError(f"there is no action {action} (the actions are 0 to "
                         f"{self.size - 1})")


def _beyond(domain: Domain, oid: str) -> str:
    if domain.name.startswith("numbers"):
        return f"the actions of this decision number {domain.ids[0]} to {domain.ids[-1]}"
    if domain.pairs:
        return "the actions number lists of at most two values"
    return f"it is not among the {domain.name} values"


def _type_name(t: Any) -> str:
    if isinstance(t, tuple):
        return " of ".join(str(x) for x in t)
    return {"text": "text", "any": "values of any kind"}.get(t, str(t))


def _is_turns(node: Any) -> bool:
    """Whether a choice is among the turns of a tile (`choose r in turns(c, t)`): its
    options are 0, 90, 180 and 270, four actions."""
    domain = node.domain if isinstance(node, A.Choose) else None
    return isinstance(domain, A.Call) and domain.func == "turns"
