"""Checking an output directory before simulating, and writing a run directory, all or nothing.

:func:`check_out_dir` runs before anything is simulated (or a Dask cluster started) and creates nothing:
a path that is a file or a dangling symbolic link, cannot be created or written, holds a directory where
a file is to be written, a corrupt store, or is a non-empty directory that is not this run's own (see
below) is refused then, not after hours of simulation; so is a directory whose store another running
sweep holds (its lock, ``points.sqlite.lock``: ``store.py``), with force too. :func:`prepare_out_dir`
checks the same and then, holding that lock, creates a sweep's store; :func:`out_dir_of_run` holds the
lock for the whole run and removes the store again if the run fails before it has recorded a point, so
that bad input leaves nothing behind.

Every file is first written under a temporary name: into a temporary directory inside the target
directory when it exists, else into a temporary sibling that becomes the target directory. Only when all
of them were written are they renamed into place. If the directory already exists, same-named files in
it are replaced and other files are left alone.

A run directory holds:

- ``results.csv`` and ``results.parquet`` — one row per point (docs/results.md lists the columns);
- ``scenario.toml`` — the fully resolved scenario, seed included; for a sweep also a ``[sweep]`` table
  with the varied keys and their values, so ``flitcast sweep DIR/scenario.toml`` re-runs it exactly;
- a plot — for sweeps;
- ``points.sqlite`` — for sweeps and reproductions, the store of finished points (``store.py``),
  written as points finish, so that a re-run resumes; beside it, while a run holds the directory, its
  lock ``points.sqlite.lock`` (removed when the run ends; one a killed run left is ignored).
"""

from __future__ import annotations

import copy
import os
import shutil
import sqlite3
import uuid
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flitcast.errors import ConfigError, CorruptStore, SweepIncomplete, SweepInterrupted
from flitcast.sweeps.store import STORE_FILE, STORE_FORMAT, PointStore
from flitcast.sweeps.store_lock import LOCK_FILE, check_store_free, hold_store

if TYPE_CHECKING:
    import pandas as pd

    from flitcast.config import Scenario
    from flitcast.results import Result

__all__ = [
    "RESULT_FILES",
    "RUN_FILES",
    "check_out_dir",
    "out_dir_of_run",
    "prepare_out_dir",
    "write_all_or_nothing",
    "write_result_dir",
    "write_run_dir",
]

#: the files every run directory gets (a sweep's plot is named after its results)
RUN_FILES = ("results.csv", "results.parquet", "scenario.toml")
#: and a single run's, with every channel's class, flits and utilisation
RESULT_FILES = (*RUN_FILES, "links.csv")


def _rule(option: str, run_id: str | None, files: Sequence[str]) -> str:
    """What an output directory may be (the error of check_out_dir says which rule was broken)."""
    force = "--force" if option.startswith("--") else "force=True"
    if run_id is None:  # no store: nothing to resume
        replaced = ", ".join(files[:-1]) + " and " + files[-1] if len(files) > 1 else "".join(files) or "its files"
        return (
            f"a new or empty directory, or any directory with {force} ({replaced} in it are replaced; other "
            "files are left as they are)"
        )
    return (
        f"a new or empty directory, this run's own directory (to resume it), or any directory with {force} "
        "(its store is discarded; other files in it are left as they are)"
    )


def check_out_dir(
    out: str | os.PathLike[str],
    force: bool,
    run_id: str | None,
    option: str = "--out",
    files: Sequence[str] = (),
) -> Path:
    """Check ``out`` before anything is simulated, creating nothing, and return it as a Path.

    ``out`` must be a path (not empty) that is, or can be created as, a directory this process can write.
    It must be absent or empty, unless it is this run's own directory (its store, ``points.sqlite``,
    records the run identity ``run_id``: the run resumes) or ``force`` is set (a store is then discarded,
    other files are left as they are). None of ``files`` (the names the run will write) nor its store may
    be a directory there, and a store that cannot be read is refused as corrupt (``force`` discards it).
    With a ``run_id``, a directory whose store another running sweep holds is refused (:class:`StoreInUse`),
    with ``force`` too. A lock file a killed run left does not count as content. ``option`` names the
    setting in error messages.
    """
    text = os.fspath(out)
    if not str(text).strip():
        raise ConfigError(option, str(text), "a directory path (not empty)")
    path = Path(text)
    _check_not_dangling(path, path, option)
    if path.exists() and not path.is_dir():
        raise ConfigError(option, str(path), "a directory (this path is a file)")
    if not path.is_dir():
        parent = _nearest_existing(path.parent, path, option)
        if not parent.is_dir():
            raise ConfigError(option, str(path), "a path whose parents are directories", reason=f"{parent} is a file")
        _check_writable(parent, path, option)
        return path
    _check_writable(path, path, option)
    for name in [*files, *([STORE_FILE] if run_id is not None else [])]:
        if (path / name).is_dir():
            raise ConfigError(
                option,
                str(path),
                f"a directory where flitcast can write the file {name} (move that directory away)",
                reason=f"{path / name} is a directory",
            )
    if run_id is not None:
        check_store_free(path, option)
    if force or not any(p.name != LOCK_FILE for p in path.iterdir()):
        return path
    if run_id is None:
        raise ConfigError(option, str(path), _rule(option, run_id, files), reason="it is not empty")
    try:
        meta = PointStore.meta_in(path)
    except CorruptStore as exc:
        # a store half made by a run that took the directory since the check above is not corrupt: in use
        check_store_free(path, option)
        raise exc.named(option) from None
    except sqlite3.Error as exc:  # e.g. locked by a process that takes no store lock (an older flitcast)
        check_store_free(path, option)
        reason = f"{path / STORE_FILE}: {exc}"
        raise ConfigError(option, str(path), _rule(option, run_id, files), reason=reason) from None
    if meta is not None and meta["run_id"] == run_id:
        return path  # this run's own: it resumes
    if meta is not None and meta["format"] != STORE_FORMAT:
        reason = (
            f"it holds a store of format {meta['format']}, written by an earlier flitcast whose scenario keys "
            f"differ (this one writes format {STORE_FORMAT}: docs/config.md, 'Keys that moved')"
        )
    elif meta is not None:
        reason = "it holds the store of another run: other points, or another flitcast version"
    else:
        reason = "it is not empty and holds no store of this run"
    raise ConfigError(option, str(path), _rule(option, run_id, files), reason=reason)


