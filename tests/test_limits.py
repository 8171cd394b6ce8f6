"""A game that cannot end by itself ends at its limit of decisions: declared in the rule
file (`limit N decisions`), or the engine's own. The result says so; run and simulate never
hang; chance outcomes do not count; a save keeps it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import rulesdsl
from rulesdsl.check.analysis import DEFAULT_LIMIT
from rulesdsl.cli import main

ROOT = Path(__file__).resolve().parents[1]
PIG = str(ROOT / "games" / "pig" / "pig.rules")

POTATO = """\
game "Hot potato"
players 2
{limit}
setting MOST = 6 between 1 and 100
die d6: faces 1..6

play:
    turns:
        let r = roll d6
        choose by current:
            option pass "pass the potato":
                pass
            option drop "drop it":
                win current
"""


def potato(limit: str = "limit 5 decisions", **settings) -> rulesdsl.Rules:
    return rulesdsl.load_text(POTATO.format(limit=limit), "potato.rules", settings or None)


def pass_until_over(game) -> None:
    while not game.over:
        game.apply("pass")


def test_a_declared_limit_ends_the_game_as_a_draw_that_says_so():
    rules = potato()
    assert rules.limit == 5
    game = rules.new_game(players=2, seed=1)
    pass_until_over(game)
    assert game.decisions == 5
    assert game.result.ended_by == "limit"
    assert game.result.ranking == [1, 1] and game.result.winners == [0, 1]


def test_a_game_that_ends_by_itself_says_its_rules_ended_it():
    game = potato().new_game(players=2, seed=1)
    game.apply("drop")
    assert game.result.ended_by == "rules" and game.result.winners == [0]


def test_chance_outcomes_are_not_decisions():
    """With chance steps paused (as `run` plays), the limit counts the same decisions."""
    game = potato().new_game(players=2, seed=1, auto_chance=False)
    while not game.over:
        if game.is_chance:
            game.roll_chance(0)
        else:
            game.apply("pass")
    assert game.decisions == 5 and len(game.history) == 5
    assert game.result.ended_by == "limit"


def test_the_limit_from_a_setting():
    rules = potato("limit MOST decisions", MOST=3)
    game = rules.new_game(players=2, seed=1)
    pass_until_over(game)
    assert game.decisions == 3 and game.result.ended_by == "limit"


def test_without_a_limit_line_the_engine_limit_applies():
    assert potato("").limit == DEFAULT_LIMIT


@pytest.mark.parametrize("line,code", [("limit 0 decisions", "E050"),
                                       ("limit NOSUCH decisions", "E020"),
                                       ("limit 5 decisions\nlimit 6 decisions", "E021")])
def test_bad_limits(line, code):
    with pytest.raises(rulesdsl.RulesError) as info:
        potato(line)
    assert code in [d.code for d in info.value.diagnostics]


def test_a_variant_replaces_and_removes_the_limit(tmp_path):
    (tmp_path / "potato.rules").write_text(POTATO.format(limit="limit 5 decisions"))
    (tmp_path / "long.rules").write_text('extends "potato.rules"\n'
                                         "replace limit 50 decisions\n")
    (tmp_path / "endless.rules").write_text('extends "potato.rules"\nremove limit\n')
    assert rulesdsl.load(tmp_path / "long.rules").limit == 50
    assert rulesdsl.load(tmp_path / "endless.rules").limit == DEFAULT_LIMIT


def test_a_save_keeps_how_the_game_ended():
    rules = potato()
    game = rules.new_game(players=2, seed=1)
    pass_until_over(game)
    loaded = rules.load_game(json.loads(json.dumps(game.to_json())))
    assert loaded.over and loaded.result.ended_by == "limit"
    midway = rules.new_game(players=2, seed=1)
    midway.apply("pass")
    resumed = rules.load_game(json.loads(json.dumps(midway.to_json())))
    pass_until_over(resumed)
    assert resumed.decisions == 5


def test_run_says_the_limit_ended_the_game(tmp_path, capsys):
    path = tmp_path / "potato.rules"
    path.write_text(POTATO.format(limit="limit 5 decisions"))
    assert main(["run", str(path), "--agents", "first"]) == 0
    out = capsys.readouterr().out
    assert "Result: the game reached its limit of 5 decisions without ending: nobody wins" \
        in out
    assert out.count("pass the potato") == 5


def test_simulate_pig_with_agents_that_never_hold_returns(capsys):
    """The issue's hang: 'first' always rolls again, so nobody ever wins Pig."""
    assert main(["simulate", PIG, "--agents", "first", "--games", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["limit_endings"] == 1 and data["draws"] == 1
    assert data["mean_decisions"] == DEFAULT_LIMIT


# ---- the engine's bounds on what a rule file may ask for (rulesdsl/limits.py) -------------
# Each hostile file of the audit ends with its diagnostic at its place, in this process with
# a hang guard and its memory capped at 256 MB more than it holds (docs/security.md gives the
# time each takes).

def _bounded(case) -> list:
    """The diagnostics a case ends with, or a failure for a traceback, a hang or memory."""
    from rulesdsl.diagnostics import RulesError

    from . import fuzzing

    found: list = []

    def run() -> None:
        try:
            case()
        except RulesError as err:
            found.extend(err.diagnostics)
            raise

    rulesdsl.grammar.parse('game "Warm"\n')  # the parser is built once per process
    outcome = fuzzing.guarded("bound", run, seconds=20.0, memory=256 << 20)
    assert outcome.traceback is None and not outcome.hang, outcome
    return found


def _checked(path: Path) -> list:
    from rulesdsl.validate.checking import check_file

    found: list = []
    found.extend(_bounded(lambda: found.extend(check_file(path, records=None)[0])))
    return found


def _where(found: list) -> tuple[str, int]:
    assert found, "no diagnostic"
    return found[0].code, found[0].span.line if found[0].span else 0


def test_narration_is_counted_against_a_budget(tmp_path):
    """4 kB lines said a thousand times a turn: the audit's run reached a MemoryError at
    3.9 GB; the game stops with R010 at the `say` once 16 MiB have been said."""
    text = "x" * 4000
    rules = rulesdsl.load_text(f'game "Flood"\nplayers 2\nplay:\n    turns:\n'
                               f'        repeat 1000 times:\n            say "{text}"\n'
                               f'        choose by current:\n'
                               f'            option go "go":\n                pass\n',
                               "flood.rules")

    def play() -> None:
        game = rules.new_game(players=2, seed=1, narrate=True)
        while not game.over:
            game.apply_index(0)

    assert _where(_bounded(play)) == ("R010", 6)
    quiet = rules.new_game(players=2, seed=1)   # not narrated: nothing is kept, nothing counted
    for _ in range(2 * (16 << 20) // (1000 * len(text))):
        quiet.apply_index(0)
    assert not quiet.over


def test_a_narrated_game_copied_or_saved_keeps_its_count():
    """A million characters said a turn: the game, its narrated copy and the game saved and
    loaded all stop at the same turn (a copy or a load that counted from nothing would go
    on for sixteen more)."""
    from rulesdsl.diagnostics import RulesError

    said = "{T}" * 100
    rules = rulesdsl.load_text(f'game "Talk"\nplayers 2\nconst T = "{"x" * 10_000}"\n'
                               f'play:\n    turns:\n        say "{said}"\n'
                               f'        choose by current:\n'
                               f'            option go "go":\n                pass\n',
                               "talk.rules")

    def turns_left(game) -> int:
        for n in range(100):
            try:
                game.apply_index(0)
            except RulesError as err:
                assert err.diagnostics[0].code == "R010"
                return n
        raise AssertionError("no R010")

    game = rules.new_game(players=2, seed=1, narrate=True)
    for _ in range(10):
        game.apply_index(0)
    copied = turns_left(game.copy(narrated=True))
    loaded = turns_left(rules.load_game(game.to_json()))
    assert copied == loaded == turns_left(game) == 5


def test_a_chain_of_variants_is_capped(tmp_path):
    """The audit's chain of about 330 files ended in a RecursionError: past 32 files, V010
    at the `extends` line."""
    (tmp_path / "v0.rules").write_text(POTATO.format(limit=""), encoding="utf-8")
    for n in range(1, 400):
        (tmp_path / f"v{n}.rules").write_text(f'extends "v{n - 1}.rules"\n', encoding="utf-8")
    found = _checked(tmp_path / "v399.rules")
    assert _where(found) == ("V010", 1) and found[0].span.file.endswith(f"v{399 - 31}.rules")
    assert _checked(tmp_path / "v31.rules") == []  # 32 files: allowed


def test_a_declared_limit_is_capped(tmp_path):
    """`limit 999999999999999999 decisions` made `run` play without end."""
    path = tmp_path / "limit.rules"
    path.write_text(POTATO.format(limit="limit 999999999999999999 decisions"), encoding="utf-8")
    assert _where(_checked(path)) == ("E050", 3)
    path.write_text(POTATO.format(limit="limit 1000000 decisions"), encoding="utf-8")
    assert _checked(path) == []


def test_a_limit_from_a_setting_is_capped_too():
    text = POTATO.format(limit="limit MOST decisions").replace("between 1 and 100",
                                                               "between 1 and 1000000000")
    with pytest.raises(rulesdsl.RulesError) as err:
        rulesdsl.load_text(text, "potato.rules", {"MOST": 10 ** 7})
    assert _where(err.value.diagnostics) == ("E050", 3)
    assert rulesdsl.load_text(text, "potato.rules", {"MOST": 10 ** 6}).limit == 10 ** 6


def test_a_rule_file_is_capped_in_size(tmp_path):
    """100,000 lines took over 60 s and 892 MB: a file over 256 KiB is not read, and a text
    that large given to `load_text` (or by an editor) is not parsed."""
    big = POTATO.format(limit="") + "".join(f"# {n:0120}\n" for n in range(2200))
    path = tmp_path / "big.rules"
    path.write_text(big, encoding="utf-8")
    found = _checked(path)
    assert _where(found) == ("E000", 0) and "larger than 256 KiB" in found[0].message
    found = _bounded(lambda: rulesdsl.load_text(big, "big.rules"))
    assert _where(found) == ("E006", 0)


def test_a_string_literal_is_capped_in_length(tmp_path):
    """2 MB of string took 464 MB: past 10,000 characters, E006 at the string."""
    path = tmp_path / "string.rules"
    path.write_text('game "S"\nplayers 2\nplay:\n    say "' + "y" * 240_000 + '"\n    end game\n',
                    encoding="utf-8")
    assert _where(_checked(path)) == ("E006", 4)
    ok = 'game "S"\nplayers 2\nplay:\n    say "' + "y" * 10_000 + '"\n    end game\n'
    assert rulesdsl.load_text(ok, "ok.rules").name == "S"


def test_examples_are_capped_in_number(tmp_path):
    """5,000 examples took over 60 s: past 1,000, E062 at the first one too many, before
    the file is parsed; with those of a base, the checker counts them."""
    example = 'example "e{n}":\n    pass\n'
    path = tmp_path / "examples.rules"
    path.write_text(POTATO.format(limit="") + "".join(example.format(n=n) for n in range(5000)),
                    encoding="utf-8")
    assert _where(_checked(path)) == ("E062", 15 + 2 * 1000)
    base = tmp_path / "base.rules"
    base.write_text(POTATO.format(limit="") + "".join(example.format(n=n) for n in range(600)),
                    encoding="utf-8")
    variant = tmp_path / "variant.rules"
    variant.write_text('extends "base.rules"\n' + "".join(example.format(n=f"v{n}")
                                                          for n in range(600)), encoding="utf-8")
    code, line = _where(_checked(variant))
    assert (code, line) == ("E062", 2 + 2 * 400)


def test_a_list_known_before_the_game_holds_what_the_docs_say(tmp_path):
    """docs/security.md says 100,000 items; a list of 200,000 was accepted."""
    path = tmp_path / "list.rules"
    path.write_text('game "L"\nplayers 2\nconst A = 1..99999\nconst B = [A, A]\nplay:\n'
                    '    end game\n', encoding="utf-8")
    assert _where(_checked(path)) == ("E034", 4)
    path.write_text('game "L"\nplayers 2\nconst A = 1..50000\nconst B = [A, A]\nplay:\n'
                    '    end game\n', encoding="utf-8")
    assert _checked(path) == []
