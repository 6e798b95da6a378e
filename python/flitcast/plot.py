"""Plots of sweep tables (matplotlib is imported only when a plot is drawn, with the Agg backend).

A sweep's plot (:func:`plot_sweep`) depends on its workload:

- an open workload (a load axis): latency and accepted load against the load applied —
  ``latency_vs_load.png``. The x-axis is ``effective_load`` (flits of the operations times their
  destinations, m·B_i of study 000 §7.2) wherever a multicast makes it differ from ``offered_load``,
  else ``offered_load`` (they are equal for unicast traffic). The grey dotted line is what every
  delivered flit would give: accepted = effective, times (M + ⌈M/P⌉·H)/M where multidestination worms
  carry H header flits per packet (``accepted_load`` counts every flit ejected, headers too);
- a closed workload (``batch``, ``torus_multicast``, one ``collective``: a fixed set of operations run to
  completion, no load axis; the table tells it by its empty ``source_queue_flits``): ``completion_cycles``
  and ``latency_mean`` against the first varied key — ``completion_vs_<key>.png``.

Every latency, delay or completion time any plot of the project draws (these sweep plots and every
experiment's figures) goes through :func:`draw_latency`, which keeps three rules (a point is past
saturation where the core marks it ``saturated``: flitcast.saturation, docs/results.md "Saturated"):

1. the curve is drawn through the points not past saturation only (the line breaks at a point past it);
   a run past saturation ends early and its latency means nothing — drawn, it makes a curve that falls;
2. where a curve goes past saturation (for a closed workload: where its points stop completing) a ▲ in
   the curve's colour at the top of the axes marks the first point past it, whatever its latency: one ▲
   per run of such points, not one per point (a row of ▲ along the top reads as data). Curves that go
   past saturation at the same x stack their ▲ one below the other, so that every colour shows; a second
   ▲ of the same colour at the same x (two quantities of one curve) is not drawn. The legend says what ▲
   means;
3. a 95% interval is drawn only at a point not past saturation whose interval is finite; its lower end is
   clipped at zero on a linear axis, and on a log axis an interval reaching zero is not drawn at all
   (zero is not on the axis: clipped to the axis bottom it would read as a bound it is not).

The choice of a log latency axis reads the points not past saturation alone. Accepted load is a result
past saturation too: those panels still draw every point, the ones past saturation hollow.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

from flitcast.errors import ConfigError
from flitcast.saturation import saturated

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "INCOMPLETE_NOTE",
    "PAST_GID",
    "PAST_NOTE",
    "bar_values",
    "closed_workload",
    "draw_latency",
    "empty_panel",
    "first_past",
    "header_factor",
    "latency_legend",
    "legend_key",
    "load_column",
    "log_scale_wanted",
    "model_plot",
    "plain_log_ticks",
    "plain_number",
    "plot_completion",
    "plot_latency_vs_load",
    "plot_sweep",
    "sweep_plot_name",
    "x_key",
]

LOAD_KEY = "workload.load"
def closed_workload(frame: pd.DataFrame) -> bool:
    """Every point of ``frame`` that ran ran a closed workload (it has no load axis): the core leaves a closed
    workload's ``source_queue_flits`` empty and an open one's never (docs/results.md), whichever program it
    is and whatever its keys."""
    if "source_queue_flits" not in frame.columns:
        return False
    ran = frame[frame["error"] == ""] if "error" in frame.columns else frame
    return len(ran) > 0 and bool(ran["source_queue_flits"].isna().all())


def has_estimate(frame: pd.DataFrame) -> bool:
    """Some point of ``frame`` is a collective with its α-β-γ estimate (``estimate_cycles``)."""
    return "estimate_cycles" in frame.columns and bool(frame["estimate_cycles"].notna().any())


def contention(frame: pd.DataFrame) -> pd.Series:
    """What contention cost each collective: its simulated completion over its α-β-γ estimate (empty where
    it did not complete)."""
    return frame["completion_cycles"] / frame["estimate_cycles"]


def load_column(frame: pd.DataFrame) -> str:
    """The load to plot against: ``effective_load`` if it differs from ``offered_load`` anywhere in
    ``frame`` (multicast), else ``offered_load``."""
    if "effective_load" not in frame.columns:
        return "offered_load"
    offered = frame["offered_load"].astype(float)
    effective = frame["effective_load"].astype(float)
    both = offered.notna() & effective.notna()
    differs = ((offered - effective).abs() > 1e-9 * effective.abs().clip(lower=1e-12))[both]
    return "effective_load" if bool(differs.any()) else "offered_load"


def header_factor(row: Any) -> float:
    """Flits ejected per payload flit of an operation: (M + ⌈M/P⌉·H)/M for a message of M flits in
    packets of at most P flits, each carrying H header flits (``workload.header_flits``, multidestination
    worms); 1 without headers. ``row`` is a row (or any mapping) of a results table."""
    headers = _number(row, "workload.header_flits")
    message = _number(row, "workload.message_flits")
    packet = _number(row, "workload.packet_flits")
    if not headers or not message or not packet:
        return 1.0
    return (message + math.ceil(message / packet) * headers) / message


def _number(row: Any, key: str) -> float:
    try:
        value = float(row[key])
    except (KeyError, TypeError, ValueError):
        return 0.0
    return value if math.isfinite(value) else 0.0


def x_key(frame: pd.DataFrame, varied: Sequence[str]) -> str:
    """The x-axis of a closed workload's sweep: the first varied key with numbers for values, else the
    first varied key."""
    present = [k for k in varied if k in frame.columns]
    if not present:
        raise ValueError(f"none of the varied keys {list(varied)} is a column of the table")
    return next((k for k in present if _numeric(frame[k])), present[0])


def _numeric(column: pd.Series) -> bool:
    from pandas.api.types import is_bool_dtype, is_numeric_dtype

    return is_numeric_dtype(column) and not is_bool_dtype(column)


def sweep_plot_name(frame: pd.DataFrame, varied: Sequence[str]) -> str:
    """The file name of a sweep's plot: ``latency_vs_load.png`` for an open workload,
    ``completion_vs_<key>.png`` (the varied key on the x-axis, without its table) for a closed one."""
    if closed_workload(frame):
        return f"completion_vs_{x_key(frame, varied).split('.', 1)[-1]}.png"
    return "latency_vs_load.png"


def plot_sweep(frame: pd.DataFrame, varied: Sequence[str], directory: str | os.PathLike[str]) -> Path:
    """Draw a sweep's plot into ``directory`` (module doc) and return its path."""
    path = Path(directory) / sweep_plot_name(frame, varied)
    if closed_workload(frame):
        plot_completion(frame, varied, path)
    else:
        plot_latency_vs_load(frame, varied, path)
    return path


