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

Claims: one row per statement of §3–§5, the abstract and §1, each a word of the vocabulary (verdicts.py,
docs/experiments.md "Verdicts") on the completion times as our panels draw them (below, "claims"). The
study states no number. Each experiment judges the statements on its own figures (§4 Case 1: one source;
Case 2: 40% of the nodes); ``zhou-all-source``, which runs every point, judges Case 3 and the statements on
every case (abstract, §1, Remarks). Quick mode runs the one-source points in full and the multi- and
all-source points at the three smallest sizes: the same points, exact, so a claim is judged where every
point it reads was run.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flitcast.experiments import verdicts as w
from flitcast.experiments.claim import Claim, Results, Spread
from flitcast.experiments.experiment import Experiment, Point, Reading
from flitcast.experiments.verdicts import SIGNIFICANT, Axis, Measured, Verdict, panel_axis

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
#: a quick run's sizes with 102 and with 256 sources; the one-source points, seconds in all, run in full
#: (docs/experiments.md, "Quick mode (study 003)": a claim is judged only where every point it reads ran)
QUICK_SIZES = [32, 64, 128]
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
        for size in (QUICK_SIZES if quick and sources > 1 else SIZES)
    ]


def completion(results: pd.DataFrame) -> pd.Series:
    """Completion time in ns per point: the batch's completion (cycle 0 to the last byte at the last member).
    Every reading keeps the 8-byte flit."""
    return results["completion_cycles"] * CYCLE_NS


def _with_ns(results: pd.DataFrame) -> pd.DataFrame:
    """results.csv carries the completion time in ns (exact: 32 ns cycles)."""
    return results.assign(completion_ns=completion(results))


# --- claims --------------------------------------------------------------------------------------------
#
# One row per statement of the study (docs/experiments.md, "Study 003"), each a word of the vocabulary
# (verdicts.py, docs/experiments.md "Verdicts") on the completion times of Figs 10–27 as our panels draw
# them: a linear axis from 0 to the panel's largest time. The study splits every figure into (a) small and
# (b) large sizes, which a linear axis needs (on a log axis one panel would show every size); its axes are
# lost, and the split is ours: (a) 32 B – 1 KB, (b) 2 – 8 KB. The speedup, which no figure of the study
# draws, is read on our own panel of it (a ratio: a log axis). A statement the study makes in several places
# (a Case, a Remark, the abstract) is one claim whose checks read every case it speaks of; it is judged by
# the experiment that runs all of them (`zhou-all-source` for the study's statements on every case).

#: the (a) panels end at 1 KB, the (b) panels begin at 2 KB (our split: the study's axes are lost)
PANEL_A_MAX = 1024
#: the lane configurations of one figure (Figs 10–27: 1, 2 or 4 lanes; Fig. 8)
FIGURE_LANES = {1: ["1 VL"], 2: ["2 VL shared", "2 VL dedicated"], 4: ["4 VL shared", "4 VL dedicated"]}
#: "more virtual lanes": the configurations in which a port can use more lanes (Fig. 8(a), (b), (d)); a
#: dedicated configuration gives every port one lane ("the north port in the switch can use virtual lane
#: 0 only", §4 Case 1), whatever the figure's number of lanes
MORE_LANES = ["1 VL", "2 VL shared", "4 VL shared"]
SOURCES = [1, 102, 256]
#: the first figure of each number of sources (1 lane, group 40%; §4)
FIRST_FIGURE = {1: 10, 102: 16, 256: 22}

NEVER_OCCURS = "§4 Case 1: 'Since there is only one source node, the traffic congestion of two packets using the same buffer never occurs'"
LANES_HELP_ONE_SOURCE = (
    "§4 Case 1: 'With more virtual lanes, less time is spent to perform multicast operations, especially for unicast cases' "
    "(and Case 2: lanes speed operations up 'as it reduces traffic congestion')"
)
SHARED_CLEARLY_ONE_SOURCE = (
    "§4 Case 1: 'For both the unicast and the multicast schemes, given the same number of virtual lanes, we can get better "
    "performance if we do not associate the switch port with dedicated virtual lane(s). The observation can be clearly found "
    "in Figs. 11(a), 12(a), 14(a) and 15(a)'"
)


def figure(sources: int, group: float, vls: int) -> int:
    """The study's figure of these sources, group and number of lanes."""
    return FIRST_FIGURE[sources] + (3 if group == 1.0 else 0) + {1: 0, 2: 1, 4: 2}[vls]


def panel(size: int) -> str:
    return "a" if size <= PANEL_A_MAX else "b"


def _sizes(letter: str) -> list[int]:
    return [s for s in SIZES if panel(s) == letter]


def _vls(lanes: str) -> int:
    return LANES[lanes][0]


def _case(sources: int, group: float, lanes: str = "", scheme: str = "", size: int | None = None) -> str:
    parts = [f"{sources} source{'s' * (sources > 1)}", f"group {group:.0%}", lanes, scheme, f"{size} B" if size else ""]
    return ", ".join(p for p in parts if p)


