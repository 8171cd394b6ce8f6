"""The catalogue of shipped games: names in place of rule files on the command line and in
`rulesdsl.load`, `extends game "NAME"` from any folder, and the public API in one place.
The same, from a wheel installed outside the repository: tests/test_wheel.py."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

import rulesdsl
from rulesdsl import ast as A
from rulesdsl.cli import main
from rulesdsl.diagnostics import RulesError
from rulesdsl.resolve.catalogue import find_game, looks_like_name, shipped_games, source

from .conftest import ROOT

GAMES = ROOT / "games"


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, out, err


def test_every_game_folder_and_rule_file_has_a_name():
    names = {e.name: e.path for e in shipped_games()}
    games = sorted(d for d in GAMES.iterdir() if (d / f"{d.name}.rules").is_file())
    assert [n for n in names if "/" not in n] == [d.name.replace("_", "-") for d in games]
    assert set(names.values()) == {p.resolve() for p in GAMES.glob("*/*.rules")}
    assert names["isle-of-skye/druids"] == (GAMES / "isle_of_skye" / "druids.rules").resolve()
    assert names["cromlech/hardcore"].name == "hardcore.rules"


@pytest.mark.parametrize("name, file", [
    ("tictactoe", "tictactoe/tictactoe.rules"), ("tic-tac-toe", "tictactoe/tictactoe.rules"),
    ("Isle-of-Skye/Druids", "isle_of_skye/druids.rules"),
    ("isle_of_skye", "isle_of_skye/isle_of_skye.rules"),
    ("solstice/two-players", "solstice/two_players.rules"),
    ("cromlech/cromlech", "cromlech/cromlech.rules"),
    ("cromlech/examples/hardcore", "cromlech/examples/hardcore.rules"),
])
def test_names_find_their_files(name, file):
    assert find_game(name) == (GAMES / file).resolve()


@pytest.mark.parametrize("name", [
    "cromlec", "../cromlech", "cromlech/../pig", "/etc/passwd", "cromlech/", "", "pig/nope",
    "cromlech/examples", "cromlech/components",
])
def test_other_names_find_nothing(name):
    assert find_game(name) is None


def test_paths_are_not_names():
    assert not looks_like_name("games/pig/pig.rules")
    assert not looks_like_name("./pig") and not looks_like_name("/tmp/pig")
    assert not looks_like_name("pig\x00") and not looks_like_name("pig//x")
    assert looks_like_name("isle-of-skye/druids")


def test_games_lists_each_game_with_players_and_variants(capsys):
    code, out, _ = run_cli(capsys, "games")
    assert code == 0
    lines = {line.split()[0]: line for line in out.splitlines()}
    assert set(lines) == {e.name for e in shipped_games() if not e.variant}
    assert re.search(r"Cromlech, 2-4 players; variants: alignment, great-conflagration, "
                     r"hardcore", lines["cromlech"])
    assert lines["tictactoe"].endswith("Tic-tac-toe, 2 players")


def test_a_name_runs_as_its_file_does(capsys):
    by_path = run_cli(capsys, "run", str(GAMES / "pig" / "pig-to-50.rules"), "--seed", "3")
    by_name = run_cli(capsys, "run", "pig/pig-to-50", "--seed", "3")
    assert by_name == by_path and by_name[0] == 0


def test_check_takes_names(capsys):
    code, out, _ = run_cli(capsys, "check", "tictactoe", "pig/one-or-two")
    assert code == 0 and out.count(": ok") == 2


def test_an_unknown_name_suggests_the_closest(capsys):
    code, _, err = run_cli(capsys, "run", "isle-of-sky/druid")
    assert code == 1
    assert "isle-of-sky/druid: error[E000]: there is no rule file or shipped game named " \
           "'isle-of-sky/druid'" in err
    assert "did you mean isle-of-skye/druids?" in err
    code, _, err = run_cli(capsys, "check", "pig", "zzzzzz")  # checked before any work
    assert code == 1 and "'rulesdsl games' lists" in err and "pig: ok" not in err


def test_a_path_wins_over_a_name(capsys):
    Path("pig").write_text('game "Not Pig"\nplayers 1\n\nplay:\n    win player 1\n')
    code, out, _ = run_cli(capsys, "run", "pig")
    assert code == 0 and out.startswith("Not Pig: 1 player")
    assert source("pig") == "pig"
    assert rulesdsl.load("pig").name == "Not Pig"


def test_load_and_check_file_take_names():
    assert rulesdsl.load("tic-tac-toe").name == "Tic-tac-toe"
    diags, sources = rulesdsl.check_file("pig/pig-to-50")
    assert diags == [] and len(sources) == 2
    with pytest.raises(RulesError, match="did you mean pig"):
        rulesdsl.load("pgi")


HOUSE = '''extends game "pig"

replace setting GOAL = 30 between 10 and 1000
'''


def test_a_house_rule_anywhere_extends_a_shipped_game(capsys):
    Path("house.rules").write_text(HOUSE)
    tree = rulesdsl.load("house.rules").tree
    assert [d.value.value for d in tree.items if isinstance(d, A.SettingDecl)] == [30]
    code, out, _ = run_cli(capsys, "check", "house.rules")
    assert code == 0, out
    Path("druids.rules").write_text('extends game "isle-of-skye/druids"\n\n'
                                    'replace game "Isle of Skye with Druids, at home"\n')
    rules = rulesdsl.load("druids.rules")  # the variant's data file, beside it, is read
    assert rules.name == "Isle of Skye with Druids, at home"


@pytest.mark.parametrize("name", ["pgi", "../../games/pig/pig", "/etc/hosts"])
def test_extends_game_names_only_shipped_games(capsys, name):
    Path("house.rules").write_text(f'extends game "{name}"\n')
    code, _, err = run_cli(capsys, "check", "house.rules")
    assert code == 1
    assert f"house.rules:1:1: error[V004]: there is no shipped game named '{name}'" in err
    if name == "pgi":
        assert "did you mean pig?" in err


def test_extends_a_path_stays_confined(capsys):
    """The word `game` is what reads the catalogue: a path is still a path, confined to
    the variant's folder (V007)."""
    Path("house.rules").write_text(f'extends "{GAMES / "pig" / "pig.rules"}"\n')
    code, _, err = run_cli(capsys, "check", "house.rules")
    assert code == 1 and "error[V007]" in err


