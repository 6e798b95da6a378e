"""Study 000 — Sivaram, Stunkel, Panda: multidestination worms on switch-based networks. Figs 14–19 (§7).

System (§7.1; docs/models/multicast.md): 16- and 64-node fat trees of 8-port switches (4 parents, 4
children), 2-byte flits; the central-buffer switch (64-flit input FIFOs, 256 chunks of 8 flits) or the
input-FIFO switch (320-flit input FIFOs, the same 5 KB), both with 6-cycle cut-through and 7 extra cycles of
chunk deserialisation; adaptive routing up (LRU selection), replication on the way down. Workload: m-way
multicasts to m destinations uniform among the other nodes, Poisson arrivals, single-packet messages of 128
or 512 bytes — 64 or 256 flits, the worm's bit-string header included (§7.2: "Our default message size is
128 bytes (64 flits)"; the reading `header-extra-flits` adds ⌈N/16⌉ header flits instead); the x-axis is the
effective applied load m·B_i, 1.0 = every node receiving at the link rate. Hardware multicast (HW) sends one
worm the switches replicate; software multicast (SW) sends unicasts along the binomial U-Min tree with zero
forwarding overhead. "CB" = central-buffer switches, "IB" = input-FIFO switches; "UC" = unicast traffic
alone on either switch (§7.8's comparison of the two for unicasts, which no figure draws).

Claims: one row per statement of §1, §7.3–§7.8 and §9, each one word of the vocabulary (verdicts.py,
docs/experiments.md "Verdicts"). Saturation is the core's flag; a curve's saturation load is the bracket its
loads give, and Figs 14 and 16 add the midpoints of the load steps from 0.5 up (fine_loads), where the
curves saturate. Saturation bandwidth is the peak received load B_o (§7.3 reads it off Fig. 15). Latency is
definition (a) unless a figure compares (a) and (b). The study's m values per figure are not all stated: we
use the degrees its text names (docs/experiments.md). A statement comparing the two message sizes, or
summing up over them (§1, §7.4, §7.8), is judged by `sivaram-fig16`, which runs the 128-byte curves too.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flitcast.experiments import verdicts as w
from flitcast.experiments.claim import Claim, Results, Spread
from flitcast.experiments.experiment import Experiment, Point, Reading
from flitcast.experiments.verdicts import Axis, Measured, Verdict, panel_axis
from flitcast.saturation import saturated
from flitcast.studies import value

if TYPE_CHECKING:
    import pandas as pd

    from flitcast.config import Scenario

STUDY = "000 Sivaram, Stunkel, Panda (multidestination worms on switch-based networks)"

#: variant label -> (scheme, switch model); "UC-…" are unicasts alone (m = 1)
VARIANTS: dict[str, tuple[str, str]] = {
    "HW-CB": ("hardware", "central_buffer"),
    "HW-IB": ("hardware", "input_fifo"),
    "SW-CB": ("software", "central_buffer"),
    "SW-IB": ("software", "input_fifo"),
    "UC-CB": ("hardware", "central_buffer"),
    "UC-IB": ("hardware", "input_fifo"),
}
MULTICASTS = ["HW-CB", "HW-IB", "SW-CB", "SW-IB"]
#: the degrees §7.3–7.4 name for 16 nodes
DEGREES = [2, 4, 6, 9, 15]
#: §7.7 calls m = 6 small ("for small m … hence the crossovers" of its m = 6 graph); §7.8's "large m", where
#: input-FIFO replication beats software multicast on central buffers, are the degrees above it
SMALL_M = [2, 4, 6]
LARGE_M = [9, 15]
FIG16_DEGREES = [2, 4, 6, 9]
FIG17_DEGREES = [2, 6, 15]
LOADS = [round(0.1 * i, 1) for i in range(1, 11)]
#: §7.1: "100,000–150,000 cycles (or more) of cold start"; the window length is not stated
FULL_RUN = {"warmup_cycles": 100_000, "measure_cycles": 1_000_000, "drain_max_cycles": 200_000}
QUICK_RUN = {"warmup_cycles": 10_000, "measure_cycles": 100_000, "drain_max_cycles": 50_000}
#: Fig. 18's unicasts carry 80% of the received load: the unperturbed reference runs them alone at that load
UNICAST_SHARE = 0.8


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
    if scheme == "hardware":  # §7.2: 128 bytes are 64 flits, the bit-string header among them
        workload["header_flits"] = 0
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
    """LOADS with the midpoints from 0.5 up added, where the curves saturate, so that saturation loads are
    bracketed to half a load step; and the loads a visible step (0.025, over 0.02 of the axis) either side
    of the 0.9 §7.4 names, so that a saturation load can be told above or below it."""
    mids = [round((a + b) / 2, 3) for a, b in itertools.pairwise(LOADS) if a >= 0.5]
    return sorted({*LOADS, *mids, round(SPLIT_512 - 0.025, 3), round(SPLIT_512 + 0.025, 3)})


def _points(variants: list[str], degrees: list[int], message_bytes: int, quick: bool, nodes: tuple[int, ...] = (16,), fraction: float = 1.0, fine: bool = False) -> list[Point]:
    """The grid: a quick run has the coarse loads and windows ten times shorter."""
    run = QUICK_RUN if quick else FULL_RUN
    loads = fine_loads() if fine and not quick else LOADS
    return [
        Point(
            {"nodes": n, "variant": v, "m": m, "message_bytes": message_bytes},
            scenario(n, v, m, message_bytes, load, run, fraction),
        )
        for n in nodes
        for v in variants
        for m in degrees
        for load in loads
    ]


def _unicasts(variants: list[str], quick: bool, loads: Sequence[float] | None = None) -> list[Point]:
    """Unicast traffic alone (m = 1, uniform destinations, 128 B) on the named switches."""
    run = QUICK_RUN if quick else FULL_RUN
    loads = LOADS if loads is None else loads
    return [Point({"nodes": 16, "variant": v, "m": 1, "message_bytes": 128}, scenario(16, v, 1, 128, load, run)) for v in variants for load in loads]


def _curve(results: pd.DataFrame, variant: str, m: int, nodes: int = 16) -> pd.DataFrame:
    """One curve's points by load (for the plots)."""
    rows = results[(results["variant"] == variant) & (results["m"] == m) & (results["nodes"] == nodes)]
    return rows.sort_values("workload.load")


# --- plots ---------------------------------------------------------------------------------------------------


#: a colour per m (the same m the same colour in every panel) …
M_COLOURS = {1: "C7", 2: "C0", 4: "C1", 6: "C2", 9: "C3", 15: "C4"}
#: … and a line style and marker per scheme: HW filled, SW hollow; central buffers ○, input FIFOs □
SCHEME_STYLES: dict[str, dict[str, Any]] = {
    "HW-CB": {"linestyle": "-", "marker": "o"},
    "HW-IB": {"linestyle": "--", "marker": "s"},
    "SW-CB": {"linestyle": ":", "marker": "o", "markerfacecolor": "white"},
    "SW-IB": {"linestyle": "-.", "marker": "s", "markerfacecolor": "white"},
}