class Times:
    """The completion times (µs) the claims read, by (sources, group, lanes, scheme, size), as Results gives
    them (exact in a full run: a closed batch is deterministic); a point the run did not simulate (a quick
    run leaves some out) is unknown, so a check on it, or on a panel whose axis it spans, is not judged."""

    def __init__(self, r: Results) -> None:
        self.known: dict[tuple[Any, ...], Measured] = {}
        keys = ["sources", "group", "lanes", "scheme"]
        slim = r.table[[*keys, "message_bytes", "completion_ns", "saturated"]]
        for key, rows in slim.groupby(keys, sort=False):
            # (each curve read through Results, which widens it in a quick run)
            for size, m in Results(rows, r.quick).curve("completion_ns", "completion", x="message_bytes"):
                # (in µs, as our panels draw them)
                self.known[(*key, int(size))] = Measured(m.value / 1000, m.low / 1000, m.high / 1000, _us(m.value / 1000))

    def time(self, sources: int, group: float, lanes: str, scheme: str, size: int) -> Measured:
        return self.known.get((sources, group, lanes, scheme, size), UNKNOWN)

    def speedup(self, sources: int, group: float, lanes: str, size: int) -> Measured:
        """unicast / multicast (the study's speedup)."""
        return _ratio(self.time(sources, group, lanes, "unicast", size), self.time(sources, group, lanes, "multicast", size))

    def lane_gain(self, sources: int, group: float, scheme: str, size: int) -> Measured:
        """time with 1 lane / time with 4 shared lanes (what more lanes save)."""
        return _ratio(self.time(sources, group, "1 VL", scheme, size), self.time(sources, group, "4 VL shared", scheme, size))

    def axis(self, panels: list[tuple[int, float, int, str]]) -> Axis | None:
        """The linear axis of our panel(s) (sources, group, lanes, panel letter): 0 to the largest time any of
        them draws (both schemes, every configuration of the figure)."""
        values = [self.time(s, g, lanes, scheme, size) for s, g, vls, letter in panels for lanes in FIGURE_LANES[vls] for scheme in SCHEMES for size in _sizes(letter)]
        names = "; ".join(f"Fig. {figure(s, g, vls)}({letter})" for s, g, vls, letter in panels)
        return _axis(f"completion time (µs), {names}", values)

    def speedup_axis(self, sources: list[int]) -> Axis | None:
        """The log axis of our speedup panel(s) of these numbers of sources (every group, configuration, size)."""
        values = [self.speedup(s, g, lanes, size) for s in sources for g in GROUPS for lanes in LANES for size in SIZES]
        return _axis(f"speedup, {', '.join(map(str, sources))} sources (our panel)", values, log=True)

    def gain_axis(self, sources: int) -> Axis | None:
        """The log axis of our panel of what 4 shared lanes save against 1 (both schemes and groups)."""
        values = [self.lane_gain(sources, g, scheme, size) for g in GROUPS for scheme in SCHEMES for size in SIZES]
        return _axis(f"time with 1 lane / with 4 shared lanes, {sources} sources (our panel)", values, log=True)


UNKNOWN = Measured(math.nan, math.nan, math.nan, "not run")


def _us(x: float) -> str:
    return f"{x:,.0f} µs" if x >= 100 else f"{x:.3g} µs"


def _ratio(a: Measured, b: Measured) -> Measured:
    if a.unknown or b.unknown:
        return UNKNOWN
    r = w.ratio(a, b)
    return Measured(r.value, r.low, r.high, f"×{r.value:.3g}")


def _axis(label: str, values: list[Measured], log: bool = False) -> Axis | None:
    """Our panel's axis of ``values``; None where one of them was not run (its span is not known)."""
    if any(v.unknown for v in values):
        return None
    return panel_axis(label, [v.value for v in values], log=log)


def _on(axis: Axis | None, word: Callable[[Axis], Verdict], label: str) -> Verdict:
    """``word`` on ``axis``, labelled with its case; not judged where the axis is not known. (``word`` is
    called here and now, so a lambda may read the caller's loop variables.)"""
    if axis is None:
        return Verdict(w.NOT_JUDGED, None, None, label, "not judged: a point of its panel was not run, so the panel's axis is not known")
    return w.labelled(word(axis), label)


def _ordered_across_panels(pairs: list[tuple[int, Measured, Measured, Axis | None]], label: str) -> list[Verdict]:
    """Curve ``a`` below curve ``b`` over a figure's two panels (each size on its own panel's axis): never
    visibly above it, visibly below it somewhere — the vocabulary's curve_lower read over the (a) and (b)
    panels together. (Per-claim code: curve_lower takes one axis, and the study's figures have two.)"""
    never = [_on(axis, lambda ax: w.negated(w.higher(a, b, ax), "not visibly above"), f"{label}, {size} B") for size, a, b, axis in pairs]
    apart = w.any_of([_on(axis, lambda ax: w.lower(a, b, ax), f"{label}, {size} B") for size, a, b, axis in pairs], rule="visibly below somewhere")
    return [*never, apart]


