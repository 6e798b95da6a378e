"""The five studies: what each is (citation, its system in two sentences) and the numbers it states, one
data file per study (``study_data/<id>.toml``). The claims, ``flitcast.analytic``'s default
parameters and the reproduction report read the numbers from there, so each is written once.

A value is one number the study states (``y``, or ``x`` for a position on the load axis) or a range
(``[low, high]``), where it is stated (``where``), and, where it belongs to a figure, the experiment and
panel whose axes show it (``experiment``, ``panel``, ``series``, ``quantity``): the report draws those
on the panel, marked "study".
"""

from __future__ import annotations

import functools
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["STUDY_IDS", "Study", "StudyValue", "studies", "study", "value", "values_of"]

DATA = Path(__file__).with_name("study_data")
STUDY_IDS = ("000", "001", "002", "003", "004")


@dataclass(frozen=True)
class StudyValue:
    """A number the study states."""

    name: str
    where: str
    quantity: str = ""
    #: a number, or a (low, high) range; None where the study gives only ``x`` (or nothing numeric)
    y: float | tuple[float, float] | None = None
    x: float | tuple[float, float] | None = None
    experiment: str = ""
    panel: str = ""
    series: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def number(self) -> float:
        """``y`` when it is one number (a claim's threshold); a range or no ``y`` is a bug in the caller."""
        if not isinstance(self.y, float):
            raise TypeError(f"study value {self.name} is {self.y!r}, not one number")
        return self.y

    @property
    def low_high(self) -> tuple[float, float]:
        """``y`` as a range (a single number is the range from it to itself)."""
        if isinstance(self.y, tuple):
            return self.y
        number = self.number
        return number, number


@dataclass(frozen=True)
class Study:
    """One study: its citation, its system in two sentences, and the numbers it states."""

    id: str
    authors: str
    title: str
    published: str
    system: str
    experiments: str
    values: dict[str, StudyValue]

    @property
    def citation(self) -> str:
        return f"{self.authors}. {self.title}. {self.published}."


def _number_or_range(raw: Any, where: str) -> float | tuple[float, float] | None:
    if raw is None:
        return None
    if isinstance(raw, list) and len(raw) == 2 and all(isinstance(v, int | float) for v in raw):
        low, high = float(raw[0]), float(raw[1])
        if low > high:
            raise ValueError(f"{where}: range [{low}, {high}] runs backwards")
        return low, high
    if isinstance(raw, int | float) and not isinstance(raw, bool):
        return float(raw)
    raise ValueError(f"{where}: {raw!r} is neither a number nor a [low, high] range")


KNOWN = {"where", "quantity", "y", "x", "experiment", "panel", "series"}


def _load(study_id: str) -> Study:
    path = DATA / f"{study_id}.toml"
    with path.open("rb") as f:
        data = tomllib.load(f)
    head = data["study"]
    values = {}
    for name, raw in data.get("values", {}).items():
        where = f"{path.name}, values.{name}"
        if "where" not in raw:
            raise ValueError(f"{where}: says not where the study states it ('where')")
        values[name] = StudyValue(
            name=name,
            where=raw["where"],
            quantity=raw.get("quantity", ""),
            y=_number_or_range(raw.get("y"), where),
            x=_number_or_range(raw.get("x"), where),
            experiment=raw.get("experiment", ""),
            panel=raw.get("panel", ""),
            series=raw.get("series", ""),
            extra={k: v for k, v in raw.items() if k not in KNOWN},
        )
    return Study(
        id=head["id"],
        authors=head["authors"],
        title=head["title"],
        published=head["published"],
        system=" ".join(head["system"].split()),
        experiments=head["experiments"],
        values=values,
    )


@functools.cache
def studies() -> dict[str, Study]:
    """Every study, by id."""
    return {i: _load(i) for i in STUDY_IDS}


def study(study_id: str) -> Study:
    """One study by id ("000" … "004"); an experiment's ``study`` text starts with it."""
    return studies()[study_id[:3]]


def value(study_id: str, name: str) -> StudyValue:
    """A number the study states, by its name in the study's data file."""
    return study(study_id).values[name]


def values_of(experiment: str) -> list[StudyValue]:
    """The stated numbers that belong to ``experiment``'s figure (its ``experiment`` field)."""
    return [v for s in studies().values() for v in s.values.values() if v.experiment == experiment]
