"""flitcast: flit-level interconnection network simulation (Rust core, Python front).

```python
import flitcast
result = flitcast.run({"network": {"k": 4}, "workload": {"load": 0.2}})
print(result.metrics["latency_mean"])
```
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from flitcast import errors

if TYPE_CHECKING:
    from flitcast.api import run
    from flitcast.config import Scenario, load_scenario
    from flitcast.results import Result
    from flitcast.sweeps import sweep
    from flitcast.sweeps.cartesian import grid

__all__ = ["Result", "Scenario", "__version__", "errors", "grid", "load_scenario", "run", "sweep"]

# The public names are imported on first use: `flitcast --help` and `import flitcast.cli` then start
# without pydantic (tests/test_import_cost.py keeps it that way).
_LAZY = {
    "run": "flitcast.api",
    "sweep": "flitcast.sweeps",
    "grid": "flitcast.sweeps",
    "Scenario": "flitcast.config",
    "load_scenario": "flitcast.config",
    "Result": "flitcast.results",
}


def __getattr__(name: str) -> Any:
    if name == "__version__":
        return _version()
    module_name = _LAZY.get(name)
    if module_name is None:
        raise AttributeError(f"module 'flitcast' has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(module_name), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


def _version() -> str:
    from importlib import metadata

    try:
        version = metadata.version("flitcast")
    except metadata.PackageNotFoundError:  # running from a source tree without an install
        version = "0+unknown"
    globals()["__version__"] = version
    return version
