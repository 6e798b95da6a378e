"""One vocabulary of verdicts: each word the studies use, mapped to one test (docs/experiments.md,
"Verdicts", argues every rule; this module is that page in code).

A verdict compares what we measured with what the study's sentence says, on the axis of the figure the
sentence reads. Two numbers decide it:

- the **visible resolution** of that axis, :data:`VISIBLE` of its span (of its decades on a log axis):
  the smallest difference a reader of the figure can see. It is part of the words' meaning: "higher"
  is higher by at least that much, "similar" within it;
- the **uncertainty** of the measurement: every measured quantity is an interval (a 95% confidence
  interval, the bracket between two loads a saturation or a peak lies in, or a point for an exact
  value). A verdict holds only if the whole interval of what it tests lies on the sentence's side of
  the threshold, deviates only if the whole interval lies on the other side, and is **not judged**
  otherwise: its margin is inside the resolution.

Every verdict carries its ``margin`` — how far the tested quantity lies beyond its threshold, in the
claim's own units (the axis's units on a linear axis; the natural log of a ratio on a log axis, which is
about the relative difference), positive on the sentence's side — and the ``resolution`` it used: the
half-width of the tested quantity's interval. ``status`` is ``holds`` if margin > resolution,
``deviates`` if margin < −resolution, else ``not judged``.

Words: :func:`higher`, :func:`lower`, :func:`highest`, :func:`lowest` (best / worst), :func:`similar`
(comparable, the same, identical), :func:`nearly_constant` (flat), :func:`increases`,
:func:`decreases` (a trend), :func:`linear`, :func:`much_higher`, :func:`much_lower` (much,
significantly, greatly: a factor), :func:`slightly_higher` (slightly, marginally, negligibly),
:func:`not_much_different` (no significant difference, hardly), :func:`above`, :func:`below`
(a stated value), :func:`near` (a stated value read off the figure), :func:`at_least_factor`
(a factor of N, N% more), :func:`peaks` (rises to a maximum, then falls). Saturation is the core's
``saturated`` flag (one rule for every study: the load is not accepted and the backlog grows), read as
the bracket a curve's saturation load lies in (:func:`saturation_load`); "saturates earlier / later /
at" are :func:`lower` / :func:`higher` / :func:`near` on that bracket. Where a sentence compares curves
and names no load, :func:`curve_lower`, :func:`curve_higher`, :func:`curves_increase` and
:func:`curves_decrease` read the curves as drawn; :func:`light_loads` is "low loads" where the study gives
no number. :func:`every` and :func:`any_of` combine checks of one statement (one claim with several
checks).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

__all__ = [
    "DEVIATES",
    "HOLDS",
    "INCONSISTENT",
    "NOT_JUDGED",
    "SIGNIFICANT",
    "VISIBLE",
    "Axis",
    "Measured",
    "Verdict",
    "above",
    "any_of",
    "around",
    "at_least_factor",
    "below",
    "bracket",
    "curve_higher",
    "curve_lower",
    "curves_decrease",
    "curves_increase",
    "decide",
    "decreases",
    "difference",
    "every",
    "exact",
    "higher",
    "highest",
    "increases",
    "labelled",
    "light_loads",
    "linear",
    "lower",
    "lowest",
    "much_higher",
    "much_lower",
    "near",
    "nearly_constant",
    "negated",
    "not_much_different",
    "panel_axis",
    "peaks",
    "ratio",
    "scaled",
    "similar",
    "slightly_higher",
]

HOLDS, DEVIATES, INCONSISTENT, NOT_JUDGED = "holds", "deviates", "study inconsistent", "not judged"

#: The visible resolution of a figure, as a fraction of its axis's span (of its decades on a log axis).
#: The studies' figures are single-column plots about 5 cm tall with markers of 1.5–2 mm: two points
#: closer than a millimetre overlap, and a reader places a value to about that, a fiftieth of the axis
#: (docs/experiments.md, "Verdicts").
VISIBLE = 0.02

#: "much", "significantly", "greatly", "poorly", when the study gives no factor: the ratio between the
#: gaps study 002 names in one paragraph with its own numbers — "slightly worse" for 0.92 against 0.99
#: (×1.076) and "performs poorly" for 0.75 against 0.99 (×1.32) — taken at their geometric mean, 1.19,
#: rounded to 1.2 (docs/experiments.md, "Verdicts").
SIGNIFICANT = 1.2


@dataclass(frozen=True)
class Measured:
    """A measured quantity: its value and the interval [low, high] the true value lies in (a 95%
    confidence interval, a bracket between two loads, or the value itself when exact). ``high`` may be
    infinite: a curve that never saturated in its loads saturates somewhere above the highest."""

    value: float
    low: float
    high: float
    #: how ``ours`` shows it ("0.93", "(0.6, 0.7]"); empty: the value to three significant digits
    shown: str = ""

    def __post_init__(self) -> None:
        if not (self.low <= self.value <= self.high) and not math.isnan(self.value):
            raise ValueError(f"measured value {self.value} outside its interval [{self.low}, {self.high}]")

    def __str__(self) -> str:
        return self.shown or _number(self.value)

    @property
    def unknown(self) -> bool:
        """No value: the point did not run or the quantity was not reached (NaN)."""
        return math.isnan(self.value)

    def widened(self, absolute: float = 0.0, relative: float = 0.0) -> Measured:
        """The same value with its interval widened on both sides by ``absolute`` plus ``relative`` of the
        value (a quick run's resolution, docs/experiments.md "Quick mode")."""
        pad = absolute + (relative * abs(self.value) if relative else 0.0)  # (0 × ∞ is no pad)
        return replace(self, low=self.low - pad, high=self.high + pad)


def exact(value: float, shown: str = "") -> Measured:
    """A value known exactly: a deterministic count, a closed batch's completion, the model's output."""
    return Measured(float(value), float(value), float(value), shown)


def around(value: float, half_width: float, shown: str = "") -> Measured:
    """A value with its 95% confidence half-width (a latency's batch means; 0 or NaN: exact)."""
    hw = 0.0 if half_width is None or math.isnan(half_width) else abs(float(half_width))
    return Measured(float(value), float(value) - hw, float(value) + hw, shown)


def bracket(low: float, high: float, shown: str = "", value: float | None = None) -> Measured:
    """A value known to lie in [low, high]: a saturation load between the last load sustained and the
    first saturated one, a peak between the loads run. Its value is the midpoint (``low`` if ``high`` is
    infinite) unless given."""
    if value is None:
        value = low if math.isinf(high) else (low + high) / 2
    return Measured(float(value), float(low), float(high), shown)


def difference(a: Measured, b: Measured, shown: str = "") -> Measured:
    """a − b as an interval (a latency's rise, a perturbation)."""
    return Measured(a.value - b.value, a.low - b.high, a.high - b.low, shown)


def ratio(a: Measured, b: Measured, shown: str = "") -> Measured:
    """a / b as an interval (both positive; NaN where b may be 0)."""
    r = _ratio(a, b)
    return Measured(r.value, r.low, r.high, shown) if not r.unknown else r


def scaled(a: Measured, factor: float) -> Measured:
    """``factor`` × a (a stated ratio applied to a measured value)."""
    low, high = sorted((a.low * factor, a.high * factor))
    return Measured(a.value * factor, low, high)


@dataclass(frozen=True)
class Axis:
    """The axis a figure shows a quantity on: its span (low, high), linear or log, and where the span
    comes from — the study's own axis where its text keeps the ticks, the quantity's natural range (a
    load: 0–1 of the link rate), or the axis of our own panel of the figure (docs/experiments.md,
    "Verdicts": the studies' figures are lost, so most spans are ours)."""

    label: str
    low: float
    high: float
    log: bool = False
    source: str = "our panel's axis"

    def __post_init__(self) -> None:
        if not self.high > self.low or (self.log and self.low <= 0):
            raise ValueError(f"axis {self.label!r}: span ({self.low}, {self.high}) is not an axis{' (log: needs 0 < low)' if self.log else ''}")

    def at(self, x: float) -> float:
        """Where ``x`` lies on the axis, in its units (natural log of ``x`` on a log axis)."""
        if not self.log or math.isnan(x):  # (an unknown value stays unknown: not judged, never −∞)
            return x
        return math.log(x) if x > 0 else -math.inf

    @property
    def visible(self) -> float:
        """The visible resolution, in the axis's units."""
        return VISIBLE * (self.at(self.high) - self.at(self.low))

    def describe(self) -> str:
        span = f"{_number(self.low)}–{_number(self.high)}{' (log)' if self.log else ''}"
        return f"{self.label} {span}, {self.source}"


def panel_axis(label: str, values: Iterable[float], log: bool = False, source: str = "our panel's axis") -> Axis:
    """The axis our own panel draws for these values: 0 to their largest on a linear axis, their smallest
    to their largest on a log axis (the studies' figures are lost: docs/experiments.md, "Verdicts")."""
    finite = [float(v) for v in values if v is not None and math.isfinite(float(v)) and (not log or float(v) > 0)]
    if not finite:
        raise ValueError(f"axis {label!r}: no finite value to span")
    low, high = (min(finite), max(finite)) if log else (min(0.0, *finite), max(finite))
    if high <= low:  # one value: an axis a decade (log) or the value itself (linear) wide around it
        low, high = (low / math.sqrt(10), high * math.sqrt(10)) if log else (low - abs(low or 1.0), high + abs(high or 1.0))
    return Axis(label, low, high, log, source)


@dataclass(frozen=True)
class Verdict:
    """What one check (or a claim's checks together) found."""

    status: str
    #: how far the tested quantity lies beyond its threshold, on the sentence's side when positive, in the
    #: claim's units; None where nothing could be computed (a point missing)
    margin: float | None
    #: the half-width of the tested quantity's interval: a margin within it is not judged
    resolution: float | None
    #: what we measured, one number or a short phrase
    ours: str
    #: the rule in words, with its threshold
    rule: str
    #: the checks this verdict combines (empty for a single check)
    parts: tuple[Verdict, ...] = field(default=(), repr=False)
    #: the interval the margin lies in (not always centred on it: a gap's distance from a threshold is
    #: not); None where nothing could be computed
    interval: tuple[float, float] | None = None

    @property
    def holds(self) -> bool | None:
        return {HOLDS: True, DEVIATES: False}.get(self.status)


def decide(low: float, high: float, nominal: float, ours: str, rule: str) -> Verdict:
    """The verdict on a tested quantity known to lie in [low, high] (its threshold subtracted: positive is
    the sentence's side): holds if all of it is positive, deviates if all of it is negative."""
    if any(math.isnan(x) for x in (low, high, nominal)):
        return Verdict(NOT_JUDGED, None, None, ours, rule + "; not judged: a quantity it reads was not measured")
    status = HOLDS if low > 0 else DEVIATES if high < 0 else NOT_JUDGED
    # (an interval whose ends are the same infinity is that value exactly: a saturated latency)
    resolution = 0.0 if low == high else (high - low) / 2
    return Verdict(status, nominal, resolution, ours, rule, interval=(low, high))


# --- comparisons of two values --------------------------------------------------------------------------


def _gap(a: Measured, b: Measured, axis: Axis) -> tuple[float, float, float]:
    """a − b on the axis: (lowest, highest, nominal)."""
    return axis.at(a.low) - axis.at(b.high), axis.at(a.high) - axis.at(b.low), axis.at(a.value) - axis.at(b.value)


def higher(a: Measured, b: Measured, axis: Axis, ours: str = "") -> Verdict:
    """``a`` above ``b`` by at least the figure's visible resolution (the sentence's "higher", "more",
    "outperforms" for a throughput, "longer", "later")."""
    low, high, nominal = _gap(a, b, axis)
    v = axis.visible
    return decide(low - v, high - v, nominal - v, ours or f"{a} vs {b}", f"higher by more than the visible {_units(v, axis)} ({axis.describe()})")


def lower(a: Measured, b: Measured, axis: Axis, ours: str = "") -> Verdict:
    """``a`` below ``b`` by at least the visible resolution ("lower", "less", "faster" for a latency,
    "earlier")."""
    verdict = higher(b, a, axis, ours or f"{a} vs {b}")
    return replace(verdict, rule=verdict.rule.replace("higher by", "lower by", 1))


def similar(a: Measured, b: Measured, axis: Axis, ours: str = "") -> Verdict:
    """``a`` and ``b`` within the visible resolution of each other ("similar", "comparable", "the same",
    "identical", "more or less the same", "alike")."""
    low, high, nominal = _gap(a, b, axis)
    v = axis.visible
    # |gap| ≤ v: the margin is v − |gap|, whose extremes over the gap's interval are:
    far = max(abs(low), abs(high))
    near_ = 0.0 if low <= 0 <= high else min(abs(low), abs(high))
    return decide(v - far, v - near_, v - abs(nominal), ours or f"{a} vs {b}", f"within the visible {_units(v, axis)} ({axis.describe()})")


def near(x: Measured, stated: float, axis: Axis, ours: str = "", rounding: float = 0.0) -> Verdict:
    """``x`` is the study's stated value, as read off its figure: within the visible resolution, or within
    half the last digit the study states (``rounding``: 0.005 for "0.75"), whichever is wider."""
    v = max(axis.visible, axis.at(stated + rounding) - axis.at(stated) if rounding else 0.0)
    low, high, nominal = axis.at(x.low) - axis.at(stated), axis.at(x.high) - axis.at(stated), axis.at(x.value) - axis.at(stated)
    far = max(abs(low), abs(high))
    near_ = 0.0 if low <= 0 <= high else min(abs(low), abs(high))
    return decide(v - far, v - near_, v - abs(nominal), ours or str(x), f"the stated {_number(stated)} within {_units(v, axis)} ({axis.describe()})")


def above(x: Measured, stated: float, axis: Axis, ours: str = "") -> Verdict:
    """``x`` above a value the study states ("over 90%", "higher than 0.9"): beyond it by the visible
    resolution."""
    return higher(x, exact(stated), axis, ours or str(x))


def below(x: Measured, stated: float, axis: Axis, ours: str = "") -> Verdict:
    """``x`` below a value the study states ("before 0.9")."""
    return lower(x, exact(stated), axis, ours or str(x))


# --- one among several -----------------------------------------------------------------------------------


def highest(name: str, values: Mapping[str, Measured], axis: Axis, ours: str = "") -> Verdict:
    """``values[name]`` above every other ("best" for a throughput, "worst" for a latency)."""
    others = {k: v for k, v in values.items() if k != name}
    parts = [higher(values[name], v, axis, f"{name} {values[name]} vs {k} {v}") for k, v in others.items()]
    return every(parts, ours or _listing(values), f"{name} the highest")


def lowest(name: str, values: Mapping[str, Measured], axis: Axis, ours: str = "") -> Verdict:
    """``values[name]`` below every other ("best" for a latency, "worst" for a throughput)."""
    others = {k: v for k, v in values.items() if k != name}
    parts = [lower(values[name], v, axis, f"{name} {values[name]} vs {k} {v}") for k, v in others.items()]
    return every(parts, ours or _listing(values), f"{name} the lowest")


# --- curves ------------------------------------------------------------------------------------------------

Curve = Sequence[tuple[float, Measured]]


def curve_lower(a: Curve, b: Curve, axis: Axis, ours: str = "") -> Verdict:
    """Curve ``a`` lies below curve ``b`` where the sentence names no load ("HW latency is lower than SW
    latency"): at every x both have, ``a`` is not visibly above ``b``, and at some x it is visibly below.
    (Curves that meet within the visible resolution, as latency curves do at light load, do not
    contradict it; a visible crossing does.)"""
    return _curve_order(b, a, axis, ours, "below")


def curve_higher(a: Curve, b: Curve, axis: Axis, ours: str = "") -> Verdict:
    """Curve ``a`` lies above curve ``b`` (as :func:`curve_lower`, mirrored)."""
    return _curve_order(a, b, axis, ours, "above")


def _curve_order(top: Curve, bottom: Curve, axis: Axis, ours: str, word: str) -> Verdict:
    at_bottom = dict(bottom)
    # (where both are saturated — infinite latency — neither is on the figure: no comparison there)
    pairs = [(x, t, at_bottom[x]) for x, t in sorted(top, key=lambda p: p[0]) if x in at_bottom and not (math.isinf(t.value) and math.isinf(at_bottom[x].value))]
    shown = ours
    if not pairs:
        return Verdict(NOT_JUDGED, None, None, shown, f"a curve {word} another: not judged, no x both have")
    def at(x: float, t: Measured, b: Measured) -> str:
        return f"at {_number(x)}: {t if word == 'above' else b} vs {b if word == 'above' else t}"

    never = [negated(higher(b, t, axis, at(x, t, b)), "not visibly crossed") for x, t, b in pairs]
    somewhere = any_of([higher(t, b, axis, at(x, t, b)) for x, t, b in pairs], rule="visibly apart at some x")
    return every([*never, somewhere], shown, f"one curve {word} the other: never visibly crossed, visibly apart somewhere ({axis.describe()})")


def curves_increase(family: Sequence[tuple[float, Curve]], axis: Axis, ours: str = "") -> Verdict:
    """A family of curves rises with its parameter ("latency increases with m", the sentence naming no
    load): no curve visibly below the one before it at any x, and the last visibly above the first
    somewhere (the trend rule, curve by curve)."""
    return _curves_trend(family, axis, ours, up=True)


def curves_decrease(family: Sequence[tuple[float, Curve]], axis: Axis, ours: str = "") -> Verdict:
    """A family of curves falls with its parameter (as :func:`curves_increase`, mirrored)."""
    return _curves_trend(family, axis, ours, up=False)


def _curves_trend(family: Sequence[tuple[float, Curve]], axis: Axis, ours: str, up: bool) -> Verdict:
    members = sorted(family, key=lambda f: f[0])
    word = "increases" if up else "decreases"
    if len(members) < 2:
        return Verdict(NOT_JUDGED, None, None, ours, f"a family that {word}: not judged, fewer than two curves")
    parts = []
    for (p0, earlier), (p1, later) in itertools.pairwise(members):
        at_earlier = dict(earlier)
        for x, m in later:
            if x in at_earlier:
                shown = f"{_number(p0)} vs {_number(p1)} at {_number(x)}: {at_earlier[x]} vs {m}"
                step = higher(at_earlier[x], m, axis, shown) if up else higher(m, at_earlier[x], axis, shown)
                parts.append(negated(step, "no step back"))
    first, last = dict(members[0][1]), members[-1][1]
    first_p, last_p = members[0][0], members[-1][0]

    def end(x: float, m: Measured) -> Verdict:  # the end the trend goes to, above the one it leaves
        (pa, a), (pb, b) = ((last_p, m), (first_p, first[x])) if up else ((first_p, first[x]), (last_p, m))
        return higher(a, b, axis, f"{_number(pa)} vs {_number(pb)} at {_number(x)}: {a} vs {b}")

    ends = [end(x, m) for x, m in last if x in first]
    parts.append(any_of(ends, rule="first and last visibly apart somewhere"))
    return every(parts, ours, f"a family of curves that {word} ({axis.describe()})")


def light_loads(curve: Curve, axis: Axis) -> list[float]:
    """The loads where a latency curve is still within the visible resolution of its value at its
    lightest load: the flat part a reader of the figure sees as "low loads" where the study gives no
    number (docs/experiments.md, "Verdicts")."""
    points = sorted(curve, key=lambda p: p[0])
    if not points:
        return []
    base = axis.at(points[0][1].value)
    return [x for x, m in points if abs(axis.at(m.value) - base) <= axis.visible]


# --- shapes of a curve -----------------------------------------------------------------------------------


def increases(curve: Sequence[tuple[float, Measured]], axis: Axis, ours: str = "") -> Verdict:
    """A trend up along x: the change from the first point to the last is above the visible resolution,
    and no step between neighbours goes down by more than it ("increases with", "grows", "the larger …
    the better")."""
    return _trend(curve, axis, ours, up=True)


def decreases(curve: Sequence[tuple[float, Measured]], axis: Axis, ours: str = "") -> Verdict:
    """A trend down along x (as :func:`increases`, mirrored)."""
    return _trend(curve, axis, ours, up=False)


def _trend(curve: Sequence[tuple[float, Measured]], axis: Axis, ours: str, up: bool) -> Verdict:
    points = sorted(curve, key=lambda p: p[0])
    word = "increases" if up else "decreases"
    shown = ours or ", ".join(f"{_number(x)}: {m}" for x, m in points)
    if len(points) < 2:
        return Verdict(NOT_JUDGED, None, None, shown, f"{word}: not judged, fewer than two points")

    def rise(a: Measured, b: Measured) -> Measured:  # b − a in the trend's direction, as an interval
        low, high, nominal = _gap(b, a, axis) if up else _gap(a, b, axis)
        return Measured(nominal, low, high)

    v = axis.visible
    end = rise(points[0][1], points[-1][1])
    parts = [decide(end.low - v, end.high - v, end.value - v, f"{_number(points[0][0])} → {_number(points[-1][0])}", f"end to end above the visible {_units(v, axis)}")]
    for (x0, m0), (x1, m1) in itertools.pairwise(points):
        step = rise(m0, m1)
        parts.append(decide(step.low + v, step.high + v, step.value + v, f"{_number(x0)} → {_number(x1)}", f"no step back by more than {_units(v, axis)}"))
    return every(parts, shown, f"{word} ({axis.describe()})")


def nearly_constant(curve: Sequence[tuple[float, Measured]], axis: Axis, ours: str = "") -> Verdict:
    """Every point within the visible resolution of every other ("nearly constant", "flat", "constant",
    "independent of")."""
    values = [m for _, m in curve]
    shown = ours or (f"{min(values, key=lambda m: m.value)}–{max(values, key=lambda m: m.value)}" if values else "")
    if len(values) < 2:
        return Verdict(NOT_JUDGED, None, None, shown, "nearly constant: not judged, fewer than two points")
    top = max(values, key=lambda m: m.value)
    bottom = min(values, key=lambda m: m.value)
    return replace(similar(top, bottom, axis, shown), rule=f"max − min within the visible {_units(axis.visible, axis)} ({axis.describe()})")


def linear(curve: Sequence[tuple[float, Measured]], axis: Axis, ours: str = "") -> Verdict:
    """Linear in x ("linearly increasing", "linear"): every point within the visible resolution of the
    least-squares line y = a + b·x through them, and the line not flat (its rise end to end above the
    visible resolution). The line is fitted to the values; on a log axis each point's distance from it,
    and its rise, are read as the figure shows them (ratios): a straight line on a log axis is
    exponential growth, not linear."""
    points = sorted((x, m) for x, m in curve)
    shown = ours or ", ".join(f"{_number(x)}: {m}" for x, m in points)
    if len(points) < 3:
        return Verdict(NOT_JUDGED, None, None, shown, "linear: not judged, fewer than three points")
    xs = [x for x, _ in points]
    values = [m.value for _, m in points]
    n = len(xs)
    mx, my = sum(xs) / n, sum(values) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, values, strict=True)) / sxx

    def line(x: float) -> float:  # on the axis
        return axis.at(my + slope * (x - mx))

    v = axis.visible
    parts = []
    for x, m in points:
        dev_low, dev_high, dev = axis.at(m.low) - line(x), axis.at(m.high) - line(x), axis.at(m.value) - line(x)
        far = max(abs(dev_low), abs(dev_high))
        near_ = 0.0 if dev_low <= 0 <= dev_high else min(abs(dev_low), abs(dev_high))
        parts.append(decide(v - far, v - near_, v - abs(dev), f"{_number(x)}: {m}", f"within {_units(v, axis)} of the line"))
    rise = abs(line(xs[-1]) - line(xs[0]))
    parts.append(decide(rise - v, rise - v, rise - v, f"rise {_units(rise, axis)}", f"a rise above the visible {_units(v, axis)}"))
    return every(parts, shown, f"a straight line to within the visible resolution ({axis.describe()})")


