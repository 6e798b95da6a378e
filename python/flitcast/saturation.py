"""Past saturation: the one rule every table, plot and claim reads (docs/results.md, "Past saturation").

The core marks a run ``saturated`` from what the run alone shows: an unfinished drain, source queues
that grew over the window, a latency that did not converge, a run stopped early. A run can pass all
four and still be far past where a latency curve ends: a queue that grew during the warm-up and then
held, long, in a finite window. So a point is *past saturation* if the core marks it ``saturated`` or
one of its latencies is above :data:`LATENCY_FACTOR` times the same latency at its curve's lowest load
(BookSim's latency-mode runs stop on a latency threshold the same way).

A curve is the points that differ in the load alone. Its lowest load stands for zero load: the studies
start their curves at light load, where the latency is within a few per cent of the zero-load value.
Where a curve has a single load, is a closed workload (no load), or does not start at light load (a
peak-throughput figure that walks its curve down from the top load: ``curve=None``), only the core's flag
applies.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd

#: A queue of fixed service time (M/D/1) reaches 10× its zero-load latency at 95% utilisation, within
#: half a load step (0.1) of where its latency becomes infinite; 3× it reaches at 80%, a stable load.
LATENCY_FACTOR = 10.0
#: the latencies the rule watches: every operation's, and the multicasts' alone (with background
#: unicasts, the multicasts can saturate while the mean of all stays low)
LATENCIES = ("latency_mean", "latency_multicast_mean")
LOAD = "workload.load"


def past_saturation(table: pd.DataFrame, curve: Sequence[str] | None) -> pd.Series:
    """Per row of ``table``: is the point past saturation? ``curve`` names the columns that, with the
    load, identify a point (the other varied keys or an experiment's labels; the load column is ignored
    if named); None where the curves have no light-load point to compare with (the core's flag alone)."""
    import pandas as pd

    past = table["saturated"].fillna(False).astype(bool)  # a failed point (no result) is not judged here
    if curve is None or LOAD not in table.columns or not len(table):
        return past.rename("past_saturation")
    keys = [c for c in curve if c != LOAD and c in table.columns]
    loads = pd.to_numeric(table[LOAD], errors="coerce")
    for column in (c for c in LATENCIES if c in table.columns):
        latency = pd.to_numeric(table[column], errors="coerce")
        base = _at_lowest_load(table, keys, loads, latency)
        past = past | (latency > LATENCY_FACTOR * base).fillna(False)
    return past.rename("past_saturation")


def with_past_saturation(table: pd.DataFrame, curve: Sequence[str] | None) -> pd.DataFrame:
    """``table`` with its ``past_saturation`` column (after ``saturated`` where the table has it)."""
    past = past_saturation(table, curve)
    out = table.drop(columns=["past_saturation"], errors="ignore")
    at = list(out.columns).index("saturation_reason") + 1 if "saturation_reason" in out.columns else len(out.columns)
    out.insert(at, "past_saturation", past)
    return out


def _at_lowest_load(table: pd.DataFrame, keys: list[str], loads: pd.Series, latency: pd.Series) -> pd.Series:
    """Per row: ``latency`` at the lowest load of the row's curve (NaN where that load has none)."""
    import pandas as pd

    frame = pd.DataFrame({"load": loads, "latency": latency}, index=table.index)
    if keys:  # list-valued keys are not hashable: group on their text
        frame["curve"] = table[keys].astype(str).agg("\x1f".join, axis=1)
    else:
        frame["curve"] = ""
    ordered = frame.dropna(subset=["load"]).sort_values("load", kind="stable")
    first = ordered.groupby("curve", sort=False).head(1).set_index("curve")["latency"]
    several = ordered.groupby("curve")["load"].nunique() > 1  # one load: no reference
    return frame["curve"].map(first.where(several.reindex(first.index)))
