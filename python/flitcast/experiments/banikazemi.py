"""Study 002 — Banikazemi, Stunkel, Panda, Abali: adaptive routing in RS/6000 SP-like bidirectional
MINs. Figs 5–9 and the full evaluation grid of §5.1.

System (§5.1, with the switch timing of study 000 §7.1): the SP 16- and 128-node networks in SP node
numbering, central-buffer (buffered wormhole) switches with 64-flit input FIFOs and a 4 KB central
buffer, 2-byte flits, 1 KB maximum packets (longer messages are split), an open network with infinite
source queues and exponential inter-arrival times; load 1.0 = every node injecting at the link rate.
Routing: O1, O4, or adaptive source routing with one of six selection functions. Peak throughput is the
highest accepted load over the applied loads (docs/experiments.md). The study ran 100,000 warm-up and
1,000,000 measured cycles per point. Quick mode (docs/experiments.md, "Quick mode"): the 16-node
figures' full runs take seconds, so their quick mode is the full run; the 128-node figures run the same
loads with shorter windows and judge only the claims whose margin is wider than its measured resolution
(``QUICK_RESOLUTION``).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from flitcast.experiments.experiment import Claim, Experiment, Point, Reading, fmt, peak_throughput
from flitcast.experiments.peak_loads import REFINED_STEP
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
#: Fig. 5 also runs the loads 0.91 … 0.99: O4 and adaptive both first saturate between 0.9 and 1.0, and
#: "O4 saturates earlier" needs to know where (a few seconds more)
FIG5_FINE_LOADS = [round(0.9 + 0.01 * i, 2) for i in range(1, 10)]
#: the 16-node figures' full runs take 12–32 s of wall time here (docs/experiments.md): their quick mode
#: is the full run and judges every claim as it does
FAST_NODES = 16
#: quick mode of Figs. 8 and 9 (128 nodes), per (nodes, message bytes): a long warm-up (a saturated
#: network's accepted load keeps falling for ~10^5 cycles as more sources back up, docs/engine.md, so a
#: short one overstates it) and a short measured window, what fits in a minute of CPU
#: (docs/experiments.md, "Quick mode").
QUICK_RUNS = {
    (128, 128): {"warmup_cycles": 25_000, "measure_cycles": 8_000, "drain_max_cycles": 20_000},
    (128, 4096): {"warmup_cycles": 25_000, "measure_cycles": 8_000, "drain_max_cycles": 20_000},
}
#: quick mode keeps the full load grid: peak figures walk each curve down from 1.0 only as far as the
#: peak needs (peak_loads.py), and Fig. 5's first saturated loads must be on the full run's grid
QUICK_LOADS = FULL_LOADS
#: the grid's quick mode is a smoke test (its claims count 48 cases it does not run): load 1.0 only
GRID_QUICK_RUN = {"warmup_cycles": 3_000, "measure_cycles": 15_000, "drain_max_cycles": 5_000}

#: how far a quick-mode quantity of Figs. 8 and 9 can be from the full run's (fractions of the link
#: rate): twice the largest deviation measured between their quick and full runs, rounded up to 0.01
#: (docs/experiments.md, "Quick mode"). Keys are a claim's ``reads``.
QUICK_RESOLUTION = {"peak 128 B": 0.26, "peak 4096 B": 0.36}

#: the labels of one peak-throughput curve (Figs. 6–9 and the grid show peaks only)
CURVE = ("nodes", "pattern", "message_bytes", "variant")

#: tolerance on the study's stated peak throughputs (absolute, as a fraction of the link rate) where
#: nothing narrower is needed: the reconstruction of the switch (link latency, buffer timing, route
#: tables) cannot be exact. A figure whose stated values must be told apart uses half the smallest gap
#: between them instead (FIG7B_TOLERANCE, FIG9B_TOLERANCE), so that no value can pass for its neighbour.
TOLERANCE = 0.10
#: Fig. 7(b) states 0.99 (LRU, LRUC, LRUD), 0.92 (RND) and 0.75 (MRU): half the 0.07 gap between 0.99
#: and 0.92, so that a peak within the band of one is outside the other's (study_data/002.toml)
FIG7B_TOLERANCE = round((value("002", "fig7b_LRU").number - value("002", "fig7b_RND").number) / 2, 4)
#: Fig. 9(b) states 0.55 (MRU) and 0.54 (LRUC), and LRU more than 30% above LRUC (above 0.70): half the
#: 0.15 gap between 0.55 and 0.70 (0.55 and 0.54 are one level, the study ranks them only in the text)
FIG9B_TOLERANCE = round(
    (round(value("002", "fig9b_LRUC").number * (1 + value("002", "fig9b_LRU_over_LRUC").number), 2) - value("002", "fig9b_MRU").number) / 2, 4
)

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


def _peaks(results: pd.DataFrame, size: int) -> dict[str, float]:
    return peak_throughput(results[results["message_bytes"] == size], ["variant"]).to_dict()


def _spread(peaks: dict[str, float], names: list[str]) -> tuple[float, str]:
    values = [peaks[n] for n in names]
    return max(values) - min(values), f"{fmt(min(values))}–{fmt(max(values))}"


def _peak(size: int) -> str:
    """The quick-mode resolution key of the peak throughputs of one message size."""
    return f"peak {size} B"


def _near(claim: str, study: float, ours: float, size: int) -> Claim:
    margin = TOLERANCE - abs(ours - study)
    return Claim(claim, fmt(study), fmt(ours), margin >= 0, f"holds if within ±{TOLERANCE:.2f}", margin, (_peak(size),))


# --- how precisely a peak is known ------------------------------------------------------------------------
# A curve's peak is the highest accepted load over the loads run. An unsaturated point accepts what it is
# offered, so between the highest load a curve sustains and the next load run above it (which saturates)
# lies a load the curve might sustain that is higher than any measured: the peak is known only to that next
# load. The runner therefore refines each curve between those two loads until they are REFINED_STEP apart
# (peak_loads.py). (Where no load run is sustained, the lowest load run bounds the peak the same way: the
# load below it was offered less than the peak.) Two peaks at the same sustained load are a tie, not an
# ordering. So each peak is an interval [lo, hi] (widened by a saturated point's precision); a claim holds
# only if it holds for every value in its peaks' intervals, does not hold if it fails for every value, and
# is not judged otherwise.
#
# "Saturated" here is the core's flag, not past_saturation: a peak is a throughput, and what bounds it from
# above is a point that did not accept its offered load (its source queues grew). A point past saturation
# by latency alone still accepted its load, so the peak is at least that load and may be higher; and the
# latency rule's reference, a curve's lowest load, is not a light load in a walk that starts at 1.0.

Bounds = dict[str, tuple[float, float]]

NOT_RESOLVED = "not judged: at the precision the peaks are known to"
#: a saturated point's accepted load is known to ±0.005: the engine ends a saturated run once its 95%
#: half-width is that (docs/engine.md, "Saturated runs end early"), and Fig. 8's saturated 4096 B points
#: of one curve differ by that much from load to load
SATURATED_PRECISION = 0.005
#: why, in a claim's note
WHY_NOT_RESOLVED = (
    f"the peaks' intervals overlap: a peak at a sustained load is known to the {REFINED_STEP:g}-wide bracket "
    f"up to the next saturated load, one measured at a saturated point to ±{SATURATED_PRECISION:g}"
)


def _bounds(results: pd.DataFrame, size: int) -> Bounds:
    """Per variant, the interval its peak throughput at ``size`` lies in (above)."""
    out: Bounds = {}
    for variant, group in results[results["message_bytes"] == size].groupby("variant", sort=False):
        top = group.loc[group["accepted_load"].idxmax()]
        lo = float(top["accepted_load"])
        flags = group["saturated"].astype(bool)  # the core's flag (above)
        sustained = group[~flags]["workload.load"]
        above = group[flags & (group["workload.load"] > (sustained.max() if len(sustained) else 0.0))]["workload.load"]
        hi = max(lo, float(above.min()) if len(above) else lo)
        if bool(flags[top.name]):  # a measured throughput, known to its precision
            lo, hi = lo - SATURATED_PRECISION, max(hi, lo + SATURATED_PRECISION)
        out[str(variant)] = (lo, hi)
    return out


def _shown(b: tuple[float, float]) -> str:
    """A peak's interval, to three decimals: the refined ones are narrower than the study's two."""
    lo, hi = b
    return f"{lo:.3f}" if f"{hi:.3f}" == f"{lo:.3f}" else f"{lo:.3f}–{hi:.3f}"


def _order_b(bounds: Bounds, names: list[str]) -> str:
    return " > ".join(f"{n} {_shown(bounds[n])}" for n in sorted(names, key=lambda n: -bounds[n][0]))


def _decide(best: float, worst: float) -> tuple[bool | None, float | None]:
    """A verdict from the margin it has in the best and in the worst case over the peaks' intervals:
    holds if even the worst case holds, fails if even the best case fails, else not judged."""
    if worst > 0:
        return True, worst
    if best <= 0:
        return False, best
    return None, None


def _greater(x: tuple[float, float], y: tuple[float, float]) -> tuple[bool | None, float | None]:
    """x > y over the intervals, with margin half the gap (both move towards each other)."""
    return _decide((x[1] - y[0]) / 2, (x[0] - y[1]) / 2)


def _all(*parts: tuple[bool | None, float | None]) -> tuple[bool | None, float | None]:
    """An AND: fails if a part fails (margin: the most negative), holds if every part holds (the least)."""
    failed = [m for h, m in parts if h is False]
    if failed:
        return False, min(failed)  # type: ignore[type-var]
    if all(h for h, _ in parts):
        return True, min(m for _, m in parts)  # type: ignore[type-var]
    return None, None


def _within(bounds: Bounds, names: list[str], limit: float) -> tuple[bool | None, float | None]:
    """max − min ≤ limit over the intervals: margin half the room left."""
    widest = max(bounds[n][1] for n in names) - min(bounds[n][0] for n in names)
    narrowest = max(0.0, max(bounds[n][0] for n in names) - min(bounds[n][1] for n in names))
    return _decide((limit - narrowest) / 2, (limit - widest) / 2)


def _claim(claim: str, study: str, ours: str, verdict: tuple[bool | None, float | None], note: str, reads: tuple[str, ...]) -> Claim:
    holds, margin = verdict
    if holds is None:
        note = f"{NOT_RESOLVED} ({WHY_NOT_RESOLVED}); {note}".rstrip("; ")
    return Claim(claim, study, ours, holds, note, margin, reads)


def stated(name: str) -> float:
    """A number study 002 states (flitcast/study_data/002.toml), written once there."""
    return value("002", name).number


def _near_b(claim: str, study: float, b: tuple[float, float], size: int, tolerance: float, why: str) -> Claim:
    far = max(abs(b[0] - study), abs(b[1] - study))
    near = 0.0 if b[0] <= study <= b[1] else min(abs(b[0] - study), abs(b[1] - study))
    return _claim(claim, fmt(study), _shown(b), _decide(tolerance - near, tolerance - far), f"holds if within ±{tolerance:.3g} ({why})", (_peak(size),))


# Margins (docs/results.md, "claims.csv"): how far every peak the claim reads could move, each in its worst
# direction, before the verdict could change. An ordering a > b flips once a and b each move (a − b)/2
# towards each other; a spread max − min ≤ s once both ends move (s − spread)/2 apart; an AND holds
# while every part holds (min of the margins), an OR while one does (max).


def _above(a: float, b: float) -> float:
    """Margin of a > b (or a ≥ b)."""
    return (a - b) / 2


def _spread_within(spread: float, limit: float) -> float:
    """Margin of max − min ≤ limit."""
    return (limit - spread) / 2


def _order(peaks: dict[str, float], names: list[str]) -> str:
    return " > ".join(f"{n} {fmt(peaks[n])}" for n in sorted(names, key=lambda n: -peaks[n]))


# --- plots ---------------------------------------------------------------------------------------------


def _bar_panel(results: pd.DataFrame, size: int, title: str, path: Path, experiment: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from flitcast.experiments.study_marks import draw_study_values

    peaks = _peaks(results, size)
    names = [n for n in BARS if n in peaks]
    fig, ax = plt.subplots(figsize=(6, 4))
    bars = ax.bar(names, [peaks[n] for n in names], color=["#999999" if n == "O4" else "#3b6ea8" for n in names])
    ax.bar_label(bars, fmt="%.2f", fontsize=8)
    ax.set_ylim(0, 1.05)
    ax.set_ylabel("peak throughput (fraction of link rate)")
    ax.set_title(title, fontsize=10)
    draw_study_values(ax, experiment, path.stem, bars=names)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def _bars(fig: str, nodes: int, pattern: str) -> Any:
    def plot(results: pd.DataFrame, out: Path) -> None:
        stem = fig.lower().replace(". ", "")
        for panel, size in (("a", 128), ("b", 4096)):
            _bar_panel(results, size, f"{fig}({panel}): {nodes} nodes, {pattern}, {size}-byte messages", out / f"{stem}{panel}.png", f"banikazemi-{stem}")

    return plot


def _fig5_plot(results: pd.DataFrame, out: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from flitcast.plot import draw_latency, latency_legend

    fig, ax = plt.subplots(figsize=(6, 4))
    for variant, group in results.groupby("variant", sort=False):
        group = group.sort_values("workload.load")
        draw_latency(ax, group["workload.load"], group["latency_mean"], saturated(group), marker="o", label=variant)
    ax.set_yscale("log")
    ax.set_xlabel("applied load (fraction of link rate)")
    ax.set_ylabel("average message latency (cycles)")
    ax.set_title("Fig. 5: 16 nodes, bit-reversal, 1 KB messages", fontsize=9)
    latency_legend(ax)
    fig.tight_layout()
    fig.savefig(out / "fig5.png", dpi=120)
    plt.close(fig)


# --- claims ----------------------------------------------------------------------------------------------


def _saturation_load(results: pd.DataFrame, variant: str) -> float:
    group = results[results["variant"] == variant]
    flagged = group[saturated(group)]["workload.load"]
    return float(flagged.min()) if len(flagged) else float("inf")


def _fig5_claims(results: pd.DataFrame) -> list[Claim]:
    peaks = _peaks(results, 1024)
    sat = {v: _saturation_load(results, v) for v in ("O1", "O4", "LRU")}
    shown = ", ".join(f"{v} {sat[v]:g}" for v in sat)
    # a curve that never saturates on the 0.1 … 1.0 grid counts as saturating one step above it
    others_sat = min(min(sat["O4"], sat["LRU"]), 1.1)
    return [
        Claim(
            "O1 saturates very quickly (16 nodes, bit-reversal)",
            "O1 saturates first",
            f"first saturated load: {shown}; peaks {_order(peaks, ['O1', 'O4', 'LRU'])}",
            sat["O1"] < min(sat["O4"], sat["LRU"]) and peaks["O1"] < min(peaks["O4"], peaks["LRU"]),
            "message size not stated in the study: 1 KB assumed; adaptive = LRU (Switch2's function)",
            min(_above(others_sat, min(sat["O1"], 1.1)), _above(min(peaks["O4"], peaks["LRU"]), peaks["O1"])),
            ("first saturated load", _peak(1024)),
        ),
        _o4_before_adaptive(results, sat, peaks),
    ]


def _o4_before_adaptive(results: pd.DataFrame, sat: dict[str, float], peaks: dict[str, float]) -> Claim:
    """Fig. 5: O4 saturates before adaptive. Saturation is the one rule of every study, past_saturation
    (docs/results.md, "Past saturation"): the core's flag, or a latency above 10 times the curve's at
    load 0.1 — a latency curve's end, as Fig. 5 draws it — and "earlier" is a lower first saturated
    load. Fig. 5 runs loads 0.01 apart between 0.9 and 1.0 (FIG5_FINE_LOADS), where both first
    saturate; a tie there is not judged."""
    step = _load_step(results)
    # a curve that never saturates counts as saturating one step above the highest load
    o4, lru = min(sat["O4"], 1.0 + step), min(sat["LRU"], 1.0 + step)
    shown = f"first saturated load O4 {o4:g}, adaptive {sat['LRU']:g} (loads {step:g} apart there); peaks O4 {fmt(peaks['O4'])}, adaptive {fmt(peaks['LRU'])}"
    note = "saturation by the rule of every study (the core's flag, or a latency above 10 times the curve's at load 0.1: docs/results.md); holds if O4 first saturates at a lower load"
    holds, margin = (o4 < lru, (lru - o4) / 2) if o4 != lru else (None, None)
    if o4 == lru:
        note = f"not judged: O4 and adaptive first saturate at the same load to within {step:g}, the resolution of the loads run; {note}"
    return Claim("with four-route oblivious the network saturates earlier than with adaptive routing", "O4 before adaptive", shown, holds, note, margin, ("first saturated load",))


def _load_step(results: pd.DataFrame) -> float:
    """The spacing of the loads run just below 1.0 (0.01 with Fig. 5's fine loads, else the grid's 0.1)."""
    loads = sorted(set(results["workload.load"]))
    return round(loads[-1] - loads[-2], 3) if len(loads) > 1 else 0.1


def _lowest(b: Bounds, names: list[str]) -> tuple[float, float]:
    """The interval of the lowest of ``names``' peaks."""
    return min(b[n][0] for n in names), min(b[n][1] for n in names)


