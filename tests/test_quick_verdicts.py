"""Study 002's quick runs judge with the same words on wider intervals, and never contradict the full run:
a quick table whose every peak lies within its kind's spread of the full table's judges each claim as the
full table does, or leaves it not judged (docs/experiments.md, "Quick mode"). The tables are the
hand-made world of tests/test_banikazemi_claims.py, its peaks moved at random."""

from __future__ import annotations

import random
from dataclasses import replace

import pandas as pd
import pytest

from flitcast.experiments import banikazemi as b
from flitcast.experiments.claim import Results, Spread
from flitcast.experiments.experiment import judge
from flitcast.experiments.verdicts import NOT_JUDGED
from test_banikazemi_claims import FIG9_128, FIG9_4096, peaks, rows

SPREAD = 0.03
QUICK = {b._kind(*case): Spread(absolute=SPREAD) for case in b.CASES}


def table(move: float = 0.0, seed: int = 0, cases: list | None = None) -> pd.DataFrame:
    """The world's peaks, each moved by up to ``move`` (at random, a fixed seed)."""
    rng = random.Random(seed)
    data = []
    for case in cases or b.CASES:
        data += rows(case, {v: min(1.0, max(0.01, p + rng.uniform(-move, move))) for v, p in peaks(case).items()})
    return pd.DataFrame(data)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("claims", [b.fig8_claims, b.fig9_claims, b.grid_claims])
def test_a_quick_verdict_is_the_full_runs_or_none(claims, seed: int) -> None:
    full = {c.claim: c.status for c in claims(Results(table()))}
    # every quick peak within the spread of the full one (half of it: the spread is twice the largest deviation)
    quick = {c.claim: c.status for c in claims(Results(table(SPREAD / 2, seed), QUICK))}
    judged = {name for name, status in quick.items() if status != NOT_JUDGED}
    assert {name: quick[name] for name in judged} == {name: full[name] for name in judged}


def test_the_grids_quick_cases_decide_only_what_they_contradict() -> None:
    full = {c.claim: c.status for c in b.grid_claims(Results(table()))}
    quick = b.grid_claims(Results(table(cases=b.GRID_QUICK_CASES), QUICK))
    for c in quick:
        assert c.status in (NOT_JUDGED, full[c.claim]), c.claim
        if c.status == NOT_JUDGED:  # a claim no quick case decides waits for the cases not run
            assert "not run" in c.verdict.rule or c.verdict.margin is not None, c.claim


def test_a_kind_without_a_spread_is_never_judged_in_quick_mode() -> None:
    experiment = b.EXPERIMENTS[4]  # Fig. 9
    quick = judge(replace(experiment, quick_resolution={}), table(cases=[(128, "bit_reversal", 128), (128, "bit_reversal", 4096)]), quick=True)
    assert (quick["status"] == NOT_JUDGED).all()
    assert quick["note"].str.startswith("not judged in quick mode").all()


def test_deviations_are_read_per_kind_through_the_claims_peaks() -> None:
    full = table(cases=[FIG9_128, FIG9_4096])
    quick = full.copy()
    quick.loc[(quick["message_bytes"] == 4096) & (quick["variant"] == "LRUC"), "accepted_load"] += 0.04
    found = b.quick_deviations(quick, full)
    assert set(found) == {b._kind(*FIG9_128), b._kind(*FIG9_4096)}
    assert max(found[b._kind(*FIG9_4096)].values()) == pytest.approx(0.04)
    assert max(found[b._kind(*FIG9_128)].values()) == 0.0


@pytest.mark.parametrize("experiment", [e for e in b.EXPERIMENTS if e.id in b.QUICK_SPREADS], ids=lambda e: e.id)
def test_each_measured_spread_is_a_kind_its_experiment_reads(experiment) -> None:
    """A spread keyed by a misspelt kind would leave the kind unbounded and its claims silently unjudged."""
    assert experiment.quick_resolution is b.QUICK_SPREADS[experiment.id]
    kinds = {b._kind(p.labels["nodes"], p.labels["pattern"], p.labels["message_bytes"]) for p in experiment.points(True)}
    assert set(experiment.quick_resolution) <= kinds
