"""Our experiment ``collectives``, after Thakur, Rabenseifner and Gropp (collective operations in MPICH,
IJHPCA 2005): broadcast and allreduce completion against message size (8 B – 1 MB) on three 1,024-node
networks, software algorithms against hardware multicast, each beside its α-β-γ estimate.

System (docs/models/collectives.md): one collective over 1,024 members at cycle 0 (``load = 0``), on a
4-ary 5-tree of central-buffer switches (adaptive source routing, LRU selection), a 32×32 torus of
input-buffered routers (dimension order with dateline VC classes) and the 1,056-node dragonfly p = h = 4,
a = 8 (its first 1,024 nodes as members) under minimal routing — the three networks the claims read — and
the same dragonfly under UGAL-L and Valiant routing, options of the grid whose results are our finding,
not claims. Flits are 16 bytes, so a size under a flit is
one flit (its envelope), and a message is cut into packets of at most 4 KB (256 flits). Every host pays
o_s = o_r = 50 cycles per message and γ = 0.25 cycles per flit it reduces (docs/experiments.md, "Experiments of our own").

The paper states which algorithm MPICH uses for which message size; those are the claims, one row each in
the vocabulary of verdicts (docs/experiments.md, "Verdicts"), judged on the simulated completion
(``completion_cycles``) at the sizes each sentence names, on every network, with the estimate's ratio
beside. MPICH's broadcast for long messages is scatter + allgather by recursive doubling (P a power of two)
up to 512 KB and scatter + ring allgather from 512 KB (MPICH's selection, MPIR_CVAR_BCAST_LONG_MSG_SIZE):
the long-message claim reads MPICH's variant at each size, and a claim of its own reads the ring's. A sixth claim, that the fat tree's hardware broadcast beats the binomial tree, is study 000's, and
says so. What contention costs
(completion / estimate, ``contention`` in results.csv) is our finding, in the docs, not a claim.

Quick mode runs the sizes 8 B – 8 KB, the very points of the full run (deterministic: the same results),
and judges the claims those sizes decide: the short-message ones, and any other one they show to deviate.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flitcast.experiments.claim import DATA, Claim, Results, Spread
from flitcast.experiments.experiment import Experiment, Point, series_style
from flitcast.experiments.verdicts import SIGNIFICANT, Axis, Measured, Verdict, bracket, every, lower, much_lower, near

if TYPE_CHECKING:
    import pandas as pd

    from flitcast.config import Scenario

STUDY = "thakur2005 Thakur, Rabenseifner, Gropp (collective operations in MPICH)"
DATA_ID = "thakur2005"

#: 16-byte flits: a link moves 16 B a cycle (a 128-bit datapath); 8 B is then one flit, 1 MB 65,536
FLIT_BYTES = 16
#: 4 KB packets (InfiniBand's largest MTU): 256 flits, so a hardware worm's 8-flit destination string
#: (1,024 bits) adds 3%, and a replicated packet fits the central buffer's 2,048 flits with room to spare
MAX_PACKET_BYTES = 4096
#: 8 B, 32 B, … 512 KB (every factor of 4), 12 KB and 1 MB: MPICH's switch points 2 KB, 12 KB and 512 KB
#: are sizes of the grid, so a claim reads each side of a switch (docs/experiments.md, "Collectives")
SIZES = sorted([8 * 4**i for i in range(9)] + [12 * 1024, 2**20])
QUICK_SIZES = [8, 32, 128, 512, 2048, 8192]
#: host costs (docs/experiments.md, "Collectives": α/β near the paper's clusters', so the α-β-γ
#: switch point of the allreduce falls near MPICH's 2 KB)
SEND_OVERHEAD = 50
RECEIVE_OVERHEAD = 50
REDUCE_CYCLES_PER_FLIT = 0.25
MEMBERS = 1024

#: network label -> (network, switch, routing) sections
NETWORKS: dict[str, tuple[dict[str, Any], dict[str, Any], dict[str, Any]]] = {
    "fat tree": ({"topology": "fat_tree", "k": 4, "n": 5}, {"model": "central_buffer"}, {"algorithm": "adaptive", "selection": "lru"}),
    "torus": ({"topology": "torus", "k": 32, "n": 2}, {"model": "input_buffered", "vcs": 2}, {"algorithm": "dor"}),
    "dragonfly": ({"topology": "dragonfly", "p": 4, "h": 4, "a": 8}, {"model": "input_buffered", "vcs": 2}, {"algorithm": "minimal"}),
}
#: the networks the claims read ("on every network"): each of the three topologies under its routing above
CLAIMED = tuple(NETWORKS)
#: options of the grid: the dragonfly under its non-minimal routings (docs/models/dragonfly.md), one VC per
#: hop class (3), as the dragonfly-routing experiment runs them; our finding, not read by the claims
DRAGONFLY_ROUTINGS = {"UGAL-L": "ugal_l", "Valiant": "valiant"}
for _name, _routing in DRAGONFLY_ROUTINGS.items():
    NETWORKS[f"dragonfly {_name}"] = (NETWORKS["dragonfly"][0], {"model": "input_buffered", "vcs": 3}, {"algorithm": _routing})
#: how a panel's title names each network
TITLES = {
    "fat tree": "4-ary 5-tree, central-buffer switches, adaptive routing",
    "torus": "32×32 torus, dimension order",
    "dragonfly": "dragonfly p = h = 4, a = 8, minimal routing",
    **{f"dragonfly {name}": f"dragonfly p = h = 4, a = 8, {name} routing" for name in DRAGONFLY_ROUTINGS},
}
#: operation -> its algorithms (``workload.scheme``); ``hardware`` only where switches replicate worms
ALGORITHMS: dict[str, tuple[str, ...]] = {
    "broadcast": ("binomial", "chain", "scatter_allgather", "scatter_ring_allgather", "hardware"),
    "allreduce": ("recursive_doubling", "rabenseifner", "ring", "hardware"),
}
#: the only network here whose switches replicate a multidestination worm (the torus's and the
#: dragonfly's routers have no replicating model; docs/models/collectives.md)
HARDWARE_NETWORKS = ("fat tree",)


def scenario(network: str, operation: str, algorithm: str, message_bytes: int) -> Scenario:
    """One point: one collective over the first 1,024 nodes at cycle 0."""
    from flitcast.config import Scenario  # (here: listing the experiments needs no pydantic)

    topology, switch, routing = NETWORKS[network]
    return Scenario.model_validate(
        {
            "network": topology,
            "switch": switch,
            "routing": routing,
            "workload": {
                "program": "collective",
                "operation": operation,
                "scheme": algorithm,
                "load": 0.0,
                "group_size": MEMBERS,
                "members": "first",
                "message_bytes": message_bytes,
                "flit_bytes": FLIT_BYTES,
                "max_packet_bytes": MAX_PACKET_BYTES,
                "send_overhead_cycles": SEND_OVERHEAD,
                "receive_overhead_cycles": RECEIVE_OVERHEAD,
                "reduce_cycles_per_flit": REDUCE_CYCLES_PER_FLIT,
            },
            "run": {"warmup_cycles": 0, "measure_cycles": 2, "batches": 2, "drain_max_cycles": 100_000_000},
        }
    )


def combinations() -> list[tuple[str, str, str]]:
    """Every (network, operation, algorithm) the experiment runs."""
    return [
        (network, operation, algorithm)
        for network in NETWORKS
        for operation, algorithms in ALGORITHMS.items()
        for algorithm in algorithms
        if algorithm != "hardware" or network in HARDWARE_NETWORKS
    ]


def points(quick: bool) -> list[Point]:
    return [
        Point({"network": network, "operation": operation, "algorithm": algorithm, "message_bytes": size}, scenario(network, operation, algorithm, size))
        for network, operation, algorithm in combinations()
        for size in (QUICK_SIZES if quick else SIZES)
    ]


def _derive(results: pd.DataFrame) -> pd.DataFrame:
    """results.csv carries what contention cost: simulated completion / α-β-γ estimate (empty where the
    collective did not complete)."""
    if "estimate_cycles" not in results:  # (a table of another program's points: nothing to divide by)
        return results
    from flitcast.plot import contention

    return results.assign(contention=contention(results))


# --- the paper's numbers ------------------------------------------------------------------------------


def stated(name: str) -> float:
    """A number the paper states, from its data file (study_data/thakur2005.toml): a switch point is where
    on the panels' size axis it lies (``x``)."""
    from flitcast.studies import value

    stated_value = value(DATA_ID, name)
    return stated_value.x_number if stated_value.x is not None else stated_value.number


