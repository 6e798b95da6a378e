"""The sources of the experiments: what each is (citation, its system in two sentences) and the numbers it
states, one data file per source (``study_data/<id>.toml``). The claims, ``flitcast.analytic``'s default
parameters and the reproduction report read the numbers from there, so each is written once.

A source is one of the five studies flitcast reproduces (ids ``000`` … ``004``: the experiment rebuilds
the study's own figure), or the paper behind an experiment of our own (``ours = true``, ids such as
``kim2008``: the network and figure are ours, the statements judged are the paper's, docs/experiments.md).
An experiment names its source by the first word of its ``study`` text.

A value is one number the study states (``y``, or ``x`` for a position on a panel's x-axis: a load, a
message size) or a range (``[low, high]``), where it is stated (``where``), and, where it belongs to a
figure, the experiment and the panels whose axes show it (``experiment``, ``panel``: a PNG's stem, or a
list of them; ``series``, ``quantity``): the report draws those on the panel, marked "study"
(flitcast.experiments.study_marks). A value that is only the span of the study's own axis (``axis =
true``, its tick labels: not data) is said on its panel in a note. A value of an experiment that no panel
shows (a ratio, a model parameter) says why in ``undrawn``.
"""

from __future__ import annotations

import functools
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["OWN_IDS", "SOURCE_IDS", "STUDY_IDS", "Study", "StudyValue", "source_id", "studies", "study", "value", "values_of"]

DATA = Path(__file__).with_name("study_data")
#: the studies flitcast reproduces
STUDY_IDS = ("000", "001", "002", "003", "004")
#: the papers behind experiments of our own (their data files say ``ours = true``)
OWN_IDS = ("kim2008", "thakur2005")
SOURCE_IDS = STUDY_IDS + OWN_IDS


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
    #: the PNG stems of the experiment's panels that show it
    panels: tuple[str, ...] = ()
    series: str = ""
    #: the span of the study's axis (its surviving tick labels), not data: a note on the panel
    axis: bool = False
    #: why no panel shows it (a ratio, a model parameter), for a value of an experiment without ``panel``
    undrawn: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def number(self) -> float:
        """``y`` when it is one number (a claim's threshold); a range or no ``y`` is a bug in the caller."""
        if not isinstance(self.y, float):
            raise TypeError(f"study value {self.name} is {self.y!r}, not one number")
        return self.y

    @property
    def x_number(self) -> float:
        """``x`` when it is one number (where on its axis the study places a value); else a bug in the caller."""
        if not isinstance(self.x, float):
            raise TypeError(f"study value {self.name} is at {self.x!r}, not at one number")
        return self.x

    @property
    def low_high(self) -> tuple[float, float]:
        """``y`` as a range (a single number is the range from it to itself)."""
        if isinstance(self.y, tuple):
            return self.y
        number = self.number
        return number, number


@dataclass(frozen=True)
class Study:
    """One source: its citation, its system in two sentences, and the numbers it states."""

    id: str
    authors: str
    title: str
    published: str
    system: str
    experiments: str
    values: dict[str, StudyValue]
    #: the paper behind an experiment of our own, not a study whose figures we rebuild
    ours: bool = False

    @property
    def name(self) -> str:
        """How the report names it: the id and the first author ("000 Sivaram et al.")."""
        first = self.authors.split(",")[0].split()[-1]
        return f"{self.id} {first} et al."

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


KNOWN = {"where", "quantity", "y", "x", "experiment", "panel", "series", "axis", "undrawn"}


def _panels(raw: Any, where: str) -> tuple[str, ...]:
    if raw is None:
        return ()
    panels = (raw,) if isinstance(raw, str) else tuple(raw) if isinstance(raw, list) else None
    if panels is None or not all(isinstance(p, str) and p for p in panels):
        raise ValueError(f"{where}: panel {raw!r} is neither a PNG's stem nor a list of them")
    return panels


def _load(study_id: str) -> Study:
    path = DATA / f"{study_id}.toml"
    with path.open("rb") as f:
        data = tomllib.load(f)
    head = data["study"]
    if head["id"] != study_id or bool(head.get("ours", False)) != (study_id in OWN_IDS):
        raise ValueError(f"{path.name}: id {head['id']!r} and ours = {head.get('ours', False)} disagree with its file name and OWN_IDS")
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
            panels=_panels(raw.get("panel"), where),
            series=raw.get("series", ""),
            axis=bool(raw.get("axis", False)),
            undrawn=raw.get("undrawn", ""),
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
        ours=bool(head.get("ours", False)),
    )


@functools.cache
def studies() -> dict[str, Study]:
    """Every source, by id: the studies, then the papers behind our own experiments."""
    return {i: _load(i) for i in SOURCE_IDS}


def source_id(text: str) -> str:
    """The source id an experiment's ``study`` text starts with ("003 Zhou, …" -> "003")."""
    return text.split(maxsplit=1)[0]


def study(text: str) -> Study:
    """One source by id ("000", "kim2008"), or by an experiment's ``study`` text, which starts with it."""
    return studies()[source_id(text)]


def value(study_id: str, name: str) -> StudyValue:
    """A number the study states, by its name in the study's data file."""
    return study(study_id).values[name]


def values_of(experiment: str) -> list[StudyValue]:
    """The stated numbers that belong to ``experiment``'s figure (its ``experiment`` field)."""
    return [v for s in studies().values() for v in s.values.values() if v.experiment == experiment]
