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
