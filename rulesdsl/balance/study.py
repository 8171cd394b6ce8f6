"""A study: one rule file simulated, or a base and its variants on the same seeds, stored,
summed up and compared; with `until_significant`, played in looks of `LOOK` games until
the sequential test decides for every variant or the budget of games is spent.

Stage: analysis. This is what `rulesdsl simulate` runs; the command line only reads its
arguments and shows what comes back (balance/show.py). Before the study's games, each of its
bots is measured against random ones (bots.py); the games count what fired (fired.py); a
variant's changed declarations are stored with the comparison (changes.py). Finished games
are never lost: each batch is stored as it arrives, a game a rule stops ends the study with
that error (the games before it stay stored), and a failure of the summing up is reported
as a diagnostic (G007) that says where the games are.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..agents.play import report_failure
from ..diagnostics import Diagnostic, RulesError
from ..interpreter.game import Rules
from .bots import RANDOM, Strength, StrengthSource, calibration_agents, measured
from .changes import changed_keys
from .compare import Comparison, compare, default_metric, differences, metrics_for
from .figures import Figures, figures, quantiles_ahead
from .fired import point_rows
from .games import GameRecord, Plan, remember
from .reading import Bots, Reading, bots, reading
from .running import Backend, Progress, play_runs
from .sequential import Sprt
from .store import Run, Store

LOOK = 100  # games between two looks of the sequential test


@dataclass
class Options:
    players: int
    games: int = 100
    seed: int = 1
    agents: tuple[str, ...] = ("random",)
    backend: Backend = field(default_factory=Backend)
    db: str = ":memory:"
    rotate: bool = False
    settings: dict[str, Any] = field(default_factory=dict)
    include: tuple[str, ...] = ()     # --include: folders `extends` may reach
    records: str | None = "."       # where the record of a failed game is written
    exact: bool = False              # Clopper-Pearson instead of Wilson for rates
    metric: str | None = None        # the figure base and variants are tested on
    sprt: Sprt | None = None         # play until the test decides (--until-significant)
    progress: bool = False
    keep_steps: bool = True
    console: Any = None              # where the progress bar goes (rich Console)
    native: bool = False             # the rules compiled with Cython (--native)
    stats: str = ""                  # the --stat statistics (statline.py), one a line
    coverage: bool = False           # count what fires in each game (fired.py)
    calibrate: int = 0               # games measuring each bot against random ones (0: none)
    delta: float = 0.05              # the difference of the metric worth finding
    ladder: StrengthSource | None = None  # bots' strengths known already (bots.py)


@dataclass
class Outcome:
    """One rule file's run: its games, its figures, and the seconds its games took."""

    path: str
    rules: Rules
    run: Run
    records: list[GameRecord]
    figures: Figures
    seconds: float


@dataclass
class Verdict:
    """A variant against the base: each metric compared, and the sequential test's
    decision on the chosen metric (None without --until-significant, "undecided" when the
    budget ran out)."""

    variant: int
    metric: str
    comparisons: list[Comparison]
    decision: str | None = None
    games: int = 0
    reading: Reading | None = None


@dataclass
class StudyResult:
    outcomes: list[Outcome]
    verdicts: list[Verdict]
    db: str
    strengths: list[Strength] = field(default_factory=list)
    bots: Bots | None = None


def stat_shapes(rules: Rules) -> dict[str, str]:
    return {name: ("player" if per else "game") for name, per in rules.stats.items()}


def _plan(path: str, agents: tuple[str, ...], rotations: int, o: Options,
          coverage: bool) -> Plan:
    return Plan(str(Path(path).resolve()), o.players, agents, o.seed, rotations,
                tuple(sorted(o.settings.items())),
                tuple(str(Path(f).resolve()) for f in o.include), native=o.native,
                stats=o.stats, coverage=coverage)


def _run(store: Store, path: str, rules: Rules, plan: Plan, o: Options) -> Run:
    run = store.run_for(str(path), rules.name, rules.digest, o.settings, plan,
                        stat_shapes(rules), rules.limit, rules.teams(o.players))
    remember(plan, rules)
    if plan.coverage:
        store.set_points(run.id, point_rows(rules))
    return run


def run_study(paths: list[str], loaded: list[Rules], options: Options) -> StudyResult:
    o = options
    rotations = o.players if o.rotate else 1
    with Store(o.db) as store:
        runs: list[tuple[Run, Plan]] = []
        for path, rules in zip(paths, loaded):
            plan = _plan(path, tuple(o.agents), rotations, o, o.coverage)
            runs.append((_run(store, path, rules, plan, o), plan))
        for (run, _), path in zip(runs[1:], paths[1:]):
            store.compared(runs[0][0].id, run.id)
            store.set_changed(runs[0][0].id, run.id,
                              changed_keys(paths[0], path, o.include))
        strengths = calibrate(store, paths[0], loaded[0], runs[0][0], o)
        seconds = [0.0] * len(runs)
        bar = Progress(o.games * len(runs), _title(loaded, o), o.console) if o.progress \
            else None
        start = time.perf_counter()
        if bar is not None:
            bar.__enter__()
        try:
            upto = o.games if o.sprt is None else min(o.games, LOOK)
            spare = quantiles_ahead(o.games, o.players) if o.sprt is None else None
            while True:
                failures = play_runs(store, runs, upto, o.backend, bar, o.keep_steps,
                                     spare=spare)
                if failures:
                    raise _failure(failures, paths, loaded, runs, o, store)
                if o.sprt is None or len(runs) < 2:
                    break
                decided = _decisions(store, runs, o, upto)
                if all(d is not None for d in decided) or upto >= o.games:
                    break
                upto = min(o.games, upto + LOOK)
            if bar is not None and o.sprt is not None:
                bar.total(bar.done)
        finally:
            if bar is not None:
                bar.__exit__(None, None, None)
        elapsed = time.perf_counter() - start
        seconds = [elapsed / len(runs)] * len(runs)
        store.settle()
        try:
            summed = _summary(store, runs, paths, loaded, o, upto, seconds, strengths)
            store.close_soon()
            return summed
        except RulesError:
            raise
        except Exception as err:  # the games are stored: say where, never a traceback
            raise RulesError([Diagnostic(
                "G007", f"the games were played and stored in {o.db}, but summing them up "
                f"failed: {type(err).__name__}: {err}",
                notes=[f"rulesdsl report {o.db} reads them again"])]) from None


