"""A variant's edits of the base's declarations (`change`), named steps, `base NAME(...)`,
and `rulesdsl diff` showing the lines that changed."""

from __future__ import annotations

from pathlib import Path

import pytest

import rulesdsl
from rulesdsl.cli import main
from rulesdsl.interpreter.examples import run_examples
from rulesdsl.resolve.compare import diff
from rulesdsl.resolve.variants import resolve

BASE = """game "Race"
players 2

die d6: faces 1..6
counter score per player = 0
counter log = 0

rule advance(n):
    let bonus = 1
    step move:
        add n + bonus to score of current
    if score of current >= 10:
        set log = 1
        win current
    choose:
        option stop "stop here":
            pass
        option go "go on":
            add 1 to score of current

play:
    turns:
        let r = roll d6
        advance(r)

example "a first move":
    play "3", "stop"
    expect score of player 1 == 4
"""


def write(tmp: Path, name: str, text: str) -> Path:
    path = tmp / name
    path.write_text(text)
    return path


def variant(tmp: Path, body: str) -> Path:
    write(tmp, "race.rules", BASE)
    return write(tmp, "v.rules", 'extends "race.rules"\n\n' + body)


def played(path: Path, choices: list[str], players: int = 2) -> rulesdsl.Game:
    rules = rulesdsl.load(path)
    game = rules.new_game(players=players, seed=1, auto_chance=False)
    for c in choices:
        game.apply(c)
    return game


def codes(path: Path) -> list[str]:
    with pytest.raises(rulesdsl.RulesError) as err:
        rulesdsl.load(path)
    return [d.code for d in err.value.diagnostics]


def test_statements_at_the_start_and_end_before_after_and_instead(tmp_path):
    v = variant(tmp_path, """change rule advance:
    at start:
        add 100 to log
    at end:
        add 1000 to log
    before set log = 1:
        add 5 to score of current
    instead of add 1 to score of current: add 2 to score of current
    after let bonus = 1:
        add 1 to bonus
""")
    game = played(v, ["3", "go"])
    assert game.counter("score", 0) == 3 + 2 + 2  # the move with a bonus of 2, then go on
    assert game.counter("log") == 1100


def test_a_step_a_let_and_a_roll_replaced(tmp_path):
    v = variant(tmp_path, """die d2: faces [2, 3]

change rule advance:
    let bonus = 0
    step move:
        add 2 * n + bonus to score of current

change play:
    let r = roll d2
""")
    game = played(v, ["3", "stop"])
    assert game.counter("score", 0) == 6
    with pytest.raises(rulesdsl.RulesError):
        played(v, ["6"])  # the die is the d2 now: 6 is no face


def test_menu_options_changed_added_and_removed(tmp_path):
    v = variant(tmp_path, """change rule advance:
    option stop "rest" if n > 2
    option go:
        add 3 to score of current
    add option jump "jump ahead":
        add 5 to score of current
""")
    game = played(v, ["1"])
    assert [(o.id, o.label) for o in game.decision.options] == [
        ("go", "go on"), ("jump", "jump ahead")]
    game.apply("go")
    assert game.counter("score", 0) == 2 + 3
    game = played(v, ["4"])
    assert game.decision.options[0].label == "rest"
    removed = variant(tmp_path, "change rule advance:\n    remove option stop\n")
    assert [o.id for o in played(removed, ["1"]).decision.options] == ["go"]


def test_an_expression_replaced_and_an_example_changed(tmp_path):
    v = variant(tmp_path, """change rule advance:
    replace score of current >= 10 with score of current >= 5

change example "a first move":
    instead of expect score of player 1 == 4: expect score of player 1 == 4 and not game_over
""")
    assert run_examples(rulesdsl.load(v)) == []
    game = played(v, ["4"])
    assert game.over and game.result.ranking == [1, 2]


