"""flitcast.config: scenario keys declared once in the core, per kind, and everything made from them.

The core declares every key (type, default, range, doc, the kind it belongs to), every rule across keys,
the keys that matter only sometimes and the keys that moved (``_core.schema()``); it checks a scenario
(``_core.check``) and the front raises its problems as ``ConfigError``. The tables below are read from,
or count-checked against, that catalogue, so a key, rule or kind added to the core without being
reachable from Python fails here.
"""

from __future__ import annotations

import copy
import functools
import json
import math
import pickle
import re
import typing
import warnings
from pathlib import Path
from typing import Any

import pytest

from flitcast import _core, catalogue, errors, load_scenario
from flitcast.config import Scenario
from flitcast.config.files import MAX_SCENARIO_BYTES
from flitcast.config.sections import SECTIONS
from flitcast.errors import ConfigError, ConfigWarning
from flitcast.sweeps.store import NOT_IN_KEY, point_key

REPO = Path(__file__).resolve().parent.parent

# --- the catalogue, and scenarios that choose a kind ----------------------------------------------------

SCHEMA = catalogue.schema()
#: every key declaration: (table, declaration)
DECLS: list[tuple[str, dict[str, Any]]] = [(s, d) for s, _, keys in catalogue.sections() for d in keys]
#: tag key -> its table (topology -> network, model -> switch, selection -> routing, pattern -> workload, ...)
TAG_TABLE = {d["key"]: s for s, d in DECLS if d["tag"]}

#: an irregular network's file (the example's), by its full path: the tests run from any directory
NET_FILE = str(REPO / "examples" / "networks" / "irregular_updown.csv")
#: an irregular network routed up*/down*
IRREGULAR = {"network": {"topology": "irregular", "file": NET_FILE}, "routing": {"algorithm": "up_down"}}

#: a central-buffer fat tree: where multidestination worms run
MULTIDESTINATION = {
    "network": {"topology": "fat_tree", "k": 4},
    "routing": {"algorithm": "adaptive"},
    "switch": {"model": "central_buffer"},
}

#: What a kind needs beside its tag to pass the rules. A kind not listed needs nothing
#: (test_a_kind_needs_exactly_its_companions checks both ways).
COMPANIONS: dict[tuple[str, str], dict[str, Any]] = {
    ("topology", "fat_tree"): {"routing": {"algorithm": "adaptive"}},  # source routing on a MIN
    ("topology", "sp16"): {"routing": {"algorithm": "adaptive"}},
    ("topology", "sp128"): {"routing": {"algorithm": "adaptive"}},
    ("algorithm", "adaptive"): {"network": {"topology": "sp16"}},  # ... and a MIN for a source routing
    ("algorithm", "o1"): {"network": {"topology": "sp16"}},
    ("algorithm", "o4"): {"network": {"topology": "sp16"}},
    ("topology", "irregular"): IRREGULAR,  # a file to read, routed up*/down*
    ("algorithm", "up_down"): IRREGULAR,
    ("program", "hardware_multicast"): MULTIDESTINATION,  # switches that replicate
    ("program", "batch"): {**MULTIDESTINATION, "run": {"warmup_cycles": 0}},  # closed: measured from cycle 0
    ("program", "host_adapter"): {"workload": {"group": [0, 1, 2, 3]}},  # a fixed group
    ("program", "torus_multicast"): {  # one multicast on a unidirectional 2-D torus, measured from 0
        "network": {"topology": "torus", "unidirectional": True},
        "run": {"warmup_cycles": 0},
    },
    ("program", "collective"): {"run": {"warmup_cycles": 0}},  # one collective, measured from cycle 0
    ("pattern", "hotspot"): {"workload": {"hotspot_nodes": [0], "hotspot_fraction": 0.25}},
    ("topology", "dragonfly"): {"routing": {"algorithm": "minimal"}},  # the dragonfly's routings
    ("topology", "slim_fly"): {"routing": {"algorithm": "minimal"}},  # routed from its distances
    ("algorithm", "minimal"): {"network": {"topology": "dragonfly"}},
    ("algorithm", "valiant"): {"network": {"topology": "dragonfly"}, "switch": {"vcs": 3}},  # three VC classes
    ("algorithm", "ugal_l"): {"network": {"topology": "dragonfly"}, "switch": {"vcs": 3}},
    ("algorithm", "ugal_g"): {"network": {"topology": "dragonfly"}, "switch": {"vcs": 3}},
    ("pattern", "dragonfly_worst_case"): {"network": {"topology": "dragonfly"}, "routing": {"algorithm": "minimal"}},
}

#: keys whose declared default no scenario of their kind accepts (the kind's companion sets them)
DEFAULT_REFUSED = {"workload.group", "workload.hotspot_nodes", "workload.hotspot_fraction", "network.file"}

#: a key's other value where the generic choice (other_value) would break a rule, with what it needs
OTHER: dict[str, tuple[Any, dict[str, Any]]] = {
    "workload.message_bytes": (100, {"workload": {"flit_bytes": 4, "max_packet_bytes": 32}}),
    "workload.flit_bytes": (4, {"workload": {"message_bytes": 100, "max_packet_bytes": 32}}),
    "workload.max_packet_bytes": (32, {"workload": {"message_bytes": 100, "flit_bytes": 4}}),
    # host adapters: every worm is one packet
    "workload.message_flits_max": (16, {"workload": {"packet_flits": 16, "message_flits": 8}}),
    "workload.background_load": (0.5, {"workload": {"packet_flits": 4000}}),
    "workload.control_flits": (4, {}),
    # (the same file by another path: another value, for the store too, which keys a point by the path)
    "network.file": (str(REPO / "examples" / "networks" / ".." / "networks" / "irregular_updown.csv"), {}),
    "network.shape": ([3, 2, 2], {}),  # (a HyperX's sizes are at least 2)
    "network.q": (7, {}),  # (a Slim Fly's q is a prime)
    "network.level_latency_cycles": ([3], {}),  # (one latency per pair of adjacent levels: n = 2 has one)
    # header bytes are whole flits of workload.flit_bytes: sizes in bytes (and a lane for the header)
    "workload.unicast_header_bytes": (34, {"workload": {"message_bytes": 32, "flit_bytes": 8, "max_packet_bytes": 32}}),
    "workload.multicast_header_bytes": (74, {"workload": {"message_bytes": 32, "flit_bytes": 8, "max_packet_bytes": 32}}),
}


def merged(*tables: dict[str, Any]) -> dict[str, Any]:
    """The scenario tables merged key by key, later ones winning (deep copies)."""
    out: dict[str, Any] = {}
    for data in tables:
        for section, table in data.items():
            out.setdefault(section, {}).update(copy.deepcopy(table))
    return out


def scenario_for(pairs: list[tuple[str, str]], *extra: dict[str, Any], alone: tuple[str, str] | None = None) -> dict[str, Any]:
    """A scenario choosing the kinds `pairs` ((tag, kind), outermost first), with the companions they
    need (but not those of `alone`), then `extra`."""
    needs = [COMPANIONS.get(pair, {}) for pair in pairs if pair != alone]
    tags = [{TAG_TABLE[tag]: {tag: kind}} for tag, kind in pairs]
    return merged(*needs, *tags, *extra)


def pairs_of(decl: dict[str, Any]) -> list[tuple[str, str]]:
    return [(tag, kind) for tag, kind in decl["within"]]


def dotted(section: str, decl: dict[str, Any]) -> str:
    return f"{section}.{decl['key']}"


def kind_id(decl: dict[str, Any]) -> str:
    return ",".join(f"{tag}={kind}" for tag, kind in decl["within"]) or "-"


def _bound(text: str) -> int:
    text = text.strip()
    if m := re.fullmatch(r"2\^(\d+)( − 1)?", text):
        return 2 ** int(m[1]) - (1 if m[2] else 0)
    if m := re.fullmatch(r"1e(\d+)", text):
        return 10 ** int(m[1])
    return int(text)


def int_range(decl: dict[str, Any]) -> tuple[int, int]:
    m = re.fullmatch(r"an integer from (.+?) to (.+?)(, or left out)?", decl["allowed"])
    assert m, f"an integer key's allowed text reads 'an integer from LO to HI': {decl['allowed']!r}"
    return _bound(m[1]), _bound(m[2])


def float_range(decl: dict[str, Any]) -> tuple[float, float, bool]:
    """(lo, hi, lo_open) of a number key."""
    m = re.fullmatch(r"a number in ([(\[])(\S+), (\S+)\]", decl["allowed"])
    assert m, f"a number key's allowed text reads 'a number in [LO, HI]': {decl['allowed']!r}"
    return float(m[2]), float(m[3]), m[1] == "("


