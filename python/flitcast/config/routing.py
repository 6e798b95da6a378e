"""``[routing]``: how packets choose their path."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field, StrictBool, model_validator

from flitcast.config._base import Section

#: the selection functions of study 002 §4.3, plus first_free
SELECTIONS = ("first_free", "lru", "mru", "rnd", "rr", "lruc", "lrud")


class RoutingConfig(Section):
    """Routing algorithm and the build-time deadlock-freedom check."""

    section: ClassVar[str] = "routing"

    algorithm: Literal["dor", "adaptive", "o1", "o4"] = Field(
        "dor",
        description="Routing algorithm: `dor` (dimension-order routing; with dateline VC classes on tori "
        "and rings) for meshes, tori and rings; on fat trees and SP networks the source routings of "
        "study 002: `adaptive` (any up port to an LCA), `o1` (one oblivious route per pair) or `o4` (four "
        "oblivious routes per pair, used round robin).",
    )
    selection: Literal["first_free", "lru", "mru", "rnd", "rr", "lruc", "lrud"] | None = Field(
        None,
        description="Output selection among granted candidates (study 002 §4.3): `lru`, `mru`, `rnd`, `rr`, "
        "`lruc`, `lrud`, or `first_free` (lowest port). Default: `lru` for `adaptive` (Switch2's "
        "function), `first_free` otherwise.",
    )
    oblivious_table: Literal["balanced", "d_mod_k", "s_mod_k"] = Field(
        "balanced",
        description="How `o1` / `o4` route tables are chosen (study 002 gives none): `balanced` (static load "
        "balancing: pair by pair, the minimal path whose busiest link is least loaded; up to 256 nodes), "
        "`d_mod_k` or `s_mod_k` (the destination's or source's position digits pick the up ports).",
    )
    o4_spread: Literal["first_stage", "every_stage"] = Field(
        "first_stage",
        description="d_mod_k / s_mod_k tables: where the four `o4` routes of a pair differ, at the `first_stage` up "
        "port only or at `every_stage`.",
    )
    selection_history: Literal["every_hop", "adaptive_hops"] = Field(
        "every_hop",
        description="Which hops update a history-keeping selection function (LRU, MRU, RR, LRUC, LRUD; study "
        "002 §4.3 does not say): `every_hop`, forced ones included (RR's RRID holds the most recently used "
        "output of any message, as the study words it), or `adaptive_hops`, only hops where the routing "
        "offered more than one port.",
    )
    torus_ties: Literal["balanced", "positive"] = Field(
        "balanced",
        description="DOR on a bidirectional torus or ring with k even: which way a packet goes at distance "
        "exactly k/2, where both ways are minimal. `balanced`: + or − with probability 1/2 per packet (both "
        "directions of a ring carry equal load, the textbook reading); `positive`: always + (flitcast's rule "
        "before balanced ties, kept to reproduce older results).",
    )
    lanes: Literal["any", "by_port"] = Field(
        "any",
        description="DOR on a 2-D mesh: which virtual channels (lanes) a packet may take on an output (study 003 "
        "Fig. 8). `any`: every lane (\"NESW: VL0, VL1[, VL2, VL3]\"); `by_port`: one lane per direction, with 2 "
        "lanes north and east lane 0, south and west lane 1, with 4 north 0, east 1, south 2, west 3 (needs "
        "switch.vcs = 1, 2 or 4); packets are then injected on lane 0.",
    )
    check_deadlock_free: StrictBool = Field(
        True,
        description="Check at build time that the channel dependency graph is acyclic and refuse the "
        "scenario otherwise. Set to false only for deliberately deadlock-prone setups (e.g. to "
        "exercise the deadlock watchdog).",
    )

    @model_validator(mode="after")
    def _default_selection(self) -> RoutingConfig:
        if self.selection is None:
            self._resolve("selection", "lru" if self.algorithm == "adaptive" else "first_free")
        return self
