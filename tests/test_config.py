"""flitcast.config: defaults, derived values, overrides and (table-driven) error messages."""

from __future__ import annotations

import json
import math
import pickle
import re
import warnings
from pathlib import Path
from typing import Any

import pytest

from flitcast import errors, load_scenario
from flitcast.config import Scenario
from flitcast.errors import ConfigError

REPO = Path(__file__).resolve().parent.parent

# --- error messages: each bad input names its key, its value and what is allowed ---------------------

BAD = [
    # (scenario dict, key, value as shown, a piece of the allowed text)
    ({"network": {"topology": "hypercube"}}, "network.topology", "'hypercube'", "'mesh', 'torus', 'ring'"),
    ({"network": {"k": 1}}, "network.k", "1", "an integer from 2 to 1024"),
    ({"network": {"k": 2000}}, "network.k", "2000", "an integer from 2 to 1024"),
    ({"network": {"k": 8.0}}, "network.k", "8.0", "an integer"),
    ({"network": {"k": True}}, "network.k", "true", "an integer"),
    ({"network": {"k": "8"}}, "network.k", "'8'", "an integer"),
    ({"network": {"n": 7}}, "network.n", "7", "from 1 to 6"),
    ({"network": {"topology": "ring", "n": 2}}, "network.n", "2", "1 for a ring"),
    ({"network": {"unidirectional": True}}, "network.unidirectional", "true", "false for a mesh"),
    ({"network": {"unidirectional": 1}}, "network.unidirectional", "1", "true or false"),
    ({"network": {"terminals_per_router": 2}}, "network.terminals_per_router", "2", "from 1 to 1"),
    ({"network": {"channel_latency_cycles": 0}}, "network.channel_latency_cycles", "0", "from 1 to 1000"),
    ({"network": {"radix": 4}}, "network.radix", "4", "one of the keys topology, k, n"),
    ({"network": 3}, "network", "3", "a table with the keys topology, k"),
    ({"network": [1, 2]}, "network", "[1, 2]", "a table"),
    ({"netwrok": {}}, "netwrok", "{}", "one of the sections network, switch, routing, workload, run"),
    ({"switch": {"model": "crossbar"}}, "switch.model", "'crossbar'", "'input_buffered'"),
    ({"switch": {"flow_control": "saf"}}, "switch.flow_control", "'saf'", "'wormhole', 'vct'"),
    ({"switch": {"vcs": 0}}, "switch.vcs", "0", "from 1 to 16"),
    ({"switch": {"vcs": 17}}, "switch.vcs", "17", "from 1 to 16"),
    ({"switch": {"buffer_flits": -3}}, "switch.buffer_flits", "-3", "from 1 to 4096"),
    ({"switch": {"flow_control": "vct", "buffer_flits": 4}}, "switch.buffer_flits", "4", ">= workload.packet_flits = 8"),
    ({"network": {"topology": "torus"}, "switch": {"vcs": 1}}, "switch.vcs", "1", ">= 2 (dateline classes)"),
    ({"network": {"topology": "ring"}, "switch": {"vcs": 1}}, "switch.vcs", "1", ">= 2 (dateline classes)"),
    ({"routing": {"algorithm": "valiant"}}, "routing.algorithm", "'valiant'", "'dor'"),
    ({"routing": {"check_deadlock_free": "no"}}, "routing.check_deadlock_free", "'no'", "true or false"),
    ({"workload": {"load": 0}}, "workload.load", "0", "> 0 and <= 1"),
    ({"workload": {"load": 1.5}}, "workload.load", "1.5", "> 0 and <= 1"),
    ({"workload": {"load": -0.1}}, "workload.load", "-0.1", "> 0 and <= 1"),
    ({"workload": {"load": math.nan}}, "workload.load", "nan", "a finite number"),
    ({"workload": {"load": math.inf}}, "workload.load", "inf", "a finite number"),
    ({"workload": {"load": "0.3"}}, "workload.load", "'0.3'", "a finite number"),
    ({"workload": {"load": True}}, "workload.load", "true", "a finite number"),
    ({"workload": {"pattern": "random"}}, "workload.pattern", "'random'", "'uniform', 'bit_reversal'"),
    ({"workload": {"arrival": "periodic"}}, "workload.arrival", "'periodic'", "'poisson', 'bernoulli'"),
    ({"workload": {"packet_flits": 0}}, "workload.packet_flits", "0", "from 1 to 4096"),
    ({"workload": {"message_flits": 0}}, "workload.message_flits", "0", "from 1 to 1000000"),
    ({"workload": {"message_flits": 10**7}}, "workload.message_flits", "10000000", "from 1 to 1000000"),
    ({"workload": {"hotspot_nodes": [1, "a"]}}, "workload.hotspot_nodes[1]", "'a'", "an integer"),
    ({"workload": {"hotspot_nodes": 3}}, "workload.hotspot_nodes", "3", "a list of integers"),
    ({"workload": {"hotspot_nodes": [64], "pattern": "hotspot", "hotspot_fraction": 0.5}}, "workload.hotspot_nodes", "[64]", "node ids from 0 to 63"),
    ({"workload": {"pattern": "hotspot", "hotspot_fraction": 0.5}}, "workload.hotspot_nodes", "[]", "a non-empty list"),
    ({"workload": {"pattern": "hotspot", "hotspot_nodes": [0]}}, "workload.hotspot_fraction", "0.0", "> 0"),
    ({"workload": {"hotspot_fraction": 2}}, "workload.hotspot_fraction", "2", "from 0 to 1"),
    ({"network": {"k": 3}, "workload": {"pattern": "bit_reversal"}}, "workload.pattern", "'bit_reversal'", "a power-of-two node count; this network has 9 nodes"),
    ({"network": {"k": 6}, "workload": {"pattern": "bit_complement"}}, "workload.pattern", "'bit_complement'", "this network has 36 nodes"),
    ({"network": {"k": 3}, "workload": {"pattern": "shuffle"}}, "workload.pattern", "'shuffle'", "a power-of-two node count"),
    ({"network": {"k": 3, "n": 2}, "workload": {"pattern": "transpose"}}, "workload.pattern", "'transpose'", "power-of-two"),
    ({"network": {"k": 6, "n": 1}, "workload": {"pattern": "transpose"}}, "workload.pattern", "'transpose'", "this network has 6 nodes"),
    ({"workload": {"message_bytes": 100}}, "workload.flit_bytes", "(not set)", "required with workload.message_bytes"),
    ({"workload": {"message_bytes": 100, "flit_bytes": 16}}, "workload.max_packet_bytes", "(not set)", "required"),
    ({"workload": {"message_bytes": 100, "flit_bytes": 16, "max_packet_bytes": 40}}, "workload.max_packet_bytes", "40", "a multiple of workload.flit_bytes = 16"),
    ({"workload": {"message_bytes": 100, "flit_bytes": 4, "max_packet_bytes": 64, "packet_flits": 4}}, "workload.packet_flits", "4", "left out when workload.message_bytes is set"),
    ({"workload": {"message_bytes": 100, "flit_bytes": 4, "max_packet_bytes": 64, "message_flits": 4}}, "workload.message_flits", "4", "left out"),
    ({"workload": {"flit_bytes": 4}}, "workload.flit_bytes", "4", "only together with workload.message_bytes"),
    ({"workload": {"message_bytes": 10**9, "flit_bytes": 1, "max_packet_bytes": 8}}, "workload.message_bytes", "1000000000", "at most 1000000 flits"),
    ({"workload": {"message_bytes": 8, "flit_bytes": 1, "max_packet_bytes": 5000}}, "workload.max_packet_bytes", "5000", "at most 4096 flits"),
    ({"run": {"measure_cycles": 0}}, "run.measure_cycles", "0", "from 1 to 1000000000"),
    ({"run": {"warmup_cycles": -1}}, "run.warmup_cycles", "-1", "from 0 to 1000000000"),
    ({"run": {"seed": -1}}, "run.seed", "-1", "from 0 to 9223372036854775807"),
    ({"run": {"seed": 2**63}}, "run.seed", str(2**63), "from 0 to 9223372036854775807"),
    ({"run": {"batches": 1}}, "run.batches", "1", "from 2 to 1000"),
    ({"run": {"measure_cycles": 5}}, "run.batches", "10", "at most run.measure_cycles = 5"),
    ({"run": {"watchdog_cycles": 0}}, "run.watchdog_cycles", "0", "from 1 to 1000000000"),
    ({"network": {"k": 64, "n": 3}}, "network.k", "64", "k**n <= run.max_nodes = 65536"),
    ({"network": {"k": 8}, "run": {"max_nodes": 32}}, "network.k", "8", "k**n <= run.max_nodes = 32"),
    ({1: {}}, "1", "1", "keys that are strings"),
    ({"network": {2: 3}}, "network.2", "2", "keys that are strings"),
]