def _gated(checks: list[tuple[bool, Verdict]], rule: str, quotes: tuple[str, str]) -> tuple[Verdict, tuple[str, str] | tuple[()]]:
    """The claim's verdict over every check, and the study's contradiction ``quotes`` where it applies: only
    where the checks the contradiction covers (flagged True) deviate and every other check holds — a
    deviation elsewhere is the model's, reported as such; where the other checks are not judged (a quick
    run's missing points), whose deviation it is cannot be told, and the claim is not judged."""
    verdict = w.every([v for _, v in checks], rule=rule)
    covered = w.every([v for c, v in checks if c])
    rest = w.every([v for c, v in checks if not c])
    if covered.status != w.DEVIATES or rest.status == w.DEVIATES:
        return verdict, ()
    if rest.status == w.NOT_JUDGED:
        return replace(rest, ours=verdict.ours, rule=f"{rule}; the checks the study contradicts deviate, the others are not judged: {rest.rule}"), ()
    return verdict, quotes


# --- the checks of each statement, for the numbers of sources they read ------------------------------------


def outperforms(t: Times, sources: list[int]) -> Verdict:
    """Multicast visibly below unicast, every (group, configuration, size)."""
    checks = [
        _on(t.axis([(s, g, _vls(lanes), panel(size))]), lambda ax: w.lower(t.time(s, g, lanes, "multicast", size), t.time(s, g, lanes, "unicast", size), ax), _case(s, g, lanes, "", size))
        for s in sources
        for g in GROUPS
        for lanes in LANES
        for size in SIZES
    ]
    return w.every(checks, rule="multicast visibly below unicast in every case")


def much_faster(t: Times, sources: list[int]) -> Verdict:
    """A speedup of at least SIGNIFICANT, every case."""
    checks = [
        w.labelled(w.much_lower(t.time(s, g, lanes, "multicast", size), t.time(s, g, lanes, "unicast", size), ours=str(t.speedup(s, g, lanes, size))), _case(s, g, lanes, "", size))
        for s in sources
        for g in GROUPS
        for lanes in LANES
        for size in SIZES
    ]
    return w.every(checks, rule=f"unicast / multicast at least {SIGNIFICANT} in every case")


def speedup_grows_with_size(t: Times, sources: list[int]) -> Verdict:
    checks = []
    for s in sources:
        axis = t.speedup_axis([s])
        for g in GROUPS:
            for lanes in LANES:
                curve = [(float(size), t.speedup(s, g, lanes, size)) for size in SIZES]
                checks.append(_on(axis, lambda ax: w.increases(curve, ax), _case(s, g, lanes)))
    return w.every(checks, rule="the speedup increases with the size in every (sources, group, configuration)")


def speedup_grows_with_group(t: Times, sources: list[int]) -> Verdict:
    checks = []
    for s in sources:
        axis = t.speedup_axis([s])
        for lanes in LANES:
            for size in SIZES:
                curve = [(g, t.speedup(s, g, lanes, size)) for g in GROUPS]
                checks.append(_on(axis, lambda ax: w.increases(curve, ax), f"{s} source{'s' * (s > 1)}, {lanes}, {size} B, 40% → 100%"))
    return w.every(checks, rule="the speedup higher for the 100% group in every (sources, configuration, size)")


def speedup_grows_with_sources(t: Times) -> Verdict:
    axis = t.speedup_axis(SOURCES)
    checks = [
        _on(axis, lambda ax: w.increases([(float(s), t.speedup(s, g, lanes, size)) for s in SOURCES], ax), f"group {g:.0%}, {lanes}, {size} B, 1 → 102 → 256 sources")
        for g in GROUPS
        for lanes in LANES
        for size in SIZES
    ]
    return w.every(checks, rule="the speedup increases from 1 to 102 to 256 sources in every (group, configuration, size)")


def more_lanes_less_time(t: Times, sources: list[int]) -> list[tuple[bool, Verdict]]:
    """Per (sources, group, scheme): the family of time curves over 1, 2 and 4 lanes that a port can use
    (MORE_LANES) falls — no visible step back between neighbours at any size, and 4 lanes visibly below 1 at
    some size (the vocabulary's curves_decrease, read over both panels; each size on the axis that spans
    its panel in the three figures). Flagged: the one-source multicast checks (the study's contradiction)."""
    out = []
    for s in sources:
        for g in GROUPS:
            axes = {letter: t.axis([(s, g, vls, letter) for vls in (1, 2, 4)]) for letter in "ab"}
            for scheme in SCHEMES:
                label = _case(s, g, "", scheme)
                never = [
                    _on(axes[panel(size)], lambda ax: w.negated(w.higher(t.time(s, g, more, scheme, size), t.time(s, g, fewer, scheme, size), ax), "no step back"), f"{label}, {fewer} → {more}, {size} B")
                    for fewer, more in itertools.pairwise(MORE_LANES)
                    for size in SIZES
                ]
                apart = w.any_of([_on(axes[panel(size)], lambda ax: w.lower(t.time(s, g, "4 VL shared", scheme, size), t.time(s, g, "1 VL", scheme, size), ax), f"{label}, 4 VL shared vs 1 VL, {size} B") for size in SIZES], rule="4 lanes visibly below 1 somewhere")
                flagged = s == 1 and scheme == "multicast"
                out += [(flagged, v) for v in [*never, apart]]
    return out


