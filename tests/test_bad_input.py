"""Every bad input gets a clear message and a non-zero exit, never a Python traceback:
bad command lines (exit 2, one line), missing rule files, corrupt saved games (exit 1),
misuse of the Python API, and rule files that loop forever."""

from __future__ import annotations

import copy
import io
import json
import sys
from pathlib import Path

import pytest

import rulesdsl
from rulesdsl.cli import main
from rulesdsl.diagnostics import RulesError
from rulesdsl.loader import load

ROOT = Path(__file__).resolve().parents[1]
GAMES = ROOT / "games"
TICTACTOE = str(GAMES / "tictactoe" / "tictactoe.rules")
PIG = str(GAMES / "pig" / "pig.rules")


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in err and "Traceback" not in out
    return code, out, err


def codes(err: RulesError) -> list[str]:
    return [d.code for d in err.diagnostics]


# ---- bad command lines: exit 2, exactly one line on stderr ----------------------------

USAGE_ERRORS = {
    "unknown command": (["nosuch"], "invalid choice: 'nosuch'"),
    "missing FILE (run)": (["run"], "FILE"),
    "missing FILE (check)": (["check"], "FILE"),
    "missing FILE (perft)": (["perft", "--depth", "1"], "FILE"),
    "players 0": (["run", TICTACTOE, "--players", "0"], "--players"),
    "players x": (["run", TICTACTOE, "--players", "x"], "--players"),
    "players -2": (["simulate", TICTACTOE, "--players", "-2"], "--players"),
    "seed -1": (["run", TICTACTOE, "--seed", "-1"], "--seed"),
    "seed 1.5": (["run", TICTACTOE, "--seed", "1.5"], "--seed"),
    "agents nosuch": (["run", TICTACTOE, "--agents", "nosuch"], "unknown agent 'nosuch'"),
    "agents random,nosuch": (["simulate", TICTACTOE, "--agents", "random,nosuch"],
                             "unknown agent 'nosuch'"),
    "agents empty": (["run", TICTACTOE, "--agents", ","], "no agent"),
    "agent parameter unknown": (["run", TICTACTOE, "--agents", "mcts:simz=4"],
                                "mcts has no parameter 'simz' (its parameters: bias, c, depth, "),
    "agent parameter not a number": (["play", TICTACTOE, "--agents", "mcts:sims=lots"],
                                     "mcts: sims must be a whole number of at least 1, "
                                     "not 'lots'"),
    "agent parameter too small": (["simulate", TICTACTOE, "--agents", "ismcts:sims=0"],
                                  "ismcts: sims must be a whole number of at least 1"),
    "agent parameter out of range": (["run", TICTACTOE, "--agents", "mcts:score=1.5"],
                                     "score must be a number from 0 to 1, not '1.5'"),
    "agent parameter not a word it knows": (["run", TICTACTOE, "--agents",
                                             "mcts:rollout=smart"],
                                            "rollout must be one of random, greedy"),
    "agent parameter without a value": (["run", TICTACTOE, "--agents", "mcts:sims"],
                                        "mcts: expected key=value, not 'sims'"),
    "agent parameter before an agent": (["run", TICTACTOE, "--agents", "sims=4,mcts"],
                                        "'sims=4' comes before any agent"),
    "agent parameter of an agent without any": (["run", TICTACTOE, "--agents",
                                                 "random:sims=4"],
                                                "random has no parameter 'sims' (its "
                                                "parameters: none)"),
    "games 0": (["simulate", TICTACTOE, "--games", "0"], "--games"),
    "workers 0": (["simulate", TICTACTOE, "--workers", "0"], "--workers"),
    "perft without depth": (["perft", TICTACTOE], "--depth"),
    "perft depth -1": (["perft", TICTACTOE, "--depth", "-1"], "--depth"),
    "format xml": (["check", "--format", "xml", TICTACTOE], "--format"),
    "seats 9": (["play", TICTACTOE, "--seats", "9"], "no seat 9"),
    "seats 0": (["play", TICTACTOE, "--seats", "0"], "no seat 0"),
    "seats x": (["play", TICTACTOE, "--seats", "x"], "--seats"),
    "set without =": (["run", PIG, "--set", "GOAL"], "NAME=VALUE"),
    "set without name": (["run", PIG, "--set", "=3"], "NAME=VALUE"),
    "unknown option": (["run", TICTACTOE, "--bogus"], "--bogus"),
    "option of another command": (["check", TICTACTOE, "--seed", "3"], "--seed"),
    "validate games 0": (["validate", TICTACTOE, "--games", "0"], "--games"),
    "validate budget x": (["validate", TICTACTOE, "--budget", "x"], "--budget"),
    "validate positions -1": (["validate", TICTACTOE, "--positions", "-1"], "--positions"),
    "validate agents nosuch": (["validate", TICTACTOE, "--agents", "nosuch"], "nosuch"),
    "check play -1": (["check", TICTACTOE, "--play", "-1"], "--play"),
    "replay without a record": (["replay"], "RECORD"),
}