@pytest.mark.parametrize(("data", "key", "value", "allowed"), BAD, ids=[f"{b[1]}={b[2]}" for b in BAD])
def test_bad_input_names_key_value_and_allowed(data: dict[str, Any], key: str, value: str, allowed: str) -> None:
    with pytest.raises(ConfigError) as info:
        Scenario.model_validate(data)
    err = info.value
    assert err.key == key
    assert err.value == value
    assert allowed in err.allowed
    message = str(err)
    assert key in message and value in message and err.allowed in message


@pytest.mark.parametrize(("data", "key", "value", "allowed"), BAD[:12], ids=[b[1] for b in BAD[:12]])
def test_constructor_raises_config_error_too(data: dict[str, Any], key: str, value: str, allowed: str) -> None:
    with pytest.raises(ConfigError) as info:
        Scenario(**{str(k): v for k, v in data.items()})
    assert info.value.key == key


def test_top_level_must_be_a_table() -> None:
    with pytest.raises(ConfigError) as info:
        Scenario.model_validate([1, 2])
    assert info.value.key == "scenario"
    assert "a table with the keys network, switch, routing, workload, run" in str(info.value)


def test_errors_are_flitcast_errors_not_pydantic() -> None:
    with pytest.raises(errors.FlitcastError) as info:
        Scenario.model_validate({"workload": {"load": "high"}})
    assert type(info.value) is ConfigError
    assert info.value.__cause__ is None and info.value.__suppress_context__