def _highest(b: Bounds, names: list[str]) -> tuple[float, float]:
    """The interval of the highest of ``names``' peaks."""
    return max(b[n][0] for n in names), max(b[n][1] for n in names)


def _beats_o4(panel: str, b: Bounds, size: int, claim: str = "adaptive routing outperforms oblivious routing") -> Claim:
    low = _lowest(b, ADAPTIVE)
    return _claim(f"{panel}: {claim}", "every adaptive > O4", f"O4 {_shown(b['O4'])}, adaptive min {_shown(low)}", _greater(low, b["O4"]), "", (_peak(size),))


def _mru_poor(panel: str, b: Bounds, size: int, claim: str) -> Claim:
    others = _lowest(b, [n for n in ADAPTIVE if n != "MRU"])
    return _claim(f"{panel}: {claim}", "MRU lowest adaptive", _order_b(b, ADAPTIVE), _greater(others, b["MRU"]), "MRU below every other adaptive function", (_peak(size),))


def _fig6_claims(results: pd.DataFrame) -> list[Claim]:
    a, b = _bounds(results, 128), _bounds(results, 4096)
    others = [n for n in ADAPTIVE if n != "LRUD"]
    best_other = _highest(b, others)
    lead = _all(_greater(b["LRUD"], best_other), _decide((0.05 - (b["LRUD"][0] - best_other[1])) / 2, (0.05 - (b["LRUD"][1] - best_other[0])) / 2))
    return [
        _claim("(a) 128 B: all algorithms perform more or less the same", "all about equal", f"O4 and adaptive: {_order_b(a, BARS)}", _within(a, BARS, 0.10), "holds if the spread is at most 0.10 ('more or less': twice the 0.05 of 'the same' in (b))", (_peak(128),)),
        _claim("(b) 4096 B: all adaptive algorithms perform the same", "all adaptive equal", f"adaptive: {_order_b(b, ADAPTIVE)}", _within(b, ADAPTIVE, 0.05), f"holds if the spread is at most 0.05 (below {2 * FIG7B_TOLERANCE:.2f}, the smallest gap the study calls a difference: Fig. 7(b)'s RND {stated('fig7b_RND'):.2f} 'slightly worse' than {stated('fig7b_LRU'):.2f})", (_peak(4096),)),
        _claim(
            "(b) 4096 B: LRUD outperforms the others negligibly",
            "LRUD best by a negligible margin",
            f"LRUD {_shown(b['LRUD'])}, best other adaptive {_shown(best_other)}",
            lead,
            "holds if LRUD is above every other adaptive function, by at most 0.05 ('negligibly': within what (b) calls 'the same')",
            (_peak(4096),),
        ),
        _beats_o4("(b) 4096 B", b, 4096, "all adaptive algorithms perform better than the oblivious one"),
    ]