def other_value(section: str, decl: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    """An allowed value other than the default, and what it needs beside it."""
    if dotted(section, decl) in OTHER:
        return OTHER[dotted(section, decl)]
    default = decl["default"]
    if decl["choices"]:
        return next(c for c in decl["choices"] if c != default), {}
    if decl["type"] == "bool":
        return not default, {}
    if decl["type"] == "list[int]":
        return [1, 2], {}
    if decl["type"] == "str":
        raise AssertionError(f"{dotted(section, decl)}: a string key needs its other value in OTHER")
    if decl["type"] == "float":
        lo, hi, _ = float_range(decl)
        return (0.5 if default != 0.5 else 0.25) * (hi - lo) + lo, {}
    lo, hi = int_range(decl)
    if default is None:
        return lo, {}
    return (default + 1 if default + 1 <= hi else default - 1), {}


def check(data: dict[str, Any]) -> dict[str, Any]:
    """The core's own answer for `data`."""
    return json.loads(_core.check(json.dumps(data)))


def build(data: dict[str, Any]) -> Scenario:
    """A scenario, ignoring warnings (keys without effect are the business of the conditional tests)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConfigWarning)
        return Scenario.model_validate(data)


def quiet(data: dict[str, Any]) -> Scenario:
    """A scenario that must not warn."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return Scenario.model_validate(data)


def shown(value: Any) -> str:
    """A value as the core's messages show it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f"'{value}'"
    if isinstance(value, list):
        return "[" + ", ".join(shown(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"'{k}': {shown(v)}" for k, v in value.items()) + "}"
    return str(value)


@functools.cache
def documented() -> tuple[dict[tuple[str, ...], dict[str, str]], dict[tuple[str, str], list[str]]]:
    """docs/config.md read back: the key rows by where they stand (("table", name) or ("kind", dotted
    tag, kind)) -> {dotted key: the rest of the row}, and each tag's heading (its key and "with ..." text:
    a tag several kinds take has a heading under each) -> its kinds."""
    rows: dict[tuple[str, ...], dict[str, str]] = {}
    tags: dict[tuple[str, str], list[str]] = {}
    where: tuple[str, ...] = ("preamble",)
    for line in (REPO / "docs" / "config.md").read_text(encoding="utf-8").splitlines():
        if m := re.fullmatch(r"## `\[(\w+)\]`", line):
            where = ("table", m[1])
        elif line.startswith("## "):
            where = ("other", line)
        elif m := re.fullmatch(r"### `(\w+\.\w+)`(?: \(with (.+)\))?", line):
            where = ("tag", m[1], m[2] or "")
            tags[(m[1], m[2] or "")] = []
        elif m := re.fullmatch(r'Keys of `(\w+\.\w+) = "(\w+)"`:', line):
            where = ("kind", m[1], m[2])
        elif m := re.fullmatch(r"\| `([\w.]+)` \| (.*) \|", line):
            if where[0] == "tag":
                tags[(where[1], where[2])].append(m[1])
            elif where[0] in ("table", "kind"):
                rows.setdefault(where, {})[m[1]] = m[2]
    return rows, tags


DECL_PARAMS = [pytest.param(s, d, id=f"{dotted(s, d)}[{kind_id(d)}]") for s, d in DECLS]
TAG_KINDS = [
    pytest.param(s, d, kind, id=f"{dotted(s, d)}={kind}") for s, d in DECLS if d["tag"] for kind in d["choices"]
]

# --- 1. a key said once reaches everything ---------------------------------------------------------------


@pytest.mark.parametrize(("section", "decl"), DECL_PARAMS)
def test_a_key_said_once_reaches_everything(section: str, decl: dict[str, Any]) -> None:
    key, name, default = dotted(section, decl), decl["key"], decl["default"]
    pairs = pairs_of(decl)
    base = scenario_for(pairs)

    # at its default, given explicitly: accepted, resolved to the default, not in the minimal form
    if key in DEFAULT_REFUSED:
        with pytest.raises(ConfigError) as info:
            Scenario.model_validate(merged(base, {section: {name: default}}))
        assert key in str(info.value)
        ref = build(base)
    else:
        at_default = merged(scenario_for([*pairs, (name, default)]) if decl["tag"] else base, {section: {name: default}})
        ref = build(at_default)
        assert ref == build(base), "a key at its default is the key left out"
        assert ref.to_core_dict()[section].get(name) == default
        assert name not in ref.minimal().get(section, {})

    # at another allowed value
    v, needs = other_value(section, decl)
    assert v != default
    own = [(name, v)] if decl["tag"] else []  # a tag's value is itself a kind, with its companions
    other = build(merged(scenario_for(pairs + own), needs, {section: {name: v}}))
    assert other.to_core_dict()[section][name] == v
    assert other.flat()[key] == v and other.value(key) == v
    assert getattr(getattr(other, section), name) == v, "the typed model holds the value"
    assert other.minimal()[section][name] == v
    if (section, name) in NOT_IN_KEY:  # (a budget: it decides whether a point may run, not its result)
        assert point_key(other.minimal()) == point_key(ref.minimal())
    else:
        assert point_key(other.minimal()) != point_key(ref.minimal()), "the point store tells the two apart"
    assert build(other.minimal()) == other == build(other.to_toml_dict())

    # listed by `flitcast list parameters`
    rows = [r for r in catalogue.parameters() if r["key"] == key and r["kind"] == catalogue.kind_text(decl["within"])]
    assert len(rows) == 1
    assert (rows[0]["default"], rows[0]["allowed"], rows[0]["description"]) == (
        catalogue.default_text(decl), decl["allowed"], decl["doc"],
    )

    # documented in docs/config.md
    doc_rows, doc_tags = documented()
    if decl["tag"]:
        heading = (key, catalogue.kind_text(decl["within"]))
        assert heading in doc_tags, f"docs/config.md has a heading for {key}"
        assert doc_tags[heading] == decl["choices"]
    else:
        where = ("table", section) if not pairs else ("kind", f"{TAG_TABLE[pairs[-1][0]]}.{pairs[-1][0]}", pairs[-1][1])
        row = doc_rows.get(where, {}).get(key)
        assert row is not None, f"docs/config.md lists {key} under {where}"
        assert f"`{catalogue.default_text(decl)}`" in row and decl["allowed"] in row and decl["doc"] in row

    # a field of the generated model
    field = SECTIONS[section].model_fields.get(name)
    assert field is not None and field.description is not None
    if pairs:
        assert f"{catalogue.kind_text(decl['within'])}: {decl['doc']}" in field.description
    else:
        assert field.description == decl["doc"]
    if decl["choices"]:
        literal = next(a for a in typing.get_args(field.annotation) if typing.get_origin(a) is typing.Literal)
        assert set(decl["choices"]) <= set(typing.get_args(literal))


def test_the_catalogue_and_its_views_have_the_same_keys() -> None:
    declared = {dotted(s, d) for s, d in DECLS}
    assert {r["key"] for r in catalogue.parameters()} == declared
    assert len(catalogue.parameters()) == len(DECLS)
    assert {f"{s}.{f}" for s, model in SECTIONS.items() for f in model.model_fields} == declared
    doc_rows, doc_tags = documented()
    assert sum(len(r) for r in doc_rows.values()) == sum(not d["tag"] for _, d in DECLS), "no stale rows"
    assert set(doc_tags) == {(dotted(s, d), catalogue.kind_text(d["within"])) for s, d in DECLS if d["tag"]}
    # one section per table, in file order
    assert [s for s, _, _ in catalogue.sections()] == list(SECTIONS) == ["network", "switch", "routing", "workload", "run"]


@pytest.mark.parametrize(("section", "decl"), DECL_PARAMS)
def test_every_declared_default_lies_in_its_range(section: str, decl: dict[str, Any]) -> None:
    default = decl["default"]
    if decl["choices"]:
        # (an optional choice left out takes a value its doc states)
        assert default in decl["choices"] or (default is None and decl["allowed"].endswith(", or left out"))
    elif decl["type"] == "int" and default is not None:
        lo, hi = int_range(decl)
        assert lo <= default <= hi
    elif decl["type"] == "float":
        lo, hi, lo_open = float_range(decl)
        assert (lo < default if lo_open else lo <= default) and default <= hi


# --- 6. defaults per kind come from the core ------------------------------------------------------------


@pytest.mark.parametrize(
    ("section", "decl"),
    # (a tag names its kind; the keys of DEFAULT_REFUSED are set by their kind's companion)
    [p for p in DECL_PARAMS if not p.values[1]["tag"] and dotted(*p.values) not in DEFAULT_REFUSED],
)
def test_a_kind_left_to_its_defaults_takes_the_declared_ones(section: str, decl: dict[str, Any]) -> None:
    key = dotted(section, decl)
    s = build(scenario_for(pairs_of(decl)))
    assert s.to_core_dict()[section].get(decl["key"]) == decl["default"]
    if decl["default"] is not None:
        assert s.value(key) == decl["default"]


def _buffer_defaults() -> dict[str, int]:
    return {d["within"][0][1]: d["default"] for s, d in DECLS if dotted(s, d) == "switch.buffer_flits"}


@pytest.mark.parametrize("model", list(_buffer_defaults()))
def test_each_switch_has_its_own_buffer_default(model: str) -> None:
    defaults = _buffer_defaults()
    assert len(set(defaults.values())) >= 3, "input_buffered, central_buffer and input_fifo differ"
    assert Scenario(switch={"model": model}).value("switch.buffer_flits") == defaults[model]
    # a kind named anew by an override takes its own defaults
    for other in defaults:
        moved = Scenario(switch={"model": model}).with_overrides({"switch.model": other})
        assert moved.value("switch.buffer_flits") == defaults[other]


def test_defaults_fill_exactly_the_keys_of_the_default_kinds() -> None:
    core = Scenario().to_core_dict()
    expected: dict[str, set[str]] = {}
    default_kinds = {(d["key"], d["default"]) for _, d in DECLS if d["tag"]}
    for section, decl in DECLS:
        if all(tuple(w) in default_kinds for w in decl["within"]) and decl["default"] is not None:
            expected.setdefault(section, set()).add(decl["key"])
    assert {s: set(t) for s, t in core.items()} == expected
    assert Scenario().minimal() == {} and Scenario.model_validate({}) == Scenario()
    assert Scenario.model_validate({"network": {}, "run": None}).to_core_dict() == core


# --- every kind of every family reachable ---------------------------------------------------------------


@pytest.mark.parametrize(("section", "decl", "kind"), TAG_KINDS)
def test_a_kind_needs_exactly_its_companions(section: str, decl: dict[str, Any], kind: str) -> None:
    pair = (decl["key"], kind)
    pairs = [*pairs_of(decl), pair]
    s = build(scenario_for(pairs))
    assert s.value(dotted(section, decl)) == kind
    if pair in COMPANIONS:
        with pytest.raises(ConfigError):
            Scenario.model_validate(scenario_for(pairs, alone=pair))
    # resolved and minimal forms reload to the same scenario, silently
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert Scenario.model_validate(s.to_toml_dict()) == s == Scenario.model_validate(s.minimal())


def test_companions_name_real_kinds() -> None:
    kinds = {(d["key"], c) for _, d in DECLS if d["tag"] for c in d["choices"]}
    assert set(COMPANIONS) <= kinds


CHOICES = [
    pytest.param(s, d, c, id=f"{dotted(s, d)}[{kind_id(d)}]={c}")
    for s, d in DECLS
    if d["choices"] and not d["tag"]
    for c in d["choices"]
]


#: what a choice needs beside its kind's companions (a collective's algorithm carries out some operations)
CHOICE_NEEDS: dict[tuple[str, str, str], dict[str, Any]] = {
    **{("program=collective", "workload.scheme", a): {"workload": {"operation": "allreduce"}} for a in ("recursive_doubling", "ring", "rabenseifner")},
    ("program=collective", "workload.scheme", "dissemination"): {"workload": {"operation": "barrier"}},
    ("program=collective", "workload.scheme", "pairwise"): {"workload": {"operation": "alltoall"}},
    ("program=collective", "workload.scheme", "hardware"): MULTIDESTINATION,
}


@pytest.mark.parametrize(("section", "decl", "choice"), CHOICES)
def test_every_choice_of_every_key_is_accepted(section: str, decl: dict[str, Any], choice: str) -> None:
    needs = CHOICE_NEEDS.get((kind_id(decl), dotted(section, decl), choice), {})
    s = build(scenario_for(pairs_of(decl), needs, {section: {decl["key"]: choice}}))
    assert s.value(dotted(section, decl)) == choice


def _family_choices() -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for _, d in DECLS:
        if d["choices"]:
            names = out.setdefault(catalogue.plural(catalogue.FAMILY_OF_TAG.get(d["key"], d["key"])), [])
            names += [c for c in d["choices"] if c not in names]
    return out


@pytest.mark.parametrize("family", list(_family_choices()))
def test_families_list_every_choice_their_keys_take(family: str) -> None:
    rows = catalogue.families()[family]
    assert {name for name, _ in rows} == set(_family_choices()[family])
    decls = [d for _, d in DECLS if d["choices"] and catalogue.plural(catalogue.FAMILY_OF_TAG.get(d["key"], d["key"])) == family]
    if len({tuple(d["choices"]) for d in decls}) > 1:  # each kind's own choices, said so (workload.scheme)
        for d in decls:
            where = f"{catalogue.kind_text(d['within'])}: "
            assert [n for n, doc in rows if doc.startswith(where)] == d["choices"]
    else:
        assert [n for n, _ in rows] == decls[0]["choices"]


def test_every_family_is_a_declared_key() -> None:
    assert set(catalogue.families()) == set(_family_choices())
    assert {"topologies", "switches", "routings", "selections", "programs", "patterns"} <= set(catalogue.families())


# --- 7. type strictness at the edge: every bad input names its key path, its value and what is allowed -----


class Opaque:
    def __repr__(self) -> str:
        return "Opaque()"


def _deep(levels: int) -> Any:
    value: Any = 1
    for _ in range(levels):
        value = {"x": value}
    return value


BAD = [
    # (scenario, key, value as shown, a piece of the allowed text)
    ({"network": {"k": 8.0}}, "network.k", "8.0", "an integer from 2 to 1024"),
    ({"network": {"k": True}}, "network.k", "true", "an integer"),
    ({"network": {"k": "8"}}, "network.k", "'8'", "an integer"),
    ({"network": {"k": [1, 2]}}, "network.k", "[1, 2]", "an integer"),
    ({"network": {"k": (1, 2)}}, "network.k", "[1, 2]", "an integer"),  # a tuple is a TOML array
    ({"workload": {"load": "0.3"}}, "workload.load", "'0.3'", "a number in (0, 1]"),
    ({"workload": {"load": True}}, "workload.load", "true", "a number in (0, 1]"),
    # what JSON cannot carry is refused at the edge, saying what the key allows (issue 35 §3)
    ({"workload": {"load": math.nan}}, "workload.load", "nan", "a number in (0, 1]"),
    ({"workload": {"load": math.inf}}, "workload.load", "inf", "a number in (0, 1]"),
    ({"workload": {"load": -math.inf}}, "workload.load", "-inf", "a number in (0, 1]"),
    ({"run": {"warmup_cycles": math.nan}}, "run.warmup_cycles", "nan", "an integer from 0"),
    ({"network": {"topology": "hyperx", "shape": [-1]}}, "network.shape", "[-1]", "integers from 0"),
    ({"switch": {"vcs": True}}, "switch.vcs", "true", "an integer from 1 to 16"),
    ({"switch": {"vcs": 2.0}}, "switch.vcs", "2.0", "an integer from 1 to 16"),
    ({"network": {"unidirectional": 1, "topology": "torus"}}, "network.unidirectional", "1", "true or false"),
    ({"routing": {"check_deadlock_free": "no"}}, "routing.check_deadlock_free", "'no'", "true or false"),
    ({"network": {"topology": "MESH"}}, "network.topology", "'MESH'", "one of 'mesh', 'torus', 'ring'"),
    ({"network": {"topology": 1}}, "network.topology", "1", "one of 'mesh'"),
    ({"run": {"seed": 2**63}}, "run.seed", str(2**63), "an integer from 0 to 2^63 − 1"),
    ({"run": {"seed": -1}}, "run.seed", "-1", "an integer from 0 to 2^63 − 1"),
    ({"workload": {"pattern": "hotspot", "hotspot_nodes": [1, "a"], "hotspot_fraction": 0.5}},
     "workload.hotspot_nodes", "[1, 'a']", "a list of integers"),
    ({"workload": {"pattern": "hotspot", "hotspot_nodes": 3, "hotspot_fraction": 0.5}},
     "workload.hotspot_nodes", "3", "a list of integers"),
    # what TOML cannot spell is refused at the edge, naming its path
    ({"network": {2: 3}}, "network.2", "2", "keys that are strings"),
    ({"network": {"k": Opaque()}}, "network.k", "Opaque()", "a TOML value (a string, a boolean"),
    ({"network": {"k": 1 + 2j}}, "network.k", "(1+2j)", "a TOML value"),
    ({"network": {"k": b"8"}}, "network.k", "b'8'", "a TOML value"),
    ({"workload": {"hotspot_nodes": [1, Opaque()]}}, "workload.hotspot_nodes[1]", "Opaque()", "a TOML value"),
    ({"network": {"k": _deep(9)}}, "network.k.x.x.x.x.x.x.x.x", "(nested too deeply)", "a value or a table of values"),
    ({"network": {"k": [[[[[[[[[1]]]]]]]]]}}, "network.k[0][0][0][0][0][0][0][0]", "(nested too deeply)", "a value"),
    # tables and keys
    ({"network": {"radix": 4}}, "network.radix", "4", "one of the keys topology, k, n, channel_latency_cycles"),
    ({"netwrok": {}}, "netwrok", "{}", "one of the tables network, switch, routing, workload, run"),
    ({"network": 3}, "network", "3", "a table of settings"),
    ({"network": [1, 2]}, "network", "[1, 2]", "a table of settings"),
    ({"network": {"k": 4}, "adapter": {"reception_worms": 2}}, "adapter", "{'reception_worms': 2}", "[workload] with workload.program"),
    ({1: {}}, "1", "1", "keys that are strings"),
    ({"network": "mesh"}, "network", "'mesh'", "a table of settings"),
]


def _bad_id(b: tuple[Any, ...]) -> str:
    return f"{b[1]}={b[2]}"


@pytest.mark.parametrize(("data", "key", "value", "allowed"), BAD, ids=[_bad_id(b) for b in BAD])
def test_bad_input_names_key_value_and_allowed(data: dict[str, Any], key: str, value: str, allowed: str) -> None:
    with pytest.raises(ConfigError) as info:
        Scenario.model_validate(data)
    err = info.value
    assert (err.key, err.value) == (key, value)
    assert allowed in err.allowed
    assert key in str(err) and value in str(err) and err.allowed in str(err)
    assert err.__cause__ is None and err.__context__ is None, "a flitcast error, not pydantic's"


@pytest.mark.parametrize(("data", "key", "value", "allowed"), [b for b in BAD if all(isinstance(k, str) for k in b[0])],
                         ids=[_bad_id(b) for b in BAD if all(isinstance(k, str) for k in b[0])])
def test_constructor_raises_config_error_too(data: dict[str, Any], key: str, value: str, allowed: str) -> None:
    with pytest.raises(ConfigError) as info:
        Scenario(**data)
    assert (info.value.key, info.value.value) == (key, value)


def _range_cases() -> list[Any]:
    """For every key: values just outside its range and of the wrong type, with the value as shown."""
    cases = []
    for section, decl in DECLS:
        bad: list[Any]
        if decl["choices"]:
            bad = ["bogus", 1]
        elif decl["type"] == "bool":
            bad = [1, "true"]
        elif decl["type"] == "list[int]":
            bad = [3, [1, "a"], [-1]]
        elif decl["type"] == "str":
            bad = [1, True, ["a"]]
        elif decl["type"] == "float":
            lo, hi, lo_open = float_range(decl)
            bad = [lo if lo_open else lo - 0.5, hi + 0.5, "0.5", True]
        else:
            lo, hi = int_range(decl)
            bad = [lo - 1, hi + 1, lo + 0.5, True]
        for value in bad:
            cases.append(pytest.param(section, decl, value, id=f"{dotted(section, decl)}[{kind_id(decl)}]={shown(value)}"))
    return cases


@pytest.mark.parametrize(("section", "decl", "value"), _range_cases())
def test_every_key_refuses_what_its_declaration_does_not_allow(section: str, decl: dict[str, Any], value: Any) -> None:
    data = scenario_for(pairs_of(decl), {section: {decl["key"]: value}})
    with pytest.raises(ConfigError) as info:
        Scenario.model_validate(data)
    err = info.value
    assert (err.key, err.value, err.allowed) == (dotted(section, decl), shown(value), decl["allowed"])
    assert err.problems == check(data)["problems"] and len(err.problems) == 1
    assert str(err) == err.problems[0]["message"]


def test_top_level_must_be_a_table() -> None:
    for data in ([1, 2], "network", 3):
        with pytest.raises(ConfigError) as info:
            Scenario.model_validate(data)
        assert info.value.key == "scenario"
        # the front says what the core says of a document that is not a table
        assert info.value.allowed == check(data)["problems"][0]["allowed"]
        assert "a table of the tables network, switch, routing, workload, run" in str(info.value)


def test_errors_are_flitcast_errors_not_pydantic() -> None:
    with pytest.raises(errors.FlitcastError) as info:
        Scenario.model_validate({"workload": {"load": "high"}})
    assert type(info.value) is ConfigError
    assert info.value.__cause__ is None and info.value.__context__ is None


def test_ints_are_accepted_for_floats_and_null_means_left_out() -> None:
    s = Scenario.model_validate({"workload": {"load": 1}})
    assert isinstance(s.workload.load, float) and s.workload.load == 1.0
    assert Scenario.model_validate({"network": {"k": None, "topology": None}, "switch": None}) == Scenario()


def test_every_problem_is_reported_with_the_first_as_the_error() -> None:
    data = {"network": {"k": 1}, "switch": {"vcs": 0}, "run": {"seed": -1}}
    with pytest.raises(ConfigError) as info:
        Scenario.model_validate(data)
    err = info.value
    assert [p["key"] for p in err.problems] == ["network.k", "switch.vcs", "run.seed"]
    assert str(err) == check(data)["message"]
    assert str(err).startswith(err.problems[0]["message"]) and "2 more problem(s)" in str(err)


# --- 5. a key of another kind ------------------------------------------------------------------------------

SP = {"network": {"topology": "sp16"}, "routing": {"algorithm": "adaptive"}}
O1 = {"network": {"topology": "sp16"}, "routing": {"algorithm": "o1"}}
BATCH = merged(MULTIDESTINATION, {"workload": {"program": "batch"}, "run": {"warmup_cycles": 0}})
COLLECTIVE = {"workload": {"program": "collective"}, "run": {"warmup_cycles": 0, "measure_cycles": 2, "batches": 2}}
#: sizes in bytes: 32-byte messages in 8-byte flits (header bytes are counted in whole flits)
BYTES = {"workload": {"message_bytes": 32, "flit_bytes": 8, "max_packet_bytes": 32}}
HOST = {"workload": {"program": "host_adapter", "group": [0, 1]}}

FOREIGN = [
    # (scenario, key, the tag, the kinds it belongs to as the message lists them, this scenario's kind)
    ({"network": {"topology": "ring", "n": 2}}, "network.n", "network.topology", "'mesh', 'torus' or 'fat_tree'", "ring"),
    ({"network": {"topology": "ring", "n": 1}}, "network.n", "network.topology", "'mesh', 'torus' or 'fat_tree'", "ring"),
    ({"network": {"unidirectional": True}}, "network.unidirectional", "network.topology", "'torus' or 'ring'", "mesh"),
    ({"network": {"node_numbering": "plain"}}, "network.node_numbering", "network.topology", "'sp16' or 'sp128'", "mesh"),
    (merged(SP, {"network": {"k": 4}}), "network.k", "network.topology", "'mesh', 'torus', 'ring' or 'fat_tree'", "sp16"),
    ({"switch": {"model": "central_buffer", "vcs": 2}}, "switch.vcs", "switch.model", "'input_buffered' or 'infiniband'", "central_buffer"),
    ({"switch": {"model": "infiniband", "flow_control": "vct"}}, "switch.flow_control", "switch.model", "'input_buffered'", "infiniband"),
    ({"switch": {"route_cycles": 2}}, "switch.route_cycles", "switch.model", "'central_buffer' or 'input_fifo'", "input_buffered"),
    ({"switch": {"model": "input_fifo", "multicast_admission": "reserve"}}, "switch.multicast_admission", "switch.model", "'central_buffer'", "input_fifo"),
    ({"routing": {"selection": "lru"}}, "routing.selection", "routing.algorithm", "'adaptive', 'up_down' or 'min_adaptive'", "dor"),
    (merged(O1, {"routing": {"selection": "lru"}}), "routing.selection", "routing.algorithm", "'adaptive', 'up_down' or 'min_adaptive'", "o1"),
    (merged(SP, {"routing": {"lanes": "by_port"}}), "routing.lanes", "routing.algorithm", "'dor'", "adaptive"),
    (merged(SP, {"routing": {"oblivious_table": "d_mod_k"}}), "routing.oblivious_table", "routing.algorithm", "'o1' or 'o4'", "adaptive"),
    (merged(O1, {"routing": {"o4_spread": "every_stage"}}), "routing.o4_spread", "routing.algorithm", "'o4'", "o1"),
    ({"workload": {"program": "batch", "pattern": "uniform"}}, "workload.pattern", "workload.program", "'open_loop'", "batch"),
    (merged(BATCH, {"workload": {"load": 0.2}}), "workload.load", "workload.program",
     "'open_loop', 'software_multicast', 'hardware_multicast', 'host_adapter' or 'collective'", "batch"),
    (merged(BATCH, {"workload": {"hotspot_nodes": [1]}}), "workload.hotspot_nodes", "workload.program", "'open_loop'", "batch"),
    ({"workload": {"scheme": "ring"}}, "workload.scheme", "workload.program", "'batch', 'host_adapter', 'torus_multicast' or 'collective'", "open_loop"),
    ({"workload": {"destinations": 3}}, "workload.destinations", "workload.program", "'software_multicast' or 'hardware_multicast'", "open_loop"),
    ({"workload": {"background_load": 0.1}}, "workload.background_load", "workload.program", "'host_adapter'", "open_loop"),
    ({"workload": {"program": "software_multicast", "header_flits": 3}}, "workload.header_flits", "workload.program",
     "'hardware_multicast' or 'batch'", "software_multicast"),
    (merged(HOST, {"workload": {"send_overhead_cycles": 3}}), "workload.send_overhead_cycles", "workload.program",
     "'torus_multicast' or 'collective'", "host_adapter"),
    ({"workload": {"hotspot_nodes": [0]}}, "workload.hotspot_nodes", "workload.pattern", "'hotspot'", "uniform"),
    ({"workload": {"transpose_split": "floor"}}, "workload.transpose_split", "workload.pattern", "'transpose'", "uniform"),
    ({"workload": {"pattern": "tornado", "uniform_include_self": True}}, "workload.uniform_include_self",
     "workload.pattern", "'uniform' or 'hotspot'", "tornado"),
]


def _owners(key: str, tag: str) -> str:
    """The kinds of `tag` whose keys include `key`, as the core's messages list them."""
    section, name = key.split(".")
    tag_name = tag.split(".")[1]
    order = next(d["choices"] for s, d in DECLS if d["tag"] and dotted(s, d) == tag)
    kinds = {k for s, d in DECLS if s == section and d["key"] == name for t, k in d["within"] if t == tag_name}
    quoted = [f"'{k}'" for k in order if k in kinds]
    return quoted[0] if len(quoted) == 1 else f"{', '.join(quoted[:-1])} or {quoted[-1]}"


