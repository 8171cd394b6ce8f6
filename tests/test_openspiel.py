"""Rule files as OpenSpiel games (rulesdsl/adapters/openspiel.py): OpenSpiel's own
random-simulation test on every base game under games/, perft against OpenSpiel's own
tic-tac-toe and connect four, MCTS and CFR on rulesdsl games, the game type, parameters,
actions, and observations that come from the seat's view alone."""

from __future__ import annotations

import importlib
import pickle
import random
import re
import sys
from pathlib import Path

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import (
    cfr,
    expected_game_score,
    exploitability,
    get_all_states,
    ismcts,
    mcts,
    outcome_sampling_mccfr,
)
from open_spiel.python.tests import games_sim_test

import rulesdsl
from rulesdsl import Observation, RulesError
from rulesdsl.adapters import openspiel

from .conftest import ROOT
from .interop import BASE_GAMES, KUHN, LEDUC, ONE_SIDED, SHORTER, flow_examples, on_native_kuhn


def test_the_base_games_are_found():
    found = {p.stem for p in BASE_GAMES}
    assert {"cleromancy", "connect_four", "cromlech", "cronberg", "pig", "tictactoe",
            "yacht"} <= found
    assert "pig-to-50" not in found  # a variant is not a base game


@pytest.mark.parametrize("path", BASE_GAMES, ids=lambda p: p.stem)
def test_random_sim_test(path):
    game = openspiel.load_game(path, **SHORTER.get(path.stem, {}))
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("path, players", [("games/cronberg/cronberg.rules", 4),
                                           ("games/yacht/yacht.rules", 3)])
def test_random_sim_test_with_more_players(path, players):
    game = openspiel.load_game(ROOT / path, players=players)
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_without_the_extra_the_error_says_what_to_install(monkeypatch):
    monkeypatch.delitem(sys.modules, "rulesdsl.adapters.openspiel")
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # as if OpenSpiel were not installed
    with pytest.raises(ImportError, match=re.escape("pip install 'rulesdsl[openspiel]'")):
        importlib.import_module("rulesdsl.adapters.openspiel")


def perft(state: pyspiel.State, depth: int) -> int:
    if depth == 0:
        return 1
    if state.is_terminal():
        return 0
    actions = state.legal_actions()
    if depth == 1:
        return len(actions)
    return sum(perft(state.child(a), depth - 1) for a in actions)


@pytest.mark.parametrize("path, own, depth", [
    ("games/tictactoe/tictactoe.rules", "tic_tac_toe", 6),
    ("games/connect_four/connect_four.rules", "connect_four", 5)])
def test_perft_is_openspiels(path, own, depth):
    ours = openspiel.load_game(ROOT / path).new_initial_state()
    theirs = pyspiel.load_game(own).new_initial_state()
    for d in range(1, depth + 1):
        assert perft(ours, d) == perft(theirs, d), f"depth {d}"


def test_the_game_type_follows_the_rules():
    kinds = {}
    for path in BASE_GAMES:
        t = openspiel.load_game(path).get_type()
        kinds[path.stem] = (t.chance_mode.name, t.information.name)
        assert t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
        assert t.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert kinds["tictactoe"] == ("DETERMINISTIC", "PERFECT_INFORMATION")
    assert kinds["pig"] == ("EXPLICIT_STOCHASTIC", "PERFECT_INFORMATION")
    assert kinds["cromlech"] == ("EXPLICIT_STOCHASTIC", "IMPERFECT_INFORMATION")
    assert kinds["cronberg"] == ("EXPLICIT_STOCHASTIC", "IMPERFECT_INFORMATION")


def test_settings_and_players_are_parameters():
    game = openspiel.load_game(ROOT / "games/pig/pig.rules", GOAL=20)
    assert game.rules.value("GOAL") == 20
    assert game.get_parameters()["GOAL"] == 20
    assert pyspiel.load_game("rulesdsl_pig").rules.value("GOAL") == 100
    yacht = openspiel.load_game(ROOT / "games/yacht/yacht.rules", players=3)
    assert yacht.num_players() == 3
    with pytest.raises(RulesError, match="C002"):
        openspiel.load_game(ROOT / "games/tictactoe/tictactoe.rules", players=3)
    with pytest.raises(RulesError, match="E032"):
        openspiel.load_game(ROOT / "games/pig/pig.rules", GOAL=5)
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter"):
        openspiel.load_game(ROOT / "games/pig/pig.rules", goal=5)


