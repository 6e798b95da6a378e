"""Our experiment `collectives` (after Thakur, Rabenseifner and Gropp): its points are those
docs/experiments.md describes, each claim holds on a hand-made table where the paper's orderings hold and
fails on a small change, its plot writes a PNG per (operation, network), and its quick run judges only
what the full run cannot contradict."""

from __future__ import annotations

import math
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from flitcast.experiments import EXPERIMENTS, collectives
from flitcast.experiments.experiment import HOLDS, NOT_JUDGED, Claim, judge

EXPERIMENT = EXPERIMENTS["collectives"]
ALPHA = 120  # cycles: o_s + o_r + a network crossing


def flits(size: int) -> int:
    return max(1, math.ceil(size / collectives.FLIT_BYTES))


def time(network: str, operation: str, algorithm: str, size: int) -> float:
    """A completion time (cycles) with the orderings the paper states: α-β-γ costs of 1,024 ranks, the
    allreduce's switch at 2 KB, the broadcast's between binomial tree and scatter + allgather at 2.4 KB (one
    grid step below MPICH's 12 KB), a chain of 1,022 latencies, and the hardware broadcast one crossing."""
    n = flits(size)
    if operation == "allreduce":
        return {
            "recursive_doubling": 10 * (ALPHA + 1.25 * n),
            "rabenseifner": 20 * ALPHA + 2.25 * n,
            "ring": 2046 * ALPHA + 2.25 * n,
            "hardware": 11 * ALPHA + 12.5 * n,
        }[algorithm]
    return {"binomial": 10 * (ALPHA + n), "chain": 1022 * ALPHA + 1.1 * n, "scatter_allgather": 20 * ALPHA + 2 * n, "hardware": ALPHA + n + 8}[algorithm]


Change = Callable[[dict[str, Any], float], float]


def frame(change: Change = lambda labels, t: t, sizes: list[int] | None = None) -> pd.DataFrame:
    """The results table of the experiment's points (every size, or ``sizes``), each completion passed
    through ``change``; the estimate is the unchanged time."""
    rows = []
    for point in EXPERIMENT.points(False):
        labels = dict(point.labels)
        if sizes is not None and labels["message_bytes"] not in sizes:
            continue
        t = time(labels["network"], labels["operation"], labels["algorithm"], labels["message_bytes"])
        rows.append({**labels, "completion_cycles": change(labels, t), "estimate_cycles": t, "saturated": False, "error": ""})
    return pd.DataFrame(rows)


def claims(results: pd.DataFrame) -> dict[str, Claim]:
    found = EXPERIMENT.claims(results)
    by_name = {c.claim: c for c in found}
    assert len(by_name) == len(found)  # names are unique
    return by_name


def at(network: str, operation: str, algorithm: str, size: int | None, factor: float) -> Change:
    """A change: ``factor`` times the completion of one algorithm on one network at one size (None: all)."""

    def change(labels: dict[str, Any], t: float) -> float:
        hit = (labels["network"], labels["operation"], labels["algorithm"]) == (network, operation, algorithm)
        return t * factor if hit and (size is None or labels["message_bytes"] == size) else t

    return change


# --- the points --------------------------------------------------------------------------------------------


def test_points_are_those_the_docs_describe() -> None:
    full, quick = EXPERIMENT.points(False), EXPERIMENT.points(True)
    # 3 networks × (3 broadcast + 3 allreduce algorithms) + the fat tree's 2 hardware ones = 20 series
    assert len(collectives.combinations()) == 20
    assert len(full) == 20 * 10 and len(quick) == 20 * 4
    assert collectives.SIZES[0] == 8 and collectives.SIZES[-1] == 2**20
    hardware = {p.labels["network"] for p in full if p.labels["algorithm"] == "hardware"}
    assert hardware == {"fat tree"}
    for point in full:
        workload = point.scenario.workload
        assert workload.program == "collective"
        assert workload.group_size == 1024 and workload.load == 0
        assert workload.scheme == point.labels["algorithm"] and workload.operation == point.labels["operation"]
        assert workload.message_bytes == point.labels["message_bytes"]