@pytest.mark.parametrize(("data", "key", "tag", "owners", "kind"), FOREIGN, ids=[f"{f[1]}@{f[4]}" for f in FOREIGN])
def test_a_key_of_another_kind_says_which_it_belongs_to(data: dict[str, Any], key: str, tag: str, owners: str, kind: str) -> None:
    assert owners == _owners(key, tag), "the table agrees with the catalogue"
    with pytest.raises(ConfigError) as info:
        Scenario.model_validate(data)
    err = info.value
    assert err.key == key and len(err.problems) == 1
    assert f"it belongs to {tag} = {owners}; this scenario's is '{kind}'" in str(err)
    assert err.allowed == f"the keys of {tag} = '{kind}' (see docs/config.md)"
    # an override says the same
    with pytest.raises(ConfigError) as info:
        Scenario().with_overrides({f"{t}.{k}": v for t, table in data.items() for k, v in table.items()})
    assert info.value.key == key and "it belongs to" in str(info.value)


def test_a_key_of_the_right_kind_with_another_kinds_value() -> None:
    with pytest.raises(ConfigError) as info:
        Scenario.model_validate(merged(BATCH, {"workload": {"scheme": "ring"}}))
    assert (info.value.key, info.value.value, info.value.allowed) == ("workload.scheme", "'ring'", "one of 'hardware', 'separate'")


