"""Playing the games of one or more runs: in this process, a pool of processes, or on Ray;
with a progress bar; each batch stored as it arrives.

Stage: analysis. `play_runs` plays the game numbers a run does not hold yet, up to a
number of games, for several runs at once (a base and its variants on the same seeds). The
batches go to a backend, which hands back their results in any order; the results do not
depend on the order, the batch size or the number of workers (see games.py), so neither
does the database.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from .games import Batch, BatchResult, Plan, play_batch
from .store import Run, Store
from .workers import play_in_workers

MAX_BATCH = 100


@dataclass(frozen=True)
class Backend:
    """Where games are played: "local" (a pool of worker processes, this process itself
    for a single batch) or "ray" (an address, or a local cluster started for the run).
    With one worker, the games are played in one process beside the command's, which
    stores each batch and sums it up while the next is played: storing is off the path of
    the games (in the same process it added two thirds to tic-tac-toe's time). The
    workers are workers.py's."""

    kind: str = "local"
    workers: int = 1
    address: str | None = None

    def play(self, batches: Sequence[Batch], spare: Iterator[None] | None = None
             ) -> Iterator[BatchResult]:
        """The batches' results as they come; the steps of `spare` taken while the
        workers play and no result is there (none where the games are played here)."""
        if self.kind == "ray":
            from .ray_backend import play_on_ray

            yield from play_on_ray(batches, self.address, self.workers)
        elif len(batches) <= 1:
            for batch in batches:
                yield play_batch(batch)
        else:
            yield from play_in_workers(batches, max(1, self.workers), spare)


def batches_of(plan: Plan, numbers: list[int], workers: int, keep_steps: bool, run: int = 0
               ) -> list[Batch]:
    """The numbers cut into batches: a few per worker, at most MAX_BATCH games each."""
    if not numbers:
        return []
    size = max(1, min(MAX_BATCH, -(-len(numbers) // (4 * max(1, workers)))))
    return [Batch(plan, tuple(numbers[i:i + size]), keep_steps, run)
            for i in range(0, len(numbers), size)]


class Progress:
    """A rich progress bar on stderr: games done of all, games a second, time left."""

    def __init__(self, total: int, title: str, console: Any = None):
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )
        from rich.progress import Progress as Bar

        self.bar = Bar(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                       TextColumn("{task.fields[rate]} games/s"), TimeElapsedColumn(),
                       TextColumn("left"), TimeRemainingColumn(), console=console,
                       transient=False)
        self.task = self.bar.add_task(title, total=total, rate="-")
        self.start = time.perf_counter()
        self.done = 0

    def __enter__(self) -> Progress:
        self.bar.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.bar.stop()

    def advance(self, n: int) -> None:
        self.done += n
        rate = self.done / max(time.perf_counter() - self.start, 1e-9)
        self.bar.update(self.task, advance=n, rate=f"{rate:,.0f}" if rate >= 10
                        else f"{rate:.1f}")

    def total(self, total: int) -> None:
        self.bar.update(self.task, total=total)


def play_runs(store: Store, runs: Sequence[tuple[Run, Plan]], upto: int, backend: Backend,
              progress: Progress | None = None, keep_steps: bool = True,
              on_batch: Callable[[BatchResult], None] | None = None,
              spare: Iterator[None] | None = None) -> list[tuple[Run, int, Any]]:
    """Play every game number up to `upto` that each run does not hold yet, storing each
    batch as it arrives (the caller shows `progress`); returns the failures (run, game
    number, what stopped it). A failure ends the run: the games before it in its batch are
    stored; the games after it, and the batches not finished yet, are left unplayed.
    `spare`: steps of work to take while waiting for the workers (Backend.play)."""
    batches: list[Batch] = []
    by_id = {run.id: run for run, _ in runs}
    for run, plan in runs:
        have = store.numbers(run.id)
        missing = [n for n in range(1, upto + 1) if n not in have]
        batches += batches_of(plan, missing, backend.workers, keep_steps, run.id)
    failures: list[tuple[Run, int, Any]] = []
    for result in backend.play(batches, spare):
        run = by_id[result.run]
        store.add(run.id, result.records, result.rows)
        if result.failed is not None:
            failures.append((run, *result.failed))
        if progress is not None:
            played = len(result.rows[0]) if result.rows is not None else len(result.records)
            progress.advance(played + (result.failed is not None))
        if on_batch is not None:
            on_batch(result)
        if failures and backend.kind == "local" and backend.workers <= 1:
            break  # played in order: no batch after the failure (a pool plays on, so that
            # the smallest failing game is the one reported, whatever the workers)
    return failures
