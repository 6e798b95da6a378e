"""``[routing]``: how packets choose their path."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field, StrictBool

from flitcast.config._base import Section


class RoutingConfig(Section):
    """Routing algorithm and the build-time deadlock-freedom check."""

    section: ClassVar[str] = "routing"

    algorithm: Literal["dor"] = Field(
        "dor",
        description="Routing algorithm: `dor` (dimension-order routing; with dateline VC classes on tori and rings).",
    )
    check_deadlock_free: StrictBool = Field(
        True,
        description="Check at build time that the channel dependency graph is acyclic and refuse the "
        "scenario otherwise. Set to false only for deliberately deadlock-prone setups (e.g. to "
        "exercise the deadlock watchdog).",
    )