def test_unknown_keys_list_only_the_keys_of_the_chosen_kinds() -> None:
    with pytest.raises(ConfigError) as info:
        Scenario.model_validate({"network": {"topology": "ring", "radix": 4}})
    assert info.value.allowed == "one of the keys topology, k, unidirectional, channel_latency_cycles, terminal_latency_cycles"
    assert "unknown key" in str(info.value)


# --- 4. keys that moved -----------------------------------------------------------------------------------

#: each earlier key, with a value it used to take
MOVED_GIVEN: dict[str, Any] = {
    "workload.multicast_scheme": "software",
    "workload.multicast_destinations": 4,
    "workload.multicast_forward_cycles": 5,
    "workload.multicast_header_flits": 2,
    "workload.batch_sources": 0.5,
    "workload.batch_group": 0.4,
    "workload.multicast_group": [0, 1, 2],
    "workload.multicast_group_size": 10,
    "workload.multicast_root": 3,
    "workload.multicast_partition": 4,
    "adapter.reception_worms": 2,
    "adapter.buffer_classes": 1,
    "adapter.control_flits": 4,
    "adapter.timeout_cycles": 100,
    "adapter.max_children": 2,
    "adapter.send_overhead_cycles": 100,
    "adapter.receive_overhead_cycles": 100,
    "adapter.process_cycles": 10,
}
MOVED = [pytest.param(old, place, id=old) for old, place in SCHEMA["moved"]]
ADAPTER_PLACE = re.compile(r"'(\w+)' \(([\w, ]+)\)")


def test_the_moved_table_covers_every_moved_key() -> None:
    assert len(MOVED_GIVEN) == len(SCHEMA["moved"])
    assert list(MOVED_GIVEN) == [old for old, _ in SCHEMA["moved"]]


@pytest.mark.parametrize(("old", "place"), MOVED)
def test_an_earlier_key_names_its_new_place(old: str, place: str) -> None:
    table, name = old.split(".")
    data = {table: {name: MOVED_GIVEN[old]}}
    with pytest.raises(ConfigError) as info:
        Scenario.model_validate(data)
    err = info.value
    assert len(err.problems) == 1 and str(err) == err.problems[0]["message"]
    if table == "adapter":  # the whole table moved: it says where each of its keys went
        assert err.key == "adapter" and "this table has moved" in str(err)
        new, program = re.fullmatch(r"(workload\.\w+) \(workload\.program = '(\w+)'\)", place).groups()  # type: ignore[union-attr]
        assert err.allowed.startswith("[workload] with workload.program = ")
        groups = dict(ADAPTER_PLACE.findall(err.allowed))
        assert name in groups[program].split(", ") and new == f"workload.{name}"
    else:
        assert (err.key, err.value, err.allowed) == (old, shown(MOVED_GIVEN[old]), place)
        assert "this key has moved" in str(err) and place in str(err)
    # an override of the old key says the same
    with pytest.raises(ConfigError) as info:
        Scenario().with_overrides({old: MOVED_GIVEN[old]})
    assert info.value.allowed == err.allowed


@pytest.mark.parametrize(("old", "place"), MOVED)
def test_the_new_place_of_a_moved_key_takes_its_value(old: str, place: str) -> None:
    programs = next(d for s, d in DECLS if dotted(s, d) == "workload.program")["choices"]
    if place.startswith("nowhere"):
        name = old.split(".")[1]
        assert not [d for s, d in DECLS if d["key"] == name], "the key is gone"
        return
    if old == "workload.multicast_scheme":
        named = re.findall(r"'(\w+)'", place)
        assert set(named) <= set(programs) and "workload.scheme" in place
        with_scheme = {k for s, d in DECLS if dotted(s, d) == "workload.scheme" for _, k in d["within"]}
        # (a collective's scheme is its algorithm: a key of its own, not where multicast_scheme went)
        assert set(named[-3:]) == with_scheme - {"collective"}
        return
    m = re.fullmatch(r"(\w+)\.(\w+) \(workload\.program = (.+)\)", place)
    assert m is not None
    section, name, kinds = m[1], m[2], re.findall(r"'(\w+)'", m[3])
    for program in kinds:
        assert program in programs
        decls = [d for s, d in DECLS if s == section and d["key"] == name and ["program", program] in d["within"]]
        assert len(decls) == 1, f"{section}.{name} is a key of program = {program}"
        s = build(scenario_for([("program", program)], {section: {name: MOVED_GIVEN[old]}}))
        assert s.value(f"{section}.{name}") == MOVED_GIVEN[old]


# --- 2. every rule across keys, reachable from Python -------------------------------------------------------

RULES = [
    # (a fragment naming the rule, a scenario breaking it, key, value, a piece of allowed, the boundary that passes)
    pytest.param("at most `run.max_nodes` nodes", {"network": {"k": 8}, "run": {"max_nodes": 32}},
                 "network.k", "8", "at most run.max_nodes = 32 nodes (this one has 64)",
                 {"network": {"k": 8}, "run": {"max_nodes": 64}}, id="max_nodes"),
    pytest.param("The routing fits the network", {"routing": {"algorithm": "adaptive"}},
                 "routing.algorithm", "'adaptive'", "'adaptive', 'o1' or 'o4' on a fat_tree, sp16 or sp128",
                 merged(SP, {"network": {"topology": "fat_tree"}}), id="routing-fits-network"),
    pytest.param("Each switch's own needs hold", {"network": {"topology": "ring"}, "switch": {"turn_cycles": 2}},
                 "switch.turn_cycles", "2", "0 except on a mesh or torus",
                 {"network": {"topology": "torus"}, "switch": {"turn_cycles": 2}}, id="turn-cycles"),
    pytest.param("Byte sizing", {"workload": {"message_bytes": 100, "flit_bytes": 16, "max_packet_bytes": 40}},
                 "workload.max_packet_bytes", "40", "a multiple of workload.flit_bytes = 16",
                 {"workload": {"message_bytes": 100, "flit_bytes": 16, "max_packet_bytes": 48}}, id="byte-sizing"),
    pytest.param("Header bytes", merged(BATCH, {"workload": {"unicast_header_bytes": 34}}),
                 "workload.unicast_header_bytes", "34", "0 with the sizes in flits",
                 merged(BATCH, {"workload": {"unicast_header_bytes": 34, "message_bytes": 32, "flit_bytes": 8, "max_packet_bytes": 32}}),
                 id="header-bytes"),
    pytest.param("Each program's own needs hold", {"network": {"k": 6}, "workload": {"pattern": "bit_complement"}},
                 "workload.pattern", "'bit_complement'", "power-of-two node count for this pattern; this one has 36 nodes",
                 {"network": {"k": 4}, "workload": {"pattern": "bit_complement"}}, id="pattern-fits"),
    pytest.param("Multidestination worms", {"workload": {"program": "hardware_multicast"}},
                 "switch.model", "'input_buffered'", "'central_buffer' or 'input_fifo' on a fat_tree or sp16, 'infiniband' on a mesh",
                 {"workload": {"program": "hardware_multicast"}, "switch": {"model": "infiniband"}}, id="multidestination"),
    pytest.param("The deadlock watchdog waits longer", {"run": {"watchdog_cycles": 3}},
                 "run.watchdog_cycles", "3", "more than 3 cycles: a flit may rest that long",
                 {"run": {"watchdog_cycles": 4}}, id="watchdog-rest"),
    pytest.param("A closed workload", {"workload": {"program": "batch", "scheme": "separate"}},
                 "run.warmup_cycles", "10000", "0 with workload.program = 'batch'",
                 {"workload": {"program": "batch", "scheme": "separate"}, "run": {"warmup_cycles": 0}}, id="closed-warmup"),
    pytest.param("Each network's own needs hold",
                 {"network": {"topology": "dragonfly", "g": 10}, "routing": {"algorithm": "minimal"}},
                 "network.g", "10", "groups from 2 to network.a · network.h + 1 = 9",
                 {"network": {"topology": "dragonfly", "g": 9}, "routing": {"algorithm": "minimal"}}, id="dragonfly-groups"),
    pytest.param("Each routing's own needs hold",
                 {"network": {"topology": "dragonfly"}, "routing": {"algorithm": "valiant"}},
                 "switch.vcs", "2", "at least 3 for valiant on a dragonfly",
                 {"network": {"topology": "dragonfly"}, "routing": {"algorithm": "valiant"}, "switch": {"vcs": 3}},
                 id="dragonfly-vcs"),
    pytest.param("`run.batches` is at most", {"run": {"measure_cycles": 5}},
                 "run.batches", "10", "at most run.measure_cycles = 5 (one cycle per batch at least)",
                 {"run": {"measure_cycles": 5, "batches": 5}}, id="batches"),
]


#: (scenario, key, value, allowed): the key a rule blames is the one the user set
BLAMED = [
    pytest.param({"switch": {"flow_control": "stop_go", "buffer_flits": 2}},
                 "switch.buffer_flits", "2", "at least 3 under stop/go", id="stop-go-derived-threshold"),
    pytest.param({"network": {"topology": "sp128"}, "switch": {"model": "central_buffer"},
                  "routing": {"algorithm": "adaptive"}, "workload": {"program": "hardware_multicast"}},
                 "network.topology", "'sp128'", "'fat_tree', 'sp16' or 'mesh' with multidestination worms",
                 id="sp128-multidestination"),
    # (a scheme of another program is not silently replaced by the batch's default)
    pytest.param({"workload": {"program": "batch", "scheme": "software"}, "run": {"warmup_cycles": 0}},
                 "workload.scheme", "'software'", "one of 'hardware', 'separate'", id="batch-scheme"),
]


@pytest.mark.parametrize(("data", "key", "value", "allowed"), BLAMED)
def test_a_rule_names_the_key_that_was_set(data: dict[str, Any], key: str, value: str, allowed: str) -> None:
    with pytest.raises(ConfigError) as info:
        Scenario.model_validate(data)
    assert (info.value.key, info.value.value) == (key, value)
    assert allowed in info.value.allowed


def _rule_of(fragment: str) -> str:
    matches = [text for text in SCHEMA["rules"] if fragment in text]
    assert len(matches) == 1, f"{fragment!r} names exactly one rule, not {len(matches)}"
    return matches[0]


def test_the_rule_table_names_every_rule_once() -> None:
    fragments = [p.values[0] for p in RULES]
    assert len(RULES) == len(SCHEMA["rules"])
    assert sorted(_rule_of(f) for f in fragments) == sorted(SCHEMA["rules"])
    # docs/config.md states each rule as the core does
    text = (REPO / "docs" / "config.md").read_text(encoding="utf-8")
    assert all(f"- {rule}" in text for rule in SCHEMA["rules"])


@pytest.mark.parametrize(("fragment", "data", "key", "value", "allowed", "ok"), RULES)
def test_every_rule_is_checked_from_python(
    fragment: str, data: dict[str, Any], key: str, value: str, allowed: str, ok: dict[str, Any]
) -> None:
    _rule_of(fragment)
    with pytest.raises(ConfigError) as info:
        Scenario.model_validate(data)
    err = info.value
    answer = check(data)
    assert err.problems == answer["problems"] and len(err.problems) == 1, "the rule is all that is broken"
    assert str(err) == err.problems[0]["message"] == answer["message"]
    assert (err.key, err.value) == (key, value) and allowed in err.allowed
    quiet(ok)  # the boundary passes


