"""flitcast.run and flitcast.sweep against the real core: results, executors, determinism, failures."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

import flitcast
from conftest import TINY, deadlock_prone
from flitcast import _core, catalogue, errors
from flitcast.config import Scenario
from flitcast.config.sections import SECTIONS
from flitcast.results import CHANNEL_KEYS, METRIC_COLUMNS


def _same(a: Any, b: Any) -> bool:
    return a == b or (isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b))


def _without_wall(metrics: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in metrics.items() if k != "wall_seconds"}


def test_version_matches() -> None:
    assert _core.version() == flitcast.__version__


def test_public_names_come_from_their_modules() -> None:
    from importlib import import_module

    import flitcast.cli

    # (import_module: the packages' re-exported names shadow the submodule
    # flitcast.cli.app as attributes)
    def module(name: str) -> Any:
        return import_module(name)

    assert flitcast.run is module("flitcast.api").run
    assert flitcast.sweep is module("flitcast.sweeps.run").sweep and flitcast.grid is module("flitcast.sweeps.cartesian").grid
    assert flitcast.Scenario is module("flitcast.config.scenario").Scenario
    assert flitcast.load_scenario is module("flitcast.config.scenario").load_scenario
    assert flitcast.Result is module("flitcast.results").Result
    assert flitcast.cli.app is module("flitcast.cli.app").app and flitcast.cli.main is module("flitcast.cli.app").main


def test_run_tiny(tiny: dict[str, Any]) -> None:
    result = flitcast.run(tiny)
    assert isinstance(result, flitcast.Result)
    # every column the core declares, in its order, and each channel class's two (after channel_util_max)
    # (in the order the channels meet the classes: a mesh lists its router-to-router channels first)
    classes = ["channel_util_mean_router", "channel_util_max_router", "channel_util_mean_terminal", "channel_util_max_terminal"]
    at = list(METRIC_COLUMNS).index("channel_util_max") + 1
    assert list(result.metrics) == [*METRIC_COLUMNS[:at], *classes, *METRIC_COLUMNS[at:]]
    assert [m["name"] for m in catalogue.metrics()] == list(METRIC_COLUMNS)
    assert set(json.loads(_core.run(json.dumps(Scenario(**tiny).to_core_dict())))["ok"]) == {*METRIC_COLUMNS, *CHANNEL_KEYS} - {"wall_seconds"}
    m = result.metrics
    assert m["seed"] == 1 and m["wall_seconds"] > 0
    assert not m["saturated"] and m["saturation_reason"] == ""
    assert m["cycles"] >= 2500 and m["operations_measured"] > 0 and m["flit_hops"] > 0
    assert m["offered_load"] == pytest.approx(0.1, rel=0.3)
    assert m["accepted_load"] == pytest.approx(m["offered_load"], rel=0.3)
    assert 1 <= m["hops_mean"] <= 6  # 4x4 mesh: at most 3 + 3 channels
    assert m["latency_p50"] <= m["latency_p99"] <= m["latency_max"]
    channels = result.channels
    assert list(channels.columns) == ["channel", "class", "flits", "utilisation"]
    # 4x4 mesh: 2 * 2 * 4 * 3 = 48 directed router-to-router channels, 16 injection, 16 ejection links
    assert len(channels) == 80
    assert channels["utilisation"].max() == pytest.approx(m["channel_util_max"])
    assert channels["class"].value_counts().to_dict() == {"router": 48, "terminal": 32}
    window = m["measured_cycles"]
    assert (channels["flits"] / window).to_list() == pytest.approx(channels["utilisation"].to_list())
    by_class = result.by_class.set_index("class")
    assert set(by_class.index) == {"terminal", "router"} and by_class.at["router", "channels"] == 48
    assert by_class["utilisation_max"].max() == pytest.approx(m["channel_util_max"])
    for name in ("terminal", "router"):  # the table's columns are the per-class summary's numbers
        assert m[f"channel_util_mean_{name}"] == pytest.approx(by_class.at[name, "utilisation_mean"])
        assert m[f"channel_util_max_{name}"] == by_class.at[name, "utilisation_max"]
    busiest = by_class["utilisation_max"].idxmax()
    assert channels.set_index("channel").at[by_class.at[busiest, "busiest"], "utilisation"] == pytest.approx(m["channel_util_max"])


def test_row_and_frame(tiny: dict[str, Any]) -> None:
    result = flitcast.run(tiny)
    row = result.row()
    assert row["network.k"] == 4 and row["workload.load"] == 0.1 and row["latency_mean"] == result["latency_mean"]
    frame = result.to_frame()
    assert len(frame) == 1 and list(frame.columns) == list(row)


@pytest.mark.parametrize("kind", ["scenario", "dict", "path", "str"])
def test_run_accepts_every_scenario_form(kind: str, tiny: dict[str, Any], write_toml) -> None:
    source: Any = {
        "scenario": Scenario.model_validate(tiny),
        "dict": tiny,
        "path": write_toml(tiny),
        "str": str(write_toml(tiny)),
    }[kind]
    assert _without_wall(flitcast.run(source).metrics) == _without_wall(flitcast.run(tiny).metrics)


def test_run_rejects_before_simulating(tiny: dict[str, Any]) -> None:
    tiny["workload"]["load"] = 0.0
    with pytest.raises(errors.ConfigError) as info:
        flitcast.run(tiny)
    assert info.value.key == "workload.load"


def test_same_seed_same_metrics_different_seed_differs(tiny: dict[str, Any]) -> None:
    a = flitcast.run(tiny).metrics
    b = flitcast.run(tiny).metrics
    assert a["wall_seconds"] > 0 and b["wall_seconds"] > 0
    assert all(_same(a[k], b[k]) for k in _without_wall(a))
    tiny["run"]["seed"] = 2
    c = flitcast.run(tiny).metrics
    assert c["seed"] == 2
    assert (c["latency_mean"], c["offered_load"], c["flit_hops"]) != (a["latency_mean"], a["offered_load"], a["flit_hops"])


def test_sweep_is_bit_identical_across_thread_counts(tiny: dict[str, Any]) -> None:
    base = Scenario.model_validate(tiny)
    points = [base.with_overrides({"workload.load": load, "run.seed": seed}) for load in (0.05, 0.2, 0.35) for seed in (1, 2)]
    one = flitcast.sweep(points, threads=1).drop(columns="wall_seconds")
    two = flitcast.sweep(points, threads=2).drop(columns="wall_seconds")
    pd.testing.assert_frame_equal(one, two, check_exact=True)
    alone = json.loads(_core.run(json.dumps(points[0].to_core_dict())))["ok"]
    assert one.iloc[0]["latency_mean"] == alone["latency_mean"] and one.iloc[0]["flit_hops"] == alone["flit_hops"]


def _points(tiny: dict[str, Any]) -> list[Scenario]:
    base = Scenario.model_validate(tiny)
    return [base.with_overrides({"workload.load": x}) for x in (0.05, 0.1, 0.2, 0.3)]


def test_sweep_local_and_with_executor_agree(tiny: dict[str, Any]) -> None:
    points = _points(tiny)
    local = flitcast.sweep(points)
    with ThreadPoolExecutor(max_workers=2) as pool:
        remote = flitcast.sweep(points, executor=pool)
    assert isinstance(local, pd.DataFrame) and len(local) == 4
    assert list(local["workload.load"]) == [0.05, 0.1, 0.2, 0.3]
    assert list(local.columns) == list(remote.columns)
    pd.testing.assert_frame_equal(local.drop(columns="wall_seconds"), remote.drop(columns="wall_seconds"))
    one = flitcast.run(points[2]).metrics
    assert local.iloc[2]["latency_mean"] == one["latency_mean"]


def test_sweep_reports_progress(tiny: dict[str, Any]) -> None:
    calls: list[tuple[int, int]] = []
    flitcast.sweep(_points(tiny) * 2, threads=1, progress=lambda done, total: calls.append((done, total)))
    assert calls[0] == (0, 8) and calls[-1] == (8, 8)
    assert len(calls) > 2 and [d for d, _ in calls] == sorted(d for d, _ in calls)
    calls.clear()
    with ThreadPoolExecutor(max_workers=2) as pool:
        flitcast.sweep(_points(tiny), executor=pool, progress=lambda done, total: calls.append((done, total)))
    # points that finish together are reported together
    assert calls[0] == (0, 4) and calls[-1] == (4, 4) and [d for d, _ in calls] == sorted(d for d, _ in calls)


def test_sweep_accepts_dicts_and_validates_everything_first(tiny: dict[str, Any]) -> None:
    bad = {**tiny, "switch": {"vcs": 99}}
    with pytest.raises(errors.ConfigError) as info:
        flitcast.sweep([tiny, bad])
    assert str(info.value).startswith("sweep point 1: switch.vcs = 99")
    assert len(flitcast.sweep([tiny])) == 1


def test_sweep_rejects_bad_threads(tiny: dict[str, Any]) -> None:
    with pytest.raises(errors.ConfigError):
        flitcast.sweep([tiny], threads=-1)


# (call, the argument its error must name): misuses of run, sweep and with_overrides, each a ConfigError
API_MISUSES: list[tuple[str, Callable[[], Any], str]] = [
    ("run(42)", lambda: flitcast.run(42), "scenario"),
    ("run(missing file)", lambda: flitcast.run("nonexistent.toml"), "scenario"),
    ("run(progress=5)", lambda: flitcast.run(TINY, progress=5), "progress"),
    ("with_overrides(5)", lambda: Scenario().with_overrides(5), "overrides"),
    ("sweep([])", lambda: flitcast.sweep([]), "scenarios"),
    ("sweep(empty generator)", lambda: flitcast.sweep(p for p in []), "scenarios"),
    ("sweep(threads=-1)", lambda: flitcast.sweep([TINY], threads=-1), "threads"),
    ("sweep(threads=10**6)", lambda: flitcast.sweep([TINY], threads=10**6), "threads"),
    ("sweep(threads='x')", lambda: flitcast.sweep([TINY], threads="x"), "threads"),
    ("sweep(threads=True)", lambda: flitcast.sweep([TINY], threads=True), "threads"),
    ("sweep(store=42)", lambda: flitcast.sweep([TINY], store=42), "store"),
    ("sweep(store=bytes)", lambda: flitcast.sweep([TINY], store=b"out"), "store"),
    ("sweep(progress=5)", lambda: flitcast.sweep([TINY], progress=5), "progress"),
    ("sweep(force='yes')", lambda: flitcast.sweep([TINY], force="yes"), "force"),
    ("sweep(run=5)", lambda: flitcast.sweep([TINY], run=5), "run"),
]


@pytest.mark.parametrize(("call", "argument"), [m[1:] for m in API_MISUSES], ids=[m[0] for m in API_MISUSES])
def test_api_misuse_is_a_config_error_naming_the_argument(call: Callable[[], Any], argument: str) -> None:
    with pytest.raises(errors.ConfigError) as info:
        call()
    assert info.value.key.split()[0] == argument and argument in str(info.value)  # ("scenario file": a path)
    assert info.value.allowed


def test_numpy_scalars_are_taken_as_the_python_values_they_hold() -> None:
    import numpy as np

    base = Scenario()
    assert base.with_overrides({"network.k": np.int64(4)}) == base.with_overrides({"network.k": 4})
    assert base.with_overrides({"workload.load": np.float32(0.25)}).workload.load == 0.25
    off = {"routing.check_deadlock_free": False}
    assert base.with_overrides({"routing.check_deadlock_free": np.bool_(False)}) == base.with_overrides(off)
    assert Scenario(network={"k": np.uint8(4)}) == Scenario(network={"k": 4})
    assert [p.network.k for p in flitcast.grid(base, {"network.k": list(np.arange(4, 6))})] == [4, 5]
    # still checked as those values: numpy's NaN is no load, an array no single value
    for bad in (np.float64("nan"), np.array([0.2])):
        with pytest.raises(errors.ConfigError) as info:
            base.with_overrides({"workload.load": bad})
        assert info.value.key == "workload.load"


def test_paths_and_numpy_counts_are_taken_where_a_string_or_an_int_is() -> None:
    import numpy as np

    from flitcast.sweeps.run import check_threads

    network = Path(__file__).parents[1] / "examples" / "networks" / "irregular_updown.csv"
    up_down = {"algorithm": "up_down"}
    as_path = Scenario(network={"topology": "irregular", "file": network}, routing=up_down)
    assert as_path == Scenario(network={"topology": "irregular", "file": str(network)}, routing=up_down)
    assert check_threads(np.int64(2)) == 2 and check_threads(np.uint8(0)) == 0
    with pytest.raises(errors.ConfigError):
        check_threads(np.float64(2.0))


def test_the_estimate_takes_what_run_takes() -> None:
    allreduce = {"workload": {"program": "collective", "operation": "allreduce", "message_flits": 64},
                 "run": {"warmup_cycles": 0, "measure_cycles": 2, "batches": 2}}
    from_dict = flitcast.api.collective_estimate(allreduce)
    assert from_dict == flitcast.api.collective_estimate(Scenario(**allreduce))
    with pytest.raises(errors.ConfigError, match=r"scenario = 42 is not allowed \(an int\); allowed: a Scenario"):
        flitcast.api.collective_estimate(42)


def test_deadlock_prone_setup_trips_the_watchdog(tiny: dict[str, Any]) -> None:
    with pytest.raises(errors.DeadlockError) as info:
        flitcast.run(deadlock_prone())
    assert isinstance(info.value.cycle, int) and info.value.blocked


@pytest.mark.parametrize("use_executor", [False, True])
def test_failed_points_are_rows_with_an_error_and_the_rest_completes(tiny: dict[str, Any], use_executor: bool) -> None:
    base = Scenario.model_validate(deadlock_prone())
    points = [Scenario.model_validate(tiny), base, base.with_overrides({"run.seed": 5})]
    if use_executor:
        with ThreadPoolExecutor(max_workers=2) as pool:
            table = flitcast.sweep(points, executor=pool)
    else:
        table = flitcast.sweep(points)
    assert list(table["error"].str.startswith("deadlock: no flit moved")) == [False, True, True]
    assert table["error"].iloc[0] == "" and table["latency_mean"].iloc[0] > 0
    assert table[["latency_mean", "accepted_load", "cycles", "wall_seconds"]].iloc[1:].isna().all().all()
    assert list(table["run.seed"]) == [1, 1, 5]  # the scenario columns are there for failed points too
    assert list(table.columns)[-1] == "error"


def test_a_failed_point_reads_as_its_error(tiny: dict[str, Any]) -> None:
    with pytest.raises(errors.DeadlockError) as info:
        flitcast.run(Scenario.model_validate(deadlock_prone()))
    table = flitcast.sweep([Scenario.model_validate(deadlock_prone())])
    assert table["error"].iloc[0] == str(info.value)


def test_a_column_with_no_value_is_float_whichever_pandas(tiny: dict[str, Any]) -> None:
    # pandas keeps a column of Nones as objects (pandas 2 and 3 alike): the table makes it NaN, as an
    # empty metric is beside measured ones
    failed = flitcast.sweep([Scenario.model_validate(deadlock_prone())])
    assert (failed[list(METRIC_COLUMNS)].dtypes == "float64").all() and failed[list(METRIC_COLUMNS)].isna().all().all()
    quiet = flitcast.run({**tiny, "workload": {**tiny["workload"], "load": 0.001},
                          "run": {"warmup_cycles": 0, "measure_cycles": 10, "drain_max_cycles": 10}})
    assert quiet["latency_mean"] is None  # nothing measured
    frame = quiet.to_frame()
    assert frame["latency_mean"].dtype == "float64" and frame["completion_cycles"].dtype == "float64"
    assert frame["cycles"].dtype == "int64" and frame["saturated"].dtype == bool  # the measured ones keep theirs


def test_grid_is_a_cartesian_product(tiny: dict[str, Any]) -> None:
    from flitcast.sweeps.cartesian import grid

    assert flitcast.grid is grid

    points = grid(tiny, {"workload.load": [0.1, 0.2], "network.topology": ["mesh", "torus"]})
    assert [(p.workload.load, p.network.topology) for p in points] == [
        (0.1, "mesh"), (0.1, "torus"), (0.2, "mesh"), (0.2, "torus"),
    ]
    with pytest.raises(errors.ConfigError) as info:
        grid(tiny, {"workload.load": [0.1, 7]})
    assert str(info.value).startswith("sweep point 1 (workload.load=7)")


def _literal_choices(section: str, key: str) -> list[Any]:
    """The choices the generated model's field ``section.key`` takes (its ``Literal[...] | None``)."""
    from typing import Literal, get_args, get_origin

    annotation = SECTIONS[section].model_fields[key].annotation
    literals = [arg for arg in get_args(annotation) if get_origin(arg) is Literal]
    assert len(literals) == 1, (section, key, annotation)
    return list(get_args(literals[0]))