def prepare_out_dir(
    out: str | os.PathLike[str],
    force: bool,
    run_id: str | None,
    option: str = "--out",
    files: Sequence[str] = (),
) -> Path:
    """:func:`check_out_dir`, then, with a ``run_id`` (a sweep, a reproduction), create the directory with
    its store, since points are recorded into it as they finish (so a second call with the same
    ``run_id`` finds the directory to be the run's own; ``force`` discards a store first): checked again
    and made holding the store's lock, which is released on return unless the caller holds it (as
    :func:`out_dir_of_run` does). Without one (a single run) nothing is created until the final
    all-or-nothing write."""
    path = check_out_dir(out, force, run_id, option, files)
    if run_id is not None:
        with _held(path, option):
            # again under the lock: another run may have taken the directory since the check above
            check_out_dir(out, force, run_id, option, files)
            if force:
                PointStore.discard(path)
            _create_store(path, run_id, option)
    return path


@contextmanager
def out_dir_of_run(
    out: str | os.PathLike[str],
    force: bool,
    run_id: str | None,
    option: str = "--out",
    files: Sequence[str] = (),
) -> Iterator[Path]:
    """:func:`prepare_out_dir` for the block that runs the points, holding the store's lock throughout
    (store.py: another process that wants the directory meanwhile is refused). If the block fails before
    a point is recorded (bad input found late, such as a memory budget), the store this call created is
    removed again, with the directories created for it, so the directory is as it was. An interrupted or
    incomplete sweep keeps its store: its message says where its points are kept."""
    path = Path(os.fspath(out))
    if run_id is None:  # no store: nothing to hold
        yield prepare_out_dir(out, force, run_id, option, files)
        return
    created = _first_missing(path)
    had_store = os.path.lexists(path / STORE_FILE)
    check_out_dir(out, force, run_id, option, files)  # before a directory is made to hold the lock in
    undo = False
    try:
        with _held(path, option):
            undo = True  # (until the store is made: a check under the lock may still refuse the directory)
            prepared = prepare_out_dir(out, force, run_id, option, files)
            undo = False
            try:
                yield prepared
            except (SweepInterrupted, SweepIncomplete):
                raise
            except BaseException:
                if not had_store and PointStore.count_in(path) == 0:
                    PointStore.discard(path)
                    undo = True
                raise
    finally:
        if undo:  # the lock (and its file) let go first: the directories made for it are empty again
            _remove_created(path, created)


@contextmanager
def _held(path: Path, option: str) -> Iterator[None]:
    """The directory ``path``, made if need be, with its store's lock held for the block."""
    with ExitStack() as held:
        try:
            path.mkdir(parents=True, exist_ok=True)
            held.enter_context(hold_store(path, option))
        except OSError as exc:
            reason = exc.strerror or str(exc)
            raise ConfigError(option, str(path), "a directory flitcast can create and write", reason=reason) from None
        yield


def _first_missing(path: Path) -> Path | None:
    """The outermost of ``path`` and its parents that does not exist (what a mkdir -p would create)."""
    missing = None
    for candidate in (path, *path.parents):
        if os.path.lexists(candidate):
            break
        missing = candidate
    return missing


def _remove_created(path: Path, created: Path | None) -> None:
    """Remove ``path`` and its parents up to ``created``, those that are empty."""
    if created is None:
        return
    for directory in (path, *path.parents):
        try:
            directory.rmdir()
        except OSError:
            return
        if directory == created:
            return


