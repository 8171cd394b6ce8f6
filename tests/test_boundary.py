"""The information boundary, for every game and variant under games/ (see boundary.py):
at many points of random games, for each seat, a game made up from what the seat may
see, or another secret choice of another seat, shows the seat exactly what the real game
shows it, now and as play goes on. And the check does catch leaks: a rule file whose
label or line of narration shows a hidden card, and a view that shows a hidden zone."""

from __future__ import annotations

import pytest

import rulesdsl
from rulesdsl.interpreter import views

from .boundary import Leak, check
from .conftest import GAME_PARAMS


@pytest.mark.parametrize("path", GAME_PARAMS)
def test_no_seat_sees_what_it_may_not(path, load_rules):
    rules = load_rules(path)
    low, high = rules.player_range
    assert check(rules, high, seed=1) > 0
    # a game that pauses at its chance steps narrates them: the lines must not leak either
    check(rules, low, seed=2, auto_chance=False)


CARDS = """game "Peek"
players 2

kind Card(name):
    "Ace"
    "King"
    "Queen"
    "Jack"

zone deck: Card hidden
zone hand per player: Card owner
zone table: Card public

setup:
    for each c in Card:
        move c to deck
    shuffle deck

play:
    turns for 2 rounds:
        move top(deck) to hand of current
        choose c in hand of current as "play the {c}":
            move c to table
"""


def test_a_clean_rule_file_passes():
    rules = rulesdsl.load_text(CARDS, "peek.rules")
    for seed in range(3):
        check(rules, 2, seed)


@pytest.mark.parametrize("leak", [
    # the option label shows the next card of the hidden deck
    ('as "play the {c}"', 'as "play the {c} (next: {top(deck)})"'),
    # a line said to everyone names the card drawn into a hand only its owner sees
    ("        move top(deck) to hand of current\n",
     "        say \"{current} draws the {top(deck)}\"\n"
     "        move top(deck) to hand of current\n"),
    # the same line said to the wrong player
    ("        move top(deck) to hand of current\n",
     "        say \"you draw the {top(deck)}\" to next(current)\n"
     "        move top(deck) to hand of current\n"),
])
def test_a_planted_leak_is_caught(leak):
    rules = rulesdsl.load_text(CARDS.replace(*leak), "peek.rules")
    with pytest.raises(Leak):
        for seed in range(3):
            check(rules, 2, seed)


def test_the_same_line_said_to_the_right_player_is_no_leak():
    said = CARDS.replace("        move top(deck) to hand of current\n",
                         "        say \"you draw the {top(deck)}\" to current\n"
                         "        move top(deck) to hand of current\n")
    rules = rulesdsl.load_text(said, "peek.rules")
    for seed in range(3):
        check(rules, 2, seed)


def test_a_view_that_shows_a_hidden_zone_is_caught(monkeypatch):
    monkeypatch.setattr(views, "zone_seen", lambda zone, owner, seat: True)
    rules = rulesdsl.load_text(CARDS, "peek.rules")
    with pytest.raises(Leak):
        check(rules, 2, 1)
