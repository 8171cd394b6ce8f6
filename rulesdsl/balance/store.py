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
again, which cost as much as a fifth of playing tic-tac-toe's games.

A file that is not such a database, or one of another format, is an error for people
(G006), never a traceback.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..diagnostics import Diagnostic, RulesError
from .games import GameRecord, Plan

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
            self.db = sqlite3.connect(self.path)
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
        # as `games` reads them back, and the run's teams
        self.kept: dict[int, tuple[dict[int, GameRecord], list[list[int]] | None]] = {}

    def close(self) -> None:
        self.db.close()

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
        else:
            run_id = row[0]
        return self.run(int(run_id))  # type: ignore[arg-type]

    def runs(self) -> list[Run]:
        return [self._run(r) for r in self.db.execute(f"SELECT {RUN_COLUMNS} FROM runs "
                                                       "ORDER BY id")]

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

    def comparisons(self) -> list[tuple[int, int]]:
        return list(self.db.execute("SELECT base, variant FROM comparisons ORDER BY base, "
                                    "variant"))

    # ---- games ---------------------------------------------------------------------------

    def numbers(self, run: int) -> set[int]:
        """The game numbers stored for a run."""
        return {n for (n,) in self.db.execute("SELECT number FROM games WHERE run = ?",
                                              (run,))}

    def add(self, run: int, records: Sequence[GameRecord]) -> None:
        """Store games and commit: what is stored survives an interruption."""
        rows = [(run, g.number, g.seed, g.rotation, _dumps(g.agents), g.first,
                 _dumps(g.ranking), _dumps(g.scores) if g.scores is not None else None,
                 g.decisions, g.ended_by, g.ending, _sorted_dumps(g.stats), _dumps(g.steps))
                for g in records]
        self.db.executemany(
            "INSERT OR REPLACE INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
        self.db.commit()
        if run in self.kept:
            games, teams = self.kept[run]
            for g, r in zip(records, rows):  # as `iter_games` decodes the row (its steps
                # left out): lists of text and numbers copied, the statistics decoded
                games[g.number] = GameRecord(
                    g.number, g.seed, g.rotation, list(g.agents), g.first, list(g.ranking),
                    list(g.scores) if g.scores is not None else None, g.decisions,
                    g.ended_by, g.ending, _loads_stats(r[11]), [], teams)

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
        query = ("SELECT number, seed, rotation, agents, first, ranking, scores, decisions, "
                 f"ended_by, ending, stats, {column} FROM games WHERE run = ?{limit} "
                 "ORDER BY number")
        try:
            for row in self.db.execute(query, args):
                yield GameRecord(row[0], row[1], row[2], json.loads(row[3]), row[4],
                                 json.loads(row[5]),
                                 json.loads(row[6]) if row[6] is not None else None, row[7],
                                 row[8], row[9], json.loads(row[10]), json.loads(row[11]),
                                 teams)
        except (sqlite3.DatabaseError, ValueError) as err:
            raise bad_db(f"{self.path}: a game of run {run} cannot be read: {err}") from None

    def dump(self) -> list[tuple]:
        """Every row of every table, in a fixed order (to compare two databases)."""
        out: list[tuple] = []
        for table, order in (("runs", "id"), ("games", "run, number"),
                             ("comparisons", "base, variant")):
            out += [(table, *row) for row in
                    self.db.execute(f"SELECT * FROM {table} ORDER BY {order}")]
        return out


_dumps = json.JSONEncoder().encode  # as json.dumps, without looking at its options each time
_sorted_dumps = json.JSONEncoder(sort_keys=True).encode
_EMPTY = "{}"


def _loads_stats(text: str) -> dict[str, Any]:
    return {} if text == _EMPTY else json.loads(text)


RUN_COLUMNS = ("id, file, game, rules, settings, players, agents, seed, rotations, stats, "
               "limit_decisions, teams")
