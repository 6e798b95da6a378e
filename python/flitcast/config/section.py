"""What every table model of a scenario shares (``sections.py`` is generated from the core's catalogue).

A table model is a typed view of a table the core has already checked and resolved: its fields are
the union of the keys every kind of the table may take, a key the chosen kind does not take is None.
Strict types make a disagreement between the core and the generated models an error, not a quiet
conversion (tests/test_config.py checks every key round-trips).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Section(BaseModel):
    """A table of a scenario, as resolved by the core."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)
