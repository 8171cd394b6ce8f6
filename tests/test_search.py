"""The search agents, MCTS and ISMCTS: they find wins and block losses, weigh chance by its
odds, read the rules' heuristic, never peek, and play the same moves from the same seed.
Every search here is tiny (a few dozen to a few hundred simulations): strength is
measured by the scripts under benchmarks/, not here (docs/agents.md)."""

from __future__ import annotations

import functools
import random
from pathlib import Path

import pytest

import rulesdsl
from rulesdsl import Observation
from rulesdsl.agents import ISMCTSAgent, MCTSAgent, RandomAgent, ismcts, make_agent
from rulesdsl.agents.play import agents_for, play_out
from rulesdsl.agents.search import Budget, Settings, margins, place_returns, ranking_of

from .conftest import ROOT

TICTACTOE = ROOT / "games/tictactoe/tictactoe.rules"
SEARCHERS = {"mcts": functools.partial(MCTSAgent, sims=200),
             "ismcts": functools.partial(ISMCTSAgent, sims=200)}


def rules_of(tmp_path: Path, text: str) -> rulesdsl.Rules:
    path = tmp_path / "game.rules"
    path.write_text(text, encoding="utf-8")
    return rulesdsl.load(path)


def after(rules: rulesdsl.Rules, *moves: str, seed: int = 1) -> rulesdsl.Game:
    game = rules.new_game(seed=seed)
    for move in moves:
        game.apply(move)
    return game


def choice(agent, game: rulesdsl.Game) -> str:
    return game.options()[agent.choose(Observation(game, game.decider))].id


# ---- what a game is worth ------------------------------------------------------------------

def test_places_are_worth_one_to_zero_and_shared_places_share():
    assert place_returns([1, 2]) == [1.0, 0.0]
    assert place_returns([1, 1]) == [0.5, 0.5]
    assert place_returns([2, 1, 3]) == [0.5, 1.0, 0.0]
    assert place_returns([1, 2, 2, 2]) == pytest.approx([1, 1 / 3, 1 / 3, 1 / 3])  # win P
    assert place_returns([1]) == [1.0]
    for ranking in ([1, 2], [1, 1, 3], [2, 1, 2, 4]):
        assert sum(place_returns(ranking)) == pytest.approx(len(ranking) / 2)


def test_ranks_and_margins_from_values():
    assert ranking_of([3, 7, 3]) == [2, 1, 2]
    assert margins([3, 7, 5]) == [-4, 2, -2]
    assert margins([5, 5]) == [0, 0]
    assert margins([12]) == [12.0]


# ---- tic-tac-toe -----------------------------------------------------------------------------

@pytest.mark.parametrize("name", SEARCHERS)
def test_it_takes_a_win_in_one(name):
    rules = rulesdsl.load(TICTACTOE)
    # player 1 holds a1 and b1 (c1 wins); player 2 holds a2 and b2 (c2 would win)
    game = after(rules, "a1", "a2", "b1", "b2")
    assert choice(SEARCHERS[name](3), game) == "c1"


@pytest.mark.parametrize("name", SEARCHERS)
def test_it_blocks_a_loss_in_one(name):
    rules = rulesdsl.load(TICTACTOE)
    # player 2 holds b2 and c2, threatening a2; player 1 has no win of its own
    game = after(rules, "a1", "b2", "c3", "c2")
    assert choice(SEARCHERS[name](3), game) == "a2"


@pytest.mark.parametrize("name", SEARCHERS)
def test_it_never_loses_to_random(name):
    rules = rulesdsl.load(TICTACTOE)
    for seed in range(6):
        me = seed % 2
        agents = [SEARCHERS[name](seed), RandomAgent(seed)]
        if me:
            agents.reverse()
        game = play_out(rules.new_game(seed=seed), agents)
        assert game.result is not None and game.result.ranking[me] == 1, seed