def _fig7_claims(results: pd.DataFrame) -> list[Claim]:
    a, b = _bounds(results, 128), _bounds(results, 4096)
    why = f"half the {2 * FIG7B_TOLERANCE:.2f} gap between the stated {stated('fig7b_LRU'):.2f} and {stated('fig7b_RND'):.2f}, so a value inside one band is outside the other"
    return [
        *[_near_b(f"(b) 4096 B: {n} peak throughput", stated(f"fig7b_{n}"), b[n], 4096, FIG7B_TOLERANCE, why) for n in ("MRU", "LRU", "LRUC", "LRUD", "RND")],
        _claim(
            "(b) 4096 B: MRU performs poorly, RND slightly worse than LRU",
            "MRU < RND < LRU",
            _order_b(b, ["MRU", "RND", "LRU"]),
            _all(_greater(b["RND"], b["MRU"]), _greater(b["LRU"], b["RND"])),
            "",
            (_peak(4096),),
        ),
        _mru_poor("(a) 128 B", a, 128, "MRU performs poorly across the board"),
        _mru_poor("(b) 4096 B", b, 4096, "MRU performs poorly across the board"),
    ]


def _fig8a_note(b: Bounds) -> str:
    note = "holds if the spread is at most 0.05 (as Fig. 6(b)'s 'the same')"
    if min(ADAPTIVE, key=lambda n: b[n][0]) == "RR" and b["RR"][1] < max(b[n][0] for n in ADAPTIVE) - 0.05:
        note += "; RR lowest: forced hops reset its RRID (routing.selection_history, docs/experiments.md Fig. 8)"
    return note


