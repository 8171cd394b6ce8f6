"""Statistics a rule file declares (`stat ...`) and what a finished game tells about itself
for balance figures: the statistics' values, who took the first turn, and which rule
ended it."""

from __future__ import annotations

import pytest

import rulesdsl
from rulesdsl.agents.play import play_game
from rulesdsl.diagnostics import RulesError

from .conftest import ROOT

DUEL = """game "Duel of dice"
players 2

die d6: faces 1..6
counter score per player = 0
stat rolls
stat sixes per player
stat ahead = score of player 1 > score of player 2
stat points of p = score of p
stat doubled = 2 * rolls

play:
    turns for 3 rounds:
        let r = roll d6
        add 1 to rolls
        if r == 6:
            add 1 to sixes of current
        add r to score of current
    end game
"""


def duel() -> rulesdsl.Rules:
    return rulesdsl.load_text(DUEL, path="duel.rules")


def test_statistics_of_a_finished_game():
    rules = duel()
    assert rules.stats == {"rolls": False, "sixes": True, "ahead": False, "points": True,
                           "doubled": False}
    for seed in range(1, 6):
        game, failed = play_game(rules, 2, seed, ["random"])
        assert failed is None and game is not None
        stats = game.statistics()
        assert list(stats) == ["rolls", "sixes", "ahead", "points", "doubled"]
        assert stats["rolls"] == 6 and stats["doubled"] == 12
        scores = [game.counter("score", p) for p in range(2)]
        assert stats["points"] == scores
        assert stats["ahead"] is (scores[0] > scores[1])
        assert all(0 <= s <= 3 for s in stats["sixes"])


def test_statistics_do_not_change_the_game():
    """The same rules without their statistics play the same games."""
    kept = [line for line in DUEL.splitlines()
            if "rolls" not in line and "sixes" not in line and not line.startswith("stat")]
    text = "\n".join(kept).replace("if r == 6:", "if r == 6:\n            pass") + "\n"
    bare = rulesdsl.load_text(text, path="bare.rules")
    for seed in range(1, 6):
        a, _ = play_game(duel(), 2, seed, ["random"])
        b, _ = play_game(bare, 2, seed, ["random"])
        assert a is not None and b is not None
        assert a.result == b.result and a.history == b.history
        assert "rolls" not in a.view(0)["counters"]


def test_the_rules_cannot_read_a_tally():
    text = DUEL.replace("add r to score of current", "add rolls to score of current")
    with pytest.raises(RulesError) as err:
        rulesdsl.load_text(text, path="peek.rules")
    assert [d.code for d in err.value.diagnostics] == ["E048"]


def test_a_statistic_is_a_number_or_true_false():
    text = DUEL.replace("stat doubled = 2 * rolls", "stat who = player 1")
    with pytest.raises(RulesError) as err:
        rulesdsl.load_text(text, path="who.rules")
    assert [d.code for d in err.value.diagnostics] == ["E030"]


def test_a_variant_removes_a_statistic(tmp_path):
    (tmp_path / "duel.rules").write_text(DUEL)
    (tmp_path / "less.rules").write_text('extends "duel.rules"\nremove stat doubled\n')
    assert list(rulesdsl.load(tmp_path / "less.rules").stats) == ["rolls", "sixes", "ahead",
                                                                  "points"]


def test_first_player_and_the_rule_that_ended_the_game():
    rules = duel()
    game, _ = play_game(rules, 2, 1, ["random"])
    assert game is not None
    assert game.first_player == 0
    assert game.ended_at is not None and game.ended_at.line == 19  # `end game`


def test_first_player_chosen_by_the_rules():
    """Cromlech's first player is drawn: the game says who it was."""
    rules = rulesdsl.load(ROOT / "games/cromlech/cromlech.rules")
    firsts = set()
    for seed in range(1, 13):
        game = rules.new_game(players=3, seed=seed)
        while game.first_player is None and not game.over:
            game.apply_index(0)
        firsts.add(game.first_player)
        assert game.ended_at is None  # the game is on
    assert len(firsts) > 1 and firsts <= {0, 1, 2}
