"""What the tests of the OpenSpiel and PettingZoo adapters share: the base games under
games/ (a folder's own rule file, not its variants), the settings that play the long ones
shorter, a tiny game with a secret choice, and the examples of the flow of play."""

from __future__ import annotations

import re

from .conftest import ROOT

BASE_GAMES = sorted(p for p in ROOT.glob("games/*/*.rules") if p.stem == p.parent.name)
# long games are played shorter: a setting each rule file has for it
SHORTER = {"cleromancy": {"ROUND_LIMIT": 10}, "pig": {"GOAL": 30}}
# poker written in the language, chips as payoffs (tests/games/)
KUHN = ROOT / "tests" / "games" / "kuhn_poker.rules"
LEDUC = ROOT / "tests" / "games" / "leduc_poker.rules"

# one-sided rock, paper, scissors: player 2 may not play scissors. Its equilibrium:
# player 1 plays paper 2/3 and scissors 1/3, player 2 rock 1/3 and paper 2/3, and player 1
# expects +1/3. Were player 2 to see player 1's hand, player 1 would expect 0.
ONE_SIDED = """game "One-sided rock, paper, scissors"
players 2

enum Hand: Rock, Paper, Scissors

counter hand per player = none secret holding Hand

play:
    for each p in players:
        choose h in Hand where p == player 1 or h != Scissors by p secretly as "{h}"
        set hand of p = h
    let a = hand of player 1
    let b = hand of player 2
    say "player 1 shows {a}, player 2 shows {b}"
    if a == b:
        draw
    if (a == Rock and b == Paper) or (a == Paper and b == Scissors):
        win player 2
    if a == Scissors and b == Rock:
        win player 2
    win player 1
"""


def flow_examples() -> list[str]:
    """The rule files of docs/language.md that show a simultaneous secret step, an offer
    or teams."""
    text = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```rules\n(.*?)^```$", text, re.MULTILINE | re.DOTALL)
    return [b for b in blocks if re.search(r"chooses in secret|^\s*offer |^teams of", b,
                                           re.MULTILINE)]
