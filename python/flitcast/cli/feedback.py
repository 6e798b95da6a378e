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
    """Run ``work(progress)`` under a progress bar of simulated cycles on stderr, with the time left;
    only on a terminal (elsewhere rich is not even imported), and gone when done."""
    if not sys.stderr.isatty():
        return work(None)
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


def with_progress(total: int, work: Callable[[Callable[[int, int], None]], Any]) -> Any:
    """Run ``work(progress)`` under a progress bar on stderr (shown only on a terminal, gone when done);
    ``progress(done, total)`` may raise the total (a peak figure's refinement adds points)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    err = console(stderr=True)
    with Progress(
        TextColumn("simulating"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=True,  # stderr keeps only what matters (an error line, if any)
        disable=not err.is_terminal,
    ) as bar:
        task = bar.add_task("points", total=total)
        return work(lambda done, now: bar.update(task, completed=done, total=max(total, now)))
