"""The balance report's answers to "how does my rule change play" and how far to trust
them: the bots and their warning, what fired, Holm's correction, `--stat`, and games kept
when a study fails (rulesdsl/balance: bots.py, fired.py, changes.py, trust.py,
statline.py, study.py)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from rulesdsl.balance.bots import Strength, warnings
from rulesdsl.balance.trust import games_needed, holm, p_text
from rulesdsl.cli import main
from rulesdsl.intervals import Estimate

ROOT = Path(__file__).resolve().parent.parent
PIG = str(ROOT / "games" / "pig" / "pig.rules")
TICTACTOE = str(ROOT / "games" / "tictactoe" / "tictactoe.rules")

# a race with a rule every turn runs (`step`) and one nothing calls (`windfall`)
RACE = """game "Race"
players 2

counter score per player = 0

rule step(p, n):
    add n to score of p
    if score of p >= 12:
        win p

rule windfall(p):
    add 5 to score of p

play:
    turns:
        choose n in 1..3 as "add {n}"
        step(current, n)
"""

# changes the rule that never runs
IDLE = """extends "race.rules"

change rule windfall:
    replace 5 with 6
"""

# changes the rule that runs every turn: a step adds one more
OFTEN = """extends "race.rules"

replace rule step(p, n):
    add n + 1 to score of p
    if score of p >= 12:
        win p
