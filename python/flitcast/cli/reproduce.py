"""``flitcast reproduce``: one experiment (a study's figure), its claims beside ours."""

from __future__ import annotations

from typing import Annotated

import typer

from flitcast.cli.app import EXIT_CODES_HELP, app, console, guard
from flitcast.cli.feedback import report_failures, with_progress
from flitcast.cli.options import (
    ForceOption,
    SchedulerOption,
    ThreadsOption,
    check_out,
    check_where,
    dask_client,
    out_dir,
)

#: the files a reproduction writes whatever its experiment (its panels are named by the experiment)
REPRODUCE_FILES = ("results.csv", "claims.csv")

@app.command("reproduce", epilog=EXIT_CODES_HELP)
@guard
def reproduce_command(
    experiment: Annotated[
        str | None, typer.Argument(metavar="[ID]", help="Experiment id (`flitcast list experiments`); or --all.")
    ] = None,
    every: Annotated[
        bool,
        typer.Option(
            "--all",
            help="Run every experiment (or those of --study) into DIR/<experiment id>, resumable, under one "
            "progress bar, then write the report: DIR/index.html (opens from disk) and DIR/summary.md.",
        ),
    ] = False,
    study_ids: Annotated[
        list[str] | None,
        typer.Option("--study", metavar="ID", help="With --all: only the experiments of this study (000 … 004) or of the paper behind our own (kim2008 …; `flitcast list experiments`; repeatable)."),
    ] = None,
    quick: Annotated[
        bool,
        typer.Option(
            "--quick",
            help="Shorter measured windows; judges only the claims its measured resolution can decide (the "
            "others: holds empty, 'not judged in quick mode').",
        ),
    ] = False,
    out: Annotated[
        str | None,
        typer.Option(
            "--out",
            metavar="DIR",
            help="Record every point in DIR/points.sqlite as it finishes (the same command resumes), then write "
            "results.csv, one PNG per panel and claims.csv into DIR.",
        ),
    ] = None,
    threads: ThreadsOption = 0,
    scheduler: SchedulerOption = None,
    force: ForceOption = False,
    reading: Annotated[
        str | None,
        typer.Option(
            "--reading",
            metavar="NAME",
            help="Run under another reading of what the study leaves open (`flitcast list experiments` names "
            "each experiment's; docs/experiments.md, 'Readings'). Default: the experiment's own reading.",
        ),
    ] = None,
    all_loads: Annotated[
        bool,
        typer.Option(
            "--all-loads",
            help="Run every load of a peak-throughput figure's grid, and no finer; by default only the loads "
            "its peaks need are run, walking each curve down from the highest load, then bisecting between "
            "its highest sustained load and the next saturated one.",
        ),
    ] = False,
) -> None:
    """Reproduce a figure of a study and print the study's claims beside ours (or, with --all, every figure
    of every study, and the report)."""
    import pandas as pd
    from rich.table import Table

    from flitcast.errors import ConfigError
    from flitcast.experiments import get, run_experiment
    from flitcast.experiments.experiment import claims_summary

    check_where(threads, scheduler)
    if every:
        from flitcast.cli.reproduce_all import reproduce_all

        if experiment is not None:
            raise ConfigError("ID", experiment, "no experiment id with --all (--study ID chooses studies)")
        if reading is not None:
            raise ConfigError("--reading", reading, "none with --all (each experiment runs its default reading; `flitcast readings ID` runs the others)")
        if all_loads:
            raise ConfigError("--all-loads", all_loads, "off with --all (each peak figure runs the loads its peaks need)")
        reproduce_all(study_ids or [], out, quick, threads, scheduler, force)
        return
    if experiment is None:
        raise ConfigError("ID", "(none)", "an experiment id (`flitcast list experiments`), or --all")
    if study_ids:
        raise ConfigError("--study", ",".join(study_ids), "only with --all")
    exp = get(experiment).read_as(reading, option="--reading")
    points = exp.run_points(quick)
    run = check_out(out, force, [p.scenario for p in points], REPRODUCE_FILES)  # before a Dask cluster starts
    with dask_client(scheduler) as client, out_dir(out, force, run, REPRODUCE_FILES):
        results, claims, wall = with_progress(
            len(points),
            lambda progress: run_experiment(
                exp,
                quick=quick,
                out=out,
                threads=threads,
                progress=progress,
                client=client,
                all_loads=all_loads,
                points=points,
            ),
            exp.id + (f", reading {exp.reading}" if exp.reading else ""),
        )
    from flitcast.studies import study

    read = f", reading {exp.reading}" if exp.reading else ""
    whose = f"our experiment, judged against {exp.study}" if study(exp.study).ours else f"of study {exp.study}"
    table = Table(title=f"{exp.id}: {exp.figure} {whose}{read}" + (" (quick)" if quick else ""))
    for column in ("claim", "ours", "status", "margin ± resolution"):
        table.add_column(column)
    for _, row in claims.iterrows():
        margin = "" if pd.isna(row["margin"]) else f"{row['margin']:+.3g}" + ("" if pd.isna(row["resolution"]) else f" ± {row['resolution']:.3g}")
        table.add_row(row["claim"], row["ours"], row["status"], margin)
    console().print(table)
    typer.echo(f"{len(results)} points in {wall:.1f} s; {claims_summary(claims)}")
    if out is not None:
        typer.echo(f"wrote results.csv, claims.csv and the figure panels to {out}")
    report_failures(results, [*(points[0].labels if points else []), "workload.load"], out)
