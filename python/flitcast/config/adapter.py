"""``[adapter]``: the host adapters and their software — study 001's protocol (§3–§5;
docs/models/host_multicast.md) and study 004's host overheads (§4–§5; docs/models/torus_multicast.md)."""

from __future__ import annotations

from typing import ClassVar

from pydantic import Field, StrictInt

from flitcast.config._base import Section


class AdapterConfig(Section):
    """The host adapters and their software: the ACK/NACK/READY protocol of the adapters that relay a fixed
    group's multicasts (study 001: ``workload.multicast_group`` with a ``ring``, ``bus``, ``tree_wrap_around``
    or ``tree_up_down`` scheme), and the host overheads of study 004's software multicast
    (``workload.multicast_group_size``)."""

    section: ClassVar[str] = "adapter"

    reception_worms: StrictInt = Field(
        4,
        ge=1,
        le=1024,
        description="K: worms each buffer class of an adapter's reception FIFO holds (study 001 §5: 4; Fig. 5: 1).",
    )
    buffer_classes: StrictInt = Field(
        2,
        ge=1,
        le=2,
        description="2: a lower class before the path's ID-order reversal and an upper one after (study 001 §3, "
        "deadlock-free); 1: one class, which can deadlock (the adapter watchdog then stops the run).",
    )
    control_flits: StrictInt = Field(
        8, ge=1, le=4096, description="Size of an ACK, NACK or READY control worm (the study gives none)."
    )
    timeout_cycles: StrictInt = Field(
        1000,
        ge=1,
        le=10**9,
        description="A refused (NACKed) sender retransmits after this long unless READY comes first (the study "
        "gives none: ten mean multicast worms).",
    )
    max_children: StrictInt = Field(
        0,
        ge=0,
        le=8191,
        description="Largest number of copies a rooted-tree host sends (a bounded branching factor, study 001 "
        "§4.3); 0: unbounded.",
    )
    send_overhead_cycles: StrictInt = Field(
        0, ge=0, le=10**12, description="Study 004: sender overhead o_s, cycles of the host processor per message sent."
    )
    receive_overhead_cycles: StrictInt = Field(
        0, ge=0, le=10**12, description="Study 004: receiver overhead o_r, cycles once a whole message has arrived."
    )
    process_cycles: StrictInt = Field(
        0,
        ge=0,
        le=10**12,
        description="Study 004: t_process, cycles a relay spends before forwarding (separate addressing: per "
        "destination at the root).",
    )
