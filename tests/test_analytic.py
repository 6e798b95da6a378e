"""Study 004's analytic model (flitcast.analytic) and `flitcast model`: hand-computed values of the
equations, the core's plans as the source of relay counts, clean errors and all-or-nothing output."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from typer.testing import CliRunner

from flitcast import analytic
from flitcast.cli import app
from flitcast.errors import ConfigError

P = analytic.Parameters()
O128 = 1.994  # µs: o = 1994 + 3.15·(M − 128) ns at M = 128


def test_overhead_and_intermediate_delay() -> None:
    assert P.o(128) == pytest.approx(1.994)
    assert P.o(512) == pytest.approx(3.2036)  # Fig. 8's 3203 ns
    assert P.L_i("u_torus", 128) == pytest.approx(629 + 2 * O128)  # Table 1
    assert analytic.Parameters(t_process_unit="ns").L_i("u_torus", 128) == pytest.approx(0.629 + 2 * O128)
    assert analytic.logp_one_way(1.0, 2.0, 3.0) == 6.0
    assert analytic.logp_round_trip(1.0, 2.0, 3.0) == 12.0
    assert analytic.relaxed_logp(2.0, 0.5, 3.0) == 5.5
    # Eq. 4: 6 links, 4 nodes passed, one turn, one relay of 10 µs
    assert analytic.t_network(P, 6, 4, 1, 1, 10.0) == pytest.approx(6 * 0.014 + 4 * 0.060 + 0.670 + 10.0)


@pytest.mark.parametrize(
    ("algorithm", "group", "expected"),
    [
        ("separate", 4, 3 * (O128 + 7) + O128),  # Eq. 8: (G − 1)(o + t_process) + o
        ("separate", 16, 15 * (O128 + 7) + O128),
        ("s_torus", 8, 2 * O128 + 6 * (265 + 2 * O128)),  # Eq. 12: 2o + (G − 2)·L_i
        ("s_torus", 16, 2 * O128 + 14 * (265 + 2 * O128)),
        ("mu_torus", 4, 2 * O128 + 2 * (201 + 2 * O128)),  # Eq. 10, one partition
        # the plans' deepest paths: Md-torus on 4×4, G = 16: header + two relays along a ringlet
        ("md_torus", 16, 2 * O128 + 3 * (206 + 2 * O128)),
        # Mu-torus r = 4, G = 10: blocks of 4, 4 and 2; a block behind its head has 3 relays
        ("mu_torus", 10, 2 * O128 + 3 * (201 + 2 * O128)),
        # U-torus, G = 16: 0 → 8 → 12 → 14 → 15, three relays
        ("u_torus", 16, 2 * O128 + 3 * (629 + 2 * O128)),
    ],
)
def test_simplified_model_by_hand(algorithm: str, group: int, expected: float) -> None:
    assert analytic.latency(algorithm, 4, group, 128) == pytest.approx(expected)


def test_closed_forms_and_the_deepest_path_model() -> None:
    # closed forms: S-torus and one partition agree with the plans; the reconstructions differ
    assert analytic.deepest_relays("s_torus", 4, 12, h_i="closed") == analytic.deepest_relays("s_torus", 4, 12) == 10
    assert analytic.deepest_relays("mu_torus", 4, 16, r=4, h_i="closed") == 4 + 4 - 2
    assert analytic.deepest_relays("u_torus", 8, 40, h_i="closed") == math.ceil(math.log2(40))
    # Eq. 3 with Eq. 4's terms: S-torus G = 4 on 4×4 is 0 → 1 → 2 → 3, three links in x
    expected = 2 * O128 + 3 * 0.014 + 2 * (265 + 2 * O128)
    assert analytic.latency("s_torus", 4, 4, model="deepest_path") == pytest.approx(expected)
    # separate addressing's last send leaves after G − 1 of (o + t_process); node 15 is 3 + 3 hops away
    last = 15 * (O128 + 7) + O128 + 6 * 0.014 + 4 * 0.060 + 0.670
    assert analytic.latency("separate", 4, 16, model="deepest_path") == pytest.approx(last)


def test_projection_claims_of_fig14_under_our_reading() -> None:
    # "the optimal partition length for Mu-torus is equal to k" with the closed-form reconstruction
    for k, g in ((8, 64), (16, 256)):
        best = min((8, 16, 32), key=lambda r: analytic.latency("mu_torus", k, g, r=r, h_i="closed"))
        assert best == k
    # S-torus worst beyond 8 nodes on 8×8 (against the tree algorithms)
    for g in (12, 16, 32, 64):
        s = analytic.latency("s_torus", 8, g)
        assert all(s > analytic.latency(a, 8, g) for a in ("u_torus", "md_torus", "mu_torus"))


def test_bad_requests_are_config_errors() -> None:
    with pytest.raises(ConfigError) as info:
        analytic.latency("x_torus", 4, 8)
    assert info.value.key == "model.algorithm"
    with pytest.raises(ConfigError) as info:
        analytic.latency("s_torus", 4, 17)
    assert info.value.key == "model.group"


def test_model_command_prints_and_writes(tmp_path: Path) -> None:
    out = tmp_path / "m"
    result = CliRunner().invoke(app, ["model", "--k", "8", "--group", "4:64:4", "--r", "8,16", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "mu_torus" in result.output and "s_torus" in result.output
    assert {p.name for p in out.iterdir()} == {"model.csv", "model.png"}
    import pandas as pd

    frame = pd.read_csv(out / "model.csv")
    assert len(frame) == 16 * 6  # 4 algorithms + Mu-torus at two r, 16 group sizes
    assert (frame["latency_us"] > 0).all()


@pytest.mark.parametrize(
    ("args", "key"),
    [
        (["--k", "1"], "--k"),
        (["--group", "4:99:1"], "--group"),
        (["--algorithm", "t_torus"], "--algorithm"),
        (["--bytes", "a,b"], "--bytes"),
        (["--h-i", "deep"], "--h-i"),
    ],
)
def test_model_command_bad_input_exits_2_without_output(args: list[str], key: str, tmp_path: Path) -> None:
    out = tmp_path / "m"
    result = CliRunner().invoke(app, ["model", *args, "--out", str(out)])
    assert result.exit_code == 2, result.output
    assert key in result.output and "Traceback" not in result.output
    assert not out.exists()
