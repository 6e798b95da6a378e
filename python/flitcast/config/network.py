"""``[network]``: the topology and its links."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field, StrictBool, StrictInt, model_validator

from flitcast.config._base import Section
from flitcast.errors import ConfigError


class NetworkConfig(Section):
    """Topology: a k-ary n-mesh, k-ary n-torus or ring, with one terminal per router."""

    section: ClassVar[str] = "network"

    topology: Literal["mesh", "torus", "ring"] = Field(
        "mesh",
        description="Topology family: `mesh` (k-ary n-mesh), `torus` (k-ary n-cube with wrap-around "
        "links) or `ring` (a one-dimensional torus).",
    )
    k: StrictInt = Field(8, ge=2, le=1024, description="Routers per dimension (the radix k).")
    n: StrictInt = Field(
        2,
        ge=1,
        le=6,
        description="Number of dimensions. A ring always has n = 1 (leave it out or set it to 1).",
    )
    unidirectional: StrictBool = Field(
        False,
        description="Links in one direction only (torus and ring; a mesh needs both directions).",
    )
    channel_latency_cycles: StrictInt = Field(
        1, ge=1, le=1000, description="Cycles a flit takes to cross a router-to-router channel."
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
        if self.unidirectional and self.topology == "mesh":
            raise ConfigError(
                "network.unidirectional",
                True,
                "false for a mesh; unidirectional links need the wrap-around of a torus or ring",
            )
        return self

    @property
    def nodes(self) -> int:
        """Terminal count: k**n routers, one terminal each."""
        return self.k**self.n * self.terminals_per_router
