"""The command line as a user sees it: `rulesdsl.cli.main([...])` in-process, with one
subprocess test of the installed entry point."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from rulesdsl.agents.play import agents_for
from rulesdsl.cli import main
from rulesdsl.diagnostics import RulesError
from rulesdsl.loader import load
from rulesdsl.terminal import play_at_terminal

from .conftest import game_params

ROOT = Path(__file__).resolve().parents[1]
GAMES = ROOT / "games"
TICTACTOE = str(GAMES / "tictactoe" / "tictactoe.rules")
CONNECT_FOUR = str(GAMES / "connect_four" / "connect_four.rules")
PIG = str(GAMES / "pig" / "pig.rules")
YACHT = str(GAMES / "yacht" / "yacht.rules")
ALL_GAMES = sorted(str(p) for p in GAMES.glob("*/*.rules"))


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, out, err


def result_scores(out: str) -> dict[int, int]:
    """Seat number -> score, from the ranking lines under 'Result:'."""
    tail = out[out.index("Result:"):]
    return {int(seat): int(score)
            for seat, score in re.findall(r"player (\d+), score (-?\d+)", tail)}


# ---- check ------------------------------------------------------------------------------

def test_the_games_are_found():
    assert len(ALL_GAMES) >= 5
    assert TICTACTOE in ALL_GAMES and YACHT in ALL_GAMES


@pytest.mark.parametrize("path", game_params(ALL_GAMES, ids=lambda p: Path(p).stem))
def test_check_each_game_is_ok(capsys, path):
    code, out, err = run_cli(capsys, "check", path)
    assert code == 0, err
    # what was checked, in words: "ok (38 rules, 11 examples hold, 2 to 4 players)"
    assert re.fullmatch(rf"{re.escape(path)}: ok \((no|\d+) rules?, "
                        r"(\d+ examples? holds?|no examples), \d+( to \d+)? players\)",
                        out.strip()), out
    assert "error" not in err


@pytest.mark.slow
def test_check_several_files_at_once(capsys):
    code, out, _ = run_cli(capsys, "check", *ALL_GAMES)
    assert code == 0
    assert out.count(": ok") == len(ALL_GAMES)


def test_check_json(capsys):
    code, out, _ = run_cli(capsys, "check", "--format", "json", PIG)
    assert code == 0
    data = json.loads(out)
    assert data == {"diagnostics": [], "ok": True}


BAD_SYNTAX = 'game "Broken"\nplayers 2\n\nplay:\n    foo bar\n'


def test_check_file_with_error(capsys, tmp_path):
    bad = tmp_path / "broken.rules"
    bad.write_text(BAD_SYNTAX)
    code, out, err = run_cli(capsys, "check", str(bad))
    assert code == 1
    assert ": ok" not in out
    assert f"{bad}:5:" in err and "error[E001]" in err
    assert "had errors" in err


def test_check_file_with_error_json(capsys, tmp_path):
    bad = tmp_path / "broken.rules"
    bad.write_text(BAD_SYNTAX)
    code, out, _ = run_cli(capsys, "check", "--format", "json", str(bad))
    assert code == 1
    data = json.loads(out)
    assert data["ok"] is False
    (diag,) = data["diagnostics"]
    assert diag["code"] == "E001"
    assert diag["severity"] == "error"
    assert diag["file"] == str(bad) and diag["line"] == 5


def test_check_one_bad_file_among_good_ones_fails(capsys, tmp_path):
    bad = tmp_path / "broken.rules"
    bad.write_text(BAD_SYNTAX)
    code, out, err = run_cli(capsys, "check", TICTACTOE, str(bad))
    assert code == 1
    assert f"{TICTACTOE}: ok" in out
    assert "some rule files had errors" in err


def test_check_no_examples_skips_failing_example(capsys, tmp_path):
    text = Path(TICTACTOE).read_text()
    assert "expect winner == player 1" in text
    wrong = tmp_path / "wrong_example.rules"
    wrong.write_text(text.replace("expect winner == player 1", "expect winner == player 2"))

    code, _, err = run_cli(capsys, "check", str(wrong))
    assert code == 1
    assert "E061" in err and "example expectation failed" in err

    code, out, err = run_cli(capsys, "check", "--no-examples", str(wrong))
    assert code == 0
    assert out.strip().startswith(f"{wrong}: ok (") and "examples not run" in out


# ---- ast --------------------------------------------------------------------------------

@pytest.mark.parametrize("path", [TICTACTOE, PIG], ids=["tictactoe", "pig"])
def test_ast_prints_json_tree(capsys, path):
    code, out, _ = run_cli(capsys, "ast", path)
    assert code == 0
    tree = json.loads(out)
    assert tree["node"] == "RulesFile"
    assert "span" in tree


# ---- run --------------------------------------------------------------------------------

def test_run_narrates_a_game(capsys):
    code, out, _ = run_cli(capsys, "run", TICTACTOE, "--players", "2", "--seed", "3")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "Tic-tac-toe: 2 players, seed 3, agents random, random"
    assert any(re.fullmatch(r"  player [12]: mark [abc][123]", line) for line in lines)
    result = [line for line in lines if line.startswith("Result: ")]
    assert len(result) == 1
    assert re.fullmatch(r"Result: (player [12] wins|a draw)", result[0])
    after = lines[lines.index(result[0]) + 1:]
    # why it ended, in the rule file's words (`win current as "three in a row"`)
    assert re.fullmatch(r"  the game ended: (three in a row|the grid is full without a line)",
                        after[0])
    assert len(after) == 3 and all(re.fullmatch(r"  [12]\. player [12]", x) for x in after[1:])


def test_run_draws_the_territories_it_built(capsys):
    skye = str(GAMES / "isle_of_skye" / "isle_of_skye.rules")
    code, out, _ = run_cli(capsys, "run", skye, "--players", "2", "--seed", "1")
    assert code == 0
    lines = out.splitlines()
    drawn = lines.index("territory of player 1:")
    assert lines.index("territory of player 2:") > drawn
    assert any(line.startswith("    (a letter") for line in lines[-8:])
    assert any(re.fullmatch(r"  8 .*", line) for line in lines[drawn:])   # the castle's row
    # narrated in the rule file's words, in the third person, never by the engine's ids
    assert any(re.fullmatch(r"  player 1 places it at [a-o]\d+", line) for line in lines)
    assert not any(re.search(r"player \d: |\bt\d\d\b", line) for line in lines)
    # as the game goes: each territory once its owner has built, round by round
    rounds = [i for i, line in enumerate(lines) if re.fullmatch(r"  round \d of 6: .*", line)]
    assert len(rounds) == 6
    for start, end in zip(rounds, rounds[1:]):
        between = lines[start:end]
        assert "territory of player 1:" in between and "territory of player 2:" in between
        built = max(i for i, line in enumerate(between) if line.startswith("  player 1 turns"))
        assert between.index("territory of player 1:") == built + 1   # right after its last tile


def test_run_same_seed_same_output(capsys):
    for path in (TICTACTOE, PIG):
        _, first, _ = run_cli(capsys, "run", path, "--seed", "11")
        _, second, _ = run_cli(capsys, "run", path, "--seed", "11")
        assert first == second


def test_run_different_seeds_differ(capsys):
    outs = {run_cli(capsys, "run", PIG, "--seed", str(s))[1] for s in range(4)}
    assert len(outs) > 1


def test_run_with_greedy_agents(capsys):
    code, out, _ = run_cli(capsys, "run", CONNECT_FOUR, "--agents", "greedy", "--seed", "2")
    assert code == 0
    assert "agents greedy, greedy" in out.splitlines()[0]
    assert "Result:" in out


def test_run_with_first_and_random_agents(capsys):
    code, out, _ = run_cli(capsys, "run", TICTACTOE, "--agents", "first,random")
    assert code == 0
    assert "agents first, random" in out.splitlines()[0]
    # the first agent always takes the first free cell: a1 is player 1's first move
    moves = [line for line in out.splitlines() if line.startswith("  player ")]
    assert moves[0] == "  player 1: mark a1"
    assert "Result:" in out


def test_run_narrates_chance_and_says(capsys):
    code, out, _ = run_cli(capsys, "run", PIG, "--seed", "5", "--set", "GOAL=20")
    assert code == 0
    assert "  chance: rolled " in out
    assert re.search(r"^  player [12] banks \d+: score \d+$", out, re.M)


def test_run_json_record(capsys):
    code, out, _ = run_cli(capsys, "run", TICTACTOE, "--seed", "4", "--json")
    assert code == 0
    record = json.loads(out)
    rules = load(TICTACTOE)
    assert record["format"] == "rulesdsl-game/1"
    assert record["game"] == "Tic-tac-toe"
    assert record["rules"] == rules.digest
    assert record["seed"] == 4
    assert 5 <= len(record["history"]) <= 9
    assert all(isinstance(i, int) for i in record["history"])
    # the record is a finished game that loads back
    game = rules.load_game(record)
    assert game.over and game.result is not None


def test_run_json_record_replays(capsys):
    """The seed and the decisions reproduce the game: replaying the history from a new
    game of the same seed ends in the same state."""
    _, out, _ = run_cli(capsys, "run", PIG, "--seed", "9", "--json", "--set", "GOAL=30")
    record = json.loads(out)
    rules = load(PIG, {"GOAL": 30})
    assert record["rules"] == rules.digest
    game = rules.new_game(players=2, seed=record["seed"])
    for i in record["history"]:
        game.apply_index(i)
    assert game.over
    assert game.to_json()["state"]["result"] == record["state"]["result"]
    assert game.to_json()["state"]["counters"] == record["state"]["counters"]


def test_run_default_seed_is_one(capsys):
    _, out, _ = run_cli(capsys, "run", TICTACTOE)
    assert out.splitlines()[0].startswith("Tic-tac-toe: 2 players, seed 1,")
    assert out == run_cli(capsys, "run", TICTACTOE, "--seed", "1")[1]


# ---- --set ------------------------------------------------------------------------------

def test_set_changes_a_setting(capsys):
    for seed in range(1, 4):
        code, out, _ = run_cli(capsys, "run", PIG, "--set", "GOAL=20", "--seed", str(seed))
        assert code == 0
        winner = int(re.search(r"Result: player (\d) wins", out).group(1))
        scores = result_scores(out)
        assert 20 <= scores[winner] < 100
        assert all(s < 20 for p, s in scores.items() if p != winner)


def test_set_changes_a_setting_json(capsys):
    code, out, _ = run_cli(capsys, "run", PIG, "--set", "GOAL=20", "--json")
    assert code == 0
    record = json.loads(out)
    game = load(PIG, {"GOAL": 20}).load_game(record)
    result = game.result
    assert result is not None and len(result.winners) == 1
    assert 20 <= result.scores[result.winners[0]] < 100


def test_set_unknown_setting(capsys):
    code, out, err = run_cli(capsys, "run", PIG, "--set", "NOPE=1")
    assert code == 1
    assert out == ""
    assert "error[E033]" in err and "'NOPE' is not a setting" in err


def test_set_outside_bounds(capsys):
    code, out, err = run_cli(capsys, "run", PIG, "--set", "GOAL=5")
    assert code == 1
    assert out == ""
    assert "error[E032]" in err and "outside its bounds 10 to 1000" in err


def test_set_without_equals_is_usage_error(capsys):
    code, out, err = run_cli(capsys, "run", PIG, "--set", "GOAL")
    assert code == 2
    assert err.strip().startswith("rulesdsl: error:") and "NAME=VALUE" in err


# ---- simulate ---------------------------------------------------------------------------

SIM_KEYS = {"games", "players", "wins", "draws", "mean_decisions", "mean_scores", "seconds"}


@pytest.mark.parametrize("path", game_params(ALL_GAMES, ids=lambda p: Path(p).stem))
def test_simulate_json(capsys, path):
    code, out, _ = run_cli(capsys, "simulate", path, "--games", "20", "--json")
    assert code == 0
    data = json.loads(out)
    assert SIM_KEYS <= set(data)
    assert data["games"] == 20
    assert isinstance(data["wins"], list) and len(data["wins"]) == data["players"]
    if "teams" in data:  # a seat's wins are its team's
        assert sum(data["team_wins"]) + data["draws"] == data["games"]
        assert all(data["wins"][p] == w for t, w in zip(data["teams"], data["team_wins"])
                   for p in t)
    else:
        assert sum(data["wins"]) + data["draws"] == data["games"]
    assert data["mean_decisions"] > 0
    assert data["seconds"] >= 0
    if data["mean_scores"] is not None:
        assert len(data["mean_scores"]) == data["players"]


def test_simulate_scores_only_for_games_with_scores(capsys):
    _, out, _ = run_cli(capsys, "simulate", TICTACTOE, "--games", "5", "--json")
    assert json.loads(out)["mean_scores"] is None
    _, out, _ = run_cli(capsys, "simulate", PIG, "--games", "5", "--json")
    assert all(s > 0 for s in json.loads(out)["mean_scores"])


def test_simulate_workers_do_not_change_results(capsys):
    results = []
    for workers in ("1", "2"):
        _, out, _ = run_cli(capsys, "simulate", TICTACTOE, "--games", "20", "--seed", "7",
                            "--workers", workers, "--json")
        data = json.loads(out)
        results.append((data["wins"], data["draws"], data["mean_decisions"]))
    assert results[0] == results[1]


def test_simulate_same_seed_same_results(capsys):
    def once(seed: str) -> tuple:
        _, out, _ = run_cli(capsys, "simulate", PIG, "--games", "10", "--seed", seed, "--json")
        data = json.loads(out)
        return data["wins"], data["draws"], data["mean_scores"]

    assert once("3") == once("3")


def test_simulate_text_table(capsys):
    code, out, _ = run_cli(capsys, "simulate", PIG, "--games", "20", "--agents",
                           "first,random")
    assert code == 0
    assert "Pig: 20 games, 2 players" in out
    for heading in ("seat", "wins", "win rate", "mean score"):
        assert heading in out
    assert re.search(r"draws \d+ \(\d+\.\d%\); \d+\.\d decisions a game", out)


# ---- perft ------------------------------------------------------------------------------

@pytest.mark.parametrize("depth,count", [(0, 1), (1, 9), (2, 72), (3, 504), (4, 3024)])
def test_perft_tictactoe(capsys, depth, count):
    code, out, _ = run_cli(capsys, "perft", TICTACTOE, "--depth", str(depth))
    assert code == 0
    assert out.strip() == str(count)


def test_perft_connect_four(capsys):
    code, out, _ = run_cli(capsys, "perft", CONNECT_FOUR, "--depth", "3")
    assert code == 0
    assert out.strip() == "343"


# ---- play -------------------------------------------------------------------------------

def play(capsys, monkeypatch, typed: str, *extra: str) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(typed))
    return run_cli(capsys, "play", TICTACTOE, "--agents", "first", *extra)


def test_play_a_whole_game(capsys, monkeypatch):
    # seat 1 (us): a1, b2 (by id), a2, a3; seat 2 ("first"): b1, c1, c2
    code, out, _ = play(capsys, monkeypatch, "1\nb2\n1\n1\n")
    assert code == 0
    assert out.startswith("Tic-tac-toe: you play seat 1")
    assert "player 1, your choice:" in out
    assert "\n    1. mark a1\n" in out
    assert "player 2: mark b1" in out
    assert "player 2: mark c1" in out
    assert "player 2: mark c2" in out
    assert out.rstrip().endswith("Result: player 1 wins\n  the game ended: three in a row\n"
                                 "  1. player 1\n  2. player 2")


def test_play_shows_the_board(capsys, monkeypatch):
    _, out, _ = play(capsys, monkeypatch, "1\nquit\n")
    assert "grid:\n  3 . . .\n  2 . . .\n  1 . . .\n    a b c" in out
    # after a1 (us) and b1 (the bot)
    assert "  1 X O .\n" in out


def test_play_invalid_answer_reprompts(capsys, monkeypatch):
    code, out, _ = play(capsys, monkeypatch, "zz\n0\n10\nz9\n1\nb2\n1\n1\n")
    assert code == 0
    assert out.count("type a number from 1 to 9, an option id, 'save FILE' or 'quit'") == 4
    assert "Result: player 1 wins" in out


def test_play_quit(capsys, monkeypatch):
    code, out, _ = play(capsys, monkeypatch, "quit\n")
    assert code == 0
    assert "game left unfinished" in out
    assert "Result:" not in out


def test_play_end_of_input(capsys, monkeypatch):
    code, out, _ = play(capsys, monkeypatch, "1\n")
    assert code == 1
    assert "end of input: the game is left unfinished" in out
    assert "Result:" not in out


def test_play_save_and_load(capsys, monkeypatch, tmp_path):
    save = tmp_path / "game.json"
    code, out, _ = play(capsys, monkeypatch, f"1\nsave {save}\nquit\n")
    assert code == 0
    assert f"saved to {save}; resume with: rulesdsl play" in out
    data = json.loads(save.read_text())
    assert data["format"] == "rulesdsl-game/1"
    assert data["history"] == [0, 0]
    assert data["rules"] == load(TICTACTOE).digest

    # resume: a1 (us) and b1 (bot) are on the board; b2, a2, a3 win for seat 1
    code, out, _ = play(capsys, monkeypatch, "b2\n1\n1\n", "--load", str(save))
    assert code == 0
    first_board = out[out.index("grid:"):]
    assert first_board.startswith("grid:\n  3 . . .\n  2 . . .\n  1 X O .\n")
    assert "1. mark c1\n" in out and "1. mark a1\n" not in out
    assert "player 2: mark c1" in out
    assert "Result: player 1 wins" in out


def test_play_save_to_unwritable_place_keeps_playing(capsys, monkeypatch, tmp_path):
    target = tmp_path / "no" / "such" / "dir" / "game.json"
    code, out, _ = play(capsys, monkeypatch, f"save {target}\nquit\n")
    assert code == 0
    assert f"cannot save to {target}" in out


def test_play_as_seat_two(capsys, monkeypatch):
    code, out, _ = play(capsys, monkeypatch, "quit\n", "--seats", "2")
    assert code == 0
    assert out.startswith("Tic-tac-toe: you play seat 2")
    assert "player 1: mark a1" in out
    assert "player 2, your choice:" in out


def test_play_at_terminal_with_streams():
    rules = load(TICTACTOE)
    stdout = io.StringIO()
    game = rules.new_game(players=2, seed=1)
    code = play_at_terminal(game, agents_for(["first"], 2, 1), {0},
                            stdin=io.StringIO("a1\nb2\na2\na3\n"), stdout=stdout)
    assert code == 0
    assert "Result: player 1 wins" in stdout.getvalue()


def test_play_pig_rolls_dice(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("hold\n" * 200))
    code, out, _ = run_cli(capsys, "play", PIG, "--agents", "first", "--set", "GOAL=10")
    assert code == 0
    assert "chance: rolled " in out
    assert "Result:" in out


# ---- the installed entry point ----------------------------------------------------------

def test_console_script_entry_point(tmp_path):
    script = Path(sys.executable).parent / "rulesdsl"
    cmd = [str(script)] if script.exists() else [sys.executable, "-m", "rulesdsl.cli"]
    proc = subprocess.run(cmd + ["run", TICTACTOE, "--seed", "3"], capture_output=True,
                          text=True, timeout=120, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("Tic-tac-toe: 2 players, seed 3")
    assert "Result:" in proc.stdout
    assert proc.stderr == ""

    proc = subprocess.run(cmd + ["run", TICTACTOE, "--players", "x"], capture_output=True,
                          text=True, timeout=120, cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.startswith("rulesdsl: error:")
    assert "Traceback" not in proc.stderr


def test_set_outside_bounds_reports_only_the_bound(capsys):
    _, _, err = run_cli(capsys, "run", PIG, "--set", "GOAL=5")
    assert "E020" not in err


def test_settings_are_part_of_the_rules_digest(tmp_path):
    plain = load(PIG)
    short = load(PIG, {"GOAL": 20})
    assert plain.digest != short.digest
    saved = short.new_game(seed=1).to_json()
    with pytest.raises(RulesError) as err:
        plain.load_game(saved)
    assert err.value.diagnostics[0].code == "G003"
    assert short.load_game(saved).state_key() == short.new_game(seed=1).state_key()


def test_the_terminal_keeps_a_bots_secret_choice_secret(tmp_path):
    path = tmp_path / "bids.rules"
    path.write_text("""game "Bids"
