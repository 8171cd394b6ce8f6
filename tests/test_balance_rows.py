"""The rows a worker makes for the store and the command reads back (rows.py), the worker
processes that play the batches (workers.py), and the figures worked out once per ranking:
the same texts as `json.dumps`, the same games, the same figures, whatever the values."""

from __future__ import annotations

import json
import math
import multiprocessing
import os
import pickle

import pytest

from rulesdsl.balance import workers
from rulesdsl.balance.figures import figures
from rulesdsl.balance.games import Batch, BatchResult, GameRecord, Plan, play_batch
from rulesdsl.balance.rows import game_rows, play_to_send, read_rows, received
from rulesdsl.balance.workers import play_in_workers
from rulesdsl.diagnostics import RulesError

from .conftest import ROOT

PIG = str(ROOT / "games/pig/pig.rules")
TEAMS = str(ROOT / "games/cromlech/alignment.rules")


def record(number: int, agents: list[str], ranking: list, scores: list | None, stats: dict,
           steps: list, fired: dict | None = None) -> GameRecord:
    return GameRecord(number, 7 + number, 0, agents, number % 2, ranking, scores, len(steps),
                      "rules", "pig.rules:3 «end» \"quoted\"", stats, steps, fired=fired,
                      turns=3 if fired is not None else None)


TRICKY = [
    record(1, ["random", "greedy"], [1, 2], [100, 42], {}, [0, 1, 1, 0]),
    record(2, ["random", "greedy"], [2, 1], None, {"b": [1, 2.5], "a": {"z": None, "é": True}},
           []),
    record(3, ["greedy", "random"], [1, 1], [1.5, -0.0], {"x": float("nan")}, [3] * 40),
    record(4, ["mcts:sims=5", "naïve \"bot\" 😀"], [True, 2], [True, 1],
           {"flag": False, "n": -3}, [0], fired={2: [1, 0, 0], 10: [0, 3, 1]}),
    record(5, ["greedy", "random"], [1, 2], [float("inf"), -float("inf")], {"k": []},
           [1, 0]),
    record(6, ["random", "greedy"], [1.0, 2], [1, 2], {}, [0, 1]),
]


def test_the_rows_hold_json_dumps_own_texts():
    """Each text of a row is json.dumps' (the statistics and what fired with sorted keys),
    whatever the values: unicode, nested statistics, no scores, floats, true and 1."""
    games, fired = game_rows(9, TRICKY)
    for g, row in zip(TRICKY, games):
        assert row == (9, g.number, g.seed, g.rotation, json.dumps(g.agents), g.first,
                       json.dumps(g.ranking),
                       json.dumps(g.scores) if g.scores is not None else None, g.decisions,
                       g.ended_by, g.ending, json.dumps(g.stats, sort_keys=True),
                       json.dumps(g.steps))
    assert games[3][6] == "[true, 2]" and games[5][6] == "[1.0, 2]"
    assert fired == [(9, 4, json.dumps(TRICKY[3].fired, sort_keys=True), 3)]


def test_the_games_read_from_rows_are_json_loads_own_each_with_lists_of_its_own():
    rows = game_rows(9, TRICKY)
    read = read_rows(rows, [[0], [1]])
    for g, r in zip(TRICKY, read):
        assert r.agents == g.agents and r.ranking == json.loads(json.dumps(g.ranking))
        assert r.teams == [[0], [1]] and r.steps == [] and r.turns == g.turns
        if g.scores is None:
            assert r.scores is None
        else:
            assert json.dumps(r.scores) == json.dumps(g.scores)
        assert json.dumps(r.stats, sort_keys=True) == json.dumps(g.stats, sort_keys=True)
    # games 1 and 6 came to texts of the same agents: each its own list all the same
    assert read[0].agents == read[5].agents and read[0].agents is not read[5].agents
    read[0].agents.append("changed")
    assert read[5].agents == ["random", "greedy"]
    assert math.isnan(read[2].stats["x"])


