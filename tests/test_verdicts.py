"""The vocabulary of verdicts (flitcast/experiments/verdicts.py; docs/experiments.md, "Verdicts"): each
word on hand-made values, table-driven, and the properties the rules are argued from — a wider interval
never turns a verdict into its opposite (so a quick run, whose intervals hold the full run's values,
never contradicts it), and for exact values higher, lower and similar split every pair between them."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from flitcast.experiments import verdicts as w
from flitcast.experiments.verdicts import DEVIATES, HOLDS, NOT_JUDGED, Axis, around, bracket, exact

LINEAR = Axis("load", 0.0, 1.0, source="the load's range")  # visible: 0.02
LOG = Axis("latency", 100.0, 10_000.0, log=True)  # visible: 0.02 × ln 100 ≈ 0.092, ×1.097


@pytest.mark.parametrize(
    ("verdict", "status"),
    [
        # higher: by more than the visible 0.02, beyond the intervals
        (w.higher(exact(0.50), exact(0.45), LINEAR), HOLDS),
        (w.higher(exact(0.50), exact(0.49), LINEAR), DEVIATES),  # visibly the same: not higher
        (w.higher(exact(0.45), exact(0.50), LINEAR), DEVIATES),
        (w.higher(around(0.50, 0.04), exact(0.45), LINEAR), NOT_JUDGED),  # 0.05 − 0.02 = 0.03, inside ±0.04: open
        (w.higher(around(0.50, 0.01), exact(0.45), LINEAR), HOLDS),
        (w.lower(exact(0.45), exact(0.50), LINEAR), HOLDS),
        # on a log axis the visible step is a ratio (×1.097)
        (w.lower(exact(300.0), exact(350.0), LOG), HOLDS),
        (w.lower(exact(300.0), exact(320.0), LOG), DEVIATES),
        # similar: within the visible resolution
        (w.similar(exact(0.50), exact(0.51), LINEAR), HOLDS),
        (w.similar(exact(0.50), exact(0.55), LINEAR), DEVIATES),
        (w.similar(around(0.50, 0.01), exact(0.52), LINEAR), NOT_JUDGED),
        # a stated value: the wider of the visible resolution and the stated digits' rounding
        (w.near(exact(0.79), 0.75, LINEAR), DEVIATES),
        (w.near(exact(0.765), 0.75, LINEAR), HOLDS),
        (w.near(exact(0.79), 0.75, LINEAR, rounding=0.05), HOLDS),
        (w.above(exact(0.95), 0.9, LINEAR), HOLDS),
        (w.below(exact(0.85), 0.9, LINEAR), HOLDS),
        # best among several: above each other
        (w.highest("a", {"a": exact(0.9), "b": exact(0.8), "c": exact(0.85)}, LINEAR), HOLDS),
        (w.highest("a", {"a": exact(0.9), "b": exact(0.8), "c": exact(0.89)}, LINEAR), DEVIATES),
        (w.lowest("b", {"a": exact(0.9), "b": exact(0.8), "c": exact(0.85)}, LINEAR), HOLDS),
        # a trend: end to end visible, no visible step back
        (w.increases([(1, exact(0.1)), (2, exact(0.2)), (3, exact(0.19)), (4, exact(0.3))], LINEAR), HOLDS),
        (w.increases([(1, exact(0.1)), (2, exact(0.2)), (3, exact(0.15)), (4, exact(0.3))], LINEAR), DEVIATES),
        (w.increases([(1, exact(0.1)), (2, exact(0.11))], LINEAR), DEVIATES),  # flat to the eye
        (w.decreases([(1, exact(0.3)), (2, exact(0.2)), (3, exact(0.1))], LINEAR), HOLDS),
        (w.nearly_constant([(1, exact(0.50)), (2, exact(0.51)), (3, exact(0.505))], LINEAR), HOLDS),
        (w.nearly_constant([(1, exact(0.50)), (2, exact(0.60))], LINEAR), DEVIATES),
        # a straight line to the eye
        (w.linear([(x, exact(0.1 * x)) for x in range(1, 8)], LINEAR), HOLDS),
        (w.linear([(x, exact(0.01 * x * x)) for x in range(1, 8)], LINEAR), DEVIATES),
        (w.linear([(x, exact(0.5)) for x in range(1, 8)], LINEAR), DEVIATES),  # flat is no rise
        # linear in x on a log axis too: a + b·x is, though curved there; a straight line there is exponential
        (w.linear([(x, exact(300.0 + 500.0 * x)) for x in range(1, 17)], LOG), HOLDS),
        (w.linear([(x, exact(100.0 * 1.3**x)) for x in range(1, 17)], LOG), DEVIATES),
        # a peak then a fall
        (w.peaks([(1, exact(0.3)), (2, exact(0.4)), (3, exact(0.35))], LINEAR), HOLDS),
        (w.peaks([(1, exact(0.3)), (2, exact(0.4)), (3, exact(0.41))], LINEAR), DEVIATES),
        (w.peaks([(1, exact(0.3)), (2, exact(0.4)), (3, exact(0.395))], LINEAR), DEVIATES),  # no visible fall
        # factors
        (w.much_higher(exact(0.9), exact(0.7)), HOLDS),  # ×1.29 ≥ 1.2
        (w.much_higher(exact(0.9), exact(0.8)), DEVIATES),  # ×1.125
        (w.at_least_factor(exact(3.3), exact(1.0), 3.29), HOLDS),
        (w.at_least_factor(exact(2.0), exact(1.0), 3.29), DEVIATES),
        (w.not_much_different(exact(0.8), exact(0.9)), HOLDS),
        (w.not_much_different(exact(0.6), exact(0.9)), DEVIATES),
        (w.slightly_higher(exact(0.95), exact(0.90), LINEAR), HOLDS),
        (w.slightly_higher(exact(0.95), exact(0.60), LINEAR), DEVIATES),
        (w.slightly_higher(exact(0.95), exact(0.945), LINEAR), DEVIATES),
        # saturation loads as brackets: (0.5, 0.6] against (0.7, 0.8] is earlier; against (0.6, 0.7] open
        (w.lower(bracket(0.5, 0.6), bracket(0.7, 0.8), LINEAR), HOLDS),
        (w.lower(bracket(0.5, 0.6), bracket(0.6, 0.7), LINEAR), NOT_JUDGED),
        (w.lower(bracket(0.5, 0.6), bracket(1.0, math.inf), LINEAR), HOLDS),  # never saturated in its loads
        (w.higher(bracket(0.5, 0.6), bracket(1.0, math.inf), LINEAR), DEVIATES),
    ],
)
def test_each_word(verdict: w.Verdict, status: str) -> None:
    assert verdict.status == status, verdict


def test_combining_checks() -> None:
    held, failed, open_ = w.higher(exact(0.5), exact(0.4), LINEAR), w.higher(exact(0.4), exact(0.5), LINEAR), w.similar(around(0.5, 0.01), exact(0.52), LINEAR)
    assert w.every([held, held]).status == HOLDS
    assert w.every([held, open_]).status == NOT_JUDGED
    assert w.every([held, open_, failed]).status == DEVIATES
    assert w.every([held, failed]).margin == failed.margin
    assert w.any_of([failed, held]).status == HOLDS
    assert w.any_of([failed, open_]).status == NOT_JUDGED
    assert w.any_of([failed, failed]).status == DEVIATES
    assert w.negated(held, "not higher").status == DEVIATES
    assert w.negated(open_, "not similar").status == NOT_JUDGED
    assert w.every([]).status == NOT_JUDGED


def test_a_margin_is_in_the_claims_units_and_says_its_resolution() -> None:
    v = w.higher(around(0.60, 0.01), around(0.50, 0.01), LINEAR)
    assert v.margin == pytest.approx(0.10 - 0.02)  # the gap beyond the visible 0.02
    assert v.resolution == pytest.approx(0.02)  # both half-widths
    assert v.status == HOLDS and v.holds is True
    log = w.lower(exact(300.0), exact(350.0), LOG)
    assert log.margin == pytest.approx(math.log(350 / 300) - 0.02 * math.log(100))  # a log axis: ln of a ratio


def test_an_unmeasured_quantity_is_not_judged() -> None:
    nan = w.Measured(math.nan, math.nan, math.nan)
    for verdict in (w.higher(nan, exact(0.5), LINEAR), w.similar(nan, exact(0.5), LINEAR), w.much_higher(nan, exact(0.5))):
        assert verdict.status == NOT_JUDGED and verdict.holds is None
    # on a log axis too: an unknown value is not a value below every other
    for verdict in (w.lower(nan, exact(300.0), LOG), w.higher(exact(300.0), nan, LOG), w.near(nan, 300.0, LOG)):
        assert verdict.status == NOT_JUDGED and verdict.holds is None


def test_axes() -> None:
    assert LINEAR.visible == pytest.approx(0.02)
    assert math.exp(LOG.visible) == pytest.approx(100 ** 0.02)
    panel = w.panel_axis("latency", [120.0, 3_000.0, math.nan, math.inf], log=True)
    assert (panel.low, panel.high) == (120.0, 3_000.0)
    assert w.panel_axis("throughput", [0.2, 0.6]).low == 0.0
    with pytest.raises(ValueError, match="not an axis"):
        Axis("x", 1.0, 1.0)
    with pytest.raises(ValueError, match="outside"):
        w.Measured(2.0, 0.0, 1.0)


values = st.floats(min_value=0.01, max_value=1_000.0, allow_nan=False)
widths = st.floats(min_value=0.0, max_value=100.0, allow_nan=False)


def _words(a: w.Measured, b: w.Measured) -> list[w.Verdict]:
    axis = Axis("x", 0.0, 1_000.0)
    log = Axis("x", 0.01, 1_000.0, log=True)
    return [
        w.higher(a, b, axis),
        w.lower(a, b, log),
        w.similar(a, b, axis),
        w.near(a, b.value, log),
        w.much_higher(a, b),
        w.not_much_different(a, b),
        w.slightly_higher(a, b, axis),
        w.increases([(1, a), (2, b), (3, a)], axis),
        w.nearly_constant([(1, a), (2, b)], log),
        w.peaks([(1, b), (2, a), (3, b)], axis),
    ]


@given(values, values, widths, widths, widths, widths)
def test_a_wider_interval_never_reverses_a_verdict(x: float, y: float, ha: float, hb: float, more_a: float, more_b: float) -> None:
    """Quick mode's guarantee: widening the intervals (a quick run's resolution, which holds the full
    run's value) leaves a verdict as it was or makes it not judged — never the opposite."""
    a, b = around(x, min(ha, x / 2)), around(y, min(hb, y / 2))
    wide_a, wide_b = a.widened(min(more_a, a.low / 2)), b.widened(min(more_b, b.low / 2))
    for narrow, wide in zip(_words(a, b), _words(wide_a, wide_b), strict=True):
        assert wide.status in (narrow.status, NOT_JUDGED), (narrow, wide)


