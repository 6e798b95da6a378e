"""Our experiment ``collectives``, after Thakur, Rabenseifner and Gropp (collective operations in MPICH,
IJHPCA 2005): broadcast and allreduce completion against message size (8 B – 1 MB) on three 1,024-node
networks, software algorithms against hardware multicast, each beside its α-β-γ estimate.

System (docs/models/collectives.md): one collective over 1,024 members at cycle 0 (``load = 0``), on a
4-ary 5-tree of central-buffer switches (adaptive source routing, LRU selection), a 32×32 torus of
input-buffered routers (dimension order with dateline VC classes) and the 1,056-node dragonfly p = h = 4,
a = 8 (minimal routing, its first 1,024 nodes as members). Flits are 16 bytes, so a size under a flit is
one flit (its envelope), and a message is cut into packets of at most 4 KB (256 flits). Every host pays
o_s = o_r = 50 cycles per message and γ = 0.25 cycles per flit it reduces (docs/experiments.md, "Experiments of our own").

The paper states which algorithm MPICH uses for which message size; those are the claims, judged on the
simulated completion (``completion_cycles``), with the estimate's verdict beside. A third claim, that the
fat tree's hardware broadcast beats the binomial tree, is study 000's, and says so. What contention costs
(completion / estimate, ``contention`` in results.csv) is our finding, in the docs, not a claim.

Quick mode runs the sizes 8 B – 512 B, the very points of the full run (deterministic: the same results),
and judges only the claims that read nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flitcast.experiments.experiment import Claim, Experiment, Point, series_style

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
#: 8 B, 32 B, … 512 KB (every factor of 4) and 1 MB; MPICH's switch points (2 KB, 12 KB) fall on or
#: between them
SIZES = [8 * 4**i for i in range(9)] + [2**20]
QUICK_SIZES = [8, 32, 128, 512]
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
#: how a panel's title names each network
TITLES = {
    "fat tree": "4-ary 5-tree, central-buffer switches, adaptive routing",
    "torus": "32×32 torus, dimension order",
    "dragonfly": "dragonfly p = h = 4, a = 8, minimal routing",
}
#: operation -> its algorithms (``workload.scheme``); ``hardware`` only where switches replicate worms
ALGORITHMS: dict[str, tuple[str, ...]] = {
    "broadcast": ("binomial", "chain", "scatter_allgather", "hardware"),
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
    return results.assign(contention=results["completion_cycles"] / results["estimate_cycles"])


# --- the paper's numbers ------------------------------------------------------------------------------


def stated(name: str) -> float:
    """A number the paper states, from its data file (study_data/thakur2005.toml)."""
    from flitcast.studies import value

    return value(DATA_ID, name).number


# --- claims ---------------------------------------------------------------------------------------------

#: "faster" read as more than 1% less completion time: our runs are deterministic (one collective, one
#: seed), so no noise asks for more, and a smaller gap is within a curve's line width on the log plots
VISIBLE = 0.01
#: study 000's "much lower" (hardware against software multicast latency), as its experiments read it
#: (sivaram.py: MUCH): the hardware broadcast at least 1.2 times faster
MUCH = 1.2
#: MPICH's switch point is a tuned parameter of the paper's clusters, and our hosts match their α/β only
#: to its order: its side of the switch is judged one grid step (a factor 4) away from it, and the switch
#: point itself to within one grid step
STEP = 4


@dataclass(frozen=True)
class Sizes:
    """The message sizes a claim reads, and its ``reads`` key (quick_resolution)."""

    low: int
    high: int

    @property
    def key(self) -> str:
        """Named by the sizes of the full run's grid it takes."""
        grid = self.of(SIZES)
        return f"completion {_bytes(grid[0])} – {_bytes(grid[-1])}"

    @property
    def span(self) -> str:
        return self.key.removeprefix("completion ")

    def of(self, sizes: list[int]) -> list[int]:
        return [s for s in sizes if self.low <= s <= self.high]


def _bytes(size: float) -> str:
    size = int(size)
    if size >= 2**20 and size % 2**20 == 0:
        return f"{size // 2**20} MB"
    if size >= 1024 and size % 1024 == 0:
        return f"{size // 1024} KB"
    return f"{size} B"


def _table(results: pd.DataFrame, network: str, operation: str, column: str = "completion_cycles") -> pd.DataFrame:
    """``column`` by message size, one column per algorithm (NaN where a point did not complete)."""
    data = results[(results["network"] == network) & (results["operation"] == operation)]
    return data.pivot_table(index="message_bytes", columns="algorithm", values=column, aggfunc="first", dropna=False)


def _both(results: pd.DataFrame, network: str, operation: str, a: str, b: str, sizes: list[int]) -> list[int]:
    """The sizes of ``sizes`` at which both algorithms ran (completed or not)."""
    data = results[(results["network"] == network) & (results["operation"] == operation)]
    ran = [set(data.loc[data["algorithm"] == x, "message_bytes"]) for x in (a, b)]
    return [s for s in sizes if s in ran[0] and s in ran[1]]


