"""MCTS's tree kept from move to move, its transpositions, and its searches in several
processes (rulesdsl/agents/roots.py): the kept tree is found again where the seat's next
view is in it and nowhere else, a bot that keeps its tree still decides from what its
seat sees alone, transpositions share the nodes of positions reached by other orders, and
the processes give the moves the same searches give one after the other. Tiny budgets:
strength is measured by benchmarks/mcts_versions.py (docs/agents.md)."""

from __future__ import annotations

import random

import pytest

import rulesdsl
from rulesdsl import Observation
from rulesdsl.agents import make_agent
from rulesdsl.agents.mcts import Node, Search, seen_key
from rulesdsl.agents.roots import Kept, carry
from rulesdsl.agents.search import Budget, Settings

from .conftest import ROOT

TICTACTOE = ROOT / "games/tictactoe/tictactoe.rules"
CONNECT_FOUR = ROOT / "games/connect_four/connect_four.rules"


def searched(game: rulesdsl.Game, sims: int, table: dict | None = None) -> Search:
    settings = Settings(sims=sims)
    search = Search(game.copy(), settings, random.Random(3), True, table=table)
    search.run(Budget(settings), sims)
    return search


def nodes_and_links(root: Node) -> tuple[int, int]:
    """The nodes of a search's tree, and the links from a node to its kids."""
    seen: set[int] = set()
    links = 0
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) not in seen:
            seen.add(id(node))
            kids = [k for k in node.kids or () if k is not None]
            links += len(kids)
            stack.extend(kids)
    return len(seen), links


def test_the_kept_tree_is_found_at_the_seats_next_view():
    rules = rulesdsl.load(TICTACTOE)
    game = rules.new_game(seed=1)
    search = searched(game, 400)
    played = max(range(9), key=lambda i: search.root.kids[i].n)  # type: ignore[index]
    kept = Kept(search.root, search.world, search.scale)
    game.apply_index(played)
    reply = max(range(8), key=lambda i: search.root.kids[played].kids[i].n)  # type: ignore
    game.apply_index(reply)
    target = seen_key(Observation(game, 0).view)
    node = carry(kept, played, 0, target)
    assert node is search.root.kids[played].kids[reply]  # type: ignore[index]
    assert node is not None and node.n > 0


def test_a_view_the_kept_tree_does_not_hold_is_not_matched():
    rules = rulesdsl.load(TICTACTOE)
    game = rules.new_game(seed=1)
    search = searched(game, 40)
    kept = Kept(search.root, search.world, search.scale)
    other = rules.new_game(seed=1)
    for move in ("a1", "b2", "c3"):  # three moves on: not a view one reply away
        other.apply(move)
    assert carry(kept, 0, 0, seen_key(Observation(other, 1).view)) is None
    assert carry(None, 0, 0, "") is None


def test_a_reused_search_starts_from_the_visits_it_kept():
    rules = rulesdsl.load(CONNECT_FOUR)
    game = rules.new_game(seed=2)
    agent = make_agent("mcts:sims=300,reuse=true", 5)
    opponent = make_agent("mcts:sims=300", 6)
    game.apply_index(agent.choose(Observation(game, 0)))
    game.apply_index(opponent.choose(Observation(game, 1)))
    agent.choose(Observation(game, 0))
    assert agent.kept[0].root.n > 300  # the search began from visits of the last move's


@pytest.mark.parametrize("path,players,until", [
    ("games/cronberg/cronberg.rules", 3, 12),
    ("games/cromlech/cromlech.rules", 4, 40),
], ids=["cronberg", "cromlech"])
def test_a_bot_that_keeps_its_tree_decides_from_what_it_sees(path, players, until):
    """Two bots alike, one told the real game's observation at each of its decisions, the
    other an observation of a game made up from it (the same view, other hidden cards):
    over a run of decisions, trees kept between them, they choose alike."""
    rules = rulesdsl.load(ROOT / path)
    game = rules.new_game(players=players, seed=4)
    spec = "mcts:sims=12,depth=6,reuse=true,transpose=true"
    real, shown = make_agent(spec, 9), make_agent(spec, 9)
    rng, others = random.Random(4), random.Random(5)
    differ = asked = 0
    while not game.over and asked < until:
        seat = game.decider
        assert seat is not None
        if seat == 0 and game.num_options() > 1:
            made = Observation(game, 0).sample_game(rng)
            differ += made.state_key() != game.state_key()
            i = real.choose(Observation(game, 0))
            assert shown.choose(Observation(made, 0)) == i
            asked += 1
        else:
            i = others.randrange(game.num_options())
        game.apply_index(i)
    assert asked == until and differ > until // 2


def test_transpositions_share_the_positions_of_other_orders():
    rules = rulesdsl.load(TICTACTOE)
    game = rules.new_game(seed=1)
    nodes, links = nodes_and_links(searched(game, 600).root)
    assert links == nodes - 1  # a tree: one way to each node
    table: dict[str, Node] = {}
    nodes, links = nodes_and_links(searched(game, 600, table).root)
    assert links > nodes + 100  # a position reached in several orders is one node


@pytest.mark.parametrize("spec", ["mcts:sims=200,transpose=true",
                                  "mcts:sims=200,reuse=true,transpose=true"])
def test_with_transpositions_it_still_takes_a_win_and_blocks_a_loss(spec):
    rules = rulesdsl.load(TICTACTOE)
    win = rules.new_game(seed=1)
    for move in ("a1", "b1", "a2", "b2"):
        win.apply(move)
    assert win.options()[make_agent(spec, 1).choose(Observation(win, 0))].id == "a3"
    block = rules.new_game(seed=1)
    for move in ("a1", "b1", "a2"):
        block.apply(move)
    assert block.options()[make_agent(spec, 1).choose(Observation(block, 1))].id == "a3"


def opening(rules: rulesdsl.Rules, spec: str, moves: int, bots: list | None = None
            ) -> list[int]:
    game = rules.new_game(seed=3)
    if bots is None:
        bots = [make_agent(spec, 11), make_agent(spec, 12)]
    while not game.over and len(game.history) < moves:
        seat = game.decider
        assert seat is not None
        game.apply_index(bots[seat].choose(Observation(game, seat)))
    return game.history


def test_searches_in_worker_processes_play_as_searches_here():
    """Rules made from text cannot be loaded again by a worker, so their searches run one
    after the other in this process: the moves are the same either way."""
    spec = "mcts:sims=40,workers=2,reuse=true"
    from_file = rulesdsl.load(CONNECT_FOUR)
    from_text = rulesdsl.load_text(CONNECT_FOUR.read_text(encoding="utf-8"))
    bots = [make_agent(spec, 11), make_agent(spec, 12)]
    moves = opening(from_file, spec, 6, bots)
    assert all(bot.pool.executors and not bot.pool.broken for bot in bots)
    assert moves == opening(from_text, spec, 6)
    assert moves != opening(from_file, "mcts:sims=40,reuse=true", 6)


def test_a_bad_worker_count_is_refused():
    with pytest.raises(ValueError):
        make_agent("mcts:workers=0", 1)
