"""Reproduction experiments: a figure of a study as a named set of scenario points, the analysis that
checks the study's stated numbers and orderings, and the plots.

Every experiment writes, into its output directory (all or nothing):

- ``results.csv`` — one tidy row per simulated point: the experiment's labels, every scenario
  parameter (dotted keys) and every metric;
- one PNG per panel of the study's figure;
- ``claims.csv`` — one row per statement of the study: ``claim``, ``study`` (the statement quoted, with
  its section), ``ours``, ``holds``, ``status`` (``holds``, ``deviates``, ``study inconsistent`` or
  ``not judged``), ``cause`` (why a deviation deviates, where known: ``claim.CAUSES``), ``margin`` and ``resolution`` (in the claim's units), ``rule``, ``note``.

Each claim is a word of the vocabulary (``verdicts.py``) applied to the quantities its sentence names,
read through :class:`~flitcast.experiments.claim.Results` (``claim.py``; docs/experiments.md,
"Verdicts"). A claim that does not hold is reported as such, never tuned away. A claim that cannot be
judged because points failed (their ``error`` is set in results.csv) has ``holds`` empty and a note
saying so.

A quick run reads every quantity widened by the quick-mode resolution of its kind
(``Experiment.quick_resolution``: how far quick values were measured to stray from the full run's, with
a safety factor; docs/experiments.md, "Quick mode"), so a quick verdict never contradicts the full run's;
the claims it cannot decide have ``holds`` empty and a note saying "not judged in quick mode".
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flitcast.experiments.claim import Claim, Results
from flitcast.experiments.point import Point
from flitcast.experiments.verdicts import DEVIATES, INCONSISTENT, NOT_JUDGED, Verdict

if TYPE_CHECKING:
    import pandas as pd


@dataclass(frozen=True)
class Reading:
    """Another reading of something the study leaves open, beside the experiment's default one
    (docs/experiments.md, "Readings"): every point of the experiment with ``overrides`` (dotted scenario
    keys) set — or, where the keys differ by point (a key only some points' kinds take), with
    ``overrides(point)``. ``text`` says what it changes and where the study leaves it open."""

    name: str
    text: str
    overrides: Mapping[str, Any] | Callable[[Point], Mapping[str, Any]]

    def apply(self, point: Point) -> Point:
        """``point`` under this reading."""
        overrides = self.overrides(point) if callable(self.overrides) else self.overrides
        return Point(point.labels, point.scenario.with_overrides(dict(overrides))) if overrides else point


@dataclass(frozen=True)
class Experiment:
    """A reproduction of one figure (or evaluation) of a study, or an experiment of our own."""

    id: str
    #: the source's id, then who and what ("003 Zhou, Liu, Chung (…)"); flitcast/studies.py
    study: str
    figure: str
    title: str
    #: the points to simulate, full or quick (a run asks through :meth:`run_points`)
    points: Callable[[bool], list[Point]]
    #: the study's claims, one per statement, judged on the results table (read through ``Results``)
    claims: Callable[[Results], list[Claim]]
    #: writes one PNG per panel into the directory and returns nothing
    plot: Callable[[pd.DataFrame, Path], None]
    #: what a quick run changes (shown by `flitcast list experiments`)
    quick_note: str = ""
    #: the full run is already fast: a quick run is the full run and judges every claim as it does
    quick_runs_full: bool = False
    #: labels that identify one peak-throughput curve, for figures that show only peaks: those run only
    #: the loads their peaks need (`peak_loads.py`); empty for figures that need every load
    curve: tuple[str, ...] = ()
    #: with ``curve``: run every load of the grid (a figure that also draws whole curves), then refine the
    #: peaks; False: only the loads the peaks need
    every_load: bool = False
    #: kind of quantity -> the most a quick run's value of it can be from the full run's (measured, with a
    #: safety factor; docs/experiments.md, "Quick mode"): a ``claim.Spread`` that widens every quantity of
    #: that kind in a quick run; a kind without one is never judged in quick mode
    quick_resolution: Mapping[str, Any] = field(default_factory=dict)
    #: derived columns added to the results table before claims, plots and results.csv (e.g. a time in ns)
    derive: Callable[[pd.DataFrame], pd.DataFrame] | None = None
    #: the other readings of what the study leaves open (the experiment itself is the default reading)
    readings: tuple[Reading, ...] = ()
    #: the reading this experiment runs under (None: the default)
    reading: str | None = None

    @property
    def source(self) -> str:
        """The id of its source (the first word of ``study``: "003", "kim2008"; flitcast/studies.py)."""
        from flitcast.studies import source_id

        return source_id(self.study)

    def run_points(self, quick: bool) -> list[Point]:
        """The points a run simulates: the quick ones, unless the quick run is the full run."""
        return self.points(quick and not self.quick_runs_full)

    def read_as(self, name: str | None, option: str = "reading") -> Experiment:
        """This experiment under its reading ``name`` (None: the default reading, this experiment)."""
        from dataclasses import replace

        from flitcast.errors import ConfigError

        if name is None:
            return self
        reading = next((r for r in self.readings if r.name == name), None)
        if reading is None:
            names = [r.name for r in self.readings]
            allowed = "one of " + ", ".join(names) if names else f"none: {self.id} has only its default reading"
            raise ConfigError(option, name, allowed)
        base = self.points

        def points(quick: bool) -> list[Point]:
            return [reading.apply(p) for p in base(quick)]

        return replace(self, points=points, reading=name)


def run_experiment(
    experiment: Experiment,
    quick: bool = False,
    out: str | Path | None = None,
    threads: int = 0,
    progress: Callable[[int, int], None] | None = None,
    *,
    client: Any = None,
    force: bool = False,
    all_loads: bool = False,
    points: list[Point] | None = None,
    reuse: Sequence[Path] = (),
) -> tuple[pd.DataFrame, pd.DataFrame, float]:
    """Simulate the points of ``experiment`` and analyse them. Returns (results, claims, wall seconds).

    A figure of peak throughputs (``experiment.curve``) runs only the loads its peaks need, walking each
    curve down from the highest load, then bisecting between its highest sustained load and the next
    saturated one (``peak_loads.py``); ``all_loads`` runs every point of the grid and no more; ``points``,
    the experiment's points where the caller has built them already (``experiment.run_points(quick)``).
    ``progress(done, total)`` counts points run against the most there can be (the refinement's points
    add to it as they start).

    With ``out``, the points are recorded in ``out``'s store as they finish (a re-run resumes; ``force``
    recomputes, see :func:`flitcast.sweep`) and, once every point has a result, results.csv, the panel
    PNGs and claims.csv are written there (all or nothing). ``client`` runs the points on a Dask cluster.
    ``reuse``: output directories of other runs whose recorded points are taken, not run again (a reading
    runs only the points it changes; :func:`flitcast.sweep`).
    """
    import pandas as pd

    from flitcast.sweeps.run import run_identity, sweep

    points = experiment.run_points(quick) if points is None else points
    run = run_identity([p.scenario for p in points])
    with ExitStack() as held:
        if out is not None:
            from flitcast.sweeps.outdir import out_dir_of_run

            # the directory is this run's until it returns (its store's lock held), not only while a round runs
            held.enter_context(out_dir_of_run(out, force, run, option="out"))
        done = 0

        def run_round(batch: list[Point]) -> pd.DataFrame:
            nonlocal done
            # (a peak figure's refinement runs points beyond ``points``: the total grows to cover them)
            total = max(len(points), done + len(batch))
            counted = None if progress is None else lambda k, _n: progress(done + k, total)
            table = sweep([p.scenario for p in batch], threads=threads, progress=counted, client=client, store=out, run=run, reuse=reuse)
            done += len(batch)
            labels = pd.DataFrame([dict(p.labels) for p in batch])
            return pd.concat([labels.reset_index(drop=True), table.reset_index(drop=True)], axis=1)

        start = time.perf_counter()
        if experiment.curve and not all_loads:
            from flitcast.experiments.peak_loads import needed_points

            _, results = needed_points(points, experiment.curve, run_round, walk=not experiment.every_load)
        else:
            results = run_round(points)
        wall = time.perf_counter() - start
        if experiment.derive is not None:
            results = experiment.derive(results)
        claims = judge(experiment, results, quick=quick and not experiment.quick_runs_full)
        if out is not None:
            from flitcast.sweeps.outdir import write_all_or_nothing

            def write(staging: Path) -> None:
                results.to_csv(staging / "results.csv", index=False)
                claims.to_csv(staging / "claims.csv", index=False)
                experiment.plot(results[results["error"] == ""], staging)

            write_all_or_nothing(out, write)
    return results, claims, wall


#: how the note of a claim not judged begins: in a quick run that cannot decide it, and where points failed
#: (the report groups the claims by them)
NOT_JUDGED_QUICK, NOT_JUDGED_FAILED = "not judged in quick mode:", "points failed"
CLAIM_COLUMNS = ["claim", "study", "ours", "holds", "status", "cause", "margin", "resolution", "rule", "note"]


def judge(experiment: Experiment, results: pd.DataFrame, quick: bool = False) -> pd.DataFrame:
    """The claims table. If points failed, no claim is judged: claims do not say which points they read,
    and a missing point can move a peak or an ordering; ``ours`` is still shown from the points that
    ran, where it can be computed. A ``quick`` run reads every quantity widened by the experiment's
    quick-mode resolution."""
    import pandas as pd

    failed = int((results["error"] != "").sum())
    if not failed:
        claims = experiment.claims(Results(results, experiment.quick_resolution if quick else None))
        return pd.DataFrame([_row(c, quick) for c in claims], columns=CLAIM_COLUMNS)
    why = f"not judged: {failed} of {len(results)} {NOT_JUDGED_FAILED} (see the error column of results.csv)"
    try:
        claims = experiment.claims(Results(results[results["error"] == ""].reset_index(drop=True)))
    except Exception:
        claims = [Claim(f"every claim of {experiment.id}", "", "", Verdict(NOT_JUDGED, None, None, "", ""))]
    rows = [_row(c) for c in claims]
    rows = [{**row, "holds": None, "status": NOT_JUDGED, "cause": "", "note": why + (f"; {row['note']}" if row["note"] else "")} for row in rows]
    return pd.DataFrame(rows, columns=CLAIM_COLUMNS)


def readings_table(claims: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """readings.csv: one row per claim (in the default reading's order), its status under each reading
    (reading name -> that reading's claims table, the default reading first)."""
    import pandas as pd

    names = list(claims)
    table = pd.DataFrame({"claim": claims[names[0]]["claim"]})
    for name in names:
        status = claims[name].drop_duplicates("claim").set_index("claim")["status"]
        table[name] = table["claim"].map(status).fillna("absent")
    return table


def _row(claim: Claim, quick: bool = False) -> dict[str, Any]:
    v = claim.verdict
    note = claim.note
    if claim.status == INCONSISTENT:
        note = f"study inconsistent: {claim.inconsistent[0]} against {claim.inconsistent[1]}" + (f"; {note}" if note else "")
    elif claim.status == NOT_JUDGED:
        if v.margin is not None and v.interval is not None:
            why = f"its margin's interval [{v.interval[0]:+.3g}, {v.interval[1]:+.3g}] reaches both sides of 0"
        else:
            why = "a quantity it reads was not measured, or has no value in its intervals"
        # (a quick run's values are widened by its measured resolution: the report and docs/experiments.md,
        # "Quick mode", say so once, not on every row)
        note = f"{NOT_JUDGED_QUICK if quick else 'not judged:'} {why}" + (f"; {note}" if note else "")
    return {
        "claim": claim.claim,
        "study": claim.study,
        "ours": v.ours,
        "holds": v.holds,
        "status": claim.status,
        # (the cause of a deviation: a claim that holds or is not judged has none)
        "cause": claim.cause if claim.status == DEVIATES else "",
        "margin": None if v.margin is None else round(float(v.margin), 4),
        "resolution": None if v.resolution is None else round(float(v.resolution), 4),
        "rule": v.rule,
        "note": note,
    }


def peak_throughput(results: pd.DataFrame, by: Sequence[str]) -> pd.Series:
    """Peak throughput per group: the highest accepted load (flits/node/cycle, i.e. as a fraction of the
    link rate) over the group's applied loads (study 002 §5.2, "peak throughput ... as a percentage of
    maximum possible"; docs/experiments.md)."""
    return results.groupby(list(by), sort=False)["accepted_load"].max()


# --- plot styling ----------------------------------------------------------------------------------------

#: a panel's i-th series has its own marker and line style, so that one drawn over another still shows
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "<", ">", "*")
LINESTYLES: tuple[Any, ...] = ("-", "--", "-.", ":", (0, (3, 1, 1, 1, 1, 1)), (0, (8, 3)))


def series_style(i: int) -> dict[str, Any]:
    """Matplotlib keywords of a panel's i-th series: its colour, marker and line style, the marker hollow
    and a little smaller than the one before, so that series drawn over each other all stay visible."""
    return {
        "color": f"C{i % 10}",
        "marker": MARKERS[i % len(MARKERS)],
        "linestyle": LINESTYLES[i % len(LINESTYLES)],
        "markerfacecolor": "none",
        "markersize": max(3, 8 - i),
    }


def coincidence_labels(curves: Mapping[str, pd.Series]) -> dict[str, str]:
    """Legend labels of a panel's series, in drawing order (name -> its values indexed by x): a series
    equal at every x to one drawn before it is labelled "NAME (coincides with OTHER)", since it hides it."""
    labels: dict[str, str] = {}
    for name, values in curves.items():
        same = next((other for other in labels if _same_curve(values, curves[other])), None)
        labels[name] = name if same is None else f"{name} (coincides with {same})"
    return labels


def _same_curve(a: pd.Series, b: pd.Series) -> bool:
    import numpy as np

    a, b = a.sort_index().astype(float), b.sort_index().astype(float)
    return a.index.equals(b.index) and bool(np.allclose(a, b, rtol=1e-9, atol=0.0, equal_nan=True))


def claims_summary(claims: pd.DataFrame) -> str:
    """One line on a claims table that never counts a claim nobody judged as failed: "4 of 6 claims hold"
    when every claim was judged, "1 of 2 judged claims hold; 3 not judged (...)" when some were not (a
    quick run, failed points: each note says why), "no claim judged (...)" when none was; claims the study
    contradicts itself on are counted apart ("4 of 6 claims hold, 1 study inconsistent")."""
    total = len(claims)
    judged = int(claims["holds"].notna().sum())
    held = int(claims["holds"].eq(True).sum())
    inconsistent = int(claims["status"].eq(INCONSISTENT).sum()) if "status" in claims else 0
    apart = f", {inconsistent} study inconsistent" if inconsistent else ""
    why = "each claim's note says why"
    if not judged:
        return f"no claim judged ({total} claim{'s' * (total != 1)}; {why})"
    verb = "holds" if judged == 1 else "hold"
    if judged == total:
        return f"{held} of {total} claim{'s' * (total != 1)} {verb}{apart}"
    return f"{held} of {judged} judged claim{'s' * (judged != 1)} {verb}{apart}; {total - judged} not judged ({why})"


def fmt(x: float) -> str:
    """A throughput or ratio as the study writes it (two decimals)."""
    return f"{x:.2f}"
