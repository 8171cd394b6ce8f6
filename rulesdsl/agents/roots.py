"""The MCTS agent (`mcts`) and the roots of its moves: the tree kept from the seat's last
move, and searches run side by side in several processes.

Stage: run (agents). `mcts` searches each move on games made up from the seat's
observation (`mcts.py`). Two things here make a move's search start further on:

- **Tree reuse** (`reuse=true`). After a move, a search keeps its tree below the option
  the seat took, with the made-up game at that node. At the seat's next decision the kept
  tree is walked (breadth first, through the other seats' decisions and the chance steps
  it holds) for a position of the seat's own whose view is the view the seat has now
  (`seen_key`: what it sees, without the log). Where one is found, its subtree is the new
  search's root; where none is, the search starts afresh. The kept tree was grown on a
  game made up from an earlier observation of the same seat, so it holds nothing the
  seat could not know; its proofs were proofs in that made-up game and are forgotten,
  and a node that does not fit the new made-up game (another decider, another number of
  options) is opened afresh when the search reaches it.
- **Root parallelism** (`workers=N`). N searches, each on a game of its own made up from
  the observation (drawn by the agent, in order, from its seed) and with a generator of
  its own, run at once, one in this process and the others in worker processes started
  with nothing but the rule file; each keeps its own tree between moves. The visits of
  the seat's options are added up over the searches, in their order, so a given seed
  gives the same moves whatever the timing (with `time`, the budget is each search's).
  A worker is sent the made-up game as a save (`Game.to_json`), never the real one.
  Where the rules cannot be loaded again from their file (rules made from text), the
  searches run one after the other here, with the same results.
"""

from __future__ import annotations

import random
import time
import weakref
from collections import deque
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from ..interpreter.game import Game, Rules
from ..interpreter.observation import Observation
from .mcts import Node, Search, fits, seen_key
from .parameters import Parameter
from .search import SEARCH_PARAMETERS, WIDENING_PARAMETERS, Budget, Report, Scale, Settings

MATCHES = 64  # the positions of its own a kept tree is searched through at most

Stats = list[tuple[float, int, float]]   # per option: proved worth, visits, mean worth


@dataclass
class Kept:
    """A search's tree after a move: its root, the made-up game there, its margins."""

    root: Node
    world: Game
    scale: Scale


@dataclass(frozen=True)
class Plan:
    """How a move's searches are made: the agent's parameters that every worker needs."""

    settings: Settings
    solve: bool
    widen: float
    reuse: bool
    transpose: bool
    wide: int = 0


def carry(kept: Kept | None, played: int, seat: int, target: str) -> Node | None:
    """The node of a kept tree at which `seat` now stands, seeing `target`, after it
    took option `played` at the kept root; None where the tree holds no such position
    (within MATCHES positions of the seat's own, breadth first)."""
    if kept is None or kept.root.kids is None or not 0 <= played < len(kept.root.kids):
        return None
    start = kept.root.kids[played]
    if start is None or not fits(kept.root, kept.world):
        return None
    world = _step(kept.world, kept.root, played)
    queue = deque([(start, world)])
    looked = 0
    while queue:
        node, world = queue.popleft()
        if world.over:
            continue
        if world.decider == seat:
            looked += 1
            if seen_key(world.view(seat)) == target:
                _forget_proofs(node)
                return node
            if looked >= MATCHES:
                return None
            if world.num_options() > 1:
                continue  # a decision of its own it did not reach (it had one option)
        if node.kids is None or not fits(node, world):
            continue  # grown on another made-up game, or a transposition's other line
        for i, kid in enumerate(node.kids):
            if kid is not None:
                queue.append((kid, _step(world, node, i)))
    return None


def _step(world: Game, node: Node, i: int) -> Game:
    after = world.copy()
    after.auto_chance = False
    if node.seat == -1:
        after.roll_chance(i)
    else:
        after.apply_index(i)
    return after


def _forget_proofs(root: Node) -> None:
    """Proofs of a kept tree held in the game it was made up as: they go."""
    seen: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        node.proved = None
        stack.extend(k for k in node.kids or () if k is not None)