@pytest.mark.parametrize("argv,needle", USAGE_ERRORS.values(), ids=USAGE_ERRORS.keys())
def test_bad_command_line(capsys, argv, needle):
    code, out, err = run_cli(capsys, *argv)
    assert code == 2
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("rulesdsl: error:")
    assert needle in lines[0]


def test_no_command_prints_help(capsys):
    code, out, err = run_cli(capsys)
    assert code == 2
    assert "usage: rulesdsl" in out
    for command in ("check", "ast", "run", "play", "simulate", "perft"):
        assert command in out


def test_too_many_players_is_a_game_error(capsys):
    code, out, err = run_cli(capsys, "run", TICTACTOE, "--players", "3")
    assert code == 1
    assert out == ""
    assert "error[C002]" in err
    assert "2 players" in err and "not 3" in err
    assert "rulesdsl: error:" not in err


@pytest.mark.parametrize("command", ["run", "simulate", "play", "perft", "validate"])
def test_too_many_players_every_command(capsys, command):
    extra = ["--depth", "1"] if command == "perft" else []
    code, _, err = run_cli(capsys, command, TICTACTOE, "--players", "3", *extra)
    assert code == 1
    assert "C002" in err


# ---- missing and unreadable rule files: exit 1, E000 naming the file ---------------------

@pytest.mark.parametrize("command", ["check", "ast", "run", "simulate", "play", "perft",
                                     "validate"])
def test_missing_rule_file(capsys, tmp_path, command):
    missing = str(tmp_path / "nowhere.rules")
    extra = ["--depth", "1"] if command == "perft" else []
    code, out, err = run_cli(capsys, command, missing, *extra)
    assert code == 1
    assert "error[E000]" in err
    assert missing in err
    assert ": ok" not in out


def test_rule_file_is_a_directory(capsys, tmp_path):
    code, _, err = run_cli(capsys, "check", str(tmp_path))
    assert code == 1
    assert "E000" in err and str(tmp_path) in err


def test_rule_file_not_utf8(capsys, tmp_path):
    path = tmp_path / "binary.rules"
    path.write_bytes(b"\xff\xfe\x00junk")
    code, _, err = run_cli(capsys, "run", str(path))
    assert code == 1
    assert "E000" in err and str(path) in err


def test_rule_file_named_with_a_null_byte(capsys):
    code, _, err = run_cli(capsys, "check", "--no-examples", "\x00")
    assert code == 1
    assert "E000" in err and "embedded null byte" in err and "Traceback" not in err


def test_rule_file_with_syntax_error_run(capsys, tmp_path):
    path = tmp_path / "broken.rules"
    path.write_text('game "Broken"\nplayers 2\n\nplay:\n    foo bar\n')
    code, out, err = run_cli(capsys, "run", str(path))
    assert code == 1
    assert out == ""
    assert f"{path}:5:9: error[E001]" in err


def test_bad_setting_value_kind(capsys):
    code, _, err = run_cli(capsys, "run", PIG, "--set", "GOAL=abc")
    assert code == 1
    assert "E033" in err and "GOAL" in err


# ---- corrupt saved games -----------------------------------------------------------------

@pytest.fixture(scope="module")
def ttt():
    return load(TICTACTOE)


@pytest.fixture
def good_save(ttt):
    """Tic-tac-toe after one move (a1), waiting for player 2."""
    game = ttt.new_game(players=2, seed=1)
    game.apply_index(0)
    data = game.to_json()
    assert data["state"]["pending"] is not None
    return json.loads(json.dumps(data))