players 2
counter bid per player = 0 secret
play:
    for each p in players:
        choose n in 1..3 by p secretly as "bid {n}"
        set bid of p = n
    choose n in 1..2 by player 2 as "open with {n}"
    end game
""")
    stdout = io.StringIO()
    game = load(path).new_game(players=2, seed=1)
    play_at_terminal(game, agents_for(["first"], 2, 2), {0}, stdin=io.StringIO("2\n"),
                     stdout=stdout)
    out = stdout.getvalue()
    assert "player 2 chooses in secret" in out and "player 2: bid" not in out
    assert "player 2: open with 1" in out


def test_the_terminal_never_shows_a_secret_counter_of_a_component(tmp_path):
    from rulesdsl.terminal import show_state

    path = tmp_path / "pieces.rules"
    path.write_text("""game "Pieces"
players 2
kind Unit(name):
    "Spy"
counter hp per Unit = 3
counter orders per Unit = 7 secret
board field: square 2 x 1 holding Unit
zone camp: Unit
setup:
    place Unit[1] at a1
    move Unit[1] to camp
    set hp of Unit[1] = 2
play:
    choose c in field by player 1
""")
    lines = show_state(load(path).new_game(players=2, seed=1).view(0), load(path))
    assert "    a1: Spy (hp 2)" in lines and "camp: Spy (hp 2)" in lines
    assert not any("orders" in line for line in lines)


# ---- lsp --------------------------------------------------------------------------------

def test_lsp_without_pygls_says_what_to_install(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "pygls", None)  # as if it were not installed
    monkeypatch.delitem(sys.modules, "rulesdsl.lsp.server", raising=False)
    code, _, err = run_cli(capsys, "lsp")
    assert code == 2
    assert err.strip() == "rulesdsl: error: the language server needs pygls: " \
        "pip install 'rulesdsl[lsp]'"


FORCED = """\
game "Forced"
players 2