def lanes_help_unicast_most(t: Times, sources: list[int]) -> Verdict:
    """What 4 shared lanes save against 1, as a ratio, higher for the unicast scheme than the multicast
    scheme: the two curves over the sizes, on our panel of that ratio (curve_higher)."""
    checks = []
    for s in sources:
        axis = t.gain_axis(s)
        for g in GROUPS:
            u = [(float(size), t.lane_gain(s, g, "unicast", size)) for size in SIZES]
            m = [(float(size), t.lane_gain(s, g, "multicast", size)) for size in SIZES]
            checks.append(_on(axis, lambda ax: w.curve_higher(u, m, ax), _case(s, g)))
    return w.every(checks, rule="1-lane / 4-shared-lane time higher for the unicast scheme")


def shared_beats_dedicated(t: Times, sources: list[int]) -> list[tuple[bool, Verdict]]:
    """Per (sources, group, lanes, scheme): shared lanes' curve below dedicated lanes' over both panels."""
    out = []
    for s in sources:
        for g in GROUPS:
            for vls in (2, 4):
                for scheme in SCHEMES:
                    pairs = [(size, t.time(s, g, f"{vls} VL shared", scheme, size), t.time(s, g, f"{vls} VL dedicated", scheme, size), t.axis([(s, g, vls, panel(size))])) for size in SIZES]
                    flagged = s == 1 and scheme == "multicast"
                    out += [(flagged, v) for v in _ordered_across_panels(pairs, f"Fig. {figure(s, g, vls)}, {scheme}")]
    return out


def shared_clearly_better_small(t: Times, sources: int) -> list[tuple[bool, Verdict]]:
    """In the (a) panels of the 2- and 4-lane figures: shared lanes' curve visibly below dedicated lanes'
    (curve_lower: never visibly above, visibly below somewhere), both schemes."""
    out = []
    for g in GROUPS:
        for vls in (2, 4):
            axis = t.axis([(sources, g, vls, "a")])
            for scheme in SCHEMES:
                shared = [(float(size), t.time(sources, g, f"{vls} VL shared", scheme, size)) for size in _sizes("a")]
                dedicated = [(float(size), t.time(sources, g, f"{vls} VL dedicated", scheme, size)) for size in _sizes("a")]
                v = _on(axis, lambda ax: w.curve_lower(shared, dedicated, ax), f"Fig. {figure(sources, g, vls)}(a), {scheme}")
                out.append((sources == 1 and scheme == "multicast", v))
    return out


def not_clear_large(t: Times, sources: int) -> Verdict:
    """In the (b) panels of the 2- and 4-lane figures: shared and dedicated lanes within the visible
    resolution of each other at every size, both schemes."""
    checks = [
        _on(
            t.axis([(sources, g, vls, "b")]),
            lambda ax: w.similar(t.time(sources, g, f"{vls} VL shared", scheme, size), t.time(sources, g, f"{vls} VL dedicated", scheme, size), ax),
            f"Fig. {figure(sources, g, vls)}(b), {scheme}, {size} B",
        )
        for g in GROUPS
        for vls in (2, 4)
        for scheme in SCHEMES
        for size in _sizes("b")
    ]
    return w.every(checks, rule="shared and dedicated lanes not visibly apart at any size of the (b) panels")


def never_waits(t: Times) -> Verdict:
    """One source: every lane configuration gives the same time (no visible difference), per (group,
    scheme, size). Lanes are buffers: where no packet waits behind another in a buffer, how many a port has
    changes nothing; a time that changes with them is a packet that waited for one."""
    checks = []
    for g in GROUPS:
        axes = {letter: t.axis([(1, g, vls, letter) for vls in (1, 2, 4)]) for letter in "ab"}
        for scheme in SCHEMES:
            for size in SIZES:
                curve = [(float(i), t.time(1, g, lanes, scheme, size)) for i, lanes in enumerate(LANES)]
                checks.append(_on(axes[panel(size)], lambda ax: w.nearly_constant(curve, ax), _case(1, g, "", scheme, size)))
    return w.every(checks, rule="one source: the five lane configurations within the visible resolution of each other in every case")


def _same_orderings(t: Times) -> Verdict:
    """§4 Case 3's 'similar': each ordering judged on the 102-source points alone gives the same verdict on
    the 256-source points alone. (Per-claim code: it compares two verdicts, not two quantities.)"""
    same, differ, open_ = [], [], []
    for name, judge in _ORDERINGS.items():
        multi, every_source = judge(t, 102), judge(t, 256)
        if w.NOT_JUDGED in (multi.status, every_source.status):
            open_.append(name)
        elif multi.status == every_source.status:
            same.append(name)
        else:
            differ.append(f"{name} ({multi.status} with 102, {every_source.status} with 256)")
    ours = f"{len(same)} of {len(_ORDERINGS)} orderings alike" + (f"; differ: {'; '.join(differ)}" if differ else "") + (f"; not judged: {', '.join(open_)}" if open_ else "")
    status = w.DEVIATES if differ else w.NOT_JUDGED if open_ else w.HOLDS
    return Verdict(status, None, None, ours, "every ordering below gives the same verdict with 102 and with 256 sources")