def _label(keys: Sequence[str], values: Sequence[Any]) -> str:
    return ", ".join(f"{k.split('.', 1)[-1]}={v}" for k, v in zip(keys, values, strict=True))


def _parts(data: pd.DataFrame, groups: Sequence[str]) -> list[tuple[tuple[Any, ...], pd.DataFrame]]:
    """(values of the group keys, rows) per combination of ``groups``, in order of appearance."""
    if not groups:
        return [((), data)]
    # list-valued parameters are not hashable; group on their text
    keyed = data.assign(**{f"__{k}": data[k].map(repr) for k in groups})
    return [(tuple(g[k].iloc[0] for k in groups), g) for _, g in keyed.groupby([f"__{k}" for k in groups], sort=False)]


# --- latencies past saturation -------------------------------------------------------------------------------

#: the gid of the ▲ markers that stand for points past saturation (the tests find them by it)
PAST_GID = "past-saturation"
#: how high a ▲ sits, as a fraction of the axes' height (inside the top edge, so it is never cut off) …
PAST_Y = 0.97
#: … and how much lower each further curve's ▲ at the same x sits, so that every curve's colour shows where
#: several go past saturation at one x (down to PAST_Y_MIN at most)
PAST_STEP = 0.035
PAST_Y_MIN = 0.55
#: what ▲ means, beside a grey ▲ in the legend of an open workload's latency panel …
PAST_NOTE = "past saturation from here: no latency"
#: … and of a closed workload's (completion, or the latency of operations that did not all complete)
INCOMPLETE_NOTE = "incomplete from here: no completion"
#: the notes each axes' ▲ markers call for, in the order they were drawn (read by :func:`latency_legend`)
_NOTES: WeakKeyDictionary[Any, list[str]] = WeakKeyDictionary()
#: per axes, the colours of the ▲ drawn at each x (a further one at that x sits one row lower)
_MARKED: WeakKeyDictionary[Any, dict[float, list[Any]]] = WeakKeyDictionary()
#: per axes, the keywords its legend was last drawn with (:func:`latency_legend`: drawn again with them)
_LEGEND_KWARGS: WeakKeyDictionary[Any, dict[str, Any]] = WeakKeyDictionary()
#: a legend of more entries than this goes outside the axes, to their right, where it covers no data
LEGEND_INSIDE_MAX = 5