def _set(path: list, value):
    def change(d):
        target = d
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return change


def _drop(key: str):
    return lambda d: d.pop(key)


CORRUPTIONS = {
    "wrong format": (_set(["format"], "something-else/9"), "G001", "format"),
    "no format": (_drop("format"), "G001", "format"),
    "counters of wrong length": (_set(["state", "counters"], [0, 0, 0]), "G001", "counters"),
    "counters not a list": (_set(["state", "counters"], 7), "G001", "counters"),
    "counter holds a float": (_set(["state", "counters"], [1.5]), "G001", "plain data"),
    "frame points at no block": (_set(["state", "stack", 0, 0], 10_000), "G001",
                                 "frame of the rule stack"),
    "frame points at a negative block": (_set(["state", "stack", 0, 0], -1), "G001",
                                         "frame of the rule stack"),
    "frame not a pair": (_set(["state", "stack", 0], [6]), "G001", "state.stack[0]"),
    "frame locals too short": (_set(["state", "stack", 0, 1], []), "G001", "locals"),
    "frame at another block": (_set(["state", "stack", 0, 0], 0), "G001",
                               "does not wait at the pending decision"),
    "current is a list": (_set(["state", "counters", 0], [1, 2]), "G001", "current player"),
    "current is none inside the turns": (_set(["state", "counters", 0], None), "G001",
                                         "playing the turns, yet the current player is none"),
    "lists nested deep": (_set(["state", "counters", 0], json.loads("[" * 50 + "]" * 50)),
                          "G001", "nested"),
    "ended at the limit without a result": (_set(["ended_by"], "limit"), "G001", "limit"),
    "decisions negative": (_set(["decisions"], -3), "G001", "decisions"),
    "pending with no options": (_set(["state", "pending", 2], []), "G001",
                                "pending decision"),
    "pending at no site": (_set(["state", "pending", 0], 999), "G001", "pending decision"),
    "pending for no player": (_set(["state", "pending", 1], 7), "G001", "pending decision"),
    "pending option off the board": (_set(["state", "pending", 2], [1, 200]), "G001",
                                     "pending decision"),
    "pending and over": (_set(["state", "result"], [1, 2]), "G001", "over"),
    "neither pending nor over": (_set(["state", "pending"], None), "G001", "neither"),
    "pending but empty stack": (_set(["state", "stack"], []), "G001", "stack"),
    "boards of wrong size": (_set(["state", "boards"], [[None] * 4]), "G001", "boards"),
    "history not numbers": (_set(["history"], ["a1"]), "G001", "history"),
    "negative history": (_set(["history"], [-1]), "G001", "history"),
    "seed is text": (_set(["seed"], "1"), "G001", "seed"),
    "seed is a bool": (_set(["seed"], True), "G001", "seed"),
    "rng out of range": (_set(["state", "rng"], 0), "G001", "rng"),
    "state missing": (_drop("state"), "G001", "state"),
    "state not an object": (_set(["state"], [1, 2]), "G001", "state"),
    "players missing": (lambda d: d["state"].pop("players"), "G001", "players"),
    "result malformed": (lambda d: (d["state"].__setitem__("pending", None),
                                    d["state"].__setitem__("result", [0, 9])), "G001",
                         "result"),
    "other rules": (_set(["rules"], "0123456789abcdef"), "G003", "other rules"),
    "digest missing": (_drop("rules"), "G001", "rules"),
}


def corrupted(good_save: dict, change) -> dict:
    data = copy.deepcopy(good_save)
    change(data)
    return data


@pytest.mark.parametrize("change,code,needle", CORRUPTIONS.values(), ids=CORRUPTIONS.keys())
def test_load_game_api_rejects_corrupt_save(ttt, good_save, change, code, needle):
    with pytest.raises(RulesError) as info:
        ttt.load_game(corrupted(good_save, change))
    assert codes(info.value) == [code]
    assert needle in str(info.value)


