"""Scenario configuration: one pydantic model per section, the :class:`Scenario` that holds them.

Parameters are documented where they are declared (``Field(description=...)``); docs/config.md and
``flitcast list parameters`` are generated from those declarations.
"""

from flitcast.config._base import Section
from flitcast.config.adapter import AdapterConfig
from flitcast.config.network import NetworkConfig
from flitcast.config.routing import RoutingConfig
from flitcast.config.run import RunConfig
from flitcast.config.scenario import Scenario, load_scenario, read_scenario_file
from flitcast.config.switch import SwitchConfig
from flitcast.config.workload import WorkloadConfig

#: section name -> model, in the order of the scenario file
SECTIONS: dict[str, type[Section]] = {
    "network": NetworkConfig,
    "switch": SwitchConfig,
    "routing": RoutingConfig,
    "workload": WorkloadConfig,
    "run": RunConfig,
    "adapter": AdapterConfig,
}

__all__ = [
    "SECTIONS",
    "AdapterConfig",
    "NetworkConfig",
    "RoutingConfig",
    "RunConfig",
    "Scenario",
    "SwitchConfig",
    "WorkloadConfig",
    "load_scenario",
    "read_scenario_file",
]
