"""The sampler (`Observation.sample_game`): what it re-deals, re-draws and keeps."""

from __future__ import annotations

import json
import random
from collections import Counter

import rulesdsl
from rulesdsl import Observation

from .conftest import ROOT

CARDS = """game "Cards"
players 2

kind Card(name, rank):
    "Ace", 0
    "King", 1
    "Queen", 2
    "Jack", 3
    "Ten", 4
    "Nine", 5

zone deck: Card hidden
zone hand per player: Card owner
zone table: Card public

counter worn per Card = 0
counter noted per player = none secret holding Card
counter five per player = 0 secret
counter pot = 0 secret

setup:
    for each c in Card:
        move c to deck
    shuffle deck
    for each p in players:
        move top(deck) to hand of p
        move top(deck) to hand of p
    for each c in Card:
        set worn of c = rank of c

play:
    turns:
        let next_card = top(deck)
        set noted of current = first(c in hand of current)
        set five of current = 5
        choose c in hand of current as "play the {c}":
            move c to table
            add 1 to pot
        if next_card != none:
            move next_card from deck to hand of current
        if hand of current is empty:
            end game
"""


def cards(seed=3):
    rules = rulesdsl.load_text(CARDS, "cards.rules")
    game = rules.new_game(players=2, seed=seed, narrate=True)
    return game


def test_hidden_cards_are_dealt_anew_each_zone_keeping_its_size():
    game = cards()
    seen = Observation(game, 0)
    decks, hands = set(), set()
    for s in range(40):
        world = seen.sample_game(random.Random(s))
        assert world.zone("table") == game.zone("table")
        assert world.zone("hand", 0) == game.zone("hand", 0)   # seat 1 sees its hand
        assert len(world.zone("deck")) == len(game.zone("deck"))
        assert len(world.zone("hand", 1)) == len(game.zone("hand", 1))
        assert sorted(world.zone("deck") + world.zone("hand", 1)) == \
            sorted(game.zone("deck") + game.zone("hand", 1))
        decks.add(tuple(world.zone("deck")))
        hands.add(tuple(world.zone("hand", 1)))
        # a card keeps its own counters wherever it is dealt
        for c in range(6):
            assert world.counter("worn", c) == c
    assert len(decks) > 10 and len(hands) > 5


def test_what_the_rules_hold_by_place_follows_the_new_deal():
    """The local `next_card` named the deck's top card, and player 2's pending options are
    player 2's hand: in a made-up game they name what is there now, so it plays on."""
    game = cards()
    game.apply_index(0)          # player 1 plays; player 2 decides next
    for s in range(30):
        world = Observation(game, 0).sample_game(random.Random(s))
        assert [world.counter("noted", 1)] == world.zone("hand", 1)[:1]
        options = {o.id for o in world.options()}
        assert options == {rulesdsl.load_text(CARDS, "c.rules").components("Card")[c]
                           for c in world.zone("hand", 1)}
        top = world.zone("deck")[0]
        world.apply_index(0)
        assert top in world.zone("hand", 1)     # the card drawn is the new top card
        while not world.over:
            world.apply_index(0)


def test_secret_values_the_seat_could_work_out_are_kept_its_own_too():
    game = cards()
    game.apply_index(0)
    for s in range(10):
        world = Observation(game, 1).sample_game(random.Random(s))
        assert world.counter("five", 0) == 5          # set from what everyone saw
        assert world.counter("pot") == 1              # one card was played, in the open
        assert world.counter("noted", 1) == game.counter("noted", 1)   # its own


def test_the_future_is_drawn_afresh_and_the_log_is_the_seats():
    pig = rulesdsl.load(ROOT / "games/pig/pig.rules")
    game = pig.new_game(seed=2, narrate=True)
    rolls = set()
    for s in range(30):
        world = Observation(game, 0).sample_game(random.Random(s))
        world.apply("roll")
        rolls.add(world.counter("turn_total") if world.current == game.current else 0)
        assert world.log_for(0)[:len(game.log_for(0))] == game.log_for(0)
    assert len(rolls) >= 4
    told = cards()
    told_rules = rulesdsl.load_text(CARDS.replace(
        "        set five of current = 5\n",
        "        set five of current = 5\n        say \"psst {current}\" to current\n"),
        "cards.rules")
    told = told_rules.new_game(players=2, seed=3, narrate=True)
    told.apply_index(0)
    world = Observation(told, 1).sample_game(random.Random(1))
    assert world.log == told.log_for(1) and "psst player 1" not in world.log


EXPEDITION = ROOT / "games/cleromancy/expedition.rules"


def purchases(game, player):
    return (game.counter("purse", player),
            tuple(game.counter("bought", player, u) for u in ("Tribune", "Magus", "Consul")))


