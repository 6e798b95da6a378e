"""Shared fixtures: tiny scenarios that simulate in milliseconds."""

from __future__ import annotations

import copy
import signal
from pathlib import Path
from typing import Any

import pytest
import tomli_w

#: a 4x4 mesh at low load with short windows: the workhorse of the suite
TINY: dict[str, Any] = {
    "network": {"topology": "mesh", "k": 4, "n": 2},
    "workload": {"pattern": "uniform", "load": 0.1, "packet_flits": 4},
    "run": {"warmup_cycles": 500, "measure_cycles": 2000, "drain_max_cycles": 5000, "seed": 1},
}

REPO = Path(__file__).resolve().parent.parent

# The Ctrl-C tests deliver SIGINT to the suite and to the processes it starts. A suite started in the
# background of a shell without job control (`make test &`, nohup) inherits SIGINT ignored, as would
# every process it starts, and Ctrl-C would do nothing: restore Python's handler (children start with
# the default action, whatever handler this process has).
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


def deadlock_prone() -> dict[str, Any]:
    """One VC on a ring with the routing check off: wrap-around dependencies close a cycle, and the
    watchdog fires within a few thousand cycles."""
    return {
        "network": {"topology": "ring", "k": 8},
        "switch": {"vcs": 1, "buffer_flits": 2},
        "routing": {"check_deadlock_free": False},
        "workload": {"load": 0.9, "packet_flits": 8},
        "run": {"warmup_cycles": 0, "measure_cycles": 20000, "drain_max_cycles": 20000, "watchdog_cycles": 200},
    }


@pytest.fixture
def tiny() -> dict[str, Any]:
    return copy.deepcopy(TINY)


@pytest.fixture
def write_toml(tmp_path: Path):
    """Write a dict as a TOML file in tmp_path and return its path."""

    def write(data: dict[str, Any], name: str = "scenario.toml") -> Path:
        path = tmp_path / name
        path.write_text(tomli_w.dumps(data), encoding="utf-8")
        return path

    return write
