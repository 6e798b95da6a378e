"""Our experiment `dragonfly-routing`: its points are the set-up docs/experiments.md describes; its table of
claims, one row per statement checked on both networks, holds on hand-made curves shaped as the statements
say, deviates on curves changed where a statement says they must not be, and is not judged where a peak's
bracket straddles the threshold; a quick run (the 72-node points, the full run's own) judges a claim only
where its 72-node check decides it, as the full run does; the plot writes one panel per network and
traffic."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from flitcast.experiments import EXPERIMENTS
from flitcast.experiments.dragonfly import CURVE, LOADS, NETWORKS, PATTERNS, ROUTINGS, bound_worst_case_minimal
from flitcast.experiments.experiment import judge
from flitcast.experiments.verdicts import DEVIATES, HOLDS, NOT_JUDGED

EXPERIMENT = EXPERIMENTS["dragonfly-routing"]
SMALL, BIG = NETWORKS

LIKE_MINIMAL = "uniform: UGAL-L's throughput like minimal's"
VALIANT_HALF = "uniform: Valiant's throughput half of minimal's"
CHANNEL = "worst case: minimal's throughput the one global channel's share, 1/(a·p)"
VALIANT_WORST = "worst case: Valiant's throughput half of minimal's under uniform traffic"
LIKE_VALIANT = "worst case: UGAL-L's throughput like Valiant's"
DEGRADED = "worst case: UGAL-L's throughput below UGAL-G's"

#: throughputs as the statements describe them (on both networks): UGAL-L as minimal under uniform
#: traffic, Valiant half of it under both traffics, UGAL-L as Valiant under the worst case; minimal's
#: worst case is the bound 1/(a·p); UGAL-G as minimal under uniform traffic and above UGAL-L under the worst case
CLASSIC = {
    ("uniform", "minimal"): 0.50,
    ("uniform", "ugal_l"): 0.50,
    ("uniform", "ugal_g"): 0.50,
    ("uniform", "valiant"): 0.25,
    ("worst case", "valiant"): 0.25,
    ("worst case", "ugal_l"): 0.25,
    ("worst case", "ugal_g"): 0.30,
}

Peaks = dict[tuple[str, str, str], float]


def curve(network: str, pattern: str, routing: str, peak: float, refined: bool = True) -> list[dict[str, object]]:
    """An open-loop curve: accepts what it is offered up to ``peak``, saturated above. ``refined``: a load
    run at the peak and one 0.005 above, as the refinement leaves it (else the grid alone)."""
    loads = sorted({*LOADS, *((peak, round(peak + 0.005, 6)) if refined else ())})
    return [
        {"network": network, "pattern": pattern, "routing": routing, "workload.load": x, "accepted_load": min(x, peak), "latency_mean": 50.0 if x <= peak else 900.0, "saturated": x > peak, "error": ""}
        for x in loads
    ]


def table(peaks: Peaks | None = None, networks: tuple[str, ...] = tuple(NETWORKS), coarse: tuple[tuple[str, str, str], ...] = ()) -> pd.DataFrame:
    """The classic curves on ``networks``, with ``peaks`` changed; the curves in ``coarse`` unrefined."""
    peaks = peaks or {}
    rows = []
    for n in networks:
        for pattern in PATTERNS:
            for routing in ROUTINGS:
                key = (n, pattern, routing)
                default = bound_worst_case_minimal(n) if (pattern, routing) == ("worst case", "minimal") else CLASSIC[(pattern, routing)]
                rows += curve(n, pattern, routing, peaks.get(key, default), refined=key not in coarse)
    return pd.DataFrame(rows)


def statuses(results: pd.DataFrame, quick: bool = False) -> dict[str, str]:
    out = judge(EXPERIMENT, results, quick=quick)
    return dict(zip(out["claim"], out["status"], strict=True))


def test_the_points_are_both_networks_both_traffics_four_routings_on_one_vc_per_hop_class() -> None:
    full, quick = EXPERIMENT.run_points(False), EXPERIMENT.run_points(True)
    assert len(full) == len(NETWORKS) * len(PATTERNS) * len(ROUTINGS) * len(LOADS) == 336
    assert {p.labels["network"] for p in quick} == {SMALL}
    # the quick run's points are the full run's, unchanged (and refined alike, curve by curve)
    assert [p.scenario for p in quick] == [p.scenario for p in full if p.labels["network"] == SMALL]
    assert EXPERIMENT.curve == CURVE and EXPERIMENT.every_load
    for p in full:
        s = p.scenario
        assert s.switch.vcs == {"minimal": 2, "valiant": 3, "ugal_l": 3, "ugal_g": 3}[p.labels["routing"]]
        assert (s.network.p, s.network.a, s.network.h) == NETWORKS[p.labels["network"]]
        assert set(p.labels) == set(CURVE)  # no load label: a refined point takes its curve's labels


def test_every_claim_holds_on_the_classic_curves() -> None:
    found = statuses(table())
    assert list(found) == [LIKE_MINIMAL, VALIANT_HALF, CHANNEL, VALIANT_WORST, LIKE_VALIANT, DEGRADED]
    assert set(found.values()) == {HOLDS}, found


CHANGES = [
    # (peaks changed, the one claim that must deviate): each past its threshold by more than its bracket
    ({(SMALL, "uniform", "ugal_l"): 0.46}, LIKE_MINIMAL),  # 0.04 below minimal: visibly apart
    ({(BIG, "uniform", "valiant"): 0.35}, VALIANT_HALF),  # 0.70 of minimal
    ({(SMALL, "worst case", "minimal"): 0.09}, CHANNEL),  # 0.035 below 1/8
    ({(BIG, "worst case", "minimal"): 0.06}, CHANNEL),  # 0.029 above 1/32: a routing bug would show so
    ({(BIG, "worst case", "valiant"): 0.33, (BIG, "worst case", "ugal_l"): 0.33, (BIG, "worst case", "ugal_g"): 0.38}, VALIANT_WORST),  # 0.66
    ({(SMALL, "worst case", "valiant"): 0.20, (SMALL, "worst case", "ugal_l"): 0.20}, VALIANT_WORST),  # 0.40
    ({(BIG, "worst case", "ugal_l"): 0.21}, LIKE_VALIANT),  # the degraded UGAL-L
    ({(BIG, "worst case", "ugal_g"): 0.26}, DEGRADED),  # UGAL-G no better than UGAL-L, within the visible 0.02
    ({(SMALL, "worst case", "ugal_g"): 0.22}, DEGRADED),  # UGAL-G below UGAL-L
]


@pytest.mark.parametrize(("peaks", "failing"), CHANGES)
def test_each_claim_deviates_where_the_curves_break_it(peaks: Peaks, failing: str) -> None:
    found = statuses(table(peaks))
    assert {c for c, s in found.items() if s != HOLDS} == {failing}
    assert found[failing] == DEVIATES


def test_within_the_threshold_still_holds() -> None:
    # at most 0.015 apart with their brackets (the visible step is 0.02); a ratio of at most 0.54 (½ read
    # to half its digit: 0.45–0.55)
    found = statuses(table({(SMALL, "uniform", "ugal_l"): 0.49, (BIG, "uniform", "valiant"): 0.265}))
    assert set(found.values()) == {HOLDS}, found


def test_a_peak_whose_bracket_straddles_the_threshold_is_not_judged() -> None:
    # unrefined, UGAL-L's peak 0.48 lies in [0.48, 0.5] (sustained 0.45, saturated at 0.5): 0.0–0.025 below
    # minimal's, which the visible 0.02 cuts through
    found = statuses(table({(SMALL, "uniform", "ugal_l"): 0.48}, coarse=((SMALL, "uniform", "ugal_l"),)))
    assert found[LIKE_MINIMAL] == NOT_JUDGED
    assert {s for c, s in found.items() if c != LIKE_MINIMAL} == {HOLDS}


@pytest.mark.parametrize(("peaks", "failing"), [({}, None), *CHANGES])
def test_a_quick_run_judges_where_its_72_node_check_decides_and_as_the_full_run(peaks: Peaks, failing: str | None) -> None:
    full = statuses(table(peaks))
    quick = statuses(table(peaks, networks=(SMALL,)), quick=True)
    for claim, status in quick.items():
        assert status in (full[claim], NOT_JUDGED), claim
    small_fails = failing is not None and any(key[0] == SMALL for key in peaks)
    assert {c for c, s in quick.items() if s != NOT_JUDGED} == ({failing} if small_fails else set())
    notes = judge(EXPERIMENT, table(peaks, networks=(SMALL,)), quick=True).set_index("claim")["ours"]
    assert notes.str.contains(f"{BIG}: not run").all()


def test_the_plot_writes_one_panel_per_network_and_traffic(tmp_path: Path) -> None:
    EXPERIMENT.plot(table(), tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["uniform_1056.png", "uniform_72.png", "worst_case_1056.png", "worst_case_72.png"]


@pytest.mark.parametrize("reading", ["long-channels", "separate-vc-allocation"])
def test_the_readings_of_the_new_router_options_set_their_keys_on_every_point(reading: str) -> None:
    from flitcast.api import run

    points = EXPERIMENT.read_as(reading).run_points(True)
    assert len(points) == len(EXPERIMENT.run_points(True))
    for p in points:
        if reading == "long-channels":  # BookSim 2's dragonfly: 10-cycle local, 100-cycle global channels
            assert (p.scenario.network.channel_latency_cycles, p.scenario.network.global_latency_cycles, p.scenario.switch.buffer_flits) == (10, 100, 256)
        else:
            assert p.scenario.switch.vc_allocation == "separate"
    # the core takes them: one short run of the slowest kind of point, UGAL-G on long channels
    ugal_g = next(p for p in points if p.labels["routing"] == "ugal_g")
    result = run(ugal_g.scenario.model_copy(update={"run": ugal_g.scenario.run.model_copy(update={"warmup_cycles": 200, "measure_cycles": 500})}))
    assert result.metrics["accepted_load"] > 0
