"""The :class:`Scenario`: one simulation point, made of five sections, plus checks across sections."""

from __future__ import annotations

import os
import stat
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import Field, PrivateAttr, model_validator

from flitcast.config._base import Section
from flitcast.config.adapter import AdapterConfig
from flitcast.config.ineffective import check_ineffective, rule_texts
from flitcast.config.network import BMINS, NetworkConfig
from flitcast.config.routing import RoutingConfig
from flitcast.config.run import RunConfig
from flitcast.config.switch import SwitchConfig
from flitcast.config.workload import WorkloadConfig
from flitcast.errors import ConfigError

#: workload keys that only exist on the Python side (the core receives flit sizes)
BYTE_KEYS = ("message_bytes", "flit_bytes", "max_packet_bytes")

#: rules that involve more than one key, for docs/config.md (the checks are in Scenario._cross_checks)
CROSS_CHECKS = [
    "`network.k ** network.n` must not exceed `run.max_nodes`.",
    "`workload.hotspot_nodes` are node ids from 0 to `k ** n - 1`.",
    "`workload.pattern` = `bit_reversal`, `bit_complement`, `shuffle` or `transpose` needs a power-of-two "
    "node count (`transpose` with an odd number of bits splits them by `workload.transpose_split`).",
    '`switch.flow_control = "vct"` needs `switch.buffer_flits >= workload.packet_flits`.',
    "DOR on a `torus` or `ring` with `routing.check_deadlock_free = true` needs `switch.vcs >= 2` "
    "(the dateline classes).",
    "`network.unidirectional = true` needs a `torus` or `ring`; a `ring` has `n = 1`.",
    "`routing.algorithm` is `dor` on a mesh, torus or ring and `adaptive`, `o1` or `o4` on a `fat_tree`, "
    "`sp16` or `sp128`.",
    "`run.batches` must not exceed `run.measure_cycles`.",
    "Byte sizing: `workload.message_bytes` needs `workload.flit_bytes` and `workload.max_packet_bytes` "
    "(a multiple of `flit_bytes`) and excludes `workload.packet_flits` / `workload.message_flits`.",
    '`workload.pattern = "hotspot"` needs a non-empty `workload.hotspot_nodes` and `workload.hotspot_fraction > 0`.',
    "`workload.multicast_destinations` is at most the number of nodes − 1, and multicasts need "
    '`workload.pattern = "uniform"` without `workload.uniform_include_self`.',
    '`workload.multicast_scheme = "hardware"` needs a `fat_tree`, `sp16` or `sp128` of `central_buffer` or '
    "`input_fifo` switches, or a `mesh` of `infiniband` switches; an input FIFO or lane at least as long as the "
    "largest packet (with its header flits), and a central buffer of at least twice a worm's chunks plus one "
    "header-chunk copy per further down port.",
    '`switch.model = "infiniband"` needs `switch.flow_control = "vct"` and switches of at most 8 ports.',
    '`routing.lanes = "by_port"` needs a 2-D `mesh` and `switch.vcs` = 1, 2 or 4.',
    '`switch.flow_control = "stop_go"` needs `switch.model = "input_buffered"` and `switch.stop_flits` at most '
    "`switch.buffer_flits` − (2 × `network.channel_latency_cycles` + `switch.router_delay_cycles` − 1), "
    "`switch.go_flits` below it.",
    "A closed batch (`workload.batch_sources > 0`) needs `run.warmup_cycles = 0` and "
    '`workload.multicast_destinations = 0`; `workload.multicast_scheme = "separate"` is for closed batches only.',
    "A fixed group (`workload.multicast_group`) needs a bidirectional 2-D `torus` or `mesh`, global IDs below "
    "the node count, `workload.multicast_scheme` = `separate`, `ring`, `bus`, `tree_wrap_around` or "
    "`tree_up_down` (the last four only with a group), `workload.packet_flits` at least the largest worm, and "
    "no `workload.multicast_destinations` or closed batch; `workload.background_load > 0` only with a group.",
    "A truncated geometric size needs its maximum above twice its mean, less one "
    "(`workload.message_flits_max`, `workload.background_flits_max`).",
    "`network.terminal_latency_cycles` is at most `network.channel_latency_cycles` under stop/go.",
    "`switch.turn_cycles` > 0 needs the `input_buffered` router on a `mesh` or `torus`.",
    "A software multicast on a torus (`workload.multicast_group_size` ≥ 2) needs a unidirectional 2-D `torus`, "
    "a group size and `workload.multicast_partition` of at most the node count, `workload.multicast_root` "
    "below it, `workload.multicast_scheme` = `separate`, `u_torus`, `s_torus`, `md_torus` or `mu_torus` (the "
    "last four only with it), no other multicast workload, and `run.warmup_cycles = 0`.",
    *rule_texts(),
]

