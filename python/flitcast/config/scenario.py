"""The :class:`Scenario`: one simulation point, checked and resolved by the core.

The front checks only what is Python's to check — the shape of the input (tables of string keys) and
that its values are TOML values the core can read — and hands the tables to the core
(``_core.check``), which knows every key, its range and the kind it belongs to, and applies every
rule across keys. The core answers with every problem as data (key, value, allowed, message), raised
here as :class:`ConfigError` with the core's message, or with the scenario resolved: each table with
its kind's keys, the values derived from others (``derived``), the minimal form that differs from the
defaults (the point store's key), and the keys set that have no effect (``ConfigWarning``).
"""

from __future__ import annotations

import copy
import json
import math
import os
import warnings
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, PrivateAttr

from flitcast.catalogue import allowed_text
from flitcast.config.files import read_scenario_file
from flitcast.config.sections import SECTIONS, Network, Routing, Run, Switch, Workload
from flitcast.errors import ConfigError, ConfigWarning, InternalError, Shown, show_key

#: the tables of a scenario, in file order
TABLES = tuple(SECTIONS)


class Scenario(BaseModel):
    """One simulation point: every parameter of a run, checked by the core, with defaults filled in.

    Build one with ``Scenario()``, ``Scenario(workload={"load": 0.3})``, :func:`load_scenario` or
    :meth:`with_overrides`; invalid input raises :class:`flitcast.errors.ConfigError`, a key that has no
    effect warns (:class:`flitcast.errors.ConfigWarning`).
    """

    network: Network
    switch: Switch
    routing: Routing
    workload: Workload
    run: Run

    #: the resolved tables as the core wrote them, the derived values, the minimal form
    _resolved: dict[str, Any] = PrivateAttr(default_factory=dict)
    _derived: dict[str, Any] = PrivateAttr(default_factory=dict)
    _minimal: dict[str, Any] = PrivateAttr(default_factory=dict)
    _overrides: dict[str, Any] = PrivateAttr(default_factory=dict)

    def __init__(self, /, **data: Any) -> None:
        non_finite: dict[str, float] = {}
        given = _plain_tables(data, non_finite)
        checked = _check(given, non_finite)
        resolved = checked["scenario"]
        try:
            super().__init__(**{name: resolved.get(name, {}) for name in TABLES})
        except Exception as exc:  # (pydantic: the core and the generated models disagree)
            raise InternalError(f"the core's resolved scenario does not fit the config models: {exc}") from None
        self._resolved = resolved
        self._derived = checked["derived"]
        self._minimal = checked["minimal"]
        for w in checked["warnings"]:
            # (show_key: a key the user spelled with a newline must not break the one-line message)
            warning = ConfigWarning(w["key"], Shown(w["value"]), w["allowed"], message=show_key(w["message"]))
            warnings.warn(warning, stacklevel=3)

    @classmethod
    def model_validate(cls, obj: Any, **_: Any) -> Scenario:
        if not isinstance(obj, Mapping):
            raise ConfigError("scenario", obj, "a table of the tables " + ", ".join(TABLES))
        data = dict(obj)
        for name in data:
            _key(name, "")  # a table name that is not a string is a ConfigError, not a TypeError from **
        return cls(**data)

    def __eq__(self, other: object) -> bool:
        # equal parameters make equal scenarios, however they were given
        if not isinstance(other, Scenario):
            return NotImplemented
        return self._resolved == other._resolved

    __hash__ = None  # type: ignore[assignment]

    @property
    def nodes(self) -> int:
        """Number of terminals in the network."""
        return int(self._derived["nodes"])

    @property
    def window_end(self) -> int:
        """The cycle the measurement window ends: the warm-up plus the window (both always resolved)."""
        run = self._resolved["run"]
        return int(run["warmup_cycles"]) + int(run["measure_cycles"])

    @property
    def overrides(self) -> dict[str, Any]:
        """The dotted-key overrides this scenario was derived with (see :meth:`with_overrides`)."""
        return dict(self._overrides)

    def value(self, key: str) -> Any:
        """The value of a dotted key (``"workload.message_flits"``), derived where it was left out; None for a
        key this scenario's kinds do not take."""
        table, _, name = key.partition(".")
        if "." in key and key in self._derived:
            return self._derived[key]
        return self._resolved.get(table, {}).get(name)

    # --- views ---------------------------------------------------------------------------------------

    def to_core_dict(self) -> dict[str, Any]:
        """The scenario exactly as ``flitcast._core`` runs it: every key of the chosen kinds."""
        return copy.deepcopy(self._resolved)

    def minimal(self) -> dict[str, Any]:
        """The keys that differ from their defaults (what the point store keys a point by)."""
        return copy.deepcopy(self._minimal)

    def flat(self) -> dict[str, Any]:
        """Every parameter under its dotted key (``"workload.load"``), resolved, with the values derived from
        other keys; one table row's worth."""
        flat = {f"{t}.{k}": v for t in TABLES for k, v in self._resolved.get(t, {}).items()}
        flat.update((k, v) for k, v in self._derived.items() if "." in k)
        return flat

    def to_toml_dict(self) -> dict[str, Any]:
        """The resolved scenario as a TOML document that loads back to the same scenario."""
        return self.to_core_dict()

    def to_toml(self, resolved: bool = False) -> str:
        """This scenario as a TOML file's text that loads back to the same scenario (``load_scenario``): the
        keys that differ from their defaults, or with ``resolved`` every key of its kinds."""
        import tomli_w

        return tomli_w.dumps(self.to_toml_dict() if resolved else self.minimal())

    def __repr__(self) -> str:
        # (what is set, not every default of every table)
        tables = ", ".join(f"{name}={value!r}" for name, value in self._minimal.items())
        return f"Scenario({tables})"

    __str__ = __repr__

    def with_overrides(self, overrides: Mapping[str, Any]) -> Scenario:
        """A new, checked scenario with dotted keys set: ``s.with_overrides({"workload.load": 0.3})``.

        Starts from the minimal form (the keys that differ from their defaults), so values derived from
        others are derived again, a kind named anew (``{"switch.model": "central_buffer"}``) takes its own
        defaults, and a scenario read back from its resolved file overrides exactly as the original
        does. ``overrides`` that is not a mapping raises :class:`ConfigError`.
        """
        if not isinstance(overrides, Mapping):
            raise ConfigError(
                "overrides", type(overrides).__name__, "a mapping of dotted keys to values, e.g. {'workload.load': 0.3}"
            )
        scenario = Scenario.model_validate(apply_overrides(self._minimal, overrides))
        scenario._overrides = {**self._overrides, **{str(k): v for k, v in overrides.items()}}
        return scenario


