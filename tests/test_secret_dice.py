"""Dice under a cup: a set of dice kept per player and seen by its owner only
(`dice cup per player: 5 d6 owner`), or by nobody (`hidden`), until `reveal` shows it.

The faces stay behind the information boundary everywhere a seat is shown the game: its
view and observation, the narration of a game that pauses at its chance steps, the
terminal's drawing; the sampler rolls again the dice a seat cannot see; saves and records
keep the faces and what was revealed. Liar's Dice (tests/games/liars_dice.rules) is the
game written with it.
"""

from __future__ import annotations

import random

import pytest

import rulesdsl
from rulesdsl import Observation
from rulesdsl.interpreter.sampling import reroll_hidden_dice, sample_game
from rulesdsl.terminal import show_state

from .boundary import check
from .conftest import ROOT
from .continuations import continuations

LIARS = ROOT / "tests" / "games" / "liars_dice.rules"

CUPS = """game "Cups"
players 2

die d6: faces 1..6
dice cup per player: 3 d6 owner
dice pot: 2 d6 hidden
counter seen = 0

play:
    for each p in players:
        roll cup of p
    roll pot
    choose n in 1..2 by player 1 as "wait {n}"
    reveal cup of player 2
    reveal pot[1]
    set seen = sum(face of d for d in cup of player 2)
    choose n in 1..2 by player 1 as "wait again {n}"
    roll (cup of player 2)[1]
    choose n in 1..2 by player 1 as "wait once more {n}"
    end game
"""


def _cups() -> rulesdsl.Rules:
    return rulesdsl.load_text(CUPS, "cups.rules")


def _faces(game: rulesdsl.Game, name: str) -> list:
    """Every face of a set, as the rules see them (an onlooker's view would hide them)."""
    info = game.program.declared.dice[name]
    count = info.per_seat * game.players if info.per_seat else info.count
    return game.dice(name)[:count]


def _hidden_rolled_again(game: rulesdsl.Game, seat: int) -> rulesdsl.Game:
    """A copy of `game` whose dice unseen by `seat` show other faces (rolled again until
    some differ), all else the same."""
    for attempt in range(100):
        other = game.copy()
        reroll_hidden_dice(other, seat, random.Random(attempt))
        if other.dice("cup") != game.dice("cup"):
            return other
    raise AssertionError("the hidden dice rolled the same faces a hundred times")


def test_liars_dice_examples_hold() -> None:
    diags, _ = rulesdsl.check_file(LIARS)
    assert [d for d in diags if d.severity == "error"] == []


def test_each_player_sees_the_faces_of_their_own_cup_only() -> None:
    game = _cups().new_game(players=2, seed=3)
    faces = _faces(game, "cup")
    mine, theirs = game.view(0)["dice"]["cup"], game.view(1)["dice"]["cup"]
    assert mine == [faces[:3], ["?", "?", "?"]]
    assert theirs == [["?", "?", "?"], faces[3:]]
    assert game.view(None)["dice"]["cup"] == [["?"] * 3, ["?"] * 3]
    assert game.view(0)["dice"]["pot"] == ["?", "?"]   # hidden: nobody sees it


def test_reveal_shows_the_dice_to_everyone_until_they_are_rolled_again() -> None:
    game = _cups().new_game(players=2, seed=3)
    game.apply_index(0)
    faces = _faces(game, "cup")
    assert game.view(0)["dice"]["cup"][1] == faces[3:]
    assert game.view(0)["dice"]["pot"][0] == _faces(game, "pot")[0]
    assert game.view(0)["dice"]["pot"][1] == "?"
    game.apply_index(0)   # the first die of player 2 is rolled again: under the cup again
    assert game.view(0)["dice"]["cup"][1][0] == "?"
    assert game.view(0)["dice"]["cup"][1][1:] == _faces(game, "cup")[4:]


def test_a_paused_roll_is_told_to_its_owner_only() -> None:
    game = _cups().new_game(players=2, seed=3, narrate=True, auto_chance=False)
    while game.is_chance:
        game.roll_chance()
    faces = _faces(game, "cup")
    assert game.log_for(0)[:4] == [f"chance: rolled {f}" for f in faces[:3]] + [
        "chance: a die rolled in secret"]
    assert game.log_for(1)[3:6] == [f"chance: rolled {f}" for f in faces[3:]]
    assert "chance: rolled" not in " ".join(game.log_for(0)[3:])


def test_another_seat_is_shown_the_same_whatever_the_hidden_faces() -> None:
    """Two games that differ only in player 2's dice (and the pot) show player 1 the same
    thing, and the games the sampler makes up for player 1 from them are the same game."""
    rules = rulesdsl.load(LIARS)
    for seed in range(4):
        game = rules.new_game(players=3, seed=seed)
        game.apply_index(2)
        other = _hidden_rolled_again(game, 0)   # the dice of players 2 and 3
        assert Observation(game, 0).view == Observation(other, 0).view
        assert [o.label for o in Observation(game, 0).options] == \
            [o.label for o in Observation(other, 0).options]
        made = sample_game(game, 0, random.Random(seed))
        made_other = sample_game(other, 0, random.Random(seed))
        assert made.state_key() == made_other.state_key()


