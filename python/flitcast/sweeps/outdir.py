"""Checking an output directory before simulating, and writing a run directory, all or nothing.

:func:`prepare_out_dir` runs before anything is simulated: a path that is a file, cannot be created or
written, or a non-empty directory that is not this run's own (see below) is refused then, not after hours
of simulation.

Every file is first written into a temporary sibling of the target directory; only when all of them
succeeded are they moved into place (the directory itself is created only then). If the directory
already exists, same-named files in it are replaced and other files are left alone.

A run directory holds:

- ``results.csv`` and ``results.parquet`` — one row per point (docs/results.md lists the columns);
- ``scenario.toml`` — the fully resolved scenario, seed included; for a sweep also a ``[sweep]`` table
  with the varied keys and their values, so ``flitcast sweep DIR/scenario.toml`` re-runs it exactly;
- ``latency_vs_load.png`` — for sweeps;
- ``points.sqlite`` — for sweeps and reproductions, the store of finished points (``store.py``),
  written as points finish, so that a re-run resumes.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import uuid
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flitcast.errors import ConfigError
from flitcast.sweeps.store import STORE_FILE, STORE_FORMAT, PointStore

if TYPE_CHECKING:
    import pandas as pd

    from flitcast.config import Scenario
    from flitcast.results import Result

__all__ = ["prepare_out_dir", "write_all_or_nothing", "write_result_dir", "write_run_dir"]

#: what an output directory may be (the error of prepare_out_dir says which rule was broken)
OUT_DIR_RULE = (
    "a new or empty directory, this run's own directory (to resume it), or any directory with --force "
    "(its store is discarded; other files in it are left as they are)"
)


def prepare_out_dir(
    out: str | os.PathLike[str], force: bool, run_id: str | None, option: str = "--out"
) -> Path:
    """Check ``out`` before anything is simulated and return it as a Path.

    ``out`` must be a path (not empty) that is, or can be created as, a directory this process can write.
    It must be absent or empty, unless it is this run's own directory (its store, ``points.sqlite``,
    records the run identity ``run_id``: the run resumes) or ``force`` is set (its store is discarded,
    other files are left as they are). With a ``run_id`` (a sweep, a reproduction) the directory is
    created with its store, since points are recorded into it as they finish (so a second call with the
    same ``run_id`` finds the directory to be the run's own); without one (a single run) nothing is
    created until the final all-or-nothing write. ``option`` names the setting in error messages.
    """
    text = os.fspath(out)
    if not str(text).strip():
        raise ConfigError(option, str(text), "a directory path (not empty)")
    path = Path(text)
    if path.exists() and not path.is_dir():
        raise ConfigError(option, str(path), "a directory (this path is a file)")
    if path.is_dir():
        _check_writable(path, path, option)
        own = run_id is not None and PointStore.run_id_in(path) == run_id
        if not own and any(path.iterdir()):
            if not force:
                old = PointStore.format_in(path)
                if old is not None and old != STORE_FORMAT:
                    reason = (
                        f"it holds a store of format {old}, written by an earlier flitcast whose scenario keys "
                        f"differ (this one writes format {STORE_FORMAT}: docs/config.md, 'Keys that moved')"
                    )
                elif (path / STORE_FILE).exists():
                    reason = "it holds the store of another run: other points, or another flitcast version"
                else:
                    reason = "it is not empty and holds no store of this run"
                raise ConfigError(option, str(path), OUT_DIR_RULE, reason=reason)
        if force and run_id is not None:
            PointStore.discard(path)
        if run_id is not None:
            _create_store(path, run_id, option)
        return path
    parent = _nearest_existing(path.parent)
    if not parent.is_dir():
        raise ConfigError(option, str(path), "a path whose parents are directories", reason=f"{parent} is a file")
    _check_writable(parent, path, option)
    if run_id is not None:
        _create_store(path, run_id, option)
    return path


def _create_store(path: Path, run_id: str, option: str) -> None:
    try:
        path.mkdir(parents=True, exist_ok=True)
        PointStore.open(path, run_id).close()
    except (OSError, sqlite3.Error) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise ConfigError(option, str(path), "a directory flitcast can create and write", reason=reason) from None


def _check_writable(directory: Path, out: Path, option: str) -> None:
    if not os.access(directory, os.W_OK | os.X_OK):
        raise ConfigError(
            option, str(out), "a directory flitcast can create and write", reason=f"{directory} is not writable"
        )


def _nearest_existing(path: Path) -> Path:
    for candidate in (path, *path.parents):
        if candidate.exists():
            return candidate
    return Path.cwd()


def write_run_dir(
    out_dir: str | os.PathLike[str],
    frame: pd.DataFrame,
    scenario: Scenario,
    vary: Mapping[str, Sequence[Any]] | None = None,
) -> list[Path]:
    """Write results.csv/.parquet, scenario.toml (and latency_vs_load.png when ``vary``) into ``out_dir``.

    ``scenario`` is the base scenario; ``vary`` maps the varied dotted keys to their values (a sweep).
    Returns the paths written.
    """

    def write(staging: Path) -> None:
        frame.to_csv(staging / "results.csv", index=False)
        frame.to_parquet(staging / "results.parquet", index=False, engine="pyarrow")
        _write_scenario_toml(staging, scenario, vary)
        if vary:
            from flitcast.plot import plot_sweep

            plot_sweep(frame[frame["error"] == ""], list(vary), staging)

    return write_all_or_nothing(out_dir, write)


def write_result_dir(out_dir: str | os.PathLike[str], result: Result) -> list[Path]:
    """A single run's directory: results.csv and results.parquet (its one row, written without pandas,
    same columns and formatting as :func:`write_run_dir`) and scenario.toml. Returns the paths written."""
    from flitcast.results import ordered_columns
    from flitcast.sweeps.rows import write_csv, write_parquet

    row = result.row()
    row = {name: row[name] for name in ordered_columns(list(row))}

    def write(staging: Path) -> None:
        write_csv(staging / "results.csv", row)
        write_parquet(staging / "results.parquet", row)
        _write_scenario_toml(staging, result.scenario, None)

    return write_all_or_nothing(out_dir, write)


def _write_scenario_toml(staging: Path, scenario: Scenario, vary: Mapping[str, Sequence[Any]] | None) -> None:
    import tomli_w

    document = scenario.to_toml_dict()
    if vary:
        document["sweep"] = {key: list(values) for key, values in vary.items()}
    (staging / "scenario.toml").write_text(tomli_w.dumps(document), encoding="utf-8")


def write_all_or_nothing(out_dir: str | os.PathLike[str], write: Callable[[Path], None]) -> list[Path]:
    """Call ``write(staging)`` to fill a temporary sibling of ``out_dir``, then move its files into
    ``out_dir`` (created only then). On any failure nothing is left behind. Returns the paths written."""
    target = Path(out_dir)
    if target.exists() and not target.is_dir():
        raise ConfigError("output directory", str(target), "a directory (this path is a file)")
    try:
        return _write(target, write)
    except OSError as exc:
        raise ConfigError(
            "output directory",
            str(target),
            "a directory flitcast can create and write",
            message=f"cannot write the run directory {str(target)!r}: {exc.strerror or exc}",
        ) from None


def _write(target: Path, write: Callable[[Path], None]) -> list[Path]:
    anchor = target.parent if target.parent.is_dir() else _nearest_existing(target.parent)
    staging = anchor / f".{target.name or 'run'}.tmp-{uuid.uuid4().hex[:12]}"
    staging.mkdir()
    try:
        write(staging)
        names = sorted(p.name for p in staging.iterdir())
        target.parent.mkdir(parents=True, exist_ok=True)
        if not target.exists():
            staging.rename(target)
        else:
            for name in names:
                os.replace(staging / name, target / name)
            staging.rmdir()
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return [target / name for name in names]