def _fig8_claims(results: pd.DataFrame) -> list[Claim]:
    a, b = _bounds(results, 128), _bounds(results, 4096)
    worse = _highest(b, ["MRU", "LRUC"])
    rest = _lowest(b, ["LRU", "RND", "RR", "LRUD"])
    top = _highest(b, ["LRU", "RND", "RR", "LRUD"])
    return [
        _claim("(a) 128 B: all selection functions perform the same", "all equal", f"adaptive: {_order_b(a, ADAPTIVE)}", _within(a, ADAPTIVE, 0.05), _fig8a_note(a), (_peak(128),)),
        _beats_o4("(a) 128 B", a, 128),
        _beats_o4("(b) 4096 B", b, 4096),
        _claim(
            "(b) 4096 B: MRU and LRUC perform slightly worse than the other adaptive functions",
            "MRU, LRUC < LRU, RND, RR, LRUD",
            f"MRU {_shown(b['MRU'])}, LRUC {_shown(b['LRUC'])}; others {_shown(rest)} to {_shown(top)}",
            _all(_greater(rest, worse), *[_decide((0.10 - (top[0] - b[n][1])) / 2, (0.10 - (top[1] - b[n][0])) / 2) for n in ("MRU", "LRUC")]),
            "holds if both are below every other adaptive function, by at most 0.10 ('slightly': the study calls RND's 0.07 below LRU in Fig. 7(b) 'slightly worse')",
            (_peak(4096),),
        ),
    ]


