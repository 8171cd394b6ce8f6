"""MCTS (UCT) for any game: search a game made up from the seat's observation.

Stage: run (agents). For each move, the agent asks its observation for a game consistent
with what the seat has seen (`sample_game`: in a game without hidden information, the game
itself with a new future) and searches it with UCT: each simulation copies the game,
descends the tree by the UCB1 rule (the mean return of an option plus `c` times
sqrt(ln N / n)), adds one node, plays on with the rollout policy, and backs up what the
end is worth to each seat (`search.py`). A tree node is a position of the made-up game:
the seat that decides chooses by its own return (max^n, for any number of players).

Chance steps the rules pause at (rolls) are nodes of their own, with the outcomes and
probabilities the game lists (`game.chance`): each visit takes the outcome furthest below
its share of the visits, so a node's mean is the expectation over outcomes, not a noisy
sample of it; above CHANCE_SPREAD outcomes, an outcome is drawn with its probability.
Shuffles and draws happen inside the rules: within the tree they follow the made-up game
(it is one possible world), in rollouts they are drawn afresh.

Finished games are proved (MCTS-Solver): a position where the seat to move has an option
proved to win alone, or whose options are all proved, is proved with the best of them,
and a chance step whose outcomes are all proved alike is proved too. A proved win is
played at once; a proved loss is avoided while anything else is open. When every option
is proved no better than a loss (or a draw), the rest of the budget goes to a search
without proofs, among whose options the best proved are taken by visits: the bot does
not resign to a perfect opponent it may not face, but keeps the lines where the
opponent most often goes wrong.

Progressive widening (`widen=C`, off by default): a decision opens a new option only while
it has fewer than C * sqrt(visits) open, so where there are hundreds of options (a tile's
places) the simulations go to a few; the first position's options are then opened best
first by the decider's margin one step on (the rules' heuristic, or the scores). With
`wide=N` only a decision of more than N options is widened: the others open every option.

With hidden information, this is MCTS on a sampled state: it plays as if the made-up game
were the real one (it never sees the real one). `worlds=K` shares the simulations between
K made-up games and adds up the visits of the seat's options (which are the same in all).
ISMCTS (`ismcts.py`) searches what the seat may know instead.
"""

from __future__ import annotations

import json
import math
import random
from typing import Any

