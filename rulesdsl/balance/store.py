"""The database of simulated games: one SQLite file holds runs, their games, and which runs
were compared.

Stage: analysis. A run is a rule file (its digest, so the settings too), a number of
players, the agents, a seed and the number of rotations of the agents; the same command
finds the same run again, so a run that was interrupted is resumed by running it again:
only the game numbers not stored yet are played. Every batch of games is committed as it
arrives, so an interruption loses at most the games being played. Nothing in the database
depends on the time or the number of workers: the same run gives the same rows.

A run this store made keeps its games in memory too, as reading them back would give them
(`games`): a study sums up what it played without reading every row back and decoding it
again, which cost as much as a fifth of playing tic-tac-toe's games. The columns its
figures come from are added up as each batch is stored (`figures`: figures.Tally), while
the worker plays the next, not after the last game.

Beside the games: the coverage points of a run's rules (`points`) and how often each fired
in each game, by seat (`fired`, a JSON object per game: fired.py); the runs that measured
the strength of a run's bots against random ones (`calibrations`: bots.py), or their
strength as another source gave it (`strengths`: a ladder's); the metric a
comparison named in advance (`chosen`); and the declarations a variant changes from its
base (`changed`: changes.py). A database written
before these tables existed gets them empty, and its report says what it lacks.

A file that is not such a database, or one of another format, is an error for people
(G006), never a traceback.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..diagnostics import Diagnostic, RulesError
from .figures import Figures, Tally
from .games import GameRecord, Plan
from .rows import Rows, game_rows, kept_records, read_rows

FORMAT = "rulesdsl-db/1"

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY,
    file TEXT NOT NULL,
    game TEXT NOT NULL,
    rules TEXT NOT NULL,
    settings TEXT NOT NULL,
    players INTEGER NOT NULL,
    agents TEXT NOT NULL,
    seed INTEGER NOT NULL,
    rotations INTEGER NOT NULL,
    stats TEXT NOT NULL,
    limit_decisions INTEGER NOT NULL,
    teams TEXT,
    UNIQUE (rules, players, agents, seed, rotations)
);
CREATE TABLE IF NOT EXISTS games (
    run INTEGER NOT NULL REFERENCES runs(id),
    number INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    rotation INTEGER NOT NULL,
    agents TEXT NOT NULL,
    first INTEGER,
    ranking TEXT NOT NULL,
    scores TEXT,
    decisions INTEGER NOT NULL,
    ended_by TEXT NOT NULL,
    ending TEXT NOT NULL,
    stats TEXT NOT NULL,
    steps TEXT NOT NULL,
    PRIMARY KEY (run, number)
);
CREATE TABLE IF NOT EXISTS comparisons (
    base INTEGER NOT NULL REFERENCES runs(id),
    variant INTEGER NOT NULL REFERENCES runs(id),
    PRIMARY KEY (base, variant)
);
CREATE TABLE IF NOT EXISTS points (
    run INTEGER NOT NULL REFERENCES runs(id),
    number INTEGER NOT NULL,
    kind TEXT NOT NULL,
    block TEXT NOT NULL,
    name TEXT NOT NULL,
    text TEXT NOT NULL,
    file TEXT NOT NULL,
    line INTEGER NOT NULL,
    PRIMARY KEY (run, number)
);
CREATE TABLE IF NOT EXISTS fired (
    run INTEGER NOT NULL REFERENCES runs(id),
    number INTEGER NOT NULL,
    counts TEXT NOT NULL,
    turns INTEGER NOT NULL,
    PRIMARY KEY (run, number)
);
CREATE TABLE IF NOT EXISTS calibrations (
    run INTEGER NOT NULL REFERENCES runs(id),
    agent TEXT NOT NULL,
    calibration INTEGER NOT NULL REFERENCES runs(id),
    PRIMARY KEY (run, agent)
);
CREATE TABLE IF NOT EXISTS strengths (run INTEGER NOT NULL, agent TEXT NOT NULL,
    source TEXT NOT NULL, share TEXT NOT NULL, PRIMARY KEY (run, agent));
CREATE TABLE IF NOT EXISTS chosen (base INTEGER NOT NULL, variant INTEGER NOT NULL,
    metric TEXT NOT NULL, delta REAL NOT NULL, PRIMARY KEY (base, variant));
CREATE TABLE IF NOT EXISTS changed (
    base INTEGER NOT NULL REFERENCES runs(id),
    variant INTEGER NOT NULL REFERENCES runs(id),
    word TEXT NOT NULL,
    name TEXT NOT NULL,
    PRIMARY KEY (base, variant, word, name)
);
"""


def bad_db(message: str) -> RulesError:
    return RulesError([Diagnostic("G006", message)])