def test_actions_are_stable_and_named_by_their_options():
    game = openspiel.load_game(ROOT / "games/tictactoe/tictactoe.rules")
    state = game.new_initial_state()
    assert state.legal_actions() == list(range(9))
    assert state.action_to_string(0, 4) == "mark b2"
    state.apply_action(4)
    assert 4 not in state.legal_actions()
    assert state.action_to_string(1, 0) == "mark a1"
    assert game.actions.name(4) == "b2"  # the option's id, wherever
    connect = openspiel.load_game(ROOT / "games/connect_four/connect_four.rules")
    assert connect.new_initial_state().legal_actions() == list(range(7))
    assert connect.actions.name(0) == "1"
    with pytest.raises(ValueError, match="not legal"):
        state.apply_action(4)


def test_chance_nodes_are_rolls_with_their_odds():
    game = openspiel.load_game(ROOT / "games/pig/pig.rules")
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert state.chance_outcomes() == [(i, pytest.approx(1 / 6)) for i in range(6)]
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 3) == "rolled 4"
    state.apply_action(3)
    assert state.current_player() == 0
    assert [state.action_to_string(0, a) for a in state.legal_actions()] == [
        "roll again (turn total 4)", "hold and bank"]


def test_a_shuffle_is_drawn_card_by_card():
    """A shuffle of m cards is m - 1 chance nodes of m, m - 1, ... 2 equally likely
    outcomes: every order of the deck as likely as the engine's shuffle makes it. No seat
    is shown a draw."""
    game = openspiel.load_game(KUHN)
    state = game.new_initial_state()
    assert state.chance_outcomes() == [(k, pytest.approx(1 / 3)) for k in range(3)]
    assert state.observation_string(0) == state.child(2).observation_string(0)
    second = state.child(0)
    assert second.chance_outcomes() == [(k, pytest.approx(1 / 2)) for k in range(2)]
    deals = set()
    for a in range(3):
        for b in range(2):
            dealt = state.child(a).child(b)
            assert dealt.current_player() == 0
            deals.add(tuple(dealt.view(seat)["zones"]["hand"][seat][0] for seat in (0, 1)))
    assert len(deals) == 6  # every deal of two of the three cards, once each


def test_seeded_play_is_unchanged_by_the_adapter():
    """The engine's own games (records, saves, seeds) draw as before: a game played
    through the adapter does not change how a seed deals."""
    rules = rulesdsl.load(KUHN)
    before = rules.new_game(players=2, seed=11).view(0)
    game = openspiel.load_game(KUHN)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(0)
    assert rules.new_game(players=2, seed=11).view(0) == before


def test_mcts_plays_tictactoe():
    game = openspiel.load_game(ROOT / "games/tictactoe/tictactoe.rules")
    bot = mcts.MCTSBot(game, uct_c=2, max_simulations=100,
                       evaluator=mcts.RandomRolloutEvaluator(1, np.random.RandomState(1)),
                       random_state=np.random.RandomState(2))
    rng = np.random.RandomState(3)
    for seat in (0, 1, 0, 1):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() == seat:
                state.apply_action(bot.step(state))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        assert state.returns()[seat] >= 0  # never beaten by a random player


def test_mcts_plays_pig_through_chance():
    game = openspiel.load_game(ROOT / "games/pig/pig.rules", GOAL=20)
    bot = mcts.MCTSBot(game, uct_c=2, max_simulations=30,
                       evaluator=mcts.RandomRolloutEvaluator(1, np.random.RandomState(1)),
                       random_state=np.random.RandomState(2))
    rng = random.Random(4)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(bot.step(state))
    assert sorted(state.returns()) == [-1.0, 1.0]


def test_cfr_solves_a_secret_choice(tmp_path: Path):
    path = tmp_path / "one_sided.rules"
    path.write_text(ONE_SIDED, encoding="utf-8")
    game = openspiel.load_game(path)
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    solver = cfr.CFRSolver(game)
    assert exploitability.nash_conv(game, solver.average_policy()) > 0.3
    for _ in range(300):
        solver.evaluate_and_update_policy()
    policy = solver.average_policy()
    assert exploitability.nash_conv(game, policy) < 0.02
    value = expected_game_score.policy_value(game.new_initial_state(), [policy] * 2)
    assert value[0] == pytest.approx(1 / 3, abs=0.01)
    first = game.new_initial_state()
    assert policy.action_probabilities(first) == pytest.approx({0: 0, 1: 2 / 3, 2: 1 / 3},
                                                               abs=0.02)


