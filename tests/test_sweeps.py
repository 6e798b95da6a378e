"""Resumable sweeps on local threads: the point store, resuming after Ctrl-C, failed points, --force,
output directory checks before simulating, and argument checks (docs/sweeps.md, docs/results.md)."""

from __future__ import annotations

import _thread
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from typer.testing import CliRunner

import flitcast
from conftest import deadlock_prone
from flitcast import _core, catalogue, errors
from flitcast.cli import app
from flitcast.config import Scenario
from flitcast.experiments import Claim, Experiment
from flitcast.experiments.experiment import judge
from flitcast.experiments.verdicts import Axis, above
from flitcast.sweeps.store import STORE_FILE, STORE_FORMAT, point_key

runner = CliRunner()


def invoke(*args: Any):
    return runner.invoke(app, [str(a) for a in args])


@pytest.fixture
def core_calls(monkeypatch) -> list[str]:
    """Count the points the core simulates (every runner in this process goes through _core.run)."""
    calls: list[str] = []
    real = _core.run

    def counting(payload: str, *rest: Any) -> str:
        calls.append(payload)
        return real(payload, *rest)

    monkeypatch.setattr(_core, "run", counting)
    return calls


def _points(tiny: dict[str, Any], count: int = 6, **run: Any) -> list[Scenario]:
    base = Scenario.model_validate(tiny).with_overrides({f"run.{k}": v for k, v in run.items()})
    return [base.with_overrides({"run.seed": seed}) for seed in range(1, count + 1)]


def _rows(store: Path) -> list[tuple[Any, ...]]:
    with sqlite3.connect(store / STORE_FILE) as db:
        return db.execute("SELECT key, status, point_index, recorded_at, outcome FROM points ORDER BY point_index").fetchall()


# --- the store ---------------------------------------------------------------------------------------


def _declarations(scenario: Scenario) -> dict[tuple[str, str], dict[str, Any]]:
    """The catalogue's declaration of every key the scenario's kinds take, by (table, key)."""
    resolved = scenario.to_core_dict()
    out = {}
    for section, _, keys in catalogue.sections():
        for key in keys:
            if all(resolved[section].get(tag) == kind for tag, kind in key["within"]):
                out[(section, key["key"])] = key
    return out


def test_keys_added_later_leave_old_store_keys_unchanged(tiny: dict[str, Any]) -> None:
    # a key added with the value that keeps the old behaviour must not invalidate stored points: a point
    # is keyed by its minimal form, the keys that differ from their defaults (a table's kind is named
    # only with keys of it that do)
    base = Scenario.model_validate(tiny)
    minimal = base.minimal()
    declared = _declarations(base)
    assert minimal and all(
        (section, name) in declared and (declared[(section, name)]["tag"] or value != declared[(section, name)]["default"])
        for section, table in minimal.items()
        for name, value in table.items()
    ), minimal
    # every key of the scenario's kinds given explicitly at its default — as a key added later would be —
    # changes neither the minimal form nor the key
    defaults = {
        f"{section}.{name}": key["default"]
        for (section, name), key in declared.items()
        if key["default"] is not None and name not in tiny.get(section, {})
    }
    assert {"switch.model", "switch.buffer_flits", "routing.torus_ties", "workload.program", "run.batches"} <= set(defaults)
    explicit = base.with_overrides(defaults)
    assert explicit == base and explicit.minimal() == minimal and point_key(explicit.minimal()) == point_key(minimal)
    multicast = Scenario.model_validate(
        {**tiny, "workload": {"program": "software_multicast", "destinations": 2, "packet_flits": 4}}
    )
    assert point_key(multicast.minimal()) != point_key(minimal)


