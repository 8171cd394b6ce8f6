"""The display declaration: what a screen draws, names and groups, the glyphs and owners of
pieces; plain data beside the views, which it leaves as they are."""

from __future__ import annotations

import json

import pytest

import rulesdsl
from rulesdsl.agents.play import describe_result
from rulesdsl.terminal import show_state

from .conftest import ROOT

KEEPS = """game "Keeps"
players 2

enum Unit: Keep, Scout
kind Piece(unit):
    2 x each Unit

board field: square 3 x 3 holding Piece
zone reserve: Piece public
counter owner per Piece = none holding player
counter moves = 0
counter gold per player = 0
counter silver = 2

display:
    hide moves, reserve
    label gold "gold coins"
    group "the treasury": silver, gold
    glyph Piece by unit: Keep "K", Scout "s"
    owner Piece by owner

setup:
    set owner of Piece[1] = player 1
    set owner of Piece[2] = player 2
    set owner of Piece[4] = player 2
    place Piece[1] at a1
    place Piece[2] at c3
    place Piece[4] at b2
    move Piece[3] to reserve

play:
    turns:
        choose c in field where c is empty by current
        add 1 to moves
        end game
"""


def keeps() -> rulesdsl.Rules:
    return rulesdsl.load_text(KEEPS, "keeps.rules")


def test_the_display_is_plain_data_for_any_screen():
    spec = keeps().display
    assert json.loads(json.dumps(spec)) == spec
    assert spec == {"hidden": ["moves", "reserve"], "labels": {"gold": "gold coins"},
                    "groups": [["the treasury", ["silver", "gold"]]],
                    "glyphs": {"Piece": {"keep-1": "K", "keep-2": "K", "scout-1": "s",
                                         "scout-2": "s"}},
                    "owners": {"Piece": "owner"}, "placers": [], "rings": {}, "cells": {},
                    "names": {},
                    "features": {},
                    "marks": {}, "seats": {"marks": [], "colours": []}}


def test_the_terminal_draws_glyphs_owners_labels_and_groups_and_hides_bookkeeping():
    rules = keeps()
    game = rules.new_game(players=2, seed=1)
    view = game.view(0)
    assert view["counters"]["moves"] == 0 and view["zones"]["reserve"] == ["scout-1"]
    lines = show_state(view, rules)
    assert lines[:5] == ["field:", "  3  .  . K2", "  2  . s2  .", "  1 K1  .  .",
                         "     a  b  c"]
    text = "\n".join(lines)
    assert "moves" not in text and "reserve" not in text
    assert text.endswith("the treasury:\n  silver: 2\n  gold coins: player 1: 0; player 2: 0")


def test_a_variant_adds_to_the_display(tmp_path):
    (tmp_path / "keeps.rules").write_text(KEEPS)
    v = tmp_path / "v.rules"
    v.write_text('extends "keeps.rules"\n\ndisplay:\n    hide silver\n'
                 '    label gold "coins"\n    glyph Piece by unit: Scout "S"\n')
    spec = rulesdsl.load(v).display
    assert spec["hidden"] == ["moves", "reserve", "silver"]
    assert spec["labels"] == {"gold": "coins"}
    assert spec["glyphs"]["Piece"]["scout-1"] == "S" and spec["glyphs"]["Piece"]["keep-1"] == "K"


def test_cleromancy_draws_each_keep_with_its_owner():
    rules = rulesdsl.load(ROOT / "games" / "cleromancy" / "cleromancy.rules")
    game = rules.new_game(players=2, seed=2)
    for _ in range(2):  # both Keeps are placed
        assert game.decision.prompt.startswith("choose c in field where keep_allowed(c)")
        game.apply_index(0)
    lines = show_state(game.view(0), rules)
    grid = "\n".join(lines[1:10])  # the rows of the 8 x 8 field, and its letters
    assert "K1" in grid and "K2" in grid and "Ke" not in grid
    text = "\n".join(lines)
    assert "first_roll" not in text and "turns_taken" not in text and "box:" not in text
    assert "first_roll" in game.view(0)["counters"]  # hidden from the screen, not the view
    # a zone of a player's names their dice without their owner: its title says it
    pool = next(line for line in lines if line.startswith("pool of player 2: "))
    assert pool.startswith("pool of player 2: Scion, ") and "owner" not in pool
    assert "owner player 1" in text   # the board's pieces keep theirs


def test_cromlech_hides_its_bookkeeping():
    rules = rulesdsl.load(ROOT / "games" / "cromlech" / "cromlech.rules")
    game = rules.new_game(players=2, seed=1)
    text = "\n".join(show_state(game.view(0), rules))
    for bookkeeping in ("placements", "rerolls", "major_used", "pair_used", "summoned"):
        assert bookkeeping not in text
    assert "First Player" in text and "wound tokens: 12" in text


