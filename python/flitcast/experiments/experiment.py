"""Reproduction experiments: a figure of a study as a named set of scenario points, the analysis that
checks the study's stated numbers and orderings, and the plots.

Every experiment writes, into its output directory (all or nothing):

- ``results.csv`` — one tidy row per simulated point: the experiment's labels, every scenario
  parameter (dotted keys) and every metric;
- one PNG per panel of the study's figure;
- ``claims.csv`` — one row per stated number or ordering: ``claim``, ``study`` (the study's value or
  ordering), ``ours``, ``holds`` (does our result support it within the tolerance in ``note``),
  ``note``.

A claim that does not hold is reported as such, never tuned away. A claim that cannot be judged because
points failed (their ``error`` is set in results.csv) has ``holds`` empty and a note saying so.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flitcast.config import Scenario

if TYPE_CHECKING:
    import pandas as pd


@dataclass(frozen=True)
class Point:
    """One simulated point: labels (columns of results.csv, e.g. ``variant``, ``message_bytes``) and its scenario."""

    labels: Mapping[str, Any]
    scenario: Scenario


@dataclass(frozen=True)
class Claim:
    """One stated number or ordering of the study, beside ours."""

    claim: str
    study: str
    ours: str
    holds: bool
    note: str = ""


@dataclass(frozen=True)
class Experiment:
    """A reproduction of one figure (or evaluation) of a study."""

    id: str
    study: str
    figure: str
    title: str
    #: the points to simulate, full or quick
    points: Callable[[bool], list[Point]]
    #: the study's claims checked against the results table
    claims: Callable[[pd.DataFrame], list[Claim]]
    #: writes one PNG per panel into the directory and returns nothing
    plot: Callable[[pd.DataFrame, Path], None]
    #: what a quick run changes (shown by `flitcast list experiments`)
    quick_note: str = ""
    #: labels that identify one peak-throughput curve, for figures that show only peaks: those run only
    #: the loads their peaks need (`peak_loads.py`); empty for figures that need every load
    curve: tuple[str, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)


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
) -> tuple[pd.DataFrame, pd.DataFrame, float]:
    """Simulate the points of ``experiment`` and analyse them. Returns (results, claims, wall seconds).

    A figure of peak throughputs (``experiment.curve``) runs only the loads its peaks need, walking each
    curve down from the highest load (``peak_loads.py``; the peaks are those of every load);
    ``all_loads`` runs every point. ``progress(done, total)`` counts points run against the most there
    can be.

    With ``out``, the points are recorded in ``out``'s store as they finish (a re-run resumes; ``force``
    recomputes, see :func:`flitcast.sweep`) and, once every point has a result, results.csv, the panel
    PNGs and claims.csv are written there (all or nothing). ``client`` runs the points on a Dask cluster.
    """
    import pandas as pd

    from flitcast.api import run_identity, sweep

    points = experiment.points(quick)
    run = run_identity([p.scenario for p in points])
    if out is not None:
        from flitcast.output import prepare_out_dir

        prepare_out_dir(out, force, run, option="out")
    done = 0

    def run_round(batch: list[Point]) -> pd.DataFrame:
        nonlocal done
        counted = None if progress is None else lambda k, _n: progress(done + k, len(points))
        table = sweep([p.scenario for p in batch], threads=threads, progress=counted, client=client, store=out, run=run)
        done += len(batch)
        labels = pd.DataFrame([dict(p.labels) for p in batch])
        return pd.concat([labels.reset_index(drop=True), table.reset_index(drop=True)], axis=1)

    start = time.perf_counter()
    if experiment.curve and not all_loads:
        from flitcast.experiments.peak_loads import needed_points

        _, results = needed_points(points, experiment.curve, run_round)
    else:
        results = run_round(points)
    wall = time.perf_counter() - start
    claims = judge(experiment, results)
    if out is not None:
        from flitcast.output import write_all_or_nothing

        def write(staging: Path) -> None:
            results.to_csv(staging / "results.csv", index=False)
            claims.to_csv(staging / "claims.csv", index=False)
            experiment.plot(results[results["error"] == ""], staging)

        write_all_or_nothing(out, write)
    return results, claims, wall


CLAIM_COLUMNS = ["claim", "study", "ours", "holds", "note"]


def judge(experiment: Experiment, results: pd.DataFrame) -> pd.DataFrame:
    """The claims table. If points failed, no claim is judged: claims do not say which points they read,
    and a missing point can move a peak or an ordering; ``ours`` is still shown from the points that
    ran, where it can be computed."""
    import pandas as pd

    failed = int((results["error"] != "").sum())
    if not failed:
        claims = experiment.claims(results)
        return pd.DataFrame([c.__dict__ for c in claims], columns=CLAIM_COLUMNS)
    why = f"not judged: {failed} of {len(results)} points failed (see the error column of results.csv)"
    try:
        claims = experiment.claims(results[results["error"] == ""].reset_index(drop=True))
    except Exception:  # noqa: BLE001 - the claims may need the very points that failed
        claims = [Claim(f"every claim of {experiment.id}", "", "", False)]
    rows = [{**c.__dict__, "holds": None, "note": why + (f"; {c.note}" if c.note else "")} for c in claims]
    return pd.DataFrame(rows, columns=CLAIM_COLUMNS)


def peak_throughput(results: pd.DataFrame, by: Sequence[str]) -> pd.Series:
    """Peak throughput per group: the highest accepted load (flits/node/cycle, i.e. as a fraction of the
    link rate) over the group's applied loads (study 002 §5.2, "peak throughput ... as a percentage of
    maximum possible"; docs/experiments.md)."""
    return results.groupby(list(by), sort=False)["accepted_load"].max()


def fmt(x: float) -> str:
    """A throughput or ratio as the study writes it (two decimals)."""
    return f"{x:.2f}"
