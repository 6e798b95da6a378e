"""Hostile scenarios: every draw is either simulated or rejected with a flitcast error — via the API and
via the CLI (exit 0 with all files, or exit 2 with one line and no output directory). Never another
exception, never a traceback.

Valid draws are kept cheap: k and n are small or out of range, and the run lengths are at most 2000
cycles or out of range, so nothing hangs.
"""

from __future__ import annotations

import functools
import math
import os
import sys
import tempfile
import warnings
from pathlib import Path
from typing import Any

import pytest
import tomli_w
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import flitcast
from flitcast import catalogue, errors
from flitcast.cli import app
from flitcast.config.files import MAX_SCENARIO_BYTES, read_scenario_file
from flitcast.sweeps.cartesian import grid

# a flitcast error that is not a core bug: bad input, or a deadlock the user asked for
EXPECTED = (errors.ConfigError, errors.DeadlockError)


def _outside(lo: int, hi: int) -> st.SearchStrategy[int]:
    return st.integers(max_value=lo - 1, min_value=-(2**70)) | st.integers(min_value=hi + 1, max_value=2**70)


WRONG_TYPE = st.one_of(
    st.none(),
    st.booleans(),
    st.text(max_size=8),
    st.floats(allow_nan=True, allow_infinity=True),
    st.lists(st.integers(-5, 5), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)

#: the core's key catalogue: each table's key declarations, a tag (the kind) before the keys of its kinds
CATALOGUE = [(section, keys) for section, _, keys in catalogue.sections()]

# key -> (cheap valid values, out-of-range values or None). A key that names a kind or a choice takes its
# choices from the catalogue (a new kind is drawn without editing this table); a key missing here is drawn
# by its type.
VALUES: dict[str, dict[str, tuple[st.SearchStrategy[Any], st.SearchStrategy[Any] | None]]] = {
    "network": {
        "k": (st.integers(2, 4), _outside(2, 1024)),
        "n": (st.integers(1, 2), _outside(1, 6)),
        "channel_latency_cycles": (st.integers(1, 3), _outside(1, 1000)),
        "terminal_latency_cycles": (st.integers(1, 3), _outside(1, 1000)),
    },
    "switch": {
        "route_cycles": (st.integers(1, 6), _outside(1, 1000)),
        "chunk_flits": (st.integers(1, 16), _outside(1, 64)),
        "central_buffer_chunks": (st.integers(1, 64), _outside(1, 1_000_000)),
        "vcs": (st.integers(1, 4), _outside(1, 16)),
        "buffer_flits": (st.integers(1, 16), _outside(1, 4096)),
        "router_delay_cycles": (st.integers(1, 6), _outside(1, 1000)),
        "turn_cycles": (st.integers(0, 3), _outside(0, 1_000_000)),
        "stop_flits": (st.integers(1, 16), _outside(1, 4096)),
        "go_flits": (st.integers(0, 8), _outside(0, 4096)),
    },
    "routing": {},
    "workload": {
        "load": (
            st.floats(min_value=1e-3, max_value=1.0),
            st.floats(max_value=0.0) | st.floats(min_value=1.0, exclude_min=True) | st.just(math.nan),
        ),
        "packet_flits": (st.integers(1, 16), _outside(1, 4096)),
        "message_flits": (st.integers(1, 40), _outside(1, 1_000_000)),
        "hotspot_nodes": (st.lists(st.integers(0, 20), max_size=3), st.lists(st.integers(-(2**40), -1), min_size=1)),
        "hotspot_fraction": (st.floats(0.0, 1.0), st.floats(min_value=1.0, exclude_min=True) | st.just(-0.5)),
        "destinations": (st.integers(1, 20), _outside(1, 1_048_575)),
        "multicast_fraction": (st.floats(1e-3, 1.0), st.floats(max_value=0.0) | st.just(1.5)),
        "forward_cycles": (st.integers(0, 20), _outside(0, 10**9)),
        "header_flits": (st.integers(0, 4), _outside(0, 4096)),
        "source_share": (st.floats(1e-3, 1.0), st.floats(max_value=0.0) | st.just(1.5)),
        "group_share": (st.floats(1e-3, 1.0), st.floats(max_value=0.0) | st.just(1.5)),
        "group": (st.lists(st.integers(0, 20), min_size=2, max_size=4), st.lists(st.integers(-(2**40), -1), min_size=1)),
        "message_flits_max": (st.integers(2, 40), _outside(2, 1_000_000)),
        "background_load": (st.floats(0.0, 0.2), st.floats(min_value=1.0, exclude_min=True) | st.just(-0.5)),
        "background_flits": (st.integers(1, 40), _outside(1, 1_000_000)),
        "background_flits_max": (st.integers(2, 80), _outside(2, 1_000_000)),
        "reception_worms": (st.integers(1, 4), _outside(1, 1024)),
        "buffer_classes": (st.integers(1, 2), _outside(1, 2)),
        "control_flits": (st.integers(1, 8), _outside(1, 4096)),
        "timeout_cycles": (st.integers(1, 500), _outside(1, 10**9)),
        "max_children": (st.integers(0, 4), _outside(0, 8191)),
        "group_size": (st.integers(2, 16), _outside(2, 1_048_576)),
        "root": (st.integers(0, 15), _outside(0, 1_048_575)),
        "partition": (st.integers(2, 8), _outside(2, 1_048_576)),
        "send_overhead_cycles": (st.integers(0, 20), _outside(0, 10**12)),
        "receive_overhead_cycles": (st.integers(0, 20), _outside(0, 10**12)),
        "process_cycles": (st.integers(0, 20), _outside(0, 10**12)),
    },
    "run": {
        # 0 half the time: a closed workload (batch, torus_multicast) measures from cycle 0
        "warmup_cycles": (st.just(0) | st.integers(0, 2000), _outside(0, 10**9)),
        "measure_cycles": (st.integers(1, 2000), _outside(1, 10**9)),
        "drain_max_cycles": (st.integers(0, 2000), _outside(0, 10**9)),
        "seed": (st.integers(0, 2**63 - 1), _outside(0, 2**63 - 1)),
        "watchdog_cycles": (st.integers(1, 2000), _outside(1, 10**9)),
        "batches": (st.integers(2, 20), _outside(2, 1000)),
        "max_nodes": (st.integers(1, 100), _outside(1, 1_048_576)),
        "memory_limit_mb": (st.integers(0, 4096), _outside(0, 2**40)),
    },
}

BY_TYPE: dict[str, st.SearchStrategy[Any]] = {
    "bool": st.booleans(),
    "int": st.integers(0, 4),
    "float": st.floats(0.0, 1.0),
    "str": st.text(max_size=8),
    "list[int]": st.lists(st.integers(0, 20), max_size=3),
}

# left out, these would default to something expensive (an 8x8 mesh, 110k cycles)
REQUIRED = {("network", "k"), ("run", "warmup_cycles"), ("run", "measure_cycles"), ("run", "drain_max_cycles")}

UNKNOWN_NAME = st.text(alphabet="abcxyz_", min_size=1, max_size=6).map(lambda s: "x_" + s)
UNKNOWN_KIND = st.sampled_from(["hypercube", "MESH", "central_buffer", "saf", "valiant", "all_to_all", "periodic", ""])

#: keys of an earlier version (``workload.multicast_scheme``, ``adapter.*``)
MOVED = [key.split(".", 1) for key, _ in catalogue.schema()["moved"]]

CORRUPTIONS = [
    "wrong_type", "out_of_range", "unknown_kind", "unknown_key", "unknown_section", "section_not_table",
    "missing_section", "byte_sizing", "other_kind", "moved_key",
]


#: keys drawn only by the byte_sizing corruption (each needs the others)
BYTE_SIZING = {("workload", "message_bytes"), ("workload", "flit_bytes"), ("workload", "max_packet_bytes")}


@functools.cache
def _fits(kinds: tuple[tuple[str, str, str], ...]) -> bool:
    """Whether the core accepts these kinds together ((table, tag, kind), ...): none of its problems with a
    scenario naming only them is about one of them (the keys their kinds need may still be missing)."""
    data: dict[str, dict[str, str]] = {}
    for section, tag, kind in kinds:
        data.setdefault(section, {})[tag] = kind
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            flitcast.Scenario.model_validate(data)
    except errors.ConfigError as exc:
        named = {f"{section}.{tag}" for section, tag, _ in kinds}
        return not any(problem["key"] in named for problem in exc.problems or [{"key": exc.key}])
    return True


def _valid(section: str, key: dict[str, Any]) -> st.SearchStrategy[Any]:
    if key["choices"] is not None:
        return st.sampled_from(key["choices"])
    known = VALUES[section].get(key["key"])
    return known[0] if known is not None else BY_TYPE[key["type"]]


def _takes(key: dict[str, Any], kinds: dict[str, str]) -> bool:
    """Whether the kinds chosen in a table take the key declaration ``key``."""
    return all(kinds.get(tag) == kind for tag, kind in key["within"])


@st.composite
def hostile_scenarios(draw: st.DrawFn) -> dict[str, Any]:
    """A cheap scenario of kinds drawn from the catalogue with keys those kinds take, then zero to three
    corruptions of it. Three times in four the kinds are ones the core accepts together (a mesh with dor,
    a fat tree with a source routing, ...), so that many draws simulate; else any."""
    data: dict[str, Any] = {}
    kinds_of: dict[str, dict[str, str]] = {}
    fitting = draw(st.integers(0, 3)) > 0
    chosen: tuple[tuple[str, str, str], ...] = ()
    for section, keys in CATALOGUE:
        table: dict[str, Any] = {}
        kinds: dict[str, str] = kinds_of.setdefault(section, {})
        for key in keys:
            name = key["key"]
            if name in table or not _takes(key, kinds) or (section, name) in BYTE_SIZING:
                continue
            if key["tag"]:  # the kind: named two times in three (always where the default does not fit)
                kinds[name] = key["default"]
                choices = key["choices"]
                if fitting:
                    choices = [c for c in choices if _fits((*chosen, (section, name, c)))] or choices
                if key["default"] not in choices or draw(st.integers(0, 2)):
                    kinds[name] = table[name] = draw(st.sampled_from(choices))
                chosen = (*chosen, (section, name, kinds[name]))
            elif (section, name) in REQUIRED or draw(st.integers(0, 2)) == 0:
                table[name] = draw(_valid(section, key))
        data[section] = table
    for _ in range(draw(st.sampled_from([0, 0, 0, 1, 1, 2, 3]))):
        corruption = draw(st.sampled_from(CORRUPTIONS))
        section, keys = draw(st.sampled_from(CATALOGUE))
        table = data.get(section)
        declared = draw(st.sampled_from(keys))
        key = declared["key"]
        if not isinstance(table, dict):
            continue
        if corruption == "wrong_type":
            table[key] = draw(WRONG_TYPE)
        elif corruption == "out_of_range":
            out_of_range = VALUES[section].get(key, (None, None))[1]
            table[key] = draw(out_of_range) if out_of_range is not None else draw(UNKNOWN_KIND)
        elif corruption == "unknown_kind":
            choosing = sorted({k["key"] for k in keys if k["choices"] is not None})
            if choosing:
                table[draw(st.sampled_from(choosing))] = draw(UNKNOWN_KIND)
        elif corruption == "unknown_key":
            table[draw(UNKNOWN_NAME)] = draw(WRONG_TYPE)
        elif corruption == "unknown_section":
            data[draw(UNKNOWN_NAME)] = draw(WRONG_TYPE | st.dictionaries(UNKNOWN_NAME, st.integers(), max_size=2))
        elif corruption == "section_not_table":
            data[section] = draw(WRONG_TYPE)
        elif corruption == "missing_section" and section not in ("network", "run"):
            del data[section]
        elif corruption == "byte_sizing" and section == "workload":
            for name in ("message_bytes", "flit_bytes", "max_packet_bytes"):
                if draw(st.integers(0, 3)):
                    table[name] = draw(st.integers(-5, 300) | WRONG_TYPE)
        elif corruption == "other_kind" and not any(
            k["key"] == key and _takes(k, kinds_of[section]) for k in keys
        ):
            table[key] = draw(_valid(section, declared))  # a valid value, of a key another kind takes
        elif corruption == "moved_key":
            old_table, old_key = draw(st.sampled_from(MOVED))
            old = data.setdefault(old_table, {})
            if isinstance(old, dict):
                old[old_key] = draw(st.integers(0, 4) | WRONG_TYPE)
    return data


@pytest.mark.filterwarnings("ignore::flitcast.errors.ConfigWarning")  # draws set keys their scenario ignores
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hostile_scenarios())
def test_api_simulates_or_rejects(data: dict[str, Any]) -> None:
    try:
        result = flitcast.run(data)
    except EXPECTED:
        return
    assert result.metrics["cycles"] >= 1
    assert isinstance(result.metrics["saturated"], bool)