def peaks(curve: Sequence[tuple[float, Measured]], axis: Axis, ours: str = "") -> Verdict:
    """The curve "reaches a maximum and then decreases": its highest point is not its last, and the last
    lies below the highest by more than the visible resolution."""
    points = sorted(curve, key=lambda p: p[0])
    shown = ours or ", ".join(f"{_number(x)}: {m}" for x, m in points)
    if len(points) < 3:
        return Verdict(NOT_JUDGED, None, None, shown, "peaks: not judged, fewer than three points")
    # (the last point against the highest before it: a point is not compared with itself)
    top_x, top = max(points[:-1], key=lambda p: p[1].value)
    verdict = higher(top, points[-1][1], axis, shown)
    return replace(verdict, rule=f"falls from its maximum before the end (at {_number(top_x)}) to its last point by more than the visible {_units(axis.visible, axis)} ({axis.describe()})")


# --- factors ----------------------------------------------------------------------------------------------


def _ratio(a: Measured, b: Measured) -> Measured:
    """a / b as an interval (both positive)."""
    if b.low <= 0 or a.low < 0:
        return Measured(math.nan, math.nan, math.nan)
    return Measured(a.value / b.value, a.low / b.high, a.high / b.low if b.low > 0 else math.inf)


def at_least_factor(a: Measured, b: Measured, factor: float, ours: str = "") -> Verdict:
    """``a`` / ``b`` at least ``factor`` (the study's "a factor of 2", "more than 30%" = 1.3). The
    margin is ln(a / b) − ln(factor): about the relative excess."""
    r = _ratio(a, b)
    shown = ours or f"×{_number(r.value)}"
    if r.unknown:
        return Verdict(NOT_JUDGED, None, None, shown, f"a ratio of at least {_number(factor)}: not judged, no ratio")
    t = math.log(factor)
    return decide(_log(r.low) - t, _log(r.high) - t, _log(r.value) - t, shown, f"a ratio of at least {_number(factor)}")


