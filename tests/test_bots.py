"""Bots decide from what their seat may see: a bot's choice (greedy's, random's, MCTS's,
ISMCTS's) does not change when only the future rolls or an opponent's hidden cards
change, and Pig's greedy bot rolls again as often whether the hidden next roll is a 1 or
not (benchmarks/peeking.py)."""

from __future__ import annotations

import functools
import math
import random

import pytest

import rulesdsl
from benchmarks import peeking
from rulesdsl import Observation
from rulesdsl.agents import GreedyAgent, ISMCTSAgent, MCTSAgent, RandomAgent

from .conftest import ROOT


def positions(rules, players, seed, every, until=None):
    """Games at every `every`-th decision of a random game (copies)."""
    game = rules.new_game(players=players, seed=seed)
    rng = random.Random(seed)
    step = 0
    while not game.over and (until is None or not until(game)):
        if step % every == 0:
            yield game.copy()
        game.apply_index(rng.randrange(game.num_options()))
        step += 1


def pig_positions():
    rules = rulesdsl.load(ROOT / "games/pig/pig.rules", {"GOAL": 30})
    return [g for seed in range(12) for g in positions(rules, 2, seed, 1)]


def choices(agent_class, games):
    """What a freshly made agent (the same seed each time) chooses in each game."""
    return [agent_class(7).choose(Observation(g, g.decider)) for g in games]


def opened(observation):
    """An observation whose made-up game is the real game itself: for bots that cheat."""
    real = observation._game

    class Open:
        seat, num_options = observation.seat, observation.num_options

        @staticmethod
        def sample_game(rng):
            return real.copy()

    return Open()


class Peeker:
    """A bot that cheats: it plays greedy on the real game, future rolls included."""

    name = "peeker"

    def __init__(self, seed):
        self.greedy = GreedyAgent(seed)

    def choose(self, observation):
        return self.greedy.choose(opened(observation))


# the search bots with tiny budgets: what they see, not how well they play, is tested here
SEARCHERS = [functools.partial(MCTSAgent, sims=8), functools.partial(ISMCTSAgent, sims=8)]
BOTS = [GreedyAgent, RandomAgent, *SEARCHERS]
BOT_IDS = ["greedy", "random", "mcts", "ismcts"]


@pytest.mark.parametrize("agent", BOTS, ids=BOT_IDS)
def test_a_bot_does_not_see_the_future_rolls(agent):
    games = pig_positions()
    assert len(games) > 50
    mine = choices(agent, games)
    for future in range(4):
        other = [g.copy() for g in games]
        for g in other:
            g.reseed(1000 + future)
        assert choices(agent, other) == mine


def test_the_check_catches_a_bot_that_sees_the_future_rolls():
    games = pig_positions()
    mine = choices(Peeker, games)
    changed = False
    for future in range(4):
        other = [g.copy() for g in games]
        for g in other:
            g.reseed(1000 + future)
        changed = changed or choices(Peeker, other) != mine
    assert changed


@pytest.mark.parametrize("path,players,until", [
    ("games/cronberg/cronberg.rules", 3, None),
    # Cromlech's drafting: hands passed round, the deck hidden (before the secret picks)
    ("games/cromlech/cromlech.rules", 4, lambda g: g.counter("placements") >= 30),
], ids=["cronberg", "cromlech-draft"])
@pytest.mark.parametrize("agent", [GreedyAgent, *SEARCHERS], ids=["greedy", "mcts", "ismcts"])
def test_a_bot_does_not_see_the_hidden_cards(path, players, until, agent):
    rules = rulesdsl.load(ROOT / path)
    games = list(positions(rules, players, 5, 3, until))
    rng = random.Random(5)
    others = [Observation(g, g.decider).sample_game(rng) for g in games]
    differ = sum(a.state_key() != b.state_key() for a, b in zip(games, others))
    assert differ > len(games) // 2, "the made-up games should differ in hidden cards"
    assert choices(agent, others) == choices(agent, games)


# ---- Goofspiel: the prizes face down, and the other seat's secret bid -------------------------
# Real games that differ only in what the seat cannot see (a made-up game would not do: its
# own secret choices are not drawn afresh again when a bot samples from it).

@functools.lru_cache(maxsize=1)
def goofspiel() -> rulesdsl.Rules:
    return rulesdsl.load(ROOT / "games/goofspiel/goofspiel.rules")


