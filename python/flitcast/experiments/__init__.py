"""The experiments registry: every reproduction, by id (`flitcast reproduce ID`, `flitcast list experiments`)."""

from __future__ import annotations

from flitcast.errors import ConfigError
from flitcast.experiments import banikazemi, casetti, collectives, dragonfly, oral, sivaram, zhou
from flitcast.experiments.claim import Claim
from flitcast.experiments.experiment import Experiment, Point, Reading, peak_throughput, run_experiment

EXPERIMENTS: dict[str, Experiment] = {e.id: e for e in [*banikazemi.EXPERIMENTS, *casetti.EXPERIMENTS, *oral.EXPERIMENTS, *sivaram.EXPERIMENTS, *zhou.EXPERIMENTS, *dragonfly.EXPERIMENTS, *collectives.EXPERIMENTS]}

__all__ = ["EXPERIMENTS", "Claim", "Experiment", "Point", "Reading", "get", "peak_throughput", "run_experiment"]


def get(experiment_id: str) -> Experiment:
    """The experiment called ``experiment_id``; a ConfigError listing the ids otherwise."""
    try:
        return EXPERIMENTS[experiment_id]
    except KeyError:
        raise ConfigError("experiment", experiment_id, "one of " + ", ".join(EXPERIMENTS)) from None
