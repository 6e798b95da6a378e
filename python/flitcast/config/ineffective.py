"""Settings that have no effect in their scenario: rejected or warned about, never silently recorded.

A key is checked only when it was set explicitly (it is in its section's ``model_fields_set``) to a value
other than its default: every key of a resolved ``scenario.toml`` is written out, defaults included, so
a default must never trigger. ``Scenario.with_overrides`` keeps what was set explicitly and nothing
else, so a derived point is judged by what the user wrote.

- **Error** for the keys of the source-routed networks (fat tree, SP) on a mesh, torus or ring: such a
  network needs ``dor`` and the others a source routing, so no valid sweep carries one family's
  settings into the other; the setting is a mistake.
- **Warning** (:class:`flitcast.errors.ConfigWarning`) otherwise: a sweep over the pattern, the switch
  model, the source routing or the topology legitimately carries a setting into points that ignore it.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from flitcast.config.network import BMINS, FIXED_SIZE
from flitcast.errors import ConfigError, ConfigWarning, show_value

if TYPE_CHECKING:
    from flitcast.config.scenario import Scenario

#: selection functions that keep a history (routing.selection_history decides which hops update it)
HISTORY_SELECTIONS = ("lru", "mru", "rr", "lruc", "lrud")


@dataclass(frozen=True)
class Rule:
    """``key`` has an effect only where ``matters(scenario)``; ``where`` says so in words."""

    key: str
    where: str
    matters: Callable[[Scenario], bool]
    #: a key of the source-routed networks: an error on a mesh, torus or ring (see the module docstring)
    source_routed: bool = False
    #: the value that counts as not set, when it depends on other keys (default: the field's default)
    default: Callable[[Scenario], Any] | None = None


def _hardware(scenario: Scenario) -> bool:
    wl = scenario.workload
    return (wl.multicast_destinations > 0 or wl.batch_sources > 0) and wl.multicast_scheme == "hardware"


def _odd_bit_count(scenario: Scenario) -> bool:
    return (scenario.nodes.bit_length() - 1) % 2 == 1


RULES = [
    Rule(
        "routing.selection",
        'with routing.algorithm = "adaptive" (o1, o4 and dor offer a single port per hop)',
        lambda s: s.routing.algorithm == "adaptive",
        source_routed=True,
        default=lambda s: "lru" if s.routing.algorithm == "adaptive" else "first_free",
    ),
    Rule(
        "routing.selection_history",
        'with routing.algorithm = "adaptive" and a selection that keeps a history (' + ", ".join(HISTORY_SELECTIONS) + ")",
        lambda s: s.routing.algorithm == "adaptive" and s.routing.selection in HISTORY_SELECTIONS,
        source_routed=True,
    ),
    Rule(
        "routing.oblivious_table",
        'with routing.algorithm = "o1" or "o4"',
        lambda s: s.routing.algorithm in ("o1", "o4"),
        source_routed=True,
    ),
    Rule(
        "routing.o4_spread",
        'with routing.algorithm = "o4" and routing.oblivious_table = "d_mod_k" or "s_mod_k"',
        lambda s: s.routing.algorithm == "o4" and s.routing.oblivious_table in ("d_mod_k", "s_mod_k"),
        source_routed=True,
    ),
    Rule(
        "network.node_numbering",
        'with network.topology = "sp16" or "sp128"',
        lambda s: s.network.topology in FIXED_SIZE,
        source_routed=True,
    ),
    Rule("network.k", 'with a topology other than "sp16" and "sp128" (their size is fixed)',
         lambda s: s.network.topology not in FIXED_SIZE),
    Rule("network.n", 'with a topology other than "sp16" and "sp128" (their size is fixed)',
         lambda s: s.network.topology not in FIXED_SIZE),
    *(
        Rule(
            f"switch.{name}",
            'with switch.model = "central_buffer" or "input_fifo"',
            lambda s: s.switch.model in ("central_buffer", "input_fifo"),
        )
        for name in ("route_cycles", "chunk_flits")
    ),
    *(
        Rule(f"switch.{name}", 'with switch.flow_control = "stop_go"', lambda s: s.switch.flow_control == "stop_go")
        for name in ("stop_flits", "go_flits")
    ),
    Rule("switch.central_buffer_chunks", 'with switch.model = "central_buffer"', lambda s: s.switch.model == "central_buffer"),
    Rule(
        "switch.multicast_admission",
        'with switch.model = "central_buffer" and workload.multicast_scheme = "hardware"',
        lambda s: s.switch.model == "central_buffer" and _hardware(s),
    ),
    Rule("workload.multicast_header_flits", 'with workload.multicast_scheme = "hardware"', lambda s: _hardware(s)),
    *(
        Rule(f"workload.{name}", 'with workload.pattern = "hotspot"', lambda s: s.workload.pattern == "hotspot")
        for name in ("hotspot_nodes", "hotspot_fraction")
    ),
    Rule(
        "workload.uniform_include_self",
        'with workload.pattern = "uniform" or "hotspot" (its uniform part)',
        lambda s: s.workload.pattern in ("uniform", "hotspot"),
    ),
    Rule(
        "routing.lanes",
        'with routing.algorithm = "dor" on a mesh and switch.vcs > 1',
        lambda s: s.routing.algorithm == "dor" and s.network.topology == "mesh" and s.switch.vcs > 1,
    ),
    Rule(
        "routing.torus_ties",
        'on a bidirectional torus or ring with k even (a distance of exactly k/2 is a tie)',
        lambda s: s.network.topology in ("torus", "ring") and not s.network.unidirectional and s.network.k % 2 == 0,
    ),
    *(
        Rule(f"workload.{name}", "with workload.multicast_destinations >= 1", lambda s: s.workload.multicast_destinations > 0)
        for name in ("multicast_fraction",)
    ),
    Rule(
        "workload.multicast_scheme",
        "with workload.multicast_destinations >= 1, workload.batch_sources > 0, a workload.multicast_group or a "
        "workload.multicast_group_size",
        lambda s: s.workload.multicast_destinations > 0
        or s.workload.batch_sources > 0
        or bool(s.workload.multicast_group)
        or s.workload.multicast_group_size > 0,
    ),
    Rule("workload.batch_group", "with workload.batch_sources > 0", lambda s: s.workload.batch_sources > 0),
    *(
        Rule(f"workload.{name}", "with workload.background_load > 0", lambda s: s.workload.background_load > 0)
        for name in ("background_flits", "background_flits_max")
    ),
    *(
        Rule(
            f"adapter.{name}",
            'with a workload.multicast_group and workload.multicast_scheme = "ring", "bus", "tree_wrap_around" or '
            '"tree_up_down"',
            lambda s: bool(s.workload.multicast_group) and s.workload.multicast_scheme != "separate",
        )
        for name in ("reception_worms", "buffer_classes", "control_flits", "timeout_cycles")
    ),
    *(
        Rule(f"adapter.{name}", "with a workload.multicast_group_size", lambda s: s.workload.multicast_group_size > 0)
        for name in ("send_overhead_cycles", "receive_overhead_cycles", "process_cycles")
    ),
    Rule("workload.multicast_root", "with a workload.multicast_group_size", lambda s: s.workload.multicast_group_size > 0),
    Rule(
        "workload.multicast_partition",
        'with a workload.multicast_group_size and workload.multicast_scheme = "mu_torus"',
        lambda s: s.workload.multicast_group_size > 0 and s.workload.multicast_scheme == "mu_torus",
    ),
    Rule(
        "adapter.max_children",
        'with a workload.multicast_group and workload.multicast_scheme = "tree_wrap_around" or "tree_up_down"',
        lambda s: bool(s.workload.multicast_group) and s.workload.multicast_scheme.startswith("tree"),
    ),
    Rule(
        "workload.multicast_forward_cycles",
        'with workload.multicast_scheme = "software" and workload.multicast_destinations >= 1',
        lambda s: s.workload.multicast_destinations > 0 and s.workload.multicast_scheme == "software",
    ),
    Rule(
        "workload.transpose_split",
        'with workload.pattern = "transpose" on a network whose node count has an odd number of bits '
        "(e.g. 128 nodes)",
        lambda s: s.workload.pattern == "transpose" and _odd_bit_count(s),
    ),
]


def check_ineffective(scenario: Scenario) -> None:
    """Raise a ConfigError or warn (ConfigWarning) for each explicitly set key that has no effect here."""
    for rule in RULES:
        section_name, name = rule.key.split(".")
        section = getattr(scenario, section_name)
        if name not in section.model_fields_set:
            continue
        value = getattr(section, name)
        default = rule.default(scenario) if rule.default else type(section).model_fields[name].get_default(
            call_default_factory=True
        )
        if value == default or rule.matters(scenario):
            continue
        if rule.source_routed and scenario.network.topology not in BMINS:
            raise ConfigError(
                rule.key,
                value,
                f"the default {show_value(default)} or leaving it out; it matters only {rule.where}",
                reason=f"it has no effect on a {scenario.network.topology}",
            )
        warnings.warn(ConfigWarning(rule.key, value, f"only {rule.where}"), stacklevel=2)


def rule_texts() -> list[str]:
    """One line per rule, for the cross-checks list of docs/config.md."""
    lines = [
        "A key that has no effect in its scenario is checked when it was set explicitly to a value other "
        "than its default (a resolved `scenario.toml` lists defaults too; they never trigger): on a mesh, "
        "torus or ring the keys of the source-routed networks (marked *error*) are rejected, since no valid "
        "sweep crosses between the two families; every other such key gives a warning "
        "(`flitcast.errors.ConfigWarning`, a `warning: ...` line on the command line), since a sweep over "
        "another key legitimately carries it into points that ignore it.",
    ]
    for rule in RULES:
        marker = " (*error* on a mesh, torus or ring)" if rule.source_routed else ""
        lines.append(f"`{rule.key}` has an effect only {rule.where}{marker}.")
    return lines
