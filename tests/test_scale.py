"""Hostile scale: scenarios that validate but cannot run here are refused before anything large is
allocated (exit 2, naming the keys that drive their size), and a run whose source queues would grow
without bound stops as saturated. Each runs in a subprocess under an address-space limit, so a regression
fails the test instead of taking the machine down."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys

import pytest

from conftest import REPO

#: far less than any of these scenarios would allocate, far more than a refusal needs
LIMIT_BYTES = 3 << 30


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (LIMIT_BYTES, LIMIT_BYTES))


def flitcast(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "flitcast", "run", str(REPO / "examples/scenarios/mesh8_uniform.toml"), *args],
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=_limited,
        env={**os.environ, "COLUMNS": "400"},  # one table row per line
    )


@pytest.mark.parametrize(
    ("sets", "named"),
    [
        # about 80 GB of router buffers allocated up front
        (["network.k=256", "switch.vcs=16", "switch.buffer_flits=4096"], ["router buffers", "switch.buffer_flits"]),
        # source-route tables of 32768 node switches squared, and O4's per-pair counters
        (
            ['network.topology="fat_tree"', "network.k=8", "network.n=6", 'routing.algorithm="o4"',
             'routing.oblivious_table="d_mod_k"', "run.max_nodes=1048576"],
            ["source route fields", "routing.algorithm"],
        ),
    ],
)
def test_a_scenario_too_big_for_memory_is_refused_before_allocating(sets: list[str], named: list[str]) -> None:
    args = [a for s in sets for a in ("--set", s)]
    done = flitcast(*args)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and "panicked" not in done.stderr
    line = done.stderr.strip()
    assert line.startswith("error: run.memory_limit_mb") and "\n" not in line, line
    for word in named:
        assert word in line


def test_a_small_memory_limit_is_honoured() -> None:
    done = flitcast("--set", "run.memory_limit_mb=1")
    assert done.returncode == 2 and "run.memory_limit_mb = 1" in done.stderr, done.stderr


def test_unbounded_source_queues_stop_the_run_as_saturated() -> None:
    # One-flit packets at full load for 10^8 cycles: the queues would grow by ~100 MB/s without bound.
    done = flitcast(
        "--set", "workload.load=1.0", "--set", "workload.packet_flits=1", "--set", "run.measure_cycles=100000000"
    )
    assert done.returncode == 0, done.stderr
    assert "stopped at cycle" in done.stdout and "packets alive" in done.stdout, done.stdout


def test_a_sweep_counts_its_parallel_points_against_the_budget(tiny) -> None:
    import warnings

    import flitcast

    # a tiny mesh needs a few hundred MB (mostly the bound on queued packets): a budget of 2.5 points
    # fits two at a time
    from flitcast import _core
    from flitcast.sweeps.run import memory_threads

    one = json.loads(_core.memory_estimate(json.dumps(flitcast.Scenario.model_validate(tiny).to_core_dict())))["ok"]
    tiny["run"]["memory_limit_mb"] = int(2.5 * one["bytes"]) >> 20
    points = [flitcast.Scenario.model_validate({**tiny, "workload": {**tiny["workload"], "load": x}}) for x in (0.1, 0.2, 0.3)]
    payloads = [p.to_core_dict() for p in points]
    with pytest.warns(UserWarning, match="running 2 points at a time instead of 3"):
        assert memory_threads(payloads, 3) == 2
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert memory_threads(payloads, 1) == 1
    with pytest.warns(UserWarning):
        table = flitcast.sweep(points, threads=3)
    assert len(table) == 3 and (table["error"] == "").all()


def test_a_sweep_with_a_point_over_the_budget_runs_nothing(tiny) -> None:
    import flitcast
    from flitcast.errors import ConfigError

    tiny["run"]["memory_limit_mb"] = 50
    with pytest.raises(ConfigError) as info:
        flitcast.sweep([tiny])
    assert info.value.key == "run.memory_limit_mb" and "source queues" in str(info.value)


def test_a_collective_grows_with_its_messages_not_with_the_network_squared() -> None:
    # a one-flit broadcast to 16,384 nodes: its estimate's distances were a table from every member's
    # router to every router (16,384² entries, 6.4 GB); now one entry per message (docs/engine.md, "Memory")
    probe = (
        "import json, flitcast\n"
        "from flitcast import _core\n"
        "s = flitcast.Scenario(network={'topology': 'mesh', 'k': 128, 'n': 2}, run={'warmup_cycles': 0},\n"
        "    workload={'program': 'collective', 'operation': 'broadcast', 'message_flits': 1})\n"
        "estimate = json.loads(_core.memory_estimate(json.dumps(s.to_core_dict())))['ok']['bytes']\n"
        "r = flitcast.run(s)\n"
        # (VmHWM, this process's own peak: ru_maxrss would keep the forking parent's across exec)
        "peak = next(int(l.split()[1]) for l in open('/proc/self/status') if l.startswith('VmHWM:')) * 1024\n"
        "print(estimate, peak, r.metrics['completion_cycles'])\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], check=False, capture_output=True, text=True, timeout=300, preexec_fn=_limited
    )
    assert done.returncode == 0, done.stderr
    estimate, peak, completion = (float(x) for x in done.stdout.split())
    assert completion > 0
    # (the interpreter and its libraries take about 100 MB of their own)
    assert peak < 2 * estimate + (150 << 20), f"peak {peak / 2**20:.0f} MB against an estimate of {estimate / 2**20:.0f} MB"


@pytest.mark.parametrize(
    ("network", "keys"),
    [
        ({"topology": "dragonfly"}, "network.p, network.a, network.h, network.g"),
        ({"topology": "hyperx"}, "network.shape, network.parallel_links, network.terminals_per_router"),
        ({"topology": "mesh"}, "network.k, network.n"),
    ],
)
def test_a_refusal_for_memory_names_the_keys_the_network_has(network: dict[str, str], keys: str) -> None:
    import flitcast
    from flitcast.errors import ConfigError

    routing = {"dragonfly": "minimal"}.get(network["topology"], "dor")
    scenario = flitcast.Scenario(network=network, routing={"algorithm": routing}, run={"memory_limit_mb": 1})
    with pytest.raises(ConfigError) as info:
        flitcast.run(scenario)
    assert info.value.key == "run.memory_limit_mb" and keys in str(info.value), str(info.value)
    assert "network.k" not in str(info.value) or network["topology"] == "mesh"


#: one scenario per kind of every family (network, switch, routing, program), each run saturated long
#: enough to fill its buffers: the estimate is what a run can come to need, not what a light one touches
GROUP = list(range(32))
MEASURED = [
    {"network": {"topology": "mesh", "k": 64, "n": 2}, "switch": {"vcs": 4, "buffer_flits": 32}},
    {"network": {"topology": "torus", "k": 64, "n": 2}, "switch": {"vcs": 4, "buffer_flits": 32}},
    {"network": {"topology": "ring", "k": 1024}, "switch": {"vcs": 8, "buffer_flits": 256}},
    {"network": {"topology": "fat_tree", "k": 8, "n": 4}, "switch": {"model": "central_buffer"},
     "routing": {"algorithm": "adaptive"}},
    {"network": {"topology": "fat_tree", "k": 8, "n": 4}, "switch": {"model": "input_fifo", "buffer_flits": 64},
     "routing": {"algorithm": "o1", "oblivious_table": "d_mod_k"}},
    {"network": {"topology": "fat_tree", "k": 4, "n": 3}, "switch": {"model": "infiniband", "vcs": 4, "buffer_flits": 256},
     "routing": {"algorithm": "o4"}, "run": {"measure_cycles": 5000}},
    {"network": {"topology": "sp128"}, "switch": {"model": "central_buffer"}, "routing": {"algorithm": "o4"}},
    {"network": {"topology": "sp16"}, "switch": {"model": "input_fifo"}, "routing": {"algorithm": "adaptive"}},
    {"network": {"topology": "irregular", "file": str(REPO / "examples/networks/irregular_updown.csv")},
     "routing": {"algorithm": "up_down"}},
    *[{"network": {"topology": "dragonfly", "p": 4, "a": 8, "h": 4, "g": 33}, "switch": {"vcs": 3, "buffer_flits": 64},
       "routing": {"algorithm": algorithm}} for algorithm in ("minimal", "valiant", "ugal_l", "ugal_g")],
    *[{"network": {"topology": "slim_fly", "q": 7}, "switch": {"vcs": vcs, "buffer_flits": 64},
       "routing": {"algorithm": algorithm}} for algorithm, vcs in (("minimal", 2), ("valiant", 4))],
    *[{"network": {"topology": "hyperx", "shape": [16, 16], "terminals_per_router": 4},
       "switch": {"vcs": 4, "buffer_flits": 32}, "routing": {"algorithm": algorithm}} for algorithm in ("dor", "min_adaptive")],
    {"network": {"topology": "mesh", "k": 32, "n": 2}, "switch": {"vcs": 4, "buffer_flits": 32},
     "workload": {"program": "software_multicast", "destinations": 16, "load": 0.05}},
    {"network": {"topology": "fat_tree", "k": 8, "n": 3}, "switch": {"model": "central_buffer"}, "routing": {"algorithm": "adaptive"},
     "workload": {"program": "hardware_multicast", "destinations": 16, "load": 0.05}},
    {"network": {"topology": "fat_tree", "k": 8, "n": 3}, "switch": {"model": "central_buffer"}, "routing": {"algorithm": "adaptive"},
     "workload": {"program": "batch", "scheme": "hardware"}},
    {"network": {"topology": "torus", "k": 32, "n": 2}, "switch": {"vcs": 4, "buffer_flits": 32},
     "workload": {"program": "host_adapter", "group": GROUP, "load": 0.05, "background_load": 0.5, "packet_flits": 4000}},
    {"network": {"topology": "torus", "k": 32, "n": 2, "unidirectional": True}, "switch": {"vcs": 4, "buffer_flits": 32},
     "workload": {"program": "torus_multicast", "group_size": 1024}},
    {"network": {"topology": "mesh", "k": 8, "n": 2},
     "workload": {"program": "collective", "operation": "allreduce", "scheme": "ring", "message_flits": 1000000}},
    {"network": {"topology": "mesh", "k": 32, "n": 2},
     "workload": {"program": "collective", "operation": "alltoall", "scheme": "pairwise", "message_flits": 1}},
]

#: what the allocator and a few pages of a small scenario may add or leave untouched either way
NOISE_BYTES = 2 << 20


def test_the_measured_scenarios_cover_every_kind() -> None:
    from flitcast import _core

    sections = {name: keys for name, _, keys in json.loads(_core.schema())["sections"]}
    family = {"network": "topology", "switch": "model", "routing": "algorithm", "workload": "program"}
    for section, key in family.items():
        kinds = next(k["choices"] for k in sections[section] if k["key"] == key)
        default = next(k["default"] for k in sections[section] if k["key"] == key)
        covered = {case.get(section, {}).get(key, default) for case in MEASURED}
        assert covered == set(kinds), f"{section}.{key}: not measured: {set(kinds) - covered}"


@pytest.mark.parametrize("case", MEASURED, ids=lambda c: "-".join(
    str(c.get(s, {}).get(k, "")) for s, k in
    (("network", "topology"), ("switch", "model"), ("routing", "algorithm"), ("workload", "program"))))
def test_the_memory_estimate_is_within_a_factor_2_of_the_measured_peak(case: dict) -> None:
    # The estimate's own parts against what the run adds to the resident memory of an interpreter that
    # has already run a tiny scenario (VmHWM, this process's own peak). Parts marked "(bounded)" are the
    # engine's limits on a run's growth (source queues, multicast operations), which only a run that
    # grows to them reaches: a refusal counts them, this comparison does not (docs/engine.md, "Memory").
    run = {"warmup_cycles": 0, "measure_cycles": 200, "drain_max_cycles": 1, "saturation_stop": "off"}
    # (an open-loop network at full load: saturated; the programs at their own loads)
    workload = case.get("workload", {"load": 1.0})
    data = {**case, "run": {**run, **case.get("run", {})}, "workload": workload}
    probe = (
        "import json, sys, flitcast\n"
        "from flitcast import _core\n"
        "def peak(): return next(int(l.split()[1]) for l in open('/proc/self/status') if l.startswith('VmHWM:')) * 1024\n"
        "flitcast.run({'network': {'k': 2}, 'run': {'measure_cycles': 100, 'warmup_cycles': 0}})\n"
        "before = peak()\n"
        "s = flitcast.Scenario.model_validate(json.loads(sys.argv[1]))\n"
        "parts = json.loads(_core.memory_estimate(json.dumps(s.to_core_dict())))['ok']['parts']\n"
        "estimate = sum(p['bytes'] for p in parts if not p['what'].endswith('(bounded)'))\n"
        "flitcast.run(s)\n"
        "print(estimate, peak() - before)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe, json.dumps(data)], check=False, capture_output=True, text=True,
                          timeout=300, preexec_fn=_limited)
    assert done.returncode == 0, done.stderr
    estimate, grown = (int(x) for x in done.stdout.split())
    shown = f"grew {grown / 2**20:.1f} MB against an estimate of {estimate / 2**20:.1f} MB"
    assert estimate / 2 - NOISE_BYTES <= grown <= 2 * estimate + NOISE_BYTES, shown
