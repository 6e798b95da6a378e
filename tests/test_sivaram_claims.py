"""Study 000's claims (flitcast/experiments/sivaram.py) on hand-made result tables: a world shaped as the
study describes it, where every claim holds (but the one §7.3 contradicts itself on), and for each claim
a change where its statement says it must not be, which makes it deviate, or a case its intervals cannot
decide, which leaves it not judged."""

from __future__ import annotations

from typing import Any

import pandas as pd
import pytest

from flitcast.experiments import sivaram as s
from flitcast.experiments.claim import Results
from flitcast.experiments.verdicts import DEVIATES, HOLDS, INCONSISTENT, NOT_JUDGED

#: a finer grid than the experiments' (a bracket 0.025 wide), so that saturation loads 0.05 apart are told apart
LOADS = [round(0.025 * i, 3) for i in range(1, 41)]
NEVER = 2.0
#: (variant, m, message bytes, nodes) -> saturation load
SAT = {
    **{("HW-CB", m, 128, 16): NEVER for m in s.DEGREES},
    **{("HW-CB", m, 512, 16): x for m, x in zip(s.DEGREES, [0.8, 0.85, 0.95, 1.0, 1.0], strict=True)},
    **{("HW-CB", m, 512, 64): x for m, x in zip(s.FIG17_DEGREES, [0.7, 0.85, 0.9], strict=True)},
    **{("HW-IB", m, 128, 16): x for m, x in zip(s.DEGREES, [0.45, 0.5, 0.55, 0.8, 0.9], strict=True)},
    **{("HW-IB", m, 512, 16): x for m, x in zip(s.DEGREES, [0.35, 0.4, 0.45, 0.7, 0.8], strict=True)},
    **{("SW-CB", m, 128, 16): x for m, x in zip(s.DEGREES, [0.75, 0.7, 0.65, 0.55, 0.45], strict=True)},
    **{("SW-CB", m, 512, 16): x for m, x in zip(s.DEGREES, [0.65, 0.6, 0.55, 0.45, 0.35], strict=True)},
    **{("SW-IB", m, 128, 16): x for m, x in zip(s.DEGREES, [0.3, 0.25, 0.2, 0.15, 0.1], strict=True)},
    **{("SW-IB", m, 512, 16): x for m, x in zip(s.DEGREES, [0.2, 0.15, 0.1, 0.05, 0.05], strict=True)},
    ("UC-CB", 1, 128, 16): 0.9,
    ("UC-IB", 1, 128, 16): 0.6,
}


def curve(v: str, m: int, size: int, nodes: int, sat: float | None = None, lat0: float | None = None, rise: float | None = None, gap: float | None = None, slope: float | None = None, top: float | None = None) -> list[dict[str, Any]]:
    """One curve: latency flat at light load, rising towards saturation (hardware less for larger m, input
    FIFOs more), the core's flag past it; (a)/(b) = 1 + gap·x⁴ (software from 1.6); B_o = x up to saturation,
    then flat (hardware) or rising (software)."""
    sat = SAT[(v, m, size, nodes)] if sat is None else sat
    if lat0 is None:
        lat0 = (300.0 + 80 * m if v.startswith("SW") else 120.0 + (30.0 if nodes == 64 else 0.0)) + (100.0 if size == 512 else 0.0)
    if rise is None:
        rise = {"HW-CB": 2.0 / m, "HW-IB": 2.5 / m}.get(v, 1.0)
    if gap is None:
        gap = {"HW-CB": 0.9, "HW-IB": 6.0}.get(v, 0.0) / (6 if m == 15 else 1)
    if slope is None:
        slope = 0.5 if v.startswith("SW") else 0.0
    top = min(sat, 1.0) - 0.01 if top is None else top
    rows = []
    for x in LOADS:
        past = x >= sat
        u = x / sat
        lat = lat0 * 1e3 if past else lat0 * (1 + rise * u**3 / (1 - u))
        ratio = 1.6 + x * x if v.startswith("SW") else 1 + gap * x**4
        received = min(x, top) if not past else top + slope * (x - sat)
        rows.append({"nodes": nodes, "variant": v, "m": m, "message_bytes": size, "workload.load": x, "accepted_load": received, "latency_mean": lat, "latency_dest_mean": lat / ratio, "latency_unicast_mean": lat, "latency_ci95": 0.5, "saturated": past, "error": ""})
    return rows