def first_past(x: Any, past: Any) -> Any:
    """Where a run of points past saturation starts: a mask of the points past it whose predecessor in x
    is not (the ▲ of :func:`draw_latency`)."""
    import numpy as np

    x = np.asarray(x, dtype=float)
    past = np.asarray(past, dtype=bool)
    order = np.argsort(x, kind="stable")
    ordered = past[order]
    starts = ordered & ~np.concatenate([[False], ordered[:-1]])
    out = np.zeros_like(past)
    out[order] = starts
    return out


def draw_latency(
    ax: Any, x: Any, y: Any, past: Any, *, ci: Any = None, log: bool = False, note: str = PAST_NOTE, **style: Any
) -> Any:
    """Draw one latency (delay, completion) curve on ``ax`` by the module's rules: the line through the points
    where ``past`` is false, a ▲ in the line's colour at the top of the axes where a run of points where it
    is true starts (:func:`first_past`; below the ▲ of other curves at the same x),
    and, with ``ci`` (95% half-widths), an interval at each point not past saturation where it is finite —
    clipped at zero, or on a ``log`` axis (the caller decides the scale first) not drawn where it reaches
    zero. ``style`` goes to ``ax.plot`` (``label``, ``color``, ``marker`` …); ``note`` is what ▲ means, for
    :func:`latency_legend`. Returns the line."""
    import numpy as np
    from matplotlib.colors import to_rgba

    x = np.asarray(x)
    y = np.asarray(y, dtype=float)
    past = np.broadcast_to(np.asarray(past, dtype=bool), y.shape)
    (line,) = ax.plot(x, np.where(past, np.nan, y), **style)
    color = line.get_color()
    if ci is not None:
        half = np.asarray(ci, dtype=float)
        valid = ~past & np.isfinite(y) & (y > 0) & np.isfinite(half) & (half > 0)
        if log:
            valid &= half < y
        if valid.any():
            lower = np.minimum(half[valid], y[valid])  # never below zero
            ax.errorbar(x[valid], y[valid], yerr=[lower, half[valid]], fmt="none", ecolor=color, capsize=3, label="_nolegend_")
    if past.any():
        marked = _MARKED.setdefault(ax, {})
        xs, heights = [], []
        for at in x[first_past(x.astype(float), past)]:
            here = marked.setdefault(float(at), [])
            if to_rgba(color) in here:  # (this colour's ▲ is there already: another quantity of the same curve)
                continue
            heights.append(max(PAST_Y - PAST_STEP * len(here), PAST_Y_MIN))
            here.append(to_rgba(color))
            xs.append(at)
        if xs:
            ax.plot(
                xs, heights, linestyle="none", marker="^", markersize=7, color=color,
                transform=ax.get_xaxis_transform(), clip_on=False, gid=PAST_GID, label="_nolegend_", zorder=3,
            )
        # (the load axis still spans every load run, those past saturation too: nothing drawn, x kept)
        ax.plot(x[past], np.full(int(past.sum()), PAST_Y), linestyle="none", marker="none", transform=ax.get_xaxis_transform(), label="_nolegend_")
        notes = _NOTES.setdefault(ax, [])
        if note not in notes:
            notes.append(note)
    return line