def _ratio_above(x: tuple[float, float], y: tuple[float, float], r: float) -> tuple[float, float]:
    """Best- and worst-case margins of x / y − 1 > r: x − (1 + r)·y moves by (2 + r)·δ when x and y each
    move by δ."""
    return (x[1] - (1 + r) * y[0]) / (2 + r), (x[0] - (1 + r) * y[1]) / (2 + r)


def _fig9_claims(results: pd.DataFrame) -> list[Claim]:
    a, b = _bounds(results, 128), _bounds(results, 4096)
    best_a = _lowest(a, ["LRU", "LRUD"])
    rest_a = ["RND", "RR", "LRUC"]
    # "marginally worse": each of RND, RR, LRUC below both LRU and LRUD, by at most 0.10 (less than MRU's
    # "poorly", which the study's numbers put 0.2 or more below: Fig. 7(b) 0.75 vs 0.99)
    top_a = _highest(a, ["LRU", "LRUD"])
    marginal = _all(
        *[_greater(best_a, a[n]) for n in rest_a],
        *[_decide((0.10 - (top_a[0] - a[n][1])) / 2, (0.10 - (top_a[1] - a[n][0])) / 2) for n in rest_a],
    )
    gains = {p: (_highest(x, ADAPTIVE)[0] / x["O4"][0] - 1) for p, x in (("a", a), ("b", b))}
    up_to = stated("adaptive_over_O4")
    gain = [_ratio_above(_highest(x, ADAPTIVE), x["O4"], up_to) for x in (a, b)]
    poor_b = _highest(b, ["MRU", "LRUC"])
    rest_b = _lowest(b, ["LRU", "RND", "RR", "LRUD"])
    why_b = (
        f"half the {2 * FIG9B_TOLERANCE:.2f} gap between the stated {stated('fig9b_MRU'):.2f} and LRU's implied "
        f"{stated('fig9b_MRU') + 2 * FIG9B_TOLERANCE:.2f} (more than {stated('fig9b_LRU_over_LRUC'):.0%} above LRUC's {stated('fig9b_LRUC'):.2f})"
    )
    return [
        _claim("(a) 128 B: LRU and LRUD outperform the rest", "LRU, LRUD best", _order_b(a, ADAPTIVE), _greater(best_a, _highest(a, ["MRU", *rest_a])), "both above every other adaptive function", (_peak(128),)),
        _claim(
            "(a) 128 B: RND, RR and LRUC are marginally worse than LRU and LRUD",
            "marginally worse",
            f"RND/RR/LRUC {_order_b(a, rest_a)}; LRU {_shown(a['LRU'])}, LRUD {_shown(a['LRUD'])}",
            marginal,
            "holds if each is below both, by at most 0.10",
            (_peak(128),),
        ),
        _mru_poor("(a) 128 B", a, 128, "MRU performs poorly"),
        _beats_o4("(a) 128 B", a, 128),
        _beats_o4("(b) 4096 B", b, 4096),
        *[_near_b(f"(b) 4096 B: {n} peak throughput", stated(f"fig9b_{n}"), b[n], 4096, FIG9B_TOLERANCE, why_b) for n in ("MRU", "LRUC")],
        _claim(
            "(b) 4096 B: MRU and LRUC perform worse than the rest of the adaptive functions",
            "MRU, LRUC < LRU, RND, RR, LRUD",
            f"MRU {_shown(b['MRU'])}, LRUC {_shown(b['LRUC'])}; others min {_shown(rest_b)}",
            _greater(rest_b, poor_b),
            "",
            (_peak(4096),),
        ),
        _claim(
            "(b) 4096 B: using LRU instead of LRUC increases peak throughput by more than 30%",
            f"> +{stated('fig9b_LRU_over_LRUC'):.0%}",
            f"{100 * (b['LRU'][0] / b['LRUC'][0] - 1):+.0f}% (LRU {_shown(b['LRU'])}, LRUC {_shown(b['LRUC'])})",
            _decide(*_ratio_above(b["LRU"], b["LRUC"], stated("fig9b_LRU_over_LRUC"))),
            "",
            (_peak(4096),),
        ),
        _claim(
            "adaptive instead of four-route oblivious: up to / more than 229% higher peak throughput",
            f"+{up_to:.0%}",
            f"best adaptive vs O4: (a) {100 * gains['a']:+.0f}%, (b) {100 * gains['b']:+.0f}%",
            _decide(max(g[0] for g in gain), max(g[1] for g in gain)),
            f"holds if the larger of the two panels' gains reaches +{up_to:.0%}; message size of the study's number not stated",
            (_peak(128), _peak(4096)),
        ),
    ]