def _faster(t: pd.DataFrame, fast: str, slow: str, sizes: list[int], factor: float = 1 + VISIBLE) -> tuple[bool | None, float | None, list[float]]:
    """Is ``fast`` faster than ``slow`` by ``factor`` at every size? (verdict, margin, ratios slow/fast).
    The margin is the smallest ratio's distance from ``factor`` in the ratio's units, positive when it
    holds; None (and no verdict) where a size has no time for either (a point that did not complete)."""
    import math

    if not sizes or fast not in t or slow not in t:
        return None, None, []
    ratios = [float(t.at[s, slow] / t.at[s, fast]) if s in t.index else math.nan for s in sizes]
    if any(not math.isfinite(r) for r in ratios):
        return None, None, ratios
    margin = min(ratios) - factor
    return margin > 0, margin, ratios


def _ratios(sizes: list[int], ratios: list[float]) -> str:
    return ", ".join(f"{_bytes(s)} {r:.2f}" for s, r in zip(sizes, ratios, strict=True))


def _estimate_says(results: pd.DataFrame, network: str, operation: str, fast: str, slow: str, sizes: list[int], factor: float = 1 + VISIBLE) -> str:
    verdict, _, ratios = _faster(_table(results, network, operation, "estimate_cycles"), fast, slow, sizes, factor)
    if verdict is None:
        return "α-β-γ: no estimate"
    return f"α-β-γ: {'holds' if verdict else 'does not hold'} ({_ratios(sizes, ratios)})"


def _switch_size(t: pd.DataFrame, short: str, long: str, sizes: list[int]) -> int | None:
    """The smallest of ``sizes`` from which ``long`` is faster than ``short`` at every larger one
    (None: at none)."""
    switch = None
    for s in reversed(sizes):
        if t.at[s, long] < t.at[s, short]:
            switch = s
        else:
            break
    return switch


