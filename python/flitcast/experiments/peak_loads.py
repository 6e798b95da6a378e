"""Only the load points a peak-throughput figure needs (`loads = "needed"`; docs/experiments.md).

A bar of Figs. 6–9 and of the §5.1 grid is a *peak throughput*: the highest accepted load of one curve
(nodes, pattern, message size, routing) over the applied loads 0.1 … 1.0. A point's accepted load cannot
exceed what it is offered, so once a curve's best accepted load so far is A, a lower applied load L can
only matter if it could be offered more than A — if ``L · (1 + 4/√m) ≥ A``, where m is the number of
messages its window would create (four standard deviations of a Poisson count). The runner therefore
walks each curve down from its highest load, all curves one step per round, and stops a curve at the
first load that cannot matter. The walk's peaks equal those of all loads (each point is the same
deterministic run whichever others are run); only the table has fewer rows. `loads = "all"` runs every
point (and no refinement). A figure that draws whole curves (``walk=False``: our dragonfly experiment's
latency panels) runs every load of its grid in one round, and then refines its peaks as below.

```
 round 1: every curve at 1.0 ─► round 2: curves whose next load can still matter, at 0.9 ─► … (≤ 10 rounds)
```

**Refinement.** An unsaturated point accepts what it is offered, so a curve that sustains a load a and
saturates (the core's ``saturated`` flag: it did not accept its offered load) at the next load run, b,
might sustain any load in between: its peak is known only to [a, b]. After the walk the runner bisects
that bracket, all curves one midpoint per round, until it is at most :data:`REFINED_STEP` wide: a
sustained midpoint raises a, a saturated one lowers b. A midpoint that could not be offered more than
the curve's best accepted load so far (the walk's rule) cannot matter and is not run: it raises a.
Where the walk ran no sustained load, a is the load below the lowest one run, which the walk found could
not matter. A curve that sustains its highest load has nothing to refine, nor one saturated at its lowest
load (a one-load smoke run): the refinement stays within the load grid's steps.

```
 sustains 0.8, saturates at 0.9 ─► 0.85 ─► 0.825 or 0.875 ─► … (4 rounds: brackets 0.1 / 16 = 0.00625 wide)
```
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from flitcast.experiments.point import Point

if TYPE_CHECKING:
    import pandas as pd

#: standard deviations of the offered count a skipped load must stay below the curve's best
SIGMAS = 4.0

#: the widest bracket a refined peak is left in: 0.1 / 2⁴, narrower than the ±0.005 a saturated point's
#: accepted load is known to (docs/engine.md), so that a peak at a sustained load is known no worse than
#: one measured at a saturated point
REFINED_STEP = 0.1 / 16

#: runs a list of points, returns one results row per point in the same order
RunRound = Callable[[list[Point]], "pd.DataFrame"]


def offered_bound(point: Point) -> float:
    """The most a point could be offered (flits/node/cycle), four standard deviations above its load."""
    s = point.scenario
    load = s.value("workload.load")
    messages = load * s.nodes * s.value("run.measure_cycles") / s.value("workload.message_flits")
    return load * (1.0 + SIGMAS / math.sqrt(max(messages, 1.0)))


def needed_points(
    points: Sequence[Point], curve: Sequence[str], run_round: RunRound, refine_to: float = REFINED_STEP, walk: bool = True
) -> tuple[list[int], pd.DataFrame]:
    """Run the points a peak needs: the walk, one round per load step, then the refinement (above) down to
    brackets ``refine_to`` wide (0: none). ``curve`` names the labels that identify a curve; ``walk=False``
    runs every point in one round instead of the walk (a figure that draws whole curves). Returns the
    indices (into ``points``) of the walk's points that ran, in input order, and the results rows of every
    point run: each curve's rows together, in the order of their loads (the refined ones among them)."""
    import pandas as pd

    curves: dict[tuple[object, ...], list[int]] = {}
    for index, point in enumerate(points):
        curves.setdefault(tuple(point.labels[key] for key in curve), []).append(index)
    for members in curves.values():
        members.sort(key=lambda i: -_load(points[i]))
    best = dict.fromkeys(curves, -math.inf)
    step = dict.fromkeys(curves, 0)
    rows: dict[int, pd.Series] = {}
    active = list(curves)
    if not walk:  # every point in one round: the refinement below starts from the whole grid
        table = run_round(list(points)).reset_index(drop=True)
        rows = {index: table.iloc[index] for index in range(len(points))}
        for c, members in curves.items():
            best[c] = max(float(rows[i]["accepted_load"]) for i in members)
        active = []
    while active:
        batch = [curves[c][step[c]] for c in active]
        table = run_round([points[i] for i in batch]).reset_index(drop=True)
        for position, index in enumerate(batch):
            rows[index] = table.iloc[position]
        still = []
        for c in active:
            best[c] = max(best[c], float(rows[curves[c][step[c]]]["accepted_load"]))
            step[c] += 1
            if step[c] < len(curves[c]) and offered_bound(points[curves[c][step[c]]]) >= best[c]:
                still.append(c)
        active = still
    ran = sorted(rows)
    refined = _refine(points, curves, rows, best, run_round, refine_to) if refine_to > 0 else {}
    order = []
    for c, members in curves.items():
        walked = [(_load(points[i]), rows[i]) for i in members if i in rows]
        order += [row for _, row in sorted(walked + refined.get(c, []), key=lambda lr: lr[0])]
    return ran, pd.DataFrame(order).reset_index(drop=True)