def test_a_record_sent_as_its_fields_is_the_same_record():
    batch = Batch(Plan(PIG, 2, ("random",), seed=3, coverage=True), (1, 2), run=1)
    played = play_batch(batch).records
    sent = pickle.loads(pickle.dumps(play_to_send(batch)))
    assert not sent.records and received(sent).records == played
    assert all(g.fired is not None and g.turns is not None for g in played)
    assert TRICKY == [GameRecord(*g.fields()) for g in TRICKY]


def test_the_figures_count_sole_wins_of_seats_and_teams_as_the_games_say():
    """The figures work out each ranking's winners once: the wins by seat and by team are
    the games' own, one at a time."""
    agents = ["random"] * 4
    rankings = [[1, 2, 1, 2], [2, 1, 2, 1], [1, 1, 1, 1], [1, 2, 3, 4], [1, 2, 1, 2]]
    for teams in ([[0, 2], [1, 3]], None):
        games = [GameRecord(n, n, 0, agents, 0, r, None, 5, "rules", "end", teams=teams)
                 for n, r in enumerate(rankings, 1)]
        f = figures(games, 4, {})
        assert f.seat_wins == [sum(1 for g in games if g.decisive and p in g.winners)
                               for p in range(4)]
        assert f.decisive.value == sum(g.decisive for g in games) / len(games)
        assert [e.value for e in f.seat_share] == [
            sum(g.shares()[p] for g in games) / len(games) for p in range(4)]
        if teams is not None:
            assert f.team_wins == [2, 1]
    assert f.seat_wins == [1, 0, 0, 0]


def pig_batches(numbers: list[tuple[int, ...]], path: str = PIG) -> list[Batch]:
    return [Batch(Plan(path, 2, ("random",), seed=3), n, run=1) for n in numbers]


def numbers(result: BatchResult) -> list[int]:
    """The game numbers of a result: of its rows when the worker made them (several
    workers), else of its records."""
    if result.rows is not None:
        return [row[1] for row in result.rows[0]]
    return [g.number for g in result.records]


def test_the_workers_hand_back_every_batch_once_in_the_order_played():
    """Several workers make the rows, one sends the records: the games the same."""
    batches = pig_batches([(1, 2), (3,), (4, 5, 6), (7,), (8, 9)])
    one = list(play_in_workers(batches, 1))
    assert [n for result in one for n in numbers(result)] == list(range(1, 10))
    assert all(r.rows is None and r.fields is None for r in one)
    two = list(play_in_workers(batches, 2))
    assert sorted(n for result in two for n in numbers(result)) == list(range(1, 10))
    assert all(r.rows is not None and not r.records for r in two)
    made = [row for r in two for row in r.rows[0]]
    assert sorted(made) == sorted(game_rows(1, [g for r in one for g in r.records])[0])


def test_an_error_in_a_worker_is_raised_where_the_command_runs(tmp_path):
    missing = str(tmp_path / "no-such.rules")
    with pytest.raises(RulesError) as info:
        list(play_in_workers(pig_batches([(1,), (2,)], missing), 1))
    assert "no-such.rules" in str(info.value.diagnostics[0].message)


@pytest.mark.skipif(multiprocessing.get_start_method() != "fork",
                    reason="the stand-in reaches the worker only when it is forked")
def test_a_worker_that_dies_is_an_error_that_says_so(monkeypatch):
    monkeypatch.setattr(workers, "play_to_send", lambda batch: os._exit(3))
    with pytest.raises(RulesError) as info:
        list(play_in_workers(pig_batches([(1,), (2,)]), 1))
    diag = info.value.diagnostics[0]
    assert diag.code == "G008" and "(exit code 3)" in diag.message
    assert not multiprocessing.active_children()


def test_the_workers_stop_when_the_command_stops_reading():
    for count in (1, 2):
        played = play_in_workers(pig_batches([(n,) for n in range(1, 30)]), count)
        first = next(played)
        assert numbers(first)[0] in range(1, count + 1)
        played.close()
        assert not multiprocessing.active_children()


