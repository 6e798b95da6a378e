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

Saturation: the one rule of every study (flitcast.saturation, docs/results.md "Past saturation"): the core
marks the point saturated, or a latency is above ten times its curve's latency at the lowest load; a curve's
saturation load is known to within its load steps, (last load before, first load past], and a claim comparing
saturation loads is not judged where the steps cannot tell. Figs 14 and 16 add the midpoints of the load
steps from 0.5 up (fine_loads), where the curves saturate. Saturation bandwidth: the peak received load B_o,
the level where B_o flattens, finer than the load steps, used where a claim names a value or a ratio.
Latency is definition (a) unless a figure compares (a) and (b).
The study's m values per figure are not all stated: we use the degrees its text names (docs/experiments.md).
Quick mode runs the same loads with windows ten times shorter and judges no claim (its resolution for
these figures has not been measured: every claim reads latencies or saturation loads a short window moves).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from flitcast.experiments.experiment import Claim, Experiment, Point, Reading, fmt
from flitcast.saturation import saturated
from flitcast.studies import value

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


def fine_loads() -> list[float]:
    """LOADS with the midpoints from 0.5 up added: where the curves saturate, so that a claim comparing
    saturation loads (HW against SW, "much higher") can be decided at half a load step."""
    mids = [round((a + b) / 2, 3) for a, b in zip(LOADS, LOADS[1:], strict=False) if a >= 0.5]
    return sorted(LOADS + mids)


def _points(variants: list[str], degrees: list[int], message_bytes: int, quick: bool, nodes: tuple[int, ...] = (16,), fraction: float = 1.0, fine: bool = False) -> list[Point]:
    run = QUICK_RUN if quick else FULL_RUN
    return [
        Point(
            {"nodes": n, "variant": v, "m": m, "message_bytes": message_bytes},
            scenario(n, v, m, message_bytes, load, run, fraction),
        )
        for n in nodes
        for v in variants
        for m in degrees
        for load in (fine_loads() if fine else LOADS)
    ]


# --- reading the results -------------------------------------------------------------------------------------

# §7.1: "latency curves are not plotted above the saturation bandwidth (latency is infinite in a stable
# but saturated system)": a finite run shows no infinite latency, so the curves end where the one rule of
# flitcast.saturation says a point is past saturation (e.g. SW-CB m = 6 at load 0.9: 11,853 cycles, 43×
# its light-load latency, which the core's own rules leave unsaturated).
#: received loads closer than this are not told apart (the simulator's peaks moved by up to 0.007 between
#: runs of different lengths, docs/experiments.md, Quick mode)
BO_NOISE = 0.01
INF = float("inf")


#: id(results) -> (a weak reference to it, its curves by (variant, m, nodes)): the claims read each curve
#: many times
_CURVES: dict[int, tuple[Any, dict[tuple[str, int, int], pd.DataFrame]]] = {}


def _curve(results: pd.DataFrame, variant: str, m: int, nodes: int = 16) -> pd.DataFrame:
    import weakref

    cached = _CURVES.get(id(results))
    if cached is None or cached[0]() is not results:
        groups = {(str(v), int(k), int(n)): g.sort_values("workload.load") for (v, k, n), g in results.groupby(["variant", "m", "nodes"])}
        cached = (weakref.ref(results, lambda _, key=id(results): _CURVES.pop(key, None)), groups)
        _CURVES[id(results)] = cached
    return cached[1].get((variant, m, nodes), results.iloc[0:0])


def saturation_interval(results: pd.DataFrame, variant: str, m: int, nodes: int = 16) -> tuple[float, float]:
    """Where the curve saturates, as far as its loads tell: (last load before, first load past saturation],
    or (highest load, inf) if no load is past it."""
    curve = _curve(results, variant, m, nodes)
    loads = curve["workload.load"].tolist()
    for i, past in enumerate(saturated(curve).tolist()):
        if past:
            return (loads[i - 1] if i else 0.0, loads[i])
    return (loads[-1] if loads else 0.0, INF)


def saturation_load(results: pd.DataFrame, variant: str, m: int, nodes: int = 16) -> float:
    """The lowest load past saturation (NEVER if none is)."""
    hi = saturation_interval(results, variant, m, nodes)[1]
    return NEVER if hi == INF else hi


def _sat(x: float | tuple[float, float]) -> str:
    if isinstance(x, tuple):
        return f"> {x[0]:g}" if x[1] == INF else f"({x[0]:g}, {x[1]:g}]"
    return "> 1.0" if x >= NEVER else f"{x:g}"


def _later(a: tuple[float, float], b: tuple[float, float], factor: float = 1.0) -> bool | None:
    """Does saturation interval `a` lie above `factor` times `b`? None where the loads cannot tell."""
    if a[0] >= factor * b[1]:
        return True
    if a[1] <= factor * b[0]:
        return False
    return None


def _all(verdicts: Any) -> bool | None:
    """Every verdict true: False if one is false, None (not judged at this resolution) if one is open."""
    verdicts = list(verdicts)
    if any(v is False for v in verdicts):
        return False
    if any(v is None for v in verdicts):
        return None
    return True


def _number(x: Any) -> float:
    """A metric as a float: NaN where the point recorded none."""
    return float("nan") if x is None else float(x)


def _by_load(results: pd.DataFrame, variant: str, m: int, nodes: int = 16) -> dict[float, dict[str, Any]]:
    """One curve's points by load: their latency columns and `past` (past saturation), read once."""
    key = ("by load", variant, m, nodes)
    cache = _CURVES[id(results)][1] if id(results) in _CURVES and _CURVES[id(results)][0]() is results else None
    if cache is None or key not in cache:
        curve = _curve(results, variant, m, nodes)
        columns = [c for c in ("latency_mean", "latency_dest_mean", "latency_unicast_mean", "latency_ci95") if c in curve]
        table = {float(x): {**{c: _number(curve[c].iloc[i]) for c in columns}, "past": bool(p)} for i, (x, p) in enumerate(zip(curve["workload.load"], saturated(curve), strict=True))}
        if cache is None:
            return table
        cache[key] = table  # type: ignore[index]
    return cache[key]  # type: ignore[index]