# --- defaults and derived values -----------------------------------------------------------------


def test_defaults_fill_every_core_key() -> None:
    core = Scenario().to_core_dict()
    interface = (REPO / "docs" / "core-interface.md").read_text(encoding="utf-8")
    block = re.search(r"```json\n(\{\n  \"network\".*?)```", interface, re.S)
    assert block is not None
    # the documented scenario with its "a|b" choices made concrete is valid JSON; compare key sets
    documented = json.loads(re.sub(r'"(\w+)\|[\w|]+"', r'"\1"', block.group(1)))
    assert {s: set(v) for s, v in core.items()} == {s: set(v) for s, v in documented.items()}
    assert core["workload"]["message_flits"] == core["workload"]["packet_flits"] == 8
    assert core["network"] == {
        "topology": "mesh", "k": 8, "n": 2, "unidirectional": False,
        "channel_latency_cycles": 1, "terminal_latency_cycles": None, "terminals_per_router": 1, "node_numbering": "sp",
    }
    assert core["run"]["seed"] == 1 and core["run"]["max_nodes"] == 65536


def test_missing_sections_take_defaults() -> None:
    assert Scenario.model_validate({}) == Scenario()
    assert Scenario.model_validate({"network": {}}).to_core_dict() == Scenario().to_core_dict()


def test_ring_forces_n_to_one() -> None:
    ring = Scenario.model_validate({"network": {"topology": "ring", "k": 8}})
    assert ring.network.n == 1 and ring.nodes == 8
    assert Scenario.model_validate({"network": {"topology": "ring", "n": 1}}).network.n == 1
    # the derived n is derived again when the topology changes
    torus = ring.with_overrides({"network.topology": "torus"})
    assert torus.network.n == 2 and torus.nodes == 64


def test_unidirectional_torus_and_ring_are_fine() -> None:
    assert Scenario.model_validate({"network": {"topology": "torus", "unidirectional": True}}).network.unidirectional
    assert Scenario.model_validate({"network": {"topology": "ring", "unidirectional": True}}).nodes == 8


def test_message_flits_follows_packet_flits_when_left_out() -> None:
    s = Scenario.model_validate({"workload": {"packet_flits": 5}})
    assert s.workload.message_flits == 5
    assert s.with_overrides({"workload.packet_flits": 3}).workload.message_flits == 3
    s = Scenario.model_validate({"workload": {"packet_flits": 5, "message_flits": 12}})
    assert s.with_overrides({"workload.packet_flits": 3}).workload.message_flits == 12


