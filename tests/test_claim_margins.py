"""Every claim of study 002 carries a margin: how far every peak (or load) it reads could move, each in its
worst direction, before the verdict could change — positive when it holds (docs/results.md, claims.csv).
Table-driven on hand-made result frames, plus a check of the definition itself: moving every peak by
less than the margin never changes the verdict."""

from __future__ import annotations

import random

import pandas as pd
import pytest

from flitcast.experiments import banikazemi as b
from flitcast.experiments.experiment import Claim, judge, quick_verdict

A128 = {"O4": 0.80, "LRU": 0.95, "MRU": 0.70, "RND": 0.93, "RR": 0.94, "LRUC": 0.92, "LRUD": 0.96}
B4096 = {"O4": 0.50, "LRU": 0.62, "MRU": 0.58, "RND": 0.60, "RR": 0.61, "LRUC": 0.59, "LRUD": 0.63}


def frame(peaks: dict[int, dict[str, float]]) -> pd.DataFrame:
    """A results table with one point per (message size, routing): its accepted load is the peak, exact
    (an unsaturated point at the top load: no load run above it bounds it, banikazemi._bounds)."""
    rows = [
        {"nodes": 16, "pattern": "uniform", "message_bytes": size, "variant": v, "workload.load": 1.0, "accepted_load": p, "saturated": False, "latency_mean": 1000.0, "error": ""}
        for size, by_variant in peaks.items()
        for v, p in by_variant.items()
    ]
    return pd.DataFrame(rows)


def claim(claims, results: pd.DataFrame, start: str) -> Claim:
    (found,) = [c for c in claims(results) if c.claim.startswith(start)]
    return found


CASES = [
    # (claims, peaks at 128 B, peaks at 4096 B, claim prefix, margin, holds)
    # a stated number: the tolerance (Fig. 7(b): ±0.035) minus the distance
    (b._fig7_claims, A128, {**B4096, "MRU": 0.77}, "(b) 4096 B: MRU peak", 0.035 - 0.02, True),
    (b._fig7_claims, A128, {**B4096, "MRU": 0.80}, "(b) 4096 B: MRU peak", 0.035 - 0.05, False),
    # an ordering a > b: half the gap (both move towards each other)
    (b._fig6_claims, A128, B4096, "(b) 4096 B: all adaptive algorithms perform better", (0.58 - 0.50) / 2, True),
    (b._fig6_claims, A128, {**B4096, "O4": 0.60}, "(b) 4096 B: all adaptive algorithms perform better", (0.58 - 0.60) / 2, False),
    # a chain MRU < RND < LRU: the tighter link
    (b._fig7_claims, A128, B4096, "(b) 4096 B: MRU performs poorly, RND", min(0.60 - 0.58, 0.62 - 0.60) / 2, True),
    # a spread ≤ limit: half the room left
    (b._fig6_claims, A128, {**B4096, "LRUD": 0.61}, "(b) 4096 B: all adaptive algorithms perform the same", (0.05 - 0.04) / 2, True),
    (b._fig6_claims, {**A128, "O4": 0.90, "MRU": 0.92}, B4096, "(a) 128 B: all algorithms", (0.10 - 0.06) / 2, True),
    (b._fig8_claims, A128, B4096, "(a) 128 B: all selection functions", (0.05 - 0.26) / 2, False),
    # an interval 0 < lead ≤ 0.05: the nearer end
    (b._fig6_claims, A128, B4096, "(b) 4096 B: LRUD outperforms", min(0.01, 0.05 - 0.01) / 2, True),
    (b._fig6_claims, A128, {**B4096, "LRUD": 0.70}, "(b) 4096 B: LRUD outperforms", (0.05 - 0.08) / 2, False),
    # MRU below every other adaptive function
    (b._fig7_claims, A128, B4096, "(a) 128 B: MRU performs poorly", (0.92 - 0.70) / 2, True),
    (b._fig9_claims, {**A128, "MRU": 0.95}, B4096, "(a) 128 B: MRU performs poorly", (0.92 - 0.95) / 2, False),
    # LRU, LRUD above every other; RND, RR, LRUC each below both, by at most 0.10
    (b._fig9_claims, A128, B4096, "(a) 128 B: LRU and LRUD outperform", (0.95 - 0.94) / 2, True),
    (b._fig9_claims, A128, B4096, "(a) 128 B: RND, RR and LRUC", min(0.95 - 0.94, 0.10 - (0.96 - 0.92)) / 2, True),
    # MRU and LRUC below every other adaptive function
    (b._fig8_claims, A128, B4096, "(b) 4096 B: MRU and LRUC", (0.60 - 0.59) / 2, True),
    # a ratio LRU / LRUC − 1 > 0.30: LRU − 1.3·LRUC over 2.3
    (b._fig9_claims, A128, {**B4096, "LRU": 0.68, "LRUC": 0.50}, "(b) 4096 B: using LRU instead of LRUC", (0.68 - 0.65) / 2.3, True),
    (b._fig9_claims, A128, B4096, "(b) 4096 B: using LRU instead of LRUC", (0.62 - 1.3 * 0.59) / 2.3, False),
    # a gain best / O4 − 1 ≥ 2.29 in either panel: the better panel's best − 3.29·O4 over 4.29
    (b._fig9_claims, {**A128, "O4": 0.37}, {**B4096, "O4": 0.36}, "adaptive instead of four-route", (0.96 - 3.29 * 0.37) / 4.29, False),
    (b._fig9_claims, {**A128, "O4": 0.25}, {**B4096, "O4": 0.36}, "adaptive instead of four-route", (0.96 - 3.29 * 0.25) / 4.29, True),
]


