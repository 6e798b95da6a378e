"""The Python API: :func:`run` one scenario, :func:`sweep` many.

```
 Scenario | dict | TOML path ──► load_scenario ──► Scenario.to_core_dict() ──► JSON
                                                                              │
              local:    _core.run / _core.run_many (Rust threads, GIL released)
              executor: executor.submit(run, scenario)  (concurrent.futures, Dask, ...)
                                                                              ▼
            Result (scenario + metrics + channels) ◄── {"ok": ...} | {"error": ...} ──► flitcast.errors
```
"""

from __future__ import annotations

import itertools
import json
import os
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from flitcast.config import Scenario, load_scenario
from flitcast.errors import ConfigError, FlitcastError, InternalError, Interrupted, from_core
from flitcast.results import Result, ordered_columns

if TYPE_CHECKING:
    from concurrent.futures import Executor

    import pandas as pd

ScenarioLike = Scenario | Mapping[str, Any] | str | os.PathLike[str]
#: progress callback: called with (points done, points in total)
Progress = Callable[[int, int], None]
#: progress callback of one run: called with (cycle reached, cycle at which the measurement window ends)
CycleProgress = Callable[[int, int], None]

__all__ = ["frame_of", "grid", "run", "sweep"]


def _core() -> Any:
    from flitcast import _core as core

    return core


def _payload(scenario: Scenario) -> str:
    return json.dumps(scenario.to_core_dict())


def _result(scenario: Scenario, outcome_text: Any, wall_seconds: float) -> Result:
    """Turn one core outcome into a Result, or raise the matching flitcast error."""
    try:
        outcome = json.loads(outcome_text)
    except (TypeError, ValueError):
        raise InternalError(f"the core returned an unreadable outcome: {outcome_text!r:.200}") from None
    if isinstance(outcome, dict) and isinstance(outcome.get("ok"), dict):
        # the core times each point itself; the caller's timing is the fallback
        wall = outcome.get("wall_seconds")
        return Result.from_core(scenario, outcome["ok"], wall if isinstance(wall, float) else wall_seconds)
    if isinstance(outcome, dict) and "error" in outcome:
        raise from_core(outcome["error"], scenario.to_core_dict())
    raise InternalError(f"the core returned an outcome that is neither ok nor error: {outcome_text!r:.200}")


def run(scenario: ScenarioLike, progress: CycleProgress | None = None) -> Result:
    """Simulate one scenario (a :class:`Scenario`, a dict, or a TOML file path) and return its Result.

    ``progress(cycle, window_end)``, if given, is called about ten times a second with the simulated
    cycle reached and the cycle at which the measurement window ends (the drain may go past it).

    Raises :class:`flitcast.errors.ConfigError` before simulating anything if the scenario is invalid,
    and the matching :class:`flitcast.errors.SimulationError` if the run fails. Ctrl-C stops the core
    at its next simulated cycle and raises ``KeyboardInterrupt`` ("interrupted at cycle N"), whose
    ``__cause__`` is a :class:`flitcast.errors.Interrupted` carrying that ``cycle``.
    """
    point = load_scenario(scenario)
    if progress is not None and not callable(progress):
        raise ConfigError("progress", type(progress).__name__, "a callable progress(cycle, window_end), or None")
    payload = _payload(point)
    start = time.perf_counter()
    outcome = _run_on_core(payload, progress)
    return _result(point, outcome, time.perf_counter() - start)


#: how often the waiting thread wakes up: Ctrl-C latency and progress refresh
POLL_SECONDS = 0.1


def _run_on_core(payload: str, progress: CycleProgress | None) -> Any:
    """``_core.run`` on a worker thread, waited for in short slices so that Ctrl-C reaches the waiting
    thread at once (a call into the core would hold it until the run ends) and interrupts the core."""
    core = _core()
    control = core.Control()
    if progress is None and threading.current_thread() is not threading.main_thread():
        # only the main thread receives Ctrl-C: an executor's worker has nothing to wait for
        return core.run(payload, control)
    box: list[Any] = []
    done = threading.Event()

    def work() -> None:
        try:
            box.append(core.run(payload, control))
        except BaseException as exc:  # noqa: BLE001 - handed to the waiting thread
            box.append(exc)
        finally:
            done.set()

    # wait on an Event, not Thread.join: a join that Ctrl-C interrupts marks a running thread as
    # stopped (CPython 3.11), and the interpreter then aborts at exit
    threading.Thread(target=work, name="flitcast-core", daemon=True).start()
    try:
        while not done.wait(POLL_SECONDS):
            if progress is not None:
                progress(*control.progress)
    except BaseException as exc:
        control.interrupt()
        done.wait()
        if isinstance(exc, KeyboardInterrupt):
            cycle = control.progress[0]
            raise KeyboardInterrupt(f"interrupted at cycle {cycle}") from Interrupted(
                f"the run was interrupted at cycle {cycle}", cycle
            )
        raise
    if isinstance(box[0], BaseException):
        raise box[0]
    return box[0]


