"""The benchmarks' figures carry their intervals: the interval of a score, all wins and
losses (Wilson's) or with draws (from the spread)."""

from __future__ import annotations

import pytest

from benchmarks.stats import mean_interval


def test_a_score_of_wins_and_losses_has_wilsons_interval():
    mean, low, high = mean_interval([1, 1, 1, 0, 1, 1])
    assert mean == pytest.approx(5 / 6)
    assert (round(low, 3), round(high, 3)) == (0.436, 0.970)  # Wilson, 5 of 6


def test_a_score_with_draws_has_an_interval_around_its_mean():
    mean, low, high = mean_interval([1, 0.5, 0, 1, 0.5, 1])
    assert low < mean < high and mean == pytest.approx(4 / 6)
    assert mean_interval([]) == (0.0, 0.0, 1.0)


def test_paired_reads_the_one_row_of_a_table_and_refuses_several():
    from benchmarks.paired import one_row

    assert one_row({"per_sec": 3}, "playouts") == {"per_sec": 3}
    assert one_row([{"game": "Pig", "mcts": 900}], "search_speed") == {"game": "Pig",
                                                                       "mcts": 900}
    with pytest.raises(SystemExit, match="2 rows.*--only"):
        one_row([{"mcts": 1}, {"mcts": 2}], "search_speed")


def test_the_median_of_paired_ratios_has_an_interval_from_order_statistics():
    from benchmarks.paired import median_interval

    # the usual table of the sign test: 9 values, the 2nd and 8th (96.1%); 20, the 6th
    # and 15th (95.9%); five or fewer cannot reach 95%: the least and the greatest
    assert median_interval([float(x) for x in range(9, 0, -1)]) == (5, 2, 8, 0.9609375)
    median, low, high, coverage = median_interval([float(x) for x in range(1, 21)])
    assert (median, low, high, round(coverage, 4)) == (10.5, 6, 15, 0.9586)
    assert median_interval([1.2, 0.9, 1.1, 1.0, 1.3]) == (1.1, 0.9, 1.3, 0.9375)
    with pytest.raises(ValueError):
        median_interval([])


@pytest.mark.slow
def test_paired_rounds_run_each_checkout_in_turn_and_agree_on_the_games(capsys):
    from benchmarks.paired import main

    from .conftest import ROOT

    main(["--rounds", "2", "--json", str(ROOT), str(ROOT), "--", "playouts",
          "games/tictactoe/tictactoe.rules", "--games", "3"])
    import json

    out = json.loads(capsys.readouterr().out)
    assert out["rounds"] == 2 and len(out["ratios"]) == 2
    assert out["low"] <= out["ratio"] <= out["high"] and out["same"]["decisions"] > 0


@pytest.mark.parametrize("argv, message", [
    (["A", "B"], "usage: python -m benchmarks.paired"),
    ([".", ".", "--", "no_such_bench"], "no benchmark 'no_such_bench': one of"),
    ([".", ".", "--", "playouts", "games/tictactoe/tictactoe.rules", "--games", "1"],
     None),
])
def test_paired_rounds_say_what_is_wrong(argv, message, tmp_path, monkeypatch, capsys):
    from benchmarks.paired import main

    from .conftest import ROOT

    monkeypatch.chdir(ROOT)
    if message is None:  # a folder that is not a checkout
        argv = [str(tmp_path), *argv[1:]]
        message = "is not a checkout of rulesdsl"
    with pytest.raises(SystemExit) as err:
        main(argv)
    assert message in str(err.value) + capsys.readouterr().err


def test_paired_rounds_stop_when_the_two_sides_played_different_games(monkeypatch):
    import benchmarks.paired as paired

    from .conftest import ROOT

    def fake(checkout, name, args):
        return {"games_per_sec": 10.0, "decisions": 100 if checkout == ROOT else 101}

    monkeypatch.setattr(paired, "run_once", fake)
    with pytest.raises(SystemExit, match="played different games: decisions 100, 101"):
        paired.compare(ROOT, ROOT / "tests", "playouts", [], rounds=3)


