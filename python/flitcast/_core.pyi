"""Private extension built from crates/flitcast-py (docs/core-interface.md). Use flitcast.run / sweep."""

__all__ = ["Control", "_panic_for_test", "check", "collective_estimate", "memory_estimate", "run", "schema", "torus_multicast", "version"]

from typing import final

@final
class Control:
    """Handle on running simulations: interrupt() stops every run it was passed to within one cycle."""

    def __init__(self) -> None: ...
    def interrupt(self) -> None:
        """Ask every run using this control to stop (it returns an `interrupted` error)."""
    @property
    def interrupted(self) -> bool: ...
    @property
    def progress(self) -> tuple[int, int]:
        """(cycle reached, cycle the measurement window ends) of the latest run using this control."""

def version() -> str:
    """The core crate version."""

def run(scenario_json: str, control: Control | None = None) -> str:
    """Simulate one scenario (GIL released); returns an outcome: {"ok": RESULT} or {"error": ERROR}."""

def memory_estimate(scenario_json: str) -> str:
    """What a scenario needs in memory: {"ok": {"bytes", "limit_bytes", "parts": [...]}} or {"error": ...}."""

def torus_multicast(request_json: str) -> str:
    """A study-004 multicast plan on a unidirectional torus: {"ok": {"nodes", "parent", "children", "step",
    "relays", "hops"}} or {"error": ...}."""

def collective_estimate(scenario_json: str) -> str:
    """The alpha-beta-gamma estimate of a scenario's collective, without simulating it: {"ok": {"members",
    "rank_cycles", "completion_cycles"}} or {"error": ...}."""

def schema() -> str:
    """JSON: the key catalogue, {"sections": [[name, doc, [key declaration, ...]]], "rules", "conditional",
    "moved"} (flitcast.catalogue reads it)."""

def check(scenario_json: str) -> str:
    """Check a scenario's tables: {"ok": {"scenario", "minimal", "derived", "warnings"}} or
    {"problems": [{"key", "value", "allowed", "reason", "message"}, ...], "message"}."""

def _panic_for_test() -> str:
    """Panic inside the guard that wraps every simulation; returns the resulting outcome (an internal error)."""
