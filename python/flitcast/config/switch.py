"""``[switch]``: the router microarchitecture."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field, StrictInt

from flitcast.config._base import Section


class SwitchConfig(Section):
    """Router microarchitecture: buffers, flow control and pipeline delay."""

    section: ClassVar[str] = "switch"

    model: Literal["input_buffered"] = Field(
        "input_buffered",
        description="Switch microarchitecture: `input_buffered` (per-VC input FIFOs with credit flow control).",
    )
    flow_control: Literal["wormhole", "vct"] = Field(
        "wormhole",
        description="`wormhole` (a packet advances when the next buffer has room for a flit) or `vct` "
        "(virtual cut-through: only when it has room for the whole packet; needs "
        "switch.buffer_flits >= workload.packet_flits).",
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
        1, ge=1, le=1000, description="Pipeline delay of a router (cycles from input buffer to output)."
    )
