"""flitcast: flit-level interconnection network simulation (Rust core, Python front).

```python
import flitcast
result = flitcast.run({"network": {"k": 4}, "workload": {"load": 0.2}})
print(result.metrics["latency_mean"])
```
"""

from importlib import metadata as _metadata

from flitcast import errors
from flitcast.api import run, sweep
from flitcast.config import Scenario, load_scenario
from flitcast.results import Result

try:
    __version__ = _metadata.version("flitcast")
except _metadata.PackageNotFoundError:  # running from a source tree without an install
    __version__ = "0+unknown"

__all__ = ["Result", "Scenario", "__version__", "errors", "load_scenario", "run", "sweep"]