def _summary(store: Store, runs: list[tuple[Run, Plan]], paths: list[str],
             loaded: list[Rules], o: Options, upto: int, seconds: list[float],
             strengths: list[Strength]) -> StudyResult:
    verdicts: list[Verdict] = []
    outcomes = []
    for (run, _), path, rules, secs in zip(runs, paths, loaded, seconds):
        records = store.games(run.id, upto)
        figs = store.figures(run.id, upto, o.exact)
        if figs is None:
            figs = figures(records, o.players, run.stats, o.exact)
        outcomes.append(Outcome(str(path), rules, run, records, figs, secs))
    if len(outcomes) > 1:
        base = outcomes[0].records
        metric = o.metric or default_metric(base)
        decided = _decisions(store, runs, o, upto) if o.sprt is not None else \
            [None] * (len(runs) - 1)
        for out, decision in zip(outcomes[1:], decided):
            shown = metrics_for(base, outcomes[0].run.stats)
            if metric not in shown:
                shown.insert(0, metric)
            comparisons = [compare(base, out.records, m) for m in shown]
            store.choose(outcomes[0].run.id, out.run.id, metric, o.delta)
            verdicts.append(Verdict(out.run.id, metric, comparisons,
                                    decision if decision is not None or o.sprt is None
                                    else "undecided", upto,
                                    reading(store, outcomes[0].run.id, out.run.id, base,
                                            out.records, comparisons, metric, o.delta)))
    return StudyResult(outcomes, verdicts, o.db, strengths, bots(store, outcomes[0].run))


def _title(loaded: list[Rules], o: Options) -> str:
    names = " vs ".join(r.name for r in loaded[:3]) + (" ..." if len(loaded) > 3 else "")
    return f"{names}, {o.players} players"


def _decisions(store: Store, runs: list[tuple[Run, Plan]], o: Options, upto: int
               ) -> list[str | None]:
    """The sequential test's decision for each variant, from the games up to `upto`."""
    assert o.sprt is not None
    base = store.games(runs[0][0].id, upto)
    metric = o.metric or default_metric(base)
    return [o.sprt.decide(differences(base, store.games(run.id, upto), metric))
            for run, _ in runs[1:]]


def calibrate(store: Store, path: str, rules: Rules, run: Run, o: Options
              ) -> list[Strength]:
    """Each bot of the study against random bots on the base's rules (bots.py): as
    `o.ladder` gives it, or else measured in a run of `o.calibrate` games per bot (at least
    one per seat), seats rotated, stored and linked to the study's run."""
    out = []
    games = max(o.players, o.calibrate - o.calibrate % o.players)
    for agent in calibration_agents(tuple(o.agents)):
        given = o.ladder.strength(path, o.players, agent) if o.ladder is not None else None
        if given is not None:
            store.set_strength(run.id, agent, given.source,
                               {**given.share.to_json(), "even": given.even})
            out.append(given)
            continue
        if o.calibrate <= 0:
            continue
        plan = _plan(path, (agent,) + (RANDOM,) * (o.players - 1), o.players, o, o.coverage)
        calibration = _run(store, path, rules, plan, o)
        store.calibrated(run.id, agent, calibration.id)
        failures = play_runs(store, [(calibration, plan)], games, o.backend, None,
                             o.keep_steps)
        if failures:
            raise _failure(failures, [path], [rules], [(calibration, plan)], o, store)
        out.append(measured(agent, store.games(calibration.id, games), o.players))
    return out


def _failure(failures: list, paths: list[str], loaded: list[Rules],
             runs: list[tuple[Run, Plan]], o: Options, store: Store) -> RulesError:
    """The first game a rule stopped (the smallest number, of the first file that has
    one), reported as `rulesdsl simulate` always has, with the games kept."""
    order = {run.id: i for i, (run, _) in enumerate(runs)}
    run, number, failed = min(failures, key=lambda f: (order[f[0].id], f[1]))
    i = order[run.id]
    agents = runs[i][1].seat_agents(number)
    error = report_failure(loaded[i], paths[i], o.players, failed, agents, number,
                           o.records, total=o.games)
    if o.db != ":memory:":
        error.diagnostics[0].notes.append(
            f"the games played before it are stored in {o.db} (rulesdsl report "
            f"{o.db} reads them)")
    return error
