"""Balance runs: every game stored in SQLite, the same rows whatever the number of workers,
an interrupted run resumed without losing or repeating a game, figures by seat and by turn
order, base against variant on the same seeds, and the bad databases people may give."""

from __future__ import annotations

import json
import re
import sqlite3

import pytest

import rulesdsl
from rulesdsl.balance.games import Batch, Plan, play_batch
from rulesdsl.balance.running import Backend, play_runs
from rulesdsl.balance.store import Store
from rulesdsl.balance.study import Options, run_study
from rulesdsl.cli import main

from .conftest import ROOT

TICTACTOE = str(ROOT / "games/tictactoe/tictactoe.rules")
PIG = str(ROOT / "games/pig/pig.rules")
PIG50 = str(ROOT / "games/pig/pig-to-50.rules")
CROMLECH = str(ROOT / "games/cromlech/cromlech.rules")


def study(paths: list[str], db: str, **kw) -> object:
    loaded = [rulesdsl.load(p) for p in paths]
    return run_study(paths, loaded, Options(players=kw.pop("players", 2), db=db, **kw))


def dump(db: str) -> list[tuple]:
    with Store(db, create=False) as store:
        return store.dump()


def test_the_database_does_not_depend_on_the_workers(tmp_path):
    one, two = str(tmp_path / "one.db"), str(tmp_path / "two.db")
    study([PIG, PIG50], one, games=24, seed=5, agents=("random",))
    study([PIG, PIG50], two, games=24, seed=5, agents=("random",),
          backend=Backend("local", 2))
    rows = dump(one)
    assert rows == dump(two)
    assert sum(1 for r in rows if r[0] == "games") == 48


def test_an_interrupted_run_resumes_where_it_stopped(tmp_path):
    whole, cut = str(tmp_path / "whole.db"), str(tmp_path / "cut.db")
    study([TICTACTOE], whole, games=30, seed=2)

    class Interrupted(Exception):
        pass

    class Stops(Backend):
        """A backend interrupted after its first batch."""

        def play(self, batches, spare=None):
            yield play_batch(batches[0])
            raise Interrupted

    with pytest.raises(Interrupted):
        study([TICTACTOE], cut, games=30, seed=2, backend=Stops("local", 4))
    with Store(cut) as store:
        held = store.numbers(store.runs()[0].id)
    assert 0 < len(held) < 30
    study([TICTACTOE], cut, games=30, seed=2)  # the same command again
    assert dump(cut) == dump(whole)


def test_more_games_later_extend_the_run(tmp_path):
    db = str(tmp_path / "s.db")
    study([PIG], db, games=10, seed=3)
    study([PIG], db, games=20, seed=3)
    other = str(tmp_path / "other.db")
    study([PIG], other, games=20, seed=3)
    assert dump(db) == dump(other)


def test_a_game_record_holds_what_a_designer_needs(tmp_path):
    db = str(tmp_path / "s.db")
    result = study([PIG], db, games=5, seed=1, agents=("first", "random"))
    g = result.outcomes[0].records[0]
    assert g.number == 1 and g.seed == 1 and g.agents == ["first", "random"]
    assert g.first == 0 and sorted(g.ranking) == [1, 2]
    assert g.scores is not None and g.decisions > 0 and g.ended_by == "rules"
    assert g.ending.startswith("pig.rules:")
    # the seed and the decisions replay the game
    with Store(db) as store:
        (stored,) = store.games(result.outcomes[0].run.id, upto=1, steps=True)
    assert stored.steps and stored.stats == g.stats
    game = rulesdsl.load(PIG).new_game(players=2, seed=g.seed)
    for step in stored.steps:
        game.apply_index(step)
    assert game.over and list(game.result.ranking) == g.ranking


def test_rotations_put_each_agent_in_each_seat():
    plan = Plan(PIG, 2, ("first", "random"), seed=4, rotations=2)
    assert [plan.game_seed(n) for n in (1, 2, 3, 4)] == [4, 4, 5, 5]
    assert plan.seat_agents(1) == ["first", "random"]
    assert plan.seat_agents(2) == ["random", "first"]


def test_figures_by_turn_order_when_the_first_player_is_drawn(tmp_path):
    """Cromlech draws its first player: by seat and by turn order differ."""
    result = study([CROMLECH], str(tmp_path / "c.db"), games=6, seed=1, players=3)
    f = result.outcomes[0].figures
    firsts = {g.first for g in result.outcomes[0].records}
    assert len(firsts) > 1
    assert f.position_share is not None and len(f.position_share) == 3
    assert sum(e.value for e in f.seat_share) == pytest.approx(1.0)
    assert sum(e.value for e in f.position_share) == pytest.approx(1.0)


