"""Our experiment ``dragonfly-routing``, after Kim, Dally, Scott and Abts, "Technology-Driven,
Highly-Scalable Dragonfly Topology" (ISCA 2008, §4: minimal, Valiant, UGAL-L and UGAL-G routing;
docs/models/dragonfly.md).

Networks: the 72-node dragonfly (p = h = 2, a = 4, g = 9) and the 1,056-node one (p = h = 4, a = 8, g = 33),
absolute global link arrangement. Routers: input-buffered, wormhole, one virtual channel per hop class as in
BookSim 2's dragonfly (minimal 2 VCs, Valiant, UGAL-L and UGAL-G 3), 16-flit VC buffers, 8-flit packets. Traffic:
uniform and the worst case (every node of group i sends to random nodes of group i + 1), open loop, offered
loads 0.02 … 1.0, each curve's peak then bisected between its last sustained and first saturated load
(peak_loads.py). Measured: accepted load (its peak over the loads is the curve's throughput) and latency.

The claims are the classic results the paper and the field state in words (the paper's evaluation section
could not be read here, so no number of its figures is cited), each one row in the vocabulary of verdicts
(docs/experiments.md, "Verdicts"; "Dragonfly routing" argues each reading): under uniform traffic UGAL-L
performs like minimal and Valiant halves the throughput; under the worst case minimal is limited by the one
global channel between two groups, 1/(a·p) of the injection bandwidth, Valiant holds half, and UGAL-L goes
the Valiant way; and the abstract's own sentence, that UGAL-L's indirect decision degrades it, against UGAL-G,
the ideal that knows every queue. "Half" is read against minimal's uniform throughput — the network's capacity with this
router — not the raw injection bandwidth, which no routing of a one-iteration separable allocator reaches.
Each statement is one claim, checked on both networks.

Quick mode runs the 72-node network's points exactly as the full run does (the same scenarios, the same
refinement): its peaks are the full run's, so a claim's 72-node check judges as in the full run, and a
claim is judged in quick mode where that check alone decides it (where it deviates).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from flitcast.experiments.claim import LOAD, Claim, Results, Spread
from flitcast.experiments.experiment import Experiment, Point, Reading, series_style
from flitcast.experiments.verdicts import Axis, Measured, Verdict, every, lower, near, ratio, similar

if TYPE_CHECKING:
    import pandas as pd

    from flitcast.config import Scenario

STUDY = "kim2008 Kim, Dally, Scott, Abts (dragonfly topology and its routing)"

#: network label -> (p, a, h); g = a·h + 1
NETWORKS: dict[str, tuple[int, int, int]] = {"72 nodes": (2, 4, 2), "1,056 nodes": (4, 8, 4)}
PATTERNS = {"uniform": "uniform", "worst case": "dragonfly_worst_case"}
#: routing -> its virtual channels: one per hop class (docs/models/dragonfly.md, "Virtual-channel classes")
ROUTINGS = {"minimal": 2, "valiant": 3, "ugal_l": 3, "ugal_g": 3}
LOADS = [0.02, 0.05, *(round(0.1 + 0.05 * i, 2) for i in range(19))]
BUFFER_FLITS = 16
PACKET_FLITS = 8
WARMUP, MEASURE = 3_000, 20_000
#: the labels of one curve: its peak is refined between the loads run (peak_loads.py)
CURVE = ("network", "pattern", "routing")
#: where the statements come from: the paper's routing results as the field restates them (its routing
#: evaluation could not be read here; the source's description in the report says so once)
CLASSIC = "its routing results, as the field restates them"
ABSTRACT = "the paper's abstract"


def scenario(network: str, pattern: str, routing: str, load: float) -> Scenario:
    """One point: open-loop traffic on a dragonfly."""
    from flitcast.config import Scenario  # (here: listing the experiments needs no pydantic)

    p, a, h = NETWORKS[network]
    return Scenario.model_validate(
        {
            "network": {"topology": "dragonfly", "p": p, "a": a, "h": h, "arrangement": "absolute"},
            "switch": {"model": "input_buffered", "flow_control": "wormhole", "vcs": ROUTINGS[routing], "buffer_flits": BUFFER_FLITS},
            "routing": {"algorithm": routing},
            "workload": {"program": "open_loop", "pattern": PATTERNS[pattern], "load": load, "packet_flits": PACKET_FLITS},
            "run": {"warmup_cycles": WARMUP, "measure_cycles": MEASURE, "seed": 1},
        }
    )


def _points(quick: bool) -> list[Point]:
    networks = ["72 nodes"] if quick else list(NETWORKS)
    return [
        Point({"network": n, "pattern": pat, "routing": r}, scenario(n, pat, r, load))
        for n in networks
        for pat in PATTERNS
        for r in ROUTINGS
        for load in LOADS
    ]


def bound_worst_case_minimal(network: str) -> float:
    """The worst case under minimal routing: a group's a·p nodes share one global channel, 1/(a·p)."""
    p, a, _ = NETWORKS[network]
    return 1 / (a * p)