def test_networks_have_at_least_the_members() -> None:
    nodes = {}
    for network in collectives.NETWORKS:
        point = next(p for p in EXPERIMENT.points(True) if p.labels["network"] == network)
        nodes[network] = point.scenario.nodes
    assert nodes == {"fat tree": 1024, "torus": 1024, "dragonfly": 1056}


def test_quick_points_are_the_full_runs_own() -> None:
    """A collective alone is deterministic: a quick point's results are the full run's at that size."""
    full = {(tuple(sorted(p.labels.items()))): p.scenario for p in EXPERIMENT.points(False)}
    for point in EXPERIMENT.points(True):
        assert point.scenario == full[tuple(sorted(point.labels.items()))]


def test_a_tiny_real_run_is_never_below_its_estimate() -> None:
    """The model check (docs/models/collectives.md, "The estimate"): nothing waits in the estimate, so the
    simulation cannot be faster. Smallest allreduces of the torus and the dragonfly (well under a second)."""
    from flitcast import api

    for network in ("torus", "dragonfly"):
        result = api.run(collectives.scenario(network, "allreduce", "rabenseifner", 8)).metrics
        assert result["completion_cycles"] >= result["estimate_cycles"] > 0


def test_the_papers_numbers_come_from_its_data_file() -> None:
    path = Path(collectives.__file__).parent.parent / "study_data" / "thakur2005.toml"
    with path.open("rb") as f:
        data = tomllib.load(f)
    assert data["study"]["id"] == collectives.STUDY.split()[0] == "thakur2005"
    assert data["study"]["ours"] is True
    assert collectives.stated("allreduce_short_max_bytes") == data["values"]["allreduce_short_max_bytes"]["y"] == 2048
    assert collectives.stated("bcast_short_max_bytes") == data["values"]["bcast_short_max_bytes"]["y"] == 12288


# --- the claims ---------------------------------------------------------------------------------------------


def test_every_claim_holds_where_the_papers_orderings_do() -> None:
    found = claims(frame())
    assert len(found) == 16
    assert all(c.holds for c in found.values()), [c.claim for c in found.values() if not c.holds]
    assert all(c.margin is None or c.margin > 0 for c in found.values())


CASES = [
    # (claim, change that must make it fail): a 0.5% gap is not "faster"
    ("torus: recursive doubling is the faster allreduce for short vectors", at("torus", "allreduce", "rabenseifner", 128, 0.5)),
    ("fat tree: recursive doubling is the faster allreduce for short vectors", at("fat tree", "allreduce", "recursive_doubling", 8, 2470 / 1210 * 0.995)),
    ("dragonfly: Rabenseifner's algorithm is the faster allreduce for long vectors", at("dragonfly", "allreduce", "rabenseifner", 128 * 1024, 10)),
    ("fat tree: Rabenseifner's algorithm is the faster allreduce for long vectors", at("fat tree", "allreduce", "rabenseifner", 8192, 2.2)),
    # Rabenseifner's faster only from 32 KB: four times past one grid step from 2 KB
    ("torus: the allreduce's switch from recursive doubling to Rabenseifner's algorithm lies near 2 KB",
     lambda labels, t: t * 3 if labels["network"] == "torus" and labels["algorithm"] == "rabenseifner" and labels["message_bytes"] <= 8192 else t),
    ("dragonfly: the binomial tree is the faster broadcast for short messages", at("dragonfly", "broadcast", "scatter_allgather", 2048, 0.9)),
    ("torus: the scatter + allgather is the faster broadcast for long messages", at("torus", "broadcast", "scatter_allgather", 128 * 1024, 5)),
    ("fat tree: hardware broadcast much faster than the binomial software broadcast", at("fat tree", "broadcast", "hardware", 2**20, 10 * (ALPHA + 65536) / (ALPHA + 65544) / 1.19)),
]