@dataclass(frozen=True)
class Run:
    """A run as stored: its number in the database and what it plays."""

    id: int
    file: str
    game: str
    rules: str
    settings: dict[str, Any]
    players: int
    agents: list[str]
    seed: int
    rotations: int
    stats: dict[str, str]   # each declared statistic: "game" or "player"
    limit: int
    teams: list[list[int]] | None = None  # the seats of each team (`teams of N`)

    def plan(self) -> Plan:
        return Plan(self.file, self.players, tuple(self.agents), self.seed, self.rotations,
                    tuple(sorted(self.settings.items())))

    def name(self) -> str:
        """The file's name and the settings that differ, for tables and plots."""
        stem = Path(self.file).stem
        extra = ", ".join(f"{k}={v}" for k, v in sorted(self.settings.items()))
        return f"{stem} ({extra})" if extra else stem


class Store:
    """An open database of simulations."""

    def __init__(self, path: str | Path, create: bool = True):
        self.path = str(path)
        if not create and not Path(path).is_file():
            raise bad_db(f"no such database: {path}")
        try:
            # closed by a thread of its own at the end of a study (close_soon)
            self.db = sqlite3.connect(self.path, check_same_thread=False)
            # a batch is committed as it arrives: the write-ahead log makes that cheap,
            # and an interruption still loses no committed batch
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.executescript(SCHEMA)
            row = self.db.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
            if row is None:
                self.db.execute("INSERT INTO meta VALUES ('format', ?)", (FORMAT,))
                self.db.commit()
            elif row[0] != FORMAT:
                raise bad_db(f"{path} is a database of format {row[0]}, not {FORMAT}")
        except sqlite3.DatabaseError as err:
            raise bad_db(f"{path} is not a database of simulations: {err}") from None
        except OSError as err:
            raise bad_db(f"cannot open the database {path}: {err}") from None
        # per run this store made (so it has seen every game of it): its games by number,
        # as `games` reads them back, and the run's teams; and the columns of its figures
        self.kept: dict[int, tuple[dict[int, GameRecord], list[list[int]] | None]] = {}
        self.tallies: dict[int, Tally] = {}
        self.settling: threading.Thread | None = None  # a checkpoint under way (settle)
        self.closing: threading.Thread | None = None  # closing beside the caller

    def close(self) -> None:
        if self.closing is not None:
            return  # closing already (close_soon)
        if self.settling is not None:
            self.settling.join()
        self.db.close()

    def close_soon(self) -> None:
        """Close in a thread of its own: the caller goes on (a study shows its figures)
        while the write-ahead log is copied into the file and synced, which took 10 to 30
        ms on this machine's disk after the last game. Every batch was committed already:
        the interpreter waits for the thread before the process ends, and a process that
        ends before it loses nothing (the log is read back at the next opening)."""
        if self.closing is None:
            self.closing = threading.Thread(target=self._close, name="close")
            self.closing.start()

    def _close(self) -> None:
        if self.settling is not None:
            self.settling.join()
        try:
            self.db.close()
        except sqlite3.Error:
            pass  # every batch was committed: the log is read back at the next opening

    def settle(self) -> None:
        """Copy what the write-ahead log holds into the database file in a thread of its
        own (a connection of its own, a passive checkpoint: writing goes on beside it),
        while the caller sums up; closing then has little left to copy. It was a tenth of
        a 5000-game tic-tac-toe study's time, after its last game, on a slow disk."""
        if self.path == ":memory:" or self.settling is not None:
            return

        def checkpoint() -> None:
            try:
                other = sqlite3.connect(self.path)
                try:
                    other.execute("PRAGMA wal_checkpoint(PASSIVE)")
                finally:
                    other.close()
            except sqlite3.Error:
                pass  # closing checkpoints what is left, and says what goes wrong

        self.settling = threading.Thread(target=checkpoint, name="checkpoint")
        self.settling.start()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- runs ----------------------------------------------------------------------------

    def run_for(self, file: str, game: str, rules: str, settings: dict[str, Any],
                plan: Plan, stats: dict[str, str], limit: int,
                teams: list[list[int]] | None = None) -> Run:
        """The run of this plan, made if it is new."""
        agents = json.dumps(list(plan.agents))
        key = (rules, plan.players, agents, plan.seed, plan.rotations)
        row = self.db.execute("SELECT id FROM runs WHERE rules = ? AND players = ? AND "
                              "agents = ? AND seed = ? AND rotations = ?", key).fetchone()
        if row is None:
            cur = self.db.execute(
                "INSERT INTO runs (file, game, rules, settings, players, agents, seed, "
                "rotations, stats, limit_decisions, teams) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, "
                "?, ?)",
                (file, game, rules, json.dumps(settings, sort_keys=True), plan.players,
                 agents, plan.seed, plan.rotations, json.dumps(stats), limit,
                 json.dumps(teams) if teams is not None else None))
            self.db.commit()
            run_id = cur.lastrowid
            assert run_id is not None
            self.kept[run_id] = ({}, teams)
            self.tallies[run_id] = Tally(plan.players, stats)
        else:
            run_id = row[0]
        return self.run(int(run_id))  # type: ignore[arg-type]

    def runs(self) -> list[Run]:
        return [self._run(r) for r in self.db.execute(f"SELECT {RUN_COLUMNS} FROM runs "
                                                       "ORDER BY id")]

    def study_runs(self) -> list[Run]:
        """The runs of the studies: every run but those only measuring bots (a run that is
        both, a study of a bot against random ones, is kept)."""
        studies = {r for (r,) in self.db.execute("SELECT run FROM calibrations")}
        only = self.calibration_runs() - studies - {b for pair in self.comparisons()
                                                    for b in pair}
        return [run for run in self.runs() if run.id not in only]

    def run(self, run_id: int) -> Run:
        row = self.db.execute(f"SELECT {RUN_COLUMNS} FROM runs WHERE id = ?",
                              (run_id,)).fetchone()
        if row is None:
            raise bad_db(f"{self.path} has no run {run_id}")
        return self._run(row)

    @staticmethod
    def _run(row: tuple) -> Run:
        return Run(row[0], row[1], row[2], row[3], json.loads(row[4]), row[5],
                   json.loads(row[6]), row[7], row[8], json.loads(row[9]), row[10],
                   json.loads(row[11]) if row[11] is not None else None)

    def compared(self, base: int, variant: int) -> None:
        self.db.execute("INSERT OR IGNORE INTO comparisons VALUES (?, ?)", (base, variant))
        self.db.commit()

    def set_points(self, run: int, rows: list[tuple[int, str, str, str, str, str, int]]
                   ) -> None:
        self.db.executemany("INSERT OR IGNORE INTO points VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                            [(run, *row) for row in rows])
        self.db.commit()

    def points(self, run: int) -> list[tuple[int, str, str, str, str, str, int]]:
        return list(self.db.execute("SELECT number, kind, block, name, text, file, line "
                                    "FROM points WHERE run = ? ORDER BY number", (run,)))

    def fired(self, run: int, upto: int | None = None) -> dict[int, dict[int, list[int]]]:
        """Game number -> {point: [hits of each seat, of no seat]}, for the games counted."""
        limit, args = ("", (run,)) if upto is None else (" AND number <= ?", (run, upto))
        try:
            return {n: {int(k): v for k, v in json.loads(counts).items()}
                    for n, counts in self.db.execute(
                        f"SELECT number, counts FROM fired WHERE run = ?{limit}", args)}
        except (ValueError, AttributeError, sqlite3.DatabaseError) as err:
            raise bad_db(f"{self.path}: the coverage of run {run} cannot be read: {err}"
                         ) from None

    def calibrated(self, run: int, agent: str, calibration: int) -> None:
        self.db.execute("INSERT OR REPLACE INTO calibrations VALUES (?, ?, ?)",
                        (run, agent, calibration))
        self.db.commit()

    def calibrations(self, run: int) -> dict[str, int]:
        """Agent -> the run that measured it against random bots."""
        return dict(self.db.execute("SELECT agent, calibration FROM calibrations WHERE "
                                    "run = ? ORDER BY agent", (run,)))

    def set_strength(self, run: int, agent: str, source: str, share: dict[str, float]
                     ) -> None:
        """A strength given by a source other than a calibration run (a ladder's)."""
        self.db.execute("INSERT OR REPLACE INTO strengths VALUES (?, ?, ?, ?)",
                        (run, agent, source, json.dumps(share, sort_keys=True)))
        self.db.commit()

    def strengths(self, run: int) -> list[tuple[str, str, dict[str, float]]]:
        """(agent, source, {value, low, high, n, even}) of each strength given so."""
        try:
            return [(a, s, json.loads(v)) for a, s, v in self.db.execute(
                "SELECT agent, source, share FROM strengths WHERE run = ? ORDER BY agent",
                (run,))]
        except ValueError as err:
            raise bad_db(f"{self.path}: a strength of run {run} cannot be read: {err}"
                         ) from None

    def calibration_runs(self) -> set[int]:
        return {r for (r,) in self.db.execute("SELECT calibration FROM calibrations")}

    def choose(self, base: int, variant: int, metric: str, delta: float) -> None:
        """The metric named before the games (the last study's), and the difference of it
        worth finding."""
        self.db.execute("INSERT OR REPLACE INTO chosen VALUES (?, ?, ?, ?)",
                        (base, variant, metric, delta))
        self.db.commit()

    def chosen(self, base: int, variant: int) -> tuple[str, float] | None:
        row = self.db.execute("SELECT metric, delta FROM chosen WHERE base = ? AND "
                              "variant = ?", (base, variant)).fetchone()
        return (row[0], row[1]) if row is not None else None

    def set_changed(self, base: int, variant: int, keys: list[tuple[str, str]]) -> None:
        self.db.executemany("INSERT OR IGNORE INTO changed VALUES (?, ?, ?, ?)",
                            [(base, variant, w, n) for w, n in keys])
        self.db.commit()

    def changed(self, base: int, variant: int) -> list[tuple[str, str]]:
        return list(self.db.execute("SELECT word, name FROM changed WHERE base = ? AND "
                                    "variant = ? ORDER BY word, name", (base, variant)))

    def comparisons(self) -> list[tuple[int, int]]:
        return list(self.db.execute("SELECT base, variant FROM comparisons ORDER BY base, "
                                    "variant"))

    # ---- games ---------------------------------------------------------------------------

    def numbers(self, run: int) -> set[int]:
        """The game numbers stored for a run."""
        return {n for (n,) in self.db.execute("SELECT number FROM games WHERE run = ?",
                                              (run,))}

    def add(self, run: int, records: Sequence[GameRecord], rows: Rows | None = None) -> None:
        """Store games and commit: what is stored survives an interruption. With `rows`,
        made where the games were played (rows.py), the games are read from them."""
        made_here = rows is None
        if rows is None:
            rows = game_rows(run, records)
        self.db.executemany(
            "INSERT OR REPLACE INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            rows[0])
        self.db.executemany("INSERT OR REPLACE INTO fired VALUES (?, ?, ?, ?)", rows[1])
        self.db.commit()
        if run in self.kept:
            games, teams = self.kept[run]
            new = []
            for g in (kept_records(records, rows[0], teams) if made_here
                      else read_rows(rows, teams)):
                if g.number not in games:
                    new.append(g)
                games[g.number] = g
            self.tallies[run].add(new)

    def figures(self, run: int, upto: int, exact: bool) -> Figures | None:
        """The figures of a run's games 1 to `upto` from the columns added up as they were
        stored, when this store made the run and holds exactly those games; else None
        (the caller works them out from the games)."""
        tally = self.tallies.get(run)
        if tally is None or not tally.n == tally.last == upto == len(self.kept[run][0]):
            return None
        return tally.figures(exact)

    def games(self, run: int, upto: int | None = None, steps: bool = False
              ) -> list[GameRecord]:
        """A run's games in order of their numbers (the first `upto` numbers only)."""
        if run in self.kept and not steps:
            games, _ = self.kept[run]
            return [games[n] for n in sorted(games) if upto is None or n <= upto]
        return list(self.iter_games(run, upto, steps))

    def iter_games(self, run: int, upto: int | None = None, steps: bool = False
                   ) -> Iterator[GameRecord]:
        limit = "" if upto is None else " AND number <= ?"
        args: tuple = (run,) if upto is None else (run, upto)
        column = "steps" if steps else "'[]'"
        row = self.db.execute("SELECT teams FROM runs WHERE id = ?", (run,)).fetchone()
        teams = json.loads(row[0]) if row is not None and row[0] is not None else None
        query = ("SELECT g.number, seed, rotation, agents, first, ranking, scores, "
                 f"decisions, ended_by, ending, stats, {column}, f.turns FROM games g LEFT "
                 "JOIN fired f ON f.run = g.run AND f.number = g.number WHERE g.run = ?"
                 f"{limit.replace('number', 'g.number')} ORDER BY g.number")
        try:
            for row in self.db.execute(query, args):
                yield GameRecord(row[0], row[1], row[2], json.loads(row[3]), row[4],
                                 json.loads(row[5]),
                                 json.loads(row[6]) if row[6] is not None else None, row[7],
                                 row[8], row[9], json.loads(row[10]), json.loads(row[11]),
                                 teams, turns=row[12])
        except (sqlite3.DatabaseError, ValueError) as err:
            raise bad_db(f"{self.path}: a game of run {run} cannot be read: {err}") from None

    def dump(self) -> list[tuple]:
        """Every row of every table, in a fixed order (to compare two databases)."""
        out: list[tuple] = []
        for table, order in (("runs", "id"), ("games", "run, number"),
                             ("comparisons", "base, variant"), ("chosen", "base, variant"),
                             ("points", "run, number"),
                             ("fired", "run, number"), ("calibrations", "run, agent"),
                             ("strengths", "run, agent"),
                             ("changed", "base, variant, word, name")):
            out += [(table, *row) for row in
                    self.db.execute(f"SELECT * FROM {table} ORDER BY {order}")]
        return out


RUN_COLUMNS = ("id, file, game, rules, settings, players, agents, seed, rotations, stats, "
               "limit_decisions, teams")
