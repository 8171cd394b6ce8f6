"""The engine's speed work keeps what it must: copies that share zones stay independent,
emptiness tests that stop at a hit give the same answers, random agents are as seeded, and
`simulate` compiles a rule file once (docs/performance.md has the figures)."""

from __future__ import annotations

import ast
import random
from collections import Counter

import rulesdsl
from rulesdsl.agents import make_agent
from rulesdsl.cli import main
from rulesdsl.interpreter.observation import Observation
from rulesdsl.interpreter.state import Generator

from .conftest import ROOT

CROMLECH = ROOT / "games" / "cromlech" / "cromlech.rules"
TICTACTOE = str(ROOT / "games" / "tictactoe" / "tictactoe.rules")

TARGETS = """game "Targets"
players 1
kind Token(value):
    1
    2
    3
zone box: Token
zone out: Token
counter tested = 0
define in_box(x) = [t for t in box where value of t == x]
define pick(x) = if x == 1 then in_box(x) else if x == 2 then [] else [t for t in box]
setup:
    move Token[1] to box
    move Token[3] to box
play:
    if in_box(1) is not empty:
        add 1 to tested
    if in_box(2) is empty:
        add 10 to tested
    if pick(1) is not empty and pick(2) is empty and pick(3) is not empty:
        add 100 to tested
    move Token[1] from box to out
    move Token[3] from box to out
    if pick(3) is empty:
        add 1000 to tested
    end game
"""


def test_emptiness_tests_stop_at_a_hit_and_answer_the_same():
    rules = rulesdsl.load_text(TARGETS, "targets.rules")
    game = rules.new_game(players=1)
    assert game.over and game.counter("tested") == 1111
    # no test of emptiness builds its list: each is a loop that stops at a hit
    tree = ast.parse(rules.program.code)
    nots = [n.operand for n in ast.walk(tree) if isinstance(n, ast.UnaryOp)
            and isinstance(n.op, ast.Not)]
    assert nots and not any(isinstance(y, ast.ListComp) for x in nots for y in ast.walk(x))


def _midgame(rules: rulesdsl.Rules, seed: int, decisions: int) -> rulesdsl.Game:
    game = rules.new_game(players=4, seed=seed)
    rng = random.Random(seed)
    for _ in range(decisions):
        game.apply_index(rng.randrange(game.num_options()))
    return game


def test_a_copy_shares_zones_until_either_side_changes_one(load_rules):
    rules, seed = load_rules(CROMLECH), 1
    game = _midgame(rules, seed, 120)
    before = game.state_key()
    copy = game.copy()
    rng = random.Random(seed + 100)
    while not copy.over and copy.decisions < game.decisions + 60:
        copy.apply_index(rng.randrange(copy.num_options()))
    assert game.state_key() == before  # the original is as it was
    # and the original goes on as if it had never been copied
    alone = _midgame(rules, seed, 120)
    rng_a, rng_b = random.Random(seed + 7), random.Random(seed + 7)
    for _ in range(60):
        if game.over:
            break
        game.apply_index(rng_a.randrange(game.num_options()))
        alone.apply_index(rng_b.randrange(alone.num_options()))
        assert game.state_key() == alone.state_key()


def test_random_agents_are_seeded_and_uniform():
    rules = rulesdsl.load(TICTACTOE)
    game = rules.new_game(players=2, seed=1)
    observation = Observation(game, 0, 9)
    picks = [make_agent("random", 5).choose(observation) for _ in range(3)]
    assert len(set(picks)) == 1  # the same seed, the same choice
    agent = make_agent("random", 6)
    counts = Counter(agent.choose(observation) for _ in range(9000))
    assert sorted(counts) == list(range(9))
    assert all(800 < n < 1200 for n in counts.values())


def test_simulate_compiles_the_rule_file_once(monkeypatch, capsys):
    from rulesdsl.balance import cli as balance_cli
    from rulesdsl.balance import statline

    loads = []
    real = statline.load_with_stats

    def counted(*args, **kwargs):
        loads.append(args[0])
        return real(*args, **kwargs)

    # what a worker loads its plan's rules with (balance/games.py rules_of); the command's
    # own load (balance/cli.py) is not counted
    monkeypatch.setattr(statline, "load_with_stats", counted)
    monkeypatch.setattr(balance_cli, "load_with_stats", real)
    assert main(["simulate", TICTACTOE, "--games", "20", "--no-db", "--json"]) == 0
    assert '"games": 20' in capsys.readouterr().out
    assert loads == []  # the workers' games use the rules the command has loaded