def test_a_proved_win_ends_the_search_early():
    rules = rulesdsl.load(TICTACTOE)
    agent = MCTSAgent(1, sims=5000)
    assert choice(agent, after(rules, "a1", "a2", "b1", "b2")) == "c1"
    assert agent.last is not None and agent.last.simulations < 5000
    assert agent.last.value == 1.0


def test_a_lost_position_is_not_resigned():
    """Player 1 has two threats (b1 and c1): every reply loses to a perfect player, so the
    root is proved lost at once; the bot still blocks one threat, since a random player
    then wins one time in four instead of two in four."""
    rules = rulesdsl.load(TICTACTOE)
    game = after(rules, "b3", "a1", "a3", "c3", "b2")
    for seed in range(4):
        agent = MCTSAgent(seed, sims=300)
        assert choice(agent, game) in ("b1", "c1"), seed
        assert agent.last is not None and agent.last.simulations == 300


# ---- chance ----------------------------------------------------------------------------------

GAMBLE = '''game "Gamble"
players 2

die d6: faces 1..6

play:
    choose by player 1:
        option bold "win on a 6":
            let r = roll d6
            if r == 6:
                win player 1
        option safe "win on 2 or more":
            let r = roll d6
            if r >= 2:
                win player 1
    win player 2

example "a 6 wins":
    play "bold", "6"
    expect winner == player 1
'''


@pytest.mark.parametrize("name", SEARCHERS)
def test_it_weighs_chance_by_its_odds(tmp_path, name):
    rules = rules_of(tmp_path, GAMBLE)
    for seed in range(3):
        game = rules.new_game(seed=seed, auto_chance=False)
        assert choice(SEARCHERS[name](seed), game) == "safe"


def test_chance_outcomes_are_spread_by_probability(tmp_path):
    """Each visit to a chance node takes the outcome furthest below its share: the faces
    of a die have had as many visits each, give or take one (so the node's mean is the
    expectation over the faces, 5/6 for 'safe', give or take one visit's worth)."""
    from rulesdsl.agents.mcts import Search
    from rulesdsl.agents.search import Budget, Settings

    rules = rules_of(tmp_path, GAMBLE)
    settings = Settings(sims=121)
    search = Search(rules.new_game(seed=1, auto_chance=False), settings,
                    random.Random(1), solve=False)
    search.run(Budget(settings), settings.sims)
    bold, safe = search.root.kids or []
    assert bold is not None and safe is not None and safe.n > 100 and safe.seat == -1
    visits = [k.n for k in safe.kids or [] if k is not None]
    assert len(visits) == 6 and max(visits) - min(visits) <= 1, visits
    assert abs(safe.w / safe.n - 5 / 6) <= 1 / safe.n


# ---- the heuristic ---------------------------------------------------------------------------

RACE = '''game "Race"
players 2

counter position per player = 0

heuristic p by SIGN * position of p

const SIGN = 1

play:
    turns:
        choose:
            option one "step 1":
                add 1 to position of current
            option two "step 2":
                add 2 to position of current
        if position of current >= 30:
            win current

example "steps":
    play "two", "one"
    expect position of player 1 == 2
'''


def test_a_cut_search_reads_the_rules_heuristic(tmp_path):
    """With depth 0 every simulation is judged by the heuristic at once: a heuristic
    that rewards going forward picks 'two', one that rewards staying behind 'one'."""
    forward = rules_of(tmp_path, RACE)
    backward = rules_of(tmp_path, RACE.replace("const SIGN = 1", "const SIGN = -1"))
    assert after(forward, "two").heuristic() == [2, 0]
    assert after(backward, "two").heuristic() == [-2, 0]
    for name in ("mcts", "ismcts"):
        assert choice(make_agent(f"{name}:sims=50,depth=0", 1), forward.new_game()) == "two"
        assert choice(make_agent(f"{name}:sims=50,depth=0", 1), backward.new_game()) == "one"


def test_without_a_heuristic_rollouts_play_to_the_end(tmp_path):
    rules = rules_of(tmp_path, RACE.replace("heuristic p by SIGN * position of p\n", ""))
    assert rules.new_game().heuristic() is None
    agent = make_agent("mcts:sims=40,depth=0", 1)
    assert choice(agent, rules.new_game()) in ("one", "two")


