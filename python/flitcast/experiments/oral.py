"""Study 004 — Oral, George: multicast performance modelling and evaluation for high-speed unidirectional
torus networks. Figs 2–5 (simulated), 9–13 (the model beside the simulation) and 14 (projections).

System (docs/models/torus_multicast.md): a k-ary 2-D unidirectional torus (4×4 for the case study), one
host per node; a cycle is 6 ns and a flit 4 bytes, so a link carries 0.667 bytes/ns (the testbed's 5.3
Gb/s); links of 2 cycles (12 ns ≈ L_p = 14 ns), 10 cycles through a node (60 ns = L_f), 64-byte packets
(SCI's payload), wormhole routers with two dateline VCs of 256 flits (1 KB: a stream turning from x to y
stays L_s = 670 ns = 112 cycles longer in its input buffer, which must hold that much to keep the stream
at full rate). Host software per Fig. 8 and Table 1:
o(M) = 1994 + 3.15·(M − 128) ns for sender and receiver (extrapolated linearly to 2 B and 512 KB: the
study fits it on 128–512 B), t_process in µs (our reading of Table 1); a head turning from x to y waits
L_s = 670 ns more at that node (`switch.turn_cycles`).
One multicast from node 0 to the next G − 1 nodes of its dimension-ordered chain; Mu-torus r = 4.

Measures: completion latency (start to the last destination's reception, µs), the root's busy time
(startup latency) and its share of the completion (root CPU utilisation), a modelled tree-creation time,
link concentration and concurrency; the model of §5 (`flitcast.analytic`, h_i from the plans) beside the
simulation. Every experiment runs in seconds, so quick mode is the full run and judges every claim.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flitcast.experiments.experiment import Claim, Experiment, Point, coincidence_labels, series_style

if TYPE_CHECKING:
    import pandas as pd

    from flitcast.config import Scenario

STUDY = "004 Oral, George (multicast on unidirectional SCI tori: algorithms and latency model)"

ALGORITHMS = {"Sep Add": "separate", "U-torus": "u_torus", "S-torus": "s_torus", "Md-torus": "md_torus", "Mu-torus": "mu_torus"}
CYCLE_NS = 6
FLIT_BYTES = 4
PACKET_BYTES = 64
GROUPS = list(range(4, 17))
#: tree-creation cost per elementary step of a plan's construction (a compare, a division, a move), ns
STEP_NS = 50.0


def cycles(ns: float) -> int:
    return max(0, round(ns / CYCLE_NS))


def scenario(algorithm: str, k: int, group: int, message_bytes: int, r: int = 4) -> Scenario:
    """One point: one multicast of ``message_bytes`` from node 0 to the next ``group`` − 1 nodes."""
    from flitcast.analytic import Parameters
    from flitcast.config import Scenario  # (here: listing the experiments needs no pydantic)

    p = Parameters()
    scheme = ALGORITHMS[algorithm]
    flits = -(-message_bytes // FLIT_BYTES)
    o = cycles(p.o(message_bytes) * 1000)
    return Scenario.model_validate(
        {
            "network": {"topology": "torus", "k": k, "n": 2, "unidirectional": True, "channel_latency_cycles": 2, "terminal_latency_cycles": 2},
            "switch": {"vcs": 2, "buffer_flits": 256, "router_delay_cycles": 10, "turn_cycles": cycles(p.L_s * 1000)},
            "workload": {
                "program": "torus_multicast",
                "group_size": group,
                "scheme": scheme,
                "message_flits": flits,
                "packet_flits": min(flits, PACKET_BYTES // FLIT_BYTES),
                **({"partition": r} if scheme == "mu_torus" else {}),
                "send_overhead_cycles": o,
                "receive_overhead_cycles": o,
                "process_cycles": cycles(p.process(scheme) * 1000),
            },
            "run": {"warmup_cycles": 0, "measure_cycles": 2, "batches": 2, "drain_max_cycles": 10**9, "watchdog_cycles": 10**8},
        }
    )


def _points(k: int, groups: list[int], sizes: list[int], rs: list[int] | None = None) -> list[Point]:
    points = []
    for algorithm in ALGORITHMS:
        for r in (rs or [4]) if algorithm == "Mu-torus" else [None]:
            label = f"Mu-torus (r={r})" if r and rs else algorithm
            for size in sizes:
                for g in groups:
                    points.append(
                        Point({"algorithm": label, "k": k, "group": g, "message_bytes": size}, scenario(algorithm, k, g, size, r or 4))
                    )
    return points


def tree_creation_ns(algorithm: str, group: int, k: int, r: int = 4) -> float:
    """A modelled tree-creation time (none for separate addressing): ranking the d − 1 destinations on the
    chain (d·⌈log₂ d⌉ steps) and the root's partitioning — U-torus its ⌈log₂ d⌉ halvings (the rest is done
    by the receivers), Md-torus one pass splitting the ranked list into ringlets (d), Mu-torus one pass per
    level of partitions (d·⌈log_r d⌉); S-torus only ranks. Each step costs ``STEP_NS``."""
    if algorithm == "separate":
        return 0.0
    d = group
    log2 = math.ceil(math.log2(d))
    steps = d * log2 + {"s_torus": 0, "u_torus": log2, "md_torus": d, "mu_torus": d * math.ceil(math.log(d, r) - 1e-9)}[algorithm]
    return steps * STEP_NS


def derive(results: pd.DataFrame) -> pd.DataFrame:
    """Times in µs, CPU utilisation, the modelled tree creation, and the model of §5 beside each point."""
    from flitcast import analytic

    scheme = results["workload.scheme"]
    r = results["workload.partition"]
    model = [
        analytic.latency(s, int(k), int(g), int(m), r=int(rr))
        for s, k, g, m, rr in zip(scheme, results["k"], results["group"], results["message_bytes"], r, strict=True)
    ]
    creation = [tree_creation_ns(s, int(g), int(k), int(rr)) / 1000 for s, g, k, rr in zip(scheme, results["group"], results["k"], r, strict=True)]
    completion = results["completion_cycles"] * CYCLE_NS / 1000
    out = results.assign(
        completion_us=completion,
        startup_us=results["root_busy_cycles"] * CYCLE_NS / 1000,
        cpu_utilisation=results["root_busy_cycles"] / results["completion_cycles"],
        tree_creation_us=creation,
        model_us=model,
    )
    return out.assign(model_error=(out["model_us"] - out["completion_us"]) / out["completion_us"])


# --- claims ---------------------------------------------------------------------------------------------------


def _curves(results: pd.DataFrame, value: str, size: int | None = None) -> pd.DataFrame:
    sel = results if size is None else results[results["message_bytes"] == size]
    return sel.pivot_table(index="group", columns="algorithm", values=value)


def _linear(series: pd.Series) -> float:
    """R² of a straight-line fit."""
    import numpy as np

    x, y = series.index.to_numpy(dtype=float), series.to_numpy(dtype=float)
    fit = np.polyval(np.polyfit(x, y, 1), x)
    return 1 - float(((y - fit) ** 2).sum()) / float(((y - y.mean()) ** 2).sum())


def _fig2_claims(results: pd.DataFrame) -> list[Claim]:
    small, large = _curves(results, "completion_us", 2), _curves(results, "completion_us", 512 * 1024)
    claims = []
    for name, c in (("2 B", small), ("512 KB", large)):
        worst = (c.idxmax(axis=1) == "S-torus").mean()
        claims.append(Claim(f"S-torus has the worst latency ({name})", "S-torus has the worst performance for both small and large messages", f"worst at {worst:.0%} of group sizes", bool(worst == 1), "holds if worst at every group size"))
        claims.append(Claim(f"S-torus latency rises linearly with the group ({name})", "a linear increase in multicast completion latency", f"R² of a line {_linear(c['S-torus']):.3f}", bool(_linear(c["S-torus"]) > 0.98), "holds if R² > 0.98"))
    best_small = (small.idxmin(axis=1) == "Sep Add").mean()
    claims.append(Claim("separate addressing is best for small messages", "performs best for small messages", f"best at {best_small:.0%} of group sizes (2 B)", bool(best_small >= 0.5), "holds if best at half the group sizes or more"))
    claims.append(Claim("separate addressing rises linearly for large messages", "linearly increasing completion latencies for large messages", f"R² {_linear(large['Sep Add']):.3f}", bool(_linear(large["Sep Add"]) > 0.98), "holds if R² > 0.98"))
    ratio = large["Mu-torus"] / large["Md-torus"]
    uneven = [g for g in (10, 14) if g in ratio.index]
    even = [g for g in (12, 16) if g in ratio.index]
    if uneven and even:
        claims.append(
            Claim(
                "Mu-torus falls behind Md-torus where the partitions are uneven (512 KB)",
                "For group sizes of 10 and 14 the partition length for Mu-torus does not provide perfectly balanced partitions",
                "Mu/Md at " + ", ".join(f"{g}: {ratio[g]:.2f}" for g in uneven + even),
                bool(min(ratio[g] for g in uneven) > max(ratio[g] for g in even)),
                "holds if Mu/Md is higher at 10 and 14 than at 12 and 16",
            )
        )
    flat = small["U-torus"].max() / small["U-torus"].min()
    claims.append(Claim("U-torus is nearly flat for small messages", "U-torus has nearly flat latency for small messages", f"max/min over group sizes {flat:.2f}", bool(flat < 1.5), "holds if within ×1.5"))
    top = large.index.max()
    claims.append(Claim("Md-torus is best for large messages and groups", "for large messages and groups Md-torus performs better", f"at G = {top}, 512 KB: best {large.loc[top].idxmin()} ({large.loc[top].min():,.0f} µs; Md {large.loc[top, 'Md-torus']:,.0f})", bool(large.loc[top].idxmin() == "Md-torus"), "at the largest group"))
    return claims


def _fig3_claims(results: pd.DataFrame) -> list[Claim]:
    small, large = _curves(results, "cpu_utilisation", 2), _curves(results, "cpu_utilisation", 512 * 1024)
    busy = _curves(results, "startup_us", 512 * 1024)
    return [
        Claim("separate addressing's root load grows with the group (512 KB)", "nearly linear increase in CPU load for large messages", f"root busy {busy['Sep Add'].iloc[0]:,.0f} → {busy['Sep Add'].iloc[-1]:,.0f} µs; utilisation {large['Sep Add'].iloc[0]:.2f} → {large['Sep Add'].iloc[-1]:.2f}", bool(_linear(busy["Sep Add"]) > 0.98), "root busy time linear in G (R² > 0.98)"),
        Claim("Md-torus keeps the root's load nearly constant for small messages", "Md-torus provides a nearly constant CPU overhead for small messages", f"utilisation {small['Md-torus'].min():.3f}–{small['Md-torus'].max():.3f}", bool(small["Md-torus"].max() - small["Md-torus"].min() < 0.05), "within 0.05"),
        Claim("U-torus's root load rises in steps", "U-torus exhibits a step-like increase … at certain group sizes, such as 4, 8, and 16", "root sends " + ", ".join(f"{g}: {v:,.0f} µs" for g, v in _curves(results, "startup_us", 2)["U-torus"].items() if g in (4, 5, 8, 9, 16)), bool(_steps(_curves(results, "startup_us", 2)["U-torus"])), "a step at G = 4, 8, 16 (the root's ⌊log₂ G⌋ sends), constant in between"),
        Claim("S-torus is the worst in root load for large messages", "S-torus is always the worst performer from the perspective of … CPU utilization", f"highest utilisation at 512 KB: {large.mean().idxmax()}", bool(large.mean().idxmax() == "S-torus"), "mean over group sizes"),
    ]


def _steps(series: pd.Series) -> bool:
    """Rising exactly at the powers of two, constant in between."""
    values = series.to_dict()
    for g, v in values.items():
        prev = values.get(g - 1)
        if prev is None:
            continue
        power = g & (g - 1) == 0  # a new step begins at 4, 8, 16
        if (v > prev) != power:
            return False
    return True


def _fig4_claims(results: pd.DataFrame) -> list[Claim]:
    start = _curves(results, "startup_us", 2)
    creation = _curves(results, "tree_creation_us", 2)
    mu = start["Mu-torus"]
    mu_steps = all((mu[g] > mu[g - 1]) == ((g - 1) % 4 == 0) for g in mu.index if g - 1 in mu.index)
    order = creation.drop(columns="Sep Add").mean().sort_values(ascending=False)
    return [
        Claim("separate addressing's startup rises linearly", "the startup latencies … identical and linearly increasing with group size (U-torus and separate addressing)", f"Sep {start['Sep Add'].iloc[0]:.1f} → {start['Sep Add'].iloc[-1]:.1f} µs; U-torus {start['U-torus'].iloc[0]:.1f} → {start['U-torus'].iloc[-1]:.1f} µs", bool(_linear(start["Sep Add"]) > 0.98 and _linear(start["U-torus"]) > 0.98), "holds if both are linear (R² > 0.98)"),
        Claim("S-torus and Md-torus have constant startup", "the S-torus and Md-torus algorithms have constant startup latencies", f"S {start['S-torus'].min():.1f}–{start['S-torus'].max():.1f}, Md {start['Md-torus'].min():.1f}–{start['Md-torus'].max():.1f} µs", bool(start["S-torus"].nunique() == 1 and start["Md-torus"].max() <= start["Md-torus"].min() * 1.5), "S constant, Md within ×1.5 (one send per ringlet)"),
        Claim("Mu-torus startup steps after each multiple of r", "Mu-torus has a step-like increasing latency after each multiple of r", "Mu startup: " + ", ".join(f"{g}: {v:.1f}" for g, v in mu.items()), bool(mu_steps), "r = 4: a step at G = 5, 9, 13 only"),
        Claim("tree creation: Mu and Md highest, U lower, S lowest", "Mu-torus and Md-torus … the highest multicast tree-creation latencies … U-torus … lower … S-torus … the lowest", "mean modelled cost: " + ", ".join(f"{a} {v:.1f} µs" for a, v in order.items()), bool(set(order.index[:2]) == {"Mu-torus", "Md-torus"} and order.index[-1] == "S-torus"), "a modelled cost (docs/models/torus_multicast.md): its ordering follows from how much each algorithm computes"),
    ]


def _fig5_claims(results: pd.DataFrame) -> list[Claim]:
    conc = _curves(results, "link_concurrency", 2)
    concentration = _curves(results, "link_concentration", 2)
    k = int(results["k"].iloc[0])
    return [
        Claim("S-torus: one message in transit, constant concentration", "S-torus has the lowest and a constant link concentration and concurrency", f"concurrency {conc['S-torus'].min():.0f}–{conc['S-torus'].max():.0f}; concentration {concentration['S-torus'].min():.2f}–{concentration['S-torus'].max():.2f}", bool((conc["S-torus"] == 1).all()), "concurrency 1 at every size"),
        Claim("U-torus has the highest concurrency", "the U-torus algorithm has the highest concurrency", f"mean: {_fmt(conc.mean())}", bool(conc.mean().idxmax() == "U-torus" or conc.mean()["U-torus"] >= conc.mean().max() - 1e-9), "mean over group sizes"),
        Claim("separate addressing's concurrency equals U-torus's", "Separate addressing exhibits an identical degree of concurrency to the U-torus", f"mean: Sep Add {conc.mean()['Sep Add']:.1f}, U-torus {conc.mean()['U-torus']:.1f}", bool(abs(conc.mean()["Sep Add"] - conc.mean()["U-torus"]) <= 0.5), "mean over group sizes within 0.5"),
        Claim("Md-torus concurrency bounded by k", "The concurrency of Md-torus is upper bounded by k", f"max {conc['Md-torus'].max():.0f}, k = {k}", bool(conc["Md-torus"].max() <= k), ""),
        Claim("Md-torus concentration falls towards 1", "Md-torus has inversely proportional link concentration … asymptotically limits the decreasing link concentration to 1", f"{concentration['Md-torus'].iloc[0]:.2f} → {concentration['Md-torus'].iloc[-1]:.2f}", bool(concentration["Md-torus"].iloc[-1] < concentration["Md-torus"].iloc[0]), "lower at the largest group than at the smallest"),
        Claim("Mu-torus concurrency grows with the group", "more messages being transferred concurrently", f"{conc['Mu-torus'].iloc[0]:.0f} → {conc['Mu-torus'].iloc[-1]:.0f}", bool(conc["Mu-torus"].iloc[-1] > conc["Mu-torus"].iloc[0]), ""),
    ]


def _fmt(series: pd.Series) -> str:
    return ", ".join(f"{name} {value:.1f}" for name, value in series.items())


def _model_claims(results: pd.DataFrame) -> list[Claim]:
    err = results.groupby("algorithm")["model_error"]
    mean = err.mean()
    claims = []
    for algorithm, stated in (("Sep Add", "-3%"), ("Md-torus", "-2%"), ("Mu-torus", "-2%"), ("U-torus", "-2%")):
        claims.append(Claim(f"{algorithm}: the simplified model is accurate", f"average error of {stated} (against the testbed)", f"average error {mean[algorithm]:+.1%} against our simulation (|max| {err.apply(lambda e: e.abs().max())[algorithm]:.1%})", bool(abs(mean[algorithm]) <= 0.05), "holds within ±5%"))
    worst = err.apply(lambda e: e.abs().mean()).idxmax()
    claims.append(Claim("the model fits S-torus worst", "The modeling error is relatively high, unlike the other algorithms", f"largest mean |error|: {worst}", bool(worst == "S-torus"), ""))
    return claims


def _fig14_claims(results: pd.DataFrame) -> list[Claim]:
    claims = []
    for k in sorted(results["k"].unique()):
        sub = results[results["k"] == k]
        top = sub["group"].max()
        at_top = sub[sub["group"] == top].set_index("algorithm")
        mus = at_top.filter(like="Mu-torus", axis=0)
        for column, what in (("model_us", "model"), ("completion_us", "simulation")):
            best = mus[column].idxmin()
            claims.append(Claim(f"{k}×{k}: the best Mu-torus partition length is k ({what})", "the optimal partition length for Mu-torus is equal to k", f"at G = {top}: " + ", ".join(f"{a} {v:,.0f} µs" for a, v in mus[column].items()), bool(best == f"Mu-torus (r={k})"), f"G = {top}"))
        model = sub.pivot_table(index="group", columns="algorithm", values="model_us")
        big = model[model.index > 8]
        worst = (big.idxmax(axis=1) == "S-torus").mean()
        claims.append(Claim(f"{k}×{k}: S-torus is the worst beyond 8 nodes (model)", "the worst performing algorithm for group sizes greater than 8", f"worst at {worst:.0%} of group sizes > 8", bool(worst == 1), ""))
        claims.append(Claim(f"{k}×{k}: S-torus and separate addressing grow linearly (model)", "S-torus and separate addressing, as expected, have linearly increasing latencies", f"R² S {_linear(model['S-torus']):.3f}, Sep {_linear(model['Sep Add']):.3f}", bool(_linear(model["S-torus"]) > 0.98 and _linear(model["Sep Add"]) > 0.98), "R² > 0.98"))
        sep_rank = model.rank(axis=1)["Sep Add"]
        claims.append(Claim(f"{k}×{k}: separate addressing loses its advantage as the group grows (model)", "Although separate addressing is the best choice for small-scale systems, it loses its advantage with increasing group sizes", f"rank of Sep Add: {sep_rank.iloc[0]:.0f} at G = {model.index[0]}, {sep_rank.iloc[-1]:.0f} at G = {model.index[-1]}", bool(sep_rank.iloc[-1] > sep_rank.iloc[0]), "its rank among the algorithms falls"))
    return claims


# --- plots ----------------------------------------------------------------------------------------------------


def _plot(panels: list[tuple[str, str, dict[str, int], str, bool]]) -> Any:
    """Panels: (file stem, value column, rows to keep {column: value}, y label, log scale)."""

    def plot(results: pd.DataFrame, out: Path) -> None:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        for stem, value, keep, label, log in panels:
            sel = results
            for column, wanted in keep.items():
                sel = sel[sel[column] == wanted]
            fig, ax = plt.subplots(figsize=(6, 4.2))
            curves = {algorithm: part.set_index("group")[value].sort_index() for algorithm, part in sel.groupby("algorithm", sort=False)}
            labels = coincidence_labels(curves)  # (fig5b: S-torus lies on Sep Add at every group size)
            for i, (algorithm, curve) in enumerate(curves.items()):
                ax.plot(curve.index, curve.to_numpy(), label=labels[algorithm], **series_style(i))
            if log:
                ax.set_yscale("log")
            ax.set_xlabel("multicast group size (nodes)")
            ax.set_ylabel(label)
            ax.set_title(stem, fontsize=9)
            ax.legend(fontsize=7)
            fig.tight_layout()
            fig.savefig(out / f"{stem}.png", dpi=110)
            plt.close(fig)

    return plot


def _model_plot(results: pd.DataFrame, out: Path) -> None:
    """Figs 9–13: per algorithm, model and simulation against group size, and the error."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    for figure, algorithm in zip(range(9, 14), ("Sep Add", "Md-torus", "Mu-torus", "U-torus", "S-torus"), strict=True):
        part = results[results["algorithm"] == algorithm].sort_values("group")
        fig, ax = plt.subplots(figsize=(6, 4.2))
        ax.plot(part["group"], part["model_us"], marker="s", markersize=3, label="model")
        ax.plot(part["group"], part["completion_us"], marker="o", markersize=3, label="simulated")
        ax.set_xlabel("multicast group size (nodes)")
        ax.set_ylabel("completion latency (µs), 128 B")
        twin = ax.twinx()
        twin.bar(part["group"], 100 * part["model_error"], alpha=0.25, color="grey", label="error")
        twin.set_ylabel("error (%)")
        ax.set_title(f"Fig. {figure}: {algorithm}, model vs simulation", fontsize=9)
        ax.legend(fontsize=7, loc="upper left")
        fig.tight_layout()
        fig.savefig(out / f"fig{figure}.png", dpi=110)
        plt.close(fig)