def much_higher(a: Measured, b: Measured, factor: float = SIGNIFICANT, ours: str = "") -> Verdict:
    """``a`` at least ``factor`` times ``b`` ("much higher", "significantly better", "greatly
    improves"; the study's own factor where it gives one, else :data:`SIGNIFICANT`)."""
    return at_least_factor(a, b, factor, ours)


def much_lower(a: Measured, b: Measured, factor: float = SIGNIFICANT, ours: str = "") -> Verdict:
    """``b`` at least ``factor`` times ``a`` ("much lower")."""
    return at_least_factor(b, a, factor, ours)


def not_much_different(a: Measured, b: Measured, factor: float = SIGNIFICANT, ours: str = "") -> Verdict:
    """Neither at ``factor`` times the other ("no significant difference", "hardly", "only
    marginally"): the larger over the smaller below ``factor``."""
    big, small = (a, b) if a.value >= b.value else (b, a)
    r = _ratio(big, small)
    shown = ours or f"×{_number(r.value)}"
    if r.unknown:
        return Verdict(NOT_JUDGED, None, None, shown, f"a ratio below {_number(factor)}: not judged, no ratio")
    t = math.log(factor)
    # (where the intervals overlap the order may be either way: the larger over the smaller lies in
    # [1, the wider of the two ratios])
    most = max(r.high, 1 / r.low if r.low > 0 else math.inf)
    least = max(r.low, 1.0)
    return decide(t - _log(most), t - _log(least), t - _log(r.value), shown, f"the larger over the smaller below {_number(factor)}")


