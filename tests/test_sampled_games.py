"""A game made up for a bot is a legal continuation of what its seat has seen: played on
by random agents, it ends whenever the real game does (tests/continuations.py), for every
game and variant under games/ and for the Sushi Go of tests/games, written with each secret
construct of the language (`each p in players chooses in secret`, `choose ... secretly`).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import rulesdsl
from rulesdsl import Observation
from rulesdsl.validate import Options, validate_file

from .conftest import GAME_FILES, ROOT, game_id
from .continuations import continuations, play_on

SUSHI = ROOT / "tests" / "games" / "sushi_go.rules"
IN_TURN = ROOT / "tests" / "games" / "sushi_go_in_turn.rules"


def _tally_text(tally) -> str:
    return "\n".join(f"players {s.players}, seed {s.seed}, step {s.step}, seat {s.seat + 1}, "
                     f"sample seed {s.sample_seed}: {s.error}" for s in tally.stopped[:5])


@pytest.mark.parametrize("path", [SUSHI, IN_TURN], ids=lambda p: p.stem)
@pytest.mark.parametrize("players", [2, 3])
def test_sampled_sushi_go_plays_to_its_end(path: Path, players: int, load_rules) -> None:
    """A dish picked in secret from a hand dealt anew is a dish of that hand, and a second
    pick with the Chopsticks one the first left: every made-up game plays to its end."""
    rules = load_rules(path)
    tally = continuations(rules, players, seed=players, samples=1, every=8, seats="all",
                          limit=1_000)
    assert tally.tried > 30
    assert tally.ended == tally.tried, _tally_text(tally)


def test_the_failure_of_the_report_is_gone(load_rules) -> None:
    """The point of the report: player 2 picks after player 1 has picked in secret. Every
    game made up for player 2 there plays on (before, two in three stopped with R007)."""
    rules = load_rules(SUSHI)
    game = rules.new_game(players=2, seed=1)
    game.apply_index(0)
    assert game.decider == 1 and game.decision is not None and game.decision.secret
    for s in range(40):
        world = Observation(game, 1).sample_game(random.Random(s))
        assert play_on(world, random.Random(s)) is None


def test_a_pick_is_drawn_among_the_dishes_of_the_hand_dealt(load_rules) -> None:
    """In a made-up game, player 1's held pick is a dish of player 1's made-up hand, and the
    hands are dealt anew (player 2 does not see player 1's hand)."""
    rules = load_rules(SUSHI)
    game = rules.new_game(players=2, seed=1)
    game.apply_index(0)
    hands = set()
    for s in range(30):
        world = Observation(game, 1).sample_game(random.Random(s))
        hand = world.zone("hand", 0)
        hands.add(tuple(hand))
        world.apply_index(0)          # player 2 picks: the picks are shown
        (taken,) = world.zone("table", 0)
        assert taken in hand
    assert len(hands) > 20


def test_a_one_option_pick_is_drawn_again_in_a_hand_dealt_anew(load_rules) -> None:
    """The last card of a hand: the other player's pick had one option, which tells
    nothing once the hands are dealt anew; it is drawn again from the new hand."""
    rules = load_rules(SUSHI)
    game = rules.new_game(players=3, seed=2)
    rng = random.Random(2)
    while len(game.zone("hand", 0)) > 1 or game.decider != 2:
        game.apply_index(rng.randrange(game.num_options()))
    for s in range(20):
        world = Observation(game, 2).sample_game(random.Random(s))
        assert play_on(world, random.Random(s)) is None


@pytest.mark.parametrize("path", [SUSHI, IN_TURN], ids=lambda p: p.stem)
def test_sushi_go_passes_validate(path: Path) -> None:
    """The report: validate stopped with R007 in a game of greedy bots."""
    report = validate_file(str(path), Options(games=1, agents=("greedy",), players=2,
                                              positions=100, seek=0, records=None,
                                              coverage=False))
    bad = [d for d in report.diagnostics if d.severity == "error"]
    assert not bad, report.text()


# ---- every shipped game and variant ---------------------------------------------------------

@pytest.mark.parametrize("path", GAME_FILES, ids=game_id)
def test_sampled_games_play_to_their_end(path: Path, load_rules) -> None:
    rules = load_rules(path)
    low, high = rules.player_range
    tally = continuations(rules, high if high <= 4 else low, seed=1, samples=1,
                          every=100, limit=300)
    assert tally.tried > 0
    assert tally.ended == tally.tried, _tally_text(tally)


def test_the_rule_files_use_each_secret_construct() -> None:
    both = SUSHI.read_text() + IN_TURN.read_text()
    assert "chooses in secret" in both and "secretly" in both
    assert rulesdsl.load(IN_TURN).name == "Sushi Go: picks in turn"


# ---- an error in a bot's made-up game is told as such, and its record makes it again ------

NOTED = """game "Noted"
players 2

enum Suit: Red, Blue
kind Card(name, suit):
    3 x "red", Red
    3 x "blue", Blue

zone deck: Card hidden
zone hand per player: Card owner
zone table: Card public
counter noted per player = none secret holding Suit

setup:
    for each c in Card:
        move c to deck
    shuffle deck
    for each p in players:
        move top(deck) to hand of p
        set noted of p = suit of top(hand of p)

play:
    turns:
        choose n in 1..2 as "wait {n}"
        if n == 2:
            let c = first(x in hand of current where suit of x == noted of current)
            move c from hand of current to table
            win current
"""


def test_an_error_in_a_made_up_game_is_told_and_replayed(tmp_path, capsys) -> None:
    """A suit worked out from a hidden hand into a secret counter is not worked out again
    when the hand is dealt anew (docs/visibility.md): a greedy bot's look-ahead can meet
    R007 in its made-up game though the game itself never does. It is reported as R012,
    with the seat and the sample seed, and the record's replay makes that game again and
    stops at the same error."""
    from rulesdsl.agents.play import play_game, report_failure
    from rulesdsl.cli import main
    from rulesdsl.interpreter.records import read_record

    (tmp_path / "noted.rules").write_text(NOTED, encoding="utf-8")
    path = str(tmp_path / "noted.rules")
    rules = rulesdsl.load(path)
    failed = None
    for seed in range(1, 30):
        _, failed = play_game(rules, 2, seed, ["greedy"])
        if failed is not None:
            break
    assert failed is not None
    d = failed.diagnostic
    assert d.code == "R012" and "made up for player" in d.message and "sample seed" in d.message
    assert "error[R007]" in d.message and d.span is not None and d.span.line == 27
    assert failed.made_up is not None
    report_failure(rules, path, 2, failed, ["greedy"], 1, tmp_path)
    (written,) = tmp_path.glob("*.record.json")
    assert read_record(written).made_up is not None
    capsys.readouterr()
    assert main(["replay", str(written)]) == 1
    out, err = capsys.readouterr()
    assert "error[R012]" in err and "the record ends here" not in out
    assert f"sample seed {failed.made_up['seed']}" in err
