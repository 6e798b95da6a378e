"""Where sweep points run: threads in this process, any ``concurrent.futures`` executor, or a Dask
cluster (``on_dask.py``).

Every runner takes jobs ``(index, scenario JSON)`` and yields, as points finish, lists of
``(index, outcome)`` where the outcome is the core's outcome JSON, or the exception that kept the point
from producing one (a broken process pool, a Dask task lost with its workers). Deterministic failures
of a point are outcome data, never exceptions. The caller's thread only ever waits with a timeout, so
Ctrl-C reaches it at once; when the consumer stops early (Ctrl-C, an exception, ``close()``), the runner
interrupts the points running in this process and cancels the ones not started.
"""

from __future__ import annotations

import os
from collections.abc import Generator, Sequence
from concurrent.futures import FIRST_COMPLETED, CancelledError, Executor, Future, ThreadPoolExecutor, wait
from typing import Any

__all__ = ["Finished", "Job", "max_threads", "on_executor", "on_threads", "run_outcome"]

#: one point to run: its index in the sweep and its core scenario JSON
Job = tuple[int, str]
#: points that finished together: (index, outcome JSON or the exception that lost the point)
Finished = list[tuple[int, "str | BaseException"]]

#: seconds between checks for Ctrl-C while waiting for points
POLL_SECONDS = 0.2


def max_threads() -> int:
    """The largest thread count a sweep accepts (more threads than this only adds overhead)."""
    return 8 * (os.cpu_count() or 1)


def run_outcome(payload: str) -> str:
    """Run one point in the core and return its outcome JSON (module level, so process pools can send it)."""
    from flitcast import _core

    return str(_core.run(payload))


def on_threads(jobs: Sequence[Job], threads: int, control: Any) -> Generator[Finished]:
    """Run the jobs on ``threads`` threads of this process (0 = one per core), each calling the core with
    the GIL released and the shared ``control``, which interrupts them all within a cycle."""
    workers = min(threads or os.cpu_count() or 1, max(len(jobs), 1))
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="flitcast-point") as pool:
        yield from on_executor(jobs, pool, control)


def on_executor(jobs: Sequence[Job], executor: Executor, control: Any) -> Generator[Finished]:
    """Run the jobs on ``executor``, one task per point. A thread pool runs in this process, so its points
    get the shared ``control`` and stop within a cycle on Ctrl-C; elsewhere, points not started are
    cancelled and running ones finish on their own."""
    from flitcast import _core

    def submit(payload: str) -> Future[str]:
        if isinstance(executor, ThreadPoolExecutor):
            return executor.submit(_core.run, payload, control)
        return executor.submit(run_outcome, payload)

    futures = {submit(payload): index for index, payload in jobs}
    pending = set(futures)
    try:
        while pending:
            done, pending = wait(pending, timeout=POLL_SECONDS, return_when=FIRST_COMPLETED)
            if done:
                yield [(futures[future], _outcome_of(future)) for future in done]
    except BaseException:
        control.interrupt()
        for future in pending:
            future.cancel()
        raise


def _outcome_of(future: Future[Any]) -> str | BaseException:
    if future.cancelled():  # e.g. the executor was shut down by its owner
        return CancelledError("the executor cancelled the point")
    exception = future.exception()
    if exception is not None:
        return exception
    return str(future.result())
