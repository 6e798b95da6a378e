"""One run split across threads (run.threads, docs/engine.md "Regions"): every example scenario gives the
same result on 1, 2 and 3 threads; `flitcast run --threads N` sets it; a bad count names the key; a
point's threads count in a sweep's thread budget and not in its store key."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import flitcast
from flitcast import _core, errors
from flitcast.cli import app
from flitcast.config import Scenario, read_scenario_file
from flitcast.sweeps.run import point_threads
from flitcast.sweeps.store import point_key

EXAMPLES = sorted((Path(__file__).parent.parent / "examples" / "scenarios").glob("*.toml"))

runner = CliRunner()


def _outcome(point: Scenario, threads: int) -> dict[str, Any]:
    """The core's whole result for ``point`` on ``threads`` threads."""
    payload = point.with_overrides({"run.threads": threads}).to_core_dict()
    outcome = json.loads(_core.run(json.dumps(payload)))
    outcome.pop("wall_seconds", None)
    return outcome


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_every_example_is_the_same_on_1_2_and_3_threads(path: Path) -> None:
    data, _ = read_scenario_file(path)
    point = Scenario.model_validate(data)
    run = point.run
    # (short: the examples run for seconds; a few thousand cycles cross every region many times)
    short = point.with_overrides(
        {
            "run.warmup_cycles": min(run.warmup_cycles, 1_000),
            "run.measure_cycles": min(run.measure_cycles, 4_000),
        }
    )
    one = _outcome(short, 1)
    assert "ok" in one, one
    for threads in (2, 3):
        assert _outcome(short, threads) == one, f"{path.stem} on {threads} threads"


def _metrics(table: str) -> dict[str, str]:
    """The metrics of a printed table, by name, but the wall-clock time."""
    rows = [[cell.strip() for cell in line.split("│")] for line in table.splitlines() if line.count("│") >= 3]
    return {row[1]: row[2] for row in rows if row[1] != "wall_seconds"}


def test_run_threads_option_sets_run_threads(tmp_path: Path, tiny: dict[str, Any]) -> None:
    import tomli_w

    path = tmp_path / "scenario.toml"
    path.write_text(tomli_w.dumps(tiny), encoding="utf-8")
    one = runner.invoke(app, ["run", str(path)])
    two = runner.invoke(app, ["run", str(path), "--threads", "2"])
    assert one.exit_code == 0 and two.exit_code == 0, two.output
    assert _metrics(one.output) == _metrics(two.output) and "flit_hops" in _metrics(one.output)
    bad = runner.invoke(app, ["run", str(path), "--threads", "1000"])
    assert bad.exit_code != 0
    assert "run.threads = 1000" in bad.output + str(bad.stderr if bad.stderr_bytes is not None else "")


def test_an_absurd_thread_count_is_a_config_error(tiny: dict[str, Any]) -> None:
    tiny["run"]["threads"] = 100_000
    with pytest.raises(errors.ConfigError) as info:
        flitcast.run(tiny)
    assert info.value.key == "run.threads"


def test_a_points_threads_count_in_the_sweeps_budget_not_in_its_key(tiny: dict[str, Any]) -> None:
    base = Scenario.model_validate(tiny)
    split = base.with_overrides({"run.threads": 2})
    assert point_key(split.minimal()) == point_key(base.minimal())
    payloads = [base.to_core_dict(), split.to_core_dict()]
    assert point_threads([base.to_core_dict()], 4) == 4
    assert point_threads(payloads, 4) == 2
    assert point_threads(payloads, 1) == 1
    assert point_threads(payloads, 0) == max(1, (os.cpu_count() or 1) // 2)
    rows = flitcast.sweep([split.with_overrides({"workload.load": x}) for x in (0.1, 0.2)], threads=2)
    alone = flitcast.sweep([base.with_overrides({"workload.load": x}) for x in (0.1, 0.2)], threads=1)
    assert rows["flit_hops"].tolist() == alone["flit_hops"].tolist()