def _quick_note(nodes: int) -> str:
    if nodes == FAST_NODES:
        return "the full run (seconds): judges every claim as the full run does"
    runs = ", ".join(f"{size} B: {r['warmup_cycles']:,} + {r['measure_cycles']:,}" for (n, size), r in QUICK_RUNS.items() if n == nodes)
    return f"warm-up + measured cycles ({runs}); judges only the claims wider than its resolution"


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
        quick_resolution={} if fast else QUICK_RESOLUTION,
        readings=READINGS,
    )


# --- the full grid ---------------------------------------------------------------------------------------

GRID_SIZES = [128, 256, 512, 1024, 2048, 4096]
GRID_PATTERNS = ["uniform", "bit_reversal", "bit_complement", "transpose"]
GRID_VARIANTS = ["O1", "O4", *ADAPTIVE]


def _grid_points(quick: bool) -> list[Point]:
    sizes = [128, 4096] if quick else GRID_SIZES
    loads = [1.0] if quick else FULL_LOADS
    run = GRID_QUICK_RUN if quick else FULL_RUN
    return [p for nodes in (16, 128) for pattern in GRID_PATTERNS for p in _points(nodes, pattern, GRID_VARIANTS, sizes, quick, loads, run)]


Case = tuple[int, str, int]


def _grid_cases(results: pd.DataFrame) -> dict[Case, Bounds]:
    """Per (nodes, pattern, message size) case, every routing's peak interval."""
    return {
        (int(nodes), str(pattern), int(size)): _bounds(group, int(size))
        for (nodes, pattern, size), group in results.groupby(["nodes", "pattern", "message_bytes"], sort=True)
    }


def _count(cases: dict[Case, Bounds], test: Any, where: Any = lambda case: True) -> tuple[int, int, int]:
    """(holds, fails, not resolved) over the cases ``where`` selects; ``test(bounds)`` -> True/False/None."""
    verdicts = [test(b) for case, b in cases.items() if where(case)]
    return sum(v is True for v in verdicts), sum(v is False for v in verdicts), sum(v is None for v in verdicts)


def _every(counts: tuple[int, int, int]) -> bool | None:
    """Holds in every case: fails if one case fails; not judged if some case is not resolved."""
    held, failed, open_ = counts
    return False if failed else (None if open_ or not held else True)


def _most(counts: tuple[int, int, int]) -> bool | None:
    """Holds in more than half the cases, whichever way the unresolved ones go."""
    held, failed, open_ = counts
    total = held + failed + open_
    return True if 2 * held > total else (False if 2 * (held + open_) <= total else None)


def _shown_counts(counts: tuple[int, int, int]) -> str:
    held, failed, open_ = counts
    return f"holds in {held} of {held + failed + open_} cases, fails in {failed}" + (f", not resolved at this load grid in {open_}" if open_ else "")


def _grid_claim(claim: str, study: str, counts: tuple[int, int, int], rule: Any, note: str, inconsistent: str = "") -> Claim:
    holds = rule(counts)
    if holds is None:
        note = f"{NOT_RESOLVED} in enough cases to decide ({WHY_NOT_RESOLVED}); {note}"
    return Claim(claim, study, _shown_counts(counts), holds, note, inconsistent=inconsistent)


def _mean(b: Bounds, names: list[str]) -> tuple[float, float]:
    return sum(b[n][0] for n in names) / len(names), sum(b[n][1] for n in names) / len(names)


def _gt(x: tuple[float, float], y: tuple[float, float], by: float = 0.0) -> bool | None:
    """x > y + by over the intervals: True, False, or None (not resolved)."""
    return True if x[0] > y[1] + by else (False if x[1] <= y[0] + by else None)


def _not(v: bool | None) -> bool | None:
    return None if v is None else not v


def _both(*parts: bool | None) -> bool | None:
    return False if False in parts else (None if None in parts else True)


GOOD, POOR = ["LRU", "LRUD", "RR"], ["MRU", "RND", "LRUC"]
#: multi-packet messages (longer than the 1 KB packet): §5.3 explains LRUC's and RND's loss by consecutive
#: packets of one message
LONG = (2048, 4096)


#: where the study's own Fig. 6(b) contradicts its "across the board" and "consistently"
ALL_THE_SAME = "calls all adaptive functions the same for 16 nodes, random traffic, 4096 B (Fig. 6(b))"