def world(**changes: dict[str, Any]) -> Results:
    """Every curve of the study-000 experiments but Fig. 18's; a change keyed "HW_IB_2_128_16" overrides one
    curve's parameters."""
    rows = []
    for key in SAT:
        rows += curve(*key, **changes.get("_".join(str(k) for k in key).replace("-", "_"), {}))
    return Results(pd.DataFrame(rows))


def bimodal(hw: float = 0.5, sw: float = 1.5, combined: float = 1.0) -> Results:
    """Fig. 18: the unicasts alone at 80% of the load (UC-CB, m = 1) and in the mix with 4-way hardware or
    software multicasts, perturbed by hw·x² or sw·x² of their latency alone."""
    rows = []
    for x in LOADS:
        alone = 100.0 * (1 + 0.3 * (0.8 * x) / (0.95 - 0.8 * x))
        rows.append({"nodes": 16, "variant": "UC-CB", "m": 1, "message_bytes": 128, "workload.load": round(0.8 * x, 4), "accepted_load": 0.8 * x, "latency_mean": alone, "latency_dest_mean": alone, "latency_unicast_mean": alone, "latency_ci95": 0.5, "saturated": False, "error": ""})
        for v, k in (("HW-CB", hw), ("SW-CB", sw)):
            unicast = alone * (1 + k * x * x)
            mean = unicast * (1 + (0.1 if v == "SW-CB" else 0.1 * combined) * x)
            rows.append({"nodes": 16, "variant": v, "m": 4, "message_bytes": 128, "workload.load": x, "accepted_load": x, "latency_mean": mean, "latency_dest_mean": mean, "latency_unicast_mean": unicast, "latency_ci95": 0.5, "saturated": False, "error": ""})
    return Results(pd.DataFrame(rows))


CLAIMS = {s.fig14_claims, s.fig15_claims, s.fig16_claims, s.fig17_claims, s.fig18_claims, s.fig19_claims}


def status(claims: Any, results: Results, start: str) -> str:
    (found,) = [c for c in claims(results) if c.claim.startswith(start)]
    return found.status


def test_every_claim_holds_in_the_world_the_study_describes() -> None:
    statuses = {c.claim: c.status for claims in CLAIMS for c in claims(bimodal() if claims is s.fig18_claims else world())}
    expected = {claim: HOLDS for claim in statuses}
    # §7.3 says both: the curves hard to distinguish, the highest bandwidth at large m
    expected["central-buffer replication: the highest saturation bandwidth at a large m"] = INCONSISTENT
    # §7.5 against §7.3: hardware latency falls with m, so the low m has the highest latency
    expected["the lowest m has the lowest latency, on both system sizes"] = INCONSISTENT
    assert statuses == expected