def _load(point: Point) -> float:
    return float(point.scenario.value("workload.load"))


def _bracket(points: Sequence[Point], members: list[int], rows: dict[int, pd.Series]) -> tuple[float, float] | None:
    """(a, b): the load below which the walk shows the curve's peak cannot lie, and the lowest saturated
    load above every sustained one; None if the curve sustains its highest load run (nothing above) or
    saturates at its lowest grid load (no step below to refine)."""
    loads = [_load(points[i]) for i in members]  # highest first
    ran = [(_load(points[i]), bool(rows[i]["saturated"])) for i in members if i in rows]
    sustained = [load for load, saturated in ran if not saturated]
    above = [load for load, saturated in ran if saturated and load > max(sustained, default=-math.inf)]
    if not above:
        return None
    b = min(above)
    below = [load for load in loads if load < b]  # the grid load under b: sustained, or not worth running
    return (max(below), b) if below else None  # within the grid's steps only (a one-load smoke run: none)


def _refine(
    points: Sequence[Point],
    curves: dict[tuple[object, ...], list[int]],
    rows: dict[int, pd.Series],
    best: dict[tuple[object, ...], float],
    run_round: RunRound,
    refine_to: float,
) -> dict[tuple[object, ...], list[tuple[float, pd.Series]]]:
    """Bisect each curve's bracket (module docstring); returns each curve's refined (load, row)s."""
    brackets = {c: _bracket(points, members, rows) for c, members in curves.items()}
    open_ = {c: ab for c, ab in brackets.items() if ab is not None}
    out: dict[tuple[object, ...], list[tuple[float, pd.Series]]] = {}
    while True:
        batch: list[tuple[tuple[object, ...], Point]] = []
        for c, (a, b) in list(open_.items()):
            while b - a > refine_to + 1e-9:
                middle = round((a + b) / 2, 6)
                point = points[curves[c][0]]
                point = Point(point.labels, point.scenario.with_overrides({"workload.load": middle}))
                if offered_bound(point) >= best[c]:
                    batch.append((c, point))
                    break
                a = middle  # cannot be offered more than the best so far: cannot matter
            open_[c] = (a, b)
        if not batch:
            return out
        table = run_round([p for _, p in batch]).reset_index(drop=True)
        for position, (c, point) in enumerate(batch):
            row, (a, b), middle = table.iloc[position], open_[c], _load(point)
            best[c] = max(best[c], float(row["accepted_load"]))
            open_[c] = (a, middle) if bool(row["saturated"]) else (middle, b)
            out.setdefault(c, []).append((middle, row))