def _allreduce_claims(results: pd.DataFrame, network: str, sizes: list[int]) -> list[Claim]:
    import math

    threshold = stated("allreduce_short_max_bytes")
    t = _table(results, network, "allreduce")
    where = f"MPICH: recursive doubling for short vectors (≤ {_bytes(threshold)}), Rabenseifner's algorithm for long ones (allreduce, by topic)"
    both = _both(results, network, "allreduce", "recursive_doubling", "rabenseifner", sizes)
    names = {"recursive_doubling": "recursive doubling", "rabenseifner": "Rabenseifner's algorithm"}
    claims = _short_and_long(results, network, "allreduce", ("recursive_doubling", "rabenseifner"), threshold, both, where, names, "", "vectors")
    estimate = _table(results, network, "allreduce", "estimate_cycles")
    switch, est_switch = (_switch_size(x, "recursive_doubling", "rabenseifner", both) for x in (t, estimate))
    incomplete = any(math.isnan(t.at[s, a]) for s in both for a in ("recursive_doubling", "rabenseifner"))
    near = Sizes(int(threshold) // STEP, int(threshold) * STEP)
    whole = Sizes(min(SIZES), max(SIZES))
    claims.append(
        Claim(
            f"{network}: the allreduce's switch from recursive doubling to Rabenseifner's algorithm lies near 2 KB",
            f"MPICH switches at {_bytes(threshold)} (allreduce, by topic)",
            f"Rabenseifner's faster from {_bytes(switch) if switch else 'no size'} on (α-β-γ: from {_bytes(est_switch) if est_switch else 'no size'} on)",
            None if incomplete or not both else switch is not None and near.low <= switch <= near.high,
            f"holds if the smallest size from which Rabenseifner's algorithm is faster at every larger size lies within one grid step (a factor {STEP}) of {_bytes(threshold)}, i.e. in {near.span}: "
            "the paper tuned its switch on its clusters, whose α/β our host costs match only to its order",
            reads=(whole.key,),
        )
    )
    return claims


def _broadcast_claims(results: pd.DataFrame, network: str, sizes: list[int]) -> list[Claim]:
    threshold = stated("bcast_short_max_bytes")
    both = _both(results, network, "broadcast", "binomial", "scatter_allgather", sizes)
    where = f"MPICH: the binomial tree for short messages (< {_bytes(threshold)}), scatter + allgather for long ones (broadcast, by topic)"
    return _short_and_long(results, network, "broadcast", ("binomial", "scatter_allgather"), threshold, both, where, NAMES, "the ", "messages")


def _short_and_long(
    results: pd.DataFrame,
    network: str,
    operation: str,
    algorithms: tuple[str, str],
    threshold: float,
    sizes: list[int],
    where: str,
    names: dict[str, str],
    article: str,
    items: str,
) -> list[Claim]:
    """MPICH's choice on each side of its switch point ``threshold``: the short-message algorithm
    (``algorithms[0]``) faster at every size a grid step (STEP) below it, the long-message one at every
    size a grid step above."""
    short, long = Sizes(min(SIZES), int(threshold) // STEP), Sizes(int(threshold) * STEP, max(SIZES))
    t = _table(results, network, operation)
    first, second = algorithms
    claims = []
    for side, fast, slow, word in ((short, first, second, "short"), (long, second, first, "long")):
        at = side.of(sizes)
        verdict, margin, ratios = _faster(t, fast, slow, at)
        claims.append(
            Claim(
                f"{network}: {article}{names[fast]} is the faster {operation} for {word} {items}",
                where,
                (f"{names[slow]} / {names[fast]}: {_ratios(at, ratios)}" if ratios else "no point") + "; " + _estimate_says(results, network, operation, fast, slow, at),
                verdict,
                f"holds if {article}{names[fast]} takes more than {VISIBLE:.0%} less time than {article}{names[slow]} at every {word} size "
                f"({side.span}: a factor {STEP} from MPICH's switch point, a tuned parameter of the paper's clusters)",
                margin=margin,
                reads=(side.key,),
            )
        )
    return claims


def _hardware_claim(results: pd.DataFrame, sizes: list[int]) -> Claim:
    network = HARDWARE_NETWORKS[0]
    whole = Sizes(min(SIZES), max(SIZES))
    t = _table(results, network, "broadcast")
    sizes = _both(results, network, "broadcast", "hardware", "binomial", sizes)
    verdict, margin, ratios = _faster(t, "hardware", "binomial", sizes, MUCH)
    return Claim(
        f"{network}: hardware broadcast much faster than the binomial software broadcast",
        "study 000 (Sivaram et al.) §7.3 'performs significantly better', §7.8 'latency was much lower' (not a statement of Thakur et al.)",
        (f"binomial / hardware: {_ratios(sizes, ratios)}" if ratios else "no point") + "; " + _estimate_says(results, network, "broadcast", "hardware", "binomial", sizes, MUCH),
        verdict,
        f"holds if the one-worm broadcast takes less than the binomial tree's time / {MUCH:g} at every size (study 000's 'much', as its experiments read it); "
        "study 000 measured latency under load with software multicast by unicasts along a binomial tree, here one broadcast alone",
        margin=margin,
        reads=(whole.key,),
    )


def claims(results: pd.DataFrame) -> list[Claim]:
    sizes = sorted(int(s) for s in results["message_bytes"].unique())
    found: list[Claim] = []
    for network in NETWORKS:
        found += _allreduce_claims(results, network, sizes)
    for network in NETWORKS:
        found += _broadcast_claims(results, network, sizes)
    found.append(_hardware_claim(results, sizes))
    return found


#: the quick run's points are the full run's own (the same scenarios; a collective alone is
#: deterministic), so the completion times they read are exactly the full run's: resolution 0, and a
#: claim is judged in quick mode exactly where it reads nothing but quick sizes
QUICK_RESOLUTION = {Sizes(min(SIZES), max(QUICK_SIZES)).key: 0.0}


# --- plots ------------------------------------------------------------------------------------------------

NAMES = {
    "binomial": "binomial tree",
    "chain": "pipelined chain",
    "scatter_allgather": "scatter + allgather",
    "hardware": "hardware (one worm)",
    "recursive_doubling": "recursive doubling",
    "rabenseifner": "Rabenseifner",
    "ring": "ring",
}


def panel_name(operation: str, network: str) -> str:
    return f"{operation}_{network.replace(' ', '_')}.png"


def plot(results: pd.DataFrame, out: Path) -> None:
    """One PNG per (operation, network): completion against message size, one colour per algorithm, the
    simulation solid with markers, its α-β-γ estimate dashed in the same colour; a point that did not
    complete has no completion: a ▲ at the top instead."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from flitcast.plot import INCOMPLETE_NOTE, draw_latency, latency_legend

    for operation, algorithms in ALGORITHMS.items():
        for network in NETWORKS:
            data = results[(results["network"] == network) & (results["operation"] == operation)]
            if data.empty:
                continue
            fig, ax = plt.subplots(figsize=(6.4, 4.4))
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
                if "estimate_cycles" in data:
                    # one legend entry for every dashed line: each is its algorithm's estimate, in its colour
                    ax.plot([], [], color="grey", linestyle="--", linewidth=1, label="α-β-γ estimate (dashed, same colour)")
                ax.set_xscale("log", base=2)
                ax.set_yscale("log")
                ticks = sorted(data["message_bytes"].unique())
                ax.set_xticks(ticks, [_bytes(t) for t in ticks], fontsize=7, rotation=35, ha="right")
                ax.set_xlabel("message size")
                ax.set_ylabel("completion (cycles)")
                ax.set_title(f"{operation} over {MEMBERS:,} members: {TITLES[network]}", fontsize=9)
                ax.grid(True, alpha=0.3, which="both")
                latency_legend(ax, fontsize=7)
                fig.tight_layout()
                fig.savefig(out / panel_name(operation, network), dpi=110)
            finally:
                plt.close(fig)


QUICK_NOTE = "message sizes 8 B – 512 B of the same points; judges only the claims that read nothing else (the allreduce's short vectors)"

EXPERIMENT = Experiment(
    id="collectives",
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
