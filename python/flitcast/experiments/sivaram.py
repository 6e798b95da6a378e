"""Study 000 — Sivaram, Stunkel, Panda: multidestination worms on switch-based networks. Figs 14–19 (§7).

System (§7.1; docs/models/multicast.md): 16- and 64-node fat trees of 8-port switches (4 parents, 4
children), 2-byte flits; the central-buffer switch (64-flit input FIFOs, 256 chunks of 8 flits) or the
input-FIFO switch (320-flit input FIFOs, the same 5 KB), both with 6-cycle cut-through and 7 extra cycles of
chunk deserialisation; adaptive routing up (LRU selection), replication on the way down. Workload: m-way
multicasts to m destinations uniform among the other nodes, Poisson arrivals, single-packet messages of 128
or 512 bytes (64 or 256 flits; a hardware worm carries its bit string in ⌈N/16⌉ more flits); the x-axis is
the effective applied load m·B_i, 1.0 = every node receiving at the link rate. Hardware multicast (HW) sends
one worm the switches replicate; software multicast (SW) sends unicasts along the binomial U-Min tree with
zero forwarding overhead. "CB" = central-buffer switches, "IB" = input-FIFO switches.

Saturation load: the lowest applied load whose run is saturated (docs/results.md, "saturated"), or "> 1.0"
when none of the loads 0.1 … 1.0 is; saturation bandwidth: the peak received load B_o over the loads (finer
than the 0.1 grid, used where a claim names a value). Latency is definition (a) unless a figure compares (a) and (b).
The study's m values per figure are not all stated: we use the degrees its text names (docs/experiments.md).
Quick mode runs the same loads with windows ten times shorter and judges no claim (its resolution for
these figures has not been measured: every claim reads latencies or saturation loads a short window moves).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from flitcast.experiments.experiment import Claim, Experiment, Point, fmt

if TYPE_CHECKING:
    import pandas as pd

    from flitcast.config import Scenario

STUDY = "000 Sivaram, Stunkel, Panda (multidestination worms on switch-based networks)"

#: variant label -> (scheme, switch model)
VARIANTS: dict[str, tuple[str, str]] = {
    "HW-CB": ("hardware", "central_buffer"),
    "HW-IB": ("hardware", "input_fifo"),
    "SW-CB": ("software", "central_buffer"),
    "SW-IB": ("software", "input_fifo"),
}
#: the degrees §7.3–7.4 name for 16 nodes
DEGREES = [2, 4, 6, 9, 15]
LOADS = [round(0.1 * i, 1) for i in range(1, 11)]
#: §7.1: "100,000–150,000 cycles (or more) of cold start"; the window length is not stated
FULL_RUN = {"warmup_cycles": 100_000, "measure_cycles": 1_000_000, "drain_max_cycles": 200_000}
QUICK_RUN = {"warmup_cycles": 10_000, "measure_cycles": 100_000, "drain_max_cycles": 50_000}
#: beyond the load grid: a curve that never saturates counts as saturating here
NEVER = 1.1


def scenario(
    nodes: int, variant: str, m: int, message_bytes: int, load: float, run: dict[str, int], fraction: float = 1.0
) -> Scenario:
    """One point of the study's evaluation."""
    from flitcast.config import Scenario  # (here: listing the experiments needs no pydantic)

    scheme, model = VARIANTS[variant]
    workload: dict[str, Any] = {
        "program": f"{scheme}_multicast",
        "load": load,
        "message_bytes": message_bytes,
        "flit_bytes": 2,
        "max_packet_bytes": message_bytes,
        "arrival": "poisson",
        "destinations": m,
    }
    if fraction != 1.0:
        workload["multicast_fraction"] = fraction
    return Scenario.model_validate(
        {
            "network": {"topology": "fat_tree", "k": 4, "n": {16: 2, 64: 3}[nodes]},
            "switch": {"model": model},
            "routing": {"algorithm": "adaptive", "selection": "lru"},
            "workload": workload,
            "run": dict(run),
        }
    )