def _tomlable(value: Any) -> Any:
    """TOML has no null: write None as a string (still hostile for every key)."""
    if value is None:
        return "none"
    if isinstance(value, dict):
        return {k: _tomlable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_tomlable(v) for v in value]
    return value


def _check_cli(args: list[str], out: Path) -> None:
    result = CliRunner().invoke(app, [*args, "--out", str(out)])
    assert result.exit_code in (0, 2), (result.exit_code, result.output, repr(result.exception))
    assert "Traceback" not in result.output
    if result.exit_code == 0:
        single = ["links.csv"] if args[0] == "run" else []  # (a single run names its channels)
        assert sorted(p.name for p in out.iterdir()) == [*single, "results.csv", "results.parquet", "scenario.toml"]
    else:
        # usage errors (bad option syntax) too; a setting without effect may add a warning line first
        lines = [line for line in result.stderr.strip().splitlines() if not line.startswith("warning: ")]
        assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
        assert not out.exists()
        assert not [p for p in out.parent.iterdir() if ".tmp-" in p.name]


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hostile_scenarios())
@example({"network": {"\r": 0}, "switch": {}, "routing": {}, "workload": {}, "run": {"measure_cycles": 1}})
@example({"network": {}, "switch": {}, "routing": {}, "workload": {"x\ny\u2028": 1}, "run": {}})
def test_cli_simulates_or_rejects(data: dict[str, Any]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "scenario.toml"
        path.write_text(tomli_w.dumps(_tomlable(data)), encoding="utf-8")
        _check_cli(["run", str(path)], Path(tmp) / "out")


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=60) | st.binary(max_size=40))
def test_cli_survives_garbage_files(content: str | bytes) -> None:
    short = ["--set", "run.warmup_cycles=100", "--set", "run.measure_cycles=500", "--set", "run.drain_max_cycles=500"]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "scenario.toml"
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
        _check_cli(["run", str(path), *short], Path(tmp) / "out")


