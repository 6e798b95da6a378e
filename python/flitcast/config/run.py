"""``[run]``: run length, statistics and safety limits."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field, StrictInt, model_validator

from flitcast.config._base import Section
from flitcast.errors import ConfigError

_CYCLES = 10**9


class RunConfig(Section):
    """Warm-up, measurement window, drain, seed and the engine's safety limits."""

    section: ClassVar[str] = "run"

    warmup_cycles: StrictInt = Field(
        10000, ge=0, le=_CYCLES, description="Cycles simulated before measuring (not counted in the statistics)."
    )
    measure_cycles: StrictInt = Field(
        100000,
        ge=1,
        le=_CYCLES,
        description="Length of the measurement window in cycles; messages created in it are measured.",
    )
    drain_max_cycles: StrictInt = Field(
        100000,
        ge=0,
        le=_CYCLES,
        description="After the window, at most this many cycles to deliver the measured messages; "
        "a point that does not drain in time is reported as saturated.",
    )
    seed: StrictInt = Field(1, ge=0, le=2**63 - 1, description="Master seed; every random stream is derived from it.")
    watchdog_cycles: StrictInt = Field(
        10000,
        ge=1,
        le=_CYCLES,
        description="Deadlock watchdog: flits in the network and none moved for this many cycles "
        "stops the run with a deadlock error.",
    )
    batches: StrictInt = Field(
        10,
        ge=2,
        le=1000,
        description="Number of batches the measurement window is cut into for the batch-means "
        "confidence interval (at most run.measure_cycles).",
    )
    max_nodes: StrictInt = Field(
        65536,
        ge=1,
        le=1048576,
        description="Safety limit on the network size k**n (raise it deliberately for huge networks).",
    )

    saturation_stop: Literal["backlog", "off"] = Field(
        "backlog",
        description="End a run past saturation early: `backlog` stops it (saturated, no drain) once its source "
        "queues have clearly grown without bound (by more than 10% of the offered traffic) and its accepted load is precise and settled (95% half-width and "
        "drift between the halves of the elapsed window at most 0.005), never before a tenth of the window "
        "(docs/engine.md); loads then cover the cycles that ran (`measured_cycles`). `off` always runs the whole "
        "window and the drain.",
    )
    memory_limit_mb: StrictInt = Field(
        0,
        ge=0,
        le=2**40,
        description="Memory budget of one run in MB; a scenario estimated to need more is refused before anything "
        "is allocated, naming the keys that drive its size. 0: half the machine's memory. Sweeps count their "
        "parallel points against it.",
    )

    @model_validator(mode="after")
    def _batches_fit(self) -> RunConfig:
        if self.batches > self.measure_cycles:
            raise ConfigError(
                "run.batches",
                self.batches,
                f"at most run.measure_cycles = {self.measure_cycles} (one cycle per batch at least)",
            )
        return self