def _points(variants: list[str], degrees: list[int], message_bytes: int, quick: bool, nodes: tuple[int, ...] = (16,), fraction: float = 1.0) -> list[Point]:
    run = QUICK_RUN if quick else FULL_RUN
    return [
        Point(
            {"nodes": n, "variant": v, "m": m, "message_bytes": message_bytes},
            scenario(n, v, m, message_bytes, load, run, fraction),
        )
        for n in nodes
        for v in variants
        for m in degrees
        for load in LOADS
    ]


# --- reading the results -------------------------------------------------------------------------------------


def _curve(results: pd.DataFrame, variant: str, m: int, nodes: int = 16) -> pd.DataFrame:
    sel = (results["variant"] == variant) & (results["m"] == m) & (results["nodes"] == nodes)
    return results[sel].sort_values("workload.load")


def saturation_load(results: pd.DataFrame, variant: str, m: int, nodes: int = 16) -> float:
    """The lowest load whose run saturated (NEVER if none did)."""
    curve = _curve(results, variant, m, nodes)
    saturated = curve[curve["saturated"].astype(bool)]["workload.load"]
    return float(saturated.min()) if len(saturated) else NEVER


def _sat(x: float) -> str:
    return "> 1.0" if x >= NEVER else f"{x:g}"


def _latency_at(results: pd.DataFrame, variant: str, m: int, load: float, nodes: int = 16, column: str = "latency_mean") -> float:
    """Latency at `load`, or inf where the run saturated (the study does not plot such points)."""
    curve = _curve(results, variant, m, nodes)
    row = curve[curve["workload.load"] == load]
    if row.empty or bool(row["saturated"].iloc[0]):
        return float("inf")
    return float(row[column].iloc[0])


def _peak(results: pd.DataFrame, variant: str, m: int, nodes: int = 16) -> float:
    return float(_curve(results, variant, m, nodes)["accepted_load"].max())


def _series(values: dict[int, float], show: Any = fmt) -> str:
    return ", ".join(f"m={m}: {show(v)}" for m, v in values.items())


def _lat(x: float) -> str:
    return "sat" if x == float("inf") else f"{x:.0f}"


def _unsaturated_loads(results: pd.DataFrame, variants: list[str], ms: list[int], nodes: int = 16) -> list[float]:
    """Loads below every listed curve's saturation load."""
    limit = min(saturation_load(results, v, m, nodes) for v in variants for m in ms)
    return [x for x in LOADS if x < limit]


# --- plots ---------------------------------------------------------------------------------------------------


def _panel(ax: Any, results: pd.DataFrame, variants: list[str], degrees: list[int], y: str, nodes: int = 16, hide_saturated: bool = True) -> None:
    styles = {"HW-CB": "-", "HW-IB": "--", "SW-CB": ":", "SW-IB": "-."}
    for v in variants:
        for m in degrees:
            curve = _curve(results, v, m, nodes)
            if hide_saturated:
                curve = curve[~curve["saturated"].astype(bool)]
            if len(curve):
                ax.plot(curve["workload.load"], curve[y], styles[v], marker="o", markersize=3, label=f"{v} m={m}" + ("" if nodes == 16 else f" ({nodes} nodes)"))
    ax.set_xlabel("effective applied load m·B_i")
    ax.legend(fontsize=6, ncol=2)


