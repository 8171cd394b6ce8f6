"""Agents as people and other packages reach them: specs with parameters on the command
line, agents from installed packages (entry points), and a searching bot at the terminal."""

from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path

import pytest

from rulesdsl.agents import REGISTRY, AgentError, AgentSpec, make_agent, parse_agents
from rulesdsl.cli import main

from .conftest import ROOT

TICTACTOE = str(ROOT / "games/tictactoe/tictactoe.rules")
CRONBERG = str(ROOT / "games/cronberg/cronberg.rules")
THOUGHT = re.compile(r"^  player 2 \(mcts\) thought: [\d,]+ simulations? in \d+\.\d s; "
                     r"it rates its choice [01]\.\d\d \(1: a sure win\)$", re.M)


def test_specs_name_agents_and_their_parameters():
    specs = parse_agents("mcts:sims=400,c=1.5,random, ismcts:rollout=greedy:depth=0")
    assert specs == [AgentSpec("mcts", (("sims", 400), ("c", 1.5))), AgentSpec("random"),
                     AgentSpec("ismcts", (("rollout", "greedy"), ("depth", 0)))]
    assert [str(s) for s in specs] == ["mcts:sims=400,c=1.5", "random",
                                       "ismcts:rollout=greedy,depth=0"]
    agent = make_agent(specs[0], 1)
    assert agent.name == "mcts"
    assert make_agent("mcts:solve=no", 1).solve is False  # type: ignore[attr-defined]


@pytest.mark.parametrize("text,message", [
    ("mcts:sims=1e3", "sims must be a whole number of at least 1, not '1e3'"),
    ("mcts:c=-1", "c must be a number of at least 0, not '-1'"),
    ("mcts:c=nan", "c must be a number of at least 0, not 'nan'"),
    ("mcts:solve=maybe", "solve must be true or false, not 'maybe'"),
    ("mcts:=3", "expected key=value, not '=3'"),
    ("greedy,depth=3", "greedy has no parameter 'depth'"),
])
def test_a_bad_spec_says_what_is_wanted(text, message):
    with pytest.raises(AgentError, match=re.escape(message)):
        parse_agents(text)


def test_the_cli_runs_a_game_with_a_searching_agent(capsys):
    code = main(["run", TICTACTOE, "--agents", "mcts:sims=50,random", "--seed", "2"])
    out, err = capsys.readouterr()
    assert code == 0 and err == ""
    assert out.splitlines()[0] == "Tic-tac-toe: 2 players, seed 2, agents mcts, random"
    assert "Result: player 1 wins" in out


def test_simulate_names_the_agents_with_their_parameters(capsys):
    code = main(["simulate", TICTACTOE, "--games", "4", "--agents", "mcts:sims=30,random",
                 "--workers", "2", "--json"])
    out, _ = capsys.readouterr()
    data = json.loads(out)
    assert code == 0 and data["agents"] == ["mcts:sims=30", "random"]
    assert data["wins"][0] + data["draws"] == 4  # random as player 2 never wins


def test_the_agents_command_lists_the_parameters(capsys):
    assert main(["agents"]) == 0
    out = capsys.readouterr().out
    assert "mcts: UCT search" in out and "ismcts: Information-set MCTS" in out
    assert "  sims=int (default 1000): simulations per move" in out
    assert "  rollout=random|greedy (default random)" in out


# ---- agents from other packages --------------------------------------------------------------

PLUGIN = '''
class Stubborn:
    """Always the last option."""

    name = "stubborn"

    def __init__(self, seed, **params):
        self.params = params

    def choose(self, observation):
        return observation.num_options - 1
'''