def goofspiel_second_bids(rounds: int) -> list[list[rulesdsl.Game]]:
    """Goofspiel after `rounds` random rounds (seeds 1 to 4), player 1 having just bid: per
    position, one game for each card player 1 could have bid, all else alike."""
    out = []
    for seed in range(1, 5):
        game = goofspiel().new_game(players=2, seed=seed)
        rng = random.Random(seed)
        while len(game.history) < 2 * rounds:
            game.apply_index(rng.randrange(game.num_options()))
        bids = []
        for i in range(game.num_options()):
            bid = game.copy()
            bid.apply_index(i)
            assert bid.decider == 1
            bids.append(bid)
        out.append(bids)
    return out


def goofspiel_prize_orders(second: bool) -> list[list[rulesdsl.Game]]:
    """Groups of games of Goofspiel alike in all that is shown (the same three prizes
    turned up, the same bids) but dealt from other seeds, so that the prizes still face
    down lie in another order; at player 1's bid in round 3, or with `second` at player
    2's after it."""
    groups: dict[str, list[rulesdsl.Game]] = {}
    for seed in range(1, 300):
        game = goofspiel().new_game(players=2, seed=seed)
        for bid in ("13", "1", "1", "13") + (("6",) if second else ()):
            game.apply(bid)
        shown = game.view(0)
        del shown["log"]
        groups.setdefault(repr(shown), []).append(game)
    return [g for g in groups.values() if len(g) > 1]


class PeekingMCTS:
    """MCTS that cheats: it searches the real game, the order of the prizes and the other
    seat's secret bid included."""

    name = "peeking-mcts"

    def __init__(self, seed):
        self.mcts = MCTSAgent(seed, sims=200)

    def choose(self, observation):
        return self.mcts.choose(opened(observation))


GOOF_SEARCHERS = [functools.partial(MCTSAgent, sims=100),
                  functools.partial(ISMCTSAgent, sims=100)]


def differ(agent, groups) -> int:
    """In how many groups of games the agent's choices are not all the same."""
    return sum(len({agent(7).choose(Observation(g, g.decider)) for g in games}) > 1
               for games in groups)


@pytest.mark.slow
@pytest.mark.parametrize("agent", GOOF_SEARCHERS, ids=["mcts", "ismcts"])
def test_the_second_bid_does_not_depend_on_the_first(agent):
    """In Goofspiel player 2 bids after player 1, who bid in secret: with four cards left,
    player 2's bid is the same whichever card player 1 bid."""
    assert differ(agent, goofspiel_second_bids(rounds=9)) == 0


@pytest.mark.slow
@pytest.mark.parametrize("agent", [GreedyAgent, *GOOF_SEARCHERS],
                         ids=["greedy", "mcts", "ismcts"])
def test_a_bid_does_not_depend_on_the_order_of_the_prizes(agent):
    groups = goofspiel_prize_orders(False) + goofspiel_prize_orders(True)
    assert sum(len(g) for g in groups) > 20
    assert differ(agent, groups) == 0


@pytest.mark.slow
def test_the_check_catches_a_search_that_sees_the_bid_or_the_prizes():
    assert differ(PeekingMCTS, goofspiel_second_bids(rounds=9)) >= 2
    assert differ(PeekingMCTS, goofspiel_prize_orders(False)) >= 2


@pytest.mark.slow  # 500 games of Pig with greedy bots
def test_greedy_rolls_again_as_often_whatever_the_hidden_next_roll():
    # 500 games: greedy, which plays its turn on, ends them sooner than it did
    data = peeking.measure(games=500, seed=1)
    one, not_one = data["one"], data["not_one"]
    assert one["decisions"] > 30 and not_one["decisions"] > 200
    p1, p0 = one["rate"], not_one["rate"]
    pooled = (one["rolled_again"] + not_one["rolled_again"]) / (
        one["decisions"] + not_one["decisions"])
    se = math.sqrt(pooled * (1 - pooled) * (1 / one["decisions"] + 1 / not_one["decisions"]))
    assert abs(p1 - p0) < 3 * se, (p1, p0, se)


def test_the_bot_in_the_visibility_doc_plays():
    """docs/visibility.md shows how to write a bot: its code runs and plays whole games."""
    import re

    from rulesdsl.agents.play import play_out

    text = (ROOT / "docs" / "visibility.md").read_text(encoding="utf-8")
    (code,) = re.findall(r"```python\n(.*?)```", text, re.S)
    namespace: dict = {}
    exec(compile(code, "docs/visibility.md", "exec"), namespace)  # noqa: S102
    rules = rulesdsl.load(ROOT / "games/connect_four/connect_four.rules")
    for seed in range(3):
        game = rules.new_game(players=2, seed=seed)
        play_out(game, [namespace["OneStep"](seed), RandomAgent(seed)])
        assert game.over
