"""Exhaustive exploration: every position a game can reach, to prove that every game ends.

Stage: validate. From the start, every option of every decision and every outcome of every
chance step is tried; positions are told apart by the state's key (`State.key`: counters,
boards, zones, the place in the rules, the random generator). Positions and moves form a
graph. When the whole graph fits in the budget, it says, for every way to play:
- no position comes back: every game ends, in so many steps at most;
- positions come back, but only by chance, and chance leaves them again: every game ends
  with probability 1, whatever the players choose;
- or the players can keep a game going for ever: there is a set of positions where every
  decision has an option that stays in it and every chance outcome does (`trap`); a cycle
  in it is the proof, with the steps that lead there.
A rule that goes wrong (a choice with no option: a deadlock) is found with the steps that
lead to it, by the shortest way (the graph is explored breadth first).

Shuffles draw from the generator inside the state, not from a chance step, so a game that
shuffles can only be explored for one order of its shuffles: it is not proven.
"""

from __future__ import annotations

import sys
from collections import deque
from dataclasses import dataclass, field

from .. import ast as A
from ..check.analysis import walk
from ..diagnostics import Diagnostic, RulesError
from ..interpreter.game import Rules

OVER, DECISION, CHANCE = 0, 1, 2


@dataclass
class Exploration:
    """What exploring one player count found."""

    players: int
    positions: int = 0
    complete: bool = False     # every position was explored, within the budget
    acyclic: bool = False      # no position comes back
    shortest: int = 0          # the fewest and most steps of a whole game (when acyclic)
    longest: int = 0
    firsts: set[int] = field(default_factory=set)  # seats that rank first in some game
    error: Diagnostic | None = None  # a rule that went wrong (a deadlock: R002)
    steps: list[int] = field(default_factory=list)  # to the error, or around the trap
    cycle: list[int] | None = None   # the last steps of `steps`: they come back
    site: int | None = None          # the decision site where the cycle starts
    endless: bool = False            # from the trap no game can end at all

    @property
    def proven(self) -> bool:
        return self.complete and self.error is None and self.cycle is None


def shuffles(rules: Rules) -> bool:
    """Whether the rules shuffle a zone anywhere (then a game is not explored whole)."""
    return any(isinstance(s, A.Shuffle) for proc in rules.analysis.procs
               for s in walk(proc.body))


class Graph:
    """Positions by number (0 is the start): what each is, where each move leads, the
    site each waits at, and the way it was first reached."""

    def __init__(self) -> None:
        self.kind: list[int] = []
        self.moves: list[list[int]] = []
        self.site: list[int] = []
        self.parent: list[tuple[int, int]] = []  # (position, option) it was reached by

    def add(self, parent: tuple[int, int]) -> int:
        self.kind.append(OVER)
        self.moves.append([])
        self.site.append(-1)
        self.parent.append(parent)
        return len(self.kind) - 1

    def path(self, node: int) -> list[int]:
        """The options from the start to a position."""
        out = []
        while node:
            node, option = self.parent[node]
            out.append(option)
        return out[::-1]


def explore(rules: Rules, players: int, budget: int) -> Exploration:
    """Explore the games of `players` players, at most `budget` positions. The rules
    should count coverage (`load(..., coverage=True)`): every reachable rule then runs."""
    out = Exploration(players)
    root = rules.new_game(players=players, seed=0, auto_chance=False)
    root.limit = sys.maxsize  # the proof is about the rules, not the limit
    g = Graph()
    ids = {root.state_key(): g.add((0, 0))}
    todo = deque([(0, root)])
    while todo:
        node, game = todo.popleft()
        if game.over:
            out.firsts.update(game.result.winners)  # type: ignore[union-attr]
            continue
        g.kind[node] = CHANCE if game.is_chance else DECISION
        g.site[node] = game.step_site  # type: ignore[assignment]
        for i in range(game.num_options()):
            child = game.copy()
            child.history = []  # the way here is kept in the graph
            try:
                child.apply_index(i)
            except RulesError as err:
                out.error = err.diagnostics[0]
                out.steps = g.path(node) + [i]
                out.positions = len(ids)
                return out
            key = child.state_key()
            known = ids.get(key)
            if known is None:
                if len(ids) >= budget:
                    out.positions = len(ids)
                    return out
                known = ids[key] = g.add((node, i))
                todo.append((known, child))
            g.moves[node].append(known)
    out.positions = len(ids)
    out.complete = True
    _judge(g, out)
    return out


def _judge(g: Graph, out: Exploration) -> None:
    """Whether the explored graph has cycles, and whether players can stay in one."""
    order = _topological(g)
    if order is not None:
        out.acyclic = True
        longest = [0] * len(g.kind)
        shortest = [0] * len(g.kind)
        for node in reversed(order):
            if g.moves[node]:
                longest[node] = 1 + max(longest[m] for m in g.moves[node])
                shortest[node] = 1 + min(shortest[m] for m in g.moves[node])
        out.shortest, out.longest = shortest[0], longest[0]
        return
    stay = trap(g)
    if not stay:
        return  # chance brings positions back, but always leaves them in the end
    start = min(stay)  # the first reached: breadth first, the closest to the start
    seen: dict[int, int] = {}
    walked: list[int] = []
    node = start
    while node not in seen:
        seen[node] = len(walked)
        option = next(i for i, m in enumerate(g.moves[node]) if m in stay)
        walked.append(option)
        node = g.moves[node][option]
    out.steps = g.path(start) + walked
    out.cycle = walked[seen[node]:]
    out.site = g.site[node]
    out.endless = not _can_end(g, node)


def trap(g: Graph) -> set[int]:
    """The positions from which the players can keep the game going for ever: each
    decision has an option that stays among them, and every chance outcome does."""
    stay = {n for n, k in enumerate(g.kind) if k != OVER}
    changed = True
    while changed:
        changed = False
        for n in list(stay):
            kept = [m in stay for m in g.moves[n]]
            if not (all(kept) if g.kind[n] == CHANCE else any(kept)):
                stay.discard(n)
                changed = True
    return stay


def _topological(g: Graph) -> list[int] | None:
    """The positions in an order where every move goes forward, or None (a cycle)."""
    incoming = [0] * len(g.kind)
    for moves in g.moves:
        for m in moves:
            incoming[m] += 1
    ready = [n for n, k in enumerate(incoming) if k == 0]
    order = []
    while ready:
        n = ready.pop()
        order.append(n)
        for m in g.moves[n]:
            incoming[m] -= 1
            if incoming[m] == 0:
                ready.append(m)
    return order if len(order) == len(g.kind) else None


def _can_end(g: Graph, node: int) -> bool:
    """Whether some game from this position ends."""
    seen = {node}
    todo = [node]
    while todo:
        n = todo.pop()
        if g.kind[n] == OVER:
            return True
        for m in g.moves[n]:
            if m not in seen:
                seen.add(m)
                todo.append(m)
    return False
