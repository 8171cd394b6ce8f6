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
  the die makes it. A shuffle, or a component dropped in a bag, is drawn by the engine
  inside a rule: each of its draws is a chance node here (`interpreter/positions.py`), n equally
  likely outcomes for a draw among n, the game's own odds. No seat is shown a draw.
- Information: perfect unless the rule file hides something (a zone that is not public,
  a secret counter, a secret choice, a line said to some players only).
- Actions: the numbering of `actions.py`; an action's name is its option's label (with
  the option's id when two options share a label).
- Observation string: the seat's view as canonical JSON, without the log; tensor:
  `tensor.py`. Information-state string: the view with the log, everything the seat was
  told, oldest first. Both come from `Game.view(seat)` and nothing else.
- Returns: the rule file's `payoff` when it declares one, else from the final ranking
  (`traits.returns`): zero-sum, in [-1, 1].
- `str(state)`: a canonical key of the position (`positions.position_key`).
- `resample_from_infostate` (IS-MCTS): rulesdsl's sampler makes up what the seat cannot
  see (`Observation.sample_game`).
"""

from __future__ import annotations

import copy
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
from ..interpreter.liveness import Liveness, liveness
from ..interpreter.observation import Observation
from ..interpreter.positions import advance, longest_game, position_key
from ..loader import load_text
from .actions import DEFAULT_NUMBERS, ActionSpace
from .tensor import ViewTensor
from .traits import (
    Traits,
    check_players,
    default_players,
    load_rules,
    ranking_returns,  # noqa: F401  (for callers: openspiel.ranking_returns)
    returns,
    settings,
    short_name,
)

# positions visited, at most, to find how long a game of rules that do not draw can be
LENGTH_BUDGET = 6000

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

    @property
    def source(self) -> str | tuple[str, str]:
        """Where the rules come from, for a process that unpickles a game: the file's
        path, or the name and text of rules loaded from a text."""
        if self.path is not None:
            return str(self.path)
        (path, text), = self.rules.sources.items()
        return (path, text)


_REGISTERED: dict[str, Registration] = {}
_LENGTHS: dict[tuple[str, int], int | None] = {}  # longest games found, by rules and players
_MADE: dict[tuple[str, int, int], tuple[ActionSpace, ViewTensor]] = {}
_LIVE: dict[str, Liveness] = {}  # the live locals of rules, by digest, once asked for


def register(rules: str | Path | Rules, name: str | None = None) -> str:
    """Register a rule file (a path, or rules loaded from a text) as an OpenSpiel game and
    return its name; `pyspiel.load_game` then loads it with parameters: `players`, each
    setting of the rule file and `numbers` (see `actions.py`)."""
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
    params.update(settings(rules))
    chance = pyspiel.GameType.ChanceMode
    info = pyspiel.GameType.Information
    utility = pyspiel.GameType.Utility
    game_type = pyspiel.GameType(
        short_name=name,
        long_name=f"{rules.name} (rulesdsl)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=chance.EXPLICIT_STOCHASTIC if traits.draws or traits.rolls
        else chance.DETERMINISTIC,
        information=info.IMPERFECT_INFORMATION if traits.hidden
        else info.PERFECT_INFORMATION,
        utility=utility.ZERO_SUM if traits.zero_sum else utility.GENERAL_SUM,
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
    # Python games register (a closure would be freed after the interpreter has stopped);
    # its games pickle by name and source (`RulesGame.__reduce__`), not by this class
    factory = type(f"RulesGame_{name}", (RulesGame,), {"registration": registration})
    pyspiel.register_game(game_type, factory)
    return name


def load_game(path: str | Path, **params: Any) -> RulesGame:
    """Register a rule file (if it is not yet) and load it with these parameters (as
    `pyspiel.load_game` does: a setting or `players` by name)."""
    game = pyspiel.load_game(register(path), params)
    assert isinstance(game, RulesGame)
    return game


def _unpickle_game(name: str, source: str | tuple[str, str],
                   params: dict[str, Any]) -> RulesGame:
    """A pickled game in this process: its rules registered again, if need be."""
    if name not in _REGISTERED:
        register(load_text(source[1], source[0]) if isinstance(source, tuple)
                 else source, name)
    game = pyspiel.load_game(name, params)
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
        # made once per rules and players: OpenSpiel makes a game anew for every state
        # it deserializes or unpickles
        key = (self.rules.digest, self.players, int(given["numbers"]))
        if key not in _MADE:
            _MADE[key] = (ActionSpace(self.rules, self.players, int(given["numbers"])),
                          ViewTensor(self.rules, self.players))
        self.actions, self.tensor = _MADE[key]
        self.first: _Held | None = None  # the start, made by the first state
        low, high = self.traits.utility_range
        info = pyspiel.GameInfo(
            num_distinct_actions=self.actions.size,
            max_chance_outcomes=max(self.actions.chance_size, self.traits.draw_size, 1),
            num_players=self.players,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0 if self.traits.zero_sum else None,
            max_game_length=self.rules.limit)
        super().__init__(registration.game_type, info, params or {})

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return _unpickle_game, (self.registration.name, self.registration.source,
                                dict(self.get_parameters()))

    @property
    def live(self) -> Liveness:
        """The locals the rules may still read (`interpreter/liveness.py`), worked out
        when a position's key is first asked for."""
        found = _LIVE.get(self.rules.digest)
        if found is None:
            found = _LIVE[self.rules.digest] = liveness(self.rules.program)
        return found

    def max_game_length(self) -> int:
        """The most decisions a game can take: found by visiting every position on the
        first call (`longest`), else the rules' limit. (OpenSpiel's C++ side, which reads
        the game's info, is told the limit: visiting costs a second or two.)"""
        found = self.longest()
        return found if found is not None else self.rules.limit

    def longest(self) -> int | None:
        """The most decisions a game can take, when the rules bound it and the positions
        are few enough to visit (LENGTH_BUDGET); None otherwise (then the rules' limit
        bounds a game). Rules that draw are not visited: their deals are too many."""
        key = (self.rules.digest, self.players)
        if key not in _LENGTHS:
            found = None
            if not self.traits.draws:
                found = longest_game(self.rules.new_game(players=self.players, seed=0,
                                                         auto_chance=False),
                                     self.live, LENGTH_BUDGET)
            _LENGTHS[key] = found
        return _LENGTHS[key]

    def unstarted(self) -> Game:
        """A rulesdsl game of these rules before its setup, pausing at every chance step."""
        return self.rules.new_game(players=self.players, seed=0, narrate=True,
                                   auto_chance=False, start=False)

    def new_initial_state(self) -> RulesState:
        return RulesState(self)

    def state_at(self, game: Game) -> RulesState:
        """An OpenSpiel state at a position of a rulesdsl game of these rules (a saved
        game, say), pausing at its chance steps from there on."""
        if game.rules.digest != self.rules.digest or game.players != self.players:
            raise ValueError(f"this is a game of other rules or for {game.players} players, "
                             f"not {self.rules.name} for {self.players}")
        state = RulesState(self, game.copy(narrated=True))
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
    """The rulesdsl game inside an OpenSpiel state: `game` at a decision, a roll or the
    end; or, at a draw of a step (`positions.advance`), None, with the game `before` the
    step, the step's option (`index`, None for the start), the numbers drawn so far and
    the number of outcomes of the next draw. `before` is never changed, so clones share
    it; `game` is copied when the state is cloned, saved as the game's own save when the
    state is serialized."""

    __slots__ = ("game", "before", "index", "draws", "outcomes", "legal", "seen")

    def __init__(self, game: Game | None, before: Game | None = None,
                 index: int | None = None, draws: tuple[int, ...] = (), outcomes: int = 0):
        self.game = game
        self.before = before
        self.index = index
        self.draws = draws
        self.outcomes = outcomes
        self.legal: dict[int, int] | None = None  # action -> option index, when known
        self.seen: dict[tuple[int, bool], str] = {}  # strings shown, by seat and recall

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        if self.game is None:
            return _Held(None, self.before, self.index, self.draws, self.outcomes)
        return _Held(self.game.copy(narrated=True))

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        if self.game is not None:
            return _restore, (self.game.rules.digest, _saved(self.game))
        before = self.before
        assert before is not None
        started = self.index is not None
        return _restore, (before.rules.digest, _saved(before) if started
                          else before.players, self.index, self.draws, self.outcomes)


def _saved(game: Game) -> str:
    return json.dumps(game.to_json())


def _restore(digest: str, saved: str | int, index: int | None = None,
             draws: tuple[int, ...] = (), outcomes: int = 0) -> _Held:
    rules = _BY_DIGEST.get(digest)
    if rules is None:
        raise ValueError("this state was saved from rules this process has not loaded: "
                         "load its game first")
    if isinstance(saved, int):  # a draw of the setup: the game before it
        game = rules.new_game(players=saved, seed=0, narrate=True, auto_chance=False,
                              start=False)
    else:
        game = rules.load_game(json.loads(saved))
        game.auto_chance = False
    if outcomes:
        return _Held(None, game, index, tuple(draws), outcomes)
    return _Held(game)


class RulesState(pyspiel.State):
    """One position of a rulesdsl game, for OpenSpiel."""

    def __init__(self, game: RulesGame, at: Game | None = None):
        super().__init__(game)
        if at is not None:
            self._held = _Held(at)
            return
        first = game.first
        if first is None:  # the start, once per game: OpenSpiel makes a new initial
            self._step(game.unstarted(), None, ())  # state for each clone
            first = game.first = self._held
        self._held = copy.deepcopy(first)

    @property
    def _game(self) -> RulesGame:
        return self.get_game()  # type: ignore[no-any-return]

    def _step(self, before: Game, index: int | None, draws: tuple[int, ...]) -> None:
        """Run a step from `before` (see `positions.advance`): the state is then the game
        after it, or a draw of it."""
        after = advance(before, index, list(draws))
        if isinstance(after, Game):
            self._held = _Held(after)
        else:
            self._held = _Held(None, before, index, draws, after)

    def _legal(self) -> dict[int, int]:
        held = self._held
        if held.legal is None:
            game = held.game
            if game is None:
                held.legal = {k: k for k in range(held.outcomes)}
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
        held = self._held
        if held.game is None:
            return [(k, 1.0 / held.outcomes) for k in range(held.outcomes)]
        chance = held.game.chance
        if chance is None:
            raise ValueError("this is not a chance node")
        return [(i, p) for i, (_, p) in enumerate(chance.outcomes)]

    def _apply_action(self, action: int) -> None:
        held = self._held
        legal = self._legal()
        if action not in legal:
            raise ValueError(f"action {action} is not legal here; the legal actions are "
                             f"{sorted(legal)}")
        if held.game is None:  # a draw: run the step again with one number more
            assert held.before is not None
            self._step(held.before, held.index, (*held.draws, action))
        elif self._game.traits.draws:  # the step may draw: run it from a copy
            self._step(held.game, legal[action], ())
        else:
            held.game.apply_index(legal[action])
            held.legal = None
            held.seen = {}

    def _action_to_string(self, player: int, action: int) -> str:
        game = self._held.game
        if game is None:
            return f"drew {action + 1} of {self._held.outcomes}"
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
        return returns(game)

    def rewards(self) -> list[float]:
        return self.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> RulesState:
        """A state `player_id` cannot tell from this one (the same view and log): what it
        cannot see is made up afresh by rulesdsl's sampler (`Observation.sample_game`),
        seeded from `probability_sampler` (a callable giving numbers in [0, 1), as
        OpenSpiel's IS-MCTS passes). At a draw: this state."""
        game = self._held.game
        if game is None:
            return self.clone()  # type: ignore[no-any-return]
        rng = random.Random(int(probability_sampler() * (1 << 53)))
        return self._game.state_at(Observation(game, player_id).sample_game(rng))

    def view(self, seat: int) -> dict[str, Any]:
        """What `seat` sees of the game (`Game.view`); at a draw, of the game before the
        step that draws."""
        held = self._held
        game = held.game if held.game is not None else held.before
        assert game is not None
        return game.view(seat)

    def deciding(self, seat: int) -> dict[int, int]:
        """The actions `seat` may take now (none when it does not decide)."""
        return self._legal() if self.current_player() == seat else {}

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        raise pyspiel.SpielError(
            "a rulesdsl game has no information-state tensor: its information state is "
            "the string (information_state_string); the observation tensor holds the "
            "seat's view and its pending decision")

    def __str__(self) -> str:
        held = self._held
        game = self._game
        if held.game is not None:
            return position_key(held.game, game.live)
        assert held.before is not None
        drawn = f" drawing {list(held.draws)} of a step by option {held.index}"
        if held.index is None:
            return "the setup" + drawn
        return position_key(held.before, game.live) + drawn


class SeatObserver:
    """One seat's observation (`perfect_recall=False`: its view now, without the log) or
    information state (`perfect_recall=True`: its view with everything it was told). The
    tensor is the observation's: the view's numbers (`tensor.py`), then `options`, a 1 for
    each action the seat may take now (all 0 when it does not decide). An information
    state has its string only."""

    def __init__(self, game: RulesGame, recall: bool):
        self.recall = recall
        self.encoder = game.tensor
        size = 0 if recall else self.encoder.size + game.actions.size
        self.tensor = np.zeros(size, np.float32)
        self.dict: dict[str, np.ndarray] = {}
        if not recall:
            offset = 0
            for name, n in [*self.encoder.parts, ("options", game.actions.size)]:
                self.dict[name] = self.tensor[offset:offset + n]
                offset += n

    def set_from(self, state: RulesState, player: int) -> None:
        if self.recall:
            raise pyspiel.SpielError("a rulesdsl game has no information-state tensor: "
                                     "use the information-state string")
        size = self.encoder.size
        self.encoder.encode(state.view(player), self.tensor[:size])
        self.tensor[size:] = 0.0
        for action in state.deciding(player):
            self.tensor[size + action] = 1.0

    def string_from(self, state: RulesState, player: int) -> str:
        shown = state._held.seen
        text = shown.get((player, self.recall))
        if text is None:
            seen = state.view(player)
            if not self.recall:
                del seen["log"]
            text = shown[(player, self.recall)] = json.dumps(seen, sort_keys=True,
                                                             separators=(",", ":"))
        return text