SIZES = [2, 512 * 1024]
QUICK_NOTE = "the full run (seconds): judges every claim as the full run does"


def _experiment(fid: str, figure: str, title: str, points: Any, claims: Any, plot: Any) -> Experiment:
    return Experiment(
        id=fid, study=STUDY, figure=figure, title=title, points=points, claims=claims, plot=plot, quick_note=QUICK_NOTE,
        derive=derive, quick_runs_full=True,
    )


PROJECTIONS = {8: list(range(4, 65, 4)), 16: [4, 32, 60, 88, 116, 144, 172, 200, 228, 256]}

EXPERIMENTS = [
    _experiment("oral-fig2", "Fig. 2", "completion latency vs group size, 2 B and 512 KB, 4×4", lambda q: _points(4, GROUPS, SIZES), _fig2_claims,
                _plot([("fig2a", "completion_us", {"message_bytes": 2}, "completion latency (µs), 2 B", False), ("fig2b", "completion_us", {"message_bytes": 512 * 1024}, "completion latency (µs), 512 KB", False)])),
    _experiment("oral-fig3", "Fig. 3", "root CPU utilisation vs group size, 2 B and 512 KB, 4×4", lambda q: _points(4, GROUPS, SIZES), _fig3_claims,
                _plot([("fig3a", "cpu_utilisation", {"message_bytes": 2}, "root busy / completion, 2 B", False), ("fig3b", "cpu_utilisation", {"message_bytes": 512 * 1024}, "root busy / completion, 512 KB", False)])),
    _experiment("oral-fig4", "Fig. 4", "startup and tree-creation latency vs group size, 4×4", lambda q: _points(4, GROUPS, [2]), _fig4_claims,
                _plot([("fig4a", "startup_us", {}, "startup latency (µs)", False), ("fig4b", "tree_creation_us", {}, "tree creation (µs, modelled)", False)])),
    _experiment("oral-fig5", "Fig. 5", "link concentration and concurrency vs group size, 4×4", lambda q: _points(4, GROUPS, [2]), _fig5_claims,
                _plot([("fig5a", "link_concentration", {}, "link concentration", False), ("fig5b", "link_concurrency", {}, "link concurrency", False)])),
    _experiment("oral-model", "Figs 9–13", "the small-message model beside the simulation, 128 B, 4×4", lambda q: _points(4, GROUPS, [128]), _model_claims, _model_plot),
    _experiment("oral-fig14", "Fig. 14", "projections for 8×8 and 16×16 tori, model and simulation, 128 B, Mu-torus r = 8, 16, 32",
                lambda q: [p for k, groups in PROJECTIONS.items() for p in _points(k, groups, [128], [8, 16, 32])], _fig14_claims,
                _plot([("fig14a_model", "model_us", {"k": 8}, "model latency (µs), 8×8", True), ("fig14a_simulated", "completion_us", {"k": 8}, "simulated latency (µs), 8×8", True),
                       ("fig14b_model", "model_us", {"k": 16}, "model latency (µs), 16×16", True), ("fig14b_simulated", "completion_us", {"k": 16}, "simulated latency (µs), 16×16", True)])),
]