def all_source_longer(t: Times) -> Verdict:
    checks = [
        _on(
            t.axis([(102, g, _vls(lanes), panel(size)), (256, g, _vls(lanes), panel(size))]),
            lambda ax: w.higher(t.time(256, g, lanes, scheme, size), t.time(102, g, lanes, scheme, size), ax),
            _case(256, g, lanes, scheme, size) + " vs 102",
        )
        for g in GROUPS
        for lanes in LANES
        for scheme in SCHEMES
        for size in SIZES
    ]
    return w.every(checks, rule="256 sources visibly above 102 in every case")


#: the orderings §4 Case 3 finds alike with all sources and with 40% of them, each judged on one number of sources
_ORDERINGS: dict[str, Callable[[Times, int], Verdict]] = {
    "multicast outperforms unicast": lambda t, s: outperforms(t, [s]),
    "multicast much faster": lambda t, s: much_faster(t, [s]),
    "speedup grows with the size": lambda t, s: speedup_grows_with_size(t, [s]),
    "speedup grows with the group": lambda t, s: speedup_grows_with_group(t, [s]),
    "more lanes, less time": lambda t, s: w.every([v for _, v in more_lanes_less_time(t, [s])]),
    "more lanes help unicast most": lambda t, s: lanes_help_unicast_most(t, [s]),
    "shared lanes better than dedicated": lambda t, s: w.every([v for _, v in shared_beats_dedicated(t, [s])]),
    "shared lanes clearly better in the (a) panels": lambda t, s: w.every([v for _, v in shared_clearly_better_small(t, s)]),
    "no clear difference in the (b) panels": not_clear_large,
}


# --- the tables ----------------------------------------------------------------------------------------------


def one_source_claims(r: Results) -> list[Claim]:
    """§4 Case 1's own statements (Figs 10–15)."""
    t = Times(r)
    clearly, clearly_contradicted = _gated(shared_clearly_better_small(t, 1), "shared lanes visibly better in every (a) panel named", (SHARED_CLEARLY_ONE_SOURCE, NEVER_OCCURS))
    return [
        Claim(
            "one source: no packet waits behind another in a lane buffer (every lane configuration, the same time)",
            "§4 Case 1",
            "Since there is only one source node, the traffic congestion of two packets using the same buffer never occurs.",
            never_waits(t),
            note=(
                "read through what it implies: lanes are buffers, so where no packet ever waits behind another in one, the lane "
                "configuration changes no time, and a time that changes with the lanes is a packet that waited for a buffer; judged on "
                "the axis each panel has in the group's three figures. Measured: the multicast scheme holds it (one packet, alone: every "
                "configuration the same time); the unicast scheme does not — its packets never wait inside the network (their network "
                "latency is the zero-load one), but with one-packet lanes each waits at its source for the lane its predecessor holds in "
                "the source's switch, which more shared lanes remove (docs/experiments.md, study 003)"
            ),
            inconsistent=(NEVER_OCCURS, LANES_HELP_ONE_SOURCE),
        ),
        Claim(
            "one source: shared lanes clearly better than dedicated ones in Figs 11(a), 12(a), 14(a), 15(a), both schemes",
            "§4 Case 1, Figs 11(a), 12(a), 14(a), 15(a)",
            "For both the unicast and the multicast schemes, given the same number of virtual lanes, we can get better performance if we do not associate the switch port with dedicated virtual lane(s). The observation can be clearly found in Figs. 11(a), 12(a), 14(a) and 15(a).",
            clearly,
            note=(
                "'clearly found' in a panel: the shared lanes' curve visibly below the dedicated lanes' somewhere in it and never visibly "
                "above (curve_lower on the panel's axis). The unicast scheme holds it in all four panels; the multicast scheme's one "
                "packet takes the same time in every configuration, which the study's own 'never occurs' implies"
            ),
            inconsistent=clearly_contradicted,
        ),
        Claim(
            "one source: no clear difference between shared and dedicated lanes for large messages",
            "§4 Case 1, Figs 11(b), 12(b), 14(b), 15(b)",
            "However, this observation is not clear when the data size is large.",
            not_clear_large(t, 1),
            note="'not clear': within the visible resolution (similar), at every size of the (b) panels — 'large' read as the sizes of the (b) panels, against 'clearly found in Figs 11(a) …' for the (a) panels",
        ),
    ]


def multi_source_claims(r: Results) -> list[Claim]:
    """§4 Case 2's own statements (Figs 16–21)."""
    t = Times(r)
    return [
        Claim(
            "40% sources: shared lanes clearly better than dedicated ones in Figs 17(a), 18(a), 20(a), 21(a), both schemes",
            "§4 Case 2, Figs 17(a), 18(a), 20(a), 21(a)",
            "For both the unicast scheme and the multicast scheme, with the same number of virtual lanes, we can get a better performance if we do not associate the switch port with dedicated virtual lane(s). This observation can be clearly seen in Figs. 17(a), 18(a), 20(a) and 21(a).",
            w.every([v for _, v in shared_clearly_better_small(t, 102)], rule="shared lanes visibly better in every (a) panel named"),
            note=(
                "'clearly seen' in a panel: the shared lanes' curve visibly below the dedicated lanes' somewhere in it and never visibly "
                "above (curve_lower on the panel's axis). Where it deviates: the multicast scheme's curves lie low on panels whose height "
                "the unicast scheme's sets (speedups of 3–12), and their gap stays under the visible resolution"
            ),
        ),
        Claim(
            "40% sources: no clear difference between shared and dedicated lanes for large messages",
            "§4 Case 2, Figs 17(b), 18(b), 20(b), 21(b)",
            "However, this observation is not obvious when the data size is large.",
            not_clear_large(t, 102),
            note=(
                "'not obvious': within the visible resolution (similar), at every size of the (b) panels. Where it deviates: dedicated "
                "lanes are the one-lane network (every link carries one lane, sources inject on lane 0), and with many sources shared "
                "lanes still save the unicast scheme 12–29% of its time at 2–8 KB"
            ),
        ),
    ]