def slightly_higher(a: Measured, b: Measured, axis: Axis, factor: float = SIGNIFICANT, ours: str = "") -> Verdict:
    """``a`` visibly above ``b`` but not by ``factor`` ("slightly better", "marginally worse" read from
    the other side, "negligibly")."""
    shown = ours or f"{a} vs {b}"
    return every([higher(a, b, axis, shown), not_much_different(a, b, factor, shown)], shown, f"slightly higher: visibly, by less than ×{_number(factor)}")


# --- combining checks -------------------------------------------------------------------------------------


def every(parts: Sequence[Verdict], ours: str = "", rule: str = "every check") -> Verdict:
    """All the checks of one statement hold: deviates if one deviates, not judged if one is not judged
    and none deviates. Its margin and resolution are those of the check that decided (the most
    negative margin when it deviates, an open check when not judged, the tightest one when it holds)."""
    parts = list(parts)
    if not parts:
        return Verdict(NOT_JUDGED, None, None, ours, rule + ": not judged, nothing to check")
    failing = [p for p in parts if p.status == DEVIATES]
    open_ = [p for p in parts if p.status == NOT_JUDGED]
    if failing:
        decider, status = min(failing, key=lambda p: p.margin if p.margin is not None else 0.0), DEVIATES
    elif open_:
        decider, status = open_[0], NOT_JUDGED
    else:
        decider, status = min(parts, key=lambda p: (p.margin or 0.0) - (p.resolution or 0.0)), HOLDS
    rule_text = f"{rule}; decided by {decider.ours}: {decider.rule}" if len(parts) > 1 else f"{rule}: {decider.rule}"
    return Verdict(status, decider.margin, decider.resolution, ours or decider.ours, rule_text, tuple(parts), decider.interval)