def _latency_at(results: pd.DataFrame, variant: str, m: int, load: float, nodes: int = 16, column: str = "latency_mean") -> float:
    """Latency at `load`, or inf where the point is past saturation (the study does not plot such points)."""
    point = _by_load(results, variant, m, nodes).get(float(load))
    return INF if point is None or point["past"] else point[column]


def _ci_at(results: pd.DataFrame, variant: str, m: int, load: float, nodes: int = 16) -> float:
    """The 95% half-width of latency (a) at `load` (0 where not recorded)."""
    ci = _by_load(results, variant, m, nodes).get(float(load), {}).get("latency_ci95", 0.0)
    return 0.0 if ci != ci else ci


def _peak(results: pd.DataFrame, variant: str, m: int, nodes: int = 16) -> float:
    return float(_curve(results, variant, m, nodes)["accepted_load"].max())


def _series(values: dict[int, float], show: Any = fmt) -> str:
    return ", ".join(f"m={m}: {show(v)}" for m, v in values.items())


def _lat(x: float) -> str:
    return "sat" if x == INF else f"{x:.0f}"


def _unsaturated_loads(results: pd.DataFrame, variants: list[str], ms: list[int], nodes: int = 16) -> list[float]:
    """The loads every listed curve ran below its saturation load."""
    curves = [_curve(results, v, m, nodes) for v in variants for m in ms]
    limit = min(saturation_load(results, v, m, nodes) for v in variants for m in ms)
    common = set.intersection(*(set(c["workload.load"]) for c in curves)) if curves else set()
    return sorted(float(x) for x in common if x < limit)


def _below(results: pd.DataFrame, a: tuple[str, int], b: tuple[str, int], load: float, factor: float = 1.0, nodes: int = 16) -> bool | None:
    """Is latency (a) of curve `a` below that of `b` divided by `factor`, beyond both 95% half-widths?
    None within them."""
    la, lb = _latency_at(results, *a, load, nodes), _latency_at(results, *b, load, nodes)
    ca, cb = _ci_at(results, *a, load, nodes), _ci_at(results, *b, load, nodes)
    if la + ca < (lb - cb) / factor:
        return True
    if la - ca > (lb + cb) / factor:
        return False
    return None


# --- plots ---------------------------------------------------------------------------------------------------


def _panel(ax: Any, results: pd.DataFrame, variants: list[str], degrees: list[int], y: str, nodes: int = 16, hide_saturated: bool = True) -> None:
    """One curve per variant and m; ``hide_saturated`` (a latency panel): no latency past saturation, a ▲ at
    the top of the axes instead (flitcast.plot.draw_latency); else (received load, a result there too) every point."""
    from flitcast.plot import draw_latency, latency_legend

    styles = {"HW-CB": "-", "HW-IB": "--", "SW-CB": ":", "SW-IB": "-."}
    for v in variants:
        for m in degrees:
            curve = _curve(results, v, m, nodes)
            if not len(curve):
                continue
            label = f"{v} m={m}" + ("" if nodes == 16 else f" ({nodes} nodes)")
            if hide_saturated:
                draw_latency(ax, curve["workload.load"], curve[y], saturated(curve), linestyle=styles[v], marker="o", markersize=3, label=label)
            else:
                ax.plot(curve["workload.load"], curve[y], styles[v], marker="o", markersize=3, label=label)
    ax.set_xlabel("effective applied load m·B_i")
    latency_legend(ax, fontsize=6, ncol=2)


