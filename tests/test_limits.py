"""A game that cannot end by itself ends at its limit of decisions: declared in the rule
file (`limit N decisions`), or the engine's own. The result says so; run and simulate never
hang; chance outcomes do not count; a save keeps it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import rulesdsl
from rulesdsl.check.analysis import DEFAULT_LIMIT
from rulesdsl.cli import main

ROOT = Path(__file__).resolve().parents[1]
PIG = str(ROOT / "games" / "pig" / "pig.rules")

POTATO = """\
game "Hot potato"
players 2
{limit}
setting MOST = 6 between 1 and 100
die d6: faces 1..6

play:
    turns:
        let r = roll d6
        choose by current:
            option pass "pass the potato":
                pass
            option drop "drop it":
                win current
"""


def potato(limit: str = "limit 5 decisions", **settings) -> rulesdsl.Rules:
    return rulesdsl.load_text(POTATO.format(limit=limit), "potato.rules", settings or None)


def pass_until_over(game) -> None:
    while not game.over:
        game.apply("pass")


def test_a_declared_limit_ends_the_game_as_a_draw_that_says_so():
    rules = potato()
    assert rules.limit == 5
    game = rules.new_game(players=2, seed=1)
    pass_until_over(game)
    assert game.decisions == 5
    assert game.result.ended_by == "limit"
    assert game.result.ranking == [1, 1] and game.result.winners == [0, 1]


def test_a_game_that_ends_by_itself_says_its_rules_ended_it():
    game = potato().new_game(players=2, seed=1)
    game.apply("drop")
    assert game.result.ended_by == "rules" and game.result.winners == [0]


def test_chance_outcomes_are_not_decisions():
    """With chance steps paused (as `run` plays), the limit counts the same decisions."""
    game = potato().new_game(players=2, seed=1, auto_chance=False)
    while not game.over:
        if game.is_chance:
            game.roll_chance(0)
        else:
            game.apply("pass")
    assert game.decisions == 5 and len(game.history) == 5
    assert game.result.ended_by == "limit"


def test_the_limit_from_a_setting():
    rules = potato("limit MOST decisions", MOST=3)
    game = rules.new_game(players=2, seed=1)
    pass_until_over(game)
    assert game.decisions == 3 and game.result.ended_by == "limit"


def test_without_a_limit_line_the_engine_limit_applies():
    assert potato("").limit == DEFAULT_LIMIT


@pytest.mark.parametrize("line,code", [("limit 0 decisions", "E050"),
                                       ("limit NOSUCH decisions", "E020"),
                                       ("limit 5 decisions\nlimit 6 decisions", "E021")])
def test_bad_limits(line, code):
    with pytest.raises(rulesdsl.RulesError) as info:
        potato(line)
    assert code in [d.code for d in info.value.diagnostics]


def test_a_variant_replaces_and_removes_the_limit(tmp_path):
    (tmp_path / "potato.rules").write_text(POTATO.format(limit="limit 5 decisions"))
    (tmp_path / "long.rules").write_text('extends "potato.rules"\n'
                                         "replace limit 50 decisions\n")
    (tmp_path / "endless.rules").write_text('extends "potato.rules"\nremove limit\n')
    assert rulesdsl.load(tmp_path / "long.rules").limit == 50
    assert rulesdsl.load(tmp_path / "endless.rules").limit == DEFAULT_LIMIT


def test_a_save_keeps_how_the_game_ended():
    rules = potato()
    game = rules.new_game(players=2, seed=1)
    pass_until_over(game)
    loaded = rules.load_game(json.loads(json.dumps(game.to_json())))
    assert loaded.over and loaded.result.ended_by == "limit"
    midway = rules.new_game(players=2, seed=1)
    midway.apply("pass")
    resumed = rules.load_game(json.loads(json.dumps(midway.to_json())))
    pass_until_over(resumed)
    assert resumed.decisions == 5


def test_run_says_the_limit_ended_the_game(tmp_path, capsys):
    path = tmp_path / "potato.rules"
    path.write_text(POTATO.format(limit="limit 5 decisions"))
    assert main(["run", str(path), "--agents", "first"]) == 0
    out = capsys.readouterr().out
    assert "Result: the game reached its limit of 5 decisions without ending: nobody wins" \
        in out
    assert out.count("pass the potato") == 5


def test_simulate_pig_with_agents_that_never_hold_returns(capsys):
    """The issue's hang: 'first' always rolls again, so nobody ever wins Pig."""
    assert main(["simulate", PIG, "--agents", "first", "--games", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["limit_endings"] == 1 and data["draws"] == 1
    assert data["mean_decisions"] == DEFAULT_LIMIT