def test_draws_count_half_a_win(tmp_path):
    result = study([TICTACTOE], str(tmp_path / "t.db"), games=60, seed=1)
    o = result.outcomes[0]
    draws = sum(1 for g in o.records if len(g.winners) == 2)
    assert draws > 0
    f = o.figures
    for p in range(2):
        assert f.seat_share[p].value == pytest.approx((f.seat_wins[p] + draws / 2) / 60)
        assert f.seat_share[p].low < f.seat_share[p].value < f.seat_share[p].high
    assert f.draws.value == pytest.approx(draws / 60)
    assert sum(e.value for e in f.endings.values()) == pytest.approx(1.0)


def test_declared_statistics_are_stored_and_summed_up(tmp_path):
    rules = tmp_path / "duel.rules"
    rules.write_text((ROOT / "tests/test_stats.py").read_text().split('DUEL = """')[1]
                     .split('"""')[0])
    result = study([str(rules)], str(tmp_path / "d.db"), games=30, seed=1)
    o = result.outcomes[0]
    assert o.records[0].stats["rolls"] == 6
    stats = o.figures.stats
    assert stats["rolls"]["all"]["estimate"].value == 6
    assert stats["ahead"]["all"]["kind"] == "rate"
    assert len(stats["sixes"]["seat"]) == 2 and len(stats["sixes"]["position"]) == 2
    sixes = stats["sixes"]["all"]["estimate"]
    assert sixes.low < sixes.value < sixes.high


# ---- the command line -------------------------------------------------------------------

def test_simulate_stores_by_default_and_says_where(capsys):
    assert main(["simulate", PIG, "--games", "4"]) == 0
    out = capsys.readouterr().out
    assert "games stored in simulations.db" in out
    with sqlite3.connect("simulations.db") as db:
        assert db.execute("SELECT count(*) FROM games").fetchone() == (4,)


def test_simulate_without_a_database(capsys, tmp_path):
    assert main(["simulate", PIG, "--games", "4", "--no-db", "--json"]) == 0
    assert "db" in json.loads(capsys.readouterr().out)
    assert not (tmp_path / "simulations.db").exists()


def test_simulate_json_carries_the_intervals(capsys):
    assert main(["simulate", TICTACTOE, "--games", "20", "--json", "--exact"]) == 0
    data = json.loads(capsys.readouterr().out)
    fig = data["figures"]
    assert len(fig["seat_share"]) == 2 and len(fig["position_share"]) == 2
    for key in ("decisive", "draws", "timeouts", "balance", "length"):
        assert fig[key]["low"] <= fig[key]["value"] <= fig[key]["high"]


