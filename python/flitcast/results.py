"""The :class:`Result` of one simulated scenario."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from flitcast.config import Scenario
from flitcast.result_columns import METRIC_COLUMNS

if TYPE_CHECKING:
    import pandas as pd

def empty(value: Any) -> bool:
    """A metric, or a table's cell, with no value: None or NaN (the core sends one not reached as null)."""
    return value is None or (isinstance(value, float) and math.isnan(value))


#: result keys that are lists (per channel), kept out of the scalar metrics
CHANNEL_KEYS = ("channel_names", "channel_classes", "channel_flits", "channel_utilisation")


def class_column(statistic: str, channel_class: str) -> str:
    """The column of ``statistic`` (``mean``, ``max``) of one channel class's utilisation:
    ``channel_util_max_global``, ``channel_util_mean_levels_0_1``, ``channel_util_max_dimension_1``."""
    slug = "".join(c if c.isalnum() else "_" for c in channel_class.lower()).strip("_")
    return f"channel_util_{statistic}_{slug}"


def class_utilisation(classes: Iterable[str], utilisation: Iterable[float | None]) -> dict[str, float | None]:
    """Each channel class's mean and largest utilisation, in the order the channels meet the classes
    (the columns ``class_column`` names); empty (None, as the core's empty
    metrics) where no utilisation was measured (a closed run)."""
    of: dict[str, list[float]] = {}
    for name, value in zip(classes, utilisation, strict=True):
        # the core sends an unmeasured utilisation as null
        of.setdefault(name, []).extend([value] if value is not None and not math.isnan(value) else [])
    out: dict[str, float | None] = {}
    for name, measured in of.items():
        out[class_column("mean", name)] = sum(measured) / len(measured) if measured else None
        out[class_column("max", name)] = max(measured) if measured else None
    return out


#: where each channel class's columns go: after the network-wide utilisation
CLASS_COLUMNS_AFTER = "channel_util_max"


def is_class_column(column: str) -> bool:
    """A column ``class_column`` names."""
    return column.startswith(("channel_util_mean_", "channel_util_max_"))


def ordered_columns(columns: list[str]) -> list[str]:
    """The table order of a result row's columns: scenario keys (dotted) as given, then the documented
    metrics in METRIC_COLUMNS order with each channel class's columns after ``channel_util_max``, then
    anything else the core reports."""
    scenario = [c for c in columns if "." in c]
    classes = [c for c in columns if is_class_column(c)]
    metrics: list[str] = []
    for c in METRIC_COLUMNS:
        metrics += [c] if c in columns else []
        metrics += classes if c == CLASS_COLUMNS_AFTER else []
    return scenario + metrics + [c for c in columns if c not in scenario and c not in metrics]


@dataclass(eq=False)
class Result:
    """One simulated point: the scenario, its scalar metrics and each channel's class, flits and utilisation.

    ``metrics`` holds every scalar the core reports (docs/results.md), each channel class's mean and largest
    utilisation (``channel_util_mean_<class>``, ``channel_util_max_<class>``) and ``wall_seconds``.
    """

    scenario: Scenario
    metrics: dict[str, Any]
    channel_names: list[str] = field(default_factory=list, repr=False)
    channel_classes: list[str] = field(default_factory=list, repr=False)
    channel_flits: list[int] = field(default_factory=list, repr=False)
    channel_utilisation: list[float] = field(default_factory=list, repr=False)

    @classmethod
    def from_core(cls, scenario: Scenario, data: dict[str, Any], wall_seconds: float) -> Result:
        """Build from the core's ``ok`` payload."""
        # documented order first (the core's JSON object has no meaningful order), then anything new
        scalars = {k: v for k, v in data.items() if k not in CHANNEL_KEYS}
        # a point stored before the core named every channel's class and flits has no per-channel
        # data here: its class columns are empty rather than guessed
        channels = {k: list(data.get(k) or []) for k in CHANNEL_KEYS} if all(k in data for k in CHANNEL_KEYS) else {k: [] for k in CHANNEL_KEYS}
        scalars.update(class_utilisation(channels["channel_classes"], channels["channel_utilisation"]))
        scalars["wall_seconds"] = wall_seconds
        metrics = {k: scalars[k] for k in ordered_columns(list(scalars))}
        return cls(
            scenario=scenario,
            metrics=metrics,
            channel_names=channels["channel_names"],
            channel_classes=channels["channel_classes"],
            channel_flits=channels["channel_flits"],
            channel_utilisation=channels["channel_utilisation"],
        )

    @cached_property
    def channels(self) -> pd.DataFrame:
        """Every channel (what ``links.csv`` holds): ``channel`` (``r3.p5->r7``, ``t2->r0``), ``class``
        (``terminal``, or the network's: ``local`` / ``global``, a fat tree's levels, a HyperX's
        dimensions, else ``router``), ``flits`` carried in the window (all of a closed run) and
        ``utilisation``, flits per window cycle (empty for a closed workload)."""
        import pandas as pd

        return pd.DataFrame(
            {
                "channel": self.channel_names,
                "class": self.channel_classes,
                "flits": pd.Series(self.channel_flits, dtype="int64"),
                "utilisation": pd.Series(self.channel_utilisation, dtype="float64"),
            },
            columns=["channel", "class", "flits", "utilisation"],
        )

    @cached_property
    def by_class(self) -> pd.DataFrame:
        """Utilisation by channel class, in the order ``channels`` meets them: ``class``, ``channels``, the
        ``utilisation_mean`` and ``utilisation_max`` of its channels, and the channel at that maximum."""
        import pandas as pd

        channels = self.channels
        rows = []
        for name in dict.fromkeys(channels["class"]):
            of = channels[channels["class"] == name]
            top = of["utilisation"].idxmax() if of["utilisation"].notna().any() else None
            # (the mean and maximum are the table's columns: class_utilisation says them once)
            mean, most = (self.metrics.get(class_column(statistic, name)) for statistic in ("mean", "max"))
            rows.append(
                {
                    "class": name,
                    "channels": len(of),
                    "utilisation_mean": float("nan") if mean is None else mean,
                    "utilisation_max": float("nan") if most is None else most,
                    "busiest": channels.at[top, "channel"] if top is not None else None,
                }
            )
        return pd.DataFrame(rows, columns=["class", "channels", "utilisation_mean", "utilisation_max", "busiest"])

    def row(self) -> dict[str, Any]:
        """One tidy table row: every scenario parameter (dotted keys), every metric, and ``error``
        (empty: the column holds the message of a sweep point that failed)."""
        return {**self.scenario.flat(), **self.metrics, "error": ""}

    def to_frame(self) -> pd.DataFrame:
        """This result as a one-row DataFrame (the columns of results.csv)."""
        return frame_of([self])

    def __getitem__(self, metric: str) -> Any:
        return self.metrics[metric]


def frame_of(results: Iterable[Result]) -> pd.DataFrame:
    """A tidy table, one row per result: scenario columns (dotted keys), the metric columns, ``error``."""
    return frame([r.row() for r in results])


def frame(rows: list[dict[str, Any]]) -> pd.DataFrame:
    """The table of result rows, columns in ``ordered_columns`` order. A column with no value at all (a
    metric no point measured, every metric of failed points) is float, NaN, whichever pandas: pandas
    would leave the Nones it holds as objects."""
    import pandas as pd

    frame = pd.DataFrame(rows)
    if rows:
        frame = frame[ordered_columns(list(frame.columns))]
    return frame.astype({name: "float64" for name in frame.columns if frame[name].isna().all()})
