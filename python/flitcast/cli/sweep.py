"""``flitcast sweep``: a grid of scenarios over a base file, on threads or a Dask cluster, resumable."""

from __future__ import annotations

import math
from typing import Annotated

import typer

from flitcast.cli.app import EXIT_CODES_HELP, app, console, guard
from flitcast.cli.feedback import report_failures, with_progress
from flitcast.cli.options import (
    MAX_SWEEP_POINTS,
    ForceOption,
    SchedulerOption,
    SetOption,
    ThreadsOption,
    check_out,
    check_set_not_varied,
    check_where,
    dask_client,
    load_tables,
    out_dir,
    parse_vary,
    sweep_table,
)
from flitcast.errors import ConfigError


@app.command("sweep", epilog=EXIT_CODES_HELP)
@guard
def sweep_command(
    scenario: Annotated[str, typer.Argument(metavar="SCENARIO.toml", help="Base scenario file.")],
    vary: Annotated[
        list[str] | None,
        typer.Option(
            "--vary",
            metavar="KEY=START:STOP:STEP|KEY=A,B,C",
            help="Vary a key over a range (stop included) or a list; several --vary form a cartesian product. "
            "Without --vary, the file's sweep table is used.",
        ),
    ] = None,
    set_: SetOption = None,
    out: Annotated[
        str | None,
        typer.Option(
            "--out",
            metavar="DIR",
            help="Record every point in DIR/points.sqlite as it finishes (the same command resumes), then write "
            "results.csv/.parquet, scenario.toml and the plot into DIR (latency_vs_load.png; completion_vs_KEY.png "
            "for a closed workload).",
        ),
    ] = None,
    threads: ThreadsOption = 0,
    scheduler: SchedulerOption = None,
    force: ForceOption = False,
) -> None:
    """Simulate a grid of scenarios and print offered/accepted load and latency."""
    from flitcast.sweeps import grid, sweep
    from flitcast.sweeps.outdir import RUN_FILES, write_run_dir

    check_where(threads, scheduler)
    # (the points are checked, not the base: a closed collective's file swept over workload.load with
    # --set run.warmup_cycles is a grid of open workloads)
    base, table_of_file = load_tables(scenario, set_)
    if vary:
        varied = parse_vary(vary)
        check_set_not_varied(set_, varied, "--vary")
    elif table_of_file:
        varied = sweep_table(table_of_file)
        check_set_not_varied(set_, varied, f"the [sweep] table of {scenario}")
    else:
        raise ConfigError("--vary", "(none)", "at least one --vary KEY=START:STOP:STEP or KEY=A,B,C")
    total = math.prod(len(v) for v in varied.values())
    if total > MAX_SWEEP_POINTS:
        raise ConfigError("--vary", f"{total} points", f"at most {MAX_SWEEP_POINTS} points in one sweep")
    points = grid(base, varied)
    run = check_out(out, force, points, RUN_FILES)  # before a Dask cluster starts

    # (--out is held, its store's lock taken, until its tables are written too)
    with dask_client(scheduler) as client, out_dir(out, force, run, RUN_FILES):
        frame = with_progress(
            len(points),
            lambda progress: sweep(points, threads=threads, progress=progress, client=client, store=out),
            "sweep",
        )

        from flitcast.cli.sweep_table import sweep_results_table

        shown = console()
        shown.print(sweep_results_table(frame, list(varied), width=shown.width))
        if out is not None:
            written = write_run_dir(out, frame, base, varied)
            typer.echo(f"wrote {', '.join(p.name for p in written)} to {out}")
    report_failures(frame, list(varied), out)
