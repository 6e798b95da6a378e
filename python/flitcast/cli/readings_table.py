"""The table ``flitcast readings`` prints: one row per claim, one narrow column per reading (numbered, the
names below the table), each status a mark, so that seven readings and the claims fit in 80 columns; a
status a reading moves from the default's is in bold. The words are in readings.csv."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from flitcast.experiments.verdicts import DEVIATES, HOLDS, INCONSISTENT, NOT_JUDGED

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["MARKS", "readings_shown"]

#: each status's mark (a claim a reading does not have is "absent")
MARKS = {HOLDS: "✓", DEVIATES: "✗", INCONSISTENT: "≠", NOT_JUDGED: "·", "absent": "–"}


def readings_shown(table: pd.DataFrame, title: str) -> Any:
    """A rich Table of readings.csv's ``table`` (``claim``, then a status column per reading, the default
    first)."""
    from rich.table import Table

    readings = list(table.columns[1:])
    legend = "  ".join(f"{mark} {status}" for status, mark in MARKS.items())
    names = "; ".join(f"R{i} {name}" for i, name in enumerate(readings))
    shown = Table(title=title, caption=f"{names}\n{legend}; bold: moved from R0")
    shown.add_column("#", justify="right", no_wrap=True)
    shown.add_column("claim", ratio=1)
    for i in range(len(readings)):
        shown.add_column(f"R{i}", justify="center", no_wrap=True)
    for n, row in enumerate(table.itertuples(index=False), 1):
        claim, *statuses = (str(v) for v in row)
        marks = [MARKS.get(s, s) if i == 0 or s == statuses[0] else f"[bold]{MARKS.get(s, s)}[/bold]" for i, s in enumerate(statuses)]
        shown.add_row(str(n), claim, *marks)
    return shown
