"""Study 002 — Banikazemi, Stunkel, Panda, Abali: adaptive routing in RS/6000 SP-like bidirectional
MINs. Figs 5–9 and the full evaluation grid of §5.1.

System (§5.1, with the switch timing of study 000 §7.1): the SP 16- and 128-node networks in SP node
numbering, central-buffer (buffered wormhole) switches with 64-flit input FIFOs and a 4 KB central
buffer, 2-byte flits, 1 KB maximum packets (longer messages are split), an open network with infinite
source queues and exponential inter-arrival times; load 1.0 = every node injecting at the link rate.
Routing: O1, O4, or adaptive source routing with one of six selection functions. The study ran 100,000
warm-up and 1,000,000 measured cycles per point.

Claims: one row per statement of §1, §5.2, §5.3, §7 and the abstract about the simulations, each one word
of the vocabulary (verdicts.py, docs/experiments.md "Verdicts") on the quantity the sentence names. Peak
throughput ("as a percentage of maximum possible", §5.2) is the highest accepted load of a curve, as the
bracket its loads leave it in (Results.peak with ``between_loads``: up to the lowest saturated load above
every sustained one, narrowed by the refinement of peak_loads.py; ±0.005 at a saturated point), on the
figures' axis, 0–1. Saturation is the core's flag (Fig. 5). A statement about Figs 6–9 is judged in its
figure's experiment; one about the simulations at large ("across the board", "consistently", "for long
messages") in ``banikazemi-grid``, over every case (system, pattern, message size) it names. Quick mode
(docs/experiments.md, "Quick mode"): the 16-node figures' full runs take seconds, so their quick run is
the full run; the 128-node figures and the grid run shorter windows, and every peak of theirs is widened
by the spread measured between their quick and full runs (``QUICK_SPREADS``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import combinations
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flitcast.experiments import verdicts as w
from flitcast.experiments.claim import DATA, Claim, Results, Spread
from flitcast.experiments.experiment import Experiment, Point, Reading, peak_throughput
from flitcast.experiments.verdicts import Axis, Measured, Verdict
from flitcast.saturation import saturated
from flitcast.studies import value

if TYPE_CHECKING:
    import pandas as pd

    from flitcast.config import Scenario

STUDY = "002 Banikazemi, Stunkel, Panda, Abali (adaptive routing in SP-like BMINs)"

#: routing variants: label -> routing keys
VARIANTS: dict[str, dict[str, str]] = {
    "O1": {"algorithm": "o1"},
    "O4": {"algorithm": "o4"},
    "LRU": {"algorithm": "adaptive", "selection": "lru"},
    "MRU": {"algorithm": "adaptive", "selection": "mru"},
    "RND": {"algorithm": "adaptive", "selection": "rnd"},
    "RR": {"algorithm": "adaptive", "selection": "rr"},
    "LRUC": {"algorithm": "adaptive", "selection": "lruc"},
    "LRUD": {"algorithm": "adaptive", "selection": "lrud"},
}
ADAPTIVE = ["LRU", "MRU", "RND", "RR", "LRUC", "LRUD"]
#: the bars of Figs 6–9
BARS = ["O4", *ADAPTIVE]
#: the grid's routings, in its legend's order
BARS_AND_O1 = ["O1", *BARS]
#: the three functions the study finds best (abstract, §5.3, §7) and the other three
GOOD, POOR = ["LRU", "LRUD", "RR"], ["MRU", "RND", "LRUC"]

#: selection functions that keep a history (the others ignore routing.selection_history)
HISTORY = ["LRU", "MRU", "RR", "LRUC", "LRUD"]


def _adaptive_hops(point: Point) -> dict[str, str]:
    return {"routing.selection_history": "adaptive_hops"} if point.labels["variant"] in HISTORY else {}


def _d_mod_k(point: Point) -> dict[str, str]:
    return {"routing.oblivious_table": "d_mod_k"} if point.labels["variant"] in ("O1", "O4") else {}


#: what the study leaves open and changes a verdict, read otherwise (docs/experiments.md, "Readings")
READINGS = (
    Reading(
        "history-adaptive-hops",
        "§4.3 applies a selection function only 'if more than one output port is a candidate': a "
        "history-keeping one (LRU, MRU, RR, LRUC, LRUD) then learns only from adaptive hops "
        "(routing.selection_history = adaptive_hops); the default updates it at every hop",
        _adaptive_hops,
    ),
    Reading(
        "oblivious-d-mod-k",
        "the study gives no O1/O4 route table (§3): destination-digit tables (routing.oblivious_table = "
        "d_mod_k) instead of the default statically balanced ones",
        _d_mod_k,
    ),
    Reading(
        "reads-when-empty",
        "the SP switch's central buffer (§2; study 000 §4.1: one read port sized to 'match the input and output "
        "bandwidth of the switch') does not say when an output reads its next chunk: the default reads it while "
        "the output serialises the current one, into a second register (switch.buffer_reads = read_ahead); this "
        "reading reads only into an empty register (when_empty), so of two outputs that empty theirs in the same "
        "cycle one sends nothing that cycle (docs/models/central_buffer.md)",
        {"switch.buffer_reads": "when_empty"},
    ),
)

FULL_RUN = {"warmup_cycles": 100_000, "measure_cycles": 1_000_000, "drain_max_cycles": 100_000}
FULL_LOADS = [round(0.1 * i, 1) for i in range(1, 11)]
#: Fig. 5 also runs the loads 0.91 … 0.99: O4 and adaptive both saturate between 0.9 and 1.0, and "O4
#: saturates earlier" is read on brackets narrower than the figure's visible resolution (0.02)
FIG5_FINE_LOADS = [round(0.9 + 0.01 * i, 2) for i in range(1, 10)]
#: the 16-node figures' full runs take seconds here (docs/experiments.md): their quick mode is the full
#: run and judges every claim as it does
FAST_NODES = 16
#: quick mode of the 128-node figures, per (nodes, message bytes) (docs/experiments.md, "Quick mode")
QUICK_RUNS = {
    (128, 128): {"warmup_cycles": 25_000, "measure_cycles": 8_000, "drain_max_cycles": 20_000},
    (128, 4096): {"warmup_cycles": 25_000, "measure_cycles": 8_000, "drain_max_cycles": 20_000},
}
#: quick mode keeps the full load grid: peak figures walk each curve down from 1.0 only as far as the
#: peak needs and refine it (peak_loads.py)
QUICK_LOADS = FULL_LOADS
#: the grid's quick run: its windows and the cases it runs (docs/experiments.md, "Quick mode"); a claim
#: over cases it does not run is judged only where a case it ran decides it (a deviation)
GRID_QUICK_RUN = {"warmup_cycles": 100_000, "measure_cycles": 100_000, "drain_max_cycles": 20_000}

#: kind of quantity (``_kind``) -> how far a quick run's value of it can be from the full run's: twice the
#: largest deviation ``quick_deviations`` measured between the quick and full runs, rounded up to the
#: thousandth (docs/experiments.md, "Quick mode (study 002)"), per experiment, over the 7 curves of each
#: panel. Fig. 8: largest deviations 0.0475 (RR, 128 B) and 0.0479 (O4, 4096 B); Fig. 9: 0.0242 (LRUC,
#: 128 B) and 0.1020 (LRUC, 4096 B). The grid (its quick run's 16-node cases, 128 B and 4 KB, over the 8
#: curves of each): largest 0.0378 (RND, uniform, 4096 B), the others 0.0043–0.0245
QUICK_SPREADS: dict[str, dict[str, Spread]] = {
    "banikazemi-fig8": {
        "peak, 128 nodes, uniform, 128 B": Spread(absolute=0.096),
        "peak, 128 nodes, uniform, 4096 B": Spread(absolute=0.096),
    },
    "banikazemi-fig9": {
        "peak, 128 nodes, bit-reversal, 128 B": Spread(absolute=0.049),
        "peak, 128 nodes, bit-reversal, 4096 B": Spread(absolute=0.205),
    },
    "banikazemi-grid": {
        "peak, 16 nodes, uniform, 128 B": Spread(absolute=0.009),
        "peak, 16 nodes, uniform, 4096 B": Spread(absolute=0.076),
        "peak, 16 nodes, bit-reversal, 128 B": Spread(absolute=0.013),
        "peak, 16 nodes, bit-reversal, 4096 B": Spread(absolute=0.049),
        "peak, 16 nodes, bit-complement, 128 B": Spread(absolute=0.012),
        "peak, 16 nodes, bit-complement, 4096 B": Spread(absolute=0.032),
        "peak, 16 nodes, transpose, 128 B": Spread(absolute=0.012),
        "peak, 16 nodes, transpose, 4096 B": Spread(absolute=0.032),
    },
}

#: the labels of one peak-throughput curve (Figs 6–9 and the grid show peaks only)
CURVE = ("nodes", "pattern", "message_bytes", "variant")


def sp_scenario(nodes: int, pattern: str, variant: str, message_bytes: int, load: float, run: dict[str, int]) -> Scenario:
    """One point of the study's evaluation."""
    from flitcast.config import Scenario  # (here: listing the experiments needs no pydantic)

    return Scenario.model_validate(
        {
            "network": {"topology": "sp16" if nodes == 16 else "sp128", "node_numbering": "sp"},
            "switch": {"model": "central_buffer"},
            "routing": dict(VARIANTS[variant]),
            "workload": {
                "pattern": pattern,
                "load": load,
                "message_bytes": message_bytes,
                "flit_bytes": 2,
                "max_packet_bytes": 1024,
                "arrival": "poisson",
            },
            "run": dict(run),
        }
    )