def test_calls_of_pure_functions_are_worked_out_once(load_rules):
    rules = load_rules(ROOT / "games" / "cleromancy" / "cleromancy.rules")
    tree = ast.parse(rules.program.code)
    remembered = []
    for fn in tree.body:
        if isinstance(fn, ast.FunctionDef) and any(
                isinstance(n, ast.NamedExpr) for n in ast.walk(fn)):
            remembered.append(fn.name)
    # `keep_of(p)` inside `near_keep` and inside the loop over the field's cells
    assert any(name[0] in "QDN" for name in remembered)
    # in a block, which changes the state, a call is remembered for one statement only:
    # its flag is cleared just before that statement
    blocks = [fn for fn in tree.body if isinstance(fn, ast.FunctionDef) and fn.name[0] == "S"]
    assert any(fn.name in remembered for fn in blocks)  # `summon`'s choice of a cell
    for fn in blocks:
        # a loop that unroll.py wrote for a comprehension is one statement: its flags are
        # cleared before it, not before each test inside it
        inside_unrolled = {id(n) for loop in ast.walk(fn) if _unrolled(loop)
                           for n in ast.walk(loop) if n is not loop}
        for node in ast.walk(fn):
            for stmts in (getattr(node, "body", []), getattr(node, "orelse", [])):
                if not isinstance(stmts, list):
                    continue  # the branches of `a if t else b`
                for k, stmt in enumerate(stmts):
                    if id(stmt) in inside_unrolled:
                        continue
                    own = list(ast.walk(stmt)) if _unrolled(stmt) else _own_nodes(stmt)
                    flags = {n.target.id for n in own
                             if isinstance(n, ast.NamedExpr) and n.target.id[0] == "u"}
                    cleared = set()
                    for before in reversed(stmts[:k]):
                        if _written_before_a_loop(before):
                            continue  # unroll.py's list and counting, part of the statement
                        target = before.targets[0] if isinstance(before, ast.Assign) else None
                        if isinstance(target, ast.Name) and target.id[0] == "m" and \
                                isinstance(before.value, ast.Constant) and \
                                before.value.value is None:  # type: ignore[union-attr]
                            continue  # the memo's value made none beside its flag (memo.py)
                        if not (isinstance(before, ast.Assign)
                                and isinstance(before.value, ast.Constant)
                                and before.value.value is False):
                            break
                        cleared.add(before.targets[0].id)  # type: ignore[attr-defined]
                    assert flags <= cleared, (fn.name, ast.unparse(stmt))


def _unrolled(node: ast.AST) -> bool:
    """A loop unroll.py wrote for a list comprehension: its innermost statement appends."""
    if not isinstance(node, ast.For):
        return False
    while isinstance(node, (ast.For, ast.If)) and len(node.body) == 1 and not node.orelse:
        node = node.body[0]
        if isinstance(node, ast.Expr):
            return ast.unparse(node).split("(")[0].endswith(".append")
    return False


def _written_before_a_loop(stmt: ast.stmt) -> bool:
    """What unroll.py writes before the loop a comprehension became: the empty list, the
    items of a counted loop (`x1 = Z[3]`) and their counting (`st.steps += ...`, the test
    of the budget)."""
    if isinstance(stmt, ast.Assign):
        value = stmt.value
        return (isinstance(value, ast.List) and not value.elts) or \
            ast.unparse(stmt.targets[0]).startswith("x")
    if isinstance(stmt, ast.AugAssign):
        return ast.unparse(stmt.target) == "st.steps"
    return isinstance(stmt, ast.If) and isinstance(stmt.body[0], ast.Raise) and \
        "st.steps" in ast.unparse(stmt.test)


