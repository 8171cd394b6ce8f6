"""`simulate --backend ray`: the batches of a run played as Ray tasks, on a cluster at an
address or on a local one started for the run.

Stage: analysis (a backend of running.py). Ray is an optional extra (`pip install
'rulesdsl[ray]'`). A batch is plain data (games.Batch) and a task plays it with the same
`play_batch` as the process pool, so the records, and the database, are the same as a
local run's for the same seed. Each worker process compiles a rule file once. On a
cluster of several machines the rule files must be at the same path on every machine (a
shared folder), and rulesdsl installed there.

When Ray is already running in this process (`ray.init` called by the program that uses
rulesdsl, or by a test), its cluster is used and left running; a cluster started here is
shut down at the end of the run.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from ..diagnostics import Diagnostic, RulesError
from .games import Batch, BatchResult, play_batch
from .store import bad_db

# what a cluster of several machines asks of the command that uses it (docs/balance.md)
CLUSTER_HINT = ("the address is the head node's HOST:PORT as `ray start --head` printed it; "
                "a cluster with token authentication (Ray 2.59 and later turn it on for "
                "clusters ray.init starts) needs RAY_AUTH_MODE=token and the cluster's "
                "token in RAY_AUTH_TOKEN, in the file RAY_AUTH_TOKEN_PATH names, or in "
                "~/.ray/auth_token")


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise bad_db("--backend ray needs Ray: pip install 'rulesdsl[ray]'") from None
    return ray


def _unreachable(address: str | None, err: Exception) -> RulesError:
    text = " ".join(str(err).split())[:400]
    where = f" at {address}" if address else ""
    return RulesError([Diagnostic("G006", f"cannot start or reach the Ray cluster{where}: "
                                  f"{type(err).__name__}: {text}",
                                  hint=CLUSTER_HINT if address else None)])


def play_on_ray(batches: Sequence[Batch], address: str | None, workers: int
                ) -> Iterator[BatchResult]:
    """Play the batches as Ray tasks, a few in flight per worker, yielding each result
    as it comes."""
    if not batches:
        return
    ray = _ray()
    started = False
    if not ray.is_initialized():
        try:
            if address:
                ray.init(address=address, log_to_driver=False, logging_level="ERROR")
            else:
                ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False,
                         logging_level="ERROR")
        except Exception as err:  # Ray reports a missing cluster with several types
            raise _unreachable(address, err) from None
        started = True
    remote = ray.remote(play_batch)
    todo = list(reversed(batches))
    running: list[Any] = []
    try:
        while todo or running:
            while todo and len(running) < 2 * max(1, workers):
                running.append(remote.remote(todo.pop()))
            done, running = ray.wait(running, num_returns=1)
            for ref in done:
                yield ray.get(ref)
    finally:
        for ref in running:
            ray.cancel(ref)
        if started:
            ray.shutdown()