def _points(
    nodes: int, pattern: str, variants: list[str], sizes: list[int], quick: bool, loads: list[float] | None = None, run: dict[str, int] | None = None
) -> list[Point]:
    loads = loads or (QUICK_LOADS if quick else FULL_LOADS)
    return [
        Point(
            {"nodes": nodes, "pattern": pattern, "variant": v, "message_bytes": size},
            sp_scenario(nodes, pattern, v, size, load, run or (QUICK_RUNS[(nodes, size)] if quick else FULL_RUN)),
        )
        for size in sizes
        for v in variants
        for load in loads
    ]


# --- plots ---------------------------------------------------------------------------------------------


def _bar_panel(results: pd.DataFrame, size: int, title: str, path: Path, experiment: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from flitcast.experiments.study_marks import finish_panel
    from flitcast.plot import bar_values

    peaks = peak_throughput(results[results["message_bytes"] == size], ["variant"]).to_dict()
    names = [n for n in BARS if n in peaks]
    fig, ax = plt.subplots(figsize=(7, 4))
    bars = ax.bar(names, [peaks[n] for n in names], color=["#999999" if n == "O4" else "#3b6ea8" for n in names])
    ax.set_ylim(0, 1.05)
    bar_values(ax, bars)  # (at the bars' feet: the study's marks are at their tops)
    ax.set_ylabel("peak throughput (fraction of link rate)")
    ax.set_title(title, fontsize=10)
    finish_panel(ax, experiment, path.stem, bars=names)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def _bars(fig: str, nodes: int, pattern: str) -> Any:
    def plot(results: pd.DataFrame, out: Path) -> None:
        stem = fig.lower().replace(". ", "")
        for panel, size in (("a", 128), ("b", 4096)):
            traffic = "random traffic" if pattern == "uniform" else pattern.replace("_", "-")
            _bar_panel(results, size, f"{fig}({panel}): peak throughput, {nodes} nodes, {traffic}, {size}-byte messages", out / f"{stem}{panel}.png", f"banikazemi-{stem}")

    return plot


def _fig5_plot(results: pd.DataFrame, out: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from flitcast.experiments.study_marks import finish_panel
    from flitcast.plot import draw_latency, latency_legend

    fig, ax = plt.subplots(figsize=(6, 4))
    for variant, group in results.groupby("variant", sort=False):
        group = group.sort_values("workload.load")
        draw_latency(ax, group["workload.load"], group["latency_mean"], saturated(group), marker="o", label=variant)
    ax.set_yscale("log")
    ax.set_xlabel("applied load (fraction of link rate)")
    ax.set_ylabel("average message latency (cycles)")
    ax.set_title("Fig. 5: latency, 16 nodes, bit-reversal, 1 KB messages", fontsize=9)
    latency_legend(ax)
    finish_panel(ax, "banikazemi-fig5", "fig5", grid=True)
    fig.tight_layout()
    fig.savefig(out / "fig5.png", dpi=120)
    plt.close(fig)


# --- claims ----------------------------------------------------------------------------------------------

#: the axis of Figs 6–9: peak throughput "as a percentage of maximum possible" (§5.2), 0–1
PEAK_AXIS = Axis("peak throughput", 0.0, 1.0, source="the figures' axis: a fraction of the maximum possible, 0–1 (§5.2)")
#: Fig. 5's load axis: "a load of 1.0 indicates that each node is injecting packets in the network at the
#: maximum link data rate" (§5.1)
LOAD_AXIS = Axis("applied load", 0.0, 1.0, source="the load's range, 0–1 of the link rate (§5.1)")
#: a stated peak throughput is given to two decimals: half the last digit (study_data/002.toml)
TWO_DECIMALS = 0.005
#: §5.2: "more than 229% improvement in the peak throughput"; "using LRU instead of LRUC increases the
#: peak throughput by more than 30%" (as factors)
GAIN_OVER_O4 = 1 + value("002", "adaptive_over_O4").number
LRU_OVER_LRUC = 1 + value("002", "fig9b_LRU_over_LRUC").number

Peaks = dict[str, Measured]


def stated(name: str) -> float:
    """A number study 002 states (flitcast/study_data/002.toml), written once there."""
    return value("002", name).number


def _kind(nodes: int, pattern: str, size: int) -> str:
    """The quick-mode kind of a peak: quick windows move the peaks of each case differently (a saturated
    128-node network keeps losing throughput for 10^5–10^6 cycles; a window holds 32 times fewer 4 KB
    messages than 128-byte ones; docs/experiments.md, study 002 "Quick mode")."""
    return f"peak, {nodes} nodes, {pattern.replace('_', '-')}, {size} B"


def quick_deviations(quick: pd.DataFrame, full: pd.DataFrame) -> dict[str, dict[tuple[Any, ...], float]]:
    """Per kind of peak, each curve's deviation between a quick and a full run of one experiment: how far the
    full run's bracket reaches beyond the quick run's (quick_resolution.deviations). Twice the largest of a
    kind is its spread (docs/experiments.md, "Quick mode")."""
    from flitcast.experiments.quick_resolution import deviations

    def peaks(table: pd.DataFrame) -> dict[tuple[Any, ...], Measured]:
        return {tuple(key): Results(rows).peak(between_loads=True) for key, rows in table.groupby(list(CURVE))}

    out: dict[str, dict[tuple[Any, ...], float]] = {}
    for key, deviation in deviations(peaks(quick), peaks(full)).items():
        out.setdefault(_kind(int(key[0]), str(key[1]), int(key[2])), {})[key] = deviation
    return out


def _peaks(r: Results, nodes: int, pattern: str, size: int, names: Sequence[str] = BARS) -> Peaks:
    """The peak throughput of every routing ``names`` of one case, as the bracket its loads leave it in."""
    return {v: r.peak(kind=_kind(nodes, pattern, size), between_loads=True, nodes=nodes, pattern=pattern, message_bytes=size, variant=v) for v in names}


def _vs(p: Peaks, a: str, b: str) -> str:
    return f"{a} {p[a]} vs {b} {p[b]}"


def _each(word: Callable[..., Verdict], p: Peaks, tops: Sequence[str], bottoms: Sequence[str]) -> Verdict:
    """``word`` (higher, slightly_higher) of every one of ``tops`` over every one of ``bottoms``."""
    return w.every([word(p[t], p[b], PEAK_AXIS, ours=_vs(p, t, b)) for t in tops for b in bottoms if t != b])


def _best(p: Peaks, names: Iterable[str]) -> str:
    return max(names, key=lambda n: p[n].value)


def _poorly(p: Peaks, name: str) -> Verdict:
    """``name`` "performs poorly": much lower (×1.2, the vocabulary's "poorly") than the best of the other
    adaptive functions — the ones it is set against (Fig. 7(b): MRU's 0.75 "while the LRU, LRUC, and LRUD
    achieve … 0.99")."""
    best = _best(p, [n for n in ADAPTIVE if n != name])
    return w.much_lower(p[name], p[best], ours=_vs(p, name, best))


def _performs_well(p: Peaks, name: str) -> Verdict:
    """``name`` "performs well": the opposite of poorly, not much lower than the best of the others."""
    best = _best(p, [n for n in ADAPTIVE if n != name])
    return w.not_much_different(p[best], p[name], ours=_vs(p, name, best))


def _alike(p: Peaks, names: Sequence[str]) -> Verdict:
    """Every pair of ``names`` similar (the same, more or less the same, similar to each other)."""
    low, high = min(names, key=lambda n: p[n].value), max(names, key=lambda n: p[n].value)
    return w.every([w.similar(p[a], p[b], PEAK_AXIS, ours=_vs(p, a, b)) for a, b in combinations(names, 2)], ours=f"{low} {p[low]} … {high} {p[high]}")


def _range(p: Peaks, names: Sequence[str]) -> Measured:
    """The spread of ``names``' peaks, highest minus lowest."""
    low, high = min(names, key=lambda n: p[n].value), max(names, key=lambda n: p[n].value)
    return w.difference(p[high], p[low], shown=f"{p[high].value - p[low].value:.3f} ({low}–{high})")


def _near(p: Peaks, name: str, stated_value: float) -> Verdict:
    return w.near(p[name], stated_value, PEAK_AXIS, ours=f"{name} {p[name]}", rounding=TWO_DECIMALS)


def _panel_label(panel: str, size: int) -> str:
    return f"({panel}) {size} B"


def _outperform_o4(r: Results, nodes: int, pattern: str) -> Verdict:
    """Every adaptive function visibly above O4, both panels."""
    checks = []
    for panel, size in (("a", 128), ("b", 4096)):
        p = _peaks(r, nodes, pattern, size)
        checks.append(w.labelled(_each(w.higher, p, ADAPTIVE, ["O4"]), _panel_label(panel, size)))
    return w.every(checks)


#: Fig. 5 (§5.2): O1, O4 and adaptive routing (LRU, Switch2's function) on 16 nodes, bit-reversal, 1 KB
#: (the study states neither the size nor the selection function)
FIG5: dict[str, Any] = {"nodes": 16, "pattern": "bit_reversal", "message_bytes": 1024}


def fig5_claims(r: Results) -> list[Claim]:
    sat = {v: r.saturation_load(variant=v, **FIG5) for v in ("O1", "O4", "LRU")}
    drawn = [m.value for v in sat for _, m in r.latency_curve(variant=v, **FIG5)]
    axis = w.panel_axis("latency (cycles)", drawn, log=True)
    curve = {v: r.latency_curve(saturated_as_infinite=True, variant=v, **FIG5) for v in ("O4", "LRU")}
    reading = (
        "1 KB messages, adaptive = LRU (Switch2's function) and O1's and O4's route tables (ours balanced; destination-digit "
        "tables the reading oblivious-d-mod-k): the study states none of them"
    )
    return [
        Claim(
            "O1 saturates at a much lower load than O4 and adaptive routing",
            "§5.2, Fig. 5",
            "With one-route oblivious routing method (O1), the 16 node network saturates very quickly.",
            w.every([w.much_lower(sat["O1"], sat[v], ours=f"O1 {sat['O1']} vs {v} {sat[v]}") for v in ("O4", "LRU")]),
            note=f"'very quickly': at a much lower load (×1.2) than the other curves of the figure; saturation loads as the brackets of the core's flag; {reading}",
        ),
        Claim(
            "adaptive routing's latency curve lies below four-route oblivious routing's",
            "§5.2, Fig. 5",
            "Figure 5 shows the performance advantage of adaptive routing over four-route oblivious.",
            w.curve_lower(curve["LRU"], curve["O4"], axis),
            note=f"the latency curves as drawn (a saturated point infinite, §5.1: 'steady-state latency is infinite after saturation'), on our panel's log axis; {reading}",
            cause=DATA,
        ),
        Claim(
            "four-route oblivious routing saturates at a lower load than adaptive routing",
            "§5.2, Fig. 5",
            "With four-route oblivious the network saturates earlier than with the adaptive routing.",
            w.lower(sat["O4"], sat["LRU"], LOAD_AXIS, ours=f"O4 {sat['O4']}, LRU {sat['LRU']}"),
            note=f"the saturation loads' brackets (loads 0.01 apart from 0.9 up); {reading}",
            cause=DATA,
        ),
    ]


#: Fig. 6(b)'s two sentences on one panel: under the vocabulary "the same" (within the visible resolution)
#: and "outperforms negligibly" (visibly above, by less than ×1.2) exclude each other
FIG6B_SAME = "§5.2, Fig. 6(b): 'all adaptive routing algorithms perform the same regardless of the choice of output selection function'"
FIG6B_LRUD = "§5.2, Fig. 6(b): 'For long messages, LRUD outperforms the others negligibly'"


def fig6_claims(r: Results) -> list[Claim]:
    """Fig. 6 (§5.2): 16 nodes, random traffic."""
    a, b = _peaks(r, 16, "uniform", 128), _peaks(r, 16, "uniform", 4096)
    return [
        Claim(
            "(a) 128 B: O4 and every adaptive function perform alike",
            "§5.2, Fig. 6(a)",
            "All algorithms perform more or less the same for small message traffic.",
            _alike(a, BARS),
            note="'more or less the same': every pair within the visible resolution (similar)",
        ),
        Claim(
            "(b) 4096 B: every adaptive function performs the same",
            "§5.2, Fig. 6(b)",
            "which shows that all adaptive routing algorithms perform the same regardless of the choice of output selection function",
            _alike(b, ADAPTIVE),
            inconsistent=(FIG6B_SAME, FIG6B_LRUD),
        ),
        Claim(
            "(b) 4096 B: LRUD slightly above every other adaptive function",
            "§5.2, Fig. 6(b)",
            "For long messages, LRUD outperforms the others negligibly.",
            _each(w.slightly_higher, b, ["LRUD"], ADAPTIVE),
            note="'negligibly': slightly, visibly above by less than ×1.2",
            inconsistent=(FIG6B_LRUD, FIG6B_SAME),
        ),
        Claim(
            "(b) 4096 B: every adaptive function above O4",
            "§5.2, Fig. 6(b)",
            "However, all adaptive algorithms perform better than the oblivious algorithm.",
            _each(w.higher, b, ADAPTIVE, ["O4"]),
        ),
    ]


def fig7_claims(r: Results) -> list[Claim]:
    """Fig. 7 (§5.2): 16 nodes, bit-reversal; the study speaks of panel (b) only."""
    b = _peaks(r, 16, "bit_reversal", 4096)
    best = ["LRU", "LRUC", "LRUD"]
    return [
        Claim(
            "(b) 4096 B: MRU much below the best adaptive function",
            "§5.2, Fig. 7(b)",
            "The results for the bit-reversal permutation shown in Fig. 7(b) show that the MRU selection function performs poorly for long messages.",
            _poorly(b, "MRU"),
        ),
        Claim(
            "(b) 4096 B: MRU's peak throughput is 0.75",
            "§5.2, Fig. 7(b)",
            "The throughput for the MRU selection function is 0.75",
            _near(b, "MRU", stated("fig7b_MRU")),
        ),
        Claim(
            "(b) 4096 B: LRU, LRUC and LRUD reach 0.99",
            "§5.2, Fig. 7(b)",
            "while the LRU, LRUC, and LRUD achieve a throughput of 0.99",
            w.every([_near(b, n, stated(f"fig7b_{n}")) for n in best]),
        ),
        Claim(
            "(b) 4096 B: RND slightly below LRU, LRUC and LRUD",
            "§5.2, Fig. 7(b)",
            "The other selection function which performs slightly worse is the RND selection function.",
            _each(w.slightly_higher, b, best, ["RND"]),
            note="slightly worse than the three the sentence before names: visibly, by less than ×1.2",
        ),
        Claim(
            "(b) 4096 B: RND's peak throughput is 0.92",
            "§5.2, Fig. 7(b)",
            "The peak throughput for 4096-byte messages for the RND selection function is 0.92.",
            _near(b, "RND", stated("fig7b_RND")),
        ),
    ]


#: §5.2 says it of Figs 8 and 9 together: one statement, read in both figures (each checks its own panels)
OUTPERFORM_O4 = "Figs 8 and 9: every adaptive function above O4, both panels"
OUTPERFORM_O4_WORDS = "It can be observed that the adaptive routing algorithms outperform the oblivious routing."


def fig8_claims(r: Results) -> list[Claim]:
    """Fig. 8 (§5.2): 128 nodes, random traffic."""
    a, b = _peaks(r, 128, "uniform", 128), _peaks(r, 128, "uniform", 4096)
    return [
        Claim(OUTPERFORM_O4, "§5.2, Figs 8 and 9", OUTPERFORM_O4_WORDS, _outperform_o4(r, 128, "uniform"), note="this figure's panels; Fig. 9's table checks its own"),
        Claim(
            "(a) 128 B: every adaptive function performs the same",
            "§5.2, Fig. 8(a)",
            "The performance of all of the selection functions are the same for 128-byte messages under the random traffic (Fig. 8(a)).",
            _alike(a, ADAPTIVE),
            note=(
                "every pair within the visible resolution; the study does not say whether a selection function's history learns from the "
                "hops where one output is the only candidate: ours learns from every hop (§4.3 read literally), so a forced hop sets RR's "
                "register to a down port; under the reading history-adaptive-hops (adaptive hops only) RR's peak rises to LRU's and the "
                "claim holds"
            ),
            cause=DATA,
        ),
        Claim(
            "(b) 4096 B: MRU and LRUC slightly below every other adaptive function",
            "§5.2, Fig. 8(b)",
            "The MRU and LRUC perform slightly worse than the other adaptive selection functions for long messages (Fig. 8(b)).",
            _each(w.slightly_higher, b, ["LRU", "RND", "RR", "LRUD"], ["MRU", "LRUC"]),
            note="'slightly worse': visibly below each of the others, by less than ×1.2",
        ),
    ]


def fig9_claims(r: Results) -> list[Claim]:
    """Fig. 9 (§5.2): 128 nodes, bit-reversal."""
    a, b = _peaks(r, 128, "bit_reversal", 128), _peaks(r, 128, "bit_reversal", 4096)
    rest = ["RND", "RR", "LRUC"]

    def gain(p: Peaks, panel: str) -> Verdict:
        best = _best(p, ADAPTIVE)
        ratio = p[best].value / p["O4"].value
        return w.at_least_factor(p[best], p["O4"], GAIN_OVER_O4, ours=f"({panel}) {best} {p[best]} / O4 {p['O4']} = ×{ratio:.2f}")

    return [
        Claim(OUTPERFORM_O4, "§5.2, Figs 8 and 9", OUTPERFORM_O4_WORDS, _outperform_o4(r, 128, "bit_reversal"), note="this figure's panels; Fig. 8's table checks its own"),
        Claim(
            "adaptive routing's best peak more than 3.29 times O4's, in either panel",
            "§5.2, Fig. 9",
            "It can be observed that using the adaptive routing instead of the four-route oblivious routing results in more than 229% improvement in the peak throughput.",
            w.any_of([gain(a, "a"), gain(b, "b")]),
            note="'more than 229%': a ratio of at least 3.29, of the best adaptive function's peak to O4's, in the panel where it is largest (the study does not say which)",
            inconsistent=("§5.2 (Fig. 9): 'more than 229% improvement in the peak throughput'", "abstract: 'the adaptive routing increases the network throughput by up to 229% over oblivious routing in some cases', and §7: 'by up to 229%'"),
        ),
        Claim(
            "(a) 128 B: LRU and LRUD above every other adaptive function",
            "§5.2, Fig. 9(a)",
            "It can be seen that for short messages LRU and LRUD outperform the rest of the selection functions.",
            _each(w.higher, a, ["LRU", "LRUD"], ["MRU", *rest]),
        ),
        Claim(
            "(a) 128 B: RND, RR and LRUC slightly below LRU and LRUD",
            "§5.2, Fig. 9(a)",
            "The RND, RR, and LRUC selection functions perform marginally worse than LRU and LRUD.",
            _each(w.slightly_higher, a, ["LRU", "LRUD"], rest),
            note="'marginally worse': visibly below, by less than ×1.2",
        ),
        Claim(
            "(a) 128 B: MRU much below the best adaptive function",
            "§5.2, Fig. 9(a)",
            "The MRU selection function performs poorly.",
            _poorly(a, "MRU"),
        ),
        Claim(
            "(b) 4096 B: MRU and LRUC below every other adaptive function",
            "§5.2, Fig. 9(b)",
            "For longer messages (Fig. 9(b)), MRU and LRUC performs worse than the rest of the adaptive selection functions",
            _each(w.higher, b, ["LRU", "RND", "RR", "LRUD"], ["MRU", "LRUC"]),
        ),
        Claim("(b) 4096 B: MRU's peak throughput is 0.55", "§5.2, Fig. 9(b)", "achieving a throughput of 0.55 [MRU]", _near(b, "MRU", stated("fig9b_MRU"))),
        Claim("(b) 4096 B: LRUC's peak throughput is 0.54", "§5.2, Fig. 9(b)", "and 0.54 [LRUC], respectively", _near(b, "LRUC", stated("fig9b_LRUC"))),
        Claim(
            "(b) 4096 B: LRU's peak at least 1.3 times LRUC's",
            "§5.2, Fig. 9(b)",
            "It can be seen that using LRU instead of LRUC increases the peak throughput by more than 30%.",
            w.at_least_factor(b["LRU"], b["LRUC"], LRU_OVER_LRUC, ours=f"LRU {b['LRU']} / LRUC {b['LRUC']} = ×{b['LRU'].value / b['LRUC'].value:.2f}"),
        ),
    ]


def _quick_note(nodes: int) -> str:
    if nodes == FAST_NODES:
        return "the full run (seconds): judges every claim as the full run does"
    runs = ", ".join(f"{size} B: {r['warmup_cycles']:,} + {r['measure_cycles']:,}" for (n, size), r in QUICK_RUNS.items() if n == nodes)
    return f"warm-up + measured cycles ({runs}); every peak widened by its measured quick-mode spread"


def _figure(fid: str, fig: str, nodes: int, pattern: str, claims: Any, title: str) -> Experiment:
    fast = nodes == FAST_NODES
    return Experiment(
        id=fid,
        study=STUDY,
        figure=fig,
        title=title,
        points=lambda quick: _points(nodes, pattern, BARS, [128, 4096], quick),
        claims=claims,
        plot=_bars(fig, nodes, pattern),
        quick_note=_quick_note(nodes),
        quick_runs_full=fast,
        curve=CURVE,
        quick_resolution=QUICK_SPREADS.get(fid, {}),
        readings=READINGS,
    )


# --- the full grid ---------------------------------------------------------------------------------------

GRID_SIZES = [128, 256, 512, 1024, 2048, 4096]
GRID_PATTERNS = ["uniform", "bit_reversal", "bit_complement", "transpose"]
GRID_VARIANTS = ["O1", "O4", *ADAPTIVE]
GRID_NODES = (16, 128)
#: the three permutations of §5.1 (O1 "performs very well or very poorly depending on the permutation")
PERMUTATIONS = ["bit_reversal", "bit_complement", "transpose"]
#: "long messages": several packets (longer than the 1 KB packet, §5.1), the case §5.3's explanations of
#: LRUC's and RND's losses rest on ("two or more consecutive packets (i.e. multi-packet message)")
LONG = (2048, 4096)

Case = tuple[int, str, int]
#: every case of the evaluation (system, pattern, message size): 48
CASES: list[Case] = [(n, p, s) for n in GRID_NODES for p in GRID_PATTERNS for s in GRID_SIZES]
#: the cases the grid's quick run simulates (docs/experiments.md, "Quick mode")
GRID_QUICK_CASES: list[Case] = [(16, p, s) for p in GRID_PATTERNS for s in (128, 4096)]


def _grid_points(quick: bool) -> list[Point]:
    cases = GRID_QUICK_CASES if quick else CASES
    run = GRID_QUICK_RUN if quick else FULL_RUN
    return [p for nodes, pattern, size in cases for p in _points(nodes, pattern, GRID_VARIANTS, [size], quick, FULL_LOADS, run)]


def _label(case: Case) -> str:
    nodes, pattern, size = case
    return f"{nodes} nodes, {pattern.replace('_', '-')}, {size} B"


def _not_run(label: str) -> Verdict:
    return Verdict(w.NOT_JUDGED, None, None, f"{label}: not run", "a case the statement names was not run (a quick run runs some of them)")


Cases = dict[Case, "Peaks | None"]


def _grid_cases(r: Results) -> Cases:
    """Every routing's peak in every case, None for a case not run (each curve read once)."""
    out: Cases = {case: None for case in CASES}
    curves: Iterable[tuple[tuple[Any, ...], pd.DataFrame]] = r.table.groupby(list(CURVE))
    for (nodes, pattern, size, variant), rows in curves:
        case = (int(nodes), str(pattern), int(size))
        if case in out:
            curve = Results(rows, r.quick).peak(kind=_kind(*case), between_loads=True)
            out[case] = {**(out[case] or {}), str(variant): curve}
    return out


def _tally(parts: Sequence[Verdict], unit: str = "cases") -> str:
    held = sum(p.status == w.HOLDS for p in parts)
    failed = sum(p.status == w.DEVIATES for p in parts)
    open_ = len(parts) - held - failed
    return f"holds in {held} of {len(parts)} {unit}" + (f", deviates in {failed}" if failed else "") + (f", not judged in {open_}" if open_ else "")


def _over_cases(cases: Cases, check: Callable[[Peaks], Verdict], where: Callable[[Case], bool] = lambda case: True) -> list[Verdict]:
    """``check`` in every case ``where`` names, each labelled with its case (a case not run: not judged)."""
    return [_not_run(_label(case)) if p is None else w.labelled(check(p), _label(case)) for case, p in cases.items() if where(case)]


def _every_case(cases: Cases, check: Callable[[Peaks], Verdict], where: Callable[[Case], bool] = lambda case: True) -> Verdict:
    parts = _over_cases(cases, check, where)
    return w.every(parts, ours=_tally(parts))


def _in_most(parts: Sequence[Verdict]) -> Verdict:
    """Holds in more than half the cases: holds if the checks that hold are more than half however the
    unjudged ones go, deviates if they cannot be. (Per-claim code: "in most cases" is no word of the
    vocabulary; its margin counts cases.)"""
    held = sum(p.status == w.HOLDS for p in parts)
    open_ = sum(p.status == w.NOT_JUDGED for p in parts)
    need = len(parts) // 2 + 0.5  # more than half: at least len // 2 + 1
    return w.decide(held - need, held + open_ - need, held - need, _tally(parts), f"more than half of the {len(parts)} cases")


def _by_system_and_size(cases: Cases, check: Callable[[dict[str, Peaks]], Verdict], patterns: Sequence[str]) -> Verdict:
    """``check`` on the peaks of ``patterns`` together, per system and message size (a group with a pattern
    not run: not judged)."""
    parts = []
    for nodes in GRID_NODES:
        for size in GRID_SIZES:
            label = f"{nodes} nodes, {size} B"
            found = {pattern: cases[(nodes, pattern, size)] for pattern in patterns}
            if any(p is None for p in found.values()):
                parts.append(_not_run(label))
            else:
                parts.append(w.labelled(check(found), label))  # type: ignore[arg-type]
    return w.every(parts, ours=_tally(parts, "systems and sizes"))


def _uniform(case: Case) -> bool:
    return case[1] == "uniform"


def _reversal(case: Case) -> bool:
    return case[1] == "bit_reversal"


def _wider_range(found: dict[str, Peaks]) -> Verdict:
    reversal, uniform = _range(found["bit_reversal"], ADAPTIVE), _range(found["uniform"], ADAPTIVE)
    return w.higher(reversal, uniform, PEAK_AXIS, ours=f"bit-reversal {reversal} vs random {uniform}")


def _o1_dismal(found: dict[str, Peaks]) -> Verdict:
    """O1's worst case over the permutations much below O4's, and its range wider."""

    def over(v: str) -> Peaks:
        return {pattern: p[v] for pattern, p in found.items()}

    o1, o4 = over("O1"), over("O4")
    worst1, worst4 = min(o1, key=lambda k: o1[k].value), min(o4, key=lambda k: o4[k].value)
    range1, range4 = _range(o1, PERMUTATIONS), _range(o4, PERMUTATIONS)
    return w.every(
        [
            w.much_lower(o1[worst1], o4[worst4], ours=f"worst: O1 {o1[worst1]} ({worst1}) vs O4 {o4[worst4]} ({worst4})"),
            w.higher(range1, range4, PEAK_AXIS, ours=f"range: O1 {range1} vs O4 {range4}"),
        ]
    )


# Places the statements of the grid contradict in the study's own text (verified; docs/experiments.md).
SUMMARY_RANDOM_WELL = "§5.2 (summary): 'for the random traffic, all of the selection functions perform well'"
SUMMARY_MRU_POOR = "§5.2 (summary): 'The MRU selection function performs poorly across the board'"
FIG6B = "§5.2, Fig. 6(b) (16 nodes, random, 4096 B): 'all adaptive routing algorithms perform the same regardless of the choice of output selection function'"
FIG6A = "§5.2, Fig. 6(a) (16 nodes, random, 128 B): 'All algorithms perform more or less the same for small message traffic' (O4 among them)"
FIG7B_099 = "§5.2, Fig. 7(b) (16 nodes, bit-reversal, 4096 B): 'the LRU, LRUC, and LRUD achieve a throughput of 0.99'"
FIG7B_RND = "RND 'performs slightly worse … 0.92' (×1.08 below 0.99: slightly, not poorly)"
FIG8A = "§5.2, Fig. 8(a) (128 nodes, random, 128 B): 'The performance of all of the selection functions are the same'"
ABSTRACT_SIMILAR = "abstract: 'three of these selection functions [LRU, RR, LRUD] perform similar to each other'"
CONCLUSION_SLIGHTLY = "§7: 'the LRU and LRUD selection functions provide a slightly better performance [than RR]'"
LRUD_NEGLIGIBLE = "§5.3: 'LRUD outperforms LRU. However, the obtained improvement is negligible'"
RR_AS_GOOD = "§5.3: 'the performance of the RR scheme … in most cases is as good as them [LRU and LRUD]'"


def grid_claims(r: Results) -> list[Claim]:
    """The statements about the simulations at large (§1, §5.2's summary, §5.3, §7, the abstract), each over
    every case it names."""
    long_ = lambda case: case[2] in LONG  # noqa: E731
    cases = _grid_cases(r)
    return [
        Claim(
            "random traffic: every selection function performs well",
            "§5.2 (summary)",
            "To summarize the simulation results we can say that for the random traffic, all of the selection functions perform well",
            _every_case(cases, lambda p: w.every([_performs_well(p, n) for n in ADAPTIVE]), _uniform),
            note="'perform well': the opposite of 'poorly', none much lower (×1.2) than the best of the others; every random-traffic case",
            inconsistent=(SUMMARY_RANDOM_WELL, SUMMARY_MRU_POOR),
        ),
        Claim(
            "random traffic: LRU, LRUD and RR slightly above MRU, RND and LRUC",
            "§5.2 (summary)",
            "and LRU, LRUD, and RR outperform MRU, RND, and LRUC only marginally.",
            _every_case(cases, lambda p: _each(w.slightly_higher, p, GOOD, POOR), _uniform),
            note="'outperform … only marginally': each of the three visibly above each of the other three, by less than ×1.2; every random-traffic case",
            inconsistent=("§5.2 (summary): 'LRU, LRUD, and RR outperform MRU, RND, and LRUC only marginally' (random traffic)", f"{FIG6B}; {FIG8A}"),
        ),
        Claim(
            "the adaptive functions' range is wider under bit-reversal than under random traffic",
            "§5.2 (summary)",
            "The performance of the studied selection functions show a wider range for the bit-reversal traffic.",
            _by_system_and_size(cases, _wider_range, ["uniform", "bit_reversal"]),
            note="the range: the highest adaptive peak minus the lowest, per system and message size",
        ),
        Claim(
            "bit-reversal: LRU and LRUD above every other adaptive function",
            "§5.2 (summary)",
            "For this traffic pattern, LRU and LRUD outperform the other selection functions",
            _every_case(cases, lambda p: _each(w.higher, p, ["LRU", "LRUD"], ["MRU", "RND", "RR", "LRUC"]), _reversal),
            note="every bit-reversal case",
            inconsistent=("§5.2 (summary): 'For this traffic pattern [bit-reversal], LRU and LRUD outperform the other selection functions'", FIG7B_099),
        ),
        Claim(
            "bit-reversal: LRUD slightly above LRU",
            "§5.2 (summary)",
            "(LRUD performing slightly better than LRU)",
            _every_case(cases, lambda p: w.slightly_higher(p["LRUD"], p["LRU"], PEAK_AXIS, ours=_vs(p, "LRUD", "LRU")), _reversal),
            note="'slightly': visibly, by less than ×1.2; every bit-reversal case",
            inconsistent=("§5.2 (summary): '(LRUD performing slightly better than LRU)' under bit-reversal", f"{FIG7B_099}; {ABSTRACT_SIMILAR}"),
        ),
        Claim(
            "bit-reversal: RR performs well",
            "§5.2 (summary)",
            "The RR selection function shows a good performance under the bit-reversal traffic as well.",
            _every_case(cases, lambda p: _performs_well(p, "RR"), _reversal),
            note="'a good performance': not much lower (×1.2) than the best of the others; every bit-reversal case",
        ),
        Claim(
            "MRU much below the best adaptive function, in every case",
            "§5.2 (summary)",
            "The MRU selection function performs poorly across the board,",
            _every_case(cases, lambda p: _poorly(p, "MRU")),
            note="'poorly': much lower (×1.2) than the best of the others; 'across the board': every system, pattern and size",
            inconsistent=(SUMMARY_MRU_POOR, f"{SUMMARY_RANDOM_WELL}; {FIG6B}"),
        ),
        Claim(
            "bit-reversal, 2 and 4 KB: LRUC and RND much below the best adaptive function",
            "§5.2 (summary)",
            "while LRUC and RND functions perform poorly for long messages.",
            _every_case(cases, lambda p: w.every([_poorly(p, "LRUC"), _poorly(p, "RND")]), lambda case: _reversal(case) and long_(case)),
            note="the summary's bit-reversal (under random traffic it finds all functions performing well); 'long messages': several packets, 2 and 4 KB (§5.3 explains both losses by consecutive packets of one message)",
            inconsistent=("§5.2 (summary): 'LRUC and RND functions perform poorly for long messages'", f"{FIG7B_099}, and {FIG7B_RND}"),
        ),
        Claim(
            "2 and 4 KB: LRUC below LRU, every system and pattern",
            "§5.3, §1 (2)",
            "From the simulation results it can be observed that the LRUC selection function performs worse than LRU for long messages.",
            _every_case(cases, lambda p: w.higher(p["LRU"], p["LRUC"], PEAK_AXIS, ours=_vs(p, "LRU", "LRUC")), long_),
            note="§1 (2) says it without 'for long messages' ('We discover through simulations that LRUC performs worse than LRU'): §5.3's qualified form is read; 'long messages': 2 and 4 KB (several packets)",
            inconsistent=("§5.3: 'the LRUC selection function performs worse than LRU for long messages'", f"{FIG7B_099}; {FIG6B}"),
        ),
        Claim(
            "LRUD slightly above LRU, in every case",
            "§5.3, §1 (2)",
            "From the simulation results it can be observed that LRUD outperforms LRU. However, the obtained improvement is negligible. (§1 (2): 'We also show that the LRUD performs marginally better than LRU.')",
            _every_case(cases, lambda p: w.slightly_higher(p["LRUD"], p["LRU"], PEAK_AXIS, ours=_vs(p, "LRUD", "LRU"))),
            note="'outperforms … negligible', 'marginally better': visibly above, by less than ×1.2",
            inconsistent=(LRUD_NEGLIGIBLE, f"{FIG7B_099}; {FIG6B}; {ABSTRACT_SIMILAR}"),
        ),
        Claim(
            "LRU and RR not much different, in every case",
            "§1 (2)",
            "We find no significant performance difference between LRU and RR (round robin) output selection functions.",
            _every_case(cases, lambda p: w.not_much_different(p["LRU"], p["RR"], ours=_vs(p, "LRU", "RR"))),
            note="'no significant difference': the larger over the smaller below ×1.2",
        ),
        Claim(
            "RR not visibly below LRU or LRUD, in more than half the cases",
            "§5.3",
            "the performance of the RR scheme is comparable to that of the LRU and LRUD schemes and in most cases is as good as them.",
            _in_most(_over_cases(cases, lambda p: w.every([w.negated(w.lower(p["RR"], p[n], PEAK_AXIS, ours=_vs(p, "RR", n)), "not visibly below") for n in ("LRU", "LRUD")]))),
            note="'as good as': not visibly below either; 'in most cases': more than half of the 48. The sentence grades its 'comparable' by 'in most cases … as good as' (read as 'the same' in every case it would leave 'in most cases' nothing to say), so the quantified part is the claim",
            inconsistent=(RR_AS_GOOD, CONCLUSION_SLIGHTLY),
        ),
        Claim(
            "LRU, LRUD and RR above MRU, RND and LRUC, in every case",
            "abstract, §5.3, §7",
            "three of these selection functions perform similar to each other and outperform the other selection functions consistently (abstract); LRU, RR, and LRUD schemes performs better than other schemes (§5.3); the LRU, RR, and LRUD output selection functions outperform the other selection functions consistently (§7)",
            _every_case(cases, lambda p: _each(w.higher, p, GOOD, POOR)),
            note="'consistently': every system, pattern and size; each of the three visibly above each of the other three",
            inconsistent=("abstract and §7: LRU, RR and LRUD 'outperform the other selection functions consistently'", f"{FIG6B}; {FIG7B_099}"),
        ),
        Claim(
            "LRU, LRUD and RR perform alike, in every case",
            "abstract",
            "three of these selection functions perform similar to each other",
            _every_case(cases, lambda p: _alike(p, GOOD)),
            note="every pair within the visible resolution, every case",
            inconsistent=(ABSTRACT_SIMILAR, f"{CONCLUSION_SLIGHTLY}; {LRUD_NEGLIGIBLE}"),
        ),
        Claim(
            "the best of LRU, LRUD and RR is the best adaptive function, in every case",
            "§1 (4), §5.3",
            "We discover that the best selection functions for BMINs are not dependent on the traffic pattern, message size, or system size (§1 (4)); Those selection functions which perform well and achieve the highest peak throughput consistently do so for different system sizes, message sizes and traffic patterns (§5.3)",
            _every_case(cases, lambda p: w.negated(w.lower(p[_best(p, GOOD)], p[_best(p, POOR)], PEAK_AXIS, ours=_vs(p, _best(p, GOOD), _best(p, POOR))), "not visibly below")),
            note="the functions that 'perform well' are the three the study names (LRU, RR, LRUD): the highest of them not visibly below any of the other three, every case",
        ),
        Claim(
            "LRU and LRUD slightly above RR, in every case",
            "§7",
            "the LRU and LRUD selection functions provide a slightly better performance with increased hardware cost",
            _every_case(cases, lambda p: _each(w.slightly_higher, p, ["LRU", "LRUD"], ["RR"])),
            note="than RR, 'the most cost-effective selection function' of the same sentence; 'slightly': visibly, by less than ×1.2",
            inconsistent=(CONCLUSION_SLIGHTLY, f"{RR_AS_GOOD}; {ABSTRACT_SIMILAR}"),
        ),
        Claim(
            "O1's worst case over the permutations much below O4's, and its range wider",
            "§5.2",
            "In general, the one-route oblivious either performs very well or very poorly depending on the permutation. Due to its dismal worst case performance and greater performance variations, it is not being used in SP networks",
            _by_system_and_size(cases, _o1_dismal, PERMUTATIONS),
            note="per system and message size, over bit-reversal, bit-complement and transpose: O1's lowest peak much lower (×1.2, 'dismal') than O4's lowest, and the range of its peaks visibly wider than O4's",
        ),
        Claim(
            "every adaptive function above O1 and O4, in every case",
            "abstract, §7",
            "We show that the adaptive routing methods outperform the oblivious routing methods on SP like multistage networks (abstract); We have shown that adaptive routing schemes outperform the oblivious routing methods (§7)",
            _every_case(cases, lambda p: _each(w.higher, p, ADAPTIVE, ["O1", "O4"])),
            note="every selection function, both oblivious methods (O1 and O4, §5.1), every case",
            inconsistent=("abstract and §7: 'adaptive routing schemes outperform the oblivious routing methods'", FIG6A),
        ),
        Claim(
            "neither O1 nor O4 much above the best adaptive function, in any case",
            "§1 (6)",
            "We find no oblivious routing scheme that performs significantly better than adaptive routing in BMINs.",
            _every_case(cases, lambda p: w.every([w.negated(w.much_higher(p[o], p[_best(p, ADAPTIVE)], ours=_vs(p, o, _best(p, ADAPTIVE))), "not significantly better") for o in ("O1", "O4")])),
            note="'significantly better': a ratio of at least 1.2 over the best adaptive function (adaptive routing as a method, with its best selection function)",
        ),
    ]


def _grid_plot(results: pd.DataFrame, out: Path) -> None:
    """Peak throughput against message size, a panel per system and pattern, a colour and marker per routing
    (each routing a little to the side of the size it ran, so that equal peaks all show). The points of a
    routing are joined only where it ran three sizes or more: two points joined would draw a trend between
    sizes no run measured (a quick run runs 128 and 4096 B)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from flitcast.experiments.experiment import series_style
    from flitcast.experiments.study_marks import finish_panel, panel_note
    from flitcast.plot import empty_panel

    peaks = peak_throughput(results, ["nodes", "pattern", "message_bytes", "variant"]).reset_index()
    sizes = sorted(peaks["message_bytes"].unique())
    fig, axes = plt.subplots(2, 4, figsize=(16, 7), sharex=True, sharey=True, layout="constrained")
    for row, nodes in enumerate((16, 128)):
        for col, pattern in enumerate(GRID_PATTERNS):
            ax = axes[row][col]
            sub = peaks[(peaks["nodes"] == nodes) & (peaks["pattern"] == pattern)]
            for i, variant in enumerate(BARS_AND_O1):
                group = sub[sub["variant"] == variant].sort_values("message_bytes")
                style = series_style(i)
                if len(group) < 3:
                    style["linestyle"] = "none"
                aside = 2 ** ((i - (len(BARS_AND_O1) - 1) / 2) * 0.08)  # (on the log axis: a few % of a size's step)
                ax.plot(group["message_bytes"] * aside, group["accepted_load"], label=variant if row == col == 0 else "_nolegend_", **style)
            ax.set_xscale("log", base=2)
            ax.set_xticks(sizes, [f"{s:,}" for s in sizes])
            ax.minorticks_off()
            ax.set_title(f"{nodes} nodes, {pattern.replace('_', '-')}", fontsize=9)
            ax.set_ylim(0, 1.05)
            ax.grid(True, axis="y", alpha=0.3)
            if sub.empty:
                empty_panel(ax, "not in this run\n(the quick run: 16 nodes only)", keep_ticks=True)
    for ax in axes[:, 0]:
        ax.set_ylabel("peak throughput (fraction of link rate)")
    for ax in axes[1]:
        ax.set_xlabel("message size (bytes)")
    fig.legend(*axes[0][0].get_legend_handles_labels(), loc="outside right upper", fontsize=8, title="routing", title_fontsize=8)
    if len(sizes) < 3:
        panel_note(axes[0][0], f"sizes {' and '.join(f'{s:,} B' for s in sizes)} only: points not joined")
    fig.suptitle("§5.1 evaluation grid: peak throughput by message size, system, traffic pattern and routing", fontsize=10)
    finish_panel(axes[0][-1], "banikazemi-grid", "grid_peak_throughput")
    fig.savefig(out / "grid_peak_throughput.png", dpi=110)
    plt.close(fig)


EXPERIMENTS = [
    Experiment(
        id="banikazemi-fig5",
        study=STUDY,
        figure="Fig. 5",
        title="latency vs load, O1 / O4 / adaptive (LRU), 16 nodes, bit-reversal",
        points=lambda quick: _points(FIG5["nodes"], FIG5["pattern"], ["O1", "O4", "LRU"], [FIG5["message_bytes"]], quick, sorted({*FULL_LOADS, *FIG5_FINE_LOADS})),
        claims=fig5_claims,
        plot=_fig5_plot,
        quick_note=_quick_note(16),
        quick_runs_full=True,
        readings=READINGS,
    ),
    _figure("banikazemi-fig6", "Fig. 6", 16, "uniform", fig6_claims, "peak throughput by selection function, 16 nodes, random traffic"),
    _figure("banikazemi-fig7", "Fig. 7", 16, "bit_reversal", fig7_claims, "peak throughput by selection function, 16 nodes, bit-reversal"),
    _figure("banikazemi-fig8", "Fig. 8", 128, "uniform", fig8_claims, "peak throughput by selection function, 128 nodes, random traffic"),
    _figure("banikazemi-fig9", "Fig. 9", 128, "bit_reversal", fig9_claims, "peak throughput by selection function, 128 nodes, bit-reversal"),
    Experiment(
        id="banikazemi-grid",
        study=STUDY,
        figure="§5.1 evaluation grid",
        title="6 sizes x 2 systems x 8 routings x 4 patterns x 10 loads",
        points=_grid_points,
        claims=grid_claims,
        plot=_grid_plot,
        quick_note="sizes 128 and 4096 B, short windows; a claim is judged where a case run decides it, each peak widened by its measured spread",
        curve=CURVE,
        quick_resolution=QUICK_SPREADS["banikazemi-grid"],
        readings=READINGS,
    ),
]
