"""Running a sweep: many scenarios, each once, on threads of this process, an executor or a Dask cluster,
recorded in the point store as they finish so an interrupted sweep resumes (docs/sweeps.md).

```
 scenarios ──► Scenario.to_core_dict() ──► JSON; Scenario.minimal() ──► store key
                                                                              │
      points already in the store ◄── store (DIR/points.sqlite) ◄── recorded as each point finishes
                                                                              │ (the others)
              threads:  _core.run(json, control) on a thread pool (GIL released)  sweeps/threads.py
              executor: executor.submit(...)  (any concurrent.futures.Executor)   sweeps/threads.py
              client:   tasks of several points on a Dask cluster              sweeps/on_dask.py
                                                                              ▼
  table row (scenario + metrics, or error) ◄── {"ok": ...} | {"error": ...} ──► flitcast.errors
```
"""

from __future__ import annotations

import json
import math
import os
from collections import Counter
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence
from contextlib import closing, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flitcast.api import ScenarioLike, core, result_of
from flitcast.config import Scenario, load_scenario
from flitcast.config.scenario import from_numpy
from flitcast.errors import ConfigError, FlitcastError, SweepIncomplete, SweepInterrupted, from_core
from flitcast.results import METRIC_COLUMNS, frame
from flitcast.sweeps.store import STORE_FILE, PointStore, point_key, run_id
from flitcast.sweeps.threads import Finished, max_threads, on_executor, on_threads

if TYPE_CHECKING:
    from concurrent.futures import Executor

    import pandas as pd

#: progress callback: called with (points done, points in total)
Progress = Callable[[int, int], None]

__all__ = ["check_threads", "memory_threads", "point_threads", "run_identity", "sweep"]


def run_identity(points: Sequence[Scenario]) -> str:
    """The identity of a sweep of ``points`` (in order), as recorded in its store (sweeps/store.py)."""
    return run_id([point_key(p.minimal()) for p in points])


def check_threads(threads: Any, option: str = "threads") -> int:
    """``threads`` if it is an allowed thread count (0 = one per core), else a ConfigError naming ``option``."""
    limit = max_threads()
    threads = from_numpy(threads)  # np.int64 from np.arange, as the int it holds
    if isinstance(threads, bool) or not isinstance(threads, int) or not 0 <= threads <= limit:
        raise ConfigError(
            option, threads, f"an integer from 0 (one thread per core) to {limit} (8 per core on this machine)"
        )
    return threads


