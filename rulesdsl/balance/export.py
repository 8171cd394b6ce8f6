"""`rulesdsl export DB OUT`: the games of a database of simulations as one table, a row per
game, in CSV (standard library) or Parquet (pyarrow, the `parquet` extra).

Stage: analysis (output). Columns: the run (its id, file, game, rules digest, settings,
players, seed, rotations), then the game: number, seed, rotation, the agent of each seat,
who started, each seat's rank and score, whether it won (its share of the win), the
length in decisions, how it ended, and each declared statistic (one column per seat for
one kept per player). A list becomes one column per seat (`rank_1`, `rank_2`, ...) so that
a spreadsheet or pandas reads the file as it is.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

from .store import Run, Store, bad_db


def rows(store: Store, run: Run) -> list[dict[str, Any]]:
    """A run's games as flat rows, in the order of their numbers."""
    out = []
    for g in store.iter_games(run.id):
        row: dict[str, Any] = {
            "run": run.id, "file": run.file, "game": run.game, "rules": run.rules,
            "settings": json.dumps(run.settings, sort_keys=True), "players": run.players,
            "run_seed": run.seed, "rotations": run.rotations, "number": g.number,
            "seed": g.seed, "rotation": g.rotation,
            "first": g.first + 1 if g.first is not None else None,
            "decisions": g.decisions, "ended_by": g.ended_by, "ending": g.ending,
        }
        shares = g.shares()
        for p in range(run.players):
            row[f"agent_{p + 1}"] = g.agents[p]
            row[f"rank_{p + 1}"] = g.ranking[p]
            row[f"share_{p + 1}"] = shares[p]
            row[f"score_{p + 1}"] = g.scores[p] if g.scores is not None else None
        for name, value in g.stats.items():
            if isinstance(value, list):
                for p, v in enumerate(value):
                    row[f"stat_{name}_{p + 1}"] = v
            else:
                row[f"stat_{name}"] = value
        out.append(row)
    return out


def export(db: str | Path, out: Path, run_id: int | None = None) -> int:
    """Write the games (of one run, or of all) to `out` (.csv or .parquet); returns how
    many were written."""
    with Store(db, create=False) as store:
        # the runs that measured the bots are left out unless named (--run)
        runs = [store.run(run_id)] if run_id is not None else store.study_runs()
        table = [row for run in runs for row in rows(store, run)]
    columns: list[str] = []
    for row in table:  # every run's columns, in the order they first appear
        columns += [c for c in row if c not in columns]
    try:
        if out.suffix.lower() == ".parquet":
            _parquet(table, columns, out)
        else:
            with out.open("w", newline="", encoding="utf-8") as f:
                writer = csv.DictWriter(f, columns)
                writer.writeheader()
                writer.writerows(table)
    except OSError as err:
        raise bad_db(f"cannot write {out}: {err.strerror or err}") from None
    return len(table)


def _parquet(table: list[dict[str, Any]], columns: list[str], out: Path) -> None:
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise bad_db("Parquet needs pyarrow: pip install 'rulesdsl[parquet]' "
                     "(or export to a .csv file)") from None
    data = {c: [row.get(c) for row in table] for c in columns}
    try:
        pq.write_table(pa.table(data), str(out))
    except (pa.ArrowInvalid, pa.ArrowTypeError) as err:
        # two runs whose statistic of one name is a number in one, true/false in the other
        raise bad_db(f"the runs cannot share one Parquet table ({err}): export one run at "
                     "a time with --run") from None