def all_source_claims(r: Results) -> list[Claim]:
    """§4 Case 3's statements, and the study's statements on every case (abstract, §1, §3, Cases 1–2, §5),
    which read the one- and multi-source points this experiment runs too."""
    t = Times(r)
    lanes, lanes_contradicted = _gated(more_lanes_less_time(t, SOURCES), "more lanes, less time in every (sources, group, scheme)", ("§4 Case 1: 'With more virtual lanes, less time is spent to perform multicast operations'", NEVER_OCCURS))
    shared, shared_contradicted = _gated(shared_beats_dedicated(t, SOURCES), "shared lanes better in every (sources, group, lanes, scheme)", ("§4 Case 1: 'For both the unicast and the multicast schemes, given the same number of virtual lanes, we can get better performance if we do not associate the switch port with dedicated virtual lane(s)'", NEVER_OCCURS))
    return [
        Claim(
            "multicast outperforms unicast in every case",
            "abstract, §1, §4 Cases 1–2, Remark 1",
            "The proposed multicast scheme outperforms the unicast scheme for all the simulation cases.",
            outperforms(t, SOURCES),
            note=(
                "every (sources, group, lane configuration, size): the multicast scheme's time visibly below the unicast scheme's on the "
                "figure's panel. The tightest cases: the smallest size of a 4-lane (a) panel, where both times lie within a few "
                "hundredths of the panel's height (without headers the gap there is under the visible resolution)"
            ),
        ),
        Claim(
            "multicast speeds operations up much (a speedup of at least 1.2 in every case)",
            "§3, §5",
            "with hardware-supported multicast in IBA we can get a significant performance improvement in multicast operations (§3); the proposed multicast scheme can speed up the execution of multicast operations tremendously (§5)",
            much_faster(t, SOURCES),
            note=f"'significant', 'tremendously': the vocabulary's 'much', a ratio of at least {SIGNIFICANT} (the study gives no factor), unicast / multicast in every case",
        ),
        Claim(
            "the speedup grows with the message size",
            "abstract, §1, Remark 2",
            "The larger the message size … the better the speedup that can be expected from the proposed multicast scheme.",
            speedup_grows_with_size(t, SOURCES),
            note=(
                "a trend (increases) along the nine sizes, in every (sources, group, lane configuration): the end-to-end rise visible on "
                "our speedup panel of that number of sources, no step back visible. Where it deviates: with 256 sources and one lane "
                "(or dedicated lanes, the same network) the speedup stays flat from 256 B up and steps back at 2 KB (both schemes "
                "limited by the links); with one and with 102 sources it rises"
            ),
        ),
        Claim(
            "the speedup grows with the number of sources",
            "abstract, §1, Remark 2",
            "The larger the number of multicast source nodes … the better the speedup that can be expected from the proposed multicast scheme.",
            speedup_grows_with_sources(t),
            note=(
                "a trend (increases) from 1 to 102 to 256 sources, in every (group, lane configuration, size), on an axis spanning our "
                "three speedup panels. Where it deviates: one source's unicasts queue on its own injection link while its multicast is "
                "one packet, so the speedup is largest with one source and falls with more"
            ),
        ),
        Claim(
            "the speedup grows with the group size",
            "abstract, §1, Remark 2",
            "The larger the size of the multicast group, the better the speedup that can be expected from the proposed multicast scheme.",
            speedup_grows_with_group(t, SOURCES),
            note="the 100% group's speedup visibly above the 40% group's, in every (sources, lane configuration, size), on our speedup panel",
        ),
        Claim(
            "more lanes, less time (1, 2, 4 lanes a port can use), both schemes",
            "abstract, §1, §4 Cases 1–2, Remark 3",
            "With more virtual lanes, less time is spent to perform multicast operations (Case 1); by adding virtual lanes, we can speed up the performance (Case 2); the more virtual lanes, the better the performance obtained (§1)",
            lanes,
            note="'more virtual lanes': 1, 2 and 4 lanes a port can use (Fig. 8(a), (b), (d)); a dedicated configuration gives each port one lane whatever the figure's count ('the north port … can use virtual lane 0 only'). The family of time curves falls (curves_decrease, over both panels): no visible step back from 1 to 2 or 2 to 4 lanes at any size, 4 lanes visibly below 1 somewhere, in every (sources, group, scheme); each size on the axis its panel has in the three figures. Where it deviates: the multicast scheme — one packet with one source, and with many sources lane savings under the visible resolution of panels whose height the unicast scheme sets",
            inconsistent=lanes_contradicted,
        ),
        Claim(
            "more lanes help the unicast scheme most",
            "§4 Case 1, Remark 3",
            "… especially for unicast cases (Case 1); with more virtual lanes, we can get a better performance, especially for the unicast scheme (Remark 3)",
            lanes_help_unicast_most(t, SOURCES),
            note="what more lanes save as the ratio time with 1 lane / time with 4 shared lanes: the unicast scheme's curve above the multicast scheme's over the sizes (curve_higher) on our panel of that ratio, in every (sources, group). Where it deviates: 102 sources, 100%, 8 KB, where the output buffers let 4 lanes save the multicast scheme slightly more than the unicast scheme",
        ),
        Claim(
            "shared lanes better than dedicated ones (2 and 4 lanes, both schemes)",
            "§1, §4 Cases 1–2, Remark 3",
            "For both the unicast scheme and the multicast scheme, with the same number of virtual lanes (2 or 4 in this work), we get a better performance when we do not associate the switch port with dedicated virtual lane(s).",
            shared,
            note=(
                "the shared lanes' curve below the dedicated lanes' over a figure's two panels: never visibly above, visibly below "
                "somewhere, in every (sources, group, lanes, scheme). Where it deviates: the multicast scheme, as for 'more lanes, less "
                "time' (dedicated lanes are the one-lane network); with all sources 4 shared lanes are slower than dedicated ones "
                "for the multicast scheme at 8 KB, by less than the visible resolution"
            ),
            inconsistent=shared_contradicted,
        ),
        Claim(
            "all-source results are similar to multi-source ones (the same orderings)",
            "§4 Case 3",
            "We observe that all the simulation results of all-source multicast are similar to those of multi-source multicast.",
            _same_orderings(t),
            note="'similar' results read as the same orderings, not the same times: the next sentence says all-source takes longer. Each ordering the study reads within one number of sources (the nine listed in ours), judged on the 102-source points alone and on the 256-source points alone, gives the same verdict; Case 2's 'clearly … in Figs 17(a), 18(a), 20(a), 21(a)' and 'not obvious when large' read on Figs 23, 24, 26, 27 for all sources",
        ),
        Claim(
            "all-source takes longer than multi-source",
            "§4 Case 3",
            "Obviously, the all-source multicast takes longer to send packets because there are more packets to be transmitted",
            all_source_longer(t),
            note=(
                "every (group, lane configuration, scheme, size): 256 sources visibly above 102 on an axis spanning both figures' "
                "panels. Where it deviates: the multicast scheme, 2.2–3 times longer with all sources but low on panels whose "
                "height the unicast scheme's largest size sets"
            ),
        ),
    ]