def _grid_claims(results: pd.DataFrame) -> list[Claim]:
    # no margin: the verdicts count (system, pattern, size) cases, and the quick grid runs 16 of the 48
    # (never judged in quick mode); each case is judged over its peaks' intervals (_bounds)
    cases = _grid_cases(results)
    others = [n for n in ADAPTIVE if n != "MRU"]
    uniform = lambda case: case[1] == "uniform"  # noqa: E731
    reversal = lambda case: case[1] == "bit_reversal"  # noqa: E731
    spread = lambda b: (max(b[n][0] for n in ADAPTIVE) - min(b[n][1] for n in ADAPTIVE), max(b[n][1] for n in ADAPTIVE) - min(b[n][0] for n in ADAPTIVE))  # noqa: E731

    def wider(case: Case, b: Bounds) -> bool | None:
        other = cases.get((case[0], "uniform", case[2]))
        if other is None:
            return None
        return _gt(spread(b), spread(other))

    return [
        _grid_claim(
            "MRU performs poorly across the board",
            "MRU lowest adaptive in every case",
            _count(cases, lambda b: _gt(_lowest(b, others), b["MRU"])),
            _every,
            "§5.2 summary and §1: MRU below every other adaptive function, in every case",
            inconsistent=f"§5.2 (summary) says MRU performs poorly across the board, but §5.2 puts LRUC ({stated('fig9b_LRUC'):.2f}) below MRU ({stated('fig9b_MRU'):.2f}) in Fig. 9(b) and calls all adaptive functions the same in Fig. 6(b)",
        ),
        _grid_claim(
            "MRU performs worse than LRU, LRUD and RR across the board",
            "MRU below LRU, LRUD, RR in every case",
            _count(cases, lambda b: _gt(_lowest(b, GOOD), b["MRU"])),
            _every,
            "the part of 'poorly across the board' Fig. 9(b) does not contradict",
            inconsistent=f"§5.2 (summary) says MRU performs poorly across the board, but {ALL_THE_SAME}",
        ),
        _grid_claim(
            "LRU, LRUD and RR outperform MRU, RND and LRUC consistently",
            "better in every case",
            _count(cases, lambda b: _gt(_mean(b, GOOD), _mean(b, POOR))),
            _every,
            "abstract, §5.3, §7 ('consistently'): the mean of the three above the mean of the other three, in every case",
            inconsistent=f"the abstract and §7 say consistently, but §5.2 {ALL_THE_SAME}",
        ),
        _grid_claim(
            "random traffic: LRU, LRUD and RR outperform MRU, RND and LRUC only marginally",
            "better by at most 0.05",
            _count(cases, lambda b: _both(_gt(_mean(b, GOOD), _mean(b, POOR)), _gt(_mean(b, POOR), _mean(b, GOOD), -0.05)), uniform),
            _every,
            "§5.2 summary: every random-traffic case, the three's mean above the others' by at most 0.05 ('marginally': within what Fig. 6(b) calls 'the same')",
        ),
        _grid_claim(
            "bit-reversal shows a wider range of the selection functions than random traffic",
            "wider adaptive spread",
            _tally([wider(c, b) for c, b in cases.items() if reversal(c)]),
            _every,
            "§5.2 summary: the adaptive spread (max − min) under bit-reversal above that under random traffic, for every system and size",
        ),
        _grid_claim(
            "bit-reversal: LRU and LRUD outperform the other selection functions",
            "LRU, LRUD best",
            _count(cases, lambda b: _gt(_lowest(b, ["LRU", "LRUD"]), _highest(b, [*POOR, "RR"])), reversal),
            _every,
            "§5.2 summary: both above every other adaptive function, in every bit-reversal case",
        ),
        _grid_claim(
            "bit-reversal: LRUD performs slightly better than LRU",
            "LRUD above LRU by at most 0.05",
            _count(cases, lambda b: _both(_gt(b["LRUD"], b["LRU"]), _gt(b["LRU"], b["LRUD"], -0.05)), reversal),
            _every,
            "§5.2 summary: in every bit-reversal case ('slightly': within what Fig. 6(b) calls 'the same')",
        ),
        _grid_claim(
            "LRUD outperforms LRU, by a negligible margin",
            "LRUD above LRU by at most 0.05",
            _count(cases, lambda b: _both(_gt(b["LRUD"], b["LRU"]), _gt(b["LRU"], b["LRUD"], -0.05))),
            _every,
            "§5.3 and §1 (2), for all the simulations: in every case ('negligible': within what Fig. 6(b) calls 'the same')",
        ),
        _grid_claim(
            "no significant performance difference between LRU and RR",
            "|LRU − RR| at most 0.05",
            _count(cases, lambda b: _both(_gt(b["RR"], b["LRU"], -0.05), _gt(b["LRU"], b["RR"], -0.05))),
            _every,
            "§1 (2): in every case ('no significant difference': within what Fig. 6(b) calls 'the same')",
        ),
        _grid_claim(
            "one-route oblivious: dismal worst case and greater performance variations (over the permutations)",
            "O1's worst below O4's, its range wider",
            _tally([_o1_variation(cases, nodes, size) for nodes in sorted({c[0] for c in cases}) for size in sorted({c[2] for c in cases})]),
            _every,
            "§5.2 (Fig. 5): per system and size, over bit-reversal, bit-complement and transpose, O1's lowest peak below O4's lowest and the spread of O1's peaks wider than O4's",
        ),
        _grid_claim(
            "RR is comparable to LRU and LRUD and in most cases as good as them",
            "RR as good in most cases",
            _count(cases, lambda b: _gt(b["RR"], _lowest(b, ["LRU", "LRUD"]), -0.01 - 1e-9)),
            _most,
            "§5.3: RR not below the lower of LRU and LRUD by more than 0.01 (the study reads its bars to two decimals) in more than half the cases",
        ),
        _grid_claim(
            "LRUC and RND perform poorly for long messages (bit-reversal)",
            "LRUC, RND below LRU, LRUD, RR",
            _count(cases, lambda b: _gt(_lowest(b, GOOD), _highest(b, ["LRUC", "RND"])), lambda c: reversal(c) and c[2] in LONG),
            _every,
            "§5.2 summary: at 2 and 4 KB (messages of several packets, §5.3), below each of LRU, LRUD and RR",
        ),
        _grid_claim(
            "LRUC performs worse than LRU for long messages",
            "LRUC < LRU",
            _count(cases, lambda b: _gt(b["LRU"], b["LRUC"]), lambda c: c[2] in LONG),
            _every,
            "§5.3: at 2 and 4 KB, every system and pattern",
        ),
        _grid_claim(
            "adaptive routing outperforms oblivious routing",
            "every adaptive > O1, O4 in every case",
            _count(cases, lambda b: _gt(_lowest(b, ADAPTIVE), _highest(b, ["O1", "O4"]))),
            _every,
            "§7 and §5.2 (Figs. 8, 9): every adaptive function above both oblivious schemes, in every case",
            inconsistent="§7 says adaptive routing schemes outperform the oblivious methods, but §5.2 says all algorithms, O4 included, perform more or less the same for 16 nodes, random traffic, 128 B (Fig. 6(a))",
        ),
        _grid_claim(
            "no oblivious routing scheme performs significantly better than adaptive routing",
            "O1, O4 never significantly better",
            _count(cases, lambda b: _not(_gt(_highest(b, ["O1", "O4"]), _highest(b, ADAPTIVE), 0.02))),
            _every,
            "§1 (6): neither O1 nor O4 above the best adaptive function by more than 0.02 ('significantly': beyond the study's two-decimal reading), in every case",
        ),
    ]


