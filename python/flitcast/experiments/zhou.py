"""Study 003 — Zhou, Liu, Chung: hardware multicast by the union of XY paths on 2-D mesh InfiniBand
networks. Figs 10–27 (§4).

System (docs/models/infiniband.md): a 16×16 mesh of InfiniBand switches, XY routing by linear forwarding
tables, multicast by the union of the source's XY paths (one multicast forwarding table per source and
group), virtual cut-through with credits per virtual lane, 1, 2 or 4 lanes shared by every output ("NESW:
VL0, VL1…") or one lane per direction ("NE: VL0; SW: VL1", "N: VL0; E: VL1; S: VL2; W: VL3"). 1X SDR links:
4 ns per byte. Flits are 32-byte blocks, so a cycle is 128 ns and every message size of the study (32 B …
8 KB) is a whole number of flits: times are exact in ns. Each lane buffers one packet (sized in packets,
as credits in packets would: the study gives no size; virtual cut-through needs at least one, and only
with one do its lane observations appear — docs/models/infiniband.md); a switch adds one cycle (128 ns)
and a link one cycle (not given by the study).

Workload (§4): a closed batch — one source, 40% of the nodes, or all of them each send one message to a
group of 40% or 100% of the nodes (drawn from the seed), by hardware multicast or by the unicast scheme
(one unicast per member, back to back). Measure: the batch's completion time, from cycle 0 to the last
byte at the last member (``completion_ns``), and the speedup unicast / multicast.

The study states no number; its claims are orderings. Quick mode runs three message sizes (32 B, 256 B,
2 KB) of the same points and judges no claim: its largest size is not the study's, and several claims read
the smallest and largest sizes.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from flitcast.experiments.experiment import Claim, Experiment, Point

if TYPE_CHECKING:
    import pandas as pd

    from flitcast.config import Scenario

STUDY = "003 Zhou, Liu, Chung (hardware multicast on 2-D mesh InfiniBand networks)"

#: lane configurations of Fig. 8: label -> (lanes, routing.lanes)
LANES: dict[str, tuple[int, str]] = {
    "1 VL": (1, "any"),
    "2 VL shared": (2, "any"),
    "2 VL dedicated": (2, "by_port"),
    "4 VL shared": (4, "any"),
    "4 VL dedicated": (4, "by_port"),
}
SCHEMES = {"multicast": "hardware", "unicast": "separate"}
SIZES = [32 * 2**i for i in range(9)]  # 32 B … 8 KB
QUICK_SIZES = [32, 256, 2048]
GROUPS = [0.4, 1.0]
FLIT_BYTES = 32
#: 1X SDR: 2.5 Gb/s signalling, 8b/10b, so 2 Gb/s of data: 4 ns per byte
NS_PER_BYTE = 4
CYCLE_NS = FLIT_BYTES * NS_PER_BYTE


def scenario(sources: float, group: float, lanes: str, scheme: str, message_bytes: int) -> Scenario:
    """One point: a closed batch on the 16×16 mesh."""
    from flitcast.config import Scenario  # (here: listing the experiments needs no pydantic)

    vls, mapping = LANES[lanes]
    return Scenario.model_validate(
        {
            "network": {"topology": "mesh", "k": 16, "n": 2},
            "switch": {"model": "infiniband", "vcs": vls, "buffer_flits": message_bytes // FLIT_BYTES},
            "routing": {"algorithm": "dor", **({"lanes": mapping} if vls > 1 else {})},
            "workload": {
                "program": "batch",
                "message_bytes": message_bytes,
                "flit_bytes": FLIT_BYTES,
                "max_packet_bytes": message_bytes,  # ("the packet size ranges from 32 bytes to 8 Kbytes")
                "scheme": SCHEMES[scheme],
                "source_share": sources,
                "group_share": group,
            },
            "run": {"warmup_cycles": 0, "measure_cycles": 2, "batches": 2, "drain_max_cycles": 100_000_000, "watchdog_cycles": 100_000},
        }
    )


def _points(sources: int, quick: bool) -> list[Point]:
    share = sources / 256
    return [
        Point({"sources": sources, "group": group, "lanes": lanes, "scheme": scheme, "message_bytes": size}, scenario(share, group, lanes, scheme, size))
        for group in GROUPS
        for lanes in LANES
        for scheme in SCHEMES
        for size in (QUICK_SIZES if quick else SIZES)
    ]


def completion(results: pd.DataFrame) -> pd.Series:
    """Completion time in ns per point: the last operation's latency, every operation starting at 0."""
    return results["latency_max"] * CYCLE_NS


def _with_ns(results: pd.DataFrame) -> pd.DataFrame:
    """results.csv carries the completion time in ns (exact: 128 ns cycles)."""
    return results.assign(completion_ns=completion(results))


def _table(results: pd.DataFrame) -> pd.DataFrame:
    """Completion (ns) by (group, lanes, size) with a column per scheme, and the speedup."""
    t = results.assign(completion_ns=completion(results)).pivot_table(index=["group", "lanes", "message_bytes"], columns="scheme", values="completion_ns")
    return t.assign(speedup=t["unicast"] / t["multicast"])


# --- claims --------------------------------------------------------------------------------------------


