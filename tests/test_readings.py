"""Readings: an experiment run under another reading of what its study leaves open (docs/experiments.md,
"Readings") sets that reading's keys on every point, and nothing else changes."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from flitcast.cli import app
from flitcast.config import Scenario
from flitcast.errors import ConfigError
from flitcast.experiments import EXPERIMENTS, Experiment, Point, Reading


def _experiment() -> Experiment:
    def points(quick: bool) -> list[Point]:
        return [Point({"load": load}, Scenario.model_validate({"workload": {"load": load}})) for load in (0.1, 0.2)]

    return Experiment(
        id="toy",
        study="000",
        figure="Fig. 0",
        title="a toy",
        points=points,
        claims=lambda results: [],
        plot=lambda results, out: None,
        readings=(Reading("slow-links", "links of 5 cycles (the study gives none)", {"network.channel_latency_cycles": 5}),),
    )


def test_a_reading_sets_its_keys_on_every_point_and_nothing_else() -> None:
    toy = _experiment()
    read = toy.read_as("slow-links")
    assert read.reading == "slow-links" and toy.read_as(None) is toy
    for default, other in zip(toy.run_points(False), read.run_points(False), strict=True):
        assert default.labels == other.labels
        assert other.scenario.value("network.channel_latency_cycles") == 5
        assert other.scenario.value("workload.load") == default.scenario.value("workload.load")
        assert default.scenario.value("network.channel_latency_cycles") == 1


def test_an_unknown_reading_names_the_ones_there_are() -> None:
    with pytest.raises(ConfigError) as info:
        _experiment().read_as("fast")
    assert (info.value.key, info.value.value) == ("reading", "'fast'") and "one of slow-links" in info.value.allowed
    plain = next(e for e in EXPERIMENTS.values() if not e.readings)
    with pytest.raises(ConfigError, match="has only its default reading"):
        plain.read_as("fast")


def test_the_cli_refuses_an_unknown_reading_before_running_anything(tmp_path) -> None:
    plain = next(e for e in EXPERIMENTS.values() if not e.readings)
    result = CliRunner().invoke(app, ["reproduce", plain.id, "--reading", "fast", "--out", str(tmp_path / "x")])
    assert result.exit_code == 2 and "--reading" in result.output
    assert not (tmp_path / "x").exists()
