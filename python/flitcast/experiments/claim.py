"""A claim: one statement of a study, judged by one word of the vocabulary (``verdicts.py``) on what we
measured, read through :class:`Results` (docs/experiments.md, "Verdicts").

A study module is its grid of scenarios plus a table of claims: each row names the statement (quoted) and
its section, what we test in our words, and its verdict — a word of the vocabulary applied to the
quantities the sentence names, at the loads or sizes it names, on the figure's axis. Where the study's
own text contradicts the statement, the row quotes both places (``inconsistent``) and a verdict that does
not hold is "study inconsistent".

:class:`Results` is the results table as the claims read it: one value, a curve, a saturation load —
each a :class:`~flitcast.experiments.verdicts.Measured` interval. A quick run widens every interval by
the quick-mode resolution of its kind of quantity (``Experiment.quick_resolution``: how far quick values
were measured to stray from the full run's, with a safety factor), so that the same words judge a quick
run and leave unjudged what its shorter windows cannot decide (docs/experiments.md, "Quick mode").
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from flitcast.experiments.verdicts import (
    DEVIATES,
    HOLDS,
    INCONSISTENT,
    NOT_JUDGED,
    Measured,
    Verdict,
    around,
    bracket,
    exact,
)

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["CAUSES", "DATA", "LOAD", "MODEL", "SATURATED_PRECISION", "Claim", "Results", "Spread", "statement_status"]

LOAD = "workload.load"
#: how precisely a saturated run's accepted load is known: the engine ends it early only once that load's
#: 95% half-width and its drift between the halves of the window are at most this (run.saturation_stop,
#: docs/engine.md "Saturated runs end early")
SATURATED_PRECISION = 0.005

#: why a claim that deviates does, where it is known before the run (docs/experiments.md, "Why a claim
#: does not hold"): our model departs from the study's text (the note names the departure and the reading
#: that follows the text), or the study does not give what the claim needs (the note names what we chose).
#: A claim with no cause is one our model follows the text on: its note gives the measured cause.
MODEL, DATA = "model departure", "data missing"
CAUSES = (MODEL, DATA)


@dataclass(frozen=True)
class Claim:
    """One statement of the study and its verdict."""

    #: what we test, in our words ("hardware multicast saturates much later than software, every m")
    claim: str
    #: where the study says it ("§7.3", "§4.1, Fig. 2")
    section: str
    #: the study's words, quoted
    statement: str
    verdict: Verdict
    #: the measured cause of a deviation, or what a reading changes; never a pointer into the source
    note: str = ""
    #: where the study's own text contradicts the statement: both places, quoted with their sections
    #: (e.g. ("§4.1: 'nearly flat latency for small messages'", "Table 1 and Eq. 11: 629 µs per level"))
    inconsistent: tuple[str, ...] = ()
    #: where it deviates, why (:data:`CAUSES`); empty: our model follows the text, the note says the
    #: measured cause
    cause: str = ""

    def __post_init__(self) -> None:
        if self.inconsistent and len(self.inconsistent) != 2:
            raise ValueError(f"claim {self.claim!r}: a contradiction quotes both places, got {self.inconsistent!r}")
        if self.cause and self.cause not in CAUSES:
            raise ValueError(f"claim {self.claim!r}: cause {self.cause!r} is not one of {', '.join(CAUSES)}")

    @property
    def status(self) -> str:
        """The verdict's status; a deviation the study contradicts itself on is "study inconsistent"."""
        if self.verdict.status == DEVIATES and self.inconsistent:
            return INCONSISTENT
        return self.verdict.status

    @property
    def study(self) -> str:
        """The study's side of the row: its words and where it says them."""
        return f"{self.section}: “{self.statement}”"


def statement_status(checks: Sequence[str]) -> str:
    """A statement's status over a study from the statuses of its claims in the experiments that read it
    (a statement read in several figures keeps one name in each figure's table), combined as ``every``
    combines checks: deviates if one deviates, study inconsistent if one is (and none deviates), not judged
    if one is not judged (and none of those), holds if every one holds. The per-study counts are of
    statements (docs/experiments.md, "Verdicts")."""
    for status in (DEVIATES, INCONSISTENT, NOT_JUDGED):
        if status in checks:
            return status
    return HOLDS if checks else NOT_JUDGED