def test_a_store_of_another_format_is_refused(tiny: dict[str, Any], tmp_path: Path, core_calls: list[str]) -> None:
    points = _points(tiny, 2)
    flitcast.sweep(points, store=tmp_path / "out")
    with sqlite3.connect(tmp_path / "out" / STORE_FILE) as db:  # as flitcast 0.1 wrote it: no format recorded
        db.execute("DELETE FROM meta WHERE name = 'format'")
        db.execute("UPDATE meta SET value = 'another run' WHERE name = 'run_id'")
    core_calls.clear()
    with pytest.raises(errors.ConfigError) as info:
        flitcast.sweep(points, store=tmp_path / "out")
    assert info.value.key == "store" and "a store of format 1" in str(info.value) and STORE_FORMAT == "2"
    assert core_calls == []
    assert len(flitcast.sweep(points, store=tmp_path / "out", force=True)) == 2



def test_every_point_is_recorded_once_and_a_rerun_reads_them_back_identically(
    tiny: dict[str, Any], tmp_path: Path, core_calls: list[str]
) -> None:
    points = _points(tiny)
    points.append(points[0])  # the same point twice runs once and is recorded once
    first = flitcast.sweep(points, threads=2, store=tmp_path / "out")
    assert len(core_calls) == 6
    rows = _rows(tmp_path / "out")
    assert [r[1] for r in rows] == ["ok"] * 6 and [r[2] for r in rows] == list(range(6))
    assert {r[0] for r in rows} == {point_key(p.minimal()) for p in points}
    assert all(r[3].endswith("+00:00") for r in rows)
    core_calls.clear()
    progress: list[tuple[int, int]] = []
    again = flitcast.sweep(points, store=tmp_path / "out", progress=lambda d, t: progress.append((d, t)))
    assert core_calls == [] and progress == [(7, 7)]
    # read back from the store: the same table, bit for bit, wall_seconds included (the same outcome JSON)
    pd.testing.assert_frame_equal(first, again, check_exact=True)
    fresh = flitcast.sweep(points)
    pd.testing.assert_frame_equal(first.drop(columns="wall_seconds"), fresh.drop(columns="wall_seconds"), check_exact=True)


def test_point_key_is_the_minimal_scenario_and_ignores_memory_limit(tiny: dict[str, Any]) -> None:
    scenario = Scenario.model_validate(tiny).minimal()
    assert point_key(scenario) == point_key(Scenario.model_validate(tiny).minimal())
    # the same scenario given another way: the same key
    respelled = {**tiny, "switch": {"model": "input_buffered", "vcs": 2}, "routing": {"algorithm": "dor"}}
    assert point_key(Scenario.model_validate(respelled).minimal()) == point_key(scenario)
    reseeded = Scenario.model_validate(tiny).with_overrides({"run.seed": 2}).minimal()
    assert point_key(reseeded) != point_key(scenario)
    limited = Scenario.model_validate(tiny).with_overrides({"run.memory_limit_mb": 100}).minimal()
    assert limited["run"]["memory_limit_mb"] == 100 and point_key(limited) == point_key(scenario)


def test_force_recomputes_everything(tiny: dict[str, Any], tmp_path: Path, core_calls: list[str]) -> None:
    points = _points(tiny, 3)
    flitcast.sweep(points, store=tmp_path / "out")
    before = _rows(tmp_path / "out")
    core_calls.clear()
    flitcast.sweep(points, store=tmp_path / "out", force=True)
    assert len(core_calls) == 3
    after = _rows(tmp_path / "out")
    assert [r[0] for r in after] == [r[0] for r in before] and [r[3] for r in after] != [r[3] for r in before]


def test_another_runs_store_is_refused_unless_forced(tiny: dict[str, Any], tmp_path: Path, core_calls: list[str]) -> None:
    flitcast.sweep(_points(tiny, 2), store=tmp_path / "out")
    core_calls.clear()
    with pytest.raises(errors.ConfigError) as info:
        flitcast.sweep(_points(tiny, 3), store=tmp_path / "out")
    assert info.value.key == "store" and "another run" in str(info.value) and core_calls == []
    assert len(flitcast.sweep(_points(tiny, 3), store=tmp_path / "out", force=True)) == 3