RULE_DETAILS = [
    # more cases per rule: (rule fragment, scenario, key, value, a piece of allowed)
    ("Each network's own needs hold", merged(IRREGULAR, {"network": {"file": "no/such/network.csv"}}),
     "network.file", "'no/such/network.csv'", "the path of a network file"),
    ("Each network's own needs hold", {"network": {"topology": "hyperx", "shape": [4, 1]}},
     "network.shape", "[4, 1]", "dimension sizes of at least 2 (not 1)"),
    ("Each switch's own needs hold", {"switch": {"model": "input_fifo", "route_cycles": 7}},
     "switch.route_cycles", "7", "an integer from 1 to switch.router_delay_cycles = 6"),
    ("Each switch's own needs hold", {"switch": {"flow_control": "vct", "buffer_flits": 4}},
     "switch.buffer_flits", "4", "at least workload.packet_flits = 8 with virtual cut-through"),
    ("Each switch's own needs hold", {"switch": {"flow_control": "stop_go", "stop_flits": 7}},
     "switch.stop_flits", "7", "an integer from 1 to switch.buffer_flits − 2 = 6"),
    ("Each switch's own needs hold", {"switch": {"model": "infiniband"}, "network": {"n": 4}},
     "network.n", "4", "at most 8 ports for the InfiniBand switch"),
    ("Each program's own needs hold", {"network": {"k": 4}, "workload": {"program": "software_multicast", "destinations": 16}},
     "workload.destinations", "16", "an integer from 1 to 15 (the other nodes)"),
    ("Each program's own needs hold", {"workload": {"program": "host_adapter", "group": [3, 3]}},
     "workload.group", "[3, 3]", "2 to 1024 distinct global host IDs from 0 to 63"),
    ("Each program's own needs hold", {"network": {"topology": "torus"}, "workload": {"program": "torus_multicast"}, "run": {"warmup_cycles": 0}},
     "network.topology", "'torus'", "a unidirectional 2-D torus (network.unidirectional = true, n = 2)"),
    ("Each program's own needs hold", {"workload": {"program": "collective", "operation": "alltoall", "scheme": "ring"}, "run": {"warmup_cycles": 0}},
     "workload.scheme", "'ring'", "'pairwise' for workload.operation = 'alltoall'"),
    ("Each routing's own needs hold", {"network": {"topology": "hyperx", "shape": [2, 2, 2], "parallel_links": 3},
                  "routing": {"algorithm": "min_adaptive"}},
     "network.parallel_links", "3", "at most 2 with min_adaptive on 3 dimensions"),
    ("Each routing's own needs hold", {"network": {"topology": "ring"}, "switch": {"vcs": 1}},
     "switch.vcs", "1", "at least 2 for dimension-order routing on a torus or ring"),
    ("Each routing's own needs hold", {"switch": {"vcs": 3}, "routing": {"lanes": "by_port"}},
     "routing.lanes", "'by_port'", "2-D mesh with switch.vcs = 2 or 4"),
    ("Each routing's own needs hold", {"network": {"topology": "fat_tree", "k": 8, "n": 3}, "routing": {"algorithm": "o4"}},
     "routing.oblivious_table", "'balanced'", "'d_mod_k' or 's_mod_k' above 256 nodes"),
    ("at most `run.max_nodes` nodes", {"network": {"k": 64, "n": 3}}, "network.k", "64", "run.max_nodes = 65536 nodes (this one has 262144)"),
    ("The routing fits the network", {"network": {"topology": "sp16"}}, "routing.algorithm", "'dor'", "'dor' or 'min_adaptive' on a mesh, torus, ring or hyperx"),
    ("The routing fits the network", merged(IRREGULAR, {"routing": {"algorithm": "dor"}}), "routing.algorithm", "'dor'",
     "'up_down' on an irregular or slim_fly network"),
    ("The routing fits the network", {"routing": {"algorithm": "up_down"}}, "routing.algorithm", "'up_down'",
     "'dor' or 'min_adaptive' on a mesh, torus, ring or hyperx"),
    ("Each routing's own needs hold", merged(IRREGULAR, {"routing": {"root": 9}}), "routing.root", "9",
     "a router id from 0 to 8 (the network has 9 routers)"),
    ("Each network's own needs hold", merged(IRREGULAR, {"network": {"file": str(REPO / "examples")}}),
     "network.file", shown(str(REPO / "examples")), "the path of a network file"),
    ("The routing fits the network", {"network": {"topology": "dragonfly"}}, "routing.algorithm", "'dor'",
     "'minimal' or 'valiant' on a dragonfly or slim_fly; 'ugal_l' or 'ugal_g' on a dragonfly"),
    ("The routing fits the network", {"routing": {"algorithm": "ugal_l"}, "switch": {"vcs": 3}}, "routing.algorithm", "'ugal_l'",
     "'minimal' or 'valiant' on a dragonfly or slim_fly; 'ugal_l' or 'ugal_g' on a dragonfly"),
    ("Each network's own needs hold",
     {"network": {"topology": "dragonfly", "a": 40, "h": 30, "g": 4}, "routing": {"algorithm": "minimal"}},
     "network.a", "40", "routers of at most 64 ports"),
    ("Each routing's own needs hold",
     {"network": {"topology": "dragonfly"}, "routing": {"algorithm": "ugal_l"}, "switch": {"model": "input_fifo"}},
     "switch.model", "'input_fifo'", "for ugal_l on a dragonfly (it needs virtual channels)"),
    ("Each routing's own needs hold",
     {"network": {"topology": "dragonfly"}, "routing": {"algorithm": "ugal_l"}, "switch": {"vcs": 3, "flow_control": "stop_go"}},
     "switch.flow_control", "'stop_go'", "'wormhole' or 'vct' for ugal_l"),
    ("Each routing's own needs hold",
     {"network": {"topology": "dragonfly"}, "routing": {"algorithm": "ugal_g"}, "switch": {"vcs": 3, "flow_control": "stop_go"}},
     "switch.flow_control", "'stop_go'", "'wormhole' or 'vct' for ugal_g"),
    ("Each routing's own needs hold",
     {"network": {"topology": "dragonfly"}, "routing": {"algorithm": "minimal"}, "switch": {"model": "central_buffer"}},
     "switch.model", "'central_buffer'", "for minimal on a dragonfly (it needs virtual channels)"),
    ("The routing fits the network", {"network": {"topology": "fat_tree"}, "routing": {"algorithm": "min_adaptive"}},
     "routing.algorithm", "'min_adaptive'", "'dor' or 'min_adaptive' on a mesh, torus, ring or hyperx"),
    ("Each routing's own needs hold", {"network": {"topology": "torus"}, "routing": {"algorithm": "min_adaptive"}},
     "switch.vcs", "2", "at least 3 with min_adaptive routing on a torus (two dateline classes of escape VCs"),
    ("Each routing's own needs hold", {"network": {"topology": "slim_fly"}, "routing": {"algorithm": "valiant"}, "switch": {"vcs": 3}},
     "switch.vcs", "3", "at least 4 for valiant on a slim_fly (one virtual-channel class per hop of its longest route)"),
    ("Each routing's own needs hold", {"network": {"topology": "slim_fly", "q": 13}, "routing": {"algorithm": "valiant"}, "switch": {"vcs": 4}},
     "network.topology", "'slim_fly' of 338 routers", "at most 255 routers for valiant"),
    ("Each network's own needs hold", {"network": {"topology": "slim_fly", "q": 9}, "routing": {"algorithm": "minimal"}},
     "network.q", "9", "a prime from 3 to 23"),
    ("Each network's own needs hold", {"network": {"topology": "hyperx", "shape": []}}, "network.shape", "[]", "at least one dimension"),
    ("Each network's own needs hold", {"network": {"topology": "hyperx", "shape": [8, 8, 8], "parallel_links": 3, "terminals_per_router": 2}},
     "network.shape", "[8, 8, 8]", "= 2 + 21·3 = 65"),
    ("Each routing's own needs hold", {"network": {"topology": "hyperx"}, "routing": {"algorithm": "min_adaptive"}, "switch": {"vcs": 1}},
     "switch.vcs", "1", "at least 2 with min_adaptive"),
    ("Each routing's own needs hold", {"network": {"topology": "hyperx"}, "routing": {"algorithm": "min_adaptive"}, "switch": {"model": "central_buffer"}},
     "switch.model", "'central_buffer'", "'input_buffered' or 'infiniband' with min_adaptive"),
    ("Each switch's own needs hold", {"switch": {"model": "infiniband"}, "network": {"topology": "hyperx", "shape": [2, 2], "parallel_links": 2}},
     "network.parallel_links", "2", "1 with the InfiniBand switch"),
    # (a routing a forwarding table cannot hold, on a network where one can run, and where none does)
    ("Each switch's own needs hold", {"switch": {"model": "infiniband"}, "network": {"topology": "hyperx", "shape": [2, 2]},
                                      "routing": {"algorithm": "min_adaptive"}},
     "routing.algorithm", "'min_adaptive'", "'dor' with the InfiniBand switch on a hyperx"),
    ("Each switch's own needs hold", {"switch": {"model": "infiniband", "vcs": 3, "buffer_flits": 16},
                                      "network": {"topology": "dragonfly"}, "routing": {"algorithm": "valiant"}},
     "network.topology", "'dragonfly'", "'mesh', 'torus', 'ring', 'hyperx', 'fat_tree', 'sp16' or 'sp128' with the InfiniBand switch"),
    ("Each routing's own needs hold", {"network": {"topology": "torus"}, "switch": {"vcs": 1}}, "switch.vcs", "1", "routing.check_deadlock_free = false"),
    ("Each routing's own needs hold", {"network": {"topology": "torus"}, "routing": {"lanes": "by_port"}}, "routing.lanes", "'by_port'", "2-D mesh"),
    ("Each routing's own needs hold", {"network": {"n": 3, "k": 4}, "routing": {"lanes": "by_port"}}, "routing.lanes", "'by_port'", "2-D mesh"),
    ("Each routing's own needs hold", {"switch": {"vcs": 3}, "routing": {"lanes": "by_port_host_any"}}, "routing.lanes", "'by_port_host_any'", "2-D mesh"),
    ("Each routing's own needs hold", {"network": {"topology": "fat_tree", "k": 8, "n": 3}, "routing": {"algorithm": "o1"}},
     "routing.oblivious_table", "'balanced'", "above 256 nodes"),
    ("Each switch's own needs hold", merged(SP, {"network": {"topology": "fat_tree"}, "switch": {"turn_cycles": 1}}),
     "switch.turn_cycles", "1", "0 except on a mesh or torus"),
    ("Each switch's own needs hold", {"switch": {"model": "central_buffer", "route_cycles": 7}}, "switch.route_cycles", "7", "switch.router_delay_cycles = 6"),
    ("Each switch's own needs hold", {"switch": {"model": "infiniband", "buffer_flits": 4}}, "switch.buffer_flits", "4", "at least workload.packet_flits = 8"),
    ("Each switch's own needs hold", {"switch": {"flow_control": "stop_go", "go_flits": 6}}, "switch.go_flits", "6", "below switch.stop_flits = 6"),
    ("Each switch's own needs hold", {"switch": {"flow_control": "stop_go"}, "network": {"terminal_latency_cycles": 2}},
     "network.terminal_latency_cycles", "2", "an integer from 1 to network.channel_latency_cycles under stop/go"),
    ("Each switch's own needs hold", {"switch": {"model": "infiniband"}, "network": {"topology": "torus", "n": 4, "k": 3}},
     "network.n", "4", "at most 8 ports"),
    ("Each switch's own needs hold", {"switch": {"model": "infiniband"}, "network": {"topology": "fat_tree", "k": 5}, "routing": {"algorithm": "o1"}},
     "network.k", "5", "at most 8 ports"),
    ("Each switch's own needs hold", {"switch": {"model": "infiniband"}, "network": {"topology": "sp16"}, "routing": {"algorithm": "adaptive"}},
     "routing.algorithm", "'adaptive'", "one output per destination"),
    ("Each routing's own needs hold", {"switch": {"model": "central_buffer"}, "network": {"topology": "torus"}},
     "switch.model", "'central_buffer'", "'input_buffered' or 'infiniband' on a torus or ring"),
    ("Byte sizing", {"workload": {"message_bytes": 100}}, "workload.flit_bytes", "(not set)", "required with workload.message_bytes"),
    ("Byte sizing", {"workload": {"message_bytes": 100, "flit_bytes": 16}}, "workload.max_packet_bytes", "(not set)", "required"),
    ("Byte sizing", {"workload": {"message_bytes": 100, "flit_bytes": 4, "max_packet_bytes": 64, "packet_flits": 4}},
     "workload.packet_flits", "4", "left out when workload.message_bytes is set"),
    ("Byte sizing", {"workload": {"message_bytes": 100, "flit_bytes": 4, "max_packet_bytes": 64, "message_flits": 4}},
     "workload.message_flits", "4", "left out when workload.message_bytes is set"),
    ("Byte sizing", {"workload": {"flit_bytes": 4}}, "workload.flit_bytes", "4", "only together with workload.message_bytes"),
    ("Byte sizing", {"workload": {"max_packet_bytes": 4}}, "workload.max_packet_bytes", "4", "only together with workload.message_bytes"),
    ("Byte sizing", {"workload": {"message_bytes": 10**9, "flit_bytes": 1, "max_packet_bytes": 8}},
     "workload.message_bytes", "1000000000", "at most 1000000 flits"),
    ("Byte sizing", {"workload": {"message_bytes": 8, "flit_bytes": 1, "max_packet_bytes": 5000}},
     "workload.max_packet_bytes", "5000", "at most 4096 flits"),
    ("Each program's own needs hold", {"network": {"k": 3}, "workload": {"pattern": "bit_reversal"}},
     "workload.pattern", "'bit_reversal'", "this one has 9 nodes"),
    ("Each program's own needs hold", {"network": {"k": 3}, "workload": {"pattern": "shuffle"}},
     "workload.pattern", "'shuffle'", "power-of-two"),
    ("Each program's own needs hold", {"network": {"k": 6, "n": 1}, "workload": {"pattern": "transpose"}},
     "workload.pattern", "'transpose'", "this one has 6 nodes"),
    ("Each program's own needs hold", merged(SP, {"workload": {"pattern": "tornado"}}),
     "workload.pattern", "'tornado'", "a mesh, torus, ring or fat_tree"),
    ("Each program's own needs hold", merged(SP, {"workload": {"pattern": "neighbor"}}),
     "workload.pattern", "'neighbor'", "a mesh, torus, ring or fat_tree"),
    ("Each program's own needs hold", {"workload": {"pattern": "hotspot", "hotspot_nodes": [64], "hotspot_fraction": 0.5}},
     "workload.hotspot_nodes", "[64]", "node ids from 0 to 63"),
    ("Each program's own needs hold", {"workload": {"pattern": "hotspot", "hotspot_fraction": 0.5}},
     "workload.hotspot_nodes", "[]", "a non-empty list of node ids from 0 to 63"),
    ("Each program's own needs hold", {"workload": {"pattern": "hotspot", "hotspot_nodes": [0]}},
     "workload.hotspot_fraction", "0", "above 0"),
    ("Each program's own needs hold", merged(MULTIDESTINATION, {"workload": {"program": "hardware_multicast", "destinations": 16}}),
     "workload.destinations", "16", "an integer from 1 to 15"),
    ("Multidestination worms", {"network": {"topology": "torus"}, "switch": {"model": "infiniband"}, "workload": {"program": "hardware_multicast"}},
     "network.topology", "'torus'", "'fat_tree', 'sp16' or 'mesh' with multidestination worms"),
    ("Multidestination worms", merged(MULTIDESTINATION, {"switch": {"model": "infiniband"}, "routing": {"algorithm": "o1"},
                                                          "workload": {"program": "hardware_multicast"}}),
     "switch.model", "'infiniband'", "'central_buffer' or 'input_fifo' on a fat_tree"),
    ("Each switch's own needs hold", {"switch": {"model": "infiniband"}, "workload": {"program": "hardware_multicast", "header_flits": 2}},
     "switch.buffer_flits", "8", "at least the largest packet, 10 flits"),
    ("Each switch's own needs hold", merged(MULTIDESTINATION, {"switch": {"model": "input_fifo", "buffer_flits": 8},
                                                         "workload": {"program": "hardware_multicast"}}),
     "switch.buffer_flits", "8", "at least the largest worm, 9 flits (packet and header)"),
    ("Each switch's own needs hold", merged(MULTIDESTINATION, {"switch": {"central_buffer_chunks": 3}, "workload": {"program": "hardware_multicast"}}),
     "switch.central_buffer_chunks", "3", "at least 10"),
    ("Multidestination worms", {"workload": {"program": "batch"}, "run": {"warmup_cycles": 0}},
     "switch.model", "'input_buffered'", "'central_buffer' or 'input_fifo'"),
    ("A closed workload", {"network": {"topology": "torus", "unidirectional": True}, "workload": {"program": "torus_multicast"}},
     "run.warmup_cycles", "10000", "0 with workload.program = 'torus_multicast'"),
    ("Each program's own needs hold", merged(HOST, {"network": {"topology": "torus", "unidirectional": True}}),
     "network.topology", "'torus'", "a bidirectional 2-D torus or mesh"),
    ("Each program's own needs hold", merged(HOST, {"network": {"n": 3, "k": 4}}), "network.topology", "'mesh'", "a bidirectional 2-D torus or mesh"),
    ("Each program's own needs hold", {"workload": {"program": "host_adapter"}}, "workload.group", "[]", "2 to 1024 distinct"),
    ("Each program's own needs hold", merged(HOST, {"workload": {"group": [3]}}), "workload.group", "[3]", "2 to 1024 distinct"),
    ("Each program's own needs hold", merged(HOST, {"workload": {"group": [0, 64]}}), "workload.group", "[0, 64]", "from 0 to 63"),
    ("Each program's own needs hold", merged(HOST, {"workload": {"control_flits": 9}}),
     "workload.packet_flits", "8", "at least 9 with workload.program = 'host_adapter'"),
    ("Each program's own needs hold", merged(HOST, {"workload": {"background_load": 0.1}}),
     "workload.packet_flits", "8", "at least 4000"),
    ("Each program's own needs hold", merged(HOST, {"workload": {"message_flits_max": 15, "packet_flits": 15, "message_flits": 8}}),
     "workload.message_flits_max", "15", "an integer from 16 to 1000000"),
    ("Each program's own needs hold", merged(HOST, {"workload": {"background_load": 0.1, "background_flits_max": 799, "packet_flits": 4000}}),
     "workload.background_flits_max", "799", "an integer from 800 to 1000000"),
    ("Each program's own needs hold", {"network": {"topology": "torus", "unidirectional": True, "n": 3, "k": 4},
                                          "workload": {"program": "torus_multicast"}, "run": {"warmup_cycles": 0}},
     "network.topology", "'torus'", "a unidirectional 2-D torus"),
    ("Each program's own needs hold", {"workload": {"program": "collective", "group_size": 65}, "run": {"warmup_cycles": 0}},
     "workload.group_size", "65", "an integer from 2 to 64 (the node count)"),
    ("Each program's own needs hold", {"workload": {"program": "collective", "group_size": 8, "root": 8}, "run": {"warmup_cycles": 0}},
     "workload.root", "8", "a rank below the group's size, 8"),
    ("`run.batches` is at most", {"run": {"measure_cycles": 5, "batches": 6}}, "run.batches", "6", "at most run.measure_cycles = 5"),
]