def test_a_resampled_state_keeps_what_the_seat_knows():
    """`resample_from_infostate` (for IS-MCTS) gives a state the seat cannot tell from the
    real one, its hidden parts made up afresh."""
    game = openspiel.load_game(ROOT / "games/cronberg/cronberg.rules")
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    rng = random.Random(6)
    state = game.new_initial_state()
    assert str(state.resample_from_infostate(0, sampler)) == str(state)  # before the deal
    compared, differed = 0, 0
    while not state.is_terminal() and compared < 12:
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
            continue
        seat = state.current_player()
        other = state.resample_from_infostate(seat, sampler)
        assert shown(other, seat) == shown(state, seat)
        assert other.legal_actions() == state.legal_actions()
        compared += 1
        differed += str(other) != str(state)
        state.apply_action(rng.choice(state.legal_actions()))
    assert compared == 12 and differed > 0


def test_ismcts_decides_without_seeing_a_secret():
    """IS-MCTS searches the worlds the seat cannot tell apart: whichever hand player 1
    chose in secret, player 2's search (seeded alike) comes out the same."""
    game = pyspiel.load_game(openspiel.register(rulesdsl.load_text(ONE_SIDED,
                                                                   "one_sided.rules")))
    policies = []
    for hand in (0, 1, 2):  # player 1 plays rock, paper or scissors
        bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(1)),
                               2.0, 60, random_state=np.random.RandomState(2))
        worlds = random.Random(7)  # OpenSpiel's own sampler is seeded afresh by each run
        bot.set_resampler(lambda s, p, worlds=worlds: s.resample_from_infostate(p, worlds.random))
        state = game.new_initial_state()
        state.apply_action(hand)
        policy, action = bot.step_with_policy(state)
        assert action in (0, 1)  # rock or paper: player 2 may not play scissors
        policies.append(policy)
    assert policies[0] == policies[1] == policies[2]


def test_rules_from_a_text_register_too():
    rules = rulesdsl.load_text(ONE_SIDED, "one_sided.rules")
    name = openspiel.register(rules)
    assert name == "rulesdsl_one_sided_rock_paper_scissors"
    assert pyspiel.load_game(name).num_distinct_actions() == 3


def test_returns_come_from_the_ranking():
    game = openspiel.load_game(ROOT / "games/tictactoe/tictactoe.rules")
    state = game.new_initial_state()
    for a in (0, 3, 1, 4, 2):  # a1 b1 c1 for player 1 (actions are cells in order)
        assert state.returns() == [0.0, 0.0]
        state.apply_action(a)
    assert state.is_terminal()
    assert state.returns() == [1.0, -1.0]
    assert openspiel.ranking_returns([1, 2, 2]) == [1.0, -0.5, -0.5]
    assert openspiel.ranking_returns([1, 1]) == [0.0, 0.0]
    assert openspiel.ranking_returns([2, 1, 2, 1]) == pytest.approx([-2 / 3, 2 / 3, -2 / 3, 2 / 3])


# ---- what a seat is shown ----------------------------------------------------------------

def shown(state: pyspiel.State, seat: int) -> tuple[str, str, list[float]]:
    return (state.observation_string(seat), state.information_state_string(seat),
            list(state.observation_tensor(seat)))


@pytest.mark.parametrize("path", ["games/cromlech/cromlech.rules",
                                  "games/cronberg/cronberg.rules"])
def test_a_seat_is_shown_only_its_view(path):
    """The real game and a game made up for a seat (its hidden parts dealt anew, other
    seats' secret choices drawn afresh) give that seat the same strings and tensor."""
    game = openspiel.load_game(ROOT / path)
    rules = game.rules
    rng = random.Random(5)
    real = rules.new_game(players=2, seed=7, narrate=True, auto_chance=False)
    compared = 0
    for step in range(60):
        if real.over:
            break
        if step % 6 == 0:
            for seat in range(2):
                made_up = Observation(real, seat).sample_game(rng)
                a, b = game.state_at(real), game.state_at(made_up)
                assert shown(a, seat) == shown(b, seat)
                if a.current_player() == seat:
                    assert a.legal_actions() == b.legal_actions()
                compared += 1
        if real.is_chance:
            real.roll_chance()
        else:
            real.apply_index(rng.randrange(real.num_options()))
    assert compared >= 8


def test_another_seats_secret_stays_hidden():
    """Player 2's observation and information state say that player 1 chose, not what."""
    game = pyspiel.load_game(openspiel.register(rulesdsl.load_text(ONE_SIDED,
                                                                   "one_sided.rules")))
    paper, scissors = game.new_initial_state(), game.new_initial_state()
    paper.apply_action(1)
    scissors.apply_action(2)
    assert '"hand":["?",null]' in paper.observation_string(1)
    assert '"hand":["Paper","?"]' in paper.observation_string(0)
    assert "player 1 chooses in secret" in paper.information_state_string(1)
    assert shown(paper, 1) == shown(scissors, 1)
    assert shown(paper, 0) != shown(scissors, 0)


