"""Claims written in the vocabulary (flitcast/experiments/claim.py): the results reader's quantities (a
saturation load as the bracket the core's flag gives, a latency with its half-width), quick mode's
widening, and a claims table judged through an experiment into claims.csv's columns."""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd
import pytest

from flitcast.experiments.claim import Claim, Results, Spread
from flitcast.experiments.experiment import CLAIM_COLUMNS, Experiment, judge
from flitcast.experiments.verdicts import DEVIATES, HOLDS, INCONSISTENT, NOT_JUDGED, Axis, Measured, lower


def table() -> pd.DataFrame:
    rows = []
    for variant, first_saturated in (("A", 0.6), ("B", 0.9), ("C", None)):
        for load in (0.2, 0.4, 0.6, 0.8, 1.0):
            saturated = first_saturated is not None and load >= first_saturated
            rows.append({"variant": variant, "workload.load": load, "saturated": saturated, "latency_mean": 100.0 + 100 * load, "latency_ci95": 5.0, "latency_dest_mean": 50.0 + 50 * load, "error": ""})
    return pd.DataFrame(rows)


def test_saturation_load_is_the_bracket_of_the_cores_flag() -> None:
    r = Results(table())
    a, c = r.saturation_load(variant="A"), r.saturation_load(variant="C")
    assert (a.low, a.high, str(a)) == (0.4, 0.6, "(0.4, 0.6]")
    assert (c.low, c.high, str(c)) == (1.0, math.inf, "> 1")
    assert r.unsaturated_loads(variant="B") == [0.2, 0.4, 0.6, 0.8]


def test_in_quick_mode_latencies_near_saturation_reach_up_to_infinity() -> None:
    """A quick run's saturation load is known to its spread: the full run may saturate anywhere in the
    quick bracket widened by it, so a latency there may be infinite, and a curve that saturated in the
    quick run may still run in the full one."""
    full = Results(table())
    assert [x for x, _ in full.latency_curve(variant="A")] == [0.2, 0.4]
    quick = Results(table(), {"saturation load": Spread(absolute=0.1), "latency": Spread(relative=0.1)})
    curve = dict(quick.latency_curve(variant="A"))  # bracket (0.4, 0.6] widened to (0.3, 0.7]
    assert list(curve) == [0.2, 0.4, 0.6]
    assert (curve[0.2].low, curve[0.2].high) == pytest.approx((103.0, 137.0))  # 120 ± 5, then ± 12
    assert (curve[0.4].low, curve[0.4].high) == (pytest.approx(121.0), math.inf)
    assert (curve[0.6].low, curve[0.6].high, curve[0.6].unknown) == (0.0, math.inf, True)
    infinite = dict(quick.latency_curve(variant="A", saturated_as_infinite=True))
    assert infinite[1.0].low == math.inf and infinite[0.6].high == math.inf
    assert quick.unsaturated_loads(variant="A") == [0.2]
    # a curve that never saturated may saturate at its last loads in the full run
    assert dict(quick.latency_curve(variant="C"))[1.0].high == math.inf
    # without a measured spread of the saturation load, every latency may be infinite
    assert all(m.high == math.inf for _, m in Results(table(), {"latency": Spread(relative=0.1)}).latency_curve(variant="B"))


def test_a_latency_carries_its_half_width() -> None:
    r = Results(table())
    a = r.latency(variant="A", workload__load=0.4)
    assert (a.value, a.low, a.high) == (140.0, 135.0, 145.0)
    b = r.latency("latency_dest_mean", variant="A", workload__load=0.4)  # (a)'s relative half-width
    assert b.high - b.value == pytest.approx(70.0 * 5.0 / 140.0)


def test_quick_mode_widens_by_kind_and_unbounds_a_kind_it_has_no_spread_for() -> None:
    quick = Results(table(), {"saturation load": Spread(absolute=0.1)})
    a = quick.saturation_load(variant="A")
    assert (a.low, a.high) == pytest.approx((0.3, 0.7))
    latency = quick.latency(variant="A", workload__load=0.4)
    assert latency.low == -math.inf and latency.high == math.inf


LOAD_AXIS = Axis("saturation load", 0.0, 1.0, source="the load's range")


def claims(r: Results) -> list[Claim]:
    a, b, c = (r.saturation_load(variant=v) for v in "ABC")
    return [
        Claim("A saturates before B", "§1", "A saturates earlier than B", lower(a, b, LOAD_AXIS)),
        Claim("B saturates before A", "§2", "B saturates earlier", lower(b, a, LOAD_AXIS), note="measured cause: …"),
        Claim("C saturates before A", "§3", "C saturates earlier", lower(c, a, LOAD_AXIS), inconsistent=("§3: 'C earlier'", "§4: 'C never saturates'")),
        Claim("A saturates before B, to a tenth", "§1", "A saturates earlier than B", lower(a, b, Axis("load", 0.0, 8.0))),
    ]


def experiment() -> Experiment:
    return Experiment("t", "000 test", "Fig. 1", "test", points=lambda quick: [], claims=claims, plot=lambda r, out: None, quick_resolution={"saturation load": Spread(absolute=0.05)})


def test_a_claims_table_is_judged_into_the_columns_of_claims_csv() -> None:
    out = judge(experiment(), table())
    assert list(out.columns) == CLAIM_COLUMNS
    assert out["status"].tolist() == [HOLDS, DEVIATES, INCONSISTENT, HOLDS]
    assert out["study"][0] == "§1: “A saturates earlier than B”"
    assert out["note"][2].startswith("study inconsistent: §3: 'C earlier' against §4: 'C never saturates'")
    assert out["margin"][0] == pytest.approx(0.9 - 0.5 - 0.02)  # midpoints of (0.8, 1.0] and (0.4, 0.6]
    assert out["resolution"][0] == pytest.approx(0.2)
    assert "visible" in out["rule"][0]