def test_byte_sizing_derives_flits_and_is_not_sent_to_the_core() -> None:
    s = Scenario.model_validate({"workload": {"message_bytes": 100, "flit_bytes": 16, "max_packet_bytes": 64}})
    assert (s.workload.packet_flits, s.workload.message_flits) == (4, 7)
    core = s.to_core_dict()["workload"]
    assert (core["packet_flits"], core["message_flits"]) == (4, 7)
    assert not {"message_bytes", "flit_bytes", "max_packet_bytes"} & set(core)
    # the TOML form reloads to the same scenario (it keeps the bytes, not the derived flits)
    assert Scenario.model_validate(s.to_toml_dict()) == s
    assert s.with_overrides({"workload.message_bytes": 17}).workload.message_flits == 2


def test_vct_needs_a_packet_sized_buffer() -> None:
    ok = Scenario.model_validate({"switch": {"flow_control": "vct", "buffer_flits": 8}, "workload": {"packet_flits": 8}})
    assert ok.switch.flow_control == "vct"


def test_deadlock_prone_torus_allowed_when_check_is_off() -> None:
    s = Scenario.model_validate(
        {"network": {"topology": "torus"}, "switch": {"vcs": 1}, "routing": {"check_deadlock_free": False}}
    )
    assert s.switch.vcs == 1


@pytest.mark.parametrize(("k", "n", "pattern"), [(4, 2, "transpose"), (2, 4, "transpose"), (4, 3, "shuffle"), (8, 1, "bit_reversal")])
def test_patterns_on_matching_sizes(k: int, n: int, pattern: str) -> None:
    assert Scenario.model_validate({"network": {"k": k, "n": n}, "workload": {"pattern": pattern}}).nodes == k**n


def test_ints_are_accepted_for_floats() -> None:
    s = Scenario.model_validate({"workload": {"load": 1, "pattern": "hotspot", "hotspot_nodes": [0], "hotspot_fraction": 1}})
    assert isinstance(s.workload.load, float) and s.workload.load == 1.0


# --- views and overrides ----------------------------------------------------------------------------


def test_flat_uses_dotted_keys() -> None:
    flat = Scenario().flat()
    assert flat["workload.load"] == 0.1 and flat["network.k"] == 8 and flat["run.seed"] == 1
    assert all(key.count(".") == 1 for key in flat)
    assert "workload.message_bytes" in flat


def test_equality_is_by_parameters() -> None:
    a = Scenario().with_overrides({"workload.load": 0.3})
    b = Scenario.model_validate({"workload": {"load": 0.3}})
    assert a == b and a.overrides != b.overrides
    assert a != Scenario() and a != "scenario"


def test_with_overrides_validates_and_records() -> None:
    base = Scenario()
    s = base.with_overrides({"workload.load": 0.3, "network.topology": "torus"})
    assert s.workload.load == 0.3 and s.network.topology == "torus"
    assert s.overrides == {"workload.load": 0.3, "network.topology": "torus"}
    assert base.workload.load == 0.1  # the base is untouched
    with pytest.raises(ConfigError) as info:
        base.with_overrides({"workload.load": 2.0})
    assert info.value.key == "workload.load"


@pytest.mark.parametrize(
    ("key", "expected_key", "allowed"),
    [
        ("load", "load", "a dotted key section.name"),
        ("workload.load.x", "workload.load.x", "a dotted key"),
        ("traffic.load", "traffic.load", "one of the sections network, switch"),
        ("workload.lod", "workload.lod", "one of the keys pattern, load"),
    ],
)
def test_bad_override_keys(key: str, expected_key: str, allowed: str) -> None:
    with pytest.raises(ConfigError) as info:
        Scenario().with_overrides({key: 0.3})
    assert info.value.key == expected_key and allowed in info.value.allowed


# --- load_scenario -------------------------------------------------------------------------------


def test_load_scenario_from_dict_file_and_scenario(tmp_path: Path, write_toml) -> None:
    data = {"network": {"k": 4}, "workload": {"load": 0.2}}
    from_dict = load_scenario(data)
    from_file = load_scenario(write_toml(data))
    assert from_dict == from_file == load_scenario(str(write_toml(data)))
    assert load_scenario(from_dict) is from_dict


