"""Rule files as PettingZoo environments (rulesdsl/adapters/pettingzoo.py): PettingZoo's own
API, seed and render tests on every base game under games/, rewards from the ranking,
truncation at the rules' limit, action masks, and observations and logs that come from the
agent's view alone."""

from __future__ import annotations

import importlib
import re
import sys

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, render_test, seed_test

import rulesdsl
from rulesdsl import RulesError
from rulesdsl.adapters.parallel import parallel_env
from rulesdsl.adapters.pettingzoo import env, raw_env

from .conftest import ROOT
from .interop import BASE_GAMES, ONE_SIDED, SHORTER, flow_examples

# PettingZoo's api_test warns of every observation that is a dict (an observation and its
# action mask), as it does for PettingZoo's own board games (chess, connect four): a dict
# with an action mask is what its documentation asks of games with illegal moves
DICT_OBSERVATIONS = [
    "ignore:Observation space for each agent probably should be:UserWarning",
    "ignore:Observation is not a NumPy array:UserWarning",
]


def make(path, **kwargs):
    return env(path, settings=SHORTER.get(path.stem), **kwargs)


@pytest.mark.parametrize("path", BASE_GAMES, ids=lambda p: p.stem)
@pytest.mark.filterwarnings(*DICT_OBSERVATIONS)
def test_api_test(path):
    api_test(make(path), num_cycles=100)


@pytest.mark.parametrize("path", BASE_GAMES, ids=lambda p: p.stem)
def test_seed_test(path):
    seed_test(lambda: make(path), num_cycles=50)


@pytest.mark.parametrize("n", range(4))
@pytest.mark.filterwarnings(*DICT_OBSERVATIONS)
def test_the_flow_of_play_passes_api_test(n):
    """Simultaneous secret steps, offers and teams (docs/language.md's examples)."""
    api_test(env(rulesdsl.load_text(flow_examples()[n], f"flow{n}.rules")), num_cycles=50)


@pytest.mark.parametrize("path", [ROOT / "games/tictactoe/tictactoe.rules",
                                  ROOT / "games/cronberg/cronberg.rules"], ids=lambda p: p.stem)
def test_render_test(path, capsys):
    render_test(lambda render_mode: make(path, render_mode=render_mode),
                custom_tests={"ansi": lambda text: "to decide" in text or "ranking" in text})
    assert "to decide" in capsys.readouterr().out  # human mode prints the drawing


def play(environment, actions):
    """Step through these actions, one per agent to act; the agents that acted."""
    acted = []
    for action in actions:
        acted.append(environment.agent_selection)
        environment.step(action)
    return acted


def test_rewards_come_from_the_ranking():
    environment = env(ROOT / "games/tictactoe/tictactoe.rules")
    environment.reset(seed=1)
    assert play(environment, [0, 3, 1, 4]) == ["player_1", "player_2"] * 2
    assert environment.rewards == {"player_1": 0.0, "player_2": 0.0}
    environment.step(2)  # a1 b1 c1: player 1 has a row
    assert environment.rewards == {"player_1": 1.0, "player_2": -1.0}
    assert environment.terminations == {"player_1": True, "player_2": True}
    assert environment.truncations == {"player_1": False, "player_2": False}
    told = {}
    for agent in environment.agent_iter():  # each agent is told its end, then leaves
        _, told[agent], termination, _, _ = environment.last()
        assert termination
        environment.step(None)
    assert told == {"player_1": 1.0, "player_2": -1.0}
    assert environment.agents == []


def test_the_rules_limit_truncates():
    rules = rulesdsl.load_text("""game "Hot potato"
players 2

limit 4 decisions

play:
    turns:
        choose by current:
            option pass "pass the potato":
                pass
            option drop "drop it":
                win current
""", "hot_potato.rules")
    environment = env(rules)
    environment.reset(seed=1)
    passing = environment.unwrapped.actions.legal(environment.unwrapped.game)
    play(environment, [min(passing)] * 4)
    assert environment.truncations == {"player_1": True, "player_2": True}
    assert environment.terminations == {"player_1": False, "player_2": False}
    assert environment.rewards == {"player_1": 0.0, "player_2": 0.0}


def test_the_action_mask_is_the_legal_options():
    environment = env(ROOT / "games/connect_four/connect_four.rules")
    environment.reset(seed=2)
    for _ in range(6):  # column 1 filled up
        play(environment, [0])
    mask = environment.observe("player_1")["action_mask"]
    assert mask.dtype == np.int8 and list(mask) == [0, 1, 1, 1, 1, 1, 1]
    assert not environment.observe("player_2")["action_mask"].any()  # not its turn
    with pytest.raises(ValueError, match="not legal for player_1"):
        environment.step(0)


def test_chance_is_drawn_from_the_seed():
    def rolls(seed):
        environment = env(ROOT / "games/pig/pig.rules", settings={"GOAL": 20})
        environment.reset(seed=seed)
        out = []
        for _ in range(12):
            out.append(environment.infos[environment.agent_selection]["log"])
            if environment.terminations[environment.agent_selection]:
                break
            environment.step(0)  # roll again
        return out
    assert rolls(3) == rolls(3)
    assert rolls(3) != rolls(4)


