"""The compiled path (compile/native.py) against the plain one: the same rules built
with Cython, and the run-time helpers built with them, play the same games, move for
move, with the same records and results.

Every shipped rule file, game and variant, is built and compared here. The small games
are played by random and greedy bots, tic-tac-toe, connect four and Pig built as users get
them (`-O2`, a few seconds each; the other tests here build them so too), the others
without optimising. The seed games and their variants take minutes each to build as users
get them (Cromlech's about two of CPU), so here they are built without optimising
(`native.CHECK_FLAGS`: the same C, Cromlech's in about 11 s) and played by random bots (20
seeds for a game's own file, 10 for a variant); with RULESDSL_NATIVE_SEEDS=1 they
are compared built as users get them too (marked slow), as docs/performance.md says.
Builds are kept in the user's cache by the digest of the generated text and the flags,
so a second run only loads them. Without Cython or a C compiler the comparisons are
skipped, with what is missing as the reason; the fallback, the sandbox's check before a
build and the cache's care are tested everywhere.
"""

from __future__ import annotations

import ast
import json
import os
import sys
from pathlib import Path

import pytest

import rulesdsl
from rulesdsl.agents.play import play_game
from rulesdsl.balance.games import Plan, play_one
from rulesdsl.compile import native
from rulesdsl.compile.sandbox import UnsafeCode
from rulesdsl.diagnostics import RulesError
from rulesdsl.interpreter.records import make_record

ROOT = Path(__file__).resolve().parent.parent
MISSING = native.missing()
needs_build = pytest.mark.skipif(MISSING is not None, reason=f"no native build: {MISSING}")

SMALL = ["tictactoe/tictactoe", "connect_four/connect_four", "pig/pig", "pig/one-or-two",
         "pig/pig-to-50", "goofspiel/goofspiel", "yacht/yacht"]
AS_USERS_GET_THEM = ["tictactoe/tictactoe", "connect_four/connect_four", "pig/pig"]
SEEDS = ["cromlech", "cleromancy", "cronberg", "solstice", "isle_of_skye"]
SHIPPED = sorted(str(p.relative_to(ROOT / "games").with_suffix(""))
                 for p in (ROOT / "games").glob("*/*.rules"))
SEED_FILES = [name for name in SHIPPED if name.partition("/")[0] in SEEDS]

_loaded: dict[tuple[str, tuple[str, ...]], rulesdsl.Rules] = {}


def both(name: str, flags: tuple[str, ...] = native.C_FLAGS
         ) -> tuple[rulesdsl.Rules, rulesdsl.Rules]:
    """A shipped rule file on the plain path and built with these C compiler flags (each
    loaded once a session)."""
    path = ROOT / "games" / f"{name}.rules"
    for kind in ((), flags):
        if (name, kind) not in _loaded:
            backend = native.Cython(flags=kind) if kind else rulesdsl.loader.PLAIN
            _loaded[(name, kind)] = rulesdsl.load(path, backend=backend)
    plain, built = _loaded[(name, ())], _loaded[(name, flags)]
    assert plain.program.backend == "plain" and built.program.backend == "native"
    return plain, built


def game_of(rules: rulesdsl.Rules, players: int, seed: int, agents: list[str]) -> dict:
    """All that a game played by these agents comes to: its steps, its save, its result,
    its statistics, its record and what it said; or the error that stopped it."""
    game, failed = play_game(rules, players, seed, agents)
    if failed is not None:
        return {"failed": failed.diagnostic.to_json(), "steps": failed.steps}
    assert game is not None and game.result is not None
    return {"steps": game.history, "save": game.to_json(), "ranking": game.result.ranking,
            "scores": game.result.scores, "ended": game.ended_by,
            "statistics": game.statistics(),
            "record": make_record(rules, "f.rules", players, seed, game.history,
                                  agents).model_dump(),
            "lines": [line.text for line in game.lines(0)]}