def test_reuse_takes_another_runs_points_instead_of_simulating_them(
    tiny: dict[str, Any], tmp_path: Path, core_calls: list[str]
) -> None:
    points = _points(tiny, 3)
    first = flitcast.sweep(points[:2], store=tmp_path / "first")
    core_calls.clear()
    progress: list[tuple[int, int]] = []
    both = flitcast.sweep(points, store=tmp_path / "second", reuse=[tmp_path / "first"], progress=lambda d, t: progress.append((d, t)))
    # only the third point ran; the first two came from the other run, its outcomes (wall_seconds included)
    assert len(core_calls) == 1 and progress[0] == (2, 3)
    pd.testing.assert_frame_equal(both.iloc[:2].reset_index(drop=True), first, check_exact=True)
    # and are recorded in this run's store, so it resumes without the other one
    assert len(_rows(tmp_path / "second")) == 3
    assert {r[0]: r[4] for r in _rows(tmp_path / "first")}.items() <= {r[0]: r[4] for r in _rows(tmp_path / "second")}.items()
    core_calls.clear()
    flitcast.sweep(points, store=tmp_path / "second")
    assert core_calls == []


@pytest.mark.parametrize("case", ["one path, not a list", "a directory without a store", "not a path"])
def test_reuse_names_what_it_expected(case: str, tiny: dict[str, Any], tmp_path: Path, core_calls: list[str]) -> None:
    reuse = {"one path, not a list": str(tmp_path), "a directory without a store": [tmp_path], "not a path": [5]}[case]
    with pytest.raises(errors.ConfigError) as info:
        flitcast.sweep([tiny], reuse=reuse)
    assert info.value.key == "reuse" and "output directories of earlier runs" in info.value.allowed and core_calls == []


# --- Ctrl-C and resuming -------------------------------------------------------------------------------


def test_interrupted_sweep_keeps_finished_points_and_resumes_only_the_missing_ones(
    tiny: dict[str, Any], tmp_path: Path, core_calls: list[str]
) -> None:
    points = _points(tiny, 8, measure_cycles=200_000)  # tens of ms each: the main thread sees them one by one
    out = tmp_path / "out"

    def stop_after_three(done: int, total: int) -> None:
        if done >= 3:
            raise KeyboardInterrupt  # what Ctrl-C raises in the main thread while it waits

    with pytest.raises(errors.SweepInterrupted) as info:
        flitcast.sweep(points, threads=1, store=out, progress=stop_after_three)
    kept = info.value.kept
    assert 3 <= kept < 8 and info.value.total == 8 and info.value.store == str(out / STORE_FILE)
    assert isinstance(info.value, errors.Interrupted)
    assert f"{kept} of 8 points are kept in {out / STORE_FILE}" in str(info.value)
    assert len(_rows(out)) == kept and {r[1] for r in _rows(out)} == {"ok"}  # never an interrupted outcome
    core_calls.clear()
    resumed = flitcast.sweep(points, threads=1, store=out)
    assert len(core_calls) == 8 - kept
    assert len(_rows(out)) == 8
    fresh = flitcast.sweep(points)
    pd.testing.assert_frame_equal(resumed.drop(columns="wall_seconds"), fresh.drop(columns="wall_seconds"), check_exact=True)


def test_ctrl_c_stops_running_points_within_a_second(tiny: dict[str, Any], tmp_path: Path) -> None:
    # points of several seconds each: only the shared Control can stop them this fast
    points = _points(tiny, 4, measure_cycles=20_000_000)
    timer = threading.Timer(0.5, _thread.interrupt_main)  # a SIGINT delivered to the main thread
    began = time.perf_counter()
    timer.start()
    try:
        with pytest.raises(errors.SweepInterrupted) as info:
            flitcast.sweep(points, threads=2, store=tmp_path / "out")
    finally:
        timer.cancel()
    assert time.perf_counter() - began < 2.0
    assert info.value.kept == 0 and _rows(tmp_path / "out") == []