def test_the_quantiles_worked_out_ahead_are_those_the_figures_ask_for():
    """A study works out the figures' t quantiles while its worker plays: the figures
    then ask for none it has not."""
    from rulesdsl import intervals
    from rulesdsl.balance.figures import quantiles_ahead

    games = [GameRecord(n, n, 0, ["random"] * 3, n % 3, r, [n, 2 * n, 5], 4 + n % 5, "rules",
                        "end", {"each": [n, 1, 2], "flag": n % 2 == 0})
             for n, r in enumerate([[1, 1, 3], [1, 2, 3], [2, 1, 1]] * 7, 1)]
    intervals.t_quantile.cache_clear()
    steps = list(quantiles_ahead(len(games), 3))
    assert len(steps) == 3
    before = intervals.t_quantile.cache_info()
    figures(games, 3, {"each": "player", "flag": "game"})
    after = intervals.t_quantile.cache_info()
    assert after.misses == before.misses and after.hits > before.hits


def test_a_store_settled_beside_its_writing_keeps_every_row(tmp_path):
    from rulesdsl.balance.store import Store

    path = str(tmp_path / "s.db")
    plan = Plan(PIG, 2, ("random",), seed=3)
    batch = Batch(plan, (1, 2, 3), run=1)
    with Store(path) as store:
        run = store.run_for(PIG, "Pig", "digest", {}, plan, {}, 1000)
        store.add(run.id, play_batch(batch).records)
        store.settle()
        store.add(run.id, play_batch(Batch(plan, (4, 5), run=run.id)).records)
    with Store(path, create=False) as store:
        assert store.numbers(run.id) == {1, 2, 3, 4, 5}


def test_the_figures_added_up_as_the_games_are_stored_are_those_of_the_games(tmp_path):
    """A store that made a run adds up its figures batch by batch: the same figures as
    those of its games read back, and none when it does not hold exactly games 1 to N."""
    from rulesdsl.balance.games import rules_of
    from rulesdsl.balance.store import Store
    from rulesdsl.balance.study import stat_shapes

    plan = Plan(PIG, 2, ("random", "greedy"), seed=2, rotations=2,
                stats="stat banked of p = score of p\n")
    rules = rules_of(plan)
    shapes = stat_shapes(rules)
    assert shapes == {"banked": "player"}
    with Store(str(tmp_path / "s.db")) as store:
        run = store.run_for(PIG, rules.name, rules.digest, {}, plan, shapes, rules.limit)
        assert store.figures(run.id, 0, False) is not None  # no games, none expected
        for numbers in ((3, 4), (1, 2), (5,)):
            store.add(run.id, play_batch(Batch(plan, numbers, run=run.id)).records)
        assert store.figures(run.id, 4, False) is None  # holds 5 games, asked for 4
        for exact in (False, True):
            got = store.figures(run.id, 5, exact)
            assert got is not None and got.agent_share is not None
            assert got.stats["banked"]["position"][1]["estimate"].n == 5
            read = list(store.iter_games(run.id))
            assert got == figures(read, 2, shapes, exact)
    with Store(str(tmp_path / "s.db"), create=False) as again:  # a run it did not make
        assert again.figures(run.id, 5, False) is None


def test_a_study_closes_its_database_beside_what_follows_and_loses_nothing(tmp_path):
    """The study returns while its database is closed (Store.close_soon): opened again at
    once, it holds every game; once closed, the write-ahead log is copied in."""
    import threading

    import rulesdsl
    from rulesdsl.balance.store import Store
    from rulesdsl.balance.study import Options, run_study

    db = str(tmp_path / "s.db")
    rules = rulesdsl.load(PIG)
    for games in (30, 60):  # the second study opens it while the first may be closing
        run_study([PIG], [rules], Options(players=2, games=games, db=db))
        with Store(db, create=False) as again:
            assert again.numbers(again.runs()[0].id) == set(range(1, games + 1))
    for thread in threading.enumerate():
        if thread.name == "close":
            thread.join()
    assert not (tmp_path / "s.db-wal").exists()
