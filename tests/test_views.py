"""Per-player views: a secret counter is seen by its own player only, and the options of
a decision only by the player who decides."""

from __future__ import annotations

import json

import rulesdsl

SECRET = """game "Secret bids"
players 3

counter bid per player = 0 secret
counter pot = 0 secret
counter round = 1

play:
    turns for 1 round:
        choose b in 1..3 as "bid {b}"
        set bid of current = b
        add b to pot
    end game
"""


def test_secret_counters_are_hidden_from_other_players():
    rules = rulesdsl.load_text(SECRET, "secret.rules")
    game = rules.new_game(players=3, seed=1)
    game.apply("2")          # player 1 bids 2
    game.apply("3")          # player 2 bids 3
    for viewer in range(3):
        view = game.view(viewer)
        json.dumps(view)
        bids = view["counters"]["bid"]
        assert bids[viewer] == [2, 3, 0][viewer]
        assert all(bids[p] == "?" for p in range(3) if p != viewer)
        assert view["counters"]["pot"] == "?"
        assert view["counters"]["round"] == 1


def test_only_the_decider_sees_the_options():
    rules = rulesdsl.load_text(SECRET, "secret.rules")
    game = rules.new_game(players=3, seed=1)
    mine = game.view(0)
    theirs = game.view(1)
    assert [o[0] for o in mine["decision"]["options"]] == ["1", "2", "3"]
    assert theirs["decision"] == {"player": 0}