def test_the_language_reference_example_heuristic():
    """docs/language.md's heuristic example: twice the position, one more for the player
    whose turn it is."""
    import re

    text = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    block = next(b for b in re.findall(r"```rules\n(.*?)```", text, re.S)
                 if "heuristic p by" in b)
    path = Path(__file__).parent / "_race_to_ten.rules"
    try:
        path.write_text(block, encoding="utf-8")
        rules = rulesdsl.load(path)
    finally:
        path.unlink()
    game = rules.new_game(seed=1)
    game.apply("two")
    assert game.heuristic() == [4, 1]   # player 2 is to move


def test_a_heuristic_that_fails_names_its_line(tmp_path):
    rules = rules_of(tmp_path, RACE.replace("SIGN * position of p",
                                            "10 / (position of p)"))
    with pytest.raises(rulesdsl.RulesError) as err:
        rules.new_game().heuristic()
    (diag,) = err.value.diagnostics
    assert diag.span is not None and diag.span.line == 6


# ---- no peeking (the future rolls and hidden cards: tests/test_bots.py) ------------------------

SECRET = '''game "Guess"
players 2

counter pick per player = 0 secret

play:
    choose n in 1..3 by player 2 secretly as "hide {n}"
    set pick of player 2 = n
    choose g in 1..3 by player 1 as "guess {g}"
    if g == pick of player 2:
        win player 1
    win player 2

example "a right guess wins":
    play "2", "2"
    expect winner == player 1
'''


@pytest.mark.parametrize("name", SEARCHERS)
def test_the_choice_does_not_depend_on_another_seats_secret(tmp_path, name):
    """Player 1 guesses what player 2 hid in secret: its guess is the same whatever was
    hidden (a search that peeked would guess it every time)."""
    rules = rules_of(tmp_path, SECRET)
    picks = set()
    for hidden in ("1", "2", "3"):
        game = after(rules, hidden)
        picks.add(choice(SEARCHERS[name](4), game))
    assert len(picks) == 1


# ---- ISMCTS as Cowling, Powley and Whitehouse (2012) have it; MCTS on one sampled state ----------

HAND = '''game "Hidden hand"
players 2

kind Card(value):
    each 1..4
zone deck: Card hidden
zone hand per player: Card owner

setup:
    for each c in Card:
        move c to deck
    shuffle deck
    repeat 2 times:
        move top(deck) to hand of player 2

play:
    choose n in 1..2 by player 1 as "ask {n}"
    choose c in hand of player 2 by player 2 as "show {c}"
    if value of c + n > 4:
        win player 2
    win player 1

example "player 2 shows a high card":
    move Card[4] to hand of player 2
    play "1", "4"
    expect winner == player 2
'''


class Counting(Observation):
    """An observation that counts the games made up from it."""

    __slots__ = ("made",)

    def __init__(self, game: rulesdsl.Game, seat: int):
        super().__init__(game, seat)
        self.made = 0

    def sample_game(self, rng: random.Random) -> rulesdsl.Game:
        self.made += 1
        return super().sample_game(rng)


@pytest.mark.parametrize("spec,made", [("ismcts:sims=60", 60), ("mcts:sims=60,solve=false", 1),
                                       ("mcts:sims=60,worlds=3,solve=false", 3)])
def test_a_game_is_made_up_per_simulation_or_per_move(tmp_path, spec, made):
    """ISMCTS makes up a game for every simulation; MCTS on a sampled state one a move
    (one per world), and spends the same budget on it (without proofs: in its made-up
    game, where it knows the hand, MCTS proves a win in a few simulations and stops)."""
    rules = rules_of(tmp_path, HAND)
    observation = Counting(rules.new_game(seed=2), 0)
    agent = make_agent(spec, 1)
    agent.choose(observation)
    assert observation.made == made
    assert agent.last.simulations == 60


