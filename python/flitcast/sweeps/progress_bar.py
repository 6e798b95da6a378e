"""The progress bar of points a sweep draws: ``flitcast.sweep(..., progress=True)``, and the command line's
on a terminal. Points done of the total, the time elapsed and left, live on a terminal and in a notebook
(rich renders either)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any


@contextmanager
def progress_bar(total: int, what: str = "simulating", console: Any = None, transient: bool = False) -> Iterator[Callable[..., None]]:
    """A bar of ``total`` points, labelled ``what``, while the block runs (on ``console``; ``transient``: gone
    when done); yields ``progress(done, total, running=None)`` to call, ``running`` relabelling it. The
    total may grow (a peak figure's refinement adds points)."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), TimeRemainingColumn())
    with Progress(*columns, console=console, transient=transient) as bar:
        task = bar.add_task(what, total=total)

        def progress(done: int, now: int, running: str | None = None) -> None:
            bar.update(task, completed=done, total=max(total, now), description=running or what)

        yield progress