def compare(name: str, seeds: range, agent_sets: list[list[str]],
            flags: tuple[str, ...] = native.C_FLAGS) -> int:
    """Play every seed with each set of agents at each number of players on both paths,
    built with `flags`; returns how many games were compared."""
    plain, built = both(name, flags)
    low, high = plain.player_range
    played = 0
    for players in sorted({low, min(high, low + 1)}):
        for agents in agent_sets:
            for seed in seeds:
                a = game_of(plain, players, seed, agents)
                b = game_of(built, players, seed, agents)
                assert a == b, f"{name}: {players} players, seed {seed}, {agents}"
                played += 1
    return played


@pytest.mark.slow  # builds, then plays 60 games on each path (36 in Yacht)
@needs_build
@pytest.mark.parametrize("name", SMALL)
def test_a_small_game_plays_the_same_built(name):
    # Yacht's greedy bot scores every option over four made-up games of the turn: 15 of its
    # games on each path took a minute and a half, so it plays 3
    greedy = range(1, 4) if name == "yacht/yacht" else range(1, 16)
    # built as users get them where other tests build them so anyway (tic-tac-toe, connect
    # four, Pig), the others without optimising: the same C, seconds less each
    flags = native.C_FLAGS if name in AS_USERS_GET_THEM else native.CHECK_FLAGS
    assert compare(name, range(1, 16), [["random"]], flags) + compare(
        name, greedy, [["greedy", "random"]], flags) >= 18


@needs_build
def test_a_study_stores_the_same_records_built():
    """The records `simulate` stores (balance/games.py) are the same with --native."""
    path = str(ROOT / "games" / "pig" / "pig.rules")
    plain, built = both("pig/pig")
    for number in range(1, 11):
        a = play_one(Plan(path, 2, ("random", "greedy")), plain, number)
        b = play_one(Plan(path, 2, ("random", "greedy"), native=True), built, number)
        assert a == b


@needs_build
def test_validate_finds_the_same_built():
    """`validate --native`: the program that counts what ran, built, plays, explores and
    counts as the plain one does."""
    from rulesdsl.validate import Options, validate_file

    path = str(ROOT / "games" / "pig" / "pig.rules")
    reports = [validate_file(path, Options(games=2, positions=200, seek=200, native=native)
                             ).to_json() for native in (False, True)]
    for report in reports:
        del report["seconds"]
    assert reports[0] == reports[1]


@needs_build
def test_a_search_bot_decides_the_same_built():
    """MCTS plays its copies of the game on the same program: the same choices."""
    plain, built = both("tictactoe/tictactoe")
    for seed in (1, 2):
        a = game_of(plain, 2, seed, ["mcts:sims=30", "random"])
        b = game_of(built, 2, seed, ["mcts:sims=30", "random"])
        assert a == b


