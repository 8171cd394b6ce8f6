"""The strength ladder (`rulesdsl strength`, `rulesdsl.agents.strength`), the presets, and greedy
playing by the heuristic or the scores: small budgets, real games."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulesdsl.agents import AgentError, parse_agents
from rulesdsl.agents.presets import PRESETS, preset_table
from rulesdsl.agents.strength import ladder, mean_interval, pairs
from rulesdsl.cli import main

ROOT = Path(__file__).resolve().parents[1]
GAMES = ROOT / "games"
TICTACTOE = str(GAMES / "tictactoe" / "tictactoe.rules")
CONNECT_FOUR = str(GAMES / "connect_four" / "connect_four.rules")
PIG = str(GAMES / "pig" / "pig.rules")


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in err and "Traceback" not in out
    return code, out, err


def test_a_round_robin_on_tictactoe_rates_every_agent(capsys):
    code, out, err = run_cli(capsys, "strength", TICTACTOE, "--games", "4", "--agents",
                             "random,greedy,first", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["players"] == 2 and data["chance"] == 0.5
    assert [r["agent"] for r in data["ratings"]] == ["random", "greedy", "first"]
    # two players: each unordered pair once, every agent in 2 pairings of 4 games
    assert [(p["agent"], p["against"]) for p in data["pairings"]] == [
        ("random", "greedy"), ("random", "first"), ("greedy", "first")]
    for r in data["ratings"]:
        assert r["games"] == 8
        low, high = r["interval"]
        assert 0 <= low <= r["score"] <= high <= 1
    # the scores of a pair's two sides add up to one game each
    scores = {r["agent"]: r["score"] for r in data["ratings"]}
    assert sum(scores.values()) == pytest.approx(1.5)


def test_the_ladder_as_people_read_it(capsys):
    code, out, err = run_cli(capsys, "strength", CONNECT_FOUR, "--games", "2", "--agents",
                             "random,mcts:sims=10")
    assert code == 0
    assert "chance scores 0.50" in out
    assert "mcts:sims=10" in out and "s a decision" in out
    assert "random with mcts:sims=10:" in err  # each pairing as soon as it is played


def test_three_players_play_every_ordered_pair():
    assert pairs(["a", "b", "c"], 3) == [("a", "b"), ("a", "c"), ("b", "a"), ("b", "c"),
                                         ("c", "a"), ("c", "b")]
    assert pairs(["a", "b"], 2) == [("a", "b")]


def test_the_python_api_gives_ratings_with_intervals():
    out = ladder(TICTACTOE, ["random", "first"], None, games=3)
    assert [r.agent for r in out.ratings] == ["random", "first"]
    assert all(r.low <= r.score <= r.high for r in out.ratings)
    assert out.to_json()["pairings"][0]["games"] == 3


@pytest.mark.parametrize("argv,wanted", [
    (["--agents", "random"], "at least two different agents"),
    (["--agents", "random,random"], "at least two different agents"),
    (["--agents", "random,bogus"], "unknown agent 'bogus'"),
    (["--agents", "random,mcts:sims=0"], "sims must be"),
    (["--agents", "good:sims=3,random"], "takes no parameters"),
    (["--games", "0"], "at least 1"),
    (["--workers", "0"], "at least 1"),
])
def test_options_are_rejected_before_any_game(capsys, argv, wanted):
    code, out, err = run_cli(capsys, "strength", TICTACTOE, *argv)
    assert code == 2 and wanted in err and out == ""


def test_a_wrong_number_of_players_is_rejected_before_any_game(capsys):
    code, out, err = run_cli(capsys, "strength", TICTACTOE, "--players", "3")
    assert code == 1 and "C002" in err and out == ""


def test_presets_resolve_to_the_agents_they_name():
    for preset in PRESETS.values():
        assert parse_agents(preset.name) == parse_agents(preset.spec)
    assert [p["name"] for p in preset_table()] == ["quick", "good", "strong"]
    both = parse_agents("good,random")
    assert both == parse_agents(PRESETS["good"].spec) + parse_agents("random")
    with pytest.raises(AgentError, match="takes no parameters"):
        parse_agents("strong:sims=5")


@pytest.mark.parametrize("command", ["run", "simulate", "validate"])
def test_presets_are_accepted_wherever_agents_are(capsys, command):
    extra = {"run": [], "simulate": ["--games", "2", "--no-db"],
             "validate": ["--games", "1", "--positions", "0", "--seek", "0"]}[command]
    files = [TICTACTOE]
    code, out, err = run_cli(capsys, command, *files, "--agents", "quick", *extra)
    assert code == 0, err


def test_greedy_beats_random_where_one_decision_ahead_must_win():
    """Connect four (no heuristic: greedy wins at once and blocks) and Pig (scores: greedy
    weighs rolling on against holding by its margin, over made-up futures)."""
    for path, games in ((CONNECT_FOUR, 16), (PIG, 40)):
        settings = {"GOAL": 30} if path == PIG else None
        out = ladder(path, ["greedy", "random"], 2, games=games, settings=settings)
        greedy = out.ratings[0]
        assert greedy.low > 0.5, (path, greedy)


def test_mean_interval_is_wilson_for_wins_and_normal_for_shares():
    mean, low, high = mean_interval([1, 0, 1, 1])
    assert mean == 0.75 and 0.3 < low < 0.75 < high < 1
    mean, low, high = mean_interval([0.5, 0.5, 1, 0])
    assert mean == 0.5 and low < 0.5 < high


def test_the_standing_is_the_heuristic_else_the_scores_else_nothing():
    from rulesdsl.loader import load

    cromlech = load(GAMES / "cromlech" / "cromlech.rules").new_game(players=2, seed=1)
    assert cromlech.standing() == [float(x) for x in cromlech.heuristic()]
    pig = load(PIG).new_game(players=2, seed=1)
    pig.apply("roll")
    while pig.decider == 0 and not pig.over:
        pig.apply("roll")
    assert pig.standing() == [float(pig.counter("score", p)) for p in range(2)]
    assert load(TICTACTOE).new_game(players=2, seed=1).standing() is None


def test_widening_opens_few_options_best_first():
    """Cronberg's first decision has dozens of places: with widen=1 and 16 simulations
    the search opens at most sqrt(16) + 1 of them, the first the one greedy rates best."""
    import random

    from rulesdsl import Observation
    from rulesdsl.agents.mcts import Search
    from rulesdsl.agents.search import Budget, Settings
    from rulesdsl.loader import load

    game = load(GAMES / "cronberg" / "cronberg.rules").new_game(players=2, seed=3)
    while game.num_options() < 20:
        game.apply_index(0)
    world = Observation(game, game.decider).sample_game(random.Random(1))
    settings = Settings(sims=16, depth=5)
    search = Search(world, settings, random.Random(2), True, widen=1.0)
    search.run(Budget(settings), 16)
    opened = [k for k in search.root.kids if k is not None]
    assert 1 <= len(opened) <= 5 < game.num_options()
    plain = Search(world, settings, random.Random(2), True)
    plain.run(Budget(settings), 16)
    assert sum(k is not None for k in plain.root.kids) == 16


def test_only_a_decision_wider_than_wide_is_widened():
    """`wide=N`: a decision of more than N options is widened, one of N or fewer opens
    every option as without widening (the same simulations, the same visits)."""
    import random

    from rulesdsl import Observation
    from rulesdsl.agents.mcts import Search
    from rulesdsl.agents.search import Budget, Settings
    from rulesdsl.loader import load

    game = load(GAMES / "cronberg" / "cronberg.rules").new_game(players=2, seed=3)
    while game.num_options() < 20:
        game.apply_index(0)
    many = game.num_options()
    world = Observation(game, game.decider).sample_game(random.Random(1))
    settings = Settings(sims=16, depth=5)

    def opened(**how: object) -> list:
        search = Search(world, settings, random.Random(2), True, **how)  # type: ignore[arg-type]
        search.run(Budget(settings), 16)
        return [(k.n if k is not None else None) for k in search.root.kids]

    narrow = opened(widen=1.0, wide=many - 1)
    assert 1 <= sum(n is not None for n in narrow) <= 5
    assert opened(widen=1.0, wide=many) == opened()   # not wider than `wide`: as plain


def test_a_spec_is_named_by_its_preset():
    from rulesdsl.agents.registry import preset_of

    assert preset_of(PRESETS["good"].spec) == "good"
    assert preset_of("good") == "good"
    assert preset_of("greedy:samples=4") == "quick"  # the default written out
    assert preset_of("random") is None and preset_of("bogus!") is None


def _wide_cronberg():
    from rulesdsl import Observation
    from rulesdsl.loader import load

    game = load(GAMES / "cronberg" / "cronberg.rules").new_game(players=2, seed=3)
    while game.num_options() < 20:
        game.apply_index(0)
    return game, Observation(game, game.decider)


def test_ismcts_widening_opens_few_options_the_best_first():
    """ISMCTS with widen=1 at a decision of dozens of places opens at most sqrt(16) + 1
    of them in 16 simulations, each in a new made-up game, the first the one the seat's
    margin one step on rates best; without widening it opens one a simulation."""
    import random

    from rulesdsl.agents.ismcts import Search
    from rulesdsl.agents.search import Budget, Settings, standing_worth

    game, observation = _wide_cronberg()
    settings = Settings(sims=16, depth=5)
    search = Search(observation, settings, random.Random(2), widen=1.0)
    best = max(search.prior.values())
    search.run(Budget(settings))
    own = search.roots[observation.seat]
    assert 1 <= len(own.edges) <= 5 < game.num_options()
    assert own.n == 16
    ids = game.option_ids()
    worth = standing_worth(game, range(len(ids)), observation.seat)
    assert worth and set(search.prior) <= set(ids)
    first = next(iter(own.edges))  # edges are kept in the order they were opened
    assert search.prior[first] == best
    plain = Search(observation, settings, random.Random(2))
    plain.run(Budget(settings))
    assert not plain.prior and len(plain.roots[observation.seat].edges) == 16


def test_ismcts_widens_only_a_decision_wider_than_wide():
    import random

    from rulesdsl.agents.ismcts import Search
    from rulesdsl.agents.search import Budget, Settings

    game, observation = _wide_cronberg()
    settings = Settings(sims=16, depth=5)

    def opened(**how: object) -> dict:
        search = Search(observation, settings, random.Random(2), **how)  # type: ignore[arg-type]
        search.run(Budget(settings))
        return {k: e.n for k, e in search.roots[observation.seat].edges.items()}

    assert 1 <= len(opened(widen=1.0, wide=game.num_options() - 1)) <= 5
    assert opened(widen=1.0, wide=game.num_options()) == opened()


def test_ismcts_takes_the_widening_parameters_and_checks_them():
    from rulesdsl.agents import make_agent

    agent = make_agent("ismcts:sims=5,widen=1.5,wide=16", seed=1)
    assert (agent.widen, agent.wide) == (1.5, 16)
    with pytest.raises(AgentError, match="widen"):
        make_agent("ismcts:widen=-1", seed=1)


def test_progressive_bias_keeps_the_search_on_the_prior_best():
    """`bias`: the searching seat's first options get bias * prior / (visits + 1), the
    prior their rank (0 to 1) by the margin one step on; a bias far above any return
    keeps the simulations, once each option is tried, on the options the prior rates
    best, in both searches."""
    import random

    from rulesdsl import Observation
    from rulesdsl.agents import mcts
    from rulesdsl.agents.ismcts import Search as InfoSearch
    from rulesdsl.agents.search import Budget, Settings, rank_prior, standing_worth
    from rulesdsl.loader import load

    assert rank_prior({0: -3.0, 1: 5.0, 2: 5.0, 3: 1e9}) == {0: 0.0, 1: 0.5, 2: 0.5, 3: 1.0}
    game = load(GAMES / "cromlech" / "cromlech.rules").new_game(players=2, seed=4)
    rng = random.Random(5)
    while True:  # a decision of a few options that the margin one step on tells apart
        n = game.num_options()
        if game.decider is not None and 3 <= n <= 12:
            worth = standing_worth(game, range(n), game.decider)
            if len(set(worth.values())) > 1:
                break
        game.apply_index(rng.randrange(n))
    observation = Observation(game, game.decider)
    world = observation.sample_game(random.Random(1))
    settings = Settings(sims=40, depth=2, bias=1000.0)
    search = mcts.Search(world, settings, random.Random(2), False)
    search.run(Budget(settings), 40)
    top = {i for i, r in search.prior.items() if r == 1.0}
    assert top and len(top) < n
    visits = [k.n if k is not None else 0 for k in search.root.kids]
    assert sum(visits[i] for i in top) >= 40 - n
    info = InfoSearch(observation, settings, random.Random(2))
    info.run(Budget(settings))
    edges = info.roots[observation.seat].edges
    best = {oid for oid, r in info.ranks.items() if r == 1.0}
    assert best and sum(e.n for oid, e in edges.items() if oid in best) >= 40 - n


def test_a_negative_bias_is_refused():
    from rulesdsl.agents import make_agent

    for spec in ("mcts:bias=-1", "ismcts:bias=-0.5"):
        with pytest.raises(AgentError, match="bias"):
            make_agent(spec, seed=1)


def test_the_ratings_line_up_whatever_the_agents_names():
    """Each rating's score starts in one column, however long an agent's name and its
    preset are (`mcts:sims=200,depth=10 (strong)` is longer than a fixed column)."""
    from rulesdsl.agents.strength import Ladder, Rating, describe

    ratings = [Rating("mcts:sims=200,depth=10", 0.788, 0.743, 0.834, 300, 0.0649),
               Rating("greedy", 0.690, 0.638, 0.742, 300, 0.0067),
               Rating("random", 0.003, 0.001, 0.019, 300, 0.0)]
    text = describe(Ladder("game.rules", 2, 100, [], ratings))
    rows = [line for line in text.splitlines() if " over 300 games" in line]
    assert [r.split()[0] for r in rows] == ["mcts:sims=200,depth=10", "greedy", "random"]
    assert "(strong)" in rows[0] and "(quick)" in rows[1]
    assert len({r.index("0.") for r in rows}) == 1