#: a scenario at each moved case's boundary passes (one per kind's need)
NEED_BOUNDARIES = [
    pytest.param(IRREGULAR, id="irregular-file"),
    pytest.param({"network": {"topology": "hyperx", "shape": [4, 2]}}, id="hyperx-shape"),
    pytest.param({"switch": {"model": "input_fifo", "route_cycles": 7, "router_delay_cycles": 7}}, id="route-cycles"),
    pytest.param({"switch": {"flow_control": "vct", "buffer_flits": 4}, "workload": {"packet_flits": 4}}, id="vct-buffer"),
    pytest.param({"switch": {"flow_control": "stop_go", "stop_flits": 6}}, id="stop-go"),
    pytest.param({"switch": {"model": "infiniband"}, "network": {"n": 3, "k": 4}}, id="infiniband-ports"),
    pytest.param({"network": {"k": 4}, "workload": {"program": "software_multicast", "destinations": 15}}, id="destinations"),
    pytest.param({"workload": {"program": "host_adapter", "group": [3, 4]}}, id="fixed-group"),
    pytest.param({"network": {"topology": "torus", "unidirectional": True}, "workload": {"program": "torus_multicast"},
                  "run": {"warmup_cycles": 0}}, id="torus-multicast"),
    pytest.param({"workload": {"program": "collective", "operation": "alltoall", "scheme": "pairwise"},
                  "run": {"warmup_cycles": 0}}, id="collective"),
]


@pytest.mark.parametrize("data", NEED_BOUNDARIES)
def test_a_kind_s_need_passes_at_its_boundary(data: dict[str, Any]) -> None:
    quiet(data)


@pytest.mark.parametrize(("fragment", "data", "key", "value", "allowed"), RULE_DETAILS,
                         ids=[f"{r[2]}={r[3]}" for r in RULE_DETAILS])
def test_each_rule_names_the_key_to_change(fragment: str, data: dict[str, Any], key: str, value: str, allowed: str) -> None:
    _rule_of(fragment)
    with pytest.raises(ConfigError) as info:
        Scenario.model_validate(data)
    err = info.value
    assert (err.key, err.value) == (key, value) and allowed in err.allowed
    assert err.problems == check(data)["problems"] and str(err).startswith(err.problems[0]["message"])


def test_a_deadlock_prone_torus_is_allowed_when_the_check_is_off() -> None:
    s = quiet({"network": {"topology": "torus"}, "switch": {"vcs": 1}, "routing": {"check_deadlock_free": False}})
    assert s.value("switch.vcs") == 1


@pytest.mark.parametrize(("k", "n", "pattern"), [(4, 2, "transpose"), (2, 4, "transpose"), (4, 3, "shuffle"), (8, 1, "bit_reversal")])
def test_patterns_on_matching_sizes(k: int, n: int, pattern: str) -> None:
    assert quiet({"network": {"k": k, "n": n}, "workload": {"pattern": pattern}}).nodes == k**n


# --- 3. keys that matter only sometimes --------------------------------------------------------------------

HW_TREE = merged(MULTIDESTINATION, {"workload": {"program": "hardware_multicast"}})
TORUS_MC = {"network": {"topology": "torus", "unidirectional": True}, "workload": {"program": "torus_multicast"},
            "run": {"warmup_cycles": 0}}

