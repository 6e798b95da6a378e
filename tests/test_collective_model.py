"""``flitcast model --collective``: the α-β-γ estimate of a collective without simulating it, the same number a
simulation of the same scenario reports beside its completion (docs/models/collectives.md, "The estimate")."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from typer.testing import CliRunner

import flitcast
from flitcast.api import collective_estimate
from flitcast.cli import app
from flitcast.errors import ConfigError

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "examples" / "scenarios" / "fat_tree64_allreduce.toml"


def test_the_estimate_is_the_one_a_run_reports() -> None:
    for scheme, flits in (("ring", 8), ("rabenseifner", 64), ("binomial", 16)):
        s = flitcast.load_scenario(EXAMPLE).with_overrides({"workload.scheme": scheme, "workload.message_flits": flits})
        estimate = collective_estimate(s)
        assert len(estimate["members"]) == 64 and len(estimate["rank_cycles"]) == 64
        assert estimate["completion_cycles"] == max(estimate["rank_cycles"])
        assert flitcast.run(s).metrics["estimate_cycles"] == estimate["completion_cycles"]


def test_the_estimate_counts_only_what_it_builds_against_the_memory_budget() -> None:
    # a 64-member allreduce of 1,000,000 flits: a run needs hundreds of MB of source queues, the estimate
    # only its schedule and distances (issue 35 §2)
    big = flitcast.Scenario(
        network={"topology": "mesh", "k": 8, "n": 2},
        workload={"program": "collective", "operation": "allreduce", "message_flits": 1_000_000},
        run={"warmup_cycles": 0, "measure_cycles": 2, "batches": 2, "memory_limit_mb": 100},
    )
    assert collective_estimate(big)["completion_cycles"] > 0
    with pytest.raises(ConfigError) as info:
        flitcast.run(big)
    assert info.value.key == "run.memory_limit_mb" and "source queues" in info.value.allowed
    # and its own parts still count: an all-to-all's schedule of 16,384² blocks is refused
    huge = big.with_overrides({"network.k": 128, "workload.operation": "alltoall", "workload.message_flits": 1})
    with pytest.raises(ConfigError) as info:
        collective_estimate(huge)
    assert info.value.key == "run.memory_limit_mb" and "collective schedule" in info.value.allowed


def test_only_a_collective_has_an_estimate() -> None:
    with pytest.raises(ConfigError) as info:
        collective_estimate(flitcast.Scenario())
    assert info.value.key == "workload.program" and "'collective'" in info.value.allowed


def test_model_collective_prints_and_writes(tmp_path: Path) -> None:
    out = tmp_path / "m"
    args = ["model", "--collective", str(EXAMPLE), "--vary", "workload.message_flits=8,4096",
            "--vary", "workload.scheme=ring,rabenseifner", "--out", str(out)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert {p.name for p in out.iterdir()} == {"model.csv", "model.png"}
    frame = pd.read_csv(out / "model.csv")
    assert len(frame) == 4 and (frame["members"] == 64).all()
    # the classic crossover: the ring's 2(P − 1) rounds cost most on short vectors, its bandwidth wins on long
    short, long = frame[frame["workload.message_flits"] == 8], frame[frame["workload.message_flits"] == 4096]
    assert short.set_index("workload.scheme")["estimate_cycles"]["ring"] > short.set_index("workload.scheme")["estimate_cycles"]["rabenseifner"]
    assert (long["estimate_cycles"] > short["estimate_cycles"].to_numpy()).all()


@pytest.mark.parametrize(
    ("args", "key"),
    [
        (["--collective", str(EXAMPLE), "--k", "8"], "--k"),
        (["--vary", "workload.message_flits=8,16"], "--vary"),
        (["--collective", str(REPO / "examples" / "scenarios" / "mesh8_uniform.toml")], "workload.program"),
        (["--collective", str(EXAMPLE), "--vary", "workload.scheme=pairwise"], "workload.scheme"),
    ],
)
def test_model_collective_bad_input_exits_2_without_output(args: list[str], key: str, tmp_path: Path) -> None:
    out = tmp_path / "m"
    result = CliRunner().invoke(app, ["model", *args, "--out", str(out)])
    assert result.exit_code == 2, result.output
    assert key in result.output and "Traceback" not in result.output
    assert not out.exists()


# --- the documented costs are the estimate's ----------------------------------------------------------------

MODEL = REPO / "docs" / "models" / "collectives.md"


def _log2(p: int) -> tuple[int, int]:
    """⌈log₂ P⌉ and ⌊log₂ P⌋."""
    return (p - 1).bit_length(), p.bit_length() - 1


#: (operation, scheme) -> the cost as docs/models/collectives.md's table writes it, the same cost in Python
#: (P ranks, n flits, segment s, α, γ, overheads o_s = o_r = o; β = 1 cycle a flit), and whether it holds for
#: every P (else for P a power of two only)
COSTS: dict[tuple[str, str], tuple[str, Callable[..., float], bool]] = {
    ("broadcast", "binomial"): ("⌈log₂ P⌉·nβ + ⌊log₂ P⌋·α", lambda p, n, s, a, g, o: _log2(p)[0] * n + _log2(p)[1] * a, True),
    ("broadcast", "chain"): (
        "(P − 1)·(α + sβ) + (⌈n/s⌉ − 1)·max(sβ, o_s + o_r)",
        lambda p, n, s, a, g, o: (p - 1) * (a + s) + (-(-n // s) - 1) * max(s, 2 * o),
        True,
    ),
    ("broadcast", "scatter_allgather"): (
        "2 log₂ P·α + 2(P − 1)/P·nβ (P a power of two); (⌊log₂ P⌋ + P − 1)·α + 2(P − 1)/P·nβ otherwise",
        lambda p, n, s, a, g, o: (2 * _log2(p)[1] if p & (p - 1) == 0 else _log2(p)[1] + p - 1) * a + 2 * (p - 1) * n / p,
        True,
    ),
    ("broadcast", "scatter_ring_allgather"): (
        "(⌊log₂ P⌋ + P − 1)·α + 2(P − 1)/P·nβ",
        lambda p, n, s, a, g, o: (_log2(p)[1] + p - 1) * a + 2 * (p - 1) * n / p,
        True,
    ),
    ("reduce", "binomial"): ("log₂ P·(α + nβ + nγ)", lambda p, n, s, a, g, o: _log2(p)[1] * (a + n + n * g), False),
    ("allreduce", "recursive_doubling"): ("log₂ P·(α + nβ + nγ)", lambda p, n, s, a, g, o: _log2(p)[1] * (a + n + n * g), False),
    ("allreduce", "ring"): (
        "2(P − 1)α + 2(P − 1)/P·nβ + (P − 1)/P·nγ",
        lambda p, n, s, a, g, o: 2 * (p - 1) * a + 2 * (p - 1) * n / p + (p - 1) * n / p * g,
        True,
    ),
    ("allreduce", "rabenseifner"): (
        "2 log₂ P·α + 2(P − 1)/P·nβ + (P − 1)/P·nγ",
        lambda p, n, s, a, g, o: 2 * _log2(p)[1] * a + 2 * (p - 1) * n / p + (p - 1) * n / p * g,
        False,
    ),
    ("allreduce", "binomial"): (
        "2 log₂ P·(α + nβ) + log₂ P·nγ",
        lambda p, n, s, a, g, o: 2 * _log2(p)[1] * (a + n) + _log2(p)[1] * n * g,
        False,
    ),
    ("barrier", "dissemination"): ("⌈log₂ P⌉·(α + β)", lambda p, n, s, a, g, o: _log2(p)[0] * (a + 1), True),
    ("barrier", "recursive_doubling"): ("log₂ P·(α + β)", lambda p, n, s, a, g, o: _log2(p)[1] * (a + 1), False),
    ("barrier", "binomial"): ("2 log₂ P·(α + β)", lambda p, n, s, a, g, o: 2 * _log2(p)[1] * (a + 1), False),
    ("alltoall", "pairwise"): ("(P − 1)·(α + nβ)", lambda p, n, s, a, g, o: (p - 1) * (a + n), True),
}


def _estimate(operation: str, scheme: str, p: int, n: int, segment: int = 16, overhead: int = 0, gamma: float = 0.0) -> float:
    """The estimate of one collective on one 8-port switch (every pair of members the same α)."""
    workload: dict[str, Any] = {"program": "collective", "operation": operation, "scheme": scheme, "group_size": p, "segment_flits": segment,
                                "send_overhead_cycles": overhead, "receive_overhead_cycles": overhead, "reduce_cycles_per_flit": gamma}
    if operation != "barrier":
        workload["message_flits"] = n
    scenario = {"network": {"topology": "fat_tree", "k": 8, "n": 1}, "switch": {"model": "central_buffer"}, "routing": {"algorithm": "adaptive"},
                "workload": workload, "run": {"warmup_cycles": 0}}
    return collective_estimate(scenario)["completion_cycles"]


def _documented(operation: str, scheme: str) -> str:
    """The cost cell of the table's row for ``operation`` by ``scheme``."""
    rows = [line for line in MODEL.read_text().splitlines() if line.startswith(f"| `{operation}` | `{scheme}` |")]
    assert len(rows) == 1, (operation, scheme)
    return rows[0].rstrip(" |").rsplit(" | ", 1)[1]