def test_catalogue_matches_the_config_choices() -> None:
    # every key with a closed set of choices: the generated model takes exactly the union of the choices
    # of its declarations (one per kind that takes it), in catalogue order
    choices: dict[tuple[str, str], list[Any]] = {}
    for section, _, keys in catalogue.sections():
        for key in keys:
            if key["choices"] is None:
                continue
            assert key["choice_docs"] is not None and len(key["choice_docs"]) == len(key["choices"]), key
            union = choices.setdefault((section, key["key"]), [])
            union += [c for c in key["choices"] if c not in union]
    assert {("network", "topology"), ("switch", "model"), ("switch", "flow_control"), ("routing", "algorithm"),
            ("routing", "selection"), ("workload", "program"), ("workload", "pattern"), ("workload", "arrival"),
            ("workload", "scheme")} <= set(choices)
    for (section, key), names in choices.items():
        assert _literal_choices(section, key) == names, f"{section}.{key}"
    # flitcast list: every family lists every choice of its key, each with a doc (a key several kinds
    # declare with choices of their own, workload.scheme, lists each kind's: a name may recur)
    families = catalogue.families()
    tags = {"topologies": ("network", "topology"), "switches": ("switch", "model"), "flow_controls": ("switch", "flow_control"),
            "routings": ("routing", "algorithm"), "selections": ("routing", "selection"), "programs": ("workload", "program"),
            "patterns": ("workload", "pattern"), "arrivals": ("workload", "arrival"), "schemes": ("workload", "scheme")}
    for family, (section, key) in tags.items():
        assert list(dict.fromkeys(name for name, _ in families[family])) == choices[(section, key)], family
        assert all(doc.strip() for _, doc in families[family]), family