def test_a_decision_without_numbered_options_is_a_clear_error():
    rules = rulesdsl.load_text("""game "Words"
players 2

play:
    turns:
        choose w in ["yes", "no"] as "say {w}"
        win current
""", "words.rules")
    with pytest.raises(RulesError) as err:
        pyspiel.load_game(openspiel.register(rules))
    text = str(err.value)
    assert "error[C003]" in text and "words.rules:6:9" in text


def test_a_number_beyond_the_actions_is_a_clear_error():
    rules = rulesdsl.load_text("""game "Count"
players 2

counter top = 5

play:
    turns:
        choose n in 1..top as "take {n}"
        win current
""", "count.rules")
    game = pyspiel.load_game(openspiel.register(rules), {"numbers": 3})
    with pytest.raises(RulesError, match="G005"):
        game.new_initial_state().legal_actions()
    assert pyspiel.load_game("rulesdsl_count").new_initial_state().legal_actions() == \
        [1, 2, 3, 4, 5]


# ---- the flow of play: simultaneous secret steps, offers, teams ----------------------------

@pytest.mark.parametrize("n", range(4))
def test_the_flow_of_play_is_an_openspiel_game(n):
    text = flow_examples()[n]
    rules = rulesdsl.load_text(text, f"flow{n}.rules")
    game = pyspiel.load_game(openspiel.register(rules, f"rulesdsl_flow_{n}"))
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)
    if "chooses in secret" in text:  # the others learn that a seat chose, not what
        assert game.get_type().information == \
            pyspiel.GameType.Information.IMPERFECT_INFORMATION


def test_the_flow_examples_are_found():
    found = flow_examples()
    assert len(found) >= 4
    assert any("offer optional" in text for text in found)
    assert any("teams of 2" in text for text in found)


def test_an_offer_is_numbered_as_its_values_and_the_answers():
    (text,) = [t for t in flow_examples() if 'game "Lending"' in t]
    game = pyspiel.load_game(openspiel.register(rulesdsl.load_text(text, "lending.rules")))
    state = game.new_initial_state()
    names = {a: state.action_to_string(a) for a in state.legal_actions()}
    assert sorted(names.values()) == ["lend 1 stones to player 1",
                                      "lend 2 stones to player 1", "lend nothing"]
    (two,) = [a for a in names if names[a] == "lend 2 stones to player 1"]
    state.apply_action(two)
    assert [state.action_to_string(a) for a in state.legal_actions()] == [
        "build with 2 lent stones", "refuse the offer of player 2"]


# ---- what a researcher solves: payoffs, exact deals, positions ----------------------------

def test_the_payoff_line_pays_and_is_checked(tmp_path: Path):
    game = openspiel.load_game(KUHN)
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert (game.min_utility(), game.max_utility()) == (-2.0, 2.0)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(0)
    for action in (1, 1):  # bet, call: the higher card takes 2 chips
        state.apply_action(action)
    assert sorted(state.returns()) == [-2.0, 2.0]
    bad = tmp_path / "bad.rules"
    bad.write_text(KUHN.read_text(encoding="utf-8").replace(
        "payoff p by chips of p", "payoff p by chips of p + 1"), encoding="utf-8")
    game = rulesdsl.load(bad).new_game(players=2, seed=1)
    game.apply("pass")
    game.apply("pass")
    with pytest.raises(RulesError, match=r"R011.*add up to 2, not 0"):
        game.payoffs()


def test_cfr_solves_kuhn_poker_written_in_the_language():
    """OpenSpiel's CFR+ (python) through the adapter: NashConv under 0.01, player 1's
    value within 0.005 of -1/18, and the policy, read in OpenSpiel's own kuhn_poker, as
    good there."""
    game = openspiel.load_game(KUHN)
    solver = cfr.CFRPlusSolver(game)
    for _ in range(50):
        solver.evaluate_and_update_policy()
    ours = solver.average_policy()
    assert exploitability.nash_conv(game, ours) < 0.01
    value = expected_game_score.policy_value(game.new_initial_state(), [ours] * 2)
    assert value[0] == pytest.approx(-1 / 18, abs=0.005)
    native = pyspiel.load_game("kuhn_poker")
    mapped = on_native_kuhn(game, ours, native)
    assert exploitability.nash_conv(native, mapped) < 0.01