# --- claims ---------------------------------------------------------------------------------------------

#: the panels' size axis (log, 8 B – 1 MB): a switch point is read on it
SIZE_AXIS = Axis("message size (bytes)", min(SIZES), max(SIZES), log=True, source="our panels' axis, 8 B – 1 MB")
#: the panels' completion axis: one log axis, 10^2 – 10^8 cycles, in every panel and in the quick run as in
#: the full run (the six panels compare at a glance, and a quick run judges on the full run's axis); it holds
#: every completion and estimate of the full run (docs/experiments.md, "Collectives")
COMPLETION = Axis("completion (cycles)", 1e2, 1e8, log=True, source="our panels' common axis")
#: study 000's "much lower" gives no factor: the vocabulary's (docs/experiments.md, "Verdicts")
MUCH = SIGNIFICANT


def _bytes(size: float) -> str:
    size = int(size)
    if size >= 2**20 and size % 2**20 == 0:
        return f"{size // 2**20} MB"
    if size >= 1024 and size % 1024 == 0:
        return f"{size // 1024} KB"
    return f"{size} B"


def _visible(axis: Axis) -> str:
    return f"×{math.exp(axis.visible):.2f}"


def _time(r: Results, network: str, operation: str, algorithm: str, size: int, column: str = "completion_cycles") -> Measured:
    """One collective's completion (or its estimate): exact, deterministic for its seed; unknown where the
    point did not run (a quick run's sizes) or did not complete."""
    try:
        return r.value(column, "completion", network=network, operation=operation, algorithm=algorithm, message_bytes=size)
    except KeyError:
        return Measured(math.nan, math.nan, math.nan)