def test_core_rejects_what_python_would_reject() -> None:
    # the core's own validation is the last line of defence
    data = Scenario().to_core_dict()
    data["workload"]["load"] = 2.0
    outcome = json.loads(_core.run(json.dumps(data)))
    assert outcome["error"]["kind"] == "config" and outcome["error"]["key"] == "workload.load"
    assert json.loads(_core.run("not json"))["error"]["kind"] == "config"


def test_a_panic_in_the_core_is_an_internal_error_not_a_crash() -> None:
    from flitcast import _core
    from flitcast.api import result_of
    from flitcast.config import Scenario
    from flitcast.errors import InternalError

    outcome = _core._panic_for_test()
    with pytest.raises(InternalError, match="deliberate panic"):
        result_of(Scenario(), outcome, 0.0)


def test_wall_seconds_is_per_point(tiny: dict[str, Any]) -> None:
    base = flitcast.Scenario(**tiny)
    light = base.with_overrides({"run.measure_cycles": 200})
    heavy = base.with_overrides({"run.measure_cycles": 20000})
    table = flitcast.sweep([light, heavy], threads=2)
    assert table["wall_seconds"].iloc[0] < table["wall_seconds"].iloc[1]


def test_software_multicast_reports_both_latency_definitions_and_the_effective_load() -> None:
    s = flitcast.Scenario(
        network={"topology": "fat_tree", "k": 4, "n": 2},
        routing={"algorithm": "adaptive"},
        workload={"program": "software_multicast", "destinations": 6, "load": 0.3, "packet_flits": 64},
        run={"warmup_cycles": 2000, "measure_cycles": 20000},
    )
    m = flitcast.run(s).metrics
    assert not m["saturated"] and m["operations_measured"] > 0
    assert m["latency_mean"] > m["latency_dest_mean"] > 0  # (a) the last destination, (b) the mean over them
    assert abs(m["effective_load"] - 0.3) < 0.05 and abs(m["offered_load"] - m["effective_load"]) < 0.03
    with pytest.raises(errors.ConfigError) as info:
        flitcast.Scenario(workload={"program": "software_multicast", "destinations": 64})  # an 8x8 mesh has 63 other nodes
    assert info.value.key == "workload.destinations"


