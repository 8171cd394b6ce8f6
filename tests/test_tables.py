"""Tables and what is made from them: enums with fields, decks made with `each`, dice
that are components with their own faces, `sort`, and bags drawn from blind."""

from __future__ import annotations

import pytest

import rulesdsl
from rulesdsl.interpreter.examples import run_examples

UNITS = """game "Units"
players 2

const TITAN_DAMAGE = 5
enum Unit(hit_points, cost, damage, name):
    Scion "the Scion", 4, 2, 2, "scion"
    Titan, 12, 10, TITAN_DAMAGE, "titan"

play:
    end game

example "fields":
    expect hit_points of Scion == 4 and damage of Titan == 5
    expect [name of u for u in Unit] == ["scion", "titan"]
"""


def load(text: str, path: str = "t.rules") -> rulesdsl.Rules:
    return rulesdsl.load_text(text, path)


def test_an_enum_with_fields_is_a_table_a_variant_changes_through_its_constants(tmp_path):
    base = tmp_path / "units.rules"
    base.write_text(UNITS)
    assert run_examples(rulesdsl.load(base)) == []
    v = tmp_path / "v.rules"
    v.write_text('extends "units.rules"\nreplace const TITAN_DAMAGE = 4\n'
                 'example "weaker":\n    expect [damage of u for u in Unit] == [2, 4]\n')
    failed = run_examples(rulesdsl.load(v))
    assert [d.message for d in failed if "weaker" in d.message] == []
    assert len(failed) == 1  # the base's example counts 5


def test_a_field_and_a_counter_of_one_name(tmp_path):
    text = UNITS.replace("play:", "counter name per player = 7\n\nplay:").replace(
        'expect [name of u for u in Unit] == ["scion", "titan"]',
        'expect [name of u for u in Unit] == ["scion", "titan"] and name of player 2 == 7')
    assert run_examples(load(text)) == []


def test_each_makes_the_product_in_order_and_names_the_fields_in_text():
    rules = load("""game "Deck"
players 2
enum Suit: Hearts "hearts", Spades
kind Card(name, rank, suit):
    2 x "{rank} of {suit}", each [1, 2], each Suit
    "Joker", 0, Spades
play:
    end game
example "the deck":
    expect length(Card) == 9
    expect [name of c for c in Card] == [
        "1 of hearts", "1 of hearts", "1 of Spades", "1 of Spades",
        "2 of hearts", "2 of hearts", "2 of Spades", "2 of Spades", "Joker"]
    expect [rank of c for c in Card] == [1, 1, 1, 1, 2, 2, 2, 2, 0]
""")
    assert run_examples(rules) == []
    assert rules.components("Card")[:3] == ["1-of-hearts-1", "1-of-hearts-2", "1-of-spades-1"]


DICE = """game "Dice"
players 1
enum Face: Blank, Star, Moon
{dice}
counter shows = Blank holding Face
play:
    repeat 20 times:
        let r = roll {die}
        set shows = r
    end game
"""


def test_a_component_die_rolls_its_own_faces_as_a_die_kind_does():
    component = load(DICE.format(dice="kind D(faces):\n    [Star, Moon, Blank]\n"
                                      "    [Moon, Moon, Moon]", die="D[1]"))
    kind = load(DICE.format(dice="die d: faces [Star, Moon, Blank]", die="d"))
    for seed in range(5):
        a, b = component.new_game(seed=seed), kind.new_game(seed=seed)
        assert a.counter("shows") == b.counter("shows")  # the same draws of the generator
    game = component.new_game(seed=0, auto_chance=False)
    assert [(o.id, o.label) for o, _ in game.chance.outcomes] == [
        ("Star", "rolled Star"), ("Moon", "rolled Moon"), ("Blank", "rolled Blank")]
    other = load(DICE.format(dice="kind D(faces):\n    [Star, Moon, Blank]\n"
                                  "    [Moon, Moon, Moon]", die="D[2]"))
    assert other.new_game(seed=3).counter("shows") == 2


def test_sort_orders_values_and_keys_and_keeps_ties_in_order():
    rules = load("""game "Sort"
players 3
counter score per player = 0
play:
    end game
example "ties keep their order":
    set score of player 1 = 2
    set score of player 2 = 1
    set score of player 3 = 2
    expect sort(p in players by score of p) == [player 2, player 1, player 3]
    expect sort(p in players by -score of p) == [player 1, player 3, player 2]
    expect sort([player 3, player 1]) == [player 1, player 3]
    expect sort(x in [3, 1, 2] where x != 2 by x) == [1, 3]
""")
    assert run_examples(rules) == []


def test_sorting_by_none_stops_with_an_error():
    rules = load("""game "Sort"
players 2
counter best per player = none holding player
play:
    let s = sort(p in players by best of p)
    end game
""")
    with pytest.raises(rulesdsl.RulesError) as err:
        rules.new_game()
    assert err.value.diagnostics[0].code == "R003"


BAG = """game "Bag"
players 2
kind Token(name):
    each ["a", "b", "c", "d", "e", "f"]
zone bag: Token bag
zone pile: Token public
setup:
    for each t in Token:
        move t to bag
play:
    end game
"""


def test_a_bag_puts_what_goes_in_at_a_random_place_and_hides_it():
    rules = load(BAG)
    orders = {tuple(rules.new_game(seed=s).zone("bag")) for s in range(12)}
    assert len(orders) > 6 and all(sorted(o) == list(range(6)) for o in orders)
    game = rules.new_game(seed=1)
    assert game.zone("bag") == rules.new_game(seed=1).zone("bag")  # from the seed
    assert game.view(0)["zones"]["bag"] == {"size": 6}
    assert "Token" not in game.view(1)["components"] or not game.view(1)["components"][
        "Token"]


def test_moving_out_of_a_bag_takes_what_is_on_top():
    rules = load(BAG.replace("play:\n    end game", "play:\n    move top(bag) to pile\n"
                                                   "    end game"))
    for seed in range(4):
        before = load(BAG).new_game(seed=seed).zone("bag")
        assert rules.new_game(seed=seed).zone("pile") == before[:1]
