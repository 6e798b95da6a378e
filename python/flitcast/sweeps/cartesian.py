"""The points of a sweep: the cartesian product of varied keys over a base scenario, and a point in words."""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from flitcast.api import ScenarioLike
from flitcast.config import Scenario, load_scenario, read_scenario_file
from flitcast.config.scenario import apply_overrides
from flitcast.errors import ConfigError, FlitcastError

__all__ = ["grid"]


def grid(base: ScenarioLike, vary: Mapping[str, Sequence[Any]]) -> list[Scenario]:
    """The cartesian product of ``vary`` (dotted key -> values) applied to ``base``; last key varies fastest.

    ``vary`` must be a mapping whose values are lists or tuples (not a single value, not a string);
    anything else raises :class:`ConfigError`. The points are checked, not the base given as a dict or a
    file: a closed collective's file (no warm-up) swept over ``workload.load`` with a warm-up set is a grid
    of open workloads that each may have one.
    """
    point = _point_maker(base)
    if not isinstance(vary, Mapping):
        raise ConfigError(
            "vary", type(vary).__name__, "a mapping of dotted keys to lists of values, e.g. {'workload.load': [0.1, 0.2]}"
        )
    for key, values in vary.items():
        if isinstance(values, (str, bytes)) or not isinstance(values, (Sequence, range)):
            raise ConfigError(str(key), values, "a list or tuple of the values to vary over, e.g. [0.1, 0.2]")
    keys = list(vary)
    points = []
    for index, values in enumerate(itertools.product(*vary.values())):
        overrides = dict(zip(keys, values, strict=True))
        try:
            points.append(point(overrides))
        except FlitcastError as exc:
            exc.add_context(f"sweep point {index} ({_show_overrides(overrides)})")
            raise
    return points


def _point_maker(base: ScenarioLike) -> Callable[[Mapping[str, Any]], Scenario]:
    """What makes a point of ``base`` from its overrides: the base's ``with_overrides`` where the base is a
    scenario on its own, else (a dict or file that is one only with the overrides) its tables with the
    overrides, checked as a whole."""
    if isinstance(base, (Mapping, str, os.PathLike)):
        data = dict(base) if isinstance(base, Mapping) else read_scenario_file(base)[0]
        try:
            base = load_scenario(data)
        except ConfigError:
            return lambda overrides: Scenario.model_validate(apply_overrides(data, overrides))
    return load_scenario(base).with_overrides


def _show_overrides(overrides: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={v!r}" for k, v in overrides.items()) or "no overrides"
