"""Peak-throughput figures run only the loads their peaks need, and the peaks equal those of all loads;
then each peak is refined between its highest sustained load and the next saturated one."""

from __future__ import annotations

import pandas as pd
import pytest

from flitcast.experiments import peak_throughput
from flitcast.experiments.banikazemi import FULL_LOADS, FULL_RUN, sp_scenario
from flitcast.experiments.peak_loads import REFINED_STEP, needed_points, offered_bound
from flitcast.experiments.point import Point

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
            rows.append({**p.labels, "workload.load": load, "accepted_load": accepted, "saturated": load > cap})
        return pd.DataFrame(rows)

    return run


def test_needed_loads_give_the_peaks_of_all_loads_from_fewer_points() -> None:
    points = _points()
    everything = _fake_run([])(points)
    calls: list[int] = []
    ran, needed = needed_points(points, ["variant", "message_bytes"], _fake_run(calls), refine_to=0)
    assert peak_throughput(needed, ["variant"]).to_dict() == peak_throughput(everything, ["variant"]).to_dict()
    loads = needed.groupby("variant")["workload.load"].apply(sorted).to_dict()
    assert loads["LRU"] == [1.0]  # unsaturated at 1.0: nothing below can beat it
    assert loads["RND"] == [1.0]
    assert loads["MRU"] == [0.6, 0.7, 0.8, 0.9, 1.0]  # down to the first load that is not saturated
    assert loads["O4"] == [0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0]
    assert len(ran) == 14 < len(points) == 40
    assert ran == sorted(ran)
    assert calls == [4, 2, 2, 2, 2, 1, 1]  # one round per load step, all curves together


def test_refinement_bisects_each_peak_to_the_refined_step() -> None:
    calls: list[int] = []
    ran, refined = needed_points(_points(), ["variant", "message_bytes"], _fake_run(calls))
    loads = refined.groupby("variant")["workload.load"].apply(list).to_dict()
    assert len(ran) == 14  # the walk as without refinement; the refined points are extra rows
    assert loads["RND"] == [1.0]  # sustains its highest load: nothing above to refine
    # sustains 0.6, saturates at 0.7: 0.65, 0.625, 0.6125 saturate, 0.60625 is sustained
    assert loads["MRU"] == [0.6, 0.60625, 0.6125, 0.625, 0.65, 0.7, 0.8, 0.9, 1.0]
    # no sustained load run: from the load under the lowest run (0.9); 0.95 cannot be offered more than
    # the best so far (0.98485) and is not run
    assert loads["LRU"] == [0.975, 0.98125, 0.9875, 1.0]
    assert loads["O4"][:3] == [0.35625, 0.3625, 0.375]  # 0.35 skipped the same way
    assert calls == [4, 2, 2, 2, 2, 1, 1, 3, 3, 3, 1]  # the walk's rounds, then one midpoint per curve per round
    for variant in ("MRU", "LRU", "O4"):
        # the highest sustained load and the lowest saturated one above it: the cap lies between, that close
        group = refined[refined["variant"] == variant]
        sustained = group[~group["saturated"]]["workload.load"].max()
        above = group[group["saturated"] & (group["workload.load"] > sustained)]["workload.load"].min()
        assert sustained <= CAPS[variant] < above <= sustained + REFINED_STEP + 1e-9, variant
    # the peaks rise towards the caps (the walk's were 0.6091, 0.98485, 0.3596)
    assert peak_throughput(refined, ["variant"]).to_dict() == pytest.approx({"MRU": 0.609975, "LRU": 0.984975, "O4": 0.359975, "RND": 1.0})


def test_without_the_walk_every_load_runs_and_the_peaks_are_refined_the_same() -> None:
    # a figure that draws whole curves (our dragonfly experiment): the whole grid in one round, then the
    # same brackets bisected as after the walk
    calls: list[int] = []
    ran, table = needed_points(_points(), ["variant", "message_bytes"], _fake_run(calls), walk=False)
    loads = table.groupby("variant")["workload.load"].apply(list).to_dict()
    assert len(ran) == 40 and calls[0] == 40
    assert [x for x in loads["MRU"] if x not in FULL_LOADS] == [0.60625, 0.6125, 0.625, 0.65]
    assert set(FULL_LOADS) <= set(loads["O4"])
    _, walked = needed_points(_points(), ["variant", "message_bytes"], _fake_run([]))
    assert peak_throughput(table, ["variant"]).to_dict() == peak_throughput(walked, ["variant"]).to_dict()


def test_a_one_load_run_is_not_refined() -> None:
    # the grid's quick smoke run: load 1.0 only, saturated; no grid step below it to refine within
    points = [p for p in _points() if p.scenario.workload.load == 1.0]
    calls: list[int] = []
    _, table = needed_points(points, ["variant", "message_bytes"], _fake_run(calls))
    assert calls == [4] and len(table) == 4


def test_a_load_within_the_offered_noise_of_the_best_is_still_run() -> None:
    # 128 B messages at 0.1 on 16 nodes over few cycles: few messages, a wide bound
    point = Point({}, sp_scenario(16, "uniform", "LRU", 4096, 0.1, {"warmup_cycles": 0, "measure_cycles": 2000}))
    assert offered_bound(point) > 0.1 * 1.5


def test_progress_never_counts_past_its_total_when_the_refinement_adds_points(tiny) -> None:
    from flitcast.config import Scenario
    from flitcast.experiments.experiment import Experiment, run_experiment

    def points(quick: bool) -> list[Point]:
        scenarios = [{**tiny, "workload": {**tiny["workload"], "load": load}} for load in (0.4, 0.7, 1.0)]
        return [Point({"curve": "a"}, Scenario.model_validate(s)) for s in scenarios]

    toy = Experiment(id="toy", study="000", figure="Fig. 0", title="a toy", points=points, claims=lambda r: [],
                     plot=lambda r, out: None, curve=("curve",))
    seen: list[tuple[int, int]] = []
    results, _, _ = run_experiment(toy, progress=lambda done, total: seen.append((done, total)))
    # the 4x4 mesh saturates between 0.4 and 0.7: the refinement runs loads the points do not have
    assert not results["workload.load"].isin([0.4, 0.7, 1.0]).all()
    assert seen[-1][0] == len(results) and all(done <= total for done, total in seen)