RING = """game "Circle"
players 2

enum Colour: Grey, Blue
board stones: ring 12 holding Colour
board horseshoe: ring 4 open

display:
    glyph Colour: Grey "G", Blue "B"

play:
    turns:
        choose s in stones where s is empty
        place Blue at s
"""


def test_the_terminal_draws_a_ring_as_a_circle_with_the_first_position_at_the_top():
    rules = rulesdsl.load_text(RING)
    game = rules.new_game(seed=1)
    game.apply("stones1")
    game.apply("stones4")
    lines = show_state(game.view(0), rules)
    start = lines.index("stones:")
    circle = lines[start + 1:lines.index("    (stones1 at the top, then clockwise to stones12)")]
    marks = [(row, line.index("B")) for row, line in enumerate(circle) if "B" in line]
    # stones1 at the top, stones4 a quarter of the way round: at the right, half-way down
    assert marks[0][0] == 0 and marks[1][0] == len(circle) // 2
    assert marks[1][1] > marks[0][1]
    assert sum(line.count(".") for line in circle) == 10
    assert "    stones1=B  stones4=B" in lines
    assert "horseshoe4; its two ends are not neighbours" in " ".join(x.strip() for x in lines)


def test_cromlech_draws_each_circle_as_a_ring_of_its_gariadons():
    rules = rulesdsl.load(ROOT / "games" / "cromlech" / "cromlech.rules")
    game = rules.new_game(players=2, seed=1)
    while len(game.view(0)["zones"]["circle"][0]) < 3:  # Year 1's drafting goes on
        game.apply_index(0)
    view = game.view(0)
    spots = [view["components"]["Stone"][s]["counters"]["spot"] for s in view["zones"]["circle"][0]]
    lines = show_state(view, rules)
    start = lines.index("circle of player 1:")
    key = lines.index("    (North inner at the top, then clockwise; the initials of what stands "
                      "there)")
    circle = lines[start + 1:key]
    assert sum(ch.isalpha() for line in circle for ch in line) == 3  # a stone, a letter
    north = [view["components"]["Stone"][s]["label"][0] for s in view["zones"]["circle"][0]
             if view["components"]["Stone"][s]["counters"]["spot"] == "North inner"]
    assert circle[0].strip() == ("".join(north) or ".")  # the first place at the top
    listed = lines[key + 1:key + 1 + len(set(spots))]
    assert sorted(line.split(":")[0].strip() for line in listed) == sorted(set(spots))
    assert not any("spot" in line for line in listed)  # the ring says where; no need again


def test_a_zone_is_drawn_as_a_ring_only_by_a_counter_that_holds_a_place():
    base = """game "Stones"
players 2

enum Place: North, East, South, West
kind Stone(name):
    "stone 1"
    "stone 2"
    "stone 3"
counter spot per Stone = none holding Place
counter weight per Stone = 0
zone circle: Stone public

display:
    ring circle by {by}

play:
    move Stone[1] to circle
    set spot of Stone[1] = East
    move Stone[2] to circle
    end game
"""
    rules = rulesdsl.load_text(base.replace("{by}", "spot"))
    game = rules.new_game(seed=1)
    lines = show_state(game.view(0), rules)
    at = lines.index("circle:")
    key = "    (North at the top, then clockwise; the initials of what stands there)"
    circle = lines[at + 1:lines.index(key)]
    assert circle[0].strip() == "." and circle[-1].strip() == "."   # North and South: none
    assert [line.strip() for line in circle if "s" in line] == [".           s"]  # East
    assert "    East: stone 1" in lines and "    in no place: stone 2" in lines
    for wrong in ("weight", "circle"):
        with pytest.raises(rulesdsl.RulesError) as bad:
            rulesdsl.load_text(base.replace("{by}", wrong))
        assert "E090" in str(bad.value)


BUILDERS = """game "Builders"
players 2

enum Colour: Red, Blue
board wall: ring 6 holding Colour
die coin: faces [1, 2]

display:
    glyph Colour: Red "R", Blue "B"
    owner wall by placer

setup:
    place Blue at wall6

play:
    turns:
        choose c in Colour as "a {c} stone"
        choose s in wall where s is empty as "build at {s}"
        place c at s
        if current == player 2 and piece of wall1 == Red:
            let r = roll coin
            place Blue at wall5
        if all(x in wall where x is not empty):
            end game
"""