def decision_nodes(node: ismcts.Info) -> list[ismcts.Info]:
    """The nodes of a seat's tree at which it chose."""
    found = [node] if node.edges else []
    for kid in [*node.after.values(), *(k for e in node.edges.values()
                                       for k in e.after.values())]:
        found += decision_nodes(kid)
    return found


def test_ismcts_counts_when_each_option_was_available(tmp_path):
    """Player 2's options are the cards of a hidden hand, two of four in each made-up
    game: in player 2's tree each option counts the simulations that offered it."""
    rules = rules_of(tmp_path, HAND)
    search = ismcts.Search(Observation(rules.new_game(seed=2), 0), Settings(sims=300),
                           random.Random(1))
    search.run(Budget(Settings(sims=300)))
    nodes = decision_nodes(search.roots[1])
    assert len(nodes) == 2  # after "ask 1" and after "ask 2"
    for node in nodes:
        visits = sum(e.n for e in node.edges.values())
        assert sorted(node.edges) == ["1", "2", "3", "4"] and visits >= 20
        for e in node.edges.values():
            assert e.n <= e.avail < visits
        # two options a visit, less the visits that offered an option not yet in the tree
        assert 2 * visits - 4 <= sum(e.avail for e in node.edges.values()) <= 2 * visits


def test_ismcts_explores_by_availability_not_by_the_nodes_visits():
    """UCB1 in a tree whose options come and go: an option offered in many more
    simulations than it was taken gets the larger bonus, though its mean is lower."""
    observation = Observation(rulesdsl.load(TICTACTOE).new_game(), 0)
    search = ismcts.Search(observation, Settings(sims=1), random.Random(1))
    node = ismcts.Info()
    for oid, w, avail in (("a", 5.5, 10), ("b", 5.0, 1000)):
        edge = node.edges[oid] = ismcts.Edge()
        edge.n, edge.w, edge.avail = 10, w, avail - 1  # _select counts this visit too
    edge, i, fresh = search._select(node, ["a", "b"])
    assert (i, fresh) == (1, False) and edge is node.edges["b"]


# ---- reproducible ------------------------------------------------------------------------------

@functools.lru_cache(maxsize=1)
def cronberg() -> rulesdsl.Rules:
    return rulesdsl.load(ROOT / "games/cronberg/cronberg.rules")


def opening(spec: str, agent_seed: int, decisions: int = 8) -> list[int]:
    """The first decisions of a game of Cronberg, the agent against random."""
    rules = cronberg()
    game = rules.new_game(players=2, seed=3)
    agents = agents_for([spec, "random"], 2, agent_seed)
    while len(game.history) < decisions:
        seat = game.decider
        assert seat is not None
        game.apply_index(agents[seat].choose(Observation(game, seat)))
    return game.history


@pytest.mark.parametrize("spec", ["mcts:sims=25", "ismcts:sims=25", "mcts:sims=24,worlds=3"])
def test_the_same_seed_plays_the_same_moves(spec):
    assert opening(spec, 3) == opening(spec, 3)
    assert opening(spec, 4) != opening(spec, 3)  # other seeds, other moves


def test_a_time_budget_stops_the_search():
    rules = rulesdsl.load(ROOT / "games/connect_four/connect_four.rules")
    agent = make_agent("mcts:sims=100000000,time=0.05", 1)
    game = rules.new_game()
    assert 0 <= agent.choose(Observation(game, 0)) < 7
    assert agent.last is not None and 1 <= agent.last.simulations < 100000000


def test_a_game_for_one_is_searched_by_its_score():
    """Yacht alone: no place to win, so the score is the return; a search still prefers
    keeping the dice that score (the report's worth is from 0 to 1)."""
    rules = rulesdsl.load(ROOT / "games/yacht/yacht.rules")
    game = rules.new_game(players=1, seed=2)
    agent = make_agent("mcts:sims=60", 1)
    i = agent.choose(Observation(game, 0))
    assert 0 <= i < game.num_options()
    assert agent.last is not None and 0 <= agent.last.value <= 1
