"""results.parquet's column types (sweeps/parquet.py): flitcast's own, so that the file is the same whichever
pandas (2 or 3) is installed, and the same for a sweep's table and a single run's row."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import flitcast
from conftest import deadlock_prone
from flitcast.results import METRIC_COLUMNS
from flitcast.sweeps import outdir
from flitcast.sweeps.parquet import arrow_schema


def _types(path: Path) -> dict[str, Any]:
    schema = pq.read_schema(path)
    assert schema.metadata is None  # no pandas metadata: it records the dtypes of the pandas that wrote it
    return {field.name: field.type for field in schema}


def test_a_sweeps_columns_have_flitcasts_types(tiny: dict[str, Any], tmp_path: Path) -> None:
    # a mesh with hotspot traffic and a ring (no network.n, no hotspot keys): text, whole numbers, numbers,
    # flags, lists, keys one point lacks, and metrics an open workload leaves empty
    hotspot = {**tiny, "workload": {**tiny["workload"], "pattern": "hotspot", "hotspot_nodes": [0, 5], "hotspot_fraction": 0.2}}
    ring = {**tiny, "network": {"topology": "ring", "k": 8}}
    frame = flitcast.sweep([hotspot, ring])
    outdir.write_run_dir(tmp_path / "run", frame, hotspot)
    types = _types(tmp_path / "run" / "results.parquet")
    assert list(types) == list(frame.columns)
    expected = {
        "network.topology": pa.large_string(),  # pandas 2 would write string, pandas 3 large_string
        "workload.pattern": pa.large_string(),
        "error": pa.large_string(),
        "network.k": pa.int64(),
        "packets_measured": pa.int64(),
        "network.n": pa.float64(),  # the ring has none: NaN beside a whole number, as in the table
        "workload.hotspot_fraction": pa.float64(),
        "workload.hotspot_nodes": pa.list_(pa.int64()),
        "latency_mean": pa.float64(),
        "saturated": pa.bool_(),
        "completion_cycles": pa.float64(),  # empty for both (an open workload): double, not null
    }
    assert {name: types[name] for name in expected} == expected
    back = pd.read_parquet(tmp_path / "run" / "results.parquet")
    assert back["network.n"].isna().tolist() == [False, True] and list(back["workload.hotspot_nodes"][0]) == [0, 5]
    pd.testing.assert_series_equal(back["latency_mean"], frame["latency_mean"])


def test_every_metric_of_failed_points_is_double(tmp_path: Path) -> None:
    frame = flitcast.sweep([deadlock_prone()])
    outdir.write_run_dir(tmp_path / "run", frame, deadlock_prone())
    types = _types(tmp_path / "run" / "results.parquet")
    assert {types[name] for name in METRIC_COLUMNS} == {pa.float64()}


def test_a_single_run_with_nothing_measured_writes_its_empty_metrics_as_double(tiny: dict[str, Any], tmp_path: Path) -> None:
    quiet = flitcast.run({**tiny, "workload": {**tiny["workload"], "load": 0.001},
                          "run": {"warmup_cycles": 0, "measure_cycles": 10, "drain_max_cycles": 10}})
    outdir.write_result_dir(tmp_path / "one", quiet)
    types = _types(tmp_path / "one" / "results.parquet")
    assert types["latency_mean"] == types["completion_cycles"] == pa.float64()
    assert types["workload.pattern"] == pa.large_string() and types["cycles"] == pa.int64()


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        (["a", None, float("nan")], pa.large_string()),
        ([1, 2], pa.int64()),
        ([1, None], pa.float64()),
        ([1, 2.5], pa.float64()),
        ([True, None], pa.bool_()),
        ([None, float("nan")], pa.float64()),
        ([], pa.float64()),
        ([[0, 5], None, []], pa.list_(pa.int64())),
        ([[]], pa.list_(pa.float64())),
    ],
)
def test_a_columns_type_follows_from_its_values(values: list[Any], expected: Any) -> None:
    assert arrow_schema(pa, {"c": values}).field("c").type == expected


@pytest.mark.parametrize("values", [["a", 1], [True, 1], [[1], 2]])
def test_a_column_of_several_kinds_names_itself(values: list[Any]) -> None:
    with pytest.raises(TypeError, match=r"results column 'c': values of several kinds"):
        arrow_schema(pa, {"c": values})