def _claims(results: pd.DataFrame) -> list[Claim]:
    t = _table(results)
    sizes = sorted(t.index.get_level_values("message_bytes").unique())
    small, large = sizes[0], sizes[-1]
    claims = []
    wins = int((t["multicast"] < t["unicast"]).sum())
    claims.append(Claim("multicast outperforms unicast in every case", "all cases", f"{wins} of {len(t)} (group, lanes, size) cases; speedup {t['speedup'].min():.2f}–{t['speedup'].max():.2f}", wins == len(t), ""))
    grows = [(g, lanes) for (g, lanes), sub in t.groupby(level=["group", "lanes"]) if sub.loc[(g, lanes, large), "speedup"] > sub.loc[(g, lanes, small), "speedup"]]
    cases = len(t.groupby(level=["group", "lanes"]))
    claims.append(Claim("the speedup grows with the message size", "grows", f"speedup at {large} B above {small} B in {len(grows)} of {cases} (group, lanes) cases", len(grows) == cases, f"{small} B against {large} B"))
    by_group = t["speedup"].unstack("group")
    bigger = int((by_group[1.0] > by_group[0.4]).sum())
    claims.append(Claim("the speedup grows with the group size", "100% group above 40%", f"in {bigger} of {len(by_group)} (lanes, size) cases", bigger == len(by_group), ""))
    for scheme in SCHEMES:
        c = t[scheme].unstack("lanes")
        better = int(((c["4 VL shared"] <= c["2 VL shared"]) & (c["2 VL shared"] <= c["1 VL"])).sum())
        claims.append(Claim(f"more lanes, less time ({scheme} scheme)", "4 ≤ 2 ≤ 1 VL (shared)", f"in {better} of {len(c)} (group, size) cases; 1 → 4 VL: {(1 - c['4 VL shared'] / c['1 VL']).mean():.0%} less on average", better == len(c), ""))
    gain = {s: (1 - t[s].unstack("lanes")["4 VL shared"] / t[s].unstack("lanes")["1 VL"]).mean() for s in SCHEMES}
    claims.append(Claim("more lanes help the unicast scheme most", "unicast gains more", f"1 → 4 VL: unicast {gain['unicast']:.0%}, multicast {gain['multicast']:.0%} less time on average", gain["unicast"] > gain["multicast"], ""))
    for vls in (2, 4):
        shared, dedicated = t.xs(f"{vls} VL shared", level="lanes"), t.xs(f"{vls} VL dedicated", level="lanes")
        for scheme in SCHEMES:
            ratio = dedicated[scheme] / shared[scheme]
            at_small, at_large = ratio.xs(small, level="message_bytes"), ratio.xs(large, level="message_bytes")
            claims.append(
                Claim(
                    f"{vls} lanes, {scheme} scheme: shared lanes beat dedicated ones at small sizes",
                    "shared better (clearly for small messages)",
                    f"dedicated / shared at {small} B: " + ", ".join(f"group {g:.0%} {r:.2f}" for g, r in at_small.items()),
                    bool((at_small > 1.0).all()),
                    f"holds if dedicated lanes take longer at {small} B for both groups",
                )
            )
            claims.append(
                Claim(
                    f"{vls} lanes, {scheme} scheme: no clear difference for large messages",
                    "not clear when the data size is large",
                    f"dedicated / shared at {large} B: " + ", ".join(f"group {g:.0%} {r:.2f}" for g, r in at_large.items()),
                    bool(((at_large - 1).abs() <= 0.05).all()),
                    f"holds if within 5% at {large} B for both groups",
                )
            )
    return claims


# --- plots ---------------------------------------------------------------------------------------------------


def _plot(first_figure: int) -> Any:
    def plot(results: pd.DataFrame, out: Path) -> None:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        data = results.assign(completion_us=completion(results) / 1000)
        figure = first_figure
        for group in GROUPS:
            for vls in (1, 2, 4):
                configs = [c for c in LANES if c.startswith(f"{vls} VL")]
                for panel, (lo, hi) in (("a", (0, 1024)), ("b", (1024, 10**9))):
                    fig, ax = plt.subplots(figsize=(6, 4.2))
                    for lanes in configs:
                        for scheme, style in (("multicast", "-"), ("unicast", "--")):
                            sel = data[(data["group"] == group) & (data["lanes"] == lanes) & (data["scheme"] == scheme)]
                            sel = sel[(sel["message_bytes"] > lo) & (sel["message_bytes"] <= hi)].sort_values("message_bytes")
                            ax.plot(sel["message_bytes"], sel["completion_us"], style, marker="o", markersize=3, label=f"{scheme}, {lanes}")
                    ax.set_xscale("log", base=2)
                    ax.set_xlabel("message size (bytes)")
                    ax.set_ylabel("completion time (µs)")
                    ax.set_title(f"Fig. {figure}({panel}): group {group:.0%}, {vls} lane{'s' if vls > 1 else ''}", fontsize=9)
                    ax.legend(fontsize=7)
                    fig.tight_layout()
                    fig.savefig(out / f"fig{figure}{panel}.png", dpi=110)
                    plt.close(fig)
                figure += 1

    return plot


QUICK_NOTE = "message sizes 32 B, 256 B and 2 KB of the same points; judges no claim (they read the study's largest size)"


def _experiment(fid: str, sources: int, first: int, title: str) -> Experiment:
    return Experiment(
        id=fid,
        study=STUDY,
        figure=f"Figs {first}–{first + 5}",
        title=title,
        points=lambda quick: _points(sources, quick),
        claims=_claims,
        plot=_plot(first),
        quick_note=QUICK_NOTE,
        derive=_with_ns,
    )


EXPERIMENTS = [
    _experiment("zhou-one-source", 1, 10, "one-source multicast vs unicast, 16×16 mesh, 1/2/4 lanes, groups 40% and 100%"),
    _experiment("zhou-multi-source", 102, 16, "multi-source (40% of nodes) multicast vs unicast, 16×16 mesh, 1/2/4 lanes, groups 40% and 100%"),
    _experiment("zhou-all-source", 256, 22, "all-source multicast vs unicast, 16×16 mesh, 1/2/4 lanes, groups 40% and 100%"),
]
