"""One process at a time uses an output directory's store (issue 35 §2): a second sweep on a directory
another running sweep holds is refused at once, --force too, naming the holder's pid; the lock goes with
its holder however it ends, kill -9 included (sweeps/store.py, docs/sweeps.md)."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import flitcast
from conftest import REPO
from flitcast import _core, errors
from flitcast.cli import app
from flitcast.sweeps.store import STORE_FILE
from flitcast.sweeps.store_lock import LOCK_FILE, hold_store

SEEDS = [1, 2, 3, 4]

# a sweep of SEEDS that, once its first point is recorded, says so on stdout and waits until its stdin closes
HOLDER = """
import json, sys
import flitcast

def progress(done, total):
    if done:
        print("held", flush=True)
        sys.stdin.read()

points = json.loads(sys.argv[2])
flitcast.sweep(points, store=sys.argv[1], threads=1, progress=progress)
"""


def _points(tiny: dict[str, Any]) -> list[dict[str, Any]]:
    return [{**tiny, "run": {**tiny["run"], "seed": seed}} for seed in SEEDS]


@pytest.fixture
def core_calls(monkeypatch) -> list[str]:
    """The points this process simulates."""
    calls: list[str] = []
    real = _core.run

    def counting(payload: str, *rest: Any) -> str:
        calls.append(payload)
        return real(payload, *rest)

    monkeypatch.setattr(_core, "run", counting)
    return calls


@pytest.fixture
def holder(tiny: dict[str, Any]) -> Iterator[Callable[[Path], subprocess.Popen[str]]]:
    """Start a sweep of ``_points(tiny)`` into a directory in another process; returns once it holds the
    directory and has recorded a point (it says so on a pipe: no sleeping)."""
    import json

    started: list[subprocess.Popen[str]] = []
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO / "python"), os.environ.get("PYTHONPATH", "")])}

    def start(out: Path) -> subprocess.Popen[str]:
        args = [sys.executable, "-c", HOLDER, str(out), json.dumps(_points(tiny))]
        proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        started.append(proc)
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line == "held\n", (line, proc.wait(timeout=60), proc.stderr.read() if proc.stderr else "")
        return proc

    yield start
    for proc in started:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=60)
        for pipe in (proc.stdin, proc.stdout, proc.stderr):
            if pipe is not None:
                pipe.close()


def _rows(out: Path) -> dict[str, str]:
    """key -> recorded_at of the points in ``out``'s store (read only: the holder may be writing it)."""
    with sqlite3.connect(f"{(out / STORE_FILE).as_uri()}?mode=ro", uri=True, timeout=5) as db:
        return dict(db.execute("SELECT key, recorded_at FROM points").fetchall())


def _in_use(out: Path, option: str, pid: int) -> str:
    force = "--force" if option == "--out" else "force=True"
    return (
        f"{option} = '{out}' is in use by another running sweep (pid {pid}); wait for it to end or choose another "
        f"directory ({force} does not discard a store in use)"
    )


def _cli(tiny: dict[str, Any], write_toml, out: Path, *more: str) -> Any:
    args = ["sweep", str(write_toml(tiny)), "--vary", f"run.seed={','.join(map(str, SEEDS))}", "--out", str(out), *more]
    return CliRunner().invoke(app, args)


def _error_line(result: Any) -> str:
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in result.output, result.output
    return lines[0].removeprefix("error: ")


def test_a_second_sweep_on_a_held_directory_is_refused_at_once(
    tiny: dict[str, Any], write_toml, tmp_path: Path, holder, core_calls: list[str]
) -> None:
    # it was let in, and then met a store half made by the first ("corrupt store ... --force discards it")
    out = tmp_path / "out"
    first = holder(out)
    kept = _rows(out)
    assert kept and (out / LOCK_FILE).exists()
    began = time.perf_counter()
    with pytest.raises(errors.StoreInUse) as info:
        flitcast.sweep(_points(tiny), store=out)
    assert time.perf_counter() - began < 5.0
    assert isinstance(info.value, errors.ConfigError) and info.value.key == "store" and info.value.pid == first.pid
    assert str(info.value) == _in_use(out, "store", first.pid)
    assert _error_line(_cli(tiny, write_toml, out)) == _in_use(out, "--out", first.pid)
    assert core_calls == [] and _rows(out) == kept
    # the holder goes on and finishes; the same sweep then resumes, simulating nothing
    assert first.stdin is not None
    first.stdin.close()
    assert first.wait(timeout=60) == 0
    assert sorted(p.name for p in out.iterdir()) == [STORE_FILE]  # the lock file went with its holder
    assert len(flitcast.sweep(_points(tiny), store=out)) == len(SEEDS)
    assert core_calls == [] and len(_rows(out)) == len(SEEDS)


