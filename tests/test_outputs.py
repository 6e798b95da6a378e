"""Run directories: the columns of results.csv/.parquet, scenario.toml, and all-or-nothing writing."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

import flitcast
from flitcast import errors
from flitcast.config import Scenario
from flitcast.sweeps import outdir

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
    from flitcast.sweeps.cartesian import grid

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


def test_a_directory_in_the_way_of_one_file_moves_none(swept, tmp_path: Path) -> None:
    # every name is checked before the first file is moved: the plot and results.csv were moved in, then
    # the write failed on results.parquet naming the directory, not the file
    base, vary, frame = swept
    existing = tmp_path / "existing"
    (existing / "results.parquet").mkdir(parents=True)
    (existing / "results.csv").write_text("old")
    with pytest.raises(errors.ConfigError) as info:
        outdir.write_run_dir(existing, frame, base, vary)
    assert f"({existing / 'results.parquet'} is a directory)" in str(info.value)
    assert sorted(p.name for p in existing.iterdir()) == ["results.csv", "results.parquet"]
    assert (existing / "results.csv").read_text() == "old" and list((existing / "results.parquet").iterdir()) == []
    assert [p.name for p in tmp_path.iterdir()] == ["existing"]


def test_files_are_staged_inside_an_existing_directory(tmp_path: Path) -> None:
    # renamed within the directory's own file system, and nothing written beside it (where flitcast may
    # not be allowed to write)
    existing = tmp_path / "existing"
    existing.mkdir()
    staged: list[Path] = []

    def write(staging: Path) -> None:
        staged.append(staging)
        (staging / "a.csv").write_text("a")

    assert outdir.write_all_or_nothing(existing, write) == [existing / "a.csv"]
    assert staged[0].parent == existing and not staged[0].exists()
    assert [p.name for p in existing.iterdir()] == ["a.csv"]
    # a new directory is staged beside it and renamed as a whole
    assert outdir.write_all_or_nothing(tmp_path / "new", write) == [tmp_path / "new" / "a.csv"]
    assert staged[1].parent == tmp_path and sorted(p.name for p in tmp_path.iterdir()) == ["existing", "new"]


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
def test_single_run_files_match_what_a_sweep_writes(change: dict[str, Any], tiny: dict[str, Any], tmp_path: Path) -> None:
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
    # the types of a sweep's table of the same row (sweeps/parquet.py), metadata and all
    from flitcast.sweeps.parquet import write_frame

    write_frame(tmp_path / "sweep.parquet", frame)
    import pyarrow.parquet as pq

    ours, sweeps = pq.read_schema(tmp_path / "one" / "results.parquet"), pq.read_schema(tmp_path / "sweep.parquet")
    assert ours.equals(sweeps, check_metadata=True), (ours, sweeps)
    pd.testing.assert_frame_equal(
        pd.read_parquet(tmp_path / "one" / "results.parquet"), pd.read_parquet(tmp_path / "sweep.parquet")
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


# --- the sweep plot and table: what they are drawn against -------------------------------------------

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "scenarios"


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """The figures the plots save, by file name, kept for inspection (the file itself gets only the PNG
    signature: these tests read the figure's axes, not its pixels)."""
    import matplotlib.figure

    figures: dict[str, Any] = {}

    def save(figure: Any, path: Any, *args: Any, **kwargs: Any) -> None:
        figures[Path(path).name] = figure
        Path(path).write_bytes(b"\x89PNG\r\n\x1a\n")

    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", save)
    return figures


def _multicast_sweep() -> tuple[Scenario, dict[str, list[Any]], pd.DataFrame]:
    from flitcast.sweeps.cartesian import grid

    base = flitcast.load_scenario(EXAMPLES / "fat_tree16_hardware_multicast.toml").with_overrides(
        {"run.warmup_cycles": 500, "run.measure_cycles": 4000}
    )
    vary = {"workload.load": [0.1, 0.3], "workload.program": ["hardware_multicast", "software_multicast"]}
    return base, vary, flitcast.sweep(grid(base, vary))


def test_multicast_is_plotted_against_the_effective_load(drawn: dict[str, Any], tmp_path: Path) -> None:
    # hardware multicast sends one worm to m destinations: offered counts it once, accepted m times, so
    # accepted is read against effective_load (m·B_i), the identity carrying the worms' header flits
    from flitcast.plot import load_column

    base, vary, frame = _multicast_sweep()
    hardware = frame[frame["workload.program"] == "hardware_multicast"]
    assert (hardware["accepted_load"] > 4 * hardware["offered_load"]).all()  # why offered is the wrong axis
    assert load_column(frame) == "effective_load"
    written = outdir.write_run_dir(tmp_path / "run", frame, base, vary)
    assert "latency_vs_load.png" in [p.name for p in written]
    latency, accepted = drawn["latency_vs_load.png"].axes
    assert latency.get_xlabel() == accepted.get_xlabel() == "effective load (flits/node/cycle)"
    lines = {line.get_label(): line for line in accepted.get_lines()}
    points = lines["program=hardware_multicast"]
    assert list(points.get_xdata()) == sorted(hardware["effective_load"])
    # 64-flit messages in one packet with a 1-flit header: 65 flits ejected per 64 of payload
    with_headers = lines["accepted = effective (+ headers, ×1.016)"]
    (x0, x1), (y0, y1) = with_headers.get_xdata(), with_headers.get_ydata()
    assert (x0, y0) == (0, 0) and y1 / x1 == pytest.approx(65 / 64)
    plain = lines["accepted = effective"]  # software multicast: unicasts without headers
    assert plain.get_ydata()[1] == plain.get_xdata()[1]
    # and every point sits near its identity, not 4-6 times above it
    ratio = hardware["accepted_load"] / (hardware["effective_load"] * 65 / 64)
    assert ratio.between(0.9, 1.1).all()


def test_unicast_is_plotted_against_the_offered_load(swept, drawn: dict[str, Any], tmp_path: Path) -> None:
    from flitcast.plot import load_column

    base, vary, frame = swept
    assert (frame["effective_load"] == frame["offered_load"]).all() and load_column(frame) == "offered_load"
    outdir.write_run_dir(tmp_path / "run", frame, base, vary)
    _latency, accepted = drawn["latency_vs_load.png"].axes
    assert accepted.get_xlabel() == "offered load (flits/node/cycle)"
    assert "accepted = offered" in [line.get_label() for line in accepted.get_lines()]


def test_header_factor_counts_a_header_per_packet() -> None:
    from flitcast.plot import header_factor

    row = {"workload.header_flits": 2, "workload.message_flits": 100, "workload.packet_flits": 64}
    assert header_factor(row) == pytest.approx((100 + 2 * 2) / 100)  # two packets, two headers each
    assert header_factor({**row, "workload.header_flits": float("nan")}) == 1.0
    assert header_factor({"workload.message_flits": 100, "workload.packet_flits": 64}) == 1.0


def test_closed_workload_is_plotted_against_the_varied_key(drawn: dict[str, Any], tmp_path: Path) -> None:
    # one multicast run to completion has no load axis (its load columns are empty): completion against
    # the group size, in a file that says so
    from flitcast.sweeps.cartesian import grid

    base = flitcast.load_scenario(EXAMPLES / "torus4_multicast.toml")
    vary = {"workload.group_size": [4, 8, 12]}
    frame = flitcast.sweep(grid(base, vary))
    assert frame["offered_load"].fillna(0).eq(0).all()
    written = outdir.write_run_dir(tmp_path / "run", frame, base, vary)
    assert sorted(p.name for p in written) == [
        "completion_vs_group_size.png", "results.csv", "results.parquet", "scenario.toml"
    ]
    completion = drawn["completion_vs_group_size.png"].axes[0]
    assert completion.get_xlabel() == "group_size" and "completion" in completion.get_ylabel()
    (line,) = completion.get_lines()
    assert list(line.get_xdata()) == [4, 8, 12]
    assert list(line.get_ydata()) == list(frame["completion_cycles"])
    assert completion.get_xlim()[0] > 1  # not an axis around load 0


def _table(frame: pd.DataFrame, varied: list[str]) -> dict[str, list[str]]:
    from flitcast.cli.sweep_table import sweep_results_table

    table = sweep_results_table(frame, varied)
    return {str(column.header): [str(cell) for cell in column.cells] for column in table.columns}


def test_sweep_table_shows_the_load_the_plot_uses(swept) -> None:
    _, vary, frame = swept
    assert list(_table(frame, list(vary))) == ["load", "vcs", "offered", "accepted", "latency", "ci95", "p99", "saturated"]
    _, vary, frame = _multicast_sweep()
    table = _table(frame, list(vary))
    assert list(table) == ["load", "program", "effective", "accepted", "latency", "ci95", "p99", "saturated"]
    assert table["effective"][0] == f"{frame['effective_load'].iloc[0]:.4g}"


def test_a_narrow_terminal_keeps_the_varied_keys_whole_and_goes_without_the_spread(swept) -> None:
    from rich.console import Console

    from flitcast.cli.sweep_table import sweep_results_table

    _, vary, frame = swept
    frame = frame.assign(long_name=[f"a_rather_long_value_{i}" for i in range(len(frame))])
    varied = [*vary, "long_name"]
    wide = sweep_results_table(frame, varied)
    narrow = sweep_results_table(frame, varied, width=80)
    assert [str(c.header) for c in wide.columns][-3:] == ["ci95", "p99", "saturated"] and wide.caption is None
    assert "p99" not in [str(c.header) for c in narrow.columns] and "p99" in str(narrow.caption)
    out = Console(width=80, record=True)
    out.print(narrow)
    text = out.export_text()
    assert max(len(line) for line in text.splitlines()) <= 80
    assert all(f"a_rather_long_value_{i}" in text for i in range(len(frame)))  # no value cut with "…"


def test_sweep_table_of_a_closed_workload_shows_completion() -> None:
    from flitcast.sweeps.cartesian import grid

    base = flitcast.load_scenario(EXAMPLES / "torus4_multicast.toml")
    frame = flitcast.sweep(grid(base, {"workload.group_size": [4, 16]}))
    frame.loc[1, "saturated"] = True  # as a batch that did not finish within run.drain_max_cycles
    table = _table(frame, ["workload.group_size"])
    assert list(table) == ["group_size", "completion", "latency", "max", "complete"]
    assert table["completion"][0] == f"{frame['completion_cycles'].iloc[0]:,.0f}"
    assert table["complete"] == ["yes", "no"]


def test_a_collective_sweep_shows_its_estimate_and_draws_it_dashed(drawn: dict[str, Any], tmp_path: Path) -> None:
    # one collective a point: its latency is its completion, so the table shows the completion beside its
    # α-β-γ estimate and their ratio, and the plot one panel, the estimate dashed in each curve's colour,
    # the sizes on a log axis
    from flitcast.sweeps.cartesian import grid

    base = flitcast.load_scenario(EXAMPLES / "fat_tree64_allreduce.toml")
    vary = {"workload.message_flits": [8, 512], "workload.scheme": ["ring", "rabenseifner"]}
    frame = flitcast.sweep(grid(base, vary))
    table = _table(frame, list(vary))
    assert list(table) == ["message_flits", "scheme", "completion", "estimate", "÷ estimate", "complete"]
    ratio = frame["completion_cycles"] / frame["estimate_cycles"]
    assert table["÷ estimate"] == [f"{r:.3f}" for r in ratio]
    outdir.write_run_dir(tmp_path / "run", frame, base, vary)
    (panel,) = drawn["completion_vs_message_flits.png"].axes
    assert panel.get_xscale() == "log"
    solid = [line for line in panel.get_lines() if line.get_linestyle() == "-"]
    dashed = [line for line in panel.get_lines() if line.get_linestyle() == "--"]
    assert len(solid) == len(dashed) == 2
    for curve, estimate in zip(solid, dashed, strict=True):
        assert curve.get_color() == estimate.get_color()
    estimates = sorted(frame["estimate_cycles"])
    assert sorted(y for line in dashed for y in line.get_ydata()) == estimates


def test_the_plots_draw_into_axes_given_as_well_as_a_file(swept, tmp_path: Path) -> None:
    # a notebook passes its own Axes: the plot draws there, writes no file unless asked, and says how many
    # Axes it wants
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from flitcast.errors import ConfigError
    from flitcast.plot import plot_latency_vs_load

    _, vary, frame = swept
    fig, axes = plt.subplots(1, 2)
    try:
        assert plot_latency_vs_load(frame, list(vary), axes=axes) == list(axes)
        assert axes[0].get_lines() and "Latency" in axes[0].get_title()
        assert list(tmp_path.iterdir()) == []
        plot_latency_vs_load(frame, list(vary), tmp_path / "both.png", axes=axes)
        assert (tmp_path / "both.png").stat().st_size > 0
        with pytest.raises(ConfigError, match="2 matplotlib Axes"):
            plot_latency_vs_load(frame, list(vary), axes=axes[0])
        with pytest.raises(ConfigError, match="or axes= to draw into"):
            plot_latency_vs_load(frame, list(vary))
    finally:
        plt.close(fig)