def test_load_scenario_ignores_a_sweep_table(write_toml) -> None:
    path = write_toml({"network": {"k": 4}, "sweep": {"workload.load": [0.1, 0.2]}})
    assert load_scenario(path).network.k == 4


@pytest.mark.parametrize(
    ("content", "allowed", "fragment"),
    [
        (None, "a readable TOML file of at most 1048576 bytes", "cannot read the scenario file"),
        ("[network\nk = 4", "a valid TOML file", "is not valid TOML"),
        (b"\xff\xfe[network]", "a valid TOML file (UTF-8 text)", "is not UTF-8 text"),
    ],
)
def test_unreadable_files(tmp_path: Path, content: Any, allowed: str, fragment: str) -> None:
    path = tmp_path / "s.toml"
    if isinstance(content, str):
        path.write_text(content, encoding="utf-8")
    elif isinstance(content, bytes):
        path.write_bytes(content)
    with pytest.raises(ConfigError) as info:
        load_scenario(path)
    assert info.value.allowed == allowed and fragment in str(info.value) and str(path) in str(info.value)


def test_load_scenario_rejects_other_types() -> None:
    with pytest.raises(ConfigError) as info:
        load_scenario(42)  # type: ignore[arg-type]
    assert info.value.key == "scenario" and info.value.value == "'int'"


def test_non_table_section_in_toml(write_toml) -> None:
    with pytest.raises(ConfigError) as info:
        load_scenario(write_toml({"network": "mesh"}))
    assert info.value.key == "network"


# --- the error hierarchy -----------------------------------------------------------------------------


def test_hierarchy() -> None:
    assert issubclass(errors.RoutingError, errors.ConfigError)
    assert issubclass(errors.DeadlockError, errors.SimulationError)
    assert issubclass(errors.ConservationError, errors.SimulationError)
    for cls in (errors.ConfigError, errors.SimulationError, errors.InternalError):
        assert issubclass(cls, errors.FlitcastError)


CORE_ERRORS = [
    ({"kind": "config", "message": "switch.vcs = 1 is not allowed: expected at least 2", "key": "switch.vcs",
      "value": "1", "allowed": "at least 2"}, errors.ConfigError),
    ({"kind": "routing", "message": "routing check failed: cycle", "key": None, "value": None, "allowed": None},
     errors.RoutingError),
    ({"kind": "deadlock", "message": "deadlock at 12", "cycle": 12, "blocked": ["router 0 in-port 1 vc 0"]},
     errors.DeadlockError),
    ({"kind": "conservation", "message": "lost a flit"}, errors.ConservationError),
    ({"kind": "internal", "message": "the engine panicked: boom"}, errors.InternalError),
    ({"kind": "martian", "message": "?"}, errors.InternalError),
    ("not a dict", errors.InternalError),
]


@pytest.mark.parametrize(("error", "cls"), CORE_ERRORS, ids=[str(e[1].__name__) + str(i) for i, e in enumerate(CORE_ERRORS)])
def test_from_core_maps_kinds(error: Any, cls: type) -> None:
    exc = errors.from_core(error, Scenario().to_core_dict())
    assert type(exc) is cls
    clone = pickle.loads(pickle.dumps(exc))  # errors cross process boundaries (executors, Dask)
    assert type(clone) is cls and str(clone) == str(exc) and clone.__dict__ == exc.__dict__


def test_from_core_details() -> None:
    config = errors.from_core(CORE_ERRORS[0][0])
    assert (config.key, config.value, config.allowed) == ("switch.vcs", "1", "at least 2")
    assert str(config) == "switch.vcs = 1 is not allowed: expected at least 2"
    routing = errors.from_core(CORE_ERRORS[1][0], Scenario().to_core_dict())
    assert routing.key == "routing.algorithm" and routing.value == "'dor'" and "cycle" in str(routing)
    deadlock = errors.from_core(CORE_ERRORS[2][0])
    assert deadlock.cycle == 12 and deadlock.blocked == ["router 0 in-port 1 vc 0"]


# --- settings without effect: an error or a warning, never silently recorded ----------------------------

