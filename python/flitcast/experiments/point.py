"""One simulated point of an experiment: its labels and its scenario."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flitcast.config import Scenario


@dataclass(frozen=True)
class Point:
    """One simulated point: labels (columns of results.csv, e.g. ``variant``, ``message_bytes``) and its scenario."""

    labels: Mapping[str, Any]
    scenario: Scenario