HW_TREE = {
    "network": {"topology": "fat_tree", "k": 4, "n": 2},
    "routing": {"algorithm": "adaptive"},
    "workload": {"program": "hardware_multicast", "destinations": 6, "load": 0.3, "packet_flits": 64},
    "run": {"warmup_cycles": 2000, "measure_cycles": 20000},
}


@pytest.mark.parametrize("model", ["central_buffer", "input_fifo"])
def test_hardware_multicast_on_both_replicating_switches(model: str) -> None:
    s = flitcast.Scenario.model_validate({**HW_TREE, "switch": {"model": model}})
    assert s.switch.buffer_flits == (64 if model == "central_buffer" else 320)  # study 000 §7.1: equal storage
    m = flitcast.run(s).metrics
    assert not m["saturated"] and m["operations_measured"] > 0
    # one worm per operation: B_i = m·B_i / m; delivered flits carry the worm's header flit (16 nodes)
    assert abs(m["offered_load"] * 6 - m["effective_load"]) < 0.02
    assert abs(m["accepted_load"] - m["effective_load"] * 65 / 64) < 0.03
    assert m["latency_multicast_mean"] == m["latency_mean"] and m["latency_unicast_mean"] is None  # (no unicasts)


def test_bimodal_traffic_reports_each_class() -> None:
    data = {**HW_TREE, "switch": {"model": "central_buffer"}}
    data["workload"] = {**HW_TREE["workload"], "destinations": 4, "multicast_fraction": 0.2}
    m = flitcast.run(flitcast.Scenario.model_validate(data)).metrics
    assert m["latency_unicast_mean"] > 0 and m["latency_multicast_mean"] > 0
    assert min(m["latency_unicast_mean"], m["latency_multicast_mean"]) <= m["latency_mean"]
    assert m["latency_mean"] <= max(m["latency_unicast_mean"], m["latency_multicast_mean"])


