"""The flow of play: simultaneous secret steps, offers, turn order (direction, rounds
played at once), teams, points of the flow where examples start, and `expect options`.
(The diagnostics of each are in tests/programs/, the language reference's examples in
docs/language.md.)"""

from __future__ import annotations

import json
import random

import pytest

import rulesdsl
from rulesdsl import Observation
from rulesdsl.agents.play import describe_result
from rulesdsl.cli import main
from rulesdsl.interpreter.examples import run_examples
from rulesdsl.terminal import play_at_terminal

from .boundary import check

BIDS = """game "Bids"
players 3

kind Card(name):
    "Ace"
    "King"
    "Queen"
    "Jack"
    "Ten"
    "Nine"
    "Eight"

zone deck: Card hidden
zone hand per player: Card owner
zone table: Card public
counter bid per player = 0

setup:
    for each c in Card:
        move c to deck
    shuffle deck
    repeat 2 times:
        for each p in players:
            move top(deck) to hand of p

play:
    each p in players chooses in secret:
        choose n in 1..4 as "bid {n}"
        choose c in hand of p as "put down the {c}"
    then reveal:
        set bid of p = n
        move c from hand of p to table
        say "{p} bids {n} and puts down the {c}"
    end game
"""


def bids(seed: int = 1) -> rulesdsl.Game:
    return rulesdsl.load_text(BIDS, "bids.rules").new_game(players=3, seed=seed, narrate=True)


# ---- secret steps --------------------------------------------------------------------------

def test_a_secret_step_asks_each_seat_in_turn_and_holds_the_choices():
    game = bids()
    asked = []
    while not game.over:
        d = game.decision
        asked.append((d.player, d.simultaneous, d.secret))
        if d.player == 1 and len(asked) == 3:  # player 2's first choice
            # player 1 has chosen: nothing of it shows, to player 2 or to player 3
            assert game.counter("bid", 0) == 0 and game.zone("table") == []
            assert game.log_for(1) == ["player 1 chooses in secret"] * 2
            assert game.log_for(2) == game.log_for(1)
            assert game.view(2)["decision"] == {"player": 1, "simultaneous": [1, 2]}
        game.apply_index(0)
    assert asked == [(0, (0, 1, 2), True)] * 2 + [(1, (1, 2), True)] * 2 + \
        [(2, (2,), True)] * 2
    assert [game.counter("bid", p) for p in range(3)] == [1, 1, 1]
    assert len(game.zone("table")) == 3
    assert game.log[-3:] == [f"player {p} bids 1 and puts down the {name}" for p, name in
                             zip((1, 2, 3), _names(game, game.zone("table")))]


def _names(game: rulesdsl.Game, cards: list[int]) -> list[str]:
    ids = game.rules.components("Card")
    return [ids[c].capitalize() for c in cards]


def test_a_secret_step_keeps_the_information_boundary():
    rules = rulesdsl.load_text(BIDS, "bids.rules")
    for seed in range(3):
        assert check(rules, 3, seed) > 0


def test_held_choices_of_other_seats_are_drawn_afresh_and_follow_the_new_deal():
    """At player 3's decision, a game made up for player 3 has players 1 and 2 bid and put
    down something else (their hands too are dealt anew: the card held names a card of the
    new hand), and plays on to the reveal without error."""
    game = bids(2)
    for _ in range(4):
        game.apply_index(1)
    seen = Observation(game, 2)
    made_up = set()
    for s in range(40):
        world = seen.sample_game(random.Random(s))
        hand = world.zone("hand", 0)
        while not world.over:
            world.apply_index(0)
        assert world.counter("bid", 2) == 1            # player 3's own, just made
        made_up.add((world.counter("bid", 0), world.counter("bid", 1)))
        assert world.zone("table")[0] in hand          # player 1's card, from its new hand
    assert len(made_up) >= 6


def test_a_seat_keeps_its_own_held_choice_in_a_made_up_game():
    game = bids(3)
    game.apply_index(2)   # player 1 bids 3
    game.apply_index(0)
    for s in range(10):
        world = Observation(game, 0).sample_game(random.Random(s))
        while not world.over:
            world.apply_index(0)
        assert world.counter("bid", 0) == 3


def test_a_game_saved_in_a_secret_step_resumes_with_the_held_choices():
    rules = rulesdsl.load_text(BIDS, "bids.rules")
    game = rules.new_game(players=3, seed=4)
    for i in (3, 1, 2):
        game.apply_index(i)
    loaded = rules.load_game(json.loads(json.dumps(game.to_json())))
    assert loaded.decision == game.decision
    while not game.over:
        game.apply_index(0)
        loaded.apply_index(0)
    assert loaded.state_key() == game.state_key() and game.counter("bid", 0) == 4


