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
)

FULL_RUN = {"warmup_cycles": 100_000, "measure_cycles": 1_000_000, "drain_max_cycles": 100_000}
FULL_LOADS = [round(0.1 * i, 1) for i in range(1, 11)]
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

#: tolerance on the study's stated peak throughputs (absolute, as a fraction of the link rate)
TOLERANCE = 0.10


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


def _bar_panel(results: pd.DataFrame, size: int, title: str, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    peaks = _peaks(results, size)
    names = [n for n in BARS if n in peaks]
    fig, ax = plt.subplots(figsize=(6, 4))
    bars = ax.bar(names, [peaks[n] for n in names], color=["#999999" if n == "O4" else "#3b6ea8" for n in names])
    ax.bar_label(bars, fmt="%.2f", fontsize=8)
    ax.set_ylim(0, 1.05)
    ax.set_ylabel("peak throughput (fraction of link rate)")
    ax.set_title(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def _bars(fig: str, nodes: int, pattern: str) -> Any:
    def plot(results: pd.DataFrame, out: Path) -> None:
        for panel, size in (("a", 128), ("b", 4096)):
            _bar_panel(results, size, f"{fig}({panel}): {nodes} nodes, {pattern}, {size}-byte messages", out / f"{fig.lower().replace('. ', '')}{panel}.png")

    return plot


def _fig5_plot(results: pd.DataFrame, out: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 4))
    for variant, group in results.groupby("variant", sort=False):
        ok = group[~group["saturated"]]
        ax.plot(ok["workload.load"], ok["latency_mean"], marker="o", label=variant)
    ax.set_yscale("log")
    ax.set_xlabel("applied load (fraction of link rate)")
    ax.set_ylabel("average message latency (cycles)")
    ax.set_title("Fig. 5: 16 nodes, bit-reversal, 1 KB messages (not shown after saturation)", fontsize=9)
    ax.legend()
    fig.tight_layout()
    fig.savefig(out / "fig5.png", dpi=120)
    plt.close(fig)


# --- claims ----------------------------------------------------------------------------------------------


def _saturation_load(results: pd.DataFrame, variant: str) -> float:
    group = results[results["variant"] == variant]
    saturated = group[group["saturated"]]["workload.load"]
    return float(saturated.min()) if len(saturated) else float("inf")


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
            sat["O1"] <= min(sat["O4"], sat["LRU"]) and peaks["O1"] < min(peaks["O4"], peaks["LRU"]),
            "message size not stated in the study: 1 KB assumed; adaptive = LRU (Switch2's function)",
            min(_above(others_sat, min(sat["O1"], 1.1)), _above(min(peaks["O4"], peaks["LRU"]), peaks["O1"])),
            ("first saturated load", _peak(1024)),
        ),
        _o4_before_adaptive(results, sat, peaks),
    ]


def _o4_before_adaptive(results: pd.DataFrame, sat: dict[str, float], peaks: dict[str, float]) -> Claim:
    """Fig. 5: O4 saturates before adaptive — at a lower load, or (same first saturated load on our load
    grid) with clearly higher latency just below it."""
    table = results.pivot_table(index="workload.load", columns="variant", values="latency_mean")
    unsaturated = results[~results["saturated"]].groupby("variant")["workload.load"].max()
    common = min(unsaturated.get("O4", 0.0), unsaturated.get("LRU", 0.0))
    ratio = table.loc[common, "O4"] / table.loc[common, "LRU"] if common > 0 else float("nan")
    earlier = sat["O4"] < sat["LRU"] or (sat["O4"] == sat["LRU"] and ratio >= 1.10)
    return Claim(
        "with four-route oblivious the network saturates earlier than with adaptive routing",
        "O4 before adaptive",
        f"first saturated load O4 {sat['O4']:g}, adaptive {sat['LRU']:g}; at load {common:g} O4 latency "
        f"{ratio:.2f}x adaptive; peaks O4 {fmt(peaks['O4'])}, adaptive {fmt(peaks['LRU'])}",
        bool(earlier),
        "holds if O4 saturates at a lower load, or at the same one with at least 10% higher latency at the "
        "highest load both sustain",
        # no margin: the verdict can rest on a latency ratio, which is not a distance in throughput
    )


