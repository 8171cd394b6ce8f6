"""What the tests of the OpenSpiel and PettingZoo adapters share: the base games under
games/ (a folder's own rule file, not its variants), the settings that play the long ones
shorter, a tiny game with a secret choice, and the examples of the flow of play."""

from __future__ import annotations

import re
from typing import Any

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


def on_native_kuhn(game: Any, ours: Any, native: Any) -> Any:
    """A policy of the Kuhn poker of tests/games, as a policy of OpenSpiel's own
    kuhn_poker: both games walked side by side, ours dealt whole (its shuffle's draws),
    native's card by card as the hands ours dealt, the same actions (pass 0, bet 1)."""
    from open_spiel.python import policy as policy_lib

    mapped = policy_lib.TabularPolicy(native)
    cards = {cid: k for k, cid in enumerate(game.rules.components("Card"))}

    def walk(mine: Any, theirs: Any) -> None:
        if mine.is_terminal():
            assert mine.returns() == theirs.returns()
            return
        if mine.is_chance_node():
            for outcome, _ in mine.chance_outcomes():
                dealt = mine.child(outcome)
                if dealt.is_chance_node():
                    walk(dealt, theirs)
                    continue
                seen = [cards[dealt.view(p)["zones"]["hand"][p][0]] for p in (0, 1)]
                walk(dealt, theirs.child(seen[0]).child(seen[1]))
            return
        probs = ours.action_probabilities(mine)
        row = mapped.policy_for_key(theirs.information_state_string())
        for action in (0, 1):
            row[action] = probs.get(action, 0.0)
        for action in mine.legal_actions():
            walk(mine.child(action), theirs.child(action))

    walk(game.new_initial_state(), native.new_initial_state())
    return mapped
