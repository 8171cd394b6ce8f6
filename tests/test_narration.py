"""The log and who is told each line: `say ... to`, the engine's own lines for decisions
(a secret one told to its chooser only) and chance, views, saved games, `rulesdsl run`
and the terminal."""

from __future__ import annotations

import io
import json

import pytest

import rulesdsl
from rulesdsl.agents.play import agents_for
from rulesdsl.cli import main
from rulesdsl.terminal import play_at_terminal

TOLD = """game "Told"
players 3

kind Card(name):
    "Ace"
    "King"
    "Queen"

zone deck: Card hidden
zone hand per player: Card owner

setup:
    for each c in Card:
        move c to deck

play:
    for each p in players:
        say "you draw the {top(deck)}" to p
        say "{p} draws a card"
        move top(deck) to hand of p
    choose p in players by player 1 as "{p}"
    say "player 1 points at {p}" to [player 1, p]
    choose n in 1..3 by player 2 secretly as "bid {n}"
    end game
"""


@pytest.fixture
def told():
    rules = rulesdsl.load_text(TOLD, "told.rules")
    game = rules.new_game(players=3, seed=1, narrate=True)
    game.apply("p3")
    game.apply("2")
    return game


def test_each_player_is_told_only_their_lines(told):
    assert told.log_for(0) == [
        "you draw the Ace", "player 1 draws a card", "player 2 draws a card",
        "player 3 draws a card", "player 1: player 3", "player 1 points at player 3",
        "player 2 chooses in secret"]
    assert told.log_for(1) == [
        "player 1 draws a card", "you draw the King", "player 2 draws a card",
        "player 3 draws a card", "player 1: player 3", "player 2: bid 2"]
    assert "player 1 points at player 3" in told.log_for(2)
    assert "you draw the Queen" in told.log_for(2)
    # an onlooker is told what everyone is told
    assert told.log_for(None) == [
        "player 1 draws a card", "player 2 draws a card", "player 3 draws a card",
        "player 1: player 3"]
    assert [line.to for line in told.lines() if line.text == "player 2 chooses in secret"] \
        == [(0, 2)]


def test_views_hold_the_lines_of_their_viewer(told):
    for seat in range(3):
        assert told.view(seat)["log"] == told.log_for(seat)


def test_a_saved_game_keeps_its_log_and_who_was_told(told):
    saved = json.loads(json.dumps(told.to_json()))
    loaded = told.rules.load_game(saved)
    assert loaded.lines() == told.lines()
    assert loaded.log_for(1) == told.log_for(1)
    bad = dict(saved, log=[[[7], "to a seat that is not there"]])
    with pytest.raises(rulesdsl.RulesError) as err:
        told.rules.load_game(bad)
    assert err.value.diagnostics[0].code == "G001"
    assert "told to something that is not a list of seats" in err.value.diagnostics[0].message
    with pytest.raises(rulesdsl.RulesError):
        told.rules.load_game(dict(saved, log=[["not a line"]]))
    unnarrated = dict(saved)
    del unnarrated["log"]
    assert told.rules.load_game(unnarrated).log == []


def test_a_reloaded_save_tells_decisions_in_the_screen_s_words():
    rules = rulesdsl.load("solstice")
    game = rules.new_game(players=3, seed=4, narrate=True)
    for _ in range(12):
        game.apply_index(0)
    told = [line.text for line in game.screen_lines()]
    assert "player 1 takes their first Gold stones" in told   # the rule file's `tell`
    assert told != game.log   # not the engine's words ("player 1: take ...")
    loaded = rules.load_game(json.loads(json.dumps(game.to_json())))
    assert [line.text for line in loaded.screen_lines()] == told
    assert loaded.view(1)["log"] == game.view(1)["log"]
    with pytest.raises(rulesdsl.RulesError) as err:
        rules.load_game(dict(game.to_json(), told=[[len(game.log), "a line too many"]]))
    assert err.value.diagnostics[0].code == "G001"