def any_of(parts: Sequence[Verdict], ours: str = "", rule: str = "some check") -> Verdict:
    """At least one check holds: holds if one holds, deviates if every one deviates."""
    parts = list(parts)
    if not parts:
        return Verdict(NOT_JUDGED, None, None, ours, rule + ": not judged, nothing to check")
    holding = [p for p in parts if p.status == HOLDS]
    open_ = [p for p in parts if p.status == NOT_JUDGED]
    if holding:
        decider, status = max(holding, key=lambda p: (p.margin or 0.0) - (p.resolution or 0.0)), HOLDS
    elif open_:
        decider, status = open_[0], NOT_JUDGED
    else:
        decider, status = max(parts, key=lambda p: p.margin if p.margin is not None else 0.0), DEVIATES
    return Verdict(status, decider.margin, decider.resolution, ours or decider.ours, f"{rule}; decided by {decider.ours}: {decider.rule}", tuple(parts), decider.interval)


def labelled(verdict: Verdict, label: str) -> Verdict:
    """``verdict`` with ``label`` before what it measured ("m=2, at 0.3: 100 vs 120"): the case a check of a
    claim reads, where the check itself names only the point that decided it."""
    return replace(verdict, ours=f"{label}, {verdict.ours}" if verdict.ours else label)


