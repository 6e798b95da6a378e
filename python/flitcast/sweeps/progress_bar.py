"""The progress bar ``flitcast.sweep(..., progress=True)`` draws: points done of the total, the time elapsed
and left, live on a terminal and in a notebook (rich renders either)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager


@contextmanager
def progress_bar(total: int) -> Iterator[Callable[[int, int], None]]:
    """A bar of ``total`` points while the block runs; yields the ``progress(done, total)`` to call."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    with Progress(TextColumn("simulating"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), TimeRemainingColumn()) as bar:
        task = bar.add_task("points", total=total)
        yield lambda done, now: bar.update(task, completed=done, total=max(total, now))
