"""The one saturation rule every plot and claim reads (docs/results.md, "Saturated"): the core's flag, and
no latency multiple beside it."""

from __future__ import annotations

import pandas as pd

from flitcast.saturation import saturated


def test_the_cores_flag_and_nothing_else() -> None:
    t = pd.DataFrame({"workload.load": [0.1, 0.5, 0.9], "latency_mean": [10.0, 1_000.0, 50.0], "saturated": [False, False, True]})
    # 100 times the light-load latency and still accepted: a result, not saturation
    assert saturated(t).tolist() == [False, False, True]


def test_a_failed_point_is_not_saturated() -> None:
    t = pd.DataFrame({"saturated": [True, None, False]}, dtype=object)
    assert saturated(t).tolist() == [True, False, False]
