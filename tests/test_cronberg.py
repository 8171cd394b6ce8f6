"""Cronberg beyond its rule-file examples: the board's geometry, whole random games that
end only when nobody can act, and several games in a row with the scores carried over."""

from __future__ import annotations

import random
import re

import pytest

import rulesdsl
from rulesdsl.boards.grids import CornerBoard, TriangleBoard

from .conftest import ROOT

CRONBERG = ROOT / "games/cronberg/cronberg.rules"


@pytest.fixture(scope="module")
def rules():
    return rulesdsl.load(CRONBERG)


def test_the_board_is_a_hexagon_of_54_triangles_and_37_crossings(rules):
    city = rules.boards["city"].geometry
    crossings = rules.boards["crossings"].geometry
    assert isinstance(city, TriangleBoard) and isinstance(crossings, CornerBoard)
    assert city.size == 54 and crossings.size == 37
    assert len(city.pairs) == 72
    sizes = sorted(len(ts) for ts in city.around)
    assert sizes.count(6) == 19 and sizes.count(2) == 6 and sizes.count(3) == 12
    for t, ns in enumerate(city.neighbours):
        assert 1 <= len(ns) <= 3
        for n in ns:
            assert len(set(city.corners_of[t]) & set(city.corners_of[n])) == 2


def play_random(rules, players, seed):
    game = rules.new_game(players=players, seed=seed)
    rng = random.Random(seed)
    while not game.over:
        game.apply_index(rng.randrange(game.num_options()))
    return game


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_end_when_no_rhombus_fits(rules, players):
    for seed in range(5):
        game = play_random(rules, players, seed)
        board = rules.boards["city"].geometry
        city = game.cells("city")
        deck = game.zone("deck")
        assert not (deck and any(city[x] is None and city[y] is None
                                 for x, y in board.pairs))
        placed = [t for t in range(board.size) if city[t] is not None]
        assert len(placed) % 2 == 0
        built = game.zone("built")
        assert len(built) == len(placed) // 2
        assert len(built) + len(deck) == 28


def test_several_games_in_a_row_carry_the_scores(rules):
    three = rulesdsl.load(CRONBERG, {"GAMES": 3})
    game = three.new_game(players=3, seed=5, narrate=True)
    rng = random.Random(5)
    while not game.over:
        game.apply_index(rng.randrange(game.num_options()))
    assert game.counter("games_played") == 3
    assert sum("the next game starts" in line for line in game.log) == 2
    single = play_random(rules, 3, 5)
    assert len(game.history) > len(single.history)


def test_a_drawn_rhombus_is_shown_and_the_deck_is_hidden(rules):
    game = rules.new_game(players=2, seed=3)
    game.apply("rhomb")
    view = game.view(1)
    assert view["zones"]["deck"] == {"size": 27}
    assert len(view["zones"]["built"]) == 1
    drawn = view["components"]["Rhomb"][view["zones"]["built"][0]]["label"]
    labels = [o.label for o in game.decision.options]
    assert all(label.startswith("place the " + drawn) for label in labels)


def test_playing_at_the_terminal_draws_the_triangles(rules):
    import io

    from rulesdsl.agents.play import agents_for
    from rulesdsl.terminal import play_at_terminal

    game = rules.new_game(players=2, seed=4)
    out = io.StringIO()
    code = play_at_terminal(game, agents_for(["random"], 2, 4), {0},
                            stdin=io.StringIO("1\n" * 200), stdout=out)
    text = out.getvalue()
    assert code == 0 and "Result:" in text
    # the triangles in their rows, the crossings between them, the special ones marked
    assert "city:" in text and "A1" in text
    assert re.search(r"^  A +/\\ \\/ /\\", text, re.MULTILINE)
    assert re.search(r"^  a +\+ +\+", text, re.MULTILINE) and "P park" in text
