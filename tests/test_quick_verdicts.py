"""Quick-mode claims are never judged differently from a longer run: a small experiment (16 nodes,
bit-reversal, 128-byte messages, four routings of Figs. 6–9) with a battery of claims of every kind runs
in quick mode and with a window twice as long, and every claim the quick run judges has the longer run's
verdict. The quick run uses 16-node windows of 200,000 + 200,000 cycles and their measured resolution
(docs/experiments.md, "Quick mode": the 16-node figures now run in full, but these windows and this
resolution were measured against their full runs)."""

from __future__ import annotations

from itertools import combinations

import pandas as pd
import pytest

from flitcast.experiments import banikazemi as b
from flitcast.experiments.experiment import Claim, Experiment, run_experiment

QUICK_RUN = {"warmup_cycles": 200_000, "measure_cycles": 200_000, "drain_max_cycles": 50_000}
#: twice the largest deviation of 16-node 128 B peaks between these windows and the full runs
RESOLUTION = {"peak 128 B": 0.01}
#: a "full-like" run: the quick warm-up, twice the quick window
LONGER_RUN = {**QUICK_RUN, "measure_cycles": 2 * QUICK_RUN["measure_cycles"]}
#: two that tie (unsaturated at load 1.0), one a little below (RND), one far below (MRU)
VARIANTS = ["O4", "LRU", "RND", "MRU"]
ADAPTIVE = ["LRU", "RND", "MRU"]


def _claims(results: pd.DataFrame) -> list[Claim]:
    peaks = b._peaks(results, 128)
    key = (b._peak(128),)
    orderings = [
        Claim(f"{x} > {y}", f"{x} > {y}", f"{peaks[x]:.3f} vs {peaks[y]:.3f}", peaks[x] > peaks[y], "", b._above(peaks[x], peaks[y]), key)
        for x, y in combinations(VARIANTS, 2)
    ]
    spread, shown = b._spread(peaks, ADAPTIVE)
    others = min(peaks["LRU"], peaks["RND"])
    return [
        *orderings,
        *[b._near(f"{n} near 0.99", 0.99, peaks[n], 128) for n in VARIANTS],
        Claim("adaptive spread at most 0.05", "≤ 0.05", shown, spread <= 0.05, "", b._spread_within(spread, 0.05), key),
        Claim("MRU lowest adaptive", "MRU lowest", b._order(peaks, ADAPTIVE), peaks["MRU"] <= others + 0.01, "±0.01", b._above(others + 0.01, peaks["MRU"]), key),
    ]


def _experiment(run: dict[str, int]) -> Experiment:
    return Experiment(
        id="test-quick-verdicts",
        study=b.STUDY,
        figure="test",
        title="16 nodes, bit-reversal, 128 B",
        points=lambda quick: b._points(16, "bit_reversal", VARIANTS, [128], quick, run=QUICK_RUN if quick else run),
        claims=_claims,
        plot=lambda results, out: None,
        curve=b.CURVE,
        quick_resolution=RESOLUTION,
    )


def test_quick_verdicts_agree_with_a_longer_run() -> None:
    _, quick, _ = run_experiment(_experiment(LONGER_RUN), quick=True, threads=2)
    _, longer, _ = run_experiment(_experiment(LONGER_RUN), quick=False, threads=2)
    assert list(quick["claim"]) == list(longer["claim"])
    judged = quick["holds"].notna()
    disagree = quick[judged & (quick["holds"] != longer["holds"])]
    assert disagree.empty, disagree[["claim", "holds", "margin"]]
    # the battery is decided both ways, and the ties among the unsaturated curves are left unjudged
    assert 6 <= judged.sum() < len(quick)
    assert set(quick.loc[judged, "holds"]) == {True, False}
    assert quick.loc[~judged, "note"].str.startswith("not judged in quick mode: margin").all()
    assert longer["holds"].notna().all()


def test_deviations_compare_quick_and_full_curve_by_curve() -> None:
    from flitcast.experiments.quick_resolution import first_saturated_deviations, peak_deviations, resolution

    def table(rows: list[tuple[str, float, float, bool]]) -> pd.DataFrame:
        return pd.DataFrame(rows, columns=["variant", "workload.load", "accepted_load", "saturated"])

    quick = table([("A", 0.9, 0.88, False), ("A", 1.0, 0.90, True), ("B", 1.0, 0.62, True), ("C", 1.0, 0.99, False)])
    full = table([("A", 0.8, 0.80, False), ("A", 0.9, 0.87, True), ("A", 1.0, 0.86, True), ("B", 1.0, 0.60, True), ("C", 1.0, 0.995, False)])
    peaks = peak_deviations(quick, full, ["variant"]).set_index("variant")["deviation"]
    assert peaks.round(6).to_dict() == {"A": 0.03, "B": 0.02, "C": -0.005}
    first = first_saturated_deviations(quick, full, ["variant"]).set_index("variant")["deviation"]
    assert first.round(6).to_dict() == {"A": 0.1, "B": 0.0, "C": 0.0}
    assert resolution(peaks) == pytest.approx(0.06)