def latency_legend(ax: Any, extra: Sequence[tuple[Any, str]] = (), **kwargs: Any) -> Any:
    """``ax.legend(**kwargs)`` with, after the curves and the ``extra`` (handle, label) pairs, one grey ▲
    entry per note :func:`draw_latency` drew markers for on ``ax``; no legend where there is nothing to
    list. A legend of more than :data:`LEGEND_INSIDE_MAX` entries goes outside the axes, to their right,
    unless ``kwargs`` place it. Drawn again (flitcast.experiments.study_marks), it keeps the keywords it was
    drawn with. Returns the legend (or None)."""
    from matplotlib.lines import Line2D

    kwargs = {**_LEGEND_KWARGS.get(ax, {}), **kwargs}
    _LEGEND_KWARGS[ax] = dict(kwargs)
    handles, labels = ax.get_legend_handles_labels()
    for handle, label in extra:
        handles.append(handle)
        labels.append(label)
    for note in _NOTES.get(ax, []):
        handles.append(Line2D([], [], linestyle="none", marker="^", markersize=7, color="grey"))
        labels.append(note)
    if not handles:
        return None
    if len(handles) > LEGEND_INSIDE_MAX and "loc" not in kwargs and "bbox_to_anchor" not in kwargs:
        kwargs = {**kwargs, "loc": "upper left", "bbox_to_anchor": (1.01, 1.0), "borderaxespad": 0.0}
    return ax.legend(handles, labels, **kwargs)


def legend_key(ax: Any, colours: Sequence[tuple[str, Any]], styles: Sequence[tuple[str, dict[str, Any]]]) -> None:
    """A legend of two keys instead of one entry per curve, for a panel whose curves cross two factors (a
    colour per m, a line style and marker per scheme): one coloured line per ``colours`` entry (label,
    colour), then one black line per ``styles`` entry (label, ``ax.plot`` style). Draw the curves
    themselves with ``label="_nolegend_"``; the entries are empty lines on ``ax`` that the legend lists."""
    for label, colour in colours:
        ax.plot([], [], color=colour, linestyle="-", label=label)
    for label, style in styles:
        ax.plot([], [], **{"color": "black", **style, "label": label})


def bar_values(ax: Any, bars: Any, fmt: str = "{:.2f}") -> None:
    """Each bar's value written inside it at its foot, in white, where marks at the bars' tops (the study's
    values: flitcast.experiments.study_marks) cannot cover it; above a bar too short to hold it, in black.
    Call it with the y-limits set."""
    bottom, top = ax.get_ylim()
    for rect in bars.patches:
        height = rect.get_height()
        x = rect.get_x() + rect.get_width() / 2
        if height > 0.12 * (top - bottom):
            ax.annotate(fmt.format(height), (x, rect.get_y()), xytext=(0, 3), textcoords="offset points", ha="center", va="bottom", fontsize=8, color="white", fontweight="bold")
        else:
            ax.annotate(fmt.format(height), (x, rect.get_y() + height), xytext=(0, 2), textcoords="offset points", ha="center", va="bottom", fontsize=8)


def empty_panel(ax: Any, text: str, keep_ticks: bool = False) -> None:
    """A panel with nothing of this run to draw (a quick run leaves some out): ``text`` in its middle says
    why, and no legend lists curves it does not draw; its ticks go too unless ``keep_ticks`` (axes that share
    them with others)."""
    ax.text(0.5, 0.5, text, transform=ax.transAxes, ha="center", va="center", fontsize=8, color="dimgrey")
    if ax.get_legend() is not None:
        ax.get_legend().remove()
    _LEGEND_KWARGS.pop(ax, None)
    if not keep_ticks:
        ax.set_xticks([])
        ax.set_yticks([])


def plain_log_ticks(ax: Any) -> None:
    """The tick labels of ``ax``'s log axes as plain numbers (20, 50, 100, 1,000; 0.5; 32, 1,024 on a base-2
    axis), not as powers ("2×10^1", "2^10"): the minor ticks labelled where the axis spans too few decades
    for the major ones alone, as matplotlib's log formatter decides. An axis whose tick labels the caller
    wrote (``set_xticks(ticks, labels)``) keeps them."""
    from matplotlib.ticker import LogFormatter

    class Plain(LogFormatter):
        """matplotlib's log formatter (it decides which ticks to label), writing each number plainly."""

        def _num_to_string(self, x: float, vmin: float, vmax: float) -> str:
            return plain_number(x)

    from matplotlib.ticker import FixedLocator

    for axis, scale in ((ax.xaxis, ax.get_xscale()), (ax.yaxis, ax.get_yscale())):
        if scale == "log" and not isinstance(axis.get_major_locator(), FixedLocator):  # (ticks the caller placed keep their labels)
            base = getattr(axis.get_transform(), "base", 10)
            axis.set_major_formatter(Plain(base=base))
            axis.set_minor_formatter(Plain(base=base, labelOnlyBase=False))


