"""Copies of a game share what they can with their original (zones, the frames below the top
one, the index of where each component is, the history so far: rulesdsl/interpreter/state.py
and Game.copy), so neither side may ever see the other's later steps. Each game here is
compared, as saved (`Game.to_json`), with the same game replayed from its seed and history,
or loaded from its save."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import rulesdsl
from rulesdsl.diagnostics import RulesError
from rulesdsl.interpreter.sampling import sample_game

ROOT = Path(__file__).resolve().parents[1]
GAMES = ["cromlech/cromlech.rules", "cleromancy/expedition.rules", "pig/pig.rules"]


def saved(game) -> str:
    """The game as saved, as text (a snapshot: `to_json` shares the game's lists)."""
    return json.dumps(game.to_json(), sort_keys=True)


def replayed(rules, game):
    fresh = rules.new_game(players=game.players, seed=game.seed)
    for i in game.history:
        fresh.apply_index(i)
    return fresh


def players(rules) -> int:
    return min(4, rules.player_range[1])


@pytest.mark.parametrize("name", GAMES)
def test_copies_and_their_original_never_see_each_others_steps(load_rules, name):
    rules = load_rules(ROOT / "games" / name)
    rng = random.Random(7)
    root = rules.new_game(players=players(rules), seed=3)
    for _ in range(40):
        root.apply_index(rng.randrange(root.num_options()))
    before = saved(root)
    family = [root.copy()]
    for _ in range(60):  # a tree of copies, each played a few steps on
        game = rng.choice(family).copy()
        for _ in range(rng.randrange(1, 6)):
            if game.over:
                break
            game.apply_index(rng.randrange(game.num_options()))
        family.append(game)
    assert saved(root) == before
    for game in family[::7] + family[-3:]:
        assert saved(game) == saved(replayed(rules, game))
    root.apply_index(0)  # the original plays on from its shared frames and zones
    assert saved(root) == saved(replayed(rules, root))


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
            assert saved(game) == saved(copy)
            rolled += 1
        else:
            game.apply_index(0)
    assert game.history == [0] * len(game.history)


def test_where_each_component_is_follows_every_move(load_rules):
    """Copies and made-up games move components as a game loaded from their save does
    (a load works out afresh which zone holds each component)."""
    rules = load_rules(ROOT / "games" / "cromlech" / "cromlech.rules")
    rng = random.Random(2)
    game = rules.new_game(players=4, seed=5)
    games = []
    for step in range(240):
        game.apply_index(rng.randrange(game.num_options()))
        if step % 40 == 0:
            games += [game.copy(), sample_game(game, game.current or 0, rng)]
    for g in [game, *games]:
        loaded = rules.load_game(json.loads(saved(g)))
        for _ in range(40):
            if g.over:
                break
            i = rng.randrange(g.num_options())
            g.apply_index(i)
            loaded.apply_index(i)
        assert saved(g) == saved(loaded)


def test_a_save_with_a_component_twice_is_corrupt(load_rules):
    rules = load_rules(ROOT / "games" / "cromlech" / "cromlech.rules")
    game = rules.new_game(players=2, seed=1)
    for _ in range(10):
        game.apply_index(0)
    data = json.loads(saved(game))
    zones = data["state"]["zones"]
    full = next(i for i, z in enumerate(zones) if z)
    zones[full].append(zones[full][0])
    with pytest.raises(RulesError) as err:
        rules.load_game(data)
    assert err.value.diagnostics[0].code == "G001" and "in two places" in str(err.value)
    assert saved(rules.load_game(json.loads(saved(game)))) == saved(game)


HANDS = """game "Hands"
players 2

kind Card(n):
    each 1..6
zone pile: Card hidden
zone held per player: Card owner

setup:
    for each c in Card:
        move c to pile
    shuffle pile

rule look(x):
    choose n in 1..2 by player 1 as "n {n}"
    move x to pile

play:
    let card = top(pile)
    move card to held of player 2
    look(card)
    end game
"""


def test_a_made_up_game_renames_components_in_its_own_frames_only():
    """Player 1 pauses inside `look` while the frame below holds a card player 1 cannot
    see: the made-up game deals that card anew and renames it in the frame below, which
    it shares with the real game until then."""
    rules = rulesdsl.load_text(HANDS, "hands.rules")
    renamed = 0
    for seed in range(10):
        game = rules.new_game(players=2, seed=seed)
        before = saved(game)
        world = sample_game(game, 0, random.Random(seed))
        assert saved(game) == before
        below = [json.loads(saved(g))["state"]["stack"][0] for g in (game, world)]
        renamed += below[0] != below[1]
    assert renamed