def apply_overrides(data: Mapping[str, Any], overrides: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of the raw scenario tables ``data`` with dotted keys (``"workload.load"``) set. Not checked."""
    out: dict[str, Any] = {name: dict(v) if isinstance(v, Mapping) else v for name, v in data.items()}
    for key, value in overrides.items():
        table, dot, name = str(key).partition(".")
        if not dot or not table or not name or "." in name:
            raise ConfigError(str(key) or "''", value, "a dotted key table.name, e.g. workload.load")
        section = out.setdefault(table, {})
        if not isinstance(section, dict):
            raise ConfigError(table, section, "a table of settings (it cannot take a dotted override)")
        section[name] = value
    return out


def load_scenario(source: Scenario | Mapping[str, Any] | str | os.PathLike[str]) -> Scenario:
    """A checked :class:`Scenario` from a scenario, a dict or the path of a TOML file.

    A ``[sweep]`` table in a file (``flitcast sweep`` writes one into its run directory) is ignored here.
    """
    if isinstance(source, Scenario):
        return source
    if isinstance(source, Mapping):
        return Scenario.model_validate(dict(source))
    if isinstance(source, (str, os.PathLike)):
        data, _ = read_scenario_file(source)
        return Scenario.model_validate(data)
    kind = type(source).__name__
    raise ConfigError(
        "scenario", source, "a Scenario, a dict or the path of a TOML file", reason=f"{_article(kind)} {kind}"
    )


# --- the edge: Python values to the core's JSON ------------------------------------------------------


def _plain_tables(data: Mapping[str, Any], non_finite: dict[str, float]) -> dict[str, Any]:
    """The scenario's tables as plain JSON values: string keys, and only what TOML can spell (strings,
    booleans, integers, numbers, lists, tables). Anything else is a ConfigError naming its key. A NaN or an
    infinity, which JSON cannot carry, goes to the core as its name (``"nan"``) so that the core says what
    the key allows in this scenario's kind; ``non_finite`` records where (see :func:`_check`)."""
    return {_key(name, ""): _plain(value, _key(name, ""), non_finite) for name, value in data.items()}


