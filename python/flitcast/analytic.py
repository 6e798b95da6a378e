"""The small-message latency model of study 004 (Oral and George, §5) for software multicast on a k-ary
2-D unidirectional torus (docs/models/torus_multicast.md).

Times are in **µs**. The network parameters of Fig. 8 are given in ns and converted: L_p = 14 ns per
link, L_f = 60 ns per node passed within a ringlet, L_s = 670 ns per switch of dimension, and the host
overhead o(M) = 1994 + 3.15·(M − 128) ns for M-byte messages (sender and receiver alike). Table 1's
t_process has lost its unit in the source; we read µs (7, 206, 201, 629, 265 µs): the study calls t_process
the dominant part of L_i and L_p, L_f, L_s "drastically smaller", which holds only in µs. ``t_process_unit
= "ns"`` is the other reading.

The relay structure of each algorithm and the hops by kind between hosts come from the core
(``_core.torus_multicast``, the same plans the simulator runs), never from a second implementation here.
Members are the root (node 0) and the next G − 1 nodes on the dimension-ordered chain.

Equations:

- (1) LogP, one way: L + o_sender + o_receiver (the source's extraction reads 2L + 2·(o_s + o_r), a round
  trip: :func:`logp_round_trip`);
- (2) relaxed LogP: o_sender + t_network + o_receiver;
- (3) t_multicast = max over paths of [o_sender + t_network + o_receiver], the deepest path;
- (4) t_network = h_p·L_p + h_f·L_f + h_s·L_s + h_i·L_i;
- (5) L_i = o_sender + t_process + o_receiver;
- (6), (8) separate addressing: (G − 1)·(o + t_process) + o;
- (7) the others: 2·o + h_i·L_i, h_i the relays on the deepest path (from the core's plan);
- (10) with one partition and (12): 2·o + (G − 2)·L_i. The source's (9), (10) for p ≥ 2 and (11) are
  garbled: the plan's relay count stands in for them (``h_i = "tree"``, the default), and the
  reconstructions that fit the study's axes are offered as ``h_i = "closed"`` (Mu-torus ⌈G/r⌉ + r − 2, U-torus
  ⌈log₂ G⌉; Md-torus has none and uses the plan).

:func:`latency` evaluates Eq. 7/8 (``model="simplified"``) or Eq. 3 with Eq. 4's network terms summed
along the deepest path (``model="deepest_path"``).
"""

from __future__ import annotations

import functools
import json
import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from flitcast.errors import ConfigError

if TYPE_CHECKING:
    import pandas as pd

ALGORITHMS = ("separate", "u_torus", "s_torus", "md_torus", "mu_torus")

#: Table 1: t_process by algorithm, in the table's (lost) unit
T_PROCESS = {"separate": 7.0, "md_torus": 206.0, "mu_torus": 201.0, "u_torus": 629.0, "s_torus": 265.0}


@dataclass(frozen=True)
class Parameters:
    """The model's parameters (µs), Fig. 8 and Table 1 by default."""

    L_p: float = 0.014
    L_f: float = 0.060
    L_s: float = 0.670
    #: o(M) = o_128 + o_per_byte · (M − 128)
    o_128: float = 1.994
    o_per_byte: float = 0.00315
    t_process: dict[str, float] = field(default_factory=lambda: dict(T_PROCESS))
    t_process_unit: Literal["us", "ns"] = "us"

    def o(self, message_bytes: int) -> float:
        """Host overhead of an M-byte message, sender or receiver (Fig. 8)."""
        return self.o_128 + self.o_per_byte * (message_bytes - 128)

    def process(self, algorithm: str) -> float:
        """t_process of an algorithm, µs."""
        t = self.t_process[algorithm]
        return t / 1000 if self.t_process_unit == "ns" else t

    def L_i(self, algorithm: str, message_bytes: int) -> float:
        """Eq. 5: the delay through an intermediate (relaying) node."""
        o = self.o(message_bytes)
        return o + self.process(algorithm) + o


def logp_one_way(L: float, o_sender: float, o_receiver: float) -> float:
    """Eq. 1 as LogP defines a one-way small message."""
    return L + o_sender + o_receiver


def logp_round_trip(L: float, o_sender: float, o_receiver: float) -> float:
    """Eq. 1 as the study's text reads after extraction: 2L + 2·(o_sender + o_receiver)."""
    return 2 * L + 2 * (o_sender + o_receiver)


def relaxed_logp(o_sender: float, t_network: float, o_receiver: float) -> float:
    """Eq. 2."""
    return o_sender + t_network + o_receiver


def t_network(p: Parameters, h_p: int, h_f: int, h_s: int, h_i: int = 0, L_i: float = 0.0) -> float:
    """Eq. 4."""
    return h_p * p.L_p + h_f * p.L_f + h_s * p.L_s + h_i * L_i


