"""Study 003's claims (flitcast/experiments/zhou.py) on hand-made result tables: a world shaped as the study
describes it, where every claim holds but the one the study contradicts itself on (§4 Case 1's "never
occurs" against its lanes helping one source), and for each claim a change where its statement says it
must not be, which makes it deviate — or, where the change is the study's own contradiction, study
inconsistent — or a run without some points, which leaves it not judged."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import pandas as pd
import pytest

from flitcast.experiments import EXPERIMENTS, zhou
from flitcast.experiments.claim import Claim, Results
from flitcast.experiments.verdicts import DEVIATES, HOLDS, INCONSISTENT, NOT_JUDGED

#: what each lane configuration does to a time: (unicast, multicast); more lanes a port can use, less time,
#: the unicast scheme helped most
LANE_FACTOR = {
    "1 VL": (1.0, 1.0),
    "2 VL shared": (0.7, 0.8),
    "2 VL dedicated": (0.7, 0.8),
    "4 VL shared": (0.5, 0.7),
    "4 VL dedicated": (0.5, 0.7),
}
#: dedicated lanes' extra time, both schemes alike (so the speedup is the shared lanes'): clear at the (a)
#: panels' sizes, within a line's width at the (b) panels'
DEDICATED = {"a": 1.15, "b": 1.005}

Labels = dict[str, Any]
Change = Callable[[Labels, float], float]


def time(sources: int, group: float, lanes: str, scheme: str, size: int) -> float:
    """A completion time in µs with every ordering the study states: the speedup grows with the size, the
    group and the number of sources; more sources take longer."""
    k = math.log2(size / 32)
    unicast = (1000.0 + size) * (1 + sources / 100) * (1 + group)
    speedup = (1.8 + 0.1 * k) * (1 + 0.2 * group) * (1 + sources / 1000)
    u, m = LANE_FACTOR[lanes]
    t = unicast * u if scheme == "unicast" else unicast / speedup * m
    return t * (DEDICATED[zhou.panel(size)] if lanes.endswith("dedicated") else 1.0)


def world(change: Change = lambda labels, t: t, sources: tuple[int, ...] = (1, 102, 256), sizes: dict[int, list[int]] | None = None) -> Results:
    """Every experiment's points (``sizes``: the sizes run for a number of sources, all by default), each
    time passed through ``change``."""
    rows = []
    for s in sources:
        for group in zhou.GROUPS:
            for lanes in zhou.LANES:
                for scheme in zhou.SCHEMES:
                    for size in (sizes or {}).get(s, zhou.SIZES):
                        labels = {"sources": s, "group": group, "lanes": lanes, "scheme": scheme, "message_bytes": size}
                        rows.append({**labels, "completion_ns": 1000 * change(labels, time(s, group, lanes, scheme, size)), "saturated": False, "error": ""})
    return Results(pd.DataFrame(rows))


def claims(r: Results) -> dict[str, Claim]:
    found = [c for table in (zhou.one_source_claims, zhou.multi_source_claims, zhou.all_source_claims) for c in table(r)]
    assert len({c.claim for c in found}) == len(found)  # names are unique
    return {c.claim: c for c in found}


def status(r: Results, start: str) -> str:
    (found,) = [c for name, c in claims(r).items() if name.startswith(start)]
    return found.status


def where(change: Change, **match: Any) -> Change:
    """``change`` applied to the points whose labels match."""
    return lambda labels, t: change(labels, t) if all(labels[k] == v for k, v in match.items()) else t


def scaled(by: float, **match: Any) -> Change:
    return where(lambda labels, t: t * by, **match)


def as_config(config: str, **match: Any) -> Change:
    """The points matching take the time of the lane configuration ``config`` (the same point otherwise)."""
    return where(lambda labels, t: time(labels["sources"], labels["group"], config, labels["scheme"], labels["message_bytes"]), **match)


def test_every_claim_holds_in_the_world_the_study_describes() -> None:
    statuses = {name: c.status for name, c in claims(world()).items()}
    expected = dict.fromkeys(statuses, HOLDS)
    # §4 Case 1 says both: with one source no two packets contend for a buffer, and lanes help it
    expected["one source: no packet waits behind another in a lane buffer (every lane configuration, the same time)"] = INCONSISTENT
    assert statuses == expected
    assert len(statuses) == 15


ONE_SOURCE_MULTICAST_ALONE = as_config("1 VL", sources=1, scheme="multicast")


@pytest.mark.parametrize(
    ("start", "change", "expected"),
    [
        # one source, lanes changing nothing: the study's "never occurs" holds ...
        ("one source: no packet waits", as_config("1 VL", sources=1), HOLDS),
        # ... and shared lanes equal to dedicated ones for the multicast scheme is the study's own contradiction
        ("one source: shared lanes clearly better", ONE_SOURCE_MULTICAST_ALONE, INCONSISTENT),
        # but a reversal for the unicast scheme is the model's
        ("one source: shared lanes clearly better", scaled(1.3, sources=1, scheme="unicast", lanes="2 VL shared", message_bytes=1024), DEVIATES),
        ("one source: no clear difference", scaled(1.1, sources=1, lanes="4 VL dedicated", message_bytes=4096), DEVIATES),
        ("40% sources: shared lanes clearly better", as_config("2 VL shared", sources=102, lanes="2 VL dedicated"), DEVIATES),
        ("40% sources: no clear difference", scaled(0.9, sources=102, scheme="unicast", lanes="2 VL dedicated", message_bytes=8192), DEVIATES),
        ("multicast outperforms unicast", where(lambda labels, t: time(256, labels["group"], "1 VL", "unicast", 2048), sources=256, scheme="multicast", lanes="1 VL", message_bytes=2048), DEVIATES),
        ("multicast speeds operations up much", scaled(1.4, sources=102, scheme="multicast", lanes="4 VL shared", message_bytes=32, group=0.4), DEVIATES),
        # a dip at one middle size; the ends still rise
        ("the speedup grows with the message size", scaled(1.3, sources=1, scheme="multicast", lanes="1 VL", message_bytes=512, group=1.0), DEVIATES),
        ("the speedup grows with the number of sources", scaled(1.5, sources=256, scheme="multicast", lanes="2 VL shared", message_bytes=128, group=1.0), DEVIATES),
        ("the speedup grows with the group size", scaled(1.12, group=1.0, sources=102, scheme="multicast", lanes="1 VL", message_bytes=64), DEVIATES),
        # 2 lanes visibly slower than 1 for the multicast scheme at one size, with many sources: the model's
        ("more lanes, less time", scaled(1.5, sources=102, scheme="multicast", lanes="2 VL shared", message_bytes=8192), DEVIATES),
        # the same with one source: what the study's "never occurs" says
        ("more lanes, less time", ONE_SOURCE_MULTICAST_ALONE, INCONSISTENT),
        # lanes help both schemes alike
        ("more lanes help the unicast scheme most", where(lambda labels, t: t / LANE_FACTOR[labels["lanes"]][1] * LANE_FACTOR[labels["lanes"]][0], scheme="multicast", sources=256), DEVIATES),
        ("shared lanes better than dedicated ones", scaled(1.2, sources=256, scheme="unicast", lanes="4 VL shared", message_bytes=8192), DEVIATES),
        ("shared lanes better than dedicated ones", ONE_SOURCE_MULTICAST_ALONE, INCONSISTENT),
        # an ordering that holds with 102 sources and not with 256
        ("all-source results are similar", scaled(1.3, sources=256, scheme="unicast", lanes="4 VL dedicated", message_bytes=8192, group=0.4), DEVIATES),
        ("all-source takes longer", where(lambda labels, t: time(102, labels["group"], labels["lanes"], "multicast", 1024), sources=256, scheme="multicast", lanes="1 VL", message_bytes=1024), DEVIATES),
    ],
)
def test_a_claim_deviates_where_its_statement_says_it_must_not_be(start: str, change: Change, expected: str) -> None:
    assert status(world(change), start) == expected


def test_the_contradiction_quotes_both_places() -> None:
    (found,) = [c for name, c in claims(world(ONE_SOURCE_MULTICAST_ALONE)).items() if name.startswith("more lanes, less time")]
    assert found.status == INCONSISTENT
    assert "never occurs" in found.inconsistent[1] and "less time" in found.inconsistent[0]


#: a quick run: the one-source points in full, 102 and 256 sources at the quick sizes only
QUICK = {102: zhou.QUICK_SIZES, 256: zhou.QUICK_SIZES}


def test_a_run_without_some_points_judges_only_what_they_decide() -> None:
    """A check on a point not run, or on a panel whose axis a missing point spans, is not judged: a claim
    that holds on the points run is not judged, one that deviates on them deviates."""
    quick = claims(world(sizes=QUICK))
    full = claims(world())
    assert {quick[name].status for name in quick if name.startswith("one source")} == {full[name].status for name in full if name.startswith("one source")}
    assert quick["multicast outperforms unicast in every case"].status == NOT_JUDGED
    assert quick["all-source takes longer than multi-source"].status == NOT_JUDGED
    assert {quick[name].status for name in quick if name.startswith("40% sources")} == {NOT_JUDGED}
    # a deviation among the points run is a deviation, run in full or not
    change = scaled(1.6, sources=256, scheme="multicast", lanes="4 VL shared", message_bytes=32, group=0.4)
    assert status(world(change, sizes=QUICK), "multicast speeds operations up much") == DEVIATES


def test_the_all_source_experiment_runs_the_points_it_compares_against() -> None:
    points = EXPERIMENTS["zhou-all-source"].run_points(False)
    assert sorted({p.labels["sources"] for p in points}) == [1, 102, 256]
    assert {p.labels["sources"] for p in EXPERIMENTS["zhou-multi-source"].run_points(False)} == {102}
    quick = EXPERIMENTS["zhou-all-source"].run_points(True)
    assert {p.labels["message_bytes"] for p in quick if p.labels["sources"] == 1} == set(zhou.SIZES)
    assert {p.labels["message_bytes"] for p in quick if p.labels["sources"] > 1} == set(zhou.QUICK_SIZES)
    # the one-source experiment's quick run is its full run; the multi-source one runs the quick sizes
    assert EXPERIMENTS["zhou-one-source"].run_points(True) == EXPERIMENTS["zhou-one-source"].run_points(False)
    assert {p.labels["message_bytes"] for p in EXPERIMENTS["zhou-multi-source"].run_points(True)} == set(zhou.QUICK_SIZES)


def test_figures_and_panels() -> None:
    assert [zhou.figure(1, 0.4, 1), zhou.figure(1, 1.0, 4), zhou.figure(102, 0.4, 2), zhou.figure(256, 1.0, 4)] == [10, 15, 17, 27]
    assert [zhou.panel(s) for s in (32, 1024, 2048, 8192)] == ["a", "a", "b", "b"]


def test_lane_buffers_hold_one_packet_of_the_message() -> None:
    """The study's channel (buffer) holds one packet (§3, §4 Case 1): each lane, input and output, is one
    packet of the message sent with its header, the scheme's own, and every message is one packet ("the
    packet size ranges from 32 bytes to 8 Kbytes")."""
    for size in (32, 8192):
        for scheme, header_flits in (("unicast", 5), ("multicast", 10)):  # 34 and 74 bytes in 8-byte flits
            s = zhou.scenario(1.0, 1.0, "2 VL shared", scheme, size)
            assert s.switch.buffer_flits == size // 8 + header_flits and s.workload.max_packet_bytes == size
            assert s.switch.output_buffers in (None, True)  # (the switch's default: output buffers)


