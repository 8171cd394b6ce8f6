"""Cromlech beyond its rule-file examples: whole random games, the drafting counts, what
each player's view hides, and the game report of `rulesdsl run`."""

from __future__ import annotations

import random

import pytest

import rulesdsl
from rulesdsl.cli import main

from .conftest import ROOT

CROMLECH = ROOT / "games/cromlech/cromlech.rules"


@pytest.fixture(scope="module")
def rules():
    return rulesdsl.load(CROMLECH)


def zone(game, name, player=None):
    return game.zone(name, player)


def counter(game, name):
    return game.counter(name)


def play_until(game, rng, done):
    while not game.over and not done(game):
        game.apply_index(rng.randrange(game.num_options()))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_year_every_player_drafts_eight_stones(rules, players):
    for seed in range(3):
        game = rules.new_game(players=players, seed=seed)
        rng = random.Random(seed)
        play_until(game, rng, lambda g: counter(g, "battle") == 1)
        for p in range(players):
            assert len(zone(game, "circle", p)) == 8
            assert len(zone(game, "hand", p)) == 0
        # 8 x players placements, 8 x players + 1 draws from 32: the last card of a Year
        # is left over, unless the deck ran out (4 players)
        left = len(zone(game, "left_over"))
        assert left == (0 if players == 4 else 1)
        assert len(zone(game, "trilithons")) == max(0, 32 - 8 * players - 1)
        play_until(game, rng, lambda g: counter(g, "battle") == 5)
        stones = sum(len(zone(game, z, p)) for z in ("circle", "stone_pile")
                     for p in range(players))
        assert stones == 16 * players


@pytest.mark.parametrize("players", [2, 4])
def test_random_games_last_twelve_battles_and_keep_every_card(rules, players):
    for seed in range(4):
        game = rules.new_game(players=players, seed=seed)
        rng = random.Random(seed)
        play_until(game, rng, lambda g: False)
        assert game.over
        assert counter(game, "battle") == 12 and counter(game, "year") == 3
        lintels = len(zone(game, "lintel_deck")) + len(zone(game, "display")) + sum(
            len(zone(game, z, p)) for z in ("lintels", "lintel_pile") for p in range(players))
        assert lintels == 30
        druids = sum(len(zone(game, z, p)) for z in ("unused", "active", "inactive",
                                                        "druid_pile") for p in range(players))
        assert druids == 4 * players
        assert len(zone(game, "pool")) == 16 and not zone(game, "held")


def test_views_hide_hands_decks_and_the_first_druid_choice(rules):
    game = rules.new_game(players=3, seed=2, narrate=True)
    rng = random.Random(2)
    play_until(game, rng, lambda g: len(zone(g, "hand", 1)) > 0)
    view = game.view(0)
    assert view["zones"]["trilithons"] == {"size": len(zone(game, "trilithons"))}
    assert view["zones"]["hand"][1] == {"size": len(zone(game, "hand", 1))}
    assert isinstance(game.view(1)["zones"]["hand"][1], list)
    # Year 1: the druids are chosen in secret, held by the engine, then shown together
    play_until(game, rng, lambda g: g.decision is not None and g.decision.secret
               and g.decision.player == 1)
    assert game.decision.simultaneous == (1, 2)  # player 1 has chosen, 2 and 3 are asked
    assert game.view(2)["decision"] == {"player": 1, "simultaneous": [1, 2]}
    assert game.view(0)["counters"]["druid"] == [None, None, None]
    assert "unused" in game.view(1)["zones"] and len(zone(game, "unused", 0)) == 4
    assert game.log_for(1)[-1] == "player 1 chooses in secret"
    play_until(game, rng, lambda g: counter(g, "battle") == 1)
    assert all(d is not None for d in game.view(1)["counters"]["druid"])


def test_the_game_report_names_the_deeds_and_the_scores(capsys):
    assert main(["run", str(CROMLECH), "--players", "4", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    for words in ("is First Player for Year 1", "places the", "reveals", "summons",
                  "rolls [", "rolls again", "wounds", "builds the", "rends the",
                  "Year 3, battle 12: Spring", "points ("):
        assert words in out, words
    assert out.count("points (") == 4


def test_the_terminal_shows_each_zone_as_the_player_sees_it(rules):
    from rulesdsl.terminal import show_state

    game = rules.new_game(players=2, seed=3)
    rng = random.Random(1)
    play_until(game, rng, lambda g: len(zone(g, "hand", 1)) > 0 and g.decision.player == 1)
    mine, theirs = show_state(game.view(1), rules), show_state(game.view(0), rules)
    view = game.view(1)
    hand = ", ".join(view["components"]["Stone"][c]["label"] for c in view["zones"]["hand"][1])
    assert f"hand of player 2: {hand}" in mine
    assert f"hand of player 2: {len(zone(game, 'hand', 1))} hidden" in theirs
    assert any(line.startswith("trilithons: ") and line.endswith(" hidden") for line in mine)
    # the rule file's display: its bookkeeping is not drawn, the supply is one group
    text = "\n".join(mine)
    assert "First Player: player " in text and "first_player" not in text
    assert "placements" not in text and "rerolls" not in text and "again" not in text
    assert "the supply:\n  wound tokens: 12\n  defence tokens: 12" in text
    # a stone in a circle is drawn at the Gariadon it stands in, round the circle's ring
    at = mine.index("circle of player 1:")
    assert any(line.startswith("    North inner: ") for line in mine[at:])


def test_a_player_is_told_the_card_they_pass_and_no_one_else_is(rules):
    game = rules.new_game(players=3, seed=4, narrate=True)
    rng = random.Random(4)
    play_until(game, rng, lambda g: counter(g, "placements") >= 6)
    for seat in range(3):
        passed = [line for line in game.lines() if line.text.startswith("you pass the ")]
        mine = [line.text for line in passed if line.told(seat)]
        assert len(mine) == 2 and all(line.to is not None and len(line.to) == 1
                                      for line in passed)
        assert all(text in game.log_for(seat) for text in mine)
    assert not any(t.startswith("you pass") for t in game.log_for(None))
