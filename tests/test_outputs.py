"""Run directories: the columns of results.csv/.parquet, scenario.toml, and all-or-nothing writing."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

import flitcast
from flitcast import errors
from flitcast.sweeps import outdir
from flitcast.config import Scenario

METRICS = [
    "offered_load", "accepted_load", "latency_mean", "latency_ci95", "latency_p99", "network_latency_mean",
    "hops_mean", "packets_measured", "cycles", "saturated", "seed",
]
SCENARIO_COLUMNS = ["network.k", "network.topology", "switch.vcs", "workload.load", "workload.pattern", "run.seed"]


@pytest.fixture
def swept(tiny: dict[str, Any]) -> tuple[Scenario, dict[str, list[Any]], pd.DataFrame]:
    base = Scenario.model_validate({**tiny, "workload": {**tiny["workload"], "pattern": "hotspot",
                                                          "hotspot_nodes": [0, 5], "hotspot_fraction": 0.2}})
    vary = {"workload.load": [0.05, 0.15], "switch.vcs": [2, 4]}
    from flitcast.sweeps.grid import grid

    return base, vary, flitcast.sweep(grid(base, vary))


def test_csv_and_parquet_columns(swept, tmp_path: Path) -> None:
    base, vary, frame = swept
    written = outdir.write_run_dir(tmp_path / "run", frame, base, vary)
    assert sorted(p.name for p in written) == ["latency_vs_load.png", "results.csv", "results.parquet", "scenario.toml"]
    csv = pd.read_csv(tmp_path / "run" / "results.csv")
    parquet = pd.read_parquet(tmp_path / "run" / "results.parquet")
    for table in (csv, parquet):
        assert len(table) == 4
        for column in METRICS + SCENARIO_COLUMNS + ["wall_seconds", "latency_p50", "saturation_reason"]:
            assert column in table.columns, column
        assert "channel_names" not in table.columns and "channel_utilisation" not in table.columns
    assert list(csv.columns) == list(frame.columns) == list(parquet.columns)
    assert list(parquet["switch.vcs"]) == [2, 4, 2, 4]
    assert [list(v) for v in parquet["workload.hotspot_nodes"]] == [[0, 5]] * 4
    assert parquet["saturated"].dtype == bool
    pd.testing.assert_series_equal(parquet["latency_mean"], frame["latency_mean"])


def test_scenario_toml_is_resolved_and_reloads(swept, tmp_path: Path) -> None:
    base, vary, frame = swept
    outdir.write_run_dir(tmp_path / "run", frame, base, vary)
    text = (tmp_path / "run" / "scenario.toml").read_text()
    document = tomllib.loads(text)
    # resolved: every key of the scenario's kinds, defaults filled in ...
    assert document["run"]["seed"] == 1 and document["switch"]["buffer_flits"] == 8
    assert document["routing"]["algorithm"] == "dor" and document["workload"]["program"] == "open_loop"
    assert {k: v for k, v in document.items() if k != "sweep"} == base.to_core_dict()
    # ... but a value derived from others is left out, so that it is derived again (one packet here)
    assert "message_flits" not in document["workload"] and set(frame["workload.message_flits"]) == {4}
    assert set(document) == {"network", "switch", "routing", "workload", "run", "sweep"}
    assert document["sweep"] == {"workload.load": [0.05, 0.15], "switch.vcs": [2, 4]}
    assert flitcast.load_scenario(tmp_path / "run" / "scenario.toml") == base


def test_single_run_dir_has_no_plot(tiny: dict[str, Any], tmp_path: Path) -> None:
    result = flitcast.run(tiny)
    written = outdir.write_run_dir(tmp_path / "one", result.to_frame(), result.scenario)
    assert sorted(p.name for p in written) == ["results.csv", "results.parquet", "scenario.toml"]
    assert "sweep" not in tomllib.loads((tmp_path / "one" / "scenario.toml").read_text())


def test_failure_while_writing_leaves_nothing(swept, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    base, vary, frame = swept

    def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("disk full")

    monkeypatch.setattr("flitcast.plot.plot_latency_vs_load", broken)
    with pytest.raises(RuntimeError):
        outdir.write_run_dir(tmp_path / "a" / "b", frame, base, vary)
    assert list(tmp_path.iterdir()) == []

    existing = tmp_path / "existing"
    existing.mkdir()
    (existing / "results.csv").write_text("old")
    with pytest.raises(RuntimeError):
        outdir.write_run_dir(existing, frame, base, vary)
    assert [p.name for p in tmp_path.iterdir()] == ["existing"]
    assert (existing / "results.csv").read_text() == "old"


def test_out_path_that_is_a_file(tiny: dict[str, Any], tmp_path: Path) -> None:
    target = tmp_path / "file"
    target.write_text("x")
    result = flitcast.run(tiny)
    with pytest.raises(errors.ConfigError):
        outdir.write_run_dir(target, result.to_frame(), result.scenario)
    assert target.read_text() == "x"


def test_unwritable_out_dir_is_a_config_error(tiny: dict[str, Any], tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    result = flitcast.run(tiny)
    with pytest.raises(errors.ConfigError) as info:
        outdir.write_run_dir(tmp_path / "file" / "sub", result.to_frame(), result.scenario)
    assert "cannot write the run directory" in str(info.value)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


def test_byte_sized_scenario_round_trips(tiny: dict[str, Any], tmp_path: Path) -> None:
    data = {**tiny, "workload": {"load": 0.1, "message_bytes": 100, "flit_bytes": 16, "max_packet_bytes": 64}}
    result = flitcast.run(data)
    outdir.write_run_dir(tmp_path / "bytes", result.to_frame(), result.scenario)
    assert flitcast.load_scenario(tmp_path / "bytes" / "scenario.toml") == result.scenario
    csv = pd.read_csv(tmp_path / "bytes" / "results.csv")
    assert csv["workload.message_bytes"][0] == 100 and csv["workload.message_flits"][0] == 7


# --- a single run's files, written without pandas -----------------------------------------------------

SINGLE_RUNS = [
    {},
    {"workload": {"pattern": "hotspot", "hotspot_nodes": [0, 5], "hotspot_fraction": 0.2}},
    {"workload": {"load": 0.1, "message_bytes": 100, "flit_bytes": 16, "max_packet_bytes": 64}},
    {"network": {"topology": "fat_tree", "k": 2, "n": 3}, "routing": {"algorithm": "o4", "oblivious_table": "d_mod_k"},
     "switch": {"model": "central_buffer"}},
    {"network": {"topology": "ring", "k": 8}, "workload": {"load": 0.95}},  # saturates: a saturation_reason
    {"workload": {"load": 0.001}, "run": {"warmup_cycles": 0, "measure_cycles": 10, "drain_max_cycles": 10}},  # no data
]


@pytest.mark.parametrize("change", SINGLE_RUNS)
def test_single_run_files_match_what_pandas_wrote(change: dict[str, Any], tiny: dict[str, Any], tmp_path: Path) -> None:
    data = {section: {**tiny.get(section, {}), **change.get(section, {})} for section in {*tiny, *change}}
    if "topology" in change.get("network", {}):
        data["network"] = change["network"]  # another topology: its own keys only
    if "workload" in change and "message_bytes" in change["workload"]:
        del data["workload"]["packet_flits"]
    result = flitcast.run(data)
    outdir.write_result_dir(tmp_path / "one", result)
    frame = result.to_frame()
    # byte for byte what pandas writes
    assert (tmp_path / "one" / "results.csv").read_text(encoding="utf-8") == frame.to_csv(index=False)
    frame.to_parquet(tmp_path / "pandas.parquet", index=False, engine="pyarrow")
    import pyarrow.parquet as pq

    ours, theirs = pq.read_schema(tmp_path / "one" / "results.parquet"), pq.read_schema(tmp_path / "pandas.parquet")
    assert ours.remove_metadata() == theirs.remove_metadata()  # pandas adds only its index metadata
    pd.testing.assert_frame_equal(
        pd.read_parquet(tmp_path / "one" / "results.parquet"), pd.read_parquet(tmp_path / "pandas.parquet")
    )


def test_csv_cells_format_like_pandas() -> None:
    from flitcast.sweeps.rows import csv_cell

    values = [0.1, 1e-05, 1e16, 123456789.125, 2.0, -0.0, float("inf"), float("nan"), None, True, False, 7, "", "a,b",
              [0, 5], []]
    frame = pd.DataFrame([{f"c{i}": v for i, v in enumerate(values)}])
    expected = frame.to_csv(index=False).splitlines()[1]
    import csv
    import io

    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerow(csv_cell(v) for v in values)
    assert buffer.getvalue().rstrip("\n") == expected
