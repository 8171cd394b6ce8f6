"""Worker processes that play batches and hand back their games, each over a pipe of its own.

Stage: analysis (the local backend of running.py). The command's own thread sends each
worker its next batches ahead (`AHEAD` of them), reads each result from the pipes as it
comes, and sends that worker its next batch: nothing else runs in the command's process.
`concurrent.futures`' process pool moved every batch and every result through two helper
threads of the command's process, which had to take the interpreter's lock from the
thread storing the games (a switch every 5 ms at most), and kept two batches in flight.

What a worker sends back: where one worker plays, its records as their fields, the least
work for the games' process (the command's process makes the rows on a core of its own);
where several play, the rows themselves (rows.py), or the command's process would be the
slower side.

A result is handed on in the order of the batches: with one worker every batch before a
failed one is stored before the failure is seen. An exception in a worker is raised in the
command's process; a worker that dies is an error that says so (G008). When the command stops
reading (a failure, an interruption), the workers are stopped: they hold at most `AHEAD`
batches, so an interruption loses little.
"""

from __future__ import annotations

import multiprocessing
from collections import deque
from collections.abc import Iterator, Sequence
from multiprocessing.connection import Connection, wait
from typing import Any

from ..diagnostics import Diagnostic, RulesError
from .games import Batch, BatchResult
from .rows import play_for_store, play_to_send, received

AHEAD = 4  # batches sent to a worker before it hands back the first: it never waits


def _serve(conn: Connection, rows_here: bool) -> None:
    """A worker's loop: play each batch received, send back its result, until None. It
    makes the rows of its games where several workers play (`rows_here`: the command's
    process would be the slower side otherwise), and sends the records alone where one
    does (the command's process makes the rows on a core of its own: the games' process
    keeps the least work)."""
    play = play_for_store if rows_here else play_to_send
    try:
        while True:
            batch = conn.recv()
            if batch is None:
                return
            try:
                reply: tuple[str, Any] = ("done", play(batch))
            except Exception as err:  # raised again in the command's process
                reply = ("error", err)
            try:
                conn.send(reply)
            except Exception as err:  # an exception that cannot be pickled: its text
                conn.send(("error", RuntimeError(f"{type(err).__name__}: {err}")))
    except (KeyboardInterrupt, EOFError, BrokenPipeError):
        return  # the command stopped: it says why


class _Worker:
    def __init__(self, context: Any, rows_here: bool):
        self.conn, there = context.Pipe()
        self.process = context.Process(target=_serve, args=(there, rows_here), daemon=True)
        self.process.start()
        there.close()
        self.sent: deque[int] = deque()  # the batches it holds, by their place in the run

    def send(self, index: int, batch: Batch) -> None:
        self.conn.send(batch)
        self.sent.append(index)

    def receive(self) -> BatchResult:
        try:
            kind, got = self.conn.recv()
        except (EOFError, OSError):
            self.process.join(5)
            raise RulesError([Diagnostic(
                "G008", "a worker process ended while it played a batch of games (exit "
                f"code {self.process.exitcode}): killed, or out of memory",
                notes=["the games of the batches before it are stored: the same command "
                       "again plays only the rest"])]) from None
        self.sent.popleft()
        if kind == "error":
            raise got
        return received(got)

    def stop(self, finished: bool) -> None:
        try:
            if finished:
                self.conn.send(None)
        except OSError:
            pass
        self.conn.close()
        if not finished:
            self.process.terminate()
        self.process.join(5)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()


def play_in_workers(batches: Sequence[Batch], workers: int,
                    spare: Iterator[None] | None = None) -> Iterator[BatchResult]:
    """Play the batches in `workers` processes (forked as the platform's default start
    method makes them), yielding each result; in the order of the batches among those that
    arrive together. While no result is there, the steps of `spare` are taken, one at a
    time (work the command will need later)."""
    todo = deque(enumerate(batches))
    spare = spare if spare is not None else iter(())
    context = multiprocessing.get_context()
    count = max(1, min(workers, len(batches)))
    pool = [_Worker(context, count > 1) for _ in range(count)]
    finished = False
    try:
        for _ in range(AHEAD):
            for worker in pool:
                if todo:
                    worker.send(*todo.popleft())
        busy = {worker.conn: worker for worker in pool if worker.sent}
        while busy:
            ready = wait(list(busy), timeout=0)
            if not ready and next(spare, False) is None:
                continue
            ready = ready or wait(list(busy))
            for worker in sorted((busy[c] for c in ready), key=lambda w: w.sent[0]):
                result = worker.receive()
                if todo:
                    worker.send(*todo.popleft())
                if not worker.sent:
                    del busy[worker.conn]
                yield result
        finished = True
    finally:
        for worker in pool:
            worker.stop(finished)
