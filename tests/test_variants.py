"""Variants: a file that extends another, with replace / add / remove, its diagnostics,
`rulesdsl diff`, and side-by-side simulation. Every variant under games/ is checked to test
its difference: its own examples must fail against the game it extends."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import rulesdsl
from rulesdsl.cli import main
from rulesdsl.interpreter.examples import run_examples
from rulesdsl.resolve.variants import resolve

from .conftest import GAME_FILES, ROOT

BASE = """game "Race"
players 2
setting GOAL = 10 between 1 and 100
counter score per player = 0
rule step():
    add 1 to score of current
play:
    turns:
        step()
        if score of current >= GOAL:
            win current
example "the first to the goal wins":
    play
    expect winner == player 1
"""


def write(tmp: Path, name: str, text: str) -> Path:
    path = tmp / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def codes(path: Path) -> list[str]:
    with pytest.raises(rulesdsl.RulesError) as err:
        rulesdsl.load(path)
    return [d.code for d in err.value.diagnostics]


def test_a_variant_replaces_adds_and_removes(tmp_path):
    write(tmp_path, "race.rules", BASE)
    v = write(tmp_path, "variants/long.rules", """extends "../race.rules"
replace setting GOAL = 20 between 1 and 100
replace rule step():
    add 2 to score of current
remove example "the first to the goal wins"
counter steps = 0
example "two at a time to 20":
    play
    expect score of player 1 == 20 and score of player 2 == 18
""")
    # the base lies above the variant's folder: it is read only when included
    assert codes(v) == ["V007"]
    rules = rulesdsl.load(v, include=[tmp_path])
    assert run_examples(rules) == []
    assert set(rules.sources) == {str(v), str(v.parent / "../race.rules")}
    assert "steps" in rules.counters
    assert rules.examples == ["two at a time to 20"]


def test_a_variant_of_a_variant(tmp_path):
    write(tmp_path, "race.rules", BASE)
    write(tmp_path, "long.rules",
          'extends "race.rules"\nreplace setting GOAL = 20 between 1 and 100\n')
    v = write(tmp_path, "longer.rules",
              'extends "long.rules"\nreplace setting GOAL = 30 between 1 and 100\n')
    resolved = resolve(v)
    assert [Path(p).name for p in resolved.chain] == ["longer.rules", "long.rules", "race.rules"]
    assert rulesdsl.load(v).value("GOAL") == 30


@pytest.mark.parametrize("body, code", [
    ("replace setting TARGET = 5 between 1 and 100\n", "V001"),
    ("remove rule jump\n", "V001"),
    ("replace const GOAL = 5\n", "V002"),
    ('replace setting GOAL = "far" between 1 and 100\n', "V002"),
    ("replace rule step(n):\n    pass\n", "V002"),
    ("counter score per player = 0\n", "V006"),
    ('extends "race.rules"\n', "V005"),
])
def test_variant_mistakes(tmp_path, body, code):
    write(tmp_path, "race.rules", BASE)
    v = write(tmp_path, "v.rules", 'extends "race.rules"\n' + body)
    assert code in codes(v)


def test_a_missing_base_and_a_circle(tmp_path):
    missing = write(tmp_path, "v.rules", 'extends "nowhere.rules"\n')
    assert codes(missing) == ["V004"]
    # a name the host cannot look up (longer than a file name may be): said, not raised
    long = write(tmp_path, "long.rules", f'extends "{"(" * 400}.rules"\n')
    with pytest.raises(rulesdsl.RulesError) as err:
        rulesdsl.load(long)
    assert codes(long) == ["V004"]
    assert "cannot read the base file" in err.value.render()
    assert "(" * 100 not in err.value.diagnostics[0].message  # the name shortened
    null = write(tmp_path, "null.rules", 'extends "ra\x00ce.rules"\n')
    assert codes(null) == ["V004"]
    write(tmp_path, "a.rules", 'extends "b.rules"\n')
    b = write(tmp_path, "b.rules", 'extends "a.rules"\n')
    assert codes(b) == ["V003"]


def test_replace_outside_a_variant(tmp_path):
    f = write(tmp_path, "f.rules", BASE + "replace setting GOAL = 3 between 1 and 100\n")
    assert codes(f) == ["V005"]


def test_an_error_in_the_base_points_into_the_base(tmp_path):
    base = write(tmp_path, "race.rules", BASE.replace("add 1 to score", "add true to score"))
    v = write(tmp_path, "v.rules", 'extends "race.rules"\ncounter extra = 0\n')
    with pytest.raises(rulesdsl.RulesError) as err:
        rulesdsl.load(v)
    d = err.value.diagnostics[0]
    assert d.code == "E030" and d.span.file == str(tmp_path / "race.rules")
    assert "add true to score" in err.value.render()
    assert base.exists()


def test_diff_names_what_changed(tmp_path, capsys):
    a = write(tmp_path, "race.rules", BASE)
    b = write(tmp_path, "v.rules", """extends "race.rules"