def test_packets_carry_infiniband_headers_in_8_byte_flits() -> None:
    """Unreliable datagrams: LRH 8 + BTH 12 + DETH 8 + ICRC 4 + VCRC 2 = 34 bytes; a multicast adds the GRH
    (40) with the group's GID: 74. 8-byte flits (32 ns cycles), delays of 128 ns kept (4 cycles)."""
    assert (zhou.UNICAST_HEADER_BYTES, zhou.MULTICAST_HEADER_BYTES, zhou.CYCLE_NS, zhou.DELAY_CYCLES) == (34, 74, 32, 4)
    multicast, unicast = (zhou.scenario(0.4, 0.4, "1 VL", scheme, 256) for scheme in ("multicast", "unicast"))
    assert (multicast.workload.unicast_header_bytes, multicast.workload.multicast_header_bytes) == (34, 74)
    assert (unicast.workload.unicast_header_bytes, unicast.workload.multicast_header_bytes) == (34, 0)  # (the default)
    assert multicast.value("workload.header_flits") == 10  # (the derived header of a multidestination packet)
    assert (multicast.network.channel_latency_cycles, multicast.switch.router_delay_cycles) == (4, 4)


READINGS = {"lane-8k", "mtu-4k", "hosts-any-lane", "input-buffers-only", "no-headers"}