def _check_not_dangling(candidate: Path, out: Path, option: str) -> None:
    if candidate.is_symlink() and not candidate.exists():
        raise ConfigError(
            option,
            str(out),
            "a directory path whose parts exist or can be created",
            reason=f"{candidate} is a dangling symbolic link: its target {os.readlink(candidate)} does not exist",
        )


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


def _nearest_existing(path: Path, out: Path | None = None, option: str = "--out") -> Path:
    for candidate in (path, *path.parents):
        if out is not None:
            _check_not_dangling(candidate, out, option)
        if candidate.exists():
            return candidate
    return Path.cwd()


def write_run_dir(
    out_dir: str | os.PathLike[str],
    frame: pd.DataFrame,
    scenario: Scenario | Mapping[str, Any],
    vary: Mapping[str, Sequence[Any]] | None = None,
) -> list[Path]:
    """Write results.csv/.parquet, scenario.toml (and, when ``vary``, the sweep's plot: latency_vs_load.png,
    or completion_vs_KEY.png for a closed workload) into ``out_dir``.

    ``scenario`` is the base scenario (its tables where it is one only with the varied keys); ``vary`` maps
    the varied dotted keys to their values (a sweep).
    Returns the paths written.
    """

    from flitcast.sweeps.parquet import write_frame

    def write(staging: Path) -> None:
        frame.to_csv(staging / "results.csv", index=False)
        write_frame(staging / "results.parquet", frame)
        _write_scenario_toml(staging, scenario, vary)
        if vary:
            from flitcast.plot import plot_sweep

            plot_sweep(frame[frame["error"] == ""], list(vary), staging)

    return write_all_or_nothing(out_dir, write)


def write_result_dir(out_dir: str | os.PathLike[str], result: Result) -> list[Path]:
    """A single run's directory: results.csv and results.parquet (its one row, written without pandas,
    same columns and formatting as :func:`write_run_dir`), scenario.toml and links.csv (every channel:
    ``Result.channels``). Returns the paths written."""
    from flitcast.results import ordered_columns
    from flitcast.sweeps.rows import write_csv, write_parquet, write_table

    row = result.row()
    row = {name: row[name] for name in ordered_columns(list(row))}

    def write(staging: Path) -> None:
        write_csv(staging / "results.csv", row)
        write_parquet(staging / "results.parquet", row)
        _write_scenario_toml(staging, result.scenario, None)
        channels = zip(result.channel_names, result.channel_classes, result.channel_flits, result.channel_utilisation, strict=True)
        write_table(staging / "links.csv", ("channel", "class", "flits", "utilisation"), channels)

    return write_all_or_nothing(out_dir, write)


def _write_scenario_toml(
    staging: Path, scenario: Scenario | Mapping[str, Any], vary: Mapping[str, Sequence[Any]] | None
) -> None:
    import tomli_w

    from flitcast.config import Scenario, load_scenario

    if not isinstance(scenario, Scenario):
        try:
            with warnings.catch_warnings():  # (its warnings were given when its points were made)
                warnings.simplefilter("ignore")
                scenario = load_scenario(scenario)
        except ConfigError:
            pass  # a scenario only with the varied keys: written as it was given
    document = scenario.to_toml_dict() if isinstance(scenario, Scenario) else copy.deepcopy(dict(scenario))
    if vary:
        document["sweep"] = {key: list(values) for key, values in vary.items()}
    (staging / "scenario.toml").write_text(tomli_w.dumps(document), encoding="utf-8")


def write_all_or_nothing(out_dir: str | os.PathLike[str], write: Callable[[Path], None]) -> list[Path]:
    """Call ``write(staging)`` to fill a temporary directory, then move its files into ``out_dir``
    (created only then). On any failure nothing is left behind. Returns the paths written."""
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
    # staged inside an existing directory, each file is renamed within one file system, and nothing is
    # written outside the directory; a new directory is staged beside it and renamed as a whole
    existing = target.is_dir()
    anchor = target if existing else _nearest_existing(target.parent)
    staging = anchor / f".{'flitcast' if existing else target.name or 'run'}.tmp-{uuid.uuid4().hex[:12]}"
    staging.mkdir()
    try:
        write(staging)
        names = sorted(p.name for p in staging.iterdir())
        if not existing:
            target.parent.mkdir(parents=True, exist_ok=True)
            staging.rename(target)
            return [target / name for name in names]
        # every name is checked before the first is moved: all of them are replaced, or none
        for name in names:
            if (target / name).is_dir():
                raise ConfigError(
                    "output directory",
                    str(target),
                    f"a directory where flitcast can write the files {', '.join(names)}",
                    reason=f"{target / name} is a directory",
                )
        for name in names:
            os.replace(staging / name, target / name)
        staging.rmdir()
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return [target / name for name in names]
