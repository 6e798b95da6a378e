"""The numbers a study states, drawn on our panel of its figure (marked "study"): the values of
flitcast/study_data/<id>.toml whose ``experiment`` and ``panel`` name the panel.

:func:`finish_panel` is the last call on every panel of every experiment, once its data, scales and
limits are drawn: it writes the log axes' ticks as plain numbers (flitcast.plot.plain_log_ticks) and draws
the study's values (:func:`draw_study_values`). Each value is drawn with the tolerance the claims read it
with, the figure's visible resolution (flitcast.experiments.verdicts.VISIBLE of the axis's span; on a log
axis the factor exp(VISIBLE · ln(high/low))), computed from the panel's final axis limits:

- a value on a bar of a bar chart (its ``series`` is a bar's name) is a short black line across its bar,
  its tolerance a shaded rectangle of the bar's width;
- any other is a dashed line across the axes at its ``y`` (or ``x``) in a shaded band of its tolerance; a
  stated range is the range (solid lines at its ends) widened by the tolerance;
- a value that is only the span of the study's own axis (``axis = true``) is said in a note, as is a value
  that lies off our panel's axis;
- a panel the study gives no number for says so in a small grey note (:func:`panel_note`), above the
  axes at their right, where it covers no data.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Sequence
from typing import Any

from flitcast.experiments.verdicts import VISIBLE
from flitcast.studies import StudyValue, values_of

__all__ = ["BAND_LABEL", "NO_NUMBER", "draw_study_values", "finish_panel", "panel_note", "panel_values", "tolerance"]

STUDY_COLOUR = "black"
#: the shading of a study value's tolerance
BAND_ALPHA = 0.18
#: what the legend calls a study value drawn with its tolerance
BAND_LABEL = "study ± visible resolution"
#: the note on a panel the study gives no number for
NO_NUMBER = "no number stated by the study"
#: the gid of a panel's note, and of the study's marks (the tests find them by it)
NOTE_GID = "study-note"
STUDY_GID = "study"
#: the note's size (points): small, under the title
NOTE_SIZE = 7
#: a legend entry's width (characters) before it wraps
LABEL_WIDTH = 32


def panel_values(experiment: str, panel: str) -> list[StudyValue]:
    """The stated values that belong on ``panel`` (a PNG's stem, e.g. ``fig7b``) of ``experiment``."""
    return [v for v in values_of(experiment) if panel in v.panels]


def finish_panel(ax: Any, experiment: str, panel: str, bars: Sequence[str] = (), legend_ax: Any = None, grid: bool = False) -> int:
    """The last call on a panel (its data, scales and limits drawn): log ticks as plain numbers, with
    ``grid`` a light grid at the major ticks, then the study's values for it (:func:`draw_study_values`).
    Returns how many values were drawn."""
    from flitcast.plot import plain_log_ticks

    if grid:
        ax.grid(True, which="major", alpha=0.3)
    for each in {id(a): a for a in (ax, legend_ax) if a is not None}.values():
        plain_log_ticks(each)
    return draw_study_values(ax, experiment, panel, bars=bars, legend_ax=legend_ax)


def tolerance(ax: Any, which: str, low: float, high: float) -> tuple[float, float]:
    """[low, high] widened by the visible resolution of ``ax``'s ``which`` axis ("x" or "y") as drawn now:
    VISIBLE of its span, or on a log axis the factor exp(VISIBLE · ln(top/bottom))."""
    bottom, top = sorted(ax.get_xlim() if which == "x" else ax.get_ylim())
    if (ax.get_xscale() if which == "x" else ax.get_yscale()) == "log":
        factor = math.exp(VISIBLE * math.log(top / bottom))
        return low / factor, high * factor
    half = VISIBLE * (top - bottom)
    return low - half, high + half


def draw_study_values(ax: Any, experiment: str, panel: str, bars: Sequence[str] = (), legend_ax: Any = None) -> int:
    """Draw the study's values for this panel on ``ax`` (module doc), its limits kept as they are; ``bars``
    are a bar chart's categories in order. The legend (of ``legend_ax``, default ``ax``) gains one entry
    per value ("study ± visible resolution", the bars' once); the axis notes, the values off the axis and,
    where the study states no value for the panel (an axis's span is none), :data:`NO_NUMBER` go in the
    panel's note (:func:`panel_note`). Returns how many values were drawn."""
    xlim, ylim = ax.get_xlim(), ax.get_ylim()
    notes: list[str] = []
    beyond: list[str] = []  # (stated values off this panel's axis: a quick run's shorter axis)
    entries: list[tuple[Any, str]] = []
    drawn = 0
    for v in panel_values(experiment, panel):
        notes += _axis_notes(v)
        if v.axis:
            continue
        if v.series in bars and v.y is not None:
            _on_bar(ax, list(bars).index(v.series), v.low_high)
            if not any(label == BAND_LABEL for _, label in entries):
                entries.append((_handle(), BAND_LABEL))
        elif v.y is not None or v.x is not None:
            which, at = ("y", v.y) if v.y is not None else ("x", v.x)
            assert at is not None
            low, high = at if isinstance(at, tuple) else (at, at)
            bottom, top = sorted(ylim if which == "y" else xlim)
            if high < bottom or low > top:
                beyond.append(_range(low, high))
                continue
            _across(ax, which, low, high)
            entries.append((_handle(low != high), textwrap.fill(BAND_LABEL + (f" ({v.series})" if v.series else ""), LABEL_WIDTH)))
        else:
            continue  # (a statement in words: no number to draw)
        drawn += 1
    ax.set_xlim(xlim)
    ax.set_ylim(ylim)
    if beyond:
        notes.append(f"study's {', '.join(beyond)}: beyond this axis")
    elif not drawn:
        notes.insert(0, NO_NUMBER)
    main = legend_ax if legend_ax is not None else ax
    panel_note(main, "; ".join(notes))
    if entries:
        _relegend(main, entries, outside=bool(bars))
    return drawn


def panel_note(ax: Any, text: str) -> Any:
    """A small grey note on ``ax``'s panel: just above the axes, at their right (under the title, which moves
    up to make room), where it covers no data, no bar and no legend. Returns the text (None for no text)."""
    if not text:
        return None
    note = ax.annotate(
        text, xy=(1.0, 1.0), xycoords="axes fraction", xytext=(0, 2), textcoords="offset points", ha="right",
        va="bottom", fontsize=NOTE_SIZE, color="dimgrey", fontstyle="italic", gid=NOTE_GID, annotation_clip=False,
    )
    title = ax.title
    if title.get_text():  # (above the note: the title's pad made one line of the note higher)
        ax.set_title(title.get_text(), fontsize=title.get_fontsize(), pad=6 + 1.4 * NOTE_SIZE)
    return note


def _axis_notes(v: StudyValue) -> list[str]:
    """What a value says of the study's axis: its span (``axis = true``), or the top of its latency axis
    (``axis_top_us``, study 004's Figs 9–13)."""
    unit = v.extra.get("unit", "")
    if v.axis and isinstance(v.y, tuple):
        return [f"study's axis: {_range(*v.y, dash='–')}{' ' + unit if unit else ''}"]
    if "axis_top_us" in v.extra:
        return [f"study's axis: 0–{int(v.extra['axis_top_us']):,} µs"]
    return []


def _range(low: float, high: float, dash: str = " to ") -> str:
    def shown(x: float) -> str:
        return f"{x:,.0f}" if float(x).is_integer() else f"{x:,.3g}"

    return shown(low) if low == high else f"{shown(low)}{dash}{shown(high)}"


def _across(ax: Any, which: str, low: float, high: float) -> None:
    """A stated value (low = high) or range across the axes, in its band of tolerance."""
    line, span = (ax.axhline, ax.axhspan) if which == "y" else (ax.axvline, ax.axvspan)
    wide_low, wide_high = tolerance(ax, which, low, high)
    span(wide_low, wide_high, color=STUDY_COLOUR, alpha=BAND_ALPHA, linewidth=0, zorder=1.5, label="_nolegend_", gid=STUDY_GID)
    if low == high:
        line(low, color=STUDY_COLOUR, linestyle="--", linewidth=1.2, zorder=4, label="_nolegend_", gid=STUDY_GID)
    else:
        for end in (low, high):
            line(end, color=STUDY_COLOUR, linestyle="-", linewidth=0.8, zorder=4, label="_nolegend_", gid=STUDY_GID)


def _on_bar(ax: Any, i: int, stated: tuple[float, float]) -> None:
    """A stated value on the i-th bar: a black line across it, its tolerance a shaded rectangle as wide."""
    from matplotlib.container import BarContainer
    from matplotlib.patches import Rectangle

    rects = [p for c in ax.containers if isinstance(c, BarContainer) for p in c.patches]
    left, width = (rects[i].get_x(), rects[i].get_width()) if i < len(rects) else (i - 0.4, 0.8)
    low, high = stated
    wide_low, wide_high = tolerance(ax, "y", low, high)
    ax.add_patch(Rectangle((left, wide_low), width, wide_high - wide_low, facecolor=STUDY_COLOUR, alpha=BAND_ALPHA, linewidth=0, zorder=4, label="_nolegend_", gid=STUDY_GID))
    for end in dict.fromkeys((low, high)):
        ax.plot([left, left + width], [end, end], color=STUDY_COLOUR, linewidth=2, solid_capstyle="butt", zorder=5, label="_nolegend_", gid=STUDY_GID)


def _handle(solid: bool = True) -> Any:
    """The legend's mark of a study value: its line (dashed for one number across the axes) over its band."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    line = Line2D([], [], color=STUDY_COLOUR, linestyle="-" if solid else "--", linewidth=1.2)
    return (Patch(facecolor=STUDY_COLOUR, alpha=BAND_ALPHA, linewidth=0), line)


def _relegend(ax: Any, entries: list[tuple[Any, str]], outside: bool) -> None:
    """The panel's legend again, now with the study's entries (and the ▲ notes of flitcast.plot.draw_latency),
    where it was and in its size; a bar chart's outside the axes, where it covers no bar."""
    from matplotlib.legend_handler import HandlerTuple

    from flitcast.plot import latency_legend

    old = ax.get_legend()
    kwargs: dict[str, Any] = {"handler_map": {tuple: HandlerTuple(ndivide=1)}}
    if old is not None and old.get_texts():
        kwargs.setdefault("fontsize", old.get_texts()[0].get_fontsize())
    kwargs.setdefault("fontsize", "small")
    if outside:
        kwargs |= {"loc": "upper left", "bbox_to_anchor": (1.01, 1.0), "borderaxespad": 0.0}
    latency_legend(ax, extra=entries, **kwargs)
