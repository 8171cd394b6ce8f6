"""The commands of the analysis: `simulate`, `report` and `export`, from parsed arguments
to what they print.

Stage: analysis (the command line's side of it; rulesdsl/cli/arguments.py declares the arguments).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ..diagnostics import UsageError
from ..loader import backend_for
from .compare import UnknownMetric, check_metric
from .running import Backend
from .sequential import Sprt
from .statline import load_with_stats, stat_source
from .study import Options, run_study


def _usage(message: str) -> Exception:
    return UsageError(message)


def simulate_command(args: argparse.Namespace) -> int:
    from ..loader import lasting

    settings = dict(args.settings)
    if args.until_significant and len(args.files) < 2:
        raise _usage("--until-significant compares rule files: give a base and a variant")
    stats = stat_source(args.stat)
    coverage = not args.no_coverage
    with lasting(getattr(args, "own_process", False)):  # kept to the end of the command
        backend = backend_for(args.native)
        loaded = [load_with_stats(path, settings or None, args.include, stats, coverage,
                                  backend)
                  for path in args.files]
    players = args.players or max(r.player_range[0] for r in loaded)
    for rules in loaded:
        rules.check_players(players)
    if args.metric is not None:
        try:
            check_metric(args.metric, players, [r.stats for r in loaded])
        except UnknownMetric as err:
            raise _usage(f"--metric: {err}") from None
    if args.backend != "ray" and args.address:
        raise _usage("--address is for --backend ray")
    try:
        sprt = Sprt(args.delta, args.alpha, args.beta) if args.until_significant else None
    except ValueError as err:
        raise _usage(str(err)) from None
    show = args.progress == "on" or (args.progress == "auto" and sys.stderr.isatty())
    bar_console = None
    if show:  # on stderr, so that --json and the tables on stdout stay clean
        from rich.console import Console

        bar_console = Console(stderr=True)
    options = Options(players=players, games=args.games, seed=args.seed,
                      agents=tuple(str(a) for a in args.agents),
                      backend=Backend(args.backend, args.workers, args.address),
                      db=":memory:" if args.no_db else args.db, rotate=args.rotate,
                      settings=settings, include=tuple(args.include), records=args.records,
                      exact=args.exact, metric=args.metric, sprt=sprt, progress=show,
                      console=bar_console, native=args.native, stats=stats,
                      coverage=coverage, calibrate=args.calibrate, delta=args.delta)
    result = run_study(list(args.files), loaded, options)
    if args.json:
        from .show import study_json

        print(json.dumps(study_json(result), indent=1))
        return 0
    from rich.console import Console

    from .show import run_tables, side_by_side
    from .show_reading import bots_lines

    console = Console(width=120)
    agents = [str(a) for a in args.agents]
    if len(result.outcomes) > 1:
        for item in side_by_side(result, column_names(result.outcomes), agents):
            console.print(item)
    else:
        outcome = result.outcomes[0]
        for item in run_tables(outcome, agents):
            console.print(item)
        if result.bots is not None:
            for item in bots_lines(result.bots):
                console.print(item)
        if outcome.figures.timeouts.value:
            console.print(f"{round(outcome.figures.timeouts.value * outcome.figures.games)} "
                          f"of {outcome.figures.games} games reached the limit of "
                          f"{loaded[0].limit:,} decisions without ending (counted as draws)")
    if not args.no_db:
        console.print(f"games stored in {args.db}: rulesdsl report {args.db}")
    return 0


def column_names(outcomes: list[Any]) -> list[str]:
    """Each rule file's column: the game's name, and the file's name where two games
    share a name (a variant that keeps its base's name)."""
    names = [o.rules.name for o in outcomes]
    return [f"{name} ({Path(o.path).stem})" if names.count(name) > 1 else name
            for name, o in zip(names, outcomes)]


def report_command(args: argparse.Namespace) -> int:
    from .report import write_report

    out = Path(args.out) if args.out else Path(args.db).with_name(Path(args.db).stem + "-report")
    page = write_report(args.db, out, exact=args.exact)
    print(f"wrote {page}")
    return 0


def export_command(args: argparse.Namespace) -> int:
    from .export import export

    out = Path(args.out)
    if out.suffix.lower() not in (".csv", ".parquet"):
        raise _usage(f"export: OUT ends with .csv or .parquet, not {out.name!r}")
    n = export(args.db, out, args.run)
    print(f"wrote {n} games to {out}")
    return 0