def grid(base: ScenarioLike, vary: Mapping[str, Sequence[Any]]) -> list[Scenario]:
    """The cartesian product of ``vary`` (dotted key -> values) applied to ``base``; last key varies fastest.

    ``vary`` must be a mapping whose values are lists or tuples (not a single value, not a string);
    anything else raises :class:`ConfigError`.
    """
    scenario = load_scenario(base)
    if not isinstance(vary, Mapping):
        raise ConfigError(
            "vary", type(vary).__name__, "a mapping of dotted keys to lists of values, e.g. {'workload.load': [0.1, 0.2]}"
        )
    for key, values in vary.items():
        if isinstance(values, (str, bytes)) or not isinstance(values, (Sequence, range)):
            raise ConfigError(str(key), values, "a list or tuple of the values to vary over, e.g. [0.1, 0.2]")
    keys = list(vary)
    points = []
    for index, values in enumerate(itertools.product(*vary.values())):
        overrides = dict(zip(keys, values, strict=True))
        try:
            points.append(scenario.with_overrides(overrides))
        except FlitcastError as exc:
            exc.add_context(f"sweep point {index} ({_show_overrides(overrides)})")
            raise
    return points


def frame_of(results: Iterable[Result]) -> pd.DataFrame:
    """A tidy table, one row per result: scenario columns (dotted keys), then the metric columns."""
    import pandas as pd

    rows = [r.row() for r in results]
    frame = pd.DataFrame(rows)
    if rows:
        frame = frame[ordered_columns(list(frame.columns))]
    return frame


def _show_overrides(overrides: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={v!r}" for k, v in overrides.items()) or "no overrides"


def _describe(point: Scenario, first: Scenario) -> str:
    overrides = point.overrides
    if not overrides:
        base = first.flat()
        overrides = {k: v for k, v in point.flat().items() if base.get(k) != v}
    return _show_overrides(overrides)


def _raise_first(failures: list[tuple[int, BaseException]], points: list[Scenario]) -> None:
    if not failures:
        return
    index, exc = failures[0]
    if isinstance(exc, FlitcastError):
        context = f"sweep point {index} ({_describe(points[index], points[0])})"
        if len(failures) > 1:
            context += f" [{len(failures) - 1} more of {len(points)} points failed too]"
        exc.add_context(context)
    raise exc


def sweep(
    scenarios: Iterable[ScenarioLike],
    executor: Executor | None = None,
    threads: int = 0,
    progress: Progress | None = None,
) -> pd.DataFrame:
    """Simulate many scenarios and return one tidy DataFrame (one row per point, in input order).

    Without ``executor`` the points run in the Rust core on ``threads`` threads (0 = all cores), in
    chunks so that ``progress(done, total)`` can advance. With an ``executor`` (anything with the
    ``concurrent.futures.Executor`` interface, e.g. a Dask client's executor) each point is submitted as
    ``run(scenario)``. Every point is validated before any is simulated. If points fail, the first
    failure is raised once all points have finished, naming its index and overrides.
    """
    points: list[Scenario] = []
    for index, item in enumerate(scenarios):
        try:
            points.append(load_scenario(item))
        except FlitcastError as exc:
            exc.add_context(f"sweep point {index}")
            raise
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 0:
        raise ConfigError("threads", threads, "an integer >= 0 (0 = all cores)")
    if executor is None:
        results, failures = _sweep_local(points, threads, progress)
    else:
        results, failures = _sweep_executor(points, executor, progress)
    _raise_first(failures, points)
    return frame_of(results)


def _sweep_local(
    points: list[Scenario], threads: int, progress: Progress | None
) -> tuple[list[Result], list[tuple[int, BaseException]]]:
    core = _core()
    total = len(points)
    workers = threads or os.cpu_count() or 1
    # one call for everything is fastest; a progress bar needs calls small enough to report often
    chunk = total if progress is None else 2 * workers
    results: list[Result] = []
    failures: list[tuple[int, BaseException]] = []
    if progress is not None:
        progress(0, total)
    for start in range(0, total, max(chunk, 1)):
        batch = points[start : start + chunk]
        began = time.perf_counter()
        outcomes = core.run_many([_payload(p) for p in batch], threads)
        wall = time.perf_counter() - began
        for offset, (point, outcome) in enumerate(zip(batch, outcomes, strict=True)):
            try:
                results.append(_result(point, outcome, wall))
            except FlitcastError as exc:
                failures.append((start + offset, exc))
        if progress is not None:
            progress(start + len(batch), total)
    return results, failures


def _sweep_executor(
    points: list[Scenario], executor: Executor, progress: Progress | None
) -> tuple[list[Result], list[tuple[int, BaseException]]]:
    total = len(points)
    futures = [executor.submit(run, point) for point in points]
    results: list[Result] = []
    failures: list[tuple[int, BaseException]] = []
    if progress is not None:
        progress(0, total)
    for index, future in enumerate(futures):
        try:
            results.append(future.result())
        except Exception as exc:  # noqa: BLE001 - every point must finish before the first failure is raised
            failures.append((index, exc))
        if progress is not None:
            progress(index + 1, total)
    return results, failures