def _fig6_claims(results: pd.DataFrame) -> list[Claim]:
    a, b = _peaks(results, 128), _peaks(results, 4096)
    spread_a, range_a = _spread(a, BARS)
    spread_b, range_b = _spread(b, ADAPTIVE)
    best_other = max(b[n] for n in ADAPTIVE if n != "LRUD")
    lead = b["LRUD"] - best_other
    return [
        Claim("(a) 128 B: all algorithms perform more or less the same", "all about equal", f"O4 and adaptive: {range_a}", spread_a <= 0.10, "holds if the spread is at most 0.10", _spread_within(spread_a, 0.10), (_peak(128),)),
        Claim("(b) 4096 B: all adaptive algorithms perform the same", "all adaptive equal", f"adaptive: {range_b}", spread_b <= 0.05, "holds if the spread is at most 0.05", _spread_within(spread_b, 0.05), (_peak(4096),)),
        Claim(
            "(b) 4096 B: LRUD outperforms the others negligibly",
            "LRUD best by a negligible margin",
            f"LRUD {fmt(b['LRUD'])}, best other adaptive {fmt(best_other)}",
            lead >= -0.02 and lead <= 0.05,
            "holds if LRUD is within 0.02 below to 0.05 above the best other",
            min(_above(lead, -0.02), _above(0.05, lead)),
            (_peak(4096),),
        ),
        Claim(
            "(b) 4096 B: all adaptive algorithms perform better than the oblivious one",
            "every adaptive > O4",
            f"O4 {fmt(b['O4'])}, adaptive min {fmt(min(b[n] for n in ADAPTIVE))}",
            min(b[n] for n in ADAPTIVE) > b["O4"],
            "",
            _above(min(b[n] for n in ADAPTIVE), b["O4"]),
            (_peak(4096),),
        ),
    ]


def _fig7_claims(results: pd.DataFrame) -> list[Claim]:
    a, b = _peaks(results, 128), _peaks(results, 4096)
    claims = [
        _near("(b) 4096 B: MRU peak throughput", 0.75, b["MRU"], 4096),
        *[_near(f"(b) 4096 B: {n} peak throughput", 0.99, b[n], 4096) for n in ("LRU", "LRUC", "LRUD")],
        _near("(b) 4096 B: RND peak throughput", 0.92, b["RND"], 4096),
        Claim(
            "(b) 4096 B: MRU performs poorly, RND slightly worse than LRU",
            "MRU < RND < LRU",
            _order(b, ["MRU", "RND", "LRU"]),
            b["MRU"] < b["RND"] < b["LRU"],
            "",
            min(_above(b["RND"], b["MRU"]), _above(b["LRU"], b["RND"])),
            (_peak(4096),),
        ),
    ]
    for panel, peaks, size in (("(a) 128 B", a, 128), ("(b) 4096 B", b, 4096)):
        low = min(ADAPTIVE, key=lambda n: peaks[n])
        claims.append(
            Claim(f"{panel}: MRU performs poorly across the board", "MRU lowest adaptive", f"lowest: {low} ({_order(peaks, ADAPTIVE)})", peaks["MRU"] <= min(peaks[n] for n in ADAPTIVE) + 0.01, "±0.01", _mru_lowest(peaks), (_peak(size),))
        )
    return claims


def _mru_lowest(peaks: dict[str, float]) -> float:
    """Margin of "MRU is the lowest adaptive function" within ±0.01: MRU ≤ every other + 0.01."""
    return _above(min(peaks[n] for n in ADAPTIVE if n != "MRU") + 0.01, peaks["MRU"])


def _fig8a_note(peaks: dict[str, float], spread: float) -> str:
    note = "holds if the spread is at most 0.05"
    if spread > 0.05 and min(ADAPTIVE, key=lambda n: peaks[n]) == "RR":
        note += "; RR lowest: forced hops reset its RRID (routing.selection_history, docs/experiments.md Fig. 8)"
    return note


def _fig8_claims(results: pd.DataFrame) -> list[Claim]:
    a, b = _peaks(results, 128), _peaks(results, 4096)
    spread_a, range_a = _spread(a, ADAPTIVE)
    worse = max(b["MRU"], b["LRUC"])
    rest = min(b[n] for n in ("LRU", "RND", "RR", "LRUD"))
    return [
        Claim("(a) 128 B: all selection functions perform the same", "all equal", f"adaptive: {range_a}", spread_a <= 0.05, _fig8a_note(a, spread_a), _spread_within(spread_a, 0.05), (_peak(128),)),
        *[
            Claim(
                f"{panel}: adaptive routing outperforms oblivious routing",
                "every adaptive > O4",
                f"O4 {fmt(p['O4'])}, adaptive min {fmt(min(p[n] for n in ADAPTIVE))}",
                min(p[n] for n in ADAPTIVE) > p["O4"],
                "",
                _above(min(p[n] for n in ADAPTIVE), p["O4"]),
                (_peak(size),),
            )
            for panel, p, size in (("(a) 128 B", a, 128), ("(b) 4096 B", b, 4096))
        ],
        Claim(
            "(b) 4096 B: MRU and LRUC perform slightly worse than the other adaptive functions",
            "MRU, LRUC < LRU, RND, RR, LRUD",
            f"MRU {fmt(b['MRU'])}, LRUC {fmt(b['LRUC'])}; others min {fmt(rest)}",
            worse < rest,
            "",
            _above(rest, worse),
            (_peak(4096),),
        ),
    ]


