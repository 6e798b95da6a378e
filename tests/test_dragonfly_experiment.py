"""Our experiment `dragonfly-routing`: its points are the set-up docs/experiments.md describes, each claim
holds and fails where it should on synthetic result tables, a quick run judges only the 72-node claims
(run exactly as in the full run), and the plot writes one panel per network and traffic."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from flitcast.experiments import EXPERIMENTS
from flitcast.experiments.dragonfly import LOADS, NETWORKS, PATTERNS, ROUTINGS, bound_worst_case_minimal, claims
from flitcast.experiments.experiment import judge

EXPERIMENT = EXPERIMENTS["dragonfly-routing"]

#: peaks that satisfy every claim (per network): minimal uniform 0.60, UGAL-L 0.58, Valiant 0.30; worst case
#: minimal at 95% of its bound, Valiant 0.29, UGAL-L 0.28
GOOD = {("uniform", "minimal"): 0.60, ("uniform", "ugal_l"): 0.58, ("uniform", "valiant"): 0.30, ("worst case", "valiant"): 0.29, ("worst case", "ugal_l"): 0.28}


def table(peaks: dict[tuple[str, str, str], float], networks: tuple[str, ...] = tuple(NETWORKS)) -> pd.DataFrame:
    """A results table whose curves rise linearly to their peak (two loads each) and stay there."""
    rows = []
    for network in networks:
        for pattern in PATTERNS:
            for routing in ROUTINGS:
                peak = peaks.get((network, pattern, routing), GOOD.get((pattern, routing), 0.95 * bound_worst_case_minimal(network)))
                for load in (0.1, 1.0):
                    rows.append({"network": network, "pattern": pattern, "routing": routing, "load": load, "accepted_load": min(load, peak), "latency_mean": 50.0 if load < peak else 900.0, "saturated": load > peak, "error": ""})
    return pd.DataFrame(rows)


def verdicts(results: pd.DataFrame) -> dict[str, bool | None]:
    return {c.claim: c.holds for c in claims(results)}


def test_the_points_are_both_networks_both_traffics_three_routings_on_one_vc_per_hop_class() -> None:
    full, quick = EXPERIMENT.run_points(False), EXPERIMENT.run_points(True)
    assert len(full) == len(NETWORKS) * len(PATTERNS) * len(ROUTINGS) * len(LOADS) == 252
    assert {p.labels["network"] for p in quick} == {"72 nodes"}
    # the quick run's points are the full run's, unchanged: its verdicts are the full run's
    assert [p.scenario for p in quick] == [p.scenario for p in full if p.labels["network"] == "72 nodes"]
    for p in full:
        s = p.scenario
        assert s.switch.vcs == {"minimal": 2, "valiant": 3, "ugal_l": 3}[p.labels["routing"]]
        assert (s.network.p, s.network.a, s.network.h) == NETWORKS[p.labels["network"]]


def test_every_claim_holds_on_the_classic_curves() -> None:
    found = verdicts(table({}))
    assert len(found) == 10 and all(found.values()), found


@pytest.mark.parametrize(
    ("peaks", "failing"),
    [
        ({("72 nodes", "uniform", "ugal_l"): 0.50}, "uniform: minimal and UGAL-L saturate together (72 nodes)"),  # 83% of minimal
        ({("1,056 nodes", "uniform", "valiant"): 0.40}, "uniform: Valiant saturates near half of minimal (1,056 nodes)"),  # 0.67
        ({("72 nodes", "worst case", "minimal"): 0.09}, "worst case: minimal collapses to about 1/(a·p) of the injection bandwidth (72 nodes)"),
        ({("72 nodes", "worst case", "minimal"): 0.14}, "worst case: minimal collapses to about 1/(a·p) of the injection bandwidth (72 nodes)"),  # above the bound
        ({("1,056 nodes", "worst case", "valiant"): 0.20, ("1,056 nodes", "worst case", "ugal_l"): 0.20}, "worst case: Valiant holds near half (1,056 nodes)"),
        ({("1,056 nodes", "worst case", "ugal_l"): 0.21}, "worst case: UGAL-L near Valiant (1,056 nodes)"),
    ],
)
def test_each_claim_fails_where_the_curves_break_it(peaks: dict[tuple[str, str, str], float], failing: str) -> None:
    found = verdicts(table(peaks))
    assert [claim for claim, holds in found.items() if not holds] == [failing]


def test_a_quick_run_judges_the_72_node_claims_and_leaves_the_1056_node_ones() -> None:
    quick = judge(EXPERIMENT, table({}, ("72 nodes",)), quick=True)
    small = quick[quick["claim"].str.endswith("(72 nodes)")]
    big = quick[quick["claim"].str.endswith("(1,056 nodes)")]
    assert len(small) == len(big) == 5
    assert small["holds"].tolist() == [True] * 5
    assert big["holds"].isna().all() and big["note"].str.contains("runs only in the full run").all()


def test_the_plot_writes_one_panel_per_network_and_traffic(tmp_path: Path) -> None:
    EXPERIMENT.plot(table({}), tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["uniform_1056.png", "uniform_72.png", "worst_case_1056.png", "worst_case_72.png"]