play:
    turns for 1 round:
        choose n in 1..3 where n == 2 or current == player 2 as "take {n}"
    end game
"""


def test_play_takes_a_decision_with_one_option_for_the_person(capsys, monkeypatch, tmp_path):
    path = tmp_path / "forced.rules"
    path.write_text(FORCED, encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    code, out, _ = run_cli(capsys, "play", str(path), "--agents", "first")
    assert code == 0 and "player 1 (you): take 2, the only option" in out
    assert "your choice" not in out and "Result:" in out
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n"))
    code, out, _ = run_cli(capsys, "play", str(path), "--agents", "first", "--ask-forced")
    assert code == 0 and "player 1, your choice:" in out and "the only option" not in out


def test_check_says_what_it_checked(capsys, tmp_path):
    """`check` says more than "ok": the rules, the examples and the numbers of players it
    went through, and that the examples were not run with --no-examples."""
    code, out, _ = run_cli(capsys, "check", "cromlech")
    assert code == 0 and out == "cromlech: ok (38 rules, 11 examples hold, 2 to 4 players)\n"
    code, out, _ = run_cli(capsys, "check", "--no-examples", TICTACTOE)
    assert out == f"{TICTACTOE}: ok (no rules, 2 examples not run, 2 players)\n"
    one = tmp_path / "one.rules"
    one.write_text('game "One"\nplayers 3\ncounter n = 0\nrule bump():\n    add 1 to n\n'
                   'play:\n    bump()\n    end game\n'
                   'example "a bump":\n    play\n    expect n == 1\n')
    code, out, err = run_cli(capsys, "check", str(one))
    assert (code, out) == (0, f"{one}: ok (1 rule, 1 example holds, 3 players)\n"), err


def test_validate_says_what_it_proved_or_played(capsys):
    code, out, _ = run_cli(capsys, "validate", TICTACTOE)
    assert code == 0 and out.splitlines()[-1] == \
        f"{TICTACTOE}: ok (proven with 2 players, no finding)"


PASSED = Path(__file__).resolve().parent / "games" / "forced.rules"


def test_play_passes_what_the_rule_file_says_with_forced_rules(capsys, monkeypatch, tmp_path):
    """`pass forced in play n`: the choice of n passes when forced, the choice of m is
    asked even with one option; the record holds both steps."""
    path = PASSED
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n"))
    code, out, _ = run_cli(capsys, "play", str(path), "--agents", "first", "--forced", "rules")
    assert code == 0 and "player 1 (you): take 2, the only option" in out
    assert out.count("your choice") == 1 and "keep 3" in out and "Result:" in out
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n1\n"))
    code, out, _ = run_cli(capsys, "play", str(path), "--agents", "first", "--forced", "ask")
    assert code == 0 and out.count("your choice") == 2 and "the only option" not in out
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    code, out, _ = run_cli(capsys, "play", str(path), "--agents", "first")
    assert code == 0 and "keep 3, the only option" in out


def test_a_forced_decision_passed_is_still_a_step_of_the_game():
    from rulesdsl import load
    from rulesdsl.interpreter.forced import passes

    rules = load(PASSED)
    game = rules.new_game(players=2)
    assert passes(game) and passes(game, "pass") and not passes(game, "ask")
    game.apply_index(0)
    assert game.num_options() == 1 and not passes(game) and passes(game, "pass")
    game.apply_index(0)
    assert game.history == [0, 0]                     # both steps are in the record
    assert game.num_options() == 3 and not passes(game, "pass")
