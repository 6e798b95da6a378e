"""The table ``flitcast sweep`` prints: one row per point, the varied keys first.

An open workload shows the load applied — ``offered_load``, or ``effective_load`` where a multicast makes
them differ (the load a sweep plot puts on its x-axis, ``flitcast.plot.load_column``) — the accepted load
and the latency (mean, 95% half-width, p99) with ``saturated``. A closed workload (program ``batch`` or
``torus_multicast``) has no load: it shows ``completion_cycles``, ``latency_mean`` and ``latency_max``
and whether its operations completed (a saturated point did not). A collective, one operation whose
latency is its completion, shows instead its completion beside its α-β-γ estimate (``estimate_cycles``)
and their ratio, what contention cost.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from flitcast.cli.app import fmt

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["sweep_results_table"]


#: the columns a narrow terminal goes without first (each is in results.csv): the tail, then the spread
DROPPED_FIRST = ("p99", "ci95")


def sweep_results_table(frame: pd.DataFrame, varied: Sequence[str], width: int | None = None) -> Any:
    """A rich Table of the sweep's results (module doc). The varied keys are never cut: where the table
    would be wider than ``width`` (the terminal's), it goes without :data:`DROPPED_FIRST`, one at a time,
    and its caption says so."""
    from rich.table import Table

    from flitcast.plot import closed_workload, contention, has_estimate, load_column

    closed = closed_workload(frame)
    if closed and has_estimate(frame):
        title = f"sweep of {len(frame)} points of a collective (times in cycles; the estimate without contention)"
        frame = frame.assign(contention=contention(frame))
        columns = {"completion": "completion_cycles", "estimate": "estimate_cycles", "÷ estimate": "contention"}
    elif closed:
        title = f"sweep of {len(frame)} points of a closed workload (no load; times in cycles)"
        columns = {"completion": "completion_cycles", "latency": "latency_mean", "max": "latency_max"}
    else:
        title = f"sweep of {len(frame)} points (loads in flits/node/cycle, latencies in cycles)"
        load = load_column(frame)
        columns = {load.removesuffix("_load"): load, "accepted": "accepted_load", "latency": "latency_mean",
                   "ci95": "latency_ci95", "p99": "latency_p99"}
    rows = []
    for _, row in frame.iterrows():
        if row["error"]:
            state = "failed"
        else:
            state = fmt(not bool(row["saturated"]) if closed else bool(row["saturated"]))
        shown = [f"{row[c]:.3f}" if c == "contention" and row[c] == row[c] else fmt(row.get(c)) for c in columns.values()]
        rows.append([*(fmt(row[k]) for k in varied), *shown, state])
    headers = [*(key.split(".", 1)[-1] for key in varied), *columns, "complete" if closed else "saturated"]
    dropped = []
    for name in DROPPED_FIRST:
        if width is None or sum(w + 3 for w in _widths(headers, rows)) + 1 <= width or name not in headers:
            continue
        i = headers.index(name)
        headers.pop(i)
        rows = [r[:i] + r[i + 1:] for r in rows]
        dropped.append(name)
    table = Table(title=title, caption=f"{' and '.join(dropped)}: in results.csv (--out DIR), or on a wider terminal" if dropped else None)
    for i, (name, whole) in enumerate(zip(headers, _widths(headers, rows), strict=True)):
        if i < len(varied):
            table.add_column(name, no_wrap=True, min_width=whole)
        else:
            table.add_column(name, justify="right")
    for r in rows:
        table.add_row(*r)
    return table


def _widths(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> list[int]:
    """Each column's width with every cell whole: its widest cell or header. (Rich draws a table of these
    at their sum plus 3 a column — a space either side and a rule — and one rule more.)"""
    return [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]
