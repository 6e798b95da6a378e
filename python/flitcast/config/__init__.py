"""Scenario configuration: the :class:`Scenario` and its tables (``sections.py``, typed models generated
from the core's key catalogue), file reading (``files.py``). docs/config.md lists every key.

The public names are imported on first use, so that reading a file or generating the models does not
need the models (``flitcast.docgen`` writes ``sections.py`` itself).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flitcast.config.files import read_scenario_file
    from flitcast.config.scenario import Scenario, load_scenario
    from flitcast.config.sections import SECTIONS

__all__ = ["SECTIONS", "Scenario", "load_scenario", "read_scenario_file"]

_LAZY = {
    "Scenario": "flitcast.config.scenario",
    "load_scenario": "flitcast.config.scenario",
    "read_scenario_file": "flitcast.config.files",
    "SECTIONS": "flitcast.config.sections",
}


def __getattr__(name: str) -> Any:
    module_name = _LAZY.get(name)
    if module_name is None:
        raise AttributeError(f"module 'flitcast.config' has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(module_name), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
