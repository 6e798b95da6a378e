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
- (7) the others: 2·o + h_i·L_i, h_i the intermediate (relaying) nodes on the deepest path;
- (10) with one partition and (12): 2·o + (G − 2)·L_i.

h_i of Eqs 9–11 (``h_i="closed"``, the default) is the study's own, read from the extracted text as
follows (docs/models/torus_multicast.md argues each reading):

- (9) Md-torus: the coefficient is lost; §5.2 says it is a function of G and k. From the structure §3,
  §4.4 and §6 describe (the root sends to the headers of its x-ringlet, each relays down its y-ringlet,
  a new step "with every new k destination nodes") and Eq. 10's count (a chain's intermediates are its
  nodes less the root and the last destination): ⌈(G − 1)/k⌉ − 1;
- (10), p = ⌈G/r⌉ ≥ 2, Mu-torus: the symbols that survive are G − r and k, and §5.3 says the count is a
  function of G, r and k: ⌈(G − r)/k⌉ + r − 1 (the root's sends to the partitions beyond its own, plus a
  partition's chain of r − 1 intermediates; the rounding brackets are lost and read as a ceiling);
- (11) U-torus: ⌈log₂ G⌉ × ((G mod k) + k)/k survives with its rounding brackets lost; the factor is
  read as its integer part, 1, so h_i = ⌈log₂ G⌉, the step count §5.4 introduces the equation with (read
  as printed, unrounded, it puts the model at 4,435 µs on 4×4, above Fig. 12's axis of 3,500).

``h_i="tree"`` takes h_i from the core's plan instead: the relays on the deepest path of the structure the
simulator runs (U-torus ⌈log₂ G⌉ − 1, the root's sends left out; Mu-torus partitions of r^(s−1) nodes but
the last, the root heading the first; Md-torus the same as Eq. 9's reading on the study's
groups).

:func:`latency` evaluates Eq. 7/8 (``model="simplified"``) or Eq. 3 with Eq. 4's network terms summed
along the deepest path of the core's plan (``model="deepest_path"``, whose relays are the plan's whatever
``h_i``).

Every public function, and :class:`Parameters`, checks its arguments where it is entered and raises
:class:`flitcast.errors.ConfigError` naming the argument and what it allows (``k = '4' is not allowed;
allowed: an integer from 2 to 64``); the formulas behind them take the checked values as they are.
"""

from __future__ import annotations

import functools
import json
import math
import numbers
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from flitcast.errors import ConfigError

if TYPE_CHECKING:
    import pandas as pd

T = TypeVar("T")

ALGORITHMS = ("separate", "u_torus", "s_torus", "md_torus", "mu_torus")
#: the two forms of :func:`latency`, the two sources of h_i, the two readings of Table 1's unit
MODELS = ("simplified", "deepest_path")
H_I = ("tree", "closed")
UNITS = ("us", "ns")


def _stated(name: str) -> float:
    """A number study 004 states (flitcast/study_data/004.toml: Fig. 8, Table 1), written once there."""
    from flitcast.studies import value

    return value("004", name).number


#: Table 1: t_process by algorithm, in the table's (lost) unit
T_PROCESS = {a: _stated(f"t_process_{a}") for a in ALGORITHMS}

#: the tori the core plans: k × k from 2 × 2 to 64 × 64 (multicast/torus.rs)
K_MAX = 64
#: the largest message size (bytes) or hop count taken: larger integers could not be summed as floats,
#: and the model is one of small messages
MAX_COUNT = 2**32


@dataclass(frozen=True)
class Parameters:
    """The model's parameters (µs), Fig. 8 and Table 1 by default.

    Each time is a finite number ≥ 0; ``t_process`` gives one for every algorithm of :data:`ALGORITHMS`;
    o(M) must not be negative for any M ≥ 0 (o_128 ≥ 128 · o_per_byte). Anything else raises
    :class:`ConfigError`.
    """

    L_p: float = _stated("L_p")
    L_f: float = _stated("L_f")
    L_s: float = _stated("L_s")
    #: o(M) = o_128 + o_per_byte · (M − 128)
    o_128: float = _stated("o_128")
    o_per_byte: float = _stated("o_per_byte")
    t_process: dict[str, float] = field(default_factory=lambda: dict(T_PROCESS))
    t_process_unit: Literal["us", "ns"] = "us"

    def __post_init__(self) -> None:
        # (frozen: the checked values, as floats and a copied dict, are set past the dataclass's guard)
        for name in ("L_p", "L_f", "L_s", "o_128", "o_per_byte"):
            object.__setattr__(self, name, _time(name, getattr(self, name)))
        object.__setattr__(self, "t_process", _t_process(self.t_process))
        _choice("t_process_unit", self.t_process_unit, UNITS)
        if self.o_128 < 128 * self.o_per_byte:
            allowed = f"at least 128 · o_per_byte = {128 * self.o_per_byte:g}, so that o(M) ≥ 0 for every M ≥ 0"
            raise ConfigError("o_128", self.o_128, allowed)

    def o(self, message_bytes: int) -> float:
        """Host overhead of an M-byte message, sender or receiver (Fig. 8)."""
        return self._o(_bytes("message_bytes", message_bytes))

    def process(self, algorithm: str) -> float:
        """t_process of an algorithm, µs."""
        return self._process(_choice("algorithm", algorithm, ALGORITHMS))

    def L_i(self, algorithm: str, message_bytes: int) -> float:
        """Eq. 5: the delay through an intermediate (relaying) node."""
        return self._L_i(_choice("algorithm", algorithm, ALGORITHMS), _bytes("message_bytes", message_bytes))

    # the formulas, on checked arguments

    def _o(self, message_bytes: int) -> float:
        return self.o_128 + self.o_per_byte * (message_bytes - 128)

    def _process(self, algorithm: str) -> float:
        t = self.t_process[algorithm]
        return t / 1000 if self.t_process_unit == "ns" else t

    def _L_i(self, algorithm: str, message_bytes: int) -> float:
        o = self._o(message_bytes)
        return o + self._process(algorithm) + o


def logp_one_way(L: float, o_sender: float, o_receiver: float) -> float:
    """Eq. 1 as LogP defines a one-way small message."""
    return _time("L", L) + _time("o_sender", o_sender) + _time("o_receiver", o_receiver)


def logp_round_trip(L: float, o_sender: float, o_receiver: float) -> float:
    """Eq. 1 as the study's text reads after extraction: 2L + 2·(o_sender + o_receiver)."""
    return 2 * _time("L", L) + 2 * (_time("o_sender", o_sender) + _time("o_receiver", o_receiver))


def relaxed_logp(o_sender: float, t_network: float, o_receiver: float) -> float:
    """Eq. 2."""
    return _time("o_sender", o_sender) + _time("t_network", t_network) + _time("o_receiver", o_receiver)


def t_network(p: Parameters | None, h_p: int, h_f: int, h_s: int, h_i: int = 0, L_i: float = 0.0) -> float:
    """Eq. 4 (``p`` None: the defaults)."""
    hops = (_count("h_p", h_p), _count("h_f", h_f), _count("h_s", h_s), _count("h_i", h_i))
    return _t_network(_parameters("p", p), *hops, _time("L_i", L_i))


def _t_network(p: Parameters, h_p: int, h_f: int, h_s: int, h_i: int, L_i: float) -> float:
    return h_p * p.L_p + h_f * p.L_f + h_s * p.L_s + h_i * L_i


def plan(algorithm: str, k: int, group: int, r: int = 4) -> dict[str, Any]:
    """The core's plan for a group of ``group`` nodes (root 0 and the next group − 1 on the chain)."""
    return _core_plan(*_request(algorithm, k, group, r))


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


def deepest_relays(algorithm: str, k: int, group: int, r: int = 4, h_i: Literal["tree", "closed"] = "closed") -> int:
    """h_i of Eq. 7: the study's closed form of Eqs 9–12 (module doc), or the relays on the deepest path of the
    core's plan (``h_i="tree"``)."""
    return _deepest_relays(*_request(algorithm, k, group, r), _choice("h_i", h_i, H_I))


def _deepest_relays(algorithm: str, k: int, group: int, r: int, h_i: str) -> int:
    if h_i == "closed":
        if algorithm == "separate":
            return 0  # Eq. 8 has no relays
        if algorithm == "s_torus" or (algorithm == "mu_torus" and group <= r):
            return group - 2  # Eqs 12 and 10 with one partition: a chain less its root and last node
        if algorithm == "mu_torus":
            return -(-(group - r) // k) + r - 1  # Eq. 10, p ≥ 2
        if algorithm == "u_torus":
            return math.ceil(math.log2(group))  # Eq. 11
        return -(-(group - 1) // k) - 1  # Eq. 9, Md-torus
    return max(_core_plan(algorithm, k, group, r)["relays"])


def latency(
    algorithm: str,
    k: int,
    group: int,
    message_bytes: int = 128,
    r: int = 4,
    params: Parameters | None = None,
    model: Literal["simplified", "deepest_path"] = "simplified",
    h_i: Literal["tree", "closed"] = "closed",
) -> float:
    """Multicast completion latency (µs) of ``algorithm`` for a group of ``group`` on a k × k torus."""
    algorithm, k, group, r = _request(algorithm, k, group, r)
    return _latency(
        algorithm,
        k,
        group,
        _bytes("message_bytes", message_bytes),
        r,
        _parameters("params", params),
        _choice("model", model, MODELS),
        _choice("h_i", h_i, H_I),
    )


def _latency(
    algorithm: str, k: int, group: int, message_bytes: int, r: int, p: Parameters, model: str, h_i: str
) -> float:
    o = p._o(message_bytes)
    if algorithm == "separate" and model == "simplified":
        return (group - 1) * (o + p._process("separate")) + o  # Eqs 6 and 8
    L_i = p._L_i(algorithm, message_bytes)
    if model == "simplified":
        return 2 * o + _deepest_relays(algorithm, k, group, r, h_i) * L_i  # Eq. 7
    # Eq. 3 with Eq. 4: every path's network terms summed, relays as L_i; separate addressing's root
    # sends one message after another (Eq. 6's (o + t_process) per destination)
    pl = _core_plan(algorithm, k, group, r)
    worst = 0.0
    for v in range(1, len(pl["nodes"])):
        h_p = h_f = h_s = 0
        u = v
        while pl["parent"][u] is not None:
            hp, hf, hs = pl["hops"][u]
            h_p, h_f, h_s = h_p + hp, h_f + hf, h_s + hs
            u = pl["parent"][u]
        start = v * (o + p._process("separate")) - o if algorithm == "separate" else 0.0
        worst = max(worst, start + o + _t_network(p, h_p, h_f, h_s, pl["relays"][v], L_i) + o)
    return worst


def table(
    k: int,
    groups: list[int],
    message_bytes: list[int],
    algorithms: list[str] | None = None,
    r: list[int] | None = None,
    params: Parameters | None = None,
    h_i: Literal["tree", "closed"] = "closed",
) -> pd.DataFrame:
    """The model for every (algorithm, r, G, M): relays on the deepest path and both model forms, µs.

    ``groups``, ``message_bytes``, ``algorithms`` and ``r`` are non-empty lists (``algorithms`` None: all
    of them; ``r`` None: [4]), each item checked as :func:`latency` checks it."""
    import pandas as pd

    side = _integer("k", k, 2, K_MAX)
    sizes = _each("groups", groups, lambda key, g: _nodes(key, g, side))
    lengths = [4] if r is None else _each("r", r, lambda key, x: _nodes(key, x, side))
    names = list(ALGORITHMS) if algorithms is None else _each("algorithms", algorithms, _algorithm)
    bytes_ = _each("message_bytes", message_bytes, _bytes)
    p = _parameters("params", params)
    relays_from = _choice("h_i", h_i, H_I)
    rows = []
    for algorithm in names:
        # (the partition length matters to Mu-torus only)
        for rr in lengths if algorithm == "mu_torus" else [None]:
            for g in sizes:
                relays = _deepest_relays(algorithm, side, g, rr or 4, relays_from)
                for m in bytes_:
                    args = (algorithm, side, g, m, rr or 4, p)
                    rows.append(
                        {
                            "algorithm": algorithm,
                            "r": rr,
                            "k": side,
                            "group": g,
                            "message_bytes": m,
                            "h_i": relays,
                            "latency_us": _latency(*args, "simplified", relays_from),
                            "latency_deepest_path_us": _latency(*args, "deepest_path", relays_from),
                        }
                    )
    return pd.DataFrame(rows)


# --- the arguments' checks: one per kind of argument, each raising a ConfigError that names it ----------


def _request(algorithm: Any, k: Any, group: Any, r: Any) -> tuple[str, int, int, int]:
    """The arguments of a plan: an algorithm, the torus side k, the group size and the partition length."""
    side = _integer("k", k, 2, K_MAX)
    # (r: the core takes any from 2 to the node count, whichever the algorithm)
    return _algorithm("algorithm", algorithm), side, _nodes("group", group, side), _nodes("r", r, side)


def _integer(name: str, value: Any, low: int, high: int, note: str = "") -> int:
    """``value`` as an int if it is an integer from ``low`` to ``high`` (a numpy integer too, a bool not)."""
    if isinstance(value, numbers.Integral) and not isinstance(value, bool) and low <= int(value) <= high:
        return int(value)
    raise ConfigError(name, value, f"an integer from {low} to {high}{note}")


def _nodes(name: str, value: Any, k: int) -> int:
    """A count of nodes of the k × k torus: a group size or a partition length."""
    return _integer(name, value, 2, k * k, " (k², the nodes of the k × k torus)")


def _bytes(name: str, value: Any) -> int:
    return _integer(name, value, 0, MAX_COUNT, " bytes")


def _count(name: str, value: Any) -> int:
    return _integer(name, value, 0, MAX_COUNT)


def _time(name: str, value: Any) -> float:
    """``value`` as a float if it is a finite number ≥ 0 (a numpy number too, a bool not)."""
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        try:
            number = float(value)
        except OverflowError:  # an integer too large for a float
            number = math.inf
        if math.isfinite(number) and number >= 0:
            return number
    raise ConfigError(name, value, "a finite number ≥ 0")


def _choice(name: str, value: Any, allowed: tuple[str, ...]) -> str:
    if isinstance(value, str) and value in allowed:
        return str(value)
    raise ConfigError(name, value, "one of " + ", ".join(allowed))


def _algorithm(name: str, value: Any) -> str:
    return _choice(name, value, ALGORITHMS)


def _parameters(name: str, value: Any) -> Parameters:
    if value is None:
        return Parameters()
    if isinstance(value, Parameters):
        return value
    raise ConfigError(name, value, "a flitcast.analytic.Parameters, or None for Fig. 8 and Table 1")


def _t_process(value: Any) -> dict[str, float]:
    if not isinstance(value, Mapping) or set(value) != set(ALGORITHMS):
        raise ConfigError("t_process", value, "a dict of a t_process for each of " + ", ".join(ALGORITHMS))
    return {a: _time(f"t_process[{a!r}]", value[a]) for a in ALGORITHMS}


def _each(name: str, values: Any, check: Callable[[str, Any], T]) -> list[T]:
    """The items of a list argument, each checked under its place (``groups[2]``)."""
    if isinstance(values, (str, bytes, Mapping)) or not isinstance(values, Iterable):
        raise ConfigError(name, values, "a non-empty list")
    items = list(values)
    if not items:
        raise ConfigError(name, values, "a non-empty list")
    return [check(f"{name}[{i}]", v) for i, v in enumerate(items)]
