"""Agents: who makes a seat's decisions.

Stage: run. The protocol (`Agent`): an agent has a `name` and a method
`choose(observation) -> int` that returns the index of one of `observation.options` (from
0 to `observation.num_options - 1`). The observation (`interpreter/observation.py`) is all
it gets of the game: the seat's view, its options and prompt, the lines of the log it was
told, the number of players, and a forward model that cannot peek,
`observation.sample_game(rng)`: a whole game consistent with what the seat has seen, to
copy and play on. An agent is made as `factory(seed, **parameters)` and may keep state
between calls; the same seeds play the same game. An agent may also keep `last`, a
`Report` of its last decision (simulations, seconds, the worth it gives its choice), which
the terminal shows. An agent that needs nothing but the number of options (`random`) may
also have `choose_index(n) -> int`: games are then played without making observations.

The built-in agents: `random`, `first`, `greedy` (`basic.py`), `mcts` (`mcts.py`) and
`ismcts` (`ismcts.py`). Other packages add agents under the entry point group
`rulesdsl.agents` (`registry.py`); docs/agents.md describes it all.
"""

from __future__ import annotations

from typing import Protocol

from ..interpreter.observation import Observation
from .basic import FirstAgent, RandomAgent
from .greedy import GreedyAgent
from .ismcts import ISMCTSAgent
from .registry import REGISTRY, AgentError, AgentSpec, Parameter
from .roots import MCTSAgent
from .search import Report

__all__ = ["REGISTRY", "Agent", "AgentError", "AgentSpec", "FirstAgent", "GreedyAgent",
           "ISMCTSAgent", "MCTSAgent", "Parameter", "RandomAgent", "Report", "make_agent",
           "parse_agents"]


class Agent(Protocol):
    name: str

    def choose(self, observation: Observation) -> int: ...


def parse_agents(text: str) -> list[AgentSpec]:
    """The agents a comma-separated list of specs names (`mcts:sims=400,random`); a
    mistake raises AgentError with a message for people."""
    return REGISTRY.parse(text)


def make_agent(spec: AgentSpec | str, seed: int) -> Agent:
    """The agent a spec (or a spec's text, such as `mcts:sims=400`) names, made with
    `seed`."""
    agent: Agent = REGISTRY.make(spec, seed)
    return agent
