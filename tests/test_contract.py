"""The contract every game under games/ must keep (found automatically).

Random playouts finish; the same seed and choices give the same game; a copy is
independent of its original; a game saved mid-way and loaded plays on identically; a
decision (or a chance step) is pending until the game ends, with unique option ids;
a game record (seed + decisions) replays to the same end; a player's view shows no other
player's secrets; the rule file's own examples hold.
"""

from __future__ import annotations

import json
import random

import pytest

from rulesdsl.agents.play import agents_for, play_out
from rulesdsl.interpreter.examples import run_examples

from .conftest import GAME_PARAMS

PLAYOUTS = 15


def player_counts(rules):
    low, high = rules.player_range
    return sorted({low, high, min(low + 1, high)})


def random_game(rules, players, seed, stop_after=None):
    game = rules.new_game(players=players, seed=seed)
    rng = random.Random(seed)
    steps = 0
    while not game.over and (stop_after is None or steps < stop_after):
        game.apply_index(rng.randrange(game.num_options()))
        steps += 1
    return game


@pytest.mark.parametrize("path", GAME_PARAMS)
def test_examples_hold(path, load_rules):
    rules = load_rules(path)
    assert run_examples(rules) == []


@pytest.mark.parametrize("path", GAME_PARAMS)
def test_random_playouts_finish(path, load_rules):
    rules = load_rules(path)
    for players in player_counts(rules):
        for seed in range(PLAYOUTS):
            game = random_game(rules, players, seed)
            assert game.over
            result = game.result
            assert len(result.ranking) == players
            assert min(result.ranking) == 1
            assert all(1 <= r <= players for r in result.ranking)


@pytest.mark.parametrize("path", GAME_PARAMS)
def test_same_seed_same_game(path, load_rules):
    rules = load_rules(path)
    players = rules.player_range[1]
    for seed in range(5):
        a = random_game(rules, players, seed)
        b = random_game(rules, players, seed)
        assert a.history == b.history
        assert a.state_key() == b.state_key()


@pytest.mark.parametrize("path", GAME_PARAMS)
def test_decision_until_the_end(path, load_rules):
    rules = load_rules(path)
    game = rules.new_game(players=rules.player_range[0], seed=4, auto_chance=False)
    rng = random.Random(4)
    while not game.over:
        step = game.decision if not game.is_chance else game.chance
        assert step is not None
        options = game.decision.options if game.decision else [o for o, _ in step.outcomes]
        assert options, "a pending step must offer options"
        ids = [o.id for o in options]
        assert len(set(ids)) == len(ids), f"duplicate option ids {ids}"
        assert all(o.label for o in options)
        if game.is_chance:
            assert abs(sum(p for _, p in step.outcomes) - 1) < 1e-9
        game.apply(rng.choice(ids))
    assert game.decision is None and game.chance is None


@pytest.mark.parametrize("path", GAME_PARAMS)
def test_copy_is_independent(path, load_rules):
    rules = load_rules(path)
    game = random_game(rules, rules.player_range[0], 7, stop_after=3)
    if game.over:
        pytest.skip("the game ended at once")
    before = game.state_key()
    copy = game.copy()
    copy.apply_index(copy.num_options() - 1)
    assert game.state_key() == before
    assert game.copy().state_key() == before


@pytest.mark.parametrize("path", GAME_PARAMS)
def test_save_and_load_midgame(path, load_rules):
    rules = load_rules(path)
    for stop in (0, 2, 5):
        game = random_game(rules, rules.player_range[1], 11, stop_after=stop)
        saved = json.loads(json.dumps(game.to_json()))
        loaded = rules.load_game(saved)
        assert loaded.state_key() == game.state_key()
        rng_a, rng_b = random.Random(3), random.Random(3)
        while not game.over:
            game.apply_index(rng_a.randrange(game.num_options()))
            loaded.apply_index(rng_b.randrange(loaded.num_options()))
        assert loaded.over
        assert loaded.result == game.result
        assert loaded.state_key() == game.state_key()


@pytest.mark.parametrize("path", GAME_PARAMS)
def test_record_replays(path, load_rules):
    """A record is the seed and the decisions; chance outcomes come from the seed, whether
    the game paused at them (narrated runs) or not."""
    rules = load_rules(path)
    players = rules.player_range[0]
    paused = rules.new_game(players=players, seed=5, auto_chance=False)
    play_out(paused, agents_for(["random"], players, 5))
    replay = rules.new_game(players=players, seed=5)
    for i in paused.history:
        replay.apply_index(i)
    assert replay.over
    assert replay.result == paused.result


@pytest.mark.parametrize("path", GAME_PARAMS)
def test_views_hide_secrets(path, load_rules):
    rules = load_rules(path)
    players = rules.player_range[1]
    game = random_game(rules, players, 2, stop_after=4)
    for viewer in range(players):
        view = game.view(viewer)
        json.dumps(view)
        decision = game.decision
        if decision is not None and decision.player != viewer:
            assert "options" not in view.get("decision", {})
        for name, shape in rules.counters.items():
            if not shape.secret or name not in view["counters"]:
                continue
            shown = view["counters"][name]
            if shape.keys and shape.keys[0] == "player":
                for p in range(players):
                    if p != viewer:
                        assert shown[p] in ("?", ["?"] * len(shown[p]) if isinstance(
                            shown[p], list) else "?")
            else:
                assert shown == "?" or shown == ["?"] * len(shown)