def test_an_agent_is_shown_only_its_view():
    """Player 2's observation and log say that player 1 chose, not what it chose."""
    seen = []
    for hand in (1, 2):  # paper, scissors
        environment = env(rulesdsl.load_text(ONE_SIDED, "one_sided.rules"))
        environment.reset(seed=1)
        environment.step(hand)
        observation = environment.observe("player_2")
        seen.append((observation["observation"].tolist(), list(observation["action_mask"]),
                     environment.infos["player_2"]))
        assert environment.infos["player_1"] != environment.infos["player_2"]
    assert seen[0] == seen[1]
    assert seen[0][2] == {"log": ["player 1 chooses in secret"]}


def test_the_log_gathers_until_the_agent_acts():
    environment = env(ROOT / "games/pig/pig.rules", settings={"GOAL": 20})
    environment.reset(seed=5)
    first = environment.agent_selection
    environment.step(1)  # hold
    while environment.agent_selection != first:
        environment.step(1)
    told = environment.infos[first]["log"]
    assert told[0].startswith(f"player {first[-1]}: ")  # its own decision, then the rest
    assert any(line.startswith("player 2: ") for line in told)


def test_settings_players_and_rendering():
    environment = raw_env(ROOT / "games/yacht/yacht.rules", players=3, render_mode="ansi")
    assert environment.possible_agents == ["player_1", "player_2", "player_3"]
    assert environment.metadata["name"] == "rulesdsl_yacht"
    assert raw_env(rulesdsl.load_text(ONE_SIDED, "x.rules")).metadata["name"] == \
        "rulesdsl_one_sided_rock_paper_scissors"
    environment.reset(seed=1)
    text = environment.render()
    assert isinstance(text, str) and "player 1 to decide" in text
    assert raw_env(ROOT / "games/pig/pig.rules", settings={"GOAL": 20}).rules.value(
        "GOAL") == 20
    with pytest.raises(RulesError, match="C002"):
        raw_env(ROOT / "games/tictactoe/tictactoe.rules", players=3)
    with pytest.raises(ValueError, match="render_mode must be one of ansi, human"):
        raw_env(ROOT / "games/tictactoe/tictactoe.rules", render_mode="rgb_array")


def test_without_the_extra_the_error_says_what_to_install(monkeypatch):
    monkeypatch.delitem(sys.modules, "rulesdsl.adapters.pettingzoo")
    monkeypatch.setitem(sys.modules, "pettingzoo", None)  # as if it were not installed
    with pytest.raises(ImportError, match=re.escape("pip install 'rulesdsl[pettingzoo]'")):
        importlib.import_module("rulesdsl.adapters.pettingzoo")


# ---- the parallel environment ---------------------------------------------------------------

@pytest.mark.parametrize("path", BASE_GAMES, ids=lambda p: p.stem)
@pytest.mark.filterwarnings(*DICT_OBSERVATIONS)
def test_parallel_api_test(path):
    """PettingZoo's parallel API test (it sets `max_cycles` to its number of cycles)."""
    parallel_api_test(parallel_env(path, settings=SHORTER.get(path.stem)), num_cycles=40)


def test_seats_that_choose_at_once_act_in_one_step():
    environment = parallel_env(ROOT / "games/goofspiel/goofspiel.rules", settings={"CARDS": 3})
    observations, _ = environment.reset(seed=2)
    masks = {a: list(o["action_mask"][:4]) for a, o in observations.items()}
    assert masks == {"player_1": [1, 1, 1, 0], "player_2": [1, 1, 1, 0]}  # bid 1, 2 or 3
    assert environment.state().shape == environment.state_space.shape
    observations, rewards, terminations, _, infos = environment.step(
        {"player_1": 2, "player_2": 0})  # player 1 bids 3, player 2 bids 1
    assert not any(terminations.values())
    assert infos["player_2"]["log"][:4] == ["player 1 chooses in secret", "player 2: bid 1",
                                            "player 1 bids 3", "player 2 bids 1"]
    assert list(observations["player_1"]["action_mask"][:4]) == [1, 1, 0, 0]
    while environment.agents:
        actions = {a: int(np.flatnonzero(observations[a]["action_mask"])[0])
                   for a in environment.agents}
        observations, rewards, terminations, _, _ = environment.step(actions)
    assert all(terminations.values()) and sum(rewards.values()) == 0


def test_max_cycles_truncates_and_the_state_holds_every_view():
    environment = env(ROOT / "games/pig/pig.rules", settings={"GOAL": 100}, max_cycles=3)
    environment.reset(seed=1)
    for _ in range(3):
        environment.step(0)  # roll again
    assert all(environment.truncations.values())
    raw = environment.unwrapped
    assert raw.state().shape == raw.state_space.shape == (2 * raw.encoder.size,)
