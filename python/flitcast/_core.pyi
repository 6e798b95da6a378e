"""Private extension built from crates/flitcast-py (docs/core-interface.md). Use flitcast.run / sweep."""

__all__ = ["version", "run", "run_many", "catalogue", "_panic_for_test"]

def version() -> str:
    """The core crate version."""

def run(scenario_json: str) -> str:
    """Simulate one scenario (GIL released); returns an outcome: {"ok": RESULT} or {"error": ERROR}."""

def run_many(scenario_jsons: list[str], threads: int = 0) -> list[str]:
    """Simulate many scenarios on `threads` threads (0 = all cores), GIL released; outcomes in input order."""

def catalogue() -> str:
    """JSON: the component registry, {family: [{"name", "doc"}]}."""

def _panic_for_test() -> str:
    """Panic inside the guard that wraps every simulation; returns the resulting outcome (an internal error)."""