def _fig9_claims(results: pd.DataFrame) -> list[Claim]:
    a, b = _peaks(results, 128), _peaks(results, 4096)
    best_a = min(a["LRU"], a["LRUD"])
    rest_a = max(a[n] for n in ("RND", "RR", "LRUC"))
    gains = {panel: max(p[n] for n in ADAPTIVE) / p["O4"] - 1 for panel, p in (("a", a), ("b", b))}
    best_gain = max(gains.values())
    rest_best = max(a[n] for n in ADAPTIVE if n not in ("LRU", "LRUD"))
    gap = best_a - rest_a
    # a ratio x / y − 1 > r is x − (1 + r)·y > 0, which moves by (2 + r)·δ when x and y each move by δ
    lru_over_lruc = (b["LRU"] - 1.30 * b["LRUC"]) / 2.30
    gain_margin = max((max(p[n] for n in ADAPTIVE) - 3.29 * p["O4"]) / 4.29 for p in (a, b))
    return [
        Claim("(a) 128 B: LRU and LRUD outperform the rest", "LRU, LRUD best", _order(a, ADAPTIVE), best_a >= rest_best - 0.01, "±0.01", _above(best_a + 0.01, rest_best), (_peak(128),)),
        Claim(
            "(a) 128 B: RND, RR and LRUC are marginally worse than LRU and LRUD",
            "marginally worse",
            f"RND/RR/LRUC best {fmt(rest_a)} vs LRU/LRUD worst {fmt(best_a)}",
            0 <= gap + 0.01 and gap <= 0.10,
            "holds if 0 to 0.10 below (±0.01)",
            min(_above(gap, -0.01), _above(0.10, gap)),
            (_peak(128),),
        ),
        Claim("(a) 128 B: MRU performs poorly", "MRU lowest adaptive", f"MRU {fmt(a['MRU'])}", a["MRU"] <= min(a[n] for n in ADAPTIVE) + 0.01, "±0.01", _mru_lowest(a), (_peak(128),)),
        _near("(b) 4096 B: MRU peak throughput", 0.55, b["MRU"], 4096),
        _near("(b) 4096 B: LRUC peak throughput", 0.54, b["LRUC"], 4096),
        Claim("(b) 4096 B: using LRU instead of LRUC increases peak throughput by more than 30%", "> +30%", f"{100 * (b['LRU'] / b['LRUC'] - 1):+.0f}%", b["LRU"] / b["LRUC"] - 1 > 0.30, "", lru_over_lruc, (_peak(4096),)),
        Claim(
            "adaptive instead of four-route oblivious: up to / more than 229% higher peak throughput",
            "+229%",
            f"best adaptive vs O4: (a) {100 * gains['a']:+.0f}%, (b) {100 * gains['b']:+.0f}%",
            best_gain >= 2.29,
            "holds if the larger of the two panels' gains reaches +229%; message size of the study's number not stated",
            gain_margin,
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
GRID_VARIANTS = ["O4", *ADAPTIVE]


def _grid_points(quick: bool) -> list[Point]:
    sizes = [128, 4096] if quick else GRID_SIZES
    loads = [1.0] if quick else FULL_LOADS
    run = GRID_QUICK_RUN if quick else FULL_RUN
    return [p for nodes in (16, 128) for pattern in GRID_PATTERNS for p in _points(nodes, pattern, GRID_VARIANTS, sizes, quick, loads, run)]


def _grid_claims(results: pd.DataFrame) -> list[Claim]:
    peaks = peak_throughput(results, ["nodes", "pattern", "message_bytes", "variant"]).unstack("variant")
    cases = len(peaks)
    mru_last = int((peaks[ADAPTIVE].idxmin(axis=1) == "MRU").sum())
    good = peaks[["LRU", "LRUD", "RR"]].mean(axis=1)
    poor = peaks[["MRU", "RND", "LRUC"]].mean(axis=1)
    good_wins = int((good >= poor).sum())
    o4_not_better = int((peaks["O4"] <= peaks[ADAPTIVE].max(axis=1) + 0.02).sum())
    # no margin: the verdicts count cases, and the quick grid runs 16 of the 48 (never judged in quick mode)
    return [
        Claim("MRU performs poorly across the board", "MRU lowest adaptive", f"lowest in {mru_last} of {cases} cases", mru_last >= 0.75 * cases, "holds in at least 75% of (system, pattern, size) cases"),
        Claim("LRU, LRUD and RR perform better than MRU, RND and LRUC", "better", f"in {good_wins} of {cases} cases (means)", good_wins >= 0.75 * cases, "holds in at least 75% of cases"),
        Claim("no oblivious routing scheme performs significantly better than adaptive routing", "O4 never significantly better", f"O4 within 0.02 of the best adaptive or below in {o4_not_better} of {cases} cases", o4_not_better == cases, ""),
    ]


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
        points=lambda quick: _points(16, "bit_reversal", ["O1", "O4", "LRU"], [1024], quick),
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