def test_base_runs_the_version_the_variant_replaced_even_two_files_down(tmp_path):
    variant(tmp_path, """replace rule advance(n):
    add 100 to log
    base advance(n)
""")
    w = write(tmp_path, "w.rules", """extends "v.rules"

replace rule advance(n):
    add 1 to log
    base advance(n + 1)
""")
    game = played(w, ["3", "stop"])
    assert game.counter("log") == 101 and game.counter("score", 0) == 5
    assert not any("(base" in line for line in diff(resolve(tmp_path / "race.rules"),
                                                    resolve(w)) if line[0] != " ")


def test_statements_a_variant_adds_point_into_the_variant(tmp_path):
    v = variant(tmp_path, "change rule advance:\n    at end:\n        add true to log\n")
    with pytest.raises(rulesdsl.RulesError) as err:
        rulesdsl.load(v)
    d = err.value.diagnostics[0]
    assert d.code == "E030" and d.span.file == str(v) and d.span.line == 5


@pytest.mark.parametrize("body, code, words", [
    ("change rule advance:\n    step jump:\n        pass\n", "V008", "its steps: move"),
    ("change rule advance:\n    instead of add 9 to log:\n        pass\n", "V008",
     "no statement that reads `add 9 to log`"),
    ("change rule advance:\n    let speed = 2\n", "V008", "no 'let speed"),
    ("change rule advance:\n    option wait if true\n", "V008", "its options: go, stop"),
    ("change rule advance:\n    add option go:\n        pass\n", "V008", "already has"),
    ("change rule advance:\n    replace 7 with 8\n", "V008", "no expression"),
    ("change play:\n    replace 1 with 2\n", "V008", "no expression"),
    ("change rule retreat:\n    at end:\n        pass\n", "V001", "no rule retreat"),
    ("change define goal:\n    replace 10 with 12\n", "V001", "no define goal"),
    ("rule twice(n):\n    base advance(n)\n", "V009", "does neither"),
])
def test_an_edit_that_finds_no_place(tmp_path, body, code, words):
    v = variant(tmp_path, body)
    with pytest.raises(rulesdsl.RulesError) as err:
        rulesdsl.load(v)
    assert [d.code for d in err.value.diagnostics] == [code]
    assert words in err.value.render()


TARGET = BASE.replace("rule advance(n):", "define target() = 10\n\nrule advance(n):").replace(
    "score of current >= 10:", "score of current >= target():")


def test_a_definition_is_changed_by_replacing_a_part_of_it(tmp_path):
    write(tmp_path, "race.rules", TARGET)
    v = write(tmp_path, "v.rules", 'extends "race.rules"\n\nchange define target:\n'
                                   '    replace 10 with 5\n')
    moves = ["3", "go", "1", "stop", "1"]   # player 1: 4, then 5, then 7
    assert not played(tmp_path / "race.rules", moves).over
    game = played(v, moves)
    assert game.over and game.result is not None and game.result.winners == [0]
    lines = diff(resolve(tmp_path / "race.rules"), resolve(v))
    assert any(line.lstrip().startswith("+") and "5" in line for line in lines), lines
    for body, words in [("    at end:\n        pass\n", "define target is one expression"),
                        ("    replace 9 with 12\n", "no expression that reads `9`")]:
        bad = write(tmp_path, "bad.rules", f'extends "race.rules"\n\nchange define target:\n'
                                           f'{body}')
        with pytest.raises(rulesdsl.RulesError) as err:
            rulesdsl.load(bad)
        assert [d.code for d in err.value.diagnostics] == ["V008"]
        assert words in err.value.render()


def test_an_edit_with_several_places_names_them(tmp_path):
    v = variant(tmp_path, "change rule advance:\n    replace 1 with 2\n")
    with pytest.raises(rulesdsl.RulesError) as err:
        rulesdsl.load(v)
    assert "several expressions that read `1` (lines 9, 13, 19)" in err.value.render()


def test_change_and_base_belong_in_a_variant(tmp_path):
    f = write(tmp_path, "f.rules", BASE + "change play:\n    at end:\n        pass\n")
    assert codes(f) == ["V005"]
    g = write(tmp_path, "g.rules", BASE.replace("        advance(r)", "        base advance(r)"))
    assert codes(g) == ["V005"]