def test_cli_interrupted_without_out_says_nothing_was_kept(tiny: dict[str, Any], write_toml) -> None:
    tiny["run"]["measure_cycles"] = 20_000_000
    timer = threading.Timer(0.5, _thread.interrupt_main)
    timer.start()
    try:
        result = invoke("sweep", write_toml(tiny), "--vary", "run.seed=1,2", "--threads", "2")
    finally:
        timer.cancel()
    assert result.exit_code == 130, result.output
    assert result.stderr.strip() == (
        "interrupted: nothing was kept (0 of 2 points had finished); use --out DIR to keep finished points"
    )


def _store_count(path: Path) -> int:
    if not path.exists():
        return 0
    try:
        with sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, timeout=5) as db:
            return int(db.execute("SELECT count(*) FROM points").fetchone()[0])
    except sqlite3.OperationalError:  # the schema is not there yet
        return 0


def test_cli_sigint_exits_130_and_the_same_command_resumes(tiny: dict[str, Any], write_toml, tmp_path: Path) -> None:
    tiny["run"]["measure_cycles"] = 200_000  # about 0.1-0.2 s a point
    out = tmp_path / "out"
    args = [sys.executable, "-m", "flitcast", "sweep", str(write_toml(tiny)), "--vary", "run.seed=1:16:1",
            "--threads", "1", "--out", str(out)]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while _store_count(out / STORE_FILE) < 2 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert proc.poll() is None, "the sweep finished before it could be interrupted"
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    _stdout, stderr = proc.communicate(timeout=30)
    assert time.monotonic() - sent < 2.0
    assert proc.returncode == 130, stderr
    kept = _store_count(out / STORE_FILE)
    assert 2 <= kept < 16
    assert stderr == f"interrupted: {kept} of 16 points are kept in {out / STORE_FILE}; run the same command again to resume\n"
    assert sorted(p.name for p in out.iterdir()) == [STORE_FILE]  # no tables before every point has a result
    before = {r[0]: r[3] for r in _rows(out)}
    proc = subprocess.run(args, check=False, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    after = {r[0]: r[3] for r in _rows(out)}
    assert len(after) == 16 and all(after[key] == at for key, at in before.items())  # kept, not redone
    assert len(pd.read_csv(out / "results.csv")) == 16


# --- failed points -----------------------------------------------------------------------------------------


def test_cli_failed_point_is_recorded_listed_and_exits_1(write_toml, tmp_path: Path, core_calls: list[str]) -> None:
    out = tmp_path / "out"
    args = ["sweep", write_toml(deadlock_prone()), "--vary", "switch.vcs=1,2", "--out", out]
    result = invoke(*args)
    assert result.exit_code == 1, result.output
    assert "failed: 1 of 2 points" in result.stderr
    assert "point 0 (switch.vcs=1): deadlock: no flit moved" in result.stderr
    frame = pd.read_csv(out / "results.csv", keep_default_na=False)
    assert frame["error"].iloc[0].startswith("deadlock: ") and frame["error"].iloc[1] == ""
    assert frame["latency_mean"].iloc[0] == "" and float(frame["latency_mean"].iloc[1]) > 0
    rows = _rows(out)
    assert [r[1] for r in rows] == ["failed", "ok"] and '"kind":"deadlock"' in rows[0][4]
    assert {"latency_vs_load.png", "results.parquet", "scenario.toml"} <= {p.name for p in out.iterdir()}
    # the failure is a result: a re-run simulates nothing and reports it again
    core_calls.clear()
    again = invoke(*args)
    assert again.exit_code == 1 and core_calls == [] and "point 0 (switch.vcs=1)" in again.stderr


def test_claims_are_not_judged_when_points_failed() -> None:
    experiment = Experiment(
        id="x", study="s", figure="f", title="t", points=lambda quick: [],
        claims=lambda r: [Claim("peak above 0.5", "§1", "0.6", above(r.value("accepted_load", "peak"), 0.5, Axis("accepted load", 0.0, 1.0), f"{r.table['accepted_load'].max():.2f}"), "±0.1")],
        plot=lambda results, out: None,
    )
    results = pd.DataFrame({"accepted_load": [0.6, None], "error": ["", "deadlock: ..."]})
    claims = judge(experiment, results)
    assert claims["holds"].tolist() == [None]
    assert claims["note"].iloc[0] == "not judged: 1 of 2 points failed (see the error column of results.csv); ±0.1"
    assert claims["ours"].iloc[0] == "0.60"
    assert judge(experiment, results.iloc[:1].assign(error=""))["holds"].tolist() == [True]


# --- output directory checks, before anything is simulated ---------------------------------------------


@pytest.mark.parametrize("command", ["sweep", "reproduce", "run"])
def test_bad_out_fails_before_simulating(
    command: str, tiny: dict[str, Any], write_toml, tmp_path: Path, core_calls: list[str]
) -> None:
    scenario = write_toml(tiny)
    (tmp_path / "file").write_text("x")
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "notes.txt").write_text("x")
    head = {
        "sweep": ["sweep", scenario, "--vary", "workload.load=0.1,0.2"],
        "reproduce": ["reproduce", "banikazemi-fig5", "--quick"],
        "run": ["run", scenario],
    }[command]
    for out, fragment in [("", "--out = '' is not allowed"), (tmp_path / "file", "this path is a file"),
                          (tmp_path / "file" / "sub", "parents are directories"), (tmp_path / "full", "--force")]:
        result = invoke(*head, "--out", out)
        assert result.exit_code == 2, (out, result.output)
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: ") and fragment in lines[0], lines
    assert core_calls == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file", "full", "scenario.toml"]
    assert [p.name for p in (tmp_path / "full").iterdir()] == ["notes.txt"]