def test_secret_choices_are_drawn_afresh_until_revealed():
    """Expedition: player 1 buys in secret; player 2 cannot tell what, until the armies
    are shown. After that every made-up game has player 1's real purchases."""
    rules = rulesdsl.load(EXPEDITION)
    game = rules.new_game(players=2, seed=3)
    rng = random.Random(3)
    while game.decider == 0:
        game.apply_index(rng.randrange(game.num_options()))
    real = purchases(game, 0)
    seen = Observation(game, 1)
    made_up = Counter(purchases(seen.sample_game(random.Random(s)), 0) for s in range(60))
    assert len(made_up) >= 4 and made_up[real] < 60
    cost = [3, 5, 7]   # a Tribune, a Magus, a Consul (the cost column of the Unit table)
    for purse, bought in made_up:   # each a purchase player 1 could have made
        assert purse == 19 - sum(n * c for n, c in zip(bought, cost)) and purse >= 0
    # the views of the made-up games are player 2's view of the real one
    view = json.dumps(seen.view, sort_keys=True)
    assert all(json.dumps(Observation(seen.sample_game(random.Random(s)), 1).view,
                          sort_keys=True) == view for s in range(5))
    while game.counter("purse", 0) or game.decider == 1:
        game.apply_index(rng.randrange(game.num_options()))
    seen = Observation(game, 1)
    assert {purchases(seen.sample_game(random.Random(s)), 0) for s in range(10)} == \
        {purchases(game, 0)}


def test_a_loaded_game_draws_secret_choices_afresh_too():
    rules = rulesdsl.load(EXPEDITION)
    game = rules.new_game(players=2, seed=3)
    rng = random.Random(3)
    while game.decider == 0:
        game.apply_index(rng.randrange(game.num_options()))
    loaded = rules.load_game(json.loads(json.dumps(game.to_json())))
    made_up = {purchases(Observation(loaded, 1).sample_game(random.Random(s)), 0)
               for s in range(30)}
    assert len(made_up) >= 3


def test_a_made_up_game_can_be_made_up_again_and_played():
    game = cards()
    world = Observation(game, 0).sample_game(random.Random(1))
    again = Observation(world, 1).sample_game(random.Random(2))
    assert again.zone("hand", 1) == world.zone("hand", 1)
    while not again.over:
        again.apply_index(0)


def test_hidden_components_are_dealt_only_among_those_with_the_same_back():
    """Isle of Skye with the Druids: the Druid tiles' stacks, the bag of landscape tiles and
    the box of castles are all hidden zones of tiles, but a tile's `back` shows which it is:
    a made-up game never puts a landscape tile on the Druid stacks (a rule that reads a
    Druid tile's cost would fail) nor a castle in the bag."""
    from rulesdsl import load
    from rulesdsl.interpreter.sampling import sample_game

    rules = load(ROOT / "games" / "isle_of_skye" / "druids.rules")
    game = rules.new_game(players=3, seed=4)
    for _ in range(12):
        game.apply_index(0)
    # the back of each tile, by its id in the data: d01.., castle_blue.., t01..
    back = ["druid" if i.startswith("d") else "castle" if i.startswith("castle") else
            "landscape" for i in rules.components("Tile")]
    rng = random.Random(5)
    for _ in range(10):
        world = sample_game(game, 1, rng)
        stacks, bag, box = (world.zone(z) for z in ("druid_stacks", "bag", "box"))
        assert {back[c] for c in stacks} == {"druid"}
        assert {back[c] for c in bag} == {"landscape"}
        assert {back[c] for c in box} == {"castle"}
    assert len(game.zone("druid_stacks")) > 20


def test_an_observation_works_out_once_what_every_made_up_game_shares():
    """An observation keeps what does not depend on the draws (the seat's view, the secret
    choices still hidden, the lines told since the first): the games it makes up are
    those a fresh observation makes from the same seeds, the hidden purchases drawn."""
    rules = rulesdsl.load(EXPEDITION)
    game = rules.new_game(players=2, seed=3)
    rng = random.Random(3)
    while game.decider == 0:
        game.apply_index(rng.randrange(game.num_options()))
    kept = Observation(game, 1)
    made = [kept.sample_game(random.Random(s)) for s in range(8)]
    assert kept._known.hidden and kept._known.lines and kept._known.seen is not None
    fresh = [Observation(game, 1).sample_game(random.Random(s)) for s in range(8)]
    assert [g.state_key() for g in made] == [g.state_key() for g in fresh]
    assert len({purchases(g, 0) for g in made}) > 1
    # hidden cards: where they are is worked out once, the deals drawn for each game
    game = cards()
    kept = Observation(game, 0)
    made = [kept.sample_game(random.Random(s)) for s in range(8)]
    assert kept._known.places
    fresh = [Observation(game, 0).sample_game(random.Random(s)) for s in range(8)]
    assert [g.state_key() for g in made] == [g.state_key() for g in fresh]
    assert len({tuple(g.zone("hand", 1)) for g in made}) > 1
    # both: Isle of Skye's secret prices replayed, its bag of tiles dealt anew where the
    # replays start
    game = rulesdsl.load(ROOT / "games" / "isle_of_skye" / "isle_of_skye.rules").new_game(
        players=2, seed=0)
    rng = random.Random(0)
    for _ in range(8):
        game.apply_index(rng.randrange(game.num_options()))
    kept = Observation(game, 0)
    made = [kept.sample_game(random.Random(s)) for s in range(4)]
    assert kept._known.hidden and kept._known.start_places
    fresh = [Observation(game, 0).sample_game(random.Random(s)) for s in range(4)]
    assert [g.state_key() for g in made] == [g.state_key() for g in fresh]
