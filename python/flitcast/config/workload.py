"""``[workload]``: who sends what to whom, and when (pattern x size x arrival)."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field, StrictBool, StrictFloat, StrictInt, model_validator

from flitcast.config._base import Section
from flitcast.errors import ConfigError

Pattern = Literal["uniform", "bit_reversal", "bit_complement", "transpose", "shuffle", "tornado", "neighbor", "hotspot"]

MAX_PACKET_FLITS = 4096
MAX_MESSAGE_FLITS = 1_000_000


class WorkloadConfig(Section):
    """Traffic: destination pattern, offered load, message and packet sizes, arrival process.

    Sizes are in flits (``packet_flits``, ``message_flits``) or, alternatively, in bytes
    (``message_bytes`` with ``flit_bytes`` and ``max_packet_bytes``), from which the flit sizes are derived.
    """

    section: ClassVar[str] = "workload"

    pattern: Pattern = Field(
        "uniform",
        description="Destination pattern (see `flitcast list patterns`). bit_reversal, bit_complement and "
        "shuffle and transpose need a power-of-two node count.",
    )
    load: StrictFloat = Field(
        0.1,
        gt=0,
        le=1,
        allow_inf_nan=False,
        description="Offered load in flits per node per cycle (1.0 = one flit per cycle per node).",
    )
    packet_flits: StrictInt = Field(
        8, ge=1, le=MAX_PACKET_FLITS, description="Maximum packet size in flits; messages are split into packets."
    )
    message_flits: StrictInt | None = Field(
        None,
        ge=1,
        le=MAX_MESSAGE_FLITS,
        description="Message size in flits; left out, a message is one packet of workload.packet_flits.",
    )
    message_bytes: StrictInt | None = Field(
        None,
        ge=1,
        description="Message size in bytes (instead of flits). Needs workload.flit_bytes and "
        "workload.max_packet_bytes; then message_flits = ceil(message_bytes / flit_bytes) and "
        "packet_flits = max_packet_bytes / flit_bytes.",
    )
    flit_bytes: StrictInt | None = Field(
        None, ge=1, description="Flit size in bytes (only with workload.message_bytes)."
    )
    max_packet_bytes: StrictInt | None = Field(
        None,
        ge=1,
        description="Maximum packet size in bytes, a multiple of workload.flit_bytes (only with "
        "workload.message_bytes).",
    )
    arrival: Literal["poisson", "bernoulli"] = Field(
        "poisson",
        description="Message arrival process at each node: `poisson` (exponential inter-arrival times) "
        "or `bernoulli` (a message each cycle with fixed probability).",
    )
    uniform_include_self: StrictBool = Field(
        False, description="With the uniform pattern, a node may also pick itself as destination."
    )
    hotspot_nodes: list[StrictInt] = Field(
        default_factory=list,
        description="Hot-spot destinations (node ids from 0 to nodes-1) for the hotspot pattern.",
    )
    hotspot_fraction: StrictFloat = Field(
        0.0,
        ge=0,
        le=1,
        allow_inf_nan=False,
        description="With the hotspot pattern, the fraction of messages sent to a hot-spot node "
        "(the rest go uniformly at random).",
    )
    transpose_split: Literal["ceil", "floor"] = Field(
        "ceil",
        description="transpose with an odd number of id bits (e.g. 128 nodes, undefined in study 002): the upper "
        "`ceil` (default) or `floor` half of the bits moves down.",
    )
    multicast_destinations: StrictInt = Field(
        0,
        ge=0,
        description="0: unicast traffic by workload.pattern. m >= 1: every operation is an m-way multicast to m "
        "destinations drawn uniformly among the other nodes (study 000 §7.1), and workload.load is the effective "
        "applied load m·B_i (§7.2; docs/models/multicast.md).",
    )
    multicast_scheme: Literal[
        "software", "hardware", "separate", "ring", "bus", "tree_wrap_around", "tree_up_down",
        "u_torus", "s_torus", "md_torus", "mu_torus",
    ] = Field(
        "software",
        description="How a multicast is sent: `software` = unicasts along the binomial U-Min tree (study 000 §7); "
        "`hardware` = one multidestination packet the switches replicate (study 000 §3–5 on a fat_tree, sp16 or "
        "sp128 of central_buffer or input_fifo switches; study 003 on a mesh of infiniband switches); `separate` "
        "= one unicast per destination from the source, back to back (study 003's unicast scheme, study 001's multiple "
        "unicasts; closed batches and fixed groups). With a workload.multicast_group, relayed by the host adapters "
        "under the ACK/NACK protocol (study 001 §4): `ring` and `bus` linear paths, `tree_wrap_around` and "
        "`tree_up_down` rooted trees. With a workload.multicast_group_size on a unidirectional torus (study 004 §3): "
        "`separate`, `u_torus`, `s_torus`, `md_torus`, `mu_torus`.",
    )
    batch_sources: StrictFloat = Field(
        0.0,
        ge=0,
        le=1,
        allow_inf_nan=False,
        description="A closed batch (study 003 §4): this share of the nodes (at least one) each send one message to "
        "the group at cycle 0 and the run ends when every member has it; its completion time is latency_max. 0: "
        "open-loop traffic. Needs run.warmup_cycles = 0.",
    )
    batch_group: StrictFloat = Field(
        0.4,
        gt=0,
        le=1,
        allow_inf_nan=False,
        description="The closed batch's group: this share of the nodes (at least one), drawn with the sources from "
        "run.seed.",
    )
    multicast_fraction: StrictFloat = Field(
        1.0,
        gt=0,
        le=1,
        allow_inf_nan=False,
        description="Share of the received load carried by multicasts; the rest is unicasts to uniform destinations "
        "(bimodal traffic, study 000 §7.6: 0.2 with 4-way multicasts). 1: every operation is a multicast.",
    )
    multicast_header_flits: StrictInt | None = Field(
        None,
        ge=0,
        le=4096,
        description="Extra flits a multidestination worm carries for its N-bit destination string; left out: "
        "ceil(nodes / (8 · workload.flit_bytes)), with 2-byte flits when sizes are in flits (study 000 §3.2, §7.1).",
    )
    multicast_forward_cycles: StrictInt = Field(
        0,
        ge=0,
        le=1_000_000_000,
        description="Cycles a host spends between receiving a software multicast and forwarding it (study 000 "
        "§7.2 sets it to zero).",
    )

    multicast_group: list[StrictInt] = Field(
        default_factory=list,
        description="A fixed multicast group by global host ID (study 001: the Hamiltonian order of a 2-D torus "
        "or mesh, docs/models/host_multicast.md); every member originates multicasts to the others at "
        "workload.load flits per cycle. Empty: none.",
    )
    message_flits_max: StrictInt | None = Field(
        None,
        ge=2,
        le=MAX_MESSAGE_FLITS,
        description="Sizes truncated geometric on 1..max with mean workload.message_flits (study 001 §5: mean 100, "
        "max 1000); left out: every message has workload.message_flits.",
    )
    background_load: StrictFloat = Field(
        0.0,
        ge=0,
        le=1,
        allow_inf_nan=False,
        description="Background Poisson unicasts to uniform destinations beside a fixed group's multicasts, flits "
        "per node per cycle (study 001 §5: 0.1); 0: none.",
    )
    background_flits: StrictInt = Field(
        400, ge=1, le=MAX_MESSAGE_FLITS, description="Mean size of a background unicast (study 001: 400)."
    )
    background_flits_max: StrictInt = Field(
        4000,
        ge=2,
        le=MAX_MESSAGE_FLITS,
        description="Largest background unicast; sizes are truncated geometric (study 001: 4000).",
    )

    multicast_group_size: StrictInt = Field(
        0,
        ge=0,
        le=65536,
        description="One software multicast on a unidirectional 2-D torus (study 004): the group's size G, the "
        "root (workload.multicast_root) and the next G − 1 nodes of its dimension-ordered chain, sent at cycle 0 "
        "by workload.multicast_scheme with the adapter's software times; 0: none.",
    )
    multicast_root: StrictInt = Field(0, ge=0, description="The root node of a workload.multicast_group_size multicast.")
    multicast_partition: StrictInt = Field(
        4, ge=2, le=65536, description="Mu-torus partition length r (study 004: 4 on 4×4; 8, 16, 32 in projections)."
    )

    @model_validator(mode="after")
    def _sizes_and_hotspots(self) -> WorkloadConfig:
        if self.message_bytes is not None:
            self._sizes_from_bytes(self.message_bytes)
        else:
            for name in ("flit_bytes", "max_packet_bytes"):
                if getattr(self, name) is not None:
                    raise ConfigError(
                        f"workload.{name}",
                        getattr(self, name),
                        "only together with workload.message_bytes (leave it out to size in flits)",
                    )
            if self.message_flits is None:
                self._resolve("message_flits", self.packet_flits)
        if self.pattern == "hotspot":
            if not self.hotspot_nodes:
                raise ConfigError(
                    "workload.hotspot_nodes",
                    self.hotspot_nodes,
                    "a non-empty list of node ids when workload.pattern = 'hotspot'",
                )
            if self.hotspot_fraction <= 0:
                raise ConfigError(
                    "workload.hotspot_fraction",
                    self.hotspot_fraction,
                    "a number > 0 and <= 1 when workload.pattern = 'hotspot'",
                )
        return self

    def _sizes_from_bytes(self, message_bytes: int) -> None:
        for name in ("packet_flits", "message_flits"):
            if name in self.model_fields_set:
                raise ConfigError(
                    f"workload.{name}",
                    getattr(self, name),
                    "left out when workload.message_bytes is set (the flit sizes are derived from the byte sizes)",
                )
        flit_bytes, max_packet_bytes = self.flit_bytes, self.max_packet_bytes
        if flit_bytes is None:
            raise ConfigError("workload.flit_bytes", None, "an integer >= 1, required with workload.message_bytes")
        if max_packet_bytes is None:
            raise ConfigError(
                "workload.max_packet_bytes", None, "an integer >= 1, required with workload.message_bytes"
            )
        if max_packet_bytes % flit_bytes:
            raise ConfigError(
                "workload.max_packet_bytes",
                max_packet_bytes,
                f"a multiple of workload.flit_bytes = {flit_bytes}",
            )
        packet_flits = max_packet_bytes // flit_bytes
        if packet_flits > MAX_PACKET_FLITS:
            raise ConfigError(
                "workload.max_packet_bytes",
                max_packet_bytes,
                f"at most {MAX_PACKET_FLITS} flits, i.e. <= {MAX_PACKET_FLITS * flit_bytes} bytes "
                f"with workload.flit_bytes = {flit_bytes}",
            )
        message_flits = -(-message_bytes // flit_bytes)
        if message_flits > MAX_MESSAGE_FLITS:
            raise ConfigError(
                "workload.message_bytes",
                message_bytes,
                f"at most {MAX_MESSAGE_FLITS} flits, i.e. <= {MAX_MESSAGE_FLITS * flit_bytes} bytes "
                f"with workload.flit_bytes = {flit_bytes}",
            )
        self._resolve("packet_flits", packet_flits)
        self._resolve("message_flits", message_flits)