def _figure(out: Path, name: str, panels: list[tuple[Any, ...]], ylabel: str, log: bool = False) -> None:
    """One PNG per panel of the study's figure: ``name.png``, or ``name`` + a, b, c … with several.
    A panel is (title, draw) or (title, draw, its own y label)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from flitcast.experiments.study_marks import draw_study_values

    for i, (title, draw, *own) in enumerate(panels):
        fig, ax = plt.subplots(figsize=(6, 4.2))
        draw(ax)
        stem = f"{name}{'abc'[i]}" if len(panels) > 1 else name
        draw_study_values(ax, f"sivaram-{name}", stem)
        ax.set_title(title, fontsize=9)
        ax.set_ylabel(own[0] if own else ylabel)
        if log:
            ax.set_yscale("log")
        fig.tight_layout()
        fig.savefig(out / f"{stem}.png", dpi=110)
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
    from flitcast.plot import draw_latency, latency_legend

    def draw(ax: Any) -> None:
        for v, style in (("HW-CB", "-"), ("SW-CB", ":")):
            curve = _curve(results, v, 4)
            past = saturated(curve)
            for column, marker in (("latency_mean", "o"), ("latency_unicast_mean", "s"), ("latency_multicast_mean", "^")):
                label = f"{v[:2]} {column.split('_')[1] if column != 'latency_mean' else 'combined'}"
                draw_latency(ax, curve["workload.load"], curve[column], past, linestyle=style, marker=marker, markersize=3, label=label)
        ax.set_xlabel("applied load B_o (80% unicast, 20% 4-way multicast)")
        latency_legend(ax, fontsize=7)

    _figure(out, "fig18", [("bimodal traffic, 16 nodes, central buffers, 128 B", draw)], "latency (a), cycles", log=True)


def _fig19_plot(results: pd.DataFrame, out: Path) -> None:
    from flitcast.plot import draw_latency, latency_legend

    def panel(m: int) -> Any:
        def draw(ax: Any) -> None:
            styles = {"HW-CB": "-", "HW-IB": "--", "SW-CB": ":", "SW-IB": "-."}
            for v in VARIANTS:
                curve = _curve(results, v, m)
                past = saturated(curve)
                draw_latency(ax, curve["workload.load"], curve["latency_mean"], past, linestyle=styles[v], marker="o", markersize=3, label=f"{v} (a)")
                draw_latency(ax, curve["workload.load"], curve["latency_dest_mean"], past, linestyle=styles[v], marker="x", markersize=3, label=f"{v} (b)")
            ax.set_xlabel("effective applied load m·B_i")
            latency_legend(ax, fontsize=6, ncol=2)

        return draw

    _figure(out, "fig19", [("m = 6, 512 B", panel(6)), ("m = 15, 512 B", panel(15))], "latency, cycles", log=True)


# --- claims --------------------------------------------------------------------------------------------------

#: §7.3 "much higher" saturation, §7.8 "much lower" latency: by at least 20%. The study calls the 64-node
#: system's lower saturation "slightly lower" (§7.5) and its HW/SW gaps "much", "significantly"; a gap of
#: under a fifth (two load steps of 0.1 where the curves saturate, 0.5–1.0) is not one a reader of its plots
#: would call "much"
MUCH = 1.2
#: §9 "similar" latency: within 10% (the study calls only differences of factors "significant")
SIMILAR = 0.10


def _monotone(results: pd.DataFrame, variant: str, degrees: list[int], rising: bool) -> tuple[bool | None, str]:
    """Latency (a) of `variant` rises (or falls) with m at every load all its curves run unsaturated:
    no step in m goes the other way beyond the 95% half-widths, and the largest m is beyond them above (or
    below) the smallest. The verdict and, per load, where it fails."""
    verdicts, failing = [], []
    first, last = (variant, degrees[0]), (variant, degrees[-1])
    for x in _unsaturated_loads(results, [variant], degrees):
        steps = [_below(results, (variant, a), (variant, b), x) if rising else _below(results, (variant, b), (variant, a), x) for a, b in zip(degrees, degrees[1:], strict=False)]
        ends = _below(results, first, last, x) if rising else _below(results, last, first, x)
        ok = False if any(s is False for s in steps) or ends is False else (None if ends is None else True)
        verdicts.append(ok)
        if ok is not True:
            failing.append(f"{x:g}")
    return (_all(verdicts) if verdicts else None), ", ".join(failing)


def _latency_table(results: pd.DataFrame, variant: str, degrees: list[int]) -> str:
    loads = _unsaturated_loads(results, [variant], degrees)
    return "; ".join(f"{x:g}: " + "/".join(_lat(_latency_at(results, variant, m, x)) for m in degrees) for x in loads)


def _latency_claims(results: pd.DataFrame, degrees: list[int], where: str) -> list[Claim]:
    claims = []
    for v, rising in (("SW-CB", True), ("SW-IB", True), ("HW-CB", False), ("HW-IB", False)):
        ok, failing = _monotone(results, v, degrees, rising)
        word = "rises" if rising else "decreases"
        claims.append(
            Claim(
                f"{v}: {'software' if rising else 'hardware'} multicast latency {word} with m",
                f"{word} with m ({where})",
                f"latency (a) m={'/'.join(map(str, degrees))} at each load below every curve's saturation: {_latency_table(results, v, degrees)}",
                ok,
                f"holds if at every such load no step in m goes the other way beyond the 95% half-widths and m = {degrees[-1]} is beyond them {'above' if rising else 'below'} m = {degrees[0]}"
                + (f"; fails at loads {failing}" if failing else "")
                + ("" if rising else "; deviates at light load: latency (a) is the last of m deliveries, which grows with m, while the study's reason (fewer worms at the same effective load) matters only under load"),
            )
        )
    return claims


def _hw_vs_sw_claims(results: pd.DataFrame, degrees: list[int], size: str, factor: float) -> list[Claim]:
    """HW saturates later than SW (by `factor`) and has much lower latency, every m, both switches."""
    claims = []
    for switch in ("CB", "IB"):
        hw, sw = f"HW-{switch}", f"SW-{switch}"
        sat = {m: (saturation_interval(results, hw, m), saturation_interval(results, sw, m)) for m in degrees}
        much = factor > 1.0
        claims.append(
            Claim(
                f"{size}, {switch}: hardware multicast saturates at a {'much ' if much else ''}higher load than software multicast, every m",
                ("§7.3: HW saturation ≥ 1.2 × SW's" if much else "§7.8: HW saturation higher than SW's") + " for every m",
                "saturation load HW / SW: " + ", ".join(f"m={m}: {_sat(h)} / {_sat(s)}" for m, (h, s) in sat.items()),
                _all(_later(h, s, factor) for h, s in sat.values()),
                (f"'much higher' = at least {MUCH:g}× (the reason is at MUCH in sivaram.py); " if much else "")
                + "saturation by the stated rule, known to within its load step: not judged where the step cannot tell"
                + "; where it deviates at small m: measured cause, software multicast saturates where its busiest relay's injection link is full (25/21 of the mean at m = 2 over the address-sorted U-Min chain: load 0.84), only 1.19x below HW (docs/models/multicast.md, 'What sets software multicast's saturation')",
            )
        )
        verdicts, shown = [], []
        for m in degrees:
            loads = _unsaturated_loads(results, [hw, sw], [m])
            verdicts += [_below(results, (hw, m), (sw, m), x, MUCH) for x in loads]
            shown.append(f"m={m}: " + " ".join(f"{x:g}:{_lat(_latency_at(results, hw, m, x))}/{_lat(_latency_at(results, sw, m, x))}" for x in loads))
        claims.append(
            Claim(
                f"{size}, {switch}: hardware multicast latency much lower than software multicast, every m",
                "§7.3 'performs significantly better', §7.8 'latency was much lower'",
                "latency (a) HW/SW at the loads both run unsaturated: " + "; ".join(shown),
                _all(verdicts) if verdicts else None,
                f"holds if HW's latency is below SW's / {MUCH:g} beyond the 95% half-widths at every such load and m ('much': the reason is at MUCH in sivaram.py)",
            )
        )
    return claims


def _rises_with_m(results: pd.DataFrame, variant: str, degrees: list[int], rising: bool = True) -> bool | None:
    """The saturation load rises (or falls) with m: no step in m decidedly the other way, and the last m
    decidedly beyond the first."""
    iv = [saturation_interval(results, variant, m) for m in degrees]
    if rising:
        steps = [_later(a, b) is not True for a, b in zip(iv, iv[1:], strict=False)]
        ends = _later(iv[-1], iv[0])
    else:
        steps = [_later(b, a) is not True for a, b in zip(iv, iv[1:], strict=False)]
        ends = _later(iv[0], iv[-1])
    return False if not all(steps) else ends


def _cb_over_ib(results: pd.DataFrame, degrees: list[int]) -> dict[int, float]:
    """HW-CB / HW-IB saturation load, m by m, read as the peak received load: the level at which B_o
    flattens (Fig. 15), finer than the load steps (a curve that does not saturate gives a lower bound)."""
    return {m: _peak(results, "HW-CB", m) / _peak(results, "HW-IB", m) for m in degrees}


#: "an improvement of up to a factor of 2 (in terms of saturation load)" (§1, study_data/000.toml): a factor
#: stated to one significant figure, 1.5 ≤ largest ratio < 2.5
_FACTOR = value("000", "cb_over_ib_factor").number
FACTOR_2 = (_FACTOR - 0.5, _FACTOR + 0.5)
#: §7.4: the central buffers carry "over 90%" of the maximum load (128 B); 512 B: 2- and 4-way saturate
#: below 0.9, 6- and 9-way above (study_data/000.toml)
OVER_90 = value("000", "cb_peak_over_90").low_high[0]
SPLIT_512 = value("000", "fig16_saturation_split").x


def _fig14_claims(results: pd.DataFrame) -> list[Claim]:
    claims = _latency_claims(results, DEGREES, "§7.3, Fig. 14 top")
    claims += _hw_vs_sw_claims(results, DEGREES, "128 B", MUCH)
    iv = {v: {m: saturation_interval(results, v, m) for m in DEGREES} for v in VARIANTS}
    # small m (§7.3, §9): HW-IB worse than SW-CB — SW-CB saturates later, or (the step cannot tell) has
    # the lower latency at the highest load both run unsaturated
    worse = _later(iv["SW-CB"][2], iv["HW-IB"][2])
    loads = _unsaturated_loads(results, ["HW-IB", "SW-CB"], [2])
    if worse is None and loads:
        worse = _below(results, ("SW-CB", 2), ("HW-IB", 2), loads[-1])
    claims.append(
        Claim(
            "for small m, input-FIFO replication performs worse than software multicast on central buffers",
            "§7.3, §9: HW-IB worse than SW-CB at m = 2",
            f"m = 2 saturation load HW-IB {_sat(iv['HW-IB'][2])}, SW-CB {_sat(iv['SW-CB'][2])}",
            worse,
            "holds if SW-CB saturates later (or, where the load step cannot tell, has the lower latency beyond the 95% half-widths at the highest load both run unsaturated)",
        )
    )
    claims.append(
        Claim(
            "input-FIFO replication: saturation load rises with m",
            "§7.3: rises with m",
            "HW-IB saturation load: " + _series(iv["HW-IB"], _sat),
            _rises_with_m(results, "HW-IB", DEGREES),
            f"holds if no step in m saturates decidedly earlier and m = {DEGREES[-1]} decidedly later than m = {DEGREES[0]}",
        )
    )
    # §7.8 / Fig. 14 bottom: HW-CB better than HW-IB for every m
    verdicts, worse_at = [], []
    for m in DEGREES:
        # above the light loads, where §9 calls the two similar (the next claim)
        loads = [x for x in _unsaturated_loads(results, ["HW-CB", "HW-IB"], [m]) if x > 0.2]
        higher = [x for x in loads if _below(results, ("HW-IB", m), ("HW-CB", m), x) is True]
        lower = [x for x in loads if _below(results, ("HW-CB", m), ("HW-IB", m), x) is True]
        later = _later(iv["HW-CB"][m], iv["HW-IB"][m])
        earlier = _later(iv["HW-IB"][m], iv["HW-CB"][m])
        if higher or earlier is True:
            verdicts.append(False)
            worse_at.append(f"m={m}" + (f" (HW-IB lower at {', '.join(f'{x:g}' for x in higher)})" if higher else "") + (" (HW-IB saturates later)" if earlier else ""))
        else:
            verdicts.append(True if (lower or later) else None)
    claims.append(
        Claim(
            "central-buffer replication performs better than input-FIFO replication, every m",
            "§7.8, Fig. 14 bottom: HW-CB better than HW-IB",
            "saturation load HW-CB / HW-IB: " + ", ".join(f"m={m}: {_sat(iv['HW-CB'][m])} / {_sat(iv['HW-IB'][m])}" for m in DEGREES) + (f"; HW-IB better: {'; '.join(worse_at)}" if worse_at else ""),
            _all(verdicts),
            "holds if, for every m, HW-IB neither saturates decidedly later nor has a lower latency beyond the 95% half-widths at any load above 0.2 both run unsaturated (§9 calls them similar at low loads), and HW-CB is better in one of the two"
            + "; deviates where HW-IB wins at m = 15: measured cause, the central buffer's one read port (an output whose register empties in the same cycle as another's loses a cycle; reading ahead, which the study does not describe, would remove HW-IB's latency advantage: docs/models/central_buffer.md, 'What the one read port costs')",
        )
    )
    light = [x for x in sorted(set(results["workload.load"])) if x <= 0.2]
    ratios = {(m, x): _latency_at(results, "HW-IB", m, x) / _latency_at(results, "HW-CB", m, x) for m in DEGREES for x in light}
    claims.append(
        Claim(
            "at low loads input-FIFO replication performs like central-buffer replication",
            "§9: similar at low loads",
            "latency (a) HW-IB / HW-CB at loads ≤ 0.2: " + ", ".join(f"m={m} {x:g}: {r:.2f}" for (m, x), r in ratios.items()),
            bool(ratios) and all(abs(r - 1) <= SIMILAR for r in ratios.values()),
            f"holds if within ±{SIMILAR:.0%} at every m and load ≤ 0.2 ('similar': the reason is at SIMILAR in sivaram.py)",
        )
    )
    first = min(hi for _, hi in iv["HW-IB"].values())
    light_verdict = True if first <= 0.5 else (False if min(lo for lo, _ in iv["HW-IB"].values()) >= 0.5 else None)
    claims.append(
        Claim(
            "input-FIFO replication degrades at relatively light loads",
            "§9: degradation 'occurs at relatively light loads'",
            "HW-IB saturation load: " + _series(iv["HW-IB"], _sat),
            light_verdict,
            "holds if some m saturates at a load ≤ 0.5 ('light': the lower half of the load axis, where a curve saturates at half the central buffer's ~1.0, the §1 factor of 2)",
        )
    )
    verdicts = []
    for m in (9, 15):
        verdicts.append(_later(iv["HW-IB"][m], iv["SW-CB"][m]))
        verdicts += [_below(results, ("SW-CB", m), ("HW-IB", m), x) is not True for x in _unsaturated_loads(results, ["HW-IB", "SW-CB"], [m])]
    claims.append(
        Claim(
            "for large m input-FIFO replication outperforms software multicast on central buffers",
            "§7.8: HW-IB better than SW-CB at large m (9, 15)",
            "saturation load HW-IB / SW-CB: " + ", ".join(f"m={m}: {_sat(iv['HW-IB'][m])} / {_sat(iv['SW-CB'][m])}" for m in (9, 15)),
            _all(verdicts),
            "'large m': 9 and 15 (the study calls m = 6 small, §7.7); holds if HW-IB saturates decidedly later and its latency is nowhere above SW-CB's beyond the 95% half-widths",
        )
    )
    verdicts, shown = [], []
    for m in DEGREES:
        for other in ("HW-CB", "HW-IB", "SW-CB"):
            loads = _unsaturated_loads(results, ["SW-IB", other], [m])
            no_better = _later(iv["SW-IB"][m], iv[other][m]) is not True and all(_below(results, ("SW-IB", m), (other, m), x) is not True for x in loads)
            some_worse = _later(iv[other][m], iv["SW-IB"][m]) is True or any(_below(results, (other, m), ("SW-IB", m), x) is True for x in loads)
            verdicts.append(False if not no_better else (True if some_worse else None))
            if not no_better or not some_worse:
                shown.append(f"m={m} vs {other}" + ("" if not no_better else " (within the step and the half-widths)"))
    claims.append(
        Claim(
            "software multicast on input FIFOs performs worse than the other three options",
            "§7.8: SW-IB worst of the four",
            "saturation load SW-IB: " + _series(iv["SW-IB"], _sat) + (f"; SW-IB not decidedly worst: {', '.join(shown)}" if shown else ""),
            _all(verdicts),
            "holds if, for every m and each other option, SW-IB neither saturates decidedly later nor has a lower latency beyond the 95% half-widths anywhere, and is worse in one of the two",
        )
    )
    ratios = _cb_over_ib(results, DEGREES)
    best = max(ratios.values())
    claims.append(
        Claim(
            "central buffers improve the saturation load of hardware multicast by up to a factor of 2 over input FIFOs",
            "§1: 'up to a factor of 2 (in terms of saturation load)'",
            f"HW-CB / HW-IB saturation load (as the peak received load): {_series(ratios)}",
            FACTOR_2[0] <= best < FACTOR_2[1],
            "holds if the largest ratio over m is 1.5–2.5 (a factor stated to one significant figure), judged at 128 B where Fig. 14's bottom graph compares the two; 512 B in sivaram-fig16"
            + "; the saturation load is read as the level where B_o flattens (Fig. 15), finer than the load steps",
        )
    )
    return claims


def _slopes_past(results: pd.DataFrame, variants: tuple[str, ...]) -> tuple[dict[tuple[str, int], float], str]:
    """The B_o slopes past saturation of the curves of ``variants`` that have one, and how ``ours`` shows them."""
    slopes = {(v, m): _slope_past(results, v, m) for v in variants for m in DEGREES}
    shown = {k: s for k, s in slopes.items() if s is not None}
    text = "B_o slope from the first load past saturation to 1.0: " + ", ".join(f"{v} m={m}: {s:.2f}" for (v, m), s in shown.items())
    return shown, text


def _slope_past(results: pd.DataFrame, variant: str, m: int) -> float | None:
    """How fast B_o still rises from the first load past saturation to the highest load (received per
    unit of effective load); None if fewer than two loads are past saturation."""
    curve = _curve(results, variant, m)
    past = curve[curve["workload.load"] >= saturation_load(results, variant, m)]
    if len(past) < 2:
        return None
    x, y = past["workload.load"].tolist(), past["accepted_load"].tolist()
    return (y[-1] - y[0]) / (x[-1] - x[0])


#: "flattened" B_o past saturation: it rises at most a tenth as fast as the effective load (ten times
#: flatter than below saturation, where B_o = m·B_i); "does not flatten out": faster than that
FLAT_SLOPE = 0.1


def _fig15_claims(results: pd.DataFrame) -> list[Claim]:
    ib = {m: _peak(results, "HW-IB", m) for m in DEGREES}
    cb = {m: _peak(results, "HW-CB", m) for m in DEGREES}
    ib_values = list(ib.values())
    claims = [
        Claim(
            "HW-IB: saturation bandwidth increases with m",
            "§7.3, Fig. 15 bottom: increases with m",
            f"peak received load: {_series(ib)}",
            all(b >= a - BO_NOISE for a, b in zip(ib_values, ib_values[1:], strict=False)) and ib_values[-1] > ib_values[0] + BO_NOISE,
            f"holds if no step in m lowers the peak B_o by more than {BO_NOISE} (the reason is at BO_NOISE in sivaram.py) and m = 15's is more than that above m = 2's",
        )
    ]
    for v in ("SW-CB", "SW-IB"):
        iv = {m: saturation_interval(results, v, m) for m in DEGREES}
        claims.append(
            Claim(
                f"{v}: saturation load decreases with m (the opposite of HW-IB)",
                "§7.3, Fig. 14–15 top: 'saturates quickly', 'the opposite is true'",
                "saturation load: " + _series(iv, _sat),
                _rises_with_m(results, v, DEGREES, rising=False),
                "holds if no step in m saturates decidedly later and m = 15 decidedly earlier than m = 2",
            )
        )
    shown, text = _slopes_past(results, ("SW-CB", "SW-IB"))
    claims.append(
        Claim(
            "software multicast: B_o does not flatten out past saturation",
            "§7.3, Fig. 15 top: does not flatten out",
            text,
            all(s > FLAT_SLOPE for s in shown.values()) if shown else None,
            f"holds if every software curve with two loads past saturation keeps rising faster than {FLAT_SLOPE:g} (the reason is at FLAT_SLOPE in sivaram.py); "
            + "deviates where SW-IB flattens at small m: its input FIFOs block like a unicast network's (head of line), and a unicast network's B_o does flatten",
        )
    )
    shown, text = _slopes_past(results, ("HW-CB", "HW-IB"))
    claims.append(
        Claim(
            "hardware multicast: B_o flattens out past saturation",
            "§7.3, Fig. 15 bottom: 'the characteristic flattened B_o lines'",
            text,
            all(abs(s) <= FLAT_SLOPE for s in shown.values()) if shown else None,
            f"holds if every hardware curve with two loads past saturation has a slope within ±{FLAT_SLOPE:g} (the reason is at FLAT_SLOPE in sivaram.py); not judged if none saturates early enough",
        )
    )
    spread = max(cb.values()) - min(cb.values())
    large, small = max(cb[9], cb[15]), max(cb[m] for m in (2, 4, 6))
    claims += [
        Claim(
            "HW-CB: saturation bandwidth near 100%, curves hard to distinguish",
            "§7.3: 'near enough to 100% that it is hard to distinguish the curves'",
            f"peak received load: {_series(cb)}; spread {fmt(spread)}",
            min(cb.values()) >= OVER_90 and spread <= 0.05,
            f"holds if every peak B_o is at least {OVER_90:g} (§7.4: 'over 90%') and they lie within 0.05 of each other (5% of the B_o axis: 'hard to distinguish')",
        ),
        Claim(
            "HW-CB: the highest saturation bandwidth is achieved for large m",
            "§7.3: highest for large m",
            f"peak received load, m = 9, 15: {fmt(large)}; m = 2, 4, 6: {fmt(small)}",
            True if large >= small + BO_NOISE else (False if small >= large + BO_NOISE else None),
            f"'large m': 9 and 15; holds if their best peak B_o is above the small m's by {BO_NOISE} or more, deviates if below by as much, not judged between (the reason is at BO_NOISE in sivaram.py)",
        ),
        Claim("128-byte messages: central buffers carry over 90% of the maximum load", f"§7.4: > {OVER_90:g}", f"lowest HW-CB peak {fmt(min(cb.values()))}", min(cb.values()) > OVER_90, "the peak received load of every m"),
    ]
    return claims


FIG16_DEGREES = [2, 4, 6, 9]


def _fig16_claims(results: pd.DataFrame) -> list[Claim]:
    iv = {v: {m: saturation_interval(results, v, m) for m in FIG16_DEGREES} for v in VARIANTS}
    cb = iv["HW-CB"]
    split = SPLIT_512
    before = [cb[m][1] <= split if cb[m][1] <= split or cb[m][0] >= split else None for m in (2, 4)]
    after = [cb[m][0] >= split if cb[m][1] <= split or cb[m][0] >= split else None for m in (6, 9)]
    ratios = _cb_over_ib(results, FIG16_DEGREES)
    claims = [
        Claim(
            f"512 B: 2- and 4-way HW-CB saturate before {split:g}, 6- and 9-way above {split:g}",
            f"§7.4: 2, 4 < {split:g} < 6, 9",
            "HW-CB saturation load: " + _series(cb, _sat) + "; peak received load: " + _series({m: _peak(results, "HW-CB", m) for m in FIG16_DEGREES}),
            _all(before + after),
            f"saturation by the stated rule; {split:g} is a load step, so the steps decide it",
        ),
        Claim(
            "512 B: input-FIFO replication saturates later as m grows",
            "§7.4: 'a similar decrease … for the input-buffer-based multicasts'",
            "HW-IB saturation load: " + _series(iv["HW-IB"], _sat),
            _rises_with_m(results, "HW-IB", FIG16_DEGREES),
            "holds if no step in m saturates decidedly earlier and m = 9 decidedly later than m = 2",
        ),
    ]
    for v in ("SW-CB", "SW-IB"):
        claims.append(
            Claim(
                f"512 B, {v}: software saturation load decreases as m increases",
                "§7.4: decreases, 'just as for the 128-byte messages'",
                "saturation load: " + _series(iv[v], _sat),
                _rises_with_m(results, v, FIG16_DEGREES, rising=False),
                "holds if no step in m saturates decidedly later and m = 9 decidedly earlier than m = 2",
            )
        )
    claims.append(
        Claim(
            "512 B: software multicast saturates sooner than with 128-byte messages",
            "§7.4: 'also saturate more quickly than for the 128-byte case'",
            "SW saturation load at 512 B: " + ", ".join(f"{v} {_series(iv[v], _sat)}" for v in ("SW-CB", "SW-IB")),
            None,
            "not judged here: the 128-byte curves are sivaram-fig14's runs (compare its SW saturation loads)",
        )
    )
    claims += _hw_vs_sw_claims(results, FIG16_DEGREES, "512 B", 1.0)
    claims.append(
        Claim(
            "512 B: central buffers improve the saturation load by at most about 2× over input FIFOs",
            "§1: 'up to a factor of 2 (in terms of saturation load)'",
            f"HW-CB / HW-IB saturation load (as the peak received load): {_series(ratios)}",
            max(ratios.values()) < FACTOR_2[1],
            "the 'up to' bound: holds if no ratio reaches 2.5 (a factor stated to one significant figure); whether the factor 2 is reached is judged at 128 B (sivaram-fig14)",
        )
    )
    return claims


FIG17_DEGREES = [2, 6, 15]


def _fig17_claims(results: pd.DataFrame) -> list[Claim]:
    light = [0.1, 0.2, 0.3]
    higher = {m: (sum(_latency_at(results, "HW-CB", m, x, 16) for x in light) / 3, sum(_latency_at(results, "HW-CB", m, x, 64) for x in light) / 3) for m in FIG17_DEGREES}
    sat = {m: (saturation_load(results, "HW-CB", m, 16), saturation_load(results, "HW-CB", m, 64)) for m in FIG17_DEGREES}
    low_first = all(sat[2][i] <= min(sat[m][i] for m in FIG17_DEGREES) and higher[2][i] <= min(higher[m][i] for m in FIG17_DEGREES) for i in (0, 1))
    return [
        Claim("64 nodes have higher latency than 16 for comparable multicasts", "§7.5: higher", "mean latency at loads 0.1–0.3, 16 / 64 nodes: " + ", ".join(f"m={m}: {a:.0f} / {b:.0f}" for m, (a, b) in higher.items()), all(b > a for a, b in higher.values()), "comparable = the same m"),
        Claim("64 nodes saturate slightly lower than 16", "§7.5: slightly lower", "saturation load 16 / 64 nodes: " + ", ".join(f"m={m}: {_sat(a)} / {_sat(b)}" for m, (a, b) in sat.items()), all(b <= a for a, b in sat.values()) and any(b < a for a, b in sat.values()) and all(a - b <= 0.2 for a, b in sat.values()), "holds if no m saturates later on 64 nodes, one earlier, and none more than 0.2 earlier"),
        Claim("low m has low latency but saturates earliest", "§7.5: m = 2 lowest latency, first to saturate", "saturation load: " + ", ".join(f"m={m}: {_sat(a)} / {_sat(b)}" for m, (a, b) in sat.items()), low_first, "on both system sizes (latency: loads 0.1–0.3)"),
    ]


def _fig18_claims(results: pd.DataFrame) -> list[Claim]:
    loads = _unsaturated_loads(results, ["HW-CB", "SW-CB"], [4])
    loads = [x for x in loads if x >= 0.3] or loads[-1:]
    uni = {x: (_latency_at(results, "HW-CB", 4, x, column="latency_unicast_mean"), _latency_at(results, "SW-CB", 4, x, column="latency_unicast_mean")) for x in loads}
    comb = {x: (_latency_at(results, "HW-CB", 4, x), _latency_at(results, "SW-CB", 4, x)) for x in loads}
    sat = {v: saturation_interval(results, v, 4) for v in ("HW-CB", "SW-CB")}
    return [
        Claim("hardware multicasts perturb the unicasts less than software multicasts", "§7.6: unicast latency lower with HW", "unicast latency HW / SW: " + ", ".join(f"{x:g}: {a:.0f} / {b:.0f}" for x, (a, b) in uni.items()), bool(uni) and all(a < b for a, b in uni.values()), "at every load from 0.3 below both saturation loads"),
        Claim(
            "lower combined latency with hardware multicast",
            "§7.6: lower",
            "combined latency HW / SW: " + ", ".join(f"{x:g}: {a:.0f} / {b:.0f}" for x, (a, b) in comb.items()) + f"; saturation HW {_sat(sat['HW-CB'])}, SW {_sat(sat['SW-CB'])}",
            bool(comb) and all(a < b for a, b in comb.values()) and _later(sat["SW-CB"], sat["HW-CB"]) is not True,
            "at every load from 0.3 below both saturation loads, and SW not saturating decidedly later",
        ),
    ]


def _ratios(results: pd.DataFrame, variant: str, m: int) -> dict[float, float]:
    curve = _curve(results, variant, m)
    curve = curve[~saturated(curve)]
    return {float(x): float(a / b) for x, a, b in zip(curve["workload.load"], curve["latency_mean"], curve["latency_dest_mean"], strict=True)}


#: §7.7 "(a) exceeds (b) by almost 60%" (study_data/000.toml): just under 60%, 1.50 ≤ (a)/(b) ≤ 1.60
_ALMOST = value("000", "a_over_b_almost_60").number
ALMOST_60 = (_ALMOST - 0.1, _ALMOST)


def _fig19_claims(results: pd.DataFrame) -> list[Claim]:
    cb6, ib6 = _ratios(results, "HW-CB", 6), _ratios(results, "HW-IB", 6)
    cb15, ib15 = _ratios(results, "HW-CB", 15), _ratios(results, "HW-IB", 15)
    sw = {v: _ratios(results, v, m) for v in ("SW-CB", "SW-IB") for m in (6, 15)}
    sw_min = min((min(r.values()) for r in sw.values() if r), default=float("nan"))

    def show(r: dict[float, float]) -> str:
        return ", ".join(f"{x:g}: {v:.2f}" for x, v in r.items())

    common = [x for x in cb6 if x in ib6]
    wide15 = {x: max(cb15.get(x, 1.0), ib15.get(x, 1.0)) for x in set(cb15) | set(ib15) if x <= 0.7}
    claims = [
        Claim("m = 6, HW-CB: (a) and (b) nearly equal at low load", "§7.7: (a) ≈ (b)", f"(a)/(b) by load: {show(cb6)}", bool(cb6) and cb6[min(cb6)] <= 1.1, "holds if (a)/(b) ≤ 1.1 at the lowest load"),
        Claim(
            "m = 6, HW-CB: at higher loads (a) exceeds (b) by almost 60%",
            "§7.7: 'almost 60%'",
            f"largest (a)/(b) below saturation: {max(cb6.values()):.2f}" if cb6 else "no unsaturated load",
            bool(cb6) and ALMOST_60[0] <= max(cb6.values()) <= ALMOST_60[1],
            "holds if the largest ratio below saturation is 1.50–1.60 ('almost': just under 60%, by at most ten points)",
        ),
        Claim("m = 6: the (a)–(b) gap grows faster with input-FIFO replication", "§7.7: IB gap larger", f"(a)/(b) HW-IB by load: {show(ib6)}", bool(common) and all(ib6[x] >= cb6[x] for x in common) and ib6[max(common)] > cb6[max(common)], "holds if HW-IB's ratio is at least HW-CB's at every load both run unsaturated, and larger at the highest"),
    ]
    # "as does the magnitude of the latencies": HW-IB's latency rises faster than HW-CB's
    loads = _unsaturated_loads(results, ["HW-CB", "HW-IB"], [6])
    rise = {x: (_latency_at(results, "HW-IB", 6, x) - _latency_at(results, "HW-IB", 6, loads[0]), _latency_at(results, "HW-CB", 6, x) - _latency_at(results, "HW-CB", 6, loads[0])) for x in loads[1:]}
    noise = {x: _ci_at(results, "HW-IB", 6, x) + _ci_at(results, "HW-CB", 6, x) for x in rise}
    claims.append(
        Claim(
            "m = 6: input-FIFO replication's latency grows faster than the central buffer's",
            "§7.7: 'as does the magnitude of the latencies'",
            "latency (a) rise from the lowest load, HW-IB / HW-CB: " + ", ".join(f"{x:g}: {a:.0f} / {b:.0f}" for x, (a, b) in rise.items()),
            (all(a >= b - noise[x] for x, (a, b) in rise.items()) and rise[max(rise)][0] > rise[max(rise)][1] + noise[max(rise)]) if rise else None,
            "holds if HW-IB's rise is nowhere below HW-CB's beyond the 95% half-widths and above it beyond them at the highest load both run unsaturated",
        )
    )
    claims.append(Claim("software multicast: always a significant (a)–(b) gap", "§7.7: significant", f"smallest (a)/(b) of SW-CB and SW-IB, m = 6 and 15: {sw_min:.2f}", sw_min >= 1.2, "holds if (a)/(b) ≥ 1.2 at every unsaturated load"))
    claims.append(
        Claim("m = 15, HW: (a) and (b) match closely over a large load range", "§7.7: (a) ≈ (b)", f"largest (a)/(b) of HW-CB and HW-IB by load up to 0.7: {show(dict(sorted(wide15.items())))}", bool(wide15) and max(wide15.values()) <= 1.1, "holds if (a)/(b) ≤ 1.1 for both switches at every unsaturated load up to 0.7")
    )
    # §7.7: "for small m software multicasting with central buffers actually saturates later than hardware
    # multicasting with input FIFO replication, hence the crossovers in the graph"
    later = _later(saturation_interval(results, "SW-CB", 6), saturation_interval(results, "HW-IB", 6))
    loads = [float(x) for x in sorted(set(_curve(results, "SW-CB", 6)["workload.load"]))]
    above = {x: _latency_at(results, "SW-CB", 6, x) > _latency_at(results, "HW-IB", 6, x) for x in loads if _latency_at(results, "SW-CB", 6, x) < INF}
    crosses = bool(above) and above[min(above)] and not all(above.values())
    claims.append(
        Claim(
            "m = 6: SW-CB saturates later than HW-IB, so their latency curves cross",
            "§7.7: 'saturates later …, hence the crossovers'",
            f"saturation load SW-CB {_sat(saturation_interval(results, 'SW-CB', 6))}, HW-IB {_sat(saturation_interval(results, 'HW-IB', 6))}; SW-CB above HW-IB at loads "
            + ", ".join(f"{x:g}" for x, a in above.items() if a),
            False if later is False or not crosses else later,
            "holds if SW-CB saturates decidedly later and its latency (a), above HW-IB's at the lowest load, is below it (or HW-IB past saturation) at a load SW-CB runs unsaturated",
        )
    )
    # §7.8: "Hardware multicast latency varies less over the range of destinations of a particular multicast"
    verdicts, shown = [], []
    for m in (6, 15):
        for switch in ("CB", "IB"):
            hw, swr = _ratios(results, f"HW-{switch}", m), _ratios(results, f"SW-{switch}", m)
            both = [x for x in hw if x in swr]
            verdicts += [hw[x] < swr[x] for x in both]
            shown.append(f"m={m} {switch}: " + ", ".join(f"{x:g}: {hw[x]:.2f}/{swr[x]:.2f}" for x in both))
    claims.append(
        Claim(
            "hardware multicast latency varies less over a multicast's destinations than software multicast's",
            "§7.8: HW (a)/(b) below SW's",
            "(a)/(b) HW / SW: " + "; ".join(shown),
            bool(verdicts) and all(verdicts),
            "holds if HW's (a)/(b) is below SW's on the same switch at every load both run unsaturated, m = 6 and 15",
        )
    )
    return claims


QUICK_NOTE = f"windows of {QUICK_RUN['warmup_cycles']:,} + {QUICK_RUN['measure_cycles']:,} cycles; judges no claim (their quick-mode resolution is not measured)"


#: what the study leaves open, read otherwise (docs/models/multicast.md, "Our reading of the header's length";
#: docs/experiments.md, "Readings")
READINGS = (
    Reading(
        "header-in-message",
        "§3.2 encodes a worm's destinations as an N-bit string but gives the header no length: read as carried "
        "within the message's bytes (workload.header_flits = 0 on multidestination worms); the default adds "
        "ceil(N / 16) flits of 2 bytes (1 on 16 nodes, 4 on 64)",
        lambda point: {"workload.header_flits": 0} if VARIANTS[point.labels["variant"]][0] == "hardware" else {},
    ),
    Reading(
        "unshared-buffer",
        "our central buffer keeps a replicating worm's share of chunks free of up-bound packets (needed against "
        "deadlock on the tree, docs/models/central_buffer.md; the study states only §4.2.2's admission rule): "
        "HW-CB with that rule alone (switch.multicast_admission = reserve_unshared), to show what the share costs "
        "where the network still runs; points that deadlock are reported as errors",
        lambda point: {"switch.multicast_admission": "reserve_unshared"} if point.labels["variant"] == "HW-CB" else {},
    ),
)


def _experiment(fid: str, fig: str, title: str, points: Any, claims: Any, plot: Any) -> Experiment:
    return Experiment(id=fid, study=STUDY, figure=fig, title=title, points=points, claims=claims, plot=plot, quick_note=QUICK_NOTE, readings=READINGS)


EXPERIMENTS = [
    _experiment("sivaram-fig14", "Fig. 14", "latency vs effective load, SW vs HW multicast, central vs input buffers, m varied, 16 nodes, 128 B", lambda q: _points(list(VARIANTS), DEGREES, 128, q, fine=True), _fig14_claims, _fig14_plot),
    _experiment("sivaram-fig15", "Fig. 15", "received vs effective load, SW and HW multicast, 16 nodes, 128 B", lambda q: _points(list(VARIANTS), DEGREES, 128, q), _fig15_claims, _fig15_plot),
    _experiment("sivaram-fig16", "Fig. 16", "latency vs effective load, 16 nodes, 512 B, m = 2, 4, 6, 9", lambda q: _points(list(VARIANTS), FIG16_DEGREES, 512, q, fine=True), _fig16_claims, _fig16_plot),
    _experiment("sivaram-fig17", "Fig. 17", "HW-CB on 16 vs 64 nodes, 512 B, m = 2, 6, 15", lambda q: _points(["HW-CB"], FIG17_DEGREES, 512, q, nodes=(16, 64)), _fig17_claims, _fig17_plot),
    _experiment("sivaram-fig18", "Fig. 18", "bimodal traffic (20% of received load from 4-way multicasts), 16 nodes, central buffers, 128 B", lambda q: _points(["HW-CB", "SW-CB"], [4], 128, q, fraction=0.2), _fig18_claims, _fig18_plot),
    _experiment("sivaram-fig19", "Fig. 19", "latency definitions (a) vs (b), m = 6 and 15, 16 nodes, 512 B", lambda q: _points(list(VARIANTS), [6, 15], 512, q), _fig19_claims, _fig19_plot),
]