SP = {"network": {"topology": "sp16"}, "routing": {"algorithm": "adaptive"}}
O4 = {"network": {"topology": "sp16"}, "routing": {"algorithm": "o4"}}
HW_TREE = {"network": {"topology": "fat_tree", "k": 4, "n": 2}, "routing": {"algorithm": "adaptive"}, "switch": {"model": "central_buffer"}}


def _merged(base: dict[str, Any], change: dict[str, Any]) -> dict[str, Any]:
    return {section: {**base.get(section, {}), **change.get(section, {})} for section in {*base, *change}}


@pytest.mark.parametrize(
    ("data", "key"),
    [
        ({"routing": {"selection": "lru"}}, "routing.selection"),
        ({"routing": {"selection_history": "adaptive_hops"}}, "routing.selection_history"),
        ({"routing": {"oblivious_table": "d_mod_k"}}, "routing.oblivious_table"),
        ({"routing": {"o4_spread": "every_stage"}}, "routing.o4_spread"),
        ({"network": {"node_numbering": "plain"}}, "network.node_numbering"),
        ({"network": {"topology": "torus", "node_numbering": "plain"}}, "network.node_numbering"),
    ],
)
def test_source_routing_keys_on_a_mesh_torus_or_ring_are_errors(data: dict[str, Any], key: str) -> None:
    with pytest.raises(ConfigError) as info:
        Scenario.model_validate(data)
    assert info.value.key == key and "it matters only" in info.value.allowed and "no effect" in str(info.value)


@pytest.mark.parametrize(
    ("data", "key"),
    [
        (_merged(O4, {"routing": {"selection": "rr"}}), "routing.selection"),
        (_merged(SP, {"routing": {"selection": "rnd", "selection_history": "adaptive_hops"}}), "routing.selection_history"),
        (_merged(SP, {"routing": {"oblivious_table": "s_mod_k"}}), "routing.oblivious_table"),
        (_merged(O4, {"routing": {"o4_spread": "every_stage"}}), "routing.o4_spread"),  # balanced tables
        ({"network": {"topology": "fat_tree", "k": 2, "n": 3, "node_numbering": "plain"},
          "routing": {"algorithm": "adaptive"}}, "network.node_numbering"),
        (_merged(SP, {"network": {"k": 4}}), "network.k"),
        (_merged(SP, {"network": {"n": 3}}), "network.n"),
        ({"switch": {"route_cycles": 2}}, "switch.route_cycles"),
        ({"switch": {"chunk_flits": 4}}, "switch.chunk_flits"),
        ({"switch": {"central_buffer_chunks": 16}}, "switch.central_buffer_chunks"),
        ({"workload": {"hotspot_nodes": [3]}}, "workload.hotspot_nodes"),
        ({"workload": {"hotspot_fraction": 0.3}}, "workload.hotspot_fraction"),
        ({"workload": {"pattern": "tornado", "uniform_include_self": True}}, "workload.uniform_include_self"),
        ({"workload": {"transpose_split": "floor"}}, "workload.transpose_split"),
        ({"workload": {"pattern": "transpose", "transpose_split": "floor"}}, "workload.transpose_split"),  # 64 nodes
        ({"routing": {"torus_ties": "positive"}}, "routing.torus_ties"),  # a mesh
        ({"switch": {"multicast_admission": "unreserved"}}, "switch.multicast_admission"),
        ({"workload": {"multicast_fraction": 0.2}}, "workload.multicast_fraction"),
        ({"workload": {"multicast_header_flits": 2}}, "workload.multicast_header_flits"),
        ({**HW_TREE, "workload": {"multicast_destinations": 2, "multicast_scheme": "hardware",
                                  "multicast_forward_cycles": 9}}, "workload.multicast_forward_cycles"),
        ({"network": {"topology": "torus", "k": 5}, "routing": {"torus_ties": "positive"}}, "routing.torus_ties"),
    ],
)
def test_other_settings_without_effect_warn(data: dict[str, Any], key: str) -> None:
    with pytest.warns(errors.ConfigWarning) as caught:
        Scenario.model_validate(data)
    assert [w.message.key for w in caught] == [key]
    assert str(caught[0].message).startswith(f"{key} = ") and "has no effect here; it matters only" in str(caught[0].message)


