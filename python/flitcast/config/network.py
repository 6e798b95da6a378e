"""``[network]``: the topology and its links."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field, StrictBool, StrictInt, model_validator

from flitcast.config._base import Section
from flitcast.errors import ConfigError


#: topologies whose size is fixed (network.k and network.n are ignored)
FIXED_SIZE = {"sp16": 16, "sp128": 128}
#: bidirectional multistage networks (source routed: adaptive, o1, o4)
BMINS = ("fat_tree", "sp16", "sp128")


class NetworkConfig(Section):
    """Topology: a k-ary n-mesh, k-ary n-torus or ring with one terminal per router, a k-ary n-tree,
    or one of the SP networks of study 002."""

    section: ClassVar[str] = "network"

    topology: Literal["mesh", "torus", "ring", "fat_tree", "sp16", "sp128"] = Field(
        "mesh",
        description="Topology family: `mesh` (k-ary n-mesh), `torus` (k-ary n-cube with wrap-around "
        "links), `ring` (a one-dimensional torus), `fat_tree` (k-ary n-tree of 2k-port switches, "
        "k**n nodes), `sp16` / `sp128` (the SP networks of study 002 Figs. 2 and 3; k and n are ignored).",
    )
    k: StrictInt = Field(
        8, ge=2, le=1024, description="Routers per dimension (the radix k); for a fat tree, half the switch ports."
    )
    n: StrictInt = Field(
        2,
        ge=1,
        le=6,
        description="Number of dimensions (levels of a fat tree). A ring always has n = 1 (leave it out or set it to 1).",
    )
    node_numbering: Literal["sp", "plain"] = Field(
        "sp",
        description="Node numbering of `sp16` / `sp128`: `sp` (the SP numbering of study 002 Fig. 2, an "
        "artifact of the wiring) or `plain` (node chip i holds nodes 4i..4i+3). Matters for permutation "
        "patterns; ignored by other topologies.",
    )
    unidirectional: StrictBool = Field(
        False,
        description="Links in one direction only (torus and ring; a mesh needs both directions).",
    )
    channel_latency_cycles: StrictInt = Field(
        1, ge=1, le=1000, description="Cycles a flit takes to cross a router-to-router channel."
    )
    terminal_latency_cycles: StrictInt | None = Field(
        None,
        ge=1,
        le=1000,
        description="Cycles a flit takes between a host and its switch, both ways; left out: "
        "network.channel_latency_cycles.",
    )
    terminals_per_router: StrictInt = Field(
        1, ge=1, le=1, description="Terminals (nodes) attached to each router; only 1 for now."
    )

    @model_validator(mode="after")
    def _shape(self) -> NetworkConfig:
        if self.topology == "ring":
            if "n" in self.model_fields_set and self.n != 1:
                raise ConfigError(
                    "network.n", self.n, "1 for a ring (or leave network.n out)", reason="a ring is one-dimensional"
                )
            self._resolve("n", 1)
        if self.unidirectional and self.topology not in ("torus", "ring"):
            raise ConfigError(
                "network.unidirectional",
                True,
                f"false for a {self.topology}; unidirectional links need the wrap-around of a torus or ring",
            )
        if self.topology == "fat_tree" and self.k > 8:
            raise ConfigError(
                "network.k", self.k, "2 to 8 for a fat tree (switches have 2k ports; a route offers at most 8 up ports)"
            )
        return self

    @property
    def nodes(self) -> int:
        """Terminal count: k**n routers with one terminal each, k**n for a fat tree, fixed for SP."""
        if self.topology in FIXED_SIZE:
            return FIXED_SIZE[self.topology]
        return self.k**self.n * self.terminals_per_router