def _check(algorithm: str, k: int, group: int) -> None:
    if algorithm not in ALGORITHMS:
        raise ConfigError("model.algorithm", algorithm, "one of " + ", ".join(ALGORITHMS))
    if not 2 <= group <= k * k:
        raise ConfigError("model.group", group, f"an integer from 2 to k² = {k * k}")


def plan(algorithm: str, k: int, group: int, r: int = 4) -> dict[str, Any]:
    """The core's plan for a group of ``group`` nodes (root 0 and the next group − 1 on the chain)."""
    _check(algorithm, k, group)
    return _core_plan(algorithm, k, group, r)


@functools.lru_cache(maxsize=4096)
def _core_plan(algorithm: str, k: int, group: int, r: int) -> dict[str, Any]:
    # (cached: a table asks for the same plan once per message size and model form; callers only read it)
    from flitcast import _core

    request = {"algorithm": algorithm, "k": k, "root": 0, "destinations": list(range(1, group)), "r": r}
    outcome = json.loads(_core.torus_multicast(json.dumps(request)))
    if "error" in outcome:
        e = outcome["error"]
        raise ConfigError(e["key"], e["value"], e["allowed"])
    return outcome["ok"]


def deepest_relays(algorithm: str, k: int, group: int, r: int = 4, h_i: Literal["tree", "closed"] = "tree") -> int:
    """h_i of Eq. 7: the relays on the deepest path (the core's plan), or a closed form (module doc)."""
    if h_i == "closed":
        if algorithm == "s_torus" or (algorithm == "mu_torus" and group <= r):
            return group - 2  # Eqs 10 (one partition) and 12
        if algorithm == "mu_torus":
            return -(-group // r) + r - 2
        if algorithm == "u_torus":
            return math.ceil(math.log2(group))
        if algorithm == "separate":
            return 0
    return max(plan(algorithm, k, group, r)["relays"])


def latency(
    algorithm: str,
    k: int,
    group: int,
    message_bytes: int = 128,
    r: int = 4,
    params: Parameters | None = None,
    model: Literal["simplified", "deepest_path"] = "simplified",
    h_i: Literal["tree", "closed"] = "tree",
) -> float:
    """Multicast completion latency (µs) of ``algorithm`` for a group of ``group`` on a k × k torus."""
    _check(algorithm, k, group)
    p = params or Parameters()
    o = p.o(message_bytes)
    if algorithm == "separate" and model == "simplified":
        return (group - 1) * (o + p.process("separate")) + o  # Eqs 6 and 8
    L_i = p.L_i(algorithm, message_bytes)
    if model == "simplified":
        return 2 * o + deepest_relays(algorithm, k, group, r, h_i) * L_i  # Eq. 7
    # Eq. 3 with Eq. 4: every path's network terms summed, relays as L_i; separate addressing's root
    # sends one message after another (Eq. 6's (o + t_process) per destination)
    pl = plan(algorithm, k, group, r)
    worst = 0.0
    for v in range(1, len(pl["nodes"])):
        h_p = h_f = h_s = 0
        u = v
        while pl["parent"][u] is not None:
            hp, hf, hs = pl["hops"][u]
            h_p, h_f, h_s = h_p + hp, h_f + hf, h_s + hs
            u = pl["parent"][u]
        start = v * (o + p.process("separate")) - o if algorithm == "separate" else 0.0
        worst = max(worst, start + o + t_network(p, h_p, h_f, h_s, pl["relays"][v], L_i) + o)
    return worst


def table(
    k: int,
    groups: list[int],
    message_bytes: list[int],
    algorithms: list[str] | None = None,
    r: list[int] | None = None,
    params: Parameters | None = None,
    h_i: Literal["tree", "closed"] = "tree",
) -> pd.DataFrame:
    """The model for every (algorithm, r, G, M): relays on the deepest path and both model forms, µs."""
    import pandas as pd

    rows = []
    for algorithm in algorithms or list(ALGORITHMS):
        # (the partition length matters to Mu-torus only)
        for rr in (r or [4]) if algorithm == "mu_torus" else [None]:
            for g in groups:
                relays = deepest_relays(algorithm, k, g, rr or 4, h_i)
                for m in message_bytes:
                    kw = {"r": rr or 4, "params": params, "h_i": h_i}
                    rows.append(
                        {
                            "algorithm": algorithm,
                            "r": rr,
                            "k": k,
                            "group": g,
                            "message_bytes": m,
                            "h_i": relays,
                            "latency_us": latency(algorithm, k, g, m, **kw),
                            "latency_deepest_path_us": latency(algorithm, k, g, m, model="deepest_path", **kw),
                        }
                    )
    return pd.DataFrame(rows)
