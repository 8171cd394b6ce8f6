"""The simple agents: random and first (greedy is in `greedy.py`).

Stage: run (agents). Each decides from its seat's observation only (see `rulesdsl.agents`):

- `random`: uniformly random legal options (its own seeded generator).
- `first`: always the first option (handy for reproducible smoke tests).
"""

from __future__ import annotations

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