def _on_every_network(checks: dict[str, Verdict], rule: str) -> Verdict:
    return every(list(checks.values()), "; ".join(f"{n}: {v.ours}" for n, v in checks.items()), rule)


def _faster(r: Results, network: str, operation: str, fast: str | Callable[[int], str], slow: str, sizes: list[int]) -> Verdict:
    """``fast`` (an algorithm, or the algorithm of each size) takes less time than ``slow`` at every one of
    ``sizes`` (lower on the completion axis); ``ours``: the smallest ratio slow / fast and, beside it, the
    α-β-γ estimate's at the same size."""
    pick = fast if callable(fast) else lambda _: fast
    checks, ratios = [], []
    for size in sizes:
        a, b = _time(r, network, operation, pick(size), size), _time(r, network, operation, slow, size)
        checks.append(lower(a, b, COMPLETION, f"{_bytes(size)}: ×{b.value / a.value:.2f}"))
        ratios.append((b.value / a.value, size))
    known = [(x, s) for x, s in ratios if math.isfinite(x)]
    if len(known) < len(sizes):
        return every(checks, f"{len(sizes) - len(known)} of {len(sizes)} sizes not run", f"at every size {_span(sizes)}")
    ratio, size = min(known)
    ea, eb = (_time(r, network, operation, x, size, "estimate_cycles") for x in (pick(size), slow))
    return every(checks, f"×{ratio:.2f} at {_bytes(size)} (α-β-γ ×{eb.value / ea.value:.2f})", f"at every size {_span(sizes)}")


def mpich_broadcast(size: int, members: int = MEMBERS) -> str:
    """The broadcast MPICH runs for ``size`` bytes over ``members`` ranks (its selection by the cvars
    MPIR_CVAR_BCAST_SHORT_MSG_SIZE, _LONG_MSG_SIZE and _MIN_PROCS, whose values are in the data file):
    the binomial tree for short messages or few ranks, scatter + recursive-doubling allgather for medium
    messages over a power of two, else scatter + ring allgather. The sizes are the user's bytes, as
    MPICH's thresholds are; the flit size only sets how many cycles a byte takes (docs/experiments.md)."""
    if size < stated("bcast_short_max_bytes") or members < stated("bcast_min_procs"):
        return "binomial"
    if size < stated("bcast_long_min_bytes") and members & (members - 1) == 0:
        return "scatter_allgather"
    return "scatter_ring_allgather"


def _span(sizes: list[int]) -> str:
    return f"{_bytes(sizes[0])} – {_bytes(sizes[-1])}"


def _crossing(r: Results, network: str, short: str, long: str) -> Measured:
    """Where ``long`` becomes the faster for good: between the size from which it is faster at every larger
    size and the size below (a bracket on the grid: the curves are known only at its sizes)."""
    times = [(_time(r, network, "allreduce", short, s).value, _time(r, network, "allreduce", long, s).value) for s in SIZES]
    if any(math.isnan(t) for pair in times for t in pair):
        return Measured(math.nan, math.nan, math.nan)
    first = len(SIZES)
    while first > 0 and times[first - 1][1] < times[first - 1][0]:
        first -= 1
    if first == len(SIZES):
        return bracket(max(SIZES), math.inf, shown=f"above {_bytes(max(SIZES))}")
    if first == 0:
        return bracket(0.0, min(SIZES), shown=f"at most {_bytes(min(SIZES))}", value=min(SIZES))
    low, high = SIZES[first - 1], SIZES[first]
    return bracket(low, high, shown=f"({_bytes(low)}, {_bytes(high)}]", value=math.sqrt(low * high))


