"""Readings: an experiment run under another reading of what its study leaves open (docs/experiments.md,
"Readings") sets that reading's keys on every point, and nothing else changes."""

from __future__ import annotations

import dataclasses

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
    plain = dataclasses.replace(_experiment(), readings=())
    with pytest.raises(ConfigError, match="has only its default reading"):
        plain.read_as("fast")


def test_the_cli_refuses_an_unknown_reading_before_running_anything(tmp_path) -> None:
    plain = next(iter(EXPERIMENTS.values()))
    result = CliRunner().invoke(app, ["reproduce", plain.id, "--reading", "fast", "--out", str(tmp_path / "x")])
    assert result.exit_code == 2 and "--reading" in result.output
    assert not (tmp_path / "x").exists()


def test_the_readings_table_gives_each_claims_status_under_each_reading() -> None:
    import pandas as pd

    from flitcast.experiments.experiment import readings_table

    default = pd.DataFrame({"claim": ["a", "b", "c"], "status": ["holds", "deviates", "not judged"]})
    other = pd.DataFrame({"claim": ["b", "a"], "status": ["holds", "holds"]})
    table = readings_table({"default": default, "host-links-50": other})
    assert list(table.columns) == ["claim", "default", "host-links-50"]
    assert table.values.tolist() == [
        ["a", "holds", "holds"],
        ["b", "deviates", "holds"],
        ["c", "not judged", "absent"],
    ]


def test_flitcast_readings_runs_every_reading_and_writes_the_table(tmp_path, monkeypatch) -> None:
    import pandas as pd

    from flitcast.experiments import oral

    # a study-004 figure (seconds), given a reading for the test: separate addressing's relays cost more
    exp = EXPERIMENTS["oral-fig5"]
    slow = Reading("slow-links", "2-cycle links became 4", {"network.channel_latency_cycles": 4})
    monkeypatch.setitem(EXPERIMENTS, "oral-fig5", dataclasses.replace(exp, readings=(slow,)))
    monkeypatch.setattr(oral, "GROUPS", [4, 8])
    out = tmp_path / "r"
    result = CliRunner().invoke(app, ["readings", "oral-fig5", "--quick", "--out", str(out), "--threads", "1"])
    assert result.exit_code == 0, result.output
    table = pd.read_csv(out / "readings.csv")
    assert list(table.columns) == ["claim", "default", "slow-links"]
    default = pd.read_csv(out / "default" / "claims.csv")
    assert table["default"].tolist() == default["status"].tolist()
    results = pd.read_csv(out / "slow-links" / "results.csv")
    assert (results["network.channel_latency_cycles"] == 4).all()


def test_flitcast_readings_simulates_only_the_points_a_reading_changes(tmp_path, monkeypatch) -> None:
    import sqlite3

    toy = _experiment()
    # a reading that slows the links of the load-0.2 point only: the load-0.1 point is the default's
    only_heavy = Reading("slow-heavy", "the heavier point's links of 5 cycles", lambda p: {"network.channel_latency_cycles": 5} if p.labels["load"] == 0.2 else {})
    monkeypatch.setitem(EXPERIMENTS, "toy", dataclasses.replace(toy, readings=(only_heavy,)))
    out = tmp_path / "r"
    result = CliRunner().invoke(app, ["readings", "toy", "--out", str(out), "--threads", "1"])
    assert result.exit_code == 0, result.output

    def outcomes(reading: str) -> list[str]:
        with sqlite3.connect(out / reading / "points.sqlite") as db:
            return [row[0] for row in db.execute("SELECT outcome FROM points ORDER BY point_index")]

    default, read = outcomes("default"), outcomes("slow-heavy")
    # the unchanged point's outcome is the default's record itself (its wall time included): not run again
    assert len(read) == 2 and read[0] == default[0] and read[1] != default[1]


def test_a_reading_may_set_keys_only_on_the_points_whose_kinds_take_them() -> None:
    exp = EXPERIMENTS["banikazemi-fig5"]  # O1, O4 and adaptive LRU
    read = exp.read_as("oblivious-d-mod-k")
    for default, other in zip(exp.run_points(True), read.run_points(True), strict=True):
        if default.labels["variant"] in ("O1", "O4"):
            assert other.scenario.value("routing.oblivious_table") == "d_mod_k"
        else:
            assert other is default or other.scenario == default.scenario
    history = exp.read_as("history-adaptive-hops").run_points(True)
    assert {p.scenario.value("routing.selection_history") for p in history if p.labels["variant"] == "LRU"} == {"adaptive_hops"}


@pytest.mark.parametrize("experiment", ["sivaram-fig14", "banikazemi-fig5"])
def test_the_read_port_reading_sets_when_empty_reads_on_every_central_buffer_point(experiment: str) -> None:
    exp = EXPERIMENTS[experiment]
    points = exp.read_as("reads-when-empty").run_points(True)
    assert points
    for default, other in zip(exp.run_points(True), points, strict=True):
        if default.scenario.value("switch.model") == "central_buffer":
            assert default.scenario.value("switch.buffer_reads") == "read_ahead"
            assert other.scenario.value("switch.buffer_reads") == "when_empty"
        else:  # the input-FIFO switch has no such key
            assert other is default or other.scenario == default.scenario


def test_the_readings_table_fits_80_columns_with_a_mark_per_status() -> None:
    import pandas as pd
    from rich.console import Console

    from flitcast.cli.readings_table import MARKS, readings_shown

    names = ["default", "separate-vc-allocation", "ugal-g-downstream", "valiant-all-groups", "long-channels", "deep-buffers", "three-vcs"]
    claims = ["worst case: minimal's throughput the one global channel's share, 1/(a·p)", "uniform: UGAL-L's throughput like minimal's"]
    table = pd.DataFrame({"claim": claims, **{n: ["holds", "deviates"] for n in names}})
    table.loc[0, "three-vcs"] = "not judged"
    out = Console(width=80, record=True)
    out.print(readings_shown(table, "dragonfly-routing: its claims under each reading"))
    text = out.export_text()
    assert max(map(len, text.splitlines())) <= 80 and "…" not in text
    assert all(f"R{i} {n}" in " ".join(text.split()) for i, n in enumerate(names))
    shown = readings_shown(table, "t")
    cells = [[str(c) for c in column.cells] for column in shown.columns]
    assert cells[2] == [MARKS["holds"], MARKS["deviates"]]  # R0, the default
    assert cells[-1][0] == f"[bold]{MARKS['not judged']}[/bold]"  # moved from the default: bold
    assert cells[-1][1] == MARKS["deviates"]