def test_load_game_api_rejects_a_frame_at_a_block_left_out_of_the_module(ttt, good_save):
    """A block the rules only jump to, copied in place of every jump to it, is not in the
    generated module (assembly.py, `live_blocks`): a save whose frame points at its number
    is refused, not run."""
    left_out = [n for n, block in enumerate(ttt.program.blocks) if block is None]
    assert left_out
    with pytest.raises(RulesError) as info:
        ttt.load_game(corrupted(good_save, _set(["state", "stack", 0, 0], left_out[0])))
    assert codes(info.value) == ["G001"]
    assert "points at no block" in str(info.value)


@pytest.mark.parametrize("data", [None, [], "a string", 3, {"format": 1}],
                         ids=["none", "list", "string", "number", "format not text"])
def test_load_game_api_rejects_non_saves(ttt, data):
    with pytest.raises(RulesError) as info:
        ttt.load_game(data)
    assert codes(info.value) == ["G001"]


def _midgame(path: str, decisions: int) -> tuple:
    rules = load(path)
    game = rules.new_game(players=rules.player_range[0], seed=2)
    for _ in range(decisions):
        game.apply_index(0)
    return rules, json.loads(json.dumps(game.to_json()))


def _first(values: list, kind: type) -> int:
    """The first counter slot after the current player's (slot 0) holding a `kind`."""
    return next(i for i, v in enumerate(values) if i and type(v) is kind)


@pytest.mark.parametrize("game,change,needle", [
    ("cleromancy", lambda d: d["state"]["boards"][0].__setitem__(0, 999), "board field"),
    ("cleromancy", lambda d: d["state"]["boards"][0].__setitem__(0, [1]), "board field"),
    ("cromlech", lambda d: d["state"]["counters"].__setitem__(
        _first(d["state"]["counters"], bool), [1, 2]), "counter"),
    ("cromlech", lambda d: d["state"]["counters"].__setitem__(
        _first(d["state"]["counters"], int), "text"), "counter"),
    ("cromlech", lambda d: d["state"]["zones"][0].append(10_000), "zone"),
    # the play's locals: the cell chosen last, the column (1 to 7) chosen last
    ("tictactoe", lambda d: d["state"]["stack"][0][1].__setitem__(2, 999),
     "play 'play' and 'c' holds 999"),
    ("connect_four", lambda d: d["state"]["stack"][0][1].__setitem__(2, 0),
     "'k' holds 0, which it cannot hold"),
    ("connect_four", lambda d: d["state"]["stack"][0][1].__setitem__(2, -1),
     "'k' holds -1"),
    ("connect_four", lambda d: d["state"]["pending"].__setitem__(2, [1, 8]),
     "options do not fit"),
], ids=["cell 999", "cell holds a list", "counter holds a list", "counter holds text",
        "zone holds no component", "a local off the board", "a local out of its range",
        "a local below its range", "an option out of its range"])
def test_load_rejects_values_the_rules_cannot_hold(game, change, needle):
    rules, data = _midgame(str(GAMES / game / f"{game}.rules"), 3)
    change(data)
    with pytest.raises(RulesError) as info:
        rules.load_game(data)
    assert codes(info.value) == ["G001"]
    assert needle in str(info.value)


@pytest.mark.parametrize("slot,value", [(0, [[4]]), (0, None), (0, [7]), (0, [True]),
                                        (1, 9), (1, "0"), (1, -1)],
                         ids=["a seat that is a list", "no seats", "a seat beyond the game's",
                              "a seat that is true", "past the seats", "text", "negative"])
def test_load_rejects_a_secret_step_whose_seats_to_choose_are_not_seats(slot, value):
    """Goofspiel waits inside a secret step for the second bid: the step's list of seats
    and its place in it (locals the compiler keeps, no name of the rules) must be seats of
    this game and a place in that list, or views of the game would fail (found by the
    fuzzing of saves)."""
    rules, data = _midgame(str(GAMES / "goofspiel" / "goofspiel.rules"), 1)
    assert rules.load_game(copy.deepcopy(data)).view(0) is not None
    frame = next(f for f in reversed(data["state"]["stack"]) if f[0] in rules.program.together)
    frame[1][rules.program.together[frame[0]][slot]] = value
    with pytest.raises(RulesError) as info:
        rules.load_game(data).view(0)
    assert codes(info.value) == ["G001"]
    assert "a frame of the rule stack" in str(info.value)


