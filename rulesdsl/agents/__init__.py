"""Agents: who makes a seat's decisions. Every agent sees only its player's view through
the `Game` API and returns the index of an option.

- `random`: uniformly random legal options (its own seeded generator).
- `first`: always the first option (handy for reproducible smoke tests).
- `greedy`: takes an option that wins the game at once if there is one, avoids options
  after which the next player can win at once, and otherwise plays at random.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from ..interpreter.game import Game


class Agent(Protocol):
    name: str

    def choose(self, game: Game) -> int: ...


class RandomAgent:
    name = "random"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, game: Game) -> int:
        return self.rng.randrange(game.num_options())


class FirstAgent:
    name = "first"

    def __init__(self, seed: int = 0):
        """No state: the seed is taken only so that every agent is made the same way."""

    def choose(self, game: Game) -> int:
        return 0


class GreedyAgent:
    name = "greedy"
    MAX_LOOKAHEAD = 64

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def _wins_now(self, game: Game, player: int) -> bool:
        result = game.result
        return result is not None and result.ranking[player] == 1 and \
            result.ranking.count(1) == 1

    def choose(self, game: Game) -> int:
        n = game.num_options()
        decision = game.decision
        if decision is None or n > self.MAX_LOOKAHEAD:
            return self.rng.randrange(n)
        me = decision.player
        safe = []
        for i in range(n):
            after = game.copy()
            after.apply_index(i)
            if self._wins_now(after, me):
                return i
            if not self._opponent_can_win(after, me):
                safe.append(i)
        return self.rng.choice(safe) if safe else self.rng.randrange(n)

    def _opponent_can_win(self, game: Game, me: int) -> bool:
        decision = game.decision
        if decision is None or decision.player == me:
            return False
        other = decision.player
        if game.num_options() > self.MAX_LOOKAHEAD:
            return False
        for j in range(game.num_options()):
            reply = game.copy()
            reply.apply_index(j)
            if self._wins_now(reply, other):
                return True
        return False


AGENTS: dict[str, Callable[[int], Agent]] = {
    "random": RandomAgent, "first": FirstAgent, "greedy": GreedyAgent}


def make_agent(name: str, seed: int) -> Agent:
    return AGENTS[name](seed)