@settings(max_examples=20, deadline=None)
@given(st.lists(st.text(max_size=25), min_size=1, max_size=3))
def test_cli_survives_garbage_options(sets: list[str]) -> None:
    short = ["--set", "run.warmup_cycles=100", "--set", "run.measure_cycles=500", "--set", "run.drain_max_cycles=500",
             "--set", "network.k=3"]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "scenario.toml"
        path.write_text("", encoding="utf-8")
        args = ["run", str(path), *short]
        for item in sets:
            args += ["--set", item]
        _check_cli(args, Path(tmp) / "out")


# --- hostile files: never read whole, every failure a ConfigError naming the file ------------------------


def _hostile_files(tmp: Path) -> list[tuple[Path, str]]:
    deep_array = tmp / "deep_array.toml"
    deep_array.write_text("[workload]\nhotspot_nodes = " + "[" * 600 + "]" * 600 + "\n", encoding="utf-8")
    deep_table = tmp / "deep_table.toml"
    deep_table.write_text("x = " + "{a = " * 600 + "1" + "}" * 600 + "\n", encoding="utf-8")
    big = tmp / "big.toml"
    with big.open("wb") as fh:
        fh.truncate(MAX_SCENARIO_BYTES + 1)  # sparse: nothing is written, and nothing may be read
    latin = tmp / "latin.toml"
    latin.write_bytes(b"# caf\xe9\n[network]\n")
    files = [
        (deep_array, "nests arrays or tables too deeply"),
        (deep_table, "nests arrays or tables too deeply"),
        (big, f"more than {MAX_SCENARIO_BYTES}"),
        (latin, "is not UTF-8 text"),
        (tmp, "is a directory"),
    ]
    if os.path.exists("/dev/zero"):
        files.append((Path("/dev/zero"), "is not a regular file"))
    if hasattr(os, "mkfifo"):
        fifo = tmp / "fifo.toml"
        os.mkfifo(fifo)  # nobody writes to it: opening it must not wait
        files.append((fifo, "is not a regular file"))
    return files


