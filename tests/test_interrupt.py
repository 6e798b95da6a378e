"""Ctrl-C: a long `flitcast run` (and `flitcast.run`) stops within a fraction of a second, says where,
exits 130 and writes nothing. Real processes and a real SIGINT."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process is POSIX")

#: a run that would take minutes: it must be interrupted, not finished
LONG = ["--set", "run.measure_cycles=20000000"]


def _interrupt(args: list[str], tmp_path: Path) -> tuple[subprocess.CompletedProcess[str], float]:
    proc = subprocess.Popen(
        [sys.executable, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path
    )
    # wait until the simulation runs (the scenario has been read and validated), then press Ctrl-C
    time.sleep(2.0)
    assert proc.poll() is None, proc.communicate()
    sent = time.perf_counter()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    return subprocess.CompletedProcess(args, proc.returncode, out, err), time.perf_counter() - sent


def test_ctrl_c_stops_flitcast_run(tiny: dict[str, Any], write_toml, tmp_path: Path) -> None:
    out = tmp_path / "out"
    proc, waited = _interrupt(["-m", "flitcast", "run", str(write_toml(tiny)), *LONG, "--out", str(out)], tmp_path)
    assert proc.returncode == 130, proc.stderr
    assert waited < 2.0
    assert "Traceback" not in proc.stderr and proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("interrupted at cycle "), proc.stderr
    assert int(lines[0].rsplit(" ", 1)[1]) > 0
    assert not out.exists() and not [p for p in tmp_path.iterdir() if ".tmp-" in p.name]


def test_ctrl_c_stops_a_long_set_up_within_a_second(write_toml, tmp_path: Path) -> None:
    # a broadcast over 16,384 nodes spends seconds setting up (one route search per sender's router
    # for its estimate) before its first cycle: Ctrl-C there stops it as fast as during the run
    broadcast = {
        "network": {"topology": "mesh", "k": 128, "n": 2},
        "workload": {"program": "collective", "operation": "broadcast", "message_flits": 1},
        "run": {"warmup_cycles": 0},
    }
    proc, waited = _interrupt(["-m", "flitcast", "run", str(write_toml(broadcast))], tmp_path)
    assert proc.returncode == 130, proc.stderr
    assert waited < 1.0
    assert proc.stderr.strip() == "interrupted at cycle 0", proc.stderr


def test_ctrl_c_stops_flitcast_run_in_python(tiny: dict[str, Any], tmp_path: Path) -> None:
    code = f"""
import flitcast
from flitcast import errors
data = {tiny!r}
data["run"]["measure_cycles"] = 20_000_000
try:
    flitcast.run(data)
except KeyboardInterrupt as exc:
    cause = exc.__cause__
    assert isinstance(cause, errors.Interrupted) and cause.cycle > 0, cause
    print("stopped", exc)
"""
    proc, waited = _interrupt(["-c", code], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert waited < 2.0
    assert proc.stdout.startswith("stopped interrupted at cycle ")


@pytest.mark.skipif(not hasattr(__import__("os"), "openpty"), reason="needs a pseudo-terminal")
def test_progress_bar_on_a_terminal(tiny: dict[str, Any], write_toml, tmp_path: Path) -> None:
    import os
    import pty

    tiny["run"]["measure_cycles"] = 3_000_000  # long enough for a few progress refreshes
    controller, terminal = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "flitcast", "run", str(write_toml(tiny))],
        stdin=terminal, stdout=subprocess.DEVNULL, stderr=terminal, cwd=tmp_path,
    )
    os.close(terminal)
    shown = b""
    while True:
        try:
            chunk = os.read(controller, 65536)
        except OSError:  # the terminal closed: the process has ended
            break
        if not chunk:
            break
        shown += chunk
    os.close(controller)
    assert proc.wait(timeout=120) == 0, shown.decode(errors="replace")[-2000:]
    text = shown.decode(errors="replace")
    assert "simulating" in text and "of 3,000,500" in text and "Traceback" not in text