def plain_number(value: float) -> str:
    """A number as a reader writes it on a tick: 1,000, 20, 2.5, 0.5."""
    if value >= 1:
        return f"{value:,.0f}" if float(value).is_integer() else f"{value:,.3g}"
    return f"{value:.3g}"


def log_scale_wanted(latencies: Any, past: Any = False, spread: float = 20.0) -> bool:
    """Should a latency (or any) axis be logarithmic: do the positive values not past saturation span more
    than ``spread`` times? (A value past saturation never decides it.)"""
    import numpy as np

    values = np.asarray(latencies, dtype=float)
    values = values[~np.broadcast_to(np.asarray(past, dtype=bool), values.shape)]
    values = values[np.isfinite(values) & (values > 0)]
    return bool(len(values)) and float(values.max()) > spread * float(values.min())


def _hollow(ax: Any, x: Any, y: Any, mask: Any, color: str) -> None:
    ax.scatter(x[mask], y[mask], s=60, facecolors="white", edgecolors=color, zorder=3, linewidths=1.5)


@contextmanager
def _canvas(path: str | os.PathLike[str] | None, axes: Any, panels: int, figsize: tuple[float, float]) -> Iterator[list[Any]]:
    """The matplotlib Axes a plot of ``panels`` panels draws into: the caller's ``axes`` (an Axes, or as many
    as there are panels: a notebook's figure), saved to ``path`` too if given; else those of a new figure
    (no pyplot, no backend chosen) saved to ``path`` and dropped."""
    if axes is not None:
        given = [axes] if hasattr(axes, "plot") else list(axes)
        if len(given) != panels or not all(hasattr(a, "plot") for a in given):
            raise ConfigError("axes", f"{len(given)} objects", f"{panels} matplotlib Axes, one per panel of this plot")
        yield given
        if path is not None:
            given[0].figure.savefig(path, dpi=120)
        return
    if path is None:
        raise ConfigError("path", None, "a file to write the plot to, or axes= to draw into")
    from matplotlib.figure import Figure

    figure = Figure(figsize=(figsize[0] * panels, figsize[1]), layout="constrained")
    yield list(figure.subplots(1, panels, squeeze=False)[0])
    figure.savefig(path, dpi=120)


def plot_latency_vs_load(
    frame: pd.DataFrame, varied: Sequence[str], path: str | os.PathLike[str] | None = None, *, axes: Any = None
) -> list[Any]:
    """Latency (mean ± 95% CI) and accepted load against the load applied (:func:`load_column`), one line
    per combination of the other varied keys. Points past saturation (flitcast.saturation) have no latency:
    a ▲ at the top of the latency panel stands for each (:func:`draw_latency`); the accepted-load panel draws
    them hollow. The grey dotted line is accepted = load, with the header flits of multidestination worms
    where there are any (module doc). Into ``path``, or the two ``axes`` given (and ``path`` if given too);
    returns the two Axes."""
    load = load_column(frame)
    name = load.removesuffix("_load")  # offered | effective
    groups = [k for k in varied if k != LOAD_KEY and k in frame.columns]
    data = frame.sort_values(load, kind="stable")
    parts = [(values, part, saturated(part).to_numpy()) for values, part in _parts(data, groups)]
    # past saturation latency explodes; a knee spanning more than 20× below it is drawn on a log axis
    log = log_scale_wanted([v for _, part, _ in parts for v in part["latency_mean"]], [p for _, _, past in parts for p in past])

    with _canvas(path, axes, 2, (5.5, 4.5)) as (ax_lat, ax_acc):
        if log:
            ax_lat.set_yscale("log")
        for values, part, flagged in parts:
            label = _label(groups, values) if groups else None
            x = part[load].astype(float)
            accepted = part["accepted_load"].astype(float)
            line = draw_latency(
                ax_lat, x, part["latency_mean"].astype(float), flagged, ci=part["latency_ci95"].astype(float),
                log=log, marker="o", label=label,
            )
            color = line.get_color()
            ax_acc.plot(x, accepted, marker="o", color=color, label=label)
            _hollow(ax_acc, x, accepted, flagged, color)
        _identity_lines(ax_acc, data, load, name)
        axis = f"{name} load (flits/node/cycle)"
        latency = "operation latency (cycles)" if name == "effective" else "message latency (cycles)"
        ax_lat.set(xlabel=axis, ylabel=latency, title=f"Latency vs {name} load (mean ± 95% CI)")
        ax_acc.set(xlabel=axis, ylabel="accepted load (flits/node/cycle)", title=f"Accepted vs {name} load (hollow: past saturation)")
        for ax in (ax_lat, ax_acc):
            ax.grid(True, alpha=0.3)
        plain_log_ticks(ax_lat)
        latency_legend(ax_lat, fontsize="small")
        if ax_acc.get_legend_handles_labels()[0]:
            ax_acc.legend(fontsize="small")
    return [ax_lat, ax_acc]


