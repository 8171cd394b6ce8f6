"""A rule file as an OpenSpiel game: `register` it, then `pyspiel.load_game` it by name.

Stage: tools over the Python API (needs the `openspiel` extra: `pip install
'rulesdsl[openspiel]'`).

    from rulesdsl.adapters import openspiel
    name = openspiel.register("games/pig/pig.rules")      # "rulesdsl_pig"
    game = pyspiel.load_game(name, {"GOAL": 50})           # settings are game parameters

What OpenSpiel is told (see docs/interop.md):

- The game is sequential: a rulesdsl game has one decision at a time, a simultaneous
  secret choice being each seat's secret decision in turn.
- Chance: a roll is a chance node, outcome i being face i of the die, each as likely as
  the die makes it. A shuffle is not a step of the rules: the engine shuffles with the
  game's random generator inside a rule. So a rule file that shuffles starts with one
  chance node, the deal: `deals` equally likely outcomes (a game parameter), each the
  seed of the generator that every shuffle of that game draws from. No seat's
  observation shows the outcome; the game is the rulesdsl game over those deals.
- Information: perfect unless the rule file hides something (a zone that is not public,
  a secret counter, a secret choice, a line said to some players only).
- Actions: the numbering of `actions.py`; an action's name is its option's label (with
  the option's id when two options share a label).
- Observation string: the seat's view as canonical JSON, without the log; tensor:
  `tensor.py`. Information-state string: the view with the log, everything the seat was
  told, oldest first. Both come from `Game.view(seat)` and nothing else.
- Returns: from the final ranking (`traits.returns`): zero-sum, in [-1, 1].
- `resample_from_infostate` (IS-MCTS): rulesdsl's sampler makes up what the seat cannot
  see (`Observation.sample_game`).
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

try:
    import numpy as np
    import pyspiel
except ImportError as err:  # an optional extra: say how to install it
    raise ImportError("rulesdsl's OpenSpiel adapter needs OpenSpiel: "
                      "pip install 'rulesdsl[openspiel]'") from err

from ..interpreter.game import Game, Rules
from ..interpreter.observation import Observation
from ..loader import load_text
from .actions import DEFAULT_NUMBERS, ActionSpace
from .tensor import ViewTensor
from .traits import (
    DEFAULT_DEALS,
    Traits,
    check_players,
    default_players,
    load_rules,
    returns,
    settings,
    short_name,
)

BEFORE_THE_DEAL = "the cards are not dealt yet"

_BY_DIGEST: dict[str, Rules] = {}   # rules of every game made here, for saved states


@dataclass
class Registration:
    """A rule file registered with OpenSpiel: its name there and what it declares."""

    name: str
    path: Path | None       # None: rules given as a text (`rulesdsl.load_text`)
    rules: Rules            # with the settings' own values
    traits: Traits
    game_type: pyspiel.GameType

    def load(self, overrides: dict[str, Any]) -> Rules:
        """The rules with some settings changed."""
        if self.path is not None:
            return load_rules(self.path, overrides)
        (path, text), = self.rules.sources.items()
        return load_text(text, path, overrides)


_REGISTERED: dict[str, Registration] = {}


def register(rules: str | Path | Rules, name: str | None = None) -> str:
    """Register a rule file (a path, or rules loaded from a text) as an OpenSpiel game and
    return its name; `pyspiel.load_game` then loads it with parameters: `players`, each
    setting of the rule file, `numbers` (see `actions.py`) and, for a rule file that
    shuffles, `deals`."""
    if isinstance(rules, Rules):
        path = None
        name = name or short_name(rules.name)
        if len(rules.sources) != 1:
            raise ValueError("rules made of several files: register their path")
    else:
        path = Path(rules).resolve()
        name = name or short_name(path.stem)
        rules = load_rules(path)
    known = _REGISTERED.get(name)
    if known is not None and known.rules.digest == rules.digest:
        return name
    traits = Traits.of(rules)
    low, high = rules.player_range
    params: dict[str, Any] = {"players": default_players(rules), "numbers": DEFAULT_NUMBERS}
    if traits.shuffles:
        params["deals"] = DEFAULT_DEALS
    params.update(settings(rules))
    chance = pyspiel.GameType.ChanceMode
    info = pyspiel.GameType.Information
    game_type = pyspiel.GameType(
        short_name=name,
        long_name=f"{rules.name} (rulesdsl)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=chance.EXPLICIT_STOCHASTIC if traits.shuffles or traits.rolls
        else chance.DETERMINISTIC,
        information=info.IMPERFECT_INFORMATION if traits.hidden
        else info.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params)
    registration = Registration(name, path, rules, traits, game_type)
    _REGISTERED[name] = registration
    # OpenSpiel keeps the factory until the process ends: a class, as OpenSpiel's own
    # Python games register (a closure would be freed after the interpreter has stopped)
    factory = type(f"RulesGame_{name}", (RulesGame,), {"registration": registration})
    pyspiel.register_game(game_type, factory)
    return name


def load_game(path: str | Path, **params: Any) -> RulesGame:
    """Register a rule file (if it is not yet) and load it with these parameters (as
    `pyspiel.load_game` does: a setting or `players` by name)."""
    game = pyspiel.load_game(register(path), params)
    assert isinstance(game, RulesGame)
    return game


class RulesGame(pyspiel.Game):
    """A rule file, for a number of players and settings, as OpenSpiel sees it."""

    registration: Registration  # set on the class `register` makes for a rule file

    def __init__(self, params: dict[str, Any] | None = None):
        registration = self.registration
        spec = registration.game_type.parameter_specification
        given = {**spec, **(params or {})}
        base = registration.rules
        changed = {k: given[k] for k in settings(base) if given[k] != spec[k]}
        self.rules = registration.load(changed) if changed else base
        _BY_DIGEST[self.rules.digest] = self.rules
        self.traits = registration.traits
        self.players = check_players(self.rules, given["players"])
        self.deals = int(given["deals"]) if self.traits.shuffles else 0
        if self.traits.shuffles and self.deals < 1:
            raise ValueError(f"deals must be at least 1, not {self.deals}")
        self.actions = ActionSpace(self.rules, self.players, int(given["numbers"]))
        self.tensor = ViewTensor(self.rules, self.players)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.actions.size,
            max_chance_outcomes=max(self.actions.chance_size, self.deals),
            num_players=self.players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=self.rules.limit)
        super().__init__(registration.game_type, info, params or {})

    def start(self, seed: int) -> Game:
        """A rulesdsl game of these rules that pauses at every chance step."""
        return self.rules.new_game(players=self.players, seed=seed, narrate=True,
                                   auto_chance=False)

    def new_initial_state(self) -> RulesState:
        return RulesState(self)

    def state_at(self, game: Game) -> RulesState:
        """An OpenSpiel state at a position of a rulesdsl game of these rules (a saved
        game, say), pausing at its chance steps from there on."""
        if game.rules.digest != self.rules.digest or game.players != self.players:
            raise ValueError(f"this is a game of other rules or for {game.players} players, "
                             f"not {self.rules.name} for {self.players}")
        state = RulesState(self)
        state._held = _Held(game.copy(narrated=True))
        state._held.game.auto_chance = False  # type: ignore[union-attr]
        return state

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> SeatObserver:
        if params:
            raise ValueError(f"the observation takes no parameters; got {params}")
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        if iig_obs_type is not None and (
                not iig_obs_type.public_info or
                iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER):
            raise ValueError("a rulesdsl game observes for one seat, with what it may see "
                             "of the game: its view (public and private information)")
        return SeatObserver(self, recall)


class _Held:
    """The rulesdsl game inside an OpenSpiel state (None before the deal): copied when
    the state is cloned, saved as the game's own save when the state is serialized."""

    __slots__ = ("game", "legal")

    def __init__(self, game: Game | None):
        self.game = game
        self.legal: dict[int, int] | None = None  # action -> option index, when known

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        return _Held(self.game.copy(narrated=True) if self.game is not None else None)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        if self.game is None:
            return _Held, (None,)
        return _restore, (self.game.rules.digest, json.dumps(self.game.to_json()))


