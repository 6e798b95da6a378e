"""``flitcast readings``: one experiment under each reading of what its study leaves open, and which of
its claims hold under which (docs/experiments.md, "Readings")."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from flitcast.cli.app import EXIT_CODES_HELP, app, console, guard
from flitcast.cli.feedback import with_progress
from flitcast.cli.options import ExperimentArgument, ForceOption, ThreadsOption, check_where

if TYPE_CHECKING:
    import pandas as pd

    from flitcast.experiments import Experiment

READINGS_FILE = "readings.csv"


@app.command("readings", epilog=EXIT_CODES_HELP)
@guard
def readings_command(
    experiment: ExperimentArgument,
    out: Annotated[
        str,
        typer.Option(
            "--out",
            metavar="DIR",
            help="Run each reading into DIR/<reading> (as flitcast reproduce --out: resumable), then write "
            "DIR/readings.csv: one row per claim, its status under each reading. A point a reading leaves "
            "unchanged is taken from DIR/default, not simulated again.",
        ),
    ],
    quick: Annotated[bool, typer.Option("--quick", help="Quick runs (as flitcast reproduce --quick).")] = False,
    threads: ThreadsOption = 0,
    force: ForceOption = False,
) -> None:
    """Run an experiment under its default reading and each other one, and tabulate its claims."""
    from flitcast.cli.readings_table import readings_shown
    from flitcast.experiments import get
    from flitcast.experiments.experiment import readings_table
    from flitcast.sweeps.outdir import write_all_or_nothing

    check_where(threads, None)
    exp = get(experiment)
    variants = [exp, *(exp.read_as(r.name) for r in exp.readings)]
    claims = {}
    for variant in variants:
        name = variant.reading or "default"
        # (a point a reading leaves as it is was simulated under the default reading: taken from there)
        reuse = [] if variant is exp else [Path(out) / "default"]
        claims[name] = _claims(variant, Path(out) / name, reuse, quick, threads, force)
    table = readings_table(claims)
    write_all_or_nothing(out, lambda staging: table.to_csv(staging / READINGS_FILE, index=False))
    console().print(readings_shown(table, f"{exp.id}: its claims under each reading" + (" (quick)" if quick else "")))
    typer.echo(f"wrote {READINGS_FILE} and one directory per reading to {out}")


def _claims(variant: Experiment, out: Path, reuse: list[Path], quick: bool, threads: int, force: bool) -> pd.DataFrame:
    """Run one reading into ``out`` under a progress bar; its claims table."""
    from flitcast.experiments import run_experiment

    points = variant.run_points(quick)
    run = with_progress(
        len(points),
        lambda progress: run_experiment(
            variant, quick=quick, out=out, threads=threads, progress=progress, force=force, points=points, reuse=reuse
        ),
        f"{variant.id}, reading {variant.reading or 'default'}",
    )
    return run[1]