@pytest.mark.parametrize(
    ("change", "key"),
    [
        # (a central buffer on a torus is also refused: it has no VCs for the dateline classes)
        ({"network": {"topology": "torus", "k": 4, "n": 2}, "routing": {"algorithm": "dor"}}, "network.topology"),
        ({"network": {"topology": "mesh", "k": 4, "n": 2}, "routing": {"algorithm": "dor"}}, "switch.model"),
        ({"switch": {"model": "input_buffered"}}, "switch.model"),
        ({"switch": {"model": "input_fifo", "buffer_flits": 64}}, "switch.buffer_flits"),
        ({"switch": {"model": "central_buffer", "central_buffer_chunks": 20}}, "switch.central_buffer_chunks"),
    ],
)
def test_hardware_multicast_needs_a_replicating_switch_that_fits_a_worm(change: dict[str, Any], key: str) -> None:
    data = {**HW_TREE, "switch": {"model": "central_buffer"}, **change}
    with pytest.raises(errors.ConfigError) as info:
        flitcast.Scenario.model_validate(data)
    assert key in [p["key"] for p in info.value.problems]
    # the core's own check when it runs a scenario agrees (its last line of defence): the resolved valid
    # scenario with the change made (a table naming another kind takes that kind's defaults)
    core = flitcast.Scenario.model_validate({**HW_TREE, "switch": {"model": "central_buffer"}}).to_core_dict()
    for section, values in change.items():
        tag = {"network": "topology", "switch": "model", "routing": "algorithm"}[section]
        if tag in values and values[tag] != core[section][tag]:
            core[section] = dict(values)
        else:
            core[section].update(values)
    outcome = json.loads(_core.run(json.dumps(core)))
    assert outcome["error"]["kind"] == "config" and outcome["error"]["key"] == info.value.key