@pytest.mark.parametrize(("operation", "scheme"), list(COSTS))
def test_the_documented_cost_is_the_estimate(operation: str, scheme: str) -> None:
    """docs/models/collectives.md's table, row by row, against the estimate on one switch, where nothing is
    shared: without overheads, and with o_s = o_r = 50 cycles (less than a message's flits, so a rank's NIC,
    not its processor, spaces its sends; α then includes them), at P = 2 … 8 (powers of two where the row
    says so) and the points the table was once wrong at (the chain at P = 4, n = 1,024 flits in segments of
    8; the binomial tree at P = 5, n = 1,000)."""
    text, cost, every_p = COSTS[(operation, scheme)]
    assert text in _documented(operation, scheme)
    points = [(p, 64 * p, 16) for p in range(3 if scheme == "chain" else 2, 9) if every_p or p & (p - 1) == 0]
    points += {("broadcast", "chain"): [(4, 1024, 8)], ("broadcast", "binomial"): [(5, 1000, 16)]}.get((operation, scheme), [])
    for overhead in (0, 50):
        # α: a one-flit message's time from its send to its receive being done, less the flit's β
        alpha = _estimate("broadcast", "binomial", 2, 1, overhead=overhead) - 1
        for p, n, segment in points:
            got = _estimate(operation, scheme, p, n, segment, overhead, 0.5)
            assert got == cost(p, n, segment, alpha, 0.5, overhead), (operation, scheme, p, n, segment, overhead)