# --- plots ---------------------------------------------------------------------------------------------------


def _plot(sources: int, first_figure: int) -> Any:
    def plot(results: pd.DataFrame, out: Path) -> None:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        from flitcast.experiments.study_marks import finish_panel
        from flitcast.plot import INCOMPLETE_NOTE, draw_latency, empty_panel, latency_legend

        data = results[results["sources"] == sources]
        data = data.assign(completion_us=completion(data) / 1000)
        for group in GROUPS:
            for vls in (1, 2, 4):
                number = figure(sources, group, vls)
                for letter in "ab":
                    fig, ax = plt.subplots(figsize=(6, 4.2))
                    sizes: set[int] = set()
                    for lanes in FIGURE_LANES[vls]:
                        for scheme, style in (("multicast", "-"), ("unicast", "--")):
                            sel = data[(data["group"] == group) & (data["lanes"] == lanes) & (data["scheme"] == scheme)]
                            sel = sel[sel["message_bytes"].isin(_sizes(letter))].sort_values("message_bytes")
                            # an incomplete batch (saturated) has no completion time: a ▲ at the top instead
                            incomplete = sel["saturated"].fillna(False).astype(bool) if "saturated" in sel else False
                            draw_latency(ax, sel["message_bytes"], sel["completion_us"], incomplete, note=INCOMPLETE_NOTE,
                                         linestyle=style, marker="o", markersize=3, label=f"{scheme}, {lanes}")
                            sizes |= set(sel["message_bytes"].astype(int))
                    ax.set_xscale("log", base=2)
                    ax.set_ylim(bottom=0)
                    ax.set_xlabel("message size (bytes)" + _sizes_run(sizes, letter))

                    ax.set_ylabel("completion time (µs)")
                    ax.set_title(f"Fig. {number}({letter}): group {group:.0%}, {vls} lane{'s' if vls > 1 else ''}", fontsize=9)
                    latency_legend(ax, fontsize=7)
                    if not sizes:
                        empty_panel(ax, f"no size of this panel in this run\n(the quick run: {', '.join(f'{x} B' for x in QUICK_SIZES)})")
                    finish_panel(ax, EXPERIMENT_IDS[sources], f"fig{number}{letter}", grid=True)
                    fig.tight_layout()
                    fig.savefig(out / f"fig{number}{letter}.png", dpi=110)
                    plt.close(fig)
        _ratio_panels(data, sources, out)

    return plot