def test_the_terminal_says_a_choice_is_secret_and_who_else_chooses():
    import io

    game = bids()
    answers = io.StringIO("1\n1\n")
    rules = game.rules
    from rulesdsl.agents.play import agents_for

    play_at_terminal(game, agents_for(["first"], 3, 1), {0}, stdin=answers,
                     stdout=(out := io.StringIO()))
    text = " ".join(out.getvalue().split())  # as said, whatever the lines' width
    assert "player 1, your secret choice (player 2, player 3 will choose too; nothing is " \
           "revealed before all have chosen):" in text
    assert "player 1 bids 1" in text and rules.name == "Bids"


# ---- offers --------------------------------------------------------------------------------

LENDING = """game "Lending"
players 3

counter stones per player = 2
counter built per player = 0

play:
    turns for 1 round:
        offer optional n in 1..2 where n <= stones of next(current) by next(current) to current \\
                as "lend {n} stones to {current}":
            accept:
                subtract n from stones of next(current)
                add n to built of current
            refuse "build alone":
                add 1 to built of current
    end game
"""


def test_an_offer_is_two_decisions_the_answer_naming_who_offered():
    game = rulesdsl.load_text(LENDING, "lending.rules").new_game(players=3, narrate=True)
    d = game.decision
    assert (d.player, d.offered_by) == (1, None)
    assert [o.id for o in d.options] == ["1", "2", "done"]
    game.apply("2")
    d = game.decision
    assert (d.player, d.offered_by) == (0, 1)
    assert [(o.id, o.label) for o in d.options] == [
        ("accept", "accept the offer of player 2"), ("refuse", "build alone")]
    assert game.view(2)["decision"] == {"player": 0, "offered_by": 1}
    game.apply("accept")
    assert game.log == ["player 2: lend 2 stones to player 1",
                        "player 1: accept the offer of player 2"]
    assert game.counter("built", 0) == 2 and game.counter("stones", 1) == 0
    game.apply("done")     # player 3 lends nothing: player 2 is not asked
    assert game.decision.player == 0 and game.decision.offered_by is None
    game.apply("1")
    game.apply("refuse")
    assert game.counter("built", 2) == 1 and game.over


def test_offers_and_rounds_at_once_keep_the_information_boundary():
    for text in (LENDING, GARDENS):
        rules = rulesdsl.load_text(text, "flow.rules")
        low, high = rules.player_range
        assert check(rules, high, seed=1) > 0