def test_load_rejects_a_save_of_other_rules_with_a_forged_digest(ttt):
    """A save of Pig with tic-tac-toe's digest written in: the contents do not fit."""
    pig = load(PIG).new_game(players=2, seed=1)
    data = json.loads(json.dumps(pig.to_json()))
    data["rules"] = ttt.digest
    with pytest.raises(RulesError) as info:
        ttt.load_game(data)
    assert codes(info.value) == ["G001"]


def test_load_game_api_players_out_of_range(ttt, good_save):
    with pytest.raises(RulesError) as info:
        ttt.load_game(corrupted(good_save, _set(["state", "players"], 5)))
    assert codes(info.value) == ["C002"]


def test_load_game_api_accepts_good_save(ttt, good_save):
    game = ttt.load_game(good_save)
    assert game.decision is not None and game.decision.player == 1
    assert len(game.decision.options) == 8
    game.apply("b2")
    assert game.history == [0, 3]


def test_load_game_api_accepts_finished_game(ttt):
    game = ttt.new_game(players=2, seed=1)
    for cell in ("a1", "a2", "b1", "b2", "c1"):
        game.apply(cell)
    assert game.over
    loaded = ttt.load_game(json.loads(json.dumps(game.to_json())))
    assert loaded.over and loaded.result.winners == [0]


def play_load(capsys, monkeypatch, path: Path, typed: str = "quit\n") -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(typed))
    return run_cli(capsys, "play", TICTACTOE, "--agents", "first", "--load", str(path))


def test_play_load_not_json(capsys, monkeypatch, tmp_path):
    path = tmp_path / "save.json"
    path.write_text("this is { not json")
    code, out, err = play_load(capsys, monkeypatch, path)
    assert code == 1
    assert "error[G001]" in err and str(path) in err
    assert "player 1, choose" not in out


def test_play_load_not_utf8(capsys, monkeypatch, tmp_path):
    path = tmp_path / "save.json"
    path.write_bytes(b"\xff\xfe\xfa")
    code, _, err = play_load(capsys, monkeypatch, path)
    assert code == 1
    assert "error[G001]" in err and str(path) in err


def test_play_load_missing_file(capsys, monkeypatch, tmp_path):
    path = tmp_path / "nowhere.json"
    code, _, err = play_load(capsys, monkeypatch, path)
    assert code == 1
    assert "error[G001]" in err and "no such saved game" in err and str(path) in err


def test_play_load_directory(capsys, monkeypatch, tmp_path):
    code, _, err = play_load(capsys, monkeypatch, tmp_path)
    assert code == 1
    assert "error[G001]" in err and str(tmp_path) in err


CLI_CORRUPTIONS = ["wrong format", "counters of wrong length", "frame points at no block",
                   "frame locals too short", "pending with no options",
                   "pending option off the board", "other rules"]


@pytest.mark.parametrize("case", CLI_CORRUPTIONS)
def test_play_load_corrupt_save(capsys, monkeypatch, tmp_path, good_save, case):
    change, code, needle = CORRUPTIONS[case]
    path = tmp_path / "save.json"
    path.write_text(json.dumps(corrupted(good_save, change)))
    exit_code, out, err = play_load(capsys, monkeypatch, path, "1\n1\n1\n1\n1\n")
    assert exit_code == 1
    assert f"error[{code}]" in err
    assert needle in err
    assert "Result:" not in out


def test_play_load_save_of_other_game(capsys, monkeypatch, tmp_path):
    pig = load(PIG).new_game(players=2, seed=1, auto_chance=False)
    path = tmp_path / "pig.json"
    path.write_text(json.dumps(pig.to_json()))
    code, _, err = play_load(capsys, monkeypatch, path)
    assert code == 1
    assert "error[G003]" in err


# ---- misuse of the Python API --------------------------------------------------------------

def test_apply_unknown_id_lists_options(ttt):
    game = ttt.new_game(players=2)
    with pytest.raises(RulesError) as info:
        game.apply("nope")
    assert codes(info.value) == ["G002"]
    message = str(info.value)
    assert "'nope' is not an option" in message
    assert "a1" in message and "c3" in message
    assert game.history == []