def test_a_killed_holder_leaves_a_lock_that_blocks_nothing(
    tiny: dict[str, Any], write_toml, tmp_path: Path, holder, core_calls: list[str]
) -> None:
    out = tmp_path / "out"
    first = holder(out)
    kept = _rows(out)
    os.kill(first.pid, signal.SIGKILL)
    assert first.wait(timeout=60) == -signal.SIGKILL
    assert (out / LOCK_FILE).exists()  # left behind, and locking nothing
    table = flitcast.sweep(_points(tiny), store=out)
    assert len(table) == len(SEEDS) and (table["error"] == "").all()
    assert len(core_calls) == len(SEEDS) - len(kept)  # it resumed
    rows = _rows(out)
    assert len(rows) == len(SEEDS) and all(rows[key] == at for key, at in kept.items())
    assert sorted(p.name for p in out.iterdir()) == [STORE_FILE]
    # the command line too: the same sweep, nothing left to simulate
    simulated = len(core_calls)
    assert _cli(tiny, write_toml, out).exit_code == 0 and len(core_calls) == simulated


def test_force_does_not_discard_a_held_store(
    tiny: dict[str, Any], write_toml, tmp_path: Path, holder, core_calls: list[str]
) -> None:
    out = tmp_path / "out"
    first = holder(out)
    kept = _rows(out)
    assert _error_line(_cli(tiny, write_toml, out, "--force")) == _in_use(out, "--out", first.pid)
    with pytest.raises(errors.StoreInUse) as info:
        flitcast.sweep(_points(tiny)[:2], store=out, force=True)  # (another run: refused as in use, not as another's)
    assert str(info.value) == _in_use(out, "store", first.pid)
    assert core_calls == [] and _rows(out) == kept and (out / STORE_FILE).exists()


def test_the_lock_is_its_threads_alone(tiny: dict[str, Any], tmp_path: Path) -> None:
    # the holding thread may take it again (a command's sweep inside its own hold); another thread may not
    out = tmp_path / "out"
    out.mkdir()
    failures: list[BaseException] = []

    def other() -> None:
        try:
            flitcast.sweep(_points(tiny)[:1], store=out)
        except BaseException as exc:
            failures.append(exc)

    with hold_store(out):
        assert len(flitcast.sweep(_points(tiny)[:1], store=out)) == 1
        assert (out / LOCK_FILE).exists()
        thread = threading.Thread(target=other)
        thread.start()
        thread.join(timeout=60)
    assert len(failures) == 1 and isinstance(failures[0], errors.StoreInUse) and failures[0].pid == os.getpid()
    assert sorted(p.name for p in out.iterdir()) == [STORE_FILE]


def test_a_store_half_made_by_its_holder_is_in_use_not_corrupt(tiny: dict[str, Any], write_toml, tmp_path: Path) -> None:
    # the symptom of the issue: the second run read the first's store between its creation (an empty file)
    # and its tables, and called it corrupt, advising --force (another thread holds it here: the same rule)
    out = tmp_path / "out"
    out.mkdir()
    holding, done = threading.Event(), threading.Event()

    def hold() -> None:
        with hold_store(out):
            (out / STORE_FILE).write_bytes(b"")
            holding.set()
            done.wait(timeout=60)

    thread = threading.Thread(target=hold)
    thread.start()
    try:
        assert holding.wait(timeout=60)
        with pytest.raises(errors.StoreInUse) as info:
            flitcast.sweep(_points(tiny), store=out)
        assert str(info.value) == _in_use(out, "store", os.getpid())
        assert _error_line(_cli(tiny, write_toml, out)) == _in_use(out, "--out", os.getpid())
    finally:
        done.set()
        thread.join(timeout=60)
    assert sorted(p.name for p in out.iterdir()) == [STORE_FILE]  # (corrupt now that no one holds it)
    with pytest.raises(errors.CorruptStore):
        flitcast.sweep(_points(tiny), store=out)