from ..interpreter.game import Game
from .search import (
    Budget,
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

CHANCE_SPREAD = 64  # chance steps with more outcomes are sampled, not spread


class Node:
    """A position of the searched game. `n` visits; `w` and `m`, the sums of the place
    return and of the margin, for the seat whose choice leads here; `kids` by option index
    (None until first taken); `seat` who decides here (-1: chance); `untried`, a decision's
    options not taken yet, or a chance step's outcomes in the order ties are broken;
    `odds`, a chance step's probabilities; `proved`, the returns when the end from here is
    known."""

    __slots__ = ("n", "w", "m", "kids", "untried", "seat", "odds", "proved")

    def __init__(self) -> None:
        self.n = 0
        self.w = 0.0
        self.m = 0.0
        self.kids: list[Node | None] | None = None
        self.untried: list[int] = []
        self.seat = -2
        self.odds: list[float] = []
        self.proved: Returns | None = None


class Search:
    """One UCT search of one made-up game, for the seat deciding in it.

    `root` and `scale`: a tree kept from the last move and the margins it had seen
    (`roots.carry`): its nodes may not fit this made-up game, so every node is checked
    as the descent reaches it and opened afresh where it does not. `table`: transpositions,
    the nodes by the key of what the searching seat would see there (`seen_key`), so two
    lines to one position the seat cannot tell apart share their statistics."""

    def __init__(self, world: Game, settings: Settings, rng: random.Random, solve: bool,
                 widen: float = 0.0, root: Node | None = None, scale: Scale | None = None,
                 table: dict[str, Node] | None = None, wide: int = 0):
        self.world = world
        self.widen = widen
        self.wide = wide  # with widen: only a decision of more than `wide` options widens
        self.settings = settings
        self.rng = rng
        self.solve = solve
        self.lam = score_share(settings, world)
        self.has_heuristic = world.heuristic() is not None
        self.scale = scale if scale is not None else Scale()
        self.root = root if root is not None else Node()
        self.table = table
        self.viewer = world.decider if world.decider is not None else 0
        # nodes from elsewhere (a kept tree, another line) are checked against the game
        self.checked = root is not None or table is not None
        self.prior: dict[int, float] = {}  # progressive bias at the first position

    def run(self, budget: Budget, sims: int) -> None:
        """Up to `sims` simulations within the budget (fewer once the root is proved)."""
        bias = self.settings.bias
        if (self.widen or bias) and self.root.kids is None and not self.world.over:
            self._expand(self.root, self.world.copy())
            wide = self.widen and self._is_wide(self.root)
            if (wide or bias) and self.root.seat >= 0:
                worth = standing_worth(self.world, list(self.root.untried),
                                       self.root.seat)
                if wide and worth:
                    self.root.untried.sort(key=worth.__getitem__)  # popped: best first
                if bias:
                    self.prior = rank_prior(worth)
        for _ in range(sims):
            if self.root.proved is not None or not budget.more():
                return
            self.simulate()

    def simulate(self) -> None:
        game = self.world.copy()
        game.auto_chance = False
        node = self.root
        path = [node]
        while not game.over:
            if node.kids is None:
                self._expand(node, game)
            elif self.checked and not fits(node, game):
                node.kids, node.proved = None, None
                self._expand(node, game)
            assert node.kids is not None
            fresh = False
            if node.seat < 0:
                i = self._outcome(node)
                game.roll_chance(i)
            else:
                if node.untried and self._widens(node):
                    i = node.untried.pop()
                else:
                    i = self._select(node, self.prior if node is self.root else None)
                game.apply_index(i)
            kid = node.kids[i]
            if kid is None:  # a new node (a new outcome, too) ends the descent
                kid, fresh = self._new_node(node.seat, game)
                node.kids[i] = kid
            path.append(kid)
            node = kid
            if fresh:
                break
        if game.over:
            ret = returns_of(game, self.lam > 0)
            if self.solve:
                node.proved = ret
        else:
            ret = rollout(game, self.rng, self.settings, self.has_heuristic, self.lam > 0)
        self._backup(path, ret)

    def _new_node(self, mover: int, game: Game) -> tuple[Node, bool]:
        """The node after a step (`mover`: who took it, -1 chance), and whether it is new:
        with transpositions, the node of a position the searching seat would see alike
        after a step of the same mover, where the search has one."""
        if self.table is None or game.over:
            return Node(), True
        key = f"{mover}|{seen_key(game.view(self.viewer))}"
        kid = self.table.get(key)
        if kid is not None:
            return kid, False
        kid = self.table[key] = Node()
        return kid, True

    def _expand(self, node: Node, game: Game) -> None:
        n = game.num_options()
        node.kids = [None] * n
        if game.is_chance:
            node.seat = -1
            chance = game.chance
            assert chance is not None
            node.odds = [p for _, p in chance.outcomes]
            node.untried = list(range(n))  # the order in which ties are broken
            self.rng.shuffle(node.untried)
        else:
            node.seat = game.decider  # type: ignore[assignment]
            node.untried = list(range(n))
            self.rng.shuffle(node.untried)

    def _widens(self, node: Node) -> bool:
        """Whether a decision node takes a new option now: always without `widen`; with
        it, while it has fewer than `widen` * sqrt(visits) options (at least one), so a
        decision of hundreds of options spends its simulations on a few before more."""
        widen = self.widen
        if not widen or not self._is_wide(node):
            return True
        assert node.kids is not None
        opened = len(node.kids) - len(node.untried)
        return opened < 1 or opened < widen * math.sqrt(node.n)

    def _is_wide(self, node: Node) -> bool:
        """Whether widening applies at `node`: a decision of more than `wide` options
        (of any number, with `wide` 0)."""
        return not self.wide or (node.kids is not None and len(node.kids) > self.wide)

    def _outcome(self, node: Node) -> int:
        odds = node.odds
        kids = node.kids
        assert kids is not None
        if len(odds) > CHANCE_SPREAD:
            return self.rng.choices(range(len(odds)), odds)[0]
        total = node.n + 1
        best, gap = 0, float("-inf")
        for i in node.untried:
            kid = kids[i]
            g = odds[i] * total - (kid.n if kid is not None else 0)
            if g > gap:
                best, gap = i, g
        return best

    def _select(self, node: Node, prior: dict[int, float] | None = None) -> int:
        """UCB1 over the options (all tried): a proved option counts at its exact worth;
        with a prior, each option's value gets `bias` * its prior / (visits + 1)."""
        c = self.settings.c
        bias = self.settings.bias if prior else 0.0
        lam = self.lam
        log_n = math.log(node.n) if node.n > 1 else 0.0
        best, top = 0, float("-inf")
        seat = node.seat
        kids = node.kids
        assert kids is not None
        for i, kid in enumerate(kids):
            if kid is None:  # not opened yet (progressive widening)
                continue
            if kid.proved is not None:
                v = self._worth(kid.proved, seat)
            else:
                n = kid.n
                v = kid.w / n
                if lam:
                    v = (1 - lam) * v + lam * self.scale.unit(kid.m / n)
                v += c * math.sqrt(log_n / n)
                if bias:
                    v += bias * prior[i] / (n + 1)  # type: ignore[index]
            if v > top:
                best, top = i, v
        return best

    def _worth(self, ret: Returns, seat: int) -> float:
        places, margin = ret
        if self.lam and margin is not None:
            return (1 - self.lam) * places[seat] + self.lam * self.scale.unit(margin[seat])
        return places[seat]

    def _backup(self, path: list[Node], ret: Returns) -> None:
        places, margin = ret
        if margin is not None:
            self.scale.see(margin)
        solving = self.solve and path[-1].proved is not None
        for k in range(len(path) - 1, 0, -1):
            node = path[k]
            node.n += 1
            mover = path[k - 1].seat
            if mover >= 0:
                node.w += places[mover]
                if margin is not None:
                    node.m += margin[mover]
            if solving and k < len(path) - 1:
                solving = self._prove(node)
        self.root.n += 1
        if solving:
            self._prove(self.root)

    def _prove(self, node: Node) -> bool:
        """Mark `node` proved if its kids settle it; whether it is."""
        if node.proved is not None:
            return True
        kids = node.kids
        if kids is None:
            return False
        if node.seat < 0:
            first = kids[0]
            if first is None or first.proved is None or any(
                    k is None or k.proved != first.proved for k in kids):
                return False
            node.proved = first.proved
            return True
        seat = node.seat
        best: Returns | None = None
        settled = not node.untried
        for kid in kids:
            if kid is None or kid.proved is None:
                settled = False
                continue
            if best is None or _key(kid.proved, seat) > _key(best, seat):
                best = kid.proved
        # a win alone cannot be bettered (in a game for one, every end is first place)
        if best is not None and (settled or (best[0][seat] == 1.0 and len(best[0]) > 1)):
            node.proved = best
            return True
        return False

    def beaten(self) -> bool:
        """Whether the first position is proved, short of a win alone for its seat."""
        proved = self.root.proved
        if proved is None:
            return False
        places = proved[0]
        return len(places) > 1 and places[self.root.seat] < 1.0

    def visits(self) -> list[tuple[float, int, float]]:
        """Per root option: (proved worth less 1/2, or 0; visits; mean worth)."""
        out = []
        seat = self.root.seat
        for kid in self.root.kids or []:
            if kid is None:
                out.append((0.0, 0, 0.0))
                continue
            proved = self._worth(kid.proved, seat) - 0.5 if kid.proved is not None else 0.0
            out.append((proved, kid.n, mean_worth(kid.w, kid.m, kid.n, self.lam, self.scale)))
        return out


def fits(node: Node, game: Game) -> bool:
    """Whether an opened node fits the position the descent is at: the same decider (or
    a chance step) and as many options (a kept tree's node, or a transposition's)."""
    kids = node.kids
    assert kids is not None
    if game.is_chance:
        return node.seat == -1 and len(kids) == game.num_options() and \
            len(node.odds) == len(kids)
    return node.seat == game.decider and len(kids) == game.num_options()


def seen_key(view: dict[str, Any]) -> str:
    """A position as a seat sees it, as text: its view without the log (a made-up game
    keeps none), so equal for a real game and a game made up from its observation."""
    return json.dumps({k: v for k, v in view.items() if k != "log"}, sort_keys=True,
                      separators=(",", ":"), default=str)


def _key(ret: Returns, seat: int) -> tuple[float, float]:
    places, margin = ret
    return places[seat], (margin[seat] if margin is not None else 0.0)
