"""Study 000's claims on hand-made result frames: each claim holds on a frame shaped as the study
describes and fails on one changed where the study's statement says it must not be; plus the saturation
rule the claims read (flitcast.saturation: the core's flag)."""

from __future__ import annotations

from typing import Any

import pandas as pd
import pytest

from flitcast.experiments import sivaram as s

#: loads of the frames: half the study's load step, so that saturation intervals are narrow
LOADS = [round(0.05 * i, 2) for i in range(1, 21)]
NEVER = 2.0

#: (variant, m) -> saturation load; other curve parameters below
SAT = {
    **{("HW-CB", m): NEVER for m in s.DEGREES},
    **{("HW-IB", m): x for m, x in zip(s.DEGREES, [0.5, 0.6, 0.7, 0.8, 1.0], strict=True)},
    **{("SW-CB", m): x for m, x in zip(s.DEGREES, [0.8, 0.7, 0.6, 0.5, 0.4], strict=True)},
    **{("SW-IB", m): x for m, x in zip(s.DEGREES, [0.35, 0.35, 0.3, 0.25, 0.2], strict=True)},
}


def base(variant: str, m: int) -> float:
    """Light-load latency: hardware falls slightly with m, software rises with its phases."""
    return {"HW-CB": 120.0 - m, "HW-IB": 120.0 - m, "SW-CB": 150.0 + 20 * m, "SW-IB": 155.0 + 20 * m}[variant]


def curve(variant: str, m: int, sat: float, lat0: float, ratio: Any = None, peak: float | None = None, slope: float | None = None, nodes: int = 16) -> list[dict[str, Any]]:
    """One curve: latency lat0·(1 + 0.1·x/(sat − x)) below `sat` (under 2× lat0, never 10×), 10^3·lat0
    and the core's flag past it; B_o = x below saturation, then `peak` rising at `slope` (software keeps
    rising, hardware stays flat); (a)/(b) = ratio(x)."""
    if ratio is None:
        ratio = (lambda x: 1.0 + 0.3 * x) if variant.startswith("HW") else (lambda x: 1.3 + 0.5 * x)
    if slope is None:
        slope = 0.3 if variant.startswith("SW") else 0.0
    peak = min(sat, 1.0) - 0.05 if peak is None else peak
    rows = []
    for x in LOADS:
        past = x >= sat
        lat = lat0 * 1e3 if past else lat0 * (1 + 0.1 * x / (sat - x))
        bo = x if x <= peak else peak + slope * (x - peak)
        rows.append(
            {"nodes": nodes, "variant": variant, "m": m, "message_bytes": 128, "workload.load": x, "accepted_load": bo, "latency_mean": lat, "latency_dest_mean": lat / ratio(x), "latency_unicast_mean": lat, "latency_ci95": 0.5, "saturated": past, "error": ""}
        )
    return rows


def world(**changes: dict[str, Any]) -> pd.DataFrame:
    """Every curve of the study's four variants; `changes` keyed "HW_IB_2" override one curve's parameters."""
    rows = []
    for (v, m), sat in SAT.items():
        params: dict[str, Any] = {"sat": sat, "lat0": base(v, m)}
        params.update(changes.get(f"{v.replace('-', '_')}_{m}", {}))
        rows += curve(v, m, **params)
    return pd.DataFrame(rows)


def verdict(claims: Any, results: pd.DataFrame, start: str) -> bool | None:
    (found,) = [c for c in claims(results) if c.claim.startswith(start)]
    return found.holds


def test_saturation_rule_reads_the_core_flag_alone() -> None:
    c = pd.DataFrame({"workload.load": [0.1, 0.5, 0.9, 1.0], "latency_mean": [100.0, 990.0, 1010.0, 500.0], "saturated": [False, False, False, True]})
    assert s.saturated(c).tolist() == [False, False, False, True]
    r = pd.DataFrame(curve("SW-CB", 6, 0.6, 300.0))
    r.loc[r["workload.load"] == 0.45, "latency_mean"] = 300.0 * 43  # 43× light load, the core says unsaturated
    assert s.saturation_interval(r, "SW-CB", 6) == (0.55, 0.6)
    assert s.saturation_interval(pd.DataFrame(curve("HW-CB", 2, NEVER, 100.0)), "HW-CB", 2) == (1.0, s.INF)