def search_units(worlds: list[Game], rngs: list[random.Random], plan: Plan,
                 kept: dict[int, Kept], first: int, played: int | None,
                 target: str | None) -> tuple[list[Stats], int]:
    """Search the made-up games one after the other within one budget (the simulations
    shared between them), unit `first + k` on world k, each starting from its kept tree
    where that fits; the stats of each and the simulations run. Each keeps its tree for
    the next move in `kept` when `plan.reuse`."""
    settings = plan.settings
    budget = Budget(settings)
    out = []
    count = len(worlds)
    for k, (world, rng) in enumerate(zip(worlds, rngs)):
        unit = first + k
        root, scale = None, None
        if plan.reuse and played is not None and target is not None:
            old = kept.get(unit)
            root = carry(old, played, world.decider or 0, target)
            scale = old.scale if root is not None and old is not None else None
        table: dict[str, Node] | None = {} if plan.transpose else None
        search = Search(world, settings, rng, plan.solve, plan.widen, root, scale, table,
                        plan.wide)
        share = (settings.sims * (k + 1)) // count - (settings.sims * k) // count
        begun = budget.done
        search.run(budget, share)
        stats = search.visits()
        if search.beaten():
            # every option is proved no better than a loss (or a draw) against perfect
            # play: the rest of the budget goes to a search without proofs, whose
            # visits favour the options where an imperfect opponent most often errs
            hopeful = Search(world, settings, rng, False, plan.widen, wide=plan.wide)
            hopeful.run(budget, share - (budget.done - begun))
            stats = [(proved, visits, mean) for (proved, _, _), (_, visits, mean)
                     in zip(stats, hopeful.visits())]
        if plan.reuse:
            kept[unit] = Kept(search.root, world, search.scale)
        out.append(stats)
    return out, budget.done


# ---- worker processes --------------------------------------------------------------

_RULES: dict[tuple[str, str], Rules] = {}
_KEPT: dict[int, Kept] = {}   # a worker's trees, by unit (a worker serves one agent)

Job = tuple[str, dict[str, Any], str, list[dict[str, Any]], list[int], Plan, int, int | None,
            str | None]


def _work(job: Job) -> tuple[list[Stats], int]:
    """In a worker: load the rules (once), the made-up games from their saves, and search
    them; the worker's trees stay in it for the agent's next move."""
    path, overrides, digest, saves, seeds, plan, first, played, target = job
    rules = _RULES.get((path, digest))
    if rules is None:
        from ..loader import load

        rules = load(path, overrides or None)
        if rules.digest != digest:
            raise ValueError("the rule file has changed since the game began")
        _RULES[(path, digest)] = rules
    worlds = [rules.load_game(save) for save in saves]
    return search_units(worlds, [random.Random(s) for s in seeds], plan, _KEPT, first,
                        played, target)


class Pool:
    """The worker processes of one agent (started when first needed, one executor each so
    that a worker's trees stay with it), shut down when the agent goes."""

    def __init__(self, extra: int):
        self.extra = extra
        self.executors: list[Executor] = []
        self.broken = False
        self._finalizer = weakref.finalize(self, _shut, self.executors)

    def usable(self, rules: Rules) -> bool:
        return not self.broken and self.extra > 0 and Path(str(rules.path)).is_file()

    def start(self) -> list[Executor]:
        if not self.executors:
            context = get_context("spawn")  # a worker holds only what it is sent
            self.executors.extend(ProcessPoolExecutor(1, mp_context=context)
                                  for _ in range(self.extra))
        return self.executors


def _shut(executors: list[Executor]) -> None:
    for ex in executors:
        ex.shutdown(wait=False, cancel_futures=True)


