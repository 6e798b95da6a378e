"""Peak-throughput figures run only the loads their peaks need, and the peaks equal those of all loads."""

from __future__ import annotations

import pandas as pd

from flitcast.experiments import peak_throughput
from flitcast.experiments.banikazemi import FULL_LOADS, FULL_RUN, sp_scenario
from flitcast.experiments.point import Point
from flitcast.experiments.peak_loads import needed_points, offered_bound

#: the saturation throughput of each fake curve: above it, accepted load stays there
CAPS = {"LRU": 0.985, "MRU": 0.61, "O4": 0.36, "RND": 1.5}


def _points() -> list[Point]:
    return [
        Point({"variant": v, "message_bytes": 4096}, sp_scenario(128, "bit_reversal", v, 4096, load, FULL_RUN))
        for v in CAPS
        for load in FULL_LOADS
    ]


def _fake_run(calls: list[int]):
    def run(points: list[Point]) -> pd.DataFrame:
        calls.append(len(points))
        rows = []
        for p in points:
            load = p.scenario.workload.load
            cap = CAPS[p.labels["variant"]]
            # saturated points accept a little less than the cap the further past it they are
            accepted = load if load <= cap else cap - 0.01 * (load - cap)
            rows.append({**p.labels, "workload.load": load, "accepted_load": accepted})
        return pd.DataFrame(rows)

    return run


def test_needed_loads_give_the_peaks_of_all_loads_from_fewer_points() -> None:
    points = _points()
    everything = _fake_run([])(points)
    calls: list[int] = []
    ran, needed = needed_points(points, ["variant", "message_bytes"], _fake_run(calls))
    assert peak_throughput(needed, ["variant"]).to_dict() == peak_throughput(everything, ["variant"]).to_dict()
    loads = needed.groupby("variant")["workload.load"].apply(sorted).to_dict()
    assert loads["LRU"] == [1.0]  # unsaturated at 1.0: nothing below can beat it
    assert loads["RND"] == [1.0]
    assert loads["MRU"] == [0.6, 0.7, 0.8, 0.9, 1.0]  # down to the first load that is not saturated
    assert loads["O4"] == [0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0]
    assert len(ran) == 14 < len(points) == 40
    assert ran == sorted(ran)
    assert calls == [4, 2, 2, 2, 2, 1, 1]  # one round per load step, all curves together


def test_a_load_within_the_offered_noise_of_the_best_is_still_run() -> None:
    # 128 B messages at 0.1 on 16 nodes over few cycles: few messages, a wide bound
    point = Point({}, sp_scenario(16, "uniform", "LRU", 4096, 0.1, {"warmup_cycles": 0, "measure_cycles": 2000}))
    assert offered_bound(point) > 0.1 * 1.5