@given(values, values)
def test_exact_values_split_between_higher_lower_and_similar(x: float, y: float) -> None:
    """For exact values each pair is one of higher, lower, similar (or on a boundary: none holds)."""
    axis = Axis("x", 0.0, 1_000.0)
    held = [v.status == HOLDS for v in (w.higher(exact(x), exact(y), axis), w.lower(exact(x), exact(y), axis), w.similar(exact(x), exact(y), axis))]
    assert sum(held) <= 1
    if abs(abs(x - y) - axis.visible) > 1e-9:
        assert sum(held) == 1


def _c(*values: float) -> list[tuple[float, w.Measured]]:
    return [(0.1 * (i + 1), exact(v)) for i, v in enumerate(values)]


@pytest.mark.parametrize(
    ("verdict", "status"),
    [
        # curves that meet at light load and part later: one below the other
        (w.curve_lower(_c(100, 110, 150), _c(101, 140, 300), LOG), HOLDS),
        # a visible crossing contradicts it
        (w.curve_lower(_c(100, 200, 150), _c(150, 140, 300), LOG), DEVIATES),
        # together everywhere: not below
        (w.curve_lower(_c(100, 110, 150), _c(101, 111, 151), LOG), DEVIATES),
        (w.curve_higher(_c(0.5, 0.6), _c(0.4, 0.5), LINEAR), HOLDS),
        # a family falling with its parameter: no curve visibly above the one before, last below first somewhere
        (w.curves_decrease([(2, _c(100, 200, 400)), (4, _c(100, 180, 300)), (6, _c(101, 150, 250))], LOG), HOLDS),
        (w.curves_decrease([(2, _c(100, 200, 400)), (4, _c(100, 250, 300)), (6, _c(101, 150, 250))], LOG), DEVIATES),
        (w.curves_increase([(2, _c(100, 200)), (4, _c(100, 300))], LOG), HOLDS),
    ],
)
def test_curve_words(verdict: w.Verdict, status: str) -> None:
    assert verdict.status == status, verdict


def test_light_loads_are_the_flat_part_of_a_curve() -> None:
    assert w.light_loads(_c(100, 105, 109, 130, 400), LOG) == pytest.approx([0.1, 0.2, 0.3])