ADAPTER_SCHEMES = ("ring", "bus", "tree_wrap_around", "tree_up_down")
#: largest fixed group (the core's host::adapter::MAX_MEMBERS)
MAX_GROUP = 1024
TORUS_SCHEMES = ("u_torus", "s_torus", "md_torus", "mu_torus")


def _power_of_two_exponent(x: int) -> int | None:
    return x.bit_length() - 1 if x > 0 and x & (x - 1) == 0 else None


class Scenario(Section):
    """One simulation point: every parameter of a run, validated, with defaults filled in.

    Build one with ``Scenario()``, ``Scenario(workload={"load": 0.3})``, :func:`load_scenario` or
    :meth:`with_overrides`; invalid input raises :class:`flitcast.errors.ConfigError`.
    """

    network: NetworkConfig = Field(default_factory=NetworkConfig, description="Topology and links.")
    switch: SwitchConfig = Field(default_factory=SwitchConfig, description="Router microarchitecture.")
    routing: RoutingConfig = Field(default_factory=RoutingConfig, description="Routing algorithm.")
    workload: WorkloadConfig = Field(default_factory=WorkloadConfig, description="Traffic.")
    run: RunConfig = Field(default_factory=RunConfig, description="Run length and limits.")
    adapter: AdapterConfig = Field(
        default_factory=AdapterConfig, description="Host adapters' multicast protocol (study 001)."
    )

    _overrides: dict[str, Any] = PrivateAttr(default_factory=dict)

    def __eq__(self, other: object) -> bool:
        # equal parameters make equal scenarios, however they were derived (pydantic would also compare
        # the private override record)
        if not isinstance(other, Scenario):
            return NotImplemented
        return self.model_dump() == other.model_dump()

    __hash__ = None  # type: ignore[assignment]

    @property
    def nodes(self) -> int:
        """Number of terminals in the network."""
        return self.network.nodes

    @property
    def overrides(self) -> dict[str, Any]:
        """The dotted-key overrides this scenario was derived with (see :meth:`with_overrides`)."""
        return dict(self._overrides)

    def _stop_go_fits(self) -> None:
        """Stop/go needs the input-buffered router and room, above STOP, for a channel round trip (the
        core's own check has the same messages)."""
        net, sw = self.network, self.switch
        if sw.model != "input_buffered":
            raise ConfigError(
                "switch.flow_control",
                "stop_go",
                "wormhole or vct with this switch (stop/go slack buffers are modelled on the input-buffered router)",
            )
        slack = 2 * net.channel_latency_cycles + sw.router_delay_cycles - 1
        stop = sw.stop_flits if sw.stop_flits is not None else max(sw.buffer_flits - slack, 0)
        if not 1 <= stop <= sw.buffer_flits - slack:
            raise ConfigError(
                "switch.stop_flits",
                stop,
                f"an integer from 1 to switch.buffer_flits − {slack} = {sw.buffer_flits - slack} (the flits a sender "
                "can still send before STOP reaches it: 2 × network.channel_latency_cycles + "
                "switch.router_delay_cycles − 1)",
            )
        go = sw.go_flits if sw.go_flits is not None else max(stop - net.channel_latency_cycles, 0)
        if go >= stop:
            raise ConfigError("switch.go_flits", go, f"an integer below switch.stop_flits = {stop}")

    def _torus_group_fits(self) -> None:
        """One software multicast on a unidirectional torus (study 004): the core's own check has the same
        messages."""
        net, wl, nodes = self.network, self.workload, self.nodes
        if not wl.multicast_group_size:
            if wl.multicast_scheme in TORUS_SCHEMES:
                raise ConfigError(
                    "workload.multicast_scheme",
                    wl.multicast_scheme,
                    "software, hardware or separate without a workload.multicast_group_size (u_torus, s_torus, "
                    "md_torus and mu_torus multicast one group on a unidirectional torus)",
                )
            return
        if net.topology != "torus" or not net.unidirectional or net.n != 2:
            raise ConfigError(
                "network.topology",
                net.topology,
                "a unidirectional 2-D torus (network.unidirectional = true, n = 2) for a workload.multicast_group_size",
            )
        if not 2 <= wl.multicast_group_size <= nodes:
            raise ConfigError(
                "workload.multicast_group_size",
                wl.multicast_group_size,
                f"an integer from 2 to {nodes} (the root and its destinations), or 0",
            )
        if wl.multicast_root >= nodes:
            raise ConfigError("workload.multicast_root", wl.multicast_root, f"a node id below {nodes}")
        if wl.multicast_partition > nodes:
            raise ConfigError("workload.multicast_partition", wl.multicast_partition, f"an integer from 2 to {nodes}")
        if wl.multicast_scheme not in ("separate", *TORUS_SCHEMES):
            raise ConfigError(
                "workload.multicast_scheme",
                wl.multicast_scheme,
                "separate, u_torus, s_torus, md_torus or mu_torus with a workload.multicast_group_size",
            )
        if wl.multicast_destinations or wl.batch_sources or wl.multicast_group:
            raise ConfigError(
                "workload.multicast_group_size",
                wl.multicast_group_size,
                "0 with workload.multicast_destinations, workload.batch_sources or workload.multicast_group (one "
                "kind of multicast workload per run)",
            )
        if self.run.warmup_cycles:
            raise ConfigError(
                "run.warmup_cycles",
                self.run.warmup_cycles,
                "0 with a workload.multicast_group_size (the multicast starts at cycle 0 and must be measured)",
            )

    def _group_fits(self) -> None:
        """A fixed group's host adapters (study 001): the core's own check has the same messages."""
        net, wl, nodes = self.network, self.workload, self.nodes
        for mean_key, max_key in (("message_flits", "message_flits_max"), ("background_flits", "background_flits_max")):
            mean, top = getattr(wl, mean_key), getattr(wl, max_key)
            if top is not None and top + 1 <= 2 * mean:
                raise ConfigError(
                    f"workload.{max_key}",
                    top,
                    f"an integer from {2 * mean} to 1000000: above twice the mean {mean}, less one",
                )
        if not wl.multicast_group:
            if wl.multicast_scheme in ADAPTER_SCHEMES:
                raise ConfigError(
                    "workload.multicast_scheme",
                    wl.multicast_scheme,
                    "software, hardware or separate without a workload.multicast_group (ring, bus, tree_wrap_around "
                    "and tree_up_down are schemes of a fixed group's host adapters)",
                )
            if wl.background_load:
                raise ConfigError(
                    "workload.background_load",
                    wl.background_load,
                    "0 without a workload.multicast_group (background unicasts accompany a fixed group's multicasts)",
                )
            return
        if net.topology not in ("torus", "mesh") or net.n != 2 or net.unidirectional:
            raise ConfigError(
                "network.topology",
                net.topology,
                "a bidirectional 2-D torus or mesh with one host per switch for a workload.multicast_group (the "
                "hosts' global order is a Hamiltonian path of its grid)",
            )
        group = wl.multicast_group
        if len(set(group)) != len(group) or not 2 <= len(group) <= MAX_GROUP or any(not 0 <= g < nodes for g in group):
            raise ConfigError(
                "workload.multicast_group",
                group,
                f"2 to {MAX_GROUP} distinct global host IDs from 0 to {nodes - 1} (every source's tree costs the cube "
                "of the group)",
            )
        if wl.multicast_scheme not in ("separate", *ADAPTER_SCHEMES):
            raise ConfigError(
                "workload.multicast_scheme",
                wl.multicast_scheme,
                "separate, ring, bus, tree_wrap_around or tree_up_down with a workload.multicast_group",
            )
        if wl.multicast_destinations or wl.batch_sources:
            raise ConfigError(
                "workload.multicast_destinations",
                wl.multicast_destinations,
                "0 with a workload.multicast_group (and no closed batch): the group gives the destinations",
            )
        largest = max(
            wl.message_flits_max or wl.message_flits or 1,
            wl.background_flits_max if wl.background_load else 0,
            self.adapter.control_flits,
        )
        if wl.packet_flits < largest:
            raise ConfigError(
                "workload.packet_flits",
                wl.packet_flits,
                f"at least {largest} with a workload.multicast_group: every worm is one packet (the largest message)",
            )

    def _batch_fits(self) -> None:
        """A closed batch measures from cycle 0 and has no open-loop multicasts beside it; separate addressing
        is a batch's scheme only (the core's own check has the same messages)."""
        wl = self.workload
        if not wl.batch_sources:
            if wl.multicast_scheme == "separate" and wl.multicast_destinations and not wl.multicast_group and not wl.multicast_group_size:
                raise ConfigError(
                    "workload.multicast_scheme",
                    "separate",
                    "software or hardware for open-loop multicasts (separate addressing is for closed batches: "
                    "workload.batch_sources > 0)",
                )
            return
        if wl.multicast_destinations:
            raise ConfigError(
                "workload.multicast_destinations",
                wl.multicast_destinations,
                "0 with a closed batch (its group gives the destinations)",
            )
        if self.run.warmup_cycles:
            raise ConfigError(
                "run.warmup_cycles",
                self.run.warmup_cycles,
                "0 with a closed batch (its messages all start at cycle 0 and must be measured)",
            )

    def _hardware_multicast_fits(self) -> None:
        """Multidestination worms need a bidirectional MIN and a switch that replicates them, with room
        for a whole worm (the core's own check has the same messages)."""
        net, sw, wl = self.network, self.switch, self.workload
        if net.topology not in (*BMINS, "mesh"):
            raise ConfigError(
                "network.topology",
                net.topology,
                "fat_tree, sp16, sp128 or mesh with workload.multicast_scheme = hardware (multidestination packets "
                "are routed on bidirectional MINs and by the union of XY paths on meshes)",
            )
        fits = sw.model in ("central_buffer", "input_fifo") if net.topology in BMINS else sw.model == "infiniband"
        if not fits:
            raise ConfigError(
                "switch.model",
                sw.model,
                "central_buffer or input_fifo on a fat_tree, sp16 or sp128, infiniband on a mesh, with "
                "workload.multicast_scheme = hardware (the switches that replicate)",
            )
        if wl.multicast_header_flits is None:
            # SP switches: the N-bit string in flits of workload.flit_bytes (2-byte flits, study 000 §7.1, when
            # not sized in bytes); InfiniBand: none (the multicast LID takes the DLID's place, study 003)
            bits = 0 if sw.model == "infiniband" else -(-self.nodes // (8 * (wl.flit_bytes or 2)))
            wl._resolve("multicast_header_flits", bits)
        header = wl.multicast_header_flits
        worm = min(wl.packet_flits, wl.message_flits or wl.packet_flits) + header
        if sw.model == "infiniband" and sw.buffer_flits < worm:
            raise ConfigError(
                "switch.buffer_flits",
                sw.buffer_flits,
                f"at least the largest packet, {worm} flits, for virtual cut-through",
            )
        if sw.model == "input_fifo" and sw.buffer_flits < worm:
            raise ConfigError(
                "switch.buffer_flits",
                sw.buffer_flits,
                f"at least the largest worm, {worm} flits (packet and header), for input-FIFO replication",
            )
        if sw.model == "central_buffer":
            down = net.k if net.topology == "fat_tree" else 4
            need = 2 * (-(-worm // sw.chunk_flits) + down - 1)
            if sw.central_buffer_chunks < need:
                raise ConfigError(
                    "switch.central_buffer_chunks",
                    sw.central_buffer_chunks,
                    f"at least {need}: twice a whole worm and a header-chunk copy per further down port (one such "
                    "share is kept for down-bound packets)",
                )

    @model_validator(mode="after")
    def _cross_checks(self) -> Scenario:
        net, sw, wl, run = self.network, self.switch, self.workload, self.run
        nodes = self.nodes
        if nodes > run.max_nodes:
            raise ConfigError(
                "network.k",
                net.k,
                f"k**n <= run.max_nodes = {run.max_nodes}; k = {net.k} with n = {net.n} gives {nodes} nodes",
            )
        bad = [node for node in wl.hotspot_nodes if not 0 <= node < nodes]
        if bad:
            raise ConfigError(
                "workload.hotspot_nodes", wl.hotspot_nodes, f"node ids from 0 to {nodes - 1} (not {bad[0]})"
            )
        exponent = _power_of_two_exponent(nodes)
        if wl.pattern in ("bit_reversal", "bit_complement", "shuffle") and exponent is None:
            raise ConfigError(
                "workload.pattern",
                wl.pattern,
                f"a power-of-two node count; this network has {nodes} nodes",
            )
        if wl.pattern == "transpose" and exponent is None:
            raise ConfigError(
                "workload.pattern",
                wl.pattern,
                f"a power-of-two node count; this network has {nodes} nodes",
            )
        if wl.multicast_destinations > nodes - 1:
            raise ConfigError(
                "workload.multicast_destinations",
                wl.multicast_destinations,
                f"an integer from 0 to {nodes - 1} (the other nodes)",
            )
        if wl.multicast_destinations and (wl.pattern != "uniform" or wl.uniform_include_self):
            raise ConfigError(
                "workload.pattern",
                wl.pattern,
                "uniform (without workload.uniform_include_self) with multicasts: their destinations are uniform "
                "among the other nodes",
            )
        if (wl.multicast_destinations or wl.batch_sources) and wl.multicast_scheme == "hardware":
            self._hardware_multicast_fits()
        self._batch_fits()
        self._torus_group_fits()
        self._group_fits()
        if self.routing.lanes == "by_port" and not (net.topology == "mesh" and net.n == 2 and sw.vcs in (1, 2, 4)):
            raise ConfigError(
                "routing.lanes",
                "by_port",
                "any, unless dimension-order routing on a 2-D mesh with switch.vcs = 1, 2 or 4 (one lane per direction)",
            )
        if sw.turn_cycles and (sw.model != "input_buffered" or net.topology not in ("mesh", "torus")):
            raise ConfigError(
                "switch.turn_cycles",
                sw.turn_cycles,
                "an integer from 0 to 1000000, and 0 except for the input-buffered router on a mesh or torus",
            )
        if sw.flow_control == "stop_go":
            self._stop_go_fits()
            if (net.terminal_latency_cycles or 0) > net.channel_latency_cycles:
                raise ConfigError(
                    "network.terminal_latency_cycles",
                    net.terminal_latency_cycles,
                    "an integer from 1 to 1000, at most network.channel_latency_cycles under stop/go (the slack covers "
                    "a round trip of the longest channel), or none for network.channel_latency_cycles",
                )
        if sw.model == "infiniband":
            sides = 1 if net.unidirectional else 2
            radix = {"fat_tree": 2 * net.k, "sp16": 8, "sp128": 8}.get(net.topology, sides * net.n + 1)
            if radix > 8:
                raise ConfigError(
                    "network.n", net.n, "a network of switches with at most 8 ports for the InfiniBand switch"
                )
        if sw.flow_control == "vct" and sw.buffer_flits < wl.packet_flits:
            raise ConfigError(
                "switch.buffer_flits",
                sw.buffer_flits,
                f">= workload.packet_flits = {wl.packet_flits} (virtual cut-through buffers whole packets)",
            )
        if (
            net.topology in ("torus", "ring")
            and self.routing.algorithm == "dor"
            and self.routing.check_deadlock_free
            and sw.vcs < 2
        ):
            raise ConfigError(
                "switch.vcs",
                sw.vcs,
                f">= 2 (dateline classes) for dor on a {net.topology}",
            )
        if self.routing.algorithm in ("o1", "o4") and self.routing.oblivious_table == "balanced" and nodes > 256:
            raise ConfigError(
                "routing.oblivious_table",
                "balanced",
                "d_mod_k or s_mod_k above 256 nodes (balanced tables are built pair by pair)",
            )
        if (net.topology in BMINS) == (self.routing.algorithm == "dor"):
            raise ConfigError(
                "routing.algorithm",
                self.routing.algorithm,
                "dor on a mesh, torus or ring; adaptive, o1 or o4 on a fat_tree, sp16 or sp128",
                reason=f"the network is a {net.topology}",
            )
        check_ineffective(self)
        return self

    # --- views ---------------------------------------------------------------------------------------

    def to_core_dict(self) -> dict[str, Any]:
        """The scenario exactly as ``flitcast._core`` takes it (docs/core-interface.md)."""
        data = self.model_dump()
        for key in BYTE_KEYS:
            del data["workload"][key]
        return data

    def flat(self) -> dict[str, Any]:
        """Every parameter under its dotted key (``"workload.load"``), resolved; one table row's worth."""
        return {
            f"{section}.{name}": value
            for section, fields in self.model_dump().items()
            for name, value in fields.items()
        }

    def to_toml_dict(self) -> dict[str, Any]:
        """The resolved scenario as a TOML document that loads back to the same scenario."""
        data = self.model_dump(exclude_none=True)
        if self.workload.message_bytes is not None:
            # the flit sizes are derived from the byte sizes; writing both would be rejected on reload
            del data["workload"]["packet_flits"]
            del data["workload"]["message_flits"]
        return data

    def with_overrides(self, overrides: Mapping[str, Any]) -> Scenario:
        """A new, validated scenario with dotted keys replaced: ``s.with_overrides({"workload.load": 0.3})``.

        Values derived from other keys (a ring's ``n``, ``message_flits`` when left out) are derived again.
        ``overrides`` that is not a mapping raises :class:`ConfigError`.
        """
        if not isinstance(overrides, Mapping):
            raise ConfigError(
                "overrides", type(overrides).__name__, "a mapping of dotted keys to values, e.g. {'workload.load': 0.3}"
            )
        data = apply_overrides(self.model_dump(exclude_unset=True), overrides)
        scenario = Scenario.model_validate(data)
        scenario._overrides = {**self._overrides, **{str(k): v for k, v in overrides.items()}}
        return scenario


def apply_overrides(data: Mapping[str, Any], overrides: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of the raw scenario table ``data`` with dotted keys (``"workload.load"``) set. Not validated."""
    out: dict[str, Any] = {name: dict(v) if isinstance(v, dict) else v for name, v in data.items()}
    for key, value in overrides.items():
        section, dot, name = str(key).partition(".")
        if not dot or not section or not name or "." in name:
            raise ConfigError(str(key), value, "a dotted key section.name, e.g. workload.load")
        if section not in Scenario.model_fields:
            raise ConfigError(str(key), value, "a key in one of the sections " + ", ".join(Scenario.model_fields))
        table = out.setdefault(section, {})
        if not isinstance(table, dict):
            raise ConfigError(section, table, "a table of settings (it cannot take a dotted override)")
        table[name] = value
    return out


#: largest scenario file read: a scenario is a few hundred bytes; the limit keeps a wrong path (a log,
#: an image) from being read whole
MAX_SCENARIO_BYTES = 1 << 20


def read_scenario_file(path: str | os.PathLike[str]) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """Parse a scenario TOML file into (scenario table, ``[sweep]`` table or None). Does not validate.

    Only a regular file of at most :data:`MAX_SCENARIO_BYTES` bytes is read (not a directory, a device
    such as ``/dev/zero``, or a FIFO); every failure is a :class:`ConfigError` naming the file.
    """
    path = Path(path)
    text = _read_text(path)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise _file_error(path, "a valid TOML file", f"is not valid TOML: {exc}") from None
    except RecursionError:
        raise _file_error(path, "a valid TOML file", "nests arrays or tables too deeply") from None
    except MemoryError:
        raise _file_error(path, "a valid TOML file", "is too large to parse") from None
    sweep = data.pop("sweep", None)
    if sweep is not None and not isinstance(sweep, dict):
        raise ConfigError("sweep", sweep, "a table of dotted keys and the lists of values they take")
    return data, sweep


def _file_error(path: Path, allowed: str, problem: str) -> ConfigError:
    return ConfigError("scenario file", str(path), allowed, message=f"the scenario file {str(path)!r} {problem}")


def _file_problem(info: os.stat_result) -> str | None:
    """Why a file with this ``fstat`` must not be read, or None."""
    if stat.S_ISDIR(info.st_mode):
        return "is a directory"
    if not stat.S_ISREG(info.st_mode):
        return "is not a regular file"  # a device (/dev/zero never ends), a FIFO, a socket
    if info.st_size > MAX_SCENARIO_BYTES:
        return f"has {info.st_size} bytes, more than {MAX_SCENARIO_BYTES}"
    return None


def _read_text(path: Path) -> str:
    allowed = f"a readable TOML file of at most {MAX_SCENARIO_BYTES} bytes"

    def unreadable(exc: OSError) -> ConfigError:
        return ConfigError(
            "scenario file", str(path), allowed,
            message=f"cannot read the scenario file {str(path)!r}: {exc.strerror or exc}",
        )

    try:
        # O_NONBLOCK: opening a FIFO must not wait for a writer before we can see that it is one
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise unreadable(exc) from None
    except ValueError:  # a NUL character in the path
        raise _file_error(path, allowed, "is not a valid path") from None
    try:
        problem = _file_problem(os.fstat(fd))
    except OSError as exc:
        os.close(fd)
        raise unreadable(exc) from None
    if problem is not None:
        os.close(fd)
        raise _file_error(path, allowed, problem)
    try:
        with open(fd, "rb") as fh:
            raw = fh.read(MAX_SCENARIO_BYTES + 1)  # the file may have grown since fstat
    except OSError as exc:
        raise unreadable(exc) from None
    if len(raw) > MAX_SCENARIO_BYTES:
        raise _file_error(path, allowed, f"has more than {MAX_SCENARIO_BYTES} bytes")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _file_error(path, "a valid TOML file (UTF-8 text)", f"is not UTF-8 text (byte {exc.start})") from None


def load_scenario(source: Scenario | Mapping[str, Any] | str | os.PathLike[str]) -> Scenario:
    """A validated :class:`Scenario` from a scenario, a dict or the path of a TOML file.

    A ``[sweep]`` table in a file (``flitcast sweep`` writes one into its run directory) is ignored here.
    """
    if isinstance(source, Scenario):
        return source
    if isinstance(source, Mapping):
        return Scenario.model_validate(dict(source))
    if isinstance(source, (str, os.PathLike)):
        data, _ = read_scenario_file(source)
        return Scenario.model_validate(data)
    raise ConfigError("scenario", type(source).__name__, "a Scenario, a dict or the path of a TOML file")
