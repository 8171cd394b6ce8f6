"""A rule file as a PettingZoo parallel environment: every seat that chooses at once acts
in one step.

Stage: tools over the Python API (needs the `pettingzoo` extra).

    from rulesdsl.adapters.parallel import parallel_env
    environment = parallel_env("games/goofspiel/goofspiel.rules", settings={"CARDS": 5})
    observations, infos = environment.reset(seed=1)
    while environment.agents:
        actions = {a: environment.action_space(a).sample(observations[a]["action_mask"])
                   for a in environment.agents}
        observations, rewards, terminations, truncations, infos = environment.step(actions)

A step takes the actions of the seats that act now: every seat still to choose in a
simultaneous secret step (`each p in players chooses in secret`) or an `all at once`
round, or else the one seat that decides. Their action masks show their legal actions;
every other agent's mask is all 0, and its action is not read (any action will do). The
options of a seat in a simultaneous step are those the rules offer it once the seats
before it have chosen (in secret: they cannot depend on what those chose); the
environment reads them on a copy of the game. Rewards, truncation at the rules' limit,
chance, observations and `infos[agent]["log"]` are the AEC environment's (pettingzoo.py).
`max_cycles` truncates a game after that many steps; `state()` is every seat's
observation tensor, one after the other: all that some seat sees.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import ParallelEnv
except ImportError as err:  # an optional extra: say how to install it
    raise ImportError("rulesdsl's PettingZoo adapter needs PettingZoo and Gymnasium: "
                      "pip install 'rulesdsl[pettingzoo]'") from err

from ..interpreter.game import Game, Rules
from .pettingzoo import raw_env
from .traits import returns


def parallel_env(rules: str | Path | Rules, **kwargs: Any) -> ParallelEnv:
    """The parallel environment of a rule file (or loaded `Rules`)."""
    return raw_parallel_env(rules, **kwargs)


class raw_parallel_env(ParallelEnv):  # noqa: N801  (PettingZoo's naming)
    """A rule file as a parallel environment; the arguments are the AEC environment's
    (`pettingzoo.raw_env`), and `max_cycles`, the most steps a game may take (None: the
    rules' limit alone)."""

    metadata = {"render_modes": list(raw_env.RENDER_MODES), "name": "rulesdsl",
                "is_parallelizable": True}

    def __init__(self, rules: str | Path | Rules, max_cycles: int | None = None,
                 **kwargs: Any):
        self.aec = raw_env(rules, **kwargs)
        self.metadata = {**self.metadata, "name": self.aec.metadata["name"]}
        self.render_mode = self.aec.render_mode
        self.possible_agents = self.aec.possible_agents[:]
        self.agents: list[str] = []
        self.observation_spaces = self.aec.observation_spaces
        self.action_spaces = self.aec.action_spaces
        size = self.aec.encoder.size * len(self.possible_agents)
        self.state_space = spaces.Box(-np.inf, np.inf, (size,), np.float32)
        self.max_cycles = max_cycles
        self.cycles = 0

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    @property
    def game(self) -> Game:
        game = self.aec.game
        assert game is not None, "reset the environment first"
        return game

    def reset(self, seed: int | None = None,
              options: dict | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        self.aec.reset(seed=seed, options=options)
        self.agents = self.possible_agents[:]
        self.cycles = 0
        return self._observe(), {a: dict(self.aec.infos[a]) for a in self.agents}

    def acting(self) -> dict[int, set[int]]:
        """The seats that act now, each with its legal actions, in the order they choose."""
        game = self.game.copy()
        out: dict[int, set[int]] = {}
        first = game.decision
        if game.over or first is None:
            return out
        seats = first.simultaneous or (first.player,)
        while not game.over and game.decider in seats and game.decider not in out:
            legal = self.aec.actions.legal(game)
            out[game.decider] = set(legal)
            if len(out) == len(seats):
                break
            game.apply_index(legal[min(legal)])
            while not game.over and game.is_chance:
                game.roll_chance()
        return out

    def _observe(self) -> dict[str, dict[str, np.ndarray]]:
        acting = self.acting()
        out = {}
        for agent in self.agents:
            seat = self.possible_agents.index(agent)
            mask = np.zeros(self.aec.actions.size, np.int8)
            mask[sorted(acting.get(seat, ()))] = 1
            out[agent] = {"observation": self.aec.encoder.encode(self.game.view(seat)),
                          "action_mask": mask}
        return out

    def step(self, actions: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        game = self.game
        acting = self.acting()
        told = {seat: len(game.log) for seat in acting}
        for seat in acting:
            agent = self.possible_agents[seat]
            if agent not in actions:
                raise ValueError(f"{agent} acts now: step needs its action")
            action = int(actions[agent])
            legal = self.aec.actions.legal(game)
            if game.decider != seat or action not in legal:
                raise ValueError(f"action {action} is not legal for {agent}: the legal "
                                 f"actions are {sorted(legal)}")
            game.apply_index(legal[action])
            self.aec._roll()
        self.cycles += 1
        for seat, since in told.items():
            self.aec._told[seat] = since
        return self._after()

    def _after(self) -> tuple[dict, dict, dict, dict, dict]:
        game = self.game
        agents = self.agents
        rewards = dict.fromkeys(agents, 0.0)
        ended = game.over
        cut = not ended and self.max_cycles is not None and self.cycles >= self.max_cycles
        limit = ended and game.result is not None and game.result.ended_by == "limit"
        if ended:
            rewards.update(zip(self.possible_agents, returns(game)))
        terminations = dict.fromkeys(agents, ended and not limit)
        truncations = dict.fromkeys(agents, limit or cut)
        infos = {a: {"log": game.log_for(self.possible_agents.index(a),
                                         self.aec._told[self.possible_agents.index(a)])}
                 for a in agents}
        observations = self._observe()
        rewards = {a: rewards[a] for a in agents}
        if ended or cut:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return observations, rewards, terminations, truncations, infos

    def state(self) -> np.ndarray:
        """Every seat's observation tensor, one after the other."""
        return np.concatenate([self.aec.encoder.encode(self.game.view(seat))
                               for seat in range(len(self.possible_agents))])

    def render(self) -> str | None:
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()