def test_a_step_runs_in_place_and_names_are_its_own(tmp_path):
    text = BASE.replace("""    step move:
        add n + bonus to score of current""", """    step move:
        let moved = n + bonus
    add moved to score of current""")
    assert run_examples(rulesdsl.load_text(text, str(tmp_path / "s.rules"))) == []
    twice = BASE.replace("    if score of current", "    step move:\n        pass\n"
                                                    "    if score of current")
    with pytest.raises(rulesdsl.RulesError) as err:
        rulesdsl.load_text(twice, "t.rules")
    assert [d.code for d in err.value.diagnostics] == ["E021"]


def test_rules_named_step_and_base_are_still_called(tmp_path):
    text = BASE.replace("rule advance(n):", "rule step():\n    add 1 to log\n\n"
                        "rule base():\n    add 10 to log\n\nrule advance(n):").replace(
        "        advance(r)", "        step()\n        base()\n        advance(r)")
    rules = rulesdsl.load_text(text, str(tmp_path / "old.rules"))
    game = rules.new_game(players=2, seed=1)
    assert game.counter("log") == 11


def test_diff_shows_the_lines_that_changed(tmp_path, capsys):
    v = variant(tmp_path, """change rule advance:
    replace score of current >= 10 with score of current >= 5
    at end:
        say "done"

replace example "a first move":
    play "3", "stop"
    expect score of player 1 == 4
    expect current == player 2
""")
    assert main(["diff", str(tmp_path / "race.rules"), str(v)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("changed rule advance (") and "edited in" in out[0]
    assert "  -     if score of current >= 10:" in out
    assert "  +     if score of current >= 5:" in out
    assert '  +     say "done"' in out
    assert "  -     let bonus = 1" not in out and "      let bonus = 1" not in out
    ex = out.index(next(line for line in out if line.startswith("replaced example")))
    assert out[ex + 1:] == ['        expect score of player 1 == 4',
                            '  +     expect current == player 2']


@pytest.mark.parametrize("base, house", [
    ("cronberg/cronberg.rules", "cronberg/parks_triple.rules"),
    ("pig/pig.rules", "pig/one-or-two.rules"),
])
def test_the_house_rules_page_shows_what_diff_prints(base, house, monkeypatch):
    """docs/house-rules.md quotes `rulesdsl diff` of its two-line house rules: the first
    declaration each changes, as diff prints it."""
    root = Path(__file__).resolve().parent.parent
    monkeypatch.chdir(root)
    lines = diff(resolve(f"games/{base}"), resolve(f"games/{house}"))
    block = [lines[0]]
    for line in lines[1:]:
        if not line.startswith(" "):
            break
        block.append(line)
    assert block[0].startswith("changed ") and len(block) > 2
    assert "\n".join(block) in (root / "docs" / "house-rules.md").read_text()


def test_a_variant_changes_an_inherited_expect_options_and_a_secret_step(tmp_path):
    """The flow's statements are statements like any other for `change`: an example's
    `expect options` line replaced, a line added to the first block of a secret step."""
    write(tmp_path, "bid.rules", """game "Bid"
players 2

counter bid per player = 0 secret
counter paid per player = 0

play:
    each p in players chooses in secret:
        choose n in [1, 2, 3] as "bid {n}"
        set bid of p = n
    then reveal:
        add bid of p to paid of p
    end game

example "bids":
    play
    expect options "1", "2", "3"
    play "1", "2"
    expect paid of player 2 == 2
""")
    v = write(tmp_path, "v.rules", """extends "bid.rules"

change play:
    replace [1, 2, 3] with [1, 2]
    after set bid of p = n:
        set bid of p = n * 10

change example "bids":
    instead of expect options "1", "2", "3": expect options "1", "2"
    instead of expect paid of player 2 == 2: expect paid of player 2 == 20
""")
    assert run_examples(rulesdsl.load(v)) == []
    assert any("expect options \"1\", \"2\"" in line for line in
               diff(resolve(tmp_path / "bid.rules"), resolve(v)))
