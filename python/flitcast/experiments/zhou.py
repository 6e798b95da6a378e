"""Study 003 — Zhou, Liu, Chung: hardware multicast by the union of XY paths on 2-D mesh InfiniBand
networks. Figs 10–27 (§4).

System (docs/models/infiniband.md): a 16×16 mesh of InfiniBand switches, XY routing by linear forwarding
tables, multicast by the union of the source's XY paths (one multicast forwarding table per source and
group), virtual cut-through with credits per virtual lane, an input and an output buffer on every port
(Fig. 1), 1, 2 or 4 lanes shared by every output ("NESW: VL0, VL1…") or one lane per direction ("NE: VL0;
SW: VL1", "N: VL0; E: VL1; S: VL2; W: VL3"). 1X SDR links: 4 ns per byte. Each message is one packet, 8 KB
included, as the study says ("the packet size ranges from 32 bytes to 8 Kbytes", §4), carrying InfiniBand's
headers: 34 bytes on a unicast (unreliable datagrams: LRH, BTH, DETH, ICRC, VCRC), 74 on a multicast (and
the GRH, whose GID the source sends with, §3). Flits are 8-byte blocks, so a cycle is 32 ns, every payload
is whole flits and each header is rounded up by 6 bytes (40 and 80). Each lane buffers one packet of the
message sent, of the scheme's own (§3: a packet "will stay in a channel (buffer) until the next required
channel is free": a channel holds a packet; docs/models/infiniband.md, "Lane buffers and packet size"),
input and output alike. The study gives no buffer size and InfiniBand's MTU is 4 KB: the readings
`lane-8k` (every lane a fixed 8 KB) and `mtu-4k` (8 KB messages as two 4 KB packets) run the other
choices; `input-buffers-only` and `no-headers` run the model without output buffers or without headers. A
switch adds 128 ns and a link 128 ns (not given by the study).

Workload (§4): a closed batch — one source, 40% of the nodes, or all of them each send one message to a
group of 40% or 100% of the nodes (drawn from the seed), by hardware multicast or by the unicast scheme
(one unicast per member, back to back). Measure: the batch's completion time, from cycle 0 to the last
byte at the last member (``completion_ns``), and the speedup unicast / multicast.

The study states no number; its claims are orderings, with the tolerances of VISIBLE and CLEAR below. Its
comparisons across the numbers of sources (§4 Case 3, Remark 2) are judged by ``zhou-all-source``, which
runs the one- and multi-source points too. Quick mode runs three message sizes (32 B, 256 B, 2 KB) of the
same points and judges no claim: the claims read every size of the study's panels.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from flitcast.experiments.experiment import Claim, Experiment, Point, Reading

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
#: InfiniBand's headers and CRCs (docs/models/infiniband.md, "Headers"): an unreliable datagram carries
#: LRH 8 + BTH 12 + DETH 8 + ICRC 4 + VCRC 2 bytes; a multicast one also the GRH (40), which holds the
#: group's GID ("the source node uses the multicast LID and the GID of a multicast group to send packets", §3)
UNICAST_HEADER_BYTES = 8 + 12 + 8 + 4 + 2
MULTICAST_HEADER_BYTES = UNICAST_HEADER_BYTES + 40
#: the header of each scheme's packets
HEADER_BYTES = {"multicast": MULTICAST_HEADER_BYTES, "unicast": UNICAST_HEADER_BYTES}
#: 8-byte flits: every payload of the study is whole flits, and both headers are rounded up by the same 6
#: bytes (40 and 80); 2-byte flits would be exact at four times the run time (docs/models/infiniband.md)
FLIT_BYTES = 8
#: 1X SDR: 2.5 Gb/s signalling, 8b/10b, so 2 Gb/s of data: 4 ns per byte
NS_PER_BYTE = 4
CYCLE_NS = FLIT_BYTES * NS_PER_BYTE
#: a switch's and a link's delay (the study gives neither): 128 ns each, the time of 32 bytes
DELAY_CYCLES = 128 // CYCLE_NS
#: the default reading: each lane buffers one packet of the message being sent, and each message is one
#: packet (docs/models/infiniband.md, "Lane buffers and packet size"); the others are READINGS below
#: InfiniBand's largest MTU (the `mtu-4k` reading)
MTU_BYTES = 4096
#: one maximum packet of the study, the fixed lane of the `lane-8k` reading
MAX_PACKET_BYTES = 8192


def _flits(size: int) -> int:
    return -(-size // FLIT_BYTES)


def lane_flits(packet_bytes: int, header_bytes: int) -> int:
    """A lane of one packet of ``packet_bytes`` of payload and ``header_bytes`` of header, each in whole
    flits as the hosts send them."""
    return _flits(packet_bytes) + _flits(header_bytes)


def scenario(sources: float, group: float, lanes: str, scheme: str, message_bytes: int) -> Scenario:
    """One point: a closed batch on the 16×16 mesh."""
    from flitcast.config import Scenario  # (here: listing the experiments needs no pydantic)

    vls, mapping = LANES[lanes]
    return Scenario.model_validate(
        {
            "network": {"topology": "mesh", "k": 16, "n": 2, "channel_latency_cycles": DELAY_CYCLES},
            "switch": {"model": "infiniband", "vcs": vls, "buffer_flits": lane_flits(message_bytes, HEADER_BYTES[scheme]), "router_delay_cycles": DELAY_CYCLES},
            "routing": {"algorithm": "dor", **({"lanes": mapping} if vls > 1 else {})},
            "workload": {
                "program": "batch",
                "message_bytes": message_bytes,
                "flit_bytes": FLIT_BYTES,
                "max_packet_bytes": message_bytes,  # ("the packet size ranges from 32 bytes to 8 Kbytes")
                "unicast_header_bytes": UNICAST_HEADER_BYTES,
                **({"multicast_header_bytes": MULTICAST_HEADER_BYTES} if scheme == "multicast" else {}),
                "scheme": SCHEMES[scheme],
                "source_share": sources,
                "group_share": group,
            },
            "run": {"warmup_cycles": 0, "measure_cycles": 2, "batches": 2, "drain_max_cycles": 100_000_000, "watchdog_cycles": 100_000},
        }
    )


def _mtu_4k(point: Point) -> dict[str, int]:
    """Messages split at InfiniBand's 4 KB MTU; a lane still holds one packet (now at most 4 KB and its header)."""
    packet = min(point.labels["message_bytes"], MTU_BYTES)
    return {"workload.max_packet_bytes": packet, "switch.buffer_flits": lane_flits(packet, HEADER_BYTES[point.labels["scheme"]])}