def negated(verdict: Verdict, rule: str) -> Verdict:
    """The opposite statement ("not the fastest at every load"): holds where ``verdict`` deviates."""
    flipped = {HOLDS: DEVIATES, DEVIATES: HOLDS}.get(verdict.status, verdict.status)
    margin = None if verdict.margin is None else -verdict.margin
    interval = None if verdict.interval is None else (-verdict.interval[1], -verdict.interval[0])
    return Verdict(flipped, margin, verdict.resolution, verdict.ours, f"{rule} (the opposite of: {verdict.rule})", (verdict,), interval)


# --- text --------------------------------------------------------------------------------------------------


def _number(x: float) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "—"
    if math.isinf(x):
        return "∞" if x > 0 else "−∞"
    if x == int(x) and abs(x) < 1e6:
        return f"{int(x)}"
    return f"{x:.3g}" if abs(x) < 1000 else f"{x:,.0f}"


def _units(d: float, axis: Axis) -> str:
    """A distance on the axis as a reader would say it: "0.02" on a linear axis, "×1.10" on a log one."""
    return f"×{math.exp(d):.3g}" if axis.log else _number(d)


def _log(x: float) -> float:
    return math.log(x) if x > 0 else -math.inf if x == 0 else math.nan


def _listing(values: Mapping[str, Measured]) -> str:
    return ", ".join(f"{k} {v}" for k, v in values.items())