def test_quick_mode_judges_the_same_words_on_wider_intervals() -> None:
    out = judge(experiment(), table(), quick=True)
    # ±0.05 more on each bracket: (0.35, 0.65] against (0.75, 1.05] still decides; the last claim's axis
    # is eight times wider (its visible step 0.16), and its margin then falls inside the resolution
    assert out["status"].tolist() == [HOLDS, DEVIATES, INCONSISTENT, NOT_JUDGED]


def test_failed_points_leave_every_claim_unjudged() -> None:
    broken = table()
    broken.loc[0, "error"] = "deadlock"
    out = judge(experiment(), broken)
    assert set(out["status"]) == {NOT_JUDGED}
    assert out["note"][0].startswith("not judged: 1 of 15 points failed")


def test_a_peak_between_loads_reaches_up_to_the_lowest_saturated_load_above_every_sustained_one() -> None:
    rows = [(0.5, 0.5, False), (0.8, 0.8, False), (0.9, 0.75, True), (1.0, 0.7, True)]
    curve = pd.DataFrame([{"variant": "A", "workload.load": x, "accepted_load": a, "saturated": s} for x, a, s in rows])
    r = Results(curve)
    assert (r.peak(variant="A").low, r.peak(variant="A").high) == (0.8, 0.8)  # as measured
    between = r.peak(variant="A", between_loads=True)
    assert (between.value, between.low, between.high, str(between)) == (0.8, 0.8, 0.9, "0.800–0.900")
    # saturated at every load run: ±0.005 about its best accepted load, and up to its lowest load
    flagged = Results(curve.assign(saturated=True)).peak(variant="A", between_loads=True)
    assert (flagged.low, flagged.high) == pytest.approx((0.795, 0.805))
    # a quick run widens it by its kind's spread
    quick = Results(curve, {"peak, 16 nodes": Spread(absolute=0.05)}).peak(variant="A", between_loads=True, kind="peak, 16 nodes")
    assert (quick.low, quick.high) == pytest.approx((0.75, 0.95))


def test_a_deviation_is_how_far_the_full_interval_reaches_beyond_the_quick_one() -> None:
    from flitcast.experiments.quick_resolution import deviations, resolution
    from flitcast.experiments.verdicts import bracket, exact

    quick = {"a": bracket(0.80, 0.90), "b": exact(0.62), "c": bracket(0.5, 0.6), "d": exact(float("nan"))}
    full = {"a": bracket(0.85, 0.88), "b": exact(0.60), "c": bracket(0.55, 0.65), "d": exact(0.3)}
    found = deviations(quick, full)
    assert found == pytest.approx({"a": 0.0, "b": 0.02, "c": 0.05})  # 'd' has no quick value
    assert resolution(found.values()) == pytest.approx(0.1)
    # the quick intervals widened by the largest deviation contain every full one
    assert all(quick[k].widened(0.05).low <= full[k].low and full[k].high <= quick[k].widened(0.05).high for k in found)


def test_a_relative_deviation_is_the_widening_as_a_fraction_of_the_quick_value() -> None:
    from flitcast.experiments.quick_resolution import relative_deviations
    from flitcast.experiments.verdicts import around

    quick = {"a": around(100.0, 5.0), "b": around(200.0, 10.0), "c": Measured(math.nan, math.nan, math.nan)}
    full = {"a": around(108.0, 5.0), "b": around(200.0, 2.0), "c": around(1.0, 0.0)}
    assert relative_deviations(quick, full) == pytest.approx({"a": 0.08, "b": 0.0})  # 113 − 105 = 8 of 100


def test_a_quantity_a_claim_builds_itself_is_widened_as_its_kind() -> None:
    built = Measured(0.5, 0.4, 0.6)
    assert Results(table()).widen(built, "onset") == built
    quick = Results(table(), {"onset": Spread(absolute=0.1)})
    assert (quick.widen(built, "onset").low, quick.widen(built, "onset").high) == pytest.approx((0.3, 0.7))
    assert quick.widen(built, "other").high == math.inf


def test_a_statement_read_in_several_figures_is_counted_once() -> None:
    from flitcast.experiments.claim import statement_status
    from flitcast.report import statement_counts

    assert statement_status([HOLDS, HOLDS]) == HOLDS
    assert statement_status([HOLDS, NOT_JUDGED]) == NOT_JUDGED
    assert statement_status([INCONSISTENT, NOT_JUDGED, HOLDS]) == INCONSISTENT
    assert statement_status([HOLDS, INCONSISTENT, DEVIATES, NOT_JUDGED]) == DEVIATES
    fig3 = pd.DataFrame({"claim": ["ring like bus", "trees below linear"], "status": [HOLDS, HOLDS]})
    fig4 = pd.DataFrame({"claim": ["ring like bus", "losses from 0.2"], "status": [DEVIATES, NOT_JUDGED]})
    assert statement_counts([fig3, fig4]) == {DEVIATES: 1, HOLDS: 1, NOT_JUDGED: 1}


def test_no_text_a_reader_sees_points_into_the_source() -> None:
    # what a claim says (its statement, rule, note, ours) comes from the string literals of the study
    # modules: none names a source file ("the reason is at MUCH in sivaram.py"); docstrings are the developers'
    import ast
    import re

    import flitcast.experiments as package

    pointer = re.compile(r"\b\w+\.py\b")
    found = []
    for path in sorted(Path(package.__file__).parent.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.FunctionDef | ast.ClassDef) and node.body and isinstance(node.body[0], ast.Expr)
        }
        found += [
            f"{path.name}:{node.lineno}: {node.value[:80]!r}"
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings and pointer.search(node.value)
        ]
    assert not found, found
