"""Regressions in the language found while documenting it."""

from __future__ import annotations

import pytest

import rulesdsl
from rulesdsl.interpreter.examples import run_examples

COIN = """game "Coin"
players 1
enum Coin: Heads, Tails
die coin: faces [Heads, Tails]
counter heads = 0
play:
    repeat 3 times:
        let c = roll coin
        if c == Heads:
            add 1 to heads
    end game
example "the faces of a die may be enum values":
    play "Heads", "Tails", "Heads"
    expect heads == 2
"""


def test_dice_with_enum_faces():
    rules = rulesdsl.load_text(COIN, "coin.rules")
    assert run_examples(rules) == []
    game = rules.new_game(seed=1, auto_chance=False)
    assert [o.id for o, _ in game.chance.outcomes] == ["Heads", "Tails"]
    assert game.chance.outcomes[0][0].label == "rolled Heads"


def test_ranges_bind_tighter_than_comparisons_and_lists_may_end_with_a_comma():
    text = """game "r"
players 1
play:
    end game
example "ranges":
    expect 3 in 1..5 and 6 not in 1..5
    expect 1..3 == [
        1,
        2,
        3,
    ]
"""
    assert run_examples(rulesdsl.load_text(text, "r.rules")) == []


def test_play_without_ids_starts_a_game_that_never_asks():
    text = """game "No choice"
players 2
counter score per player = 0
play:
    set score of player 2 = 3
    end game
example "the game runs to its end":
    play
    expect winner == player 2
"""
    assert run_examples(rulesdsl.load_text(text, "n.rules")) == []


def test_an_ambiguous_cell_is_reported_once():
    text = """game "Two boards"
players 1
board left: square 2 x 2
board right: square 2 x 2
play:
    let p = piece of a1
    end game
"""
    with pytest.raises(rulesdsl.RulesError) as err:
        rulesdsl.load_text(text, "two.rules")
    assert [d.code for d in err.value.diagnostics] == ["E022"]


def test_mixed_die_faces_are_an_error():
    text = """game "Mixed"
players 1
enum Coin: Heads, Tails
die odd: faces [Heads, 3]
play:
    end game
"""
    with pytest.raises(rulesdsl.RulesError) as err:
        rulesdsl.load_text(text, "mixed.rules")
    assert [d.code for d in err.value.diagnostics] == ["E030"]


def test_a_constant_list_of_enum_values_keeps_their_type():
    text = """game "Enum list"
players 1
enum Kind: A, B, C
const L = [A, B]
counter n = 0
define bad(c) = count(k in L where k == c)
define unused(c) = bad(c) + 1
play:
    for each k in L:
        if k == A:
            add 1 to n
    end game
example "enums in a constant list":
    expect L == [A, B]
    expect bad(A) == 1
"""
    assert run_examples(rulesdsl.load_text(text, "enums.rules")) == []


@pytest.mark.slow
def test_generated_code_compiles_without_warnings():
    import warnings

    from .conftest import GAME_FILES

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for path in GAME_FILES:
            rulesdsl.load(path)


def test_inlined_definitions_behave_like_calls():
    """A short definition is written in place of its call: with a literal, a slot, an
    expression used once, or one used twice (then it is called instead)."""
    text = """game "Inline"
players 2
counter score per player = 0
define twice(n) = n + n
define bump(p) = score of p + 1
play:
    end game
example "inlined or called, the same values":
    set score of player 2 = 4
    expect twice(3) == 6
    expect twice(score of player 2 + 1) == 10
    expect bump(player 2) == 5
    expect bump(next(player 1)) == 5
"""
    assert run_examples(rulesdsl.load_text(text, "inline.rules")) == []


def test_move_without_from_looks_only_in_zones_of_the_same_kind():
    # components of two kinds share numbers: moving the first Coin must not take the first
    # Gem out of its zone
    text = """game "k"
players 1
kind Gem(name):
    2 x "Ruby"
kind Coin(name):
    2 x "Gold"
zone vault: Gem
zone purse: Coin
zone bank: Coin
setup:
    for each g in Gem:
        move g to vault
    for each c in Coin:
        move c to purse
    move Coin[1] to bank
play:
    end game
example "kinds apart":
    expect length(vault) == 2 and length(purse) == 1 and bank == [Coin[1]]
"""
    assert run_examples(rulesdsl.load_text(text, "k.rules")) == []


def test_a_counter_holding_an_enum_starts_at_one_of_its_values():
    text = """game "e"
players 1
enum Face: Blank, Star
counter shows = Star holding Face
counter face = 0
play:
    end game
"""
    with pytest.raises(rulesdsl.RulesError) as info:
        rulesdsl.load_text(text, "e.rules")
    messages = [d.message for d in info.value.diagnostics]
    assert messages == ["'face' is taken: `face of d` is the face die d shows"]


def test_quantifiers_without_where_take_every_item():
    text = """game "q"
players 1
play:
    end game
example "no where":
    expect first(x in [4, 5]) == 4 and first(x in []) == none
    expect count(x in [4, 5]) == 2 and any(x in [4]) and not any(x in [])
    expect all(x in [4]) and filter(x in [4, 5]) == [4, 5]
"""
    assert run_examples(rulesdsl.load_text(text, "q.rules")) == []


def test_either_a_zone_or_a_list_is_a_list_of_the_zone_kind():
    text = """game "z"
players 1
kind Card(name):
    "Ace"
    "King"
zone hand: Card
zone deck: Card
setup:
    move Card[1] to deck
    move Card[2] to deck
define cards() = if hand is not empty then hand else [c for c in deck where c != Card[2]]
play:
    choose c in cards() by player 1 as "take the {c}"
    move c to hand
example "the options are cards, with their ids":
    play "ace"
    expect hand == [Card[1]]
"""
    assert run_examples(rulesdsl.load_text(text, "z.rules")) == []


def test_the_done_option_shows_its_label():
    text = """game "d"
players 1
counter coins = 3
play:
    choose optional n in 1..2 by player 1 as "buy for {n}" or "leave with {coins} coins"
    end game
"""
    game = rulesdsl.load_text(text, "d.rules").new_game(seed=1)
    assert [(o.id, o.label) for o in game.options()] == [
        ("1", "buy for 1"), ("2", "buy for 2"), ("done", "leave with 3 coins")]


def test_a_game_ranked_by_a_number_reports_it_as_the_score():
    text = """game "r"
players 2
counter coins per player = 0
define wealth(p) = 2 * coins of p
rank p by wealth(p), coins of p
play:
    turns for 1 round:
        choose n in 1..3 as "take {n}"
        set coins of current = n
    end game
"""
    game = rulesdsl.load_text(text, "r.rules").new_game(seed=1)
    game.apply("3")
    game.apply("1")
    assert game.result.scores == [6, 2] and game.result.ranking == [1, 2]


def test_a_kinds_row_counts_by_a_constant_or_setting():
    text = """game "c"
players 1
setting MINES = 2 between 1 and 5
kind Card(name):
    "Farm"
    MINES x "Mine"
play:
    end game
example "three cards":
    expect length(Card) == 3
"""
    rules = rulesdsl.load_text(text, "c.rules")
    assert run_examples(rules) == []
    more = rulesdsl.load_text(text.replace("MINES = 2", "MINES = 4"), "c.rules")
    assert len(more.components("Card")) == 5
    with pytest.raises(rulesdsl.RulesError) as info:
        rulesdsl.load_text(text.replace("MINES x", "MINE x"), "c.rules")
    assert info.value.diagnostics[0].code == "E020"