def test_a_piece_belongs_on_screen_to_the_player_who_placed_it():
    rules = rulesdsl.load_text(BUILDERS, "builders.rules")
    game = rules.new_game(players=2, seed=1, narrate=True)
    for option in ("Red", "wall1", "Blue", "wall2"):
        game.apply(option)
    # player 1 built wall1, player 2 wall2 and, after a roll in their turn, wall5; the
    # setup's stone has no placer
    placed = {"wall": {"wall1": "player 1", "wall2": "player 2", "wall5": "player 2"}}
    assert game.view(1)["placed"] == placed
    drawn = "\n".join(show_state(game.view(0), rules, 60))
    assert "wall1=R1  wall2=B2" in drawn and "wall5=B2  wall6=B" in drawn
    # the same when the roll waits as a step of its own
    stepped = rules.new_game(players=2, seed=1, narrate=True, auto_chance=False)
    for option in ("Red", "wall1", "Blue", "wall2"):
        stepped.apply(option)
    stepped.roll_chance()
    assert stepped.view(0)["placed"] == placed
    assert "the digit after a piece: the player who placed it" in drawn
    # the rules' state and record are untouched: an unnarrated game plays the same
    plain = rules.new_game(players=2, seed=1)
    for option in ("Red", "wall1", "Blue", "wall2"):
        plain.apply(option)
    assert plain.to_json()["state"] == game.to_json()["state"]
    assert "placed" not in plain.to_json()
    # a save keeps it, and a damaged one is refused
    saved = game.to_json()
    assert rules.load_game(saved).view(0)["placed"] == game.view(0)["placed"]
    with pytest.raises(rulesdsl.RulesError) as err:
        rules.load_game(dict(saved, placed=[["wall", 99, 0]]))
    assert err.value.diagnostics[0].code == "G001"


def test_only_a_board_is_owned_by_its_placer():
    bad = BUILDERS.replace("owner wall by placer", "owner wall by builder")
    with pytest.raises(rulesdsl.RulesError) as err:
        rulesdsl.load_text(bad, "builders.rules")
    (error,) = [d for d in err.value.diagnostics if d.code == "E090"]
    assert "owner wall by placer" in error.message


def test_solstice_draws_each_stone_with_its_builder():
    rules = rulesdsl.load("solstice")
    game = rules.new_game(players=3, seed=3, narrate=True)
    while not game.view(None).get("placed"):
        game.apply_index(0)
    view = game.view(0)
    (cell, builder), = view["placed"]["outer"].items()
    glyph = rules.display["glyphs"]["Colour"][view["boards"]["outer"][cell]]
    number = int(cell.removeprefix("outer"))
    for width in (80, 60):
        drawn = "\n".join(show_state(view, rules, width))
        assert f"Outer Circle {number}={glyph}{builder.removeprefix('player ')}" in drawn


ENDINGS = """game "Two ways out"
players 2

counter moves = 0

display:
    ended play "the moves ran out"
    ended quit "a player walked away"

rule quit():
    end game

play:
    turns:
        choose by current:
            option go:
                add 1 to moves
                if moves == 3:
                    end game
            option claim:
                win current as "a player claimed the game"
            option stop:
                quit()
"""


@pytest.mark.parametrize("moves,why", [
    (["go", "stop"], "a player walked away"),
    (["go", "go", "go"], "the moves ran out"),
    (["go", "claim"], "a player claimed the game"),   # a statement's own words
])
def test_the_final_screen_says_why_the_game_ended(moves, why):
    rules = rulesdsl.load_text(ENDINGS, "endings.rules")
    game = rules.new_game(players=2, seed=1)
    for option in moves:
        game.apply(option)
    assert game.why_ended == why and game.view(0)["result"]["why"] == why
    drawn = "\n".join(describe_result(game))
    assert f"the game ended: {why}" in drawn


def test_the_limit_is_why_a_game_ended_at_it():
    rules = rulesdsl.load_text(ENDINGS.replace("players 2", "players 2\nlimit 2 decisions")
                               .replace("if moves == 3", "if moves == 30"), "endings.rules")
    game = rules.new_game(players=2, seed=1)
    game.apply("go")
    game.apply("go")
    assert game.why_ended == "the game reached its limit of 2 decisions"


def test_an_ending_is_said_only_of_a_rule_that_ends_the_game():
    bad = ENDINGS.replace('ended quit "a player walked away"', 'ended go "gone"')
    with pytest.raises(rulesdsl.RulesError) as err:
        rulesdsl.load_text(bad, "endings.rules")
    assert [d.code for d in err.value.diagnostics if d.severity == "error"] == ["E090"]
    bad = ENDINGS + "\nrule idle():\n    pass\n"
    bad = bad.replace('ended quit "a player walked away"', 'ended idle "nothing"')
    with pytest.raises(rulesdsl.RulesError) as err:
        rulesdsl.load_text(bad, "endings.rules")
    assert "does not end the game" in str(err.value)


def test_a_variant_s_call_of_the_base_rule_asks_and_tells_in_the_rule_s_words():
    rules = rulesdsl.load(ROOT / "games" / "cromlech" / "hardcore.rules",
                          include=[ROOT / "games" / "cromlech"])
    (site,) = [i for i, s in enumerate(rules.program.sites) if s.proc == "use_die (base)"]
    assert rules.words.prompt(site, False) == "How do you use the die?"
    assert rules.words.told(site, 0, 1, "pair its Rend") == "player 1 uses it in a pair"