def test_interval_comparisons_are_open_where_the_step_cannot_tell() -> None:
    assert s._later((0.9, 1.0), (0.7, 0.8), 1.2) is None  # from 0.9/0.8 = 1.13 to 1.0/0.7 = 1.43
    assert s._later((0.9, 1.0), (0.7, 0.8)) is True
    assert s._later((0.6, 0.7), (0.6, 0.7)) is None
    assert s._later((0.6, 0.7), (0.6, 0.7), 1.2) is False
    assert s._later((1.0, s.INF), (0.7, 0.8), 1.2) is True


@pytest.mark.parametrize(
    ("start", "changes", "holds"),
    [
        ("SW-CB: software multicast latency rises", {}, True),
        ("SW-CB: software multicast latency rises", {"SW_CB_15": {"lat0": 200.0}}, False),
        ("HW-CB: hardware multicast latency decreases", {}, True),
        ("HW-CB: hardware multicast latency decreases", {"HW_CB_4": {"lat0": 130.0}}, False),
        ("128 B, CB: hardware multicast saturates at a much higher", {}, True),
        ("128 B, CB: hardware multicast saturates at a much higher", {"HW_CB_2": {"sat": 0.85}}, False),
        ("128 B, IB: hardware multicast saturates at a much higher", {}, True),
        ("128 B, IB: hardware multicast saturates at a much higher", {"SW_IB_2": {"sat": 0.5}}, False),
        ("128 B, CB: hardware multicast latency much lower", {}, True),
        ("128 B, CB: hardware multicast latency much lower", {"HW_CB_2": {"lat0": 170.0}}, False),
        ("for small m, input-FIFO replication performs worse", {}, True),
        ("for small m, input-FIFO replication performs worse", {"SW_CB_2": {"sat": 0.4}}, False),
        ("input-FIFO replication: saturation load rises", {}, True),
        ("input-FIFO replication: saturation load rises", {"HW_IB_4": {"sat": 0.4}}, False),
        ("central-buffer replication performs better", {}, True),
        ("central-buffer replication performs better", {"HW_IB_15": {"sat": NEVER, "lat0": 90.0}}, False),
        ("at low loads input-FIFO replication performs like", {}, True),
        ("at low loads input-FIFO replication performs like", {"HW_IB_6": {"lat0": 140.0}}, False),
        ("input-FIFO replication degrades at relatively light", {}, True),
        ("input-FIFO replication degrades at relatively light", {"HW_IB_2": {"sat": 0.6}, "HW_IB_4": {"sat": 0.6}}, False),
        ("for large m input-FIFO replication outperforms", {}, True),
        ("for large m input-FIFO replication outperforms", {"SW_CB_9": {"sat": 0.9}}, False),
        ("software multicast on input FIFOs performs worse", {}, True),
        ("software multicast on input FIFOs performs worse", {"SW_IB_9": {"sat": 0.9}}, False),
        ("central buffers improve the saturation load", {}, True),
        ("central buffers improve the saturation load", {"HW_IB_2": {"sat": 0.8}, "HW_IB_4": {"sat": 0.8}, "HW_IB_6": {"sat": 0.8}}, False),
    ],
)
def test_fig14_claims(start: str, changes: dict[str, Any], holds: bool) -> None:
    assert verdict(s._fig14_claims, world(**changes), start) is holds


def test_much_higher_is_not_judged_where_the_load_step_cannot_tell() -> None:
    coarse = world(HW_CB_2={"sat": 1.0}, SW_CB_2={"sat": 0.8})
    coarse = coarse[(coarse["workload.load"] * 10).round(6) % 1 == 0]  # the 0.1 grid: (0.9, 1.0] against (0.7, 0.8]
    assert verdict(s._fig14_claims, coarse, "128 B, CB: hardware multicast saturates at a much higher") is None


