"""Quick-mode claims are never judged differently from a longer run: a small experiment (16 nodes,
bit-reversal, 128-byte messages, the seven routings of Figs. 6–9) with a battery of claims of every kind
runs in quick mode and with a window three times longer, and every claim the quick run judges has the
longer run's verdict. The quick run uses the real quick-mode windows and resolution of study 002."""

from __future__ import annotations

from itertools import combinations

import pandas as pd

from flitcast.experiments import banikazemi as b
from flitcast.experiments.experiment import Claim, Experiment, run_experiment

#: a "full-like" run: the quick warm-up, three times the quick window
LONGER_RUN = {**b.QUICK_RUNS[16], "measure_cycles": 3 * b.QUICK_RUNS[16]["measure_cycles"]}


def _claims(results: pd.DataFrame) -> list[Claim]:
    peaks = b._peaks(results, 128)
    key = (b._peak(128),)
    orderings = [
        Claim(f"{x} > {y}", f"{x} > {y}", f"{peaks[x]:.3f} vs {peaks[y]:.3f}", peaks[x] > peaks[y], "", b._above(peaks[x], peaks[y]), key)
        for x, y in combinations(b.BARS, 2)
    ]
    spread, shown = b._spread(peaks, b.ADAPTIVE)
    return [
        *orderings,
        *[b._near(f"{n} near 0.99", 0.99, peaks[n], 128) for n in b.BARS],
        Claim("adaptive spread at most 0.05", "≤ 0.05", shown, spread <= 0.05, "", b._spread_within(spread, 0.05), key),
        Claim("MRU lowest adaptive", "MRU lowest", b._order(peaks, b.ADAPTIVE), peaks["MRU"] <= min(peaks[n] for n in b.ADAPTIVE) + 0.01, "±0.01", b._mru_lowest(peaks), key),
    ]


def _experiment(run: dict[str, int]) -> Experiment:
    return Experiment(
        id="test-quick-verdicts",
        study=b.STUDY,
        figure="test",
        title="16 nodes, bit-reversal, 128 B",
        points=lambda quick: b._points(16, "bit_reversal", b.BARS, [128], quick, run=None if quick else run),
        claims=_claims,
        plot=lambda results, out: None,
        curve=b.CURVE,
        quick_resolution=b.QUICK_RESOLUTION[16],
    )


def test_quick_verdicts_agree_with_a_longer_run() -> None:
    _, quick, _ = run_experiment(_experiment(LONGER_RUN), quick=True, threads=2)
    _, longer, _ = run_experiment(_experiment(LONGER_RUN), quick=False, threads=2)
    assert list(quick["claim"]) == list(longer["claim"])
    judged = quick["holds"].notna()
    disagree = quick[judged & (quick["holds"] != longer["holds"])]
    assert disagree.empty, disagree[["claim", "holds", "margin"]]
    # the battery is decided both ways: MRU against the rest, and ties among the unsaturated curves
    assert 10 <= judged.sum() < len(quick)
    assert set(quick.loc[judged, "holds"]) == {True, False}
    assert quick.loc[~judged, "note"].str.startswith("not judged in quick mode: margin").all()
    assert longer["holds"].notna().all()