@pytest.mark.parametrize(("claims", "a", "bb", "start", "margin", "holds"), CASES)
def test_margin_of_each_claim_kind(claims, a, bb, start, margin, holds) -> None:
    found = claim(claims, frame({128: a, 4096: bb}), start)
    assert found.margin == pytest.approx(margin, abs=1e-12)
    assert found.holds is holds
    assert found.reads and all(key in b.QUICK_RESOLUTION for key in found.reads)


def _fig5_frame(o1_first_saturated: float) -> pd.DataFrame:
    rows = []
    for variant, peak, first in (("O1", 0.74, o1_first_saturated), ("O4", 0.99, 1.0), ("LRU", 0.99, 1.0)):
        for load in b.FULL_LOADS:
            accepted = min(load, peak)
            rows.append({"message_bytes": 1024, "variant": variant, "workload.load": load, "accepted_load": accepted, "saturated": load >= first, "latency_mean": 100.0 + load, "error": ""})
    return pd.DataFrame(rows)


def test_fig5_margins_read_first_saturated_loads_and_peaks() -> None:
    first, second = b._fig5_claims(_fig5_frame(0.6))
    # O1 first saturates 0.4 below the others (margin 0.2), its peak is 0.25 below theirs (0.125)
    assert first.holds is True and first.margin == pytest.approx(0.125)
    assert first.reads == ("first saturated load", "peak 1024 B")
    assert b._fig5_claims(_fig5_frame(1.0))[0].margin == pytest.approx(0.0)  # the same first saturated load
    assert second.holds is None and second.margin is None  # both first saturate at 1.0: not judged at this resolution


def test_grid_claims_have_no_margin() -> None:
    assert all(c.margin is None for c in b._grid_claims(frame({128: {**A128, "O1": 0.5}, 4096: {**B4096, "O1": 0.3}})))


@pytest.mark.parametrize("claims", [b._fig6_claims, b._fig7_claims, b._fig8_claims, b._fig9_claims])
def test_moving_every_peak_by_less_than_the_margin_keeps_the_verdict(claims) -> None:
    rng = random.Random(2)
    for _ in range(25):
        peaks = {size: {v: rng.uniform(0.3, 1.0) for v in b.BARS} for size in (128, 4096)}
        for c in claims(frame(peaks)):
            assert (c.margin > 0) == c.holds or c.margin == 0, c
            for _ in range(3):
                # every peak moves by up to 0.999·|margin| in any direction, corners included
                moved = {s: {v: p + abs(c.margin) * 0.999 * rng.choice([-1, 1, rng.uniform(-1, 1)]) for v, p in by.items()} for s, by in peaks.items()}
                (again,) = [x for x in claims(frame(moved)) if x.claim == c.claim]
                assert again.holds == c.holds, (c, again)


def test_quick_verdict_judges_only_margins_wider_than_the_resolution() -> None:
    resolution = {"peak 128 B": 0.01, "peak 4096 B": 0.04}
    wide = Claim("c", "s", "o", True, "±0.01", 0.05, ("peak 128 B", "peak 4096 B"))
    assert quick_verdict(wide, resolution) == wide
    narrow = Claim("c", "s", "o", False, "±0.01", -0.03, ("peak 128 B", "peak 4096 B"))  # 4096 B decides: 0.04
    judged = quick_verdict(narrow, resolution)
    assert judged.holds is None
    assert judged.note == "not judged in quick mode: margin -0.030 is within the quick-mode resolution ±0.040 (docs/experiments.md, Quick mode); ±0.01"
    assert quick_verdict(Claim("c", "s", "o", True, "", None, ("peak 128 B",)), resolution).holds is None
    unmeasured = quick_verdict(Claim("c", "s", "o", True, "", 0.5, ("peak 2048 B",)), resolution)
    assert unmeasured.holds is None and "no quick-mode resolution measured for peak 2048 B" in unmeasured.note


def test_full_runs_judge_every_claim_and_report_its_margin() -> None:
    experiment = b.EXPERIMENTS[3]  # Fig. 8
    results = frame({128: A128, 4096: B4096})
    full = judge(experiment, results)
    assert list(full.columns) == ["claim", "study", "ours", "holds", "status", "margin", "resolution", "rule", "note"]
    assert full["holds"].isin([True, False]).all() and full["margin"].notna().all()
    quick = judge(experiment, results, quick=True)
    judged = quick["holds"].notna()
    assert (quick.loc[judged, "holds"] == full.loc[judged, "holds"]).all()
    assert quick.loc[~judged, "note"].str.startswith("not judged in quick mode").all()
    assert (quick["margin"] == full["margin"]).all()
