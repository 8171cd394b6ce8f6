"""Cleromancy beyond its rule-file examples: decisions stay small, the round limit is a
visible rule, and the board size is a setting."""

from __future__ import annotations

import random
import re

import pytest

import rulesdsl

from .conftest import ROOT

CLEROMANCY = ROOT / "games/cleromancy/cleromancy.rules"


@pytest.fixture(scope="module")
def rules():
    return rulesdsl.load(CLEROMANCY)


def random_game(rules, players, seed, narrate=False):
    game = rules.new_game(players=players, seed=seed, narrate=narrate)
    rng = random.Random(seed)
    largest = 0
    while not game.over:
        largest = max(largest, game.num_options())
        game.apply_index(rng.randrange(game.num_options()))
    return game, largest


def test_decisions_stay_small(rules):
    """A move is a unit then a square, damage one point at a time: on 8 x 8 no decision
    offers more than the 36 squares a Keep may stand on."""
    for seed in range(6):
        _, largest = random_game(rules, 2, seed)
        assert largest <= 36


def test_the_round_limit_is_reported(rules):
    ended = []
    for seed in range(12):
        game, _ = random_game(rules, 2, seed, narrate=True)
        ended.append(any("round limit (50 rounds)" in line for line in game.log))
        if ended[-1]:
            turns = game.counter("turns_taken")
            assert turns == 50 * 2
    assert any(ended), "random play should sometimes reach the limit"
    assert not all(ended), "and sometimes end with a fallen Keep"


def test_the_keep_goes_anywhere_but_the_edge_and_the_board_size_is_a_setting():
    for size, inner in ((8, 36), (12, 100)):
        rules = rulesdsl.load(CLEROMANCY, {"BOARD_SIZE": size})
        game = rules.new_game(players=2, seed=1)
        assert game.num_options() == inner
        assert all(o.label.startswith("place the Keep at") for o in game.decision.options)


def test_three_players_may_give_mana(rules):
    for seed in range(4):
        game = rules.new_game(players=3, seed=seed, narrate=True)
        rng = random.Random(seed)
        gave = False
        while not game.over and not gave:
            decision = game.decision
            gave = decision is not None and any(o.label.startswith("give mana to")
                                                for o in decision.options)
            game.apply_index(rng.randrange(game.num_options()))
        if gave:
            return
    pytest.fail("no mana gift was ever offered in 3-player games")


def test_the_terminal_names_each_unit_with_its_owner_and_hit_points(rules):
    import io

    from rulesdsl.agents.play import agents_for
    from rulesdsl.terminal import play_at_terminal

    game = rules.new_game(players=2, seed=2)
    out = io.StringIO()
    play_at_terminal(game, agents_for(["random"], 2, 2), {0}, stdin=io.StringIO("c3\n"),
                     stdout=out)
    text = out.getvalue()
    # where the random bot of seat 2 placed its Keep depends on its seed
    assert re.search(r"\b[a-h][1-8]: Keep \(hp 20, owner player 2, moved no\)", text)
    assert "hp: [" not in text  # per-unit counters are shown with their units