@pytest.mark.parametrize(
    ("claims", "start", "changes", "expected"),
    [
        (s.fig14_claims, "software multicast latency rises with m", {"SW_CB_15_128_16": {"lat0": 200.0}}, DEVIATES),
        (s.fig14_claims, "software multicast latency rises with m", {"SW_IB_9_128_16": {"sat": 0.5}}, DEVIATES),
        (s.fig14_claims, "hardware multicast latency falls with m", {"HW_IB_6_128_16": {"rise": 2.0}}, DEVIATES),
        (s.fig14_claims, "hardware multicast saturates at a much higher load", {"HW_CB_2_128_16": {"sat": 0.8}}, DEVIATES),
        # HW-CB saturating past the loads run: (1, ∞) over (0.8, 0.85] may be ×1.18 or far more
        (s.fig14_claims, "hardware multicast saturates at a much higher load", {"HW_CB_2_128_16": {"sat": NEVER}, "SW_CB_2_128_16": {"sat": 0.85}}, NOT_JUDGED),
        (s.fig14_claims, "for small m (2, 4, 6) software multicast on central buffers saturates later", {"HW_IB_6_128_16": {"sat": 0.9}}, DEVIATES),
        (s.fig14_claims, "input-FIFO replication performs worse than central-buffer replication", {"HW_IB_15_128_16": {"sat": NEVER, "rise": 0.01}}, DEVIATES),
        (s.fig14_claims, "for large m (9, 15) input-FIFO replication saturates later", {"SW_CB_9_128_16": {"sat": 0.9}}, DEVIATES),
        (s.fig14_claims, "software multicast on input FIFOs performs worse than each", {"SW_IB_9_128_16": {"sat": 0.95, "lat0": 100.0}}, DEVIATES),
        (s.fig14_claims, "at low loads input-FIFO replication performs like", {"HW_IB_6_128_16": {"lat0": 140.0}}, DEVIATES),
        (s.fig14_claims, "input-FIFO replication saturates at visibly lower loads", {"HW_CB_15_128_16": {"sat": 0.85}}, DEVIATES),
        # the same bracket: a visible difference either way is possible
        (s.fig14_claims, "input-FIFO replication saturates at visibly lower loads", {"HW_CB_15_128_16": {"sat": 0.9}}, NOT_JUDGED),
        (s.fig14_claims, "for unicast traffic central buffers saturate at a much higher load", {"UC_IB_1_128_16": {"sat": 0.85}}, DEVIATES),
        (s.fig15_claims, "input-FIFO replication: saturation bandwidth rises with m", {"HW_IB_15_128_16": {"top": 0.4}}, DEVIATES),
        (s.fig15_claims, "software multicast: saturation bandwidth falls with m", {"SW_IB_15_128_16": {"sat": 0.6}}, DEVIATES),
        (s.fig15_claims, "hardware multicast: B_o flat past saturation", {"HW_IB_2_128_16": {"slope": 0.3}}, DEVIATES),
        (s.fig15_claims, "software multicast: B_o keeps rising past saturation", {"SW_IB_2_128_16": {"slope": 0.0}}, DEVIATES),
        (s.fig15_claims, "central-buffer replication: saturation bandwidth hard to tell apart", {"HW_CB_2_128_16": {"top": 0.9}}, DEVIATES),
        (s.fig15_claims, "128-byte messages: central-buffer replication saturates above 0.9", {"HW_CB_2_128_16": {"sat": 0.85}}, DEVIATES),
        (s.fig16_claims, "512 B: 2- and 4-way central-buffer replication saturates below 0.9", {"HW_CB_6_512_16": {"sat": 0.875}}, DEVIATES),
        # saturated at 0.9 exactly: (0.875, 0.9] cannot be told below 0.9 by a visible step
        (s.fig16_claims, "512 B: 2- and 4-way central-buffer replication saturates below 0.9", {"HW_CB_4_512_16": {"sat": 0.9}}, NOT_JUDGED),
        (s.fig16_claims, "input-FIFO replication saturates at lower loads with 512-byte", {"HW_IB_9_512_16": {"sat": 0.9}}, DEVIATES),
        (s.fig16_claims, "software multicast saturates at lower loads with 512-byte", {"SW_CB_2_512_16": {"sat": 0.85}}, DEVIATES),
        (s.fig16_claims, "512 B: software multicast's saturation bandwidth falls with m", {"SW_CB_9_512_16": {"sat": 0.8}}, DEVIATES),
        (s.fig16_claims, "hardware multicast: much lower latency and higher saturation bandwidth", {"HW_CB_4_512_16": {"lat0": 900.0}}, DEVIATES),
        (s.fig16_claims, "central buffers raise hardware multicast's saturation load", {"HW_IB_2_128_16": {"sat": 0.8}, "HW_IB_2_512_16": {"sat": 0.75}, "HW_IB_4_512_16": {"sat": 0.75}, "HW_IB_6_512_16": {"sat": 0.85}, "HW_IB_4_128_16": {"sat": 0.8}, "HW_IB_6_128_16": {"sat": 0.8}}, DEVIATES),
        (s.fig17_claims, "64 nodes: higher latency than 16", {"HW_CB_15_512_64": {"lat0": 150.0}}, DEVIATES),
        (s.fig17_claims, "64 nodes: slightly lower saturation bandwidth", {"HW_CB_2_512_64": {"sat": 0.5}}, DEVIATES),
        (s.fig17_claims, "64 nodes: slightly lower saturation bandwidth", {"HW_CB_6_512_64": {"sat": 0.95}}, DEVIATES),
        (s.fig17_claims, "the lowest m saturates earliest", {"HW_CB_2_512_64": {"sat": 0.9}}, DEVIATES),
        (s.fig19_claims, "m = 6, central buffers: (a) and (b) nearly equal at low loads", {"HW_CB_6_512_16": {"gap": 8.0}}, DEVIATES),
        (s.fig19_claims, "m = 6, central buffers: at higher loads (a) exceeds (b) by almost 60%", {"HW_CB_6_512_16": {"gap": 2.0}}, DEVIATES),
        (s.fig19_claims, "m = 6: the (a)–(b) gap grows faster with input-FIFO", {"HW_IB_6_512_16": {"gap": 0.8}}, DEVIATES),
        (s.fig19_claims, "m = 6: input-FIFO replication's latency grows faster", {"HW_IB_6_512_16": {"rise": 0.05, "lat0": 180.0}}, DEVIATES),
        (s.fig19_claims, "software multicast: always a significant (a)–(b) gap", {}, HOLDS),
        (s.fig19_claims, "m = 6: software multicast on central buffers saturates later than input-FIFO", {"SW_CB_6_512_16": {"sat": 0.4}}, DEVIATES),
        (s.fig19_claims, "m = 15, hardware multicast: (a) and (b) match closely", {"HW_IB_15_512_16": {"gap": 20.0}}, DEVIATES),
        (s.fig19_claims, "hardware multicast's latency varies less", {"HW_CB_6_512_16": {"gap": 20.0}}, DEVIATES),
    ],
)
def test_a_claim_deviates_where_its_statement_says_it_must_not_be(claims: Any, start: str, changes: dict[str, Any], expected: str) -> None:
    assert status(claims, world(**changes), start) == expected


