"""`Game.play_by_number`, the loop `simulate` plays its random agents with: the same
games, step for step, as `apply_index` called for each decision, whatever the game
(chance steps rolled at once or waiting, secret decisions, dice of a set, narration, the
limit of decisions), and its errors as `apply_index` gives them."""

from __future__ import annotations

from pathlib import Path

import pytest

import rulesdsl
from rulesdsl.diagnostics import RulesError
from rulesdsl.interpreter.state import Generator

ROOT = Path(__file__).resolve().parents[1]
GAMES = [("tictactoe/tictactoe", 2), ("pig/pig", 2), ("yacht/yacht", 1),
         ("goofspiel/goofspiel", 2), ("cromlech/cromlech", 4), ("cleromancy/cleromancy", 3)]


def by_apply(rules, players: int, seed: int, auto: bool = True, narrate: bool = False,
             limit: int | None = None):
    """The game played through `apply_index`, each seat's generator drawing its options."""
    game = rules.new_game(players=players, seed=seed, narrate=narrate, auto_chance=auto)
    if limit is not None:
        game.limit = limit
    seats = [Generator(seed * 10 + p).rand for p in range(players)]
    while not game.over:
        if game.is_chance:
            game.roll_chance()
        else:
            game.apply_index(seats[game.decider](game.num_options()))
    return game


def by_number(rules, players: int, seed: int, auto: bool = True, narrate: bool = False,
              limit: int | None = None):
    game = rules.new_game(players=players, seed=seed, narrate=narrate, auto_chance=auto)
    if limit is not None:
        game.limit = limit
    game.play_by_number([Generator(seed * 10 + p).rand for p in range(players)])
    return game


def same(a, b) -> None:
    assert a.history == b.history
    assert a.decisions == b.decisions
    assert a.result == b.result
    assert a.ended_by == b.ended_by and a.over and b.over
    assert a.state_key() == b.state_key()
    assert (a.log if a.narrated else None) == (b.log if b.narrated else None)


@pytest.mark.parametrize("name, players", GAMES)
def test_the_same_games_as_apply_index(name, players):
    rules = rulesdsl.load(ROOT / "games" / f"{name}.rules")
    for seed in range(1, 4):
        same(by_apply(rules, players, seed), by_number(rules, players, seed))


@pytest.mark.parametrize("name, players", [("pig/pig", 2), ("yacht/yacht", 1),
                                           ("cromlech/cromlech", 2)])
def test_chance_steps_that_wait_and_narrated_games(name, players):
    rules = rulesdsl.load(ROOT / "games" / f"{name}.rules")
    for seed in (1, 2):
        same(by_apply(rules, players, seed, auto=False),
             by_number(rules, players, seed, auto=False))
        narrated = by_number(rules, players, seed, narrate=True)
        same(by_apply(rules, players, seed, narrate=True), narrated)
        assert narrated.log


def test_the_limit_of_decisions_ends_the_game_where_apply_index_ends_it():
    rules = rulesdsl.load(ROOT / "games" / "cromlech" / "cromlech.rules")
    a, b = by_apply(rules, 4, 3, limit=25), by_number(rules, 4, 3, limit=25)
    same(a, b)
    assert b.ended_by == "limit" and b.decisions == 25 and b.result.ranking == [1, 1, 1, 1]


def test_secret_decisions_are_left_for_the_sampler_to_work_out():
    rules = rulesdsl.load(ROOT / "games" / "goofspiel" / "goofspiel.rules")
    assert rules.secret_sites
    game = by_number(rules, 2, 1)
    assert game._secrets is None  # worked out from the history when the sampler needs them


FRAGILE = """\
game "Fragile"
players 2

counter pot = 0

play:
    turns:
        choose n in 1..4 as "take {n}"
        add 12 / (n - 3) to pot
        if pot > 30:
            win current
"""


def test_a_rule_that_fails_is_reported_at_its_line_as_apply_index_reports_it():
    rules = rulesdsl.load_text(FRAGILE, "fragile.rules")
    errors = []
    for play in (lambda g: g.play_by_number([lambda n: 2, lambda n: 2]),
                 lambda g: g.apply_index(2)):
        game = rules.new_game(players=2, seed=1)
        with pytest.raises(RulesError) as info:
            play(game)
        (d,) = info.value.diagnostics
        errors.append((d.code, d.message, d.span.line))
    assert errors[0] == errors[1]
    code, message, line = errors[0]
    assert code == "R003" and "division by zero" in message and line == 9

def test_an_agents_own_error_and_a_bad_index_are_not_the_rules_fault():
    rules = rulesdsl.load(ROOT / "games" / "tictactoe" / "tictactoe.rules")

    def broken(n: int) -> int:
        raise ValueError("the agent broke")

    with pytest.raises(ValueError, match="the agent broke"):
        rules.new_game(players=2, seed=1).play_by_number([broken, broken])
    with pytest.raises(RulesError) as info:
        rules.new_game(players=2, seed=1).play_by_number([lambda n: n, lambda n: n])
    (d,) = info.value.diagnostics
    assert d.code == "G002" and "option 9 does not exist: there are 9 options" in d.message