CONDITIONAL = [
    # (key, set where it has no effect: warns, set where it has: silent)
    ("routing.lanes", {"routing": {"lanes": "by_port"}, "switch": {"vcs": 1}}, {"routing": {"lanes": "by_port"}}),
    ("routing.torus_ties", {"network": {"topology": "torus", "k": 5}, "routing": {"torus_ties": "positive"}},
     {"network": {"topology": "torus", "k": 8}, "routing": {"torus_ties": "positive"}}),
    ("routing.selection_history", merged(SP, {"routing": {"selection": "rnd", "selection_history": "adaptive_hops"}}),
     merged(SP, {"routing": {"selection": "rr", "selection_history": "adaptive_hops"}})),
    ("routing.o4_spread", merged(O1, {"routing": {"algorithm": "o4", "o4_spread": "every_stage"}}),
     merged(O1, {"routing": {"algorithm": "o4", "o4_spread": "every_stage", "oblivious_table": "d_mod_k"}})),
    ("switch.stop_flits", {"switch": {"stop_flits": 4}}, {"switch": {"stop_flits": 4, "flow_control": "stop_go"}}),
    ("switch.go_flits", {"switch": {"go_flits": 2}}, {"switch": {"go_flits": 2, "flow_control": "stop_go"}}),
    ("switch.multicast_admission", {"switch": {"model": "central_buffer", "multicast_admission": "unreserved"}},
     merged(HW_TREE, {"switch": {"multicast_admission": "unreserved"}})),
    # a barrier's messages are one flit whatever the size (issue 35 §3)
    ("workload.message_flits", merged(COLLECTIVE, {"workload": {"operation": "barrier", "message_flits": 16}}),
     merged(COLLECTIVE, {"workload": {"message_flits": 16}})),
    ("workload.transpose_split", {"workload": {"pattern": "transpose", "transpose_split": "floor"}},  # 64 nodes
     merged(SP, {"network": {"topology": "sp128"}, "workload": {"pattern": "transpose", "transpose_split": "floor"}})),
    ("workload.header_flits", merged(BATCH, {"workload": {"scheme": "separate", "header_flits": 2}}),
     merged(BATCH, {"workload": {"header_flits": 2}})),
    ("workload.multicast_header_bytes", merged(BATCH, BYTES, {"workload": {"scheme": "separate", "multicast_header_bytes": 74}}),
     merged(BATCH, BYTES, {"workload": {"multicast_header_bytes": 74}})),
    ("workload.background_flits", merged(HOST, {"workload": {"background_flits": 300}}),
     merged(HOST, {"workload": {"background_flits": 300, "background_load": 0.1, "packet_flits": 4000}})),
    ("workload.background_flits_max", merged(HOST, {"workload": {"background_flits_max": 3000}}),
     merged(HOST, {"workload": {"background_flits_max": 3000, "background_load": 0.1, "packet_flits": 3000}})),
    ("workload.reception_worms", merged(HOST, {"workload": {"scheme": "separate", "reception_worms": 2}}),
     merged(HOST, {"workload": {"scheme": "bus", "reception_worms": 2}})),
    ("workload.buffer_classes", merged(HOST, {"workload": {"scheme": "separate", "buffer_classes": 1}}),
     merged(HOST, {"workload": {"scheme": "ring", "buffer_classes": 1}})),
    ("workload.control_flits", merged(HOST, {"workload": {"scheme": "separate", "control_flits": 4}}),
     merged(HOST, {"workload": {"scheme": "tree_wrap_around", "control_flits": 4}})),
    ("workload.timeout_cycles", merged(HOST, {"workload": {"scheme": "separate", "timeout_cycles": 10}}),
     merged(HOST, {"workload": {"scheme": "tree_up_down", "timeout_cycles": 10}})),
    ("workload.max_children", merged(HOST, {"workload": {"scheme": "ring", "max_children": 2}}),
     merged(HOST, {"workload": {"scheme": "tree_up_down", "max_children": 2}})),
    ("workload.partition", merged(TORUS_MC, {"workload": {"partition": 8}}),
     merged(TORUS_MC, {"workload": {"partition": 8, "scheme": "mu_torus"}})),
    ("workload.partition_lengths", merged(TORUS_MC, {"workload": {"partition_lengths": "equal"}}),
     merged(TORUS_MC, {"workload": {"partition_lengths": "equal", "scheme": "mu_torus"}})),
]
WHERE = dict(SCHEMA["conditional"])


def test_the_conditional_table_covers_every_conditional_key() -> None:
    assert len(CONDITIONAL) == len(SCHEMA["conditional"])
    assert [c[0] for c in CONDITIONAL] == [key for key, _ in SCHEMA["conditional"]]


@pytest.mark.parametrize(
    ("key", "data"),
    [pytest.param(c[0], c[1], id=c[0]) for c in CONDITIONAL],
)
def test_a_key_set_where_it_has_no_effect_warns(key: str, data: dict[str, Any]) -> None:
    with pytest.warns(ConfigWarning) as caught:
        Scenario.model_validate(data)
    config_warnings = [w.message for w in caught if isinstance(w.message, ConfigWarning)]
    assert [w.key for w in config_warnings] == [key]
    w = config_warnings[0]
    section, name = key.split(".")
    assert w.value == shown(data[section][name]) and w.allowed == f"only {WHERE[key]}"
    assert str(w).startswith(f"{key} = {w.value} has no effect here") and str(w).endswith(f"it matters only {WHERE[key]}")


@pytest.mark.parametrize(("key", "data"), [pytest.param(c[0], c[2], id=c[0]) for c in CONDITIONAL])
def test_a_key_set_where_it_has_effect_is_silent(key: str, data: dict[str, Any]) -> None:
    s = quiet(data)
    section, name = key.split(".")
    assert s.value(key) == data[section][name]
    assert quiet(s.to_toml_dict()) == s, "a resolved scenario reloads silently"


@pytest.mark.parametrize(
    ("key", "data"),
    [pytest.param(c[0], c[1], id=c[0]) for c in CONDITIONAL],
)
def test_a_conditional_key_at_its_default_never_warns(key: str, data: dict[str, Any]) -> None:
    section, name = key.split(".")
    defaults = {json.dumps(d["default"]) for s, d in DECLS if dotted(s, d) == key}
    assert len(defaults) == 1
    default = json.loads(defaults.pop())
    at_default = merged(data, {section: {name: default}})
    if default is None:  # (left out)
        del at_default[section][name]
    quiet(at_default)


def test_with_overrides_judges_what_was_set_explicitly() -> None:
    adaptive = Scenario.model_validate(SP)  # selection resolved to lru, not set
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        o1 = adaptive.with_overrides({"routing.algorithm": "o1"})  # the resolved keys were not given
    assert o1.value("routing.selection") is None and o1.value("routing.oblivious_table") == "balanced"
    rr = adaptive.with_overrides({"routing.selection": "rr"})
    with pytest.raises(ConfigError) as info:  # a key given explicitly stays given: it now belongs elsewhere
        rr.with_overrides({"routing.algorithm": "o4"})
    assert info.value.key == "routing.selection" and "it belongs to routing.algorithm = 'adaptive', 'up_down' or 'min_adaptive'" in str(info.value)
    # a key given with effect warns once an override takes its effect away
    ties = quiet({"network": {"topology": "torus"}, "routing": {"torus_ties": "positive"}})
    with pytest.warns(ConfigWarning, match="routing.torus_ties = 'positive' has no effect here"):
        ties.with_overrides({"network.k": 5})


@pytest.mark.parametrize(
    ("data", "overrides"),
    [
        (SP, {"routing.algorithm": "o1"}),  # the resolved file holds every key of adaptive routing
        (merged(SP, {"switch": {"model": "central_buffer"}}), {"switch.model": "input_fifo"}),
        ({"switch": {"buffer_flits": 16}}, {"switch.model": "infiniband"}),  # a key set carries over
        ({"workload": {"program": "software_multicast", "destinations": 3}}, {"workload.program": "hardware_multicast", "switch.model": "infiniband"}),
    ],
    ids=["algorithm", "model", "model-keeps-set-key", "program"],
)
def test_a_resolved_file_overrides_as_its_original_does(data: dict[str, Any], overrides: dict[str, Any]) -> None:
    original = quiet(data)
    resolved = quiet(original.to_toml_dict())  # what `flitcast sweep` writes into its run directory
    assert resolved.with_overrides(overrides) == original.with_overrides(overrides)


# --- derived values ----------------------------------------------------------------------------------------


def test_message_flits_follows_packet_flits_when_left_out() -> None:
    s = Scenario.model_validate({"workload": {"packet_flits": 5}})
    assert s.value("workload.message_flits") == 5 and s.workload.message_flits is None
    assert s.with_overrides({"workload.packet_flits": 3}).value("workload.message_flits") == 3
    s = Scenario.model_validate({"workload": {"packet_flits": 5, "message_flits": 12}})
    assert s.with_overrides({"workload.packet_flits": 3}).value("workload.message_flits") == 12


def test_byte_sizing_derives_flits() -> None:
    s = quiet({"workload": {"message_bytes": 100, "flit_bytes": 16, "max_packet_bytes": 64}})
    assert (s.value("workload.packet_flits"), s.value("workload.message_flits")) == (4, 7)
    assert s.minimal() == {"workload": {"message_bytes": 100, "flit_bytes": 16, "max_packet_bytes": 64}}
    # the resolved and minimal forms keep the bytes and reload to the same scenario
    assert quiet(s.to_toml_dict()) == s == quiet(s.minimal())
    assert s.with_overrides({"workload.message_bytes": 17}).value("workload.message_flits") == 2
    assert s.with_overrides({"workload.max_packet_bytes": 32}).value("workload.packet_flits") == 2


def test_terminal_latency_follows_channel_latency_when_left_out() -> None:
    s = Scenario.model_validate({"network": {"channel_latency_cycles": 3}})
    assert s.value("network.terminal_latency_cycles") == 3 and "terminal_latency_cycles" not in s.to_core_dict()["network"]
    assert s.with_overrides({"network.channel_latency_cycles": 5}).value("network.terminal_latency_cycles") == 5
    fixed = s.with_overrides({"network.terminal_latency_cycles": 2})
    assert fixed.with_overrides({"network.channel_latency_cycles": 5}).value("network.terminal_latency_cycles") == 2


def test_stop_go_thresholds_leave_a_round_trip_of_slack() -> None:
    base = {"network": {"topology": "torus", "channel_latency_cycles": 50}, "switch": {"flow_control": "stop_go", "buffer_flits": 250}}
    s = quiet(base)  # STOP at 250 − (2·50 + 1 − 1) = 150, GO one channel latency below
    assert (s.value("switch.stop_flits"), s.value("switch.go_flits")) == (150, 100)
    assert s.with_overrides({"switch.buffer_flits": 260}).value("switch.stop_flits") == 160
    assert s.with_overrides({"switch.stop_flits": 120}).value("switch.go_flits") == 70
    quiet(merged(base, {"switch": {"stop_flits": 150, "go_flits": 149}}))
    for change, key in (({"stop_flits": 151}, "switch.stop_flits"), ({"stop_flits": 100, "go_flits": 100}, "switch.go_flits")):
        with pytest.raises(ConfigError) as info:
            Scenario.model_validate(merged(base, {"switch": change}))
        assert info.value.key == key
    assert Scenario().value("switch.stop_flits") is None, "derived only under stop/go"


@pytest.mark.parametrize(
    ("data", "header"),
    [
        (HW_TREE, 1),  # 16 nodes: one 2-byte flit of destination bits
        (merged(HW_TREE, {"network": {"k": 4, "n": 3}}), 4),  # 64 nodes: 4 flits
        (merged(HW_TREE, {"workload": {"header_flits": 3}}), 3),
        ({"switch": {"model": "infiniband"}, "workload": {"program": "hardware_multicast"}}, 0),  # a multicast LID
    ],
    ids=["fat-tree-16", "fat-tree-64", "given", "infiniband"],
)
def test_a_worms_header_is_derived_from_the_node_count(data: dict[str, Any], header: int) -> None:
    assert quiet(data).value("workload.header_flits") == header


# --- views and overrides ----------------------------------------------------------------------------------


def test_flat_uses_dotted_keys_of_the_chosen_kinds() -> None:
    flat = Scenario().flat()
    assert flat["workload.load"] == 0.1 and flat["network.k"] == 8 and flat["run.seed"] == 1
    assert all(key.count(".") == 1 for key in flat)
    assert "network.node_numbering" not in flat and "switch.route_cycles" not in flat  # other kinds' keys
    assert Scenario().value("switch.route_cycles") is None


def test_equality_is_by_parameters() -> None:
    a = Scenario().with_overrides({"workload.load": 0.3})
    b = Scenario.model_validate({"workload": {"load": 0.3}})
    assert a == b and a.overrides != b.overrides and a.minimal() == b.minimal()
    assert a != Scenario() and a != "scenario"
    assert Scenario(network={"k": 8, "topology": "mesh"}) == Scenario()
    clone = pickle.loads(pickle.dumps(a))  # scenarios cross process boundaries (executors, Dask)
    assert clone == a and clone.minimal() == a.minimal() and clone.overrides == a.overrides


def test_with_overrides_validates_and_records() -> None:
    base = Scenario()
    s = base.with_overrides({"workload.load": 0.3, "network.topology": "torus"})
    assert s.value("workload.load") == 0.3 and s.value("network.topology") == "torus"
    assert s.overrides == {"workload.load": 0.3, "network.topology": "torus"}
    assert s.with_overrides({"run.seed": 2}).overrides == {"workload.load": 0.3, "network.topology": "torus", "run.seed": 2}
    assert base.value("workload.load") == 0.1  # the base is untouched
    with pytest.raises(ConfigError) as info:
        base.with_overrides({"workload.load": 2.0})
    assert info.value.key == "workload.load"
    # a kind named anew brings its keys' defaults, and drops the old kind's
    central = base.with_overrides({"switch.model": "central_buffer"})
    assert central.value("switch.route_cycles") == 4 and central.value("switch.vcs") is None