def _restore(digest: str, saved: str) -> _Held:
    rules = _BY_DIGEST.get(digest)
    if rules is None:
        raise ValueError("this state was saved from rules this process has not loaded: "
                         "load its game first")
    game = rules.load_game(json.loads(saved))
    game.auto_chance = False
    return _Held(game)


class RulesState(pyspiel.State):
    """One position of a rulesdsl game, for OpenSpiel."""

    def __init__(self, game: RulesGame):
        super().__init__(game)
        self._held = _Held(None if game.deals else game.start(seed=0))

    @property
    def _game(self) -> RulesGame:
        return self.get_game()  # type: ignore[no-any-return]

    def _legal(self) -> dict[int, int]:
        held = self._held
        if held.legal is None:
            game = held.game
            if game is None:
                held.legal = {k: k for k in range(self._game.deals)}
            else:
                held.legal = self._game.actions.legal(game)
        return held.legal

    def current_player(self) -> int:
        game = self._held.game
        if game is None or game.is_chance:
            return int(pyspiel.PlayerId.CHANCE)
        if game.over:
            return int(pyspiel.PlayerId.TERMINAL)
        assert game.decider is not None
        return game.decider

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self._legal())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        game = self._held.game
        if game is None:
            deals = self._game.deals
            return [(k, 1.0 / deals) for k in range(deals)]
        chance = game.chance
        assert chance is not None, "not a chance node"
        return [(i, p) for i, (_, p) in enumerate(chance.outcomes)]

    def _apply_action(self, action: int) -> None:
        held = self._held
        legal = self._legal()
        if action not in legal:
            raise ValueError(f"action {action} is not legal here; the legal actions are "
                             f"{sorted(legal)}")
        if held.game is None:
            held.game = self._game.start(seed=action)
        else:
            held.game.apply_index(legal[action])
        held.legal = None

    def _action_to_string(self, player: int, action: int) -> str:
        game = self._held.game
        if game is None:
            return f"deal {action}"
        if game.over or player != self.current_player():
            return (f"outcome {action}" if player == pyspiel.PlayerId.CHANCE
                    else self._game.actions.name(action))
        legal = self._legal()
        if action not in legal:
            return self._game.actions.name(action) if player >= 0 else f"outcome {action}"
        options = game.options()
        label = options[legal[action]].label
        if sum(o.label == label for o in options) > 1:
            return f"{label} [{options[legal[action]].id}]"
        return label

    def is_terminal(self) -> bool:
        game = self._held.game
        return game is not None and game.over

    def returns(self) -> list[float]:
        game = self._held.game
        if game is None or game.result is None:
            return [0.0] * self._game.players
        return returns(game.result.ranking)

    def rewards(self) -> list[float]:
        return self.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> RulesState:
        """A state `player_id` cannot tell from this one (the same view and log): what it
        cannot see is made up afresh by rulesdsl's sampler (`Observation.sample_game`),
        seeded from `probability_sampler` (a callable giving numbers in [0, 1), as
        OpenSpiel's IS-MCTS passes). Before the deal: this state, as every deal looks the
        same to every seat."""
        game = self._held.game
        if game is None:
            return self.clone()  # type: ignore[no-any-return]
        rng = random.Random(int(probability_sampler() * (1 << 53)))
        return self._game.state_at(Observation(game, player_id).sample_game(rng))

    def view(self, seat: int) -> dict[str, Any] | None:
        """What `seat` sees of the game (`Game.view`); None before the deal."""
        game = self._held.game
        return game.view(seat) if game is not None else None

    def __str__(self) -> str:
        game = self._held.game
        return game.state_key() if game is not None else BEFORE_THE_DEAL


class SeatObserver:
    """One seat's observation (`perfect_recall=False`: its view now, without the log) or
    information state (`perfect_recall=True`: its view with everything it was told). The
    tensor is the observation's; an information state has only its string."""

    def __init__(self, game: RulesGame, recall: bool):
        self.recall = recall
        self.encoder = game.tensor
        size = 0 if recall else self.encoder.size
        self.tensor = np.zeros(size, np.float32)
        self.dict: dict[str, np.ndarray] = {}
        if not recall:
            offset = 0
            for name, n in self.encoder.parts:
                self.dict[name] = self.tensor[offset:offset + n]
                offset += n

    def set_from(self, state: RulesState, player: int) -> None:
        if self.recall:
            return
        seen = state.view(player)
        if seen is None:
            self.tensor.fill(0.0)
        else:
            self.encoder.encode(seen, self.tensor)

    def string_from(self, state: RulesState, player: int) -> str:
        seen = state.view(player)
        if seen is None:
            return BEFORE_THE_DEAL
        if not self.recall:
            del seen["log"]
        return json.dumps(seen, sort_keys=True, separators=(",", ":"))