def test_the_sampler_rolls_again_the_dice_a_seat_cannot_see() -> None:
    game = _cups().new_game(players=2, seed=3)
    real = _faces(game, "cup")
    seen_others = set()
    for s in range(30):
        world = Observation(game, 0).sample_game(random.Random(s))
        faces = _faces(world, "cup")
        assert faces[:3] == real[:3]          # its own dice stay as they are
        seen_others.add(tuple(faces[3:]))
    assert len(seen_others) > 20              # the others' are made up afresh
    game.apply_index(0)   # player 2's cup revealed: a made-up game keeps it
    world = Observation(game, 0).sample_game(random.Random(1))
    assert _faces(world, "cup") == _faces(game, "cup")


@pytest.mark.parametrize("players", [2, 3])
def test_no_seat_sees_another_cup(players: int) -> None:
    rules = rulesdsl.load(LIARS)
    assert check(rules, players, seed=1) > 0
    check(rules, players, seed=2, auto_chance=False)


def test_made_up_games_of_liars_dice_play_to_their_end() -> None:
    rules = rulesdsl.load(LIARS)
    tally = continuations(rules, 2, seed=1, samples=1, every=6, seats="all", limit=2_000)
    assert tally.tried > 5
    assert tally.ended == tally.tried


def test_a_save_keeps_the_faces_and_what_was_revealed() -> None:
    rules = _cups()
    game = rules.new_game(players=2, seed=5)
    game.apply_index(0)
    again = rules.load_game(game.to_json())
    assert again.view(0)["dice"] == game.view(0)["dice"]
    assert again.view(1)["dice"] == game.view(1)["dice"]
    data = game.to_json()
    first = rules.program.layout.shown["cup"]
    data["state"]["counters"][first] = 2
    with pytest.raises(rulesdsl.RulesError, match="revealed is not 0 or 1"):
        rules.load_game(data)


def test_the_terminal_draws_each_cup_with_hidden_dice() -> None:
    rules = _cups()
    game = rules.new_game(players=2, seed=3)
    faces = _faces(game, "cup")
    lines = show_state(game.view(1), rules)
    assert "cup of player 1: ? ? ?" in lines
    assert f"cup of player 2: {' '.join(str(f) for f in faces[3:])}" in lines


REROLL = """game "Shake again"
players 2

die d6: faces 1..6
dice cup per player: 3 d6 owner

play:
    turns for 1 round:
        roll cup of current
        choose any redo in cup of current as "roll again: {redo}"
        roll redo
    end game

example "a player's dice by their ids: cup, seat, die":
    play "1", "2", "3"
    expect options include "cup1-1+cup1-3"
    play "cup1-1+cup1-3", "6", "5"
    expect [face of d for d in cup of player 1] == [6, 2, 5]
"""


def test_the_example_of_a_reroll_holds(tmp_path) -> None:
    (tmp_path / "shake.rules").write_text(REROLL, encoding="utf-8")
    diags, _ = rulesdsl.check_file(tmp_path / "shake.rules")
    assert [d for d in diags if d.severity == "error"] == []


def test_a_players_dice_are_named_by_seat_and_place() -> None:
    rules = rulesdsl.load_text(REROLL, "shake.rules")
    game = rules.new_game(players=2, seed=1)
    labels = [o.label for o in game.decision.options]
    assert "roll again: [cup of player 1, die 1, cup of player 1, die 3]" in labels
    assert Observation(game, 1).view["dice"]["cup"][0] == ["?", "?", "?"]


def test_a_record_replays_the_dice_under_the_cups() -> None:
    from rulesdsl.interpreter.records import make_record, parse_record, replay

    rules = rulesdsl.load(LIARS)
    game = rules.new_game(players=3, seed=7)
    rng = random.Random(7)
    for _ in range(25):
        if game.over:
            break
        game.apply_index(rng.randrange(game.num_options()))
    record = make_record(rules, str(LIARS), 3, 7, list(game.history))
    again = replay(parse_record(record.model_dump()), rules)
    assert again.state_key() == game.state_key()
    assert _faces(again, "cup") == _faces(game, "cup")


def test_the_observation_tensor_holds_a_seats_own_cup_and_not_the_others() -> None:
    """The tensor the adapters hand a learning agent is made from the seat's view: the
    same for two games that differ only under another player's cup."""
    np = pytest.importorskip("numpy")
    from rulesdsl.adapters.tensor import ViewTensor

    rules = rulesdsl.load(LIARS)
    game = rules.new_game(players=2, seed=3)
    other = _hidden_rolled_again(game, 0)   # player 2's dice
    tensor = ViewTensor(rules, 2)
    assert np.array_equal(tensor.encode(game.view(0)), tensor.encode(other.view(0)))
    assert not np.array_equal(tensor.encode(game.view(1)), tensor.encode(other.view(1)))


def test_the_adapters_know_a_game_with_dice_under_a_cup_hides_something() -> None:
    from rulesdsl.adapters.traits import Traits

    assert Traits.of(rulesdsl.load(LIARS)).hidden
    shaken = REROLL.replace("dice cup per player: 3 d6 owner", "dice cup per player: 3 d6")
    assert Traits.of(rulesdsl.load_text(REROLL, "shake.rules")).hidden
    assert not Traits.of(rulesdsl.load_text(shaken, "open.rules")).hidden


def test_openspiel_plays_liars_dice_with_its_cups() -> None:
    """OpenSpiel's own checks of a game (random play, serialisation, the observation and
    information-state of each seat) hold for a game with dice under a cup."""
    pyspiel = pytest.importorskip("pyspiel")
    from rulesdsl.adapters import openspiel

    game = openspiel.load_game(LIARS)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
