"""``flitcast model --collective``: the α-β-γ estimate of a collective without simulating it, the same number a
simulation of the same scenario reports beside its completion (docs/models/collectives.md, "The estimate")."""

from __future__ import annotations

from pathlib import Path

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