def _no_headers(point: Point) -> dict[str, int]:
    """Packets without headers: the payload alone, and a lane of one such packet."""
    multicast = {"workload.multicast_header_bytes": 0} if point.labels["scheme"] == "multicast" else {}
    return {"workload.unicast_header_bytes": 0, **multicast, "switch.buffer_flits": lane_flits(point.labels["message_bytes"], 0)}


#: the `lane-8k` reading's fixed lane: one multicast packet of 8 KB, the largest packet of any point
LANE_8K = lane_flits(MAX_PACKET_BYTES, MULTICAST_HEADER_BYTES)

#: what the study leaves open and may change a verdict, read otherwise (docs/models/infiniband.md, "Lane
#: buffers and packet size", "Output buffers", "Headers"; docs/experiments.md, "Readings")
READINGS = (
    Reading(
        "lane-8k",
        "the study gives no buffer size (§3: 'a packet will stay in a channel (buffer) until the next required "
        f"channel is free'): every lane a fixed 8 KB, one multicast packet of the largest size (switch.buffer_flits = {LANE_8K}), "
        "in both schemes, instead of the default one packet of the message sent",
        {"switch.buffer_flits": LANE_8K},
    ),
    Reading(
        "mtu-4k",
        "§4's 'the packet size ranges from 32 bytes to 8 Kbytes' exceeds InfiniBand's largest MTU (4 KB): an 8 KB "
        "message as two 4 KB packets, each with its header (workload.max_packet_bytes = 4096, a lane one 4 KB packet); "
        "the default sends every message as one packet, as the study says; only the 8 KB points change",
        _mtu_4k,
    ),
    Reading(
        "hosts-any-lane",
        "Fig. 8's dedicated lanes name only the mesh's directions ('NE: VL0; SW: VL1'); a host's own link takes "
        "its lane from the host's SL-to-VL table, which the study does not give: hosts inject on any lane "
        "(routing.lanes = by_port_host_any) instead of the default lane 0; only the dedicated configurations change",
        lambda point: {"routing.lanes": "by_port_host_any"} if LANES[point.labels["lanes"]][1] == "by_port" else {},
    ),
    Reading(
        "input-buffers-only",
        "Fig. 1 draws every port with 'input buffer and output buffer'; the switch without output buffers "
        "(switch.output_buffers = false: input lanes only, a multicast packet holds its input lane until every "
        "branch has sent it), our model before them",
        {"switch.output_buffers": False},
    ),
    Reading(
        "no-headers",
        "§3: the source sends with 'the multicast LID and the GID', which InfiniBand carries in its headers; "
        "packets of their payload alone (workload.unicast_header_bytes = multicast_header_bytes = 0, a lane one "
        "such packet), our model before the headers",
        _no_headers,
    ),
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
    """Completion time in ns per point: the batch's completion (cycle 0 to the last byte at the last member).
    Every reading keeps the 8-byte flit."""
    return results["completion_cycles"] * CYCLE_NS


def _with_ns(results: pd.DataFrame) -> pd.DataFrame:
    """results.csv carries the completion time in ns (exact: 32 ns cycles)."""
    return results.assign(completion_ns=completion(results))


def _table(results: pd.DataFrame, by: tuple[str, ...] = ("group", "lanes", "message_bytes")) -> pd.DataFrame:
    """Completion (ns) by ``by`` with a column per scheme, and the speedup unicast / multicast."""
    t = results.assign(completion_ns=completion(results)).pivot_table(index=list(by), columns="scheme", values="completion_ns")
    return t.assign(speedup=t["unicast"] / t["multicast"])


# --- claims --------------------------------------------------------------------------------------------

#: the study gives no number (§4): its orderings are read off Figs 10–27, so "less", "better", "longer"
#: need a gap a reader of a figure would see; we take 1% of the value (a gap under that is within a
#: curve's line width). Our runs are deterministic (one seed: every configuration has the same sources
#: and group), so noise is no reason for more.
VISIBLE = 0.01
#: "clearly" (§4 Cases 1–2: shared lanes beat dedicated ones "clearly" in the (a) panels) is a gap seen at
#: once, not only measured: 5% of the value, five times a bare visible one; the same threshold decides
#: the study's "not clear" / "not obvious when the data size is large" (one word, one threshold)
CLEAR = 0.05
#: the (a) panels show the small sizes, the (b) panels the large ones (our reading: the figures' axes are
#: not in the text; 32 B … 1 KB and 2 KB … 8 KB, as our plots split them)
PANEL_A_MAX = 1024
VISIBLE_NOTE = f"{VISIBLE:.0%} of the value: the study reads its orderings off its figures and a smaller gap is within a line's width"
CLEAR_NOTE = f"'clearly': {CLEAR:.0%} of the value, a gap seen at once (five times a bare visible {VISIBLE:.0%}); the same threshold reads 'not clear'"


#: the cause named where lane configurations give exactly the same times (with one source a multicast is
#: one packet, alone in the network)
NO_WAIT = (
    "; every configuration gives exactly the same time: no packet waits for a lane (with one source a "
    "multicast is one packet, alone in the network; §4 Case 1 itself says that with one source 'the "
    "traffic congestion of two packets using the same buffer never occurs')"
)


def _range(values: pd.Series, digits: int = 2) -> str:
    return f"{values.min():.{digits}f}–{values.max():.{digits}f}"


def _span(sizes: list[int]) -> str:
    return f"{sizes[0]}–{sizes[-1]} B" if sizes else "no size"


def _figures(first: int, vls: int) -> str:
    """The (a) panels the study names for ``vls`` lanes: groups 40% and 100% (first figure = 1 lane, 40%)."""
    offset = {1: 0, 2: 1, 4: 2}[vls]
    return f"Figs {first + offset}(a), {first + 3 + offset}(a)"


def _own_claims(results: pd.DataFrame, first: int) -> list[Claim]:
    """The claims every experiment checks on its own points (one number of sources, Figs first … first+5)."""
    t = _table(results)
    sizes = sorted(t.index.get_level_values("message_bytes").unique())
    claims = []

    wins = t["multicast"] < t["unicast"] * (1 - VISIBLE)
    claims.append(
        Claim(
            "multicast outperforms unicast in every case",
            "§4 Cases 1–2, Remark 1: outperforms 'for all the simulation cases'",
            f"{int(wins.sum())} of {len(t)} (group, lanes, size) cases; speedup {_range(t['speedup'])}",
            bool(wins.all()),
            f"holds if multicast takes less time in every case, by more than {VISIBLE_NOTE}",
        )
    )

    sp = t["speedup"].unstack("message_bytes")[sizes]
    steps = sp[sizes[1:]].to_numpy() > sp[sizes[:-1]].to_numpy() * (1 + VISIBLE)
    rising = int(steps.all(axis=1).sum())
    claims.append(
        Claim(
            "the speedup grows with the message size",
            "Remark 2, abstract: 'the larger the message size … the better the speedup'",
            f"rises at every doubling in {rising} of {len(sp)} (group, lanes) curves ({int(steps.sum())} of {steps.size} steps); {sizes[0]} B → {sizes[-1]} B: {_range(sp[sizes[0]])} → {_range(sp[sizes[-1]])}",
            rising == len(sp),
            f"holds if the speedup rises at every doubling of the size ({sizes[0]} B … {sizes[-1]} B), by more than {VISIBLE_NOTE}",
        )
    )

    by_group = t["speedup"].unstack("group")
    bigger = by_group[1.0] > by_group[0.4] * (1 + VISIBLE)
    claims.append(
        Claim(
            "the speedup grows with the group size",
            "Remark 2, abstract: 'the larger the size of the multicast group, the better the speedup'",
            f"100% group above 40% in {int(bigger.sum())} of {len(by_group)} (lanes, size) cases; 100% / 40%: {_range(by_group[1.0] / by_group[0.4])}",
            bool(bigger.all()),
            f"holds if the speedup is higher for the 100% group in every case, by more than {VISIBLE_NOTE}",
        )
    )

    gain = {}
    for scheme in SCHEMES:
        c = t[scheme].unstack("lanes")
        gain[scheme] = 1 - c["4 VL shared"] / c["1 VL"]
        for kind in ("shared", "dedicated"):
            two, four = c[f"2 VL {kind}"], c[f"4 VL {kind}"]
            fewer = (two < c["1 VL"] * (1 - VISIBLE)) & (four < two * (1 - VISIBLE))
            why = "" if kind == "shared" else "; the study names no lane configuration. With dedicated lanes each link carries one lane (Fig. 8(c), (e)), so with equal lane buffers our network is the one-lane network, exactly (docs/models/infiniband.md)"
            if kind == "shared" and (two == c["1 VL"]).all() and (four == two).all():
                why = NO_WAIT
            claims.append(
                Claim(
                    f"more lanes, less time ({scheme} scheme, {kind} lanes)",
                    "§4 Cases 1–2, Remark 3: 'with more virtual lanes, less time is spent'",
                    f"1 > 2 > 4 VL in {int(fewer.sum())} of {len(c)} (group, size) cases; 2 / 1 VL {_range(two / c['1 VL'])}, 4 / 2 VL {_range(four / two)}",
                    bool(fewer.all()),
                    f"holds if 2 lanes take less time than 1 and 4 less than 2 in every case, by more than {VISIBLE_NOTE}{why}",
                )
            )
    mean = {s: float(g.mean()) for s, g in gain.items()}
    claims.append(
        Claim(
            "more lanes help the unicast scheme most",
            "§4 Case 1, Remark 3: 'especially for unicast cases'",
            f"1 → 4 shared VL: unicast {mean['unicast']:.0%}, multicast {mean['multicast']:.0%} less time on average (group, size)",
            mean["unicast"] > mean["multicast"] + VISIBLE,
            f"holds if the unicast scheme's average saving exceeds the multicast scheme's by more than {VISIBLE:.0%} of the one-lane time (the visible gap: {VISIBLE_NOTE})",
        )
    )

    small, large = [s for s in sizes if s <= PANEL_A_MAX], [s for s in sizes if s > PANEL_A_MAX]
    for vls in (2, 4):
        shared, dedicated = t.xs(f"{vls} VL shared", level="lanes"), t.xs(f"{vls} VL dedicated", level="lanes")
        for scheme in SCHEMES:
            ratio = dedicated[scheme] / shared[scheme]
            at_small = ratio[ratio.index.get_level_values("message_bytes").isin(small)]
            at_large = ratio[ratio.index.get_level_values("message_bytes").isin(large)]
            clearly = at_small >= 1 + CLEAR
            claims.append(
                Claim(
                    f"{vls} lanes, {scheme} scheme: shared lanes clearly beat dedicated ones in the (a) panels",
                    f"§4 Cases 1–2, Remark 3: shared better, 'clearly' in {_figures(first, vls)}",
                    f"dedicated / shared at {_span(small)}: {_range(at_small)}; at least {1 + CLEAR:.2f} in {int(clearly.sum())} of {len(at_small)} (group, size) cases",
                    bool(clearly.all()),
                    f"holds if dedicated lanes take at least {CLEAR:.0%} longer at every size of the (a) panels, both groups ({CLEAR_NOTE})"
                    + (NO_WAIT if (ratio == 1).all() else ""),
                )
            )
            unclear = (at_large - 1).abs() <= CLEAR
            claims.append(
                Claim(
                    f"{vls} lanes, {scheme} scheme: no clear difference for large messages",
                    "§4 Cases 1–2: 'not clear (not obvious) when the data size is large'",
                    f"dedicated / shared at {_span(large)}: {_range(at_large)}; within ±{CLEAR:.0%} in {int(unclear.sum())} of {len(at_large)} (group, size) cases",
                    bool(unclear.all()),
                    f"holds if within ±{CLEAR:.0%} at every size of the (b) panels, both groups ({CLEAR_NOTE})",
                )
            )
    return claims


def _claims_for(sources: int, first: int) -> Any:
    def claims(results: pd.DataFrame) -> list[Claim]:
        return _own_claims(results[results["sources"] == sources], first)

    return claims


def _all_source_claims(results: pd.DataFrame) -> list[Claim]:
    """The all-source experiment's own claims, and the study's comparisons across the numbers of sources
    (§4 Case 3, Remark 2), which read the one- and multi-source points this experiment also runs."""
    own = _own_claims(results[results["sources"] == 256], 22)
    t = _table(results, ("sources", "group", "lanes", "message_bytes"))
    sp = t["speedup"].unstack("sources")
    up = (sp[102] > sp[1] * (1 + VISIBLE)) & (sp[256] > sp[102] * (1 + VISIBLE))
    claims = [
        Claim(
            "the speedup grows with the number of sources",
            "Remark 2, abstract: 'the larger the number of multicast source nodes … the better the speedup'",
            f"1 < 102 < 256 sources in {int(up.sum())} of {len(sp)} (group, lanes, size) cases; speedup with 1 source {_range(sp[1])}, 102 {_range(sp[102])}, 256 {_range(sp[256])}",
            bool(up.all()),
            f"holds if the speedup rises from 1 to 102 (40%) to 256 sources in every case, by more than {VISIBLE_NOTE}",
        )
    ]
    times = t[list(SCHEMES)].stack().unstack("sources")
    longer = times[256] > times[102] * (1 + VISIBLE)
    claims.append(
        Claim(
            "all-source takes longer than multi-source",
            "§4 Case 3: 'the all-source multicast takes longer to send packets'",
            f"in {int(longer.sum())} of {len(times)} (group, lanes, size, scheme) cases; all / multi-source {_range(times[256] / times[102])}",
            bool(longer.all()),
            f"holds if 256 sources take longer than 102 in every case, both schemes, by more than {VISIBLE_NOTE}",
        )
    )
    multi = _own_claims(results[results["sources"] == 102], 16)
    same = [a.claim for a, b in zip(own, multi, strict=True) if a.holds == b.holds]
    differ = [a.claim for a, b in zip(own, multi, strict=True) if a.holds != b.holds]
    claims.append(
        Claim(
            "all-source results are similar to multi-source ones",
            "§4 Case 3: 'all the simulation results of all-source multicast are similar to those of multi-source multicast'",
            f"{len(same)} of {len(own)} orderings judged alike" + (f"; differ: {'; '.join(differ)}" if differ else ""),
            not differ,
            "'similar' read as: the same orderings — each claim above gives the same verdict on the 256-source points as on the 102-source points",
        )
    )
    speedups = t["speedup"]
    claims.append(
        Claim(
            "multicast speeds operations up tremendously",
            "§5: 'can speed up the execution of multicast operations tremendously'",
            f"speedup {_range(speedups)} over every case (1, 102 and 256 sources)",
            None,
            "not judged: the study gives no number for 'tremendously' (the claims above judge its orderings)",
        )
    )
    return own + claims


# --- plots ---------------------------------------------------------------------------------------------------


def _plot(sources: int, first_figure: int) -> Any:
    def plot(results: pd.DataFrame, out: Path) -> None:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        from flitcast.plot import INCOMPLETE_NOTE, draw_latency, latency_legend

        data = results[results["sources"] == sources]
        data = data.assign(completion_us=completion(data) / 1000)
        figure = first_figure
        for group in GROUPS:
            for vls in (1, 2, 4):
                configs = [c for c in LANES if c.startswith(f"{vls} VL")]
                for panel, (lo, hi) in (("a", (0, PANEL_A_MAX)), ("b", (PANEL_A_MAX, 10**9))):
                    fig, ax = plt.subplots(figsize=(6, 4.2))
                    for lanes in configs:
                        for scheme, style in (("multicast", "-"), ("unicast", "--")):
                            sel = data[(data["group"] == group) & (data["lanes"] == lanes) & (data["scheme"] == scheme)]
                            sel = sel[(sel["message_bytes"] > lo) & (sel["message_bytes"] <= hi)].sort_values("message_bytes")
                            # an incomplete batch (saturated) has no completion time: a ▲ at the top instead
                            incomplete = sel["saturated"].fillna(False).astype(bool) if "saturated" in sel else False
                            draw_latency(ax, sel["message_bytes"], sel["completion_us"], incomplete, note=INCOMPLETE_NOTE,
                                         linestyle=style, marker="o", markersize=3, label=f"{scheme}, {lanes}")
                    ax.set_xscale("log", base=2)
                    ax.set_xlabel("message size (bytes)")
                    ax.set_ylabel("completion time (µs)")
                    ax.set_title(f"Fig. {figure}({panel}): group {group:.0%}, {vls} lane{'s' if vls > 1 else ''}", fontsize=9)
                    latency_legend(ax, fontsize=7)
                    fig.tight_layout()
                    fig.savefig(out / f"fig{figure}{panel}.png", dpi=110)
                    plt.close(fig)
                figure += 1

    return plot


QUICK_NOTE = "message sizes 32 B, 256 B and 2 KB of the same points; judges no claim (they read every size of the study's panels)"


def _experiment(fid: str, sources: int, first: int, title: str, also: tuple[int, ...] = (), claims: Any = None) -> Experiment:
    """``also``: other numbers of sources whose points the experiment runs too, for its comparisons."""
    return Experiment(
        id=fid,
        study=STUDY,
        figure=f"Figs {first}–{first + 5}",
        title=title,
        points=lambda quick: [p for n in (*also, sources) for p in _points(n, quick)],
        claims=claims or _claims_for(sources, first),
        plot=_plot(sources, first),
        quick_note=QUICK_NOTE,
        derive=_with_ns,
        readings=READINGS,
    )


EXPERIMENTS = [
    _experiment("zhou-one-source", 1, 10, "one-source multicast vs unicast, 16×16 mesh, 1/2/4 lanes, groups 40% and 100%"),
    _experiment("zhou-multi-source", 102, 16, "multi-source (40% of nodes) multicast vs unicast, 16×16 mesh, 1/2/4 lanes, groups 40% and 100%"),
    # the study compares the numbers of sources (§4 Case 3, Remark 2): this experiment runs the one- and
    # multi-source points too and judges those comparisons
    _experiment(
        "zhou-all-source",
        256,
        22,
        "all-source multicast vs unicast, 16×16 mesh, 1/2/4 lanes, groups 40% and 100% (with the one- and multi-source points it compares against)",
        also=(1, 102),
        claims=_all_source_claims,
    ),
]