#: what "short" and "long" name: the sizes on each side of MPICH's switch point, as the paper states it
def _short(threshold: float, inclusive: bool) -> list[int]:
    return [s for s in SIZES if (s <= threshold if inclusive else s < threshold)]


def _long(threshold: float, inclusive: bool) -> list[int]:
    return [s for s in SIZES if (s > threshold if inclusive else s >= threshold)]


ALLREDUCE = "allreduce (by topic; the section could not be checked here)"
BROADCAST = "broadcast (by topic; the section could not be checked here)"
SIZES_NOTE = "the sizes the sentence names, on our grid"


def claims(r: Results) -> list[Claim]:
    allreduce, bcast, bcast_long = stated("allreduce_short_max_bytes"), stated("bcast_short_max_bytes"), stated("bcast_long_min_bytes")
    rd, rab = "recursive_doubling", "rabenseifner"
    rd_short, rab_long = _short(allreduce, True), _long(allreduce, True)
    bin_short, sag_long = _short(bcast, False), _long(bcast, False)
    ring_long = _long(bcast_long, False)

    def faster(operation: str, fast: str | Callable[[int], str], slow: str, sizes: list[int]) -> Verdict:
        return _on_every_network({n: _faster(r, n, operation, fast, slow, sizes) for n in CLAIMED}, "on every network")

    switch = _on_every_network(
        {n: near(c, allreduce, SIZE_AXIS, "not run" if c.unknown else str(c)) for n in CLAIMED for c in [_crossing(r, n, rd, rab)]}, "on every network"
    )
    fat_tree = HARDWARE_NETWORKS[0]
    hardware = every(
        [much_lower(_time(r, fat_tree, "broadcast", "hardware", s), _time(r, fat_tree, "broadcast", "binomial", s), MUCH, f"{_bytes(s)}") for s in SIZES],
        rule=f"{fat_tree}, at every size {_span(SIZES)}",
    )
    ratios = [_time(r, fat_tree, "broadcast", "binomial", s).value / _time(r, fat_tree, "broadcast", "hardware", s).value for s in SIZES]
    missing = sum(not math.isfinite(x) for x in ratios)
    shown = f"×{min(ratios):.1f} – ×{max(ratios):.1f}" if not missing else f"{missing} of {len(SIZES)} sizes not run"
    hardware = replace(hardware, ours=shown)
    return [
        Claim(
            "allreduce: recursive doubling the faster for short vectors, up to 2 KB, on every network",
            ALLREDUCE,
            f"MPICH uses recursive doubling for short messages (up to {_bytes(allreduce)})",
            faster("allreduce", rd, rab, rd_short),
            f"'faster' read as lower on the panels' completion axis (log, 10^2 – 10^8 cycles: by more than its visible {_visible(COMPLETION)}) "
            f"than Rabenseifner's algorithm, at every size up to {_bytes(allreduce)} ({_span(rd_short)}: {SIZES_NOTE}). "
            "Measured cause where it deviates, at 2 KB: recursive doubling's whole-vector exchanges meet contention — "
            "on the dragonfly 5.2 times its estimate against Rabenseifner's 4.0, so the estimate's ×1.23 turns to ×0.95; "
            "on the fat tree 1.43 times, and it stays ahead by ×1.18 only",
        ),
        Claim(
            "allreduce: Rabenseifner's algorithm the faster for long vectors, above 2 KB, on every network",
            ALLREDUCE,
            f"… and Rabenseifner's algorithm for long messages (above {_bytes(allreduce)})",
            faster("allreduce", rab, rd, rab_long),
            f"lower completion than recursive doubling, by the visible {_visible(COMPLETION)}, at every size above {_bytes(allreduce)} "
            f"({_span(rab_long)}: {SIZES_NOTE}). Measured cause where it deviates, on the fat tree at 8 KB: Rabenseifner's "
            "halving steps meet more contention than recursive doubling there (1.71 times its estimate against 1.33), so "
            "the estimate's ×1.55 shrinks to ×1.21 (8,554 cycles against 10,318): faster, not visibly",
        ),
        Claim(
            "allreduce: the switch between them near 2 KB, on every network",
            ALLREDUCE,
            f"MPICH switches from recursive doubling to Rabenseifner's algorithm at {_bytes(allreduce)}",
            switch,
            f"the size from which Rabenseifner's algorithm stays faster, known to the bracket between two sizes of the "
            f"grid (a factor 4, or 1.5 and 2.7 round 12 KB), near {_bytes(allreduce)} on the panels' size axis (log, 8 B – 1 MB: within its visible {_visible(SIZE_AXIS)})",
        ),
        Claim(
            "broadcast: the binomial tree the faster for short messages, under 12 KB, on every network",
            BROADCAST,
            f"MPICH broadcasts short messages (under {_bytes(bcast)}) along a binomial tree",
            faster("broadcast", "binomial", "scatter_allgather", bin_short),
            f"lower completion than scatter + allgather, by the visible {_visible(COMPLETION)}, at every size under {_bytes(bcast)} "
            f"({_span(bin_short)}: {SIZES_NOTE}). Where it deviates: on the fat tree scatter + allgather "
            "is faster at 8 KB (4,955 cycles against 6,470), as its α-β-γ estimate says (4,121): the paper gives no host "
            "costs, and ours (α/β about 1.25 KB, which puts the allreduce's switch at MPICH's 2 KB) put the two algorithms' "
            "α-β switch near 1.25 α/β, 2–3 KB, where MPICH's clusters put it at 12 KB (an α/β near 10 KB would, and would "
            "move the allreduce's switch to about 10 KB)",
            cause=DATA,
        ),
        Claim(
            "broadcast: scatter + allgather the faster for long messages, from 12 KB, on every network",
            BROADCAST,
            "… and long ones by scatter + allgather, whose vector crosses each link twice where the binomial tree's crosses log₂P times",
            faster("broadcast", mpich_broadcast, "binomial", sag_long),
            f"MPICH's scatter + allgather at each size (the allgather by recursive doubling under {_bytes(bcast_long)}, round "
            f"the ring from it: MPICH's selection) lower than the binomial tree, by the visible {_visible(COMPLETION)}, at every "
            f"size from {_bytes(bcast)} ({_span(sag_long)}: {SIZES_NOTE}). Where it deviates, the allgather's recursive doubling "
            "meets contention on the torus and the minimally routed dragonfly while the binomial tree never shares a link "
            "(docs/experiments.md, \"Collectives\")",
        ),
        Claim(
            "broadcast: from 512 KB scatter + ring allgather the faster than scatter + recursive-doubling allgather, on every network",
            f"MPICH's broadcast selection (MPIR_CVAR_BCAST_LONG_MSG_SIZE = {int(bcast_long)}; the paper's broadcast, by topic)",
            f"long messages (from {_bytes(bcast_long)}) are broadcast by a scatter followed by a ring allgather",
            faster("broadcast", "scatter_ring_allgather", "scatter_allgather", ring_long),
            f"lower completion than the recursive-doubling allgather, by the visible {_visible(COMPLETION)}, at every size from "
            f"{_bytes(bcast_long)} ({_span(ring_long)}: {SIZES_NOTE}); MPICH's reason is contention, which the α-β-γ estimate "
            "leaves out: by its costs the ring's P − 1 start-ups make it the slower at every size",
        ),
        Claim(
            "fat tree: the hardware broadcast much faster than the binomial tree, at every size",
            "study 000 (Sivaram et al.) §7.8 (not a statement of Thakur et al.)",
            "Latency was much lower and saturation bandwidth was higher for the entire range of multicast degree m, system size n, and message size",
            hardware,
            f"'much lower' with no factor stated: the binomial tree's completion at least {MUCH:g} times the one worm's "
            "(the vocabulary's factor), at every size; study 000 measured latency under load with software multicast by "
            "unicasts along a binomial tree, here one broadcast alone",
        ),
    ]


