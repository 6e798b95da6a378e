"""How far a quick run's values are from the full run's: the measurement behind each experiment's
``quick_resolution`` (docs/experiments.md, "Quick mode").

A quick run (shorter windows, fewer points) and a full run of the same experiment are compared quantity
by quantity, each as the claims read it (a :class:`~flitcast.experiments.verdicts.Measured` interval: a
peak's bracket, a saturation load's): the deviation of one quantity is how far the full run's interval
reaches beyond the quick run's. Widened by it, the quick interval contains the full one, and a verdict
decided on it is the full run's (a wider interval never reverses a verdict). The spread of a kind of
quantity is the largest deviation seen over every quantity of that kind, times a safety factor: the runs
are deterministic, so the deviations measured are exactly today's; the factor covers a re-drawn random
stream (another seed, an engine change), whose deviation is a fresh sample of the same spread.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from typing import TypeVar

from flitcast.experiments.verdicts import Measured

#: resolution = SAFETY × the largest deviation measured: with about 14 curves per quantity, the largest
#: of 14 half-normal deviations is about 2σ, so twice it is about 4σ, which a fresh deviation exceeds
#: with probability below 10^-4
SAFETY = 2.0

K = TypeVar("K", bound=Hashable)


def deviations(quick: Mapping[K, Measured], full: Mapping[K, Measured]) -> dict[K, float]:
    """Per quantity both runs measured (NaN in neither): how far the full run's interval reaches beyond
    the quick run's, 0 where it lies within it — the widening the quick interval needs to contain the
    full one."""
    out: dict[K, float] = {}
    for key, q in quick.items():
        f = full.get(key)
        if f is None or q.unknown or f.unknown:
            continue
        out[key] = max(0.0, q.low - f.low, f.high - q.high)
    return out


def relative_deviations(quick: Mapping[K, Measured], full: Mapping[K, Measured]) -> dict[K, float]:
    """As :func:`deviations`, as a fraction of the quick value: the relative widening (a latency's spread
    grows with the latency) the quick interval needs to contain the full one."""
    out: dict[K, float] = {}
    for key, deviation in deviations(quick, full).items():
        value = abs(quick[key].value)
        if value and math.isfinite(value):
            out[key] = deviation / value
    return out


def resolution(deviations: Sequence[float], safety: float = SAFETY) -> float:
    """The quick-mode resolution from measured deviations: the largest, times ``safety``."""
    return safety * max((abs(d) for d in deviations), default=float("inf"))