def _identity_lines(ax: Any, data: pd.DataFrame, load: str, name: str) -> None:
    """accepted = load, one grey line per ratio of ejected to payload flits (:func:`header_factor`)."""
    if not len(data):
        return
    factors = data.apply(header_factor, axis=1).round(9)
    x = data[load].astype(float)
    styles = [":", "-.", "--", (0, (1, 3))]
    for i, factor in enumerate(sorted(set(factors))):
        top = float(x[factors == factor].max())
        if not math.isfinite(top):
            continue
        label = f"accepted = {name}" + ("" if factor == 1 else f" (+ headers, ×{factor:.4g})")
        ax.plot([0, top], [0, top * factor], linestyle=styles[i % len(styles)], color="grey", label=label, zorder=2.5)


#: what a closed workload's columns show, for the axis labels
CLOSED_COLUMNS = {
    "completion_cycles": "completion (cycles)",
    "latency_mean": "mean operation latency (cycles)",
}


def plot_completion(
    frame: pd.DataFrame, varied: Sequence[str], path: str | os.PathLike[str] | None = None, *, axes: Any = None
) -> list[Any]:
    """A closed workload's sweep: ``completion_cycles`` and ``latency_mean`` (where the table has them)
    against the first numeric varied key (:func:`x_key`), one line per combination of the other varied
    keys; an incomplete point (``saturated``: the operations did not finish within ``run.drain_max_cycles``)
    has neither a completion time nor a latency: a ▲ at the top of each panel stands for it
    (:func:`draw_latency`). A collective's α-β-γ estimate is drawn dashed in its curve's colour. Into
    ``path``, or the ``axes`` given, one per panel (:func:`completion_panels`); returns the Axes."""
    key = x_key(frame, varied)
    groups = [k for k in varied if k != key and k in frame.columns]
    columns = completion_panels(frame)
    estimate = has_estimate(frame)
    numeric = _numeric(frame[key])
    data = frame.sort_values(key, kind="stable") if numeric else frame.assign(**{key: frame[key].map(str)})
    programs = ", ".join(dict.fromkeys(map(str, frame["workload.program"])))
    short = key.split(".", 1)[-1]

    with _canvas(path, axes, len(columns), (5.5, 4.5)) as drawn:
        for values, part in _parts(data, groups):
            label = _label(groups, values) if groups else None
            incomplete = part["saturated"].fillna(False).astype(bool) if "saturated" in part else False
            for ax, column in zip(drawn, columns, strict=True):
                x = part[key].astype(float) if numeric else part[key]
                y = part[column].astype(float)
                line = draw_latency(ax, x, y, incomplete, note=INCOMPLETE_NOTE, marker="o", linestyle="-" if numeric else "none", label=label)
                if estimate and column == "completion_cycles":  # the same schedule without contention
                    ax.plot(x, part["estimate_cycles"].astype(float), linestyle="--", color=line.get_color(), label="_nolegend_")
        for ax, column in zip(drawn, columns, strict=True):
            ax.set(xlabel=short, ylabel=CLOSED_COLUMNS[column], title=f"{column} vs {short}")
            if numeric and log_scale_wanted(data[key], spread=10.0):  # sizes, counts over decades, ticked as numbers
                ax.set_xscale("log")
            if log_scale_wanted(data[column]):
                ax.set_yscale("log")
            plain_log_ticks(ax)
            ax.grid(True, alpha=0.3)
            if estimate and column == "completion_cycles":
                from matplotlib.lines import Line2D

                ax.add_artist(ax.legend([Line2D([], [], color="grey", linestyle="--")], ["α-β-γ estimate (no contention)"], loc="lower right", fontsize="small"))
            latency_legend(ax, fontsize="small")
        drawn[0].figure.suptitle(f"closed workload ({programs}): no load axis", fontsize=9)
    return drawn


