"""Only the load points a peak-throughput figure needs (`loads = "needed"`; docs/experiments.md).

A bar of Figs. 6–9 and of the §5.1 grid is a *peak throughput*: the highest accepted load of one curve
(nodes, pattern, message size, routing) over the applied loads 0.1 … 1.0. A point's accepted load cannot
exceed what it is offered, so once a curve's best accepted load so far is A, a lower applied load L can
only matter if it could be offered more than A — if ``L · (1 + 4/√m) ≥ A``, where m is the number of
messages its window would create (four standard deviations of a Poisson count). The runner therefore
walks each curve down from its highest load, all curves one step per round, and stops a curve at the
first load that cannot matter. The peaks equal those of all loads (each point is the same deterministic
run whichever others are run); only the table has fewer rows. `loads = "all"` runs every point.

```
 round 1: every curve at 1.0 ─► round 2: curves whose next load can still matter, at 0.9 ─► … (≤ 10 rounds)
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

#: runs a list of points, returns one results row per point in the same order
RunRound = Callable[[list[Point]], "pd.DataFrame"]


def offered_bound(point: Point) -> float:
    """The most a point could be offered (flits/node/cycle), four standard deviations above its load."""
    s = point.scenario
    load = s.value("workload.load")
    messages = load * s.nodes * s.value("run.measure_cycles") / s.value("workload.message_flits")
    return load * (1.0 + SIGMAS / math.sqrt(max(messages, 1.0)))


def needed_points(points: Sequence[Point], curve: Sequence[str], run_round: RunRound) -> tuple[list[int], pd.DataFrame]:
    """Run the points a peak needs, one round per load step. ``curve`` names the labels that identify a
    curve. Returns the indices (into ``points``) that ran, in input order, and their results rows."""
    import pandas as pd

    curves: dict[tuple[object, ...], list[int]] = {}
    for index, point in enumerate(points):
        curves.setdefault(tuple(point.labels[key] for key in curve), []).append(index)
    for members in curves.values():
        members.sort(key=lambda i: -points[i].scenario.workload.load)
    best = dict.fromkeys(curves, -math.inf)
    step = dict.fromkeys(curves, 0)
    rows: dict[int, pd.Series] = {}
    active = list(curves)
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
    return ran, pd.DataFrame([rows[i] for i in ran]).reset_index(drop=True)