def _sizes_run(sizes: set[int], letter: str) -> str:
    """What the x-axis label adds where a run (a quick one) ran fewer of a panel's sizes than the figure
    has: a lone point per curve is one size, not a curve."""
    wanted = _sizes(letter)
    if not sizes or len(sizes) >= len(wanted):
        return ""
    return " — this run: one size, no curve" if len(sizes) == 1 else f" — this run: {len(sizes)} of its {len(wanted)} sizes"


def _ratio_panels(data: pd.DataFrame, sources: int, out: Path) -> None:
    """Our own panels of what the claims read and no figure of the study draws: the speedup (unicast /
    multicast) and what 4 shared lanes save against 1 (time with 1 lane / with 4), on log axes."""
    import matplotlib.pyplot as plt

    from flitcast.experiments.experiment import series_style
    from flitcast.experiments.study_marks import finish_panel
    from flitcast.plot import latency_legend

    experiment = EXPERIMENT_IDS[sources]
    times = data.pivot_table(index=["group", "lanes", "message_bytes"], columns="scheme", values="completion_ns")
    fig, ax = plt.subplots(figsize=(7.5, 4.2))
    for i, ((group, lanes), rows) in enumerate(times.groupby(level=["group", "lanes"])):
        rows = rows.droplevel(["group", "lanes"])
        ax.plot(rows.index, rows["unicast"] / rows["multicast"], label=f"group {group:.0%}, {lanes}", **series_style(i))
    ax.set(xscale="log", yscale="log", xlabel="message size (bytes)", ylabel="speedup (unicast / multicast)")
    ax.set_xscale("log", base=2)
    ax.set_title(f"speedup, {sources} source{'s' * (sources > 1)} (ours: no figure of the study draws it)", fontsize=9)
    latency_legend(ax, fontsize=7)
    finish_panel(ax, experiment, "speedup", grid=True)
    fig.tight_layout()
    fig.savefig(out / "speedup.png", dpi=110)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(6, 4.2))
    for i, (group, scheme) in enumerate((g, s) for g in GROUPS for s in SCHEMES):
        one = times.xs((group, "1 VL"), level=["group", "lanes"])[scheme]
        four = times.xs((group, "4 VL shared"), level=["group", "lanes"])[scheme]
        ax.plot(one.index, one / four, label=f"group {group:.0%}, {scheme}", **series_style(i))
    ax.set(xscale="log", yscale="log", xlabel="message size (bytes)", ylabel="time with 1 lane / with 4 shared lanes")
    ax.set_xscale("log", base=2)
    ax.set_title(f"what 4 shared lanes save, {sources} source{'s' * (sources > 1)} (ours)", fontsize=9)
    latency_legend(ax, fontsize=7)
    finish_panel(ax, experiment, "lanes", grid=True)
    fig.tight_layout()
    fig.savefig(out / "lanes.png", dpi=110)
    plt.close(fig)


QUICK_NOTE = (
    f"the one-source points in full, 102 and 256 sources at {', '.join(f'{x} B' for x in QUICK_SIZES)}: the same points as "
    "the full run, exact, so a claim is judged where every point it reads, and every point of its panels' axes, was run "
    "(docs/experiments.md, Quick mode)"
)
#: a quick point is a full point (a closed batch is deterministic): its completion time is the full run's,
#: exactly (measured: docs/experiments.md, "Study 003", quick against full)
QUICK_RESOLUTION = {"completion": Spread()}


#: the experiment that draws each number of sources' figures
EXPERIMENT_IDS = {1: "zhou-one-source", 102: "zhou-multi-source", 256: "zhou-all-source"}


def _experiment(fid: str, sources: int, title: str, claims: Any, also: tuple[int, ...] = ()) -> Experiment:
    """``also``: other numbers of sources whose points the experiment runs too, for its comparisons. The
    one-source experiment's quick run is its full run."""
    first = FIRST_FIGURE[sources]
    return Experiment(
        id=fid,
        study=STUDY,
        figure=f"Figs {first}–{first + 5}",
        title=title,
        points=lambda quick: [p for n in (*also, sources) for p in _points(n, quick)],
        claims=claims,
        plot=_plot(sources, first),
        quick_note=QUICK_NOTE,
        quick_runs_full=sources == 1,
        quick_resolution=QUICK_RESOLUTION,
        derive=_with_ns,
        readings=READINGS,
    )


EXPERIMENTS = [
    _experiment("zhou-one-source", 1, "one-source multicast vs unicast, 16×16 mesh, 1/2/4 lanes, groups 40% and 100%", one_source_claims),
    _experiment("zhou-multi-source", 102, "multi-source (40% of nodes) multicast vs unicast, 16×16 mesh, 1/2/4 lanes, groups 40% and 100%", multi_source_claims),
    # the study's statements on every case (abstract, §1, Cases 1–3, Remarks) read every number of
    # sources: this experiment runs the one- and multi-source points too and judges them
    _experiment(
        "zhou-all-source",
        256,
        "all-source multicast vs unicast, 16×16 mesh, 1/2/4 lanes, groups 40% and 100% (with the one- and multi-source points the study's statements on every case read)",
        all_source_claims,
        also=(1, 102),
    ),
]