@pytest.mark.parametrize("experiment", ["zhou-one-source", "zhou-multi-source", "zhou-all-source"])
def test_the_other_buffer_and_packet_readings_are_declared(experiment: str) -> None:
    """`lane-8k`: every lane one 8 KB multicast packet at every size; `mtu-4k`: 8 KB messages as two 4 KB
    packets, a lane one 4 KB packet and its header, and nothing else changed (smaller messages are one
    packet already)."""
    exp = EXPERIMENTS[experiment]
    assert {r.name for r in exp.readings} == READINGS
    default = {tuple(sorted(p.labels.items())): p.scenario for p in exp.run_points(False)}
    header = {"unicast": 5, "multicast": 10}
    for reading in ("lane-8k", "mtu-4k"):
        for p in exp.read_as(reading).run_points(False):
            size, base = p.labels["message_bytes"], default[tuple(sorted(p.labels.items()))]
            if reading == "lane-8k":
                assert (p.scenario.switch.buffer_flits, p.scenario.workload.max_packet_bytes) == (1024 + 10, size)
            else:
                packet = min(size, 4096)
                assert (p.scenario.switch.buffer_flits, p.scenario.workload.max_packet_bytes) == (packet // 8 + header[p.labels["scheme"]], packet)
                assert (p.scenario == base) == (size <= 4096)
    # the 8 KB points, which the quick run leaves out, split under mtu-4k
    full = [p for p in exp.read_as("mtu-4k").run_points(False) if p.labels["message_bytes"] == 8192]
    assert full and all(p.scenario.workload.max_packet_bytes == 4096 and p.scenario.switch.buffer_flits == 512 + header[p.labels["scheme"]] for p in full)


@pytest.mark.parametrize("experiment", ["zhou-one-source", "zhou-multi-source", "zhou-all-source"])
def test_the_model_before_output_buffers_and_headers_is_a_reading(experiment: str) -> None:
    """`input-buffers-only`: the switch without output buffers, nothing else changed; `no-headers`: packets of
    their payload alone and lanes of one such packet, nothing else changed."""
    exp = EXPERIMENTS[experiment]
    default = {tuple(sorted(p.labels.items())): p.scenario for p in exp.run_points(False)}
    for p in exp.read_as("input-buffers-only").run_points(False):
        base = default[tuple(sorted(p.labels.items()))]
        assert p.scenario.switch.output_buffers is False
        assert p.scenario.with_overrides({"switch.output_buffers": True}) == base.with_overrides({"switch.output_buffers": True})
    for p in exp.read_as("no-headers").run_points(False):
        base, w = default[tuple(sorted(p.labels.items()))], p.scenario.workload
        assert (w.unicast_header_bytes, w.multicast_header_bytes or 0) == (0, 0)
        assert p.scenario.switch.buffer_flits == p.labels["message_bytes"] // 8
        assert p.scenario.value("workload.header_flits") in (None, 0)
        same = {"workload.unicast_header_bytes": 34, "switch.buffer_flits": base.switch.buffer_flits}
        if p.labels["scheme"] == "multicast":
            same["workload.multicast_header_bytes"] = 74
        assert p.scenario.with_overrides(same) == base


@pytest.mark.parametrize("experiment", ["zhou-one-source", "zhou-multi-source", "zhou-all-source"])
def test_hosts_any_lane_changes_only_the_dedicated_configurations(experiment: str) -> None:
    exp = EXPERIMENTS[experiment]
    default = {tuple(sorted(p.labels.items())): p.scenario for p in exp.run_points(True)}
    for p in exp.read_as("hosts-any-lane").run_points(True):
        base = default[tuple(sorted(p.labels.items()))]
        if "dedicated" in p.labels["lanes"]:
            assert (base.routing.lanes, p.scenario.routing.lanes) == ("by_port", "by_port_host_any")
        else:
            assert p.scenario == base
