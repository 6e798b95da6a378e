"""Study 004's analytic model (flitcast.analytic) and `flitcast model`: hand-computed values of the
equations, the core's plans as the source of relay counts, clean errors (every misuse of the Python
functions a ConfigError naming the argument) and all-or-nothing output."""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
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
        # Eq. 9 as we read it: ⌈(G − 1)/k⌉ − 1 = 3 on 4×4 at G = 16
        ("md_torus", 16, 2 * O128 + 3 * (206 + 2 * O128)),
        # Eq. 10, p ≥ 2: ⌈(G − r)/k⌉ + r − 1 = ⌈6/4⌉ + 3 = 5 at G = 10, r = 4
        ("mu_torus", 10, 2 * O128 + 5 * (201 + 2 * O128)),
        # Eq. 11: ⌈log₂ 16⌉ = 4
        ("u_torus", 16, 2 * O128 + 4 * (629 + 2 * O128)),
    ],
)
def test_simplified_model_by_hand(algorithm: str, group: int, expected: float) -> None:
    assert analytic.latency(algorithm, 4, group, 128) == pytest.approx(expected)


@pytest.mark.parametrize(
    ("algorithm", "k", "group", "r", "expected"),
    [
        # Eq. 11: ⌈log₂ G⌉
        ("u_torus", 4, 5, 4, 3),
        ("u_torus", 4, 16, 4, 4),
        ("u_torus", 8, 40, 4, 6),
        ("u_torus", 16, 256, 4, 8),
        # Eq. 10: G − 2 for one partition (G ≤ r), else ⌈(G − r)/k⌉ + r − 1
        ("mu_torus", 4, 4, 4, 2),
        ("mu_torus", 4, 16, 4, 3 + 3),
        ("mu_torus", 8, 64, 8, 7 + 7),
        ("mu_torus", 8, 64, 16, 6 + 15),
        ("mu_torus", 16, 256, 8, 16 + 7),  # 4,718.7 µs (the blocks of our plan: 8 relays, 1,643.9 µs)
        ("mu_torus", 16, 256, 16, 15 + 15),
        ("mu_torus", 16, 256, 32, 14 + 31),
        ("mu_torus", 16, 20, 32, 18),
        # Eq. 9 as we read it: ⌈(G − 1)/k⌉ − 1, a step when G − 1 passes a multiple of k
        ("md_torus", 4, 5, 4, 0),
        ("md_torus", 4, 6, 4, 1),
        ("md_torus", 4, 16, 4, 3),
        ("md_torus", 16, 17, 4, 0),
        ("md_torus", 16, 18, 4, 1),
        ("md_torus", 16, 256, 4, 15),
        # Eq. 12 and Eq. 8
        ("s_torus", 4, 12, 4, 10),
        ("separate", 8, 40, 4, 0),
    ],
)
def test_the_default_h_i_is_the_studys_equations(
    algorithm: str, k: int, group: int, r: int, expected: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the closed forms are the study's, not our plans: they must not ask the core
    def no_plan(*args: Any) -> None:
        raise AssertionError("the closed forms must not read the core's plans")

    monkeypatch.setattr(analytic, "_core_plan", no_plan)
    assert analytic.deepest_relays(algorithm, k, group, r) == expected
    o = O128
    L_i = analytic.T_PROCESS[algorithm] + 2 * o
    if algorithm != "separate":
        assert analytic.latency(algorithm, k, group, 128, r=r) == pytest.approx(2 * o + expected * L_i)


@pytest.mark.parametrize(
    ("algorithm", "k", "group", "r", "expected"),
    [
        ("u_torus", 4, 16, 4, 3),  # 0 → 8 → 12 → 14 → 15: three relays, the root's sends left out
        ("mu_torus", 4, 10, 4, 3),  # partitions of 4, 4 and 2 nodes, the root heading the first: 4 → 5 → 6 → 7
        ("mu_torus", 16, 256, 8, 8),  # four partitions of r^(s−1) = 64 nodes, each eight of 8: head, head, 6
        ("md_torus", 4, 16, 4, 3),  # the rebuilt Md-torus: the same as Eq. 9's reading on these groups
        ("md_torus", 16, 256, 4, 15),
    ],
)
def test_the_tree_option_gives_the_plans_relays(algorithm: str, k: int, group: int, r: int, expected: int) -> None:
    assert analytic.deepest_relays(algorithm, k, group, r, h_i="tree") == expected
    assert expected == max(analytic.plan(algorithm, k, group, r)["relays"])
    L_i = analytic.T_PROCESS[algorithm] + 2 * O128
    assert analytic.latency(algorithm, k, group, 128, r=r, h_i="tree") == pytest.approx(2 * O128 + expected * L_i)


def test_the_deepest_path_model() -> None:
    # Eq. 3 with Eq. 4's terms: S-torus G = 4 on 4×4 is 0 → 1 → 2 → 3, three links in x
    expected = 2 * O128 + 3 * 0.014 + 2 * (265 + 2 * O128)
    assert analytic.latency("s_torus", 4, 4, model="deepest_path") == pytest.approx(expected)
    # separate addressing's last send leaves after G − 1 of (o + t_process); node 15 is 3 + 3 hops away
    last = 15 * (O128 + 7) + O128 + 6 * 0.014 + 4 * 0.060 + 0.670
    assert analytic.latency("separate", 4, 16, model="deepest_path") == pytest.approx(last)


def test_fig14_values_under_the_studys_equations() -> None:
    # the best Mu-torus partition length at G = k² (§6 says k): Eq. 10 as we read it gives r = 8 on both
    # tori (h_i 14 / 21 / 35 on 8×8, 23 / 30 / 45 on 16×16); the plans give 8 too
    for k in (8, 16):
        for h_i in ("closed", "tree"):
            best = min((8, 16, 32), key=lambda r: analytic.latency("mu_torus", k, k * k, r=r, h_i=h_i))
            assert best == 8, (k, h_i)
    # S-torus worst beyond 8 nodes on 8×8 (against the tree algorithms) from G = 12 on
    for g in (12, 16, 32, 64):
        s = analytic.latency("s_torus", 8, g)
        assert all(s > analytic.latency(a, 8, g) for a in ("u_torus", "md_torus", "mu_torus"))


# (call, the argument its error must name): every misuse of the module's functions and of Parameters
MISUSES: list[tuple[str, Callable[[], Any], str]] = [
    ("algorithm bogus", lambda: analytic.latency("x_torus", 4, 8), "algorithm"),
    ("algorithm None", lambda: analytic.plan(None, 4, 8), "algorithm"),
    ("k str", lambda: analytic.latency("s_torus", "4", 8), "k"),
    ("k None", lambda: analytic.latency("s_torus", None, 8), "k"),
    ("k bool", lambda: analytic.latency("s_torus", True, 8), "k"),
    ("k float", lambda: analytic.latency("s_torus", 4.0, 8), "k"),
    ("k 1", lambda: analytic.latency("separate", 1, 2), "k"),
    ("k 65", lambda: analytic.latency("separate", 65, 8), "k"),  # (separate never asks the core)
    ("group 17", lambda: analytic.latency("s_torus", 4, 17), "group"),
    ("group 1", lambda: analytic.deepest_relays("u_torus", 4, 1), "group"),
    ("message_bytes -1", lambda: analytic.latency("s_torus", 4, 8, message_bytes=-1), "message_bytes"),
    ("message_bytes nan", lambda: analytic.latency("s_torus", 4, 8, message_bytes=math.nan), "message_bytes"),
    ("message_bytes 2^64", lambda: analytic.latency("s_torus", 4, 8, message_bytes=2**64), "message_bytes"),
    ("message_bytes str", lambda: analytic.latency("separate", 4, 8, message_bytes="128"), "message_bytes"),
    ("r -2", lambda: analytic.latency("mu_torus", 4, 8, r=-2), "r"),
    ("r 0, separate", lambda: analytic.latency("separate", 4, 8, r=0), "r"),
    ("r 17", lambda: analytic.plan("mu_torus", 4, 8, r=17), "r"),
    ("params 5", lambda: analytic.latency("s_torus", 4, 8, params=5), "params"),
    ("params the class", lambda: analytic.latency("s_torus", 4, 8, params=analytic.Parameters), "params"),
    ("model bogus", lambda: analytic.latency("s_torus", 4, 8, model="bogus"), "model"),
    ("h_i bogus", lambda: analytic.latency("s_torus", 4, 8, h_i="bogus"), "h_i"),
    ("h_i bogus, deepest_relays", lambda: analytic.deepest_relays("s_torus", 4, 8, h_i="deep"), "h_i"),
    ("table r [0]", lambda: analytic.table(4, [8], [128], r=[0]), "r"),
    ("table groups int", lambda: analytic.table(4, 8, [128]), "groups"),
    ("table groups empty", lambda: analytic.table(4, [], [128]), "groups"),
    ("table groups 17", lambda: analytic.table(4, [8, 17], [128]), "groups"),
    ("table message_bytes -1", lambda: analytic.table(4, [8], [-1]), "message_bytes"),
    ("table algorithms str", lambda: analytic.table(4, [8], [128], algorithms="s_torus"), "algorithms"),
    ("table algorithms bogus", lambda: analytic.table(4, [8], [128], algorithms=["x_torus"]), "algorithms"),
    ("table algorithms empty", lambda: analytic.table(4, [8], [128], algorithms=[]), "algorithms"),
    ("table k str", lambda: analytic.table("4", [8], [128]), "k"),
    ("table params", lambda: analytic.table(4, [8], [128], params={}), "params"),
    ("table h_i", lambda: analytic.table(4, [8], [128], h_i=None), "h_i"),
    ("t_network negative hops", lambda: analytic.t_network(P, -1, -2, -1), "h_p"),
    ("t_network float hops", lambda: analytic.t_network(P, 1, 2.5, 1), "h_f"),
    ("t_network h_i", lambda: analytic.t_network(P, 1, 1, 1, h_i=-1), "h_i"),
    ("t_network L_i", lambda: analytic.t_network(P, 1, 1, 1, 1, L_i=-1.0), "L_i"),
    ("t_network p", lambda: analytic.t_network("P", 1, 1, 1), "p"),
    ("logp_one_way L", lambda: analytic.logp_one_way(-1.0, 1.0, 1.0), "L"),
    ("logp_one_way o_receiver", lambda: analytic.logp_one_way(1.0, 1.0, "1"), "o_receiver"),
    ("logp_round_trip o_sender", lambda: analytic.logp_round_trip(1.0, math.nan, 1.0), "o_sender"),
    ("relaxed_logp t_network", lambda: analytic.relaxed_logp(1.0, math.inf, 1.0), "t_network"),
    ("relaxed_logp huge int", lambda: analytic.relaxed_logp(1.0, 10**400, 1.0), "t_network"),
    ("Parameters t_process_unit", lambda: analytic.Parameters(t_process_unit="ms"), "t_process_unit"),
    ("Parameters L_p", lambda: analytic.Parameters(L_p=-0.014), "L_p"),
    ("Parameters L_s bool", lambda: analytic.Parameters(L_s=True), "L_s"),
    ("Parameters o_per_byte", lambda: analytic.Parameters(o_per_byte=math.nan), "o_per_byte"),
    ("Parameters o(0) < 0", lambda: analytic.Parameters(o_128=0.1), "o_128"),
    ("Parameters t_process part", lambda: analytic.Parameters(t_process={"s_torus": 1.0}), "t_process"),
    ("Parameters t_process value", lambda: analytic.Parameters(t_process={**analytic.T_PROCESS, "u_torus": -1}), "t_process"),
    ("Parameters.o", lambda: P.o(-1), "message_bytes"),
    ("Parameters.process", lambda: P.process("x_torus"), "algorithm"),
    ("Parameters.L_i", lambda: P.L_i("u_torus", 1.5), "message_bytes"),
]


@pytest.mark.parametrize(("call", "argument"), [m[1:] for m in MISUSES], ids=[m[0] for m in MISUSES])
def test_every_misuse_is_a_config_error_naming_the_argument(call: Callable[[], Any], argument: str) -> None:
    with pytest.raises(ConfigError) as info:
        call()
    assert info.value.key.split("[")[0] == argument  # (a list's item is named by its place: groups[1])
    assert str(info.value).startswith(info.value.key + " = ") and info.value.allowed in str(info.value)


def test_choices_are_listed_in_their_errors() -> None:
    with pytest.raises(ConfigError, match="one of simplified, deepest_path"):
        analytic.latency("s_torus", 4, 8, model="bogus")
    with pytest.raises(ConfigError, match="one of separate, u_torus, s_torus, md_torus, mu_torus"):
        analytic.table(4, [8], [128], algorithms=["s_torus", "x_torus"])


def test_numpy_numbers_are_taken_as_python_numbers() -> None:
    import numpy as np

    assert analytic.latency("mu_torus", np.int64(4), np.int32(10), np.uint16(512), r=np.int8(4)) == analytic.latency(
        "mu_torus", 4, 10, 512, r=4
    )
    assert analytic.Parameters(L_p=np.float32(0.5), o_128=np.int64(2)) == analytic.Parameters(L_p=0.5, o_128=2.0)
    assert list(analytic.table(4, np.arange(4, 6), [128], algorithms=["s_torus"])["group"]) == [4, 5]
    with pytest.raises(ConfigError):
        analytic.latency("s_torus", 4, 8, np.float64(128.0))  # a size is a whole number of bytes


@settings(max_examples=200, deadline=None)
@given(
    st.integers(0, analytic.MAX_COUNT),
    st.sampled_from(analytic.ALGORITHMS),
    st.sampled_from(analytic.MODELS),
    st.sampled_from(analytic.H_I),
)
def test_any_message_size_gives_a_finite_positive_latency(message_bytes: int, algorithm: str, model: str, h_i: str) -> None:
    value = analytic.latency(algorithm, 4, 8, message_bytes, model=model, h_i=h_i)
    assert math.isfinite(value) and value > 0


@settings(max_examples=200, deadline=None)
@given(
    st.integers(max_value=-1)
    | st.integers(min_value=analytic.MAX_COUNT + 1)
    | st.floats()
    | st.booleans()
    | st.none()
    | st.text(max_size=4)
)
def test_any_other_message_size_is_a_config_error(message_bytes: Any) -> None:
    with pytest.raises(ConfigError) as info:
        analytic.latency("u_torus", 4, 8, message_bytes)
    assert info.value.key == "message_bytes"


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
    # h_i by default from the study's equations (Eq. 11: ⌈log₂ 64⌉ = 6), with --h-i tree from our plans (5)
    u = frame[(frame["algorithm"] == "u_torus") & (frame["group"] == 64)]
    assert list(u["h_i"]) == [6]
    result = CliRunner().invoke(app, ["model", "--k", "8", "--group", "64", "--algorithm", "u_torus", "--h-i", "tree", "--out", str(out), "--force"])
    assert result.exit_code == 0, result.output
    assert list(pd.read_csv(out / "model.csv")["h_i"]) == [5]


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