def test_hostile_files_are_config_errors(tmp_path: Path) -> None:
    for path, fragment in _hostile_files(tmp_path):
        try:
            read_scenario_file(path)
        except errors.ConfigError as exc:
            assert exc.key == "scenario file" and str(path) in str(exc) and fragment in str(exc), (path, str(exc))
        else:
            raise AssertionError(f"{path} was accepted")


def test_hostile_files_on_the_command_line(tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    for path, fragment in _hostile_files(work):
        out = tmp_path / "out"
        result = CliRunner().invoke(app, ["run", str(path), "--out", str(out)])
        assert result.exit_code == 2, (path, result.output)
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: ") and fragment in lines[0], result.stderr
        assert not out.exists()


# --- an irregular network's file: every problem a ConfigError naming the file, the line and what is wrong ----

REPO = Path(__file__).resolve().parent.parent
IRREGULAR_EXAMPLE = REPO / "examples" / "scenarios" / "irregular_updown.toml"

#: (what is wrong, the file's text, the line named, a piece of the message)
BAD_NETWORKS = [
    ("duplicate port", "routers,2,2\nlink,0,0,1,0\nlink,0,0,1,1\nterminal,0,0,1\n", 3, "router 0 port 0 is already used (line 2)"),
    ("port out of range", "routers,2,2\nlink,0,0,1,2\nterminal,0,0,1\n", 2, "port 2 of router 1 is out of range"),
    ("self loop", "routers,2,2\nlink,1,0,1,1\n", 2, "a self loop: router 1 linked to itself"),
    ("not connected", "routers,3,2\nlink,0,0,1,0\nterminal,0,0,1\nterminal,1,2,0\n", 4,
     "router 2 (named here) is not connected to router 0"),
    ("terminal attached twice", "routers,2,2\nlink,0,0,1,0\nterminal,0,0,1\nterminal,0,1,1\n", 4,
     "terminal 0 is attached twice (first at line 3)"),
    ("unknown router", "# two routers\nrouters,2,2\nlink,0,0,7,0\n", 3, "unknown router 7 (routers are 0 to 1)"),
    ("bad latency", "routers,2,2\nlink,0,0,1,0,fast\n", 2, "latency 'fast' is not allowed"),
    ("unknown record", "routers,2,2\nswitch,3\n", 2, "unknown record 'switch'"),
    ("terminal gap", "routers,2,2\nlink,0,0,1,0\nterminal,1,0,1\n", 3, "terminal 1 leaves a gap: terminal 0 is not attached"),
]


@pytest.mark.parametrize(("what", "text", "line", "fragment"), BAD_NETWORKS, ids=[b[0] for b in BAD_NETWORKS])
def test_a_bad_network_file_names_the_file_and_the_line(tmp_path: Path, what: str, text: str, line: int, fragment: str) -> None:
    net = tmp_path / "net.csv"
    net.write_text(text, encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["run", str(IRREGULAR_EXAMPLE), "--set", f"network.file={str(net)!r}", "--out", str(out)])
    assert result.exit_code == 2, (what, result.output)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: network.file = "), result.stderr
    assert f"{net}, line {line}: {fragment}" in lines[0], lines[0]
    assert not out.exists()
    with pytest.raises(errors.ConfigError) as info:
        flitcast.load_scenario(IRREGULAR_EXAMPLE).with_overrides({"network.file": str(net)})
    assert info.value.key == "network.file" and f"line {line}: {fragment}" in str(info.value)


def test_hostile_network_files_are_refused_unread(tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    for path, fragment in _hostile_files(work):
        if "too deeply" in fragment:
            continue  # (TOML nesting: nothing to a network file)
        out = tmp_path / "out"
        result = CliRunner().invoke(app, ["run", str(IRREGULAR_EXAMPLE), "--set", f"network.file={str(path)!r}", "--out", str(out)])
        assert result.exit_code == 2, (path, result.output)
        lines = result.stderr.strip().splitlines()
        fragment = "has " if "more than" in fragment else fragment  # (the core says how many bytes)
        assert len(lines) == 1 and f"{path}: " in lines[0] and fragment in lines[0], result.stderr
        assert not out.exists()


# --- Python API misuse: a flitcast error that says what was expected ------------------------------------


def _deep_list(depth: int) -> list[Any]:
    root: list[Any] = []
    node = root
    for _ in range(depth):
        node.append([])
        node = node[0]
    return root


def _misuses() -> list[tuple[str, Any]]:
    base = flitcast.Scenario(network={"k": 4})
    loop: list[Any] = []
    loop.append(loop)
    table: dict[str, Any] = {}
    table["a"] = table
    return [
        ("with_overrides(None)", lambda: base.with_overrides(None)),
        ("with_overrides('x')", lambda: base.with_overrides("x")),
        ("with_overrides({1: 2})", lambda: base.with_overrides({1: 2})),
        ("with_overrides(list of pairs)", lambda: base.with_overrides([("workload.load", 0.2)])),
        ("with_overrides({'': 1})", lambda: base.with_overrides({"": 1})),
        ("with_overrides(deep list)", lambda: base.with_overrides({"workload.hotspot_nodes": _deep_list(sys.getrecursionlimit() * 2)})),
        ("with_overrides(self-containing list)", lambda: base.with_overrides({"workload.hotspot_nodes": loop})),
        ("load_scenario(42)", lambda: flitcast.load_scenario(42)),
        ("load_scenario(None)", lambda: flitcast.load_scenario(None)),
        ("load_scenario(b'x')", lambda: flitcast.load_scenario(b"x.toml")),
        ("load_scenario('a\\0b')", lambda: flitcast.load_scenario("a\0b.toml")),
        ("load_scenario(self-containing dict)", lambda: flitcast.load_scenario(table)),
        ("Scenario.model_validate(None)", lambda: flitcast.Scenario.model_validate(None)),
        ("Scenario(network=5)", lambda: flitcast.Scenario(network=5)),
        ("run(42)", lambda: flitcast.run(42)),
        ("run(None)", lambda: flitcast.run(None)),
        ("run(progress=42)", lambda: flitcast.run(base, progress=42)),
        ("grid(base, None)", lambda: grid(base, None)),
        ("grid(base, scalar)", lambda: grid(base, {"workload.load": 0.1})),
        ("grid(base, string)", lambda: grid(base, {"workload.pattern": "uniform"})),
        ("grid(base, list of pairs)", lambda: grid(base, [("workload.load", [0.1])])),
        ("grid(None, ...)", lambda: grid(None, {"workload.load": [0.1]})),
        ("grid(base, {1: [0.1]})", lambda: grid(base, {1: [0.1]})),
    ]


@pytest.mark.parametrize(("name", "call"), _misuses(), ids=[name for name, _ in _misuses()])
def test_api_misuse_is_a_flitcast_error(name: str, call: Any) -> None:
    with pytest.raises(errors.FlitcastError) as info:
        call()
    assert isinstance(info.value, errors.ConfigError), name
    assert info.value.allowed and len(str(info.value)) < 400, str(info.value)


ODD_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5) | st.binary(max_size=5)
    | st.just(object()) | st.just(print) | st.just(Path("x")) | st.just(range(3)),
    lambda inner: st.lists(inner, max_size=3) | st.tuples(inner) | st.dictionaries(st.text(max_size=3) | st.integers(), inner, max_size=2)
    | st.frozensets(st.integers(), max_size=2),
    max_leaves=8,
)


@settings(max_examples=150, deadline=None)
@given(ODD_VALUES, ODD_VALUES)
def test_odd_python_values_anywhere_are_flitcast_errors(odd: Any, other: Any) -> None:
    base = flitcast.Scenario(network={"k": 4}, run={"warmup_cycles": 0, "measure_cycles": 200})
    calls = [
        lambda: base.with_overrides(odd),
        lambda: base.with_overrides({"workload.load": odd}),
        lambda: base.with_overrides({"network": odd}),
        lambda: flitcast.load_scenario(odd),
        lambda: flitcast.load_scenario({"workload": odd}),
        lambda: flitcast.load_scenario({"run": {"seed": odd}, "workload": {"hotspot_nodes": other}}),
        lambda: grid(base, odd),
        lambda: grid(base, {"switch.vcs": odd}),
        lambda: grid(odd, {"workload.load": [0.1]}),
    ]
    for call in calls:
        try:
            call()
        except errors.FlitcastError as exc:
            assert str(exc)
        # a valid draw (e.g. a load of 0.5) simply succeeds
