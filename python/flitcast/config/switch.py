"""``[switch]``: the router microarchitecture."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field, StrictInt, model_validator

from flitcast.config._base import Section
from flitcast.errors import ConfigError

#: the SP switch of study 000 §7.1 / study 002 §5.1: what `central_buffer` defaults to
SP_PRESET = {"vcs": 1, "buffer_flits": 64, "router_delay_cycles": 6}
#: study 000 §7.1's input-buffer model: the central-buffer model's 5 KB split evenly over 8 inputs
INPUT_FIFO_PRESET = {**SP_PRESET, "buffer_flits": 320}


class SwitchConfig(Section):
    """Router microarchitecture: buffers, flow control and pipeline delay."""

    section: ClassVar[str] = "switch"

    model: Literal["input_buffered", "central_buffer", "input_fifo", "infiniband"] = Field(
        "input_buffered",
        description="Switch microarchitecture: `input_buffered` (per-VC input FIFOs with credit flow control), "
        "`central_buffer` (the SP buffered-wormhole switch of studies 000 and 002: input FIFOs, a "
        "crossbar and a shared central buffer of chunks; vcs, buffer_flits and router_delay_cycles "
        "default to the SP values 1, 64 and 6) or `input_fifo` (study 000 §5: the SP switch with one large "
        "FIFO per input instead of a central buffer, replicating multicasts from it; buffer_flits defaults to "
        "320, the same total storage) or `infiniband` (study 003: virtual cut-through per virtual lane, "
        "`vcs` lanes of `buffer_flits` flits per input, replicating multicasts by forwarding table; needs "
        "flow_control = vct).",
    )
    flow_control: Literal["wormhole", "vct", "stop_go"] = Field(
        "wormhole",
        description="`wormhole` (a packet advances when the next buffer has room for a flit), `vct` "
        "(virtual cut-through: only when it has room for the whole packet; needs "
        "switch.buffer_flits >= workload.packet_flits) or `stop_go` (slack buffers with stop/go "
        "back-pressure, study 001; input_buffered only; see switch.stop_flits).",
    )
    stop_flits: StrictInt | None = Field(
        None,
        ge=1,
        description="stop_go: a receiving buffer holding this many flits stops its sender; left out: "
        "switch.buffer_flits − (2 × network.channel_latency_cycles + switch.router_delay_cycles − 1), the most "
        "that leaves room for what a sender can still send before STOP reaches it.",
    )
    go_flits: StrictInt | None = Field(
        None,
        ge=0,
        description="stop_go: a receiving buffer drained to this many flits lets its sender go again; left out: "
        "switch.stop_flits − network.channel_latency_cycles (at least 0).",
    )
    turn_cycles: StrictInt = Field(
        0,
        ge=0,
        le=1_000_000,
        description="Input-buffered router on a mesh or torus: cycles a head waits, beyond the router delay, where it "
        "turns from one dimension to another (study 004's switching delay L_s).",
    )
    vcs: StrictInt = Field(
        2,
        ge=1,
        le=16,
        description="Virtual channels per input port. DOR on a torus or ring needs 2 (dateline classes) "
        "when routing.check_deadlock_free is on.",
    )
    buffer_flits: StrictInt = Field(8, ge=1, le=4096, description="Buffer depth per virtual channel, in flits.")
    router_delay_cycles: StrictInt = Field(
        1,
        ge=1,
        le=1000,
        description="Cycles from a head's arrival at a router to its departure on the output channel at zero "
        "load (the whole pipeline; 6 for the SP switch).",
    )
    route_cycles: StrictInt = Field(
        4,
        ge=1,
        le=1000,
        description="central_buffer: cycles from a head's arrival to its output request and grant (FIFO read, "
        "route, request, grant); at most router_delay_cycles.",
    )
    chunk_flits: StrictInt = Field(
        8,
        ge=1,
        le=64,
        description="central_buffer and input_fifo: flits per chunk (k for a k-port switch), the unit a "
        "replicating or buffered packet is deserialised into.",
    )
    central_buffer_chunks: StrictInt = Field(
        256, ge=1, le=1_000_000, description="central_buffer: capacity of the central buffer in chunks (256 = 4 KB of 2-byte flits)."
    )
    multicast_admission: Literal["reserve", "unreserved"] = Field(
        "reserve",
        description="central_buffer with hardware multicast: `reserve` (study 000 §4.2.2's VCT-emulation rule: a "
        "replicating multicast's header enters only when the buffer can take the whole packet and its header-chunk "
        "copies, which are reserved) or `unreserved` (deliberately broken: admitted at once; deadlocks under load).",
    )

    @model_validator(mode="after")
    def _central_buffer(self) -> SwitchConfig:
        if self.model == "infiniband" and self.flow_control != "vct":
            raise ConfigError("switch.flow_control", self.flow_control, "vct for the InfiniBand switch (virtual cut-through)")
        if self.model in ("input_buffered", "infiniband"):
            return self
        preset = SP_PRESET if self.model == "central_buffer" else INPUT_FIFO_PRESET
        for name, value in preset.items():
            if name not in self.model_fields_set:
                self._resolve(name, value)
        if self.vcs != 1:
            raise ConfigError(
                "switch.vcs",
                self.vcs,
                "1 for the central-buffer and input-FIFO switches (SP switches have no virtual channels)",
            )
        if self.flow_control != "wormhole":
            raise ConfigError(
                "switch.flow_control", self.flow_control, "wormhole for the central-buffer and input-FIFO switches"
            )
        if self.route_cycles > self.router_delay_cycles:
            raise ConfigError(
                "switch.route_cycles", self.route_cycles, f"at most switch.router_delay_cycles = {self.router_delay_cycles}"
            )
        return self
