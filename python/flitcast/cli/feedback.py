"""How long-running commands keep the user informed: progress bars on a terminal, the points that failed,
and imports done in the background while the core simulates."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from flitcast.cli.app import EXIT_POINTS_FAILED, IMPORTER, console

if TYPE_CHECKING:
    import pandas as pd

def import_in_background(*modules: str) -> None:
    """Import what the command needs after the simulation on another thread while the core simulates:
    the core releases the GIL, so on a second CPU the imports (rich's console and table: about 20 ms;
    pyarrow with numpy for a results.parquet: about 0.15-0.2 s) are done by the time the results are
    printed and written instead of adding to the run. On a machine whose other CPU is busy they are not
    free: the importing thread then takes time from the simulation itself (docs/engine.md, "A single run,
    end to end")."""
    import importlib
    import threading

    def load() -> None:
        for name in modules:
            try:
                importlib.import_module(name)
            except Exception:
                continue

    threading.Thread(target=load, name=IMPORTER, daemon=True).start()


def with_cycle_progress(window_end: int, work: Callable[[Callable[[int, int], None] | None], Any]) -> Any:
    """Run ``work(progress)`` under a progress bar of simulated cycles on stderr, with the time left, gone
    when done; where stderr is not a terminal, a plain line at a steady interval (rich not even imported)."""
    if not sys.stderr.isatty():
        from flitcast.cli.plain_progress import PlainProgress

        with PlainProgress(window_end, "cycles of the window", "simulating") as plain:
            return work(lambda cycle, end: plain.update(min(cycle, end), end))
    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

    with Progress(
        TextColumn("simulating"),
        BarColumn(),
        TextColumn("cycle {task.completed:,.0f} of {task.total:,.0f}"),
        TimeRemainingColumn(),
        console=console(stderr=True),
        transient=True,
    ) as bar:
        task = bar.add_task("cycles", total=max(window_end, 1))

        def progress(cycle: int, window_end: int) -> None:
            # the drain after the window may run past its end: hold the bar full there
            bar.update(task, completed=min(cycle, window_end), total=max(window_end, 1))

        return work(progress)


#: failed points listed on stderr (the rest are counted)
FAILURES_SHOWN = 10


def report_failures(frame: pd.DataFrame, columns: list[str], out: str | None) -> None:
    """List the points that failed, and why, on stderr; exit 1 if there are any."""
    failed = frame[frame["error"] != ""]
    if failed.empty:
        return
    where = f"their rows in {Path(out) / 'results.csv'} have the error" if out is not None else "listed below"
    lines = [f"failed: {len(failed)} of {len(frame)} points ({where}):"]
    for index, row in failed.head(FAILURES_SHOWN).iterrows():
        described = ", ".join(f"{c}={row[c]}" for c in columns)
        lines.append(f"  point {index} ({described}): {row['error']}")
    if len(failed) > FAILURES_SHOWN:
        lines.append(f"  ... and {len(failed) - FAILURES_SHOWN} more")
    typer.echo("\n".join(lines), err=True)
    raise typer.Exit(EXIT_POINTS_FAILED)


#: ``progress(done, total, what=None)``: ``done`` of ``total`` points (the total may grow: a peak figure's
#: refinement adds points), ``what`` running now (an experiment of several)
PointProgress = Callable[..., None]


def with_progress(total: int, work: Callable[[PointProgress], Any], what: str) -> Any:
    """Run ``work(progress)`` under a progress bar on stderr with the time left, gone when done; where
    stderr is not a terminal, a plain line at a steady interval saying ``what`` runs."""
    err = console(stderr=True)
    if not err.is_terminal:
        from flitcast.cli.plain_progress import PlainProgress

        with PlainProgress(total, "points", what) as plain:
            return work(plain.update)
    from flitcast.sweeps.progress_bar import progress_bar

    # (stderr keeps only what matters: an error line, if any)
    with progress_bar(total, what, console=err, transient=True) as bar:
        return work(bar)
