"""How far a quick run's values are from the full run's: the measurement behind each experiment's
``quick_resolution`` (docs/experiments.md, "Quick mode").

A quick run (short measured window) and a full run of the same figure are compared curve by curve: the
peak throughput of every (nodes, pattern, message size, routing) curve, and — for figures whose claims
read them — the first saturated load of every curve. The resolution of a quantity is the largest
deviation seen over every experiment that has it, times a safety factor: the runs are deterministic, so
the deviations measured are exactly today's; the factor covers a re-drawn random stream (another seed,
an engine change), whose deviation is a fresh sample of the same spread.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from flitcast.experiments.experiment import peak_throughput

if TYPE_CHECKING:
    import pandas as pd

#: resolution = SAFETY × the largest deviation measured: with about 14 curves per quantity, the largest
#: of 14 half-normal deviations is about 2σ, so twice it is about 4σ, which a fresh deviation exceeds
#: with probability below 10^-4
SAFETY = 2.0


def peak_deviations(quick: pd.DataFrame, full: pd.DataFrame, curve: Sequence[str]) -> pd.DataFrame:
    """One row per curve present in both tables: its quick and full peak throughputs and
    ``deviation`` = quick − full."""
    import pandas as pd

    both = pd.concat({"quick": peak_throughput(quick, curve), "full": peak_throughput(full, curve)}, axis=1).dropna()
    return both.assign(deviation=both["quick"] - both["full"]).reset_index()


def first_saturated_deviations(quick: pd.DataFrame, full: pd.DataFrame, curve: Sequence[str]) -> pd.DataFrame:
    """One row per curve: the lowest applied load marked ``saturated`` in each run (NaN if none) and
    ``deviation`` = quick − full (NaN where either never saturates; equal if both never do)."""
    import pandas as pd

    def first(results: pd.DataFrame) -> pd.Series:
        loads = results[results["saturated"].astype(bool)].groupby(list(curve))["workload.load"].min()
        return loads.reindex(results.groupby(list(curve)).size().index)

    both = pd.concat({"quick": first(quick), "full": first(full)}, axis=1)
    deviation = (both["quick"] - both["full"]).where(~(both["quick"].isna() & both["full"].isna()), 0.0)
    return both.assign(deviation=deviation).reset_index()


def resolution(deviations: Sequence[float], safety: float = SAFETY) -> float:
    """The quick-mode resolution from measured deviations: the largest, times ``safety``."""
    return safety * max((abs(d) for d in deviations), default=float("inf"))
