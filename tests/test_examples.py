"""Every file in examples/ runs (scenario files with short run lengths)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from flitcast.cli import app

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "examples"
SHORT = ["--set", "run.warmup_cycles=300", "--set", "run.measure_cycles=1500", "--set", "run.drain_max_cycles=5000"]


def test_every_example_is_covered() -> None:
    files = sorted(p.relative_to(EXAMPLES).as_posix() for p in EXAMPLES.rglob("*") if p.is_file())
    assert files == sorted(
        [f"scenarios/{p.name}" for p in EXAMPLES.glob("scenarios/*.toml")]
        + [f"scripts/{p.name}" for p in EXAMPLES.glob("scripts/*.py")]
    )


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("scenarios/*.toml")), ids=lambda p: p.name)
def test_scenario_runs_and_sweeps(path: Path, tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["run", str(path), *SHORT])
    assert result.exit_code == 0, result.output
    result = CliRunner().invoke(
        app, ["sweep", str(path), "--vary", "workload.load=0.1,0.2", *SHORT, "--out", str(tmp_path / "out")]
    )
    assert result.exit_code == 0, result.output
    assert (tmp_path / "out" / "latency_vs_load.png").exists()


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("scripts/*.py")), ids=lambda p: p.name)
def test_script_runs(path: Path, tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip()
