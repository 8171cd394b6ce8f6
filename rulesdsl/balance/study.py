"""A study: one rule file simulated, or a base and its variants on the same seeds, stored,
summed up and compared; with `until_significant`, played in looks of `LOOK` games until
the sequential test decides for every variant or the budget of games is spent.

Stage: analysis. This is what `rulesdsl simulate` runs; the command line only reads its
arguments and shows what comes back (balance/show.py).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..diagnostics import RulesError
from ..interpreter.game import Rules
from ..runner import report_failure
from .compare import Comparison, compare, default_metric, differences, metrics_for
from .figures import Figures, figures
from .games import GameRecord, Plan, remember
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


@dataclass
class StudyResult:
    outcomes: list[Outcome]
    verdicts: list[Verdict]
    db: str


def stat_shapes(rules: Rules) -> dict[str, str]:
    return {name: ("player" if per else "game") for name, per in rules.stats.items()}


def run_study(paths: list[str], loaded: list[Rules], options: Options) -> StudyResult:
    o = options
    rotations = o.players if o.rotate else 1
    with Store(o.db) as store:
        runs: list[tuple[Run, Plan]] = []
        for path, rules in zip(paths, loaded):
            plan = Plan(str(Path(path).resolve()), o.players, tuple(o.agents), o.seed,
                        rotations, tuple(sorted(o.settings.items())),
                        tuple(str(Path(f).resolve()) for f in o.include), o.native)
            run = store.run_for(str(path), rules.name, rules.digest, o.settings, plan,
                                stat_shapes(rules), rules.limit, rules.teams(o.players))
            remember(plan, rules)
            runs.append((run, plan))
        for run, _ in runs[1:]:
            store.compared(runs[0][0].id, run.id)
        seconds = [0.0] * len(runs)
        bar = Progress(o.games * len(runs), _title(loaded, o), o.console) if o.progress \
            else None
        start = time.perf_counter()
        verdicts: list[Verdict] = []
        if bar is not None:
            bar.__enter__()
        try:
            upto = o.games if o.sprt is None else min(o.games, LOOK)
            while True:
                failures = play_runs(store, runs, upto, o.backend, bar, o.keep_steps)
                if failures:
                    raise _failure(failures, paths, loaded, runs, o)
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
        outcomes = []
        for (run, _), path, rules, secs in zip(runs, paths, loaded, seconds):
            records = store.games(run.id, upto)
            outcomes.append(Outcome(str(path), rules, run, records,
                                    figures(records, o.players, run.stats, o.exact), secs))
        if len(outcomes) > 1:
            base = outcomes[0].records
            metric = o.metric or default_metric(base)
            decided = _decisions(store, runs, o, upto) if o.sprt is not None else \
                [None] * (len(runs) - 1)
            for out, decision in zip(outcomes[1:], decided):
                shown = metrics_for(base, outcomes[0].run.stats)
                if metric not in shown:
                    shown.insert(0, metric)
                verdicts.append(Verdict(out.run.id, metric,
                                        [compare(base, out.records, m) for m in shown],
                                        decision if decision is not None or o.sprt is None
                                        else "undecided", upto))
        return StudyResult(outcomes, verdicts, o.db)


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


def _failure(failures: list, paths: list[str], loaded: list[Rules],
             runs: list[tuple[Run, Plan]], o: Options) -> RulesError:
    """The first game a rule stopped (the smallest number, of the first file that has
    one), reported as `rulesdsl simulate` always has."""
    order = {run.id: i for i, (run, _) in enumerate(runs)}
    run, number, failed = min(failures, key=lambda f: (order[f[0].id], f[1]))
    i = order[run.id]
    agents = runs[i][1].seat_agents(number)
    return report_failure(loaded[i], paths[i], o.players, failed, agents, number, o.records,
                          total=o.games)