def search_move(observation: Observation, rng: random.Random, plan: Plan, worlds: int,
                pool: Pool | None, kept: dict[int, Kept],
                played: int | None) -> tuple[list[Stats], int]:
    """A move's searches: `worlds` made-up games for each of the pool's workers and this
    process, the stats of each search in order and the simulations run. With one process
    every search shares `rng`, as a single search always has; with several, each made-up
    game and each search's generator is drawn from `rng` in order."""
    target = seen_key(observation.view) if plan.reuse else None
    if pool is None:
        made = [observation.sample_game(rng) for _ in range(worlds)]
        return search_units(made, [rng] * worlds, plan, kept, 0, played, target)
    groups = []
    for _ in range(pool.extra + 1):
        made = [observation.sample_game(rng) for _ in range(worlds)]
        groups.append((made, [rng.getrandbits(64) for _ in range(worlds)]))
    rules = groups[0][0][0].rules
    futures = []
    if pool.usable(rules):
        try:
            for w, (made, seeds) in enumerate(groups[1:], start=1):
                job: Job = (str(rules.path), rules.settings, rules.digest,
                            [m.to_json() for m in made], seeds, plan, w * worlds, played,
                            target)
                futures.append(pool.start()[w - 1].submit(_work, job))
        except (OSError, RuntimeError):
            pool.broken, futures = True, []
    stats, done = search_units(groups[0][0], [random.Random(s) for s in groups[0][1]],
                               plan, kept, 0, played, target)
    for w, (made, seeds) in enumerate(groups[1:], start=1):
        more = None
        if futures:
            try:
                more = futures[w - 1].result()
            except Exception:  # a worker that failed: its searches run here instead
                pool.broken = True
        if more is None:
            more = search_units(made, [random.Random(s) for s in seeds], plan, kept,
                                w * worlds, played, target)
        stats += more[0]
        done += more[1]
    return stats, done


class MCTSAgent:
    """UCT search on a game made up from what the seat sees (MCTS on a sampled state).

    The search itself is mcts.py's; tree reuse and root parallelism are this module's."""

    name = "mcts"
    PARAMETERS: tuple[Parameter, ...] = SEARCH_PARAMETERS + (
        Parameter("worlds", "int", 1, "made-up games a move's simulations are shared "
                  "between (for hidden information)", 1),
        Parameter("solve", "bool", True, "prove finished lines (MCTS-Solver)"),
    ) + WIDENING_PARAMETERS + (
        Parameter("reuse", "bool", False, "keep the tree below the option taken for the "
                  "seat's next decision, where the next observation is in it"),
        Parameter("transpose", "bool", False, "share a node between lines to positions "
                  "the seat would see alike (transpositions)"),
        Parameter("workers", "int", 1, "searches run side by side in as many processes, "
                  "each with its own made-up game and the whole budget, their visits "
                  "added up", 1, 64),
    )

    def __init__(self, seed: int = 0, worlds: int = 1, solve: bool = True,
                 widen: float = 0.0, reuse: bool = False, transpose: bool = False,
                 workers: int = 1, wide: int = 0, **params: Any):
        self.rng = random.Random(seed)
        settings = Settings.of(params)
        self.settings = settings
        if worlds < 1 or workers < 1:
            raise ValueError("worlds and workers must be at least 1")
        if widen < 0 or wide < 0:
            raise ValueError("widen and wide must be at least 0")
        self.worlds = worlds
        self.solve = solve
        self.widen = widen
        self.plan = Plan(settings, solve, widen, reuse, transpose, wide)
        self.pool = Pool(workers - 1) if workers > 1 else None
        self.kept: dict[int, Kept] = {}
        self.played: int | None = None   # the option of the last search, for reuse
        self.last: Report | None = None

    def choose(self, observation: Observation) -> int:
        n = observation.num_options
        if n == 1:
            self.last = Budget(self.settings).report(1.0)
            return 0
        start = time.perf_counter()
        stats, done = search_move(observation, self.rng, self.plan, self.worlds, self.pool,
                                  self.kept, self.played)
        totals: list[list[float]] = [[0.0, 0.0, 0.0] for _ in range(n)]
        for unit in stats:
            for i, (proved, visits, mean) in enumerate(unit):
                totals[i][0] += proved
                totals[i][1] += visits
                totals[i][2] += mean * visits
        best = max(range(n), key=lambda i: (totals[i][0], totals[i][1], totals[i][2]))
        seen = totals[best][1]
        self.played = best
        self.last = Report(done, time.perf_counter() - start,
                           totals[best][2] / seen if seen else 0.0)
        return best