def test_base_and_variant_side_by_side_with_a_test(capsys):
    assert main(["simulate", PIG, PIG50, "--games", "40", "--rotate", "--agents",
                 "first,random", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    (cmp,) = data["comparisons"]
    length = next(c for c in cmp["comparisons"] if c["metric"] == "length")
    assert length["difference"]["high"] < 0 and length["p"] < 0.001
    assert main(["simulate", PIG, PIG50, "--games", "20"]) == 0
    out = capsys.readouterr().out
    assert "paired differences on the same seeds" in out


def test_until_significant_stops_when_the_answer_is_clear(capsys):
    assert main(["simulate", PIG, PIG50, "--games", "2000", "--metric", "length",
                 "--until-significant", "--delta", "1", "--json"]) == 0
    (cmp,) = json.loads(capsys.readouterr().out)["comparisons"]
    assert cmp["decision"] == "lower" and cmp["games"] == 100  # at the first look


@pytest.mark.parametrize("args,message", [
    (["--until-significant"], "give a base and a variant"),
    (["--metric", "seat:9"], "--metric"),
    (["--metric", "stat:nosuch"], "no statistic named"),
    (["--address", "ray://x:1"], "--address is for --backend ray"),
])
def test_bad_simulate_arguments(capsys, args, message):
    assert main(["simulate", PIG, "--games", "2", *args]) == 2
    assert message in capsys.readouterr().err


def test_a_file_that_is_not_a_database(capsys, tmp_path):
    bad = tmp_path / "notes.txt"
    bad.write_text("not a database, just some notes\n" * 20)
    assert main(["simulate", PIG, "--games", "2", "--db", str(bad)]) == 1
    assert "error[G006]" in capsys.readouterr().err
    assert main(["export", str(tmp_path / "missing.db"), "out.csv"]) == 1
    assert "no such database" in capsys.readouterr().err


def test_play_runs_returns_the_failures_in_order(tmp_path):
    """A rule that stops a game: the run reports it, the games before it are kept."""
    fragile = tmp_path / "fragile.rules"
    fragile.write_text('game "Fragile"\nplayers 2\n\ncounter n = 0\n\nplay:\n    turns:\n'
                       '        choose k in 1..2\n        add k to n\n'
                       '        expect n < 7\n        if n >= 6:\n            win current\n')
    rules = rulesdsl.load(fragile)
    plan = Plan(str(fragile), 2, ("random",), seed=1)
    with Store(str(tmp_path / "f.db")) as store:
        run = store.run_for(str(fragile), rules.name, rules.digest, {}, plan, {}, rules.limit)
        failures = play_runs(store, [(run, plan)], 40, Backend())
        assert failures and failures[0][0].id == run.id
        assert len(store.numbers(run.id)) < 40
    assert Batch(plan, (1,)).keep_steps


# ---- export -----------------------------------------------------------------------------

def test_export_csv_a_row_per_game(capsys, tmp_path):
    assert main(["simulate", PIG, PIG50, "--games", "6", "--agents", "first,random"]) == 0
    assert main(["export", "simulations.db", "games.csv"]) == 0
    assert "wrote 12 games to games.csv" in capsys.readouterr().out
    import csv

    with open("games.csv", newline="") as f:
        table = list(csv.DictReader(f))
    assert len(table) == 12 and {r["run"] for r in table} == {"1", "2"}
    row = table[0]
    assert row["agent_1"] == "first" and row["agent_2"] == "random"
    assert float(row["share_1"]) + float(row["share_2"]) == 1.0
    assert int(row["score_1"]) >= 0 and row["first"] == "1"
    assert main(["export", "simulations.db", "one.csv", "--run", "2"]) == 0
    assert "wrote 6 games" in capsys.readouterr().out


def test_export_parquet(capsys, tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    assert main(["simulate", TICTACTOE, "--games", "5"]) == 0
    assert main(["export", "simulations.db", "games.parquet"]) == 0
    table = pq.read_table("games.parquet").to_pylist()
    assert [r["number"] for r in table] == [1, 2, 3, 4, 5]
    assert all(r["score_1"] is None for r in table)


def test_export_bad_arguments(capsys):
    assert main(["simulate", TICTACTOE, "--games", "2"]) == 0
    assert main(["export", "simulations.db", "games.xlsx"]) == 2
    assert ".csv or .parquet" in capsys.readouterr().err
    assert main(["export", "simulations.db", "games.csv", "--run", "9"]) == 1
    assert "has no run 9" in capsys.readouterr().err


# ---- report -----------------------------------------------------------------------------

@pytest.mark.slow
def test_report_writes_plots_and_a_page(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    rules = tmp_path / "duel.rules"
    rules.write_text((ROOT / "tests/test_stats.py").read_text().split('DUEL = """')[1]
                     .split('"""')[0])
    assert main(["simulate", PIG, PIG50, "--games", "12"]) == 0
    assert main(["simulate", str(rules), "--games", "12"]) == 0
    capsys.readouterr()
    assert main(["report", "simulations.db", "--out", "rep"]) == 0
    assert "wrote rep/index.html" in capsys.readouterr().out
    made = {p.name for p in (tmp_path / "rep").iterdir()}
    assert {"run1-wins.png", "run1-length.png", "run1-endings.png", "run1-scores.png",
            "run3-stats.png", "compare1-2.png", "index.html"} <= made
    page = (tmp_path / "rep/index.html").read_text()
    for name in made - {"index.html"}:
        assert f'src="{name}"' in page
    assert "Pig to 50" in page and "paired t test" in page and "95%" in page


def test_report_of_a_database_without_runs(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    from rulesdsl.balance.store import Store

    Store("empty.db").close()
    assert main(["report", "empty.db"]) == 1
    assert "holds no runs" in capsys.readouterr().err
    assert main(["report", "nowhere.db"]) == 1
    assert "no such database" in capsys.readouterr().err


def test_the_progress_bar_goes_to_stderr(capsys):
    assert main(["simulate", PIG, "--games", "30", "--progress", "on", "--json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["games"] == 30
    assert "30/30" in err and "games/s" in err


def test_figures_by_agent_with_seats_rotated(tmp_path):
    result = study([TICTACTOE], str(tmp_path / "a.db"), games=40, seed=1,
                   agents=("greedy", "random"), rotate=True)
    f = result.outcomes[0].figures
    assert f.agent_share is not None and f.agent_even == {"greedy": 0.5, "random": 0.5}
    assert f.agent_share["greedy"].value + f.agent_share["random"].value == pytest.approx(1)
    assert f.agent_share["greedy"].low > 0.5  # greedy takes the win a random player leaves
    assert result.outcomes[0].figures.seat_share[0].value < 1
    assert study([TICTACTOE], str(tmp_path / "b.db"), games=4).outcomes[0].figures \
        .agent_share is None


@pytest.mark.slow
def test_the_study_script_names_files_that_check(capsys):
    """docs/studies/run.sh studies rule files that pass `rulesdsl check`."""
    script = (ROOT / "docs/studies/run.sh").read_text(encoding="utf-8")
    files = sorted(set(re.findall(r"games/[\w/-]+\.rules", script)))
    assert "games/cronberg/parks_triple.rules" in files
    for f in files:
        assert main(["check", str(ROOT / f)]) == 0, f


def test_the_games_a_store_keeps_are_those_it_reads_back(tmp_path):
    """A run the store made is summed up from the games it kept as it stored them: the
    same records as reading the database afresh gives, statistics of every shape and in
    any order included."""
    from rulesdsl.balance.games import GameRecord

    db = str(tmp_path / "kept.db")
    plan = Plan(PIG, 2, ("random", "greedy"))
    teams = [[0], [1]]
    made = [GameRecord(n, n, 0, ["random", "greedy"], n % 2, [1, 2] if n % 3 else [2, 1],
                       [n, 2 * n] if n % 4 else None, 10 + n, "rules", "pig.rules:9 win",
                       {"z": n, "a": [True, False], "m": [n, n + 1], "b": n % 2 == 0},
                       [1, 0, n]) for n in range(1, 8)]
    with Store(db) as store:
        run = store.run_for(PIG, "Pig", "digest", {}, plan, {"z": "game"}, 100, teams)
        store.add(run.id, made[4:])
        store.add(run.id, made[:4])
        kept = store.games(run.id)
        upto = store.games(run.id, 3)
    with Store(db, create=False) as again:
        assert kept == again.games(run.id)
        assert upto == again.games(run.id, 3) == kept[:3]
        assert [list(g.stats) for g in kept] == [list(g.stats) for g in again.games(run.id)]
        assert again.games(run.id, steps=True)[0].steps == [1, 0, 1]


def test_a_ray_cluster_out_of_reach_is_g006_with_what_it_needs(monkeypatch):
    """A cluster that refuses the command (Ray 2.59 and later authenticate with a token)
    or is not there: an error for people naming the address, what Ray said, and what a
    cluster of several machines needs; nothing is reached (Ray here is a stand-in)."""
    import sys
    import types

    from rulesdsl.balance.ray_backend import play_on_ray
    from rulesdsl.diagnostics import RulesError

    def init(**options):
        raise ConnectionError("token authentication failed:\n  UNAUTHENTICATED")

    stand_in = types.SimpleNamespace(is_initialized=lambda: False, init=init)
    monkeypatch.setitem(sys.modules, "ray", stand_in)
    batch = Batch(Plan(PIG, 2, ("random",)), (1, 2))
    with pytest.raises(RulesError) as info:
        list(play_on_ray([batch], "head.example:6379", 2))
    diag = info.value.diagnostics[0]
    assert diag.code == "G006"
    assert diag.message == ("cannot start or reach the Ray cluster at head.example:6379: "
                            "ConnectionError: token authentication failed: UNAUTHENTICATED")
    assert diag.hint is not None and "RAY_AUTH_TOKEN" in diag.hint and "HOST:PORT" in diag.hint


def test_the_rows_made_where_the_games_are_played_are_the_stores_own(tmp_path):
    """A worker makes the rows of its batch and sends them alone (rows.py): the database
    and the games the store keeps in memory are those it makes from the games themselves,
    and those it reads back."""
    from rulesdsl.balance.rows import play_for_store

    rules = rulesdsl.load(CROMLECH)
    plan = Plan(CROMLECH, 2, ("random",), seed=4, coverage=True)
    dumps, kept = [], []
    for in_worker in (True, False):
        with Store(str(tmp_path / f"{in_worker}.db")) as store:
            run = store.run_for(CROMLECH, rules.name, rules.digest, {}, plan, {}, rules.limit)
            batch = Batch(plan, (1, 2, 3), run=run.id)
            if in_worker:
                result = play_for_store(batch)
                assert result.rows is not None and len(result.rows[1]) == 3
                assert len(result.rows[0]) == 3 and not result.records
                store.add(run.id, result.records, result.rows)
            else:
                store.add(run.id, play_batch(batch).records)
            dumps.append(store.dump())
            kept.append(store.games(run.id))
            assert kept[-1] == list(store.iter_games(run.id))
    assert dumps[0] == dumps[1] and kept[0] == kept[1]