@pytest.mark.slow  # 40 games of MCTS on each path, in two worker processes for one
@needs_build
def test_the_agents_round_robin_plays_the_same_games_built(capsys, monkeypatch):
    """`rulesdsl strength --native`: the same games, so the same scores pairing by
    pairing, in this process and in workers (which load the build the cache keeps)."""
    from rulesdsl.agents import strength
    from rulesdsl.cli import main

    path = str(ROOT / "games" / "pig" / "pig.rules")
    agents = ["random", "mcts:sims=20"]
    played_on: list[str] = []

    def play_game(rules, *rest):
        played_on.append(rules.program.backend)
        return real(rules, *rest)

    real = strength.play_game
    monkeypatch.setattr(strength, "play_game", play_game)
    plain = strength.ladder(path, agents, 2, games=10)
    for workers in (1, 2):
        built = strength.ladder(path, agents, 2, games=10, workers=workers, native=True)
        assert [p.scores for p in built.pairings] == [p.scores for p in plain.pairings]
    assert played_on == ["plain"] * 10 + ["native"] * 10  # the workers' are their own
    assert main(["strength", path, "--agents", ",".join(agents), "--games", "10",
                 "--native", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [r["score"] for r in out["ratings"]] == [r.score for r in plain.ratings]


@needs_build
def test_the_benchmark_pairs_games_and_searches_on_both_paths(capsys):
    """`python -m benchmarks.run --native` (benchmarks/native.py): random games and MCTS
    simulations a second on each path, their ratios, the same games and choices."""
    from benchmarks import native as bench
    from benchmarks import run

    got = bench.run_game("tictactoe", 0.05, 2, 1, sims=10)
    for key in ("plain_per_sec", "native_per_sec", "ratio", "plain_sims_per_sec",
                "native_sims_per_sec", "sims_ratio"):
        assert got[key] > 0
    assert got["same_games"] and got["same_choices"]
    run.main(["--native", "--games", "tictactoe", "--seconds", "0.02", "--repeat", "1",
              "--sims", "5"])
    header, row = capsys.readouterr().out.splitlines()
    assert "MCTS plain/s" in header and row.startswith("tictactoe") and row.count("yes") == 2


@needs_build
def test_perft_counts_the_same_built(capsys):
    from rulesdsl.cli import main

    counts = []
    for extra in ([], ["--native"]):
        assert main(["perft", str(ROOT / "games" / "connect_four" / "connect_four.rules"),
                     "--depth", "4", *extra]) == 0
        counts.append(capsys.readouterr().out)
    assert counts[0] == counts[1] == "2401\n"


@needs_build
def test_a_runtime_error_names_the_rule_file_line_built(monkeypatch):
    """A Python error inside the built code (here from a helper that fails without naming
    its rule) is reported at the rule file's line, as on the plain path."""
    from rulesdsl.compile import backends
    from rulesdsl.program import runtime

    made = runtime.make_helpers

    def helpers(env, families=runtime.FAMILIES):
        found = made(env, families)

        def _div(a, b, sid):
            return a // b  # no check: the error comes out of the generated function

        _div.__module__ = "rulesdsl.program.runtime"
        found["_div"] = _div
        return found

    monkeypatch.setattr(backends, "make_helpers", helpers)
    monkeypatch.setattr(native, "make_helpers", helpers)
    text = ('game "Divide"\nplayers 2\ncounter n = 0\nplay:\n    turns:\n'
            '        choose k in 1..2\n        let x = 3\n        set n = 10 / (n - n)\n'
            '        win current\n')
    places = []
    for backend in (rulesdsl.loader.PLAIN, native.Cython()):
        game = rulesdsl.load_text(text, "divide.rules", backend=backend).new_game(players=2)
        with pytest.raises(RulesError) as info:
            game.apply_index(0)
        span = info.value.diagnostics[0].span
        places.append((info.value.diagnostics[0].code, span.file, span.line, span.column))
    assert places[0] == places[1] == ("R003", "divide.rules", 8, 9)


def tictactoe_telling() -> tuple[rulesdsl.Rules, list[str]]:
    """Tic-tac-toe loaded on the compiled path, and what the path told."""
    told: list[str] = []
    rules = rulesdsl.load(ROOT / "games" / "tictactoe" / "tictactoe.rules",
                          backend=native.Cython(told.append))
    return rules, told


@needs_build
def test_the_run_time_helpers_are_built_from_their_own_source():
    """The built path gives the generated code the helpers (program/helpers/) built too,
    each from its module's source as it is: the same helpers, made by the same `bind`."""
    from rulesdsl.program import runtime
    from rulesdsl.program.helpers.faults import Faults

    faults = Faults(lambda *args, **kw: Exception(), [])
    built = native.built_helpers(lambda message: None)
    assert len(built) == len(runtime.FAMILIES)
    for family, module in zip(runtime.FAMILIES, built, strict=True):
        assert module.__name__ == family.__name__ and module is not family
        assert type(module.bind).__name__ == "cython_function_or_method"
        assert set(module.bind(faults)) == set(family.bind(faults))
    helpers = native.Cython().helpers(runtime.Env([], []))
    plain = runtime.make_helpers(runtime.Env([], []))
    assert helpers.keys() == plain.keys()
    functions = [name for name, f in plain.items() if type(f).__name__ == "function"]
    assert len(functions) > 20  # the others are the faults' methods, not built
    assert all(type(helpers[name]).__name__ == "cython_function_or_method"
               for name in functions)


@needs_build
def test_without_the_helpers_built_the_rules_still_are(monkeypatch):
    def fails(family, building, flags):
        raise native.NativeUnavailable("the C compiler failed on the module: x")

    monkeypatch.setattr(native, "_built_family", fails)
    rules, told = tictactoe_telling()
    assert rules.program.backend == "native"
    assert told == ["--native: the C compiler failed on the module: x: the run-time helpers "
                    "run on the plain path"]


def test_without_a_compiler_the_plain_path_runs_and_says_why(monkeypatch):
    monkeypatch.setattr(native, "missing", lambda: "no C compiler was found (set CC, ...)")
    rules, told = tictactoe_telling()
    assert rules.program.backend == "plain"
    assert told == ["--native: no C compiler was found (set CC, ...): the rules run on the "
                    "plain path"]
    game, failed = play_game(rules, 2, 1, ["random"])
    assert failed is None and game is not None and game.result is not None


def test_the_command_says_when_it_runs_the_plain_path(monkeypatch, capsys):
    from rulesdsl.cli import main

    monkeypatch.setattr(native, "missing", lambda: "Cython is not installed")
    code = main(["run", str(ROOT / "games" / "pig" / "pig.rules"), "--native", "--seed", "2"])
    err = capsys.readouterr().err
    assert code == 0
    assert "--native: Cython is not installed: the rules run on the plain path" in err


def test_a_module_the_sandbox_refuses_is_never_built(monkeypatch):
    def build(name, text, cython=()):
        raise AssertionError("built")

    monkeypatch.setattr(native, "_build", build)
    module = ast.parse("import os\n")
    with pytest.raises(UnsafeCode):
        native.Cython().load(module, "<rules x>", [-1, -1], {})


def test_a_kept_build_is_loaded_only_as_the_cache_signed_it(tmp_path, monkeypatch):
    """The build is kept in the user's cache folder, signed with its key: read back, it is
    not built again; tampered with or planted, it is built again (loading it would run
    its code)."""
    from rulesdsl.files import cachedir

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("RULESDSL_NO_CACHE", raising=False)
    builds: list[str] = []

    def build(name, text, cython=(), flags=native.C_FLAGS):
        builds.append(name)
        return b"built " + text.encode()

    monkeypatch.setattr(native, "_build", build)
    said: list[int] = []
    assert native._kept_or_built("rules_x", "one", lambda: said.append(1)) == b"built one"
    assert native._kept_or_built("rules_x", "one", lambda: said.append(1)) == b"built one"
    assert builds == ["rules_x"] and said == [1]
    (kept,) = (tmp_path / "rulesdsl").glob("rules_x*")
    kept.write_bytes(kept.read_bytes()[:-1] + b"!")   # tampered: built again
    assert native._kept_or_built("rules_x", "one", lambda: None) == b"built one"
    kept.write_bytes(b"planted")                        # not signed: built again
    assert native._kept_or_built("rules_x", "one", lambda: None) == b"built one"
    assert builds == ["rules_x"] * 3
    with cachedir.open_private() as folder:
        assert folder.read(kept.name) == b"built one"


def test_a_build_is_kept_by_its_flags_too(monkeypatch):
    """A module built without optimising (the tests' builds) is never the one a user's
    run loads: the flags are in the build's name, for the rules and the helpers alike."""
    assert native._digest("x", native.C_FLAGS) != native._digest("x", native.CHECK_FLAGS)
    seen: list[tuple[str, ...]] = []

    def kept(name, text, building, flags=native.C_FLAGS, module=None, cython=()):
        seen.append(flags)
        raise native.NativeUnavailable("stop here")

    monkeypatch.setattr(native, "_kept_or_built", kept)
    monkeypatch.setattr(native, "_helpers", {})
    monkeypatch.setattr(native, "missing", lambda: None)
    for flags in (native.C_FLAGS, native.CHECK_FLAGS):
        rules = rulesdsl.load(ROOT / "games" / "pig" / "pig.rules",
                              backend=native.Cython(flags=flags))
        assert rules.program.backend == "plain"
        assert seen == [flags, flags]   # the helpers, then the rules
        seen.clear()


def test_the_helpers_are_built_once_and_kept(tmp_path, monkeypatch):
    """The helpers' modules are built from their source under their own names, said once,
    kept in the cache: another process (here, the loaded ones forgotten) only loads them."""
    from rulesdsl.program import runtime

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("RULESDSL_NO_CACHE", raising=False)
    monkeypatch.setattr(native, "_helpers", {})
    builds: list[tuple[str, str, tuple]] = []

    def build(name, text, cython=(), flags=native.C_FLAGS):
        builds.append((name, text, cython))
        return b"built " + name.encode()

    monkeypatch.setattr(native, "_build", build)
    monkeypatch.setattr(native, "_instance", lambda name, built: (name, built))
    told: list[str] = []
    first = native.built_helpers(told.append)
    assert told == ["building the native run-time helpers (once: they are kept in the cache)"]
    assert [name for name, _, _ in builds] == [f.__name__ for f in runtime.FAMILIES]
    name, text, cython = builds[0]
    assert text == Path(runtime.FAMILIES[0].__file__).read_text(encoding="utf-8")
    assert cython == ("-X", "annotation_typing=False", "--module-name", name)
    monkeypatch.setattr(native, "_helpers", {})
    assert native.built_helpers(told.append) == first
    assert len(told) == 1 and len(builds) == len(runtime.FAMILIES)


def test_loop_variables_over_integer_tables_are_declared_c_integers():
    """The text built declares a loop variable `Py_ssize_t` only where that changes nothing
    but the speed (compile/typedloops.py): every value an int from an integer table (or the
    players), every read one Cython turns back into a Python int or compares as Python
    does. The module the plain path runs is left as it was."""
    from rulesdsl.compile import typedloops

    text = """
def Q1(st, B0, a0):
    d1 = K1
    for c1 in d1:
        if B0[c1] is not None and K2[c1] == a0:
            return c1
    return None

def Q2(st, B0):
    for c2 in K1:
        if B0[c2 + 1] is None:
            return True
    for c3 in K3:
        B0.append(c3)
    for c4 in st.pl:
        B0.append(f'{c4}')
    for c5 in K1:
        c5 = None
    for c6 in K1:
        B0.append(any(c6 == x for x in B0))
    for c7 in K1:
        B0.append(c7 or 0)
    for c8 in K1:
        B0.append([c8, (c8,)])
    for c9 in st.pl:
        B0.append(K2[c9] < c9)
    for c10 in K4:
        B0.append(c10)
    return [c11 for c11 in K1 if B0[c11] is None] + [c12 + 1 for c12 in K1]

def Q3(st, B0):
    return {c13: B0[c13] for c13 in st.pl}
"""
    module = ast.parse(text)
    namespace = {"K1": list(range(9)), "K2": [0] * 9, "K3": [1, None, 2],
                 "K4": [True, False]}
    body, typed = typedloops.declared(module, namespace)
    assert typed
    names = {fn.name: [k.arg for d in fn.decorator_list for k in d.keywords]
             for fn in body if isinstance(fn, ast.FunctionDef)}
    # c2: arithmetic; c3: a table with None; c4: formatted; c5: set again; c6: read in a
    # generator; c7: an operand of `or`; c10: a table of truth values; c12: arithmetic
    assert names == {"Q1": ["c1"], "Q2": ["c11", "c8", "c9"], "Q3": ["c13"]}
    assert all(not fn.decorator_list for fn in module.body)  # the plain path's, untouched
    big, _ = typedloops.declared(module, {"K1": [sys.maxsize + 1], "K2": [], "K3": [], "K4": []})
    assert big[0] is module.body[0]  # too big for a C integer either way: the players only
    assert [k.arg for d in big[1].decorator_list for k in d.keywords] == ["c9"]
    assert [k.arg for d in big[2].decorator_list for k in d.keywords] == ["c13"]
    built, _ = native.source_of(module, [-1] * 40, namespace)
    assert built.count("@cython.locals(") == 3 and "\nimport cython\n" in built


def test_a_truth_value_in_and_or_is_read_from_a_name():
    """Cython 3.3.1 builds `x and True or y`, x a truth value, into a crash: the text built
    reads such a truth value from a name; the statements stay line for line."""
    module = ast.parse("def f(a, b):\n    return not not a and True or b\n\n"
                       "def g(a):\n    return a == True\n")
    text, table = native.source_of(module, [-1, 7, 8, -1, 9, 10], {"_div": None})
    again = ast.parse(text)
    assert [n.targets[0].id for n in again.body[:3]] == [  # type: ignore[attr-defined]
        "_div", "_rules_true", "_rules_false"]
    assert "not not a and _rules_true or b" in text and "a == True" in text
    assert [table[s.lineno] for s in again.body[3].body + again.body[4].body] == [8, 10]
    plain = native.source_of(ast.parse("def g(a):\n    return a or b\n"), [-1, 1, 2], {})[0]
    assert "_rules_" not in plain


@needs_build
def test_a_truth_value_in_and_or_builds_to_what_python_gives():
    module = ast.parse("def f(a, b, k, c):\n"
                       "    if not not a and True or b if k == 4 else c:\n"
                       "        return 1\n"
                       "    return 0\n")
    text, _ = native.source_of(module, [-1] * 6, {})
    built = native._instance("rules_truths", native._build("rules_truths", text))
    # built from the text as it was, the second call crashed the process
    assert [built.f([], 0, 4, 1), built.f([1], 0, 4, 1), built.f([], [2], 4, 0),
            built.f([1], 0, 3, 0)] == [0, 1, 1, 0]


def test_the_text_built_maps_each_line_to_its_rule():
    """Each statement of the built text stands on a line whose rule is the one the plain
    path's line of the same statement names."""
    rules = rulesdsl.load(ROOT / "games" / "pig" / "pig.rules")
    program = rules.program
    from rulesdsl.compile.compiler import Compiler

    module, line_sids = Compiler(program.analysis, rules.sources).module()
    text, table = native.source_of(module, line_sids, {"_div": None, "c1": None})
    again = ast.parse(text)
    assert text.startswith(native.DIRECTIVES)
    assert [n.targets[0].id for n in again.body[:2]] == ["_div", "c1"]  # type: ignore
    ours = [table[s.lineno] for s in ast.walk(again) if isinstance(s, ast.stmt)]
    theirs = [line_sids[s.lineno] for s in ast.walk(module) if isinstance(s, ast.stmt)]
    assert ours[2:] == theirs and max(ours) >= 0


def test_every_shipped_rule_file_is_compared():
    """No shipped game or variant is left out of the comparisons."""
    assert set(SMALL) | set(SEED_FILES) == set(SHIPPED) and len(SHIPPED) >= 32


@pytest.mark.slow  # a build each (Cromlech's about 11 s of CPU), then 20 to 40 games a path
@needs_build
@pytest.mark.parametrize("name", SEED_FILES)
def test_a_seed_game_or_variant_plays_the_same_built(name):
    base = name.partition("/")[0] == name.partition("/")[2]   # a game's own file
    seeds = range(1, 21) if base else range(1, 11)
    assert compare(name, seeds, [["random"]], native.CHECK_FLAGS) >= len(seeds)


@pytest.mark.slow
@needs_build
@pytest.mark.skipif(not os.environ.get("RULESDSL_NATIVE_SEEDS"),
                    reason="building the seed games as users get them (-O2) takes minutes "
                           "each: RULESDSL_NATIVE_SEEDS=1 compares them")
@pytest.mark.parametrize("name", SEED_FILES)
def test_a_seed_game_plays_the_same_built_as_users_get_it(name):
    assert compare(name, range(1, 6), [["random"]]) >= 5