def test_a_switch_of_the_compiler_off_and_on_plays_the_same_games(capsys):
    import json
    from pathlib import Path

    from benchmarks import alternate

    tictactoe = str(Path(__file__).resolve().parents[1] / "games/tictactoe/tictactoe.rules")
    alternate.main(["unroll", tictactoe, "--games", "3",
                    "--rounds", "2", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert out["switch"] == "unroll" and out["players"] == 2 and out["decisions"] > 15
    assert out["off_seconds"] > 0 and out["on_seconds"] > 0 and out["ratio"] > 0
    off = alternate.compiled("unroll", False, tictactoe)
    assert ".append(" not in off.program.code  # off: the comprehensions stay
    with pytest.raises(SystemExit):
        alternate.main(["no-such-switch", tictactoe])


def test_a_switch_off_and_on_times_the_compiling_with_compile(capsys):
    import json
    from pathlib import Path

    from benchmarks import alternate

    tictactoe = str(Path(__file__).resolve().parents[1] / "games/tictactoe/tictactoe.rules")
    alternate.main(["live-blocks", tictactoe, "--compile", "--rounds", "2", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert out["switch"] == "live-blocks" and out["rounds"] == 2 and "games" not in out
    assert out["off_seconds"] > 0 and out["on_seconds"] > 0 and out["ratio"] > 0
    alternate.main(["range-items", tictactoe, "--compile", "--rounds", "1", "--json"])
    assert json.loads(capsys.readouterr().out)["switch"] == "range-items"


def test_the_territory_helpers_are_timed_over_the_calls_of_random_games(capsys):
    import json
    from pathlib import Path

    import rulesdsl
    from benchmarks import territory

    skye = Path(__file__).resolve().parents[1] / "games/isle_of_skye/isle_of_skye.rules"
    territory.main([str(skye), "--players", "2", "--games", "1", "--repeat", "1", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert out["decisions"] > 50 and out["per_sec"] > 0
    assert set(out["microseconds"]) == {"_tareas", "_tspots", "_thas_spot", "_tcentre_done"}
    assert all(out["calls"][name] > 0 for name in territory.HELPERS)
    # the calls are kept by wrapping the rules' helpers, which are put back after
    rules = rulesdsl.load(skye)
    namespace = territory.namespace_of(rules)
    before = {name: namespace[name] for name in territory.HELPERS}
    found, decisions = territory.calls_of(rules, 2, 1)
    assert decisions == out["decisions"]
    assert {name: namespace[name] for name in territory.HELPERS} == before
    assert all(found[name][0] is before[name] for name in territory.HELPERS)


def test_start_pairs_each_checkout_with_the_first_run_by_run():
    from pathlib import Path

    from benchmarks.start import STATES, paired_table

    a, b = Path("A"), Path("B")
    times = {(a, s): [1.0, 2.0, 1.5, 1.2, 1.1] for s in STATES}
    # B takes half of A's time in every round, however much the rounds drift
    times.update({(b, s): [t / 2 for t in times[a, s]] for s in STATES})
    times[b, "warm"] = [1.0, 2.0, 1.5, 1.2, 1.1]
    table = paired_table(times, [a, b])
    row = next(line for line in table.splitlines() if line.startswith("| B |"))
    cells = [c.strip() for c in row.strip("|").split("|")][1:]
    assert dict(zip(STATES, cells))["cold"] == "2.000 (2.000 - 2.000, 94%)"
    assert dict(zip(STATES, cells))["warm"] == "1.000 (1.000 - 1.000, 94%)"


def test_the_parse_benchmark_times_the_parse_of_a_rule_file(capsys):
    import json

    from benchmarks.parse import main

    from .conftest import ROOT

    rules = ROOT / "games/tictactoe/tictactoe.rules"
    main(["--rules", str(rules), "--seconds", "0.01", "--rounds", "2", "--json"])
    figures = json.loads(capsys.readouterr().out)
    assert figures["lines"] == rules.read_text(encoding="utf-8").count("\n")
    assert figures["low"] <= figures["per_sec"] <= figures["high"]
    assert figures["ms_per_parse"] == pytest.approx(1000 / figures["per_sec"], rel=0.01)