def _panel(ax: Any, results: pd.DataFrame, variants: list[str], degrees: list[int], y: str, nodes: int = 16, hide_saturated: bool = True,
           size: int | None = None, linestyle: str | None = None) -> None:
    """One curve per variant and m, a colour per m and a line style per variant (``linestyle``: one for all,
    Fig. 17's node counts); ``hide_saturated`` (a latency panel): no latency past saturation, a ▲ where a
    curve goes past it instead (flitcast.plot.draw_latency); else (received load, a result there too) every
    point. The legend is the panel's (:func:`_key`)."""
    from flitcast.plot import draw_latency

    for v in variants:
        for m in degrees:
            curve = _curve(results, v, m, nodes)
            if size is not None:
                curve = curve[curve["message_bytes"] == size]
            if not len(curve):
                continue
            style = {**SCHEME_STYLES[v], "color": M_COLOURS[m], "markersize": 3.5, "label": "_nolegend_"}
            if linestyle is not None:
                style["linestyle"] = linestyle
            if hide_saturated:
                draw_latency(ax, curve["workload.load"], curve[y], saturated(curve), **style)
            else:
                ax.plot(curve["workload.load"], curve[y], **style)
    ax.set_xlabel("effective applied load m·B_i")


def _key(ax: Any, degrees: Sequence[int], styles: Sequence[tuple[str, dict[str, Any]]]) -> None:
    """The panel's legend: a colour per m, a line style per scheme (flitcast.plot.legend_key)."""
    from flitcast.plot import latency_legend, legend_key

    legend_key(ax, [(f"m = {m}", M_COLOURS[m]) for m in degrees], styles)
    latency_legend(ax, fontsize=7)


def _schemes(variants: Sequence[str]) -> list[tuple[str, dict[str, Any]]]:
    return [(v, SCHEME_STYLES[v]) for v in variants]