@pytest.fixture
def installed(tmp_path, monkeypatch):
    """A package 'fancy-agents' on the path, declaring two agents by entry point: one
    that loads and one whose module is missing."""
    (tmp_path / "fancy_agents.py").write_text(PLUGIN, encoding="utf-8")
    info = tmp_path / "fancy_agents-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: fancy-agents\n"
                                   "Version: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(
        "[rulesdsl.agents]\nstubborn = fancy_agents:Stubborn\n"
        "broken = fancy_agents_gone:Nope\nmcts = fancy_agents:Stubborn\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    REGISTRY.refresh()
    yield
    sys.modules.pop("fancy_agents", None)
    monkeypatch.undo()
    REGISTRY.refresh()


def test_an_installed_agent_plays_from_the_command_line(installed, capsys):
    assert "stubborn" in REGISTRY.names() and "broken" in REGISTRY.names()
    agent = make_agent("stubborn:level=3,style=calm", 1)
    assert agent.params == {"level": 3, "style": "calm"}  # type: ignore[attr-defined]
    code = main(["run", TICTACTOE, "--agents", "stubborn,first"])
    out, err = capsys.readouterr()
    assert code == 0 and err == ""
    assert "agents stubborn, first" in out
    assert "player 1: mark c3" in out  # the last option of the first decision


def test_a_package_does_not_take_over_a_built_in_name(installed):
    assert type(make_agent("mcts", 1)).__name__ == "MCTSAgent"


def test_an_agent_that_cannot_be_loaded_is_an_error_not_a_traceback(installed, capsys):
    code = main(["run", TICTACTOE, "--agents", "broken"])
    _, err = capsys.readouterr()
    assert code == 2 and "Traceback" not in err
    assert "the agent 'broken' (from fancy-agents) cannot be loaded: ModuleNotFoundError" in err
    assert main(["agents"]) == 0
    out = capsys.readouterr().out
    assert "stubborn: Always the last option.\n  (it does not list its parameters)" in out
    assert "broken: the agent 'broken' (from fancy-agents) cannot be loaded" in out


# ---- at the terminal -------------------------------------------------------------------------

@pytest.mark.slow
def test_a_person_plays_cronberg_against_mcts_at_the_terminal_and_loses(monkeypatch, capsys):
    """`rulesdsl play cronberg.rules --agents mcts`, with a scripted person who always
    takes the first option against MCTS on a small budget: the person is shown the game
    and asked, the bot says it is thinking, then how long it thought, and it wins."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 200))
    code = main(["play", CRONBERG, "--agents", "mcts:sims=80", "--seed", "4"])
    text, err = capsys.readouterr()
    assert code == 0 and err == ""
    assert "Cronberg" in text and "> " in text  # the person was asked
    # each turn of the bot ends with a placement, told in the rulebook's words
    turns = len(re.findall(r"^  player 2 places ", text, re.M))
    thoughts = len(THOUGHT.findall(text))
    assert text.count("  player 2 (mcts) is thinking...\n") == thoughts
    assert 10 < turns <= thoughts  # at least the placement of each turn is searched
    assert "thought: 0 simulations" not in text
    assert "Result: player 2 wins" in text


def test_play_with_mcts_from_the_command_line(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 9))
    code = main(["play", TICTACTOE, "--agents", "mcts:sims=100"])
    out, err = capsys.readouterr()
    assert code == 0 and err == ""
    assert THOUGHT.search(out)
    assert "Result: player 2 wins" in out or "a draw" in out


def test_the_default_budget_is_what_the_agents_command_says():
    agent = make_agent("mcts", 1)
    assert agent.settings.sims == 1000 and agent.settings.time == 0  # type: ignore[attr-defined]
    assert Path(CRONBERG).exists()


def test_the_python_example_in_the_agents_doc_plays(monkeypatch, capsys):
    text = (ROOT / "docs" / "agents.md").read_text(encoding="utf-8")
    (code,) = re.findall(r"```python\n(.*?)```", text, re.S)
    monkeypatch.chdir(ROOT)
    exec(compile(code, "docs/agents.md", "exec"), {})
    first, report = capsys.readouterr().out.splitlines()
    assert first == "[0]"
    assert report.startswith("Report(simulations=")
