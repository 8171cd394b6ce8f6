"""Information-set MCTS: search what the seat may know, over many made-up games.

Stage: run (agents). MCTS on one made-up game plays as if that game were the real one: it
"knows" the hidden cards and the order of the deck it made up. ISMCTS makes up a new game
for every simulation (`observation.sample_game`: hidden cards dealt afresh, other seats'
secret choices drawn afresh, a new future), so its statistics are over the games the seat
cannot tell apart.

The trees are per seat (multiple-observer ISMCTS, after Cowling, Powley and Whitehouse,
2012): a node of seat q's tree is what q has been told since the search began, so two
made-up games that told q the same lines meet in the same node. At q's own decision the
node's options are its option ids; what follows a step is keyed by the lines of the log
that q was told during it (the engine narrates every decision, a secret one to its
chooser only, and every roll; the rules' `say` lines follow their audience). So q's tree
does not tell apart what q cannot see: another seat's secret choice is one branch, "player
2 chooses in secret", while a card q draws, being told it, is a branch per card. Each
seat chooses in its own tree, by UCB1 over the options available in this made-up game,
counting the visits in which each was available (not the parent's visits).

Chance steps take an outcome drawn with the probability the game gives it. Rollouts are
those of MCTS (`search.py`), on a copy that is not narrated.

Progressive widening (`widen=C`, `wide=N`, as for MCTS): a decision of more than N options
opens a new option only while it has fewer than C * sqrt(its visits) open, so that where a
turn offers dozens of places the simulations, each in a new made-up game, go to a few. The
searching seat's own options are opened best first by its margin one step on in the first
made-up game (`standing_worth`); the other decisions open theirs at random.
"""

from __future__ import annotations

import math
import random
from typing import Any

from ..interpreter.game import Game
from ..interpreter.observation import Observation
from .parameters import Parameter
from .search import (
    SEARCH_PARAMETERS,
    WIDENING_PARAMETERS,
    Budget,
    Report,
    Returns,
    Scale,
    Settings,
    mean_worth,
    rank_prior,
    returns_of,
    rollout,
    score_share,
    standing_worth,
)


class Edge:
    """An option of a seat at one of its nodes: visits, sums of the seat's place return and
    margin, how often it was available, and the nodes after it, by what the seat was told."""

    __slots__ = ("n", "w", "m", "avail", "after")

    def __init__(self) -> None:
        self.n = 0
        self.w = 0.0
        self.m = 0.0
        self.avail = 0
        self.after: dict[tuple[str, ...], Info] = {}


class Info:
    """A node of one seat's tree: the seat's own options (by id), how often the seat
    decided here, and, after another seat's step or a chance step, the next nodes by what
    the seat was told."""

    __slots__ = ("edges", "after", "n")

    def __init__(self) -> None:
        self.edges: dict[str, Edge] = {}
        self.after: dict[tuple[str, ...], Info] = {}
        self.n = 0


