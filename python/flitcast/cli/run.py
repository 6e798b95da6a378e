"""``flitcast run``: one scenario, its metrics printed (and written with --out)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from flitcast.cli.app import app, console, fmt, guard
from flitcast.cli.feedback import import_in_background, with_cycle_progress
from flitcast.cli.options import OutOption, SetOption, load
from flitcast.errors import ConfigError

if TYPE_CHECKING:
    from flitcast.config import Scenario
    from flitcast.results import Result

@app.command("run")
@guard
def run_command(
    scenario: Annotated[str, typer.Argument(metavar="SCENARIO.toml", help="Scenario file.")],
    set_: SetOption = None,
    out: OutOption = None,
    force: Annotated[
        bool,
        typer.Option(
            "--force",
            help="Write into DIR even if it is not empty: results.csv, results.parquet, scenario.toml and links.csv "
            "in it are replaced; other files are left as they are.",
        ),
    ] = False,
    threads: Annotated[
        int | None,
        typer.Option(
            "--threads",
            metavar="N",
            help="Split this one simulation across N threads (run.threads; same results for every N; pays on "
            "networks of thousands of nodes).",
        ),
    ] = None,
) -> None:
    """Simulate one scenario and print its metrics. --out DIR must be new or empty, unless --force. Ctrl-C
    stops it (exit code 130, nothing written)."""
    from flitcast.api import run

    if threads is not None and any(item.split("=", 1)[0].strip() == "run.threads" for item in set_ or []):
        raise ConfigError("--threads", threads, "--threads or --set run.threads, not both (they name one setting)")
    point, _ = load(scenario, [*(set_ or []), *([f"run.threads={threads}"] if threads is not None else [])])
    if out is not None:
        from flitcast.sweeps.outdir import RESULT_FILES, check_out_dir

        check_out_dir(out, force, None, "--out", RESULT_FILES)
    # what printing the metrics needs, and with --out what writes results.parquet (sweeps/rows.py)
    import_in_background("rich.console", "rich.table", *(("pyarrow.json", "pyarrow.parquet") if out is not None else ()))
    result = with_cycle_progress(point.window_end, lambda progress: run(point, progress=progress))
    _print_metrics(point, result, out)
    if out is not None:
        from flitcast.sweeps.outdir import write_result_dir

        written = write_result_dir(out, result)
        typer.echo(f"wrote {', '.join(p.name for p in written)} to {out}")


def _print_metrics(point: Scenario, result: Result, out: str | None) -> None:
    from rich.table import Table

    from flitcast.results import empty

    workload = point.workload
    what = workload.pattern or workload.program
    load = f" load {workload.load}" if workload.load is not None else ""
    table = Table(title=f"{point.network.topology} ({point.nodes} nodes), {point.switch.model}, {what}{load}")
    table.add_column("metric")
    table.add_column("value", justify="right")
    # (the metrics this run reached; those of other programs, or not reached, are empty: in results.csv)
    # (an empty text too: a run that did not saturate has no saturation reason)
    shown = {name: value for name, value in result.metrics.items() if not (empty(value) or value == "")}
    for name, value in shown.items():
        table.add_row(name, fmt(value))
    console().print(table)
    hidden = len(result.metrics) - len(shown)
    if hidden:
        where = f"{out}/results.csv" if out is not None else "results.csv (--out DIR)"
        typer.echo(f"{hidden} more metrics empty for this scenario (not reached, or of other programs); every one in {where}")

