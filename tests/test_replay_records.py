"""A game a rule stops with an error: `run` and `simulate` name the file, the game's
number and seed, the turn and the seat, keep the narration up to the error, and write a
record that `rulesdsl replay` plays again to the same error. Records are read against
their schema and then against the rules, like saved games."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import rulesdsl
from rulesdsl.cli import main
from rulesdsl.interpreter.records import make_record, parse_record, replay

ROOT = Path(__file__).resolve().parents[1]
PIG = str(ROOT / "games" / "pig" / "pig.rules")

FRAGILE = """\
game "Fragile"
players 2

die d6: faces 1..6
counter pot = 0

play:
    turns:
        let r = roll d6
        choose by current:
            option take "take {r}":
                add r to pot
            option split "split {r}":
                say "splitting {r}"
                add 12 / (r - 3) to pot
        if pot > 30:
            win current
"""


@pytest.fixture
def fragile(tmp_path, monkeypatch) -> str:
    """A rule file that fails when a player splits a 3; the records go to tmp_path."""
    monkeypatch.chdir(tmp_path)
    Path("fragile.rules").write_text(FRAGILE)
    return "fragile.rules"


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def failing_seed(path: str) -> int:
    """The first seed whose game of random agents the rules stop."""
    rules = rulesdsl.load(path)
    from rulesdsl.agents.play import play_game

    return next(seed for seed in range(1, 200)
                if play_game(rules, 2, seed, ["random"])[1] is not None)


def notes(err: str) -> list[str]:
    return [line.split("= note: ", 1)[1] for line in err.splitlines() if "= note: " in line]


def test_run_names_the_place_keeps_the_narration_and_writes_a_record(capsys, fragile):
    seed = failing_seed(fragile)
    code, out, err = run_cli(capsys, "run", fragile, "--seed", str(seed))
    assert code == 1
    assert f"{fragile}:15:21: error[R003]: division by zero" in err
    assert out.startswith(f"Fragile: 2 players, seed {seed}")
    assert out.rstrip().endswith("splitting 3")  # the narration up to the error
    game, place, replay_note = notes(err)
    assert game == f"in a game of {fragile} (2 players, seed {seed}, agents random, random)"
    assert place.startswith("turn ") and "'s turn), after " in place
    assert place.endswith("chose 'split 3'")
    record = f"fragile-2p-seed{seed}.record.json"
    assert replay_note == f"replay it with: rulesdsl replay {record}"
    assert Path(record).is_file()

    code, replayed, again = run_cli(capsys, "replay", record)
    assert code == 1
    # "replaying ...", the header (the agents are the record's), then the same narration
    assert replayed.splitlines()[2:] == out.splitlines()[1:]
    assert again.splitlines()[0] == err.splitlines()[0]


def test_simulate_names_the_game_and_its_seed_whatever_the_workers(capsys, fragile, tmp_path):
    seed = failing_seed(fragile)
    reports = []
    for workers in ("1", "2"):
        code, out, err = run_cli(capsys, "simulate", fragile, "--games", "30", "--workers",
                                 workers, "--records", str(tmp_path / "records"))
        assert code == 1 and out == ""
        reports.append(err)
    assert reports[0] == reports[1]
    first = notes(reports[0])[0]
    assert first == (f"in game {seed} (of 30) of {fragile} (2 players, seed {seed}, agents "
                     "random, random)")
    record = tmp_path / "records" / f"fragile-2p-seed{seed}.record.json"
    data = json.loads(record.read_text())
    assert data["game_number"] == seed and data["error"]["code"] == "R003"
    assert data["agents"] == ["random", "random"]


def test_a_record_replays_a_whole_game(capsys, tmp_path):
    rules = rulesdsl.load(PIG)
    game = rules.new_game(players=2, seed=4)
    while not game.over:
        game.apply_index(game.num_options() - 1)
    record = make_record(rules, PIG, 2, 4, game.history)
    path = tmp_path / "pig.record.json"
    path.write_text(json.dumps(record.to_json()))
    assert replay(parse_record(json.loads(path.read_text())), rules).state_key() == \
        game.state_key()
    code, out, _ = run_cli(capsys, "replay", str(path), *PIG_FOLDER)
    assert code == 0 and "Result: player" in out


def test_a_record_that_ends_early_says_the_game_goes_on(capsys, tmp_path):
    rules = rulesdsl.load(PIG)
    path = tmp_path / "short.record.json"
    path.write_text(json.dumps(make_record(rules, PIG, 2, 4, [0, 0]).to_json()))
    code, out, _ = run_cli(capsys, "replay", str(path), *PIG_FOLDER)
    assert code == 0
    assert out.rstrip().endswith("the record ends here, after 2 steps; the game goes on")


# the records below name Pig's file, which lies outside their folder: the folder is named
PIG_FOLDER = ("--include", str(Path(PIG).parent))


def _pig_record() -> dict:
    return make_record(rulesdsl.load(PIG), PIG, 2, 4, [0, 1]).to_json()


def _with(**fields) -> dict:
    data = _pig_record()
    data.update(fields)
    return data


BAD_RECORDS = {
    "not json": ("{ nope", "G004", "cannot read the record"),
    "nested too deep": ("[" * 100_000, "G004", "nested too deep"),
    "a list": ([1, 2], "G004", "is not a game record"),
    "no steps": ({k: v for k, v in _pig_record().items() if k != "steps"}, "G004", "steps"),
    "step not a number": (_with(steps=["roll"]), "G004", "steps[0]"),
    "negative step": (_with(steps=[-1]), "G004", "steps[0]"),
    "players 0": (_with(players=0), "G004", "players"),
    "chance unknown": (_with(chance="sometimes"), "G004", "chance"),
    "other rules": (_with(rules="0123456789abcdef"), "G003", "other rules"),
    "step off the options": (_with(steps=[7]), "G004", "option 7"),
    "missing rule file": (_with(file="nowhere.rules"), "E000", "nowhere.rules"),
}


@pytest.mark.parametrize("data,code,needle", BAD_RECORDS.values(), ids=BAD_RECORDS.keys())
def test_replay_rejects_bad_records(capsys, tmp_path, data, code, needle):
    path = tmp_path / "bad.record.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    exit_code, _, err = run_cli(capsys, "replay", str(path), *PIG_FOLDER)
    assert exit_code == 1
    assert f"error[{code}]" in err and needle in err


def test_replay_of_a_missing_record(capsys, tmp_path):
    code, _, err = run_cli(capsys, "replay", str(tmp_path / "nowhere.json"))
    assert code == 1 and "error[G004]: no such record" in err


def test_check_play_finds_what_the_examples_do_not(capsys, fragile):
    """The file checks and has no examples to fail: only playing shows the division by
    zero. Without --play it is "ok"."""
    code, out, _ = run_cli(capsys, "check", fragile)
    assert code == 0 and out.strip().startswith(f"{fragile}: ok (")
    seed = failing_seed(fragile)
    code, out, err = run_cli(capsys, "check", fragile, "--play", str(seed + 2))
    assert code == 1 and ": ok" not in out
    assert f"{fragile}:15:21: error[R003]: division by zero" in err
    first = notes(err)[0]
    assert first == (f"in game {seed} (of {seed + 2}) of {fragile} (2 players, seed {seed}, "
                     "agents random, random)")
    assert Path(f"fragile-2p-seed{seed}.record.json").is_file()