def test_offers_in_the_terminal_and_with_bots(tmp_path, capsys):
    import io

    path = tmp_path / "lending.rules"
    path.write_text(LENDING)
    rules = rulesdsl.load(path)
    from rulesdsl.agents.play import agents_for

    game = rules.new_game(players=3)
    out = io.StringIO()
    # seed 1: the random bot of seat 2 makes seat 1 an offer
    play_at_terminal(game, agents_for(["random"], 3, 1), {0}, stdin=io.StringIO("2\n" * 9),
                     stdout=out)
    assert "player 1, player 2 makes you an offer:" in out.getvalue()
    capsys.readouterr()
    assert main(["simulate", str(path), "--players", "3", "--games", "20", "--agents",
                 "greedy", "--no-db", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 20


# ---- turn order ----------------------------------------------------------------------------

def test_turns_going_anticlockwise_with_end_turn_and_rounds():
    rules = rulesdsl.load_text("""game "Order"
players 4

counter order = 0
counter seen per player = 0

play:
    turns from player 2 going anticlockwise for 2 rounds:
        add 1 to order
        set seen of current = order
        if order == 2:
            end turn
        choose n in [1] as "{n}"
    end game
""", "order.rules")
    game = rules.new_game(players=4)
    who = []
    while not game.over:
        who.append(game.current)
        game.apply_index(0)
    assert who == [1, 3, 2, 1, 0, 3, 2]   # the turn of seat 0 (order 2) asks nothing
    assert [game.counter("seen", p) for p in range(4)] == [6, 5, 8, 7]


GARDENS = """game "Gardens"
players 3

counter planted per player = 0

rule plant():
    choose n in 1..2 as "plant {n}"
    add n to planted of current

play:
    turns from player 2 all at once for 2 rounds:
        plant()
    end game
"""


def test_a_round_played_at_once_names_the_seats_still_to_play():
    rules = rulesdsl.load_text(GARDENS, "gardens.rules")
    game = rules.new_game(players=3)
    seen = []
    while not game.over:
        seen.append(game.decision.simultaneous)
        assert not game.decision.secret
        game.apply_index(1)
    assert seen == [(1, 2, 0), (2, 0), (0,)] * 2
    assert [game.counter("planted", p) for p in range(3)] == [4, 4, 4]


# ---- teams ---------------------------------------------------------------------------------

TEAMS = """game "Partners"
players 4
teams of 2

counter score per player = 0

play:
    turns for 1 round:
        choose n in 1..3 as "score {n}"
        add n to score of current
        if n == 3 and score of current >= 3 and length(team(current)) == 2:
            choose by current:
                option win "win now":
                    win current
                option go "go on":
                    pass
    end game
"""


def test_teams_rank_and_score_together():
    rules = rulesdsl.load_text(TEAMS.replace("players 4", "players 6"), "partners.rules")
    assert rules.teams(6) == [[0, 3], [1, 4], [2, 5]]
    game = rules.new_game(players=6)
    for n in ("1", "2", "1", "1", "1", "1"):
        game.apply(n)
    r = game.result
    assert r.teams == [[0, 3], [1, 4], [2, 5]]
    assert r.scores == [2, 3, 2, 2, 3, 2]          # without a rank line: the team's score
    assert r.ranking == [2, 1, 2, 2, 1, 2]
    assert describe_result(game) == ["Result: team 2 (players 2, 5) wins",
                                     "  1. team 2 (players 2, 5), score 3",
                                     "  2. team 1 (players 1, 4), score 2",
                                     "  2. team 3 (players 3, 6), score 2"]


def test_win_makes_the_winners_team_win():
    game = rulesdsl.load_text(TEAMS, "partners.rules").new_game(players=4)
    game.apply("1")
    game.apply("3")
    game.apply("win")
    assert game.result.ranking == [2, 1, 2, 1] and game.result.winners == [1, 3]


def test_simulate_speaks_of_teams(tmp_path, capsys):
    path = tmp_path / "partners.rules"
    path.write_text(TEAMS)
    assert main(["simulate", str(path), "--players", "4", "--games", "30", "--no-db",
                 "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["teams"] == [[0, 2], [1, 3]]
    assert sum(summary["team_wins"]) + summary["draws"] == 30
    low, high = summary["team_win_intervals"][0]
    assert low <= summary["team_win_rates"][0] <= high
    assert summary["team_mean_scores"] == [summary["mean_scores"][0],
                                           summary["mean_scores"][1]]


def test_a_variant_may_replace_or_remove_the_teams(tmp_path):
    (tmp_path / "partners.rules").write_text(TEAMS)
    (tmp_path / "threes.rules").write_text('extends "partners.rules"\n'
                                           'replace players 6\nreplace teams of 3\n')
    (tmp_path / "alone.rules").write_text('extends "partners.rules"\nremove teams\n')
    assert rulesdsl.load(tmp_path / "threes.rules").teams(6) == [[0, 2, 4], [1, 3, 5]]
    with pytest.raises(rulesdsl.RulesError, match="E083"):
        rulesdsl.load(tmp_path / "alone.rules")   # team(p) needs teams


# ---- points of the flow and expected options ---------------------------------------------------

YEARS = """game "Years"
players 2

counter year = 0
counter season = 0
counter score per player = 0

rule harvest():
    point harvest
    turns for 1 round:
        choose n in 1..3 where n != season as "gather {n}"
        add n to score of current

rule year_of_seasons():
    set season = 0
    while season < 2:
        add 1 to season
        harvest()

play:
    point start
    while year < 2:
        add 1 to year
        year_of_seasons()
    end game

example "from the start":
    play "2"
    expect options "2", "3"

example "the last harvest of the last year" from harvest:
    set year = 2
    set season = 2
    play
    expect options "1", "3"
    expect options exclude "2"
    play "3", "1"
    expect score of player 1 == 3 and game_over

example "the first year, from the top of the play block" from start:
    play "2", "2"
    expect season == 2 and year == 1
    expect options include "3"
"""


def test_examples_start_at_points_of_the_flow_through_rules():
    rules = rulesdsl.load_text(YEARS, "years.rules")
    assert run_examples(rules) == []
    # the harvest's game stands in the play block, in the year, in the harvest
    assert len(rules.program.starts["harvest"]) == 3
    wrong = YEARS.replace('expect score of player 1 == 3 and game_over',
                          'expect score of player 1 == 3 and not game_over')
    diags = run_examples(rulesdsl.load_text(wrong, "years.rules"))
    assert [d.code for d in diags] == ["E061"]