@pytest.mark.parametrize(
    ("key", "expected_key", "allowed"),
    [
        ("load", "load", "a dotted key table.name"),
        ("workload.load.x", "workload.load.x", "a dotted key table.name"),
        ("traffic.load", "traffic", "one of the tables network, switch, routing, workload, run"),
        ("workload.lod", "workload.lod", "one of the keys program, load, arrival, pattern"),
        ("workload.multicast_scheme", "workload.multicast_scheme", "workload.program ('software_multicast'"),
        ("routing.selection", "routing.selection", "the keys of routing.algorithm = 'dor'"),
    ],
)
def test_bad_override_keys(key: str, expected_key: str, allowed: str) -> None:
    with pytest.raises(ConfigError) as info:
        Scenario().with_overrides({key: 0.3})
    assert info.value.key == expected_key and allowed in info.value.allowed


def test_overrides_must_be_a_mapping_onto_tables() -> None:
    with pytest.raises(ConfigError) as info:
        Scenario().with_overrides([("workload.load", 0.3)])  # type: ignore[arg-type]
    assert info.value.key == "overrides" and info.value.value == "'list'"


# --- load_scenario and files --------------------------------------------------------------------------------


def test_load_scenario_from_dict_file_and_scenario(write_toml) -> None:
    data = {"network": {"k": 4}, "workload": {"program": "software_multicast", "destinations": 3}}
    from_dict = load_scenario(data)
    from_file = load_scenario(write_toml(data))
    assert from_dict == from_file == load_scenario(str(write_toml(data)))
    assert load_scenario(from_dict) is from_dict
    assert load_scenario(write_toml(from_dict.to_toml_dict(), "resolved.toml")) == from_dict


def test_load_scenario_ignores_a_sweep_table(write_toml) -> None:
    path = write_toml({"network": {"k": 4}, "sweep": {"workload.load": [0.1, 0.2]}})
    assert load_scenario(path).value("network.k") == 4


def test_a_moved_table_in_a_file_names_its_new_place(write_toml) -> None:
    with pytest.raises(ConfigError) as info:
        load_scenario(write_toml({"adapter": {"send_overhead_cycles": 100}}))
    assert info.value.key == "adapter" and "'torus_multicast' (send_overhead_cycles" in info.value.allowed


@pytest.mark.parametrize(
    ("content", "allowed", "fragment"),
    [
        (None, f"a readable TOML file of at most {MAX_SCENARIO_BYTES} bytes", "cannot read the scenario file"),
        ("[network\nk = 4", "a valid TOML file", "is not valid TOML"),
        (b"\xff\xfe[network]", "a valid TOML file (UTF-8 text)", "is not UTF-8 text"),
        (b"#" * (MAX_SCENARIO_BYTES + 1), f"a readable TOML file of at most {MAX_SCENARIO_BYTES} bytes", "more than"),
        ("dir", f"a readable TOML file of at most {MAX_SCENARIO_BYTES} bytes", "is a directory"),
    ],
    ids=["missing", "invalid-toml", "not-utf8", "too-large", "directory"],
)
def test_unreadable_files(tmp_path: Path, content: Any, allowed: str, fragment: str) -> None:
    path = tmp_path / "s.toml"
    if content == "dir":
        path.mkdir()
    elif isinstance(content, str):
        path.write_text(content, encoding="utf-8")
    elif isinstance(content, bytes):
        path.write_bytes(content)
    with pytest.raises(ConfigError) as info:
        load_scenario(path)
    assert info.value.key == "scenario file" and info.value.allowed == allowed
    assert fragment in str(info.value) and str(path) in str(info.value)


def test_load_scenario_rejects_other_types() -> None:
    with pytest.raises(ConfigError) as info:
        load_scenario(42)  # type: ignore[arg-type]
    assert (info.value.key, info.value.value, info.value.reason) == ("scenario", "42", "an int")


def test_non_table_section_in_toml(write_toml) -> None:
    with pytest.raises(ConfigError) as info:
        load_scenario(write_toml({"network": "mesh"}))
    assert (info.value.key, info.value.allowed) == ("network", "a table of settings")


# --- the error hierarchy --------------------------------------------------------------------------------


def test_hierarchy() -> None:
    assert issubclass(errors.RoutingError, errors.ConfigError)
    assert issubclass(errors.DeadlockError, errors.SimulationError)
    assert issubclass(errors.ConservationError, errors.SimulationError)
    assert issubclass(errors.ConfigWarning, UserWarning)
    for cls in (errors.ConfigError, errors.SimulationError, errors.InternalError):
        assert issubclass(cls, errors.FlitcastError)


CORE_ERRORS = [
    ({"kind": "config", "message": "switch.vcs = 1 is not allowed; allowed: at least 2", "key": "switch.vcs",
      "value": "1", "allowed": "at least 2"}, errors.ConfigError),
    ({"kind": "routing", "message": "routing check failed: cycle", "key": None, "value": None, "allowed": None},
     errors.RoutingError),
    ({"kind": "deadlock", "message": "deadlock at 12", "cycle": 12, "blocked": ["router 0 in-port 1 vc 0"]},
     errors.DeadlockError),
    ({"kind": "conservation", "message": "lost a flit"}, errors.ConservationError),
    ({"kind": "interrupted", "message": "interrupted at cycle 7", "cycle": 7}, errors.Interrupted),
    ({"kind": "internal", "message": "the engine panicked: boom"}, errors.InternalError),
    ({"kind": "martian", "message": "?"}, errors.InternalError),
    ("not a dict", errors.InternalError),
]


@pytest.mark.parametrize(("error", "cls"), CORE_ERRORS, ids=[f"{e[1].__name__}{i}" for i, e in enumerate(CORE_ERRORS)])
def test_from_core_maps_kinds(error: Any, cls: type) -> None:
    exc = errors.from_core(error, Scenario().to_core_dict())
    assert type(exc) is cls
    clone = pickle.loads(pickle.dumps(exc))  # errors cross process boundaries (executors, Dask)
    assert type(clone) is cls and str(clone) == str(exc) and clone.__dict__ == exc.__dict__


def test_from_core_details() -> None:
    config = errors.from_core(CORE_ERRORS[0][0])
    assert (config.key, config.value, config.allowed) == ("switch.vcs", "1", "at least 2")
    assert str(config) == "switch.vcs = 1 is not allowed; allowed: at least 2"
    routing = errors.from_core(CORE_ERRORS[1][0], Scenario().to_core_dict())
    assert routing.key == "routing.algorithm" and routing.value == "'dor'" and "cycle" in str(routing)
    deadlock = errors.from_core(CORE_ERRORS[2][0])
    assert deadlock.cycle == 12 and deadlock.blocked == ["router 0 in-port 1 vc 0"]


def test_the_core_run_refuses_what_its_check_refuses() -> None:
    bad = Scenario.model_validate(HOST).to_core_dict()
    bad["workload"]["group"] = [0, 99]
    outcome = json.loads(_core.run(json.dumps(bad)))
    error = errors.from_core(outcome["error"], bad)
    assert type(error) is ConfigError and error.key == "workload.group"
    assert str(error) == check(bad)["message"]


# --- study 001: a fixed group's host adapters ------------------------------------------------------------

CASETTI = {
    "network": {"topology": "torus", "k": 8, "channel_latency_cycles": 50, "terminal_latency_cycles": 1},
    "switch": {"flow_control": "stop_go", "buffer_flits": 250},
    "workload": {"program": "host_adapter", "group": [0, 1, 2, 3, 13, 15, 16, 17, 31], "scheme": "ring",
                 "load": 0.01, "message_flits": 100, "message_flits_max": 1000, "packet_flits": 4000},
}


@pytest.mark.parametrize(
    ("section", "changes", "key"),
    [
        ("workload", {"group": [0, 64]}, "workload.group"),
        ("workload", {"group": [3, 3]}, "workload.group"),
        ("workload", {"group": []}, "workload.group"),
        ("workload", {"scheme": "u_torus"}, "workload.scheme"),
        ("workload", {"packet_flits": 999}, "workload.packet_flits"),
        ("workload", {"message_flits_max": 150}, "workload.message_flits_max"),
        ("workload", {"background_load": 0.1, "packet_flits": 1000}, "workload.packet_flits"),
        ("workload", {"multicast_group": [0, 1]}, "workload.multicast_group"),
        ("network", {"topology": "mesh", "n": 3, "k": 4}, "network.topology"),
        ("network", {"unidirectional": True}, "network.topology"),
        ("network", {"terminal_latency_cycles": 51}, "network.terminal_latency_cycles"),
    ],
)
def test_a_fixed_group_is_checked_naming_the_key(section: str, changes: dict[str, Any], key: str) -> None:
    quiet(CASETTI)
    with pytest.raises(ConfigError) as info:
        Scenario.model_validate(merged(CASETTI, {section: changes}))
    assert info.value.key == key


def test_a_fixed_group_is_bounded() -> None:
    big = merged(CASETTI, {"network": {"k": 33}})
    quiet(merged(big, {"workload": {"group": list(range(1024))}}))
    with pytest.raises(ConfigError) as info:
        Scenario.model_validate(merged(big, {"workload": {"group": list(range(1025))}}))
    assert info.value.key == "workload.group" and "2 to 1024 distinct" in info.value.allowed


# --- study 004: one software multicast on a unidirectional torus ---------------------------------------------

ORAL = {
    "network": {"topology": "torus", "k": 4, "unidirectional": True},
    "workload": {"program": "torus_multicast", "group_size": 10, "scheme": "mu_torus", "partition": 4},
    "run": {"warmup_cycles": 0, "measure_cycles": 2, "batches": 2},
}


@pytest.mark.parametrize(
    ("section", "changes", "key"),
    [
        ("network", {"unidirectional": False}, "network.topology"),
        ("network", {"n": 3}, "network.topology"),
        ("workload", {"group_size": 17}, "workload.group_size"),
        ("workload", {"group_size": 1}, "workload.group_size"),
        ("workload", {"root": 16}, "workload.root"),
        ("workload", {"partition": 17}, "workload.partition"),
        ("workload", {"scheme": "ring"}, "workload.scheme"),
        ("workload", {"multicast_partition": 4}, "workload.multicast_partition"),
        ("run", {"warmup_cycles": 10}, "run.warmup_cycles"),
    ],
)
def test_a_torus_multicast_is_checked_naming_the_key(section: str, changes: dict[str, Any], key: str) -> None:
    quiet(ORAL)
    with pytest.raises(ConfigError) as info:
        Scenario.model_validate(merged(ORAL, {section: changes}))
    assert info.value.key == key


def test_a_torus_multicast_runs_and_reports_its_metrics() -> None:
    import flitcast

    scenario = quiet(merged(ORAL, {"workload": {"send_overhead_cycles": 100, "receive_overhead_cycles": 100}}))
    m = flitcast.run(scenario).metrics
    # (the operation ends with the last reception, its receive overhead included; the run after it)
    assert m["operations_measured"] == 1 and m["completion_cycles"] == m["latency_max"] < m["cycles"]
    assert m["link_concurrency"] >= 1 and m["link_concentration"] >= 1 and m["root_busy_cycles"] == 300  # three blocks


@pytest.mark.parametrize("path", sorted((Path(__file__).resolve().parents[1] / "examples" / "scenarios").glob("*.toml")), ids=lambda p: p.stem)
def test_a_scenario_prints_what_is_set_and_writes_back_to_toml(path: Path, tmp_path: Path) -> None:
    import flitcast

    scenario = flitcast.load_scenario(path)
    shown = repr(scenario)
    assert shown.startswith("Scenario(") and str(scenario) == shown
    assert "None" not in shown and len(shown) < len(repr(scenario.to_core_dict()))  # no table of defaults
    for resolved in (False, True):
        written = tmp_path / f"back_{resolved}.toml"
        written.write_text(scenario.to_toml(resolved=resolved), encoding="utf-8")
        assert flitcast.load_scenario(written) == scenario
    assert repr(flitcast.Scenario()) == "Scenario()"