def completion_panels(frame: pd.DataFrame) -> list[str]:
    """The columns :func:`plot_completion` draws, a panel each: ``completion_cycles`` and ``latency_mean``
    where the table has them, the latency left out where it is the completion on every point (one
    operation a point: a collective)."""
    columns = [c for c in CLOSED_COLUMNS if c in frame.columns and frame[c].notna().any()] or ["completion_cycles"]
    if "latency_mean" in columns and _same(frame, "latency_mean", "completion_cycles"):
        columns.remove("latency_mean")
    return columns


def _same(frame: pd.DataFrame, a: str, b: str) -> bool:
    """Columns ``a`` and ``b`` hold the same value on every point (empty where the other is)."""
    left, right = frame[a].astype(float), frame[b].astype(float)
    return bool(((left == right) | (left.isna() & right.isna())).all())


def model_plot(frame: pd.DataFrame, path: str | os.PathLike[str] | None = None, *, axes: Any = None) -> Any:
    """Study 004's model: latency (µs, log scale) against group size, one line per algorithm (and Mu-torus
    partition length) and message size. Into ``path``, or the Axes ``axes``; returns the Axes."""
    with _canvas(path, axes, 1, (7, 4.5)) as (ax,):
        sizes = sorted(frame["message_bytes"].unique())
        curves: Iterable[tuple[tuple[Any, ...], pd.DataFrame]] = frame.groupby(["algorithm", "r", "message_bytes"], dropna=False, sort=False)
        for (algorithm, r, size), part in curves:
            label = algorithm + (f" r={int(r)}" if r is not None and not (isinstance(r, float) and math.isnan(r)) else "") + (f", {size} B" if len(sizes) > 1 else "")
            part = part.sort_values("group")
            ax.plot(part["group"], part["latency_us"], marker="o", markersize=3, label=label)
        ax.set_yscale("log")
        plain_log_ticks(ax)
        ax.set_xlabel("multicast group size (nodes)")
        ax.set_ylabel("completion latency, model (µs)")
        k = int(frame["k"].iloc[0])
        ax.set_title(f"study 004 small-message model, {k}×{k} unidirectional torus", fontsize=9)
        ax.legend(fontsize=7)
    return ax


def estimate_plot(
    frame: pd.DataFrame, varied: Sequence[str], path: str | os.PathLike[str] | None = None, *, axes: Any = None
) -> Any:
    """A collective's α-β-γ estimate (``flitcast model --collective``): completion against the first varied
    key with numbers (``x_key``), one line per value of the other varied keys. Into ``path``, or the Axes
    ``axes``; returns the Axes."""
    with _canvas(path, axes, 1, (7, 4.5)) as (ax,):
        x = x_key(frame, varied) if varied else None
        others = [k for k in varied if k != x]
        groups = frame.groupby(others, sort=False) if others else [((), frame)]
        for i, (values, part) in enumerate(groups):
            values = values if isinstance(values, tuple) else (values,)
            label = ", ".join(f"{k.split('.', 1)[-1]}={v}" for k, v in zip(others, values, strict=True)) or "estimate"
            part = part.sort_values(x) if x else part
            xs = part[x] if x else range(len(part))
            ax.plot(xs, part["estimate_cycles"], marker="os^Dv"[i % 5], markersize=3, label=label)
        ax.set_yscale("log")
        plain_log_ticks(ax)
        ax.set_xlabel(x.split(".", 1)[-1] if x else "")
        ax.set_ylabel("completion, α-β-γ estimate (cycles)")
        ax.set_title("collective: α-β-γ estimate (no contention)", fontsize=9)
        ax.legend(fontsize=7)
    return ax
