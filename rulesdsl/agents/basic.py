"""The simple agents: random, first and greedy.

Stage: run (agents). Each decides from its seat's observation only (see `rulesdsl.agents`):

- `random`: uniformly random legal options (its own seeded generator).
- `first`: always the first option (handy for reproducible smoke tests).
- `greedy`: on a game sampled from its observation (no hidden card, no future roll is
  known to it), takes an option that wins at once if there is one, avoids options after
  which the next player can win at once, and otherwise plays at random.
"""

from __future__ import annotations

import random

from ..interpreter.game import Game
from ..interpreter.observation import Observation
from ..interpreter.state import Generator
from .parameters import Parameter


class RandomAgent(Generator):
    """Uniformly random legal options, drawn with the engine's own generator (xorshift64*,
    seeded by splitmix64: see interpreter/state.py), which the agent is. `simulate` makes
    an agent for every seat of every game: seeding this generator is two multiplications,
    where seeding a `random.Random` fills 2.5 KB of state (about 4 microseconds, more than
    a whole game of tic-tac-toe)."""

    __slots__ = ()
    name = "random"
    PARAMETERS: tuple[Parameter, ...] = ()

    # made as Generator(seed); the number of options is all it reads: `play_out` asks
    # with that alone
    choose_index = Generator.rand

    def choose(self, observation: Observation) -> int:
        return self.rand(observation.num_options)


class FirstAgent:
    """Always the first option (for reproducible smoke tests)."""

    name = "first"
    PARAMETERS: tuple[Parameter, ...] = ()

    def __init__(self, seed: int = 0):
        """No state: the seed is taken only so that every agent is made the same way."""

    def choose(self, observation: Observation) -> int:
        return 0


class GreedyAgent:
    """Wins at once if it can, else avoids letting the next player win at once.

    It looks on a game made up from what the seat sees; otherwise it plays at random."""

    name = "greedy"
    PARAMETERS: tuple[Parameter, ...] = ()
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