def point_threads(payloads: Sequence[Mapping[str, Any]], threads: int) -> int:
    """How many of ``payloads`` run at once on ``threads`` threads (0 = one per core) when each point may
    itself run on ``run.threads`` of them: ``threads`` if every point takes one, else the budget divided by
    the most any point takes (at least one point at a time)."""
    per_point = max((int(p["run"].get("threads", 1)) for p in payloads), default=1)
    if per_point <= 1:
        return threads
    return max(1, (threads or os.cpu_count() or 1) // per_point)


def memory_threads(payloads: Sequence[Mapping[str, Any]], threads: int) -> int:
    """The thread count for running ``payloads`` here within their memory budget (``run.memory_limit_mb``):
    ``threads`` (0 = one per core), lowered with a warning when that many of the largest point at once
    would not fit. A point that alone exceeds the budget is a ConfigError before anything runs."""
    if not payloads:
        return threads
    # the estimate depends on neither the load nor the seed: one per distinct remaining scenario
    distinct: dict[str, Mapping[str, Any]] = {}
    for payload in payloads:
        shape = {**payload, "workload": {**payload["workload"], "load": 0}, "run": {**payload["run"], "seed": 0}}
        distinct.setdefault(json.dumps(shape, sort_keys=True), payload)
    estimates = []
    for payload in distinct.values():
        outcome = json.loads(core().memory_estimate(json.dumps(payload)))
        if "error" in outcome:
            raise from_core(outcome["error"], payload)
        estimates.append(outcome["ok"])
    largest = max(e["bytes"] for e in estimates)
    limit = min(e["limit_bytes"] for e in estimates)
    if largest > limit:
        # the core refuses such a point with its parts named; say it now, before anything runs
        worst = max(estimates, key=lambda e: e["bytes"])
        parts = sorted(worst["parts"], key=lambda p: -p["bytes"])[:3]
        shown = ", ".join(f"{p['what']} {p['bytes'] >> 20} MB (driven by {p['keys']})" for p in parts)
        raise ConfigError(
            "run.memory_limit_mb",
            min(p["run"]["memory_limit_mb"] for p in distinct.values()),
            f"a budget of at least {largest >> 20} MB: the largest point of this sweep needs {shown}",
        )
    wanted = min(threads or os.cpu_count() or 1, len(payloads))
    fitting = max(1, limit // max(largest, 1))
    if wanted > fitting:
        import warnings

        warnings.warn(
            f"running {fitting} points at a time instead of {wanted}: each may need {largest >> 20} MB and the "
            f"budget (run.memory_limit_mb) is {limit >> 20} MB",
            stacklevel=3,
        )
        return int(fitting)
    return threads


def sweep(
    scenarios: Iterable[ScenarioLike],
    executor: Executor | None = None,
    threads: int = 0,
    progress: Progress | bool | None = None,
    *,
    client: Any = None,
    store: str | os.PathLike[str] | None = None,
    force: bool = False,
    run: str | None = None,
    reuse: Sequence[str | os.PathLike[str]] = (),
) -> pd.DataFrame:
    """Simulate many scenarios and return one tidy DataFrame (one row per point, in input order).

    Where the points run: by default on ``threads`` threads of this process (0 = one per core; at most
    8 per core); with ``executor`` (any ``concurrent.futures.Executor``) one task per point; with
    ``client`` (a ``distributed.Client``) in tasks of several points on that Dask cluster
    (docs/sweeps.md). ``progress(done, total)`` is called as points finish; ``progress=True`` draws a bar
    (on a terminal or in a notebook) with the time left.

    ``store`` names an output directory whose ``points.sqlite`` records every point as it finishes: run
    the same sweep again and only the missing points run. The directory must be new, empty, or this
    sweep's own; ``force=True`` discards its store and recomputes everything (docs/results.md). ``run``
    is the identity the store records (default: these points'); one logical run made of several sweeps —
    an experiment that runs only the loads its peaks need, round by round — passes its whole run's.
    ``reuse`` names output directories of other runs: a point missing from this run's store whose
    scenario one of them recorded is taken from there (the same scenario, the same outcome: the runs
    are deterministic and a point's key is its scenario's hash) and recorded in this store, not
    simulated again — how ``flitcast readings`` runs only the points a reading changes.

    Every point is validated before any is simulated. A point that fails (deadlock, routing check,
    conservation, internal error) does not stop the others: its row has empty metrics and the message
    in the ``error`` column (empty for points that succeeded). Ctrl-C stops the running points within
    a cycle, cancels the rest and raises :class:`flitcast.errors.SweepInterrupted` (an ``Interrupted``)
    saying how many points are kept; :class:`flitcast.errors.SweepIncomplete` means some points got no
    outcome (e.g. their Dask task was lost); the finished ones are kept in the store either way.
    """
    check_threads(threads)  # the arguments first: validating thousands of points takes a while
    _check_runner(executor, client)
    _check_options(progress, store, force, run)
    reused = _reuse_dirs(reuse)
    points = _load_points(scenarios)
    if isinstance(progress, bool):
        if not progress:
            progress = None
        else:
            from flitcast.sweeps.progress_bar import progress_bar

            with progress_bar(len(points)) as bar:
                options = {"client": client, "store": store, "force": force, "run": run, "reuse": reuse}
                return sweep(points, executor, threads, bar, **options)
    payloads = [p.to_core_dict() for p in points]
    keys = [point_key(p.minimal()) for p in points]
    with _opened_store(store, force, run, keys) as db:
        outcomes = db.outcomes(keys) if db is not None else {}
        _take_reused(reused, keys, outcomes, db)
        missing = _missing(keys, outcomes)
        # the costliest first (longest processing time first): a sweep does not end on one long point
        # while the other workers idle; rows come back in input order whatever the order run
        order = sorted(missing.values(), key=lambda index: -_node_cycles(points[index]))
        jobs = [(index, json.dumps(payloads[index])) for index in order]
        if client is None and executor is None:
            threads = point_threads([payloads[index] for index, _ in jobs], threads)
            threads = memory_threads([payloads[index] for index, _ in jobs], threads)
        if client is not None:
            from flitcast.sweeps.on_dask import on_dask

            node_cycles = [_node_cycles(points[index]) for index, _ in jobs]
            runner = on_dask(jobs, node_cycles, client)
        else:
            control = core().Control()
            runner = on_threads(jobs, threads, control) if executor is None else on_executor(jobs, executor, control)
        unfinished = _collect(runner, keys, outcomes, db, progress)
    if unfinished:
        kept = sum(1 for key in keys if key in outcomes)
        raise SweepIncomplete(unfinished, kept, len(points), str(db.path) if db is not None else None)
    return _table(points, keys, outcomes)


@contextmanager
def _opened_store(
    store: str | os.PathLike[str] | None, force: bool, run: str | None, keys: list[str]
) -> Iterator[PointStore | None]:
    """The point store of the output directory ``store`` (None without one) for the run ``run`` (default:
    these points'), closed at the end; a store created here that recorded no point when the sweep failed
    is removed again (outdir.out_dir_of_run)."""
    if store is None:
        yield None
        return
    from flitcast.sweeps.outdir import out_dir_of_run

    run = run or run_id(keys)
    with out_dir_of_run(store, force, run, option="store") as path, closing(PointStore.open(path, run)) as db:
        yield db


def _load_points(scenarios: Any) -> list[Scenario]:
    expected = (
        "an iterable of scenarios (Scenario objects, dicts or TOML paths), e.g. a list; "
        "for one file pass [path], for a grid flitcast.grid(base, vary)"
    )
    if isinstance(scenarios, (str, bytes, os.PathLike, Mapping, Scenario)):
        raise ConfigError("scenarios", scenarios, expected, reason="one scenario, not an iterable of them")
    try:
        items = iter(scenarios)
    except TypeError:
        raise ConfigError("scenarios", scenarios, expected) from None
    points: list[Scenario] = []
    for index, item in enumerate(items):
        try:
            points.append(load_scenario(item))
        except FlitcastError as exc:
            exc.add_context(f"sweep point {index}")
            raise
    if not points:
        # (an empty sweep has no table to return: not even the scenario columns are known)
        allowed = "at least one scenario (a Scenario, a dict or a TOML path)"
        raise ConfigError("scenarios", scenarios, allowed, reason="it holds none")
    return points


def _check_runner(executor: Any, client: Any) -> None:
    from concurrent.futures import Executor

    if executor is not None and client is not None:
        raise ConfigError("executor", executor, "either executor= or client=, not both")
    if executor is not None and not isinstance(executor, Executor):
        raise ConfigError(
            "executor", executor, "a concurrent.futures.Executor (e.g. ThreadPoolExecutor), or None for local threads"
        )
    if client is not None:
        from flitcast.sweeps.on_dask import is_client

        if not is_client(client):
            raise ConfigError(
                "client", client, "a distributed.Client (Dask; pip install 'flitcast[dask]'), or None for local threads"
            )


def _reuse_dirs(reuse: Any) -> list[Path]:
    allowed = "a list of output directories of earlier runs, each holding a point store (points.sqlite)"
    if isinstance(reuse, (str, bytes, os.PathLike)) or not isinstance(reuse, Sequence):
        raise ConfigError("reuse", reuse, allowed)
    dirs = []
    for item in reuse:
        if not isinstance(item, (str, os.PathLike)) or not (Path(item) / STORE_FILE).is_file():
            raise ConfigError("reuse", item, allowed, reason="it holds no point store")
        dirs.append(Path(item))
    return dirs


def _missing(keys: list[str], outcomes: dict[str, str]) -> dict[str, int]:
    """key -> index of its first point, for the points without an outcome (a point given twice runs once)."""
    missing: dict[str, int] = {}
    for index, key in enumerate(keys):
        if key not in outcomes:
            missing.setdefault(key, index)
    return missing


def _take_reused(dirs: list[Path], keys: list[str], outcomes: dict[str, str], db: PointStore | None) -> None:
    """The outcomes the ``dirs``' stores recorded for the points still missing, into ``outcomes`` and this
    run's store (each under its first point's index)."""
    for directory in dirs:
        missing = _missing(keys, outcomes)
        found = PointStore.outcomes_in(directory, missing)
        if db is not None:
            db.record((key, missing[key], _status(outcome)[0] is True, outcome) for key, outcome in found.items())
        outcomes.update(found)


def _check_options(progress: Any, store: Any, force: Any, run: Any) -> None:
    if progress is not None and not isinstance(progress, bool) and not callable(progress):
        raise ConfigError("progress", progress, "a callable progress(done, total), True for a bar, or None")
    if store is not None and not isinstance(store, (str, os.PathLike)):
        raise ConfigError("store", store, "a directory path (a str or an os.PathLike), or None for no store")
    if not isinstance(force, bool):
        raise ConfigError("force", force, "True or False")
    if run is not None and not isinstance(run, str):
        raise ConfigError("run", run, "a run identity (a str, see run_identity), or None for these points'")


def _node_cycles(point: Scenario) -> float:
    """A point's cost estimate for batching (docs/sweeps.md)."""
    return float(point.nodes * point.window_end)


def _status(outcome: str | BaseException) -> tuple[bool | None, str]:
    """(True: ok, False: failed, None: no outcome) and, for None, why."""
    if isinstance(outcome, BaseException):
        return None, f"{type(outcome).__name__}: {outcome}"
    try:
        data = json.loads(outcome)
    except ValueError:
        return False, ""  # unreadable: an internal error, as deterministic as any other
    error = data.get("error") if isinstance(data, dict) else None
    if isinstance(error, dict) and error.get("kind") == "interrupted":
        return None, "interrupted"  # never recorded: the point did not finish
    return error is None, ""


def _collect(
    runner: Generator[Finished],
    keys: list[str],
    outcomes: dict[str, str],
    db: PointStore | None,
    progress: Progress | None,
) -> list[tuple[int, str]]:
    """Take the runner's outcomes as they come: record them, count progress. Returns the points that got
    no outcome; on Ctrl-C, stops the runner and raises SweepInterrupted."""
    copies = Counter(keys)
    total = len(keys)
    done = sum(copies[key] for key in outcomes)
    unfinished: list[tuple[int, str]] = []
    try:
        if progress is not None:
            progress(done, total)
        with closing(runner) as batches:
            for finished in batches:
                records = []
                for index, outcome in finished:
                    ok, reason = _status(outcome)
                    if ok is None:
                        unfinished.append((index, reason))
                        continue
                    assert isinstance(outcome, str)
                    records.append((keys[index], index, ok, outcome))
                if db is not None:
                    db.record(records)
                for key, _, _, outcome in records:
                    outcomes[key] = outcome
                    done += copies[key]
                if progress is not None:
                    progress(done, total)
    except KeyboardInterrupt:
        if db is not None:
            kept = sum(copies[key] for key in db.outcomes(keys))
            raise SweepInterrupted(kept, total, str(db.path)) from None
        raise SweepInterrupted(done, total, None) from None
    return sorted(unfinished)


def _table(points: list[Scenario], keys: list[str], outcomes: dict[str, str]) -> pd.DataFrame:
    rows = []
    for point, key in zip(points, keys, strict=True):
        try:
            rows.append(result_of(point, outcomes[key], math.nan).row())
        except FlitcastError as exc:
            rows.append({**point.flat(), **dict.fromkeys(METRIC_COLUMNS), "error": str(exc)})
    return frame(rows)