def test_mesh_multicast_on_infiniband_switches() -> None:
    data = {
        "network": {"topology": "mesh", "k": 4, "n": 2},
        "switch": {"model": "infiniband", "vcs": 2, "buffer_flits": 16},  # virtual cut-through, always
        "workload": {"program": "hardware_multicast", "destinations": 5, "load": 0.3, "packet_flits": 16},
        "run": {"warmup_cycles": 2000, "measure_cycles": 20000},
    }
    s = flitcast.Scenario.model_validate(data)
    assert s.value("workload.header_flits") == 0  # the multicast LID takes the DLID's place
    m = flitcast.run(s).metrics
    assert not m["saturated"] and m["operations_measured"] > 0
    assert abs(m["accepted_load"] - m["effective_load"]) < 0.03  # no header flits
    with pytest.raises(errors.ConfigError) as info:
        flitcast.Scenario.model_validate({**data, "switch": {"model": "infiniband", "flow_control": "wormhole"}})
    assert info.value.key == "switch.flow_control" and "switch.model = 'input_buffered'" in str(info.value)
    with pytest.raises(errors.ConfigError) as info:  # virtual cut-through: a lane holds a whole packet
        flitcast.Scenario.model_validate({**data, "switch": {"model": "infiniband", "vcs": 2, "buffer_flits": 8}})
    assert info.value.key == "switch.buffer_flits"


