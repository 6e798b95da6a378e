"""Long work reports itself where output is not a terminal: a plain line on stderr at a steady interval,
with what is done of the total, the time elapsed and left, and what runs (`cli/plain_progress.py`)."""

from __future__ import annotations

import io
import re
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from flitcast.cli import plain_progress
from flitcast.cli.app import app
from flitcast.cli.plain_progress import PlainProgress, clock

LINE = re.compile(r"^(progress|done): [\d,]+ of [\d,]+ points \(\d+%\), \d:\d\d:\d\d elapsed, .+, .+$")


def test_a_line_says_done_of_total_elapsed_time_left_and_what_runs() -> None:
    stream = io.StringIO()
    with PlainProgress(10, "points", "sweep", every=0.02, stream=stream) as plain:
        assert "time left not known yet" in plain.line()
        plain.update(4, 10, "dragonfly-routing")  # (a resumed run's stored points: no pace yet)
        assert "time left not known yet" in plain.line()
        time.sleep(0.6)
        plain.update(5)  # one point in 0.6 s: 5 more take about 3 s
        assert re.search(r"5 of 10 points \(50%\), 0:00:00 elapsed, about 0:00:0[2-4] left, dragonfly-routing$", plain.line())
        plain.update(10, 12)  # a refinement added points: the total grows, what runs stays
    lines = stream.getvalue().splitlines()
    assert len(lines) >= 3 and all(LINE.match(line) for line in lines), lines
    assert lines[-1] == lines[-1].replace("progress:", "") and lines[-1].startswith("done: 10 of 12 points (83%)")
    assert clock(3_725) == "1:02:05"


def test_work_shorter_than_the_interval_prints_nothing() -> None:
    stream = io.StringIO()
    with PlainProgress(3, "points", "sweep", every=60, stream=stream) as plain:
        plain.update(3)
    assert stream.getvalue() == ""


@pytest.mark.parametrize("command", ["sweep", "run"])
def test_a_redirected_sweep_or_run_prints_progress_lines(command: str, tiny: dict[str, Any], write_toml, monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setattr(plain_progress, "EVERY_SECONDS", 0.001)
    scenario = write_toml({**tiny, "run": {**tiny.get("run", {}), "warmup_cycles": 2_000, "measure_cycles": 20_000}})
    args = [command, str(scenario), "--out", str(tmp_path / "out")]
    if command == "sweep":
        args += ["--vary", "workload.load=0.05,0.1"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    lines = result.stderr.splitlines()
    assert lines and lines[-1].startswith("done: "), result.stderr
    if command == "sweep":
        assert all(LINE.match(line) and line.endswith(", sweep") for line in lines), lines
        assert lines[-1].startswith("done: 2 of 2 points (100%)")
    else:  # a single run counts the cycles of its window
        assert "cycles of the window" in lines[-1] and lines[-1].endswith(", simulating")


def test_the_time_left_is_read_from_the_pace_since_the_first_count(monkeypatch) -> None:
    now = [100.0]
    monkeypatch.setattr(plain_progress.time, "monotonic", lambda: now[0])
    plain = PlainProgress(100, "points", "sweep", every=60, stream=io.StringIO())
    plain.update(1)  # a resumed run: 40 points stored, reported one by one at once
    now[0] += 0.01
    plain.update(40)
    now[0] += 600
    plain.update(50)  # 10 points in 10 minutes: the 50 left take 50 minutes, not 50 · 600/50 s
    assert plain.line().endswith("0:10:00 elapsed, about 0:50:00 left, sweep")