"""


def _files(tmp_path: Path) -> dict[str, str]:
    out = {}
    for name, text in (("race", RACE), ("idle", IDLE), ("often", OFTEN)):
        path = tmp_path / f"{name}.rules"
        path.write_text(text)
        out[name] = str(path)
    return out


def _simulate(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    assert main(["simulate", *args, "--json", "--progress", "off"]) == 0
    return json.loads(capsys.readouterr().out)


def test_a_study_of_random_bots_carries_the_warning(capsys, tmp_path):
    out = _simulate(capsys, PIG, "--games", "10", "--db", "pig.db")
    assert out["bots"]["seats"] == ["random", "random"]
    assert out["bots"]["strengths"] == []  # random bots need no measuring
    assert any("random bots" in w for w in out["bots"]["warnings"])
    assert main(["simulate", PIG, "--games", "10", "--db", "pig.db", "--progress",
                 "off"]) == 0
    assert "WARNING: Every seat was played by random bots" in capsys.readouterr().out


def test_a_bot_measured_at_chance_is_warned_of_and_a_strong_one_is_not():
    weak = Strength("greedy", Estimate(0.53, 0.46, 0.60, 200), 0.5)
    strong = Strength("mcts", Estimate(0.81, 0.75, 0.86, 200), 0.5)
    assert weak.at_chance and not strong.at_chance
    said = warnings(["greedy", "mcts"], [weak, strong])
    assert len(said) == 1 and said[0].startswith("greedy played no better than random")
    assert warnings(["mcts", "mcts"], [strong]) == []


def test_the_calibration_measures_each_bot_against_random_ones(capsys, tmp_path):
    out = _simulate(capsys, TICTACTOE, "--games", "4", "--agents", "first", "--calibrate", "6",
                    "--db", "pig.db")
    (strength,) = out["bots"]["strengths"]
    assert strength["agent"] == "first" and strength["share"]["n"] == 6
    assert strength["share"]["low"] <= strength["share"]["value"] <= strength["share"]["high"]
    with sqlite3.connect("pig.db") as db:
        (agents,) = db.execute("SELECT r.agents FROM calibrations c JOIN runs r ON "
                               "r.id = c.calibration").fetchone()
    assert json.loads(agents) == ["first", "random"]


def test_a_ladder_plugs_in_for_the_calibration(tmp_path):
    """A source of strengths known already (a ladder's) stands in for calibration runs:
    stored, shown, and warned about alike."""
    from rulesdsl.balance.reading import bots
    from rulesdsl.balance.statline import load_with_stats
    from rulesdsl.balance.store import Store
    from rulesdsl.balance.study import Options, run_study

    class Ladder:
        def strength(self, rules: str, players: int, agent: str) -> Strength | None:
            if agent != "greedy":
                return None
            return Strength(agent, Estimate(0.52, 0.44, 0.60, 300), 1 / players,
                            source="ladder quick")

    rules = load_with_stats(TICTACTOE, None, (), "", False)
    result = run_study([TICTACTOE], [rules], Options(
        players=2, games=2, agents=("greedy", "first"), db=str(tmp_path / "t.db"),
        calibrate=2, ladder=Ladder()))
    assert result.bots is not None
    by_agent = {s.agent: s for s in result.bots.strengths}
    assert by_agent["greedy"].source == "ladder quick" and by_agent["greedy"].share.n == 300
    assert by_agent["first"].source == "calibration" and by_agent["first"].share.n == 2
    assert any("greedy" in w and "no better than random" in w for w in result.bots.warnings)
    with Store(tmp_path / "t.db", create=False) as store:  # the page reads the same
        again = bots(store, store.runs()[0])
    assert {s.agent: s.source for s in again.strengths} == {"greedy": "ladder quick",
                                                             "first": "calibration"}


def test_a_changed_rule_that_never_fires_is_said_so(capsys, tmp_path):
    files = _files(tmp_path)
    out = _simulate(capsys, files["race"], files["idle"], "--games", "12", "--db", "r.db")
    reading = out["comparisons"][0]["reading"]
    (idle,) = [p for p in reading["play"] if p["changed"]]
    assert idle["point"] == "rule windfall" and idle["variant"]["value"] == 0
    assert len(reading["barely"]) == 1 and "'rule windfall'" in reading["barely"][0]
    assert "never fired" in reading["barely"][0]


def test_points_by_source_add_up_to_the_scores(capsys, tmp_path):
    files = _files(tmp_path)
    out = _simulate(capsys, files["race"], files["idle"], "--games", "12", "--db", "r.db")
    points = {p["source"]: p for p in out["comparisons"][0]["reading"]["points"]}
    # the two lines that add to the score: a step's points, and the windfall's (never run;
    # the variant's `change` edits the amount on the base's line)
    assert set(points) == {"step: add n to score of p", "windfall: add 5 to score of p"}
    step = points["step: add n to score of p"]
    scores = out["files"][0]["mean_scores"]
    assert step["base"]["value"] == pytest.approx(sum(scores))
    assert step["difference"]["value"] == 0  # the same games: the variant changes nothing
    windfall = points["windfall: add 5 to score of p"]
    assert windfall["changed"] and windfall["variant"]["value"] == 0


def test_a_changed_rule_that_fires_often_is_shown_first(capsys, tmp_path):
    files = _files(tmp_path)
    out = _simulate(capsys, files["race"], files["often"], "--games", "12", "--db", "r.db")
    reading = out["comparisons"][0]["reading"]
    first = reading["play"][0]
    assert first["point"] == "rule step" and first["changed"]
    assert first["variant"]["value"] > 3  # every turn: at least four a game
    # a step adds more, so the games are shorter: fewer steps than in the base
    assert first["difference"]["value"] < 0
    assert reading["barely"] == []
    # per seat and per agent: the seats' counts add up to the game's
    seats = first["seats"]["variant"]
    assert sum(seats) == pytest.approx(first["variant"]["value"])
    assert first["agents"]["variant"] == {"random": pytest.approx(sum(seats) / 2)}


def test_a_changed_value_marks_the_rules_that_read_it(tmp_path):
    from rulesdsl.balance.changes import changed_keys

    base = tmp_path / "base.rules"
    base.write_text(RACE.replace("add 5 to", "add bonus() to").replace(
        "rule windfall", "const BONUS = 5\ndefine bonus() = BONUS + 1\n\nrule windfall"))
    variant = tmp_path / "more.rules"
    variant.write_text('extends "base.rules"\n\nreplace const BONUS = 7\n')
    # windfall reads BONUS through bonus(); step and play read neither
    assert changed_keys(str(base), str(variant)) == [("const", "BONUS"), ("uses", "windfall")]


def test_holm_against_a_hand_computation():
    # p sorted: 0.01 (x4 = 0.04), 0.02 (x3 = 0.06), 0.03 (x2 = 0.06), 0.5 (x1 = 0.5)
    assert holm([0.03, 0.5, 0.01, 0.02]) == pytest.approx([0.06, 0.5, 0.04, 0.06])
    # the adjusted values never go down with the raw ones, and stop at 1
    assert holm([0.04, 0.3, 0.2]) == pytest.approx([0.12, 0.4, 0.4])
    assert holm([0.6, 0.9]) == [1.0, 1.0]


def test_the_comparison_corrects_all_but_the_chosen_metric(capsys, tmp_path):
    files = _files(tmp_path)
    out = _simulate(capsys, files["race"], files["often"], "--games", "20", "--db", "r.db",
                    "--metric", "seat:2")
    comparison = out["comparisons"][0]
    trusts = comparison["reading"]["trust"]
    chosen = [t for t in trusts if t["chosen"]]
    assert [t["metric"] for t in chosen] == ["seat:2"] and chosen[0]["holm"] == chosen[0]["p"]
    others = [t for t in trusts if not t["chosen"]]
    assert [t["holm"] for t in others] == pytest.approx(holm([t["p"] for t in others]))
    assert all(t["detectable"] >= 0 for t in trusts)


def test_small_p_values_and_the_games_needed():
    assert p_text(0.0) == "p < 0.001" and p_text(3e-12) == "p < 0.001"
    assert p_text(0.0123) == "p = 0.012" and p_text(0.5) == "p = 0.50"
    # a spread of 1 and a difference of 0.1: (1.96 + 0.8416)² / 0.01 = 784.9 -> 785
    assert games_needed(0.1, 1.0) == 785


def _no_game_played(db: str) -> bool:
    if not Path(db).exists():
        return True
    with sqlite3.connect(db) as conn:
        tables = {t for (t,) in conn.execute("SELECT name FROM sqlite_master")}
        return "games" not in tables or not conn.execute("SELECT count(*) FROM games"
                                                         ).fetchone()[0]


def test_stat_of_an_unknown_name_fails_at_its_place_before_any_game(capsys):
    code = main(["simulate", PIG, "--games", "5", "--db", "s.db", "--stat", "rolls=sixes"])
    err = capsys.readouterr().err
    assert code != 0 and "--stat:1:" in err and "sixes" in err and "Traceback" not in err
    assert _no_game_played("s.db")


def test_stat_per_player_is_taken_and_its_metric_needs_a_seat(capsys):
    code = main(["simulate", PIG, "--games", "5", "--db", "s.db", "--stat",
                 "banked of p=score of p", "--metric", "stat:banked"])
    err = capsys.readouterr().err
    assert code != 0 and "kept per player" in err and "stat:banked:1" in err
    assert _no_game_played("s.db")
    # a per-player value without `of p` is a type error at its place, not a traceback
    code = main(["simulate", PIG, "--games", "5", "--db", "s.db", "--stat", "banked=score"])
    err = capsys.readouterr().err
    assert code != 0 and "--stat:1:" in err and "Traceback" not in err
    assert _no_game_played("s.db")
    out = _simulate(capsys, PIG, PIG, "--games", "6", "--db", "s.db", "--stat",
                    "banked of p=score of p", "--metric", "stat:banked:2")
    assert out["comparisons"][0]["metric"] == "stat:banked:2"
    assert out["files"][0]["figures"]["stats"]["banked"]["per"] == "player"


def test_a_metric_unknown_in_a_file_fails_before_any_game(capsys):
    code = main(["simulate", PIG, "--games", "5", "--db", "s.db", "--metric", "stat:whisky"])
    err = capsys.readouterr().err
    assert code != 0 and "no statistic named 'whisky'" in err
    assert _no_game_played("s.db")


FAILS = """game "Fragile"
players 2

counter score per player = 0

play:
    turns:
        choose n in 1..3 as "add {n}"
        add n to score of current
        if score of current >= 6:
            win current
"""


def test_an_error_in_game_30_of_50_leaves_29_games_stored(capsys, tmp_path, monkeypatch):
    from rulesdsl.balance import games as balance_games

    path = tmp_path / "fragile.rules"
    path.write_text(FAILS)
    real = balance_games.play_one

    def fragile(plan, rules, number, keep_steps=True):  # a rule stops game 30, as R001 would
        from rulesdsl.agents.play import Failed
        from rulesdsl.diagnostics import Diagnostic

        if number == 30:
            return Failed(plan.game_seed(number), [], Diagnostic("R001", "a rule failed"))
        return real(plan, rules, number, keep_steps)

    monkeypatch.setattr(balance_games, "play_one", fragile)
    code = main(["simulate", str(path), "--games", "50", "--db", "f.db", "--progress", "off",
                 "--records", str(tmp_path)])
    err = capsys.readouterr().err
    assert code != 0 and "game 30 (of 50)" in err and "Traceback" not in err
    assert "the games played before it are stored in f.db" in err
    with sqlite3.connect("f.db") as db:
        numbers = [n for (n,) in db.execute("SELECT number FROM games ORDER BY number")]
    assert numbers == list(range(1, 30))


def test_counting_what_fired_changes_no_game(tmp_path):
    """The same games with and without coverage (bots that look ahead included)."""
    from rulesdsl.balance.statline import load_with_stats
    from rulesdsl.balance.store import Store
    from rulesdsl.balance.study import Options, run_study

    rows = []
    for coverage in (True, False):
        db = str(tmp_path / f"{coverage}.db")
        rules = load_with_stats(TICTACTOE, None, (), "", coverage)
        run_study([TICTACTOE], [rules], Options(players=2, games=6, agents=("greedy", "random"),
                                                 db=db, coverage=coverage))
        with Store(db, create=False) as store:
            rows.append([row for row in store.dump() if row[0] == "games"])
            assert bool(store.fired(1)) == coverage
    assert rows[0] == rows[1]


def test_a_study_without_coverage_says_so_on_its_page(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    assert main(["simulate", PIG, PIG, "--games", "4", "--db", "n.db", "--no-coverage",
                 "--progress", "off"]) == 0
    assert "how play changed: not counted" in capsys.readouterr().out
    assert main(["report", "n.db", "--out", str(tmp_path / "page")]) == 0
    page = (tmp_path / "page" / "index.html").read_text()
    assert "Not counted" in page and "chosen in advance" in page and "p = 0<" not in page