PERMUTATIONS = ["bit_reversal", "bit_complement", "transpose"]


def _o1_variation(cases: dict[Case, Bounds], nodes: int, size: int) -> bool | None:
    """O1 worse in the worst case and more variable than O4 over the permutations of one system and size."""
    found = [cases[(nodes, p, size)] for p in PERMUTATIONS if (nodes, p, size) in cases]
    if len(found) < 2:
        return None

    def worst(v: str) -> tuple[float, float]:
        return min(b[v][0] for b in found), min(b[v][1] for b in found)

    def spread(v: str) -> tuple[float, float]:
        return max(0.0, max(b[v][0] for b in found) - min(b[v][1] for b in found)), max(b[v][1] for b in found) - min(b[v][0] for b in found)

    return _both(_gt(worst("O4"), worst("O1")), _gt(spread("O1"), spread("O4")))


def _tally(verdicts: list[bool | None]) -> tuple[int, int, int]:
    return sum(v is True for v in verdicts), sum(v is False for v in verdicts), sum(v is None for v in verdicts)


def _grid_plot(results: pd.DataFrame, out: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    peaks = peak_throughput(results, ["nodes", "pattern", "message_bytes", "variant"]).reset_index()
    fig, axes = plt.subplots(2, 4, figsize=(16, 7), sharey=True)
    for row, nodes in enumerate((16, 128)):
        for col, pattern in enumerate(GRID_PATTERNS):
            ax = axes[row][col]
            sub = peaks[(peaks["nodes"] == nodes) & (peaks["pattern"] == pattern)]
            for variant, group in sub.groupby("variant", sort=False):
                ax.plot(group["message_bytes"], group["accepted_load"], marker="o", label=variant)
            ax.set_xscale("log", base=2)
            ax.set_title(f"{nodes} nodes, {pattern}", fontsize=9)
            ax.set_ylim(0, 1.05)
    axes[0][0].set_ylabel("peak throughput")
    axes[1][0].set_ylabel("peak throughput")
    for ax in axes[1]:
        ax.set_xlabel("message bytes")
    axes[0][3].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(out / "grid_peak_throughput.png", dpi=110)
    plt.close(fig)


EXPERIMENTS = [
    Experiment(
        id="banikazemi-fig5",
        study=STUDY,
        figure="Fig. 5",
        title="latency vs load, O1 / O4 / adaptive (LRU), 16 nodes, bit-reversal",
        points=lambda quick: _points(16, "bit_reversal", ["O1", "O4", "LRU"], [1024], quick, sorted({*FULL_LOADS, *FIG5_FINE_LOADS})),
        claims=_fig5_claims,
        plot=_fig5_plot,
        quick_note=_quick_note(16),
        quick_runs_full=True,
        readings=READINGS,
    ),
    _figure("banikazemi-fig6", "Fig. 6", 16, "uniform", _fig6_claims, "peak throughput by selection function, 16 nodes, random traffic"),
    _figure("banikazemi-fig7", "Fig. 7", 16, "bit_reversal", _fig7_claims, "peak throughput by selection function, 16 nodes, bit-reversal"),
    _figure("banikazemi-fig8", "Fig. 8", 128, "uniform", _fig8_claims, "peak throughput by selection function, 128 nodes, random traffic"),
    _figure("banikazemi-fig9", "Fig. 9", 128, "bit_reversal", _fig9_claims, "peak throughput by selection function, 128 nodes, bit-reversal"),
    Experiment(
        id="banikazemi-grid",
        study=STUDY,
        figure="§5.1 evaluation grid",
        title="6 sizes x 2 systems x 7 routings x 4 patterns x 10 loads",
        points=_grid_points,
        claims=_grid_claims,
        plot=_grid_plot,
        quick_note="a smoke test: sizes 128 and 4096 B, load 1.0 only, short windows; its claims are not judged",
        curve=CURVE,
        readings=READINGS,
    ),
]
