"""Shared fixtures: every game under games/ is found automatically.

The property tests (hypothesis) draw the same inputs at every run of the same code: a
suite that passes here passes on a fresh clone. To explore new inputs instead, as the
fuzzing did when it found the bugs docs/robustness.md lists, run with
RULESDSL_HYPOTHESIS=explore (or `python benchmarks/fuzz.py --seed N` for the long runs).
"""

from __future__ import annotations

import atexit
import os
import re
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings
from hypothesis.configuration import set_hypothesis_home_dir

import rulesdsl

settings.register_profile("fixed", derandomize=True, database=None)
settings.register_profile("explore")
_PROFILE = os.environ.get("RULESDSL_HYPOTHESIS", "fixed")
settings.load_profile(_PROFILE)
if _PROFILE == "fixed":
    # hypothesis keeps its files (a cache of the constants in the code it tests) in a
    # folder of its own outside the checkout, removed at the end: a test run writes
    # nothing into the checkout (exploring keeps its examples in .hypothesis, as usual)
    _HYPOTHESIS_HOME = tempfile.mkdtemp(prefix="rulesdsl-hypothesis-")
    atexit.register(shutil.rmtree, _HYPOTHESIS_HOME, ignore_errors=True)
    set_hypothesis_home_dir(_HYPOTHESIS_HOME)

ROOT = Path(__file__).resolve().parent.parent
GAME_FILES = sorted(ROOT.glob("games/*/*.rules"))


def game_id(path: Path) -> str:
    return str(path.relative_to(ROOT / "games"))


# The five seed games and their variants take most of the time of the tests run for
# every rule file (up to 23 s of CPU for Isle of Skye's boundary): the quick run
# (`-m "not slow"`) takes the small games' files there, the whole suite every file; each
# seed game's own tests (test_cromlech.py...) are in both.
SEED_GAMES = ("cromlech", "cleromancy", "cronberg", "solstice", "isle_of_skye")


def game_params(paths: list, ids=game_id) -> list:
    """`paths` as parameters of a test, the files of the seed games marked slow."""
    return [pytest.param(p, id=ids(p), marks=[pytest.mark.slow]
                         if Path(p).parent.name in SEED_GAMES else []) for p in paths]


GAME_PARAMS = game_params(GAME_FILES)
SEED_ID = re.compile(rf"(^|\W)({'|'.join(SEED_GAMES)})\b")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Any test run for a seed game (its parameters' id names the game: records, the
    adapters, the optimiser over every file) is slow too, as `game_params` marks them."""
    for item in items:
        spec = getattr(item, "callspec", None)
        if spec is not None and SEED_ID.search(spec.id):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session")
def load_rules():
    cache: dict[Path, rulesdsl.Rules] = {}

    def load(path: Path) -> rulesdsl.Rules:
        if path not in cache:
            cache[path] = rulesdsl.load(path)
        return cache[path]

    return load


@pytest.fixture(autouse=True)
def _in_a_fresh_directory(tmp_path, monkeypatch):
    """Each test runs in a directory of its own: what commands write by default (the
    database of `simulate`, the records of failed games) never lands in the repository."""
    monkeypatch.chdir(tmp_path)


@pytest.fixture(autouse=True)
def _nothing_remembered(monkeypatch):
    """Commands answer a file they checked before, and take the syntax tree of a file they
    parsed before, from the user's cache (checkcache.py, grammar/treecache.py): tests
    work afresh, since some change the engine in place."""
    from rulesdsl.grammar import treecache
    from rulesdsl.resolve import placed
    from rulesdsl.validate import checkcache

    monkeypatch.setattr(checkcache, "ENABLED", False)
    monkeypatch.setattr(treecache, "ENABLED", False)
    monkeypatch.setattr(placed, "ENABLED", False)