def _own_nodes(stmt: ast.stmt) -> list[ast.AST]:
    """The nodes of a statement's own expressions, not of the statements inside it."""
    out: list[ast.AST] = []
    for field, value in ast.iter_fields(stmt):
        if field in ("body", "orelse"):
            continue
        for child in value if isinstance(value, list) else [value]:
            if isinstance(child, ast.AST):
                out += list(ast.walk(child))
    return out


def test_the_benchmark_times_the_engine_simulate_and_the_rules_alone():
    """`python -m benchmarks.run` reports five rates per game; the rules-alone loop plays
    whole games (each ends with a result) on every game it times; the hand-written games
    drawing from the engine's generator play the same games as the engine's draws make."""
    from benchmarks import run

    got = run.run_game("pig", 0.05, 1, 1)
    for key in ("rulesdsl_per_sec", "simulate_per_sec", "handwritten_per_sec", "ratio",
                "simulate_ratio", "rules_alone_ratio", "own_generator_ratio"):
        assert got[key] > 0
    draws = run.EngineDraws(7)
    again = Generator(7)
    assert [draws.randrange(n) for n in range(1, 60)] == [again.rand(n) for n in range(1, 60)]
    for name, (path, module) in run.GAMES.items():
        rules = rulesdsl.load(str(ROOT / path))
        games, _ = run.bench_rules_alone(rules, module.PLAYERS, 0.0, 1)
        assert games == 1, name


def test_commands_that_answer_and_end_run_without_the_cycle_collector(monkeypatch, tmp_path):
    """`check` (and the other commands that read files, answer and end) runs with Python's
    cycle collector off from start to end; the commands that play or serve for as long as
    asked have it on; in-process, the collector is as it was afterwards."""
    import gc

    from rulesdsl import cli

    seen = {}

    def spy(name):
        def command(args):
            seen[name] = gc.isenabled()
            return 0
        return command

    for name in ("check", "run", "simulate", "ast"):
        monkeypatch.setitem(cli.COMMANDS, name, cli.COMMANDS[name]._replace(run=spy(name)))
    assert gc.isenabled()
    for argv in (["check", TICTACTOE], ["run", TICTACTOE], ["simulate", TICTACTOE],
                 ["ast", TICTACTOE]):
        assert main(argv) == 0
        assert gc.isenabled()
    assert seen == {"check": False, "run": True, "simulate": True, "ast": False}


def test_a_check_makes_no_collection_and_two_files_one_between(tmp_path, monkeypatch):
    """A real check of a rule file never read before: no collection at all; of two more,
    one, between them (what the first of them made is let go)."""
    import gc

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    files = []
    for n in range(3):
        f = tmp_path / f"pig{n}.rules"
        f.write_text((ROOT / "games" / "pig" / "pig.rules").read_text(encoding="utf-8")
                     + f"# copy {n}\n", encoding="utf-8")
        files.append(str(f))
    runs = []

    def count(phase, info):
        if phase == "start":
            runs.append(info["generation"])

    gc.callbacks.append(count)
    try:
        assert main(["check", files[0]]) == 0
        one = len(runs)
        assert main(["check", *files[1:]]) == 0
    finally:
        gc.callbacks.remove(count)
    assert one == 0 and runs == [2]


def test_the_installed_command_is_the_entry_that_leaves_the_collector_off():
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'rulesdsl = "rulesdsl.cli:command"' in text


def test_rules_loaded_for_the_whole_process_are_frozen_only_in_the_commands_own(monkeypatch):
    """`run`, `play`, `perft`, `simulate` and `serve` keep their rules to the end: in the
    command's own process they are frozen (the collector never looks through them);
    called in-process, nothing is frozen."""
    import gc

    from rulesdsl import cli

    before = gc.get_freeze_count()
    assert main(["perft", TICTACTOE, "--depth", "1"]) == 0
    assert gc.get_freeze_count() == before and gc.isenabled()
    monkeypatch.setattr(cli, "_own_process", True)
    try:
        assert main(["perft", TICTACTOE, "--depth", "1"]) == 0
        assert gc.get_freeze_count() > before and gc.isenabled()
        gc.unfreeze()
        before = gc.get_freeze_count()
        assert main(["simulate", TICTACTOE, "--games", "2", "--no-db", "--workers", "1"]) == 0
        assert gc.get_freeze_count() > before and gc.isenabled()
    finally:
        gc.unfreeze()