@pytest.mark.parametrize(("name", "change"), CASES, ids=[c[0] for c in CASES])
def test_a_claim_fails_when_its_ordering_does(name: str, change: Change) -> None:
    found = claims(frame(change))
    assert found[name].holds is False, found[name].ours
    assert found[name].margin is None or found[name].margin < 0
    # the others are untouched by a change aimed at this one, except its own network's switch claim
    untouched = [c for c in found.values() if c.claim != name and c.claim.split(":")[0] != name.split(":")[0]]
    assert all(c.holds for c in untouched)


def test_a_switch_never_reached_fails() -> None:
    found = claims(frame(at("dragonfly", "allreduce", "rabenseifner", None, 100)))
    claim = found["dragonfly: the allreduce's switch from recursive doubling to Rabenseifner's algorithm lies near 2 KB"]
    assert claim.holds is False and "from no size on" in claim.ours


def test_the_estimates_verdict_is_shown_beside() -> None:
    found = claims(frame(at("torus", "allreduce", "rabenseifner", 128 * 1024, 10)))
    claim = found["torus: Rabenseifner's algorithm is the faster allreduce for long vectors"]
    assert claim.holds is False and "α-β-γ: holds" in claim.ours


def test_a_point_without_a_completion_leaves_its_claims_unjudged() -> None:
    found = claims(frame(at("torus", "allreduce", "recursive_doubling", 128 * 1024, math.nan)))
    assert found["torus: Rabenseifner's algorithm is the faster allreduce for long vectors"].holds is None
    assert found["torus: the allreduce's switch from recursive doubling to Rabenseifner's algorithm lies near 2 KB"].holds is None
    assert found["torus: recursive doubling is the faster allreduce for short vectors"].holds


def test_a_failed_point_leaves_every_claim_unjudged() -> None:
    results = frame()
    results.loc[0, "error"] = "boom"
    table = judge(EXPERIMENT, results)
    assert (table["status"] == NOT_JUDGED).all()


# --- quick mode ---------------------------------------------------------------------------------------------

QUICK_JUDGED = {f"{n}: recursive doubling is the faster allreduce for short vectors" for n in collectives.NETWORKS}


@pytest.mark.parametrize("change", [lambda labels, t: t, *(c for _, c in CASES)])
def test_quick_mode_judges_only_what_the_full_run_cannot_contradict(change: Change) -> None:
    """The quick run judges the claims that read only its sizes, and each as the full run does."""
    full = judge(EXPERIMENT, frame(change)).set_index("claim")
    quick = judge(EXPERIMENT, frame(change, collectives.QUICK_SIZES), quick=True).set_index("claim")
    judged = quick[quick["holds"].notna()]
    assert set(judged.index) == QUICK_JUDGED
    for name, row in judged.iterrows():
        assert row["holds"] == full.at[name, "holds"]
    assert quick.loc[list(set(quick.index) - QUICK_JUDGED), "note"].str.startswith("not judged in quick mode").all()


def test_quick_resolution_covers_only_quick_sizes() -> None:
    """The one quantity resolved in quick mode is the completion at the sizes the quick run has, all of them."""
    quick = collectives.Sizes(min(collectives.QUICK_SIZES), max(collectives.QUICK_SIZES))
    assert quick.of(collectives.SIZES) == collectives.QUICK_SIZES
    assert EXPERIMENT.quick_resolution == {quick.key: 0.0}


def test_a_quick_verdict_that_holds() -> None:
    quick = judge(EXPERIMENT, frame(sizes=collectives.QUICK_SIZES), quick=True)
    assert set(quick.loc[quick["status"] == HOLDS, "claim"]) == QUICK_JUDGED


# --- the plot -----------------------------------------------------------------------------------------------


def test_the_plot_writes_a_png_per_operation_and_network(tmp_path: Path) -> None:
    results = frame(at("torus", "allreduce", "ring", 2**20, math.nan))
    results.loc[results["completion_cycles"].isna(), "saturated"] = True
    EXPERIMENT.plot(collectives._derive(results), tmp_path)
    expected = {collectives.panel_name(op, net) for op in collectives.ALGORITHMS for net in collectives.NETWORKS}
    assert {p.name for p in tmp_path.iterdir()} == expected
    assert all((tmp_path / name).stat().st_size > 10_000 for name in expected)
