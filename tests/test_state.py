"""Copies of a game share what they can with their original (zones, the frames below the top
one, the history so far: rulesdsl/interpreter/state.py and Game.copy), so neither side may
ever see the other's later steps. Each game here is compared with the same game replayed
from its seed and history."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GAMES = ["cromlech/cromlech.rules", "cleromancy/expedition.rules", "pig/pig.rules"]


def replayed(rules, game):
    fresh = rules.new_game(players=game.players, seed=game.seed)
    for i in game.history:
        fresh.apply_index(i)
    return fresh


@pytest.mark.parametrize("name", GAMES)
def test_copies_and_their_original_never_see_each_others_steps(load_rules, name):
    rules = load_rules(ROOT / "games" / name)
    rng = random.Random(7)
    root = rules.new_game(players=min(4, rules.analysis.max_players), seed=3)
    for _ in range(40):
        root.apply_index(rng.randrange(root.num_options()))
    before = root.st.key()
    family = [root.copy()]
    for _ in range(60):  # a tree of copies, each played a few steps on
        game = rng.choice(family).copy()
        for _ in range(rng.randrange(1, 6)):
            if game.over:
                break
            game.apply_index(rng.randrange(game.num_options()))
        family.append(game)
    assert root.st.key() == before
    for game in family[::7] + family[-3:]:
        assert game.st.key() == replayed(rules, game).st.key()
    root.apply_index(0)  # the original plays on from its shared frames and zones
    assert root.st.key() == replayed(rules, root).st.key()


def test_the_history_of_copies(load_rules):
    rules = load_rules(ROOT / "games" / "pig" / "pig.rules")
    game = rules.new_game(players=2, seed=1)
    game.apply_index(0)
    first = game.copy()
    game.apply_index(0)
    second = game.copy()
    second.apply_index(1)
    assert first.history == [0]
    assert game.history == [0, 0]
    assert second.history == [0, 0, 1]
    assert second.copy().copy().history == [0, 0, 1]
    kept = game.history
    game.history = [0]   # set whole (a loaded game): copies from then on start from it
    assert game.copy().history == [0] and kept == [0, 0]


def test_a_chance_step_rolled_is_not_in_the_history(load_rules):
    rules = load_rules(ROOT / "games" / "pig" / "pig.rules")
    game = rules.new_game(players=2, seed=1, auto_chance=False)
    rolled = 0
    while rolled < 3 and not game.over:
        if game.is_chance:
            copy = game.copy()
            game.roll_chance()
            copy.roll_chance()
            assert game.st.key() == copy.st.key()
            rolled += 1
        else:
            game.apply_index(0)
    assert game.history == [0] * len(game.history)


def test_the_index_of_components_follows_every_move(load_rules):
    """`State.at` (which zone holds each component) is what the zones' lists say, after
    random play, in copies and in games the sampler made up."""
    from rulesdsl.interpreter.sampling import sample_game

    rules = load_rules(ROOT / "games" / "cromlech" / "cromlech.rules")
    rng = random.Random(2)
    game = rules.new_game(players=4, seed=5)
    games = []
    for step in range(300):
        game.apply_index(rng.randrange(game.num_options()))
        if step % 30 == 0:
            games += [game.copy(), sample_game(game, game.current or 0, rng)]
    for g in [game, *games]:
        at = g.st.at
        g.st.index_zones(rules.zone_kinds, rules.kind_sizes)
        assert at == g.st.at
    assert any(c >= 0 for where in game.st.at for c in where)


def test_a_save_with_a_component_twice_is_corrupt(load_rules):
    from rulesdsl.diagnostics import RulesError

    rules = load_rules(ROOT / "games" / "cromlech" / "cromlech.rules")
    game = rules.new_game(players=2, seed=1)
    for _ in range(10):
        game.apply_index(0)
    data = json.loads(json.dumps(game.to_json()))
    zones = data["state"]["zones"]
    full = next(i for i, z in enumerate(zones) if z)
    zones[full].append(zones[full][0])
    with pytest.raises(RulesError) as err:
        rules.load_game(data)
    assert err.value.diagnostics[0].code == "G001" and "in two places" in str(err.value)
    assert rules.load_game(game.to_json()).st.key() == game.st.key()


HANDS = """game "Hands"
players 2

kind Card(n):
    1
    2
    3
    4
    5
    6
zone deck: Card hidden
zone hand per player: Card owner

setup:
    for each c in Card:
        move c to deck
    shuffle deck

rule look(x):
    choose n in 1..2 by player 1 as "n {n}"
    move x to deck

play:
    let held = top(deck)
    move held to hand of player 2
    look(held)
    end game
"""


def test_a_made_up_game_renames_components_in_its_own_frames_only():
    """Player 1 pauses inside `look` while the frame below holds a card player 1 cannot
    see: the made-up game deals that card anew and renames it in the frame below, which
    it shares with the real game until then."""
    import rulesdsl
    from rulesdsl.interpreter.sampling import sample_game

    rules = rulesdsl.load_text(HANDS, "hands.rules")
    renamed = 0
    for seed in range(10):
        game = rules.new_game(players=2, seed=seed)
        before = game.st.key()
        world = sample_game(game, 0, random.Random(seed))
        assert game.st.key() == before
        renamed += world.st.stack[0][1] != game.st.stack[0][1]
    assert renamed