def _figure(out: Path, name: str, panels: list[tuple[Any, ...]], ylabel: str, log: bool = False) -> None:
    """One PNG per panel of the study's figure: ``name.png``, or ``name`` + a, b, c … with several.
    A panel is (title, draw) or (title, draw, its own y label)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from flitcast.experiments.study_marks import finish_panel

    for i, (title, draw, *own) in enumerate(panels):
        fig, ax = plt.subplots(figsize=(7.5, 4.2))
        if log:
            ax.set_yscale("log")
        draw(ax)
        stem = f"{name}{'abc'[i]}" if len(panels) > 1 else name
        ax.set_title(title, fontsize=9)
        ax.set_ylabel(own[0] if own else ylabel)
        finish_panel(ax, f"sivaram-{name}", stem, grid=True)
        fig.tight_layout()
        fig.savefig(out / f"{stem}.png", dpi=110)
        plt.close(fig)


def _fig14_plot(results: pd.DataFrame, out: Path) -> None:
    def panel(variants: list[str]) -> Any:
        def draw(ax: Any) -> None:
            _panel(ax, results, variants, DEGREES, "latency_mean")
            _key(ax, DEGREES, _schemes(variants))

        return draw

    _figure(
        out,
        "fig14",
        [
            ("Fig. 14(a): SW vs HW multicast, central buffers, 128 B", panel(["SW-CB", "HW-CB"])),
            ("Fig. 14(b): SW vs HW multicast, input FIFOs, 128 B", panel(["SW-IB", "HW-IB"])),
            ("Fig. 14(c): HW multicast, central buffers vs input FIFOs, 128 B", panel(["HW-CB", "HW-IB"])),
        ],
        "latency (a), cycles",
        log=True,
    )


def _fig15_plot(results: pd.DataFrame, out: Path) -> None:
    def panel(variants: list[str]) -> Any:
        def draw(ax: Any) -> None:
            _panel(ax, results, variants, DEGREES, "accepted_load", hide_saturated=False)
            _key(ax, DEGREES, _schemes(variants))

        return draw

    _figure(
        out, "fig15",
        [("Fig. 15(a): software multicast, 128 B", panel(["SW-CB", "SW-IB"])), ("Fig. 15(b): hardware multicast, 128 B", panel(["HW-CB", "HW-IB"]))],
        "received load B_o",
    )


def _fig16_plot(results: pd.DataFrame, out: Path) -> None:
    # (the study's one graph: HW-CB, HW-IB and SW; SW-IB is in results.csv)
    variants = ["HW-CB", "HW-IB", "SW-CB"]

    def draw(ax: Any) -> None:
        _panel(ax, results, variants, FIG16_DEGREES, "latency_mean", size=512)
        _key(ax, FIG16_DEGREES, _schemes(variants))

    _figure(out, "fig16", [("Fig. 16: 16 nodes, 512-byte messages", draw)], "latency (a), cycles", log=True)


def _fig17_plot(results: pd.DataFrame, out: Path) -> None:
    nodes_styles = {16: "-", 64: "--"}

    def panel(y: str, hide: bool) -> Any:
        def draw(ax: Any) -> None:
            for nodes, style in nodes_styles.items():
                _panel(ax, results, ["HW-CB"], FIG17_DEGREES, y, nodes, hide_saturated=hide, linestyle=style)
            _key(ax, FIG17_DEGREES, [(f"HW-CB, {n} nodes", {"linestyle": s, "marker": "o"}) for n, s in nodes_styles.items()])

        return draw

    _figure(
        out, "fig17",
        [("Fig. 17(a): HW-CB, 16 vs 64 nodes, 512 B", panel("latency_mean", True), "latency (a), cycles"),
         ("Fig. 17(b): HW-CB, 16 vs 64 nodes, 512 B", panel("accepted_load", False), "received load B_o")],
        "",
    )


def _fig18_plot(results: pd.DataFrame, out: Path) -> None:
    from flitcast.plot import draw_latency, latency_legend, legend_key

    columns = {"latency_mean": ("combined", "C0"), "latency_unicast_mean": ("unicast", "C1"), "latency_multicast_mean": ("multicast", "C2")}
    schemes = {"HW-CB": SCHEME_STYLES["HW-CB"], "SW-CB": SCHEME_STYLES["SW-CB"]}

    def draw(ax: Any) -> None:
        for v, style in schemes.items():
            curve = _curve(results, v, 4)
            past = saturated(curve)
            for column, (_, colour) in columns.items():
                draw_latency(ax, curve["workload.load"], curve[column], past, **style, color=colour, markersize=3.5, label="_nolegend_")
        ax.set_xlabel("applied load B_o (80% unicast, 20% 4-way multicast)")
        legend_key(ax, list(columns.values()), list(schemes.items()))
        latency_legend(ax, fontsize=7)

    _figure(out, "fig18", [("Fig. 18: bimodal traffic, 16 nodes, central buffers, 128 B", draw)], "latency (a), cycles", log=True)


def _fig19_plot(results: pd.DataFrame, out: Path) -> None:
    from flitcast.plot import draw_latency, latency_legend, legend_key

    colours = {v: f"C{i}" for i, v in enumerate(MULTICASTS)}
    definitions: dict[str, tuple[str, dict[str, Any]]] = {"latency_mean": ("(a) until the last destination", {"linestyle": "-", "marker": "o"}),
                   "latency_dest_mean": ("(b) mean over the destinations", {"linestyle": "--", "marker": "x"})}

    def panel(m: int) -> Any:
        def draw(ax: Any) -> None:
            for v in MULTICASTS:
                curve = _curve(results, v, m)
                past = saturated(curve)
                for column, (_, style) in definitions.items():
                    draw_latency(ax, curve["workload.load"], curve[column], past, **style, color=colours[v], markersize=3.5, label="_nolegend_")
            ax.set_xlabel("effective applied load m·B_i")
            legend_key(ax, list(colours.items()), list(definitions.values()))
            latency_legend(ax, fontsize=7)

        return draw

    _figure(
        out, "fig19",
        [("Fig. 19(a): latency (a) and (b), m = 6, 512 B", panel(6)), ("Fig. 19(b): latency (a) and (b), m = 15, 512 B", panel(15))],
        "latency, cycles",
        log=True,
    )


# --- claims --------------------------------------------------------------------------------------------------

#: the load axis of every figure (effective applied load m·B_i, received load B_o): 0–1 of the link rate
LOAD_AXIS = Axis("load", 0.0, 1.0, source="the load's range, 0–1 of the link rate")
#: §1: "an improvement of up to a factor of 2 (in terms of saturation load)"; §7.4: "over 90%"; §7.4: 0.9;
#: §7.7: "almost 60%" (python/flitcast/study_data/000.toml)
FACTOR_2 = value("000", "cb_over_ib_factor").number
OVER_90 = value("000", "cb_peak_over_90").low_high[0]
SPLIT_512 = value("000", "fig16_saturation_split").x_number
ALMOST_60 = value("000", "a_over_b_almost_60").number


def _latency_axis(r: Results, label: str, variants: Sequence[str], degrees: Sequence[int], size: int, nodes: Sequence[int] = (16,), columns: Sequence[str] = ("latency_mean",)) -> Axis:
    """The log latency axis of our panel of the figure: from the least to the largest latency it draws
    (the points below saturation; the studies' figures are lost, docs/experiments.md "Verdicts")."""
    values = [m.value for n in nodes for v in variants for k in degrees for c in columns for _, m in r.latency_curve(c, variant=v, m=k, message_bytes=size, nodes=n)]
    return panel_axis(label, values, log=True)


def _lat(r: Results, v: str, m: int, size: int, nodes: int = 16, column: str = "latency_mean", infinite: bool = False) -> list[tuple[float, Measured]]:
    return r.latency_curve(column, saturated_as_infinite=infinite, variant=v, m=m, message_bytes=size, nodes=nodes)


def _sat(r: Results, v: str, m: int, size: int, nodes: int = 16) -> Measured:
    return r.saturation_load(variant=v, m=m, message_bytes=size, nodes=nodes)


def _peak(r: Results, v: str, m: int, size: int, nodes: int = 16) -> Measured:
    return r.peak(variant=v, m=m, message_bytes=size, nodes=nodes)


def _bandwidth(r: Results, v: str, m: int, size: int, nodes: int = 16) -> Measured:
    """The saturation bandwidth (§7.3): B_o where the curve saturates (Results.saturation_bandwidth)."""
    return r.saturation_bandwidth(variant=v, m=m, message_bytes=size, nodes=nodes)


def _by_m(values: dict[int, Measured]) -> list[tuple[float, Measured]]:
    return [(float(m), x) for m, x in values.items()]


def _shown(values: dict[Any, Any]) -> str:
    return ", ".join(f"m={k}: {v}" for k, v in values.items())


def _common(*curves: Sequence[tuple[float, Measured]]) -> list[float]:
    """The loads every curve has."""
    sets = [{x for x, _ in c} for c in curves]
    return sorted(set.intersection(*sets)) if sets else []


def _at(curve: Sequence[tuple[float, Measured]], x: float) -> Measured:
    return dict(curve)[x]


def _pointwise(word: Any, a: Sequence[tuple[float, Measured]], b: Sequence[tuple[float, Measured]], *args: Any) -> list[Verdict]:
    """``word`` at every load both curves have."""
    return [word(_at(a, x), _at(b, x), *args) for x in _common(a, b)]


def _crossing(a: Sequence[tuple[float, Measured]], b: Sequence[tuple[float, Measured]], axis: Axis) -> Verdict:
    """Curve ``a`` starts visibly above ``b`` and ends visibly below it (a saturated point counting as an
    infinite latency): the two cross (§7.7's "crossovers")."""
    loads = _common(a, b)
    above = w.any_of([w.higher(_at(a, x), _at(b, x), axis) for x in loads], rule="visibly above somewhere")
    below = w.any_of([w.lower(_at(a, x), _at(b, x), axis) for x in loads], rule="visibly below somewhere")
    first_above = next((x for x in loads if w.higher(_at(a, x), _at(b, x), axis).status == w.HOLDS), None)
    later_below = w.any_of([w.lower(_at(a, x), _at(b, x), axis) for x in loads if first_above is not None and x > first_above], rule="visibly below after that")
    return w.every([above, below, later_below], rule="curves that cross")


# The tables of claims. Each row: our words, the section, the study's words, the verdict. Rows that read
# several panels or cases combine their checks with `every` (one statement, one claim).


def fig14_claims(r: Results) -> list[Claim]:
    """Fig. 14 (and §7.3, §7.8, §9): latency against effective load, 128 B, 16 nodes."""
    size = 128
    cb = _latency_axis(r, "latency (a), central buffers (cycles)", ["SW-CB", "HW-CB"], DEGREES, size)
    ib = _latency_axis(r, "latency (a), input FIFOs (cycles)", ["SW-IB", "HW-IB"], DEGREES, size)
    hw = _latency_axis(r, "latency (a), hardware multicast (cycles)", ["HW-CB", "HW-IB"], DEGREES, size)
    sat = {v: {m: _sat(r, v, m, size) for m in DEGREES} for v in MULTICASTS}
    family = {v: [(float(m), _lat(r, v, m, size)) for m in DEGREES] for v in MULTICASTS}
    return [
        Claim(
            "software multicast latency rises with m and its saturation load falls with m, on both switches",
            "§7.3",
            "As m increases, the software multicast latency increases and saturates quickly.",
            w.every(
                [
                    w.labelled(w.curves_increase(family["SW-CB"], cb), "SW-CB latency, m"),
                    w.labelled(w.curves_increase(family["SW-IB"], ib), "SW-IB latency, m"),
                    w.labelled(w.decreases(_by_m(sat["SW-CB"]), LOAD_AXIS), "SW-CB saturation load"),
                    w.labelled(w.decreases(_by_m(sat["SW-IB"]), LOAD_AXIS), "SW-IB saturation load"),
                ]
            ),
            note="'saturates quickly' as m increases: the saturation load falls with m (Fig. 15's 'the opposite is true' of software multicast)",
        ),
        Claim(
            "hardware multicast latency falls with m, on both switches",
            "§7.3",
            "For a similar increase in m, hardware multicast latency actually decreases … input FIFO replication latencies decrease with increasing m",
            w.every([w.labelled(w.curves_decrease(family["HW-CB"], cb), "HW-CB, m"), w.labelled(w.curves_decrease(family["HW-IB"], ib), "HW-IB, m")]),
        ),
        Claim(
            "hardware multicast saturates at a much higher load than software multicast, every m, both switches",
            "§7.3",
            "hardware multicast saturates at a much higher applied load than the corresponding software multicast",
            w.every([w.much_higher(sat[f"HW-{s}"][m], sat[f"SW-{s}"][m], ours=f"{s} m={m}: {sat[f'HW-{s}'][m]} vs {sat[f'SW-{s}'][m]}") for s in ("CB", "IB") for m in DEGREES]),
        ),
        Claim(
            "for small m (2, 4, 6) software multicast on central buffers saturates later than input-FIFO replication",
            "§7.3, §7.7, §9",
            "for small m, input FIFO replication actually performs worse than software multicasting with a central buffer (§7.7: 'for small m software multicasting with central buffers actually saturates later')",
            w.every([w.higher(sat["SW-CB"][m], sat["HW-IB"][m], LOAD_AXIS, f"m={m}: {sat['SW-CB'][m]} vs {sat['HW-IB'][m]}") for m in SMALL_M]),
            note="'small m': 2, 4 and 6 (§7.7 calls its m = 6 graph's case small); 'worse' is read as §7.7 explains it, by the saturation load (at light load input-FIFO replication is the faster: the crossovers)",
        ),
        Claim(
            "input-FIFO replication performs worse than central-buffer replication, especially at high loads, every m",
            "§7.8, Fig. 14 bottom",
            "The input-FIFO-based hardware replication scheme did not fare as well as the central-buffer-based schemes, especially at high loads",
            w.every([w.labelled(w.curve_higher(_lat(r, "HW-IB", m, size, infinite=True), _lat(r, "HW-CB", m, size, infinite=True), hw), f"m={m}") for m in DEGREES]),
            note="the latency curves as drawn, a saturated point counting as infinite latency (§7.1): HW-IB never visibly below HW-CB, visibly above somewhere",
        ),
        Claim(
            "for large m (9, 15) input-FIFO replication saturates later than software multicast on central buffers",
            "§7.8",
            "for large m this scheme [input-FIFO replication] outperformed the software multicasting with a central buffer",
            w.every([w.higher(sat["HW-IB"][m], sat["SW-CB"][m], LOAD_AXIS, f"m={m}: {sat['HW-IB'][m]} vs {sat['SW-CB'][m]}") for m in LARGE_M]),
            note="read by the saturation load, as its small-m counterpart (§7.7)",
        ),
        Claim(
            "software multicast on input FIFOs performs worse than each of the other three options, every m",
            "§7.8",
            "The software multicasting scheme using input-buffered switches performs worse than the other three options that were simulated.",
            w.every(
                [
                    w.labelled(w.curve_higher(_lat(r, "SW-IB", m, size, infinite=True), _lat(r, other, m, size, infinite=True), panel_axis("latency (a) (cycles)", [x.value for v in MULTICASTS for _, x in _lat(r, v, m, size)], log=True)), f"m={m} vs {other}")
                    for m in DEGREES
                    for other in ("HW-CB", "HW-IB", "SW-CB")
                ]
            ),
            note="the latency curves as drawn, a saturated point counting as infinite latency (§7.1)",
        ),
        Claim(
            "at low loads input-FIFO replication performs like central-buffer replication, every m",
            "§9",
            "the alternative implementation using an input FIFO buffer delivers multicast performance similar to the central-buffer-based implementation for single multicasts and multiple multicasts at low loads",
            w.every([_similar_at_light_loads(_lat(r, "HW-IB", m, size), _lat(r, "HW-CB", m, size), hw, f"m={m}") for m in DEGREES]),
            note="'low loads': where both latency curves are still within the visible resolution of their lightest-load values (docs/experiments.md, 'Verdicts')",
        ),
        Claim(
            "input-FIFO replication saturates at visibly lower loads than central-buffer replication, every m",
            "§9",
            "the degradation in performance is rapid and occurs at relatively light loads",
            w.every([w.lower(sat["HW-IB"][m], sat["HW-CB"][m], LOAD_AXIS, f"m={m}: {sat['HW-IB'][m]} vs {sat['HW-CB'][m]}") for m in DEGREES]),
            note="'relatively light loads': relative to the central-buffer implementation the sentence sets it against",
        ),
        Claim(
            "for unicast traffic central buffers saturate at a much higher load than input FIFOs",
            "§7.8",
            "central buffers perform much better than input FIFOs for unicast traffic",
            w.much_higher(r.saturation_load(variant="UC-CB", m=1), r.saturation_load(variant="UC-IB", m=1)),
            note="uniform unicasts of 128 B alone on each switch (no figure of the study draws them); 'much': a ratio of at least 1.2",
        ),
    ]


def _similar_at_light_loads(a: Sequence[tuple[float, Measured]], b: Sequence[tuple[float, Measured]], axis: Axis, ours: str) -> Verdict:
    """``a`` and ``b`` similar at the loads where both are still flat (light_loads)."""
    light = sorted(set(w.light_loads(a, axis)) & set(w.light_loads(b, axis)))
    return w.every([w.similar(_at(a, x), _at(b, x), axis, f"{ours} at {x:g}: {_at(a, x)} vs {_at(b, x)}") for x in light])


def fig15_claims(r: Results) -> list[Claim]:
    """Fig. 15 (and §7.3, §7.4): received load B_o against effective load, 128 B, 16 nodes."""
    size = 128
    bandwidth = {v: {m: _bandwidth(r, v, m, size) for m in DEGREES} for v in MULTICASTS}
    peak = {m: _peak(r, "HW-CB", m, size) for m in DEGREES}
    sat = {m: _sat(r, "HW-CB", m, size) for m in DEGREES}
    received = {m: dict(r.curve("accepted_load", "peak", variant="HW-CB", m=m, message_bytes=size, nodes=16)) for m in DEGREES}
    return [
        Claim(
            "input-FIFO replication: saturation bandwidth rises with m",
            "§7.3, Fig. 15",
            "The bottom graph confirms that for input FIFO replication, saturation bandwidth increases with m.",
            w.increases(_by_m(bandwidth["HW-IB"]), LOAD_AXIS, "B_o at saturation " + _shown(bandwidth["HW-IB"])),
        ),
        Claim(
            "software multicast: saturation bandwidth falls with m, on both switches",
            "§7.3, Fig. 15",
            "For the software multicasts shown in the top graph, the opposite is true.",
            w.every([w.decreases(_by_m(bandwidth[v]), LOAD_AXIS, f"{v} B_o at saturation {_shown(bandwidth[v])}") for v in ("SW-CB", "SW-IB")]),
        ),
        Claim(
            "hardware multicast: B_o flat past saturation",
            "§7.3, Fig. 15",
            "the characteristic flattened B_o lines for the bottom graph",
            _past_saturation(r, ("HW-CB", "HW-IB"), size, flat=True),
            note="flat: B_o at the saturated loads within the visible resolution of each other, every curve with two saturated loads or more (the others have no line past saturation to read)",
        ),
        Claim(
            "software multicast: B_o keeps rising past saturation",
            "§7.3, Fig. 15",
            "the software multicast B_o does not flatten out after B_o becomes less than mB_i … the centrally-buffered switches continue to increase delivered bandwidth for this message size",
            _past_saturation(r, ("SW-CB", "SW-IB"), size, flat=False),
            note="B_o rising over the saturated loads (end to end beyond the visible resolution, no visible step back), every curve with two saturated loads or more",
        ),
        Claim(
            "central-buffer replication: saturation bandwidth hard to tell apart across m",
            "§7.3, Fig. 15",
            "For the central buffer-based replication scheme, saturation bandwidth is near enough to 100% that it is hard to distinguish the curves",
            w.every([w.labelled(w.nearly_constant([(float(m), received[m][x]) for m in DEGREES if x in received[m]], LOAD_AXIS), f"at {x:g}") for x in LOADS]),
            note="the B_o curves of every m within the visible resolution of each other at every load",
        ),
        Claim(
            "central-buffer replication: the highest saturation bandwidth at a large m",
            "§7.3, Fig. 15",
            "although the highest bandwidth is achieved for large m",
            w.higher(max((peak[m] for m in LARGE_M), key=lambda x: x.value), max((peak[m] for m in DEGREES if m not in LARGE_M), key=lambda x: x.value), LOAD_AXIS, "highest B_o, large m / other m: " + " vs ".join(str(max((peak[m] for m in ms), key=lambda x: x.value)) for ms in (LARGE_M, [k for k in DEGREES if k not in LARGE_M]))),
            note="'large m': 9 and 15; the highest received load of the large m visibly above that of the others",
            inconsistent=("§7.3: saturation bandwidth 'near enough to 100% that it is hard to distinguish the curves'", "§7.3: 'although the highest bandwidth is achieved for large m' (a difference a reader cannot see on the curves cannot be seen to favour large m)"),
        ),
        Claim(
            "128-byte messages: central-buffer replication saturates above 0.9 of the maximum load, every m",
            "§7.4",
            "128-byte messages, which the large central buffers typically handle quite easily to over 90% of the maximum load",
            w.every([w.above(sat[m], OVER_90, LOAD_AXIS, f"m={m}: {sat[m]}") for m in DEGREES]),
            note="the load handled: the saturation load of hardware multicast on central buffers",
        ),
    ]


def _past_saturation(r: Results, variants: Sequence[str], size: int, flat: bool) -> Verdict:
    """B_o over the saturated loads of every curve of ``variants`` that has two or more: flat (nearly
    constant) or still rising."""
    word = w.nearly_constant if flat else w.increases
    checks = []
    for v in variants:
        for m in DEGREES:
            first = _sat(r, v, m, size).high
            curve = [(x, b) for x, b in r.curve("accepted_load", "peak", variant=v, m=m, message_bytes=size, nodes=16) if x >= first]
            if len(curve) >= 2:
                checks.append(w.labelled(word(curve, LOAD_AXIS), f"{v} m={m}"))
    return w.every(checks)


def fig16_claims(r: Results) -> list[Claim]:
    """Fig. 16 (and §1, §7.4, §7.8): 512 B against 128 B, 16 nodes."""
    sat = {(v, m, size): _sat(r, v, m, size) for v in MULTICASTS for m in DEGREES for size in (128, 512) if m in FIG16_DEGREES or size == 128}
    bandwidth = {(v, m, size): _bandwidth(r, v, m, size) for v, m, size in sat}
    cases = [(m, size) for m in DEGREES for size in (128, 512) if (m, size) != (15, 512)]
    ratio_axis = Axis("saturation load ratio", 0.0, 2 * FACTOR_2, source="twice the stated factor")

    def cb_over_ib(m: int, size: int) -> Measured:
        return w.ratio(sat[("HW-CB", m, size)], sat[("HW-IB", m, size)])

    largest = max((cb_over_ib(m, size) for m, size in cases), key=lambda x: x.value if not x.unknown else -1.0)
    return [
        Claim(
            "512 B: 2- and 4-way central-buffer replication saturates below 0.9, 6- and 9-way above",
            "§7.4, Fig. 16",
            "The 2-way and 4-way hardware central-buffer-based multicasts now saturate before 0.9 effective load, although the 6-way and 9-way multicasts still saturate at effective loads higher than 0.9.",
            w.every([w.below(sat[("HW-CB", m, 512)], SPLIT_512, LOAD_AXIS, f"m={m}: {sat[('HW-CB', m, 512)]}") for m in (2, 4)] + [w.above(sat[("HW-CB", m, 512)], SPLIT_512, LOAD_AXIS, f"m={m}: {sat[('HW-CB', m, 512)]}") for m in (6, 9)]),
        ),
        Claim(
            "input-FIFO replication saturates at lower loads with 512-byte than with 128-byte messages, every m",
            "§7.4",
            "A similar decrease in the effective load for saturation is also observed for the input-buffer-based multicasts.",
            w.every([w.lower(sat[("HW-IB", m, 512)], sat[("HW-IB", m, 128)], LOAD_AXIS, f"m={m}: {sat[('HW-IB', m, 512)]} vs {sat[('HW-IB', m, 128)]}") for m in FIG16_DEGREES]),
            note="the decrease of the sentence before it: 128 B to 512 B",
        ),
        Claim(
            "software multicast saturates at lower loads with 512-byte than with 128-byte messages, every m, both switches",
            "§7.4",
            "The software multicasts also saturate more quickly than for the 128-byte case.",
            w.every([w.lower(sat[(v, m, 512)], sat[(v, m, 128)], LOAD_AXIS, f"{v} m={m}: {sat[(v, m, 512)]} vs {sat[(v, m, 128)]}") for v in ("SW-CB", "SW-IB") for m in FIG16_DEGREES]),
        ),
        Claim(
            "512 B: software multicast's saturation bandwidth falls with m, both switches",
            "§7.4",
            "Just as for the 128-byte messages, saturation bandwidth decreases as m increases",
            w.every([w.decreases([(float(m), bandwidth[(v, m, 512)]) for m in FIG16_DEGREES], LOAD_AXIS, f"{v} B_o at saturation " + ", ".join(f"m={m} {bandwidth[(v, m, 512)]}" for m in FIG16_DEGREES)) for v in ("SW-CB", "SW-IB")]),
        ),
        Claim(
            "hardware multicast: much lower latency and higher saturation bandwidth than software multicast, every m, both switches and sizes",
            "§7.3, §7.8",
            "Hardware multicast therefore performs significantly better than software multicast under both buffering schemes (§7.3); Latency was much lower and saturation bandwidth was higher for the entire range of multicast degree m, system size n, and message size (§7.8)",
            w.every(
                [
                    w.every(_pointwise(w.much_lower, _lat(r, f"HW-{s}", m, size), _lat(r, f"SW-{s}", m, size)), f"{s} {size} B m={m} latency")
                    for s in ("CB", "IB")
                    for m, size in cases
                ]
                + [w.higher(bandwidth[(f"HW-{s}", m, size)], bandwidth[(f"SW-{s}", m, size)], LOAD_AXIS, f"{s} {size} B m={m} B_o at saturation {bandwidth[(f'HW-{s}', m, size)]} vs {bandwidth[(f'SW-{s}', m, size)]}") for s in ("CB", "IB") for m, size in cases]
            ),
            note="latency: 'much' lower, a ratio of at least 1.2, at every load both run below saturation; the system size n: the study shows no software multicast on 64 nodes (§7.5), nor do we",
        ),
        Claim(
            "central buffers raise hardware multicast's saturation load by up to a factor of 2 over input FIFOs",
            "§1, abstract",
            "with equal amounts of buffer space in a switch, the central-buffer-based implementation shows an improvement of up to a factor of 2 (in terms of saturation load) compared to the input-buffer-based implementation",
            w.near(largest, FACTOR_2, ratio_axis, f"largest HW-CB / HW-IB saturation load ×{largest.value:.2f} [{largest.low:.2f}, {largest.high:.2f}]", rounding=0.5),
            note="the largest ratio over every m and both message sizes; a factor stated to one significant figure (1.5–2.5)",
        ),
    ]


def fig17_claims(r: Results) -> list[Claim]:
    """Fig. 17 (§7.5): HW-CB on 16 and 64 nodes, 512 B."""
    size = 512
    axis = _latency_axis(r, "latency (a), HW-CB (cycles)", ["HW-CB"], FIG17_DEGREES, size, nodes=(16, 64))
    bandwidth = {(n, m): _bandwidth(r, "HW-CB", m, size, n) for n in (16, 64) for m in FIG17_DEGREES}
    sat = {(n, m): _sat(r, "HW-CB", m, size, n) for n in (16, 64) for m in FIG17_DEGREES}
    return [
        Claim(
            "64 nodes: higher latency than 16 for the same m",
            "§7.5, Fig. 17",
            "The 64-node system exhibits higher latency … than the 16-node system for comparable multicasts.",
            w.every([w.labelled(w.curve_higher(_lat(r, "HW-CB", m, size, 64), _lat(r, "HW-CB", m, size, 16), axis), f"m={m}") for m in FIG17_DEGREES]),
            note="comparable multicasts: the same m",
        ),
        Claim(
            "64 nodes: slightly lower saturation bandwidth than 16 for the same m",
            "§7.5, Fig. 17",
            "… and slightly lower saturation bandwidth than the 16-node system for comparable multicasts",
            w.every([w.slightly_higher(bandwidth[(16, m)], bandwidth[(64, m)], LOAD_AXIS, ours=f"m={m}: 16 nodes {bandwidth[(16, m)]}, 64 nodes {bandwidth[(64, m)]}") for m in FIG17_DEGREES]),
            note="'slightly': visibly lower, by a ratio under 1.2",
        ),
        Claim(
            "the lowest m has the lowest latency, on both system sizes",
            "§7.5, Fig. 17",
            "Just as for the 16-node system, the low m multicast has low latency",
            w.every([w.labelled(w.curve_lower(_lat(r, "HW-CB", 2, size, n), _lat(r, "HW-CB", m, size, n), axis), f"{n} nodes, m=2 vs m={m}") for n in (16, 64) for m in FIG17_DEGREES[1:]]),
            inconsistent=("§7.5: 'the low m multicast has low latency'", "§7.3: 'For a similar increase in m, hardware multicast latency actually decreases'"),
        ),
        Claim(
            "the lowest m saturates earliest, on both system sizes",
            "§7.5, Fig. 17",
            "… but saturates earliest",
            w.every([w.labelled(w.lowest("m=2", {f"m={m}": sat[(n, m)] for m in FIG17_DEGREES}, LOAD_AXIS), f"{n} nodes") for n in (16, 64)]),
        ),
    ]


def fig18_claims(r: Results) -> list[Claim]:
    """Fig. 18 (§7.6): bimodal traffic, 80% unicasts and 20% 4-way multicasts, central buffers, 128 B."""
    size = 128
    axis = _latency_axis(r, "latency (cycles)", ["HW-CB", "SW-CB"], [4], size, columns=("latency_mean", "latency_unicast_mean"))
    uni = {v: _lat(r, v, 4, size, column="latency_unicast_mean") for v in ("HW-CB", "SW-CB")}
    alone = dict(_lat(r, "UC-CB", 1, size))
    perturbation = {}
    for v, curve in uni.items():
        perturbation[v] = [(x, w.difference(m, alone[round(UNICAST_SHARE * x, 4)])) for x, m in curve if round(UNICAST_SHARE * x, 4) in alone]
    # (the perturbation is read where software multicast's is visible: where the unicasts' latency is not
    # visibly above their latency alone, there is no perturbation to compare)
    visible = [x for x, d in perturbation["SW-CB"] if axis.at(alone[round(UNICAST_SHARE * x, 4)].value + d.value) - axis.at(alone[round(UNICAST_SHARE * x, 4)].value) > axis.visible]
    hw, sw = dict(perturbation["HW-CB"]), dict(perturbation["SW-CB"])
    return [
        Claim(
            "hardware multicasts perturb the unicasts much less than software multicasts",
            "§7.6, Fig. 18",
            "Hardware multicasts perturb unicast traffic much less than do software multicasts",
            w.every([w.much_lower(hw[x], sw[x], ours=f"at {x:g}: +{hw[x].value:.0f} vs +{sw[x].value:.0f} cycles") for x in visible if x in hw]),
            note=f"the perturbation: the unicasts' latency in the mix minus their latency alone at the same unicast load ({UNICAST_SHARE:g} of the applied load), at the loads where software multicast's is visible; 'much': a ratio of at least 1.2",
        ),
        Claim(
            "a lower combined latency with hardware multicast",
            "§7.6, Fig. 18",
            "resulting in a lower combined latency",
            w.curve_lower(_lat(r, "HW-CB", 4, size), _lat(r, "SW-CB", 4, size), axis),
        ),
    ]


def fig19_claims(r: Results) -> list[Claim]:
    """Fig. 19 (§7.7, §7.8): latency definitions (a) and (b), m = 6 and 15, 512 B."""
    size = 512
    axis = {m: _latency_axis(r, f"latency, m = {m} (cycles)", MULTICASTS, [m], size, columns=("latency_mean", "latency_dest_mean")) for m in (6, 15)}

    def a_b(v: str, m: int) -> tuple[list[tuple[float, Measured]], list[tuple[float, Measured]]]:
        return _lat(r, v, m, size), _lat(r, v, m, size, column="latency_dest_mean")

    def ratios(v: str, m: int) -> list[tuple[float, Measured]]:
        a, b = a_b(v, m)
        return [(x, w.ratio(_at(a, x), _at(b, x))) for x in _common(a, b)]

    cb6_a, cb6_b = a_b("HW-CB", 6)
    light = w.light_loads(cb6_a, axis[6])
    higher = [x for x in _common(cb6_a, cb6_b) if x not in light]
    top = max(higher, key=lambda x: _at(cb6_a, x).value / _at(cb6_b, x).value, default=None)
    ratio_axis = {m: Axis("(a)/(b)", 1.0, math.exp(axis[m].at(axis[m].high) - axis[m].at(axis[m].low)), log=True, source=f"the ratio on our m = {m} panel's log latency axis") for m in (6, 15)}
    return [
        Claim(
            "m = 6, central buffers: (a) and (b) nearly equal at low loads",
            "§7.7, Fig. 19",
            "For the m = 6 case, (a) and (b) are nearly equal for the hardware central buffer multicast at low loads",
            w.every([w.similar(_at(cb6_a, x), _at(cb6_b, x), axis[6], f"{x:g}: {_at(cb6_a, x)} vs {_at(cb6_b, x)}") for x in light if x in dict(cb6_b)]),
            note="'low loads': where latency (a) is still within the visible resolution of its lightest-load value",
        ),
        Claim(
            "m = 6, central buffers: at higher loads (a) exceeds (b) by almost 60%",
            "§7.7, Fig. 19",
            "but for higher loads (a) exceeds (b) by almost 60%",
            w.similar(_at(cb6_a, top), w.scaled(_at(cb6_b, top), ALMOST_60), axis[6], f"(a)/(b) ×{_at(cb6_a, top).value / _at(cb6_b, top).value:.2f} at {top:g}") if top is not None else Verdict(w.NOT_JUDGED, None, None, "no higher load below saturation", "no load to read"),
            note="the largest (a)/(b) over the loads above the low ones, below saturation, against 1.6 on the figure's axis",
        ),
        Claim(
            "m = 6: the (a)–(b) gap grows faster with input-FIFO replication",
            "§7.7, Fig. 19",
            "For hardware input FIFO replication, the difference between (a) and (b) grows more rapidly",
            w.curve_higher(ratios("HW-IB", 6), ratios("HW-CB", 6), ratio_axis[6]),
            note="the gap as (a)/(b): the measure §7.7 itself gives it ('(a) exceeds (b) by almost 60%'), read on the figure's latency axis",
        ),
        Claim(
            "m = 6: input-FIFO replication's latency grows faster than the central buffer's",
            "§7.7, Fig. 19",
            "as does the magnitude of the latencies",
            w.curve_higher(_lat(r, "HW-IB", 6, size), cb6_a, axis[6]),
        ),
        Claim(
            "software multicast: always a significant (a)–(b) gap, both switches, m = 6 and 15",
            "§7.7, Fig. 19",
            "For software multicasts with either of the buffering approaches, there is always a significant difference.",
            w.every([w.much_higher(_at(a, x), _at(b, x), ours=f"{v} m={m} at {x:g}: (a)/(b) ×{_at(a, x).value / _at(b, x).value:.2f}") for v in ("SW-CB", "SW-IB") for m in (6, 15) for a, b in [a_b(v, m)] for x in _common(a, b)]),
            note="'significant': a ratio of at least 1.2, at every load below saturation",
        ),
        Claim(
            "m = 6: software multicast on central buffers saturates later than input-FIFO replication, and their latency curves cross",
            "§7.7, Fig. 19",
            "for small m software multicasting with central buffers actually saturates later than hardware multicasting with input FIFO replication, hence the crossovers in the graph",
            w.every([w.higher(_sat(r, "SW-CB", 6, size), _sat(r, "HW-IB", 6, size), LOAD_AXIS), _crossing(_lat(r, "SW-CB", 6, size, infinite=True), _lat(r, "HW-IB", 6, size, infinite=True), axis[6])], f"saturation load SW-CB {_sat(r, 'SW-CB', 6, size)}, HW-IB {_sat(r, 'HW-IB', 6, size)}"),
            note="the curves cross: SW-CB visibly above HW-IB at a lighter load and visibly below it (or HW-IB saturated) at a heavier one",
        ),
        Claim(
            "m = 15, hardware multicast: (a) and (b) match closely over most of the load range, both switches",
            "§7.7, Fig. 19",
            "For the m = 15 hardware multicast cases, the (a) and (b) definitions match closely throughout a large load range.",
            w.every([_matching_range(*a_b(v, 15), axis[15], v) for v in ("HW-CB", "HW-IB")]),
            note="'a large load range': (a) and (b) similar from the lightest load up through more than half the loads below saturation",
        ),
        Claim(
            "hardware multicast's latency varies less over a multicast's destinations than software multicast's",
            "§7.8",
            "Hardware multicast latency varies less over the range of destinations of a particular multicast, especially for light loads or large m.",
            w.every([w.labelled(w.curve_lower(ratios(f"HW-{s}", m), ratios(f"SW-{s}", m), ratio_axis[m]), f"{s} m={m}") for s in ("CB", "IB") for m in (6, 15)]),
            note="the spread over the destinations as (a)/(b), hardware against software on the same switch",
        ),
    ]


def _matching_range(a: Sequence[tuple[float, Measured]], b: Sequence[tuple[float, Measured]], axis: Axis, v: str) -> Verdict:
    """(a) and (b) similar at every load from the lightest up through more than half the loads below
    saturation. (Per-claim code: "a large load range" needs the range counted from the lightest load.)"""
    loads = _common(a, b)
    count = len(loads) // 2 + 1
    return w.every([w.similar(_at(a, x), _at(b, x), axis, f"{v} at {x:g}: (a)/(b) ×{_at(a, x).value / _at(b, x).value:.2f}") for x in loads[:count]])


QUICK_NOTE = f"the coarse loads with windows of {QUICK_RUN['warmup_cycles']:,} + {QUICK_RUN['measure_cycles']:,} cycles; judges a claim where its margin lies beyond the quick runs' measured resolution (docs/experiments.md, Quick mode)"
#: how far a quick run's values strayed from the full run's: twice the largest deviation quick_deviations
#: measured over every curve of Figs 14–19, pooled by kind (docs/experiments.md, "Quick mode (study 000)"):
#: saturation loads 0.1 (a whole load step: short windows flag some curves a step early, others a step
#: late), B_o at saturation 0.076 (a quick curve's first saturated load is another load), latency (a)
#: below the saturation zone 3.3%
QUICK_RESOLUTION: dict[str, Spread] = {
    "saturation load": Spread(absolute=0.2),
    "peak": Spread(absolute=0.153),
    "latency": Spread(relative=0.066),
}


def quick_deviations(quick: pd.DataFrame, full: pd.DataFrame, saturation_spread: float | None = None) -> dict[str, dict[tuple[Any, ...], float]]:
    """Per kind of quantity the claims read, each curve's (or point's) deviation between a quick and a full
    run of one experiment (quick_resolution.deviations): the saturation load's bracket and the received
    load at saturation (kind "peak") per curve, in load units; the latency (a) relative to the quick value
    at each load both ran, below the curve's saturation zone in both (nearer saturation a quick latency
    reaches up to infinity anyway, Results.latency_curve) — the zone of ``saturation_spread``, or of twice
    the largest saturation-load deviation of these tables. Twice the largest of a kind is its spread
    (docs/experiments.md, "Quick mode (study 000)")."""
    from flitcast.experiments.quick_resolution import deviations, relative_deviations

    labels = ["nodes", "variant", "m", "message_bytes"]
    curves = {
        name: {tuple(key): Results(rows) for key, rows in table.groupby(labels)} for name, table in (("quick", quick), ("full", full))
    }
    out: dict[str, dict[tuple[Any, ...], float]] = {}
    for kind, read in (("saturation load", Results.saturation_load), ("peak", Results.saturation_bandwidth)):
        out[kind] = deviations(*({key: read(r) for key, r in curves[name].items()} for name in ("quick", "full")))
    spread = Spread(absolute=2 * max(out["saturation load"].values(), default=0.0) if saturation_spread is None else saturation_spread)
    latencies: dict[str, dict[tuple[Any, ...], Measured]] = {"quick": {}, "full": {}}
    for key, q in curves["quick"].items():
        f = curves["full"].get(key)
        if f is None:
            continue
        below = set(Results(q.table, {"saturation load": spread, "latency": Spread()}).unsaturated_loads()) & set(f.unsaturated_loads())
        for load in below:
            latencies["quick"][(*key, load)] = q.latency(workload__load=load)
            latencies["full"][(*key, load)] = f.latency(workload__load=load)
    out["latency"] = relative_deviations(latencies["quick"], latencies["full"])
    return out


def _header_extra_flits(point: Point) -> dict[str, Any]:
    if VARIANTS[point.labels["variant"]][0] != "hardware" or point.labels["m"] == 1:
        return {}
    return {"workload.header_flits": math.ceil(point.labels["nodes"] / 16)}


#: what the study leaves open, read otherwise (docs/models/multicast.md, "Our reading of the header's length";
#: docs/experiments.md, "Readings")
READINGS = (
    Reading(
        "header-extra-flits",
        "§3.2 encodes a worm's destinations as an N-bit string and §7.2 makes the 128-byte message 64 flits: "
        "the default reads the string as within those 64 flits; this reading adds it as ceil(N / 16) more "
        "flits of 2 bytes (1 on 16 nodes, 4 on 64; workload.header_flits)",
        _header_extra_flits,
    ),
    Reading(
        "unshared-buffer",
        "our central buffer keeps a replicating worm's share of chunks free of up-bound packets (needed against "
        "deadlock on the tree, docs/models/central_buffer.md; the study states only §4.2.2's admission rule): "
        "HW-CB with that rule alone (switch.multicast_admission = reserve_unshared), to show what the share costs "
        "where the network still runs; points that deadlock are reported as errors",
        lambda point: {"switch.multicast_admission": "reserve_unshared"} if point.labels["variant"] == "HW-CB" else {},
    ),
    Reading(
        "reads-when-empty",
        "§4.1 sizes the central buffer's one read port to 'match the input and output bandwidth of the switch' and "
        "§4.2 has 'all k_s output ports … reading the packet at full bandwidth', but neither says when an output "
        "reads its next chunk: the default reads it while the output serialises the current one, into a second "
        "register (switch.buffer_reads = read_ahead); this reading reads only into an empty register "
        "(when_empty), so of two outputs that empty theirs in the same cycle one sends nothing that cycle "
        "(docs/models/central_buffer.md)",
        lambda point: {"switch.buffer_reads": "when_empty"} if VARIANTS[point.labels["variant"]][1] == "central_buffer" else {},
    ),
)


def _experiment(fid: str, fig: str, title: str, points: Any, claims: Any, plot: Any) -> Experiment:
    return Experiment(id=fid, study=STUDY, figure=fig, title=title, points=points, claims=claims, plot=plot, quick_note=QUICK_NOTE, readings=READINGS, quick_resolution=QUICK_RESOLUTION)


EXPERIMENTS = [
    _experiment(
        "sivaram-fig14",
        "Fig. 14",
        "latency vs effective load, SW vs HW multicast, central vs input buffers, m varied, 16 nodes, 128 B (and unicasts alone on both switches, §7.8)",
        lambda q: _points(MULTICASTS, DEGREES, 128, q, fine=True) + _unicasts(["UC-CB", "UC-IB"], q),
        fig14_claims,
        _fig14_plot,
    ),
    _experiment("sivaram-fig15", "Fig. 15", "received vs effective load, SW and HW multicast, 16 nodes, 128 B", lambda q: _points(MULTICASTS, DEGREES, 128, q), fig15_claims, _fig15_plot),
    _experiment(
        "sivaram-fig16",
        "Fig. 16",
        "latency vs effective load, 16 nodes, 512 B, m = 2, 4, 6, 9 (and the 128-byte curves §1, §7.4 and §7.8 compare it with)",
        lambda q: _points(MULTICASTS, FIG16_DEGREES, 512, q, fine=True) + _points(MULTICASTS, DEGREES, 128, q, fine=True),
        fig16_claims,
        _fig16_plot,
    ),
    _experiment("sivaram-fig17", "Fig. 17", "HW-CB on 16 vs 64 nodes, 512 B, m = 2, 6, 15", lambda q: _points(["HW-CB"], FIG17_DEGREES, 512, q, nodes=(16, 64)), fig17_claims, _fig17_plot),
    _experiment(
        "sivaram-fig18",
        "Fig. 18",
        "bimodal traffic (20% of received load from 4-way multicasts), 16 nodes, central buffers, 128 B (and its unicasts alone)",
        lambda q: _points(["HW-CB", "SW-CB"], [4], 128, q, fraction=0.2) + _unicasts(["UC-CB"], q, [round(UNICAST_SHARE * x, 4) for x in LOADS]),
        fig18_claims,
        _fig18_plot,
    ),
    _experiment("sivaram-fig19", "Fig. 19", "latency definitions (a) vs (b), m = 6 and 15, 16 nodes, 512 B", lambda q: _points(MULTICASTS, [6, 15], 512, q), fig19_claims, _fig19_plot),
]
