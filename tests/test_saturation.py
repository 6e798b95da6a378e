"""The one saturation rule every plot and claim reads (docs/results.md, "Past saturation")."""

from __future__ import annotations

import math

import pandas as pd

from flitcast.saturation import LATENCY_FACTOR, past_saturation, with_past_saturation


def table(rows: list[tuple[str, float, float, bool]], multicast: list[float] | None = None) -> pd.DataFrame:
    t = pd.DataFrame(rows, columns=["scheme", "workload.load", "latency_mean", "saturated"])
    if multicast is not None:
        t["latency_multicast_mean"] = multicast
    return t


def test_the_core_flag_or_ten_times_the_lowest_load_latency_of_the_same_curve() -> None:
    t = table([("a", 0.1, 10.0, False), ("a", 0.5, 99.0, False), ("a", 0.9, 101.0, False), ("b", 0.05, 5.0, False), ("b", 0.9, 40.0, True)])
    assert past_saturation(t, ["scheme"]).tolist() == [False, False, True, False, True]
    # one curve of both schemes would compare b with a's light load: the curve keys matter
    assert past_saturation(t, []).tolist() == [False, True, True, False, True]


def test_the_lowest_load_is_found_whatever_the_row_order() -> None:
    t = table([("a", 0.9, 101.0, False), ("a", 0.5, 50.0, False), ("a", 0.1, 10.0, False)])
    assert past_saturation(t, ["scheme"]).tolist() == [True, False, False]


def test_multicasts_alone_can_be_past_saturation_under_light_unicasts() -> None:
    t = table([("a", 0.1, 10.0, False), ("a", 0.5, 30.0, False)], multicast=[20.0, 20.0 * LATENCY_FACTOR + 1])
    assert past_saturation(t, ["scheme"]).tolist() == [False, True]


def test_one_load_or_no_load_leaves_the_core_flag_alone() -> None:
    assert past_saturation(table([("a", 0.3, 1e9, False)]), ["scheme"]).tolist() == [False]
    closed = pd.DataFrame({"latency_mean": [10.0, 1e9], "saturated": [False, True]})
    assert past_saturation(closed, []).tolist() == [False, True]


def test_a_failed_point_is_not_marked_and_the_column_sits_after_the_reason() -> None:
    t = table([("a", 0.1, 10.0, False), ("a", 0.5, math.nan, False)]).astype({"saturated": object})
    t.loc[1, "saturated"] = None
    t["saturation_reason"] = ""
    t["error"] = ["", "deadlock"]
    out = with_past_saturation(t, ["scheme", "workload.load"])
    assert list(out.columns)[-2:] == ["past_saturation", "error"]
    assert out["past_saturation"].tolist() == [False, False]
    assert list(with_past_saturation(out, ["scheme"]).columns) == list(out.columns)  # recomputed in place


def test_curves_without_a_light_load_have_only_the_core_flag() -> None:
    t = table([("a", 0.8, 10.0, False), ("a", 0.9, 500.0, False), ("a", 1.0, 600.0, True)])
    assert past_saturation(t, ["scheme"]).tolist() == [False, True, True]
    assert past_saturation(t, None).tolist() == [False, False, True]