def test_a_scenario_file_that_cannot_be_read_says_what_is_allowed(tmp_path: Any) -> None:
    with pytest.raises(errors.ConfigError) as info:
        flitcast.run(tmp_path / "nonexistent.toml")
    assert info.value.key == "scenario file" and "allowed: a readable TOML file" in str(info.value)


def test_every_metric_says_its_unit_and_meaning_once() -> None:
    metrics = catalogue.metrics()
    names = [m["name"] for m in metrics]
    assert len(names) == len(set(names)) > 30
    for m in metrics:
        assert m["unit"] and len(m["meaning"]) > 20, m
        assert not m["meaning"].startswith(" ") and "  " not in m["meaning"], m  # one line, as docs/results.md shows it


def test_each_channel_class_has_its_utilisation_columns_in_the_table() -> None:
    from flitcast.results import class_utilisation

    scenarios = Path(__file__).resolve().parents[1] / "examples" / "scenarios"
    result = flitcast.run(scenarios / "dragonfly_ugal.toml")
    row = result.row()
    by_class = result.by_class.set_index("class")
    assert list(by_class.index) == ["terminal", "local", "global"]
    for name in by_class.index:
        assert row[f"channel_util_max_{name}"] == by_class.at[name, "utilisation_max"]
    assert row["channel_util_max"] == max(row[f"channel_util_max_{name}"] for name in by_class.index)
    # the names of a fat tree's and a HyperX's classes as columns; a closed run's are empty, not 0
    assert class_utilisation(["levels 0-1", "dimension 2", "levels 0-1"], [0.5, None, 0.25]) == {
        "channel_util_mean_levels_0_1": 0.375,
        "channel_util_max_levels_0_1": 0.5,
        "channel_util_mean_dimension_2": None,
        "channel_util_max_dimension_2": None,
    }


def test_a_point_stored_before_channels_had_classes_reads_with_its_class_columns_empty() -> None:
    from flitcast.config.scenario import load_scenario
    from flitcast.results import Result, is_class_column

    scenario = load_scenario(Path(__file__).resolve().parents[1] / "examples" / "scenarios" / "mesh8_uniform.toml")
    # the payload a store kept before the core reported each channel's class and flits
    old = {"accepted_load": 0.25, "channel_util_max": 0.5, "channel_names": ["a", "b"], "channel_utilisation": [0.5, 0.25]}
    result = Result.from_core(scenario, old, 1.0)
    assert result.metrics["channel_util_max"] == 0.5
    assert not any(is_class_column(c) for c in result.metrics)
    assert result.channel_names == result.channel_classes == result.channel_flits == result.channel_utilisation == []