def test_say_to_nobody_is_an_error_at_its_place():
    rules = rulesdsl.load_text(TOLD.replace('to [player 1, p]', 'to winner'), "told.rules")
    game = rules.new_game(players=3, seed=1, narrate=True)
    with pytest.raises(rulesdsl.RulesError) as err:
        game.apply("p3")
    d = err.value.diagnostics[0]
    assert d.code == "R003" and "who is told is none here" in d.message
    assert d.span.line == 22


def test_say_to_a_number_is_a_type_error():
    with pytest.raises(rulesdsl.RulesError) as err:
        rulesdsl.load_text(TOLD.replace("to [player 1, p]", "to 3"), "told.rules")
    d = err.value.diagnostics[0]
    assert d.code == "E030"
    assert "'say ... to' takes a player or a list of players, not a number" in d.message


def test_chance_steps_a_game_pauses_at_are_told_to_everyone():
    pig = rulesdsl.load(rulesdsl.__path__[0] + "/../games/pig/pig.rules")
    game = pig.new_game(seed=3, narrate=True, auto_chance=False)
    game.roll_chance()
    first = game.lines()[0]
    assert first.to is None and first.text.startswith("chance: rolled ")


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_run_narrates_for_an_onlooker_a_seat_or_everyone(capsys, tmp_path):
    path = tmp_path / "told.rules"
    path.write_text(TOLD)
    _, onlooker, _ = run(capsys, "run", str(path), "--agents", "first")
    assert "you draw" not in onlooker and "points at" not in onlooker
    assert "  player 2 chooses in secret" not in onlooker  # told to the others, by seat
    _, two, _ = run(capsys, "run", str(path), "--agents", "first", "--seat", "2")
    assert two.splitlines()[0].endswith("; what player 2 is told")
    assert "  you draw the King\n" in two and "Ace" not in two
    assert "  player 2: bid 1\n" in two
    _, everything, _ = run(capsys, "run", str(path), "--agents", "first", "--all")
    assert "  [to player 1] you draw the Ace\n" in everything
    assert "  [to player 1] player 1 points at player 1\n" in everything
    assert "  [to player 1, player 3] player 2 chooses in secret\n" in everything
    code, _, err = run(capsys, "run", str(path), "--seat", "4")
    assert code == 2 and "there is no seat 4 in a game of 3" in err


def test_run_keeps_what_it_said_when_an_error_stops_the_game(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the failed game's record is written here
    path = tmp_path / "fails.rules"
    path.write_text("""game "Fails"
players 2
counter pot = 0
play:
    turns:
        choose n in 1..2 as "add {n}"
        add n to pot
        say "the pot holds {pot}"
        if pot > 3:
            say "about to fail"
            set pot = pot / 0
""")
    code, out, err = run(capsys, "run", str(path), "--agents", "first")
    assert code == 1 and "error[R003]" in err and "division by zero" in err
    lines = out.splitlines()
    assert lines[1:] == ["  player 1: add 1", "  the pot holds 1", "  player 2: add 1",
                         "  the pot holds 2", "  player 1: add 1", "  the pot holds 3",
                         "  player 2: add 1", "  the pot holds 4", "  about to fail"]


def test_the_terminal_shows_a_person_only_their_seats_lines():
    rules = rulesdsl.load_text(TOLD, "told.rules")
    out = io.StringIO()
    game = rules.new_game(players=3, seed=1, narrate=True)
    play_at_terminal(game, agents_for(["first"], 3, 1), {1}, stdin=io.StringIO("3\n"),
                     stdout=out)
    text = out.getvalue()
    assert "  you draw the King\n" in text and "the Ace" not in text
    assert "points at" not in text
    assert "  player 2: bid 3\n" in text


def test_the_language_reference_example_tells_each_player_their_card():
    from .test_docs import GOOD

    (block,) = [b for b in GOOD if b.text.startswith('game "Told"')]
    rules = rulesdsl.load_text(block.text, block.path)
    game = rules.new_game(players=3, seed=1, narrate=True)
    game.apply("p2")
    assert game.log_for(1) == ["player 1 draws a card", "you draw the King",
                               "player 2 draws a card", "player 3 draws a card",
                               "player 1: player 2", "player 1 points at player 2"]
    assert "player 1 points at player 2" not in game.log_for(2)
