"""The Python API for one scenario: :func:`run` it on the core (docs/core-interface.md). Many scenarios:
:func:`flitcast.sweep` (``flitcast/sweeps/``).

```
 Scenario | dict | TOML path ──► load_scenario ──► Scenario.to_core_dict() ──► JSON ──► _core.run (GIL released)
                                                                                        │
                      Result (scenario + metrics) ◄── {"ok": ...} | {"error": ...} ──► flitcast.errors
```
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

from flitcast.config import Scenario, load_scenario
from flitcast.errors import ConfigError, InternalError, Interrupted, from_core
from flitcast.results import Result

ScenarioLike = Scenario | Mapping[str, Any] | str | os.PathLike[str]
#: progress callback of one run: called with (cycle reached, cycle at which the measurement window ends)
CycleProgress = Callable[[int, int], None]

__all__ = ["collective_estimate", "core_outcome", "payload", "result_of", "run"]


def core() -> Any:
    """The core extension (imported on first use: `import flitcast` stays light)."""
    from flitcast import _core

    return _core


def payload(scenario: Scenario) -> str:
    """The JSON the core runs for `scenario`."""
    return json.dumps(scenario.to_core_dict())


def ok_outcome(scenario: Scenario, outcome_text: Any) -> dict[str, Any]:
    """One core outcome of ``scenario`` that is ``{"ok": ...}`` (docs/core-interface.md), or raise the
    matching flitcast error."""
    try:
        outcome = json.loads(outcome_text)
    except (TypeError, ValueError):
        raise InternalError(f"the core returned an unreadable outcome: {outcome_text!r:.200}") from None
    if isinstance(outcome, dict) and isinstance(outcome.get("ok"), dict):
        return outcome
    if isinstance(outcome, dict) and "error" in outcome:
        raise from_core(outcome["error"], scenario.to_core_dict())
    raise InternalError(f"the core returned an outcome that is neither ok nor error: {outcome_text!r:.200}")


def result_of(scenario: Scenario, outcome_text: Any, wall_seconds: float) -> Result:
    """Turn one core outcome into a Result, or raise the matching flitcast error."""
    outcome = ok_outcome(scenario, outcome_text)
    # the core times each point itself; the caller's timing is the fallback
    wall = outcome.get("wall_seconds")
    return Result.from_core(scenario, outcome["ok"], wall if isinstance(wall, float) else wall_seconds)


def collective_estimate(scenario: ScenarioLike) -> dict[str, Any]:
    """The α-β-γ estimate of ``scenario``'s collective (a :class:`Scenario`, a dict, or a TOML file path)
    without simulating it (docs/models/collectives.md, "The estimate"): ``{"members", "rank_cycles",
    "completion_cycles"}``; the matching flitcast error otherwise (a scenario of another program: a
    ConfigError on ``workload.program``)."""
    point = load_scenario(scenario)
    return ok_outcome(point, core().collective_estimate(payload(point)))["ok"]


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
    text = payload(point)
    start = time.perf_counter()
    outcome = core_outcome(text, progress)
    return result_of(point, outcome, time.perf_counter() - start)


#: how often the waiting thread wakes up: Ctrl-C latency and progress refresh
POLL_SECONDS = 0.1


def core_outcome(payload: str, progress: CycleProgress | None) -> Any:
    """``_core.run`` on a worker thread, waited for in short slices so that Ctrl-C reaches the waiting
    thread at once (a call into the core would hold it until the run ends) and interrupts the core."""
    extension = core()
    control = extension.Control()
    if progress is None and threading.current_thread() is not threading.main_thread():
        # only the main thread receives Ctrl-C: an executor's worker has nothing to wait for
        return extension.run(payload, control)
    box: list[Any] = []
    done = threading.Event()

    def work() -> None:
        try:
            box.append(extension.run(payload, control))
        except BaseException as exc:
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


