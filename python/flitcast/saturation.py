"""Saturation: the one rule every table, plot and claim reads (docs/results.md, "Saturated";
docs/experiments.md, "Verdicts").

A point is saturated when the core marks it so from what the run shows: the load offered was not accepted
and the backlog at the sources grew over the window, the drain did not finish, the latency estimate did
not converge, or the run was stopped early as clearly saturated. This is the studies' own definition —
study 000 §7.1: latency "is infinite in a stable but saturated system"; study 002 §5.1: "if it [the
average latency] keeps increasing then it means that the network is saturated" — and no latency
multiple stands in for it: a point whose window accepted what was offered is stable, however long its
latency, and its latency is a result. The studies plot no latency past saturation; neither do we.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["saturated"]


def saturated(table: pd.DataFrame) -> pd.Series:
    """Per row of ``table``: did the core mark the point saturated? (A failed point, with no result, is
    not saturated: it is no point of any curve.)"""
    return table["saturated"].astype("boolean").fillna(False).astype(bool).rename("saturated")
