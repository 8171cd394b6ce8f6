"""Agents: who makes a seat's decisions.

The protocol: an agent has a `name` and a method `choose(observation) -> int` that returns
the index of one of `observation.options` (from 0 to `observation.num_options - 1`). The
observation (`interpreter/observation.py`) is all it gets of the game: the seat's view,
its options and prompt, the lines of the log it was told, the number of players, and a
forward model that cannot peek, `observation.sample_game(rng)`: a whole game consistent
with what the seat has seen, to copy and play on. An agent is made with a seed and may
keep state between calls; the same seeds play the same game.

- `random`: uniformly random legal options (its own seeded generator).
- `first`: always the first option (handy for reproducible smoke tests).
- `greedy`: on a game sampled from its observation (no hidden card, no future roll is
  known to it), takes an option that wins at once if there is one, avoids options after
  which the next player can win at once, and otherwise plays at random.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from ..interpreter.game import Game
from ..interpreter.observation import Observation


class Agent(Protocol):
    name: str

    def choose(self, observation: Observation) -> int: ...


class RandomAgent:
    name = "random"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, observation: Observation) -> int:
        return self.rng.randrange(observation.num_options)


class FirstAgent:
    name = "first"

    def __init__(self, seed: int = 0):
        """No state: the seed is taken only so that every agent is made the same way."""

    def choose(self, observation: Observation) -> int:
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

    def choose(self, observation: Observation) -> int:
        n = observation.num_options
        if n == 1:
            return 0
        if n > self.MAX_LOOKAHEAD:
            return self.rng.randrange(n)
        me = observation.seat
        world = observation.sample_game(self.rng)
        world.auto_chance = True  # look through chance as simulations play it
        safe = []
        for i in range(n):
            after = world.copy()
            after.apply_index(i)
            if self._wins_now(after, me):
                return i
            if not self._opponent_can_win(after, me):
                safe.append(i)
        return self.rng.choice(safe) if safe else self.rng.randrange(n)

    def _opponent_can_win(self, game: Game, me: int) -> bool:
        other = game.decider
        if other is None or other == me or game.num_options() > self.MAX_LOOKAHEAD:
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