# --- claims ----------------------------------------------------------------------------------------------

#: a throughput is a load: its natural range, 0–1 of the link rate (docs/experiments.md, "Verdicts")
THROUGHPUT = Axis("throughput (peak accepted load)", 0.0, 1.0, source="a load's range, 0–1 of the link rate")
#: "halves", "at half": a factor of a reference throughput of the same network, on its range 0–1
RATIO = Axis("throughput over minimal's under uniform traffic", 0.0, 1.0, source="a ratio of two throughputs of one network, 0–1")
#: "half" is the stated ½, read as a stated value to half its one digit (0.5 ± 0.05; docs/experiments.md,
#: "Verdicts": a stated value)
HALF, HALF_DIGIT = 0.5, 0.05

UNIFORM, WORST = "uniform", "worst case"


def _on_both(check: dict[str, Verdict], rule: str) -> Verdict:
    """One statement checked on both networks (a network the run has not got shows as not run)."""
    ours = "; ".join(f"{n}: {v.ours if v.margin is not None else 'not run'}" for n, v in check.items())
    return every(list(check.values()), ours, rule)


def claims(r: Results) -> list[Claim]:
    def peak(network: str, pattern: str, routing: str) -> Measured:
        return r.peak(network=network, pattern=pattern, routing=routing)

    def like(pattern: str, a: str, b: str) -> Verdict:
        return _on_both({n: similar(peak(n, pattern, a), peak(n, pattern, b), THROUGHPUT, f"{peak(n, pattern, a)} vs {peak(n, pattern, b)}") for n in NETWORKS}, "on both networks")

    def half(pattern: str) -> Verdict:
        checks = {}
        for n in NETWORKS:
            valiant, minimal = peak(n, pattern, "valiant"), peak(n, UNIFORM, "minimal")
            quotient = ratio(valiant, minimal)
            quotient = ratio(valiant, minimal, shown=f"{quotient.value:.2f}")
            checks[n] = near(quotient, HALF, RATIO, f"{valiant} / {minimal} = {quotient}", rounding=HALF_DIGIT)
        return _on_both(checks, "on both networks")

    degraded = _on_both({n: lower(peak(n, WORST, "ugal_l"), peak(n, WORST, "ugal_g"), THROUGHPUT, f"{peak(n, WORST, 'ugal_l')} vs {peak(n, WORST, 'ugal_g')}") for n in NETWORKS}, "on both networks")
    channel = _on_both({n: near(peak(n, WORST, "minimal"), bound_worst_case_minimal(n), THROUGHPUT, f"{peak(n, WORST, 'minimal')} vs 1/(a·p) = {bound_worst_case_minimal(n):.3f}") for n in NETWORKS}, "on both networks")
    return [
        Claim(
            "uniform: UGAL-L's throughput like minimal's",
            CLASSIC,
            "UGAL performs like minimal routing on uniform traffic",
            like(UNIFORM, "ugal_l", "minimal"),
            "'performs like' read as similar throughputs (peak accepted loads), within the visible 0.02 of a load's "
            "range, each peak as measured (±0.005 at a saturated point), the curve's loads refined to 0.00625 about it. Measured cause where it "
            "deviates: UGAL-L sends part of its uniform traffic the Valiant way — 2.84 mean hops at load 0.45 on 72 nodes "
            "against minimal's 2.34 and Valiant's 4.0, about 30% of its packets — and saturates earlier",
        ),
        Claim(
            "uniform: Valiant's throughput half of minimal's",
            CLASSIC,
            "Valiant routing halves the throughput of uniform traffic",
            half(UNIFORM),
            "'halves' names a factor: Valiant's throughput over minimal's near the stated ½, read to half its one "
            "digit (0.45–0.55). Valiant's two global hops halve what the global channels carry. Measured cause where it "
            "deviates (above half): minimal, on one VC per hop class, falls short of the channels' rate more than Valiant "
            "does — at offered load 1.0 on 72 nodes the busiest channel runs at 0.62 of its rate under minimal, 0.68 "
            "under Valiant (channel_util_max): the routers, not the channels, limit both",
        ),
        Claim(
            "worst case: minimal's throughput the one global channel's share, 1/(a·p)",
            CLASSIC,
            "minimal routing of the worst case is limited by the one global channel between two groups",
            channel,
            "the a·p nodes of a group share the one global channel to the next group: minimal's throughput near "
            "1/(a·p) of the link rate (0.125 and 0.031), within the visible 0.02 of a load's range",
        ),
        Claim(
            "worst case: Valiant's throughput half of minimal's under uniform traffic",
            CLASSIC,
            "Valiant routing load-balances the worst case at half the throughput",
            half(WORST),
            "'at half the throughput' names a factor of the network's capacity, read as minimal's uniform throughput "
            "(this router's capacity; the injection bandwidth no routing reaches here): the ratio near ½, to half "
            "its one digit (0.45–0.55). Measured cause where it deviates (above half): no channel is full under Valiant's "
            "worst case (busiest 0.81 of its rate at offered load 1.0 on 72 nodes) nor under minimal's uniform traffic "
            "(0.62): the routers limit both, minimal more",
        ),
        Claim(
            "worst case: UGAL-L's throughput like Valiant's",
            CLASSIC,
            "UGAL sends the worst case the Valiant way",
            like(WORST, "ugal_l", "valiant"),
            "read through its result: UGAL-L's worst-case throughput similar to Valiant's, within the visible 0.02 "
            "of a load's range; the paper's abstract says UGAL-L's indirect decision degrades it against the ideal UGAL-G "
            "(the next claim)",
        ),
        Claim(
            "worst case: UGAL-L's throughput below UGAL-G's",
            ABSTRACT,
            "Because of the indirect nature of this routing decision, conventional adaptive routing algorithms give degraded performance",
            degraded,
            "'degraded' against the ideal the abstract names, UGAL-G (every queue known): UGAL-L's throughput lower than "
            "UGAL-G's, beyond the visible 0.02 of a load's range, under the worst case — the traffic whose decision is about "
            "a global channel at another router, which is the 'indirect nature' the sentence gives as the cause (under "
            "uniform traffic the minimal path is right wherever it is decided)",
        ),
    ]


