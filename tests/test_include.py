"""The folders a rule file may read beyond its own (`--include DIR`) travel as an argument,
from the command line down to where files are located (files/paths.py `locate`), never as a
setting of the process: two loads in one process, each with its own folders, never reach
each other's, and the rules loaded remember theirs for what loads them again."""

from __future__ import annotations

from pathlib import Path

import pytest

import rulesdsl
from rulesdsl.agents.strength import ladder
from rulesdsl.cli import main
from rulesdsl.files import paths

ROOT = Path(__file__).resolve().parents[1]
PIG = (ROOT / "games" / "pig" / "pig.rules").read_text(encoding="utf-8")


@pytest.fixture
def folders(tmp_path: Path) -> tuple[Path, Path, Path]:
    """A variant in `mine` extending a base in `a`; `b` holds a base of the same name
    that is not Pig (a load that reached `b` would say so)."""
    a, b, mine = tmp_path / "a", tmp_path / "b", tmp_path / "mine"
    for folder in (a, b, mine):
        folder.mkdir()
    (a / "base.rules").write_text(PIG, encoding="utf-8")
    (b / "base.rules").write_text(PIG.replace('game "Pig"', 'game "Not Pig"'),
                                  encoding="utf-8")
    (mine / "v.rules").write_text('extends "../a/base.rules"\n', encoding="utf-8")
    return a, b, mine / "v.rules"


def refused(path: Path, **kwargs) -> str:
    with pytest.raises(rulesdsl.RulesError) as err:
        rulesdsl.load(path, **kwargs)
    return err.value.diagnostics[0].code


def test_two_loads_with_different_folders_do_not_see_each_others(folders):
    a, b, variant = folders
    assert 'game "Pig"' in PIG
    assert rulesdsl.load(variant, include=[a]).name == "Pig"
    assert refused(variant, include=[b]) == "V007"   # a's folder is not b's
    assert refused(variant) == "V007"                # nor anyone's
    assert rulesdsl.load(variant, include=[a]).name == "Pig"


def test_the_command_line_leaves_no_folder_behind(folders, capsys):
    """`--include` given to one command reaches that command's files only: the next load
    in the same process is back to the file's own folder."""
    a, _, variant = folders
    assert main(["--include", str(a), "check", str(variant)]) == 0
    assert main(["check", str(variant), "--include", str(a)]) == 0
    assert refused(variant) == "V007"
    assert main(["check", str(variant)]) == 1
    assert "V007" in capsys.readouterr().err
    assert not hasattr(paths, "include")  # no setting of the process to make


def test_rules_remember_the_folders_they_were_loaded_with(folders, tmp_path, monkeypatch):
    a, _, variant = folders
    monkeypatch.chdir(tmp_path)
    rules = rulesdsl.load(variant, include=["a"])  # relative: made absolute once
    assert rules.include == (str(a.resolve()),)
    assert rulesdsl.load(ROOT / "games" / "pig" / "pig.rules").include == ()


def test_a_worker_process_reaches_the_folders_of_its_load(folders):
    """A round robin's worker processes load the file again, with the folders the rules
    were loaded with (they inherited a setting of the process before)."""
    a, _, variant = folders
    out = ladder(str(variant), ["random", "first"], 2, 1, workers=2, include=[str(a)])
    assert sum(r.games for r in out.ratings) == 2


def test_validate_and_diff_reach_the_included_folder(folders, capsys):
    a, _, variant = folders
    assert main(["validate", str(variant), "--include", str(a), "--games", "1",
                 "--positions", "0", "--seek", "0", "--agents", "random"]) == 0
    assert main(["diff", str(a / "base.rules"), str(variant), "--include", str(a)]) == 0
    assert "state the same rules" in capsys.readouterr().out