@dataclass(frozen=True)
class Spread:
    """How far a quick run's value of one kind of quantity can be from the full run's: ``absolute`` (in
    the quantity's units) plus ``relative`` (a fraction of the value)."""

    absolute: float = 0.0
    relative: float = 0.0


class Results:
    """The results table as claims read it (labels select points: ``variant="HW-CB", m=6``).

    ``quick``: kind of quantity → :class:`Spread`, in a quick run (None in a full run); a quantity of a
    kind without a spread cannot be judged in quick mode, so its interval becomes unbounded."""

    def __init__(self, table: pd.DataFrame, quick: Mapping[str, Spread] | None = None) -> None:
        self.table = table
        self.quick = quick
        # (claims read the same curves many times: each selection is made once)
        self._selected: dict[tuple[tuple[str, Any], ...], pd.DataFrame] = {}
        self._columns: dict[str, Any] = {}

    # --- selecting ------------------------------------------------------------------------------------

    def select(self, **labels: Any) -> pd.DataFrame:
        """The rows whose labels equal ``labels`` (a dotted column name is written with ``__``:
        ``workload__load=0.3``)."""
        import numpy as np

        key = tuple(sorted(labels.items(), key=lambda item: item[0]))
        if key not in self._selected:
            mask = np.ones(len(self.table), dtype=bool)
            for column, value in labels.items():
                name = _column(column)
                if name not in self._columns:
                    self._columns[name] = self.table[name].to_numpy()
                mask &= self._columns[name] == value
            self._selected[key] = self.table[mask]
        return self._selected[key]

    def row(self, **labels: Any) -> pd.Series:
        """The one row with these labels (a KeyError naming them otherwise)."""
        rows = self.select(**labels)
        if len(rows) != 1:
            raise KeyError(f"{len(rows)} rows with {labels}, not one")
        return rows.iloc[0]

    # --- quantities -------------------------------------------------------------------------------------

    def value(self, column: str, kind: str, ci: str | None = None, **labels: Any) -> Measured:
        """``column`` at the one point with these labels, with its 95% half-width: column ``ci`` where
        named (``latency_ci95`` is latency_mean's; for another latency, its relative half-width applied to
        the column: :meth:`latency`), exact otherwise. ``kind`` names the quick-mode spread."""
        return self._measured(self.row(**labels), column, kind, ci)

    def latency(self, column: str = "latency_mean", **labels: Any) -> Measured:
        """A latency at one point with its batch-means 95% half-width (``latency_ci95`` is measured on
        latency (a), ``latency_mean``; other latency columns take the same relative half-width)."""
        return self._measured(self.row(**labels), column, "latency", "latency_ci95")

    def curve(self, column: str, kind: str, x: str = LOAD, ci: str | None = None, **labels: Any) -> list[tuple[float, Measured]]:
        """``column`` along ``x`` over the points with these labels, sorted by x."""
        rows = self.select(**labels).sort_values(_column(x))
        return [(float(row[_column(x)]), self._measured(row, column, kind, ci)) for row in rows.to_dict("records")]

    def latency_curve(self, column: str = "latency_mean", x: str = LOAD, saturated_as_infinite: bool = False, **labels: Any) -> list[tuple[float, Measured]]:
        """A latency along the load at the points with these labels, each with its 95% half-width
        (:meth:`latency`): at the loads below the curve's first saturated one (the studies plot no latency
        past saturation), or, with ``saturated_as_infinite``, at every load, a saturated point's latency
        infinite (study 000 §7.1: "latency is infinite in a stable but saturated system") — so that a
        curve that saturates first is the worse one where the other still runs.

        In a quick run the saturation load itself is known only to its spread: a point within it of the
        quick bracket may be saturated in the full run or not, so its latency reaches up to infinity (from
        its widened value, or from 0 if the quick run saturated there), and the curve goes on to the end of
        that zone."""
        rows = self.select(**labels).sort_values(_column(x))
        zone = self._saturation_zone(rows, x)
        out = []
        for row in rows.to_dict("records"):
            load = float(row[_column(x)])
            flag = row["saturated"]
            saturated = bool(flag) and not (isinstance(flag, float) and math.isnan(flag))  # (NaN: a failed point, not saturated)
            if zone is not None and zone[0] < load <= zone[1]:
                low = 0.0 if saturated else self._measured(row, column, "latency", "latency_ci95").low
                out.append((load, Measured(math.nan if saturated else _float(row[column]), max(0.0, low), math.inf, "near saturation")))
                continue
            if saturated:
                if not saturated_as_infinite:
                    break
                out.append((load, Measured(math.inf, math.inf, math.inf, "saturated")))
                continue
            out.append((load, self._measured(row, column, "latency", "latency_ci95")))
        return out

    def peak(self, column: str = "accepted_load", x: str = LOAD, kind: str = "peak", between_loads: bool = False, **labels: Any) -> Measured:
        """The highest ``column`` (a received load) over the curve with these labels: at a saturated point
        it is known to ±:data:`SATURATED_PRECISION` (the engine ends a saturated run once its accepted load is
        that precise, docs/engine.md), elsewhere as measured. With ``between_loads`` it is the peak
        throughput of the network the curve measures (study 002 §5.2): an unsaturated point accepts what it
        is offered, so a load not run between the highest one sustained and the lowest saturated one above
        it could have been accepted whole, and the bracket reaches up to that saturated load (docs/
        experiments.md, "Verdicts": a peak's bracket between the loads run). ``kind`` names its quick-mode
        spread."""
        rows = self.select(**labels)
        values = rows[column].astype(float)
        if not len(values) or values.isna().all():
            return Measured(math.nan, math.nan, math.nan)
        top = rows.loc[[values.idxmax()]].iloc[0]
        half = SATURATED_PRECISION if bool(top["saturated"]) else 0.0
        measured = around(float(top[column]), half)
        if between_loads:
            loads = rows[_column(x)].astype(float)
            flags = rows["saturated"].fillna(False).astype(bool)
            sustained = loads[~flags]
            above = loads[flags & (loads > (sustained.max() if len(sustained) else -math.inf))]
            high = max(measured.high, float(above.min())) if len(above) else measured.high
            shown = f"{measured.low:.3f}" if f"{measured.low:.3f}" == f"{high:.3f}" else f"{measured.low:.3f}–{high:.3f}"
            measured = bracket(measured.low, high, shown=shown, value=measured.value)
        return self._widen(measured, kind)

    def saturation_bandwidth(self, column: str = "accepted_load", x: str = LOAD, **labels: Any) -> Measured:
        """The received load where the curve with these labels saturates: ``column`` at its first saturated
        load, known to ±:data:`SATURATED_PRECISION` — the level a flattened B_o line holds, or the level a
        B_o still rising leaves the line of the load offered (study 000 §7.3's "saturation bandwidth") — or,
        where no load saturated, at least its highest (an interval up to ∞). Its quick-mode kind is "peak"."""
        rows = self.select(**labels).sort_values(_column(x))
        if not len(rows):
            return Measured(math.nan, math.nan, math.nan)
        flagged = rows[rows["saturated"].fillna(False).astype(bool)]
        if len(flagged):
            measured = around(_float(flagged[column].iloc[0]), SATURATED_PRECISION)
        else:
            top = _float(rows[column].max())
            measured = bracket(top, math.inf, shown=f"≥ {top:.3g}")
        return self._widen(measured, "peak")

    def saturation_load(self, x: str = LOAD, **labels: Any) -> Measured:
        """Where the curve with these labels saturates, as far as its loads tell: the bracket from the
        highest load below the first saturated one to the first saturated load ((its highest load, ∞) if
        none saturated; (0, its lowest] if that one did). Saturated is the core's flag — the load was not
        accepted and the backlog grew, or the drain or the latency did not finish (docs/results.md) —
        the one rule of every study (docs/experiments.md, "Verdicts")."""
        rows = self.select(**labels).sort_values(_column(x))
        loads = [float(v) for v in rows[_column(x)]]
        flags = [bool(v) for v in rows["saturated"].fillna(False)]
        if not loads:
            return Measured(math.nan, math.nan, math.nan)
        first = next((i for i, s in enumerate(flags) if s), None)
        if first is None:
            measured = bracket(loads[-1], math.inf, shown=f"> {loads[-1]:g}")
        else:
            low = loads[first - 1] if first else 0.0
            measured = bracket(low, loads[first], shown=f"({low:g}, {loads[first]:g}]")
        return self._widen(measured, "saturation load")

    def unsaturated_loads(self, x: str = LOAD, **labels: Any) -> list[float]:
        """The loads below the curve's first saturated load: where its latency is finite (the studies plot
        no latency past saturation); in a quick run, those below its saturation zone (:meth:`latency_curve`),
        unsaturated in the full run too."""
        rows = self.select(**labels).sort_values(_column(x))
        zone = self._saturation_zone(rows, x)
        out = []
        for load, saturated in zip(rows[_column(x)], rows["saturated"].fillna(False), strict=True):
            if saturated or (zone is not None and load > zone[0]):
                break
            out.append(float(load))
        return out

    def widen(self, measured: Measured, kind: str) -> Measured:
        """A quantity the claim built itself from the table (a bracket over loads, a sum), read as this run
        reads its quantities of ``kind``: as measured in a full run, widened by the kind's spread in a quick
        run (unbounded for a kind without one)."""
        return self._widen(measured, kind)

    # --- internals -------------------------------------------------------------------------------------

    def _measured(self, row: pd.Series | Mapping[Any, Any], column: str, kind: str, ci: str | None) -> Measured:
        value = _float(row[column])
        if math.isnan(value):
            return Measured(math.nan, math.nan, math.nan)
        if ci is None:
            measured = exact(value)
        elif ci == "latency_ci95" and column != "latency_mean":
            mean = _float(row.get("latency_mean"))
            half = _float(row.get(ci))
            relative = half / mean if mean and not math.isnan(half) and not math.isnan(mean) else 0.0
            measured = around(value, relative * value)
        else:
            measured = around(value, _float(row.get(ci)))
        return self._widen(measured, kind)

    def _saturation_zone(self, rows: pd.DataFrame, x: str) -> tuple[float, float] | None:
        """In a quick run, the loads (low, high] on either side of which the full run's curve may
        saturate: the quick bracket of its first saturated load widened by the spread of "saturation
        load" (every load, where no spread was measured); None in a full run."""
        if self.quick is None:
            return None
        loads = [float(v) for v in rows[_column(x)]]
        flags = [bool(v) for v in rows["saturated"].fillna(False)]
        first = next((i for i, s in enumerate(flags) if s), None)
        bracket_low = (loads[first - 1] if first else 0.0) if first is not None else (loads[-1] if loads else math.inf)
        bracket_high = loads[first] if first is not None else math.inf
        widened = self._widen(bracket(bracket_low, bracket_high), "saturation load")
        return (widened.low, widened.high)

    def _widen(self, measured: Measured, kind: str) -> Measured:
        if self.quick is None or measured.unknown:
            return measured
        spread = self.quick.get(kind)
        if spread is None:  # no quick resolution measured for this kind: anything could be
            return Measured(measured.value, -math.inf, math.inf, measured.shown)
        return measured.widened(spread.absolute, spread.relative)


def _column(name: str) -> str:
    return name.replace("__", ".")


def _float(x: Any) -> float:
    try:
        return float(x)
    except (TypeError, ValueError):
        return math.nan


def shown_series(curve: Sequence[tuple[float, Measured]], fmt: str = "{:g}") -> str:
    """A curve as ``ours`` shows it: "0.1: 328, 0.2: 376, …"."""
    return ", ".join(f"{fmt.format(x)}: {m}" for x, m in curve)
