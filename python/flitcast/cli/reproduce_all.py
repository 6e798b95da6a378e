"""``flitcast reproduce --all``: every registered experiment (or those of the named studies), each into
``DIR/<experiment id>`` through its resumable store, under one progress bar, then the report
(``DIR/index.html`` and ``DIR/summary.md``, flitcast/report.py)."""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from flitcast.errors import ConfigError

if TYPE_CHECKING:
    from flitcast.experiments import Experiment
    from flitcast.report import ExperimentRun

#: the files each experiment's directory gets whatever its panels (as `flitcast reproduce ID --out`)
EXPERIMENT_FILES = ("results.csv", "claims.csv")


def selected(study_ids: Sequence[str]) -> list[Experiment]:
    """The experiments of the named sources — studies or the papers behind our own experiments — (all of
    them when none is named), in registry order."""
    from flitcast.experiments import EXPERIMENTS
    from flitcast.studies import SOURCE_IDS

    for s in study_ids:
        if s not in SOURCE_IDS:
            raise ConfigError("--study", s, "one of " + ", ".join(SOURCE_IDS))
    if len(set(study_ids)) != len(study_ids):
        raise ConfigError("--study", ",".join(study_ids), "each study once")
    return [e for e in EXPERIMENTS.values() if not study_ids or e.source in study_ids]


def check_report_dir(out: str, force: bool) -> Path:
    """DIR must be new or empty, or a report's own directory (its entries: experiment directories and the
    report's files, so the same command resumes), or anything with --force."""
    from flitcast.experiments import EXPERIMENTS
    from flitcast.report import REPORT_FILES
    from flitcast.sweeps.outdir import check_out_dir

    path = check_out_dir(out, True, None, "--out", REPORT_FILES)  # (a path, a directory, writable)
    if force or not path.is_dir():
        return path
    own = set(EXPERIMENTS) | set(REPORT_FILES)
    strangers = sorted(p.name for p in path.iterdir() if p.name not in own)
    if strangers:
        raise ConfigError(
            "--out",
            str(path),
            "a new or empty directory, a report's own directory (to resume it: experiment directories, "
            "index.html, summary.md), or any directory with --force",
            reason="it holds " + ", ".join(strangers[:5]) + (" …" if len(strangers) > 5 else ""),
        )
    return path


def run_all(
    experiments: Sequence[Experiment], out: str, quick: bool, threads: int, client: Any, force: bool
) -> list[ExperimentRun]:
    """Run every experiment into out/<id> (resuming each from its store) under one progress bar."""
    from flitcast.cli.feedback import with_progress
    from flitcast.cli.options import out_dir
    from flitcast.experiments import run_experiment
    from flitcast.report import ExperimentRun, differing_parameters
    from flitcast.sweeps.outdir import check_out_dir
    from flitcast.sweeps.run import run_identity
    from flitcast.sweeps.store import PointStore

    root = Path(out)
    plans = []
    for e in experiments:  # every directory checked before anything runs
        points = e.run_points(quick)
        run = run_identity([p.scenario for p in points])
        check_out_dir(root / e.id, force, run, "--out", EXPERIMENT_FILES)
        plans.append((e, points, run))
    total = sum(len(points) for _, points, _ in plans)

    def work(progress: Any) -> list[ExperimentRun]:
        runs = []
        done = 0
        left = total  # points not yet run, as planned
        for e, points, run in plans:
            left -= len(points)
            directory = root / e.id
            if force:  # (its store is discarded: so is the time it took)
                (directory / TIMING_FILE).unlink(missing_ok=True)
            stored = PointStore.count_in(directory) or 0
            start = time.perf_counter()
            with out_dir(str(directory), force, run, EXPERIMENT_FILES):
                results, claims, _ = run_experiment(
                    e,
                    quick=quick,
                    out=directory,
                    threads=threads,
                    # (a peak figure's refinement adds points: the bar's total grows with it)
                    progress=lambda d, t: progress(done + d, done + t + left, e.id),  # noqa: B023 (called in this iteration)
                    client=client,
                    points=points,
                )
            done += len(results)
            wall = _wall_so_far(directory, time.perf_counter() - start, (PointStore.count_in(directory) or 0) > stored)
            panels = tuple(sorted(p.name for p in directory.glob("*.png")))
            runs.append(
                ExperimentRun(
                    experiment=e,
                    directory=e.id,
                    claims=claims,
                    points=len(results),
                    wall_seconds=wall,
                    point_seconds=float(results["wall_seconds"].fillna(0).sum()) if "wall_seconds" in results else 0.0,
                    panels=panels,
                    parameters=differing_parameters([p.scenario for p in points]),
                )
            )
        return runs

    return with_progress(total, work, f"{len(plans)} experiments")


#: each experiment directory's wall time so far, summed over the runs that simulated its points
TIMING_FILE = "timing.json"


def _wall_so_far(directory: Path, seconds: float, simulated: bool) -> float:
    """The experiment's wall time over every run that simulated some of its points: a run that only
    re-read the store (nothing left to simulate) adds nothing, one that resumed adds its own time."""
    import json

    path = directory / TIMING_FILE
    try:
        before = float(json.loads(path.read_text())["wall_seconds"])
    except (OSError, ValueError, KeyError, TypeError):
        before = None
    if before is not None and not simulated:
        return before
    total = (before or 0.0) + seconds
    path.write_text(json.dumps({"wall_seconds": round(total, 3)}) + "\n")
    return total


#: a status as the terminal's table heads its column ("study inconsistent" is too wide for 80 columns)
SHORT = {"study inconsistent": "inconsistent"}


def reproduce_all(
    study_ids: Sequence[str], out: str | None, quick: bool, threads: int, scheduler: str | None, force: bool
) -> None:
    """The whole command: check everything, run, write the report all or nothing, print the front table."""
    from rich.table import Table

    from flitcast.cli.app import console
    from flitcast.cli.options import dask_client
    from flitcast.report import STATUSES, counts, write_report
    from flitcast.sweeps.outdir import write_all_or_nothing

    if out is None:
        raise ConfigError("--out", "(none)", "a directory for the report with --all (e.g. --out runs/report)")
    experiments = selected(study_ids)
    check_report_dir(out, force)
    with dask_client(scheduler) as client:
        runs = run_all(experiments, out, quick, threads, client, force)
    write_all_or_nothing(out, lambda staging: write_report(staging, runs, quick))
    # (the key columns, whole in 80 columns: the experiment names its figure, the report says the rest)
    table = Table(title="flitcast: the studies' claims" + (" (quick)" if quick else ""), caption=f"each figure, its claims and why: {os.path.join(out, 'index.html')}")
    for column in ("experiment", *(SHORT.get(s, s) for s in STATUSES), "wall s"):
        table.add_column(column, no_wrap=True, justify="left" if column == "experiment" else "right")
    for r in runs:
        by = counts(r.claims)
        table.add_row(r.experiment.id, *(str(by.get(s, 0)) for s in STATUSES), f"{r.wall_seconds:,.1f}")
    console().print(table)
    typer.echo(f"wrote {os.path.join(out, 'index.html')} and {os.path.join(out, 'summary.md')} ({len(runs)} experiments)")