@pytest.mark.parametrize(
    ("start", "kwargs", "expected"),
    [
        ("hardware multicasts perturb the unicasts much less", {"hw": 1.4}, DEVIATES),
        ("a lower combined latency with hardware multicast", {"hw": 1.5, "combined": 1.0}, DEVIATES),
    ],
)
def test_fig18_claims(start: str, kwargs: dict[str, float], expected: str) -> None:
    assert status(s.fig18_claims, bimodal(**kwargs), start) == expected


def test_the_quick_run_reads_every_quantity_wider() -> None:
    """A quick run widens each quantity by its kind's measured spread: with none measured (an empty
    table of spreads), nothing is judged."""
    r = world()
    quick = Results(r.table, {})
    assert {c.status for claims in CLAIMS - {s.fig18_claims} for c in claims(quick)} == {NOT_JUDGED}


def test_quick_deviations_measure_how_far_the_full_run_reaches_beyond_the_quick_one() -> None:
    """Per kind: a curve that saturates a step later in the full run deviates by that step; latencies are
    compared only below the saturation zone, relative to the quick value."""
    full = world().table
    quick = world(SW_CB_2_128_16={"sat": SAT[("SW-CB", 2, 128, 16)] - 0.1}, HW_CB_2_128_16={"lat0": 120.0 / 1.05}).table
    found = s.quick_deviations(quick, full)
    assert found["saturation load"][(16, "SW-CB", 2, 128)] == pytest.approx(0.1)
    assert max(v for k, v in found["saturation load"].items() if k != (16, "SW-CB", 2, 128)) == 0.0
    hw = [v for k, v in found["latency"].items() if k[:4] == (16, "HW-CB", 2, 128)]
    assert hw and max(hw) == pytest.approx(0.05, abs=0.01)  # 5% more in full, less the half-widths
    assert all(k[4] < SAT[("SW-CB", 2, 128, 16)] - 0.1 for k in found["latency"] if k[:4] == (16, "SW-CB", 2, 128))
