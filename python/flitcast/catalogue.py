"""The core's catalogue of scenario keys (``_core.schema()``): every key with its type, default, range,
unit, doc and the kind it belongs to, the rules across keys, and the keys that moved; and the result's
columns. ``flitcast list``, docs/config.md and the typed config models (``config/sections.py``) are made
from it, so a key, its range and its doc are written once, in the core (docs/architecture.md, "Keys");
so are docs/results.md's table of columns and their order (``result_columns.py``).

Imports neither pydantic nor anything heavy: ``flitcast list`` reads it at start-up.
"""

from __future__ import annotations

import functools
import json
from typing import Any

#: the tag keys named after their family rather than themselves (`switch.model` names a switch)
FAMILY_OF_TAG = {"model": "switch", "algorithm": "routing"}


@functools.cache
def schema() -> dict[str, Any]:
    """The catalogue as the core exports it: ``sections`` [(name, doc, [key, ...])], ``rules``,
    ``conditional`` [(key, where it matters)] and ``moved`` [(old key, where it went)]."""
    from flitcast import _core

    return json.loads(_core.schema())


def sections() -> list[tuple[str, str, list[dict[str, Any]]]]:
    """Each table's name, doc and key declarations (a kind's keys carry ``within``: [(tag, kind)]), every
    doc on one line."""
    return [(name, _one_line(doc), [_docs_on_one_line(key) for key in keys]) for name, doc, keys in schema()["sections"]]


def metrics() -> list[dict[str, str]]:
    """The result's columns in table order: ``name``, ``unit``, ``meaning`` (one line) and ``empty_when``
    ("" where it always has a value)."""
    return [{**m, "meaning": _one_line(m["meaning"])} for m in schema()["metrics"]]


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _docs_on_one_line(key: dict[str, Any]) -> dict[str, Any]:
    docs = key["choice_docs"]
    return {**key, "doc": _one_line(key["doc"]), "choice_docs": docs and [_one_line(d) for d in docs]}


def plural(family: str) -> str:
    """The name of a family's list: ``topologies``, ``switches``; a name already plural stays
    (``lanes``, ``torus_ties``)."""
    if family.endswith("s"):
        return family
    if family.endswith("y") and family[-2:-1] not in ("a", "e", "i", "o", "u"):
        return family[:-1] + "ies"
    if family.endswith(("ch", "sh", "x")):
        return family + "es"
    return family + "s"


def families() -> dict[str, list[tuple[str, str]]]:
    """Every key that names a kind or one of a closed set of choices, by the plural of its family
    (``topologies``, ``switches``, ``programs``, ``arrivals``, ...): its (name, doc line) rows. A key that
    several kinds declare with choices of their own (``workload.scheme``) lists each kind's, its doc
    line prefixed with the kind (``program = batch: ...``)."""
    declared: dict[str, list[dict[str, Any]]] = {}
    for _, _, keys in sections():
        for key in keys:
            if key["choice_docs"] is not None:
                declared.setdefault(plural(FAMILY_OF_TAG.get(key["key"], key["key"])), []).append(key)
    out: dict[str, list[tuple[str, str]]] = {}
    for family, keys in declared.items():
        distinct = {tuple(key["choices"]) for key in keys}
        rows = []
        for key in keys if len(distinct) > 1 else keys[:1]:
            where = f"{kind_text(key['within'])}: " if len(distinct) > 1 else ""
            for name, doc in zip(key["choices"], key["choice_docs"], strict=True):
                rows.append((name, where + doc))
        out[family] = rows
    return out


def kind_text(within: list[list[str]]) -> str:
    """Where a key belongs: ``model = central_buffer``, ``program = open_loop, pattern = hotspot``."""
    return ", ".join(f"{tag} = {kind}" for tag, kind in within)


def allowed_text(dotted: str) -> str | None:
    """What the key ``section.key`` allows, as the core says it; None for a key it does not declare, or
    declares with different ranges in different kinds."""
    section, _, name = dotted.partition(".")
    texts = {key["allowed"] for table, _, keys in schema()["sections"] if table == section for key in keys if key["key"] == name}
    return texts.pop() if len(texts) == 1 else None


def default_text(key: dict[str, Any]) -> str:
    """A key's default as TOML spells it; ``(not set)`` for an optional key left out."""
    value = key["default"]
    if value is None:
        return "(not set)"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    return json.dumps(value)


def parameters() -> list[dict[str, str]]:
    """One row per key declaration: its dotted key, the kind it belongs to, type, default, allowed values,
    unit and description (what ``flitcast list parameters`` prints)."""
    rows = []
    for section, _, keys in sections():
        for key in keys:
            optional = key["default"] is None and key["type"] != "list[int]"
            rows.append(
                {
                    "key": f"{section}.{key['key']}",
                    "kind": kind_text(key["within"]),
                    "type": key["type"] + (" | None" if optional else ""),
                    "default": default_text(key),
                    "allowed": key["allowed"],
                    "unit": key["unit"] or "",
                    "description": key["doc"],
                }
            )
    return rows