replace setting GOAL = 20 between 1 and 100
remove example "the first to the goal wins"
counter steps = 0
""")
    assert main(["diff", str(a), str(b)]) == 0
    out = capsys.readouterr().out
    assert "replaced setting GOAL" in out
    assert "  - setting GOAL = 10 between 1 and 100" in out
    assert "  + setting GOAL = 20 between 1 and 100" in out
    assert 'removed example "the first to the goal wins"' in out
    assert "added counter steps" in out
    assert main(["diff", str(a), str(a)]) == 0
    assert "state the same rules" in capsys.readouterr().out


def test_simulate_side_by_side(capsys):
    pig = str(ROOT / "games/pig/pig.rules")
    short = str(ROOT / "games/pig/pig-to-50.rules")
    assert main(["simulate", pig, short, "--games", "40", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    first, second = data["files"]
    assert first["games"] == second["games"] == 40
    assert second["mean_decisions"] < first["mean_decisions"]
    assert main(["simulate", pig, short, "--games", "10"]) == 0
    out = capsys.readouterr().out
    # each column is named by its game, whole, however long the path to the files
    assert "seat 1 wins" in out and "Pig to 50" in out and "…" not in out


VARIANTS = [p for p in GAME_FILES if re.match(r'\s*(#.*\n\s*)*extends ', p.read_text())]


def test_the_games_have_variants():
    assert VARIANTS


def worked_examples(path: Path) -> list[tuple[str, str]]:
    """A variant's examples as (name, text): its own, those it changes (as changed), and
    those of its examples file (games/GAME/examples/VARIANT.rules), if it has one."""
    from rulesdsl.resolve.render import decl_lines

    out = []
    for file in (path, path.parent / "examples" / path.name):
        if not file.is_file():
            continue
        text = file.read_text()
        own = rulesdsl.grammar.parse(text, str(file))
        lines = text.splitlines()
        out += [(ex.name, "\n".join(lines[ex.span.line - 1:ex.span.end_line - 1]))
                for ex in own.items if isinstance(ex, rulesdsl.ast.ExampleDecl)]
        changed = {c.name for c in own.items if isinstance(c, rulesdsl.ast.Change)
                   and c.what == "example"}
        if changed:
            resolved = resolve(file, include=[path.parent])
            sources = {k: v.splitlines() for k, v in resolved.sources.items()}
            out += [(ex.name, "\n".join(decl_lines(ex, sources)))
                    for ex in resolved.file.items
                    if isinstance(ex, rulesdsl.ast.ExampleDecl) and ex.name in changed]
    return out


@pytest.mark.parametrize("path", VARIANTS, ids=lambda p: str(p.relative_to(ROOT / "games")))
def test_a_variants_examples_fail_against_its_base(path, tmp_path):
    """Each example of a variant (its own, those it changes, those of its examples file),
    run against the game it extends, must fail."""
    own = rulesdsl.grammar.parse(path.read_text(), str(path))
    base_line = next(i for i in own.items if isinstance(i, rulesdsl.ast.Extends))
    base = (path.parent / base_line.path).resolve()
    examples = worked_examples(path)
    assert examples, "a variant shows the rule that differs with an example"
    for n, (name, block) in enumerate(examples):
        probe = write(tmp_path, f"probe-{n}.rules",
                      f'extends "{base}"\n' + re.sub(r'^example "', 'example "probe: ', block))
        try:
            rules = rulesdsl.load(probe, include=[path.parent])
        except rulesdsl.RulesError:
            continue  # the base cannot even state the example: a difference
        assert run_examples(rules), f"example {name!r} also holds in the base game"


EXAMPLE_FILES = sorted(ROOT.glob("games/*/examples/*.rules"))


def game_folder(path: Path) -> Path:
    """The folder of a game: an examples file extends its variant there (`--include` it)."""
    return path.parent.parent if path.parent.name == "examples" else path.parent


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda p: p.name)
def test_an_examples_file_holds_only_examples_of_its_variant(path):
    """games/GAME/examples/V.rules extends games/GAME/V.rules and adds examples only; they
    hold (tests/test_contract.py runs the games' own)."""
    own = rulesdsl.grammar.parse(path.read_text(), str(path))
    ext = [i for i in own.items if isinstance(i, rulesdsl.ast.Extends)]
    assert [e.path for e in ext] == [f"../{path.name}"]
    assert all(isinstance(i, (rulesdsl.ast.Extends, rulesdsl.ast.ExampleDecl))
               for i in own.items)
    assert run_examples(rulesdsl.load(path, include=[game_folder(path)])) == []


def test_narrowing_the_players_leaves_out_the_bases_examples_for_other_counts(tmp_path):
    write(tmp_path, "base.rules", BASE.replace("players 2", "players 2 to 4") + """
example "with three" with 3 players:
    expect player_count == 3
""")
    variant = write(tmp_path, "four.rules", 'extends "base.rules"\nreplace players 4\n')
    assert run_examples(rulesdsl.load(variant)) == []
    resolved = resolve(variant)
    kept = [d.name for d in resolved.file.items if type(d).__name__ == "ExampleDecl"]
    assert kept == ["the first to the goal wins"]
    # the variant's own examples must still fit its count
    bad = write(tmp_path, "bad.rules", 'extends "base.rules"\nreplace players 4\n'
                'example "two" with 2 players:\n    expect true\n')
    assert codes(bad) == ["E012"]


def code_lines(path: Path) -> list[str]:
    """A rule file's lines that say something: no blank lines, no comments, white space
    folded (as `duplicates` reads code)."""
    out = []
    for line in path.read_text().splitlines():
        line = re.sub(r"\s+", " ", line.split("#")[0] if '"' not in line else line).strip()
        if line and not line.startswith("#"):
            out.append(line)
    return out


def runs(lines: list[str], n: int) -> set[tuple[str, ...]]:
    return {tuple(lines[i:i + n]) for i in range(len(lines) - n + 1)}


@pytest.mark.parametrize("path", VARIANTS + EXAMPLE_FILES,
                         ids=lambda p: str(p.relative_to(ROOT / "games")))
def test_a_variant_copies_nothing_from_its_bases(path):
    """No six lines of a variant stand, in the same order, in a file it extends: a variant
    says what it changes (`change`, `step`, `base NAME(...)`), it does not copy a rule."""
    chain = resolve(path, include=[game_folder(path)]).chain[1:]
    mine = runs(code_lines(path), 6)
    for base in chain:
        copied = mine & runs(code_lines(Path(base)), 6)
        assert not copied, f"{path.name} repeats these lines of {Path(base).name}: " \
                           f"{sorted(copied)[0]}"
def test_side_by_side_columns_of_games_with_one_name(capsys, tmp_path):
    """Two files of one game name are told apart by their file names, never cut short."""
    deep = tmp_path / ("a-rather-long-folder-name-" * 4) / "house"
    deep.mkdir(parents=True)
    copy = deep / "pig-with-a-house-rule.rules"
    copy.write_text((ROOT / "games/pig/pig.rules").read_text())
    assert main(["simulate", str(ROOT / "games/pig/pig.rules"), str(copy), "--games", "5"]) == 0
    out = capsys.readouterr().out
    assert "Pig (pig)" in out and "Pig (pig-with-a-house-rule)" in out
    assert "…" not in out


def test_a_point_the_variant_leaves_aside_is_no_error_while_no_example_starts_there(tmp_path):
    """The base's scoring point can no longer be started at (the variant calls the rule
    twice); with the example that started there removed, the variant checks clean."""
    from rulesdsl.validate.checking import check_file

    programs = ROOT / "tests" / "programs"
    (tmp_path / "bases").mkdir()
    (tmp_path / "bases" / "points.rules").write_text(
        (programs / "bases" / "points.rules").read_text(encoding="utf-8"), encoding="utf-8")
    text = (programs / "point_left_aside.rules").read_text(encoding="utf-8")
    text = text.replace('remove example "from the start"',
                        'remove example "from the start"\nremove example "scoring alone"')
    (tmp_path / "aside.rules").write_text(text, encoding="utf-8")
    diags, _ = check_file(tmp_path / "aside.rules")
    assert diags == []
    kept, _ = check_file(programs / "point_left_aside.rules")
    assert [d.code for d in kept] == ["E084"]