def test_version(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out == f"rulesdsl {rulesdsl.__version__}\n"
    assert re.fullmatch(r"\d+\.\d+\.\d+", rulesdsl.__version__)


def test_the_public_api_is_listed_in_one_place():
    doc = (ROOT / "docs" / "api.md").read_text()
    listed = set(re.findall(r"^### `([\w_]+)", doc, re.MULTILINE))
    assert listed == set(rulesdsl.__all__)
    for name in rulesdsl.__all__:
        getattr(rulesdsl, name)


def test_the_loading_functions_take_the_same_arguments():
    """Every public function that loads rules takes settings' overrides and the folders
    `extends` may reach, by the same names."""
    for function in (rulesdsl.load, rulesdsl.load_text, rulesdsl.check_file):
        parameters = inspect.signature(function).parameters
        assert {"overrides", "include"} <= set(parameters), function.__name__


def test_check_file_reaches_included_folders(tmp_path):
    shared = tmp_path / "shared"
    shared.mkdir()
    (shared / "base.rules").write_text((GAMES / "pig" / "pig.rules").read_text())
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "v.rules").write_text('extends "../shared/base.rules"\n')
    diags, _ = rulesdsl.check_file(mine / "v.rules")
    assert [d.code for d in diags] == ["V007"]
    diags, _ = rulesdsl.check_file(mine / "v.rules", include=[shared])
    assert diags == []


def test_the_house_rule_of_the_docs_extends_pig_from_any_folder(capsys):
    """docs/house-rules.md: its house rule in a folder of its own checks, and is Pig to
    40."""
    doc = (ROOT / "docs" / "house-rules.md").read_text()
    section = doc[doc.index("## A house rule in your own folder"):]
    block = re.search(r"```rules\n(.+?)```", section, re.DOTALL).group(1)
    Path("pig40.rules").write_text(block)
    code, out, _ = run_cli(capsys, "check", "pig40.rules")
    assert (code, out) == (0, "pig40.rules: ok (no rules, 3 examples hold, 2 players)\n")
    assert f"$ rulesdsl check pig40.rules\n{out}" in section
    code, out, _ = run_cli(capsys, "diff", "pig", "pig40.rules")
    assert code == 0 and "GOAL" in out