# --- plots -----------------------------------------------------------------------------------------------

LABELS = {"minimal": "minimal", "valiant": "Valiant", "ugal_l": "UGAL-L", "ugal_g": "UGAL-G"}


EXPERIMENT_ID = "dragonfly-routing"


def plot(results: pd.DataFrame, out: Path) -> None:
    """One PNG per network and traffic: accepted load (left) and latency (right) against the offered load."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from flitcast.experiments.study_marks import finish_panel
    from flitcast.plot import draw_latency, latency_legend
    from flitcast.saturation import saturated

    for network in results["network"].unique():
        for pattern in PATTERNS:
            data = results[(results["network"] == network) & (results["pattern"] == pattern)]
            if not len(data):
                continue
            fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
            for i, routing in enumerate(ROUTINGS):
                curve = data[data["routing"] == routing].sort_values(LOAD)
                style = series_style(i)
                left.plot(curve[LOAD], curve["accepted_load"], label=LABELS[routing], **style)
                past = saturated(curve)
                draw_latency(right, curve[LOAD], curve["latency_mean"], past, label="_nolegend_", **style)  # (the routings: the left legend)
            if pattern == "worst case":
                bound = bound_worst_case_minimal(str(network))
                left.axhline(bound, color="grey", linestyle=":", linewidth=1, label=f"1/(a·p) = {bound:.3f}")
            left.set_xlabel("offered load (flits/node/cycle)")
            left.set_ylabel("accepted load (flits/node/cycle)")
            left.legend(fontsize=8)
            right.set_yscale("log")
            right.set_xlabel("offered load (flits/node/cycle)")
            right.set_ylabel("mean latency (cycles)")
            latency_legend(right, fontsize=8, loc="lower right")
            left.set_title("accepted load", fontsize=9)
            right.set_title("latency", fontsize=9)
            for ax in (left, right):
                ax.grid(True, which="major", alpha=0.3)
            fig.suptitle(f"dragonfly, {network}, {pattern} traffic", fontsize=10)
            finish_panel(right, EXPERIMENT_ID, _stem(str(network), pattern))
            fig.tight_layout()
            fig.savefig(out / f"{_stem(str(network), pattern)}.png", dpi=110)
            plt.close(fig)


def _stem(network: str, pattern: str) -> str:
    nodes = network.split()[0].replace(",", "")
    return f"{pattern.replace(' ', '_')}_{nodes}"


#: the router options of today's networks first (channel lengths, VC allocation), UGAL-G's queue, then the
#: buffers, the draw and the VCs
READINGS = (
    Reading(
        "long-channels",
        "local channels of 10 cycles and global ones of 100, with 256-flit VC buffers to cover a global channel's "
        "credit round trip, as BookSim 2's dragonfly; default every channel 1 cycle, 16-flit buffers. The paper's "
        "channel latencies could not be read here; its remedies for UGAL-L (credit round-trip latency) are about "
        "long global channels",
        {"network.channel_latency_cycles": 10, "network.global_latency_cycles": 100, "switch.buffer_flits": 256},
    ),
    Reading(
        "separate-vc-allocation",
        "a virtual-channel allocation stage of its own before switch allocation, as BookSim 2's input-queued router "
        "(switch.vc_allocation = separate, one cycle more per router); default combined, one router delay "
        "(docs/models/input_buffered.md)",
        {"switch.vc_allocation": "separate"},
    ),
    Reading(
        "ugal-g-downstream",
        "UGAL-G reads a global channel's queue as the flits waiting in the next router's buffers alone (the queue "
        "UGAL-L reads of its own outputs, at most the channel's VC buffers: routing.global_queue = downstream); "
        "default its whole queue, those and the flits waiting for the channel in its router's input buffers, as an "
        "ideal that knows every queue (docs/models/dragonfly.md)",
        lambda point: {"routing.global_queue": "downstream"} if point.labels["routing"] == "ugal_g" else {},
    ),
    Reading(
        "deep-buffers",
        "VC buffers of 256 flits, as BookSim 2's dragonfly (its global channels are 100 cycles long); default 16 flits, "
        "as our other networks. The paper's buffer depth could not be read here",
        {"switch.buffer_flits": 256},
    ),
    Reading(
        "valiant-all-groups",
        "Valiant draws its intermediate group among all g groups, an end group meaning the minimal route (Valiant & "
        "Brebner's draw over all nodes; BookSim 2); default among the g − 2 others, as the paper's 'randomly selected "
        "intermediate group' reads (docs/models/dragonfly.md). The worst case's bound for Valiant is (g − 2)/(2·a·p) "
        "by default and g/(2·a·p) under this reading",
        lambda point: {"routing.intermediate_groups": "all"} if point.labels["routing"] == "valiant" else {},
    ),
    Reading(
        "three-vcs",
        "3 VCs for every routing (minimal's two classes get 1 and 2); default one VC per hop class (minimal 2, Valiant, "
        "UGAL-L and UGAL-G 3), as BookSim 2's dragonfly",
        {"switch.vcs": 3},
    ),
)

EXPERIMENTS = [
    Experiment(
        id=EXPERIMENT_ID,
        study=STUDY,
        figure="routing on the dragonfly",
        title="minimal, Valiant, UGAL-L and UGAL-G on the 72- and 1,056-node dragonflies, uniform and worst-case traffic",
        points=_points,
        claims=claims,
        plot=plot,
        quick_note="the 72-node network only, exactly as in the full run: a claim is judged where its 72-node check decides it",
        curve=CURVE,
        every_load=True,
        # the quick points are the full run's own (deterministic): their peaks are exact
        quick_resolution={"peak": Spread()},
        readings=READINGS,
    )
]