#: the quick run's points are the full run's own (the same scenarios; a collective alone is deterministic),
#: so every completion it reads is exactly the full run's: spread 0, and a claim is judged in quick mode
#: where the quick sizes decide it
QUICK_RESOLUTION = {"completion": Spread()}


# --- plots ------------------------------------------------------------------------------------------------

NAMES = {
    "binomial": "binomial tree",
    "chain": "pipelined chain",
    "scatter_allgather": "scatter + allgather (recursive doubling)",
    "scatter_ring_allgather": "scatter + ring allgather",
    "hardware": "hardware (one worm)",
    "recursive_doubling": "recursive doubling",
    "rabenseifner": "Rabenseifner",
    "ring": "ring",
}


EXPERIMENT_ID = "collectives"


def panel_name(operation: str, network: str) -> str:
    return f"{operation}_{network.replace(' ', '_')}.png"


def plot(results: pd.DataFrame, out: Path) -> None:
    """One PNG per (operation, network): completion against message size, one colour per algorithm, the
    simulation solid with markers, its α-β-γ estimate dashed in the same colour; a point that did not
    complete has no completion: a ▲ at the top instead."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from flitcast.experiments.study_marks import finish_panel
    from flitcast.plot import INCOMPLETE_NOTE, draw_latency, latency_legend

    for operation, algorithms in ALGORITHMS.items():
        for network in NETWORKS:
            data = results[(results["network"] == network) & (results["operation"] == operation)]
            if data.empty:
                continue
            fig, ax = plt.subplots(figsize=(8.4, 4.4))
            try:
                for i, algorithm in enumerate(a for a in algorithms if a in set(data["algorithm"])):
                    part = data[data["algorithm"] == algorithm].sort_values("message_bytes")
                    style = series_style(i)
                    incomplete = part["saturated"].fillna(False).astype(bool) if "saturated" in part else False
                    simulated = part["completion_cycles"].astype(float)
                    estimate = part["estimate_cycles"].astype(float) if "estimate_cycles" in part else None
                    # where the simulation is its estimate at every size, the dashed line hides under it: say so
                    same = estimate is not None and bool((simulated == estimate).all())
                    draw_latency(ax, part["message_bytes"], simulated, incomplete, note=INCOMPLETE_NOTE, log=True, color=style["color"],
                                 marker=style["marker"], markersize=4, linestyle="-", label=NAMES[algorithm] + (" (= its α-β-γ estimate)" if same else ""))
                    if estimate is not None:
                        ax.plot(part["message_bytes"], estimate, color=style["color"], linestyle="--", linewidth=1, label="_nolegend_")
                if operation == "broadcast":
                    # MPICH's choice at each size: a broad pale line under the algorithm it picks
                    # (only where that algorithm completed: an incomplete point has no completion to draw)
                    done = ~data["saturated"].fillna(False).astype(bool) if "saturated" in data else True
                    picked = data[done & (data["algorithm"] == data["message_bytes"].map(lambda b: mpich_broadcast(int(b))))]
                    picked = picked.sort_values("message_bytes")
                    ax.plot(picked["message_bytes"], picked["completion_cycles"].astype(float), color="black", alpha=0.15,
                            linewidth=6, label="MPICH's choice", zorder=0)
                if "estimate_cycles" in data:
                    # one legend entry for every dashed line: each is its algorithm's estimate, in its colour
                    ax.plot([], [], color="grey", linestyle="--", linewidth=1, label="α-β-γ estimate (dashed, same colour)")
                ax.set_xscale("log", base=2)
                ax.set_yscale("log")
                ax.set_ylim(COMPLETION.low, COMPLETION.high)  # the claims' axis (COMPLETION)
                ticks = sorted(data["message_bytes"].unique())
                ax.set_xticks(ticks, [_bytes(t) for t in ticks], fontsize=7, rotation=35, ha="right")
                ax.set_xlabel("message size")
                ax.set_ylabel("completion (cycles)")
                ax.set_title(f"{operation} over {MEMBERS:,} members: {TITLES[network]}", fontsize=9)
                ax.grid(True, alpha=0.3, which="both")
                latency_legend(ax, fontsize=7)
                finish_panel(ax, EXPERIMENT_ID, panel_name(operation, network).removesuffix(".png"))
                fig.tight_layout()
                fig.savefig(out / panel_name(operation, network), dpi=110)
            finally:
                plt.close(fig)


QUICK_NOTE = "message sizes 8 B – 8 KB of the same points (exact: the full run's own); judges the claims those sizes decide (both short-message claims)"

EXPERIMENT = Experiment(
    id=EXPERIMENT_ID,
    study=STUDY,
    figure="our experiment",
    title="broadcast and allreduce completion vs message size (8 B – 1 MB), 1,024-node fat tree, 32×32 torus and dragonfly, software vs hardware multicast, beside the α-β-γ estimate",
    points=points,
    claims=claims,
    plot=plot,
    quick_note=QUICK_NOTE,
    quick_resolution=QUICK_RESOLUTION,
    derive=_derive,
)

EXPERIMENTS = [EXPERIMENT]
