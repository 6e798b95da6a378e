"""Writing a run directory, all or nothing.

Every file is first written into a temporary sibling of the target directory; only when all of them
succeeded are they moved into place (the directory itself is created only then). If the directory
already exists, same-named files in it are replaced and other files are left alone.

A run directory holds:

- ``results.csv`` and ``results.parquet`` — one row per point (docs/results.md lists the columns);
- ``scenario.toml`` — the fully resolved scenario, seed included; for a sweep also a ``[sweep]`` table
  with the varied keys and their values, so ``flitcast sweep DIR/scenario.toml`` re-runs it exactly;
- ``latency_vs_load.png`` — for sweeps.
"""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flitcast.errors import ConfigError

if TYPE_CHECKING:
    import pandas as pd

    from flitcast.config import Scenario
    from flitcast.results import Result

__all__ = ["write_all_or_nothing", "write_result_dir", "write_run_dir"]


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
            from flitcast.plot import plot_latency_vs_load

            plot_latency_vs_load(frame, list(vary), staging / "latency_vs_load.png")

    return write_all_or_nothing(out_dir, write)


def write_result_dir(out_dir: str | os.PathLike[str], result: Result) -> list[Path]:
    """A single run's directory: results.csv and results.parquet (its one row, written without pandas,
    same columns and formatting as :func:`write_run_dir`) and scenario.toml. Returns the paths written."""
    from flitcast.results import ordered_columns
    from flitcast.row_files import write_csv, write_parquet

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
