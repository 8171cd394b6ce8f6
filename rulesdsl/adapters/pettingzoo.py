"""A rule file as a PettingZoo environment (AEC: one agent acts at a time).

Stage: tools over the Python API (needs the `pettingzoo` extra: `pip install
'rulesdsl[pettingzoo]'`).

    from rulesdsl.adapters.pettingzoo import env
    environment = env("games/connect_four/connect_four.rules", render_mode="ansi")
    environment.reset(seed=1)
    for agent in environment.agent_iter():
        observation, reward, termination, truncation, info = environment.last()
        mask = observation["action_mask"]
        action = None if termination or truncation else \
            environment.action_space(agent).sample(mask)
        environment.step(action)

Agents are "player_1", "player_2", ... by seat. An agent's observation is a dict: its
`observation` (the tensor of its view, `tensor.py`) and its `action_mask` (1 for each
legal action, `actions.py`; all 0 when it is not the one to decide). Rewards come at the
end: the rule file's `payoff`, or from the ranking (`traits.returns`). A game that
reaches the rules' limit of decisions is truncated, not terminated. Chance steps (rolls)
are drawn by the environment's random generator, seeded by `reset(seed=...)`, which
also seeds the game (its shuffles). `render()` draws the game as the terminal does, for
the seat to act (or `render_seat`), from that seat's view; `infos[agent]["log"]` holds
the lines of the log the agent was told since it last acted (its own action's line
first). `max_cycles` truncates a game after that many steps; `state()` is every seat's
observation tensor, one after the other (all that some seat sees). Games whose seats
choose at once have a parallel environment too (`parallel.py`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as err:  # an optional extra: say how to install it
    raise ImportError("rulesdsl's PettingZoo adapter needs PettingZoo and Gymnasium: "
                      "pip install 'rulesdsl[pettingzoo]'") from err

from ..interpreter.game import Game, Rules
from ..terminal import show_state
from .actions import DEFAULT_NUMBERS, ActionSpace
from .tensor import ViewTensor
from .traits import check_players, default_players, load_rules, returns, short_name


def env(rules: str | Path | Rules, **kwargs: Any) -> AECEnv:
    """The environment of a rule file (or loaded `Rules`), wrapped as PettingZoo's own
    environments are: an action outside the action space, or a step out of order, is an
    error."""
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(
        raw_env(rules, **kwargs)))


class raw_env(AECEnv):  # noqa: N801  (PettingZoo's name for the unwrapped environment)
    """A rule file as an AEC environment. `players` defaults to the fewest the rules
    allow (two for a game that may also be played alone); `settings` are the rule file's
    settings by name; `numbers` as in `actions.py`."""

    RENDER_MODES = ("ansi", "human")
    metadata = {"render_modes": list(RENDER_MODES), "name": "rulesdsl",
                "is_parallelizable": False}

    def __init__(self, rules: str | Path | Rules, players: int | None = None,
                 settings: dict[str, Any] | None = None, render_mode: str | None = None,
                 render_seat: int | None = None, numbers: int = DEFAULT_NUMBERS,
                 max_cycles: int | None = None):
        super().__init__()
        if isinstance(rules, Rules):
            self.rules = rules
        else:
            self.rules = load_rules(rules, settings)
        if render_mode is not None and render_mode not in self.RENDER_MODES:
            raise ValueError(f"render_mode must be one of {', '.join(self.RENDER_MODES)}, "
                             f"not {render_mode!r}")
        self.render_mode = render_mode
        self.render_seat = render_seat
        self.players = check_players(self.rules, players if players is not None
                                     else default_players(self.rules))
        title = Path(rules).stem if not isinstance(rules, Rules) else self.rules.name
        self.metadata = {**self.metadata, "name": short_name(title)}
        self.actions = ActionSpace(self.rules, self.players, numbers)
        self.encoder = ViewTensor(self.rules, self.players)
        self.possible_agents = [f"player_{p + 1}" for p in range(self.players)]
        observation = spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (self.encoder.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.actions.size,), np.int8),
        })
        self.observation_spaces = {a: observation for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.actions.size)
                              for a in self.possible_agents}
        size = self.encoder.size * self.players
        self.state_space = spaces.Box(-np.inf, np.inf, (size,), np.float32)
        self.max_cycles = max_cycles  # most steps of a game (None: the rules' limit alone)
        self.steps = 0
        self._rng = np.random.default_rng()
        self.game: Game | None = None
        self._told = [0] * self.players  # where the log stood when each seat last acted

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def _seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.game = self.rules.new_game(players=self.players,
                                        seed=int(self._rng.integers(1 << 62)),
                                        narrate=True, auto_chance=False)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {"log": []} for a in self.agents}
        self._told = [0] * self.players
        self.steps = 0
        self._after_step()

    def _roll(self) -> None:
        """Take chance steps until someone decides or the game ends."""
        game = self.game
        assert game is not None
        while not game.over and game.is_chance:
            chance = game.chance
            assert chance is not None
            odds = np.array([p for _, p in chance.outcomes])
            game.apply_index(int(self._rng.choice(len(odds), p=odds / odds.sum())))

    def _after_step(self) -> None:
        game = self.game
        assert game is not None
        self._roll()
        for a in self.agents:
            seat = self._seat(a)
            self.infos[a] = {"log": game.log_for(seat, self._told[seat])}
        if game.over:
            assert game.result is not None
            ended = game.result.ended_by == "limit"
            for a, reward in zip(self.possible_agents, returns(game)):
                if a in self.agents:
                    self.rewards[a] = reward
                    self.terminations[a] = not ended
                    self.truncations[a] = ended
        else:
            decider = game.decider
            assert decider is not None
            self.agent_selection = self.possible_agents[decider]
            if self.max_cycles is not None and self.steps >= self.max_cycles:
                self.truncations = dict.fromkeys(self.agents, True)
        if self.render_mode == "human":
            self.render()

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self.game
        assert game is not None
        legal = self.actions.legal(game)
        if action is None or int(action) not in legal:
            raise ValueError(f"action {action} is not legal for {agent}: the legal actions "
                             f"are {sorted(legal)}")
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._told[self._seat(agent)] = len(game.log)
        game.apply_index(legal[int(action)])
        self.steps += 1
        self._after_step()
        self._accumulate_rewards()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        game = self.game
        assert game is not None, "reset the environment first"
        seat = self._seat(agent)
        mask = np.zeros(self.actions.size, np.int8)
        if game.decider == seat:
            mask[list(self.actions.legal(game))] = 1
        return {"observation": self.encoder.encode(game.view(seat)), "action_mask": mask}

    def state(self) -> np.ndarray:
        """Every seat's observation tensor, one after the other: all that some seat sees."""
        game = self.game
        assert game is not None, "reset the environment first"
        return np.concatenate([self.encoder.encode(game.view(seat))
                               for seat in range(self.players)])

    def render(self) -> str | None:
        """The game drawn as the terminal draws it, from the view of `render_seat` (or of
        the seat to act): ansi returns the text, human prints it."""
        if self.render_mode is None or self.game is None:
            return None
        game = self.game
        seat = self.render_seat if self.render_seat is not None else \
            self._seat(self.agent_selection)
        lines = show_state(game.view(seat), self.rules)
        if game.over:
            assert game.result is not None
            lines.append("ranking: " + ", ".join(
                f"player {p + 1}: {r}" for p, r in enumerate(game.result.ranking)))
        else:
            lines.append(f"player {game.decider + 1 if game.decider is not None else '?'} "
                         "to decide")
        text = "\n".join(lines)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self.game = None
