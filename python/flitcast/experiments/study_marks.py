"""The numbers a study states, drawn on our panel of its figure (marked "study"): the values of
flitcast/study_data/<id>.toml whose ``experiment`` and ``panel`` name the panel. A value on a bar of a
bar chart (its ``series`` is a bar's name) is a black diamond on that bar; any other is a line across
the axes at its ``y`` (or ``x``), or a band where the study gives a range."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flitcast.studies import StudyValue, values_of

__all__ = ["draw_study_values", "panel_values"]

STUDY_COLOUR = "black"


def panel_values(experiment: str, panel: str) -> list[StudyValue]:
    """The stated values that belong on ``panel`` (a PNG's stem, e.g. ``fig7b``) of ``experiment``."""
    return [v for v in values_of(experiment) if v.panel == panel]


def draw_study_values(ax: Any, experiment: str, panel: str, bars: Sequence[str] = ()) -> int:
    """Draw the study's values for this panel on ``ax``; ``bars`` are a bar chart's categories in order.
    Returns how many were drawn (labelled "study (series)" in the legend; the bars' diamonds once, "study")."""
    drawn = 0
    on_bars = 0
    for v in panel_values(experiment, panel):
        label: str | None = f"study ({v.series})" if v.series else "study"
        if v.series in bars and v.y is not None:
            label = "study" if on_bars == 0 else None
            on_bars += 1
            low, high = v.low_high
            x = list(bars).index(v.series)
            ax.errorbar([x], [(low + high) / 2], yerr=[[(high - low) / 2], [(high - low) / 2]], fmt="D", color=STUDY_COLOUR, markersize=6, zorder=5, label=label)
        elif v.y is not None:
            _across(ax.axhline, ax.axhspan, v.y, label)
        elif v.x is not None:
            _across(ax.axvline, ax.axvspan, v.x, label)
        else:
            continue
        drawn += 1
    if drawn:
        _relegend(ax)
    return drawn


def _relegend(ax: Any) -> None:
    """The panel's legend again, now with "study" (and the ▲ notes of flitcast.plot.draw_latency), in the
    size and columns it had."""
    from flitcast.plot import latency_legend

    old = ax.get_legend()
    fontsize = old.get_texts()[0].get_fontsize() if old is not None and old.get_texts() else "small"
    ncols = getattr(old, "_ncols", 1) if old is not None else 1
    latency_legend(ax, fontsize=fontsize, ncol=ncols)


def _across(line: Any, span: Any, at: float | tuple[float, float], label: str | None) -> None:
    if isinstance(at, tuple):
        span(at[0], at[1], color=STUDY_COLOUR, alpha=0.12, zorder=0, label=label)
    else:
        line(at, color=STUDY_COLOUR, linestyle="--", linewidth=1.2, zorder=4, label=label)