@pytest.mark.parametrize("index", [99, 9, -1, "0", 1.0, None, True])
def test_apply_index_out_of_range(ttt, index):
    game = ttt.new_game(players=2)
    with pytest.raises(RulesError) as info:
        game.apply_index(index)
    assert codes(info.value) == ["G002"]
    assert "does not exist" in str(info.value)
    assert game.history == []
    game.apply_index(0)  # the game is still usable


def test_apply_after_game_over(ttt):
    game = ttt.new_game(players=2)
    for cell in ("a1", "a2", "b1", "b2", "c1"):
        game.apply(cell)
    assert game.over
    for act in (lambda: game.apply_index(0), lambda: game.apply("c3")):
        with pytest.raises(RulesError) as info:
            act()
        assert codes(info.value) == ["G002"]
        assert "the game is over" in str(info.value)


@pytest.mark.parametrize("players", [0, 1, 3, 5, -1])
def test_new_game_wrong_player_count(ttt, players):
    with pytest.raises(RulesError) as info:
        ttt.new_game(players=players)
    assert codes(info.value) == ["C002"]
    assert "2 players" in str(info.value)


def test_load_missing_rule_file(tmp_path):
    with pytest.raises(RulesError) as info:
        load(tmp_path / "nowhere.rules")
    assert codes(info.value) == ["E000"]
    assert "nowhere.rules" in str(info.value)


# ---- rule files that loop forever ----------------------------------------------------------

NATIVE_LOOP = """\
game "Native loop"
players 2

play:
    while true:
        pass
"""

BLOCK_LOOP = """\
game "Block loop"
players 2

play:
    turns:
        if false:
            choose by current:
                option a "a":
                    pass
"""


@pytest.mark.slow
@pytest.mark.parametrize("text,line", [(NATIVE_LOOP, 5), (BLOCK_LOOP, 5)],
                         ids=["native while loop", "loop between blocks"])
def test_endless_loop_is_r001(tmp_path, capsys, text, line):
    path = tmp_path / "loop.rules"
    path.write_text(text)
    rules = load(path)
    with pytest.raises(RulesError) as info:
        rules.new_game(players=2)
    (diag,) = info.value.diagnostics
    assert diag.code == "R001"
    assert "steps without a decision" in diag.message
    assert diag.span is not None
    assert diag.span.file == str(path)
    assert diag.span.line == line
    assert text.splitlines()[diag.span.line - 1].strip() in info.value.render()


# ---- a rule that fails outside a block: in an option's label, in a rank key ----------------

LABEL_FAILS = """\
game "Label"
players 2
counter n = 0
play:
    turns:
        choose k in 1..2 as "take {10 / n}"
        win current
"""

RANK_FAILS = """\
game "Rank"
players 2
counter n = 0
rank p by 10 / n
play:
    turns:
        choose k in 1..2
        end game
"""


def test_a_label_that_fails_is_r003(tmp_path, capsys):
    rules = rulesdsl.load_text(LABEL_FAILS, "label.rules")
    game = rules.new_game(players=2)
    with pytest.raises(RulesError) as info:
        game.decision  # noqa: B018  (its labels are worked out)
    assert codes(info.value) == ["R003"]
    assert "division by zero" in str(info.value) or "ZeroDivisionError" in str(info.value)
    path = tmp_path / "label.rules"
    path.write_text(LABEL_FAILS)
    code, _, err = run_cli(capsys, "run", str(path), "--records", str(tmp_path))
    assert code == 1 and "error[R003]" in err


def test_a_rank_key_that_fails_is_r003():
    rules = rulesdsl.load_text(RANK_FAILS, "rank.rules")
    game = rules.new_game(players=2)
    with pytest.raises(RulesError) as info:
        game.apply_index(0)  # the game ends: the players are ranked
    assert codes(info.value) == ["R003"]


def test_a_line_of_generated_code_without_a_number_has_no_rule():
    """Python leaves some instructions of a statement without a line (a traceback's or a
    frame's line is then None): the rule of such a line is none, not an error."""
    program = rulesdsl.load(ROOT / "games" / "tictactoe" / "tictactoe.rules").program
    assert program.span_of_line(None) is None and program.span_of_line(0) is None
    assert program.span_of_line(len(program.code.splitlines()) * 10) is None