def _key(name: Any, prefix: str) -> str:
    where = f"{prefix}.{name}" if prefix else str(name)
    if not isinstance(name, str):
        raise ConfigError(where, name, "keys that are strings (names of tables and settings)")
    return where


def _plain(value: Any, where: str, non_finite: dict[str, float], depth: int = 0) -> Any:
    if depth > 8:
        raise ConfigError(where, Shown("(nested too deeply)"), "a value or a table of values")
    value = from_numpy(value)
    if isinstance(value, os.PathLike):  # a pathlib.Path for network.file
        value = os.fspath(value)
    if value is None or isinstance(value, (str, bool)):
        return value
    if isinstance(value, int):
        if not -(2**63) <= value < 2**64:  # (the core reads up to 2^64 − 1 exactly and names its own range)
            raise ConfigError(where, value, "a TOML integer (from -2^63 to 2^63 − 1)")
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            non_finite[where] = value
            return str(value)
        return value
    if isinstance(value, Mapping):
        return {k: _plain(v, _key(k, where), non_finite, depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v, f"{where}[{i}]", non_finite, depth + 1) for i, v in enumerate(value)]
    raise ConfigError(
        where, value, "a TOML value (a string, a boolean, an integer, a number, a list or a table)",
        reason=f"{_article(type(value).__name__)} {type(value).__name__}",
    )


def from_numpy(value: Any) -> Any:
    """A numpy scalar (``np.int64`` from ``np.arange``, ``np.bool_`` from a comparison) as the Python value
    it holds; anything else as it is. (numpy is imported only for a value that is numpy's already.)"""
    if type(value).__module__ == "numpy":
        import numpy as np

        if isinstance(value, np.generic):
            return value.item()
    return value


def _article(noun: str) -> str:
    return "an" if noun[:1].lower() in "aeiou" else "a"


def _check(tables: dict[str, Any], non_finite: Mapping[str, float]) -> dict[str, Any]:
    """The core's check of `tables`: the resolved scenario, or the core's problems raised. A key given a
    NaN or an infinity (``non_finite``) is refused with what the core allows there, whatever else the core
    found: a string key would have taken its name."""
    from flitcast import _core

    answer = json.loads(_core.check(json.dumps(tables)))
    problems = answer.get("problems", [])
    if non_finite:
        where, value = next(iter(non_finite.items()))
        allowed = next((p["allowed"] for p in problems if p["key"] == where), None)
        raise ConfigError(where, value, allowed or allowed_text(where.split("[")[0]) or "a finite number")
    if "ok" in answer:
        return answer["ok"]
    if "problems" in answer:
        first = problems[0]
        # (show_key: a key the user spelled with a newline must not break the one-line message)
        error = ConfigError(first["key"], Shown(first["value"]), first["allowed"], message=show_key(answer["message"]))
        error.problems = problems
        raise error
    raise InternalError(f"the core's scenario check failed: {answer.get('error', answer)!r:.300}")


__all__ = ["TABLES", "Scenario", "apply_overrides", "from_numpy", "load_scenario"]