def test_kuhn_has_native_kuhns_information_states():
    ours = get_all_states.get_all_states(openspiel.load_game(KUHN), include_terminals=False)
    theirs = get_all_states.get_all_states(pyspiel.load_game("kuhn_poker"),
                                           include_terminals=False)
    for seat in (0, 1):
        assert len({s.information_state_string(seat) for s in ours.values()
                    if s.current_player() == seat}) == \
            len({s.information_state_string(seat) for s in theirs.values()
                 if s.current_player() == seat}) == 6


def test_tictactoe_has_native_positions():
    """`str(state)` is the position (no locals of a move already made): value iteration's
    walk over `str` keys finds the 5,478 positions of OpenSpiel's own tic-tac-toe."""
    game = openspiel.load_game(ROOT / "games/tictactoe/tictactoe.rules")
    assert game.max_game_length() == 9  # from visiting every position of the rules
    found = get_all_states.get_all_states(game, include_terminals=True,
                                          include_chance_states=False, to_string=str)
    assert len(found) == 5478


def test_games_pickle_and_the_missing_tensor_is_an_error():
    game = openspiel.load_game(KUHN)
    again = pickle.loads(pickle.dumps(game))
    assert str(again) == str(game) and again.num_distinct_actions() == 2
    state = game.new_initial_state()
    state.apply_action(1)
    state.apply_action(0)
    assert str(pickle.loads(pickle.dumps(state))) == str(state)
    with pytest.raises(pyspiel.SpielError, match="no information-state tensor"):
        state.information_state_tensor(0)
    first, after = state.clone(), state.clone()
    for action in (0, 1):  # check, bet: player 1 decides again, with the chips it sees
        after.apply_action(action)
    assert first.observation_tensor(0) != after.observation_tensor(0)


@pytest.mark.parametrize("path", [*BASE_GAMES, KUHN, LEDUC], ids=lambda p: p.stem)
def test_openspiels_sim_game(path):
    """OpenSpiel's full GamesSimTest.sim_game: pickling of games and states, serialization,
    clones, utilities within the range the game declares."""
    game = openspiel.load_game(path, **SHORTER.get(path.stem, {}))
    games_sim_test.GamesSimTest().sim_game(game)


def test_leduc_poker_has_leducs_structure():
    """Leduc poker written in the language: native leduc_poker's actions (fold 0, call 1,
    raise 2), at most two raises a round, the public card after the first round, chips
    as returns; and a short run of outcome-sampling MCCFR through it."""
    game = openspiel.load_game(LEDUC)
    assert game.num_distinct_actions() == 3 and game.max_chance_outcomes() == 6
    state = game.new_initial_state()
    draws = 0
    while state.is_chance_node():  # the whole deck shuffled: 6, 5, 4, 3, 2 outcomes
        assert len(state.chance_outcomes()) == 6 - draws
        state.apply_action(0)
        draws += 1
    assert draws == 5
    assert state.legal_actions() == [1, 2]  # no fold when nothing is bet
    start = state.clone()
    for action, legal in ((2, [0, 1, 2]), (2, [0, 1])):
        state.apply_action(action)
        assert state.legal_actions() == legal
    state.apply_action(1)  # call: the public card is turned up, a new round starts
    assert len(state.view(0)["zones"]["public"]) == 1
    assert state.current_player() == 0 and state.legal_actions() == [1, 2]
    start.apply_action(1)
    start.apply_action(2)  # check, raise, fold: player 1 loses its ante
    start.apply_action(0)
    assert start.returns() == [-1.0, 1.0]
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    np.random.seed(3)
    for _ in range(200):
        solver.iteration()
    first = game.new_initial_state()
    while first.is_chance_node():
        first.apply_action(first.chance_outcomes()[-1][0])
    probs = solver.average_policy().action_probabilities(first)
    assert set(probs) == {1, 2} and sum(probs.values()) == pytest.approx(1.0)
    assert len(solver._infostates) > 100  # information states sampled through the adapter


@pytest.mark.slow
def test_leduc_has_native_leducs_information_states():
    """Every position of the two (the rule file shuffles the whole deck, so it has more
    positions than native's, which deals the public card when it is turned up): each seat
    has native's 468 information states."""
    ours = get_all_states.get_all_states(openspiel.load_game(LEDUC), include_terminals=False)
    theirs = get_all_states.get_all_states(pyspiel.load_game("leduc_poker"),
                                           include_terminals=False)
    for seat in (0, 1):
        assert len({s.information_state_string(seat) for s in ours.values()
                    if s.current_player() == seat}) == \
            len({s.information_state_string(seat) for s in theirs.values()
                 if s.current_player() == seat}) == 468