class Search:
    """One ISMCTS search for the seat of an observation."""

    def __init__(self, observation: Observation, settings: Settings, rng: random.Random,
                 widen: float = 0.0, wide: int = 0):
        self.observation = observation
        self.settings = settings
        self.rng = rng
        self.widen = widen
        self.wide = wide
        first = observation.sample_game(rng)
        self.first: Game | None = first
        self.lam = score_share(settings, first)
        self.has_heuristic = first.heuristic() is not None
        self.scale = Scale()
        self.roots = [Info() for _ in range(observation.players)]
        self.own = self.roots[observation.seat]
        self.prior: dict[str, float] = {}  # by option id: the margin one step on
        self.ranks: dict[str, float] = {}   # by option id: its rank among those, 0 to 1
        if (widen and self._is_wide(len(observation.options))) or settings.bias:
            ids = first.option_ids()
            worth = standing_worth(first, range(len(ids)), observation.seat)
            self.prior = {ids[i]: w for i, w in worth.items()}
            if settings.bias:
                self.ranks = {ids[i]: r for i, r in rank_prior(worth).items()}

    def run(self, budget: Budget) -> None:
        while budget.more():
            world, self.first = self.first or self.observation.sample_game(self.rng), None
            self.simulate(world)

    def simulate(self, world: Game) -> None:
        game = world.copy()  # without the made-up game's log: only new lines are read
        game.auto_chance = False
        game.narrate()
        players = game.players
        nodes = self.roots[:]
        path: list[tuple[int, Edge]] = []
        since = 0
        fresh = False
        while not game.over and not fresh:
            edge = None
            p = game.decider
            if p is None:
                chance = game.chance
                assert chance is not None
                odds = [w for _, w in chance.outcomes]
                game.roll_chance(self.rng.choices(range(len(odds)), odds)[0])
            else:
                edge, i, fresh = self._select(nodes[p], game.option_ids())
                game.apply_index(i)
                path.append((p, edge))
            told = game.lines(since)
            since += len(told)
            for q in range(players):
                key = tuple(line.text for line in told if line.told(q))
                after = edge.after if q == p and edge is not None else nodes[q].after
                node = after.get(key)
                if node is None:
                    node = after[key] = Info()
                nodes[q] = node
        if game.over:
            ret = returns_of(game, self.lam > 0)
        else:
            ret = rollout(game.copy(), self.rng, self.settings, self.has_heuristic,
                          self.lam > 0)
        self._backup(path, ret)

    def _select(self, node: Info, ids: list[str]) -> tuple[Edge, int, bool]:
        """The option to take at `node` (an edge, its index, whether it is new): one never
        tried while the node may open one (always, without widening), else the best by
        UCB1 among those available here."""
        edges = node.edges
        untried = [i for i, oid in enumerate(ids) if oid not in edges]
        available = [(i, edges[oid]) for i, oid in enumerate(ids) if oid in edges]
        for _, e in available:
            e.avail += 1
        opens = untried and (not available or self._opens(node, len(ids)))
        node.n += 1
        if opens:
            i = self._first_of(node, untried, ids)
            edge = edges[ids[i]] = Edge()
            edge.avail = 1
            return edge, i, True
        c, lam, unit = self.settings.c, self.lam, self.scale.unit
        prior = self.ranks if node is self.own else None
        bias = self.settings.bias if prior else 0.0
        best, top = available[0], float("-inf")
        for i, e in available:
            v = e.w / e.n
            if lam:
                v = (1 - lam) * v + lam * unit(e.m / e.n)
            v += c * math.sqrt(math.log(e.avail) / e.n)
            if bias:
                v += bias * prior.get(ids[i], 0.0) / (e.n + 1)  # type: ignore[union-attr]
            if v > top:
                best, top = (i, e), v
        return best[1], best[0], False

    def _is_wide(self, options: int) -> bool:
        return not self.wide or options > self.wide

    def _opens(self, node: Info, options: int) -> bool:
        """Whether a decision opens a new option now: always without `widen`; with it,
        while fewer than `widen` * sqrt(the node's visits) are open (at least one)."""
        if not self.widen or not self._is_wide(options):
            return True
        opened = len(node.edges)
        return opened < 1 or opened < self.widen * math.sqrt(node.n)

    def _first_of(self, node: Info, untried: list[int], ids: list[str]) -> int:
        """The untried option to open: at the searching seat's first decision with
        widening, the best by the prior; elsewhere one at random."""
        if node is self.own and self.prior:
            prior = self.prior
            return max(untried, key=lambda i: prior.get(ids[i], float("-inf")))
        return untried[self.rng.randrange(len(untried))] if len(untried) > 1 else untried[0]

    def _backup(self, path: list[tuple[int, Edge]], ret: Returns) -> None:
        places, margin = ret
        if margin is not None:
            self.scale.see(margin)
        for seat, edge in path:
            edge.n += 1
            edge.w += places[seat]
            if margin is not None:
                edge.m += margin[seat]

    def choice(self) -> tuple[int, float]:
        """The seat's option visited most (ties: the better mean), and its mean worth."""
        root = self.roots[self.observation.seat]
        best, key, mean = 0, (-1, -1.0), 0.0
        for i, option in enumerate(self.observation.options):
            edge = root.edges.get(option.id)
            if edge is None or edge.n == 0:
                continue
            k = (edge.n, mean_worth(edge.w, edge.m, edge.n, self.lam, self.scale))
            if k > key:
                best, key, mean = i, k, k[1]
        return best, mean


class ISMCTSAgent:
    """Information-set MCTS: a new made-up game each simulation, a tree per seat.

    See the module's docstring."""

    name = "ismcts"
    PARAMETERS: tuple[Parameter, ...] = SEARCH_PARAMETERS + WIDENING_PARAMETERS

    def __init__(self, seed: int = 0, widen: float = 0.0, wide: int = 0, **params: Any):
        self.rng = random.Random(seed)
        self.settings = Settings.of(params)
        if widen < 0 or wide < 0:
            raise ValueError("widen and wide must be at least 0")
        self.widen = widen
        self.wide = wide
        self.last: Report | None = None

    def choose(self, observation: Observation) -> int:
        budget = Budget(self.settings)
        if observation.num_options == 1:
            self.last = budget.report(1.0)
            return 0
        search = Search(observation, self.settings, self.rng, self.widen, self.wide)
        search.run(budget)
        best, mean = search.choice()
        self.last = budget.report(mean)
        return best