@pytest.mark.parametrize(
    "data",
    [
        _merged(SP, {"routing": {"selection": "rr", "selection_history": "adaptive_hops"}}),
        {"network": {"topology": "sp128"}, "routing": {"algorithm": "o4", "oblivious_table": "d_mod_k",
                                                       "o4_spread": "every_stage"}},
        {"network": {"topology": "sp128", "node_numbering": "plain"}, "routing": {"algorithm": "o1",
                                                                                 "oblivious_table": "s_mod_k"}},
        {"switch": {"model": "central_buffer", "route_cycles": 2, "chunk_flits": 4, "central_buffer_chunks": 16}},
        {"workload": {"pattern": "hotspot", "hotspot_nodes": [3], "hotspot_fraction": 0.3, "uniform_include_self": True}},
        {"network": {"topology": "sp128"}, "routing": {"algorithm": "adaptive"},
         "workload": {"pattern": "transpose", "transpose_split": "floor"}},
        {"network": {"topology": "torus", "k": 8}, "routing": {"torus_ties": "positive"}},
        {**HW_TREE, "switch": {"model": "central_buffer", "multicast_admission": "unreserved"},
         "workload": {"multicast_destinations": 4, "multicast_scheme": "hardware", "multicast_fraction": 0.2,
                      "multicast_header_flits": 2}},
        # defaults written out (a resolved scenario.toml) never trigger
        Scenario().to_toml_dict(),
    ],
)
def test_settings_with_effect_are_silent(data: dict[str, Any]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        Scenario.model_validate(data)


def test_resolved_scenarios_reload_silently() -> None:
    for data in ({}, SP, O4, {"switch": {"model": "central_buffer"}},
                 {"workload": {"pattern": "hotspot", "hotspot_nodes": [1], "hotspot_fraction": 0.5}}):
        scenario = Scenario.model_validate(data)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert Scenario.model_validate(scenario.to_toml_dict()) == scenario


def test_with_overrides_judges_what_was_set_explicitly() -> None:
    adaptive = Scenario.model_validate(SP)  # selection resolved to lru, not set
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert adaptive.with_overrides({"routing.algorithm": "o1"}).routing.selection == "first_free"
    rr = adaptive.with_overrides({"routing.selection": "rr"})
    with pytest.warns(errors.ConfigWarning, match="routing.selection = 'rr'"):
        rr.with_overrides({"routing.algorithm": "o4"})


def test_stop_go_thresholds_need_a_round_trip_of_slack() -> None:
    base = {"network": {"topology": "torus", "k": 8, "channel_latency_cycles": 50}, "switch": {"flow_control": "stop_go", "buffer_flits": 250}}
    Scenario.model_validate(base)  # STOP at 250 − (2·50 + 1 − 1) = 150 by default
    Scenario.model_validate({**base, "switch": {**base["switch"], "stop_flits": 150, "go_flits": 100}})
    with pytest.raises(ConfigError) as info:
        Scenario.model_validate({**base, "switch": {**base["switch"], "stop_flits": 151}})
    assert info.value.key == "switch.stop_flits"
    with pytest.raises(ConfigError) as info:
        Scenario.model_validate({**base, "switch": {**base["switch"], "stop_flits": 100, "go_flits": 100}})
    assert info.value.key == "switch.go_flits"
    with pytest.raises(ConfigError) as info:
        Scenario.model_validate({**base, "switch": {"model": "central_buffer", "flow_control": "stop_go"}})
    assert info.value.key in ("switch.flow_control",)


# --- study 001: a fixed group's host adapters ------------------------------------------------------------

CASETTI = {
    "network": {"topology": "torus", "k": 8, "channel_latency_cycles": 50, "terminal_latency_cycles": 1},
    "switch": {"flow_control": "stop_go", "buffer_flits": 250},
    "workload": {"multicast_group": [0, 1, 2, 3, 13, 15, 16, 17, 31], "multicast_scheme": "ring", "load": 0.01,
                 "message_flits": 100, "message_flits_max": 1000, "packet_flits": 4000},
}


def _with(section: str, **changes: Any) -> dict[str, Any]:
    return {**CASETTI, section: {**CASETTI.get(section, {}), **changes}}


@pytest.mark.parametrize(
    ("section", "changes", "key"),
    [
        ("workload", {"multicast_group": [0, 64]}, "workload.multicast_group"),
        ("workload", {"multicast_group": [3, 3]}, "workload.multicast_group"),
        ("workload", {"multicast_group": []}, "workload.multicast_scheme"),
        ("workload", {"multicast_scheme": "software"}, "workload.multicast_scheme"),
        ("workload", {"packet_flits": 999}, "workload.packet_flits"),
        ("workload", {"message_flits_max": 150}, "workload.message_flits_max"),
        ("workload", {"background_load": 0.1, "packet_flits": 1000}, "workload.packet_flits"),
        ("network", {"topology": "mesh", "n": 3, "k": 4}, "network.topology"),
        ("network", {"terminal_latency_cycles": 51}, "network.terminal_latency_cycles"),
    ],
)
def test_a_fixed_group_is_checked_naming_the_key(section: str, changes: dict[str, Any], key: str) -> None:
    Scenario.model_validate(CASETTI)
    with pytest.raises(ConfigError) as info:
        Scenario.model_validate(_with(section, **changes))
    assert info.value.key == key


def test_a_fixed_group_is_bounded() -> None:
    big = {**CASETTI, "network": {**CASETTI["network"], "k": 33}}
    Scenario.model_validate({**big, "workload": {**CASETTI["workload"], "multicast_group": list(range(1024))}})
    with pytest.raises(ConfigError) as info:
        Scenario.model_validate({**big, "workload": {**CASETTI["workload"], "multicast_group": list(range(1025))}})
    assert info.value.key == "workload.multicast_group" and "1024" in str(info.value)


def test_background_unicasts_need_a_group_and_the_core_agrees() -> None:
    import flitcast

    with pytest.raises(ConfigError) as info:
        Scenario.model_validate({"workload": {"background_load": 0.1}})
    assert info.value.key == "workload.background_load"
    # the core's own check refuses what the front refuses, with the same key
    bad = Scenario.model_validate(CASETTI).to_core_dict()
    bad["workload"]["multicast_group"] = [0, 99]
    from flitcast import _core

    outcome = json.loads(_core.run(json.dumps(bad)))
    assert outcome["error"]["kind"] == "config" and outcome["error"]["key"] == "workload.multicast_group"
    assert flitcast.run(Scenario.model_validate(_with("run", measure_cycles=20_000, warmup_cycles=1_000))).metrics["operations_measured"] > 0


def test_adapter_keys_without_relaying_adapters_are_flagged() -> None:
    with pytest.warns(errors.ConfigWarning, match="adapter.reception_worms"):
        Scenario.model_validate({"adapter": {"reception_worms": 2}})


# --- study 004: one software multicast on a unidirectional torus ---------------------------------------------

ORAL = {
    "network": {"topology": "torus", "k": 4, "unidirectional": True},
    "workload": {"multicast_group_size": 10, "multicast_scheme": "mu_torus", "multicast_partition": 4},
    "run": {"warmup_cycles": 0, "measure_cycles": 2, "batches": 2},
}


@pytest.mark.parametrize(
    ("section", "changes", "key"),
    [
        ("network", {"unidirectional": False}, "network.topology"),
        ("workload", {"multicast_group_size": 17}, "workload.multicast_group_size"),
        ("workload", {"multicast_root": 16}, "workload.multicast_root"),
        ("workload", {"multicast_partition": 17}, "workload.multicast_partition"),
        ("workload", {"multicast_scheme": "ring"}, "workload.multicast_scheme"),
        ("workload", {"multicast_group_size": 0}, "workload.multicast_scheme"),
        ("run", {"warmup_cycles": 10}, "run.warmup_cycles"),
    ],
)
def test_a_torus_multicast_is_checked_naming_the_key(section: str, changes: dict[str, Any], key: str) -> None:
    Scenario.model_validate(ORAL)
    with pytest.raises(ConfigError) as info:
        Scenario.model_validate({**ORAL, section: {**ORAL[section], **changes}})
    assert info.value.key == key


def test_a_torus_multicast_runs_and_reports_its_metrics() -> None:
    import flitcast

    m = flitcast.run(Scenario.model_validate({**ORAL, "adapter": {"send_overhead_cycles": 100, "receive_overhead_cycles": 100}})).metrics
    assert m["operations_measured"] == 1 and m["completion_cycles"] > m["latency_max"]
    assert m["link_concurrency"] >= 1 and m["link_concentration"] >= 1 and m["root_busy_cycles"] == 300  # three blocks
