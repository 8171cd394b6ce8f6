"""Fuzzing (tests/fuzzing.py): damaged rule files, token soup, corrupted saves and records,
bad command lines, editor requests on damaged files. None may end in a Python traceback
or a hang. A few hundred inputs per run; `python benchmarks/fuzz.py` runs thousands
(docs/robustness.md).

Rule files can still hit limits of the engine that another change sets (the size of
numbers and collections, nesting depth, work inside one expression: `fuzzing.KNOWN`);
such an input is set aside here, and each limit has an expected failure below with its
reproducer. Saves, records and command lines have no such excuse.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rulesdsl

from . import fuzzing as F

pytestmark = pytest.mark.slow  # hundreds of damaged inputs: seconds of CPU per test

SOURCES = F.sources()
RULES: dict[Path, rulesdsl.Rules] = {}


def fast(examples: int) -> settings:
    """No deadline (a case has its own time limit), `examples` inputs per run."""
    return settings(max_examples=examples, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                           HealthCheck.function_scoped_fixture])


def rules_of(path: Path) -> rulesdsl.Rules:
    if path not in RULES:
        RULES[path] = rulesdsl.load(path)
    return RULES[path]


def handled(outcome: F.Outcome) -> None:
    assert outcome.traceback is None, f"{outcome.kind}: {outcome.traceback}\n{outcome.input!r}"


SMALL_GAMES = [p for p in F.GAME_FILES if p.parent.name in ("pig", "tictactoe",
                                                             "connect_four", "yacht")]


@fast(60)
@given(rng=st.randoms(use_true_random=False), path=st.sampled_from(F.GAME_FILES))
def test_damaged_rule_files(rng: random.Random, path: Path) -> None:
    text = F.damaged(rng, SOURCES[path], 1, 3)
    rel = str(path.relative_to(F.ROOT))
    handled(F.guarded("rules", lambda: F.run_text(text, rel), given=text))


@fast(15)
@given(rng=st.randoms(use_true_random=False), path=st.sampled_from(F.GAME_FILES))
def test_editor_requests_on_damaged_rule_files(rng: random.Random, path: Path) -> None:
    """The language server answers every request on a damaged file, or says it cannot."""
    text = F.damaged(rng, SOURCES[path], 0, 2)
    rel = str(path.relative_to(F.ROOT))
    requests = F.editor_requests(rng, text)
    handled(F.guarded("editor", lambda: F.run_editor(text, rel, requests),
                      given=(text, requests)))


@fast(150)
@given(rng=st.randoms(use_true_random=False))
def test_token_soup(rng: random.Random) -> None:
    text = F.token_soup(rng)
    handled(F.guarded("soup", lambda: F.run_text(text, "soup.rules"), given=text))


@fast(100)
@given(rng=st.randoms(use_true_random=False), path=st.sampled_from(SMALL_GAMES + [
    p for p in F.GAME_FILES if p.name in ("cromlech.rules", "cleromancy.rules",
                                          "cronberg.rules", "goofspiel.rules")]))
def test_corrupted_saves(rng: random.Random, path: Path) -> None:
    rules = rules_of(path)
    data = F.corrupt(rng, F.games_to_corrupt(rng, rules).to_json())
    handled(F.guarded("save", lambda: F.run_save(rules, data), given=data))


@fast(40)
@given(rng=st.randoms(use_true_random=False))
def test_saves_of_other_rules_with_a_forged_digest(rng: random.Random) -> None:
    rules, data = F.forged(rng, {p: rules_of(p) for p in SMALL_GAMES + [
        p for p in F.GAME_FILES if p.name in ("cromlech.rules", "cronberg.rules")]})
    handled(F.guarded("save", lambda: F.run_save(rules, data), given=data))


@fast(60)
@given(rng=st.randoms(use_true_random=False), path=st.sampled_from(SMALL_GAMES))
def test_corrupted_records(rng: random.Random, path: Path) -> None:
    rules = rules_of(path)
    data = F.corrupt(rng, F.record_of(F.games_to_corrupt(rng, rules), path))
    handled(F.guarded("record", lambda: F.run_record(rules, data), given=data))


@pytest.fixture(scope="module")
def cli_files(tmp_path_factory) -> dict[str, str]:
    tmp = tmp_path_factory.mktemp("cli")
    (tmp / "binary.rules").write_bytes(b"\xff\xfe\x00junk")
    (tmp / "save.json").write_text('{"format": "rulesdsl-game/1"}')
    (tmp / "record.json").write_text('{"format": "rulesdsl-record/1", "steps": [1]}')
    return {"ttt": str(F.ROOT / "games/tictactoe/tictactoe.rules"),
            "pig": str(F.ROOT / "games/pig/pig.rules"), "missing": str(tmp / "nowhere"),
            "dir": str(tmp), "binary": str(tmp / "binary.rules"),
            "save": str(tmp / "save.json"), "record": str(tmp / "record.json")}


@fast(150)
@given(rng=st.randoms(use_true_random=False))
def test_bad_command_lines(rng: random.Random, cli_files, tmp_path_factory) -> None:
    argv = F.bad_argv(rng, cli_files)
    here = os.getcwd()
    os.chdir(tmp_path_factory.getbasetemp())  # records of failed games land here
    try:
        handled(F.guarded("cli", lambda: F.run_cli(argv), given=argv))
    finally:
        os.chdir(here)


# ---- hostile rule files: a clear error, within a second, in bounded memory -----------------

def hostile(decl: str = "", play: str = "    end game", example: str = "    pass") -> str:
    return f'game "Hostile"\nplayers 2\n{decl}\nplay:\n{play}\nexample "e":\n{example}\n'


HOSTILE = {
    "endless loop": hostile("counter n = 0", "    while true:\n        add 1 to n"),
    "endless loop between blocks": hostile("", "    turns:\n        if false:\n"
                                           "            choose by current:\n"
                                           "                option a:\n"
                                           "                    pass"),
    "huge repeat count": hostile("counter n = 0", "    repeat 4294967296 times:\n"
                                 "        add 1 to n\n    end game"),
    "endless recursion": hostile("rule r():\n    r()", "    r()"),
    "huge board from a setting": hostile("setting N = 5 between 1 and 1000000\n"
                                         "board g: square N x N"),
    "over-indented line after turns": 'game "H"\nplayers 2\nplay:\n    turns:\n'
                                      '                win current\n        pass\n',
    "a line indented between two blocks": 'game "H"\nplayers 2\nplay:\n    turns:\n'
                                          '        win current\n      pass\n',
}


@pytest.mark.parametrize("text", HOSTILE.values(), ids=HOSTILE.keys())
def test_hostile_rule_file_stops_inside_its_budget(text: str) -> None:
    """Each stops with a diagnostic, not a traceback; the guard catches a hang. (How
    fast they stop, well under a second each, is measured by benchmarks/fuzz.py for
    docs/robustness.md: a test must not depend on the machine's speed.)"""
    rulesdsl.grammar.parse('game "Warm"\n')  # the parser is built once per process
    outcome = F.guarded("hostile", lambda: F.run_text(text, "hostile.rules"))
    assert outcome.traceback is None, outcome.traceback
    assert not outcome.hang


# The limits the code generator sets, each with the input that found it (they used to end in
# a traceback or a hang): each now stops at once with a diagnostic.
LIMITS = {
    "die faces up to 2**64": hostile("die d6: faces 1..18446744073709551616"),
    "a literal of 4,301 digits": hostile("const X = " + "9" * 4301),
    "100,000 nested brackets": hostile("const X = " + "[" * 100_000 + "]" * 100_000),
    "count over 2**32 numbers": hostile("", "    end game",
                                        "    expect count(x in 1..4294967296 where "
                                        "x % 3 == 0) == 3"),
    "a kind of 10**9 components": hostile('kind K(name):\n    1000000000 x "a"\n'
                                          "zone z: K public"),
    "a number squared 100 times": hostile("counter n = 2", "    repeat 100 times:\n"
                                          "        set n = n * n\n    end game"),
}


@pytest.mark.parametrize("text", LIMITS.values(), ids=LIMITS.keys())
def test_hostile_rule_file_meets_a_limit(text: str) -> None:
    outcome = F.guarded("hostile", lambda: F.run_text(text, "hostile.rules"))
    assert outcome.traceback is None, outcome.traceback
    assert not outcome.hang