def _figure(out: Path, name: str, panels: list[tuple[Any, ...]], ylabel: str, log: bool = False) -> None:
    """One PNG per panel of the study's figure: ``name.png``, or ``name`` + a, b, c … with several.
    A panel is (title, draw) or (title, draw, its own y label)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    for i, (title, draw, *own) in enumerate(panels):
        fig, ax = plt.subplots(figsize=(6, 4.2))
        draw(ax)
        ax.set_title(title, fontsize=9)
        ax.set_ylabel(own[0] if own else ylabel)
        if log:
            ax.set_yscale("log")
        fig.tight_layout()
        fig.savefig(out / (f"{name}{'abc'[i]}.png" if len(panels) > 1 else f"{name}.png"), dpi=110)
        plt.close(fig)


def _fig14_plot(results: pd.DataFrame, out: Path) -> None:
    def panel(variants: list[str]) -> Any:
        return lambda ax: _panel(ax, results, variants, DEGREES, "latency_mean")

    _figure(
        out,
        "fig14",
        [("SW vs HW, central buffers", panel(["SW-CB", "HW-CB"])), ("SW vs HW, input FIFOs", panel(["SW-IB", "HW-IB"])), ("HW: central buffer vs input FIFO", panel(["HW-CB", "HW-IB"]))],
        "latency (a), cycles",
        log=True,
    )


def _fig15_plot(results: pd.DataFrame, out: Path) -> None:
    def panel(variants: list[str]) -> Any:
        return lambda ax: _panel(ax, results, variants, DEGREES, "accepted_load", hide_saturated=False)

    _figure(out, "fig15", [("software multicast", panel(["SW-CB", "SW-IB"])), ("hardware multicast", panel(["HW-CB", "HW-IB"]))], "received load B_o")


def _fig16_plot(results: pd.DataFrame, out: Path) -> None:
    # (the study's one graph: HW-CB, HW-IB and SW; SW-IB is in results.csv)
    draw = lambda ax: _panel(ax, results, ["HW-CB", "HW-IB", "SW-CB"], FIG16_DEGREES, "latency_mean")  # noqa: E731
    _figure(out, "fig16", [("16 nodes, 512-byte messages", draw)], "latency (a), cycles", log=True)


def _fig17_plot(results: pd.DataFrame, out: Path) -> None:
    def panel(y: str, hide: bool) -> Any:
        def draw(ax: Any) -> None:
            for nodes in (16, 64):
                _panel(ax, results, ["HW-CB"], FIG17_DEGREES, y, nodes, hide_saturated=hide)

        return draw

    _figure(out, "fig17", [("latency, HW-CB, 512 B", panel("latency_mean", True), "latency (a), cycles"), ("received load, HW-CB, 512 B", panel("accepted_load", False), "received load B_o")], "")


def _fig18_plot(results: pd.DataFrame, out: Path) -> None:
    def draw(ax: Any) -> None:
        for v, style in (("HW-CB", "-"), ("SW-CB", ":")):
            curve = _curve(results, v, 4)
            curve = curve[~curve["saturated"].astype(bool)]
            for column, marker in (("latency_mean", "o"), ("latency_unicast_mean", "s"), ("latency_multicast_mean", "^")):
                ax.plot(curve["workload.load"], curve[column], style, marker=marker, markersize=3, label=f"{v[:2]} {column.split('_')[1] if column != 'latency_mean' else 'combined'}")
        ax.set_xlabel("applied load B_o (80% unicast, 20% 4-way multicast)")
        ax.legend(fontsize=7)

    _figure(out, "fig18", [("bimodal traffic, 16 nodes, central buffers, 128 B", draw)], "latency (a), cycles", log=True)


def _fig19_plot(results: pd.DataFrame, out: Path) -> None:
    def panel(m: int) -> Any:
        def draw(ax: Any) -> None:
            styles = {"HW-CB": "-", "HW-IB": "--", "SW-CB": ":", "SW-IB": "-."}
            for v in VARIANTS:
                curve = _curve(results, v, m)
                curve = curve[~curve["saturated"].astype(bool)]
                ax.plot(curve["workload.load"], curve["latency_mean"], styles[v], marker="o", markersize=3, label=f"{v} (a)")
                ax.plot(curve["workload.load"], curve["latency_dest_mean"], styles[v], marker="x", markersize=3, label=f"{v} (b)")
            ax.set_xlabel("effective applied load m·B_i")
            ax.legend(fontsize=6, ncol=2)

        return draw

    _figure(out, "fig19", [("m = 6, 512 B", panel(6)), ("m = 15, 512 B", panel(15))], "latency, cycles", log=True)


# --- claims --------------------------------------------------------------------------------------------------


def _fig14_claims(results: pd.DataFrame) -> list[Claim]:
    claims = []
    low = 0.2
    for v in ("SW-CB", "SW-IB"):
        lat = {m: _latency_at(results, v, m, low) for m in DEGREES}
        values = list(lat.values())
        claims.append(
            Claim(f"{v}: software multicast latency rises with m", "rises", f"latency at load {low}: {_series(lat, _lat)}", all(a < b for a, b in zip(values, values[1:], strict=False)), "holds if strictly increasing in m at a light load")
        )
    mid = 0.5
    for v in ("HW-CB", "HW-IB"):
        lat = {m: _latency_at(results, v, m, mid) for m in DEGREES}
        falls = lat[DEGREES[-1]] < lat[DEGREES[0]]
        monotone = all(a >= b for a, b in zip(list(lat.values()), list(lat.values())[1:], strict=False))
        claims.append(
            Claim(
                f"{v}: hardware multicast latency decreases with m",
                "decreases",
                f"latency at load {mid}: {_series(lat, _lat)}",
                falls,
                "holds if m = 15 is below m = 2 at a medium load; " + ("monotone in m" if monotone else "not monotone in m"),
            )
        )
    for switch in ("CB", "IB"):
        sat = {m: (saturation_load(results, f"HW-{switch}", m), saturation_load(results, f"SW-{switch}", m)) for m in DEGREES}
        claims.append(
            Claim(
                f"{switch}: hardware multicast saturates at a much higher load than software multicast",
                "HW saturates later for every m",
                "saturation load HW / SW: " + ", ".join(f"m={m}: {_sat(h)} / {_sat(s)}" for m, (h, s) in sat.items()),
                all(h > s for h, s in sat.values()),
                "holds if HW saturates at a higher load than SW for every m",
            )
        )
    small = {v: saturation_load(results, v, 2) for v in ("HW-IB", "SW-CB")}
    lat = {v: _latency_at(results, v, 2, 0.5) for v in ("HW-IB", "SW-CB")}
    claims.append(
        Claim(
            "for small m, input-FIFO replication is worse than software multicast on central buffers",
            "HW-IB worse than SW-CB at m = 2",
            f"m = 2 saturation load HW-IB {_sat(small['HW-IB'])}, SW-CB {_sat(small['SW-CB'])}; latency at 0.5: HW-IB {_lat(lat['HW-IB'])}, SW-CB {_lat(lat['SW-CB'])}",
            small["HW-IB"] < small["SW-CB"] or (small["HW-IB"] == small["SW-CB"] and lat["HW-IB"] > lat["SW-CB"]),
            "holds if HW-IB saturates first (or, saturating together, has the higher latency at 0.5)",
        )
    )
    sat_ib = {m: saturation_load(results, "HW-IB", m) for m in DEGREES}
    values = list(sat_ib.values())
    claims.append(
        Claim(
            "input-FIFO replication: saturation load rises with m",
            "rises",
            f"saturation load: {_series(sat_ib, _sat)}",
            all(a <= b for a, b in zip(values, values[1:], strict=False)) and values[-1] > values[0],
            "holds if non-decreasing in m and higher at m = 15 than at m = 2",
        )
    )
    return claims


def _fig15_claims(results: pd.DataFrame) -> list[Claim]:
    ib = {m: _peak(results, "HW-IB", m) for m in DEGREES}
    cb = {m: _peak(results, "HW-CB", m) for m in DEGREES}
    sw = {m: saturation_load(results, "SW-CB", m) for m in DEGREES}
    return [
        Claim("HW-IB: saturation bandwidth increases with m", "increases", f"peak received load: {_series(ib)}", ib[15] > ib[2], "holds if the peak B_o at m = 15 exceeds m = 2's"),
        Claim("SW: saturation decreases with m (the opposite)", "decreases", f"SW-CB saturation load: {_series(sw, _sat)}", sw[15] <= sw[2] and sw != dict.fromkeys(sw, NEVER), "holds if m = 15 saturates no later than m = 2"),
        Claim("HW-CB: saturation bandwidth near 100%, highest for large m", "near 1.0", f"peak received load: {_series(cb)}", min(cb.values()) >= 0.9 and cb[15] >= cb[2], "holds if every peak B_o is at least 0.9 and m = 15's is at least m = 2's"),
        Claim("128-byte messages: central buffers carry over 90% of the maximum load", "> 0.9", f"lowest HW-CB peak {fmt(min(cb.values()))}", min(cb.values()) > 0.9, ""),
        _keeps_rising(results),
    ]


def _keeps_rising(results: pd.DataFrame) -> Claim:
    """§7.3: "the software multicast B_o does not flatten out after B_o becomes less than mB_i" (m = 15,
    whose software multicast saturates earliest)."""
    shown, rising = [], True
    for v in ("SW-CB", "SW-IB"):
        curve = _curve(results, v, 15)
        after = curve[curve["workload.load"] >= saturation_load(results, v, 15)]["accepted_load"].tolist()
        rising = rising and len(after) >= 2 and all(a < b for a, b in zip(after, after[1:], strict=False))
        shown.append(f"{v}: " + " → ".join(fmt(x) for x in after))
    return Claim(
        "software multicast: B_o does not flatten out past saturation",
        "keeps rising",
        "m = 15, received load from the saturation load to 1.0: " + "; ".join(shown),
        rising,
        "holds if B_o rises at every load step past saturation, on both switches",
    )


FIG16_DEGREES = [2, 4, 6, 9]


def _fig16_claims(results: pd.DataFrame) -> list[Claim]:
    # where a latency curve goes vertical is the saturation bandwidth: the peak received load, finer than
    # the 0.1 load grid
    cb = {m: _peak(results, "HW-CB", m) for m in FIG16_DEGREES}
    ib = {m: _peak(results, "HW-IB", m) for m in FIG16_DEGREES}
    ib_sat = {m: saturation_load(results, "HW-IB", m) for m in FIG16_DEGREES}
    sw = {m: saturation_load(results, "SW-CB", m) for m in FIG16_DEGREES}
    ratios = {m: cb[m] / ib[m] for m in FIG16_DEGREES}
    best = max(ratios.values())
    return [
        Claim("512 B: 2- and 4-way HW-CB saturate before 0.9, 6- and 9-way above 0.9", "2, 4 < 0.9 < 6, 9", f"saturation bandwidth (peak received load): {_series(cb)}", cb[2] < 0.9 and cb[4] < 0.9 and cb[6] > 0.9 and cb[9] > 0.9, "saturation = the peak received load, where the latency curve goes vertical"),
        Claim("512 B: input-FIFO replication saturates later as m grows", "rises with m", f"HW-IB saturation load: {_series(ib_sat, _sat)}", ib_sat[9] > ib_sat[2], "holds if m = 9 saturates later than m = 2"),
        Claim("512 B: software saturation decreases as m increases", "decreases", f"SW-CB saturation load: {_series(sw, _sat)}", sw[9] <= sw[2], ""),
        Claim("central buffers reach up to about 2× the saturation load of input buffering", "up to ~2×", f"HW-CB / HW-IB saturation bandwidth: {_series(ratios)}", 1.5 <= best <= 2.5, "holds if the largest ratio of peak received loads is between 1.5 and 2.5"),
    ]


FIG17_DEGREES = [2, 6, 15]


def _fig17_claims(results: pd.DataFrame) -> list[Claim]:
    light = [0.1, 0.2, 0.3]
    higher = {m: (sum(_latency_at(results, "HW-CB", m, x, 16) for x in light) / 3, sum(_latency_at(results, "HW-CB", m, x, 64) for x in light) / 3) for m in FIG17_DEGREES}
    sat = {m: (saturation_load(results, "HW-CB", m, 16), saturation_load(results, "HW-CB", m, 64)) for m in FIG17_DEGREES}
    low_first = all(sat[2][i] <= min(sat[m][i] for m in FIG17_DEGREES) and higher[2][i] <= min(higher[m][i] for m in FIG17_DEGREES) for i in (0, 1))
    return [
        Claim("64 nodes have higher latency than 16 for comparable multicasts", "higher", "mean latency at loads 0.1–0.3, 16 / 64 nodes: " + ", ".join(f"m={m}: {a:.0f} / {b:.0f}" for m, (a, b) in higher.items()), all(b > a for a, b in higher.values()), "comparable = the same m"),
        Claim("64 nodes saturate slightly lower than 16", "slightly lower", "saturation load 16 / 64 nodes: " + ", ".join(f"m={m}: {_sat(a)} / {_sat(b)}" for m, (a, b) in sat.items()), all(b <= a for a, b in sat.values()) and any(b < a for a, b in sat.values()) and all(a - b <= 0.2 for a, b in sat.values()), "holds if no m saturates later on 64 nodes, one earlier, and none more than 0.2 earlier"),
        Claim("low m has low latency but saturates earliest", "m = 2 lowest latency, first to saturate", "saturation load: " + ", ".join(f"m={m}: {_sat(a)} / {_sat(b)}" for m, (a, b) in sat.items()), low_first, "on both system sizes (latency: loads 0.1–0.3)"),
    ]


def _fig18_claims(results: pd.DataFrame) -> list[Claim]:
    loads = _unsaturated_loads(results, ["HW-CB", "SW-CB"], [4])
    loads = [x for x in loads if x >= 0.3] or loads[-1:]
    uni = {x: (_latency_at(results, "HW-CB", 4, x, column="latency_unicast_mean"), _latency_at(results, "SW-CB", 4, x, column="latency_unicast_mean")) for x in loads}
    comb = {x: (_latency_at(results, "HW-CB", 4, x), _latency_at(results, "SW-CB", 4, x)) for x in loads}
    sat = {v: saturation_load(results, v, 4) for v in ("HW-CB", "SW-CB")}
    return [
        Claim("hardware multicasts perturb the unicasts less than software multicasts", "unicast latency lower with HW", "unicast latency HW / SW: " + ", ".join(f"{x:g}: {a:.0f} / {b:.0f}" for x, (a, b) in uni.items()), bool(uni) and all(a < b for a, b in uni.values()), "at every load from 0.3 below both saturation loads"),
        Claim("lower combined latency with hardware multicast", "lower", "combined latency HW / SW: " + ", ".join(f"{x:g}: {a:.0f} / {b:.0f}" for x, (a, b) in comb.items()) + f"; saturation HW {_sat(sat['HW-CB'])}, SW {_sat(sat['SW-CB'])}", bool(comb) and all(a < b for a, b in comb.values()) and sat["HW-CB"] >= sat["SW-CB"], ""),
    ]


def _ratios(results: pd.DataFrame, variant: str, m: int) -> dict[float, float]:
    curve = _curve(results, variant, m)
    curve = curve[~curve["saturated"].astype(bool)]
    return {float(x): float(a / b) for x, a, b in zip(curve["workload.load"], curve["latency_mean"], curve["latency_dest_mean"], strict=True)}


def _fig19_claims(results: pd.DataFrame) -> list[Claim]:
    cb6, ib6 = _ratios(results, "HW-CB", 6), _ratios(results, "HW-IB", 6)
    cb15, ib15 = _ratios(results, "HW-CB", 15), _ratios(results, "HW-IB", 15)
    sw = {v: _ratios(results, v, m) for v in ("SW-CB", "SW-IB") for m in (6, 15)}
    sw_min = min((min(r.values()) for r in sw.values() if r), default=float("nan"))

    def show(r: dict[float, float]) -> str:
        return ", ".join(f"{x:g}: {v:.2f}" for x, v in r.items())

    common = [x for x in cb6 if x in ib6]
    wide15 = {x: max(cb15.get(x, 1.0), ib15.get(x, 1.0)) for x in set(cb15) | set(ib15) if x <= 0.7}
    return [
        Claim("m = 6, HW-CB: (a) and (b) nearly equal at low load", "(a) ≈ (b)", f"(a)/(b) by load: {show(cb6)}", bool(cb6) and cb6[min(cb6)] <= 1.1, "holds if (a)/(b) ≤ 1.1 at the lowest load"),
        Claim("m = 6, HW-CB: at higher loads (a) exceeds (b) by almost 60%", "≈ 1.6", f"largest (a)/(b) below saturation: {max(cb6.values()):.2f}" if cb6 else "no unsaturated load", bool(cb6) and 1.4 <= max(cb6.values()) <= 1.8, "holds if the largest ratio below saturation is 1.4–1.8"),
        Claim("m = 6: the (a)–(b) gap grows faster with input-FIFO replication", "IB gap larger", f"(a)/(b) HW-IB by load: {show(ib6)}", bool(common) and all(ib6[x] >= cb6[x] for x in common) and ib6[max(common)] > cb6[max(common)], "holds if HW-IB's ratio is at least HW-CB's at every load both run unsaturated, and larger at the highest"),
        Claim("software multicast: always a significant (a)–(b) gap", "significant", f"smallest (a)/(b) of SW-CB and SW-IB, m = 6 and 15: {sw_min:.2f}", sw_min >= 1.2, "holds if (a)/(b) ≥ 1.2 at every unsaturated load"),
        Claim("m = 15, HW: (a) and (b) match closely over a large load range", "(a) ≈ (b)", f"largest (a)/(b) of HW-CB and HW-IB by load up to 0.7: {show(dict(sorted(wide15.items())))}", bool(wide15) and max(wide15.values()) <= 1.1, "holds if (a)/(b) ≤ 1.1 for both switches at every unsaturated load up to 0.7"),
    ]


QUICK_NOTE = f"windows of {QUICK_RUN['warmup_cycles']:,} + {QUICK_RUN['measure_cycles']:,} cycles; judges no claim (their quick-mode resolution is not measured)"


def _experiment(fid: str, fig: str, title: str, points: Any, claims: Any, plot: Any) -> Experiment:
    return Experiment(id=fid, study=STUDY, figure=fig, title=title, points=points, claims=claims, plot=plot, quick_note=QUICK_NOTE)


EXPERIMENTS = [
    _experiment("sivaram-fig14", "Fig. 14", "latency vs effective load, SW vs HW multicast, central vs input buffers, m varied, 16 nodes, 128 B", lambda q: _points(list(VARIANTS), DEGREES, 128, q), _fig14_claims, _fig14_plot),
    _experiment("sivaram-fig15", "Fig. 15", "received vs effective load, SW and HW multicast, 16 nodes, 128 B", lambda q: _points(list(VARIANTS), DEGREES, 128, q), _fig15_claims, _fig15_plot),
    _experiment("sivaram-fig16", "Fig. 16", "latency vs effective load, 16 nodes, 512 B, m = 2, 4, 6, 9", lambda q: _points(list(VARIANTS), FIG16_DEGREES, 512, q), _fig16_claims, _fig16_plot),
    _experiment("sivaram-fig17", "Fig. 17", "HW-CB on 16 vs 64 nodes, 512 B, m = 2, 6, 15", lambda q: _points(["HW-CB"], FIG17_DEGREES, 512, q, nodes=(16, 64)), _fig17_claims, _fig17_plot),
    _experiment("sivaram-fig18", "Fig. 18", "bimodal traffic (20% of received load from 4-way multicasts), 16 nodes, central buffers, 128 B", lambda q: _points(["HW-CB", "SW-CB"], [4], 128, q, fraction=0.2), _fig18_claims, _fig18_plot),
    _experiment("sivaram-fig19", "Fig. 19", "latency definitions (a) vs (b), m = 6 and 15, 16 nodes, 512 B", lambda q: _points(list(VARIANTS), [6, 15], 512, q), _fig19_claims, _fig19_plot),
]