@pytest.mark.parametrize(
    ("start", "changes", "holds"),
    [
        ("HW-IB: saturation bandwidth increases", {}, True),
        ("HW-IB: saturation bandwidth increases", {"HW_IB_15": {"peak": 0.4}}, False),
        ("SW-IB: saturation load decreases", {}, True),
        ("SW-IB: saturation load decreases", {"SW_IB_15": {"sat": 0.6}}, False),
        ("software multicast: B_o does not flatten", {}, True),
        ("software multicast: B_o does not flatten", {"SW_IB_2": {"slope": 0.0}}, False),
        ("hardware multicast: B_o flattens", {}, True),
        ("hardware multicast: B_o flattens", {"HW_IB_4": {"slope": 0.3}}, False),
        ("HW-CB: saturation bandwidth near 100%", {"HW_CB_2": {"sat": 0.97}}, True),
        ("HW-CB: saturation bandwidth near 100%", {"HW_CB_2": {"sat": 0.9}}, False),
        ("HW-CB: the highest saturation bandwidth is achieved for large m", {**{f"HW_CB_{m}": {"sat": 0.97, "peak": 0.92} for m in (2, 4, 6)}}, True),
        ("HW-CB: the highest saturation bandwidth is achieved for large m", {"HW_CB_15": {"sat": 0.97, "peak": 0.92}, "HW_CB_9": {"sat": 0.97, "peak": 0.92}}, False),
    ],
)
def test_fig15_claims(start: str, changes: dict[str, Any], holds: bool) -> None:
    assert verdict(s._fig15_claims, world(**changes), start) is holds


def fig16_world(**changes: dict[str, Any]) -> pd.DataFrame:
    cb = {"HW_CB_2": {"sat": 0.8}, "HW_CB_4": {"sat": 0.85}, "HW_CB_6": {"sat": 0.95}, "HW_CB_9": {"sat": 1.0}}
    results = world(**{**cb, **changes})
    return results[results["m"].isin(s.FIG16_DEGREES)]


@pytest.mark.parametrize(
    ("start", "changes", "holds"),
    [
        ("512 B: 2- and 4-way HW-CB saturate before 0.9", {}, True),
        ("512 B: 2- and 4-way HW-CB saturate before 0.9", {"HW_CB_6": {"sat": 0.9}}, False),
        ("512 B, IB: hardware multicast saturates at a higher", {}, True),
        ("512 B, IB: hardware multicast saturates at a higher", {"SW_IB_4": {"sat": 0.65}}, False),
        ("512 B: central buffers improve the saturation load by at most", {}, True),
        ("512 B: central buffers improve the saturation load by at most", {"HW_IB_2": {"sat": 0.3}}, False),
    ],
)
def test_fig16_claims(start: str, changes: dict[str, Any], holds: bool) -> None:
    assert verdict(s._fig16_claims, fig16_world(**changes), start) is holds


def fig19_world(**changes: dict[str, Any]) -> pd.DataFrame:
    sixty = {"HW_CB_6": {"ratio": lambda x: 1.0 + 0.55 * x}, "HW_IB_6": {"sat": 0.5, "ratio": lambda x: 1.0 + 0.8 * x}, "SW_CB_6": {"sat": 0.8}}
    results = world(**{**sixty, **changes})
    return results[results["m"].isin([6, 15])]


@pytest.mark.parametrize(
    ("start", "changes", "holds"),
    [
        ("m = 6, HW-CB: at higher loads (a) exceeds (b) by almost 60%", {}, True),
        ("m = 6, HW-CB: at higher loads (a) exceeds (b) by almost 60%", {"HW_CB_6": {"ratio": lambda x: 1.0 + 0.75 * x}}, False),
        ("m = 6: input-FIFO replication's latency grows faster", {}, True),
        ("m = 6: input-FIFO replication's latency grows faster", {"HW_IB_6": {"sat": NEVER}}, False),
        ("m = 6: SW-CB saturates later than HW-IB", {}, True),
        ("m = 6: SW-CB saturates later than HW-IB", {"SW_CB_6": {"sat": 0.45}}, False),
        ("hardware multicast latency varies less", {}, True),
        ("hardware multicast latency varies less", {"HW_CB_15": {"ratio": lambda x: 1.5 + x}}, False),
    ],
)
def test_fig19_claims(start: str, changes: dict[str, Any], holds: bool) -> None:
    assert verdict(s._fig19_claims, fig19_world(**changes), start) is holds