def test_run_out_accepts_a_full_directory_with_force(tiny: dict[str, Any], write_toml, tmp_path: Path) -> None:
    out = tmp_path / "full"
    out.mkdir()
    (out / "notes.txt").write_text("keep me")
    assert invoke("run", write_toml(tiny), "--out", out, "--force").exit_code == 0
    assert sorted(p.name for p in out.iterdir()) == ["links.csv", "notes.txt", "results.csv", "results.parquet", "scenario.toml"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root can write anywhere")
def test_unwritable_out_fails_before_simulating(tiny: dict[str, Any], write_toml, tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        result = invoke("sweep", write_toml(tiny), "--vary", "workload.load=0.1", "--out", locked / "out")
    finally:
        locked.chmod(0o700)
    assert result.exit_code == 2 and "not writable" in result.stderr


def _heads(tiny: dict[str, Any], write_toml) -> dict[str, list[Any]]:
    """Each command that writes --out, up to the option."""
    scenario = write_toml(tiny)
    return {
        "sweep": ["sweep", scenario, "--vary", "workload.load=0.1,0.2"],
        "reproduce": ["reproduce", "banikazemi-fig5", "--quick"],
        "run": ["run", scenario],
        "model": ["model", "--group", "4"],
    }


def _one_error_line(result: Any) -> str:
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in result.output, result.output
    return lines[0]


@pytest.mark.parametrize("command", ["sweep", "reproduce", "run", "model"])
def test_dangling_symlink_out_is_named_as_one(
    command: str, tiny: dict[str, Any], write_toml, tmp_path: Path, core_calls: list[str]
) -> None:
    link = tmp_path / "link"
    link.symlink_to(tmp_path / "gone" / "target")
    for out in (link, link / "sub"):
        line = _one_error_line(invoke(*_heads(tiny, write_toml)[command], "--out", out))
        assert f"{link} is a dangling symbolic link: its target {tmp_path / 'gone' / 'target'} does not exist" in line
        assert "File exists" not in line
    assert core_calls == [] and not (tmp_path / "gone").exists()


@pytest.mark.parametrize(
    ("command", "name"),
    [("sweep", "results.csv"), ("sweep", "scenario.toml"), ("sweep", STORE_FILE), ("reproduce", "claims.csv"),
     ("reproduce", STORE_FILE), ("run", "results.parquet"), ("model", "model.png")],
)
def test_a_directory_where_a_file_goes_fails_before_simulating(
    command: str, name: str, tiny: dict[str, Any], write_toml, tmp_path: Path, core_calls: list[str]
) -> None:
    # with --force too: a directory is never discarded (it simulated everything, then failed naming DIR)
    out = tmp_path / "out"
    (out / name).mkdir(parents=True)
    (out / name / "keep.txt").write_text("x")
    line = _one_error_line(invoke(*_heads(tiny, write_toml)[command], "--out", out, "--force"))
    assert f"({out / name} is a directory)" in line and f"--out = '{out}'" in line, line
    assert core_calls == []
    assert [p.name for p in out.iterdir()] == [name] and [p.name for p in (out / name).iterdir()] == ["keep.txt"]


@pytest.mark.parametrize("damage", ["garbage", "empty", "truncated", "no run id"])
def test_a_corrupt_store_is_named_so_and_force_discards_it(
    damage: str, tiny: dict[str, Any], write_toml, tmp_path: Path, core_calls: list[str]
) -> None:
    out = tmp_path / "out"
    points = _points(tiny, 40)  # enough for a store of several pages
    flitcast.sweep(points, store=out)
    store = out / STORE_FILE
    if damage == "garbage":
        store.write_bytes(b"not a database at all" * 100)
    elif damage == "empty":
        store.write_bytes(b"")
    elif damage == "truncated":
        with open(store, "r+b") as fh:
            fh.truncate(store.stat().st_size // 3)
    else:
        with sqlite3.connect(store) as db:
            db.execute("DELETE FROM meta")
    core_calls.clear()
    for seeds in ("1:40:1", "1:3:1"):  # its own run, or another
        line = _one_error_line(invoke("sweep", write_toml(tiny), "--vary", f"run.seed={seeds}", "--out", out))
        assert line.startswith(f"error: --out = '{out}' holds a corrupt store: {store} cannot be read (")
        assert line.endswith("; --force discards it and recomputes every point")
        assert "another run" not in line
    with pytest.raises(errors.CorruptStore) as info:
        flitcast.sweep(points, store=out)
    assert info.value.key == "store" and str(info.value).endswith("; force=True discards it and recomputes every point")
    assert core_calls == []
    assert len(flitcast.sweep(points, store=out, force=True)) == 40
    assert len(core_calls) == 40 and len(_rows(out)) == 40


def test_a_tampered_record_is_a_corrupt_store(tiny: dict[str, Any], write_toml, tmp_path: Path, core_calls: list[str]) -> None:
    points = _points(tiny, 4)
    out = tmp_path / "out"
    flitcast.sweep(points, store=out)
    with sqlite3.connect(out / STORE_FILE) as db:
        db.execute("UPDATE points SET outcome = 'tampered' WHERE point_index = 2")
    core_calls.clear()
    with pytest.raises(errors.CorruptStore) as info:
        flitcast.sweep(points, store=out)
    assert info.value.key == "store" and info.value.path == str(out / STORE_FILE)
    assert str(info.value) == (
        f"store = '{out}' holds a corrupt store: {out / STORE_FILE} cannot be read (the record of point 2 is not an "
        "outcome flitcast recorded); force=True discards it and recomputes every point"
    )
    assert "unreadable outcome" not in str(info.value) and core_calls == []
    # the command line names its own options
    scenario = write_toml(tiny)
    result = invoke("sweep", scenario, "--vary", "run.seed=1:4:1", "--out", out)
    line = _one_error_line(result)
    assert line.startswith(f"error: --out = '{out}' holds a corrupt store") and "--force discards it" in line
    assert core_calls == []
    assert len(flitcast.sweep(points, store=out, force=True)) == 4


def test_bad_input_found_late_leaves_no_store_behind(
    tiny: dict[str, Any], write_toml, tmp_path: Path, core_calls: list[str]
) -> None:
    # a memory budget no point fits is found after the store was made: the store goes again, with the
    # directories made for it (else the directory held "the store of another run")
    tiny["run"]["memory_limit_mb"] = 1
    out = tmp_path / "new" / "out"
    line = _one_error_line(invoke("sweep", write_toml(tiny), "--vary", "workload.load=0.1,0.2", "--out", out))
    assert line.startswith("error: run.memory_limit_mb = 1 is not allowed")
    with pytest.raises(errors.ConfigError):
        flitcast.sweep(_points(tiny, 2), store=out)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["scenario.toml"] and core_calls == []
    # an existing directory stays, and so does a store that was there before
    (tmp_path / "kept").mkdir()
    with pytest.raises(errors.ConfigError):
        flitcast.sweep(_points(tiny, 2), store=tmp_path / "kept")
    assert list((tmp_path / "kept").iterdir()) == []


# --- arguments -------------------------------------------------------------------------------------------


def test_threads_are_bounded(tiny: dict[str, Any], write_toml) -> None:
    limit = 8 * (os.cpu_count() or 1)
    began = time.perf_counter()
    with pytest.raises(errors.ConfigError) as info:
        flitcast.sweep([tiny], threads=2**63)
    assert info.value.key == "threads" and info.value.value == str(2**63)
    assert f"from 0 (one thread per core) to {limit}" in info.value.allowed
    for bad in (-1, limit + 1, 1.5, True):
        with pytest.raises(errors.ConfigError):
            flitcast.sweep([tiny], threads=bad)
    result = invoke("sweep", write_toml(tiny), "--vary", "workload.load=0.1", "--threads", "1000000")
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: --threads = 1000000 is not allowed; allowed: an integer from 0 (one thread per core) to {limit}")
    assert time.perf_counter() - began < 2.0
    assert len(flitcast.sweep([tiny], threads=limit)) == 1


@pytest.mark.parametrize(
    ("kwargs", "key", "expected"),
    [
        ({"scenarios": "file.toml"}, "scenarios", "an iterable of scenarios"),
        ({"scenarios": Path("file.toml")}, "scenarios", "an iterable of scenarios"),
        ({"scenarios": {"network": {"k": 4}}}, "scenarios", "an iterable of scenarios"),
        ({"scenarios": 5}, "scenarios", "an iterable of scenarios"),
        ({"executor": object()}, "executor", "a concurrent.futures.Executor"),
        ({"client": object()}, "client", "a distributed.Client"),
    ],
)
def test_sweep_says_what_it_expected(kwargs: dict[str, Any], key: str, expected: str, tiny: dict[str, Any]) -> None:
    arguments = {"scenarios": [tiny], **kwargs}
    with pytest.raises(errors.ConfigError) as info:
        flitcast.sweep(**arguments)
    assert info.value.key == key and expected in info.value.allowed


def test_sweep_draws_a_bar_when_asked(capsys: pytest.CaptureFixture[str]) -> None:
    import flitcast

    base = flitcast.Scenario(network={"topology": "mesh", "k": 4}, run={"warmup_cycles": 200, "measure_cycles": 500})
    points = [base.with_overrides({"workload.load": x}) for x in (0.1, 0.2)]
    table = flitcast.sweep(points, progress=True)
    assert len(table) == 2 and (table["error"] == "").all()
    assert "2/2" in capsys.readouterr().out  # the bar, drawn to its end
    again = flitcast.sweep(points, progress=False)
    assert again.drop(columns="wall_seconds").equals(table.drop(columns="wall_seconds"))
