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


PIECES = """game "Pieces"
players 2

kind Unit(name):
    "Spy"
    "Guard"
    "Scout"

zone barracks: Unit hidden
zone hand per player: Unit owner
zone camp: Unit public

counter hp per Unit = 3
counter orders per Unit = 7 secret
counter known per player per Unit = false

setup:
    move Unit[1] to barracks
    move Unit[2] to hand of player 1
    move Unit[3] to camp
    set hp of Unit[1] = 1
    set hp of Unit[2] = 2
    set known of (player 2, Unit[1]) = true

play:
    choose u in hand of player 1 by player 1 as "send the {u}"
    end game
"""


def test_a_component_the_viewer_cannot_see_is_not_shown_nor_its_counters():
    game = rulesdsl.load_text(PIECES, "pieces.rules").new_game(players=2, seed=1)
    mine, theirs = game.view(0), game.view(1)
    assert mine["zones"] == {"barracks": {"size": 1}, "hand": [["guard"], {"size": 0}],
                             "camp": ["scout"]}
    assert mine["components"]["Unit"] == {
        "guard": {"label": "Guard", "counters": {"hp": 2}},
        "scout": {"label": "Scout", "counters": {"hp": 3}}}
    assert theirs["components"]["Unit"] == {"scout": {"label": "Scout", "counters": {"hp": 3}}}
    assert theirs["zones"]["hand"] == [{"size": 1}, []]
    # a counter kept per player and per component: the hidden components' entries are "?"
    assert mine["counters"]["known"] == [["?", False, False], ["?", False, False]]
    assert theirs["counters"]["known"] == [["?", "?", False], ["?", "?", False]]
    assert "orders" not in json.dumps(mine) and "hp" not in theirs["counters"]
